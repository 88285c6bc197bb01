"""Random playouts in pure Python: the reference for the native runner.

:func:`playouts` takes the arguments of :func:`veletas.playouts` and returns
the same :class:`~veletas.playouts.Playouts`. It follows ``docs/playouts.md``
step by step with :class:`~veletas.rng.Rng`, so that:

- ``policy="micro"`` gives the very games of the native runner (bit-identical
  arrays for the same seed): each decision takes
  ``legal_actions()[rng.below(len(legal_actions()))]`` of a
  :class:`~veletas.games.veletas.reference.decision.DecisionState`;
- ``policy="uniform"`` draws every move exactly uniformly from the legal
  moves by the same counting and rejection method, and so also gives the
  native runner's games.

It plays on one thread whatever ``threads`` says (the argument is still checked).

>>> from veletas.reference import playouts
>>> games = playouts(20, variant="small", seed=1, record=True)
>>> len(games), games.backend, games.board(3).is_game_over()
(20, 'python', True)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from veletas import games as registry
from veletas.games.veletas.reference.board import Board
from veletas.games.veletas.reference.decision import DecisionState, reach_after_move
from veletas.games.veletas.reference.geometry import geometry
from veletas.games.veletas.reference.move import Move
from veletas.games.veletas.types import Phase, Piece
from veletas.rng import Rng

__all__ = [
    "KIND_SHOOTER",
    "KIND_STONE",
    "KIND_SWAP",
    "play_game",
    "playouts",
    "run_games",
    "uniform_move",
]

KIND_STONE, KIND_SHOOTER, KIND_SWAP = 0, 1, 2
"""The kinds of a recorded move: a stone or shot, a shooter placement, the swap."""


def playouts(n_games: int, **options: Any) -> Any:
    """Play ``n_games`` random games in pure Python; see :func:`veletas.playouts`
    (the reference's, as the room's ``reference_playouts``)."""
    return registry.get("veletas").playouts.reference_playouts(n_games, **options)


def run_games(
    fen: str,
    *,
    setup_rule: str,
    shooters_block: bool,
    claimed_shooters_block: bool,
    swapped: bool,
    policy: str,
    seed: int,
    first_game: int,
    n_games: int,
    record: bool,
) -> dict[str, np.ndarray]:
    """Games ``first_game .. first_game + n_games - 1`` of the run ``seed``
    from ``fen``, as the arrays of :class:`~veletas.playouts.Playouts`."""
    start = Board(
        fen,
        setup_rule=setup_rule,
        shooters_block=shooters_block,
        claimed_shooters_block=claimed_shooters_block,
    )
    winners, swaps, plies, claims = [], [], [], []
    moves: list[tuple[int, int, int, int]] = []
    offsets = [0]
    for index in range(first_game, first_game + n_games):
        board, game_swapped, played = play_game(start, swapped, policy, Rng.for_game(seed, index))
        winner = board.winner
        winners.append(-1 if winner is None else int(winner))
        swaps.append(game_swapped)
        plies.append(len(played))
        claims.append(tuple(board.claims))
        if record:
            moves.extend(_record(move) for move in played)
            offsets.append(len(moves))
    arrays = {
        "winner": np.array(winners, dtype=np.int8),
        "swapped": np.array(swaps, dtype=np.bool_),
        "plies": np.array(plies, dtype=np.int32),
        "claims": np.array(claims, dtype=np.int8).reshape(-1, 2),
    }
    if record:
        arrays["moves"] = np.array(moves, dtype=np.int8).reshape(-1, 4)
        arrays["offsets"] = np.array(offsets, dtype=np.int64)
    return arrays


def play_game(start: Board, swapped: bool, policy: str, rng: Rng) -> tuple[Board, bool, list[Move]]:
    """Play a game from ``start`` (left unchanged) with ``policy`` and the
    game's stream ``rng``; ``swapped`` says whether the swap led to ``start``.

    Returns the final board, whether the swap was played (before or during
    the game), and the moves played.
    """
    played: list[Move] = []
    if policy == "micro":
        state = DecisionState(start, swapped=swapped)
        while actions := state.legal_actions():
            move = state.apply(actions[rng.below(len(actions))])
            if move is not None:
                played.append(move)
        return state.board, state.swapped, played
    board = start.copy(stack=False)
    while (move := uniform_move(board, rng)) is not None:
        board.push(move)
        played.append(move)
        swapped = swapped or move.is_swap
    return board, swapped, played


def uniform_move(board: Board, rng: Rng) -> Move | None:
    """A move drawn exactly uniformly from the legal moves of ``board``, or
    None when there is none (``docs/playouts.md``, "The uniform policy").

    In setup and the pie, the ``below(count)``-th legal move in canonical order.
    In play, rejection sampling: slots are the shots without a move (the
    targets, ascending), then the (origin, destination) pairs of shooter
    moves (by origin, then destination); each slot has ``M`` seats, ``M``
    bounding the shots of any move. A draw ``r = below(slots * M)`` picks slot
    ``r // M`` and seat ``r % M``: a target slot is its shot at seat 0, a pair
    slot its shot onto the seat-th target after the move, when there is one.
    Other draws are rejected and drawn again.

    >>> from veletas.reference import Board
    >>> board = Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    >>> board.is_legal(uniform_move(board, Rng.for_game(0, 0)))
    True
    """
    if board.winner is not None:
        return None
    if board.phase is not Phase.PLAY:
        moves = list(board.legal_moves)
        return moves[rng.below(len(moves))] if moves else None
    reaches = [(sq, board.reach(sq)) for sq in board.pieces(Piece.SHOOTER)]
    targets = sorted({sq for _, reach in reaches for sq in reach})
    if not targets:
        return None
    pairs = [(origin, destination) for origin, reach in reaches for destination in reach]
    empty = sum(board.piece_at(sq) is None for sq in geometry(board.size).squares)
    seats = min(most_line_squares(board.size), empty)
    while True:
        slot, seat = divmod(rng.below((len(targets) + len(pairs)) * seats), seats)
        if slot < len(targets):
            if seat == 0:
                return Move(targets[slot])
            continue
        origin, destination = pairs[slot - len(targets)]
        shots = reach_after_move(board, origin, destination)
        if seat < len(shots):
            return Move(shots[seat], origin, destination)


@functools.cache
def most_line_squares(size: int) -> int:
    """The most squares the 8 lines of one square hold on the empty N x N board.

    >>> most_line_squares(7), most_line_squares(10)
    (24, 35)
    """
    return max(sum(len(ray) for ray in geometry(size).rays[sq]) for sq in geometry(size).squares)


def _record(move: Move) -> tuple[int, int, int, int]:
    """The record row of ``move``: kind, origin, destination, target (-1 for none)."""
    kind = KIND_SWAP if move.is_swap else KIND_SHOOTER if move.is_shooter else KIND_STONE

    def number(sq: int | None) -> int:
        return -1 if sq is None else sq

    return (kind, number(move.origin), number(move.destination), number(move.target))
