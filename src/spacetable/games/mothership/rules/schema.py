"""What ``state_from_json`` accepts: the typed schema of a Mothership state, and its invariants.

The schema (one per game: the fleets, ships, card kinds and board size are the game's)
gives every field its type, range and length; :func:`check` then checks what no single
field can say: the board is a real one of this game (its seed drawn from the game's
seeds, or the layout's), ships stand where the grid says, action cards are conserved
(deck + discard + hands = the cards of the game), cards known in another hand are in
that hand, the winners are seats. Finally the rules are asked the first questions every
driver asks (``schema.probe``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from spacetable.engine import IllegalActionError
from spacetable.engine.schema import Bool, Int, Ints, ListOf, OneOf, Str, Tuple, per_game, schema

from ..content import CATEGORIES
from ..content.language import TALLIES, parse_effect
from . import cards as card_rules
from . import economy, tactics
from .actions import Choose
from .codes import CANNON, LOCKED, NOWHERE, STATION
from .dice import FACES
from .targets import target_cell

if TYPE_CHECKING:
    from ..game import Mothership
    from .state import MothershipState

BIG = 10**6
"""A bound no count reaches (rounds, resources, points): finite, so no loop runs 10⁹ times."""


@per_game
def state_schema(game: Mothership) -> type[BaseModel]:
    c = game.content
    f, s = game.fleets, c.ships
    kinds, beacons, objectives = len(c.cards), len(c.beacons), len(c.objectives)
    spaces = 25 * 25
    code = f * 16 + 15
    fleet = Int(0, f - 1)

    def per_fleet(item: Any) -> Any:
        return ListOf(item, length=f)

    deck = Ints(0, 99, length=kinds)
    fields: dict[str, Any] = {
        "phase": OneOf("board", "place", "order", "turn", "over"),
        "board_seed": Int(-1, max(len(game.board_outcomes), 1) - 1),
        "grid": Ints(-1, code, most=spaces),
        "pos": per_fleet(Ints(-1, spaces - 1, length=s)),
        "hp": Ints(0, 999, length=f),
        "station_hp": Ints(0, 999, length=f),
        "energy": per_fleet(Ints(0, 36, length=3)),
        "shield": Ints(0, 999, length=f),
        "resources": Ints(0, BIG, length=f),
        "owner": Ints(-2, f - 1, most=spaces),
        "cleared": per_fleet(Ints(-1, spaces - 1, length=s)),
        "out": Ints(0, BIG, length=f),
        "turn": fleet,
        "first": fleet,
        "round": Int(0, BIG),
        "used": Ints(0, 1000, length=s),
        "attacked": Int(0, 2**s - 1),
        "locked": Bool,
        "order_rolls": Ints(0, 6, length=f),
        "pending": _pending_schema(game) | None,
        "winners": Ints(0, f - 1, most=f),
        "reason": Str,
        "deck": deck,
        "hands": per_fleet(Ints(0, kinds - 1, most=99 * kinds)),
        "discard": deck,
        "known": per_fleet(per_fleet(Ints(0, kinds - 1, most=99 * kinds))),
        "draws": Ints(0, f - 1, most=999),
        "steal": Tuple() | Tuple(fleet, fleet),
        "reward": Tuple() | Tuple(fleet, Int(-1, f - 1)),
        "bought": Ints(0, BIG, length=f),
        "trading": Ints(0, f - 1, most=f),
        "played": Ints(0, BIG, length=kinds),
        "effects": ListOf(
            Tuple(OneOf(*EFFECTS), fleet, Int(-1, 99), Int(-BIG, BIG), OneOf("begin", "end"), fleet), most=999
        ),
        "playing": Ints(-1, BIG, most=4),
        "cancel": Ints(0, f - 1, most=f),
        "escort": Int(0, 2**s - 1),
        "stations": Ints(-1, spaces - 1, most=f),
        "event_roll": Tuple() | Tuple(fleet, Int(1, 6)),
        "branches": per_fleet(Ints(-1, len(c.branches) - 1, length=3)),
        "tiers": per_fleet(Ints(0, 5, length=3)),
        "charges": Ints(0, 99, length=f),
        "bought_kinds": Ints(0, BIG, length=kinds),
        "buying": Int(0, 1),
        "artifacts": Ints(-1, len(c.artifacts) - 1, most=spaces),
        "explorers": Ints(-1, f - 1, most=spaces),
        "exploring": Int(-1, spaces - 1),
        "points": Ints(0, BIG, length=f),
        "respawns": ListOf(Tuple(fleet, Int(0, s - 1), Int(0, 1)), most=f * s),
        "raiding": Int(0, 2**s - 1),
        "acted": Int(0, 2**s - 1),
        "choice": _choice_schema(game) | None,
        "stuck": Int(0, 2**s - 1),
        "cannons": per_fleet(Ints(-1, spaces - 1, most=99)),
        "tokens": ListOf(Ints(-1, spaces - 1, length=2), most=99),
        "flipping": Int(0, 99),
        "beacon_deck": Ints(0, 99, length=beacons),
        "beacon_discard": Ints(0, 99, length=beacons),
        "beacon_draw": Tuple() | Tuple(fleet, Int(0, s - 1), Int(0, spaces - 1)),
        "activated": Int(0, 255),
        "kept": per_fleet(ListOf(Ints(-BIG, BIG, length=3), most=99)),
        "script": _script_schema(game) | None,
        "objective_deck": Ints(0, 99, length=objectives),
        "objective_discard": Ints(0, 99, length=objectives),
        "objectives": per_fleet(Ints(0, max(objectives - 1, 0), most=99)),
        "public_objectives": Ints(0, max(objectives - 1, 0), most=99),
        "completed": per_fleet(Ints(0, max(objectives - 1, 0), most=99)),
        "objective_draws": Ints(-1, f - 1, most=999),
        "tallies": per_fleet(Ints(0, BIG, length=len(TALLIES))),
        "beacon_log": ListOf(Ints(0, BIG, length=4), length=beacons),
        "objective_log": ListOf(Ints(0, BIG, length=6), length=objectives),
        "secret": per_fleet(Ints(0, BIG, length=2)),
        "layout": Str | None,
    }
    return schema("MothershipStateJSON", fields)


EFFECTS = ("blockade", "boost", "deflect", "event", "frozen", "gates", "jumped", "prod", "rope", "shields_off")
"""The names of the lasting effects (``state.effects``) the cards, abilities and events add."""
ROLLS = ("asteroid", "black_hole", "dogfight", "event", "replicator", "test")
"""The kinds of roll a pending roll (``state.pending``) is."""
CHOICES = ("artifact", "cannon", "group", "option", "pull", "repair", "strike", "tech", "warp", "warp_out")
"""The kinds of question a choice put to one player (``state.choice``) is."""


def _pending_schema(game: Mothership) -> type[BaseModel]:
    """A roll under way (``state.pending``): whose, which ships, the dice and the faces so far;
    a dogfight adds the cards played on it (``mods``), its stage and result."""
    fleet, ship = Int(0, game.fleets - 1), Int(0, game.content.ships - 1)
    side = Int(-1, 1)
    return schema(
        "MothershipPendingJSON",
        {
            "what": OneOf(*ROLLS),
            "seat": fleet,
            "ships": ListOf(ship, most=game.content.ships),
            "target": Int(-1, BIG),
            "dice": Ints(1, len(FACES) - 1, most=2 * game.content.ships),
            "rolls": Ints(1, BIG, most=2 * game.content.ships),
        },
        optional={
            "ranged": Bool,
            "ending": Bool,
            "mods": ListOf(Tuple(Str, side) | Tuple(Str, side, Int(-1, BIG)), most=99),
            "passes": Int(0, 99),
            "asker": side,
            "stage": OneOf("rolled", "lost"),
            "result": Ints(0, BIG, length=2),
            "reroll": Tuple(Int(0, 99), OneOf("add", "replace")),
        },
    )


def _choice_schema(game: Mothership) -> type[BaseModel]:
    """A question put to one player (``state.choice``): its option values, their words, and
    what its handler needs back."""
    return schema(
        "MothershipChoiceJSON",
        {
            "seat": Int(0, game.fleets - 1),
            "what": OneOf(*CHOICES),
            "options": Ints(-1, BIG, most=999),
            "labels": ListOf(Str, most=999),
        },
        optional={
            "ship": Int(0, game.content.ships - 1),
            "ending": Bool,
            "amounts": Ints(0, BIG, length=2),
            "amount": Int(0, BIG),
        },
    )


def _script_schema(game: Mothership) -> type[BaseModel]:
    """A beacon card or an objective's reward being carried out (``state.script``)."""
    c = game.content
    return schema(
        "MothershipScriptJSON",
        {
            "seat": Int(0, game.fleets - 1),
            "ship": Int(-1, c.ships - 1),
            "source": OneOf("beacon", "objective"),
            "card": Int(0, max(len(c.beacons), len(c.objectives), 1) - 1),
            "option": Int(-1, 9),
            "effects": ListOf(Str, most=99),
        },
        optional={"token": Int(0, 25 * 25 - 1)},
    )


