"""``python -m flightsim.validate`` for every aircraft, as a user runs it: the JSON shape the
issue gives, every figure within its tolerance, explained (the sources disagree) or unexplained
with its known cause on record, and the report written with its plots. Plus the two symptoms that started it: the
P-51D's roll rate against NACA's measurement, and the Astir's winch launch under VW."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from flightsim.aircraft_data.loader import list_aircraft

FIGURE_KEYS = {"figure": str, "condition": str, "published": float, "model": float, "unit": str,
               "error_pct": float, "source": str}
BEHAVIOUR_KEYS = {"behaviour": str, "pass": bool, "observed": str, "source": str}


def _validate(ac, shared_results):
    """The command run once per aircraft per session, by whichever worker asks first (the
    P-51D's takes about a minute): (aircraft, the finished process, the report's directory)."""
    def run(out):
        done = subprocess.run([sys.executable, "-m", "flightsim.validate", "--aircraft", ac, "--json", "--report",
                               str(out)], capture_output=True, text=True, timeout=900)
        return {"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr, "out": str(out)}
    r = shared_results.once(f"validate {ac}", run)
    done = subprocess.CompletedProcess([], r["returncode"], r["stdout"], r["stderr"])
    return ac, done, Path(r["out"])


@pytest.fixture(params=list_aircraft())
def validated(request, shared_results):
    return _validate(request.param, shared_results)


def test_every_aircraft_validates_and_every_fault_is_on_record(validated):
    """The JSON shape, and honest labels: a figure outside its tolerance is "explained" only where
    its references record that the sources disagree; where they agree it is "unexplained" (a
    statement that does not hold: "fail") and must carry what is known of the fault (its
    ``cause``), so a new fault, a figure that slips outside with nothing on record, fails here.
    The command exits 1 while anything is unexplained (issue 30)."""
    ac, run, out = validated
    assert run.stdout.strip(), run.stderr[-3000:]
    result = json.loads(run.stdout)
    assert result["aircraft"] == ac
    assert result["figures"] and result["behaviours"], "every aircraft has figures and statements to fly"
    for f in result["figures"]:
        for key, kind in FIGURE_KEYS.items():
            assert isinstance(f[key], (int, float) if kind is float else kind), (key, f)
        assert f["status"] in ("within", "explained", "unexplained", "shown"), f
        if f["status"] == "explained":
            assert f["disagreement"], f
        if f["status"] == "unexplained":
            assert f["cause"], f"{f['figure']} ({f['condition']}) is outside with nothing on record: {f}"
    for b in result["behaviours"]:
        for key, kind in BEHAVIOUR_KEYS.items():
            assert isinstance(b[key], kind), (key, b)
        assert b["observed"], b
        assert b["pass"] or b["disagreement"] or b["cause"], b
        assert b["status"] == ("pass" if b["pass"] else "explained" if b["disagreement"] else "fail"), b
    open_faults = [r for r in result["figures"] if r["status"] == "unexplained"] + \
        [b for b in result["behaviours"] if b["status"] == "fail"]
    assert result["summary"]["unexplained"] == len(open_faults)
    assert run.returncode == (0 if not open_faults else 1), run.stderr[-2000:]


def test_the_report_has_its_table_and_plots(validated):
    ac, run, out = validated
    page = (out / f"{ac}.html").read_text()
    assert "Published figures" in page and "</table>" in page
    pngs = sorted(out.glob(f"{ac}_*.png"))
    assert len(pngs) >= 4 and all(p.stat().st_size > 10_000 for p in pngs), pngs
    for p in pngs:
        assert p.name in page
    assert json.loads((out / f"{ac}.json").read_text())["aircraft"] == ac


def _result(ac, shared_results):
    return json.loads(_validate(ac, shared_results)[1].stdout)


def test_p51d_rolls_as_naca_measured(shared_results):
    result = _result("p51d", shared_results)
    rolls = [f for f in result["figures"] if f["card"] == "roll_rate"]
    assert len(rolls) == 3
    for f in rolls:
        assert abs(f["error_pct"]) <= 5.0, f          # was +94..+113 % (175-200 deg/s)
    curve = next(c for c in result["cards"] if c["card"] == "roll_curve")["result"]["points"]
    rates = [p["roll_rate_dps"] for p in curve]
    assert rates[0] < 0.5 * max(rates), "no fighter rolls fastest near its stall"


def test_astir_winch_launch_stays_under_vw_and_the_weak_link_breaks(shared_results):
    beh = {b["card"]: b for b in _result("astir", shared_results)["behaviours"]}
    assert beh["winch_launch_speed"]["pass"], beh["winch_launch_speed"]      # was 149 km/h against VW 120
    assert beh["winch_release_height"]["pass"], beh["winch_release_height"]
    assert beh["weak_link"]["pass"], beh["weak_link"]


def test_c172_clears_the_50_ft_obstacle_as_the_poh_says(shared_results):
    """The take-off distance card (issue 34): brake release to 50 ft, the ground run plus the
    climb-out; the POH's 1,625 ft within its chart's 15 %, and the air part a sensible share."""
    _, run, _ = _validate("c172p", shared_results)
    figures = {f["card"]: f for f in json.loads(run.stdout)["figures"] if f["card"] in ("takeoff_roll", "takeoff_distance")}
    total, roll = figures["takeoff_distance"], figures["takeoff_roll"]
    assert total["status"] == "within" and abs(total["error_pct"]) < 15.0
    assert 150.0 < total["model"] - roll["model"] < 400.0      # the POH's climb to 50 ft: 735 ft (224 m)


def test_the_p51d_lands_straight_and_its_run_grows_with_the_weight():
    """The landing card's pilot keeps the tail-wheel fighter straight (rudder and brakes) and its
    tail down: with the rudder alone and the stick neutral at touchdown the aircraft wheelbarrowed
    from 14 to -2 deg of pitch, and the 10,100 lb run weaved +/-24 deg and came out 11 % short of
    the 8,000 lb run's scaling. The runs then grow about as the weight does (the touchdown speed
    squared), as the chart's 472 / 600 m do."""
    from flightsim.validate.ground import landing_run
    light, heavy = (landing_run("p51d", dict(mass_kg=m, config="landing", altitude_m=0.0)) for m in (3629.0, 4581.0))
    for run in (light, heavy):
        assert run["max_heading_deg"] < 5.0 and abs(run["across_m"]) < 5.0, run
        assert run["tail_rise_deg"] < 7.0, run
    assert 1.18 < heavy["distance_m"] / light["distance_m"] < 1.35, (light, heavy)


