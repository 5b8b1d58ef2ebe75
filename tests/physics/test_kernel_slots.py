"""Each physics kernel says which slots of the flat arrays it reads and writes, and each
diagnostic slot has one writer (issue 32): the docstrings' "Slots read / Slots written" lines
are checked against the code (tests/physics/kernel_slots.py finds them from the subscripts)."""
import ast
from pathlib import Path

from flightsim.physics import layout as L
from tests.physics.kernel_slots import documented_slots, kernel_slots

PHYSICS = Path(L.__file__).parent
# diagnostic slots with two writers, and why that is one owner in effect
SHARED_DIAG = {
    "D_THRUST": {"jet.jet_forces", "plant.plant_forces"},      # an aircraft has jets or a propeller plant, not both
    "D_FUEL_FLOW": {"jet.jet_forces", "plant.plant_forces"},   # (the same)
    "D_NONFINITE": {"dynamics.step_ws", "dynamics._refuse"},   # the step clears it; a refused step says why
}


def _kernels():
    for p in sorted(PHYSICS.glob("*.py")):
        for fn in ast.parse(p.read_text()).body:
            if isinstance(fn, ast.FunctionDef):
                yield f"{p.stem}.{fn.name}", fn


def test_every_kernel_documents_the_slots_it_reads_and_writes():
    wrong = []
    for name, fn in _kernels():
        io = kernel_slots(fn)
        if io is None:
            continue
        doc = ast.get_docstring(fn) or ""
        said = documented_slots(doc)
        if said != io:
            wrong.append(f"{name}: docstring says {said}, the code {io}")
    assert not wrong, "\n".join(wrong)


def test_each_diagnostic_slot_has_one_writer():
    writers = {}
    for name, fn in _kernels():
        io = kernel_slots(fn)
        for slot in (io[1].get("diag", []) if io else []):
            writers.setdefault(slot, set()).add(name)
    slots = {k for k, v in vars(L).items() if k.startswith("D_") and isinstance(v, int)}
    assert slots - set(writers) == set(), "diagnostic slots no kernel writes"
    many = {s: w for s, w in writers.items() if len(w) > 1 and SHARED_DIAG.get(s) != w}
    assert not many, f"diagnostic slots with more than one writer: {many}"


def test_the_slot_check_reads_a_docstring_the_way_it_is_written():
    fn = ast.parse('def k(state, diag, env):\n    """Doc.\n\n    Slots read: state S_POS; env E_DT.\n'
                   '    Slots written: diag D_TAS.\n    """\n    diag[D_TAS] = state[S_POS] * env[E_DT]\n').body[0]
    assert documented_slots(ast.get_docstring(fn)) == kernel_slots(fn) == ({"state": ["S_POS"], "env": ["E_DT"]},
                                                                           {"diag": ["D_TAS"]})
