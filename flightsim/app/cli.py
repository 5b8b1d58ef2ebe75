"""flightsim's command line: the game window (default), headless screenshots, headless flight.

    python run.py                                  window 1280x720: the menu (choose a scenario)
    python run.py --scenario winch                 window, flying that scenario at once
    python run.py --frames 60 --screenshot a.png   render offscreen (no display), write a PNG
    python run.py --headless-telemetry             fly without graphics, print telemetry
    python run.py --text                           seed 001's text-mode simulator in the terminal
    python run.py --multiplayer --dis-listen PORT --dis-send HOST:PORT[,HOST:PORT...] [--callsign NAME] [--exercise N]
                                                   fly with others over DIS (window or --headless-telemetry)

Each mode lives in its own module (window, headless, telemetry); this one only reads the
arguments and picks one, importing nothing of pyglet before it must.
"""
from __future__ import annotations

import argparse
import sys

from ..commands import quiet_closed_pipe

TEXT_SCENARIO = "c172_circuits"        # what --text flies when nothing else is named


def parser():
    from ..arg_types import ALTITUDE_M, FRAMES, SECONDS, WINDOW_PX
    from ..input.bindings import KEY_PROFILES
    from ..render.camera import VIEWS
    ap = argparse.ArgumentParser(prog="python run.py", description="flightsim")
    ap.add_argument("--aircraft", default=None, help="aircraft in aircraft/ (default: the scenario's)")
    ap.add_argument("--scenario", default=None,
                    help="a scenario in scenarios/ (--list-scenarios), or glider / fighter for each kind's default; "
                         "without it the window opens the menu over the --aircraft's own kind's default scenario, "
                         "else over the last scenario flown (else airfield), and headless runs fly that one")
    ap.add_argument("--list-scenarios", action="store_true", help="print one line per scenario and exit")
    ap.add_argument("--names-only", action="store_true", help="with --list-scenarios: just the names")
    ap.add_argument("--view", default=None, choices=VIEWS, help="default: the last view used (else chase)")
    ap.add_argument("--width", type=WINDOW_PX, default=1280)
    ap.add_argument("--height", type=WINDOW_PX, default=720)
    ap.add_argument("--quality", default=None, choices=("auto", "low", "medium", "high"),
                    help="default: as last time (else auto)")
    ap.add_argument("--frames", type=FRAMES, default=None, help="render N frames offscreen and exit (with --screenshot)")
    ap.add_argument("--screenshot", default=None, help="PNG to write after --frames frames")
    ap.add_argument("--menu", action="store_true", help="with --screenshot: draw the start menu over the scene")
    ap.add_argument("--headless-telemetry", action="store_true", help="no graphics: fly and print telemetry")
    ap.add_argument("--text", action="store_true",
                    help="seed 001's text-mode simulator: fly in the terminal (curses; Flight Simulator II's keys)")
    ap.add_argument("--keys", default=None, choices=KEY_PROFILES,
                    help="the window's keyboard layout: standard, or fs2 (Flight Simulator II's step keys; "
                         "default: the last one used)")
    ap.add_argument("--seconds", type=SECONDS, default=60.0, help="telemetry: simulated seconds to fly")
    ap.add_argument("--pilot", default="none", choices=("none", "auto"),
                    help="telemetry: none = hands off (the trimmed start's controls held), auto = the scenario's "
                         "own autopilot (winch launch, thermalling, circuit and landing, cruise, take-off)")
    ap.add_argument("--altitude-m", type=ALTITUDE_M, default=None,
                    help="telemetry: move an air start to this altitude (m above sea level)")
    ap.add_argument("--realtime", action="store_true", help="telemetry: pace the steps to the wall clock")
    ap.add_argument("--json", action="store_true", help="telemetry as JSON lines")
    ap.add_argument("--record", metavar="FILE", default=None,
                    help="telemetry: record the flight to FILE (replay, verify, export: python -m flightsim.replay)")
    mp = ap.add_argument_group("multiplayer (DIS, IEEE 1278.1; window and --headless-telemetry)")
    mp.add_argument("--multiplayer", action="store_true",
                    help="fly with other players: our aircraft goes out as DIS Entity State PDUs, theirs come in")
    mp.add_argument("--dis-listen", metavar="PORT", type=int, default=None, help="UDP port to listen on (default 3000)")
    mp.add_argument("--dis-send", metavar="HOST:PORT[,HOST:PORT...]", default="",
                    help="the peers to send to: unicast addresses, a broadcast address (192.168.1.255:3000) or a "
                         "multicast group (239.255.36.1:3000, joined to listen too)")
    mp.add_argument("--callsign", default=None, help="our DIS marking, 1-11 ASCII characters (default PILOT)")
    mp.add_argument("--exercise", type=int, default=None, help="DIS exercise id 1-255 (default 1): only its PDUs are read")
    mp.add_argument("--side", default=None, choices=("blue", "red"),
                    help="a team dogfight's side (default blue): red starts 8 km ahead, head-on")
    return ap


