"""Meridians's engines (:class:`veletas._engines.Engines`): the room builds
boards here, never through its public face."""

from __future__ import annotations

from veletas._engines import Engines
from veletas.games.meridians import reference

__all__ = ["ENGINES"]

ENGINES = Engines(
    {"Board": reference.Board, "Move": reference.Move, "LegalMoves": reference.LegalMoves},
    native_prefix="Meridians",
)
"""Meridians's native core and reference."""
