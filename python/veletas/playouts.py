"""Batch random playouts: many games from one position, as numpy arrays.

:func:`playouts` plays ``n_games`` random games on every core and returns a
:class:`Playouts`: one entry per game, with summary helpers.

>>> import veletas
>>> games = veletas.playouts(1000, variant="small", seed=7)
>>> len(games), games.winner.dtype, games.claims.shape
(1000, dtype('int8'), (1000, 2))
>>> games.win_rate(veletas.BLACK).rate + games.win_rate(veletas.WHITE).rate
1.0
>>> again = veletas.playouts(1000, variant="small", seed=7, threads=1)
>>> again.plies.tolist() == games.plies.tolist()
True

Game ``i`` of a run draws only from its own random stream, derived from
``(seed, i)``: the same seed gives the same games on any number of threads,
and any range of game indices can be played on its own (:class:`PlayoutJob`)
and put back together (:meth:`Playouts.concatenate`). ``docs/playouts.md``
defines the stream, the order of choices and the record format.
"""

from __future__ import annotations

import functools
import math
import operator
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from veletas import _dataset_write
from veletas import games as registry
from veletas._checks import integer, shown
from veletas._implementation import IMPLEMENTATION
from veletas.limits import check_games, check_threads

if TYPE_CHECKING:
    from veletas.records import GameRecord

__all__ = [
    "Estimate",
    "PlayoutJob",
    "Playouts",
    "Statistics",
    "Tally",
    "check_run",
    "wilson",
]

_DEFAULT_GAME_NAMES = ("KIND_SHOOTER", "KIND_STONE", "KIND_SWAP", "MOVE_DTYPE", "POLICIES")
"""Names this module has always given: the default game's (its room's
``playouts``), with its ``playouts`` function."""


