"""The self-play environment (interop/selfplay.py): Gymnasium's and Stable-Baselines3's checkers,
what the learning seat sees, where the opponents' moves come from, replay for a seed, rewards
against the game's returns, frozen copies of a MaskablePPO learner, and the example's run."""

from __future__ import annotations

import random
import runpy
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from spacetable.agents import make_agent
from spacetable.engine import IllegalActionError, OptionsError
from spacetable.interop.factored import FactoredCodec
from spacetable.interop.selfplay import (
    SELFPLAY_ID,
    BotOpponent,
    ObservingOpponent,
    OpponentPool,
    SampledOpponent,
    SelfPlayEnv,
    frozen_copy,
)
from spacetable.interop.sequential import codes_of, decider, observation_string, observe
from spacetable.interop.table import Table

TABLES = [
    ("showdown", 4, {}),
    ("spacerace", 3, {"turn_limit": 15}),
    ("mothership", 2, {"round_limit": 10, "actions": "flat"}),
]
"""The games and seat counts checked with flat actions (Mothership's default is factored);
spacerace and mothership shortened to keep games quick."""
SHORT_MOTHERSHIP = {"round_limit": 3}
"""Mothership's options for whole factored games: a few rounds, a fraction of a second a game."""


class RecordingBot(BotOpponent):
    """A spacetable bot that notes each decision it makes: (seat, code)."""

    def __init__(self, bot: str, name: str) -> None:
        super().__init__(make_agent(bot))
        self.name = name
        self.decisions: list[tuple[int, int]] = []

    def act(self, table: Table, seat: int, rng: random.Random) -> int:
        code = super().act(table, seat, rng)
        self.decisions.append((seat, code))
        return code


