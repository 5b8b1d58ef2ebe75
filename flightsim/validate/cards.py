"""Which card flies which figure or statement of references.toml, and the cards with no
published figure that are flown for the report anyway (model only).

A figure card takes (aircraft, condition) and returns the model's value in the card's unit
(flightsim.aircraft_data.references.CARDS); a behaviour card takes (aircraft, behaviour) and returns
(passed, what was observed in words). The flights several cards share (the stall approach, the
winch launches) are flown once per run.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from . import damage, ground, handling, launch, maneuver, performance, roll, stall, systems

KMH_PER_MPH = 1.609344


def _roll_rate(aircraft, cond):
    r = roll.roll_rate(aircraft, cond["ias_kmh"], cond["altitude_m"], cond["stick_force_n"], cond["mass_kg"],
                       cond["config"], cond["power"])
    if r is None:
        raise RuntimeError(f"no straight flight at {cond['ias_kmh']:.0f} km/h IAS to roll from")
    return r["roll_rate_dps"]


def _roll_reversal_speed(aircraft, cond):
    return systems.roll_reversal(aircraft, cond["altitude_m"], cond["stick_force_n"], cond["mass_kg"], cond["config"],
                                 cond["power"])["reversal_kmh"]


def _coolant_loss_endurance(aircraft, cond):
    return damage.coolant_loss_endurance(aircraft, cond["power"] or "cruise", cond["altitude_m"])["failed_s"] / 60.0


FIGURES = {
    "level_speed": performance.level_speed, "best_climb": performance.best_climb,
    "service_ceiling": performance.service_ceiling, "engine_power": performance.engine_power,
    "stall_speed": performance.stall_speed, "best_glide_ratio": performance.best_glide_ratio,
    "best_glide_speed": performance.best_glide_speed, "min_sink": performance.min_sink,
    "min_sink_speed": performance.min_sink_speed, "glide_sink": performance.glide_sink,
    "time_to_climb": performance.time_to_climb, "roll_rate": _roll_rate,
    "takeoff_roll": ground.takeoff_roll, "landing_roll": ground.landing_roll,
    "takeoff_distance": ground.takeoff_distance,
    "stick_force_per_g": handling.stick_force_per_g, "roll_reversal_speed": _roll_reversal_speed,
    "coolant_loss_endurance": _coolant_loss_endurance, "fuel_flow": performance.fuel_flow,
    **maneuver.FIGURES,
}


# ---------------------------------------------------------------------------- the shared flights
@lru_cache(maxsize=4)
def _launches(aircraft):
    return tuple(launch.winch_launches(aircraft))


@lru_cache(maxsize=8)
def _stall(aircraft, mass_kg, rate_kmh_s):
    return stall.stall_approach(aircraft, mass_kg, "clean", rate_kmh_s)


def _stall_rate(aircraft) -> float:
    """The deceleration of the stall cards: CS 22.201's 2 km/h per second for a glider, the
    P-51D manual's 1 mph per second for a powered aircraft."""
    return 1.0 * KMH_PER_MPH if performance._sim(aircraft, None).powered else 2.0


# ---------------------------------------------------------------------------- behaviours
def winch_launch_speed(aircraft, b):
    runs = _launches(aircraft)
    worst = max(r["max_ias_kmh"] for r in runs)
    words = "; ".join(f"{r['how']}: {r['max_ias_kmh']:.0f} km/h, {r['event']}" for r in runs)
    return worst < b.limit, f"highest airspeed on the cable {worst:.0f} km/h ({words}); the driver drives for " \
                            f"{runs[0]['launch_speed_kmh']:.0f} km/h"


def winch_release_height(aircraft, b):
    runs = [r for r in _launches(aircraft) if r["release_share_pct"] is not None]
    shares = [r["release_share_pct"] for r in runs]
    ok = bool(shares) and all(b.low <= s <= b.high for s in shares)
    return ok, "; ".join(f"{r['how']}: {r['release_height_m']:.0f} m, {r['release_share_pct']:.0f} % of the cable "
                         f"({r['event']}), climb {r['mean_climb_ms']:.1f} m/s mean, {r['max_climb_ms']:.1f} peak"
                         for r in runs)


