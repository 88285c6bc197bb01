"""What a match between two players needs of Veletas: who acts, the rules
in words, and the record of a game.

A match speaks of *seats*: seat 0 is the first player, who places the first
shooter as Black; seat 1 the second. The pie rule lets the second player
swap colours, after which the first player holds White. So the seat to act
is the colour to act, exchanged after a swap, and so is the winning seat:

>>> import veletas
>>> board = veletas.Board(variant="small")
>>> for text in ["*c3", "g7", "swap"]:
...     _ = board.push_str(text)
>>> board.turn, seat_to_act(board, swapped=True)   # the first player, now White
(<Color.WHITE: 1>, 0)
"""

from __future__ import annotations

from typing import Any

from veletas.records import GameRecord

__all__ = ["describe", "record", "rules", "seat_to_act"]


def seat_to_act(board: Any, swapped: bool) -> int:
    """The seat (0 first player, 1 second) of the player to act on
    ``board``, a game played from the start; ``swapped``: whether the pie
    swap was played."""
    return int(board.turn) ^ swapped


def rules(board: Any) -> dict[str, object]:
    """The rules of ``board``'s game, for summaries.

    >>> import veletas
    >>> rules(veletas.Board(variant="small"))["size"]
    7
    """
    r = board.rules
    return {
        "variant": r.variant,
        "size": r.size,
        "shooters": r.shooters,
        "setup_rule": r.setup_rule,
        "shooters_block": r.shooters_block,
        "claimed_shooters_block": r.claimed_shooters_block,
    }


def describe(board: Any) -> str:
    """The rules of ``board``'s game in words.

    >>> import veletas
    >>> describe(veletas.Board(variant="small"))
    'small (7x7, 3 shooters, perimeter)'
    """
    r = board.rules
    block = ", shooters block" if r.shooters_block else ""
    block += ", claimed shooters block" if r.claimed_shooters_block else ""
    return f"{r.variant} ({r.size}x{r.size}, {r.shooters} shooters, {r.setup_rule}{block})"


def record(board: Any, players: tuple[str, str], swapped: bool, **tags: str) -> GameRecord:
    """The record of the game on ``board``, with ``players`` the names of
    the first and second player: ``[Black]`` names the one who held Black in
    play, the second player after a swap. ``tags`` adds tags."""
    first, second = players
    black, white = (second, first) if swapped else (first, second)
    return GameRecord.from_board(board, black=black, white=white, swapped=swapped, **tags)
