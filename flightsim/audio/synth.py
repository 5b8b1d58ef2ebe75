"""Sound synthesis in numpy: what each cue sounds like, and a mixer that renders them.

Pure parts (tested without any audio device):

    vario_tone(v)        the variometer's voice: pulsed beeps rising in pitch and rate with
                         climb, silence in light sink, a continuous low tone in strong sink
    wind_level(ias, brk) wind noise loudness and brightness from airspeed (and airbrakes)
    buffet_level(stall)  stall buffet rumble loudness
    engine_tone(rpm)     firing frequency of a V-12 (the engine hook; silent without rpm)
    jet_whine_hz(spool)  a jet's compressor whine, rising with the spool (its roar and the
                         afterburner's rumble are shaped noise, louder with spool and afterburner)
    cue_events(prev, curr, landing_event)   one-shot sounds due between two snapshots

``Mixer.render(n)`` turns the current cues into ``n`` float32 samples in [-1, 1];
``flightsim.audio.engine`` streams them to pyglet.media. Continuous sounds keep their
phase across chunks and their levels ramp inside a chunk, so nothing clicks.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

RATE = 22050


# ------------------------------------------------------------------------------ cue mappings
@dataclass(frozen=True)
class VarioTone:
    freq_hz: float
    pulse_hz: float      # beeps per second (0: continuous)
    duty: float          # fraction of each pulse period the tone sounds


def vario_tone(v_ms: float, climb_threshold_ms: float = 0.1, sink_threshold_ms: float = 2.0,
               sink_tone: bool = True) -> VarioTone | None:
    """The vario's sound for a reading of ``v_ms`` (m/s, + climb); None = silence.

    Climb: beeps at 600 Hz + 120 Hz per m/s (1200 Hz at +5), 1.5 + 1.2 per m/s beeps a second
    (7.5 at +5), tone half of each period -- the electronic glider vario convention (higher
    and faster = stronger lift). Between ``-sink_threshold_ms`` and the climb threshold it is
    quiet (ordinary glide sink says nothing); below, a steady low tone falling from 320 Hz
    at -2 m/s to 200 Hz at -5 (or silence with ``sink_tone=False``)."""
    v = float(v_ms)
    if v >= climb_threshold_ms:
        c = min(v, 5.0)
        return VarioTone(600.0 + 120.0 * c, 1.5 + 1.2 * c, 0.5)
    if v <= -sink_threshold_ms and sink_tone:
        s = min(-v, 5.0)
        return VarioTone(400.0 - 40.0 * s, 0.0, 1.0)
    return None


def wind_level(ias_ms: float, airbrake: float = 0.0, vne_ms: float = 70.0) -> tuple[float, float]:
    """(loudness 0..1, brightness 0..1) of the wind noise.

    Loudness grows with the dynamic pressure (IAS squared) from silence at rest to full at
    VNE, brightness (the share of hiss over rumble) with the speed; open airbrakes add
    turbulence: louder and rougher."""
    x = max(float(ias_ms), 0.0) / max(vne_ms, 1.0)
    loud = min(1.0, x * x * (1.0 + 0.6 * float(airbrake)))
    bright = min(1.0, x * 1.3)
    return loud, bright


def buffet_level(stall_level: int) -> float:
    """Stall-buffet rumble: light before the stall (the pre-stall cue of seed 004), strong in it."""
    return {0: 0.0, 1: 0.45, 2: 1.0}.get(int(stall_level), 1.0)


def engine_tone(rpm: float | None, cylinders: int = 12) -> float | None:
    """Firing frequency (Hz) of a four-stroke engine at ``rpm``: cylinders/2 firings a turn.
    None without an rpm (no engine, or the engine model not there yet)."""
    if rpm is None or rpm <= 0.0:
        return None
    return float(rpm) / 60.0 * cylinders / 2.0


JET_WHINE_IDLE_HZ = 700.0      # the compressor's tone at idle ...
JET_WHINE_MIL_HZ = 1900.0      # ... and at military (a sound designer's choice: no recording was analysed)


def jet_whine_hz(spool: float) -> float:
    """The compressor whine's pitch at this spool (0 idle .. 1 military)."""
    s = min(max(float(spool), 0.0), 1.0)
    return JET_WHINE_IDLE_HZ + (JET_WHINE_MIL_HZ - JET_WHINE_IDLE_HZ) * s


