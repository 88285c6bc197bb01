"""The pure-Python reference engine of Meridians: a plain reading of the rules,
the oracle the native core is tested against, and the fallback that runs
without the extension.

>>> from veletas.meridians.reference import Board
>>> Board().perft(2)
12882

It lives in :mod:`veletas.games.meridians.reference`; this package is its
public name.
"""

from __future__ import annotations

from veletas.games.meridians.playouts import reference_playouts as playouts
from veletas.games.meridians.reference import Board, LegalMoves, Move

__all__ = ["Board", "LegalMoves", "Move", "playouts"]
