"""The text picture of a SpaceRace position, for terminal front ends.

:func:`render` returns text with rich console markup (``[bold red]...[/]``), :func:`compact` the
board in at most :data:`COMPACT_COLUMNS` x :data:`COMPACT_ROWS` (the terminal app's board panel at
80x24). This module does not import rich (the games layer knows only the engine). It draws only
what ``state.view(seat)`` holds, which in SpaceRace is everything (the decks are public counts), so
both pictures are the same for every seat.

Every element an action can involve is tagged ``[@part='ID']...[/]`` with the ids of
:func:`.web.action_parts` (``nexus``, ``planet:<node>``, ``tile:<node>``, ``ship:<k>`` of the fleet
whose turn it is, ``design:<d|m|a>:<value>``, ``battle:<choice>``, ``end-turn``): rich prints
nothing for the tag, and the terminal app makes the element clickable.

The galactic map is a tree: the Nexus ``@``, then a line per arm from its planet next to the Nexus
outward, and a line per planet hanging off the Nexus by a starway of its own. Each node is two
characters, so owners read without colour: a planet's key letter and its holder's initial (``Ar``
held by Red, ``AR`` Red's homeworld, ``A.`` unclaimed), a tile's ``T`` ``S`` ``·`` (``?`` not laid
yet), or on a tile holding ships their number and their owner's initial (``2r``; ``2+`` ships of
two players). Colours, and reverse video for ships in orbit, add to it.

The full picture, top to bottom: a header; the players; the map with the choice being made beside
it; the routes (tile by tile, from the end nearer the Nexus); the planets; every fleet (each
ship's number is the one moves use); the battle in progress, the decks and the legend.

:func:`action_groups` lets a terminal menu ask "which ship?" before "where to?".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import Action
from spacetable.engine.textpieces import Piece, beside, fit, flow, joined, piece
from spacetable.engine.textpieces import escaped as esc
from spacetable.engine.words import count

from ..rules.actions import Move
from ..rules.battle import fighting_scores
from ..rules.mapgen import NEXUS, Galaxy
from ..rules.ships import Ship
from ..rules.state import ASSAULT, ATTACKER, KIND_NAMES, PVM

if TYPE_CHECKING:
    from ..rules.state import SpaceRaceState

PLAYER_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
PLANET_KEYS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz"
"""Map letters of the planets, in node order (I and O left out: they read as 1 and 0)."""
TILE_STYLES = {"T": "yellow", "S": "bright_red", ".": "dim", "?": "dim"}
TILE_GLYPHS = {"T": "T", "S": "S", ".": "·", "?": "?"}
COMPACT_COLUMNS, COMPACT_ROWS = 78, 15
"""The most :func:`compact` draws: the app's board panel on an 80x24 terminal."""
FULL_SIDE = 60
"""Columns of the choices drawn beside the map in :func:`render`."""
PHASE_TEXT = {
    "starways": "laying the starways",
    "order": "rolling for the order of choice",
    "homeworld": "choosing homeworlds",
    "design": "designing motherships",
    "rebuild": "rebuilding a mothership",
    "move": "moving",
    "initiative": "rolling for the first strike",
    "standoff": "standoff: contest or flee",
    "contest": "standoff: rolling the dice",
    "reward": "victory: assimilate or destroy",
    "encounter": "drawing a spaceship",
    "conquest": "planetary conquest roll",
    "treasure": "drawing treasure",
}


def _words(text: str) -> list[Piece]:
    """``text`` a word a piece, for :func:`flow` to wrap."""
    return [piece(word) for word in text.split()]


def _player(state: SpaceRaceState, seat: int) -> str:
    return f"[{PLAYER_STYLES[seat]}]{state.player_name(seat)}[/]"


def _planet_key(state: SpaceRaceState, node: int) -> str:
    return PLANET_KEYS[state.galaxy.planets.index(node) % len(PLANET_KEYS)]


def _initial(state: SpaceRaceState, seat: int) -> str:
    """A seat's mark on the map: its name's initial, lower case."""
    return state.player_name(seat)[0].lower()


def _crews(state: SpaceRaceState) -> dict[int, list[int]]:
    """Node -> the seat of each ship there, for every node holding ships."""
    crews: dict[int, list[int]] = {}
    for seat, fleet in enumerate(state.fleets):
        for ship in fleet:
            crews.setdefault(ship.node, []).append(seat)
    return crews


