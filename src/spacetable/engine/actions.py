"""Actions as small frozen values, and the one object that encodes them.

A game declares each kind of action as a ``NamedTuple`` whose last field is
``kind: str = "<name>"``. The tag keeps two families apart (plain tuples with the
same values would compare equal) and costs nothing to build, which matters
because legal actions are built on every decision.

:class:`ActionSpace` knows every family and the domain of every field. From that
one description it gives the JSON form of an action (a dict), parses and
validates JSON back (a clear :class:`MalformedActionError` for anything else),
and maps actions to integers in ``range(space.size)`` and back (the codec that
OpenSpiel, PettingZoo action masks and learners need).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, NamedTuple, NoReturn, TypeAlias, cast

from .errors import MalformedActionError

Action: TypeAlias = tuple[Any, ...]
"""An action: a NamedTuple declared to an :class:`ActionSpace`."""


class _Family:
    __slots__ = ("cls", "domains", "fields", "index", "kind", "number", "offset", "radix", "size", "types")

    def __init__(self, cls: Any, domains: dict[str, Sequence[Hashable]], offset: int) -> None:
        fields = [f for f in cls._fields if f != "kind"]
        if cls._fields[-1] != "kind":
            raise TypeError(f"{cls.__name__}: the last field must be `kind`")
        if set(domains) != set(fields):
            raise TypeError(f"{cls.__name__}: domains {sorted(domains)} do not match fields {fields}")
        self.cls: Any = cls
        """The action's NamedTuple class (typed Any: NamedTuple classes have no common static type)."""
        self.kind: str = cls._field_defaults["kind"]
        self.fields = fields
        self.domains = [tuple(domains[f]) for f in fields]
        self.types = [type(d[0]) if d else type(None) for d in self.domains]
        """Each field's one value type (checked exactly: 4.0 == 4 and True == 1)."""
        self.index = [{v: i for i, v in enumerate(d)} for d in self.domains]
        self.radix = [len(d) for d in self.domains]
        self.offset = offset
        self.number = 0
        """The family's place among its space's families (set by the space)."""
        size = 1
        for r in self.radix:
            size *= r
        self.size = size


