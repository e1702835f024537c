"""The battle box of SpaceRace's side panel (HTML): the fighters, the battle's steps and the moving
ship's encounter, conquest roll and treasure draws."""

from __future__ import annotations

from collections.abc import Sequence

from spacetable.engine.svg import escape

from ..content import Content, Stats
from ..rules.battle import STANDOFF, initiative, may_flee, resolve
from ..rules.state import ASSAULT, ATTACKER, DEFENDER, KIND_NAMES, PVM
from .web_context import Ctx
from .web_markup import PLAYER_FILL, PLAYER_NAMES, chip, mark, tag
from .web_words import conquest_text, plural

STAT_NAMES = {"D": "defence", "M": "movement", "A": "attack"}
BATTLE_PHASES = ("initiative", "standoff", "contest", "reward", "encounter", "conquest", "treasure")


def _stats(stats: Stats, note: Sequence[str] = ("", "", "")) -> str:
    """D, M and A side by side, each with its glossary term."""
    boxes = []
    for k, (letter, value) in enumerate(zip("DMA", stats)):
        title = f"{letter} {value}: {STAT_NAMES[letter]}" + (f" ({note[k]})" if note[k] else "")
        boxes.append(tag("span", f"<b>{letter}</b> {value}", title=title, data_term=letter, class_="sr-stat"))
    return tag("span", "".join(boxes), class_="sr-stats")


def _fighter(who: str, name: str, seat: int, stats: Stats, note: Sequence[str]) -> str:
    d, m, a = stats
    colour = PLAYER_FILL[seat] if seat >= 0 else "#8a93a8"
    head = (mark(seat) + " " if seat >= 0 else "") + escape(who)
    body = tag("div", head, class_="sr-who") + tag("div", escape(name), class_="sr-name") + _stats(stats, note)
    title = f"{who}: {name}, D {d} defence, M {m} movement, A {a} attack"
    return tag("div", body, title=title, data_term="battle", class_="sr-fighter", style=f"border-color:{colour}")


def _steps(lines: list[tuple[str, str, str]]) -> str:
    """The battle's sequence: done (✓), now (▶) or to come (·)."""
    marks = {"done": "✓", "now": "▶", "later": "·"}
    items = [
        tag("li", f"{marks[state]} {escape(words)}", title=words, data_term=term, class_=state)
        for state, words, term in lines
    ]
    return tag("ol", "".join(items), class_="sr-steps")


def battle_box(ctx: Ctx) -> str:
    """The battle in progress, or the moving ship's encounter, conquest roll and treasure draws."""
    view, content = ctx.view, ctx.content
    phase = view["phase"]
    turn, moving = view["turn"], view["moving"]
    if moving < 0 or moving >= len(ctx.fleets[turn]) or phase not in BATTLE_PHASES:
        return ""
    ship = ctx.fleets[turn][moving]
    place = ctx.galaxy.place(ship.node)
    b = view["battle"]
    if b is None:
        heading = f"{PLAYER_NAMES[turn]}'s {ship.label} at {place}"
        if phase == "encounter":
            lines = [("now", "An [S] tile: a wild spaceship card is being drawn.", "spaceship tile")]
        elif phase == "conquest":
            lines = [("now", f"Conquest roll: a die gives treasure cards ({conquest_text(content)}).", "conquest roll")]
        else:
            lines = [("now", f"{plural(view['draws'], 'treasure card')} to draw for {ship.name}.", "treasure")]
        body = tag("h4", escape(heading), title=ctx.ship_title(ship), data_term="spaceship") + _steps(lines)
        if phase == "conquest":
            body += _conquest_table(content)
        return tag("div", body, class_="sr-box")
    kind, foe, foe_ship, first, roll, winner = b
    attacker = ship.stats
    if kind == PVM:
        defender: Stats = content.ships[foe_ship]
        foe_name, foe_seat, foe_who = "Wild spaceship", -1, "The map"
    else:
        enemy = ctx.fleets[foe][foe_ship]
        d, m, a = enemy.stats
        defender = (2 * d, 0, a) if kind == ASSAULT else (d, m, a)
        foe_name, foe_seat, foe_who = enemy.name, foe, PLAYER_NAMES[foe]
    heading = f"Battle at {place}: {KIND_NAMES[kind]}"
    term = "planetary assault" if kind == ASSAULT else ("wild spaceship" if kind == PVM else "battle")
    note = ("doubled in orbit", "0 in orbit", "") if kind == ASSAULT else ("", "", "")
    fighters = (
        _fighter(f"{PLAYER_NAMES[turn]} attacks", ship.name, turn, attacker, ("", "", ""))
        + tag("span", "vs", title=f"Battle: {ship.name} against {foe_name}", data_term="battle", class_="sr-vs")
        + _fighter(f"{foe_who} defends", foe_name, foe_seat, defender, note)
    )
    lines = _battle_lines(ctx, phase, kind, attacker, defender, first, roll, winner, foe)
    body = tag("h4", escape(heading), title=heading, data_term=term) + tag("div", fighters, class_="sr-fighters")
    return tag("div", body + _steps(lines), class_="sr-box sr-battle")


def battle_buttons(ctx: Ctx) -> list[str]:
    """The choices of the battle's decision (for the seat that makes it)."""
    phase = ctx.view["phase"]
    if phase == "standoff":
        origin = ctx.galaxy.place(ctx.view["origin"]) if ctx.view["origin"] >= 0 else "where it came from"
        return [
            chip(
                "Contest: a die each", "Settle the standoff with a die each.", "battle:contest", "contest", "sr-button"
            ),
            chip(f"Flee to {origin}", f"Flee back to {origin}.", "battle:flee", "flee", "sr-button"),
        ]
    if phase == "reward":
        return [
            chip("Assimilate", "Take the beaten ship into your fleet.", "battle:assimilate", "assimilate", "sr-button"),
            chip(
                "Destroy for treasure",
                "Destroy the beaten ship and move its treasure aboard.",
                "battle:destroy",
                "destroy",
                "sr-button",
            ),
        ]
    return []


def _conquest_table(content: Content) -> str:
    cells = [
        chip(f"{k + 1} → {cards}T", f"A roll of {k + 1}: {plural(cards, 'treasure card')}.", term="conquest roll")
        for k, cards in enumerate(content.conquest_treasure)
    ]
    return tag("div", "".join(cells), class_="sr-row")


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
