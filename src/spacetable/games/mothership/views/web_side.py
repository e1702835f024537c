"""The side panels of Mothership's web board (HTML): what is happening now, the viewer's own fleet,
its technology, and every other fleet.

Each panel is a ``<section data-tab>``: beside the grid on a wide screen, tabs under it on a phone.
Text is HTML, so it wraps instead of being cut, and keeps its size whatever the grid's scale."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import escape

from ..content import CATEGORIES, UNITS
from ..modules.random_events import AVOID, DOUBLE
from ..modules.random_events import NAMES as EVENT_NAMES
from ..rules.choices import pass_words
from .odds import odds_words
from .web_markup import LETTERS, SUBSYSTEMS, Ctx, chip, heading, line, panel, row, tag, target_part
from .web_words import card_words, objective_words, tile_words

# ---- what is happening now -----------------------------------------------------------------------


def now(ctx: Ctx) -> str:
    """The roll in progress, the question asked, the card being played, and the buttons of the
    viewer's moves that have no place on the grid (pass, end the turn, ...)."""
    view = ctx.view
    c = ctx.game.content
    parts: list[str] = []
    pending = view["pending"]
    if pending and pending.get("what") in ("dogfight", "asteroid", "black_hole", "test", "event", "replicator"):
        parts.append(heading(_pending_words(ctx, pending), "dogfight"))
        dice = []
        for i, sides in enumerate(pending["dice"]):
            rolled = pending["rolls"][i] if i < len(pending["rolls"]) else None
            words = f"d{sides}: {rolled if rolled is not None else '?'}"
            side = "attacker" if i < len(pending["ships"]) else "defender"
            dice.append(chip(words, f"Die {i + 1} ({side}): {words}", f"die:{i}", "die", "ms-die"))
        parts.append(row(dice))
        if pending.get("forecast"):  # the odds of the dice still to roll, with the bonuses known now
            parts.append(line(odds_words(pending["forecast"]), term="odds"))
    choice = view["choice"]
    if choice:
        parts.append(heading(f"{ctx.player(choice['seat'])} chooses:", "choice", ctx.colour(choice["seat"])))
        parts.append(
            row(
                [
                    chip(str(label), f"Choose: {label}", f"choice:{value}", "choice", "ms-button")
                    for value, label in zip(choice["options"], choice["labels"])
                ]
            )
        )
    if view["playing"]:
        seat, card = view["playing"][0], view["playing"][1]
        parts.append(
            line(
                f"{ctx.player(seat)} plays {c.cards[card].name}: it may be cancelled",
                card_words(c.cards[card]),
                ctx.terms.cards[card],
            )
        )
    if view["event_roll"]:
        parts.append(line(f"{ctx.player(view['event_roll'][0])} doubles or avoids the random event", term="choice"))
    if view["reward"]:
        parts.append(line(f"{ctx.player(view['reward'][0])} takes a card for the captured planet", term="action card"))
    parts.append(row(_beacon_buttons(ctx) + _buttons(ctx)))
    return panel("Now", "".join(parts), "What is happening now")


def _beacon_buttons(ctx: Ctx) -> list[str]:
    view = ctx.view
    if ctx.seat is None or view["phase"] != "turn" or view["turn"] != ctx.seat or not view["tokens"]:
        return []
    tokens = {t[0]: t[1] for t in view["tokens"]}
    out = []
    for ship, cell in enumerate(view["pos"][ctx.seat]):
        unit = tokens.get(cell, -2)
        if unit >= 0 and UNITS[unit] == ctx.ship_kind(ship):
            name = ctx.game.ship_names[ship]
            out.append(
                chip(
                    f"Answer the distress beacon at {ctx.name(cell)} with {name}",
                    f"{name} stays on the beacon at {ctx.name(cell)} and answers it (draws a beacon card)",
                    f"activate:{ship}",
                    "beacon token",
                    "ms-button",
                )
            )
    return out


