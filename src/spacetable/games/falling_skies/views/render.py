"""The text picture of a falling-skies position, for terminal front ends.

:func:`render` returns plain text with rich console markup (``[bold red]...[/]``);
this module does not import rich (the games layer knows only the engine), so a
front end that wants plain text strips the markup itself. The picture follows
the cards on the table, top to bottom:

* the sky: one line per sky row, its mother ship track symbol at the left, each
  cell's symbol (``<`` ``>`` arrows, ``M`` mother ship icon, ``n+`` explosion)
  with any ship on it (green ``G``, red ``R``); rows under the mother ship card
  are shown covered, and the card itself sits on the first open row with its
  starting spots;
* the city line, then the base: rows A-F by columns 1-5, each space with its
  room (effect, modifier, cost; a room of several spaces is one joined box), the
  die or robot standing on it, whether it is excavated and where the excavator is;
* the tracks: research, energy, damage, and the dice still to place or roll.

:func:`action_groups` lets a terminal menu ask "which die?" before "where?".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from spacetable.engine import Action

from ..content import SPOT, Board, Room
from ..rules.actions import Place

if TYPE_CHECKING:
    from ..rules.state import FallingSkiesState

SKY_CELL = 7
"""Width of one sky column."""
BASE_CELL = 14
"""Inner width of one base space."""
EFFECT_ABBREV = {"energy": "EN", "shoot": "SH", "research": "RS", "robot": "RB"}
PHASE_NAMES = {
    "roll": "rolling dice",
    "place": "placing dice",
    "resolve": "resolving rooms",
    "robot": "placing the new robot",
    "respawn": "respawning ships",
    "over": "game over",
}
DIE_STYLE = {"black": "bold white on grey23", "white": "bold black on grey85", "robot": "bold white on blue"}
DIE_NAME = {"black": "blk", "white": "wht", "robot": "bot"}
LEGEND = (
    "[dim][cyan]< >[/] arrow  [magenta]M[/] mother ship  [yellow]n+[/] explosion  "
    "[bold green]G[/]/[bold red]R[/] ship · EN energy SH shoot RS research RB robot, cN cost[/]"
)


def esc(text: str) -> str:
    """Escape ``[`` so rich does not read literal text as markup."""
    return text.replace("[", "\\[")


def _styled(text: str, style: str) -> str:
    return f"[{style}]{esc(text)}[/]" if style else esc(text)


def _pad(text: str, width: int, style: str = "", align: str = "<") -> str:
    """``text`` padded (or cut) to ``width`` cells, then styled; text must be single-width characters."""
    text = text[:width]
    return _styled(f"{text:{align}{width}}", style)


def die_text(color: str, value: int) -> str:
    """A die or robot as ``blk 4`` / ``wht 4`` / ``bot 4``, styled by its color."""
    return _styled(f"{DIE_NAME.get(color, color)} {value}", DIE_STYLE.get(color, "bold"))


def room_text(room: Room) -> str:
    """A room in a few characters: effects, modifier and cost, e.g. ``SH-1 c1``."""
    effects = "+".join(EFFECT_ABBREV.get(e, e[:2].upper()) for e in room.effects)
    mod = f"{room.mod:+d}" if room.mod else ""
    return f"{effects}{mod} c{room.cost}"


# ---- the sky -----------------------------------------------------------------


def _sky_symbol(board: Board, row: int, col: int) -> tuple[str, str]:
    step = board.arrow[row][col]
    if step:
        return ("<" if step < 0 else ">"), "cyan"
    if board.mother_icon[row][col]:
        return "M", "bold magenta"
    if board.explosion[row][col]:
        return f"{board.explosion[row][col]}+", "yellow"
    return "·", "dim"


def _ships_text(ships: Sequence[bool]) -> tuple[str, str]:
    """Ship letters (G green, R red) for one cell, as plain text and as markup."""
    plain = "".join("R" if red else "G" for red in ships)
    markup = "".join("[bold red]R[/]" if red else "[bold green]G[/]" for red in ships)
    return plain, markup


def _cell(symbol: str, style: str, ships: Sequence[bool]) -> str:
    """One sky column: the symbol right-aligned at the middle, the ships just after it."""
    plain, markup = _ships_text(ships)
    middle = BASE_CELL // 2
    return " " * (middle - 2) + _pad(symbol, 3, style, ">") + markup + " " * max(0, BASE_CELL - middle - 1 - len(plain))


def _track_symbol(symbol: str) -> tuple[str, str]:
    if symbol == "SKULL":
        return "SKULL", "bold red"
    if symbol in ("dmg", "+red"):
        return symbol, "red"
    if symbol.startswith(("exc-", "res-")):
        return symbol, "yellow"
    return "", ""


def _grid(cells: Sequence[str], wall: str = "[dim]┊[/]") -> str:
    return wall + wall.join(cells) + wall


def _sky_lines(state: FallingSkiesState) -> list[str]:
    b = state.board
    ships: dict[tuple[int, int], list[bool]] = {}
    for row, col, red in sorted(state.ships):
        ships.setdefault((row, col), []).append(red)
    head = _grid([f"{c:^{BASE_CELL}}" for c in range(1, b.columns + 1)], " ")
    lines = [f"[bold]{'SKY':<9}[/]{head}"]
    for row in range(1, b.sky_rows + 1):
        symbol = b.track[row - 1] if row <= len(b.track) else ""
        sym_text, sym_style = _track_symbol(symbol)
        if row <= state.mothership:
            covered = "░" * (b.columns * (BASE_CELL + 1) + 1)
            lines.append(f"[dim]{sym_text:>6} {row:>2}{covered}[/]")
            continue
        if row == state.mothership + 1:
            lines.append(_mothership_line(state, ships))
        if row > len(b.track):
            label = _pad("city", 6, "dim", ">")
        elif row == state.mothership + 1 and state.phase != "over":
            label = _pad(f"▶{sym_text or '·':>5}", 6, "bold " + (sym_style or "white"))
        else:
            label = _pad(sym_text, 6, sym_style, ">")
        cells = [_cell(*_sky_symbol(b, row, c), ships.get((row, c), [])) for c in range(b.columns)]
        lines.append(f"{label} [dim]{row:>2}[/]{_grid(cells)}")
    if state.mothership >= b.sky_rows:  # the card has covered the whole sky (only after a loss)
        lines.append(_mothership_line(state, ships))
    width = b.columns * (BASE_CELL + 1) + 1
    lines.append(f"{'':9}[bold]{' CITY: ships moving past the last row hit the base ':▔^{width}}[/]")
    return lines


def _mothership_line(state: FallingSkiesState, ships: dict[tuple[int, int], list[bool]]) -> str:
    b = state.board
    spots = [_cell("", "", ships[(SPOT, c)]) if (SPOT, c) in ships else _cell("o", "dim", []) for c in range(b.columns)]
    return f"[bold magenta]{'MOTHER':>6} ══[/]{_grid(spots, '[bold magenta]═[/]')}"


# ---- the base ------------------------------------------------------------------


def _joined(board: Board, row: str, col: int) -> bool:
    """Whether spaces ``row{col}`` and ``row{col+1}`` (1-based) belong to one room."""
    left, right = board.room_of.get(f"{row}{col}"), board.room_of.get(f"{row}{col + 1}")
    return left is not None and left is right


def _rule(board: Board, above: str | None, below: str | None) -> str:
    """A horizontal rule between base rows ``above`` and ``below`` (None: the box's edge)."""
    cols = board.columns
    left = "┌" if above is None else ("└" if below is None else "├")
    right = "┐" if above is None else ("┘" if below is None else "┤")
    parts = [left]
    for c in range(1, cols + 1):
        parts.append("─" * BASE_CELL)
        if c == cols:
            break
        up = above is not None and not _joined(board, above, c)
        down = below is not None and not _joined(board, below, c)
        parts.append({(True, True): "┼", (True, False): "┴", (False, True): "┬", (False, False): "─"}[(up, down)])
    parts.append(right)
    title = "BASE" if above is None else ""
    return f"[bold]{title:<9}[/][dim]" + "".join(parts) + "[/]"


def _space_label(state: FallingSkiesState, space: str) -> str:
    b = state.board
    open_ = state.excavated(space)
    if space in b.aa_spaces:
        return _pad(" AA gun -1", BASE_CELL, "cyan")
    room = b.room_of.get(space)
    if room is None:
        return _pad(" tunnel", BASE_CELL, "dim")
    position = room.spaces.index(space)
    if position:
        text = f" sum of {len(room.spaces)} dice" if position == 1 else ""
        return _pad(text, BASE_CELL, "dim")
    color = {"energy": "yellow", "shoot": "green", "research": "cyan", "robot": "blue"}.get(room.effects[0], "")
    return _pad(f" {room_text(room)}", BASE_CELL, f"bold {color}" if open_ else "dim")


def _space_content(state: FallingSkiesState, space: str) -> str:
    b = state.board
    held = state.slots.get(space)
    die = die_text(*held) if held else ""
    die_width = len(f"{DIE_NAME.get(held[0], held[0])} {held[1]}") if held else 0
    fill = " "
    if b.dig_path[state.excavator] == space:
        note, style = "◆exc", "bold yellow"
    elif state.excavated(space):
        note, style = "", ""
    else:
        route = b.dig_index[space] - state.excavator
        note, style, fill = (f" dig {route}" if route <= 6 else ""), "dim", "░"
    if not held:
        return _styled(fill * (BASE_CELL - len(note)) + note, style)
    return " " + die + _styled(fill * (BASE_CELL - 1 - die_width - len(note)) + note, style)


def _base_lines(state: FallingSkiesState) -> list[str]:
    b = state.board
    rows = list(dict.fromkeys(s[0] for s in b.spaces))
    lines = [_rule(b, None, rows[0])]
    for i, row in enumerate(rows):
        for part, label in ((_space_label, row), (_space_content, "")):
            text = f"{'':6} [bold]{label:>2}[/][dim]│[/]"
            for c in range(1, b.columns + 1):
                text += part(state, f"{row}{c}")
                text += " " if c < b.columns and _joined(b, row, c) else "[dim]│[/]"
            lines.append(text)
        lines.append(_rule(b, row, rows[i + 1] if i + 1 < len(rows) else None))
    return lines


# ---- the tracks ------------------------------------------------------------------


def _research_line(state: FallingSkiesState) -> str:
    track = state.board.research
    parts = []
    for i, need in enumerate(track):
        if i < state.research:
            parts.append(f"[green]✓{need}[/]")
        elif i == state.research:
            parts.append(f"[bold reverse cyan]▶{need}[/]")
        else:
            parts.append(f" {need}")
    nxt = f"next needs {track[state.research]}+" if state.research < len(track) else "complete"
    return f"[bold]RESEARCH[/] {' '.join(parts)}  [dim]{state.research}/{len(track)}, {nxt}[/]"


def _energy_damage_line(state: FallingSkiesState) -> str:
    b = state.board
    energy = "".join(
        f"[bold reverse yellow]\\[{e}][/]" if e == state.energy else f"[dim] {e} [/]" for e in range(b.energy_max + 1)
    )
    lose = b.lose_at_damage
    boxes = "".join("[bold red]■[/]" if i < state.damage else "[dim]□[/]" for i in range(lose - 1))
    skull = "[bold red]✗[/]" if state.damage >= lose else "[red]✗[/]"
    return (
        f"[bold]ENERGY  [/] {energy}   [bold]DAMAGE[/] {boxes}{skull} "
        f"[dim]{state.damage}/{lose} ({_ordinal(lose)} destroys the base)[/]"
    )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _dice_line(state: FallingSkiesState) -> str:
    unplaced = " ".join(die_text(c, v) for c, v in state.unplaced) or "[dim]none[/]"
    to_roll = " ".join(_styled(DIE_NAME.get(c, c), DIE_STYLE.get(c, "")) for c in state.to_roll) or "[dim]none[/]"
    dig = "[dim]dig used[/]" if state.dug else "dig free"
    line = f"[bold]DICE    [/] to place: {unplaced}   to roll: {to_roll}   {dig}   robots: {state.robot_supply}"
    if state.new_robots:
        line += "   new robot to put down: " + " ".join(die_text("robot", v) for v in state.new_robots)
    return line


def _ships_line(state: FallingSkiesState) -> str:
    green, red = state.waiting
    return (
        f"[bold]SHIPS   [/] waiting on the mother ship: [bold green]{green} green[/], [bold red]{red} red[/]"
        f"   red ships in reserve: {state.red_supply}"
    )


def _header(state: FallingSkiesState) -> str:
    b = state.board
    phase = PHASE_NAMES.get(state.phase, state.phase)
    if state.phase == "over":
        phase = f"[{'bold green' if state.result == 'won' else 'bold red'}]game over: you {state.result}[/]"
    hard = f" ({len(b.hard)} hard)" if b.hard else ""
    return (
        f"[bold reverse] UNDER FALLING SKIES [/] level {b.level}{hard} · [bold]round {state.round}[/] · "
        f"{phase} · mother ship {state.mothership}/{b.skull_row}"
    )


def render(state: FallingSkiesState, seat: int | None = 0) -> str:
    """The whole board as text with rich markup: about 45 lines of at most 100 columns.

    Everything is public in this game, so every seat (and a spectator) sees the same board.
    """
    lines = [_header(state)]
    lines += _sky_lines(state)
    lines += _base_lines(state)
    lines += [_research_line(state), _energy_damage_line(state), _ships_line(state), _dice_line(state), LEGEND]
    return "\n".join(lines)


# ---- the compact layout (80x24 terminals) ------------------------------------------

MARKUP_TAG = re.compile(r"(?<!\\)\[[^\]]*\]")
"""A rich markup tag such as ``[bold red]`` or ``[/]`` (an escaped ``\\[`` is text)."""
COMPACT_SKY_CELL = 4
"""Width of one sky column in the compact layout: the symbol, then up to two ships."""
COMPACT_BASE_CELL = 7
"""Inner width of one base space in the compact layout."""
COMPACT_LEGEND = (
    "[dim][cyan]<>[/] arrow [magenta]M[/] mother ship [yellow]n+[/] explosion [bold green]G[/]/[bold red]R[/] "
    "ship n spot ◆ excavator ░dN dig Σ sum[/]"
)


def _compact_sky(state: FallingSkiesState) -> list[str]:
    """The sky, one line per row, 29 columns: the track symbol, the row, each cell's symbol and ships."""
    b = state.board
    ships: dict[tuple[int, int], list[bool]] = {}
    for row, col, red in sorted(state.ships):
        ships.setdefault((row, col), []).append(red)

    def cell(symbol: str, style: str, here: Sequence[bool]) -> str:
        plain, markup = _ships_text(here)
        return _pad(symbol, 2, style, ">") + markup + " " * max(0, COMPACT_SKY_CELL - 2 - len(plain))

    # the starting spots, each marked with its column's number
    spots = "".join(cell(str(c + 1), "dim", ships.get((SPOT, c), [])) for c in range(b.columns))
    mother = f"[bold magenta]{'MOTHER':>6}════[/]{spots}"
    lines = []
    if state.mothership == 0:
        lines.append(mother)
    for row in range(1, b.sky_rows + 1):
        symbol = b.track[row - 1] if row <= len(b.track) else ""
        text, style = _track_symbol(symbol)
        if row <= state.mothership:
            lines.append(f"[dim]{text:>6} {row:>2} {'░' * (COMPACT_SKY_CELL * b.columns)}[/]")
            if row == state.mothership:
                lines.append(mother)
            continue
        label = _pad("city", 6, "dim", ">") if row > len(b.track) else _pad(text, 6, style, ">")
        cells = "".join(cell(*_sky_symbol(b, row, c), ships.get((row, c), [])) for c in range(b.columns))
        lines.append(f"{label} [dim]{row:>2}[/] {cells}")
    return lines


def _compact_base(state: FallingSkiesState) -> list[str]:
    """The base, two lines per row (the rooms; the dice and the digging), 45 columns."""
    b = state.board
    rows = list(dict.fromkeys(s[0] for s in b.spaces))
    wall = "[dim]│[/]"
    lines = ["   " + "".join(f"{c:^{COMPACT_BASE_CELL}} " for c in range(1, b.columns + 1))]
    for row in rows:
        top, bottom = f"[bold]{row}[/] {wall}", f"  {wall}"
        c = 1
        while c <= b.columns:
            space = f"{row}{c}"
            room = b.room_of.get(space)
            span = len(room.spaces) if room is not None and room.spaces[0] == space else 1
            width = span * (COMPACT_BASE_CELL + 1) - 1
            top += _compact_label(state, space, width) + wall
            for k in range(span):
                inner = f"{row}{c + k}"
                bottom += _compact_content(state, inner) + (wall if k == span - 1 else " ")
            c += span
        lines += [top, bottom]
    return lines


def _compact_label(state: FallingSkiesState, space: str, width: int) -> str:
    b = state.board
    if space in b.aa_spaces:
        return _pad("AA gun", width, "cyan")
    room = b.room_of.get(space)
    if room is None:
        return _pad("tunnel", width, "dim")
    color = {"energy": "yellow", "shoot": "green", "research": "cyan", "robot": "blue"}.get(room.effects[0], "")
    joined = " Σ" if len(room.spaces) > 1 else ""
    return _pad(
        f"{room_text(room).replace(' ', '')}{joined}", width, f"bold {color}" if state.excavated(space) else "dim"
    )


def _compact_content(state: FallingSkiesState, space: str) -> str:
    b = state.board
    held = state.slots.get(space)
    if held:
        shown = f"{DIE_NAME.get(held[0], held[0])[0]}{held[1]}"
        die = _styled(shown, DIE_STYLE.get(held[0], "bold"))
        return die + " " * (COMPACT_BASE_CELL - len(shown))
    if b.dig_path[state.excavator] == space:
        return _pad("◆", COMPACT_BASE_CELL, "bold yellow")
    if state.excavated(space):
        return " " * COMPACT_BASE_CELL
    route = b.dig_index[space] - state.excavator
    note = f"d{route}" if route <= 6 else ""
    return _styled("░" * (COMPACT_BASE_CELL - len(note)) + note, "dim")


def _compact_tracks(state: FallingSkiesState) -> list[str]:
    """Research, energy and damage; ships and robots; dice: three lines of at most 48 columns."""
    b = state.board
    nxt = f"next {b.research[state.research]}+" if state.research < len(b.research) else "done"
    lose = b.lose_at_damage
    boxes = "".join("[bold red]■[/]" if i < state.damage else "[dim]□[/]" for i in range(lose - 1))
    green, red = state.waiting
    unplaced = " ".join(die_text(c, v) for c, v in state.unplaced) or "[dim]none[/]"
    roll = f" roll {len(state.to_roll)}" if state.to_roll else ""
    robots = "".join(f" +{die_text('robot', v)}" for v in state.new_robots)
    return [
        f"[bold]RES[/] {state.research}/{len(b.research)} {nxt} · [bold]EN[/] {state.energy}/{b.energy_max} · "
        f"[bold]DMG[/] {boxes}[red]✗[/] {state.damage}/{lose}",
        f"[bold]WAIT[/] [green]{green}G[/] [red]{red}R[/] · [bold]RESERVE[/] {state.red_supply}R · "
        f"[bold]ROBOTS[/] {state.robot_supply} · dig {'used' if state.dug else 'free'}",
        f"[bold]DICE[/] {unplaced}{roll}{robots}",
    ]


def _compact_header(state: FallingSkiesState) -> str:
    b = state.board
    phase = PHASE_NAMES.get(state.phase, state.phase)
    if state.phase == "over":
        phase = f"[{'bold green' if state.result == 'won' else 'bold red'}]you {state.result}[/]"
    return (
        f"[bold reverse] FALLING SKIES [/] level {b.level} · round {state.round} · {phase} · "
        f"mother ship {state.mothership}/{b.skull_row}"
    )


def compact(state: FallingSkiesState, seat: int | None = 0) -> str:
    """The whole board in 18 lines of at most 80 columns: the sky at the left, the base and the
    tracks at the right, for terminals of 80x24 (``render`` needs about 100x46)."""
    left, right = _compact_sky(state), _compact_base(state) + _compact_tracks(state)
    left_width = 10 + COMPACT_SKY_CELL * state.board.columns
    lines = [_compact_header(state)]
    for i in range(max(len(left), len(right))):
        sky = left[i] if i < len(left) else ""
        gap = " " * (left_width - _width(sky) + 2)
        lines.append((sky + gap + (right[i] if i < len(right) else "")).rstrip())
    lines.append(COMPACT_LEGEND)
    return "\n".join(lines)


def _width(markup: str) -> int:
    """The printed width of a line of this module's markup (single-width characters only)."""
    return len(MARKUP_TAG.sub("", markup).replace("\\[", "["))


def landing(state: FallingSkiesState, action: Action) -> str:
    """Where a placement sends the ships, as `` → G col 2 row 3→row 7, R col 4 row 9 leaves the sky
    (+1 damage)`` (a ship is followed by its colour and the nearest column): the action
    applied to a copy of the state by the game itself (placing a die is not random), so the
    preview holds no rule of its own. Empty when no ship moves."""
    after = state.clone()
    after.apply_action(action, 0)
    before_ships, after_ships = sorted(state.ships), sorted(after.ships)
    gone = [s for s in before_ships if s not in after_ships]
    came = [s for s in after_ships if s not in before_ships]
    moves = []
    for row, col, red in sorted(gone, key=lambda ship: -ship[0]):  # the lowest ship first
        letter = "R" if red else "G"
        # the same ship as far as the picture tells: its colour, the nearest column, at or below
        candidates = [s for s in came if s[2] == red and (s[0] >= row or s[0] == SPOT)]
        landed = min(candidates, key=lambda s: (abs(s[1] - col), s[0] == SPOT, s[0]), default=None)
        start = "spot" if row == SPOT else f"row {row}"
        if landed is None:
            moves.append(f"{letter} col {col + 1} {start} leaves the sky")
            continue
        came.remove(landed)
        where = "the mother ship" if landed[0] == SPOT else f"row {landed[0]}"
        shift = f" col {landed[1] + 1}" if landed[1] != col else ""
        moves.append(f"{letter} col {col + 1} {start}→{where}{shift}")
    hurt = after.damage - state.damage
    text = ", ".join(moves) + (f" (+{hurt} damage)" if hurt else "")
    if after.mothership != state.mothership:
        text += f"{', ' if text else ''}mother ship down {after.mothership - state.mothership}"
    return f" → {text}" if text else ""


SYMBOL_TERMS = (
    "green ship",
    "red ship",
    "starting spot",
    "black die",
    "white die",
    "robot die",
    "anti-aircraft gun",
    "tunnel",
    "unexcavated",
    "excavator",
    "research track",
    "energy track",
    "damage track",
)
"""Glossary words for what the board draws as a symbol (G, R, o, blk, wht, bot, AA gun, ░, ◆exc)."""


def help_terms(state: FallingSkiesState, seat: int | None = 0) -> list[str]:
    """The glossary words for the board's symbols and for every room, in the base's order."""
    return [*SYMBOL_TERMS, *(f"room {room.id}" for room in state.board.rooms)]


def action_groups(state: FallingSkiesState, actions: Sequence[Action]) -> list[tuple[str, list[Action]]] | None:
    """Actions grouped for a two-step menu ("which die?", then "where?"); None: one flat menu.

    Only placements are grouped (by die); the groups keep the order of ``actions``. The places
    of one die are each labelled with where the ships would land (:func:`landing`).
    """
    if not actions or not all(isinstance(a, Place) for a in actions):
        return None
    groups: dict[tuple[str, int], list[Action]] = {}
    for a in actions:
        groups.setdefault((a[0], a[1]), []).append(a)
    if len(groups) < 2:
        # the die is the menu's title: each entry is the space and where the ships would land
        return [(f"{state.action_label(a).partition(' on ')[2]}{landing(state, a)}", [a]) for a in actions]
    return [
        (f"{color} {value} ({len(group)} space{'s' if len(group) > 1 else ''})", group)
        for (color, value), group in groups.items()
    ]


__all__ = ["action_groups", "compact", "die_text", "help_terms", "landing", "render", "room_text"]
