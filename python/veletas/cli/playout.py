"""``veletas playout``: the main job. Play many random games, then summarise them.

The games are played in ranges (chunks) of game indices, so that a progress
bar can follow them and Ctrl-C stops with every finished range kept. Ranges of
one run fit together into exactly the games of one big run, wherever they
were played: :func:`make_runner` picks who plays them, this machine's cores
(:class:`LocalRunner`) or a Ray cluster (:class:`RayRunner`, ``--ray``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Protocol

from tqdm import tqdm

import veletas
from veletas.cli import options
from veletas.playouts import POLICIES, Estimate, PlayoutJob, Playouts

DEFAULT_GAMES = 100_000
"""The games of the default run."""

LOCAL_RAY = ""
"""The value of ``--ray`` given without an address: a local Ray runtime."""

CHUNK_SECONDS = 0.2
"""The time a chunk of games should take: short enough for a lively progress
bar and a quick stop on Ctrl-C, long enough to keep every core busy."""


class Runner(Protocol):
    """Plays a job's games, in consecutive ranges."""

    def describe(self, job: PlayoutJob) -> str:
        """Where the games were played, for the summary (asked after :meth:`play`)."""
        ...

    def play(
        self, job: PlayoutJob, n_games: int, progress: Callable[[int], object]
    ) -> Iterator[Playouts]:
        """Games ``0 .. n_games - 1`` of ``job`` as consecutive ranges, in
        order, calling ``progress(count)`` as ``count`` more games finish.
        Closing the iterator early (Ctrl-C) stops the games under way."""
        ...


class LocalRunner:
    """This machine: the native core on the job's threads, one chunk after
    the other (:func:`chunks`)."""

    def describe(self, job: PlayoutJob) -> str:
        if job.backend == "python":
            threads = 1  # the reference plays on the calling thread
        elif job.threads is not None:
            threads = job.threads
        elif hasattr(os, "sched_getaffinity"):
            threads = len(os.sched_getaffinity(0))
        else:
            threads = os.cpu_count() or 1
        return f"{threads} thread{'s' if threads > 1 else ''}"

    def play(
        self, job: PlayoutJob, n_games: int, progress: Callable[[int], object]
    ) -> Iterator[Playouts]:
        for first_game, count in chunks(n_games):
            part = job.run(first_game, count)
            progress(count)
            yield part


class RayRunner:
    """A Ray cluster (:mod:`veletas.distributed`): chunks of games as Ray
    tasks, ``job.threads`` CPUs each (default 1)."""

    def __init__(self, address: str | None = None, chunk_size: int | None = None) -> None:
        from veletas import distributed

        distributed.require_ray()  # a missing extra is an error before any game
        self.address = address
        self.chunk_size = chunk_size
        self.where = "Ray" if address is None else f"the Ray cluster at {address}"

    def describe(self, job: PlayoutJob) -> str:
        return self.where

    def play(
        self, job: PlayoutJob, n_games: int, progress: Callable[[int], object]
    ) -> Iterator[Playouts]:
        from veletas import distributed

        with distributed.connect(self.address) as where:
            self.where = where
            yield from distributed.play_chunks(
                job, n_games, chunk_size=self.chunk_size, progress=progress
            )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "playout",
        help="play many random games and summarise them (the main job)",
        description=(
            "Play random games (by default 100,000 of the standard game, on every core) "
            "and print a summary: games per second, the win rates of Black, White and "
            "the first player with 95% intervals, the swap rate, the game length and "
            "the final claims. The same seed gives the same games on any number of "
            "threads, or on a Ray cluster (--ray). Ctrl-C stops early and summarises "
            "the games already played."
        ),
    )
    parser.add_argument(
        "--games",
        type=options.count,
        default=DEFAULT_GAMES,
        help=f"how many games to play, 1 or more, such as 1000000, 1_000_000 or 1e6 "
        f"(default {DEFAULT_GAMES:,})",
    )
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default="micro",
        help=(
            "micro: uniform at each decision (move or not, which shooter, where, which "
            "target); uniform: uniform over the legal moves (default micro)"
        ),
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="the seed of the run, 0 to 2**64 - 1 (default 0)"
    )
    options.add_rules(parser)
    parser.add_argument(
        "--from",
        dest="fen",
        metavar="FEN",
        help="start every game from this position (default: the start of the game)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the summary as JSON (the progress bar stays)"
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        type=options.output_file,
        help="also keep every game's moves and write the games to FILE as game records "
        "(see 'veletas replay'); about 1 kB a game",
    )
    add_runner_options(parser)
    parser.set_defaults(handler=run)


