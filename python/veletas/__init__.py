"""veletas: fast, exact rules engines for the board games Veletas and
Meridians. This module is Veletas's API (``veletas.Board`` is a Veletas
board); Meridians's is :mod:`veletas.meridians`, and what serves both games
(playouts, bots, matches, records, datasets, the adapters) takes either
game's board or a ``game=`` argument.

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

from veletas._implementation import IMPLEMENTATION, native, require_native, version
from veletas.errors import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPlayerError,
    InvalidRecordError,
    InvalidRulesError,
    LimitError,
    VeletasError,
)
from veletas.games.veletas import types as _types
from veletas.games.veletas.playouts import playouts
from veletas.games.veletas.types import *  # noqa: F403  (Color, Rules, squares A1 .. J10, ...)
from veletas.match import MatchResult, RoundRobin, match, round_robin
from veletas.playouts import Playouts

_native = native

__version__: str = version()
"""The version of veletas: the compiled extension's where it is built,
else the installed package's."""

if IMPLEMENTATION == "rust":
    if _native is None:
        raise ImportError(
            "VELETAS_IMPLEMENTATION=rust, but the compiled extension veletas._veletas "
            "is not built; install veletas from a wheel or with a Rust toolchain"
        )
    from veletas._veletas import Board, DecisionState, Move
elif IMPLEMENTATION == "python":
    # The reference serves the same API; type checkers see the native stubs.
    from veletas.reference import (  # type: ignore[assignment]
        Board,
        DecisionState,
        Move,
    )

from veletas import distributed, meridians, records, svg  # noqa: E402  (they use Board and Move)
from veletas.datasets import read_playouts  # noqa: E402
from veletas.report import report  # noqa: E402

_NATIVE_ONLY = (
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "Solver",
    "VectorEnv",
    "bots",
    "review",
    "solve",
)

if _native is not None:
    from veletas import bots
    from veletas.bots import GreedyBot, MctsBot, RandomBot
    from veletas.review import review
    from veletas.solving import Solver, solve
    from veletas.vector_env import VectorEnv
else:

    def __getattr__(name: str) -> object:
        if name in _NATIVE_ONLY:
            require_native(f"veletas.{name}")  # raises: it is not built
        raise AttributeError(f"module 'veletas' has no attribute {name!r}")


BLACK = _types.Color.BLACK
WHITE = _types.Color.WHITE

__all__ = [
    *_types.__all__,
    "BLACK",
    "IMPLEMENTATION",
    "WHITE",
    "Board",
    "DecisionState",
    "GreedyBot",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPlayerError",
    "InvalidRecordError",
    "InvalidRulesError",
    "LimitError",
    "MatchResult",
    "MctsBot",
    "Move",
    "Playouts",
    "RandomBot",
    "RoundRobin",
    "Solver",
    "VectorEnv",
    "VeletasError",
    "bots",
    "distributed",
    "match",
    "meridians",
    "playouts",
    "read_playouts",
    "records",
    "report",
    "review",
    "round_robin",
    "solve",
    "svg",
]
