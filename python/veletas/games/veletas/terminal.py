"""Veletas in a terminal: the board in ANSI colours or as the plain
diagram, the status line, moves in words, and the help of ``veletas play``."""

from __future__ import annotations

from typing import Any

from veletas.errors import InvalidMoveError
from veletas.games.veletas.types import FILE_NAMES, Color, Piece, parse_square, square, square_name

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


def score_text(board: Any) -> str:
    """The score at the end of a game, for its announcement."""
    return f"claims {tuple(board.claims)}"


COLORS = (Color.BLACK, Color.WHITE)
"""The colours, the first player's first."""

HELP = """\
Type a move in the notation of the rules:
  *e5        setup: place a shooter on e5
  e5         setup: place your stone on e5; in play: shoot onto e5 without a move
  d4-d7/f9   play: move the shooter on d4 to d7, then shoot onto f9
  swap       the pie rule: the second player takes Black
Commands:
  moves [SQ] the legal moves (with a square: the moves from, to or onto it)
  board      draw the board again
  undo       take back your last turn and the reply
  resign     give up the game
  quit       stop without a result
  help       this text"""

PIE_PROMPT = (
    "Pie rule: you may swap, taking Black and its setup (the other player "
    "then plays White), or keep White and place your first shooter.\n"
    "Type 'swap' (or 'yes') to swap, 'no' to keep White."
)
KEEP = None
"""The move that declines the swap, if the game has one (Veletas: none; the
second player simply places a shooter)."""
KEEP_TEXT = "You keep White: place your first shooter (for example *d4)."
NOT_A_MOVE = "moves look like *e5, e5, d4-d7/f9 or swap"

_PAGE = 120
"""The most moves ``moves`` lists at once."""


def moves_text(board: Any, square_text: str | None) -> str:
    """The legal moves, all of them in setup, a summary in play (shots
    without a move and the shooters that can move), or those that start
    from, move to or shoot onto one square."""
    moves = list(board.legal_moves)
    if square_text is not None:
        try:
            sq = parse_square(square_text)
        except InvalidMoveError:
            return f"{square_text!r} is not a square (a1 is bottom-left)"
        moves = [m for m in moves if sq in (m.origin, m.destination, m.target)]
        if not moves:
            return f"no legal move involves {square_text}"
        head = f"{len(moves)} legal moves involve {square_text}:"
    elif str(board.phase) == "play" and len(moves) > _PAGE:
        shots = [str(m) for m in moves if m.origin is None]
        origins: dict[str, int] = {}
        for m in moves:
            if m.origin is not None:
                name = square_name(m.origin)
                origins[name] = origins.get(name, 0) + 1
        movers = ", ".join(f"{name} ({count})" for name, count in origins.items())
        return (
            f"{len(moves)} legal moves.\n"
            f"Shots without a shooter move ({len(shots)}): {' '.join(shots)}\n"
            f"Shooters that can move (moves each): {movers}\n"
            "Type 'moves d4' for the moves from, to or onto d4."
        )
    else:
        head = f"{len(moves)} legal moves:"
    shown = " ".join(str(m) for m in moves[:_PAGE])
    more = f"\n... and {len(moves) - _PAGE} more" if len(moves) > _PAGE else ""
    return f"{head}\n{shown}{more}"