def add_runner_options(parser: argparse.ArgumentParser) -> None:
    """The options that say where the games are played."""
    group = parser.add_argument_group("where to play")
    group.add_argument(
        "--threads",
        type=options.positive,
        help=(
            "threads of this machine to play on (default: every core); with --ray, "
            "the threads and CPUs of each Ray task (default 1)"
        ),
    )
    group.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        metavar="ADDRESS",
        help=(
            "play on a Ray cluster: the one whose head is at ADDRESS (HOST:PORT, as "
            "given by 'ray start --head'), or a local Ray runtime started for the run "
            "without ADDRESS; the games are the same as on this machine "
            '(needs pip install "veletas[ray]")'
        ),
    )
    group.add_argument(
        "--chunk-size",
        type=options.positive,
        metavar="GAMES",
        help="with --ray, the games of one Ray task (default: at most about 2 s of "
        "work, and 4 tasks per CPU for shorter runs)",
    )


def make_runner(args: argparse.Namespace) -> Runner:
    """The runner that :func:`add_runner_options` asked for.

    :raises ModuleNotFoundError: for ``--ray`` without Ray installed.
    """
    if args.ray is None:
        return LocalRunner()
    return RayRunner(None if args.ray == LOCAL_RAY else args.ray, args.chunk_size)


