"""The native core: ``Board``, ``Move`` and ``LegalMoves`` on Rust bitboards,
``DecisionState`` (turns as micro-decisions) and ``VectorEnv``; the same
for Meridians, prefixed with the game's name.

Squares are plain ints, ``rank * 10 + file`` (``a1 = 0``), on every board
size. The shared types of :mod:`veletas.games.veletas.types` (``Color``,
``Phase``, ``Piece``, ``Claims``, ``Outcome``, ``Rules``) and the exceptions
of :mod:`veletas.errors` are the very ones the pure-Python reference uses.
"""

from collections.abc import Callable, Iterator
from typing import Any, ClassVar, final

import numpy as np
import numpy.typing as npt

from veletas.games.meridians.encoding import DecisionState as MeridiansDecisionState
from veletas.games.meridians.types import Color as MeridiansColor
from veletas.games.meridians.types import Outcome as MeridiansOutcome
from veletas.games.meridians.types import Phase as MeridiansPhase
from veletas.games.meridians.types import Rules as MeridiansRules
from veletas.games.meridians.types import Stones
from veletas.games.veletas.types import Claims, Color, Outcome, Phase, Piece, Rules

_ProofEntries = list[tuple[str, list[tuple[str, int]]]]
_Solved = tuple[str, str | None, int, float, int | None, _ProofEntries | None]
"""What a native solve returns: value, move, nodes, seconds, proof size, proof."""

__all__ = [
    "Board",
    "DecisionState",
    "LegalMoves",
    "MctsPlayer",
    "MeridiansBoard",
    "MeridiansLegalMoves",
    "MeridiansMctsPlayer",
    "MeridiansMove",
    "MeridiansVectorEnv",
    "Move",
    "SolverTable",
    "StopFlag",
    "VectorEnv",
    "__version__",
    "canonical_fen",
    "current_kernel",
    "greedy_move",
    "meridians_greedy_move",
    "meridians_playouts",
    "meridians_random_move",
    "meridians_solve",
    "random_move",
    "run_playouts",
    "set_kernel",
    "solve",
    "supported_kernels",
]

__version__: str

def current_kernel() -> str:
    """The name of the kernel that runs: ``"portable"`` or ``"x86-64-v3"``."""

def supported_kernels() -> list[str]:
    """The names of the kernels this CPU can run, the portable one first."""

def set_kernel(name: str | None) -> None:
    """Chooses the kernel of every game by name; ``None`` goes back to the
    default of this CPU. Raises ``KernelError`` for a name that is unknown or
    that this CPU cannot run, leaving the choice as it was."""

@final
class Move:
    """A move: a stone onto ``target``, after an optional shooter move.

    ``Move(target)`` is a setup stone or a shot without a shooter move;
    ``Move(target, origin, destination)`` first moves the shooter on ``origin``
    to ``destination``. Shooter placements and the swap have their own
    constructors. Moves are immutable, hashable and ordered: sorting the legal
    moves of a position gives their canonical order.

    >>> from veletas import D4, D7, F9
    >>> Move(F9, D4, D7)
    Move.parse('d4-d7/f9')

    :raises InvalidMoveError: for a square outside 0..99, or only one of
        ``origin`` and ``destination``.
    :raises TypeError: for a square that is not an integer.
    """

    def __new__(
        cls, target: int, origin: int | None = None, destination: int | None = None
    ) -> Move: ...
    @staticmethod
    def shooter(square: int) -> Move:
        """Setup: place a shooter on ``square`` (``*e5``).

        :raises InvalidMoveError: for a square outside 0..99.
        """

    @staticmethod
    def swap() -> Move:
        """The pie rule's ``swap``."""

    @staticmethod
    def parse(text: str) -> Move:
        """Read a move in the notation of RULES.md section 5: ``swap``,
        ``*e5``, ``e5`` or ``d4-d7/f9`` (lowercase, no whitespace).

        :raises TypeError: if ``text`` is not a string.
        :raises InvalidMoveError: if ``text`` is not a move.
        """

    @property
    def target(self) -> int | None:
        """The square that receives the stone or the placed shooter; None for ``swap``."""

    @property
    def origin(self) -> int | None:
        """The square the shooter moves from, or None when no shooter moves."""

    @property
    def destination(self) -> int | None:
        """The square the shooter moves to, or None when no shooter moves."""

    @property
    def is_swap(self) -> bool:
        """Whether this is the pie rule's ``swap``."""

    @property
    def is_shooter(self) -> bool:
        """Whether this places a shooter in setup."""

    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Move, /) -> bool: ...
    def __le__(self, other: Move, /) -> bool: ...
    def __gt__(self, other: Move, /) -> bool: ...
    def __ge__(self, other: Move, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: Any) -> Move: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class LegalMoves:
    """The legal moves of a board: iterable in canonical order, sized, and
    supporting ``in``. It is a live view: it always shows the board's current
    position.

    Canonical order: in setup, placements by ascending square; in the pie,
    ``swap`` and then shooter placements; in play, the shots without a move
    by target, then the moves by (origin, destination, target).
    """

    def __iter__(self) -> Iterator[Move]: ...
    def __len__(self) -> int:
        """The number of legal moves, counted without generating them."""

    def count(self) -> int:
        """The number of legal moves."""

    def __bool__(self) -> bool: ...
    def __contains__(self, move: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[Board, str]]:
        """Pickles as the view of its pickled board."""

