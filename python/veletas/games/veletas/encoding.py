"""Turns as micro-decisions: the action ids of learning agents and search.

On an N x N board there are ``N * N + 2`` action ids. A square's id is
``rank * N + file`` (``a1`` is 0); :func:`pass_action` (``N * N``) means "no
shooter move" and :func:`swap_action` (``N * N + 1``) is the pie swap. A
setup turn is one decision (a placement), the pie turn is ``SWAP`` or a
placement, and a play turn is up to three decisions by the same player:
``PASS`` or a shooter's square; then, if a shooter was chosen, its
destination; then the target of the shot. Every offered prefix completes.

>>> import veletas
>>> from veletas.games.veletas.encoding import move_to_actions, actions_to_move
>>> board = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
>>> move = veletas.Move.parse("c2-c3/c2")
>>> move_to_actions(move, board)
[9, 16, 9]
>>> actions_to_move([9, 16, 9], board)
Move.parse('c2-c3/c2')
>>> move_to_actions(veletas.Move.parse("d4"), board)
[49, 24]

:class:`DecisionState` holds a position and the partial turn; it is the
state object of the adapters (:mod:`veletas.openspiel`,
:mod:`veletas.pettingzoo`, :class:`veletas.VectorEnv`).
:class:`RandomAgent` and :func:`random_game` play exactly the games of the
"micro" playout policy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from veletas import _implementation
from veletas.errors import IllegalMoveError
from veletas.games.veletas.engine import ENGINES
from veletas.games.veletas.types import Phase, Rules, square_name
from veletas.rng import Rng

if TYPE_CHECKING:
    from veletas._veletas import Board, DecisionState, Move


def __getattr__(name: str) -> Any:
    # DecisionState: the selected engine's (``veletas.DecisionState``).
    if name == "DecisionState":
        return ENGINES.selected().DecisionState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "OBSERVATION_PLANES",
    "OPENSPIEL_PARAMETERS",
    "DecisionState",
    "RandomAgent",
    "action_to_square",
    "action_to_string",
    "actions_to_move",
    "describe",
    "max_game_length",
    "move_to_actions",
    "new_state",
    "observation_for",
    "openspiel_start",
    "pass_action",
    "random_game",
    "rules_of",
    "square_to_action",
    "swap_action",
    "vector_env_type",
]


def pass_action(size: int) -> int:
    """The id of "no shooter move" on an N x N board: ``N * N``.

    >>> pass_action(10)
    100
    """
    return size * size


def swap_action(size: int) -> int:
    """The id of the pie swap on an N x N board: ``N * N + 1``.

    >>> swap_action(7)
    50
    """
    return size * size + 1


def square_to_action(square: int, size: int) -> int:
    """The action id of public square ``square`` (``rank * 10 + file``) on an
    N x N board: ``rank * N + file``.

    >>> from veletas import C3
    >>> square_to_action(C3, 7)
    16

    :raises ValueError: if the square is not on the board.
    """
    rank, file = divmod(square, 10)
    if not (0 <= square < 100 and rank < size and file < size):
        raise ValueError(f"square {square!r} is not on a {size}x{size} board")
    return rank * size + file


def action_to_square(action: int, size: int) -> int:
    """The public square (``rank * 10 + file``) of a square's action id on an
    N x N board.

    >>> square_name(action_to_square(16, 7))
    'c3'

    :raises ValueError: if ``action`` is not a square's id (``PASS`` and
        ``SWAP`` are not).
    """
    if not 0 <= action < size * size:
        raise ValueError(f"action {action!r} is not a square's id on a {size}x{size} board")
    rank, file = divmod(action, size)
    return rank * 10 + file


OBSERVATION_PLANES = (
    "own_stones",
    "opponent_stones",
    "shooters",
    "own_claims",
    "opponent_claims",
    "origin",
    "destination",
    "passed",
    "setup",
    "pie",
    "play",
    "white_to_act",
)
"""The names of the planes of ``DecisionState.observation()``, in order.

