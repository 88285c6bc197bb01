"""Bots: a Monte Carlo tree search, a one-ply greedy player and a random mover.

Every bot has the same protocol, ``choose(board) -> Move``: the whole turn
for the player to act on ``board``, which it leaves unchanged. Boards of
both games (Veletas and Meridians) and both backends are accepted; the move
is of the board's own ``Move`` type.

>>> import veletas
>>> board = veletas.Board(variant="small")
>>> bot = veletas.MctsBot(iterations=300, seed=1)
>>> move = bot.choose(board)
>>> move in board.legal_moves
True
>>> bot.last_search.iterations >= 300
True

The engines are native (``veletas._veletas``) and run without the GIL, so
bots in several Python threads search at the same time. A search in one
thread can be ended from another with a :class:`StopFlag`:

>>> import threading
>>> stop = StopFlag()
>>> bot = veletas.MctsBot(seconds=3600)
>>> threading.Timer(0.05, stop.set).start()
>>> bot.choose(board, stop=stop) in board.legal_moves   # after about 0.05 s
True
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import time
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from veletas import games as registry
from veletas._checks import shown
from veletas._implementation import require_native
from veletas.limits import (
    DEFAULT_SECONDS,
    check_cutoff,
    check_iterations,
    check_seconds,
    check_threads,
    check_tree_nodes,
)

require_native("veletas.bots")
from veletas import _veletas  # noqa: E402  (after the check: its error names the user)

__all__ = [
    "ALGORITHMS",
    "DEFAULT_SECONDS",
    "DEFAULT_SOLVE_SHARE",
    "Analysis",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "MoveStats",
    "RandomBot",
    "SearchInfo",
    "StopFlag",
]

DEFAULT_SOLVE_SHARE = 0.1
"""The share of each move's budget that :class:`MctsBot` gives the exact
solver first (its ``solve_share``), as measured in ``docs/bots.md``."""

StopFlag = _veletas.StopFlag
"""A flag that ends a search early when it is raised from another thread
(``set()``; also ``clear()`` and ``is_set()``, as ``threading.Event``)."""

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


@dataclasses.dataclass(frozen=True)
class MoveStats:
    """One move of an :class:`Analysis`."""

    move: Any
    """The move, of the board's own ``Move`` type."""
    visits: int
    """The playouts that went through the whole move."""
    share: float
    """``visits`` as a share of the playouts of the position, 0 to 1."""
    value: float
    """The estimated chance that the player to act wins after the move, 0 to 1."""
    proven: str | None = None
    """What the solver proved of the move for the player to act: ``"win"``
    (a forced win whatever the opponent does), ``"loss"`` (a forced loss
    whatever the player does later), or None (not proven; always None with
    ``algorithm="uct"``)."""


@dataclasses.dataclass(frozen=True)
class Analysis:
    """What :meth:`MctsBot.analyse` found: the move the bot plays first."""

    moves: list[MoveStats]
    """The move :meth:`MctsBot.choose` plays with the same budget and seed,
    then the other moves searched, most visited first."""
    visits: int
    """The playouts that went through the position (reused ones included)."""
    iterations: int
    """The playouts this analysis ran (fewer than the budget once the
    position is solved)."""
    seconds: float
    """The wall-clock time it took."""
    principal_variation: list[Any] = dataclasses.field(default_factory=list)
    """The line the search would play from the position: whole moves, of the
    board's own ``Move`` type, for both players in turn, starting with the
    move played, as far as the search tree goes (a last turn it does not
    complete is left out)."""


ALGORITHMS = ("mcts", "uct")
"""The searches of :class:`MctsBot`: ``mcts`` (the default, UCT with an MCTS
solver) and ``uct`` (plain UCT, the fixed baseline)."""

_PROVEN = {True: "win", False: "loss", None: None}


def _check_stop(stop: object) -> Any:
    if stop is not None and not isinstance(stop, _veletas.StopFlag):
        raise TypeError(f"stop must be a veletas.bots.StopFlag, not {type(stop).__name__}")
    return stop


def _check_seed(seed: object) -> int:
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= int(seed) < _SEED_LIMIT:
        raise ValueError(f"seed must be in 0 .. 2**64 - 1, got {shown(seed)}")
    return int(seed)


