"""The text picture of a SpaceRace position, for terminal front ends.

:func:`render` returns text with rich console markup (``[bold red]...[/]``);
this module does not import rich (the games layer knows only the engine). It
draws only what ``state.view(seat)`` holds, which in SpaceRace is everything
(the decks are public counts). The picture, top to bottom:

* a header: round, whose turn, what the game waits for;
* the players: planets, ships, mothership, homeworld;
* the galactic map drawn from the nodes' positions: the Nexus ``@``, planets by
  their key letter in their owner's colour, tiles ``T`` ``S`` ``·``, and on a
  tile holding ships the number of ships in their owner's colour;
* the routes: every starway from its near end to its far end, tile by tile;
* the planets: key, name, owner, ships in orbit;
* every fleet: each ship's number (the one moves use), scores, place, state and treasure;
* the battle in progress, and what is left in the decks.

:func:`action_groups` lets a terminal menu ask "which ship?" before "where to?".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import Action
from spacetable.engine.words import count

from ..rules.actions import Move
from ..rules.battle import fighting_scores
from ..rules.mapgen import NEXUS
from ..rules.ships import Ship
from ..rules.state import ASSAULT, ATTACKER, KIND_NAMES, PVM

if TYPE_CHECKING:
    from ..rules.state import SpaceRaceState

PLAYER_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
PLANET_KEYS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz"
"""Map letters of the planets, in node order (I and O left out: they read as 1 and 0)."""
TILE_STYLES = {"T": "yellow", "S": "bright_red", ".": "dim", "?": "dim"}
TILE_GLYPHS = {"T": "T", "S": "S", ".": "·", "?": "?"}
X_SCALE = 3.0
"""Map columns per unit of x (terminal cells are about twice as tall as wide)."""
Y_SCALE = 1.5
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
LEGEND = (
    "[dim]@ Nexus · A-Z planets (owner's colour, reversed: ships in orbit) · T treasure · S spaceship · "
    "· empty · a digit: ships on a tile · [D|M|A] defence, movement, attack[/]"
)


def esc(text: str) -> str:
    """Escape ``[`` so rich does not read literal text as markup."""
    return text.replace("[", "\\[")


def _player(state: SpaceRaceState, seat: int) -> str:
    return f"[{PLAYER_STYLES[seat]}]{state.player_name(seat)}[/]"


def _planet_key(state: SpaceRaceState, node: int) -> str:
    return PLANET_KEYS[state.galaxy.planets.index(node) % len(PLANET_KEYS)]


def _ships_at(state: SpaceRaceState) -> dict[int, tuple[int, int]]:
    """Node -> (owner, number of ships) for every node holding ships."""
    at: dict[int, tuple[int, int]] = {}
    for seat, fleet in enumerate(state.fleets):
        for ship in fleet:
            owner, count = at.get(ship.node, (seat, 0))
            at[ship.node] = (owner, count + 1)
    return at


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


def _node_glyph(state: SpaceRaceState, node: int, ships: dict[int, tuple[int, int]]) -> str:
    here = ships.get(node)
    if node == NEXUS:
        glyph = "@"
        style = "bold white"
        if here:
            glyph, style = str(min(here[1], 9)), f"{PLAYER_STYLES[here[0]]} reverse"
        return f"[{style}]{glyph}[/]"
    if state.galaxy.names[node]:
        owner = state.owner[node]
        style = PLAYER_STYLES[owner] if owner >= 0 else "bold white"
        if here:
            style += " reverse"
        return f"[{style}]{_planet_key(state, node)}[/]"
    if here:
        return f"[{PLAYER_STYLES[here[0]]} reverse]{min(here[1], 9)}[/]"
    mark = state.tiles[node]
    return f"[{TILE_STYLES[mark]}]{TILE_GLYPHS[mark]}[/]"


def _map_lines(state: SpaceRaceState) -> list[str]:
    """The map drawn on a character grid from the nodes' positions (planets and the Nexus on top)."""
    galaxy = state.galaxy
    xs = [x for x, _ in galaxy.positions]
    ys = [y for _, y in galaxy.positions]
    left, top = min(xs), max(ys)
    width = math.ceil((max(xs) - left) * X_SCALE) + 1
    height = math.ceil((top - min(ys)) * Y_SCALE) + 1
    grid: list[list[str]] = [[" "] * width for _ in range(height)]
    ships = _ships_at(state)
    tiles_first = sorted(range(galaxy.size), key=lambda n: galaxy.marks[n] != "?")
    for node in tiles_first:
        x, y = galaxy.positions[node]
        col = round((x - left) * X_SCALE)
        row = round((top - y) * Y_SCALE)
        grid[row][col] = _node_glyph(state, node, ships)
    return ["[bold underline]Galactic map[/]", *("    " + "".join(row).rstrip() for row in grid)]


def _route_lines(state: SpaceRaceState) -> list[str]:
    galaxy = state.galaxy
    ships = _ships_at(state)

    def end(node: int) -> str:
        if node == NEXUS:
            return "[bold]Nexus[/]"
        return f"{_node_glyph(state, node, ships)} {esc(galaxy.names[node])}"

    def tile(node: int) -> str:
        mark = state.tiles[node]
        here = ships.get(node)
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


# ---- fleets, battle, decks -------------------------------------------------------------------


def _ship_line(state: SpaceRaceState, seat: int, index: int, ship: Ship) -> str:
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
    return f"    #{index} {esc(ship.label())} at {esc(state.galaxy.place(ship.node))}{note}{extra}"


def _fleet_lines(state: SpaceRaceState) -> list[str]:
    lines = ["[bold underline]Fleets[/] (#n: the ship's number in moves)"]
    for seat, fleet in enumerate(state.fleets):
        room = state.fleet_room(seat)
        lines.append(f"  {_player(state, seat)}: {count(len(fleet), 'ship')}, room for {room} more")
        lines += [_ship_line(state, seat, i, ship) for i, ship in enumerate(fleet)]
    return lines


def _battle_lines(state: SpaceRaceState) -> list[str]:
    battle = state.battle
    if battle is None or state.moving < 0:
        return []
    attacker = state.fleets[state.turn][state.moving]
    defender = fighting_scores(state, battle)[1]
    if battle.kind == PVM:
        target = esc(f"a wild spaceship [{'|'.join(map(str, defender))}]")
    else:
        ship = state.fleets[battle.foe][battle.foe_ship]
        target = f"{_player(state, battle.foe)}'s {esc(ship.label())}"
        if battle.kind == ASSAULT:
            target += esc(f" (fighting as [{'|'.join(map(str, defender))}] in orbit)")
    place = esc(state.galaxy.place(attacker.node))
    line = (
        f"[bold]Battle[/] ({KIND_NAMES[battle.kind]}) at {place}: "
        f"{_player(state, state.turn)}'s {esc(attacker.label())} against {target}"
    )
    if battle.roll:
        line += f" · the attacker rolled {battle.roll}"
    if battle.winner:
        line += f" · won by the {'attacker' if battle.winner == ATTACKER else 'defender'}"
    return [line]


def _deck_line(state: SpaceRaceState) -> str:
    return (
        f"[bold]Decks[/] spaceships {sum(state.ship_deck)} · treasure {sum(state.treasure_deck)} · "
        f"starways {sum(state.starway_deck)} left"
    )


def render(state: SpaceRaceState, seat: int | None = None) -> str:
    """The whole position as text with rich markup; the same for every seat (nothing is hidden)."""
    lines = [_header(state), *_player_lines(state)]
    lines += _map_lines(state)
    lines += _route_lines(state)
    lines += _planet_lines(state)
    lines += _fleet_lines(state)
    lines += _battle_lines(state)
    lines += [_deck_line(state), LEGEND]
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


__all__ = ["action_groups", "render"]