# ---- the header and the players ----------------------------------------------------------


def _header(state: SpaceRaceState) -> str:
    limit = state.game.options["turn_limit"]
    head = f"[bold reverse] SPACERACE [/] {state.game.players} players · {len(state.galaxy.planets)} planets"
    if state.phase == "over":
        winners = " and ".join(_player(state, s) for s in state.winners)
        return f"{head} · [bold]game over after round {state.round}[/]: {winners} won ({esc(state.reason)})"
    if state.round == 0:
        return f"{head} · set-up: {PHASE_TEXT[state.phase]}"
    actor = state.current_player()
    who = _player(state, actor) if actor >= 0 else "chance"
    return (
        f"{head} · [bold]round {state.round}{f'/{limit}' if limit else ''}[/] · {_player(state, state.turn)}'s turn · "
        f"{PHASE_TEXT[state.phase]} ({who} to act)"
    )


def _short_header(state: SpaceRaceState) -> Piece:
    """The header in one line of :data:`COMPACT_COLUMNS`."""
    title = piece(" SPACERACE ", "bold reverse")
    limit = state.game.options["turn_limit"]
    if state.phase == "over":
        winners = " and ".join(state.player_name(s) for s in state.winners)
        words = f"game over after round {state.round}: {winners} won"
    elif state.round == 0:
        words = f"set-up: {PHASE_TEXT[state.phase]}"
    else:
        actor = state.current_player()
        who = state.player_name(actor) if actor >= 0 else "chance"
        words = (
            f"round {state.round}{f'/{limit}' if limit else ''} · {state.player_name(state.turn)}'s turn · "
            f"{PHASE_TEXT[state.phase]} ({who} to act)"
        )
    return joined([title, piece(fit(words, COMPACT_COLUMNS - title.width - 1))])


def _player_lines(state: SpaceRaceState) -> list[str]:
    lines = ["[bold underline]Players[/]"]
    for seat in range(state.game.players):
        planets = sum(1 for p in state.galaxy.planets if state.owner[p] == seat)
        ships = len(state.fleets[seat])
        parts = [f"{planets} planet{'s' if planets != 1 else ''}", f"{ships} ship{'s' if ships != 1 else ''}"]
        home = state.homeworld[seat]
        if home >= 0:
            parts.append(f"homeworld {_planet_key(state, home)} {state.galaxy.names[home]}")
        if state.rebuilding[seat]:
            parts.append("[yellow]mothership being rebuilt[/]")
        if state.rolls[seat]:
            parts.append(f"order roll {state.rolls[seat]}")
        if state.out[seat]:
            parts.append("[dim]eliminated[/]")
        marker = "▶" if state.round and seat == state.turn and state.phase != "over" else " "
        lines.append(f" {marker} {_player(state, seat)} (seat {seat}): " + " · ".join(parts))
    return lines


# ---- the map -----------------------------------------------------------------------------


def _chains(galaxy: Galaxy) -> list[tuple[int, ...]]:
    """The nodes of each line of the map after the Nexus: every arm from its planet next to the
    Nexus outward, then every starway from the Nexus to a planet of its own."""
    onward = {way.near: way for way in galaxy.starways if way.near != NEXUS}
    lines = []
    for planet in galaxy.inner_planets:
        chain = [planet]
        while chain[-1] in onward:
            way = onward[chain[-1]]
            chain += [*way.tiles, way.far]
        lines.append(tuple(chain))
    return lines + [(*way.tiles, way.far) for way in galaxy.starways if way.near == NEXUS]


def _node(state: SpaceRaceState, node: int, crews: dict[int, list[int]]) -> Piece:
    """A planet or tile of the map in two characters (the module docstring), tagged with its part."""
    here = crews.get(node, [])
    if state.galaxy.names[node]:
        owner = state.owner[node]
        if owner < 0:
            mark, style = ".", "bold white"
        else:
            initial = _initial(state, owner)
            mark, style = initial.upper() if state.homeworld[owner] == node else initial, PLAYER_STYLES[owner]
        return piece(_planet_key(state, node) + mark, style + (" reverse" if here else ""), f"planet:{node}")
    if here:
        alone = len(set(here)) == 1
        mark = _initial(state, here[0]) if alone else "+"
        style = f"{PLAYER_STYLES[here[0]]} reverse" if alone else "bold reverse"
        return piece(f"{min(len(here), 9)}{mark}", style, f"tile:{node}")
    tile = state.tiles[node]
    return piece(f" {TILE_GLYPHS[tile]}", TILE_STYLES[tile], f"tile:{node}")


