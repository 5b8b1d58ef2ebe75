"""Sound cues: the mappings are pure functions; the mixer is numpy; no device means silence."""
import numpy as np
import pytest

from flightsim.audio import synth
from flightsim.audio.engine import AudioEngine
from flightsim.instruments import spec as S
from flightsim.instruments.state import LandingEvent
from tests.instruments.helpers import snap

R = synth.RATE


# ------------------------------------------------------------------ what each cue sounds like

def test_vario_beeps_rise_in_pitch_and_rate_with_climb():
    tones = [synth.vario_tone(v) for v in (0.2, 1.0, 2.5, 5.0)]
    assert all(t is not None and t.pulse_hz > 0 for t in tones)
    assert [t.freq_hz for t in tones] == sorted(t.freq_hz for t in tones)
    assert [t.pulse_hz for t in tones] == sorted(t.pulse_hz for t in tones)
    assert tones[-1].freq_hz == pytest.approx(1200.0) and tones[-1].pulse_hz == pytest.approx(7.5)
    assert synth.vario_tone(9.0) == tones[-1]                      # pegged at the scale end


def test_vario_is_quiet_in_a_glide_and_low_in_strong_sink():
    assert synth.vario_tone(0.0) is None and synth.vario_tone(-0.8) is None and synth.vario_tone(-1.9) is None
    low = synth.vario_tone(-3.0)
    assert low.pulse_hz == 0.0 and low.duty == 1.0 and low.freq_hz < synth.vario_tone(0.2).freq_hz
    assert synth.vario_tone(-5.0).freq_hz < low.freq_hz
    assert synth.vario_tone(-3.0, sink_tone=False) is None


def test_wind_grows_with_airspeed_and_airbrakes():
    levels = [synth.wind_level(v)[0] for v in (0.0, 15.0, 30.0, 60.0)]
    assert levels[0] == 0.0 and levels == sorted(levels)
    assert synth.wind_level(25.0, airbrake=1.0)[0] > synth.wind_level(25.0)[0]
    assert synth.wind_level(200.0)[0] == 1.0


def test_buffet_and_engine_hook():
    assert synth.buffet_level(0) == 0.0 < synth.buffet_level(1) < synth.buffet_level(2) == 1.0
    assert synth.engine_tone(None) is None and synth.engine_tone(0.0) is None
    assert synth.engine_tone(2700.0) == pytest.approx(270.0)       # V-12: 6 firings a turn


def test_cues_for_glider_and_fighter():
    s = snap(ias=25.0)
    g = synth.cues_for(s, 2.0, 1, 250.0, glider=True)
    assert g.vario is not None and g.buffet > 0 and not g.horn and g.engine_hz is None
    assert synth.cues_for(s, 2.0, 1, 250.0, glider=True, vario_muted=True).vario is None
    f = synth.cues_for(s, 2.0, 1, 700.0, glider=False)
    assert f.vario is None and f.horn


def test_one_shot_events_between_snapshots():
    a = snap(0.0)
    assert synth.cue_events(a, snap(0.02)) == []
    # the gear moves over many ticks: a clunk when it locks at either end, not on the way
    assert synth.cue_events(a, snap(0.02, gear_up=0.05)) == []
    assert synth.cue_events(snap(0.0, gear_up=0.5), snap(0.02, gear_up=0.6)) == []
    assert ("gear_clunk", 1.0) in synth.cue_events(snap(0.0, gear_up=0.99), snap(0.02, gear_up=1.0))
    assert ("gear_clunk", 1.0) in synth.cue_events(snap(0.0, gear_up=0.01), snap(0.02, gear_up=0.0))
    assert ("gear_clunk", 1.0) in synth.cue_events(a, snap(0.02, gear_up=1.0))          # an instant switch
    assert [n for n, _ in synth.cue_events(a, snap(0.02, airbrake=0.03))] == ["airbrake_lock"]
    assert synth.cue_events(snap(0.0, airbrake=0.3), snap(0.02, airbrake=0.35)) == []
    td = LandingEvent("touchdown", 1.0, 80.0, 1.0, "")
    assert synth.cue_events(a, snap(0.02), td)[0][0] == "touchdown"
    crash = LandingEvent("crash", 6.0, 80.0, 1.0, "")
    assert synth.cue_events(None, snap(0.02), crash) == [("crash", 1.0)]


