"""The JSON API of ``veletas serve`` under Starlette's test client: every
endpoint, every refusal (4xx with the engine's message, never a 500), the
limits, and the Host and Origin checks."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
import veletas
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from veletas import records
from veletas.games.veletas.web import GAME

from .conftest import ORIGIN, wait_until

FAST = {"variant": "small", "seconds": 0.02}
HOST = {"host": "127.0.0.1:8000"}


def new(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={**FAST, **params})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def get(client: TestClient, game_id: str, **query: Any) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params=query)
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def post(client: TestClient, game_id: str, action: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def refused(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    for word in words:
        assert word in message, (word, message)
    return message


def my_turn(client: TestClient, game_id: str) -> dict[str, Any]:
    """The state once the bot has moved and it is the person's turn (or the game is over)."""
    state: dict[str, Any] = wait_until(
        lambda: (s := get(client, game_id))["view"]["to_act"] != "bot" and not s["thinking"] and s,
        "the bot's move",
    )
    return state


def board_of(state: dict[str, Any]) -> Any:
    board = veletas.Board(
        state["start"],
        setup_rule=state["options"]["setup_rule"],
        shooters_block=state["options"]["shooters_block"],
    )
    for text in state["moves"]:
        board.push_str(text)
    return board


# -- the game family ---------------------------------------------------------


def test_info_lists_the_games_their_options_and_the_limits(client: TestClient) -> None:
    info = client.get("/api/info").json()
    veletas_info = next(game for game in info["games"] if game["name"] == "veletas")
    assert veletas_info["seats"] == ["black", "white", "watch"]
    names = [field["name"] for field in veletas_info["fields"]]
    assert names == [
        "variant",
        "size",
        "shooters",
        "setup_rule",
        "shooters_block",
        "claimed_shooters_block",
    ]
    assert info["limits"]["max_games"] == 20
    assert info["limits"]["bot_workers"] == 2
    # Every game offered names its options by the registry's web module.
    for game in info["games"]:
        assert veletas.games.get(game["name"]).web_game() is not None


def test_a_bare_new_game_is_the_standard_game_with_you_as_black(client: TestClient) -> None:
    response = client.post("/api/games", content=b"")
    assert response.status_code == 201
    state = response.json()
    assert state["game"] == "veletas"
    assert state["options"] == {
        "variant": "standard",
        "setup_rule": "perimeter",
        "shooters_block": False,
        "claimed_shooters_block": False,
    }
    assert state["seat"] == "black"
    assert state["bot"]["seconds"] == 1.0
    view = state["view"]
    assert view["fen"] == veletas.Board().fen()
    assert view["to_act"] == "human"
    assert view["status"]["turn"] == "black"
    assert view["svg"].count("data-square=") == 100
    # The clicks are the legal placements.
    assert set(view["clicks"]["next"].values()) == {str(m) for m in veletas.Board().legal_moves}
    assert state["params"]["id"] == state["id"]


def test_options_arrive_as_text_as_query_parameters_do(client: TestClient) -> None:
    state = new(
        client,
        variant="custom",
        size="8",
        shooters="5",
        setup_rule="spacing",
        shooters_block="true",
        seconds="0.05",
        seat="white",
        seed="3",
    )
    assert state["options"] == {
        "variant": "custom",
        "size": 8,
        "shooters": 5,
        "setup_rule": "spacing",
        "shooters_block": True,
        "claimed_shooters_block": False,
    }
    assert state["params"]["seconds"] == 0.05
    # The bot holds Black, so it moves first.
    state = my_turn(client, state["id"])
    assert state["moves"]
    assert board_of(state).rules.setup_rule == "spacing"


