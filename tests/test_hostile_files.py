"""Hostile and careless files: records that once took minutes or all the
memory, records that are not UTF-8 or carry a byte-order mark, Parquet
datasets with a changed byte, values outside their domain or metadata of
the wrong shapes, and ``--resume`` beside files it did not write."""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import veletas
from veletas import datasets, records
from veletas._paths import why_not_writable
from veletas.cli import main
from veletas.cli.options import output_file
from veletas.errors import DatasetError, InvalidRecordError
from veletas.playouts import PlayoutJob

pa = pytest.importorskip("pyarrow", reason="the data extra is not installed")
pq = pytest.importorskip("pyarrow.parquet", reason="the data extra is not installed")

HEAD = '[Variant "small"]\n[Result "*"]\n\n'
HANG = 120
"""Seconds after which a read counts as hung: the quadratic reader took
minutes on these inputs, the linear one milliseconds."""


def read_in_a_process(code: str, limit_bytes: int = 2 << 30) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh interpreter with at most ``limit_bytes`` of
    memory and :data:`HANG` seconds, so that a reader that hangs or eats the
    memory fails the test and not the machine."""
    prelude = (
        f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({limit_bytes}, {limit_bytes}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )


# -- records ----------------------------------------------------------


def test_a_line_of_braces_is_read_in_linear_time(tmp_path: Path) -> None:
    # 2 MB of '{' on one line (the line limit raised to let it through): the
    # quadratic comment pattern took over an hour, the linear reader a moment.
    path = tmp_path / "braces.txt"
    path.write_text(HEAD + "{" * 2_000_000 + "\n")
    done = read_in_a_process(
        "from veletas import records\n"
        "from veletas.errors import InvalidRecordError\n"
        "records.MAX_LINE_CHARS = 1 << 22\n"
        "try:\n"
        f"    records.read({str(path)!r})\n"
        "except InvalidRecordError as error:\n"
        "    print(error)\n"
    )
    assert done.returncode == 0, done.stderr
    assert "line 4: move 1" in done.stdout


def test_comments_are_removed_as_before() -> None:
    text = HEAD.replace("*", "*") + "{a comment} * {after}\n"
    [record] = records.read(text)
    assert record.moves == []
    with pytest.raises(InvalidRecordError, match="not a move"):
        records.read(HEAD + "{ unclosed *\n")


@pytest.mark.parametrize("where", ["tag", "moves"])
def test_a_line_over_the_limit_is_refused_before_it_is_held(tmp_path: Path, where: str) -> None:
    huge = "x" * 40_000_000
    text = f'[Event "{huge}"]\n' + HEAD if where == "tag" else HEAD + huge + "\n"
    path = tmp_path / "huge.txt"
    path.write_text(text)
    done = read_in_a_process(
        "from veletas import records\n"
        "from veletas.errors import InvalidRecordError\n"
        "try:\n"
        f"    records.read({str(path)!r})\n"
        "except InvalidRecordError as error:\n"
        "    print(error)\n",
        limit_bytes=1 << 30,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"longer than {records.MAX_LINE_CHARS:,} characters" in done.stdout


def test_dev_zero_is_refused_at_once() -> None:
    done = read_in_a_process(
        "from veletas import records\n"
        "from veletas.errors import InvalidRecordError\n"
        "try:\n"
        "    records.read('/dev/zero')\n"
        "except InvalidRecordError as error:\n"
        "    print(error)\n",
        limit_bytes=1 << 30,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "longer than" in done.stdout


def test_a_line_at_the_limit_is_read() -> None:
    comment = "{" + "c" * (records.MAX_LINE_CHARS - 3) + "}"
    [record] = records.read(HEAD + comment + "\n*\n")
    assert record.result == "*"


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    text = records.write(records.GameRecord.from_moves(veletas.Rules.make("small"), ["*c3"]))
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert records.read(path)[0].moves == records.read(text)[0].moves
    assert records.read("\ufeff" + text)[0].tags == records.read(text)[0].tags


def test_a_file_that_is_not_utf8_is_an_invalid_record(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(HEAD.encode() + b"\xe9t\xe9 *\n")
    with pytest.raises(InvalidRecordError, match="not UTF-8"):
        records.read(path)


def test_binary_files_to_replay_and_report_give_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parquet = tmp_path / "games.parquet"
    veletas.playouts(20, variant="small", record=True).to_parquet(parquet)
    named = tmp_path / "games.txt"
    named.write_bytes(parquet.read_bytes())
    for command in (["replay", str(named)], ["report", str(named)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith("veletas: error: "), err
        assert len(err.strip().splitlines()) == 1, err
    # A dataset's own name: read as the dataset it is.
    assert main(["replay", str(parquet), "--no-color"]) == 0


def test_a_lone_surrogate_in_a_tag_is_replayed(tmp_path: Path) -> None:
    record = records.GameRecord.from_moves(
        veletas.Rules.make("small"), ["*c3"], black="Ada \ud800", date="2025.01.01"
    )
    path = tmp_path / "surrogate.txt"
    records.write([record], path)
    done = subprocess.run(
        [sys.executable, "-m", "veletas.cli", "replay", str(path), "--all"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Ada \\ud800 (Black)" in done.stdout


# -- Parquet ----------------------------------------------------------


def dataset(tmp_path: Path, n: int = 300, **options: Any) -> Path:
    path = tmp_path / "games.parquet"
    veletas.playouts(n, variant="small", seed=5, record=True, **options).to_parquet(path)
    return path


def test_a_changed_byte_is_never_read_as_games(tmp_path: Path) -> None:
    path = dataset(tmp_path)
    original = veletas.read_playouts(path)
    data = path.read_bytes()
    rng = random.Random(7)
    changed = tmp_path / "changed.parquet"
    silently_different = []
    for _ in range(150):
        at = rng.randrange(4, len(data) - 8)
        changed.write_bytes(
            data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
        )
        try:
            games = veletas.read_playouts(changed)
        except DatasetError:
            continue
        same = all(
            np.array_equal(getattr(games, name), getattr(original, name))
            for name in ("winner", "swapped", "plies", "claims", "moves", "offsets")
        )
        if not same:
            silently_different.append(at)
    assert not silently_different, f"changed games read without an error: {silently_different}"


def test_files_are_written_with_page_checksums(tmp_path: Path) -> None:
    path = dataset(tmp_path, 50)
    data = bytearray(path.read_bytes())
    # The first data page's values: flip a byte just past the page header.
    column = pq.ParquetFile(path).metadata.row_group(0).column(1)
    start = column.data_page_offset
    data[start + column.total_compressed_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(DatasetError, match=r"games\.parquet"):
        veletas.read_playouts(path)
    with pytest.raises(DatasetError, match=r"games\.parquet"):
        list(datasets.iter_playouts(path))


def rewrite(path: Path, change: Any, metadata: Any = None) -> Path:
    """The dataset at ``path`` with its table changed by ``change`` (or its
    metadata replaced), written without checksums as another tool would."""
    table = pq.read_table(path)
    meta = json.loads(table.schema.metadata[datasets.METADATA_KEY])
    if metadata is not None:
        meta = metadata(meta)
    if change is not None:
        table = change(table)
    raw = meta if isinstance(meta, bytes) else json.dumps(meta).encode()
    table = table.replace_schema_metadata({datasets.METADATA_KEY: raw})
    out = path.with_name("other.parquet")
    pq.write_table(table, out)
    return out


def column(table: Any, name: str, values: Any) -> Any:
    index = table.column_names.index(name)
    return table.set_column(index, name, values)


def test_columns_outside_their_domain_are_refused(tmp_path: Path) -> None:
    path = dataset(tmp_path, 20)
    n = 20
    changes = {
        "winner 7": lambda t: column(t, "winner", pa.array([7] * n, pa.int8())),
        "winner null": lambda t: column(t, "winner", pa.array([None] * n, pa.int8())),
        "negative plies": lambda t: column(t, "plies", pa.array([-1] * n, pa.int32())),
        "plies that disagree with the moves": lambda t: column(
            t, "plies", pa.array([1] * n, pa.int32())
        ),
        "negative claims": lambda t: column(
            t,
            "claims",
            pa.FixedSizeListArray.from_arrays(pa.array([-1] * (2 * n), pa.int8()), 2),
        ),
    }
    for what, change in changes.items():
        with pytest.raises(DatasetError):
            veletas.read_playouts(rewrite(path, change))
        with pytest.raises(DatasetError):
            list(datasets.iter_playouts(rewrite(path, change)))
        print(what, "refused")


def meta_change(**fields: Any) -> Any:
    def change(meta: dict[str, Any]) -> dict[str, Any]:
        for key, value in fields.items():
            if value is KeyError:
                meta.pop(key, None)
            else:
                meta[key] = value
        return meta

    return change


BAD_METADATA = {
    "size 99": meta_change(
        rules={"size": 99, "shooters": 3, "setup_rule": "perimeter", "shooters_block": False}
    ),
    "seed -1": meta_change(seed=-1),
    "seed 2**70": meta_change(seed=2**70),
    "seed text": meta_change(seed="7"),
    "no start": meta_change(start=KeyError),
    "start not a position": meta_change(start="xyz"),
    "start a number": meta_change(start=5),
    "no rules": meta_change(rules=KeyError),
    "rules a list": meta_change(rules=[1, 2]),
    "unknown rule": meta_change(rules={"sides": 3}),
    "columns a string": meta_change(columns="winner"),
    "no columns": meta_change(columns=KeyError),
    "other columns": meta_change(columns=["winner"]),
    "unknown game": meta_change(game="chess"),
    "game a list": meta_change(game=[]),
    "policy a number": meta_change(policy=3),
    "backend": meta_change(backend="gpu"),
    "moves of another game": meta_change(moves={"encoding": "int16"}),
    "a list": lambda meta: [meta],
    "nested": lambda meta: ("[" * 100_000 + "]" * 100_000).encode(),
    "not JSON": lambda meta: b"{",
    "not UTF-8": lambda meta: b"\xff\xfe",
}


@pytest.mark.parametrize("change", BAD_METADATA.values(), ids=BAD_METADATA.keys())
def test_metadata_of_the_wrong_shape_is_a_dataset_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any
) -> None:
    path = rewrite(dataset(tmp_path, 10), None, metadata=change)
    with pytest.raises(DatasetError, match=r"other\.parquet"):
        veletas.read_playouts(path)
    with pytest.raises(DatasetError):
        list(datasets.iter_playouts(path))
    assert main(["report", str(path), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("veletas: error: "), err
    assert len(err.strip().splitlines()) == 1, err


def test_a_truncated_file_is_a_dataset_error(tmp_path: Path) -> None:
    path = dataset(tmp_path)
    data = path.read_bytes()
    for length in (0, 3, 100, len(data) // 2, len(data) - 5):
        path.write_bytes(data[:length])
        with pytest.raises(DatasetError, match=r"games\.parquet"):
            veletas.read_playouts(path)
        with pytest.raises(DatasetError, match=r"games\.parquet"):
            list(datasets.iter_playouts(path))


# -- rewritten with valid checksums: checked for meaning ---------------


def rewritten(tmp_path: Path, table: Any, name: str = "games.parquet") -> Path:
    """``table`` written as another tool would, with valid page checksums."""
    path = tmp_path / name
    pq.write_table(table, path, write_page_checksum=True)
    return path


def with_column(table: Any, name: str, values: Any) -> Any:
    return table.set_column(table.schema.get_field_index(name), name, values)


def with_metadata(table: Any, **changes: Any) -> Any:
    meta = json.loads(table.schema.metadata[datasets.METADATA_KEY])
    meta.update(changes)
    return table.replace_schema_metadata({datasets.METADATA_KEY: json.dumps(meta).encode()})


def with_move(table: Any, index: int, code: int) -> Any:
    moves = table.column("moves").combine_chunks()
    codes = moves.values.to_numpy().copy()
    codes[index] = code
    changed = pa.LargeListArray.from_arrays(moves.offsets, pa.array(codes))
    return with_column(table, "moves", changed)


def recorded_table(tmp_path: Path, game: str) -> Any:
    """A recorded run's table, as the package writes it."""
    if game == "veletas":
        games = veletas.playouts(300, variant="small", seed=5, record=True)
    else:
        games = veletas.meridians.playouts(300, pie=True, seed=5, record=True)
    games.to_parquet(tmp_path / "original.parquet")
    return pq.read_table(tmp_path / "original.parquet")


