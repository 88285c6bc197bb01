"""Move: notation, constructors, equality, hashing, pickling and immutability."""

from __future__ import annotations

import copy
import pickle
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from veletas.errors import InvalidMoveError
from veletas.games.meridians.types import point_name


def test_parse_and_print(engine: ModuleType) -> None:
    Move = engine.Move
    for p in range(196):
        move = Move.parse(point_name(p))
        assert move.point == p
        assert str(move) == point_name(p)
        assert repr(move) == f"Move.parse({point_name(p)!r})"
        assert not move.is_swap
        assert not move.is_keep
        assert Move.place(p) == move
    swap, keep = Move.parse("swap"), Move.parse("keep")
    assert swap == Move.swap()
    assert swap.is_swap
    assert not swap.is_keep
    assert swap.point is None
    assert keep == Move.keep()
    assert keep.is_keep
    assert not keep.is_swap
    assert keep.point is None
    assert (str(swap), str(keep)) == ("swap", "keep")
    assert repr(swap) == "Move.parse('swap')"


@pytest.mark.parametrize(
    "text",
    ["", "f", "7f", "a0", "a15", "o1", "F7", "f07", " f7", "f7 ", "f7\n", "Swap", "pass",
     "a" + "1" * 5000, "\x00", "f\x007", "\ud800", "f\ud8007", "\uff467", "f\u0667"],
)  # fmt: skip
def test_invalid_moves(engine: ModuleType, text: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        engine.Move.parse(text)
    assert str(error.value) == (
        f"invalid move {text!r}: expected a point such as 'f7', 'swap' or 'keep'"
    )


@pytest.mark.parametrize("text", [7, None, b"f7", ["f7"]])
def test_moves_are_read_from_str(engine: ModuleType, text: object) -> None:
    with pytest.raises(TypeError) as error:
        engine.Move.parse(text)
    assert str(error.value) == f"a move is read from a str, not {type(text).__name__}"


@pytest.mark.parametrize("p", [-1, 196, 2**64, -(2**70)])
def test_place_outside_the_grid(engine: ModuleType, p: int) -> None:
    with pytest.raises(InvalidMoveError) as error:
        engine.Move.place(p)
    assert str(error.value) == f"invalid point number {p!r}: expected 0..195"


@pytest.mark.parametrize("p", ["f7", 1.0, None])
def test_place_takes_an_integer(engine: ModuleType, p: object) -> None:
    with pytest.raises(TypeError):
        engine.Move.place(p)


def test_equality_and_hash(engine: ModuleType) -> None:
    Move = engine.Move
    moves = [Move.place(p) for p in range(196)] + [Move.swap(), Move.keep()]
    assert len(set(moves)) == 198
    assert Move.parse("f7") == Move.place(89)
    assert hash(Move.parse("f7")) == hash(Move.place(89))
    assert Move.swap() != Move.keep()
    assert Move.parse("f7") != "f7"
    assert {Move.parse("swap"): 1}[Move.swap()] == 1


def test_pickle_and_copy(engine: ModuleType) -> None:
    Move = engine.Move
    for move in [Move.parse("a1"), Move.parse("n14"), Move.swap(), Move.keep()]:
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(move, protocol)) == move
        assert copy.copy(move) == move
        assert copy.deepcopy(move) == move


def test_frozen(engine: ModuleType) -> None:
    move = engine.Move.parse("f7")
    with pytest.raises(AttributeError):
        move.point = 3
    with pytest.raises(AttributeError):
        move.extra = 3
    assert move.point == 89


@given(st.text())
def test_any_text_is_a_move_or_refused(engine: ModuleType, text: str) -> None:
    board = engine.Board()
    try:
        move = engine.Move.parse(text)
    except InvalidMoveError as error:
        refusal = str(error)
        assert refusal.startswith(f"invalid move {text!r}: ")
    else:
        assert str(move) == text
        assert board.is_legal(move) == (move in board.legal_moves)
