"""Mothership in the terminal: the grid, each player's control panel, and a two-step menu.

The grid shows each space as two characters: ``M``, ``f``, ``b`` (mothership, fighter,
bomber), ``S`` (colony station) or ``G`` (guardian cannon) followed by the owner's seat
number (``N`` for the solo challenge's NPC), ``P`` and the owner's number (``P.`` neutral) for
planets, ``##`` for asteroids, ``**`` for neutron stars, ``@@`` for black holes, ``!`` and the
unit it calls for (``!?`` locked) for a distress beacon. Each player's colour is kept
everywhere, and the digits tell the owners apart without it. Beside the grid is the viewer's
panel (:mod:`.render_panel`): the control panel, hand, technology and buttons.

Every element an action can involve is tagged ``[@part='ID']...[/]`` with the ids of
:func:`.web.action_parts`: each space ``cell:<C4>`` (a gap and its two characters), and inside it
the piece: ``planet:<p>``, ``station:<seat>``, ``cannon:<C4>``, ``unit:<seat>:<ship>``; the
viewer's own ships carry ``unit:<ship>`` on their letter and ``unit:<seat>:<ship>`` on their
digit; a space that answers the question asked carries ``choice:<cell>``. Rich prints nothing for
a tag; the terminal app makes the element clickable.

:func:`render` is the whole position; :func:`compact` the grid and the panel in at most
:data:`COMPACT_COLUMNS` x :data:`COMPACT_ROWS` (the app's board panel at 80x24), a 15x15 grid
without its row of column letters (the top row's empty spaces show them instead).

The menu asks for a unit first (or the control panel, an attack with several ships, the end of
the turn), then its destination or target.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spacetable.engine import Action
from spacetable.engine.textpieces import Piece, beside
from spacetable.engine.words import count

from ..modules import beacons, exploration, objectives, victory
from ..rules.actions import (
    Activate,
    Attack,
    Buy,
    BuyCharge,
    BuyTech,
    EndTurn,
    Explore,
    Move,
    Place,
    Play,
    ReplaceObjective,
    Sell,
    SetEnergy,
    UseAbility,
    ship_bits,
)
from ..rules.board import ASTEROID, BLACK_HOLE, NEUTRON_STAR, PLANET
from ..rules.state import CANNON, LOCKED, NOWHERE, STATION, MothershipState
from .render_panel import colour, fleet_mark, panel_lines, status_lines
from .web_grid import terrain
from .web_markup import CELL_CHOICES

__all__ = ["action_groups", "compact", "help_terms", "legend", "menu_title", "render"]

LETTERS = {"mothership": "M", "fighter": "f", "bomber": "b"}
COMPACT_COLUMNS, COMPACT_ROWS = 78, 15
"""The most :func:`compact` draws: the app's board panel on an 80x24 terminal."""
FULL_PANEL = 60
"""Columns of the panel beside the grid in :func:`render`."""
SETTING_UP = "[bold]Setting up[/]: the board is about to be drawn."


def _player(state: MothershipState, seat: int) -> str:
    return f"[{colour(seat)}]{state.player_name(seat)}[/]"


def render(state: MothershipState, seat: int | None = None) -> str:
    """The board and every control panel as ``seat`` may see them (rich markup)."""
    view: dict[str, Any] = state.view(seat)
    if state.board is None:
        return SETTING_UP
    lines = [_header(state)]
    grid = grid_lines(state, seat)
    lines += beside(grid, panel_lines(state, seat, FULL_PANEL), grid[0].width + 3)
    lines.append(legend(state))
    for s in range(state.game.fleets):
        lines.append(_panel(state, s, view["resources"][s]))
        lines.append(_tree(state, s))
    lines += exploration.describe(state) + victory.describe(state)
    lines += beacons.describe(state) + objectives.describe(state, seat)
    if seat is not None and not state.out[seat]:
        cards = state.game.content.cards
        hand = ", ".join(f"{cards[c].name} ({cards[c].value})" for c in view["hands"][seat]) or "no cards"
        lines.append(f"Your hand: {hand}")
    lines.append(f"Action deck: {view['deck']} cards; discard pile: {sum(view['discard'])}")
    return "\n".join(lines)


def _tree(state: MothershipState, seat: int) -> str:
    """The player's technology: each category's branch and tiers, and Overcharges held."""
    content = state.game.content
    parts = []
    for category in range(len(state.tiers[seat])):
        index = state.branches[seat][category]
        if index < 0:
            continue
        branch = content.branches[index]
        tiers = state.tiers[seat][category]
        parts.append(f"{branch.name} {tiers}/5 ({branch.tiers[tiers - 1].name})")
    charges = f"; {state.charges[seat]} Overcharge" if state.charges[seat] else ""
    if seat == state.game.npc:
        return f"    tech: {', '.join(parts) or 'none'} (fixed by the level)"
    hand = len(state.hands[seat])
    return f"    tech: {', '.join(parts) or 'none'}{charges}; {hand} card{'s' if hand != 1 else ''} in hand"


