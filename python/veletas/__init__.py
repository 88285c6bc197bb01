"""veletas: a fast, exact rules engine for the board game Veletas.

>>> import veletas
>>> board = veletas.Board(variant="small")
>>> board.fen()
'7/7/7/7/7/7/7 b setup 3'

``Board``, ``Move``, ``DecisionState`` and ``playouts`` come from the native
core (``veletas._veletas``) by default. Setting the environment variable
``VELETAS_IMPLEMENTATION=python`` before the first import selects the
pure-Python reference for them instead, for debugging;
``VELETAS_IMPLEMENTATION=rust`` asks for the native core explicitly.
:data:`IMPLEMENTATION` tells which one is in use. ``VectorEnv`` and the bots'
search are native only.
"""

from __future__ import annotations

import os

from veletas import base
from veletas.base import *  # noqa: F403  (Color, Rules, squares A1 .. J10, ...)
from veletas.errors import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidRecordError,
    InvalidRulesError,
    VeletasError,
)
from veletas.playouts import Playouts, playouts

IMPLEMENTATION = os.environ.get("VELETAS_IMPLEMENTATION", "rust")
"""The backend in use: ``"rust"`` (the default) or ``"python"``."""

if IMPLEMENTATION == "rust":
    from veletas._veletas import Board, DecisionState, Move
elif IMPLEMENTATION == "python":
    # The reference serves the same API; type checkers see the native stubs.
    from veletas.reference import (  # type: ignore[assignment]
        Board,
        DecisionState,
        Move,
        playouts,
    )
else:
    raise ImportError(
        f"unknown VELETAS_IMPLEMENTATION {IMPLEMENTATION!r}: expected 'rust' or 'python'"
    )

from veletas import bots, distributed, records, svg  # noqa: E402  (they use Board and Move)
from veletas._veletas import VectorEnv  # noqa: E402
from veletas.bots import GreedyBot, MctsBot, RandomBot  # noqa: E402

BLACK = base.Color.BLACK
WHITE = base.Color.WHITE

__all__ = [
    *base.__all__,
    "BLACK",
    "IMPLEMENTATION",
    "WHITE",
    "Board",
    "DecisionState",
    "GreedyBot",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRecordError",
    "InvalidRulesError",
    "MctsBot",
    "Move",
    "Playouts",
    "RandomBot",
    "VectorEnv",
    "VeletasError",
    "bots",
    "distributed",
    "playouts",
    "records",
    "svg",
]
