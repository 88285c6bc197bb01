"""The page in a real browser (Debian's chromium under Playwright) against
the real server: whole games by clicks, typed moves, refusals, undo,
navigation, flip, hint, Stop, reload, the New game form and the record
download. Any JavaScript or console error fails a test (see ``Ui``)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import veletas
from veletas import games, records
from veletas.games.veletas.web import GAME

from .conftest import Ui, wait_until

SETUP_PLAY = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"


def game_id(ui: Ui) -> str:
    return parse_qs(urlsplit(ui.page.url).query)["id"][0]


def api_state(ui: Ui) -> dict[str, Any]:
    with urllib.request.urlopen(f"{ui.server}/api/games/{game_id(ui)}") as response:
        state: dict[str, Any] = json.load(response)
    return state


def board_of(state: dict[str, Any]) -> Any:
    """The board of a game's state, of whichever game it is, its moves on the stack."""
    web = games.get(state["game"]).web_game()
    options = {name: str(value) for name, value in state["options"].items()}
    board, _ = web.new_board(options, state["start"])
    for text in state["moves"]:
        board.push_str(text)
    return board


def settled(ui: Ui, beyond: int = 0) -> dict[str, Any]:
    """The state once the game holds more than ``beyond`` moves (the move
    just clicked has arrived) and the bot has moved, with the page showing it."""
    state: dict[str, Any] = wait_until(
        lambda: (
            len((s := api_state(ui))["moves"]) > beyond
            and s["view"]["to_act"] != "bot"
            and not s["thinking"]
            and s
        ),
        "the bot's move",
    )
    plies = len(state["moves"])
    ui.page.wait_for_function(
        """plies => document.querySelectorAll('#moves li').length === plies + 1
            && document.querySelector('#moves [aria-current="true"]').dataset.ply === String(plies)
            && !document.getElementById('status').classList.contains('thinking')""",
        arg=plies,
    )
    return state


def clicks_of(board: Any, move: Any) -> list[str]:
    """The clicks that play ``move``: its squares, a shooter twice to shoot
    without moving, ``swap`` as a button."""
    if move.is_swap:
        return ["swap"]
    squares = GAME.squares(board, move)
    if len(squares) == 2:
        return [squares[0], squares[0], squares[1]]
    return squares


def click(ui: Ui, name: str) -> None:
    if name in ("swap", "keep"):
        ui.page.click(f'#choices [data-choice="{name}"]')
    else:
        ui.page.click(f'#board [data-square="{name}"]')


def highlighted(ui: Ui, kind: str) -> set[str]:
    names: list[str] = ui.page.eval_on_selector_all(
        f"#board [data-square].{kind}", "elements => elements.map(e => e.dataset.square)"
    )
    return set(names)


def status(ui: Ui) -> str:
    text: str = ui.page.inner_text("#status")
    return text


def move_texts(ui: Ui) -> list[str]:
    texts: list[str] = ui.page.eval_on_selector_all(
        "#moves li button", "buttons => buttons.map(b => b.lastChild.textContent.trim())"
    )
    return texts[1:]