def _header(state: MothershipState) -> str:
    if state.phase == "over":
        winners = ", ".join(_player(state, s) for s in state.winners) or "nobody"
        return f"[bold]Game over[/]: {state.reason}. Winners: {winners}"
    if state.phase == "place" and state.game.npc >= 0:
        return "[bold]Set-up[/]: your ships are placed within two spaces of the fleet's corner (F)"
    if state.phase == "place":
        return "[bold]Set-up[/]: ships are placed within two spaces of their colony station"
    if state.phase == "order":
        return "[bold]Set-up[/]: rolling a d6 each to see who starts"
    return f"[bold]Round {state.round}[/] · {_player(state, state.turn)}'s turn"


def compact(state: MothershipState, seat: int | None = None) -> str:
    """The grid and, beside it, ``seat``'s panel (the round, what is being decided, the control
    panel, hand, technology and the other fleets' control panels, as many lines as fit) in at most
    :data:`COMPACT_COLUMNS` x :data:`COMPACT_ROWS`; the rest is in :func:`render`."""
    board = state.board
    if board is None:
        return SETTING_UP
    grid = grid_lines(state, seat, header=board.size < COMPACT_ROWS)
    column = grid[0].width + 2
    status = status_lines(state, COMPACT_COLUMNS - column)
    side = status + panel_lines(state, seat, COMPACT_COLUMNS - column, COMPACT_ROWS - len(status))
    return "\n".join(beside(grid, side[:COMPACT_ROWS], column))


def grid_lines(state: MothershipState, seat: int | None, header: bool = True) -> list[Piece]:
    """The grid as ``seat`` sees it, a line a row after a line of column letters (``header``);
    without that line the top row's empty spaces show their column's letter."""
    board = state.board
    assert board is not None
    size = board.size
    choice = state.choice
    answers = set(choice["options"]) if choice and choice["what"] in CELL_CHOICES else set()
    width = 3 + 3 * size
    letters = [chr(ord("A") + c) for c in range(size)]
    lines = [Piece("   " + "".join(f"{letter:>3}" for letter in letters), width)] if header else []
    for r in range(size):
        row = f"{r + 1:>3}"
        empties = ""  # a run of empty spaces, dimmed together (fewer tags for the terminal to read)
        for c in range(size):
            cell = r * size + c
            glyph, term = _drawn(state, cell, seat)
            tag = f"[@part='cell:{board.name_of(cell)}']"
            if term == "empty space" and cell not in answers:
                empties += f"{tag}  {'·' if header or r else letters[c]}[/]"
                continue
            if empties:
                row, empties = row + f"[dim]{empties}[/]", ""
            if cell in answers:  # the question's answer: the space itself
                glyph = f"[@part='choice:{cell}'][underline]{glyph}[/][/]"
            row += f"{tag} {glyph}[/]"
        lines.append(Piece(row + (f"[dim]{empties}[/]" if empties else ""), width))
    return lines


UNIT_TERMS = {"M": "mothership", "f": "fighter", "b": "bomber", "S": "colony station", "G": "guardian cannon"}


def _drawn(state: MothershipState, cell: int, seat: int | None = None) -> tuple[str, str]:
    """(markup, glossary term) of a space as ``seat`` sees it: its unit, else the fleet corner, a
    beacon, the terrain. A unit or planet is tagged with its part (the module docstring)."""
    board = state.board
    assert board is not None
    occupant = state.grid[cell]
    if occupant >= 0:
        owner, unit = occupant >> 4, occupant & 15
        mark = fleet_mark(state, owner)
        if unit in (STATION, CANNON):
            letter = "S" if unit == STATION else "G"
            part = f"station:{owner}" if unit == STATION else f"cannon:{board.name_of(cell)}"
            body = f"[@part='{part}']{letter}{mark}[/]"
        else:
            letter = LETTERS[state.game.ship_kinds[unit]]
            fleet = f"[@part='unit:{owner}:{unit}']"
            body = f"[@part='unit:{unit}']{letter}[/]{fleet}{mark}[/]" if owner == seat else f"{fleet}{letter}{mark}[/]"
        return f"[bold {colour(owner)}]{body}[/]", UNIT_TERMS[letter]
    mark = board.terrain[cell]
    if cell == board.fleet and state.phase == "place":
        return "[bold] F[/]", "fleet corner"
    token = beacons.token_at(state, cell)
    if token >= 0:
        unit = state.tokens[token][1]
        return f"[bold white]!{'?' if unit == LOCKED else LETTERS[beacons.UNITS[unit]]}[/]", "beacon token"
    terms = {ASTEROID: "asteroid field", NEUTRON_STAR: "neutron star", BLACK_HOLE: "black hole"}
    if mark in terms:  # ## asteroids, ** neutron stars, @@ black holes
        return f"[dim]{mark * 2}[/]", terms[mark]
    planet = board.planets.index(cell) if mark == PLANET else -1
    owner = state.owner[planet] if planet >= 0 else -2  # -2: no planet, or one taken off the board
    if owner == -1:
        return f"[@part='planet:{planet}'][bold white]P.[/][/]", "neutral planet"
    if owner >= 0:
        return f"[@part='planet:{planet}'][bold {colour(owner)}]P{fleet_mark(state, owner)}[/][/]", "planet"
    return "[dim] ·[/]", "empty space"


