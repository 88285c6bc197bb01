"""``VectorEnv`` of every game: resets, starts, final observations and
opponents against ``DecisionState`` objects stepped one by one."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from env_oracle import uniform_masked
from veletas import VectorEnv

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


@pytest.mark.parametrize("game", GAMES)
def test_a_decision_state_is_one_start_for_every_env(game: str) -> None:
    env = make_env(game, 3, seed=1)
    for _ in range(3):
        env.step(env.random_actions())
    state = env.state(0)
    assert not state.is_terminal()
    other = make_env(game, 3, start=state)
    assert all(other.state(k) == state for k in range(3))
