"""Sound output through pyglet.media: one streaming source fed by the numpy ``Mixer``.

    audio = AudioEngine(instrument_spec)     # never raises: no device means silence
    audio.update(snapshot, instruments)      # once a frame, from the window thread
    audio.toggle_vario_mute()
    audio.close()

Everything is mixed into one mono stream (wind, variometer, stall buffet, engine, and
one-shots: touchdown, crash, gear, flap motor, airbrake lock), so there is one player
and nothing to start or stop per sound. pyglet pulls chunks from its own thread.

Without an audio device pyglet offers its silent driver; then no player is made at all
(``audio.active`` is False, ``audio.reason`` says why) and ``update`` only keeps track of
the cues. Any error while opening the device has the same outcome.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import synth


def _media_classes():
    """pyglet's streaming-source base classes (import deferred: pyglet needs a display or headless mode)."""
    from pyglet.media.codecs.base import AudioData, AudioFormat, StreamingSource
    return AudioData, AudioFormat, StreamingSource


def make_source(mixer: synth.Mixer):
    """A pyglet StreamingSource that plays ``mixer`` forever (16-bit mono)."""
    AudioData, AudioFormat, StreamingSource = _media_classes()

    class MixerSource(StreamingSource):
        def __init__(self):
            self.audio_format = AudioFormat(channels=1, sample_size=16, sample_rate=mixer.rate)
            self._duration = None
            self._t = 0.0

        def get_audio_data(self, num_bytes, compensation_time=0.0):
            n = max(int(num_bytes) // 2, 1)
            pcm = (np.clip(mixer.render(n), -1.0, 1.0) * 32767.0).astype("<i2").tobytes()
            dur = n / mixer.rate
            data = AudioData(pcm, len(pcm), self._t, dur, [])
            self._t += dur
            return data

        def seek(self, timestamp):
            pass

        def is_precise(self):
            return True

    return MixerSource()


def engine_cylinders(compiled) -> int:
    """The piston engine's cylinders (its [engine] cylinders; 12, a V-12, where it does not say)."""
    plant = getattr(getattr(compiled, "spec", None), "powerplant", None) or {}
    return int(round((plant.get("engine") or {}).get("cylinders", 12)))


class AudioEngine:
    def __init__(self, spec=None, enabled: bool = True, rate: int = synth.RATE, volume: float = 0.8,
                 cylinders: int = 12):
        self.spec = spec
        self.cylinders = int(cylinders)
        self.glider = True if spec is None else bool(spec.glider)
        self.vne_kmh = None if spec is None else spec.vne_kmh
        self.mixer = synth.Mixer(rate)
        self.vario_muted = False
        self.player = None
        self.active = False
        self.reason = "disabled"
        self.error: BaseException | None = None
        self._prev = None
        self._event = None
        self._last_motor = 0.0
        self._cable = None
        self.last_cues = synth.Cues()
        self.last_events: list = []
        if enabled:
            self._open(volume)

    def _open(self, volume):
        try:
            import pyglet.media
            driver = pyglet.media.get_audio_driver()
            name = type(driver).__name__ if driver is not None else "None"
            if driver is None or "Silent" in name:
                self.reason = "no audio device (pyglet chose its silent driver)"
                return
            self.player = pyglet.media.Player()
            self.player.volume = volume
            self.player.queue(make_source(self.mixer))
            self.player.play()
            self.active = True
            self.reason = f"playing through {name}"
        except BaseException as e:        # no device, no display, a driver error: silence, never a crash
            self.error = e
            self.reason = f"no audio: {type(e).__name__}: {e}"
            self.player = None
            self.active = False

    def toggle_vario_mute(self) -> bool:
        self.vario_muted = not self.vario_muted
        return self.vario_muted

    def update(self, snap, instruments=None, cable=None, weapons=None) -> None:
        """Follow the newest snapshot: continuous cues, and one-shots for what happened since the last call;
        ``weapons``: the combat's WeaponsView for the player (the seeker's growl, the lock and launch
        sounds, the missile warning), None without missiles."""
        if snap is None:
            return
        vario = 0.0 if instruments is None else instruments.vario.value
        stall = 0 if instruments is None else instruments.stall_level
        prev = self._prev
        fresh = prev is None or prev.tick != snap.tick or prev.epoch != snap.epoch
        if snap.paused:
            cues = synth.Cues()
        else:
            cues = synth.cues_for(snap, vario, stall, self.vne_kmh, self.glider, self.vario_muted,
                                  prev if fresh else None, self.cylinders)
            if fresh:
                self._last_motor = cues.motor
            else:                   # no new tick this frame: actuators keep running as they were
                cues = replace(cues, motor=self._last_motor)
        if weapons is not None and not snap.paused:
            cues = replace(cues, growl=(1.0 if weapons.tone else 0.5) if weapons.seeker_limit_deg > 0.0 else 0.0,
                           missile_warning=bool(weapons.warning))
        self.mixer.set(cues)
        self.last_cues = cues
        ev = None if instruments is None else instruments.event
        new_event = ev if ev is not None and ev is not self._event else None
        self._event = ev
        events = synth.cue_events(prev if fresh else None, snap, new_event, self.glider) if (fresh or new_event) \
            else []
        attached = None if cable is None else bool(cable[0])
        if self._cable is True and attached is False:        # the release knob pulled, or the hook let go
            events = events + [("release", 1.0)]
        self._cable = attached
        events = events + self._weapon_events(weapons)
        for name, strength in events:
            self.mixer.trigger(name, strength)
        self.last_events = events
        self._prev = snap

    def _weapon_events(self, weapons) -> list:
        """A launch (one more of our missiles in the air) and a radar lock taken, since the last call."""
        before = getattr(self, "_weapons", None)
        self._weapons = weapons
        if weapons is None or before is None:
            return []
        out = []
        if weapons.own_in_flight > before.own_in_flight:
            out.append(("launch", 1.0))
        if weapons.lock == "locked" and before.lock != "locked":
            out.append(("lock", 1.0))
        return out

    def close(self) -> None:
        if self.player is not None:
            try:
                self.player.pause()
                self.player.delete()
            except Exception:
                pass
            self.player = None
        self.active = False
