"""Checks of arguments that are not rules (counts, integers), shared by the
playouts of every game and their distributed runs."""

from __future__ import annotations

import numpy as np

__all__ = ["count", "integer"]


def integer(name: str, value: object) -> int:
    """``value`` as an int; numpy integers are accepted, bools are not.

    :raises TypeError: naming the argument and the value.
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an int, not {value!r}")
    return int(value)


def count(n_games: object) -> int:
    """A number of games: an int of 0 or more.

    :raises TypeError: if it is not an int.
    :raises ValueError: if it is negative.
    """
    n = integer("n_games", n_games)
    if n < 0:
        raise ValueError(f"n_games must be 0 or more, not {n!r}")
    return n
