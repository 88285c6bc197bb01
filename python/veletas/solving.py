"""Exact solving, for a board of any game: :func:`solve` says whether the
player to act can force a win, with a winning move and, when asked, a
:class:`Proof` that the pure-Python reference engine checks
(``docs/solve.md``).

>>> import veletas
>>> board = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
>>> result = veletas.solve(board, proof=True)
>>> result.value, str(result.move)
('win', 'a6-a7/a6')
>>> result.proof.check(board)       # replayed on the reference engine
>>> result.proof.to_dict()["move"]
'a6-a7/a6'
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any

from veletas import games as registry
from veletas._background import interruptible
from veletas._implementation import require_native
from veletas.bots import StopFlag, _move, _position
from veletas.errors import ProofError
from veletas.limits import (
    MAX_PROOF_POSITIONS,
    SOLVER_MEMORY,
    check_max_proof,
    check_seconds,
    check_solve_nodes,
    check_solver_memory,
    check_threads,
)

require_native("veletas.solving")
from veletas import _veletas  # noqa: E402  (after the check: its error names the user)

__all__ = ["VALUES", "Proof", "SolveResult", "Solver", "solve"]

VALUES = ("win", "loss", "unknown")
"""The values of a solve, for the player to act: ``unknown`` when the
budget ran out first."""

Progress = Callable[[int, float, int], object]
"""``progress(nodes, seconds, table_entries)``, called every second or so."""


@dataclasses.dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found."""

    value: str
    """``"win"``, ``"loss"`` or ``"unknown"``, for the player to act."""
    move: Any
    """A winning move (the board's own ``Move``) when the value is a win,
    else None."""
    nodes: int
    """The positions the search expanded."""
    seconds: float
    """The wall-clock time of the search."""
    proof_size: int | None
    """The positions of the proof of a win (each once, at the start of a
    turn); None without a win, or for a proof over
    :data:`~veletas.limits.MAX_PROOF_POSITIONS`."""
    proof: Proof | None = None
    """The proof of a win, when asked for (and within that limit)."""


