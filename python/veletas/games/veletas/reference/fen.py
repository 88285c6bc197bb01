"""Position strings (RULES.md section 5): reading with every check, and writing.

>>> position = parse_fen("5/5/2s2/5/5 b setup 3", "perimeter")
>>> position.size, position.shooters, position.turn, position.phase
(5, 3, <Color.BLACK: 0>, <Phase.SETUP: 'setup'>)
>>> format_fen(position.cells, 5, position.turn, position.phase, 3)
'5/5/2s2/5/5 b setup 3'
"""

from __future__ import annotations

import dataclasses
import re

from veletas.errors import InvalidFenError
from veletas.games.veletas.types import Color, Phase, shooter_count_problem

__all__ = ["EMPTY", "PIECE_LETTERS", "Position", "format_fen", "parse_fen"]

EMPTY = "."
"""The cell value of an empty square (never written into a position string)."""

PIECE_LETTERS = "xosXO"
"""The letters of the pieces: black and white stone, shooter, shooters claimed
by Black and by White."""

_TURNS = {"b": Color.BLACK, "w": Color.WHITE}
_TURN_LETTERS = {color: letter for letter, color in _TURNS.items()}
# `.` with DOTALL: a newline is an unknown letter too, never skipped.
_RUN_OR_LETTER = re.compile(r"[1-9][0-9]*|.", re.DOTALL)
_COUNT_LIMIT = 2**64 - 1
"""A rank describing more squares than this is said to have "too many": a run
of empties may be written with any number of digits, more than ``int()``
converts, and more than the native core counts."""
_COUNT_DIGITS = len(str(_COUNT_LIMIT))


@dataclasses.dataclass
class Position:
    """The fields of an accepted position string."""

    size: int
    """N, read from the number of ranks."""
    shooters: int
    """K, the shooters of the game."""
    cells: list[str]
    """100 cells indexed by square number: a piece letter or :data:`EMPTY`."""
    turn: Color
    """The colour that acts next."""
    phase: Phase
    """Setup, pie or play."""


def _refuse(fen: str, field: str, reason: str) -> InvalidFenError:
    return InvalidFenError(f"invalid fen {fen!r}: {field}: {reason}")


def parse_fen(fen: str, setup_rule: str) -> Position:
    """Read ``fen``; K is checked against N under ``setup_rule``.

    >>> parse_fen("5/5/5/5/5 b setup 4", "perimeter")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidFenError: invalid fen '5/5/5/5/5 b setup 4': K: shooter count 4 must ...

    :raises TypeError: if ``fen`` is not a string.
    :raises InvalidFenError: naming the field (board, turn, phase, K or
        counts) and the reason.
    """
    if not isinstance(fen, str):
        raise TypeError(f"a position string is a str, not {type(fen).__name__}")
    fields = fen.split(" ")
    if len(fields) != 4:
        raise _refuse(
            fen, "fields", f"expected 4 fields separated by single spaces, found {len(fields)}"
        )
    board_field, turn_field, phase_field, k_field = fields
    size, cells = _parse_board(fen, board_field)

    if turn_field not in _TURNS:
        raise _refuse(fen, "turn", f"{turn_field!r} is not 'b' or 'w'")
    turn = _TURNS[turn_field]

    phases = {phase.value: phase for phase in Phase}
    if phase_field not in phases:
        raise _refuse(fen, "phase", f"{phase_field!r} is not 'setup', 'pie' or 'play'")
    phase = phases[phase_field]
    if phase is Phase.PIE and turn is not Color.WHITE:
        raise _refuse(fen, "turn", f"{turn_field!r} cannot act in 'pie', which is White's")

    if not re.fullmatch(r"[1-9][0-9]*", k_field):
        raise _refuse(fen, "K", f"{k_field!r} is not a positive decimal number")
    problem = _shooter_count_problem(size, k_field, setup_rule)
    if problem:
        raise _refuse(fen, "K", problem)
    shooters = int(k_field)

    problem = _count_problem(cells, turn, phase, shooters)
    if problem:
        raise _refuse(fen, "counts", problem)
    return Position(size, shooters, cells, turn, phase)


