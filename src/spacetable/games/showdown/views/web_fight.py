"""The fight in progress on Showdown's web board: attack, boarding and xenotech panels, dice pools and prompts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.engine.svg import el, text

from ..content import XENOTECH, card_name
from ..rules.actions import MAX_COMMIT
from .web_markup import PAD, Ctx, W, button_svg, hit, paragraph, text_width

SABOTEURS = ("engineer", "gunner", "pilot")


def _die(
    x: float,
    y: float,
    value: int | None,
    kind: str,
    *,
    success: bool,
    lift: int,
    at: bool,
    title: str,
    size: float = 24,
) -> str:
    cls = f"die {kind}" + (" success" if success else "") + (" unrolled" if value is None else "")
    body = [el("rect", x=x, y=y, width=size, height=size, rx=5, class_=cls)]
    body.append(text(x + size / 2, y + size / 2 + 5, "·" if value is None else str(value), class_="die-value"))
    if lift:  # the energy a die takes, written under it
        body.append(text(x + size / 2, y + size + 12, f"+{lift}", class_="lift"))
    if at:
        body.append(
            el("rect", x=x - 3, y=y - 3, width=size + 6, height=size + 6, rx=7, class_="die-at", pointer_events="none")
        )
    return el(
        "g", "".join(body), title=title, data_term=f"{'teleporter' if kind in ('tele-a', 'tele-d') else kind} die"
    )


def _lifts(dice: list[int], energy: int, bonus: int, success: int) -> dict[int, int]:
    """Energy each die receives, the cheapest failures first (as ``dice.allocate`` spends it)."""
    needs = sorted((success - v - bonus, i) for i, v in enumerate(dice) if v + bonus < success)
    out: dict[int, int] = {}
    for need, i in needs:
        if need <= energy:
            energy -= need
            out[i] = need
    return out


def _pool(
    ctx: Ctx, pending: Mapping[str, Any], side: str, who: int, kind: str, label: str, y: float
) -> tuple[str, float]:
    """One side's dice: who rolls what (and the energy set aside, the bonus), then the dice, each
    with the energy it takes written under it."""
    count = int(pending["an" if side == "a" else "dn"])
    dice: list[int] = list(pending[side])
    energy = int(pending["ac" if side == "a" else "dc"])
    bonus = int(pending["ab" if side == "a" else "db"])
    auto = int(pending.get("dauto", 0)) if side == "d" else 0
    success = int(pending["success"])
    complete = len(dice) == count
    lifts = _lifts(dice, energy, bonus, success) if complete else {}
    at = pending.get("at") or []
    extra = []
    if energy:
        extra.append(f"{energy}⚡ set aside")
    if bonus:
        extra.append(f"+{bonus} on each die")
    head = ctx.mark(who, PAD + 7, y + 9, 6) + text(
        PAD + 18, y + 13, f"{ctx.name(who)}: {label} ×{count}", anchor="start", class_="pool-label"
    )
    title = f"{ctx.name(who)} rolls {count} {label}"
    if energy:
        title += f", with {energy} energy set aside (+1 a die after the roll, the cheapest failures first)"
    if bonus:
        title += f", +{bonus} on each die (boosted Adrenal Stim)"
    yy = y + 20
    if extra:
        head += text(PAD + 18, y + 29, " · ".join(extra), anchor="start", class_="small")
        yy += 16
    body = [el("g", head, title=title, data_term="energy set aside" if energy else None)]
    hits = 0
    size, gap = 24, 4
    step = size + 6 + (14 if lifts else 0)
    per_row = int((W - 2 * PAD + gap) // (size + gap))
    for i in range(count):
        value = dice[i] if i < len(dice) else None
        lift = lifts.get(i, 0)
        ok = value is not None and (value + bonus + lift >= success)
        hits += ok
        here = bool(at) and at[0] == side and at[1] == i
        if value is None:
            die_title = f"{label}: not rolled yet"
        else:
            total = value + bonus + lift
            parts = [str(value)] + ([f"+{bonus} bonus"] if bonus else []) + ([f"+{lift} energy"] if lift else [])
            verdict = "a success" if ok else "a failure"
            die_title = f"{label}: {' '.join(parts)}" + (f" = {total}" if len(parts) > 1 else "") + f", {verdict}"
            if here:
                die_title += " (being re-rolled)"
        dx = PAD + (i % per_row) * (size + gap)
        dy = yy + (i // per_row) * step
        body.append(_die(dx, dy, value, kind, success=ok, lift=lift, at=here, title=die_title, size=size))
    for k in range(auto):
        i = count + k
        dx = PAD + (i % per_row) * (size + gap)
        dy = yy + (i // per_row) * step
        body.append(
            _die(
                dx,
                dy,
                success,
                kind,
                success=True,
                lift=0,
                at=False,
                title="Boosted Security Drone: a success without rolling",
                size=size,
            )
        )
        hits += 1
    rows = max(1, -(-(count + auto) // per_row))
    if not count and not auto:
        body.append(text(PAD, yy + 16, "no dice", anchor="start", class_="small"))
    score = f"{hits} success" + ("es" if hits != 1 else "") if dice or auto else "to roll"
    body.append(text(W - PAD, y + 13, score, anchor="end", class_="pool-score"))
    return "".join(body), yy - y + rows * step + 2


def _rerolls_text(ctx: Ctx, pending: Mapping[str, Any]) -> str:
    queue = pending.get("rr") or []
    if not queue:
        return ""
    sides = {"a": int(pending["attacker"]), "d": int(pending["target"])}
    counts: dict[tuple[str, str], int] = {}
    for side, why in queue:
        counts[(side, why)] = counts.get((side, why), 0) + 1
    words = [
        f"{ctx.name(sides[side])} {n} {'forced' if why == 'forced' else 'own'}" for (side, why), n in counts.items()
    ]
    return "Re-rolls to come: " + ", ".join(words)


def _commit_prompt(ctx: Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who = int(pending["actor"])
    side = pending["side"]
    count = int(pending["an"] if side == "a" else pending["dn"])
    energy = int(ctx.players[who]["energy"])
    top = min(energy, (int(pending["success"]) - 1) * count, MAX_COMMIT)
    role = "attack" if side == "a" else "defence"
    if ctx.seat != who:
        return _waiting(f"{ctx.name(who)} sets energy aside for the {role}…", y)
    para, ph = paragraph(PAD, y + 14, f"Set energy aside for your {role} (you have {energy}):", cls="prompt")
    body = [para]
    size, gap = 30, 5
    per_row = int((W - 2 * PAD + gap) // (size + gap))
    for e in range(top + 1):
        x = PAD + (e % per_row) * (size + gap)
        yy = y + ph + 6 + (e // per_row) * (size + gap)
        body.append(el("rect", x=x, y=yy, width=size, height=size, rx=6, class_="button"))
        body.append(text(x + size / 2, yy + 20, str(e), class_="button-label"))
        body.append(
            hit(
                x,
                yy,
                size,
                size,
                f"Set {e} energy aside: +1 per token to a die after the roll",
                f"commit:{e}",
                "energy set aside",
                rx=6,
            )
        )
    rows = -(-(top + 1) // per_row)
    return "".join(body), ph + 6 + rows * (size + gap) + 4


def _waiting(words: str, y: float) -> tuple[str, float]:
    """A line saying whom the table waits for (wrapped where long)."""
    para, ph = paragraph(PAD, y + 14, words, cls="prompt-wait")
    return para, ph + 8


def _react_prompt(ctx: Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who = int(pending["actor"])
    if ctx.seat != who:
        return _waiting(f"{ctx.name(who)} may deploy countermeasures…", y)
    boost = ctx.content.rules.boost_cost
    can_boost = int(ctx.players[who]["energy"]) >= boost
    para, ph = paragraph(
        PAD,
        y + 14,
        "You are targeted! Click a face-down countermeasure on your mat, then Deploy or Boost; or deploy nothing.",
        cls="prompt",
    )
    bw = (W - 2 * PAD - 12) / 3
    yy = y + ph + 6
    body = [para]
    body.append(button_svg(PAD, yy, bw, "Deploy", "deploy:plain", "Deploy the chosen countermeasure", "deployed"))
    body.append(
        button_svg(
            PAD + bw + 6,
            yy,
            bw,
            f"Boost ({boost}⚡)",
            "deploy:boost",
            f"Deploy the chosen countermeasure boosted, for {boost} energy",
            "boosted",
            on=can_boost,
        )
    )
    body.append(button_svg(PAD + 2 * (bw + 6), yy, bw, "Nothing more", "react:done", "Deploy nothing (more)"))
    return "".join(body), ph + 6 + 36


def attack_panel(ctx: Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    a, t = int(pending["attacker"]), int(pending["target"])
    body = [_title_line(ctx, "DOUBLE ATTACK" if pending["double"] else "ATTACK", a, t, y)]
    yy = y + 26
    pool, ph = _pool(ctx, pending, "a", a, "attack", "red attack dice", yy)
    body.append(pool)
    yy += ph
    if pending["dn"] or pending.get("stage") in ("roll",) or pending[("d")]:
        pool, ph = _pool(ctx, pending, "d", t, "defence", "green defence dice", yy)
    else:
        waiting = pending["stage"] in ("commit", "react", "")
        words = "defence dice come after reactions" if waiting else "no defence dice"
        pool, ph = (
            ctx.mark(t, PAD + 7, yy + 9, 6)
            + text(PAD + 18, yy + 13, f"{ctx.name(t)}: {words}", anchor="start", class_="pool-label"),
            22,
        )
    body.append(pool)
    yy += ph
    return _stage(ctx, pending, body, yy, y)


def _stage(ctx: Ctx, pending: Mapping[str, Any], body: list[str], yy: float, y: float) -> tuple[str, float]:
    stage = pending["stage"]
    rr = _rerolls_text(ctx, pending) if "rr" in pending else ""
    if rr:
        para, ph = paragraph(PAD, yy + 12, rr)
        body.append(el("g", para, title=rr, data_term="re-roll"))
        yy += ph + 2
    if stage == "commit":
        part, ph = _commit_prompt(ctx, pending, yy)
    elif stage == "react":
        part, ph = _react_prompt(ctx, pending, yy)
    elif stage == "roll":
        part, ph = _waiting("Rolling the dice…", yy)
    elif stage == "mode":
        part, ph = _mode_prompt(ctx, pending, yy)
    elif stage == "defend":
        who = int(pending["actor"])
        if ctx.seat == who:
            part, ph = paragraph(
                PAD,
                yy + 14,
                "Choose who meets the boarder: click your captain or a crew card at home on your mat.",
                cls="prompt",
            )
        else:
            part, ph = _waiting(f"{ctx.name(who)} chooses who meets the boarder…", yy)
    elif stage == "loot":
        part, ph = _loot_prompt(ctx, pending, yy)
    else:
        part, ph = "", 0
    body.append(part)
    yy += ph
    return "".join(body), yy - y + 6


def _title_line(ctx: Ctx, what: str, a: int, t: int, y: float) -> str:
    """``what`` in the panel's title, then who acts on whom (each with their colour and shape)."""
    x = PAD + text_width(what, 10.6) + 14
    xa = x + 12 + text_width(ctx.name(a), 7.4) + 8
    return (
        text(PAD, y + 15, what, anchor="start", class_="panel-title")
        + ctx.mark(a, x, y + 10, 7)
        + text(x + 11, y + 15, ctx.name(a), anchor="start", class_="pool-label")
        + el(
            "g",
            text(xa + 6, y + 15, "→", class_="pool-label"),
            title=f"{what.capitalize()}: {ctx.name(a)} against {ctx.name(t)}",
        )
        + ctx.mark(t, xa + 24, y + 10, 7)
        + text(xa + 35, y + 15, ctx.name(t), anchor="start", class_="pool-label")
    )