def test_a_whole_7x7_game_by_clicks_with_the_pie_decision(ui: Ui, tmp_path: Path) -> None:
    ui.open("?variant=small&seat=white&seconds=0.02&seed=1")
    state = settled(ui)
    # The bot, as Black, placed its shooter and stone: the pie is yours.
    assert state["view"]["status"]["phase"] == "pie"
    choices = ui.page.eval_on_selector_all("#choices button", "bs => bs.map(b => b.textContent)")
    assert sorted(choices) == ["keep", "swap"]
    assert "swap" in ui.page.inner_text("#prompt").lower()
    ui.shot("pie")
    click(ui, "swap")
    state = settled(ui, beyond=2)
    assert state["moves"][2] == "swap"
    # You swapped: you hold Black, the bot now plays White.
    assert state["view"]["players"]["black"] == "you"
    rng = random.Random(7)
    turns = 0
    while not state["over"]:
        board = board_of(state)
        move = rng.choice(list(board.legal_moves))
        clicks = clicks_of(board, move)
        tree = GAME.clicks(board)
        for index, name in enumerate(clicks):
            if index == len(clicks) - 1:
                click(ui, name)
                break
            click(ui, name)
            tree = tree["next"][name]
            # After each click, the squares that can complete the move light up.
            assert highlighted(ui, "selected") == set(clicks[: index + 1])
            expected = set(tree["next"]) - set(clicks[: index + 1])
            assert highlighted(ui, "target") == expected
            if turns == 3 and index == 0:
                ui.shot("shooter-selected")
        state = settled(ui, beyond=len(board.move_stack))
        assert str(move) in state["moves"]
        turns += 1
    board = board_of(state)
    assert board.is_game_over()
    winner = str(board.winner)
    assert f"{winner.capitalize()} (" in status(ui)
    assert "wins" in status(ui)
    assert move_texts(ui) == state["moves"]
    ui.shot("game-over")

    # The downloaded record replays to the same final position.
    with ui.page.expect_download() as download:
        ui.page.click("#download")
    path = tmp_path / "game.txt"
    download.value.save_as(path)
    [game] = records.read(path)
    assert [str(m) for m in game.moves] == state["moves"]
    replay = subprocess.run(
        [sys.executable, "-m", "veletas.cli", "replay", str(path), "--all", "--no-color"],
        capture_output=True,
        text=True,
        check=True,
    )
    positions = [line for line in replay.stdout.splitlines() if "position: " in line]
    assert positions[-1].split("position: ")[1] == board.fen()
    assert replay.stdout.rstrip().endswith(f"result {game.result}")


def test_keep_at_the_pie_then_place_by_clicks(ui: Ui) -> None:
    ui.open("?variant=small&seat=white&seconds=0.02")
    state = settled(ui)
    assert state["view"]["status"]["phase"] == "pie"
    click(ui, "keep")
    placements = {str(m)[1:] for m in board_of(state).legal_moves if not m.is_swap}
    assert highlighted(ui, "target") == placements
    assert ui.page.eval_on_selector_all("#choices button", "bs => bs.length") == 0
    target = sorted(placements)[0]
    click(ui, target)
    state = settled(ui, beyond=2)
    assert state["moves"][2] == f"*{target}"


