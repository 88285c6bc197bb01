"""What matches give (:mod:`veletas.match`): each game's
:class:`GameResult`, a match's :class:`MatchResult` and a round robin's
:class:`RoundRobin`, with their summaries as text and plain data."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from veletas import games as registry
from veletas.playouts import Estimate, wilson
from veletas.sprt import SprtResult

if TYPE_CHECKING:
    from veletas.records import GameRecord
from veletas.ratings import Z95, Elo, _estimate, _finite, _percent, _signed, elo, fit_ratings

__all__ = ["GameResult", "MatchResult", "Rating", "RoundRobin"]


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
    openings: int = 0
    """The openings the games started from (:mod:`veletas.openings`), each
    played twice, the seats swapped; 0 for games from the start."""
    sprt: SprtResult | None = None
    """The sequential test on the pairs, when one ran (:mod:`veletas.sprt`):
    the match stopped once it decided."""

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
            "openings": self.openings,
            "sprt": None if self.sprt is None else self.sprt.summary(),
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
        room = registry.get(self.game).room("match")
        if not hasattr(room, "record"):
            raise ValueError(f"{self.game} games cannot be written as records yet")
        new_board = registry.get(self.game).api().Board
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
            *(
                [f"openings      {self.openings:,}, each played twice, the seats swapped"]
                if self.openings
                else []
            ),
            f"score         A {a_points:g}, B {b_points:g}",
            f"A's score     {_percent(self.win_rate)}",
            f"Elo A - B     {_elo_text(self.elo)}",
            *([f"SPRT          {self.sprt.text()}"] if self.sprt is not None else []),
            f"A first       {_percent(self.rate_as(first=True))}",
            f"A second      {_percent(self.rate_as(first=False))}",
            f"first player  {_percent(self.first_player_win_rate)}",
        ]
        room = registry.get(self.game)
        if room.options.has_pie_rule(room.api().Board(**self.rules).rules):
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
                float(r - Z95 * e),
                float(r + Z95 * e),
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
