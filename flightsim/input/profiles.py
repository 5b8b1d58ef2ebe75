"""Per-device profiles: which axis flies what, inversion, deadzone, expo, calibration.

A profile is a small TOML file in ``$XDG_CONFIG_HOME/flightsim/devices/`` (else
``~/.config/flightsim/devices/``; ``%APPDATA%\\flightsim\\devices`` on Windows), written
the first time a device is seen and read back whenever it (or one like it) is plugged in.
The format is documented in docs/controls.md; in short::

    [device]
    name = "Logitech Extreme 3D Pro"     # as the OS reported it
    kind = "stick"                       # stick | gamepad | pedals
    vendor_id = 0x046d                   # USB ids when the OS gives them
    product_id = 0xc215

    [axes.pitch]                         # target: pitch roll yaw brake brake_left brake_right
    axis = "y"                           #   throttle airbrake flap pitch_trim lever
    invert = false
    deadzone = 0.03                      # around the centre (bipolar) or at the bottom (unipolar)
    expo = 0.2                           # 0 linear .. 1 cubic
    centre = 0.0                         # calibration, in the device's -1..1 units
    min = -1.0
    max = 1.0
    mode = "absolute"                    # or "rate": the axis moves a level at `rate` per second

    [buttons]
    b0 = "brake"                         # button index from 0; hat_up/down/left/right;
    hat_up = "trim_down"                 # gamepads: a b x y leftshoulder ... dpup ...

Every source axis reads -1..1 with y axes +1 toward the pilot (stick back, gamepad stick
pulled down), so "stick back = nose up" needs no inversion on either kind of device.

Matching (``find_profile``), best first: same USB vendor/product id and same normalised
name; same ids; same normalised name; a close normalised name of the same kind. The
normalised name is lower case without punctuation, spaces, repeated words, bracketed or
"USB"/"HID" junk, so "Logitech Logitech Extreme 3D Pro (USB)" finds the profile saved
for "Logitech Extreme 3D Pro". No match: the built-in default for the device's kind.
"""
from __future__ import annotations

import difflib
import logging
import math
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from .bindings import ACTIONS

if sys.version_info >= (3, 11):
    import tomllib
else:                                    # pragma: no cover
    import tomli as tomllib

log = logging.getLogger("flightsim.input")

KINDS = ("stick", "gamepad", "pedals")
BIPOLAR = ("pitch", "roll", "yaw", "pitch_trim")
MOMENTARY = ("pitch", "roll", "yaw", "brake", "brake_left", "brake_right")   # recentre / release without the device
LEVEL_TARGETS = ("throttle", "airbrake", "flap", "pitch_trim", "lever")       # persistent: stay where last set
TARGETS = MOMENTARY + tuple(t for t in LEVEL_TARGETS if t not in MOMENTARY)


# ---------------------------------------------------------------------------- one axis
@dataclass
class AxisMap:
    axis: str
    invert: bool = False
    deadzone: float = 0.03
    expo: float = 0.0
    centre: float = 0.0
    min: float = -1.0
    max: float = 1.0
    mode: str = "absolute"       # "absolute" or "rate"
    rate: float = 0.5            # rate mode: level change per second at full deflection

    def calibrated(self, raw: float) -> float:
        """Device units -> -1..1 through the calibration: min -> -1, centre -> 0, max -> +1."""
        x = float(raw)
        if x >= self.centre:
            span = self.max - self.centre
            v = (x - self.centre) / span if span > 1e-6 else 0.0
        else:
            span = self.centre - self.min
            v = (x - self.centre) / span if span > 1e-6 else 0.0
        v = min(max(v, -1.0), 1.0)
        return -v if self.invert else v

    def _expo(self, m: float) -> float:
        e = min(max(self.expo, 0.0), 1.0)
        return (1.0 - e) * m + e * m * m * m

    def bipolar(self, raw: float) -> float:
        """-1..1 for a stick axis: deadzone around the centre (rescaled: no step at its edge), then expo."""
        v = self.calibrated(raw)
        dz = min(max(self.deadzone, 0.0), 0.95)
        m = abs(v)
        m = 0.0 if m <= dz else (m - dz) / (1.0 - dz)
        return math.copysign(self._expo(m), v)

    def unipolar(self, raw: float) -> float:
        """0..1 for a lever or trigger: min -> 0, max -> 1 (inverted: max -> 0); centre unused.
        The deadzone is taken off both ends, so a worn lever still reaches idle and full."""
        span = self.max - self.min
        v = min(max((float(raw) - self.min) / span, 0.0), 1.0) if span > 1e-6 else 0.0
        if self.invert:
            v = 1.0 - v
        dz = min(max(self.deadzone, 0.0), 0.45)
        v = min(max((v - dz) / (1.0 - 2.0 * dz), 0.0), 1.0)
        return self._expo(v)


