"""The pure-Python reference engine: a plain, readable reading of the rules.

It is the oracle the native core is tested against, and it runs anywhere
without the extension.

>>> from veletas.reference import Board
>>> board = Board(variant="small")
>>> board.perft(1)
25
"""

from __future__ import annotations

from veletas.games.veletas.reference.board import Board, LegalMoves
from veletas.games.veletas.reference.decision import DecisionState
from veletas.games.veletas.reference.move import Move
from veletas.games.veletas.reference.playouts import playouts

__all__ = ["Board", "DecisionState", "LegalMoves", "Move", "playouts"]
