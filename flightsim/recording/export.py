"""A recorded flight re-simulated into a table, and written as IGC (FAI flight recorder
format, for SeeYou, XCSoar, WeGlide), Tacview ACMI 2.2 text (every aircraft, bullets and
balloons) or CSV (every telemetry column); and seed 004's evaluation plot.

The world is flat NED metres around the scenario's origin; on the globe it sits at the
scenario's ``[world] origin_lat_deg / origin_lon_deg`` (default: Lasham airfield, UK), each
north/east metre turned into latitude/longitude on the WGS-84 ellipsoid's local radii.
Pressure altitude is the ISA altitude the model flies in, which is also its geometric
altitude: IGC's pressure and GNSS altitudes are the same number here.

The re-simulation compares the recording's snapshots as it passes them (the table's
``verdict``), so a caller can refuse to export a flight that does not replay as recorded; a
row holding a number that is not finite is never written (``finite_rows``, ``not_finite``).
Where the output goes is checked before any of it (``check_output``).
"""
from __future__ import annotations

import csv
import datetime as _dt
import math
from pathlib import Path

import numpy as np

from ..physics.named import AircraftView
from ..world.geodesy import DEFAULT_ORIGIN, ned_to_latlon
from .format import Recording
from .replay import SnapshotCheck, resimulate

TABLE_COLUMNS = ("t_s", "north_m", "east_m", "altitude_m", "lat_deg", "lon_deg", "ias_kmh", "tas_kmh",
                 "vertical_speed_ms", "nz_g", "roll_deg", "pitch_deg", "heading_deg", "alpha_deg", "beta_deg",
                 "height_agl_m", "engine_rpm", "stalled_sections", "on_ground")


def origin_of(rec: Recording) -> tuple[float, float]:
    from ..world.scenario import find_scenario
    try:
        w = find_scenario(rec.header["scenario"]).world
        return float(w.get("origin_lat_deg", DEFAULT_ORIGIN[0])), float(w.get("origin_lon_deg", DEFAULT_ORIGIN[1]))
    except Exception:
        return DEFAULT_ORIGIN


def flight_table(rec: Recording, check_versions: bool = True, combat_every: int = 5) -> dict:
    """Re-simulate: {column: array over the steps} (TABLE_COLUMNS; row i is the state after
    step i + 1), and every ``combat_every`` steps the combat's frame (the opponent, bullets,
    balloons) for ACMI, as (steps done, frame); ``verdict``: the snapshots compared on the way
    (replay.Verdict, as --verify's but flown to the end)."""
    rows, frames = [], []
    check = SnapshotCheck(rec)
    for k, world in resimulate(rec, check_versions=check_versions):
        check.see(k, world.physics.state)
        a = AircraftView(world.physics.state, world.physics.diag, rec.dt_s)
        n, e, _ = a.position_ned_m
        roll, pitch, heading = a.euler_deg
        rows.append((k * rec.dt_s, n, e, a.altitude_m, 0.0, 0.0, a.ias_kmh, a.tas_kmh, a.vertical_speed_ms, a.nz_g,
                     roll, pitch, heading % 360.0, a.alpha_deg, a.beta_deg, a.height_agl_m, a.engine_rpm,
                     a.stalled_sections, a.gear_on_ground))
        combat = getattr(world, "combat", None)
        if combat is not None and k % combat_every == 0 and combat.frame is not None:
            frames.append((k, combat.frame))            # keyed by the steps done
    arr = np.array(rows, dtype=np.float64).reshape(-1, len(TABLE_COLUMNS))
    table = {name: arr[:, i] for i, name in enumerate(TABLE_COLUMNS)}
    table["lat_deg"], table["lon_deg"] = ned_to_latlon(table["north_m"], table["east_m"], origin_of(rec))
    table["combat_frames"] = frames
    table["verdict"] = check.verdict()
    return table


