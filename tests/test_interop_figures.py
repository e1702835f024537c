"""docs/INTEROP.md's generated figures (tools/interop_figures.py) are what the code registers."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

TOOL = Path(__file__).resolve().parents[1] / "tools" / "interop_figures.py"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("interop_figures", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_has_the_figures_the_code_gives() -> None:
    tool = load_tool()
    made, kept = tool.block(), tool.current(tool.PAGE.read_text())
    assert tool.first_difference(made, kept) is None, tool.first_difference(made, kept)


def test_a_moved_figure_is_named() -> None:
    tool = load_tool()
    kept = "a\n| x | 1 |\nb"
    assert tool.first_difference(kept, kept) is None
    assert "'| x | 2 |'" in tool.first_difference(kept, kept.replace("1", "2"))
    assert "extra lines" in tool.first_difference("a", "a\nb")
