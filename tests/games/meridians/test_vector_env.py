"""``VectorEnv(..., game="meridians")`` against decision states stepped one
by one, and its random actions against the playouts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from env_oracle import Oracle, uniform_masked
from veletas.errors import IllegalMoveError, InvalidRulesError
from veletas.games.meridians.encoding import DecisionState
from veletas.games.meridians.types import SIZES, Rules

native = pytest.importorskip("veletas._veletas", reason="the extension is not built")
import veletas  # noqa: E402
from veletas import VectorEnv, meridians  # noqa: E402
from veletas.games.veletas.encoding import RandomAgent  # noqa: E402

RULES = [(size, pie) for size in SIZES for pie in (False, True)]


def make(num_envs: int, **options: Any) -> Any:
    return VectorEnv(num_envs, game="meridians", **options)


def oracle_of(env: Any) -> Oracle:
    """The env's envs as plain decision states on native boards."""
    rules = env.rules
    return Oracle(env, DecisionState(meridians.Board(size=rules.size, pie=rules.pie)))


@pytest.mark.parametrize(("size", "pie"), RULES)
def test_vector_env_steps_like_decision_states(size: str, pie: bool) -> None:
    env = make(4, size=size, pie=pie, seed=1)
    oracle = oracle_of(env)
    obs, mask, player = env.reset()
    n = {"5-6": 10, "6-7": 12, "7-8": 14}[size]
    assert env.observation_shape == (8, n, n)
    assert obs.shape == (4, 8, n, n)
    assert obs.dtype == np.float32
    assert mask.shape == (4, n * n + 2) == (4, env.num_actions)
    assert mask.dtype == player.dtype == np.int8
    oracle.check(env, obs, mask, player)
    rng = np.random.default_rng(0)
    finished = 0
    while finished < 6:
        actions = uniform_masked(rng, mask)
        obs, mask, rewards, terminated, player = env.step(actions)
        expected_rewards, expected_terminated = oracle.step(actions)
        np.testing.assert_array_equal(rewards, expected_rewards)
        np.testing.assert_array_equal(terminated, expected_terminated)
        oracle.check(env, obs, mask, player)
        finished += int(terminated.sum())
    assert rewards.dtype == np.float32
    assert terminated.dtype == np.bool_


@pytest.mark.parametrize(("size", "pie"), RULES)
def test_random_actions_replay_the_playouts(size: str, pie: bool) -> None:
    # Env k, episode e, stepped with random_actions(), plays game e * n + k of
    # meridians.playouts with the same seed: same moves, winner and length.
    n, seed, episodes = 3, 13, 3
    games = meridians.playouts(n * (episodes + 2), size=size, pie=pie, seed=seed, record=True)
    env = make(n, size=size, pie=pie, seed=seed)
    env.reset()
    played: list[list[str]] = [[] for _ in range(n)]
    states = [env.state(k) for k in range(n)]
    while min(env.episode(k) for k in range(n)) < episodes:
        actions = env.random_actions()
        for k in range(n):
            played[k].append(str(states[k].move_of(int(actions[k]))))
        episode = [env.episode(k) for k in range(n)]
        _, _, rewards, terminated, _ = env.step(actions)
        for k in range(n):
            if terminated[k]:
                game = episode[k] * n + k
                assert played[k] == [str(m) for m in games.board(game).move_stack]
                winner_seat = int(np.argmax(rewards[k]))
                winner_color = winner_seat ^ int(games.swapped[game])
                assert winner_color == games.winner[game]
                assert len(played[k]) == games.plies[game]
                played[k] = []
            states[k] = env.state(k)


def test_random_agents_over_the_masks_replay_the_playouts() -> None:
    # The same draw made in Python: RandomAgent(seed, i) over each mask.
    n, seed = 4, 99
    games = meridians.playouts(n, size="5-6", seed=seed)
    env = make(n, size="5-6", seed=seed, auto_reset=False)
    _, mask, player = env.reset()
    agents = [RandomAgent(seed, k) for k in range(n)]
    plies = np.zeros(n, int)
    winners = np.full(n, -1)
    while (player >= 0).any():
        actions = np.array([agents[k](mask[k]) if player[k] >= 0 else 0 for k in range(n)])
        np.testing.assert_array_equal(actions[player >= 0], env.random_actions()[player >= 0])
        plies += player >= 0
        live = player >= 0
        _, mask, rewards, terminated, player = env.step(actions)
        for k in np.flatnonzero(terminated & live):
            winners[k] = int(np.argmax(rewards[k])) ^ int(games.swapped[k])
    np.testing.assert_array_equal(plies, games.plies)
    np.testing.assert_array_equal(winners, games.winner)