def test_a_typed_move_is_played(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.02")
    ui.page.fill("#move-input", "*d4")
    ui.page.press("#move-input", "Enter")
    ui.page.wait_for_selector('#moves [data-ply="1"]')
    assert move_texts(ui) == ["*d4"]
    assert ui.page.input_value("#move-input") == ""
    assert ui.page.locator('#board [data-square="d4"]').count() == 1


def test_refused_clicks_and_moves_say_why_and_change_nothing(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.02")
    click(ui, "a1")
    ui.page.wait_for_function("() => document.getElementById('message').textContent !== ''")
    assert ui.page.inner_text("#message") == "A1 is not open to a shooter under 'perimeter'."
    assert move_texts(ui) == []
    assert highlighted(ui, "refused") == {"a1"}
    ui.expect_refusals(2)
    ui.page.fill("#move-input", "*a1")
    ui.page.press("#move-input", "Enter")
    ui.page.wait_for_function(
        "() => document.getElementById('message').textContent.startsWith('illegal move')"
    )
    assert "illegal move '*a1' in '7/7/7/7/7/7/7 b setup 3'" in ui.page.inner_text("#message")
    assert ui.page.input_value("#move-input") == "*a1"  # kept, to be corrected
    ui.page.fill("#move-input", "k1")
    ui.page.press("#move-input", "Enter")
    ui.page.wait_for_function(
        "() => document.getElementById('message').textContent.startsWith('invalid move')"
    )
    assert move_texts(ui) == []
    assert api_state(ui)["moves"] == []

    # In play: a click on an empty square, then a shooter's unreachable square.
    ui.open(f"?position={SETUP_PLAY.replace(' ', '+')}&seconds=0.02")
    click(ui, "d4")
    ui.page.wait_for_function(
        "() => document.getElementById('message').textContent.includes('empty')"
    )
    click(ui, "b4")
    assert highlighted(ui, "selected") == {"b4"}
    click(ui, "d3")
    ui.page.wait_for_function("() => document.getElementById('message').textContent.includes('d3')")
    assert "does not reach d3" in ui.page.inner_text("#message")
    assert highlighted(ui, "selected") == {"b4"}  # the selection stays
    ui.page.keyboard.press("Escape")
    assert highlighted(ui, "selected") == set()
    assert api_state(ui)["moves"] == []


def test_undo_navigation_flip_and_hint(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.02&seed=3")
    for name in ("d4", "c3"):
        click(ui, name)
        ui.page.wait_for_function(
            "name => document.getElementById('moves').textContent.includes(name)", arg=name
        )
    state = settled(ui)
    plies = len(state["moves"])
    assert plies >= 3

    # Navigation: a click in the move list, the arrow keys, Home and End.
    ui.page.click('#moves [data-ply="1"]')
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Move 1')"
    )
    assert f"Move 1 of {plies}" in status(ui)
    assert ui.page.locator('#board [data-square="d4"]').count() == 1
    assert ui.page.is_visible("#continue")
    ui.page.keyboard.press("ArrowRight")
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Move 2')"
    )
    ui.page.keyboard.press("Home")
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Move 0')"
    )
    ui.page.keyboard.press("ArrowLeft")  # nothing before the start
    ui.page.keyboard.press("End")
    ui.page.wait_for_function(
        "() => !document.getElementById('status').textContent.startsWith('Move')"
    )
    assert not ui.page.is_visible("#continue")

    # Flip: a1 goes from the bottom left to the top right.
    def a1() -> tuple[float, float]:
        box = ui.page.eval_on_selector(
            '#board [data-square="a1"]', "e => [e.x.baseVal.value, e.y.baseVal.value]"
        )
        return box[0], box[1]

    x, y = a1()
    ui.page.click("#flip")
    ui.page.wait_for_function(
        f"() => document.querySelector('#board [data-square=\"a1\"]').x.baseVal.value > {x}"
    )
    assert a1()[1] < y

    # Hint: the bot's top moves on the board, nothing played.
    ui.page.click("#hint")
    ui.page.wait_for_selector("#hints li")
    hints = ui.page.eval_on_selector_all("#hints li", "items => items.map(i => i.dataset.move)")
    board = board_of(state)
    assert 1 <= len(hints) <= 3
    assert all(veletas.Move.parse(text) in board.legal_moves for text in hints)
    assert ui.page.locator("#board .hints .hint-badge").count() == len(hints)
    assert "% to win" in ui.page.inner_text("#hints")
    assert api_state(ui)["moves"] == state["moves"]
    ui.shot("hint")

    # Undo: your last move and the bot's reply.
    ui.page.click("#undo")
    ui.page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2")
    assert move_texts(ui) == ["*d4"]
    assert api_state(ui)["moves"] == ["*d4"]


def test_play_goes_on_from_an_earlier_position(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.02")
    for name in ("d4", "c3"):
        click(ui, name)
        ui.page.wait_for_function(
            "name => document.getElementById('moves').textContent.includes(name)", arg=name
        )
    settled(ui)
    ui.page.click('#moves [data-ply="1"]')
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Move 1')"
    )
    click(ui, "e5")  # your stone on e5 instead of c3: the later moves go
    state = wait_until(
        lambda: (s := api_state(ui))["moves"][1] == "e5" and s, "the move from ply 1"
    )
    state = settled(ui, beyond=1)
    assert state["moves"][:2] == ["*d4", "e5"]
    assert move_texts(ui) == state["moves"]


