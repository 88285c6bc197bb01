"""Playout speed, each figure a ratio of two rates measured in the same run.

- the Rust runner against the pure-Python reference, per policy;
- two threads against one (target: 1.8x);
- the micro policy against the uniform one;
- veletas micro games on 10x10 against OpenSpiel's C++ random games of
  ``amazons`` (10x10, a queen move then a shot), played whole inside C++
  (target: 25x);
- the same for each kernel this CPU can run
  (:mod:`veletas.kernels`), each against the same OpenSpiel run, and each
  kernel's uniform playouts.

All on the standard game (10x10, 7 shooters) from the start position.
"""

from __future__ import annotations

import pyspiel
import pytest
import veletas
import veletas.reference
from conftest import games_per_second
from veletas import kernels


def rust(policy: str = "micro", threads: int = 1):
    return lambda games: veletas.playouts(games, threads=threads, policy=policy)


@pytest.mark.parametrize("policy", ["micro", "uniform"])
def test_rust_against_the_reference(benchmark, report, policy: str) -> None:
    benchmark.group = f"rust vs reference, {policy}"
    benchmark.pedantic(rust(policy), args=(20_000,), rounds=3)
    reference = games_per_second(
        lambda games: veletas.games.veletas.reference.playouts(games, policy=policy), 20, repeat=1
    )
    report(
        f"Rust vs reference ({policy}, one thread)",
        "rust",
        games_per_second(rust(policy), 20_000),
        "reference",
        reference,
    )


def test_two_threads_against_one(benchmark, report) -> None:
    benchmark.group = "threads"
    benchmark.pedantic(rust(threads=2), args=(200_000,), rounds=3)
    report(
        "2 threads vs 1 (micro)",
        "2 threads",
        games_per_second(rust(threads=2), 200_000),
        "1 thread",
        games_per_second(rust(threads=1), 200_000),
        target=1.8,
    )


def test_micro_against_uniform(benchmark, report) -> None:
    benchmark.group = "policies"
    benchmark.pedantic(rust("uniform"), args=(20_000,), rounds=3)
    report(
        "micro vs uniform (one thread)",
        "micro",
        games_per_second(rust("micro"), 50_000),
        "uniform",
        games_per_second(rust("uniform"), 20_000),
    )


def openspiel_amazons(games: int) -> None:
    """Whole random games of amazons, each played inside C++."""
    game = pyspiel.load_game("amazons")
    bots = [pyspiel.make_uniform_random_bot(player, 1234 + player) for player in range(2)]
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)


def test_micro_against_openspiel_amazons(benchmark, report) -> None:
    benchmark.group = "vs OpenSpiel"
    benchmark.pedantic(rust(), args=(50_000,), rounds=3)
    report(
        "veletas micro vs OpenSpiel amazons (10x10, one thread)",
        "veletas",
        games_per_second(rust(), 100_000),
        "amazons",
        games_per_second(openspiel_amazons, 3_000),
        target=25,
    )


def test_each_kernel_against_openspiel_amazons(benchmark, report) -> None:
    """Every kernel in one run: micro games against the same OpenSpiel
    amazons rate, and uniform games; the default kernel is put back."""
    benchmark.group = "kernels"
    default = kernels.current()
    benchmark.extra_info["default kernel"] = default
    benchmark.pedantic(rust(), args=(20_000,), rounds=1)
    amazons = games_per_second(openspiel_amazons, 3_000)
    try:
        for name in kernels.supported():
            kernels.use(name)
            report(
                f"veletas micro vs OpenSpiel amazons, {name} kernel (10x10, one thread)",
                f"{name} micro",
                games_per_second(rust(), 100_000),
                "amazons",
                amazons,
                target=40,
            )
            benchmark.extra_info[f"{name} uniform games/s"] = games_per_second(
                rust("uniform"), 20_000
            )
    finally:
        kernels.use(default)