def test_without_auto_reset_finished_envs_wait() -> None:
    env = make(3, size="5-6", seed=5, auto_reset=False)
    oracle = oracle_of(env)
    env.reset()
    done = np.zeros(3, bool)
    while not done.all():
        actions = env.random_actions()
        assert ((actions == -1) == done).all()
        obs, mask, rewards, terminated, player = env.step(actions)
        expected_rewards, expected_terminated = oracle.step(actions)
        np.testing.assert_array_equal(rewards, expected_rewards)
        np.testing.assert_array_equal(terminated, expected_terminated)
        oracle.check(env, obs, mask, player)
        assert (rewards[done] == 0).all()
        done |= terminated
    assert (player == -1).all()
    assert not mask.any()
    env.step([0, 1, 2])  # ignored by finished envs
    obs, mask, player = env.reset()
    assert (player == 0).all()
    assert (mask.sum(axis=1) == 80).all()


def test_many_envs_run_in_parallel_deterministically() -> None:
    many = make(150, size="5-6", seed=3)
    alone = [make(1, size="5-6") for _ in range(150)]
    for _ in range(60):
        actions = many.random_actions()
        together = many.step(actions)
        one_by_one = [
            [a.copy() for a in env.step(actions[k : k + 1])] for k, env in enumerate(alone)
        ]
        for i, array in enumerate(together):
            np.testing.assert_array_equal(np.concatenate([out[i] for out in one_by_one]), array)


def test_a_bad_action_names_the_env_and_changes_nothing() -> None:
    env = make(3, size="5-6", seed=2)
    for _ in range(5):
        env.step(env.random_actions())
    live = [a.copy() for a in env.step(env.random_actions())]
    states = [env.state(k) for k in range(3)]
    legal = states[1].legal_actions()
    bad = next(a for a in range(env.num_actions) if a not in legal)
    wrong = env.random_actions()
    for value in (bad, 9, -1, env.num_actions, 2**40):  # 9 is j1, a cut corner
        wrong[1] = value
        with pytest.raises(
            IllegalMoveError, match=rf"illegal action {value} in env 1 at '.* (open|play)': legal"
        ):
            env.step(wrong)
        assert [env.state(k) for k in range(3)] == states
    with pytest.raises(ValueError, match=r"expected one action per env \(3\), got 2"):
        env.step([0, 0])
    with pytest.raises(TypeError, match="actions must be integers"):
        env.step(np.zeros(3))
    obs = env.step(env.random_actions())[0]
    assert not obs.flags.writeable
    assert live[0] is not obs


def test_dispatch_and_constructor_checks() -> None:
    env = make(2, size="7-8", pie=True, seed=2**64 - 1, auto_reset=False)
    assert isinstance(env, VectorEnv)
    assert isinstance(VectorEnv(1), VectorEnv)
    assert not isinstance(object(), VectorEnv)
    assert type(env) is native.MeridiansVectorEnv
    assert env.rules == Rules("7-8", pie=True)
    assert (len(env), env.num_envs, env.num_actions) == (2, 2, 198)
    assert (env.seed, env.auto_reset) == (2**64 - 1, False)
    assert repr(env) == (
        "VectorEnv(2, game='meridians', size='7-8', pie=True, seed=18446744073709551615, "
        "auto_reset=False)"
    )
    assert make(1).rules == Rules("6-7", pie=False)
    out = env.reset()
    assert env.reset()[0] is out[0]
    assert env.step(env.random_actions())[1] is out[1]
    env.reset(seed=4)
    assert env.seed == 4
    with pytest.raises(InvalidRulesError, match="unknown size '8-9'"):
        make(1, size="8-9")
    with pytest.raises(InvalidRulesError, match="pie must be a bool"):
        make(1, pie=1)
    with pytest.raises(ValueError, match="num_envs must be an int from 1"):
        make(0)
    with pytest.raises(ValueError, match="seed must be an int from 0"):
        make(1, seed=-1)
    with pytest.raises(TypeError, match="variant"):
        make(1, variant="small")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        VectorEnv(1, game="chess")  # type: ignore[call-overload]
    with pytest.raises(IndexError, match=r"env index 2 is not in 0\.\.2"):
        env.state(2)
    assert veletas.VectorEnv is VectorEnv


def test_meridians_episodes_start_from_the_given_positions() -> None:
    from veletas import meridians

    board = meridians.Board(size="5-6")
    board.push(next(iter(board.legal_moves)))
    env = VectorEnv(2, game="meridians", size="5-6", start=board)
    assert all(env.state(k).board.fen() == board.fen() for k in range(2))
    env.reset(start=[board.fen(), meridians.Board(size="5-6")])
    assert env.state(0).board.fen() == board.fen()
    assert env.state(1).board.fen() == meridians.Board(size="5-6").fen()