def check(state: MothershipState) -> None:
    """The invariants no single field shows; ValueError naming the first one broken."""
    game = state.game
    _check_in_progress(state)
    fresh, given = game.new_initial_state().to_json(), state.to_json()
    for name in game.hooks.idle_fields:
        if given[name] != fresh[name]:
            raise ValueError(f"{name} belongs to a module not in play: it stays as a new game has it")
    if state.phase == "board":
        changed = [name for name in fresh if given[name] != fresh[name]]
        if changed:
            raise ValueError(f"{changed[0]} is not as a game starts, yet the board is still to be drawn")
        return
    board = state.board
    assert board is not None
    if game.layout_board is None and state.board_seed < 0:
        raise ValueError(f"board_seed {state.board_seed} is not one of this game's {len(game.board_outcomes)} seeds")
    if len(state.grid) != len(board.terrain):
        raise ValueError(f"grid has {len(state.grid)} spaces, the board {len(board.terrain)}")
    if len(state.owner) != len(board.planets):
        raise ValueError(f"owner has {len(state.owner)} planets, the board {len(board.planets)}")
    for name in ("artifacts", "explorers"):
        if len(getattr(state, name)) != len(board.planets):
            raise ValueError(f"{name} has {len(getattr(state, name))} planets, the board {len(board.planets)}")
    if state.exploring >= len(state.artifacts):
        raise ValueError(f"exploring planet {state.exploring}, but {len(state.artifacts)} planets can be explored")
    spaces = len(board.terrain)
    if state.phase == "place" and all(fleet[-1] >= 0 for fleet in state.pos):
        raise ValueError("every fleet is placed, yet the phase is still place")
    if len(state.stations) != game.fleets:
        raise ValueError(f"stations lists {len(state.stations)} colony stations, the game has {game.fleets} fleets")
    for f, station in enumerate(state.stations):
        standing = 0 <= station < spaces and state.grid[station] == f * 16 + STATION
        if state.station_hp[f] > 0 and station != NOWHERE and not standing:
            raise ValueError(f"stations[{f}] is space {station}, but the grid holds no station of fleet {f} there")
    for f, ships in enumerate(state.pos):
        for ship, space in enumerate(ships):
            if space >= spaces:
                raise ValueError(f"pos[{f}][{ship}] is space {space}, off the board of {spaces}")
            if space >= 0 and state.grid[space] != f * 16 + ship:
                raise ValueError(f"pos[{f}][{ship}] is space {space}, but the grid holds {state.grid[space]} there")
    for space, occupant in enumerate(state.grid):
        if occupant >= 0:
            f, unit = divmod(occupant, 16)
            if f >= game.fleets:
                raise ValueError(f"grid[{space}] holds {occupant}, the unit of no fleet")
            if unit == STATION and state.stations[f] != space:
                raise ValueError(f"grid[{space}] holds fleet {f}'s colony station, which stations[{f}] puts elsewhere")
            if unit == CANNON:
                if space not in state.cannons[f]:
                    raise ValueError(f"grid[{space}] holds a guardian cannon that cannons[{f}] does not list")
            elif unit != STATION and (unit >= game.content.ships or state.pos[f][unit] != space):
                raise ValueError(f"grid[{space}] holds {occupant}, which is no ship standing there")
    for name in ("stations", "cannons", "tokens", "beacon_draw"):
        values = getattr(state, name)
        flat = [v for row in values for v in (row if isinstance(row, list) else [row])]
        if any(v >= spaces for v in flat):
            raise ValueError(f"{name} names a space off the board of {spaces}")
    if game.npc >= 0 and (state.resources[game.npc] or state.hands[game.npc]):
        raise ValueError(f"fleet {game.npc} is the NPC, which takes no resources and no cards")
    start = economy.start_deck(state)
    held = Counter(card for hand in state.hands for card in hand)
    totals = [state.deck[k] + state.discard[k] + held[k] for k in range(len(state.deck))]
    if totals != start:
        kind = next(k for k, (a, b) in enumerate(zip(totals, start)) if a != b)
        name = game.content.cards[kind].name
        raise ValueError(
            f"action cards are not conserved: {totals[kind]} {name!r} in deck, discard and hands, "
            f"the game has {start[kind]}"
        )
    for observer, row in enumerate(state.known):
        for holder, cards in enumerate(row):
            if Counter(cards) - Counter(state.hands[holder]):
                raise ValueError(f"known[{observer}][{holder}] holds cards that are not in hands[{holder}]")
    for fleet, (dice, total) in enumerate(state.secret):
        if not dice <= total <= 4 * dice:
            raise ValueError(f"secret[{fleet}]: {dice} d4s cannot sum to {total}")
    if len(set(state.winners)) != len(state.winners) or any(w >= game.players for w in state.winners):
        raise ValueError(f"winners {state.winners} are not distinct seats")
    if any(h != sorted(h) for h in state.hands):
        raise ValueError("hands are kept sorted")
    for seat, (chosen, tiers) in enumerate(zip(state.branches, state.tiers)):
        for category, (index, tier) in enumerate(zip(chosen, tiers)):
            if (index == -1) != (tier == 0):
                raise ValueError(f"tiers[{seat}][{category}] is {tier}, but branches[{seat}] says {index}")
            if index >= 0 and game.content.branches[index].category != CATEGORIES[category]:
                raise ValueError(f"branches[{seat}][{category}] names a branch of another category")
    if bool(state.playing) != bool(state.cancel) or len(state.playing) not in (0, 4):
        raise ValueError("a card waits to be cancelled when, and only when, seats are asked (playing and cancel)")
    if state.playing and not (0 <= state.playing[0] < game.fleets and 0 <= state.playing[1] < len(state.deck)):
        raise ValueError(f"playing {state.playing} names no fleet's action card")
    if state.steal and (state.steal[0] == state.steal[1] or not state.hands[state.steal[1]]):
        raise ValueError(f"steal {state.steal}: a blind steal takes from another fleet's hand, which holds cards")
    if state.playing and state.pending is not None and not tactics.waiting_card_fits(state):
        raise ValueError(f"playing {state.playing}: not a card the side asked in the dogfight may play now")
    if state.playing and state.pending is None and not card_rules.waiting_card_fits(state):
        raise ValueError(f"playing {state.playing}: not a turn card its player could have played on that target")
    if state.trading and state.pending is not None:
        raise ValueError("the end-of-turn trading window is open while a roll is still pending")
    for loaded in game.hooks.loaded:
        loaded(state)
    locked = sum(1 for token in state.tokens if token[1] == LOCKED)
    if state.flipping > locked:
        raise ValueError(f"flipping: {state.flipping} beacons to switch on, but {locked} are locked")


