"""The native core against the reference, ply by ply, on random games of
every size with and without the pie rule: legal moves, position strings,
removals, turn, phase, the end and its winner, push/pop, copies, and the
refusal of illegal moves with the same message.

The default profile plays 34 games per rule set (204 in all);
``VELETAS_HYPOTHESIS_PROFILE=slow`` plays 340 per rule set (2,040).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from veletas.errors import IllegalMoveError

native = pytest.importorskip("veletas._veletas", reason="the extension is not built")
from veletas.meridians import reference  # noqa: E402

SLOW = os.environ.get("VELETAS_HYPOTHESIS_PROFILE") == "slow"
GAMES_PER_RULES = 340 if SLOW else 34
RULES = [(size, pie) for size in ("5-6", "6-7", "7-8") for pie in (False, True)]


def same_state(rust: object, ref: reference.Board) -> None:
    assert rust.fen() == ref.fen()  # type: ignore[attr-defined]
    for name in ("turn", "phase", "winner", "stones", "last_removed", "size", "pie"):
        assert getattr(rust, name) == getattr(ref, name), name
    assert rust.is_game_over() == ref.is_game_over()  # type: ignore[attr-defined]
    assert rust.outcome() == ref.outcome()  # type: ignore[attr-defined]
    assert [str(m) for m in rust.legal_moves] == [str(m) for m in ref.legal_moves]  # type: ignore[attr-defined]
    assert len(rust.legal_moves) == len(ref.legal_moves)  # type: ignore[attr-defined]
    assert str(rust) == str(ref)
    assert rust.piece_map() == ref.piece_map()  # type: ignore[attr-defined]


def refusal(board: object, text: str) -> str | None:
    try:
        board.push_str(text)  # type: ignore[attr-defined]
    except IllegalMoveError as error:
        return str(error)
    board.pop()  # type: ignore[attr-defined]
    return None


@pytest.mark.parametrize(("size", "pie"), RULES)
@settings(max_examples=GAMES_PER_RULES)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_agree(size: str, pie: bool, seed: int) -> None:
    rng = random.Random(seed)
    rust = native.MeridiansBoard(size=size, pie=pie)
    ref = reference.Board(size=size, pie=pie)
    fens = [ref.fen()]
    names = [str(m) for m in ref.legal_moves]
    every_point = [f"{file}{rank}" for file in "abcdefghijklmn" for rank in range(1, 15)]
    while True:
        same_state(rust, ref)
        # An illegal (or off-board) move is refused alike, and changes nothing.
        probe = rng.choice([*every_point, "swap", "keep"])
        assert refusal(rust, probe) == refusal(ref, probe)
        same_state(rust, ref)
        names = [str(m) for m in ref.legal_moves]
        if not names:
            break
        text = rng.choice(names)
        assert str(rust.push_str(text)) == str(ref.push_str(text))
        fens.append(ref.fen())
        if rng.random() < 0.1:  # take it back and play it again
            assert str(rust.pop()) == str(ref.pop()) == text
            same_state(rust, ref)
            rust.push_str(text)
            ref.push_str(text)
        if rng.random() < 0.05:  # go on with copies
            rust, ref = rust.copy(), ref.copy()
    assert ref.is_game_over()
    assert ref.winner is not None
    # Back to the start, position by position.
    for fen in reversed(fens[:-1]):
        assert str(rust.pop()) == str(ref.pop())
        assert rust.fen() == ref.fen() == fen