def seed(text: str) -> int:
    """An argparse type: a seed, 0 to 2**64 - 1."""
    value = int(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in 0 .. 2**64 - 1, not {value}")
    return value


def run(args: argparse.Namespace, runner: Runner | None = None) -> int:
    if args.chunk_size is not None and args.ray is None:
        print("veletas: error: --chunk-size needs --ray", file=sys.stderr)
        return 2
    if args.game == "meridians" and args.policy != "micro":
        print("veletas: error: --policy: Meridians games have one policy", file=sys.stderr)
        return 2
    job = PlayoutJob.make(
        game=args.game,
        **options.rules_kwargs(args),
        start=args.fen,
        seed=args.seed,
        threads=args.threads,
        policy="uniform" if args.game == "meridians" else args.policy,
        record=args.save is not None,
        backend=veletas.IMPLEMENTATION,
    )
    if runner is None:
        try:
            runner = make_runner(args)
        except ModuleNotFoundError as error:
            print(f"veletas: error: {error}", file=sys.stderr)
            return 2
    clock = time.perf_counter()
    try:
        games, interrupted = play(job, args.games, runner)
    except ConnectionError as error:
        print(f"veletas: error: {error}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - clock
    where = runner.describe(job)
    if interrupted:
        print(
            f"veletas: interrupted: {len(games):,} of {args.games:,} games finished",
            file=sys.stderr,
        )
    if args.json:
        report = {
            "requested": args.games,
            "interrupted": interrupted,
            "seconds": seconds,
            "games_per_second": len(games) / seconds if seconds > 0 else None,
            "where": where,
            "backend": job.backend,
            **games.summary(),
        }
        if args.save is not None:
            report["saved"] = {"path": args.save, "seconds": save(games, args.save)}
        print(json.dumps(_without_nan(report), indent=2))
    else:
        # The summary first, so that it is there even if writing the file fails.
        print(table(games, seconds, f"{where}, {job.backend} backend"), flush=True)
        if args.save is not None:
            writing = save(games, args.save)
            print(f"saved         {len(games):,} games to {args.save} in {writing:.2f} s")
    return 130 if interrupted else 0


def save(games: Playouts, path: str) -> float:
    """Writes ``games`` (a recorded run) to ``path`` as game records; returns
    the seconds it took."""
    from veletas import records

    clock = time.perf_counter()
    game_records = (games.record(i) for i in range(len(games)))
    with tqdm(
        game_records, total=len(games), unit=" records", file=sys.stderr, disable=None, leave=False
    ) as progress:
        records.write(progress, path)
    return time.perf_counter() - clock


def play(job: PlayoutJob, n_games: int, runner: Runner) -> tuple[Playouts, bool]:
    """All ``n_games`` games of ``job`` as ``runner`` plays them, with a
    progress bar on stderr; Ctrl-C stops the runner and keeps the games of
    the ranges finished before it. Returns the games played and whether
    Ctrl-C stopped them."""
    parts = [job.run(0, 0)]  # so that even no finished range concatenates
    interrupted = False
    with tqdm(
        total=n_games, unit=" games", unit_scale=True, file=sys.stderr, disable=None, leave=False
    ) as bar:
        ranges = runner.play(job, n_games, bar.update)
        try:
            for part in ranges:
                parts.append(part)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            close = getattr(ranges, "close", None)
            if close is not None:
                close()  # stops the games under way (a generator's finally blocks)
    return Playouts.concatenate(parts), interrupted


def chunks(n_games: int) -> Iterator[tuple[int, int]]:
    """Ranges ``(first_game, count)`` covering ``0 .. n_games - 1``, sized so
    that each takes about :data:`CHUNK_SECONDS` (measured as they go)."""
    first, size = 0, 1024
    while first < n_games:
        count = min(size, n_games - first)
        clock = time.perf_counter()
        yield first, count  # the caller plays the chunk before asking for the next
        elapsed = time.perf_counter() - clock
        first += count
        if elapsed > 0:
            size = max(256, min(4 * size, int(count * CHUNK_SECONDS / elapsed)))


def _without_nan(value: object) -> object:
    """``value`` with every NaN (a rate of no games) as None: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: _without_nan(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_without_nan(item) for item in value]
    return value


def table(games: Playouts, seconds: float, where: str) -> str:
    """The human summary of ``games``."""
    rules = games.rules
    n = len(games)
    rate = f"{n / seconds:,.0f} games/s" if seconds > 0 else "-"
    if games.game == "meridians":
        described = f"Meridians {rules.size}{', pie rule' if rules.pie else ''}"
        colors = ("light", "dark")
    else:
        described = (
            f"{rules.variant} ({rules.size}x{rules.size}, {rules.shooters} shooters, "
            f"{rules.setup_rule}{', shooters block' if rules.shooters_block else ''})"
        )
        colors = ("black", "white")
    lines = [
        f"games         {n:,} in {seconds:.2f} s on {where}: {rate}",
        f"rules         {described}, {games.policy} policy, seed {games.seed}",
        f"start         {games.start}",
    ]
    if n == 0:  # stopped before the first range finished
        lines.append("results       none: no game finished")
        return "\n".join(lines)
    lines += [
        f"{colors[0] + ' wins':<14}{_percent(games.win_rate(0))}",
        f"{colors[1] + ' wins':<14}{_percent(games.win_rate(1))}",
        f"first player  {_percent(games.first_player_win_rate())}",
        f"swaps         {_percent(games.swap_rate())}",
    ]
    if games.stuck():
        lines.append(f"stuck         {games.stuck():,} games without a legal move")
    quantiles = games.plies_quantiles()
    spread = ", ".join(f"{q:.0%} {v:g}" for q, v in quantiles.items())
    lines.append(f"plies         mean {games.mean_plies():.1f} (quantiles {spread})")
    if games.game == "meridians":
        for index, color in enumerate(colors):
            stones = games.stones[:, index]
            mean = float(stones.mean()) if n else float("nan")
            lines.append(f"{color + ' stones':<14}mean {mean:.1f} at the end")
        return "\n".join(lines)
    lines.append("final claims  black-white  games")
    counts = sorted(games.claim_counts().items())
    most = max((count for _, count in counts), default=1)
    for (black, white), count in counts:
        bar = "#" * max(1, round(30 * count / most))
        lines.append(f"              {black}-{white}  {count:>12,}  {count / n:6.1%}  {bar}")
    return "\n".join(lines)


def _percent(estimate: Estimate) -> str:
    return f"{estimate.rate:7.2%}  (95% CI {estimate.low:.2%} .. {estimate.high:.2%})"
