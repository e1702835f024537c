"""The centre of Showdown's web board: the draft, the turn, ships on fire, game over and the action in progress."""

from __future__ import annotations

from spacetable.engine.svg import el, text

from ..content import card_name
from ..rules.actions import HULL
from .web_cards import Face, rows_svg
from .web_fight import attack_panel, board_panel, xeno_panel
from .web_markup import PAD, Ctx, W, button_svg, paragraph, text_width
from .web_words import burn_words, card_text, plural


def _pass_arrow(cx: float, cy: float, step: int, way: str) -> str:
    """The pass direction: a ring arrow over a disc that carries its hover text."""
    end = cy + (12 if step == 1 else -12)
    arc = f"M{cx - 12} {cy} A12 12 0 1 {1 if step == 1 else 0} {cx} {end}"
    return el(
        "g",
        el("circle", cx=cx, cy=cy, r=16, fill="transparent")
        + el("path", d=arc, class_="ring")
        + el("polygon", points=f"{cx + 2},{end - 6} {cx - 7},{end} {cx + 2},{end + 6}", class_="ring-head"),
        title=f"Hands pass {way} this round",
        data_term="pass direction",
    )


def _draft(ctx: Ctx, y: float) -> tuple[str, float]:
    view = ctx.view
    n = len(ctx.players)
    rnd = int(view["draft_round"])
    step = 1 if rnd % 2 else -1
    way = "clockwise" if step == 1 else "counter-clockwise"
    rules = ctx.content.rules
    body = [
        text(PAD, y + 14, f"UPGRADE ROUND {rnd} OF {rules.upgrade_rounds}", anchor="start", class_="panel-title"),
        _pass_arrow(W - 26, y + 20, step, way),
        el(
            "g",
            text(W - 48, y + 14, f"deck {view['deck_size']}", anchor="end", class_="small"),
            title=f"The upgrade deck: {plural(int(view['deck_size']), 'card')} still to deal",
            data_term="upgrade deck",
        ),
    ]
    line = f"Hands pass {way}" + (f": yours goes to {ctx.name((ctx.seat + step) % n)}" if ctx.seat is not None else "")
    body.append(text(PAD, y + 33, line, anchor="start", class_="small"))
    yy = y + 44
    me = ctx.players[ctx.seat] if ctx.seat is not None else None
    hand: list[str] = list(me.get("hand") or []) if me else []
    if me is None:
        para, ph = paragraph(PAD, yy + 12, "The captains draft behind their privacy screens.")
        return "".join(body) + para, yy + ph + 6 - y
    if me["chosen"] or not hand:
        waiting = [ctx.name(q) for q, info in enumerate(ctx.players) if not info["chosen"]]
        words = "You have chosen from this hand." + (f" Waiting for {', '.join(waiting)}." if waiting else "")
        para, ph = paragraph(PAD, yy + 12, words)
        body.append(para)
        yy += ph + 6
    if hand:
        chosen = bool(me["chosen"])
        faces = [
            Face(
                card,
                title=f"In your hand: {card_name(card)}: {card_text(ctx.content, card)}"
                + ("" if chosen else " (click to choose it)"),
                term=card_name(card),
                part=None if chosen else f"hand:{card}",
                dim=chosen,
                stack=False,
            )
            for card in hand
        ]
        cards, ch = rows_svg(ctx, faces, yy)
        body.append(cards)
        yy += ch + 2
        if not chosen:
            bw = (W - 2 * PAD - 8) / 2
            body.append(
                button_svg(PAD, yy, bw, "Install on your mat", "use:play", "Play the chosen card onto your mat", "hand")
            )
            body.append(
                button_svg(
                    PAD + bw + 8,
                    yy,
                    bw,
                    "Scrap for +1 hull",
                    "use:hull",
                    "Discard the chosen card face down for one more intact hull token",
                    "intact hull",
                )
            )
            yy += 36
            para, ph = paragraph(
                PAD,
                yy + 10,
                "Choose a card, then install it or scrap it; or click a card on your mat to swap it out "
                "(that card is lost, no hull for it).",
            )
            body.append(para)
            yy += ph + 2
    return "".join(body), yy - y + 4


