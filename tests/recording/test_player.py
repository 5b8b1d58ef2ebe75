"""The replay player (issue 16): it flies a recording tick by tick at any speed, seeks back
and forth through in-memory checkpoints of the whole world and lands on the same bits as
flying straight through, and a flight taken over is recorded on and verifies; the
recordings directory lists, names and prunes."""
import argparse
import os
import time

import numpy as np
import pytest

from flightsim.app.telemetry import telemetry
from flightsim.recording.format import read_recording
from flightsim.recording.library import list_recordings, new_recording_path, prune, summary
from flightsim.recording.player import CHECKPOINT_EVERY, SPEEDS, ReplayPlayer
from flightsim.recording.recorder import Recorder
from flightsim.recording.replay import build_world, verify


def _record(path, scenario, seconds):
    args = argparse.Namespace(scenario=scenario, aircraft=None, altitude_m=None, pilot="auto", seconds=seconds,
                              realtime=False, json=True, record=str(path))
    assert telemetry(args) == 0
    return read_recording(path)


@pytest.fixture(scope="module")
def combat(tmp_path_factory):
    """fighter_combat flown by the autopilot for 30 s: the AI, bullets and balloons around it."""
    return _record(tmp_path_factory.mktemp("rec") / "combat.fsrec", "fighter_combat", 30.0)


def _player(rec):
    world = build_world(rec)
    p = ReplayPlayer(rec, world)
    world.physics.driver = p
    return p, world.physics


class Ticks:
    def __init__(self, ph):
        self.ph, self.wall = ph, 0.0

    def __call__(self, n=1):
        for _ in range(n):
            self.wall += 0.02
            self.ph.tick(self.wall)


def _until(tick, p, step):
    while p.step < step and not p.at_end:
        tick()


def test_played_through_it_matches_every_snapshot(combat):
    p, ph = _player(combat)
    tick = Ticks(ph)
    p.set_speed(16.0)
    while not p.at_end:
        tick()
    assert p.step == combat.steps == 1500
    assert p.verified == len(combat.snapshots) == 6 and p.mismatch is None
    assert sorted(p.checkpoints) == list(range(0, 1501, CHECKPOINT_EVERY))
    assert not p.playing and p.ended             # it stops at the end
    p.seek_by(-10.0)                             # a seek from there plays on
    tick(2)
    assert p.playing and not p.ended and p.step > 1000
    _until(tick, p, 1500)
    p.toggle_play()                              # play at the end: from the start again
    tick()
    assert p.step <= 16 and p.playing


def test_seeking_back_and_on_lands_on_the_same_bits(combat):
    """Straight through, keeping the player's and the opponent's states; then seeks back (from a
    checkpoint) and on (flown at full speed) must reproduce them exactly."""
    p, ph = _player(combat)
    tick = Ticks(ph)
    p.set_speed(4.0)
    seen = {}
    while not p.at_end:
        tick()
        if p.step % 100 == 0:
            seen[p.step] = (ph.state.copy(), p.world.combat.opp_sim.state.copy())
    for target in (300, 1100, 700, 0, 1400):
        p.seek_to(target)
        tick()
        while p.seeking_to is not None:
            tick()
        assert p.step == target
        if target:
            mine, theirs = seen[target]
            assert np.array_equal(ph.state, mine) and np.array_equal(p.world.combat.opp_sim.state, theirs), target
    p.playing = True
    _until(tick, p, 1500)
    assert np.array_equal(ph.state, seen[1500][0]) and p.mismatch is None


def test_speeds_from_a_quarter_to_sixteen(combat):
    p, ph = _player(combat)
    tick = Ticks(ph)
    assert SPEEDS[0] == 0.25 and SPEEDS[-1] == 16.0
    for speed, ticks, steps in ((0.25, 8, 2), (0.5, 8, 4), (1.0, 8, 8), (4.0, 8, 32), (16.0, 8, 128)):
        p.set_speed(speed)
        s0 = p.step
        tick(ticks)
        assert p.step - s0 == steps, speed
    p.toggle_play()
    s0 = p.step
    tick(20)
    assert p.step == s0
    assert p.faster(1) == 16.0 and p.faster(-1) == 8.0
    with pytest.raises(ValueError):
        p.set_speed(3.0)


def test_slow_motion_is_published_to_move_across_its_ticks(combat):
    """At 0.25x a new state comes every 4th tick, stamped 3 ticks ahead, so the renderer
    (which draws at now - 20 ms) interpolates across the 4 ticks instead of jumping."""
    from flightsim.runtime.handoff import render_alpha
    p, ph = _player(combat)
    p.set_speed(0.25)
    tick = Ticks(ph)
    tick(8)
    prev, curr = ph.buffer.read()
    assert curr.tick == prev.tick + 1
    assert abs((curr.wall_s - prev.wall_s) - 0.08) < 1e-9
    alphas = [render_alpha(prev, curr, tick.wall + k * 0.02 - 0.02) for k in range(4)]
    assert alphas == sorted(alphas) and alphas[0] < 0.3 and alphas[-1] > 0.7


def test_taking_over_records_the_replayed_part_then_the_new_flight(combat, tmp_path):
    p, ph = _player(combat)
    tick = Ticks(ph)
    _until(tick, p, 600)
    at = p.step
    out = tmp_path / "taken.fsrec"
    p.take_over(lambda rec, steps: Recorder.continuing(rec, steps, out))
    tick()
    assert ph.driver is None and p.taken_over
    ph.mailbox.post(ph.mailbox.read().replace(roll=0.5, pitch=0.3))    # the pilot's own controls
    tick(300)
    ph.recorder.close()
    rec = read_recording(out)
    assert rec.header["continues"] == {"recording": "combat.fsrec", "step": at}
    assert rec.steps == at + 300 and rec.controls[at + 10][1] != combat.controls[at + 10][1]
    assert np.array_equal(rec.controls[at - 1], combat.controls[at - 1])
    v = verify(rec)
    assert v.ok and v.matched == len(rec.snapshots) == 3, str(v)


def test_the_recordings_directory(tmp_path, combat):
    import datetime as dt
    t = dt.datetime(2026, 11, 24, 15, 30, 12)
    a = new_recording_path(tmp_path, "fighter combat!", t)
    assert a.name == "2026-11-24_153012_fighter_combat_.fsrec"
    a.write_bytes(combat.path.read_bytes())
    assert new_recording_path(tmp_path, "fighter combat!", t).name.endswith("-2.fsrec")
    info = summary(a)
    assert info.seconds == pytest.approx(30.0) and info.aircraft_name == combat.header["aircraft_name"]
    assert "30 s" in info.detail
    (tmp_path / "junk.fsrec").write_bytes(b"not a recording")
    for k in range(5):
        f = tmp_path / f"old{k}.fsrec"
        f.write_bytes(combat.path.read_bytes())
        os.utime(f, (time.time() - 1000 * (k + 1),) * 2)
    listed = list_recordings(tmp_path)
    assert len(listed) == 6 and listed[0].path == a            # newest first; the junk is left out
    assert prune(tmp_path, keep=3) == 4 and len(list(tmp_path.glob("*.fsrec"))) == 3
