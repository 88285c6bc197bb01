"""``veletas show``: print a position, or draw it as SVG."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import veletas
from veletas import meridians
from veletas.cli import draw, options
from veletas.games.veletas.types import SETUP_RULES


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "show",
        help="print a position given as a position string, or draw it as SVG",
        description="Print the board of a position string; with --svg, draw it to a file.",
    )
    parser.add_argument("fen", help="the position string, e.g. '7/7/7/7/7/7/7 b setup 3'")
    parser.add_argument(
        "--svg",
        metavar="OUT",
        type=options.output_file_or_stdout,
        help="write an SVG picture to OUT ('-': stdout)",
    )
    parser.add_argument(
        "--game",
        choices=("veletas", "meridians"),
        default="veletas",
        help="the game of the position string (default veletas)",
    )
    parser.add_argument(
        "--size", type=options.integer, default=400, help="the SVG's width in pixels"
    )
    parser.add_argument("--flipped", action="store_true", help="turn the board around")
    parser.add_argument("--lastmove", help="a move to mark on the picture, e.g. d4-d7/f9")
    parser.add_argument(
        "--setup-rule",
        choices=list(SETUP_RULES),
        default="perimeter",
        help="Veletas: the setup rule (default perimeter)",
    )
    parser.add_argument(
        "--shooters-block", action="store_true", help="Veletas: shooters end lines like stones"
    )
    parser.add_argument(
        "--claimed-shooters-block",
        action="store_true",
        help="Veletas: claimed shooters end lines (Boardspace's rules)",
    )
    parser.add_argument("--pie", action="store_true", help="Meridians: the pie rule is on")
    parser.add_argument("--no-color", action="store_true", help="print without colours")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    lastmove: Any
    if args.game == "meridians":
        board: Any = meridians.Board(args.fen, pie=args.pie)
        lastmove = meridians.Move.parse(args.lastmove) if args.lastmove else None
    else:
        board = veletas.Board(
            args.fen,
            setup_rule=args.setup_rule,
            shooters_block=args.shooters_block,
            claimed_shooters_block=args.claimed_shooters_block,
        )
        lastmove = veletas.Move.parse(args.lastmove) if args.lastmove else None
    if args.svg is None:
        color = draw.use_color(sys.stdout, args.no_color)
        draw.print_board(board, color=color, lastmove=lastmove)
        print(draw.status_text(board, {}))
        return 0
    picture = veletas.svg.board(board, lastmove=lastmove, size=args.size, flipped=args.flipped)
    if args.svg == "-":
        print(picture)
    else:
        with open(args.svg, "w", encoding="utf-8") as file:
            file.write(picture + "\n")
        print(f"wrote {args.svg}")
    return 0
