"""The observation tensor of Mothership: ``view(seat)`` as numbers in [0, 1], for learners.

The layout is in docs/INTEROP.md too.

Seats are relative: "seat r" is the seat r places after the observer (r = 0), so one policy
serves every seat. With N fleets (the seats; in the solo challenge the player's and the
NPC's), a board of S x S spaces (C = S * S) and K ships per fleet, the flat tensor holds, in
order:

=============  ===============  ================================================================
piece          size             values
=============  ===============  ================================================================
phase          5                one-hot: board, place, order, turn, over
clock          1                round / round limit (without one: / 60, the batches' limit)
turn           2 * N            seat on turn, seat who started
terrain        4 * C            asteroid, planet, neutron star and black hole spaces (zero before
                                the board is drawn)
stations       N * C            per seat: its standing colony station
ships          3 * N * C        per seat and kind (mothership, fighter, bomber): its ships
planets        N * C            per seat: the planets it holds
explored       C                planets explored (their artifact found; option exploration)
beacons        4 * C            distress beacon tokens calling for a mothership, a fighter, a
                                bomber, and locked ones (option beacons)
cannons        N * C            per seat: its guardian cannons
seats          9 * N            per seat: hull / full hull, shields left / 12, engines, weapons
                                and shields energy / row length, station HP / full, resources
                                / 30 (the observer's own only: others are hidden), out,
                                victory points / target (mode victory_points)
turn state     2 * K + 1        per ship of the seat on turn: engine spaces used / 12, attacked;
                                the control panel locked
roll           2 + 2 * (K + 1)  rolling for a dogfight, for asteroids; each die's sides / 12
                                and each rolled value / 12 (attackers first, then the defender)
winners        N                1 for each winner
hand           A                the observer's action cards: copies of each kind / its copies
known          (N - 1) * A      per other seat: its cards the observer knows of (taken from the
                                observer by a blind steal), copies of each kind / its copies
secret         1                the sum of the observer's secret d4s (Replicator) / 30
objectives     O                the observer's objectives held (option objectives 'hidden'),
                                copies of each card / its copies
completed      O                the observer's objectives completed and not claimed yet (hidden
                                ones, or the global ones it took)
global row     O                the face-up objectives anyone may complete (option objectives
                                'global')
tech           N * B            per seat and branch: tiers bought up it / its tiers (the fifth,
                                1, is the mothership ability)
holdings       4 * N            per seat: cards in hand / 10, Overcharges held / 10, objectives
                                held and completed-unclaimed / the objectives dealt each
decks          2                cards in the action deck / the action cards, objective cards in
                                the deck / the objective cards
discard        A                the discard pile: copies of each kind / its copies
objective      O                the objectives discarded (replaced, or of a module not in play)
discard
beacon deck    Bc               the distress beacon cards left to draw / each card's copies
kept           2 * N            per seat: the beacon cards kept for a dogfight, for salvage, their
                                amounts / the most a card keeps
artifacts      N * R            per seat: the artifacts of the explored planets it holds
tallies        8 * N            per seat: its deeds counted for objectives (``TALLIES``) / the
                                most an objective asks of each (0 for a deed none asks about)
fleet ships    2 * N * K        per seat and ship: inside an asteroid field it won its way into;
                                waiting to respawn (1/2; 1 once back at the end of this turn)
turn marks     3 * K + 2        per ship of the seat on turn: began beside its mothership
                                (Convoy), began in a black hole; per NPC bomber: raiding the
                                station (solo); a beacon activated, an objective replaced
effects        N * 9 * K        per seat, lasting effect (``LASTING``) and ship (or subsystem;
                                the seat's own effects on slot 0): 1 while it lasts
event          6 + N + 2        the random event in force or being chosen: its outcome one-hot,
                                its player, doubled or avoided
asking         N + 15 + K       the seats asked now; what they answer (``QUESTIONS``: a choice of
               + A + N          each kind, a capture's card, a random event, cancelling a card,
                                trading, cards on a roll; all 0 for a move or a placement); the
                                ship a choice is about; the card waiting on the cancel window
                                and its player
roll detail    6 + N + K + 7    the roll in progress: its kind (``ROLLS``), whose, its roller's
               + 2 * A          ships in it, the side asked for cards (attack, defence), its
                                stage (rolled, lost), the odds (win, tie, lose), and per side the
                                cards played on it / their copies
script         2 + N + Bc + O   the card being carried out: beacon or objective, its seat, the
                                card
=============  ===============  ================================================================

A is the number of action card kinds, O of objective cards, B of tech branches, Bc of beacon
cards and R of artifacts in the content (39, 25, 6, 30 and 12 with the printed ones). From
``hand`` to ``completed``, the pieces are the observer's own: what another seat holds in secret
is never in the observer's view, so never in its tensor. Of the other seats' hands and
objectives the tensor has only the counts the view shows (``holdings``).

Left out of the view, as no decision is taken on them: what only chance reads (the draws owed,
a steal, a token or an artifact being turned over), report counters (cards bought and played,
explorers, the beacon log), the set-up's order rolls (``turn`` has who started), the roll's
target as a unit code (the board shows the units beside the rolling ships), the count of others'
secret d4s (their resources are not in the tensor), the beacon discard (the deck, the kept
cards and the card carried out tell it) and the words (labels, reasons, forecast terms).

The pieces from terrain to cannons are C-sized planes, one after the other: image planes
(``planes_shape``, ``planes_offset``; ``Game.observation_planes``). They are built with numpy
from tables made once per game (which plane each grid code lights, each board's terrain).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from spacetable.engine import JSON, State
from spacetable.engine.tensor import GLOBAL, SEATS, one_hot, per_game, ratio, turned

from ..content.language import KEEPS, TALLIES
from ..modules.random_events import NAMES as EVENTS
from ..rules.board import ASTEROID, BLACK_HOLE, NEUTRON_STAR, PLANET
from ..rules.schema import ROLLS
from ..rules.state import CANNON, LOCKED, PHASES, STATION
from ..rules.tactics import ATTACK, DEFENCE
from ..rules.turns import ROUND_LIMIT
from .tensor_layout import LASTING, ODDS, QUESTIONS, public_layout

if TYPE_CHECKING:
    import numpy as np  # the rl extra's: imported inside the functions that build tensors
    import numpy.typing as npt

    from ..game import Mothership
    from ..rules.state import MothershipState

KINDS = ("mothership", "fighter", "bomber")
TERRAIN = (ASTEROID, PLANET, NEUTRON_STAR, BLACK_HOLE)
"""The terrain planes, in order."""
BEACON_UNITS = (0, 1, 2, LOCKED)
"""The beacon planes, in order: tokens calling for a mothership, a fighter, a bomber; locked."""
SEAT_FIELDS = 9
RESOURCE_SCALE = 30
DIE_SCALE = 12
COUNT_SCALE = 10
"""Counts the rules set no most for (cards in a hand, Overcharges held): this many reads 1."""


@per_game
def planes_shape(game: Mothership) -> tuple[int, int, int]:
    """The board part of the tensor as image planes: (channels, rows, columns), channels in the
    order of the table above (terrain, stations, ships, planets, explored, beacons, cannons)."""
    n = game.fleets
    return (len(TERRAIN) + n + len(KINDS) * n + n + 1 + len(BEACON_UNITS) + n, game.size, game.size)


@per_game
def planes_offset(game: Mothership) -> int:
    """Where the planes start in the flat tensor (they are its entries ``offset`` to
    ``offset + channels * rows * columns``, row-major)."""
    return len(PHASES) + 1 + 2 * game.fleets


@per_game
def shape(game: Mothership) -> tuple[int, ...]:
    channels, rows, cols = planes_shape(game)
    ships = game.content.ships
    size = planes_offset(game) + channels * rows * cols + SEAT_FIELDS * game.fleets
    size += 2 * ships + 1 + 2 + 2 * (ships + 1) + game.fleets
    return (size + _own_size(game) + public_layout(game).size,)


def _own_size(game: Mothership) -> int:
    """The length of the pieces from ``hand`` on."""
    return game.fleets * len(game.content.cards) + 1 + 3 * len(game.content.objectives)


def encode(game: Mothership, view: JSON, seat: int) -> npt.NDArray[np.float32]:
    """The tensor of ``view``, which is ``state.view(seat)`` of this game."""
    v: dict[str, Any] = view
    return _encode(game, v, seat, _own(game, v, seat))


def encode_shared(game: Mothership, state: State, seat: int, shared: dict[str, Any]) -> npt.NDArray[np.float32]:
    """:func:`encode` of ``state.view(seat)``, the same numbers: the part every seat's tensor
    has in common, with the seats absolute, is worked out once per state from the spectator's
    view and kept in ``shared`` (a dict kept with the unchanged state); a seat's view differs
    from it only in the seat's own resources, hand, known cards, secret d4s and objectives,
    which are read from the state for that seat alone (shared fields with ``peek``: no copy)."""
    absolute = shared.get("mothership")
    if absolute is None:
        spectator: dict[str, Any] = state.view(None)
        absolute = shared["mothership"] = (_absolute(game, spectator), spectator["public_objectives"])
    s = cast("MothershipState", state)
    secret, objectives, completed = (s.peek(name)[seat] for name in ("secret", "objectives", "completed"))
    own = _own_pieces(game, seat, s.hands[seat], s.peek("known")[seat], secret[1], objectives, completed, absolute[1])
    return _assemble(game, absolute[0], seat, s.resources[seat], own)


def _encode(game: Mothership, v: dict[str, Any], seat: int, own: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The tensor of ``v`` as ``seat`` sees it, with ``own`` as its pieces from ``hand`` on."""
    import numpy as np

    n = game.fleets
    head = [*one_hot(v["phase"], PHASES), ratio(v["round"], game.round_limit or ROUND_LIMIT)]
    head += one_hot((v["turn"] - seat) % n, range(n)) + one_hot((v["first"] - seat) % n, range(n))
    planes = encode_planes(game, v, seat)
    tail = np.asarray(_tail(game, v, seat), dtype=np.float32)
    return np.concatenate((np.asarray(head, dtype=np.float32), planes.ravel(), tail, own, _public(game, v, seat)))