def test_the_take_off_pilot_keeps_the_tail_wheel_fighters_straight():
    """The game's take-off pilot (the take-off cards fly it) damps the swing with the rudder: with a
    third of the damping the P-51D weaved +/-7 deg down the runway once its tail was up."""
    from flightsim.validate import ground as G
    for aircraft, mass_kg in (("p51d", 4359.0), ("spitfire", 3357.0), ("bf109", 3150.0)):
        sim = G._runway_sim(aircraft, mass_kg, "takeoff")
        pilot = G._takeoff_pilot(sim)
        worst = 0.0
        for _ in range(int(40.0 / G.DT)):
            sim.step(pilot(sim).to_array())
            worst = max(worst, abs(sim.euler_deg[2]))
            if not sim.on_ground and sim.height_agl_m > 3.0:
                break
        assert not sim.on_ground and worst < 3.0, (aircraft, worst)


def test_only_the_cards_that_fly_stores_take_a_figures_stores(tmp_path):
    """A figure's ``stores`` reaches the jet cards (references.STORES_CARDS, which are
    validate/maneuver.py's figures); on a card that flies clean it is refused naming the key."""
    from flightsim.aircraft_data.references import STORES_CARDS, load_references
    from flightsim.aircraft_data.schema import DataError
    from flightsim.validate import maneuver
    assert set(STORES_CARDS) == set(maneuver.FIGURES)
    bad = tmp_path / "references.toml"
    bad.write_text('[[source]]\nid = "S"\ntitle = "t"\ntrust = "estimate"\n\n[[figure]]\ncard = "best_climb"\n'
                   'value = 10.0\nunit = "m/s"\nsource = "S"\nmass_kg = 4000.0\nstores = ["bomb"]\n')
    with pytest.raises(DataError, match=r"figure\[0\]\.stores: card 'best_climb' flies clean"):
        load_references(bad)


def test_a_figure_flies_the_radiator_flaps_as_its_test_held_them(tmp_path):
    """``radiator_flaps`` holds the coolant radiator's exit flap open or shut instead of the
    thermostat's schedule (the Spitfire's JL.165 climbed with them open, and shut); the cards that
    trim a climb or a level speed fly it, the others refuse it naming the key."""
    from flightsim.aircraft_data.compile import aircraft_with_mass
    from flightsim.aircraft_data.references import load_references
    from flightsim.aircraft_data.schema import DataError
    from flightsim.sim import Sim
    from flightsim.tools import perf
    rates = {held: perf.best_climb("spitfire", 3475.0, "wep",
                                   sim=Sim(aircraft_with_mass("spitfire", 3357.0, radiator_flaps=held)))[1]
             for held in ("automatic", "open", "closed")}
    assert rates["open"] < rates["automatic"] < rates["closed"], rates
    # JL.165 at 11,400 ft: 4,335 ft/min open, 4,750 shut
    assert abs((rates["closed"] - rates["open"]) - 2.11) < 0.3, rates
    bad = tmp_path / "references.toml"
    bad.write_text('[[source]]\nid = "S"\ntitle = "t"\ntrust = "estimate"\n\n[[figure]]\ncard = "stall_speed"\n'
                   'value = 150.0\nunit = "km/h"\nsource = "S"\nmass_kg = 3000.0\nradiator_flaps = "open"\n')
    with pytest.raises(DataError, match=r"figure\[0\]\.radiator_flaps: card 'stall_speed' flies the thermostat"):
        load_references(bad)
    bad.write_text(bad.read_text().replace('"open"', '"ajar"').replace("stall_speed", "best_climb")
                   .replace('"km/h"', '"m/s"'))
    with pytest.raises(DataError, match=r"radiator_flaps"):
        load_references(bad)
    with pytest.raises(ValueError, match="no coolant radiator"):
        aircraft_with_mass("astir", None, radiator_flaps="open")
