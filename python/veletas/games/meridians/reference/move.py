"""Moves and their notation (MERIDIANS.md section 6).

One :class:`Move` value stands for every kind of turn: a placement on a
point, or the pie rule's ``swap`` or ``keep``.

>>> Move.parse("f7")
Move.parse('f7')
>>> Move.parse("f7").point, Move.place(89) == Move.parse("f7"), str(Move.keep())
(89, True, 'keep')
"""

from __future__ import annotations

import operator
import re
from typing import NoReturn

from veletas._checks import shown
from veletas.errors import InvalidMoveError
from veletas.games.meridians.types import parse_point, point_name

__all__ = ["KEEP", "PLACEMENTS", "SWAP", "Move"]

# The kinds of move.
_PLACE, _SWAP, _KEEP = 0, 1, 2

_MOVE_RE = re.compile(r"swap|keep|[a-n](?:1[0-4]|[1-9])")


class Move:
    """A move: a stone onto a point, or the pie rule's ``swap`` or ``keep``.

    Build one with :meth:`parse`, :meth:`place`, :meth:`swap` or
    :meth:`keep`. Moves are immutable, hashable and picklable; two moves are
    equal when they are the same turn.

    >>> move = Move.place(3)
    >>> move, move.point, move.is_swap
    (Move.parse('d1'), 3, False)
    >>> move.point = 4
    Traceback (most recent call last):
    ...
    AttributeError: Move is immutable
    """

    __slots__ = ("_kind", "_point")

    _kind: int
    _point: int | None

    def __init__(self) -> None:
        raise TypeError("build a Move with Move.parse, Move.place, Move.swap or Move.keep")

    @classmethod
    def _make(cls, kind: int, point: int | None) -> Move:
        """A move from a point already known to be valid."""
        move = object.__new__(cls)
        object.__setattr__(move, "_kind", kind)
        object.__setattr__(move, "_point", point)
        return move

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move: a point name of the largest board, ``swap`` or ``keep``.

        Whether the point is on the board of a game is a question of legality,
        not of notation.

        >>> Move.parse("n14"), Move.parse("swap")
        (Move.parse('n14'), Move.parse('swap'))
        >>> Move.parse("F7")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        veletas.errors.InvalidMoveError: invalid move 'F7': expected a point such as 'f7', ...

        :raises TypeError: if ``text`` is not a str.
        :raises InvalidMoveError: if ``text`` is not a move.
        """
        if not isinstance(text, str):
            raise TypeError(f"a move is read from a str, not {type(text).__name__}")
        if _MOVE_RE.fullmatch(text) is None:
            raise InvalidMoveError(
                f"invalid move {text!r}: expected a point such as 'f7', 'swap' or 'keep'"
            )
        if text == "swap":
            return SWAP
        if text == "keep":
            return KEEP
        return PLACEMENTS[parse_point(text)]

    @classmethod
    def place(cls, point: int) -> Move:
        """A stone onto the point numbered ``point`` (any point of the 14 x 14 grid).

        >>> Move.place(196)
        Traceback (most recent call last):
        ...
        veletas.errors.InvalidMoveError: invalid point number 196: expected 0..195

        :raises TypeError: if ``point`` is not an integer.
        :raises InvalidMoveError: if ``point`` is outside 0..195.
        """
        p = operator.index(point)
        if not 0 <= p < 196:
            raise InvalidMoveError(f"invalid point number {shown(point)}: expected 0..195")
        return PLACEMENTS[p]

    @classmethod
    def swap(cls) -> Move:
        """The pie rule's ``swap``: the players exchange colours."""
        return SWAP

    @classmethod
    def keep(cls) -> Move:
        """The pie rule's ``keep``: the players keep their colours."""
        return KEEP

    @property
    def point(self) -> int | None:
        """The point that receives the stone; None for ``swap`` and ``keep``."""
        return self._point

    @property
    def is_swap(self) -> bool:
        """Whether this is the pie rule's ``swap``."""
        return self._kind == _SWAP

    @property
    def is_keep(self) -> bool:
        """Whether this is the pie rule's ``keep``."""
        return self._kind == _KEEP

    def __str__(self) -> str:
        if self._kind == _SWAP:
            return "swap"
        if self._kind == _KEEP:
            return "keep"
        assert self._point is not None
        return point_name(self._point)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._kind == other._kind and self._point == other._point

    def __hash__(self) -> int:
        return hash((self._kind, self._point))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Move is immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("Move is immutable")

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: object) -> Move:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (str(self),))


PLACEMENTS = tuple(Move._make(_PLACE, p) for p in range(196))
"""The placement on each point number: moves are values, so one of each serves."""
SWAP = Move._make(_SWAP, None)
"""The pie rule's ``swap``."""
KEEP = Move._make(_KEEP, None)
"""The pie rule's ``keep``."""