@final
class Board:
    """A Veletas position with its rule options and the moves that led to it.

    Without ``fen``, the empty board that starts a game of ``variant``, with
    ``size`` and ``shooters`` overriding the variant's. With ``fen``, the
    position string fixes N and K; ``size``, ``shooters`` and a ``variant``
    other than the default must then agree with it.

    >>> board = Board(variant="small")
    >>> board.push_str("*d4")
    Move.parse('*d4')
    >>> board.fen()
    '7/7/7/3s3/7/7/7 b setup 3'

    :raises InvalidRulesError: for a bad variant, size, shooter count or
        option, or ``size``/``shooters``/``variant`` that disagree with ``fen``.
    :raises InvalidFenError: for a refused position string.
    :raises TypeError: if ``fen`` is not a string.
    """

    def __new__(
        cls,
        fen: str | None = None,
        *,
        variant: str = "standard",
        setup_rule: str = "perimeter",
        shooters_block: bool = False,
        size: int | None = None,
        shooters: int | None = None,
        claimed_shooters_block: bool = False,
    ) -> Board: ...
    def _repr_svg_(self) -> str:
        """The picture of the position for Jupyter, last move marked
        (:func:`veletas.svg.board`)."""

    def fen(self) -> str:
        """The position string of RULES.md section 5."""

    @property
    def rules(self) -> Rules:
        """The rules of this game: size, shooter count and options."""

    @property
    def size(self) -> int:
        """N: the board has N x N squares."""

    @property
    def turn(self) -> Color:
        """The colour that acts next (in setup: the colour that places)."""

    @property
    def phase(self) -> Phase:
        """Setup, pie or play."""

    @property
    def claims(self) -> Claims:
        """The shooters claimed by each colour."""

    def piece_at(self, square: int | str) -> Piece | None:
        """The piece on ``square`` (a number or a name), or None when it is empty.

        :raises ValueError: if ``square`` is not on this board.
        """

    def piece_map(self) -> dict[int, Piece]:
        """The pieces on the board: square number to piece, ascending."""

    def pieces(self, piece: Piece) -> list[int]:
        """The squares holding ``piece``, ascending."""

    def reach(self, square: int | str) -> list[int]:
        """The empty squares reachable from ``square`` (a number or a name)
        along its 8 lines, ascending.

        Lines pass over shooters, claimed or not, and end at a stone or the
        edge; with ``shooters_block`` every piece ends them, with
        ``claimed_shooters_block`` claimed shooters do.

        :raises ValueError: if ``square`` is not on this board.
        """

    @property
    def winner(self) -> Color | None:
        """The colour holding K // 2 + 1 claims, or None."""

    def is_game_over(self) -> bool:
        """Whether a colour has won, or the player to act has no legal move."""

    def outcome(self) -> Outcome | None:
        """The outcome of a finished game, or None while it goes on."""

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, as a live view in canonical order."""

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here.

        :raises TypeError: if ``move`` is not a :class:`Move`.
        """

    def push(self, move: Move) -> None:
        """Play ``move``: the placement, swap, or shooter move, shot and claims.

        :raises TypeError: if ``move`` is not a :class:`Move`.
        :raises IllegalMoveError: if ``move`` is not legal; the board is unchanged.
        """

    def push_str(self, text: str) -> Move:
        """Parse ``text`` in move notation and push it; returns the move.

        :raises InvalidMoveError: if ``text`` is not a move.
        :raises IllegalMoveError: if the move is not legal; the board is unchanged.
        """

    def pop(self) -> Move:
        """Take back the last move and return it.

        :raises IndexError: if no move has been pushed.
        """

    def peek(self) -> Move:
        """The last move pushed.

        :raises IndexError: if no move has been pushed.
        """

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first (a copy)."""

    def copy(self, *, stack: bool = True) -> Board:
        """An independent board in the same position, with the move stack
        unless ``stack`` is False. Cheap: a copy of the position and the stack.
        """

    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any) -> Board: ...
    def __reduce__(self) -> tuple[Any, tuple[str, str, bool, list[str], bool]]:
        """Pickles as the position before the first pushed move, the rule
        options and the pushed moves, which unpickling plays again."""

    def __eq__(self, other: object, /) -> bool:
        """Same position string and rule options; the move stack is ignored."""

    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def perft(self, depth: int) -> int:
        """The number of move sequences of length exactly ``depth`` (RULES.md
        section 6). Runs without holding the GIL.

        :raises ValueError: if ``depth`` is negative.
        """

    def perft_divide(self, depth: int) -> dict[Move, int]:
        """``perft(depth - 1)`` after each legal move, in canonical order.
        Runs without holding the GIL.

        :raises ValueError: if ``depth`` is less than 1.
        """

@final
class DecisionState:
    """A decision of a game: the position at the start of the turn, the part
    of the turn chosen so far, and whether the pie swap was played.

    Actions are the ids of :mod:`veletas.games.veletas.encoding`. Copies are cheap (a
    small value copied in Rust).

    >>> state = DecisionState(Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3"))
    >>> state.legal_actions()
    [9, 12, 22, 49]
    >>> state.apply(9), state.stage, state.origin
    (None, 'destination', 12)

    :param board: the position (a copy is taken); the turn starts there.
    :param swapped: whether the pie swap was played; by default, whether
        the board's move stack holds a swap.
    :raises TypeError: if ``board`` is not a :class:`Board`.
    """

    def __new__(cls, board: Board, *, swapped: bool | None = None) -> DecisionState: ...
    @property
    def board(self) -> Board:
        """A copy of the position at the start of the turn (with no move stack)."""

    @property
    def size(self) -> int:
        """N: the board has N x N squares."""

    @property
    def num_actions(self) -> int:
        """The number of action ids, N * N + 2."""

    @property
    def pass_action(self) -> int:
        """The id of "no shooter move", N * N."""

    @property
    def swap_action(self) -> int:
        """The id of the pie swap, N * N + 1."""

    @property
    def stage(self) -> str:
        """How far the turn has got: ``"start"``, ``"destination"`` or ``"target"``."""

    @property
    def origin(self) -> int | None:
        """The square of the shooter chosen this turn, or None."""

    @property
    def destination(self) -> int | None:
        """The destination chosen this turn, or None."""

    def legal_actions(self) -> list[int]:
        """The legal action ids of this decision, ascending."""

    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action id, 0 for the others (int8, N * N + 2 entries)."""

    def apply(self, action: int) -> Move | None:
        """Takes ``action``; returns the completed move when it ends the turn,
        otherwise None.

        :raises IllegalMoveError: if ``action`` is not legal; nothing changes.
        :raises TypeError: if ``action`` is not an integer.
        """

    def is_terminal(self) -> bool:
        """Whether the game is over: a colour has won, or (only in hand-made
        positions) there is no legal action."""

    @property
    def winner(self) -> Color | None:
        """The colour holding K // 2 + 1 claims, or None."""

    @property
    def turn(self) -> Color:
        """The colour to act."""

    @property
    def seat_to_act(self) -> int:
        """The seat to act: 0 for the first player, 1 for the second."""

    @property
    def swapped(self) -> bool:
        """Whether the pie swap was played (the first player is then White)."""

    def actions_of(self, move: Move) -> list[int]:
        """The actions that play ``move`` from the start of the turn.

        :raises IllegalMoveError: if ``move`` is not legal at the start of the turn.
        :raises TypeError: if ``move`` is not a :class:`Move`.
        """

    def observation(self) -> npt.NDArray[np.float32]:
        """The observation planes, float32 of shape (12, N, N), seen from the
        player to act (table in ``docs/rl.md``)."""

    def copy(self) -> DecisionState:
        """An independent copy."""

    def __copy__(self) -> DecisionState: ...
    def __deepcopy__(self, memo: Any) -> DecisionState: ...
    def __eq__(self, other: object, /) -> bool:
        """Same position, rule options, partial turn and swap flag."""

    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]: ...

