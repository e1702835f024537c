"""The rules' dispatch: which actions are legal, and what each does, by phase.

The rules themselves are in one module per chapter (``setup``, ``movement``,
``combat``, ``turns``, ``dice``); this module only routes actions to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import Action, Event, Roll

from . import abilities, cards, choices, combat, dice, economy, forecast, movement, setup, tactics, tech, turns
from .actions import (
    Attack,
    AutoPlace,
    Buy,
    BuyCharge,
    BuyTech,
    Choose,
    DrawBoard,
    DrawCard,
    EndTurn,
    Explore,
    Move,
    Pass,
    Place,
    Play,
    Reward,
    Sell,
    SetEnergy,
    StealCard,
    UseAbility,
    ship_bits,
)
from .dice import face_value, rolled_sides

if TYPE_CHECKING:
    from .state import MothershipState

__all__ = [
    "Pass",
    "apply",
    "cards",
    "choices",
    "dice",
    "economy",
    "forecast",
    "label",
    "setup",
    "tactics",
    "turn_actions",
    "turns",
    "why_illegal",
]


def turn_actions(state: MothershipState, seat: int) -> list[Action]:
    """Everything the player on turn may do: set energy, move a ship, attack, end the turn."""
    actions: list[Action] = [*movement.energy_options(state, seat)]
    seen, mine = movement.seen_grid(state, seat), movement.team_cells(state, seat)
    for ship in range(len(state.pos[seat])):
        actions.extend(movement.move_actions(state, seat, ship, seen, mine))
    actions.extend(combat.attack_options(state, seat))
    actions.extend(economy.trade_options(state, seat))
    actions.extend(cards.turn_plays(state, seat))
    actions.extend(abilities.options(state, seat))
    for more in state.game.hooks.turn_actions:  # exploring, answering a beacon, replacing an objective
        actions.extend(more(state, seat))
    if not combat.waiting_ships(state, seat):  # ships that must answer their beacon or move off first
        actions.append(EndTurn())
    return actions


def apply(state: MothershipState, action: Action, seat: int) -> list[Event]:
    events: list[Event] = []
    kind = action[-1]
    if kind == "roll":
        _roll(state, action[0], events)
    elif kind == "move":
        movement.move(state, seat, action[0], action[1], events)
        tactics.open_asteroids(state)
        for moved in state.game.hooks.moved:  # onto a beacon token
            moved(state, seat, action[0], events)
    elif kind == "attack":
        combat.declare(state, seat, ship_bits(action[0]), action[1], events)
    elif kind == "energy":
        movement.set_energy(state, seat, (action[0], action[1], action[2]), events)
    elif kind == "end_turn":
        turns.end_turn(state, events)
    elif kind == "place":
        setup.place(state, seat, action[0], events)
    elif kind == "auto_place":
        setup.auto_place(state, seat, events)
    elif kind == "board":
        setup.draw_board(state, action[0], events)
    elif kind == "draw_card":
        economy.draw(state, action[0], events)
    elif kind == "steal_card":
        economy.steal(state, action[0], events)
    elif kind == "buy":
        economy.buy(state, seat, events)
    elif kind == "sell":
        economy.sell(state, seat, action[0], events)
    elif kind == "reward":
        economy.take_reward(state, bool(action[0]), events)
    elif kind == "ability":
        abilities.use(state, seat, action[0], action[1], action[2], events)
    elif kind == "buy_tech":
        tech.buy(state, seat, action[0], events)
    elif kind == "buy_charge":
        tech.buy_charge(state, seat, events)
    elif kind == "choose":
        choice = choices.take(state, action[0])
        state.game.hooks.choices[choice["what"]](state, choice, action[0], events)
    elif kind == "pass":
        if state.cancel:
            cards.let_pass(state, events)
        elif state.pending is not None:
            tactics.passed(state)
            _settle(state, events)
        else:
            turns.done_trading(state, events)
    elif kind == "play":
        if state.cancel:
            cards.cancel(state, seat, events)
        else:
            cards.play(state, seat, action[0], action[1], action[2], events)
        _settle(state, events)
    elif kind in state.game.hooks.actions:
        state.game.hooks.actions[kind](state, seat, action, events)
    else:
        raise AssertionError(f"unhandled action {action!r}")
    for after in state.game.hooks.after_action:  # objectives completed, a victory claimed, the NPC's turn
        after(state, events)
    return events


def _roll(state: MothershipState, face: int, events: list[Event]) -> None:
    if state.phase == "order":
        setup.order_roll(state, face, events)
        return
    pending = state.pending
    assert pending is not None
    sides = dice.next_die(state)
    value = face_value(sides, face)
    shown = f"{face} on the d4, so {value}" if rolled_sides(sides) != sides else str(value)
    private = (pending["seat"],) if pending["what"] == "replicator" else None  # resources are hidden
    again = pending.pop("reroll", None)
    if again:
        die, how = again
        pending["rolls"][die] = pending["rolls"][die] + value if how == "add" else value
        events.append(Event("roll", f"d{sides} again: {shown} (now {pending['rolls'][die]})."))
    else:
        pending["rolls"].append(value)
        events.append(Event("roll", f"d{sides}: {shown}.", private))
    if len(pending["rolls"]) < len(pending["dice"]):
        return
    if pending["what"] == "replicator":
        cards.replicate(state, events)
    elif pending["what"] in state.game.hooks.rolled:  # a module's roll: an event, a black hole, a test
        state.game.hooks.rolled[pending["what"]](state, events)
    else:
        if not again:
            tactics.open_rolled(state)
        _settle(state, events)


def _settle(state: MothershipState, events: list[Event]) -> None:
    """A dogfight whose every die is rolled and whose windows are closed gets its result."""
    if not tactics.decided(state):
        return
    assert state.pending is not None
    if tactics.asteroids(state.pending):
        combat.resolve_asteroids(state, events)
    elif state.pending["stage"] == "rolled":
        combat.resolve(state, events)
    else:
        combat.settle(state, events)


def why_illegal(state: MothershipState, action: Action, seat: int) -> str:
    if state.phase == "place":
        return "place the next ship on a free empty space within reach of your colony station"
    if isinstance(action, SetEnergy):
        if state.locked:
            return "the control panel is locked until your next turn"
        return (
            f"the energy split must use all {state.game.content.energy} energy, at most "
            f"{state.game.content.row_length} in one subsystem"
        )
    if isinstance(action, Move):
        if state.attacked >> action.ship & 1:
            return "a ship cannot move after it attacks"
        return "that space is out of the ship's reach, occupied, or blocked"
    if isinstance(action, Attack):
        return "the attackers must be next to a target they can damage and not have attacked yet"
    if isinstance(action, Explore):
        return (
            "explore, on your own turn, a planet you hold that is not explored yet (while a token is "
            f"left), paying {state.game.content.exploration_cost} resources; needs the option exploration"
        )
    return f"{len(state.legal_actions(seat))} other actions are legal"


def label(state: MothershipState, action: Action) -> str:
    board = state.board
    if board is None:
        return repr(action)
    if isinstance(action, Move):
        return f"move {state.game.ship_names[action.ship]} to {board.name_of(action.cell)}"
    if isinstance(action, Attack):
        who = " + ".join(state.game.ship_names[s] for s in ship_bits(action.ships))
        return f"{who} attack {combat.target_name(state, action.target)}"
    if isinstance(action, SetEnergy):
        return f"energy: engines {action.engines}, weapons {action.weapons}, shields {action.shields}"
    if isinstance(action, Place):
        return f"place at {board.name_of(action.cell)}"
    if isinstance(action, AutoPlace):
        return "place the rest in the standard formation"
    if isinstance(action, EndTurn):
        return "collect resources and end the turn"
    if isinstance(action, DrawBoard):
        return f"generated board #{action.seed}"
    if isinstance(action, DrawCard):
        return f"draw {economy.card_name(state, action.card)}"
    if isinstance(action, StealCard):
        return f"steal {economy.card_name(state, action.card)}"
    if isinstance(action, Buy):
        return f"buy an action card for {state.game.content.card_price} resources"
    if isinstance(action, Sell):
        card = state.game.content.cards[action.card]
        return f"sell {card.name} for {card.value}"
    if isinstance(action, Pass):
        return "pass: " + choices.pass_words(state.cancel, state.pending, state.trading)
    if isinstance(action, BuyTech):
        branch = state.game.content.branches[action.branch]
        category = ("economy", "combat", "support").index(branch.category)
        buyer = state.current_player()  # between turns, whoever the trading window asks, not the mover
        buyer = state.turn if buyer < 0 else buyer
        tier = state.tiers[buyer][category] if state.branches[buyer][category] == action.branch else 0
        tile = branch.tiers[min(tier, 4)]
        return f"buy {tile.name} ({branch.name}, tier {min(tier, 4) + 1})"
    if isinstance(action, UseAbility):
        name = abilities.ABILITIES[action.ability].replace("_", " ")
        return f"{name}: {combat.target_name(state, action.unit)} / {board.name_of(action.spot)}"
    if isinstance(action, BuyCharge):
        return "buy an Overcharge (+3 on your next roll)"
    if isinstance(action, Play):
        return cards.label(state, action)
    if isinstance(action, Choose):
        return choices.label(state, action.value)
    if action[-1] in state.game.hooks.labels:
        return state.game.hooks.labels[action[-1]](state, action)
    if isinstance(action, Reward):
        return "steal a card blindly from the planet's owner" if action.steal else "take the top card of the deck"
    if isinstance(action, Roll):
        return f"roll {action.value}"
    return repr(action)
