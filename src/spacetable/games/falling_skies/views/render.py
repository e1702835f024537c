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

:func:`compact` draws it in at most :data:`COMPACT_COLUMNS` x :data:`COMPACT_ROWS` (the app's board
panel at 80x24). Both tag each element an action can involve ``[@part='ID']...[/]`` with the ids of
:func:`.web.action_parts` (``die:<color>:<value>``, ``space:<A1..F5>``, ``robot:new``,
``ship:waiting:<green|red>``, ``spot:<column>``, ``skip:<room or space>``), which the terminal app
makes clickable. No colour tells anything alone: ships are ``G``/``R``, dice ``b``/``w``, robots ``r``.

:func:`action_groups` lets a terminal menu ask "which die?" before "where?".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import zip_longest
from typing import TYPE_CHECKING

from spacetable.engine import Action

from ..content import SPOT, Board, Room
from ..rules.actions import Place

if TYPE_CHECKING:
    from ..rules.state import FallingSkiesState

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
ROOM_STYLE = {"energy": "yellow", "shoot": "green", "research": "cyan", "robot": "blue"}
LEGEND = (
    "[dim][cyan]< >[/] arrow  [magenta]M[/] mother ship  [yellow]n+[/] explosion  "
    "[bold green]G[/]/[bold red]R[/] ship · EN energy SH shoot RS research RB robot, cN cost[/]"
)


def esc(text: str) -> str:
    """Escape ``[`` so rich does not read literal text as markup."""
    return text.replace("[", "\\[")


def part(part_id: str, markup: str) -> str:
    """``markup`` tagged as the board part ``part_id`` (rich meta ``@part``, the browser's ``data-part``)."""
    if set(part_id) & set("'[]\\"):
        raise ValueError(f"a part id cannot hold quotes, brackets or backslashes: {part_id!r}")
    return f"[@part='{part_id}']{markup}[/]"


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


def _ships_by_cell(state: FallingSkiesState) -> dict[tuple[int, int], list[bool]]:
    ships: dict[tuple[int, int], list[bool]] = {}
    for row, col, red in sorted(state.ships):
        ships.setdefault((row, col), []).append(red)
    return ships


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
    ships = _ships_by_cell(state)
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
    spots = [
        part(f"spot:{c + 1}", _cell("", "", ships[(SPOT, c)]) if (SPOT, c) in ships else _cell("o", "dim", []))
        for c in range(b.columns)
    ]
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
    return _pad(f" {room_text(room)}", BASE_CELL, f"bold {ROOM_STYLE.get(room.effects[0], '')}" if open_ else "dim")


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
        for draw, label in ((_space_label, row), (_space_content, "")):
            text = f"{'':6} [bold]{label:>2}[/][dim]│[/]"
            for c in range(1, b.columns + 1):
                text += part(f"space:{row}{c}", draw(state, f"{row}{c}"))
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


def _dice_lines(state: FallingSkiesState) -> list[str]:
    unplaced = " ".join(part(f"die:{c}:{v}", die_text(c, v)) for c, v in state.unplaced) or "[dim]none[/]"
    to_roll = " ".join(_styled(DIE_NAME.get(c, c), DIE_STYLE.get(c, "")) for c in state.to_roll) or "[dim]none[/]"
    dig = "[dim]dig used[/]" if state.dug else "dig free"
    line = f"[bold]DICE    [/] to place: {unplaced}   to roll: {to_roll}   {dig}   robots: {state.robot_supply}"
    robots = " ".join(part("robot:new", die_text("robot", v)) for v in state.new_robots)
    if robots:
        line += f"   new robot to put down: {robots}"
    skip = f"[bold]SKIP    [/] a room or digging die, its dice unused: {_skip_buttons(state)}"
    return [line, skip] if state.phase == "resolve" else [line]


def _skip_buttons(state: FallingSkiesState) -> str:
    """While resolving: each room left to resolve and each digging die, to skip (``skip:<id>``)."""
    digging = [space for space in state.slots if not state.excavated(space)]
    return " ".join(part(f"skip:{name}", f"[bold]{name}[/]") for name in [*state.pending, *digging])


def _waiting(state: FallingSkiesState, green: str, red: str) -> str:
    """The ships waiting on the mother ship card as ``green`` and ``red`` (formats of the count),
    tagged ``ship:waiting:<colour>``."""
    n_green, n_red = state.waiting
    shown = part("ship:waiting:green", f"[bold green]{green.format(n_green)}[/]")
    return f"{shown} {part('ship:waiting:red', f'[bold red]{red.format(n_red)}[/]')}"


def _ships_line(state: FallingSkiesState) -> str:
    waiting = _waiting(state, "{} green,", "{} red")
    return f"[bold]SHIPS   [/] waiting on the mother ship: {waiting}   red ships in reserve: {state.red_supply}"


def _phase(state: FallingSkiesState) -> str:
    if state.phase == "over":
        return f"[{'bold green' if state.result == 'won' else 'bold red'}]game over: you {state.result}[/]"
    return PHASE_NAMES.get(state.phase, state.phase)


