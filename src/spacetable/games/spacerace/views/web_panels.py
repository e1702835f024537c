"""The side panels of SpaceRace's web board (HTML): what is happening now, the players, the fleets.

Each panel is a ``<section data-tab>``: beside the map on a wide screen, tabs under it on a phone.
Text is HTML, so it wraps and keeps its size whatever the map's scale. The choices of the seat
to decide (the mothership design, End turn, the battle's choices) are shown to that seat only."""

from __future__ import annotations

from spacetable.engine.svg import escape

from .render import PHASE_TEXT
from .web_battle import STAT_NAMES, battle_box, battle_buttons
from .web_context import Ctx, deciding_seat
from .web_markup import PLAYER_FILL, PLAYER_NAMES, chip, mark, tag
from .web_words import glossary, plural, treasure_term

SIDE_STYLE = """
&{font:14px/1.35 system-ui,sans-serif;color:#e6ebf5;gap:.3rem}
& .sr-panel{background:#0f1526;border:1px solid #26324f;border-radius:8px;padding:4px 8px}
& .sr-h{font-size:15px;margin:2px 0 4px}
& h4{font-size:14px;margin:2px 0;color:#ffe08a}
& .sr-line{margin:2px 0;color:#cfd8e3}
& .sr-muted{color:#a3afc6}
& .sr-row{display:flex;flex-wrap:wrap;gap:4px;margin:4px 0}
& .sr-chip{display:inline-block;padding:1px 6px;border:1px solid #3a4a70;border-radius:5px;background:#18223a}
& .sr-button{display:inline-block;padding:4px 10px;border:1px solid #7cc4ff;border-radius:6px}
& .sr-button{background:#1e4f8a;font-weight:700}
& .sr-box{border:1px solid #ffd54f;border-radius:8px;padding:4px 6px;margin:4px 0;background:#111a30}
& .sr-fighters{display:flex;flex-wrap:wrap;gap:4px;align-items:center}
& .sr-fighter{flex:1 1 9rem;border:2px solid;border-radius:8px;padding:2px 6px;background:#0b1226}
& .sr-who{color:#c6d0e4}
& .sr-name{font-weight:700}
& .sr-vs{font-weight:800;color:#ffd54f}
& .sr-stats{display:flex;gap:3px;margin:2px 0}
& .sr-stat{border:1px solid #3a4a70;border-radius:4px;background:#18223a;padding:0 5px}
& .sr-steps{list-style:none;margin:4px 0;padding:0}
& .sr-steps .done::first-letter{color:#69f0ae}
& .sr-steps .now{font-weight:700}
& .sr-steps .later{color:#a3afc6}
& .sr-design{display:grid;grid-template-columns:auto 1fr;gap:4px;align-items:center}
& .sr-design .sr-chip{min-width:1.6em;padding:3px 6px;text-align:center;font-weight:800}
& .sr-mark{font-size:14px}
& .sr-players{list-style:none;margin:0;padding:0}
& .sr-players li{padding:2px 4px;border-radius:4px}
& .sr-players li.turn{background:#1b2744}
& .sr-players li.out{opacity:.7}
& .sr-ship{display:flex;flex-wrap:wrap;gap:2px 6px;align-items:baseline;padding:2px 4px;border-radius:4px}
& .sr-ship.spent{opacity:.75}
& .sr-token{font-weight:800;border:1px solid;border-radius:4px;padding:0 4px;background:#0e1424}
& .sr-token.mothership{outline:1px solid #fff}
& .sr-treasure{margin:0 0 2px 1.2rem;padding:0;color:#f2dfa0}
& .sr-treasure li{list-style:"• "}
""".replace("&", ".sr-board .st-side")


# ---- now ----------------------------------------------------------------------------------------------


