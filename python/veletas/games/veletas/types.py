"""Plain types that both backends share: colours, phases, pieces, squares and rules.

Squares are plain ints, ``rank * 10 + file`` with ``a1 = 0``, on every board
size, so a square keeps its number whatever the game:

>>> from veletas import E5, square_name, parse_square
>>> E5, square_name(E5), parse_square("j10")
(44, 'e5', 99)
"""

from __future__ import annotations

import dataclasses
import enum
import re
from typing import NamedTuple

from veletas._checks import shown
from veletas.errors import InvalidMoveError, InvalidRulesError

__all__ = [
    "FILE_NAMES",
    "SETUP_RULES",
    "SQUARES",
    "SQUARE_NAMES",
    "VARIANTS",
    "Claims",
    "Color",
    "Outcome",
    "Phase",
    "Piece",
    "Rules",
    "parse_square",
    "square",
    "square_file",
    "square_name",
    "square_rank",
]


class Color(enum.IntEnum):
    """A side of the game. ``int(color)`` is 0 for Black and 1 for White."""

    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Color:
        """The opposing colour."""
        return Color(1 - self)

    def __str__(self) -> str:
        return self.name.lower()


class Phase(str, enum.Enum):
    """The phase field of a position string."""

    SETUP = "setup"
    """Placing shooters, then a stone."""
    PIE = "pie"
    """Black's setup is complete; White may ``swap`` or start placing."""
    PLAY = "play"
    """Turns of an optional shooter move and a mandatory shot."""

    def __str__(self) -> str:
        return self.value


class Piece(str, enum.Enum):
    """What can stand on a square. The value is the letter of the position string."""

    BLACK_STONE = "x"
    WHITE_STONE = "o"
    SHOOTER = "s"
    """An unclaimed shooter."""
    BLACK_CLAIMED = "X"
    """A shooter claimed by Black: it never moves or shoots again."""
    WHITE_CLAIMED = "O"
    """A shooter claimed by White."""

    def __str__(self) -> str:
        return self.value


class Claims(NamedTuple):
    """Claimed shooters per colour; ``claims[Color.WHITE]`` works too."""

    black: int
    white: int


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: Color | None
    """The colour holding a majority of claims; ``None`` only for a hand-made
    position in which the player to move has no legal move and nobody has won."""
    claims: Claims
    """The final claim counts."""


VARIANTS: dict[str, tuple[int, int]] = {
    "standard": (10, 7),
    "medium": (9, 5),
    "small": (7, 3),
}
"""The named variants: board size N and shooter count K."""