@final
class VectorEnv:
    """``num_envs`` games of Veletas stepped together, writing into numpy
    buffers with the GIL released.

    ``reset`` and ``step`` return read-only views of the env's own buffers,
    overwritten by the next call: copy what you keep. Rewards are per seat (+1 and -1 on the
    step that ends an episode). With ``auto_reset``, an env whose episode
    ends restarts in the same step: ``terminated`` is set and its
    observation, mask and player are the new episode's first. The games
    have no randomness; ``seed`` feeds :meth:`random_actions` only.

    >>> env = VectorEnv(2, variant="small")
    >>> obs, mask, player = env.reset()
    >>> obs.shape, mask.shape, player.tolist()
    ((2, 12, 7, 7), (2, 51), [0, 0])

    :raises ValueError: for ``num_envs`` below 1 or a seed outside 0 .. 2**64 - 1.
    :raises InvalidRulesError: for bad rules.
    """

    def __new__(
        cls,
        num_envs: int,
        *,
        variant: str = "standard",
        seed: int = 0,
        auto_reset: bool = True,
        setup_rule: str = "perimeter",
        shooters_block: bool = False,
        size: int | None = None,
        shooters: int | None = None,
        opponent: str | None = None,
        learner_seat: int | str = 0,
        start: Any = None,
        claimed_shooters_block: bool = False,
    ) -> VectorEnv: ...
    def reset(
        self,
        *,
        seed: int | None = None,
        mask: npt.ArrayLike | None = None,
        start: Any = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """Puts every env (or those where the bool array ``mask`` is true) at
        the start of an episode: episode 0 without a mask or with a ``seed``
        (the new seed), else each env's next episode. ``start`` (a position
        string or board, or one per env) replaces the start of the reset
        envs' episodes. Returns ``(obs, mask, current_player)``.

        :raises InvalidFenError: for a start that cannot be read or where the
            game is over; nothing changes.
        :raises InvalidRulesError: for a start of other rules.
        """

    def step(
        self, actions: npt.ArrayLike, *, active: npt.ArrayLike | None = None
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int8],
    ]:
        """Takes ``actions[k]`` in env ``k``, for every env (or those where the
        bool array ``active`` is true; the others' actions are not looked
        at), and with an opponent its decisions up to the learner's next;
        returns ``(obs, mask, rewards, terminated, current_player)``. The
        final observations of the episodes that ended are in
        :attr:`final_observations`.

        :raises IllegalMoveError: naming the env and the action, if an action
            is not legal; no env changes.
        :raises ValueError: unless there is one action per env.
        :raises TypeError: if the actions are not integers.
        """

    def random_actions(self) -> npt.NDArray[np.int64]:
        """Each env's random action for its current decision, uniformly
        random over its mask and drawn as the "micro" playout policy draws:
        episode ``e`` of env ``k`` plays game ``e * num_envs + k`` of a
        playout run with this seed. -1 for a finished env. The draw is made
        when the decision is reached, so calls between two steps agree."""

    def state(self, index: int) -> DecisionState:
        """A copy of env ``index``'s current decision state.

        :raises IndexError: for an index outside ``0 .. num_envs - 1``.
        """

    def episode(self, index: int) -> int:
        """The episode env ``index`` is in, counted from 0 at the last reset."""

    def seat(self, index: int) -> int:
        """The learner's seat in env ``index``'s current episode (with an
        opponent; 0 in self-play)."""

    @property
    def final_observations(self) -> npt.NDArray[np.float32]:
        """The observations of the final states of the episodes that ended
        in the last step, in the rows of the envs that ended (a read-only
        view; the other rows hold older data)."""

    @property
    def opponent(self) -> str | None:
        """The opponent's spec, or None in self-play."""

    @property
    def learner_seat(self) -> int | str:
        """The learner's seat against the opponent: 0, 1 or ``"alternate"``."""

    def __reduce__(self) -> tuple[Any, ...]: ...
    @staticmethod
    def _restore(num_envs: int, kwargs: dict[str, Any], saved: Any) -> Any: ...
    @property
    def num_envs(self) -> int:
        """The number of envs."""

    def __len__(self) -> int: ...
    @property
    def num_actions(self) -> int:
        """The number of action ids, N * N + 2."""

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of one observation, (12, N, N)."""

    @property
    def seed(self) -> int:
        """The seed of the random streams of :meth:`random_actions`."""

    @property
    def auto_reset(self) -> bool:
        """Whether a finished env restarts in the step that ends it."""

    @property
    def rules(self) -> Rules:
        """The rules of every env's game."""

