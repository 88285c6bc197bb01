"""A solve that spans many runs: a proof-number search over whole positions
whose leaves the native solver settles with a fixed budget each, every
settled leaf appended to a progress file, so that a later run, from the same
file, goes on where the last one stopped (``docs/solved.md``).

The top of the search is a tree of positions (shared where lines transpose,
one node a key: ``key(board)``, the position string unless the caller folds
symmetries into it). A leaf is first given to :func:`veletas.solve` with
``leaf_nodes`` positions; a leaf that stays unknown is expanded, its children
being leaves in turn. Proof and disproof numbers, counted over the tree
(a fresh leaf: 1 to prove the side to act wins, its number of legal moves to
refute it), choose the leaf to work on next, as in PN² search (Breuker, van
den Herik and Uiterwijk). With ``workers`` above 1, as many leaves are solved
at once, each on a thread of its own (the native solver runs without the
GIL): the most-proving leaf that is not being solved already goes to each
free worker, as in job-level proof-number search (Wu, Lin and others).

>>> import veletas, tempfile, pathlib
>>> from veletas.long_solve import LongSolve, ProgressFile
>>> folder = tempfile.mkdtemp()
>>> board = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
>>> progress = ProgressFile(pathlib.Path(folder) / "progress.jsonl")
>>> search = LongSolve(board, progress, leaf_nodes=100)
>>> search.run(), search.line()      # Black (0, as int(board.turn)) wins
(0, ['a7'])
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from operator import attrgetter
from pathlib import Path
from typing import Any

from veletas._checks import shown
from veletas.errors import ProgressFileError, ProofError
from veletas.limits import (
    MAX_PROOF_POSITIONS,
    MAX_SOLVE_NODES,
    check_seconds,
    check_solve_nodes,
    check_solver_memory,
    check_threads,
)
from veletas.solving import Proof, Solver, SolveResult, solve

__all__ = ["INFINITE", "LongSolve", "ProgressFile", "Settled"]

INFINITE = 1 << 62
"""A proof or disproof number that no count reaches: proved impossible."""

Key = Callable[[Any], str]
"""The key of a board's position in the tree and the progress file."""


class Settled:
    """What the progress file says of one position: its ``winner`` (the
    side, 0 or 1 as ``int(board.turn)``, or None while unknown), the positions ``nodes`` and the
    ``seconds`` its solves took, and the ``root`` whose search it served."""

    __slots__ = ("nodes", "root", "seconds", "winner")

    def __init__(self, winner: int | None, nodes: int, seconds: float, root: str) -> None:
        self.winner = winner
        self.nodes = nodes
        self.seconds = seconds
        self.root = root