@pytest.fixture(params=["veletas", "meridians"])
def recorded(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    return recorded_table(tmp_path, request.param)


def refused(path: Path, *words: str) -> None:
    for read in (veletas.read_playouts, lambda p: list(datasets.iter_playouts(p))):
        with pytest.raises(DatasetError) as error:
            read(path)
        for word in (str(path), *words):
            assert word in str(error.value), error.value


def test_an_untouched_rewrite_reads_back(tmp_path: Path, recorded: Any) -> None:
    path = rewritten(tmp_path, recorded)
    assert len(veletas.read_playouts(path)) == 300


def test_a_changed_winner_is_refused(tmp_path: Path, recorded: Any) -> None:
    winner = recorded.column("winner").to_numpy().copy()
    winner[7] = 1 - winner[7]
    refused(
        rewritten(tmp_path, with_column(recorded, "winner", pa.array(winner))), "game 7", "'winner'"
    )


def test_a_flipped_swap_is_refused(tmp_path: Path, recorded: Any) -> None:
    swapped = recorded.column("swapped").to_numpy(zero_copy_only=False).copy()
    swapped[11] = not swapped[11]
    refused(
        rewritten(tmp_path, with_column(recorded, "swapped", pa.array(swapped))),
        "game 11",
        "'swapped'",
    )


def test_edited_claims_or_stones_are_refused(tmp_path: Path, recorded: Any) -> None:
    name = "claims" if "claims" in recorded.column_names else "stones"
    column = recorded.column(name).combine_chunks()
    values = column.flatten().to_numpy().copy()
    values[2 * 5] += 1
    edited = pa.FixedSizeListArray.from_arrays(pa.array(values), 2)
    refused(rewritten(tmp_path, with_column(recorded, name, edited)), "game 5", f"'{name}'")


def test_a_replaced_move_is_refused(tmp_path: Path, recorded: Any) -> None:
    codes = recorded.column("moves").combine_chunks().values.to_numpy()
    other = next(int(code) for code in codes if code != codes[0])
    refused(rewritten(tmp_path, with_move(recorded, 0, other)), "game 0", "'moves'", "move 1")


def test_an_illegal_move_in_games_of_records_is_refused(tmp_path: Path, recorded: Any) -> None:
    codes = recorded.column("moves").combine_chunks().values.to_numpy()
    other = next(int(code) for code in codes if code != codes[0])
    table = with_metadata(with_move(recorded, 0, other), policy="records")
    refused(rewritten(tmp_path, table), "game 0", "not a legal game")


@pytest.mark.parametrize(
    ("game", "field", "value"),
    [("veletas", "seed", 6), ("veletas", "policy", "uniform"), ("meridians", "seed", 6)],
)
def test_metadata_naming_another_run_is_refused(
    tmp_path: Path, game: str, field: str, value: Any
) -> None:
    table = with_metadata(recorded_table(tmp_path, game), **{field: value})
    refused(rewritten(tmp_path, table), "another run")


def test_a_run_from_a_position_after_the_swap_reads_back(tmp_path: Path) -> None:
    board = veletas.Board(variant="small")
    for move in ("*c3", "g7", "swap"):
        board.push_str(move)
    games = veletas.playouts(200, start=board, seed=3, record=True)
    assert games.swapped.all()
    games.to_parquet(tmp_path / "swapped.parquet")
    assert len(veletas.read_playouts(tmp_path / "swapped.parquet")) == 200


def test_the_columns_alone_are_read_without_a_replay(tmp_path: Path, recorded: Any) -> None:
    winner = recorded.column("winner").to_numpy().copy()
    winner[7] = 1 - winner[7]
    path = rewritten(tmp_path, with_column(recorded, "winner", pa.array(winner)))
    # The fast path checks domains only (docs/datasets.md says so).
    [group] = datasets.iter_playouts(path, moves=False)
    assert group.winner[7] == winner[7]


# -- --resume ---------------------------------------------------------


def stopped_run(tmp_path: Path, name: str = "games.parquet") -> tuple[Path, Path]:
    """A run of 3,000 games stopped after one part of 500; its file and parts."""
    job = PlayoutJob.make(variant="small", seed=11, record=True)
    path = tmp_path / name
    writer = datasets.DatasetWriter(path, job, 3000)
    writer.add(job.run(0, 500))
    writer.close()
    return path, writer.parts


def resume(tmp_path: Path, name: str = "games.parquet", *extra: str) -> int:
    return main(
        [
            *("playout", "--games", "3000", "--variant", "small", "--seed", "11"),
            *("--save", str(tmp_path / name), "--resume", *extra),
        ]
    )


def test_resume_keeps_a_folder_without_run_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parts = tmp_path / "games.parquet.partial"
    parts.mkdir()
    (parts / "notes.txt").write_text("mine")
    assert resume(tmp_path) == 2
    err = capsys.readouterr().err
    assert str(parts / "notes.txt") in err
    assert (parts / "notes.txt").read_text() == "mine"


def test_resume_keeps_files_that_are_not_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, parts = stopped_run(tmp_path)
    (parts / "notes.txt").write_text("mine")
    (parts / "figures").mkdir()
    assert resume(tmp_path) == 2
    err = capsys.readouterr().err
    assert f"{parts} holds {parts / 'figures'} (and 1 more), which no run" in err
    assert (parts / "notes.txt").read_text() == "mine"
    assert (parts / "figures").is_dir()
    # --force does not delete them either.
    assert resume(tmp_path, "games.parquet", "--force") == 2
    assert (parts / "notes.txt").read_text() == "mine"


def test_resume_refuses_a_run_json_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, parts = stopped_run(tmp_path)
    (parts / "run.json").write_text("{not json")
    kept = sorted(entry.name for entry in parts.iterdir())
    assert resume(tmp_path) == 2
    err = capsys.readouterr().err
    assert str(parts / "run.json") in err
    assert sorted(entry.name for entry in parts.iterdir()) == kept


@pytest.mark.parametrize("manifest", ["[]", '{"format": 1, "job": 7}', "7"])
def test_resume_refuses_a_run_json_of_another_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], manifest: str
) -> None:
    _, parts = stopped_run(tmp_path)
    (parts / "run.json").write_text(manifest)
    assert resume(tmp_path) == 2
    err = capsys.readouterr().err
    assert err.startswith("veletas: error: "), err
    assert len(err.strip().splitlines()) == 1, err


