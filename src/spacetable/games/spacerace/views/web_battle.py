"""The battle panel of SpaceRace's web board: the fighters, the battle's steps and the choices."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from spacetable.engine.svg import el

from ..content import Content, Stats
from ..rules.battle import STANDOFF, initiative, may_flee, resolve
from ..rules.state import ASSAULT, ATTACKER, DEFENDER, KIND_NAMES, PVM
from .web_context import Ctx
from .web_markup import PLAYER_FILL, PLAYER_NAMES, PLAYER_SHAPE, PW, button, shape, tenth, text
from .web_words import conquest_text, plural

STAT_NAMES = {"D": "defence", "M": "movement", "A": "attack"}


def _stat_boxes(x: float, y: float, stats: Stats, note: Sequence[str] = ("", "", "")) -> str:
    """D, M and A side by side, labelled, each with its glossary term."""
    parts = []
    for k, (letter, value) in enumerate(zip("DMA", stats)):
        bx = x + k * 34
        title = f"{letter} {value}: {STAT_NAMES[letter]}" + (f" ({note[k]})" if note[k] else "")
        parts.append(
            el(
                "g",
                el("rect", x=tenth(bx), y=tenth(y), width=30, height=34, rx=4, class_=f"stat stat-{letter}")
                + text(bx + 15, y + 11, letter, class_="stat-letter")
                + text(bx + 15, y + 29, str(value), class_="stat-value"),
                title=title,
                data_term=letter,
            )
        )
    return "".join(parts)


def _fighter(x: float, y: float, w: float, who: str, name: str, seat: int, stats: Stats, note: Sequence[str]) -> str:
    fill = PLAYER_FILL[seat] if seat >= 0 else "#8a93a8"
    body = el("rect", x=tenth(x), y=tenth(y), width=tenth(w), height=74, rx=8, class_="fighter", stroke=fill)
    if seat >= 0:
        body += shape(PLAYER_SHAPE[seat], x + 12, y + 13, 12, fill=fill)
    body += text(x + 22, y + 17, who, anchor="start", class_="fighter-who")
    body += text(x + 8, y + 33, name[:22], anchor="start", class_="fighter-name")
    body += _stat_boxes(x + 8, y + 38, stats, note)
    d, m, a = stats
    title = f"{who}: {name}, D {d} defence, M {m} movement, A {a} attack"
    return el("g", body, title=title, data_term="battle")


def _step(y: float, state: str, words: str, term: str, title: str | None = None) -> str:
    """One line of the battle's sequence: done (✓), now (▶) or to come (·)."""
    mark = {"done": "✓", "now": "▶", "later": "·"}[state]
    return el(
        "g",
        text(10, y + 15, mark, anchor="start", class_=f"step-mark {state}")
        + text(26, y + 15, words, anchor="start", class_=f"step-text {state}"),
        title=title or words,
        data_term=term,
    )


def wrap(words: str, width: int = 44) -> list[str]:
    """``words`` in lines of at most ``width`` characters, breaking only between words."""
    return textwrap.wrap(words, width, break_long_words=False, break_on_hyphens=False)


def _steps(ctx: Ctx, y: float, lines: list[tuple[str, str, str]]) -> tuple[str, float]:
    parts = []
    for state, words, term in lines:
        for k, line in enumerate(wrap(words)):
            parts.append(_step(y, state, line, term, words) if k == 0 else _cont(y, state, line, term, words))
            y += 19
    return "".join(parts), y


def _cont(y: float, state: str, line: str, term: str, words: str) -> str:
    return el("g", text(26, y + 15, line, anchor="start", class_=f"step-text {state}"), title=words, data_term=term)


