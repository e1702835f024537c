"""The side areas of Mothership's web board: the prompt, the viewer's own fleet, every other fleet.

The viewer's fleet shows its control panel, roster, hand, technology and objectives."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el

from ..content import CATEGORIES, UNITS
from .web_markup import LETTERS, SIDE_W, SUBSYSTEMS, Col, Ctx, chip, fit, flow, target_part, text
from .web_words import card_words, objective_words, tile_words

# ---- the side: the prompt ----------------------------------------------------------------------


def _prompt(ctx: Ctx, col: Col) -> None:
    view = ctx.view
    game = ctx.game
    c = game.content
    pending = view["pending"]
    if pending and pending.get("what") in ("dogfight", "asteroid", "black_hole", "test", "event", "replicator"):
        col.heading(_pending_words(ctx, pending), "dogfight")
        chips = []
        for i, sides in enumerate(pending["dice"]):
            rolled = pending["rolls"][i] if i < len(pending["rolls"]) else None
            words = f"d{sides}: {rolled}" if rolled is not None else f"d{sides}: ?"
            side = "attacker" if i < len(pending["ships"]) else "defender"
            chips.append((70, chip(0, 0, 70, 24, words, f"Die {i + 1} ({side}): {words}", f"die:{i}", "die", "ms-die")))
        flow(col, chips)
    choice = view["choice"]
    if choice:
        col.heading(f"{ctx.player(choice['seat'])} chooses:", "choice", ctx.colour(choice["seat"]))
        for value, label in zip(choice["options"], choice["labels"]):
            col.add(
                chip(
                    8, col.y, SIDE_W - 16, 24, str(label), f"Choose: {label}", f"choice:{value}", "choice", "ms-button"
                ),
                28,
            )
    if view["playing"]:
        seat, card = view["playing"][0], view["playing"][1]
        col.line(
            f"{ctx.player(seat)} plays {c.cards[card].name}: it may be cancelled",
            card_words(c.cards[card]),
            ctx.terms.cards[card],
        )
    if view["event_roll"]:
        col.line(f"{ctx.player(view['event_roll'][0])} doubles or avoids the random event", term="choice")
    if view["reward"]:
        col.line(f"{ctx.player(view['reward'][0])} takes a card for the captured planet", term="action card")
    if ctx.seat is not None and view["phase"] == "turn" and view["turn"] == ctx.seat and view["tokens"]:
        tokens = {t[0]: t[1] for t in view["tokens"]}
        for ship, cell in enumerate(view["pos"][ctx.seat]):
            unit = tokens.get(cell, -2)
            if unit >= 0 and UNITS[unit] == ctx.ship_kind(ship):
                name = game.ship_names[ship]
                col.add(
                    chip(
                        8,
                        col.y,
                        SIDE_W - 16,
                        24,
                        f"Answer the distress beacon at {ctx.name(cell)} with {name}",
                        f"{name} stays on the beacon at {ctx.name(cell)} and answers it (draws a beacon card)",
                        f"activate:{ship}",
                        "beacon token",
                        "ms-button",
                    ),
                    28,
                )


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
    return f"{ctx.player(seat)}'s {ships} attack {_target_words(ctx, pending['target'])}"


def _target_words(ctx: Ctx, code: int) -> str:
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


# ---- the side: the viewer's own panel -----------------------------------------------------------


def _energy(ctx: Ctx, col: Col, seat: int) -> None:
    c = ctx.game.content
    view = ctx.view
    cells = c.row_length + 1
    step = min(26.0, (SIDE_W - 100) / cells)
    locked = view["phase"] == "turn" and view["turn"] == seat and view["locked"]
    for row, name in enumerate(SUBSYSTEMS):
        now = view["energy"][seat][row]
        table = (c.engines, c.weapons, c.shields)[row]
        gives = _gives(row, table[now])
        parts = [
            el(
                "g",
                text(8, col.y + 16, name.capitalize(), class_="ms-row-label"),
                title=f"{name.capitalize()}: {now} energy, {gives}" + (" (locked this turn)" if locked else ""),
                data_term=name,
            )
        ]
        for value in range(cells):
            x = 92 + value * step
            cls = "ms-energy" + (" now" if value == now else "")
            parts.append(
                el(
                    "g",
                    el("rect", x=x, y=col.y + 2, width=step - 2, height=20, rx=3, class_=cls)
                    + text(x + (step - 2) / 2, col.y + 16, str(value), anchor="middle", class_="ms-energy-text"),
                    title=f"{name.capitalize()} {value}: {_gives(row, table[value])}",
                    data_part=f"panel:{name}:{value}",
                    data_term=name,
                )
            )
        col.add("".join(parts), 24)


def _gives(row: int, value: int) -> str:
    if row == 0:
        return f"the mothership moves {value} space{'s' if value != 1 else ''}"
    if row == 1:
        return f"weapons roll a d{value}" if value else "no weapon die"
    return f"{value} shield point{'s' if value != 1 else ''}"


def _fleet_mark(ctx: Ctx, fleet: int, y: float) -> str:
    """The fleet's colour square with its mark, as its units carry them on the grid."""
    return el(
        "g",
        el("rect", x=8, y=y + 4, width=14, height=14, rx=3, fill=ctx.colour(fleet))
        + text(15, y + 15, ctx.mark(fleet), anchor="middle", class_="ms-chip-mark"),
        title=f"{ctx.who(fleet)}: every unit of this fleet on the grid has this colour and the mark {ctx.mark(fleet)}",
    )