@dataclass
class Cues:
    """Continuous sound levels the mixer follows (set from the main thread, read by the audio thread)."""
    wind: float = 0.0
    wind_bright: float = 0.0
    vario: VarioTone | None = None
    buffet: float = 0.0
    horn: bool = False
    engine_hz: float | None = None
    engine_load: float = 0.0
    engine_cylinders: int = 12       # a flat four's slow, uneven beat against a V-12's smooth one
    motor: float = 0.0               # gear / flap actuator running (0..1)
    jet: float = 0.0                 # jet engines: loudness of the running engines (0: none or stopped)
    jet_spool: float = 0.0           # their spool, 0 idle .. 1 military (the whine's pitch, the roar)
    afterburner: float = 0.0         # 0..1 the afterburner's rumble
    growl: float = 0.0               # an infrared missile's seeker: 0 off, 0.5 searching, 1 its tone on a target
    missile_warning: bool = False    # a missile guides on us: the warning's fast beeps


def _flap(s) -> float:
    surf = getattr(s, "surfaces", None)
    if surf is not None and len(surf) > 3:
        return float(surf[3])
    return float(s.controls.flap)


def actuators_moving(prev, curr, glider: bool = True) -> float:
    """0..1: how much actuator motor is running between two snapshots -- the flaps, and a
    powered aircraft's hydraulic gear (a glider's wheel is cranked by hand: silent)."""
    if prev is None or prev.epoch != curr.epoch:
        return 0.0
    m = 0.0
    if abs(_flap(curr) - _flap(prev)) > 1e-5:
        m = max(m, 0.7)
    dg = abs(float(curr.gear_up) - float(prev.gear_up))
    if not glider and 1e-5 < dg < 0.5:
        m = 1.0
    return m


def cues_for(snap, vario_ms: float, stall_level: int, vne_kmh: float | None = None, glider: bool = True,
             vario_muted: bool = False, prev=None, cylinders: int = 12) -> Cues:
    """The continuous cues for one snapshot (and the one before it) and the instruments' readings (pure)."""
    vne_ms = (vne_kmh or 250.0) / 3.6
    loud, bright = wind_level(float(snap.ias_ms), float(snap.airbrake), vne_ms)
    from ..instruments.values import engine_value
    jets = int(getattr(snap, "jets", 0) or 0)
    rpm = None if (glider or jets) else engine_value(snap, "rpm")
    load = getattr(snap, "engine_load", None)
    if load is None:
        mp = engine_value(snap, "manifold_pressure_inhg")
        load = 0.5 if mp is None else mp / 61.0
    return Cues(wind=loud, wind_bright=bright,
                vario=None if (vario_muted or not glider) else vario_tone(vario_ms),
                buffet=buffet_level(stall_level), horn=(not glider) and stall_level >= 1,
                engine_hz=engine_tone(rpm, cylinders), engine_load=min(max(float(load), 0.1), 1.2),
                engine_cylinders=int(cylinders),
                motor=actuators_moving(prev, snap, glider),
                jet=(0.35 + 0.65 * float(snap.jet_spool)) * snap.jets_running / jets if jets else 0.0,
                jet_spool=float(snap.jet_spool) if jets else 0.0,
                afterburner=float(snap.afterburner) if jets else 0.0)


def cue_events(prev, curr, landing_event=None, glider: bool = True) -> list[tuple[str, float]]:
    """One-shot sounds due between two snapshots: (name, strength 0..1).

    touchdown / crash / scrape from the landing judge's event; the gear locking at either
    end of its travel (a clunk); the airbrakes leaving or entering their lock (the clunk
    of the Astir's airbrake lever). Positions are where the actuators are (they move over
    several ticks); a jump of more than half the travel counts as a move too."""
    out = []
    if landing_event is not None:
        if landing_event.kind == "crash":
            out.append(("crash", 1.0))
        elif landing_event.kind in ("touchdown", "hard"):
            out.append(("touchdown", min(1.0, 0.25 + landing_event.sink_ms / 3.0)))
        elif landing_event.kind == "strike":
            out.append(("scrape", min(1.0, 0.3 + landing_event.sink_ms / 5.0)))
    if prev is None or prev.epoch != curr.epoch:
        return out
    g0, g1 = float(prev.gear_up), float(curr.gear_up)
    at_end = lambda g: g <= 1e-3 or g >= 1.0 - 1e-3
    if g0 != g1 and at_end(g1) and (not at_end(g0) or abs(g1 - g0) > 0.5):
        out.append(("gear_clunk", 1.0))
    if (float(prev.airbrake) <= 0.02) != (float(curr.airbrake) <= 0.02):
        out.append(("airbrake_lock", 0.6))
    return out


