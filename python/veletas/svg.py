"""Pictures of positions as SVG, for every game: for notebooks, documents,
the command line and the web page.

>>> import veletas
>>> picture = veletas.svg.board(veletas.Board(variant="small"), size=280)
>>> picture.startswith("<svg")
True

:func:`board` draws a board of any game (either engine) with that game's
drawing: :mod:`veletas.games.veletas.svg` for Veletas, whose docs list the
classes of the elements and the options.
"""

from __future__ import annotations

from typing import Any

from veletas import games as registry

__all__ = ["board"]


def board(board: Any, **options: Any) -> str:
    """The SVG picture of ``board``, drawn by its game's drawing.

    :raises TypeError: if ``board`` is no game's board.
    """
    return registry.game_of(board).draw(board, **options)
