"""The native core: ``Board``, ``Move`` and ``LegalMoves`` on Rust bitboards.

Squares are plain ints, ``rank * 10 + file`` (``a1 = 0``), on every board
size. The shared types (:class:`~veletas.base.Color`, :class:`~veletas.base.Phase`,
:class:`~veletas.base.Piece`, :class:`~veletas.base.Claims`,
:class:`~veletas.base.Outcome`, :class:`~veletas.base.Rules`) and the
exceptions of :mod:`veletas.errors` are the very ones the pure-Python
reference uses.
"""

from collections.abc import Iterator
from typing import Any, final

import numpy as np

from veletas.base import Claims, Color, Outcome, Phase, Piece, Rules

__all__ = ["Board", "LegalMoves", "Move", "__version__", "run_playouts"]

__version__: str

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
    ) -> Board: ...
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

    def piece_at(self, square: int) -> Piece | None:
        """The piece on ``square``, or None when it is empty.

        :raises ValueError: if ``square`` is not on this board.
        """

    def pieces(self, piece: Piece) -> list[int]:
        """The squares holding ``piece``, ascending."""

    def reach(self, square: int) -> list[int]:
        """The empty squares reachable from ``square`` along its 8 lines, ascending.

        Lines pass over shooters, claimed or not, and end at a stone or the
        edge; with ``shooters_block`` every piece ends them.

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