def _shooter_count_problem(size: int, k_field: str, setup_rule: str) -> str | None:
    """Why the K written as ``k_field`` (decimal digits) does not fit, or None."""
    if len(k_field) <= 4:
        return shooter_count_problem(size, int(k_field), setup_rule)
    # Thousands of digits are more than int() converts, and a K of five digits
    # fits no board anyway: a stand-in of the same parity, above every limit,
    # gets the message, which then quotes K as written.
    stand_in = 10_001 if k_field[-1] in "13579" else 10_000
    problem = shooter_count_problem(size, stand_in, setup_rule)
    assert problem is not None
    return problem.replace(str(stand_in), k_field, 1)


def _parse_board(fen: str, board_field: str) -> tuple[int, list[str]]:
    """The size and the cells of the board field."""
    ranks = board_field.split("/")
    size = len(ranks)
    if not 5 <= size <= 10:
        raise _refuse(fen, "board", f"{size} ranks, expected 5 to 10")
    cells = [EMPTY] * 100
    for index, text in enumerate(ranks):
        rank = size - 1 - index  # the first rank written is the top one
        file = 0
        for token in _RUN_OR_LETTER.findall(text):
            if token[0] in "123456789":  # a run of empties; "0" is no run
                file += int(token) if len(token) <= _COUNT_DIGITS else _COUNT_LIMIT + 1
                continue
            if token not in PIECE_LETTERS:
                raise _refuse(fen, "board", f"unknown letter {token!r} in rank {rank + 1}")
            if file < size:
                cells[rank * 10 + file] = token
            file += 1
        if file != size:
            count = file if file <= _COUNT_LIMIT else "too many"
            raise _refuse(fen, "board", f"rank {rank + 1} has {count} squares, expected {size}")
    return size, cells


def _count_problem(cells: list[str], turn: Color, phase: Phase, shooters: int) -> str | None:
    """Why the pieces on the board do not fit the phase, or None when they do."""
    black, white = cells.count("x"), cells.count("o")
    claimed = cells.count("X") + cells.count("O")
    placed = cells.count("s") + claimed
    first = shooters // 2
    stones = f"found {black} black and {white} white"
    if phase is Phase.PLAY:
        if placed != shooters:
            return f"'play' needs exactly {shooters} shooters (claimed or not), found {placed}"
        if not (black and white):
            return f"'play' needs at least one stone of each colour, {stones}"
        return None
    if claimed:
        return f"no shooter is claimed before 'play', found {claimed} claimed"
    if phase is Phase.PIE:
        if placed != first:
            return f"'pie' needs exactly {first} shooters, found {placed}"
        if (black, white) != (1, 0):
            return f"'pie' needs one black stone and no white stone, {stones}"
        return None
    if turn is Color.BLACK:
        if placed > first:
            return f"'b setup' allows at most {first} shooters, found {placed}"
        if black or white:
            return f"'b setup' allows no stones, {stones}"
        return None
    if not first <= placed <= shooters:
        return f"'w setup' needs {first} to {shooters} shooters, found {placed}"
    if (black, white) != (1, 0):
        return f"'w setup' needs one black stone and no white stone, {stones}"
    return None


def format_fen(cells: list[str], size: int, turn: Color, phase: Phase, shooters: int) -> str:
    """Write the position string of a board."""
    ranks = []
    for rank in reversed(range(size)):
        parts = []
        run = 0
        for sq in range(rank * 10, rank * 10 + size):
            if cells[sq] == EMPTY:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append(cells[sq])
        if run:
            parts.append(str(run))
        ranks.append("".join(parts))
    return f"{'/'.join(ranks)} {_TURN_LETTERS[turn]} {phase.value} {shooters}"
