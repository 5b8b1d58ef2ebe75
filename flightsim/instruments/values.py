"""Instrument readings as pure functions of snapshots (numpy + stdlib only).

Every function here takes one ``flightsim.runtime.handoff.Snapshot`` (or two consecutive ones)
and returns a number in SI units unless its name says otherwise; nothing reads the
physics. Sign conventions follow the project: world NED, body FRD, angles in radians.

    ias_kmh, tas_kmh, altitude_m, vertical_speed_ms        air data
    energy_height_m, te_rate_ms                             total-energy variometer (d/dt of h + v^2/2g)
    slip_ball_rad, yaw_string_rad                           balance: ball (lateral specific force), string (sideslip)
    heading_deg, pitch_deg, roll_deg                        attitude (3-2-1 Euler, display only)
    load_factor, load_factor_between                        G meter: snapshot accelerometer / from the motion
    aoa_deg, mach                                           fighter HUD
    flight_path_body, flight_path_ned                       flight-path marker (velocity vector) direction
    heading_tape, ladder_rungs                              HUD scales: which marks are visible
    stall_speed_kmh, stall_warning                          stall warning logic (0 none, 1 approaching, 2 stalled)
    engine_value, engine_readings                           engine gauges: rpm, manifold pressure (inHg,
                                                            boost lb/in2, ata), temperatures, fuel
    telemetry_text                                          the F2 overlay, in the spirit of seed 001
"""
from __future__ import annotations

import math

import numpy as np

G0 = 9.80665
KMH = 3.6

# ------------------------------------------------------------------------------ air data


def ias_kmh(s) -> float:
    """Indicated airspeed: the snapshot's equivalent airspeed (pitot-static, no position error), km/h."""
    return float(s.ias_ms) * KMH


def tas_kmh(s) -> float:
    return float(s.tas_ms) * KMH


def altitude_m(s) -> float:
    """Altimeter set to standard pressure at sea level: the ISA pressure altitude = geometric altitude here."""
    return float(s.altitude_m)


def vertical_speed_ms(s) -> float:
    """Rate of climb over the ground (an uncompensated variometer), m/s, + up."""
    return -float(s.velocity_ned_ms[2])


def energy_height_m(s) -> float:
    """Specific total energy as a height: h + V^2 / 2g, with V the airspeed (what a TE probe senses)."""
    v = float(s.tas_ms)
    return float(s.altitude_m) + v * v / (2.0 * G0)


def air_data_valid(s) -> bool:
    """False for a snapshot published before any physics step (its air data are still zero
    while the aircraft moves): the physics thread's very first one."""
    if float(s.tas_ms) > 0.0 or float(s.ias_ms) > 0.0:
        return True
    return float(np.linalg.norm(np.asarray(s.velocity_body_ms))) < 0.5


def te_rate_ms(prev, curr) -> float | None:
    """Total-energy rate between two snapshots, m/s (None across a reset or with no time between them).

    In still air and steady flight it is the polar sink; exchanging speed for height at
    constant energy (a pull-up, a zoom) it stays near zero, unlike the plain vario."""
    if prev is None or prev.epoch != curr.epoch or not (air_data_valid(prev) and air_data_valid(curr)):
        return None
    dt = float(curr.time_s) - float(prev.time_s)
    if dt <= 0.0:
        return None
    return (energy_height_m(curr) - energy_height_m(prev)) / dt


def lag(value: float, target: float, dt_s: float, tau_s: float) -> float:
    """One step of a first-order lag (exact for a target held over dt): the needle's damping."""
    if tau_s <= 0.0:
        return target
    return value + (target - value) * (1.0 - math.exp(-max(dt_s, 0.0) / tau_s))


# ------------------------------------------------------------------------------ balance

def slip_ball_rad(s) -> float:
    """Angle of the inclinometer ball from the tube's centre, + right.

    The ball settles where the apparent gravity (minus the specific force) points; a
    side force to the left (a slip to the right, sideslip beta > 0) puts it right:
    "step on the ball"."""
    ny = float(getattr(s, "ny_g", 0.0))
    nz = float(s.nz_g)
    return math.atan2(-ny, nz)


def yaw_string_rad(s, min_airspeed_ms: float = 3.0) -> float:
    """Direction the yaw string's free end trails, relative to the nose, + to the right.

    The string lies along the relative wind: with sideslip beta > 0 (wind from the right)
    its tail blows to the left. Below ``min_airspeed_ms`` it hangs straight."""
    if float(s.tas_ms) < min_airspeed_ms:
        return 0.0
    return -float(s.beta_rad)


# ------------------------------------------------------------------------------ attitude

def _euler(s):
    return s.euler_rad