SYMBOLS: tuple[tuple[str, str, str], ...] = (
    # (the symbol as drawn, its words in the legend, its glossary term)
    ("M1", "mothership", "mothership"),
    ("f1", "fighter", "fighter"),
    ("b1", "bomber", "bomber"),
    ("S1", "colony station", "colony station"),
    ("G1", "guardian cannon", "guardian cannon"),
    ("P1", "planet (the digit: its holder)", "planet"),
    ("P.", "neutral planet", "neutral planet"),
    ("##", "asteroid field (risky)", "asteroid field"),
    ("**", "neutron star", "neutron star"),
    ("@@", "black hole (risky)", "black hole"),
    ("!f", "beacon (!? locked)", "beacon token"),
    ("F", "fleet corner", "fleet corner"),
)
"""The grid's symbols; the legend under the grid lists those on it."""


def _symbols_on_grid(state: MothershipState) -> set[str]:
    """The glossary terms (see SYMBOLS) of what the grid shows now."""
    board = state.board
    assert board is not None
    return {_drawn(state, cell)[1] for cell in range(board.size * board.size)}


def legend(state: MothershipState) -> str:
    """One line under the grid naming every symbol on it (the digit after a letter: the player)."""
    used = _symbols_on_grid(state)
    parts = [f"{symbol} {words}" for symbol, words, term in SYMBOLS if term in used]
    npc = "; N: the NPC fleet" if state.game.npc >= 0 else ""
    return f"[dim]{' · '.join(parts)}; the digit: the player{npc}; · empty; C4: column C, row 4[/]"


def help_terms(state: MothershipState, seat: int | None = None) -> list[str]:
    """The glossary words of the symbols on the grid and of the control panel."""
    if state.board is None:
        return []
    used = _symbols_on_grid(state)
    symbols = [term for _, _, term in SYMBOLS if term in used]
    return [*symbols, "coordinates", "engines", "weapons", "shields", "hull", "risky"]


def _panel(state: MothershipState, seat: int, resources: int | None) -> str:
    name = _player(state, seat)
    if state.out[seat]:
        return f"{name}: [red]out[/]"
    c = state.game.content
    engines, weapons, shields = state.energy[seat]
    die = c.weapons[weapons]
    fleet = state.pos[seat]
    alive = [state.game.ship_names[s] for s, cell in enumerate(fleet) if cell != NOWHERE and s]
    mothership = (
        f"mothership {state.hp[seat]} HP, engines {engines} ({c.engines[engines]} spaces), weapons {weapons} "
        f"({'d' + str(die) if die else 'no die'}), shields {shields} ({state.shield[seat]} left)"
        if fleet[0] != NOWHERE
        else "fleet not placed yet"
        if state.phase in ("board", "place")
        else "[red]mothership destroyed[/]"
    )
    planets = sum(1 for o in state.owner if o == seat)
    ships = f"{count(len(alive), 'other ship')}; {count(planets, 'planet')}"
    if seat == state.game.npc:
        level = state.game.options["level"]
        return f"{name} (level {level}): {mothership}; no station; {ships}; takes no resources or cards"
    held = "?" if resources is None else str(resources)
    station = f"station {state.station_hp[seat]} HP ({state.station_hp[seat] // c.station_counter} counters)"
    return f"{name}: {mothership}; {station}; {ships}; resources {held}"


Groups = list[tuple[str, list[Action]]]


def action_groups(state: MothershipState, actions: Sequence[Action]) -> Groups | None:
    """The menu of ``actions``, a step at a time (the terminal calls this again on the group
    picked): in a turn, the control panel, each ship, joint attacks, cards and the rest; then
    the control panel's engines, its weapons, its shields; a ship's destinations by their
    coordinates, the risky ones marked. Built from the actions' labels and board parts."""
    if state.phase != "turn" or not actions:
        return None
    if all(isinstance(a, SetEnergy) for a in actions):
        return _panel_step(state, actions)
    if len({_ship_of(a) for a in actions}) == 1 and _ship_of(actions[0]) is not None:
        return _destinations(state, actions)
    if len(actions) <= 9:
        return None
    return _turn_groups(state, actions)


