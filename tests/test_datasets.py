"""Playout datasets: Arrow tables and Parquet files that give back the same
Playouts, records read as a stream, and ``--save`` that streams and resumes."""

from __future__ import annotations

import builtins
import io
import json
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import veletas
from veletas import _dataset_write, datasets, meridians, records
from veletas import games as registry
from veletas.cli import main
from veletas.errors import DatasetError
from veletas.playouts import PlayoutJob, Playouts

MERIDIANS_RUNS = [
    {"game": "meridians", "size": size, "pie": pie}
    for size in ("5-6", "6-7", "7-8")
    for pie in (False, True)
] + [{"game": "meridians", "size": "5-6", "start": "6/7/8/9/10/10/9/8/7/6 l open", "pie": True}]
"""Every size and pie option of Meridians, and a start position string."""

RUNS = [
    *MERIDIANS_RUNS,
    {"variant": "standard"},
    {"variant": "medium", "policy": "uniform"},
    {"variant": "small", "setup_rule": "spacing"},
    {"variant": "small", "shooters_block": True},
    {"size": 6, "shooters": 5},
    {"variant": "small", "start": "7/2x4/7/1s5/7/o1s2s1/7 b play 3"},
    {"variant": "small", "start": "7/7/7/7/7/7/7 b setup 3", "seed": 2**64 - 1},
]


def play(n_games: int, **options: Any) -> Playouts:
    """The playouts of either game: ``game="meridians"`` plays Meridians."""
    if options.pop("game", "veletas") == "meridians":
        return meridians.playouts(n_games, **options)
    return veletas.playouts(n_games, **options)


def run_id(options: dict[str, Any]) -> str:
    return "-".join(map(str, options.values()))


def assert_same_playouts(a: Playouts, b: Playouts) -> None:
    assert list(a.dataset_columns()) == list(b.dataset_columns())
    for name in b.dataset_columns():
        got, want = getattr(a, name), getattr(b, name)
        assert got.dtype == want.dtype, name
        assert np.array_equal(got, want), name
    assert (a.moves is None) == (b.moves is None)
    if a.moves is not None:
        assert b.moves is not None
        assert a.offsets is not None
        assert b.offsets is not None
        assert a.moves.dtype == registry.get(b.game).playouts.MOVE_DTYPE
        assert np.array_equal(a.moves, b.moves)
        assert np.array_equal(a.offsets, b.offsets)
    for name in ("start", "rules", "policy", "seed", "first_game", "backend", "game"):
        assert getattr(a, name) == getattr(b, name), name


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("options", RUNS, ids=run_id)
def test_parquet_gives_back_the_same_playouts(
    tmp_path: Path, options: dict[str, Any], record: bool
) -> None:
    games = play(300, record=record, **{"seed": 5, **options})
    path = tmp_path / "games.parquet"
    games.to_parquet(path)
    again = veletas.read_playouts(path)
    assert_same_playouts(again, games)
    if record:
        for i in (0, 150, 299):
            assert again.board(i).fen() == games.board(i).fen()


def test_the_table_is_one_row_a_game_with_its_run_in_the_metadata() -> None:
    games = veletas.playouts(50, variant="small", seed=9, record=True)
    table = games.to_arrow()
    assert table.column_names == ["game", "winner", "swapped", "plies", "claims", "moves"]
    assert table.num_rows == 50
    assert table.column("game").to_pylist() == list(range(50))
    assert table.column("claims").to_pylist()[7] == games.claims[7].tolist()
    meta = json.loads(table.schema.metadata[b"veletas"])
    assert meta["game"] == "veletas"
    assert meta["rules"] == {
        "size": 7,
        "shooters": 3,
        "setup_rule": "perimeter",
        "shooters_block": False,
        "claimed_shooters_block": False,
    }
    assert (meta["seed"], meta["policy"], meta["start"]) == (9, "micro", games.start)
    assert meta["version"] == veletas.__version__
    # The moves decode to the notation of the game, game by game.
    codes = table.column("moves").to_pylist()[3]
    moves = datasets.decode_moves(codes)
    assert [str(m) for m in games.moves_of(3)] == [str(m) for m in _replay_codes(games, moves)]


