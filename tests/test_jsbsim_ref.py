import pytest

from flightsim.jsbsim_ref import closest_jsbsim_model, jsbsim_steps_per_s


def test_closest_model():
    assert closest_jsbsim_model("glider") == "sgs233"
    assert closest_jsbsim_model("p51d") == "p51d"
    assert closest_jsbsim_model("fighter") == "p51d"
    assert closest_jsbsim_model("astir") is None


def test_steps_per_s_glider():
    pytest.importorskip("jsbsim")
    rate = jsbsim_steps_per_s("sgs233", seconds=0.3)
    assert rate is not None and rate > 0
