"""`python -m flightsim.tunnel`, the wind tunnel: the public command and import; the code is
flightsim/tools/tunnel.py."""
import sys

from .tools.tunnel import *  # noqa: F401,F403  (the public names, as before the move)
from .tools.tunnel import main

if __name__ == "__main__":
    from .commands import tool_exit
    sys.exit(tool_exit(main))
