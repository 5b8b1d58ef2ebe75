"""The house is easy to walk: no module of flightsim imports another that imports it back,
directly or round a longer loop (imports inside functions count too: they hide a circle,
they do not remove it)."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "flightsim"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    if node.level == 0:
        base = node.module or ""
    else:
        parts = current.split(".")
        if not is_package:
            parts = parts[:-1]
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    return [base] + [f"{base}.{a.name}" for a in node.names]


def import_graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.module == "__future__":
                    continue
                targets = _resolve(name, path.name == "__init__.py", node)
            else:
                continue
            deps |= {t for t in targets if t in modules and t != name}
        graph[name] = deps
    return graph


def _cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    graph = import_graph()
    # a package's __init__ re-exporting its modules is not a circle of jobs
    for name in list(graph):
        if (PACKAGE.parent / name.replace(".", "/") / "__init__.py").exists():
            graph[name] = {d for d in graph[name] if not d.startswith(name + ".")}
    assert _cycles(graph) == []


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    assert "flightsim.app.window" in graph["flightsim.app.cli"]          # imported inside main()
    assert "flightsim.world.assembly" in graph["flightsim.app.flow"]
