"""``make strength`` (``scripts/strength.py``): each game kept as it ends,
a later run going on where the file stops, the table rendered from it."""

from __future__ import annotations

import importlib.util
import json
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
    row = lab.Row("t", "test", "greedy", "random", {"variant": "small"}, openings=3)
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
    row = lab.Row("t", "test", "greedy", "random", {"variant": "small"}, openings=1)
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
    assert "--rows: unknown row '8x8'; the rows are 7x7, 10x10" in err


def test_garbage_in_the_file_is_left_out_line_by_line(lab: ModuleType, tmp_path: Path) -> None:
    row = lab.Row("t", "test", "greedy", "random", {"variant": "small"}, openings=1)
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
    row = lab.Row("t", "test", "greedy", "random", {"game": "meridians", "pie": True}, openings=2)
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
    assert "| test | `greedy` | `random` | 4 of 4 | 62.5% (" in text
    assert "--game meridians --pie`" in text
    assert f"(meridians: cutoff {today['cutoff']}, exploration {today['exploration']})" in text
    page.write_text("no markers")
    with pytest.raises(SystemExit, match="no strength table markers"):
        lab.render([row], results, page)
