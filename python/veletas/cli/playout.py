"""play many random games and summarise them (the main job)

Play random games (by default 100,000 of the standard game, on every core)
and print a summary: games per second, the win rates of Black, White and the
first player with 95% intervals, the swap rate, the game length and the
final claims. The same seed gives the same games on any number of threads,
or on a Ray cluster (--ray). Ctrl-C stops early and summarises the games
already played.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from veletas import games as registry
from veletas._checks import ascii_int
from veletas._implementation import IMPLEMENTATION
from veletas.cli import options
from veletas.cli.progress import progress
from veletas.errors import ChunkFailedError
from veletas.limits import MAX_GAMES
from veletas.playouts import Estimate, PlayoutJob, Playouts, Tally

if TYPE_CHECKING:
    from veletas.datasets import DatasetWriter

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
        self,
        job: PlayoutJob,
        n_games: int,
        progress: Callable[[int], object],
        first_game: int = 0,
    ) -> Iterator[Playouts]:
        """Games ``first_game .. n_games - 1`` of ``job`` as consecutive
        ranges, in order, calling ``progress(count)`` as ``count`` more games
        finish. Closing the iterator early (Ctrl-C) stops the games under way."""
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
        self,
        job: PlayoutJob,
        n_games: int,
        progress: Callable[[int], object],
        first_game: int = 0,
    ) -> Iterator[Playouts]:
        for first, count in chunks(n_games - first_game):
            part = job.run(first_game + first, count)
            progress(count)
            yield part


class RayRunner:
    """A Ray cluster (:mod:`veletas.distributed`): chunks of games as Ray
    tasks, ``job.threads`` CPUs each (default 1)."""

    def __init__(
        self,
        address: str | None = None,
        chunk_size: int | None = None,
        max_chunk_size: int | None = None,
    ) -> None:
        from veletas import distributed

        distributed.require_ray()  # a missing extra is an error before any game
        self.address = address
        self.chunk_size = chunk_size
        self.max_chunk_size = max_chunk_size
        self.where = "Ray" if address is None else f"the Ray cluster at {address}"

    def describe(self, job: PlayoutJob) -> str:
        return self.where

    def play(
        self,
        job: PlayoutJob,
        n_games: int,
        progress: Callable[[int], object],
        first_game: int = 0,
    ) -> Iterator[Playouts]:
        from veletas import distributed

        played_on: set[str] = set()
        # Ray prints what it forwards of its nodes ("(raylet) A worker
        # died ...") on stdout, which carries the summary and --json: while
        # the cluster plays, stdout is stderr.
        with contextlib.redirect_stdout(sys.stderr), distributed.connect(self.address) as where:
            self.where = where
            try:
                yield from distributed.play_chunks(
                    job,
                    n_games,
                    chunk_size=self.chunk_size,
                    progress=progress,
                    first_game=first_game,
                    max_chunk_size=self.max_chunk_size,
                    played_on=played_on,
                )
            finally:
                if played_on:
                    self.where = distributed.where_played(where, played_on)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games",
        type=_games,
        default=DEFAULT_GAMES,
        help=f"how many games to play, 1 to {MAX_GAMES:,}, such as 1000000, 1_000_000 or "
        f"1e6 (default {DEFAULT_GAMES:,}; the summary counts distinct results, in "
        "memory that does not grow with the games)",
    )
    parser.add_argument(
        "--policy",
        choices=list(dict.fromkeys(p for game in registry.every() for p in game.playouts.POLICIES)),
        default=None,
        help=(
            "micro: uniform at each decision (move or not, which shooter, where, which "
            "target); uniform: uniform over the legal moves (default: the game's first, "
            + "; ".join(
                f"{game.title} {', '.join(game.playouts.POLICIES)}" for game in registry.every()
            )
            + ")"
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
    output = parser.add_argument_group("saving the games")
    output.add_argument(
        "--save",
        metavar="FILE",
        type=options.output_file,
        help="also keep every game's moves and write the games to FILE as they are played, "
        "in bounded memory: FILE.parquet as a Parquet dataset (one row a game, about 160 "
        "bytes a standard game; needs the extra data), any other name as game "
        "records (see 'veletas replay'; about 1 kB a game). The file appears once complete",
    )
    output.add_argument(
        "--resume",
        action="store_true",
        help="complete the --save FILE of a run that was stopped (Ctrl-C, a crash, a kill): "
        "run the same command with --resume; the file equals that of a run never stopped",
    )
    output.add_argument(
        "--force", action="store_true", help="overwrite an existing --save FILE and start again"
    )
    output.add_argument(
        "--report",
        metavar="HTML",
        help="also write the report of the games to HTML (see 'veletas report'; "
        "needs the extra report); with --save, of the saved file, else of "
        "the games kept in memory (their moves take about 300 bytes a standard game)",
    )
    add_runner_options(parser)


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
            "(needs the extra ray)"
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
    # Saved games arrive in game order: chunks of a row group bound what the
    # driver holds while an earlier chunk is still being played.
    limit = None
    if getattr(args, "save", None) is not None:
        from veletas.datasets import ROW_GROUP_GAMES

        limit = ROW_GROUP_GAMES
    return RayRunner(None if args.ray == LOCAL_RAY else args.ray, args.chunk_size, limit)


def seed(text: str) -> int:
    """An argparse type: a seed, 0 to 2**64 - 1."""
    value = ascii_int(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in 0 .. 2**64 - 1, not {value}")
    return value


def run(args: argparse.Namespace, runner: Runner | None = None) -> int:
    if args.chunk_size is not None and args.ray is None:
        print("veletas: error: --chunk-size needs --ray", file=sys.stderr)
        return 2
    for option in ("resume", "force"):
        if getattr(args, option) and args.save is None:
            print(f"veletas: error: --{option} needs --save FILE", file=sys.stderr)
            return 2
    if args.resume and args.force:
        print("veletas: error: --resume and --force exclude each other", file=sys.stderr)
        return 2
    game = registry.get(args.game)
    policies = game.playouts.POLICIES
    # Given, a policy the game lacks is refused (never replaced by another).
    if args.policy is not None and args.policy not in policies:
        print(
            f"veletas: error: --policy {args.policy}: {game.title} games have "
            f"the policies {', '.join(policies)}",
            file=sys.stderr,
        )
        return 2
    job = PlayoutJob.make(
        game=args.game,
        **options.rules_kwargs(args),
        start=args.fen,
        seed=args.seed,
        threads=args.threads,
        policy=args.policy or policies[0],
        record=args.save is not None or args.report is not None,
        backend=IMPLEMENTATION,
    )
    writer = None
    try:
        if args.report is not None:
            from veletas.report import require_matplotlib

            require_matplotlib()  # a missing extra is an error before any game
        if runner is None:
            runner = make_runner(args)
        if args.save is not None:
            from veletas.datasets import DatasetWriter

            writer = DatasetWriter(args.save, job, args.games, resume=args.resume, force=args.force)
    except ModuleNotFoundError as error:
        print(f"veletas: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        if args.save is None or isinstance(error, FileNotFoundError):
            raise
        return cannot_write(args.save, None, error)
    if writer is not None and writer.complete and not writer.parquet:
        # Its summary would mean reading and replaying every record again.
        print(f"{writer.path} is complete: {writer.n_games:,} games", file=sys.stderr)
        return 0
    earlier = writer.played() if writer is not None else None
    first_game = writer.done if writer is not None else 0
    if first_game:
        print(f"resuming {args.save}: {first_game:,} games already saved", file=sys.stderr)
    # The summary's counts, whatever the number of games; the moves are kept
    # only for a report of games that are not saved.
    games = Tally.of(job.run(0, 0)) if earlier is None else earlier
    sinks: list[Callable[[Playouts], object]] = []
    if writer is not None:
        sinks.append(writer.add)
    sinks.append(games.add)
    kept: list[Playouts] = []
    if args.report is not None and writer is None:
        sinks.append(kept.append)
    before = len(games)
    clock = time.perf_counter()
    failed: ChunkFailedError | None = None
    try:
        interrupted = play(job, args.games, runner, first_game=first_game, sinks=sinks)
    except ChunkFailedError as error:
        interrupted, failed = True, error
    except ConnectionError as error:
        if writer is not None:
            writer.abandon()
        print(f"veletas: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        if writer is None:
            raise
        return cannot_write(args.save, writer, error)
    seconds = time.perf_counter() - clock
    played = len(games) - before
    where = runner.describe(job)
    if failed is not None:
        keep = (
            "they are saved: run the same command with --resume to complete the run"
            if writer is not None
            else "run it with --save FILE to keep the games, and --resume to complete it"
        )
        print(
            f"veletas: error: {failed}: {len(games):,} of {args.games:,} games finished; {keep}",
            file=sys.stderr,
        )
    elif interrupted:
        print(
            f"veletas: interrupted: {len(games):,} of {args.games:,} games finished",
            file=sys.stderr,
        )
    if not args.json:
        # The summary first, so that it is there even if writing the file fails.
        print(table(games, seconds, f"{where}, {job.backend} backend", played=played), flush=True)
    writing = None
    if writer is not None:
        try:
            if interrupted:
                writer.close()  # the parts stay, unlocked, for --resume
            else:
                writing = finish(writer)
        except OSError as error:
            return cannot_write(args.save, writer, error)
        if interrupted and failed is None:
            print(
                f"veletas: {writer.done:,} games are saved in {writer.parts}; run the same "
                f"command with --resume to complete {args.save}",
                file=sys.stderr,
            )
        elif writing is not None and not args.json:
            print(f"saved         {len(games):,} games to {args.save} in {writing:.2f} s")
    if args.json:
        report = {
            "requested": args.games,
            "interrupted": interrupted,
            "seconds": seconds,
            "games_per_second": played / seconds if seconds > 0 else None,
            "where": where,
            "backend": job.backend,
            **games.summary(),
        }
        if failed is not None:
            report["failed"] = str(failed)
        if writing is not None:
            report["saved"] = {"path": args.save, "seconds": writing}
        print(json.dumps(_without_nan(report), indent=2))
    if args.report is not None and not interrupted:
        if len(games) == 0:
            print("veletas: no games, so no report", file=sys.stderr)
        else:
            from veletas.report import report as write_report

            source = args.save if args.save is not None else Playouts.concatenate(kept)
            write_report(source, args.report)
            print(f"wrote the report to {args.report}", file=sys.stderr)
    if failed is not None:
        return 1
    return 130 if interrupted else 0


def cannot_write(path: str, writer: DatasetWriter | None, error: OSError) -> int:
    """Say in one line that writing ``path`` failed (a full disk, say), what
    is kept and how to go on; returns the exit status.

    Whatever stage failed (the manifest, a part, the merge), the parts
    written before it are whole and ``--resume`` takes them up: a part is
    renamed into place only once written, and the merge removes them only
    once the file is."""
    reason = error.strerror or str(error)
    done = 0 if writer is None else writer.done
    kept = f"the {done:,} games saved so far are kept" if done else "no game was saved yet"
    print(
        f"veletas: error: cannot write {path}: {reason}; {kept}, and once there is room "
        f"the same command with --resume completes the run",
        file=sys.stderr,
    )
    return 2


def finish(writer: DatasetWriter) -> float:
    """Merge the saved parts into the file, with a progress bar; returns the
    seconds it took (the parts were written as the games were played)."""
    clock = time.perf_counter()
    if writer.complete:
        print(f"{writer.path} is complete: {writer.n_games:,} games", file=sys.stderr)
        return 0.0
    with progress(writer.n_games, desc="writing") as bar:
        writer.finish(progress=bar.update)
    print(f"wrote {writer.n_games:,} games to {writer.path}", file=sys.stderr)
    return time.perf_counter() - clock


def play(
    job: PlayoutJob,
    n_games: int,
    runner: Runner,
    *,
    first_game: int = 0,
    sinks: Sequence[Callable[[Playouts], object]] = (),
) -> bool:
    """Games ``first_game .. n_games - 1`` of ``job`` as ``runner`` plays
    them, with a progress bar on stderr; Ctrl-C stops the runner. Each
    finished range goes to every one of ``sinks`` in turn, as it comes, and
    nothing of it is kept here: memory stays that of one range. Returns
    whether Ctrl-C stopped the games."""
    interrupted = False
    with progress(n_games, initial=first_game) as bar:
        if first_game:
            ranges = runner.play(job, n_games, bar.update, first_game=first_game)
        else:
            ranges = runner.play(job, n_games, bar.update)
        try:
            for part in ranges:
                for sink in sinks:
                    sink(part)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            close = getattr(ranges, "close", None)
            if close is not None:
                close()  # stops the games under way (a generator's finally blocks)
    return interrupted


def _games(text: str) -> int:
    """An argparse type: a number of games, 1 to :data:`MAX_GAMES`."""
    value = options.count(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_GAMES:,} (the most games of one run), not {text}"
        )
    return value


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


def table(games: Tally, seconds: float, where: str, *, played: int | None = None) -> str:
    """The human summary of the games of ``games``, of which ``played``
    (default all) were played in ``seconds`` (the others by a run that was
    resumed)."""
    rules = games.rules
    n = len(games)
    played = n if played is None else played
    rate = f"{played / seconds:,.0f} games/s" if seconds > 0 else "-"
    timed = f"{n:,}" if played == n else f"{n:,} ({played:,} played now)"
    spec = registry.get(games.game).playouts
    described = spec.rules_text(rules)
    colors = spec.COLORS
    lines = [
        f"games         {timed} in {seconds:.2f} s on {where}: {rate}",
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
    ]
    if registry.get(games.game).options.has_pie_rule(rules):  # no swap line without a pie rule
        lines.append(f"swaps         {_percent(games.swap_rate())}")
    if games.stuck():
        lines.append(f"stuck         {games.stuck():,} games without a legal move")
    quantiles = games.plies_quantiles()
    spread = ", ".join(f"{q:.0%} {v:g}" for q, v in quantiles.items())
    lines.append(f"plies         mean {games.mean_plies():.1f} (quantiles {spread})")
    lines += spec.summary_lines(games)
    return "\n".join(lines)


def _percent(estimate: Estimate) -> str:
    return f"{estimate.rate:7.2%}  (95% CI {estimate.low:.2%} .. {estimate.high:.2%})"
