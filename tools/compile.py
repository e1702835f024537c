"""Compile the hot rule modules (Mothership's, falling-skies') with mypyc, in place (``make play`` and ``make test`` run
this; which modules, and how a stale build is kept from running: ``spacetable/compiled.py``).

    python tools/compile.py            # build, unless the build is of today's sources already
    python tools/compile.py --clean    # remove the build: pure Python again

Where mypyc or a C compiler is missing, or the build fails, it says so in one line, leaves no
build behind and exits 0: the games run the same in pure Python, only slower.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
_spec = importlib.util.spec_from_file_location("spacetable_compiled", SRC / "spacetable" / "compiled.py")
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled)  # the module list and hashes, without importing the package


def builds() -> list[Path]:
    """Every file a build left in the source tree: each module's extension and the shared library."""
    found = [*SRC.glob("*__mypyc.*")]
    for module in compiled.MODULES:
        path = compiled.source(module)
        found += [p for p in path.parent.glob(path.stem + ".*") if p.suffix in (".so", ".pyd")]
    return found


def clean() -> None:
    compiled.MANIFEST.unlink(missing_ok=True)  # first: a half-removed build is never trusted
    for path in builds():
        path.unlink()


def build() -> None:
    sources = {module: compiled.digest(module) for module in compiled.MODULES}
    if compiled.built() == sources and builds():
        print("compiled modules: up to date")
        return
    clean()
    why = compiled.missing_tool()
    if why:
        print(f"compiled modules: not built, {why}; the games run in pure Python")
        return
    from mypyc.build import mypycify
    from setuptools import setup

    start = time.monotonic()
    here = Path.cwd()
    try:
        with tempfile.TemporaryDirectory() as work:
            os.chdir(SRC)
            paths = [str(compiled.source(module).relative_to(SRC)) for module in compiled.MODULES]
            cache = ["--cache-dir", os.path.join(work, "mypy")]  # mypy's flags ride along with the files
            # gcc -O1: random playouts ran as fast as with -O3 (three interleaved pairs) for half
            # the build's time; no debug symbols
            extensions = mypycify(
                [*cache, *paths], target_dir=os.path.join(work, "c"), multi_file=True, opt_level="1", debug_level="0"
            )
            jobs = str(os.cpu_count() or 1)
            args = ["-q", "build_ext", "--inplace", "--parallel", jobs]
            args += ["--build-temp", os.path.join(work, "o"), "--build-lib", os.path.join(work, "lib")]
            setup(name="spacetable-compiled", ext_modules=extensions, script_args=args)
    except (Exception, SystemExit) as error:  # setuptools reports a failed build as SystemExit
        clean()
        reason = (str(error).splitlines() or [type(error).__name__])[0]
        print(f"compiled modules: build failed, {reason}; the games run in pure Python")
        return
    finally:
        os.chdir(here)
    compiled.MANIFEST.write_text(json.dumps(sources, indent=1) + "\n")
    print(f"compiled modules: {len(sources)} built with mypyc in {time.monotonic() - start:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the build")
    if parser.parse_args().clean:
        clean()
        print("compiled modules: removed; the games run in pure Python")
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
