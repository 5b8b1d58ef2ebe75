#!/usr/bin/env python3
"""Start flightsim: python run.py [--aircraft astir] [--seconds S] [--realtime]

Until the game window lands (issue 3) this flies the aircraft headless from a trimmed
glide near the airfield and prints telemetry once a simulated second. On a fresh
machine it first installs the dependencies it needs.
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
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                               "-e", HERE])


if __name__ == "__main__":
    ensure_dependencies()
    sys.path.insert(0, HERE)
    from flightsim.app import main
    sys.exit(main())
