"""The hot rule modules of Mothership and falling-skies, compiled with mypyc where a C compiler is present.

``tools/compile.py`` builds :data:`MODULES` in place, beside their sources, and then writes
:data:`MANIFEST`: each module's source hash as compiled. The package runs :func:`guard` before
anything else is imported, and it makes Python load every one of those modules from its source
instead, unless all of them are exactly what was compiled and ``SPACETABLE_PURE`` is not ``1``:
an edited file is never shadowed by a stale build, and compiled modules, which call each other
directly, are never mixed with edited ones. Without a build the game is the same, only slower.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

MODULES = (
    *(
        f"spacetable.games.mothership.rules.{name}"
        for name in (
            "abilities",
            "board",
            "cards",
            "combat",
            "dice",
            "dispatch",
            "economy",
            "movement",
            "tactics",
            "targets",
            "tech",
            "turns",
        )
    ),
    *(
        f"spacetable.games.mothership.modules.{name}"
        for name in ("beacons", "exploration", "hazards", "objectives", "scripts")
    ),
    "spacetable.games.mothership.bots.heuristic",
    *(f"spacetable.games.falling_skies.rules.{name}" for name in ("dispatch", "mothership", "placement", "rooms")),
    *(f"spacetable.games.falling_skies.bots.{name}" for name in ("heuristic", "planner")),
)
"""The modules compiled: where Mothership's random playouts, greedy bots and expansion modules
spend their time, and the falling-skies rules and planner (benchmarks/README.md). No class of
theirs is subclassed or patched elsewhere."""
ROOT = Path(__file__).resolve().parent.parent
"""The folder holding the ``spacetable`` package (``src``)."""
MANIFEST = Path(__file__).with_name("compiled.json")
"""Written by ``tools/compile.py`` after a build: module name -> hash of the source compiled."""
ACTIVE = False
"""Whether this process runs the compiled modules (set by :func:`guard`)."""


def source(module: str) -> Path:
    """The ``.py`` file of ``module``."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest(module: str) -> str:
    """The hash of ``module``'s source as it is now."""
    return hashlib.sha256(source(module).read_bytes()).hexdigest()


def built() -> dict[str, str]:
    """What the last build compiled (empty when nothing was built or the manifest is unreadable)."""
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def missing_tool() -> str | None:
    """Why this machine cannot build the modules (no mypyc, no C compiler), or None."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler found ({compiler})"
    return None


def guard() -> None:
    """Use the compiled modules only if every one is the build of its current source (see above)."""
    global ACTIVE
    manifest = built()
    ACTIVE = os.environ.get("SPACETABLE_PURE") != "1" and all(manifest.get(m) == digest(m) for m in MODULES)
    if not ACTIVE and not any(isinstance(f, _Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources())


class _Sources(importlib.abc.MetaPathFinder):
    """Finds :data:`MODULES` as their ``.py`` sources, whatever builds lie beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname))