def weak_link(aircraft, b):
    r = launch.weak_link_pull(aircraft)
    broke = r["event"] == "weak link broke"
    near = abs(r["max_tension_n"] / b.limit - 1.0) <= 0.02
    return broke and near, (f"{r['event']} at {r['release_height_m'] or 0:.0f} m; the tension then "
                            f"{r['max_tension_n']:.0f} N against the rating {b.limit:.0f} N")


def stall_speed_limit(aircraft, b):
    v = performance.stall_speed(aircraft, dict(b.cond, config="clean"))
    return v <= b.limit, f"1 g stall speed {v:.1f} km/h at {b.cond['mass_kg'] or 0:.0f} kg, airbrakes in"


def _stall_words(r, rate_kmh_s) -> str:
    rec = f"flying level again {r['recovered_s']:.1f} s after the break" if r["recovered_s"] else "not recovered"
    return (f"stalled at {r['stall_kmh']:.0f} km/h IAS ({rate_kmh_s:.1f} km/h/s): {r['break']}, rolling at "
            f"{r['stall_roll_rate_dps']:.0f} deg/s hands off; then at most {r['max_bank_deg']:.0f} deg of bank and "
            f"{r['max_roll_rate_dps']:.0f} deg/s through the recovery; {rec}, {r['height_lost_m']:.0f} m lost")


def stall_roll_off(aircraft, b):
    r = _stall(aircraft, b.cond["mass_kg"], _stall_rate(aircraft))
    if performance._sim(aircraft, None).powered:      # "rolls rather slowly": the stall's own roll rate
        ok = r["stall_roll_rate_dps"] < b.limit
    else:                                             # CS 22.201: no more than 30 deg of roll
        ok = r["max_bank_deg"] < b.limit
    return ok, _stall_words(r, _stall_rate(aircraft))


def spin_recovery(aircraft, b):
    """A one-turn spin (14 CFR 23.221(a)) and the flight manual's recovery: it must spin (a developed,
    stalled rotation), stop within ``limit`` more turns and pull out."""
    from . import spin
    r = spin.spin_recovery(aircraft, b.cond["mass_kg"])
    if not r["spun"]:
        return False, (f"no spin: with full back stick and full rudder it turned {r['turns_held']:.1f} times in "
                       f"{r['entry_s']:.0f} s, the wing stalled, diving to {r['max_ias_kmh']:.0f} km/h IAS "
                       f"(a developed spin turns faster than {spin.SPIN_RATE_DPS:.0f} deg/s)")
    if r["recovery_turns"] is None:
        return False, (f"spun {r['turns_held']:.1f} turns; the recovery did not stop the rotation within 30 s, "
                       f"{r['height_lost_m']:.0f} m lost")
    ok = r["recovery_turns"] <= b.limit and r["recovered"]
    return ok, (f"spun {r['turns_held']:.1f} turns; the recovery stopped the rotation in "
                f"{r['recovery_turns']:.2f} turns ({r['recovery_s']:.1f} s), pulled out at up to "
                f"{r['max_g']:.1f} g and {r['max_ias_kmh']:.0f} km/h IAS, {r['height_lost_m']:.0f} m lost"
                + ("" if r["recovered"] else " (not level again)"))


def turning_stall(aircraft, b):
    """A turning flight stall (14 CFR 23.203): the bank through the recovery stays within
    low (the opposite way, negative) .. high (the turn's way), and level flight is regained."""
    bank = b.cond.get("bank_deg") or 30.0
    r = stall.stall_approach(aircraft, b.cond["mass_kg"], "clean", _stall_rate(aircraft), bank_deg=bank)
    ok = (r["recovered_s"] is not None and r["max_bank_into_turn_deg"] <= b.high
          and -r["max_bank_away_deg"] >= b.low)
    return ok, (f"in a {bank:.0f} deg coordinated turn: " + _stall_words(r, _stall_rate(aircraft))
                + f"; the bank reached {r['max_bank_into_turn_deg']:.0f} deg the turn's way and "
                  f"{r['max_bank_away_deg']:.0f} deg the other")


def buffet_margin(aircraft, b):
    r = _stall(aircraft, b.cond["mass_kg"], _stall_rate(aircraft))
    m = r["buffet_margin_kmh"]
    if m is None:
        return False, "no wing section stalled before the break"
    return b.low <= m <= b.high, (f"the first wing section stalls at {r['buffet_kmh']:.1f} km/h, the stall at "
                                  f"{r['stall_kmh']:.1f} km/h: {m:.1f} km/h ({m / KMH_PER_MPH:.1f} mph) above it")