"Own" and "opponent" are colours: the colour to act and the other one.
``origin`` and ``destination`` mark the partial turn (the shooter chosen and
where it goes); ``passed`` and the rest are constant planes: 1 after
``PASS``, 1 in the phase named, 1 when White is to act. The table with the
details is in ``docs/rl.md``.
"""

_SWAP_SIDES = [1, 0, 2, 4, 3]  # the first five planes, own and opponent traded


def observation_for(state: DecisionState, seat: int) -> np.ndarray:
    """The planes of ``state`` as ``seat`` sees them: ``state.observation()``
    for the seat to act; for the other seat the own and opponent planes
    trade places.

    >>> import veletas
    >>> state = veletas.DecisionState(veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3"))
    >>> mine = observation_for(state, 0)
    >>> theirs = observation_for(state, 1)
    >>> bool((mine[0] == theirs[1]).all() and (mine[5:] == theirs[5:]).all())
    True
    """
    planes = state.observation()
    if seat == state.seat_to_act:
        return planes
    if seat not in (0, 1):
        raise ValueError(f"seat {seat!r} is not 0 or 1")
    planes[:5] = planes[_SWAP_SIDES]
    return planes


def describe(state: DecisionState) -> str:
    """The board diagram, who acts (or who won) and the partial turn, as text.

    >>> import veletas
    >>> state = veletas.DecisionState(veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3"))
    >>> state.apply(9)
    >>> print(describe(state))
     7 . . . . . . .
     6 . . x . . . .
     5 . . . . . . .
     4 . s . . . . .
     3 . . . . . . .
     2 o . s . . s .
     1 . . . . . . .
       a b c d e f g
    black to act (seat 0)
    shooter c2 chosen
    """
    lines = [str(state.board)]
    winner = state.winner
    if winner is not None:
        lines.append(f"{winner} wins (seat {int(winner) ^ int(state.swapped)})")
    elif state.is_terminal():
        lines.append(f"{state.turn} to act but has no legal action")
    else:
        lines.append(f"{state.turn} to act (seat {state.seat_to_act})")
    if state.origin is not None:
        lines.append(f"shooter {square_name(state.origin)} chosen")
    if state.destination is not None:
        lines.append(f"moving to {square_name(state.destination)}")
    if state.stage == "target" and state.origin is None:
        lines.append("PASS chosen: a shot without a move")
    return "\n".join(lines)


def action_to_string(state: DecisionState, action: int) -> str:
    """The name of ``action`` on the board of ``state``: a square name,
    ``PASS`` or ``SWAP``.

    >>> import veletas
    >>> state = veletas.DecisionState(veletas.Board(variant="small"))
    >>> action_to_string(state, 16), action_to_string(state, 49), action_to_string(state, 50)
    ('c3', 'PASS', 'SWAP')
    """
    size = state.size
    if action == pass_action(size):
        return "PASS"
    if action == swap_action(size):
        return "SWAP"
    return square_name(action_to_square(action, size))


def rules_of(state: DecisionState) -> Rules:
    """The rules ``state`` is played under."""
    rules: Rules = state.board.rules
    return rules


def new_state(
    *,
    variant: str = "standard",
    setup_rule: str = "perimeter",
    shooters_block: bool = False,
    size: int | None = None,
    shooters: int | None = None,
    claimed_shooters_block: bool = False,
) -> DecisionState:
    """The first decision of a game under the rules named as for ``Board``.

    :raises InvalidRulesError: for bad rules.
    """
    board = ENGINES.selected().Board(
        variant=variant,
        setup_rule=setup_rule,
        shooters_block=shooters_block,
        size=size,
        shooters=shooters,
        claimed_shooters_block=claimed_shooters_block,
    )
    state: DecisionState = ENGINES.selected().DecisionState(board)
    return state


OPENSPIEL_PARAMETERS: dict[str, Any] = {
    "variant": "standard",
    "setup_rule": "perimeter",
    "shooters_block": False,
    "size": 0,
    "shooters": 0,
    "claimed_shooters_block": False,
}
"""OpenSpiel's parameters of ``"veletas"`` and their defaults (``size`` and
``shooters`` 0 keep the variant's)."""


def openspiel_start(params: dict[str, Any]) -> DecisionState:
    """The first decision of the game OpenSpiel's ``params`` describe.

    :raises InvalidRulesError: for bad rules.
    """
    params = {**OPENSPIEL_PARAMETERS, **params}
    rules = Rules.make(
        params["variant"],
        size=params["size"] or None,
        shooters=params["shooters"] or None,
        setup_rule=params["setup_rule"],
        shooters_block=bool(params["shooters_block"]),
        claimed_shooters_block=bool(params["claimed_shooters_block"]),
    )
    return new_state(
        size=rules.size,
        shooters=rules.shooters,
        setup_rule=rules.setup_rule,
        shooters_block=rules.shooters_block,
        claimed_shooters_block=rules.claimed_shooters_block,
    )


def max_game_length(state: DecisionState) -> int:
    """The most decisions a game can take: every placement and the swap,
    then three decisions per stone shot onto the squares left.

    >>> import veletas
    >>> max_game_length(veletas.DecisionState(veletas.Board()))
    283
    """
    rules = rules_of(state)
    n, k = rules.size, rules.shooters
    return k + 2 + 1 + 3 * (n * n - k - 2)


def vector_env_type() -> Any:
    """The native ``VectorEnv`` class of Veletas.

    :raises ImportError: where the extension is not built.
    """
    return _implementation.require_native("VectorEnv").VectorEnv


def move_to_actions(move: Move, board: Board) -> list[int]:
    """The action ids that play ``move`` from the start of a turn of ``board``.

    >>> import veletas
    >>> board = veletas.Board(variant="small")
    >>> move_to_actions(veletas.Move.shooter(veletas.C3), board)
    [16]

    :raises IllegalMoveError: if ``move`` is not legal on ``board``.
    """
    if not board.is_legal(move):
        raise IllegalMoveError(f"illegal move {str(move)!r} in {board.fen()!r}")
    size = board.size
    if move.is_swap:
        return [swap_action(size)]
    assert move.target is not None  # every move but the swap has a target
    target = square_to_action(move.target, size)
    if move.origin is not None and move.destination is not None:
        return [
            square_to_action(move.origin, size),
            square_to_action(move.destination, size),
            target,
        ]
    if board.phase is Phase.PLAY:
        return [pass_action(size), target]
    return [target]


def actions_to_move(actions: Iterable[int], board: Board) -> Move:
    """The move that ``actions`` play from the start of a turn of ``board``:
    the inverse of :func:`move_to_actions`.

    >>> import veletas
    >>> actions_to_move([50], veletas.Board("7/7/7/7/2s4/7/x6 w pie 3"))
    Move.parse('swap')

    :raises IllegalMoveError: unless ``actions`` are exactly the decisions of
        one legal turn.
    """
    ids = [int(a) for a in actions]
    size = board.size
    move_type = ENGINES.of_board(board).Move
    squares = [action_to_square(a, size) if 0 <= a < size * size else None for a in ids]
    candidates: list[Move] = []
    if board.phase is not Phase.PLAY and len(ids) == 1:
        if ids[0] == swap_action(size):
            candidates = [move_type.swap()]
        elif squares[0] is not None:
            candidates = [move_type.shooter(squares[0]), move_type(squares[0])]
    elif board.phase is Phase.PLAY:
        if len(ids) == 2 and ids[0] == pass_action(size) and squares[1] is not None:
            candidates = [move_type(squares[1])]
        elif len(ids) == 3 and None not in squares:
            origin, destination, target = squares
            candidates = [move_type(target, origin, destination)]
    for move in candidates:
        if board.is_legal(move):
            return move
    raise IllegalMoveError(f"actions {ids!r} are not one legal turn in {board.fen()!r}")


class RandomAgent:
    """A uniformly random agent over the legal actions that draws exactly as
    the "micro" playout policy does.

    Game ``index`` of a run with ``seed`` draws from the stream
    ``Rng.for_game(seed, index)``; each decision takes
    ``ids[rng.below(len(ids))]``, ``ids`` being the legal action ids in
    ascending order. Use one agent per game, for both players: the stream is
    the game's, not a player's.

    >>> import veletas
    >>> state = veletas.DecisionState(veletas.Board(variant="small"))
    >>> agent = RandomAgent(seed=0, index=3)
    >>> action = agent(state.action_mask())
    >>> action in state.legal_actions()
    True
    """

    __slots__ = ("_rng",)

    def __init__(self, seed: int = 0, index: int = 0) -> None:
        seed, index = int(seed), int(index)
        for name, value in (("seed", seed), ("index", index)):
            if not 0 <= value < 2**64:
                raise ValueError(f"{name} must be in 0 .. 2**64 - 1, got {value!r}")
        self._rng = Rng.for_game(seed, index)

    def choose(self, legal_actions: Sequence[int]) -> int:
        """One of ``legal_actions`` (ascending ids).

        :raises ValueError: if there is none.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from: the game is over")
        return int(legal_actions[self._rng.below(len(legal_actions))])

    def __call__(self, mask: Any) -> int:
        """One of the ids that ``mask`` marks legal (non-zero)."""
        return self.choose(np.flatnonzero(np.asarray(mask)).tolist())


def random_game(
    seed: int = 0,
    index: int = 0,
    *,
    start: Board | None = None,
    variant: str = "standard",
    size: int | None = None,
    shooters: int | None = None,
    setup_rule: str = "perimeter",
    shooters_block: bool = False,
    claimed_shooters_block: bool = False,
) -> Board:
    """Game ``index`` of a "micro" playout run with ``seed``, played action by
    action by a :class:`RandomAgent` over a :class:`DecisionState`; returns
    the board with its moves pushed.

    With ``start``, the game continues from (a copy of) that board, whose
    move stack tells whether the swap was played; the rule keywords are
    then ignored.

    >>> board = random_game(seed=1, index=0, variant="small")
    >>> board.is_game_over()
    True
    """
    if start is None:
        board = ENGINES.selected().Board(
            variant=variant,
            size=size,
            shooters=shooters,
            setup_rule=setup_rule,
            shooters_block=shooters_block,
            claimed_shooters_block=claimed_shooters_block,
        )
    else:
        board = start.copy()
    state = ENGINES.selected().DecisionState(board)
    agent = RandomAgent(seed, index)
    while not state.is_terminal():
        move = state.apply(agent.choose(state.legal_actions()))
        if move is not None:
            board.push(move)
    played: Board = board
    return played
