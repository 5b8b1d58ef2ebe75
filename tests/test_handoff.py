"""Snapshots, the control mailbox and the interpolation the renderer draws with."""
import dataclasses
import math

import numpy as np
import pytest

from flightsim.physics.named import N_CONTROLS, N_DIAGNOSTICS, AircraftView, Controls
from flightsim.physics.named_model import AircraftData
from flightsim.physics.quat import quat_from_euler
from flightsim.physics.state import make_state, settle_surfaces
from flightsim.runtime.handoff import (
    ControlInputs,
    ControlMailbox,
    Pose,
    PublishedState,
    SnapshotBuffer,
    interpolate,
    make_snapshot,
    pose_at,
    render_alpha,
    slerp,
)


def _model():
    return AircraftData.blank([[-0.35, 0.0, 0.0, 0.0],      # an elevator
                               [0.0, 0.3, 0.0, 0.0]]).model  # an aileron


def test_control_inputs_match_layout():
    c = ControlInputs(pitch=0.1, roll=0.2, yaw=0.3, airbrake=0.4, flap=0.5, brake_left=0.6, brake_right=0.7,
                      throttle=0.8, pitch_trim=0.9)
    a = c.to_array()
    named = Controls(a)
    assert named.pitch == 0.1 and named.roll == 0.2 and named.yaw == 0.3 and named.airbrake == 0.4
    assert named.flap == 0.5 and named.brake_left == 0.6 and named.brake_right == 0.7
    assert named.throttle == 0.8 and named.pitch_trim == 0.9
    assert ControlInputs.from_array(a) == c
    assert Controls(ControlInputs(pitch=5.0).to_array()).pitch == 1.0     # clamped


def test_snapshot_is_immutable():
    ctrl = ControlInputs(pitch=0.5, roll=-1).to_array()
    s = make_snapshot(settle_surfaces(make_state((1, 2, -300)), ctrl), ctrl, np.zeros(N_DIAGNOSTICS),
                      _model(), wall_s=1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.tick = 3
    with pytest.raises(ValueError):
        s.position_ned_m[0] = 5.0
    assert s.altitude_m == 300.0
    np.testing.assert_allclose(s.deflections_rad, [-0.35 * 0.5, -0.3])


def test_a_published_tick_reads_as_the_snapshot_made_at_that_tick():
    """The physics thread publishes copies (PublishedState); the snapshot a reader makes from
    them later holds what one made at the tick held, however the state, the controls and the
    model's damage have moved on since."""
    ctrl = ControlInputs(pitch=0.5, roll=-1).to_array()
    state = settle_surfaces(make_state((1, 2, -300), (60.0, 0.0, 2.0)), ctrl)
    diag, model = np.zeros(N_DIAGNOSTICS), _model()
    AircraftView(state).tick = 7
    at_tick = make_snapshot(state, ctrl, diag, model, wall_s=1.0, epoch=2, paused=True, time_scale=4)
    published = PublishedState(state, ctrl, diag, model, 1.0, 2, True, 0.02, 4)
    state[:], ctrl[:], diag[:] = 9.0, 0.0, 1.0
    AircraftData(model).section_damage[:] = 1.0
    buf = SnapshotBuffer()
    buf.publish(published)
    assert buf.tick == 7
    prev, curr = buf.read()
    assert prev is curr and curr is buf.read()[1]            # made once, then kept
    for f in dataclasses.fields(at_tick):
        a, b = getattr(at_tick, f.name), getattr(curr, f.name)
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b, err_msg=f.name)
        else:
            assert a == b, f.name


def test_mailbox_latest_wins_and_commands_once():
    m = ControlMailbox()
    m.post(ControlInputs(pitch=0.1))
    m.post(ControlInputs(pitch=0.2))
    assert m.read().pitch == 0.2
    m.command("reset", 1)
    assert m.take_commands() == [("reset", (1,))]
    assert m.take_commands() == []


def test_slerp_shortest_arc():
    q0 = quat_from_euler(0.0, 0.0, math.radians(170))
    q1 = -quat_from_euler(0.0, 0.0, math.radians(-170))     # same as +190 deg, sign flipped
    mid = slerp(q0, q1, 0.5)
    yaw = math.atan2(2 * (mid[0] * mid[3] + mid[1] * mid[2]), 1 - 2 * (mid[2] ** 2 + mid[3] ** 2))
    assert abs(abs(math.degrees(yaw)) - 180.0) < 1e-6      # through 180, not through 0


def _snap(t_wall, tick, model):
    """A state on a 60 m circle flown at 30 m/s, banked, the physics' 50 Hz samples of it."""
    t = tick * 0.02
    w = 0.5
    st = make_state((60 * math.sin(w * t), 60 * (1 - math.cos(w * t)), -500.0), (30, 0, 0), 0.3, 0.0, w * t)
    AircraftView(st).tick = tick
    return make_snapshot(st, np.zeros(N_CONTROLS), np.zeros(N_DIAGNOSTICS), model, wall_s=t_wall)


def test_interpolated_path_is_smooth_at_any_frame_rate():
    """Frames at 23..144 fps on a simulated clock: the drawn path's velocity changes little
    from frame to frame, where drawing the latest 50 Hz state would step."""
    model = _model()
    rng = np.random.default_rng(1)
    buf = SnapshotBuffer()
    t0 = 100.0
    tick = 0
    buf.publish(_snap(t0, 0, model))
    t = t0
    interp, raw, times = [], [], []
    while t < t0 + 4.0:
        t += 1.0 / rng.uniform(23.0, 144.0)
        while t0 + (tick + 1) * 0.02 <= t:     # the physics thread's ticks up to now
            tick += 1
            buf.publish(_snap(t0 + tick * 0.02, tick, model))
        pose = pose_at(buf, t - 0.02)
        interp.append(pose.position_ned_m.copy())
        raw.append(buf.read()[1].position_ned_m.copy())
        times.append(t)
    times = np.array(times)
    dt = np.diff(times)

    def velocity_jumps(path):
        v = np.diff(np.array(path), axis=0) / dt[:, None]
        return np.linalg.norm(np.diff(v, axis=0), axis=1)

    smooth = velocity_jumps(interp)[5:]
    stepped = velocity_jumps(raw)[5:]
    # 30 m/s turning at 0.5 rad/s: the true velocity changes by 15 m/s^2 * frame time (< 0.7 m/s)
    assert smooth.max() < 1.5, smooth.max()
    assert stepped.max() > 20.0                    # sample-and-hold jumps by whole ticks
    assert smooth.max() < 0.05 * stepped.max()
    # and the interpolated speed stays the flown 30 m/s at every frame rate
    speed = np.linalg.norm(np.diff(np.array(interp), axis=0), axis=1)[5:] / dt[5:]
    assert np.all(np.abs(speed - 30.0) < 0.5)


def test_render_alpha_and_epochs():
    model = _model()
    a = _snap(1.0, 0, model)
    b = _snap(1.02, 1, model)
    assert render_alpha(a, b, 1.01) == pytest.approx(0.5)
    assert render_alpha(a, b, 0.5) == 0.0 and render_alpha(a, b, 2.0) == 1.0
    c = dataclasses.replace(b, epoch=1)
    p = interpolate(a, c, 0.3)
    assert isinstance(p, Pose) and p.alpha == 1.0      # never across a reset
