"""The Board API of the spec: reading, views, push and pop, copies, equality."""

from __future__ import annotations

from types import ModuleType

import pytest
from veletas import Claims, Color, Phase, Piece, Rules, parse_square

PLAY_FEN = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"


def sq(name: str) -> int:
    return parse_square(name)


def test_start_position(backend: ModuleType) -> None:
    board = backend.Board()
    assert board.fen() == "10/10/10/10/10/10/10/10/10/10 b setup 7"
    assert board.size == 10
    assert board.rules == Rules(10, 7, "perimeter", False)
    assert (board.turn, board.phase, board.claims) == (Color.BLACK, Phase.SETUP, Claims(0, 0))
    assert board.move_stack == []
    assert not board.is_game_over()
    assert board.outcome() is None
    assert board.winner is None


def test_rules_of_a_fen_board(backend: ModuleType) -> None:
    board = backend.Board("5/5/5/5/5 b setup 5", setup_rule="perimeter", shooters_block=True)
    assert board.rules == Rules(5, 5, "perimeter", True)
    assert board.rules.variant == "custom"
    assert isinstance(board.turn, Color)
    assert isinstance(board.phase, Phase)
    assert isinstance(board.claims, Claims)


def test_diagram(backend: ModuleType) -> None:
    board = backend.Board("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3")
    assert str(board) == (
        " 7 x . x x x o o\n"
        " 6 . . x s . o x\n"
        " 5 . . o o x x X\n"
        " 4 . x x o o o x\n"
        " 3 x x o X x o .\n"
        " 2 o o o x o x o\n"
        " 1 x x o x . o o\n"
        "   a b c d e f g"
    )
    lines = str(backend.Board()).split("\n")
    assert lines[0] == "10 . . . . . . . . . ."
    assert lines[9] == " 1 . . . . . . . . . ."
    assert lines[10] == "   a b c d e f g h i j"
    assert all(line == line.rstrip() for line in lines)


@pytest.mark.parametrize(
    ("options", "suffix"),
    [
        ({}, ""),
        ({"setup_rule": "spacing"}, ", setup_rule='spacing'"),
        ({"shooters_block": True}, ", shooters_block=True"),
        (
            {"setup_rule": "spacing", "shooters_block": True},
            ", setup_rule='spacing', shooters_block=True",
        ),
    ],
)
def test_repr(backend: ModuleType, options: dict, suffix: str) -> None:
    board = backend.Board(PLAY_FEN, **options)
    assert repr(board) == f"Board({PLAY_FEN!r}{suffix})"
    assert eval(repr(board), {"Board": backend.Board}) == board


def test_piece_at_and_pieces(backend: ModuleType) -> None:
    board = backend.Board("7/7/3X3/1O1ssx1/2xo3/7/s6 b play 5")
    assert board.pieces(Piece.SHOOTER) == [sq("a1"), sq("d4"), sq("e4")]
    assert board.pieces(Piece.BLACK_STONE) == [sq("c3"), sq("f4")]
    assert board.pieces(Piece.WHITE_STONE) == [sq("d3")]
    assert board.pieces(Piece.BLACK_CLAIMED) == [sq("d5")]
    assert board.pieces(Piece.WHITE_CLAIMED) == [sq("b4")]
    assert board.piece_at(sq("g7")) is None
    assert board.piece_at(sq("e4")) is Piece.SHOOTER


def test_legal_moves_view_is_live(backend: ModuleType) -> None:
    board = backend.Board(variant="small")
    moves = board.legal_moves
    assert len(moves) == moves.count() == 25
    assert moves
    board.push_str("*d4")
    assert len(moves) == 48  # the same view now shows Black's stone
    assert backend.Move.parse("a1") in moves
    assert backend.Move.shooter(sq("c3")) not in moves
    assert "a1" not in moves  # only moves are in it
    text = repr(moves)
    assert text.startswith("<LegalMoves")
    assert "a1" in text


