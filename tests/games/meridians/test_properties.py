"""Random games on every size, with and without the pie rule: at every ply the
legal moves, ``is_legal``, the position string, push and pop must agree."""

from __future__ import annotations

import pickle
import random
from types import ModuleType
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from veletas.games.meridians.types import SIZES, Color, Phase, point_name


def _check_ply(engine: ModuleType, board: Any, everything: list[Any]) -> None:
    legal = list(board.legal_moves)
    assert len(board.legal_moves) == board.legal_moves.count() == len(legal)
    # `is_legal` reads the rules from the point outwards, the generator from
    # the stones outwards: they must find the same moves, in the same order.
    assert [move for move in everything if board.is_legal(move)] == legal
    assert board.perft(1) == len(legal)
    again = engine.Board(board.fen(), pie=board.pie)
    assert again == board
    assert hash(again) == hash(board)
    assert list(again.legal_moves) == legal
    stones = board.piece_map()
    assert board.stones == (
        sum(color is Color.LIGHT for color in stones.values()),
        sum(color is Color.DARK for color in stones.values()),
    )
    if board.is_game_over():
        assert legal == []
        assert board.phase is Phase.PLAY
        assert board.outcome() == (board.winner, board.stones)
    else:
        assert legal
        assert board.winner is None
        assert board.outcome() is None


@given(
    size=st.sampled_from(SIZES),
    pie=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_games(engine: ModuleType, size: str, pie: bool, seed: int) -> None:
    rng = random.Random(seed)
    board = engine.Board(size=size, pie=pie)
    everything = [engine.Move.place(p) for p in range(196)]
    everything += [engine.Move.swap(), engine.Move.keep()]
    while True:
        _check_ply(engine, board, everything)
        if board.is_game_over():
            break
        move = rng.choice(list(board.legal_moves))
        before = (board.fen(), board.last_removed, len(board.move_stack))
        mover = board.turn
        own = {point_name(p) for p, color in board.piece_map().items() if color is mover}
        theirs = {p for p, color in board.piece_map().items() if color is not mover}
        board.push(move)
        # Only the mover's stones go, the one just placed perhaps among them.
        assert set(board.last_removed) <= own | {str(move)}
        assert all(board.piece_at(name) is None for name in board.last_removed)
        assert {p for p, color in board.piece_map().items() if color is not mover} == theirs
        after = (board.fen(), board.last_removed)
        assert board.pop() == move
        assert (board.fen(), board.last_removed, len(board.move_stack)) == before
        board.push(move)
        assert (board.fen(), board.last_removed) == after
    loaded = pickle.loads(pickle.dumps(board))
    assert loaded.move_stack == board.move_stack
    assert loaded.winner is board.winner
    while board.move_stack:
        board.pop()
    assert board == engine.Board(size=size, pie=pie)