SMALL = "7/7/7/7/7/7/7 b setup 3"
BAD_RECORD = '[Variant "small"]\n[Result "*"]\n\n1. k1 *'


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"variant": "huge"}, 400, ["'huge'", "standard"]),
        ({"colour": "red"}, 400, ["'colour'", "variant"]),
        ({"variant": "custom", "size": 12, "shooters": 3}, 400, ["12", "5 <= N <= 10"]),
        ({"variant": "custom", "size": 7}, 400, ["both size and shooters"]),
        ({"variant": "small", "size": 7}, 400, ["size and shooters go with variant 'custom'"]),
        ({"variant": "custom", "size": "seven", "shooters": 3}, 400, ["'seven'"]),
        ({"shooters_block": "maybe"}, 400, ["'maybe'"]),
        ({"setup_rule": "corners"}, 400, ["'corners'"]),
        ({"seat": "red"}, 400, ["'red'", "'watch'"]),
        ({"seconds": 0}, 400, ["seconds", "1e-06 or more"]),
        ({"seconds": 1e-320}, 400, ["seconds", "1e-320", "1e-06 or more"]),
        ({"seconds": "1_0"}, 400, ["seconds", "'1_0'"]),
        ({"seconds": "inf"}, 400, ["seconds", "'inf'"]),
        ({"iterations": "1_000"}, 400, ["iterations", "'1_000'"]),
        ({"seed": "1_0"}, 400, ["seed", "'1_0'"]),
        ({"seconds": "nan"}, 400, ["seconds"]),
        ({"seconds": "fast"}, 400, ["'fast'"]),
        ({"seconds": 100}, 400, ["100", "--max-seconds"]),
        ({"iterations": 0}, 400, ["iterations", "1 or more"]),
        ({"iterations": "many"}, 400, ["'many'"]),
        ({"iterations": 10**9}, 400, ["--max-iterations"]),
        ({"seed": -1}, 400, ["seed"]),
        ({"seed": [1]}, 400, ["seed", "list"]),
        ({"game": "chess"}, 400, ["'chess'", "'veletas'"]),
        ({"position": "7/7/7/7/7/7/7 x setup 3"}, 400, ["'x'"]),
        ({"position": SMALL, "variant": "medium"}, 400, ["medium"]),
        ({"record": BAD_RECORD}, 400, ["line 4", "'k1'"]),
        ({"record": BAD_RECORD, "variant": "small"}, 400, ["'variant'", "leave out"]),
        ({"record": BAD_RECORD, "position": SMALL}, 400, ["not both"]),
    ],
)
def test_bad_options_are_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], status: int, words: list[str]
) -> None:
    refused(client.post("/api/games", json=body), status, *words)
    assert client.get("/api/info").json()["limits"]["games"] == 0


def test_a_game_starts_from_a_position_string(client: TestClient) -> None:
    fen = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    state = new(client, position=fen, variant=None)
    assert state["start"] == fen
    assert state["options"]["variant"] == "small"
    assert state["view"]["fen"] == fen
    assert state["view"]["status"]["phase"] == "play"
    post(client, state["id"], "moves", move="b4-b7/a7")
    record = client.get(f"/api/games/{state['id']}/record").text
    [game] = records.read(record)
    assert game.start == fen
    assert [str(m) for m in game.moves][:1] == ["b4-b7/a7"]


def test_a_game_starts_from_a_record(client: TestClient) -> None:
    board = veletas.Board(variant="medium")
    bot = veletas.RandomBot(5)
    for _ in range(12):
        board.push(bot.choose(board))
    text = records.write([records.GameRecord.from_board(board, black="a", white="b")])
    response = client.post("/api/games", json={"record": text, "seconds": 0.02, "seat": "watch"})
    assert response.status_code == 201, response.text
    state = response.json()
    assert state["options"]["variant"] == "medium"
    assert state["moves"][:12] == [str(m) for m in board.move_stack]


# -- moves ---------------------------------------------------------------------


def test_moves_are_played_and_the_bot_replies(client: TestClient) -> None:
    state = new(client)
    game_id = state["id"]
    response = post(client, game_id, "moves", move="*d4")
    assert response.status_code == 200
    assert response.json()["moves"] == ["*d4"]
    post(client, game_id, "moves", move="c3")
    state = my_turn(client, game_id)
    assert state["moves"][:2] == ["*d4", "c3"]
    assert len(state["moves"]) >= 3  # the bot swapped or placed
    assert board_of(state).fen() == state["view"]["fen"]