def _buttons(ctx: Ctx) -> list[str]:
    """The viewer's moves that have no place on the grid, as buttons, drawn only while the viewer
    owes a decision (the table marks those it may take now)."""
    view = ctx.view
    if ctx.seat is None or ctx.seat not in view.get("to_act", ()):
        return []
    if view["phase"] == "place":
        return [
            chip(
                "Place the rest in the standard formation",
                "Every ship not placed yet goes to its usual place round your colony station",
                "auto_place",
                "set-up",
                "ms-button",
            )
        ]
    if view["choice"]:  # answered with the question's own buttons
        return []
    if view["reward"]:
        owner = ctx.player(view["reward"][1])
        deck = [
            chip(
                "Take the top card of the deck",
                "Your card for the captured planet",
                "reward:0",
                "action deck",
                "ms-button",
            )
        ]
        steal = chip(
            f"Steal a card blindly from {owner}",
            f"Take one of {owner}'s cards unseen",
            "reward:1",
            "action card",
            "ms-button",
        )
        return (deck if view["deck"] else []) + [steal]
    if view["event_roll"]:
        name = EVENT_NAMES[view["event_roll"][1]]
        return [
            chip(
                f"Double {name} for yourself",
                f"{name}: twice its effect on you for one round",
                f"event:{DOUBLE}",
                "choice",
                "ms-button",
            ),
            chip(
                f"Avoid {name} yourself",
                f"{name}: it passes you by for one round",
                f"event:{AVOID}",
                "choice",
                "ms-button",
            ),
        ]
    if view["cancel"] or view["pending"] or view["trading"]:  # a window: its cards, or pass
        words = "Pass: " + pass_words(view["cancel"], view["pending"], view["trading"])
        return [chip(words, words, "pass", "pass", "ms-button")]
    out = []
    if view["phase"] == "turn" and view["turn"] == ctx.seat:
        out.append(
            chip(
                "End the turn and collect resources",
                "Your ships are done: collect your resources (planets and station) and hand the turn on",
                "end_turn",
                "resources",
                "ms-button ms-primary",
            )
        )
    return out


def _pending_words(ctx: Ctx, pending: Mapping[str, Any]) -> str:
    what = pending["what"]
    seat = pending["seat"]
    if what == "asteroid":
        return f"{ctx.player(seat)} fights the asteroids"
    if what == "black_hole":
        return f"A black hole rolls against {ctx.player(seat)}'s ship"
    if what == "test":
        return f"{ctx.player(seat)} rolls the beacon card's test"
    if what == "event":
        return "The random event die"
    if what == "replicator":
        return f"{ctx.player(seat)} rolls for the Replicator"
    ships = " + ".join(ctx.game.ship_names[s] for s in pending["ships"])
    return f"{ctx.player(seat)}'s {ships} attack {target_words(ctx, pending['target'])}"


def target_words(ctx: Ctx, code: int) -> str:
    part = target_part(ctx.game, code)
    kind, _, rest = part.partition(":")
    if kind == "planet":
        p = int(rest)
        return f"the planet at {ctx.name(ctx.board.planets[p])}" if p < len(ctx.board.planets) else "a planet"
    if kind == "cannon":
        return f"the cannon at {rest}"
    if kind == "station":
        return f"{ctx.player(int(rest))}'s station"
    seat, ship = (int(v) for v in rest.split(":"))
    return f"{ctx.player(seat)}'s {ctx.game.ship_names[ship]}"


# ---- the viewer's own fleet ----------------------------------------------------------------------


def _gives(row_: int, value: int) -> str:
    if row_ == 0:
        return f"the mothership moves {value} space{'s' if value != 1 else ''}"
    if row_ == 1:
        return f"weapons roll a d{value}" if value else "no weapon die"
    return f"{value} shield point{'s' if value != 1 else ''}"


def mark(ctx: Ctx, fleet: int) -> str:
    """The fleet's colour square with its mark, as its units carry them on the grid."""
    return tag(
        "span",
        escape(ctx.mark(fleet)),
        class_="ms-mark",
        style=f"background:{ctx.colour(fleet)}",
        title=f"{ctx.who(fleet)}: every unit of this fleet on the grid has this colour and the mark {ctx.mark(fleet)}",
    )


def _energy(ctx: Ctx, seat: int) -> str:
    c = ctx.game.content
    view = ctx.view
    locked = view["phase"] == "turn" and view["turn"] == seat and view["locked"]
    rows = []
    for index, name in enumerate(SUBSYSTEMS):
        now_ = view["energy"][seat][index]
        table = (c.engines, c.weapons, c.shields)[index]
        cells = [
            tag(
                "span",
                str(value),
                class_="ms-energy" + (" now" if value == now_ else ""),
                title=f"{name.capitalize()} {value}: {_gives(index, table[value])}",
                data_part=f"panel:{name}:{value}",
                data_term=name,
            )
            for value in range(c.row_length + 1)
        ]
        label = tag(
            "span",
            name.capitalize(),
            class_="ms-energy-name",
            title=f"{name.capitalize()}: {now_} energy, {_gives(index, table[now_])}"
            + (" (locked this turn)" if locked else ""),
            data_term=name,
        )
        rows.append(tag("div", label + "".join(cells), class_="ms-energy-row"))
    return tag("div", "".join(rows), class_="ms-energy-panel")