def test_a_reload_resumes_the_game(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.02")
    click(ui, "d4")
    ui.page.wait_for_selector('#moves [data-ply="1"]')
    ui.page.click("#flip")
    ui.page.wait_for_function(
        "() => document.querySelector('#board [data-square=\"a1\"]').x.baseVal.value > 200"
    )
    before = ui.page.url
    ui.page.reload()
    ui.page.wait_for_selector('#moves [data-ply="1"]')
    assert ui.page.url == before
    assert move_texts(ui) == ["*d4"]
    # The flip is kept for the tab.
    assert ui.page.eval_on_selector('#board [data-square="a1"]', "e => e.x.baseVal.value") > 200
    # The same address in another tab opens the same game.
    other = ui.page.context.new_page()
    other.goto(before)
    other.wait_for_selector('#moves [data-ply="1"]')
    assert parse_qs(urlsplit(other.url).query)["id"] == [game_id(ui)]
    other.close()


def test_stop_and_a_live_page_while_the_bot_thinks(ui: Ui) -> None:
    ui.open("?variant=small&seconds=30")
    for name in ("d4", "c3"):
        click(ui, name)
        ui.page.wait_for_function(
            "name => document.getElementById('moves').textContent.includes(name)", arg=name
        )
    ui.page.wait_for_function(
        "() => document.getElementById('status').classList.contains('thinking')"
    )
    assert "is thinking" in status(ui)
    assert ui.page.is_enabled("#stop")
    # Meanwhile the page answers: the move list, the keys and flip.
    ui.page.click('#moves [data-ply="1"]')
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Move 1')"
    )
    ui.page.click("#flip")
    ui.page.keyboard.press("End")
    ui.page.wait_for_function(
        "() => !document.getElementById('status').textContent.startsWith('Move')"
    )
    ui.shot("thinking")
    # Stop: the bot plays its best move so far, one move at each press.
    plies = 2
    while api_state(ui)["view"]["to_act"] == "bot":
        if ui.page.is_enabled("#stop"):
            ui.page.click("#stop")
        wait_until(
            lambda plies=plies: (
                len((s := api_state(ui))["moves"]) > plies or s["view"]["to_act"] != "bot"
            ),
            "the stopped move",
            timeout=20,
        )
        plies = len(api_state(ui)["moves"])
    state = settled(ui)
    assert len(state["moves"]) > 2


def test_watching_the_bot_play_both_sides(ui: Ui) -> None:
    ui.open("?variant=small&seat=watch&iterations=40")
    wait_until(lambda: api_state(ui)["over"], "the end of the watched game")
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('wins')"
    )
    assert ui.page.is_disabled("#undo")
    assert ui.page.is_disabled("#resign")
    ui.shot("watched")


def test_the_address_holds_the_options(ui: Ui) -> None:
    ui.open("?variant=small&seat=black&seconds=0.05")
    assert ui.page.locator("#board [data-square]").count() == 49
    assert status(ui).startswith("Black to play (you)")
    query = parse_qs(urlsplit(ui.page.url).query)
    assert query["variant"] == ["small"]
    assert query["seat"] == ["black"]
    assert query["seconds"] == ["0.05"]
    ui.open("")
    assert ui.page.locator("#board [data-square]").count() == 100
    assert status(ui).startswith("Black to play (you)")
    assert api_state(ui)["options"]["variant"] == "standard"


