"""What a match between two players needs of Meridians: who acts and the
rules in words, and the record of a game.

A match speaks of *seats*: seat 0 is the first player, who places the first
stone, a Light one; seat 1 the second. Without the pie rule the seats hold
Light and Dark throughout. With it, the first player places a Light stone,
then a Dark one, and the second player, holding Dark, may swap colours:

>>> from veletas import meridians
>>> board = meridians.Board(size="5-6", pie=True)
>>> seats = []
>>> for text in ["f7", "a1", "swap"]:
...     seats.append(seat_to_act(board, swapped=False))
...     _ = board.push_str(text)
>>> seats, seat_to_act(board, swapped=True)   # then Light: the second player
([0, 0, 1], 1)
"""

from __future__ import annotations

from typing import Any

from veletas.games.meridians.types import Color, Phase
from veletas.records import GameRecord

__all__ = ["describe", "record", "rules", "seat_to_act"]


def seat_to_act(board: Any, swapped: bool) -> int:
    """The seat (0 first player, 1 second) of the player to act on
    ``board``, a game played from the start; ``swapped``: whether the pie
    swap was played."""
    if (
        board.pie
        and board.phase == Phase.OPEN
        and board.turn == Color.DARK
        and tuple(board.stones) == (1, 0)
    ):
        return 0  # under the pie rule, the first player places Dark's first stone too
    return int(board.turn) ^ swapped


def rules(board: Any) -> dict[str, object]:
    """The rules of ``board``'s game, for summaries.

    >>> from veletas import meridians
    >>> rules(meridians.Board(size="5-6"))
    {'size': '5-6', 'pie': False}
    """
    return {"size": board.size, "pie": board.pie}


def describe(board: Any) -> str:
    """The rules of ``board``'s game in words.

    >>> from veletas import meridians
    >>> describe(meridians.Board(size="5-6", pie=True))
    'meridians 5-6, pie rule'
    """
    return f"meridians {board.size}{', pie rule' if board.pie else ''}"


def record(board: Any, players: tuple[str, str], swapped: bool, **tags: str) -> GameRecord:
    """The record of the game on ``board``, with ``players`` the names of
    the first and second player: ``[Light]`` names the one who held Light in
    play, the second player after a swap. ``tags`` adds tags."""
    first, second = players
    light, dark = (second, first) if swapped else (first, second)
    return GameRecord.from_board(board, black=light, white=dark, swapped=swapped, **tags)
