"""What each physics kernel reads and writes of the kernels' flat arrays (state, diag, env), found
from its code: the subscripts of those arrays by the layout's constants (S_, D_, E_). The kernels'
docstrings say the same in their "Slots read / Slots written" lines (test_kernel_slots.py)."""
import ast
import textwrap

ARRAYS = {"state": "S_", "diag": "D_", "env": "E_"}


def kernel_slots(fn: ast.FunctionDef):
    """({array: sorted names read}, {array: sorted names written}), or None where it touches none."""
    stores = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for tt in t.elts if isinstance(t, ast.Tuple) else [t]:
                    if isinstance(tt, ast.Subscript):
                        stores.add(id(tt))
    reads, writes = {}, {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in ARRAYS:
            names = {n.id for n in ast.walk(node.slice)
                     if isinstance(n, ast.Name) and n.id.startswith(ARRAYS[node.value.id])}
            if names:
                (writes if id(node) in stores else reads).setdefault(node.value.id, set()).update(names)
    if not reads and not writes:
        return None
    return ({k: sorted(v) for k, v in reads.items()}, {k: sorted(v) for k, v in writes.items()})


def _listing(io: dict) -> str:
    return "; ".join(f"{a} {', '.join(io[a])}" for a in ARRAYS if a in io) or "none"


def slot_lines(reads: dict, writes: dict, indent: str) -> list:
    """The docstring lines that say it: "Slots read: state S_A, S_B; diag D_X." and "Slots written: ..."."""
    out = []
    for head, io in (("Slots read", reads), ("Slots written", writes)):
        out += textwrap.wrap(f"{head}: {_listing(io)}.", 100, initial_indent=indent, subsequent_indent=indent + "  ",
                             break_on_hyphens=False)
    return out


def documented_slots(doc: str):
    """The (reads, writes) a docstring's Slots lines name, in kernel_slots' form."""
    text = " ".join(doc.split())
    out = []
    for head in ("Slots read:", "Slots written:"):
        if head not in text:
            return None
        part = text.split(head, 1)[1].split(".", 1)[0].strip()
        io = {}
        if part != "none":
            for chunk in part.split(";"):
                arr, names = chunk.strip().split(" ", 1)
                io[arr] = sorted(n.strip() for n in names.split(","))
        out.append(io)
    return tuple(out)
