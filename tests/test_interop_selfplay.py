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
from spacetable.interop.selfplay import (
    SELFPLAY_ID,
    BotOpponent,
    OpponentPool,
    SampledOpponent,
    SelfPlayEnv,
    frozen_copy,
)
from spacetable.interop.sequential import codes_of, decider, observation_string
from spacetable.interop.table import Table

TABLES = [("showdown", 4, {}), ("spacerace", 3, {"turn_limit": 15}), ("mothership", 2, {"round_limit": 10})]
"""The games and seat counts checked; spacerace and mothership shortened to keep games quick."""


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
