"""The ``veletas`` command line: one subcommand per module of this package.

Each command module is read as click reads a command: its docstring is its
help (the first line, in the list of commands) and its description (the
rest, above its options); ``add_arguments(parser)`` adds its options;
``run(args)`` runs it and returns the exit code; ``EPILOG``, where there is
one, is printed below the options as it is written (examples).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
from collections.abc import Sequence

from veletas import _implementation
from veletas._implementation import IMPLEMENTATION, version
from veletas.errors import VeletasError

__all__ = ["main"]

COMMANDS = [
    "playout",
    "match",
    "report",
    "play",
    "replay",
    "review",
    "analyse",
    "solve",
    "show",
    "perft",
    "serve",
]
"""The command modules, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser, and the parser of each command by name."""
    parser = argparse.ArgumentParser(
        prog="veletas",
        description=(
            "Play, simulate and study the board games Veletas and Meridians "
            "(--game meridians; Veletas by default)."
        ),
        epilog=(
            "Run 'veletas COMMAND --help' for the options of a command. Every command "
            "runs on the native core, or on the pure-Python reference with the "
            "environment variable VELETAS_IMPLEMENTATION=python; perft and playout "
            "say which."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name in COMMANDS:
        _add_command(subparsers, name)
    return parser, dict(subparsers.choices)


def _add_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str
) -> None:
    """The parser of the command module ``name``, as this module's docstring says."""
    module = importlib.import_module(f"veletas.cli.{name}")
    summary, _, description = inspect.cleandoc(module.__doc__ or "").partition("\n\n")
    summary = " ".join(summary.split())
    epilog: str | None = getattr(module, "EPILOG", None)
    parser = subparsers.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter if epilog else argparse.HelpFormatter,
    )
    module.add_arguments(parser)
    parser.set_defaults(handler=module.run)


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line. A command's options may come before, between
    or after its positionals (``veletas perft 2 --game meridians FEN``):
    argparse alone gives an optional positional no second chance once an
    option has come."""
    parser, commands = _build()
    tokens = list(sys.argv[1:] if argv is None else argv)
    if tokens and tokens[0] in commands:
        return commands[tokens[0]].parse_intermixed_args(tokens[1:])
    return parser.parse_args(tokens)


def _version() -> str:
    return f"{version()} ({IMPLEMENTATION} backend)"


BROKEN_PIPE = 141
"""The exit status when the reader of the output goes away (``veletas ... |
head``): 128 + SIGPIPE, as a Unix tool killed by the signal reports."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``)."""
    for stream in (sys.stdout, sys.stderr):
        # A record's tag may hold a lone surrogate (escaped in the file):
        # shown escaped, not a crash.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = parse(argv)
    try:
        status: int = args.handler(args)
        sys.stdout.flush()  # so that a closed pipe shows here, not at exit
        return status
    except VeletasError as error:
        print(f"veletas: error: {error}", file=sys.stderr)
        return 2
    except ImportError as error:
        if _implementation.native is not None:
            raise  # a broken installation, not a missing extension: the traceback says where
        print(f"veletas: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("veletas: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader has gone, as `head` does once it has its lines: stop
        # quietly, and keep Python's final flush of stdout from failing too.
        _drop_stdout()
        return BROKEN_PIPE
    except OSError as error:
        print(f"veletas: error: {_os_error_text(error)}", file=sys.stderr)
        return 2


def _os_error_text(error: OSError) -> str:
    """``file: reason`` for a file that could not be read or written."""
    if error.filename is None or error.strerror is None:
        return str(error)
    return f"{error.filename}: {error.strerror}"


def _drop_stdout() -> None:
    """Point stdout at the null device: nothing more can reach the reader."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # not a real file (captured output): nothing to do
        pass


if __name__ == "__main__":
    sys.exit(main())
