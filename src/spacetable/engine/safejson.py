"""Reading JSON that comes from outside (records, saved states, web clients) within limits.

``json.loads`` will happily build a 10⁵-deep list (and then raise RecursionError), a
4,300-digit integer, ``NaN`` or a hundred megabytes of actions. :func:`read_json`
refuses all of them with one :class:`ValueError` sentence (callers wrap it in their
own error, e.g. RecordError), and :func:`check_plain` applies the same limits to a value
already parsed.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

MAX_BYTES = 5 * 1024 * 1024
"""The largest JSON text read (a long Mothership record is about 300 KB)."""
MAX_DEPTH = 32
"""The deepest nesting of lists and objects (the deepest real data nests about 8 levels)."""
MAX_INT = 10**15
"""The largest integer magnitude (counts, seeds and hit points are far smaller)."""


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON may hold")


def read_json(
    text: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH, max_int: int = MAX_INT
) -> Any:
    """Parse ``text`` within the limits, or raise ValueError in one sentence naming the limit."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > max_bytes:
        raise ValueError(f"the JSON is {size:,} bytes, more than the {max_bytes:,} allowed")
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError as exc:
            raise ValueError(f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    _check_depth(text, max_depth)
    try:
        data = json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the file is not valid JSON ({exc})") from None
    except RecursionError:  # pragma: no cover - _check_depth stops this first
        raise ValueError(f"the JSON nests more than {max_depth} levels deep") from None
    except ValueError as exc:  # int() over sys.get_int_max_str_digits, NaN, Infinity
        raise ValueError(f"the JSON holds a number it may not: {str(exc).split(';')[0]}") from None
    check_plain(data, "the JSON", max_depth=max_depth, max_int=max_int)
    return data


def _check_depth(text: str, max_depth: int) -> None:
    """Count bracket nesting outside strings before parsing (json.loads would recurse first)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise ValueError(f"the JSON nests more than {max_depth} levels deep")
        elif ch in "]}":
            depth -= 1


def check_plain(value: Any, what: str, *, max_depth: int = MAX_DEPTH, max_int: int = MAX_INT) -> None:
    """Raise ValueError unless ``value`` is plain JSON data within the depth and number limits."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is int:
            if not -max_int <= item <= max_int:
                raise ValueError(f"{what} holds the number {str(item)[:20]}…, beyond ±{max_int:.0e}")
        elif kind is float:
            if not math.isfinite(item) or abs(item) > max_int:
                raise ValueError(f"{what} holds the number {item!r}, beyond ±{max_int:.0e}")
        elif kind is list or kind is dict:
            if depth >= max_depth:
                raise ValueError(f"{what} nests more than {max_depth} levels deep")
            if kind is dict:
                if any(type(k) is not str for k in item):
                    raise ValueError(f"{what} has an object key that is not a string")
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
        elif item is not None and kind is not str and kind is not bool:
            raise ValueError(f"{what} holds a {kind.__name__}, which is not JSON")


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old file or the new one.

    The text goes to a temporary file in the same folder (same file system), is flushed
    to disk, and replaces ``path`` in one ``os.replace``; OSError on failure, with the
    temporary file removed.
    """
    target = Path(path)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_INT", "check_plain", "read_json", "write_atomic"]
