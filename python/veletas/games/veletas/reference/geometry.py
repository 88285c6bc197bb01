"""Square tables of one board size: lines, neighbours and the outer ring.

Every table is indexed by the public square number (``rank * 10 + file``) and
built once per size, so the hot paths of the engine only follow tuples.

>>> from veletas import A1, E5, F1, square_name
>>> geo = geometry(5)
>>> [square_name(sq) for sq in geo.rays[E5][0]]  # the first line from e5 runs down
['e4', 'e3', 'e2', 'e1']
>>> [square_name(sq) for sq in geo.orthogonal[A1]]
['b1', 'a2']
>>> geo.contains(F1), geo.contains(E5)
(False, True)
"""

from __future__ import annotations

import dataclasses
import functools

__all__ = ["DIRECTIONS", "Geometry", "geometry"]

DIRECTIONS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))
"""The 8 queen directions as (file step, rank step): orthogonal ones first."""


@dataclasses.dataclass(frozen=True)
class Geometry:
    """The fixed tables of an N x N board."""

    size: int
    """N, the number of files and of ranks."""
    squares: tuple[int, ...]
    """The squares of the board, ascending."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """For each square, its lines: one tuple of squares per direction, nearest
    first, up to the edge, leaving out directions that leave the board at once."""
    orthogonal: tuple[tuple[int, ...], ...]
    """For each square, its orthogonal neighbours (groups and claims)."""
    around: tuple[tuple[int, ...], ...]
    """For each square, its orthogonal and diagonal neighbours (the spacing rule)."""
    ring: frozenset[int]
    """The outermost ring of squares (the perimeter rule)."""

    def contains(self, sq: int) -> bool:
        """Whether the public square number ``sq`` lies on this board."""
        return 0 <= sq < 100 and sq % 10 < self.size and sq // 10 < self.size


@functools.cache
def geometry(size: int) -> Geometry:
    """The tables of a ``size`` x ``size`` board, built on first use and then shared."""
    on_board = [
        (file, rank) for rank in range(size) for file in range(size)
    ]  # rank-major, so ascending square numbers

    def inside(file: int, rank: int) -> bool:
        return 0 <= file < size and 0 <= rank < size

    def line(file: int, rank: int, df: int, dr: int) -> tuple[int, ...]:
        squares = []
        file, rank = file + df, rank + dr
        while inside(file, rank):
            squares.append(rank * 10 + file)
            file, rank = file + df, rank + dr
        return tuple(squares)

    rays: list[tuple[tuple[int, ...], ...]] = [()] * 100
    orthogonal: list[tuple[int, ...]] = [()] * 100
    around: list[tuple[int, ...]] = [()] * 100
    for file, rank in on_board:
        sq = rank * 10 + file
        lines = (line(file, rank, df, dr) for df, dr in DIRECTIONS)
        rays[sq] = tuple(ray for ray in lines if ray)
        steps = [(file + df, rank + dr) for df, dr in DIRECTIONS]
        orthogonal[sq] = tuple(sorted(r * 10 + f for f, r in steps[:4] if inside(f, r)))
        around[sq] = tuple(sorted(r * 10 + f for f, r in steps if inside(f, r)))
    ring = frozenset(rank * 10 + file for file, rank in on_board if {file, rank} & {0, size - 1})
    return Geometry(
        size=size,
        squares=tuple(rank * 10 + file for file, rank in on_board),
        rays=tuple(rays),
        orthogonal=tuple(orthogonal),
        around=tuple(around),
        ring=ring,
    )