def test_bad_and_illegal_moves_get_the_engines_message(client: TestClient) -> None:
    game_id = new(client)["id"]
    refused(post(client, game_id, "moves", move="k1"), 400, "invalid move 'k1'")
    refused(post(client, game_id, "moves", move="*a1"), 400, "illegal move '*a1'", "perimeter")
    refused(post(client, game_id, "moves", move=""), 400, "''")
    refused(post(client, game_id, "moves", move=7), 400, '{"move": "d4-d7/f9"}')
    refused(post(client, game_id, "moves"), 400, "give the move")
    refused(post(client, game_id, "moves", move="*d4", ply=3), 400, "ply", "0 to 0")
    refused(post(client, game_id, "moves", move="*d4", ply=True), 400, "ply")
    refused(post(client, game_id, "moves", move="*d4", ply="x"), 400, "ply")
    assert get(client, game_id)["moves"] == []


def test_a_move_on_the_bots_turn_is_refused(client: TestClient) -> None:
    state = new(client, seat="white", seconds=5)
    game_id = state["id"]
    refused(post(client, game_id, "moves", move="*d4"), 409, "the bot's turn")
    assert post(client, game_id, "stop").json() == {"stopped": True}


def test_playing_from_an_earlier_position_drops_the_later_moves(client: TestClient) -> None:
    game_id = new(client)["id"]
    post(client, game_id, "moves", move="*d4")
    post(client, game_id, "moves", move="c3")
    my_turn(client, game_id)
    response = post(client, game_id, "moves", move="*e4", ply=0)
    assert response.status_code == 200
    assert response.json()["moves"] == ["*e4"]


def test_undo_takes_back_your_move_and_the_reply(client: TestClient) -> None:
    game_id = new(client)["id"]
    refused(post(client, game_id, "undo"), 409, "no move of yours")
    for move in ("*d4", "c3"):
        post(client, game_id, "moves", move=move)
    state = my_turn(client, game_id)
    assert len(state["moves"]) > 2
    state = post(client, game_id, "undo").json()
    assert state["moves"] == ["*d4"]
    assert state["view"]["to_act"] == "human"
    watch = new(client, seat="watch", iterations=20)
    refused(post(client, watch["id"], "undo"), 409, "the bot plays both sides")


def test_truncate_goes_on_from_an_earlier_position(client: TestClient) -> None:
    game_id = new(client, seat="white")["id"]
    state = my_turn(client, game_id)
    bot_moves = len(state["moves"])
    assert bot_moves >= 1
    state = post(client, game_id, "truncate", ply=0).json()
    # At the start the bot is to act again: it replays its setup.
    state = my_turn(client, game_id)
    assert len(state["moves"]) == bot_moves
    refused(post(client, game_id, "truncate"), 400, "ply")
    refused(post(client, game_id, "truncate", ply=99), 400, "ply")


def test_the_views_of_earlier_positions(client: TestClient) -> None:
    game_id = new(client)["id"]
    for move in ("*d4", "c3"):
        post(client, game_id, "moves", move=move)
    state = my_turn(client, game_id)
    first = get(client, game_id, ply=1)
    assert first["view"]["ply"] == 1
    assert first["view"]["lastmove"] == "*d4"
    assert first["view"]["fen"] == "7/7/7/3s3/7/7/7 b setup 3"
    assert first["view"]["clicks"] is not None  # you may play on from there
    flipped = get(client, game_id, ply=1, flipped="true")
    assert flipped["view"]["svg"] != first["view"]["svg"]
    assert get(client, game_id, ply=0)["view"]["lastmove"] is None
    refused(
        client.get(f"/api/games/{game_id}", params={"ply": len(state["moves"]) + 1}), 400, "ply"
    )
    refused(client.get(f"/api/games/{game_id}", params={"ply": "-1"}), 400, "ply")


