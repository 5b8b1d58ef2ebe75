#!/usr/bin/env python3
"""Bad input, as a hostile or careless user gives it: about 300 damaged files, command-line
values, recordings and controls, each tried on a copy of this tree (the real one is never
touched) and judged:

    refused   one line saying what is wrong (exit status not 0, no traceback)
    fine      accepted and it works (finite telemetry, the user's settings kept, ...)
    failure   a traceback, a hang (60 s), a silently wrong result or a lost setting

    python scripts/fuzz.py [--only KIND ...] [--json] [--list] [--seed N] [--root DIR]

KIND: scenario aircraft look settings profile recording cli controls gym weapons. ``--root`` fuzzes
another checkout (an older commit's worktree: the tally before a change). Exit status 1
while any case fails. Every case is its own process (python run.py ... or a short snippet),
so a crash in one never hides another.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
TIMEOUT_S = 60.0
BAD_NUMBERS = ("1e30", "-1e30", "nan", "inf", "-1", "0", '"abc"', "true", "1e-30", "-1e9")
NUMBER_LINE = re.compile(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=\s*)(-?[0-9][0-9_.eE+-]*)(\s*(#.*)?)$")


@dataclass
class Case:
    kind: str
    name: str
    argv: list                                   # run.py's arguments, or ["-c", code] / ["-m", module, ...]
    setup: object = None                         # setup(tree: Path) -> None: damage files in the copy
    check: object = None                         # check(tree, proc) -> problem or None, when it exits 0
    runpy: bool = True                           # argv goes to run.py (else to python itself)
    stdin_pipe_head: int = 0                     # > 0: the output piped into `head -n N`
    must_work: bool = False                      # a refusal is a failure too (a broken references.toml
                                                 # must not stop the aircraft from flying)
    result: str = ""
    detail: str = ""
    seconds: float = 0.0


# ------------------------------------------------------------------ the copy and its files
def copy_tree(src: Path, dst: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=src, capture_output=True, check=True).stdout.split(b"\0")
    for f in files:
        if not f:
            continue
        p = Path(f.decode())
        if p.parts[0] in ("docs", "tests", ".ci"):
            continue
        s, d = src / p, dst / p
        if not s.is_file():
            continue
        d.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(s, d)


class Files:
    """Snapshots of the files a case damages, put back after it."""
    def __init__(self, tree: Path):
        self.tree = tree
        self.saved = {}

    def save(self, rel):
        p = self.tree / rel
        if rel not in self.saved:
            self.saved[rel] = p.read_bytes() if p.is_file() else None

    def restore(self):
        for rel, data in self.saved.items():
            p = self.tree / rel
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
            if data is not None:
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(data)
        self.saved.clear()


def number_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines()) if NUMBER_LINE.match(line)]


def replace_number(text: str, line_no: int, value: str) -> tuple[str, str]:
    lines = text.splitlines()
    m = NUMBER_LINE.match(lines[line_no])
    lines[line_no] = f"{m.group(1)}{m.group(2)}{m.group(3)}{value}{m.group(5) or ''}"
    return "\n".join(lines) + "\n", m.group(2)


def damage_number(rel: str, line_no: int, value: str):
    def setup(tree, files):
        files.save(rel)
        p = tree / rel
        text, _ = replace_number(p.read_text(encoding="utf-8"), line_no, value)
        p.write_text(text, encoding="utf-8")
    return setup


def damage_bytes(rel: str, how: str, seed: int = 0, base: str | None = None):
    def setup(tree, files):
        files.save(rel)
        p = tree / rel
        # a new file is damaged from a stock one of its kind
        data = p.read_bytes() if p.is_file() else (tree / base).read_bytes() if base else b""
        rng = random.Random(seed)
        if how == "random":
            p.write_bytes(bytes(rng.randrange(256) for _ in range(2000)))
        elif how == "latin1":
            at = rng.randrange(len(data)) if data else 0
            i = data.find(b"\n", at)                      # into a comment or a string: still TOML
            p.write_bytes(data[:max(i, 0)] + b" # caf\xe9" + data[max(i, 0):])
        elif how == "truncated":
            p.write_bytes(data[:len(data) // 2])
        elif how == "empty":
            p.write_bytes(b"")
        elif how == "directory":
            p.unlink(missing_ok=True)
            p.mkdir()
            (p / "inside.toml").write_text("x = 1\n")
        elif how == "flip":
            b = bytearray(data)
            for _ in range(3):
                k = rng.randrange(len(b))
                b[k] ^= 1 << rng.randrange(8)
            p.write_bytes(bytes(b))
        elif how == "unknown_key":
            p.write_bytes(data + b"\nsurprise_key_m = 3\n")
        elif how == "deleted":
            p.unlink()
    return setup


def no_traceback_finite(tree, proc):
    out = proc.stdout + proc.stderr
    if re.search(r"\bnan\b|\binf\b", out, re.I):
        return "nan or inf in the output"
    return None


def telemetry_sane(tree, proc):
    """A headless flight's output: finite, and the aircraft where an aircraft can be."""
    bad = no_traceback_finite(tree, proc)
    if bad:
        return bad
    for m in re.finditer(r"alt\s+(-?[0-9.]+) m\s+IAS\s+(-?[0-9.]+) km/h", proc.stdout):
        alt, ias = float(m.group(1)), float(m.group(2))
        if not (-500 < alt < 40000 and -50 < ias < 4000):
            return f"telemetry out of the physical world: alt {alt} m, IAS {ias} km/h"
    return None


