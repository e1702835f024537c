"""The panels of SpaceRace's web board: the status, the players, the mothership design and the fleets."""

from __future__ import annotations

from spacetable.engine.svg import el

from .render import PHASE_TEXT
from .web_battle import STAT_NAMES, battle_panel, panel_heading, wrap
from .web_context import Ctx, deciding_seat
from .web_layout import TOKEN_H
from .web_map import ship_token
from .web_markup import PLAYER_FILL, PLAYER_NAMES, PLAYER_SHAPE, PW, button, hit_rect, shape, tenth, text
from .web_words import glossary, plural, treasure_kinds, treasure_term

ROW = 24


# ---- the top panel -----------------------------------------------------------------------------


def _status(ctx: Ctx) -> tuple[str, str]:
    """The headline and the line under it."""
    view = ctx.view
    phase = view["phase"]
    limit = ctx.options.get("turn_limit")
    if phase == "over":
        winners = " and ".join(ctx.who(s) for s in view["winners"])
        verb = "wins" if len(view["winners"]) == 1 else "win"
        return f"Game over after round {view['round']}", f"{winners} {verb}: {view['reason']}."
    actor = deciding_seat(view)
    rounds = f"Round {view['round']}" + (f"/{limit}" if limit else "")
    head = f"{rounds} · {PLAYER_NAMES[view['turn']]}'s turn" if view["round"] else "Set-up"
    doing = PHASE_TEXT.get(phase, phase)
    if actor >= 0:
        hint = {
            "homeworld": "tap a free planet to make it the homeworld",
            "design": "tap a D, then an M, then the A left",
            "move": "tap a ship, then where it flies; or end the turn",
            "standoff": "contest with the dice, or flee",
            "reward": "assimilate the beaten ship, or destroy it for its treasure",
        }.get(phase, doing)
        mine = actor == ctx.seat
        who = "You" if mine else PLAYER_NAMES[actor]
        return head, f"{who}: {hint}" if mine else f"{who} is {doing}"
    return head, doing[0].upper() + doing[1:] + " (chance)"


def _players(ctx: Ctx, y: float) -> tuple[str, float]:
    view = ctx.view
    parts = []
    for seat in range(len(view["fleets"])):
        planets = sum(1 for p in ctx.galaxy.planets if view["owner"][p] == seat)
        ships = len(ctx.fleets[seat])
        row_y = y + seat * ROW
        current = view["phase"] not in ("over",) and view["round"] > 0 and view["turn"] == seat
        body = ""
        if current:
            body += el("rect", x=0, y=tenth(row_y), width=PW, height=ROW - 2, rx=5, class_="current-row")
            body += text(8, row_y + 16, "▶", anchor="start", class_="turn-mark")
        body += shape(PLAYER_SHAPE[seat], 30, row_y + ROW / 2 - 1, 14, fill=PLAYER_FILL[seat], cls="seat-shape")
        body += text(42, row_y + 16, ctx.who(seat), anchor="start", class_="seat-name")
        notes = [plural(planets, "planet"), plural(ships, "ship")]
        if view["rebuilding"][seat]:
            notes.append("rebuilding")
        if view["out"][seat]:
            notes.append("out")
        body += text(PW - 8, row_y + 16, " · ".join(notes), anchor="end", class_="seat-notes")
        home = view["homeworld"][seat]
        title = f"{ctx.who(seat)}: {', '.join(notes)}"
        if home >= 0:
            title += f"; homeworld {ctx.galaxy.names[home]}"
        if view["rolls"][seat] and view["round"] == 0:
            title += f"; rolled {view['rolls'][seat]} for the order of choice"
        term = "eliminated" if view["out"][seat] else ("rebuild" if view["rebuilding"][seat] else "fleet")
        parts.append(el("g", body, title=title + ".", data_term=term))
    return "".join(parts), y + len(view["fleets"]) * ROW


def _design(ctx: Ctx, y: float) -> tuple[str, float]:
    """The mothership design panel: a row of values for each of D, M and A."""
    view, content = ctx.view, ctx.content
    if view["phase"] != "design":
        return "", y
    low, high = content.mothership_minimum, content.mothership_points - 2 * content.mothership_minimum
    actor = deciding_seat(view)
    top = y
    heading = f"{ctx.who(actor)}: design the mothership ({content.mothership_points} points)"
    parts = [panel_heading(heading, y + 8, glossary(content, ctx.options)["design"], "design")]
    y += 14 + 18 * len(wrap(heading, 40))
    values = range(low, high + 1)
    size = min(30.0, (PW - 50) / max(len(values), 1) - 3)
    for letter in "dma":
        up = letter.upper()
        parts.append(
            el(
                "g",
                text(20, y + size / 2 + 5, up, class_="stat-letter big"),
                title=f"{up}: {STAT_NAMES[up]}",
                data_term=up,
            )
        )
        for k, v in enumerate(values):
            bx = 38 + k * (size + 3)
            parts.append(
                el("rect", x=tenth(bx), y=tenth(y), width=tenth(size), height=tenth(size), rx=4, class_="design-cell")
            )
            parts.append(text(bx + size / 2, y + size / 2 + 5, str(v), class_="design-value"))
            parts.append(hit_rect(bx, y, size, size, f"design:{letter}:{v}", f"{up} {v} ({STAT_NAMES[up]})", up))
        y += size + 6
    y += 4
    frame = el("rect", x=0, y=tenth(top), width=PW, height=tenth(y - top), rx=8, class_="battle-panel")
    return frame + "".join(parts), y


