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

import dataclasses
import math
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from veletas import games as registry
from veletas._checks import count, integer, shown
from veletas.errors import InvalidPlayerError, InvalidRulesError
from veletas.limits import check_games, check_threads

if TYPE_CHECKING:
    pass
from veletas.match_results import GameResult, MatchResult, Rating, RoundRobin
from veletas.openings import openings as make_openings
from veletas.players import (
    KINDS,
    MCTS_OPTIONS,
    SEED_LIMIT,
    BotSpec,
    Player,
    game_seeds,
    parse_player,
)
from veletas.ratings import Elo, elo, fit_ratings
from veletas.sprt import Sprt, SprtResult, parse_sprt

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

_RAY_CHUNK_MAX = 16  # games of one Ray task at most: a lively score, a quick Ctrl-C


@dataclasses.dataclass(frozen=True)
class _Pairing:
    """The games of one pairing: the game, its rules, the players, the seed.
    Everything a worker (a thread, or a Ray task) needs to play game ``i``."""

    game: str
    rules: dict[str, Any]
    players: tuple[Player, Player]
    seed: int
    openings: tuple[tuple[str, ...], ...] = ()
    """The openings to start from: game ``i`` plays opening ``i // 2``
    (cycling), so each is played twice, the seats swapped."""

    def board(self) -> Any:
        return registry.get(self.game).api().Board(**self.rules)

    def play(self, index: int, stop: threading.Event | None = None) -> GameResult | None:
        """Game ``index``, or None if ``stop`` was set before its end."""
        room = registry.get(self.game).room("match")
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
        if self.openings:
            for text in self.openings[(index // 2) % len(self.openings)]:
                # Pushed whether or not a swap came before.
                swapped = board.push_str(text).is_swap or swapped
                moves.append(text)
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
    openings: int | None = None,
    sprt: Sprt | str | None = None,
    first_game: int = 0,
    on_game: Callable[[GameResult], object] | None = None,
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
    ``openings=N`` starts the games from N openings
    (:func:`veletas.openings.openings` of the seed): game ``i`` from opening
    ``i // 2``, so that with ``games = 2 * N`` each is played twice, the
    seats swapped. ``sprt`` (a :class:`veletas.sprt.Sprt`, or ``"ELO0,ELO1"``)
    runs a sequential test on those pairs (games ``2k`` and ``2k + 1``) and
    stops the match as soon as it accepts a hypothesis (``result.sprt``).
    ``first_game`` skips the games before it (to go on with a match played
    in part: the games are those of the whole match), and ``on_game(result)``
    hears of each game as it ends (to keep it).

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
        openings=openings,
        sprt=parse_sprt(sprt) if isinstance(sprt, str) else sprt,
        first_game=first_game,
        on_game=on_game,
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
        raise ValueError(f"prior must be a number of 0 or more, not {shown(prior)}")
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
    openings: int | None = None,
    sprt: Sprt | None = None,
    first_game: int = 0,
    on_game: Callable[[GameResult], object] | None = None,
) -> RoundRobin:
    """Check everything, play every pair's games, and gather the results."""
    n = count(games)
    seed = integer("seed", seed)
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be in 0 .. 2**64 - 1, not {shown(seed)}")
    if threads is not None and integer("threads", threads) < 1:
        raise ValueError(f"threads must be 1 or more, not {shown(threads)}")
    if threads is not None:
        check_threads(threads)
    check_games(n)
    if chunk_size is not None and integer("chunk_size", chunk_size) < 1:
        raise ValueError(f"chunk_size must be 1 or more, not {shown(chunk_size)}")
    if not isinstance(ray, bool | str):
        raise TypeError(f"ray must be a bool or an address, not {ray!r}")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be a bool or None, not {progress!r}")
    found = registry.get(game)
    board = _check_game(found, players, rules)
    room = found.room("match")
    description, rules_used = room.describe(board), room.rules(board)
    starts = () if openings is None else make_openings(found.name, openings, seed=seed, rules=rules)

    indices = [(i, j) for i in range(len(players)) for j in range(i + 1, len(players))]
    pairings = [
        _Pairing(
            found.name,
            dict(rules),
            (players[i], players[j]),
            game_seeds(seed, k)[0] if pair_seeds else seed,
            starts,
        )
        for k, (i, j) in enumerate(indices)
    ]
    first = integer("first_game", first_game)
    if not 0 <= first <= n:
        raise ValueError(f"first_game must be 0 .. {n} (the games), not {shown(first_game)}")
    if on_game is not None and not callable(on_game):
        raise TypeError(f"on_game must be callable, not {type(on_game).__name__}")
    items = [(k, index) for index in range(first, n) for k in range(len(pairings))]
    results: list[list[GameResult]] = [[] for _ in pairings]
    if sprt is not None and not isinstance(sprt, Sprt):
        raise TypeError(f"sprt must be a veletas.sprt.Sprt or 'ELO0,ELO1', not {sprt!r}")
    # The test's pairs (of the one pairing): the points of A in each game.
    points: dict[int, float] = {}
    pentanomial = [0, 0, 0, 0, 0]
    tested: list[SprtResult] = []

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
            if on_game is not None:
                on_game(result)
            if sprt is not None:
                points[result.index] = result.a_points
                other = result.index ^ 1
                if other in points:
                    pentanomial[round(2 * (points[result.index] + points[other]))] += 1
                    llr = sprt.llr(pentanomial)
                    tested.append(SprtResult(sprt, tuple(pentanomial), llr, sprt.decision(llr)))
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
                if tested and tested[-1].decision is not None:
                    break  # the test has decided: the games under way are dropped
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
            requested=n - first,
            games=tuple(sorted(results[k], key=lambda g: g.index)),
            interrupted=interrupted,
            seconds=seconds,
            where=where,
            reproducible=players[i].reproducible and players[j].reproducible,
            openings=len(starts),
            sprt=(tested[-1] if tested else SprtResult(sprt, (0, 0, 0, 0, 0), 0.0, None))
            if sprt is not None
            else None,
        )
        for k, ((i, j), pairing) in enumerate(zip(indices, pairings, strict=True))
    )
    anchor = "random" if "random" in names else names[0]
    return RoundRobin(tuple(names), pairs, anchor, prior, seed, interrupted, seconds)


def _check_game(found: registry.Game, players: list[Player], rules: dict[str, Any]) -> Any:
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
