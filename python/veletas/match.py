"""Matches between bots: many games, played in parallel and reproducibly,
with the statistics to read them.

:func:`match` plays ``games`` games between two players, seats alternating,
and returns a :class:`MatchResult`: the score, the win rate of the first
player named (A) with its Wilson 95% interval, the Elo difference with its
interval, the first player's win rate and the swap rate under that pairing,
and the game lengths. :func:`round_robin` plays every pair of several
players and fits their ratings (:class:`RoundRobin`).

>>> import veletas
>>> result = veletas.match("mcts:iterations=300", "random", 10, variant="small", seed=1)
>>> result.points[0] + result.points[1]
10.0
>>> result.win_rate.low < result.win_rate.rate <= result.win_rate.high
True

A player is written as a *spec*: ``random``, ``greedy``, ``mcts`` (one second
a move), or ``mcts:`` with options, ``mcts:iterations=2000``,
``mcts:seconds=0.5``, ``mcts:iterations=500,exploration=1.0``
(:meth:`BotSpec.parse`). Every spec is read, and checked against the game,
before the first game starts:

>>> veletas.match("mcts:iterations=0", "random", 10)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
veletas.errors.InvalidPlayerError: player 'mcts:iterations=0': iterations must be ... not '0'

Each game runs on a thread of its own with bots of its own, and the bots
search without the GIL, so ``threads`` threads play that many games at once.
Game ``i`` is played by bots seeded from ``(seed, i)`` alone: with
iteration budgets (not time budgets) the same seed gives the same games on
any number of threads, and on a Ray cluster (``ray=``). ``docs/bots.md``
describes the statistics.
"""

from __future__ import annotations

import abc
import dataclasses
import math
import os
import queue
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from veletas import games as _games
from veletas._checks import ascii_float, ascii_int, count, integer
from veletas.errors import InvalidPlayerError, InvalidRulesError
from veletas.limits import check_games, check_threads
from veletas.playouts import Estimate, wilson
from veletas.rng import Rng

if TYPE_CHECKING:
    from veletas.bots import Bot
    from veletas.records import GameRecord

__all__ = [
    "KINDS",
    "MCTS_OPTIONS",
    "BotSpec",
    "Elo",
    "GameResult",
    "MatchResult",
    "Player",
    "Rating",
    "RoundRobin",
    "elo",
    "fit_ratings",
    "game_seeds",
    "match",
    "parse_player",
    "round_robin",
]

KINDS = ("random", "greedy", "mcts")
"""The bots a spec names."""

MCTS_OPTIONS = ("iterations", "seconds", "exploration")
"""The options of ``mcts:``, in the order a spec is written."""

_SEED_LIMIT = 1 << 64
_Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
_ELO_PER_NAT = 400 / math.log(10)  # Elo points per unit of the logistic scale
_DIVERGED = 25.0  # a rating this far out (about 4,300 Elo): the likelihood has no maximum
_RAY_CHUNK_MAX = 16  # games of one Ray task at most: a lively score, a quick Ctrl-C


# ----------------------------------------------------------------------
# Players


class Player(abc.ABC):
    """A contestant of a match: it makes a fresh bot for every game.

    :class:`BotSpec` is the player of a spec; subclass this for a bot of
    your own (it must pickle, to travel to a Ray cluster).
    """

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """The player's name in tables, records and summaries."""

    @property
    def reproducible(self) -> bool:
        """Whether the player's bots move the same way for the same seed
        and boards (not so under a time budget)."""
        return True

    @abc.abstractmethod
    def make(self, seed: int) -> Bot:
        """A new bot for one game, seeded with ``seed`` (0 .. 2**64 - 1)."""

    def check(self, board: Any) -> None:
        """Raise if the player cannot play ``board``'s game; called on the
        start position before any game of a match."""
        self.make(0).choose(board)