def test_the_new_game_form_uses_the_same_parameters(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.05")
    ui.page.click("#new-game")
    ui.page.select_option("#field-variant", "custom")
    assert ui.page.is_visible("#field-size")
    ui.page.fill("#field-size", "8")
    ui.page.fill("#field-shooters", "5")
    ui.page.select_option("#seat", "white")
    ui.page.fill("#seconds", "0.02")
    ui.page.click("#start")
    ui.page.wait_for_url("**/?id=*size=8*")
    ui.page.wait_for_selector("#board svg [data-square]")
    query = parse_qs(urlsplit(ui.page.url).query)
    assert query["variant"] == ["custom"]
    assert query["shooters"] == ["5"]
    assert query["seat"] == ["white"]
    assert query["seconds"] == ["0.02"]
    assert ui.page.locator("#board [data-square]").count() == 64
    # A refused option is shown in the form.
    ui.page.click("#new-game")
    ui.page.fill("#field-size", "12")
    ui.page.click("#start")
    ui.expect_refusals(1)
    ui.page.wait_for_function("() => document.getElementById('new-message').textContent !== ''")
    assert "5 <= N <= 10" in ui.page.inner_text("#new-message")


def test_loading_a_position_and_a_record(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.02")
    ui.page.click("#new-game")
    ui.page.fill("#load-text", SETUP_PLAY)
    ui.page.click("#start")
    ui.page.wait_for_url("**/?id=*")
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('play:')"
    )
    assert api_state(ui)["view"]["fen"] == SETUP_PLAY
    board = veletas.Board(variant="small")
    bot = veletas.RandomBot(11)
    for _ in range(9):
        board.push(bot.choose(board))
    text = records.write([records.GameRecord.from_board(board, black="x", white="y")])
    ui.page.click("#new-game")
    ui.page.fill("#load-text", text)
    ui.page.select_option("#seat", "watch")
    ui.page.fill("#seconds", "0.02")
    ui.page.click("#start")
    ui.page.wait_for_selector('#moves [data-ply="9"]')
    assert move_texts(ui)[:9] == [str(m) for m in board.move_stack]


def test_starting_from_a_game_of_a_parquet_dataset(ui: Ui, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="Parquet datasets need pyarrow (the data extra)")
    games_run = veletas.meridians.playouts(5, size="5-6", seed=2, record=True)
    dataset = tmp_path / "games.parquet"
    games_run.to_parquet(dataset)
    ui.open("?variant=small&seconds=0.02")
    ui.page.click("#new-game")
    ui.page.fill("#load-number", "4")
    ui.page.set_input_files("#load-file", str(dataset))
    ui.page.wait_for_function("() => document.getElementById('load-text').value !== ''")
    # The form turns to the record's game; the note says which game it is.
    assert ui.page.input_value("#game") == "meridians"
    assert ui.page.inner_text("#load-note") == "game 4 of 5 in games.parquet"
    assert ui.page.input_value("#load-text") == str(games_run.record(3))
    ui.page.select_option("#seat", "watch")
    ui.page.click("#start")
    ui.page.wait_for_url("**/?id=*")
    plies = len(games_run.record(3).moves)
    ui.page.wait_for_selector(f'#moves [data-ply="{plies}"]')
    assert api_state(ui)["view"]["fen"] == games_run.board(3).fen()
    # A game past the file's end is refused in the form, naming the file.
    ui.expect_refusals(1)
    ui.page.click("#new-game")
    ui.page.fill("#load-number", "9")
    ui.page.set_input_files("#load-file", str(dataset))
    ui.page.wait_for_function(
        "() => document.getElementById('new-message').textContent.includes('holds 5 game(s)')"
    )
    assert ui.page.input_value("#load-text") == ""


def test_an_expired_game_id_starts_a_new_game_with_its_options(ui: Ui) -> None:
    ui.expect_refusals(1)  # the 404 of the unknown id
    ui.open("?id=gone&variant=small&seconds=0.05")
    message = ui.page.inner_text("#message")
    assert message.startswith("No game 'gone' on this server")
    assert message.endswith("A new game with the same options has started.")
    assert ui.page.locator("#board [data-square]").count() == 49
    assert game_id(ui) != "gone"


@pytest.mark.parametrize("seat", ["black"])
def test_resign(ui: Ui, seat: str) -> None:
    ui.open(f"?variant=small&seat={seat}&seconds=0.02")
    click(ui, "d4")
    ui.page.wait_for_selector('#moves [data-ply="1"]')
    ui.page.click("#resign")
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('resigned')"
    )
    assert status(ui).startswith("White (mcts (0.02 s)) wins (the other side resigned)")
    assert ui.page.is_disabled("#resign")


