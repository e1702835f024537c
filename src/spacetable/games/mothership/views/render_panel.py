"""Mothership in the terminal: the panel beside the grid, what a player reads and clicks to decide.

:func:`panel_lines` draws it from ``state.view(seat)``, top to bottom (a compact board keeps the
first lines that fit, after :func:`status_lines`, the round and whose turn it is): the roll in
progress, each die ``die:<i>``; the question asked, each answer ``choice:<value>`` (answers that
are spaces are marked on the grid instead); the card being played; the buttons of the viewer's
decision (``activate:<ship>``, ``auto_place``, ``reward:<0|1>``, ``event:<1|2>``, ``pass``,
``end_turn``); then the viewer's fleet: hull, shields, station, resources, Overcharges
(``charge``), the control panel's three rows (``panel:<name>:<energy>``: a gauge whose every
position is a value, ``●`` the one set), the hand (``card:<kind>``, ``sell``, ``deck``), the
technology (``tech:<branch>``, ``ability:<name>``), secret objectives (``objective:<card>``) and
ships lost (``unit:<ship>``); last, every other fleet's name (``station:<seat>``, the player a
card targets) and control panel (``subsystem:<seat>:<name>``).

Each element is tagged ``[@part='ID']...[/]`` with the id of :func:`.web.action_parts` (rich
prints nothing for it; the terminal app makes the element clickable). This module does not
import rich: each :class:`~spacetable.engine.textpieces.Piece` counts the columns of its markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.textpieces import Piece, fit, flow, joined, piece

from ..content import UNITS
from ..modules.random_events import AVOID, DOUBLE
from ..modules.random_events import NAMES as EVENT_NAMES
from ..rules.choices import pass_words
from ..rules.state import MothershipState
from .web_markup import CELL_CHOICES, SUBSYSTEMS

__all__ = ["colour", "fleet_mark", "panel_lines", "status_lines"]

COLOURS = ("cyan", "yellow", "green", "magenta", "red", "blue")
"""Each fleet's colour, by seat."""
PENDING_WORDS = {
    "dogfight": "Dogfight",
    "asteroid": "Asteroids",
    "black_hole": "Black hole",
    "test": "Beacon test",
    "event": "Event die",
    "replicator": "Replicator",
}
NAME_WIDTHS = (10, 6, 3)
"""Columns a card's, an objective's or an ability's name gets (the whole name is in its hover
text), widest first: a panel too long for its rows tries the next, with its figures closer too."""


def colour(seat: int) -> str:
    """A fleet's colour on the grid and in the panels."""
    return COLOURS[seat % len(COLOURS)]


def fleet_mark(state: MothershipState, seat: int) -> str:
    """A fleet's mark on the grid: the seat's number, N for the solo challenge's NPC."""
    return "N" if seat == state.game.npc else str(seat + 1)


def _short_name(state: MothershipState, seat: int) -> str:
    """``P2``, or ``NPC``: a fleet's name in the panel."""
    return "NPC" if seat == state.game.npc else f"P{seat + 1}"


def _short(name: str, width: int) -> str:
    """A name in at most ``width`` columns, cut after a whole word where there is one (three
    columns or fewer: its first letters)."""
    if len(name) <= width:
        return name
    if width <= 3:
        return name[:width]
    cut = name[: width - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut[1:] else cut) + "…"


def _who(state: MothershipState, seat: int) -> Piece:
    return piece(state.player_name(seat), f"bold {colour(seat)}")


# ---- what is happening now -------------------------------------------------------------------


def status_lines(state: MothershipState, width: int) -> list[Piece]:
    """The round and whose turn it is (the set-up, the end), for a board without a header."""
    if state.phase == "over":
        winners = ", ".join(state.player_name(s) for s in state.winners) or "nobody"
        return [piece(fit(f"Game over: {winners} won", width), "bold")]
    if state.phase in ("board", "order"):
        return [piece(fit("Set-up: the board, then who starts", width), "bold")]
    if state.phase == "place":
        return [piece(fit("Set-up: placing the fleets", width), "bold")]
    return flow([piece(f"Round {state.round}:", "bold"), _who(state, state.turn), piece("to play")], width)


