"""Game review: the bot's chance to win before and after every move of a
recorded game, its preferred move, and the mistakes (``docs/review.md``).

>>> import veletas
>>> record = veletas.records.GameRecord.from_moves(
...     veletas.Rules(size=7, shooters=3), ["*c3", "g7", "swap", "*e5", "*d4", "a1"]
... )
>>> result = veletas.review(record, iterations=300, seconds=None)
>>> len(result.moves), len(result.chances)
(6, 7)
>>> all(0.0 <= row.before <= 1.0 and 0.0 <= row.after <= 1.0 for row in result.moves)
True

Chances are the players' (seats'), not the colours': under the pie rule the
player who swaps changes colour, and their chance goes with them. Seat 0 is
the player who moved first. A position's chance is the mean value of its
moves weighted by their playouts (the root's value: the most visited move's
own value is the best of many noisy estimates, and too high); 1 where the
search proved a move won, 0 where it proved every move lost; a finished
position's is its result. The preferred move is the one the bot plays.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import os
from collections.abc import Callable
from typing import Any

from veletas import games as registry
from veletas import records
from veletas._checks import shown
from veletas.bots import Analysis, MctsBot
from veletas.errors import InvalidRecordError

__all__ = [
    "DEFAULT_REVIEW_SECONDS",
    "DEFAULT_THRESHOLD",
    "EVERY_MOVE",
    "Evaluation",
    "MoveReview",
    "Review",
    "chance_of",
    "evaluate",
    "review",
    "signed",
]

DEFAULT_REVIEW_SECONDS = 0.5
"""The search time per position of a review when no budget is given."""

DEFAULT_THRESHOLD = 0.15
"""The drop of the mover's chance to win that marks a move a mistake."""


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """What the search thinks of one position."""

    seat: int | None
    """The seat to act (0: the first player), None when the game is over."""
    chance: float
    """The chance that the seat to act wins (a finished game: the first
    player's, 1 or 0)."""
    best: Any | None
    """The move the search prefers, None when the game is over."""
    proven: str | None
    """``"win"`` or ``"loss"`` for the seat to act when the search proved it."""
    line: list[Any]
    """The principal variation from here, when the search gives one."""
    analysis: Analysis | None = None
    """The search's analysis of every move searched, the move played first."""

    @property
    def known(self) -> bool:
        """Whether the chance is known: the game is over, or the search
        tried a move (one too short to try any knows nothing, and says one
        half)."""
        return self.seat is None or self.best is not None

    @property
    def first(self) -> float:
        """The first player's chance to win."""
        if self.seat is None or self.seat == 0:
            return self.chance
        return 1.0 - self.chance

    def of(self, seat: int) -> float:
        """The chance of ``seat`` (0 or 1) to win."""
        return self.first if seat == 0 else 1.0 - self.first


@dataclasses.dataclass(frozen=True)
class MoveReview:
    """One move of a :class:`Review`."""

    ply: int
    """The move's number in the game, from 1."""
    move: Any
    """The move played."""
    colour: str
    """The colour that moved, as the game's records name it (``Black``)."""
    seat: int
    """The player who moved: 0 the first, 1 the second."""
    before: float
    """The mover's chance to win before the move."""
    after: float
    """The mover's chance to win after it."""
    best: Any | None
    """The move the search preferred in the position before."""
    proven: str | None
    """What the search proved of the position before, for the mover."""
    line: list[Any]
    """The principal variation the search saw before the move, if it gives one."""
    mistake: bool
    """Whether the drop is above the review's threshold and the move is
    not the one the search preferred."""

    @property
    def drop(self) -> float:
        """How much the move cost the mover: ``before - after``."""
        return self.before - self.after


