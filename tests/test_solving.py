"""``veletas.solve``: the exact solver's values against a plain exhaustive
minimax written here on the reference engine, its proofs checked by
``Proof.check``, and its refusals."""

from __future__ import annotations

import json
import os
import random
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas import games, meridians
from veletas.cli import main
from veletas.errors import LimitError, ProofError
from veletas.solving import Proof, Solver, solve

# Black, with one claim, wins by shooting onto a7.
WIN_IN_ONE = "1o5/sx5/xx5/7/3s3/7/1o3oX b play 3"

BOARDS: dict[str, Callable[[], Any]] = {
    "veletas 5x5/3": lambda: veletas.Board(size=5, shooters=3),
    "veletas 6x6/3": lambda: veletas.Board(size=6, shooters=3),
    "veletas 7x7/3": lambda: veletas.Board(variant="small"),
    "meridians 5-6": lambda: meridians.Board(size="5-6"),
    "meridians 5-6 pie": lambda: meridians.Board(size="5-6", pie=True),
}


SMALL = 8 << 20
"""A table of 8 MiB: plenty for these endgames, and quick to set up."""


class TooBig(Exception):
    """The minimax would take too long: the position is left out."""


def minimax_winner(board: Any, swapped: bool, budget: list[int]) -> int:
    """The seat (0 the first player) that wins ``board`` with perfect play,
    by plain exhaustive search over whole moves on the reference engine; a
    player with no legal move and no winner declared loses."""
    match = games.game_of(board).match
    memo: dict[tuple[str, bool], int] = {}

    def winner(board: Any, swapped: bool) -> int:
        key = (board.fen(), swapped)
        if key in memo:
            return memo[key]
        budget[0] -= 1
        if budget[0] < 0:
            raise TooBig
        me = match.seat_to_act(board, swapped)
        if board.is_game_over():
            won = board.winner
            result = 1 - me if won is None else int(won) ^ swapped
        else:
            result = 1 - me
            for move in board.legal_moves:
                after = board.copy(stack=False)
                after.push(move)
                if winner(after, swapped ^ bool(move.is_swap)) == me:
                    result = me
                    break
        memo[key] = result
        return result

    return winner(board, swapped)


