"""Options that several commands share: the game, its rules and the start position."""

from __future__ import annotations

import argparse
from typing import Any

from veletas import games
from veletas.errors import InvalidRulesError
from veletas.games.meridians.types import SIZES
from veletas.games.veletas.types import SETUP_RULES, VARIANTS

VELETAS_ONLY = {
    "variant": "standard",
    "shooters": None,
    "setup_rule": "perimeter",
    "shooters_block": False,
}
"""The options of Veletas's rules, with their defaults."""


def add_rules(parser: argparse.ArgumentParser) -> None:
    """The game, and its rules: the variant, custom size and shooter count and
    the two rule options of Veletas; the size and the pie rule of Meridians."""
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
        default="standard",
        help="Veletas: standard (10x10, 7 shooters), medium (9x9, 5) or small (7x7, 3); "
        "default standard",
    )
    group.add_argument(
        "--size",
        help="Veletas: a custom board size N, 5 to 10; Meridians: the board, "
        f"{', '.join(SIZES)} (default 6-7)",
    )
    group.add_argument(
        "--shooters", type=int, help="Veletas: a custom shooter count K, odd and at least 3"
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
        given = [name for name, default in VELETAS_ONLY.items() if getattr(args, name) != default]
        if given:
            flags = ", ".join("--" + name.replace("_", "-") for name in given)
            raise InvalidRulesError(f"{flags}: Veletas options, not for --game meridians")
        return {"size": "6-7" if args.size is None else args.size, "pie": args.pie}
    if args.pie:
        raise InvalidRulesError("--pie is a Meridians option: Veletas always has the pie rule")
    size = args.size
    if size is not None:
        try:
            size = int(size)
        except ValueError:
            raise InvalidRulesError(f"--size {size!r} is not a whole number") from None
    return {
        "variant": args.variant,
        "size": size,
        "shooters": args.shooters,
        "setup_rule": args.setup_rule,
        "shooters_block": args.shooters_block,
    }


def board_from(args: argparse.Namespace, fen: str | None) -> Any:
    """The board of ``fen`` (or the start position) of the parsed game and rules."""
    board_type = games.get(args.game).api().Board
    kwargs = rules_kwargs(args)
    if args.game == "meridians" and fen is not None and args.size is None:
        kwargs["size"] = None  # the position string tells the size
    return board_type(fen, **kwargs)


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
