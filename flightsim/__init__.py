"""flightsim: a real-time flight simulator whose aircraft are assembled from their parts."""
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AIRCRAFT_DIR = ROOT / "aircraft"
WEAPON_DIR = ROOT / "weapons"
SHADER_DIR = ROOT / "shaders"
ASSET_DIR = ROOT / "assets"


def cache_root() -> Path:
    """Where flightsim keeps what it computes once per machine: numba's compiled kernels, the
    terrain heightfield ($XDG_CACHE_HOME/flightsim, default ~/.cache/flightsim)."""
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "flightsim"


def _numba_cache_dir() -> None:
    """Point numba's cache at a folder named by a hash of every physics source file.

    numba invalidates a cached kernel only when the kernel's own file changes, not when a
    function it calls from another file does (the cached step in dynamics.py holds the
    compiled code of aero.py and ground.py): without this an edit to aero.py would keep
    flying the old compiled code.
    The checkout's own path goes into the hash too: numba files its cache under each source
    file's full path, so a second checkout at another path (a fresh clone beside the working
    one) finds none of it. Sharing the folder, it found the first checkout's stamp, skipped the
    preparing, and compiled its kernels lazily in whatever order its process first called
    them, which moves results in their last bits (measured: the kept regression flights of a
    fresh clone differed by up to 8e-14 from step 250 on); with its own folder it prepares once,
    as any first start does.
    An explicit NUMBA_CACHE_DIR is respected.
    """
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    digest = hashlib.sha1(str(ROOT).encode())
    for path in sorted((ROOT / "flightsim" / "physics").glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    os.environ["NUMBA_CACHE_DIR"] = str(cache_root() / "numba" / digest.hexdigest()[:16])
    config = sys.modules.get("numba.core.config")
    if config is not None:        # numba imported first has read its settings already: tell it too
        config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


def _single_threaded_blas() -> None:
    """One thread for numpy's BLAS (OpenBLAS) unless the user set it: the project's matrices
    are 3x3 and 4x4 and its trims' systems tens of rows, too small for BLAS to share out, while
    each thread OpenBLAS wakes busy-waits for work afterwards on a core that numba's threads
    and the physics thread need. Measured Nov 2026 on 2 cores: 256 Glide-v0 environments on
    both cores took 184 us an env step with OpenBLAS's own threads, 171 us with one. Takes
    effect where flightsim is imported before numpy (its own commands, the game, the tests)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


_single_threaded_blas()
_numba_cache_dir()
