"""``veletas.gymnasium``: the native envs as Gymnasium vector envs, checked
with Gymnasium's own checks where they apply to vector envs."""

from __future__ import annotations

import copy
import subprocess
import sys

import numpy as np
import pytest
import veletas

gymnasium = pytest.importorskip(
    "gymnasium", reason="Gymnasium is not installed (pip install 'veletas[gymnasium]')"
)
from gymnasium.utils import env_checker, passive_env_checker  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402
from veletas.gymnasium import make_vec  # noqa: E402

GAMES = {"veletas": {"variant": "small"}, "meridians": {"size": "5-6"}}


def vec(game: str, n: int = 4, **options: object) -> veletas.gymnasium.VeletasVectorEnv:
    return make_vec(n, game, **GAMES[game], **options)  # type: ignore[arg-type]


def legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of ``mask``."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("opponent", [None, "random"])
def test_gymnasium_checks_pass(game: str, opponent: str | None) -> None:
    env = vec(game, opponent=opponent, learner_seat="alternate", copy=True)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    passive_env_checker.check_space(
        env.single_observation_space,
        "observation",
        passive_env_checker._check_box_observation_space,
    )
    passive_env_checker.check_space(
        env.single_action_space, "action", passive_env_checker._check_box_action_space
    )
    assert env.observation_space == batch_space(env.single_observation_space, env.num_envs)
    assert env.action_space == batch_space(env.single_action_space, env.num_envs)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_reset_options(env)
    obs, infos = env.reset(seed=3)
    passive_env_checker.check_obs(obs, env.observation_space, "reset")
    rng = np.random.default_rng(0)
    for _ in range(100):
        result = env.step(legal(rng, infos["action_mask"]))
        obs, rewards, terminations, truncations, infos = result
        passive_env_checker.check_obs(obs, env.observation_space, "step")
        assert rewards.shape == terminations.shape == truncations.shape == (env.num_envs,)
        assert terminations.dtype == truncations.dtype == np.bool_
        assert infos["action_mask"].dtype == np.int8
        assert infos["action_mask"].shape == (env.num_envs, env.single_action_space.n)


@pytest.mark.parametrize("game", GAMES)
def test_steps_are_deterministic_for_a_seed(game: str) -> None:
    """Gymnasium's step determinism check, with legal actions."""
    runs = []
    for _ in range(2):
        env = vec(game, opponent="greedy", learner_seat="alternate", max_steps=7, copy=True)
        obs, infos = env.reset(seed=11)
        rng = np.random.default_rng(1)
        steps = [(obs, infos)]
        for _ in range(40):
            steps.append(env.step(legal(rng, infos["action_mask"])))
            infos = steps[-1][-1]
        runs.append(steps)
    assert env_checker.data_equivalence(runs[0], runs[1], exact=True)


@pytest.mark.parametrize("game", GAMES)
def test_rewards_are_the_learners_against_an_opponent(game: str) -> None:
    env = vec(game, 6, opponent="random", learner_seat="alternate", seed=4)
    env.reset(seed=4)
    native = env.vector_env
    results = []
    for _ in range(200):
        seats = [native.seat(k) for k in range(6)]
        states = [env.state(k) for k in range(6)]
        assert all(state.seat_to_act == seat for state, seat in zip(states, seats, strict=True))
        _obs, rewards, terminations, _truncations, _infos = env.step(native.random_actions())
        for k in range(6):
            if terminations[k]:
                # The final observation is drawn for the seat to act there,
                # and the reward is the learner's.
                assert rewards[k] in (-1.0, 1.0)
                results.append(rewards[k])
            else:
                assert rewards[k] == 0.0
    assert results
    assert set(results) == {-1.0, 1.0}


@pytest.mark.parametrize("game", GAMES)
def test_self_play_rewards_are_for_the_seat_that_acted(game: str) -> None:
    env = vec(game, 4, seed=2)
    _, infos = env.reset()
    rng = np.random.default_rng(3)
    states = [env.state(k) for k in range(4)]
    ended = 0
    for _ in range(300):
        actors = [state.seat_to_act for state in states]
        actions = legal(rng, infos["action_mask"])
        _obs, rewards, terminations, _truncations, infos = env.step(actions)
        for k in range(4):
            states[k].apply(int(actions[k]))
            if terminations[k]:
                winner_seat = int(states[k].winner) ^ int(states[k].swapped)
                assert rewards[k] == (1.0 if winner_seat == actors[k] else -1.0)
                states[k] = env.state(k)
                ended += 1
            else:
                assert rewards[k] == 0.0
    assert ended > 0


