"""Side by side with JSBSim on identical inputs (issue 34).

    python -m flightsim.validate --aircraft c172p --jsbsim [--json] [--report DIR]

Our aircraft and JSBSim's bundled model of it (``PAIRS``) are trimmed in the same straight and
level flight (``CONDITIONS``: altitude, calibrated airspeed, flaps, at JSBSim's loaded weight,
which our model is given too) and flown through the same control inputs, as normalised stick,
pedal and throttle positions added to each model's own trim (``CASES``):

    trim              hands off                        trim angle of attack, elevator, throttle
    elevator doublet  stick back, forward, centre      short period (frequency, damping) from
                                                       the pitch rate; phugoid (period,
                                                       damping) from the airspeed after it
    aileron step      a roll input held, released      roll-mode time constant from the roll
                                                       rate; spiral (time to double or half)
                                                       from the bank after the release
    rudder doublet    right, left, centre              Dutch roll period and damping from the
                                                       yaw rate
    throttle step     the throttle up a step           the climb it gives after 20 s
    power-off glide   throttle closed, stick fixed     the glide ratio it settles to

Each model's time histories (``History``) are read the same way (validate/modes.py); the rows
are ``{"case", "quantity", "flightsim", "jsbsim", "published", "unit"}`` (and ``published_source``
where a flight test gives the figure: the C172's phugoid at 110 KIAS, AAIB_172S). JSBSim comes with the
``bench`` extra; without it ``side_by_side`` raises RuntimeError saying so.

Sign conventions: our pitch control is stick back positive (nose up), JSBSim's
``fcs/elevator-cmd-norm`` is elevator trailing edge down positive (nose down): the elevator
input is sent negated. Aileron (right roll) and rudder (nose right) are positive in both.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..physics.atmosphere import isa
from . import modes

KT = 0.514444            # m/s per knot
FT = 0.3048
LB = 0.45359237
DT = 0.02
# our aircraft -> JSBSim's bundled model of it
PAIRS = {"c172p": "c172p", "p51d": "p51d"}
# (case name, altitude m, calibrated airspeed kt, flaps as a fraction of their travel[, the published
# figures of a flight test at that condition, {quantity: value}, and their source])
AAIB_172S = ("AAIB Bulletin 12/2020, Cessna 172S G-CBXJ: the investigators' test pilot flew a sister 172S at "
             "2,300 lb trimmed at 110 KIAS and 2,500 rpm near 3,500 ft, controls free: phugoid periods 35.9 and "
             "34.6 s, 'heavily damped' (about 0.13, read from the report's plot by a third party); a small rudder "
             "input led to a spiral dive within 10-15 s (divergent spiral)")
CONDITIONS: dict[str, list[tuple]] = {
    "c172p": [("90 kt at 3,000 ft", 3000 * FT, 90.0, 0.0), ("65 kt at 3,000 ft, flaps 30", 3000 * FT, 65.0, 1.0),
              ("110 kt at 3,500 ft", 3500 * FT, 110.0, 0.0,
               {"phugoid period": 35.3, "phugoid damping ratio": 0.13}, AAIB_172S)],
    "p51d": [("250 kt at 10,000 ft", 10000 * FT, 250.0, 0.0)],
}


@dataclass
class Inputs:
    """One case's inputs: offsets from trim of (pitch, roll, yaw, throttle) at time t, and the
    time to fly. ``power_off``: the throttle closed from t = 0."""
    name: str
    seconds: float
    pitch: tuple = ()        # ((t_from, t_to, value), ...)
    roll: tuple = ()
    yaw: tuple = ()
    throttle: tuple = ()
    power_off: bool = False

    def at(self, t: float) -> tuple:
        def v(steps):
            return sum(x for a, b, x in steps if a <= t < b)
        return v(self.pitch), v(self.roll), v(self.yaw), v(self.throttle)


CASES = [
    Inputs("trim", 10.0),
    Inputs("elevator doublet", 150.0, pitch=((1.0, 2.0, 0.1), (2.0, 3.0, -0.1))),
    Inputs("aileron step", 60.0, roll=((1.0, 4.0, 0.15),)),
    Inputs("rudder doublet", 25.0, yaw=((1.0, 2.0, 0.2), (2.0, 3.0, -0.2))),
    Inputs("throttle step", 30.0, throttle=((1.0, 1e9, 0.15),)),
    Inputs("power-off glide", 120.0, power_off=True),
]


@dataclass
class History:
    """A flight's time histories, every 0.02 s, SI and degrees: t, tas_ms, alpha_deg, theta_deg,
    q_dps, p_dps, r_dps, phi_deg, h_m, x_m (ground distance), plus the inputs pitch, roll, yaw."""
    trim: dict
    rows: dict = field(default_factory=dict)

    def add(self, **values):
        for k, v in values.items():
            self.rows.setdefault(k, []).append(float(v))

    def __getitem__(self, k) -> np.ndarray:
        return np.asarray(self.rows[k])


# ---------------------------------------------------------------------------- JSBSim
def _jsbsim():
    try:
        import jsbsim
    except ImportError as e:
        raise RuntimeError("JSBSim is not installed: pip install -e .[bench] (or pip install jsbsim)") from e
    return jsbsim


def gear_up(aircraft: str) -> float:
    """The gear as flown in the side-by-side: up where ours retracts (a P-51D), else down (a C172's fixed)."""
    from ..aircraft_data.loader import load_aircraft
    return 1.0 if any(g.get("retractable") for g in load_aircraft(aircraft).gear) else 0.0


def fly_jsbsim(model: str, altitude_m: float, kcas: float, flaps: float, case: Inputs, gear: float = 0.0) -> History:
    """JSBSim's ``model`` trimmed level at the condition (its own full trim), then flown through the
    case; ``gear``: 1 up, 0 down."""
    from ..tools.jsbsim_ref import quiet
    jsbsim = _jsbsim()
    with quiet():
        fdm = jsbsim.FGFDMExec(None)
        fdm.set_debug_level(0)
        if not fdm.load_model(model):
            raise RuntimeError(f"JSBSim could not load {model!r}")
        fdm.set_dt(DT)
        fdm["ic/h-sl-ft"] = altitude_m / FT
        fdm["ic/vc-kts"] = kcas
        fdm["ic/gamma-deg"] = 0.0
        fdm.run_ic()
        fdm["propulsion/set-running"] = -1
        fdm["fcs/mixture-cmd-norm"] = 1.0
        fdm["fcs/flap-cmd-norm"] = flaps
        fdm["gear/gear-cmd-norm"] = 1.0 - gear         # (JSBSim: 1 down)
        fdm["fcs/throttle-cmd-norm"] = 0.7
        for _ in range(5):
            fdm.run()
        try:
            fdm.do_trim(1)
        except Exception as e:            # JSBSim's TrimFailureError
            raise RuntimeError(f"JSBSim's {model} does not trim at {kcas:.0f} kt: {e}") from e
    trim = {"alpha_deg": fdm["aero/alpha-deg"], "elevator": -fdm["fcs/elevator-pos-norm"],
            "throttle": fdm["fcs/throttle-cmd-norm"], "mass_kg": fdm["inertia/weight-lbs"] * LB}
    # the trim's own commands (its full trim sets aileron and rudder against the engine's torque too)
    el0, th0 = fdm["fcs/elevator-cmd-norm"], fdm["fcs/throttle-cmd-norm"]
    ail0, rud0 = fdm["fcs/aileron-cmd-norm"], fdm["fcs/rudder-cmd-norm"]
    h = History(trim)
    with quiet():                     # (JSBSim may print as it flies)
        _fly_fdm(fdm, case, h, (el0, ail0, rud0, th0))
    return h


def _fly_fdm(fdm, case, h, trim_cmds) -> None:
    el0, ail0, rud0, th0 = trim_cmds
    x = 0.0
    for k in range(int(round(case.seconds / DT))):
        t = k * DT
        dp, dr, dy, dth = case.at(t)
        fdm["fcs/elevator-cmd-norm"] = el0 - dp
        fdm["fcs/aileron-cmd-norm"] = ail0 + dr
        fdm["fcs/rudder-cmd-norm"] = rud0 + dy
        fdm["fcs/throttle-cmd-norm"] = 0.0 if case.power_off else min(max(th0 + dth, 0.0), 1.0)
        fdm.run()
        x += fdm["velocities/vg-fps"] * FT * DT
        # (both models recorded after each step, at its end, with the input that step flew)
        h.add(t=t + DT, tas_ms=fdm["velocities/vt-fps"] * FT, alpha_deg=fdm["aero/alpha-deg"],
              theta_deg=fdm["attitude/theta-deg"], q_dps=math.degrees(fdm["velocities/q-rad_sec"]),
              p_dps=math.degrees(fdm["velocities/p-rad_sec"]), r_dps=math.degrees(fdm["velocities/r-rad_sec"]),
              phi_deg=fdm["attitude/phi-deg"], h_m=fdm["position/h-sl-ft"] * FT, x_m=x,
              pitch=dp, roll=dr, yaw=dy)


# ---------------------------------------------------------------------------- ours
def fly_ours(aircraft: str, altitude_m: float, kcas: float, flaps: float, case: Inputs, mass_kg: float) -> History:
    """Our model at ``mass_kg`` trimmed level at the condition, then flown through the case."""
    from ..physics.named import Controls
    from .flight import base_controls, test_sim
    sim = test_sim(aircraft, mass_kg)
    rho = float(isa(altitude_m)[2])
    tas = kcas * KT * math.sqrt(1.225 / rho)
    base = Controls(base_controls(sim, "clean", "military"))
    base.flap = flaps
    base.gear_up = gear_up(aircraft)
    tr = sim.trimmer(altitude_m, base.array, plant_in_jacobian=False)
    t = tr.level(tas, (0.02, 0.6, 0.0))
    if t.ok:
        t = tr.lateral(t)
    if not t.ok or not 0.0 <= t.throttle <= 1.0:
        raise RuntimeError(f"{aircraft} does not trim level at {kcas:.0f} kt (residual {t.residual:.2g})")
    sim.place_trim(t, altitude_m)
    c0 = sim.ctrl.copy()
    # the elevator where it rests in the trim (its tab or stabilizer holding it there), a fraction of
    # its travel, trailing edge up positive: JSBSim's elevator-pos-norm, negated
    trim = {"alpha_deg": math.degrees(t.alpha_rad), "elevator": sim.surface("pitch"),
            "throttle": float(t.throttle), "mass_kg": mass_kg}
    h = History(trim)
    x = 0.0
    for k in range(int(round(case.seconds / DT))):
        tt = k * DT
        dp, dr, dy, dth = case.at(tt)
        c = Controls(c0.copy())
        c.pitch = min(max(c.pitch + dp, -1.0), 1.0)
        c.roll = min(max(c.roll + dr, -1.0), 1.0)
        c.yaw = min(max(c.yaw + dy, -1.0), 1.0)
        c.throttle = 0.0 if case.power_off else min(max(c.throttle + dth, 0.0), 1.0)
        sim.step(c.array)
        v = sim.velocity_ned_ms
        x += math.hypot(v[0], v[1]) * DT
        roll, pitch, _ = (math.degrees(v) for v in sim.euler_rad)
        p, q, r = (math.degrees(v) for v in sim.body_rates_rads)
        h.add(t=tt + DT, tas_ms=sim.tas_ms, alpha_deg=math.degrees(sim.alpha_rad), theta_deg=pitch, q_dps=q,
              p_dps=p, r_dps=r, phi_deg=roll, h_m=sim.altitude_m, x_m=x, pitch=dp, roll=dr, yaw=dy)
    return h


# ---------------------------------------------------------------------------- reading them
def read(case: str, h: History) -> list[tuple[str, float, str]]:
    """The figures a case gives: (quantity, value, unit)."""
    t = h["t"]
    if case == "trim":
        return [("trim angle of attack", h.trim["alpha_deg"], "deg"),
                ("trim elevator (trailing edge up +)", h.trim["elevator"], "of travel"),
                ("trim throttle", h.trim["throttle"], "of travel")]
    if case == "elevator doublet":
        # from the angle of attack (its response to the elevator has no zero near the mode's; the
        # pitch rate's has, and a second-order fit to it reads twice the frequency)
        wn, zeta = modes.second_order(t, h["alpha_deg"], h["pitch"], 0.5, 8.0)
        out = [("short-period natural frequency", wn, "rad/s"), ("short-period damping ratio", zeta, "")]
        ph = modes.oscillation(t, h["tas_ms"], 8.0, t[-1], order=2, dt=0.5)
        if ph is not None:
            out += [("phugoid period", ph[0], "s"), ("phugoid damping ratio", ph[1], "")]
        return out
    if case == "aileron step":
        return [("roll-mode time constant", modes.time_constant(t, h["p_dps"], 1.0, 4.0), "s"),
                ("spiral: time to double (- to half) the bank", modes.exponential_time(t, h["phi_deg"], 20.0, t[-1]),
                 "s")]
    if case == "rudder doublet":
        dr = modes.oscillation(t, h["r_dps"], 3.0, 15.0, order=2, dt=0.1)
        if dr is None:
            return []
        return [("Dutch roll period", dr[0], "s"), ("Dutch roll damping ratio", dr[1], "")]
    if case == "throttle step":
        late = t >= t[-1] - 5.0
        rate = float(np.polyfit(t[late], h["h_m"][late], 1)[0])
        return [("climb 25-30 s after the step", rate, "m/s")]
    if case == "power-off glide":
        late = t >= t[-1] - 60.0
        dx = float(h["x_m"][late][-1] - h["x_m"][late][0])
        dh = float(h["h_m"][late][0] - h["h_m"][late][-1])
        return [("glide ratio (stick fixed)", dx / dh if dh > 0 else float("inf"), ""),
                ("glide speed", float(np.mean(h["tas_ms"][late])) / KT, "kt TAS")]
    raise ValueError(f"unknown case {case!r}")


def side_by_side(aircraft: str, published: dict | None = None, log=print):
    """Fly every condition and case in both models: (rows, histories) where rows are the JSON rows
    and histories {(condition, case): (ours, jsbsim)} for the report's overlays."""
    model = PAIRS.get(aircraft)
    if model is None:
        raise RuntimeError(f"no JSBSim model is paired with {aircraft!r} (paired: {', '.join(PAIRS)})")
    published = published or {}
    rows, histories = [], {}
    gear = gear_up(aircraft)
    for cond, alt, kcas, flaps, *flight_test in CONDITIONS[aircraft]:
        tested, source = flight_test if flight_test else ({}, None)
        for case in CASES:
            js = fly_jsbsim(model, alt, kcas, flaps, case, gear)
            ours = fly_ours(aircraft, alt, kcas, flaps, case, js.trim["mass_kg"])
            histories[(cond, case.name)] = (ours, js)
            a, b = dict((q, (v, u)) for q, v, u in read(case.name, ours)), read(case.name, js)
            for q, v, unit in b:
                mine = a.get(q, (float("nan"), unit))[0]
                row = {"case": f"{cond}: {case.name}", "quantity": q, "flightsim": _r(mine), "jsbsim": _r(v),
                       "published": tested.get(q, published.get(q)), "unit": unit}
                if q in tested:
                    row["published_source"] = source
                rows.append(row)
                log(f"  {cond:28s} {case.name:18s} {q:44s} {_r(mine)!s:>9} {_r(v)!s:>9} {unit}")
    return rows, histories


CHANNELS = (("tas_ms", "TAS m/s"), ("alpha_deg", "alpha deg"), ("q_dps", "q deg/s"), ("p_dps", "p deg/s"),
            ("r_dps", "r deg/s"), ("phi_deg", "bank deg"), ("h_m", "altitude m"))


def curves(histories, every: int = 5) -> dict:
    """The histories for the report's overlays (JSON-able, every ``every``-th sample: 10 Hz):
    {"condition: case": {"ours": {channel: [...]}, "jsbsim": {...}}}."""
    out = {}
    for (cond, case), pair in histories.items():
        out[f"{cond}: {case}"] = {who: {k: h[k][::every].round(4).tolist() for k in ("t",) + tuple(c for c, _ in CHANNELS)}
                                  for who, h in zip(("ours", "jsbsim"), pair)}
    return out


def _r(x) -> float | None:
    x = float(x)
    return round(x, 3) if math.isfinite(x) else None