# ------------------------------------------------------------------ the cases
def scenario_cases(tree: Path, rng: random.Random) -> list[Case]:
    out = []
    stock = sorted(p.stem for p in (tree / "scenarios").glob("*.toml"))

    def lists_all(tree, proc):
        missing = [s for s in stock if not re.search(rf"^{re.escape(s)}\s", proc.stdout, re.M)]
        return f"--list-scenarios lost {missing}" if missing else None

    for how in ("random", "latin1", "truncated", "empty", "directory", "flip"):
        out.append(Case("scenario", f"new scenario file: {how}, --list-scenarios", ["--list-scenarios"],
                        damage_bytes("scenarios/x.toml", how, 1, "scenarios/airfield.toml"), lists_all))
        out.append(Case("scenario", f"new scenario file: {how}, --aircraft p51d headless",
                        ["--aircraft", "p51d", "--headless-telemetry", "--seconds", "1"],
                        damage_bytes("scenarios/x.toml", how, 1, "scenarios/airfield.toml"), telemetry_sane))
    for s in rng.sample(stock, min(5, len(stock))):
        rel = f"scenarios/{s}.toml"
        for how in ("random", "latin1", "truncated", "unknown_key"):
            out.append(Case("scenario", f"{s}: {how}", ["--scenario", s, "--headless-telemetry", "--seconds", "1"],
                            damage_bytes(rel, how, 2), telemetry_sane))
        lines = number_lines((tree / rel).read_text(encoding="utf-8"))
        for ln in rng.sample(lines, min(4, len(lines))):
            v = rng.choice(BAD_NUMBERS)
            _, key = replace_number((tree / rel).read_text(encoding="utf-8"), ln, v)
            out.append(Case("scenario", f"{s}: {key} = {v}", ["--scenario", s, "--headless-telemetry", "--seconds", "1"],
                            damage_number(rel, ln, v), telemetry_sane))
    # the missile scenarios' loadouts (issue 35): each side's missiles and cartridges
    for s in ("f15c_bvr", "f15c_sidewinder"):
        rel = f"scenarios/{s}.toml"
        for line in ('missiles = ["aim120c", "aim9x"]', "missiles = 5", 'missiles = ["aim9m", 3]',
                     "missiles = [" + ", ".join(['"aim9m"'] * 40) + "]", "flares = -3", "flares = 2.5",
                     "chaff = 1e30", "chaff = nan", "seed = -1", 'seed = "x"'):
            key = line.split(" =")[0]
            for table in ("[combat]", "[opponent]"):
                if key == "seed" and table == "[opponent]":
                    continue
                out.append(Case("scenario", f"{s}: {table} {line[:40]}", ["--scenario", s, "--headless-telemetry",
                                                                         "--seconds", "1"],
                                replace_key(rel, table, key, line), telemetry_sane))
    return out


def replace_key(rel: str, table: str, key: str, line: str):
    """A scenario's ``key`` in ``table`` set by ``line`` (added where the table has none)."""
    def setup(tree, files):
        files.save(rel)
        p = tree / rel
        head, body = p.read_text(encoding="utf-8").split(table + "\n", 1)
        rows = body.split("\n")
        end = next((i for i, r in enumerate(rows) if r.startswith("[")), len(rows))
        rows = [r for i, r in enumerate(rows) if i >= end or not r.startswith(key + " =")]
        p.write_text(head + table + "\n" + line + "\n" + "\n".join(rows), encoding="utf-8")
    return setup


def aircraft_cases(tree: Path, rng: random.Random) -> list[Case]:
    out = []
    names = sorted(p.parent.name for p in (tree / "aircraft").glob("*/aircraft.toml"))
    for a in names:
        fly = ["--aircraft", a, "--headless-telemetry", "--seconds", "2"]
        rel = f"aircraft/{a}/aircraft.toml"
        for how in ("latin1", "random", "directory", "truncated"):
            out.append(Case("aircraft", f"{a}: aircraft.toml {how}", fly, damage_bytes(rel, how, 3), telemetry_sane))
        for how in ("random", "empty", "deleted", "latin1"):
            out.append(Case("aircraft", f"{a}: references.toml {how} (must still fly)", fly,
                            damage_bytes(f"aircraft/{a}/references.toml", how, 4), telemetry_sane, must_work=True))
        text = (tree / rel).read_text(encoding="utf-8")
        lines = number_lines(text)
        for ln in rng.sample(lines, min(10, len(lines))):
            v = rng.choice(("1e30", "1e30", "-1e30", "1e9", "0", "-1", "nan", "1e-9"))
            _, key = replace_number(text, ln, v)
            out.append(Case("aircraft", f"{a}: {key} = {v} (line {ln + 1})", fly, damage_number(rel, ln, v),
                            telemetry_sane))
        foils = sorted((tree / "aircraft" / a / "airfoils").glob("*.toml"))
        if foils:
            f = rng.choice(foils)
            frel = str(f.relative_to(tree))
            out.append(Case("aircraft", f"{a}: airfoil {f.name} latin1", fly, damage_bytes(frel, "latin1", 5),
                            telemetry_sane))
            out.append(Case("aircraft", f"{a}: airfoil {f.name} random", fly, damage_bytes(frel, "random", 5),
                            telemetry_sane))
            ftext = f.read_text(encoding="utf-8")
            # a coefficient inside a table row: a number in a list
            nums = [m for m in re.finditer(r"(?<=[\[, ])-?[0-9]+\.[0-9]+(?=[,\]])", ftext)]
            if nums:
                m = rng.choice(nums)

                def setup(tree, files, frel=frel, m=m):
                    files.save(frel)
                    p = tree / frel
                    t = p.read_text(encoding="utf-8")
                    p.write_text(t[:m.start()] + "1e30" + t[m.end():], encoding="utf-8")
                out.append(Case("aircraft", f"{a}: airfoil {f.name} coefficient 1e30", fly, setup, telemetry_sane))
    return out


