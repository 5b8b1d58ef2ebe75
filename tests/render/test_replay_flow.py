"""Recording and replaying in the game (issue 16), offscreen: every flight flown through the
flow is recorded in the recordings directory, the menu lists it, choosing it replays it bit
for bit with the replay bar drawn, the replay keys act, and taking over flies on and records
the flight on (the replayed part, then the new)."""
import numpy as np
import pytest

from flightsim.recording.format import read_recording
from flightsim.recording.library import list_recordings
from flightsim.recording.replay import verify
from tests.render.test_screenshots_flow import OUT, Clock, _flow, _save, config, gl, target  # noqa: F401  (fixtures)


def _amber(px):
    p = px.astype(int)
    return (p[..., 0] > 200) & (p[..., 1] > 130) & (p[..., 1] < 210) & (p[..., 2] < 90)


def _choose(flow, kind, label_part=""):
    for _ in range(len(flow.menu.items)):
        it = flow.menu.item
        if it.kind == kind and label_part in (it.label + it.detail):
            return flow.menu_command("select")
        flow.menu_command("down")
    raise AssertionError(f"no {kind} item {label_part!r} in the menu")


def test_a_flight_is_recorded_listed_replayed_and_taken_over(gl, config, tmp_path):
    rec_dir = tmp_path / "recordings"
    flow = _flow(gl, recordings_dir=rec_dir)
    try:
        flow.start("thermal")
        clock = Clock(flow)
        clock.frames(14 * 4, dt=0.25)                  # 14 seconds flown (700 steps), drawn at 4 fps
        flown = flow.world.physics.steps
        flow.switch("airfield")                        # the thermal flight's recording is closed
        [info] = list_recordings(rec_dir)
        assert info.scenario_name == "thermal" and "min" in info.detail
        assert abs(info.seconds - flown * 0.02) < 1.01      # (to the last whole second flushed)

        flow.open_menu("pause")
        assert any(it.kind == "heading" and it.label == "Recorded flights" for it in flow.menu.items)
        assert _choose(flow, "replay", "hermal") == "replay"
        player = flow.replay
        assert player is not None and flow.menu is None and flow.world.physics.driver is player
        assert flow.world.scenario.path.stem == "thermal"

        clock = Clock(flow)
        img = clock.frames(5 * 4 + 2, dt=0.25)         # past the first snapshot (250 steps)
        assert player.step >= 250 and player.verified >= 1 and player.mismatch is None
        _save("replay_bar.png", img)
        assert _amber(img[-40:, :]).sum() > 50         # the bar's track, filled to where it is
        bar = flow.game.replay_bar                     # where the window's mouse scrubs
        x0, y0, x1, y1 = bar.track_rect
        assert bar.hit((x0 + x1) / 2, (y0 + y1) / 2) and not bar.hit(x0, y1 + 40)
        assert bar.fraction_at(x0 + 0.25 * (x1 - x0)) == pytest.approx(0.25) and bar.fraction_at(x0 - 50) == 0.0

        flow.replay_command("faster")
        assert player.speed == 2.0
        s0 = player.step
        clock.frames(30)
        assert player.step - s0 in range(48, 53)       # 25 ticks at two steps a tick
        flow.replay_command("play_pause")
        s0 = player.step
        clock.frames(30)
        assert player.step == s0                       # paused
        flow.replay_command("back")                    # 10 s back: from the start's checkpoint
        clock.frames(3)
        assert player.step == max(s0 - 500, 0) and player.seeking_to is None
        flow.app_action("pause")                       # P in a replay: play / pause
        assert player.playing

        clock.frames(60)
        at = player.step
        flow.take_over()
        assert flow.replay is None
        clock.frames(3 * 4, dt=0.25)                   # three seconds of the pilot's own flying
        assert flow.world.physics.driver is None and player.taken_over
        flow.switch("airfield")
    finally:
        flow.close()
    taken = [r for r in list_recordings(rec_dir) if r.continues]
    assert len(taken) == 1
    rec = read_recording(taken[0].path)
    assert rec.header["continues"]["step"] == at or abs(rec.header["continues"]["step"] - at) <= 2
    assert rec.steps > rec.header["continues"]["step"] + 100
    v = verify(rec)
    assert v.ok, str(v)


def test_a_recording_of_other_code_is_refused_in_the_menu(gl, config, tmp_path):
    import json
    import struct

    from flightsim.recording.format import MAGIC
    rec_dir = tmp_path / "recordings"
    flow = _flow(gl, recordings_dir=rec_dir)
    try:
        flow.start("airfield")
        Clock(flow).frames(80)
        flow.switch("winch")
        [info] = list_recordings(rec_dir)
        data = info.path.read_bytes()
        (n,) = struct.unpack_from("<I", data, len(MAGIC))
        h = json.loads(data[len(MAGIC) + 4:len(MAGIC) + 4 + n])
        h["code"]["physics"] = "0" * 16
        body = json.dumps(h).encode()
        info.path.write_bytes(MAGIC + struct.pack("<I", len(body)) + body + data[len(MAGIC) + 4 + n:])
        world = flow.world
        flow.open_menu("pause")
        _choose(flow, "replay")
        assert flow.menu is not None and flow.menu.alert and flow.world is world and flow.replay is None
        assert "physics code has changed" in flow.menu.message
    finally:
        flow.close()


def test_no_recording_when_the_setting_is_off(gl, config, tmp_path):
    from flightsim.app.settings import Settings
    rec_dir = tmp_path / "recordings"
    flow = _flow(gl, settings=Settings(record_flights=False), recordings_dir=rec_dir)
    try:
        flow.start("airfield")
        Clock(flow).frames(80)
        assert flow.world.physics.recorder is None
    finally:
        flow.close()
    assert not list(rec_dir.glob("*.fsrec")) if rec_dir.exists() else True
