"""The exceptions veletas raises, defined once and shared by both backends.

All of them are :class:`ValueError` subclasses, so ``except ValueError`` keeps
working for callers that do not care which input was wrong.
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRulesError",
    "VeletasError",
]


class VeletasError(ValueError):
    """Base class of every error veletas raises for bad input."""


class InvalidMoveError(VeletasError):
    """Text that is not a move (or a square) in the notation of the rules."""


class IllegalMoveError(VeletasError):
    """A well-formed move that is not legal in the position."""


class InvalidFenError(VeletasError):
    """A position string that is refused; the message names the field and the reason."""


class InvalidRulesError(VeletasError):
    """A bad variant, board size, shooter count or rule option."""