def test_actuator_motor_runs_while_flaps_or_hydraulic_gear_move():
    import numpy as np
    f0 = snap(0.0, surfaces=np.array([0, 0, 0, 0.30, 0, 0.0]))
    f1 = snap(0.02, surfaces=np.array([0, 0, 0, 0.32, 0, 0.0]))
    assert synth.actuators_moving(f0, f1) > 0 and synth.actuators_moving(f1, f1) == 0.0
    g0, g1 = snap(0.0, gear_up=0.40), snap(0.02, gear_up=0.41)
    assert synth.actuators_moving(g0, g1, glider=False) == 1.0
    assert synth.actuators_moving(g0, g1, glider=True) == 0.0          # the Astir's wheel is cranked by hand
    assert synth.cues_for(g1, 0.0, 0, glider=False, prev=g0).motor == 1.0


# ------------------------------------------------------------------ the mixer

def _render(m, seconds, chunk=1024):
    return np.concatenate([m.render(chunk) for _ in range(int(seconds * R / chunk))])


def test_mixer_is_silent_without_cues_and_bounded_with_all():
    m = synth.Mixer()
    assert np.abs(_render(m, 0.5)).max() == 0.0
    m.set(synth.Cues(wind=1.0, wind_bright=1.0, vario=synth.vario_tone(5), buffet=1.0, horn=True,
                     engine_hz=270.0, engine_load=1.2, motor=1.0))
    for name in ("crash", "touchdown", "gear_motor"):
        m.trigger(name)
    x = _render(m, 1.0)
    assert np.isfinite(x).all() and np.abs(x).max() <= 1.0 and np.abs(x).max() > 0.3


