"""Bots: a Monte Carlo tree search, a one-ply greedy player and a random mover.

Every bot has the same protocol, ``choose(board) -> Move``: the whole turn
(a placement, ``swap``, or a shot with an optional shooter move) for the
player to act on ``board``, which it leaves unchanged. Boards of both
backends are accepted; the move is of the board's own ``Move`` type.

>>> import veletas
>>> board = veletas.Board(variant="small")
>>> bot = veletas.MctsBot(iterations=300, seed=1)
>>> move = bot.choose(board)
>>> move in board.legal_moves
True
>>> bot.last_search.iterations >= 300
True

The engines are native (``veletas._veletas``) and run without the GIL, so
bots in several Python threads search at the same time.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import time
from collections.abc import Callable
from typing import Any, Protocol

from veletas import _veletas, reference

__all__ = ["DEFAULT_SECONDS", "Bot", "GreedyBot", "MctsBot", "RandomBot", "SearchInfo"]

DEFAULT_SECONDS = 1.0
"""The thinking time of :class:`MctsBot` per move when no budget is given."""

_SEED_LIMIT = 1 << 64


class Bot(Protocol):
    """What the command line and the match scripts need of a player."""

    def choose(self, board: Any) -> Any:
        """The move for the player to act on ``board``."""


@dataclasses.dataclass(frozen=True)
class SearchInfo:
    """What :meth:`MctsBot.choose` did for its last move."""

    iterations: int
    """The playouts run, over all threads and the decisions of the turn."""
    seconds: float
    """The wall-clock time the search took."""
    value: float
    """The estimated chance that the player who moved wins, 0 to 1."""
    reused: bool
    """Whether statistics from earlier moves were kept (tree reuse)."""
    nodes: int
    """The nodes held by the search trees after the move."""


def _check_seed(seed: object) -> int:
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= int(seed) < _SEED_LIMIT:
        raise ValueError(f"seed must be in 0 .. 2**64 - 1, got {seed!r}")
    return int(seed)


def _position(board: Any) -> tuple[str, str, bool, bool]:
    """The fen, setup rule, line rule and swap flag of a board; refuses a
    finished game."""
    if not isinstance(board, _veletas.Board | reference.Board):
        raise TypeError(f"expected a veletas Board, not {type(board).__name__}")
    fen = board.fen()
    if board.is_game_over():
        raise ValueError(f"the game is over in {fen!r}: there is no move to choose")
    rules = board.rules
    swapped = any(move.is_swap for move in board.move_stack)
    return fen, rules.setup_rule, rules.shooters_block, swapped


def _move(board: Any, text: str | None) -> Any:
    if text is None:  # _position() refused finished games already
        raise ValueError(f"no legal move in {board.fen()!r}")
    move_type = reference.Move if isinstance(board, reference.Board) else _veletas.Move
    return move_type.parse(text)


class _OnePlyBot:
    """A bot whose native engine picks the move from one stream draw per move:
    game ``seed``'s stream, advanced by the moves this bot has chosen."""

    _engine: Callable[[str, str, bool, int, int], str | None]

    def __init__(self, seed: int = 0) -> None:
        self.seed = _check_seed(seed)
        self._moves = 0

    def choose(self, board: Any) -> Any:
        """The bot's move for the player to act on ``board``.

        :raises ValueError: if the game is over.
        """
        fen, setup_rule, shooters_block, _ = _position(board)
        text = type(self)._engine(fen, setup_rule, shooters_block, self.seed, self._moves)
        self._moves += 1
        return _move(board, text)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.seed})"


class RandomBot(_OnePlyBot):
    """Plays a uniformly random legal move, from the stream of ``seed``.

    >>> import veletas
    >>> board = veletas.Board(variant="small")
    >>> veletas.RandomBot(7).choose(board) == veletas.RandomBot(7).choose(board)
    True
    """

    _engine = staticmethod(_veletas.random_move)


class GreedyBot(_OnePlyBot):
    """Looks one move ahead: takes a winning move if there is one, else the
    move that wins the most claims net of the claims it hands over to the
    opponent; ties (most moves, most of the time) are broken at random from
    the stream of ``seed``.

    >>> import veletas
    >>> board = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    >>> move = veletas.GreedyBot(0).choose(board)   # the claim that wins
    >>> board.push(move); board.winner
    <Color.BLACK: 0>
    """

    _engine = staticmethod(_veletas.greedy_move)


