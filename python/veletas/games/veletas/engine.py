"""Veletas's engines (:class:`veletas._engines.Engines`): the room builds
boards here, never through its public face."""

from __future__ import annotations

from veletas._engines import Engines
from veletas.games.veletas import reference

__all__ = ["ENGINES"]

ENGINES = Engines(
    {
        "Board": reference.Board,
        "Move": reference.Move,
        "LegalMoves": reference.LegalMoves,
        "DecisionState": reference.DecisionState,
    }
)
"""Veletas's native core and reference."""
