"""The report: every number it writes is recomputed here from the arrays, its
SVG figures parse, and it is built from Playouts, a dataset or the command
line alike."""

from __future__ import annotations

import builtins
import json
import math
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import veletas
import veletas.reference
from veletas import meridians
from veletas.cli import main
from veletas.games.meridians.report import board_points
from veletas.games.meridians.types import point_name
from veletas.playouts import wilson

SQUARE = "{http://www.w3.org/2000/svg}svg"


class Page(HTMLParser):
    """The figures (their ``data-values`` and SVG text), the rows with
    ``data-values``, and the JSON of all numbers, of a report."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.figures: dict[str, Any] = {}
        self.svgs: dict[str, str] = {}
        self.rows: dict[str, Any] = {}
        self.numbers: Any = None
        self._figure: str | None = None
        self._script = False
        self.text = text
        self.feed(text)
        for key in list(self.figures):
            start = text.index(f'<figure id="figure-{key}"')
            body = text[start : text.index("</figure>", start)]
            self.svgs[key] = body[body.index("<svg") :]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "figure":
            key = (values["id"] or "").removeprefix("figure-")
            self.figures[key] = json.loads(values["data-values"] or "null")
        elif tag == "tr" and "data-key" in values:
            self.rows[values["data-key"] or ""] = json.loads(values["data-values"] or "null")
        elif tag == "script" and values.get("id") == "numbers":
            self._script = True

    def handle_data(self, data: str) -> None:
        if self._script:
            self.numbers = json.loads(data)
            self._script = False


def play(game: str) -> veletas.Playouts:
    """The 1,000 recorded games of each game's report (Meridians: 6-7 with the pie)."""
    if game == "meridians":
        return meridians.playouts(1000, size="6-7", pie=True, seed=12, record=True)
    return veletas.playouts(1000, seed=12, record=True)


def build(games: veletas.Playouts, folder: Path) -> Page:
    path = folder / "report.html"
    assert veletas.report(games, path) == path
    return Page(path.read_text())


@pytest.fixture(scope="module", params=["veletas", "meridians"])
def games(request: pytest.FixtureRequest) -> veletas.Playouts:
    """The games of either game: the tests that take it run for both."""
    return play(request.param)


