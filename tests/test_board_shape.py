"""The boards of both games, on both engines, share one shape where the
concept is shared: ``rules``, ``piece_map()``, and squares (points) given by
number or by name."""

from __future__ import annotations

import random
from typing import Any

import pytest
from veletas import games
from veletas.errors import InvalidMoveError

ENGINES = ("api", "reference")

# A position with pieces of every kind, per game, and a name off its board.
POSITIONS = {
    "veletas": ("2s4/7/1xs4/7/4o2/7/s5x w play 3", "h1"),
    "meridians": ("x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play", "a8"),
}


def board_type(game: str, engine: str) -> Any:
    room = games.get(game)
    if engine == "api":
        pytest.importorskip("veletas._veletas", reason="the extension is not built")
        return room.api().Board
    return room.reference().Board


def names(game: str) -> Any:
    """The game's numbers-to-names function."""
    return games.get(game).api().point_name if game == "meridians" else _square_name


def _square_name(sq: int) -> str:
    from veletas import square_name

    return square_name(sq)


def random_board(game: str, engine: str, seed: int) -> Any:
    board = board_type(game, engine)()
    rng = random.Random(seed)
    for _ in range(rng.randrange(40)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    return board


# Rules other than the defaults, per game: the board's options and what
# ``rules`` must say of them.
RULES = {
    "veletas": ({"size": 7, "shooters": 3}, {"size": 7, "shooters": 3}),
    "meridians": ({"size": "5-6", "pie": True}, {"size": "5-6", "pie": True}),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game", list(games.GAMES))
def test_rules_are_the_rules_the_board_was_made_with(game: str, engine: str) -> None:
    options, expected = RULES[game]
    rules = board_type(game, engine)(**options).rules
    assert type(rules) is games.get(game).room("types").Rules
    assert {name: getattr(rules, name) for name in expected} == expected
    copied = board_type(game, engine)(board_type(game, engine)(**options).fen(), **options)
    assert copied.rules == rules


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game", list(games.GAMES))
def test_piece_map_agrees_with_piece_at_by_number_and_by_name(game: str, engine: str) -> None:
    name_of = names(game)
    for seed in range(12):
        board = random_board(game, engine, seed)
        pieces = board.piece_map()
        assert list(pieces) == sorted(pieces)
        for number in range(100 if game == "veletas" else 196):
            try:
                at = board.piece_at(number)
            except ValueError:
                assert number not in pieces
                continue
            assert pieces.get(number) == at
            assert board.piece_at(name_of(number)) == at


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game", list(games.GAMES))
def test_a_name_off_the_board_is_refused_by_name(game: str, engine: str) -> None:
    fen, off_board = POSITIONS[game]
    board = board_type(game, engine)(fen)
    with pytest.raises(InvalidMoveError, match=f"'{off_board}' is not on"):
        board.piece_at(off_board)
    with pytest.raises(InvalidMoveError, match="'z9'"):
        board.piece_at("z9")


@pytest.mark.parametrize("engine", ENGINES)
def test_veletas_reach_takes_a_name(engine: str) -> None:
    board = board_type("veletas", engine)(POSITIONS["veletas"][0])
    for sq in board.pieces(board.piece_at("c5")):
        assert board.reach(_square_name(sq)) == board.reach(sq)
    with pytest.raises(InvalidMoveError, match="'h1' is not on"):
        board.reach("h1")
