"""The Starship Showdown table for the web: an SVG drawing, action parts and a glossary.

:func:`board_svg` draws from a view (``state.view(seat)``, plain JSON) and the game's
:class:`Content`, never from a state, so the picture holds nothing the viewer may not know:
other captains' hands are counts, their face-down countermeasures are card backs, and
behind the privacy screens their mats are screens.

The drawing is made of areas: a status line, the table's centre (the draft, the action in
progress with both dice pools, the prompt for the seat asked) and one mat per captain
(header with the owner's colour *and* shape, hull tokens, energy, engines, weapons,
xenotech, countermeasure slots, crew with combat ratings, tokens on the cards they disable,
enemy crew aboard). Two arrangements (docs/WEB.md, "Board arrangements"): tall, every area
stacked (a phone), and wide, the centre and the mats in a grid (a landscape screen); each
area is a ``g.sd-a<k>`` whose tall place is its ``transform`` attribute and whose wide place
is a style rule under ``.st-wide``.

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

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.engine import JSON, Action
from spacetable.engine.svg import board as svg_board
from spacetable.engine.svg import el, text

from ..content import CAPTAIN, CARD_KINDS, CREW, XENOTECH, Content, card_name, family
from ..rules.actions import (
    ENERGY,
    HULL,
    MAX_COMMIT,
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

W = 360
"""Width of every area (a mat, the centre)."""
GAP = 10
PAD = 8
CARD_H = 60
HEADER_H = 48
SABOTEURS = ("engineer", "gunner", "pilot")

COLORS = {
    "red": "#ef5350",
    "blue": "#42a5f5",
    "green": "#66bb6a",
    "yellow": "#ffca28",
    "purple": "#b980f0",
    "white": "#eceff1",
    "orange": "#ffa040",
    "pink": "#f48fb1",
    "cyan": "#4dd0e1",
}
SHAPES = ("triangle", "circle", "square", "diamond", "star", "hexagon")
"""Each seat's mark beside its colour, so that owners never differ by colour alone."""
FAMILY_COLOR = {
    "engine": "#9fb3c8",
    "weapon": "#c8a0a0",
    "crew": "#e0e7ef",
    "xenotech": "#d08c4f",
    "countermeasure": "#e8b931",
}
SHORT = {
    "ai": "A.I.",
    "cryo": "Cryo-Crew",
    "adrenal_stim": "Adrenal|Stim",
    "armor_plating": "Armor|Plating",
    "energy_shields": "Energy|Shields",
    "frequency_scrambler": "Frequency|Scrambler",
    "nitro_fuel": "Nitro|Fuel",
    "security_drone": "Security|Drone",
}
STATUS_WORDS = {"alive": "in the game", "lifeless": "captain killed", "destroyed": "wrecked"}


# ---- small SVG helpers ------------------------------------------------------------------------
def hit(
    x: float, y: float, w: float, h: float, title: str, part: str | None = None, term: str | None = None, rx: float = 5
) -> str:
    """A transparent overlay: the hover text, the glossary term and (if any) the clickable part."""
    return el("rect", title=title, x=x, y=y, width=w, height=h, rx=rx, data_part=part, data_term=term, class_="hit")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ---- owners: colour and shape ------------------------------------------------------------------
def color_of(content: Content, p: int) -> str:
    name = content.captains[p].color
    return COLORS.get(name.lower(), name)


def shape_name(p: int) -> str:
    return SHAPES[p % len(SHAPES)]


def owner_words(content: Content, p: int) -> str:
    """How a title names an owner: name, colour and shape."""
    return f"{content.captains[p].name} ({content.captains[p].color} {shape_name(p)})"


