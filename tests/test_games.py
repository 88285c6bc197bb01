"""The conformance suite of the registry: for every game of
:data:`veletas.games.GAMES`, its room provides the contract, and every
generic flow runs end to end on it (playouts and their Parquet file,
records, drawing, the report, a match, the terminal, the page, OpenSpiel,
PettingZoo, VectorEnv). A game added to the registry is tested here with no
new test code; each run is small (the game's quick rules, a few games)."""

from __future__ import annotations

import inspect
import random
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import veletas
from veletas import games, records
from veletas.cli import draw, main

GAMES = list(games.GAMES)


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> games.Game:
    found: games.Game = games.get(request.param)
    return found


def quick_games(game: games.Game, n: int = 12, **more: Any) -> Any:
    return game.playouts.playouts(n, seed=5, record=True, **game.options.QUICK, **more)


def quick_flags(game: games.Game) -> list[str]:
    flags = ["--game", game.name]
    for name, value in game.options.QUICK.items():
        flags += ["--" + name.replace("_", "-"), str(value)]
    return flags


# ----------------------------------------------------------------------
# The contract


def test_the_room_provides_every_member_of_the_contract(game: games.Game) -> None:
    assert games.missing(game) == []


def test_the_room_names_its_game(game: games.Game) -> None:
    assert game.name == game.playouts.GAME
    assert game.title == game.records.GAME
    assert games.by_title(game.title) is game
    assert games.game_of(game.api().Board()) is game
    assert games.game_of(game.reference().Board()) is game


def test_a_title_of_no_game_is_refused_by_name() -> None:
    with pytest.raises(
        ValueError, match=r"unknown game 'Chess'; expected 'Veletas' or 'Meridians'"
    ):
        games.by_title("Chess")


def test_the_rules_options_are_keywords_of_the_board(game: games.Game) -> None:
    keywords = inspect.signature(game.playouts.playouts).parameters
    for option in game.options.RULES:
        assert option.name in keywords, option.name
        assert option.flag == "--" + option.name.replace("_", "-")
    board = game.api().Board(**game.options.QUICK)
    assert not board.is_game_over()


def test_the_contracts_members_are_documented_once() -> None:
    for protocol in games.PROTOCOLS.values():
        assert protocol.__doc__
        assert games.members(protocol), protocol


def test_adding_a_third_game_lists_exactly_the_contracts_members() -> None:
    page = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text()
    steps = page.split("## Adding a third game", 1)[1]
    for module, protocol in games.PROTOCOLS.items():
        item = re.search(rf"- `{module}\.py` \(`{protocol.__name__}`\): (.*?);?\n   -", steps, re.S)
        assert item is not None, module
        listed = re.findall(r"`(\w+)`", item.group(1))
        assert sorted(listed) == games.members(protocol), module


def rust_trait_items(source: str, trait: str) -> tuple[set[str], set[str]]:
    """The items of a Rust trait: all of them, and those without a default."""
    body = re.search(rf"pub trait {trait}\b[^{{]*\{{\n(.*?)\n\}}", source, re.S)
    assert body is not None, trait
    items = re.findall(r"^    (?:fn|type|const) (\w+)[^\n]*", body.group(1), re.M)
    lines = re.findall(r"^    (?:fn|type|const) \w+[^\n]*", body.group(1), re.M)
    required = set()
    for name, line in zip(items, lines, strict=True):
        # A default has a body: `{` on the line of its signature, or `=` for a const.
        if not (line.rstrip().endswith("{") or " = " in line):
            required.add(name)
    return set(items), required


def test_adding_a_third_game_lists_the_rust_traits_a_room_implements() -> None:
    root = Path(__file__).parent.parent
    steps = (root / "docs" / "architecture.md").read_text().split("## Adding a third game", 1)[1]
    rust_step = steps.split("\n3. ", 1)[0]
    for path, trait in [
        ("rust/src/game.rs", "Game"),
        ("rust/src/game.rs", "MovePosition"),
        ("rust/src/player.rs", "Turns"),
    ]:
        everything, required = rust_trait_items((root / path).read_text(), trait)
        item = re.search(rf"`(?:\w+::)?{trait}` \((.*?)\)", rust_step, re.S)
        assert item is not None, trait
        listed = set(re.findall(r"`(\w+)`", item.group(1)))
        assert required <= listed <= everything, (trait, required - listed, listed - everything)


def test_a_room_lacking_a_member_is_found_wanting(monkeypatch: pytest.MonkeyPatch) -> None:
    game = games.get(games.DEFAULT)
    monkeypatch.delattr(game.match, "seat_to_act")
    assert games.missing(game) == ["match.seat_to_act"]


# ----------------------------------------------------------------------
# The generic flows


def test_playouts_replay_and_summarise(game: games.Game) -> None:
    played = quick_games(game)
    assert len(played) == 12
    assert played.game == game.name
    assert set(played.columns) == set(game.playouts.COLUMNS)
    for i in range(len(played)):
        board = played.board(i)
        assert board.is_game_over()
        assert board.winner == played.winner[i].item()
    summary = played.summary()
    assert summary["games"] == 12
    assert summary["game"] == game.name
    again = game.playouts.reference_playouts(12, seed=5, record=True, **game.options.QUICK)
    np.testing.assert_array_equal(again.winner, played.winner)
    np.testing.assert_array_equal(again.plies, played.plies)