@dataclass
class Profile:
    name: str
    kind: str = "stick"
    vendor_id: int | None = None
    product_id: int | None = None
    axes: dict[str, AxisMap] = field(default_factory=dict)
    buttons: dict[str, str] = field(default_factory=dict)
    path: Path | None = None

    @property
    def norm_name(self) -> str:
        return normalise_name(self.name)

    def copy_for(self, name, kind, vendor_id, product_id) -> Profile:
        return Profile(name, kind, vendor_id, product_id,
                       {t: replace(a) for t, a in self.axes.items()}, dict(self.buttons), None)


# ---------------------------------------------------------------------------- defaults
def default_profile(kind: str, name: str = "", vendor_id=None, product_id=None, axes_present=()) -> Profile:
    """The built-in layout for a kind of device, fitted to the axes it actually has."""
    have = set(axes_present)

    def first(*names):
        return next((n for n in names if n in have), None)

    axes: dict[str, AxisMap] = {}
    if kind == "gamepad":
        axes["pitch"] = AxisMap("lefty", deadzone=0.10, expo=0.35)
        axes["roll"] = AxisMap("leftx", deadzone=0.10, expo=0.35)
        axes["yaw"] = AxisMap("rightx", deadzone=0.12, expo=0.3)
        axes["throttle"] = AxisMap("righty", invert=True, deadzone=0.2, mode="rate", rate=0.5)
        axes["brake_left"] = AxisMap("lefttrigger", deadzone=0.05)
        axes["brake_right"] = AxisMap("righttrigger", deadzone=0.05)
        buttons = {"a": "airbrake", "b": "brake", "x": "fire", "y": "gear",
                   "leftshoulder": "flaps_up", "rightshoulder": "flaps_down",
                   "dpup": "trim_down", "dpdown": "trim_up", "dpleft": "view_prev", "dpright": "view_next",
                   "start": "pause", "back": "menu"}
    elif kind == "pedals":
        rudder = first("rz", "rudder", "x") or "rz"
        axes["yaw"] = AxisMap(rudder, deadzone=0.02)
        toes = [a for a in ("x", "y") if a in have and a != rudder]
        if len(toes) == 2:
            axes["brake_left"] = AxisMap(toes[0], deadzone=0.05)
            axes["brake_right"] = AxisMap(toes[1], deadzone=0.05)
        buttons = {}
    else:
        axes["pitch"] = AxisMap("y", deadzone=0.02, expo=0.1)
        axes["roll"] = AxisMap("x", deadzone=0.02, expo=0.1)
        yaw = first("rz", "rudder", "twist")
        if yaw:
            axes["yaw"] = AxisMap(yaw, deadzone=0.06, expo=0.2)
        lever = first("throttle", "slider", "z", "dial")
        if lever:       # levers read -1 pushed forward: inverted, forward = full throttle
            axes["lever"] = AxisMap(lever, invert=True, deadzone=0.02)
        buttons = {"b0": "brake", "b1": "airbrake", "b2": "flaps_up", "b3": "flaps_down", "b4": "gear", "b5": "fire",
                   "b6": "launch", "b7": "weapon_select", "b8": "lock", "b9": "countermeasures",
                   "hat_up": "trim_down", "hat_down": "trim_up", "hat_left": "view_prev", "hat_right": "view_next"}
    return Profile(name or f"default {kind}", kind, vendor_id, product_id, axes, buttons)


