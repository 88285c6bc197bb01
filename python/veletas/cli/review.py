"""go through a recorded game: the chances to win before and after each move,
the preferred moves and the mistakes

Search every position of a recorded game (written by 'veletas play --save',
'veletas match --save' or the page of 'veletas serve') and print, for every
move, the mover's chance to win before and after it, the move the search
preferred, and the mistakes: moves other than the preferred one after which
the mover's chance dropped by more than the threshold. With --out, also
write a self-contained HTML page with the win-chance curve.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from veletas._paths import why_not_readable
from veletas.cli import options
from veletas.cli.analyse import add_search, budget
from veletas.cli.progress import progress

DEFAULT_SECONDS = 0.5
"""The search time per position of ``veletas review`` (as :func:`veletas.review`)."""


def threshold(text: str) -> float:
    """An argparse type: a drop of the chance to win, as 0.15 or 15%."""
    percent = text.endswith("%")
    try:
        value = float(text.removesuffix("%")) / (100 if percent else 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1 (or 0% and 100%), not {text}")
    return value


EPILOG = (
    "examples:\n"
    "  veletas review games.txt\n"
    "  veletas review games.txt --number 3 --seconds 2 --out game3.html\n"
    "  veletas review games.txt --iterations 20000 --threshold 10%"
)
"""The examples below the options of ``--help``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a record file (docs/records.md)")
    parser.add_argument(
        "--number",
        metavar="K",
        type=options.positive,
        default=1,
        help="which game of the file, from 1 (default 1)",
    )
    parser.add_argument(
        "--threshold",
        type=threshold,
        default=0.15,
        help="the drop of the chance to win that makes a mistake, 0.15 or 15%% (default 15%%)",
    )
    parser.add_argument(
        "--out",
        metavar="HTML",
        type=options.output_file,
        help="also write the review as an HTML page with the win-chance curve",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace an existing --out HTML",
    )
    add_search(parser, DEFAULT_SECONDS)


def run(args: argparse.Namespace) -> int:
    from veletas.review import review
    from veletas.review_page import check_target, write_page

    source = Path(args.file)
    why = why_not_readable(source)
    if why is not None:
        print(f"veletas: error: {args.file}: {why}", file=sys.stderr)
        return 2
    if args.out is not None:
        check_target(args.out, force=args.force)  # before the search, not after it
    limit, iterations = budget(args)
    with progress(1, desc="reviewed", unit="positions") as bar:

        def step(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        result = review(
            source,
            seconds=limit,
            iterations=iterations,
            threshold=args.threshold,
            threads=args.threads,
            seed=args.seed,
            number=args.number,
            progress=step,
        )
    print(result.table())
    if args.out is not None:
        written = write_page(result, args.out, force=args.force)
        print(f"wrote the review to {written}", file=sys.stderr)
    return 0
