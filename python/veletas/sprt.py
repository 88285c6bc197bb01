"""A sequential probability ratio test on the pairs of a match, as engine
testing frameworks run it: ``veletas match --sprt ELO0,ELO1``.

The games come in pairs (games ``2k`` and ``2k + 1``: the same opening, the
seats swapped), and a pair scores 0, 0.5, 1, 1.5 or 2 points for A: five
outcomes, the *pentanomial* counts. The test weighs H0 (A is ``elo0``
stronger than B) against H1 (``elo1`` stronger) with the generalised SPRT's
log-likelihood ratio of the mean pair score (Van den Bergh's normal
approximation, for logistic Elo):

    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

where ``N`` is the pairs played, ``m`` and ``v`` the mean and variance of a
pair's score as a share (0 .. 1), and ``s0``, ``s1`` the shares that
``elo0`` and ``elo1`` give. Half a pair is added to each of the five
outcomes when ``m`` and ``v`` are estimated, so that a few equal pairs are
not taken for certainty. The test stops when the LLR leaves
``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: below, H0 is
accepted; above, H1.

>>> test = Sprt(0, 10)
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> test.llr([0, 0, 10, 0, 0]) < 0 < test.llr([0, 0, 10, 20, 10])
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

__all__ = ["PRIOR", "Sprt", "SprtResult", "parse_sprt", "share"]

PRIOR = 0.5
"""The pairs added to each of the five outcomes when the mean and the
variance of a pair's score are estimated."""


def share(elo: float) -> float:
    """The expected share of the points of a player ``elo`` stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclasses.dataclass(frozen=True)
class Sprt:
    """The test of H0: A is ``elo0`` stronger, against H1: ``elo1`` stronger,
    with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"{name} must be a number, not {type(value).__name__}")
            if not math.isfinite(value) or abs(value) > 1000:
                raise ValueError(f"{name} must be an Elo difference within ±1000, not {value!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1, not {self.elo0:g} and {self.elo1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be above 0 and below 0.5, not {value!r}")

    @property
    def lower(self) -> float:
        """Below it, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Above it, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of the pairs counted in ``pentanomial``
        (the pairs that scored 0, 0.5, 1, 1.5 and 2 points for A)."""
        if len(pentanomial) != 5:
            raise ValueError(f"a pentanomial has 5 counts, not {len(pentanomial)}")
        pairs = sum(pentanomial)
        if pairs == 0:
            return 0.0
        weights = [count + PRIOR for count in pentanomial]
        total = sum(weights)
        scores = [i / 4 for i in range(5)]
        mean = sum(w * x for w, x in zip(weights, scores, strict=True)) / total
        variance = sum(w * (x - mean) ** 2 for w, x in zip(weights, scores, strict=True)) / total
        s0, s1 = share(self.elo0), share(self.elo1)
        return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def decision(self, llr: float) -> str | None:
        """``"H1"``, ``"H0"`` or None (go on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


@dataclasses.dataclass(frozen=True)
class SprtResult:
    """Where a match's test stands."""

    test: Sprt
    pentanomial: tuple[int, ...]
    """The pairs that scored 0, 0.5, 1, 1.5 and 2 points for A."""
    llr: float
    decision: str | None
    """``"H1"`` (A is ``elo1`` stronger), ``"H0"`` (``elo0``), or None: the
    games ran out (or Ctrl-C) first."""

    def text(self) -> str:
        """One line for the summary."""
        test = self.test
        verdict = {
            "H1": f"H1 accepted: A is {test.elo1:+g} Elo or more",
            "H0": f"H0 accepted: A is {test.elo0:+g} Elo or less",
            None: "no decision yet",
        }[self.decision]
        return (
            f"LLR {self.llr:.2f} (bounds {test.lower:.2f}, {test.upper:.2f}; "
            f"elo0 {test.elo0:g}, elo1 {test.elo1:g}, alpha {test.alpha:g}, beta "
            f"{test.beta:g}) after {sum(self.pentanomial):,} pairs "
            f"{list(self.pentanomial)}: {verdict}"
        )

    def summary(self) -> dict[str, Any]:
        """The test as plain data."""
        return {
            "elo0": self.test.elo0,
            "elo1": self.test.elo1,
            "alpha": self.test.alpha,
            "beta": self.test.beta,
            "lower": self.test.lower,
            "upper": self.test.upper,
            "llr": self.llr,
            "pentanomial": list(self.pentanomial),
            "pairs": sum(self.pentanomial),
            "decision": self.decision,
        }


def parse_sprt(text: str) -> Sprt:
    """``ELO0,ELO1`` as a test (alpha = beta = 0.05).

    :raises ValueError: naming what is wrong.
    """
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"expected ELO0,ELO1 (say 0,10), not {text!r}")
    try:
        elo0, elo1 = (float(part) for part in parts)
    except ValueError:
        raise ValueError(f"expected two numbers ELO0,ELO1 (say 0,10), not {text!r}") from None
    return Sprt(elo0, elo1)
