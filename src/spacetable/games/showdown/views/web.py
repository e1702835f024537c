"""The Starship Showdown table for the web: an SVG drawing and action parts (the glossary: :mod:`.web_words`).

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON) and the game's
:class:`Content`, never from a state, so the picture holds nothing the viewer may not know:
other captains' hands are counts, their face-down countermeasures are card backs, and
behind the privacy screens their mats are screens.

The drawing is made of areas: a status line, the table's centre (the draft, the action in
progress with both dice pools, the prompt for the seat asked) and one mat per captain
(header with the owner's colour *and* shape, hull tokens, energy, engines, weapons,
xenotech, countermeasure slots, crew with combat ratings, tokens on the cards they disable,
enemy crew aboard). Two arrangements (docs/WEB.md, "Board arrangements"): tall, every area
stacked (a phone), and wide, the centre and the mats in two columns (a landscape screen); each
area is a ``g.sd-a<k>`` whose tall place is its ``transform`` attribute and whose wide place
is a style rule under ``.st-wide``. Every text is 12 units or more, so at least 12 px where the
table draws a column 360 units wide in 370 px (a phone) and the two columns in 760 px (a desktop).
Symbols carry a hover text (``<title>``); decorations drawn over a symbol let the hover through
(``pointer-events: none``), and nothing is drawn over words. This module lays the areas out; :mod:`.web_centre` (with
:mod:`.web_fight` for the action in progress) draws the centre and :mod:`.web_mats` the mats.

Parts (``data-part``; docs/WEB.md, "Parts are paths"), on transparent ``rect.hit`` overlays:

- the viewer's own mat: ``mine:<kind>`` (a card kind, ``captain``, ``hull``), ``mycm:<i>``
  (countermeasure slot ``i``; during the draft a countermeasure is ``mine:<kind>``);
- other mats: ``captain:<seat>`` (the whole ship: header, background and cards),
  ``ship:<seat>:<engine|weapon|xenotech|cm<i>|crew kind>`` (a card a xenotech can target, drawn
  only while the viewer may use one), ``loot:<item>`` (the dead captain's cards and hull while
  choosing the loot);
- the draft: ``hand:<kind>`` (a card in the viewer's hand), ``use:play`` (the mat, or the
  Install button), ``use:hull`` (the hull tokens, or the Scrap button);
- buttons in the centre: ``double`` (a double attack), ``do:end``, ``commit:<energy>``,
  ``deploy:plain``, ``deploy:boost``, ``react:done``, ``mode:<sabotage|combat>``,
  ``loot:energy``.
"""

from __future__ import annotations

from collections.abc import Mapping

from spacetable.engine import JSON, Action
from spacetable.engine.svg import board as svg_board
from spacetable.engine.svg import el, text

from ..content import Content, card_name
from ..rules.actions import (
    HULL,
    Attack,
    Board,
    Burn,
    Charge,
    Commit,
    Defend,
    Deploy,
    Done,
    EndTurn,
    Hack,
    Loot,
    Pick,
    Psionics,
    Repair,
    Reprogram,
    Teleport,
)
from ..rules.state import NO_FIRE
from .web_centre import centre_svg
from .web_markup import GAP, Ctx, W
from .web_mats import mat_svg

HEADER_H = 22


def action_parts(action: Action) -> tuple[str, ...]:
    """The board parts of an action (see the module docstring)."""
    if isinstance(action, Pick):
        if action.use == HULL:
            return (f"hand:{action.card}", "use:hull")
        return (f"hand:{action.card}", f"mine:{action.replace}" if action.replace else "use:play")
    if isinstance(action, Attack):
        return ("double" if action.double else "mine:weapon", f"captain:{action.target}")
    if isinstance(action, Charge):
        return ("mine:engine",)
    if isinstance(action, Repair):
        return ("mine:hull",)
    if isinstance(action, Teleport):
        return (f"mine:{action.crew}", f"captain:{action.target}")
    if isinstance(action, Hack):
        return ("mine:hacking", f"ship:{action.target}:{action.card}")
    if isinstance(action, Psionics):
        return ("mine:psionics", f"ship:{action.target}:{action.crew}")
    if isinstance(action, Reprogram):
        return ("mine:ai", f"mycm:{action.slot}")
    if isinstance(action, EndTurn):
        return ("do:end",)
    if isinstance(action, Commit):
        return (f"commit:{action.energy}",)
    if isinstance(action, Deploy):
        return (f"mycm:{action.slot}", "deploy:boost" if action.boost else "deploy:plain")
    if isinstance(action, Done):
        return ("react:done",)
    if isinstance(action, Board):
        return (f"mode:{action.mode}",)
    if isinstance(action, Defend):
        return (f"mine:{action.crew}",)
    if isinstance(action, Loot):
        return (f"loot:{action.item}",)
    if isinstance(action, Burn):
        if action.item == HULL:
            return ("mine:hull",)
        if action.item.startswith("cm"):
            return (f"mycm:{action.item[2:]}",)
        return (f"mine:{action.item}",)
    return ()