def look_cases(tree: Path, rng: random.Random) -> list[Case]:
    """The look's files (visual.toml, liveries.toml, instruments.toml), through a headless frame."""
    out = []
    air = {"astir": "thermal", "p51d": "fighter_air", "spitfire": "spitfire_air", "bf109": "bf109_air",
           "f15c": "f15c_air"}
    for a, scenario in air.items():
        shot = ["--scenario", scenario, "--frames", "1", "--screenshot", "shot.png", "--quality", "low"]
        for f in ("visual", "liveries", "instruments"):
            rel = f"aircraft/{a}/{f}.toml"
            if not (tree / rel).exists():
                continue
            out.append(Case("look", f"{a}: {f}.toml random", shot, damage_bytes(rel, "random", 6)))
            text = (tree / rel).read_text(encoding="utf-8")
            lines = number_lines(text)
            if lines:
                ln = rng.choice(lines)
                v = rng.choice(("1e30", "-1e30", "nan"))
                _, key = replace_number(text, ln, v)
                out.append(Case("look", f"{a}: {f}.toml {key} = {v}", shot, damage_number(rel, ln, v)))
    return out


SETTINGS_GOOD = '# my own comment: keep the cockpit view\nview = "cockpit"\nvario_muted = true\n'


def settings_cases(tree: Path, rng: random.Random) -> list[Case]:
    out = []
    bad_lines = ['quality = "ultra"', 'view = 3', 'record_flights = "yes"', 'last_scenario = 12',
                 'unknown_setting = 1', 'liveries = 5', '[liveries]\np51d = 7', 'quality = nan']
    code = textwrap.dedent("""
        import os, sys
        from pathlib import Path
        from flightsim.app.settings import load_settings, save_settings, settings_path
        p = settings_path(); p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(TEXT, encoding="utf-8")
        s = load_settings()
        save_settings(s)               # what the window does at exit
        after = p.read_text(encoding="utf-8")
        backups = [q.name for q in p.parent.iterdir() if q.name.startswith("settings") and q.name != p.name]
        problems = []
        if s.view != "cockpit" or "cockpit" not in after:
            problems.append("the valid view = cockpit was lost")
        if s.vario_muted is not True:
            problems.append("the valid vario_muted = true was lost")
        if "my own comment" not in after:
            problems.append("the user's comment was lost")
        if not backups and after != TEXT:
            problems.append("the file was rewritten with no backup of the previous one")
        print("WRONG: " + "; ".join(problems) if problems else "FINE")
    """)
    for bl in bad_lines:
        text = SETTINGS_GOOD + bl + "\n" if not bl.startswith("[") else SETTINGS_GOOD + "\n" + bl + "\n"
        out.append(Case("settings", f"settings.toml with {bl!r}", ["-c", code.replace("TEXT", repr(text))],
                        runpy=False))
    for how, data in (("random bytes", "bytes(range(256)).decode('latin-1')"), ("truncated", "'view = \"coc'")):
        c = code.replace("TEXT", data).replace('problems.append("the valid view = cockpit was lost")', "pass") \
                .replace('problems.append("the valid vario_muted = true was lost")', "pass") \
                .replace('problems.append("the user\'s comment was lost")', "pass")
        c = c.replace('p.write_text(' + data + ', encoding="utf-8")', 'p.write_bytes((' + data + ').encode("latin-1"))')
        out.append(Case("settings", f"settings.toml {how}: kept as a backup", ["-c", c], runpy=False))
    # the game's own start with a bad settings file: it must not stop the game
    for bl in bad_lines[:3]:
        def setup(tree, files, bl=bl):
            cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "flightsim"
            cfg.mkdir(parents=True, exist_ok=True)
            (cfg / "settings.toml").write_text(SETTINGS_GOOD + bl + "\n")
        out.append(Case("settings", f"headless flight with settings {bl!r}", ["--headless-telemetry", "--seconds", "1"],
                        setup, telemetry_sane))
    return out