def finite_rows(table: dict) -> np.ndarray:
    """Which rows hold finite numbers in every column (the writers leave the others out)."""
    cols = np.array([np.asarray(table[c], dtype=np.float64) for c in TABLE_COLUMNS]).reshape(len(TABLE_COLUMNS), -1)
    return np.isfinite(cols).all(axis=0)


def not_finite(table: dict) -> str | None:
    """What in the table is not a finite number, in words (None: nothing)."""
    ok = finite_rows(table)
    if ok.all():
        return None
    bad = [c for c in TABLE_COLUMNS if not np.isfinite(np.asarray(table[c], dtype=np.float64)).all()]
    first = int(np.flatnonzero(~ok)[0])
    return (f"{int((~ok).sum())} of {len(ok)} rows of the re-simulated flight are not finite numbers "
            f"({', '.join(bad[:4])}{', ...' if len(bad) > 4 else ''}; the first after step {first + 1})")


def check_output(out, option: str, source=None, plot: bool = False) -> Path:
    """``out`` if the export (or a ``plot``) can be written there, checked before any work:
    paths.check_output's checks (its folder exists, none is made; not a folder; writable), and
    it is not the recording ``source`` itself, and a plot's suffix is a format matplotlib
    writes. paths.OutputPathError otherwise, one line naming ``option`` and the path."""
    from ..paths import OutputPathError
    from ..paths import check_output as check_path
    p = check_path(out, option)
    if source is not None and p.exists() and p.resolve() == Path(source).resolve():
        raise OutputPathError(option, out, "is the recording itself: name another file")
    if plot and p.suffix and p.suffix[1:].lower() not in plot_formats():
        raise OutputPathError(option, out, f"a plot is written as {', '.join(sorted(plot_formats()))}, "
                                           f"not {p.suffix[1:]!r}")
    return p


def _start_time(rec: Recording) -> _dt.datetime:
    return _dt.datetime.fromisoformat(rec.header["created_utc"]).astimezone(_dt.timezone.utc)


def _igc_angle(value: float, degree_digits: int, pos: str, neg: str) -> str:
    hemi = pos if value >= 0 else neg
    v = abs(value)
    deg = int(v)
    minutes_thousandths = int(round((v - deg) * 60000.0))
    if minutes_thousandths == 60000:
        deg, minutes_thousandths = deg + 1, 0
    return f"{deg:0{degree_digits}d}{minutes_thousandths:05d}{hemi}"


def _igc_alt(m: float) -> str:
    v = int(round(m))
    return f"{v:05d}" if v >= 0 else f"-{abs(v):04d}"


def write_igc(rec: Recording, table: dict, out: Path) -> None:
    """FAI IGC: A and H records, then B fixes at 1 s (pressure and GNSS altitude).

    Written here, not with aerofiles' IGC writer, on purpose: the tests read every exported
    file back with aerofiles' reader (tests/recording), an implementation independent of this
    one; written and read by the same library, the check would only test that library against
    itself. It also keeps the game's own dependencies to the five it needs to fly."""
    start = _start_time(rec)
    h = rec.header
    lines = ["AXFSFLIGHTSIM",
             f"HFDTEDATE:{start:%d%m%y},01",
             "HFPLTPILOTINCHARGE:flightsim pilot",
             "HFCM2CREW2:NIL",
             f"HFGTYGLIDERTYPE:{h['aircraft_name']}",
             f"HFGIDGLIDERID:FS-{h['aircraft'].upper()}",
             "HFDTMGPSDATUM:WGS84",
             f"HFRFWFIRMWAREVERSION:format {h['format']}",
             "HFRHWHARDWAREVERSION:flightsim",
             "HFFTYFRTYPE:flightsim,simulator",
             "HFGPSRECEIVER:flightsim,simulated,12ch,20000",
             "HFPRSPRESSALTSENSOR:flightsim,ISA,20000",
             "HFALGALTGPS:GEO",
             "HFALPALTPRESSURE:ISA"]
    per_s = int(round(1.0 / rec.dt_s))
    t, lat, lon, alt = table["t_s"], table["lat_deg"], table["lon_deg"], table["altitude_m"]
    ok = finite_rows(table)
    for i in range(per_s - 1, len(t), per_s):
        if not ok[i]:
            continue
        when = start + _dt.timedelta(seconds=float(t[i]))
        lines.append(f"B{when:%H%M%S}{_igc_angle(lat[i], 2, 'N', 'S')}{_igc_angle(lon[i], 3, 'E', 'W')}A"
                     f"{_igc_alt(alt[i])}{_igc_alt(alt[i])}")
    out.write_text("\r\n".join(lines) + "\r\n")


