"""The games a server holds: their moves, their bots and their limits.

A :class:`Session` is one game on the page: the moves played from its start
position, which seats the people hold, and the bot that plays the others.
The bot searches in a worker thread (the search releases the GIL), so the
event loop keeps answering while it thinks; a :class:`veletas.bots.StopFlag`
ends the search early, and any change to the moves meanwhile (an undo, a
move from an earlier position, a resignation) stops it and drops its move.

:class:`Sessions` holds every game and applies the limits of
:class:`Settings`: a cap on live games, idle games expiring, searches
limited in number (the others wait their turn) and in length.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import math
import os
import secrets
import time
from collections.abc import Mapping
from typing import Any

import anyio
import anyio.to_thread

from veletas import games as registry
from veletas._checks import plain_float, plain_int, shown
from veletas.bots import StopFlag
from veletas.errors import VeletasError
from veletas.limits import MIN_SECONDS, check_iterations, check_seconds, check_tree_nodes
from veletas.review import EVERY_MOVE, chance_of
from veletas.review_page import curve
from veletas.serve.fair import FairShare
from veletas.serve.limits import EVAL_SECONDS, MAX_UPLOAD
from veletas.serve.protocol import WebGame

__all__ = ["ApiError", "Session", "Sessions", "Settings"]

log = logging.getLogger("veletas.serve")

WATCH = "watch"
"""The seat of a page that watches the bot play both sides."""

MAX_EVALUATIONS = 10_000
"""The most evaluated positions a game keeps (past it, it starts again)."""

GENERIC = ("game", "seat", "seconds", "iterations", "seed", "position", "record", "id")
"""The parameters of a new game that every game has; the others are the game's options."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """The limits of a server; ``veletas serve --help`` lists them as options."""

    max_games: int = 100
    """Games held at once; a full server refuses new ones."""
    idle_seconds: float = 1800.0
    """A game no page has asked about (nor watched) for this long is dropped."""
    bot_workers: int = dataclasses.field(default_factory=lambda: max(1, (os.cpu_count() or 1) - 1))
    """Searches that run at once (one core each); the others wait. By
    default one fewer than the cores, so that one core stays free to answer
    the pages at once."""
    max_seconds: float = 60.0
    """The longest thinking time per move a game may ask for."""
    max_iterations: int = 5_000_000
    """The most iterations per move a game may ask for."""
    max_nodes: int = 2_000_000
    """The most nodes of a game's search tree (24 bytes each)."""
    default_seconds: float = 1.0
    """The bot's thinking time when a game names no budget."""
    eval_seconds: float = EVAL_SECONDS
    """The search time of the evaluation of one position (the page's
    evaluation bar and win-chance curve)."""
    max_body: int = 64 * 1024
    """The largest request body, in bytes."""
    max_upload: int = MAX_UPLOAD
    """The largest file the page may send to start from (a file of game
    records or a Parquet dataset), in bytes."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names accepted besides ``localhost`` and IP addresses."""

    def __post_init__(self) -> None:
        for name in ("max_games", "bot_workers", "max_body", "max_upload"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of 1 or more, got {value!r}")
        check_iterations(self.max_iterations, "max_iterations")
        check_tree_nodes(self.max_nodes)
        # The search budgets within veletas.limits; the idle time is no budget.
        for name in ("max_seconds", "default_seconds", "eval_seconds"):
            check_seconds(getattr(self, name), name)
        value = self.idle_seconds
        if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
            raise ValueError(f"idle_seconds must be a positive number, got {value!r}")


class ApiError(Exception):
    """A request refused with an HTTP status and a message for the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _text(value: object, name: str) -> str:
    """A parameter as text: query parameters are text, JSON gives numbers too."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    raise ApiError(400, f"{name} must be a string or a number, not {type(value).__name__}")


class Session:
    """One game: its start, its moves, its seats and its bot."""

    def __init__(
        self,
        sessions: Sessions,
        game: WebGame,
        *,
        start: Any,
        board: Any,
        options: dict[str, Any],
        seat: str,
        seconds: float | None,
        iterations: int | None,
        seed: int,
        client: str = "",
    ) -> None:
        self.id = secrets.token_urlsafe(9)
        """The game's id in the URLs: 12 characters, not guessable."""
        self.sessions = sessions
        self.client = client
        """The address of the client that made the game: its searches take
        that client's turns of the server's workers (:class:`FairShare`)."""
        self.game = game
        self.start = start
        """The start position (no moves on its stack)."""
        self.board = board
        """The position at the end of the moves (all of them on its stack)."""
        self.options = options
        self.seat = seat
        self.humans = frozenset() if seat == WATCH else frozenset({game.colours.index(seat)})
        """The seats the people hold (0 moved first)."""
        self.seconds = seconds
        self.iterations = iterations
        self.seed = seed
        self.bot = game.make_bot(seconds, iterations, seed, sessions.settings.max_nodes)
        self.bot_name = (
            "mcts ("
            + ", ".join(
                part
                for part in (
                    f"{seconds:g} s" if seconds is not None else "",
                    f"{iterations} iterations" if iterations is not None else "",
                )
                if part
            )
            + ")"
        )
        self.resigned: int | None = None
        """The seat that resigned, if one did."""
        self.version = 0
        """Counts every change a page would show."""
        self.line = 0
        """Counts the changes of the moves and the result: a bot's move found
        for an older line is dropped."""
        self.thinking: str | None = None
        """``"move"`` or ``"hint"`` while the bot searches."""
        self._stop: StopFlag | None = None
        self._lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.watchers = 0
        """Pages connected to the game's WebSocket."""
        self.touched = time.monotonic()
        self.evaluations: dict[tuple[str, ...], float] = {}
        """The first player's chance to win by the moves that lead to a
        position (the evaluations asked for, of any line played)."""
        self._evaluator: Any = None
        self._evaluating = asyncio.Lock()

    # -- reading ---------------------------------------------------------

    def board_at(self, ply: int | None) -> Any:
        """The position after ``ply`` moves (default: all), moves on its stack.

        :raises ApiError: for a ply outside 0 .. the number of moves.
        """
        count = len(self.board.move_stack)
        if ply is None:
            return self.board.copy()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= count:
            raise ApiError(400, f"ply must be a whole number from 0 to {count}, not {shown(ply)}")
        board = self.board.copy()
        for _ in range(count - ply):
            board.pop()
        return board

    def winner(self) -> str | None:
        """The colour that won: by resignation, or on the board."""
        if self.resigned is not None:
            return self.game.colour_of(self.board, 1 - self.resigned)
        return self.game.status(self.board)["winner"]

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.board.is_game_over()

    def players(self, board: Any) -> dict[str, str]:
        """Each colour's player on ``board`` (after any swap)."""
        return {
            self.game.colour_of(board, seat): "you" if seat in self.humans else self.bot_name
            for seat in (0, 1)
        }

    def params(self) -> dict[str, Any]:
        """The query parameters of the page of this game."""
        params: dict[str, Any] = {"id": self.id, "game": self.game.name}
        params.update(self.options)
        params["seat"] = self.seat
        if self.seconds is not None:
            params["seconds"] = self.seconds
        if self.iterations is not None:
            params["iterations"] = self.iterations
        return params

    def state(self, ply: int | None = None, *, flipped: bool = False) -> dict[str, Any]:
        """Everything the page shows, with the position after ``ply`` moves."""
        board = self.board_at(ply)
        count = len(self.board.move_stack)
        ply = len(board.move_stack) if ply is None else ply
        game = self.game
        status = game.status(board)
        at_end = ply == count
        over = (at_end and self.resigned is not None) or board.is_game_over()
        to_act = None if over else game.seat_to_act(board)
        human = to_act is not None and to_act in self.humans
        lastmove = board.peek() if board.move_stack else None
        winner = self.winner() if at_end else status["winner"]
        return {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "options": self.options,
            "seat": self.seat,
            "params": self.params(),
            "bot": {"name": self.bot_name, "seconds": self.seconds, "iterations": self.iterations},
            "start": self.start.fen(),
            "moves": [str(move) for move in self.board.move_stack],
            "version": self.version,
            "thinking": self.thinking,
            "over": self.over,
            "result": {
                "winner": self.winner(),
                "termination": "resignation" if self.resigned is not None else None,
            }
            if self.over
            else None,
            "view": {
                "ply": ply,
                "fen": board.fen(),
                "svg": game.draw(board, lastmove=lastmove, flipped=flipped),
                "lastmove": None if lastmove is None else str(lastmove),
                "status": status,
                "players": self.players(board),
                "to_act": None if to_act is None else ("human" if human else "bot"),
                "winner": winner if over else None,
                "resigned": at_end and self.resigned is not None,
                "clicks": game.clicks(board) if human else None,
            },
        }

    def summary(self) -> dict[str, Any]:
        """What the WebSocket sends at each change."""
        return {
            "version": self.version,
            "plies": len(self.board.move_stack),
            "thinking": self.thinking,
            "over": self.over,
        }

    def record(self) -> str:
        """The game as a record text (the game's record format)."""
        return self.game.write_record(
            self.start,
            self.board,
            self.players(self.board),
            self.winner() if self.over else None,
            "resignation" if self.resigned is not None else None,
        )

    # -- changes ---------------------------------------------------------

    def touch(self) -> None:
        self.touched = time.monotonic()

    def changed(self, *, line: bool = False) -> None:
        """Tells the pages; ``line`` when the moves or the result changed."""
        if line:
            self.line += 1
            if self._stop is not None:
                # The search is for a position that is no longer the game's.
                self._stop.set()
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_change(self, version: int) -> None:
        """Returns once the version differs from ``version``."""
        while self.version == version:
            await self._changed.wait()

    def set_line(self, board: Any) -> None:
        """Makes ``board`` (which continues the start) the game's moves: a
        move, an undo or a return to an earlier position."""
        self.board = board
        self.resigned = None
        self.changed(line=True)
        self.kick()

    def play(self, text: str, ply: int | None) -> None:
        """Plays ``text`` after ``ply`` moves (default: all), dropping the
        moves after it.

        :raises ApiError: when it is not a person's turn there.
        :raises VeletasError: for a bad or illegal move (nothing changes).
        """
        board = self.board_at(ply)
        if board.is_game_over():
            raise ApiError(409, "the game is over")
        if len(board.move_stack) == len(self.board.move_stack) and self.resigned is not None:
            raise ApiError(409, "the game is over: it was resigned")
        seat = self.game.seat_to_act(board)
        if seat not in self.humans:
            raise ApiError(409, f"it is the bot's turn ({self.bot_name}) here, not yours")
        board.push(self.game.parse_move(board, text))
        self.set_line(board)

    def undo(self) -> None:
        """Takes back moves up to and including the person's last one."""
        if not self.humans:
            raise ApiError(409, "no move of yours to take back: the bot plays both sides")
        board = self.board.copy()
        while board.move_stack:
            board.pop()
            if self.game.seat_to_act(board) in self.humans:
                self.set_line(board)
                return
        raise ApiError(409, "there is no move of yours to take back")

    def truncate(self, ply: int) -> None:
        """Goes on from the position after ``ply`` moves, dropping the later ones."""
        self.set_line(self.board_at(ply))

    def resign(self) -> None:
        if not self.humans:
            raise ApiError(409, "you have no side to resign: the bot plays both sides")
        if self.over:
            raise ApiError(409, "the game is over")
        (self.resigned,) = self.humans
        self.changed(line=True)

    def stop(self) -> bool:
        """Makes the bot play (or hint) the best move it found so far."""
        if self._stop is None:
            return False
        self._stop.set()
        return True

    # -- the bot ---------------------------------------------------------

    def kick(self) -> None:
        """Starts the bot's turns if it is to act (and not already at it)."""
        if self._task is not None and not self._task.done():
            return  # the running task looks at the new line when its search ends
        if self.over or self.game.seat_to_act(self.board) in self.humans:
            return
        self._task = asyncio.get_running_loop().create_task(self._bot_turns())

    async def _bot_turns(self) -> None:
        try:
            await self._play_bot_turns()
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - a bug: keep the server up, say so
            log.exception("the bot of game %s failed", self.id)

    async def _play_bot_turns(self) -> None:
        while not self.over and self.game.seat_to_act(self.board) not in self.humans:
            line = self.line
            board = self.board.copy()
            async with self._lock:
                if line != self.line:
                    continue
                move = await self._search("move", self.bot.choose, board)
            if line == self.line:
                self.board.push(move)
                self.changed(line=True)
        if self.over:
            # The trees are of no more use: give their memory back.
            async with self._lock:
                self.bot.reset()

    async def _search(self, kind: str, method: Any, board: Any, **kwargs: Any) -> Any:
        """Runs ``method(board, stop=..., **kwargs)`` in a worker thread, as
        one of the server's limited searches. Holds the session's lock."""
        stop = StopFlag()
        self.thinking, self._stop = kind, stop
        self.changed()
        try:
            async with self.sessions.share.slot(self.client):
                return await anyio.to_thread.run_sync(
                    functools.partial(method, board, stop=stop, **kwargs)
                )
        finally:
            self.thinking, self._stop = None, None
            self.changed()

    async def hint(self, ply: int | None, top: int) -> dict[str, Any]:
        """The bot's best moves after ``ply`` moves, without playing them."""
        board = self.board_at(ply)
        if board.is_game_over() or (
            len(board.move_stack) == len(self.board.move_stack) and self.over
        ):
            raise ApiError(409, "the game is over: there is no move to hint")
        if self.thinking is not None or (self._task is not None and not self._task.done()):
            raise ApiError(409, "the bot is thinking: ask for a hint when it is your turn")
        async with self._lock:
            analysis = await self._search("hint", self.bot.analyse, board, top=top)
        return {
            "ply": len(board.move_stack),
            "iterations": analysis.iterations,
            "seconds": analysis.seconds,
            "moves": [
                {
                    "move": str(stats.move),
                    "squares": self.game.squares(board, stats.move),
                    "visits": stats.visits,
                    "share": stats.share,
                    "value": stats.value,
                }
                for stats in analysis.moves
            ],
        }

    async def evaluation(self, ply: int | None, version: int | None = None) -> dict[str, Any]:
        """The evaluation of the position after ``ply`` moves (default: all)
        and the win-chance curve of the game's line, as far as evaluated.

        A page asks about the game as it last saw it (its ``version``); a
        ply past the end of a game that has changed since (an undo on its
        way meanwhile) is answered ``{"stale": true}``, not refused.
        """
        count = len(self.board.move_stack)
        if version is not None and version != self.version and ply is not None and ply > count:
            return {"stale": True, "version": self.version}
        board = self.board_at(ply)
        moves = [str(move) for move in self.board.move_stack]
        ply = len(board.move_stack)
        key = tuple(moves[:ply])
        if key not in self.evaluations:
            async with self._evaluating:
                if key not in self.evaluations:
                    async with self.sessions.share.slot(self.client):
                        first = await anyio.to_thread.run_sync(
                            functools.partial(self._first_chance, board, ply == len(moves))
                        )
                    if len(self.evaluations) >= MAX_EVALUATIONS:
                        self.evaluations.clear()
                    self.evaluations[key] = first
        first = self.evaluations[key]
        chances = [self.evaluations.get(tuple(moves[:done])) for done in range(len(moves) + 1)]
        players = self.players(board)
        colours = [self.game.colour_of(board, seat) for seat in (0, 1)]
        names = (f"{players[colours[0]]} ({colours[0]})", f"{players[colours[1]]} ({colours[1]})")
        return {
            "ply": ply,
            "fen": board.fen(),
            "first": first,
            "chances": {colours[0]: first, colours[1]: 1.0 - first},
            "players": list(names),
            "curve": chances,
            "svg": curve(chances, current=ply, labels=names),
        }

    def _first_chance(self, board: Any, at_end: bool) -> float:
        """The first player's chance to win on ``board``: the result of a
        finished (or, at the end, resigned) game, else the evaluator's."""
        winner = self.winner() if at_end and self.over else self.game.status(board)["winner"]
        if winner is not None:
            return 1.0 if self.game.colour_of(board, 0) == winner else 0.0
        if self._evaluator is None:
            settings = self.sessions.settings
            seconds = min(settings.eval_seconds, settings.max_seconds)
            nodes = max(1, settings.max_nodes // 4)
            self._evaluator = self.game.make_bot(seconds, None, self.seed, nodes)
        try:
            analysis = self._evaluator.analyse(board, top=EVERY_MOVE)
        finally:
            # The positions asked for come in any order: a tree kept would
            # rarely serve the next one, and would hold memory per game.
            self._evaluator.reset()
        chance = chance_of(analysis)
        return chance if self.game.seat_to_act(board) == 0 else 1.0 - chance

    def close(self) -> None:
        """Stops the bot; the session is being dropped."""
        if self._stop is not None:
            self._stop.set()
        if self._task is not None:
            self._task.cancel()


class Sessions:
    """The games of one server."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.games: dict[str, Session] = {}
        self.disconnects = 0
        """Requests whose client left before its body arrived."""
        self._share: FairShare | None = None

    @property
    def share(self) -> FairShare:
        """The searches that run at once, shared among the clients in turn
        (made in the event loop)."""
        if self._share is None:
            self._share = FairShare(self.settings.bot_workers)
        return self._share

    def get(self, game_id: str) -> Session:
        session = self.games.get(game_id)
        if session is None:
            minutes = self.settings.idle_seconds / 60
            raise ApiError(
                404,
                f"no game {game_id!r} on this server: it may have ended after "
                f"{minutes:g} minutes without a visit, or the server restarted",
            )
        session.touch()
        return session

    def expire(self) -> int:
        """Drops the games idle for too long; returns how many."""
        limit = time.monotonic() - self.settings.idle_seconds
        idle = [s for s in self.games.values() if s.touched < limit and s.watchers == 0]
        for session in idle:
            self.drop(session.id)
        return len(idle)

    def drop(self, game_id: str) -> None:
        session = self.games.pop(game_id, None)
        if session is not None:
            session.close()

    def close(self) -> None:
        for game_id in list(self.games):
            self.drop(game_id)

    async def create(self, params: Mapping[str, Any], client: str = "") -> Session:
        """A new game from the parameters of the page (or the API's body);
        its position or record is read in a worker thread. ``client`` is the
        address of the client that asks (whose turns its searches take).

        :raises ApiError: for a bad parameter or a full server.
        :raises VeletasError: for bad options, a bad position or record.
        """
        settings = self.settings
        if len(self.games) >= settings.max_games and not self.expire():
            raise ApiError(
                503,
                f"the server already holds {settings.max_games} games, its limit "
                "(veletas serve --max-games): try again when one has ended",
            )
        name = _text(params.get("game") or "veletas", "game")
        try:
            entry = registry.get(name)
        except ValueError as error:
            raise ApiError(400, str(error)) from None
        game: WebGame | None = entry.web_game()
        if game is None:
            raise ApiError(400, f"the page does not offer {name} yet")
        seat = _text(params.get("seat") or game.colours[0], "seat")
        if seat not in (*game.colours, WATCH):
            raise ApiError(
                400,
                f"unknown seat {seat!r}; expected one of "
                + ", ".join(repr(s) for s in (*game.colours, WATCH)),
            )
        seconds = self._seconds(params.get("seconds"))
        iterations = self._iterations(params.get("iterations"))
        if seconds is None and iterations is None:
            seconds = settings.default_seconds
        seed = self._seed(params.get("seed"))
        options = {
            key: _text(value, key)
            for key, value in params.items()
            if key not in GENERIC and value is not None and value != ""
        }
        position = params.get("position") or None
        record = params.get("record") or None
        if position is not None and record is not None:
            raise ApiError(400, "give a position or a record, not both")
        if record is not None:
            if options:
                raise ApiError(
                    400,
                    "a record sets the game's options itself; leave out "
                    + ", ".join(repr(k) for k in options),
                )
            start, board, options = await _off_loop(game.read_record, _text(record, "record"))
        else:
            text = None if position is None else _text(position, "position")
            start, options = await _off_loop(game.new_board, options, text)
            board = start.copy()
        if len(self.games) >= settings.max_games:
            raise ApiError(503, f"the server already holds {settings.max_games} games, its limit")
        session = Session(
            self,
            game,
            start=start,
            board=board,
            options=options,
            seat=seat,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            client=client,
        )
        self.games[session.id] = session
        session.kick()
        return session

    def _seconds(self, value: object) -> float | None:
        if value is None or value == "":
            return None
        text = _text(value, "seconds")
        try:
            seconds = plain_float(text)
        except ValueError:
            raise ApiError(400, f"seconds must be a number, not {text!r}") from None
        if not (math.isfinite(seconds) and seconds >= MIN_SECONDS):
            raise ApiError(400, f"seconds must be {MIN_SECONDS:g} or more, not {text}")
        if seconds > self.settings.max_seconds:
            raise ApiError(
                400,
                f"seconds {text} is above this server's limit of "
                f"{self.settings.max_seconds:g} (veletas serve --max-seconds)",
            )
        return seconds

    def _iterations(self, value: object) -> int | None:
        if value is None or value == "":
            return None
        text = _text(value, "iterations")
        try:
            iterations = plain_int(text)
        except ValueError:
            raise ApiError(400, f"iterations must be a whole number, not {text!r}") from None
        if iterations < 1:
            raise ApiError(400, f"iterations must be 1 or more, not {shown(iterations)}")
        if iterations > self.settings.max_iterations:
            raise ApiError(
                400,
                f"iterations {iterations} is above this server's limit of "
                f"{self.settings.max_iterations} (veletas serve --max-iterations)",
            )
        return iterations

    def _seed(self, value: object) -> int:
        if value is None or value == "":
            return secrets.randbits(63)
        text = _text(value, "seed")
        try:
            seed = plain_int(text)
        except ValueError:
            raise ApiError(400, f"seed must be a whole number, not {text!r}") from None
        if not 0 <= seed < 1 << 64:
            raise ApiError(400, f"seed must be in 0 .. 2**64 - 1, not {shown(seed)}")
        return seed


async def _off_loop(function: Any, *args: Any) -> Any:
    """``function(*args)`` in one of anyio's worker threads (40 at most), so
    that the event loop answers meanwhile."""
    return await anyio.to_thread.run_sync(functools.partial(function, *args))


def error_message(error: Exception) -> str:
    """The message of an error for the page."""
    if isinstance(error, VeletasError):
        return str(error)
    return str(error) or type(error).__name__
