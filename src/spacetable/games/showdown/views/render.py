"""Showdown in the terminal: every captain's mat as the viewing seat may see it, and action labels.

:func:`render` and :func:`compact` draw only from ``state.view(seat)``, so a resample draws the
same picture and nothing hidden (hands, face-down countermeasures, draft picks) shows;
:func:`compact` fits :data:`COMPACT_COLUMNS` x :data:`COMPACT_ROWS` (the terminal app's board
panel at 80x24). Both tag each element an action can involve ``[@part='ID']...[/]`` with the ids
of :func:`.web.action_parts` (a card on one's own mat ``mine:<kind>``, ``mycm:<i>``, another ship
``captain:<seat>``, a xenotech's target ``ship:<seat>:<card>``, loot ``loot:<item>``, the hand
``hand:<kind>``, and the buttons ``[End turn]`` and the like), which the terminal app makes
clickable. Each captain's name is led by the seat's shape (▲ ● ■ ◆ ★ ⬢, as on the web board)
and hull tokens are ``▮`` intact, ``▯`` damaged, so no colour tells anything alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from spacetable.engine import Action, Roll
from spacetable.engine.words import article, count

from ..content import CARD_KINDS, CREW, XENOTECH, card_name
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
    Draw,
    EndTurn,
    First,
    Hack,
    Loot,
    Pick,
    Psionics,
    Repair,
    Reprogram,
    Teleport,
)
from ..rules.state import AI_REUSED, ShowdownState
from .web_fight import SABOTEURS
from .web_markup import Ctx
from .web_words import burn_words, shape_name

__all__ = ["action_groups", "action_label", "card_name", "compact", "render"]


def escape(text: str) -> str:
    """Text that shows as itself inside rich markup (a user's captain name may hold brackets)."""
    return text.replace("[", "\\[")


_STATUS = {"alive": "[green]in the game[/]", "lifeless": "[red]captain killed[/]", "destroyed": "[red]wrecked[/]"}


def _captain(state: ShowdownState, p: int) -> str:
    return state.content.captains[p].name


def _slot_name(state: ShowdownState, p: int, index: int, viewer: int | None = None) -> str:
    slots = state.cms[p]
    if index >= len(slots):
        return f"countermeasure {index + 1}"
    slot = slots[index]
    if not (slot.known or viewer == p):
        return f"face-down countermeasure {index + 1}"
    seen = [other.card for i, other in enumerate(slots) if i != index and (other.known or viewer == p)]
    twin = slot.card in seen  # two of one card: name them by slot
    return f"{card_name(slot.card)} {index + 1}" if twin else card_name(slot.card)


def action_label(state: ShowdownState, action: Action) -> str:
    """A short human label; names what the acting seat may know only."""
    kind = type(action)
    if kind is Roll:
        return f"roll {action[0]}"
    if kind is Draw:
        return f"deal {card_name(action[0])}"
    if kind is First:
        return f"{_captain(state, action[0])} plays first"
    if kind is Pick:
        card, use, replace = action[0], action[1], action[2]
        if use == HULL:
            return f"discard {card_name(card)} for a hull token"
        return f"play {card_name(card)}" + (f" in place of your {card_name(replace)}" if replace else "")
    if kind is Attack:
        target = _captain(state, action[0])
        return f"double attack {target} (both actions)" if action[1] else f"attack {target}"
    if kind is Charge:
        return "charge reactor"
    if kind is Repair:
        return "repair hull"
    if kind is Teleport:
        return f"teleport {article(card_name(action[1]))} aboard {_captain(state, action[0])}'s ship"
    if kind is Hack:
        target, card = action[0], action[1]
        what = _slot_name(state, target, int(card[2:])) if card.startswith("cm") else card
        return f"hack {_captain(state, target)}'s {card_name(what)}"
    if kind is Psionics:
        return f"psionics on {_captain(state, action[0])}'s {card_name(action[1])}"
    if kind is Reprogram:
        return f"AI token on your {_slot_name(state, state.active, action[0], state.active)}"
    if kind is EndTurn:
        return "end turn"
    if kind is Commit:
        return f"set aside {action[0]} energy"
    if kind is Deploy:
        owner = state.pending["actor"] if state.pending else -1
        text = f"deploy {_slot_name(state, owner, action[0], owner)}"
        return text + f" boosted ({state.content.rules.boost_cost} energy)" if action[1] else text
    if kind is Done:
        return "deploy nothing more"
    if kind is Board:
        return "sabotage" if action[0] == "sabotage" else "fight the crew (teleporter combat)"
    if kind is Defend:
        return f"defend with your {card_name(action[0])}"
    if kind is Loot:
        item = action[0]
        if item == HULL:
            return "loot an intact hull token"
        if item == ENERGY:
            return f"loot {state.content.rules.loot_energy} energy"
        return f"loot {card_name(item)}"
    if kind is Burn:
        item = action[0]
        if item == HULL:
            return "discard an intact hull token"
        if item.startswith("cm"):  # a countermeasure slot: whose is the seat's own (the burn is simultaneous)
            return f"discard your countermeasure in slot {int(item[2:]) + 1}"
        return f"discard {card_name(item)}"
    return repr(action)


def action_groups(state: ShowdownState, actions: Sequence[Action]) -> list[tuple[str, list[Action]]] | None:
    """Draft picks grouped by card; a long turn menu grouped by kind of action."""
    if not actions:
        return None
    key: Any
    if all(isinstance(a, Pick) for a in actions):

        def key(a: Action) -> str:
            return card_name(a[0])
    elif len(actions) > 9 and state.pending is None:

        def key(a: Action) -> str:
            return type(a).__name__.lower().replace("endturn", "end turn")
    else:
        return None
    groups: dict[str, list[Action]] = {}
    for a in actions:
        groups.setdefault(key(a), []).append(a)
    return list(groups.items()) if len(groups) > 1 else None


# ---- the table ------------------------------------------------------------------------------

COMPACT_COLUMNS, COMPACT_ROWS = 78, 15
"""The most :func:`compact` draws: the terminal app's board panel at 80x24."""
FULL_COLUMNS = 100
"""Where :func:`render` wraps its lines."""
MARKS = {"triangle": "▲", "circle": "●", "square": "■", "diamond": "◆", "star": "★", "hexagon": "⬢"}
"""Each seat's shape (:data:`.web_words.SHAPES`, as on the web board), before its captain's name."""
SHORT_NAMES = {
    "engine": "Eng",
    "weapon": "Wpn",
    "engineer": "Engr",
    "gunner": "Gunr",
    "pilot": "Pilot",
    "cryo": "Cryo",
    "ai": "AI",
    "hacking": "Hack",
    "psionics": "Psi",
    "adrenal_stim": "Stim",
    "armor_plating": "Armor",
    "energy_shields": "Shields",
    "frequency_scrambler": "Scrambler",
    "nitro_fuel": "Nitro",
    "security_drone": "Drone",
}
"""The card names :func:`compact` falls back on where the printed ones do not fit."""
WAITING = {
    "commit": "sets energy aside",
    "react": "may deploy countermeasures",
    "mode": "chooses the boarder's mission",
    "defend": "chooses who meets the boarder",
    "loot": "chooses the loot",
}
"""What the table waits for, by the stage of the action in progress."""
SLOT_SIGNS = {"face down": "▽", "deployed": "", "boosted": "+"}
"""How :func:`compact` marks a countermeasure's state after its name."""
USED_WORDS = {"charge": "charged", "repair": "repaired", "teleport": "teleported", "xenotech": "used xenotech"}
TAG = re.compile(r"(?<!\\)\[[^\]]*\]")
"""A rich markup tag such as ``[bold]``, ``[@part='do:end']`` or ``[/]`` (an escaped ``\\[`` is text)."""


def part(part_id: str | None, markup: str) -> str:
    """``markup`` tagged as the board part ``part_id`` (rich meta ``@part``, the browser's
    ``data-part``); None leaves it untagged."""
    if part_id is None:
        return markup
    if set(part_id) & set("'[]\\"):
        raise ValueError(f"a part id cannot hold quotes, brackets or backslashes: {part_id!r}")
    return f"[@part='{part_id}']{markup}[/]"


def width(markup: str) -> int:
    """The columns a line of this module's markup prints (it draws single-width characters only)."""
    return len(TAG.sub("", markup).replace("\\[", "["))


def button(part_id: str, label: str) -> str:
    """A button on the table: ``[label]``."""
    return part(part_id, f"[bold]{escape(f'[{label}]')}[/]")


@dataclass(frozen=True)
class Table:
    """What a drawing reads: the view of the seat looking (None: a spectator) and what a click on
    each element means to that seat (the ids of :func:`.web.action_parts`); ``short``: the card
    names of :data:`SHORT_NAMES` and captains' names cut at 16 characters."""

    state: ShowdownState
    seat: int | None
    short: bool = False

    @cached_property
    def ctx(self) -> Ctx:
        return Ctx(self.state.content, self.state.view(self.seat), self.seat)

    @property
    def view(self) -> Mapping[str, Any]:
        return self.ctx.view

    def name(self, kind: str) -> str:
        return escape(SHORT_NAMES[kind] if self.short and kind in SHORT_NAMES else card_name(kind))

    def who(self, p: int) -> str:
        """Captain ``p``'s shape and name, in the seat's colour."""
        captain = self.state.content.captains[p]
        name = captain.name[:16] if self.short else captain.name
        return f"[bold {captain.color}]{MARKS[shape_name(p)]} {escape(name)}[/]"

    def ship(self, p: int) -> str | None:
        """The part of ``p``'s whole ship: none for the viewer's own or a wreck."""
        return None if p == self.seat or self.ctx.players[p]["status"] == "destroyed" else f"captain:{p}"

    def card(self, p: int, key: str, own: str | None) -> str | None:
        """The part of ``p``'s card ``key`` (a kind, ``xenotech``, ``cm<i>``): ``own`` on the viewer's
        mat; elsewhere a xenotech's target or the whole ship."""
        if p == self.seat:
            return own
        aim = self.ctx.my_xeno() if self.ctx.players[p]["status"] == "alive" else ""
        if (aim == "hacking" and (key in ("engine", "weapon", "xenotech") or key.startswith("cm"))) or (
            aim == "psionics" and key in CREW
        ):
            return f"ship:{p}:{key}"
        return self.ship(p)

    def hull(self, p: int) -> str | None:
        if p == self.seat:
            return "use:hull" if self.view["phase"] == "draft" else "mine:hull"
        return "loot:hull" if self.ctx.loot_target() == p else self.ship(p)


def _hull(info: dict[str, Any]) -> str:
    """Hull tokens, ``▮`` intact and ``▯`` damaged (counted where there are many)."""
    intact, damaged = info["intact"], info["damaged"]
    if intact + damaged > 10:
        return f"hull [green]{intact}▮[/] [red]{damaged}▯[/]"
    return f"hull [green]{'▮' * intact}[/][red]{'▯' * damaged}[/]"


def _cards(table: Table, p: int, words: bool) -> tuple[list[str], list[str]]:
    """``p``'s upgrade cards and countermeasures, each followed by the shapes of the captains whose
    tokens disable it (``⊘▲``); a countermeasure's state in ``words`` (face down, AI token...), or
    in signs (``▽`` face down, ``+`` boosted, ``·AI``)."""
    info, view = table.ctx.players[p], table.view
    looting = table.ctx.loot_target() == p
    disabled: dict[str, str] = {}
    for owner, _xeno, target, card, _wait in view["tokens"]:
        if target == p:
            disabled[card] = disabled.get(card, "") + f"⊘{MARKS[shape_name(owner)]}"
    upgrades = []
    for kind in CARD_KINDS:
        n = info["mat"].get(kind, 0)
        key = "xenotech" if kind in XENOTECH else kind
        if n:
            tagged = f"loot:{kind}" if looting else table.card(p, key, f"mine:{kind}")
            upgrades.append(part(tagged, table.name(kind) + (f"×{n}" if n > 1 else "")) + disabled.get(key, ""))
    draft, cms = view["phase"] == "draft", []
    for i, slot in enumerate(info["countermeasures"]):
        flags = ["boosted" if slot["boosted"] else "deployed" if slot["deployed"] else "face down"]
        flags += ["AI used" if slot["ai"] == AI_REUSED else "AI token"] if slot["ai"] else []
        flags += [f"{slot['armor']} armor"] if slot["armor"] else []
        signs = SLOT_SIGNS[flags[0]] + "".join(f"·{flag.removesuffix(' token')}" for flag in flags[1:])
        card = slot["card"]
        tagged = (
            f"loot:{card}" if looting and card else table.card(p, f"cm{i}", f"mine:{card}" if draft else f"mycm:{i}")
        )
        shown = table.name(card) if card else ("countermeasure" if words else "?")
        shown += f" ({', '.join(flags)})" if words else signs
        cms.append(part(tagged, shown) + disabled.get(f"#{slot['id']}", ""))
    return upgrades, cms


def _aboard(table: Table, p: int) -> list[str]:
    """The enemy crew aboard ``p``'s ship, each led by its owner's shape."""
    return [
        f"{MARKS[shape_name(owner)]}{table.name(crew)}" + (" sabotaging" if mode == "sabotage" else "")
        for owner, crew, host, _wait, mode, _loot in table.view["boarders"]
        if host == p
    ]


def _flow(pieces: Sequence[str], limit: int, indent: int = 0) -> list[str]:
    """``pieces`` laid out in lines of at most ``limit`` columns, a space apart; the lines after
    the first ``indent`` columns in."""
    lines: list[str] = []
    for piece in pieces:
        if lines and width(lines[-1]) + 1 + width(piece) <= limit:
            lines[-1] += " " + piece
        else:
            lines.append((" " * indent if lines else "") + piece)
    return lines


def _plain(text: str) -> list[str]:
    """Plain words as pieces to wrap between."""
    return escape(text).split()


def _centre(table: Table) -> list[list[str]]:
    """The middle of the table as paragraphs of pieces: the draft's hand and buttons, the turn's
    buttons, ships on fire, and the action in progress with what it asks of the viewer."""
    view, ctx = table.view, table.ctx
    me = ctx.players[table.seat] if table.seat is not None else None
    phase, pending = view["phase"], view["pending"]
    if phase == "draft" and me is not None:
        hand = [part(f"hand:{card}", table.name(card)) for card in me["hand"]]
        paragraphs = [["[bold]your hand:[/]", *_commas(hand)]] if hand else []
        if hand and not me["chosen"]:
            return [*paragraphs, [button("use:play", "Install"), button("use:hull", "Scrap: +1 hull")]]
        waiting = [table.who(q) for q, info in enumerate(ctx.players) if not info["chosen"]]
        return [*paragraphs, [*_plain("You have chosen. Waiting for"), *waiting]] if waiting else paragraphs
    if phase == "fire":
        words = _plain("Every captain discards a card aboard or an intact hull token, in secret.")
        waiting = [
            table.who(q) for q, info in enumerate(ctx.players) if info["status"] == "alive" and not info["chosen"]
        ]
        return [words, [*_plain("Still choosing:"), *waiting]] if waiting else [words]
    if phase == "turn" and pending is None:
        done = [USED_WORDS.get(u, u) for u in view["used"]] + [f"attacked {table.who(t)}" for t in view["attacked"]]
        paragraphs = [[*_plain("This turn:"), *_commas(done)]] if done else []
        if ctx.my_turn():
            paragraphs.append([button("double", "Double attack"), button("do:end", "End turn")])
        return paragraphs
    return _pending(table, pending) if phase == "turn" else []


def _pending(table: Table, pending: dict[str, Any]) -> list[list[str]]:
    kind = pending["kind"]
    if kind == "repair":
        rules = table.state.content.rules
        return [
            [
                "[bold]Repair:[/]",
                table.who(table.view["active"]),
                *_plain(
                    f"rolls d{rules.repair_die}, {rules.repair_success} or more; re-rolls left {pending['rerolls']}"
                ),
            ]
        ]
    a, t = table.who(pending["attacker"]), table.who(pending["target"])
    if kind == "attack":
        title = ["[bold]Double attack:[/]" if pending["double"] else "[bold]Attack:[/]", a, "→", t]
    elif kind == "board":
        title = ["[bold]Boarding:[/]", f"{a}'s", table.name(pending["crew"]), *_plain("aboard"), f"{t}'s", "ship"]
        if pending.get("defender"):
            title += ["·", *_plain("meeting it:"), table.name(pending["defender"])]
    else:
        title = [f"[bold]{card_name(pending['xeno'])}:[/]", a, "→", f"{t}'s", _xeno_target(table, pending)]
    paragraphs = [title]
    for side, who in (("a", a), ("d", t)):
        if f"{side}n" in pending and (pending[f"{side}n"] or pending[side]):
            dice = " ".join(map(str, pending[side])) or "-"
            extra = f", {pending[f'{side}c']} energy set aside" if pending[f"{side}c"] else ""
            n = pending[f"{side}n"]
            paragraphs.append([who, *_plain(f"{n} {'die' if n == 1 else 'dice'}: {dice}{extra}")])
    return [*paragraphs, _prompt(table, pending)]


def _xeno_target(table: Table, pending: dict[str, Any]) -> str:
    key, target = pending["card"], table.ctx.players[pending["target"]]
    if key.startswith("#"):
        slot = next((s for s in target.get("countermeasures", []) if f"#{s['id']}" == key), None)
        return table.name(slot["card"]) if slot and slot["card"] else "countermeasure"
    if key == "xenotech":
        return table.name(next((x for x in XENOTECH if target.get("mat", {}).get(x)), "xenotech"))
    return table.name(key)


def _prompt(table: Table, pending: dict[str, Any]) -> list[str]:
    """What the action in progress waits for: buttons for the viewer asked, else whom it waits for."""
    stage = pending["stage"]
    if stage == "roll":
        return _plain("Rolling the dice…")
    actor = int(pending["actor"])
    if actor != table.seat:
        return [table.who(actor), *_plain(WAITING.get(stage, "acts") + "…")]
    if stage == "commit":
        side = pending["side"]
        dice, energy = pending["an" if side == "a" else "dn"], table.ctx.players[actor]["energy"]
        top = min(energy, (pending["success"] - 1) * dice, MAX_COMMIT)
        return [*_plain("Set energy aside:"), *(button(f"commit:{e}", str(e)) for e in range(top + 1))]
    if stage == "react":
        boost = f"Boost ({table.state.content.rules.boost_cost} energy)"
        asked = _plain("You are targeted: pick a face-down countermeasure (▽) on your mat, then")
        return [
            *asked,
            button("deploy:plain", "Deploy"),
            button("deploy:boost", boost),
            button("react:done", "Nothing more"),
        ]
    if stage == "mode":
        sabotage = [button("mode:sabotage", "Sabotage")] if pending["crew"] in SABOTEURS else []
        return [*_plain("Your boarder's mission:"), *sabotage, button("mode:combat", "Fight the crew")]
    if stage == "defend":
        return _plain("Choose who meets the boarder: your captain (your name) or a crew member on your mat.")
    if stage != "loot":
        return []
    energy = table.state.content.rules.loot_energy
    return [
        *_plain("Take a card or an intact hull token from that ship, or"),
        button("loot:energy", f"+{energy} energy"),
    ]


def _header(table: Table) -> list[str]:
    """The round and whose turn it is (or the draft, the fire, the winners), as pieces to lay out."""
    view = table.view
    phase = view["phase"]
    if phase in ("deal", "draft"):
        way = "clockwise" if view["draft_round"] % 2 else "counter-clockwise"
        return [
            f"[bold]Upgrade round {view['draft_round']}[/]",
            *_plain(f"(hands pass {way}) · deck {view['deck_size']}"),
        ]
    if phase == "over":
        winners = _commas([table.who(p) for p in view["winners"]]) or ["nobody"]
        return ["[bold]Game over:[/]", *winners, *_plain(f"· {view['reason']}")]
    if phase == "fire":
        return [f"[bold red]Round {view['round']}:[/]", *_plain("the ships are on fire")]
    if phase == "first":
        return ["[bold]The showdown begins[/]"]
    left = count(view["actions_left"], "action")
    return [f"[bold]Round {view['round']}[/]", "·", f"{table.who(view['active'])}'s", *_plain(f"turn · {left} left")]


def _head(table: Table, p: int, always_status: bool) -> str:
    """Captain ``p``: shape and name (a click: the ship; on one's own, the captain), status, energy."""
    info = table.ctx.players[p]
    name = part("mine:captain" if p == table.seat else table.ship(p), table.who(p))
    you = " (you)" if p == table.seat else ""
    status = f" · {_STATUS[info['status']]}" if always_status or info["status"] != "alive" else ""
    return f"{name}{you}{status} · energy {info['energy']}"


def _screened(table: Table, p: int) -> str:
    info = table.ctx.players[p]
    chosen = " · [green]has chosen[/]" if info["chosen"] and table.view["phase"] == "draft" else ""
    return f"behind the screen · {count(info['hand_size'], 'card')} in hand{chosen}"


def _commas(pieces: list[str], mark: str = ",") -> list[str]:
    """``pieces`` with ``mark`` after each but the last, to be laid out as a list."""
    return [piece + mark for piece in pieces[:-1]] + pieces[-1:]


def _mat(table: Table, p: int) -> list[str]:
    """Captain ``p``'s mat in :func:`render`: a line each for the hull, the cards, the
    countermeasures, the tokens on them and the enemy crew aboard."""
    info, view = table.ctx.players[p], table.view
    lines = [_head(table, p, always_status=True)]
    if "mat" not in info:
        return [*lines, f"    {_screened(table, p)}"]
    hull = part(table.hull(p), _hull(info))
    lines.append(f"    {hull} {info['intact']} intact, {info['damaged']} damaged")
    upgrades, cms = _cards(table, p, words=True)
    lines += _flow(["    cards:", *_commas(upgrades or ["no upgrades"])], FULL_COLUMNS, 8)
    if cms:
        lines += _flow(["    countermeasures:", *_commas(cms)], FULL_COLUMNS, 8)
    disabled = [
        f"{card_name(xeno)} on {_token_target(info, card)} (until {table.who(owner)}'s turn ends)"
        for owner, xeno, target, card, _wait in view["tokens"]
        if target == p
    ]
    if disabled:
        lines += _flow(["    disabled:", *_commas(disabled, ";")], FULL_COLUMNS, 8)
    aboard = [
        f"{table.who(owner)}'s {table.name(crew)}" + (" (sabotaging)" if mode == "sabotage" else "")
        for owner, crew, host, _wait, mode, _loot in view["boarders"]
        if host == p
    ]
    if aboard:
        lines += _flow(["    enemy crew aboard:", *_commas(aboard)], FULL_COLUMNS, 8)
    if info.get("burn"):
        lines.append(f"    you will discard: {_burning(info)}")
    return lines


def render(state: ShowdownState, seat: int | None = None) -> str:
    """Every mat as ``seat`` sees it, whose turn it is, and the middle of the table: the hand
    being drafted, the action in progress and the buttons of the viewer asked (rich markup)."""
    table = Table(state, seat)
    lines = _flow(_header(table), FULL_COLUMNS, 4)
    for p in range(len(table.ctx.players)):
        lines += _mat(table, p)
    for paragraph in _centre(table):
        lines += _flow(paragraph, FULL_COLUMNS, 4)
    return "\n".join(lines)


def _compact_mat(table: Table, p: int, limit: int) -> list[str]:
    """Captain ``p``'s mat in :func:`compact`: one paragraph in lines of at most ``limit`` columns."""
    info = table.ctx.players[p]
    head = _head(table, p, always_status=False) + " ·"
    if "mat" not in info:
        return _flow([head, *_screened(table, p).split()], limit, 4)
    upgrades, cms = _cards(table, p, words=False)
    pieces = [head, part(table.hull(p), _hull(info)) + " ·", *(upgrades or ["no upgrades"]), *cms]
    aboard = _aboard(table, p)
    if aboard:
        pieces += [f"· aboard: {aboard[0]}", *aboard[1:]]
    if info.get("burn"):
        pieces += ["· discarding:", *_plain(_burning(info))]
    return _flow(pieces, limit, 4)


def compact(state: ShowdownState, seat: int | None = None) -> str:
    """The table in at most COMPACT_ROWS lines of COMPACT_COLUMNS columns: the mats a paragraph
    each (the viewer's first, then the others in turn order), then the middle of the table.
    Where the printed card names do not fit it takes the short ones, and where even those do
    not it cuts the other captains' paragraphs to a line each."""
    n = len(state.view(seat)["players"])
    order = list(range(n)) if seat is None else [(seat + k) % n for k in range(n)]
    for short, cut in ((False, False), (True, False), (True, True)):
        table = Table(state, seat, short)
        lines = _flow(_header(table), COMPACT_COLUMNS, 2)
        for p in order:
            if cut and p != seat:
                mat = _compact_mat(table, p, COMPACT_COLUMNS - 1)
                lines.append(mat[0] + ("…" if len(mat) > 1 else ""))
            else:
                lines += _compact_mat(table, p, COMPACT_COLUMNS)
        for paragraph in _centre(table):
            lines += _flow(paragraph, COMPACT_COLUMNS, 2)
        if len(lines) <= COMPACT_ROWS:
            break
    return "\n".join(lines)


def _burning(info: dict[str, Any]) -> str:
    """What the viewer will discard when the ships burn."""
    return "an intact hull token" if info["burn"] == HULL else burn_words(info, info["burn"])


def _token_target(info: dict[str, Any], card: str) -> str:
    if card.startswith("#"):
        for slot in info.get("countermeasures", []):
            if f"#{slot['id']}" == card:
                return card_name(slot["card"]) if slot["card"] else "a face-down countermeasure"
        return "a countermeasure"
    return card_name(card)