# ---------------------------------------------------------------------------- names
_JUNK = {"usb", "hid", "hidcompliant", "compliant", "game", "controller", "joystick", "gamepad", "device",
         "inc", "corp", "corporation", "co", "ltd", "llc", "gmbh", "the", "for", "windows"}


def normalise_name(name: str) -> str:
    """Lower case, no punctuation, brackets, repeated words, USB/HID junk or hex ids."""
    s = (name or "").lower()
    s = re.sub(r"\b(?:0x)?[0-9a-f]{4}:(?:0x)?[0-9a-f]{4}\b", " ", s)      # vid:pid
    s = re.sub(r"\b0x[0-9a-f]+\b", " ", s)
    s = re.sub(r"[\(\[\{][^\)\]\}]*[\)\]\}]", " ", s)                      # (USB), [HID] ...
    s = re.sub(r"[®™©]", " ", s)
    words = re.findall(r"[a-z0-9]+", s.replace("-", "").replace("_", " "))
    out = []
    for w in words:
        if w in _JUNK or (out and out[-1] == w) or w in out:
            continue
        out.append(w)
    if not out:     # a name of nothing but junk: keep its letters rather than match everything
        out = re.findall(r"[a-z0-9]+", (name or "").lower())
    return "".join(out)


def slug(name: str, vendor_id=None, product_id=None) -> str:
    words = [w for w in re.findall(r"[a-z0-9]+", (name or "device").lower()) if w not in ("usb", "hid")]
    base = "-".join(dict.fromkeys(words))[:60].strip("-") or "device"
    if vendor_id is not None and product_id is not None:
        base += f"-{vendor_id:04x}-{product_id:04x}"
    return base


def ids_from_guid(guid: str | None):
    """(vendor, product) from an SDL2-style GUID (bus, 0, vendor LE, 0, product LE, ...)."""
    if not guid or len(guid) < 20 or not re.fullmatch(r"[0-9a-fA-F]+", guid):
        return None
    try:
        vendor = int(guid[10:12] + guid[8:10], 16)
        product = int(guid[18:20] + guid[16:18], 16)
    except ValueError:
        return None
    return (vendor, product) if vendor and product else None


# ---------------------------------------------------------------------------- files
def config_dir() -> Path:
    if os.name == "nt" and os.environ.get("APPDATA"):
        root = Path(os.environ["APPDATA"])
    else:
        root = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return root / "flightsim" / "devices"


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"not a finite number: {v}")
        return repr(round(v, 6))
    if isinstance(v, str):
        return '"' + "".join(c if c.isprintable() and c not in '"\\' else
                             ("\\" + c if c in '"\\' else f"\\u{ord(c):04x}") for c in v) + '"'
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml_value(k)


def dumps_toml(doc: dict, header: str = "") -> str:
    """TOML for scalars and (nested) tables of scalars: enough for a profile."""
    lines = [f"# {h}" if h else "#" for h in header.splitlines()]

    def table(path, d):
        scalars = [(k, v) for k, v in d.items() if not isinstance(v, dict)]
        subs = [(k, v) for k, v in d.items() if isinstance(v, dict)]
        if path and (scalars or not subs):
            lines.extend(["", "[" + ".".join(_toml_key(p) for p in path) + "]"])
        lines.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in scalars)
        for k, v in subs:
            table(path + [k], v)

    table([], doc)
    return "\n".join(lines).lstrip("\n") + "\n"


HEADER = """flightsim device profile: edit freely, the game reads it when the device connects.
Format: docs/controls.md. Axes read -1..1 (y axes +1 toward the pilot); targets:
pitch roll yaw brake brake_left brake_right throttle airbrake flap pitch_trim lever
(lever: throttle with an engine, airbrakes on a glider). Buttons name actions as in
flightsim/input/bindings.py (brake, gear, airbrake, flaps_up, trim_up, view_next ...)."""