# ------------------------------------------------------------------------------ sample banks
def shaped_noise(n: int, corner_hz: float, rate: int = RATE, order: float = 1.0, seed: int = 1) -> np.ndarray:
    """Loopable noise (n samples) low-passed at ``corner_hz``: shaped in the frequency domain,
    so the buffer is periodic and repeats without a seam. Normalised to RMS 0.3."""
    rng = np.random.default_rng(seed)
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1.0 / rate)
    spec *= 1.0 / np.sqrt(1.0 + (f / corner_hz) ** (2 * order))
    spec[0] = 0.0
    x = np.fft.irfft(spec, n)
    return (0.3 * x / max(float(np.sqrt(np.mean(x * x))), 1e-12)).astype(np.float32)


def _envelope(n: int, attack_s: float, decay_s: float, rate: int) -> np.ndarray:
    t = np.arange(n) / rate
    return (np.minimum(t / max(attack_s, 1e-4), 1.0) * np.exp(-t / max(decay_s, 1e-4))).astype(np.float32)


def oneshot(name: str, strength: float = 1.0, rate: int = RATE, seed: int = 7) -> np.ndarray:
    """The sample of a one-shot sound (float32 mono)."""
    rng = np.random.default_rng(seed)
    k = float(min(max(strength, 0.0), 1.0))
    if name == "touchdown":          # tyre thump: a low decaying sine plus a short scuff of noise
        n = int(0.45 * rate)
        t = np.arange(n) / rate
        thump = np.sin(2 * np.pi * (55.0 + 30.0 * np.exp(-t / 0.05)) * t) * _envelope(n, 0.003, 0.09, rate)
        scuff = shaped_noise(n, 1800.0, rate, seed=seed) * _envelope(n, 0.002, 0.12, rate)
        return ((0.9 * thump + 0.6 * scuff) * (0.3 + 0.7 * k)).astype(np.float32)
    if name == "crash":              # a long crunch: bright and dark noise, a heavy low hit
        n = int(1.6 * rate)
        t = np.arange(n) / rate
        crunch = shaped_noise(n, 2500.0, rate, seed=seed) * _envelope(n, 0.002, 0.45, rate)
        rumble = shaped_noise(n, 120.0, rate, order=2, seed=seed + 1) * _envelope(n, 0.005, 0.7, rate)
        hit = np.sin(2 * np.pi * 40.0 * t) * _envelope(n, 0.002, 0.2, rate)
        crackle = (rng.random(n) < 0.004) * rng.standard_normal(n) * _envelope(n, 0.0, 0.6, rate)
        return np.clip(1.2 * crunch + 1.5 * rumble + 0.8 * hit + 0.5 * crackle, -1, 1).astype(np.float32)
    if name == "scrape":
        n = int(0.5 * rate)
        return (shaped_noise(n, 3000.0, rate, seed=seed) * _envelope(n, 0.01, 0.15, rate) * k).astype(np.float32)
    if name in ("gear_clunk", "airbrake_lock", "release"):
        n = int(0.25 * rate)
        t = np.arange(n) / rate
        f = {"gear_clunk": 160.0, "airbrake_lock": 260.0, "release": 120.0}[name]
        body = np.sin(2 * np.pi * f * t) * _envelope(n, 0.001, 0.035, rate)
        click = shaped_noise(n, 4000.0, rate, seed=seed) * _envelope(n, 0.0005, 0.01, rate)
        return ((0.7 * body + 0.5 * click) * k).astype(np.float32)
    if name in ("gear_motor", "flap_motor"):   # an electric / hydraulic motor run with a whine
        dur = (4.0 if name == "gear_motor" else 0.5 + 5.0 * k)
        n = int(dur * rate)
        t = np.arange(n) / rate
        f0 = 190.0 if name == "gear_motor" else 240.0
        spin = np.minimum(t / 0.3, 1.0)
        phase = 2 * np.pi * np.cumsum(f0 * (0.6 + 0.4 * spin)) / rate
        whine = 0.5 * np.sin(phase) + 0.25 * np.sin(2 * phase) + 0.12 * np.sin(3 * phase)
        fade = np.minimum(1.0, (n - np.arange(n)) / (0.15 * rate)) * np.minimum(1.0, t / 0.05)
        hum = shaped_noise(n, 600.0, rate, seed=seed)
        return ((0.25 * whine + 0.15 * hum) * fade).astype(np.float32)
    if name == "launch":             # a missile's motor lighting off the rail: a roar falling away
        n = int(1.4 * rate)
        roar = shaped_noise(n, 900.0, rate, seed=seed) * _envelope(n, 0.02, 0.45, rate)
        low = shaped_noise(n, 150.0, rate, order=2, seed=seed + 1) * _envelope(n, 0.01, 0.3, rate)
        return np.clip((1.1 * roar + 1.4 * low) * (0.5 + 0.5 * k), -1, 1).astype(np.float32)
    if name == "lock":               # the radar's lock: two short high beeps
        n = int(0.3 * rate)
        t = np.arange(n) / rate
        gate = ((t < 0.08) | ((t > 0.15) & (t < 0.23))).astype(float)
        return (0.35 * np.sin(2 * np.pi * 1600.0 * t) * gate).astype(np.float32)
    raise KeyError(name)