def _header(ctx: Ctx) -> str:
    """One line over the areas: the round (the guide above the board says whose move it is), and
    the face-up discard pile and the first round of fire at the right."""
    view = ctx.view
    phase = view["phase"]
    if phase in ("deal", "draft"):
        status, term = f"Upgrade round {view['draft_round']}", "hand"
    elif phase == "over":
        status, term = "Game over", "turn"
    elif phase == "first":
        status, term = "The showdown begins", "turn"
    else:
        status, term = f"Round {view['round']}", "ships on fire" if phase == "fire" else "turn"
    left = el("g", text(4, 15, status, anchor="start", class_="status"), title=status, data_term=term)
    pile: Mapping[str, int] = view["public_pile"]
    total = sum(pile.values())
    fire = int(view["fire_from"])
    burning = phase not in ("deal", "draft") and fire < NO_FIRE
    sub = f"discard pile {total}" + (f" · ships burn from round {fire}" if burning else "")
    pile_title = "Discard pile (face up): " + (
        ", ".join(f"{card_name(k)} ×{n}" for k, n in pile.items() if n) if total else "empty"
    )
    right = el("g", text(W - 4, 15, sub, anchor="end", class_="small"), title=pile_title, data_term="discard pile")
    return left + right


STYLE = """
.sd-board{font-family:system-ui,'DejaVu Sans',sans-serif;fill:#e6ebf5}
.sd-board text{stroke:none}
.sd-board .status{font-size:13px;font-weight:700}
.sd-board .small{font-size:12px;fill:#b7c2d8}
.sd-board .label{font-size:12px;font-weight:700;fill:#9aa6bd;letter-spacing:1px}
.sd-board .mat{fill:#111a2e;stroke-width:2}
.sd-board .mat.active{stroke-width:4;fill:#14213b}
.sd-board .mat.out{fill:#161216}
.sd-board .centre{fill:#0f1a33;stroke:#7cc4ff;stroke-width:1.5}
.sd-board .mat-name{font-size:14px;font-weight:700}
.sd-board .mat-status{font-size:12px;font-weight:700;fill:#ffe082}
.sd-board .mat-status.out{fill:#ff8a80}
.sd-board .energy{font-size:14px;font-weight:800;fill:#ffd54f}
.sd-board .bolt{fill:#ffd54f;stroke:#3a2a00;stroke-width:.6}
.sd-board .hull{stroke-width:1.2}
.sd-board .hull.intact{fill:#2e7d32;stroke:#a5d6a7}
.sd-board .hull.damaged{fill:#8e1c1c;stroke:#ff8a80}
.sd-board .hull-mark{font-size:12px;font-weight:800;fill:#fff}
.sd-board .card{fill:#1b2540;stroke-width:1.6}
.sd-board .card.face-down{stroke-dasharray:4 2}
.sd-board .card.deployed{fill:#2a2a12;stroke-width:3}
.sd-board .card.empty{fill:none;stroke:#3a4866;stroke-dasharray:4 3}
.sd-board .card.back{fill:#3a2e0c;stroke:#e8b931}
.sd-board .back-inner{fill:none;stroke:#e8b931;stroke-opacity:.5;stroke-dasharray:2 3}
.sd-board .back-mark{font-size:24px;font-weight:800;fill:#e8b931}
.sd-board .empty-label{font-size:12px;fill:#8190ab}
.sd-board .card-name{font-size:12px;fill:#f4f7fc;letter-spacing:-.2px}
.sd-board .card-note{font-size:12px;fill:#c8d2e6}
.sd-board .rating{fill:#0b1020;stroke:#e0e7ef;stroke-width:1}
.sd-board .rating-value{font-size:12px;font-weight:800;fill:#fff}
.sd-board .count{font-size:12px;font-weight:800}
.sd-board .armor{fill:#90a4ae;stroke:#263238}
.sd-board .tok-letter{font-size:12px;font-weight:800;fill:#000}
.sd-board .chip{font-size:12px;font-weight:600}
.sd-board .screen{fill:#1a1f2b;stroke:#4a556e;stroke-dasharray:6 3}
.sd-board .screen-text{font-size:12px;font-weight:700;fill:#9aa6bd;letter-spacing:1px}
.sd-board .mini-back{fill:#3a2e0c;stroke:#e8b931;stroke-width:.8}
.sd-board .panel-title{font-size:13px;font-weight:800;fill:#7cc4ff;letter-spacing:1px}
.sd-board .panel-title.fire{fill:#ff7043}
.sd-board .pool-label{font-size:12px;font-weight:600}
.sd-board .pool-score{font-size:12px;font-weight:800;fill:#69f0ae}
.sd-board .prompt{font-size:12px;font-weight:700;fill:#69f0ae}
.sd-board .prompt-wait{font-size:12px;font-style:italic;fill:#b7c2d8}
.sd-board .die{stroke-width:1.5}
.sd-board .die.attack{fill:#b71c1c;stroke:#ffcdd2}
.sd-board .die.defence{fill:#1b5e20;stroke:#c8e6c9}
.sd-board .die.tele-a{fill:#e65100;stroke:#ffe0b2}
.sd-board .die.tele-d{fill:#0d47a1;stroke:#bbdefb}
.sd-board .die.success{stroke:#fff;stroke-width:3}
.sd-board .die.unrolled{fill-opacity:.25;stroke-dasharray:3 2}
.sd-board .die-value{font-size:14px;font-weight:800}
.sd-board .lift{font-size:12px;font-weight:800;fill:#ffd54f}
.sd-board .die-at{fill:none;stroke:#ffd54f;stroke-width:2;stroke-dasharray:3 2}
.sd-board .button{fill:#1e4f8a;stroke:#7cc4ff}
.sd-board .button.off{fill:#1a2338;stroke:#3a4866}
.sd-board .button-label{font-size:12.5px;font-weight:700}
.sd-board .ring{fill:none;stroke:#7cc4ff;stroke-width:2.5}
.sd-board .ring-head{fill:#7cc4ff}
.sd-board .hit{fill:transparent;cursor:pointer}
"""