def own(ctx: Ctx, seat: int) -> tuple[str, float]:
    view = ctx.view
    game = ctx.game
    c = game.content
    col = Col()
    _prompt(ctx, col)
    out = " — out of the game" if view["out"][seat] else ""
    col.add(
        _fleet_mark(ctx, seat, col.y)
        + text(28, col.y + 16, f"Your fleet: {ctx.who(seat)}{out}", class_="ms-heading", fill=ctx.colour(seat)),
        22,
    )
    resources = view["resources"][seat]
    stats = [
        (
            84,
            chip(
                0,
                0,
                84,
                22,
                f"Hull {view['hp'][seat]}",
                f"Mothership hull: {view['hp'][seat]}/{c.mothership_hp}",
                term="hull",
            ),
        ),
        (
            94,
            chip(
                0,
                0,
                94,
                22,
                f"Shields {view['shield'][seat]}",
                f"Shield points left: {view['shield'][seat]}",
                term="shields",
            ),
        ),
        (
            92,
            chip(
                0,
                0,
                92,
                22,
                f"Station {view['station_hp'][seat]}",
                f"Colony station: {view['station_hp'][seat]}/{c.station_hp} hull points",
                term="colony station",
            ),
        ),
        (
            104,
            chip(
                0,
                0,
                104,
                22,
                f"Resources {resources}",
                f"Your resources: {resources} (only you see them)",
                term="resources",
                cls="ms-gold",
            ),
        ),
    ]
    if game.mode == "victory_points":
        stats.append(
            (
                70,
                chip(
                    0,
                    0,
                    70,
                    22,
                    f"VP {view['points'][seat]}",
                    f"Victory points: {view['points'][seat]} of {game.victory_target}",
                    term="victory points",
                ),
            )
        )
    charges = view["charges"][seat]
    stats.append(
        (
            100,
            chip(
                0,
                0,
                100,
                22,
                f"Overcharge {charges}",
                f"Overcharges held: {charges} (buy another here once you have the tile)",
                "charge",
                "overcharge",
            ),
        )
    )
    flow(col, stats, 22)
    _energy(ctx, col, seat)
    _roster(ctx, col, seat, own=True)
    _hand(ctx, col, seat)
    _tech(ctx, col, seat)
    _expansion(ctx, col, seat)
    return col.markup(), col.y + 6


def _roster(ctx: Ctx, col: Col, seat: int, own: bool) -> None:
    view = ctx.view
    chips = []
    for ship, cell in enumerate(view["pos"][seat]):
        name = ctx.game.ship_names[ship]
        kind = ctx.ship_kind(ship)
        short = LETTERS[kind] + (name.split()[-1] if kind != "mothership" else "")
        waiting = "not placed yet" if view["phase"] in ("board", "place") else "destroyed"
        where = ctx.name(cell) if cell >= 0 else waiting.split()[-1]
        title = ctx.ship_title(seat, ship) if cell >= 0 else f"{ctx.who(seat)}: {name}, {waiting}"
        part = f"unit:{ship}" if own else None
        cls = "ms-roster" + (" gone" if cell < 0 else "")
        chips.append(
            (
                70,
                chip(
                    0,
                    0,
                    70,
                    22,
                    f"{short} {where}",
                    title,
                    part,
                    kind,
                    cls,
                    fill=ctx.colour(seat) if cell >= 0 else None,
                ),
            )
        )
    flow(col, chips, 22)


