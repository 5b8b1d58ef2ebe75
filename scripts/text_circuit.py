"""Fly a circuit in seed 001's text mode the way a person at a terminal would: read the screen,
press Flight Simulator II's keys (issue 34).

    python scripts/text_circuit.py              # in tmux: run.py --text, read with capture-pane,
                                                # type with send-keys (about 5 minutes, real time)
    python scripts/text_circuit.py --headless   # the same pilot on TextFlight's own screen lines,
                                                # the physics ticked here (seconds)

The pilot (``ScreenPilot``) sees only the text screen (KIAS, PITCH, BANK, AGL, VRATE, HDG, the
control positions, DIST. and the runway's bearing) and answers with keys, a few a reading, four
readings a second: full power and the nose-wheel run on the centreline, rotate at 55 KIAS and
climb at 74, a left-hand circuit at 1,000 ft (crosswind at 600 ft, downwind at 65 % power;
abeam the runway power back to 15 % and flaps 10, base well past the threshold with flaps 20),
final on the runway's bearing down a 4 degree path to the threshold at 65 KIAS with flaps 30,
the flare, and the brakes. It prints the screen's last lines: TOUCHDOWN or YOU CRASHED!, as
the game judges it.
"""
from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNWAY_HDG = 350.0
READ_S = 0.25
FIELDS = {"KIAS": r"KIAS\s+(-?\d+)", "PITCH": r"PITCH\s+([+-]?[\d.]+)", "BANK": r"BANK\s+([+-]?[\d.]+)",
          "AGL": r"AGL\s+(-?\d+)", "VRATE": r"VRATE\s+([+-]?\d+)", "HDG": r"HDG\s+(\d+)",
          "ELEV": r"ELEV\.\s+([+-]?\d+)", "AIL": r"AIL\.\s+([+-]?\d+)", "RUD": r"RUD\.\s+([+-]?\d+)",
          "POWER": r"POWER\s+(\d+)", "FLAPS": r"FLAPS\s+(\d+)", "DIST": r"\((\d+\.\d+) km\)",
          "BRG": r"bearing (\d+\.\d)"}


def read(screen: str) -> dict | None:
    out = {}
    for k, pat in FIELDS.items():
        m = re.search(pat, screen)
        if m is None:
            return None
        out[k] = float(m.group(1))
    out["done"] = "TOUCHDOWN" in screen or "CRASHED" in screen
    out["crashed"] = "CRASHED" in screen
    return out


def wrap(a: float) -> float:
    return (a + 180.0) % 360.0 - 180.0


