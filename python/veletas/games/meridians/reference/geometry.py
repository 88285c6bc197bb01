"""Point tables of one board size: the points, their neighbours and their lines.

A point (c, r) is on a board of size A-B, N = A + B - 1, when ``0 <= c, r <= N-1``
and ``|c - r| <= B-1`` (MERIDIANS.md section 1). Every table is indexed by the
public point number (``r * 14 + c``) and built once per size, so the engine
only follows tuples.

>>> from veletas.meridians import parse_point, point_name
>>> geo = geometry("6-7")
>>> len(geo.points), geo.contains(parse_point("a7")), geo.contains(parse_point("a8"))
(114, True, False)
>>> [point_name(p) for p in geo.neighbours[parse_point("a1")]]
['b1', 'a2', 'b2']
>>> [point_name(p) for p in geo.rays[parse_point("d1")][0]]  # the rank, rightwards
['e1', 'f1', 'g1']
"""

from __future__ import annotations

import dataclasses
import functools

__all__ = ["DIRECTIONS", "Geometry", "geometry", "size_of_ranks"]

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
"""The six directions as (file step, rank step): both ways along the rank, the
file and the diagonal, the three lines through every point. The neighbours of
a point are its first points in these directions."""

_SHAPES = {"5-6": (5, 6), "6-7": (6, 7), "7-8": (7, 8)}


@dataclasses.dataclass(frozen=True)
class Geometry:
    """The fixed tables of a board of one size."""

    size: str
    """The size, such as ``"6-7"``."""
    a: int
    """A, the points on the two short sides."""
    b: int
    """B, the points on the four long sides."""
    n: int
    """N = A + B - 1: the number of ranks, and of files."""
    points: tuple[int, ...]
    """The points of the board, ascending."""
    ranks: tuple[tuple[int, ...], ...]
    """The points of each rank (rank 1 first), by increasing file."""
    neighbours: tuple[tuple[int, ...], ...]
    """For each point number, its neighbours on the board, ascending (empty off the board)."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """For each point number, its lines: one tuple of points per direction,
    nearest first, up to the edge, leaving out directions that leave the
    board at once."""

    def contains(self, p: int) -> bool:
        """Whether the point numbered ``p`` lies on this board."""
        if not 0 <= p < 196:
            return False
        c, r = p % 14, p // 14
        return r < self.n and c < self.n and abs(c - r) <= self.b - 1


@functools.cache
def geometry(size: str) -> Geometry:
    """The tables of the board of ``size`` (one of ``SIZES``), built on first use."""
    a, b = _SHAPES[size]
    n = a + b - 1

    def inside(c: int, r: int) -> bool:
        return 0 <= c < n and 0 <= r < n and abs(c - r) <= b - 1

    def ray(c: int, r: int, dc: int, dr: int) -> tuple[int, ...]:
        found = []
        c, r = c + dc, r + dr
        while inside(c, r):
            found.append(r * 14 + c)
            c, r = c + dc, r + dr
        return tuple(found)

    ranks = tuple(tuple(r * 14 + c for c in range(n) if inside(c, r)) for r in range(n))
    neighbours: list[tuple[int, ...]] = [()] * 196
    rays: list[tuple[tuple[int, ...], ...]] = [()] * 196
    for rank in ranks:
        for p in rank:
            c, r = p % 14, p // 14
            lines = [ray(c, r, dc, dr) for dc, dr in DIRECTIONS]
            rays[p] = tuple(line for line in lines if line)
            neighbours[p] = tuple(sorted(line[0] for line in lines if line))
    return Geometry(
        size=size,
        a=a,
        b=b,
        n=n,
        points=tuple(p for rank in ranks for p in rank),
        ranks=ranks,
        neighbours=tuple(neighbours),
        rays=tuple(rays),
    )


def size_of_ranks(count: int) -> str | None:
    """The size whose board has ``count`` ranks, or None.

    >>> size_of_ranks(12), size_of_ranks(11)
    ('6-7', None)
    """
    for size, (a, b) in _SHAPES.items():
        if a + b - 1 == count:
            return size
    return None