# -- Meridians -------------------------------------------------------------------


def points_of(moves: Any) -> set[str]:
    """The points of the placements among ``moves``."""
    return {str(m) for m in moves if not (m.is_swap or m.is_keep)}


def replay_final(path: Path) -> str:
    """The last position ``veletas replay`` prints for the record at ``path``."""
    replay = subprocess.run(
        [sys.executable, "-m", "veletas.cli", "replay", str(path), "--all", "--no-color"],
        capture_output=True,
        text=True,
        check=True,
    )
    positions = [line for line in replay.stdout.splitlines() if "position: " in line]
    return positions[-1].split("position: ")[1]


def test_a_whole_meridians_game_by_clicks_with_the_pie_rule(ui: Ui, tmp_path: Path) -> None:
    ui.open("?game=meridians&size=5-6&pie=true&seat=dark&seconds=0.02&seed=4")
    assert ui.page.inner_text("#title") == "Meridians"
    assert ui.page.locator("#board .point[data-square]").count() == 80
    state = settled(ui, beyond=1)
    # The bot, the first player, placed a light stone and a dark one: the pie is yours.
    assert state["view"]["status"]["phase"] == "pie"
    assert state["view"]["status"]["score"] == {"light": 1, "dark": 1}
    choices = ui.page.eval_on_selector_all("#choices button", "bs => bs.map(b => b.textContent)")
    assert sorted(choices) == ["keep", "swap"]
    assert highlighted(ui, "target") == set()
    assert "swap" in ui.page.inner_text("#prompt").lower()
    ui.shot("pie")
    ui.page.click('#choices [data-choice="swap"]')
    # You swapped: you hold Light, and Light moves next, so it is your turn again.
    state = wait_until(lambda: len((s := api_state(ui))["moves"]) == 3 and s, "the swap")
    assert state["moves"][2] == "swap"
    assert state["view"]["players"] == {"light": "you", "dark": state["bot"]["name"]}
    assert state["view"]["to_act"] == "human"
    rng = random.Random(5)
    while not state["over"]:
        board = board_of(state)
        ui.page.wait_for_function(
            "plies => document.querySelectorAll('#moves li').length === plies + 1",
            arg=len(board.move_stack),
        )
        # The points open to a placement are outlined; one click plays.
        assert highlighted(ui, "target") == points_of(board.legal_moves)
        move = rng.choice(list(board.legal_moves))
        ui.page.click(f'#board .point[data-square="{move}"]')
        state = settled(ui, beyond=len(board.move_stack))
        assert state["moves"][len(board.move_stack)] == str(move)
        if len(state["moves"]) in (9, 10):
            ui.shot("play")
    board = board_of(state)
    assert board.is_game_over()
    winner = str(board.winner)
    assert state["result"]["winner"] == winner
    assert f"{winner.capitalize()} (" in status(ui)
    assert "wins" in status(ui)
    assert move_texts(ui) == state["moves"]
    ui.shot("game-over")

    # The downloaded record replays to the same final position.
    with ui.page.expect_download() as download:
        ui.page.click("#download")
    assert download.value.suggested_filename == f"meridians-{game_id(ui)}.txt"
    path = tmp_path / "game.txt"
    download.value.save_as(path)
    [game] = records.read(path)
    assert game.tags["Game"] == "Meridians"
    assert game.tags["Light"] == "you"
    assert game.tags["Swapped"] == "true"
    assert [str(m) for m in game.moves] == state["moves"]
    assert str(game.winner) == winner
    assert replay_final(path) == board.fen()