@final
class MctsPlayer:
    """The Monte Carlo tree search behind :class:`veletas.MctsBot`; it keeps
    its trees between calls.

    :raises ValueError: for an ``algorithm`` other than ``"mcts"`` (the
        solver) and ``"uct"`` (plain UCT), ``threads`` or ``max_nodes`` of 0,
        a negative or non-finite ``exploration``, or a ``solve_share``
        outside 0 .. 1; a ``cutoff`` above ``MAX_CUTOFF``.
    """

    DEFAULT_EXPLORATION: ClassVar[float]
    """The UCT constant when none is given: the game's, for the default
    search (``"mcts"`` with its cutoff)."""
    UCT_EXPLORATION: ClassVar[float]
    """The UCT constant when none is given to a search whose playouts run to
    the end (``"uct"``, or ``"mcts"`` with a cutoff of 0): the game's."""
    DEFAULT_CUTOFF: ClassVar[int]
    """The random decisions of a cut playout when no ``cutoff`` is given:
    the game's."""

    def __new__(
        cls,
        *,
        algorithm: str = "mcts",
        threads: int = 1,
        seed: int = 0,
        exploration: float | None = None,
        max_nodes: int = 8000000,
        solve_share: float = 0.1,
        cutoff: int = 32,
    ) -> MctsPlayer: ...
    def choose(
        self,
        fen: str,
        setup_rule: str,
        shooters_block: bool,
        claimed_shooters_block: bool,
        swapped: bool,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        stop: StopFlag | None = None,
    ) -> tuple[str, int, float, bool, int] | None:
        """Searches the turn of ``fen``: ``(move, iterations, value, reused,
        nodes)``, or None at the end of the game. Runs without the GIL, and
        ends early once ``stop`` is raised.

        :raises ValueError: without a positive budget.
        :raises InvalidFenError: for a refused position string.
        """

    def analyse(
        self,
        fen: str,
        setup_rule: str,
        shooters_block: bool,
        claimed_shooters_block: bool,
        swapped: bool,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        stop: StopFlag | None = None,
        top: int = 5,
    ) -> tuple[list[tuple[str, int, float, bool | None]], int, int, list[str]] | None:
        """Searches the turn of ``fen`` without playing: ``(moves, visits,
        iterations, line)``, the move ``choose`` would play then the most
        visited other whole moves, ``top`` in all, as ``(move,
        visits, value, proven)`` (proven: True a proven win for the player to
        act, False a proven loss), the visits of the position, the iterations
        run and the principal variation; None at the end of the game. The
        trees stay at ``fen``.

        :raises ValueError: without a positive budget.
        :raises InvalidFenError: for a refused position string.
        """

    def clear(self) -> None:
        """Forgets the trees."""