PROFILE = """[device]
name = "Fuzz Stick"
kind = "stick"

[axes.pitch]
axis = "y"
invert = false
deadzone = 0.03
expo = 0.2
centre = 0.0
min = -1.0
max = 1.0
"""


def profile_cases(tree: Path, rng: random.Random) -> list[Case]:
    out = []
    code = textwrap.dedent("""
        import math
        from pathlib import Path
        from flightsim.input.profiles import load_profile, ProfileError
        from flightsim.aircraft_data.schema import DataError
        p = Path("fuzz_profile.toml"); p.write_bytes(DATA)
        try:
            prof = load_profile(p)
        except (ProfileError, DataError) as e:
            msg = str(e)
            print("REFUSED: " + msg if "\\n" not in msg.strip() else "WRONG: a refusal of several lines")
        else:
            axes = list(prof.axes.values())
            nums = [v for ax in axes for v in vars(ax).values() if isinstance(v, float)]
            if not all(math.isfinite(v) for v in nums):
                print("WRONG: non-finite number accepted")
            elif not all(0 <= ax.deadzone < 1 and 0 <= ax.expo <= 1 and -1 <= ax.min < ax.max <= 1 for ax in axes):
                print("WRONG: a number outside its range accepted")
            else:
                print("FINE")
    """)
    for key in ("deadzone", "expo", "centre", "min", "max"):
        for v in ("nan", "inf", "-inf", "1e30", "-5", '"abc"'):
            data = re.sub(rf"^{key} = .*$", f"{key} = {v}", PROFILE, flags=re.M).encode()
            out.append(Case("profile", f"profile {key} = {v}", ["-c", code.replace("DATA", repr(data))], runpy=False))
    for how, data in (("random", bytes(random.Random(7).randrange(256) for _ in range(500))),
                      ("latin1", PROFILE.encode() + b"# \xe9\n"), ("empty", b""), ("no axes", b"[device]\nname='x'\n")):
        out.append(Case("profile", f"profile {how}", ["-c", code.replace("DATA", repr(data))], runpy=False))
    return out


