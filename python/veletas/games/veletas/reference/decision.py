"""Turns as micro-decisions: the action encoding of the "micro" playout policy.

On an N x N board there are N * N + 2 action ids (``docs/playouts.md``): a
square's id is ``rank * N + file``, ``PASS = N * N`` ("no shooter move") and
``SWAP = N * N + 1``. A setup turn is one decision (a placement), the pie turn
is ``SWAP`` or a placement, and a play turn is up to three decisions by the
same player: ``PASS`` or a shooter that can move; then, after a shooter, its
destination; then the target of the shot.

>>> from veletas.reference import Board
>>> state = DecisionState(Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3"))
>>> state.legal_actions()  # the shooters on c2, f2 and b4, then PASS
[9, 12, 22, 49]
>>> state.apply(9), state.stage, state.origin  # the shooter on c2 (square 12) ...
(None, 'destination', 12)
>>> state.apply(16), state.stage  # ... goes to c3 ...
(None, 'target')
>>> state.apply(9)  # ... and shoots back onto c2.
Move.parse('c2-c3/c2')
>>> state.board.fen(), state.stage
('7/2x4/7/1s5/2s4/o1x2s1/7 w play 3', 'start')
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from veletas._checks import shown
from veletas.errors import IllegalMoveError
from veletas.games.veletas.reference.board import Board
from veletas.games.veletas.reference.geometry import geometry
from veletas.games.veletas.reference.move import Move
from veletas.games.veletas.types import Color, Phase, Piece, square_name

__all__ = [
    "DecisionState",
    "action_to_square",
    "pass_action",
    "square_to_action",
    "swap_action",
]

_STONES = (Piece.BLACK_STONE, Piece.WHITE_STONE)
_CLAIMED_SHOOTERS = (Piece.BLACK_CLAIMED, Piece.WHITE_CLAIMED)


def pass_action(size: int) -> int:
    """The id of "no shooter move" on an N x N board: N * N."""
    return size * size


def swap_action(size: int) -> int:
    """The id of the pie swap on an N x N board: N * N + 1."""
    return size * size + 1


def square_to_action(square: int, size: int) -> int:
    """The action id of the public ``square`` (``rank * 10 + file``) on an N x N board.

    >>> from veletas import C2
    >>> square_to_action(C2, 7)
    9
    """
    return square // 10 * size + square % 10


def action_to_square(action: int, size: int) -> int:
    """The public square of the square id ``action`` on an N x N board.

    >>> from veletas import square_name
    >>> square_name(action_to_square(9, 7))
    'c2'
    """
    return action // size * 10 + action % size


class DecisionState:
    """A position plus the part of the current turn chosen so far.

    ``DecisionState(board)`` is the first decision of the turn of ``board`` (a
    copy is taken; a board of the native core is read through its position
    string). ``swapped`` says whether the pie swap was played on the way to
    it, which maps colours to seats (seat 0 is the first player, Black until
    a swap); it defaults to whether the board's move stack holds a swap.

    >>> from veletas.reference import Board
    >>> state = DecisionState(Board("7/7/7/7/2s4/7/x6 w pie 3"))
    >>> state.seat_to_act, state.legal_actions()[-1] == state.swap_action
    (1, True)
    >>> state.apply(state.swap_action)
    Move.parse('swap')
    >>> state.swapped, state.seat_to_act  # White to act is now the first player
    (True, 0)

    :raises TypeError: if ``board`` is not a board.
    """

    __slots__ = ("_board", "_destination", "_origin", "_size", "_stage", "_swapped")

    def __init__(self, board: Any, *, swapped: bool | None = None) -> None:
        if not (callable(getattr(board, "fen", None)) and hasattr(board, "move_stack")):
            raise TypeError(f"expected a Board, not {type(board).__name__}")
        if swapped is None:
            swapped = any(move.is_swap for move in board.move_stack)
        if isinstance(board, Board):
            own = board.copy(stack=False)
        else:
            rules = board.rules
            own = Board(
                board.fen(),
                setup_rule=rules.setup_rule,
                shooters_block=rules.shooters_block,
                claimed_shooters_block=rules.claimed_shooters_block,
            )
        self._board = own
        self._size = own.size
        self._swapped = bool(swapped)
        self._stage = "start"
        self._origin: int | None = None
        self._destination: int | None = None

    # ------------------------------------------------------------------
    # What the state is

    @property
    def board(self) -> Board:
        """A copy of the position at the start of the current turn."""
        return self._board.copy(stack=False)

    @property
    def size(self) -> int:
        """N: the board has N x N squares."""
        return self._size

    @property
    def num_actions(self) -> int:
        """N * N + 2: the number of action ids."""
        return self._size * self._size + 2

    @property
    def pass_action(self) -> int:
        """The id of "no shooter move": N * N."""
        return pass_action(self._size)

    @property
    def swap_action(self) -> int:
        """The id of the pie swap: N * N + 1."""
        return swap_action(self._size)

    @property
    def stage(self) -> str:
        """``"start"``, ``"destination"`` (a shooter was chosen) or ``"target"``."""
        return self._stage

    @property
    def origin(self) -> int | None:
        """The square of the shooter chosen this turn, if any."""
        return self._origin

    @property
    def destination(self) -> int | None:
        """The square the chosen shooter moves to, once chosen."""
        return self._destination

    @property
    def swapped(self) -> bool:
        """Whether the pie swap was played."""
        return self._swapped

    @property
    def turn(self) -> Color:
        """The colour to act."""
        return self._board.turn

    @property
    def seat_to_act(self) -> int:
        """The seat to act: 0 for the first player, 1 for the second."""
        return int(self._board.turn) ^ int(self._swapped)

    @property
    def winner(self) -> Color | None:
        """The colour holding K // 2 + 1 claims, or None."""
        return self._board.winner

    def is_terminal(self) -> bool:
        """Whether no decision is left: the game is won, or (only in hand-made
        positions) the player to act has no legal move."""
        return not self.legal_actions()

    # ------------------------------------------------------------------
    # Actions

    def legal_actions(self) -> list[int]:
        """The legal action ids of the current decision, ascending.

        Square ids ascend with the squares (both are rank-major), so
        ``PASS`` and ``SWAP`` come after every square.
        """
        board = self._board
        if self._stage == "destination":
            assert self._origin is not None
            return self._ids(board.reach(self._origin))
        if self._stage == "target":
            return self._ids(self._targets())
        if board.winner is not None:
            return []
        if board.phase is Phase.PLAY:
            movable = [sq for sq in board.pieces(Piece.SHOOTER) if board.reach(sq)]
            return [*self._ids(movable), self.pass_action] if movable else []
        placements = self._ids(move.target for move in board.legal_moves if not move.is_swap)
        if board.phase is Phase.PIE:
            placements.append(self.swap_action)
        return placements

    def action_mask(self) -> np.ndarray:
        """The legal actions as a 0/1 int8 array of length N * N + 2."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def observation(self) -> np.ndarray:
        """The decision as float32 planes ``(12, N, N)``, indexed ``[plane,
        rank, file]``, seen from the colour to act (the table of
        ``docs/rl.md``): own and opponent stones, unclaimed shooters, own and
        opponent claims, the chosen origin and destination, then constant
        planes for a due shot after ``PASS``, setup, pie, play and White to act.

        >>> state = DecisionState(Board(variant="small"))
        >>> planes = state.observation()
        >>> planes.shape, float(planes[8].sum())  # setup: plane 8 is all 1
        ((12, 7, 7), 49.0)
        """
        board, size = self._board, self.size
        turn = board.turn
        own, other = (
            (Color.BLACK, Color.WHITE) if turn is Color.BLACK else (Color.WHITE, Color.BLACK)
        )
        stone = {Color.BLACK: Piece.BLACK_STONE, Color.WHITE: Piece.WHITE_STONE}
        claimed = {Color.BLACK: Piece.BLACK_CLAIMED, Color.WHITE: Piece.WHITE_CLAIMED}
        square_planes = [
            stone[own],
            stone[other],
            Piece.SHOOTER,
            claimed[own],
            claimed[other],
        ]
        planes = np.zeros((12, size, size), dtype=np.float32)
        for index, piece in enumerate(square_planes):
            for sq in board.pieces(piece):
                planes[index, sq // 10, sq % 10] = 1.0
        for index, marked in ((5, self._origin), (6, self._destination)):
            if marked is not None:
                planes[index, marked // 10, marked % 10] = 1.0
        constants = {
            7: self._stage == "target" and self._origin is None,
            8: board.phase is Phase.SETUP,
            9: board.phase is Phase.PIE,
            10: board.phase is Phase.PLAY,
            11: turn is Color.WHITE,
        }
        for index, on in constants.items():
            if on:
                planes[index] = 1.0
        return planes

    def _where(self) -> str:
        """Where the turn stands, for messages: the fen and the partial turn."""
        partial = ""
        if self._origin is not None and self._destination is not None:
            partial = (
                f", shooter {square_name(self._origin)} to {square_name(self._destination)} chosen"
            )
        elif self._origin is not None:
            partial = f", shooter {square_name(self._origin)} chosen"
        elif self._stage == "target":
            partial = ", PASS chosen"
        return f"{self._board.fen()!r}{partial}"

    def apply(self, action: int) -> Move | None:
        """Take ``action``; returns the completed move when the turn completes.

        :raises TypeError: if ``action`` is not an integer.
        :raises IllegalMoveError: if ``action`` is not legal now; the state is
            unchanged.
        """
        try:
            action = operator.index(action)
        except TypeError:
            raise TypeError(f"an action is an int, not {type(action).__name__}") from None
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalMoveError(
                f"illegal action {shown(action)} in {self._where()}: legal actions are {legal}"
            )
        board = self._board
        if board.phase is not Phase.PLAY:
            if action == self.swap_action:
                self._swapped = True
                return self._finish(Move.swap())
            square = self._square(action)
            shooter = Move.shooter(square)
            return self._finish(shooter if board.is_legal(shooter) else Move(square))
        if self._stage == "start":
            if action == self.pass_action:
                self._stage = "target"
            else:
                self._stage, self._origin = "destination", self._square(action)
            return None
        if self._stage == "destination":
            self._stage, self._destination = "target", self._square(action)
            return None
        return self._finish(Move(self._square(action), self._origin, self._destination))

    def actions_of(self, move: Move) -> list[int]:
        """The action ids that play ``move`` from the start of the current turn.

        >>> from veletas.reference import Board
        >>> state = DecisionState(Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3"))
        >>> state.actions_of(Move.parse("c2-c3/c2")), state.actions_of(Move.parse("c1"))
        ([9, 16, 9], [49, 2])

        :raises IllegalMoveError: if ``move`` is not legal at the start of the turn.
        """
        if not isinstance(move, Move):
            if type(move).__module__ != "veletas._veletas" or type(move).__name__ != "Move":
                raise TypeError(f"expected a Move, not {type(move).__name__}")
            move = Move.parse(str(move))  # a move of the native core
        problem = self._board._illegality(move)
        if problem is not None:
            raise IllegalMoveError(
                f"illegal move {str(move)!r} in {self._board.fen()!r}: {problem}"
            )
        if move.is_swap:
            return [self.swap_action]
        assert move.target is not None
        target = self._id(move.target)
        if move.origin is not None and move.destination is not None:
            return [self._id(move.origin), self._id(move.destination), target]
        if self._board.phase is Phase.PLAY:
            return [self.pass_action, target]
        return [target]

    # ------------------------------------------------------------------
    # Copies, equality

    def copy(self) -> DecisionState:
        """An independent copy."""
        other = object.__new__(DecisionState)
        other._board = self._board.copy(stack=False)
        other._size = self._size
        other._swapped = self._swapped
        other._stage = self._stage
        other._origin = self._origin
        other._destination = self._destination
        return other

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickles as the board at the start of the turn, the swap flag and
        the partial turn."""
        fields = (self._board, self._swapped, self._stage, self._origin, self._destination)
        return DecisionState._restore, fields

    @classmethod
    def _restore(
        cls,
        board: Board,
        swapped: bool,
        stage: str,
        origin: int | None,
        destination: int | None,
    ) -> DecisionState:
        """The state :meth:`__reduce__` describes (not for direct use)."""
        state = cls(board, swapped=swapped)
        state._stage, state._origin, state._destination = stage, origin, destination
        return state

    def __copy__(self) -> DecisionState:
        return self.copy()

    def __deepcopy__(self, memo: object) -> DecisionState:
        return self.copy()

    def _identity(self) -> tuple[object, ...]:
        return (self._board, self._stage, self._origin, self._destination, self._swapped)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DecisionState):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        parts = [f"stage={self._stage!r}"]
        if self._origin is not None:
            parts.append(f"origin={self._origin}")
        if self._destination is not None:
            parts.append(f"destination={self._destination}")
        return f"<DecisionState {self._board!r} {' '.join(parts)} swapped={self._swapped}>"

    # ------------------------------------------------------------------
    # Helpers

    def _id(self, square: int) -> int:
        return square_to_action(square, self._size)

    def _ids(self, squares: Any) -> list[int]:
        return sorted(self._id(sq) for sq in squares)

    def _square(self, action: int) -> int:
        return action_to_square(action, self._size)

    def _targets(self) -> list[int]:
        """The targets of the shot: after PASS, every square an unclaimed
        shooter reaches; after a move, the reach of the moved shooter."""
        board = self._board
        if self._origin is None:
            found: set[int] = set()
            for shooter in board.pieces(Piece.SHOOTER):
                found.update(board.reach(shooter))
            return sorted(found)
        assert self._destination is not None
        return reach_after_move(board, self._origin, self._destination)

    def _finish(self, move: Move) -> Move:
        self._board.push(move)
        self._stage = "start"
        self._origin = self._destination = None
        return move


def reach_after_move(board: Board, origin: int, destination: int) -> list[int]:
    """The squares the shooter on ``origin`` reaches once moved to ``destination``:
    ``origin`` is then empty (RULES.md section 4). Ascending.

    >>> from veletas import B4, B7, square_name
    >>> from veletas.reference import Board
    >>> board = Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    >>> [square_name(sq) for sq in reach_after_move(board, B4, B7)][:4]
    ['b1', 'b2', 'b3', 'b4']
    """
    stops_at_shooters = board.rules.shooters_block
    stops_at_claimed = board.rules.claimed_shooters_block
    found = []
    for ray in geometry(board.size).rays[destination]:
        for sq in ray:
            piece = None if sq == origin else board.piece_at(sq)
            if piece is None:
                found.append(sq)
            elif (
                piece in _STONES
                or stops_at_shooters
                or (stops_at_claimed and piece in _CLAIMED_SHOOTERS)
            ):
                break
    return sorted(found)
