"""What the game remembers between runs: a small TOML file next to the device profiles.

    $XDG_CONFIG_HOME/flightsim/settings.toml      (default ~/.config/flightsim/settings.toml;
                                                   %APPDATA%\\flightsim\\settings.toml on Windows)

    last_scenario = "winch"      # the scenario flown last (headless runs and the menu start from it)
    view = "chase"               # cockpit | chase | orbit | tower | hud
    quality = "auto"             # auto | low | medium | high
    vario_muted = false
    record_flights = true        # every flight recorded (flightsim.recording.library), listed in the menu

Time acceleration is deliberately not remembered: every run starts in real time.
Loaded once at start (``load_settings``); saved when something changes and at exit
(``save_settings``, written to a temporary file and renamed, so a crash mid-write never
leaves half a file). A file that does not parse, or holds values of the wrong type, is
replaced by the defaults with one log line: a settings file never stops the game.
Pyglet-free; the directory comes from ``flightsim.input.profiles.config_dir``.
"""
from __future__ import annotations

import logging
import os
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:                                    # pragma: no cover
    import tomli as tomllib

log = logging.getLogger("flightsim.settings")

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

    def copy(self) -> "Settings":
        return Settings(**asdict(self))


def settings_path() -> Path:
    """settings.toml in flightsim's config directory (the device profiles' parent)."""
    from .input.profiles import config_dir
    return config_dir().parent / "settings.toml"


def _check(doc: dict) -> Settings:
    """Settings from a parsed file; raises ValueError naming the key and the problem."""
    s = Settings()
    known = {f.name for f in fields(Settings)}
    for k, v in doc.items():
        if k not in known:
            raise ValueError(f"unknown key {k!r} (known: {', '.join(sorted(known))})")
    if "last_scenario" in doc:
        if not isinstance(doc["last_scenario"], str):
            raise ValueError("last_scenario must be a string")
        s.last_scenario = doc["last_scenario"]
    if "view" in doc:
        if doc["view"] not in VIEWS:
            raise ValueError(f"view must be one of {', '.join(VIEWS)}, got {doc['view']!r}")
        s.view = doc["view"]
    if "quality" in doc:
        if doc["quality"] not in QUALITIES:
            raise ValueError(f"quality must be one of {', '.join(QUALITIES)}, got {doc['quality']!r}")
        s.quality = doc["quality"]
    if "vario_muted" in doc:
        if not isinstance(doc["vario_muted"], bool):
            raise ValueError("vario_muted must be true or false")
        s.vario_muted = doc["vario_muted"]
    if "record_flights" in doc:
        if not isinstance(doc["record_flights"], bool):
            raise ValueError("record_flights must be true or false")
        s.record_flights = doc["record_flights"]
    if "liveries" in doc:
        lv = doc["liveries"]
        if not isinstance(lv, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in lv.items()):
            raise ValueError("liveries must be a table of aircraft id = \"livery id\"")
        s.liveries = dict(lv)
    return s


def load_settings(path: Path | None = None) -> Settings:
    """The remembered settings; defaults when there is no file or it is unusable (one log line)."""
    path = Path(path) if path is not None else settings_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as e:
        log.warning("%s: cannot read (%s); using the default settings", path, e)
        return Settings()
    try:
        return _check(tomllib.loads(data.decode("utf-8")))
    except (tomllib.TOMLDecodeError, ValueError, UnicodeDecodeError) as e:
        log.warning("%s: ignored, using the default settings (%s)", path, e)
        return Settings()


def _toml(s: Settings) -> str:
    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'
    lines = ["# flightsim settings: written by the game (safe to edit or delete)"]
    lines += [f"{f.name} = {val(getattr(s, f.name))}" for f in fields(Settings) if not isinstance(getattr(s, f.name), dict)]
    for f in fields(Settings):               # tables after the plain keys
        table = getattr(s, f.name)
        if isinstance(table, dict):
            lines += ["", f"[{f.name}]"] + [f"{k} = {val(v)}" for k, v in sorted(table.items())]
    return "\n".join(lines) + "\n"


def save_settings(s: Settings, path: Path | None = None) -> Path | None:
    """Write the settings (atomically); returns the path, or None if it could not be written."""
    path = Path(path) if path is not None else settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(_toml(s), encoding="utf-8")
        os.replace(tmp, path)
        return path
    except OSError as e:
        log.warning("%s: cannot save the settings (%s)", path, e)
        return None