def write_csv(rec: Recording, table: dict, out: Path) -> None:
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(TABLE_COLUMNS)
        cols = [table[c] for c in TABLE_COLUMNS]
        for row, ok in zip(zip(*cols), finite_rows(table)):
            if not ok:
                continue
            w.writerow([f"{v:.6f}" if isinstance(v, float) else v for v in (float(x) for x in row)])


def _acmi_t(lat, lon, alt, roll=None, pitch=None, yaw=None) -> str:
    base = f"{lon:.7f}|{lat:.7f}|{alt:.1f}"
    return base if roll is None else f"{base}|{roll:.1f}|{pitch:.1f}|{yaw:.1f}"


def write_acmi(rec: Recording, table: dict, out: Path) -> None:
    """Tacview ACMI 2.2 text: the player at every 0.1 s, the opponent, bullets and balloons, missiles,
    flares and chaff, and the missiles' warheads as they go off."""
    from ..physics.quat import euler_from_quat
    h = rec.header
    origin = origin_of(rec)
    start = _start_time(rec)
    lines = ["FileType=text/acmi/tacview", "FileVersion=2.2",
             f"0,ReferenceTime={start:%Y-%m-%dT%H:%M:%SZ}",
             f"0,Title={h['aircraft_name']} in {h.get('scenario_name', h['scenario'])}",
             "0,DataSource=flightsim"]
    frames = dict(table["combat_frames"])
    step = max(1, int(round(0.1 / rec.dt_s)))         # (a multiple of flight_table's combat_every)
    t = table["t_s"]
    live_bullets: set = set()
    live_weapons: set = set()
    bursts = [0]                                      # warheads written so far (their ids)
    opp_visible = False
    ok = finite_rows(table)
    named = False
    for i in range(step - 1, len(t), step):
        if not ok[i]:
            continue
        lines.append(f"#{t[i]:.2f}")
        player = _acmi_t(table["lat_deg"][i], table["lon_deg"][i], table["altitude_m"][i],
                         table["roll_deg"][i], table["pitch_deg"][i], table["heading_deg"][i])
        extra = "" if named else f",Type=Air+FixedWing,Name={h['aircraft_name']},Pilot=Player,Color=Blue"
        named = True
        lines.append(f"1,T={player}{extra}")
        fr = frames.get(i + 1)                        # row i is the state after step i + 1
        if fr is None:
            continue
        o = fr.opponent
        if o is not None and o.visible:
            la, lo = ned_to_latlon(o.position_ned_m[0], o.position_ned_m[1], origin)
            r, p, y = (math.degrees(v) for v in euler_from_quat(o.quat_wxyz))
            tag = "" if opp_visible else ",Type=Air+FixedWing,Name=AI fighter,Pilot=AI,Color=Red"
            lines.append(f"2,T={_acmi_t(float(la), float(lo), -o.position_ned_m[2], r, p, y % 360.0)}{tag}")
            opp_visible = True
        elif opp_visible:
            lines.append("-2")
            opp_visible = False
        now = set()
        for j, b in enumerate(fr.bullets[:400]):          # the nearest part of a burst is enough to see it
            oid = 1000 + j
            la, lo = ned_to_latlon(b[0], b[1], origin)
            tag = "" if oid in live_bullets else ",Type=Weapon+Projectile+Bullet,Color=Yellow"
            lines.append(f"{oid:x},T={_acmi_t(float(la), float(lo), -b[2])}{tag}")
            now.add(oid)
        for oid in sorted(live_bullets - now):
            lines.append(f"-{oid:x}")
        live_bullets = now
        for j, s in enumerate(fr.targets):
            oid = 100 + j
            if s[4] > 0.5:
                la, lo = ned_to_latlon(s[0], s[1], origin)
                lines.append(f"{oid:x},T={_acmi_t(float(la), float(lo), -s[2])},Type=Air+Static,Name=Balloon,"
                             f"Radius={s[3]:.1f}")
        live_weapons = _acmi_weapons(fr, origin, live_weapons, lines, step * rec.dt_s, bursts)
    out.write_text("\n".join(lines) + "\n")