def test_the_new_game_form_offers_meridians_with_its_own_options(ui: Ui) -> None:
    ui.open("?variant=small&seconds=0.05")
    ui.page.click("#new-game")
    ui.page.select_option("#game", "meridians")
    # The form shows the options the game's room names, and its seats.
    labels = ui.page.eval_on_selector_all(
        "#fields [data-field]", "labels => labels.map(l => l.dataset.field)"
    )
    web = games.get("meridians").web_game()
    assert labels == [field["name"] for field in web.fields()]
    seats = ui.page.eval_on_selector_all("#seat option", "options => options.map(o => o.value)")
    assert seats == ["light", "dark", "watch"]
    ui.page.select_option("#field-size", "5-6")
    ui.page.check("#field-pie")
    ui.page.select_option("#seat", "light")
    ui.page.fill("#seconds", "0.02")
    ui.page.click("#start")
    ui.page.wait_for_url("**/?id=*game=meridians*")
    ui.page.wait_for_selector("#board svg [data-square]")
    query = parse_qs(urlsplit(ui.page.url).query)
    assert query["size"] == ["5-6"]
    assert query["pie"] == ["true"]
    assert query["seat"] == ["light"]
    assert ui.page.locator("#board .point[data-square]").count() == 80
    assert status(ui).startswith("Light to play (you)")
    assert ui.page.get_attribute("#move-input", "placeholder") == f"a move: {web.move_example}"
    # Under the pie rule, the first player places Dark's first stone too.
    ui.page.click('#board .point[data-square="e5"]')
    ui.page.wait_for_selector('#moves [data-ply="1"]')
    assert "dark's first stone" in ui.page.inner_text("#prompt").lower()
    ui.page.click('#board .point[data-square="f7"]')
    state = settled(ui, beyond=2)
    assert state["moves"][:2] == ["e5", "f7"]
    # And back: the form opens on this game's options.
    ui.page.click("#new-game")
    assert ui.page.input_value("#game") == "meridians"
    assert ui.page.input_value("#field-size") == "5-6"
    assert ui.page.is_checked("#field-pie")
    ui.page.click("#new-cancel")


def test_meridians_refusals_undo_flip_and_hint(ui: Ui) -> None:
    ui.open("?game=meridians&size=5-6&seat=light&seconds=0.02&seed=2")
    ui.page.click('#board .point[data-square="e5"]')
    state = settled(ui, beyond=0)
    assert state["moves"][0] == "e5"
    reply = state["moves"][1]
    # A click on a stone, or on a point with no path to your first stone, says why.
    ui.page.click(f'#board .point[data-square="{reply}"]')
    ui.page.wait_for_function("() => document.getElementById('message').textContent !== ''")
    assert ui.page.inner_text("#message") == f"{reply.capitalize()} is not empty."
    # The refused point stays marked when the page draws the same position again.
    ui.page.eval_on_selector("#board svg", "svg => { svg.dataset.old = 'yes'; }")
    ui.page.keyboard.press("End")
    ui.page.wait_for_function("() => !document.querySelector('#board svg').dataset.old")
    assert highlighted(ui, "refused") == {reply}
    neighbour = next(name for name in ("e6", "e4", "d5") if name != reply)
    ui.page.click(f'#board .point[data-square="{neighbour}"]')
    ui.page.wait_for_function(
        "() => document.getElementById('message').textContent.includes('no path')"
    )
    assert ui.page.inner_text("#message") == (
        f"{neighbour.capitalize()} has no path to e5, Light's first stone."
    )
    assert api_state(ui)["moves"] == state["moves"]
    target = sorted(points_of(board_of(state).legal_moves))[0]
    ui.page.click(f'#board .point[data-square="{target}"]')
    state = settled(ui, beyond=2)
    plies = len(state["moves"])

    # Flip: a1 goes from the bottom left to the top right.
    def a1() -> tuple[float, float]:
        centre = ui.page.eval_on_selector(
            '#board .point[data-square="a1"]', "e => [e.cx.baseVal.value, e.cy.baseVal.value]"
        )
        return centre[0], centre[1]

    x, y = a1()
    ui.page.click("#flip")
    ui.page.wait_for_function(
        "x => document.querySelector('#board .point[data-square=\"a1\"]').cx.baseVal.value > x",
        arg=x,
    )
    assert a1()[1] < y

    # Hint: the bot's top moves on the board, nothing played.
    ui.page.click("#hint")
    ui.page.wait_for_selector("#hints li")
    hints = ui.page.eval_on_selector_all("#hints li", "items => items.map(i => i.dataset.move)")
    board = board_of(state)
    assert 1 <= len(hints) <= 3
    assert set(hints) <= points_of(board.legal_moves)
    assert ui.page.locator("#board .hints .hint-badge").count() == len(hints)
    assert api_state(ui)["moves"] == state["moves"]
    ui.shot("hint")

    # Undo: your last move and the bot's reply.
    ui.page.click("#undo")
    ui.page.wait_for_function(
        "plies => document.querySelectorAll('#moves li').length === plies - 1", arg=plies
    )
    assert api_state(ui)["moves"] == state["moves"][: plies - 2]


