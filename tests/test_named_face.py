"""The kernels' arrays are indexed by constant only inside flightsim/physics and the compiler
(flightsim/aircraft_data): the game, the tools, the examples and the tests read and write them by name
(physics.named, named_env, named_model, bullet_pool). Issue 15."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = (ROOT / "flightsim" / "physics", ROOT / "flightsim" / "aircraft_data")
INDEX_MODULES = {"flightsim.physics.layout": re.compile(r"^[A-Z][A-Z0-9_]*$"),
                 "flightsim.physics.ballistics": re.compile(r"^(B_[A-Z0-9_]+|NB_COLS|HIT_COLS)$")}


def _sources():
    for folder in ("flightsim", "tests", "examples", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if not any(path.is_relative_to(a) for a in ALLOWED):
                yield path


def _module_of(path: Path, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)[:-1]
    parts = parts[:len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def index_uses(path: Path) -> list[str]:
    """Where a file imports an index constant of the layout or the bullet pool, or reads one
    through a module alias (``L.S_POS``, ``B.B_ALIVE``)."""
    tree = ast.parse(path.read_text())
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    aliases = {}                     # local name -> index module
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = _module_of(path, node)
            for a in node.names:
                full = f"{mod}.{a.name}"
                if full in INDEX_MODULES:
                    aliases[a.asname or a.name] = full
                elif mod in INDEX_MODULES and INDEX_MODULES[mod].match(a.name):
                    found.append(f"{where}:{node.lineno} imports {mod}.{a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in INDEX_MODULES and a.asname:
                    aliases[a.asname] = a.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and INDEX_MODULES[aliases[node.value.id]].match(node.attr)):
            found.append(f"{where}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def test_no_index_constants_outside_physics_and_the_compiler():
    found = [hit for path in _sources() for hit in index_uses(path)]
    assert not found, "index the kernels' arrays by name (flightsim.physics.named*):\n" + "\n".join(found)


def test_the_check_finds_an_index(tmp_path):
    """The scan itself sees all three spellings (so the test above cannot pass by seeing nothing)."""
    p = tmp_path / "probe.py"
    p.write_text("from flightsim.physics import layout as L\nfrom flightsim.physics.ballistics import B_POS\n"
                 "from flightsim.physics import ballistics as B\nx = L.S_POS + B.B_ALIVE\n"
                 "from flightsim.physics.ballistics import step_bullets\n")
    found = index_uses(p)
    assert len(found) == 3, found


def test_the_controls_type_checkers_see_are_the_controls():
    """Controls' attributes come from CONTROLS at import; the annotations a type checker reads
    (under TYPE_CHECKING in physics/named_controls.py) must name the same controls."""
    from flightsim.physics import named, named_controls
    tree = ast.parse(Path(named_controls.__file__).read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Controls")
    guarded = next(n for n in cls.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    annotated = [n.target.id for n in guarded.orelse if isinstance(n, ast.AnnAssign)]
    assert annotated == [c[0] for c in named.CONTROLS]