@dataclasses.dataclass(frozen=True)
class BotSpec(Player):
    """The player a spec names: one of the bots of :mod:`veletas.bots`.

    >>> BotSpec.parse("mcts:exploration=1,iterations=500")
    BotSpec.parse('mcts:iterations=500,exploration=1.0')
    >>> str(BotSpec.parse("greedy")), BotSpec.parse("mcts:seconds=0.5").reproducible
    ('greedy', False)
    """

    kind: str
    """``random``, ``greedy`` or ``mcts``."""
    iterations: int | None = None
    """MCTS playouts a move."""
    seconds: float | None = None
    """MCTS thinking time a move (with ``iterations`` too: whichever runs out first)."""
    exploration: float | None = None
    """The MCTS exploration constant; None for the bot's default."""

    @classmethod
    def parse(cls, spec: str) -> BotSpec:
        """The player of ``spec``: ``random``, ``greedy``, ``mcts`` or
        ``mcts:OPTION=VALUE,...`` with the options ``iterations`` (a whole
        number of 1 or more), ``seconds`` (above 0) and ``exploration`` (0 or
        more). ``mcts`` alone thinks one second a move.

        :raises InvalidPlayerError: naming the spec and what is wrong with it.
        :raises TypeError: if ``spec`` is not a str.
        """
        if not isinstance(spec, str):
            raise TypeError(f"a player is a spec (str) or a Player, not {spec!r}")
        kind, colon, rest = spec.strip().partition(":")
        if kind not in KINDS:
            raise InvalidPlayerError(
                f"unknown player {spec!r}: expected random, greedy, mcts "
                f"or mcts:OPTION=VALUE,... (options {', '.join(MCTS_OPTIONS)})"
            )
        if not colon:
            return cls(kind)
        if kind != "mcts":
            raise InvalidPlayerError(f"player {spec!r}: {kind} takes no options")
        options: dict[str, Any] = {}
        for item in rest.split(","):
            key, equals, value = (part.strip() for part in item.partition("="))
            if not (key and equals and value):
                raise InvalidPlayerError(f"player {spec!r}: {item!r} is not OPTION=VALUE")
            if key not in MCTS_OPTIONS:
                raise InvalidPlayerError(
                    f"player {spec!r}: unknown option {key!r}; "
                    f"expected one of {', '.join(MCTS_OPTIONS)}"
                )
            if key in options:
                raise InvalidPlayerError(f"player {spec!r}: {key} is given twice")
            options[key] = _option(spec, key, value)
        return cls(kind, **options)

    @property
    def name(self) -> str:
        return str(self)

    @property
    def reproducible(self) -> bool:
        return self.kind != "mcts" or (self.seconds is None and self.iterations is not None)

    def make(self, seed: int) -> Bot:
        from veletas import bots

        if self.kind == "random":
            return bots.RandomBot(seed)
        if self.kind == "greedy":
            return bots.GreedyBot(seed)
        return bots.MctsBot(
            seconds=self.seconds,
            iterations=self.iterations,
            seed=seed,
            exploration=self.exploration,
        )

    def check(self, board: Any) -> None:
        # The same bot on the smallest budget: as telling, and no waiting.
        dataclasses.replace(self, iterations=1, seconds=None).make(0).choose(board)

    def __str__(self) -> str:
        options = [
            f"{key}={getattr(self, key)!r}"
            for key in MCTS_OPTIONS
            if getattr(self, key) is not None
        ]
        return f"{self.kind}:{','.join(options)}" if options else self.kind

    def __repr__(self) -> str:
        return f"BotSpec.parse({str(self)!r})"


def _option(spec: str, key: str, value: str) -> int | float:
    """The value of option ``key`` of ``spec``, checked."""
    if key == "iterations":
        try:
            number = ascii_int(value)
        except ValueError:
            number = 0
        if number < 1:
            raise InvalidPlayerError(
                f"player {spec!r}: iterations must be a whole number of 1 or more, not {value!r}"
            )
        return number
    try:
        real = ascii_float(value)
    except ValueError:
        real = math.nan
    if key == "seconds" and not (math.isfinite(real) and real > 0):
        raise InvalidPlayerError(
            f"player {spec!r}: seconds must be a number above 0, not {value!r}"
        )
    if key == "exploration" and not (math.isfinite(real) and real >= 0):
        raise InvalidPlayerError(
            f"player {spec!r}: exploration must be a number of 0 or more, not {value!r}"
        )
    return real


def parse_player(player: str | Player) -> Player:
    """``player`` itself, or the :class:`BotSpec` of a spec.

    :raises InvalidPlayerError: for a spec that cannot be read.
    """
    if isinstance(player, Player):
        return player
    return BotSpec.parse(player)


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """The seeds of the bots of player A and player B in game ``index`` of a
    match with ``seed``: the first two draws of the stream ``(seed, index)``
    (:class:`veletas.rng.Rng`). Nothing else seeds a game.

    >>> game_seeds(0, 0) == game_seeds(0, 0) != game_seeds(0, 1)
    True
    """
    rng = Rng.for_game(seed, index)
    return rng.next_u64(), rng.next_u64()


# ----------------------------------------------------------------------
# One game


