"""Options that several commands share: the game, its rules and the start position."""

from __future__ import annotations

import argparse
import os
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from veletas import games as registry
from veletas._checks import ascii_float, ascii_int
from veletas._paths import why_not_writable
from veletas.errors import InvalidFenError, LimitError, VeletasError
from veletas.limits import (
    MAX_ITERATIONS,
    MAX_SECONDS,
    MIN_SECONDS,
    check_iterations,
    check_seconds,
)
from veletas.rules_options import RuleOption, refuse_foreign


def _all_options() -> dict[str, list[tuple[registry.Game, RuleOption]]]:
    """Every game's rules options by name, with the games that have them."""
    found: dict[str, list[tuple[registry.Game, RuleOption]]] = {}
    for game in registry.every():
        for option in game.options.RULES:
            found.setdefault(option.name, []).append((game, option))
    return found


def add_rules(
    parser: argparse.ArgumentParser, *, skip: frozenset[str] = frozenset(), **defaults: Any
) -> None:
    """The game, and its rules: every game's rules options (from its room's
    table), each for the game that has it, but those named in ``skip``;
    ``defaults`` changes an option's default (``variant="small"``).

    An option's default on the command line is that of the first game that
    has it (the default game first); an option given, even at that value,
    is refused for a game without it."""
    group = parser.add_argument_group("game and rules")
    group.add_argument(
        "--game",
        choices=registry.names(),
        default=registry.DEFAULT,
        action=_GameGiven,
        help=f"the game to play (default {registry.DEFAULT}, or the game of a position given)",
    )
    shown: dict[str, Any] = {}
    for name, owners in _all_options().items():
        if name in skip:
            continue
        flag = owners[0][1].flag
        shown[name] = defaults.get(name, owners[0][1].default)
        described = "; ".join(f"{game.title}: {_help(option, defaults)}" for game, option in owners)
        kwargs: dict[str, Any] = {
            "dest": name,
            "default": shown[name],
            "help": described,
            "action": _Given,
        }
        if all(option.switch for _, option in owners):
            kwargs["nargs"] = 0
        elif len(owners) == 1:  # one game's: argparse checks the value itself
            option = owners[0][1]
            kwargs["choices"] = list(option.choices) if option.choices else None
            if option.parse is not None:
                kwargs["type"] = option.parse
        group.add_argument(flag, **kwargs)
    parser.set_defaults(rule_defaults=defaults, rule_shown=shown, rules_given=(), game_given=False)


class _GameGiven(argparse.Action):
    """``--game``: its value, and that it was given (else a position names it)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        namespace.game = values
        namespace.game_given = True


class _Given(argparse.Action):
    """A rules option: its value (True for a switch), and that it was given."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, True if self.nargs == 0 else values)
        namespace.rules_given = (*namespace.rules_given, self.dest)


def _help(option: RuleOption, defaults: dict[str, Any]) -> str:
    if option.name in defaults:
        return option.help.replace(f"default {option.default}", f"default {defaults[option.name]}")
    return option.help


def rules_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of the game's ``Board`` that :func:`add_rules`
    parsed.

    :raises InvalidRulesError: for an option of another game, or a value
        the option refuses.
    """
    values, _ = _rules_values(args)
    return values


def _rules_values(args: argparse.Namespace) -> tuple[dict[str, Any], set[str]]:
    """The option values of the parsed game, and the names of those given."""
    game = registry.get(args.game)
    every = _all_options()
    given = list(dict.fromkeys(getattr(args, "rules_given", ())))
    owners = {name: [g.title for g, _ in found] for name, found in every.items()}
    refuse_foreign(game.name, game.title, given, owners, spell=lambda name: every[name][0][1].flag)
    defaults = getattr(args, "rule_defaults", {})
    values: dict[str, Any] = {}
    for option in game.options.RULES:
        value = getattr(args, option.name, None)
        if option.name not in given:
            value = defaults.get(option.name, option.default)
        elif isinstance(value, str) and option.parse is not None:
            value = option.parse(value)
        values[option.name] = value
    return game.options.board_kwargs(values), set(given)


def given_rules(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of the rules options given (the others keep the
    game's defaults).

    :raises InvalidRulesError: as :func:`rules_kwargs`.
    """
    values, given = _rules_values(args)
    return {name: value for name, value in values.items() if name in given}


def board_from(args: argparse.Namespace, fen: str | None) -> Any:
    """The board of ``fen`` (or the start position) of the parsed game and
    rules. Without ``--game``, a position names its game (the games' position
    strings have forms of their own), and ``args.game`` becomes it.

    :raises InvalidFenError: for a position of no game, saying what each
        game made of it.
    """
    if fen is None or getattr(args, "game_given", True):
        return _board(args, fen)
    refused: list[str] = []
    for game in registry.every():
        trial = argparse.Namespace(**{**vars(args), "game": game.name})
        try:
            board = _board(trial, fen)
        except VeletasError as error:
            refused.append(f"as a {game.title} position, {error}")
            continue
        args.game = game.name
        return board
    raise InvalidFenError(f"{fen!r} is a position of no game: " + "; ".join(refused))


def _board(args: argparse.Namespace, fen: str | None) -> Any:
    game = registry.get(args.game)
    kwargs, given = _rules_values(args)
    if fen is not None:
        for name in game.options.FEN_TELLS - given:
            kwargs[name] = None  # the position string tells it
    return game.api().Board(fen, **kwargs)


class Deprecated(argparse.Action):
    """An old spelling of an option: it still works, and says so on stderr."""

    def __init__(self, option_strings: list[str], dest: str, *, new: str, **kwargs: Any) -> None:
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(
            f"veletas: warning: {option_string} is deprecated here; use {self.new}",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, values)


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


def seconds(text: str) -> float:
    """An argparse type: a search budget in seconds, within
    :data:`veletas.limits.MIN_SECONDS` .. :data:`~veletas.limits.MAX_SECONDS`."""
    try:
        value = ascii_float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    try:
        return check_seconds(value)
    except LimitError:
        raise argparse.ArgumentTypeError(
            f"must be a number of {MIN_SECONDS:g} to {MAX_SECONDS:g}, not {text}"
        ) from None


def iterations(text: str) -> int:
    """An argparse type: a search budget in iterations, 1 ..
    :data:`veletas.limits.MAX_ITERATIONS` (written as :func:`count` reads it)."""
    value = count(text)
    try:
        return check_iterations(value)
    except LimitError:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_ITERATIONS:,}, not {text}") from None


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
    rather than after it. The file itself is not created here. Only a regular
    file or a new name is taken (see :mod:`veletas._paths`)."""
    path = Path(text)
    reason = why_not_writable(text)
    if reason is not None:
        raise argparse.ArgumentTypeError(f"cannot write {text}: {reason}")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: no folder {folder}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return text


def output_file_or_stdout(text: str) -> str:
    """:func:`output_file`, or ``-`` for stdout."""
    return text if text == "-" else output_file(text)
