"""The captains' mats of Showdown's web board: header, hull, energy, cards, crew, boarders aboard, privacy screens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el, text

from ..content import CAPTAIN, CREW, XENOTECH, card_name
from ..rules.actions import ENERGY, HULL
from .web_cards import Face, bolt, rows_svg
from .web_markup import PAD, Ctx, W, color_of, hit, text_width
from .web_words import STATUS_WORDS, card_text, plural


def _disabled_by(ctx: Ctx, tokens: list[list[Any]]) -> str:
    return "; ".join(
        f"disabled by {ctx.owner(int(t[0]))}'s {card_name(str(t[1]))} token, {ctx.until(int(t[0]), int(t[4]))}"
        for t in tokens
    )


def _hull(ctx: Ctx, p: int, info: Mapping[str, Any], x: float, right: float, part: str | None) -> str:
    """``p``'s hull tokens in the header, from ``x`` to at most ``right``, with their hover text
    (and the part they are on)."""
    intact, damaged = int(info["intact"]), int(info["damaged"])
    total = intact + damaged
    size = 14.0 if total * 16 <= right - x else max(4.0, (right - x) / max(total, 1) - 2)
    body = []
    tx = x
    for k in range(total):
        ok = k < intact
        body.append(
            el("rect", x=tx, y=5, width=size, height=14, rx=3, class_="hull " + ("intact" if ok else "damaged"))
        )
        if size >= 13:
            body.append(text(tx + size / 2, 16.5, "✓" if ok else "✕", class_="hull-mark"))
        tx += size + 2
    if not total:
        body.append(text(tx, 17, "no hull", anchor="start", class_="small"))
        tx += 48
    who = "Your" if ctx.seat == p else f"{ctx.name(p)}'s"
    title = f"{who} hull: {intact} intact, {damaged} damaged"
    if part == "mine:hull" and ctx.view["phase"] == "turn":
        title += " (click to repair a damaged token)"
    elif part == "mine:hull":
        title += " (click to burn an intact token)"
    elif part == "use:hull":
        title += " (click to scrap the chosen card for one more)"
    elif part == "loot:hull":
        title += " (click to loot an intact token)"
    term = "damaged hull" if damaged and (ctx.seat == p) else "intact hull"
    body.append(hit(x - 2, 3, max(tx - x + 2, 30), 18, title, part, term, rx=3))
    return "".join(body)


def _energy(ctx: Ctx, p: int, energy: int, x: float, y: float) -> str:
    who = "You have" if ctx.seat == p else f"{ctx.name(p)} has"
    return el(
        "g",
        el("path", d=bolt(x, y - 12, 0.9), class_="bolt")
        + text(x + 13, y, str(energy), anchor="start", class_="energy"),
        title=f"{who} {plural(energy, 'energy token')}: it pays for xenotech and boosts, and +1 a die when set "
        "aside before a roll",
        data_term="energy",
    )


def _marker(ctx: Ctx, p: int, info: Mapping[str, Any]) -> tuple[str, str, str]:
    """A symbol after a captain's name saying what they are doing now, its hover text and term."""
    view = ctx.view
    phase = view["phase"]
    name = ctx.name(p)
    if info["status"] != "alive":
        return "", "", ""
    if phase == "turn" and view["active"] == p:
        return "▶", f"{name}'s turn: {plural(int(view['actions_left']), 'action')} left", "turn"
    if phase == "fire":
        if info["chosen"]:
            return "✓", f"{name}'s ship is on fire: {name} has chosen what it burns", "ships on fire"
        return "…", f"{name}'s ship is on fire: {name} is choosing what it burns", "ships on fire"
    if phase == "over" and p in view["winners"]:
        return "★", f"{name} wins", "turn"
    return "", "", ""


def _mat_header(ctx: Ctx, p: int, info: Mapping[str, Any], part: str | None, hull_part: str | None = None) -> str:
    """The header: the captain's mark and name, what they are doing, their hull tokens (where
    they show) and energy."""
    color = color_of(ctx.content, p)
    you = ctx.seat == p
    status = str(info["status"])
    who = "Your ship" if you else f"{ctx.name(p)}'s ship"
    title = f"{who}: {ctx.owner(p)}, {STATUS_WORDS[status]}"
    if part and part.startswith("captain:"):
        title += " (click to target this ship)"
    body = [
        el("rect", x=0, y=0, width=W, height=HEADER, rx=8, fill=color, fill_opacity=0.28),
        hit(0, 0, W - 60, HEADER, title, part, ctx.content.captains[p].name, rx=8),
        ctx.mark(p, 16, 12, 9),
    ]
    x = 30.0
    symbol, words, term = _marker(ctx, p, info)
    if symbol:
        body.append(el("g", text(x + 6, 17, symbol, class_="mat-status"), title=words, data_term=term))
        x += 16
    label = ctx.name(p) + ("  (you)" if you else "")
    body.append(text(x, 17, label, anchor="start", class_="mat-name"))
    x += text_width(label, 8.8) + 6  # at most that wide: bold 14 px letters are 8.4 on average
    if "intact" in info:
        body.append(_hull(ctx, p, info, x + 4, W - 58, hull_part))
    body.append(_energy(ctx, p, int(info["energy"]), W - 46, 18))
    return "".join(body)


