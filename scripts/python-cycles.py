"""Import cycles between the modules of a Python package (scripts/check-python.mjs runs it).

Every import counts, at module level or inside a function, and under ``if TYPE_CHECKING:`` too: a
lazy import is still two modules that cannot be read one without the other (the same rule as the
TypeScript sources' dependency-cruiser check). ``from pkg import name`` is an edge to ``pkg.name``
when that is a module, else to ``pkg`` itself (its ``__init__``). Prints each cycle and exits 1.

    python3 scripts/python-cycles.py sdk/python/limelight
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def modules_of(package: Path) -> dict[str, Path]:
    root = package.parent
    found = {}
    for file in package.rglob("*.py"):
        parts = list(file.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = file
    return found


def imports_of(name: str, file: Path, modules: dict[str, Path]) -> set[str]:
    is_package = file.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    edges: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    edges.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if submodule in modules:
                    edges.add(submodule)
                elif target in modules:
                    edges.add(target)
    edges.discard(name)
    return edges


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def main() -> int:
    package = Path(sys.argv[1]).resolve()
    modules = modules_of(package)
    graph = {name: imports_of(name, file, modules) for name, file in modules.items()}
    found = cycles(graph)
    for component in found:
        members = set(component)
        edges = [f"{a} -> {b}" for a in component for b in sorted(graph[a]) if b in members]
        print(f"import cycle of {len(component)} modules: {', '.join(component)}\n  " + "\n  ".join(edges))
    print(f"{len(modules)} modules, {len(found)} import cycle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
