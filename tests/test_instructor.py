"""Issue 34's first solo: the instructor names each leg of the circuit as it is flown and scores the
approach and the landing. Flown by the pilot of scripts/text_circuit.py, which reads only the text
mode's screen (headless: TextFlight's own lines, the physics ticked here)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _text_circuit():
    spec = importlib.util.spec_from_file_location("text_circuit", ROOT / "scripts" / "text_circuit.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_instructor_follows_the_circuit_and_scores_it():
    tf = _text_circuit().headless(420.0, "c172_first_solo", quiet=True)
    ins = tf.instructor
    assert ins is not None and tf.log.touchdown is not None and tf.log.crash is None
    s = ins.scores()
    assert s["legs"] == ["take-off", "climb-out", "crosswind", "downwind", "base", "final", "flare", "landed"]
    assert 50.0 < s["final_ias_kt"] < 80.0 and s["final_ias_spread_kt"] < 10.0
    assert abs(s["touchdown_sink_ms"] - tf.log.touchdown.sink_ms) < 0.5       # the rate the flight log judged
    assert abs(s["centreline_m"]) < 100.0
    assert all(0.0 <= s[k] <= 100.0 for k in ("speed_mark", "centreline_mark", "touchdown_mark", "mark"))
    text = "\n".join(tf.lines(tf.world.buffer.read()[1]))
    assert "INSTRUCTOR: Landed." in text and "FIRST SOLO: take-off > climb-out" in text and "overall" in text


def test_the_marks():
    from flightsim.instruments.instructor import _mark
    assert _mark(3.0, 5.0, 15.0) == 100.0 and _mark(10.0, 5.0, 15.0) == 50.0 and _mark(20.0, 5.0, 15.0) == 0.0