@pytest.mark.parametrize("game", GAMES)
def test_final_observations_follow_same_step_autoreset(game: str) -> None:
    env = vec(game, 4, seed=8, max_steps=9)
    obs, infos = env.reset()
    rng = np.random.default_rng(5)
    states = [env.state(k) for k in range(4)]
    truncated = terminated = 0
    for _ in range(120):
        actions = legal(rng, infos["action_mask"])
        obs, _rewards, terminations, truncations, infos = env.step(actions)
        done = terminations | truncations
        if done.any():
            np.testing.assert_array_equal(infos["_final_obs"], done)
        else:
            assert "final_obs" not in infos
        for k in range(4):
            states[k].apply(int(actions[k]))
            if done[k]:
                np.testing.assert_array_equal(infos["final_obs"][k], states[k].observation())
                assert terminations[k] == states[k].is_terminal()
                truncated += int(truncations[k])
                terminated += int(terminations[k])
                states[k] = env.state(k)
                # The step returns the new episode's first observation.
                np.testing.assert_array_equal(obs[k], states[k].observation())
            else:
                assert infos.get("final_obs") is None or infos["final_obs"][k] is None
    assert truncated > 0


@pytest.mark.parametrize("game", GAMES)
def test_reset_mask_resets_only_those_envs(game: str) -> None:
    env = vec(game, 4, seed=1)
    _, infos = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        _, _, _, _, infos = env.step(legal(rng, infos["action_mask"]))
    before = [env.state(k) for k in range(4)]
    mask = np.array([False, True, True, False])
    _obs, infos = env.reset(options={"reset_mask": mask})
    fresh = vec(game, 1).state(0)
    for k in range(4):
        assert env.state(k) == (fresh if mask[k] else before[k])
        np.testing.assert_array_equal(infos["action_mask"][k], env.state(k).action_mask())
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": [1, 0, 0, 1]})
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"mask": mask})


def test_a_callable_opponent_plays_the_other_seat() -> None:
    calls = []

    def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        calls.append(len(mask))
        assert obs.shape[1:] == (12, 7, 7)
        return np.argmax(mask, axis=1)

    env = make_vec(4, variant="small", opponent=first_legal, learner_seat="alternate", seed=0)
    _, infos = env.reset(seed=0)
    assert calls, "the opponent opened in the envs where the learner is seat 1"
    rng = np.random.default_rng(0)
    results = []
    for _ in range(300):
        seats = env._seats()
        assert all(env.state(k).seat_to_act == seats[k] for k in range(4))
        _, rewards, terminations, _, infos = env.step(legal(rng, infos["action_mask"]))
        results.extend(rewards[terminations].tolist())
    assert set(results) <= {-1.0, 1.0}
    assert results


def test_make_vec_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        make_vec(2, "chess")
    with pytest.raises(ValueError, match="max_steps"):
        make_vec(2, variant="small", max_steps=0)
    with pytest.raises(veletas.errors.InvalidPlayerError):
        make_vec(2, variant="small", opponent="mcts:iterations=0")
    with pytest.raises(ValueError, match="learner_seat"):
        make_vec(2, variant="small", opponent="random", learner_seat="first")


def test_the_documented_interface() -> None:
    env = make_vec(
        8, game="veletas", variant="small", opponent="random", learner_seat="alternate", seed=3
    )
    obs, infos = env.reset(seed=3)
    assert env.single_observation_space.shape == (12, 7, 7)
    assert env.single_action_space.n == 51
    actions = legal(np.random.default_rng(0), infos["action_mask"])
    obs, rew, _term, _trunc, infos = env.step(actions)
    assert obs.shape == (8, 12, 7, 7)
    assert rew.dtype == np.float32
    assert copy.deepcopy(infos["action_mask"]).shape == (8, 51)


def test_without_gymnasium_the_error_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n    import veletas.gymnasium\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install ".[gymnasium]"' in out.stdout
