"""The shared types of veletas.games.meridians.types: colours, phases, sizes and points."""

from __future__ import annotations

import pickle

import pytest
from veletas.errors import InvalidMoveError, InvalidRulesError
from veletas.games.meridians import types
from veletas.games.meridians.types import (
    SIZES,
    Color,
    Outcome,
    Phase,
    Stones,
    check_pie,
    check_size,
    parse_point,
    point,
    point_name,
)


def test_colors() -> None:
    assert [int(color) for color in Color] == [0, 1]
    assert Color.LIGHT.other is Color.DARK
    assert Color.DARK.other is Color.LIGHT
    assert (str(Color.LIGHT), str(Color.DARK)) == ("light", "dark")


def test_phases() -> None:
    assert [str(phase) for phase in Phase] == ["open", "pie", "play"]
    assert Phase("pie") is Phase.PIE
    assert Phase.PLAY == "play"


def test_stones_and_outcome() -> None:
    stones = Stones(light=3, dark=5)
    assert stones[Color.DARK] == 5
    outcome = Outcome(Color.DARK, stones)
    assert outcome.winner is Color.DARK
    assert outcome.stones.light == 3
    assert pickle.loads(pickle.dumps(outcome)) == outcome


def test_sizes() -> None:
    assert SIZES == ("5-6", "6-7", "7-8")
    for size in SIZES:
        assert check_size(size) == size


@pytest.mark.parametrize(
    "size", ["8-9", "6-6", " 6-7", "6-7 ", "", None, 6, 6.7, ("6-7",), b"6-7", True]
)
def test_unknown_sizes(size: object) -> None:
    with pytest.raises(InvalidRulesError) as error:
        check_size(size)
    assert str(error.value) == f"unknown size {size!r}; expected one of '5-6', '6-7', '7-8'"


def test_pie_option() -> None:
    assert check_pie(True) is True
    assert check_pie(False) is False


@pytest.mark.parametrize("pie", [0, 1, None, "True", "yes", 1.0, [True]])
def test_bad_pie_options(pie: object) -> None:
    with pytest.raises(InvalidRulesError) as error:
        check_pie(pie)
    assert str(error.value) == f"pie must be a bool, not {pie!r}"


def test_point_numbers() -> None:
    assert point(0, 0) == parse_point("a1") == 0
    assert point(1, 0) == parse_point("b1") == 1
    assert point(0, 1) == parse_point("a2") == 14
    assert point(3, 0) == parse_point("d1") == 3
    assert parse_point("n14") == 195
    names = [point_name(p) for p in range(196)]
    assert len(set(names)) == 196
    assert all(parse_point(name) == p for p, name in enumerate(names))
    assert names[89] == "f7"


@pytest.mark.parametrize(("file", "rank"), [(-1, 0), (14, 0), (0, 14), (0, -1)])
def test_point_outside_the_grid(file: int, rank: int) -> None:
    with pytest.raises(ValueError, match=r"must both be in 0\.\.13"):
        point(file, rank)


@pytest.mark.parametrize("p", [-1, 196, 10**30])
def test_point_name_outside_the_grid(p: int) -> None:
    with pytest.raises(ValueError, match=r"is not in 0\.\.195"):
        point_name(p)


@pytest.mark.parametrize(
    "name",
    ["a0", "a15", "a01", "o1", "A1", "f", "7f", "", " a1", "a1 ", "a1\n", "a" + "1" * 5000,
     "a\x001", "\ud800", "a\u0661", "\uff411"],
)  # fmt: skip
def test_invalid_point_names(name: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        parse_point(name)
    assert str(error.value) == f"invalid point {name!r}: expected a file a-n and a rank 1-14"


@pytest.mark.parametrize("name", [1, None, b"a1", ["a1"]])
def test_point_names_are_str(name: object) -> None:
    with pytest.raises(TypeError) as error:
        parse_point(name)  # type: ignore[arg-type]
    assert str(error.value) == f"a point is read from a str, not {type(name).__name__}"


def test_exports() -> None:
    assert set(types.__all__) == {
        "SIZES", "Color", "Outcome", "Phase", "Rules", "Stones", "check_pie", "check_size",
        "parse_point", "point", "point_name",
    }  # fmt: skip