def test_mixer_vario_beeps_at_the_right_pitch_and_rate():
    m = synth.Mixer()
    tone = synth.vario_tone(2.0)           # 840 Hz, 3.9 beeps a second
    m.set(synth.Cues(vario=tone))
    x = _render(m, 3.0)[R // 2:]           # after the fade-in
    # pitch: the spectrum's peak
    f = np.fft.rfftfreq(len(x), 1 / R)[np.argmax(np.abs(np.fft.rfft(x)))]
    assert f == pytest.approx(tone.freq_hz, abs=3.0)
    # rate: count the beeps (onsets of the 5 ms envelope)
    env = np.sqrt(np.convolve(x * x, np.ones(110) / 110, mode="same"))
    on = env > 0.5 * env.max()
    onsets = np.count_nonzero(on[1:] & ~on[:-1])
    assert onsets == pytest.approx(tone.pulse_hz * len(x) / R, abs=1.0)


def test_mixer_continuous_tone_has_no_click_between_chunks():
    m = synth.Mixer()
    m.set(synth.Cues(vario=synth.vario_tone(-4.0)))
    x = _render(m, 1.0, chunk=333)[R // 4:]
    step = np.abs(np.diff(x)).max()
    # the largest sample-to-sample step of a 240 Hz sine of this amplitude, plus a margin
    assert step < 2 * np.pi * 240.0 / R * np.abs(x).max() * 1.6


def test_wind_noise_louder_at_speed():
    def rms(ias):
        m = synth.Mixer()
        m.set(synth.Cues(*synth.wind_level(ias)))
        x = _render(m, 1.0)[R // 2:]
        return float(np.sqrt(np.mean(x * x)))
    assert rms(10.0) < rms(30.0) < rms(60.0)


def test_shaped_noise_loops_without_a_seam():
    x = synth.shaped_noise(R, 250.0)
    assert abs(float(x[0] - x[-1])) < 4 * np.abs(np.diff(x)).mean()
    assert np.sqrt(np.mean(x * x)) == pytest.approx(0.3, rel=1e-3)


def test_one_shots_play_once_and_end():
    m = synth.Mixer()
    m.trigger("touchdown", 0.5)
    assert m.busy == 1
    x = _render(m, 1.0)
    assert np.abs(x).max() > 0.1 and m.busy == 0
    assert np.abs(m.render(512)).max() == 0.0
    with pytest.raises(KeyError):
        synth.oneshot("kazoo")


# ------------------------------------------------------------------ no device: silence, never an error

def _headless_pyglet():
    import pyglet
    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False


def test_no_audio_device_means_silence():
    _headless_pyglet()
    a = AudioEngine(S.InstrumentSpec())
    assert a.error is None or not a.active
    if not a.active:
        assert a.reason
    # it follows the flight all the same
    from flightsim.instruments.state import Instruments
    inst = Instruments(S.InstrumentSpec(stall_kmh=64.0))
    s0, s1 = snap(0.0, ias=30.0, gear_up=0.99), snap(0.02, ias=30.0, gear_up=1.0)
    for s in (s0, s1):
        inst.update(s, s.time_s)
        a.update(s, inst)
    assert a.last_cues.wind > 0 and ("gear_clunk", 1.0) in a.last_events
    assert a.toggle_vario_mute() is True
    # the winch cable let go: a clunk
    a.update(snap(0.04, ias=30.0, gear_up=1.0), inst, (True, ""))
    a.update(snap(0.06, ias=30.0, gear_up=1.0), inst, (False, "released"))
    assert ("release", 1.0) in a.last_events
    a.close()


def test_a_failing_audio_driver_means_silence(monkeypatch):
    _headless_pyglet()
    import pyglet.media

    def boom():
        raise RuntimeError("no sound card")
    monkeypatch.setattr(pyglet.media, "get_audio_driver", boom)
    a = AudioEngine()
    assert not a.active and "no sound card" in a.reason
    a.update(snap(0.0), None)
    a.close()


def test_the_streaming_source_hands_pyglet_pcm():
    _headless_pyglet()
    from flightsim.audio.engine import make_source
    m = synth.Mixer()
    m.set(synth.Cues(wind=0.5))
    src = make_source(m)
    d1 = src.get_audio_data(4410)
    d2 = src.get_audio_data(4410)
    assert d1.length == 4410 and len(d1.data) == 4410
    assert d2.timestamp == pytest.approx(0.1) and d1.duration == pytest.approx(0.1)
    pcm = np.frombuffer(d1.data, dtype="<i2")
    assert np.abs(pcm).max() > 100


def test_engine_sound_follows_the_p51d_engine():
    """The P-51D's Merlin from the physics, end to end: its rpm sets the firing frequency
    (V-12, six firings a turn) and its load the loudness; throttled back it is quieter, and
    the rendered sound has its energy at the firing frequency."""
    from dataclasses import replace

    from flightsim.runtime.handoff import make_snapshot
    from flightsim.sim import Sim
    sim = Sim("p51d")
    sim.spawn_trimmed_level(400 / 3.6, 1000.0)
    sim.fly(1.0)
    loud = make_snapshot(sim.state, sim.ctrl, sim.diag, sim.model)
    sim.controls.throttle = 0.1
    sim.fly(3.0)
    quiet = make_snapshot(sim.state, sim.ctrl, sim.diag, sim.model)
    cl = synth.cues_for(loud, 0.0, 0, 700.0, glider=False)
    cq = synth.cues_for(quiet, 0.0, 0, 700.0, glider=False)
    assert cl.engine_hz == pytest.approx(loud.engine_rpm / 60.0 * 6.0)
    assert 250.0 < cl.engine_hz < 310.0                  # ~2,700-3,000 rpm, governed
    assert cq.engine_load < 0.6 * cl.engine_load
    m = synth.Mixer()
    m.set(replace(cl, wind=0.0, wind_bright=0.0))
    m.render(synth.RATE // 2)                             # let the level ramp settle
    x = m.render(synth.RATE).astype(float)
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    f = np.fft.rfftfreq(len(x), 1.0 / synth.RATE)
    band = (f > 0.97 * cl.engine_hz) & (f < 1.03 * cl.engine_hz)
    off = (f > 1.3 * cl.engine_hz) & (f < 1.7 * cl.engine_hz)
    assert spec[band].max() > 5.0 * np.median(spec[off])


def test_jet_sound_follows_the_f15c_engines():
    """The F-15C's engines from the physics (issue 19): no piston firing tone; the roar and the
    compressor whine with the spool, and the afterburner's rumble on top of it: with the afterburner
    lit the low end of the sound is much louder than at military power."""
    from dataclasses import replace

    from flightsim.runtime.handoff import make_snapshot
    from flightsim.sim import Sim
    sim = Sim("f15c")
    sim.spawn_trimmed_level(250.0, 5000.0)
    sim.controls.throttle = 0.8                    # military
    sim.fly(4.0)
    mil = make_snapshot(sim.state, sim.ctrl, sim.diag, sim.model)
    sim.controls.throttle = 1.0
    sim.fly(3.0)
    ab = make_snapshot(sim.state, sim.ctrl, sim.diag, sim.model)
    cm = synth.cues_for(mil, 0.0, 0, 1482.0, glider=False)
    ca = synth.cues_for(ab, 0.0, 0, 1482.0, glider=False)
    assert cm.engine_hz is None and ca.engine_hz is None
    assert cm.jet > 0.9 and cm.jet_spool > 0.95 and cm.afterburner == 0.0
    assert ca.afterburner > 0.95
    assert synth.jet_whine_hz(1.0) > synth.jet_whine_hz(0.0)

    def low_band(c):
        m = synth.Mixer()
        m.set(replace(c, wind=0.0, wind_bright=0.0))
        m.render(synth.RATE // 2)
        x = m.render(synth.RATE).astype(float)
        spec = np.abs(np.fft.rfft(x))
        f = np.fft.rfftfreq(len(x), 1.0 / synth.RATE)
        return float(np.sum(spec[(f > 20.0) & (f < 120.0)] ** 2))
    assert low_band(ca) > 2.0 * low_band(cm)