def recording_cases(tree: Path, rng: random.Random) -> list[Case]:
    """A flight recorded once (--record), then damaged field by field."""
    out = []
    mk = textwrap.dedent("""
        import json, struct, sys, zlib, math
        from pathlib import Path
        import numpy as np
        from flightsim.recording import format as F
        src = Path(sys.argv[1]).read_bytes()
        n = struct.unpack_from("<I", src, len(F.MAGIC))[0]
        head = json.loads(src[len(F.MAGIC) + 4:len(F.MAGIC) + 4 + n])
        body = src[len(F.MAGIC) + 4 + n:]
        HOW = sys.argv[2]
        def blocks(b):
            at = 0
            while at + F.BLOCK.size <= len(b):
                kind, step, length, crc = F.BLOCK.unpack_from(b, at)
                yield kind, step, b[at + F.BLOCK.size:at + F.BLOCK.size + length]
                at += F.BLOCK.size + length
        def rebuild(fn):
            out = bytearray()
            for kind, step, payload in blocks(body):
                r = fn(kind, step, payload)
                if r is not None:
                    out += F.block(r[0], r[1], r[2])
            return bytes(out)
        if HOW.startswith("header:"):
            key, val = HOW[7:].split("=", 1)
            val = json.loads(val)
            if key.startswith("-"):
                head.pop(key[1:], None)
            elif key == "start_state[0]":
                head["start_state"][0] = val
            else:
                head[key] = val
            data = F.header_bytes(head) + body
        elif HOW == "date_bitflip":
            d = head.get("date", head.get("recorded", "2026-11-27T10:00:00"))
            k = "date" if "date" in head else ("recorded" if "recorded" in head else "date")
            s = str(d); head[k] = s[:5] + chr(ord(s[5]) ^ 0x04) + s[6:]
            data = F.header_bytes(head) + body
        elif HOW.startswith("controls="):
            v = float(HOW.split("=")[1])
            def f(kind, step, payload):
                if kind == b"C":
                    prev = np.array(head["start_controls"], float)
                    rows = F.decode_controls(payload, prev)
                    for r in rows[len(rows) // 2:]:
                        r[:4] = v
                    return kind, step, F.encode_controls(rows, prev)
                return kind, step, payload
            # the rows decode against the block before: re-encode all, each against its predecessor
            out = bytearray(); prev = np.array(head["start_controls"], float)
            for kind, step, payload in blocks(body):
                if kind == b"C":
                    rows = F.decode_controls(payload, prev)
                    new = [r.copy() for r in rows]
                    for r in new[len(new) // 2:]:
                        r[:4] = v
                    out += F.block(kind, step, F.encode_controls(new, prev)); prev = rows[-1]
                else:
                    out += F.block(kind, step, payload)
            data = F.header_bytes(head) + bytes(out)
        elif HOW == "event_without_kind":
            ev = json.dumps({"state": head["start_state"]}).encode()
            first = next(s for k, s, p in blocks(body) if k == b"C")
            data = F.header_bytes(head) + F.block(b"E", 5, ev) + body
        elif HOW == "event_garbage":
            data = F.header_bytes(head) + F.block(b"E", 5, b'{"kind": "reset", "state": "abc"}') + body
        elif HOW == "snapshot_nan":
            def f(kind, step, payload):
                if kind == b"S":
                    return kind, step, np.full(len(payload) // 8, np.nan).tobytes()
                return kind, step, payload
            data = F.header_bytes(head) + rebuild(f)
        elif HOW == "truncated":
            data = src[:len(src) * 2 // 3]
        elif HOW == "header_only":
            data = F.header_bytes(head)
        elif HOW == "random":
            import random; data = bytes(random.Random(3).randrange(256) for _ in range(4000))
        elif HOW == "magic_then_random":
            import random; data = F.MAGIC + bytes(random.Random(3).randrange(256) for _ in range(4000))
        elif HOW == "empty":
            data = b""
        elif HOW == "text":
            data = "view = 'chase'\\n".encode()
        elif HOW == "huge_header_length":
            data = F.MAGIC + struct.pack("<I", 0xFFFFFFF0) + b"{}"
        Path(sys.argv[3]).write_bytes(data)
    """)
    hows = ["date_bitflip", "header:dt_s=0", 'header:dt_s="abc"', "header:dt_s=-0.02", "header:dt_s=1e300",
            "header:start_state[0]=NaN", "header:start_state[0]=1e308", 'header:aircraft="nosuch"',
            'header:aircraft=5', 'header:scenario="nosuch"', "header:-start_state=null", "header:-code=null",
            "header:snapshot_every=0", "header:n_controls=3", 'header:small_world="yes"',
            "event_without_kind", "event_garbage", "snapshot_nan", "controls=NaN", "controls=1e300",
            "truncated", "header_only", "random", "magic_then_random", "empty", "text", "huge_header_length"]
    for how in hows:
        for action in (["--verify"], ["--export", "igc"], ["--export", "csv"], []):
            label = " ".join(action) or "replay"
            if how in ("random", "empty", "text", "huge_header_length", "magic_then_random") and action != ["--verify"]:
                if action not in ([], ["--export", "csv"]):
                    continue

            def setup(tree, files, how=how):
                base = tree / "fuzz_base.fsr"
                if not base.exists():
                    r = subprocess.run([sys.executable, str(tree / "run.py"), "--scenario", "fighter_air",
                                        "--headless-telemetry", "--seconds", "4", "--record", str(base)],
                                       cwd=tree, capture_output=True, text=True, timeout=120)
                    if r.returncode:
                        raise RuntimeError("could not record the base flight: " + r.stderr[-300:])
                (tree / "mk_rec.py").write_text(mk)
                r = subprocess.run([sys.executable, str(tree / "mk_rec.py"), str(base), how, str(tree / "bad.fsr")],
                                   cwd=tree, capture_output=True, text=True, timeout=60)
                if r.returncode:
                    raise RuntimeError("could not damage the recording: " + r.stderr[-300:])
                for p in tree.glob("bad.*"):
                    if p.suffix != ".fsr":
                        p.unlink()

            def check(tree, proc, action=action):
                bad = no_traceback_finite(tree, proc)
                if bad:
                    return bad
                for p in tree.glob("bad.*"):
                    if p.suffix in (".igc", ".csv") and re.search(r"\bnan\b|\binf\b", p.read_text(errors="replace"), re.I):
                        return f"{p.name} holds nan or inf"
                return None
            argv = ["-m", "flightsim.replay", "bad.fsr", *action]
            if action == []:
                argv = ["-m", "flightsim.replay", "bad.fsr", "--plot", "bad.png"]
                label = "--plot"
            out.append(Case("recording", f"{how}: {label}", argv, setup, check, runpy=False))
    return out


