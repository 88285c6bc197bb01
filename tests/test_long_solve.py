"""The long solve (veletas.long_solve) against the one-call solver: the same
winners on endgames of random games when the leaves' budget forces the top
tree to grow, runs that resume from the progress file, and a progress file
that fails its checks refused."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas.errors import InvalidFenError, LimitError, ProgressFileError, ProofError
from veletas.games.veletas.symmetry import canonical_fen, images, openings
from veletas.long_solve import LongSolve, ProgressFile


def endgames(size: int, left: int, count: int, seed: int) -> list[Any]:
    """Positions ``left`` moves before the end of seeded random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = veletas.Board(size=size, shooters=3)
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        moves = board.move_stack
        start = veletas.Board(size=size, shooters=3)
        for move in moves[: max(0, len(moves) - left)]:
            start.push(move)
        if not start.is_game_over():
            found.append(start)
    return found


def winner_of(board: Any) -> int:
    result = veletas.solve(board, max_nodes=3_000_000)
    assert result.value != "unknown"
    to_act = int(board.turn)
    return to_act if result.value == "win" else 1 - to_act


@pytest.mark.parametrize("size", [5, 6, 7])
def test_the_winner_is_the_one_call_solvers(size: int, tmp_path: Path) -> None:
    for number, board in enumerate(endgames(size, 5, 6, seed=size)):
        fen = board.fen()
        progress = ProgressFile(tmp_path / f"{number}.jsonl")
        search = LongSolve(board, progress, leaf_nodes=30)
        assert search.run() == winner_of(board), fen
        assert board.fen() == fen
        # The line is legal, and the winner's moves in it win.
        after = board.copy()
        for move in search.line():
            after.push_str(move)
        assert search.line() == [] or search.leaves > 0
        proof = search.proof()
        assert proof is not None
        search.check(proof)
        if search.winner == int(board.turn):
            proof.check(board)


def test_leaves_turned_down_are_expanded_without_a_solve(tmp_path: Path) -> None:
    for number, board in enumerate(endgames(5, 6, 4, seed=11)):
        turned_down: set[str] = set()

        def two_moves_in(
            leaf: Any, base: int = len(board.move_stack), seen: set[str] = turned_down
        ) -> bool:
            if len(leaf.move_stack) - base < 2:
                seen.add(leaf.fen())
                return False
            return True

        progress = ProgressFile(tmp_path / f"{number}.jsonl")
        search = LongSolve(board, progress, leaf_nodes=30, solve_if=two_moves_in)
        assert search.run() == winner_of(board), board.fen()
        assert turned_down, "the root itself is turned down"
        solved = {key for key, _ in progress.solves()}
        assert solved
        assert not solved & turned_down
        proof = search.proof()
        assert proof is not None
        search.check(proof)


def test_a_stopped_run_goes_on_where_it_stopped(tmp_path: Path) -> None:
    board = endgames(6, 7, 1, seed=11)[0]
    path = tmp_path / "progress.jsonl"
    first = LongSolve(board, ProgressFile(path), leaf_nodes=20)
    assert first.run(leaves=5) is None
    assert first.leaves == 5
    lines = path.read_text().splitlines()
    assert lines, "a run records what it settled"
    resumed = LongSolve(board, ProgressFile(path), leaf_nodes=20)
    assert resumed.run() == winner_of(board)

    # The resumed run solves no leaf again (a leaf left unknown may be
    # settled later by its children, a line with no positions searched).
    def leaves(lines: list[str]) -> list[str]:
        entries = [json.loads(line) for line in lines]
        return [entry["key"] for entry in entries if entry["nodes"] > 0]

    added = leaves(path.read_text().splitlines()[len(lines) :])
    assert added
    assert not set(leaves(lines)) & set(added)
    assert len(set(added)) == len(added)
    again = LongSolve(board, ProgressFile(path), leaf_nodes=20)
    assert again.winner == resumed.winner
    assert again.leaves == 0


@pytest.mark.parametrize("size", [5, 6])
def test_workers_find_the_one_call_solvers_winner(size: int, tmp_path: Path) -> None:
    for number, board in enumerate(endgames(size, 5, 4, seed=size)):
        path = tmp_path / f"{number}.jsonl"
        search = LongSolve(board, ProgressFile(path), leaf_nodes=30, workers=3)
        assert search.run() == winner_of(board), board.fen()
        # No leaf is solved twice, though three are at once (a line of no
        # positions records a position settled through the tree).
        entries = [json.loads(line) for line in path.read_text().splitlines()]
        solved = [entry["key"] for entry in entries if entry["nodes"] > 0]
        assert solved
        assert len(set(solved)) == len(solved)
        proof = search.proof()
        assert proof is not None
        search.check(proof)