def test_resigning_ends_the_game_and_the_record_says_so(client: TestClient) -> None:
    game_id = new(client)["id"]
    post(client, game_id, "moves", move="*d4")
    state = post(client, game_id, "resign").json()
    assert state["over"]
    assert state["result"] == {"winner": "white", "termination": "resignation"}
    assert state["view"]["to_act"] is None
    refused(post(client, game_id, "moves", move="c3"), 409, "resigned")
    refused(post(client, game_id, "resign"), 409, "over")
    refused(post(client, game_id, "hint"), 409, "over")
    [game] = records.read(client.get(f"/api/games/{game_id}/record").text)
    assert game.result == "0-1"
    assert game.tags["Termination"] == "resignation"
    # Taking the move back takes the resignation back too.
    state = post(client, game_id, "undo").json()
    assert not state["over"]
    watch = new(client, seat="watch", iterations=20)
    refused(post(client, watch["id"], "resign"), 409, "no side")


def test_a_whole_game_against_the_bot_ends_with_a_result(client: TestClient) -> None:
    game_id = new(client, seed=4)["id"]
    rng = random.Random(4)
    state = get(client, game_id)
    while not state["over"]:
        board = board_of(state)
        move = rng.choice(list(board.legal_moves))
        assert post(client, game_id, "moves", move=str(move)).status_code == 200
        state = my_turn(client, game_id)
    board = board_of(state)
    assert board.is_game_over()
    assert state["result"]["winner"] == str(board.winner)
    refused(post(client, game_id, "moves", move="a1"), 409, "over")
    [game] = records.read(client.get(f"/api/games/{game_id}/record").text)
    assert game.board().fen() == board.fen()
    assert game.result == {"black": "1-0", "white": "0-1"}[state["result"]["winner"]]


def test_the_bot_plays_both_sides_for_watching(client: TestClient) -> None:
    game_id = new(client, seat="watch", iterations=30, seconds=None)["id"]
    state = wait_until(lambda: (s := get(client, game_id))["over"] and s, "the end of the game")
    assert state["view"]["to_act"] is None
    assert board_of(state).is_game_over()
    assert state["bot"] == {"name": "mcts (30 iterations)", "seconds": None, "iterations": 30}


# -- the bot's search ------------------------------------------------------------


def test_stop_makes_the_bot_play_at_once(client: TestClient) -> None:
    game_id = new(client, seat="white", seconds=60)["id"]
    wait_until(lambda: get(client, game_id)["thinking"] == "move", "the bot to think")
    assert post(client, game_id, "stop").json() == {"stopped": True}
    # The bot moves long before its 60 seconds (or the wait fails).
    state = wait_until(
        lambda: (s := get(client, game_id))["moves"] and s, "the stopped bot's move", timeout=30
    )
    assert len(state["moves"]) >= 1
    # Black's setup is a shooter and a stone: the second search is stopped too.
    wait_until(
        lambda: (
            post(client, game_id, "stop").json() == {"stopped": False}
            and get(client, game_id)["view"]["to_act"] == "human"
        ),
        "your turn",
        timeout=30,
    )


def test_an_undo_while_the_bot_thinks_drops_its_search(client: TestClient) -> None:
    game_id = new(client, seconds=60)["id"]
    post(client, game_id, "moves", move="*d4")
    post(client, game_id, "moves", move="c3")
    wait_until(lambda: get(client, game_id)["thinking"] == "move", "the bot to think")
    state = post(client, game_id, "undo").json()
    assert state["moves"] == ["*d4"]
    state = wait_until(lambda: (s := get(client, game_id))["thinking"] is None and s, "the stop")
    assert state["moves"] == ["*d4"]


def test_hints_are_legal_moves_with_shares_and_values(client: TestClient) -> None:
    fen = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    game_id = new(client, position=fen, variant=None, iterations=2000, seconds=None)["id"]
    hint = post(client, game_id, "hint", top=4).json()
    board = veletas.Board(fen)
    assert hint["ply"] == 0
    assert len(hint["moves"]) == 4
    assert hint["iterations"] >= 2000
    for entry in hint["moves"]:
        move = veletas.Move.parse(entry["move"])
        assert move in board.legal_moves
        assert entry["squares"] == GAME.squares(board, move)
        assert 0 < entry["share"] <= 1
        assert 0 <= entry["value"] <= 1
    shares = [entry["share"] for entry in hint["moves"]]
    assert shares == sorted(shares, reverse=True)
    assert get(client, game_id)["moves"] == []  # nothing played
    refused(post(client, game_id, "hint", top=0), 400, "top")
    refused(post(client, game_id, "hint", top="3"), 400, "top")
    bots_turn = new(client, seat="white", seconds=30)["id"]
    refused(post(client, bots_turn, "hint"), 409, "thinking")
    post(client, bots_turn, "stop")