@dataclasses.dataclass(frozen=True)
class GameResult:
    """One game of a match. Seats: 0 is the first player, 1 the second."""

    index: int
    """The game's index in the match: A is the first player in even games."""
    a_first: bool
    """Whether player A was the first player."""
    winner: int | None
    """The winning seat, None for a game without a winner."""
    swapped: bool
    """Whether the pie swap was played."""
    moves: tuple[str, ...]
    """The moves, in the game's notation."""
    seconds: tuple[float, float]
    """The thinking time of A and of B over the game."""
    turns: tuple[int, int]
    """The moves A and B made."""
    iterations: tuple[int, int]
    """The search playouts of A and of B over the game (0 for bots that do not search)."""

    @property
    def plies(self) -> int:
        """The moves of the game (a swap is a move)."""
        return len(self.moves)

    @property
    def a_points(self) -> float:
        """A's points: 1 for a win, 0 for a loss, 1/2 for a game without a winner."""
        if self.winner is None:
            return 0.5
        return float((self.winner == 0) == self.a_first)


@dataclasses.dataclass(frozen=True)
class _Pairing:
    """The games of one pairing: the game, its rules, the players, the seed.
    Everything a worker (a thread, or a Ray task) needs to play game ``i``."""

    game: str
    rules: dict[str, Any]
    players: tuple[Player, Player]
    seed: int

    def board(self) -> Any:
        return _games.get(self.game).api().Board(**self.rules)

    def play(self, index: int, stop: threading.Event | None = None) -> GameResult | None:
        """Game ``index``, or None if ``stop`` was set before its end."""
        room = _games.get(self.game).room("match")
        board = self.board()
        a_first = index % 2 == 0
        seed_a, seed_b = game_seeds(self.seed, index)
        bots = (self.players[0].make(seed_a), self.players[1].make(seed_b))
        by_seat = (0, 1) if a_first else (1, 0)  # seat -> player (0 = A)
        seconds = [0.0, 0.0]
        turns = [0, 0]
        iterations = [0, 0]
        moves: list[str] = []
        swapped = False
        while not board.is_game_over():
            if stop is not None and stop.is_set():
                return None
            player = by_seat[room.seat_to_act(board, swapped)]
            bot = bots[player]
            clock = time.perf_counter()
            move = bot.choose(board)
            seconds[player] += time.perf_counter() - clock
            board.push(move)
            swapped = swapped or move.is_swap
            moves.append(str(move))
            turns[player] += 1
            search = getattr(bot, "last_search", None)
            if search is not None:
                iterations[player] += search.iterations
        winner = board.winner
        return GameResult(
            index=index,
            a_first=a_first,
            winner=None if winner is None else int(winner) ^ swapped,
            swapped=swapped,
            moves=tuple(moves),
            seconds=(seconds[0], seconds[1]),
            turns=(turns[0], turns[1]),
            iterations=(iterations[0], iterations[1]),
        )


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
        raise ValueError(f"anchor must be a player, 0 to {m - 1}, not {anchor}")
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


# ----------------------------------------------------------------------
# A match's result