def cli_cases(tree: Path, rng: random.Random) -> list[Case]:
    out = []
    tel = ["--headless-telemetry", "--scenario", "fighter_air"]
    for opt, vals in (("--seconds", ("nan", "inf", "-1", "1e12", "abc")), ("--altitude-m", ("1e9", "nan", "-1e6", "inf")),
                      ("--width", ("-5", "0", "100000")), ("--height", ("-5", "0", "1e3")), ("--frames", ("-1", "1e9", "0"))):
        for v in vals:
            base = tel if opt in ("--seconds", "--altitude-m") else ["--screenshot", "shot.png"]
            if opt == "--frames" and v == "0":
                continue
            out.append(Case("cli", f"{opt} {v}", [*base, opt, v], check=telemetry_sane))
    for target in ("missing/dir/shot.png", "adir", "/proc/version", "shot.txt"):
        def setup(tree, files, target=target):
            (tree / "adir").mkdir(exist_ok=True)
        out.append(Case("cli", f"--screenshot {target}", ["--frames", "1", "--screenshot", target], setup))
    for target in ("missing/dir/x.fsr", "adir", "/proc/version", "/nonexistent/dir/x.fsr"):
        there = {}

        def setup(tree, files, target=target, there=there):
            (tree / "adir").mkdir(exist_ok=True)
            there["before"] = Path(target).parent.exists()

        def check(tree, proc, target=target, there=there):
            if target.startswith("/nonexistent") and Path(target).parent.exists() and not there.get("before"):
                shutil.rmtree("/nonexistent", ignore_errors=True)      # (the game's doing, undone)
                return f"created {Path(target).parent}"
            return telemetry_sane(tree, proc)
        out.append(Case("cli", f"--record {target}", [*tel, "--seconds", "1", "--record", target], setup, check))
    out.append(Case("cli", "--json | head -3", [*tel, "--seconds", "30", "--json"], stdin_pipe_head=3))
    out.append(Case("cli", "--list-scenarios | head -1", ["--list-scenarios"], stdin_pipe_head=1))
    out.append(Case("cli", "--aircraft nosuch", ["--aircraft", "nosuch", "--headless-telemetry"]))
    out.append(Case("cli", "--scenario nosuch", ["--scenario", "nosuch", "--headless-telemetry"]))
    out.append(Case("cli", "--aircraft ../../etc", ["--aircraft", "../../etc", "--headless-telemetry"]))
    out.append(Case("cli", "--aircraft astir --scenario fighter_air", ["--aircraft", "astir", "--scenario", "fighter_air",
                                                                       "--headless-telemetry", "--seconds", "1"]))
    for mod, args in (("flightsim.tunnel", ["climb", "p51d", "--altitude-m", "nan"]),
                      ("flightsim.tunnel", ["level", "p51d", "--mass-kg", "-5"]),
                      ("flightsim.tunnel", ["turn", "nosuch"]),
                      ("flightsim.validate", ["--aircraft", "nosuch"]),
                      ("flightsim.bench", ["--seconds", "nan"]),
                      ("flightsim.bench", ["--render-only", "--width", "-5"]),
                      ("flightsim.bench", ["--render-only", "--frames", "-1"]),
                      ("flightsim.replay", ["nosuch.fsr", "--verify"]),
                      ("flightsim.replay", ["adir", "--verify"])):
        def setup(tree, files):
            (tree / "adir").mkdir(exist_ok=True)
        out.append(Case("cli", f"python -m {mod} {' '.join(args)}", ["-m", mod, *args], setup, runpy=False))
    return out


CONTROL_CODE = textwrap.dedent("""
    import math, sys
    import numpy as np
    from flightsim.sim import Sim
    from flightsim.physics.named import CONTROL_INDEX
    s = Sim(AIRCRAFT)
    s.spawn_trimmed_level(TAS, 2000.0) if s.powered else s.spawn_trimmed_glide(TAS, 2000.0)
    c = s.controls
    try:
        for name in NAMES:
            setattr(c, name, VALUE)
        s.controls = c
        s.fly(5.0)
    except ValueError as e:
        print("REFUSED: " + str(e).splitlines()[0]); sys.exit(2)
    st = np.asarray(s.state)
    v = math.sqrt(sum(x * x for x in s.state[3:6])) if len(st) > 6 else 0.0
    if not np.all(np.isfinite(st)):
        print("REFUSED: state not finite, flagged" if s.nonfinite else "WRONG: a non-finite state not flagged")
        sys.exit(2 if s.nonfinite else 0)
    if s.tas_kmh > 5000 or abs(s.altitude_m) > 1e5:
        print(f"WRONG: TAS {s.tas_kmh:.3g} km/h, altitude {s.altitude_m:.3g} m, nonfinite={s.nonfinite}")
    else:
        print("FINE")
""")


def control_cases(tree: Path, rng: random.Random) -> list[Case]:
    out = []
    for ac, tas in (("p51d", 120.0), ("f15c", 200.0), ("astir", 30.0)):
        groups = [("all", "list(CONTROL_INDEX)"), ("pitch", "['pitch']"), ("throttle", "['throttle']"),
                  ("roll,yaw", "['roll', 'yaw']")]
        for gname, names in groups:
            for v in ("float('nan')", "float('inf')", "-1e9", "1e300", "-float('inf')"):
                if gname != "all" and v in ("-float('inf')",):
                    continue
                code = CONTROL_CODE.replace("AIRCRAFT", repr(ac)).replace("TAS", str(tas)) \
                    .replace("NAMES", names).replace("VALUE", v)
                out.append(Case("controls", f"{ac}: {gname} = {v}", ["-c", code], runpy=False))
    return out


GYM_CODE = textwrap.dedent("""
    import math, sys
    import numpy as np
    import gymnasium as gym
    import flightsim.gym
    env = gym.make(ENV)
    obs, info = env.reset(seed=1)
    try:
        for i in range(20):
            obs, r, term, trunc, info = env.step(ACTION)
            if term or trunc:
                break
    except (ValueError, gym.error.Error) as e:
        print("REFUSED: " + str(e).splitlines()[0]); sys.exit(2)
    if not np.all(np.isfinite(obs)) or not math.isfinite(r):
        print("WRONG: non-finite observation or reward"); sys.exit(0)
    bad_action = not np.all(np.isfinite(np.asarray(ACTION, dtype=float)))
    if bad_action and not (term or trunc):
        print("WRONG: a non-finite action flew on"); sys.exit(0)
    if bad_action and not any(isinstance(v, str) and ("nan" in v.lower() or "finite" in v.lower()) for v in info.values()):
        print(f"WRONG: ended with no reason in info ({info})"); sys.exit(0)
    print("FINE")
""")


