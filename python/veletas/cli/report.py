"""write the report of saved games: win rates, game length, openings, as HTML

Write a self-contained HTML report of the games of FILE (saved by 'veletas
playout --save', a Parquet dataset or game records): the first player's win
rate with and without the pie swap, the game length, how games end (Veletas:
the final claims; Meridians: the stones left and removed), the first
player's win rate by the first placements drawn on the board (Veletas: the
squares of the first shooter and stone; Meridians: the first stone's point
on the hexagon), and the game metrics, each proportion with its Wilson 95%
interval. Needs the extra report.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from veletas._paths import why_not_readable

FORMATS = ("png", "pdf", "svg")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a Parquet dataset (.parquet) or a file of game records")
    parser.add_argument(
        "--out",
        metavar="HTML",
        help="where to write the report (default: FILE with .html in place of its suffix)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        action="append",
        default=[],
        help="also write each figure as a file of this format, in the folder "
        "HTML-figures beside the report (may be given more than once)",
    )
    parser.add_argument("--title", help="the report's title (default: what the games are)")


def run(args: argparse.Namespace) -> int:
    from veletas.report import report

    source = Path(args.file)
    why = why_not_readable(source)
    if why is not None:
        print(f"veletas: error: {args.file}: {why}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else source.with_suffix(".html")
    try:
        written = report(source, out, formats=args.format, title=args.title)
    except ModuleNotFoundError as error:
        print(f"veletas: error: {error}", file=sys.stderr)
        return 2
    print(f"wrote the report to {written}", file=sys.stderr)
    return 0
