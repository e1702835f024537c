"""The centre of Showdown's web board: the draft, the turn, ships on fire, game over and the action in progress."""

from __future__ import annotations

from spacetable.engine.svg import el, text

from ..content import card_name
from ..rules.actions import HULL
from .web_cards import Face, face_svg
from .web_fight import attack_panel, board_panel, xeno_panel
from .web_markup import PAD, Ctx, W, button_svg, color_of, mark, paragraph, text_width
from .web_words import burn_words, card_text, plural


def _draft(ctx: Ctx, y: float) -> tuple[str, float]:
    view = ctx.view
    n = len(ctx.players)
    rnd = int(view["draft_round"])
    step = 1 if rnd % 2 else -1
    way = "clockwise" if step == 1 else "counter-clockwise"
    body = []
    rules = ctx.content.rules
    body.append(
        text(PAD, y + 14, f"UPGRADE ROUND {rnd} OF {rules.upgrade_rounds}", anchor="start", class_="panel-title")
    )
    # the pass direction: a ring arrow and the neighbour the hand goes to
    cx, cy = W - 26, y + 20
    sweep = 1 if step == 1 else 0
    arc = f"M{cx - 12} {cy} A12 12 0 1 {sweep} {cx} {cy + (12 if step == 1 else -12)}"
    head_y = cy + (12 if step == 1 else -12)
    body.append(
        el(
            "g",
            el("path", d=arc, class_="ring")
            + el(
                "polygon", points=f"{cx + 2},{head_y - 6} {cx - 7},{head_y} {cx + 2},{head_y + 6}", class_="ring-head"
            ),
            title=f"Hands pass {way} this round",
            data_term="pass direction",
        )
    )
    if ctx.seat is not None:
        to = (ctx.seat + step) % n
        line = f"Hands pass {way}: yours goes to {ctx.name(to)}"
    else:
        line = f"Hands pass {way}"
    body.append(text(PAD, y + 32, line, anchor="start", class_="small"))
    body.append(text(W - 46, y + 14, f"deck {view['deck_size']}", anchor="end", class_="small"))
    yy = y + 42
    me = ctx.players[ctx.seat] if ctx.seat is not None else None
    hand: list[str] = list(me.get("hand") or []) if me else []
    if me is None:
        para, ph = paragraph(PAD, yy + 12, "The captains draft behind their privacy screens.")
        return "".join(body) + para, yy + ph + 10 - y
    if me["chosen"] or not hand:
        waiting = [ctx.name(q) for q, info in enumerate(ctx.players) if not info["chosen"]]
        words = "You have chosen from this hand." + (f" Waiting for {', '.join(waiting)}." if waiting else "")
        para, ph = paragraph(PAD, yy + 12, words)
        body.append(para)
        yy += ph + 6
    if hand:
        k = len(hand)
        gap = 5
        w = min(64.0, (W - 2 * PAD - (k - 1) * gap) / k)
        chosen = bool(me["chosen"])
        for i, card in enumerate(hand):
            face = Face(
                card,
                title=f"In your hand: {card_name(card)}: {card_text(ctx.content, card)}"
                + ("" if chosen else " (click to choose it)"),
                term=card_name(card),
                part=None if chosen else f"hand:{card}",
                dim=chosen,
                stack=False,
            )
            body.append(face_svg(ctx, face, PAD + i * (w + gap), yy, w, 64))
        yy += 72
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
            yy += ph + 4
    return "".join(body), yy - y + 6


