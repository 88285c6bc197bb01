"""Options that several commands share: the game, its rules and the start position."""

from __future__ import annotations

import argparse
import os
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from veletas import games
from veletas._checks import ascii_int
from veletas.errors import InvalidRulesError
from veletas.games.meridians.types import SIZES
from veletas.games.veletas.types import SETUP_RULES, VARIANTS

VELETAS_ONLY = {
    "variant": "standard",
    "shooters": None,
    "setup_rule": "perimeter",
    "shooters_block": False,
    "claimed_shooters_block": False,
}
"""The options of Veletas's rules, with their defaults."""


def add_rules(parser: argparse.ArgumentParser, default_variant: str = "standard") -> None:
    """The game, and its rules: the variant (``default_variant`` unless
    given), custom size and shooter count and the rule options of
    Veletas; the size and the pie rule of Meridians."""
    parser.set_defaults(default_variant=default_variant)
    group = parser.add_argument_group("game and rules")
    group.add_argument(
        "--game",
        choices=list(games.GAMES),
        default="veletas",
        help="the game to play (default veletas)",
    )
    group.add_argument(
        "--variant",
        choices=list(VARIANTS),
        default=default_variant,
        help="Veletas: standard (10x10, 7 shooters), medium (9x9, 5) or small (7x7, 3); "
        f"default {default_variant}",
    )
    group.add_argument(
        "--size",
        help="Veletas: a custom board size N, 5 to 10; Meridians: the board, "
        f"{', '.join(SIZES)} (default 6-7)",
    )
    group.add_argument(
        "--shooters", type=integer, help="Veletas: a custom shooter count K, odd and at least 3"
    )
    group.add_argument(
        "--setup-rule",
        choices=list(SETUP_RULES),
        default="perimeter",
        help="Veletas: where setup may place shooters (default perimeter)",
    )
    group.add_argument(
        "--shooters-block",
        action="store_true",
        help="Veletas: shooters end lines like stones do (an older published rule)",
    )
    group.add_argument(
        "--claimed-shooters-block",
        action="store_true",
        help="Veletas: claimed shooters end lines and claims repeat until none "
        "changes (Boardspace's rules)",
    )
    group.add_argument(
        "--pie",
        action="store_true",
        help="Meridians: play with the pie rule (Veletas always has it)",
    )


def rules_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of the game's ``Board`` that :func:`add_rules`
    parsed.

    :raises InvalidRulesError: for an option of the other game, or a Veletas
        size that is not a whole number.
    """
    if args.game == "meridians":
        defaults = {**VELETAS_ONLY, "variant": getattr(args, "default_variant", "standard")}
        given = [name for name, default in defaults.items() if getattr(args, name) != default]
        if given:
            flags = ", ".join("--" + name.replace("_", "-") for name in given)
            raise InvalidRulesError(f"{flags}: Veletas options, not for --game meridians")
        return {"size": "6-7" if args.size is None else args.size, "pie": args.pie}
    if args.pie:
        raise InvalidRulesError("--pie is a Meridians option: Veletas always has the pie rule")
    size = args.size
    if size is not None:
        try:
            size = ascii_int(size)
        except ValueError:
            raise InvalidRulesError(f"--size {size!r} is not a whole number") from None
    return {
        "variant": args.variant,
        "size": size,
        "shooters": args.shooters,
        "setup_rule": args.setup_rule,
        "shooters_block": args.shooters_block,
        "claimed_shooters_block": args.claimed_shooters_block,
    }


def board_from(args: argparse.Namespace, fen: str | None) -> Any:
    """The board of ``fen`` (or the start position) of the parsed game and rules."""
    board_type = games.get(args.game).api().Board
    kwargs = rules_kwargs(args)
    if args.game == "meridians" and fen is not None and args.size is None:
        kwargs["size"] = None  # the position string tells the size
    return board_type(fen, **kwargs)


def integer(text: str) -> int:
    """An argparse type: an int, in the digits 0-9 (``int`` would take any
    script's digits)."""
    return ascii_int(text)


def non_negative(text: str) -> int:
    """An argparse type: an int of 0 or more."""
    value = ascii_int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive(text: str) -> int:
    """An argparse type: an int of 1 or more."""
    value = ascii_int(text)
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
    if not text.isascii():  # int() and Decimal() read any script's digits
        raise argparse.ArgumentTypeError(f"not a number of digits 0-9: {text!r}")
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