def test_playouts_round_trip_through_parquet(game: games.Game, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="the data extra is not installed")
    played = quick_games(game)
    path = tmp_path / "games.parquet"
    played.to_parquet(path)
    back = veletas.read_playouts(path)
    assert back.game == played.game
    assert back.rules == played.rules
    for name in ("winner", "swapped", "plies", *played.columns):
        np.testing.assert_array_equal(getattr(back, name), getattr(played, name))
    assert back.moves is not None
    assert played.moves is not None
    assert back.moves.tolist() == played.moves.tolist()


def test_records_round_trip(game: games.Game) -> None:
    played = quick_games(game, 4)
    text = records.write([played.record(i) for i in range(len(played))])
    back = records.read(text)
    assert [record.game for record in back] == [game.title] * len(played)
    assert [record.board().fen() for record in back] == [
        played.board(i).fen() for i in range(len(played))
    ]
    # A record written from a board reads back to that board.
    board = played.board(0)
    [again] = records.read(records.write([records.GameRecord.from_board(board)]))
    assert again.board().fen() == board.fen()
    assert again.rules == game.records.board_rules(board)


def test_drawing(game: games.Game) -> None:
    board = quick_games(game, 1).board(0)
    picture = veletas.svg.board(board)
    assert picture.startswith("<svg")
    assert picture == game.draw(board)
    flipped = veletas.svg.board(board, flipped=True, lastmove=board.peek())
    assert flipped.startswith("<svg")
    assert flipped != picture


def test_report(game: games.Game, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the report extra is not installed")
    played = quick_games(game, 40)
    out = veletas.report(played, tmp_path / "report.html", title=f"{game.title} check")
    page = out.read_text()
    assert f"{game.title} check" in page
    for figure in game.report.FIGURES:
        assert f"figure-{figure}" in page


def test_match(game: games.Game) -> None:
    result = veletas.match("random", "greedy", 4, game=game.name, seed=2, **game.options.QUICK)
    assert result.game == game.name
    assert len(result.games) == 4
    assert all(g.winner in (0, 1) for g in result.games)


def test_match_games_are_records(game: games.Game) -> None:
    result = veletas.match("random", "random", 2, game=game.name, seed=1, **game.options.QUICK)
    written = records.read(records.write(list(result.records())))
    assert [record.game for record in written] == [game.title] * 2
    assert all(record.board().is_game_over() for record in written)


def test_terminal(game: games.Game, capsys: pytest.CaptureFixture[str]) -> None:
    board = game.api().Board(**game.options.QUICK)
    rng = random.Random(3)
    while not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        assert draw.describe(board, move)
        assert draw.board_text(board, color=True, lastmove=move)
    assert draw.status_text(board, {})
    assert game.terminal.score_text(board)
    assert main(["show", board.fen(), "--game", game.name, "--no-color"]) == 0
    assert board.fen() not in capsys.readouterr().err


def test_the_command_line_plays_and_counts(game: games.Game, capsys) -> None:
    assert main(["playout", "--games", "20", "--json", *quick_flags(game)]) == 0
    assert '"games": 20' in capsys.readouterr().out
    assert main(["perft", "1", *quick_flags(game)]) == 0
    assert "perft(1) = " in capsys.readouterr().out
    assert main(["play", *quick_flags(game), "--bot", "random", "--bot2", "random"]) == 0
    assert re.search(r"Result (1-0|0-1)", capsys.readouterr().out)


def test_page(game: games.Game) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient
    from veletas.serve import Settings, create_app

    web = game.web_game()
    settings = Settings(max_games=4, bot_workers=1)
    client = TestClient(create_app(settings), base_url="http://127.0.0.1:8000")
    with client:
        offered = [entry["name"] for entry in client.get("/api/info").json()["games"]]
        if web is None:
            assert game.name not in offered
            return
        assert game.name in offered
        body = {"game": game.name, "seconds": 0.02, "seat": "watch", **game.options.QUICK}
        response = client.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        state = response.json()
        assert state["game"] == game.name
        game.api().Board(state["view"]["fen"])  # the page's position is the game's
        [record] = records.read(client.get(f"/api/games/{state['id']}/record").text)
        assert record.game == game.title


def test_openspiel(game: games.Game) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import veletas.openspiel  # noqa: F401  (registers the games)

    spiel = pyspiel.load_game(game.name)
    pyspiel.random_sim_test(spiel, num_sims=2, serialize=False, verbose=False)


def test_pettingzoo(game: games.Game) -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from pettingzoo.test import api_test
    from veletas import pettingzoo

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pettingzoo.env(game=game.name, **game.options.QUICK), num_cycles=200)
    # api_test's only notes are of the dict observation PettingZoo's board games use too.
    notes = {str(warning.message) for warning in caught}
    assert notes <= {
        "Observation is not a NumPy array",
        "Observation space for each agent probably should be gymnasium.spaces.box or "
        "gymnasium.spaces.discrete",
    }


def test_vector_env(game: games.Game) -> None:
    env = veletas.VectorEnv(3, game=game.name, seed=4, **game.options.QUICK)  # type: ignore[arg-type]
    assert isinstance(env, veletas.VectorEnv)
    obs, mask, _ = env.reset()
    assert obs.shape == (3, *env.observation_shape)
    assert mask.shape == (3, env.num_actions)
    finished = 0
    for _ in range(2_000):
        _, _, _, terminated, _ = env.step(env.random_actions())
        finished += int(terminated.sum())
        if finished >= 3:
            break
    assert finished >= 3
