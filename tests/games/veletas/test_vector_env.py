"""Veletas's ``VectorEnv`` against ``DecisionState`` objects stepped one by one."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from env_oracle import Oracle, uniform_masked
from rl_games import RULE_OPTIONS, VARIANTS, new_board
from veletas import DecisionState, IllegalMoveError, InvalidRulesError, LimitError, VectorEnv
from veletas.games.veletas.encoding import RandomAgent


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_vector_env_steps_like_decision_states(
    variant: str, setup_rule: str, shooters_block: bool
) -> None:
    rules = {"variant": variant, "setup_rule": setup_rule, "shooters_block": shooters_block}
    env = VectorEnv(5, seed=1, **rules)
    oracle = Oracle(env, DecisionState(new_board(variant, setup_rule, shooters_block)))
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
    oracle = Oracle(env, DecisionState(veletas.Board(variant="small")))
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
    with pytest.raises(LimitError, match="num_envs must be 1 to 100,000"):
        VectorEnv(10**15)  # refused, not a MemoryError


def test_episodes_start_from_the_given_positions() -> None:
    fens = ["7/2x4/7/1s5/7/o1s2s1/7 b play 3", "7/2x4/7/1s5/7/o1s2s1/7 w play 3"]
    env = VectorEnv(2, variant="small", start=fens, seed=1)
    for k, fen in enumerate(fens):
        assert env.state(k).board.fen() == fen
    board = veletas.Board(fens[1])
    env.reset(start=board, mask=np.array([True, False]))
    assert env.state(0).board.fen() == fens[1]
    assert env.state(1).board.fen() == fens[1]  # its start from the constructor
    while True:  # auto-resets start there too
        terminated = env.step(env.random_actions())[3]
        if terminated[0]:
            break
    assert env.state(0) == DecisionState(board)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"opponent": "minimax"}, veletas.errors.InvalidPlayerError, "minimax"),
        ({"opponent": 3}, TypeError, "opponent must be"),
        ({"opponent": print}, TypeError, "make_vec also takes a callable"),
        ({"opponent": "random", "learner_seat": 2}, ValueError, "learner_seat must be"),
        ({"opponent": "random", "learner_seat": True}, ValueError, "learner_seat must be"),
        ({"start": "not a fen"}, veletas.errors.InvalidFenError, "not a fen"),
        ({"start": ["7/7/7/7/7/7/7 b setup 0"] * 3}, ValueError, "one position per env"),
        ({"start": veletas.Board()}, InvalidRulesError, "other rules"),
        ({"start": "1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3"}, veletas.errors.InvalidFenError, "over"),
        ({"start": 7}, TypeError, "start must be"),
    ],
)
def test_bad_options_are_refused_by_name(
    options: dict[str, object], error: type, match: str
) -> None:
    with pytest.raises(error, match=match):
        VectorEnv(2, variant="small", **options)  # type: ignore[call-overload]


def test_a_refused_reset_changes_nothing() -> None:
    env = VectorEnv(3, variant="small", seed=4)
    for _ in range(5):
        obs = env.step(env.random_actions())[0].copy()
    before = [env.state(k) for k in range(3)]
    fen = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    for kwargs, error, match in [
        ({"mask": np.array([True, False])}, ValueError, "one entry per env"),
        ({"mask": np.array([1, 0, 1])}, TypeError, "mask must be booleans"),
        ({"start": [fen, fen, "bad"]}, veletas.errors.InvalidFenError, "bad"),
        ({"seed": -1, "start": fen}, ValueError, "seed"),
    ]:
        with pytest.raises(error, match=match):
            env.reset(**kwargs)  # type: ignore[arg-type]
        assert [env.state(k) for k in range(3)] == before
        np.testing.assert_array_equal(env.state(0).observation(), obs[0])


def test_stepping_only_some_envs() -> None:
    env = VectorEnv(3, variant="small", seed=4)
    env.reset()
    before = [env.state(k) for k in range(3)]
    actions = env.random_actions()
    active = np.array([False, True, False])
    env.step(np.where(active, actions, 9999), active=active)
    assert env.state(0) == before[0]
    assert env.state(2) == before[2]
    assert env.state(1) != before[1]


def test_a_start_in_the_middle_of_a_turn_is_refused() -> None:
    state = DecisionState(veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3"))
    state.apply(state.legal_actions()[0])  # a shooter chosen: mid-turn
    with pytest.raises(veletas.errors.InvalidFenError, match="middle of a turn"):
        VectorEnv(2, variant="small", start=state)
