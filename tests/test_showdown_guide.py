"""Starship Showdown at the guided table: the status line, the seats' names, the end screen's words,
the warnings of losing moves (RULINGS.md 32), and the board's text at a phone's and a desktop's size.

Seats follow the rulebook's example round (showdown_helpers.NAMES): Kathryn (0), Han (1), Leela (2).
"""

from __future__ import annotations

import itertools
import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from playwright.sync_api import Browser

import spacetable
from showdown_helpers import apply, new_game, rolls, table, warning_position
from spacetable.engine import Event, Record, State
from spacetable.games.showdown.rules.actions import (
    Attack,
    Board,
    Burn,
    Commit,
    Defend,
    Done,
    EndTurn,
    Hack,
    Teleport,
)
from spacetable.games.showdown.rules.state import ShowdownState

KATHRYN, HAN, LEELA = 0, 1, 2
SVG = "{http://www.w3.org/2000/svg}"


def guide(state: State, seat: int | None) -> str:
    """The status line ``seat`` is sent (with its legal moves, where it owes a decision)."""
    actions = state.legal_actions(seat) if seat is not None and seat in state.awaiting() else []
    line = state.game.guide(state.view(seat), seat, actions)
    assert line
    return line


def _to_draft(players: int = 3) -> ShowdownState:
    state: ShowdownState = new_game(players).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


# ---- the status line -------------------------------------------------------------------------------
def test_the_draft_and_the_fire_tell_each_seat_what_to_choose_and_whom_the_table_waits_for() -> None:
    state = _to_draft()
    assert guide(state, None).startswith("Upgrade round 1 of 2: waiting for Kathryn, Han and Leela to pick")
    line = guide(state, KATHRYN)
    assert "pick a card from your hand" in line and "passes clockwise to Han" in line
    state.apply_action(state.legal_actions(KATHRYN)[0], KATHRYN)
    assert guide(state, KATHRYN).endswith("you have picked; waiting for Han and Leela to pick")
    # two captains burn from the first round: each chooses in secret
    duel = table([{"engine": 1, "weapon": 1}, {"engine": 1, "weapon": 1}], hull=[1, 2])
    apply(duel, EndTurn(), EndTurn())
    assert duel.phase == "fire"
    assert "waiting for Kathryn and Han to choose what to burn" in guide(duel, None)
    assert guide(duel, HAN).endswith("choose in secret what your ship burns: a card aboard or an intact hull token")
    duel.apply_action(Burn("engine"), HAN)
    assert guide(duel, HAN).endswith("you have chosen; waiting for Kathryn")


def _fight() -> ShowdownState:
    return table(
        [
            {"engine": 1, "weapon": 2, "engineer": 1, "hacking": 1},
            {"engine": 1, "weapon": 1, "cryo": 1},
            {"engine": 1, "weapon": 1},
        ],
        cms=[[], ["nitro_fuel"], []],
        energy=[5, 2, 0],
    )


def test_each_step_of_an_attack_names_its_decider_to_everyone() -> None:
    state = _fight()
    assert guide(state, KATHRYN).startswith(
        "Round 1 · your turn, 2 actions left: attack a ship, charge the reactor, teleport a crew member aboard a "
        "ship, hack a card with your Hacking, or end your turn"
    )
    assert guide(state, HAN) == "Round 1 · waiting for Kathryn to take an action (2 actions left)"
    state.apply_action(Attack(HAN, False))
    assert guide(state, KATHRYN).endswith(
        "Your attack on Han: set energy aside for your attack (you have 5); after the roll each token adds +1 to a die"
    )
    assert guide(state, None).endswith("Kathryn attacks Han: waiting for Kathryn to set energy aside for the roll")
    state.apply_action(Commit(1))
    assert "Kathryn attacks you: deploy a face-down countermeasure" in guide(state, HAN)
    assert guide(state, LEELA).endswith("waiting for Han to deploy countermeasures or not")
    state.apply_action(Done(), HAN)
    assert guide(state, HAN).endswith(
        "set energy aside for your defence (you have 2); after the roll each token adds +1 to a die"
    )
    state.apply_action(Commit(0), HAN)
    assert guide(state, None).endswith("Kathryn attacks Han: the dice are rolled")