def mark(p: int, cx: float, cy: float, r: float, fill: str, stroke: str = "#0b1020", term: str | None = None) -> str:
    """The seat's shape, centred on (cx, cy); ``term`` names its glossary entry (the seat's captain)."""
    shape = shape_name(p)
    if shape == "circle":
        return el("circle", cx=cx, cy=cy, r=r * 0.9, fill=fill, stroke=stroke, stroke_width=1.5, data_term=term)
    if shape == "square":
        s = r * 1.6
        return el(
            "rect",
            x=cx - s / 2,
            y=cy - s / 2,
            width=s,
            height=s,
            rx=1.5,
            fill=fill,
            stroke=stroke,
            stroke_width=1.5,
            data_term=term,
        )
    if shape == "triangle":
        pts = [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)]
    elif shape == "diamond":
        pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    elif shape == "star":
        pts = []
        for k in range(10):
            rad = r if k % 2 == 0 else r * 0.45
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    else:  # hexagon
        pts = [(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    return el("polygon", points=points, fill=fill, stroke=stroke, stroke_width=1.5, data_term=term)


# ---- the words (glossary and titles) -------------------------------------------------------------
def card_text(content: Content, kind: str) -> str:
    """What a card (or the captain) does, in one sentence, from the content's numbers."""
    r = content.rules
    rating = content.rating
    xeno = f"Xenotech ({r.xenotech_cost} energy, one action, once a turn):"
    boost = f"Boosted ({r.boost_cost} energy):"
    words = {
        "engine": "Each working engine rolls one green defence die when you are attacked, and Charge Reactor "
        "gives one energy per engine; with none you cannot defend.",
        "weapon": f"Each working weapon rolls one red attack die (d{r.attack_die}, {r.attack_success} or more "
        "succeeds); with none you cannot attack.",
        CAPTAIN: f"Combat rating {rating[CAPTAIN]}; the captain never teleports, and if killed by a boarder "
        "the captain's player is out and the ship drifts on, lifeless.",
        "engineer": f"Combat rating {rating['engineer']}. At home: one re-roll of a failed repair die. "
        "Sabotaging aboard an enemy ship: flips one of its hull tokens at once.",
        "gunner": f"Combat rating {rating['gunner']}. At home: one re-roll of a failed attack die per attack "
        "(two in a double attack). Sabotaging: its host re-rolls one success of each attack it makes.",
        "pilot": f"Combat rating {rating['pilot']}. At home: one re-roll of a failed defence die (two against a "
        "double attack or with Nitro Fuel). Sabotaging: its host re-rolls one success of each defence.",
        "cryo": f"Combat rating {rating['cryo']} and no ability: a spare body that can stand against boarders "
        "or be burnt instead of a better card.",
        "ai": f"{xeno} put an AI token on one of your countermeasures; the first time it would be discarded it "
        "goes back face down instead (known to all), and its next use discards it.",
        "hacking": f"{xeno} a hacking token disables one engine, weapon, xenotech or countermeasure of another "
        "captain until the end of your next turn.",
        "psionics": f"{xeno} a psionics token disables one crew member aboard another captain's ship until the end "
        "of your next turn.",
        "adrenal_stim": f"Countermeasure: while deployed, your rolls get one more re-roll. {boost} +1 on each of "
        "your dice too.",
        "armor_plating": f"Countermeasure: while deployed, {r.armor_tokens} armor tokens take damage before your "
        f"hull. {boost} the armor left when it expires becomes intact hull.",
        "energy_shields": "Countermeasure: while deployed, boarders achieve nothing against your ship (one sent "
        f"now stays stuck aboard). {boost} the boarder stays stuck one round longer.",
        "frequency_scrambler": "Countermeasure: while deployed, Hacking and Psionics cannot target you (the "
        f"energy is wasted). {boost} the token lands on the user's own card of that kind.",
        "nitro_fuel": f"Countermeasure: while deployed, you roll twice as many defence dice. {boost} each of your "
        "defence successes also damages the attacker.",
        "security_drone": "Countermeasure: while deployed, you roll one more teleporter die against boarders. "
        f"{boost} that die is a success without rolling.",
    }
    return words.get(kind, f"{card_name(kind)}.")


def glossary(content: Content, fire_round: int | None = None) -> dict[str, str]:
    """Every card, crew member, symbol and status the board shows, one sentence each
    (``fire_round``: the house rule's first round of fire, if any)."""
    r = content.rules
    words: dict[str, str] = {card_name(kind): card_text(content, kind) for kind in (*CARD_KINDS, CAPTAIN)}
    tokens = content.tokens
    words.update(
        {
            "intact hull": "An intact hull token: damage flips it over; a ship with no intact token left is wrecked.",
            "damaged hull": f"A damaged hull token: Repair Hull rolls a d{r.repair_die} and turns one back on "
            f"{r.repair_success} or more.",
            "energy": f"Energy: {r.start_energy} at the start and {r.energy_per_turn} more at the end of each of your "
            f"turns; it pays for xenotech ({r.xenotech_cost}), boosts ({r.boost_cost}) and +1 per token on dice.",
            "armor token": "Armor from Armor Plating: each token takes one damage before the hull does.",
            "hacking token": f"Hacking: the card under it does not work until its owner's next turn ends "
            f"({tokens['hacking']} in the box).",
            "psionics token": f"Psionics: the crew member under it cannot act until its owner's next turn ends "
            f"({tokens['psionics']} in the box).",
            "AI token": f"Artificial Intelligence: the countermeasure under it comes back once instead of being "
            f"discarded ({tokens['ai']} in the box).",
            "attack die": f"A red d{r.attack_die}: {r.attack_success} or more is a success; each attack die that ends "
            f"as a failure gives its roller {r.energy_per_failed_attack_die} energy.",
            "defence die": f"A green d{r.attack_die}: {r.attack_success} or more is a success; successes beyond the "
            "attacker's become energy.",
            "teleporter die": f"A d{r.teleporter_die} for crew fights: {r.teleporter_success} or more is a success; "
            "a crew member rolls as many as its combat rating.",
            "repair die": f"A d{r.repair_die}: {r.repair_success} or more turns a damaged hull token intact.",
            "re-roll": "A re-roll is spent where it helps its owner most (RULINGS 13); a forced re-roll from a "
            "saboteur takes away the owner's lowest success.",
            "energy set aside": "Energy set aside before the roll; afterwards each token adds +1 to a die, the "
            "cheapest failures first, and what cannot make a success is lost.",
            "success": f"A die showing {r.attack_success} or more (after energy and bonuses) counts as a success.",
            "face-down countermeasure": "A countermeasure its owner has not shown: it can be deployed when its "
            "owner is targeted.",
            "deployed": "Face up and working until the end of its owner's next turn, then discarded.",
            "boosted": f"A countermeasure deployed with {r.boost_cost} extra energy: its stronger effect applies.",
            "empty slot": "Nothing here yet: engines, weapons and crew have no limit, but a ship holds at most "
            f"{r.countermeasure_limit} countermeasures and {r.xenotech_limit} xenotech.",
            "boarder": "A crew member aboard another captain's ship: it comes home at the end of its owner's next "
            "turn, and dies if that ship is wrecked meanwhile.",
            "sabotage": "A boarder that sabotages acts without dice: an Engineer damages the hull, a Gunner or "
            "Pilot spoils one success of each attack or defence.",
            "teleporter combat": "The boarder fights the crew member the host chooses: more successes kills the "
            "other; a killed captain puts that player out.",
            "loot": f"Killing a captain lets the boarder take home one card, one intact hull token or "
            f"{r.loot_energy} energy.",
            "in the game": "This captain still plays.",
            "captain killed": "This captain was killed: the player is out, the lifeless hull can still be shot.",
            "wrecked": "This ship has no intact hull left: the player is out.",
            "collateral damage": "A ship wrecked by damage flips one hull token of every other ship afloat.",
            "ships on fire": "With two captains left"
            + (f" (or from round {fire_round})" if fire_round else "")
            + ", each round starts with every captain discarding a card or an intact hull token in secret.",
            "privacy screen": "During the draft each mat, hand and hull stays behind its owner's screen; everyone "
            "sees the hand sizes and who has chosen.",
            "hand": f"Cards to draft: take one, install it or scrap it for a hull token, then pass the rest "
            f"({r.hand_size} cards, {r.upgrade_rounds} rounds).",
            "pass direction": "Hands pass clockwise (to the next seat) in odd upgrade rounds and counter-clockwise "
            "in even ones.",
            "upgrade deck": "The cards still to be dealt for the next upgrade round.",
            "discard pile": "Cards that left play face up, seen by everyone.",
            "turn": f"On your turn you take {r.actions_per_turn} actions: attacks (twice allowed), and once each "
            "Charge Reactor, Repair Hull, Teleport and Use Xenotech.",
            "double attack": "Both actions on one target: one volley of twice the dice against a single defence "
            "roll (RULINGS 15).",
            "end turn": "End the turn now, leaving the remaining actions unused.",
        }
    )
    for p, captain in enumerate(content.captains[: content.players]):
        words[captain.name] = (
            f"Seat {p + 1}, {captain.color} {shape_name(p)}: a captain with combat rating "
            f"{content.rating[CAPTAIN]} who never leaves the bridge."
        )
    return words


# ---- parts -------------------------------------------------------------------------------------
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


# ---- the drawing ---------------------------------------------------------------------------------
@dataclass
class _Ctx:
    content: Content
    view: Mapping[str, Any]
    seat: int | None

    @property
    def players(self) -> list[dict[str, Any]]:
        players: list[dict[str, Any]] = self.view["players"]
        return players

    @property
    def pending(self) -> dict[str, Any] | None:
        pending: dict[str, Any] | None = self.view["pending"]
        return pending

    def name(self, p: int) -> str:
        return str(self.players[p]["captain"])

    def owner(self, p: int) -> str:
        return owner_words(self.content, p)

    def captain(self, p: int) -> str:
        """The glossary term of seat ``p``'s captain: their colour and shape."""
        return self.content.captains[p].name

    def my_turn(self) -> bool:
        return self.view["phase"] == "turn" and self.pending is None and self.view["active"] == self.seat

    def my_xeno(self) -> str:
        """The xenotech the viewer can aim at other ships now ("" if none)."""
        if self.seat is None or not self.my_turn():
            return ""
        mat = self.players[self.seat].get("mat") or {}
        return next((x for x in ("hacking", "psionics") if mat.get(x)), "")

    def loot_target(self) -> int | None:
        pending = self.pending
        if pending and pending["stage"] == "loot" and pending["actor"] == self.seat:
            return int(pending["target"])
        return None

    def tokens_on(self, p: int, card: str) -> list[list[Any]]:
        return [t for t in self.view["tokens"] if t[2] == p and t[3] == card]

    def until(self, owner: int, wait: int) -> str:
        ends = wait + 1
        who = self.name(owner)
        return f"when {who}'s turn ends" if ends == 1 else f"when {who}'s turn has ended {ends} more times"


def _icon(fam: str, x: float, y: float) -> str:
    """A 14 px picture of a card family at (x, y)."""
    if fam == "engine":
        return el(
            "path",
            d=f"M{x + 7} {y} C{x + 11} {y + 4} {x + 13} {y + 8} {x + 7} {y + 14} C{x + 1} {y + 8} {x + 3} {y + 4} "
            f"{x + 7} {y}Z",
            fill="#ff9f43",
        )
    if fam == "weapon":
        return el(
            "g",
            el("circle", cx=x + 7, cy=y + 7, r=5, fill="none", stroke="#ff6b6b", stroke_width=2)
            + el("path", d=f"M{x + 7} {y}V{y + 14}M{x} {y + 7}H{x + 14}", stroke="#ff6b6b", stroke_width=1.5),
        )
    if fam == "crew":
        return el(
            "g",
            el("circle", cx=x + 7, cy=y + 4, r=3.5, fill="#e0e7ef")
            + el("path", d=f"M{x + 1} {y + 14} Q{x + 7} {y + 5} {x + 13} {y + 14}Z", fill="#e0e7ef"),
        )
    if fam == "xenotech":
        return el(
            "g",
            el(
                "polygon",
                points=f"{x + 7},{y} {x + 13},{y + 3.5} {x + 13},{y + 10.5} {x + 7},{y + 14} {x + 1},{y + 10.5} "
                f"{x + 1},{y + 3.5}",
                fill="#d08c4f",
            )
            + el("circle", cx=x + 7, cy=y + 7, r=2.5, fill="#1b2540"),
        )
    return el(
        "path",
        d=f"M{x + 7} {y} L{x + 13} {y + 3} V{y + 7} Q{x + 13} {y + 12} {x + 7} {y + 14} Q{x + 1} {y + 12} {x + 1} "
        f"{y + 7} V{y + 3}Z",
        fill="#e8b931",
    )


def _name_lines(kind: str) -> list[str]:
    return SHORT.get(kind, card_name(kind)).split("|")


def _token(ctx: _Ctx, t: Sequence[Any], x: float, y: float) -> str:
    """A xenotech token of its owner (colour and shape) with its letter."""
    owner, xeno = int(t[0]), str(t[1])
    letter = "H" if xeno == "hacking" else "Ψ"
    return el(
        "g",
        mark(owner, x, y, 8, color_of(ctx.content, owner), term=ctx.captain(owner))
        + text(x, y + 3.5, letter, class_="tok-letter"),
        class_="token",
    )


def _disabled_by(ctx: _Ctx, tokens: list[list[Any]]) -> str:
    return "; ".join(
        f"disabled by {ctx.owner(int(t[0]))}'s {card_name(str(t[1]))} token, {ctx.until(int(t[0]), int(t[4]))}"
        for t in tokens
    )


@dataclass
class _Face:
    """One card (or slot) on a mat."""

    kind: str
    count: int = 1
    back: bool = False
    empty: str = ""
    note: str = ""
    note2: str = ""
    title: str = ""
    term: str | None = None
    part: str | None = None
    tokens: tuple[Sequence[Any], ...] = ()
    deployed: bool = False
    boosted: bool = False
    face_down: bool = False
    dim: bool = False
    armor: int = 0
    stack: bool = True
    """A pile on a mat (its count always shown for engines and weapons); False for a card in hand."""


def _card(ctx: _Ctx, face: _Face, x: float, y: float, w: float, h: float = CARD_H) -> str:
    body = []
    if face.empty:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="card empty"))
        lines = face.empty.split("|")
        for k, line in enumerate(lines):
            body.append(text(x + w / 2, y + h / 2 + 4 + 12 * (k - (len(lines) - 1) / 2), line, class_="empty-label"))
    elif face.back:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="card back"))
        body.append(el("rect", x=x + 4, y=y + 4, width=w - 8, height=h - 8, rx=4, class_="back-inner"))
        body.append(text(x + w / 2, y + h / 2 + 7, "?", class_="back-mark"))
        body.append(_icon("countermeasure", x + 4, y + 5))
    else:
        fam = family(face.kind) if face.kind != CAPTAIN else "crew"
        color = FAMILY_COLOR[fam]
        cls = "card" + (" deployed" if face.deployed else "") + (" face-down" if face.face_down else "")
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_=cls, stroke=color))
        body.append(el("rect", x=x + 1, y=y + 1, width=w - 2, height=17, rx=5, fill=color, fill_opacity=0.22))
        body.append(_icon(fam, x + 4, y + 3))
        if face.count > 1 or (face.kind in ("engine", "weapon") and face.stack):
            body.append(text(x + w - 5, y + 14, f"×{face.count}", anchor="end", class_="count"))
        lines = _name_lines(face.kind)
        base = y + (33 if len(lines) == 1 else 29)
        for k, line in enumerate(lines):
            body.append(text(x + w / 2, base + 11 * k, line, class_="card-name" + (" narrow" if w < 60 else "")))
        if face.note:
            body.append(text(x + w / 2, y + h - (15 if face.note2 else 5), face.note, class_="card-note"))
        if face.note2:
            body.append(text(x + w / 2, y + h - 5, face.note2, class_="card-note"))
        if face.boosted:
            body.append(el("path", d=_bolt(x + w - 12, y + 20, 0.7), class_="bolt"))
        for k in range(face.armor):
            body.append(el("rect", x=x + 4 + k * 9, y=y + 21, width=7, height=7, rx=1.5, class_="armor"))
    if face.dim:
        body.append(el("rect", x=x, y=y, width=w, height=h, rx=6, class_="disabled"))
    for k, t in enumerate(face.tokens):
        body.append(_token(ctx, t, x + w - 8 - 17 * k, y + h - 10))
    body.append(hit(x, y, w, h, face.title, face.part, face.term, rx=6))
    return "".join(body)


