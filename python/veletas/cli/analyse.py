"""search a position and print the best moves with their chances to win

Search the position of a position string with the MCTS bot and print its
most searched moves: each move's playouts, its share and the chance to win
of the player to act after it, the proven result where the search proved one
and the line it expects. The chance of the position is the mean of its
moves' chances, weighted by their playouts.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from veletas import games as registry
from veletas.cli import options
from veletas.cli.playout import seed
from veletas.cli.progress import LINE_SECONDS


def add_search(parser: argparse.ArgumentParser, default_seconds: float) -> None:
    """The options of the search: its budget, threads and seed."""
    group = parser.add_argument_group("the search")
    group.add_argument(
        "--seconds",
        type=options.seconds,
        default=None,
        help=f"search time per position (default {default_seconds:g}, or none with --iterations)",
    )
    group.add_argument(
        "--iterations",
        type=options.iterations,
        metavar="N",
        help="playouts per position and thread (reproducible without --seconds)",
    )
    group.add_argument(
        "--threads", type=options.positive, default=1, help="search threads (default 1)"
    )
    group.add_argument("--seed", type=seed, default=0, help="the search's seed (default 0)")
    parser.set_defaults(default_seconds=default_seconds)


def budget(args: argparse.Namespace) -> tuple[float | None, int | None]:
    """The seconds and iterations that :func:`add_search` parsed."""
    if args.seconds is None and args.iterations is None:
        return args.default_seconds, None
    return args.seconds, args.iterations


EPILOG = (
    "examples:\n"
    "  veletas analyse '7/2x4/7/1s5/7/o1s2s1/7 b play 3'\n"
    "  veletas analyse '6/7/8/9/10/10/9/8/7/6 l open' --game meridians --seconds 3"
)
"""The examples below the options of ``--help``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("fen", help="the position string, e.g. '7/2x4/7/1s5/7/o1s2s1/7 b play 3'")
    parser.add_argument(
        "--top", type=options.positive, default=5, help="how many moves to list (default 5)"
    )
    add_search(parser, 1.0)
    options.add_rules(parser)


def run(args: argparse.Namespace) -> int:
    from veletas.bots import MctsBot
    from veletas.review import evaluate

    board = options.board_from(args, args.fen)
    room = registry.game_of(board).records
    if board.is_game_over():
        winner = board.winner
        won = "nobody" if winner is None else room.PLAYERS[int(winner)]
        print(
            f"veletas: error: the game is over in {board.fen()!r} ({won} won): "
            "there is no move to analyse",
            file=sys.stderr,
        )
        return 2
    limit, iterations = budget(args)
    bot = MctsBot(seconds=limit, iterations=iterations, threads=args.threads, seed=args.seed)
    to_act = room.PLAYERS[int(board.turn)]
    said = " or ".join(
        part
        for part in (
            f"{limit:g} s" if limit is not None else "",
            f"{iterations:,} playouts" if iterations is not None else "",
        )
        if part
    )
    print(f"analysing {board.fen()} ({to_act} to act) for {said}...", file=sys.stderr, flush=True)
    evaluation = _in_background(lambda stop: evaluate(bot, board, stop=stop), limit)
    analysis = evaluation.analysis
    assert analysis is not None  # the game is not over
    if not analysis.moves:
        print(
            f"{to_act} to act in {board.fen()}: the search ended before it tried a whole "
            f"move ({analysis.iterations:,} playouts in {analysis.seconds:.2f} s); give it "
            "more time (--seconds) or playouts (--iterations)"
        )
        return 0
    print(
        f"{to_act} to act in {board.fen()}: {to_act}'s chance to win {evaluation.chance:.0%}"
        f"{_proven(evaluation.proven)}; {analysis.iterations:,} playouts in "
        f"{analysis.seconds:.2f} s"
    )
    print()
    print(f"  {'move':<14} {'win':>5} {'playouts':>11} {'share':>6}  proven")
    for rank, stats in enumerate(analysis.moves[: args.top], start=1):
        proven = getattr(stats, "proven", None) or ""
        print(
            f"{rank:>2}. {stats.move!s:<12} {stats.value:>5.0%} {stats.visits:>11,} "
            f"{stats.share:>6.1%}  {proven}".rstrip()
        )
    if evaluation.line:
        print()
        print("line: " + " ".join(str(move) for move in evaluation.line))
    return 0


def _proven(proven: str | None) -> str:
    return "" if proven is None else f" (proven {proven})"


def _in_background(work: Any, limit: float | None) -> Any:
    """``work(stop)`` in a thread, so that Ctrl-C here stops the search; a
    line on stderr every :data:`~veletas.cli.progress.LINE_SECONDS` says how
    far a long search is."""
    from veletas._background import interruptible
    from veletas.bots import StopFlag

    stop = StopFlag()
    shown = [0.0]

    def say(seconds: float) -> None:
        if seconds - shown[0] >= LINE_SECONDS:
            shown[0] = seconds
            of = f" of {limit:g}" if limit is not None else ""
            print(f"searching: {seconds:.0f}{of} s", file=sys.stderr, flush=True)

    return interruptible(lambda: work(stop), stop, say)