def test_resume_refuses_a_damaged_part_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, parts = stopped_run(tmp_path)
    [part] = [entry for entry in parts.iterdir() if entry.suffix == ".parquet"]
    data = bytearray(part.read_bytes())
    data[len(data) // 3] ^= 0xFF
    part.write_bytes(bytes(data))
    assert resume(tmp_path) == 2
    err = capsys.readouterr().err
    assert str(part) in err
    assert len(err.strip().splitlines()) == 1, err
    assert part.exists()


def test_resume_of_a_run_stopped_before_its_manifest_starts_afresh(tmp_path: Path) -> None:
    parts = tmp_path / "games.parquet.partial"
    parts.mkdir()
    (parts / ".run.json.123.tmp").write_text("{")
    assert resume(tmp_path) == 0
    assert len(veletas.read_playouts(tmp_path / "games.parquet")) == 3000
    assert not parts.exists()


@pytest.mark.parametrize("name", ["games.txt", "*", "[g]ames.txt"])
def test_resume_removes_no_file_beside_the_one_it_saves(tmp_path: Path, name: str) -> None:
    # Files whose names match what an earlier version removed by glob.
    others = [f".{name}.1.tmp", ".games.txt.notes.tmp", ".a.b.tmp", ".games.txt.99.tmp"]
    for other in others:
        (tmp_path / other).write_text("mine")
    _, parts = stopped_run(tmp_path, name)
    assert resume(tmp_path, name) == 0
    assert len(records.read((tmp_path / name).read_text())) == 3000
    for other in others:
        assert (tmp_path / other).read_text() == "mine", other
    assert not parts.exists()


def test_a_merge_cut_short_leaves_its_file_in_the_folder_of_parts(tmp_path: Path) -> None:
    path, parts = stopped_run(tmp_path, "games.txt")
    (parts / ".merged.4242.tmp").write_text("half a merge")
    assert resume(tmp_path, "games.txt") == 0
    assert len(records.read(path.read_text())) == 3000
    assert not parts.exists()


def test_a_running_run_holds_its_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = PlayoutJob.make(variant="small", seed=11, record=True)
    path = tmp_path / "games.parquet"
    running = datasets.DatasetWriter(path, job, 3000)
    running.add(job.run(0, 500))
    running.flush()
    forced = ["playout", "--games", "3000", "--variant", "small", "--save", str(path), "--force"]
    for run in (lambda: resume(tmp_path), lambda: main(forced)):
        assert run() == 2
        err = capsys.readouterr().err
        assert f"{running.parts} is held by another run of veletas" in err, err
        assert len(err.strip().splitlines()) == 1, err
    with pytest.raises(DatasetError, match="held by another run"):
        datasets.DatasetWriter(path, job, 3000, resume=True)
    running.close()
    assert resume(tmp_path) == 0
    assert len(veletas.read_playouts(path)) == 3000


def test_a_fifo_a_link_and_a_dash_are_not_files_to_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = tmp_path / "target.txt"
    target.write_text("mine")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    for path, said in [(fifo, "a FIFO"), (link, "symbolic link"), (Path("-"), "names no file")]:
        with pytest.raises(SystemExit):
            main(["playout", "--games", "10", "--save", str(path), "--force"])
        err = capsys.readouterr().err
        assert f"cannot write {path}: " in err, err
        assert said in err, err
        job = PlayoutJob.make(variant="small", seed=11, record=True)
        with pytest.raises(DatasetError, match=said):
            datasets.DatasetWriter(path, job, 10, force=True)
    assert fifo.is_fifo()
    assert link.is_symlink()
    assert target.read_text() == "mine"
    assert not Path("-").exists()


def test_a_device_is_not_a_file_to_save() -> None:
    # Checked without writing: a failing check here would replace /dev/null.
    assert why_not_writable("/dev/null") == "it is a device, not a regular file"
    with pytest.raises(argparse.ArgumentTypeError, match="a device"):
        output_file("/dev/null")


FINDINGS = Path(__file__).parent / "fuzz_findings"


def test_both_readers_refuse_the_fuzzers_damaged_footer(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    path.write_bytes((FINDINGS / "playouts_file-readers-disagree.parquet").read_bytes())
    with pytest.raises(DatasetError, match=r"games\.parquet"):
        veletas.read_playouts(path)
    with pytest.raises(DatasetError, match=r"games\.parquet"):
        list(datasets.iter_playouts(path))