def test_each_step_of_a_boarding_and_a_hack_names_its_decider_to_everyone() -> None:
    state = _fight()
    apply(state, Teleport(HAN, "engineer"), Done())
    assert guide(state, KATHRYN).endswith(
        "Your Engineer boards Han's ship: choose its mission, sabotage or a fight with the crew"
    )
    assert guide(state, HAN).endswith("waiting for Kathryn to choose sabotage or a fight")
    apply(state, Board("combat"))
    assert guide(state, HAN).endswith("choose who meets the boarder, your captain or a crew member at home")
    assert guide(state, None).endswith(
        "Kathryn's Engineer boards Han's ship: waiting for Han to choose who meets the boarder"
    )
    apply(state, Defend("captain"), *rolls(6, 1))
    assert guide(state, KATHRYN).endswith(
        "Han's captain is dead: choose your loot, one of the ship's cards, an intact hull token or 2 energy"
    )
    assert guide(state, LEELA).endswith("waiting for Kathryn to choose the loot")
    hacked = _fight()
    hacked.apply_action(Hack(HAN, "engine"))
    assert guide(hacked, HAN).endswith(
        "Kathryn's Hacking aims at your Engine: deploy a face-down countermeasure "
        "(a Frequency Scrambler stops it; a boost costs 2 energy), or deploy nothing"
    )


# ---- names and the end --------------------------------------------------------------------------------
def test_the_seats_are_named_by_their_captains_in_the_names_the_board_and_the_log() -> None:
    game = spacetable.load("showdown", 4, {"fire_round": 6})
    names = game.seat_names()
    assert names == ["Leela", "Malcolm", "Han", "Kathryn"]  # the content's captains
    state = game.new_initial_state()
    rng = random.Random(4)
    log: list[Event] = []
    while not state.is_terminal():
        seat = None if state.is_chance_node() else state.awaiting()[0]
        action = state.sample_chance(rng) if seat is None else rng.choice(state.legal_actions(seat))
        log += state.apply_action(action, seat)
    words = "\n".join(e.text for e in log if e.visible_to(None))
    assert all(re.search(rf"\b{name}\b", words) for name in names)
    assert not re.search(r"\b(player|seat) \d", words, re.I)
    assert game.seat_names(state.view(None)) == names
    root = ET.fromstring(game.board_svg(state.view(1), 1) or "")
    drawn = [(e.text or "").removesuffix("  (you)") for e in root.iter(f"{SVG}text") if e.get("class") == "mat-name"]
    assert sorted(drawn) == sorted(names)


def test_the_end_screen_says_who_won_how_and_what_the_scores_count() -> None:
    state = table([{"engine": 1, "weapon": 4}, {"engine": 1, "weapon": 1}], hull=[3, 1])
    apply(state, Attack(HAN, False), Commit(0), Commit(0), *rolls(3, 3, 3, 3, 1))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (KATHRYN,)
    game = state.game
    won = game.explain_outcome(state.view(KATHRYN), outcome, KATHRYN)
    lost = game.explain_outcome(state.view(HAN), outcome, HAN)
    watched = game.explain_outcome(state.view(None), outcome, None)
    counted = "Each score counts the intact hull tokens a captain still had at the end (0 for a captain who is out)"
    assert won.startswith("You won: last captain standing, with 2 intact hull tokens left.")  # collateral took one
    assert lost.startswith("You lost: your ship was wrecked, placing 2nd of 2. Kathryn wins: last captain standing.")
    assert watched.startswith("Kathryn wins: last captain standing.")
    assert all(counted in words for words in (won, lost, watched))
    assert guide(state, None) == "Game over: Kathryn wins (last captain standing)"


# ---- losing moves -----------------------------------------------------------------------------------------
def _successes(dice: tuple[int, ...], energy: int, success: int = 3) -> int:
    """Successes of a roll with ``energy`` set aside, lifting the failures that need least first."""
    hits = 0
    for need in sorted(success - v for v in dice if v < success):
        if need <= energy:
            energy -= need
            hits += 1
    return hits + sum(v >= success for v in dice)


def _chance(attack: int, defence: int, faces: int, success: int, energy: int, out: Callable[[int, int], bool]) -> float:
    """The chance, over every way the dice fall, that ``out(hits, blocks)``."""
    total = 0
    for roll in itertools.product(range(1, faces + 1), repeat=attack + defence):
        hits = sum(v >= success for v in roll[:attack])
        total += out(hits, _successes(roll[attack:], energy, success))
    return total / float(faces ** (attack + defence))