class MctsBot:
    """Monte Carlo tree search: UCT with uniformly random playouts.

    The search runs over the micro-decisions of a turn (a shooter or
    ``PASS``, its destination, the target), so that no node has more than
    N * N + 2 children. A turn's decisions share the budget.

    :param seconds: thinking time per move.
    :param iterations: playouts per move and thread; with both, the search
        stops at whichever runs out first; with neither, it thinks for
        :data:`DEFAULT_SECONDS`.
    :param threads: independent trees searched in parallel and merged by
        visit counts at the root.
    :param seed: the random streams; with ``iterations``, no ``seconds`` and
        one thread, the bot plays the same moves for the same seed.
    :param exploration: the UCT constant (default 0.7, see ``docs/bots.md``).
    :raises ValueError: for a budget that is not positive, ``threads`` below 1,
        a seed outside 0 .. 2**64 - 1 or a negative exploration constant.

    The bot keeps its search trees from one move to the next: when it is
    asked about a position that its tree already explored (its own last move
    and the opponent's reply), the statistics below that position are kept.

    >>> import veletas
    >>> MctsBot(iterations=1000, seed=3)
    MctsBot(iterations=1000, threads=1, seed=3)
    >>> MctsBot(seconds=0)
    Traceback (most recent call last):
    ...
    ValueError: seconds must be a positive number, got 0
    """

    seconds: float | None
    iterations: int | None
    threads: int
    seed: int
    exploration: float | None
    last_search: SearchInfo | None
    _player: _veletas.MctsPlayer

    def __init__(
        self,
        seconds: float | None = None,
        iterations: int | None = None,
        threads: int = 1,
        seed: int = 0,
        exploration: float | None = None,
    ) -> None:
        if seconds is not None:
            if not isinstance(seconds, numbers.Real) or isinstance(seconds, bool):
                raise TypeError(f"seconds must be a number, not {type(seconds).__name__}")
            if not (math.isfinite(seconds) and seconds > 0):
                raise ValueError(f"seconds must be a positive number, got {seconds!r}")
        if iterations is not None:
            if not isinstance(iterations, numbers.Integral) or isinstance(iterations, bool):
                raise TypeError(f"iterations must be an int, not {type(iterations).__name__}")
            if iterations < 1:
                raise ValueError(f"iterations must be 1 or more, got {iterations!r}")
        if not isinstance(threads, numbers.Integral) or isinstance(threads, bool):
            raise TypeError(f"threads must be an int, not {type(threads).__name__}")
        if threads < 1:
            raise ValueError(f"threads must be 1 or more, got {threads!r}")
        kwargs: dict[str, Any] = {"threads": int(threads), "seed": _check_seed(seed)}
        if exploration is not None:
            if not (isinstance(exploration, numbers.Real) and math.isfinite(exploration)):
                raise ValueError(f"exploration must be a finite number, got {exploration!r}")
            if exploration < 0:
                raise ValueError(f"exploration must be 0 or more, got {exploration!r}")
            kwargs["exploration"] = float(exploration)
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        self.seconds = None if seconds is None else float(seconds)
        self.iterations = None if iterations is None else int(iterations)
        self.threads = int(threads)
        self.seed = kwargs["seed"]
        self.exploration = exploration
        self._player = _veletas.MctsPlayer(**kwargs)
        self.last_search = None
        """What the last :meth:`choose` did; None before the first."""

    def choose(self, board: Any) -> Any:
        """The move the search finds best for the player to act on ``board``.

        :raises ValueError: if the game is over.
        """
        fen, setup_rule, shooters_block, swapped = _position(board)
        start = time.perf_counter()
        found = self._player.choose(
            fen,
            setup_rule,
            shooters_block,
            swapped,
            iterations=self.iterations,
            seconds=self.seconds,
        )
        elapsed = time.perf_counter() - start
        if found is None:  # pragma: no cover - is_game_over() said otherwise
            raise ValueError(f"no legal move in {fen!r}")
        text, iterations, value, reused, nodes = found
        self.last_search = SearchInfo(iterations, elapsed, value, reused, nodes)
        return _move(board, text)

    def reset(self) -> None:
        """Forget the search trees (say, before a new game)."""
        self._player.clear()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickles as its configuration: the copy searches with the same
        budget, threads, seed and exploration constant, from empty trees and
        with no :attr:`last_search`."""
        return MctsBot, (self.seconds, self.iterations, self.threads, self.seed, self.exploration)

    def __repr__(self) -> str:
        budget = []
        if self.seconds is not None:
            budget.append(f"seconds={self.seconds!r}")
        if self.iterations is not None:
            budget.append(f"iterations={self.iterations!r}")
        extra = "" if self.exploration is None else f", exploration={self.exploration!r}"
        return f"MctsBot({', '.join(budget)}, threads={self.threads}, seed={self.seed}{extra})"
