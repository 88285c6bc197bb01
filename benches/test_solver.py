"""The exact solver's speed, each figure a ratio of two rates measured in
the same run: a suite of endgames proved by ``veletas.solve`` against the
plain exhaustive minimax of the tests (on the reference engine), the
nodes a second of a long solve with a small table against the default one,
and a solve of Veletas's setup with the board's symmetries folded and not.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import veletas
from test_solving import TooBig, endgames, minimax_winner, reference_of
from veletas import games, meridians

SUITE_SIZE = 30
"""Endgames of each kind, 1 to 4 moves from the end of random games
(seeded), small enough for the minimax."""

SUITES = {"veletas-5x5": "veletas 5x5/3", "meridians-5-6": "meridians 5-6"}
"""The suites by test id: the kinds of board of the tests' endgames."""


def suite(kind: str) -> list[Any]:
    found = []
    for board in endgames(kind, 4 * SUITE_SIZE, seed=11):
        swapped = any(move.is_swap for move in board.move_stack)
        try:
            minimax_winner(reference_of(board), swapped, [4_000])
        except TooBig:
            continue
        found.append(board)
        if len(found) == SUITE_SIZE:
            break
    return found


def per_second(work: Any, count: int, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        clock = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - clock)
    return count / best


@pytest.mark.parametrize("suite_id", list(SUITES))
def test_endgames_against_the_plain_minimax(benchmark: Any, report: Any, suite_id: str) -> None:
    kind = SUITES[suite_id]
    boards = suite(kind)

    def by_solver() -> list[str]:
        return [veletas.solve(board, memory=8 << 20).value for board in boards]

    def by_minimax() -> list[int]:
        return [
            minimax_winner(reference_of(board), any(m.is_swap for m in board.move_stack), [10**9])
            for board in boards
        ]

    benchmark.group = "solver endgames"
    values = benchmark.pedantic(by_solver, rounds=1)
    winners = by_minimax()
    for board, value, winner in zip(boards, values, winners, strict=True):
        swapped = any(m.is_swap for m in board.move_stack)
        to_act = games.game_of(board).match.seat_to_act(board, swapped)
        assert value == ("win" if winner == to_act else "loss")
    report(
        f"exact values of {len(boards)} endgames of {kind}",
        "veletas.solve (df-pn, native)",
        per_second(by_solver, len(boards)),
        "plain minimax (reference engine)",
        per_second(by_minimax, len(boards), repeat=1),
        unit="positions/s",
    )


def nodes_per_second(board: Any, memory: int) -> float:
    result = veletas.solve(board, max_nodes=2_000_000, memory=memory)
    return result.nodes / result.seconds


BOARDS = {
    "Veletas 7x7": lambda: veletas.Board(variant="small"),
    "Meridians 5-6": lambda: meridians.Board(size="5-6"),
}


@pytest.mark.parametrize("name", list(BOARDS), ids=["veletas-7x7", "meridians-5-6"])
def test_nodes_a_second_with_a_small_and_the_default_table(
    benchmark: Any, report: Any, name: str
) -> None:
    board = BOARDS[name]
    benchmark.group = "solver nodes"
    benchmark.pedantic(nodes_per_second, args=(board(), 1 << 20), rounds=1)
    report(
        f"df-pn from the start of {name}, 2,000,000 nodes",
        "1 MiB table",
        nodes_per_second(board(), 1 << 20),
        "256 MiB table (the default)",
        nodes_per_second(board(), 256 << 20),
        unit="nodes/s",
    )


def setup_solve(symmetries: bool) -> tuple[float, float]:
    """Nodes a second and table entries a million nodes of a 2,000,000-node solve
    from the start of Veletas 5x5/3, where the whole search is in the setup
    and a position and its images share an entry when ``symmetries``."""
    reports: list[tuple[int, float, int]] = []
    result = veletas.solve(
        veletas.Board(size=5, shooters=3),
        max_nodes=2_000_000,
        symmetries=symmetries,
        progress=lambda nodes, seconds, entries: reports.append((nodes, seconds, entries)),
    )
    assert result.value == "unknown"
    nodes, _, entries = reports[-1]
    return result.nodes / result.seconds, entries / nodes * 1e6


def test_the_setup_with_and_without_the_symmetries(benchmark: Any, report: Any) -> None:
    benchmark.group = "solver symmetries"
    benchmark.pedantic(setup_solve, args=(True,), rounds=1)
    folded_rate, folded_sharing = setup_solve(True)
    plain_rate, plain_sharing = setup_solve(False)
    report(
        "df-pn from the start of Veletas 5x5/3, 2,000,000 nodes",
        "images folded",
        folded_rate,
        "not folded",
        plain_rate,
        unit="nodes/s",
    )
    report(
        "the same solves: the positions filed (fewer: more shared)",
        "images folded",
        folded_sharing,
        "not folded",
        plain_sharing,
        unit="entries/M nodes",
    )