def _columns(areas: list[tuple[str, float]]) -> tuple[float, float, list[tuple[float, float]]]:
    """The wide arrangement: two columns, each area going under the shorter one (the centre first
    in the left, the viewer's mat first in the right), so that on a desktop the board is seen whole
    at about its own size (docs/WEB.md, "Board arrangements"). Its width, height and each area's place."""
    bottoms = [float(HEADER_H), float(HEADER_H)]
    pos: list[tuple[float, float]] = []
    for k, (_, h) in enumerate(areas):
        col = k if k < 2 else int(bottoms[1] < bottoms[0])
        pos.append((float(col * (W + GAP)), bottoms[col]))
        bottoms[col] += h + GAP
    return float(2 * W + GAP), max(bottoms) - GAP + 4, pos


def board_svg(content: Content, view: JSON, seat: int | None) -> str:
    """The whole table of ``view`` as one ``<svg>`` in two arrangements (tall: its viewBox; wide)."""
    ctx = Ctx(content, view, seat)
    n = len(ctx.players)
    order = list(range(n)) if seat is None else [(seat + k) % n for k in range(n)]
    areas: list[tuple[str, float]] = [centre_svg(ctx)] + [mat_svg(ctx, p) for p in order]
    # tall: everything stacked under the status line
    tall_pos = []
    y = float(HEADER_H)
    for _, h in areas:
        tall_pos.append((0.0, y))
        y += h + GAP
    tall_h = y - GAP + 4
    tall = f"0 0 {W} {tall_h:.0f}"
    wide_w, wide_h, wide_pos = _columns(areas)
    wide = f"0 0 {wide_w:.0f} {wide_h:.0f}"
    rules = "".join(
        f".sd-board.st-wide .sd-a{k}{{transform:translate({x:.0f}px,{yy:.0f}px)}}" for k, (x, yy) in enumerate(wide_pos)
    )
    groups = "".join(
        el("g", body, class_=f"sd-area sd-a{k}", transform=f"translate({x:.0f},{yy:.0f})")
        for k, ((body, _), (x, yy)) in enumerate(zip(areas, tall_pos, strict=True))
    )
    body = (
        f"<style>{STYLE}{rules}</style>"
        + el("rect", x=-4, y=-4, width=max(wide_w, W) + 8, height=max(tall_h, wide_h) + 8, fill="#0b1020")
        + _header(ctx)
        + groups
    )
    return svg_board(body, tall=tall, wide=wide, name="sd-board", label="Starship Showdown table")


__all__ = ["action_parts", "board_svg"]