def battle_panel(ctx: Ctx, y: float) -> tuple[str, float]:
    """The battle in progress, or the moving ship's pending conquest roll and treasure draws."""
    view, content = ctx.view, ctx.content
    phase = view["phase"]
    turn, moving = view["turn"], view["moving"]
    if moving < 0 or moving >= len(ctx.fleets[turn]) or phase not in (
        "initiative", "standoff", "contest", "reward", "encounter", "conquest", "treasure",
    ):  # fmt: skip
        return "", y
    ship = ctx.fleets[turn][moving]
    top = y
    y += 8
    parts: list[str] = []
    place = ctx.galaxy.place(ship.node)
    b = view["battle"]
    if b is not None:
        kind, foe, foe_ship, first, roll, winner = b
        attacker = ship.stats
        if kind == PVM:
            defender: Stats = content.ships[foe_ship]
            foe_name, foe_seat, foe_who = "Wild spaceship", -1, "map"
        else:
            enemy = ctx.fleets[foe][foe_ship]
            d, m, a = enemy.stats
            defender = (2 * d, 0, a) if kind == ASSAULT else (d, m, a)
            foe_name, foe_seat, foe_who = enemy.name, foe, PLAYER_NAMES[foe]
        heading = f"Battle at {place}: {KIND_NAMES[kind]}"
        term = "planetary assault" if kind == ASSAULT else ("wild spaceship" if kind == PVM else "battle")
        parts.append(panel_heading(heading, y, heading, term))
        y += 6 + 18 * len(wrap(heading, 40))
        half = (PW - 44) / 2
        parts.append(_fighter(10, y, half, f"{PLAYER_NAMES[turn]} attacks", ship.name, turn, attacker, ("", "", "")))
        note = ("doubled in orbit", "0 in orbit", "") if kind == ASSAULT else ("", "", "")
        parts.append(
            el(
                "g",
                text(PW / 2, y + 42, "vs", class_="versus"),
                title=f"Battle: {ship.name} against {foe_name}",
                data_term="battle",
            )
        )
        parts.append(_fighter(34 + half, y, half, f"{foe_who} defends", foe_name, foe_seat, defender, note))
        y += 84
        lines = _battle_lines(ctx, phase, kind, attacker, defender, first, roll, winner, foe)
        body, y = _steps(ctx, y, lines)
        parts.append(body)
        if phase == "standoff":
            origin = ctx.galaxy.place(view["origin"]) if view["origin"] >= 0 else "where it came from"
            flee = f"Flee to {origin}" if len(origin) <= 10 else "Flee back"
            parts.append(
                _choice(y + 4, ("Contest: a die each", "battle:contest", "Settle the standoff with a die each."))
            )
            parts.append(_choice(y + 4, (flee, "battle:flee", f"Flee back to {origin}."), right=True))
            y += 38
        if phase == "reward":
            parts.append(_choice(y + 4, ("Assimilate", "battle:assimilate", "Take the beaten ship into your fleet.")))
            destroy = (
                "Destroy for treasure",
                "battle:destroy",
                "Destroy the beaten ship and move its treasure aboard.",
            )
            parts.append(_choice(y + 4, destroy, right=True))
            y += 38
    else:
        heading = f"{PLAYER_NAMES[turn]}'s {ship.label} at {place}"
        parts.append(panel_heading(heading, y, ctx.ship_title(ship), "spaceship"))
        y += 6 + 18 * len(wrap(heading, 40))
        if phase == "encounter":
            lines = [("now", "An [S] tile: a wild spaceship card is being drawn.", "spaceship tile")]
        elif phase == "conquest":
            lines = [("now", f"Conquest roll: a die gives treasure cards ({conquest_text(content)}).", "conquest roll")]
        else:
            lines = [("now", f"{plural(view['draws'], 'treasure card')} to draw for {ship.name}.", "treasure")]
        body, y = _steps(ctx, y, lines)
        parts.append(body)
        if phase == "conquest":
            parts.append(_conquest_table(content, 10, y + 2))
            y += 46
    y += 6
    frame = el("rect", x=0, y=tenth(top), width=PW, height=tenth(y - top), rx=8, class_="battle-panel")
    return frame + "".join(parts), y


