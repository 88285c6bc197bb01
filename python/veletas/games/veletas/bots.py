"""What the bots (:mod:`veletas.bots`) need of Veletas: its native engines."""

from __future__ import annotations

from typing import Any

from veletas._implementation import require_native

require_native("the bots of Veletas")
from veletas import _veletas  # noqa: E402  (after the check: its error names the user)

__all__ = ["greedy_move", "mcts_player", "move_type", "random_move", "solve"]

random_move = _veletas.random_move
"""A uniformly random legal move of a position string."""
greedy_move = _veletas.greedy_move
"""The one-ply bot's move: the most claims net of those handed over."""
solve = _veletas.solve
"""The native exact solver (:func:`veletas.solving.solve`)."""
mcts_player = _veletas.MctsPlayer
"""The native search."""


def move_type() -> Any:
    """The native ``Move``."""
    return _veletas.Move
