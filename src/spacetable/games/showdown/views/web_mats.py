"""The captains' mats of Showdown's web board: header, hull, energy, cards, crew, boarders aboard, privacy screens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el, text

from ..content import CAPTAIN, CREW, XENOTECH, card_name
from ..rules.actions import ENERGY, HULL
from .web_cards import Face, bolt, face_svg
from .web_markup import PAD, Ctx, W, color_of, hit, mark
from .web_words import STATUS_WORDS, burn_words, card_text, plural


def _disabled_by(ctx: Ctx, tokens: list[list[Any]]) -> str:
    return "; ".join(
        f"disabled by {ctx.owner(int(t[0]))}'s {card_name(str(t[1]))} token, {ctx.until(int(t[0]), int(t[4]))}"
        for t in tokens
    )


def _hull(ctx: Ctx, p: int, info: Mapping[str, Any], x: float, y: float, width: float, part: str | None) -> str:
    intact, damaged = int(info["intact"]), int(info["damaged"])
    total = intact + damaged
    size = 15 if total <= 13 else max(6.0, (width - 40) / total - 2)
    body = [text(x, y + 12, "HULL", anchor="start", class_="label")]
    tx = x + 36
    for k in range(total):
        ok = k < intact
        cls = "hull intact" if ok else "hull damaged"
        body.append(el("rect", x=tx, y=y, width=size, height=15, rx=3, class_=cls))
        if size >= 11:
            body.append(text(tx + size / 2, y + 11.5, "✓" if ok else "✕", class_="hull-mark"))
        tx += size + 2
    if not total:
        body.append(text(tx, y + 12, "none", anchor="start", class_="small"))
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
    body.append(hit(x - 2, y - 2, max(tx - x + 4, 70), 19, title, part, term, rx=3))
    return "".join(body)


def _energy(ctx: Ctx, p: int, energy: int, x: float, y: float) -> str:
    who = "You have" if ctx.seat == p else f"{ctx.name(p)} has"
    return el(
        "g",
        el("path", d=bolt(x, y - 12, 0.9), class_="bolt")
        + text(x + 13, y, str(energy), anchor="start", class_="energy"),
        title=f"{who} {plural(energy, 'energy token').replace('tokens', 'tokens')}",
        data_term="energy",
    )


def _mat_header(ctx: Ctx, p: int, info: Mapping[str, Any], part: str | None) -> str:
    view = ctx.view
    color = color_of(ctx.content, p)
    you = ctx.seat == p
    body = [el("rect", x=0, y=0, width=W, height=28, rx=8, fill=color, fill_opacity=0.28)]
    body.append(mark(p, 16, 14, 9, color, term=ctx.captain(p)))
    label = ctx.name(p) + ("  (you)" if you else "")
    body.append(text(32, 19, label, anchor="start", class_="mat-name"))
    status = str(info["status"])
    right = ""
    phase = view["phase"]
    if status != "alive":
        right = STATUS_WORDS[status].upper()
    elif phase == "turn" and view["active"] == p:
        right = f"▶ TURN · {plural(int(view['actions_left']), 'action')}"
    elif phase == "draft" or phase == "fire":
        right = "✓ chosen" if info["chosen"] else "choosing…"
    elif phase == "over" and p in view["winners"]:
        right = "★ WINNER"
    body.append(text(W - 56, 19, right, anchor="end", class_="mat-status" + (" out" if status != "alive" else "")))
    body.append(_energy(ctx, p, int(info["energy"]), W - 46, 20))
    who = "Your ship" if you else f"{ctx.name(p)}'s ship"
    title = f"{who}: {ctx.owner(p)}, {STATUS_WORDS[status]}"
    if part and part.startswith("captain:"):
        title += " (click to target this ship)"
    body.append(hit(0, 0, W - 60, 28, title, part, ctx.content.captains[p].name, rx=8))
    return "".join(body)


def _screened_mat(ctx: Ctx, p: int, info: Mapping[str, Any]) -> tuple[str, float]:
    h = 92.0
    body = [el("rect", x=0, y=0, width=W, height=h, rx=8, class_="mat", stroke=color_of(ctx.content, p))]
    body.append(_mat_header(ctx, p, info, None))
    body.append(el("rect", x=PAD, y=34, width=W - 2 * PAD, height=h - 42, rx=6, class_="screen"))
    hand = int(info["hand_size"])
    body.append(text(W / 2, 54, "behind the privacy screen", class_="screen-text"))
    picks = int(info["picks"])
    line = f"{plural(hand, 'card')} in hand · {plural(picks, 'card')} taken"
    body.append(text(W / 2, 72, line, class_="small"))
    for k in range(min(hand, 12)):
        body.append(el("rect", x=W - PAD - 12 - k * 7, y=38, width=10, height=14, rx=2, class_="mini-back"))
    title = (
        f"{ctx.name(p)} is drafting behind a privacy screen: {plural(hand, 'card')} in hand, "
        f"{plural(picks, 'card')} taken so far" + (", has chosen from this hand" if info["chosen"] else "")
    )
    body.append(hit(PAD, 34, W - 2 * PAD, h - 42, title, None, "privacy screen"))
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
    ship = _ship_part(ctx, p)
    faces: list[Face] = []
    for kind in ("engine", "weapon"):
        n = int(mat.get(kind, 0))
        toks = ctx.tokens_on(p, kind)
        part = _part_for(ctx, p, kind, f"mine:{kind}")
        if not n:
            face = Face(kind, empty=f"no {kind}", term="empty slot", part=part)
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
                note="xenotech",
                title=title,
                term=card_name(xeno),
                part=part,
                tokens=tuple(toks),
                dim=bool(toks),
            )
        )
    else:
        faces.append(
            Face("", empty="no|xenotech", title="No xenotech card on this ship.", term="empty slot", part=ship)
        )
    slots: list[Mapping[str, Any]] = info["countermeasures"]
    for i, slot in enumerate(slots):
        faces.append(_slot_face(ctx, p, i, slot, draft))
    for _ in range(len(slots), ctx.content.rules.countermeasure_limit):
        faces.append(Face("", empty="empty", title="An empty countermeasure slot.", term="empty slot", part=ship))
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
    note = "DEPLOYED" if slot["deployed"] else "face down"
    note2 = ""
    if slot["ai"]:
        note2 = "AI" if slot["ai"] == 1 else "AI used"
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
        note2=note2,
        title=title,
        term=card_name(card),
        part=part,
        tokens=toks,
        deployed=bool(slot["deployed"]),
        boosted=bool(slot["boosted"]),
        face_down=not slot["deployed"],
        dim=bool(toks),
        armor=int(slot["armor"]),
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
            note=f"rating {rating[CAPTAIN]}",
            note2="killed" if status == "lifeless" else "",
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
        note2 = ""
        if away:
            note2 = f"{len(away)} away"
        elif toks:
            note2 = "disabled"
        faces.append(
            Face(
                kind,
                n,
                note=f"rating {rating[kind]}",
                note2=note2,
                title=title,
                term=card_name(kind),
                part=part,
                tokens=tuple(toks),
                dim=not home,
            )
        )
    return faces


def _row(ctx: Ctx, faces: list[Face], y: float) -> str:
    k = max(len(faces), 5)
    gap = 6
    w = min(66.0, (W - 2 * PAD - (k - 1) * gap) / k)
    return "".join(face_svg(ctx, f, PAD + i * (w + gap), y, w) for i, f in enumerate(faces))


def _aboard(ctx: Ctx, p: int, y: float) -> tuple[str, float]:
    """Enemy crew aboard ``p``'s ship: chips in their owner's colour and shape."""
    boarders = [b for b in ctx.view["boarders"] if b[2] == p]
    if not boarders:
        return "", 0
    body = [text(PAD, y + 13, "ABOARD", anchor="start", class_="label")]
    x, row = PAD + 50.0, 0
    chip_w = (W - PAD - 50 - PAD - 6) / 2
    for b in boarders:
        owner, crew, _host, wait, mode, loot = int(b[0]), str(b[1]), int(b[2]), int(b[3]), str(b[4]), str(b[5])
        cx = x + (chip_w + 6) * (row % 2)
        cy = y + 20 * (row // 2)
        color = color_of(ctx.content, owner)
        body.append(el("rect", x=cx, y=cy, width=chip_w, height=18, rx=9, fill=color, fill_opacity=0.3, stroke=color))
        body.append(mark(owner, cx + 10, cy + 9, 6, color, term=ctx.captain(owner)))
        doing = "sabotaging" if mode == "sabotage" else ("with loot" if loot else "aboard")
        body.append(text(cx + 20, cy + 13, f"{card_name(crew)} · {doing}", anchor="start", class_="chip"))
        title = f"{ctx.owner(owner)}'s {card_name(crew)} aboard {ctx.name(p)}'s ship"
        if mode == "sabotage":
            title += ", sabotaging"
        if loot:
            loot_words = {HULL: "an intact hull token", ENERGY: f"{ctx.content.rules.loot_energy} energy"}
            title += f", carrying {loot_words.get(loot, card_name(loot))} home"
        title += f"; goes home {ctx.until(owner, wait)}"
        body.append(hit(cx, cy, chip_w, 18, title, None, "boarder", rx=9))
        row += 1
    return "".join(body), 20 * ((row + 1) // 2) + 4


def mat_svg(ctx: Ctx, p: int) -> tuple[str, float]:
    info = ctx.players[p]
    if "mat" not in info:
        return _screened_mat(ctx, p, info)
    own = ctx.seat == p
    phase = ctx.view["phase"]
    status = info["status"]
    ship_part = _ship_part(ctx, p)
    if own and phase == "draft":
        ship_part = "use:play"
    aboard, aboard_h = _aboard(ctx, p, 190)
    h = 190 + aboard_h + 4
    color = color_of(ctx.content, p)
    active = phase == "turn" and ctx.view["active"] == p
    cls = "mat" + (" active" if active else "") + (" out" if status != "alive" else "")
    who = "Your ship" if own else f"{ctx.name(p)}'s ship"
    bg_title = f"{who} ({ctx.owner(p)})"
    if ship_part == "use:play":
        bg_title += ": click here to install the chosen card"
    elif ship_part:
        bg_title += ": click to target it"
    body = [el("rect", x=0, y=0, width=W, height=h, rx=8, class_=cls, stroke=color)]
    body.append(hit(0, 0, W, h, bg_title, ship_part, ctx.content.captains[p].name, rx=8))
    body.append(_mat_header(ctx, p, info, ship_part if not own else None))
    hull_part: str | None = None
    if own:
        hull_part = "use:hull" if phase == "draft" else "mine:hull"
    elif ctx.loot_target() == p:
        hull_part = "loot:hull"
    elif ship_part:
        hull_part = ship_part
    body.append(_hull(ctx, p, info, PAD + 2, 35, W - 2 * PAD, hull_part))
    body.append(_row(ctx, _systems(ctx, p, info), 58))
    body.append(_row(ctx, _crew(ctx, p, info), 124))
    body.append(aboard)
    if status != "alive":
        word = "WRECK" if status == "destroyed" else "CAPTAIN KILLED"
        body.append(text(W / 2, 130, word, class_="stamp", transform=f"rotate(-12 {W / 2} 120)"))
    if phase == "fire" and status == "alive":
        body.append(text(W - 8, 50, "ON FIRE", anchor="end", class_="fire"))
    if own and info.get("burn"):
        burn = str(info["burn"])
        words = "an intact hull token" if burn == HULL else burn_words(info, burn)
        body.append(text(W - 8, 50, f"you burn: {words}", anchor="end", class_="fire"))
    return "".join(body), h
