"""The board: a position of one game with its rules, legal moves, push and pop.

>>> from veletas.reference import Board
>>> board = Board(variant="small")
>>> board.push_str("*d4")
Move.parse('*d4')
>>> board.fen()
'7/7/7/3s3/7/7/7 b setup 3'
>>> len(board.legal_moves)  # Black's stone: any empty square
48
"""

from __future__ import annotations

import operator
from collections.abc import Iterator

from veletas import games as registry
from veletas._checks import shown
from veletas.errors import IllegalMoveError, InvalidMoveError
from veletas.games.veletas.reference.claims import STONE_LETTERS, claimant
from veletas.games.veletas.reference.fen import EMPTY, Position, format_fen, parse_fen
from veletas.games.veletas.reference.geometry import geometry
from veletas.games.veletas.reference.move import Move, shooter_placement, stone
from veletas.games.veletas.types import (
    Claims,
    Color,
    Outcome,
    Phase,
    Piece,
    Rules,
    check_board_options,
    check_fen_agreement,
    parse_square,
    square_name,
)

__all__ = ["Board", "LegalMoves"]

SHOOTER = "s"
CLAIMED_LETTERS = ("X", "O")
"""The claim marker of each colour, indexed by :class:`Color`."""

# What ends a line (RULES.md sections 2 and 4): stones only, with
# `shooters_block` every piece, with `claimed_shooters_block` alone stones and
# claimed shooters. Cells are single letters, so `letter in stops` is a cheap
# test.
_STOPS_PASS = "xo"
_STOPS_BLOCK = "xosXO"
_STOPS_CLAIMED = "xoXO"


def _stops(rules: Rules) -> str:
    """The letters that end a line under ``rules``."""
    if rules.shooters_block:
        return _STOPS_BLOCK
    return _STOPS_CLAIMED if rules.claimed_shooters_block else _STOPS_PASS


# An undo record: the move, then the turn and phase before it, then the
# shooters it claimed. Everything else follows from the move itself.
_Undo = tuple[Move, Color, Phase, tuple[int, ...]]


