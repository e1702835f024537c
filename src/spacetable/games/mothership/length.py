"""The derivation of Mothership's ``max_game_length``: the most actions a game of it can take.

The game's ``max_length`` is :func:`bound_length`, made of the parts below (docs/INTEROP.md,
"Length bounds"), each read from the game's content and options.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacetable.engine import OptionsError

from .content import CATEGORIES, language
from .modules import scripts
from .rules import cards, tech
from .rules.board import MAX_EXTRA, MAX_PLANETS
from .rules.decks import lacking

if TYPE_CHECKING:
    from .game import Mothership

LEG_ACTIONS = 5
"""The most actions one leg of a move takes: the move, and into an asteroid field its two dice
and one pass of the mover in each card window (before and after the roll); cards played there
are counted with the cards."""

ASKING_EFFECTS = frozenset(scripts.CHOICES) - {"option", "group", "artifact"}
"""The card language's effects that ask their player one choice each (``scripts.CHOICES``): a
repair's place, a cannon's space, a branch, a warp's space, a strike's target; never a die (a
strike harms without one). Not a beacon's option or an objective's group (once a card), nor
``artifact``, whose choice and draw are counted with the token it turns over
(:func:`artifact_length`)."""

ATTACK_ACTIONS = 7
"""The most actions of one attack beyond one die per attacking ship: its declaration, the
defender's die (a ship's, Station Guns' or a guardian cannon's: at most one), and five passes
(``tactics._next``: a window ends after two passes in a row, or one when the other side is not
asked, and the losing defender's answers end at its first pass; each card played lets one more
pass in, counted with the cards): two before the roll, two after it, one for the answers. A
planet attack takes fewer (no defender's die, no window after the roll or for answers) plus its
capture's two (the reward's choice, the draw or steal): ships + 4."""


def _drawn(effects: list[str]) -> int:
    """The objective cards a list of effects draws."""
    return sum(e.amount for e in map(language.parse_effect, effects) if e.verb == "objectives")


def bound_length(game: Mothership) -> int | None:
    """Actions of the longest possible game, chance included (docs/INTEROP.md, "Length
    bounds"): the set-up, the action cards' part and the expansion's set-up once, then
    ``round_limit + 1`` rounds of a turn per fleet (:func:`turn_length`). None without a
    round limit: a game may go on.

    Set-up: the board, one placement per ship, one roll per player. Mode victory_points
    knocks nobody out, so every fleet plays every round up to the limit (as assumed here).
    Once a game: the action cards (:func:`card_length`), what resources pay for
    (:func:`paid_length`) and the explorations (:func:`artifact_length`).
    """
    if game.round_limit is None:
        return None
    c = game.content
    setup = 1 + game.fleets * c.ships + game.fleets
    setup_objectives, _ = expansion_length(game)
    rounds = game.round_limit + 1
    once = card_length(game) + paid_length(game) + artifact_length(game)
    turns = sum(turn_length(game, seat) for seat in range(game.fleets))
    return setup + setup_objectives + once + rounds * turns


def turn_length(game: Mothership, seat: int) -> int:
    """The most actions of one turn of ``seat``, beyond what the action cards, purchases and
    explorations add (counted once a game):

    - one energy split (``movement.set_energy`` locks the panel for the turn);
    - ``LEG_ACTIONS`` per engine space its ships can have (:func:`turn_spaces`): a leg
      costs at least one space (``movement._search`` starts at one), and one into an
      asteroid field is the move, the two dice and the one pass each window before and
      after the roll asks of the mover (the asteroids' side is never asked);
    - at most one attack per ship, ships + ``ATTACK_ACTIONS`` each (:data:`ATTACK_ACTIONS`),
      so ``(1 + ATTACK_ACTIONS)`` per ship (``state.attacked`` is cleared only when a turn
      begins; an ability uses the mothership's attack phase, and a ship the Hangar Bay
      launches has used its own);
    - with Jump Gates in the tree (a player's; the NPC buys nothing), one jump per friendly
      ship, its own and its teammates' (the ``jumped`` mark lasts the turn);
    - the end of the turn and one pass per other player in the trading window;
    - with black holes, each ship once in a turn (the pull's choice, the roll, where it warps
      out) and once at its end (the roll, the warp); the beacons' and objectives' part
      (:func:`expansion_length`). Artifacts ask nothing: the explorations that find them are
      counted once a game (:func:`artifact_length`).

    Ships come back by rule at a turn's end (no action), never during the turn they could
    act in (the Hangar Bay's launch is marked as moved and attacked)."""
    c = game.content
    player = seat != game.npc
    length = 1 + LEG_ACTIONS * sum(turn_spaces(game, player)) + (1 + ATTACK_ACTIONS) * c.ships
    gates = any(t.ability == "jump_gates" for b in c.branches for t in b.tiers)
    length += game.options["team_size"] * c.ships if gates and player else 0
    length += game.fleets
    length += 5 * c.ships if "black_holes" in game.modules else 0
    return length + expansion_length(game)[1]


def artifact_length(game: Mothership) -> int:
    """The explorations of a game, with planetary exploration: each artifact token is turned
    over once (``exploration.reveal``; a found one is never hidden again) and an exploration
    starts only while a token is left (``exploration.explorable``) and is drawn at once, so
    each token takes at most two actions: what starts it (an Explore bought, an ``artifact``
    reward's choice of planet, Recon Droid's target) and its draw. An artifact itself asks
    nothing: it only adds to the tree's effects (``exploration.bonus``)."""
    return 2 * len(game.content.artifacts) if "exploration" in game.modules else 0


def turn_spaces(game: Mothership, tech_held: bool = True) -> list[int]:
    """The most engine spaces each ship can have in a turn without action cards: its printed
    move (the mothership's highest engine setting), then (``tech_held``; the solo challenge's
    NPC buys nothing) the best tech branch of each category with every tier bought and, with
    planetary exploration, every artifact (each is one card, so one player may hold them all)."""
    spaces = [max(game.content.engines), *game.ship_moves[1:]]
    if not tech_held:
        return spaces
    return [move + most_bonus(game, "move", unit) for move, unit in zip(spaces, game.ship_kinds)]


def most_bonus(game: Mothership, effect: str, unit: str = "") -> int:
    """The most a player's tiers and artifacts can add to ``effect`` for ``unit``: the best
    branch of each category with every tier bought, and every artifact in play."""
    c = game.content
    total = 0
    for category in CATEGORIES:
        branches = [i for i, branch in enumerate(c.branches) if branch.category == category]
        total += max((tech.tree_bonus(c.branches, (i,), (tech.TOP_TIER,), effect, unit) for i in branches), default=0)
    artifacts = c.artifacts if "exploration" in game.modules else ()
    return total + sum(a.amount for a in artifacts if a.effect == effect and (not a.units or unit in a.units))


def paid_length(game: Mothership) -> int:
    """The most actions a game's resources can pay for, beyond the action cards' part (which
    counts every buy): tiers, Overcharges (bought again any number of times), explorations
    and objective replacements each cost at least the least of their prices, and every
    resource a game gives is counted: per turn the income (the station, every planet a board
    can hold, a random event's planet bonus, the best income tiers and artifacts), the loot of
    every unit and station on the board (units come back only at a turn's end), Asteroid
    Mining once (it uses the attack phase), a beacon's and every objective's resource rewards
    and kept salvage; once a game every card's sale value and each Replicator's d4."""
    c = game.content
    planets = MAX_PLANETS + MAX_EXTRA
    income = c.station_income + c.planet_income * planets + most_bonus(game, "income")
    income += planets if "random_event" in game.modules else 0  # (planets // 2) doubled
    loot = max(c.loot_small, c.loot_large) + most_bonus(game, "loot")
    mining = max((t.amount for b in c.branches for t in b.tiers if t.ability == "asteroid_mining"), default=0)
    own_turn = income + mining + expansion_resources(game)  # the NPC's turns give nothing
    per_round = game.players * own_turn + game.fleets * game.fleets * (c.ships + 1) * loot
    copies = [card for card in c.cards if card.module is None or card.module in game.modules]
    once = sum(card.count * (card.value + (4 if card.key == "replicator" else 0)) for card in copies)
    assert game.round_limit is not None
    gained = (game.round_limit + 1) * per_round + once
    prices = [*c.tech_costs, c.exploration_cost]
    if "objectives" in game.modules:
        prices.append(c.objective_cards.replace_cost)
    return gained // max(1, min(prices))


def expansion_resources(game: Mothership) -> int:
    """The resources the beacons and objectives can give in one turn: one beacon's best option
    (its rewards or, failing its test, its ``otherwise``, and the salvage it keeps), and the
    best group of each claim a turn makes (:func:`objective_turn`). A guardian cannon a
    reward deploys is counted with its loot (a fighter's and the best loot bonus), paid once
    when it is destroyed (it never comes back, ``combat.hit``)."""
    c = game.content
    cannon = c.loot_small + most_bonus(game, "loot")

    def gains(effects: list[str]) -> int:
        total = 0
        for effect in map(language.parse_effect, effects):
            if effect.verb == "resources" or (effect.verb, effect.word) == ("keep", "salvage"):
                total += effect.amount
            elif effect.verb == "cannon":
                total += cannon
        return total

    total = 0
    if "beacons" in game.modules:
        total += max(max(gains(o.effects), gains(o.otherwise)) for _, m in c.beacons for o in m.options)
    if "objectives" in game.modules:
        best = max(gains(group) for _, m in c.objectives for group in m.rewards)
        total += objective_turn(game)[1] * best
    return max(0, total)


def card_length(game: Mothership) -> int:
    """Actions the action cards add over a whole game, beyond a turn's part. The deck never
    refills (played and sold cards stay in the discard pile), so each copy is drawn (after a
    buy, a capture or the deal) once, bought at most once, and leaves a hand once: sold, or
    played with every other player's answer to it (Noooooooooooo!, itself a card), then what
    its effect sets off, at most :func:`card_effect_length`. Stealing moves a card between
    hands, and each steal is a card's effect (Surprise Attack) or a capture's reward (an
    attack's part). The engine spaces cards add are spent once each, ``LEG_ACTIONS`` a leg:
    Afterburner's, Convoy's for each escort, Ninja Rope's after an attack, and Punch It!,
    which doubles a ship's spaces: at most the most a ship has (:func:`turn_spaces`) plus
    every Afterburner and Convoy (one ship gets one Convoy's), doubled once per copy (Ninja
    Rope is played on a ship that attacked, Punch It! on one that has not, so the rope's
    spaces are never doubled)."""
    c = game.content
    copies = {card.key: card.count for card in c.cards if card.module is None or card.module in game.modules}
    handling = sum(copies.values()) * (2 + game.fleets + card_effect_length(game, copies))
    afterburner = cards.AFTERBURNER_SPACES * copies.get("afterburner", 0)
    convoy = cards.CONVOY_SPACES * copies.get("convoy", 0)
    rope = cards.ROPE_SPACES * copies.get("ninja_rope", 0)
    boosts = afterburner + (c.ships - 1) * convoy + rope
    doubled = (max(turn_spaces(game)) + afterburner + convoy) * ((1 << copies.get("punch_it", 0)) - 1)
    return handling + LEG_ACTIONS * (boosts + doubled)


def card_effect_length(game: Mothership, copies: dict[str, int]) -> int:
    """The most actions one played card's effect sets off, over the cards in the deck: a
    dogfight card lets one more pass into its window and a re-roll card rolls its die again
    (2); Railguns is a bomber's attack (the bomber's die, the defender's, the windows'
    passes); Friendly Negotiations captures (the reward's choice and its draw or steal); a
    Random Event rolls and its player chooses (2); Replicator's d4, Surprise Attack's steal
    and Recon Droid's artifact are one. Draws (Pick Up Two, Free Samples!) are counted as
    the copies drawn."""
    c = game.content
    timings = {card.key: card.timing for card in c.cards}
    each = {"railguns": ATTACK_ACTIONS, "friendly_negotiations": 2, "random_event": 2}
    each |= dict.fromkeys(("replicator", "surprise_attack", "recon_droid"), 1)
    return max((each.get(key, 2 if timings[key] != "turn" else 0) for key, count in copies.items() if count), default=0)


def expansion_length(game: Mothership) -> tuple[int, int]:
    """Actions the beacons and objectives add: at set-up (the objectives dealt, the tokens to
    flip later) and per turn. A draw discards the cards it cannot use (a module not in play,
    no option open) until one it can: the deck is turned over from the discard pile only when
    empty, and only while a usable card is left in one of them, so a draw takes at most every
    card of the deck twice. A turn has one beacon (the activation, its draws, the option,
    two dice, then its effects or, failing its test, its ``otherwise``: each draw, one
    choice per :data:`ASKING_EFFECTS`), one replacement (spacetable's limit, RULINGS.md) and
    the objective draws and claims of :func:`objective_turn` (a claim: the group, each
    effect's choice and action card draws; its objective draws are among the turn's)."""
    c = game.content
    draw_beacon = 2 * sum(m.count for _, m in c.beacons)
    draw_objective = 2 * sum(m.count for _, m in c.objectives)

    def cost(effects: list[str], objectives: bool = True) -> int:
        total = 0
        for text in effects:
            effect = language.parse_effect(text)
            if effect.verb == "cards" or (objectives and effect.verb == "objectives"):
                total += effect.amount * (draw_objective if effect.verb == "objectives" else 1)
            elif effect.verb in ASKING_EFFECTS:
                total += 1
        return total

    setup = per_turn = 0
    if "beacons" in game.modules:
        card = max(max(cost(o.effects), cost(o.otherwise)) for _, m in c.beacons for o in m.options)
        per_turn += 1 + draw_beacon + 1 + 2 + card
        setup += game.players * c.beacon_tokens.per_player
    if "objectives" in game.modules:
        claim = max(cost(group, objectives=False) for _, m in c.objectives for group in m.rewards)
        draws, claims = objective_turn(game)
        per_turn += 1 + draws * draw_objective + claims * (1 + claim)
        setup += game.players * c.objective_cards.per_player * draw_objective
    return setup, per_turn


def objective_turn(game: Mothership) -> tuple[int, int]:
    """The most objective cards one player's turn draws, and the most claims it makes.

    Global objectives: no replacement, and a reward's draws are discarded, so a turn draws
    none and claims at most the face-up row (one card per player). Hidden: claims are at
    most the cards held (at most every copy) plus the turn's draws, which are the
    replacement's one, one beacon option's and the claims' whose group draws objectives:
    at most one copy drawing one (:func:`objective_chain`), claimed at most 3 times a
    turn: held, and drawn back once by the replacement and once by the beacon's draws; its
    own draw is made after the deck took its pile back without it (``objectives.owe``)."""
    copies = sum(m.count for _, m in game.content.objectives)
    if game.options["objectives"] == "global":
        return 0, min(copies, game.players)
    beacon = 0
    if "beacons" in game.modules:
        beacon = max(max(_drawn(o.effects), _drawn(o.otherwise)) for _, m in game.content.beacons for o in m.options)
    draws = 1 + beacon + 3 * objective_chain(game)
    return draws, copies + draws


def objective_chain(game: Mothership) -> int:
    """How many objective cards a claim's group may draw, 0 or 1, with hidden objectives.

    OptionsError if more than one copy dealt in this game has a group that draws objectives,
    or one draws more: goals count deeds since the game began, so once met they stay met,
    and two such copies would claim, turn the deck over and draw each other back without
    end in one turn."""
    chain = [
        (key, m)
        for key, m in game.content.objectives
        if m.count and any(map(_drawn, m.rewards)) and not lacking(game, m.requires)
    ]
    most = max((_drawn(group) for _, m in chain for group in m.rewards), default=0)
    if sum(m.count for _, m in chain) > 1 or most > 1:
        raise OptionsError(
            f"{game.id}: objectives {', '.join(key for key, _ in chain)}: at most one copy of one objective "
            "may reward with 'objectives 1' (more could be claimed again and again in one turn)"
        )
    return most
