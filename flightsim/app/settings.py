"""What the game remembers between runs: a small TOML file next to the device profiles.

    $XDG_CONFIG_HOME/flightsim/settings.toml      (default ~/.config/flightsim/settings.toml;
                                                   %APPDATA%\\flightsim\\settings.toml on Windows)

    last_scenario = "winch"      # the scenario flown last (headless runs and the menu start from it)
    view = "chase"               # cockpit | chase | orbit | tower | hud
    quality = "auto"             # auto | low | medium | high
    vario_muted = false
    record_flights = true        # every flight recorded (flightsim.recording.library), listed in the menu
    keys = "standard"            # the keyboard layout: standard | fs2 (Flight Simulator II's step keys)

Time acceleration is deliberately not remembered: every run starts in real time.
Loaded once at start (``load_settings``); saved when something changes and at exit
(``save_settings``). Read key by key: a value of the wrong type or out of its choices falls
back to its default alone, with one log line naming the file and the key; the other keys
are kept. Written by changing only the values that changed, line by line, so the user's
comments, order and unknown keys stay; to a temporary file renamed over the old one (a
crash mid-write never leaves half a file), the previous file kept as settings.toml.bak.
A file that is not TOML at all gives the defaults (one log line) and is kept as the backup
when the game next writes. A settings file never stops the game.
Pyglet-free; the directory comes from ``flightsim.input.profiles.config_dir``.
"""
from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from ..input.bindings import KEY_PROFILES

if sys.version_info >= (3, 11):
    import tomllib
else:                                    # pragma: no cover
    import tomli as tomllib

log = logging.getLogger("flightsim.app.settings")

VIEWS = ("cockpit", "chase", "orbit", "tower", "hud", "panel")
QUALITIES = ("auto", "low", "medium", "high")


@dataclass
class Settings:
    last_scenario: str = ""          # "" = none yet (the default scenario)
    view: str = "chase"
    quality: str = "auto"
    vario_muted: bool = False
    record_flights: bool = True
    liveries: dict = field(default_factory=dict)    # aircraft id -> the livery chosen for it (liveries.toml id)
    keys: str = "standard"           # the keyboard layout (flightsim.input.bindings.KEY_PROFILES)
    # multiplayer, as the menu's Multiplayer lines set it (flightsim/app/online.py)
    mp_callsign: str = "PILOT"
    mp_send: str = ""                # HOST:PORT[,HOST:PORT...]
    mp_listen: int = 3000
    mp_side: str = "blue"

    def copy(self) -> Settings:
        return Settings(**asdict(self))


def settings_path() -> Path:
    """settings.toml in flightsim's config directory (the device profiles' parent)."""
    from ..input.profiles import config_dir
    return config_dir().parent / "settings.toml"


def _problem(key: str, v) -> str | None:
    """What is wrong with one key's value (None: nothing)."""
    if key == "last_scenario" and not isinstance(v, str):
        return f"must be a string, got {v!r}"
    if key == "view" and v not in VIEWS:
        return f"must be one of {', '.join(VIEWS)}, got {v!r}"
    if key == "quality" and v not in QUALITIES:
        return f"must be one of {', '.join(QUALITIES)}, got {v!r}"
    if key == "keys" and v not in KEY_PROFILES:
        return f"must be one of {', '.join(KEY_PROFILES)}, got {v!r}"
    if key in ("mp_callsign", "mp_send", "mp_side") or key == "mp_listen":
        return _mp_problem(key, v)
    if key in ("vario_muted", "record_flights") and not isinstance(v, bool):
        return f"must be true or false, got {v!r}"
    if key == "liveries" and not (isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, str)
                                                                for k, x in v.items())):
        return 'must be a table of aircraft id = "livery id"'
    return None