def map_lines(state: SpaceRaceState) -> list[Piece]:
    """The galactic map as a tree (the module docstring): the Nexus and the ships there, then a line
    per arm and per planet on the Nexus."""
    crews = _crews(state)
    at_nexus = crews.get(NEXUS, [])
    nexus = [piece("@ Nexus", "bold white" + (" reverse" if at_nexus else ""), "nexus")]
    for seat in sorted(set(at_nexus)):
        nexus.append(piece(f"{at_nexus.count(seat)}{_initial(state, seat)}", PLAYER_STYLES[seat]))
    lines = [joined(nexus)]
    every = _chains(state.galaxy)
    for i, chain in enumerate(every):
        cells = [_node(state, node, crews) for node in chain]
        if not state.galaxy.names[chain[0]]:  # a starway from the Nexus itself: no planet next to it
            cells.insert(0, piece("──", "dim"))
        lines.append(joined([piece("└─" if i == len(every) - 1 else "├─", "dim"), *cells]))
    return lines


def legend(state: SpaceRaceState) -> list[Piece]:
    """The map's symbols, each a piece (:func:`flow` lays them out)."""
    first = state.player_name(0)
    words = (
        "@ Nexus",
        f"Ar: planet A held by {first}",
        f"AR: {first}'s homeworld",
        "A. unclaimed",
        "reversed: ships in orbit",
        "T treasure",
        "S spaceship",
        "· empty",
        f"2r: 2 of {first}'s ships on a tile",
        "2+: of two players",
        ", ".join(f"{_initial(state, s)} {state.player_name(s)}" for s in range(state.game.players)),
        "[D|M|A] defence, movement, attack",
    )
    return [piece(w + (" ·" if i < len(words) - 1 else ""), "dim") for i, w in enumerate(words)]


def _short_place(state: SpaceRaceState, node: int) -> str:
    """A node in a few characters: ``@``, a planet's key, or ``A–E 2`` (tile 2 of the starway A-E)."""
    galaxy = state.galaxy
    if node == NEXUS:
        return "@"
    if galaxy.names[node]:
        return _planet_key(state, node)
    way = galaxy.starways[galaxy.starway_of[node]]
    near = "@" if way.near == NEXUS else _planet_key(state, way.near)
    return f"{near}–{_planet_key(state, way.far)} {way.tiles.index(node) + 1}"


# ---- what the deciding seat chooses ----------------------------------------------------------


def _choice_lines(state: SpaceRaceState, width: int) -> list[Piece]:
    """The deciding seat's choices that have no place on the map (a mothership design, the battle's
    choices, the end of the turn), for every seat to see; the map's choices are named."""
    actor = state.current_player()
    if actor < 0 or state.phase == "over":
        return []
    who = piece(f"{state.player_name(actor)}:", PLAYER_STYLES[actor])
    phase = state.phase
    if phase == "homeworld":
        return flow([who, *_words("choose a free planet of the map as homeworld")], width)
    if phase == "design":
        c = state.content
        low, high = c.mothership_minimum, c.mothership_points - 2 * c.mothership_minimum
        words = f"design the mothership: {c.mothership_points} points over D, M and A (A takes the rest)"
        lines = flow([who, *_words(words)], width)
        for letter in "dma":
            values = [piece(str(v), "bold", f"design:{letter}:{v}") for v in range(low, high + 1)]
            lines += flow([piece(letter.upper(), "bold underline"), *values], width)
        return lines
    buttons: list[tuple[str, str]] = []
    if phase == "standoff":
        origin = state.galaxy.place(state.origin) if state.origin >= 0 else "where it came from"
        buttons = [("Contest: a die each", "battle:contest"), (f"Flee to {origin}", "battle:flee")]
    elif phase == "reward":
        buttons = [("Assimilate", "battle:assimilate"), ("Destroy for treasure", "battle:destroy")]
    elif phase == "move":
        buttons = [("End turn", "end-turn")]
    pressed = [piece(fit(f"[{words}]", width), "bold", part) for words, part in buttons]
    return flow([who, *pressed], width) if pressed else []


