"""Checks of arguments that are not rules (counts, integers), shared by the
playouts of every game and their distributed runs."""

from __future__ import annotations

import math
import re

import numpy as np

__all__ = ["ascii_float", "ascii_int", "count", "integer", "plain_float", "plain_int", "shown"]

_PLAIN_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_PLAIN_INT = re.compile(r"[+-]?[0-9]+")


# An int of more digits than this is shown by its length: Python refuses to
# print an int of more than 4,300 digits, and a message need not show them.
_SHOWN_BITS = 128


def shown(value: object) -> str:
    """``repr(value)`` for a message that names a bad value, or for an int
    too long to print whole, its sign and number of digits.

    >>> shown(12), shown("x"), shown(-(10**5000))
    ('12', "'x'", 'minus an int of 5,001 digits')
    """
    if isinstance(value, int) and value.bit_length() > _SHOWN_BITS:
        size = abs(value)
        # The digits of 2 ** (bits - 1), then one more if the value reaches
        # the next power of ten.
        digits = math.floor((size.bit_length() - 1) * math.log10(2)) + 1
        digits += size >= 10**digits
        sign = "minus " if value < 0 else ""
        return f"{sign}an int of {digits:,} digits"
    return repr(value)


def ascii_int(text: str) -> int:
    """``int(text)`` for a number written in ASCII: Python's ``int()`` also
    reads the digits of other scripts, which no text veletas reads allows.

    >>> ascii_int("42"), ascii_int("1_000"), int(chr(0x663))
    (42, 1000, 3)
    >>> ascii_int(chr(0x663))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: invalid literal for int() with base 10: ...: digits 0-9 only

    :raises ValueError: naming the text, as ``int()`` does.
    """
    if not text.isascii():
        raise ValueError(f"invalid literal for int() with base 10: {text!r}: digits 0-9 only")
    return int(text)


def ascii_float(text: str) -> float:
    """``float(text)`` for a number written in ASCII (see :func:`ascii_int`).

    :raises ValueError: naming the text, as ``float()`` does.
    """
    if not text.isascii():
        raise ValueError(f"could not convert string to float: {text!r}: digits 0-9 only")
    return float(text)


def plain_float(text: str) -> float:
    """A number written as JSON and forms write one: digits, a point and an
    exponent; Python's ``float()`` also reads ``1_0``, ``inf`` and ``nan``,
    which no request means.

    >>> plain_float("0.25"), plain_float("1e-3")
    (0.25, 0.001)
    >>> plain_float("1_0")
    Traceback (most recent call last):
    ...
    ValueError: could not convert string to float: '1_0': a plain decimal number only

    :raises ValueError: naming the text, as ``float()`` does.
    """
    if _PLAIN_FLOAT.fullmatch(text) is None:
        raise ValueError(
            f"could not convert string to float: {text!r}: a plain decimal number only"
        )
    return float(text)


def plain_int(text: str) -> int:
    """A whole number written with the digits 0-9 alone (see :func:`plain_float`).

    :raises ValueError: naming the text, as ``int()`` does.
    """
    if _PLAIN_INT.fullmatch(text) is None:
        raise ValueError(f"invalid literal for int() with base 10: {text!r}: digits 0-9 only")
    return int(text)


def integer(name: str, value: object) -> int:
    """``value`` as an int; numpy integers are accepted, bools are not.

    :raises TypeError: naming the argument and the value.
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an int, not {shown(value)}")
    return int(value)


def count(n_games: object) -> int:
    """A number of games: an int of 0 or more.

    :raises TypeError: if it is not an int.
    :raises ValueError: if it is negative.
    """
    n = integer("n_games", n_games)
    if n < 0:
        raise ValueError(f"n_games must be 0 or more, not {shown(n)}")
    return n
