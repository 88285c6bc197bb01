"""Options that several commands share: the rules of the game and the start position."""

from __future__ import annotations

import argparse
import os
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import veletas
from veletas.base import SETUP_RULES, VARIANTS


def add_rules(parser: argparse.ArgumentParser, default_variant: str = "standard") -> None:
    """The variant (``default_variant`` unless given), custom size and
    shooter count, and the two rule options."""
    group = parser.add_argument_group("rules")
    group.add_argument(
        "--variant",
        choices=list(VARIANTS),
        default=default_variant,
        help="standard (10x10, 7 shooters), medium (9x9, 5) or small (7x7, 3); "
        f"default {default_variant}",
    )
    group.add_argument("--size", type=int, help="custom board size N, 5 to 10")
    group.add_argument("--shooters", type=int, help="custom shooter count K, odd and at least 3")
    group.add_argument(
        "--setup-rule",
        choices=list(SETUP_RULES),
        default="perimeter",
        help="where setup may place shooters (default perimeter)",
    )
    group.add_argument(
        "--shooters-block",
        action="store_true",
        help="shooters end lines like stones do (an older published rule)",
    )


def rules_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of ``veletas.Board`` that :func:`add_rules` parsed."""
    return {
        "variant": args.variant,
        "size": args.size,
        "shooters": args.shooters,
        "setup_rule": args.setup_rule,
        "shooters_block": args.shooters_block,
    }


def board_from(args: argparse.Namespace, fen: str | None) -> veletas.Board:
    """The board of ``fen`` (or the start position) under the parsed rules."""
    return veletas.Board(fen, **rules_kwargs(args))


def non_negative(text: str) -> int:
    """An argparse type: an int of 0 or more."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive(text: str) -> int:
    """An argparse type: an int of 1 or more."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def count(text: str) -> int:
    """An argparse type: a count of 1 or more, below 2**64, written as an
    integer (``1000000``, ``1_000_000``) or as a whole number in any other
    notation (``1e6``, ``2.5e5``)."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {text}")
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"must be below 2**64, not {text}")
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not number.is_finite() or number != number.to_integral_value():
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    if number.adjusted() > 20:  # far beyond any count: no need to spell it out
        raise argparse.ArgumentTypeError(f"must be below 2**64, not {text}")
    return int(number)


def output_file(text: str) -> str:
    """An argparse type: a file the command will write (or append to), checked
    when the arguments are read, so that a bad path fails before any work
    rather than after it. The file itself is not created here."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: it is a directory")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: no folder {folder}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return text


def output_file_or_stdout(text: str) -> str:
    """:func:`output_file`, or ``-`` for stdout."""
    return text if text == "-" else output_file(text)