class ProgressFile:
    """The settled positions of long solves, one JSON object a line, read
    whole when opened and appended to as each position is settled:

    ``{"key": ..., "winner": 0 | 1 | null, "nodes": N, "seconds": S, "root": ...}``

    ``winner`` null records a leaf whose budgeted solve (``nodes`` positions)
    ended unknown. A later line for a key replaces an earlier one. A line
    that is not such an object is refused (:class:`ProgressFileError` naming
    the file and line): the file is never rewritten, only appended to.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._entries: dict[str, Settled] = {}
        self._solves: list[tuple[str, Settled]] = []
        if self.path.exists():
            self._read()

    def _read(self) -> None:
        with self.path.open("rb") as lines:
            for number, raw in enumerate(lines, 1):
                if not raw.strip():
                    continue
                try:
                    key, entry = _parse(raw.decode("utf-8"))
                except ValueError as error:
                    raise ProgressFileError(f"{self.path}, line {number}: {error}") from None
                self._note(key, entry)

    def get(self, key: str) -> Settled | None:
        """What is known of ``key``, or None."""
        return self._entries.get(key)

    def add(self, key: str, entry: Settled) -> None:
        """Record ``entry`` for ``key`` and append it to the file at once."""
        line = json.dumps(
            {
                "key": key,
                "winner": entry.winner,
                "nodes": entry.nodes,
                "seconds": round(entry.seconds, 3),
                "root": entry.root,
            },
            separators=(",", ":"),
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")
        self._note(key, entry)

    def _note(self, key: str, entry: Settled) -> None:
        self._entries[key] = entry
        if entry.nodes > 0:
            self._solves.append((key, entry))

    def solves(self) -> Iterator[tuple[str, Settled]]:
        """Every solve of a leaf, in the order of the file (a leaf left
        unknown and settled later by its children counts once here)."""
        return iter(self._solves)

    def under(self, root: str) -> Iterator[Settled]:
        """The solves of the leaves of the searches of ``root``."""
        return (entry for _, entry in self._solves if entry.root == root)

    def __len__(self) -> int:
        return len(self._entries)


def _parse(line: str) -> tuple[str, Settled]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg})") from None
    if not isinstance(data, dict) or set(data) != {"key", "winner", "nodes", "seconds", "root"}:
        raise ValueError("not an object of key, winner, nodes, seconds and root")
    key, winner, nodes, seconds, root = (
        data["key"],
        data["winner"],
        data["nodes"],
        data["seconds"],
        data["root"],
    )
    if not isinstance(key, str) or not key or not isinstance(root, str) or not root:
        raise ValueError("key and root must be position strings")
    if winner not in (0, 1, None) or isinstance(winner, bool):
        raise ValueError(f"winner must be 0, 1 or null, not {shown(winner)}")
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 0 <= nodes <= MAX_SOLVE_NODES:
        raise ValueError(f"nodes must be a count of 0 to {MAX_SOLVE_NODES:,}, not {nodes!r:.40}")
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 <= seconds < float("inf")
    ):
        raise ValueError(f"seconds must be a time, not {seconds!r}")
    return key, Settled(winner, nodes, float(seconds), root)


class _Node:
    __slots__ = (
        "board",
        "children",
        "dirty",
        "disproof",
        "key",
        "mobility",
        "moves",
        "parents",
        "proof",
        "to_act",
        "tried",
        "winner",
    )

    def __init__(self, board: Any, key: str) -> None:
        self.board = board
        self.key = key
        self.to_act = int(board.turn)
        self.winner: int | None = None
        self.tried = False
        self.children: list[_Node] | None = None
        self.moves: list[str] | None = None
        # The expanded nodes with this one among their children, and
        # whether a child's numbers changed since this node's were worked
        # out: an update of a node none of whose children changed is skipped.
        self.parents: list[_Node] = []
        self.dirty = True
        self.mobility = 1
        self.proof = 1
        self.disproof = 1


class LongSolve:
    """The search of one position (``board``, left unchanged) over many
    runs, its settled positions kept in ``progress``.

    :param leaf_nodes: the budget of each leaf's native solve, in positions.
    :param memory: the table of the leaves' solver, in bytes, kept from
        leaf to leaf (:class:`veletas.Solver`).
    :param skip: moves left out at the root (``{"swap"}``: the value if the
        pie is declined).
    :param key: a board's key (default: its position string); positions with
        one key must have one value (its images under the board's symmetries
        may share one).
    :param solve_if: whether a leaf's board is worth a native solve (default:
        every one); a leaf it turns down is expanded at once, as one whose
        solve its budget left unknown. For positions too far from the end
        for ``leaf_nodes`` to settle, whose solves would be spent in vain.
    :param workers: the leaves solved at once, each on a thread with a
        solver of its own (``memory`` each). The winner is the same for any
        number; with more than one, which leaves are solved, and their order
        in the progress file, depend on which solve ends first.
    """

    def __init__(
        self,
        board: Any,
        progress: ProgressFile,
        *,
        leaf_nodes: int = 1_000_000,
        memory: int = 64 << 20,
        skip: Collection[str] = (),
        key: Key | None = None,
        solve_if: Callable[[Any], bool] | None = None,
        workers: int = 1,
    ) -> None:
        if board.is_game_over():
            raise ValueError(f"the game is over in {board.fen()!r}: there is nothing to solve")
        for name, function in (("key", key), ("solve_if", solve_if)):
            if function is not None and not callable(function):
                raise TypeError(f"{name} must be callable, not {type(function).__name__}")
        self.leaf_nodes = check_solve_nodes(leaf_nodes, "leaf_nodes")
        self.memory = check_solver_memory(memory)
        self.workers = check_threads(workers, "workers")
        # The solvers not solving a leaf now, each with its table.
        self._idle = [Solver(memory=self.memory) for _ in range(self.workers)]
        self.progress = progress
        self._key: Key = key if key is not None else _fen
        self._solve_if = solve_if
        self._skip = frozenset(skip)
        self._nodes: dict[str, _Node] = {}
        self.prover = int(board.turn)
        """The side to act at the root (``int(board.turn)``), whose win the
        proof numbers count."""
        self.root_board = board.copy()
        self.root = self._node(board.copy())
        self.leaves = 0
        """The leaves solved by this object's runs."""
        self.searched = 0
        """The positions their solves searched."""
        self._update(self.root)

    @property
    def winner(self) -> int | None:
        """The side that wins with best play (0 or 1, as ``int(board.turn)``),
        or None while unknown."""
        return self.root.winner

    def run(self, seconds: float | None = None, leaves: int | None = None) -> int | None:
        """Search until the root is settled, ``seconds`` pass or ``leaves``
        leaves are solved; the winner, or None. A leaf whose solve the time
        cut short is not recorded, and is solved again by the next run."""
        if seconds is not None:
            seconds = check_seconds(seconds)
        if leaves is not None:
            leaves = check_solve_nodes(leaves, "leaves")
        deadline = None if seconds is None else time.monotonic() + seconds
        stop = None if leaves is None else self.leaves + leaves
        if self.workers > 1:
            return self._run_workers(deadline, stop)
        while self.winner is None and self.leaves != stop:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            path = self._select()
            leaf = path[-1]
            if leaf.winner is not None:
                pass
            elif leaf.tried or (self._solve_if is not None and not self._solve_if(leaf.board)):
                self._expand(leaf)
            elif not self._record(leaf, self._solve(self._idle[0], leaf, left)):
                break
            for node in reversed(path):
                self._update(node)
        return self.winner

    def _run_workers(self, deadline: float | None, stop: int | None) -> int | None:
        """:meth:`run` with ``workers`` leaves solved at once: each free
        worker takes the most-proving leaf not being solved, and each leaf
        solved is recorded, and the tree's numbers worked out again, as its
        solve ends."""
        running: dict[Future[SolveResult], tuple[_Node, list[_Node], Solver]] = {}
        cut_short = False
        with ThreadPoolExecutor(self.workers, thread_name_prefix="long-solve") as pool:
            while True:
                left = None if deadline is None else deadline - time.monotonic()
                # Hand out leaves while workers are free and leaves are left
                # to start (the ones solved so far and running count).
                while (
                    self._idle
                    and self.winner is None
                    and not cut_short
                    and (left is None or left > 0)
                    and (stop is None or self.leaves + len(running) < stop)
                ):
                    path = self._select_free({leaf for leaf, _, _ in running.values()})
                    if path is None:
                        break
                    leaf = path[-1]
                    if leaf.winner is not None:
                        pass
                    elif leaf.tried or (
                        self._solve_if is not None and not self._solve_if(leaf.board)
                    ):
                        self._expand(leaf)
                    else:
                        solver = self._idle.pop()
                        job = pool.submit(self._solve, solver, leaf, left)
                        running[job] = (leaf, path, solver)
                        continue
                    for node in reversed(path):
                        self._update(node)
                if not running:
                    return self.winner
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for job in done:
                    leaf, path, solver = running.pop(job)
                    self._idle.append(solver)
                    if not self._record(leaf, job.result()):
                        cut_short = True
                    for node in reversed(path):
                        self._update(node)

    def _solve(self, solver: Solver, leaf: _Node, left: float | None) -> SolveResult:
        """The native solve of ``leaf`` by ``solver`` within ``left``
        seconds (on a worker's thread, the GIL released)."""
        # The value alone: the proof of a leaf is built when the whole
        # proof is (`proof`), and building it here after a long solve can
        # take far longer than the solve.
        return solver.solve(leaf.board, max_nodes=self.leaf_nodes, seconds=left, max_proof=0)

    def line(self) -> list[str]:
        """A line of moves from the root to a position the tree does not
        expand (a leaf the native solver settled), the winner choosing
        moves it wins with, the loser its first move; empty while the root
        is unknown. It is walked on the boards themselves, since a node
        shared by images of a position holds the moves of one image."""
        winner = self.winner
        board = self.root_board
        moves: list[str] = []
        while winner is not None:
            node = self._nodes.get(self._key(board))
            if node is None or node.children is None:
                break
            for text, after in self._after(board, not moves):
                child = self._nodes.get(self._key(after))
                if int(board.turn) != winner or (child is not None and child.winner == winner):
                    moves.append(text)
                    board = after
                    break
            else:
                break
        return moves

    def proof(self, max_positions: int = MAX_PROOF_POSITIONS) -> Proof | None:
        """The proof of the winner's win from the root (the root's moves in
        ``skip`` left out), put together from the tree and the progress
        file, each leaf the native solver settled solved again with
        ``proof=True``; None while the root is unknown, or once the proof
        passes ``max_positions`` positions or a leaf's solve its budget
        (twice ``leaf_nodes``). Check it with :meth:`check`."""
        winner = self.winner
        if winner is None:
            return None
        builder = _ProofBuilder(self, winner, max_positions)
        try:
            root = builder.build(self.root_board, root=True)
        except _TooBig:
            return None
        return Proof(root)

    def check(self, proof: Proof) -> None:
        """:meth:`Proof.check` of ``proof`` from the root, replayed on the
        reference engine; where the loser acts at the root, each of its
        replies is checked from the position it leads to, since the moves
        in ``skip`` are not answered.

        :raises ProofError: naming the line where it first fails.
        """
        tree = proof.to_dict()
        if "replies" not in tree:
            proof.check(self.root_board)
            return
        for text, node in tree["replies"].items():
            after = self.root_board.copy()
            after.push_str(text)
            try:
                Proof(node).check(after)
            except ProofError as error:
                raise ProofError(f"after {text}: {error}") from None

    def _node(self, board: Any) -> _Node:
        key = self._key(board)
        node = self._nodes.get(key)
        if node is not None:
            return node
        node = _Node(board, key)
        self._nodes[key] = node
        if board.is_game_over():
            self._settle(node, _winner_at_end(board))
            return node
        known = self.progress.get(key)
        if known is not None and known.winner is not None:
            self._settle(node, known.winner)
            return node
        node.tried = known is not None and known.nodes >= self.leaf_nodes
        node.mobility = len(board.legal_moves)
        return node

    def _select(self) -> list[_Node]:
        """The path from the root to the most-proving leaf."""
        node, path = self.root, [self.root]
        while (children := node.children) is not None:
            self._refresh(node)
            if node.winner is not None:
                break
            node = min(children, key=_proof if node.to_act == self.prover else _disproof)
            path.append(node)
        return path

    def _select_free(self, busy: Collection[_Node]) -> list[_Node] | None:
        """The path from the root to the most-proving leaf that is not in
        ``busy`` (leaves being solved), or None without one: a node whose
        best child leads only to busy leaves takes its next best."""
        if not busy:
            return self._select()
        return self._select_from(self.root, busy, set())

    def _select_from(
        self, node: _Node, busy: Collection[_Node], seen: set[int]
    ) -> list[_Node] | None:
        # `seen`: the nodes already searched through on this selection, so
        # that a position shared by several lines is not searched twice.
        if node in busy or id(node) in seen:
            return None
        seen.add(id(node))
        children = node.children
        if children is None:
            return [node]
        self._refresh(node)
        if node.winner is not None:
            return [node]
        numbers = _proof if node.to_act == self.prover else _disproof
        for child in sorted(children, key=numbers):
            if numbers(child) >= INFINITE:
                break
            path = self._select_from(child, busy, seen)
            if path is not None:
                return [node, *path]
        return None

    def _refresh(self, node: _Node) -> None:
        """Works out the numbers of an expanded node's children, then its
        own: a position shared by several lines may have changed under
        another."""
        assert node.children is not None
        for child in node.children:
            self._update(child)
        self._update(node)

    def _record(self, leaf: _Node, result: SolveResult) -> bool:
        """Records the solve of ``leaf``; false if the time cut it short
        (then nothing is recorded, and a later run solves it again)."""
        self.leaves += 1
        self.searched += result.nodes
        if result.value == "unknown" and result.nodes < self.leaf_nodes:
            return False
        if leaf.winner is not None:
            # Settled through the tree while it was being solved.
            return True
        winner = None
        if result.value != "unknown":
            winner = leaf.to_act if result.value == "win" else 1 - leaf.to_act
        self.progress.add(leaf.key, Settled(winner, result.nodes, result.seconds, self.root.key))
        if winner is None:
            leaf.tried = True
        else:
            self._settle(leaf, winner)
        return True

    def _after(self, board: Any, root: bool) -> Iterator[tuple[str, Any]]:
        """Each move of ``board`` (but those of ``skip`` at the root) and the
        board it leads to."""
        for move in board.legal_moves:
            text = str(move)
            if root and text in self._skip:
                continue
            after = board.copy()
            after.push(move)
            yield text, after

    def _expand(self, leaf: _Node) -> None:
        moves, children = [], []
        for text, board in self._after(leaf.board, leaf is self.root):
            moves.append(text)
            child = self._node(board)
            if leaf not in child.parents:
                child.parents.append(leaf)
            children.append(child)
        if not children:
            raise ValueError(f"every move of {self.root.key!r} is left out: nothing to solve")
        leaf.moves, leaf.children = moves, children
        leaf.dirty = True

    def _update(self, node: _Node) -> None:
        if node.winner is not None:
            return
        children = node.children
        numbers = node.proof, node.disproof
        if children is None:
            if node.to_act == self.prover:
                node.proof, node.disproof = 1, node.mobility
            else:
                node.proof, node.disproof = node.mobility, 1
            if (node.proof, node.disproof) != numbers:
                _changed(node)
            return
        if not node.dirty:
            return
        node.dirty = False
        if node.to_act == self.prover:
            node.proof = min(map(_proof, children))
            node.disproof = min(INFINITE, sum(map(_disproof, children)))
        else:
            node.proof = min(INFINITE, sum(map(_proof, children)))
            node.disproof = min(map(_disproof, children))
        if (node.proof, node.disproof) != numbers:
            _changed(node)
        if node.proof == 0 or node.disproof == 0:
            winner = self.prover if node.proof == 0 else 1 - self.prover
            self._settle(node, winner)
            self.progress.add(node.key, Settled(winner, 0, 0.0, self.root.key))

    def _settle(self, node: _Node, winner: int) -> None:
        node.winner = winner
        won = winner == self.prover
        node.proof, node.disproof = (0, INFINITE) if won else (INFINITE, 0)
        _changed(node)
        node.board = None


