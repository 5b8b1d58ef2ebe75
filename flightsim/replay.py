"""`python -m flightsim.replay`, recorded flights: the public command and import; the code is
flightsim/recording/cli.py."""
import sys

from .recording.cli import *  # noqa: F401,F403  (the public names, as before the move)
from .recording.cli import main

if __name__ == "__main__":
    from .commands import tool_exit
    sys.exit(tool_exit(main))