def first_legal(_observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def varied_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A legal code that depends on the observation (so different games take different paths)."""
    legal = np.flatnonzero(mask)
    return int(legal[int(observation.sum() * 1000) % len(legal)])


def play_episode(env: SelfPlayEnv, seed: int, chooser=first_legal) -> list[tuple]:
    """One game with the learner's actions from ``chooser``: (observation, reward, info) per step."""
    observation, info = env.reset(seed=seed)
    steps = [(observation, 0.0, info)]
    over = cut = False
    while not (over or cut):
        observation, reward, over, cut, info = env.step(chooser(observation, info["action_mask"]))
        steps.append((observation, reward, info))
    assert over, "a game of legal actions ends before the step limit"
    return steps


@pytest.mark.parametrize(("game_id", "players", "options"), TABLES, ids=[t[0] for t in TABLES])
def test_gymnasium_and_sb3_checkers_pass(game_id: str, players: int, options: dict) -> None:
    """Both checkers step with unmasked random actions: they are refused (illegal_reward 0.0).
    Mothership's flat space of 191,814 codes is checked too: its checks take a tenth of a second."""
    env = gymnasium.make(SELFPLAY_ID, game=game_id, players=players, opponents=["random", "greedy"], **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gymnasium_check_env(env.unwrapped)
        sb3_check_env(env.unwrapped, warn=True)
    assert [str(w.message) for w in caught] == []
    assert env.unwrapped.action_space.n == env.unwrapped.game.actions.size


@pytest.mark.parametrize(("game_id", "players", "options"), TABLES[:2], ids=[t[0] for t in TABLES[:2]])
def test_the_learner_sees_only_its_seat_and_every_other_move_comes_from_the_pool(
    game_id: str, players: int, options: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorders = [RecordingBot("random", "alice"), RecordingBot("greedy", "bob")]
    pool = OpponentPool(recorders)
    env = SelfPlayEnv(game_id, players, opponents=pool, **options)
    plays: list[tuple[int, int]] = []
    table_play = env.table.play

    def noting_play(seat: int, code: int) -> bool:
        plays.append((seat, code))
        return table_play(seat, code)

    monkeypatch.setattr(env.table, "play", noting_play)
    seen_opponents: set[str] = set()
    for seed in range(3):
        for recorder in recorders:
            recorder.decisions.clear()
        plays.clear()
        observation, info = env.reset(seed=seed)
        seat, seated = info["seat"], info["opponents"]
        assert sorted(seated) == [other for other in range(players) if other != seat]
        seen_opponents.update(seated.values())
        learner_moves = []
        over = False
        while not over:
            state = env.engine_state
            assert decider(state) == seat
            np.testing.assert_array_equal(observation, np.asarray(env.game.observation_tensor(state, seat), np.float32))
            assert np.flatnonzero(info["action_mask"]).tolist() == codes_of(state, seat)
            code = random.Random(len(plays)).choice(codes_of(state, seat))
            learner_moves.append(code)
            observation, _, over, _, info = env.step(code)
        assert [code for who, code in plays if who == seat] == learner_moves
        by_recorder = {recorder.name: recorder.decisions for recorder in recorders}
        for other, name in seated.items():
            assert [(who, code) for who, code in plays if who == other] == [
                decision for decision in by_recorder[name] if decision[0] == other
            ]
        assert sum(map(len, by_recorder.values())) == len(plays) - len(learner_moves) > 0
    assert seen_opponents == {"alice", "bob"}


def test_the_learning_seat_is_drawn_or_fixed_and_opponents_follow_the_weights() -> None:
    drawn = SelfPlayEnv("showdown", 4, opponents={"random": 1.0, "greedy": 3.0})
    seats, names = [], []
    for seed in range(60):
        _, info = drawn.reset(seed=seed)
        seats.append(info["seat"])
        names += info["opponents"].values()
    assert set(seats) == {0, 1, 2, 3}
    assert 0.6 < names.count("greedy") / len(names) < 0.9  # 3 in 4 expected, of 180 draws
    fixed = SelfPlayEnv("showdown", 4, seat=2)
    assert {fixed.reset(seed=seed)[1]["seat"] for seed in range(10)} == {2}


def test_the_same_seed_replays_the_game_opponents_included() -> None:
    uniform = SampledOpponent(lambda _observation, mask: np.ones(len(mask)), "uniform")
    pool = OpponentPool({"random": 1.0, "greedy": 1.0, uniform: 1.0})

    def trajectory(env: SelfPlayEnv, seed: int) -> tuple:
        steps = play_episode(env, seed, chooser=varied_legal)
        return (
            [observation.tobytes() for observation, _, _ in steps],
            [reward for _, reward, _ in steps],
            observation_string(env.engine_state, None),
        )

    first = SelfPlayEnv("showdown", 4, opponents=pool, reward="shaped")
    again = SelfPlayEnv("showdown", 4, opponents=pool, reward="shaped")
    assert trajectory(first, 7) == trajectory(again, 7) == trajectory(first, 7)
    assert trajectory(first, 7) != trajectory(first, 8)


@pytest.mark.parametrize(("game_id", "players", "options"), TABLES[:2], ids=[t[0] for t in TABLES[:2]])
@pytest.mark.parametrize("reward", ["win", "shaped"])
def test_the_learners_return_is_the_games(game_id: str, players: int, options: dict, reward: str) -> None:
    """``win``: the rewards sum to the seat's return; ``shaped``: plus its progress since its
    first observation."""
    env = SelfPlayEnv(game_id, players, opponents=["random"], reward=reward, **options)
    for seed in range(3):
        env.reset(seed=seed)
        start = env.game.progress(env.engine_state, env.seat) if reward == "shaped" else 0.0
        rewards = [reward for _, reward, _ in play_episode(env, seed)]
        state, seat = env.engine_state, env.seat
        expected = state.returns()[seat]
        if reward == "shaped":
            expected += env.game.progress(state, seat) - start
        assert sum(rewards) == pytest.approx(expected)
        if reward == "win":
            assert not any(rewards[:-1])


def test_an_illegal_action_is_refused_or_raises() -> None:
    env = SelfPlayEnv("spacerace", 3, opponents=["random"], illegal_reward=-0.5)
    observation, info = env.reset(seed=3)
    before = observation_string(env.engine_state, None)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, over, cut, info = env.step(illegal)
    assert (reward, over, cut, info["illegal_action"]) == (-0.5, False, False, True)
    assert f"action {illegal} is not legal for seat {info['seat']}" in info["error"]
    np.testing.assert_array_equal(after, observation)
    assert observation_string(env.engine_state, None) == before
    strict = SelfPlayEnv("spacerace", 3, illegal_reward=None)
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError, match="not legal for seat"):
        strict.step(illegal)


def test_refused_actions_run_into_the_step_limit() -> None:
    env = SelfPlayEnv("showdown", 2, step_limit=3)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    assert [env.step(illegal)[3] for _ in range(3)] == [False, False, True]


def test_bad_settings_get_clear_errors() -> None:
    with pytest.raises(OptionsError, match="unknown bot 'grandmaster'"):
        SelfPlayEnv("showdown", 4, opponents=["grandmaster"])
    with pytest.raises(ValueError, match=r"seat must be one of 0\.\.3"):
        SelfPlayEnv("showdown", 4, seat=4)
    with pytest.raises(ValueError, match="weight must be positive"):
        OpponentPool({"random": 0.0})
    with pytest.raises(ValueError, match="at least one opponent"):
        OpponentPool([])
    with pytest.raises(TypeError, match="not int"):
        OpponentPool([3])
    cheat = SelfPlayEnv("showdown", 2, seat=0, opponents=[lambda _observation, mask: int(np.flatnonzero(mask == 0)[0])])
    with pytest.raises(IllegalActionError, match=r"opponent '<lambda>': action [0-9]+ is not legal for seat 1"):
        _, info = cheat.reset(seed=0)
        cheat.step(first_legal(None, info["action_mask"]))


def test_a_solo_game_has_no_opponents() -> None:
    env = SelfPlayEnv("mothership", 1, round_limit=3)
    _, info = env.reset(seed=0)
    assert (info["seat"], info["opponents"]) == (0, {})


def test_a_frozen_copy_keeps_the_policy_it_was_taken_with() -> None:
    from sb3_contrib import MaskablePPO

    env = SelfPlayEnv("showdown", 4, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu")
    frozen = frozen_copy(model, "copy-0")
    assert isinstance(frozen, SampledOpponent)
    observation, info = env.reset(seed=0)
    mask = info["action_mask"]
    before = np.asarray(frozen.probabilities(observation, mask))
    assert before[mask == 0].sum() == 0 and before.sum() == pytest.approx(1.0)
    for parameter in model.policy.parameters():  # training on changes the learner, not the copy
        parameter.data.add_(0.5)
    np.testing.assert_allclose(frozen.probabilities(observation, mask), before)
    against_copies = SelfPlayEnv("showdown", 4, opponents=OpponentPool([frozen]))
    steps = play_episode(against_copies, 5)
    assert play_episode(against_copies, 5)[-1][0].tobytes() == steps[-1][0].tobytes()
    greedy = frozen_copy(model, "copy-argmax", deterministic=True)
    table = against_copies.table
    table.reset(0)
    code = greedy.act(table, table.acting()[0], random.Random(0))
    assert code in codes_of(table.state, table.acting()[0])


def masked_random(seed: int):
    """A learner choosing uniformly among the legal values, from its own generator."""
    rng = random.Random(seed)
    return lambda _observation, mask: rng.choice(np.flatnonzero(mask).tolist())


def chosen_steps(observation: dict, codec: FactoredCodec) -> list[int]:
    """The steps a factored observation's one-hot ``decision`` rows say were chosen so far."""
    rows = observation["decision"].reshape(codec.depth, codec.width)
    return [int(np.argmax(row)) for row in rows if row.any()]


class RecordingSteps(ObservingOpponent):
    """An observing opponent that notes each step it is asked for: (observation, mask, value)."""

    def __init__(self, inner: ObservingOpponent) -> None:
        self.inner = inner
        self.name = inner.name
        self.observation_space = inner.observation_space
        self.steps: list[tuple[dict, np.ndarray, int]] = []

    def decide(self, observation, mask, rng: random.Random) -> int:
        value = self.inner.decide(observation, mask, rng)
        self.steps.append((observation, mask.copy(), value))
        return value


def test_mothership_self_play_is_factored_by_default_and_passes_both_checkers() -> None:
    env = gymnasium.make(SELFPLAY_ID, game="mothership", players=2, opponents=["random", "greedy"])
    inner = env.unwrapped
    codec = FactoredCodec(inner.game)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gymnasium_check_env(inner)
        sb3_check_env(inner, warn=True)
    assert [str(w.message) for w in caught] == []
    assert inner.action_space.n == codec.width < 200 < inner.game.actions.size
    assert inner.observation_space["decision"].shape == (codec.depth * codec.width,)
    assert inner.observation_space["observation"].shape == inner.game.observation_shape()
    assert inner.step_limit == inner.game.bounded_length() * codec.depth


@pytest.mark.parametrize("reward", ["win", "shaped"])
def test_a_factored_game_moves_only_at_the_last_step_of_each_decision(
    reward: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole games of random masked steps against random and greedy bots: each step's
    observation and mask are the learner's, nothing moves and nothing is paid before a
    decision's last step, the action played is the one the steps spell, and the rewards add up
    to the return (``shaped``: plus the progress since the first observation)."""
    env = SelfPlayEnv("mothership", 2, opponents=["random", "greedy"], reward=reward, **SHORT_MOTHERSHIP)
    codec = FactoredCodec(env.game)
    played: list[tuple[int, int]] = []
    table_play = env.table.play
    monkeypatch.setattr(env.table, "play", lambda seat, code: played.append((seat, code)) or table_play(seat, code))
    seen_opponents: set[str] = set()
    for seed in range(4):
        observation, info = env.reset(seed=seed)
        seen_opponents.update(info["opponents"].values())
        seat, learner = env.seat, masked_random(seed)
        start = env.game.progress(env.engine_state, seat) if reward == "shaped" else 0.0
        played.clear()
        chosen: list[int] = []
        decisions, rewards = [], []
        over = cut = False
        while not (over or cut):
            state = env.engine_state
            legal = [env.game.actions.parts(action) for action in state.legal_actions(seat)]
            assert decider(state) == seat and chosen_steps(observation, codec) == chosen
            np.testing.assert_array_equal(observation["observation"], observe(state, seat))
            np.testing.assert_array_equal(info["action_mask"], codec.mask(legal, chosen))
            before = observation_string(state, None)
            chosen.append(learner(observation, info["action_mask"]))
            observation, paid, over, cut, info = env.step(chosen[-1])
            rewards.append(paid)
            if codec.finished(chosen):
                decisions.append(codec.code(chosen))
                chosen = []
            else:
                assert (paid, observation_string(env.engine_state, None)) == (0.0, before)
        assert over and not chosen
        assert [code for who, code in played if who == seat] == decisions
        assert any(who != seat for who, _ in played)
        state = env.engine_state
        expected = state.returns()[seat] + (env.game.progress(state, seat) - start if reward == "shaped" else 0.0)
        assert sum(rewards) == pytest.approx(expected)
    assert seen_opponents == {"random", "greedy"}


def test_a_factored_step_outside_the_mask_is_refused_or_raises() -> None:
    env = SelfPlayEnv("mothership", 2, seat=0, illegal_reward=-0.5, **SHORT_MOTHERSHIP)
    codec = FactoredCodec(env.game)
    _, info = env.reset(seed=0)
    family = next(value for value in np.flatnonzero(info["action_mask"]) if codec.fields[value])
    *_, info = env.step(family)
    before = observation_string(env.engine_state, None)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, over, cut, refused = env.step(illegal)
    assert (reward, over, cut, refused["illegal_action"]) == (-0.5, False, False, True)
    assert f"step 1 of seat 0's decision (chosen so far: [{family}]): {illegal} is not legal" in refused["error"]
    assert chosen_steps(after, codec) == [family] and observation_string(env.engine_state, None) == before
    np.testing.assert_array_equal(refused["action_mask"], info["action_mask"])
    strict = SelfPlayEnv("mothership", 2, seat=0, illegal_reward=None, **SHORT_MOTHERSHIP)
    strict.reset(seed=0)
    strict.step(family)
    with pytest.raises(IllegalActionError, match="step 1 of seat 0's decision"):
        strict.step(illegal)
    cheat = SelfPlayEnv(
        "mothership", 2, seat=1, opponents=[lambda _observation, mask: int(np.flatnonzero(mask == 0)[0])]
    )
    with pytest.raises(IllegalActionError, match=r"opponent '<lambda>': step 0 of seat 0's decision"):
        cheat.reset(seed=0)


def test_a_frozen_copy_of_a_factored_learner_plays_its_seat_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a short training phase, a copy of a MaskablePPO learner on factored Mothership is
    asked once per step of each of its decisions, with that step's observation (its own seat's
    tensor, the steps chosen so far) and mask, and its seat plays the action the steps spell;
    games against it replay for a seed. A flat environment refuses to seat it."""
    from sb3_contrib import MaskablePPO

    learning = SelfPlayEnv("mothership", 2, **SHORT_MOTHERSHIP)
    model = MaskablePPO("MultiInputPolicy", learning, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu")
    model.learn(16)
    copied = RecordingSteps(frozen_copy(model, "copy-0"))
    env = SelfPlayEnv("mothership", 2, seat=0, opponents=OpponentPool([copied]), **SHORT_MOTHERSHIP)
    codec = FactoredCodec(env.game)
    decisions = []
    table_play = env.table.play

    def checking_play(seat: int, code: int) -> str | None:
        if seat == 1:
            steps = copied.steps[sum(len(values) for values in decisions) :]
            values = [value for _, _, value in steps]
            state = env.engine_state
            legal = [env.game.actions.parts(action) for action in state.legal_actions(seat)]
            for number, (observation, mask, _) in enumerate(steps):
                np.testing.assert_array_equal(observation["observation"], observe(state, seat))
                assert chosen_steps(observation, codec) == values[:number]
                np.testing.assert_array_equal(mask, codec.mask(legal, values[:number]))
            assert codec.finished(values) and codec.code(values) == code
            decisions.append(values)
        return table_play(seat, code)

    monkeypatch.setattr(env.table, "play", checking_play)
    final = play_episode(env, 3, chooser=masked_random(3))[-1][0]
    assert len(decisions) > 1 and any(len(values) > 1 for values in decisions)
    first_game = copied.steps[:]
    copied.steps.clear()
    decisions.clear()
    again = play_episode(env, 3, chooser=masked_random(3))[-1][0]
    assert [value for *_, value in copied.steps] == [value for *_, value in first_game]
    assert again["observation"].tobytes() == final["observation"].tobytes()
    flat = SelfPlayEnv("mothership", 2, opponents=OpponentPool([copied]), actions="flat", **SHORT_MOTHERSHIP)
    with pytest.raises(ValueError, match=r"opponent 'copy-0' takes observations Dict\("):
        flat.reset(seed=0)


def test_the_same_seed_replays_a_factored_game_opponents_included() -> None:
    uniform = SampledOpponent(lambda _observation, mask: np.ones(len(mask)), "uniform")
    pool = OpponentPool({"random": 1.0, "greedy": 1.0, uniform: 1.0})

    def trajectory(env: SelfPlayEnv, seed: int) -> tuple:
        steps = play_episode(env, seed, chooser=masked_random(seed))
        return (
            [b"".join(part.tobytes() for part in observation.values()) for observation, _, _ in steps],
            [reward for _, reward, _ in steps],
            observation_string(env.engine_state, None),
        )

    first = SelfPlayEnv("mothership", 3, opponents=pool, reward="shaped", **SHORT_MOTHERSHIP)
    again = SelfPlayEnv("mothership", 3, opponents=pool, reward="shaped", **SHORT_MOTHERSHIP)
    assert trajectory(first, 7) == trajectory(again, 7) == trajectory(first, 7)
    assert trajectory(first, 7) != trajectory(first, 8)


@pytest.mark.soak  # MaskablePPO trains for a few seconds on each game, then plays evaluation games
def test_the_selfplay_example_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    example = Path(__file__).parent.parent / "examples" / "selfplay.py"
    argv = ["selfplay.py", "--minutes", "0.05", "--games", "4", "--freeze-every", "256"]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(example), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count("frozen copies in the pool") == 2
    for game in ("showdown (4)", "spacerace (3)"):
        assert sum(line.startswith(game) for line in out.splitlines()) == 4  # 2 learners x 2 opponents
