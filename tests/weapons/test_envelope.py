"""``python -m flightsim.weapons envelope`` (issue 35): the JSON the issue gives, ranges in a sensible
order, and the radar missile's longer reach higher up."""
import json

import pytest

from flightsim.weapons import __main__ as cli
from flightsim.weapons.envelope import envelope

KEYS = ("weapon", "altitude_m", "launch_mach", "target_mach", "rmax_head_on_km", "rmax_tail_on_km", "rmin_km",
        "no_escape_km", "burnout_mach", "max_g")


def test_the_envelope_json_and_its_order(capsys):
    assert cli.main(["envelope", "--weapon", "aim120c", "--altitude-m", "5000", "--launch-mach", "0.85",
                     "--target-mach", "0.85", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert set(KEYS) <= set(r) and r["weapon"] == "aim120c"
    assert 0.2 < r["rmin_km"] < 3.0 < r["rmax_tail_on_km"] < r["rmax_head_on_km"]
    assert r["rmax_tail_on_km"] <= r["no_escape_km"] + 15.0
    assert 2.0 < r["burnout_mach"] < 4.0 and 0.0 < r["max_g"] <= 30.0


def test_a_radar_missile_reaches_further_higher_up():
    low = envelope("aim120c", 1000.0, 0.85, 0.85)
    high = envelope("aim120c", 10000.0, 0.85, 0.85)
    assert high["rmax_head_on_km"] > 1.5 * low["rmax_head_on_km"]
    assert high["rmax_tail_on_km"] > 2.0 * low["rmax_tail_on_km"]
    assert high["burnout_mach"] > low["burnout_mach"]


def test_the_envelope_refuses_in_one_line(capsys):
    assert cli.main(["envelope", "--weapon", "nope", "--altitude-m", "1000", "--launch-mach", "0.8",
                     "--target-mach", "0.8"]) == 2
    err = capsys.readouterr().err
    assert "no weapon named 'nope'" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        cli.main(["envelope", "--weapon", "aim9m", "--altitude-m", "1000", "--launch-mach", "nan", "--target-mach", "0.8"])
    capsys.readouterr()
    with pytest.raises(SystemExit):       # below the tool's sea-level ground (it said 'hits at no range' before)
        cli.main(["envelope", "--weapon", "aim9m", "--altitude-m", "-100", "--launch-mach", "0.8", "--target-mach", "0.8"])
    assert "-100 is outside 0 to 25000 m" in capsys.readouterr().err


@pytest.mark.parametrize("weapon", ("aim9m", "aim120c", "aim7m"))
def test_every_figure_is_flown_and_every_fault_is_on_record(weapon, capsys):
    """The validation cards: each figure flown; outside its tolerance it carries its cause (or the
    sources' disagreement), and the command exits 1 while any is unexplained."""
    code = cli.main(["validate", "--weapon", weapon, "--json"])
    r = json.loads(capsys.readouterr().out)
    assert r["figures"] and {f["card"] for f in r["figures"]} >= {"rmax_head_on", "rmax_tail_on"}
    for f in r["figures"]:
        assert f["status"] in ("within", "explained", "unexplained")
        assert f["status"] == "within" or f["cause"] or f["disagreement"], f
    assert code == (1 if r["summary"]["unexplained"] else 0)
    for f in r["figures"]:
        if f["card"] == "burnout_mach":
            assert f["status"] == "within"          # the motor and drag give the expected burnout Mach


def test_the_envelope_plot_is_written(tmp_path, capsys):
    out = tmp_path / "envelope.png"
    assert cli.main(["envelope", "--weapon", "aim9m", "--altitude-m", "3000", "--launch-mach", "0.9",
                     "--target-mach", "0.8", "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "maximum range, head-on" in capsys.readouterr().out
    assert cli.main(["envelope", "--weapon", "aim9m", "--altitude-m", "3000", "--launch-mach", "0.9",
                     "--target-mach", "0.8", "--plot", str(tmp_path / "no" / "such.png")]) == 2