def _percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def test_an_attack_whose_collateral_damage_would_wreck_the_attacker_is_warned_and_it_does() -> None:
    ships = [{"engine": 1, "weapon": 4}, {"engine": 1, "weapon": 1}, {"engine": 3, "weapon": 1}]
    state = table(ships, cms=[[], ["armor_plating"], []], energy=[0, 0, 0], hull=[1, 1, 3])
    warnings = {a: state.action_warning(a) for a in state.legal_actions(KATHRYN)}
    # from what Kathryn may know: Han's face-down card, whatever it is, is not counted
    for seed in range(3):
        other = state.resample(KATHRYN, random.Random(seed))
        assert {a: other.action_warning(a) for a in other.legal_actions(KATHRYN)} == warnings
    warning = warnings[Attack(HAN, False)]
    odds = _chance(4, 1, 4, 3, 0, lambda hits, blocks: hits > blocks)
    assert warning == (
        f"This puts you out of the game {_percent(odds)} of the time: wrecking Han's ship would wreck yours too "
        "(collateral damage). Safer: attack Leela."  # wrecking Leela's would take all three: Kathryn's win
    )
    assert state.action_warning(Attack(LEELA, False)) is None and state.action_warning(EndTurn()) is None
    # and so it goes: Han's ship is wrecked, and its explosion Kathryn's
    apply(state, Attack(HAN, False), Done(), *rolls(3, 3, 3, 3, 1))
    assert state.status[KATHRYN] == "destroyed" and state.winners == [LEELA]


def test_too_little_energy_against_a_volley_is_warned_where_more_would_likely_save_the_ship() -> None:
    ships = [{"engine": 1, "weapon": 4}, {"engine": 2, "weapon": 1}, {"engine": 1, "weapon": 1}]
    state = table(ships, energy=[0, 4, 0], hull=[3, 1, 3])
    state.apply_action(Attack(HAN, False))
    chances = [_chance(4, 2, 4, 3, e, lambda hits, blocks: hits > blocks) for e in range(5)]
    warned = {a.energy: state.action_warning(a) for a in state.legal_actions(HAN) if isinstance(a, Commit)}
    assert [e for e, w in warned.items() if w] == [e for e, c in enumerate(chances) if c >= 0.5] == [0, 1]
    best = min(range(5), key=lambda e: chances[e])
    assert warned[0] == (
        f"This puts you out of the game {_percent(chances[0])} of the time: the attack may wreck your ship. "
        f"Safer: set aside {best} energy ({_percent(chances[best])})."
    )


def test_where_every_choice_is_as_likely_to_lose_none_is_singled_out() -> None:
    ships = [{"engine": 1, "weapon": 4}, {"engine": 1, "weapon": 1}, {"engine": 1, "weapon": 1}]
    state = table(ships, energy=[0, 2, 0], hull=[3, 1, 3])
    state.apply_action(Attack(HAN, False))
    chances = [_chance(4, 1, 4, 3, e, lambda hits, blocks: hits > blocks) for e in range(3)]
    assert min(chances) >= 0.5
    assert not [a for a in state.legal_actions(HAN) if state.action_warning(a)]


def test_burning_the_last_intact_hull_token_is_warned_to_its_own_seat_only() -> None:
    duel = table([{"engine": 1, "weapon": 1}, {"engine": 1, "weapon": 1}], hull=[1, 2])
    apply(duel, EndTurn(), EndTurn())
    duel.legal_actions(KATHRYN)  # the table lists a seat's moves, then asks for their warnings
    assert duel.action_warning(Burn("hull")) == (
        "This puts you out of the game for certain: a ship with no intact hull token left is wrecked. "
        "Safer: discard Engine."
    )
    assert duel.action_warning(Burn("engine")) is None
    duel.legal_actions(HAN)
    assert duel.action_warning(Burn("hull")) is None


