"""Meridians (Kanare Kato, 2021): stones placed by sight, dead groups removed, and the
last colour left on the board wins; on the boards 5-6, 6-7 and 7-8.

>>> from veletas import meridians
>>> board = meridians.Board()
>>> board.push_str("f7")
Move.parse('f7')
>>> board.fen(), board.turn
('7/8/9/10/11/5x6/12/11/10/9/8/7 d open', <Color.DARK: 1>)

``Board``, ``Move`` and ``LegalMoves`` come from the pure-Python reference
(:mod:`veletas.meridians.reference`); the shared types are in
:mod:`veletas.meridians.types`.
"""

from __future__ import annotations

from veletas.meridians import reference
from veletas.meridians.reference import Board, LegalMoves, Move
from veletas.meridians.types import (
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

__all__ = [
    "SIZES",
    "Board",
    "Color",
    "LegalMoves",
    "Move",
    "Outcome",
    "Phase",
    "Stones",
    "check_pie",
    "check_size",
    "parse_point",
    "point",
    "point_name",
    "reference",
]