@final
class StopFlag:
    """A flag that ends a search early when it is raised, from any thread.
    Like ``threading.Event``, it starts lowered."""

    def __new__(cls) -> StopFlag: ...
    def set(self) -> None:
        """Raises the flag: a search that reads it stops soon after."""

    def clear(self) -> None:
        """Lowers the flag again."""

    def is_set(self) -> bool:
        """Whether the flag is raised."""

@final
class SolverTable:
    """The exact solver's table kept from one solve to the next, of the
    game and rules of the positions given."""

    def __new__(cls) -> SolverTable: ...

def random_move(
    fen: str,
    setup_rule: str,
    shooters_block: bool,
    claimed_shooters_block: bool,
    seed: int,
    index: int,
) -> str | None:
    """A uniformly random legal move of ``fen`` from stream ``(seed, index)``."""

def solve(
    fen: str,
    setup_rule: str,
    shooters_block: bool,
    claimed_shooters_block: bool,
    swapped: bool,
    *,
    memory: int,
    max_proof: int,
    seconds: float | None = None,
    max_nodes: int | None = None,
    proof: bool = False,
    stop: StopFlag | None = None,
    progress: Callable[[int, float, int], object] | None = None,
    threads: int = 1,
    symmetries: bool = True,
    table: SolverTable | None = None,
) -> _Solved:
    """Solves ``fen`` exactly without the GIL: ``(value, move, nodes,
    seconds, proof_size, proof)`` (see ``veletas.solve``)."""

