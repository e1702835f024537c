"""The words of Starship Showdown's web table: owners' names, card texts and the glossary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..content import CAPTAIN, CARD_KINDS, Content, card_name

SHAPES = ("triangle", "circle", "square", "diamond", "star", "hexagon")
"""Each seat's mark beside its colour, so that owners never differ by colour alone."""
STATUS_WORDS = {"alive": "in the game", "lifeless": "captain killed", "destroyed": "wrecked"}


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def shape_name(p: int) -> str:
    return SHAPES[p % len(SHAPES)]


def owner_words(content: Content, p: int) -> str:
    """How a title names an owner: name, colour and shape."""
    return f"{content.captains[p].name} ({content.captains[p].color} {shape_name(p)})"


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


def burn_words(info: Mapping[str, Any], item: str) -> str:
    if item.startswith("cm"):
        slots = info.get("countermeasures") or []
        i = int(item[2:])
        return card_name(slots[i]["card"]) if i < len(slots) and slots[i]["card"] else "a countermeasure"
    return card_name(item)
