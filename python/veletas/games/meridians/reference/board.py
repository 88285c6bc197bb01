"""The board: a Meridians position with its rules, legal moves, push and pop.

>>> from veletas.meridians.reference import Board
>>> board = Board()
>>> for text in ["f2", "a1", "f12", "d4"]:
...     _ = board.push_str(text)
>>> board.fen()
'x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play'
>>> print(board)
12      x . . . . . .
11     . . . . . . . .
10    . . . . . . . . .
 9   . . . . . . . . . .
 8  . . . . . . . . . . .
 7 . . . . . . . . . . . .
 6  . . . . . . . . . . . .
 5   . . . . . . . . . . .
 4    . . . o . . . . . .
 3     . . . . . . . . .
 2      . . . . . x . .
 1       o . . . . . .
"""

from __future__ import annotations

import operator
from collections.abc import Iterator

from veletas import games as registry
from veletas._checks import shown
from veletas.errors import IllegalMoveError, InvalidMoveError, InvalidRulesError
from veletas.games.meridians.reference.fen import Position, format_fen, parse_fen
from veletas.games.meridians.reference.geometry import geometry
from veletas.games.meridians.reference.move import KEEP, PLACEMENTS, SWAP, Move
from veletas.games.meridians.types import (
    Color,
    Outcome,
    Phase,
    Rules,
    Stones,
    check_pie,
    check_size,
    parse_point,
    point_name,
)

__all__ = ["Board", "LegalMoves"]

DEFAULT_SIZE = "6-7"
_LETTERS = {Color.LIGHT: "x", Color.DARK: "o", None: "."}

# An undo record: the move, the turn and phase before it, and the points of
# the mover's stones it removed. Everything else follows from the move itself.
_Undo = tuple[Move, Color, Phase, tuple[int, ...]]