def _header(state: FallingSkiesState) -> str:
    b = state.board
    hard = f" ({len(b.hard)} hard)" if b.hard else ""
    return (
        f"[bold reverse] UNDER FALLING SKIES [/] level {b.level}{hard} · [bold]round {state.round}[/] · "
        f"{_phase(state)} · mother ship {state.mothership}/{b.skull_row}"
    )


def render(state: FallingSkiesState, seat: int | None = 0) -> str:
    """The whole board as text with rich markup: about 45 lines of at most 100 columns.

    Everything is public in this game, so every seat (and a spectator) sees the same board.
    """
    lines = [_header(state)]
    lines += _sky_lines(state)
    lines += _base_lines(state)
    lines += [_research_line(state), _energy_damage_line(state), _ships_line(state), *_dice_lines(state), LEGEND]
    return "\n".join(lines)


# ---- the compact layout (the app's board panel at 80x24) ------------------------------

COMPACT_COLUMNS, COMPACT_ROWS = 78, 15
"""The most :func:`compact` draws: the terminal app's board panel at 80x24."""
MARKUP_TAG = re.compile(r"(?<!\\)\[[^\]]*\]")
"""A rich markup tag such as ``[bold red]``, ``[@part='space:B3']`` or ``[/]`` (an escaped ``\\[`` is text)."""
COMPACT_SKY_CELL = 4
"""Width of one sky column in the compact layout: the symbol right-aligned in three, then the ship."""
COMPACT_GUTTER = 9
"""Width of the sky's left edge: the track symbol, then the row number."""
COMPACT_BASE_CELL = 6
"""Inner width of one base space in the compact layout."""
DIE_LETTER = {"black": "b", "white": "w", "robot": "r"}


def _compact_cell(symbol: str, style: str, ships: Sequence[bool]) -> str:
    plain, markup = _ships_text(ships)
    return _pad(symbol, min(3, COMPACT_SKY_CELL - len(plain)), style, ">") + markup + " " * (1 - len(plain))


def _compact_sky(state: FallingSkiesState) -> list[str]:
    """The sky, a line per open row (track symbol, number, cells) under the mother ship card on the
    rows it covers (its spots numbered by column); above the sky, the card is in the tray instead."""
    b = state.board
    ships = _ships_by_cell(state)
    covered = min(state.mothership, b.sky_rows)
    lines = []
    if covered:
        spots = "".join(
            part(f"spot:{c + 1}", _compact_cell(str(c + 1), "dim", ships.get((SPOT, c), []))) for c in range(b.columns)
        )
        lines.append(f"[bold magenta]MOTHER{covered:>3}[/]{spots}")
    for row in range(covered + 1, b.sky_rows + 1):
        text, style = _track_symbol(b.track[row - 1]) if row <= len(b.track) else ("city", "dim")
        cells = "".join(_compact_cell(*_sky_symbol(b, row, c), ships.get((row, c), [])) for c in range(b.columns))
        lines.append(f"{_pad(text, 6, style, '>')}[dim]{row:>3}[/]{cells}")
    return lines


def _compact_base(state: FallingSkiesState) -> list[str]:
    """The column numbers, then a line for the row of anti-aircraft guns and two for each other row
    (its rooms, tunnels; its dice and digging)."""
    b = state.board
    rows = list(dict.fromkeys(s[0] for s in b.spaces))
    wall = "[dim]│[/]"
    lines = ["  " + "".join(f"{c:^{COMPACT_BASE_CELL}} " for c in range(1, b.columns + 1))]
    for row in rows:
        spaces = [f"{row}{c}" for c in range(1, b.columns + 1)]
        if all(space in b.aa_spaces for space in spaces):
            guns = [
                part(f"space:{s}", "[cyan]AA[/] " + _compact_content(state, s, COMPACT_BASE_CELL - 3)) for s in spaces
            ]
            lines.append(f"[bold]{row}[/]{wall}{wall.join(guns)}{wall}")
            continue
        top, bottom = f"[bold]{row}[/]{wall}", f" {wall}"
        c = 1
        while c <= b.columns:
            room = b.room_of.get(f"{row}{c}")
            span = len(room.spaces) if room is not None else 1
            top += part(f"space:{row}{c}", _compact_label(state, f"{row}{c}", span * (COMPACT_BASE_CELL + 1) - 1))
            top += wall
            for k in range(c, c + span):
                content = _compact_content(state, f"{row}{k}", COMPACT_BASE_CELL)
                bottom += part(f"space:{row}{k}", content) + (wall if k == c + span - 1 else " ")
            c += span
        lines += [top, bottom]
    return lines


def _compact_label(state: FallingSkiesState, space: str, width: int) -> str:
    room = state.board.room_of.get(space)
    if room is None:
        return _pad("tunnel", width, "dim")
    joined = " Σ" if len(room.spaces) > 1 else ""
    style = f"bold {ROOM_STYLE.get(room.effects[0], '')}" if state.excavated(space) else "dim"
    return _pad(room_text(room).replace(" ", "") + joined, width, style)