# ------------------------------------------------------------------------------ the mixer
class Mixer:
    """Renders the current ``Cues`` plus queued one-shots into float32 sample chunks."""

    GAIN = {"wind": 0.55, "vario": 0.30, "buffet": 0.75, "horn": 0.22, "engine": 0.35, "motor": 0.25,
            "oneshot": 0.9, "jet_roar": 0.45, "jet_whine": 0.07, "afterburner": 0.6, "growl": 0.12, "warning": 0.16}

    def __init__(self, rate: int = RATE, seed: int = 3):
        self.rate = rate
        self.cues = Cues()
        n = 2 * rate
        self._dark = shaped_noise(n, 250.0, rate, seed=seed)
        self._bright = shaped_noise(n, 1800.0, rate, seed=seed + 1)
        self._rumble = shaped_noise(n, 70.0, rate, order=2, seed=seed + 2)
        self._pos = 0
        self._t = 0.0
        self._vario_phase = 0.0
        self._pulse_phase = 0.0
        self._engine_phase = 0.0
        self._horn_phase = 0.0
        self._levels = {"wind": 0.0, "bright": 0.0, "vario": 0.0, "buffet": 0.0, "horn": 0.0, "engine": 0.0,
                        "motor": 0.0, "jet": 0.0, "jet_spool": 0.0, "afterburner": 0.0, "growl": 0.0, "warning": 0.0}
        self._growl_phase = 0.0
        self._jet_phase = 0.0
        self._motor_phase = 0.0
        self._freq = {"vario": 600.0, "engine": 0.0}
        self._last_vario: VarioTone | None = None
        self._active: list = []          # [samples, position]
        self._pending: list = []
        self._lock = threading.Lock()
        self.master = 0.8

    def set(self, cues: Cues) -> None:
        self.cues = cues                 # one reference store: the audio thread sees old or new, never half

    def trigger(self, name: str, strength: float = 1.0) -> None:
        with self._lock:
            self._pending.append([oneshot(name, strength, self.rate), 0])

    def _ramp(self, key: str, target: float, n: int) -> np.ndarray:
        a = self._levels[key]
        self._levels[key] = target
        return np.linspace(a, target, n, endpoint=False, dtype=np.float64) if a != target else np.full(n, a)

    def _loop(self, bank: np.ndarray, n: int) -> np.ndarray:
        idx = (self._pos + np.arange(n)) % len(bank)
        return bank[idx]

    def render(self, n: int) -> np.ndarray:
        """The next ``n`` samples (float32, [-1, 1]): each voice added in turn."""
        c = self.cues
        out = np.zeros(n, dtype=np.float64)
        t = self._t + np.arange(n) / self.rate
        self._wind(out, c, n)
        self._buffet(out, c, n, t)
        self._vario(out, c, n)
        self._horn(out, c, n, t)
        self._engine(out, c, n)
        self._jet(out, c, n, t)
        self._motor(out, c, n)
        self._weapons(out, c, n, t)
        self._one_shots(out, n)
        self._pos = (self._pos + n) % len(self._dark)
        self._t += n / self.rate
        # a soft limiter keeps sums of loud cues from clipping harshly
        return np.tanh(self.master * out).astype(np.float32)

    def _wind(self, out, c, n):
        """A blend of dark and bright noise, louder and brighter with speed."""
        w = self._ramp("wind", c.wind, n)
        b = self._ramp("bright", c.wind_bright, n)
        if w.any():
            out += self.GAIN["wind"] * w * ((1 - b) * self._loop(self._dark, n) + b * self._loop(self._bright, n))

    def _buffet(self, out, c, n, t):
        """The stall buffet: a low rumble, amplitude-modulated at ~9 Hz like a buffeting airframe."""
        bu = self._ramp("buffet", c.buffet, n)
        if bu.any():
            am = 0.55 + 0.45 * np.sin(2 * np.pi * 9.0 * t) * np.sin(2 * np.pi * 1.7 * t + 1.0)
            out += self.GAIN["buffet"] * bu * am * self._loop(self._rumble, n) * 2.0

    def _vario(self, out, c, n):
        """A phase-continuous tone, gated into beeps with 4 ms raised-cosine edges."""
        r = self.rate
        vg = self._ramp("vario", 1.0 if c.vario is not None else 0.0, n)
        if c.vario is not None:
            self._last_vario = c.vario
        vt = self._last_vario           # a tone that just stopped fades out as it was
        if vt is not None:
            self._freq["vario"] = vt.freq_hz
        f = self._freq["vario"]
        ph = self._vario_phase + 2 * np.pi * f * np.arange(1, n + 1) / r
        self._vario_phase = float(ph[-1] % (2 * np.pi))
        if vg.any():
            if vt is not None and vt.pulse_hz > 0:
                pp = self._pulse_phase + vt.pulse_hz * np.arange(1, n + 1) / r
                self._pulse_phase = float(pp[-1] % 1.0)
                frac = pp % 1.0
                edge = 0.004 * vt.pulse_hz
                gate = np.clip(np.minimum(frac, vt.duty - frac) / max(edge, 1e-6), 0.0, 1.0) * (frac < vt.duty)
                gate = 0.5 - 0.5 * np.cos(np.pi * gate)
            else:
                gate = 1.0
            out += self.GAIN["vario"] * vg * gate * (0.8 * np.sin(ph) + 0.2 * np.sin(3 * ph) / 3)

    def _weapons(self, out, c, n, t):
        """The infrared seeker's growl (a low buzz searching, a high tone on a target) and the
        missile warning's beeps."""
        g = self._ramp("growl", c.growl, n)
        f = 1150.0 if c.growl > 0.75 else 380.0
        ph = self._growl_phase + 2 * np.pi * f * np.arange(1, n + 1) / self.rate
        self._growl_phase = float(ph[-1] % (2 * np.pi))
        if g.any():
            out += self.GAIN["growl"] * g * (0.6 * np.sin(ph) + 0.4 * np.sign(np.sin(ph))) * \
                (0.7 + 0.3 * np.sin(2 * np.pi * 22.0 * t))
        wv = self._ramp("warning", 1.0 if c.missile_warning else 0.0, n)
        if wv.any():
            out += self.GAIN["warning"] * wv * np.sign(np.sin(2 * np.pi * 1000.0 * t)) * (np.sin(2 * np.pi * 6.0 * t) > 0)

    def _horn(self, out, c, n, t):
        """The stall horn (powered aircraft): a 2-tone warble."""
        hg = self._ramp("horn", 1.0 if c.horn else 0.0, n)
        hp = self._horn_phase + 2 * np.pi * 440.0 * np.arange(1, n + 1) / self.rate
        self._horn_phase = float(hp[-1] % (2 * np.pi))
        if hg.any():
            out += self.GAIN["horn"] * hg * np.sign(np.sin(hp)) * (0.5 + 0.5 * (np.sin(2 * np.pi * 4 * t) > 0))

    def _engine(self, out, c, n):
        """A piston engine: firing-frequency harmonics plus exhaust noise, silent without rpm."""
        eg = self._ramp("engine", 0.0 if c.engine_hz is None else c.engine_load, n)
        if c.engine_hz is not None:
            self._freq["engine"] = c.engine_hz
        if eg.any() and self._freq["engine"] > 0:
            ep = self._engine_phase + 2 * np.pi * self._freq["engine"] * np.arange(1, n + 1) / self.rate
            self._engine_phase = float(ep[-1] % (2 * np.pi))
            if c.engine_cylinders > 6:
                tone = 0.5 * np.sin(ep / 2) + 0.35 * np.sin(ep) + 0.2 * np.sin(2 * ep) + 0.1 * np.sin(3 * ep)
                out += self.GAIN["engine"] * eg * (tone + 0.6 * self._loop(self._dark, n) * np.abs(np.sin(ep / 2)))
            else:
                # few cylinders: each firing a separate exhaust pulse (a harmonic-rich pulse train at the
                # firing frequency, the once-a-revolution unevenness of the opposed banks under it) and a
                # burst of exhaust noise with each one
                tone = 0.3 * np.sin(ep / 2) + sum(np.sin(h * ep) / h ** 0.7 for h in range(1, 8)) / 3.0
                pulse = np.abs(np.sin(ep / 2)) ** 6
                out += self.GAIN["engine"] * eg * (tone + 0.9 * self._loop(self._dark, n) * pulse)

    def _jet(self, out, c, n, t):
        """Jets: broadband roar rising with the spool, the compressor's whine, the afterburner's
        low rumble with its ragged flicker."""
        jg = self._ramp("jet", c.jet, n)
        js = self._ramp("jet_spool", c.jet_spool, n)
        ab = self._ramp("afterburner", c.afterburner, n)
        if jg.any() or ab.any():
            f = JET_WHINE_IDLE_HZ + (JET_WHINE_MIL_HZ - JET_WHINE_IDLE_HZ) * js
            jp = self._jet_phase + 2 * np.pi * np.cumsum(f) / self.rate
            self._jet_phase = float(jp[-1] % (2 * np.pi))
            roar = (1.0 - 0.6 * js) * self._loop(self._dark, n) + 0.6 * js * self._loop(self._bright, n)
            out += jg * (self.GAIN["jet_roar"] * (0.4 + 0.6 * js) * roar
                         + self.GAIN["jet_whine"] * (np.sin(jp) + 0.3 * np.sin(2.02 * jp)))
            if ab.any():
                flicker = 0.7 + 0.3 * np.sin(2 * np.pi * 13.0 * t) * np.sin(2 * np.pi * 3.1 * t + 0.5)
                out += self.GAIN["afterburner"] * ab * flicker * self._loop(self._rumble, n) * 2.5

    def _motor(self, out, c, n):
        """An actuator motor (flaps, hydraulic gear): a whine with its harmonics and a little hum."""
        mg = self._ramp("motor", c.motor, n)
        mp = self._motor_phase + 2 * np.pi * 210.0 * np.arange(1, n + 1) / self.rate
        self._motor_phase = float(mp[-1] % (2 * np.pi))
        if mg.any():
            whine = 0.5 * np.sin(mp) + 0.25 * np.sin(2 * mp) + 0.12 * np.sin(3 * mp)
            out += self.GAIN["motor"] * mg * (whine + 0.4 * self._loop(self._bright, n))

    def _one_shots(self, out, n):
        """The triggered sounds (guns, touchdowns, the gear's thump) playing, each from where it is."""
        with self._lock:
            if self._pending:
                self._active += self._pending
                self._pending = []
        keep = []
        for item in self._active:
            s, p = item
            k = min(n, len(s) - p)
            out[:k] += self.GAIN["oneshot"] * s[p:p + k]
            item[1] = p + k
            if item[1] < len(s):
                keep.append(item)
        self._active = keep

    @property
    def busy(self) -> int:
        """Number of one-shots playing or queued."""
        return len(self._active) + len(self._pending)