def winch_stall(aircraft, b):
    r = stall.winch_stall(aircraft, b.cond["mass_kg"])
    ok = r["stalled"] and r["max_bank_deg"] < b.limit and r["recovered_s"] is not None and r["recovered_s"] < 6.0
    rec = f"level again {r['recovered_s']:.1f} s later" if r["recovered_s"] else "not recovered"
    return ok, (f"pulled to {r['peak_pitch_deg']:.0f} deg nose up from {1.2 * r['vs_kmh']:.0f} km/h, "
                f"{'stalled' if r['stalled'] else 'no stall'}; at most {r['max_bank_deg']:.0f} deg of bank, {rec}")


def trim_change_flaps(aircraft, b):
    d, words = handling.trim_change(aircraft, b.cond, "gear_down", "landing")
    return d > 0.0, words


def trim_change_gear(aircraft, b):
    d, words = handling.trim_change(aircraft, b.cond, "gear_down", "clean")
    return d < 0.0, words


def speed_stability(aircraft, b):
    d, words = handling.speed_stability(aircraft, b.cond)
    return d < 0.0, words


def _stall_text(r) -> str:
    if r["first_stall_s"] is None:
        return "no wing section stalled"
    return (f"the wing stalled {r['first_stall_s']:.1f} s into the pull ({r['max_stalled_wing_sections']} of its "
            f"{r['wing_sections']} sections past their stall)")


def stabilizer_trim_no_stall(aircraft, b):
    """Full nose-down stabilizer trim, then full back stick: no wing section may reach its stall.
    The same flight with the trim at neutral is flown beside it for comparison."""
    kw = dict(ias_kmh=b.cond["ias_kmh"], altitude_m=b.cond["altitude_m"], mass_kg=b.cond["mass_kg"],
              config=b.cond["config"], power=b.cond["power"])
    d = systems.stabilizer_pull(aircraft, -1.0, **kw)
    n = systems.stabilizer_pull(aircraft, 0.0, **kw)
    ok = d["first_stall_s"] is None
    also = "" if n["first_stall_s"] is not None else \
        " (it does not stall with the trim at neutral either: full back stick never reaches the stall)"
    return ok, (f"trimmed at {d['ias_kmh']:.0f} km/h IAS (stabilizer {d['trimmed_stabilizer_deg']:+.1f} deg; + is "
                f"leading edge up, nose down), the trim run to full nose down in {d['trim_run_s']:.1f} s "
                f"(stabilizer {d['stabilizer_deg']:+.1f} deg) with the attitude held, then full back stick "
                f"{d['hold_s']:.0f} s from {d['ias_at_pull_kmh']:.0f} km/h: {_stall_text(d)}; angle of attack at "
                f"most {d['max_alpha_deg']:.1f} deg (the wing's first section stalls at "
                f"{d['wing_stall_alpha_deg']:.1f} deg), {d['max_nz_g']:.1f} g, slowest {d['min_ias_kmh']:.0f} km/h. "
                f"The same pull with the trim at neutral (stabilizer {n['stabilizer_deg']:+.1f} deg): "
                f"{_stall_text(n)}, angle of attack at most {n['max_alpha_deg']:.1f} deg, {n['max_nz_g']:.1f} g"
                + also)


def _opened(side, r) -> str:
    o = r[side]
    if o is None:
        return f"the {side} wing's stayed closed"
    return (f"the {side} wing's opened at {o['ias_kmh']:.0f} km/h ({o['t_s']:.1f} s, sideslip "
            f"{o['sideslip_deg']:+.1f} deg)")


