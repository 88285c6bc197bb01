"""Batch playouts exported as game records: written, read back, replayed."""

from __future__ import annotations

import pytest
import veletas
from veletas import records

RULE_OPTIONS = [
    pytest.param("perimeter", False, id="perimeter+pass"),
    pytest.param("spacing", False, id="spacing+pass"),
    pytest.param("perimeter", True, id="perimeter+block"),
    pytest.param("spacing", True, id="spacing+block"),
]


@pytest.mark.parametrize("variant", ["standard", "medium", "small"])
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_exported_games_read_back_to_the_same_games(
    variant: str, setup_rule: str, shooters_block: bool
) -> None:
    games = veletas.playouts(
        12,
        variant=variant,
        setup_rule=setup_rule,
        shooters_block=shooters_block,
        seed=3,
        threads=1,
        record=True,
    )
    text = records.write([games.record(i) for i in range(len(games))])
    read = records.read(text)
    assert len(read) == len(games)
    for i, record in enumerate(read):
        board = record.board()
        assert board.fen() == games.board(i).fen()
        assert int(board.winner) == games.winner[i]
        assert record.tags["Result"] == ("1-0" if games.winner[i] == 0 else "0-1")
        assert record.tags["Swapped"] == ("true" if games.swapped[i] else "false")
        assert record.tags["PlayoutGame"] == str(i)
        assert record.tags["PlayoutSeed"] == "3"
        assert record.rules == games.rules
        assert "FEN" not in record.tags
        assert len(record.moves) == games.plies[i]


def test_games_from_a_position_name_it_and_keep_its_swap() -> None:
    board = veletas.Board(variant="small")
    for text in ["*d4", "a1", "swap"]:
        board.push_str(text)
    games = veletas.playouts(4, start=board, seed=1, record=True)
    for i in range(len(games)):
        record = games.record(i)
        assert record.tags["FEN"] == board.fen()
        assert record.tags["Swapped"] == "true"
        (again,) = records.read(records.write([record]))
        assert again.board().fen() == games.board(i).fen()


def test_a_run_without_records_cannot_export() -> None:
    games = veletas.playouts(2, variant="small")
    with pytest.raises(ValueError, match="record"):
        games.record(0)