@dataclasses.dataclass(frozen=True)
class MatchResult:
    """The games of a match between A and B, and what they say.

    Seats alternate: A is the first player in the even games. Rates count a
    game without a winner as half a win.
    """

    players: tuple[str, str]
    """The names (specs) of A and B."""
    game: str
    """The game played (a name of :data:`veletas.games.GAMES`)."""
    rules: dict[str, Any]
    """The rules of the games."""
    description: str
    """The rules in words."""
    seed: int
    """The seed of the match."""
    requested: int
    """The games asked for."""
    games: tuple[GameResult, ...]
    """The games played, by index (fewer than asked for after Ctrl-C)."""
    interrupted: bool
    """Whether Ctrl-C stopped the match."""
    seconds: float
    """The wall-clock time of the match."""
    where: str
    """Where the games were played."""
    reproducible: bool
    """Whether the same seed gives the same games (no time budget)."""

    def __len__(self) -> int:
        return len(self.games)

    @property
    def points(self) -> tuple[float, float]:
        """The score: the points of A and of B."""
        a = sum(g.a_points for g in self.games)
        return a, len(self.games) - a

    @property
    def win_rate(self) -> Estimate:
        """A's share of the points, with its Wilson 95% interval."""
        return wilson(self.points[0], len(self.games))

    @property
    def elo(self) -> Elo:
        """A's Elo advantage over B, with the interval that maps the Wilson
        interval of A's score (infinite after a clean sweep)."""
        rate = self.win_rate
        return Elo(elo(rate.rate), elo(rate.low), elo(rate.high))

    def rate_as(self, first: bool) -> Estimate:
        """A's share of the points in the games where A was the first
        player (``first=True``) or the second."""
        chosen = [g for g in self.games if g.a_first == first]
        return wilson(sum(g.a_points for g in chosen), len(chosen))

    @property
    def first_player_win_rate(self) -> Estimate:
        """The first player's share of the points, whoever it was."""
        first = sum(0.5 if g.winner is None else 1.0 if g.winner == 0 else 0.0 for g in self.games)
        return wilson(first, len(self.games))

    @property
    def swap_rate(self) -> Estimate:
        """The share of games in which the pie swap was played."""
        return wilson(sum(1 for g in self.games if g.swapped), len(self.games))

    @property
    def plies(self) -> np.ndarray:
        """The length of every game, in moves (int32)."""
        return np.array([g.plies for g in self.games], dtype=np.int32)

    def thinking(self, player: int) -> dict[str, float | None]:
        """Player ``player``'s (0 for A, 1 for B) mean thinking time a move,
        in seconds, and mean search playouts a move (None for bots that do
        not search)."""
        turns = sum(g.turns[player] for g in self.games)
        seconds = sum(g.seconds[player] for g in self.games)
        iterations = sum(g.iterations[player] for g in self.games)
        return {
            "seconds_per_move": seconds / turns if turns else None,
            "iterations_per_move": iterations / turns if turns and iterations else None,
        }

    def summary(self) -> dict[str, Any]:
        """The summary as plain data (what ``veletas match --json`` prints);
        rates and Elo differences without a finite value are None."""
        plies = self.plies
        quantiles = (0.0, 0.1, 0.5, 0.9, 1.0)
        spread = np.quantile(plies, quantiles).tolist() if len(plies) else [None] * 5
        a, b = self.points
        difference = self.elo
        return {
            "players": {"a": self.players[0], "b": self.players[1]},
            "game": self.game,
            "rules": self.rules,
            "seed": self.seed,
            "reproducible": self.reproducible,
            "requested": self.requested,
            "games": len(self),
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "where": self.where,
            "score": {"a": a, "b": b},
            "a_wins": _estimate(self.win_rate),
            "elo": {
                "difference": _finite(difference.difference),
                "low": _finite(difference.low),
                "high": _finite(difference.high),
            },
            "a_wins_as_first": _estimate(self.rate_as(first=True)),
            "a_wins_as_second": _estimate(self.rate_as(first=False)),
            "first_player_wins": _estimate(self.first_player_win_rate),
            "swaps": _estimate(self.swap_rate),
            "plies": {
                "mean": float(plies.mean()) if len(plies) else None,
                "quantiles": {str(q): v for q, v in zip(quantiles, spread, strict=True)},
            },
            "thinking": {"a": self.thinking(0), "b": self.thinking(1)},
        }

    def records(self) -> Iterator[GameRecord]:
        """The games as game records (:mod:`veletas.records`), the players
        named by their specs and the game index in a ``Round`` tag.

        :raises ValueError: if the game has no game records.
        """
        room = _games.get(self.game).room("match")
        if not hasattr(room, "record"):
            raise ValueError(f"{self.game} games cannot be written as records yet")
        new_board = _games.get(self.game).api().Board
        for g in self.games:
            board = new_board(**self.rules)
            for text in g.moves:
                board.push_str(text)
            seats = self.players if g.a_first else self.players[::-1]
            yield room.record(board, seats, g.swapped, Round=str(g.index + 1))

    def __str__(self) -> str:
        a, b = self.players
        a_points, b_points = self.points
        head = f"{len(self):,} of {self.requested:,} games in {self.seconds:.1f} s on {self.where}"
        lines = [
            f"match         A = {a}, B = {b}: {head}",
            f"rules         {self.description}",
            f"seed          {self.seed} ({_reproducibility(self.reproducible)})",
            f"score         A {a_points:g}, B {b_points:g}",
            f"A's score     {_percent(self.win_rate)}",
            f"Elo A - B     {_elo_text(self.elo)}",
            f"A first       {_percent(self.rate_as(first=True))}",
            f"A second      {_percent(self.rate_as(first=False))}",
            f"first player  {_percent(self.first_player_win_rate)}",
        ]
        if getattr(_games.get(self.game).api().Board(**self.rules), "pie", True):
            lines.append(f"swaps         {_percent(self.swap_rate)}")  # not without a pie rule
        plies = self.plies
        if len(plies):
            lines.append(
                f"plies         mean {plies.mean():.1f} (min {plies.min()}, "
                f"median {np.median(plies):g}, max {plies.max()})"
            )
        for label, player in (("A", 0), ("B", 1)):
            lines.append(f"thinking {label}    {_thinking_text(self.thinking(player))}")
        return "\n".join(lines)


