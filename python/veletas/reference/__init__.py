"""The pure-Python reference engine of Veletas: a plain, readable reading of
the rules, the oracle the native core is tested against, and the fallback
that runs without the extension.

>>> from veletas.reference import Board
>>> board = Board(variant="small")
>>> board.perft(1)
25

It lives in :mod:`veletas.games.veletas.reference`; this package is its
public name.
"""

from __future__ import annotations

from veletas.games.veletas.playouts import reference_playouts as playouts
from veletas.games.veletas.reference import Board, DecisionState, LegalMoves, Move

__all__ = ["Board", "DecisionState", "LegalMoves", "Move", "playouts"]