def _hand(ctx: Ctx, col: Col, seat: int) -> None:
    view = ctx.view
    c = ctx.game.content
    hand = view["hands"][seat]
    if not isinstance(hand, list):
        return
    col.heading(f"Your hand: {len(hand)} card{'s' if len(hand) != 1 else ''}", "action card")
    chips = []
    for card in sorted(set(hand)):
        copies = hand.count(card)
        model = c.cards[card]
        words = model.name + (f" ×{copies}" if copies > 1 else "")
        chips.append(
            (
                146,
                chip(
                    0,
                    0,
                    146,
                    26,
                    words,
                    f"{model.name}: {card_words(model)}",
                    f"card:{card}",
                    ctx.terms.cards[card],
                    "ms-card",
                ),
            )
        )
    discard = sum(view["discard"])
    chips.append((66, chip(0, 0, 66, 26, "Sell", "Sell a card: choose the card, then here", "sell", "sell", "ms-slot")))
    chips.append(
        (
            146,
            chip(
                0,
                0,
                146,
                26,
                f"Deck {view['deck']} · buy",
                f"Action deck: {view['deck']} cards face down ({discard} in the discard pile); "
                f"buy the top one for {c.card_price}",
                "deck",
                "action deck",
                "ms-slot",
            ),
        )
    )
    flow(col, chips, 26)


def _tech(ctx: Ctx, col: Col, seat: int) -> None:
    view = ctx.view
    c = ctx.game.content
    col.heading("Technology (tiers cost " + ", ".join(str(x) for x in c.tech_costs) + ")", None)
    tile_w = (SIDE_W - 100 - 8) / 5
    for index, branch in enumerate(c.branches):
        category = CATEGORIES.index(branch.category)
        chosen = view["branches"][seat][category]
        tiers = view["tiers"][seat][category] if chosen == index else 0
        closed = chosen not in (-1, index)
        body = [
            el(
                "rect",
                x=6,
                y=col.y + 1,
                width=SIDE_W - 12,
                height=22,
                rx=4,
                class_="ms-branch" + (" closed" if closed else ""),
            ),
            el(
                "g",
                text(10, col.y + 16, fit(branch.name, 84, 11), class_="ms-branch-name"),
                title=f"{branch.name} ({branch.category}): {tiers} of 5 tiers"
                + (" (another branch of this category is climbed)" if closed else ""),
                data_term=ctx.terms.branches[index],
            ),
        ]
        for tier, tile in enumerate(branch.tiers):
            x = 96 + tier * tile_w
            have = tier < tiers
            cls = "ms-tile" + (" have" if have else "") + (" next" if tier == tiers and not closed else "")
            tile_body = el("rect", x=x, y=col.y + 3, width=tile_w - 3, height=18, rx=3, class_=cls) + text(
                x + (tile_w - 3) / 2, col.y + 15, fit(tile.name, tile_w - 6, 9), anchor="middle", class_="ms-tile-text"
            )
            ability = tile.ability if tile.effect == "ability" and have else None
            body.append(
                el(
                    "g",
                    tile_body,
                    title=f"{tile.name} (tier {tier + 1}, cost {c.tech_costs[tier]}): {tile_words(tile)}"
                    + (" — yours" if have else ""),
                    data_term=ctx.terms.tiles[index][tier],
                    data_part=f"ability:{ability}" if ability else None,
                )
            )
        col.add(el("g", "".join(body), data_part=f"tech:{index}", class_="ms-tech-row"), 24)


def _expansion(ctx: Ctx, col: Col, seat: int) -> None:
    """Objectives, artifacts held and kept beacon cards of the viewer."""
    view = ctx.view
    game = ctx.game
    c = game.content
    mode = game.options["objectives"]
    if mode == "hidden":
        held = view["objectives"][seat]
        done = view["completed"][seat]
        if isinstance(held, list):
            col.heading("Your objectives", "objectives")
            chips = [_objective(ctx, card, "", f"objective:{card}") for card in held]
            chips += [_objective(ctx, card, "done", None) for card in (done if isinstance(done, list) else [])]
            if chips:
                flow(col, chips, 24)
            else:
                col.line("none held")
    elif mode == "global":
        col.heading("Objectives (face up, for everyone)", "objectives")
        chips = [_objective(ctx, card, "", None) for card in view["public_objectives"]]
        if chips:
            flow(col, chips, 24)
        else:
            col.line("all taken")
    arts = _artifacts_of(ctx, seat)
    if arts:
        col.line(
            "Artifacts: " + ", ".join(c.artifacts[a].name for a in arts),
            "; ".join(f"{c.artifacts[a].name}: {c.artifacts[a].text}" for a in arts),
            ctx.terms.artifacts[arts[0]],
        )
    kept = view["kept"][seat]
    if kept:
        names = ", ".join(c.beacons[k[0]][1].name for k in kept)
        col.line(f"Beacon cards kept: {names}", term=ctx.terms.beacons[kept[0][0]])


def _artifacts_of(ctx: Ctx, seat: int) -> list[int]:
    view = ctx.view
    return [
        a for p, a in enumerate(view["artifacts"]) if a >= 0 and p < len(view["owner"]) and view["owner"][p] == seat
    ]


# ---- the side: every other fleet ---------------------------------------------------------------