def _screened_mat(ctx: Ctx, p: int, info: Mapping[str, Any]) -> tuple[str, float]:
    h = 100.0
    body = [el("rect", x=0, y=0, width=W, height=h, rx=8, class_="mat", stroke=color_of(ctx.content, p))]
    body.append(_mat_header(ctx, p, info, None))
    body.append(el("rect", x=PAD, y=30, width=W - 2 * PAD, height=h - 36, rx=6, class_="screen"))
    hand = int(info["hand_size"])
    body.append(text(W / 2, 50, "behind the privacy screen", class_="screen-text"))
    picks = int(info["picks"])
    chosen = "✓ chosen" if info["chosen"] else "choosing…"
    line = f"{plural(hand, 'card')} in hand · {plural(picks, 'card')} taken · {chosen}"
    body.append(text(W / 2, 67, line, class_="small"))
    shown = min(hand, 12)
    for k in range(shown):
        body.append(el("rect", x=W / 2 - 6 * shown + 1 + k * 12, y=74, width=10, height=14, rx=2, class_="mini-back"))
    title = (
        f"{ctx.name(p)} is drafting behind a privacy screen: {plural(hand, 'card')} in hand, "
        f"{plural(picks, 'card')} taken so far" + (", has chosen from this hand" if info["chosen"] else "")
    )
    body.append(hit(PAD, 30, W - 2 * PAD, h - 36, title, None, "privacy screen"))
    return "".join(body), h


def _part_for(ctx: Ctx, p: int, key: str, own: str | None) -> str | None:
    """The part of a card ``key`` on ``p``'s mat: ``own`` on the viewer's, a target or the ship elsewhere."""
    if ctx.seat == p:
        return own
    if ctx.loot_target() == p:
        return None if key.startswith("cm") or key == CAPTAIN else f"loot:{key}"
    xeno = ctx.my_xeno()
    if ctx.players[p]["status"] == "alive":
        if xeno == "hacking" and (key in ("engine", "weapon", "xenotech") or key.startswith("cm")):
            return f"ship:{p}:{key}"
        if xeno == "psionics" and key in CREW:
            return f"ship:{p}:{key}"
    return _ship_part(ctx, p)


def _ship_part(ctx: Ctx, p: int) -> str | None:
    """The part that targets ``p``'s whole ship (None for the viewer's own or a wreck)."""
    if ctx.seat == p or ctx.players[p]["status"] == "destroyed":
        return None
    return f"captain:{p}"


def _hint(part: str | None, own_hint: str) -> str:
    if not part:
        return ""
    if part.startswith("ship:"):
        return " (click to aim your xenotech here)"
    if part.startswith("loot:"):
        return " (click to take it as loot)"
    if part.startswith("captain:"):
        return ""
    return own_hint


def _systems(ctx: Ctx, p: int, info: Mapping[str, Any]) -> list[Face]:
    mat: Mapping[str, int] = info["mat"]
    own = ctx.seat == p
    draft = ctx.view["phase"] == "draft"
    faces: list[Face] = []
    for kind in ("engine", "weapon"):
        n = int(mat.get(kind, 0))
        toks = ctx.tokens_on(p, kind)
        part = _part_for(ctx, p, kind, f"mine:{kind}")
        if not n:
            face = Face(kind, empty=f"no|{kind}", term="empty slot", part=part)
            face.title = f"No {kind}: " + card_text(ctx.content, kind)
            faces.append(face)
            continue
        working = max(0, n - len(toks))
        title = f"{card_name(kind)} ×{n}" + (f", {working} working" if toks else "")
        title += f": {card_text(ctx.content, kind)}"
        if toks:
            title += f" ({_disabled_by(ctx, toks)})"
        own_hint = ""
        if own and kind == "engine" and not draft:
            own_hint = " (click to charge the reactor)"
        if own and kind == "weapon" and not draft:
            own_hint = " (click, then a ship, to attack)"
        title += _hint(part, own_hint)
        note = f"{working} working" if toks else ""
        faces.append(
            Face(kind, n, note=note, title=title, term=card_name(kind), part=part, tokens=tuple(toks), dim=not working)
        )
    xeno = next((x for x in XENOTECH if mat.get(x)), "")
    if xeno:
        toks = ctx.tokens_on(p, "xenotech")
        part = _part_for(ctx, p, "xenotech", f"mine:{xeno}")
        if ctx.loot_target() == p:
            part = f"loot:{xeno}"
        title = f"{card_name(xeno)}: {card_text(ctx.content, xeno)}"
        if toks:
            title += f" ({_disabled_by(ctx, toks)})"
        hint = " (click, then a target, to use it)" if own and not draft else ""
        title += _hint(part, hint)
        faces.append(
            Face(
                xeno,
                int(mat[xeno]),
                title=title,
                term=card_name(xeno),
                part=part,
                tokens=tuple(toks),
                dim=bool(toks),
            )
        )
    slots: list[Mapping[str, Any]] = info["countermeasures"]
    for i, slot in enumerate(slots):
        faces.append(_slot_face(ctx, p, i, slot, draft))
    return faces