def test_meridians_from_a_position_and_a_record_and_watched(ui: Ui) -> None:
    web = games.get("meridians").web_game()
    ui.open("?game=meridians&size=5-6&seconds=0.02")
    ui.page.click("#new-game")
    assert web.position_example in (ui.page.get_attribute("#load-text", "placeholder") or "")
    ui.page.fill("#load-text", web.position_example)
    first = game_id(ui)
    ui.page.click("#start")
    ui.page.wait_for_url(lambda url: parse_qs(urlsplit(url).query).get("id") not in (None, [first]))
    ui.page.wait_for_selector("#board svg [data-square]")
    state = api_state(ui)
    assert state["start"] == web.position_example
    assert state["options"]["size"] == "5-6"  # the position string's size

    board = veletas.meridians.Board(size="5-6", pie=True)
    bot = veletas.RandomBot(11)
    for _ in range(9):
        board.push(bot.choose(board))
    text = records.write([records.GameRecord.from_board(board, black="x", white="y")])
    ui.page.click("#new-game")
    ui.page.fill("#load-text", text)
    ui.page.select_option("#seat", "watch")
    ui.page.fill("#seconds", "0.02")
    ui.page.click("#start")
    ui.page.wait_for_selector('#moves [data-ply="9"]')
    assert move_texts(ui)[:9] == [str(m) for m in board.move_stack]
    # The bot plays both sides to the end.
    state = wait_until(lambda: (s := api_state(ui))["over"] and s, "the end of the watched game")
    ui.page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('wins')"
    )
    assert state["options"] == {"size": "5-6", "pie": True}
    assert ui.page.is_disabled("#undo")
    ui.shot("watched")


def test_the_status_names_the_player_to_act_not_the_colours_holder(ui: Ui) -> None:
    # Under the pie rule the first player, here the bot, places Dark's first
    # stone: it is Dark's stone, but the bot's turn, though you will hold Dark.
    start = "6/7/8/9/10/4x5/9/8/7/6 d open"
    ui.open(f"?game=meridians&position={start.replace(' ', '+')}&pie=true&seat=dark&seconds=30")
    ui.page.wait_for_function(
        "() => document.getElementById('status').classList.contains('thinking')"
    )
    assert status(ui).startswith("Dark to play (mcts (30 s))")
    assert "dark's first stone" in status(ui)
    ui.page.click("#stop")
    state = settled(ui)
    assert state["view"]["status"]["phase"] == "pie"
    assert status(ui).startswith("Dark to play (you)")