def _reproducibility(reproducible: bool) -> str:
    if reproducible:
        return "iteration budgets: the same games on any number of threads"
    return "time budgets: the games are not reproducible"


def _elo_text(e: Elo) -> str:
    if math.isnan(e.difference):
        return "-"
    return f"{_signed(e.difference):>7}  (95% CI {_signed(e.low)} .. {_signed(e.high)})"


def _thinking_text(thinking: dict[str, float | None]) -> str:
    seconds = thinking["seconds_per_move"]
    if seconds is None:
        return "-"
    text = f"{seconds * 1000:.2f} ms a move"
    iterations = thinking["iterations_per_move"]
    if iterations is not None:
        text += f", {iterations:,.0f} playouts a move"
    return text


# ----------------------------------------------------------------------
# A round robin's result


class Rating(NamedTuple):
    """A player's rating in a round robin, in Elo points from the anchor."""

    player: str
    elo: float
    low: float
    """The lower end of the 95% interval."""
    high: float
    """The upper end of the 95% interval."""
    games: int
    points: float


@dataclasses.dataclass(frozen=True)
class RoundRobin:
    """Every pair of several players, and their ratings."""

    players: tuple[str, ...]
    """The players' names, as given."""
    pairs: tuple[MatchResult, ...]
    """The match of each pair ``(i, j)``, ``i < j``, in the order
    ``(0, 1), (0, 2), ..., (1, 2), ...``; player ``i`` is its A."""
    anchor: str
    """The player rated 0: ``random`` if it plays, else the first."""
    prior: float
    """The drawn games added between every pair for the fit."""
    seed: int
    """The seed of the round robin (each pair's is drawn from it)."""
    interrupted: bool
    """Whether Ctrl-C stopped the round robin."""
    seconds: float
    """The wall-clock time."""

    def pair(self, i: int, j: int) -> MatchResult:
        """The match between players ``i`` and ``j`` (``i < j``)."""
        m = len(self.players)
        if not 0 <= i < j < m:
            raise ValueError(f"no pair ({i}, {j}) among {m} players")
        return self.pairs[i * (2 * m - i - 1) // 2 + (j - i - 1)]

    def matrices(self) -> tuple[np.ndarray, np.ndarray]:
        """``(points, games)``: what each player scored against each, in how
        many games, as :func:`fit_ratings` takes them."""
        m = len(self.players)
        points = np.zeros((m, m))
        games = np.zeros((m, m))
        for i in range(m):
            for j in range(i + 1, m):
                result = self.pair(i, j)
                points[i, j], points[j, i] = result.points
                games[i, j] = games[j, i] = len(result)
        return points, games

    @property
    def ratings(self) -> list[Rating]:
        """Every player's Bradley-Terry rating (:func:`fit_ratings`), in the
        players' order, with its 95% interval: the rating plus or minus 1.96
        standard errors, relative to the anchor."""
        points, games = self.matrices()
        anchor = self.players.index(self.anchor)
        ratings, errors = fit_ratings(points, games, anchor=anchor, prior=self.prior)
        return [
            Rating(
                name,
                float(r),
                float(r - _Z95 * e),
                float(r + _Z95 * e),
                int(games[k].sum()),
                float(points[k].sum()),
            )
            for k, (name, r, e) in enumerate(zip(self.players, ratings, errors, strict=True))
        ]

    def summary(self) -> dict[str, Any]:
        """The summary as plain data (what ``veletas match --round-robin
        --json`` prints)."""
        first = self.pairs[0]
        return {
            "players": list(self.players),
            "game": first.game,
            "rules": first.rules,
            "seed": self.seed,
            "reproducible": all(p.reproducible for p in self.pairs),
            "requested": sum(p.requested for p in self.pairs),
            "games": sum(len(p) for p in self.pairs),
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "where": first.where,
            "anchor": self.anchor,
            "prior": self.prior,
            "ratings": [r._asdict() for r in self.ratings],
            "pairs": [
                {**p.summary(), "pair": [i, j]}
                for (i, j), p in zip(self._indices(), self.pairs, strict=True)
            ],
        }

    def _indices(self) -> list[tuple[int, int]]:
        m = len(self.players)
        return [(i, j) for i in range(m) for j in range(i + 1, m)]

    def __str__(self) -> str:
        first = self.pairs[0]
        played = sum(len(p) for p in self.pairs)
        requested = sum(p.requested for p in self.pairs)
        reproducible = all(p.reproducible for p in self.pairs)
        width = max(len(name) for name in self.players)
        lines = [
            f"round robin   {len(self.players)} players, {len(self.pairs)} pairs: "
            f"{played:,} of {requested:,} games in {self.seconds:.1f} s on {first.where}",
            f"rules         {first.description}",
            f"seed          {self.seed} ({_reproducibility(reproducible)})",
            f"ratings       Elo, {self.anchor} = 0, 95% intervals; "
            f"{self.prior:g} drawn game{'s' if self.prior != 1 else ''} added to each pair",
            f"  rank  {'player':<{width}}  {'Elo':>6}  {'95% CI':>15}  {'games':>6}  score",
        ]
        ranked = sorted(self.ratings, key=lambda r: -r.elo)
        for rank, r in enumerate(ranked, 1):
            interval = "" if r.player == self.anchor else f"{_signed(r.low)} .. {_signed(r.high)}"
            score = f"{r.points / r.games:6.1%}" if r.games else "     -"
            lines.append(
                f"  {rank:>4}  {r.player:<{width}}  {_signed(r.elo):>6}  {interval:>15}  "
                f"{r.games:>6}  {score}"
            )
        lines.append(f"pairs         {'A':<{width}}  {'B':<{width}}  games  A's score")
        for p in self.pairs:
            a, b = p.players
            rate = p.win_rate
            text = "-"
            if not math.isnan(rate.rate):
                text = f"{rate.rate:6.1%} ({rate.low:.1%} .. {rate.high:.1%})"
            lines.append(f"              {a:<{width}}  {b:<{width}}  {len(p):>5}  {text}")
        return "\n".join(lines)


# ----------------------------------------------------------------------
# Playing the games


def match(
    a: str | Player,
    b: str | Player,
    games: int,
    *,
    game: str = "veletas",
    seed: int = 0,
    threads: int | None = None,
    ray: bool | str = False,
    chunk_size: int | None = None,
    progress: bool | None = None,
    **rules: Any,
) -> MatchResult:
    """Play ``games`` games between players ``a`` (A) and ``b`` (B), seats
    alternating, and return the result.

    ``a`` and ``b`` are specs (``"random"``, ``"mcts:iterations=2000"``;
    :meth:`BotSpec.parse`) or :class:`Player` objects. ``game`` names the game
    (``"veletas"`` or ``"meridians"``) and ``rules`` are the keyword arguments
    of its ``Board`` (``variant="small"``; ``size="5-6", pie=True``).
    ``threads`` games are played at once, each on its own thread with its own
    bots (default: one for each core). ``ray=True`` plays them on Ray instead
    (the cluster this process is connected to, else a local runtime);
    ``ray="HOST:PORT"`` on the cluster there; ``threads`` is then the games of
    one Ray task at once and the CPUs it asks for (default 1), and
    ``chunk_size`` the games of one task. ``progress`` shows a progress bar
    with the running score on stderr (None: when stderr is a terminal).

    Ctrl-C (``KeyboardInterrupt``) stops the games under way and returns the
    finished ones, with ``interrupted`` set.

    :raises InvalidPlayerError: for a spec that cannot be read or a player
        that cannot play the game, before any game starts.
    :raises InvalidRulesError: for rules the game's ``Board`` refuses.
    :raises ValueError: for an unknown game or a bad count, seed or thread
        count (TypeError for a wrong type).
    """
    robin = _play(
        [parse_player(a), parse_player(b)],
        games,
        game=game,
        seed=seed,
        threads=threads,
        ray=ray,
        chunk_size=chunk_size,
        progress=progress,
        rules=rules,
        pair_seeds=False,
    )
    return robin.pairs[0]


def round_robin(
    players: Sequence[str | Player],
    games: int,
    *,
    game: str = "veletas",
    seed: int = 0,
    threads: int | None = None,
    ray: bool | str = False,
    chunk_size: int | None = None,
    progress: bool | None = None,
    prior: float = 1.0,
    **rules: Any,
) -> RoundRobin:
    """Play ``games`` games between every pair of ``players`` and fit their
    ratings (:attr:`RoundRobin.ratings`), anchored at ``random`` = 0 if it
    plays (else at the first player).

    Pair ``k`` (in the order of :attr:`RoundRobin.pairs`) is the match of
    its two players with the seed ``game_seeds(seed, k)[0]``, so that
    ``match(a, b, games, seed=...)`` replays it. The games of all pairs share
    the threads, game 0 of every pair first, then game 1, and so on, so that a
    round robin stopped early is still balanced. ``prior`` is the drawn games
    added to every pair for the fit. The other arguments are those of
    :func:`match`.

    :raises InvalidPlayerError: for fewer than two players, a player given
        twice, or any player :func:`match` refuses.
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players must be a sequence of specs or Players, not {players!r}")
    parsed = [parse_player(p) for p in players]
    if len(parsed) < 2:
        raise InvalidPlayerError(f"a round robin needs two players or more, not {len(parsed)}")
    names = [p.name for p in parsed]
    for k, name in enumerate(names):
        if name in names[:k]:
            raise InvalidPlayerError(f"player {name!r} is given twice")
    if not (isinstance(prior, int | float) and math.isfinite(prior) and prior >= 0):
        raise ValueError(f"prior must be a number of 0 or more, not {prior!r}")
    return _play(
        parsed,
        games,
        game=game,
        seed=seed,
        threads=threads,
        ray=ray,
        chunk_size=chunk_size,
        progress=progress,
        rules=rules,
        pair_seeds=True,
        prior=float(prior),
    )


def _play(
    players: list[Player],
    games: int,
    *,
    game: str,
    seed: int,
    threads: int | None,
    ray: bool | str,
    chunk_size: int | None,
    progress: bool | None,
    rules: dict[str, Any],
    pair_seeds: bool,
    prior: float = 1.0,
) -> RoundRobin:
    """Check everything, play every pair's games, and gather the results."""
    n = count(games)
    seed = integer("seed", seed)
    if not 0 <= seed < _SEED_LIMIT:
        raise ValueError(f"seed must be in 0 .. 2**64 - 1, not {seed!r}")
    if threads is not None and integer("threads", threads) < 1:
        raise ValueError(f"threads must be 1 or more, not {threads!r}")
    if threads is not None:
        check_threads(threads)
    check_games(n)
    if chunk_size is not None and integer("chunk_size", chunk_size) < 1:
        raise ValueError(f"chunk_size must be 1 or more, not {chunk_size!r}")
    if not isinstance(ray, bool | str):
        raise TypeError(f"ray must be a bool or an address, not {ray!r}")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be a bool or None, not {progress!r}")
    found = _games.get(game)
    board = _check_game(found, players, rules)
    room = found.room("match")
    description, rules_used = room.describe(board), room.rules(board)

    indices = [(i, j) for i in range(len(players)) for j in range(i + 1, len(players))]
    pairings = [
        _Pairing(
            found.name,
            dict(rules),
            (players[i], players[j]),
            game_seeds(seed, k)[0] if pair_seeds else seed,
        )
        for k, (i, j) in enumerate(indices)
    ]
    items = [(k, index) for index in range(n) for k in range(len(pairings))]
    results: list[list[GameResult]] = [[] for _ in pairings]

    from tqdm import tqdm

    clock = time.perf_counter()
    interrupted = False
    with tqdm(
        total=len(items),
        unit=" games",
        file=sys.stderr,
        disable=None if progress is None else not progress,
        leave=False,
    ) as bar:
        score = [0.0, 0.0]  # the running score of a match, for the bar

        def finished(k: int, result: GameResult) -> None:
            results[k].append(result)
            bar.update(1)
            if len(pairings) == 1:
                score[0] += result.a_points
                score[1] += 1 - result.a_points
                bar.set_postfix_str(f"A {score[0]:g} : B {score[1]:g}", refresh=False)

        runner: Iterable[tuple[int, GameResult]]
        if ray is False:
            workers = min(threads or _cores(), max(1, len(items)))
            where = f"{workers} thread{'s' if workers != 1 else ''}"
            runner = _play_threads(pairings, items, workers)
        else:
            where_box: list[str] = []
            runner = _play_ray(pairings, items, ray, threads, chunk_size, where_box)
        try:
            for k, result in runner:
                finished(k, result)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            close = getattr(runner, "close", None)
            if close is not None:
                close()
        if ray is not False:
            where = where_box[0] if where_box else "Ray"
    seconds = time.perf_counter() - clock

    names = [p.name for p in players]
    pairs = tuple(
        MatchResult(
            players=(names[i], names[j]),
            game=found.name,
            rules=rules_used,
            description=description,
            seed=pairing.seed,
            requested=n,
            games=tuple(sorted(results[k], key=lambda g: g.index)),
            interrupted=interrupted,
            seconds=seconds,
            where=where,
            reproducible=players[i].reproducible and players[j].reproducible,
        )
        for k, ((i, j), pairing) in enumerate(zip(indices, pairings, strict=True))
    )
    anchor = "random" if "random" in names else names[0]
    return RoundRobin(tuple(names), pairs, anchor, prior, seed, interrupted, seconds)


def _check_game(found: _games.Game, players: list[Player], rules: dict[str, Any]) -> Any:
    """The start board of the match under ``rules``; raises if a player
    cannot play the game (tried first, on the game's default board, so that
    a game without bots says so whatever the rules) or the rules are bad."""
    new_board = found.api().Board
    for player in players:
        try:
            player.check(new_board())
        except TypeError as error:
            raise InvalidPlayerError(
                f"{found.name} has no bots yet: player {player.name!r} cannot play a "
                f"{found.name} board"
            ) from error
    try:
        return new_board(**rules)
    except TypeError as error:
        raise InvalidRulesError(f"bad rules for {found.name}: {error}") from None


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _play_threads(
    pairings: Sequence[_Pairing], items: Sequence[tuple[int, int]], threads: int
) -> Iterator[tuple[int, GameResult]]:
    """The games ``items`` (pairing, game index) on ``threads`` threads,
    yielded as they finish. Closing the iterator (Ctrl-C) stops the games
    under way after their current move and waits for the threads."""
    todo: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
    for item in items:
        todo.put(item)
    done: queue.SimpleQueue[tuple[int, GameResult] | BaseException] = queue.SimpleQueue()
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            try:
                k, index = todo.get_nowait()
            except queue.Empty:
                return
            try:
                result = pairings[k].play(index, stop)
            except BaseException as error:  # handed to the main thread, which raises it
                done.put(error)
                return
            if result is not None:
                done.put((k, result))

    workers = [
        threading.Thread(target=work, name=f"veletas match {t}", daemon=True)
        for t in range(threads)
    ]
    for worker in workers:
        worker.start()
    try:
        for _ in items:
            while True:
                try:  # a timeout, so that Ctrl-C is seen at once wherever it blocks
                    got = done.get(timeout=0.25)
                    break
                except queue.Empty:
                    continue
            if isinstance(got, BaseException):
                raise got
            yield got
    finally:
        stop.set()
        for worker in workers:
            worker.join()


def _play_ray(
    pairings: Sequence[_Pairing],
    items: Sequence[tuple[int, int]],
    address: bool | str,
    threads: int | None,
    chunk_size: int | None,
    where: list[str],
) -> Iterator[tuple[int, GameResult]]:
    """The games ``items`` as Ray tasks of ``chunk_size`` games, each on
    ``threads`` threads (default 1), yielded as the tasks finish; ``where``
    receives the description of the cluster. Closing the iterator cancels
    the tasks not yet finished."""
    from veletas import distributed

    ray = distributed.require_ray()
    cpus = threads or 1
    with distributed.connect(None if address is True else address or None) as described:
        where.append(described)
        slots = max(1, int(ray.cluster_resources().get("CPU", 1)) // cpus)
        if chunk_size is None:
            chunk_size = min(_RAY_CHUNK_MAX, max(1, math.ceil(len(items) / (4 * slots))))
        task = ray.remote(num_cpus=cpus, max_retries=3, retry_exceptions=[MemoryError])(_play_chunk)
        shared = ray.put(list(pairings))
        chunks = iter(range(0, len(items), chunk_size))
        pending: dict[Any, int] = {}
        try:
            while True:
                while len(pending) < 2 * slots:
                    first = next(chunks, None)
                    if first is None:
                        break
                    chunk = list(items[first : first + chunk_size])
                    name = f"veletas match {first}..{first + len(chunk) - 1}"
                    pending[task.options(name=name).remote(shared, chunk, cpus)] = first
                if not pending:
                    break
                (ready,), _ = ray.wait(list(pending), num_returns=1)
                pending.pop(ready)
                yield from ray.get(ready)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def _play_chunk(
    pairings: list[_Pairing], items: list[tuple[int, int]], threads: int
) -> list[tuple[int, GameResult]]:
    """The body of a Ray task: a chunk of games on this node's threads."""
    return list(_play_threads(pairings, items, threads))
