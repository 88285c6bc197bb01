"""Position strings (MERIDIANS.md section 6): reading with every check, and writing.

>>> parse_fen("7/8/9/10/11/12/12/11/10/9/8/6x l open")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
veletas.errors.InvalidFenError: invalid fen '7/8/9/10/11/12/12/11/10/9/8/6x l open': counts: ...
>>> position = parse_fen("7/8/9/10/11/12/12/11/10/9/8/6x d open")
>>> position.size, position.turn, position.phase, position.cells[6]
('6-7', <Color.DARK: 1>, <Phase.OPEN: 'open'>, <Color.LIGHT: 0>)
>>> format_fen(position.size, position.cells, position.turn, position.phase)
'7/8/9/10/11/12/12/11/10/9/8/6x d open'
"""

from __future__ import annotations

import dataclasses
import re

from veletas.errors import InvalidFenError
from veletas.games.meridians.reference.geometry import geometry, size_of_ranks
from veletas.games.meridians.types import Color, Phase

__all__ = ["Position", "format_fen", "parse_fen"]

_STONES = {"x": Color.LIGHT, "o": Color.DARK}
_LETTERS = {color: letter for letter, color in _STONES.items()}
_TURNS = {"l": Color.LIGHT, "d": Color.DARK}
_TURN_LETTERS = {color: letter for letter, color in _TURNS.items()}
_PHASES = {phase.value: phase for phase in Phase}

# A run of empty points, or any single character, a newline included.
_RUN_OR_CHARACTER = re.compile(r"[0-9]+|.", re.DOTALL)
_TOO_MANY = 1000
"""A rank counted at more points than this is said to have "too many": a run
may be written with thousands of digits, more than ``int()`` converts."""
_RUN_DIGITS = len(str(_TOO_MANY))

# The stone counts (light, dark) each phase allows, with the refusal's wording.
_OPEN_COUNTS = {
    Color.LIGHT: ({(0, 0), (1, 1)}, "'open l' needs 0 and 0 or 1 and 1 stones"),
    Color.DARK: ({(1, 0), (2, 1)}, "'open d' needs 1 and 0 or 2 and 1 stones"),
}


@dataclasses.dataclass
class Position:
    """The fields of an accepted position string."""

    size: str
    """The board size, read from the number of ranks."""
    cells: list[Color | None]
    """196 cells indexed by point number: the colour of the stone, or None."""
    turn: Color
    """The colour that acts next."""
    phase: Phase
    """Open, pie or play."""


def _refuse(fen: str, field: str, reason: str) -> InvalidFenError:
    return InvalidFenError(f"invalid fen {fen!r}: {field}: {reason}")


def parse_fen(fen: str) -> Position:
    """Read ``fen``, checking the fields in order: fields, board, turn, phase, counts.

    >>> parse_fen("7/8/9/10/11/12/12/11/10/9/8/7 d pie")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidFenError: invalid fen '...': counts: 'pie' needs 1 light and 1 dark ...

    :raises TypeError: if ``fen`` is not a str.
    :raises InvalidFenError: naming the field and the reason.
    """
    if not isinstance(fen, str):
        raise TypeError(f"a position string is a str, not {type(fen).__name__}")
    fields = fen.split(" ")
    if len(fields) != 3:
        raise _refuse(
            fen, "fields", f"expected 3 fields separated by single spaces, found {len(fields)}"
        )
    board_field, turn_field, phase_field = fields
    size, cells = _parse_board(fen, board_field)

    if turn_field not in _TURNS:
        raise _refuse(fen, "turn", f"{turn_field!r} is not 'l' or 'd'")
    turn = _TURNS[turn_field]
    if phase_field not in _PHASES:
        raise _refuse(fen, "phase", f"{phase_field!r} is not 'open', 'pie' or 'play'")
    phase = _PHASES[phase_field]
    if phase is Phase.PIE and turn is not Color.DARK:
        raise _refuse(fen, "turn", f"{turn_field!r} cannot act in 'pie', which is Dark's")

    problem = _count_problem(cells, turn, phase)
    if problem is not None:
        raise _refuse(fen, "counts", problem)
    return Position(size, cells, turn, phase)


def _parse_board(fen: str, board_field: str) -> tuple[str, list[Color | None]]:
    """The size and the cells of the board field; ranks are checked from the top."""
    ranks = board_field.split("/")
    size = size_of_ranks(len(ranks))
    if size is None:
        raise _refuse(fen, "board", f"{len(ranks)} ranks, expected 10, 12 or 14")
    geo = geometry(size)
    cells: list[Color | None] = [None] * 196
    for index, text in enumerate(ranks):
        rank = geo.n - 1 - index  # the first rank written is the top one
        points = geo.ranks[rank]
        count = 0
        stones: list[tuple[int, Color]] = []  # (offset in the rank, colour)
        for token in _RUN_OR_CHARACTER.findall(text):
            if token[0] in "0123456789":
                if token[0] == "0":  # "0" is no run, and a run has no leading zero
                    raise _refuse(fen, "board", f"bad run {token!r} in rank {rank + 1}")
                # Thousands of digits are more than int() converts, and more
                # than "too many" anyway.
                count += int(token) if len(token) <= _RUN_DIGITS else _TOO_MANY + 1
            elif token in _STONES:
                stones.append((count, _STONES[token]))
                count += 1
            else:
                raise _refuse(fen, "board", f"unknown letter {token!r} in rank {rank + 1}")
        if count != len(points):
            counted = "too many" if count > _TOO_MANY else str(count)
            raise _refuse(
                fen, "board", f"rank {rank + 1} has {counted} points, expected {len(points)}"
            )
        for offset, color in stones:
            cells[points[offset]] = color
    return size, cells


def _count_problem(cells: list[Color | None], turn: Color, phase: Phase) -> str | None:
    """Why the stones on the board do not fit the phase, or None when they do."""
    light, dark = cells.count(Color.LIGHT), cells.count(Color.DARK)
    found = f"found {light} light and {dark} dark"
    if phase is Phase.OPEN:
        allowed, needs = _OPEN_COUNTS[turn]
        return None if (light, dark) in allowed else f"{needs}, {found}"
    if phase is Phase.PIE:
        return None if (light, dark) == (1, 1) else f"'pie' needs 1 light and 1 dark stone, {found}"
    return None if light + dark >= 1 else f"'play' needs at least one stone, {found}"


def format_fen(size: str, cells: list[Color | None], turn: Color, phase: Phase) -> str:
    """Write the position string of a board of ``size``."""
    ranks = []
    for points in reversed(geometry(size).ranks):
        parts = []
        run = 0
        for p in points:
            color = cells[p]
            if color is None:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append(_LETTERS[color])
        if run:
            parts.append(str(run))
        ranks.append("".join(parts))
    return f"{'/'.join(ranks)} {_TURN_LETTERS[turn]} {phase.value}"