@pytest.mark.parametrize("options", MERIDIANS_RUNS[:6], ids=run_id)
def test_a_meridians_table_has_its_columns_rules_and_move_codes(options: dict[str, Any]) -> None:
    games = play(60, seed=9, record=True, **options)
    table = games.to_arrow()
    assert table.column_names == ["game", "winner", "swapped", "plies", "stones", "moves"]
    assert table.column("stones").to_pylist()[7] == games.stones[7].tolist()
    assert table.schema.field("moves").type.value_type == pa.int16()
    meta = json.loads(table.schema.metadata[b"veletas"])
    assert meta["game"] == "meridians"
    assert meta["rules"] == {"size": options["size"], "pie": options["pie"]}
    assert (meta["seed"], meta["policy"], meta["start"]) == (9, "uniform", games.start)
    assert meta["version"] == veletas.__version__
    assert meta["moves"] == {"encoding": "int16: point rank * 14 + file, -1 swap, -2 keep"}
    # The documented decoder gives the notation of each move.
    codes = table.column("moves").to_pylist()[3]
    spec = registry.get("meridians").playouts
    names = [spec.code_text(int(code)) for code in spec.decode_moves(codes)]
    assert names == [str(move) for move in games.moves_of(3)]
    board = meridians.Board(size=options["size"], pie=options["pie"])
    for name in names:
        board.push_str(name)
    assert board.fen() == games.board(3).fen()
    with pytest.raises(DatasetError, match="Meridians move codes"):
        spec.decode_moves([-3])


def _replay_codes(games: Playouts, moves: np.ndarray) -> list[Any]:
    one = Playouts(
        {
            "winner": games.winner[:1],
            "swapped": games.swapped[:1],
            "plies": np.array([len(moves)], np.int32),
            "claims": games.claims[:1],
            "moves": moves.view(np.int8).reshape(-1, 4),
            "offsets": np.array([0, len(moves)]),
        },
        start=games.start,
        rules=games.rules,
        policy=games.policy,
        seed=games.seed,
        first_game=0,
        backend=games.backend,
    )
    return one.moves_of(0)


def test_a_range_keeps_its_game_indices(tmp_path: Path) -> None:
    job = PlayoutJob.make(variant="small", seed=4, record=True)
    part = job.run(1000, 200)
    part.to_parquet(tmp_path / "part.parquet")
    again = veletas.read_playouts(tmp_path / "part.parquet")
    assert again.first_game == 1000
    assert_same_playouts(again, part)


def test_no_games_round_trip(tmp_path: Path) -> None:
    games = veletas.playouts(0, variant="small", record=True)
    games.to_parquet(tmp_path / "none.parquet")
    assert_same_playouts(veletas.read_playouts(tmp_path / "none.parquet"), games)


def test_pandas_style_readers_see_plain_columns(tmp_path: Path) -> None:
    games = veletas.playouts(100, variant="small", seed=1, record=True)
    games.to_parquet(tmp_path / "g.parquet")
    table = pq.read_table(tmp_path / "g.parquet", columns=["winner", "plies"])
    assert table.column("plies").to_pylist() == games.plies.tolist()
    assert pq.ParquetFile(tmp_path / "g.parquet").metadata.num_row_groups == 1