def slat_asymmetry(aircraft, b):
    """In a slipping stall approach, the slats of one wing open while the other's stay shut: the
    largest difference between the wings' mean slat positions reaches ``limit`` (0.5), and with
    ``low``/``high`` given, at some moment one wing's slats are at least ``high`` open while the
    other's are at most ``low``."""
    beta = b.cond.get("sideslip_deg")
    beta = 10.0 if beta is None else beta
    r = systems.slipping_stall(aircraft, beta, b.cond["ias_kmh"], b.cond["altitude_m"], b.cond["mass_kg"],
                               b.cond["config"], b.cond["power"], _stall_rate(aircraft))
    limit = 0.5 if b.limit is None else b.limit
    ok = r["max_difference"] >= limit
    if b.low is not None or b.high is not None:
        a = r["series"]
        lo_, hi_ = (0.5 if b.low is None else b.low), (0.5 if b.high is None else b.high)
        ok = ok and bool(np.any(((a[:, 3] >= hi_) & (a[:, 4] <= lo_)) | ((a[:, 4] >= hi_) & (a[:, 3] <= lo_))))
    at = r["at"]
    slip = (f"{abs(beta):.0f} deg of sideslip held by rudder (air from the {'right' if beta > 0 else 'left'})" if beta
            else "the ball held centred by rudder (no sideslip)")
    return ok, (f"slowing at {_stall_rate(aircraft):.1f} km/h/s from {r['start_kmh']:.0f} km/h IAS with {slip}, "
                f"wings level by aileron: {_opened('right', r)}, {_opened('left', r)}; the largest difference "
                f"{r['max_difference']:.2f} at {at['ias_kmh']:.0f} km/h (left {at['left']:.2f}, right "
                f"{at['right']:.2f} open); ended: {r['end']} at {r['end_ias_kmh']:.0f} km/h")


def slat_roll_near_stall(aircraft, b):
    """Full aileron near the stall: the slatted aircraft rolls the stick's way, and at least
    ``limit`` (1.5) times the bank the same aircraft without its slats gains in the same time
    (or the slatless one rolls the wrong way)."""
    r = systems.slat_roll(aircraft, b.cond["ias_kmh"], b.cond["altitude_m"], b.cond["mass_kg"], b.cond["config"],
                          b.cond["power"])
    limit = 1.5 if b.limit is None else b.limit
    s, p = r["slats"], r["plain"]
    ok = s["bank_deg"] > 0.0 and (p["bank_deg"] <= 0.0 or s["bank_deg"] >= limit * p["bank_deg"])
    if p["bank_deg"] < 0.0:
        plain = f"rolls the wrong way: {p['bank_deg']:.1f} deg"
    else:
        plain = (f"{p['bank_deg']:.1f} deg the stick's way, {'less' if p['bank_deg'] < s['bank_deg'] else 'more'} than "
                 "with the slats (no reversal)")
    power = f"{b.cond['power']} power" if b.cond["power"] not in (None, "idle") else "power off"
    return ok, (f"trimmed at {r['ias_kmh']:.0f} km/h IAS, {power} (the slatless wing's 1 g stall "
                f"{r['vs_plain_kmh']:.0f} km/h; angle of attack {s['alpha_deg']:.1f} deg), a wing let drop at "
                f"{-s['drop_dps']:.0f} deg/s, then the stick hard over to pick it up for {r['seconds']:.1f} s (the "
                f"mean of each wing): with the slats ({100 * s['slats_open']:.0f} % open on the falling wing) "
                f"{s['bank_deg']:.1f} deg of bank the stick's way, rolling {s['end_dps']:.0f} deg/s at the end; "
                f"without them {plain}, rolling {p['end_dps']:.0f} deg/s at the end; wing sections past their stall "
                f"at most {s['max_stalled_wing_sections']} with the slats, {p['max_stalled_wing_sections']} without")


# ---------------------------------------------------------------------------- systems damage (issue 18)
def _min(s) -> str:
    return "never (in the time flown)" if s is None else f"{s / 60.0:.1f} min"


def radiator_hit_seizure(aircraft, b):
    """A round (calibre_mm, default .50) through a coolant radiator in level flight at the power
    given: the engine seizes between ``low`` and ``high`` minutes after the hit."""
    power = b.cond["power"] or "military"
    r = damage.radiator_hit(aircraft, power, b.cond["altitude_m"] or 2000.0, b.cond["calibre_mm"] or 12.7)
    t = r["seized_s"]
    ok = t is not None and (b.low is None or t >= 60.0 * b.low) and (b.high is None or t <= 60.0 * b.high)
    return ok, (f"level at {r['ias_kmh']:.0f} km/h IAS with {power} power ({r['initial_power_kw']:.0f} kW), "
                f"{r['hit'][0]}: the temperature past the book limit after {_min(r['over_limit_s'])}, the coolant "
                f"gone after {_min(r['coolant_out_s'])}, 10 % of the power lost after {_min(r['power_down_10pct_s'])}, "
                f"seized after {_min(t)} (the engine at {r['max_coolant_c']:.0f} C)")


