"""The turn guide: one line saying what is happening and what the viewer may do, from a view alone.

It follows the rules' order of decisions (a question asked, a captured planet's card, a random
event, a card that may be cancelled, a roll's card windows, the end-of-turn trading window, the
turn itself), in the words of the rulebook's turn order. Whose decision it is comes from the view's
``to_act``, which the rules fill; what the seat may do on its turn, from its legal moves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from spacetable.engine import Action, Outcome

from ..rules.actions import ship_bits
from .web_markup import Ctx, board_of, game_terms
from .web_side import target_words

if TYPE_CHECKING:
    from ..game import Mothership

QUESTIONS = {
    "artifact": "which artifact to keep",
    "cannon": "where the guardian cannon goes",
    "group": "which reward to take",
    "option": "which option of the beacon card to follow",
    "pull": "which space the black hole pulls the ship into",
    "repair": "what to repair",
    "strike": "what to strike",
    "tech": "which technology to take",
    "warp": "where the ship warps to",
    "warp_out": "where the ship warps out of the black hole",
}
"""What each of the rules' questions (``view["choice"]["what"]``) asks, in words."""


def guide(game: Mothership, view: Mapping[str, Any], seat: int | None, actions: Sequence[Action] = ()) -> str:
    """The line for ``seat`` (None: a spectator) at ``view``, where its legal moves are ``actions``."""
    phase = view["phase"]
    if phase == "board":
        return "Set-up: the board is being generated"
    board = board_of(game, view)
    assert board is not None
    me = seat if seat is not None and 0 <= seat < game.fleets else None
    ctx = Ctx(game, view, board, me, game_terms(game))
    if phase == "over":
        winners = ", ".join(ctx.player(s) for s in view["winners"]) or "nobody"
        return f"Game over: {winners} won. {view['reason']}"
    to_act = list(view.get("to_act", ()))
    mine = me is not None and me in to_act
    who = ctx.player(to_act[0]) if to_act else None
    if phase == "order":
        return "Set-up: a die for each player decides who starts"
    if phase == "place":
        if mine:
            ship = next(s for s, cell in enumerate(view["pos"][me]) if cell < 0)
            return (
                f"Set-up: place your {game.ship_names[ship]} on a marked space by your colony station, "
                "or place the rest in the standard formation"
            )
        return f"Set-up: {who} places their ships" if who else "Set-up: the ships are being placed"
    return f"Round {view['round']} · " + _in_turn(ctx, mine, who, actions)


def _in_turn(ctx: Ctx, mine: bool, who: str | None, actions: Sequence[Action]) -> str:
    view = ctx.view
    c = ctx.game.content
    turn = ctx.player(view["turn"])
    choice = view["choice"]
    if choice:
        question = QUESTIONS.get(choice["what"], "one of the answers")
        return f"choose {question}: a button in the Now panel" if mine else f"{who} chooses {question}"
    if view["reward"]:
        if mine:
            return "you captured a planet: take the top card of the deck, or steal one blindly from its owner"
        return f"{who} takes a card for the captured planet"
    if view["event_roll"]:
        return "random event: double it or avoid it" if mine else f"{who} decides on the random event"
    if view["cancel"]:
        seat, card = view["playing"][0], view["playing"][1]
        name = c.cards[card].name
        if mine:
            return f"{ctx.player(seat)} plays {name}: cancel it with a card of yours, or pass to let it be played"
        return f"{ctx.player(seat)} plays {name}: {who} may cancel it"
    pending = view["pending"]
    if pending:
        return _roll(ctx, pending, mine, who)
    if view["trading"]:
        if mine:
            return f"trading window after {turn}'s turn: buy or sell cards now, or pass"
        return f"trading window after {turn}'s turn: {who} may buy or sell cards"
    if not mine:
        return f"{turn}'s turn: moving, attacking and trading"
    return "your turn: " + _turn_steps(ctx, actions)


def _turn_steps(ctx: Ctx, actions: Sequence[Action]) -> str:
    """What the player on turn may still do, in the turn's order, from its legal moves."""
    seat = ctx.view["turn"]
    kinds = {action[-1] for action in actions}
    steps = []
    if "energy" in kinds:
        steps.append(f"set your energy — engines, weapons, shields ({sum(ctx.view['energy'][seat])} to share)")
    ready = {a[0] for a in actions if a[-1] == "move"} | {
        ship for a in actions if a[-1] == "attack" for ship in ship_bits(a[0])
    }
    if ready:
        steps.append(f"move or attack with a ship — {len(ready)} ship{'s' if len(ready) != 1 else ''} ready")
    if kinds & {"buy", "sell", "buy_tech", "buy_charge", "play", "ability", "explore"}:
        steps.append("buy, sell or play cards and technology")
    end = "end the turn to collect resources" if "end_turn" in kinds else "answer the beacon your ship stands on"
    return "; ".join([*steps, end])


def _roll(ctx: Ctx, pending: Mapping[str, Any], mine: bool, who: str | None) -> str:
    """A roll in progress: its card windows, or its dice falling."""
    what = pending["what"]
    seat = pending["seat"]
    whose = "your" if seat == ctx.seat else f"{ctx.player(seat)}'s"
    if what == "dogfight":
        attack = f"{whose} attack on {target_words(ctx, pending['target'])}"
    elif what == "asteroid":
        attack = f"{whose} {ctx.game.ship_names[pending['ships'][0]]} against the asteroids"
    else:
        attack = {
            "black_hole": "the black hole's roll",
            "test": "the beacon card's test",
            "event": "the random event die",
            "replicator": "the Replicator's roll",
        }.get(what, "a roll")
    attack = attack[0].upper() + attack[1:]
    if not who:
        return f"{attack}: the dice are rolled"
    stage = pending.get("stage")
    if not mine:
        return f"{attack}: {who} may play a card"
    if stage == "lost":
        return f"{attack}: you lost — answer with a card, or pass to take the damage"
    if stage == "rolled":
        return f"{attack}: the dice are down — play a card that rolls one again, or pass to keep them"
    return f"{attack}: you may play a card before the roll, or pass"


def explain_outcome(game: Mothership, view: Mapping[str, Any], outcome: Outcome, seat: int | None) -> str:
    """The end screen's words for ``seat`` (None: a spectator): who won and how, then what the
    scores count in this mode (the points, or each fleet's strength left on the board)."""
    name = [f"Player {s + 1}" for s in range(game.players)]
    winners = [name[s] for s in outcome.winners]
    if seat is not None and seat in outcome.winners:
        headline = "You win" + (f" with {_listed([w for w in winners if w != name[seat]])}" if len(winners) > 1 else "")
    elif winners:
        headline = f"{_listed(winners)} {'wins' if len(winners) == 1 else 'win'}"
    else:
        headline = "The NPC fleet wins" if game.mode == "solo" else "Nobody wins"
    how = f"{headline}: {outcome.reason}."
    if game.mode == "victory_points":
        return f"{how} The scores are victory points; {game.victory_target} win the game."
    if game.mode == "solo":
        return (
            f"{how} In the solo challenge the player wins once the NPC fleet has no ship left, and loses "
            "with their colony station or their last ship."
        )
    return (
        f"{how} A player is out once their colony station or their last ship is destroyed. The scores "
        "measure what each fleet has left: hull points of mothership and station, 2 a ship, 3 a planet "
        "(0 once out)."
    )


def _listed(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