def test_workers_solve_leaves_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The root's solve comes first, alone; the two after it, from its
    # children, wait for each other: with two workers they meet, one after
    # the other they would not.
    meet = threading.Barrier(2, timeout=30)
    solve = LongSolve._solve
    calls = []

    def meeting(self: LongSolve, *args: Any) -> Any:
        calls.append(threading.current_thread().name)
        if 2 <= len(calls) <= 3:
            meet.wait()
        return solve(self, *args)

    monkeypatch.setattr(LongSolve, "_solve", meeting)
    board = endgames(6, 7, 1, seed=11)[0]
    search = LongSolve(board, ProgressFile(tmp_path / "p.jsonl"), leaf_nodes=20, workers=2)
    assert search.run() == winner_of(board)
    assert len(set(calls[1:3])) == 2


def test_workers_stop_in_time_and_resume(tmp_path: Path) -> None:
    board = endgames(6, 7, 1, seed=11)[0]
    path = tmp_path / "progress.jsonl"
    first = LongSolve(board, ProgressFile(path), leaf_nodes=20, workers=2)
    assert first.run(leaves=6) is None
    assert 6 <= first.leaves < 8
    resumed = LongSolve(board, ProgressFile(path), leaf_nodes=20, workers=2)
    assert resumed.run() == winner_of(board)
    keys = [json.loads(line)["key"] for line in path.read_text().splitlines()]
    searched = [json.loads(line) for line in path.read_text().splitlines()]
    solved = [entry["key"] for entry in searched if entry["nodes"] > 0]
    assert len(set(solved)) == len(solved), "a leaf was solved twice"
    assert keys
    # A run out of time records no solve that the time cut short.
    hard = veletas.Board(size=6, shooters=3)
    late = tmp_path / "late.jsonl"
    started = time.monotonic()
    assert LongSolve(hard, ProgressFile(late), workers=2).run(seconds=0.5) is None
    assert time.monotonic() - started < 30
    for line in late.read_text().splitlines() if late.exists() else []:
        entry = json.loads(line)
        assert entry["winner"] is not None or entry["nodes"] >= 1_000_000


def test_a_settled_root_needs_no_search(tmp_path: Path) -> None:
    board = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    path = tmp_path / "p.jsonl"
    assert LongSolve(board, ProgressFile(path), leaf_nodes=1_000).run() == 0
    assert LongSolve(board, ProgressFile(path)).winner == 0


