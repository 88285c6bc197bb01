"""``make strength`` (``scripts/strength.py``): each game kept as it ends,
a later run going on where the file stops, the table rendered from it."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def lab() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength", ROOT / "scripts" / "strength.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_games_are_kept_as_they_end_and_a_run_goes_on_from_the_file(
    lab: ModuleType, tmp_path: Path
) -> None:
    row = lab.Row("t", "test", "mcts:iterations=20", "random", {"variant": "small"}, openings=3)
    results = tmp_path / "results.jsonl"
    today = lab.defaults("veletas")
    # A file from an earlier run: games 0 and 1 kept, a line cut short.
    results.write_text(
        json.dumps({"row": "t", "index": 0, "a_points": 1.0, "defaults": today})
        + "\n"
        + json.dumps({"row": "t", "index": 1, "a_points": 0.5, "defaults": today})
        + '\n{"row": "t", "ind'
    )
    lab.play([row], results, None)
    kept = lab.read(results, [row])["t"]
    assert sorted(kept) == list(range(6))
    assert (kept[0], kept[1]) == (1.0, 0.5)  # the earlier games stay as they were
    lines = results.read_text().splitlines()
    assert len(lines) == 7  # the cut line stays, unread
    assert all(json.loads(line)["defaults"] == today for line in lines[3:])
    # Nothing is left to play: a second run adds nothing.
    lab.play([row], results, None)
    assert len(results.read_text().splitlines()) == 7


def test_games_of_other_defaults_are_kept_in_the_file_but_not_counted(
    lab: ModuleType, tmp_path: Path
) -> None:
    row = lab.Row("t", "test", "mcts:iterations=20", "random", {"variant": "small"}, openings=1)
    results = tmp_path / "results.jsonl"
    today = lab.defaults("veletas")
    other = {**today, "cutoff": today["cutoff"] + 1}
    earlier = [
        json.dumps({"row": "t", "index": 0, "a_points": 0.0, "defaults": other}),
        json.dumps({"row": "t", "index": 1, "a_points": 0.0}),  # before defaults were kept
    ]
    results.write_text("".join(line + "\n" for line in earlier))
    assert lab.read(results, [row]) == {}
    lab.play([row], results, None)
    lines = results.read_text().splitlines()
    assert lines[:2] == earlier
    assert sorted(lab.read(results, [row])["t"]) == [0, 1]


def test_an_unknown_row_is_refused_by_name(
    lab: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        lab.main(["--rows", "7x7,8x8", "--render"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--rows: unknown row '8x8' of the standard table; its rows are 7x7, 10x10" in err
    with pytest.raises(SystemExit):
        lab.main(["--table", "ladder", "--rows", "7x7", "--render"])
    assert "unknown row '7x7' of the ladder table; its rows are ladder-7x7-mcts-1000," in (
        capsys.readouterr().err
    )


def test_garbage_in_the_file_is_left_out_line_by_line(lab: ModuleType, tmp_path: Path) -> None:
    row = lab.Row("t", "test", "mcts", "random", {"variant": "small"}, openings=1)
    game = json.dumps(
        {"row": "t", "index": 0, "a_points": 1.0, "defaults": lab.defaults("veletas")}
    )
    results = tmp_path / "results.jsonl"
    results.write_bytes(
        bytes(range(256)) * 256  # 64 KiB, not UTF-8
        + b"\n[1]\n5\n"
        + b'{"row": "t", "index": '
        + b"9" * 5000
        + b', "a_points": 1}\n'
        + game.encode()
        + b"\n"
    )
    assert lab.read(results, [row]) == {"t": {0: 1.0}}


def test_the_table_is_rendered_between_its_markers(lab: ModuleType, tmp_path: Path) -> None:
    row = lab.Row("t", "test", "greedy", "mcts", {"game": "meridians", "pie": True}, openings=2)
    results = tmp_path / "results.jsonl"
    today = lab.defaults("meridians")
    results.write_text(
        "".join(
            json.dumps({"row": "t", "index": i, "a_points": p, "defaults": today}) + "\n"
            for i, p in enumerate([1, 1, 0.5, 0])
        )
    )
    page = tmp_path / "page.md"
    page.write_text(f"before\n{lab.BEGIN}\nold\n{lab.END}\nafter\n")
    lab.render([row], results, page)
    text = page.read_text()
    assert text.startswith("before\n")
    assert text.endswith("after\n")
    assert "old" not in text
    assert "| test | `greedy` | `mcts` | 4 of 4 | 62.5% (" in text
    assert "--game meridians --pie`" in text
    assert f"(meridians: cutoff {today['cutoff']}, exploration {today['exploration']})" in text
    page.write_text("no markers")
    with pytest.raises(SystemExit, match="has no markers <!-- strength table"):
        lab.render([row], results, page)


def test_the_ladder_sums_its_steps_and_their_variances(lab: ModuleType, tmp_path: Path) -> None:
    rungs = [row for row in lab.LADDER if row.title == "Veletas 7x7, uct"][:3]
    assert [rung.rung for rung in rungs] == [("uct", 1000), ("uct", 2000), ("uct", 4000)]
    assert (rungs[0].a, rungs[0].b) == ("uct:iterations=1000", "uct:iterations=500")
    assert rungs[0].played_with == {}  # uct's games do not depend on mcts's defaults
    results = tmp_path / "results.jsonl"
    # Step 1: 3 of 4 (75%); step 2: 1 of 2 (50%); step 3 not played.
    scores = {rungs[0].id: [1, 1, 1, 0], rungs[1].id: [1, 0]}
    results.write_text(
        "".join(
            json.dumps({"row": row, "index": i, "a_points": p, "defaults": {}}) + "\n"
            for row, points in scores.items()
            for i, p in enumerate(points)
        )
    )
    page = tmp_path / "page.md"
    page.write_text(f"{lab.LADDER_BEGIN}\n{lab.LADDER_END}\n")
    lab.render_ladder(rungs, results, page)
    lines = page.read_text().splitlines()
    first, second, third = (line.split(" | ") for line in lines[3:6])
    step = lab.elo(0.75)
    assert first[1:3] == ["1,000 against 500", "4 of 100"]
    assert first[4].startswith(f"{step:+.0f} (")
    one = lab.wilson(3, 4)
    spread = (lab.elo(one.high) - lab.elo(one.low)) / 2
    assert first[5] == f"{step:+.0f} ({step - spread:+.0f} .. {step + spread:+.0f}) |"
    two = lab.wilson(1, 2)
    both = lab.Z95 * math.hypot(
        (lab.elo(one.high) - lab.elo(one.low)) / (2 * lab.Z95),
        (lab.elo(two.high) - lab.elo(two.low)) / (2 * lab.Z95),
    )
    assert second[5] == f"{step:+.0f} ({step - both:+.0f} .. {step + both:+.0f}) |"
    assert third[3:] == ["not played yet"] * 2 + ["not played yet |"]


def test_a_game_index_beyond_the_row_is_left_out(lab: ModuleType, tmp_path: Path) -> None:
    row = lab.Row("t", "test", "mcts", "random", {"variant": "small"}, openings=1)
    today = lab.defaults("veletas")
    results = tmp_path / "results.jsonl"
    results.write_text(
        "".join(
            json.dumps({"row": "t", "index": index, "a_points": 1.0, "defaults": today}) + "\n"
            for index in (0, 2, -1, 10**40)
        )
    )
    assert lab.read(results, [row]) == {"t": {0: 1.0}}


def test_a_row_of_a_later_revision_counts_only_its_own_games(
    lab: ModuleType, tmp_path: Path
) -> None:
    row = lab.Row("t", "test", "mcts:iterations=20", "random", {"variant": "small"}, openings=1)
    later = lab.Row(
        "t", "test", "mcts:iterations=20", "random", {"variant": "small"}, openings=1, revision=2
    )
    results = tmp_path / "results.jsonl"
    today = lab.defaults("veletas")
    results.write_text(json.dumps({"row": "t", "index": 0, "a_points": 1.0, "defaults": today}))
    assert lab.read(results, [row]) == {"t": {0: 1.0}}
    assert lab.read(results, [later]) == {}
    assert later.played_with == {**today, "revision": 2}