def _now(state: MothershipState, view: Mapping[str, Any], seat: int | None, width: int) -> list[Piece]:
    """The roll in progress, the question asked, the card being played and the viewer's buttons."""
    c = state.game.content
    lines: list[Piece] = []
    pending = view["pending"]
    if pending and pending.get("what") in PENDING_WORDS:
        dice = []
        for i, sides in enumerate(pending["dice"]):
            rolled = pending["rolls"][i] if i < len(pending["rolls"]) else "?"
            dice.append(piece(f"d{sides}:{rolled}", "bold", f"die:{i}"))
        lines += flow([piece(PENDING_WORDS[pending["what"]] + ":"), *dice], width)
    choice = view["choice"]
    if choice:
        cells = choice["what"] in CELL_CHOICES
        words = "chooses a marked space" if cells else "chooses:"
        lines += flow([_who(state, choice["seat"]), piece(words)], width)
        if not cells:
            for value, label in zip(choice["options"], choice["labels"]):
                lines.append(piece(fit(f"» {label}", width), "bold", f"choice:{value}"))
    if view["playing"]:
        played, card = view["playing"][0], view["playing"][1]
        lines.append(piece(fit(f"{state.player_name(played)} plays {c.cards[card].name}", width), "italic"))
    return lines + flow([_button(words, part, width) for words, part in _buttons(state, view, seat)], width)


def _button(words: str, part: str, width: int) -> Piece:
    """A button of the panel: ``[words]`` cut to ``width``, tagged with ``part``."""
    return piece(fit(f"[{words}]", width), "bold", part)


def _buttons(state: MothershipState, view: Mapping[str, Any], seat: int | None) -> list[tuple[str, str]]:
    """(words, part) of the viewer's moves that have no place on the grid, while the viewer owes a
    decision."""
    if seat is None or seat not in view.get("to_act", ()):
        return []
    if view["phase"] == "place":
        return [("Place the rest", "auto_place")]
    if view["choice"]:
        return []
    if view["reward"]:
        steal = (f"Steal from {state.player_name(view['reward'][1])}", "reward:1")
        return ([("Take the top card", "reward:0")] if view["deck"] else []) + [steal]
    if view["event_roll"]:
        name = EVENT_NAMES[view["event_roll"][1]]
        return [(f"Double {name}", f"event:{DOUBLE}"), (f"Avoid {name}", f"event:{AVOID}")]
    if view["cancel"] or view["pending"] or view["trading"]:
        return [(f"Pass: {pass_words(view['cancel'], view['pending'], view['trading'])}", "pass")]
    if view["phase"] != "turn" or view["turn"] != seat:
        return []
    return [*_beacon_buttons(state, view, seat), ("End the turn", "end_turn")]


def _beacon_buttons(state: MothershipState, view: Mapping[str, Any], seat: int) -> list[tuple[str, str]]:
    """A button for each ship standing on a distress beacon for its kind (``activate:<ship>``)."""
    board = state.board
    assert board is not None
    tokens = {cell: unit for cell, unit in view["tokens"]}
    return [
        (f"Beacon {board.name_of(cell)}", f"activate:{ship}")
        for ship, cell in enumerate(view["pos"][seat])
        if tokens.get(cell, -1) >= 0 and UNITS[tokens[cell]] == state.game.ship_kinds[ship]
    ]


# ---- the viewer's fleet ------------------------------------------------------------------------


def _figures(state: MothershipState, view: Mapping[str, Any], seat: int, width: int, close: bool) -> list[Piece]:
    """Hull, shields, station, resources, Overcharges (and victory points); ``close``: without the
    fleet's name and the spaces inside each figure."""
    mark = piece(f"{_short_name(state, seat)}:", f"bold {colour(seat)}")
    if view["out"][seat]:
        return [joined([mark, piece("out of the game", "red")])]
    gap = "" if close else " "
    figures = [
        piece(f"hp{gap}{view['hp'][seat]}"),
        piece(f"sh{gap}{view['shield'][seat]}"),
        piece(f"stn{gap}{view['station_hp'][seat]}"),
        piece(f"res{gap}{view['resources'][seat]}", "bold"),
        piece(f"OC{gap}{view['charges'][seat]}", "", "charge"),
    ]
    if state.game.mode == "victory_points":
        figures.append(piece(f"VP{gap}{view['points'][seat]}", "bold"))
    return flow(figures if close else [mark, *figures], width)


def _gives(state: MothershipState, row: int, energy: int) -> str:
    c = state.game.content
    if row == 0:
        return f"{c.engines[energy]} sp"
    if row == 1:
        return f"d{c.weapons[energy]}" if c.weapons[energy] else "no die"
    return f"{c.shields[energy]} pt"


def _energy(state: MothershipState, view: Mapping[str, Any], seat: int) -> list[Piece]:
    """The control panel: a row per subsystem, its value, a gauge of every value (click one to set
    it), and what the value set gives."""
    rows = []
    for index, name in enumerate(SUBSYSTEMS):
        now = view["energy"][seat][index]
        parts = [f"[@part='panel:{name}:{value}']" for value in range(state.game.content.row_length + 1)]
        done = "".join(f"{tag}━[/]" for tag in parts[:now]) + f"{parts[now]}●[/]"
        gauge = Piece(
            f"[bold {colour(seat)}]{done}[/][dim]{''.join(f'{tag}─[/]' for tag in parts[now + 1 :])}[/]", len(parts)
        )
        label = piece(f"{name[:3].capitalize()} {now:>2}")
        rows.append(joined([label, gauge, piece(_gives(state, index, now))]))
    return rows


