"""Plain types of Meridians that both engines share: colours, phases, sizes and points.

A point is a plain int, ``rank * 14 + file`` with ``a1 = 0``, on every board
size, so a point keeps its number whatever the size:

>>> point(3, 0), point_name(14), parse_point("f7")
(3, 'a2', 89)
>>> check_size("6-7"), str(Color.LIGHT), str(Phase.PLAY)
('6-7', 'light', 'play')
"""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import NamedTuple

from veletas._checks import shown
from veletas.errors import InvalidMoveError, InvalidRulesError

__all__ = [
    "SIZES",
    "Color",
    "Outcome",
    "Phase",
    "Rules",
    "Stones",
    "check_pie",
    "check_size",
    "parse_point",
    "point",
    "point_name",
]


class Color(enum.IntEnum):
    """A side of the game. ``int(color)`` is 0 for Light (stones ``x``, first to
    move) and 1 for Dark (stones ``o``).

    >>> Color.LIGHT.other, str(Color.DARK)
    (<Color.DARK: 1>, 'dark')
    """

    LIGHT = 0
    DARK = 1

    @property
    def other(self) -> Color:
        """The opposing colour."""
        return Color(1 - self)

    def __str__(self) -> str:
        return self.name.lower()


class Phase(str, enum.Enum):
    """The phase field of a position string (MERIDIANS.md section 6)."""

    OPEN = "open"
    """The first two turns of each colour."""
    PIE = "pie"
    """Dark's decision to ``swap`` or ``keep`` under the pie rule."""
    PLAY = "play"
    """From the fifth placement on: placements by sight, with removals."""

    def __str__(self) -> str:
        return self.value


class Stones(NamedTuple):
    """The stones of each colour on the board; ``stones[Color.DARK]`` works too."""

    light: int
    dark: int


class Outcome(NamedTuple):
    """How a finished game ended."""

    winner: Color
    """The colour that won: there are no draws."""
    stones: Stones
    """The stones left on the board."""


SIZES = ("5-6", "6-7", "7-8")
"""The board sizes "A-B": two opposite sides of A points, the four others of B."""

_FILE_NAMES = "abcdefghijklmn"
_POINT_RE = re.compile(r"([a-n])(1[0-4]|[1-9])")


def check_size(size: object) -> str:
    """``size`` if it is one of :data:`SIZES`.

    >>> check_size("8-9")
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidRulesError: unknown size '8-9'; expected one of '5-6', '6-7', '7-8'

    :raises InvalidRulesError: for any other value, of any type.
    """
    if isinstance(size, str):
        for known in SIZES:
            if size == known:
                return known
    raise InvalidRulesError(f"unknown size {size!r}; expected one of '5-6', '6-7', '7-8'")


def check_pie(pie: object) -> bool:
    """``pie`` if it is ``True`` or ``False``.

    >>> check_pie(1)
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidRulesError: pie must be a bool, not 1

    :raises InvalidRulesError: for any other value, 0 and 1 included.
    """
    if pie is True or pie is False:
        return pie
    raise InvalidRulesError(f"pie must be a bool, not {pie!r}")


def point(file: int, rank: int) -> int:
    """The number of the point at ``file`` (0 = ``a``) and ``rank`` (0 = ``1``).

    Any point of the 14 x 14 grid has a number, whether or not a board of a
    given size contains it.

    :raises ValueError: if ``file`` or ``rank`` is outside 0..13.
    """
    if not (0 <= file < 14 and 0 <= rank < 14):
        raise ValueError(f"file {shown(file)} and rank {shown(rank)} must both be in 0..13")
    return rank * 14 + file


def point_name(p: int) -> str:
    """The name of the point numbered ``p``, such as ``"f7"``.

    :raises ValueError: if ``p`` is outside 0..195.
    """
    if not 0 <= p < 196:
        raise ValueError(f"point number {shown(p)} is not in 0..195")
    return f"{_FILE_NAMES[p % 14]}{p // 14 + 1}"


def parse_point(name: str) -> int:
    """The number of the point called ``name`` (``a1`` .. ``n14``).

    >>> parse_point("a15")
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidMoveError: invalid point 'a15': expected a file a-n and a rank 1-14

    :raises TypeError: if ``name`` is not a str.
    :raises InvalidMoveError: if ``name`` is not a point name.
    """
    if not isinstance(name, str):
        raise TypeError(f"a point is read from a str, not {type(name).__name__}")
    match = _POINT_RE.fullmatch(name)
    if match is None:
        raise InvalidMoveError(f"invalid point {name!r}: expected a file a-n and a rank 1-14")
    return point(_FILE_NAMES.index(match[1]), int(match[2]) - 1)


@dataclasses.dataclass(frozen=True)
class Rules:
    """The rules a Meridians game is played under: the board size and the pie
    option.

    >>> Rules("5-6", pie=True)
    Rules(size='5-6', pie=True)
    >>> Rules.make("9-10")
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidRulesError: unknown size '9-10'; expected one of '5-6', '6-7', '7-8'
    """

    size: str = "6-7"
    pie: bool = False

    @classmethod
    def make(cls, size: object = "6-7", pie: object = False) -> Rules:
        """Checked rules (:func:`check_size`, :func:`check_pie`).

        :raises InvalidRulesError: naming the bad value.
        """
        return cls(check_size(size), check_pie(pie))

    @property
    def variant(self) -> str:
        """The size, which names a Meridians board as a variant names a Veletas one."""
        return self.size