def profile_to_doc(p: Profile) -> dict:
    dev = {"name": p.name, "kind": p.kind}
    if p.vendor_id is not None and p.product_id is not None:
        dev["vendor_id"] = int(p.vendor_id)
        dev["product_id"] = int(p.product_id)
    axes = {}
    for t, a in p.axes.items():
        d = {"axis": a.axis, "invert": a.invert, "deadzone": float(a.deadzone), "expo": float(a.expo),
             "centre": float(a.centre), "min": float(a.min), "max": float(a.max), "mode": a.mode}
        if a.mode == "rate":
            d["rate"] = float(a.rate)
        axes[t] = d
    return {"device": dev, "axes": axes, "buttons": dict(p.buttons)}


def save_profile(p: Profile, directory: Path | None = None, overwrite: bool = True) -> Path | None:
    """Write the profile (atomically) to its own file, else a new one named from the device;
    returns the path. ``overwrite=False`` (a new device's default profile) leaves a file
    already there alone and returns None: it is the user's, perhaps refused for a bad number,
    and a default must never replace it."""
    path = p.path or (Path(directory or config_dir()) / f"{slug(p.name, p.vendor_id, p.product_id)}.toml")
    if not overwrite and path.exists():
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    text = dumps_toml(profile_to_doc(p), HEADER)
    text = re.sub(r"^(vendor_id|product_id) = (\d+)$", lambda m: f"{m.group(1)} = 0x{int(m.group(2)):04x}",
                  text, flags=re.M)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    p.path = path
    return path


class ProfileError(ValueError):
    pass


# each number an axis may set: (low, high, whether low itself is allowed), the defaults of AxisMap
# when left out. Deadzones as the curves clamp them: around the centre of a stick axis (or a
# rate axis) up to 0.95 of its travel, off each end of a lever up to 0.45
AXIS_NUMBERS = {"deadzone": (0.0, 0.95, True), "expo": (0.0, 1.0, True), "centre": (-1.0, 1.0, True),
                "min": (-1.0, 1.0, True), "max": (-1.0, 1.0, True), "rate": (0.0, 100.0, False)}
LEVER_DEADZONE_MAX = 0.45


def _axis_number(a: dict, key: str, default: float, where: str, target: str, high: float | None = None) -> float:
    """A number of [axes.<target>]: finite and in its range, or a ProfileError naming the file and key."""
    if key not in a:
        return default
    v = a[key]
    lo, hi, low_ok = AXIS_NUMBERS[key]
    hi = hi if high is None else high
    name = f"{where}: axes.{target}.{key}"
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ProfileError(f"{name}: must be a finite number, got {v!r}")
    if low_ok and not lo <= v <= hi:
        raise ProfileError(f"{name}: must be between {lo:g} and {hi:g}, got {v!r}")
    if not low_ok and not lo < v <= hi:
        raise ProfileError(f"{name}: must be greater than {lo:g} and at most {hi:g}, got {v!r}")
    return float(v)


