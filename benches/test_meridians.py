"""Meridians speed, each figure a ratio of two rates measured in the same run:

- perft(3) from the 6-7 start, the native core against the reference
  (target: 100x);
- random 6-7 games on one thread: the native core through the generic runner
  (uniform over the legal moves at every turn) against the reference playing
  uniformly random legal moves through its ``Board`` (target: 300x).
"""

from __future__ import annotations

import random
import time

import pytest
from conftest import games_per_second
from veletas.meridians import reference

native = pytest.importorskip("veletas._veletas", reason="the extension is not built")
START = reference.Board().fen()


def test_perft_3(benchmark, report) -> None:
    benchmark.group = "meridians perft(3), 6-7 start"
    rust_board, reference_board = native.MeridiansBoard(), reference.Board()
    nodes = benchmark.pedantic(rust_board.perft, args=(3,), rounds=5)
    assert nodes == reference_board.perft(3)

    def rate(board) -> float:
        best = float("inf")
        for _ in range(3):
            clock = time.perf_counter()
            board.perft(3)
            best = min(best, time.perf_counter() - clock)
        return 1 / best

    ratio = report(
        "Meridians perft(3), Rust vs reference",
        "rust",
        rate(rust_board),
        "reference",
        rate(reference_board),
        target=100,
        unit="perft(3)/s",
    )
    assert ratio.ratio >= 100, f"perft(3) is only {ratio.ratio:.0f}x the reference"


def rust_games(games: int) -> None:
    native.meridians_playouts(
        START,
        pie=False,
        swapped=False,
        seed=0,
        first_game=0,
        n_games=games,
        threads=1,
        record=False,
    )


def reference_games(games: int) -> None:
    rng = random.Random(0)
    for _ in range(games):
        board = reference.Board()
        while True:
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))


def test_random_games(benchmark, report) -> None:
    benchmark.group = "meridians random games, 6-7, one thread"
    benchmark.pedantic(rust_games, args=(5_000,), rounds=3)
    report(
        "Meridians random games, Rust (generic runner) vs reference",
        "rust",
        games_per_second(rust_games, 20_000),
        "reference",
        games_per_second(reference_games, 50, repeat=2),
        target=300,
    )


def meridians_playouts(threads: int):
    from veletas import meridians

    return lambda games: meridians.playouts(games, threads=threads)


def test_two_threads_against_one(benchmark, report) -> None:
    benchmark.group = "meridians threads, 6-7"
    benchmark.pedantic(meridians_playouts(2), args=(20_000,), rounds=3)
    report(
        "Meridians playouts, 2 threads vs 1",
        "2 threads",
        games_per_second(meridians_playouts(2), 40_000),
        "1 thread",
        games_per_second(meridians_playouts(1), 40_000),
        target=1.8,
    )
