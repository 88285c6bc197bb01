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
"""

from __future__ import annotations

from veletas import IMPLEMENTATION
from veletas._checks import count
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
from veletas.playouts import PlayoutJob, Playouts

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


def playouts(
    n_games: int,
    *,
    size: str = "6-7",
    pie: bool = False,
    start: object = None,
    seed: int = 0,
    threads: int | None = None,
    record: bool = False,
) -> Playouts:
    """Play ``n_games`` random Meridians games and return them as numpy
    arrays: the same :class:`~veletas.playouts.Playouts` as Veletas's, with
    ``stones`` (Light's and Dark's at the end) in place of ``claims``.

    Every turn is a uniform choice among the legal moves. Game ``i`` uses the
    random stream of ``(seed, i)``, so the result is the same for any
    ``threads`` (None: every core) and on the reference
    (:func:`veletas.meridians.reference.playouts`). Games start at the start
    of ``size`` (with ``pie``), or from ``start`` (a ``Board`` or a position
    string). The games are played in the native core with the GIL released.

    >>> from veletas import meridians
    >>> games = meridians.playouts(1000, size="5-6", seed=3)
    >>> games.stones.shape, games.first_player_win_rate().rate > 0
    ((1000, 2), True)
    >>> again = meridians.playouts(1000, size="5-6", seed=3, threads=1)
    >>> bool((again.winner == games.winner).all())
    True

    :raises InvalidRulesError: for an unknown size, a non-bool ``pie``, or a
        ``start`` board of other rules.
    :raises InvalidFenError: for a ``start`` position string that is refused.
    :raises ValueError: for a negative ``n_games``, a seed outside 0 .. 2**64 - 1,
        or ``threads`` below 1.
    :raises TypeError: for arguments of the wrong type.
    """
    n_games = count(n_games)
    backend = "rust" if IMPLEMENTATION == "rust" else "python"
    job = PlayoutJob.make(
        game="meridians",
        size=size,
        pie=pie,
        start=start,
        seed=seed,
        threads=threads,
        record=record,
        backend=backend,
    )
    return job.run(0, n_games)
