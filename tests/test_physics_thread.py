"""The 50 Hz physics thread: rate, snapshots, catch-up cap, pause/resume, clean stop."""
import time

import numpy as np

from flightsim.physics.named import Controls
from flightsim.runtime.handoff import ControlInputs, ControlMailbox
from flightsim.runtime.physics_thread import PhysicsThread
from flightsim.sim import Sim


def _thread(trainer_path, mailbox=None, **kw):
    sim = Sim(trainer_path)
    sim.spawn_trimmed_glide(30.0, 1500.0)
    sim.step()
    mb = mailbox or ControlMailbox(ControlInputs.from_array(sim.ctrl))
    return PhysicsThread(sim.state, sim.env, sim.terrain, sim.model, sim.tables, mb, **kw), sim


def test_runs_at_50_hz_and_publishes(trainer_path):
    th, sim = _thread(trainer_path)
    th.start()
    time.sleep(0.6)
    th.stop()
    assert not th.alive and th.error is None
    st = th.stats()
    assert 25 <= st["ticks"] <= 35
    assert abs(st["physics_hz"] - 50.0) < 2.5
    prev, curr = th.buffer.read()
    assert curr.tick == prev.tick + 1
    assert abs((curr.wall_s - prev.wall_s) - 0.02) < 1e-9     # scheduled times: exactly one tick apart
    assert curr.time_s > prev.time_s


class StallingMailbox(ControlMailbox):
    """Blocks the physics thread once, as a frozen machine would."""
    stalled = False

    def read(self):
        if not self.stalled and self.writes == 1:
            self.stalled = True
            time.sleep(0.4)
        return super().read()


def test_falls_behind_drops_time_never_spirals(trainer_path):
    mb = StallingMailbox()
    th, _ = _thread(trainer_path, mailbox=mb, max_catchup=5)
    mb.post(mb.read())
    th.start()
    time.sleep(0.8)
    th.stop()
    st = th.stats()
    assert st["dropped_ticks"] >= 10          # 0.4 s = 20 ticks behind; at most 5 made up
    assert st["ticks"] <= 0.8 / 0.02 - 10 + 2


def test_pause_resume_without_jump(trainer_path):
    th, _ = _thread(trainer_path)
    th.start()
    time.sleep(0.2)
    th.pause()
    time.sleep(0.05)
    t_paused = th.buffer.read()[1].tick
    time.sleep(0.3)
    assert th.buffer.read()[1].tick == t_paused      # stopped
    th.resume()
    time.sleep(0.1)
    th.stop()
    ticks_after = th.buffer.read()[1].tick - t_paused
    assert 2 <= ticks_after <= 8                     # no burst to catch up the pause


def test_controls_read_from_mailbox(trainer_path):
    th, sim = _thread(trainer_path)
    th.mailbox.post(ControlInputs(roll=0.5, airbrake=1.0))
    th.tick(0.0)
    s = th.buffer.read()[1]
    assert s.controls.roll == 0.5 and s.controls.airbrake == 1.0
    assert 0.0 < s.airbrake < 0.1                    # the airbrakes have started to move out
    assert Controls(th.ctrl).roll == 0.5
    assert np.any(s.deflections_rad != 0.0)


def test_reset_starts_new_epoch(trainer_path):
    th, sim = _thread(trainer_path)
    start = th.state.copy()
    for k in range(5):
        th.tick(k * 0.02)
    th.reset(start)
    th.tick(1.0)
    prev, curr = th.buffer.read()
    assert curr.epoch == 1 and prev is curr


def test_a_scripts_pilot_flies_in_place_of_the_mailbox(trainer_path):
    """PhysicsThread.pilot: called each tick with the aircraft by name (the diag of the last
    step), its controls written where the mailbox's would go; the player's input is ignored."""
    from flightsim.physics.named import Controls
    pt, _ = _thread(trainer_path)
    seen = []

    def pilot(view):
        seen.append((view.tick, view.ias_kmh))
        return Controls(roll=1.0, pitch=-0.3)

    pt.mailbox.post(ControlInputs(roll=-1.0))
    pt.pilot = pilot
    for k in range(3):
        pt.tick(k * pt.dt)
    ticks = [t for t, _ in seen]
    assert len(ticks) == 3 and np.diff(ticks).tolist() == [1, 1]    # once a tick, the state as it stands
    assert seen[-1][1] > 50.0                         # a real airspeed, read by name
    assert Controls(pt.ctrl).roll == 1.0 and Controls(pt.ctrl).pitch == -0.3
    pt.pilot = None
    pt.tick(3 * pt.dt)
    assert Controls(pt.ctrl).roll == -1.0             # the mailbox again
