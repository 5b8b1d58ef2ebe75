"""Every card of the wind tunnel for every aircraft (issue 30): a glider, three piston fighters, a
jet and a trainer each get an answer in their own terms from `python -m flightsim.tunnel`, or, where a card has no
meaning for the aircraft (a glider's level speed), one line saying so and which card to use."""
import json

import pytest

from flightsim.aircraft_data.loader import list_aircraft, load_aircraft
from flightsim.tools import tunnel
from tests.shared import tunnel_card

AIRCRAFT = ("astir", "spitfire", "bf109", "p51d", "f15c", "c172p")
KIND = {"astir": "glider", "spitfire": "propeller", "bf109": "propeller", "p51d": "propeller", "f15c": "jet",
        "c172p": "trainer"}


def test_the_cards_cover_every_aircraft_in_the_hangar():
    assert set(AIRCRAFT) == set(list_aircraft())


@pytest.mark.parametrize("name", AIRCRAFT)
def test_polar_stall_and_roll(name, shared_results):
    code, polar, err = tunnel_card(shared_results, "polar", "--aircraft", name)
    assert code == 0, err
    best = polar["best_glide"]
    assert polar["slowest_glide_kmh"] <= polar["min_sink"]["tas_kmh"] <= best["tas_kmh"]
    assert (25.0 if KIND[name] == "glider" else 5.0) < best["glide_ratio"] < 60.0
    code, stall, err = tunnel_card(shared_results, "stall", "--aircraft", name)
    assert code == 0, err
    lo, hi = {"glider": (50, 90), "propeller": (120, 200), "jet": (180, 300), "trainer": (70, 110)}[KIND[name]]
    assert lo < stall["stall_clean_kmh"] < hi and lo - 40 < stall["stall_landing_kmh"] < hi + 20
    assert stall["stall_clean_kmh"] == pytest.approx(polar["stall_kmh"], rel=0.03)   # the same sweep's answer
    # the stall is the 1 g one: a steady glide carries W cos(gamma), and a jet at idle glides at 25 deg there
    assert polar["slowest_glide_kmh"] <= polar["stall_kmh"] < 1.08 * polar["slowest_glide_kmh"]
    assert (polar["stall_kmh"] > 1.04 * polar["slowest_glide_kmh"]) == (KIND[name] == "jet")
    code, roll, err = tunnel_card(shared_results, "roll", "--aircraft", name)
    assert code == 0, err
    vne = load_aircraft(name).aircraft["vne_kmh"]          # past it a twisting wing may reverse (issue 17)
    assert roll["points"] and all(p["roll_rate_dps"] > 5.0 for p in roll["points"] if p["ias_kmh"] <= vne)


@pytest.mark.parametrize("name", AIRCRAFT)
def test_level_climb_and_ceiling(name, shared_results):
    kind = KIND[name]
    if kind == "glider":
        for card in ("level", "ceiling", "performance"):
            code, _, err = tunnel_card(shared_results, card, "--aircraft", name)
            assert code == 2 and "is a glider" in err and "tunnel polar" in err and len(err.splitlines()) == 1
        code, climb, err = tunnel_card(shared_results, "climb", "--aircraft", name, "--altitude-m", "1000")
        assert code == 0, err
        assert -1.2 < climb["best_climb_ms"] < -0.4 and 60.0 < climb["tas_kmh"] < 110.0   # its least sink
        return
    high_m = "2500" if kind == "trainer" else "11000"
    code, low, err = tunnel_card(shared_results, "level", "--aircraft", name, "--altitude-m", "0")
    assert code == 0, err
    code, high, err = tunnel_card(shared_results, "level", "--aircraft", name, "--altitude-m", high_m)
    assert code == 0, err
    if kind == "trainer":      # a C172: 123 KTAS at sea level, its ceiling near 4,000 m
        assert 200.0 < low["max_tas_kmh"] < 250.0 and 190.0 < high["max_tas_kmh"] < 250.0
        code, climb, err = tunnel_card(shared_results, "climb", "--aircraft", name, "--altitude-m", "0")
        assert code == 0, err
        assert 2.5 < climb["best_climb_ms"] < 6.0 and 110.0 < climb["tas_kmh"] < 180.0
        code, ceiling, err = tunnel_card(shared_results, "ceiling", "--aircraft", name)
        assert code == 0, err
        assert 3000.0 < ceiling["service_ceiling_m"] < 7000.0
        # no emergency rating above full throttle: the cards say what they flew, not "wep"
        assert low["power"] == climb["power"] == ceiling["power"] == "full throttle"
        return
    if kind == "jet":
        assert 1.2 < low["mach"] < 1.6 and 2.0 < high["mach"] < 2.7 and high["max_tas_kmh"] > 2000.0
    else:
        assert 480.0 < low["max_tas_kmh"] < 650.0 and 450.0 < high["max_tas_kmh"] < 720.0
    code, climb, err = tunnel_card(shared_results, "climb", "--aircraft", name, "--altitude-m", "0")
    assert code == 0, err
    lo, hi = (150.0, 400.0) if kind == "jet" else (12.0, 40.0)
    assert lo < climb["best_climb_ms"] < hi and climb["tas_kmh"] > 200.0
    code, ceiling, err = tunnel_card(shared_results, "ceiling", "--aircraft", name)
    assert code == 0, err
    assert (13000.0 if kind == "jet" else 9000.0) < ceiling["service_ceiling_m"] < 17000.0
    assert (low["power"], climb["power"], ceiling["power"]) == (("max", "max", "military") if kind == "jet"
                                                                 else ("wep", "wep", "military"))


