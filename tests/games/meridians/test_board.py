"""The Board API: legal moves, illegal moves and their messages, push and pop,
copies, equality, pickling, the drawing and perft."""

from __future__ import annotations

import copy
import pickle
from types import ModuleType
from typing import Any

import pytest
from veletas.errors import IllegalMoveError, InvalidMoveError
from veletas.games.meridians.types import Color, Outcome, Phase, Stones, parse_point, point_name

AFTER_FOUR = "x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play"
"""The 6-7 start after f2 a1 f12 d4."""
SECOND_LIGHT = "7/8/9/10/11/12/12/11/10/9/8/3o2x l open"
"""Light's second stone, its first on g1, a Dark stone on d1."""
LIGHT_DIES = "6/7/8/9/10/10/9/8/7/x1x2o l play"
"""b1 joins a1 and c1 into Light's only group, which is dead."""
STUCK = "xo5/oo6/9/10/11/12/12/11/10/9/8/7 l play"
"""Light's only stone, f12, has no empty neighbour: Light cannot place."""


def _state(board: Any) -> tuple[str, list[Any], tuple[str, ...]]:
    return board.fen(), board.move_stack, board.last_removed


# ----------------------------------------------------------------------
# Illegal moves: the messages of the API contract, and the board unchanged


def _played(engine: ModuleType, fen: str | None, moves: list[str], pie: bool = False) -> Any:
    board = engine.Board(fen, pie=pie)
    for text in moves:
        board.push_str(text)
    return board


