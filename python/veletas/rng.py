"""The random stream of playouts: SplitMix64, one stream per game.

This is the definition of ``docs/playouts.md``, followed bit for bit by the
Rust runner, so that both backends play the same games for the same seed.

>>> rng = Rng.for_game(seed=7, index=3)
>>> 0 <= rng.below(10) < 10
True
"""

from __future__ import annotations

__all__ = ["Rng"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    """The SplitMix64 finaliser."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """A SplitMix64 generator."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def for_game(cls, seed: int, index: int) -> Rng:
        """The stream of game ``index`` in a run with ``seed``."""
        return cls(_mix(seed ^ _mix((index + _GOLDEN) & _MASK)))

    def next_u64(self) -> int:
        """The next 64 random bits."""
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, exactly (Lemire's method with rejection)."""
        if n <= 0:
            raise ValueError(f"below({n!r}) has no value to return")
        product = self.next_u64() * n
        low = product & _MASK
        if low < n:
            threshold = (-n & _MASK) % n
            while low < threshold:
                product = self.next_u64() * n
                low = product & _MASK
        return product >> 64