def __getattr__(name: str) -> Any:
    if name in _DEFAULT_GAME_NAMES or name == "playouts":
        return getattr(registry.get(registry.DEFAULT).playouts, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_BACKENDS = ("rust", "python")
_LAST_GAME = 2**64
_Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


class Estimate(NamedTuple):
    """A proportion with its Wilson score 95% interval."""

    rate: float
    """The observed proportion (nan for no games)."""
    low: float
    """The lower end of the interval."""
    high: float
    """The upper end of the interval."""

    def __str__(self) -> str:
        return f"{self.rate:.4f} [{self.low:.4f}, {self.high:.4f}]"


def wilson(successes: float, trials: int) -> Estimate:
    """The proportion ``successes / trials`` with its Wilson score 95% interval
    (``successes`` may count halves, for games without a winner).

    >>> wilson(50, 100)
    Estimate(rate=0.5, low=0.403831..., high=0.596168...)
    >>> wilson(0, 0)
    Estimate(rate=nan, low=0.0, high=1.0)
    """
    if trials == 0:
        return Estimate(math.nan, 0.0, 1.0)
    p = successes / trials
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes == 0 else centre - half
    high = 1.0 if successes == trials else centre + half
    return Estimate(p, low, high)


class Statistics:
    """The statistics of a run's games that both :class:`Playouts` (the
    games themselves) and :class:`Tally` (their distinct rows, counted)
    answer alike: each says how many games a mask of its rows holds and what
    the mean of a column over the games is."""

    if TYPE_CHECKING:
        # The per-game columns, one entry a row (a game, or a distinct row).
        @property
        def winner(self) -> np.ndarray: ...
        @property
        def swapped(self) -> np.ndarray: ...
        @property
        def plies(self) -> np.ndarray: ...

    def __len__(self) -> int:
        raise NotImplementedError

    def count(self, mask: np.ndarray) -> int:
        """The games of the rows where ``mask`` holds."""
        raise NotImplementedError

    def mean(self, values: np.ndarray) -> float:
        """The mean over the games of a column's ``values`` (nan for no games)."""
        raise NotImplementedError

    def win_rate(self, color: int) -> Estimate:
        """The share of games that ``color`` (0 or 1) won, with its 95% interval.

        A game without a winner (stuck) counts as won by neither colour.
        """
        return wilson(self.count(self.winner == int(color)), len(self))

    def first_player_win_rate(self) -> Estimate:
        """The share of games won by the first player (who holds colour 0, or
        colour 1 after a swap), with its 95% interval."""
        return wilson(self.count(self.winner == self.swapped.astype(np.int8)), len(self))

    def swap_rate(self) -> Estimate:
        """The share of games with the pie swap, with its 95% interval."""
        return wilson(self.count(self.swapped), len(self))

    def stuck(self) -> int:
        """The number of games that ended without a winner."""
        return self.count(self.winner < 0)

    def mean_plies(self) -> float:
        """The mean number of moves a game (nan for no games)."""
        return self.mean(self.plies)


class Playouts(Statistics):
    """The games of a playout run, one numpy entry per game in game-index order.

    One class serves every game. Beyond ``winner``, ``swapped`` and ``plies``,
    each game has its own columns, read as attributes: ``claims`` for
    Veletas, ``stones`` for Meridians (:attr:`columns`); the rows of
    :attr:`moves` are the game's record format.

    >>> import veletas
    >>> games = veletas.playouts(200, variant="small", record=True)
    >>> board = games.board(0)  # game 0 replayed
    >>> board.is_game_over(), board.winner == games.winner[0].item()
    (True, True)
    >>> len(board.move_stack) == games.plies[0].item()
    True
    """

    winner: np.ndarray
    """int8: the colour that won, 0 for the colour that moves first (Black in
    Veletas, Light in Meridians) and 1 for the other; -1 when the player to
    act had no legal move (only from hand-made Veletas positions)."""
    swapped: np.ndarray
    """bool: whether the pie swap was played (before or during the playout)."""
    plies: np.ndarray
    """int32: the moves played in the playout (not the decisions, not the
    start position's history). A swap is a move."""
    columns: dict[str, np.ndarray]
    """The game's own columns by name: ``claims`` (Veletas: int8, shape (n,
    2), the final claims of Black and of White) or ``stones`` (Meridians:
    int8, shape (n, 2), Light's and Dark's stones at the end)."""
    moves: np.ndarray | None
    """With ``record=True``: every game's moves, one game after the other, in
    the game's record format (Veletas: :data:`MOVE_DTYPE`; Meridians: int16
    point numbers, -1 for swap, -2 for keep); otherwise None."""
    offsets: np.ndarray | None
    """With ``record=True``: int64, n + 1 entries; game ``i``'s moves are
    ``moves[offsets[i]:offsets[i + 1]]``. Otherwise None."""
    start: str
    """The position string every game started from."""
    rules: Any
    """The rules of the games (the game's ``Rules``)."""
    policy: str
    """The policy that played them."""
    seed: int
    """The seed of the run."""
    first_game: int
    """The index of the first game in the run (0 unless a range was played)."""
    backend: str
    """``"rust"`` or ``"python"``: the engine that played them, whose ``Board``
    :meth:`board` returns."""
    game: str
    """The game: ``"veletas"`` or ``"meridians"``."""

    def __init__(
        self,
        arrays: dict[str, np.ndarray],
        *,
        start: str,
        rules: Any,
        policy: str,
        seed: int,
        first_game: int,
        backend: str,
        game: str = "veletas",
    ) -> None:
        spec = registry.get(game).playouts
        self.winner = np.asarray(arrays["winner"], dtype=np.int8)
        self.swapped = np.asarray(arrays["swapped"], dtype=np.bool_)
        self.plies = np.asarray(arrays["plies"], dtype=np.int32)
        self.columns = {
            name: np.asarray(arrays[name], dtype=np.int8).reshape(len(self.winner), 2)
            for name in spec.COLUMNS
        }
        self.moves = None
        self.offsets = None
        if "moves" in arrays:
            if spec.MOVE_DTYPE.fields:  # records of several fields, as int8 rows
                width = spec.MOVE_DTYPE.itemsize
                rows = np.ascontiguousarray(arrays["moves"], dtype=np.int8).reshape(-1, width)
                self.moves = rows.view(spec.MOVE_DTYPE).reshape(-1)
            else:
                self.moves = np.asarray(arrays["moves"], dtype=spec.MOVE_DTYPE)
            self.offsets = np.asarray(arrays["offsets"], dtype=np.int64)
        self.start = start
        self.rules = rules
        self.policy = policy
        self.seed = seed
        self.first_game = first_game
        self.backend = backend
        self.game = game

    def __getattr__(self, name: str) -> Any:
        # The game's own columns (`claims`, `stones`) read as attributes, and
        # its own summaries (`claim_counts()`) as methods.
        columns = self.__dict__.get("columns", {})
        if name in columns:
            return columns[name]
        game = self.__dict__.get("game")
        if game is not None and not name.startswith("_"):
            method = registry.get(game).playouts.SUMMARY_METHODS.get(name)
            if method is not None:
                return functools.partial(method, self)
        raise AttributeError(
            f"{type(self).__name__} of {self.__dict__.get('game')} has no {name!r}"
        )

    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    @property
    def _spec(self) -> registry.PlayoutsRoom:
        return registry.get(self.game).playouts

    def __len__(self) -> int:
        return len(self.winner)

    def __repr__(self) -> str:
        record = ", recorded" if self.moves is not None else ""
        games = f"games {self.first_game}..{self.first_game + len(self) - 1}"
        rules = self._spec.describe(self.rules)
        return (
            f"<Playouts: {len(self)} {rules} {self.game} games from {self.start!r} "
            f"({self.policy}, seed {self.seed}, {games}{record})>"
        )

    # ------------------------------------------------------------------
    # Summary

    def count(self, mask: np.ndarray) -> int:
        """The games where ``mask`` (one entry a game) holds."""
        return int(np.count_nonzero(mask))

    def mean(self, values: np.ndarray) -> float:
        """The mean over the games of a column's ``values`` (nan for no games)."""
        return float(values.mean()) if len(self) else math.nan

    def plies_quantiles(
        self, q: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)
    ) -> dict[float, float]:
        """The quantiles ``q`` of the number of moves a game, as ``{q: plies}``.

        >>> import veletas
        >>> veletas.playouts(100, variant="small").plies_quantiles([0, 1]) # doctest: +SKIP
        {0: 18.0, 1: 49.0}
        """
        if not len(self):
            return {float(p): math.nan for p in q}
        values = np.quantile(self.plies, q)
        return {float(p): float(v) for p, v in zip(q, values, strict=True)}

    def tally(self) -> Tally:
        """The games as counts of their distinct per-game rows
        (:class:`Tally`): the summary in bounded memory."""
        return Tally.of(self)

    def summary(self) -> dict[str, Any]:
        """The summary as plain data (what ``veletas playout --json`` prints),
        computed from :meth:`tally`."""
        return self.tally().summary()

    # ------------------------------------------------------------------
    # Datasets

    def dataset_columns(self) -> dict[str, np.ndarray]:
        """The per-game arrays by column name, in the order a dataset writes
        them (:meth:`to_arrow`): winner, swapped, plies, then the game's own
        :attr:`columns`; moves aside.

        >>> import veletas
        >>> list(veletas.playouts(3, variant="small").dataset_columns())
        ['winner', 'swapped', 'plies', 'claims']
        """
        return {
            "winner": self.winner,
            "swapped": self.swapped,
            "plies": self.plies,
            **self.columns,
        }

    def to_arrow(self) -> Any:
        """The games as a ``pyarrow.Table``, one row per game: ``game`` (the
        game index, uint64), the per-game :meth:`columns` (an (n, k) array as
        a fixed-size list of k) and, for a recorded run, ``moves``: each
        game's moves as integer codes of the game (Veletas: int32,
        :func:`veletas.datasets.decode_moves`; Meridians: int16 points,
        ``veletas.games.meridians.playouts.decode_moves``).
        The schema's metadata holds the game, rules, start, seed, policy and
        veletas version, as JSON under the key ``veletas``.

        >>> import veletas
        >>> games = veletas.playouts(5, variant="small", record=True)
        >>> table = games.to_arrow()
        >>> table.num_rows, table.column_names
        (5, ['game', 'winner', 'swapped', 'plies', 'claims', 'moves'])

        :raises ModuleNotFoundError: without pyarrow (``pip install "veletas[data]"``).
        """
        return _dataset_write.to_arrow(self)

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Write the games (:meth:`to_arrow`) to the Parquet file ``path``,
        atomically; :func:`veletas.read_playouts` reads them back.

        :raises ModuleNotFoundError: without pyarrow (``pip install "veletas[data]"``).
        """
        _dataset_write.write_parquet(self, path)

    # ------------------------------------------------------------------
    # Records

    def moves_of(self, i: int) -> list[Any]:
        """The moves of game ``i`` (``record=True`` runs), as ``Move`` values of
        the backend that played them.

        :raises ValueError: if the run has no records.
        :raises IndexError: if there is no game ``i``.
        """
        moves: list[Any] = self._spec.moves_of(self, self._rows(i))
        return moves

    def board(self, i: int) -> Any:
        """Game ``i`` replayed into a ``Board``: the start position with the
        game's moves pushed (``record=True`` runs).

        :raises ValueError: if the run has no records.
        :raises IndexError: if there is no game ``i``.
        """
        moves = self.moves_of(i)
        board = self._spec.start_board(self)
        for move in moves:
            board.push(move)
        return board

    def record(self, i: int) -> GameRecord:
        """Game ``i`` as a game record (``record=True`` runs), for
        :func:`veletas.records.write`; its tags name the run's seed and game
        index, so the game can be played again.

        >>> import veletas
        >>> games = veletas.playouts(3, variant="small", seed=5, record=True)
        >>> text = veletas.records.write([games.record(i) for i in range(3)])
        >>> [r.board().fen() for r in veletas.records.read(text)] == [
        ...     games.board(i).fen() for i in range(3)
        ... ]
        True

        :raises ValueError: if the run has no records.
        :raises IndexError: if there is no game ``i``.
        """
        moves = self.moves_of(i)
        record: GameRecord = self._spec.record(self, operator.index(i) % len(self), moves)
        return record

    def _rows(self, i: int) -> np.ndarray:
        if self.moves is None or self.offsets is None:
            raise ValueError("these playouts have no records: run them with record=True")
        i = operator.index(i)
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"game {shown(i)} is not in these {n} playouts")
        i %= n
        rows: np.ndarray = self.moves[self.offsets[i] : self.offsets[i + 1]]
        return rows

    # ------------------------------------------------------------------
    # Putting ranges together

    def job(self) -> PlayoutJob:
        """The :class:`PlayoutJob` of the run these games are of (their start,
        rules, policy and seed; recording moves if they have them), on every
        core, with the engine in use: ``job().run(first_game, len(games))``
        plays them again, move for move (both engines play the same games).
        The start's own pie swap is not known here: the job starts unswapped,
        so that a run from a position reached by the swap gives the same
        games, with ``swapped`` false where they did not swap again.

        >>> import veletas
        >>> games = veletas.playouts(50, variant="small", seed=2, record=True)
        >>> again = games.job().run(games.first_game, len(games))
        >>> bool((again.moves == games.moves).all())
        True
        """
        return PlayoutJob(
            start=self.start,
            rules=self.rules,
            swapped=False,
            policy=self.policy,
            seed=self.seed,
            threads=None,
            record=self.moves is not None,
            backend=IMPLEMENTATION,
            game=self.game,
        )

    @classmethod
    def concatenate(cls, parts: Sequence[Playouts]) -> Playouts:
        """The playouts of consecutive ranges of one run, as one: identical to
        playing the whole range at once.

        >>> import veletas
        >>> job = PlayoutJob.make(variant="small", seed=3)
        >>> whole = job.run(0, 300)
        >>> parts = Playouts.concatenate([job.run(0, 100), job.run(100, 200)])
        >>> all((getattr(parts, a) == getattr(whole, a)).all() for a in ("winner", "plies"))
        True

        :raises ValueError: for no parts, parts of different runs (game,
            start, rules, policy, seed, backend), ranges that do not follow
            each other, or a mix of recorded and unrecorded parts.
        """
        parts = list(parts)
        if not parts:
            raise ValueError("concatenate needs at least one Playouts")
        head = parts[0]
        expected = head.first_game
        for part in parts:
            if _run_of(part) != _run_of(head):
                raise ValueError(
                    f"cannot concatenate playouts of different runs: {head!r} and {part!r}"
                )
            if part.first_game != expected:
                raise ValueError(
                    f"playouts must be consecutive ranges: expected game {expected} next, "
                    f"got {part!r}"
                )
            if (part.moves is None) != (head.moves is None):
                raise ValueError("cannot concatenate recorded and unrecorded playouts")
            expected += len(part)
        arrays = {
            name: np.concatenate([getattr(part, name) for part in parts])
            for name in ("winner", "swapped", "plies")
        }
        for name in head.columns:
            arrays[name] = np.concatenate([part.columns[name] for part in parts])
        if head.moves is not None:
            arrays["moves"] = np.concatenate([part._rows_all() for part in parts])
            offsets = [part.offsets for part in parts if part.offsets is not None]
            starts = np.cumsum([0] + [int(part_offsets[-1]) for part_offsets in offsets])
            arrays["offsets"] = np.concatenate(
                [np.zeros(1, np.int64)]
                + [part[1:] + base for part, base in zip(offsets, starts, strict=False)]
            )
        return cls(
            arrays,
            start=head.start,
            rules=head.rules,
            policy=head.policy,
            seed=head.seed,
            first_game=head.first_game,
            backend=head.backend,
            game=head.game,
        )

    def _rows_all(self) -> np.ndarray:
        assert self.moves is not None
        if self.moves.dtype.fields:
            return self.moves.view(np.int8).reshape(-1, self.moves.dtype.itemsize)
        return self.moves


def _run_of(part: Playouts) -> tuple[object, ...]:
    return (part.game, part.start, part.rules, part.policy, part.seed, part.backend)


def check_run(
    seed: object, threads: object, record: object, backend: str
) -> tuple[int, int | None, bool]:
    """The arguments of a run that are not rules, checked for every game:
    ``seed`` in 0 .. 2**64 - 1, ``threads`` of 1 or more (or None), ``record``
    a bool, ``backend`` ``"rust"`` or ``"python"``.

    :raises ValueError: for values out of range or an unknown backend.
    :raises TypeError: for arguments of the wrong type.
    """
    if backend not in _BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected 'rust' or 'python'")
    seed = integer("seed", seed)
    if not 0 <= seed < _LAST_GAME:
        raise ValueError(f"seed must be in 0 .. 2**64 - 1, not {shown(seed)}")
    if threads is not None:
        threads = integer("threads", threads)
        if threads < 1:
            raise ValueError(
                f"threads must be at least 1 (or None for every core), not {threads!r}"
            )
        threads = check_threads(threads)
    if not isinstance(record, bool):
        raise TypeError(f"record must be a bool, not {record!r}")
    return seed, threads, record


@dataclass(frozen=True)
class PlayoutJob:
    """A checked playout run of one game: where the games start, their rules,
    policy and seed. :meth:`run` plays any range of its game indices; ranges
    played anywhere (other threads, processes, machines) fit together with
    :meth:`Playouts.concatenate`. It is plain data and pickles.

    >>> job = PlayoutJob.make(variant="small", seed=11, threads=1)
    >>> job.start, job.policy
    ('7/7/7/7/7/7/7 b setup 3', 'micro')
    >>> job.run(40, 10).winner.tolist() == job.run(0, 50).winner[40:].tolist()
    True
    """

    start: str
    """The position string of the start."""
    rules: Any
    """The rules of the games (the game's ``Rules``)."""
    swapped: bool
    """Whether the pie swap led to the start."""
    policy: str
    """The policy: ``"micro"`` or ``"uniform"`` (Veletas), ``"uniform"`` (Meridians)."""
    seed: int
    """The seed of the run, 0 <= seed < 2**64."""
    threads: int | None
    """Threads to play on; None for every core."""
    record: bool
    """Whether to keep every game's moves."""
    backend: str = IMPLEMENTATION
    """``"rust"`` (the native core) or ``"python"`` (the reference, one
    thread); by default the implementation in use."""
    game: str = "veletas"
    """The game: ``"veletas"`` or ``"meridians"``."""

    @classmethod
    def make(cls, *, game: str = "veletas", **options: Any) -> PlayoutJob:
        """Check the arguments of a game's ``playouts`` (all but ``n_games``)
        and resolve the start position: for Veletas those of
        :func:`playouts`, for Meridians those of
        :func:`veletas.meridians.playouts`.

        :raises InvalidRulesError: for bad rules, or options that disagree
            with ``start``.
        :raises InvalidFenError: for a ``start`` position string that is refused.
        :raises ValueError: for an unknown game or policy, a seed out of
            range, or ``threads`` below 1.
        :raises TypeError: for arguments of the wrong type.
        """
        job = registry.get(game).playouts.make_job(**options)
        assert isinstance(job, PlayoutJob)
        return job

    def run(self, first_game: int, n_games: int) -> Playouts:
        """Play games ``first_game .. first_game + n_games - 1`` of the run.

        :raises ValueError: for a negative index or count, or a range past
            game 2**64 - 1.
        :raises LimitError: for more games than one call plays.
        """
        first_game = integer("first_game", first_game)
        n_games = integer("n_games", n_games)
        if n_games < 0:
            raise ValueError(f"n_games must be 0 or more, not {shown(n_games)}")
        check_games(n_games, record=self.record)
        if first_game < 0 or first_game + n_games > _LAST_GAME:
            raise ValueError(
                f"games {shown(first_game)} .. {shown(first_game + n_games - 1)} are not all in "
                "0 .. 2**64 - 1"
            )
        arrays = registry.get(self.game).playouts.run(self, first_game, n_games)
        return Playouts(
            arrays,
            start=self.start,
            rules=self.rules,
            policy=self.policy,
            seed=self.seed,
            first_game=first_game,
            backend=self.backend,
            game=self.game,
        )


# ----------------------------------------------------------------------
# The summary of a run in bounded memory
#
# A game's per-game columns (winner, swapped, plies and the game's own, such
# as the final claims) are a few small integers, and games share them: a run
# of any length has at most some thousands of distinct rows. A Tally keeps
# each distinct row once with the number of games that had it, and computes
# every figure of the summary from the counts, equal to the figure computed
# from the games themselves to the last bit.

_SLICE = 1 << 18
"""The games folded at once: bounds the temporary arrays of :meth:`Tally.add`
(a few MB) however many games a range holds."""

_DENSE = 1 << 16
"""The fewest keys a dense histogram may span (else at most 4 a row): rows
whose keys spread wider are sorted instead."""


class Tally(Statistics):
    """The games of one run (or of consecutive ranges of it) as their
    distinct per-game rows, each with the number of games that had it.

    The rows are read as a :class:`~veletas.playouts.Playouts`' columns are
    (``winner``, ``swapped``, ``plies``, the game's own such as ``claims``),
    one entry per distinct row, with :attr:`counts` beside them; the summary
    methods are those of ``Playouts`` and give the same values.

    >>> job = PlayoutJob.make(variant="small", seed=3)
    >>> tally = Tally.of(job.run(0, 500))
    >>> tally.add(job.run(500, 500))
    >>> tally.summary() == job.run(0, 1000).summary()
    True
    >>> len(tally), len(tally.counts) < 1000
    (1000, True)
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
        self._names = ["winner", "swapped", "plies", *registry.get(game).playouts.COLUMNS]
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

        spec = registry.get(self.game).playouts
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