def heading_deg(s) -> float:
    """Compass heading (true: the world has no magnetic variation), 0..360."""
    return math.degrees(_euler(s)[2]) % 360.0


def pitch_deg(s) -> float:
    return math.degrees(_euler(s)[1])


def roll_deg(s) -> float:
    return math.degrees(_euler(s)[0])


def _dcm(q) -> np.ndarray:
    w, x, y, z = (float(v) for v in q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _slerp_half(q0, q1) -> np.ndarray:
    q0 = np.asarray(q0, dtype=np.float64)
    q1 = np.asarray(q1, dtype=np.float64)
    if float(np.dot(q0, q1)) < 0.0:
        q1 = -q1
    q = q0 + q1
    n = np.linalg.norm(q)
    return q / n if n > 0 else q0


# ------------------------------------------------------------------------------ G meter

def load_factor(s) -> float:
    """The accelerometer the physics reports: specific force along -z body, in g."""
    return float(s.nz_g)


def load_factor_between(prev, curr) -> float | None:
    """Normal load factor from the motion between two snapshots: -(R^T (a - g))_z / g.

    a is the mean acceleration over the interval (velocity difference / time), g the
    gravity vector (down in NED), R the attitude halfway. This is what an accelerometer at
    the CG reads, averaged over the interval: 1 in level flight, 1/cos(bank) in a level turn."""
    if prev is None or prev.epoch != curr.epoch:
        return None
    dt = float(curr.time_s) - float(prev.time_s)
    if dt <= 0.0:
        return None
    a = (np.asarray(curr.velocity_ned_ms) - np.asarray(prev.velocity_ned_ms)) / dt
    f = a - np.array([0.0, 0.0, G0])
    R = _dcm(_slerp_half(prev.quat_wxyz, curr.quat_wxyz))
    return float(-(R.T @ f)[2] / G0)


def aoa_deg(s) -> float:
    return math.degrees(float(s.alpha_rad))


def mach(s) -> float:
    m = float(getattr(s, "mach", 0.0))
    if m <= 0.0 and s.tas_ms > 0.0:
        m = float(s.tas_ms) / 340.29        # sea-level speed of sound: snapshots made before the mach field
    return m


# ------------------------------------------------------------------------------ flight path

def flight_path_body(s) -> tuple[float, float] | None:
    """Direction of the velocity over the ground relative to the nose: (right, up) angles, rad.

    The flight-path marker sits this far right of and above the boresight. None when
    the aircraft is (nearly) standing still."""
    u, v, w = (float(x) for x in s.velocity_body_ms)
    sp = math.sqrt(u * u + v * v + w * w)
    if sp < 1.0:
        return None
    return math.atan2(v, u), math.atan2(-w, math.hypot(u, v))


def flight_path_ned(s) -> np.ndarray | None:
    """Unit vector of the velocity over the ground, NED (None when standing still)."""
    v = np.asarray(s.velocity_ned_ms, dtype=np.float64)
    n = float(np.linalg.norm(v))
    return None if n < 1.0 else v / n


def heading_tape(heading: float, half_span_deg: float = 30.0, minor_deg: float = 5.0,
                 label_deg: float = 10.0) -> list[tuple[float, str | None]]:
    """Marks of a heading tape centred on ``heading`` (deg): (offset_deg, label or None).

    Labels are three-digit headings ("350", "000") every ``label_deg``."""
    out = []
    first = math.ceil((heading - half_span_deg) / minor_deg) * minor_deg
    k = 0
    while True:
        h = first + k * minor_deg
        off = h - heading
        if off > half_span_deg + 1e-9:
            break
        hh = round(h) % 360
        is_label = abs((h / label_deg) - round(h / label_deg)) < 1e-6
        out.append((off, f"{hh:03d}" if is_label else None))
        k += 1
    return out


def ladder_rungs(pitch: float, half_span_deg: float = 25.0, step_deg: float = 5.0) -> list[int]:
    """Pitch-ladder rungs (deg) within ``pitch +/- half_span_deg``, never beyond +/-90."""
    lo = max(-90.0, pitch - half_span_deg)
    hi = min(90.0, pitch + half_span_deg)
    first = math.ceil(lo / step_deg)
    last = math.floor(hi / step_deg)
    return [int(round(k * step_deg)) for k in range(first, last + 1)]


# ------------------------------------------------------------------------------ stall warning

def stall_speed_kmh(stall_1g_kmh: float, nz: float) -> float:
    """Stall speed at load factor nz: V_s sqrt(n) (0 at zero or negative g)."""
    return stall_1g_kmh * math.sqrt(max(nz, 0.0))


def airborne(s, min_height_m: float = 1.0) -> bool:
    return int(s.on_ground) == 0 and float(s.height_agl_m) > min_height_m


def stall_warning(s, stall_1g_kmh: float | None = None, margin: float = 1.1) -> int:
    """0: none; 1: approaching the stall (IAS below ``margin`` x the stall speed at this
    load factor); 2: stalled (two or more lifting sections past their stall angle).

    Never on the ground or nearly standing still."""
    if not airborne(s) or float(s.ias_ms) < 5.0:
        return 0
    if int(s.stalled_sections) >= 2:
        return 2
    if stall_1g_kmh and ias_kmh(s) < margin * stall_speed_kmh(stall_1g_kmh, float(s.nz_g)):
        return 1
    return 0


# ------------------------------------------------------------------------------ engine (optional fields)

# Each gauge value under the name the instruments use, and where a snapshot may carry it:
# (attribute, factor, offset). The powered-flight issue's Snapshot has engine_rpm,
# manifold_pressure_pa, oil_k, coolant_k and fuel_kg (zeros for a glider); the first
# names are the ones this module documents, and either kind is read.
# Manifold pressure reads three ways: absolute in inches of mercury (American), boost in
# lb/in2 above the standard sea-level pressure (British: negative below it, e.g. about -4
# at idle), absolute in technical atmospheres, ata = 1 kgf/cm2 (German Ladedruck).
INHG_PA = 3386.389
PSI_PA = 6894.757              # 1 lb/in2
ATA_PA = 98066.5               # 1 kgf/cm2
GAL_AVGAS_KG = 6.0 * 0.45359237   # a US gallon of aviation gasoline, 6.0 lb (the POH weight and balance figure)
SEA_LEVEL_PA = 101325.0        # zero boost: the standard atmosphere at sea level (14.7 lb/in2)
ENGINE_SOURCES = {
    "rpm": (("rpm", 1.0, 0.0), ("engine_rpm", 1.0, 0.0)),
    "manifold_pressure_inhg": (("manifold_pressure_inhg", 1.0, 0.0), ("manifold_pressure_pa", 1.0 / INHG_PA, 0.0)),
    "boost_psi": (("boost_psi", 1.0, 0.0), ("manifold_pressure_pa", 1.0 / PSI_PA, -SEA_LEVEL_PA / PSI_PA)),
    "manifold_pressure_ata": (("manifold_pressure_ata", 1.0, 0.0), ("manifold_pressure_pa", 1.0 / ATA_PA, 0.0)),
    "oil_temp_c": (("oil_temp_c", 1.0, 0.0), ("oil_k", 1.0, -273.15)),
    "coolant_temp_c": (("coolant_temp_c", 1.0, 0.0), ("coolant_k", 1.0, -273.15)),
    "fuel_kg": (("fuel_kg", 1.0, 0.0),),
    # oil pressure (systems damage, physics/damage.py): lb/in2 or kg/cm2 (gauge)
    "oil_pressure_psi": (("oil_pressure_psi", 1.0, 0.0), ("oil_pressure_pa", 1.0 / PSI_PA, 0.0)),
    "oil_pressure_kgcm2": (("oil_pressure_kgcm2", 1.0, 0.0), ("oil_pressure_pa", 1.0 / ATA_PA, 0.0)),
    # jets (physics/jet.py): core speed, the afterburner's nozzle, fuel flow and fuel in pounds
    "jet_rpm_pct": (("jet_rpm_pct", 1.0, 0.0),),
    "nozzle_pct": (("afterburner", 100.0, 0.0),),
    "fuel_flow_pph": (("fuel_flow_kgs", 3600.0 / 0.45359237, 0.0),),
    "fuel_lb": (("fuel_kg", 1.0 / 0.45359237, 0.0),),
    # a carburetted light aircraft (physics/carburettor.py): EGT in F, carburettor air in C, the gyros'
    # suction, oil in F, each wing tank in US gallons of aviation gasoline (6.0 lb/gal)
    "egt_f": (("egt_k", 1.8, -459.67),),
    "carb_temp_c": (("carb_temp_k", 1.0, -273.15),),
    "suction_inhg": (("suction_inhg", 1.0, 0.0),),
    "oil_temp_f": (("oil_k", 1.8, -459.67),),
    "fuel_left_gal": (("fuel_left_kg", 1.0 / GAL_AVGAS_KG, 0.0),),
    "fuel_right_gal": (("fuel_right_kg", 1.0 / GAL_AVGAS_KG, 0.0),),
}


def warning_lights(s) -> list:
    """The damage warning lights a snapshot calls for, (text, 'amber' | 'red') each, most urgent
    first: fire, a seized engine and a wounded pilot red; the engine past its temperature limit
    red once it is wearing; coolant or oil going, low oil pressure, hot oil, a fuel leak, a damaged
    propeller or control run amber. None without damage data (physics.damage.damage_summary)."""
    d = getattr(s, "damage", None)
    if not d:
        return []
    out = []
    if d["fires"]:
        out.append(("FIRE", "red"))
    if d["seized"]:
        out.append(("ENGINE SEIZED", "red"))
    elif s.coolant_k > d["coolant_limit_k"]:
        out.append(("ENGINE HOT", "red" if d["engine_wear"] > 0.05 else "amber"))
    if d["pilot_wound"] > 0.0:
        out.append(("PILOT HIT", "red"))
    if d["coolant_leaking"] or d["coolant_left"] < 0.98:
        out.append(("COOLANT", "amber"))
    if d["oil_leaking"] or d["oil_left"] < 0.98:
        out.append(("OIL LOSS", "amber"))
    if s.engine_rpm > 300.0 and d["oil_pressure_pa"] < 0.6 * d["oil_pressure_normal_pa"]:
        out.append(("OIL PRESS", "amber"))
    if s.oil_k > d["oil_limit_k"]:
        out.append(("OIL HOT", "amber"))
    if d["fuel_leak_kg_s"] > 0.005:
        out.append(("FUEL LEAK", "amber"))
    if d["propeller_damage"] > 0.0:
        out.append(("PROPELLER", "amber"))
    if d["link_cut"] > 0.0:
        out.append(("CONTROLS", "amber"))
    return out


def engine_value(s, name: str) -> float | None:
    """An engine reading (rpm, manifold_pressure_inhg, boost_psi, manifold_pressure_ata,
    oil_temp_c, coolant_temp_c, fuel_kg) from whichever snapshot field carries it; None when
    absent (a temperature of 0 K is an engine model that does not compute it: absent too)."""
    for attr, mul, add in ENGINE_SOURCES.get(name, ((name, 1.0, 0.0),)):
        v = getattr(s, attr, None)
        if v is None:
            continue
        if attr.endswith("_k") and float(v) <= 0.0:
            return None
        if attr == "oil_pressure_pa" and getattr(s, "damage", None) is None:
            return None                 # an engine model without an oil system

        return float(v) * mul + add
    return None


def engine_readings(s, gauges, powered: bool = True) -> list:
    """(GaugeSpec, display value) for every engine gauge with a reading; none for a glider
    (its snapshot carries zeros)."""
    if not powered:
        return []
    out = []
    for g in gauges:
        v = engine_value(s, g.field)
        if v is not None:
            out.append((g, v * g.scale))
    return out


# ------------------------------------------------------------------------------ telemetry

def telemetry_text(s, start_ned=None, sim_rate: float | None = None, stall_level: int = 0,
                   powered: bool = False) -> str:
    """The compact F2 readout, grouped like seed 001's Flight Simulator II dashboard:
    speed, pitch, altitude, vertical rate / elevator, power (a carburetted engine's mixture and
    carburettor air with the heat), flaps / stall / distance, time and the simulation rate
    relative to real time."""
    c = s.controls
    dist_km = 0.0
    if start_ned is not None:
        d = np.asarray(s.position_ned_m[:2]) - np.asarray(start_ned[:2])
        dist_km = float(np.hypot(d[0], d[1])) / 1000.0
    t = float(s.time_s)
    power = f"{100 * c.throttle:6.0f} %" if powered or c.throttle > 0 else "    --"
    rate = "  --" if sim_rate is None else f"{100 * sim_rate:4.0f}"
    stall = {0: "  --", 1: "WARN", 2: " !! "}[int(stall_level)]
    elev = c.pitch + c.pitch_trim
    carb = ""
    if getattr(s, "carb_temp_k", 0.0) > 0.0:     # a carburetted engine: the mixture lever and the heat
        carb = (f"MIXT. {100 * (1.0 - c.mixture_lean):6.0f} %\n"
                f"CARB  {s.carb_temp_k - 273.15:+6.0f} C" + (" HEAT" if c.carb_heat > 0.5 else "") + "\n")
    return (f"TAS   {tas_kmh(s):6.0f} km/h\n"
            f"PITCH {pitch_deg(s):+6.1f} deg\n"
            f"ALT   {altitude_m(s):6.0f} m\n"
            f"VRATE {vertical_speed_ms(s):+6.1f} m/s\n"
            f"\n"
            f"ELEV  {100 * elev:+6.0f} %\n"
            f"POWER {power}\n"
            f"{carb}"
            f"FLAPS {c.flap:+6.2f}\n"
            f"\n"
            f"STALL {stall}\n"
            f"\n"
            f"DIST  {dist_km:6.2f} km\n"
            f"TIME  {int(t // 60):3d}:{t % 60:04.1f}\n"
            f"RATE  {rate} %")