@dataclasses.dataclass(frozen=True)
class Review:
    """A reviewed game: :func:`review`'s result."""

    game: str
    """The game's title (``Veletas``, ``Meridians``)."""
    players: tuple[str, str]
    """The names of the first and the second player."""
    result: str
    """The record's result tag."""
    moves: list[MoveReview]
    """Every move, in order."""
    chances: list[float]
    """The first player's chance to win at every position, from the start:
    one more than the moves."""
    threshold: float
    """The drop that marks a mistake."""
    seconds: float | None
    """The search time per position."""
    iterations: int | None
    """The playouts per position, if that was the budget."""
    boards: list[Any] = dataclasses.field(default_factory=list, repr=False)
    """The positions of the game, from the start (the moves on their stacks)."""

    @property
    def mistakes(self) -> list[MoveReview]:
        """The moves marked as mistakes."""
        return [row for row in self.moves if row.mistake]

    def table(self) -> str:
        """The review as a text table, one line a move."""
        names = " vs ".join(
            f"{name} ({label})" for name, label in zip(self.players, _SEATS, strict=True)
        )
        budget = _budget(self.seconds, self.iterations)
        head = [
            f"{self.game}: {names}, result {self.result}; {budget} a position, "
            f"mistakes: a drop over {self.threshold:.0%}",
            "",
            f"{'ply':>4}  {'player':<12} {'move':<14} {'before':>7} {'after':>7} "
            f"{'drop':>6}  {'preferred':<14} note",
        ]
        lines = []
        for row in self.moves:
            player = f"{_SEATS[row.seat]} {row.colour}"
            best = "" if row.best is None else str(row.best)
            note = "mistake" if row.mistake else ""
            if row.best is None:  # the search ended before it tried a move
                note = "no move tried in time"
            if row.proven is not None:
                note = f"{note}, proven {row.proven}" if note else f"proven {row.proven}"
            lines.append(
                f"{row.ply:>4}  {player:<12} {row.move!s:<14} {row.before:>7.0%} "
                f"{row.after:>7.0%} {signed(row.drop):>6}  {best:<14} {note}".rstrip()
            )
        found = self.mistakes
        tail = ["", f"{len(found)} mistake(s)" + (":" if found else "")]
        tail += [
            f"  {row.ply}. {row.move} ({self.players[row.seat]}): {row.before:.0%} -> "
            f"{row.after:.0%}, preferred {row.best}"
            + (f" (line {' '.join(str(move) for move in row.line)})" if row.line else "")
            for row in found
        ]
        return "\n".join(head + lines + tail)


_SEATS = ("first", "second")

EVERY_MOVE = 1 << 16
"""More moves than a position has: an analysis of all the moves searched."""


def signed(drop: float) -> str:
    """A drop of the chance as a signed percentage; none shown as ``0%``."""
    text = f"{drop:+.0%}"
    return "0%" if text in ("+0%", "-0%") else text


def _budget(seconds: float | None, iterations: int | None) -> str:
    parts = []
    if seconds is not None:
        parts.append(f"{seconds:g} s")
    if iterations is not None:
        parts.append(f"{iterations:,} playouts")
    return " or ".join(parts)


def evaluate(bot: MctsBot, board: Any, *, stop: Any = None) -> Evaluation:
    """What ``bot`` thinks of the position of ``board`` (any game): an
    analysis within the bot's budget, or the result of a finished game."""
    game = registry.game_of(board)
    if board.is_game_over():
        winner = board.winner
        won = None if winner is None else int(winner) ^ _swapped(board)
        return Evaluation(None, 0.5 if won is None else float(won == 0), None, None, [])
    seat = game.match.seat_to_act(board, _swapped(board))
    analysis = bot.analyse(board, top=EVERY_MOVE, stop=stop)
    return _evaluation(seat, analysis)


def chance_of(analysis: Analysis) -> float:
    """The chance that the player to act wins, from an analysis of all the
    moves searched: 1 where a move is proven won, 0 where every move is
    proven lost, else the mean of the moves' values weighted by their
    playouts; one half when the search had no time to try a move."""
    if not analysis.moves:
        return 0.5
    best = analysis.moves[0]
    proven = [getattr(stats, "proven", None) for stats in analysis.moves]
    if "win" in proven:
        return 1.0
    if all(result == "loss" for result in proven):
        return 0.0
    visits = sum(stats.visits for stats in analysis.moves)
    if not visits:
        return float(best.value)
    return sum(stats.visits * stats.value for stats in analysis.moves) / visits


def _evaluation(seat: int, analysis: Analysis) -> Evaluation:
    """The evaluation of an analysis; a search too short to try a move knows
    no preferred move and proves nothing."""
    if not analysis.moves:
        return Evaluation(seat, chance_of(analysis), None, None, [], analysis)
    best = analysis.moves[0]
    results = [getattr(stats, "proven", None) for stats in analysis.moves]
    proven = "win" if "win" in results else "loss" if all(r == "loss" for r in results) else None
    line = list(getattr(analysis, "principal_variation", None) or [])
    return Evaluation(seat, chance_of(analysis), best.move, proven, line, analysis)