def test_searches_wait_their_turn_for_a_worker(make_client: Any) -> None:
    client = make_client(bot_workers=1)
    ids = [new(client, seat="watch", iterations=20, seconds=None)["id"] for _ in range(3)]
    for game_id in ids:
        wait_until(lambda game_id=game_id: get(client, game_id)["over"], "every watched game")


# -- clicks ------------------------------------------------------------------------


def test_refused_clicks_are_explained(client: TestClient) -> None:
    game_id = new(client, position="7/2x4/7/1s5/7/o1s2s1/7 b play 3", variant=None)["id"]

    def explain(*clicks: str) -> str:
        response = post(client, game_id, "explain", clicks=list(clicks))
        assert response.status_code == 200, response.text
        message: str = response.json()["message"]
        return message

    assert "empty" in explain("d4")
    assert "holds a stone" in explain("c6")
    assert "does not reach d3" in explain("b4", "d3")
    assert "taken" in explain("b4", "c2")
    assert "does not reach" in explain("b4", "b4", "g7")
    assert "k9" in explain("k9")
    assert "not a square" in explain("b4", "swap")
    setup = new(client)["id"]
    message = post(client, setup, "explain", clicks=["a1"]).json()["message"]
    assert message == "a1 is not open to a shooter under 'perimeter'"
    refused(post(client, game_id, "explain"), 400, "clicks")
    refused(post(client, game_id, "explain", clicks=["a1"] * 9), 400, "clicks")
    refused(post(client, game_id, "explain", clicks=[3]), 400, "clicks")


def spelled_moves(node: Any, depth: int = 0) -> set[str]:
    """The moves at the leaves of a click tree (at most three clicks deep)."""
    assert depth <= 3
    spelled = set()
    for value in node["next"].values():
        if isinstance(value, str):
            spelled.add(value)
        else:
            assert value["prompt"]
            spelled |= spelled_moves(value, depth + 1)
    return spelled


def test_the_click_tree_spells_every_legal_move_and_nothing_else(client: TestClient) -> None:
    bot = veletas.RandomBot(2)
    for variant, rules in (("small", {}), ("medium", {"shooters_block": True})):
        board = veletas.Board(variant=variant, **rules)
        while not board.is_game_over():
            spelled = spelled_moves(GAME.clicks(board))
            assert spelled == {str(m) for m in board.legal_moves}, board.fen()
            board.push(bot.choose(board))
        assert GAME.clicks(board)["next"] == {}


# -- records, deletion, limits -----------------------------------------------------


def test_the_record_is_a_download_in_the_record_format(client: TestClient) -> None:
    game_id = new(client)["id"]
    post(client, game_id, "moves", move="*d4")
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert response.headers["content-disposition"] == (
        f'attachment; filename="veletas-{game_id}.txt"'
    )
    [game] = records.read(response.text)
    assert next(str(m) for m in game.moves) == "*d4"
    assert game.tags["Black"] == "you"


def test_a_deleted_or_unknown_game_is_a_404(client: TestClient) -> None:
    game_id = new(client)["id"]
    assert client.delete(f"/api/games/{game_id}").status_code == 204
    for method, path in [
        ("GET", ""),
        ("DELETE", ""),
        ("POST", "/moves"),
        ("POST", "/undo"),
        ("POST", "/truncate"),
        ("POST", "/resign"),
        ("POST", "/stop"),
        ("POST", "/hint"),
        ("POST", "/explain"),
        ("GET", "/record"),
    ]:
        response = client.request(method, f"/api/games/{game_id}{path}", json={"ply": 0})
        refused(response, 404, repr(game_id), "minutes")


def test_a_full_server_refuses_new_games_and_recovers(make_client: Any) -> None:
    client = make_client(max_games=2)
    first = new(client)["id"]
    new(client)
    refused(client.post("/api/games", json=FAST), 503, "2 games", "--max-games")
    client.delete(f"/api/games/{first}")
    new(client)


