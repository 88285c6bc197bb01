"""The ``claimed_shooters_block`` option where rule options travel: equality
and hashing, bad values, records, playouts, the decision state, the
vector env and OpenSpiel's parameters."""

from __future__ import annotations

import io
from types import ModuleType

import pytest
import veletas
from veletas import InvalidRecordError, InvalidRulesError, records
from veletas.games.veletas.encoding import openspiel_start

# A claimed shooter on d4 on the diagonal of the shooter on c3.
FEN = "6s/7/7/3O3/2s4/7/x5o b play 3"


def test_the_option_is_part_of_the_board(backend: ModuleType) -> None:
    default = backend.Board(FEN)
    board = backend.Board(FEN, claimed_shooters_block=True)
    assert board.rules.claimed_shooters_block
    assert not default.rules.claimed_shooters_block
    assert board != default
    assert board == backend.Board(FEN, claimed_shooters_block=True)
    assert len(board.legal_moves) < len(default.legal_moves)
    assert "claimed_shooters_block=True" in repr(board)
    assert board.copy() == board
    assert board.copy().rules == board.rules
    assert hash(board) == hash(backend.Board(FEN, claimed_shooters_block=True))


@pytest.mark.parametrize("value", [1, "yes", None])
def test_a_bad_value_is_a_typed_error(backend: ModuleType, value: object) -> None:
    with pytest.raises(InvalidRulesError, match="claimed_shooters_block must be a bool"):
        backend.Board(claimed_shooters_block=value)
    with pytest.raises(InvalidRulesError, match="claimed_shooters_block must be a bool"):
        backend.Board(FEN, claimed_shooters_block=value)


def test_records_carry_the_option_in_a_tag() -> None:
    board = veletas.Board(FEN, claimed_shooters_block=True)
    board.push_str("c3-c2/c1")
    text = records.write([records.GameRecord.from_board(board, start=FEN)])
    assert '[ClaimedShootersBlock "true"]' in text
    [again] = records.read(io.StringIO(text))
    assert again.rules.claimed_shooters_block
    assert again.board() == board
    default = records.write([records.GameRecord.from_board(veletas.Board(variant="small"))])
    assert "ClaimedShootersBlock" not in default
    bad = text.replace('[ClaimedShootersBlock "true"]', '[ClaimedShootersBlock "yes"]')
    with pytest.raises(InvalidRecordError, match="ClaimedShootersBlock"):
        records.read(io.StringIO(bad))


@pytest.mark.parametrize("policy", ["micro", "uniform"])
def test_playouts_play_under_the_option(policy: str) -> None:
    games = veletas.playouts(40, variant="small", policy=policy, claimed_shooters_block=True)
    assert games.rules.claimed_shooters_block
    python = veletas.reference.playouts(
        40, variant="small", policy=policy, claimed_shooters_block=True
    )
    assert (games.winner == python.winner).all()
    assert (games.plies == python.plies).all()
    with pytest.raises(InvalidRulesError, match="claimed_shooters_block=True"):
        veletas.playouts(1, start=veletas.Board(FEN), claimed_shooters_block=True)


@pytest.mark.native
def test_decision_states_envs_and_openspiel_keep_the_option() -> None:
    board = veletas.Board(FEN, claimed_shooters_block=True)
    state = veletas.DecisionState(board)
    assert state.board == board
    assert "claimed_shooters_block=True" in repr(state)
    env = veletas.VectorEnv(2, variant="small", claimed_shooters_block=True)
    assert env.rules.claimed_shooters_block
    assert "claimed_shooters_block=True" in repr(env)
    with pytest.raises(InvalidRulesError, match="claimed_shooters_block"):
        veletas.VectorEnv(1, start=board, variant="small")
    assert openspiel_start({"claimed_shooters_block": True}).board.rules.claimed_shooters_block