def _swapped(board: Any) -> bool:
    return any(move.is_swap for move in board.move_stack)


def _check_threshold(threshold: object) -> float:
    if not isinstance(threshold, numbers.Real) or isinstance(threshold, bool):
        raise TypeError(f"threshold must be a number, not {type(threshold).__name__}")
    value = float(threshold)
    if not (math.isfinite(value) and 0 < value < 1):
        raise ValueError(f"threshold must be a number between 0 and 1, got {threshold!r}")
    return value


def review(
    record: records.GameRecord | str | os.PathLike[str],
    *,
    seconds: float | None = DEFAULT_REVIEW_SECONDS,
    iterations: int | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    threads: int = 1,
    seed: int = 0,
    number: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a game: search every position of ``record`` (a
    :class:`~veletas.records.GameRecord`, or a record file's path, of which
    game ``number`` counts from 1) and give, for every move, the mover's
    chance to win before and after it and the move the search preferred.

    :param seconds: the search time per position (None: ``iterations`` only).
    :param iterations: the playouts per position and thread; with both, the
        search stops at whichever runs out first.
    :param threshold: the drop of the mover's chance, 0 to 1, above which a
        move that is not the preferred one is a mistake.
    :param progress: called with (positions done, positions) after each one.
    :raises InvalidRecordError: for a record that cannot be read, naming the line.
    :raises ValueError: for a bad budget or threshold, or a ``number`` past
        the file's games.
    """
    threshold = _check_threshold(threshold)
    if seconds is None and iterations is None:
        raise ValueError("give seconds or iterations (or both) for the search")
    if not isinstance(record, records.GameRecord):
        record = _read(record, number)
    bot = MctsBot(seconds=seconds, iterations=iterations, threads=threads, seed=seed)
    room = registry.by_title(record.game).records
    boards = list(record.boards())
    evaluations: list[Evaluation] = []
    for done, board in enumerate(boards, start=1):
        evaluations.append(evaluate(bot, board))
        if progress is not None:
            progress(done, len(boards))
    rows = []
    for ply, move in enumerate(record.moves, start=1):
        board, before, after = boards[ply - 1], evaluations[ply - 1], evaluations[ply]
        seat = before.seat if before.seat is not None else 0
        chance_before, chance_after = before.of(seat), after.of(seat)
        preferred = before.best is not None and str(before.best) == str(move)
        rows.append(
            MoveReview(
                ply=ply,
                move=move,
                colour=room.PLAYERS[int(board.turn)],
                seat=seat,
                before=chance_before,
                after=chance_after,
                best=before.best,
                proven=before.proven,
                line=before.line,
                mistake=chance_before - chance_after > threshold
                and not preferred
                and before.known
                and after.known,
            )
        )
    swapped = _swapped(boards[-1])
    first, second = room.PLAYERS[int(swapped)], room.PLAYERS[1 - int(swapped)]
    return Review(
        game=record.game,
        players=(record.tags.get(first, "?"), record.tags.get(second, "?")),
        result=record.result,
        moves=rows,
        chances=[evaluation.first for evaluation in evaluations],
        threshold=threshold,
        seconds=bot.seconds,
        iterations=bot.iterations,
        boards=boards,
    )


def _read(path: str | os.PathLike[str], number: int) -> records.GameRecord:
    """Game ``number`` (from 1) of a record file."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"number must be an int, not {type(number).__name__}")
    if number < 1:
        raise ValueError(f"number must be 1 or more (games count from 1), got {shown(number)}")
    from veletas import datasets

    if datasets.is_dataset(path):
        try:
            return datasets.read_game(path, number - 1)
        except IndexError as error:
            raise InvalidRecordError(str(error)) from None
    try:
        return records.read_game(os.fspath(path), number - 1)
    except IndexError:
        held = sum(1 for _ in records.iter_blocks(os.fspath(path)))
        raise InvalidRecordError(
            f"{os.fspath(path)} holds {held} game(s), not {shown(number)}"
        ) from None