def _bolt(x: float, y: float, s: float = 1.0) -> str:
    """An energy bolt path, about 12 x 16 at scale 1, its top left at (x, y)."""
    pts = [(7, 0), (0, 9), (5, 9), (3, 16), (11, 6), (6, 6), (9, 0)]
    return "M" + " L".join(f"{x + px * s:.1f} {y + py * s:.1f}" for px, py in pts) + "Z"


def _hull(ctx: _Ctx, p: int, info: Mapping[str, Any], x: float, y: float, width: float, part: str | None) -> str:
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


def _energy(ctx: _Ctx, p: int, energy: int, x: float, y: float) -> str:
    who = "You have" if ctx.seat == p else f"{ctx.name(p)} has"
    return el(
        "g",
        el("path", d=_bolt(x, y - 12, 0.9), class_="bolt")
        + text(x + 13, y, str(energy), anchor="start", class_="energy"),
        title=f"{who} {_plural(energy, 'energy token').replace('tokens', 'tokens')}",
        data_term="energy",
    )


def _mat_header(ctx: _Ctx, p: int, info: Mapping[str, Any], part: str | None) -> str:
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
        right = f"▶ TURN · {_plural(int(view['actions_left']), 'action')}"
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


def _screened_mat(ctx: _Ctx, p: int, info: Mapping[str, Any]) -> tuple[str, float]:
    h = 92.0
    body = [el("rect", x=0, y=0, width=W, height=h, rx=8, class_="mat", stroke=color_of(ctx.content, p))]
    body.append(_mat_header(ctx, p, info, None))
    body.append(el("rect", x=PAD, y=34, width=W - 2 * PAD, height=h - 42, rx=6, class_="screen"))
    hand = int(info["hand_size"])
    body.append(text(W / 2, 54, "behind the privacy screen", class_="screen-text"))
    picks = int(info["picks"])
    line = f"{_plural(hand, 'card')} in hand · {_plural(picks, 'card')} taken"
    body.append(text(W / 2, 72, line, class_="small"))
    for k in range(min(hand, 12)):
        body.append(el("rect", x=W - PAD - 12 - k * 7, y=38, width=10, height=14, rx=2, class_="mini-back"))
    title = (
        f"{ctx.name(p)} is drafting behind a privacy screen: {_plural(hand, 'card')} in hand, "
        f"{_plural(picks, 'card')} taken so far" + (", has chosen from this hand" if info["chosen"] else "")
    )
    body.append(hit(PAD, 34, W - 2 * PAD, h - 42, title, None, "privacy screen"))
    return "".join(body), h