def own(ctx: Ctx, seat: int) -> str:
    """The viewer's fleet: its figures, control panel, ships, hand, objectives and finds."""
    view = ctx.view
    game = ctx.game
    c = game.content
    out = " — out of the game" if view["out"][seat] else ""
    resources = view["resources"][seat]
    charges = view["charges"][seat]
    stats = [
        chip(f"Hull {view['hp'][seat]}", f"Mothership hull: {view['hp'][seat]}/{c.mothership_hp}", term="hull"),
        chip(f"Shields {view['shield'][seat]}", f"Shield points left: {view['shield'][seat]}", term="shields"),
        chip(
            f"Station {view['station_hp'][seat]}",
            f"Colony station: {view['station_hp'][seat]}/{c.station_hp} hull points",
            term="colony station",
        ),
        chip(
            f"Resources {resources}",
            f"Your resources: {resources} (only you see them)",
            term="resources",
            cls="ms-gold",
        ),
    ]
    if game.mode == "victory_points":
        stats.append(
            chip(
                f"VP {view['points'][seat]}",
                f"Victory points: {view['points'][seat]} of {game.victory_target}",
                term="victory points",
            )
        )
    stats.append(
        chip(
            f"Overcharge {charges}",
            f"Overcharges held: {charges} (buy another here once you have the tile)",
            "charge",
            "overcharge",
        )
    )
    body = (
        heading(f"Your fleet: {ctx.who(seat)}{out}", None, ctx.colour(seat), mark(ctx, seat))
        + row(stats)
        + _energy(ctx, seat)
        + _roster(ctx, seat)
        + _hand(ctx, seat)
        + _expansion(ctx, seat)
    )
    return panel("Fleet", body, "Your fleet")


def _roster(ctx: Ctx, seat: int) -> str:
    view = ctx.view
    chips = []
    for ship, cell in enumerate(view["pos"][seat]):
        name = ctx.game.ship_names[ship]
        kind = ctx.ship_kind(ship)
        short = LETTERS[kind] + (name.split()[-1] if kind != "mothership" else "")
        waiting = "not placed yet" if view["phase"] in ("board", "place") else "destroyed"
        where = ctx.name(cell) if cell >= 0 else waiting.split()[-1]
        title = ctx.ship_title(seat, ship) if cell >= 0 else f"{ctx.who(seat)}: {name}, {waiting}"
        cls = "ms-roster" + (" gone" if cell < 0 else "")
        colour = ctx.colour(seat) if cell >= 0 else None
        chips.append(chip(f"{short} {where}", title, f"unit:{ship}", kind, cls, colour))
    return row(chips)


def _hand(ctx: Ctx, seat: int) -> str:
    view = ctx.view
    c = ctx.game.content
    hand = view["hands"][seat]
    if not isinstance(hand, list):
        return ""
    chips = []
    for card in sorted(set(hand)):
        copies = hand.count(card)
        model = c.cards[card]
        words = model.name + (f" ×{copies}" if copies > 1 else "")
        chips.append(
            chip(words, f"{model.name}: {card_words(model)}", f"card:{card}", ctx.terms.cards[card], "ms-card")
        )
    discard = sum(view["discard"])
    chips.append(chip("Sell", "Sell a card: choose the card, then here", "sell", "sell", "ms-slot"))
    chips.append(
        chip(
            f"Deck {view['deck']} · buy",
            f"Action deck: {view['deck']} cards face down ({discard} in the discard pile); "
            f"buy the top one for {c.card_price}",
            "deck",
            "action deck",
            "ms-slot",
        )
    )
    return heading(f"Your hand: {len(hand)} card{'s' if len(hand) != 1 else ''}", "action card") + row(chips)


def _expansion(ctx: Ctx, seat: int) -> str:
    """Objectives, artifacts held and kept beacon cards of the viewer."""
    view = ctx.view
    c = ctx.game.content
    mode = ctx.game.options["objectives"]
    out = []
    if mode == "hidden":
        held = view["objectives"][seat]
        done = view["completed"][seat]
        if isinstance(held, list):
            chips = [_objective(ctx, card, "", f"objective:{card}") for card in held]
            chips += [_objective(ctx, card, "done", None) for card in (done if isinstance(done, list) else [])]
            out.append(heading("Your objectives (secret)", "objectives") + (row(chips) or line("none held")))
    elif mode == "global":
        chips = [_objective(ctx, card, "", None) for card in view["public_objectives"]]
        out.append(heading("Objectives (face up, for everyone)", "objectives") + (row(chips) or line("all taken")))
    arts = _artifacts_of(ctx, seat)
    if arts:
        out.append(
            line(
                "Artifacts: " + ", ".join(c.artifacts[a].name for a in arts),
                "; ".join(f"{c.artifacts[a].name}: {c.artifacts[a].text}" for a in arts),
                ctx.terms.artifacts[arts[0]],
            )
        )
    kept = view["kept"][seat]
    if kept:
        names = ", ".join(c.beacons[k[0]][1].name for k in kept)
        out.append(line(f"Beacon cards kept: {names}", term=ctx.terms.beacons[kept[0][0]]))
    return "".join(out)


