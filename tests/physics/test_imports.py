"""flightsim/physics imports only numpy, numba and the standard library (the architecture
rule: it runs and is tested with no window, no GL, no pyglet)."""
import ast
import sys
from pathlib import Path

PHYSICS = Path(__file__).resolve().parents[2] / "flightsim" / "physics"


def test_physics_imports_only_numpy_numba_and_the_standard_library():
    bad = []
    for path in sorted(PHYSICS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level == 1:             # from . import x / from .x import y: inside physics
                    continue
                if node.level > 1:              # from .. import: outside the package
                    bad.append(f"{path.name}: from {'.' * node.level}{node.module or ''}")
                    continue
                names = [node.module]
            else:
                continue
            for n in names:
                top = n.split(".")[0]
                if top not in ("numpy", "numba") and top not in sys.stdlib_module_names:
                    bad.append(f"{path.name}: import {n}")
    assert not bad, "physics imports outside numpy/numba/stdlib:\n" + "\n".join(bad)
