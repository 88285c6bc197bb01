"""``VectorEnv`` against ``DecisionState`` objects stepped one by one."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import veletas
from rl_games import RULE_OPTIONS, VARIANTS, new_board
from veletas import DecisionState, IllegalMoveError, InvalidRulesError, VectorEnv
from veletas.games.veletas.encoding import RandomAgent


class Oracle:
    """Envs as plain ``DecisionState`` objects, reset by hand."""

    def __init__(self, env: VectorEnv, board: veletas.Board) -> None:
        self.start = DecisionState(board)
        self.states = [self.start.copy() for _ in range(env.num_envs)]
        self.auto_reset = env.auto_reset

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rewards = np.zeros((len(self.states), 2), np.float32)
        terminated = np.zeros(len(self.states), bool)
        for k, (state, action) in enumerate(zip(self.states, actions, strict=True)):
            if state.is_terminal():  # only without auto-reset: the env waits
                terminated[k] = True
                continue
            state.apply(int(action))
            if state.is_terminal():
                terminated[k] = True
                seat = int(state.winner) ^ int(state.swapped)
                rewards[k, seat], rewards[k, 1 - seat] = 1.0, -1.0
                if self.auto_reset:
                    self.states[k] = self.start.copy()
        return rewards, terminated

    def check(self, env: VectorEnv, obs: np.ndarray, mask: np.ndarray, player: np.ndarray) -> None:
        for k, state in enumerate(self.states):
            assert env.state(k) == state
            np.testing.assert_array_equal(obs[k], state.observation())
            np.testing.assert_array_equal(mask[k], state.action_mask())
            assert player[k] == (-1 if state.is_terminal() else state.seat_to_act)


def uniform_masked(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of ``mask`` (0 where none is)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_vector_env_steps_like_decision_states(
    variant: str, setup_rule: str, shooters_block: bool
) -> None:
    rules = {"variant": variant, "setup_rule": setup_rule, "shooters_block": shooters_block}
    env = VectorEnv(5, seed=1, **rules)
    oracle = Oracle(env, new_board(variant, setup_rule, shooters_block))
    obs, mask, player = env.reset()
    assert obs.shape == (5, *env.observation_shape)
    assert obs.dtype == np.float32
    assert mask.shape == (5, env.num_actions)
    assert mask.dtype == np.int8
    assert player.dtype == np.int8
    oracle.check(env, obs, mask, player)
    rng = np.random.default_rng(0)
    finished = 0
    while finished < 8:
        actions = uniform_masked(rng, mask)
        obs, mask, rewards, terminated, player = env.step(actions)
        expected_rewards, expected_terminated = oracle.step(actions)
        np.testing.assert_array_equal(rewards, expected_rewards)
        np.testing.assert_array_equal(terminated, expected_terminated)
        oracle.check(env, obs, mask, player)
        finished += int(terminated.sum())
    assert rewards.dtype == np.float32
    assert terminated.dtype == np.bool_


def test_many_envs_run_in_parallel_deterministically() -> None:
    # 200 envs are stepped in parallel chunks; the same envs one by one agree.
    many = VectorEnv(200, variant="small", seed=3)
    alone = [VectorEnv(1, variant="small") for _ in range(200)]
    many.reset()
    for env in alone:
        env.reset()
    for _ in range(150):
        actions = many.random_actions()
        together = many.step(actions)
        one_by_one = [
            [a.copy() for a in env.step(actions[k : k + 1])] for k, env in enumerate(alone)
        ]
        for i, array in enumerate(together):
            np.testing.assert_array_equal(np.concatenate([out[i] for out in one_by_one]), array)


def test_random_actions_follow_the_micro_streams() -> None:
    # Episode e of env k draws with the stream of game e * num_envs + k.
    n, seed = 3, 77
    env = VectorEnv(n, variant="small", seed=seed)
    env.reset()
    agents = [RandomAgent(seed, k) for k in range(n)]
    states = [DecisionState(veletas.Board(variant="small")) for _ in range(n)]
    episodes = [0] * n
    while min(episodes) < 3:
        actions = env.random_actions()
        for k in range(n):
            assert actions[k] == agents[k].choose(states[k].legal_actions())
            states[k].apply(int(actions[k]))
        terminated = env.step(actions)[3]
        for k in np.flatnonzero(terminated):
            episodes[k] += 1
            assert env.episode(k) == episodes[k]
            agents[k] = RandomAgent(seed, episodes[k] * n + k)
            states[k] = DecisionState(veletas.Board(variant="small"))


def test_random_actions_are_drawn_once_per_decision() -> None:
    # The draw belongs to the decision: asking twice gives the same actions,
    # and a step with other actions still moves each stream on by one draw.
    n, seed = 4, 5
    env = VectorEnv(n, variant="small", seed=seed)
    agents = [RandomAgent(seed, k) for k in range(n)]
    states = [DecisionState(veletas.Board(variant="small")) for _ in range(n)]
    rng = np.random.default_rng(1)
    for _ in range(40):
        actions = env.random_actions()
        np.testing.assert_array_equal(env.random_actions(), actions)
        for k in range(n):
            assert actions[k] == agents[k].choose(states[k].legal_actions())
        chosen = [int(rng.choice(state.legal_actions())) for state in states]
        for state, action in zip(states, chosen, strict=True):
            state.apply(action)
        env.step(chosen)
        assert all(not state.is_terminal() for state in states)


def test_reset_with_a_seed_restarts_the_streams() -> None:
    env = VectorEnv(4, variant="medium", seed=1)
    first = env.random_actions()
    env.step(first)
    env.reset(seed=9)
    assert env.seed == 9
    assert all(env.episode(k) == 0 for k in range(4))
    np.testing.assert_array_equal(
        env.random_actions(), VectorEnv(4, variant="medium", seed=9).random_actions()
    )
    env.reset()
    assert env.seed == 9


def test_a_bad_action_names_the_env_and_changes_nothing() -> None:
    env = VectorEnv(3, variant="small", seed=2)
    for _ in range(5):
        env.step(env.random_actions())
    live = env.step(env.random_actions())
    saved = [a.copy() for a in live]
    states = [env.state(k) for k in range(3)]
    legal = env.state(1).legal_actions()
    bad = next(a for a in range(env.num_actions) if a not in legal)
    wrong = env.random_actions()
    for value in (bad, -1, env.num_actions, 2**40):
        wrong[1] = value
        with pytest.raises(
            IllegalMoveError, match=rf"illegal action {value} in env 1 at '.*': legal"
        ):
            env.step(wrong)
        assert [env.state(k) for k in range(3)] == states
        for mine, theirs in zip(live, saved, strict=True):
            np.testing.assert_array_equal(mine, theirs)
    with pytest.raises(ValueError, match=r"expected one action per env \(3\), got 2"):
        env.step([0, 0])
    with pytest.raises(ValueError, match="one-dimensional"):
        env.step(np.zeros((3, 1), np.int64))
    with pytest.raises(TypeError, match="actions must be integers"):
        env.step(np.zeros(3))
    assert [env.state(k) for k in range(3)] == states


@pytest.mark.parametrize(
    "form",
    [
        lambda a: a,
        lambda a: np.repeat(a, 2)[::2],  # int64, not contiguous
        lambda a: a.astype(np.int16),
        lambda a: a.astype(np.uint8),
        lambda a: a.tolist(),
    ],
    ids=["int64", "strided", "int16", "uint8", "list"],
)
def test_actions_may_come_in_any_integer_form(form: Callable[[np.ndarray], object]) -> None:
    env, twin = VectorEnv(4, variant="small", seed=6), VectorEnv(4, variant="small", seed=6)
    for _ in range(30):
        actions = env.random_actions()
        expected = [a.copy() for a in twin.step(actions)]
        for mine, theirs in zip(env.step(form(actions)), expected, strict=True):
            np.testing.assert_array_equal(mine, theirs)


def test_buffers_are_reused() -> None:
    env = VectorEnv(2, variant="small")
    obs, mask, player = env.reset()
    out = env.step(env.random_actions())
    assert out[0] is obs
    assert out[1] is mask
    assert out[4] is player
    assert env.reset()[0] is obs


def test_buffers_are_read_only() -> None:
    # Observations are updated in place, so they must not change between
    # steps: the env hands out read-only views.
    env = VectorEnv(2, variant="small")
    for array in (*env.reset(), *env.step(env.random_actions())):
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
    obs = env.step(env.random_actions())[0].copy()
    obs[0] = 1  # a copy is the caller's own
    np.testing.assert_array_equal(env.step(env.random_actions())[0][1], env.state(1).observation())


def test_without_auto_reset_finished_envs_wait() -> None:
    env = VectorEnv(3, variant="small", seed=5, auto_reset=False)
    oracle = Oracle(env, veletas.Board(variant="small"))
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
        assert terminated[done].all()
        done |= terminated
    assert (player == -1).all()
    assert not mask.any()
    # Any action is ignored by a finished env.
    env.step([0, 1, 2])
    obs, mask, player = env.reset()
    assert (player == 0).all()
    assert mask.any(axis=1).all()


def test_constructor_checks_its_arguments() -> None:
    env = VectorEnv(
        2, variant="small", size=8, shooters=5, setup_rule="spacing", shooters_block=True
    )
    assert env.rules == veletas.Rules(8, 5, "spacing", True)
    assert env.observation_shape == (12, 8, 8)
    assert env.num_actions == 66
    assert len(env) == 2
    assert repr(env).startswith("VectorEnv(2, size=8, shooters=5, setup_rule='spacing'")
    for bad in (0, -3):
        with pytest.raises(ValueError, match=rf"num_envs must be an int from 1 .* got {bad}"):
            VectorEnv(bad)
    for bad_seed in (-1, 2**64):
        with pytest.raises(ValueError, match="seed must be an int from 0"):
            VectorEnv(1, seed=bad_seed)
    with pytest.raises(TypeError, match="seed must be an int, not str"):
        VectorEnv(1, seed="1")  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError):
        VectorEnv(1, variant="huge")
    with pytest.raises(InvalidRulesError):
        VectorEnv(1, variant=None)  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError):
        VectorEnv(1, size=4)
    with pytest.raises(IndexError, match=r"env index 2 is not in 0\.\.2"):
        env.state(2)
    assert VectorEnv(1, seed=2**64 - 1).seed == 2**64 - 1
    with pytest.raises(MemoryError):
        VectorEnv(10**15)