def _slot_face(ctx: Ctx, p: int, i: int, slot: Mapping[str, Any], draft: bool) -> Face:
    own = ctx.seat == p
    card = slot["card"]
    toks = tuple(ctx.tokens_on(p, f"#{slot['id']}"))
    if own:
        part: str | None = f"mine:{card}" if draft else f"mycm:{i}"
    else:
        part = _part_for(ctx, p, f"cm{i}", None)
        if ctx.loot_target() == p and card:
            part = f"loot:{card}"
    flags = []
    if slot["deployed"]:
        flags.append("deployed" + (" and boosted" if slot["boosted"] else ""))
    else:
        flags.append("face down")
    if slot["ai"]:
        flags.append("with an AI token" if slot["ai"] == 1 else "its AI token already used")
    if slot["armor"]:
        flags.append(f"{plural(int(slot['armor']), 'armor token')} left")
    note = ("boosted" if slot["boosted"] else "deployed") if slot["deployed"] else "face down"
    if card is None:
        title = f"{ctx.name(p)}'s face-down countermeasure"
        if toks:
            title += f" ({_disabled_by(ctx, list(toks))})"
        title += _hint(part, "")
        return Face("", back=True, title=title, term="face-down countermeasure", part=part, tokens=toks)
    title = f"{card_name(card)} ({', '.join(flags)}): {card_text(ctx.content, card)}"
    if toks:
        title += f" ({_disabled_by(ctx, list(toks))})"
    own_hint = ""
    if own and not draft and not slot["deployed"]:
        own_hint = " (click to deploy it when targeted)"
    title += _hint(part, own_hint)
    return Face(
        card,
        note=note,
        title=title,
        term=card_name(card),
        part=part,
        tokens=toks,
        deployed=bool(slot["deployed"]),
        face_down=not slot["deployed"],
        dim=bool(toks),
        armor=int(slot["armor"]),
        badge="AI" if slot["ai"] in (1, 2) else "",
    )


def _crew(ctx: Ctx, p: int, info: Mapping[str, Any]) -> list[Face]:
    mat: Mapping[str, int] = info["mat"]
    own = ctx.seat == p
    draft = ctx.view["phase"] == "draft"
    rating = ctx.content.rating
    faces = []
    status = info["status"]
    cap_part = _part_for(ctx, p, CAPTAIN, f"mine:{CAPTAIN}")
    cap_title = f"Captain {ctx.name(p)}: {card_text(ctx.content, CAPTAIN)}"
    if own and ctx.pending and ctx.pending["stage"] == "defend" and ctx.pending["actor"] == ctx.seat:
        cap_title += " (click to defend with your captain)"
    faces.append(
        Face(
            CAPTAIN,
            rating=rating[CAPTAIN],
            note="killed" if status == "lifeless" else "",
            title=cap_title,
            term=card_name(CAPTAIN),
            part=cap_part,
            dim=status != "alive",
        )
    )
    for kind in CREW:
        n = int(mat.get(kind, 0))
        if not n:
            continue
        away = [b for b in ctx.view["boarders"] if b[0] == p and b[1] == kind]
        toks = ctx.tokens_on(p, kind)
        home = max(0, n - len(away) - len(toks))
        part = _part_for(ctx, p, kind, f"mine:{kind}")
        title = f"{card_name(kind)} ×{n}: {card_text(ctx.content, kind)}"
        if away:
            hosts = ", ".join(f"{ctx.name(int(b[2]))}'s ship" for b in away)
            title += f" ({len(away)} away aboard {hosts})"
        if toks:
            title += f" ({_disabled_by(ctx, toks)})"
        own_hint = "" if draft else " (click, then a ship, to teleport; or to defend or burn when asked)"
        title += _hint(part, own_hint)
        note = f"{len(away)} away" if away else ""
        faces.append(
            Face(
                kind,
                n,
                rating=rating[kind],
                note=note,
                title=title,
                term=card_name(kind),
                part=part,
                tokens=tuple(toks),
                dim=not home,
            )
        )
    return faces


