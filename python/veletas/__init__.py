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
    InvalidRecordError,
    InvalidRulesError,
    VeletasError,
)

IMPLEMENTATION = os.environ.get("VELETAS_IMPLEMENTATION", "rust")
"""The backend in use: ``"rust"`` (the default) or ``"python"``."""

if IMPLEMENTATION == "rust":
    from veletas._veletas import Board, DecisionState, Move, VectorEnv
elif IMPLEMENTATION == "python":
    # The reference serves the same API; type checkers see the native stubs.
    from veletas.reference import Board, Move  # type: ignore[assignment]
else:
    raise ImportError(
        f"unknown VELETAS_IMPLEMENTATION {IMPLEMENTATION!r}: expected 'rust' or 'python'"
    )

from veletas import bots, records, svg  # noqa: E402  (they use Board and Move)
from veletas.bots import GreedyBot, MctsBot, RandomBot  # noqa: E402

BLACK = base.Color.BLACK
WHITE = base.Color.WHITE

__all__ = [
    *base.__all__,
    "BLACK",
    "IMPLEMENTATION",
    "WHITE",
    "Board",
    "GreedyBot",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRecordError",
    "InvalidRulesError",
    "MctsBot",
    "Move",
    "RandomBot",
    "VeletasError",
    "bots",
    "records",
    "svg",
]
if IMPLEMENTATION == "rust":
    # The micro-decision state and the vector env come from the native core.
    __all__ += ["DecisionState", "VectorEnv"]