def test_the_recorded_warning_position_asks_its_seat_to_confirm_the_captain_against_a_pilot() -> None:
    data, seat, warned_label, safe_label = warning_position()
    record = Record.loads(json.dumps(data))
    state = record.final_state()
    assert isinstance(state, ShowdownState) and state.awaiting() == (seat,) and record.seats[seat] == "Malcolm"
    labels = {state.action_label(a): a for a in state.legal_actions(seat)}
    warned, safe = labels[warned_label], labels[safe_label]
    assert isinstance(warned, Defend) and warned.crew == "captain"
    odds = _chance(3, 1, 6, 4, 0, lambda hits, blocks: hits > blocks)  # a Pilot's 3 dice against a Captain's 1
    assert state.action_warning(warned) == (
        f"This puts you out of the game {_percent(odds)} of the time: if the boarder wins the fight, your captain "
        "is killed. Safer: defend with your Engineer."  # the first crew member he may lose instead
    )
    assert state.action_warning(safe) is None


# ---- the board's smallest text ------------------------------------------------------------------------------
DESKTOP = (760, 690, 640)
"""A 1280 x 800 screen: the board's width beside the side panel (about 760 px, less than the table
gives it today), the room's height (the board panel's max-height, 100vh - 4.5rem, less 4 px and a
status line of two lines above the board: table.js ``boardRoom``, ``aboveBoard``), and the widest a
tall board is drawn (40rem)."""
PHONE = (370, 800, None)
"""A 390 x 844 phone: the board's width, and its room (the window's height less 16 px and what sits
above the board), the tall board as wide as the screen."""


def _font_sizes(root: ET.Element) -> list[float]:
    """The font size of every text of the board, from the board's own style rules."""
    style = "".join(e.text or "" for e in root.iter(f"{SVG}style"))
    sizes = {cls: float(px) for cls, px in re.findall(r"\.sd-board \.([\w-]+)[^{]*\{[^}]*font-size:([\d.]+)px", style)}
    found = []
    for t in root.iter(f"{SVG}text"):
        known = [sizes[c] for c in (t.get("class") or "").split() if c in sizes]
        assert known, f"a text without a font size: {t.text!r}"
        found.append(known[-1])
    return found


def _box(value: str) -> tuple[float, float]:
    _, _, width, height = map(float, value.split())
    return width, height


def smallest_px(svg: str, screen: tuple[int, int, int | None]) -> float:
    """The smallest text of ``svg`` in screen pixels where the table draws it on ``screen``: the
    arrangement table.js ``arrange()`` picks (the wide one where it draws the board at least 0.9
    times as large), at the size style.css gives it (the wide one capped to the room's height, the
    tall one as wide as the board may be): font size × rendered width / viewBox width."""
    width, room, widest = screen
    root = ET.fromstring(svg)
    tall, wide = _box(root.attrib["data-viewbox-tall"]), _box(root.attrib["data-viewbox-wide"])

    def scale(box: tuple[float, float]) -> float:
        return min(width / box[0], room / box[1])

    shown = scale(wide) if scale(wide) >= 0.9 * scale(tall) else min(width, widest or width) / tall[0]
    return min(_font_sizes(root)) * shown


def _busy() -> ShowdownState:
    """Six full ships, crew aboard others, tokens on cards, and a double attack of twelve dice rolled."""
    full = {"engine": 3, "weapon": 6, "hacking": 1, "engineer": 1, "gunner": 2, "pilot": 1, "cryo": 1}
    state = table(
        [dict(full) for _ in range(6)],
        cms=[["nitro_fuel", "armor_plating"]] * 6,
        energy=[9, 10, 3, 4, 5, 6],
        hull=[9, 8, 7, 6, 5, 4],
    )
    apply(state, Teleport(2, "gunner"), Done(), Board("sabotage"), EndTurn())
    apply(state, Hack(0, "engine"), Done(), EndTurn())
    apply(state, Teleport(1, "pilot"), Done(), Board("sabotage"), EndTurn())
    for _ in range(3):
        apply(state, EndTurn())
    apply(state, Attack(1, True), Commit(6), Done(), Commit(4), *rolls(*[1 + k % 4 for k in range(14)]))
    assert state.pending and state.pending["stage"] == "roll" and state.boarders and state.tokens
    return state


def _positions() -> list[tuple[str, str]]:
    """A few boards: a draft, a fight, the recorded warning position, and a busy six-captain table."""
    draft = _to_draft(4)
    fight = _fight()
    apply(fight, Attack(HAN, True), Commit(5), Done(), Commit(2), *rolls(1, 2, 3, 4, 1))
    warned = Record.loads(json.dumps(warning_position()[0])).final_state()
    busy = _busy()
    return [
        ("draft", draft.game.board_svg(draft.view(0), 0) or ""),
        ("fight", fight.game.board_svg(fight.view(HAN), HAN) or ""),
        ("warned", warned.game.board_svg(warned.view(1), 1) or ""),
        ("busy", busy.game.board_svg(busy.view(1), 1) or ""),
        ("busy, watched", busy.game.board_svg(busy.view(None), None) or ""),
    ]


