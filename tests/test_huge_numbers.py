"""An int too long to print (Python prints at most 4,300 digits) passed as a
count, a seed, a size, a square or a depth: refused with the error that
names the argument, the value shown by its number of digits, by the native
core and the reference engines alike, never the interpreter's own
``ValueError`` about printing ints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas import meridians, reference
from veletas._checks import shown
from veletas.bots import MctsBot
from veletas.errors import InvalidMoveError, InvalidRulesError, LimitError
from veletas.games.meridians import reference as meridians_reference

HUGE = 10**5000

CASES: dict[str, tuple[Callable[[], Any], type[Exception], str]] = {
    "solver memory": (lambda: veletas.Solver(memory=HUGE), LimitError, "memory"),
    "solve memory": (lambda: veletas.solve(veletas.Board(), memory=-HUGE), LimitError, "memory"),
    "solve nodes": (
        lambda: veletas.solve(veletas.Board(), max_nodes=HUGE),
        LimitError,
        "max_nodes",
    ),
    "solve seconds": (lambda: veletas.solve(veletas.Board(), seconds=HUGE), LimitError, "seconds"),
    "solve proof": (
        lambda: veletas.solve(veletas.Board(), max_proof=HUGE),
        LimitError,
        "max_proof",
    ),
    "playouts": (lambda: veletas.playouts(HUGE), LimitError, "n_games"),
    "negative playouts": (lambda: veletas.playouts(-HUGE), ValueError, "n_games"),
    "playout seed": (lambda: veletas.playouts(3, seed=HUGE), ValueError, "seed"),
    "meridians playouts": (lambda: meridians.playouts(HUGE), LimitError, "n_games"),
    "bot seed": (lambda: MctsBot(seed=HUGE), ValueError, "seed"),
    "bot iterations": (lambda: MctsBot(iterations=HUGE), LimitError, "iterations"),
    "bot seconds": (lambda: MctsBot(seconds=HUGE), LimitError, "seconds"),
    "bot threads": (lambda: MctsBot(threads=HUGE), LimitError, "threads"),
    "match seed": (
        lambda: veletas.match("random", "random", 2, seed=HUGE, variant="small"),
        ValueError,
        "seed",
    ),
    "vector env": (lambda: veletas.VectorEnv(HUGE), LimitError, "num_envs"),
    "native vector env": (lambda: veletas.VectorEnv(-HUGE), ValueError, "num_envs"),
    "vector env seed": (lambda: veletas.VectorEnv(2, seed=HUGE), ValueError, "seed"),
    "rules size": (lambda: veletas.Rules.make(size=HUGE, shooters=3), InvalidRulesError, "size"),
    "rules shooters": (
        lambda: veletas.Rules.make(size=7, shooters=-HUGE),
        InvalidRulesError,
        "shooter",
    ),
    "square": (lambda: veletas.square(HUGE, 0), ValueError, "file"),
    "square name": (lambda: veletas.square_name(HUGE), ValueError, "square"),
    "perft": (lambda: veletas.Board().perft(-HUGE), ValueError, "depth"),
    "piece at": (lambda: veletas.Board().piece_at(HUGE), ValueError, "square"),
    "move": (
        lambda: veletas.Move(origin=HUGE, destination=2, target=3),
        InvalidMoveError,
        "origin",
    ),
    "reference perft": (lambda: reference.Board().perft(-HUGE), ValueError, "depth"),
    "reference piece at": (lambda: reference.Board().piece_at(HUGE), ValueError, "square"),
    "reference move": (
        lambda: reference.Move(origin=HUGE, destination=2, target=3),
        InvalidMoveError,
        "origin",
    ),
    "meridians perft": (lambda: meridians.Board().perft(-HUGE), ValueError, "depth"),
    "meridians piece at": (lambda: meridians.Board().piece_at(HUGE), InvalidMoveError, "point"),
    "meridians reference perft": (
        lambda: meridians_reference.Board().perft(-HUGE),
        ValueError,
        "depth",
    ),
    "meridians reference piece at": (
        lambda: meridians_reference.Board().piece_at(HUGE),
        InvalidMoveError,
        "point",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_int_too_long_to_print_is_refused_by_name(case: str) -> None:
    call, error, name = CASES[case]
    with pytest.raises(error) as raised:
        call()
    message = str(raised.value)
    assert name in message
    assert "an int of 5,001 digits" in message or "an int of 5,000 digits" in message


SHOWN = [
    (12, "12"),
    (-(2**127), "-170141183460469231731687303715884105728"),
    (2**128, "an int of 39 digits"),
    (10**39 - 1, "an int of 39 digits"),
    (10**39, "an int of 40 digits"),
    (10**5000 - 1, "an int of 5,000 digits"),
    (-(10**5000), "minus an int of 5,001 digits"),
    ("x", "'x'"),
]


# Ids by position: pytest's own ids print the value.
@pytest.mark.parametrize(("value", "text"), SHOWN, ids=[str(n) for n in range(len(SHOWN))])
def test_a_long_int_is_shown_by_its_digits(value: object, text: str) -> None:
    assert shown(value) == text
