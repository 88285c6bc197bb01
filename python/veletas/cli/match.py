"""play bots against each other and rate them

Play games between two players, A and B, and print the score, A's win rate
with its 95% interval, the Elo difference, the first player's win rate and
the swap rate under that pairing, and the game lengths. With --round-robin,
play every pair of two or more players and print their ratings (a
Bradley-Terry fit in Elo, random = 0) with 95% intervals.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from veletas import games as registry
from veletas.cli import options, saving
from veletas.cli.playout import LOCAL_RAY, seed
from veletas.errors import VeletasError
from veletas.match import KINDS, MCTS_OPTIONS, MatchResult, RoundRobin, match, round_robin

DEFAULT_GAMES = 100
"""The games of a match, or of each pair of a round robin."""


def games_defaults(attribute: str) -> str:
    """Each game's default of a search option, the native search player's
    ``attribute``, as help text: "0.7 for Veletas, 1.4 for Meridians"."""
    try:
        values = [
            f"{getattr(game.bots.mcts_player, attribute)} for {game.title}"
            for game in registry.every()
        ]
    except ImportError:  # no compiled extension: no search to describe
        return "the game's"
    return "the game's: " + ", ".join(values)


def option_help(text: str) -> str:
    """An option's help text, wrapped into the players' help column."""
    return textwrap.fill(text, width=82, initial_indent=" " * 34, subsequent_indent=" " * 34)[34:]


EXPLORATION_HELP = option_help(
    f"the UCT constant (default: {games_defaults('DEFAULT_EXPLORATION')}; "
    f"for uct and with cutoff=0, {games_defaults('UCT_EXPLORATION')})"
)
CUTOFF_HELP = option_help(
    "mcts only: the random decisions of a playout before the game's estimate "
    f"scores it (default: {games_defaults('DEFAULT_CUTOFF')}; 0: every playout "
    "to the end)"
)

PLAYERS = f"""\
players:
  random                        a uniformly random legal move
  greedy                        one ply deep: a winning move, else the best
                                immediate gain; ties at random
  mcts                          Monte Carlo tree search (UCT with a solver), 1 s a move
  uct                           plain UCT, the fixed baseline of strength figures
  mcts:OPTION=VALUE,...         with the options {", ".join(MCTS_OPTIONS)}
  uct:OPTION=VALUE,...          (the same for both):
    iterations=N                  N playouts a move (reproducible)
    seconds=S                     S seconds a move (with iterations too: whichever
                                  runs out first; not reproducible)
    exploration=C                 {EXPLORATION_HELP}
    threads=T                     T search threads (default 1; above 1 not
                                  reproducible)
    solve_share=F                 mcts only: the share F (0 to 1) of each move's
                                  budget that the exact solver gets first; a win
                                  it proves is played (default 0.1; 0: off)
    cutoff=N                      {CUTOFF_HELP}

examples:
  veletas match mcts:iterations=2000 random --games 200 --variant small
  veletas match mcts:seconds=0.5 mcts:seconds=0.1 --games 40 --threads 2
  veletas match mcts:seconds=0.25 uct:seconds=0.25 --games 200 --threads 2
  veletas match --round-robin random greedy mcts:iterations=300 mcts:iterations=3000 \\
      --games 100 --variant small --json