def _turn_panel(ctx: Ctx, y: float) -> tuple[str, float]:
    view = ctx.view
    a = int(view["active"])
    mine = ctx.seat == a
    what = "YOUR TURN" if mine else "TURN"
    x = PAD + text_width(what, 10.6) + 14
    body = [
        text(PAD, y + 15, what, anchor="start", class_="panel-title"),
        mark(a, x, y + 10, 7, color_of(ctx.content, a), term=ctx.captain(a)),
        text(
            x + 10,
            y + 15,
            f"{ctx.name(a)} · {plural(int(view['actions_left']), 'action')} left",
            anchor="start",
            class_="pool-label",
        ),
    ]
    yy = y + 24
    done = []
    names = {"charge": "charged", "repair": "repaired", "teleport": "teleported", "xenotech": "used xenotech"}
    done += [names.get(u, u) for u in view["used"]]
    done += [f"attacked {ctx.name(int(t))}" for t in view["attacked"]]
    if done:
        body.append(text(PAD, yy + 12, "This turn: " + ", ".join(done), anchor="start", class_="small"))
        yy += 18
    if mine:
        para, ph = paragraph(
            PAD,
            yy + 12,
            "Weapons then a ship: attack · Double then a ship: both actions on one volley · Engines: charge · "
            "a hull token: repair · a crew card then a ship: teleport · your xenotech then a target.",
        )
        body.append(para)
        yy += ph + 4
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
        yy += 36
    return "".join(body), yy - y + 4


def _fire_panel(ctx: Ctx, y: float) -> tuple[str, float]:
    body = [text(PAD, y + 15, f"ROUND {ctx.view['round']}: SHIPS ON FIRE", anchor="start", class_="panel-title fire")]
    para, ph = paragraph(PAD, y + 34, "Every captain discards a card aboard or an intact hull token, in secret.")
    body.append(para)
    yy = y + 30 + ph
    me = ctx.players[ctx.seat] if ctx.seat is not None else None
    if me is not None and me["status"] == "alive":
        if me.get("burn"):
            words = "an intact hull token" if me["burn"] == HULL else burn_words(me, str(me["burn"]))
            line = f"You will discard {words}."
            body.append(text(PAD, yy + 12, line, anchor="start", class_="prompt-wait"))
        else:
            body.append(
                text(PAD, yy + 12, "Click a card on your mat or your hull to burn it.", anchor="start", class_="prompt")
            )
        yy += 20
    waiting = [ctx.name(q) for q, info in enumerate(ctx.players) if info["status"] == "alive" and not info["chosen"]]
    if waiting:
        body.append(text(PAD, yy + 12, "Still choosing: " + ", ".join(waiting), anchor="start", class_="small"))
        yy += 18
    return el("g", "".join(body), title="Ships on fire", data_term="ships on fire"), yy - y + 4


def centre_svg(ctx: Ctx) -> tuple[str, float]:
    view = ctx.view
    phase = view["phase"]
    pending = ctx.pending
    y = 6.0
    if phase == "draft":
        body, h = _draft(ctx, y)
    elif phase == "deal":
        body, h = (
            text(
                PAD,
                y + 16,
                f"Dealing the cards of upgrade round {view['draft_round']}…",
                anchor="start",
                class_="panel-title",
            ),
            28,
        )
    elif phase == "first":
        body, h = text(PAD, y + 16, "The screens come down: who plays first?", anchor="start", class_="panel-title"), 28
    elif phase == "fire":
        body, h = _fire_panel(ctx, y)
    elif phase == "over":
        winners = " and ".join(ctx.name(int(p)) for p in view["winners"]) or "nobody"
        para, ph = paragraph(PAD, y + 34, f"{winners}: {view['reason']}.")
        body, h = text(PAD, y + 16, "GAME OVER", anchor="start", class_="panel-title") + para, 30 + ph
    elif pending is None:
        body, h = _turn_panel(ctx, y)
    elif pending["kind"] == "attack":
        body, h = attack_panel(ctx, pending, y)
    elif pending["kind"] == "board":
        body, h = board_panel(ctx, pending, y)
    elif pending["kind"] == "xeno":
        body, h = xeno_panel(ctx, pending, y)
    else:
        rules = ctx.content.rules
        words = (
            f"{ctx.name(int(view['active']))} rolls the repair die (d{rules.repair_die}, {rules.repair_success} "
            f"or more); re-rolls left: {pending.get('rerolls', 0)}."
        )
        para, ph = paragraph(PAD, y + 34, words)
        body = text(PAD, y + 16, "REPAIR", anchor="start", class_="panel-title") + el(
            "g", para, title=words, data_term="repair die"
        )
        h = 30 + ph
    h = max(h + y, 60)
    return el("rect", x=0, y=0, width=W, height=h, rx=8, class_="centre") + body, h
