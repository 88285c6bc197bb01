"""Pictures of Meridians boards: the SVG parses, and its points and stones
are the board's."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from types import ModuleType, SimpleNamespace

import pytest
import veletas

SVG = "{http://www.w3.org/2000/svg}"


def elements(svg: str, class_: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if e.get("class") == class_]


@pytest.mark.parametrize("size", ["5-6", "6-7", "7-8"])
def test_points_and_stones_are_the_boards(engine: ModuleType | SimpleNamespace, size: str) -> None:
    rng = random.Random(size)
    board = engine.Board(size=size)
    for _ in range(40):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    svg = veletas.svg.board(board, lastmove=board.peek())
    points = elements(svg, "point")
    names = {point.get("data-square") for point in points}
    every_point = {
        f"{chr(ord('a') + c)}{r + 1}"
        for c in range(14)
        for r in range(14)
        if board_has(board, c, r)
    }
    assert names == every_point
    assert len(points) == {"5-6": 80, "6-7": 114, "7-8": 154}[size]
    for color in ("light", "dark"):
        stones = elements(svg, f"stone {color}")
        expected = {
            veletas.meridians.point_name(p) for p, c in board.piece_map().items() if str(c) == color
        }
        assert {stone.get("data-square") for stone in stones} == expected
    assert len(elements(svg, "lastmove target")) == 1
    assert len(elements(svg, "lastmove removed")) == len(board.last_removed)
    assert board._repr_svg_() == svg


def board_has(board: object, c: int, r: int) -> bool:
    try:
        board.piece_at(r * 14 + c)  # type: ignore[attr-defined]
    except ValueError:
        return False
    return True


def test_removals_are_marked(engine: ModuleType | SimpleNamespace) -> None:
    board = engine.Board("6/7/8/9/10/10/9/8/7/x1x2o l play")
    board.push_str("b1")
    svg = veletas.svg.board(board, lastmove=board.peek(), flipped=True, coordinates=False)
    assert len(elements(svg, "lastmove removed")) == 3
    assert not elements(svg, "coord rank")
    assert len(elements(svg, "stone dark")) == 1


def test_a_bad_size_is_refused(engine: ModuleType | SimpleNamespace) -> None:
    with pytest.raises(ValueError, match="size must be an int of 40 or more"):
        veletas.svg.board(engine.Board(), size=10)
