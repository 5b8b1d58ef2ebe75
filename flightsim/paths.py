"""Files the user names for output (``--screenshot``, ``--record``, ``--output``), checked before
any work: the folder must exist (none is ever created for them), the name must not be a
folder, and the place must take a file (or be a device that takes writes, as /dev/null). A
refusal is one line naming the option and the path."""
from __future__ import annotations

import os
import stat
from pathlib import Path


class OutputPathError(ValueError):
    """An output file that cannot be written where the user named it."""

    def __init__(self, option: str, path, problem: str):
        super().__init__(f"{option} {path}: {problem}")


def check_output(path, option: str) -> Path:
    """``path`` as a Path when a file can be written there; OutputPathError otherwise. Nothing
    is created or changed (an existing file is opened for appending and closed untouched)."""
    p = Path(path)
    if not str(path).strip():
        raise OutputPathError(option, repr(str(path)), "an empty file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise OutputPathError(option, path, f"the folder {parent} does not exist (it is not created for you)")
    if not parent.is_dir():
        raise OutputPathError(option, path, f"{parent} is not a folder")
    if p.is_dir():
        raise OutputPathError(option, path, "is a folder: name a file inside it")
    if p.exists():
        try:
            if p.is_file():
                with open(p, "ab"):     # (as the writers open it: /proc/version refuses here)
                    pass
            elif stat.S_ISCHR(p.stat().st_mode):        # a device that takes writes: /dev/null
                os.close(os.open(p, os.O_WRONLY | os.O_NONBLOCK))
            else:
                raise OutputPathError(option, path, "is neither a file nor a device that takes writes")
        except OSError as e:
            raise OutputPathError(option, path, f"cannot be written ({e.strerror or e})") from None
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(option, path, f"the folder {parent} cannot be written")
    return p