def _fleet_pieces(state: SpaceRaceState, width: int) -> list[Piece]:
    """The ships of the fleet whose turn it is, a line each (tagged ``ship:<k>``)."""
    fleet = state.fleets[state.turn]
    if not state.round or not fleet:
        return []
    lines = [piece(fit(f"{state.player_name(state.turn)}'s ships (#: the number moves use):", width), "bold")]
    for k, ship in enumerate(fleet):
        note = " moved" if ship.acted else " waits" if ship.wait else ""
        words = f"#{k} {ship.label()} at {_short_place(state, ship.node)}{note}"
        lines.append(piece(fit(words, width), PLAYER_STYLES[state.turn] if ship.is_mothership else "", f"ship:{k}"))
    return lines


def _player_pieces(state: SpaceRaceState, width: int) -> list[Piece]:
    lines = []
    for seat in range(state.game.players):
        planets = sum(1 for p in state.galaxy.planets if state.owner[p] == seat)
        marker = "▶" if state.round and seat == state.turn and state.phase != "over" else " "
        words = (
            f"{marker} {state.player_name(seat)}: {count(planets, 'planet')}, {count(len(state.fleets[seat]), 'ship')}"
        )
        if state.out[seat]:
            words += ", out"
        elif state.rebuilding[seat]:
            words += ", rebuilding"
        lines.append(piece(fit(words, width), PLAYER_STYLES[seat]))
    return lines


def _battle_words(state: SpaceRaceState) -> str | None:
    """The battle in progress in plain words, or None."""
    battle = state.battle
    if battle is None or state.moving < 0:
        return None
    attacker = state.fleets[state.turn][state.moving]
    defender = fighting_scores(state, battle)[1]
    if battle.kind == PVM:
        target = f"a wild spaceship [{'|'.join(map(str, defender))}]"
    else:
        ship = state.fleets[battle.foe][battle.foe_ship]
        target = f"{state.player_name(battle.foe)}'s {ship.label()}"
        if battle.kind == ASSAULT:
            target += f" (fighting as [{'|'.join(map(str, defender))}] in orbit)"
    words = (
        f"Battle ({KIND_NAMES[battle.kind]}) at {state.galaxy.place(attacker.node)}: "
        f"{state.player_name(state.turn)}'s {attacker.label()} against {target}"
    )
    if battle.roll:
        words += f" · the attacker rolled {battle.roll}"
    if battle.winner:
        words += f" · won by the {'attacker' if battle.winner == ATTACKER else 'defender'}"
    return words


def compact(state: SpaceRaceState, seat: int | None = None) -> str:
    """The board in at most :data:`COMPACT_COLUMNS` x :data:`COMPACT_ROWS`, the same for every seat:
    a short header; the map, and beside it the choice being made, the battle, the ships of the
    fleet whose turn it is and the players; under them the legend where rows are left."""
    left = map_lines(state)
    column = max(p.width for p in left) + 2
    room = COMPACT_COLUMNS - column
    side = _choice_lines(state, room)
    battle = _battle_words(state)
    if battle:
        side.append(piece(fit(battle, room), "bold"))
    side += _fleet_pieces(state, room) + _player_pieces(state, room)
    rows = [_short_header(state).markup, *beside(left, side[: COMPACT_ROWS - 1], column)]
    key = flow(legend(state), COMPACT_COLUMNS)
    if len(rows) + len(key) <= COMPACT_ROWS:
        rows += [p.markup for p in key]
    return "\n".join(rows)


# ---- routes, planets, fleets, battle, decks -------------------------------------------------


def _route_lines(state: SpaceRaceState) -> list[str]:
    galaxy = state.galaxy
    crews = _crews(state)

    def end(node: int) -> str:
        if node == NEXUS:
            return "[bold]Nexus[/]"
        owner = state.owner[node]
        style = (PLAYER_STYLES[owner] if owner >= 0 else "bold white") + (" reverse" if node in crews else "")
        return f"[{style}]{_planet_key(state, node)}[/] {esc(galaxy.names[node])}"

    def tile(node: int) -> str:
        mark = state.tiles[node]
        here = crews.get(node)
        style = f"{PLAYER_STYLES[here[0]]} reverse" if here else TILE_STYLES[mark]
        return f"[{style}]{TILE_GLYPHS[mark]}[/]"

    lines = ["[bold underline]Routes[/] (tiles from the end nearer the Nexus; reversed: ships there)"]
    inner = ", ".join(end(p) for p in galaxy.inner_planets)
    lines.append(f"  next to the Nexus: {inner}")
    for way in galaxy.starways:
        tiles = " ".join(tile(t) for t in way.tiles)
        lines.append(f"  {end(way.near)} ─ {tiles} ─ {end(way.far)}")
    return lines


