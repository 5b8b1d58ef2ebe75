#!/usr/bin/env python3
"""Start flightsim: python run.py [--aircraft astir] [--scenario airfield] [--view chase]

Opens the game window (1280x720, F11 fullscreen, F1 keys). Headless:
``--frames N --screenshot out.png`` renders offscreen and writes a PNG;
``--headless-telemetry [--seconds S --realtime --json]`` flies without graphics and
prints telemetry. On a fresh machine it first installs the dependencies it needs.
"""
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def ensure_dependencies():
    missing = [m for m in ("numpy", "numba", "pyglet", "moderngl", "pyrr") if importlib.util.find_spec(m) is None]
    if missing or importlib.util.find_spec("flightsim") is None:
        print(f"installing dependencies ({', '.join(missing) or 'flightsim'}) ...", flush=True)
        try:
            subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                   "-e", HERE])
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"flightsim: could not install the packages it needs ({e}); install them with "
                  f"{sys.executable} -m pip install -e {HERE} (Debian: apt-get install python3-pip first)",
                  file=sys.stderr)
            sys.exit(2)


if __name__ == "__main__":
    ensure_dependencies()
    sys.path.insert(0, HERE)
    from flightsim.cli import main
    sys.exit(main())
