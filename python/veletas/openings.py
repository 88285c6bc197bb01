"""Start positions for matches, of any game: a fixed, seeded set of openings,
each the setup played at random and checked not to be decided, for
``veletas match --openings N`` (each opening is played twice, the seats
swapped, so that the two games of a pair cancel the luck of the opening).

>>> from veletas.openings import openings
>>> first = openings("veletas", 3, seed=1, rules={"variant": "small"})
>>> len(first), first == openings("veletas", 3, seed=1, rules={"variant": "small"})
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from veletas import games as registry
from veletas._checks import shown
from veletas.limits import MIN_SOLVER_MEMORY

__all__ = ["DECIDED_NODES", "MAX_DRAWS", "openings", "setup_of"]

DECIDED_NODES = 20_000
"""The positions an exact solve may search to find an opening decided: an
opening it proves won or lost within them is drawn again."""

MAX_DRAWS = 100
"""The draws allowed for each opening asked for, before giving up."""


def setup_of(board: Any, rng: random.Random) -> list[str]:
    """The moves of a setup played at random on ``board`` (pushed on it):
    every move until the game is in play (or over)."""
    moves = []
    while board.phase.name != "PLAY" and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        moves.append(str(move))
    return moves


def openings(
    game: str, count: int, *, seed: int = 0, rules: Mapping[str, Any] | None = None
) -> tuple[tuple[str, ...], ...]:
    """``count`` openings of ``game`` under ``rules`` (the keyword arguments
    of its ``Board``), the same for the same seed: each the moves of a setup
    played at random, of which an exact solve of :data:`DECIDED_NODES`
    positions proves nothing.

    :raises ValueError: for a count below 1, or a game whose setups are all
        decided (no opening found in :data:`MAX_DRAWS` draws each).
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"the openings must be a whole number of 1 or more, not {shown(count)}")
    from veletas.solving import solve

    new_board = registry.get(game).api().Board
    rng = random.Random(seed)
    found: list[tuple[str, ...]] = []
    for _ in range(count * MAX_DRAWS):
        board = new_board(**(rules or {}))
        moves = setup_of(board, rng)
        if board.is_game_over():
            continue
        value = solve(board, max_nodes=DECIDED_NODES, memory=MIN_SOLVER_MEMORY).value
        if value == "unknown":
            found.append(tuple(moves))
            if len(found) == count:
                return tuple(found)
    raise ValueError(
        f"no {count} openings of {game} that a solve of {DECIDED_NODES:,} positions leaves "
        f"undecided in {count * MAX_DRAWS:,} draws: the board is too small for openings"
    )
