"""The pure-Python reference engine of Meridians: a plain reading of the rules.

It is the second, independent reading of MERIDIANS.md that the native core is
tested against, and it runs anywhere: it imports nothing compiled.

>>> from veletas.meridians.reference import Board
>>> board = Board()
>>> board.push_str("f7")
Move.parse('f7')
>>> len(board.legal_moves), board.perft(2)
(113, 2842)
"""

from __future__ import annotations

from veletas.games.meridians.reference.board import Board, LegalMoves
from veletas.games.meridians.reference.move import Move

__all__ = ["Board", "LegalMoves", "Move"]