def _status(ctx: Ctx) -> tuple[str, str]:
    """The headline and the line under it."""
    view = ctx.view
    phase = view["phase"]
    limit = ctx.options.get("turn_limit")
    if phase == "over":
        winners = " and ".join(ctx.who(s) for s in view["winners"])
        verb = "wins" if len(view["winners"]) == 1 else "win"
        last = min(view["round"], limit) if limit else view["round"]
        return f"Game over after round {last}", f"{winners} {verb}: {view['reason']}."
    actor = deciding_seat(view)
    rounds = f"Round {view['round']}" + (f" of {limit}" if limit else "")
    head = f"{rounds} · {PLAYER_NAMES[view['turn']]}'s turn" if view["round"] else "Set-up"
    doing = PHASE_TEXT.get(phase, phase)
    if actor < 0:
        return head, doing[0].upper() + doing[1:] + " (chance)."
    if actor != ctx.seat:
        return head, f"{PLAYER_NAMES[actor]} is {doing}."
    hint = {
        "homeworld": "tap a free planet of the map to make it your homeworld",
        "design": "choose a D, then an M; A takes the points left",
        "move": "tap one of your ships on the map (or below), then where it flies; or end the turn",
        "standoff": "contest with the dice, or flee",
        "reward": "assimilate the beaten ship, or destroy it for its treasure",
    }.get(phase, doing)
    return head, f"You: {hint}."


def _design(ctx: Ctx) -> str:
    """The mothership design: a row of values for each of D, M and A (for the seat designing)."""
    content = ctx.content
    low, high = content.mothership_minimum, content.mothership_points - 2 * content.mothership_minimum
    rows = []
    for letter in "dma":
        up = letter.upper()
        rows.append(tag("span", f"<b>{up}</b>", title=f"{up}: {STAT_NAMES[up]}", data_term=up))
        values = [
            chip(str(v), f"{up} {v} ({STAT_NAMES[up]})", f"design:{letter}:{v}", up) for v in range(low, high + 1)
        ]
        rows.append(tag("span", "".join(values), class_="sr-row"))
    heading = f"Design your mothership: {content.mothership_points} points over D, M and A"
    title = glossary(content, ctx.options)["design"]
    return tag(
        "div",
        tag("h4", escape(heading), title=title, data_term="design") + tag("div", "".join(rows), class_="sr-design"),
        class_="sr-box",
    )


def now_panel(ctx: Ctx) -> str:
    """What is happening now, and the choices of the seat to decide that have no place on the map."""
    view = ctx.view
    head, line = _status(ctx)
    term = "round" if view["round"] else "homeworld" if view["phase"] == "homeworld" else "design"
    body = tag("h3", escape(head), title=f"{head}. {line}", data_term=term, class_="sr-h")
    body += tag("p", escape(line), class_="sr-line")
    body += battle_box(ctx)
    mine = ctx.seat is not None and deciding_seat(view) == ctx.seat
    if mine and view["phase"] == "design":
        body += _design(ctx)
    buttons = battle_buttons(ctx) if mine else []
    if mine and view["phase"] == "move":
        buttons.append(chip("End turn", "End the turn (ships not moved stay put).", "end-turn", "round", "sr-button"))
    if buttons:
        body += tag("div", "".join(buttons), class_="sr-row")
    return tag("section", body, class_="sr-panel", data_tab="Now", aria_label="What is happening now")


# ---- the players ------------------------------------------------------------------------------------


