"""print a position given as a position string, or draw it as SVG

Print the board of a position string; with --svg, draw it to a file.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from veletas import games as registry
from veletas.cli import draw, options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("fen", help="the position string, e.g. '7/7/7/7/7/7/7 b setup 3'")
    parser.add_argument(
        "--svg",
        metavar="OUT",
        type=options.output_file_or_stdout,
        help="write an SVG picture to OUT ('-': stdout)",
    )
    parser.add_argument(
        "--width", type=options.integer, default=400, help="the SVG's width in pixels"
    )
    parser.add_argument("--flipped", action="store_true", help="turn the board around")
    parser.add_argument("--lastmove", help="a move to mark on the picture, e.g. d4-d7/f9")
    # --size is the board's, as in every command (the picture's is --width).
    options.add_rules(parser)
    parser.add_argument("--no-color", action="store_true", help="print without colours")


def run(args: argparse.Namespace) -> int:
    board = options.board_from(args, args.fen)
    move_type = registry.game_of(board).api().Move
    lastmove: Any = move_type.parse(args.lastmove) if args.lastmove else None
    if args.svg is None:
        color = draw.use_color(sys.stdout, args.no_color)
        draw.print_board(board, color=color, lastmove=lastmove)
        print(draw.status_text(board, {}))
        return 0
    try:
        picture = registry.game_of(board).draw(
            board, lastmove=lastmove, size=args.width, flipped=args.flipped
        )
    except ValueError as error:  # the picture's width
        print(f"veletas: error: --width {args.width}: {error}", file=sys.stderr)
        return 2
    if args.svg == "-":
        print(picture)
    else:
        with open(args.svg, "w", encoding="utf-8") as file:
            file.write(picture + "\n")
        print(f"wrote {args.svg}")
    return 0