def _choice(y: float, choice: tuple[str, str, str], right: bool = False) -> str:
    """One of two buttons side by side in a panel; its part's last word is its glossary term."""
    label, part, title = choice
    w = (PW - 30) / 2
    return button(20 + w if right else 10, y, w, label, part, title, part.split(":")[1])


def panel_heading(words: str, y: float, title: str, term: str) -> str:
    lines = wrap(words, 40)
    drawn = "".join(
        text(10, y + 14 + 18 * k, line, anchor="start", class_="panel-title") for k, line in enumerate(lines)
    )
    return el("g", drawn, title=title, data_term=term)


def _conquest_table(content: Content, x: float, y: float) -> str:
    parts = []
    for k, cards in enumerate(content.conquest_treasure):
        cx = x + k * 36
        parts.append(
            el(
                "g",
                el("rect", x=tenth(cx), y=tenth(y), width=32, height=38, rx=4, class_="conquest-cell")
                + text(cx + 16, y + 15, str(k + 1), class_="conquest-roll")
                + text(cx + 16, y + 32, f"{cards}T", class_="conquest-cards"),
                title=f"A roll of {k + 1}: {plural(cards, 'treasure card')}.",
                data_term="conquest roll",
            )
        )
    return "".join(parts)


def _battle_lines(
    ctx: Ctx, phase: str, kind: str, att: Stats, dfn: Stats, first: int, roll: int, winner: int, foe: int
) -> list[tuple[str, str, str]]:
    """The battle's sequence as far as the view knows it: done, now, to come."""
    single = ctx.options.get("combat") == "single"
    lines: list[tuple[str, str, str]] = []
    ini = initiative(att, dfn)
    side = {ATTACKER: "the attacker", DEFENDER: "the defender"}
    if ini:
        lines.append(("done", f"Initiative: M {att[1]} against M {dfn[1]}, {side[ini]} strikes first.", "initiative"))
    elif first == 0:
        rolled = f" The attacker rolled {roll}; the defender rolls." if roll else " Rolling…"
        lines.append(("now", f"Initiative: equal M {att[1]}, a die each.{rolled}", "initiative"))
        lines.append(("later", "Strikes: A against D.", "strike"))
        return lines
    elif kind == PVM and ctx.options.get("map_initiative", "player") == "player":
        lines.append(("done", f"Initiative: equal M {att[1]}, the player strikes first.", "initiative"))
    else:
        lines.append(("done", f"Initiative: equal M {att[1]}, the dice gave it to {side[first]}.", "initiative"))
    strikers = [("Attacker", att, dfn), ("Defender", dfn, att)]
    if first == DEFENDER:
        strikers.reverse()
    for name, striker, target in strikers:
        a, d = striker[2], target[0]
        verdict = "wins" if a > d else ("standoff" if a == d else ("loses" if single else "no kill"))
        lines.append(("done", f"{name} strikes: A {a} against D {d}, {verdict}.", "strike"))
        if a >= d or single:
            break
    result = resolve(att, dfn, first, single)
    if result == STANDOFF:
        if phase == "standoff":
            lines.append(("now", "Standoff: the attacker is faster and may flee, or contest.", "standoff"))
        elif phase == "contest":
            rolled = f" The attacker rolled {roll}; the defender rolls." if roll else " Rolling…"
            faster = "contested" if may_flee(att, dfn) else "a die each"
            lines.append(("now", f"Standoff, {faster}.{rolled}", "contest"))
        else:
            lines.append(("done", f"Standoff: the dice gave the battle to {side.get(winner, '?')}.", "contest"))
    if phase == "reward":
        seat = ctx.view["turn"] if winner == ATTACKER else foe
        lines.append(("now", f"{ctx.who(seat)} wins: assimilate or destroy.", "assimilate"))
    return lines