@pytest.mark.parametrize("name", AIRCRAFT)
def test_turn_sweeps_from_the_aircraft_s_own_stall(name, shared_results):
    code, turn, err = tunnel_card(shared_results, "turn", "--aircraft", name, "--altitude-m", "0")
    assert code == 0, err
    code, stall, err = tunnel_card(shared_results, "stall", "--aircraft", name)
    first = turn["rows"][0]
    # the sweep starts 5 % above the stall at the turn's power (thrust and propwash lower it below the
    # stall card's power-off glide)
    assert 0.8 * stall["stall_clean_kmh"] < first["tas_kmh"] < 1.25 * stall["stall_clean_kmh"]
    assert all(r["instantaneous_g"] and 1.0 < r["instantaneous_g"] <= turn["g_limit"] + 0.02 for r in turn["rows"])
    peak = turn["instantaneous_peak"]
    assert turn["corner"] and turn["corner"]["g"] == pytest.approx(turn["g_limit"], abs=0.02)
    assert peak["tas_kmh"] == pytest.approx(turn["corner"]["tas_kmh"], abs=first["tas_kmh"])
    if KIND[name] == "glider":
        assert turn["sustained_peak"] is None                 # every turn costs height in still air
    else:
        best = turn["sustained_peak"]
        assert best is not None and 10.0 < best["sustained_dps"] < peak["instantaneous_dps"]
        assert best["tas_kmh"] > first["tas_kmh"]             # the sweep starts below it


@pytest.mark.parametrize("name", [a for a in AIRCRAFT if KIND[a] != "glider"])
def test_performance_curves(name, shared_results):
    """The curves at the altitudes asked for (validate draws them at 16 altitudes for its
    report: tests/test_validate.py)."""
    altitudes = [0.0, 1000.0, 2000.0, 3000.0, 4000.0] if KIND[name] == "trainer" else [0.0, 2500.0, 5000.0, 7500.0, 10000.0]
    code, perf, err = tunnel_card(shared_results, "performance", "--aircraft", name,
                                  "--altitudes-m", ",".join(f"{h:g}" for h in altitudes))
    assert code == 0, err
    rows = next(iter(perf["powers"].values()))
    assert [r["altitude_m"] for r in rows] == altitudes
    speeds = [r["max_tas_kmh"] for r in rows if r.get("max_tas_kmh")]
    climbs = [r["best_climb_ms"] for r in rows if r.get("best_climb_ms")]
    assert len(speeds) == 5 and len(climbs) == 5 and climbs[0] > climbs[-1]


