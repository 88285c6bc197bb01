"""The statistics of matches (:mod:`veletas.match`): Elo differences with
their intervals, and ratings fitted to the games of a round robin."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from veletas._checks import shown
from veletas.playouts import Estimate

if TYPE_CHECKING:
    pass

__all__ = ["Elo", "elo", "fit_ratings"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""
_ELO_PER_NAT = 400 / math.log(10)  # Elo points per unit of the logistic scale
_DIVERGED = 25.0  # a rating this far out (about 4,300 Elo): the likelihood has no maximum


# ----------------------------------------------------------------------
# Statistics


class Elo(NamedTuple):
    """An Elo difference with its 95% interval (infinite after a clean sweep)."""

    difference: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{_signed(self.difference)} [{_signed(self.low)}, {_signed(self.high)}]"


def elo(rate: float) -> float:
    """The Elo difference at which the stronger side scores ``rate``:
    ``400 * log10(rate / (1 - rate))``.

    >>> round(elo(0.75), 1), elo(0.5), elo(1.0)
    (190.8, 0.0, inf)
    """
    if math.isnan(rate):
        return math.nan
    if rate <= 0:
        return -math.inf
    if rate >= 1:
        return math.inf
    return 400 * math.log10(rate / (1 - rate))


def fit_ratings(
    points: Any, games: Any, *, anchor: int = 0, prior: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """The Bradley-Terry (Elo) ratings of players from their results, and
    their standard errors, in Elo points.

    ``points[i][j]`` is what player ``i`` scored against ``j`` (a win 1, a
    game without a winner 1/2) in ``games[i][j]`` games. The model: ``i``
    scores against ``j`` with the chance ``1 / (1 + 10 ** ((r_j - r_i) /
    400))``. The ratings maximise the likelihood with ``r[anchor] = 0``;
    ``prior`` adds that many drawn games between every pair (so that a player
    who won or lost every game still gets a finite rating). The standard
    errors come from the curvature of the likelihood at its maximum, relative
    to the anchor (whose own is 0).

    >>> ratings, errors = fit_ratings([[0, 3], [1, 0]], [[0, 4], [4, 0]], prior=0)
    >>> ratings.round(1).tolist()   # 3 of 4: 400 log10(3)
    [0.0, -190.8]

    :raises ValueError: for matrices that are not square and of one shape,
        or when no finite ratings fit (a player won or lost every game and
        ``prior`` is 0).
    """
    won = np.asarray(points, dtype=float)
    played = np.asarray(games, dtype=float)
    m = len(won)
    if won.shape != (m, m) or played.shape != (m, m):
        raise ValueError("points and games must be square matrices of one shape")
    if not 0 <= anchor < m:
        raise ValueError(f"anchor must be a player, 0 to {m - 1}, not {shown(anchor)}")
    pairs = 1 - np.eye(m)
    won = won * pairs + prior / 2 * pairs
    played = played * pairs + prior * pairs
    free = [k for k in range(m) if k != anchor]
    theta = np.zeros(m)
    if not free:
        return theta, theta.copy()
    for _ in range(200):
        chance = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
        gradient = (won - played * chance).sum(axis=1)
        weight = played * chance * (1 - chance)
        curvature = np.diag(weight.sum(axis=1)) - weight  # minus the Hessian
        step = np.linalg.lstsq(curvature[np.ix_(free, free)], gradient[free], rcond=None)[0]
        # Newton's steps, kept short far from the maximum.
        step = np.clip(step, -2.0, 2.0)
        theta[free] += step
        if np.max(np.abs(step)) < 1e-10 and np.max(np.abs(theta)) < _DIVERGED:
            break
    else:
        raise ValueError(
            "no finite ratings fit these results (a player won or lost every game): give prior > 0"
        )
    covariance = np.linalg.pinv(curvature[np.ix_(free, free)])
    errors = np.zeros(m)
    errors[free] = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    return theta * _ELO_PER_NAT, errors * _ELO_PER_NAT


def _signed(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def _finite(value: float) -> float | None:
    """``value``, or None where JSON has no number for it."""
    return value if math.isfinite(value) else None


def _estimate(e: Estimate) -> dict[str, float | None]:
    return {"rate": _finite(e.rate), "low": e.low, "high": e.high}


def _percent(e: Estimate) -> str:
    if math.isnan(e.rate):
        return "-"
    return f"{e.rate:7.2%}  (95% CI {e.low:.2%} .. {e.high:.2%})"
