"""Device profiles: the axis curve, the TOML file, and finding the profile again."""
import logging
import math
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flightsim.input import profiles as P
from flightsim.input.joystick import JoystickManager
from flightsim.input.profiles import AxisMap

from .devices import MemoryBackend, make_gamepad, make_stick, set_axis

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def test_deadzone_expo_inversion():
    m = AxisMap("x", deadzone=0.1)
    assert m.bipolar(0.05) == 0.0 and m.bipolar(-0.099) == 0.0
    assert m.bipolar(0.55) == pytest.approx(0.5)                 # rescaled: no step at the deadzone edge
    assert m.bipolar(1.0) == 1.0 and m.bipolar(-1.0) == -1.0
    e = AxisMap("x", deadzone=0.0, expo=0.5)
    assert e.bipolar(0.5) == pytest.approx(0.5 * 0.5 + 0.5 * 0.125)   # softer near the centre
    assert e.bipolar(1.0) == 1.0 and e.bipolar(-0.5) == pytest.approx(-e.bipolar(0.5))
    i = AxisMap("y", invert=True, deadzone=0.0)
    assert i.bipolar(0.3) == pytest.approx(-0.3)


def test_calibration_centre_and_range():
    m = AxisMap("x", deadzone=0.0, centre=0.1, min=-0.8, max=0.9)
    assert m.bipolar(0.1) == 0.0                       # an off-centre stick reads neutral
    assert m.bipolar(0.9) == 1.0 and m.bipolar(-0.8) == -1.0
    assert m.bipolar(0.5) == pytest.approx(0.4 / 0.8)
    assert m.bipolar(-0.35) == pytest.approx(-0.5)
    assert m.bipolar(1.0) == 1.0                       # beyond the calibrated stop: clamped


def test_unipolar_lever():
    m = AxisMap("throttle", invert=True, deadzone=0.0)
    assert m.unipolar(-1.0) == 1.0 and m.unipolar(1.0) == 0.0 and m.unipolar(0.0) == 0.5
    t = AxisMap("lefttrigger", deadzone=0.05, min=-1.0, max=0.8)
    assert t.unipolar(-1.0) == 0.0 and t.unipolar(0.8) == 1.0 and t.unipolar(-0.95) == 0.0


def test_toml_round_trip(tmp_path):
    p = P.default_profile("stick", 'Thrust "Master" T.16000M', 0x044F, 0xB10A, ("x", "y", "rz", "throttle"))
    p.axes["pitch"].expo = 0.35
    p.axes["pitch_trim"] = AxisMap("dial", mode="rate", rate=0.2)
    path = P.save_profile(p, tmp_path)
    text = path.read_text()
    assert "vendor_id = 0x044f" in text and "product_id = 0xb10a" in text
    assert path.name == "thrust-master-t-16000m-044f-b10a.toml"
    doc = tomllib.loads(text)                               # what anyone's TOML reader sees
    assert doc["device"]["name"] == 'Thrust "Master" T.16000M'
    q = P.load_profile(path)
    assert (q.name, q.kind, q.vendor_id, q.product_id) == (p.name, "stick", 0x044F, 0xB10A)
    assert q.axes == p.axes and q.buttons == p.buttons


def test_bad_profiles_are_reported_not_fatal(tmp_path, caplog):
    (tmp_path / "a.toml").write_text('[device]\nname = "A"\n[axes.pitch]\naxis = "y"\nmin = 1.0\nmax = -1.0\n')
    (tmp_path / "b.toml").write_text('[device]\nname = "B"\n[buttons]\nb0 = "self_destruct"\n')
    (tmp_path / "c.toml").write_text('not toml [')
    (tmp_path / "d.toml").write_text('[device]\nname = "D"\n[axes.pitch]\naxis = "y"\nmode = "rate"\n')
    (tmp_path / "ok.toml").write_text('[device]\nname = "Fine"\nkind = "gamepad"\n[axes.roll]\naxis = "leftx"\n')
    with caplog.at_level(logging.WARNING, logger="flightsim.input"):
        got = P.load_profiles(tmp_path)
    assert [p.name for p in got] == ["Fine"]
    assert len([r for r in caplog.records if "ignoring device profile" in r.message]) == 4


def test_normalised_names():
    n = P.normalise_name
    assert n("Logitech Logitech Extreme 3D Pro (USB)") == n("logitech  extreme-3D pro") == "logitechextreme3dpro"
    assert n("Thrustmaster T.16000M") == n("THRUSTMASTER T16000M [HID]")
    assert n("046d:c215 Logitech Extreme 3D Pro") == "logitechextreme3dpro"
    assert n("Saitek X52 Flight Control System") != n("Saitek X56 Flight Control System")
    assert n("HID-compliant game controller") != ""          # all junk: keeps something to compare