def profile_from_doc(doc: dict, path: Path | None = None) -> Profile:
    where = str(path or "profile")
    dev = doc.get("device")
    if not isinstance(dev, dict) or not isinstance(dev.get("name"), str):
        raise ProfileError(f"{where}: needs [device] with name = \"...\"")
    kind = dev.get("kind", "stick")
    if kind not in KINDS:
        raise ProfileError(f"{where}: device.kind must be one of {', '.join(KINDS)}, not {kind!r}")
    axes = {}
    for target, a in (doc.get("axes") or {}).items():
        if target not in TARGETS:
            raise ProfileError(f"{where}: [axes.{target}]: unknown target (one of {', '.join(TARGETS)})")
        if not isinstance(a, dict) or not isinstance(a.get("axis"), str):
            raise ProfileError(f"{where}: [axes.{target}] needs axis = \"...\"")
        unknown = set(a) - {"axis", "invert", "deadzone", "expo", "centre", "min", "max", "mode", "rate"}
        if unknown:
            raise ProfileError(f"{where}: [axes.{target}]: unknown keys {sorted(unknown)}")
        if not isinstance(a.get("invert", False), bool):
            raise ProfileError(f"{where}: axes.{target}.invert: must be true or false, got {a['invert']!r}")
        mode = a.get("mode", "absolute")
        lever = target not in BIPOLAR and mode != "rate"     # its deadzone comes off both ends
        m = AxisMap(a["axis"], a.get("invert", False),
                    _axis_number(a, "deadzone", 0.03, where, target, LEVER_DEADZONE_MAX if lever else None),
                    _axis_number(a, "expo", 0.0, where, target), _axis_number(a, "centre", 0.0, where, target),
                    _axis_number(a, "min", -1.0, where, target), _axis_number(a, "max", 1.0, where, target),
                    str(mode), _axis_number(a, "rate", 0.5, where, target))
        if m.mode not in ("absolute", "rate"):
            raise ProfileError(f"{where}: [axes.{target}]: mode must be absolute or rate")
        if m.mode == "rate" and target in MOMENTARY:
            raise ProfileError(f"{where}: [axes.{target}]: rate mode is for levels ({', '.join(LEVEL_TARGETS)})")
        if not (m.min < m.max and m.min <= m.centre <= m.max):
            raise ProfileError(f"{where}: [axes.{target}]: needs min < max and centre between them")
        axes[target] = m
    buttons = {}
    for b, action in (doc.get("buttons") or {}).items():
        if action not in ACTIONS:
            raise ProfileError(f"{where}: [buttons] {b} = {action!r}: unknown action")
        buttons[str(b)] = action
    vid, pid = dev.get("vendor_id"), dev.get("product_id")
    for key, v in (("vendor_id", vid), ("product_id", pid)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 0xFFFF):
            raise ProfileError(f"{where}: device.{key}: must be a USB id, 0 to 0xffff, got {v!r}")
    return Profile(dev["name"], kind, int(vid) if isinstance(vid, int) else None,
                   int(pid) if isinstance(pid, int) else None, axes, buttons, path)


def load_profile(path: Path) -> Profile:
    """A profile file through the data files' one reading path (aircraft_data.schema.read_toml: a file
    that is unreadable, not UTF-8, not TOML or a folder is refused in one line), then checked."""
    from ..aircraft_data.schema import DataError, read_toml
    try:
        doc = read_toml(Path(path))
    except DataError as e:
        raise ProfileError(str(e)) from None
    return profile_from_doc(doc, Path(path))


def load_profiles(directory: Path | None = None) -> list[Profile]:
    """Every readable profile in the directory; a broken file is logged and skipped."""
    d = Path(directory or config_dir())
    out = []
    if not d.is_dir():
        return out
    for path in sorted(d.glob("*.toml")):
        try:
            out.append(load_profile(path))
        except (OSError, ValueError, tomllib.TOMLDecodeError) as e:
            log.warning("ignoring device profile %s: %s", path, e)
    return out


def match_score(p: Profile, name: str, kind: str, vendor_id=None, product_id=None) -> float:
    """Tier 4 ids + name, 3 ids, 2 name, 1 close name of the same kind, 0 no match; within a
    tier the closer name wins (the fraction is the names' similarity)."""
    same_ids = (vendor_id is not None and product_id is not None
                and p.vendor_id == vendor_id and p.product_id == product_id)
    a, b = p.norm_name, normalise_name(name)
    ratio = difflib.SequenceMatcher(None, a, b).ratio() if a and b else 0.0
    if same_ids:
        tier = 4 if a == b else 3
    elif a and a == b:
        tier = 2
    elif p.kind == kind and ratio >= 0.85:
        tier = 1
    else:
        return 0.0
    return tier + 0.99 * ratio


def find_profile(profiles: list[Profile], name: str, kind: str, vendor_id=None, product_id=None) -> Profile | None:
    best, best_score = None, 0.0
    for p in profiles:
        s = match_score(p, name, kind, vendor_id, product_id)
        if s > best_score:
            best, best_score = p, s
    return best