def _absolute(game: Mothership, v: dict[str, Any]) -> npt.NDArray[np.float32]:
    """The tensor of ``v`` as seat 0 sees it but with no pieces of its own (``hand`` to ``global
    row`` left 0, and resources as ``v`` shows them): turned round by :func:`_assemble`."""
    import numpy as np

    return _encode(game, v, 0, np.zeros(_own_size(game), dtype=np.float32))


def _assemble(
    game: Mothership, absolute: npt.NDArray[np.float32], seat: int, held: int | None, own: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """The tensor of ``seat``: ``absolute`` turned round to it, with its resources ``held`` and
    its own pieces ``own`` (:func:`_own`) written in."""
    layout = _layout(game)
    out = absolute[layout.turned[seat]]
    out[layout.resources] = ratio(held or 0, RESOURCE_SCALE)
    out[layout.own : layout.own + own.size] = own
    return out


class _Layout(NamedTuple):
    turned: list[npt.NDArray[np.intp]]
    """per observer seat: where each entry of its tensor is in :func:`_absolute`'s"""
    resources: int
    """where the observer's resources are"""
    own: int
    """where ``hand`` starts"""


@per_game
def _layout(game: Mothership) -> _Layout:
    c, n, public = game.content, game.fleets, public_layout(game)
    cells, ships, cards, beacons, objectives = game.size**2, c.ships, len(c.cards), len(c.beacons), len(c.objectives)
    tail = planes_offset(game) + planes_shape(game)[0] * cells
    pieces = [(len(PHASES) + 1, GLOBAL), (n, SEATS), (n, SEATS), (len(TERRAIN) * cells, GLOBAL)]
    pieces += [(n * cells, SEATS), (len(KINDS) * n * cells, SEATS), (n * cells, SEATS)]
    pieces += [((1 + len(BEACON_UNITS)) * cells, GLOBAL), (n * cells, SEATS), (SEAT_FIELDS * n, SEATS)]
    pieces += [(2 * ships + 1 + 2 + 2 * (ships + 1), GLOBAL), (n, SEATS), (_own_size(game), GLOBAL)]
    pieces += [(n * len(public.branch_tiers), SEATS), (4 * n, SEATS), (2 + cards + objectives + beacons, GLOBAL)]
    pieces += [(n * len(KEEPS), SEATS), (n * len(c.artifacts), SEATS), (n * len(TALLIES), SEATS)]
    pieces += [(2 * n * ships, SEATS), (3 * ships + 2, GLOBAL), (n * len(LASTING) * ships, SEATS)]
    pieces += [(len(EVENTS) - 1, GLOBAL), (n, SEATS), (2, GLOBAL), (n, SEATS), (len(QUESTIONS) + ships + cards, GLOBAL)]
    pieces += [(n, SEATS), (len(ROLLS), GLOBAL), (n, SEATS), (ships + 2 + 2 + len(ODDS) + 2 * cards + 2, GLOBAL)]
    pieces += [(n, SEATS), (beacons + objectives, GLOBAL)]
    own = tail + SEAT_FIELDS * n + 2 * ships + 1 + 2 + 2 * (ships + 1) + n
    return _Layout(turned(n, pieces), tail + 6, own)


def encode_planes(game: Mothership, view: JSON, seat: int) -> npt.NDArray[np.float32]:
    """The board part of the tensor of ``view`` as image planes, shaped :func:`planes_shape`."""
    import numpy as np

    v: dict[str, Any] = view
    tables = _tables(game)
    channels, rows, cols = planes_shape(game)
    planes = np.zeros((channels, rows * cols), dtype=np.float32)
    n = game.fleets
    if v["grid"]:
        grid = np.asarray(v["grid"], dtype=np.int64)
        plane = tables.code_planes[seat][grid]
        on = plane >= 0
        planes[plane[on], np.flatnonzero(on)] = 1.0
    planet_plane = tables.planet_plane
    if v["phase"] != "board":
        board = game.board_for(v["board_seed"])
        planes[: len(TERRAIN)] = tables.terrain(game, v["board_seed"])
        for cell, owner, found in zip(board.planets, v["owner"], v["artifacts"]):
            if 0 <= owner < n:
                planes[planet_plane + (owner - seat) % n, cell] = 1.0
            if found >= 0:
                planes[planet_plane + n, cell] = 1.0
    for cell, unit in v["tokens"]:
        if unit in BEACON_UNITS:
            planes[planet_plane + n + 1 + BEACON_UNITS.index(unit), cell] = 1.0
    return planes.reshape(channels, rows, cols)


class _Tables:
    """What the tensor of one game looks up rather than works out each time."""

    def __init__(self, game: Mothership) -> None:
        import numpy as np

        n, ships = game.fleets, game.content.ships
        stations, ship_planes = len(TERRAIN), len(TERRAIN) + n
        self.planet_plane = ship_planes + len(KINDS) * n
        cannon_plane = self.planet_plane + n + 1 + len(BEACON_UNITS)
        self.code_planes: list[npt.NDArray[np.int64]] = []
        """Per observer seat: the plane of each grid code (-1 for an empty cell, index -1)."""
        for seat in range(n):
            table = np.full(16 * n + 1, -1, dtype=np.int64)
            for p in range(n):
                r = (p - seat) % n
                table[p * 16 + STATION] = stations + r
                table[p * 16 + CANNON] = cannon_plane + r
                for s in range(ships):
                    table[p * 16 + s] = ship_planes + 3 * r + KINDS.index(game.ship_kinds[s])
            self.code_planes.append(table)
        self._terrain: dict[int, npt.NDArray[np.float32]] = {}

    def terrain(self, game: Mothership, board_seed: int) -> npt.NDArray[np.float32]:
        """The terrain planes of a board, (len(TERRAIN), cells)."""
        planes = self._terrain.get(board_seed)
        if planes is None:
            import numpy as np

            marks = np.frombuffer(game.board_for(board_seed).terrain.encode(), dtype=np.uint8)
            kinds = np.frombuffer("".join(TERRAIN).encode(), dtype=np.uint8)
            planes = self._terrain[board_seed] = (marks[None, :] == kinds[:, None]).astype(np.float32)
        return planes


_tables = per_game(_Tables)


def _tail(game: Mothership, v: dict[str, Any], seat: int) -> list[float]:
    """The seats, turn state, roll and winners."""
    c = game.content
    n, ships = game.fleets, c.ships
    order = [(seat + r) % n for r in range(n)]
    out: list[float] = []
    for p in order:
        engines, weapons, shields = v["energy"][p]
        held = v["resources"][p]
        out += [ratio(v["hp"][p], c.mothership_hp), ratio(v["shield"][p], DIE_SCALE)]
        out += [ratio(engines, c.row_length), ratio(weapons, c.row_length), ratio(shields, c.row_length)]
        out += [ratio(v["station_hp"][p], c.station_hp), ratio(held or 0, RESOURCE_SCALE), float(bool(v["out"][p]))]
        out.append(ratio(v["points"][p], game.victory_target))
    out += [ratio(used, DIE_SCALE) for used in v["used"]]
    out += [float(v["attacked"] >> s & 1) for s in range(ships)] + [float(v["locked"])]
    out += _roll(v["pending"], ships)
    return out + [float(p in v["winners"]) for p in order]


def _own(game: Mothership, v: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
    """The pieces from ``hand`` on of ``v``, ``seat``'s view."""
    objectives, completed = v["objectives"][seat], v["completed"][seat]
    known = v["known"]
    return _own_pieces(
        game, seat, v["hands"][seat], known, v["secret"][seat][1], objectives, completed, v["public_objectives"]
    )


def _own_pieces(
    game: Mothership,
    seat: int,
    hand: list[int],
    known: list[list[int]],
    secret: int,
    objectives: list[int],
    completed: list[int],
    public_objectives: list[int],
) -> npt.NDArray[np.float32]:
    """The observer's hand, the cards it knows others hold (``known[p]``: of seat p), its
    secret d4s' sum and its objectives, then the global row: the pieces from ``hand`` on."""
    import numpy as np

    n = game.fleets
    per_card, per_objective = _inverse_copies(game)
    cards, objectives_count = len(per_card), len(per_objective)
    out = np.zeros(_own_size(game), dtype=np.float32)
    for r in range(n):
        _count_into(out, r * cards, hand if r == 0 else known[(seat + r) % n], per_card)
    out[n * cards] = ratio(secret, RESOURCE_SCALE)
    for i, held in enumerate((objectives, completed, public_objectives)):
        _count_into(out, n * cards + 1 + i * objectives_count, held, per_objective)
    return out


@per_game
def _inverse_copies(game: Mothership) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """1 / the copies of each action card kind and of each objective card in the game's content
    (0 for a card with none)."""
    import numpy as np

    def inverse(copies: list[int]) -> npt.NDArray[np.float64]:
        return np.array([1 / count if count > 0 else 0.0 for count in copies])

    c = game.content
    return inverse([card.count for card in c.cards]), inverse([model.count for _, model in c.objectives])


def _count_into(out: npt.NDArray[np.float32], at: int, held: list[int], inverse: npt.NDArray[np.float64]) -> None:
    """``held`` (card numbers) written from ``out[at]`` on: the copies of each kind / its copies."""
    import numpy as np

    if held:
        out[at : at + len(inverse)] = np.minimum(np.bincount(held, minlength=len(inverse)) * inverse, 1.0)


def _roll(pending: dict[str, Any] | None, ships: int) -> list[float]:
    slots = ships + 1
    if pending is None:
        return [0.0] * (2 + 2 * slots)
    dice = [ratio(d, DIE_SCALE) for d in pending["dice"]][:slots]
    rolled = [ratio(r, DIE_SCALE) for r in pending["rolls"]][:slots]
    out = [float(pending["what"] == "dogfight"), float(pending["what"] == "asteroid")]
    return out + dice + [0.0] * (slots - len(dice)) + rolled + [0.0] * (slots - len(rolled))


def _count(held: list[int] | int) -> int:
    """A view's cards or objectives of a seat: the list the seat may see, or their count."""
    return held if isinstance(held, int) else len(held)


def _public(game: Mothership, v: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
    """The pieces after the global row: what every seat sees beyond the board and the panels."""
    import numpy as np

    layout = public_layout(game)
    at, c = layout.at, game.content
    n, ships, branches = game.fleets, c.ships, len(layout.branch_tiers)
    out = np.zeros(layout.size, dtype=np.float32)  # mostly zeros: only the rest is written
    order = [(seat + r) % n for r in range(n)]
    for r, p in enumerate(order):
        for category, branch in enumerate(v["branches"][p]):
            if branch >= 0:
                out[at["tech"] + r * branches + branch] = ratio(v["tiers"][p][category], layout.branch_tiers[branch])
        held = at["holdings"] + 4 * r
        out[held] = ratio(_count(v["hands"][p]), COUNT_SCALE)
        out[held + 1] = ratio(v["charges"][p], COUNT_SCALE)
        out[held + 2] = ratio(_count(v["objectives"][p]), layout.objectives_each)
        out[held + 3] = ratio(_count(v["completed"][p]), layout.objectives_each)
        kept = at["kept"] + r * len(KEEPS)
        for _card, kind, amount in v["kept"][p]:
            out[kept + kind] = min(1.0, out[kept + kind] + ratio(amount, layout.keep_most[kind]))
        cleared = v["cleared"][p]
        if max(cleared) >= 0:
            for ship, field in enumerate(cleared):
                if field >= 0:
                    out[at["fleet ships"] + 2 * (r * ships + ship)] = 1.0
    tallies = np.asarray([v["tallies"][p] for p in order], dtype=np.float32) * layout.tally_inverse
    out[at["tallies"] : at["tallies"] + tallies.size] = np.minimum(tallies.ravel(), 1.0)
    for p, ship, due in v["respawns"]:
        out[at["fleet ships"] + 2 * (((p - seat) % n) * ships + ship) + 1] = 0.5 + 0.5 * due
    _decks(game, v, out)
    for artifact, holder in zip(v["artifacts"], v["owner"]):
        if artifact >= 0 and 0 <= holder < n:
            out[at["artifacts"] + ((holder - seat) % n) * len(c.artifacts) + artifact] = 1.0
    marks = at["turn marks"]
    for i, mask in enumerate((v["escort"], v["stuck"], v["raiding"], v["activated"] & 3)):
        while mask:  # each bit set
            bit = (mask & -mask).bit_length() - 1
            out[marks + i * ships + bit] = 1.0
            mask &= mask - 1
    for name, p, ship, *_ in v["effects"]:
        if name in LASTING:
            slot = min(max(ship, 0), ships - 1)
            out[at["effects"] + (((p - seat) % n) * len(LASTING) + LASTING.index(name)) * ships + slot] = 1.0
    _event(v, seat, n, at["event"], out)
    _asking(game, v, seat, at["asking"], out)
    _roll_detail(game, v, seat, at["roll detail"], out)
    script = v["script"]
    if script is not None:
        beacon = script["source"] == "beacon"
        out[at["script"] + (0 if beacon else 1)] = 1.0
        out[at["script"] + 2 + (script["seat"] - seat) % n] = 1.0
        out[at["script"] + 2 + n + (0 if beacon else len(c.beacons)) + script["card"]] = 1.0
    return out


def _decks(game: Mothership, v: dict[str, Any], out: npt.NDArray[np.float32]) -> None:
    """The decks' sizes, the discard piles and the beacon cards left to draw."""
    import numpy as np

    layout = public_layout(game)
    at = layout.at
    per_card, per_objective = _inverse_copies(game)
    objective_deck = v["objective_deck"]  # a count once the objectives module hides the deck's order
    out[at["decks"]] = ratio(v["deck"], layout.cards)
    left = objective_deck if isinstance(objective_deck, int) else sum(objective_deck)
    out[at["decks"] + 1] = ratio(left, layout.objectives)
    for piece, copies, inverse in (
        ("discard", v["discard"], per_card),
        ("objective discard", v["objective_discard"], per_objective),
        ("beacon deck", v["beacon_deck"], layout.beacon_inverse),
    ):
        if any(copies):
            out[at[piece] : at[piece] + len(inverse)] = np.minimum(np.asarray(copies) * inverse, 1.0)


def _event(v: dict[str, Any], seat: int, n: int, at: int, out: npt.NDArray[np.float32]) -> None:
    """The random event in force, or rolled and waiting for its player to double or avoid it:
    its outcome, its player, and doubled or avoided."""
    event = next((e for e in v["effects"] if e[0] == "event"), None)
    if event is not None:
        player, outcome, choice = event[1:4]
    elif v["event_roll"]:
        (player, outcome), choice = v["event_roll"], 0
    else:
        return
    faces = len(EVENTS) - 1
    out[at + outcome - 1] = 1.0
    out[at + faces + (player - seat) % n] = 1.0
    if choice:
        out[at + faces + n + choice - 1] = 1.0


def _asking(game: Mothership, v: dict[str, Any], seat: int, at: int, out: npt.NDArray[np.float32]) -> None:
    """Who is asked now, what the question is, the ship a choice is about, and the card waiting
    on the window to cancel it with its player."""
    n, ships = game.fleets, game.content.ships
    for p in v["to_act"]:
        out[at + (p - seat) % n] = 1.0
    question = at + n
    kind = _question(v) if v["to_act"] else None
    if kind is not None:
        out[question + QUESTIONS.index(kind)] = 1.0
    choice = v["choice"]
    if choice is not None and "ship" in choice:
        out[question + len(QUESTIONS) + choice["ship"]] = 1.0
    playing = v["playing"]
    if playing:
        card = question + len(QUESTIONS) + ships
        out[card + playing[1]] = 1.0
        out[card + len(game.content.cards) + (playing[0] - seat) % n] = 1.0


def _question(v: dict[str, Any]) -> str | None:
    """What the decision asked now answers (``QUESTIONS``), in the order the rules ask; None for
    a placement or a move of the turn."""
    if v["choice"] is not None:
        return str(v["choice"]["what"])
    for kind, field in (("reward", "reward"), ("event", "event_roll"), ("cancel", "cancel"), ("trading", "trading")):
        if v[field]:
            return kind
    return "roll" if v["pending"] is not None else None


def _roll_detail(game: Mothership, v: dict[str, Any], seat: int, at: int, out: npt.NDArray[np.float32]) -> None:
    """The roll in progress beyond its dice: its kind, whose, the roller's ships in it, the side
    asked for cards, its stage, its odds and the cards played on it per side."""
    pending = v["pending"]
    if pending is None:
        return
    n, ships = game.fleets, game.content.ships
    out[at + ROLLS.index(pending["what"])] = 1.0
    out[at + len(ROLLS) + (pending["seat"] - seat) % n] = 1.0
    for ship in pending["ships"]:
        out[at + len(ROLLS) + n + ship] = 1.0
    sides = at + len(ROLLS) + n + ships
    if pending.get("asker", -1) in (ATTACK, DEFENCE):
        out[sides + pending["asker"]] = 1.0
    stage = pending.get("stage")
    if stage is not None:
        out[sides + 2 + ("rolled", "lost").index(stage)] = 1.0
    odds = pending.get("forecast")
    if odds is not None:
        for i, name in enumerate(ODDS):
            out[sides + 4 + i] = ratio(odds[name], 1.0)
    per_card, _ = _inverse_copies(game)
    played = sides + 4 + len(ODDS)
    cards = len(per_card)
    for key, side, *_ in pending.get("mods", ()):
        card = game.card_index.get(key)
        if card is None:  # not a card: an ability's modifier (Nuclear Missile)
            continue
        at_card = played + side * cards + card
        out[at_card] = min(1.0, out[at_card] + per_card[card])