def test_moves_left_out_at_the_root(tmp_path: Path) -> None:
    board = veletas.Board("5/5/1xs2/5/5 w pie 3", size=5, shooters=3)
    search = LongSolve(board, ProgressFile(tmp_path / "p.jsonl"), leaf_nodes=10, skip={"swap"})
    search.run(leaves=50)
    assert search.root.moves is not None
    assert "swap" not in search.root.moves
    with pytest.raises(ValueError, match="left out"):
        LongSolve(
            veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3"),
            ProgressFile(tmp_path / "q.jsonl"),
            leaf_nodes=1,
            skip={str(m) for m in veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3").legal_moves},
        ).run()


def _images_by_definition(fen: str) -> list[str]:
    """The images of ``fen`` square by square: the turns, then the same
    after a mirror, each board field written out again."""
    board, _, rest = fen.partition(" ")
    grid: list[list[str]] = []
    for rank in board.split("/"):
        row: list[str] = []
        for char in re.findall(r"\d+|\D", rank):
            row.extend("." * int(char) if char.isdigit() else char)
        grid.append(row)
    size = len(grid)
    found = []
    for mirrored in (False, True):
        turned = [
            [grid[r][size - 1 - c] if mirrored else grid[r][c] for c in range(size)]
            for r in range(size)
        ]
        for _ in range(4):
            field = "/".join(
                "".join(
                    str(len(part)) if part[0] == "." else part
                    for part in re.findall(r"\.+|[^.]", "".join(row))
                )
                for row in turned
            )
            found.append(f"{field} {rest}")
            turned = [[turned[size - 1 - c][r] for c in range(size)] for r in range(size)]
    return found


def test_the_images_are_those_of_each_square() -> None:
    rng = random.Random(3)
    for rules in ({"size": 5, "shooters": 3}, {"size": 7, "shooters": 3}, {}):
        for _ in range(10):
            board = veletas.Board(**rules)
            while not board.is_game_over():
                assert images(board.fen()) == _images_by_definition(board.fen()), board.fen()
                board.push(rng.choice(list(board.legal_moves)))


def test_the_native_key_is_the_references() -> None:
    native = pytest.importorskip("veletas._veletas")
    rng = random.Random(4)
    for rules in ({"size": 5, "shooters": 3}, {"size": 6, "shooters": 3}, {"variant": "small"}, {}):
        for _ in range(5):
            board = veletas.Board(**rules)
            while not board.is_game_over():
                fen = board.fen()
                assert native.canonical_fen(fen) == min(images(fen)), fen
                board.push(rng.choice(list(board.legal_moves)))
    # Empty squares written as dots or with leading zeros, odd pieces, no rest.
    odd = (
        "x.../.s../..../...o rest",
        "04/1x02/4/4",
        "ab/cd",
        "9Q/10/10/10/10/10/10/10/10/10 b",
        "0" * 5000 + "5/5/5/5/5 w",
    )
    for fen in odd:
        assert native.canonical_fen(fen) == min(images(fen)), fen


BAD_FIELDS = (
    "",
    "5/5/5 w pie 3",
    "5/5/5/5/6 w pie 3",
    "5/5/5/5/4 w pie 3",
    "99999999999999999999/5/5/5/5 w",
    "1" * 5000 + "/5/5/5/5 w",
    "5/5/5/5/4\u00e9 w",
    "/".join(["11"] * 11) + " b",
)


@pytest.mark.parametrize("fen", BAD_FIELDS)
def test_a_field_that_is_not_square_is_refused_by_both(fen: str) -> None:
    with pytest.raises(InvalidFenError, match=re.escape(repr(fen))):
        min(images(fen))
    native = pytest.importorskip("veletas._veletas")
    with pytest.raises(InvalidFenError, match=re.escape(repr(fen))):
        native.canonical_fen(fen)


def test_the_keys_fold_the_symmetries(tmp_path: Path) -> None:
    fen = "5/5/2s2/2x2/5 w pie 3"
    found = images(fen)
    assert len(found) == 8
    assert found[0] == fen
    assert {canonical_fen(image) for image in found} == {canonical_fen(fen)}
    # A 90-degree turn moves the stone from below the shooter to its side.
    assert any(
        image.startswith("5/5/1xs2/5/5") or image.startswith("5/5/2sx1/5/5") for image in found
    )
    assert [len(openings(size=size, shooters=3)) for size in (5, 6)] == [33, 75]
    board = veletas.Board(openings(size=5, shooters=3)[0], size=5, shooters=3)
    search = LongSolve(
        board,
        ProgressFile(tmp_path / "p.jsonl"),
        leaf_nodes=10,
        skip={"swap"},
        key=lambda b: canonical_fen(b.fen()),
    )
    search.run(leaves=50)
    # White's shooters on squares that mirror each other are one node.
    assert search.root.children is not None
    assert len({id(child) for child in search.root.children}) < len(search.root.children)


HUGE_NODES = '{{"key": "k", "winner": 0, "nodes": 1{}, "seconds": 0, "root": "r"}}'


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("not json", "not JSON"),
        ('["a"]', "not an object"),
        ('{"key": "k", "winner": 2, "nodes": 1, "seconds": 0, "root": "r"}', "winner"),
        ('{"key": "k", "winner": true, "nodes": 1, "seconds": 0, "root": "r"}', "winner"),
        ('{"key": "k", "winner": 0, "nodes": -1, "seconds": 0, "root": "r"}', "nodes"),
        ('{"key": "k", "winner": 0, "nodes": 1, "seconds": "x", "root": "r"}', "seconds"),
        ('{"key": "", "winner": 0, "nodes": 1, "seconds": 0, "root": "r"}', "key"),
        ('{"key": "k", "winner": 0, "nodes": 1, "seconds": 0}', "not an object"),
        (HUGE_NODES.format("0" * 30), "nodes must be a count"),
        (HUGE_NODES.format("0" * 5000), "digits"),
        ("x" * 65536, "not JSON"),
    ],
)
def test_a_bad_progress_line_is_refused(tmp_path: Path, line: str, names: str) -> None:
    path = tmp_path / "progress.jsonl"
    good = '{"key": "k", "winner": null, "nodes": 5, "seconds": 0.5, "root": "r"}'
    path.write_text(f"{good}\n{line}\n")
    with pytest.raises(ProgressFileError, match=f"progress.jsonl, line 2: .*{names}"):
        ProgressFile(path)
    assert path.read_text() == f"{good}\n{line}\n"


