"""`python -m flightsim.bench`, the benchmarks: the public command and import; the code is
flightsim/tools/bench.py."""
import sys

from .tools.bench import *  # noqa: F401,F403  (the public names, as before the move)
from .tools.bench import main

if __name__ == "__main__":
    from .commands import tool_exit
    sys.exit(tool_exit(main))