def others(ctx: Ctx) -> tuple[str, float]:
    view = ctx.view
    game = ctx.game
    c = game.content
    col = Col()
    if ctx.seat is None:
        _prompt(ctx, col)
    fleets = [s for s in range(game.fleets) if s != ctx.seat]
    for s in fleets:
        top, first = col.y, len(col.parts)
        colour = ctx.colour(s)
        out = view["out"][s]
        turn = view["phase"] == "turn" and view["turn"] == s
        name = ctx.who(s) + (f" (level {game.options['level']})" if s == game.npc else "")
        status = " — out" if out else (" — to play" if turn else "")
        col.add(
            _fleet_mark(ctx, s, col.y)
            + el(
                "g",
                text(28, col.y + 16, name + status, class_="ms-heading", fill=colour),
                title=name + status,
                data_term="out" if out else ("NPC fleet" if s == game.npc else "team" if ctx.team(s) else None),
            ),
            22,
        )
        hand = view["hands"][s]
        count = len(hand) if isinstance(hand, list) else hand
        resources = view["resources"][s]
        bits = [f"Hull {view['hp'][s]}", f"Shields {view['shield'][s]}"]
        if s != game.npc:
            bits += [
                f"Station {view['station_hp'][s]}",
                f"Resources {'?' if resources is None else resources}",
                f"Hand {count}",
            ]
        if game.mode == "victory_points":
            bits.append(f"VP {view['points'][s]}")
        planets = sum(1 for o in view["owner"] if o == s)
        bits.append(f"Planets {planets}")
        col.line(
            " · ".join(bits),
            f"{name}: mothership hull {view['hp'][s]}/{c.mothership_hp}, {view['shield'][s]} shield points left; "
            f"{count} card(s) in hand; {planets} planet(s)",
            "hull",
        )
        chips = []
        for row, sub in enumerate(SUBSYSTEMS):
            value = view["energy"][s][row]
            table = (c.engines, c.weapons, c.shields)[row]
            chips.append(
                (
                    58,
                    chip(
                        0,
                        0,
                        58,
                        20,
                        f"{sub[0].upper()} {value}",
                        f"{name}'s {sub}: {value} energy, {_gives(row, table[value])}",
                        f"subsystem:{s}:{sub}",
                        sub,
                        "ms-sub",
                    ),
                )
            )
        for category in range(len(CATEGORIES)):
            index = view["branches"][s][category]
            if index >= 0:
                branch = c.branches[index]
                tiers = view["tiers"][s][category]
                tile = branch.tiers[tiers - 1]
                chips.append(
                    (
                        92,
                        chip(
                            0,
                            0,
                            92,
                            20,
                            f"{branch.name} {tiers}",
                            f"{branch.name}: {tiers} of 5 tiers, up to {tile.name} ({tile_words(tile)})",
                            None,
                            ctx.terms.tiles[index][tiers - 1],
                            "ms-sub",
                        ),
                    )
                )
        flow(col, chips, 20)
        extra = []
        held = view["objectives"][s]
        if game.options["objectives"] == "hidden":
            n = held if isinstance(held, int) else len(held)
            done = view["completed"][s]
            extra.append(
                f"objectives {n}" + (f" (+{done if isinstance(done, int) else len(done)} done)" if done else "")
            )
        arts = _artifacts_of(ctx, s)
        if arts:
            extra.append("artifacts " + ", ".join(c.artifacts[a].name for a in arts))
        known = view["known"][s] if view.get("known") else []
        if known:
            extra.append("you know they hold " + ", ".join(c.cards[k].name for k in known))
        if view["kept"][s]:
            extra.append("beacon cards kept " + ", ".join(c.beacons[k[0]][1].name for k in view["kept"][s]))
        if extra:
            col.line("; ".join(extra), "; ".join(extra))
        box = el(
            "rect", x=4, y=top, width=SIDE_W - 8, height=col.y - top + 2, rx=6, class_="ms-fleet-box", stroke=colour
        )
        col.parts.insert(first, box)  # under the fleet's lines
        col.y += 8
    return col.markup(), col.y + 6


def _objective(ctx: Ctx, card: int, state: str, part: str | None) -> tuple[float, str]:
    """An objective card as a chip of the side area: held (clickable to replace it), completed
    and waiting to be claimed (``state="done"``), or face up for everyone."""
    model = ctx.game.content.objectives[card][1]
    done = state == "done"
    words = f"✓ {model.name}" if done else model.name
    title = f"Completed, to claim: {objective_words(model)}" if done else f"{model.name}: {objective_words(model)}"
    cls = f"ms-objective {state}".strip()
    return 226, chip(0, 0, 226, 24, words, title, part, ctx.terms.objectives[card], cls)
