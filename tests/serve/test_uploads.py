"""``POST /api/records``: a game of a file the page sends, a file of game
records or a Parquet dataset, as the record text to start from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import veletas
from veletas import meridians, records

pytest.importorskip("pyarrow", reason="Parquet datasets need pyarrow (the data extra)")


RECORD = b'[Game "Veletas"]\n[Variant "small"]\n[Result "*"]\n\n1. *c3 g7 *\n'


def dataset_bytes(tmp_path: Path, games: Any) -> bytes:
    path = tmp_path / "games.parquet"
    games.to_parquet(path)
    return path.read_bytes()


def upload(client: Any, data: bytes, **params: str) -> Any:
    return client.post("/api/records", params=params, content=data)


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_a_game_of_a_dataset_comes_back_as_its_record(
    client: Any, tmp_path: Path, game: str
) -> None:
    if game == "veletas":
        games = veletas.playouts(30, variant="small", seed=3, record=True)
    else:
        games = meridians.playouts(30, size="5-6", seed=3, record=True)
    response = upload(client, dataset_bytes(tmp_path, games), number="7", name="games.parquet")
    assert response.status_code == 200, response.text
    answer = response.json()
    assert (answer["number"], answer["games"], answer["kind"]) == (7, 30, "dataset")
    assert answer["game"] == game
    assert answer["record"] == str(games.record(6))
    # The record starts a game at its last position.
    state = client.post("/api/games", json={"record": answer["record"], "game": game})
    assert state.status_code == 201, state.text
    assert state.json()["view"]["fen"] == games.board(6).fen()


def test_a_game_of_a_file_of_records_comes_back_checked(client: Any) -> None:
    games = veletas.playouts(3, variant="small", seed=5, record=True)
    text = records.write([games.record(i) for i in range(3)])
    answer = upload(client, ("\ufeff" + text).encode(), number="2").json()
    assert (answer["number"], answer["games"], answer["kind"]) == (2, 3, "records")
    assert answer["record"] == str(games.record(1))


@pytest.mark.parametrize(
    ("data", "params", "message"),
    [
        (b"\x80\x81 not text", {"name": "x.bin"}, "x.bin is neither a file of game records"),
        (b"PAR1 cut short", {"name": "bad.parquet"}, "bad.parquet is not a readable"),
        (b'[Game "Veletas"]\n', {"number": "2"}, "holds 1 game(s), not 2"),
        (RECORD.replace(b"*c3", b"*z9"), {}, "the file: line 5"),
        # A one-line text is read as records, never as a path on the server.
        (b"/etc/passwd", {}, "the file: line 1: moves before any tag: '/etc/passwd'"),
        (b"", {"number": "0"}, "number must be a whole number of 1 or more, not '0'"),
        (b"", {"number": "x"}, "not 'x'"),
    ],
)
def test_a_bad_file_or_number_is_a_400_naming_it(
    client: Any, data: bytes, params: dict[str, str], message: str
) -> None:
    response = upload(client, data, **params)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]


def test_a_dataset_asked_for_a_game_past_its_end_says_how_many(client: Any, tmp_path: Path) -> None:
    data = dataset_bytes(tmp_path, veletas.playouts(4, variant="small", seed=1, record=True))
    response = upload(client, data, number="5", name="four.parquet")
    assert response.status_code == 400
    assert response.json()["error"] == "four.parquet holds 4 game(s), not 5"


def test_a_dataset_without_moves_is_refused(client: Any, tmp_path: Path) -> None:
    data = dataset_bytes(tmp_path, veletas.playouts(4, variant="small", seed=1))
    response = upload(client, data, name="plain.parquet")
    assert response.status_code == 400
    assert "plain.parquet holds no moves" in response.json()["error"]


def test_a_file_over_the_limit_is_a_413(make_client: Any) -> None:
    client = make_client(max_upload=1000)
    assert client.get("/api/info").json()["limits"]["max_upload"] == 1000
    response = upload(client, b"[" + b" " * 2000)
    assert response.status_code == 413
    assert "1000 bytes" in response.json()["error"]
    assert upload(client, RECORD).status_code == 200
