"""One signature for two functions: a function that takes another's
arguments through to it states them once, in the other's definition."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import ParamSpec, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R")


def signature_of(model: Callable[P, R]) -> Callable[[Callable[..., R]], Callable[P, R]]:
    """A decorator that gives a function taking ``**options`` the signature
    of ``model``, for type checkers, ``help()`` and the documentation alike.

    >>> def play(n: int, *, seed: int = 0) -> int:
    ...     return n + seed
    >>> @signature_of(play)
    ... def replay(n: int, **options: int) -> int:
    ...     return play(n, **options)
    >>> inspect.signature(replay)
    <Signature (n: 'int', *, seed: 'int' = 0) -> 'int'>
    """

    def apply(function: Callable[..., R]) -> Callable[P, R]:
        function.__signature__ = inspect.signature(model)  # type: ignore[attr-defined]
        return cast(Callable[P, R], function)

    return apply
