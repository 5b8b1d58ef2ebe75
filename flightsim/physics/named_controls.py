"""The control array by name: ``Controls`` (a named view over one control array, or a fleet's
rows), the controls' table (name, slot, range, meaning), and the checks that refuse a control
that is not a number. physics/named.py re-exports every name here, with the readouts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import layout as L

# ---------------------------------------------------------------------------- controls
# name, index, low, high, meaning
CONTROLS = (
    ("pitch", L.C_PITCH, -1.0, 1.0, "stick fore and aft, + nose up (stick back)"),
    ("roll", L.C_ROLL, -1.0, 1.0, "stick sideways, + roll right"),
    ("yaw", L.C_YAW, -1.0, 1.0, "pedals, + nose right; also steers a steerable wheel"),
    ("airbrake", L.C_AIRBRAKE, 0.0, 1.0, "airbrake (spoiler) lever, 0 in .. 1 out"),
    ("flap", L.C_FLAP, -1.0, 1.0, "flap or camber setting (0 where the aircraft has none)"),
    ("brake_left", L.C_BRAKE_L, 0.0, 1.0, "left wheel brake"),
    ("brake_right", L.C_BRAKE_R, 0.0, 1.0, "right wheel brake"),
    ("throttle", L.C_THROTTLE, 0.0, 1.0, "throttle (powered aircraft)"),
    ("pitch_trim", L.C_PITCH_TRIM, -1.0, 1.0, "elevator trim tab, + nose up"),
    ("gear_up", L.C_GEAR_UP, 0.0, 1.0, "retractable gear: 0 down, 1 up"),
    ("prop_rpm", L.C_PROP_RPM, 0.0, 1.0, "governor lever, minimum .. maximum rpm"),
    ("wep", L.C_WEP, 0.0, 1.0, "1: war emergency power"),
    ("blower", L.C_BLOWER, 0.0, 1.0, "0 automatic supercharger gear, 1 held in low gear"),
    ("feather", L.C_FEATHER, 0.0, 1.0, "1: feather the propeller (where it can)"),
    ("cutoff", L.C_CUTOFF, 0.0, 1.0, "1: mixture idle cut-off, the engine stops"),
    ("starter", L.C_STARTER, 0.0, 1.0, "1: starter engaged"),
    ("roll_trim", L.C_ROLL_TRIM, -1.0, 1.0, "aileron trim tab, + right wing down"),
    ("yaw_trim", L.C_YAW_TRIM, -1.0, 1.0, "rudder trim tab, + nose right"),
    ("fire", L.C_FIRE, 0.0, 1.0, "1: guns firing (trigger held)"),
    ("drop_tanks", L.C_DROP_TANKS, 0.0, 1.0, "1: release the drop tanks"),
    ("drop_bombs", L.C_DROP_BOMBS, 0.0, 1.0, "1: release the bombs"),
    ("fcs_direct", L.C_FCS_DIRECT, 0.0, 1.0,
     "1: the flight-control law off, the stick moves the surfaces (fly-by-wire aircraft)"),
    ("mixture_lean", L.C_MIXTURE_LEAN, 0.0, 1.0,
     "manual mixture lever, 0 full rich .. 1 idle cut-off (carburetted engines)"),
    ("carb_heat", L.C_CARB_HEAT, 0.0, 1.0, "carburettor heat, 0 cold .. 1 full hot (carburetted engines)"),
    ("launch", L.C_LAUNCH, 0.0, 1.0, "1: launch the selected missile (on the press; the world's combat reads it)"),
    ("weapon_select", L.C_WEAPON_SELECT, 0.0, 1.0, "1: next weapon, the gun then each missile carried (on the press)"),
    ("lock", L.C_LOCK, 0.0, 1.0, "1: lock the target ahead, or break the lock (on the press)"),
    ("flare", L.C_FLARE, 0.0, 1.0, "1: drop a flare (on the press)"),
    ("chaff", L.C_CHAFF, 0.0, 1.0, "1: drop a chaff bundle (on the press)"),
)
CONTROL_INDEX = {name: i for name, i, *_ in CONTROLS}
_BY_INDEX = {i: k for k, (_, i, *_) in enumerate(CONTROLS)}
CONTROL_RANGE = {name: (lo, hi) for name, _, lo, hi, _ in CONTROLS}
# the same ranges by slot, for whole control arrays (the step kernel holds its own copy,
# dynamics.CTRL_LOW / CTRL_HIGH, kept equal by tests/physics/test_bad_controls.py)
_BY_SLOT = sorted(CONTROLS, key=lambda c: c[1])
CONTROL_NAMES = tuple(c[0] for c in _BY_SLOT)
CONTROL_LOW = np.array([c[2] for c in _BY_SLOT])
CONTROL_HIGH = np.array([c[3] for c in _BY_SLOT])
CONTROL_DEFAULTS = {"prop_rpm": 1.0}
# the weapon buttons: controls the world's combat acts on at their press (world/missiles.py)
WEAPON_BUTTONS = ("launch", "weapon_select", "lock", "flare", "chaff")
N_CONTROLS = L.N_CTRL



def control_problem(array, rows: str = "row") -> str | None:
    """None when every control in a control array (or a (N, N_CTRL) batch of them, whose
    ``rows`` are steps or aircraft) is a number, else a line naming the first that is not:
    a NaN control refuses the step (the kernels clamp the others, infinities included, to
    their ranges)."""
    a = np.asarray(array, dtype=np.float64)
    bad = np.isnan(a)
    if not bad.any():
        return None
    where = np.argwhere(bad)[0]
    name, _, lo, hi, _ = CONTROLS[_BY_INDEX[int(where[-1])]]
    row = f" ({rows} {int(where[0])})" if a.ndim == 2 else ""
    return f"control {name}{row}: must be a number ({lo:g}..{hi:g}, clamped beyond), got nan"


def check_controls(array, rows: str = "row") -> None:
    """Raise ValueError naming the first control that is not a number (control_problem)."""
    problem = control_problem(array, rows)
    if problem is not None:
        raise ValueError(problem)


class Slot:
    """A named float in an array attribute (``array``, ``state``, ``diag``), optionally scaled."""
    def __init__(self, index, attr, scale=1.0, doc=""):
        self.index, self.attr, self.scale, self.__doc__ = index, attr, scale, doc

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        a = getattr(obj, self.attr)
        if a.ndim == 1:
            return float(a[self.index]) * self.scale
        return a[:, self.index] * self.scale          # a fleet: one value per aircraft

    def __set__(self, obj, value):
        a = getattr(obj, self.attr)
        if a.ndim == 1:
            a[self.index] = float(value) / self.scale
        else:
            a[:, self.index] = np.asarray(value, dtype=np.float64) / self.scale


class _ControlSlot(Slot):
    """A control by name: NaN is refused here with the control's name (the kernels would
    refuse the step); other values are written as given."""
    def __set__(self, obj, value):
        if _has_nan(value):
            raise ValueError(control_problem(_nan_at(self.index)))
        a = obj.array
        if a.ndim == 1:
            a[self.index] = float(value)
        else:
            a[:, self.index] = np.asarray(value, dtype=np.float64)


def _has_nan(value) -> bool:
    if isinstance(value, float):          # np.float64 too: the quick test for one value
        return value != value
    if isinstance(value, int):
        return False
    return bool(np.isnan(np.asarray(value, dtype=np.float64)).any())


def _nan_at(index) -> np.ndarray:
    a = np.zeros(L.N_CTRL)
    a[index] = np.nan
    return a


class Controls:
    """Named view over a control array (one float per control, see CONTROLS for the ranges).

    ``Controls()`` makes a fresh array (all 0, ``prop_rpm`` 1: maximum rpm);
    ``Controls(array)`` views an existing one, also a fleet's (N, N_CTRL) array, whose
    names then read and write a column; keywords set values. Values are written as
    given: the kernels clamp what they read (infinities too), ``clipped()`` clamps here;
    NaN is refused with a ValueError naming the control."""
    names = tuple(CONTROL_INDEX)
    if not TYPE_CHECKING:
        __slots__ = ("array",)
    else:       # the controls, set on the class from CONTROLS below, for type checkers (a test keeps them the same)
        pitch: float
        roll: float
        yaw: float
        airbrake: float
        flap: float
        brake_left: float
        brake_right: float
        throttle: float
        pitch_trim: float
        gear_up: float
        prop_rpm: float
        wep: float
        blower: float
        feather: float
        cutoff: float
        starter: float
        roll_trim: float
        yaw_trim: float
        fire: float
        drop_tanks: float
        drop_bombs: float
        fcs_direct: float
        mixture_lean: float
        carb_heat: float
        launch: float
        weapon_select: float
        lock: float
        flare: float
        chaff: float

    def __init__(self, array: np.ndarray | None = None, **values):
        if array is None:
            array = np.zeros(L.N_CTRL)
            array[L.C_PROP_RPM] = CONTROL_DEFAULTS["prop_rpm"]
        elif array.shape[-1] != L.N_CTRL:       # (N_CTRL,) or a fleet's (N, N_CTRL)
            raise ValueError(f"a control array has {L.N_CTRL} values, not {array.shape[-1]}")
        self.array = array
        self.set(**values)

    def set(self, **values) -> Controls:
        for k, v in values.items():
            if k not in CONTROL_INDEX:
                raise KeyError(f"unknown control {k!r} (known: {', '.join(CONTROL_INDEX)})")
            if _has_nan(v):
                raise ValueError(control_problem(_nan_at(CONTROL_INDEX[k])))
            self.array[CONTROL_INDEX[k]] = v
        return self

    def copy(self) -> Controls:
        return Controls(self.array.copy())

    def clipped(self) -> Controls:
        """A copy with each control clamped to its range (a NaN one: ValueError naming it)."""
        check_controls(self.array)
        out = self.copy()
        for name, i, lo, hi, _ in CONTROLS:
            out.array[i] = min(max(out.array[i], lo), hi)
        return out

    def as_dict(self) -> dict:
        return {name: float(self.array[i]) for name, i in CONTROL_INDEX.items()}

    def __repr__(self):
        set_ = ", ".join(f"{k}={v:g}" for k, v in self.as_dict().items() if v != CONTROL_DEFAULTS.get(k, 0.0))
        return f"Controls({set_})"


for _name, _i, _lo, _hi, _doc in CONTROLS:
    setattr(Controls, _name, _ControlSlot(_i, "array", 1.0, f"{_doc} ({_lo:g}..{_hi:g})"))


def control_array(**values) -> np.ndarray:
    """A fresh control array with these named values (Controls(**values).array)."""
    return Controls(**values).array


def control_index(name: str) -> int:
    """Where a named control sits in the array (for code that builds batches of them)."""
    return CONTROL_INDEX[name]
