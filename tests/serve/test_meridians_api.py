"""Meridians through the JSON API of ``veletas serve`` (Starlette's test
client): its options, the pie rule's seats, its click tree, refusals,
records and the bot playing both sides."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient
from veletas import meridians, records
from veletas.games.meridians.web import GAME

from .conftest import wait_until
from .test_api import get, my_turn, post, refused, spelled_moves

FAST = {"game": "meridians", "size": "5-6", "seconds": 0.02}


def new(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={**FAST, **params})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def board_of(state: dict[str, Any]) -> Any:
    board = meridians.Board(state["start"], pie=state["options"]["pie"])
    for text in state["moves"]:
        board.push_str(text)
    return board


def test_info_offers_meridians_with_the_options_of_its_room(client: TestClient) -> None:
    info = client.get("/api/info").json()
    offered = {game["name"]: game for game in info["games"]}
    game = offered["meridians"]
    assert game["title"] == "Meridians"
    assert game["seats"] == ["light", "dark", "watch"]
    assert game["fields"] == GAME.fields()
    assert [field["name"] for field in game["fields"]] == ["size", "pie"]
    assert game["move_example"] in {str(m) for m in meridians.Board().legal_moves}
    assert meridians.Board(game["position_example"]).fen() == game["position_example"]


def test_a_new_game_takes_its_options_as_text(client: TestClient) -> None:
    state = new(client, size="7-8", pie="true", seat="dark", seed="3")
    assert state["game"] == "meridians"
    assert state["options"] == {"size": "7-8", "pie": True}
    assert state["params"]["game"] == "meridians"
    assert state["params"]["pie"] is True
    assert state["view"]["svg"].count('class="point"') == 154
    bare = new(client, size=None)
    assert bare["options"] == {"size": "6-7", "pie": False}
    assert bare["view"]["fen"] == meridians.Board().fen()
    assert bare["view"]["status"]["turn"] == "light"
    assert bare["view"]["status"]["score_name"] == "stones"
    assert set(bare["view"]["clicks"]["next"]) == {str(m) for m in meridians.Board().legal_moves}


BAD_VELETAS_RECORD = '[Variant "small"]\n[Result "*"]\n\n1. *d4 *'


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"size": "9-10"}, ["'9-10'", "'5-6'"]),
        ({"pie": "maybe"}, ["pie", "'maybe'"]),
        ({"variant": "small"}, ["'variant'", "meridians", "'pie'", "'size'"]),
        ({"seat": "black"}, ["'black'", "'light'", "'watch'"]),
        ({"position": "6/7/8/9/5o4/4x5/9/8/7/6 l open", "size": "6-7"}, ["'6-7'", "5-6"]),
        ({"position": "6/7/8/9/10/10/9/8/7/6 q open", "size": None}, ["'q'"]),
        ({"record": BAD_VELETAS_RECORD, "size": None}, ["Veletas", "not of Meridians"]),
    ],
)
def test_bad_options_are_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], words: list[str]
) -> None:
    refused(client.post("/api/games", json={**FAST, **body}), 400, *words)
    assert client.get("/api/info").json()["limits"]["games"] == 0


def test_a_meridians_record_is_refused_for_veletas(client: TestClient) -> None:
    board = meridians.Board(size="5-6")
    board.push_str("e5")
    text = records.write([records.GameRecord.from_board(board)])
    response = client.post("/api/games", json={"record": text, "seconds": 0.02})
    refused(response, 400, "Meridians", "not of Veletas", "choose Meridians")


def test_the_pie_rule_gives_the_first_player_both_first_stones(client: TestClient) -> None:
    # You are the second player: the bot places Light's stone and Dark's.
    state = my_turn(client, new(client, pie="true", seat="dark")["id"])
    game_id = state["id"]
    assert len(state["moves"]) == 2
    assert state["view"]["status"]["phase"] == "pie"
    assert state["view"]["clicks"]["next"] == {"swap": "swap", "keep": "keep"}
    refused(post(client, game_id, "moves", move="a1"), 400, "'swap' or 'keep'")
    # Swapping takes Light, which moves next: you again.
    state = post(client, game_id, "moves", move="swap").json()
    assert state["view"]["to_act"] == "human"
    assert state["view"]["players"]["light"] == "you"
    assert state["view"]["status"]["turn"] == "light"
    # Undo takes back the swap only: it is your decision again.
    state = post(client, game_id, "undo").json()
    assert len(state["moves"]) == 2
    state = post(client, game_id, "moves", move="keep").json()
    assert state["moves"][2] == "keep"
    state = my_turn(client, game_id)
    assert len(state["moves"]) == 4  # the bot, Light, played its second stone
    assert state["view"]["players"]["dark"] == "you"
    # As the first player, you place Dark's first stone yourself.
    first = new(client, pie="true", seat="light")
    post(client, first["id"], "moves", move="e5")
    state = get(client, first["id"])
    assert state["view"]["to_act"] == "human"
    assert state["view"]["status"]["turn"] == "dark"
    assert "dark's first stone" in state["view"]["clicks"]["prompt"].lower()


def test_a_whole_game_against_the_bot_with_the_pie_rule(client: TestClient) -> None:
    game_id = new(client, pie="true", seat="dark", seed="1")["id"]
    rng = random.Random(3)
    state = my_turn(client, game_id)
    while not state["over"]:
        move = rng.choice(sorted(state["view"]["clicks"]["next"]))
        assert post(client, game_id, "moves", move=move).status_code == 200
        state = my_turn(client, game_id)
    board = board_of(state)
    assert board.is_game_over()
    assert state["result"]["winner"] == str(board.winner)
    [game] = records.read(client.get(f"/api/games/{game_id}/record").text)
    assert game.tags["Game"] == "Meridians"
    assert game.tags["Pie"] == "true"
    assert "FEN" not in game.tags
    assert game.board().fen() == board.fen()
    assert str(game.winner) == state["result"]["winner"]
    swapped = "swap" in state["moves"]
    assert game.tags["Swapped"] == ("true" if swapped else "false")
    # Whoever holds Light after the pie decision is named by [Light].
    assert game.tags["Light" if swapped else "Dark"] == "you"


def test_the_bot_plays_both_sides_for_watching(client: TestClient) -> None:
    game_id = new(client, seat="watch", seconds=None, iterations=30)["id"]
    state = wait_until(lambda: (s := get(client, game_id))["over"] and s, "the watched game")
    assert board_of(state).is_game_over()
    refused(post(client, game_id, "undo"), 409, "both sides")


def test_a_game_from_a_position_and_from_a_record(client: TestClient) -> None:
    fen = GAME.position_example
    state = new(client, position=fen, size=None, seat="light")
    assert state["start"] == fen
    assert state["options"]["size"] == "5-6"
    post(client, state["id"], "moves", move="e8")
    [game] = records.read(client.get(f"/api/games/{state['id']}/record").text)
    assert game.start == fen
    assert [str(m) for m in game.moves][:1] == ["e8"]

    board = meridians.Board(size="6-7", pie=True)
    bot = random.Random(4)
    for _ in range(7):
        board.push(bot.choice(list(board.legal_moves)))
    text = records.write([records.GameRecord.from_board(board)])
    response = client.post(
        "/api/games", json={"record": text, "seconds": 0.02, "seat": "watch", "game": "meridians"}
    )
    assert response.status_code == 201, response.text
    state = response.json()
    assert state["options"] == {"size": "6-7", "pie": True}
    assert state["moves"][:7] == [str(m) for m in board.move_stack]


def test_refused_clicks_are_explained(client: TestClient) -> None:
    game_id = new(client, seat="light")["id"]
    post(client, game_id, "moves", move="e5")
    state = my_turn(client, game_id)

    def explain(*clicks: str) -> str:
        response = post(client, game_id, "explain", clicks=list(clicks))
        assert response.status_code == 200, response.text
        message: str = response.json()["message"]
        return message

    assert explain("e5") == "e5 is not empty"
    neighbour = next(name for name in ("e6", "e4") if name not in state["moves"])
    assert explain(neighbour) == f"{neighbour} has no path to e5, Light's first stone"
    assert explain("j1") == "j1 is not on the 5-6 board"
    assert explain("swap") == "'swap' is not a point or a choice here"
    assert explain("z9") == "'z9' is not a point or a choice here"


def test_the_click_tree_spells_every_legal_move_and_hints_name_their_point(
    client: TestClient,
) -> None:
    rng = random.Random(2)
    for size, pie in (("5-6", True), ("6-7", False)):
        board = meridians.Board(size=size, pie=pie)
        while not board.is_game_over():
            assert spelled_moves(GAME.clicks(board)) == {str(m) for m in board.legal_moves}
            assert all(
                GAME.squares(board, m) == ([] if m.is_swap or m.is_keep else [str(m)])
                for m in board.legal_moves
            )
            board.push(rng.choice(list(board.legal_moves)))
        assert GAME.clicks(board)["next"] == {}
    game_id = new(client, seat="light", iterations=50, seconds=None)["id"]
    hint = post(client, game_id, "hint", top=3).json()
    assert 1 <= len(hint["moves"]) <= 3
    assert all(move["squares"] == [move["move"]] for move in hint["moves"])