class Board:
    """A Meridians position with its rule options and the moves that led to it.

    Without ``fen``, the empty board that starts a game of ``size`` (6-7
    unless given). With ``fen``, the position string fixes the size; a
    ``size`` given too must agree with it. ``pie`` turns on the pie rule,
    which rule options travel beside the position string.

    >>> board = Board(size="5-6", pie=True)
    >>> board.fen(), board.turn, board.phase
    ('6/7/8/9/10/10/9/8/7/6 l open', <Color.LIGHT: 0>, <Phase.OPEN: 'open'>)
    >>> Board("6/7/8/9/10/10/9/8/7/6 l open", size="6-7")
    Traceback (most recent call last):
    ...
    veletas.errors.InvalidRulesError: size '6-7' does not match the position string, which is '5-6'

    :raises InvalidRulesError: for an unknown size, a ``pie`` that is not a
        bool, or a ``size`` that disagrees with ``fen``.
    :raises TypeError: if ``fen`` is neither None nor a str.
    :raises InvalidFenError: for a refused position string.
    """

    def __init__(
        self, fen: str | None = None, *, size: str | None = None, pie: bool = False
    ) -> None:
        if size is not None:
            size = check_size(size)
        pie = check_pie(pie)
        if fen is None:
            position = Position(size or DEFAULT_SIZE, [None] * 196, Color.LIGHT, Phase.OPEN)
        else:
            position = parse_fen(fen)
            if size is not None and size != position.size:
                raise InvalidRulesError(
                    f"size {size!r} does not match the position string, which is {position.size!r}"
                )
        self._load(position, pie)

    def _load(self, position: Position, pie: bool) -> None:
        self._geo = geometry(position.size)
        self._pie = pie
        self._cells = list(position.cells)
        # The points of each colour's stones, indexed by Color.
        self._stones = tuple(
            {p for p in self._geo.points if self._cells[p] is color} for color in Color
        )
        self._turn = position.turn
        self._phase = position.phase
        self._stack: list[_Undo] = []
        self._version = 0  # counts pushes and pops: a view can tell the position changed

    # ------------------------------------------------------------------
    # Reading the position

    def fen(self) -> str:
        """The position string of MERIDIANS.md section 6.

        >>> Board().fen()
        '7/8/9/10/11/12/12/11/10/9/8/7 l open'
        """
        return format_fen(self.size, self._cells, self._turn, self._phase)

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter (:func:`veletas.svg.board`)."""
        return registry.game_of(self).draw(self, lastmove=self.peek() if self._stack else None)

    def __str__(self) -> str:
        geo = self._geo
        lines = []
        for r in reversed(range(geo.n)):
            points = geo.ranks[r]
            indent = 2 * (points[0] % 14) - r + geo.b - 1  # a point sits at column 2c - r + B - 1
            row = " ".join(_LETTERS[self._cells[p]] for p in points)
            lines.append(f"{r + 1:>2} " + " " * indent + row)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r}, size={self.size!r}, pie={self._pie!r})"

    @property
    def rules(self) -> Rules:
        """The rules of this game: the board size and the pie option.

        >>> Board(size="5-6", pie=True).rules
        Rules(size='5-6', pie=True)
        """
        return Rules(self._geo.size, self._pie)

    @property
    def size(self) -> str:
        """The board size, such as ``"6-7"``."""
        return self._geo.size

    @property
    def pie(self) -> bool:
        """Whether the pie rule is on: Dark's first stone then leads to the pie decision."""
        return self._pie

    @property
    def turn(self) -> Color:
        """The colour that acts next."""
        return self._turn

    @property
    def phase(self) -> Phase:
        """Open, pie or play."""
        return self._phase

    @property
    def stones(self) -> Stones:
        """The number of stones of each colour on the board.

        >>> Board("x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play").stones
        Stones(light=2, dark=2)
        """
        return Stones(len(self._stones[Color.LIGHT]), len(self._stones[Color.DARK]))

    @property
    def last_removed(self) -> tuple[str, ...]:
        """The names of the stones removed by the last move pushed, sorted as
        strings; ``()`` when it removed none or no move has been pushed.

        >>> board = Board("6/7/8/9/10/10/9/8/7/x1x2o l play")
        >>> board.last_removed
        ()
        >>> board.push_str("b1")  # joins a1 and c1 into the only group of Light
        Move.parse('b1')
        >>> board.last_removed
        ('a1', 'b1', 'c1')
        """
        if not self._stack:
            return ()
        return tuple(sorted(point_name(p) for p in self._stack[-1][3]))

    def piece_at(self, point: int | str) -> Color | None:
        """The colour of the stone on ``point`` (a number or a name), or None when it is empty.

        >>> board = Board("x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play")
        >>> board.piece_at("f12"), board.piece_at(0), board.piece_at("b1")
        (<Color.LIGHT: 0>, <Color.DARK: 1>, None)
        >>> board.piece_at("a8")
        Traceback (most recent call last):
        ...
        veletas.errors.InvalidMoveError: point 'a8' is not on the 6-7 board

        :raises TypeError: if ``point`` is neither a str nor an integer.
        :raises InvalidMoveError: if ``point`` is not a point name or number, or
            not on this board.
        """
        if isinstance(point, str):
            p = parse_point(point)
        else:
            p = operator.index(point)
            if not 0 <= p < 196:
                raise InvalidMoveError(f"invalid point number {shown(point)}: expected 0..195")
        if not self._geo.contains(p):
            raise InvalidMoveError(f"point {point_name(p)!r} is not on the {self.size} board")
        return self._cells[p]

    def piece_map(self) -> dict[int, Color]:
        """The stones on the board: point number to colour, ascending.

        >>> Board("x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play").piece_map()
        {0: <Color.DARK: 1>, 19: <Color.LIGHT: 0>, 45: <Color.DARK: 1>, 159: <Color.LIGHT: 0>}
        """
        return {p: color for p in self._geo.points if (color := self._cells[p]) is not None}

    # ------------------------------------------------------------------
    # Lines and groups (MERIDIANS.md section 2)

    def _nearest_is_own(self, p: int, color: Color) -> bool:
        """Whether, in some direction from ``p``, the nearest stone is ``color``'s."""
        cells = self._cells
        for ray in self._geo.rays[p]:
            for q in ray:
                stone = cells[q]
                if stone is not None:
                    if stone is color:
                        return True
                    break
        return False

    def _sight(self, color: Color) -> set[int]:
        """The empty points from which, in some direction, the nearest stone is
        ``color``'s: walking outwards from each of its stones, the empty points
        before the next stone."""
        cells = self._cells
        rays = self._geo.rays
        seen: set[int] = set()
        for s in self._stones[color]:
            for ray in rays[s]:
                for q in ray:
                    if cells[q] is not None:
                        break
                    seen.add(q)
        return seen

    def _has_path(self, p: int, first: int) -> bool:
        """Whether the empty point ``p`` and the stone ``first`` lie on one line
        with only empty points, at least one, between them."""
        cells = self._cells
        for ray in self._geo.rays[p]:
            for distance, q in enumerate(ray, 1):
                if q == first:
                    return distance >= 2
                if cells[q] is not None:
                    break
        return False

    def _path_points(self, first: int) -> list[int]:
        """The empty points that have a path with the stone ``first``, ascending:
        along each of its lines, the empty points past the first one, up to the
        next stone."""
        cells = self._cells
        found = []
        for ray in self._geo.rays[first]:
            for distance, q in enumerate(ray, 1):
                if cells[q] is not None:
                    break
                if distance >= 2:
                    found.append(q)
        found.sort()
        return found

    def _dead_stones(self, color: Color) -> list[int]:
        """The stones of ``color`` in dead groups: groups none of whose stones has
        a path, over at least one empty point, to a stone of another group."""
        cells = self._cells
        neighbours = self._geo.neighbours
        rays = self._geo.rays
        # Groups by flood fill through neighbours: each stone gets its group's number.
        group_of: dict[int, int] = {}
        for s in self._stones[color]:
            if s in group_of:
                continue
            group = len(group_of)
            group_of[s] = group
            members = [s]
            for m in members:  # grows while it is walked
                for n in neighbours[m]:
                    if cells[n] is color and n not in group_of:
                        group_of[n] = group
                        members.append(n)
        # Paths: from each stone, the nearest stone in each direction.
        alive: set[int] = set()
        for s, group in group_of.items():
            if group in alive:
                continue
            for ray in rays[s]:
                empty_between = False
                for q in ray:
                    stone = cells[q]
                    if stone is None:
                        empty_between = True
                        continue
                    if empty_between and stone is color and group_of[q] != group:
                        alive.add(group)
                        alive.add(group_of[q])
                    break
        return [s for s, group in group_of.items() if group not in alive]

    # ------------------------------------------------------------------
    # The end of the game (MERIDIANS.md section 4)

    def _can_place(self) -> bool:
        """Whether the colour to act has a legal placement in play.

        The points next to its stones are legal when empty, and any legal point
        has, in its direction towards its nearest own stone, an empty point
        next to that stone; so it can place exactly when some stone of its
        colour has an empty neighbour.
        """
        cells = self._cells
        neighbours = self._geo.neighbours
        return any(cells[n] is None for s in self._stones[self._turn] for n in neighbours[s])

    @property
    def winner(self) -> Color | None:
        """The colour that has won, or None while the game goes on.

        Only in play: a colour without stones has lost; otherwise the colour to
        act loses when it has no legal placement.

        >>> Board("6/7/8/9/10/10/9/8/7/1o4 l play").winner  # Light has no stone
        <Color.DARK: 1>
        """
        if self._phase is not Phase.PLAY:
            return None
        turn = self._turn
        if not self._stones[turn]:
            return turn.other
        if not self._stones[turn.other]:
            return turn
        if not self._can_place():
            return turn.other
        return None

    def is_game_over(self) -> bool:
        """Whether the game has ended: it then has no legal moves."""
        return self.winner is not None

    def outcome(self) -> Outcome | None:
        """The outcome of a finished game, or None while it goes on.

        >>> Board("6/7/8/9/10/10/9/8/7/1o4 l play").outcome()
        Outcome(winner=<Color.DARK: 1>, stones=Stones(light=0, dark=1))
        """
        winner = self.winner
        return None if winner is None else Outcome(winner, self.stones)

    # ------------------------------------------------------------------
    # Legal moves (MERIDIANS.md sections 3 and 5)

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, as a live view: placements by ascending point
        number, or ``swap`` then ``keep`` in the pie decision.

        >>> board = Board("x6/8/9/10/11/12/12/11/10/9/8/7 d open", pie=True)
        >>> len(board.legal_moves), Move.parse("f12") in board.legal_moves
        (113, False)
        >>> board.push_str("a1")
        Move.parse('a1')
        >>> list(board.legal_moves)
        [Move.parse('swap'), Move.parse('keep')]
        """
        return LegalMoves(self)

    def _placement_points(self) -> list[int]:
        """The points open to the mover's stone, ascending, in a game going on
        outside the pie decision."""
        own = self._stones[self._turn]
        if self._phase is Phase.PLAY:
            return sorted(self._sight(self._turn))
        if not own:  # a first stone: any empty point
            return [p for p in self._geo.points if self._cells[p] is None]
        (first,) = own  # a second stone: a path with the first
        return self._path_points(first)

    def _generate(self) -> list[Move]:
        """All legal moves, in the order of :attr:`legal_moves`."""
        if self._phase is Phase.PIE:
            return [SWAP, KEEP]
        if self.winner is not None:
            return []
        return [PLACEMENTS[p] for p in self._placement_points()]

    def _count(self) -> int:
        """``len(self._generate())`` without building the list."""
        if self._phase is Phase.PIE:
            return 2
        if self.winner is not None:
            return 0
        if self._phase is Phase.OPEN and not self._stones[self._turn]:
            return len(self._geo.points) - sum(self.stones)
        if self._phase is Phase.PLAY:
            return len(self._sight(self._turn))
        return len(self._placement_points())

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here.

        >>> board = Board("7/8/9/10/11/12/12/11/10/9/8/o5x l open")  # Light's second stone
        >>> board.is_legal(Move.parse("e1")), board.is_legal(Move.parse("f1"))
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
        p = move.point
        if p is not None and not self._geo.contains(p):
            return f"{point_name(p)} is not on the {self.size} board"
        if self._phase is Phase.PIE:
            return None if p is None else "Dark must 'swap' or 'keep' now"
        if p is None:
            return "'swap' and 'keep' are only legal in the pie decision"
        name = point_name(p)
        if self._cells[p] is not None:
            return f"{name} is not empty"
        mover = str(self._turn).capitalize()
        own = self._stones[self._turn]
        if self._phase is Phase.PLAY:
            if self._nearest_is_own(p, self._turn):
                return None
            return f"from {name} no nearest stone is {mover}'s"
        if not own:
            return None
        (first,) = own
        if self._has_path(p, first):
            return None
        return f"{name} has no path to {point_name(first)}, {mover}'s first stone"

    # ------------------------------------------------------------------
    # Making and taking back moves

    def push(self, move: Move) -> None:
        """Play ``move``: in play, the placement and then the removal of the
        mover's dead groups.

        >>> board = Board("6/7/8/9/10/10/9/8/7/x1x2o l play")
        >>> board.push(Move.parse("b1"))  # a1, b1 and c1 form Light's only group
        >>> board.fen(), board.winner
        ('6/7/8/9/10/10/9/8/7/5o d play', <Color.DARK: 1>)

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

        :raises TypeError: if ``text`` is not a str.
        :raises InvalidMoveError: if ``text`` is not a move.
        :raises IllegalMoveError: if the move is not legal; the board is unchanged.
        """
        move = Move.parse(text)
        self.push(move)
        return move

    def _push_unchecked(self, move: Move) -> None:
        turn, phase = self._turn, self._phase
        removed: tuple[int, ...] = ()
        p = move.point
        if p is None:
            # `swap` or `keep`: the board is unchanged, whoever holds Light
            # plays its second turn.
            self._turn = Color.LIGHT
            self._phase = Phase.OPEN
        else:
            own = self._stones[turn]
            placed_before = len(own)
            self._cells[p] = turn
            own.add(p)
            if phase is Phase.PLAY:
                removed = self._remove_dead_groups(turn)
                self._turn = turn.other
            elif turn is Color.LIGHT:
                self._turn = Color.DARK
            elif placed_before == 0 and self._pie:
                self._phase = Phase.PIE
            else:
                self._turn = Color.LIGHT
                self._phase = Phase.PLAY if placed_before == 1 else Phase.OPEN
        self._stack.append((move, turn, phase, removed))
        self._version += 1

    def _remove_dead_groups(self, color: Color) -> tuple[int, ...]:
        """Remove all dead groups of ``color`` together; returns their points, ascending."""
        dead = sorted(self._dead_stones(color))
        own = self._stones[color]
        for s in dead:
            self._cells[s] = None
            own.remove(s)
        return tuple(dead)

    def pop(self) -> Move:
        """Take back the last move and return it.

        :raises IndexError: if no move has been pushed.
        """
        if not self._stack:
            raise IndexError("pop from a board with an empty move stack")
        move, turn, phase, removed = self._stack.pop()
        own = self._stones[turn]
        for s in removed:  # first, as the placed stone may be among them
            self._cells[s] = turn
            own.add(s)
        p = move.point
        if p is not None:
            self._cells[p] = None
            own.remove(p)
        self._turn, self._phase = turn, phase
        self._version += 1
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
        ``stack`` is False (a board without a stack has no ``last_removed``).

        >>> board = Board()
        >>> board.push_str("f7")
        Move.parse('f7')
        >>> board.copy(stack=False).move_stack, board.copy() == board
        ([], True)
        """
        other = object.__new__(Board)
        other._geo = self._geo
        other._pie = self._pie
        other._cells = list(self._cells)
        other._stones = tuple(set(points) for points in self._stones)
        other._turn = self._turn
        other._phase = self._phase
        other._stack = list(self._stack) if stack else []
        other._version = 0
        return other

    def __copy__(self) -> Board:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Board:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def _identity(self) -> tuple[str, bool]:
        # The position string holds the stones, turn, phase and size; like a
        # chess board, equality ignores the move stack.
        return (self.fen(), self._pie)

    def __getstate__(self) -> tuple[str, bool, list[str]]:
        # The position before the first move, the pie option and the moves:
        # unpickling replays them.
        root = self.copy()
        while root._stack:
            root.pop()
        return root.fen(), self._pie, [str(move) for move in self.move_stack]

    def __setstate__(self, state: tuple[str, bool, list[str]]) -> None:
        fen, pie, moves = state
        self._load(parse_fen(fen), pie)
        for text in moves:
            self.push_str(text)

    # ------------------------------------------------------------------
    # Perft (MERIDIANS.md section 7)

    def perft(self, depth: int) -> int:
        """The number of move sequences of length exactly ``depth``.

        >>> Board().perft(2)
        12882

        :raises TypeError: if ``depth`` is not an integer.
        :raises ValueError: if ``depth`` is negative.
        """
        depth = operator.index(depth)
        if depth < 0:
            raise ValueError(f"perft depth must not be negative, got {shown(depth)}")
        return self._perft(depth)

    def _perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        if depth == 1:
            return self._count()
        total = 0
        for move in self._generate():
            self._push_unchecked(move)
            total += self._perft(depth - 1)
            self.pop()
        return total

    def perft_divide(self, depth: int) -> dict[str, int]:
        """``perft(depth - 1)`` after each legal move, in the order of
        :attr:`legal_moves`, keyed by the move's notation.

        >>> Board("x6/8/9/10/11/12/12/11/10/9/8/7 d open", pie=True).perft_divide(2)["a1"]
        2

        :raises TypeError: if ``depth`` is not an integer.
        :raises ValueError: if ``depth`` is less than 1.
        """
        depth = operator.index(depth)
        if depth < 1:
            raise ValueError(f"perft_divide depth must be at least 1, got {shown(depth)}")
        divide = {}
        for move in self._generate():
            self._push_unchecked(move)
            divide[str(move)] = self._perft(depth - 1)
            self.pop()
        return divide


class LegalMoves:
    """The legal moves of a board: iterable in order, sized, and supporting
    ``in``. It is a live view: it always shows the board's current position.

    >>> board = Board()
    >>> moves = board.legal_moves
    >>> len(moves), moves.count(), Move.parse("a1") in moves
    (114, 114, True)
    >>> board.push_str("a1")
    Move.parse('a1')
    >>> len(moves), Move.parse("a1") in moves
    (113, False)
    """

    __slots__ = ("_board", "_cache")

    def __init__(self, board: Board) -> None:
        self._board = board
        self._cache: tuple[int, list[Move]] | None = None

    def _moves(self) -> list[Move]:
        # `list(view)` asks for the length and then iterates: generate once
        # per position.
        version = self._board._version
        if self._cache is None or self._cache[0] != version:
            self._cache = (version, self._board._generate())
        return self._cache[1]

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves())

    def __len__(self) -> int:
        return len(self._moves())

    def count(self) -> int:
        """The number of legal moves."""
        return len(self._moves())

    def __bool__(self) -> bool:
        return bool(self._moves())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board._illegality(move) is None

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(move) for move in self)})>"