def _mp_problem(key: str, v) -> str | None:
    """The multiplayer keys, checked as the command line's options are (flightsim/net/session.py)."""
    from ..net.session import BadNetConfig, NetConfig
    if key == "mp_listen" and (isinstance(v, bool) or not isinstance(v, int)):
        return f"must be a port number, got {v!r}"
    if key != "mp_listen" and not isinstance(v, str):
        return f"must be a string, got {v!r}"
    try:
        NetConfig.parse(**{"mp_callsign": {"callsign": v}, "mp_send": {"send": v}, "mp_listen": {"listen": v},
                           "mp_side": {"side": v}}[key])
    except BadNetConfig as e:
        return str(e).split(": ", 1)[-1]
    return None


def merge(doc: dict, where: str = "settings") -> tuple[Settings, list[str]]:
    """Settings from a parsed file, key by key: each bad or unknown key is left at its default
    alone; returns the settings and one message per key set aside."""
    s = Settings()
    known = {f.name for f in fields(Settings)}
    problems = []
    for k, v in doc.items():
        if k not in known:
            problems.append(f"{where}: {k}: unknown key, ignored (known: {', '.join(sorted(known))})")
            continue
        bad = _problem(k, v)
        if bad:
            problems.append(f"{where}: {k}: {bad}; using the default {getattr(s, k)!r}")
            continue
        setattr(s, k, dict(v) if isinstance(v, dict) else v)
    return s, problems


def line_by_line(text: str, where: str) -> tuple[dict, list[str]]:
    """What can be read from a file that is not valid TOML as a whole: each ``key = value``
    line on its own (under its [table]), the first readable value of a key kept."""
    doc: dict = {}
    problems = []
    table = doc
    for n, line in enumerate(text.splitlines(), 1):
        m = _TABLE.match(line)
        if m:
            name = m.group(1).strip()
            table = doc.setdefault(name, {}) if isinstance(doc.get(name, {}), dict) else {}
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            one = tomllib.loads(line)
        except tomllib.TOMLDecodeError:
            problems.append(f"{where}: line {n}: not readable, ignored: {line.strip()[:60]!r}")
            continue
        for k, v in one.items():
            if k in table:
                problems.append(f"{where}: line {n}: {k} given again, ignored")
            elif table is doc and _problem(k, v) and any(
                    _LINE.match(x) and _LINE.match(x).group(2).strip('"') == k for x in text.splitlines()[n:]):
                continue                # a bad value with another line for the key after it
            else:
                table[k] = v
    return doc, problems


def load_settings(path: Path | None = None) -> Settings:
    """The remembered settings, key by key (``merge``): a bad key falls back to its default
    alone with one log line; defaults when there is no file or it is not TOML (one log line)."""
    path = Path(path) if path is not None else settings_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as e:
        log.warning("%s: cannot read (%s); using the default settings", path, e)
        return Settings()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        log.warning("%s: not a text file in UTF-8 (byte %d), using the default settings; kept as %s.bak when "
                    "next saved", path, e.start, path.name)
        return Settings()
    try:
        doc, problems = tomllib.loads(text), []
    except tomllib.TOMLDecodeError as e:
        doc, problems = line_by_line(text, str(path))
        problems.insert(0, f"{path}: not valid TOML as a whole ({e}): read line by line; kept as {path.name}.bak "
                           "when next saved")
    s, bad = merge(doc, str(path))
    problems += bad
    for line in problems:
        log.warning("%s", line)
    return s


