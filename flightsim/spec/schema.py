"""A small declarative schema for the TOML data files, with messages a person can act on.

Every error is a :class:`DataError` whose text names the file, the key (as a path such
as ``section[3] 'wing_outer'.span_m``) and what is wrong. Unknown keys are refused;
a key that is a known key minus its unit suffix (``mass`` for ``mass_kg``) is refused
as "has no unit suffix".
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib


class DataError(ValueError):
    """Bad data in an aircraft, airfoil or scenario file."""

    def __init__(self, file: str | Path, key: str, problem: str):
        self.file = str(file)
        self.key = key
        self.problem = problem
        where = f"{self.file}: {key}: " if key else f"{self.file}: "
        super().__init__(where + problem)


def read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
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