def _part_for(ctx: _Ctx, p: int, key: str, own: str | None) -> str | None:
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


def _ship_part(ctx: _Ctx, p: int) -> str | None:
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


def _systems(ctx: _Ctx, p: int, info: Mapping[str, Any]) -> list[_Face]:
    mat: Mapping[str, int] = info["mat"]
    own = ctx.seat == p
    draft = ctx.view["phase"] == "draft"
    ship = _ship_part(ctx, p)
    faces: list[_Face] = []
    for kind in ("engine", "weapon"):
        n = int(mat.get(kind, 0))
        toks = ctx.tokens_on(p, kind)
        part = _part_for(ctx, p, kind, f"mine:{kind}")
        if not n:
            face = _Face(kind, empty=f"no {kind}", term="empty slot", part=part)
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
            _Face(kind, n, note=note, title=title, term=card_name(kind), part=part, tokens=tuple(toks), dim=not working)
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
            _Face(
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
            _Face("", empty="no|xenotech", title="No xenotech card on this ship.", term="empty slot", part=ship)
        )
    slots: list[Mapping[str, Any]] = info["countermeasures"]
    for i, slot in enumerate(slots):
        faces.append(_slot_face(ctx, p, i, slot, draft))
    for _ in range(len(slots), ctx.content.rules.countermeasure_limit):
        faces.append(_Face("", empty="empty", title="An empty countermeasure slot.", term="empty slot", part=ship))
    return faces


