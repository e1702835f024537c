"""Showdown in the terminal: every captain's mat as the viewing seat may see it, and action labels.

``render`` draws only from ``state.view(seat)``, so a resample draws the same
picture and nothing hidden (hands, face-down countermeasures, draft picks) shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spacetable.engine import Action, Roll
from spacetable.engine.words import article, count

from ..content import CARD_KINDS, card_name
from ..rules.actions import (
    ENERGY,
    HULL,
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

__all__ = ["action_groups", "action_label", "card_name", "render"]
from ..rules.state import AI_REUSED, ShowdownState


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
def render(state: ShowdownState, seat: int | None = None) -> str:
    """Every mat as ``seat`` sees it, the action in progress, and whose turn it is (rich markup)."""
    view = state.view(seat)
    lines = [_header(state, view)]
    for p, info in enumerate(view["players"]):
        lines += _mat(state, view, p, info, seat)
    pending = _pending(state, view)
    if pending:
        lines.append(pending)
    return "\n".join(lines)


def _header(state: ShowdownState, view: dict[str, Any]) -> str:
    phase = view["phase"]
    if phase in ("deal", "draft"):
        way = "clockwise" if view["draft_round"] % 2 else "counter-clockwise"
        return f"[bold]Upgrade round {view['draft_round']}[/] (hands pass {way}) · deck {view['deck_size']}"
    if phase == "over":
        return f"[bold]Game over[/]: {escape(view['reason'])}"
    if phase == "fire":
        return f"[bold red]Round {view['round']}: the ships are on fire[/]"
    if phase == "first":
        return "[bold]The showdown begins[/]"
    active = _captain(state, view["active"])
    return f"[bold]Round {view['round']}[/] · {escape(active)}'s turn · {count(view['actions_left'], 'action')} left"


def _cards(mat: dict[str, int]) -> str:
    parts = []
    for kind in CARD_KINDS:
        n = mat.get(kind, 0)
        if n:
            parts.append(f"{card_name(kind)}×{n}" if n > 1 else card_name(kind))
    return ", ".join(parts) or "no upgrades"


def _mat(state: ShowdownState, view: dict[str, Any], p: int, info: dict[str, Any], seat: int | None) -> list[str]:
    captain = state.content.captains[p]
    you = " (you)" if seat == p else ""
    head = f"[bold {captain.color}]{escape(captain.name)}[/]{you} · {_STATUS[info['status']]} · energy {info['energy']}"
    lines = [head]
    if "mat" not in info:
        chosen = " · [green]has chosen[/]" if info["chosen"] and view["phase"] == "draft" else ""
        lines.append(f"    behind the screen · {count(info['hand_size'], 'card')} in hand{chosen}")
        return lines
    hull = "[green]" + "■" * info["intact"] + "[/][red]" + "□" * info["damaged"] + "[/]"
    lines.append(f"    hull {hull} {info['intact']} intact, {info['damaged']} damaged")
    lines.append(f"    cards: {_cards(info['mat'])}")
    cms = []
    for slot in info["countermeasures"]:
        text = card_name(slot["card"]) if slot["card"] else "face-down"
        flags = [f for f, on in (("deployed", slot["deployed"]), ("boosted", slot["boosted"])) if on]
        if slot["ai"]:
            flags.append("AI used" if slot["ai"] == AI_REUSED else "AI token")
        if slot["armor"]:
            flags.append(f"{slot['armor']} armor")
        cms.append(text + (f" ({', '.join(flags)})" if flags else ""))
    if cms:
        lines.append("    countermeasures: " + " · ".join(cms))
    disabled = [
        f"{card_name(xeno)} on {_token_target(info, card)} (until {escape(_captain(state, owner))}'s turn ends)"
        for owner, xeno, target, card, _wait in view["tokens"]
        if target == p
    ]
    if disabled:
        lines.append("    disabled: " + "; ".join(disabled))
    aboard = [
        f"{escape(_captain(state, owner))}'s {card_name(crew)}" + (" (sabotaging)" if mode else "")
        for owner, crew, host, _wait, mode, _loot in view["boarders"]
        if host == p
    ]
    if aboard:
        lines.append("    enemy crew aboard: " + ", ".join(aboard))
    if info.get("hand"):
        lines.append("    [bold]your hand[/]: " + ", ".join(card_name(c) for c in info["hand"]))
    if info.get("burn"):
        lines.append(f"    you will discard: {card_name(info['burn'])}")
    return lines


def _token_target(info: dict[str, Any], card: str) -> str:
    if card.startswith("#"):
        for slot in info.get("countermeasures", []):
            if f"#{slot['id']}" == card:
                return card_name(slot["card"]) if slot["card"] else "a face-down countermeasure"
        return "a countermeasure"
    return card_name(card)


def _pending(state: ShowdownState, view: dict[str, Any]) -> str:
    pending = view["pending"]
    if not pending:
        return ""
    kind = pending["kind"]
    if kind == "repair":
        return "[bold]Repair[/] in progress"
    a, t = escape(_captain(state, pending["attacker"])), escape(_captain(state, pending["target"]))
    if kind == "attack":
        text = f"[bold]Attack[/]: {a} → {t}" + (" (double)" if pending["double"] else "")
        text += f"\n    {a}: {pending['an']} dice, {pending['ac']} energy set aside"
        if pending["dn"]:
            text += f" · {t}: {pending['dn']} dice, {pending['dc']} energy set aside"
        if pending["a"] or pending["d"]:
            text += f"\n    dice: {' '.join(map(str, pending['a']))} against {' '.join(map(str, pending['d'])) or '-'}"
        return text
    if kind == "board":
        return f"[bold]Boarding[/]: {a}'s {card_name(pending['crew'])} aboard {t}'s ship"
    return f"[bold]{card_name(pending['xeno'])}[/]: {a} targets {t}"
