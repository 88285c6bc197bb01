"""Boards in a terminal, for every game: ANSI colours on a tty, the plain
drawing elsewhere. Each game's own drawing, status line and help live in its
room (``veletas.games.<game>.terminal``)."""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from veletas import games as registry


def terminal(board: Any) -> registry.TerminalRoom:
    """The terminal of the game ``board`` plays."""
    return registry.game_of(board).terminal


def use_color(stream: TextIO, no_color: bool = False) -> bool:
    """Colour on a terminal, unless ``--no-color`` or ``NO_COLOR`` says no."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def board_text(board: Any, *, color: bool, lastmove: Any = None) -> str:
    """The drawing of ``board``, as its game draws it."""
    text: str = terminal(board).board_text(board, color=color, lastmove=lastmove)
    return text


def status_text(board: Any, names: dict[int, str]) -> str:
    """Who acts and the phase, or who won; then the score: one line."""
    text: str = terminal(board).status_text(board, names)
    return text


def describe(board: Any, move: Any) -> str:
    """A move of ``board``'s game in words, for the log of the game."""
    text: str = terminal(board).describe(move)
    return text


def legend(board: Any) -> str:
    """What the colours of the drawing mean."""
    text: str = terminal(board).LEGEND
    return text


def print_board(
    board: Any, *, color: bool, lastmove: Any = None, stream: TextIO | None = None
) -> None:
    stream = stream or sys.stdout
    print(board_text(board, color=color, lastmove=lastmove), file=stream)