class ActionSpace:
    """Every action family of one game, with the domain of every field, and optionally the
    families only chance takes.

    ``ActionSpace((Place, {"value": range(1, 7), "space": SPACES}), ..., chance=(Roll,))``
    """

    def __init__(self, *families: tuple[type, dict[str, Sequence[Hashable]]], chance: Sequence[type] = ()) -> None:
        self.chance_kinds = frozenset(cls._field_defaults["kind"] for cls in chance)  # type: ignore[attr-defined]
        """The kinds only chance takes (declared by the game; optional): a seat never chooses them."""
        self._families: list[_Family] = []
        self._by_kind: dict[str, _Family] = {}
        self._by_cls: dict[type, _Family] = {}
        offset = 0
        for cls, domains in families:
            fam = _Family(cls, domains, offset)
            for name, domain in zip(fam.fields, fam.domains):
                if not domain or len({type(v) for v in domain}) != 1:
                    raise TypeError(f"{cls.__name__}.{name}: a domain is a non-empty sequence of one type")
            if fam.kind in self._by_kind:
                raise TypeError(f"two action families share the kind {fam.kind!r}")
            fam.number = len(self._families)
            self._families.append(fam)
            self._by_kind[fam.kind] = fam
            self._by_cls[cls] = fam
            offset += fam.size
        self.size = offset
        """Number of distinct action integers: every action encodes into ``range(size)``."""

    @property
    def kinds(self) -> list[str]:
        return [f.kind for f in self._families]

    def _family_of(self, action: object) -> _Family:
        fam = self._by_cls.get(type(action))
        if fam is None:
            raise MalformedActionError(
                f"{action!r} is not an action of this game; actions are one of: {', '.join(self.kinds)}"
            )
        return fam

    def check(self, action: object) -> None:
        """Raise :class:`MalformedActionError` unless every field is in its domain."""
        fam = self._family_of(action)
        values = cast(tuple[Any, ...], action)
        for name, value, domain, index, kind in zip(fam.fields, values, fam.domains, fam.index, fam.types):
            # exact types: 4.0 == 4 and True == 1 would pass a plain membership test
            if type(value) is not kind or value not in index:
                raise MalformedActionError(
                    f"{fam.kind}: field {name}={value!r} is outside its domain {_describe_domain(domain)}"
                )
        if values[-1] != fam.kind:
            raise MalformedActionError(f"{fam.kind}: kind field altered to {values[-1]!r}")

    def to_json(self, action: Action) -> dict[str, Any]:
        fam = self._family_of(action)
        return dict(zip(fam.cls._fields, action))

    def from_json(self, data: object) -> Action:
        """Parse the JSON form; anything that is not exactly an action raises MalformedActionError."""
        if not isinstance(data, dict):
            raise MalformedActionError(f"an action must be a JSON object with a 'kind', got {data!r}")
        kind = data.get("kind")
        fam = self._by_kind.get(kind) if isinstance(kind, str) else None
        if fam is None:
            raise MalformedActionError(
                f"unknown action kind {data.get('kind')!r}; expected one of: {', '.join(self.kinds)}"
            )
        expected = set(fam.fields) | {"kind"}
        if set(data) != expected:
            raise MalformedActionError(f"{fam.kind}: expected fields {sorted(expected)}, got {sorted(data)}")
        action: Action = fam.cls(**data)
        self.check(action)
        return action

    def encode(self, action: Action) -> int:
        """The action's integer in ``range(self.size)`` (MalformedActionError for anything else:
        it is checked in the same pass, as legal actions are encoded for every mask)."""
        fam, places = self._place(action)
        code = 0
        for place, radix in zip(places, fam.radix):
            code = code * radix + place
        return fam.offset + code

    def codes(self, actions: Iterable[Action]) -> list[int]:
        """The codes of ``actions`` (a seat's legal actions), ascending: how every research
        adapter and dataset lists them."""
        return sorted(map(self.encode, actions))

    def _place(self, action: Action) -> tuple[_Family, list[int]]:
        """The action's family and the index of each field's value in its domain, checked."""
        fam = self._by_cls.get(type(action))
        if fam is None or action[-1] != fam.kind:
            self._refuse(action)
        places = []
        for value, index, kind in zip(action, fam.index, fam.types):
            place = index.get(value)
            if place is None or type(value) is not kind:
                self._refuse(action)
            places.append(place)
        return fam, places

    def _refuse(self, action: object) -> NoReturn:
        """Raise :meth:`check`'s error for an action :meth:`encode` cannot place."""
        self.check(action)
        raise AssertionError(f"{action!r} passed the check but has no code")

    @property
    def part_sizes(self) -> list[tuple[int, ...]]:
        """Per family (in code order), the size of each field's domain: what :meth:`parts`
        chooses from after the family."""
        return [tuple(fam.radix) for fam in self._families]

    def parts(self, action: Action) -> tuple[int, ...]:
        """The action as a sequence of small choices: its family (by index), then the index of
        each field's value in its domain (validated as :meth:`encode` does)."""
        fam, places = self._place(action)
        return (fam.number, *places)

    def from_parts(self, parts: Sequence[int]) -> Action:
        """The action :meth:`parts` gave ``parts`` for (MalformedActionError for any other sequence)."""
        if not parts or not 0 <= parts[0] < len(self._families):
            raise MalformedActionError(
                f"action parts {list(parts)!r}: the first names one of {len(self._families)} families"
            )
        fam = self._families[parts[0]]
        if len(parts) != 1 + len(fam.fields) or not all(0 <= i < r for i, r in zip(parts[1:], fam.radix)):
            raise MalformedActionError(
                f"{fam.kind}: parts {list(parts[1:])!r} do not fit its fields' sizes {fam.radix}"
            )
        action: Action = fam.cls(*(domain[i] for domain, i in zip(fam.domains, parts[1:])))
        return action

    def decode(self, code: int) -> Action:
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < self.size:
            raise MalformedActionError(f"action code {code!r} is outside 0..{self.size - 1}")
        for fam in self._families:
            if code < fam.offset + fam.size:
                rest = code - fam.offset
                values: list[Hashable] = []
                for domain, radix in zip(reversed(fam.domains), reversed(fam.radix)):
                    rest, i = divmod(rest, radix)
                    values.append(domain[i])
                decoded: Action = fam.cls(*reversed(values))
                return decoded
        raise AssertionError("unreachable: code checked against size")


def _describe_domain(domain: Sequence[Hashable]) -> str:
    if len(domain) > 8:
        return f"[{domain[0]!r} .. {domain[-1]!r}] ({len(domain)} values)"
    return "[" + ", ".join(repr(v) for v in domain) + "]"


class Roll(NamedTuple):
    """A chance outcome that is a single number (a die face, a card index)."""

    value: int
    kind: str = "roll"


__all__ = ["Action", "ActionSpace", "Roll"]