@pytest.mark.parametrize("argv", [
    ["turn", "--aircraft", "astir", "--altitude-m", "1e30"],
    ["roll", "--aircraft", "astir", "--altitude-m", "inf"],
    ["climb", "--aircraft", "spitfire", "--mass-kg", "nan"],
    ["breakdown", "--aircraft", "spitfire", "--altitude-m", "nan"],
    ["level", "--aircraft", "f15c", "--altitude-m", "abc"],
    ["performance", "--aircraft", "p51d", "--altitudes-m", "0,nan"],
    ["performance", "--aircraft", "p51d", "--altitudes-m", "0,99999"],
    ["polar", "--aircraft", "astir", "--mass-kg", "-5"],
    ["propeller", "--aircraft", "p51d", "--blade-angle-deg", "25,nan"],
    ["propeller", "--aircraft", "p51d", "--blade-angle-deg", "95"],
])
def test_a_number_the_tunnel_cannot_fly_is_refused_in_one_line(argv, capsys):
    """--altitude-m nan trimmed nothing and printed zeros; --mass-kg nan fell back silently to the
    aircraft's own mass: now argparse refuses them, naming the option, its unit and range."""
    with pytest.raises(SystemExit) as e:
        tunnel.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert argv[-2] in err[-1] and ("outside" in err[-1] or "not a number" in err[-1])


@pytest.mark.parametrize("name", AIRCRAFT)
def test_propeller_map(name, shared_results):
    """The propeller's map at fixed blade angles: a glider and a jet refused in one line; a propeller's
    efficiency rises with J to a peak of a real propeller's size, the peak's J growing with the blade
    angle, and the thrust coefficient falls past it."""
    code, m, err = tunnel_card(shared_results, "propeller", "--aircraft", name)
    if KIND[name] in ("glider", "jet"):
        assert code == 2 and "no propeller" in err and len(err.strip().splitlines()) == 1, err
        return
    assert code == 0, err
    assert len(m["curves"]) == 3
    peaks = []
    for c in m["curves"]:
        pts = c["points"]
        assert len(pts) >= 6, c
        js = [p["advance_ratio"] for p in pts]
        assert js == sorted(js)
        assert 0.7 < c["peak"]["efficiency"] < 0.92, c["peak"]
        after = [p["thrust_coefficient"] for p in pts if p["advance_ratio"] >= c["peak"]["advance_ratio"]]
        assert after == sorted(after, reverse=True)
        assert all(abs(p["efficiency"] - p["advance_ratio"] * p["thrust_coefficient"] / p["power_coefficient"]) < 1e-3
                   for p in pts)
        peaks.append(c["peak"]["advance_ratio"])
    assert peaks == sorted(peaks) and peaks[-1] > peaks[0] + 0.4, peaks


@pytest.mark.parametrize("name", AIRCRAFT)
def test_downwash(name, shared_results):
    code, r, err = tunnel_card(shared_results, "downwash", "--aircraft", name)
    if KIND[name] == "jet":        # the F-15C's swept wing: the method is for straight wings, one line says so
        assert code == 2 and "swept" in err and len(err.splitlines()) == 1
        return
    assert code == 0, err
    for c in r["configs"]:
        assert 0.5 < c["model_downwash_deg"] < 10.0 and 0.5 < c["method_downwash_deg"] < 10.0
    assert len(r["configs"]) == (1 if KIND[name] == "glider" else 2)


def test_the_stall_is_the_glides_speed_corrected_to_1g():
    """A glide at gamma carries W cos(gamma): its speed is V / sqrt(cos(gamma)) at 1 g, and the stall
    is the lowest of those, which need not be the slowest glide."""
    import math
    from types import SimpleNamespace as T

    from flightsim.tools.glide_sweep import one_g_stall
    front = [T(tas_ms=70.0, gamma_rad=-0.10), T(tas_ms=66.0, gamma_rad=-0.25), T(tas_ms=65.5, gamma_rad=-0.45)]
    v, trim = one_g_stall(front)
    assert trim is front[1] and v == pytest.approx(66.0 / math.sqrt(math.cos(0.25)))


def test_an_engine_off_glide_keeps_its_propeller_windmilling():
    """A flight manual's engine-failure glide has the propeller windmilling. Slower than about 105 km/h
    the C172's cut engine stops it (a stopped propeller drags less): the best glide and least sink are
    taken where it still turns, and the polar says where it stops."""
    r = tunnel.polar("c172p", 1088.6, engine_off=True)
    stops = r["propeller_stops_below_kmh"]
    assert stops is not None and r["slowest_glide_kmh"] < stops < 115.0
    assert r["best_glide"]["tas_kmh"] >= stops and r["min_sink"]["tas_kmh"] >= stops
    assert r["best_glide"]["tas_kmh"] == pytest.approx(120.4, rel=0.05)     # the POH's 65 KIAS
    assert tunnel.polar("c172p", 1088.6)["propeller_stops_below_kmh"] is None   # idling, it always turns