def greedy_move(
    fen: str,
    setup_rule: str,
    shooters_block: bool,
    claimed_shooters_block: bool,
    seed: int,
    index: int,
) -> str | None:
    """The one-ply greedy move of ``fen``, ties broken from stream ``(seed, index)``."""

def canonical_fen(fen: str) -> str:
    """The least of the images of ``fen`` under the board's eight
    symmetries (``veletas.games.veletas.symmetry.canonical_fen``)."""

def run_playouts(
    fen: str,
    *,
    setup_rule: str,
    shooters_block: bool,
    swapped: bool,
    policy: str,
    seed: int,
    first_game: int,
    n_games: int,
    threads: int | None,
    record: bool,
    claimed_shooters_block: bool = False,
) -> dict[str, np.ndarray]:
    """Play games ``first_game .. first_game + n_games - 1`` of the run ``seed``
    from ``fen`` with ``policy``, on ``threads`` threads (None: every core),
    without holding the GIL. The low-level runner of
    :class:`veletas.playouts.PlayoutJob`.

    Returns numpy arrays: ``winner`` (int8), ``swapped`` (bool), ``plies``
    (int32), ``claims`` (int8, (n, 2)), and with ``record``, ``moves`` (int8,
    (m, 4): kind, origin, destination, target) and ``offsets`` (int64, n + 1).

    :raises InvalidFenError: for a refused position string.
    :raises ValueError: for an unknown policy, ``threads`` 0, or a range past
        game 2**64 - 1.
    """

# ----------------------------------------------------------------------
# Meridians: `veletas.meridians.Board`, `Move` and `LegalMoves` (exposed here
# with the game's name as prefix), its playouts and its bots.

