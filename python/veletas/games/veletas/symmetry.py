"""The eight symmetries of the square board (turns and mirrors: every rule
of Veletas keeps them) on position strings, and the openings up to them.

>>> from veletas.games.veletas.symmetry import canonical_fen, openings
>>> canonical_fen("5/5/2s2/2x2/5 w pie 3") == canonical_fen("5/5/1xs2/5/5 w pie 3")
True
>>> len(openings(size=5, shooters=3))
33
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable
from typing import Any

from veletas._implementation import IMPLEMENTATION, native
from veletas.errors import InvalidFenError

__all__ = ["canonical_fen", "images", "openings"]


_RUN = re.compile(r"[0-9]+")

MAX_RANKS = 10
"""The most ranks of a board field here: the biggest board's."""


def _rows(fen: str, board: str) -> list[str]:
    """The ranks of ``board``, the board field of ``fen``, each a string of
    one character a square, ``.`` for an empty one.

    :raises InvalidFenError: naming ``fen`` where the field is not square:
        ranks of as many squares as there are ranks, at most
        :data:`MAX_RANKS`, in ASCII.
    """
    size = board.count("/") + 1
    error = InvalidFenError(
        f"not a square board field of at most {MAX_RANKS} ranks in ASCII: {fen!r}"
    )
    if size > MAX_RANKS or not board.isascii():
        raise error
    # Leading zeros stripped and the length checked first: a run of
    # thousands of digits is refused, not converted.
    runs = [run.lstrip("0") for run in _RUN.findall(board)]
    if any(len(run) > 2 or int(run or "0") > size for run in runs):
        raise error
    rows = _RUN.sub(lambda run: "." * int(run[0].lstrip("0") or "0"), board).split("/")
    if any(len(row) != size for row in rows):
        raise error
    return rows


def _runs_counted(field: str, size: int) -> str:
    """``field``, a board field of ``size`` ranks written out one character
    a square, with each run of empty squares as its length: the longest
    runs replaced first, so that every run is replaced whole (runs end at
    the ranks' ``/``)."""
    for run in range(size, 0, -1):
        field = field.replace("." * run, str(run))
    return field


@functools.cache
def _symmetries(size: int) -> tuple[Callable[[str], tuple[str, ...]], ...]:
    """The eight symmetries of a board of ``size`` ranks, the identity
    first, each as the characters it reads from the squares of a board
    field written out one character a square, rank by rank, followed by a
    ``/``: the image's ranks with a ``/`` between them."""
    grid = [list(range(rank * size, (rank + 1) * size)) for rank in range(size)]
    slash = size * size
    found = []
    for turned in (grid, [row[::-1] for row in grid]):
        for _ in range(4):
            read = [square for row in turned for square in [*row, slash]][:-1]
            found.append(operator.itemgetter(*read))
            turned = [list(column) for column in zip(*turned[::-1], strict=True)]
    return tuple(found)


def images(fen: str) -> list[str]:
    """The position string ``fen`` under each of the eight symmetries, the
    identity first: the board field turned and mirrored, the rest kept."""
    board, _, rest = fen.partition(" ")
    rows = _rows(fen, board)
    size = len(rows)
    squares = "".join(rows) + "/"
    return [
        f"{_runs_counted(''.join(symmetry(squares)), size)} {rest}"
        for symmetry in _symmetries(size)
    ]


def canonical_fen(fen: str) -> str:
    """The least of the images of ``fen``: one key for a position and its
    images, which have one value. The native engine's where it serves: the
    same string, some thirty times sooner.

    :raises InvalidFenError: naming ``fen`` where its board field is not
        square.
    """
    if native is not None and IMPLEMENTATION == "rust":
        result: str = native.canonical_fen(fen)
        return result
    return min(images(fen))


def openings(**rules: Any) -> list[str]:
    """The positions right after Black's opening (its shooters and its
    stone), one of each class of images, as ``Board.fen()`` writes them, in
    the order of the legal moves: White to decide the pie. ``rules`` are the
    keywords of :class:`veletas.Board` (``size=5, shooters=3``)."""
    from veletas.games.veletas.engine import ENGINES

    start = ENGINES.selected().Board(**rules)
    seen: set[str] = set()
    found: list[str] = []

    def place(board: Any) -> None:
        if board.phase.value != "setup":
            fen = board.fen()
            key = canonical_fen(fen)
            if key not in seen:
                seen.add(key)
                found.append(fen)
            return
        for move in board.legal_moves:
            after = board.copy()
            after.push(move)
            place(after)

    place(start)
    return found
