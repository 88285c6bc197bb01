"""The games of a playout dataset checked for meaning, not only bits: a file
rewritten with valid checksums (a winner changed, a move replaced, the seed
edited in the metadata) is refused with a
:class:`~veletas.errors.DatasetError` naming the game and the column.

A run of a playout policy is played again from what its metadata says (the
start, the rules, the policy, the seed, the range of game indices): every
game draws from its own stream, so the run gives the same games on any
engine and any number of threads, and every column must equal them. Games
of another origin (``policy`` ``records``: game records read as a dataset)
are replayed move by move on a board, each move checked legal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from veletas import games as registry
from veletas.errors import DatasetError, VeletasError

if TYPE_CHECKING:
    from veletas.playouts import Playouts

__all__ = ["check_games"]


def check_games(games: Playouts) -> None:
    """Refuses ``games`` unless their run (or, for games of records, their
    moves) gives every column as it is.

    :raises DatasetError: naming the first game and column that differ.
    """
    if not len(games):
        return
    played = games.policy in registry.get(games.game).playouts.POLICIES
    _compare(games, _played_again(games) if played else _replayed(games))


def _played_again(games: Playouts) -> dict[str, np.ndarray]:
    """The columns of the run that the metadata names, played again (the
    start's own swap is told apart in :func:`_compare`)."""
    return _columns(games.job().run(games.first_game, len(games)))


def _replayed(games: Playouts) -> dict[str, np.ndarray]:
    """The columns of games of records, from their moves replayed on a
    board (each move checked legal by the board)."""
    room = registry.get(games.game).playouts
    if games.moves is None:
        return _columns(games)  # nothing to replay: the domains were checked
    winners, swapped = [], []
    finals: dict[str, list[tuple[int, int]]] = {}
    for i in range(len(games)):
        try:
            board = games.board(i)
        except (VeletasError, ValueError) as error:
            raise DatasetError(
                f"game {games.first_game + i}: its moves are not a legal game: {error}"
            ) from None
        winners.append(-1 if board.winner is None else int(board.winner))
        swapped.append(any(move.is_swap for move in board.move_stack))
        for name, values in room.final_columns(board).items():
            finals.setdefault(name, []).append(values)
    return {
        **_columns(games),
        "winner": np.array(winners, np.int8),
        "swapped": np.array(swapped, np.bool_),
        **{name: np.array(values, np.int8).reshape(-1, 2) for name, values in finals.items()},
    }


def _columns(games: Playouts) -> dict[str, np.ndarray]:
    columns = {"winner": games.winner, "swapped": games.swapped, "plies": games.plies}
    columns.update(games.columns)
    if games.moves is not None and games.offsets is not None:
        columns["offsets"] = games.offsets
        columns["moves"] = games.moves
    return columns


def _compare(games: Playouts, expected: dict[str, np.ndarray]) -> None:
    read = _columns(games)
    swapped = expected["swapped"]
    if read["swapped"].all() and not swapped.all():
        # A run from a position reached by the pie swap: swapped throughout.
        swapped = np.ones_like(swapped)
    expected = {**expected, "swapped": swapped}
    for name in ("winner", "swapped", "plies", *games.columns):
        differs = read[name] != expected[name]
        if differs.ndim > 1:
            differs = differs.any(axis=1)
        if differs.any():
            _refuse(games, int(np.flatnonzero(differs)[0]), name, read[name], expected[name])
    if "moves" in read:
        # Equal plies make equal offsets: the moves are compared as one array.
        differs = _plain(read["moves"]) != _plain(expected["moves"])
        if differs.any():
            move = int(np.flatnonzero(differs)[0])
            game = int(np.searchsorted(read["offsets"], move, side="right")) - 1
            ply = move - int(read["offsets"][game]) + 1
            raise DatasetError(
                f"game {games.first_game + game}: its column 'moves' differs from its run at "
                f"move {ply} (the file was changed after it was written, or its metadata "
                "names another run)"
            )


def _plain(moves: np.ndarray) -> np.ndarray:
    """Recorded moves as unsigned integers of their size: a record of several
    fields compares several times faster as one integer than field by field."""
    if moves.dtype.fields is None:
        return moves
    whole = np.dtype(f"u{moves.dtype.itemsize}")
    return np.ascontiguousarray(moves).view(whole)


def _refuse(games: Playouts, game: int, name: str, read: Any, expected: Any) -> None:
    raise DatasetError(
        f"game {games.first_game + game}: its column {name!r} holds {_shown(read[game])} where "
        f"its run gives {_shown(expected[game])} (the file was changed after it was written, "
        "or its metadata names another run)"
    )


def _shown(value: Any) -> str:
    return str(value.tolist() if hasattr(value, "tolist") else value)