def _hand(state: MothershipState, view: Mapping[str, Any], seat: int, width: int, names: int) -> list[Piece]:
    """The viewer's cards (``card:<kind>``), then the buttons to sell one and to buy one."""
    hand = view["hands"][seat]
    if not isinstance(hand, list):
        return []
    cards = state.game.content.cards
    chips = [piece("Hand:", "bold")]
    for card in sorted(set(hand)):
        copies = hand.count(card)
        chips.append(piece(_short(cards[card].name, names) + (f"×{copies}" if copies > 1 else ""), "", f"card:{card}"))
    buy = f"buy: deck {view['deck']}" if names == NAME_WIDTHS[0] else f"deck {view['deck']}"
    chips += [_button("sell", "sell", width), _button(buy, "deck", width)]
    return flow(chips, width)


def _technology(state: MothershipState, view: Mapping[str, Any], seat: int, width: int, names: int) -> list[Piece]:
    """Each branch as its name's first letters and the tiers climbed (``-``: another branch of its
    category is climbed), then a button per ability held."""
    c = state.game.content
    chips = [piece("Tech", "bold")]
    abilities = []
    for index, branch in enumerate(c.branches):
        category = state.game.branch_categories[index]
        chosen = view["branches"][seat][category]
        tiers = view["tiers"][seat][category] if chosen == index else 0
        mark = "-" if chosen not in (-1, index) else str(tiers)
        chips.append(piece(branch.name[:2] + mark, "dim" if mark == "-" else "", f"tech:{index}"))
        abilities += [tile for tile in branch.tiers[:tiers] if tile.effect == "ability"]
    chips += [_button(_short(tile.name, names), f"ability:{tile.ability}", width) for tile in abilities]
    return flow(chips, width)


def _finds(state: MothershipState, view: Mapping[str, Any], seat: int, width: int, names: int) -> list[Piece]:
    """The viewer's secret objectives (``objective:<card>``, to replace one) and destroyed ships
    (``unit:<ship>``, which cards bring back)."""
    chips = []
    held = view["objectives"][seat]
    if state.game.options["objectives"] == "hidden" and isinstance(held, list) and held:
        models = state.game.content.objectives
        chips += [piece("Obj:", "bold")]
        chips += [piece(_short(models[card][1].name, names), "", f"objective:{card}") for card in held]
    lost = [ship for ship, cell in enumerate(view["pos"][seat]) if cell < 0]
    if lost and view["phase"] not in ("board", "place"):
        ships = state.game.ship_names
        chips += [piece("Lost:", "bold")]
        chips += [piece(ships[ship][0] + ships[ship][-1] if ship else "M", "dim", f"unit:{ship}") for ship in lost]
    return flow(chips, width)


def _others(state: MothershipState, view: Mapping[str, Any], seat: int | None, width: int) -> list[Piece]:
    """Every other fleet's name and control panel (``P2 E5 W5 S5``); the name is tagged
    ``station:<seat>``, the part of the cards that target a player (an NPC has no station)."""
    chips = []
    for other in range(state.game.fleets):
        if other == seat or view["out"][other]:
            continue
        values = [
            piece(f"{name[0].upper()}{view['energy'][other][k]}", "", f"subsystem:{other}:{name}")
            for k, name in enumerate(SUBSYSTEMS)
        ]
        name = piece(_short_name(state, other), f"bold {colour(other)}", f"station:{other}")  # the player
        chips.append(joined([name, *values]))
    return flow(chips, width)


def panel_lines(state: MothershipState, seat: int | None, width: int, rows: int | None = None) -> list[Piece]:
    """The panel ``seat`` sees (the module docstring, after the status), in lines of at most
    ``width`` columns; within ``rows`` lines where the names' narrower widths (:data:`NAME_WIDTHS`)
    bring it (else its first ``rows`` lines hold the decision at hand)."""
    view: dict[str, Any] = state.view(seat)
    for names in NAME_WIDTHS:
        lines = _now(state, view, seat, width)
        if seat is not None and seat != state.game.npc and view["phase"] not in ("board", "order"):
            lines += _figures(state, view, seat, width, close=names < NAME_WIDTHS[0])
            if not view["out"][seat]:
                lines += _energy(state, view, seat)
                lines += _hand(state, view, seat, width, names)
                lines += _technology(state, view, seat, width, names)
                lines += _finds(state, view, seat, width, names)
        lines += _others(state, view, seat, width)
        if rows is None or len(lines) <= rows:
            break
    return lines