ILLEGAL = [
    # (position, pie, moves pushed first, move, problem)
    (AFTER_FOUR, False, [], "a12", "a12 is not on the 6-7 board"),
    (AFTER_FOUR, False, [], "l1", "l1 is not on the 6-7 board"),
    (AFTER_FOUR, False, [], "m1", "m1 is not on the 6-7 board"),
    (AFTER_FOUR, False, [], "a13", "a13 is not on the 6-7 board"),
    (AFTER_FOUR, False, [], "n14", "n14 is not on the 6-7 board"),
    (AFTER_FOUR, False, [], "a8", "a8 is not on the 6-7 board"),
    (AFTER_FOUR, False, [], "f2", "f2 is not empty"),
    (AFTER_FOUR, False, [], "a1", "a1 is not empty"),
    (AFTER_FOUR, False, [], "b1", "from b1 no nearest stone is Light's"),
    (AFTER_FOUR, False, ["e2"], "g2", "from g2 no nearest stone is Dark's"),
    (AFTER_FOUR, False, [], "swap", "'swap' and 'keep' are only legal in the pie decision"),
    (AFTER_FOUR, False, [], "keep", "'swap' and 'keep' are only legal in the pie decision"),
    (SECOND_LIGHT, False, [], "f1", "f1 has no path to g1, Light's first stone"),
    (SECOND_LIGHT, False, [], "c1", "c1 has no path to g1, Light's first stone"),
    (SECOND_LIGHT, False, [], "a5", "a5 has no path to g1, Light's first stone"),
    (SECOND_LIGHT, False, [], "d1", "d1 is not empty"),
    (SECOND_LIGHT, False, [], "swap", "'swap' and 'keep' are only legal in the pie decision"),
    (SECOND_LIGHT, False, ["e1"], "c3", "c3 has no path to d1, Dark's first stone"),
    (SECOND_LIGHT, False, ["e1"], "c1", "c1 has no path to d1, Dark's first stone"),
    (SECOND_LIGHT, False, ["e1"], "f1", "f1 has no path to d1, Dark's first stone"),
    (None, False, [], "keep", "'swap' and 'keep' are only legal in the pie decision"),
    (None, True, [], "swap", "'swap' and 'keep' are only legal in the pie decision"),
    (None, True, ["f7"], "keep", "'swap' and 'keep' are only legal in the pie decision"),
    (None, True, ["f7", "f8"], "f9", "Dark must 'swap' or 'keep' now"),
    (None, True, ["f7", "f8"], "f7", "Dark must 'swap' or 'keep' now"),
    (None, True, ["f7", "f8"], "m1", "m1 is not on the 6-7 board"),
    (None, True, ["f7", "f8", "swap"], "swap",
     "'swap' and 'keep' are only legal in the pie decision"),
    (None, True, ["f7", "f8", "keep"], "f8", "f8 is not empty"),
    (None, True, ["f7", "f8", "keep"], "f6", "f6 has no path to f7, Light's first stone"),
    (LIGHT_DIES, False, ["b1"], "a5", "the game is over"),
    (LIGHT_DIES, False, ["b1"], "a12", "the game is over"),
    (LIGHT_DIES, False, ["b1"], "swap", "the game is over"),
    (STUCK, False, [], "a1", "the game is over"),
    ("6/7/8/9/10/10/9/8/7/6 l open", False, [], "g1", "g1 is not on the 5-6 board"),
    ("6/7/8/9/10/10/9/8/7/6 l open", False, [], "a7", "a7 is not on the 5-6 board"),
    ("6/7/8/9/10/10/9/8/7/6 l open", False, [], "k10", "k10 is not on the 5-6 board"),
    ("8/9/10/11/12/13/14/14/13/12/11/10/9/8 l open", False, [], "a9",
     "a9 is not on the 7-8 board"),
    ("8/9/10/11/12/13/14/14/13/12/11/10/9/8 l open", False, [], "i1",
     "i1 is not on the 7-8 board"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fen", "pie", "before", "text", "problem"),
    ILLEGAL,
    ids=[f"{i:02}-{r[3]}" for i, r in enumerate(ILLEGAL)],
)
def test_illegal_moves(
    engine: ModuleType, fen: str | None, pie: bool, before: list[str], text: str, problem: str
) -> None:
    board = _played(engine, fen, before, pie)
    move = engine.Move.parse(text)
    assert not board.is_legal(move)
    assert move not in board.legal_moves
    state = _state(board)
    with pytest.raises(IllegalMoveError) as error:
        board.push(move)
    assert str(error.value) == f"illegal move {text!r} in {board.fen()!r}: {problem}"
    assert _state(board) == state
    with pytest.raises(IllegalMoveError) as error:
        board.push_str(text)
    assert str(error.value) == f"illegal move {text!r} in {board.fen()!r}: {problem}"
    assert _state(board) == state


@pytest.mark.parametrize(
    "text", ["a0", "a15", "f", "7f", "", "a" + "1" * 5000, "\x00", "f\x007", "\ud800", "F7"]
)
def test_invalid_move_text_leaves_the_board(engine: ModuleType, text: str) -> None:
    board = _played(engine, AFTER_FOUR, ["e2"])
    state = _state(board)
    with pytest.raises(InvalidMoveError) as error:
        board.push_str(text)
    assert str(error.value) == (
        f"invalid move {text!r}: expected a point such as 'f7', 'swap' or 'keep'"
    )
    assert _state(board) == state


@pytest.mark.parametrize("move", ["f7", 89, None, ("f", 7)])
def test_push_takes_a_move(engine: ModuleType, move: object) -> None:
    board = engine.Board()
    with pytest.raises(TypeError) as error:
        board.push(move)
    assert str(error.value) == f"expected a Move, not {type(move).__name__}"
    with pytest.raises(TypeError):
        board.is_legal(move)
    with pytest.raises(TypeError):
        board.push_str(89)
    assert move not in board.legal_moves
    assert _state(board) == (board.fen(), [], ())


def test_illegal_after_a_removal_keeps_last_removed(engine: ModuleType) -> None:
    board = _played(engine, LIGHT_DIES, ["b1"])
    assert board.last_removed == ("a1", "b1", "c1")
    state = _state(board)
    with pytest.raises(IllegalMoveError):
        board.push_str("a5")
    assert _state(board) == state


# ----------------------------------------------------------------------
# The rules in small positions


def test_second_stone_needs_a_path(engine: ModuleType) -> None:
    board = engine.Board(SECOND_LIGHT)
    names = [str(move) for move in board.legal_moves]
    # Along rank 1 past f1 up to the Dark stone on d1, and along g1's file
    # and diagonal past their first points, g2 and h2, to the edge.
    assert names == [
        "e1", "g3", "i3", "g4", "j4", "g5", "k5", "g6", "l6", "g7", "g8", "g9", "g10", "g11",
        "g12",
    ]  # fmt: skip
    assert board.is_legal(engine.Move.parse("e1"))


def test_sight(engine: ModuleType) -> None:
    board = engine.Board(AFTER_FOUR)
    legal = {str(move) for move in board.legal_moves}
    assert "e2" in legal
    assert "f3" in legal
    assert "f11" in legal
    assert "f5" in legal  # f2 sees up its file over empty points
    assert "b1" not in legal  # a1 (Dark) is nearest, on the left; nothing else in sight
    assert len(board.legal_moves) == len(legal) == board.legal_moves.count()


def test_removal_of_the_only_group_ends_the_game(engine: ModuleType) -> None:
    board = engine.Board(LIGHT_DIES)
    assert not board.is_game_over()
    board.push_str("b1")
    assert board.fen() == "6/7/8/9/10/10/9/8/7/5o d play"
    assert board.last_removed == ("a1", "b1", "c1")
    assert board.is_game_over()
    assert board.winner is Color.DARK
    assert board.outcome() == Outcome(Color.DARK, Stones(0, 1))
    assert list(board.legal_moves) == []
    board.pop()
    assert board.fen() == LIGHT_DIES
    assert board.last_removed == ()


def test_no_placement_loses(engine: ModuleType) -> None:
    board = engine.Board(STUCK)
    assert board.is_game_over()
    assert board.winner is Color.DARK
    assert board.outcome() == Outcome(Color.DARK, Stones(1, 3))


def test_a_move_never_removes_opponent_stones(engine: ModuleType) -> None:
    # Dark's d2 has no path once Light plays e3; it stays until Dark's own move.
    board = engine.Board("6/7/7o/9/1x5o2/10/9/1x5x/3o3/6 l play")
    board.push_str("e3")
    assert board.piece_at("d2") is Color.DARK
    assert board.last_removed == ()
    assert board.stones == Stones(4, 3)


def test_open_and_pie_are_never_over(engine: ModuleType) -> None:
    board = engine.Board(pie=True)
    for text, phase, turn in [
        ("f7", Phase.OPEN, Color.DARK),
        ("f8", Phase.PIE, Color.DARK),
        ("swap", Phase.OPEN, Color.LIGHT),
        ("f5", Phase.OPEN, Color.DARK),
        ("f10", Phase.PLAY, Color.LIGHT),
    ]:
        assert not board.is_game_over()
        assert board.winner is None
        assert board.outcome() is None
        board.push_str(text)
        assert (board.phase, board.turn) == (phase, turn), text
    assert board.stones == Stones(2, 2)


def test_swap_and_keep_leave_the_board(engine: ModuleType) -> None:
    board = _played(engine, None, ["f7", "f8"], pie=True)
    assert board.fen() == "7/8/9/10/4o6/5x6/12/11/10/9/8/7 d pie"
    assert [str(move) for move in board.legal_moves] == ["swap", "keep"]
    assert len(board.legal_moves) == 2
    after = {}
    for text in ["swap", "keep"]:
        board.push_str(text)
        after[text] = board.fen()
        assert board.last_removed == ()
        assert board.pop() == engine.Move.parse(text)
    assert after["swap"] == after["keep"] == "7/8/9/10/4o6/5x6/12/11/10/9/8/7 l open"
    assert board.perft_divide(1) == {"swap": 1, "keep": 1}


def test_without_the_pie_rule_dark_s_first_stone_leads_to_light(engine: ModuleType) -> None:
    board = _played(engine, None, ["f7", "f8"])
    assert (board.phase, board.turn) == (Phase.OPEN, Color.LIGHT)


# ----------------------------------------------------------------------
# Reading the board


def test_piece_at_and_piece_map(engine: ModuleType) -> None:
    board = engine.Board(AFTER_FOUR)
    assert board.piece_at("f2") is Color.LIGHT
    assert board.piece_at(parse_point("d4")) is Color.DARK
    assert board.piece_at("e5") is None
    assert board.piece_map() == {
        parse_point("a1"): Color.DARK,
        parse_point("f2"): Color.LIGHT,
        parse_point("d4"): Color.DARK,
        parse_point("f12"): Color.LIGHT,
    }
    assert list(board.piece_map()) == sorted(board.piece_map())


@pytest.mark.parametrize("point", ["a12", "l1", "m1", "a13", parse_point("a8"), 13, 195])
def test_piece_at_off_the_board(engine: ModuleType, point: int | str) -> None:
    board = engine.Board()
    name = point if isinstance(point, str) else point_name(point)
    with pytest.raises(InvalidMoveError) as error:
        board.piece_at(point)
    assert str(error.value) == f"point {name!r} is not on the 6-7 board"


def test_piece_at_bad_points(engine: ModuleType) -> None:
    board = engine.Board()
    with pytest.raises(InvalidMoveError, match="invalid point 'a0'"):
        board.piece_at("a0")
    with pytest.raises(InvalidMoveError, match=r"invalid point number 196: expected 0\.\.195"):
        board.piece_at(196)
    with pytest.raises(InvalidMoveError, match=r"invalid point number -1: expected 0\.\.195"):
        board.piece_at(-1)
    with pytest.raises(TypeError):
        board.piece_at(None)


def test_repr_and_properties(engine: ModuleType) -> None:
    board = engine.Board(size="5-6", pie=True)
    assert repr(board) == "Board('6/7/8/9/10/10/9/8/7/6 l open', size='5-6', pie=True)"
    assert (board.size, board.pie, board.turn, board.phase) == (
        "5-6", True, Color.LIGHT, Phase.OPEN
    )  # fmt: skip
    assert board.stones == Stones(0, 0)
    assert board.last_removed == ()
    assert repr(engine.Board()) == (
        "Board('7/8/9/10/11/12/12/11/10/9/8/7 l open', size='6-7', pie=False)"
    )


DRAWINGS = {
    "5-6": [
        "10     . . . . . .",
        " 9    . . . . . . .",
        " 8   . . . . . . . .",
        " 7  . . . . . . . . .",
        " 6 . . . . . . . . . .",
        " 5  . . . . . . . . . .",
        " 4   . . . . . . . . .",
        " 3    . . . . . . . .",
        " 2     . . . . . . .",
        " 1      . . . . . .",
    ],
    "6-7": [
        "12      . . . . . . .",
        "11     . . . . . . . .",
        "10    . . . . . . . . .",
        " 9   . . . . . . . . . .",
        " 8  . . . . . . . . . . .",
        " 7 . . . . . . . . . . . .",
        " 6  . . . . . . . . . . . .",
        " 5   . . . . . . . . . . .",
        " 4    . . . . . . . . . .",
        " 3     . . . . . . . . .",
        " 2      . . . . . . . .",
        " 1       . . . . . . .",
    ],
    "7-8": [
        "14       . . . . . . . .",
        "13      . . . . . . . . .",
        "12     . . . . . . . . . .",
        "11    . . . . . . . . . . .",
        "10   . . . . . . . . . . . .",
        " 9  . . . . . . . . . . . . .",
        " 8 . . . . . . . . . . . . . .",
        " 7  . . . . . . . . . . . . . .",
        " 6   . . . . . . . . . . . . .",
        " 5    . . . . . . . . . . . .",
        " 4     . . . . . . . . . . .",
        " 3      . . . . . . . . . .",
        " 2       . . . . . . . . .",
        " 1        . . . . . . . .",
    ],
}


@pytest.mark.parametrize("size", list(DRAWINGS))
def test_drawing_of_the_start(engine: ModuleType, size: str) -> None:
    assert str(engine.Board(size=size)) == "\n".join(DRAWINGS[size])


def test_drawing_with_stones(engine: ModuleType) -> None:
    lines = str(engine.Board(AFTER_FOUR)).split("\n")
    assert lines[0] == "12      x . . . . . ."
    assert lines[8] == " 4    . . . o . . . . . ."
    assert lines[10] == " 2      . . . . . x . ."
    assert lines[11] == " 1       o . . . . . ."
    assert all(line == line.rstrip() for line in lines)


# ----------------------------------------------------------------------
# Legal moves as a live view


def test_legal_moves_view(engine: ModuleType) -> None:
    board = engine.Board()
    moves = board.legal_moves
    assert len(moves) == moves.count() == 114
    assert [move.point for move in moves] == sorted(move.point for move in moves)
    assert engine.Move.parse("f7") in moves
    assert engine.Move.parse("a12") not in moves
    assert engine.Move.parse("swap") not in moves
    assert "f7" not in moves
    assert bool(moves)
    board.push_str("f7")
    assert len(moves) == 113
    assert engine.Move.parse("f7") not in moves
    assert repr(moves).startswith("<LegalMoves (a1, b1, c1")


def test_is_legal_agrees_with_legal_moves(engine: ModuleType) -> None:
    board = engine.Board(AFTER_FOUR)
    everything = [engine.Move.place(p) for p in range(196)] + [
        engine.Move.swap(),
        engine.Move.keep(),
    ]
    assert [move for move in everything if board.is_legal(move)] == list(board.legal_moves)


# ----------------------------------------------------------------------
# Push, pop, copy, equality, hashing, pickling


def test_push_pop_peek(engine: ModuleType) -> None:
    board = engine.Board()
    fens = [board.fen()]
    moves = ["f2", "a1", "f12", "d4", "e2", "d5"]
    for text in moves:
        assert board.push_str(text) == engine.Move.parse(text)
        assert board.peek() == engine.Move.parse(text)
        fens.append(board.fen())
    assert [str(move) for move in board.move_stack] == moves
    board.move_stack.clear()  # a copy
    assert len(board.move_stack) == len(moves)
    for text in reversed(moves):
        fens.pop()
        assert board.pop() == engine.Move.parse(text)
        assert board.fen() == fens[-1]
    assert board == engine.Board()
    with pytest.raises(IndexError, match="pop from a board with an empty move stack"):
        board.pop()
    with pytest.raises(IndexError, match="peek at a board with an empty move stack"):
        board.peek()


REMOVES_E4 = "6/1x2x2/5x2/1x7/xx2x5/2o1o4o/2o1x4/8/1xo3o/2oo1o l play"
"""c3 removes Light's e4 (vector rp00-0); the game goes on."""


def _then_quiet(engine: ModuleType, board: Any) -> None:
    """Push the first legal move that removes nothing."""
    for move in board.legal_moves:
        board.push(move)
        if board.last_removed == ():
            return
        board.pop()
    raise AssertionError("every move removes")


def test_pop_restores_last_removed(engine: ModuleType) -> None:
    board = engine.Board(REMOVES_E4)
    board.push_str("c3")
    assert board.last_removed == ("e4",)
    _then_quiet(engine, board)
    assert board.last_removed == ()
    board.pop()
    assert board.last_removed == ("e4",)
    board.pop()
    assert board.last_removed == ()
    assert board.fen() == REMOVES_E4


def test_copy(engine: ModuleType) -> None:
    board = _played(engine, LIGHT_DIES, [])
    board.push_str("b1")
    same = board.copy()
    assert same == board
    assert same is not board
    assert same.move_stack == board.move_stack
    assert same.last_removed == board.last_removed
    bare = board.copy(stack=False)
    assert bare == board
    assert bare.move_stack == []
    assert bare.last_removed == ()
    with pytest.raises(IndexError):
        bare.pop()
    same.pop()
    assert board.fen() == "6/7/8/9/10/10/9/8/7/5o d play"
    assert same.fen() == LIGHT_DIES
    assert copy.copy(board) == board
    assert copy.deepcopy(board).move_stack == board.move_stack


def test_equality_and_hash(engine: ModuleType) -> None:
    one = _played(engine, None, ["f2", "a1", "f12", "d4"])
    other = _played(engine, None, ["f12", "d4", "f2", "a1"])
    assert one == other
    assert hash(one) == hash(other)
    assert one.move_stack != other.move_stack
    assert one == engine.Board(AFTER_FOUR)
    assert one != engine.Board(AFTER_FOUR, pie=True)
    assert engine.Board() != engine.Board(size="5-6")
    assert engine.Board() != engine.Board().fen()
    turned = engine.Board("x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 d play")
    assert turned != one
    assert len({one, other, engine.Board(AFTER_FOUR), turned}) == 2


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle(engine: ModuleType, protocol: int) -> None:
    board = _played(engine, REMOVES_E4, ["c3"], pie=True)
    _then_quiet(engine, board)
    board.pop()  # the stack ends with a removal
    loaded = pickle.loads(pickle.dumps(board, protocol))
    assert loaded == board
    assert loaded.fen() == board.fen()
    assert loaded.pie is True
    assert loaded.move_stack == board.move_stack
    assert loaded.last_removed == board.last_removed == ("e4",)
    loaded.pop()
    assert loaded.fen() == REMOVES_E4
    fresh = pickle.loads(pickle.dumps(engine.Board(size="7-8"), protocol))
    assert fresh == engine.Board(size="7-8")
    assert fresh.move_stack == []


# ----------------------------------------------------------------------
# Perft


def test_perft_from_the_start(engine: ModuleType) -> None:
    board = engine.Board()
    assert board.perft(0) == 1
    assert board.perft(1) == 114
    assert board.perft(2) == 12882
    assert board.perft(3) == 253160
    assert board.fen() == "7/8/9/10/11/12/12/11/10/9/8/7 l open"


def test_perft_divide(engine: ModuleType) -> None:
    board = engine.Board()
    divide = board.perft_divide(2)
    assert len(divide) == 114
    assert set(divide.values()) == {113}
    assert list(divide)[:3] == ["a1", "b1", "c1"]
    assert sum(board.perft_divide(3).values()) == 253160
    assert board.perft_divide(1) == {str(move): 1 for move in board.legal_moves}


@pytest.mark.parametrize("depth", [-1, -(2**70)])
def test_perft_negative_depth(engine: ModuleType, depth: int) -> None:
    with pytest.raises(ValueError, match="perft depth must not be negative") as error:
        engine.Board().perft(depth)
    assert str(error.value) == f"perft depth must not be negative, got {depth!r}"


def test_perft_bad_depths(engine: ModuleType) -> None:
    board = engine.Board()
    with pytest.raises(ValueError, match="at least 1"):
        board.perft_divide(0)
    with pytest.raises(TypeError):
        board.perft(1.0)
    with pytest.raises(TypeError):
        board.perft("1")