SETUP_RULES = ("perimeter", "spacing")
"""The setup restrictions for shooters (RULES.md section 3)."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """The rules of one game: board size, shooter count and the rule options.

    Build it with :meth:`Rules.make`, which validates:

    >>> Rules.make("small")  # doctest: +NORMALIZE_WHITESPACE
    Rules(size=7, shooters=3, setup_rule='perimeter', shooters_block=False,
          claimed_shooters_block=False)
    >>> Rules.make(size=5, shooters=9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidRulesError: 9 shooters do not fit a 5x5 board under 'perimeter': ...
    """

    size: int
    shooters: int
    setup_rule: str = "perimeter"
    shooters_block: bool = False
    claimed_shooters_block: bool = False
    """Boardspace's rules (RULES.md section 4): claimed shooters end lines,
    and claims are checked again until none changes."""

    @classmethod
    def make(
        cls,
        variant: str = "standard",
        *,
        size: int | None = None,
        shooters: int | None = None,
        setup_rule: str = "perimeter",
        shooters_block: bool = False,
        claimed_shooters_block: bool = False,
    ) -> Rules:
        """The rules of ``variant``, with ``size`` and ``shooters`` overriding it.

        :raises InvalidRulesError: for an unknown variant or setup rule, or a
            size or shooter count outside the limits of RULES.md section 1.
        """
        if not isinstance(variant, str) or variant not in VARIANTS:
            known = ", ".join(repr(name) for name in VARIANTS)
            raise InvalidRulesError(f"unknown variant {variant!r}; expected one of {known}")
        default_size, default_shooters = VARIANTS[variant]
        rules = cls(
            default_size if size is None else size,
            default_shooters if shooters is None else shooters,
            setup_rule,
            shooters_block,
            claimed_shooters_block,
        )
        rules.validate()
        return rules

    def validate(self) -> None:
        """Check the limits of RULES.md section 1.

        :raises InvalidRulesError: naming the bad value and the limit it breaks.
        """
        if self.setup_rule not in SETUP_RULES:
            raise InvalidRulesError(
                f"unknown setup rule {self.setup_rule!r}; expected 'perimeter' or 'spacing'"
            )
        if not isinstance(self.shooters_block, bool):
            raise InvalidRulesError(f"shooters_block must be a bool, not {self.shooters_block!r}")
        check_claimed_shooters_block(self.claimed_shooters_block)
        for name, value in (("size", self.size), ("shooters", self.shooters)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidRulesError(f"{name} must be an int, not {shown(value)}")
        problem = shooter_count_problem(self.size, self.shooters, self.setup_rule)
        if problem:
            raise InvalidRulesError(problem)

    @property
    def variant(self) -> str:
        """The variant name of (size, shooters), or ``"custom"``."""
        for name, shape in VARIANTS.items():
            if shape == (self.size, self.shooters):
                return name
        return "custom"

    @property
    def claims_to_win(self) -> int:
        """K // 2 + 1: the claims that win at once."""
        return self.shooters // 2 + 1

    @property
    def first_shooters(self) -> int:
        """K // 2: the shooters the first player places as Black."""
        return self.shooters // 2

    @property
    def second_shooters(self) -> int:
        """K - K // 2: the shooters White places."""
        return self.shooters - self.shooters // 2


def shooter_count_problem(size: int, shooters: int, setup_rule: str) -> str | None:
    """Why (size, shooters) is refused under ``setup_rule``, or None when it is fine."""
    if not 5 <= size <= 10:
        return f"board size {shown(size)} is out of range: 5 <= N <= 10"
    if shooters < 3 or shooters % 2 == 0:
        return f"shooter count {shown(shooters)} must be odd and at least 3"
    if setup_rule == "perimeter" and shooters + 1 > (size - 2) ** 2:
        return (
            f"{shooters} shooters do not fit a {size}x{size} board under 'perimeter': "
            f"K + 1 <= (N - 2)^2 = {(size - 2) ** 2} is required"
        )
    if setup_rule == "spacing" and 9 * (shooters - 1) + 2 > size * size:
        return (
            f"{shooters} shooters do not fit a {size}x{size} board under 'spacing': "
            f"9 * (K - 1) + 2 <= N^2 = {size * size} is required"
        )
    return None


FILE_NAMES = "abcdefghij"
"""File letters, left to right."""

_SQUARE_RE = re.compile(r"([a-j])(10|[1-9])")


def square(file: int, rank: int) -> int:
    """The square at ``file`` (0 = ``a``) and ``rank`` (0 = ``1``)."""
    if not (0 <= file < 10 and 0 <= rank < 10):
        raise ValueError(f"file {shown(file)} and rank {shown(rank)} must both be in 0..9")
    return rank * 10 + file


def square_file(sq: int) -> int:
    """The file of ``sq``: 0 for ``a``."""
    return sq % 10


def square_rank(sq: int) -> int:
    """The rank of ``sq``: 0 for ``1``."""
    return sq // 10


def square_name(sq: int) -> str:
    """The name of ``sq``, such as ``"e5"``."""
    if not 0 <= sq < 100:
        raise ValueError(f"square {shown(sq)} is not in 0..99")
    return f"{FILE_NAMES[sq % 10]}{sq // 10 + 1}"


def parse_square(name: str) -> int:
    """The square called ``name`` (``a1`` .. ``j10``).

    :raises InvalidMoveError: if ``name`` is not a square name.
    """
    match = _SQUARE_RE.fullmatch(name) if isinstance(name, str) else None
    if match is None:
        raise InvalidMoveError(f"invalid square {name!r}: expected a file a-j and a rank 1-10")
    return square(FILE_NAMES.index(match[1]), int(match[2]) - 1)


# fmt: off
SQUARES = [
    A1, B1, C1, D1, E1, F1, G1, H1, I1, J1,
    A2, B2, C2, D2, E2, F2, G2, H2, I2, J2,
    A3, B3, C3, D3, E3, F3, G3, H3, I3, J3,
    A4, B4, C4, D4, E4, F4, G4, H4, I4, J4,
    A5, B5, C5, D5, E5, F5, G5, H5, I5, J5,
    A6, B6, C6, D6, E6, F6, G6, H6, I6, J6,
    A7, B7, C7, D7, E7, F7, G7, H7, I7, J7,
    A8, B8, C8, D8, E8, F8, G8, H8, I8, J8,
    A9, B9, C9, D9, E9, F9, G9, H9, I9, J9,
    A10, B10, C10, D10, E10, F10, G10, H10, I10, J10,
] = range(100)
# fmt: on
SQUARE_NAMES = [square_name(sq) for sq in SQUARES]

__all__ += [name.upper() for name in SQUARE_NAMES]


def check_claimed_shooters_block(value: object) -> None:
    """Refuse a ``claimed_shooters_block`` option that is not a bool.

    :raises InvalidRulesError: naming the value.
    """
    if not isinstance(value, bool):
        raise InvalidRulesError(f"claimed_shooters_block must be a bool, not {value!r}")


def check_board_options(
    variant: object,
    setup_rule: object,
    shooters_block: object,
    size: object,
    shooters: object,
    claimed_shooters_block: object = False,
) -> None:
    """Check the keyword options given beside a position string to a
    ``Board`` of either engine (the one check of them, which the native
    binding calls too).

    :raises InvalidRulesError: for an unknown variant or setup rule, a
        non-bool ``shooters_block`` or ``claimed_shooters_block``, or a
        non-int size or shooter count.
    """
    if not isinstance(variant, str) or variant not in VARIANTS:
        known = ", ".join(repr(name) for name in VARIANTS)
        raise InvalidRulesError(f"unknown variant {variant!r}; expected one of {known}")
    if setup_rule not in SETUP_RULES:
        raise InvalidRulesError(
            f"unknown setup rule {setup_rule!r}; expected 'perimeter' or 'spacing'"
        )
    if not isinstance(shooters_block, bool):
        raise InvalidRulesError(f"shooters_block must be a bool, not {shooters_block!r}")
    check_claimed_shooters_block(claimed_shooters_block)
    for name, value in (("size", size), ("shooters", shooters)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidRulesError(f"{name} must be an int, not {shown(value)}")


def check_fen_agreement(
    fen: str, fen_size: int, fen_shooters: int, variant: str, size: object, shooters: object
) -> None:
    """Refuse ``size``, ``shooters`` or a non-default ``variant`` that
    contradict the N and K a position string gives (the one check of them,
    for both engines).

    >>> check_fen_agreement("5/5/5/5/5 b setup 3", 5, 3, "small", None, None)
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidRulesError: variant 'small' disagrees with the fen ... (N = 5, K = 3)

    :raises InvalidRulesError: naming the option, its value and the fen.
    """
    if size is not None and size != fen_size:
        raise InvalidRulesError(
            f"size {shown(size)} disagrees with the {fen_size}x{fen_size} fen {fen!r}"
        )
    if shooters is not None and shooters != fen_shooters:
        raise InvalidRulesError(
            f"shooters {shown(shooters)} disagrees with K = {fen_shooters} of the fen {fen!r}"
        )
    if variant != "standard" and VARIANTS[variant] != (fen_size, fen_shooters):
        raise InvalidRulesError(
            f"variant {variant!r} disagrees with the fen {fen!r} "
            f"(N = {fen_size}, K = {fen_shooters})"
        )
