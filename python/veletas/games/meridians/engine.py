"""Meridians's two engines as its room reaches them: the native core and the
pure-Python reference, by backend name (``"rust"``, ``"python"``), and the
one in use (:data:`veletas.IMPLEMENTATION`), whose classes the public face
exports. The room's modules build boards here, never through the face.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from veletas._implementation import IMPLEMENTATION, native, require_native
from veletas.games.meridians import reference

__all__ = ["REFERENCE", "Engine", "board_types", "of", "of_board", "selected"]


class Engine(NamedTuple):
    """One engine's classes under their public names."""

    Board: Any
    Move: Any
    LegalMoves: Any


REFERENCE = Engine(reference.Board, reference.Move, reference.LegalMoves)
"""The reference engine (:mod:`veletas.meridians.reference`)."""


def of(backend: str) -> Engine:
    """The engine ``backend`` names: ``"rust"`` the native core, else the
    reference.

    :raises ImportError: for ``"rust"`` where the extension is not built.
    """
    if backend == "rust":
        core = require_native("the rust backend")
        return Engine(core.MeridiansBoard, core.MeridiansMove, core.MeridiansLegalMoves)
    return REFERENCE


def selected() -> Engine:
    """The engine in use (``VELETAS_IMPLEMENTATION``)."""
    return of(IMPLEMENTATION)


def board_types() -> tuple[type, ...]:
    """The board classes of both engines (the reference's alone where the
    extension is not built)."""
    return (REFERENCE.Board,) if native is None else (native.MeridiansBoard, REFERENCE.Board)


def of_board(board: object) -> Engine:
    """The engine whose ``Board`` ``board`` is (the reference's for any other)."""
    if native is not None and isinstance(board, native.MeridiansBoard):
        return of("rust")
    return REFERENCE
