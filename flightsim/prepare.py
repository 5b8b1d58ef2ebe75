"""`python -m flightsim.prepare`, preparing the flight model: the public command and import; the code is
flightsim/app/prepare.py."""
import sys

from .app.prepare import *  # noqa: F401,F403  (the public names, as before the move)
from .app.prepare import main

if __name__ == "__main__":
    from .commands import tool_exit
    sys.exit(tool_exit(main))
