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

import math
import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from veletas._checks import count, integer
from veletas.errors import InvalidRulesError
from veletas.games.veletas.types import SETUP_RULES, VARIANTS, Color, Rules

if TYPE_CHECKING:
    from veletas.records import GameRecord

__all__ = [
    "KIND_SHOOTER",
    "KIND_STONE",
    "KIND_SWAP",
    "MOVE_DTYPE",
    "POLICIES",
    "Estimate",
    "PlayoutJob",
    "Playouts",
    "playouts",
    "wilson",
]

POLICIES = ("micro", "uniform")
"""The playout policies: uniform at every micro-decision, or uniform over whole moves."""

MOVE_DTYPE = np.dtype(
    [("kind", np.int8), ("origin", np.int8), ("destination", np.int8), ("target", np.int8)]
)
"""One recorded move: its kind and public squares (``rank * 10 + file``), -1 where none."""

KIND_STONE, KIND_SHOOTER, KIND_SWAP = 0, 1, 2
"""The kinds of a recorded move: a stone or shot, a shooter placement, the swap."""

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


class Playouts:
    """The games of a playout run, one numpy entry per game in game-index order.

    >>> import veletas
    >>> games = veletas.playouts(200, variant="small", record=True)
    >>> board = games.board(0)  # game 0 replayed
    >>> board.is_game_over(), board.winner == games.winner[0].item()
    (True, True)
    >>> len(board.move_stack) == games.plies[0].item()
    True
    """

    winner: np.ndarray
    """int8: 0 when Black won, 1 when White won, -1 when the player to act had
    no legal move (only from hand-made positions)."""
    swapped: np.ndarray
    """bool: whether the pie swap was played (before or during the playout)."""
    plies: np.ndarray
    """int32: the moves played in the playout (not the decisions, not the
    start position's history). A swap is a move."""
    claims: np.ndarray
    """int8, shape (n, 2): the final claims of Black and of White."""
    moves: np.ndarray | None
    """With ``record=True``: every game's moves, one game after the other, as
    a structured array of :data:`MOVE_DTYPE`; otherwise None."""
    offsets: np.ndarray | None
    """With ``record=True``: int64, n + 1 entries; game ``i``'s moves are
    ``moves[offsets[i]:offsets[i + 1]]``. Otherwise None."""
    start: str
    """The position string every game started from."""
    rules: Rules
    """The rules of the games."""
    policy: str
    """The policy that played them."""
    seed: int
    """The seed of the run."""
    first_game: int
    """The index of the first game in the run (0 unless a range was played)."""
    backend: str
    """``"rust"`` or ``"python"``: the engine that played them, whose ``Board``
    :meth:`board` returns."""

    def __init__(
        self,
        arrays: dict[str, np.ndarray],
        *,
        start: str,
        rules: Rules,
        policy: str,
        seed: int,
        first_game: int,
        backend: str,
    ) -> None:
        self.winner = np.asarray(arrays["winner"], dtype=np.int8)
        self.swapped = np.asarray(arrays["swapped"], dtype=np.bool_)
        self.plies = np.asarray(arrays["plies"], dtype=np.int32)
        self.claims = np.asarray(arrays["claims"], dtype=np.int8).reshape(-1, 2)
        self.moves = None
        self.offsets = None
        if "moves" in arrays:
            rows = np.ascontiguousarray(arrays["moves"], dtype=np.int8).reshape(-1, 4)
            self.moves = rows.view(MOVE_DTYPE).reshape(-1)
            self.offsets = np.asarray(arrays["offsets"], dtype=np.int64)
        self.start = start
        self.rules = rules
        self.policy = policy
        self.seed = seed
        self.first_game = first_game
        self.backend = backend

    def __len__(self) -> int:
        return len(self.winner)

    def __repr__(self) -> str:
        record = ", recorded" if self.moves is not None else ""
        games = f"games {self.first_game}..{self.first_game + len(self) - 1}"
        return (
            f"<Playouts: {len(self)} {self.rules.variant} games from {self.start!r} "
            f"({self.policy}, seed {self.seed}, {games}{record})>"
        )

    # ------------------------------------------------------------------
    # Summary

    def win_rate(self, color: Color | int) -> Estimate:
        """The share of games that ``color`` won, with its 95% interval.

        A game without a winner (stuck) counts as won by neither colour.
        """
        return wilson(int(np.count_nonzero(self.winner == int(color))), len(self))

    def first_player_win_rate(self) -> Estimate:
        """The share of games won by the first player (Black, or White after a
        swap), with its 95% interval."""
        first = self.swapped.astype(np.int8)
        return wilson(int(np.count_nonzero(self.winner == first)), len(self))

    def swap_rate(self) -> Estimate:
        """The share of games with the pie swap, with its 95% interval."""
        return wilson(int(np.count_nonzero(self.swapped)), len(self))

    def stuck(self) -> int:
        """The number of games that ended without a winner."""
        return int(np.count_nonzero(self.winner < 0))

    def mean_plies(self) -> float:
        """The mean number of moves a game (nan for no games)."""
        return float(self.plies.mean()) if len(self) else math.nan

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

    def claim_counts(self) -> dict[tuple[int, int], int]:
        """How many games ended with each final score ``(black, white)``, by
        descending count."""
        counts = Counter(zip(self.claims[:, 0].tolist(), self.claims[:, 1].tolist(), strict=True))
        return dict(counts.most_common())

    def summary(self) -> dict[str, Any]:
        """The summary as plain data (what ``veletas playout --json`` prints)."""

        def estimate(e: Estimate) -> dict[str, float]:
            return {"rate": e.rate, "low": e.low, "high": e.high}

        return {
            "games": len(self),
            "start": self.start,
            "rules": {
                "variant": self.rules.variant,
                "size": self.rules.size,
                "shooters": self.rules.shooters,
                "setup_rule": self.rules.setup_rule,
                "shooters_block": self.rules.shooters_block,
            },
            "policy": self.policy,
            "seed": self.seed,
            "black_wins": estimate(self.win_rate(Color.BLACK)),
            "white_wins": estimate(self.win_rate(Color.WHITE)),
            "first_player_wins": estimate(self.first_player_win_rate()),
            "swaps": estimate(self.swap_rate()),
            "stuck": self.stuck(),
            "plies": {
                "mean": self.mean_plies(),
                "quantiles": {str(q): v for q, v in self.plies_quantiles().items()},
            },
            "claims": [
                {"black": black, "white": white, "games": games}
                for (black, white), games in sorted(self.claim_counts().items())
            ],
        }

    # ------------------------------------------------------------------
    # Records

    def moves_of(self, i: int) -> list[Any]:
        """The moves of game ``i`` (``record=True`` runs), as ``Move`` values of
        the backend that played them.

        :raises ValueError: if the run has no records.
        :raises IndexError: if there is no game ``i``.
        """
        rows = self._rows(i)
        move = _backend_module(self.backend).Move
        moves = []
        for kind, origin, destination, target in rows.tolist():
            if kind == KIND_SWAP:
                moves.append(move.swap())
            elif kind == KIND_SHOOTER:
                moves.append(move.shooter(target))
            elif origin < 0:
                moves.append(move(target))
            else:
                moves.append(move(target, origin, destination))
        return moves

    def board(self, i: int) -> Any:
        """Game ``i`` replayed into a ``Board``: the start position with the
        game's moves pushed (``record=True`` runs).

        :raises ValueError: if the run has no records.
        :raises IndexError: if there is no game ``i``.
        """
        moves = self.moves_of(i)
        board = _backend_module(self.backend).Board(
            self.start,
            setup_rule=self.rules.setup_rule,
            shooters_block=self.rules.shooters_block,
        )
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
        from veletas.records import GameRecord

        player = f"{self.policy} playout"
        start = None if self.start == self._start_of_game() else self.start
        return GameRecord.from_moves(
            self.rules,
            self.moves_of(i),
            start=start,
            black=player,
            white=player,
            swapped=bool(self.swapped[i]),
            PlayoutSeed=str(self.seed),
            PlayoutGame=str(self.first_game + i),
        )

    def _start_of_game(self) -> str:
        """The position string of the empty board of these rules."""
        board = _backend_module(self.backend).Board(
            size=self.rules.size, shooters=self.rules.shooters
        )
        return str(board.fen())

    def _rows(self, i: int) -> np.ndarray:
        if self.moves is None or self.offsets is None:
            raise ValueError("these playouts have no records: run them with record=True")
        i = operator.index(i)
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"game {i} is not in these {n} playouts")
        i %= n
        rows = self.moves[self.offsets[i] : self.offsets[i + 1]]
        return rows.view(np.int8).reshape(-1, 4)

    # ------------------------------------------------------------------
    # Putting ranges together

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

        :raises ValueError: for no parts, parts of different runs (start,
            rules, policy, seed, backend), ranges that do not follow each
            other, or a mix of recorded and unrecorded parts.
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
            for name in ("winner", "swapped", "plies", "claims")
        }
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
        )

    def _rows_all(self) -> np.ndarray:
        assert self.moves is not None
        return self.moves.view(np.int8).reshape(-1, 4)