def test_canonical_order(backend: ModuleType) -> None:
    board = backend.Board(PLAY_FEN)
    moves = list(board.legal_moves)
    assert moves == sorted(moves)
    shots = [move for move in moves if move.origin is None]
    with_move = [move for move in moves if move.origin is not None]
    assert moves == shots + with_move
    assert [m.target for m in shots] == sorted(m.target for m in shots)
    keys = [(m.origin, m.destination, m.target) for m in with_move]
    assert keys == sorted(keys)
    assert len(set(moves)) == len(moves)


def test_push_pop_peek_and_stack(backend: ModuleType) -> None:
    board = backend.Board(PLAY_FEN)
    first = board.push_str("b6")
    assert first == backend.Move.parse("b6")
    second = backend.Move.parse("c2-c1/c2")
    board.push(second)
    assert board.peek() == second
    stack = board.move_stack
    assert stack == [first, second]
    stack.clear()  # a copy: the board keeps its stack
    assert board.move_stack == [first, second]
    assert board.pop() == second
    assert board.fen() == "7/1xx4/7/1s5/7/o1s2s1/7 w play 3"
    assert board.pop() == first
    assert board.fen() == PLAY_FEN


def test_pop_restores_claims(backend: ModuleType) -> None:
    fen = "xxooo/ooxso/xo1xo/xsoox/xxxxX b play 3"
    board = backend.Board(fen)
    board.push_str("c3")
    assert board.claims == Claims(2, 1)
    board.pop()
    assert board.fen() == fen
    assert board.claims == Claims(1, 0)
    assert len(board.legal_moves) == 3


def test_copy(backend: ModuleType) -> None:
    board = backend.Board(PLAY_FEN, setup_rule="spacing")
    board.push_str("b6")
    copy = board.copy()
    assert copy == board
    assert copy.move_stack == board.move_stack
    assert copy.rules == board.rules
    copy.push_str("c2-c1/c2")
    assert copy != board
    assert board.move_stack == [backend.Move.parse("b6")]
    assert board.fen() == "7/1xx4/7/1s5/7/o1s2s1/7 w play 3"
    bare = board.copy(stack=False)
    assert bare == board
    assert bare.move_stack == []
    with pytest.raises(IndexError):
        bare.pop()
    assert copy.pop() == backend.Move.parse("c2-c1/c2")
    assert copy.pop() == backend.Move.parse("b6")


def test_equality_and_hash(backend: ModuleType) -> None:
    board = backend.Board(PLAY_FEN)
    played = backend.Board("7/2x4/7/1s5/7/o1s2s1/7 w play 3".replace(" w ", " b "))
    assert board == played
    assert hash(board) == hash(played)
    board.push_str("b6")
    other = backend.Board("7/1xx4/7/1s5/7/o1s2s1/7 w play 3")
    assert board == other
    assert hash(board) == hash(other)
    assert backend.Board(PLAY_FEN) != backend.Board(PLAY_FEN, setup_rule="spacing")
    assert backend.Board(PLAY_FEN) != backend.Board(PLAY_FEN, shooters_block=True)
    assert backend.Board(PLAY_FEN) != PLAY_FEN
    assert len({backend.Board(PLAY_FEN), backend.Board(PLAY_FEN), board}) == 2


def test_is_legal_matches_the_legal_moves(backend: ModuleType) -> None:
    board = backend.Board(PLAY_FEN)
    legal = set(board.legal_moves)
    candidates = [backend.Move(t) for t in range(100)]
    candidates += [backend.Move(t, sq("c2"), d) for d in range(100) for t in (sq("c2"), sq("a4"))]
    candidates += [backend.Move.shooter(t) for t in range(0, 100, 7)] + [backend.Move.swap()]
    for move in candidates:
        assert board.is_legal(move) == (move in legal) == (move in board.legal_moves)


def test_perft_divide(backend: ModuleType) -> None:
    board = backend.Board("7/2x4/7/1s5/7/7/7 w pie 3")
    divide = board.perft_divide(2)
    assert list(divide) == list(board.legal_moves)
    # swap: White then places one of the 23 open interior squares; any
    # other first placement leaves 22 for the second.
    assert divide[backend.Move.swap()] == 23
    assert set(list(divide.values())[1:]) == {22}
    assert sum(divide.values()) == board.perft(2) == 23 + 23 * 22
    assert board.perft_divide(1) == dict.fromkeys(board.legal_moves, 1)
