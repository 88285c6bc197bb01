"""Stepping speed: ``VectorEnv`` against the OpenSpiel adapter driven from Python.

Both take uniformly random legal actions (on the standard 10x10 game of
Veletas, and on the 6-7 board of Meridians) and start a new game whenever
one ends; a decision is one action in one game.
The OpenSpiel side runs twice: bare stepping (``legal_actions`` and
``apply_action``), and through OpenSpiel's RL interface, which like a
VectorEnv step also produces observations. The ratios of decisions per
second are measured in one run and printed:

    pytest benches/test_bench_rl.py --benchmark-enable -s
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from veletas import VectorEnv

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install 'veletas[openspiel]')"
)
import veletas.openspiel  # noqa: E402, F401  (registers the game)

NUM_ENVS = 1024
VECTOR_STEPS = 200
OPENSPIEL_DECISIONS = 20_000


def vector_env_numpy(env: VectorEnv, steps: int) -> int:
    """Steps with actions drawn in numpy over the masks; returns the decisions."""
    rng = np.random.default_rng(0)
    _, mask, _ = env.reset()
    for _ in range(steps):
        # The argmax of uniform noise on the legal ids: uniform over the mask.
        actions = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
        mask = env.step(actions)[1]
    return steps * env.num_envs


def vector_env_rust_draws(env: VectorEnv, steps: int) -> int:
    """Steps with ``random_actions`` (drawn in Rust); returns the decisions."""
    env.reset()
    for _ in range(steps):
        env.step(env.random_actions())
    return steps * env.num_envs


def openspiel_python(game: pyspiel.Game, decisions: int) -> int:
    """One game at a time, a random legal action per decision."""
    rng = random.Random(0)
    state = game.new_initial_state()
    for _ in range(decisions):
        if state.is_terminal():
            state = game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))
    return decisions


def openspiel_rl_environment(game: pyspiel.Game, decisions: int) -> int:
    """OpenSpiel's own RL interface (``rl_environment.Environment``) over the
    adapter: each step also hands over observations and legal actions, as a
    VectorEnv step does."""
    from open_spiel.python import rl_environment

    rng = random.Random(0)
    env = rl_environment.Environment(game)
    step = env.reset()
    for _ in range(decisions):
        if step.last():
            step = env.reset()
        legal = step.observations["legal_actions"][step.observations["current_player"]]
        step = env.step([rng.choice(legal)])
    return decisions


def rates(runs: dict[str, tuple[object, ...]], rounds: int = 9) -> dict[str, float]:
    """Decisions per second of each ``run(*args)``, the best of ``rounds``
    interleaved rounds (so that a busy spell of the machine hits all alike)."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, (run, *args) in runs.items():
            start = time.perf_counter()
            decisions = run(*args)  # type: ignore[operator]
            best[name] = min(best[name], (time.perf_counter() - start) / decisions)
    return {name: 1.0 / seconds for name, seconds in best.items()}


@pytest.mark.benchmark(group="rl-stepping")
def test_vector_env_against_openspiel(
    benchmark: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    env = VectorEnv(NUM_ENVS, variant="standard", seed=0)
    game = pyspiel.load_game("veletas")
    found = rates(
        {
            "VectorEnv, numpy draws over the masks": (vector_env_numpy, env, VECTOR_STEPS),
            "VectorEnv, random_actions()": (vector_env_rust_draws, env, VECTOR_STEPS),
            "OpenSpiel adapter, stepping only": (openspiel_python, game, OPENSPIEL_DECISIONS),
            "OpenSpiel rl_environment over the adapter": (
                openspiel_rl_environment,
                game,
                OPENSPIEL_DECISIONS // 5,
            ),
        }
    )
    benchmark.extra_info.update({f"{name} (decisions/s)": value for name, value in found.items()})
    with capsys.disabled():
        print(f"\n{NUM_ENVS} envs of 10x10 against one game at a time (decisions/s):")
        for name, value in found.items():
            print(f"  {name:<46} {value:>12,.0f}")
        for env_name in list(found)[:2]:
            for spiel_name in list(found)[2:]:
                print(
                    f"  ratio {env_name} / {spiel_name}: {found[env_name] / found[spiel_name]:.1f}x"
                )
    # The table of pytest-benchmark: one step of all envs, with its draws.
    env.reset()
    benchmark(lambda: env.step(env.random_actions()))


@pytest.mark.benchmark(group="rl-stepping")
def test_meridians_vector_env_against_openspiel(
    benchmark: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    env = VectorEnv(NUM_ENVS, game="meridians", size="6-7", seed=0)
    game = pyspiel.load_game("meridians", {"size": 6})
    found = rates(
        {
            "VectorEnv, numpy draws over the masks": (vector_env_numpy, env, VECTOR_STEPS),
            "VectorEnv, random_actions()": (vector_env_rust_draws, env, VECTOR_STEPS),
            "OpenSpiel adapter, stepping only": (openspiel_python, game, OPENSPIEL_DECISIONS // 4),
        }
    )
    benchmark.extra_info.update({f"{name} (decisions/s)": value for name, value in found.items()})
    with capsys.disabled():
        print(f"\n{NUM_ENVS} envs of Meridians 6-7 against one game at a time (decisions/s):")
        for name, value in found.items():
            print(f"  {name:<46} {value:>12,.0f}")
        spiel = "OpenSpiel adapter, stepping only"
        for env_name in list(found)[:2]:
            print(f"  ratio {env_name} / {spiel}: {found[env_name] / found[spiel]:.1f}x")
    env.reset()
    benchmark(lambda: env.step(env.random_actions()))
