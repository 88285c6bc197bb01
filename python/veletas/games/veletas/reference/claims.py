"""Who claims a trapped shooter (RULES.md section 4, step 3).

Cells are the board's 100 letters (see :mod:`veletas.games.veletas.reference.fen`); claim
markers (``X``, ``O``) are not stones, so they never join a group.

>>> from veletas.games.veletas.reference.fen import parse_fen
>>> from veletas.games.veletas.reference.geometry import geometry
>>> from veletas import Color, C3
>>> cells = parse_fen("s3s/5/1xsoo/5/5 w play 3", "perimeter").cells  # c3: x left, oo right
>>> claimant(cells, geometry(5).orthogonal, C3, shooter=Color.WHITE)
<Color.WHITE: 1>
"""

from __future__ import annotations

from collections.abc import Sequence

from veletas.games.veletas.types import Color

__all__ = ["STONE_LETTERS", "claimant", "group_size"]

STONE_LETTERS = ("x", "o")
"""The stone letter of each colour, indexed by :class:`Color`."""


def group_size(cells: Sequence[str], orthogonal: Sequence[tuple[int, ...]], start: int) -> int:
    """The number of stones in the group of the stone on ``start``."""
    letter = cells[start]
    seen = {start}
    frontier = [start]
    while frontier:
        sq = frontier.pop()
        for neighbour in orthogonal[sq]:
            if neighbour not in seen and cells[neighbour] == letter:
                seen.add(neighbour)
                frontier.append(neighbour)
    return len(seen)


def claimant(
    cells: Sequence[str], orthogonal: Sequence[tuple[int, ...]], sq: int, shooter: Color
) -> Color:
    """The colour that claims the trapped shooter on ``sq`` after ``shooter`` shot.

    The owner of the bigger of the biggest black and biggest white groups
    orthogonally adjacent to ``sq`` claims it; on a tie, or with no adjacent
    group, the opponent of ``shooter`` does.
    """
    biggest = [0, 0]
    for neighbour in orthogonal[sq]:
        letter = cells[neighbour]
        if letter in STONE_LETTERS:
            color = STONE_LETTERS.index(letter)
            biggest[color] = max(biggest[color], group_size(cells, orthogonal, neighbour))
    black, white = biggest
    if black == white:
        return shooter.other
    return Color.BLACK if black > white else Color.WHITE