def net_config(args):
    """The multiplayer options as a NetConfig, or None without --multiplayer (BadNetConfig: one
    line saying which option and why)."""
    from ..net.session import BadNetConfig, NetConfig
    given = [o for o, v in (("--dis-listen", args.dis_listen), ("--dis-send", args.dis_send or None),
                            ("--callsign", args.callsign), ("--exercise", args.exercise), ("--side", args.side))
             if v is not None]
    if not args.multiplayer:
        if given:
            raise BadNetConfig(f"{given[0]} needs --multiplayer")
        return None
    if args.text or args.frames is not None or args.screenshot:
        raise BadNetConfig("--multiplayer flies in the window or with --headless-telemetry, not with "
                           + ("--text" if args.text else "--frames/--screenshot"))
    return NetConfig.parse(args.dis_listen, args.dis_send, args.callsign, args.exercise, side=args.side)


def list_scenarios(names_only: bool) -> int:
    from ..aircraft_data.schema import DataError
    from ..world.scenario import load_scenario, scenario_paths
    for p in scenario_paths():
        if names_only:
            print(p.stem)
            continue
        try:
            sc = load_scenario(p)
            tag = f" [default {sc.kind}]" if sc.default else ""
            print(f"{sc.name:16s} {sc.kind:8s} {sc.aircraft:6s} {sc.description}{tag}")
        except DataError as e:
            print(f"{p.stem:16s} (refused: {e})")
    return 0


def resolve_scenario(args) -> None:
    """Settle what to fly before anything is built: ``args.scenario`` becomes a scenario name
    (--scenario; else --aircraft's own kind's default scenario, so ``--aircraft p51d`` alone opens
    the fighter; else the last one flown; else the default) and ``args.open_menu`` whether the
    window opens on the menu (no --scenario given). Unknown names raise DataError, an aircraft
    that cannot fly the scenario UnsuitableAircraft (nothing compiled yet: only the files read)."""
    from ..aircraft_data.loader import load_aircraft
    from ..world.scenario import DEFAULT_SCENARIO, SCENARIO_KIND_OF, all_scenarios, find_scenario, plan_start, scenario_names
    from .settings import load_settings
    args.open_menu = args.scenario is None
    spec = load_aircraft(args.aircraft) if args.aircraft else None
    if args.scenario is not None:
        sc = find_scenario(args.scenario)
    elif spec is not None:
        # the aircraft's own default scenario (a C172's circuits), else its kind's (a fighter's)
        own = [s for s in all_scenarios() if s.aircraft == spec.id and s.default]
        sc = own[0] if own else find_scenario(SCENARIO_KIND_OF[spec.aircraft["kind"]])
    else:
        last = load_settings().last_scenario
        sc = find_scenario(last if last in scenario_names() else DEFAULT_SCENARIO)
    args.scenario = sc.name
    if spec is not None:
        plan_start(sc, spec)


def main(argv=None, pilot=None) -> int:
    """The command line. ``pilot``: a script's pilot, pilot(view) -> ControlInputs or Controls,
    called each physics tick with the aircraft by name (the window only; examples/). Refused
    data, an aircraft that cannot fly the start, a display that does not answer: one line on
    stderr, exit 2. Output into a closed pipe (``| head``) ends quietly."""
    args = parser().parse_args(argv)
    from ..aircraft_data.schema import DataError
    from ..net.session import BadNetConfig
    from ..paths import OutputPathError
    from ..sim import CannotFly
    from ..world.scenario import UnsuitableAircraft
    from .display import DisplayError
    try:
        return _run(args, pilot)
    except (DataError, UnsuitableAircraft, CannotFly, DisplayError, OutputPathError, BadNetConfig) as e:
        print(f"flightsim: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        quiet_closed_pipe()
        return 0


def _run(args, pilot) -> int:
    if args.list_scenarios:
        return list_scenarios(args.names_only)
    args.net = net_config(args)
    from ..paths import check_output
    for opt in ("screenshot", "record"):
        if getattr(args, opt) is not None:
            check_output(getattr(args, opt), f"--{opt}")
    if args.text and args.scenario is None and args.aircraft is None:
        args.scenario = TEXT_SCENARIO          # seed 001's aircraft: the C172, on the runway
    resolve_scenario(args)
    if args.text:
        from .prepare import ensure_prepared
        from .text_mode import text_mode
        ensure_prepared()
        return text_mode(args)
    if args.headless_telemetry:
        from .prepare import ensure_prepared
        from .telemetry import telemetry
        ensure_prepared()            # a first start says what it compiles (stderr), not a silent wait
        return telemetry(args)
    if args.frames is not None or args.screenshot:
        if args.frames is None:
            args.frames = 30
        from .headless import screenshot
        from .prepare import ensure_prepared
        ensure_prepared()
        return screenshot(args)
    from .window import play
    return play(args, pilot)
