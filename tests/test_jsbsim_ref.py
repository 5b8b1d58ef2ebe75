import pytest

from flightsim.tools.jsbsim_ref import closest_jsbsim_model, jsbsim_stepper, jsbsim_steps_per_s, quiet, window_rate


def test_closest_model():
    assert closest_jsbsim_model("glider") == "sgs233"
    assert closest_jsbsim_model("p51d") == "p51d"
    assert closest_jsbsim_model("fighter") == "p51d"
    assert closest_jsbsim_model("astir") is None


def test_steps_per_s_glider():
    pytest.importorskip("jsbsim")
    rate = jsbsim_steps_per_s("sgs233", seconds=0.3)
    assert rate is not None and rate > 0


def test_a_stepper_times_one_window_at_a_time():
    """The bench takes JSBSim's windows in turn with ours: a stepper's (start, step) and one window."""
    pytest.importorskip("jsbsim")
    start, step = jsbsim_stepper("c172p", with_io=True)
    assert len(step()) == 13                                    # the state values read each step
    with quiet():
        assert window_rate(start, step, 0.05) > 0


class _BrokenJSBSim:
    """A jsbsim that imports but cannot find its data folder (a pip install whose package data
    went missing): FGFDMExec raises what the real one raises then."""

    class FGJSBBase:
        debug_lvl = 0

    class FGFDMExec:
        def __init__(self, root):
            raise OSError("Can't find the default root directory")


def test_a_broken_jsbsim_is_reported_not_raised(monkeypatch):
    import sys

    from flightsim.tools import jsbsim_ref
    monkeypatch.setitem(sys.modules, "jsbsim", _BrokenJSBSim)
    assert jsbsim_ref.jsbsim_steps_per_s("sgs233", seconds=0.1) is None
    assert jsbsim_ref.jsbsim_env_steps_per_s("sgs233", seconds=0.1) is None
    why = jsbsim_ref.unavailable()
    assert "cannot run 'sgs233'" in why and "default root directory" in why


def test_the_bench_measures_without_a_working_jsbsim(monkeypatch, capsys):
    """bench --gym (and the physics bench) go on without JSBSim and say why in one line."""
    import sys

    pytest.importorskip("gymnasium")
    from flightsim.tools import bench
    monkeypatch.setitem(sys.modules, "jsbsim", _BrokenJSBSim)
    rows = bench.gym_bench(seconds=0.05, runs=(("Glide-v0", (1,)),))
    assert rows[0]["env_steps_per_s"] > 0 and rows[0]["jsbsim_env_steps_per_s"] is None
    assert "default root directory" in rows[0]["jsbsim_unavailable"]
    row = bench.physics_bench("astir", seconds=0.05)
    assert row["steps_per_s"] > 0 and row["jsbsim_steps_per_s"] is None
    assert "default root directory" in row["jsbsim_unavailable"]
