"""The summary of a playout run in bounded memory: its games as counts of
their distinct per-game rows.

A game's per-game columns (winner, swapped, plies and the game's own, such
as the final claims) are a few small integers, and games share them: a run
of any length has at most a few thousand distinct rows. A :class:`Tally`
keeps each distinct row once with the number of games that had it, takes
the games range after range (:meth:`Tally.add`), and computes every figure
of the summary from the counts, equal to the figure computed from the games
themselves (:class:`~veletas.playouts.Playouts`), to the last bit.

>>> import veletas
>>> from veletas.playouts import PlayoutJob
>>> job = PlayoutJob.make(variant="small", seed=3)
>>> tally = Tally.of(job.run(0, 500))
>>> tally.add(job.run(500, 500))
>>> tally.summary() == job.run(0, 1000).summary()
True
>>> len(tally), len(tally.counts) < 1000
(1000, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from veletas import games as _games

if TYPE_CHECKING:
    from veletas.playouts import Estimate, Playouts

__all__ = ["Tally"]

_SLICE = 1 << 18
"""The games folded at once: bounds the temporary arrays of :meth:`Tally.add`
(a few MB) however many games a range holds."""

_DENSE = 1 << 16
"""The fewest keys a dense histogram may span (else at most 4 a row): rows
whose keys spread wider are sorted instead."""


class Tally:
    """The games of one run (or of consecutive ranges of it) as their
    distinct per-game rows, each with the number of games that had it.

    The rows are read as a :class:`~veletas.playouts.Playouts`' columns are
    (``winner``, ``swapped``, ``plies``, the game's own such as ``claims``),
    one entry per distinct row, with :attr:`counts` beside them; the summary
    methods are those of ``Playouts`` and give the same values.
    """

    counts: np.ndarray
    """int64: the games of each distinct row."""
    start: str
    """The position string every game started from."""
    rules: Any
    """The rules of the games."""
    policy: str
    """The policy that played them."""
    seed: int
    """The seed of the run."""
    backend: str
    """The engine that played them."""
    game: str
    """The game's name."""

    def __init__(
        self, *, start: str, rules: Any, policy: str, seed: int, backend: str, game: str
    ) -> None:
        self.start = start
        self.rules = rules
        self.policy = policy
        self.seed = seed
        self.backend = backend
        self.game = game
        self._names = ["winner", "swapped", "plies", *_games.get(game).playouts.COLUMNS]
        self._rows = np.zeros((0, self._width()), np.int64)
        self.counts = np.zeros(0, np.int64)

    @classmethod
    def of(cls, games: Playouts) -> Tally:
        """The tally of ``games`` (empty for no games)."""
        tally = cls(
            start=games.start,
            rules=games.rules,
            policy=games.policy,
            seed=games.seed,
            backend=games.backend,
            game=games.game,
        )
        tally.add(games)
        return tally

    def add(self, games: Playouts) -> None:
        """Count the games of ``games`` too (of the same run; their moves,
        if any, are not read).

        :raises ValueError: for games of another run.
        """
        mine = (self.game, self.start, self.rules, self.policy, self.seed, self.backend)
        theirs = (games.game, games.start, games.rules, games.policy, games.seed, games.backend)
        if mine != theirs:
            raise ValueError(f"cannot tally games of another run: {games!r}")
        columns = games.dataset_columns()
        kept, counts = self._rows, self.counts
        for begin in range(0, len(games), _SLICE):
            size = min(_SLICE, len(games) - begin)
            rows = np.concatenate(
                [
                    np.asarray(columns[name][begin : begin + size], np.int64).reshape(size, -1)
                    for name in self._names
                ],
                axis=1,
            )
            fresh, weights = _distinct(rows, np.ones(size, np.int64))
            kept, counts = _distinct(
                np.concatenate([kept, fresh]), np.concatenate([counts, weights])
            )
        # In one step, so that Ctrl-C leaves the tally as it was or with every game.
        self._rows, self.counts = kept, counts

    def add_tally(self, other: Tally) -> None:
        """Count the games of another tally of the same run too."""
        mine = (self.game, self.start, self.rules, self.policy, self.seed, self.backend)
        theirs = (other.game, other.start, other.rules, other.policy, other.seed, other.backend)
        if mine != theirs:
            raise ValueError("cannot add the tally of another run")
        self._rows, self.counts = _distinct(
            np.concatenate([self._rows, other._rows]), np.concatenate([self.counts, other.counts])
        )

    def _width(self) -> int:
        return 3 + 2 * (len(self._names) - 3)

    @property
    def winner(self) -> np.ndarray:
        """int8: the winner of each distinct row (see ``Playouts.winner``)."""
        return self._rows[:, 0].astype(np.int8)

    @property
    def swapped(self) -> np.ndarray:
        """bool: whether its games had the pie swap."""
        return self._rows[:, 1].astype(np.bool_)

    @property
    def plies(self) -> np.ndarray:
        """int32: the moves its games played."""
        return self._rows[:, 2].astype(np.int32)

    @property
    def columns(self) -> dict[str, np.ndarray]:
        """The game's own columns by name, int8 of shape (rows, 2) each."""
        return {
            name: self._rows[:, 3 + 2 * index : 5 + 2 * index].astype(np.int8)
            for index, name in enumerate(self._names[3:])
        }

    def __getattr__(self, name: str) -> Any:
        # The game's own columns (`claims`, `stones`) read as attributes.
        if name in self.__dict__.get("_names", ())[3:]:
            return self.columns[name]
        raise AttributeError(
            f"{type(self).__name__} of {self.__dict__.get('game')} has no {name!r}"
        )

    def __len__(self) -> int:
        return int(self.counts.sum())

    def __repr__(self) -> str:
        return f"<Tally: {len(self):,} {self.game} games in {len(self.counts):,} distinct rows>"

    @property
    def nbytes(self) -> int:
        """The bytes its arrays hold: those of its distinct rows, whatever
        the number of games."""
        return int(self._rows.nbytes + self.counts.nbytes)

    # ------------------------------------------------------------------
    # The summary, as Playouts computes it

    def count(self, mask: np.ndarray) -> int:
        """The games of the rows where ``mask`` holds."""
        return int(self.counts[mask].sum())

    def total(self, values: np.ndarray) -> int:
        """The sum over the games of an integer column's ``values`` (one per row)."""
        return int(np.dot(np.asarray(values, np.int64), self.counts))

    def mean(self, values: np.ndarray) -> float:
        """The mean over the games of an integer column (nan for no games):
        the exact sum divided once, as numpy's mean of the games gives it."""
        n = len(self)
        return self.total(values) / n if n else math.nan

    def win_rate(self, color: int) -> Estimate:
        """As :meth:`Playouts.win_rate`."""
        from veletas.playouts import wilson

        return wilson(self.count(self.winner == int(color)), len(self))

    def first_player_win_rate(self) -> Estimate:
        """As :meth:`Playouts.first_player_win_rate`."""
        from veletas.playouts import wilson

        return wilson(self.count(self.winner == self.swapped.astype(np.int8)), len(self))

    def swap_rate(self) -> Estimate:
        """As :meth:`Playouts.swap_rate`."""
        from veletas.playouts import wilson

        return wilson(self.count(self.swapped), len(self))

    def stuck(self) -> int:
        """As :meth:`Playouts.stuck`."""
        return self.count(self.winner < 0)

    def mean_plies(self) -> float:
        """As :meth:`Playouts.mean_plies`."""
        return self.mean(self.plies)

    def plies_quantiles(
        self, q: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)
    ) -> dict[float, float]:
        """As :meth:`Playouts.plies_quantiles`: numpy's default ("linear")
        quantiles of the games' plies, from the sorted counts."""
        n = len(self)
        if not n:
            return {float(p): math.nan for p in q}
        order = np.argsort(self.plies, kind="stable")
        plies = self.plies[order]
        ends = np.cumsum(self.counts[order])  # games up to and with each row, in plies order
        quantiles = np.asanyarray(q, dtype=np.float64)
        # numpy's steps for the "linear" method, on the virtual sorted games
        virtual = (n - 1) * quantiles
        previous = np.floor(virtual)
        following = previous + 1
        above = virtual >= n - 1
        previous[above] = n - 1
        following[above] = n - 1
        below = virtual < 0
        previous[below] = 0
        following[below] = 0
        gamma = virtual - np.floor(virtual)

        def sorted_at(index: np.ndarray) -> np.ndarray:
            where = np.searchsorted(ends, index.astype(np.int64), side="right")
            taken: np.ndarray = plies[where]
            return taken

        a, b = sorted_at(previous), sorted_at(following)
        difference = b - a
        result = np.add(a, difference * gamma)
        np.subtract(b, difference * (1 - gamma), out=result, where=gamma >= 0.5, casting="unsafe")
        return {float(p): float(v) for p, v in zip(q, result, strict=True)}

    def summary(self) -> dict[str, Any]:
        """The summary as plain data (what ``veletas playout --json`` prints),
        as :meth:`Playouts.summary`."""

        def estimate(e: Estimate) -> dict[str, float]:
            return {"rate": e.rate, "low": e.low, "high": e.high}

        spec = _games.get(self.game).playouts
        first, second = spec.COLORS
        return {
            "game": self.game,
            "games": len(self),
            "start": self.start,
            "rules": spec.rules_summary(self.rules),
            "policy": self.policy,
            "seed": self.seed,
            f"{first}_wins": estimate(self.win_rate(0)),
            f"{second}_wins": estimate(self.win_rate(1)),
            "first_player_wins": estimate(self.first_player_win_rate()),
            "swaps": estimate(self.swap_rate()),
            "stuck": self.stuck(),
            "plies": {
                "mean": self.mean_plies(),
                "quantiles": {str(q): v for q, v in self.plies_quantiles().items()},
            },
            **spec.columns_summary(self),
        }