class Proof:
    """A winning strategy of the player to act, in whole moves:

    - ``{"move": M, "then": node}``: the prover plays M;
    - ``{"replies": {M: node, ...}}``: the opponent, every legal move;
    - ``{"won": True}``: the game is over, won by the prover.

    ``M`` is ``str(move)``. Positions reached by several lines share one
    node object; :meth:`to_json` writes each line out.
    """

    def __init__(self, root: Mapping[str, Any]) -> None:
        self._root = root

    def to_dict(self) -> Any:
        """The tree, as above (shared nodes are the same objects)."""
        return self._root

    def to_json(self) -> str:
        """The tree as JSON text."""
        return json.dumps(self._root, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Proof:
        """A proof read from :meth:`to_json`'s text, its shape checked.

        :raises ProofError: for text that is not JSON or not a proof's shape.
        """
        try:
            root = json.loads(text)
        except RecursionError:
            raise ProofError("the proof is nested too deep to read") from None
        except ValueError as error:
            raise ProofError(f"the proof is not JSON: {error}") from None
        _check_shape(root, [])
        return cls(root)

    @classmethod
    def _from_entries(cls, entries: list[tuple[str, list[tuple[str, int]]]]) -> Proof:
        """The proof of the native solver's flat list (node 0 the root),
        shared positions built once."""
        nodes: list[dict[str, Any]] = [{} for _ in entries]
        for node, (kind, edges) in zip(nodes, entries, strict=True):
            if kind == "won":
                node["won"] = True
            elif kind == "move":
                [(move, child)] = edges
                node["move"] = move
                node["then"] = nodes[child]
            else:
                node["replies"] = {move: nodes[child] for move, child in edges}
        return cls(nodes[0])

    def size(self) -> int:
        """The distinct node objects of the tree."""
        seen: set[int] = set()
        stack = [self._root]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if "then" in node:
                stack.append(node["then"])
            stack.extend(node.get("replies", {}).values())
        return len(seen)

    def check(self, board: Any) -> None:
        """Replays the proof from ``board`` (of either engine) on the
        pure-Python reference engine, which shares no code with the native
        solver: every move of the prover is legal, every legal move of the
        opponent is answered, and every line ends in a game the prover won.

        :raises ProofError: naming the line of moves where it first fails.
        """
        game = registry.game_of(board)
        reference = game.reference().Board(board.fen(), **game.options.fen_kwargs(board.rules))
        swapped = any(move.is_swap for move in board.move_stack)
        prover = game.match.seat_to_act(reference, swapped)
        _Checker(game, prover).walk(self._root, reference, swapped, [])

    def __repr__(self) -> str:
        return f"<Proof of {self.size()} positions>"


def _where(line: list[str]) -> str:
    return "at the start" if not line else "after " + " ".join(line)


def _check_shape(node: object, line: list[str]) -> None:
    """Whether ``node`` is a proof's shape, depth first."""
    stack: list[tuple[object, list[str]]] = [(node, line)]
    while stack:
        node, line = stack.pop()
        if not isinstance(node, dict):
            raise ProofError(f"{_where(line)}: a node must be an object, not {type(node).__name__}")
        keys = set(node)
        if keys == {"won"} and node["won"] is True:
            continue
        if keys == {"move", "then"} and isinstance(node["move"], str):
            stack.append((node["then"], [*line, node["move"]]))
            continue
        if keys == {"replies"} and isinstance(node["replies"], dict) and node["replies"]:
            stack.extend((child, [*line, move]) for move, child in node["replies"].items())
            continue
        raise ProofError(
            f'{_where(line)}: a node is {{"won": true}}, {{"move": M, "then": node}} '
            f'or {{"replies": {{M: node, ...}}}}, not one with keys {sorted(keys)}'
        )


class _Checker:
    """The replay of :meth:`Proof.check`, each shared node checked once per
    position."""

    def __init__(self, game: registry.Game, prover: int) -> None:
        self.game = game
        self.prover = prover
        self.checked: set[tuple[int, str, bool]] = set()

    def walk(self, node: Any, board: Any, swapped: bool, line: list[str]) -> None:
        stack = [(node, board, swapped, line)]
        while stack:
            node, board, swapped, line = stack.pop()
            key = (id(node), board.fen(), swapped)
            if key in self.checked:
                continue
            self.checked.add(key)
            _check_shape_here(node, line)
            over = board.is_game_over()
            if "won" in node:
                winner = board.winner
                won = winner is not None and (int(winner) ^ swapped) == self.prover
                if not (over and won):
                    state = "is not over" if not over else "is not won by the prover"
                    raise ProofError(f"{_where(line)}: the game {state}, but the proof says won")
                continue
            if over:
                raise ProofError(f"{_where(line)}: the game is over, but the proof goes on")
            to_act = self.game.match.seat_to_act(board, swapped)
            if "move" in node:
                if to_act != self.prover:
                    raise ProofError(
                        f"{_where(line)}: the opponent is to act, but the proof has the "
                        f"prover play {node['move']}"
                    )
                stack.append(self._after(node["move"], node["then"], board, swapped, line))
                continue
            if to_act == self.prover:
                raise ProofError(
                    f"{_where(line)}: the prover is to act, but the proof lists replies"
                )
            legal = {str(move) for move in board.legal_moves}
            missing = sorted(legal - set(node["replies"]))
            if missing:
                raise ProofError(
                    f"{_where(line)}: the opponent's move {missing[0]} is not answered "
                    f"({len(missing)} of {len(legal)} moves missing)"
                )
            for move, child in node["replies"].items():
                stack.append(self._after(move, child, board, swapped, line))

    def _after(
        self, text: str, node: Any, board: Any, swapped: bool, line: list[str]
    ) -> tuple[Any, Any, bool, list[str]]:
        after = board.copy(stack=False)
        try:
            move = after.push_str(text)
        except ValueError as error:
            raise ProofError(f"{_where(line)}: {text} is not a legal move: {error}") from None
        return node, after, swapped ^ bool(move.is_swap), [*line, text]


def _check_shape_here(node: Any, line: list[str]) -> None:
    if isinstance(node, dict) and (
        set(node) == {"won"} or set(node) == {"move", "then"} or set(node) == {"replies"}
    ):
        return
    _check_shape(node, line)


def solve(
    board: Any,
    *,
    seconds: float | None = None,
    max_nodes: int | None = None,
    memory: int | None = None,
    proof: bool = False,
    progress: Progress | None = None,
    threads: int = 1,
    symmetries: bool = True,
    max_proof: int = MAX_PROOF_POSITIONS,
) -> SolveResult:
    """Solve the position of ``board`` (of either game and engine) exactly,
    for the player to act: a depth-first proof-number search in the native
    core, without the GIL, with a table of whole positions.

    :param seconds: the most wall-clock time (default: no limit).
    :param max_nodes: the most positions to expand (default: no limit).
    :param memory: the table's memory in bytes (default
        :data:`~veletas.limits.SOLVER_MEMORY`, at most half the machine's),
        shared among the threads.
    :param threads: the threads that search (1 to
        :data:`~veletas.limits.MAX_THREADS`): each takes one of the first
        decisions open to the player at a time, with a table of its own; the
        first proven win ends the solve. A loss, where every decision must
        be refuted, gains the most.
    :param proof: also return the proof of a win (:class:`Proof`).
    :param progress: ``progress(nodes, seconds, table_entries)``, called
        every second or so of a long solve.
    :param symmetries: file a position and its images under the board's
        symmetries as one table entry, where the game folds them (False
        measures what they save; the value is the same).
    :param max_proof: the most positions of the proof of a win built, for
        ``proof_size`` and ``proof`` (0 to
        :data:`~veletas.limits.MAX_PROOF_POSITIONS`, the default). It is
        built after the search, and after a long one can take far longer
        than the search did: 0 builds none (``proof_size`` is then None),
        for a caller that wants the value alone.
    :raises ValueError: for a finished game.
    :raises LimitError: for a budget or memory outside the limits.
    :raises KeyboardInterrupt: on Ctrl-C, once the search has stopped.
    """
    memory = check_solver_memory(SOLVER_MEMORY if memory is None else memory)
    threads = check_threads(threads)
    _check_flag("symmetries", symmetries)
    return _solve(
        board,
        seconds=seconds,
        max_nodes=max_nodes,
        memory=memory,
        proof=proof,
        progress=progress,
        threads=threads,
        symmetries=symmetries,
        max_proof=max_proof,
        table=None,
    )


class Solver:
    """An exact solver that keeps its table's memory from one solve to the
    next: each solve empties it and searches as :func:`solve` on one thread
    would (the same value, move and nodes), without setting a table up and
    growing it again, which took a ninth of the time of solves of a million
    positions (``docs/solve.md``). For many solves, as the leaves of
    a :class:`~veletas.long_solve.LongSolve`.

    :param memory: the table's memory in bytes (default
        :data:`~veletas.limits.SOLVER_MEMORY`). The solver holds one table,
        of the game and rules of its last solve: a board of others gets a
        new one, and the old one is freed.
    :param symmetries: as for :func:`solve`.

    >>> import veletas
    >>> solver = veletas.Solver(memory=16 << 20)
    >>> board = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    >>> kept, fresh = solver.solve(board), veletas.solve(board, memory=16 << 20)
    >>> kept.value, kept.nodes == fresh.nodes
    ('win', True)
    """

    def __init__(self, *, memory: int | None = None, symmetries: bool = True) -> None:
        self._memory = check_solver_memory(SOLVER_MEMORY if memory is None else memory)
        _check_flag("symmetries", symmetries)
        self._symmetries = symmetries
        self._table: tuple[tuple[Any, ...], _veletas.SolverTable] | None = None

    # Read-only: they were checked when the solver was made.
    @property
    def memory(self) -> int:
        """The table's memory in bytes."""
        return self._memory

    @property
    def symmetries(self) -> bool:
        """Whether positions equal up to the board's symmetries share an entry."""
        return self._symmetries

    def solve(
        self,
        board: Any,
        *,
        seconds: float | None = None,
        max_nodes: int | None = None,
        proof: bool = False,
        progress: Progress | None = None,
        max_proof: int = MAX_PROOF_POSITIONS,
    ) -> SolveResult:
        """:func:`solve` of ``board`` on one thread, in the kept table. One
        solve at a time: a call while another runs (from another thread)
        raises ``ValueError``."""
        # A table's keys leave the rules out: one table a game and rules (a
        # board's rules hold its size as well as its options).
        rules = (_position(board).game, board.rules)
        if self._table is None or self._table[0] != rules:
            self._table = (rules, _veletas.SolverTable())
        table = self._table[1]
        return _solve(
            board,
            seconds=seconds,
            max_nodes=max_nodes,
            memory=self._memory,
            proof=proof,
            progress=progress,
            threads=1,
            symmetries=self._symmetries,
            max_proof=max_proof,
            table=table,
        )


def _check_flag(name: str, flag: object) -> None:
    if not isinstance(flag, bool):
        raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")


def _solve(
    board: Any,
    *,
    seconds: float | None,
    max_nodes: int | None,
    memory: int,
    proof: bool,
    progress: Progress | None,
    threads: int,
    symmetries: bool,
    max_proof: int,
    table: _veletas.SolverTable | None,
) -> SolveResult:
    """A solve with its memory, threads and symmetries checked, by the
    native solver of ``board``'s game, in ``table`` if one is kept."""
    if seconds is not None:
        seconds = check_seconds(seconds)
    if max_nodes is not None:
        max_nodes = check_solve_nodes(max_nodes)
    max_proof = check_max_proof(max_proof)
    _check_flag("proof", proof)
    if proof and max_proof == 0:
        raise ValueError("proof=True needs a max_proof above 0")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    position = _position(board)
    native = registry.get(position.game).bots.solve
    stop = StopFlag()

    def work() -> Any:
        return native(
            position.fen,
            *position.options,
            position.swapped,
            memory=memory,
            max_proof=max_proof,
            seconds=seconds,
            max_nodes=max_nodes,
            proof=proof,
            stop=stop,
            progress=progress,
            threads=threads,
            symmetries=symmetries,
            table=table,
        )

    value, move, nodes, elapsed, size, entries = interruptible(work, stop)
    return SolveResult(
        value=value,
        move=None if move is None else _move(board, move),
        nodes=nodes,
        seconds=elapsed,
        proof_size=size,
        proof=None if entries is None else Proof._from_entries(entries),
    )
