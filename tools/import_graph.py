"""Measure spacetable's import graph: circles inside each game package and imports against the layers.

Usage: python tools/import_graph.py [--src src]

Reads the sources with ast (nothing is imported). For each game package it prints the import
circles (strongly connected components of more than one module), the number of modules in them,
the imports between those modules, and how many of them go from a lower module to a higher one
(a module is "lower" when it comes earlier in a topological order of the graph with its circle
edges ranked by how many modules each side reaches). Across packages it counts imports that go
up the layers engine <- games <- agents / sim / interop / testing <- cli / server, and imports
from one game into another. Imports inside `if TYPE_CHECKING:` count too: they are edges a
reader must follow (`--runtime` leaves them out, as the import-linter contracts do).
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

LAYERS = {"engine": 0, "games": 1, "agents": 2, "sim": 2, "interop": 2, "testing": 2, "cli": 3, "server": 3}


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under `if TYPE_CHECKING:` (they run only for a type checker)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return inside


def imports_of(path: Path, name: str, known: set[str], runtime: bool) -> set[str]:
    """The known modules `path` imports (relative imports resolved, `from pkg import mod` counted
    as mod); `runtime`: leave out those under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = _type_checking_blocks(tree) if runtime else set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            targets = [f"{prefix}.{alias.name}" for alias in node.names] + [prefix]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components of more than one node only."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
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
                        components.append(sorted(component))
    return components


def upward_in_circle(graph: dict[str, set[str]], circle: list[str]) -> tuple[int, int]:
    """(imports inside the circle, those against the order that breaks the circle best).

    The order ranks modules by how many circle members each imports (fewest first, the lowest
    layer); an import from a lower-ranked module to a higher one goes up."""
    members = set(circle)
    rank = {m: (len(graph[m] & members), m) for m in circle}
    edges = [(a, b) for a in circle for b in graph[a] & members]
    return len(edges), sum(1 for a, b in edges if rank[a] < rank[b])


def layer_of(name: str) -> tuple[str, int] | None:
    parts = name.split(".")
    if len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return parts[1], LAYERS[parts[1]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default="src", type=Path)
    parser.add_argument(
        "--runtime", action="store_true", help="leave out imports under `if TYPE_CHECKING:` (as lint-imports does)"
    )
    args = parser.parse_args()
    src: Path = args.src
    files = {module_name(p, src): p for p in sorted((src / "spacetable").rglob("*.py"))}
    known = set(files)
    graph = {name: imports_of(path, name, known, args.runtime) for name, path in files.items()}

    total_circles = total_in_circles = total_up = 0
    print(f"{'package':32} {'modules':>7} {'circles':>7} {'in circles':>10} {'imports in':>10} {'upward':>6}")
    for package in sorted(n for n in known if n.startswith("spacetable.games.") and n.count(".") == 2):
        members = {n for n in known if n.startswith(package + ".")}
        sub = {n: graph[n] & members for n in members}
        circles = strongly_connected(sub)
        inside = sum(len(c) for c in circles)
        edges = up = 0
        for circle in circles:
            e, u = upward_in_circle(sub, circle)
            edges += e
            up += u
        total_circles += len(circles)
        total_in_circles += inside
        total_up += up
        print(f"{package:32} {len(members):7} {len(circles):7} {inside:10} {edges:10} {up:6}")
        for circle in circles:
            print("    circle: " + " ".join(m.rpartition(".")[2] for m in circle))

    layer_breaks: list[str] = []
    cross_game: list[str] = []
    for name, targets in sorted(graph.items()):
        mine = layer_of(name)
        for target in sorted(targets):
            theirs = layer_of(target)
            if mine and theirs and theirs[1] > mine[1]:
                layer_breaks.append(f"{name} -> {target}")
            if mine and theirs and mine[0] == theirs[0] == "games":
                a, b = name.split(".")[2:3], target.split(".")[2:3]
                if a and b and a != b:
                    cross_game.append(f"{name} -> {target}")
    print(f"\ngame packages: {total_circles} circles, {total_in_circles} modules in circles, {total_up} upward imports")
    print(f"imports up the layers (engine <- games <- agents/sim/interop/testing <- cli/server): {len(layer_breaks)}")
    for line in layer_breaks:
        print("    " + line)
    print(f"imports from one game into another: {len(cross_game)}")
    for line in cross_game:
        print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
