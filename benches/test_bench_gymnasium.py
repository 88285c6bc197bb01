"""Stepping speed of the RL interfaces, as ratios measured in one run:

- ``veletas.gymnasium.make_vec`` against the raw native ``VectorEnv`` it
  wraps (what the wrapper costs), and
- a ``VectorEnv`` with a built-in random opponent against self-play
  stepping, in decisions of the learner per second (the opponent's
  decisions are played inside the step, in Rust).

Both step 1,024 standard (10x10) games of Veletas with ``random_actions()``
and print the figures::

    pytest benches/test_bench_gymnasium.py --benchmark-enable -s
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from veletas import VectorEnv

gymnasium = pytest.importorskip(
    "gymnasium", reason="Gymnasium is not installed (pip install 'veletas[gymnasium]')"
)
from veletas.gymnasium import VeletasVectorEnv, make_vec  # noqa: E402

NUM_ENVS = 1024
STEPS = 200


def raw_steps(env: VectorEnv, steps: int) -> int:
    """Steps the native env; returns the learner's decisions."""
    env.reset()
    for _ in range(steps):
        env.step(env.random_actions())
    return steps * env.num_envs


def wrapped_steps(env: VeletasVectorEnv, steps: int) -> int:
    """Steps the Gymnasium wrapper; returns the learner's decisions."""
    env.reset()
    native = env.vector_env
    for _ in range(steps):
        env.step(native.random_actions())
    return steps * env.num_envs


def rates(
    runs: dict[str, tuple[Callable[..., int], object, int]], rounds: int = 7
) -> dict[str, float]:
    """Decisions per second of each run, the best of ``rounds`` interleaved
    rounds (so that a busy spell of the machine hits all alike)."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, (run, env, steps) in runs.items():
            start = time.perf_counter()
            decisions = run(env, steps)
            best[name] = min(best[name], (time.perf_counter() - start) / decisions)
    return {name: 1.0 / seconds for name, seconds in best.items()}


def report(title: str, found: dict[str, float], capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        print(f"\n{title} (decisions of the learner per second):")
        for name, value in found.items():
            print(f"  {name:<52} {value:>12,.0f}")
        first, second = found
        print(f"  ratio {second} / {first}: {found[second] / found[first]:.2f}x")


@pytest.mark.benchmark(group="rl-gymnasium")
def test_gymnasium_wrapper_against_the_raw_env(
    benchmark: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = VectorEnv(NUM_ENVS, variant="standard", seed=0)
    wrapped = make_vec(NUM_ENVS, variant="standard", seed=0)
    found = rates(
        {
            "raw VectorEnv": (raw_steps, raw, STEPS),
            "gymnasium make_vec": (wrapped_steps, wrapped, STEPS),
        }
    )
    benchmark.extra_info.update({f"{name} (decisions/s)": v for name, v in found.items()})
    report(f"{NUM_ENVS} envs of 10x10, self-play", found, capsys)
    wrapped.reset()
    native = wrapped.vector_env
    benchmark(lambda: wrapped.step(native.random_actions()))


@pytest.mark.benchmark(group="rl-gymnasium")
def test_random_opponent_against_self_play(
    benchmark: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    self_play = VectorEnv(NUM_ENVS, variant="standard", seed=0)
    against = VectorEnv(
        NUM_ENVS, variant="standard", seed=0, opponent="random", learner_seat="alternate"
    )
    found = rates(
        {
            "self-play (both seats are the learner)": (raw_steps, self_play, STEPS),
            "opponent='random' (the learner's seat only)": (raw_steps, against, STEPS),
        }
    )
    benchmark.extra_info.update({f"{name} (decisions/s)": v for name, v in found.items()})
    report(f"{NUM_ENVS} envs of 10x10, raw VectorEnv", found, capsys)
    against.reset()
    benchmark(lambda: against.step(against.random_actions()))