def endgames(kind: str, count: int, seed: int) -> list[Any]:
    """Positions a few moves before the end of random games (native boards,
    their moves on the stack)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = BOARDS[kind]()
        bot = veletas.RandomBot(rng.randrange(1 << 30))
        history = []
        while not board.is_game_over():
            history.append(board.copy())
            board.push(bot.choose(board))
        back = rng.randrange(1, 5)
        if len(history) >= back:
            found.append(history[-back])
    return found


def reference_of(board: Any) -> Any:
    game = games.game_of(board)
    reference = game.reference().Board(board.fen(), **game.options.fen_kwargs(board.rules))
    return reference


COMPARED = int(os.environ.get("VELETAS_SOLVER_POSITIONS", "15"))
"""Positions compared with the minimax for each kind of board: a fast part
by default, 2,000 with ``make test-solver``."""


@pytest.mark.parametrize("kind", list(BOARDS))
def test_the_value_is_the_minimax_value_and_every_proof_checks(kind: str) -> None:
    compared = proofs = 0
    for board in endgames(kind, 3 * COMPARED + 20, seed=len(kind)):
        swapped = any(move.is_swap for move in board.move_stack)
        reference = reference_of(board)
        try:
            expected = minimax_winner(reference, swapped, [4_000])
        except TooBig:
            continue
        # Every other position on two threads, the first decisions shared.
        result = solve(board, proof=True, memory=SMALL, threads=1 + compared % 2)
        to_act = games.game_of(board).match.seat_to_act(board, swapped)
        assert result.value == ("win" if expected == to_act else "loss"), board.fen()
        if result.value == "win":
            assert result.move in board.legal_moves
            assert result.proof is not None
            assert result.proof_size == result.proof.size()
            result.proof.check(board)
            assert str(result.move) == result.proof.to_dict()["move"]
            proofs += 1
        else:
            assert (result.move, result.proof, result.proof_size) == (None, None, None)
        compared += 1
        if compared == COMPARED:
            break
    print(f"{kind}: {compared} positions equal to the minimax, {proofs} proofs checked")
    assert compared == COMPARED, f"only {compared} positions were small enough for the minimax"


def test_a_reference_board_is_solved_alike() -> None:
    native = veletas.Board(WIN_IN_ONE)
    reference = veletas.reference.Board(WIN_IN_ONE)
    solved = solve(reference, proof=True)
    assert (solved.value, str(solved.move)) == ("win", "a6-a7/a6")
    assert isinstance(solved.move, veletas.reference.Move)
    assert solved.proof is not None
    assert solved.proof.to_dict() == solve(native, proof=True).proof.to_dict()  # type: ignore[union-attr]


def test_a_proof_round_trips_through_json() -> None:
    board = endgame_with_a_win()
    proof = solve(board, proof=True).proof
    assert proof is not None
    again = Proof.from_json(proof.to_json())
    assert again.to_dict() == proof.to_dict()
    again.check(board)


def endgame_with_a_win() -> Any:
    """A position won for the player to act in more than one move."""
    for board in endgames("veletas 5x5/3", 200, seed=7):
        result = solve(board, proof=True, memory=SMALL)
        if result.value == "win" and result.proof is not None and result.proof.size() > 3:
            return board
    raise AssertionError("no deeper win among 200 endgames")


def test_a_proof_that_does_not_hold_names_the_line() -> None:
    board = endgame_with_a_win()
    proof = solve(board, proof=True).proof
    assert proof is not None
    tree = json.loads(proof.to_json())
    # The prover's first move replaced by an illegal one.
    bad = {**tree, "move": "a1-a1/a1"}
    with pytest.raises(ProofError, match="at the start: a1-a1/a1 is not a legal move"):
        Proof(bad).check(board)
    # A reply of the opponent left out: the line to it is named.
    node, line = tree, []
    while "replies" not in node:
        line.append(node["move"])
        node = node["then"]
    dropped = sorted(node["replies"])[0]
    del node["replies"][dropped]
    if node["replies"]:
        with pytest.raises(ProofError, match=f"after {' '.join(line)}: the opponent's move"):
            Proof(tree).check(board)
    # A game said won before its end.
    with pytest.raises(ProofError, match="at the start: the game is not over"):
        Proof({"won": True}).check(board)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON"),
        ("[]", "a node must be an object, not list"),
        ('{"move": "a1"}', "not one with keys"),
        ('{"move": "c3-c4/c5", "then": {"won": false}}', "after c3-c4/c5: a node is"),
        ('{"replies": {}}', "not one with keys"),
        ("[" * 100_000, "nested too deep"),
    ],
)
def test_a_proof_file_of_the_wrong_shape_is_refused(text: str, message: str) -> None:
    with pytest.raises(ProofError, match=message):
        Proof.from_json(text)


def test_the_budget_can_run_out() -> None:
    board = veletas.Board(variant="small")
    board.push_str("*c3")
    result = solve(board, max_nodes=50)
    assert (result.value, result.move, result.proof_size) == ("unknown", None, None)
    assert 50 <= result.nodes <= 60


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"seconds": 0}, LimitError, "seconds must be"),
        ({"seconds": float("nan")}, LimitError, "seconds must be"),
        ({"max_nodes": 0}, LimitError, "max_nodes must be 1"),
        ({"max_nodes": 2.5}, TypeError, "max_nodes"),
        ({"memory": 1000}, LimitError, "memory must be 1,048,576 to"),
        ({"memory": 1 << 60}, LimitError, "half of this machine's memory"),
        ({"proof": "yes"}, TypeError, "proof must be a bool"),
        ({"symmetries": 1}, TypeError, "symmetries must be a bool"),
        ({"progress": 3}, TypeError, "progress must be callable"),
        ({"threads": 0}, LimitError, "threads must be 1 to 256, not 0"),
        ({"threads": 1.5}, TypeError, "threads"),
        ({"max_proof": -1}, LimitError, "max_proof must be 0 to 1,000,000, not -1"),
        ({"max_proof": 10**7}, LimitError, "max_proof must be 0 to 1,000,000"),
        ({"max_proof": True}, TypeError, "max_proof"),
        ({"max_proof": 0, "proof": True}, ValueError, "proof=True needs a max_proof above 0"),
    ],
)
def test_bad_arguments_are_refused_by_name(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        solve(veletas.Board(WIN_IN_ONE), **options)


def test_two_threads_find_the_values_of_one_and_proofs_that_check() -> None:
    # Near the ends of random 6x6 games: wins, losses and unknowns alike.
    values = []
    for board in endgames("veletas 6x6/3", 12, seed=9):
        one = solve(board, memory=SMALL, max_nodes=200_000)
        two = solve(board, memory=SMALL, max_nodes=200_000, threads=2, proof=True)
        if "unknown" in (one.value, two.value):
            continue
        assert two.value == one.value, board.fen()
        if two.value == "win":
            assert two.proof is not None
            two.proof.check(board)
            assert two.proof.to_dict()["move"] == str(two.move)
        values.append(two.value)
    assert {"win", "loss"} <= set(values)


@pytest.mark.parametrize("kind", ["veletas 6x6/3", "meridians 5-6"])
def test_without_a_proof_the_value_and_move_are_the_same(kind: str) -> None:
    wins = 0
    for board in endgames(kind, 12, seed=6):
        for threads in (1, 2):
            built = solve(board, memory=SMALL, max_nodes=200_000, threads=threads)
            bare = solve(board, memory=SMALL, max_nodes=200_000, threads=threads, max_proof=0)
            assert bare.value == built.value, board.fen()
            # Two threads take the first win either finds.
            if threads == 1:
                assert bare.move == built.move, board.fen()
            assert bare.proof_size is None
            if built.value == "win":
                wins += 1
                assert built.proof_size is not None
                small = solve(board, memory=SMALL, threads=threads, max_proof=1)
                assert small.value == "win"
                assert small.proof_size is None or small.proof_size <= 1
    assert wins


@pytest.mark.parametrize("kind", ["veletas 5x5/3", "meridians 5-6"])
def test_the_symmetries_change_the_work_not_the_value(kind: str) -> None:
    for board in endgames(kind, 6, seed=4):
        folded = solve(board, memory=SMALL, max_nodes=100_000)
        plain = solve(board, memory=SMALL, max_nodes=100_000, symmetries=False)
        assert folded.value == plain.value, board.fen()


def test_a_budget_stops_every_thread() -> None:
    board = veletas.Board(variant="small")
    board.push_str("*c3")
    result = solve(board, max_nodes=500, threads=2)
    assert (result.value, result.move) == ("unknown", None)
    # Each thread may pass the budget by what it searched since it last
    # looked.
    assert 500 <= result.nodes <= 1000


def test_a_kept_solver_finds_the_values_and_moves_of_fresh_solves() -> None:
    # Both games, several rules and both sides to act through one solver:
    # a board of other rules than the last gets a new table.
    solver = Solver(memory=SMALL)
    kinds = ["veletas 5x5/3", "veletas 6x6/3", "meridians 5-6", "meridians 5-6 pie"]
    boards = [board for kind in kinds for board in endgames(kind, 6, seed=12)]
    random.Random(3).shuffle(boards)
    seen = set()
    for board in boards:
        kept = solver.solve(board, max_nodes=200_000)
        fresh = solve(board, memory=SMALL, max_nodes=200_000)
        if "unknown" in (kept.value, fresh.value):
            continue
        assert kept.value == fresh.value, board.fen()
        if kept.value == "win":
            after = board.copy()
            after.push(kept.move)
            # The move wins: the opponent has lost or cannot win from there.
            assert after.is_game_over() or solve(after, memory=SMALL).value != "win"
        seen.add((kept.value, int(board.turn)))
    assert len(seen) == 4
    assert solver._table is not None
    assert solver._table[0][1] == boards[-1].rules


def test_a_kept_solver_searches_as_a_fresh_one() -> None:
    # Its table emptied before each solve, whatever the earlier ones filed.
    solver = Solver(memory=SMALL)
    for board in endgames("veletas 6x6/3", 8, seed=5):
        for _ in range(2):
            kept = solver.solve(board, max_nodes=100_000)
            fresh = solve(board, memory=SMALL, max_nodes=100_000)
            assert (kept.value, kept.move, kept.nodes) == (fresh.value, fresh.move, fresh.nodes)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"memory": 1000}, LimitError, "memory must be 1,048,576 to"),
        ({"memory": "big"}, TypeError, "memory"),
        ({"symmetries": 1}, TypeError, "symmetries must be a bool"),
    ],
)
def test_a_kept_solver_refuses_bad_options_by_name(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Solver(**options)


def test_a_kept_solver_solves_one_position_at_a_time() -> None:
    solver = Solver(memory=SMALL)
    board = veletas.Board(variant="small")
    board.push_str("*c3")
    started = threading.Event()
    results = []

    def long_solve() -> None:
        results.append(solver.solve(board, seconds=3, progress=lambda *_: started.set()))

    worker = threading.Thread(target=long_solve)
    worker.start()
    assert started.wait(10)
    with pytest.raises(ValueError, match="solving another position"):
        solver.solve(board, max_nodes=10)
    worker.join()
    assert results[0].value == "unknown"
    # Free again, with its table.
    assert solver.solve(board, max_nodes=10).value == "unknown"
    with pytest.raises(TypeError, match="proof must be a bool"):
        solver.solve(board, proof="yes")


def test_a_finished_game_is_refused() -> None:
    with pytest.raises(ValueError, match="the game is over"):
        solve(veletas.Board("1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3"))


# -- veletas solve ------------------------------------------------------------


def test_solve_prints_the_value_and_writes_a_proof_that_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = endgame_with_a_win()
    path = tmp_path / "win.json"
    assert main(["solve", board.fen(), "--size", "5", "--shooters", "3", "--proof", str(path)]) == 0
    out = capsys.readouterr().out
    move = solve(board, memory=SMALL).move
    assert f"wins with {move}" in out
    assert re.search(r"positions searched in [0-9.]+ s; a proof of [0-9,]+ positions", out), out
    Proof.from_json(path.read_text()).check(board)
    # Without --proof, none is built.
    assert main(["solve", board.fen(), "--size", "5", "--shooters", "3"]) == 0
    out = capsys.readouterr().out
    assert f"wins with {move}" in out
    assert re.search(r"searched in [0-9.]+ s; --proof FILE builds and writes its proof", out), out
    # An existing file is kept unless --force.
    assert main(["solve", board.fen(), "--proof", str(path)]) == 2
    assert f"{path} exists: add --force" in capsys.readouterr().err
    assert main(["solve", board.fen(), "--proof", str(path), "--force"]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "7/7/7/7/7/7/7 b setup 3", "--max-nodes", "100"], "unknown, the budget ran out"),
        (["solve", "6/7/8/9/10/10/9/8/7/6 l open", "--max-nodes", "100"], "Light to act"),
    ],
)
def test_solve_says_when_the_budget_ran_out(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    assert message in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3"], "the game is over"),
        (["solve", WIN_IN_ONE, "--memory", "100000000"], "--memory must be 1 to"),
        (["solve", WIN_IN_ONE, "--memory", "0"], "--memory"),
        (["solve", WIN_IN_ONE, "--force"], "--force needs --proof FILE"),
        (["solve", WIN_IN_ONE, "--proof", "x.parquet"], "a proof is JSON"),
        (["solve", "bad"], "a position of no game"),
        (["solve", WIN_IN_ONE, "--seconds", "0"], "--seconds"),
    ],
)
def test_solve_refuses_bad_input_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(argv)
    except SystemExit as raised:  # argparse's refusal
        code = raised.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("name", "value"), [("memory", 1), ("symmetries", "no")])
def test_a_kept_solvers_options_are_read_only(name: str, value: object) -> None:
    # Checked once, when the solver is made: set later, they would not be.
    solver = Solver(memory=SMALL)
    with pytest.raises(AttributeError):
        setattr(solver, name, value)
    assert (solver.memory, solver.symmetries) == (SMALL, True)
