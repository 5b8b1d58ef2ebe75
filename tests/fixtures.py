"""Test helpers: a tiny TOML writer and a small synthetic aircraft for loader and kernel tests."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np


def _toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(float(v)) if isinstance(v, float) else str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(v)


def dumps(doc: dict) -> str:
    """TOML for dicts of tables and arrays of tables (enough for our data files)."""
    lines = []
    for key, val in doc.items():
        if isinstance(val, dict):
            lines.append(f"[{key}]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in val.items()]
            lines.append("")
        elif isinstance(val, list) and val and isinstance(val[0], dict):
            for item in val:
                lines.append(f"[[{key}]]")
                lines += [f"{k} = {_toml_value(v)}" for k, v in item.items()]
                lines.append("")
        else:
            lines.append(f"{key} = {_toml_value(val)}")
    return "\n".join(lines) + "\n"


def thin_airfoil(cl_max=1.4, alpha0_deg=-3.0, cd0=0.01, flap=0.0):
    """A plausible airfoil over -180..180: linear lift with a stall, flat plate beyond."""
    alpha = np.concatenate([np.arange(-180, -30, 5.0), np.arange(-30, 30, 1.0), np.arange(30, 181, 5.0)])
    out = {}
    deflections = (("deflection_minus10_deg", -10), ("deflection_0_deg", 0), ("deflection_plus10_deg", 10))
    for name, d in deflections if flap > 0 else deflections[1:2]:
        dcl = 0.05 * d * (flap > 0)
        a = np.radians(alpha)
        lin = 2 * math.pi * (a - math.radians(alpha0_deg)) + dcl
        plate = 2 * 1.1 * np.sin(a) * np.cos(a)
        w = 1 / (1 + np.exp((np.abs(alpha) - 14.0) / 1.5))
        cl = w * np.clip(lin, -cl_max, cl_max) + (1 - w) * plate
        cd = cd0 + 0.008 * (a * 3) ** 2 * w + (1 - w) * 1.2 * np.sin(a) ** 2 + 0.002 * abs(d) / 10
        cm = 0.0167 * alpha0_deg * w - (1 - w) * 0.4 * np.sin(a) - 0.01 * d * (flap > 0)
        cl[0] = cl[-1] = 0.0
        cm[0] = cm[-1] = cm[-1]
        cd[0] = cd[-1]
        out[name] = {"cl": [float(x) for x in cl], "cd": [float(x) for x in cd], "cm": [float(x) for x in cm]}
    head = {"name": "synthetic", "source": "tests/fixtures.py: thin-airfoil lift + flat plate",
            "control_chord_fraction": flap, "alpha_deg": [float(x) for x in alpha]}
    return {"airfoil": head, **out}


def trainer_doc() -> dict:
    """A small two-seat-glider-like aircraft written only for tests."""
    return {
        "aircraft": {"name": "Test trainer", "kind": "glider", "datum": "wing root leading edge",
                     "vne_kmh": 200.0},
        "section": [
            {"name": "wing_in", "airfoil": "plain", "group": "wing", "position_m": [-0.25, 2.0, 0.0],
             "span_m": 4.0, "chord_m": 1.0, "incidence_deg": 2.0, "dihedral_deg": 3.0, "mirror": True,
             "mass_kg": 30.0, "airbrake_dcd": 0.05, "airbrake_dcl": -0.2},
            {"name": "wing_out", "airfoil": "flapped", "group": "wing", "position_m": [-0.2, 5.5, 0.1],
             "span_m": 3.0, "chord_m": 0.8, "incidence_deg": 1.0, "dihedral_deg": 3.0, "mirror": True,
             "mass_kg": 15.0, "control": "aileron", "control_max_deg": 20.0},
            {"name": "htail", "airfoil": "flapped", "group": "htail", "position_m": [-5.0, 0.75, -0.8],
             "span_m": 1.5, "chord_m": 0.6, "incidence_deg": -2.0, "mirror": True, "mass_kg": 3.0,
             "control": "elevator", "control_max_deg": 20.0},
            {"name": "fin", "airfoil": "symmetric", "group": "vtail", "position_m": [-5.0, 0.0, -0.4],
             "span_m": 1.0, "chord_m": 0.9, "dihedral_deg": 90.0, "mass_kg": 5.0,
             "control": "rudder", "control_max_deg": 25.0},
            {"name": "body_h", "airfoil": "plain", "group": "body", "position_m": [-1.0, 0.0, 0.2],
             "span_m": 0.6, "chord_m": 5.0},
            {"name": "body_v", "airfoil": "symmetric", "group": "body", "position_m": [-1.0, 0.0, 0.2],
             "span_m": 0.7, "chord_m": 5.0, "dihedral_deg": 90.0},
        ],
        "mass": [
            {"name": "fuselage", "mass_kg": 120.0, "position_m": [-1.0, 0.0, 0.3], "size_m": [6.0, 0.6, 0.7]},
            {"name": "pilot", "mass_kg": 90.0, "position_m": [1.5, 0.0, 0.3], "size_m": [1.0, 0.5, 0.5]},
        ],
        "gear": [
            {"name": "main", "position_m": [0.1, 0.0, 0.9], "stiffness_n_per_m": 60000.0,
             "damping_n_s_per_m": 4000.0, "rolling_mu": 0.03, "brake_mu": 0.5, "side_mu": 0.8},
            {"name": "tail", "position_m": [-5.0, 0.0, 0.4], "stiffness_n_per_m": 8000.0,
             "damping_n_s_per_m": 600.0, "rolling_mu": 0.3, "side_mu": 0.5, "steering_max_deg": 0.0},
        ],
        "contact": [
            {"name": "right_tip", "position_m": [-0.3, 7.0, 0.2]},
            {"name": "left_tip", "position_m": [-0.3, -7.0, 0.2]},
            {"name": "nose", "position_m": [2.5, 0.0, 0.5]},
        ],
    }


def write_aircraft(root: Path, doc: dict | None = None, airfoils: dict | None = None) -> Path:
    """Write an aircraft folder under root; returns the aircraft.toml path."""
    doc = trainer_doc() if doc is None else doc
    airfoils = {"plain": thin_airfoil(), "flapped": thin_airfoil(flap=0.3),
                "symmetric": thin_airfoil(alpha0_deg=0.0, flap=0.3)} if airfoils is None else airfoils
    folder = root / "trainer"
    (folder / "airfoils").mkdir(parents=True, exist_ok=True)
    for name, af in airfoils.items():
        (folder / "airfoils" / f"{name}.toml").write_text(dumps(af))
    path = folder / "aircraft.toml"
    path.write_text(dumps(doc))
    return path