def _artifacts_of(ctx: Ctx, seat: int) -> list[int]:
    view = ctx.view
    return [
        a for p, a in enumerate(view["artifacts"]) if a >= 0 and p < len(view["owner"]) and view["owner"][p] == seat
    ]


def _objective(ctx: Ctx, card: int, state: str, part: str | None) -> str:
    """An objective card: held (clickable to replace it), completed and waiting to be claimed
    (``state="done"``), or face up for everyone."""
    model = ctx.game.content.objectives[card][1]
    done = state == "done"
    words = f"✓ {model.name}" if done else model.name
    title = f"Completed, to claim: {objective_words(model)}" if done else f"{model.name}: {objective_words(model)}"
    return chip(words, title, part, ctx.terms.objectives[card], f"ms-objective {state}".strip())


# ---- technology ---------------------------------------------------------------------------------


def technology(ctx: Ctx, seat: int) -> str:
    """The viewer's tree: per branch, the tiers held as pips and the next tile (its name and cost),
    which is where buying it starts; every tile's name and effect are in the row's hover text."""
    view = ctx.view
    c = ctx.game.content
    rows = []
    for index, branch in enumerate(c.branches):
        category = CATEGORIES.index(branch.category)
        chosen = view["branches"][seat][category]
        tiers = view["tiers"][seat][category] if chosen == index else 0
        closed = chosen not in (-1, index)
        pips = "".join(
            tag(
                "span",
                "",
                class_="ms-pip" + (" have" if tier < tiers else ""),
                title=f"Tier {tier + 1}: {tile.name} — {tile_words(tile)}",
                data_term=ctx.terms.tiles[index][tier],
            )
            for tier, tile in enumerate(branch.tiers)
        )
        uses = [
            chip(f"Use {tile.name}", f"{tile.name}: {tile_words(tile)}", f"ability:{tile.ability}", None, "ms-button")
            for tile in branch.tiers[:tiers]
            if tile.effect == "ability"
        ]
        every = "; ".join(f"{t + 1}. {tile.name}: {tile_words(tile)}" for t, tile in enumerate(branch.tiers))
        if closed:
            nxt = tag(
                "span",
                "closed",
                class_="ms-muted",
                title="Another branch of this category is climbed: one per category",
            )
        elif tiers >= len(branch.tiers):
            nxt = tag("span", "complete", class_="ms-muted")
        else:
            tile = branch.tiers[tiers]
            nxt = tag(
                "span",
                escape(f"{tile.name} · {c.tech_costs[tiers]}"),
                class_="ms-next",
                title=f"Next: {tile.name} (tier {tiers + 1}, cost {c.tech_costs[tiers]}): {tile_words(tile)}",
                data_term=ctx.terms.tiles[index][tiers],
            )
        name = tag(
            "span",
            escape(branch.name),
            class_="ms-branch-name",
            title=f"{branch.name} ({branch.category}): {tiers} of {len(branch.tiers)} tiers. {every}",
            data_term=ctx.terms.branches[index],
        )
        rows.append(
            tag(
                "div",
                name + tag("span", pips, class_="ms-pips") + nxt + "".join(uses),
                class_="ms-branch" + (" closed" if closed else ""),
                data_part=f"tech:{index}",
            )
        )
    costs = ", ".join(str(x) for x in c.tech_costs)
    body = heading(f"Technology · tiers cost {costs}", "technology") + "".join(rows)
    return panel("Tech", body, "Your technology")


# ---- every other fleet --------------------------------------------------------------------------


