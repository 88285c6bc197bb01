"""Shared helpers of the RL adapter tests: rule configurations and random
games walked decision by decision."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import veletas
from veletas import Board, DecisionState

VARIANTS = ["small", "medium", "standard"]

RULE_OPTIONS = [
    pytest.param("perimeter", False, id="perimeter+pass"),
    pytest.param("spacing", False, id="spacing+pass"),
    pytest.param("perimeter", True, id="perimeter+block"),
    pytest.param("spacing", True, id="spacing+block"),
]


def new_board(variant: str, setup_rule: str = "perimeter", shooters_block: bool = False) -> Board:
    return veletas.Board(variant=variant, setup_rule=setup_rule, shooters_block=shooters_block)


def random_turns(board: Board, seed: int) -> Iterator[tuple[Board, DecisionState]]:
    """The start of every turn of a game of random moves from ``board``:
    yields a copy of the board and the decision state of its turn."""
    rng = random.Random(seed)
    board = board.copy()
    while True:
        yield board.copy(), DecisionState(board)
        moves = list(board.legal_moves)
        if not moves:
            return
        board.push(rng.choice(moves))


def random_decisions(board: Board, seed: int) -> Iterator[DecisionState]:
    """Every decision of a game of random actions from ``board``, the
    finished state last."""
    rng = random.Random(seed)
    state = DecisionState(board)
    while True:
        yield state.copy()
        actions = state.legal_actions()
        if not actions:
            return
        state.apply(rng.choice(actions))
