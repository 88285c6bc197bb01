"""``VectorEnv`` against ``DecisionState`` objects stepped one by one."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
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


# ----------------------------------------------------------------------
# Resets, starts, final observations and opponents, for both games

GAMES = {
    "veletas": {"variant": "small"},
    "meridians": {"size": "5-6"},
}


def make_env(game: str, num_envs: int, **options: object) -> VectorEnv:
    return VectorEnv(num_envs, game=game, **GAMES[game], **options)  # type: ignore[call-overload,no-any-return]


def playout_games(game: str, n_games: int, seed: int) -> object:
    """The "micro" playouts of ``game`` with ``seed``, recorded."""
    if game == "veletas":
        return veletas.playouts(n_games, seed=seed, record=True, **GAMES[game])
    from veletas import meridians

    return meridians.playouts(n_games, seed=seed, record=True, **GAMES[game])


def actions_of(state: object, move: object) -> list[int]:
    """The action ids that play ``move`` from the start of ``state``'s turn."""
    if hasattr(state, "actions_of"):
        return list(state.actions_of(move))  # type: ignore[attr-defined]
    return [state.action_of(move)]  # type: ignore[attr-defined]


def decisions_of(game: str, board: object) -> list[tuple[object, int]]:
    """Every decision of the game that led to ``board`` (a replayed
    playout): the decision state before it and the action taken; the final
    state last, with action -1."""
    api = veletas.games.get(game)
    start = board.copy()  # type: ignore[attr-defined]
    moves = list(start.move_stack)
    while start.move_stack:
        start.pop()
    state = api.encoding().DecisionState(start)
    decisions = []
    for move in moves:
        for action in actions_of(state, move):
            decisions.append((state.copy(), action))
            state.apply(action)
    decisions.append((state.copy(), -1))
    return decisions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("learner_seat", [0, 1, "alternate"])
def test_the_random_opponent_plays_the_playout_games(game: str, learner_seat: object) -> None:
    n, seed = 3, 12
    env = make_env(game, n, seed=seed, opponent="random", learner_seat=learner_seat)
    _, _, player = env.reset()
    games = playout_games(game, 4 * n, seed)
    seen: list[list[object]] = [[] for _ in range(n)]
    episodes = [0] * n
    while min(episodes) < 3:
        for k in range(n):
            assert player[k] == env.seat(k)
            seen[k].append(env.state(k))
        _obs, _mask, rewards, terminated, player = env.step(env.random_actions())
        for k in np.flatnonzero(terminated):
            index = episodes[k] * n + k
            seat = learner_seat if learner_seat != "alternate" else (episodes[k] + k) % 2
            decisions = decisions_of(game, games.board(index))  # type: ignore[attr-defined]
            # What the learner saw: the playout game's decisions at its seat,
            # every one of them, in order; the opponent played the rest.
            mine = [state for state, _ in decisions[:-1] if state.seat_to_act == seat]
            assert seen[k] == mine, f"env {k}, episode {episodes[k]}"
            final = decisions[-1][0]
            np.testing.assert_array_equal(env.final_observations[k], final.observation())
            winner_seat = int(final.winner) ^ int(final.swapped)
            assert rewards[k, winner_seat] == 1.0
            assert rewards[k, 1 - winner_seat] == -1.0
            seen[k] = []
            episodes[k] += 1
            assert env.episode(k) == episodes[k]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("opponent", ["greedy", "mcts:iterations=30"])
def test_built_in_opponents_leave_only_the_learners_decisions(game: str, opponent: str) -> None:
    env = make_env(game, 4, seed=2, opponent=opponent, learner_seat="alternate")
    _, _, player = env.reset()
    ended = 0
    for _ in range(60):
        assert all(player[k] == env.seat(k) for k in range(4))
        _obs, _mask, rewards, terminated, player = env.step(env.random_actions())
        for k in np.flatnonzero(terminated):
            ended += 1
            assert sorted(rewards[k].tolist()) == [-1.0, 1.0]
    assert ended > 0
    assert env.opponent == opponent
    assert f"opponent='{opponent}', learner_seat='alternate'" in repr(env)


@pytest.mark.parametrize("game", GAMES)
def test_final_observations_match_a_decision_state_replay(game: str) -> None:
    n = 4
    env = make_env(game, n, seed=5)
    env.reset()
    rng = np.random.default_rng(0)
    states = [env.state(k) for k in range(n)]
    ended = 0
    for _ in range(300):
        actions = uniform_masked(rng, np.stack([s.action_mask() for s in states]))
        _obs, _mask, _rewards, terminated, _player = env.step(actions)
        for k in range(n):
            states[k].apply(int(actions[k]))
            if terminated[k]:
                assert states[k].is_terminal()
                np.testing.assert_array_equal(env.final_observations[k], states[k].observation())
                ended += 1
                states[k] = env.state(k)
            assert env.state(k) == states[k]
    assert ended > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_masked_reset_resets_only_the_masked_envs(game: str) -> None:
    n = 4
    env = make_env(game, n, seed=3)
    env.reset()
    for _ in range(6):
        env.step(env.random_actions())
    before = [env.state(k) for k in range(n)]
    episodes = [env.episode(k) for k in range(n)]
    fresh = make_env(game, 1).state(0)
    mask = np.array([True, False, True, False])
    obs, _, _player = env.reset(mask=mask)
    for k in range(n):
        if mask[k]:
            assert env.state(k) == fresh
            assert env.episode(k) == episodes[k] + 1
        else:
            assert env.state(k) == before[k]
            assert env.episode(k) == episodes[k]
        np.testing.assert_array_equal(obs[k], env.state(k).observation())
    # With a seed, the masked envs start episode 0 of the new seed.
    env.reset(seed=9, mask=mask)
    assert env.seed == 9
    assert env.episode(0) == 0
    assert env.episode(1) == episodes[1]


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


def test_meridians_episodes_start_from_the_given_positions() -> None:
    from veletas import meridians

    board = meridians.Board(size="5-6")
    board.push(next(iter(board.legal_moves)))
    env = VectorEnv(2, game="meridians", size="5-6", start=board)
    assert all(env.state(k).board.fen() == board.fen() for k in range(2))
    env.reset(start=[board.fen(), meridians.Board(size="5-6")])
    assert env.state(0).board.fen() == board.fen()
    assert env.state(1).board.fen() == meridians.Board(size="5-6").fen()


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


@pytest.mark.parametrize("game", GAMES)
def test_a_decision_state_is_one_start_for_every_env(game: str) -> None:
    env = make_env(game, 3, seed=1)
    for _ in range(3):
        env.step(env.random_actions())
    state = env.state(0)
    assert not state.is_terminal()
    other = make_env(game, 3, start=state)
    assert all(other.state(k) == state for k in range(3))


def test_a_start_in_the_middle_of_a_turn_is_refused() -> None:
    state = DecisionState(veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3"))
    state.apply(state.legal_actions()[0])  # a shooter chosen: mid-turn
    with pytest.raises(veletas.errors.InvalidFenError, match="middle of a turn"):
        VectorEnv(2, variant="small", start=state)