def carb_heat_check(aircraft, b):
    """The run-up's carburettor-heat check: full heat at the run-up rpm drops it by ``low`` to
    ``high`` rpm."""
    r = ground.run_up_carb_heat(aircraft, b.cond["mass_kg"])
    d = r["drop_rpm"]
    ok = (b.low is None or d >= b.low) and (b.high is None or d <= b.high)
    return ok, (f"brakes held, the throttle at {r['throttle']:.2f} for {r['cold_rpm']:.0f} rpm, then full carburettor "
                f"heat: {r['heated_rpm']:.0f} rpm, a drop of {d:.0f} rpm (full throttle static {r['static_rpm']:.0f} rpm)")


def radiator_half_capacity(aircraft, b):
    """Two radiators on separate circuits: one holed, the other still cools the engine (no
    seizure in ``limit`` minutes, default 10, at the power given); both holed, it seizes."""
    power = b.cond["power"] or "military"
    minutes = 10.0 if b.limit is None else b.limit
    one = damage.radiator_hit(aircraft, power, b.cond["altitude_m"] or 2000.0, b.cond["calibre_mm"] or 12.7,
                              radiators=(0,), max_s=60.0 * minutes)
    both = damage.radiator_hit(aircraft, power, b.cond["altitude_m"] or 2000.0, b.cond["calibre_mm"] or 12.7,
                               radiators=(0, 1), max_s=60.0 * minutes)
    ok = one["seized_s"] is None and both["seized_s"] is not None
    return ok, (f"level at {one['ias_kmh']:.0f} km/h IAS with {power} power: one radiator holed, half the coolant "
                f"lost, the engine at most {one['max_coolant_c']:.0f} C, seized {_min(one['seized_s'])} in "
                f"{minutes:.0f} min; both holed, seized after {_min(both['seized_s'])}")


def self_sealing_tank(aircraft, b):
    """A round (calibre_mm) into each tank from trimmed cruise: the self-sealing ones close the
    hole (no leak left after 60 s), the plain ones keep leaking."""
    cal = b.cond["calibre_mm"] or 7.7
    ok = True
    words = []
    for i, name, seal_mm in damage.tank_rows(aircraft):
        r = damage.tank_hit(aircraft, i, cal, "ap" if cal > 8.0 else "ball")
        should = 0.0 < cal <= seal_mm
        closed = r["leak_now_kg_s"] == 0.0
        ok = ok and closed == should
        kind = f"self-sealing to {seal_mm:.1f} mm" if seal_mm else "plain"
        now = "sealed" if closed else f"still leaking {r['leak_now_kg_s']:.2f} kg/s"
        words.append(f"{name} ({kind}): {r['lost_kg']:.1f} kg lost in 60 s, {now}")
    return ok, f"a {cal:.1f} mm round into each tank from cruise: " + "; ".join(words)


def tank_fire(aircraft, b):
    """A tank set burning: with fuel in it, it explodes (taking its wing, or in the fuselage the
    aircraft); drained first, it burns out and does not explode."""
    i = damage.tank_rows(aircraft)[0][0]
    full = damage.tank_fire(aircraft, i)
    empty = damage.tank_fire(aircraft, i, empty=True)
    ok = full["exploded_s"] is not None and empty["exploded_s"] is None and empty["burned_out_s"] is not None
    out = empty["burned_out_s"]
    return ok, (f"tank {i + 1} burning with fuel: {full['what'] or 'no explosion'} after {_min(full['exploded_s'])}, "
                f"the mass {full['mass_before_kg']:.0f} -> {full['mass_after_kg']:.0f} kg; drained first: "
                + (f"burned out after {out:.2f} s, no explosion" if out is not None else "it did not burn out"))


