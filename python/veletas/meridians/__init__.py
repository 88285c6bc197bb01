"""Meridians (Kanare Kato, 2021): stones placed by sight, dead groups removed, and the
last colour left on the board wins; on the boards 5-6, 6-7 and 7-8.

>>> from veletas import meridians
>>> board = meridians.Board()
>>> board.push_str("f7")
Move.parse('f7')
>>> board.fen(), board.turn
('7/8/9/10/11/5x6/12/11/10/9/8/7 d open', <Color.DARK: 1>)

``Board``, ``Move`` and ``LegalMoves`` come from the native core, or from the
pure-Python reference (:mod:`veletas.meridians.reference`) where the extension
is not built or ``VELETAS_IMPLEMENTATION=python`` asks for it, as for Veletas.
The plain types (``Color``, ``Phase``, ``Stones``, ``Outcome``, points) are
the same for both engines: :mod:`veletas.games.meridians.types`.

What serves both games lives once, in :mod:`veletas`, and takes a Meridians
board (or ``game="meridians"``) as it takes a Veletas one: the bots
(``veletas.MctsBot``, ``RandomBot``, ``GreedyBot``), matches
(``veletas.match(..., game="meridians")``), the vector env
(``veletas.VectorEnv(n, game="meridians")``), pictures
(``veletas.svg.board``), records (``veletas.records``), review
(``veletas.review``), datasets (``veletas.read_playouts``) and the
adapters (:mod:`veletas.openspiel`, :mod:`veletas.pettingzoo`,
:mod:`veletas.gymnasium`).

>>> import veletas
>>> board = meridians.Board(size="5-6")
>>> veletas.MctsBot(iterations=50, seed=1).choose(board) in board.legal_moves
True
>>> veletas.VectorEnv(2, game="meridians", size="5-6").num_envs
2
>>> veletas.svg.board(board).startswith("<svg")
True
"""

from __future__ import annotations

from veletas._implementation import IMPLEMENTATION
from veletas.games.meridians.playouts import playouts
from veletas.games.meridians.types import (
    SIZES,
    Color,
    Outcome,
    Phase,
    Stones,
    check_pie,
    check_size,
    parse_point,
    point,
    point_name,
)
from veletas.meridians import reference

if IMPLEMENTATION == "rust":
    from veletas._veletas import MeridiansBoard as Board
    from veletas._veletas import MeridiansLegalMoves as LegalMoves
    from veletas._veletas import MeridiansMove as Move
else:
    # The reference serves the same API; type checkers see the native stubs.
    from veletas.meridians.reference import (  # type: ignore[assignment]
        Board,
        LegalMoves,
        Move,
    )

__all__ = [
    "SIZES",
    "Board",
    "Color",
    "LegalMoves",
    "Move",
    "Outcome",
    "Phase",
    "Stones",
    "check_pie",
    "check_size",
    "parse_point",
    "playouts",
    "point",
    "point_name",
    "reference",
]
