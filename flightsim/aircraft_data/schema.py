"""A small declarative schema for the TOML data files, with messages a person can act on.

Every error is a :class:`DataError` whose text names the file, the key (as a path such
as ``section[3] 'wing_outer'.span_m``) and what is wrong. Unknown keys are refused;
a key that is a known key minus its unit suffix (``mass`` for ``mass_kg``) is refused
as "has no unit suffix".
"""
from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]  # the same API under its backport's name


class DataError(ValueError):
    """Bad data in an aircraft, airfoil or scenario file."""

    def __init__(self, file: str | Path, key: str, problem: str):
        self.file = str(file)
        self.key = key
        self.problem = problem
        where = f"{self.file}: {key}: " if key else f"{self.file}: "
        super().__init__(where + problem)


@functools.lru_cache(maxsize=256)
def _parsed(data: bytes) -> dict:
    """A TOML text parsed once per process: the tools and the tests load the same aircraft, its
    airfoils and its references dozens of times (a validation run 46 times, 9 s of parsing)."""
    return tomllib.loads(data.decode("utf-8"))


def read_toml(path: Path) -> dict:
    """The file's tables, a fresh copy every call (the caller may change them); refused with a
    DataError naming the file."""
    try:
        with open(path, "rb") as f:
            return copy.deepcopy(_parsed(f.read()))
    except FileNotFoundError:
        raise DataError(path, "", "file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise DataError(path, "", f"not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise DataError(path, "", f"not a text file in UTF-8 (byte {e.start}: {e.reason})") from None
    except IsADirectoryError:
        raise DataError(path, "", "is a directory, not a file") from None
    except OSError as e:
        raise DataError(path, "", f"cannot be read ({e.strerror or e})") from None


@dataclass
class Field:
    kind: str                      # num, str, bool, vec3, numlist, numgrid (rows), table, enum, strlist,
                                   # list (any list), any (the check alone decides)
    required: bool = True
    default: Any = None
    check: Callable[[Any], str | None] | None = None   # returns a problem or None
    choices: tuple = ()


def positive(v):
    return None if v > 0 else f"must be greater than 0, got {v!r}"


def non_negative(v):
    return None if v >= 0 else f"must not be negative, got {v!r}"


def between(lo, hi):
    def check(v):
        return None if lo <= v <= hi else f"must be between {lo} and {hi}, got {v!r}"
    return check


def num(required=True, default=None, check=None) -> Field:
    return Field("num", required, default, check)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


# Physical ranges by a key's unit suffix (the house names every number with its unit): the
# generous bounds of anything this sim flies, so that a value that passes a loader can be
# built and flown, and 1e30 in a chord, a mass or a table is refused here, not in the trim.
# A key's own check (a Field's ``check``) may hold it tighter. First match wins.
PHYSICAL_RANGES = (
    ("altitude_m", -1000.0, 30000.0, "m"),
    ("altitude_high_m", -1000.0, 30000.0, "m"),
    ("altitude_low_m", -1000.0, 30000.0, "m"),
    ("altitude_to_m", -1000.0, 30000.0, "m"),
    ("_n_per_m", -1.0e8, 1.0e8, "N/m"),
    ("_n_s_per_m", -1.0e7, 1.0e7, "N s/m"),
    ("_nm_per_deg", -1.0e8, 1.0e8, "N m/degree"),
    ("_j_per_kg", 0.0, 1.0e9, "J/kg"),
    ("_j_per_kg_k", 0.0, 1.0e5, "J/(kg K)"),
    ("_j_per_k", 0.0, 1.0e9, "J/K"),
    ("_w_per_k", 0.0, 1.0e7, "W/K"),
    ("_kg_per_n_h", 0.0, 10.0, "kg/(N h)"),
    ("_lb_per_in2", 0.0, 10.0, "lb/in2"),
    ("_kg_s", -1.0e4, 1.0e4, "kg/s"),
    ("_deg_s", -1.0e5, 1.0e5, "degrees/s"),
    ("_per_s", -1.0e4, 1.0e4, "1/s"),
    ("_per_s2", -1.0e4, 1.0e4, "1/s2"),
    ("reynolds_number", 0.0, 1.0e10, ""),
    ("_kg_m2", -1.0e8, 1.0e8, "kg m2"),
    ("_m2", -2000.0, 2000.0, "m2"),
    ("_m3", 0.0, 10.0, "m3"),
    ("_m", -1.0e5, 1.0e5, "m"),
    ("_kg", -1.0e6, 1.0e6, "kg"),
    ("_deg", -360.0, 360.0, "degrees"),
    ("_kmh", -1.0e4, 1.0e4, "km/h"),
    ("_ms", -1.0e4, 1.0e4, "m/s"),
    ("_s", -1.0e6, 1.0e6, "s"),
    ("_h", -1000.0, 1000.0, "h"),
    ("_n", -1.0e7, 1.0e7, "N"),
    ("_n_m", -1.0e7, 1.0e7, "N m"),
    ("_pa", -1.0e7, 1.0e7, "Pa"),
    ("_k", 0.0, 3000.0, "K"),
    ("_w", -1.0e8, 1.0e8, "W"),
    ("_rpm", -1.0e5, 1.0e5, "rpm"),
    ("_mm", -1.0e4, 1.0e4, "mm"),
    ("", -1.0e6, 1.0e6, ""),          # a coefficient, a ratio, a count: nothing in a flight is this large
)


def physical_range(key: str) -> tuple[float, float, str]:
    """(lo, hi, unit) for a key (its last dotted part) by its unit suffix; another compound
    unit (``_per_``) gets the wide bound of a coefficient times a thousand."""
    name = key.rsplit(".", 1)[-1]
    if "_per_" in name and not any(name.endswith(sfx) for sfx, *_ in PHYSICAL_RANGES[:-1] if "_per" in sfx):
        return -1.0e9, 1.0e9, ""
    for suffix, lo, hi, unit in PHYSICAL_RANGES:
        if name.endswith(suffix):
            return lo, hi, unit
    return PHYSICAL_RANGES[-1][1:]      # (unreached: "" ends every name)


def _in_physical_range(v, path: Path, key: str) -> None:
    lo, hi, unit = physical_range(key)
    values = v if isinstance(v, (list, tuple)) else [v]
    for x in values:
        for y in (x if isinstance(x, (list, tuple)) else [x]):
            if not lo <= y <= hi:
                u = f" {unit}" if unit else ""
                raise DataError(path, key, f"{y!r} is outside the physical range {lo:g} to {hi:g}{u}")


def _check_value(f: Field, v: Any, path: Path, key: str) -> Any:
    if f.kind == "num":
        if not _is_number(v):
            raise DataError(path, key, f"must be a finite number, got {v!r}")
        v = float(v)
    elif f.kind == "str":
        if not isinstance(v, str) or not v.strip():
            raise DataError(path, key, f"must be a non-empty string, got {v!r}")
    elif f.kind == "bool":
        if not isinstance(v, bool):
            raise DataError(path, key, f"must be true or false, got {v!r}")
    elif f.kind == "enum":
        if v not in f.choices:
            raise DataError(path, key, f"must be one of {', '.join(f.choices)}; got {v!r}")
    elif f.kind == "vec3":
        if not isinstance(v, list) or len(v) != 3 or not all(_is_number(x) for x in v):
            raise DataError(path, key, f"must be a list of 3 numbers [x, y, z], got {v!r}")
        v = tuple(float(x) for x in v)
    elif f.kind == "numlist":
        if not isinstance(v, list) or not v or not all(_is_number(x) for x in v):
            bad = next((x for x in v if not _is_number(x)), None) if isinstance(v, list) and v else v
            raise DataError(path, key, f"must be a non-empty list of finite numbers (bad entry: {bad!r})")
        v = [float(x) for x in v]
    elif f.kind == "numgrid":
        rows = v if isinstance(v, list) and v else None
        if rows is None or not all(isinstance(r, list) and r and all(_is_number(x) for x in r) for r in rows):
            raise DataError(path, key, "must be a non-empty list of rows, each a non-empty list of finite numbers")
        if len({len(r) for r in rows}) != 1:
            raise DataError(path, key, f"rows must all be as long; got lengths {[len(r) for r in rows]}")
        v = [[float(x) for x in r] for r in rows]
    elif f.kind == "table":
        if not isinstance(v, dict):
            raise DataError(path, key, f"must be a table, got {v!r}")
    elif f.kind == "list":
        if not isinstance(v, list):
            raise DataError(path, key, f"must be a list, got {v!r}")
    elif f.kind == "strlist":
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise DataError(path, key, f"must be a list of strings, got {v!r}")
    if f.kind in ("num", "vec3", "numlist", "numgrid"):
        _in_physical_range(v, path, key)
    if f.check is not None:
        problem = f.check(v)
        if problem:
            raise DataError(path, key, problem)
    return v


def validate_table(data: Any, schema: dict[str, Field], path: Path, where: str) -> dict:
    """Check one TOML table against a schema; return a dict with defaults filled in."""
    if not isinstance(data, dict):
        raise DataError(path, where, f"must be a table, got {type(data).__name__}")
    prefix = f"{where}." if where else ""
    for key in data:
        if key in schema:
            continue
        suffixed = [k for k in schema if k.startswith(key + "_")]
        if suffixed:
            raise DataError(path, prefix + key,
                            f"has no unit suffix: write it as '{suffixed[0]}' (SI units, unit in the name)")
        raise DataError(path, prefix + key, f"unknown key (allowed: {', '.join(sorted(schema))})")
    out = {}
    for key, f in schema.items():
        if key not in data:
            if f.required:
                raise DataError(path, prefix + key, "missing required key")
            out[key] = f.default
            continue
        out[key] = _check_value(f, data[key], path, prefix + key)
    return out


@dataclass
class Located:
    """A validated record and where it came from (for later cross-checks)."""
    values: dict
    where: str
    extra: dict = field(default_factory=dict)

    def __getitem__(self, k):
        return self.values[k]


def named_records(data: dict, key: str, schema: dict, path: Path, required: bool) -> list[dict]:
    """The [[key]] array of tables, each validated against schema and labelled key[i] 'name'
    (kept in rec["_where"] for later messages), names unique; [] if absent and not required."""
    items = data.get(key)
    if items is None:
        if required:
            raise DataError(path, key, f"missing: at least one [[{key}]] is needed")
        return []
    if not isinstance(items, list):
        raise DataError(path, key, f"must be an array of tables [[{key}]]")
    out = []
    names = set()
    for i, item in enumerate(items):
        label = f"{key}[{i}]"
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            label += f" '{item['name']}'"
        rec = validate_table(item, schema, path, label)
        if rec["name"] in names:
            raise DataError(path, label + ".name", f"duplicate name {rec['name']!r}")
        names.add(rec["name"])
        rec["_where"] = label
        out.append(rec)
    return out