def _mode_prompt(ctx: Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who = int(pending["actor"])
    if ctx.seat != who:
        return _waiting(f"{ctx.name(who)} chooses sabotage or combat…", y)
    crew = str(pending["crew"])
    body = [text(PAD, y + 14, "Your boarder's mission:", anchor="start", class_="prompt")]
    bw = (W - 2 * PAD - 8) / 2
    effect = {"engineer": "flip a hull token", "gunner": "spoil their attacks", "pilot": "spoil their defence"}
    if crew in SABOTEURS:
        body.append(button_svg(PAD, y + 22, bw, "Sabotage", "mode:sabotage", f"Sabotage: {effect[crew]}", "sabotage"))
    body.append(
        button_svg(
            PAD + bw + 8,
            y + 22,
            bw,
            "Fight the crew",
            "mode:combat",
            "Teleporter combat against a crew member the host chooses",
            "teleporter combat",
        )
    )
    if crew in SABOTEURS:
        t = ctx.name(int(pending["target"]))
        what = {
            "engineer": f"flips one of {t}'s hull tokens at once",
            "gunner": f"spoils one success of each attack {t} makes",
            "pilot": f"spoils one success of each defence {t} rolls",
        }[crew]
        para, ph = paragraph(
            PAD, y + 70, f"Sabotage {what}; a fight rolls teleporter dice against the crew member {t} picks."
        )
        return "".join(body) + para, 58 + ph
    return "".join(body), 58


def _loot_prompt(ctx: Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who, t = int(pending["actor"]), int(pending["target"])
    if ctx.seat != who:
        return _waiting(f"{ctx.name(who)} chooses the loot…", y)
    para, ph = paragraph(
        PAD,
        y + 14,
        f"{ctx.name(t)}'s captain is dead! Take a card or an intact hull token from that ship (click it), or:",
        cls="prompt",
    )
    energy = ctx.content.rules.loot_energy
    button = button_svg(
        PAD, y + ph + 6, 150, f"+{energy} energy", "loot:energy", f"Take {energy} energy as loot", "loot"
    )
    return para + button, ph + 42


def board_panel(ctx: Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    a, t = int(pending["attacker"]), int(pending["target"])
    crew = str(pending["crew"])
    body = [_title_line(ctx, "BOARDING", a, t, y)]
    yy = y + 26
    rating = ctx.content.rating
    words = f"{ctx.name(a)}'s {card_name(crew)} (rating {rating[crew]}) teleports aboard {ctx.name(t)}'s ship."
    if pending.get("defender"):
        d = str(pending["defender"])
        words += f" {ctx.name(t)}'s {card_name(d)} (rating {rating[d]}) meets it."
    para, ph = paragraph(PAD, yy + 10, words)
    body.append(para)
    yy += ph + 4
    if "an" in pending:
        pool, h = _pool(ctx, pending, "a", a, "tele-a", "teleporter dice", yy)
        body.append(pool)
        yy += h
        pool, h = _pool(ctx, pending, "d", t, "tele-d", "teleporter dice", yy)
        body.append(pool)
        yy += h
    return _stage(ctx, pending, body, yy, y)


def xeno_panel(ctx: Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    a, t = int(pending["attacker"]), int(pending["target"])
    xeno, key = str(pending["xeno"]), str(pending["card"])
    body = [_title_line(ctx, card_name(xeno).upper(), a, t, y)]
    if key.startswith("#"):
        slots = ctx.players[t].get("countermeasures") or []
        slot = next((s for s in slots if f"#{s['id']}" == key), None)
        what = card_name(slot["card"]) if slot and slot["card"] else "a face-down countermeasure"
    elif key == "xenotech":
        mat = ctx.players[t].get("mat") or {}
        what = card_name(next((x for x in XENOTECH if mat.get(x)), "xenotech"))
    else:
        what = card_name(key)
    para, ph = paragraph(PAD, y + 36, f"{ctx.name(a)} aims {card_name(xeno)} at {ctx.name(t)}'s {what}.")
    body.append(para)
    return _stage(ctx, pending, body, y + 28 + ph, y)