def test_the_board_text_is_at_least_12_px_on_a_desktop_and_11_on_a_phone() -> None:
    for name, svg in _positions():
        assert smallest_px(svg, DESKTOP) >= 12, name
        assert smallest_px(svg, PHONE) >= 11, name


def test_a_six_captain_game_keeps_its_text_readable_throughout() -> None:
    game = spacetable.load("showdown", 6, {"fire_round": 6})
    state = game.new_initial_state()
    rng = random.Random(6)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.awaiting()[0]
        if decisions % 5 == 0:
            svg = game.board_svg(state.view(seat), seat) or ""
            assert smallest_px(svg, DESKTOP) >= 12 and smallest_px(svg, PHONE) >= 11, decisions
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        decisions += 1


# ---- what covers what, and what the pointer finds (in Chromium) ----------------------------------------------
LOOK = """(wide) => {
  const svg = document.querySelector('svg');
  if (wide) { svg.setAttribute('viewBox', svg.dataset.viewboxWide); svg.classList.add('st-wide'); }
  const all = [...svg.querySelectorAll('rect,circle,path,polygon,text')];
  const clear = (c) => c === 'none' || c === 'transparent' || /rgba\\(.*,\\s*0\\)$/.test(c);
  const paint = (e) => {
    const cs = getComputedStyle(e);
    if (!clear(cs.fill) && parseFloat(cs.fillOpacity) !== 0) return 'fill';
    return !clear(cs.stroke) && parseFloat(cs.strokeWidth) > 0 ? 'stroke' : null;
  };
  const box = (e, by) => {
    const r = e.getBoundingClientRect();
    return {l: r.left + by, t: r.top + by, r: r.right - by, b: r.bottom - by};
  };
  const meet = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
  const within = (a, b) => a.l >= b.l && a.r <= b.r && a.t >= b.t && a.b <= b.b;
  const name = (e) => `${e.tagName}.${e.getAttribute('class') || ''} ${(e.textContent || '').slice(0, 24)}`;
  const paints = all.map(paint);
  const boxes = all.map((e) => box(e, e.tagName === 'text' ? 2 : 0.5));
  const inner = all.map((e) => box(e, 2));
  const covered = [];
  all.forEach((t, i) => {
    if (t.tagName !== 'text' || !t.textContent.trim()) return;
    for (let k = i + 1; k < all.length; k++) {
      if (!paints[k] || !meet(boxes[i], boxes[k])) continue;
      if (paints[k] === 'stroke' && all[k].tagName !== 'text' && within(boxes[i], inner[k])) continue;  // an outline
      covered.push(`${name(t)} under ${name(all[k])}`);
    }
  });
  const silent = [];
  for (const e of all) {
    const cls = e.getAttribute('class') || '';
    const shape = e.hasAttribute('data-term') || /\\b(bolt|die|ring|ring-head|hull|rating|armor)\\b/.test(cls);
    const symbol = e.tagName === 'text' ? /[⚡▶★✓✕→Ψ×]/.test(e.textContent) : shape;
    const r = e.getBoundingClientRect();
    if (!symbol || r.width < 1 || r.height < 1) continue;
    let at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    while (at && at !== svg && ![...at.children].some((c) => c.tagName === 'title')) at = at.parentElement;
    if (!at || at === svg) silent.push(name(e));
  }
  return {covered, silent};
}"""


def test_no_board_element_covers_words_and_every_symbol_answers_the_pointer(browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 3000})
    try:
        for name, svg in _positions():
            for wide, width in ((False, PHONE[0]), (True, DESKTOP[0])):
                page.set_content(
                    f"<body style='margin:0;width:{width}px'>{svg}</body>"
                    "<style>svg{width:100%;height:auto;display:block}</style>"
                )
                seen = page.evaluate(LOOK, wide)
                assert seen == {"covered": [], "silent": []}, (name, "wide" if wide else "tall")
    finally:
        page.close()