def stores_release_agility(aircraft, b):
    """The stores (the condition's) released in straight flight: the mass, CG and inertia re-summed
    that cycle, and the roll quicker (roll rate 0.3 s into a full aileron roll, time to 45 deg)."""
    r = damage.store_release(aircraft, b.cond["stores"], b.cond["ias_kmh"] or 400.0, b.cond["altitude_m"] or 2000.0)
    x, y = r["before"], r["after"]
    ok = y["roll_rate_03s_dps"] > x["roll_rate_03s_dps"] and y["time_to_45_s"] < x["time_to_45_s"]
    return ok, (f"at {r['ias_kmh']:.0f} km/h IAS: mass {x['mass_kg']:.0f} -> {r['mass_next_cycle_kg']:.0f} kg the "
                f"next cycle, CG {1000 * (y['cg_m'][0] - x['cg_m'][0]):+.0f} mm in x, Ixx {x['ixx']:.0f} -> "
                f"{y['ixx']:.0f}, Iyy {x['iyy']:.0f} -> {y['iyy']:.0f} kg m2; full aileron: "
                f"{x['roll_rate_03s_dps']:.1f} -> {y['roll_rate_03s_dps']:.1f} deg/s after 0.3 s, "
                f"{x['roll_rate_1s_dps']:.1f} -> {y['roll_rate_1s_dps']:.1f} after 1 s, 45 deg in "
                f"{x['time_to_45_s']:.2f} -> {y['time_to_45_s']:.2f} s; a fifth of the elevator's force: pitch rate "
                f"after 0.5 s {x['pitch_rate_05s_dps']:.1f} -> {y['pitch_rate_05s_dps']:.1f} deg/s")


BEHAVIOURS = {
    "winch_launch_speed": winch_launch_speed, "winch_release_height": winch_release_height, "weak_link": weak_link,
    "stall_speed_limit": stall_speed_limit, "stall_roll_off": stall_roll_off, "buffet_margin": buffet_margin,
    "spin_recovery": spin_recovery,
    "winch_stall": winch_stall, "turning_stall": turning_stall, "trim_change_flaps": trim_change_flaps,
    "trim_change_gear": trim_change_gear,
    "speed_stability": speed_stability, "stabilizer_trim_no_stall": stabilizer_trim_no_stall,
    "slat_asymmetry": slat_asymmetry, "slat_roll_near_stall": slat_roll_near_stall,
    "radiator_hit_seizure": radiator_hit_seizure, "radiator_half_capacity": radiator_half_capacity,
    "carb_heat_check": carb_heat_check,
    "self_sealing_tank": self_sealing_tank, "tank_fire": tank_fire, "stores_release_agility": stores_release_agility,
    **maneuver.BEHAVIOURS,
}


