"""Moves and their notation (RULES.md section 5).

One :class:`Move` value stands for every kind of turn: a setup placement, the
pie ``swap``, or a play turn of an optional shooter move and a shot.

>>> from veletas import E5
>>> Move.parse("d4-d7/f9")
Move.parse('d4-d7/f9')
>>> str(Move.shooter(E5)), str(Move(E5)), str(Move.swap())
('*e5', 'e5', 'swap')
"""

from __future__ import annotations

import operator
import re

from veletas._checks import shown
from veletas.errors import InvalidMoveError
from veletas.games.veletas.types import parse_square, square_name

__all__ = ["Move", "shooter_placement", "stone"]

# The kinds of move, in the order in which they sort: the pie offers `swap`
# before shooter placements, and no list ever mixes placements and stones.
_SWAP, _SHOOTER, _STONE = 0, 1, 2

_SQ = r"[a-j](?:10|[1-9])"
_MOVE_RE = re.compile(
    rf"(?P<swap>swap)"
    rf"|\*(?P<shooter>{_SQ})"
    rf"|(?:(?P<origin>{_SQ})-(?P<dest>{_SQ})/)?(?P<target>{_SQ})"
)


def _checked_square(value: object, role: str) -> int:
    """``value`` as a square number 0..99.

    :raises TypeError: if ``value`` is not an integer.
    :raises InvalidMoveError: if it is out of range.
    """
    sq = operator.index(value)  # type: ignore[arg-type]
    if not 0 <= sq < 100:
        raise InvalidMoveError(f"invalid {role} square {shown(value)}: expected 0..99")
    return sq


class Move:
    """A move: a stone onto ``target``, after an optional shooter move.

    ``Move(target)`` is a setup stone or a shot without a shooter move;
    ``Move(target, origin, destination)`` first moves the shooter on ``origin``
    to ``destination``. Shooter placements and the swap have their own
    constructors. Moves are immutable, hashable and ordered: sorting the legal
    moves of a position gives their canonical order.

    >>> from veletas import A1, D4, D7, F9
    >>> move = Move(F9, D4, D7)
    >>> move, move.origin == D4, move.is_shooter
    (Move.parse('d4-d7/f9'), True, False)
    >>> sorted([Move(F9, D4, D7), Move(F9), Move(A1)])
    [Move.parse('a1'), Move.parse('f9'), Move.parse('d4-d7/f9')]
    >>> Move(F9, D4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidMoveError: a shooter move needs both origin and destination, ...

    :raises InvalidMoveError: for a square outside 0..99, or only one of
        ``origin`` and ``destination``.
    """

    __slots__ = ("_destination", "_key", "_kind", "_origin", "_target")

    _kind: int
    _target: int | None
    _origin: int | None
    _destination: int | None
    _key: tuple[int, int, int, int]

    def __init__(
        self, target: int, origin: int | None = None, destination: int | None = None
    ) -> None:
        if (origin is None) != (destination is None):
            raise InvalidMoveError(
                "a shooter move needs both origin and destination, "
                f"got origin {shown(origin)} and destination {shown(destination)}"
            )
        target = _checked_square(target, "target")
        if origin is not None and destination is not None:
            origin = _checked_square(origin, "origin")
            destination = _checked_square(destination, "destination")
        self._set(_STONE, target, origin, destination)

    def _set(
        self, kind: int, target: int | None, origin: int | None, destination: int | None
    ) -> None:
        self._kind = kind
        self._target = target
        self._origin = origin
        self._destination = destination
        # -1 sorts a missing square first: shots without a move come before
        # shots with one, as in the canonical order of legal moves.
        self._key = (
            kind,
            -1 if origin is None else origin,
            -1 if destination is None else destination,
            -1 if target is None else target,
        )

    @classmethod
    def _make(
        cls,
        kind: int,
        target: int | None,
        origin: int | None = None,
        destination: int | None = None,
    ) -> Move:
        """A move from squares already known to be valid (the move generator's path)."""
        move = object.__new__(cls)
        move._set(kind, target, origin, destination)
        return move

    @classmethod
    def shooter(cls, square: int) -> Move:
        """Setup: place a shooter on ``square`` (``*e5``).

        >>> from veletas import E5
        >>> Move.shooter(E5)
        Move.parse('*e5')

        :raises InvalidMoveError: for a square outside 0..99.
        """
        return cls._make(_SHOOTER, _checked_square(square, "shooter"))

    @classmethod
    def swap(cls) -> Move:
        """The pie rule's ``swap``.

        >>> Move.swap().is_swap
        True
        """
        return cls._make(_SWAP, None)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in the notation of RULES.md section 5.

        >>> Move.parse("*e5").is_shooter
        True
        >>> Move.parse("E5")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        veletas.errors.InvalidMoveError: invalid move 'E5': expected 'swap', '*e5', ...

        :raises TypeError: if ``text`` is not a string.
        :raises InvalidMoveError: if ``text`` is not a move.
        """
        if not isinstance(text, str):
            raise TypeError(f"a move is read from a str, not {type(text).__name__}")
        match = _MOVE_RE.fullmatch(text)
        if match is None:
            raise InvalidMoveError(
                f"invalid move {text!r}: expected 'swap', '*e5', 'e5' or 'd4-d7/f9'"
            )
        if match["swap"]:
            return cls.swap()
        if match["shooter"]:
            return cls._make(_SHOOTER, parse_square(match["shooter"]))
        origin = match["origin"]
        return cls._make(
            _STONE,
            parse_square(match["target"]),
            None if origin is None else parse_square(origin),
            None if origin is None else parse_square(match["dest"]),
        )

    @property
    def target(self) -> int | None:
        """The square that receives the stone or the placed shooter; None for ``swap``."""
        return self._target

    @property
    def origin(self) -> int | None:
        """The square the shooter moves from, or None when no shooter moves."""
        return self._origin

    @property
    def destination(self) -> int | None:
        """The square the shooter moves to, or None when no shooter moves."""
        return self._destination

    @property
    def is_swap(self) -> bool:
        """Whether this is the pie rule's ``swap``."""
        return self._kind == _SWAP

    @property
    def is_shooter(self) -> bool:
        """Whether this places a shooter in setup."""
        return self._kind == _SHOOTER

    def __str__(self) -> str:
        if self._kind == _SWAP:
            return "swap"
        assert self._target is not None
        target = square_name(self._target)
        if self._kind == _SHOOTER:
            return f"*{target}"
        if self._origin is None or self._destination is None:
            return target
        return f"{square_name(self._origin)}-{square_name(self._destination)}/{target}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __lt__(self, other: Move) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key < other._key

    def __le__(self, other: Move) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key <= other._key

    def __gt__(self, other: Move) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key > other._key

    def __ge__(self, other: Move) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key >= other._key

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: object) -> Move:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (str(self),))


def stone(target: int, origin: int | None = None, destination: int | None = None) -> Move:
    """``Move(target, origin, destination)`` without the checks, for the move
    generator, whose squares are valid by construction."""
    return Move._make(_STONE, target, origin, destination)


def shooter_placement(target: int) -> Move:
    """``Move.shooter(target)`` without the check, for the move generator."""
    return Move._make(_SHOOTER, target)
