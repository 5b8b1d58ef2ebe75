#!/usr/bin/env python3
"""Start flightsim: python run.py [--aircraft astir] [--scenario airfield] [--view chase]

Opens the game window (1280x720, F11 fullscreen, F1 keys). Headless:
``--frames N --screenshot out.png`` renders offscreen and writes a PNG;
``--headless-telemetry [--seconds S --realtime --json]`` flies without graphics and
prints telemetry. On a first start with a Python that lacks the packages it needs, it
makes its own virtual environment in ``.venv/`` (flightsim/bootstrap.py) and runs in it.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == "__main__":
    sys.path.insert(0, HERE)
    from flightsim.bootstrap import ensure
    ensure()
    from flightsim.app.cli import main
    sys.exit(main())
