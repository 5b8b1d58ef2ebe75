"""The presets a renderer gets on a GL driver."""
from types import SimpleNamespace

from flightsim.render.presets import QUALITY, auto_quality, preset


def _ctx(renderer: str):
    return SimpleNamespace(info={"GL_RENDERER": renderer})


def test_software_gl_gets_low_by_default_and_no_anisotropic_filtering_at_any_preset():
    sw = _ctx("llvmpipe (LLVM 15.0.6, 256 bits)")
    hw = _ctx("NVIDIA H200/PCIe/SSE2")
    assert auto_quality(sw) == "low" and auto_quality(hw) == "high"
    assert QUALITY["high"]["anisotropy"] > 1.0
    # llvmpipe's anisotropic filter stalls for seconds to minutes on some frames of the cockpit
    for q in QUALITY:
        assert preset(sw, q).get("anisotropy", 1.0) == 1.0
    assert preset(hw, "high")["anisotropy"] == QUALITY["high"]["anisotropy"]
    # a copy: the table itself is left as it is
    preset(sw, "high")["grid"] = 99
    assert QUALITY["high"]["grid"] != 99
