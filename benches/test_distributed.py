"""Playouts on Ray against playouts on one machine, measured in one run.

- Throughput: ``veletas.distributed.playouts`` on a two-CPU Ray cluster of
  this machine (one single-threaded task a CPU, the default chunk size)
  against ``veletas.playouts`` on two threads, the standard game. The cluster
  is joined before the timing, as a long run would amortise it.
- Start-up: a run that starts a local runtime (``address=None``), and
  joining a running cluster.
- The cost of a chunk: the same games cut into more and more chunks (100 to
  6,400, so that the cost of the chunks outweighs the games); the slope of a
  least-squares line through (chunks, seconds) is the time each chunk adds
  to a run, and ``1``-game chunks give the same cost directly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np
import pytest
import ray
import veletas
import veletas.distributed
from conftest import games_per_second
from ray_cluster import RayCluster

THROUGHPUT_GAMES = 2_000_000
"""About 6 s of two threads: a run where 2 s chunks make 4 tasks a CPU."""


def test_starting_a_local_runtime(benchmark) -> None:
    # First in the module: before this process joins the cluster below.
    benchmark.group = "ray start-up"
    clock = time.perf_counter()
    benchmark.pedantic(on_ray(), args=(1,), rounds=1)
    print(f"a local runtime for one game: {time.perf_counter() - clock:.2f} s")
    assert not ray.is_initialized()


JOINING: dict[str, float] = {}
"""The seconds this process took to join the cluster, for the report."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    """A two-CPU cluster, joined by this process for the module."""
    started = RayCluster(num_cpus=2)
    clock = time.perf_counter()
    ray.init(address=started.address)
    JOINING["seconds"] = time.perf_counter() - clock
    print(f"joining the cluster: {JOINING['seconds']:.2f} s")
    try:
        yield started
    finally:
        ray.shutdown()
        started.stop()


def on_ray(**kwargs: object) -> Callable[[int], veletas.Playouts]:
    return lambda games: veletas.distributed.playouts(games, progress=False, **kwargs)


def on_two_threads(games: int) -> veletas.Playouts:
    return veletas.playouts(games, threads=2)


def best_rates(
    first: Callable[[int], object], second: Callable[[int], object], games: int, repeat: int = 3
) -> tuple[float, float]:
    """The best rates of ``first`` and ``second``, timed in turns, so that a
    spell of other work on the shared machine falls on both alike."""
    rates = [0.0, 0.0]
    for _ in range(repeat):
        for i, play in enumerate((first, second)):
            rates[i] = max(rates[i], games_per_second(play, games, repeat=1))
    return rates[0], rates[1]


def test_ray_against_one_machine(benchmark, report, cluster: RayCluster) -> None:
    benchmark.group = "ray"
    games = benchmark.pedantic(on_ray(), args=(THROUGHPUT_GAMES,), rounds=1)
    np.testing.assert_array_equal(games.plies, on_two_threads(THROUGHPUT_GAMES).plies)
    ray_rate, local_rate = best_rates(on_ray(), on_two_threads, THROUGHPUT_GAMES)
    benchmark.extra_info["seconds to join the cluster"] = JOINING["seconds"]
    report(
        "Ray, 2 CPUs, default chunks vs veletas.playouts, 2 threads (standard)",
        "ray",
        ray_rate,
        "one machine",
        local_rate,
    )


def test_the_cost_of_a_chunk(benchmark, cluster: RayCluster) -> None:
    benchmark.group = "ray chunks"
    games = 200_000
    counts = [100, 400, 1600, 6400]
    benchmark.pedantic(on_ray(chunk_size=games // counts[-1]), args=(games,), rounds=1)
    # Each count timed in turns, three times, the best kept: see best_rates.
    best = dict.fromkeys(counts, float("inf"))
    for _ in range(3):
        for count in counts:
            rate = games_per_second(on_ray(chunk_size=games // count), games, repeat=1)
            best[count] = min(best[count], games / rate)
    seconds = [best[count] for count in counts]
    slope, intercept = np.polyfit(counts, seconds, 1)
    tiny = 2_000
    per_tiny = 1 / games_per_second(on_ray(chunk_size=1), tiny)
    lines = [
        f"{c:>5} chunks of {games // c:>5} games: {s:6.3f} s"
        for c, s in zip(counts, seconds, strict=True)
    ]
    lines.append(
        f"fit: {intercept:.3f} s + {slope * 1e3:.2f} ms a chunk ({games:,} standard games, 2 CPUs)"
    )
    lines.append(f"{tiny:,} chunks of 1 game: {per_tiny * 1e3:.2f} ms a chunk")
    print("\n".join(lines))
    benchmark.extra_info["ms per chunk (fit)"] = slope * 1e3
    benchmark.extra_info["ms per 1-game chunk"] = per_tiny * 1e3
    assert slope > 0
