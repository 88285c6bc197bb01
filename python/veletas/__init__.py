"""veletas: a fast, exact rules engine for the board game Veletas.

>>> import veletas
>>> board = veletas.Board(variant="small")
>>> board.fen()
'7/7/7/7/7/7/7 b setup 3'

``Board`` and ``Move`` come from the native core (``veletas._veletas``) by
default. Setting the environment variable ``VELETAS_IMPLEMENTATION=python``
before the first import selects the pure-Python reference instead;
``VELETAS_IMPLEMENTATION=rust`` asks for the native core explicitly.
:data:`IMPLEMENTATION` tells which one is in use.
"""

from __future__ import annotations

import os

from veletas import base
from veletas.base import *  # noqa: F403  (Color, Rules, squares A1 .. J10, ...)
from veletas.errors import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidRulesError,
    VeletasError,
)
from veletas.playouts import Playouts, playouts

IMPLEMENTATION = os.environ.get("VELETAS_IMPLEMENTATION", "rust")
"""The backend in use: ``"rust"`` (the default) or ``"python"``."""

if IMPLEMENTATION == "rust":
    from veletas._veletas import Board, Move
elif IMPLEMENTATION == "python":
    # The reference serves the same API; type checkers see the native stubs.
    from veletas.reference import (  # type: ignore[assignment]
        Board,
        Move,
        playouts,  # type: ignore[assignment]
    )
else:
    raise ImportError(
        f"unknown VELETAS_IMPLEMENTATION {IMPLEMENTATION!r}: expected 'rust' or 'python'"
    )

BLACK = base.Color.BLACK
WHITE = base.Color.WHITE

__all__ = [
    *base.__all__,
    "BLACK",
    "IMPLEMENTATION",
    "WHITE",
    "Board",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRulesError",
    "Move",
    "Playouts",
    "VeletasError",
    "playouts",
]
