"""The server and the page know no game: a second one (``points_game``,
Meridians's boards with one click a move) plugs in through the registry
and is played through the same API and the same page."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient
from veletas import games

from .conftest import Ui, wait_until
from .test_browser import settled


@pytest.fixture
def points(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = games.Game("points", "veletas.meridians", "serve.points_game", web="serve.points_game")
    monkeypatch.setitem(games.GAMES, "points", entry)


def test_a_game_with_one_click_a_move_is_played_through_the_api(
    points: None, client: TestClient
) -> None:
    info = client.get("/api/info").json()
    offered = {game["name"]: game for game in info["games"]}
    assert offered["points"]["seats"] == ["light", "dark", "watch"]
    response = client.post("/api/games", json={"game": "points", "size": "5-6", "seat": "light"})
    assert response.status_code == 201, response.text
    state = response.json()
    game_id = state["id"]
    assert state["params"]["game"] == "points"
    rng = random.Random(1)
    while not state["over"]:
        view = state["view"]
        assert view["to_act"] == "human"
        assert all(isinstance(v, str) for v in view["clicks"]["next"].values())  # one click
        move = rng.choice(sorted(view["clicks"]["next"]))
        assert client.post(f"/api/games/{game_id}/moves", json={"move": move}).status_code == 200
        state = wait_until(
            lambda: (
                (s := client.get(f"/api/games/{game_id}").json())["view"]["to_act"] != "bot" and s
            ),
            "the bot's move",
        )
    assert state["result"]["winner"] in ("light", "dark")
    assert state["view"]["status"]["score_name"] == "stones"
    record = client.get(f"/api/games/{game_id}/record").text
    assert record.split("\n")[1].split() == state["moves"]
    # A refused click is explained by the game, through the same endpoint.
    occupied = state["moves"][0]
    message = client.post(
        f"/api/games/{game_id}/explain", json={"clicks": [occupied], "ply": 1}
    ).json()["message"]
    assert occupied in message
    hint = client.post(f"/api/games/{game_id}/hint", json={"ply": 1}).json()
    assert hint["moves"][0]["squares"] == [hint["moves"][0]["move"]]


def test_the_page_plays_it_by_clicks_on_points(points: None, ui: Ui) -> None:
    ui.open("?game=points&size=5-6&seat=light")
    assert ui.page.inner_text("#title") == "Points"
    assert ui.page.inner_text("#status").startswith("Light to play (you)")
    assert ui.page.locator("#board [data-square]").count() == 80
    for _ in range(3):
        # The page outlines the points open to a placement; one click plays.
        target = ui.page.eval_on_selector("#board [data-square].target", "e => e.dataset.square")
        before = ui.page.locator("#moves li").count() - 1
        ui.page.click(f'#board [data-square="{target}"]')
        state = settled(ui, beyond=before)
        assert target in state["moves"]
        if state["over"]:
            break
    stones = state["view"]["status"]["score"]
    assert f"stones: light {stones['light']}, dark {stones['dark']}" in ui.page.inner_text(
        "#status"
    )