def _run_of(part: Playouts) -> tuple[object, ...]:
    return (part.start, part.rules, part.policy, part.seed, part.backend)


def _backend_module(backend: str) -> Any:
    if backend == "rust":
        from veletas import _veletas

        return _veletas
    import veletas.reference

    return veletas.reference


@dataclass(frozen=True)
class PlayoutJob:
    """A checked playout run: where the games start, their rules, policy and
    seed. :meth:`run` plays any range of its game indices; ranges played
    anywhere (other threads, processes, machines) fit together with
    :meth:`Playouts.concatenate`. It is plain data and pickles.

    >>> job = PlayoutJob.make(variant="small", seed=11, threads=1)
    >>> job.start, job.policy
    ('7/7/7/7/7/7/7 b setup 3', 'micro')
    >>> job.run(40, 10).winner.tolist() == job.run(0, 50).winner[40:].tolist()
    True
    """

    start: str
    """The position string of the start."""
    rules: Rules
    """The rules of the games."""
    swapped: bool
    """Whether the pie swap led to the start."""
    policy: str
    """``"micro"`` or ``"uniform"``."""
    seed: int
    """The seed of the run, 0 <= seed < 2**64."""
    threads: int | None
    """Threads to play on; None for every core."""
    record: bool
    """Whether to keep every game's moves."""
    backend: str = "rust"
    """``"rust"`` (the native core) or ``"python"`` (the reference, one thread)."""

    @classmethod
    def make(
        cls,
        *,
        variant: str = "standard",
        size: int | None = None,
        shooters: int | None = None,
        setup_rule: str = "perimeter",
        shooters_block: bool = False,
        start: Any = None,
        seed: int = 0,
        threads: int | None = None,
        policy: str = "micro",
        record: bool = False,
        backend: str = "rust",
    ) -> PlayoutJob:
        """Check the arguments of :func:`playouts` (all but ``n_games``) and
        resolve the start position.

        :raises InvalidRulesError: for an unknown variant or setup rule, a bad
            size or shooter count, or options that disagree with ``start``.
        :raises InvalidFenError: for a ``start`` position string that is refused.
        :raises ValueError: for an unknown policy, a seed out of range, or
            ``threads`` below 1.
        :raises TypeError: for arguments of the wrong type.
        """
        if backend not in _BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; expected 'rust' or 'python'")
        if not isinstance(policy, str) or policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; expected 'micro' or 'uniform'")
        seed = integer("seed", seed)
        if not 0 <= seed < _LAST_GAME:
            raise ValueError(f"seed must be in 0 .. 2**64 - 1, not {seed!r}")
        if threads is not None:
            threads = integer("threads", threads)
            if threads < 1:
                raise ValueError(
                    f"threads must be at least 1 (or None for every core), not {threads!r}"
                )
        if not isinstance(record, bool):
            raise TypeError(f"record must be a bool, not {record!r}")
        board_type = _backend_module(backend).Board
        options = {
            "variant": variant,
            "size": size,
            "shooters": shooters,
            "setup_rule": setup_rule,
            "shooters_block": shooters_block,
        }
        swapped = False
        if start is None:
            board = board_type(**options)
        elif isinstance(start, str):
            board = board_type(start, **options)
        elif callable(getattr(start, "fen", None)) and hasattr(start, "move_stack"):
            _check_agreement(start.rules, **options)
            board = start
            swapped = any(move.is_swap for move in start.move_stack)
        else:
            raise TypeError(
                f"start must be a Board, a position string or None, not {type(start).__name__}"
            )
        return cls(
            start=board.fen(),
            rules=board.rules,
            swapped=swapped,
            policy=policy,
            seed=seed,
            threads=threads,
            record=record,
            backend=backend,
        )

    def run(self, first_game: int, n_games: int) -> Playouts:
        """Play games ``first_game .. first_game + n_games - 1`` of the run.

        :raises ValueError: for a negative index or count, or a range past
            game 2**64 - 1.
        """
        first_game = integer("first_game", first_game)
        n_games = integer("n_games", n_games)
        if n_games < 0:
            raise ValueError(f"n_games must be 0 or more, not {n_games!r}")
        if first_game < 0 or first_game + n_games > _LAST_GAME:
            raise ValueError(
                f"games {first_game} .. {first_game + n_games - 1} are not all in 0 .. 2**64 - 1"
            )
        arguments: dict[str, Any] = {
            "setup_rule": self.rules.setup_rule,
            "shooters_block": self.rules.shooters_block,
            "swapped": self.swapped,
            "policy": self.policy,
            "seed": self.seed,
            "first_game": first_game,
            "n_games": n_games,
            "record": self.record,
        }
        if self.backend == "rust":
            from veletas import _veletas

            arrays = _veletas.run_playouts(self.start, threads=self.threads, **arguments)
        else:
            from veletas.games.veletas.reference.playouts import run_games

            arrays = run_games(self.start, **arguments)
        return Playouts(
            arrays,
            start=self.start,
            rules=self.rules,
            policy=self.policy,
            seed=self.seed,
            first_game=first_game,
            backend=self.backend,
        )