def _planet_lines(state: SpaceRaceState) -> list[str]:
    galaxy = state.galaxy
    lines = ["[bold underline]Planets[/]"]
    orbit: dict[int, list[str]] = {}
    for fleet in state.fleets:
        for ship in fleet:
            if galaxy.names[ship.node]:
                orbit.setdefault(ship.node, []).append(esc(ship.name))
    cells = []
    for p in galaxy.planets:
        owner = state.owner[p]
        held = _player(state, owner) if owner >= 0 else "[dim]unclaimed[/]"
        home = " (homeworld)" if p in state.homeworld else ""
        guards = f", orbited by {', '.join(orbit[p])}" if p in orbit else ""
        cells.append(f"  {_planet_key(state, p)} {esc(galaxy.names[p])}: {held}{home}{guards}")
    return lines + cells


def _ship_line(state: SpaceRaceState, seat: int, index: int, ship: Ship) -> str:
    """A ship's line of the fleets; the turn's fleet's are tagged ``ship:<k>`` (moves pick them)."""
    notes = []
    if ship.is_mothership:
        notes.append("mothership")
    if ship.wait:
        notes.append("at customs" if ship.wait > 1 or ship.node == NEXUS else "may move from next turn")
    if ship.acted:
        notes.append("moved")
    if not ship.m:
        notes.append("cannot move (M 0)")
    treasure = [state.content.treasure[c].describe() for c in ship.treasure]
    extra = f" · treasure: {esc(', '.join(treasure))}" if treasure else ""
    note = f" ({', '.join(notes)})" if notes else ""
    words = f"#{index} {esc(ship.label())} at {esc(state.galaxy.place(ship.node))}{note}{extra}"
    return f"    [@part='ship:{index}']{words}[/]" if seat == state.turn and state.round else f"    {words}"


def _fleet_lines(state: SpaceRaceState) -> list[str]:
    lines = ["[bold underline]Fleets[/] (#n: the ship's number in moves)"]
    for seat, fleet in enumerate(state.fleets):
        room = state.fleet_room(seat)
        lines.append(f"  {_player(state, seat)}: {count(len(fleet), 'ship')}, room for {room} more")
        lines += [_ship_line(state, seat, i, ship) for i, ship in enumerate(fleet)]
    return lines


def _deck_line(state: SpaceRaceState) -> str:
    return (
        f"[bold]Decks[/] spaceships {sum(state.ship_deck)} · treasure {sum(state.treasure_deck)} · "
        f"starways {sum(state.starway_deck)} left"
    )


def render(state: SpaceRaceState, seat: int | None = None) -> str:
    """The whole position as text with rich markup; the same for every seat (nothing is hidden)."""
    lines = [_header(state), *_player_lines(state), "[bold underline]Galactic map[/]"]
    left = map_lines(state)
    column = max(p.width for p in left) + 4
    lines += beside(left, _choice_lines(state, FULL_SIDE), column)
    lines += _route_lines(state)
    lines += _planet_lines(state)
    lines += _fleet_lines(state)
    battle = _battle_words(state)
    if battle:
        lines.append(f"[bold]{esc(battle)}[/]")
    lines += [_deck_line(state), joined(legend(state)).markup]
    return "\n".join(lines)


def action_groups(state: SpaceRaceState, actions: Sequence[Action]) -> list[tuple[str, list[Action]]] | None:
    """Moves grouped by ship for a two-step menu ("which ship?", then "where?"); None: one flat menu.

    The end of the turn is a group of its own; groups keep the order of ``actions``.
    """
    if not any(isinstance(a, Move) for a in actions):
        return None
    groups: dict[object, list[Action]] = {}
    for action in actions:
        groups.setdefault(action.ship if isinstance(action, Move) else action, []).append(action)
    if len(groups) < 2:
        return None
    fleet = state.fleets[state.turn]
    labelled = []
    for key, group in groups.items():
        if isinstance(key, int):
            ship = fleet[key]
            where = state.galaxy.place(ship.node)
            labelled.append((f"move {ship.label()} from {where} ({len(group)} destinations)", group))
        else:
            labelled.append((state.action_label(group[0]), group))
    return labelled


__all__ = ["action_groups", "compact", "render"]
