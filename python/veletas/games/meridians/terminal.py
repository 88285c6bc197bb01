"""Meridians in a terminal: the hexagon in ANSI colours or plain (the
drawing of ``str(board)``), each rank with the files it spans, since they
shift from rank to rank; the status line, moves in words, and the help of
``veletas play``."""

from __future__ import annotations

import re
from typing import Any

from veletas.errors import InvalidMoveError
from veletas.games.meridians.types import Color, parse_point, point_name

_RESET = "\x1b[0m"
_BOARD = "\x1b[48;5;180m"
_TARGET = "\x1b[48;5;222m"
_GLYPHS = {"light": "\x1b[38;5;231m\u25cf", "dark": "\x1b[38;5;16m\u25cf"}
_EMPTY = "\x1b[38;5;137m\u00b7"
_SIZES = {"5-6": (5, 6), "6-7": (6, 7), "7-8": (7, 8)}
_FILES = "abcdefghijklmn"
_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")

LEGEND = (
    f"{_BOARD}{_GLYPHS['light']} {_RESET} light stone  "
    f"{_BOARD}{_GLYPHS['dark']} {_RESET} dark stone  "
    f"{_TARGET}{_EMPTY} {_RESET} the last placement"
)
"""What the colours mean."""

COLORS = (Color.LIGHT, Color.DARK)
"""The colours, the first player's first."""


def board_text(board: Any, *, color: bool, lastmove: Any = None) -> str:
    """The hexagon of ``board``: the plain drawing of ``str(board)``, or a
    coloured one with the same layout, the last placement highlighted; each
    rank ends with the files it spans (``e-j``: its first point is ``e10``),
    so that a point's name can be read off the board; the points that the
    last move's removals emptied are named below it."""
    removed = ""
    last = board.peek() if board.move_stack else None
    if lastmove is not None and last == lastmove and board.last_removed:
        removed = "\nremoved: " + " ".join(board.last_removed)
    drawing = str(board).splitlines() if not color else _coloured(board, lastmove)
    return "\n".join(_with_files(board, drawing)) + removed


def _with_files(board: Any, lines: list[str]) -> list[str]:
    """The rank lines (the highest first), each followed by its files, in
    one column right of the hexagon."""
    a, b = _SIZES[board.size]
    n = a + b - 1
    width = max(len(_visible(line)) for line in lines)
    out = []
    for line, rank in zip(lines, reversed(range(n)), strict=True):
        first, last = max(0, rank - b + 1), min(n - 1, rank + b - 1)
        pad = " " * (width - len(_visible(line)))
        out.append(f"{line}{pad}  {_FILES[first]}-{_FILES[last]}")
    return out


def _visible(line: str) -> str:
    return _ESCAPES.sub("", line)


def _coloured(board: Any, lastmove: Any) -> list[str]:
    a, b = _SIZES[board.size]
    n = a + b - 1
    target = getattr(lastmove, "point", None)
    stones = board.piece_map()
    lines = []
    for rank in reversed(range(n)):
        first = max(0, rank - b + 1)
        cells = []
        for file in range(first, min(n - 1, rank + b - 1) + 1):
            point = rank * 14 + file
            background = _TARGET if point == target else _BOARD
            stone = stones.get(point)
            glyph = _EMPTY if stone is None else _GLYPHS[str(stone)]
            cells.append(f"{background}{glyph}")
        indent = " " * (2 * first + b - 1 - rank)
        lines.append(f"{rank + 1:>2} {indent}" + f"{_BOARD} ".join(cells) + f" {_RESET}")
    return lines


def status_text(board: Any, names: dict[int, str]) -> str:
    """One line: who acts and the phase, or once the game is over who won;
    then the stones of each colour. ``names`` gives the players' names by
    colour (as an int), if any."""
    stones = board.stones
    score = f"stones: light {stones.light}, dark {stones.dark}"
    if board.is_game_over():
        return f"{_who(board.winner, names)} won; {score}"
    return f"{_who(board.turn, names)} to act, {board.phase} phase; {score}"


def _who(colour: Any, names: dict[int, str]) -> str:
    """``name (colour)`` for a named player, else the colour: ``Dark``."""
    name = names.get(int(colour))
    return f"{name} ({colour})" if name else str(colour).capitalize()


def describe(move: Any) -> str:
    """A move in words, for the log of the game."""
    if move.is_swap:
        return "swap (takes Light)"
    if move.is_keep:
        return "keep (stays Dark)"
    return f"{move} (a stone on {move})"


def score_text(board: Any) -> str:
    """The score at the end of a game, for its announcement."""
    return f"stones {tuple(board.stones)}"


HELP = """\
Type a move in the notation of the rules:
  f7         place your stone on f7
  swap       the pie rule: the second player takes Light
  keep       the pie rule: the second player stays Dark
Your first stone goes anywhere; your second must see it along a line, over
empty points; later ones must see one of your stones first along some line.
In play, your groups that no longer see another group of yours are removed.
Commands:
  moves [PT] the legal moves (with a point: whether it is one)
  board      draw the board again
  undo       take back your last move and the reply
  resign     give up the game
  quit       stop without a result
  help       this text"""

PIE_PROMPT = (
    "Pie rule: you may swap, taking Light and its stone (the other player then "
    "plays Dark), or keep Dark.\nType 'swap' (or 'yes') to swap, 'keep' (or 'no') to keep Dark."
)
KEEP = "keep"
"""The move that declines the swap."""
KEEP_TEXT = "You keep Dark."
NOT_A_MOVE = "moves look like f7, swap or keep"


def moves_text(board: Any, point_text: str | None) -> str:
    """The legal moves, or whether one point is one."""
    moves = list(board.legal_moves)
    if point_text is not None:
        try:
            point = parse_point(point_text)
        except InvalidMoveError:
            return f"{point_text!r} is not a point (a1 is the left end of the bottom rank)"
        if any(m.point == point for m in moves):
            return f"{point_name(point)} is a legal move"
        return f"{point_name(point)} is not a legal move now"
    return f"{len(moves)} legal moves:\n" + " ".join(str(m) for m in moves)