def _compact_content(state: FallingSkiesState, space: str, width: int) -> str:
    """What stands on a space (``b4`` ``w4`` ``r4``), then the excavator ``◆`` or, under rock
    ``░``, the steps the excavator still has to dig to reach it (``d3``)."""
    b = state.board
    held = state.slots.get(space)
    fill, note, style = " ", "", ""
    if b.dig_path[state.excavator] == space:
        note, style = "◆", "bold yellow"
    elif not state.excavated(space):
        route = b.dig_index[space] - state.excavator
        fill, note, style = "░", (f"d{route}" if route <= 6 else ""), "dim"
    die = _short_die(*held) if held else ""
    return die + _styled(fill * max(0, width - _width(die) - len(note)) + note, style)


def _short_die(color: str, value: int) -> str:
    """A die or robot as ``b4`` / ``w4`` / ``r4``, styled by its color."""
    return _styled(f"{DIE_LETTER.get(color, color[:1])}{value}", DIE_STYLE.get(color, "bold"))


def _compact_strip(state: FallingSkiesState) -> list[str]:
    """The tracks and the reserves, a line each of at most 10 columns, and the dice letters."""
    b = state.board
    nxt = f"next {b.research[state.research]}+" if state.research < len(b.research) else "complete"
    lose = b.lose_at_damage
    boxes = "".join("[bold red]■[/]" if i < state.damage else "[dim]□[/]" for i in range(lose - 1))
    return [
        f"[bold]RES[/] {state.research:>2}/{len(b.research)}",
        f" [dim]{nxt}[/]",
        f"[bold]ENERGY[/] {state.energy}/{b.energy_max}",
        f"[bold]DAMAGE[/] {state.damage}/{lose}",
        f"{boxes}[red]✗[/]",
        f"[bold]WAIT[/] {_waiting(state, '{}G', '{}R')}",
        f"[bold]RESERVE[/] {state.red_supply}R",
        f"[bold]ROBOTS[/] {state.robot_supply}",
        f"dig {'[dim]used[/]' if state.dug else 'free'}",
        "[dim]b/w dice[/]",
        "[dim]r robot[/]",
        "[dim]Σ sum[/]",
    ]


def _compact_tray(state: FallingSkiesState) -> list[str]:
    """Under the base, as pieces to lay out: the dice to place or roll, the new robots, the rooms
    and digging dice to skip while resolving, and the mother ship card while it is above the sky."""
    dice = [part(f"die:{c}:{v}", _short_die(c, v)) for c, v in state.unplaced]
    pieces = [
        "[bold]DICE[/] " + (" ".join(dice) or "[dim]none[/]") + (f" roll {len(state.to_roll)}" if state.to_roll else "")
    ]
    if state.new_robots:
        robots = " ".join(part("robot:new", _short_die("robot", v)) for v in state.new_robots)
        pieces.append(f"[bold]NEW ROBOT[/] {robots}")
    if state.phase == "resolve":
        pieces.append("[bold]SKIP[/] " + _skip_buttons(state))
    if state.mothership == 0:
        taken = {c: red for row, c, red in state.ships if row == SPOT}
        spots = [
            part(f"spot:{c + 1}", f"{c + 1}{_ships_text([taken[c]])[1] if c in taken else '[dim]·[/]'}")
            for c in range(state.board.columns)
        ]
        pieces.append("[bold magenta]MOTHER[/] above row 1: " + " ".join(spots))
    return pieces


def _flow(pieces: Sequence[str], width: int) -> list[str]:
    """``pieces`` laid out in lines of at most ``width`` columns, two spaces apart."""
    lines: list[str] = []
    for piece in pieces:
        if lines and _width(lines[-1]) + 2 + _width(piece) <= width:
            lines[-1] += "  " + piece
        else:
            lines.append(piece)
    return lines


def compact(state: FallingSkiesState, seat: int | None = 0) -> str:
    """The whole board in at most COMPACT_ROWS lines of COMPACT_COLUMNS columns: the sky at the
    left; at the right the title, the base with the tracks beside it, and the dice under it."""
    sky_width = COMPACT_GUTTER + COMPACT_SKY_CELL * state.board.columns + 1
    base = _compact_base(state)
    right = [f"[bold reverse] FALLING SKIES [/] round {state.round} · {_phase(state)}"]
    right += _beside(base, _compact_strip(state), max(map(_width, base)) + 1)
    right += _flow(_compact_tray(state), COMPACT_COLUMNS - sky_width)
    return "\n".join(_beside(_compact_sky(state), right, sky_width))


def _beside(left: Sequence[str], right: Sequence[str], width: int) -> list[str]:
    """Each line of ``left`` padded to ``width`` columns, then the line of ``right`` beside it."""
    return [(a + " " * (width - _width(a)) + b).rstrip() for a, b in zip_longest(left, right, fillvalue="")]


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
