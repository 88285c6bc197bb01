"""Position strings: accepted ones round-trip, refused ones raise the exact messages
of the API contract, whatever the input."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from veletas.errors import InvalidFenError, InvalidRulesError
from veletas.games.meridians.types import Color, Phase

START = {
    "5-6": "6/7/8/9/10/10/9/8/7/6 l open",
    "6-7": "7/8/9/10/11/12/12/11/10/9/8/7 l open",
    "7-8": "8/9/10/11/12/13/14/14/13/12/11/10/9/8 l open",
}
EMPTY_6_7 = "7/8/9/10/11/12/12/11/10/9/8/7"
AFTER_FOUR = "x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play"
"""The 6-7 start after f2 a1 f12 d4 (MERIDIANS.md section 6)."""
HUGE = "1" + "0" * 4999
"""A run of 5,000 digits."""


def _with_rank1(rank1: str) -> str:
    return f"7/8/9/10/11/12/12/11/10/9/8/{rank1}"


@pytest.mark.parametrize("size", list(START))
def test_start(engine: ModuleType, size: str) -> None:
    board = engine.Board(size=size)
    assert board.fen() == START[size]
    assert engine.Board(START[size]).size == size
    assert engine.Board(START[size], size=size) == board


def test_default_start(engine: ModuleType) -> None:
    board = engine.Board()
    assert board.size == "6-7"
    assert board.fen() == START["6-7"]
    for move in ["f2", "a1", "f12", "d4"]:
        board.push_str(move)
    assert board.fen() == AFTER_FOUR


@pytest.mark.parametrize(
    "fen",
    [
        AFTER_FOUR,
        "x6/8/9/10/11/12/12/11/10/9/8/7 d open",
        "x6/8/9/10/11/12/12/11/10/9/8/6o d pie",
        "x6/8/9/10/11/12/12/11/10/9/8/6o l open",
        "x6/8/9/10/11/12/12/11/10/9/7x/6o d open",
        "6/7/8/9/10/10/9/8/7/1o4 l play",
        "xoxoxox/8/9/10/11/12/12/11/10/9/8/7 d play",
        "8/9/10/11/12/13/14/14/13/12/11/10/9/7x l play",
    ],
)
def test_round_trip(engine: ModuleType, fen: str) -> None:
    board = engine.Board(fen)
    assert board.fen() == fen
    assert engine.Board(board.fen(), pie=True).fen() == fen


def test_fields_are_read(engine: ModuleType) -> None:
    board = engine.Board("x6/8/9/10/11/12/12/11/10/9/8/6o d pie")
    assert (board.turn, board.phase, board.size) == (Color.DARK, Phase.PIE, "6-7")
    assert board.piece_at("f12") is Color.LIGHT
    assert board.piece_at("g1") is Color.DARK
    assert board.stones == (1, 1)


REFUSALS = [
    # fields
    ("", "fields", "expected 3 fields separated by single spaces, found 1"),
    (EMPTY_6_7, "fields", "expected 3 fields separated by single spaces, found 1"),
    (f"{EMPTY_6_7} l", "fields", "expected 3 fields separated by single spaces, found 2"),
    (f"{EMPTY_6_7}  l open", "fields", "expected 3 fields separated by single spaces, found 4"),
    (f"{EMPTY_6_7} l open ", "fields", "expected 3 fields separated by single spaces, found 4"),
    (f"{EMPTY_6_7}\tl open", "fields", "expected 3 fields separated by single spaces, found 2"),
    (f"{EMPTY_6_7} l open 0", "fields", "expected 3 fields separated by single spaces, found 4"),
    # board: ranks
    ("7/8/9 l open", "board", "3 ranks, expected 10, 12 or 14"),
    (" l open", "board", "1 ranks, expected 10, 12 or 14"),
    (f"{EMPTY_6_7}/ l open", "board", "13 ranks, expected 10, 12 or 14"),
    ("/" * 15 + " l open", "board", "16 ranks, expected 10, 12 or 14"),
    # board: letters and runs
    (_with_rank1("6X") + " l open", "board", "unknown letter 'X' in rank 1"),
    (_with_rank1("6.") + " l open", "board", "unknown letter '.' in rank 1"),
    (_with_rank1("6\x00") + " l open", "board", "unknown letter '\\x00' in rank 1"),
    (_with_rank1("6\ud800") + " l open", "board", "unknown letter '\\ud800' in rank 1"),
    (_with_rank1("6\n") + " l open", "board", "unknown letter '\\n' in rank 1"),
    (_with_rank1("\u0667") + " l open", "board", "unknown letter '\u0667' in rank 1"),
    (_with_rank1("6\U0001f600") + " l open", "board", "unknown letter '\U0001f600' in rank 1"),
    (_with_rank1("-7") + " l open", "board", "unknown letter '-' in rank 1"),
    (_with_rank1("07") + " l open", "board", "bad run '07' in rank 1"),
    (_with_rank1("0x6") + " l open", "board", "bad run '0' in rank 1"),
    (_with_rank1("6x0") + " l open", "board", "bad run '0' in rank 1"),
    (_with_rank1("0" + HUGE) + " l open", "board", f"bad run {'0' + HUGE!r} in rank 1"),
    # board: point counts
    (_with_rank1("8") + " l open", "board", "rank 1 has 8 points, expected 7"),
    (_with_rank1("6") + " l open", "board", "rank 1 has 6 points, expected 7"),
    (_with_rank1("") + " l open", "board", "rank 1 has 0 points, expected 7"),
    (_with_rank1("xxxxxxxx") + " l open", "board", "rank 1 has 8 points, expected 7"),
    (_with_rank1("1000") + " l open", "board", "rank 1 has 1000 points, expected 7"),
    (_with_rank1("1001") + " l open", "board", "rank 1 has too many points, expected 7"),
    (_with_rank1("999x") + " l open", "board", "rank 1 has 1000 points, expected 7"),
    (_with_rank1("999xx") + " l open", "board", "rank 1 has too many points, expected 7"),
    (_with_rank1(HUGE) + " l open", "board", "rank 1 has too many points, expected 7"),
    (_with_rank1("x" * 5000) + " l open", "board", "rank 1 has too many points, expected 7"),
    (HUGE + "/8/9/10/11/12/12/11/10/9/8/7 l open", "board",
     "rank 12 has too many points, expected 7"),
    # board: the first bad rank from the top; within a rank, the first bad token
    ("8/8/9/10/11/12/12/11/10/9/8/7X l open", "board", "rank 12 has 8 points, expected 7"),
    ("7/8/9/10/11/12/12/11/10/9/8Y/7X l open", "board", "unknown letter 'Y' in rank 2"),
    (_with_rank1("9X") + " l open", "board", "unknown letter 'X' in rank 1"),
    (_with_rank1(HUGE + "X") + " l open", "board", "unknown letter 'X' in rank 1"),
    (_with_rank1("9" + "0" * 3) + " l open", "board", "rank 1 has too many points, expected 7"),
    ("6/7/8/9/10/10/9/8/7/7 l open", "board", "rank 1 has 7 points, expected 6"),
    ("8/9/10/11/12/13/14/14/13/12/11/10/9/9 l open", "board", "rank 1 has 9 points, expected 8"),
    # turn and phase
    (f"{EMPTY_6_7} w open", "turn", "'w' is not 'l' or 'd'"),
    (f"{EMPTY_6_7} L open", "turn", "'L' is not 'l' or 'd'"),
    (f"{EMPTY_6_7}  open", "turn", "'' is not 'l' or 'd'"),
    (f"{EMPTY_6_7} \x00 open", "turn", "'\\x00' is not 'l' or 'd'"),
    (f"{EMPTY_6_7} l setup", "phase", "'setup' is not 'open', 'pie' or 'play'"),
    (f"{EMPTY_6_7} l Open", "phase", "'Open' is not 'open', 'pie' or 'play'"),
    (f"{EMPTY_6_7} l ", "phase", "'' is not 'open', 'pie' or 'play'"),
    (f"{EMPTY_6_7} w pie", "turn", "'w' is not 'l' or 'd'"),
    (f"{EMPTY_6_7} l pie", "turn", "'l' cannot act in 'pie', which is Dark's"),
    (_with_rank1("xo5") + " l pie", "turn", "'l' cannot act in 'pie', which is Dark's"),
    # counts
    (_with_rank1("x6") + " l open", "counts",
     "'open l' needs 0 and 0 or 1 and 1 stones, found 1 light and 0 dark"),
    (_with_rank1("xxo4") + " l open", "counts",
     "'open l' needs 0 and 0 or 1 and 1 stones, found 2 light and 1 dark"),
    (_with_rank1("o6") + " l open", "counts",
     "'open l' needs 0 and 0 or 1 and 1 stones, found 0 light and 1 dark"),
    (f"{EMPTY_6_7} d open", "counts",
     "'open d' needs 1 and 0 or 2 and 1 stones, found 0 light and 0 dark"),
    (_with_rank1("xo5") + " d open", "counts",
     "'open d' needs 1 and 0 or 2 and 1 stones, found 1 light and 1 dark"),
    (_with_rank1("xxoo3") + " d open", "counts",
     "'open d' needs 1 and 0 or 2 and 1 stones, found 2 light and 2 dark"),
    (f"{EMPTY_6_7} d pie", "counts",
     "'pie' needs 1 light and 1 dark stone, found 0 light and 0 dark"),
    (_with_rank1("x6") + " d pie", "counts",
     "'pie' needs 1 light and 1 dark stone, found 1 light and 0 dark"),
    (_with_rank1("xxo4") + " d pie", "counts",
     "'pie' needs 1 light and 1 dark stone, found 2 light and 1 dark"),
    (f"{EMPTY_6_7} l play", "counts",
     "'play' needs at least one stone, found 0 light and 0 dark"),
    (f"{EMPTY_6_7} d play", "counts",
     "'play' needs at least one stone, found 0 light and 0 dark"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fen", "field", "reason"), REFUSALS, ids=[f"{i:02}-{r[1]}" for i, r in enumerate(REFUSALS)]
)
@pytest.mark.parametrize("pie", [False, True])
def test_refusals(engine: ModuleType, fen: str, field: str, reason: str, pie: bool) -> None:
    with pytest.raises(InvalidFenError) as error:
        engine.Board(fen, pie=pie)
    assert str(error.value) == f"invalid fen {fen!r}: {field}: {reason}"


@pytest.mark.parametrize("fen", [7, b"7/8 l open", ["x"], 1.5])
def test_position_strings_are_str(engine: ModuleType, fen: object) -> None:
    with pytest.raises(TypeError) as error:
        engine.Board(fen)
    assert str(error.value) == f"a position string is a str, not {type(fen).__name__}"


def test_size_must_match_the_position_string(engine: ModuleType) -> None:
    with pytest.raises(InvalidRulesError) as error:
        engine.Board(START["5-6"], size="6-7")
    assert str(error.value) == ("size '6-7' does not match the position string, which is '5-6'")


def test_options_are_checked_before_the_position_string(engine: ModuleType) -> None:
    with pytest.raises(InvalidRulesError, match="unknown size '9-10'"):
        engine.Board("not a fen", size="9-10")
    with pytest.raises(InvalidRulesError, match="pie must be a bool, not 1"):
        engine.Board("not a fen", pie=1)
    with pytest.raises(InvalidRulesError, match="unknown size 3"):
        engine.Board("not a fen", size=3, pie=1)


@pytest.mark.parametrize("size", ["8-9", "", 6, None.__class__, "6_7"])
def test_bad_sizes(engine: ModuleType, size: object) -> None:
    with pytest.raises(InvalidRulesError) as error:
        engine.Board(size=size)
    assert str(error.value) == f"unknown size {size!r}; expected one of '5-6', '6-7', '7-8'"


@pytest.mark.parametrize("pie", [0, 1, None, "yes"])
def test_bad_pie_options(engine: ModuleType, pie: object) -> None:
    with pytest.raises(InvalidRulesError) as error:
        engine.Board(pie=pie)
    assert str(error.value) == f"pie must be a bool, not {pie!r}"


def test_pie_phase_without_the_pie_rule(engine: ModuleType) -> None:
    # Rule options travel beside the string: the phase decides what is offered.
    board = engine.Board("x6/8/9/10/11/12/12/11/10/9/8/6o d pie", pie=False)
    assert [str(move) for move in board.legal_moves] == ["swap", "keep"]
    board.push_str("keep")
    assert board.fen() == "x6/8/9/10/11/12/12/11/10/9/8/6o l open"


def test_finished_games_are_accepted(engine: ModuleType) -> None:
    for fen, winner in [
        ("6/7/8/9/10/10/9/8/7/1o4 l play", Color.DARK),  # Light has no stone
        ("6/7/8/9/10/10/9/8/7/1o4 d play", Color.DARK),  # nor here, Dark to move
        ("6/7/8/9/10/10/9/8/7/1x4 d play", Color.LIGHT),
        ("xo5/oo6/9/10/11/12/12/11/10/9/8/7 l play", Color.DARK),  # Light cannot place
    ]:
        board = engine.Board(fen)
        assert board.is_game_over(), fen
        assert board.winner is winner, fen
        assert list(board.legal_moves) == []
        assert len(board.legal_moves) == 0
        assert board.perft(1) == 0
        assert board.perft(0) == 1


_FEN_ALPHABET = st.sampled_from([*"xo0123456789/ ldopenpiay", "\x00", "\ud800", "\n", "\xe9"])


@given(
    text=st.one_of(
        st.text(),
        st.text(_FEN_ALPHABET, max_size=80),
        st.builds(
            lambda board, tail: f"{board} {tail}",
            st.lists(st.text(_FEN_ALPHABET, max_size=14), min_size=10, max_size=14).map("/".join),
            st.sampled_from(["l open", "d open", "d pie", "l play", "d play", "l pie"]),
        ),
    )
)
def test_any_text_is_read_or_refused(engine: ModuleType, text: str) -> None:
    try:
        fen = engine.Board(text).fen()
    except InvalidFenError as error:
        refusal = str(error)
        assert refusal.startswith(f"invalid fen {text!r}: ")
    else:
        assert fen == text