def test_match_priority():
    a = P.Profile("Logitech Extreme 3D Pro", "stick", 0x046D, 0xC215)
    b = P.Profile("Logitech Extreme 3D", "stick")
    c = P.Profile("Some Other Stick", "stick", 0x046D, 0xC215)
    ps = [b, c, a]
    assert P.find_profile(ps, "Logitech Extreme 3D Pro", "stick", 0x046D, 0xC215) is a      # ids + name
    assert P.find_profile([b, c], "Logitech Extreme 3D", "stick", 0x046D, 0xC215) is c      # ids beat a name
    assert P.find_profile(ps, "Logitech Extreme 3D Pro 2", "stick", 0x046D, 0xC215) is a    # ids, closer name
    assert P.find_profile(ps, "LOGITECH Extreme 3D (USB)", "stick") is b                    # name, no ids
    assert P.find_profile(ps, "Logitech Extreme 3D Pr0", "stick") is a                      # close name
    assert P.find_profile(ps, "Logitech Extreme 3D Pr0", "gamepad") is None                 # ... of the same kind only
    assert P.find_profile(ps, "Saitek X52", "stick", 0x06A3, 0x075C) is None


def test_profile_found_again_with_a_different_name(profile_dir):
    """Saved for one name string, found again for the same device reporting it differently."""
    js, c = make_stick("Logitech Extreme 3D Pro")
    m = JoystickManager(MemoryBackend([js]), profile_dir)
    m.poll()
    att = next(iter(m.attached.values()))
    path = att.profile.path
    assert path is not None and path.parent == profile_dir and path.exists()
    # the player edits the file: inverted roll, a wide deadzone
    text = path.read_text().replace('[axes.roll]\naxis = "x"\ninvert = false\ndeadzone = 0.02',
                                    '[axes.roll]\naxis = "x"\ninvert = true\ndeadzone = 0.25')
    assert text != path.read_text()
    path.write_text(text)
    js.device.unplug()
    m.poll()
    assert not m.attached
    for ids in ((0x046D, 0xC215), (None, None)):          # same ids, other name; then no ids at all
        js2, c2 = make_stick("Logitech  Logitech Extreme 3D  Pro (USB)", *ids)
        m2 = JoystickManager(MemoryBackend([js2]), profile_dir)
        m2.poll()
        att2 = next(iter(m2.attached.values()))
        assert att2.profile.path == path
        assert att2.profile.axes["roll"].invert and att2.profile.axes["roll"].deadzone == 0.25
        set_axis(c2["x"], 1.0)                              # stick right ...
        assert m2.read(0.02).momentary["roll"] == -1.0      # ... rolls left, as the file says
        set_axis(c2["x"], 0.6)
        assert m2.read(0.02).momentary["roll"] == 0.0       # inside the 0.25 deadzone
    assert sorted(p.name for p in profile_dir.iterdir()) == [path.name]    # no second file written


def test_new_device_gets_its_kind_default_saved(profile_dir):
    gp, _ = make_gamepad()
    js, _ = make_stick("Unknown Stick", 0x1234, 0x5678, throttle=False, twist=False)
    m = JoystickManager(MemoryBackend([js], [gp]), profile_dir)
    m.poll()
    kinds = {a.name: a.profile for a in m.attached.values()}
    assert kinds["Microsoft X-Box 360 pad"].kind == "gamepad"
    assert kinds["Microsoft X-Box 360 pad"].axes["pitch"].axis == "lefty"
    stick = kinds["Unknown Stick"]
    assert stick.kind == "stick" and "yaw" not in stick.axes and "lever" not in stick.axes   # fitted to its axes
    assert len(list(profile_dir.glob("*.toml"))) == 2


def test_a_refused_profile_is_never_replaced_by_the_default(profile_dir, caplog):
    """The user's profile with a bad number is refused (one line) and left as it is: the
    device flies on its kind's default, which is not written over the user's file."""
    from flightsim.input.profiles import slug
    js, _ = make_stick("Unknown Stick", 0x1234, 0x5678, throttle=False, twist=False)
    profile_dir.mkdir(parents=True)
    mine = profile_dir / f"{slug('Unknown Stick', 0x1234, 0x5678)}.toml"
    text = ('# my stick, tuned by hand\n[device]\nname = "Unknown Stick"\nkind = "stick"\n'
            'vendor_id = 0x1234\nproduct_id = 0x5678\n\n[axes.pitch]\naxis = "y"\ndeadzone = nan\n')
    mine.write_text(text)
    m = JoystickManager(MemoryBackend([js]), profile_dir)
    with caplog.at_level(logging.WARNING, logger="flightsim.input"):
        m.poll()
    assert m.attached and mine.read_text() == text
    assert "deadzone" in caplog.text and "left as it is" in caplog.text


