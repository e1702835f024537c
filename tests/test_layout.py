"""The shape of the source tree: file sizes, the import contracts' teeth, and the page that draws the game packages.

The contracts themselves are in pyproject.toml ([tool.importlinter]) and run by ``make lint``;
these tests show that they catch what they are there for.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
LINT = Path(sys.executable).with_name("lint-imports")
MAX_LINES = 600
"""No source file is longer: a file holds one thing a reader looks for (../shared/DESIGN.md)."""


def test_no_source_file_is_over_the_limit() -> None:
    long = {
        str(path.relative_to(SRC)): n
        for path in SRC.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"over {MAX_LINES} lines: {long}"


def _lint(src: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the project's contracts, over the package found in ``src``."""
    env = {"PYTHONPATH": str(src), "PATH": str(LINT.parent)}
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=src.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def lint_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package's sources (no build, no caches) for tests to break."""
    src = tmp_path_factory.mktemp("layout") / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "compiled.json")
    shutil.copytree(SRC / "spacetable", src / "spacetable", ignore=ignore)
    return src


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("mothership/rules/combat.py", "from ..views import render"),
        ("showdown/rules/turns.py", "from ..bots import heuristic"),
        ("mothership/rules/movement.py", "from ..modules import hazards"),
        ("mothership/modules/hazards.py", "from . import victory"),
    ],
)
def test_the_contracts_refuse_an_import_against_the_layout(lint_copy: Path, importer: str, imported: str) -> None:
    """A rule that imports a view, a bot or an optional module, or a module that imports another module
    its docstring does not name, breaks ``make lint``, and the report names the import."""
    path = lint_copy / "spacetable" / "games" / importer
    original = path.read_text(encoding="utf-8")
    path.write_text(original + f"\n{imported}\n", encoding="utf-8")
    try:
        run = _lint(lint_copy)
    finally:
        path.write_text(original, encoding="utf-8")
    assert run.returncode == 1, run.stdout + run.stderr
    source = "spacetable.games." + importer.removesuffix(".py").replace("/", ".")
    assert f"{source} -> " in run.stdout and "BROKEN" in run.stdout, run.stdout


def test_the_untouched_copy_passes(lint_copy: Path) -> None:
    """The copy the tests above break passes as it is: they fail for the import they add."""
    run = _lint(lint_copy)
    assert run.returncode == 0, run.stdout + run.stderr


def test_each_module_that_imports_another_names_it_in_its_docstring() -> None:
    """Mothership's optional modules are independent but for the imports the contract lets through,
    and each of those is said in the importer's docstring (``:mod:`.name```)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (independent,) = [c for c in contracts if c["type"] == "independence" and "ignore_imports" in c]
    assert independent["ignore_imports"]
    for line in independent["ignore_imports"]:
        importer, imported = (part.strip() for part in line.split("->"))
        path = SRC.joinpath(*importer.split(".")).with_suffix(".py")
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        assert f":mod:`.{imported.rpartition('.')[2]}`" in doc, f"{importer}'s docstring does not name {imported}"


def test_the_architecture_page_draws_the_packages_as_they_are() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "layout.py"), "--check"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stdout + run.stderr


def _private_uses(path: Path) -> list[str]:
    """What ``path`` takes of its game's rules, modules or content that is private (``_name``):
    a name imported from them, or an attribute read off a module imported from them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = ("rules", "modules", "content")
    modules: set[str] = set()
    found = []
    for node in ast.walk(tree):
        # ``from ..rules.x import y`` in views/ or bots/: two dots lead to the game's package
        if isinstance(node, ast.ImportFrom) and node.level == 2 and (node.module or "").split(".")[0] in inner:
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"imports {alias.name}")
                modules.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            continue
        if node.value.id in modules and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append(f"reads {node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("part", ["views", "bots"])
def test_views_and_bots_use_only_the_public_names_of_the_rules(part: str) -> None:
    """Views and bots read the rules through their public names (and the state), never a private helper."""
    files = sorted((SRC / "spacetable" / "games").glob(f"*/{part}/*.py"))
    assert files
    private = {str(p.relative_to(SRC)): uses for p in files if (uses := _private_uses(p))}
    assert private == {}