def _val(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml(s: Settings) -> str:
    lines = ["# flightsim settings: written by the game (safe to edit or delete)"]
    lines += [f"{f.name} = {_val(getattr(s, f.name))}" for f in fields(Settings) if not isinstance(getattr(s, f.name), dict)]
    for f in fields(Settings):               # tables after the plain keys
        table = getattr(s, f.name)
        if isinstance(table, dict):
            lines += ["", f"[{f.name}]"] + [f"{_key(k)} = {_val(v)}" for k, v in sorted(table.items())]
    return "\n".join(lines) + "\n"


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _val(k)


_LINE = re.compile(r'^(\s*)([A-Za-z0-9_.-]+|"(?:[^"\\]|\\.)*")(\s*=\s*)("(?:[^"\\]|\\.)*"|[^\s#]+)(\s*#.*)?$')
_TABLE = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")


def updated_text(old: str, s: Settings) -> str | None:
    """The user's file with only the changed values rewritten (comments, order and unknown keys
    kept), or None where its shape is beyond a line-by-line edit (then the file is written
    afresh, the old one kept as the backup)."""
    plain = {f.name: _val(getattr(s, f.name)) for f in fields(Settings) if not isinstance(getattr(s, f.name), dict)}
    tables = {f.name: {k: _val(v) for k, v in getattr(s, f.name).items()}
              for f in fields(Settings) if isinstance(getattr(s, f.name), dict)}
    out, seen, table = [], set(), None
    seen_rows: dict[str, set] = {t: set() for t in tables}

    def close_table():
        if table in tables:             # rows the file lacked, at the end of their table
            out.extend(f"{_key(k)} = {v}" for k, v in sorted(tables[table].items()) if k not in seen_rows[table])

    for line in old.splitlines():
        m = _TABLE.match(line)
        if m:
            close_table()
            table = m.group(1).strip()
            if table in tables:
                seen.add(table)
            out.append(line)
            continue
        m = _LINE.match(line)
        if m is None:
            if line.strip() and not line.lstrip().startswith("#"):
                line = "# (flightsim could not read this line) " + line     # kept, as a comment
            out.append(line)
            continue
        key = m.group(2).strip('"')
        if table is None and key in plain:
            if key in seen:
                continue                # given again (the file was not valid TOML): once is enough
            seen.add(key)
            line = m.group(1) + m.group(2) + m.group(3) + plain[key] + (m.group(5) or "")
        elif table is None and key in tables:
            continue                    # a bad value where a table belongs: the table goes at the end
        elif table in tables:
            if key not in tables[table] or key in seen_rows[table]:
                continue                # a row the game dropped, or given again
            seen_rows[table].add(key)
            line = m.group(1) + m.group(2) + m.group(3) + tables[table][key] + (m.group(5) or "")
        out.append(line)
    close_table()
    default = Settings()
    missing = [f"{k} = {v}" for k, v in plain.items() if k not in seen and getattr(s, k) != getattr(default, k)]
    if missing:
        first_table = next((i for i, line in enumerate(out) if _TABLE.match(line)), len(out))
        out[first_table:first_table] = missing
    for t, rows in tables.items():
        if t not in seen and rows:
            out += ["", f"[{t}]"] + [f"{_key(k)} = {v}" for k, v in sorted(rows.items())]
    text = "\n".join(out) + "\n"
    try:                                # the edit must read back as exactly these settings
        back, _ = merge(tomllib.loads(text))
    except tomllib.TOMLDecodeError:
        return None
    return text if back == s else None


def save_settings(s: Settings, path: Path | None = None) -> Path | None:
    """Write the settings: the changed values only (``updated_text``), atomically, the previous
    file kept as settings.toml.bak; returns the path, or None if it could not be written."""
    path = Path(path) if path is not None else settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            old = path.read_bytes()
        except FileNotFoundError:
            old = None
        text = None
        if old is not None:
            try:
                text = updated_text(old.decode("utf-8"), s)
            except UnicodeDecodeError:
                text = None
        if text is None:
            text = _toml(s)
        new = text.encode("utf-8")
        if old == new:
            return path
        # temporary names of this process's own: two games saving at once (two players on one
        # machine) never rename each other's half-written files
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(new)
        if old is not None:                 # the previous file, whole, beside it
            bak = path.with_name(path.name + ".bak")
            btmp = path.with_name(f"{path.name}.bak.{os.getpid()}.tmp")
            btmp.write_bytes(old)
            os.replace(btmp, bak)
        os.replace(tmp, path)
        return path
    except OSError as e:
        log.warning("%s: cannot save the settings (%s)", path, e)
        return None