def gym_cases(tree: Path, rng: random.Random) -> list[Case]:
    out = []
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        return out
    for env in ("flightsim/Glide-v0", "flightsim/Dogfight-v0"):
        for label, action in (("nan", "np.full(env.action_space.shape, np.nan)"),
                              ("inf", "np.full(env.action_space.shape, np.inf)"),
                              ("1e30", "np.full(env.action_space.shape, 1e30)"),
                              ("wrong shape (1,)", "np.zeros(1)"), ("wrong shape (50,)", "np.zeros(50)"),
                              ("scalar", "0.5"), ("string", "'abc'"), ("2-d", "np.zeros((2,) + env.action_space.shape)")):
            code = GYM_CODE.replace("ENV", repr(env)).replace("ACTION", action)
            out.append(Case("gym", f"{env} action {label}", ["-c", code], runpy=False))
    return out


def weapons_cases(tree: Path, rng: random.Random) -> list[Case]:
    """The missiles' data files (weapons/<id>/missile.toml) damaged, and the weapons tool's values."""
    out = []

    def sane_envelope(tree, proc):
        bad = no_traceback_finite(tree, proc)
        if bad:
            return bad
        try:
            r = json.loads(proc.stdout)
        except ValueError:
            return "not one JSON object"
        if not 0.0 <= r["rmin_km"] <= r["rmax_head_on_km"] < 1000.0:
            return f"ranges out of the physical world: {r}"
        return None
    names = sorted(p.parent.name for p in (tree / "weapons").glob("*/missile.toml"))
    for w in names:
        env = ["-m", "flightsim.weapons", "envelope", "--weapon", w, "--altitude-m", "5000", "--launch-mach", "0.9",
               "--target-mach", "0.9", "--json"]
        rel = f"weapons/{w}/missile.toml"
        for how in ("latin1", "random", "directory", "truncated", "empty", "flip", "unknown_key", "deleted"):
            out.append(Case("weapons", f"{w}: missile.toml {how}", env, damage_bytes(rel, how, 6), sane_envelope,
                            runpy=False))
        text = (tree / rel).read_text(encoding="utf-8")
        lines = number_lines(text)
        for ln in rng.sample(lines, min(12, len(lines))):
            v = rng.choice(BAD_NUMBERS)
            _, key = replace_number(text, ln, v)
            out.append(Case("weapons", f"{w}: {key} = {v} (line {ln + 1})", env, damage_number(rel, ln, v),
                            sane_envelope, runpy=False))
    for opt, vals in (("--altitude-m", ("nan", "-1e9", "1e9", "abc")), ("--launch-mach", ("nan", "-1", "9", "inf")),
                      ("--target-mach", ("nan", "-0.5", "1e9")), ("--target-g", ("0", "nan", "100"))):
        for v in vals:
            args = {"--altitude-m": "5000", "--launch-mach": "0.9", "--target-mach": "0.9"}
            args[opt] = v
            argv = ["-m", "flightsim.weapons", "envelope", "--weapon", "aim9m", "--json"]
            for k, x in args.items():
                argv += [k, x]
            out.append(Case("weapons", f"envelope {opt} {v}", argv, check=sane_envelope, runpy=False))
    for w in ("nope", "../aircraft/p51d", ""):
        out.append(Case("weapons", f"envelope --weapon {w!r}", ["-m", "flightsim.weapons", "envelope", "--weapon", w,
                                                               "--altitude-m", "1000", "--launch-mach", "0.8",
                                                               "--target-mach", "0.8"], runpy=False))
        out.append(Case("weapons", f"validate --weapon {w!r}", ["-m", "flightsim.weapons", "validate", "--weapon", w],
                        runpy=False))
    return out


KINDS = {"scenario": scenario_cases, "aircraft": aircraft_cases, "look": look_cases, "settings": settings_cases,
         "profile": profile_cases, "recording": recording_cases, "cli": cli_cases, "controls": control_cases,
         "gym": gym_cases, "weapons": weapons_cases}


# ------------------------------------------------------------------ running and judging
def judge(case: Case, tree: Path, proc, timed_out: bool) -> tuple[str, str]:
    if timed_out:
        return "failure", f"no answer in {TIMEOUT_S:.0f} s"
    err = proc.stderr or ""
    out = proc.stdout or ""
    if "Traceback (most recent call last)" in err or "Traceback (most recent call last)" in out:
        last = [line for line in err.splitlines() if line.strip()][-1:] or ["?"]
        return "failure", "traceback: " + last[0][:200]
    if case.stdin_pipe_head:
        return ("fine", "") if proc.returncode in (0, 141, -13, 120) or not err.strip() else ("failure", err[-200:])
    last = [line for line in out.splitlines() if line.strip()][-1:]
    if last and last[0].startswith("WRONG"):
        return "failure", last[0][:200]
    if last and last[0].startswith("REFUSED"):
        return "refused", last[0][9:200]
    if proc.returncode == 0:
        problem = case.check(tree, proc) if case.check else None
        return ("failure", "exit 0 but " + problem) if problem else ("fine", "")
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("  ", "compiling", "preparing"))]
    if case.must_work:
        return "failure", f"refused, where it must work: {(lines or ['?'])[-1][:200]}"
    if not lines:
        return "failure", f"exit {proc.returncode} with nothing said"
    return "refused", lines[-1][:200]


