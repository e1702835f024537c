"""The game packages' trees as docs/ARCHITECTURE.md shows them: one line a file, with its first docstring line.

    python tools/layout.py            # print the trees
    python tools/layout.py --write    # put them in docs/ARCHITECTURE.md, between its layout markers
    python tools/layout.py --check    # exit 1, with one line, when the page's trees are out of date

tests/test_layout.py runs ``--check``, so the page follows every file added, moved or redescribed.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "src" / "spacetable" / "games"
PAGE = ROOT / "docs" / "ARCHITECTURE.md"
BEGIN, END = "<!-- layout: made by tools/layout.py -->", "<!-- layout: end -->"
WIDTH = 24
"""The column where the descriptions start."""


def describe(path: Path) -> str:
    """A Python file's first docstring line; a data file's first comment line; what a page is."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        doc = ast.get_docstring(ast.parse(text))
        return doc.splitlines()[0] if doc else ""
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    if path.name == "howto.html":
        return "How to play, in our words (the table's page /howto/GAME)"
    return first.lstrip("#").strip() if first.startswith("#") else ""


def lines(folder: Path, depth: int = 1) -> list[str]:
    """``folder``'s files, then its subfolders' in turn, indented by ``depth``."""
    out = []
    entries = sorted(p for p in folder.iterdir() if p.name != "__pycache__" and p.suffix not in (".so", ".pyd"))
    for path in [p for p in entries if p.is_file()] + [p for p in entries if p.is_dir()]:
        name = "  " * depth + path.name + ("/" if path.is_dir() else "")
        about = "" if path.is_dir() else describe(path)
        out.append(f"{name:<{WIDTH}} {about}".rstrip() if about else name)
        if path.is_dir():
            out += lines(path, depth + 1)
    return out


def trees() -> str:
    """Every game package's tree, as one Markdown code block."""
    body = []
    for game in sorted(p for p in GAMES.iterdir() if p.is_dir() and p.name != "__pycache__"):
        body += [f"games/{game.name}/", *lines(game)]
    return "\n".join([BEGIN, "```", *body, "```", END])


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="update docs/ARCHITECTURE.md")
    mode.add_argument("--check", action="store_true", help="fail if docs/ARCHITECTURE.md is out of date")
    args = parser.parse_args()
    block = trees()
    if not (args.write or args.check):
        print(block)
        return 0
    page = PAGE.read_text(encoding="utf-8")
    if BEGIN not in page or END not in page:
        print(f"layout: {PAGE.name} has no layout markers ({BEGIN} ... {END})", file=sys.stderr)
        return 1
    head, rest = page.split(BEGIN, 1)
    updated = head + block + rest.split(END, 1)[1]
    if args.check:
        if updated != page:
            print(f"layout: {PAGE.name}'s package trees are out of date: run python tools/layout.py --write")
            return 1
        return 0
    PAGE.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
