"""Every data file the game ships, through the validators that refuse bad data on load:

    python -m flightsim.tools.check_data

each aircraft (aircraft.toml and its airfoils, engines, references; its liveries, visual data
and instruments), compiled as the game compiles it, and each scenario. CI's first stage runs it (scripts/check.sh),
so a broken data file fails in seconds, not in the middle of the suite. Prints one line per
file set, and a refusal's one-line message (file, key, problem); exit 1 if any is refused."""
from __future__ import annotations

import sys
import time


def check_all(out=print) -> int:
    """The number of refused files; a line for each aircraft and scenario."""
    from ..aircraft_data.compile import compile_aircraft
    from ..aircraft_data.livery import livery_path, load_liveries
    from ..aircraft_data.loader import list_aircraft
    from ..aircraft_data.schema import DataError
    from ..aircraft_data.visual import check_against_aircraft, load_visual, visual_path
    from ..instruments.spec import load as load_instruments
    from ..world.scenario import load_scenario, scenario_paths
    refused = 0
    for name in list_aircraft():
        t = time.perf_counter()
        try:
            c = compile_aircraft(name)
            spec = c.spec
            parts = [f"{len(spec.sections)} sections"]
            if spec.references is not None and spec.references.error is not None:
                raise spec.references.error
            if livery_path(spec.path).exists():
                parts.append(f"{len(load_liveries(livery_path(spec.path)))} liveries")
            if visual_path(spec.path).exists():
                check_against_aircraft(load_visual(visual_path(spec.path)), spec)
                parts.append("visual")
            load_instruments(c)
            out(f"ok       aircraft {name}: {', '.join(parts)} ({time.perf_counter() - t:.2f} s)")
        except DataError as e:
            refused += 1
            out(f"REFUSED  aircraft {name}: {e}")
    for path in scenario_paths():
        name = path.stem
        try:
            sc = load_scenario(path)
            out(f"ok       scenario {name} ({sc.kind})")
        except DataError as e:
            refused += 1
            out(f"REFUSED  scenario {name}: {e}")
    return refused


def main() -> int:
    return 1 if check_all() else 0


if __name__ == "__main__":
    from ..commands import tool_exit
    sys.exit(tool_exit(main))