class Board:
    """A Veletas position with its rule options and the moves that led to it.

    Without ``fen``, the empty board that starts a game of ``variant``, with
    ``size`` and ``shooters`` overriding the variant's. With ``fen``, the
    position string fixes N and K; ``size``, ``shooters`` and a ``variant``
    other than the default must then agree with it.

    >>> board = Board("7/7/7/3s3/7/7/7 b setup 3")
    >>> print(board)
     7 . . . . . . .
     6 . . . . . . .
     5 . . . . . . .
     4 . . . s . . .
     3 . . . . . . .
     2 . . . . . . .
     1 . . . . . . .
       a b c d e f g
    >>> Board(size=4)
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidRulesError: board size 4 is out of range: 5 <= N <= 10

    :raises InvalidRulesError: for a bad variant, size, shooter count or
        option, or ``size``/``shooters``/``variant`` that disagree with ``fen``.
    :raises InvalidFenError: for a refused position string.
    """

    def __init__(
        self,
        fen: str | None = None,
        *,
        variant: str = "standard",
        setup_rule: str = "perimeter",
        shooters_block: bool = False,
        size: int | None = None,
        shooters: int | None = None,
        claimed_shooters_block: bool = False,
    ) -> None:
        if fen is None:
            rules = Rules.make(
                variant,
                size=size,
                shooters=shooters,
                setup_rule=setup_rule,
                shooters_block=shooters_block,
                claimed_shooters_block=claimed_shooters_block,
            )
            position = Position(rules.size, rules.shooters, [EMPTY] * 100, Color.BLACK, Phase.SETUP)
        else:
            check_board_options(
                variant, setup_rule, shooters_block, size, shooters, claimed_shooters_block
            )
            position = parse_fen(fen, setup_rule)
            check_fen_agreement(fen, position.size, position.shooters, variant, size, shooters)
            rules = Rules(
                position.size, position.shooters, setup_rule, shooters_block, claimed_shooters_block
            )
        self._load(rules, position)

    def _load(self, rules: Rules, position: Position) -> None:
        self._rules = rules
        self._geometry = geometry(rules.size)
        self._rays = self._geometry.rays
        self._stops = _stops(rules)
        self._cells = list(position.cells)
        self._turn = position.turn
        self._phase = position.phase
        cells = self._cells
        self._unclaimed = {sq for sq in range(100) if cells[sq] == SHOOTER}
        self._claims = [cells.count(letter) for letter in CLAIMED_LETTERS]
        self._placed = len(self._unclaimed) + sum(self._claims)
        self._stones = [cells.count(letter) for letter in STONE_LETTERS]
        self._stack: list[_Undo] = []

    # ------------------------------------------------------------------
    # Reading the position

    def fen(self) -> str:
        """The position string of RULES.md section 5.

        >>> Board(variant="medium").fen()
        '9/9/9/9/9/9/9/9/9 b setup 5'
        """
        return format_fen(self._cells, self.size, self._turn, self._phase, self._rules.shooters)

    def __str__(self) -> str:
        size = self.size
        lines = []
        for rank in reversed(range(size)):
            row = " ".join(self._cells[rank * 10 + file] for file in range(size))
            lines.append(f"{rank + 1:>2} {row}")
        lines.append("   " + " ".join("abcdefghij"[:size]))
        return "\n".join(lines)

    def __repr__(self) -> str:
        options = ""
        if self._rules.setup_rule != "perimeter":
            options += f", setup_rule={self._rules.setup_rule!r}"
        if self._rules.shooters_block:
            options += ", shooters_block=True"
        if self._rules.claimed_shooters_block:
            options += ", claimed_shooters_block=True"
        return f"Board({self.fen()!r}{options})"

    def _repr_svg_(self) -> str:
        """The picture of the position for Jupyter, last move marked
        (:func:`veletas.svg.board`)."""
        last = self._stack[-1][0] if self._stack else None
        return registry.game_of(self).draw(self, lastmove=last)

    @property
    def rules(self) -> Rules:
        """The rules of this game: size, shooter count and options."""
        return self._rules

    @property
    def size(self) -> int:
        """N: the board has N x N squares."""
        return self._rules.size

    @property
    def turn(self) -> Color:
        """The colour that acts next (in setup: the colour that places)."""
        return self._turn

    @property
    def phase(self) -> Phase:
        """Setup, pie or play."""
        return self._phase

    @property
    def claims(self) -> Claims:
        """The shooters claimed by each colour."""
        return Claims(*self._claims)

    def piece_at(self, square: int | str) -> Piece | None:
        """The piece on ``square`` (a number or a name), or None when it is empty.

        >>> from veletas import D4, E4
        >>> board = Board("7/7/7/3s3/7/7/7 b setup 3")
        >>> board.piece_at(D4), board.piece_at("e4")
        (<Piece.SHOOTER: 's'>, None)

        :raises ValueError: if ``square`` is not on this board
            (:class:`~veletas.errors.InvalidMoveError` for a name).
        """
        cell = self._cells[self._board_square(square)]
        return None if cell == EMPTY else Piece(cell)

    def piece_map(self) -> dict[int, Piece]:
        """The pieces on the board: square number to piece, ascending.

        >>> from veletas import square_name
        >>> pieces = Board("2s2/5/1s3/5/x1s1o w play 3").piece_map()
        >>> {square_name(sq): piece.value for sq, piece in pieces.items()}
        {'a1': 'x', 'c1': 's', 'e1': 'o', 'b3': 's', 'c5': 's'}
        """
        cells = self._cells
        return {sq: Piece(cells[sq]) for sq in self._geometry.squares if cells[sq] != EMPTY}

    def pieces(self, piece: Piece) -> list[int]:
        """The squares holding ``piece``, ascending.

        >>> from veletas import Piece
        >>> Board("s3s/5/1xsoo/5/5 w play 3").pieces(Piece.WHITE_STONE)
        [23, 24]
        """
        letter = Piece(piece).value
        return [sq for sq in self._geometry.squares if self._cells[sq] == letter]

    def reach(self, square: int | str) -> list[int]:
        """The empty squares reachable from ``square`` (a number or a name)
        along its 8 lines, ascending.

        Lines pass over shooters, claimed or not, and end at a stone or the
        edge; with ``shooters_block`` every piece ends them, with
        ``claimed_shooters_block`` claimed shooters do.

        >>> from veletas import C3, square_name
        >>> board = Board("s4/2s2/1xsoo/5/5 w play 3")  # c3 passes over c4 to c5
        >>> [square_name(sq) for sq in board.reach(C3)]
        ['a1', 'c1', 'e1', 'b2', 'c2', 'd2', 'b4', 'd4', 'c5', 'e5']

        :raises ValueError: if ``square`` is not on this board.
        """
        return self._reach(self._board_square(square))

    def _board_square(self, square: int | str) -> int:
        if isinstance(square, str):
            sq = parse_square(square)
            if not self._geometry.contains(sq):
                raise InvalidMoveError(
                    f"square {shown(square)} is not on this {self.size}x{self.size} board"
                )
            return sq
        sq = operator.index(square)
        if not self._geometry.contains(sq):
            name = f" ({square_name(sq)})" if 0 <= sq < 100 else ""
            raise ValueError(
                f"square {shown(sq)}{name} is not on this {self.size}x{self.size} board"
            )
        return sq

    def _reach(self, sq: int) -> list[int]:
        cells, stops = self._cells, self._stops
        found = []
        for ray in self._rays[sq]:
            for target in ray:
                cell = cells[target]
                if cell == EMPTY:
                    found.append(target)
                elif cell in stops:
                    break
        found.sort()
        return found

    def _reach_count(self, sq: int) -> int:
        """``len(self._reach(sq))`` without building the list (perft's last ply)."""
        cells, stops = self._cells, self._stops
        count = 0
        for ray in self._rays[sq]:
            for target in ray:
                cell = cells[target]
                if cell == EMPTY:
                    count += 1
                elif cell in stops:
                    break
        return count

    def _is_trapped(self, sq: int) -> bool:
        """Whether the reach of ``sq`` is empty (RULES.md section 2)."""
        cells, stops = self._cells, self._stops
        for ray in self._rays[sq]:
            for target in ray:
                cell = cells[target]
                if cell == EMPTY:
                    return False
                if cell in stops:
                    break
        return True

    # ------------------------------------------------------------------
    # The end of the game

    @property
    def winner(self) -> Color | None:
        """The colour holding K // 2 + 1 claims, or None.

        >>> Board("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3").winner
        <Color.BLACK: 0>
        """
        needed = self._rules.claims_to_win
        for color in Color:
            if self._claims[color] >= needed:
                return color
        return None

    def is_game_over(self) -> bool:
        """Whether a colour has won, or the player to act has no legal move."""
        return self.winner is not None or not self._has_legal_move()

    def outcome(self) -> Outcome | None:
        """The outcome of a finished game, or None while it goes on.

        >>> Board("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3").outcome()
        Outcome(winner=<Color.BLACK: 0>, claims=Claims(black=2, white=0))
        """
        if not self.is_game_over():
            return None
        return Outcome(self.winner, self.claims)

    # ------------------------------------------------------------------
    # Legal moves

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, as a live view in canonical order.

        >>> board = Board(variant="small")
        >>> len(board.legal_moves), list(board.legal_moves)[:3]
        (25, [Move.parse('*b2'), Move.parse('*c2'), Move.parse('*d2')])
        >>> Move.parse("*a1") in board.legal_moves  # the outer ring is closed to shooters
        False
        """
        return LegalMoves(self)

    def _places_shooter(self) -> bool:
        """Whether the next setup placement (or White's pie move) is a shooter."""
        if self._phase is Phase.PIE:
            return True
        quota = self._rules.first_shooters if self._turn is Color.BLACK else self._rules.shooters
        return self._placed < quota

    def _shooter_squares(self) -> list[int]:
        """The squares open to a shooter placement under the setup rule."""
        cells = self._cells
        if self._rules.setup_rule == "perimeter":
            ring = self._geometry.ring
            return [sq for sq in self._geometry.squares if cells[sq] == EMPTY and sq not in ring]
        around = self._geometry.around
        return [
            sq
            for sq in self._geometry.squares
            if cells[sq] == EMPTY and not any(cells[n] in "sXO" for n in around[sq])
        ]

    def _empty_squares(self) -> list[int]:
        return [sq for sq in self._geometry.squares if self._cells[sq] == EMPTY]

    def _generate(self) -> list[Move]:
        """All legal moves in canonical order (API: swap, placements, shots, moves)."""
        if self._phase is Phase.PLAY:
            return self._play_moves()
        moves = [Move.swap()] if self._phase is Phase.PIE else []
        if self._places_shooter():
            moves.extend(shooter_placement(sq) for sq in self._shooter_squares())
        else:
            moves.extend(stone(sq) for sq in self._empty_squares())
        return moves

    def _play_moves(self) -> list[Move]:
        if self.winner is not None:
            return []
        cells = self._cells
        reaches = [(origin, self._reach(origin)) for origin in sorted(self._unclaimed)]
        # A shot without a move is one move whichever shooter makes it.
        shots = sorted(set().union(*(reach for _, reach in reaches)))
        moves = [stone(target) for target in shots]
        for origin, reach in reaches:
            # The moved shooter shoots from its destination with its old square
            # empty, so lift it for the whole batch of its destinations.
            cells[origin] = EMPTY
            for destination in reach:
                cells[destination] = SHOOTER
                moves.extend(
                    stone(target, origin, destination) for target in self._reach(destination)
                )
                cells[destination] = EMPTY
            cells[origin] = SHOOTER
        return moves

    def _count(self) -> int:
        """``len(self._generate())`` without building Move objects."""
        if self._phase is Phase.PLAY:
            return self._count_play()
        swap = 1 if self._phase is Phase.PIE else 0
        if self._places_shooter():
            return swap + len(self._shooter_squares())
        return swap + self.size * self.size - self._placed - sum(self._stones)

    def _count_play(self) -> int:
        if self.winner is not None:
            return 0
        cells = self._cells
        shots: set[int] = set()
        count = 0
        for origin in self._unclaimed:
            reach = self._reach(origin)
            shots.update(reach)
            cells[origin] = EMPTY
            for destination in reach:
                cells[destination] = SHOOTER
                count += self._reach_count(destination)
                cells[destination] = EMPTY
            cells[origin] = SHOOTER
        return count + len(shots)

    def _has_legal_move(self) -> bool:
        if self._phase is not Phase.PLAY:
            return self._count() > 0
        if self.winner is not None:
            return False
        # Any untrapped unclaimed shooter has a shot without a move; if all are
        # trapped, no shooter can move either.
        return not all(self._is_trapped(sq) for sq in self._unclaimed)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here.

        >>> board = Board(variant="small")
        >>> board.is_legal(Move.parse("*d4")), board.is_legal(Move.parse("d4"))
        (True, False)

        :raises TypeError: if ``move`` is not a :class:`Move`.
        """
        if not isinstance(move, Move):
            raise TypeError(f"expected a Move, not {type(move).__name__}")
        return self._illegality(move) is None

    def _illegality(self, move: Move) -> str | None:
        """Why ``move`` is illegal here, or None when it is legal."""
        if self.winner is not None:
            return "the game is over"
        for sq in (move.target, move.origin, move.destination):
            if sq is not None and not self._geometry.contains(sq):
                return f"{square_name(sq)} is not on this {self.size}x{self.size} board"
        if self._phase is Phase.PLAY:
            if move.is_swap or move.is_shooter:
                return "in play a turn is a shot, with or without a shooter move"
            return self._shot_problem(move)
        if move.is_swap:
            return None if self._phase is Phase.PIE else "'swap' is only legal in the pie phase"
        if move.origin is not None:
            return "no shooter moves during setup"
        target = move.target
        assert target is not None
        if self._places_shooter():
            if not move.is_shooter:
                what = "swap or place a shooter" if self._phase is Phase.PIE else "place a shooter"
                return f"{self._turn} must {what} now"
            if target not in self._shooter_squares():
                rule = self._rules.setup_rule
                return f"{square_name(target)} is not open to a shooter under {rule!r}"
            return None
        if move.is_shooter:
            return f"all of {self._turn}'s shooters are placed; the stone comes next"
        if self._cells[target] != EMPTY:
            return f"{square_name(target)} is not empty"
        return None

    def _shot_problem(self, move: Move) -> str | None:
        target, origin, destination = move.target, move.origin, move.destination
        assert target is not None
        if origin is None or destination is None:
            if any(target in self._reach(sq) for sq in self._unclaimed):
                return None
            return f"no unclaimed shooter reaches {square_name(target)}"
        if origin not in self._unclaimed:
            return f"{square_name(origin)} holds no unclaimed shooter"
        if destination not in self._reach(origin):
            return f"the shooter on {square_name(origin)} does not reach {square_name(destination)}"
        cells = self._cells
        cells[origin], cells[destination] = EMPTY, SHOOTER
        reaches = target in self._reach(destination)
        cells[origin], cells[destination] = SHOOTER, EMPTY
        if reaches:
            return None
        return (
            f"after its move the shooter on {square_name(destination)} "
            f"does not reach {square_name(target)}"
        )

    # ------------------------------------------------------------------
    # Making and taking back moves

    def push(self, move: Move) -> None:
        """Play ``move``: the placement, swap, or shooter move, shot and claims.

        >>> board = Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
        >>> board.push(Move.parse("c2-c1/c2"))
        >>> board.fen()
        '7/2x4/7/1s5/7/o1x2s1/2s4 w play 3'

        :raises TypeError: if ``move`` is not a :class:`Move`.
        :raises IllegalMoveError: if ``move`` is not legal; the board is unchanged.
        """
        if not isinstance(move, Move):
            raise TypeError(f"expected a Move, not {type(move).__name__}")
        problem = self._illegality(move)
        if problem is not None:
            raise IllegalMoveError(f"illegal move {str(move)!r} in {self.fen()!r}: {problem}")
        self._push_unchecked(move)

    def push_str(self, text: str) -> Move:
        """Parse ``text`` in move notation and push it; returns the move.

        :raises InvalidMoveError: if ``text`` is not a move.
        :raises IllegalMoveError: if the move is not legal; the board is unchanged.
        """
        move = Move.parse(text)
        self.push(move)
        return move

    def _push_unchecked(self, move: Move) -> None:
        turn, phase = self._turn, self._phase
        cells = self._cells
        target = move.target
        claimed: tuple[int, ...] = ()
        if move.is_swap:
            # The second player takes Black's setup; the other player now
            # places as White, so the turn stays with White.
            self._phase = Phase.SETUP
        elif move.is_shooter:
            assert target is not None
            cells[target] = SHOOTER
            self._unclaimed.add(target)
            self._placed += 1
            self._phase = Phase.SETUP
        else:
            assert target is not None
            if move.origin is not None and move.destination is not None:
                cells[move.origin] = EMPTY
                cells[move.destination] = SHOOTER
                self._unclaimed.remove(move.origin)
                self._unclaimed.add(move.destination)
            cells[target] = STONE_LETTERS[turn]
            self._stones[turn] += 1
            if phase is Phase.PLAY:
                claimed = self._resolve_claims(turn)
                self._turn = turn.other
            elif turn is Color.BLACK:
                self._turn, self._phase = Color.WHITE, Phase.PIE
            else:
                self._turn, self._phase = Color.BLACK, Phase.PLAY
        self._stack.append((move, turn, phase, claimed))

    def _resolve_claims(self, shooter: Color) -> tuple[int, ...]:
        """Claim every trapped unclaimed shooter at once; returns their squares.

        Claiming changes no group, and by default no line, so one pass is
        complete; every owner of a pass is decided before any of its markers
        is put down. Where claimed shooters end lines and unclaimed ones do
        not (``claimed_shooters_block`` alone), a pass's markers can trap
        other shooters: passes repeat until one claims none.
        """
        orthogonal = self._geometry.orthogonal
        repeat = "X" in self._stops and SHOOTER not in self._stops
        claimed: list[int] = []
        while True:
            trapped = sorted(sq for sq in self._unclaimed if self._is_trapped(sq))
            owners = [claimant(self._cells, orthogonal, sq, shooter) for sq in trapped]
            for sq, owner in zip(trapped, owners, strict=True):
                self._cells[sq] = CLAIMED_LETTERS[owner]
                self._unclaimed.remove(sq)
                self._claims[owner] += 1
            claimed.extend(trapped)
            if not (trapped and repeat):
                return tuple(claimed)

    def pop(self) -> Move:
        """Take back the last move and return it.

        :raises IndexError: if no move has been pushed.
        """
        if not self._stack:
            raise IndexError("pop from a board with an empty move stack")
        move, turn, phase, claimed = self._stack.pop()
        cells = self._cells
        for sq in claimed:
            self._claims[CLAIMED_LETTERS.index(cells[sq])] -= 1
            cells[sq] = SHOOTER
            self._unclaimed.add(sq)
        target = move.target
        if move.is_shooter:
            assert target is not None
            cells[target] = EMPTY
            self._unclaimed.remove(target)
            self._placed -= 1
        elif not move.is_swap:
            assert target is not None
            cells[target] = EMPTY
            self._stones[turn] -= 1
            if move.origin is not None and move.destination is not None:
                cells[move.destination] = EMPTY
                cells[move.origin] = SHOOTER
                self._unclaimed.remove(move.destination)
                self._unclaimed.add(move.origin)
        self._turn, self._phase = turn, phase
        return move

    def peek(self) -> Move:
        """The last move pushed.

        :raises IndexError: if no move has been pushed.
        """
        if not self._stack:
            raise IndexError("peek at a board with an empty move stack")
        return self._stack[-1][0]

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first (a copy)."""
        return [undo[0] for undo in self._stack]

    def copy(self, *, stack: bool = True) -> Board:
        """An independent board in the same position, with the move stack unless
        ``stack`` is False.

        >>> board = Board(variant="small")
        >>> board.push_str("*d4")
        Move.parse('*d4')
        >>> board.copy(stack=False).move_stack, board.copy() == board
        ([], True)
        """
        other = object.__new__(Board)
        other._rules = self._rules
        other._geometry = self._geometry
        other._rays = self._rays
        other._stops = self._stops
        other._cells = list(self._cells)
        other._turn = self._turn
        other._phase = self._phase
        other._unclaimed = set(self._unclaimed)
        other._claims = list(self._claims)
        other._placed = self._placed
        other._stones = list(self._stones)
        other._stack = list(self._stack) if stack else []
        return other

    def __reduce__(self) -> tuple[object, tuple[str, str, bool, list[str], bool]]:
        """Pickles as the position before the first pushed move, the rule
        options and the pushed moves, which unpickling plays again (the
        native board pickles the same way)."""
        start = self.copy()
        while start._stack:
            start.pop()
        moves = [str(move) for move in self.move_stack]
        rules = self._rules
        return Board._restore, (
            start.fen(),
            rules.setup_rule,
            rules.shooters_block,
            moves,
            rules.claimed_shooters_block,
        )

    @classmethod
    def _restore(
        cls,
        fen: str,
        setup_rule: str,
        shooters_block: bool,
        moves: list[str],
        claimed_shooters_block: bool = False,
    ) -> Board:
        """The board :meth:`__reduce__` describes (not for direct use)."""
        board = cls(
            fen,
            setup_rule=setup_rule,
            shooters_block=shooters_block,
            claimed_shooters_block=claimed_shooters_block,
        )
        for text in moves:
            board.push_str(text)
        return board

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def _identity(self) -> tuple[str, str, bool, bool]:
        # Like a chess board, equality ignores the move stack.
        rules = self._rules
        return (self.fen(), rules.setup_rule, rules.shooters_block, rules.claimed_shooters_block)

    # ------------------------------------------------------------------
    # Perft

    def perft(self, depth: int) -> int:
        """The number of move sequences of length exactly ``depth`` (RULES.md section 6).

        >>> Board(variant="small").perft(2)  # 25 shooter squares, then 48 for the stone
        1200

        :raises TypeError: if ``depth`` is not an integer.
        :raises ValueError: if ``depth`` is negative.
        """
        depth = operator.index(depth)
        if depth < 0:
            raise ValueError(f"perft depth must not be negative, got {shown(depth)}")
        if depth == 0:
            return 1
        if depth == 1:
            return self._count()
        total = 0
        for move in self._generate():
            self._push_unchecked(move)
            total += self.perft(depth - 1)
            self.pop()
        return total

    def perft_divide(self, depth: int) -> dict[Move, int]:
        """``perft(depth - 1)`` after each legal move, in canonical order.

        >>> divide = Board("7/2x4/7/1s5/7/7/7 w pie 3").perft_divide(2)
        >>> list(divide.items())[:2]  # after the swap White places as before
        [(Move.parse('swap'), 23), (Move.parse('*b2'), 22)]

        :raises TypeError: if ``depth`` is not an integer.
        :raises ValueError: if ``depth`` is less than 1.
        """
        depth = operator.index(depth)
        if depth < 1:
            raise ValueError(f"perft_divide depth must be at least 1, got {shown(depth)}")
        divide = {}
        for move in self._generate():
            self._push_unchecked(move)
            divide[move] = self.perft(depth - 1)
            self.pop()
        return divide


class LegalMoves:
    """The legal moves of a board: iterable in canonical order, sized, and
    supporting ``in``. It is a live view: it always shows the board's current
    position.

    >>> board = Board("7/7/7/3s3/7/7/7 b setup 3")
    >>> moves = board.legal_moves
    >>> bool(moves), moves.count(), Move.parse("d4") in moves
    (True, 48, False)
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board._generate())

    def __len__(self) -> int:
        return self._board._count()

    def count(self) -> int:
        """The number of legal moves."""
        return self._board._count()

    def __bool__(self) -> bool:
        return self._board._has_legal_move()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board._illegality(move) is None

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(move) for move in self)})>"