def players_panel(ctx: Ctx) -> str:
    view = ctx.view
    rows = []
    for seat in range(len(view["fleets"])):
        planets = sum(1 for p in ctx.galaxy.planets if view["owner"][p] == seat)
        notes = [plural(planets, "planet"), plural(len(ctx.fleets[seat]), "ship")]
        if view["rebuilding"][seat]:
            notes.append("mothership rebuilding")
        if view["out"][seat]:
            notes.append("out of the game")
        home = view["homeworld"][seat]
        title = f"{ctx.who(seat)}: {', '.join(notes)}"
        if home >= 0:
            title += f"; homeworld {ctx.galaxy.names[home]}"
        if view["rolls"][seat] and view["round"] == 0:
            title += f"; rolled {view['rolls'][seat]} for the order of choice"
        term = "eliminated" if view["out"][seat] else ("rebuild" if view["rebuilding"][seat] else "fleet")
        current = view["phase"] != "over" and view["round"] > 0 and view["turn"] == seat
        cls = "turn" if current else ("out" if view["out"][seat] else None)
        words = f"{mark(seat)} <b>{escape(ctx.who(seat))}</b> " + tag(
            "span", escape(" · ".join(notes)), class_="sr-muted"
        )
        rows.append(tag("li", ("▶ " if current else "") + words, title=title + ".", data_term=term, class_=cls))
    deck = (
        f"Decks: {sum(view['ship_deck'])} spaceships · {sum(view['treasure_deck'])} treasure · "
        f"{sum(view['starway_deck'])} starways"
    )
    body = tag("ul", "".join(rows), class_="sr-players") + tag(
        "p", escape(deck), title=deck + " left.", class_="sr-line sr-muted"
    )
    return tag("section", body, class_="sr-panel", data_tab="Players", aria_label="The players")


# ---- the fleets ---------------------------------------------------------------------------------------


def fleets_panel(ctx: Ctx) -> str:
    """Every fleet, ship by ship; the ships of the seat moving now can be chosen here too."""
    view = ctx.view
    movers = view["phase"] == "move" and ctx.seat == deciding_seat(view)
    parts = []
    for seat, fleet in enumerate(ctx.fleets):
        if not fleet and not view["rebuilding"][seat]:
            continue
        room = ctx.content.fleet_limit - len(fleet) - (1 if view["rebuilding"][seat] else 0)
        head = f"{mark(seat)} {escape(ctx.who(seat))} · room for {room}"
        if view["rebuilding"][seat]:
            head += " · mothership rebuilding"
        parts.append(
            tag("h4", head, title=f"{ctx.who(seat)}'s fleet: {plural(len(fleet), 'ship')}.", data_term="fleet")
        )
        for ship in fleet:
            state = " · moved" if ship.acted else (" · waiting" if ship.wait else "")
            token = tag(
                "span",
                f"{mark(seat)} {'|'.join(map(str, ship.stats))}",
                class_="sr-token mothership" if ship.mothership else "sr-token",
                style=f"border-color:{PLAYER_FILL[seat]}",
            )
            words = (
                token
                + f" <b>{escape(ship.name)}</b> "
                + tag("span", escape(ctx.galaxy.place(ship.node) + state), class_="sr-muted")
            )
            term = "mothership" if ship.mothership else "spaceship"
            part = f"ship:{ship.index}" if movers and seat == view["turn"] else None
            cls = "sr-ship spent" if ship.acted or ship.wait else "sr-ship"
            parts.append(tag("div", words, title=ctx.ship_title(ship), data_part=part, data_term=term, class_=cls))
            if ship.treasure:
                parts.append(_treasure_list(ctx, ship.treasure))
    body = "".join(parts) or tag("p", "No ship on the map yet.", class_="sr-line sr-muted")
    return tag("section", body, class_="sr-panel", data_tab="Fleets", aria_label="The fleets")


def _treasure_list(ctx: Ctx, cards: tuple[int, ...]) -> str:
    """A ship's treasure cards, each kind once with its copies."""
    copies: dict[int, int] = {}
    for card in cards:
        copies[card] = copies.get(card, 0) + 1
    items = []
    for card, n in copies.items():
        t = ctx.content.treasure[card]
        words = t.describe() + (f" ×{n}" if n > 1 else "")
        items.append(
            tag(
                "li",
                escape(words),
                title=f"Treasure card {t.describe()}, fixed to the ship that carries it.",
                data_term=treasure_term(t.name),
            )
        )
    return tag("ul", "".join(items), class_="sr-treasure")