Seats alternate: A (the first player named) moves first in the even games. Game i's
bots are seeded from (--seed, i) alone, so with iteration budgets the same command
plays the same games on any number of threads and on Ray. Ctrl-C stops and
summarises the games finished."""


EPILOG = PLAYERS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help=f"a player: {', '.join(KINDS)} or mcts:OPTION=VALUE,... (see below)",
    )
    parser.add_argument(
        "--round-robin",
        action="store_true",
        help="play every pair of the players (two or more) and rate them",
    )
    parser.add_argument(
        "--games",
        type=options.positive,
        help=f"games of the match, or of each pair (default {DEFAULT_GAMES}, or twice the "
        "--openings)",
    )
    parser.add_argument(
        "--openings",
        type=options.positive,
        metavar="N",
        help="start from N openings of the seed (each a setup played at random, which a "
        "short exact solve leaves undecided), each played twice with the seats swapped: "
        "2N games unless --games says otherwise; the two games of a pair cancel the luck "
        "of the opening",
    )
    parser.add_argument(
        "--sprt",
        type=_sprt,
        metavar="ELO0,ELO1",
        help="a sequential probability ratio test on the pairs of games (pentanomial, "
        "alpha = beta = 0.05): H0, A is ELO0 stronger than B, against H1, ELO1 stronger; "
        "the match stops as soon as one is accepted, and prints the log-likelihood ratio, "
        "its bounds and the decision (--json carries them)",
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="the seed of the match, 0 to 2**64 - 1 (default 0)"
    )
    options.add_rules(parser)
    parser.add_argument(
        "--json", action="store_true", help="print the summary as JSON (the progress bar stays)"
    )
    saving.add_save(parser, "the games, the players named by their specs,")
    group = parser.add_argument_group("where to play")
    group.add_argument(
        "--threads",
        type=options.positive,
        help="games played at once, each on its own thread (default: one per core); "
        "with --ray, the games of one Ray task at once and the CPUs it asks for (default 1)",
    )
    group.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        metavar="ADDRESS",
        help="play on a Ray cluster: the one whose head is at ADDRESS (HOST:PORT), or a "
        "local Ray runtime without ADDRESS; the games are the same as on this machine "
        "(needs the extra ray)",
    )
    group.add_argument(
        "--chunk-size",
        type=options.positive,
        metavar="GAMES",
        help="with --ray, the games of one Ray task (default: a quarter of the games "
        "per CPU, at most 16)",
    )


def run(args: argparse.Namespace) -> int:
    if args.round_robin and len(args.players) < 2:
        return _fail("--round-robin needs two players or more")
    if not args.round_robin and len(args.players) != 2:
        return _fail(
            f"a match needs two players, A and B, not {len(args.players)} "
            "(use --round-robin for more)"
        )
    if args.chunk_size is not None and args.ray is None:
        return _fail("--chunk-size needs --ray")
    problem = saving.save_problem(args)
    if problem is not None:
        return _fail(problem)
    if args.save is not None and not hasattr(registry.get(args.game).room("match"), "record"):
        return _fail(f"{args.game} games cannot be written as records yet")
    if args.openings is not None and args.round_robin:
        return _fail("--openings plays a match of two players, not a --round-robin")
    if args.sprt is not None and args.round_robin:
        return _fail("--sprt tests a match of two players, not a --round-robin")
    if args.games is None:
        args.games = DEFAULT_GAMES if args.openings is None else 2 * args.openings
    # The game's Board gets the rule options given; the others keep its defaults.
    rules = options.given_rules(args)
    common: dict[str, Any] = {
        "game": args.game,
        "seed": args.seed,
        "threads": args.threads,
        "ray": False if args.ray is None else (args.ray or True),
        "chunk_size": args.chunk_size,
        **rules,
    }
    result: MatchResult | RoundRobin
    try:
        if args.round_robin:
            result = round_robin(args.players, args.games, **common)
        else:
            a, b = args.players
            result = match(a, b, args.games, openings=args.openings, sprt=args.sprt, **common)
    except (ModuleNotFoundError, ConnectionError) as error:
        return _fail(str(error))
    except VeletasError:
        raise  # the command line prints it
    except ValueError as error:
        return _fail(str(error))
    if result.interrupted:
        played, requested = _counts(result)
        print(f"veletas: interrupted: {played:,} of {requested:,} games finished", file=sys.stderr)
    if args.json:
        print(json.dumps(result.summary(), indent=2))
    else:
        print(result)
    if args.save is not None:
        _save(result, args)
    return 130 if result.interrupted else 0


def _counts(result: MatchResult | RoundRobin) -> tuple[int, int]:
    pairs = result.pairs if isinstance(result, RoundRobin) else (result,)
    return sum(len(p) for p in pairs), sum(p.requested for p in pairs)


def _save(result: MatchResult | RoundRobin, args: argparse.Namespace) -> None:
    path = args.save
    pairs = result.pairs if isinstance(result, RoundRobin) else (result,)
    saving.save_records(args, (record for p in pairs for record in p.records()))
    played, _ = _counts(result)
    print(f"wrote {played:,} games to {path}", file=sys.stderr)


def _sprt(text: str) -> Any:
    """An argparse type: ``ELO0,ELO1``."""
    from veletas.sprt import parse_sprt

    try:
        return parse_sprt(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _fail(message: str) -> int:
    print(f"veletas: error: {message}", file=sys.stderr)
    return 2
