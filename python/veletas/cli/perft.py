"""count the move sequences of a given length (move generator check)

Count the move sequences of exactly DEPTH moves from a position (RULES.md
section 6). With --divide, print the count below each first move.
"""

from __future__ import annotations

import argparse
import sys
import time

from veletas._implementation import IMPLEMENTATION
from veletas.cli import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("depth", type=options.non_negative, help="the number of moves (0 or more)")
    parser.add_argument(
        "fen",
        nargs="?",
        help="the position string, as for 'veletas show' (default: the start of the game)",
    )
    options.add_rules(parser)
    parser.add_argument(
        "--fen", dest="fen_option", metavar="FEN", help="the position, given as an option instead"
    )
    parser.add_argument("--divide", action="store_true", help="print the count per first move")


def run(args: argparse.Namespace) -> int:
    if args.fen is not None and args.fen_option is not None and args.fen != args.fen_option:
        print("veletas: error: two positions given: FEN and --fen FEN", file=sys.stderr)
        return 2
    board = options.board_from(args, args.fen if args.fen is not None else args.fen_option)
    start = time.perf_counter()
    if args.divide and args.depth > 0:
        counts = board.perft_divide(args.depth)
        for move, count in counts.items():
            print(f"{move} {count}")
        nodes = sum(counts.values())
    else:
        nodes = board.perft(args.depth)
    elapsed = time.perf_counter() - start
    print(f"perft({args.depth}) = {nodes}  [{elapsed:.3f} s, {IMPLEMENTATION} backend]")
    return 0
