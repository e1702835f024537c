"""Game options: what each one is (:class:`OptionSpec`), how they depend on each other
(:class:`Requires`), and the check a game's options pass before it is built."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .errors import OptionsError

JSON = Any

MAX_OPTION_INT = 10_000
"""No integer game option (a limit, a level, a seat) is larger: a limit of 10⁹ is a mistake."""
MAX_OPTIONS_BYTES = 256_000
"""The options of a game as JSON are no longer: every record and stored table carries them, and a
content override (a whole deck, board or rulebook of numbers) is a few kilobytes."""


class Requires(NamedTuple):
    """A dependency between options: while the option takes one of ``when`` (None: any value but
    its default), the option ``option`` must be one of ``values``. ``option`` may be
    ``"players"``, the player count, so a mode or a module says for how many it is."""

    when: tuple[JSON, ...] | None
    option: str
    values: tuple[JSON, ...]
    why: str = ""
    """The rule in the game's words, lower case ("objectives need planetary exploration");
    empty: said from the options' labels."""

    def applies(self, value: JSON, default: JSON) -> bool:
        """Whether an option at ``value`` (its default ``default``) needs this."""
        return value != default if self.when is None else any(_same(value, w) for w in self.when)

    def to_json(self) -> dict[str, JSON]:
        return {
            "when": None if self.when is None else list(self.when),
            "option": self.option,
            "values": list(self.values),
            "why": self.why,
        }


PLAYERS = "players"
"""The name a :class:`Requires` gives the player count (no option may be called so)."""


def _same(a: JSON, b: JSON) -> bool:
    """Equal as JSON values: ``True`` is not ``1``."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _players_words(counts: Sequence[int]) -> str:
    """``(1,)``: 'one player'; ``(2, ..., 6)``: '2 to 6 players'; ``(4, 6)``: '4 or 6 players'."""
    if list(counts) == [1]:
        return "one player"
    low, high = min(counts), max(counts)
    if len(counts) > 2 and list(counts) == list(range(low, high + 1)):
        return f"{low} to {high} players"
    return " or ".join(str(c) for c in counts) + " players"


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its default, the values it accepts and what it does, in words for people.

    ``label`` names it ("Board layout"), ``help`` says what it does in a line, ``choice_labels``
    names its values (a choice's, a list's items, or what None means: {None: "off"}), ``group`` is
    the heading it comes under (as the rulebook presents it: "Game mode", "Expansion modules",
    "House rules" for what the rulebook has not, "For designers"), ``requires`` its dependencies
    (checked by ``Game._check_options``) and ``seat`` marks an int that is a seat (0-based),
    shown to people from 1.
    """

    default: JSON
    help: str
    choices: tuple[JSON, ...] | None = None
    kind: type = field(default=object)
    label: str = ""
    choice_labels: Mapping[JSON, str] = field(default_factory=dict, hash=False)
    group: str = ""
    requires: tuple[Requires, ...] = ()
    seat: bool = False

    def named(self, name: str) -> str:
        """The option's label, or its name in words where it has none."""
        return self.label or name.replace("_", " ").capitalize()

    def words(self, value: JSON) -> str:
        """A value of the option in words: its choice label, 'on'/'off' for a yes or no, a seat from 1."""
        if isinstance(value, str | int | float | bool | None):
            for key, text in self.choice_labels.items():
                if _same(key, value):
                    return text
        if isinstance(value, bool):
            return "on" if value else "off"
        if value is None:
            return "off"
        if self.seat and type(value) is int:
            return f"seat {value + 1}"
        return value if isinstance(value, str) else json.dumps(value)


def check_options(
    game_id: str, players: int, specs: Mapping[str, OptionSpec], given: dict[str, JSON]
) -> dict[str, JSON]:
    """``given`` with every default filled in, or OptionsError (one line) on an unknown option, a
    value of the wrong kind or choice, options over MAX_OPTIONS_BYTES, or an unmet :class:`Requires`."""
    unknown = set(given) - set(specs)
    if unknown:
        known = ", ".join(sorted(specs)) or "none"
        raise OptionsError(f"{game_id}: unknown option(s) {sorted(unknown)}; known options: {known}")
    options: dict[str, JSON] = {}
    for name, spec in specs.items():
        value = given.get(name, spec.default)
        if spec.choices is not None and value not in spec.choices:
            raise OptionsError(f"{game_id}: option {name}={value!r} must be one of {list(spec.choices)}")
        if value is None and spec.default is not None and (spec.choices is None or None not in spec.choices):
            raise OptionsError(f"{game_id}: option {name} cannot be null (its default is {spec.default!r})")
        wrong_kind = not isinstance(value, spec.kind) or (spec.kind is int and type(value) is bool)
        if spec.kind is not object and value is not None and wrong_kind:
            raise OptionsError(f"{game_id}: option {name}={value!r:.40} must be of type {spec.kind.__name__}")
        if type(value) is int and not -MAX_OPTION_INT <= value <= MAX_OPTION_INT:
            raise OptionsError(f"{game_id}: option {name}={value:.3g} is beyond the sane bound ±{MAX_OPTION_INT:,}")
        options[name] = value
    size = len(json.dumps(options))
    if size > MAX_OPTIONS_BYTES:
        raise OptionsError(
            f"{game_id}: the options are {size:,} bytes as JSON, more than the {MAX_OPTIONS_BYTES:,} a game's data "
            "needs (records and tables carry them)"
        )
    for name, spec in specs.items():
        value = options[name]
        for need in spec.requires:
            if not need.applies(value, spec.default):
                continue
            chosen = f"{name}={json.dumps(value):.40}"
            if need.option == PLAYERS:
                if players in need.values:
                    continue
                why = need.why or f"{spec.named(name)} {spec.words(value)} is for {_players_words(need.values)}"
                raise OptionsError(f"{game_id}: {why}, but the table has {_players_words([players])} (option {chosen})")
            other = specs[need.option]  # a KeyError is the game's own mistake
            actual = options[need.option]
            if any(_same(actual, allowed) for allowed in need.values):
                continue
            label = other.named(need.option)
            allowed = " or ".join(other.words(v) for v in need.values)
            why = need.why or f"{spec.named(name)} {spec.words(value)} needs {label} {allowed}"
            now = other.words(actual)
            raise OptionsError(
                f"{game_id}: {why}, but {label} is {f'“{now}”' if ':' in now or ',' in now else now} "
                f"(options {chosen}, {need.option}={json.dumps(actual):.40})"
            )
    return options