def _check_in_progress(state: MothershipState) -> None:
    """A roll, a choice or a script under way fits its own parts."""
    pending, choice, script = state.pending, state.choice, state.script
    if pending is not None:
        ships = {"asteroid": (1,), "black_hole": (1,), "dogfight": range(1, 1 + state.game.content.ships)}
        if len(pending["ships"]) not in ships.get(pending["what"], (0,)):
            raise ValueError(f"pending {pending['what']} has {len(pending['ships'])} ships, which it cannot")
        dice = len(pending["dice"])
        least, most = (len(pending["ships"]), len(pending["ships"]) + 1) if pending["what"] == "dogfight" else (1, 2)
        if not least <= dice <= most:  # a dogfight: a die per attacker and perhaps the defender's
            raise ValueError(f"pending {pending['what']} rolls {dice} dice, which it cannot")
        if pending["what"] == "dogfight":
            try:
                cell = target_cell(state, pending["target"])
            except (IndexError, KeyError, AssertionError):
                cell = -1
            if state.board is None or not 0 <= cell < len(state.board.terrain):
                raise ValueError(f"pending.target {pending['target']} names no unit on the board")
        if len(pending["rolls"]) > len(pending["dice"]):
            raise ValueError(f"pending has {len(pending['rolls'])} rolls of {len(pending['dice'])} dice")
        if "reroll" in pending and pending["reroll"][0] >= len(pending["rolls"]):
            raise ValueError(f"pending.reroll names die {pending['reroll'][0]}, which has not been rolled")
        windowed = pending["what"] in ("dogfight", "asteroid")  # the rolls with card windows
        missing = sorted({"mods", "passes", "asker"} - set(pending)) if windowed else []
        if windowed and "stage" not in pending and len(pending["rolls"]) == len(pending["dice"]):
            missing.append("stage")  # every die is rolled: the window after the roll is open
        if pending.get("stage") == "lost" and "result" not in pending:
            missing.append("result")
        if missing:
            raise ValueError(f"pending {pending['what']} lacks {', '.join(missing)}, which its stage needs")
    if choice is not None:
        options = choice["options"]
        if not options or len(options) != len(choice["labels"]) or len(set(options)) != len(options):
            raise ValueError("choice needs distinct options, each with its words")
        for value in options:
            try:
                state.game.actions.check(Choose(value))
            except IllegalActionError as exc:
                raise ValueError(f"choice.options: {exc}") from None
    if script is not None:
        c = state.game.content
        cards = c.beacons if script["source"] == "beacon" else c.objectives
        if script["card"] >= len(cards):
            raise ValueError(f"script.card {script['card']} is not one of the {len(cards)} {script['source']} cards")
        model = cards[script["card"]][1]
        options = len(model.options if script["source"] == "beacon" else model.rewards)
        if script["option"] >= options:
            raise ValueError(f"script.option {script['option']} is not one of the card's {options} options")
        if script["source"] == "beacon" and "token" not in script:
            raise ValueError("a beacon's script names the token it answers")
        for text in script["effects"]:
            try:
                parse_effect(text)
            except ValueError as exc:
                raise ValueError(f"script.effects: {exc}") from None


__all__ = ["check", "state_schema"]