def _aboard(ctx: Ctx, p: int, y: float) -> tuple[str, float]:
    """Enemy crew aboard ``p``'s ship: a chip each, in their owner's colour and shape."""
    boarders = [b for b in ctx.view["boarders"] if b[2] == p]
    if not boarders:
        return "", 0
    body = [text(PAD, y + 13, "ABOARD", anchor="start", class_="label")]
    x = PAD + 62.0
    chip_w = W - x - PAD
    for row, b in enumerate(boarders):
        owner, crew, _host, wait, mode, loot = int(b[0]), str(b[1]), int(b[2]), int(b[3]), str(b[4]), str(b[5])
        cy = y + 20 * row
        color = color_of(ctx.content, owner)
        body.append(el("rect", x=x, y=cy, width=chip_w, height=18, rx=9, fill=color, fill_opacity=0.3, stroke=color))
        body.append(ctx.mark(owner, x + 10, cy + 9, 6, quiet=True))
        doing = "sabotaging" if mode == "sabotage" else ("with loot" if loot else "aboard")
        words = f"{ctx.name(owner)}'s {card_name(crew)} · {doing}"
        body.append(text(x + 20, cy + 13, words, anchor="start", class_="chip"))
        title = f"{ctx.owner(owner)}'s {card_name(crew)} aboard {ctx.name(p)}'s ship"
        if mode == "sabotage":
            title += ", sabotaging"
        if loot:
            loot_words = {HULL: "an intact hull token", ENERGY: f"{ctx.content.rules.loot_energy} energy"}
            title += f", carrying {loot_words.get(loot, card_name(loot))} home"
        title += f"; goes home {ctx.until(owner, wait)}"
        body.append(hit(x, cy, chip_w, 18, title, None, "boarder", rx=9))
    return "".join(body), 20 * len(boarders) + 4


HEADER = 24
"""The height of a mat's header: its captain's mark, name and doing, hull tokens and energy."""
CARDS_Y = 28


def mat_svg(ctx: Ctx, p: int) -> tuple[str, float]:
    """Captain ``p``'s mat as the viewer may see it, and its height."""
    info = ctx.players[p]
    if "mat" not in info:
        return _screened_mat(ctx, p, info)
    own = ctx.seat == p
    phase = ctx.view["phase"]
    status = info["status"]
    ship_part = _ship_part(ctx, p)
    if own and phase == "draft":
        ship_part = "use:play"
    hull_part: str | None = None
    if own:
        hull_part = "use:hull" if phase == "draft" else "mine:hull"
    elif ctx.loot_target() == p:
        hull_part = "loot:hull"
    elif ship_part:
        hull_part = ship_part
    y = float(CARDS_Y)
    out = ""
    if status != "alive":  # the ship floats on: its hull can still be shot
        out = text(PAD, y + 13, STATUS_WORDS[status].upper(), anchor="start", class_="mat-status out")
        y += 20
    cleared = status != "alive" and not info["mat"] and not info["countermeasures"]
    cards, cards_h = ("", 0.0) if cleared else rows_svg(ctx, _systems(ctx, p, info) + _crew(ctx, p, info), y)
    aboard, aboard_h = _aboard(ctx, p, y + cards_h)
    h = y + cards_h + aboard_h + 2
    color = color_of(ctx.content, p)
    active = phase == "turn" and ctx.view["active"] == p
    cls = "mat" + (" active" if active else "") + (" out" if status != "alive" else "")
    who = "Your ship" if own else f"{ctx.name(p)}'s ship"
    bg_title = f"{who} ({ctx.owner(p)})"
    if cleared:
        bg_title += f": {STATUS_WORDS[status]}, its cards discarded; its hull can still be shot"
    if ship_part == "use:play":
        bg_title += ": click here to install the chosen card"
    elif ship_part:
        bg_title += ": click to target it"
    body = [el("rect", x=0, y=0, width=W, height=h, rx=8, class_=cls, stroke=color)]
    body.append(hit(0, 0, W, h, bg_title, ship_part, ctx.content.captains[p].name, rx=8))
    body.append(_mat_header(ctx, p, info, ship_part if not own else None, hull_part))
    body += [out, cards, aboard]
    return "".join(body), h