def others(ctx: Ctx) -> str:
    """Every other fleet as a row of a table (its figures and control panel), with a line under it
    for its technology, objectives and finds."""
    view = ctx.view
    game = ctx.game
    c = game.content
    vp = game.mode == "victory_points"
    columns = ["Fleet", "Hull", "Shields", "Station", "Cards", "Planets", *(["VP"] if vp else [])]
    helps = [
        "",
        f"Mothership hull points (of {c.mothership_hp})",
        "Shield points left this round",
        f"Colony station hull points (of {c.station_hp})",
        "Action cards in hand",
        "Planets held",
        *([f"Victory points (of {game.victory_target})"] if vp else []),
    ]
    head = tag("tr", "".join(tag("th", name, title=help_ or None) for name, help_ in zip(columns, helps)))
    rows = []
    for s in (s for s in range(game.fleets) if s != ctx.seat):
        out = view["out"][s]
        turn = view["phase"] == "turn" and view["turn"] == s
        name = ctx.who(s) + (f" (level {game.options['level']})" if s == game.npc else "")
        status = " (out)" if out else ""
        term = "out" if out else ("NPC fleet" if s == game.npc else "team" if ctx.team(s) else None)
        hand = view["hands"][s]
        count = len(hand) if isinstance(hand, list) else hand
        planets = sum(1 for o in view["owner"] if o == s)
        npc = s == game.npc
        cells = [
            tag(
                "td",
                ("▶ " if turn else "")
                + mark(ctx, s)
                + " "
                + tag("span", escape(name + status), style=f"color:{ctx.colour(s)}"),
                data_term=term,
            ),
            tag("td", str(view["hp"][s]), data_term="hull"),
            tag("td", str(view["shield"][s]), data_term="shields"),
            tag("td", "—" if npc else str(view["station_hp"][s]), data_term="colony station"),
            tag("td", "—" if npc else str(count), data_term="action card"),
            tag("td", str(planets), data_term="planet"),
            *([tag("td", str(view["points"][s]), data_term="victory points")] if vp else []),
        ]
        cls = "ms-fleet-row" + (" out" if out else "") + (" turn" if turn else "")
        rows.append(tag("tr", "".join(cells), class_=cls, title=name + status + (": their turn" if turn else "")))
        rows.append(tag("tr", tag("td", _their_extras(ctx, s), colspan=len(columns)), class_="ms-fleet-extra"))
    table = tag("table", tag("thead", head) + tag("tbody", "".join(rows)), class_="ms-others")
    return panel("Others", table, "Other fleets")


def _subsystem(ctx: Ctx, s: int, k: int, sub: str) -> str:
    c = ctx.game.content
    value = ctx.view["energy"][s][k]
    gives = _gives(k, (c.engines, c.weapons, c.shields)[k][value])
    return chip(
        f"{sub[0].upper()}{value}",
        f"{ctx.player(s)}'s {sub}: {value} energy, {gives}",
        f"subsystem:{s}:{sub}",
        sub,
        "ms-sub",
    )


def _their_extras(ctx: Ctx, s: int) -> str:
    """Another fleet's control panel, technology, objectives (as a count of hidden cards), artifacts,
    and what the viewer knows of its hand."""
    view = ctx.view
    c = ctx.game.content
    extra = [_subsystem(ctx, s, k, sub) for k, sub in enumerate(SUBSYSTEMS)]
    lines: list[str] = []
    for category in range(len(CATEGORIES)):
        index = view["branches"][s][category]
        if index >= 0:
            branch = c.branches[index]
            tiers = view["tiers"][s][category]
            tile = branch.tiers[tiers - 1]
            extra.append(
                chip(
                    f"{branch.name} {tiers}",
                    f"{branch.name}: {tiers} of {len(branch.tiers)} tiers, up to {tile.name} ({tile_words(tile)})",
                    None,
                    ctx.terms.tiles[index][tiers - 1],
                    "ms-sub",
                )
            )
    held = view["objectives"][s]
    if ctx.game.options["objectives"] == "hidden":
        n = held if isinstance(held, int) else len(held)
        done = view["completed"][s]
        finished = done if isinstance(done, int) else len(done)
        extra.append(
            chip(
                f"{n} secret objective{'s' if n != 1 else ''}" + (f", {finished} completed" if finished else ""),
                f"{ctx.player(s)} holds {n} objective card(s) face down; you see what they are only when claimed",
                None,
                "objectives",
                "ms-objective hidden",
            )
        )
    arts = _artifacts_of(ctx, s)
    if arts:
        extra.append(
            chip(
                "Artifacts: " + ", ".join(c.artifacts[a].name for a in arts),
                "; ".join(f"{c.artifacts[a].name}: {c.artifacts[a].text}" for a in arts),
                None,
                ctx.terms.artifacts[arts[0]],
            )
        )
    known = view["known"][s] if view.get("known") else []
    if known:
        lines.append(line("You know they hold " + ", ".join(c.cards[k].name for k in known)))
    if view["kept"][s]:
        lines.append(line("Beacon cards kept: " + ", ".join(c.beacons[k[0]][1].name for k in view["kept"][s])))
    return row(extra) + "".join(lines)
