"""The Move value: constructors, notation, ordering, hashing and immutability."""

from __future__ import annotations

import copy
import pickle
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from veletas import SQUARE_NAMES, parse_square, square_name

square_ints = st.integers(0, 99)
square_names = st.sampled_from(SQUARE_NAMES)


def test_constructors(backend: ModuleType) -> None:
    move = backend.Move(parse_square("f9"), parse_square("d4"), parse_square("d7"))
    assert (move.target, move.origin, move.destination) == (85, 33, 63)
    assert not move.is_shooter
    assert not move.is_swap
    shot = backend.Move(85)
    assert (shot.target, shot.origin, shot.destination) == (85, None, None)
    shooter = backend.Move.shooter(44)
    assert (shooter.target, shooter.is_shooter, shooter.is_swap) == (44, True, False)
    swap = backend.Move.swap()
    assert (swap.target, swap.origin, swap.destination, swap.is_swap) == (None, None, None, True)
    # The move never moving is just never legal, but it is a move.
    assert str(backend.Move.parse("d4-d4/f9")) == "d4-d4/f9"


def test_str_and_repr(backend: ModuleType) -> None:
    for text in ("*e5", "e5", "swap", "f9", "d4-d7/f9", "a1", "j10", "*j10", "a10-j1/e5"):
        move = backend.Move.parse(text)
        assert str(move) == text
        assert repr(move) == f"Move.parse({text!r})"
        assert eval(repr(move), {"Move": backend.Move}) == move


def test_equality_and_hash(backend: ModuleType) -> None:
    move = backend.Move.parse("d4-d7/f9")
    assert move == backend.Move(85, 33, 63)
    assert hash(move) == hash(backend.Move(85, 33, 63))
    assert backend.Move(44) != backend.Move.shooter(44)
    assert backend.Move.swap() == backend.Move.swap()
    assert move != "d4-d7/f9"
    assert len({backend.Move(44), backend.Move.parse("e5"), backend.Move.shooter(44)}) == 2


def test_order(backend: ModuleType) -> None:
    # Canonical order: swap, then placements; shots without a move by target,
    # then shots with one by (origin, destination, target), squares ascending
    # rank-major (d4 = 33 comes before c9 = 82).
    texts = ["d4-d7/f9", "a1", "d4-d7/a1", "c9-a1/a2", "f9", "d4-a1/j10"]
    moves = sorted(backend.Move.parse(text) for text in texts)
    assert [str(m) for m in moves] == [
        "a1",
        "f9",
        "d4-a1/j10",
        "d4-d7/a1",
        "d4-d7/f9",
        "c9-a1/a2",
    ]
    pie = sorted([backend.Move.shooter(50), backend.Move.swap(), backend.Move.shooter(11)])
    assert [str(m) for m in pie] == ["swap", "*b2", "*a6"]
    assert backend.Move(1) < backend.Move(2) <= backend.Move(2)
    assert backend.Move(3) > backend.Move(2)
    assert backend.Move(3) >= backend.Move(3)


def test_immutable(backend: ModuleType) -> None:
    move = backend.Move.parse("e5")
    with pytest.raises(AttributeError):
        move.target = 3  # type: ignore[misc]
    assert move.target == 44


def test_copy_and_pickle(backend: ModuleType) -> None:
    move = backend.Move.parse("d4-d7/f9")
    assert copy.copy(move) == move == copy.deepcopy(move)
    assert pickle.loads(pickle.dumps(move)) == move


@given(target=square_ints, shooter_move=st.none() | st.tuples(square_ints, square_ints))
def test_constructor_round_trip(
    backend: ModuleType, target: int, shooter_move: tuple[int, int] | None
) -> None:
    move = backend.Move(target, *(shooter_move or ()))
    parsed = backend.Move.parse(str(move))
    assert parsed == move
    assert (parsed.target, parsed.origin, parsed.destination) == (
        target,
        *(shooter_move or (None, None)),
    )


@given(
    text=st.one_of(
        st.just("swap"),
        square_names.map(lambda name: "*" + name),
        square_names,
        st.tuples(square_names, square_names, square_names).map(lambda t: f"{t[0]}-{t[1]}/{t[2]}"),
    )
)
def test_notation_round_trip(backend: ModuleType, text: str) -> None:
    assert str(backend.Move.parse(text)) == text


@given(sq=square_ints)
def test_square_names_round_trip(sq: int) -> None:
    assert parse_square(square_name(sq)) == sq