def test_idle_games_expire(make_client: Any) -> None:
    client = make_client(idle_seconds=0.2)
    game_id = new(client)["id"]
    # /api/info does not visit the game (a GET of the game would keep it).
    wait_until(lambda: client.get("/api/info").json()["limits"]["games"] == 0, "expiry")
    refused(client.get(f"/api/games/{game_id}"), 404, "minutes")


def test_a_full_server_first_drops_expired_games(make_client: Any) -> None:
    client = make_client(max_games=1, idle_seconds=0.05)
    new(client)
    wait_until(lambda: client.get("/api/info").json()["limits"]["games"] == 0, "expiry")
    new(client)


def test_settings_are_checked() -> None:
    from veletas.serve import Settings

    with pytest.raises(ValueError, match="max_games"):
        Settings(max_games=0)
    with pytest.raises(ValueError, match="idle_seconds"):
        Settings(idle_seconds=float("inf"))


# -- malformed requests ----------------------------------------------------------


def test_malformed_and_oversized_bodies_are_refused(make_client: Any) -> None:
    client = make_client(max_body=1000)
    headers = {"content-type": "application/json"}
    refused(client.post("/api/games", content=b"{", headers=headers), 400, "not JSON")
    refused(client.post("/api/games", content=b"\xff\xfe", headers=headers), 400, "not JSON")
    refused(client.post("/api/games", content=b"[1, 2]", headers=headers), 400, "JSON object")
    refused(client.post("/api/games", content=b'"small"', headers=headers), 400, "JSON object")
    big = json.dumps({"position": "x" * 2000}).encode()
    refused(client.post("/api/games", content=big, headers=headers), 413, "1000 bytes")

    def chunks() -> Any:
        for _ in range(20):
            yield b" " * 100

    # Without a Content-Length, the body is counted as it arrives.
    refused(client.post("/api/games", content=chunks(), headers=headers), 413, "1000 bytes")
    game_id = new(client)["id"]
    refused(post(client, game_id, "moves", move="x" * 1200), 413, "1000 bytes")


def test_no_junk_gets_a_500(client: TestClient) -> None:
    game_id = new(client)["id"]
    rng = random.Random(0)
    junk: list[Any] = [
        None,
        True,
        -1,
        10**30,
        1.5,
        "",
        "x",
        "*",
        "a1",
        [],
        {},
        ["a1"],
        {"a": 1},
        "\u0000",
        "a1" * 50,
        "swap",
        "keep",
        float("1e308"),
    ]
    keys = [
        "move",
        "ply",
        "top",
        "clicks",
        "flipped",
        "variant",
        "seat",
        "seconds",
        "iterations",
        "seed",
        "position",
        "record",
        "game",
        "size",
        "shooters",
    ]
    paths = ["/api/games"] + [
        f"/api/games/{game_id}/{action}"
        for action in ("moves", "undo", "truncate", "hint", "explain", "stop")
    ]
    for _ in range(300):
        body = {rng.choice(keys): rng.choice(junk) for _ in range(rng.randrange(4))}
        path = rng.choice(paths)
        response = client.post(path, json=body)
        assert response.status_code < 500, (path, body, response.text)
        if response.status_code >= 400:
            assert response.json()["error"]
        post(client, game_id, "stop")
        if path.endswith(("moves", "truncate")) and response.status_code == 200:
            state = get(client, game_id)
            assert board_of(state).fen() == state["view"]["fen"]