def _row_groups_of(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Row groups of ``games`` games, in the writer of runs and of files."""
    monkeypatch.setattr(datasets, "ROW_GROUP_GAMES", games)
    monkeypatch.setattr(_dataset_write, "ROW_GROUP_GAMES", games)


def test_iter_playouts_reads_a_row_group_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _row_groups_of(monkeypatch, 128)
    games = veletas.playouts(1000, variant="small", seed=2, record=True)
    games.to_parquet(tmp_path / "g.parquet")
    parts = list(datasets.iter_playouts(tmp_path / "g.parquet"))
    assert [len(part) for part in parts] == [128] * 7 + [104]
    assert_same_playouts(Playouts.concatenate(parts), games)
    columns = list(datasets.iter_playouts(tmp_path / "g.parquet", moves=False))
    assert all(part.moves is None for part in columns)
    assert np.array_equal(np.concatenate([p.winner for p in columns]), games.winner)


def test_a_file_that_is_not_a_dataset_is_refused(tmp_path: Path) -> None:
    pq.write_table(pa.table({"x": [1, 2]}), tmp_path / "other.parquet")
    with pytest.raises(DatasetError, match="not a playout dataset"):
        veletas.read_playouts(tmp_path / "other.parquet")
    (tmp_path / "text.parquet").write_text("hello")
    with pytest.raises(DatasetError, match="not a Parquet file"):
        datasets.read_metadata(tmp_path / "text.parquet")


def test_move_codes_round_trip() -> None:
    games = veletas.playouts(200, seed=3, record=True)
    assert games.moves is not None
    codes = datasets.encode_moves(games.moves)
    assert codes.dtype == np.int32
    assert (codes >= 0).all()
    assert np.array_equal(datasets.decode_moves(codes), games.moves)
    kinds = codes >> 24
    assert np.array_equal(kinds, games.moves["kind"])
    targets = codes & 255
    assert np.array_equal(targets, games.moves["target"].astype(np.int64) & 255)
    with pytest.raises(DatasetError, match="move codes"):
        datasets.decode_moves([-1])


def test_without_pyarrow_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_import = builtins.__import__

    def no_pyarrow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    games = veletas.playouts(5, variant="small")
    with pytest.raises(ModuleNotFoundError, match=re.escape('pip install ".[data]" in a clone')):
        games.to_arrow()
    assert main(["playout", "--games", "5", "--save", str(tmp_path / "x.parquet")]) == 2
    # Records need no pyarrow.
    assert main(["playout", "--games", "5", "--save", str(tmp_path / "x.txt")]) == 0
    assert len(records.read(tmp_path / "x.txt")) == 5


# ----------------------------------------------------------------------
# Records


@pytest.mark.parametrize(
    "options", [{"variant": "small"}, *MERIDIANS_RUNS[:6]], ids=lambda options: run_id(options)
)
def test_records_convert_to_playouts_and_back(tmp_path: Path, options: dict[str, Any]) -> None:
    games = play(200, seed=6, record=True, **options)
    path = tmp_path / "games.txt"
    with open(path, "w", encoding="utf-8") as file:
        datasets.write_records(games, file, date="2024.01.02")
    again = veletas.read_playouts(path)
    assert_same_playouts(again, games)
    text = io.StringIO()
    datasets.write_records(again, text, date="2024.01.02")
    assert text.getvalue() == path.read_text()


def test_fast_records_are_the_records_of_the_games() -> None:
    for options in RUNS:
        games = play(40, record=True, **{"seed": 8, **options})
        expected = [games.record(i) for i in range(len(games))]
        for record in expected:
            record.tags["Date"] = "2024.01.02"
        text = io.StringIO()
        datasets.write_records(games, text, date="2024.01.02")
        assert text.getvalue() == records.write(expected), options


def test_records_of_other_rules_do_not_mix() -> None:
    small = veletas.playouts(2, variant="small", record=True)
    medium = veletas.playouts(2, variant="medium", record=True)
    text = records.write([small.record(0), medium.record(0)])
    with pytest.raises(DatasetError, match="record 2 is of other rules"):
        datasets.records_to_playouts(records.iter_read(text))


def test_records_are_read_as_a_stream() -> None:
    games = veletas.playouts(3, variant="small", seed=1, record=True)
    good = records.write([games.record(i) for i in range(3)])
    broken = good + '\n[Variant "small"]\n[Result "*"]\n\n1. k9 *\n'
    stream = records.iter_read(broken)
    assert [len(next(stream).moves) for _ in range(3)] == games.plies.tolist()
    with pytest.raises(veletas.InvalidRecordError, match="move 1 'k9'"):
        next(stream)
    # Only the game asked for is read: the broken one after it is never seen.
    assert records.read_game(broken, 1).board().fen() == games.board(1).fen()
    with pytest.raises(IndexError, match="holds 4 record"):
        records.read_game(good + '\n[Variant "small"]\n[Result "*"]\n\n*\n', 4)


def test_replay_reads_only_up_to_its_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = veletas.playouts(3, variant="small", seed=1, record=True)
    path = tmp_path / "g.txt"
    path.write_text(
        records.write([games.record(i) for i in range(3)])
        + '\n[Variant "small"]\n[Result "*"]\n\n1. k9 *\n'
    )
    assert main(["replay", str(path), "--game", "2", "--all", "--no-color"]) == 0
    assert games.board(1).fen() in capsys.readouterr().out
    assert main(["replay", str(path), "--game", "9", "--all"]) == 2
    assert "holds 4 game(s)" in capsys.readouterr().err


# ----------------------------------------------------------------------
# Streaming --save


GAME_ARGS = {
    "veletas": ["--variant", "small"],
    "meridians": ["--game", "meridians", "--size", "5-6", "--pie"],
}
"""The command line of the runs that ``save`` makes, by game."""
GAME_OPTIONS: dict[str, dict[str, Any]] = {
    "veletas": {"variant": "small"},
    "meridians": {"game": "meridians", "size": "5-6", "pie": True},
}
"""The same runs, as the options of :func:`play` and ``PlayoutJob.make``."""


def save(tmp_path: Path, name: str, *extra: str, games: int = 3000, game: str = "veletas") -> int:
    args = ["playout", "--games", str(games), *GAME_ARGS[game], "--seed", "11"]
    return main([*args, "--save", str(tmp_path / name), *extra])


@pytest.mark.parametrize("game", ["veletas", "meridians"])
@pytest.mark.parametrize("name", ["games.parquet", "games.txt"])
def test_save_streams_the_games_of_the_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    game: str,
) -> None:
    _row_groups_of(monkeypatch, 500)  # several parts
    assert save(tmp_path, name, game=game) == 0
    assert f"wrote 3,000 games to {tmp_path / name}" in capsys.readouterr().err
    assert not (tmp_path / f"{name}.partial").exists()
    games = play(3000, seed=11, record=True, **GAME_OPTIONS[game])
    saved = veletas.read_playouts(tmp_path / name)
    assert_same_playouts(saved, games)
    if name.endswith(".parquet"):
        assert pq.ParquetFile(tmp_path / name).metadata.num_row_groups == 6
        games.to_parquet(tmp_path / "whole.parquet")
        assert (tmp_path / name).read_bytes() == (tmp_path / "whole.parquet").read_bytes()


def test_save_keeps_an_existing_file_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "games.parquet").write_text("precious")
    assert save(tmp_path, "games.parquet") == 2
    assert "exists: add --force" in capsys.readouterr().err
    assert (tmp_path / "games.parquet").read_text() == "precious"
    assert save(tmp_path, "games.parquet", "--force") == 0
    assert len(veletas.read_playouts(tmp_path / "games.parquet")) == 3000
    assert main(["playout", "--games", "10", "--resume"]) == 2
    assert "--resume needs --save" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_resume_completes_what_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    _row_groups_of(monkeypatch, 500)
    job = PlayoutJob.make(seed=11, record=True, **GAME_OPTIONS[game])
    path = tmp_path / "games.parquet"
    writer = datasets.DatasetWriter(path, job, 3000)
    writer.add(job.run(0, 700))
    writer.add(job.run(700, 600))  # 1,300 games: parts of 700 and 600
    # A half-written part, and a part past a gap, as a kill leaves them.
    (writer.parts / f".part-{1300:020d}-{700:020d}.parquet.123.tmp").write_bytes(b"PAR1 half")
    pq.write_table(
        job.run(2000, 10).to_arrow(), writer.parts / f"part-{2000:020d}-{10:020d}.parquet"
    )
    writer.close()  # the run stops: its parts stay
    assert not path.exists()
    assert save(tmp_path, "games.parquet", game=game) == 2
    assert "add --resume" in capsys.readouterr().err
    assert save(tmp_path, "games.parquet", "--resume", "--json", game=game) == 0
    captured = capsys.readouterr()
    assert "resuming" in captured.err
    assert "1,300 games already saved" in captured.err
    summary = json.loads(captured.out)
    games = play(3000, seed=11, record=True, **GAME_OPTIONS[game])
    assert summary["first_player_wins"] == games.summary()["first_player_wins"]
    assert_same_playouts(veletas.read_playouts(path), games)
    # Resuming a finished file plays nothing and leaves it as it is.
    before = path.read_bytes()
    assert save(tmp_path, "games.parquet", "--resume", game=game) == 0
    assert "is complete" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_resuming_a_finished_record_file_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert save(tmp_path, "games.txt", games=300) == 0
    before = (tmp_path / "games.txt").read_bytes()
    capsys.readouterr()
    assert save(tmp_path, "games.txt", "--resume", games=300) == 0
    assert "is complete: 300 games" in capsys.readouterr().err
    assert (tmp_path / "games.txt").read_bytes() == before
    assert save(tmp_path, "games.txt", "--resume", games=400) == 2
    assert "not the finished file of this run" in capsys.readouterr().err


def test_resume_refuses_another_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _row_groups_of(monkeypatch, 500)
    job = PlayoutJob.make(variant="small", seed=11, record=True)
    writer = datasets.DatasetWriter(tmp_path / "games.parquet", job, 3000)
    writer.add(job.run(0, 600))
    writer.close()
    assert save(tmp_path, "games.parquet", "--resume", "--policy", "uniform") == 2
    assert "policy 'micro', not 'uniform'" in capsys.readouterr().err
    assert save(tmp_path, "games.parquet", "--resume", games=4000) == 2
    assert "games 3000, not 4000" in capsys.readouterr().err


def test_report_in_the_same_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert save(tmp_path, "g.parquet", "--report", str(tmp_path / "r.html"), games=500) == 0
    assert "wrote the report" in capsys.readouterr().err
    assert "500 random games" in (tmp_path / "r.html").read_text()


def test_a_stuck_start_saves_its_games(tmp_path: Path) -> None:
    # No legal move at all: every game ends at once, with no winner.
    fen = "xxxxxxx/xoxoxox/xxxxxxx/oxoxoxo/xxsxxxx/oxoxoxo/xxxXxxO w play 3"
    path = tmp_path / "g.parquet"
    assert main(["playout", "--games", "20", "--from", fen, "--save", str(path)]) == 0
    saved = veletas.read_playouts(path)
    assert saved.winner.tolist() == [-1] * 20
    assert saved.plies.tolist() == [0] * 20


# ----------------------------------------------------------------------
# Killed at random moments


def playout_command(path: Path, games: int, game: str = "veletas") -> list[str]:
    return [
        sys.executable,
        "-m",
        "veletas.cli",
        "playout",
        "--games",
        str(games),
        *GAME_ARGS[game],
        "--seed",
        "3",
        "--threads",
        "1",
        "--save",
        str(path),
    ]


def timed_run(command: list[str], cwd: Path) -> float:
    clock = time.monotonic()
    subprocess.run(command, check=True, capture_output=True, cwd=cwd)
    return time.monotonic() - clock


def kill_and_resume(
    tmp_path: Path, name: str, games: int, kills: int, seed: int, game: str = "veletas"
) -> list[str]:
    """Run ``veletas playout --save`` uninterrupted into ``whole-NAME``;
    then into ``NAME``, killed (SIGINT or SIGKILL) at a random moment of the
    run ``kills`` times, each time started again with ``--resume``, and
    left to finish. Returns what was done."""
    startup = timed_run(playout_command(tmp_path / f"none-{name}", 1, game), tmp_path)
    whole = timed_run(playout_command(tmp_path / f"whole-{name}", games, game), tmp_path)
    command = playout_command(tmp_path / name, games, game)
    rng = random.Random(seed)
    signals = [signal.SIGINT, signal.SIGKILL]
    signals += rng.choices(signals, k=kills - 2)
    rng.shuffle(signals)
    log = []
    for attempt in range(kills + 1):
        args = command if attempt == 0 else [*command, "--resume"]
        child = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path
        )
        if attempt < kills:
            # Anywhere in the run (playing, writing a part, merging the parts),
            # early enough that a resumed run is still at work.
            delay = rng.uniform(startup, startup + 0.7 * (whole - startup))
            how = signals[attempt]
            try:
                child.wait(timeout=delay)
                log.append(f"finished before {delay:.2f} s")
            except subprocess.TimeoutExpired:
                child.send_signal(how)
                log.append(f"{how.name} at {delay:.2f} s")
        _, err = child.communicate(timeout=600)
        text = err.decode()
        assert "Traceback" not in text or "KeyboardInterrupt" in text, text
        if attempt == kills:
            assert child.returncode == 0, text
    return log


@pytest.mark.native
@pytest.mark.parametrize(("game", "games"), [("veletas", 150_000), ("meridians", 100_000)])
def test_runs_killed_at_random_moments_resume_to_the_same_file(
    tmp_path: Path, game: str, games: int
) -> None:
    log = kill_and_resume(tmp_path, "games.parquet", games=games, kills=5, seed=7, game=game)
    whole = (tmp_path / "whole-games.parquet").read_bytes()
    assert (tmp_path / "games.parquet").read_bytes() == whole, log
    left = sorted(entry.name for entry in tmp_path.iterdir())
    assert left == ["games.parquet", "none-games.parquet", "whole-games.parquet"], log


@pytest.mark.slow
@pytest.mark.parametrize("game", ["veletas", "meridians"])
@pytest.mark.parametrize("name", ["games.parquet", "games.txt"])
def test_many_kills_resume_to_the_same_file(tmp_path: Path, name: str, game: str) -> None:
    games = 600_000 if game == "veletas" else 300_000
    log = kill_and_resume(tmp_path, name, games=games, kills=12, seed=11, game=game)
    whole = (tmp_path / f"whole-{name}").read_bytes()
    assert (tmp_path / name).read_bytes() == whole, log


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_games_of_the_reference_engine_round_trip(tmp_path: Path, game: str) -> None:
    job = PlayoutJob.make(seed=6, record=True, backend="python", **GAME_OPTIONS[game])
    games = job.run(0, 20)
    games.to_parquet(tmp_path / "reference.parquet")
    again = veletas.read_playouts(tmp_path / "reference.parquet")
    assert_same_playouts(again, games)
    reference = veletas.reference if game == "veletas" else meridians.reference
    assert isinstance(again.board(3), reference.Board)


def test_a_run_that_cannot_start_leaves_nothing_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ray_cluster import free_ports

    (port,) = free_ports(1)
    path = tmp_path / "games.parquet"
    args = ["playout", "--games", "10", "--ray", f"127.0.0.1:{port}", "--save", str(path)]
    assert main(args) == 2
    assert "no Ray cluster answers" in capsys.readouterr().err
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_replay_and_review_read_a_game_of_a_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    games = play(70_000, seed=6, record=True, **GAME_OPTIONS[game])  # two row groups
    path = tmp_path / "games.parquet"
    games.to_parquet(path)
    for index in (0, 69_999):
        record = datasets.read_game(path, index)
        assert str(record) == str(games.record(index))
    assert main(["replay", str(path), "--number", "70000", "--all", "--no-color"]) == 0
    assert games.board(69_999).fen() in capsys.readouterr().out
    assert main(["replay", str(path), "--number", "70001"]) == 2
    assert f"{path} holds 70000 game(s), not 70001" in capsys.readouterr().err
    assert main(["review", str(path), "--number", "2", "--iterations", "5"]) == 0
    assert "mistake(s)" in capsys.readouterr().out


def test_a_dataset_without_moves_cannot_be_replayed(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    veletas.playouts(10, variant="small", seed=1).to_parquet(path)
    with pytest.raises(DatasetError, match="holds no moves"):
        datasets.read_game(path, 0)