class _TooBig(Exception):
    """A proof past its limit, or a leaf whose solve ran out."""


class _ProofBuilder:
    """The proof of a settled root, walked on the actual boards (a node of
    the tree may stand for an image of the position reached)."""

    def __init__(self, search: LongSolve, winner: int, max_positions: int) -> None:
        self.search = search
        self.winner = winner
        self.max_positions = max_positions
        self.size = 0
        self.built: dict[str, dict[str, Any]] = {}

    def _count(self, positions: int) -> None:
        self.size += positions
        if self.size > self.max_positions:
            raise _TooBig

    def _known(self, board: Any) -> tuple[int | None, bool]:
        """The winner of ``board`` if settled, and whether the native solver
        settled it (a leaf)."""
        if board.is_game_over():
            return _winner_at_end(board), False
        key = self.search._key(board)
        node = self.search._nodes.get(key)
        if node is not None and node.winner is not None and node.children is not None:
            return node.winner, False
        entry = self.search.progress.get(key)
        if entry is None or entry.winner is None:
            return None, False
        return entry.winner, entry.nodes > 0

    def build(self, board: Any, root: bool = False) -> dict[str, Any]:
        fen = board.fen()
        node = self.built.get(fen)
        if node is not None:
            return node
        if board.is_game_over():
            node = {"won": True}
            self._count(1)
        elif int(board.turn) == self.winner:
            node = self._winning(board, root)
        else:
            replies = {text: self.build(after) for text, after in self.search._after(board, root)}
            node = {"replies": replies}
            self._count(1)
        self.built[fen] = node
        return node

    def _winning(self, board: Any, root: bool) -> dict[str, Any]:
        _, leaf = self._known(board)
        if not leaf:
            for text, after in self.search._after(board, root):
                if self._known(after)[0] == self.winner:
                    self._count(1)
                    return {"move": text, "then": self.build(after)}
        result = solve(
            board,
            max_nodes=2 * self.search.leaf_nodes,
            memory=self.search.memory,
            proof=True,
        )
        if result.value != "win" or result.proof is None or result.proof_size is None:
            raise _TooBig
        self._count(result.proof_size)
        tree: dict[str, Any] = result.proof.to_dict()
        return tree


def _winner_at_end(board: Any) -> int:
    """The winner of an ended game; with none, the side to act has lost (no
    legal move), as the native solver reads it."""
    winner = board.winner
    return 1 - int(board.turn) if winner is None else int(winner)


def _fen(board: Any) -> str:
    return str(board.fen())


def _changed(node: _Node) -> None:
    """Marks the parents of ``node``, whose numbers changed, for an update."""
    for parent in node.parents:
        parent.dirty = True


_proof: Callable[[_Node], int] = attrgetter("proof")
_disproof: Callable[[_Node], int] = attrgetter("disproof")