def clip(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


class ScreenPilot:
    """Keys for a screen reading (see the module's docstring)."""

    def __init__(self):
        self.phase = "takeoff"
        self.t = 0.0
        self.t_phase = 0.0
        self.elev_trim = 0.0       # where the elevator rests on average: the pilot's feel for the trim

    def to(self, phase):
        self.phase, self.t_phase = phase, self.t

    def keys(self, r: dict) -> list[str]:
        self.t += READ_S
        k = []
        agl, kias, hdg, brg, dist = r["AGL"], r["KIAS"], r["HDG"], r["BRG"], r["DIST"]
        p = self.phase
        # ---- what it wants: power %, pitch deg, heading, flaps deg
        power, flaps, hdg_t, pitch_t = 100.0, 0.0, RUNWAY_HDG, None
        if p == "takeoff":
            pitch_t = 8.0 if kias >= 55.0 else None
            if agl > 50.0:
                self.to("climb")
        if p == "climb":
            pitch_t = clip(8.0 + 0.5 * (kias - 74.0), 2.0, 12.0)
            if agl > 600.0:
                self.to("crosswind")
        if p == "crosswind":
            hdg_t = RUNWAY_HDG - 90.0
            pitch_t = clip(8.0 + 0.5 * (kias - 74.0), 2.0, 12.0) if agl < 950.0 else None
            if agl >= 950.0:
                power = 65.0
            if self.t - self.t_phase > 22.0:
                self.to("downwind")
        if p == "downwind":
            hdg_t, power = RUNWAY_HDG - 180.0, 65.0
            if wrap(brg - RUNWAY_HDG) < 90.0:            # abeam the runway: power back, flaps 10, down
                power, flaps = 15.0, 10.0
            if 0.0 < wrap(brg - RUNWAY_HDG) < 35.0 and dist > 1.6:       # well past the threshold
                self.to("base")
        if p == "base":
            hdg_t, power, flaps = RUNWAY_HDG + 90.0, 10.0, 20.0
            if wrap(brg - RUNWAY_HDG) < 10.0:
                self.to("final")
        if p == "final":
            # on the runway's bearing (the nearer, the tighter); down a 4 degree path to the threshold
            hdg_t = RUNWAY_HDG + clip((3.0 + 6.0 / max(dist, 0.3)) * wrap(brg - RUNWAY_HDG), -25.0, 25.0)
            flaps = 30.0
            path_ft = max(dist * 1000.0 - 450.0, 0.0) * math.tan(math.radians(4.0)) / 0.3048
            power = clip(25.0 + 0.3 * (path_ft - agl), 0.0, 80.0)
            if agl < 15.0:
                self.to("flare")
        if p == "flare":
            hdg_t, power, flaps = RUNWAY_HDG, 0.0, 30.0
            pitch_t = 5.0
        if pitch_t is None and p in ("crosswind", "downwind", "base"):
            pitch_t = clip(1.0 + 0.02 * (1000.0 - agl) - 0.004 * r["VRATE"], -4.0, 8.0)
            if p == "base" or flaps > 0.0:              # descending: the pitch holds the speed
                pitch_t = clip(2.0 + 0.5 * (kias - (70.0 if p == "base" else 80.0)), -6.0, 8.0)
        if p == "final":
            pitch_t = clip(1.0 + 0.5 * (kias - 65.0), -6.0, 8.0)
        # ---- keys toward it: a few steps a reading, from the positions the screen shows
        k += _steps(r["POWER"], power, 5.0, "KEY_RIGHT", "KEY_LEFT", 4)
        want_flap_notches = round(flaps / 10.0)
        have = round(r["FLAPS"] / 10.0)
        if want_flap_notches != have:
            k.append("n" if want_flap_notches > have else "y")
        if pitch_t is not None:
            err = pitch_t - r["PITCH"]
            self.elev_trim = clip(self.elev_trim + 0.2 * err * READ_S, -40.0, 40.0)
            k += _steps(r["ELEV"], self.elev_trim + 4.0 * err, 5.0, "b", "t", 3)
        else:
            k += _steps(r["ELEV"], 0.0, 5.0, "b", "t", 3)
        err = wrap(hdg_t - hdg)
        if r["AGL"] < 10.0 and p in ("takeoff", "flare"):
            k += _steps(r["RUD"], clip(4.0 * err, -60.0, 60.0), 5.0, "c", "z", 3)     # steering on the ground
            k += _steps(r["AIL"], clip(-2.0 * r["BANK"], -30.0, 30.0), 5.0, "h", "f", 2)
        else:
            bank_t = clip(1.5 * err, -25.0, 25.0)
            k += _steps(r["AIL"], clip(2.0 * (bank_t - r["BANK"]), -40.0, 40.0), 5.0, "h", "f", 2)
            k += _steps(r["RUD"], 0.0, 5.0, "c", "z", 2)
        if p == "flare" and r["AGL"] < 6.0 and kias < 50.0:
            k += [".", "."]                             # on the ground: the brakes
        return k


def _steps(have: float, want: float, step: float, up: str, down: str, most: int) -> list[str]:
    n = int(round((want - have) / step))
    n = max(-most, min(most, n))
    return [up] * n if n > 0 else [down] * -n


# ---------------------------------------------------------------------------- the two ways to fly it
def headless(seconds: float = 600.0, scenario: str = "c172_circuits", quiet: bool = False):
    sys.path.insert(0, str(ROOT))
    from flightsim.app.text_mode import TextFlight
    from flightsim.runtime.handoff import DT
    from flightsim.world.assembly import World
    tf = TextFlight(World("c172p", scenario))
    pilot = ScreenPilot()
    w = tf.world
    snap = w.buffer.read()[1]
    every = int(round(READ_S / DT))
    for k in range(int(seconds / DT)):
        t = k * DT
        if k % every == 0:
            screen = "\n".join(tf.lines(snap))
            r = read(screen)
            if r is not None:
                if r["done"] and tf.log.at_rest:
                    break
                for key in pilot.keys(r):
                    tf.key(key.lower() if len(key) == 1 else key, t)
                if k % (every * 20) == 0 and not quiet:
                    print(f"{t:6.1f} {pilot.phase:9s} KIAS {r['KIAS']:3.0f} AGL {r['AGL']:5.0f} HDG {r['HDG']:3.0f} "
                          f"BRG {r['BRG']:3.0f} DIST {r['DIST']:.2f} PWR {r['POWER']:3.0f}", flush=True)
        w.mailbox.post(tf.controls(t, DT))
        w.physics.tick(t)
        snap = w.buffer.read()[1]
        tf.judge(snap)
    if not quiet:
        print("\n".join(tf.lines(snap)))
    return tf


TMUX_KEYS = {"KEY_LEFT": "Left", "KEY_RIGHT": "Right"}


def in_tmux(seconds: float = 600.0, scenario: str = "c172_circuits", session: str = "fltsim2d") -> int:
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                    f"cd {ROOT} && {sys.executable} run.py --text --scenario {scenario}; sleep 5"], check=True)
    pilot, screen, t0 = ScreenPilot(), "", time.monotonic()
    try:
        while time.monotonic() - t0 < seconds:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                                    text=True).stdout
            r = read(screen)
            if r is not None:
                if r["done"] and ("restarts" in screen):
                    break
                keys = [TMUX_KEYS.get(k, k) for k in pilot.keys(r)]
                if keys:
                    subprocess.run(["tmux", "send-keys", "-t", session, *keys])
            time.sleep(READ_S)
        print(screen)
        subprocess.run(["tmux", "send-keys", "-t", session, "q"])
    finally:
        time.sleep(1.0)
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    return 0 if "TOUCHDOWN" in screen else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--headless", action="store_true")
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--scenario", default="c172_circuits", help="c172_circuits, or c172_first_solo (the instructor)")
    a = ap.parse_args()
    if a.headless:
        tf = headless(a.seconds, a.scenario)
        sys.exit(0 if tf.log.touchdown is not None and tf.log.crash is None else 1)
    sys.exit(in_tmux(a.seconds, a.scenario))