def test_unknown_paths_and_methods(client: TestClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404
    assert response.json() == {"error": "Not Found"}
    response = client.put("/api/games")
    assert response.status_code == 405
    assert response.json()["error"]
    assert client.get("/nothing").status_code == 404


# -- the page and its files -------------------------------------------------------


def test_the_page_and_its_files_come_from_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert 'id="move-input"' in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # no CDN
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    for name, kind in [("app.js", "javascript"), ("style.css", "text/css"), ("favicon.svg", "svg")]:
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        assert kind in response.headers["content-type"]
    # No address beyond the server: the one URL of the script is the SVG
    # namespace, a name that is never fetched.
    script = client.get("/static/app.js").text
    assert re.findall(r"[a-z]+://[^\s\"'`]*", script) == ["http://www.w3.org/2000/svg"]
    assert "://" not in client.get("/static/style.css").text


@pytest.mark.parametrize(
    "path",
    [
        "/static/../sessions.py",
        "/static/%2e%2e/sessions.py",
        "/static/..%2fsessions.py",
        "/static/%2e%2e%2f%2e%2e%2f__init__.py",
        "/static//etc/passwd",
        "/static/../../../../etc/passwd",
        "/static/",
    ],
)
def test_no_file_outside_the_static_folder_is_served(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "import" not in response.text
    assert "root:" not in response.text


# -- Host and Origin ------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "10.1.2.3:8000", "localhost"]
)
def test_requests_to_this_machines_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/info", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example:8000", "rebind.attacker.test", "", "127.0.0.1.nip"])
def test_requests_for_other_host_names_are_refused(client: TestClient, host: str) -> None:
    refused(client.get("/api/info", headers={"host": host}), 403, "Host")
    refused(client.post("/api/games", json=FAST, headers={"host": host}), 403, "Host")
    assert client.get("/api/info").json()["limits"]["games"] == 0


def test_allowed_host_names_are_served(make_client: Any) -> None:
    client = make_client(allowed_hosts=("veletas.lan",))
    assert client.get("/api/info", headers={"host": "veletas.lan:8000"}).status_code == 200
    assert client.get("/api/info", headers={"host": "other.lan:8000"}).status_code == 403


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "http://127.0.0.1:9999", "null", "file://", "ftp://127.0.0.1:8000"],
)
def test_requests_from_other_pages_are_refused(client: TestClient, origin: str) -> None:
    refused(client.post("/api/games", json=FAST, headers={"origin": origin}), 403, "refused")
    refused(client.get("/api/info", headers={"origin": origin}), 403, "refused")
    assert client.get("/api/info").json()["limits"]["games"] == 0


def test_requests_from_the_page_itself_are_served(client: TestClient) -> None:
    response = client.post("/api/games", json=FAST, headers={"origin": ORIGIN})
    assert response.status_code == 201


# -- the WebSocket --------------------------------------------------------------


def test_the_websocket_tells_each_change(client: TestClient) -> None:
    game_id = new(client)["id"]
    with client.websocket_connect(f"/api/games/{game_id}/ws", headers=HOST) as socket:
        first = socket.receive_json()
        assert first == {"version": 0, "plies": 0, "thinking": None, "over": False}
        post(client, game_id, "moves", move="*d4")
        update = socket.receive_json()
        assert update["version"] > first["version"]
        assert update["plies"] == 1


def test_the_websocket_checks_host_origin_and_game(client: TestClient) -> None:
    game_id = new(client)["id"]
    path = f"/api/games/{game_id}/ws"
    for headers in (
        {"host": "evil.example:8000"},
        {**HOST, "origin": "http://evil.example"},
    ):
        with (
            pytest.raises(WebSocketDisconnect) as refused_socket,
            client.websocket_connect(path, headers=headers),
        ):
            pass
        assert refused_socket.value.code == 1008
    with (
        pytest.raises(WebSocketDisconnect) as unknown,
        client.websocket_connect("/api/games/nope/ws", headers=HOST) as gone,
    ):
        gone.receive_json()  # the handshake is accepted, then closed
    assert unknown.value.code == 4404
    with client.websocket_connect(path, headers={**HOST, "origin": ORIGIN}) as socket:
        assert socket.receive_json()["version"] == 0


def test_a_watched_game_does_not_expire(make_client: Any) -> None:
    client = make_client(idle_seconds=0.1)
    sessions = client.app.state.sessions
    game_id = new(client)["id"]
    with client.websocket_connect(f"/api/games/{game_id}/ws", headers=HOST) as socket:
        socket.receive_json()
        time.sleep(0.3)  # longer than the idle time: the page that watches keeps it
        assert sessions.expire() == 0
        assert game_id in sessions.games
    wait_until(lambda: game_id not in sessions.games, "the game to expire once unwatched")