# ---------------------------------------------------------------------------- model only
def model_only(aircraft, refs, powered: bool) -> list[dict]:
    """Cards flown with no published figure to compare (each with what was flown), and the
    curves the report plots."""
    if performance._sim(aircraft, None).compiled.spec.flight_control is not None:
        return maneuver.model_only(aircraft)          # a fly-by-wire jet: its energy-maneuverability curves
    out = []
    turn = handling.turn_curve(aircraft, 0.0)
    best = max((p for p in turn["points"] if "sustained" in p), key=lambda p: p["sustained"]["rate_dps"], default=None)
    inst = max((p for p in turn["points"] if "instantaneous" in p), key=lambda p: p["instantaneous"]["rate_dps"])
    out.append({"card": "turn", "result": turn,
                "summary": (f"sea level: best sustained turn {best['sustained']['rate_dps']:.1f} deg/s at "
                            f"{best['ias_kmh']:.0f} km/h IAS (n {best['sustained']['load_factor']:.1f}, radius "
                            f"{best['sustained']['radius_m']:.0f} m); " if best else "")
                           + f"best instantaneous {inst['instantaneous']['rate_dps']:.1f} deg/s at "
                             f"{inst['ias_kmh']:.0f} km/h (n {inst['instantaneous']['load_factor']:.1f}: the "
                             "aerodynamic limit, no structural limit applied)"})
    rr = refs.of("roll_rate")
    alt = rr[0].cond["altitude_m"] if rr else 0.0
    force = rr[0].cond["stick_force_n"] if rr else None
    vs = performance.stall_speed(aircraft, dict(mass_kg=None, config="clean", altitude_m=0.0))
    vne = performance._sim(aircraft, None).compiled.spec.aircraft["vne_kmh"]
    speeds = [round(v) for v in [1.3 * vs + k * (0.85 * vne - 1.3 * vs) / 9.0 for k in range(10)]]
    curve = [r for r in (roll.roll_rate(aircraft, v, alt, force) for v in speeds) if r is not None]
    out.append({"card": "roll_curve", "result": {"altitude_m": alt, "stick_force_n": force, "points": curve},
                "summary": f"{alt:.0f} m, {curve[0]['stick_force_n']:.0f} N: peak "
                           f"{max(p['roll_rate_dps'] for p in curve):.0f} deg/s at "
                           f"{max(curve, key=lambda p: p['roll_rate_dps'])['ias_kmh']:.0f} km/h IAS; "
                           f"{curve[0]['roll_rate_dps']:.0f} deg/s at {curve[0]['ias_kmh']:.0f} km/h (1.3 Vs)"})
    if powered:
        r = stall.stall_approach(aircraft, None, "clean", _stall_rate(aircraft), bank_deg=30.0)
        out.append({"card": "turning_stall", "result": r,
                    "summary": "in a 30 deg coordinated turn, power off: " + _stall_words(r, _stall_rate(aircraft))
                               + f"; the bank reached {r['max_bank_into_turn_deg']:.0f} deg the turn's way and "
                                 f"{r['max_bank_away_deg']:.0f} deg the other (no statement found to judge it by)"})
        # to 20,000 ft, or for an aircraft whose ceiling is lower to 80 % of it (whole thousands of feet)
        ceilings = [f.value for f in refs.of("service_ceiling")]
        to_ft = min(20000.0, 1000.0 * math.floor(0.8 * min(ceilings) / 304.8)) if ceilings else 20000.0
        prof = performance.climb_profile(aircraft, dict(mass_kg=None, altitude_m=0.0, altitude_to_m=to_ft * 0.3048,
                                                        power="military"))
        out.append({"card": "time_to_climb", "result": prof,
                    "summary": f"sea level to {to_ft:,.0f} ft at military power: {prof['time_s'] / 60.0:.1f} min "
                               "(no figure found to judge it by)"})
    else:
        r45 = roll.roll_time_45(aircraft)
        out.append({"card": "roll_time_45", "result": r45,
                    "summary": f"45 to 45 deg at 1.4 Vs ({r45['ias_kmh']:.0f} km/h): {r45['time_s']:.1f} s "
                               "(no measured Astir figure found)"})
        ab = _airbrake_glide(aircraft, vs)
        out.append({"card": "airbrake_glide", "result": ab,
                    "summary": f"airbrakes out at 1.3 Vso ({ab['tas_kmh']:.0f} km/h): glide ratio "
                               f"{ab['glide_ratio']:.1f}, sink {ab['sink_ms']:.1f} m/s"})
        runs = _launches(aircraft)
        out.append({"card": "winch_launches", "result": list(runs),
                    "summary": "; ".join(f"{r['how']}: up to {r['max_ias_kmh']:.0f} km/h, {r['event']} at "
                                         f"{r['release_height_m'] or 0:.0f} m ({r['release_share_pct'] or 0:.0f} % of "
                                         f"the cable), climbing {r['mean_climb_ms']:.1f} m/s mean" for r in runs)})
        th = launch.thermal_climb(aircraft)
        out.append({"card": "thermal_climb", "result": th,
                    "summary": f"in a {th['core_strength_ms']:.1f} m/s core, {th['radius_m']:.0f} m thermal, "
                               f"centred from the vario: {th['mean_climb_ms']:.1f} m/s"})
    return out


def _airbrake_glide(aircraft, vs_clean_kmh) -> dict:
    sim = performance._sim(aircraft, None)
    from ..physics.state import make_ctrl
    tr = sim.trimmer(0.0, make_ctrl(airbrake=1.0), plant_in_jacobian=False)
    # the stall with the brakes out: the slowest steady glide, searched down from 1.5 Vs clean
    v = 1.5 * vs_clean_kmh / 3.6
    last = None
    while v > 0.5 * vs_clean_kmh / 3.6:
        t = tr.glide(v)
        if not t.ok or not t.within_travel:
            break
        last = t
        v -= 0.5
    if last is None:
        raise RuntimeError("no steady glide with the airbrakes out at 1.5 Vs or below")
    vso = last.tas_ms
    t = tr.glide(1.3 * vso)
    return {"vso_kmh": vso * 3.6, "tas_kmh": 1.3 * vso * 3.6, "glide_ratio": t.glide_ratio, "sink_ms": t.sink_ms,
            "gamma_deg": math.degrees(t.gamma_rad)}