def _turn_groups(state: MothershipState, actions: Sequence[Action]) -> Groups | None:
    board = state.board
    assert board is not None
    groups: dict[str, list[Action]] = {}
    names = state.game.ship_names
    for action in actions:
        if isinstance(action, SetEnergy):
            key = "control panel (energy)"
        elif isinstance(action, Move) or (isinstance(action, Attack) and len(ship_bits(action.ships)) == 1):
            ship = action.ship if isinstance(action, Move) else ship_bits(action.ships)[0]
            key = f"{names[ship]} at {board.name_of(state.pos[state.turn][ship])}"
        elif isinstance(action, Attack):
            key = "attack with several ships"
        elif isinstance(action, EndTurn):
            key = "collect resources and end the turn"
        elif isinstance(action, Play):
            key = "play an action card"
        elif isinstance(action, (Buy, Sell)):
            key = "buy or sell action cards"
        elif isinstance(action, (BuyTech, BuyCharge)):
            key = "technology tree"
        elif isinstance(action, UseAbility):
            key = "mothership ability"
        elif isinstance(action, Explore):
            key = "explore a planet"
        elif isinstance(action, (Activate, ReplaceObjective)):
            key = "beacons and objectives"
        else:
            key = "other"
        groups.setdefault(key, []).append(action)
    for members in groups.values():  # moves first, then the attacks
        members.sort(key=lambda a: (0, a[1]) if isinstance(a, Move) else (1, 0))
    return list(groups.items()) if len(groups) > 1 else None


def _panel_step(state: MothershipState, actions: Sequence[Action]) -> Groups:
    """The control panel one subsystem at a time: the first of engines, weapons, shields whose
    value still varies among ``actions`` (its board part ``panel:NAME:VALUE``), with what it gives."""
    game = state.game
    parts = [game.action_parts(a) for a in actions]
    step = next((i for i in range(3) if len({p[i] for p in parts}) > 1), 2)
    groups: dict[str, list[Action]] = {}
    for action, path in zip(actions, parts):
        _, name, value = path[step].split(":")
        groups.setdefault(f"{name} {value} ({_gives(state, name, int(value))})", []).append(action)
    entries = []
    for label, group in groups.items():
        if len(group) == 1 and step < 2:  # the rest of the energy has one place left: say where
            _, name, value = game.action_parts(group[0])[2].split(":")
            label += f", leaving {name} {value} ({_gives(state, name, int(value))})"
        entries.append((label, group))
    return entries


def _gives(state: MothershipState, subsystem: str, energy: int) -> str:
    """What ``energy`` in a subsystem gives, from the content's control panel rows."""
    c = state.game.content
    if subsystem == "engines":
        return count(c.engines[energy], "space")
    if subsystem == "weapons":
        return f"d{c.weapons[energy]}" if c.weapons[energy] else "no die"
    return count(c.shields[energy], "point")


def _ship_of(action: Action) -> int | None:
    """The one ship that makes this move or lone attack (None for anything else)."""
    if isinstance(action, Move):
        return action.ship
    if isinstance(action, Attack) and len(ship_bits(action.ships)) == 1:
        return ship_bits(action.ships)[0]
    return None


def _destinations(state: MothershipState, actions: Sequence[Action]) -> Groups:
    """One ship's moves as their coordinates (type them, e.g. E4), the risky ones marked; then
    its attacks by their labels."""
    board = state.board
    assert board is not None
    owners = state.view(None)["owner"]
    entries = []
    for action in actions:
        if not isinstance(action, Move):
            entries.append((state.action_label(action), [action]))
            continue
        words, _, risky = terrain(board, owners, action[1])
        mark = f" (risky: {words.split(' (')[0]})" if risky else ""
        entries.append((f"to {board.name_of(action[1])}{mark}", [action]))
    return entries


def menu_title(state: MothershipState, actions: Sequence[Action]) -> str | None:
    """At set-up, the ship being placed: ``Place your Fighter 1 (ship 2 of 6):``."""
    if state.phase != "place" or not any(isinstance(a, Place) for a in actions):
        return None
    seat = state.awaiting()[0] if state.awaiting() else state.turn
    fleet = state.pos[seat]
    unplaced = [ship for ship, cell in enumerate(fleet) if cell == NOWHERE]
    if not unplaced:
        return None
    name = state.game.ship_names[unplaced[0]]
    return f"Place your {name} (ship {unplaced[0] + 1} of {len(fleet)}; type its space, e.g. C4):"