@final
class MeridiansMove:
    """A move of Meridians: a placement on a point, ``swap`` or ``keep``."""

    def __new__(cls) -> MeridiansMove: ...
    @staticmethod
    def parse(text: str) -> MeridiansMove: ...
    @staticmethod
    def place(point: int) -> MeridiansMove: ...
    @staticmethod
    def swap() -> MeridiansMove: ...
    @staticmethod
    def keep() -> MeridiansMove: ...
    @property
    def point(self) -> int | None: ...
    @property
    def is_swap(self) -> bool: ...
    @property
    def is_keep(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> MeridiansMove: ...
    def __deepcopy__(self, memo: object) -> MeridiansMove: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class MeridiansLegalMoves:
    """The legal moves of a Meridians board, read when asked."""

    def __len__(self) -> int: ...
    def count(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __iter__(self) -> Iterator[MeridiansMove]: ...

@final
class MeridiansBoard:
    """A position of Meridians with its rules and move stack."""

    def __new__(
        cls, fen: str | None = None, *, size: str | None = None, pie: bool = False
    ) -> MeridiansBoard: ...
    def fen(self) -> str: ...
    def _repr_svg_(self) -> str: ...
    @property
    def rules(self) -> MeridiansRules: ...
    @property
    def size(self) -> str: ...
    @property
    def pie(self) -> bool: ...
    @property
    def turn(self) -> MeridiansColor: ...
    @property
    def phase(self) -> MeridiansPhase: ...
    @property
    def stones(self) -> Stones: ...
    @property
    def last_removed(self) -> tuple[str, ...]: ...
    @property
    def winner(self) -> MeridiansColor | None: ...
    def is_game_over(self) -> bool: ...
    def outcome(self) -> MeridiansOutcome | None: ...
    def piece_at(self, point: int | str) -> MeridiansColor | None: ...
    def piece_map(self) -> dict[int, MeridiansColor]: ...
    @property
    def legal_moves(self) -> MeridiansLegalMoves: ...
    def is_legal(self, move: MeridiansMove) -> bool: ...
    def push(self, move: MeridiansMove) -> None: ...
    def push_str(self, text: str) -> MeridiansMove: ...
    def pop(self) -> MeridiansMove: ...
    def peek(self) -> MeridiansMove: ...
    @property
    def move_stack(self) -> list[MeridiansMove]: ...
    def copy(self, *, stack: bool = True) -> MeridiansBoard: ...
    def __copy__(self) -> MeridiansBoard: ...
    def __deepcopy__(self, memo: object) -> MeridiansBoard: ...
    def perft(self, depth: int) -> int: ...
    def perft_divide(self, depth: int) -> dict[str, int]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[str, bool, list[str]]]: ...
    @staticmethod
    def _from_state(fen: str, pie: bool, moves: list[str]) -> MeridiansBoard: ...

@final
class MeridiansMctsPlayer:
    """The Monte Carlo tree search player of Meridians."""

    DEFAULT_EXPLORATION: ClassVar[float]
    """The UCT constant when none is given: the game's, for the default
    search (``"mcts"`` with its cutoff)."""
    UCT_EXPLORATION: ClassVar[float]
    """The UCT constant when none is given to a search whose playouts run to
    the end (``"uct"``, or ``"mcts"`` with a cutoff of 0): the game's."""
    DEFAULT_CUTOFF: ClassVar[int]
    """The random decisions of a cut playout when no ``cutoff`` is given:
    the game's."""

    def __new__(
        cls,
        *,
        algorithm: str = "mcts",
        threads: int = 1,
        seed: int = 0,
        exploration: float | None = None,
        max_nodes: int = 8000000,
        solve_share: float = 0.1,
        cutoff: int = 8,
    ) -> MeridiansMctsPlayer: ...
    def choose(
        self,
        fen: str,
        pie: bool,
        swapped: bool,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        stop: StopFlag | None = None,
    ) -> tuple[str, int, float, bool, int] | None: ...
    def analyse(
        self,
        fen: str,
        pie: bool,
        swapped: bool,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        stop: StopFlag | None = None,
        top: int = 5,
    ) -> tuple[list[tuple[str, int, float, bool | None]], int, int, list[str]] | None: ...
    def clear(self) -> None: ...

@final
class MeridiansVectorEnv:
    """``num_envs`` games of Meridians stepped together, writing into numpy
    buffers with the GIL released: what ``veletas.VectorEnv(num_envs,
    game="meridians", ...)`` builds.

    As :class:`VectorEnv`: read-only views of the env's own buffers,
    rewards per seat, auto-reset, and ``seed`` feeding :meth:`random_actions`
    only. Observations are the planes of
    :mod:`veletas.games.meridians.encoding` (``docs/rl.md``).

    >>> env = MeridiansVectorEnv(2, size="5-6")
    >>> obs, mask, player = env.reset()
    >>> obs.shape, mask.shape, player.tolist()
    ((2, 8, 10, 10), (2, 102), [0, 0])

    :raises ValueError: for ``num_envs`` below 1 or a seed outside 0 .. 2**64 - 1.
    :raises InvalidRulesError: for an unknown size or a ``pie`` that is not a bool.
    """

    def __new__(
        cls,
        num_envs: int,
        *,
        size: str = "6-7",
        pie: bool = False,
        seed: int = 0,
        auto_reset: bool = True,
        opponent: str | None = None,
        learner_seat: int | str = 0,
        start: Any = None,
    ) -> MeridiansVectorEnv: ...
    def reset(
        self,
        *,
        seed: int | None = None,
        mask: npt.ArrayLike | None = None,
        start: Any = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """Puts every env (or those where the bool array ``mask`` is true) at
        the start of an episode: episode 0 without a mask or with a ``seed``
        (the new seed), else each env's next episode. ``start`` (a position
        string or board, or one per env) replaces the start of the reset
        envs' episodes. Returns ``(obs, mask, current_player)``.

        :raises InvalidFenError: for a start that cannot be read or where the
            game is over; nothing changes.
        :raises InvalidRulesError: for a start of other rules.
        """

    def step(
        self, actions: npt.ArrayLike, *, active: npt.ArrayLike | None = None
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int8],
    ]:
        """Takes ``actions[k]`` in env ``k``, for every env (or those where the
        bool array ``active`` is true; the others' actions are not looked
        at), and with an opponent its decisions up to the learner's next;
        returns ``(obs, mask, rewards, terminated, current_player)``. The
        final observations of the episodes that ended are in
        :attr:`final_observations`.

        :raises IllegalMoveError: naming the env and the action, if an action
            is not legal; no env changes.
        :raises ValueError: unless there is one action per env.
        :raises TypeError: if the actions are not integers.
        """

    def random_actions(self) -> npt.NDArray[np.int64]:
        """Each env's random action for its current decision, drawn as the
        playouts draw: episode ``e`` of env ``k`` plays game ``e * num_envs +
        k`` of ``veletas.meridians.playouts`` with this seed. -1 for a
        finished env."""

    def state(self, index: int) -> MeridiansDecisionState:
        """Env ``index``'s current decision, on a native board.

        :raises IndexError: for an index outside ``0 .. num_envs - 1``.
        """

    def episode(self, index: int) -> int:
        """The episode env ``index`` is in, counted from 0 at the last reset."""

    def seat(self, index: int) -> int:
        """The learner's seat in env ``index``'s current episode (with an
        opponent; 0 in self-play)."""

    @property
    def final_observations(self) -> npt.NDArray[np.float32]:
        """The observations of the final states of the episodes that ended
        in the last step, in the rows of the envs that ended (a read-only
        view; the other rows hold older data)."""

    @property
    def opponent(self) -> str | None:
        """The opponent's spec, or None in self-play."""

    @property
    def learner_seat(self) -> int | str:
        """The learner's seat against the opponent: 0, 1 or ``"alternate"``."""

    def __reduce__(self) -> tuple[Any, ...]: ...
    @staticmethod
    def _restore(num_envs: int, kwargs: dict[str, Any], saved: Any) -> Any: ...
    @property
    def num_envs(self) -> int:
        """The number of envs."""

    def __len__(self) -> int: ...
    @property
    def num_actions(self) -> int:
        """The number of action ids, N * N + 2."""

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of one observation, (8, N, N)."""

    @property
    def seed(self) -> int:
        """The seed of the random streams of :meth:`random_actions`."""

    @property
    def auto_reset(self) -> bool:
        """Whether a finished env restarts in the step that ends it."""

    @property
    def rules(self) -> MeridiansRules:
        """The rules of every env's game."""

def meridians_random_move(fen: str, pie: bool, seed: int, index: int) -> str | None: ...
def meridians_greedy_move(fen: str, pie: bool, seed: int, index: int) -> str | None: ...
def meridians_solve(
    fen: str,
    pie: bool,
    swapped: bool,
    *,
    memory: int,
    max_proof: int,
    seconds: float | None = None,
    max_nodes: int | None = None,
    proof: bool = False,
    stop: StopFlag | None = None,
    progress: Callable[[int, float, int], object] | None = None,
    threads: int = 1,
    symmetries: bool = True,
    table: SolverTable | None = None,
) -> _Solved: ...
def meridians_playouts(
    fen: str,
    *,
    pie: bool,
    swapped: bool,
    seed: int,
    first_game: int,
    n_games: int,
    threads: int | None,
    record: bool,
) -> dict[str, npt.NDArray[Any]]: ...