def _acmi_weapons(fr, origin, live: set, lines: list, interval_s: float, bursts: list) -> set:
    """The frame's missiles (Weapon+Missile, the shooter's colour) and flares and chaff
    (Misc+Decoy+Flare / Chaff) as Tacview objects, named the first time, removed when gone; ids from
    their serial numbers (0x10000 up: clear of the aircraft, balloons and bullets). A warhead that
    went off since the last frame written (``interval_s`` ago) is a Misc+Explosion for one frame
    (ids 0x100000 up, ``bursts[0]`` counting them)."""
    now = set()
    for point, kind, age in fr.hits:
        if kind not in ("burst", "ground") or point is None or age >= interval_s:
            continue
        oid = 0x100000 + bursts[0]
        bursts[0] += 1
        la, lo = ned_to_latlon(point[0], point[1], origin)
        lines.append(f"{oid:x},T={_acmi_t(float(la), float(lo), -point[2])},Type=Misc+Explosion,"
                     f"Radius={12.0 if kind == 'burst' else 20.0:.0f}")
        now.add(oid)
    for m, name in zip(fr.missiles, fr.missile_names):
        oid = 0x10000 + int(m[8])
        la, lo = ned_to_latlon(m[0], m[1], origin)
        v = m[3:6]
        yaw = math.degrees(math.atan2(v[1], v[0])) % 360.0
        pitch = math.degrees(math.atan2(-v[2], math.hypot(v[0], v[1])))
        tag = "" if oid in live else (f",Type=Weapon+Missile,Name={name},"
                                      f"Color={'Blue' if int(m[7]) == 0 else 'Red'}")
        lines.append(f"{oid:x},T={_acmi_t(float(la), float(lo), -m[2], 0.0, pitch, yaw)}{tag}")
        now.add(oid)
    for d in fr.decoys:
        oid = 0x10000 + int(d[5])
        la, lo = ned_to_latlon(d[0], d[1], origin)
        tag = "" if oid in live else f",Type=Misc+Decoy+{'Flare' if d[3] < 0.5 else 'Chaff'}"
        lines.append(f"{oid:x},T={_acmi_t(float(la), float(lo), -d[2])}{tag}")
        now.add(oid)
    for oid in sorted(live - now):
        lines.append(f"-{oid:x}")
    return now


def export(rec: Recording, table: dict, fmt: str, out) -> None:
    out = Path(out)
    {"igc": write_igc, "csv": write_csv, "acmi": write_acmi}[fmt](rec, table, out)


def plot_formats() -> set[str]:
    """The file suffixes a plot can be written as."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    return set(FigureCanvasAgg.get_supported_filetypes())


def plot(rec: Recording, table: dict, out) -> None:
    """Seed 004's evaluation figure: altitude, airspeed, vario and load factor against time."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = table["t_s"]
    fig, axes = plt.subplots(4, 1, figsize=(9, 9), sharex=True)
    for ax, (col, label) in zip(axes, (("altitude_m", "altitude, m"), ("ias_kmh", "IAS, km/h"),
                                       ("vertical_speed_ms", "vario, m/s"), ("nz_g", "load factor, g"))):
        ax.plot(t, table[col], lw=0.9)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("time, s")
    axes[0].set_title(f"{rec.header['aircraft_name']} in {rec.header.get('scenario_name', rec.header['scenario'])}")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