def _turn_panel(ctx: Ctx, y: float) -> tuple[str, float]:
    view = ctx.view
    a = int(view["active"])
    mine = ctx.seat == a
    what = "YOUR TURN" if mine else "TURN"
    x = PAD + text_width(what, 10.6) + 14
    body = [
        text(PAD, y + 15, what, anchor="start", class_="panel-title"),
        ctx.mark(a, x, y + 10, 7),
        text(
            x + 11,
            y + 15,
            f"{ctx.name(a)} · {plural(int(view['actions_left']), 'action')} left",
            anchor="start",
            class_="pool-label",
        ),
    ]
    yy = y + 22
    names = {"charge": "charged", "repair": "repaired", "teleport": "teleported", "xenotech": "used xenotech"}
    done = [names.get(u, u) for u in view["used"]] + [f"attacked {ctx.name(int(t))}" for t in view["attacked"]]
    if done:
        para, ph = paragraph(PAD, yy + 12, "This turn: " + ", ".join(done))
        body.append(para)
        yy += ph
    if mine:
        para, ph = paragraph(
            PAD,
            yy + 12,
            "Weapons then a ship: attack · Double then a ship: both actions on one volley · Engines: charge · "
            "a hull token: repair · a crew card then a ship: teleport · your xenotech then a target.",
        )
        body.append(para)
        yy += ph + 2
        bw = (W - 2 * PAD - 8) / 2
        mat = ctx.players[a].get("mat") or {}
        weapons = int(mat.get("weapon", 0)) - len(ctx.tokens_on(a, "weapon"))
        can_double = weapons > 0 and int(view["actions_left"]) >= 2
        body.append(
            button_svg(
                PAD,
                yy,
                bw,
                "Double attack ×2",
                "double",
                "A double attack: both actions, twice the dice, one target (then click the ship)",
                "double attack",
                on=can_double,
            )
        )
        body.append(button_svg(PAD + bw + 8, yy, bw, "End turn", "do:end", "End your turn now", "end turn"))
        yy += 34
    return "".join(body), yy - y + 4


def _fire_panel(ctx: Ctx, y: float) -> tuple[str, float]:
    body = [text(PAD, y + 15, f"ROUND {ctx.view['round']}: SHIPS ON FIRE", anchor="start", class_="panel-title fire")]
    para, ph = paragraph(PAD, y + 34, "Every captain discards a card aboard or an intact hull token, in secret.")
    body.append(para)
    yy = y + 22 + ph
    me = ctx.players[ctx.seat] if ctx.seat is not None else None
    if me is not None and me["status"] == "alive":
        if me.get("burn"):
            words = "an intact hull token" if me["burn"] == HULL else burn_words(me, str(me["burn"]))
            para, ph = paragraph(PAD, yy + 12, f"You will discard {words}.", cls="prompt-wait")
        else:
            para, ph = paragraph(PAD, yy + 12, "Click a card on your mat or your hull to burn it.", cls="prompt")
        body.append(para)
        yy += ph
    waiting = [ctx.name(q) for q, info in enumerate(ctx.players) if info["status"] == "alive" and not info["chosen"]]
    if waiting:
        para, ph = paragraph(PAD, yy + 12, "Still choosing: " + ", ".join(waiting))
        body.append(para)
        yy += ph
    return el("g", "".join(body), title="Ships on fire", data_term="ships on fire"), yy - y + 4


def _repair_panel(ctx: Ctx, pending: dict[str, object], y: float) -> tuple[str, float]:
    rules = ctx.content.rules
    words = (
        f"{ctx.name(int(ctx.view['active']))} rolls the repair die (d{rules.repair_die}, {rules.repair_success} "
        f"or more); re-rolls left: {pending.get('rerolls', 0)}."
    )
    para, ph = paragraph(PAD, y + 34, words)
    body = text(PAD, y + 16, "REPAIR", anchor="start", class_="panel-title") + el(
        "g", para, title=words, data_term="repair die"
    )
    return body, 28 + ph


def centre_svg(ctx: Ctx) -> tuple[str, float]:
    view = ctx.view
    phase = view["phase"]
    pending = ctx.pending
    y = 6.0
    if phase == "draft":
        body, h = _draft(ctx, y)
    elif phase == "deal":
        title = text(PAD, y + 16, f"UPGRADE ROUND {view['draft_round']}", anchor="start", class_="panel-title")
        para, ph = paragraph(PAD, y + 36, "Dealing the cards…", cls="prompt-wait")
        body, h = title + para, 28 + ph
    elif phase == "first":
        title = text(PAD, y + 16, "THE SHOWDOWN", anchor="start", class_="panel-title")
        para, ph = paragraph(PAD, y + 36, "The screens come down: who plays first?", cls="prompt-wait")
        body, h = title + para, 28 + ph
    elif phase == "fire":
        body, h = _fire_panel(ctx, y)
    elif phase == "over":
        winners = " and ".join(ctx.name(int(p)) for p in view["winners"]) or "nobody"
        para, ph = paragraph(PAD, y + 34, f"{winners}: {view['reason']}.")
        body, h = text(PAD, y + 16, "GAME OVER", anchor="start", class_="panel-title") + para, 28 + ph
    elif pending is None:
        body, h = _turn_panel(ctx, y)
    elif pending["kind"] == "attack":
        body, h = attack_panel(ctx, pending, y)
    elif pending["kind"] == "board":
        body, h = board_panel(ctx, pending, y)
    elif pending["kind"] == "xeno":
        body, h = xeno_panel(ctx, pending, y)
    else:
        body, h = _repair_panel(ctx, pending, y)
    h = max(h + y, 60)
    return el("rect", x=0, y=0, width=W, height=h, rx=8, class_="centre") + body, h