def test_unwritable_config_dir_still_flies(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    js, c = make_stick()
    m = JoystickManager(MemoryBackend([js]), blocker / "devices")
    with caplog.at_level(logging.WARNING, logger="flightsim.input"):
        m.poll()
    assert m.attached and "could not save the profile" in caplog.text
    set_axis(c["y"], 1.0)
    assert m.read(0.02).momentary["pitch"] == 1.0


# ---------------------------------------------------------------------------- bad numbers (issue 31)
def _doc(target, body, device=""):
    return tomllib.loads(f'[device]\nname = "A"\n{device}\n[axes.{target}]\naxis = "y"\n{body}\n')


@pytest.mark.parametrize("target, body, message", [
    ("pitch", "deadzone = nan", "axes.pitch.deadzone: must be a finite number, got nan"),
    ("pitch", "expo = inf", "axes.pitch.expo: must be a finite number, got inf"),
    ("roll", "centre = -inf", "axes.roll.centre: must be a finite number, got -inf"),
    ("roll", "min = nan", "axes.roll.min: must be a finite number, got nan"),
    ("throttle", "max = +inf", "axes.throttle.max: must be a finite number, got inf"),
    ("pitch_trim", 'mode = "rate"\nrate = nan', "axes.pitch_trim.rate: must be a finite number, got nan"),
    ("pitch", "deadzone = true", "axes.pitch.deadzone: must be a finite number, got True"),
    ("pitch", 'expo = "0.3"', "axes.pitch.expo: must be a finite number, got '0.3'"),
    ("pitch", "deadzone = -0.1", "axes.pitch.deadzone: must be between 0 and 0.95, got -0.1"),
    ("pitch", "deadzone = 0.96", "axes.pitch.deadzone: must be between 0 and 0.95, got 0.96"),
    ("throttle", "deadzone = 0.5", "axes.throttle.deadzone: must be between 0 and 0.45, got 0.5"),
    ("pitch", "expo = 1.5", "axes.pitch.expo: must be between 0 and 1, got 1.5"),
    ("pitch", "min = -3.0", "axes.pitch.min: must be between -1 and 1, got -3.0"),
    ("pitch", "max = 1e300", "axes.pitch.max: must be between -1 and 1, got 1e+300"),
    ("flap", 'mode = "rate"\nrate = 0', "axes.flap.rate: must be greater than 0 and at most 100, got 0"),
    ("flap", 'mode = "rate"\nrate = 1e9', "axes.flap.rate: must be greater than 0 and at most 100, got 1000000000.0"),
    ("pitch", 'invert = "yes"', "axes.pitch.invert: must be true or false, got 'yes'"),
])
def test_bad_numbers_are_refused_in_one_line_naming_file_and_key(tmp_path, target, body, message):
    path = tmp_path / "stick.toml"
    with pytest.raises(P.ProfileError) as e:
        P.profile_from_doc(_doc(target, body), path)
    assert str(e.value) == f"{path}: {message}"
    assert "\n" not in str(e.value)


def test_bad_usb_ids_are_refused(tmp_path):
    with pytest.raises(P.ProfileError, match=r"x\.toml: device\.vendor_id: must be a USB id, 0 to 0xffff, got 70000$"):
        P.profile_from_doc(_doc("pitch", "", "vendor_id = 70000\nproduct_id = 1"), "x.toml")
    with pytest.raises(P.ProfileError, match=r"device\.product_id: must be a USB id"):
        P.profile_from_doc(_doc("pitch", "", "vendor_id = 1\nproduct_id = true"), "x.toml")


def test_a_nan_profile_is_skipped_with_its_reason_and_the_device_still_flies(tmp_path, caplog):
    (tmp_path / "nan.toml").write_text('[device]\nname = "A"\n[axes.pitch]\naxis = "y"\ndeadzone = nan\n')
    (tmp_path / "inf.toml").write_text('[device]\nname = "B"\n[axes.roll]\naxis = "x"\nexpo = inf\n')
    with caplog.at_level(logging.WARNING, logger="flightsim.input"):
        assert P.load_profiles(tmp_path) == []
    text = " ".join(r.getMessage() for r in caplog.records)
    assert "nan.toml: axes.pitch.deadzone: must be a finite number, got nan" in text
    assert "inf.toml: axes.roll.expo: must be a finite number, got inf" in text


@pytest.mark.parametrize("kind", P.KINDS)
def test_every_default_profile_passes_its_own_checks(tmp_path, kind):
    p = P.default_profile(kind, f"dev {kind}", axes_present=("x", "y", "rz", "throttle"))
    assert P.load_profile(P.save_profile(p, tmp_path)).axes == p.axes


NUMBER = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, 0.45, 0.95, 1.0, -1.0, 1e300])


@settings(max_examples=80, deadline=None, derandomize=True)
@given(target=st.sampled_from(["pitch", "throttle", "flap"]), key=st.sampled_from(sorted(P.AXIS_NUMBERS)),
       value=NUMBER, raw=st.floats(-1.0, 1.0))
def test_any_number_is_refused_or_gives_a_finite_axis(target, key, value, raw):
    """A profile's number is refused with its key, or the axis it makes reads any raw position
    as a finite value in its range: never a NaN toward the controls."""
    mode = 'mode = "rate"\n' if key == "rate" and target != "pitch" else ""
    doc = _doc(target, f"{mode}{key} = {P._toml_value(value) if math.isfinite(value) else value}")
    try:
        p = P.profile_from_doc(doc, "p.toml")
    except P.ProfileError as e:
        assert str(e).startswith((f"p.toml: axes.{target}.", f"p.toml: [axes.{target}]: needs min < max"))
        return
    m = p.axes[target]
    v = m.bipolar(raw) if target in P.BIPOLAR or m.mode == "rate" else m.unipolar(raw)
    assert math.isfinite(v) and -1.0 <= v <= 1.0
