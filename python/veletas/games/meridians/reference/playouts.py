"""Random Meridians games in plain Python, drawn exactly as the native
runner draws them, so that a seed gives the same games on both engines:
game ``i`` of a run uses the stream ``Rng.for_game(seed, i)``, and each turn
plays the ``below(k)``-th of the ``k`` legal moves (``docs/playouts.md``).

>>> from veletas.meridians.reference import playouts
>>> games = playouts(20, size="5-6", seed=1)
>>> len(games), games.stones.shape
(20, (20, 2))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from veletas import games as registry
from veletas.games.meridians.reference.board import Board
from veletas.games.meridians.reference.move import Move
from veletas.rng import Rng

__all__ = ["KEEP", "SWAP", "playouts", "run_games"]

SWAP, KEEP = -1, -2
"""The records of ``swap`` and ``keep``."""


def playouts(n_games: int, **options: Any) -> Any:
    """:func:`veletas.meridians.playouts` on the reference (the room's
    ``reference_playouts``)."""
    return registry.get("meridians").playouts.reference_playouts(n_games, **options)


def _record(move: Move) -> int:
    if move.is_swap:
        return SWAP
    if move.is_keep:
        return KEEP
    assert move.point is not None
    return move.point


def run_games(
    fen: str,
    *,
    pie: bool,
    swapped: bool,
    seed: int,
    first_game: int,
    n_games: int,
    record: bool,
) -> dict[str, np.ndarray]:
    """Games ``first_game .. first_game + n_games - 1`` of the run ``seed``
    from ``fen``, as the arrays of :class:`~veletas.playouts.Playouts`."""
    winners, swaps, plies, stones = [], [], [], []
    moves: list[int] = []
    offsets = [0]
    for index in range(first_game, first_game + n_games):
        board = Board(fen, pie=pie)
        rng = Rng.for_game(seed, index)
        game_swapped = swapped
        played = 0
        while True:
            legal = list(board.legal_moves)
            if not legal:
                break
            move = legal[rng.below(len(legal))]
            board.push(move)
            game_swapped |= move.is_swap
            played += 1
            if record:
                moves.append(_record(move))
        winner = board.winner
        winners.append(-1 if winner is None else int(winner))
        swaps.append(game_swapped)
        plies.append(played)
        stones.append(tuple(board.stones))
        offsets.append(len(moves))
    arrays = {
        "winner": np.array(winners, dtype=np.int8),
        "swapped": np.array(swaps, dtype=np.bool_),
        "plies": np.array(plies, dtype=np.int32),
        "stones": np.array(stones, dtype=np.int8).reshape(-1, 2),
    }
    if record:
        arrays["moves"] = np.array(moves, dtype=np.int16)
        arrays["offsets"] = np.array(offsets, dtype=np.int64)
    return arrays
