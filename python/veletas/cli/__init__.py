"""The ``veletas`` command line: one subcommand per module of this package.

Each command module has ``register(subparsers)``, which adds its parser and
sets ``handler``, a function of the parsed arguments returning the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from veletas.errors import VeletasError

__all__ = ["main"]

COMMANDS = ["playout", "match", "play", "replay", "show", "perft"]
"""The command modules, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="veletas",
        description="Play, simulate and study the board game Veletas.",
        epilog="Run 'veletas COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"veletas.cli.{name}").register(subparsers)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("veletas")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``)."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
        return status
    except VeletasError as error:
        print(f"veletas: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("veletas: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