@pytest.fixture(scope="module")
def page(games: veletas.Playouts, tmp_path_factory: pytest.TempPathFactory) -> Page:
    return build(games, tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def veletas_games() -> veletas.Playouts:
    return play("veletas")


@pytest.fixture(scope="module")
def veletas_page(veletas_games: veletas.Playouts, tmp_path_factory: pytest.TempPathFactory) -> Page:
    return build(veletas_games, tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def meridians_games() -> veletas.Playouts:
    return play("meridians")


@pytest.fixture(scope="module")
def meridians_page(
    meridians_games: veletas.Playouts, tmp_path_factory: pytest.TempPathFactory
) -> Page:
    return build(meridians_games, tmp_path_factory.mktemp("report"))


FIGURES = {
    "veletas": {"pie", "plies", "claims", "first-shooter", "first-stone"},
    "meridians": {"pie", "plies", "stones", "first-stone"},
}
COLORS = {"veletas": ("black", "white"), "meridians": ("light", "dark")}


def close(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def assert_estimate(written: dict[str, float], successes: int, trials: int) -> None:
    expected = wilson(successes, trials)
    assert close(written["rate"], expected.rate)
    assert close(written["low"], expected.low)
    assert close(written["high"], expected.high)


def test_every_figure_is_there_and_its_svg_parses(page: Page, games: veletas.Playouts) -> None:
    assert set(page.figures) == FIGURES[games.game]
    for key, svg in page.svgs.items():
        root = ET.fromstring(svg)
        assert root.tag == SQUARE, key
        assert len(list(root.iter())) > 50, key


def test_nothing_is_fetched(page: Page) -> None:
    text = page.text
    # Namespaces name, they do not fetch: no address is loaded from anywhere.
    for fetch in ('href="http', "href='http", "src=", "url(http", "@import", "<link", "<img"):
        assert fetch not in text, fetch


def test_win_rates_are_those_of_the_arrays(page: Page, games: veletas.Playouts) -> None:
    first = games.winner == games.swapped.astype(np.int8)
    swapped = games.swapped
    pie = page.figures["pie"]
    n = len(games)
    assert_estimate(pie["first_player"], int(first.sum()), n)
    assert_estimate(pie["first_player_swap"], int((first & swapped).sum()), int(swapped.sum()))
    assert_estimate(
        pie["first_player_no_swap"], int((first & ~swapped).sum()), int((~swapped).sum())
    )
    first_colour, second_colour = COLORS[games.game]
    assert_estimate(pie[first_colour], int((games.winner == 0).sum()), n)
    assert_estimate(pie[second_colour], int((games.winner == 1).sum()), n)
    assert_estimate(pie["swap"], int(swapped.sum()), n)
    assert pie["first_player_swap"]["games"] == int(swapped.sum())
    # The table says the same as the figure.
    for key, values in pie.items():
        assert page.rows[key] == values


def test_game_lengths_are_those_of_the_arrays(page: Page, games: veletas.Playouts) -> None:
    plies = page.figures["plies"]
    assert close(plies["mean"], float(np.mean(games.plies)))
    assert close(plies["sd"], float(np.std(games.plies, ddof=1)))
    for q, value in plies["quantiles"].items():
        assert value == float(np.quantile(games.plies, float(q)))
    histogram = dict(zip(plies["histogram"]["plies"], plies["histogram"]["games"], strict=True))
    for length in range(int(games.plies.min()), int(games.plies.max()) + 1):
        assert histogram[length] == int((games.plies == length).sum())
    assert (plies["min"], plies["max"]) == (int(games.plies.min()), int(games.plies.max()))


def test_final_claims_are_those_of_the_arrays(
    veletas_page: Page, veletas_games: veletas.Playouts
) -> None:
    page, games = veletas_page, veletas_games
    matrix = page.figures["claims"]["games"]
    assert sum(map(sum, matrix)) == len(games)
    for (black, white), count in games.claim_counts().items():
        assert matrix[black][white] == count


def first_placement(moves: list[str], shooter: bool) -> str:
    """The square of the first shooter placed (``*e5``), or of the first
    stone (``e5``: Black's setup places one of each, in either order)."""
    return next(
        text.lstrip("*")
        for text in moves
        if text != "swap" and "-" not in text and text.startswith("*") == shooter
    )


@pytest.mark.parametrize(("key", "shooter"), [("first-shooter", True), ("first-stone", False)])
def test_opening_squares_are_those_of_the_moves(
    veletas_page: Page, veletas_games: veletas.Playouts, key: str, shooter: bool
) -> None:
    page, games = veletas_page, veletas_games
    squares = [
        first_placement([str(move) for move in games.moves_of(i)], shooter)
        for i in range(len(games))
    ]
    first = games.winner == games.swapped.astype(np.int8)
    overall = float(first.mean())
    figure = page.figures[key]
    assert close(figure["overall"], overall)
    cells = {cell["square"]: cell for cell in figure["squares"]}
    assert set(cells) == set(squares)
    for name, cell in cells.items():
        mask = np.array([square == name for square in squares])
        assert cell["games"] == int(mask.sum())
        assert cell["wins"] == int((first & mask).sum())
        assert_estimate(cell, cell["wins"], cell["games"])
        assert cell["differs"] == (cell["high"] < overall or cell["low"] > overall)


def test_metrics_are_those_of_the_arrays(page: Page, games: veletas.Playouts) -> None:
    first = games.winner == games.swapped.astype(np.int8)
    advantage = wilson(int(first.sum()), len(games))
    assert_estimate(page.rows["advantage"], int(first.sum()), len(games))
    balance = page.rows["balance"]
    assert close(balance["rate"], 1 - abs(2 * advantage.rate - 1))
    ends = sorted(1 - abs(2 * p - 1) for p in (advantage.low, advantage.high))
    assert close(balance["low"], ends[0])
    assert close(balance["high"], 1.0 if advantage.low <= 0.5 <= advantage.high else ends[1])
    duration = page.rows["duration"]
    sd = float(np.std(games.plies, ddof=1))
    assert close(duration["sd"], sd)
    assert close(duration["high"] - duration["mean"], 1.959963984540054 * sd / math.sqrt(1000))


def test_games_decided_by_one_move_are_counted_by_replaying_them(
    veletas_page: Page, veletas_games: veletas.Playouts
) -> None:
    page, games = veletas_page, veletas_games
    # Replayed here on the pure-Python reference, from the moves' text.
    need = games.rules.shooters // 2 + 1
    decided = 0
    for i in range(len(games)):
        board = veletas.reference.Board(games.start)
        moves = [str(move) for move in games.moves_of(i)]
        for text in moves[:-1]:
            board.push_str(text)
        before = board.claims.black if games.winner[i] == 0 else board.claims.white
        decided += before <= need - 2
    written = page.rows["decided_by_one_move"]
    assert written["games"] == 1000
    assert written["every"] == 1
    assert_estimate(written, decided, 1000)


def test_the_json_holds_what_the_page_shows(page: Page) -> None:
    for key in page.figures:
        assert page.numbers[key] == page.figures[key], key
    assert page.numbers["pie"] == page.figures["pie"]
    assert page.numbers["first-stone"] == page.figures["first-stone"]
    assert page.numbers["metrics"]["advantage"] == page.rows["advantage"]


def test_a_dataset_and_the_command_line_give_the_same_report(
    games: veletas.Playouts, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games.to_parquet(tmp_path / "games.parquet")
    out = tmp_path / "from-file.html"
    code = main(["report", str(tmp_path / "games.parquet"), "--out", str(out), "--format", "png"])
    assert code == 0
    assert "wrote the report" in capsys.readouterr().err
    veletas.report(games, tmp_path / "direct.html")
    assert Page(out.read_text()).numbers == Page((tmp_path / "direct.html").read_text()).numbers
    figures = sorted(p.name for p in (tmp_path / "from-file-figures").iterdir())
    assert figures == [f"{key}.png" for key in sorted(Page(out.read_text()).figures)]
    assert (tmp_path / "from-file-figures" / "pie.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["report", str(tmp_path / "missing.parquet")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_run_without_moves_has_no_openings(tmp_path: Path) -> None:
    games = veletas.playouts(300, variant="small", seed=1)
    page = Page(veletas.report(games, tmp_path / "r.html").read_text())
    assert set(page.figures) == {"pie", "plies", "claims"}
    assert "decided_by_one_move" not in page.rows
    assert "No opening heatmaps" in (tmp_path / "r.html").read_text()


def test_a_sample_is_replayed_in_a_long_run(tmp_path: Path) -> None:
    games = veletas.playouts(900, variant="small", seed=2, record=True)
    page = Page(veletas.report(games, tmp_path / "r.html", sample=100).read_text())
    decided = page.rows["decided_by_one_move"]
    assert (decided["games"], decided["every"]) == (100, 9)


def test_without_matplotlib_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(ModuleNotFoundError, match=re.escape('pip install ".[report]" in a clone')):
        veletas.report(veletas.playouts(5, variant="small"), tmp_path / "r.html")
    args = ["playout", "--games", "5", "--report", str(tmp_path / "r.html")]
    assert main(args) == 2
    assert '".[report]"' in capsys.readouterr().err


def test_the_programs_own_matplotlib_settings_are_kept(tmp_path: Path) -> None:
    import matplotlib

    before = dict(matplotlib.rcParams)
    veletas.report(veletas.playouts(50, variant="small", record=True), tmp_path / "r.html")
    assert dict(matplotlib.rcParams) == before


def test_no_games_no_report(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="one game or more"):
        veletas.report(veletas.playouts(0, variant="small"), tmp_path / "r.html")
    with pytest.raises(ValueError, match="unknown figure format 'gif'"):
        veletas.report(veletas.playouts(5, variant="small"), tmp_path / "r.html", formats=["gif"])
    page = Page(
        veletas.report(
            veletas.playouts(50, variant="small", record=True), tmp_path / "r.html", sample=0
        ).read_text()
    )
    assert "decided_by_one_move" not in page.rows


# ----------------------------------------------------------------------
# Meridians


def test_meridians_endings_are_those_of_the_arrays(
    meridians_page: Page, meridians_games: veletas.Playouts
) -> None:
    page, games = meridians_page, meridians_games
    stones = page.figures["stones"]
    winner = games.winner.astype(np.int64)
    n = len(games)
    won = games.stones[np.arange(n), winner].astype(np.int64)
    lost = games.stones[np.arange(n), 1 - winner].astype(np.int64)
    emptied = lost == 0
    assert stones["games"] == n
    assert_estimate(stones["endings"]["no_stones_left"], int(emptied.sum()), n)
    assert_estimate(stones["endings"]["no_placement"], int((~emptied).sum()), n)
    assert page.rows["ended_without_stones"] == stones["endings"]["no_stones_left"]
    left = stones["winner_left"]
    columns = zip(left["stones"], left["no_stones_left"], left["no_placement"], strict=True)
    for count, emptying, blocking in columns:
        assert emptying == int(((won == count) & emptied).sum()), count
        assert blocking == int(((won == count) & ~emptied).sum()), count
    assert sum(left["no_stones_left"]) + sum(left["no_placement"]) == n
    assert close(stones["light_mean"], float(games.stones[:, 0].mean()))
    assert close(stones["dark_mean"], float(games.stones[:, 1].mean()))
    assert close(stones["winner_mean"], float(won.mean()))
    # Removed: the stones placed (replayed from the moves' text) less those left.
    placed = np.array(
        [sum(str(m) not in ("swap", "keep") for m in games.moves_of(i)) for i in range(n)]
    )
    removed = placed - games.stones.sum(axis=1)
    histogram = dict(zip(stones["removed"]["stones"], stones["removed"]["games"], strict=True))
    for count in range(int(removed.max()) + 1):
        assert histogram[count] == int((removed == count).sum()), count
    assert close(stones["removed"]["mean"], float(removed.mean()))
    text = page.text
    assert f"{stones['removed']['mean']:.2f}" in text
    assert f"{100 * stones['endings']['no_placement']['rate']:.2f}%" in text


def test_meridians_first_points_are_those_of_the_moves(
    meridians_page: Page, meridians_games: veletas.Playouts
) -> None:
    page, games = meridians_page, meridians_games
    firsts = [
        next(str(m) for m in games.moves_of(i) if str(m) not in ("swap", "keep"))
        for i in range(len(games))
    ]
    first = games.winner == games.swapped.astype(np.int8)
    overall = float(first.mean())
    figure = page.figures["first-stone"]
    assert figure["size"] == "6-7"
    assert close(figure["overall"], overall)
    cells = {cell["square"]: cell for cell in figure["points"]}
    assert set(cells) == set(firsts)
    on_board = {point_name(r * 14 + c) for c, r in board_points("6-7")}
    assert set(cells) <= on_board
    assert len(on_board) == 114
    for name, cell in cells.items():
        mask = np.array([point == name for point in firsts])
        assert cell["games"] == int(mask.sum())
        assert cell["wins"] == int((first & mask).sum())
        assert_estimate(cell, cell["wins"], cell["games"])
        assert cell["differs"] == (cell["high"] < overall or cell["low"] > overall)


def test_the_meridians_heatmap_is_drawn_on_the_hexagon(meridians_page: Page) -> None:
    root = ET.fromstring(meridians_page.svgs["first-stone"])
    texts = [
        "".join(element.itertext()) for element in root.iter("{http://www.w3.org/2000/svg}text")
    ]
    # Every point opened on is named in its cell, with its rate and its games.
    for cell in meridians_page.figures["first-stone"]["points"]:
        assert cell["square"] in texts, cell["square"]
        assert f"{cell['rate']:.1%}" in texts, cell["square"]
    # One hexagonal cell a point of the board (grey where no game opened), each
    # outlined point outlined once more.
    svg = "{http://www.w3.org/2000/svg}"
    groups = {g.get("id"): g for g in root.iter(f"{svg}g") if g.get("id")}
    points = {point_name(r * 14 + c) for c, r in board_points("6-7")}
    cells = meridians_page.figures["first-stone"]["points"]
    assert {key.removeprefix("point-") for key in groups if key.startswith("point-")} == points
    outlined = {cell["square"] for cell in cells if cell["differs"]}
    assert {key.removeprefix("outlined-") for key in groups if key.startswith("outlined-")} == (
        outlined
    )

    def corners(key: str) -> list[tuple[float, float]]:
        (path,) = groups[key].iter(f"{svg}path")
        values = [float(v) for v in re.sub("[MLz]", " ", path.get("d", "")).split()]
        return sorted(set(zip(values[0::2], values[1::2], strict=True)))

    for key in groups:
        if key.startswith(("point-", "outlined-")):
            assert len(corners(key)) == 6, key  # a hexagon

    # Neighbouring points' cells touch: a1, b1 and a2 make an equilateral triangle.
    def centre(name: str) -> tuple[float, float]:
        points = corners(f"point-{name}")
        return sum(x for x, _ in points) / 6, sum(y for _, y in points) / 6

    (ax, ay), (bx, by), (cx, cy) = centre("a1"), centre("b1"), centre("a2")
    assert math.isclose(ay, by, abs_tol=0.01)
    assert math.isclose(math.hypot(cx - ax, cy - ay), bx - ax, rel_tol=1e-3)  # a triangle


@pytest.mark.parametrize("size", ["5-6", "6-7", "7-8"])
@pytest.mark.parametrize("pie", [False, True])
def test_meridians_reports_of_every_size_and_pie(tmp_path: Path, size: str, pie: bool) -> None:
    games = meridians.playouts(400, size=size, pie=pie, seed=3, record=True)
    page = Page(veletas.report(games, tmp_path / "r.html").read_text())
    assert set(page.figures) == FIGURES["meridians"]
    points = {cell["square"] for cell in page.figures["first-stone"]["points"]}
    assert points <= {point_name(r * 14 + c) for c, r in board_points(size)}
    assert page.rows["advantage"]["rate"] == float(
        (games.winner == games.swapped.astype(np.int8)).mean()
    )
    assert ("swaps colours" in page.text) == pie
    assert f"Meridians {size}" in page.text
    if not pie:
        assert page.figures["pie"]["first_player_swap"]["games"] == 0


def test_a_meridians_run_without_moves_or_from_a_position_has_no_openings(
    tmp_path: Path,
) -> None:
    plain = meridians.playouts(200, seed=1)
    page = Page(veletas.report(plain, tmp_path / "a.html").read_text())
    assert set(page.figures) == {"pie", "plies", "stones"}
    assert "removed" not in page.figures["stones"]
    assert "No opening heatmap" in page.text
    empty = "7/8/9/10/11/12/12/11/10/9/8/7 l open"  # the start, given as a string
    moved = meridians.playouts(200, start=empty, seed=1, record=True)
    assert "first-stone" in Page(veletas.report(moved, tmp_path / "b.html").read_text()).figures
    board = meridians.Board()
    board.push_str("f2")
    later = meridians.playouts(200, start=board, seed=1, record=True)
    page = Page(veletas.report(later, tmp_path / "c.html").read_text())
    assert "first-stone" not in page.figures


def test_the_command_line_reports_a_meridians_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.parquet"
    args = ["playout", "--game", "meridians", "--size", "5-6", "--pie", "--games", "500"]
    assert main([*args, "--save", str(path), "--report", str(tmp_path / "a.html")]) == 0
    assert main(["report", str(path), "--out", str(tmp_path / "b.html")]) == 0
    a = Page((tmp_path / "a.html").read_text())
    b = Page((tmp_path / "b.html").read_text())
    assert a.numbers == b.numbers
    assert a.numbers["games"] == 500
    assert "Meridians 5-6, pie rule" in a.text
