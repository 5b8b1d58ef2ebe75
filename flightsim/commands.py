"""What every ``python -m flightsim.<tool>`` command shares: its exit when the reader of its
output has gone (``| head``)."""
from __future__ import annotations

import sys


def tool_exit(main) -> int:
    """A tool's ``python -m`` entry: main()'s status, or 0 and nothing more said when the
    reader of its output has gone (``| head``)."""
    try:
        return main()
    except BrokenPipeError:
        quiet_closed_pipe()
        return 0


def quiet_closed_pipe() -> None:
    """The reader of stdout has gone (``| head``): nothing more to say, and no complaint from
    the interpreter's last flush at exit."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
