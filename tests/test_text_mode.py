"""Seed 001's text-mode simulator (``python run.py --text``): the game's flight in a terminal.

The readout and the keys are tested without a terminal (TextFlight with no screen, the physics
ticked here); one flight runs the real command in a pseudo-terminal, as a player over ssh would.
"""
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from flightsim.app.text_mode import TextFlight, readout_lines
from flightsim.input.fs2 import STICK_STEP
from flightsim.runtime.handoff import DT
from flightsim.world.assembly import World

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def flight():
    return TextFlight(World("astir", "airfield"))


def _fly(tf, seconds, t0=0.0):
    w = tf.world
    snap = w.buffer.read()[1]
    for k in range(int(seconds / DT)):
        w.mailbox.post(tf.controls(t0 + k * DT, DT))
        w.physics.tick(t0 + k * DT)
        snap = w.buffer.read()[1]
        tf.judge(snap)
    return snap


def test_the_seeds_keys_fly_the_aircraft_and_the_readout_shows_it(flight):
    tf = flight
    start = tf.world.buffer.read()[1]
    for _ in range(4):
        tf.key("b", 0.0)                         # B: elevator up, four steps
    snap = _fly(tf, 3.0)
    assert snap.controls.pitch == pytest.approx(4 * STICK_STEP)
    roll, pitch, _ = snap.euler_rad
    assert pitch > start.euler_rad[1] + 0.05     # the nose came up
    text = "\n".join(tf.lines(snap))
    for label in ("KTAS", "KIAS", "PITCH", "BANK", "ALT.", "VRATE", "HDG", "ELEV.", "POWER", "FLAPS", "STALL",
                  "DIST.", "TIME", "T/B elevator", "Q quit"):
        assert label in text, label
    assert "+20 %" in text                       # the elevator where the keys left it
    assert max(len(line) for line in tf.lines(snap)) <= 80          # an 80-column terminal shows it all
    tf.key("g", 3.0)
    tf.key("n", 3.0)                             # N: flaps a notch down
    snap = _fly(tf, 0.5, 3.0)
    assert snap.controls.flap == pytest.approx(0.25)


def test_the_readout_is_in_the_seeds_units():
    w = World("astir", "airfield")
    snap = w.buffer.read()[1]
    af = w.terrain.airfield
    lines = readout_lines(snap, runway_ne=(af.north_m, af.east_m), stall_level=1, flap_deg=None, sim_rate=1.0)
    kt = snap.tas_ms / 0.514444
    assert f"KTAS  {kt:6.0f}" in lines[2]
    assert f"{snap.altitude_m / 0.3048:6.0f} ft" in lines[4]
    assert "STALL STALL" in "\n".join(lines)
    assert "yd from the runway" in "\n".join(lines)


def test_a_crash_is_judged_as_the_game_judges_it():
    tf = TextFlight(World("astir", "airfield"))
    for _ in range(30):
        tf.key("t", 0.0)                         # full nose down into the ground
    _fly(tf, 60.0)
    assert tf.log.crash is not None and tf.message.startswith("YOU CRASHED!")


def test_without_a_terminal_it_says_so_in_one_line():
    r = subprocess.run([sys.executable, "run.py", "--text"], cwd=ROOT, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 2 and "needs a terminal" in r.stderr and "Traceback" not in r.stderr


def test_it_flies_in_a_real_terminal_and_quits_on_q():
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = dict(os.environ, TERM="xterm")
    p = subprocess.Popen([sys.executable, "run.py", "--text", "--scenario", "airfield"], cwd=ROOT, env=env,
                         stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    seen, deadline = b"", time.monotonic() + 90.0
    try:
        while b"VRATE" not in seen and time.monotonic() < deadline and p.poll() is None:
            if select.select([master], [], [], 0.5)[0]:
                seen += os.read(master, 65536)
        assert b"KTAS" in seen and b"VRATE" in seen, seen[-2000:]
        os.write(master, b"bbbb")
        time.sleep(1.0)
        os.write(master, b"q")
        assert p.wait(timeout=20) == 0
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)


def test_the_c172_s_mixture_and_carburettor_heat_from_the_terminal():
    """[ leans the mixture a step, J pulls the carburettor heat: the power line shows both and the
    carburettor's air temperature, in 80 columns."""
    tf = TextFlight(World("c172p", "c172_carb_ice"))
    for key in ("[", "[", "j"):
        tf.key(key, 0.0)
    snap = _fly(tf, 2.0)
    assert snap.controls.mixture_lean == pytest.approx(0.1) and snap.controls.carb_heat == 1.0
    power = next(line for line in tf.lines(snap) if line.startswith("POWER"))
    assert "MIXT.  90 %" in power and "CARB" in power and power.endswith("HEAT")
    assert max(len(line) for line in tf.lines(snap)) <= 80