def top_panel(ctx: Ctx) -> tuple[str, float]:
    view = ctx.view
    head, line = _status(ctx)
    term = "round" if view["round"] else "homeworld" if view["phase"] == "homeworld" else "design"
    end_turn = view["phase"] == "move" and view["turn"] == deciding_seat(view)
    lines = wrap(line, 34 if end_turn else 46)
    parts = [
        el(
            "g",
            text(4, 20, head, anchor="start", class_="status")
            + "".join(
                text(4, 40 + 17 * k, words, anchor="start", class_="status-line") for k, words in enumerate(lines)
            ),
            title=f"{head}. {line}",
            data_term=term,
        )
    ]
    y = 30.0 + 17 * len(lines)
    if end_turn:
        parts.append(
            button(PW - 96, 22, 92, "End turn", "end-turn", "End the turn (ships not moved stay put).", "round")
        )
    players, y = _players(ctx, y + 2)
    parts.append(players)
    for panel in (battle_panel, _design):
        drawn, end = panel(ctx, y + 6)
        if drawn:
            parts.append(drawn)
            y = end
    return "".join(parts), y + 4


# ---- the fleets -------------------------------------------------------------------------------


def fleets_panel(ctx: Ctx) -> tuple[str, float]:
    view = ctx.view
    parts = [text(4, 16, "FLEETS", anchor="start", class_="section-label")]
    y = 24.0
    pickable = view["phase"] == "move"
    for seat, fleet in enumerate(ctx.fleets):
        if not fleet and not view["rebuilding"][seat]:
            continue
        room = ctx.content.fleet_limit - len(fleet) - (1 if view["rebuilding"][seat] else 0)
        head = shape(PLAYER_SHAPE[seat], 12, y + 10, 12, fill=PLAYER_FILL[seat]) + text(
            24, y + 15, f"{ctx.who(seat)} · room for {room}", anchor="start", class_="fleet-head"
        )
        if view["rebuilding"][seat]:
            head += text(PW - 4, y + 15, "mothership rebuilding", anchor="end", class_="fleet-note")
        parts.append(el("g", head, title=f"{ctx.who(seat)}'s fleet: {plural(len(fleet), 'ship')}.", data_term="fleet"))
        y += 22
        for ship in fleet:
            token, left, top, w = ship_token(ctx, ship, 12, y, pips=False)
            words = f"{ship.name} · {ctx.galaxy.place(ship.node)}"
            state = " · moved" if ship.acted else (" · waiting" if ship.wait else "")
            row = token + text(left + w + 10, y + 14, (words + state)[:40], anchor="start", class_="fleet-ship")
            parts.append(row)
            y += TOKEN_H + 6
            if ship.treasure:
                for card in ship.treasure:
                    t = ctx.content.treasure[card]
                    parts.append(
                        el(
                            "g",
                            el("circle", cx=22, cy=tenth(y + 6), r=3, class_="pip")
                            + text(32, y + 10, t.describe(), anchor="start", class_="treasure-line"),
                            title=glossary_treasure(ctx, t.name),
                            data_term=treasure_term(t.name),
                        )
                    )
                    y += 15
                y += 4
            if pickable and seat == view["turn"]:
                term = "mothership" if ship.mothership else "spaceship"
                parts.append(
                    hit_rect(4, top - 3, PW - 8, TOKEN_H + 6, f"ship:{ship.index}", ctx.ship_title(ship), term)
                )
        y += 4
    deck = (
        f"Decks: {sum(view['ship_deck'])} spaceships · {sum(view['treasure_deck'])} treasure · "
        f"{sum(view['starway_deck'])} starways"
    )
    parts.append(el("g", text(4, y + 14, deck, anchor="start", class_="deck-line"), title=deck + " left."))
    return "".join(parts), y + 22


def glossary_treasure(ctx: Ctx, name: str) -> str:
    cards = treasure_kinds(ctx.content).get(name, [])
    return f"Treasure card {name}: {', '.join(c for c, _ in cards)} on the ship that carries it."