def test_a_progress_file_of_other_bytes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    good = b'{"key": "k", "winner": null, "nodes": 5, "seconds": 0.5, "root": "r"}\n'
    path.write_bytes(good + b"\xff\xfe" + good[2:])
    with pytest.raises(ProgressFileError, match=r"progress.jsonl, line 2: .*utf-8"):
        ProgressFile(path)


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    progress = ProgressFile(tmp_path / "p.jsonl")
    board = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    with pytest.raises(LimitError, match=r"leaf_nodes must be 1 to .*, not 0"):
        LongSolve(board, progress, leaf_nodes=0)
    with pytest.raises(TypeError, match="leaf_nodes must be an int"):
        LongSolve(board, progress, leaf_nodes=True)
    with pytest.raises(LimitError, match="memory"):
        LongSolve(board, progress, memory=1)
    with pytest.raises(LimitError, match=r"leaves must be 1 to .*, not 0"):
        LongSolve(board, progress).run(leaves=0)
    with pytest.raises(LimitError, match=r"workers must be 1 to .*, not 0"):
        LongSolve(board, progress, workers=0)
    with pytest.raises(TypeError, match="workers must be an int"):
        LongSolve(board, progress, workers=2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="solve_if must be callable, not int"):
        LongSolve(board, progress, solve_if=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key must be callable, not str"):
        LongSolve(board, progress, key="fen")  # type: ignore[arg-type]
    over = veletas.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    over.push_str("a6-a7/a6")
    with pytest.raises(ValueError, match="over"):
        LongSolve(over, progress)


def test_the_proof_of_a_resumed_solve_holds(tmp_path: Path) -> None:
    board = endgames(6, 7, 1, seed=11)[0]
    path = tmp_path / "progress.jsonl"
    LongSolve(board, ProgressFile(path), leaf_nodes=20).run()
    resumed = LongSolve(board, ProgressFile(path), leaf_nodes=20)
    assert resumed.root.children is None
    proof = resumed.proof()
    assert proof is not None
    resumed.check(proof)
    assert resumed.proof(max_positions=proof.size() - 1) is None


def test_a_proof_with_moves_left_out_at_the_root(tmp_path: Path) -> None:
    # The loser acts at the root: its replies are checked one by one, since
    # the moves left out are not answered.
    for fen in ("5/5/1xs2/5/5 w pie 3",):
        board = veletas.Board(fen, size=5, shooters=3)
        search = LongSolve(board, ProgressFile(tmp_path / "p.jsonl"), skip={"swap"})
        assert search.proof() is None  # unknown yet
    winners = set()
    for board in endgames(5, 4, 8, seed=5):
        moves = [str(m) for m in board.legal_moves]
        search = LongSolve(
            board, ProgressFile(tmp_path / f"{board.fen()}.jsonl"), leaf_nodes=10, skip=moves[2:]
        )
        winner = search.run()
        winners.add(winner == int(board.turn))
        proof = search.proof()
        assert proof is not None
        search.check(proof)
        tree = proof.to_dict()
        if winner == int(board.turn):
            assert tree["move"] in moves[:2]
        else:
            assert list(tree["replies"]) == moves[:2]
            with pytest.raises(ProofError, match="the prover is to act"):
                proof.check(board)
    assert winners == {True, False}


def test_a_leaf_settled_later_by_its_children_counts_its_solve_once(tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    path.write_text(
        '{"key": "k", "winner": null, "nodes": 5, "seconds": 0.5, "root": "r"}\n'
        '{"key": "k", "winner": 1, "nodes": 0, "seconds": 0, "root": "r"}\n'
        '{"key": "j", "winner": 0, "nodes": 7, "seconds": 0.25, "root": "s"}\n'
    )
    progress = ProgressFile(path)
    known = progress.get("k")
    assert known is not None
    assert known.winner == 1
    assert [entry.nodes for entry in progress.under("r")] == [5]
    assert [key for key, _ in progress.solves()] == ["k", "j"]
    assert len(progress) == 2


@pytest.mark.parametrize(
    "fen",
    [
        "5/ooxoo/ososo/2s2/1x1x1 w play 3",
        "xxxxx/1xox1/1sxs1/1xsx1/oxoxo b play 3",
        "1o1o1/oosoo/xs1sx/x3x/2o2 w play 3",
    ],
)
def test_the_line_is_played_on_the_boards_when_images_share_a_node(
    tmp_path: Path, fen: str
) -> None:
    # Boards symmetric under a mirror: with the symmetries folded, a node
    # holds the moves of the first image that reached it, and the line must
    # still be legal from the root.
    board = veletas.Board(fen, size=5, shooters=3)
    search = LongSolve(
        board,
        ProgressFile(tmp_path / "p.jsonl"),
        leaf_nodes=10,
        key=lambda b: canonical_fen(b.fen()),
    )
    assert search.run() == winner_of(board)
    line = search.line()
    assert len(line) >= 3
    after = board.copy()
    for move in line:
        after.push_str(move)
    proof = search.proof()
    assert proof is not None
    search.check(proof)