@dataclasses.dataclass(frozen=True)
class _Position:
    """What the native engines need of a board: its game, its position
    string, its rule options and whether the pie swap was played."""

    game: str
    fen: str
    options: tuple[Any, ...]
    """The rule options the game's engines take (its room's ``engine_options``)."""
    swapped: bool


def _position(board: Any) -> _Position:
    """The position of a board of any game; refuses a finished game."""
    try:
        game = registry.game_of(board)
    except TypeError:
        raise TypeError(f"expected a veletas Board, not {type(board).__name__}") from None
    fen = board.fen()
    if board.is_game_over():
        raise ValueError(f"the game is over in {fen!r}: there is no move to choose")
    options = game.options.engine_options(board)
    swapped = any(move.is_swap for move in board.move_stack)
    return _Position(game.name, fen, options, swapped)


def _move(board: Any, text: str | None) -> Any:
    if text is None:  # _position() refused finished games already
        raise ValueError(f"no legal move in {board.fen()!r}")
    game = registry.game_of(board)
    reference = game.reference()
    move_type = reference.Move if isinstance(board, reference.Board) else game.bots.move_type()
    return move_type.parse(text)


class _OnePlyBot:
    """A bot whose native engine picks the move from one stream draw per move:
    game ``seed``'s stream, advanced by the moves this bot has chosen."""

    _engine: ClassVar[str]
    """The member of a game's :class:`veletas.games.BotsRoom` that chooses."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = _check_seed(seed)
        self._moves = 0

    def choose(self, board: Any) -> Any:
        """The bot's move for the player to act on ``board``.

        :raises ValueError: if the game is over.
        """
        position = _position(board)
        engine: Callable[..., str | None] = getattr(
            registry.get(position.game).bots, type(self)._engine
        )
        text = engine(position.fen, *position.options, self.seed, self._moves)
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

    _engine: ClassVar[str] = "random_move"


class GreedyBot(_OnePlyBot):
    """Looks one move ahead: takes a winning move if there is one, else the
    best move by a one-ply score (Veletas: the most claims net of the claims
    it hands over to the opponent; Meridians: the most own stones net of the
    opponent's, which keeps its groups alive); ties are broken at random
    from the stream of ``seed``.

    >>> import veletas
    >>> board = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    >>> move = veletas.GreedyBot(0).choose(board)   # the claim that wins
    >>> board.push(move); board.winner
    <Color.BLACK: 0>
    """

    _engine: ClassVar[str] = "greedy_move"


class MctsBot:
    """Monte Carlo tree search: UCT with uniformly random playouts and, by
    default, proof backups (wins and losses proven in the tree, MCTS-Solver).

    The search runs over the decisions of the game's action encoding: in
    Veletas the micro-decisions of a turn (a shooter or ``PASS``, its
    destination, the target), which share the budget, so that no node has
    more than N * N + 2 children; in Meridians a move is one decision.

    The solver (``algorithm="mcts"``) proves the wins and losses that the
    tree reaches and backs them up (a seat that acts several times in a row
    is followed seat by seat): a proven win is played, a proven loss is
    avoided while another move is not lost, and a proven position is not
    played out again. ``algorithm="uct"`` is plain UCT, the baseline that
    strength figures are measured against (``docs/bots.md``).

    :param seconds: thinking time per move.
    :param iterations: playouts per move and thread; with both, the search
        stops at whichever runs out first; with neither, it thinks for
        :data:`DEFAULT_SECONDS`.
    :param threads: search threads: ``"mcts"``'s grow one tree together,
        ``"uct"``'s one tree each, merged by visit counts at the root.
    :param seed: the random streams; with ``iterations``, no ``seconds`` and
        one thread, the bot plays the same moves for the same seed.
    :param exploration: the UCT constant (default: the game's own,
        ``games.get(game).bots.mcts_player.DEFAULT_EXPLORATION`` for
        ``"mcts"`` with its cutoff, ``UCT_EXPLORATION`` for ``"uct"`` and
        for ``cutoff=0``; the values are in ``docs/bots.md``).
    :param max_nodes: the most nodes one search tree holds (24 bytes each;
        default 8 million); a full tree stops growing and keeps refining
        its statistics.
    :param algorithm: ``"mcts"`` (the default) or ``"uct"``, see above.
    :param solve_share: with ``"mcts"``, the share of each move's budget
        that the exact solver (:func:`veletas.solve`) gets first, its nodes
        counted as playouts: a win it proves is played, and the tree search
        gets the rest of the budget otherwise (default
        :data:`DEFAULT_SOLVE_SHARE`; 0 turns it off; ``docs/bots.md``).
    :param cutoff: with ``"mcts"``, the random decisions a playout takes
        before the game's static estimate scores it, instead of playing on
        to the end (default: the game's own,
        ``games.get(game).bots.mcts_player.DEFAULT_CUTOFF``, as measured in
        ``docs/bots.md``; 0 plays every playout to the end, as ``"uct"``
        always does).
    :raises ValueError: for an unknown ``algorithm``, a budget outside the
        limits of :mod:`veletas.limits` (a :class:`~veletas.errors.LimitError`),
        ``threads`` below 1, a seed outside 0 .. 2**64 - 1, a negative
        exploration constant, ``max_nodes`` below 1, a ``solve_share``
        outside 0 .. 1, a ``cutoff`` outside 0 .. :data:`~veletas.limits.MAX_CUTOFF`
        or a ``cutoff`` with ``"uct"``.

    The bot keeps its search trees from one move to the next: when it is
    asked about a position that its tree already explored (its own last move
    and the opponent's reply), the statistics below that position are kept.

    >>> import veletas
    >>> MctsBot(iterations=1000, seed=3)
    MctsBot(iterations=1000, threads=1, seed=3)
    >>> MctsBot(seconds=0)
    Traceback (most recent call last):
    ...
    veletas.errors.LimitError: seconds must be a number of 1e-06 to 1e+06, not 0.0
    """

    seconds: float | None
    iterations: int | None
    threads: int
    seed: int
    exploration: float | None
    algorithm: str
    solve_share: float | None
    cutoff: int | None
    last_search: SearchInfo | None
    _players: dict[str, registry.SearchPlayer]
    _kwargs: dict[str, Any]

    def __init__(
        self,
        seconds: float | None = None,
        iterations: int | None = None,
        threads: int = 1,
        seed: int = 0,
        exploration: float | None = None,
        max_nodes: int | None = None,
        algorithm: str = "mcts",
        solve_share: float | None = None,
        cutoff: int | None = None,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be 'mcts' or 'uct', got {algorithm!r}")
        if seconds is not None:
            seconds = check_seconds(seconds)
        if iterations is not None:
            iterations = check_iterations(iterations)
        if not isinstance(threads, numbers.Integral) or isinstance(threads, bool):
            raise TypeError(f"threads must be an int, not {type(threads).__name__}")
        if threads < 1:
            raise ValueError(f"threads must be 1 or more, got {shown(threads)}")
        check_threads(threads)
        kwargs: dict[str, Any] = {
            "algorithm": algorithm,
            "threads": int(threads),
            "seed": _check_seed(seed),
        }
        if exploration is not None:
            if not (isinstance(exploration, numbers.Real) and math.isfinite(exploration)):
                raise ValueError(f"exploration must be a finite number, got {exploration!r}")
            if exploration < 0:
                raise ValueError(f"exploration must be 0 or more, got {exploration!r}")
            kwargs["exploration"] = float(exploration)
        if max_nodes is not None:
            kwargs["max_nodes"] = check_tree_nodes(max_nodes)
        if solve_share is not None:
            if not (isinstance(solve_share, numbers.Real) and 0 <= solve_share <= 1):
                raise ValueError(f"solve_share must be a number of 0 to 1, got {solve_share!r}")
            kwargs["solve_share"] = float(solve_share)
        if cutoff is not None:
            if algorithm == "uct":
                raise ValueError(
                    "cutoff is for mcts: uct, the fixed baseline, plays every playout to the end"
                )
            kwargs["cutoff"] = cutoff = check_cutoff(cutoff)
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        self.seconds = None if seconds is None else float(seconds)
        self.iterations = None if iterations is None else int(iterations)
        self.threads = int(threads)
        self.seed = kwargs["seed"]
        self.exploration = exploration
        self.algorithm = algorithm
        self.solve_share = None if solve_share is None else float(solve_share)
        self.cutoff = cutoff
        self._kwargs = kwargs
        self._players = {}
        self.last_search = None
        """What the last :meth:`choose` did; None before the first."""

    def choose(self, board: Any, *, stop: StopFlag | None = None) -> Any:
        """The move the search finds best for the player to act on ``board``.

        :param stop: a :class:`StopFlag`; once another thread raises it, the
            search ends and the best move found so far is played.
        :raises ValueError: if the game is over.
        """
        position = _position(board)
        player = self._player_for(position.game)
        start = time.perf_counter()
        found = player.choose(
            position.fen,
            *position.options,
            position.swapped,
            iterations=self.iterations,
            seconds=self.seconds,
            stop=_check_stop(stop),
        )
        fen = position.fen
        elapsed = time.perf_counter() - start
        if found is None:  # pragma: no cover - is_game_over() said otherwise
            raise ValueError(f"no legal move in {fen!r}")
        text, iterations, value, reused, nodes = found
        self.last_search = SearchInfo(iterations, elapsed, value, reused, nodes)
        return _move(board, text)

    def _player_for(self, game: str) -> registry.SearchPlayer:
        """The native search of ``game``, made when first needed."""
        player = self._players.get(game)
        if player is None:
            native = registry.get(game).bots.mcts_player
            player = self._players[game] = native(**self._kwargs)
        return player

    def analyse(self, board: Any, *, top: int = 5, stop: StopFlag | None = None) -> Analysis:
        """Search the position of ``board`` as :meth:`choose` does, within the
        same budget, without playing: the move :meth:`choose` would play,
        then the most visited other whole moves, ``top`` in all, with their
        share of the playouts and their estimated chance to win. The
        statistics are kept for the bot's next move.

        >>> import veletas
        >>> board = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
        >>> analysis = veletas.MctsBot(iterations=3000, seed=1).analyse(board, top=3)
        >>> len(analysis.moves), all(m.move in board.legal_moves for m in analysis.moves)
        (3, True)
        >>> played = veletas.MctsBot(iterations=3000, seed=1).choose(board)
        >>> analysis.moves[0].move == analysis.principal_variation[0] == played
        True
        >>> analysis.moves[1].visits >= analysis.moves[2].visits
        True

        :param top: how many moves to list, 1 or more.
        :param stop: a :class:`StopFlag` that ends the search early.
        :raises ValueError: if the game is over or ``top`` is below 1.
        """
        if not isinstance(top, numbers.Integral) or isinstance(top, bool):
            raise TypeError(f"top must be an int, not {type(top).__name__}")
        if top < 1:
            raise ValueError(f"top must be 1 or more, got {shown(top)}")
        position = _position(board)
        fen = position.fen
        start = time.perf_counter()
        found = self._player_for(position.game).analyse(
            fen,
            *position.options,
            position.swapped,
            iterations=self.iterations,
            seconds=self.seconds,
            stop=_check_stop(stop),
            top=int(top),
        )
        elapsed = time.perf_counter() - start
        if found is None:  # pragma: no cover - is_game_over() said otherwise
            raise ValueError(f"no legal move in {fen!r}")
        moves, visits, iterations, line = found
        stats = [
            MoveStats(_move(board, text), count, count / max(visits, 1), value, _PROVEN[proven])
            for text, count, value, proven in moves
        ]
        return Analysis(stats, visits, iterations, elapsed, [_move(board, text) for text in line])

    def reset(self) -> None:
        """Forget the search trees (say, before a new game)."""
        for player in self._players.values():
            player.clear()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickles as its configuration: the copy searches with the same
        budget, threads, seed and exploration constant, from empty trees and
        with no :attr:`last_search`."""
        return MctsBot, (
            self.seconds,
            self.iterations,
            self.threads,
            self.seed,
            self.exploration,
            self._kwargs.get("max_nodes"),
            self.algorithm,
            self.solve_share,
            self.cutoff,
        )

    def __repr__(self) -> str:
        budget = []
        if self.seconds is not None:
            budget.append(f"seconds={self.seconds!r}")
        if self.iterations is not None:
            budget.append(f"iterations={self.iterations!r}")
        extra = "" if self.exploration is None else f", exploration={self.exploration!r}"
        if self.algorithm != "mcts":
            extra += f", algorithm={self.algorithm!r}"
        if self.solve_share is not None:
            extra += f", solve_share={self.solve_share!r}"
        if self.cutoff is not None:
            extra += f", cutoff={self.cutoff!r}"
        return f"MctsBot({', '.join(budget)}, threads={self.threads}, seed={self.seed}{extra})"
