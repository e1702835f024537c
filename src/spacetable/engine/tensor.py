"""Small pieces the games' observation tensors are built from (``games/<package>/tensor.py``).

Every entry of an observation tensor is in [0, 1]: categories are one-hot, counts are
divided by the most there can be (``ratio``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def one_hot(value: Hashable, choices: Sequence[Hashable]) -> list[float]:
    """1.0 where ``choices`` holds ``value``, else 0.0 (all 0.0 when it holds none)."""
    return [1.0 if value == choice else 0.0 for choice in choices]


def ratio(count: float, full: float) -> float:
    """``count / full`` clipped to [0, 1]; 0.0 when ``full`` is not positive."""
    return min(1.0, max(0.0, count / full)) if full > 0 else 0.0


__all__ = ["one_hot", "ratio"]
