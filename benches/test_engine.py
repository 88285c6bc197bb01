"""The native core against the reference on a 10x10 play-phase position
(``public-145`` of the vectors): perft(2), legal-move generation and
counting, a whole turn pushed and popped, and a board copy.

Each group times the reference, then the native core; the ratios are printed
at the end of the run (benches/conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from games.veletas.vector_files import PerftVector

PERFT = "perft(2), 10x10 play"
PERFT_SPEEDUP_FLOOR = 100
"""The native core must run perft(2) at least this many times faster."""


def test_perft_2(timed: Callable[..., Any], backend: ModuleType, position: PerftVector) -> None:
    board = backend.Board(position.fen, **position.options)
    rounds = 3 if backend.__name__ == "veletas.reference" else None  # about a second each
    nodes = timed(PERFT, board.perft, 2, rounds=rounds)
    assert nodes == dict(position.counts)[2]


def test_perft_2_speedup(speedup: Callable[[str], float | None]) -> None:
    # Runs after both perft benchmarks (file order); a ratio, never a time.
    ratio = speedup(PERFT)
    if ratio is None:
        pytest.skip("needs both perft(2) benchmarks timed (--benchmark-enable)")
    assert ratio >= PERFT_SPEEDUP_FLOOR, f"perft(2) is only {ratio:.0f}x faster than the reference"


def test_len_legal_moves(
    timed: Callable[..., Any], backend: ModuleType, position: PerftVector
) -> None:
    board = backend.Board(position.fen, **position.options)
    count = timed("len(legal_moves), 10x10 play", lambda: len(board.legal_moves))
    assert count == dict(position.counts)[1]


def test_list_legal_moves(
    timed: Callable[..., Any], backend: ModuleType, position: PerftVector
) -> None:
    board = backend.Board(position.fen, **position.options)
    moves = timed("list(legal_moves), 10x10 play", lambda: list(board.legal_moves))
    assert len(moves) == dict(position.counts)[1]
    assert moves == sorted(moves)


def test_push_pop_turn(
    timed: Callable[..., Any], backend: ModuleType, position: PerftVector
) -> None:
    # A whole turn: a shooter move and a shot, checked, played, taken back.
    board = backend.Board(position.fen, **position.options)
    move = backend.Move.parse("c6-c9/f9")
    assert move in board.legal_moves

    def turn() -> None:
        board.push(move)
        board.pop()

    timed("push + pop of a turn, 10x10 play", turn)
    assert board.fen() == position.fen


def test_copy(timed: Callable[..., Any], backend: ModuleType, position: PerftVector) -> None:
    board = backend.Board(position.fen, **position.options)
    twin = timed("copy(), 10x10 play", board.copy)
    assert twin == board
    assert twin is not board