def _slot_face(ctx: _Ctx, p: int, i: int, slot: Mapping[str, Any], draft: bool) -> _Face:
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
        flags.append(f"{_plural(int(slot['armor']), 'armor token')} left")
    note = "DEPLOYED" if slot["deployed"] else "face down"
    note2 = ""
    if slot["ai"]:
        note2 = "AI" if slot["ai"] == 1 else "AI used"
    if card is None:
        title = f"{ctx.name(p)}'s face-down countermeasure"
        if toks:
            title += f" ({_disabled_by(ctx, list(toks))})"
        title += _hint(part, "")
        return _Face("", back=True, title=title, term="face-down countermeasure", part=part, tokens=toks)
    title = f"{card_name(card)} ({', '.join(flags)}): {card_text(ctx.content, card)}"
    if toks:
        title += f" ({_disabled_by(ctx, list(toks))})"
    own_hint = ""
    if own and not draft and not slot["deployed"]:
        own_hint = " (click to deploy it when targeted)"
    title += _hint(part, own_hint)
    return _Face(
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


def _crew(ctx: _Ctx, p: int, info: Mapping[str, Any]) -> list[_Face]:
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
        _Face(
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
            _Face(
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


def _row(ctx: _Ctx, faces: list[_Face], y: float) -> str:
    k = max(len(faces), 5)
    gap = 6
    w = min(66.0, (W - 2 * PAD - (k - 1) * gap) / k)
    return "".join(_card(ctx, f, PAD + i * (w + gap), y, w) for i, f in enumerate(faces))


def _aboard(ctx: _Ctx, p: int, y: float) -> tuple[str, float]:
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


def _mat(ctx: _Ctx, p: int) -> tuple[str, float]:
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
        words = "an intact hull token" if burn == HULL else _burn_words(info, burn)
        body.append(text(W - 8, 50, f"you burn: {words}", anchor="end", class_="fire"))
    return "".join(body), h


def _burn_words(info: Mapping[str, Any], item: str) -> str:
    if item.startswith("cm"):
        slots = info.get("countermeasures") or []
        i = int(item[2:])
        return card_name(slots[i]["card"]) if i < len(slots) and slots[i]["card"] else "a countermeasure"
    return card_name(item)


# ---- the centre: draft, action in progress, prompts ------------------------------------------------
def _button(
    x: float, y: float, w: float, label: str, part: str, title: str, term: str | None = None, on: bool = True
) -> str:
    cls = "button" + ("" if on else " off")
    return (
        el("rect", x=x, y=y, width=w, height=30, rx=7, class_=cls)
        + text(x + w / 2, y + 20, label, class_="button-label")
        + hit(x, y, w, 30, title, part, term, rx=7)
    )


def _wrap(words: str, width: int = 56) -> list[str]:
    """``words`` in lines of at most ``width`` characters, breaking only between words."""
    return textwrap.wrap(words, width, break_long_words=False, break_on_hyphens=False)


def _para(x: float, y: float, words: str, cls: str = "small", width: int = 0) -> tuple[str, float]:
    lines = _wrap(words, width or (46 if cls == "prompt" else 54))
    return "".join(text(x, y + 14 * k, line, anchor="start", class_=cls) for k, line in enumerate(lines)), 14.0 * len(
        lines
    )


def _draft(ctx: _Ctx, y: float) -> tuple[str, float]:
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
        para, ph = _para(PAD, yy + 12, "The captains draft behind their privacy screens.")
        return "".join(body) + para, yy + ph + 10 - y
    if me["chosen"] or not hand:
        waiting = [ctx.name(q) for q, info in enumerate(ctx.players) if not info["chosen"]]
        words = "You have chosen from this hand." + (f" Waiting for {', '.join(waiting)}." if waiting else "")
        para, ph = _para(PAD, yy + 12, words)
        body.append(para)
        yy += ph + 6
    if hand:
        k = len(hand)
        gap = 5
        w = min(64.0, (W - 2 * PAD - (k - 1) * gap) / k)
        chosen = bool(me["chosen"])
        for i, card in enumerate(hand):
            face = _Face(
                card,
                title=f"In your hand: {card_name(card)}: {card_text(ctx.content, card)}"
                + ("" if chosen else " (click to choose it)"),
                term=card_name(card),
                part=None if chosen else f"hand:{card}",
                dim=chosen,
                stack=False,
            )
            body.append(_card(ctx, face, PAD + i * (w + gap), yy, w, 64))
        yy += 72
        if not chosen:
            bw = (W - 2 * PAD - 8) / 2
            body.append(
                _button(PAD, yy, bw, "Install on your mat", "use:play", "Play the chosen card onto your mat", "hand")
            )
            body.append(
                _button(
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
            para, ph = _para(
                PAD,
                yy + 10,
                "Choose a card, then install it or scrap it; or click a card on your mat to swap it out "
                "(that card is lost, no hull for it).",
            )
            body.append(para)
            yy += ph + 4
    return "".join(body), yy - y + 6


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
    size: float = 26,
) -> str:
    cls = f"die {kind}" + (" success" if success else "") + (" unrolled" if value is None else "")
    body = [el("rect", x=x, y=y, width=size, height=size, rx=5, class_=cls)]
    body.append(text(x + size / 2, y + size / 2 + 5, "·" if value is None else str(value), class_="die-value"))
    if lift:
        body.append(text(x + size - 1, y + 9, f"+{lift}", anchor="end", class_="lift"))
    if at:
        body.append(el("rect", x=x - 3, y=y - 3, width=size + 6, height=size + 6, rx=7, class_="die-at"))
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
    ctx: _Ctx, pending: Mapping[str, Any], side: str, who: int, kind: str, label: str, y: float
) -> tuple[str, float]:
    count = int(pending["an" if side == "a" else "dn"])
    dice: list[int] = list(pending[side])
    energy = int(pending["ac" if side == "a" else "dc"])
    bonus = int(pending["ab" if side == "a" else "db"])
    auto = int(pending.get("dauto", 0)) if side == "d" else 0
    success = int(pending["success"])
    complete = len(dice) == count
    lifts = _lifts(dice, energy, bonus, success) if complete else {}
    at = pending.get("at") or []
    body = [mark(who, PAD + 7, y + 9, 6, color_of(ctx.content, who), term=ctx.captain(who))]
    extra = []
    if energy:
        extra.append(f"{energy}⚡ set aside")
    if bonus:
        extra.append(f"+{bonus} per die")
    line = f"{ctx.name(who)}: {label} ×{count}" + (f" · {' · '.join(extra)}" if extra else "")
    body.append(text(PAD + 18, y + 13, line, anchor="start", class_="pool-label"))
    hits = 0
    size = 26
    per_row = int((W - 2 * PAD) // (size + 5))
    yy = y + 20
    for i in range(count):
        value = dice[i] if i < len(dice) else None
        lift = lifts.get(i, 0)
        ok = value is not None and (value + bonus + lift >= success)
        hits += ok
        here = bool(at) and at[0] == side and at[1] == i
        if value is None:
            title = f"{label}: not rolled yet"
        else:
            total = value + bonus + lift
            parts = [str(value)] + ([f"+{bonus} bonus"] if bonus else []) + ([f"+{lift} energy"] if lift else [])
            verdict = "a success" if ok else "a failure"
            title = f"{label}: {' '.join(parts)}" + (f" = {total}" if len(parts) > 1 else "") + f", {verdict}"
            if here:
                title += " (being re-rolled)"
        dx = PAD + (i % per_row) * (size + 5)
        dy = yy + (i // per_row) * (size + 6)
        body.append(_die(dx, dy, value, kind, success=ok, lift=lift, at=here, title=title, size=size))
    for k in range(auto):
        i = count + k
        dx = PAD + (i % per_row) * (size + 5)
        dy = yy + (i // per_row) * (size + 6)
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
    return "".join(body), 20 + rows * (size + 6) + 4


def _rerolls_text(ctx: _Ctx, pending: Mapping[str, Any]) -> str:
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


def _commit_prompt(ctx: _Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who = int(pending["actor"])
    side = pending["side"]
    count = int(pending["an"] if side == "a" else pending["dn"])
    energy = int(ctx.players[who]["energy"])
    top = min(energy, (int(pending["success"]) - 1) * count, MAX_COMMIT)
    role = "attack" if side == "a" else "defence"
    if ctx.seat != who:
        return text(
            PAD, y + 14, f"{ctx.name(who)} sets energy aside for the {role}…", anchor="start", class_="prompt-wait"
        ), 22
    body = [
        text(PAD, y + 14, f"Set energy aside for your {role} (you have {energy}):", anchor="start", class_="prompt")
    ]
    size, gap = 30, 5
    per_row = int((W - 2 * PAD + gap) // (size + gap))
    for e in range(top + 1):
        x = PAD + (e % per_row) * (size + gap)
        yy = y + 22 + (e // per_row) * (size + gap)
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
    return "".join(body), 22 + rows * (size + gap) + 4


def _react_prompt(ctx: _Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who = int(pending["actor"])
    if ctx.seat != who:
        return text(
            PAD, y + 14, f"{ctx.name(who)} may deploy countermeasures…", anchor="start", class_="prompt-wait"
        ), 22
    boost = ctx.content.rules.boost_cost
    can_boost = int(ctx.players[who]["energy"]) >= boost
    para, ph = _para(
        PAD,
        y + 14,
        "You are targeted! Click a face-down countermeasure on your mat, then Deploy or Boost; or deploy nothing.",
        cls="prompt",
    )
    bw = (W - 2 * PAD - 12) / 3
    yy = y + ph + 6
    body = [para]
    body.append(_button(PAD, yy, bw, "Deploy", "deploy:plain", "Deploy the chosen countermeasure", "deployed"))
    body.append(
        _button(
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
    body.append(_button(PAD + 2 * (bw + 6), yy, bw, "Nothing more", "react:done", "Deploy nothing (more)"))
    return "".join(body), ph + 6 + 36


def _attack_panel(ctx: _Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
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
            mark(t, PAD + 7, yy + 9, 6, color_of(ctx.content, t), term=ctx.captain(t))
            + text(PAD + 18, yy + 13, f"{ctx.name(t)}: {words}", anchor="start", class_="pool-label"),
            22,
        )
    body.append(pool)
    yy += ph
    return _stage(ctx, pending, body, yy, y)


def _stage(ctx: _Ctx, pending: Mapping[str, Any], body: list[str], yy: float, y: float) -> tuple[str, float]:
    stage = pending["stage"]
    rr = _rerolls_text(ctx, pending) if "rr" in pending else ""
    if rr:
        body.append(text(PAD, yy + 12, rr, anchor="start", class_="small", data_term="re-roll"))
        yy += 18
    if stage == "commit":
        part, ph = _commit_prompt(ctx, pending, yy)
    elif stage == "react":
        part, ph = _react_prompt(ctx, pending, yy)
    elif stage == "roll":
        part, ph = text(PAD, yy + 14, "Rolling the dice…", anchor="start", class_="prompt-wait"), 22
    elif stage == "mode":
        part, ph = _mode_prompt(ctx, pending, yy)
    elif stage == "defend":
        who = int(pending["actor"])
        if ctx.seat == who:
            part, ph = _para(
                PAD,
                yy + 14,
                "Choose who meets the boarder: click your captain or a crew card at home on your mat.",
                cls="prompt",
            )
        else:
            part, ph = (
                text(
                    PAD,
                    yy + 14,
                    f"{ctx.name(who)} chooses who meets the boarder…",
                    anchor="start",
                    class_="prompt-wait",
                ),
                22,
            )
    elif stage == "loot":
        part, ph = _loot_prompt(ctx, pending, yy)
    else:
        part, ph = "", 0
    body.append(part)
    yy += ph
    return "".join(body), yy - y + 6


def _title_line(ctx: _Ctx, what: str, a: int, t: int, y: float) -> str:
    """``what`` in the panel's title, then who acts on whom (each with their colour and shape)."""
    ca, ct = color_of(ctx.content, a), color_of(ctx.content, t)
    x = PAD + _width(what, 10.6) + 14
    xa = x + 12 + _width(ctx.name(a), 7.4) + 8
    return (
        text(PAD, y + 15, what, anchor="start", class_="panel-title")
        + mark(a, x, y + 10, 7, ca, term=ctx.captain(a))
        + text(x + 10, y + 15, ctx.name(a), anchor="start", class_="pool-label")
        + el(
            "g",
            text(xa + 6, y + 15, "→", class_="pool-label"),
            title=f"{what.capitalize()}: {ctx.name(a)} against {ctx.name(t)}",
        )
        + mark(t, xa + 24, y + 10, 7, ct, term=ctx.captain(t))
        + text(xa + 34, y + 15, ctx.name(t), anchor="start", class_="pool-label")
    )


def _width(words: str, per_char: float) -> float:
    """About how wide ``words`` are drawn at ``per_char`` pixels a character."""
    return len(words) * per_char


def _mode_prompt(ctx: _Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who = int(pending["actor"])
    if ctx.seat != who:
        return text(
            PAD, y + 14, f"{ctx.name(who)} chooses sabotage or combat…", anchor="start", class_="prompt-wait"
        ), 22
    crew = str(pending["crew"])
    body = [text(PAD, y + 14, "Your boarder's mission:", anchor="start", class_="prompt")]
    bw = (W - 2 * PAD - 8) / 2
    effect = {"engineer": "flip a hull token", "gunner": "spoil their attacks", "pilot": "spoil their defence"}
    if crew in SABOTEURS:
        body.append(_button(PAD, y + 22, bw, "Sabotage", "mode:sabotage", f"Sabotage: {effect[crew]}", "sabotage"))
    body.append(
        _button(
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
        para, ph = _para(
            PAD, y + 70, f"Sabotage {what}; a fight rolls teleporter dice against the crew member {t} picks."
        )
        return "".join(body) + para, 58 + ph
    return "".join(body), 58


def _loot_prompt(ctx: _Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    who, t = int(pending["actor"]), int(pending["target"])
    if ctx.seat != who:
        return text(PAD, y + 14, f"{ctx.name(who)} chooses the loot…", anchor="start", class_="prompt-wait"), 22
    para, ph = _para(
        PAD,
        y + 14,
        f"{ctx.name(t)}'s captain is dead! Take a card or an intact hull token from that ship (click it), or:",
        cls="prompt",
    )
    energy = ctx.content.rules.loot_energy
    button = _button(PAD, y + ph + 6, 150, f"+{energy} energy", "loot:energy", f"Take {energy} energy as loot", "loot")
    return para + button, ph + 42


def _board_panel(ctx: _Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
    a, t = int(pending["attacker"]), int(pending["target"])
    crew = str(pending["crew"])
    body = [_title_line(ctx, "BOARDING", a, t, y)]
    yy = y + 26
    rating = ctx.content.rating
    words = f"{ctx.name(a)}'s {card_name(crew)} (rating {rating[crew]}) teleports aboard {ctx.name(t)}'s ship."
    if pending.get("defender"):
        d = str(pending["defender"])
        words += f" {ctx.name(t)}'s {card_name(d)} (rating {rating[d]}) meets it."
    para, ph = _para(PAD, yy + 10, words)
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


def _xeno_panel(ctx: _Ctx, pending: Mapping[str, Any], y: float) -> tuple[str, float]:
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
    para, ph = _para(PAD, y + 36, f"{ctx.name(a)} aims {card_name(xeno)} at {ctx.name(t)}'s {what}.")
    body.append(para)
    return _stage(ctx, pending, body, y + 28 + ph, y)


def _turn_panel(ctx: _Ctx, y: float) -> tuple[str, float]:
    view = ctx.view
    a = int(view["active"])
    mine = ctx.seat == a
    what = "YOUR TURN" if mine else "TURN"
    x = PAD + _width(what, 10.6) + 14
    body = [
        text(PAD, y + 15, what, anchor="start", class_="panel-title"),
        mark(a, x, y + 10, 7, color_of(ctx.content, a), term=ctx.captain(a)),
        text(
            x + 10,
            y + 15,
            f"{ctx.name(a)} · {_plural(int(view['actions_left']), 'action')} left",
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
        para, ph = _para(
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
            _button(
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
        body.append(_button(PAD + bw + 8, yy, bw, "End turn", "do:end", "End your turn now", "end turn"))
        yy += 36
    return "".join(body), yy - y + 4


def _fire_panel(ctx: _Ctx, y: float) -> tuple[str, float]:
    body = [text(PAD, y + 15, f"ROUND {ctx.view['round']}: SHIPS ON FIRE", anchor="start", class_="panel-title fire")]
    para, ph = _para(PAD, y + 34, "Every captain discards a card aboard or an intact hull token, in secret.")
    body.append(para)
    yy = y + 30 + ph
    me = ctx.players[ctx.seat] if ctx.seat is not None else None
    if me is not None and me["status"] == "alive":
        if me.get("burn"):
            words = "an intact hull token" if me["burn"] == HULL else _burn_words(me, str(me["burn"]))
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


def _centre(ctx: _Ctx) -> tuple[str, float]:
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
        para, ph = _para(PAD, y + 34, f"{winners}: {view['reason']}.")
        body, h = text(PAD, y + 16, "GAME OVER", anchor="start", class_="panel-title") + para, 30 + ph
    elif pending is None:
        body, h = _turn_panel(ctx, y)
    elif pending["kind"] == "attack":
        body, h = _attack_panel(ctx, pending, y)
    elif pending["kind"] == "board":
        body, h = _board_panel(ctx, pending, y)
    elif pending["kind"] == "xeno":
        body, h = _xeno_panel(ctx, pending, y)
    else:
        rules = ctx.content.rules
        words = (
            f"{ctx.name(int(view['active']))} rolls the repair die (d{rules.repair_die}, {rules.repair_success} "
            f"or more); re-rolls left: {pending.get('rerolls', 0)}."
        )
        para, ph = _para(PAD, y + 34, words)
        body = text(PAD, y + 16, "REPAIR", anchor="start", class_="panel-title") + el(
            "g", para, title=words, data_term="repair die"
        )
        h = 30 + ph
    h = max(h + y, 60)
    return el("rect", x=0, y=0, width=W, height=h, rx=8, class_="centre") + body, h


def _header(ctx: _Ctx) -> str:
    view = ctx.view
    phase = view["phase"]
    if phase in ("deal", "draft"):
        status = f"Upgrade round {view['draft_round']} · the draft"
        term = "hand"
    elif phase == "turn":
        a = int(view["active"])
        who = "Your turn" if a == ctx.seat else f"{ctx.name(a)}'s turn"
        status = f"Round {view['round']} · {who}"
        term = "turn"
    elif phase == "fire":
        status = f"Round {view['round']} · ships on fire!"
        term = "ships on fire"
    elif phase == "over":
        status = "Game over"
        term = "turn"
    else:
        status = "The showdown begins"
        term = "turn"
    body = text(4, 20, status, anchor="start", class_="status")
    pile: Mapping[str, int] = view["public_pile"]
    total = sum(pile.values())
    fire = int(view["fire_from"])
    burning = phase not in ("deal", "draft") and fire < NO_FIRE
    sub = f"discard pile {total}" + (f" · ships burn from round {fire}" if burning else "")
    pile_title = "Discard pile (face up): " + (
        ", ".join(f"{card_name(k)} ×{n}" for k, n in pile.items() if n) if total else "empty"
    )
    return el("g", body, title=status, data_term=term) + el(
        "g", text(4, 38, sub, anchor="start", class_="small"), title=pile_title, data_term="discard pile"
    )


STYLE = """
.sd-board{font-family:system-ui,'DejaVu Sans',sans-serif;fill:#e6ebf5}
.sd-board text{stroke:none}
.sd-board .status{font-size:17px;font-weight:700}
.sd-board .small{font-size:11.5px;fill:#b7c2d8}
.sd-board .label{font-size:10px;font-weight:700;fill:#9aa6bd;letter-spacing:1px}
.sd-board .mat{fill:#111a2e;stroke-width:2}
.sd-board .mat.active{stroke-width:4;fill:#14213b}
.sd-board .mat.out{fill:#161216}
.sd-board .centre{fill:#0f1a33;stroke:#7cc4ff;stroke-width:1.5}
.sd-board .mat-name{font-size:14px;font-weight:700}
.sd-board .mat-status{font-size:11.5px;font-weight:700;fill:#ffe082}
.sd-board .mat-status.out{fill:#ff8a80}
.sd-board .energy{font-size:14px;font-weight:800;fill:#ffd54f}
.sd-board .bolt{fill:#ffd54f;stroke:#3a2a00;stroke-width:.6}
.sd-board .hull{stroke-width:1.2}
.sd-board .hull.intact{fill:#2e7d32;stroke:#a5d6a7}
.sd-board .hull.damaged{fill:#8e1c1c;stroke:#ff8a80}
.sd-board .hull-mark{font-size:11px;font-weight:800;fill:#fff}
.sd-board .card{fill:#1b2540;stroke-width:1.6}
.sd-board .card.face-down{stroke-dasharray:4 2}
.sd-board .card.deployed{fill:#2a2a12;stroke-width:3}
.sd-board .card.empty{fill:none;stroke:#3a4866;stroke-dasharray:4 3}
.sd-board .card.back{fill:#3a2e0c;stroke:#e8b931}
.sd-board .back-inner{fill:none;stroke:#e8b931;stroke-opacity:.5;stroke-dasharray:2 3}
.sd-board .back-mark{font-size:22px;font-weight:800;fill:#e8b931}
.sd-board .empty-label{font-size:10px;fill:#6f7c96}
.sd-board .card-name{font-size:10.5px;font-weight:700}
.sd-board .card-name.narrow{font-size:9px}
.sd-board .card-note{font-size:9.5px;fill:#c8d2e6}
.sd-board .count{font-size:12px;font-weight:800}
.sd-board .armor{fill:#90a4ae;stroke:#263238}
.sd-board .disabled{fill:#000;fill-opacity:.45}
.sd-board .tok-letter{font-size:9px;font-weight:800;fill:#000}
.sd-board .chip{font-size:10.5px;font-weight:600}
.sd-board .screen{fill:#1a1f2b;stroke:#4a556e;stroke-dasharray:6 3}
.sd-board .screen-text{font-size:12px;font-weight:700;fill:#9aa6bd;letter-spacing:1px}
.sd-board .mini-back{fill:#3a2e0c;stroke:#e8b931;stroke-width:.8}
.sd-board .stamp{font-size:26px;font-weight:900;fill:#ff5252;fill-opacity:.55;letter-spacing:3px}
.sd-board .fire{font-size:11px;font-weight:800;fill:#ff7043}
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
.sd-board .lift{font-size:8.5px;font-weight:800;fill:#ffd54f}
.sd-board .die-at{fill:none;stroke:#ffd54f;stroke-width:2;stroke-dasharray:3 2}
.sd-board .button{fill:#1e4f8a;stroke:#7cc4ff}
.sd-board .button.off{fill:#1a2338;stroke:#3a4866}
.sd-board .button-label{font-size:12.5px;font-weight:700}
.sd-board .ring{fill:none;stroke:#7cc4ff;stroke-width:2.5}
.sd-board .ring-head{fill:#7cc4ff}
.sd-board .hit{fill:transparent;cursor:pointer}
"""


ROOM = (940, 640)
"""The board's room on a 1280 x 720 screen beside the table's side panel: the wide arrangement's
columns are chosen to draw it largest there."""


def _grid(areas: list[tuple[str, float]], cols: int) -> tuple[float, float, list[tuple[float, float]]]:
    """The wide arrangement in ``cols`` columns: its width, height and each area's place."""
    pos: list[tuple[float, float]] = []
    y = float(HEADER_H)
    for row in range(0, len(areas), cols):
        cells = areas[row : row + cols]
        for k in range(len(cells)):
            pos.append((float(k * (W + GAP)), y))
        y += max(h for _, h in cells) + GAP
    return float(cols * W + (cols - 1) * GAP), y - GAP + 4, pos


def board_svg(content: Content, view: JSON, seat: int | None) -> str:
    """The whole table of ``view`` as one ``<svg>`` in two arrangements (tall: its viewBox; wide)."""
    ctx = _Ctx(content, view, seat)
    n = len(ctx.players)
    order = list(range(n)) if seat is None else [(seat + k) % n for k in range(n)]
    areas: list[tuple[str, float]] = [_centre(ctx)] + [_mat(ctx, p) for p in order]
    # tall: everything stacked under the status line
    tall_pos = []
    y = float(HEADER_H)
    for _, h in areas:
        tall_pos.append((0.0, y))
        y += h + GAP
    tall_h = y - GAP + 4
    tall = f"0 0 {W} {tall_h:.0f}"
    # wide: a grid, the centre first, then your mat beside it, in the columns that draw it largest
    wide_w, wide_h, wide_pos = max(
        (_grid(areas, cols) for cols in (2, 3, 4)), key=lambda g: min(ROOM[0] / g[0], ROOM[1] / g[1])
    )
    wide = f"0 0 {wide_w} {wide_h:.0f}"
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


__all__ = ["action_parts", "board_svg", "card_text", "glossary"]
