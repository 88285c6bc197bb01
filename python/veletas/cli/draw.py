"""The board in a terminal: ANSI colours on a tty, the plain diagram elsewhere."""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from veletas.games.veletas.types import FILE_NAMES, Piece, square, square_name

_RESET = "\x1b[0m"
_BOARD = "\x1b[48;5;180m"
_ORIGIN = "\x1b[48;5;187m"
_TARGET = "\x1b[48;5;222m"
_CLAIMED_BG = "\x1b[48;5;124m"
_GLYPHS = {
    Piece.BLACK_STONE: "\x1b[38;5;16m\u25cf",
    Piece.WHITE_STONE: "\x1b[38;5;231m\u25cf",
    Piece.SHOOTER: "\x1b[38;5;160m\u25c6",
    Piece.BLACK_CLAIMED: "\x1b[38;5;16m\u25cf",
    Piece.WHITE_CLAIMED: "\x1b[38;5;231m\u25cf",
}
_EMPTY = "\x1b[38;5;137m\u00b7"

LEGEND = (
    f"{_BOARD} {_GLYPHS[Piece.BLACK_STONE]} {_RESET} black stone  "
    f"{_BOARD} {_GLYPHS[Piece.WHITE_STONE]} {_RESET} white stone  "
    f"{_BOARD} {_GLYPHS[Piece.SHOOTER]} {_RESET} shooter  "
    f"{_CLAIMED_BG} {_GLYPHS[Piece.BLACK_CLAIMED]} {_RESET}"
    f"{_CLAIMED_BG} {_GLYPHS[Piece.WHITE_CLAIMED]} {_RESET} claimed by black, white"
)
"""What the colours mean."""


def use_color(stream: TextIO, no_color: bool = False) -> bool:
    """Colour on a terminal, unless ``--no-color`` or ``NO_COLOR`` says no."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def board_text(board: Any, *, color: bool, lastmove: Any = None) -> str:
    """The diagram of ``board``: the plain one of ``str(board)`` (with the
    last move's squares named below it), or a coloured one."""
    marks = {}
    if lastmove is not None and not lastmove.is_swap:
        marks[lastmove.target] = _TARGET
        if lastmove.origin is not None:
            marks[lastmove.origin] = _ORIGIN
    if not color:
        return str(board)
    n = board.size
    lines = []
    for rank in reversed(range(n)):
        cells = []
        for file in range(n):
            sq = square(file, rank)
            piece = board.piece_at(sq)
            if piece is None:
                background, glyph = marks.get(sq, _BOARD), _EMPTY
            else:
                piece = Piece(piece)
                claimed = piece in (Piece.BLACK_CLAIMED, Piece.WHITE_CLAIMED)
                background = _CLAIMED_BG if claimed else marks.get(sq, _BOARD)
                glyph = _GLYPHS[piece]
            cells.append(f"{background} {glyph} ")
        lines.append(f"{rank + 1:>2} " + "".join(cells) + _RESET)
    lines.append("   " + "".join(f" {FILE_NAMES[file]} " for file in range(n)))
    return "\n".join(lines)


def status_text(board: Any, names: dict[int, str]) -> str:
    """One line: who acts and the phase, or once the game is over who won;
    then the claims. ``names`` gives the players' names by colour (as an
    int), if any."""
    claims = board.claims
    score = (
        f"claims: black {claims.black}, white {claims.white} ({board.rules.claims_to_win} to win)"
    )
    if board.is_game_over():
        winner = board.winner
        if winner is None:  # hand-made positions only
            return f"game over: {_who(board.turn, names)} has no legal move; {score}"
        return f"{_who(winner, names)} won; {score}"
    return f"{_who(board.turn, names)} to act, {board.phase} phase; {score}"


def _who(colour: Any, names: dict[int, str]) -> str:
    """``name (colour)`` for a named player, else the colour: ``White``."""
    name = names.get(int(colour))
    return f"{name} ({colour})" if name else str(colour).capitalize()


def describe(move: Any) -> str:
    """A move in words, for the log of the game."""
    if move.is_swap:
        return "swap (takes Black)"
    if move.is_shooter:
        return f"{move} (a shooter on {square_name(move.target)})"
    return str(move)


def print_board(
    board: Any, *, color: bool, lastmove: Any = None, stream: TextIO | None = None
) -> None:
    stream = stream or sys.stdout
    print(board_text(board, color=color, lastmove=lastmove), file=stream)