def playouts(
    n_games: int,
    *,
    variant: str = "standard",
    size: int | None = None,
    shooters: int | None = None,
    setup_rule: str = "perimeter",
    shooters_block: bool = False,
    start: Any = None,
    seed: int = 0,
    threads: int | None = None,
    policy: str = "micro",
    record: bool = False,
) -> Playouts:
    """Play ``n_games`` random games and return them as numpy arrays.

    Without ``start``, every game begins at the start of ``variant`` (with
    ``size`` and ``shooters`` overriding it, and the two rule options). With
    ``start`` (a ``Board``, or a position string read under the given rule
    options), every game begins from that position; the rule options must
    then be left at their defaults or agree with it. A board's move stack
    tells whether the pie swap was played; a position string has no history,
    so its games count a swap only when they play one. A finished position
    gives finished games at once, with its winner and no plies.

    Game ``i`` uses the random stream of ``(seed, i)``, so the result is the
    same for any ``threads`` (None: every core). ``policy="micro"`` is
    uniform at every decision of the micro-decision encoding;
    ``policy="uniform"`` is uniform over the legal moves of each position.
    With ``record=True`` every game's moves are kept too (:attr:`Playouts.moves`).

    The games are played in the native core with the GIL released.

    >>> import veletas
    >>> board = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    >>> games = veletas.playouts(50, start=board, policy="uniform")
    >>> bool((games.claims.max(axis=1) >= 2).all())  # every game ends with a winner
    True

    :raises ValueError: for a negative ``n_games``, an unknown policy, a seed
        outside 0 .. 2**64 - 1, or ``threads`` below 1.
    :raises InvalidRulesError: for an unknown variant or bad rules, or rule
        options that disagree with ``start``.
    :raises InvalidFenError: for a ``start`` position string that is refused.
    :raises TypeError: for arguments of the wrong type.
    """
    n_games = count(n_games)
    job = PlayoutJob.make(
        variant=variant,
        size=size,
        shooters=shooters,
        setup_rule=setup_rule,
        shooters_block=shooters_block,
        start=start,
        seed=seed,
        threads=threads,
        policy=policy,
        record=record,
    )
    return job.run(0, n_games)


def _check_agreement(
    rules: Rules,
    *,
    variant: object,
    size: object,
    shooters: object,
    setup_rule: object,
    shooters_block: object,
) -> None:
    """Refuse rule options, given beside a start board, that are not its rules.

    :raises InvalidRulesError: naming the option and the board's value.
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
    problems = []
    if variant != "standard" and VARIANTS[variant] != (rules.size, rules.shooters):
        problems.append(f"variant {variant!r}")
    if size is not None and size != rules.size:
        problems.append(f"size {size!r}")
    if shooters is not None and shooters != rules.shooters:
        problems.append(f"shooters {shooters!r}")
    if setup_rule != "perimeter" and setup_rule != rules.setup_rule:
        problems.append(f"setup_rule {setup_rule!r}")
    if shooters_block and not rules.shooters_block:
        problems.append("shooters_block=True")
    if problems:
        raise InvalidRulesError(f"{', '.join(problems)} disagree(s) with the start board's {rules}")
