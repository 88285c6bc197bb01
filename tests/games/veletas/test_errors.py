"""Bad input: every refusal raises its own error class, quotes the bad value,
and leaves the board exactly as it was."""

from __future__ import annotations

from types import ModuleType

import pytest
from veletas import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidRulesError,
    VeletasError,
    parse_square,
)

PLAY_FEN = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"


def snapshot(board: object) -> tuple[str, list[object], int]:
    return board.fen(), board.move_stack, hash(board)  # type: ignore[attr-defined]


def test_error_classes_are_value_errors() -> None:
    for error in (InvalidMoveError, IllegalMoveError, InvalidFenError, InvalidRulesError):
        assert issubclass(error, VeletasError)
    assert issubclass(VeletasError, ValueError)


# ----------------------------------------------------------------------
# Position strings (RULES.md section 5's acceptance list)


@pytest.mark.parametrize(
    ("fen", "field"),
    [
        # well formed: fields and spaces
        ("7/7/7/7/7/7/7 b setup", "fields"),
        ("7/7/7/7/7/7/7 b setup 3 x", "fields"),
        ("7/7/7/7/7/7/7  b setup 3", "fields"),
        (" 7/7/7/7/7/7/7 b setup 3", "fields"),
        ("7/7/7/7/7/7/7 b setup 3 ", "fields"),
        ("7/7/7/7/7/7/7\tb setup 3", "fields"),
        ("", "fields"),
        # board: rank count, rank lengths, letters
        ("5/5/5/5 b setup 3", "board"),
        ("/".join(["11"] * 11) + " b setup 3", "board"),
        ("8/7/7/7/7/7/7 b setup 3", "board"),
        ("6/7/7/7/7/7/7 b setup 3", "board"),
        ("7/7/7/7/7/7/x7 b setup 3", "board"),
        ("7/7/7//7/7/7 b setup 3", "board"),
        ("7/7/7/3k3/7/7/7 b setup 3", "board"),
        ("7/7/7/07/7/7/7 b setup 3", "board"),
        ("7/7/7/3S3/7/7/7 b setup 3", "board"),
        ("7/7/7/3.3/7/7/7 b setup 3", "board"),
        ("7/7/7/3\n4/7/7/7 b setup 3", "board"),  # a newline is no letter either
        ("7/7/7/7\n/7/7/7 b setup 3", "board"),
        ("7/7/7/3\x004/7/7/7 b setup 3", "board"),
        ("7/7/7/3\ud8004/7/7/7 b setup 3", "board"),
        ("7/7/7/7/7/7/" + "9" * 5000 + " b setup 3", "board"),  # beyond int() limits
        (f"7/7/7/7/7/7/{2**64} b setup 3", "board"),
        # turn and phase
        ("7/7/7/7/7/7/7 x setup 3", "turn"),
        ("7/7/7/7/7/7/7 B setup 3", "turn"),
        ("7/2x4/7/1s5/7/7/7 b pie 3", "turn"),
        ("7/7/7/7/7/7/7 b Setup 3", "phase"),
        ("7/7/7/7/7/7/7 b end 3", "phase"),
        # K: not a number, even, too small, too big for N under the setup rule
        ("7/7/7/7/7/7/7 b setup three", "K"),
        ("7/7/7/7/7/7/7 b setup 03", "K"),
        ("7/7/7/7/7/7/7 b setup -3", "K"),
        ("7/7/7/7/7/7/7 b setup 4", "K"),
        ("7/7/7/7/7/7/7 b setup 1", "K"),
        ("5/5/5/5/5 b setup 9", "K"),
        ("10/10/10/10/10/10/10/10/10/10 b setup 65", "K"),
        ("7/7/7/7/7/7/7 b setup ", "K"),
        ("7/7/7/7/7/7/7 b setup 0", "K"),
        ("7/7/7/7/7/7/7 b setup 3\x00", "K"),
        ("7/7/7/7/7/7/7 b setup \uff13", "K"),  # a fullwidth 3
        (f"7/7/7/7/7/7/7 b setup {2**32 + 1}", "K"),
        ("7/7/7/7/7/7/7 b setup " + "9" * 5000, "K"),
        # counts that do not fit the phase
        ("7/7/7/3s3/7/7/x6 b setup 3", "counts"),  # a stone in Black's setup
        ("7/7/7/2ss3/7/7/7 b setup 3", "counts"),  # more than K // 2 shooters
        ("7/7/7/3X3/7/7/7 b setup 3", "counts"),  # a claimed shooter in setup
        ("7/2x4/7/1O5/7/7/7 w pie 3", "counts"),  # a claimed shooter in the pie
        ("7/2x4/7/1s5/7/7/o6 w pie 3", "counts"),  # a white stone in the pie
        ("7/7/7/1s5/7/7/7 w pie 3", "counts"),  # no black stone in the pie
        ("7/2x4/7/1s1s3/7/7/7 w pie 3", "counts"),  # not K // 2 shooters in the pie
        ("7/7/7/1s5/7/7/7 w setup 3", "counts"),  # White places before Black's stone
        ("7/2x4/7/7/7/7/7 w setup 3", "counts"),  # fewer than K // 2 shooters
        ("7/2x4/7/1ssss2/7/7/7 w setup 3", "counts"),  # more than K shooters
        ("7/2x4/7/1ss4/7/o6/7 w setup 3", "counts"),  # a white stone in setup
        ("7/2x4/7/1s5/7/o1s4/7 b play 3", "counts"),  # K - 1 shooters in play
        ("7/2x4/7/1s5/7/o1s2sX/7 b play 3", "counts"),  # K + 1 shooters in play
        ("7/2x4/7/1s5/7/2s2s1/7 b play 3", "counts"),  # no white stone in play
        ("7/7/7/1s5/7/o1s2s1/7 w play 3", "counts"),  # no black stone in play
    ],
)
def test_bad_fen(backend: ModuleType, fen: str, field: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        backend.Board(fen)
    message = str(info.value)
    assert repr(fen) in message
    assert f"{field}:" in message


def test_k_too_big_for_spacing_is_a_fen_error(backend: ModuleType) -> None:
    # 5x5 allows K = 5 under 'perimeter' (6 <= 9) but not under 'spacing'
    # (9 * 4 + 2 = 38 > 25).
    fen = "5/5/5/5/5 b setup 5"
    assert backend.Board(fen).rules.shooters == 5
    with pytest.raises(InvalidFenError, match="K:") as info:
        backend.Board(fen, setup_rule="spacing")
    assert repr(fen) in str(info.value)


def test_fen_must_be_a_string(backend: ModuleType) -> None:
    with pytest.raises(TypeError):
        backend.Board(7)


@pytest.mark.parametrize(
    ("options", "bad"),
    [
        ({"size": 9}, "9"),
        ({"shooters": 5}, "5"),
        ({"variant": "medium"}, "'medium'"),
        ({"variant": "standard", "size": 7, "shooters": 5}, "5"),
    ],
)
def test_fen_conflicting_with_options(backend: ModuleType, options: dict, bad: str) -> None:
    fen = "7/7/7/7/7/7/7 b setup 3"
    with pytest.raises(InvalidRulesError) as info:
        backend.Board(fen, **options)
    assert bad in str(info.value)
    # Options that agree are accepted.
    assert backend.Board(fen, variant="small", size=7, shooters=3).fen() == fen


# ----------------------------------------------------------------------
# Rules and options


@pytest.mark.parametrize(
    ("options", "bad"),
    [
        ({"variant": "huge"}, "'huge'"),
        ({"variant": "custom"}, "'custom'"),
        ({"setup_rule": "edge"}, "'edge'"),
        ({"shooters_block": "yes"}, "'yes'"),
        ({"shooters_block": 1}, "1"),
        ({"size": 4}, "4"),
        ({"size": 11}, "11"),
        ({"size": "7"}, "'7'"),
        ({"shooters": 4}, "4"),
        ({"shooters": 1}, "1"),
        ({"shooters": 7.0}, "7.0"),
    ],
)
def test_bad_options(backend: ModuleType, options: dict, bad: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        backend.Board(**options)
    assert bad in str(info.value)


@pytest.mark.parametrize("fen", [None, "5/5/5/5/5 b setup 3"])
def test_bad_options_beside_a_fen(backend: ModuleType, fen: str | None) -> None:
    with pytest.raises(InvalidRulesError, match="'edge'"):
        backend.Board(fen, setup_rule="edge")
    with pytest.raises(InvalidRulesError, match="'yes'"):
        backend.Board(fen, shooters_block="yes")
    with pytest.raises(InvalidRulesError, match="'tiny'"):
        backend.Board(fen, variant="tiny")


@pytest.mark.parametrize(
    ("size", "shooters", "setup_rule", "accepted"),
    [
        # edges of N
        (5, 3, "perimeter", True),
        (10, 3, "perimeter", True),
        (4, 3, "perimeter", False),
        (11, 3, "perimeter", False),
        # K odd and at least 3
        (7, 4, "perimeter", False),
        (7, 2, "perimeter", False),
        (7, 1, "perimeter", False),
        # perimeter: K + 1 <= (N - 2)^2
        (5, 7, "perimeter", True),
        (5, 9, "perimeter", False),
        (10, 63, "perimeter", True),
        (10, 65, "perimeter", False),
        # spacing: 9 * (K - 1) + 2 <= N^2
        (5, 3, "spacing", True),
        (5, 5, "spacing", False),
        (7, 5, "spacing", True),
        (7, 7, "spacing", False),
        (10, 11, "spacing", True),
        (10, 13, "spacing", False),
    ],
)
def test_limits_on_custom_size_and_shooter_count(
    backend: ModuleType, size: int, shooters: int, setup_rule: str, accepted: bool
) -> None:
    # Edge case: the same limits hold for Board(size=, shooters=) and for the
    # K field of a position string (when N itself is valid).
    fen = "/".join([str(size)] * size) + f" b setup {shooters}"
    if accepted:
        board = backend.Board(size=size, shooters=shooters, setup_rule=setup_rule)
        assert board.fen() == fen
        assert backend.Board(fen, setup_rule=setup_rule) == board
        return
    with pytest.raises(InvalidRulesError) as info:
        backend.Board(size=size, shooters=shooters, setup_rule=setup_rule)
    assert str(size if not 5 <= size <= 10 else shooters) in str(info.value)
    error = InvalidFenError
    with pytest.raises(error) as fen_info:
        backend.Board(fen, setup_rule=setup_rule)
    field = "K:" if 5 <= size <= 10 else "board:"
    assert field in str(fen_info.value)


def largest_shooter_count(size: int, setup_rule: str) -> int:
    """The largest K that RULES.md section 1 allows, computed from its two formulas."""
    # perimeter: K + 1 <= (N - 2)^2; spacing: 9 * (K - 1) + 2 <= N^2
    k = (size - 2) ** 2 - 1 if setup_rule == "perimeter" else (size * size - 2) // 9 + 1
    return k if k % 2 else k - 1


@pytest.mark.parametrize("setup_rule", ["perimeter", "spacing"])
@pytest.mark.parametrize("size", range(5, 11))
def test_shooter_count_limits_on_every_size(
    backend: ModuleType, size: int, setup_rule: str
) -> None:
    largest = largest_shooter_count(size, setup_rule)
    for shooters in (3, largest):
        board = backend.Board(size=size, shooters=shooters, setup_rule=setup_rule)
        assert board.rules.shooters == shooters
        fen = board.fen()
        assert backend.Board(fen, setup_rule=setup_rule) == board
    refused = [largest + 2, largest + 1, 4, 2, 1, 0, -1, -3, 2**31 - 1, 2**63 + 1, 10**30]
    for shooters in refused:
        with pytest.raises(InvalidRulesError) as info:
            backend.Board(size=size, shooters=shooters, setup_rule=setup_rule)
        assert str(shooters) in str(info.value)
        fen = "/".join([str(size)] * size) + f" b setup {shooters}"
        with pytest.raises(InvalidFenError, match="K:") as fen_info:
            backend.Board(fen, setup_rule=setup_rule)
        assert repr(fen) in str(fen_info.value)
        if shooters > 0:
            assert f"K: {shooters} " in str(fen_info.value) or f"count {shooters} " in str(
                fen_info.value
            )


@pytest.mark.parametrize("size", range(5, 11))
def test_j10_and_the_corners_on_every_size(backend: ModuleType, size: int) -> None:
    board = backend.Board(size=size, shooters=3, setup_rule="spacing")
    corners = [0, size - 1, (size - 1) * 10, (size - 1) * 10 + size - 1]
    beyond = [size, size * 10, size * 10 + size] if size < 10 else []
    for square in corners:
        assert board.piece_at(square) is None
        assert len(board.reach(square)) == 3 * (size - 1)
        assert board.is_legal(backend.Move.shooter(square))  # spacing allows edges
    before = snapshot(board)
    for square in [*beyond, *([99] if size < 10 else [])]:
        with pytest.raises(ValueError, match=str(square)):
            board.piece_at(square)
        with pytest.raises(ValueError, match=str(square)):
            board.reach(square)
        for move in (
            backend.Move.shooter(square),
            backend.Move(square),
            backend.Move(square, corners[0], corners[1]),
            backend.Move(corners[0], square, corners[1]),
            backend.Move(corners[0], corners[1], square),
        ):
            assert not board.is_legal(move)
            assert move not in board.legal_moves
            with pytest.raises(IllegalMoveError, match="is not on this"):
                board.push(move)
            assert snapshot(board) == before
    j10 = backend.Move.parse("*j10")
    assert board.is_legal(j10) == (size == 10)
    if size == 10:
        board.push(j10)
        assert board.piece_at(99) is not None
        assert board.fen().startswith("9s/")


@pytest.mark.parametrize("number", [-1, -(10**30), 100, 10**30, 2**63, -(2**63) - 1, 2**64])
def test_extreme_square_numbers(backend: ModuleType, number: int) -> None:
    board = backend.Board(PLAY_FEN)
    before = snapshot(board)
    for call in (board.piece_at, board.reach):
        with pytest.raises(ValueError, match=str(number)):
            call(number)
    for make in (
        lambda: backend.Move(number),
        lambda: backend.Move.shooter(number),
        lambda: backend.Move(1, number, 2),
        lambda: backend.Move(1, 2, number),
    ):
        with pytest.raises(InvalidMoveError, match=str(number)):
            make()
    assert snapshot(board) == before


def test_huge_perft_depth_and_non_integer_depths(backend: ModuleType) -> None:
    finished = backend.Board("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3")
    assert finished.perft(10**30) == 0
    assert finished.perft_divide(10**30) == {}
    for depth in (1.0, "1", None):
        with pytest.raises(TypeError):
            finished.perft(depth)
        with pytest.raises(TypeError):
            finished.perft_divide(depth)


# ----------------------------------------------------------------------
# Squares and move text


@pytest.mark.parametrize("name", ["k1", "a0", "a11", "a01", "A1", "", "e", "5", " e5", "e5 "])
def test_bad_square_names(name: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_square(name)
    assert repr(name) in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "e5-",
        "*swap",
        "E5",
        "",
        "e5 ",
        " e5",
        "Swap",
        "d4-d7",
        "d4-d7/",
        "d4d7/f9",
        "d4-d7f9",
        "*e5-e6/e7",
        "**e5",
        "a11",
        "k1",
        "a0",
        "a01",
        "e5\n",
    ],
)
def test_bad_move_text(backend: ModuleType, text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        backend.Move.parse(text)
    assert repr(text) in str(info.value)
    board = backend.Board(PLAY_FEN)
    before = snapshot(board)
    with pytest.raises(InvalidMoveError):
        board.push_str(text)
    assert snapshot(board) == before


def test_move_parse_needs_a_string(backend: ModuleType) -> None:
    with pytest.raises(TypeError):
        backend.Move.parse(44)


@pytest.mark.parametrize(
    "args",
    [(-1,), (100,), (44, 33), (44, None, 33), (44, 100, 33), (44, 33, -1)],
)
def test_bad_move_constructor(backend: ModuleType, args: tuple) -> None:
    with pytest.raises(InvalidMoveError):
        backend.Move(*args)


@pytest.mark.parametrize("square", [-1, 100])
def test_bad_shooter_constructor(backend: ModuleType, square: int) -> None:
    with pytest.raises(InvalidMoveError):
        backend.Move.shooter(square)


# ----------------------------------------------------------------------
# Illegal moves


@pytest.mark.parametrize(
    ("fen", "text"),
    [
        (PLAY_FEN, "*e5"),  # a shooter placement in play
        (PLAY_FEN, "swap"),  # swap outside the pie
        (PLAY_FEN, "c6"),  # a shot onto a stone
        (PLAY_FEN, "b4"),  # a shot onto a shooter
        (PLAY_FEN, "c2-c1/g7"),  # out of the moved shooter's reach
        (PLAY_FEN, "d4-d5/d6"),  # no shooter on d4
        (PLAY_FEN, "b4-b4/b5"),  # a shooter does not move onto itself
        (PLAY_FEN, "c2-c7/c3"),  # c7 lies beyond the stone c6
        ("7/2x4/7/1s5/7/7/7 w pie 3", "e5"),  # a stone (or shot) in the pie
        ("7/2x4/7/1s5/7/7/7 w pie 3", "*a1"),  # a shooter on the ring
        ("7/2x4/7/1s5/7/7/7 w pie 3", "*b4"),  # a shooter onto a shooter
        ("7/7/7/7/7/7/7 b setup 3", "e5"),  # a stone while shooters remain to place
        ("7/7/7/7/7/7/7 b setup 3", "swap"),  # swap in Black's setup
        ("7/7/7/3s3/7/7/7 b setup 3", "*e5"),  # a shooter when the stone is due
        ("7/7/7/3s3/7/7/7 b setup 3", "d4"),  # a stone onto a shooter
        ("7/7/7/3s3/7/7/7 b setup 3", "d4-d5/d6"),  # a shooter move in setup
        ("7/2x4/7/1s5/7/7/7 w setup 3", "swap"),  # a second swap
        ("7/7/7/7/7/7/7 b setup 3", "*j10"),  # beyond a 7x7 board
        ("7/7/7/7/7/7/7 b setup 3", "*h2"),  # beyond a 7x7 board
        (PLAY_FEN, "a8"),  # beyond a 7x7 board
        (PLAY_FEN, "b4-b8/b5"),  # beyond a 7x7 board
        # a claimed shooter never moves or shoots again (d5 is claimed)
        ("7/7/3X3/1O1ssx1/2xo3/7/s6 b play 5", "d5-d6/d7"),
        ("7/7/3X3/1O1ssx1/2xo3/7/s6 b play 5", "b4-b5/b6"),
        # a finished game
        ("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3", "b7"),
    ],
)
def test_illegal_move(backend: ModuleType, fen: str, text: str) -> None:
    board = backend.Board(fen)
    before = snapshot(board)
    move = backend.Move.parse(text)
    assert not board.is_legal(move)
    assert move not in board.legal_moves
    with pytest.raises(IllegalMoveError) as info:
        board.push(move)
    assert repr(text) in str(info.value)
    assert snapshot(board) == before
    with pytest.raises(IllegalMoveError):
        board.push_str(text)
    assert snapshot(board) == before


def test_claimed_shooter_does_not_shoot(backend: ModuleType) -> None:
    # 5x5, every square filled but e5:
    #   5 x o x o .
    #   4 o x o x O      e4: claimed by White, next to the empty e5
    #   3 x o x o x
    #   2 o s o x o      b2: unclaimed, walled in by stones
    #   1 x o x o X      e1: claimed by Black
    # Only the claimed e4 sees e5, and it never shoots or moves again.
    board = backend.Board("xoxo1/oxoxO/xoxox/osoxo/xoxoX b play 3")
    assert board.claims == (1, 1)
    assert board.winner is None
    assert not board.is_legal(backend.Move.parse("e5"))
    assert not board.is_legal(backend.Move.parse("e4-e5/e4"))
    assert not board.legal_moves


def test_push_refused_after_moves_keeps_the_stack(backend: ModuleType) -> None:
    board = backend.Board(variant="small")
    board.push_str("*d4")
    before = snapshot(board)
    with pytest.raises(IllegalMoveError):
        board.push_str("*e5")
    assert snapshot(board) == before
    assert [str(move) for move in board.move_stack] == ["*d4"]


@pytest.mark.parametrize("value", ["e5", 44, None, ("e5",)])
def test_push_a_non_move(backend: ModuleType, value: object) -> None:
    board = backend.Board(PLAY_FEN)
    before = snapshot(board)
    with pytest.raises(TypeError):
        board.push(value)
    assert snapshot(board) == before


def test_pop_and_peek_on_an_empty_stack(backend: ModuleType) -> None:
    board = backend.Board(PLAY_FEN)
    before = snapshot(board)
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    assert snapshot(board) == before


@pytest.mark.parametrize("square", [-1, 100, 7, 70, 99, 66 + 100])
def test_squares_off_the_board(backend: ModuleType, square: int) -> None:
    board = backend.Board(PLAY_FEN)  # 7x7: files a..g, ranks 1..7
    with pytest.raises(ValueError, match=str(square)):
        board.piece_at(square)
    with pytest.raises(ValueError, match=str(square)):
        board.reach(square)


def test_negative_perft_depth(backend: ModuleType) -> None:
    board = backend.Board(PLAY_FEN)
    with pytest.raises(ValueError, match="-1"):
        board.perft(-1)
    with pytest.raises(ValueError, match="0"):
        board.perft_divide(0)
