"""Properties of the pure-Python reference itself: its tables and the
incremental state it keeps beside the board."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from veletas import Piece, parse_square
from veletas.games.veletas.reference.geometry import geometry
from veletas.reference import Board, LegalMoves, Move


def test_public_names() -> None:
    import veletas.reference

    assert veletas.reference.__all__ == ["Board", "DecisionState", "LegalMoves", "Move", "playouts"]
    assert isinstance(Board().legal_moves, LegalMoves)


@pytest.mark.parametrize("size", range(5, 11))
def test_geometry_tables(size: int) -> None:
    geo = geometry(size)
    assert len(geo.squares) == size * size
    assert len(geo.ring) == 4 * size - 4
    corner = parse_square("a1")
    # a1: up, right and the diagonal, each N - 1 squares long.
    assert sorted(len(ray) for ray in geo.rays[corner]) == [size - 1] * 3
    assert len(geo.orthogonal[corner]) == 2
    assert len(geo.around[corner]) == 3
    # Every ray stays on the board, and every line is symmetric: b lies on a
    # line from a exactly when a lies on a line from b.
    lines = {(a, b) for a in geo.squares for ray in geo.rays[a] for b in ray}
    assert all(geo.contains(b) for _, b in lines)
    assert all((b, a) in lines for a, b in lines)
    assert geometry(size) is geo  # built once per size


def assert_state_matches_the_board(board: Board) -> None:
    """The sets and counters kept on push and pop agree with a full rescan."""
    assert board._unclaimed == set(board.pieces(Piece.SHOOTER))
    assert board._claims == [
        len(board.pieces(Piece.BLACK_CLAIMED)),
        len(board.pieces(Piece.WHITE_CLAIMED)),
    ]
    assert board._stones == [
        len(board.pieces(Piece.BLACK_STONE)),
        len(board.pieces(Piece.WHITE_STONE)),
    ]
    assert board._placed == len(board._unclaimed) + sum(board._claims)


@pytest.mark.parametrize("shooters_block", [False, True])
@given(seed=st.integers(0, 2**32 - 1))
def test_incremental_state(shooters_block: bool, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(variant="medium", shooters_block=shooters_block)
    while board.legal_moves:
        moves = list(board.legal_moves)
        assert board._count() == len(moves)
        board.push(rng.choice(moves))
        assert_state_matches_the_board(board)
        if rng.random() < 0.2:
            board.pop()
            assert_state_matches_the_board(board)
    while board.move_stack:
        board.pop()
        assert_state_matches_the_board(board)
    assert board == Board(variant="medium", shooters_block=shooters_block)


def test_generation_restores_the_cells() -> None:
    # Move generation lifts shooters off their squares while it looks; the
    # board must be exactly as before afterwards.
    board = Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    cells = list(board._cells)
    list(board.legal_moves)
    len(board.legal_moves)
    board.is_legal(Move.parse("c2-c1/c2"))
    assert board._cells == cells


def test_legal_moves_repr() -> None:
    board = Board("7/2x4/7/1s5/7/7/7 w pie 3")
    assert repr(board.legal_moves).startswith("<LegalMoves (swap, *b2, *c2, *d2, ")