def run_case(case: Case, tree: Path, env: dict) -> None:
    files = Files(tree)
    t0 = time.perf_counter()
    try:
        if case.setup:
            case.setup(tree, files)
        cmd = [sys.executable, str(tree / "run.py"), *case.argv] if case.runpy else [sys.executable, *case.argv]
        if case.stdin_pipe_head:
            shell = " ".join(_q(x) for x in cmd) + f" | head -n {case.stdin_pipe_head} >/dev/null"
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", shell], cwd=tree, env=env, capture_output=True,
                                  text=True, timeout=TIMEOUT_S)
        else:
            proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=TIMEOUT_S,
                                  stdin=subprocess.DEVNULL)
        case.result, case.detail = judge(case, tree, proc, False)
    except subprocess.TimeoutExpired:
        case.result, case.detail = judge(case, tree, None, True)
    except Exception as e:               # the harness's own trouble: say so, never count it as the game's
        case.result, case.detail = "harness", f"{type(e).__name__}: {e}"
    finally:
        files.restore()
        for p in ("adir", "shot.png", "shot.txt", "missing", "bad.fsr", "bad.igc", "bad.csv", "bad.png"):
            q = tree / p
            if q.is_dir():
                shutil.rmtree(q, ignore_errors=True)
            elif q.exists():
                q.unlink()
        cfg = Path(env["XDG_CONFIG_HOME"])
        shutil.rmtree(cfg, ignore_errors=True)
        cfg.mkdir(parents=True, exist_ok=True)
    case.seconds = time.perf_counter() - t0


def _q(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/fuzz.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", choices=sorted(KINDS), default=None)
    ap.add_argument("--json", action="store_true", help="every case as JSON (the tally last)")
    ap.add_argument("--list", action="store_true", help="list the cases, run none")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--root", type=Path, default=HERE, help="the checkout to fuzz (default: this one)")
    ap.add_argument("--match", default=None, help="only cases whose name contains this")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="flightsim-fuzz-"))
    tree = work / "tree"
    copy_tree(args.root.resolve(), tree)
    env = dict(os.environ, XDG_CONFIG_HOME=str(work / "config"), PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")
    env.pop("DISPLAY", None)
    os.environ["XDG_CONFIG_HOME"] = env["XDG_CONFIG_HOME"]
    (work / "config").mkdir()
    # each kind draws from its own generator: the same cases whichever kinds run (a tally before
    # a change and one after compare case by case)
    cases = [c for k in (args.only or KINDS) for c in KINDS[k](tree, random.Random(f"{args.seed}-{k}"))]
    if args.match:
        cases = [c for c in cases if args.match in c.name]
    if args.list:
        for c in cases:
            print(f"{c.kind:10s} {c.name}")
        print(f"{len(cases)} cases")
        shutil.rmtree(work, ignore_errors=True)
        return 0
    # compile once before the clock starts (the copy's kernels are its own)
    subprocess.run([sys.executable, str(tree / "run.py"), "--headless-telemetry", "--seconds", "0.1"], cwd=tree,
                   env=env, capture_output=True, timeout=600)
    tally = {}
    for i, c in enumerate(cases):
        run_case(c, tree, env)
        tally.setdefault(c.kind, {"tries": 0, "refused": 0, "fine": 0, "failure": 0, "harness": 0})
        tally[c.kind]["tries"] += 1
        tally[c.kind][c.result] += 1
        if args.json:
            print(json.dumps({"kind": c.kind, "case": c.name, "result": c.result, "detail": c.detail,
                              "seconds": round(c.seconds, 1)}), flush=True)
        else:
            mark = {"refused": "ok ", "fine": "ok ", "failure": "BAD", "harness": "?? "}[c.result]
            print(f"{mark} {i + 1:3d} {c.kind:9s} {c.result:8s} {c.name}" + (f"  -- {c.detail}" if c.detail else ""),
                  flush=True)
    total = {k: sum(t[k] for t in tally.values()) for k in ("tries", "refused", "fine", "failure", "harness")}
    if args.json:
        print(json.dumps({"tally": tally, "total": total}))
    else:
        print()
        for k, t in tally.items():
            print(f"{k:10s} {t['tries']:4d} tries  {t['refused']:4d} refused  {t['fine']:4d} fine  "
                  f"{t['failure']:4d} failures" + (f"  {t['harness']} harness errors" if t["harness"] else ""))
        print(f"{'total':10s} {total['tries']:4d} tries  {total['refused']:4d} refused  {total['fine']:4d} fine  "
              f"{total['failure']:4d} failures")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if total["failure"] or total["harness"] else 0


if __name__ == "__main__":
    sys.exit(main())
