"""Shared pieces of Mothership's web board: constants, the grid's SVG text, the panels' HTML, the context.

The board is module :mod:`.web`; the context is a view and what the drawing needs from the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from spacetable.engine.svg import attrs as attrs_markup
from spacetable.engine.svg import escape

from ..modules.npc import posted
from ..rules.board import MAX_EXTRA, MAX_PLANETS, Board
from .web_words import Terms, terms

if TYPE_CHECKING:
    from ..game import Mothership

CELL = 42
PHONE_PX = 370
"""The grid's drawn width on a 390 px phone (the table's padding taken off)."""
SMALLEST_PX = 11.5
"""The smallest text the grid may show there, in pixels (the table's floor is 11 on a phone)."""
STATION, CANNON = 15, 14
SUBSYSTEMS = ("engines", "weapons", "shields")
COLOURS = ("#4dd0e1", "#ffd54f", "#81c784", "#e57bf5", "#ff7b7b", "#6fa8ff")
NPC_COLOUR = "#ff9f43"
ABILITIES = ("asteroid_mining", "jump_gates", "sunslayer_torpedoes", "nuclear_missile", "tractor_beam", "hangar_bay")
"""The abilities in ``UseAbility``'s numbering (module :mod:`..rules.abilities`)."""
ROLLED_CARDS = {"backup_generator", "the_forks"}
OWN_SHIP_CARDS = {"afterburner", "punch_it", "deflector_shields", "ninja_rope", "life_support"}
CELL_CHOICES = {"pull", "warp_out", "cannon", "warp"}
"""Questions whose answers are spaces: their options are also marked on the board."""
LETTERS = {"mothership": "M", "fighter": "F", "bomber": "B"}


# ---- markup ----------------------------------------------------------------------------------


def text(x: float, y: float, words: str, anchor: str = "start", **attrs: object) -> str:
    fill = attrs.pop("fill", None)
    if fill is not None:  # as a style: the board's text rule would override a presentation attribute
        attrs["style"] = f"fill:{fill}"
    return f"<text{attrs_markup({'x': x, 'y': y, 'text_anchor': anchor, **attrs})}>{escape(words)}</text>"


def cell_name(size: int, cell: int) -> str:
    r, c = divmod(cell, size)
    return f"{chr(ord('A') + c)}{r + 1}"


def target_part(game: Mothership, code: int) -> str:
    """The part of an attack or card target number (see :mod:`..rules.actions`)."""
    ships = game.content.ships
    base = game.fleets * (ships + 1)
    cannons = base + MAX_PLANETS + MAX_EXTRA
    if code >= cannons:
        return f"cannon:{cell_name(game.size, code - cannons)}"
    if code >= base:
        return f"planet:{code - base}"
    seat, ship = divmod(code, ships + 1)
    return f"station:{seat}" if ship == ships else f"unit:{seat}:{ship}"


# ---- the drawing's context ----------------------------------------------------------------------


@lru_cache(maxsize=16)
def game_terms(game: Mothership) -> Terms:
    return terms(game.content)


@dataclass
class Ctx:
    game: Mothership
    view: Mapping[str, Any]
    board: Board
    seat: int | None
    terms: Terms

    @property
    def size(self) -> int:
        return self.board.size

    def name(self, cell: int) -> str:
        return cell_name(self.board.size, cell)

    def colour(self, fleet: int) -> str:
        return NPC_COLOUR if fleet == self.game.npc else COLOURS[fleet % len(COLOURS)]

    def mark(self, fleet: int) -> str:
        return "N" if fleet == self.game.npc else str(fleet + 1)

    def player(self, fleet: int) -> str:
        return "NPC" if fleet == self.game.npc else f"Player {fleet + 1}"

    def team(self, fleet: int) -> str:
        if self.game.options["team_size"] <= 1 or fleet == self.game.npc:
            return ""
        return f"team {chr(ord('A') + fleet % self.game.teams)}"

    def who(self, fleet: int) -> str:
        team = self.team(fleet)
        you = " (you)" if fleet == self.seat else ""
        return f"{self.player(fleet)}{you}" + (f", {team}" if team else "")

    @property
    def font(self) -> float:
        """The grid's text size, in its own units: every label of the grid at least
        ``SMALLEST_PX`` when the whole grid is drawn ``PHONE_PX`` wide (the margin for the row
        numbers, 1.6 of it, counted in the width)."""
        k = SMALLEST_PX / PHONE_PX
        return round(k * (self.size * CELL + 4) / (1 - 1.6 * k), 1)

    @property
    def left(self) -> float:
        """Where the first column starts (room for the row numbers)."""
        return round(self.font * 1.6, 1)

    @property
    def top(self) -> float:
        """Where the first row starts (room for the column letters)."""
        return round(self.font * 1.3, 1)

    def cell_xy(self, cell: int) -> tuple[float, float]:
        r, c = divmod(cell, self.size)
        return self.left + c * CELL, self.top + r * CELL

    def ship_kind(self, ship: int) -> str:
        return str(self.game.ship_kinds[ship])

    def npc_orders(self, ship: int, kind: str) -> str:
        """What an NPC ship will do, by the solo rules (chapter 14), from what the view shows."""
        if kind == "mothership":
            return "its orders: attack your colony station, or the guard nearest to it"
        planet = self.name(self.board.planets[posted(self.board, ship)])
        if kind == "fighter":
            return (
                f"its orders: guard the planet at {planet} until a fighter or bomber of yours comes within "
                f"{self.game.content.fighter_move} spaces, then hunt it (it never attacks a mothership)"
            )
        if self.view["raiding"] >> ship & 1:
            return "its orders: fly straight at your colony station at full engines, through asteroids, and attack it"
        return f"its orders: besiege the planet at {planet} until the NPC holds it, then raid your colony station"

    def ship_title(self, fleet: int, ship: int) -> str:
        v = self.view
        kind = self.ship_kind(ship)
        name = self.game.ship_names[ship]
        c = self.game.content
        where = self.name(v["pos"][fleet][ship])
        words = f"{self.who(fleet)}: {name} at {where}"
        if kind == "mothership":
            engines, weapons, _ = v["energy"][fleet]
            die = c.weapons[weapons] if weapons < len(c.weapons) else 0
            words += (
                f", hull {v['hp'][fleet]}/{c.mothership_hp}, shields {v['shield'][fleet]} left; "
                f"engines {engines} ({c.engines[engines]} spaces), weapons {weapons} "
                f"({'d' + str(die) if die else 'no die'})"
            )
        elif kind == "fighter":
            words += f", moves {c.fighter_move}, rolls a d{c.fighter_die}"
        else:
            words += f", moves {c.bomber_move}, rolls a d{c.bomber_die}"
        if fleet == self.game.npc:
            words += "; " + self.npc_orders(ship, kind)
        held = sorted({e[0] for e in v["effects"] if e[1] == fleet and e[2] == ship and e[0] != "prod"})
        if held:
            words += "; " + ", ".join(EFFECT_NAMES.get(e, e) for e in held)
        if fleet == v["turn"] and v["phase"] == "turn":
            if v["attacked"] >> ship & 1:
                words += "; has attacked this turn"
            elif v["used"][ship]:
                words += "; has moved this turn"
        return words + "."


EFFECT_NAMES = {
    "boost": "extra engine spaces this turn",
    "deflect": "passes asteroids without a dogfight this turn",
    "frozen": "cannot move (held)",
    "rope": "may move after attacking",
    "jumped": "jumped this turn",
    "gates": "jump gates open",
    "blockade": "trade blockade",
}


def board_of(game: Mothership, view: Mapping[str, Any]) -> Board | None:
    if view["phase"] == "board":
        return None
    return game.board_for(view["board_seed"])


# ---- the side panels: HTML ----------------------------------------------------------------------


def tag(name: str, body: str = "", **values: object) -> str:
    """One HTML element of the side panels; ``title`` stays an attribute (the browser's hover text,
    which the table also shows in its info panel), ``body`` is raw markup."""
    return f"<{name}{attrs_markup(values)}>{body}</{name}>"


def chip(
    words: str,
    title: str,
    part: str | None = None,
    term: str | None = None,
    cls: str = "",
    colour: str | None = None,
) -> str:
    """A labelled box of a panel: a value, a card, a button; clickable where it names a ``part``."""
    return tag(
        "span",
        escape(words),
        title=title,
        data_part=part,
        data_term=term,
        class_=("ms-chip " + cls).strip(),
        style=f"background:{colour};color:#0b1020" if colour else None,
    )


def heading(words: str, term: str | None = None, colour: str | None = None, mark: str = "") -> str:
    """A panel's heading, after an optional fleet mark (markup)."""
    style = f"color:{colour}" if colour else None
    return tag("h3", mark + tag("span", escape(words), style=style), class_="ms-h", data_term=term)


def line(words: str, title: str | None = None, term: str | None = None) -> str:
    return tag("p", escape(words), class_="ms-line", title=title, data_term=term)


def row(chips: Sequence[str], cls: str = "") -> str:
    """Chips side by side, wrapping onto more lines where the panel is narrow."""
    return tag("div", "".join(chips), class_=("ms-row " + cls).strip()) if chips else ""


def panel(tab: str, body: str, label: str | None = None) -> str:
    """One panel of the side; ``tab`` names it where the panels become tabs (a phone)."""
    return tag("section", body, class_="ms-panel", data_tab=tab, aria_label=label or tab) if body else ""