def _distinct(rows: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``rows`` (int64, one a row), in ascending order, with the
    sums of their ``counts``."""
    if not len(rows):
        return rows, counts
    low = rows.min(axis=0)
    spans = [int(span) for span in rows.max(axis=0) - low + 1]
    keys_span = math.prod(spans)
    if keys_span >= 2**62:  # too wide for one key: sorted as rows
        unique, inverse = np.unique(rows, axis=0, return_inverse=True)
        sums = np.zeros(len(unique), np.int64)
        np.add.at(sums, inverse.reshape(-1), counts)
        return unique, sums
    key = np.zeros(len(rows), np.int64)
    for column, span in enumerate(spans):
        key *= span
        key += rows[:, column] - low[column]
    if keys_span <= max(_DENSE, 4 * len(rows)):
        histogram = np.bincount(key, weights=counts, minlength=keys_span)
        found = np.flatnonzero(histogram)
        sums = histogram[found].astype(np.int64)  # exact: counts stay below 2**53
    else:
        found, inverse = np.unique(key, return_inverse=True)
        sums = np.zeros(len(found), np.int64)
        np.add.at(sums, inverse, counts)
    unique = np.empty((len(found), len(spans)), np.int64)
    rest = found.astype(np.int64)
    for column in range(len(spans) - 1, -1, -1):
        rest, unique[:, column] = np.divmod(rest, spans[column])
        unique[:, column] += low[column]
    return unique, sums
