"""Meridians as decisions by action id, and the observation planes, in plain
Python: what the learning adapters (:mod:`veletas.openspiel`,
:mod:`veletas.pettingzoo`, :func:`veletas.VectorEnv`) need of the game.

On a board of size A-B the points sit on the N x N rhombus grid (N = A + B
- 1) with its two sharp corners cut off (MERIDIANS.md section 1). There are
``N * N + 2`` action ids: point (file c, rank r) is ``r * N + c`` (``a1`` is
0; the cut corners have ids too, never legal), :func:`swap_action` is
``N * N`` and :func:`keep_action` ``N * N + 1``. Every turn is one decision.
The native core numbers them alike (``rust/src/meridians/state.rs``).

>>> from veletas import meridians
>>> state = DecisionState(meridians.Board(size="5-6"))
>>> state.num_actions, len(state.legal_actions())
(102, 80)
>>> state.apply(point_to_action(meridians.parse_point("d3"), "5-6"))
Move.parse('d3')
>>> observation_for(state, 0).shape
(8, 10, 10)

Action ids ascend with the point numbers (``rank * 14 + file``), and then
come ``swap`` and ``keep``: the order in which the playouts list the legal
moves. So a uniform draw ``below(k)`` over the ascending legal ids plays the
playout games (``docs/playouts.md``).
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np

from veletas import _implementation
from veletas.errors import IllegalMoveError, InvalidRulesError
from veletas.games.meridians.engine import ENGINES
from veletas.games.meridians.types import Color, Phase, Rules, check_pie, check_size, point_name

__all__ = [
    "OBSERVATION_PLANES",
    "OPENSPIEL_PARAMETERS",
    "DecisionState",
    "action_to_point",
    "action_to_string",
    "board_plane",
    "describe",
    "keep_action",
    "max_game_length",
    "new_state",
    "observation_for",
    "openspiel_start",
    "point_to_action",
    "rules_of",
    "side",
    "swap_action",
    "vector_env_type",
]


def side(size: str) -> int:
    """N = A + B - 1: the side of the rhombus grid of ``size`` ``"A-B"``.

    >>> side("5-6"), side("6-7"), side("7-8")
    (10, 12, 14)

    :raises InvalidRulesError: for an unknown size.
    """
    a, b = (int(part) for part in check_size(size).split("-"))
    return a + b - 1


def swap_action(size: str) -> int:
    """The id of ``swap`` on ``size``: N * N.

    >>> swap_action("6-7")
    144
    """
    return side(size) ** 2


def keep_action(size: str) -> int:
    """The id of ``keep`` on ``size``: N * N + 1.

    >>> keep_action("6-7")
    145
    """
    return side(size) ** 2 + 1


def point_to_action(point: int, size: str) -> int:
    """The action id of point number ``point`` (``rank * 14 + file``) on
    ``size``: ``rank * N + file``.

    >>> from veletas.games.meridians.types import parse_point
    >>> point_to_action(parse_point("f2"), "6-7")
    17

    :raises ValueError: if the point is not on the N x N grid of ``size``.
    """
    n = side(size)
    rank, file = divmod(point, 14)
    if not (0 <= point < 196 and rank < n and file < n):
        raise ValueError(f"point {point!r} is not on the {n}x{n} grid of a {size} board")
    return rank * n + file


def action_to_point(action: int, size: str) -> int:
    """The point number of a point's action id on ``size``.

    >>> point_name(action_to_point(17, "6-7"))
    'f2'

    :raises ValueError: if ``action`` is not a point's id (``swap`` and
        ``keep`` are not).
    """
    n = side(size)
    if not 0 <= action < n * n:
        raise ValueError(f"action {action!r} is not a point's id on a {size} board")
    rank, file = divmod(action, n)
    return rank * 14 + file


@functools.cache
def _board_plane(size: str) -> np.ndarray:
    n = side(size)
    b = int(size.split("-")[1])
    rank, file = np.indices((n, n))
    plane: np.ndarray = (np.abs(file - rank) <= b - 1).astype(np.float32)
    plane.flags.writeable = False
    return plane


def board_plane(size: str) -> np.ndarray:
    """The N x N plane of the board's points, ``[rank, file]``: 1 on the
    points (c, r) with ``|c - r| <= B - 1``, 0 on the two cut corners.

    >>> plane = board_plane("6-7")
    >>> int(plane.sum()), plane[0].tolist()
    (114, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    """
    plane: np.ndarray = _board_plane(check_size(size)).copy()
    return plane


OBSERVATION_PLANES = (
    "own_stones",
    "opponent_stones",
    "board",
    "open",
    "second_stone",
    "pie",
    "play",
    "dark_to_act",
)
"""The names of the observation planes, in order (the table is in
``docs/rl.md``).

"Own" and "opponent" are colours: the colour to act and the other one.
``board`` marks the points of the board; the rest are constant planes: 1 in
the opening, 1 when the mover places its second stone of the opening (the
one that needs a path to the first), 1 in the pie decision, 1 in play, 1
when Dark is to act.
"""

_OPEN, _SECOND_STONE, _PIE, _PLAY, _DARK_TO_ACT = range(3, 8)


def _is_board(board: object) -> bool:
    """Whether ``board`` is a Meridians board of either engine."""
    return isinstance(board, ENGINES.board_types())


class DecisionState:
    """A decision of a game of Meridians: a position, and whether the pie
    ``swap`` was played, which maps colours to seats.

    ``board`` is a ``veletas.meridians.Board`` of either engine; the state
    keeps its own copy. ``swapped`` defaults to whether the board's move
    stack holds a ``swap``. Seat 0 is the first player: Light until a swap,
    Dark after it; under the pie rule it places Dark's first stone too.

    >>> from veletas import meridians
    >>> state = DecisionState(meridians.Board("6/7/8/9/10/10/9/8/7/x5 d open", pie=True))
    >>> state.seat_to_act, state.apply(99)  # the first player places Dark's first stone
    (0, Move.parse('j10'))
    >>> state.legal_actions(), state.seat_to_act  # swap or keep, by the second player
    ([100, 101], 1)
    >>> _ = state.apply(100)
    >>> state.swapped, state.turn, state.seat_to_act
    (True, <Color.LIGHT: 0>, 1)

    :raises TypeError: if ``board`` is not a Meridians board.
    """

    __slots__ = ("_board", "_moves", "_swapped")

    def __init__(self, board: Any, *, swapped: bool | None = None) -> None:
        if not _is_board(board):
            raise TypeError(f"expected a Meridians board, not {type(board).__name__}")
        if swapped is None:
            swapped = any(move.is_swap for move in board.move_stack)
        self._board = board.copy(stack=False)
        self._swapped = bool(swapped)
        self._moves: dict[int, Any] | None = None

    def _legal(self) -> dict[int, Any]:
        """The legal moves by action id, ascending; computed once per decision."""
        if self._moves is None:
            size = self._board.size
            n = side(size)
            swap = n * n
            moves: dict[int, Any] = {}
            for move in self._board.legal_moves:
                point = move.point
                if point is not None:
                    moves[point // 14 * n + point % 14] = move
                else:
                    moves[swap if move.is_swap else swap + 1] = move
            self._moves = moves
        return self._moves

    @property
    def board(self) -> Any:
        """A copy of the position (no move stack)."""
        return self._board.copy(stack=False)

    @property
    def size(self) -> str:
        """The board size, such as ``"6-7"``."""
        return str(self._board.size)

    @property
    def pie(self) -> bool:
        """Whether the game is played under the pie rule."""
        return bool(self._board.pie)

    @property
    def n(self) -> int:
        """N, the side of the grid of the action ids."""
        return side(self._board.size)

    @property
    def num_actions(self) -> int:
        """N * N + 2."""
        return self.n**2 + 2

    @property
    def swap_action(self) -> int:
        """The id of ``swap``, N * N."""
        return self.n**2

    @property
    def keep_action(self) -> int:
        """The id of ``keep``, N * N + 1."""
        return self.n**2 + 1

    @property
    def turn(self) -> Color:
        """The colour to act."""
        return Color(self._board.turn)

    @property
    def phase(self) -> Phase:
        """The phase of the position."""
        return Phase(self._board.phase)

    @property
    def winner(self) -> Color | None:
        """The colour that won, once the game is over."""
        winner = self._board.winner
        return None if winner is None else Color(winner)

    @property
    def swapped(self) -> bool:
        """Whether the pie swap was played."""
        return self._swapped

    @property
    def seat_to_act(self) -> int:
        """The seat to act: 0 for the first player, 1 for the second.

        The seat that holds the colour to act, but for Dark's first stone
        under the pie rule, which the first player places (MERIDIANS.md
        section 5) before the second chooses a colour.
        """
        board = self._board
        turn = Color(board.turn)
        if board.pie and turn is Color.DARK and board.phase == Phase.OPEN and not board.stones.dark:
            return 0
        return int(turn) ^ int(self._swapped)

    def is_terminal(self) -> bool:
        """Whether the game is over (there is then a winner)."""
        return not self._legal()

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending; none once the game is over."""
        return list(self._legal())

    def action_mask(self) -> np.ndarray:
        """int8 of ``num_actions``: 1 on the legal ids."""
        mask = np.zeros(self.num_actions, np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def move_of(self, action: int) -> Any:
        """The legal move of ``action``, a ``Move`` of the board's engine.

        :raises IllegalMoveError: if ``action`` is not legal here.
        :raises TypeError: if ``action`` is not an integer.
        """
        action = operator.index(action)
        move = self._legal().get(action)
        if move is None:
            raise IllegalMoveError(
                f"illegal action {action} at {self._board.fen()!r}: "
                f"legal actions are {self.legal_actions()}"
            )
        return move

    def action_of(self, move: Any) -> int:
        """The action id of ``move``, a legal move here.

        :raises IllegalMoveError: if ``move`` is not legal here.
        """
        for action, legal in self._legal().items():
            if legal == move:
                return action
        raise IllegalMoveError(f"illegal move {str(move)!r} in {self._board.fen()!r}")

    def apply(self, action: int) -> Any:
        """Takes the legal ``action`` and returns its move; an illegal one
        raises and changes nothing.

        :raises IllegalMoveError: if ``action`` is not legal here.
        :raises TypeError: if ``action`` is not an integer.
        """
        move = self.move_of(action)
        self._board.push(move)
        self._swapped |= bool(move.is_swap)
        self._moves = None
        return move

    def observation(self) -> np.ndarray:
        """The float32 planes ``(8, N, N)`` of :data:`OBSERVATION_PLANES`,
        seen from the colour to act.

        >>> from veletas import meridians
        >>> state = DecisionState(meridians.Board(size="5-6"))
        >>> planes = state.observation()
        >>> planes.shape, int(planes[2].sum()), planes[3:].sum(axis=(1, 2)).tolist()
        ((8, 10, 10), 80, [100.0, 0.0, 0.0, 0.0, 0.0])
        """
        board = self._board
        n = self.n
        planes = np.zeros((len(OBSERVATION_PLANES), n, n), np.float32)
        own = board.turn
        for point, color in board.piece_map().items():
            rank, file = divmod(point, 14)
            planes[0 if color == own else 1, rank, file] = 1.0
        planes[2] = _board_plane(board.size)
        phase = Phase(board.phase)
        constants = {
            _OPEN: phase is Phase.OPEN,
            _SECOND_STONE: phase is Phase.OPEN and board.stones[own] == 1,
            _PIE: phase is Phase.PIE,
            _PLAY: phase is Phase.PLAY,
            _DARK_TO_ACT: own == Color.DARK,
        }
        for plane, on in constants.items():
            planes[plane] = float(on)
        return planes

    def copy(self) -> DecisionState:
        """An independent copy."""
        other = object.__new__(DecisionState)
        other._board = self._board.copy(stack=False)
        other._swapped = self._swapped
        other._moves = self._moves
        return other

    def __copy__(self) -> DecisionState:
        return self.copy()

    def __deepcopy__(self, memo: object) -> DecisionState:
        return self.copy()

    def _key(self) -> tuple[str, bool, bool]:
        return (self._board.fen(), bool(self._board.pie), self._swapped)

    def __eq__(self, other: object) -> bool:
        """Same position, pie option and swap flag (of either engine)."""
        if not isinstance(other, DecisionState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __getstate__(self) -> tuple[Any, bool]:
        return (self._board, self._swapped)

    def __setstate__(self, state: tuple[Any, bool]) -> None:
        self._board, self._swapped = state
        self._moves = None

    def __repr__(self) -> str:
        return (
            f"<DecisionState {self._board.fen()!r} pie={self._board.pie} swapped={self._swapped}>"
        )


def observation_for(state: DecisionState, seat: int) -> np.ndarray:
    """The planes of ``state`` as ``seat`` sees them: ``state.observation()``
    for the seat to act; for the other seat the own and opponent planes
    trade places.

    >>> from veletas import meridians
    >>> state = DecisionState(meridians.Board(size="5-6"))
    >>> _ = state.apply(23)
    >>> mine, theirs = observation_for(state, 1), observation_for(state, 0)
    >>> bool((mine[1] == theirs[0]).all() and (mine[2:] == theirs[2:]).all())
    True

    :raises ValueError: for a seat other than 0 and 1.
    """
    planes = state.observation()
    if seat == state.seat_to_act:
        return planes
    if seat not in (0, 1):
        raise ValueError(f"seat {seat!r} is not 0 or 1")
    planes[[0, 1]] = planes[[1, 0]]
    return planes


def describe(state: DecisionState) -> str:
    """The board diagram and who acts (or who won), as text.

    >>> from veletas import meridians
    >>> print(describe(DecisionState(meridians.Board(size="5-6"))).splitlines()[-1])
    light to act (seat 0), open
    """
    board = state._board
    winner = state.winner
    if winner is not None:
        status = f"{winner} wins (seat {int(winner) ^ int(state.swapped)})"
    else:
        status = f"{state.turn} to act (seat {state.seat_to_act}), {state.phase}"
    return f"{board}\n{status}"


def action_to_string(state: DecisionState, action: int) -> str:
    """The notation of ``action`` on the board of ``state``: a point name,
    ``swap`` or ``keep``.

    >>> from veletas import meridians
    >>> state = DecisionState(meridians.Board())
    >>> action_to_string(state, 17), action_to_string(state, 144)
    ('f2', 'swap')
    """
    size = state.size
    if action == swap_action(size):
        return "swap"
    if action == keep_action(size):
        return "keep"
    return point_name(action_to_point(action, size))


def rules_of(state: DecisionState) -> Rules:
    """The rules ``state`` is played under."""
    return Rules(state.size, state.pie)


def new_state(*, size: str = "6-7", pie: bool = False) -> DecisionState:
    """The first decision of a game of ``size``, with or without the pie
    rule, on the board of the engine in use.

    :raises InvalidRulesError: for an unknown size or a ``pie`` that is not a bool.
    """
    board_type = ENGINES.selected().Board
    return DecisionState(board_type(size=check_size(size), pie=check_pie(pie)))


OPENSPIEL_PARAMETERS: dict[str, Any] = {"size": 6, "pie": False}
"""OpenSpiel's parameters of ``"meridians"`` and their defaults: ``size`` is
A, the short side of the board A-B (5, 6 or 7), since OpenSpiel reads a
value such as ``6-7`` in a game string as a malformed integer."""


def openspiel_start(params: dict[str, Any]) -> DecisionState:
    """The first decision of the game OpenSpiel's ``params`` describe.

    >>> openspiel_start({"size": 5, "pie": True}).board
    Board('6/7/8/9/10/10/9/8/7/6 l open', size='5-6', pie=True)

    :raises InvalidRulesError: for a size other than 5, 6 and 7.
    """
    params = {**OPENSPIEL_PARAMETERS, **params}
    a = params["size"]
    if a not in (5, 6, 7) or isinstance(a, bool):
        raise InvalidRulesError(
            f"size {a!r} is not 5, 6 or 7, the short side of the boards 5-6, 6-7 and 7-8"
        )
    return new_state(size=f"{a}-{a + 1}", pie=params["pie"])


def max_game_length(state: DecisionState) -> int:
    """A bound on the decisions of a game, as OpenSpiel asks for one: ten
    per point of the board.

    Meridians has no move limit, and no bound on the length of a game is
    known: stones are removed as well as placed. Random games stay far
    below this one: the longest of 400,000 random games of each size, with
    and without the pie rule, took under 2.7 decisions per point.

    >>> from veletas import meridians
    >>> max_game_length(DecisionState(meridians.Board()))
    1140
    """
    return 10 * int(_board_plane(state.size).sum())


def vector_env_type() -> Any:
    """The native ``VectorEnv`` class of Meridians.

    :raises ImportError: where the extension is not built.
    """
    return _implementation.require_native("VectorEnv").MeridiansVectorEnv
