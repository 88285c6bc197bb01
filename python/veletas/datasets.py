"""Playout datasets: Parquet files of games, written as a stream and resumable.

A dataset holds one row per game of a playout run: its index, the per-game
columns of :class:`~veletas.Playouts` (for Veletas ``winner``, ``swapped``,
``plies`` and ``claims``; for Meridians ``stones`` in place of ``claims``)
and, for a recorded run, its moves as integer codes of the game
(:func:`decode_moves` for Veletas). The schema's metadata says what the rows are: the
game, its rules, the start position, the seed, the policy and the veletas
version (:func:`read_metadata`). pandas, polars and DuckDB open the file as
it is.

>>> import veletas, veletas.datasets
>>> games = veletas.playouts(100, variant="small", seed=3, record=True)
>>> table = games.to_arrow()
>>> table.column_names
['game', 'winner', 'swapped', 'plies', 'claims', 'moves']

:class:`DatasetWriter` is what ``veletas playout --save FILE`` uses: it takes
the games of a run range after range, keeps them in part files beside the
final file (each written whole, then renamed into place), and at the end
merges the parts into ``FILE`` at once. A run stopped at any moment is
completed by the same command with ``--resume``: the file equals that of a
run never stopped, row for row. ``docs/datasets.md`` defines the columns,
the move codes and the metadata.

Parquet needs the extra ``veletas[data]`` (pyarrow); record files (``.txt``)
need nothing more.
"""

from __future__ import annotations

import array
import datetime
import json
import operator
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from veletas import games as registry
from veletas._checks import shown
from veletas._dataset_checks import check_columns, check_metadata, reading
from veletas._dataset_replay import check_games
from veletas._dataset_write import (
    FORMAT,
    GAME_COLUMN,
    METADATA_KEY,
    MOVES_COLUMN,
    ROW_GROUP_GAMES,
    WRITE_OPTIONS,
    atomic,
    codes_of,
    refuse_unwritable,
    require_pyarrow,
    rules_dict,
    run_metadata,
    to_arrow,
    veletas_version,
    write_parquet,
)
from veletas._run_folder import (
    MANIFEST,
    hold,
    is_temporary,
    merged_temporary,
    part_range,
    refuse_foreign,
    remove_run_folder,
)
from veletas.errors import DatasetError
from veletas.playouts import PlayoutJob, Playouts, Tally

if TYPE_CHECKING:
    from veletas.records import GameRecord


def __getattr__(name: str) -> Any:
    # decode_moves and encode_moves, as this module has always given them:
    # the default game's.
    if name in ("decode_moves", "encode_moves"):
        return getattr(registry.get(registry.DEFAULT).playouts, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMAT",
    "METADATA_KEY",
    "ROW_GROUP_GAMES",
    "DatasetWriter",
    "from_arrow",
    "is_dataset",
    "iter_playouts",
    "read_game",
    "read_metadata",
    "read_playouts",
    "records_to_playouts",
    "require_pyarrow",
    "run_metadata",
    "to_arrow",
    "without_moves",
    "write_parquet",
    "write_records",
]

PARTS_SUFFIX = ".partial"
"""The folder beside ``FILE`` (``FILE.partial``) that holds a run's parts
while it runs."""


def from_arrow(table: Any) -> Playouts:
    """The :class:`Playouts` of a table of :func:`to_arrow` (or of a
    Parquet file of them).

    :raises DatasetError: if the table is not a playout dataset, or its games
        are not one range of consecutive indices.
    """
    meta = _metadata_of(table.schema)
    return _playouts_of(table, meta)


def _playouts_of(table: Any, meta: Mapping[str, Any], *, replay: bool = True) -> Playouts:
    """The checked :class:`Playouts` of a table: its metadata and columns
    against their domains and, with ``replay``, its games against their run
    (:mod:`veletas._dataset_replay`)."""
    game_name = str(meta.get("game", registry.DEFAULT))
    names = list(meta["columns"])
    missing = [name for name in [GAME_COLUMN, *names] if name not in table.column_names]
    if missing:
        raise DatasetError(f"the dataset has no column {missing[0]!r}")
    game = table.column(GAME_COLUMN).to_numpy()
    first_game = int(game[0]) if len(game) else 0
    if len(game) and not np.array_equal(game, np.arange(len(game), dtype=np.uint64) + game[0]):
        raise DatasetError("the dataset's games are not consecutive indices")
    arrays: dict[str, np.ndarray] = {}
    for name in [*names, *([MOVES_COLUMN] if meta.get("moves") else [])]:
        if name in table.column_names and table.column(name).null_count:
            raise DatasetError(f"the dataset's column {name!r} has missing values")
    for name in names:
        arrays[name] = _numpy_column(table.column(name))
    if meta.get("moves") and MOVES_COLUMN in table.column_names:
        moves = table.column(MOVES_COLUMN).combine_chunks()
        if not hasattr(moves, "offsets"):  # a table of no chunk
            moves = moves.cast(_large_moves_type(moves.type))
        offsets = moves.offsets.to_numpy().astype(np.int64)
        codes = moves.values.to_numpy(zero_copy_only=False)[offsets[0] : offsets[-1]]
        decoded = registry.get(game_name).playouts.decode_moves(codes)
        arrays["moves"] = decoded.view(np.int8).reshape(-1, 4) if decoded.dtype.fields else decoded
        arrays["offsets"] = offsets - offsets[0]
    check_columns(arrays, len(game))
    games = Playouts(
        arrays,
        start=meta["start"],
        rules=_rules_of(meta),
        policy=meta["policy"],
        seed=int(meta["seed"]),
        first_game=first_game,
        backend=meta.get("backend", "rust"),
        game=game_name,
    )
    if replay:
        check_games(games)
    return games


def _large_moves_type(list_type: Any) -> Any:
    pa = require_pyarrow()
    return pa.large_list(list_type.value_type)


def _numpy_column(column: Any) -> np.ndarray:
    pa = require_pyarrow()
    if pa.types.is_fixed_size_list(column.type):
        width = column.type.list_size
        flat = column.combine_chunks().flatten().to_numpy(zero_copy_only=False)
        return np.asarray(flat).reshape(-1, width)
    return np.asarray(column.to_numpy())


def _metadata_of(schema: Any) -> dict[str, Any]:
    raw = (schema.metadata or {}).get(METADATA_KEY)
    if raw is None:
        raise DatasetError("not a playout dataset: its schema has no 'veletas' metadata")
    try:
        meta: dict[str, Any] = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise DatasetError(f"the dataset's metadata is not JSON: {error}") from None
    if not isinstance(meta, dict):
        raise DatasetError("the dataset's metadata is not a JSON object")
    if meta.get("format") != FORMAT:
        raise DatasetError(
            f"the dataset is of format {meta.get('format')!r}; this veletas reads format {FORMAT}"
        )
    check_metadata(meta)
    return meta


# ----------------------------------------------------------------------
# Files


_PART_OPTIONS: dict[str, Any] = {
    "compression": "lz4",
    "use_dictionary": False,
    "write_page_checksum": True,
}
"""The parts, read once by the merge: written about 1.7 times and read 5
times as fast as the final file, 1.8 times as large."""

_READ_OPTIONS: dict[str, Any] = {"page_checksum_verification": True}
"""Every page read is checked against the checksum written with it."""


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The run a Parquet dataset holds, without reading its games: ``game``,
    ``rules``, ``start``, ``seed``, ``policy``, ``version``, ``columns``,
    ``moves`` (None without moves) and ``games`` (the rows).

    :raises DatasetError: if the file is not a playout dataset.
    """
    pq = require_pyarrow().parquet
    try:
        file_meta = pq.read_metadata(path)
    except (OSError, ValueError) as error:
        if isinstance(error, FileNotFoundError):
            raise
        raise DatasetError(f"{os.fspath(path)} is not a Parquet file: {error}") from None
    with reading(path):
        meta = _metadata_of(file_meta.schema.to_arrow_schema())
    meta["games"] = file_meta.num_rows
    return meta


def read_playouts(path: str | os.PathLike[str]) -> Playouts:
    """The games of a file as :class:`Playouts`: a Parquet dataset
    (``.parquet``, as :meth:`Playouts.to_parquet` or ``veletas playout --save``
    write it), or a file of game records (any other name).

    The records of one file must share their rules and start position; the
    seed, policy and index of the first game come from the tags that
    ``veletas playout`` writes (``PlayoutSeed``, ``PlayoutGame``, ``[Black
    "micro playout"]``), else 0, ``"records"`` and 0.

    :raises DatasetError: for a Parquet file that is not a playout dataset,
        or records of different rules or start positions.
    :raises InvalidRecordError: for a record that cannot be read.
    """
    return _read_playouts(path)


def _read_playouts(path: str | os.PathLike[str], *, replay: bool = True) -> Playouts:
    """:func:`read_playouts`; without ``replay`` for the parts a run wrote
    itself (checked by checksums and domains; the finished file is replayed
    when it is read)."""
    if _is_parquet(path):
        pq = require_pyarrow().parquet
        # As iter_playouts reads it (the same metadata, the same checks).
        with reading(path):
            file = pq.ParquetFile(path, **_READ_OPTIONS)
            return _playouts_of(file.read(), _metadata_of(file.schema_arrow), replay=replay)
    from veletas import records

    return _records_to_playouts(records.iter_read_boards(path))


def is_dataset(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a Parquet dataset (``.parquet`` or ``.pq``),
    not a file of game records."""
    return _is_parquet(path)


def read_game(
    path: str | os.PathLike[str] | bytes, index: int, *, name: str | None = None
) -> GameRecord:
    """Game ``index`` (from 0, in the file's order) of a recorded Parquet
    dataset as a game record: only the row group that holds it is read, and
    checked as :func:`read_playouts` checks a file.

    ``path`` may also be the file's bytes (a file sent to ``veletas
    serve``, say); ``name`` then names it in messages.

    :raises IndexError: if the file holds ``index`` games or fewer, saying
        how many (``PATH holds N game(s), not K``, counting from 1 as people do).
    :raises DatasetError: for a file that is not a dataset, or one without
        moves.
    """
    pa = require_pyarrow()
    if isinstance(path, bytes):
        label = name or "the file"
        source: Any = pa.BufferReader(path)
    else:
        label = os.fspath(path)
        source = path
    if index < 0:
        raise IndexError(f"game {shown(index)} is not in {label}: games count from 0")
    with reading(label):
        file = pa.parquet.ParquetFile(source, **_READ_OPTIONS)
        meta = _metadata_of(file.schema_arrow)
        if not meta.get("moves"):
            raise DatasetError(
                f"{label} holds no moves (a run without record=True): its games cannot be replayed"
            )
        first = 0
        for group in range(file.num_row_groups):
            rows = file.metadata.row_group(group).num_rows
            if index < first + rows:
                games = _playouts_of(file.read_row_group(group), meta)
                record: GameRecord = games.record(index - first)
                return record
            first += rows
    raise IndexError(f"{label} holds {first} game(s), not {shown(index + 1)}")


def iter_playouts(path: str | os.PathLike[str], *, moves: bool = True) -> Iterator[Playouts]:
    """The games of a Parquet dataset as :class:`Playouts` of one row group
    each, in order: a file of any size in the memory of one row group.
    ``moves=False`` reads the per-game columns alone (fast).

    :raises DatasetError: if the file is not a playout dataset.
    """
    pq = require_pyarrow().parquet
    with reading(path):
        file = pq.ParquetFile(path, **_READ_OPTIONS)
        meta = _metadata_of(file.schema_arrow)
        groups = file.num_row_groups
    read = None
    if not moves:
        meta = {**meta, "moves": None}
        read = [GAME_COLUMN, *meta["columns"]]
    for index in range(groups):
        with reading(path):
            group = _playouts_of(file.read_row_group(index, columns=read), meta, replay=moves)
        yield group


def records_to_playouts(games: Iterable[GameRecord]) -> Playouts:
    """Game records (of :func:`veletas.records.iter_read`, say) as one
    recorded :class:`Playouts`.

    :raises DatasetError: for no records, or records of different rules or
        start positions.
    """
    return _records_to_playouts((record, record.board()) for record in games)


def _records_to_playouts(games: Iterable[tuple[GameRecord, Any]]) -> Playouts:
    """:func:`records_to_playouts` of records with their final boards."""

    winners: list[int] = []
    swapped: list[bool] = []
    finals: dict[str, list[tuple[int, int]]] = {}
    codes = array.array("q")  # 8 bytes a move, where a list of ints takes 36
    offsets = [0]
    head: GameRecord | None = None
    spec: Any = None
    for number, (record, final) in enumerate(games, start=1):
        if head is None:
            head = record
            spec = registry.get(_game_name(record)).playouts
        elif (record.game, record.rules, record.start) != (head.game, head.rules, head.start):
            raise DatasetError(
                f"record {number} is of other rules or another start than record 1: "
                f"{record.rules} from {record.start or 'the start'}, not {head.rules} "
                f"from {head.start or 'the start'}"
            )
        winners.append({"1-0": 0, "0-1": 1}.get(record.result, -1))
        swapped.append(record.tags.get("Swapped") == "true")
        for name, values in spec.final_columns(final).items():
            finals.setdefault(name, []).append(values)
        codes.extend(spec.code_of(move) for move in record.moves)
        offsets.append(len(codes))
    if head is None:
        raise DatasetError("no game records to read")
    board = head.board(0)
    first_player = registry.by_title(head.game).records.PLAYERS[0]
    policy = head.tags.get(first_player, "")
    policy = policy.removesuffix(" playout") if policy.endswith(" playout") else "records"
    decoded = spec.decode_moves(np.frombuffer(codes, np.int64))
    arrays = {
        "winner": np.array(winners, np.int8),
        "swapped": np.array(swapped, np.bool_),
        "plies": np.diff(np.array(offsets, np.int64)).astype(np.int32),
        **{name: np.array(values, np.int8).reshape(-1, 2) for name, values in finals.items()},
        "moves": decoded.view(np.int8).reshape(-1, 4) if decoded.dtype.fields else decoded,
        "offsets": np.array(offsets, np.int64),
    }
    return Playouts(
        arrays,
        start=board.fen(),
        rules=head.rules,
        policy=policy,
        seed=_int_tag(head, "PlayoutSeed"),
        first_game=_int_tag(head, "PlayoutGame"),
        backend="python" if ".reference" in type(board).__module__ else "rust",
        game=_game_name(head),
    )


def _game_name(record: GameRecord) -> str:
    """The registry's name of a record's game (``[Game "Meridians"]``: ``meridians``)."""
    return record.game.lower()


def without_moves(games: Playouts) -> Playouts:
    """``games`` without their moves: the per-game columns alone."""
    return type(games)(
        dict(games.dataset_columns()),
        start=games.start,
        rules=games.rules,
        policy=games.policy,
        seed=games.seed,
        first_game=games.first_game,
        backend=games.backend,
        game=games.game,
    )


def _int_tag(record: GameRecord, name: str) -> int:
    value = record.tags.get(name, "0")
    return int(value) if value.isascii() and value.isdigit() else 0


# ----------------------------------------------------------------------
# Records written fast


def write_records(
    games: Playouts, file: Any, *, date: str | None = None, first: bool = True
) -> None:
    """Write every game of a recorded run to the open text ``file`` as game
    records: the text of :func:`veletas.records.write` of
    ``[games.record(i) for i in range(len(games))]``, made from the move
    codes without replaying the games. ``first=False`` continues a file
    (a blank line before the first record). ``date`` is the ``[Date]`` tag
    (default today).
    """
    if games.moves is None or games.offsets is None:
        raise ValueError("these playouts have no records: run them with record=True")
    if date is None:
        date = datetime.date.today().strftime("%Y.%m.%d")
    record = games.record(0) if len(games) else None
    if record is None:
        return
    head_tags = dict(record.tags)
    head_tags["Date"] = date
    varying = ("Swapped", "Result", "PlayoutGame")
    from veletas.records import tag_line

    fixed = {name: tag_line(name, value) for name, value in head_tags.items()}
    order = list(head_tags)
    codes = codes_of(games)
    code_text = registry.get(games.game).playouts.code_text
    offsets = games.offsets.tolist()
    texts: dict[int, str] = {}
    numbers = [f"{ply}. " for ply in range(1, int(games.plies.max(initial=0)) + 2)]
    results = {0: "1-0", 1: "0-1"}
    winner = games.winner.tolist()
    swapped = games.swapped.tolist()
    # One record at a time, straight to the file: memory stays that of one.
    for i in range(len(games)):
        result = results.get(winner[i], "*")
        values = {
            "Swapped": '[Swapped "true"]' if swapped[i] else '[Swapped "false"]',
            "Result": f'[Result "{result}"]',
            "PlayoutGame": f'[PlayoutGame "{games.first_game + i}"]',
        }
        lines = [values[name] if name in varying else fixed[name] for name in order]
        game_codes = codes[offsets[i] : offsets[i + 1]].tolist()
        moves = []
        for code in game_codes:
            text = texts.get(code)
            if text is None:
                text = texts[code] = code_text(code)
            moves.append(text)
        tokens = list(map(operator.add, numbers, moves))
        tokens.append(result)
        lines.append("")
        lines.append(_wrap(tokens))
        separator = "" if first and i == 0 else "\n"
        file.write(separator + "\n".join(lines) + "\n")


def _wrap(tokens: list[str], width: int = 79) -> str:
    """The tokens in lines of at most ``width`` characters, as
    :meth:`GameRecord.movetext` wraps them."""
    lines: list[str] = []
    line: list[str] = []
    size = -1
    for token in tokens:
        length = len(token)
        if line and size + 1 + length > width:
            lines.append(" ".join(line))
            line = [token]
            size = length
        else:
            line.append(token)
            size += 1 + length
    lines.append(" ".join(line))
    return "\n".join(lines)


# ----------------------------------------------------------------------
# Streaming and resuming


class DatasetWriter:
    """Writes the games of one run to ``path`` as they come, range after
    range in game order, and resumes a run that was stopped.

    The games go to *parts*, files in ``path + ".partial"`` of consecutive
    ranges of games, each written whole and then renamed into place (a part
    half-written when the process died is not one, and is played again).
    :meth:`finish` merges the parts into ``path`` (again written beside it
    and renamed) and removes the folder. So at any moment ``path`` is either
    absent, or the previous file, or the whole new file.

    ``path`` ending in ``.parquet`` writes a Parquet dataset (needs pyarrow);
    any other name writes game records (``date`` is their ``[Date]`` tag).

    With ``resume``, the parts of an earlier run of the same job are kept:
    :attr:`done` games need not be played again, and :meth:`played` returns
    their per-game columns. A finished ``path`` of the same run counts as all
    its games done. Without ``resume``, an existing ``path`` or folder of
    parts is an error unless ``force``.

    :raises DatasetError: for an existing file or parts without ``resume``
        or ``force``, or parts (or a file) of another run with ``resume``.
    :raises ModuleNotFoundError: for a Parquet file without pyarrow.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        job: PlayoutJob,
        n_games: int,
        *,
        resume: bool = False,
        force: bool = False,
        date: str | None = None,
    ) -> None:
        self.path = Path(path)
        refuse_unwritable(self.path)
        self.parquet = _is_parquet(self.path)
        if self.parquet:
            require_pyarrow()
        self.parts = Path(os.fspath(self.path) + PARTS_SUFFIX)
        self._lock: int | None = None
        self.n_games = n_games
        self._job_type = type(job)
        self.run = {
            "format": FORMAT,
            "games": n_games,
            "job": _job_dict(job),
            "output": "parquet" if self.parquet else "records",
            "version": veletas_version(),
        }
        self.date = date or datetime.date.today().strftime("%Y.%m.%d")
        self._buffer: list[Playouts] = []
        self._buffered = 0
        self.done = 0
        self.complete = False
        self._ranges: list[tuple[int, int, Path]] = []  # (first, count, part)
        if self.parts.is_dir() and not self.parts.is_symlink():
            self._lock = hold(self.parts)
        if resume:
            self._resume()
        elif force:
            if self.parts.is_dir():
                remove_run_folder(self.parts)
        else:
            if self.parts.exists():
                raise DatasetError(
                    f"{self.parts} holds the parts of a run that was stopped: add --resume "
                    f"to complete {self.path}, or --force to start again"
                )
            if self.path.exists():
                raise DatasetError(
                    f"{self.path} exists: add --force to overwrite it, or --resume to "
                    "complete the run that wrote it"
                )
        if not self.complete and not self.parts.exists():
            self._release()  # a folder removed to start again
            try:
                self.parts.mkdir(parents=True)
            except FileExistsError:
                raise DatasetError(
                    f"{self.parts} was made by another run of veletas that started at the "
                    "same time: let it finish, then run the command again"
                ) from None
            self._lock = hold(self.parts)
            self.run["date"] = self.date
            _write_atomic(self.parts / "run.json", json.dumps(self.run, indent=2) + "\n")

    # -- resuming

    def _release(self) -> None:
        """Unlock the folder of parts (gone, or given up)."""
        lock = getattr(self, "_lock", None)  # None too if __init__ failed early
        if lock is not None:
            os.close(lock)
            self._lock = None

    def close(self) -> None:
        """Stop writing without finishing: the parts written so far stay for
        a run with ``resume``, and the folder is unlocked for it (as when the
        process ends)."""
        self.flush()
        self._release()

    def __del__(self) -> None:
        self._release()

    def _resume(self) -> None:
        # A file half-merged when the run stopped is in the folder of parts,
        # removed with the run's other temporary files.
        if self.parts.exists():
            if not self.parts.is_dir():
                raise DatasetError(f"{self.parts} is not a folder of parts: move it away")
            manifest = self.parts / MANIFEST
            if not manifest.exists():
                refuse_foreign(self.parts)
                if any(part_range(entry) for entry in self.parts.iterdir()):
                    raise DatasetError(
                        f"{self.parts} holds parts but no {MANIFEST}: the run they are of is "
                        "unknown; add --force to start again"
                    )
                # Stopped before its manifest was in place: it had saved nothing.
                remove_run_folder(self.parts)
                return
            try:
                earlier = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError, RecursionError) as error:
                raise DatasetError(
                    f"{manifest} cannot be read ({error}): the parts beside it were kept; "
                    "add --force to start the run again"
                ) from None
            if not isinstance(earlier, dict):
                raise DatasetError(
                    f"{manifest} is not the manifest of a run: add --force to start again"
                )
            self.date = str(earlier.pop("date", self.date))
            _check_same_run(earlier, self.run, self.parts)
            self.run["date"] = self.date
            self._collect_parts()
        elif self.path.exists():
            self._check_finished_file()

    def _collect_parts(self) -> None:
        suffix = ".parquet" if self.parquet else ".txt"
        refuse_foreign(self.parts)
        found = []
        for entry in self.parts.iterdir():
            span = part_range(entry)
            if span is not None and entry.suffix == suffix:
                found.append((*span, entry))
            elif is_temporary(entry) or (
                # the columns of a record part whose text was not yet in place
                span is not None
                and entry.suffix == ".npz"
                and not entry.with_suffix(suffix).exists()
            ):
                entry.unlink()  # a part half-written when the run stopped
        found.sort()
        expected = 0
        for first, count, entry in found:
            if first != expected:
                # Past a gap the games cannot follow on: played again.
                entry.unlink()
                entry.with_suffix(".npz").unlink(missing_ok=True)
                continue
            self._verify_part(entry, first, count)
            self._ranges.append((first, count, entry))
            expected += count
        self.done = expected

    def _verify_part(self, entry: Path, first: int, count: int) -> None:
        """Refuses a kept part that does not read back as the games its name says.

        :raises DatasetError: naming the part.
        """
        try:
            games = (
                _read_playouts(entry, replay=False)
                if self.parquet
                else self._read_part_columns(entry)
            )
            if (games.first_game, len(games)) != (first, count):
                raise DatasetError(f"it holds games {games.first_game}.. ({len(games)}) instead")
        except (DatasetError, OSError, ValueError, KeyError, TypeError) as error:
            raise DatasetError(
                f"{entry}, a part of the stopped run, is damaged ({error}): delete it to play "
                "its games again with --resume, or add --force to start the run again"
            ) from None

    def _check_finished_file(self) -> None:
        if self.parquet:
            meta = read_metadata(self.path)
            if meta["games"] != self.n_games:
                raise DatasetError(
                    f"{self.path} holds {meta['games']:,} games, not the {self.n_games:,} "
                    "of this run: add --force to overwrite it"
                )
            job = self.run["job"]
            assert isinstance(job, dict)
            for key in ("start", "seed", "policy", "rules"):
                if meta[key] != job[key]:
                    raise DatasetError(
                        f"{self.path} is of another run ({key} {meta[key]!r}, not "
                        f"{job[key]!r}): add --force to overwrite it"
                    )
        else:
            self._check_finished_records()
        self.done = self.n_games
        self.complete = True

    def _check_finished_records(self) -> None:
        """A record file counts as this run's, finished, when its first record
        is of this run and its last is game ``n_games - 1``."""
        from veletas import records

        job = self.run["job"]
        assert isinstance(job, dict)
        first = last = ""
        for block in records.iter_blocks(self.path):
            first = first or block
            last = block

        def tags_of(text: str) -> dict[str, str]:
            return dict(re.findall(r'^\[(\w+) "([^"]*)"\]', text, re.MULTILINE))

        head, tail = tags_of(first), tags_of(last)
        game = tail.get("PlayoutGame", "")
        games = int(game) + 1 if game.isascii() and game.isdigit() else 0
        if head.get("PlayoutSeed") != str(job["seed"]) or games != self.n_games:
            raise DatasetError(
                f"{self.path} is not the finished file of this run: add --force to write it again"
            )

    def played(self) -> Tally | None:
        """The summary counts (:class:`~veletas.playouts.Tally`) of the games
        already written by an earlier run that is being resumed, read a part
        (or a row group) at a time, or None if there are none (or if they
        are those of a finished record file, which would have to be read
        whole and replayed)."""
        if self.complete:
            groups = iter_playouts(self.path, moves=False) if self.parquet else iter(())
        else:
            groups = (group for _, _, entry in self._ranges for group in self._part_columns(entry))
        tally = None
        for group in groups:
            if tally is None:
                tally = group.tally()
            else:
                tally.add(group)
        return tally

    def _part_columns(self, entry: Path) -> Iterator[Playouts]:
        """The per-game columns of a part, a row group at a time."""
        if self.parquet:
            yield from iter_playouts(entry, moves=False)
        else:
            yield self._read_part_columns(entry)

    def _read_part_columns(self, entry: Path) -> Playouts:
        with np.load(entry.with_suffix(".npz")) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {name: data[name] for name in meta["columns"]}
        return Playouts(
            arrays,
            start=meta["start"],
            rules=_rules_of(meta),
            policy=meta["policy"],
            seed=meta["seed"],
            first_game=meta["first_game"],
            backend=meta["backend"],
            game=meta.get("game", registry.DEFAULT),
        )

    # -- writing

    def add(self, games: Playouts) -> None:
        """Take the next range of games (recorded, following the last one)."""
        if self.complete:
            raise DatasetError(f"{self.path} is already complete")
        self._buffer.append(games)
        self._buffered += len(games)
        if self._buffered >= ROW_GROUP_GAMES:
            self.flush()

    def flush(self) -> None:
        """Write the games taken so far as a part (a stopped run keeps them)."""
        if not self._buffered:
            return
        games = Playouts.concatenate(self._buffer)
        self._buffer, self._buffered = [], 0
        first = games.first_game
        if first != self.done:
            raise DatasetError(f"expected game {self.done} next, got a range from game {first}")
        name = f"part-{first:020d}-{len(games):020d}"
        if self.parquet:
            entry = self.parts / f"{name}.parquet"
            with atomic(entry) as temporary:
                pq = require_pyarrow().parquet
                pq.write_table(to_arrow(games), temporary, **_PART_OPTIONS)
        else:
            entry = self.parts / f"{name}.txt"
            columns = games.dataset_columns()
            meta = {
                **run_metadata(games),
                "first_game": games.first_game,
                "columns": list(columns),
            }
            arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta)), **columns}
            with atomic(entry.with_suffix(".npz")) as temporary, open(temporary, "wb") as file:
                np.savez(file, **arrays)
            with atomic(entry) as temporary, open(temporary, "w", encoding="utf-8") as file:
                write_records(games, file, date=self.date)
        self._ranges.append((first, len(games), entry))
        self.done += len(games)

    def abandon(self) -> None:
        """Give up a run that saved nothing (it could not start): its folder
        of parts goes, so that the same command can start afresh."""
        if not self._ranges and self.parts.exists():
            remove_run_folder(self.parts)
        self._release()

    def finish(self, progress: Callable[[int], object] | None = None) -> None:
        """Merge the parts into the file, once every game is in them.

        :raises DatasetError: if games are missing.
        """
        self.flush()
        if self.complete:
            return
        if self.done != self.n_games:
            raise DatasetError(f"{self.path}: {self.done:,} of {self.n_games:,} games written")
        with atomic(self.path, merged_temporary(self.parts)) as temporary:
            if self.parquet:
                self._merge_parquet(temporary, progress)
            else:
                self._merge_records(temporary, progress)
        remove_run_folder(self.parts)
        self._release()
        self.complete = True

    def _merge_parquet(self, temporary: Path, progress: Callable[[int], object] | None) -> None:
        pa = require_pyarrow()
        pq = pa.parquet
        if not self._ranges:  # no games: an empty table of the run's schema
            table = self._empty_table()
            pq.write_table(table, temporary, **WRITE_OPTIONS)
            return
        # The parts' own schema, as written: a Parquet file read back names
        # its list items differently.
        schema = to_arrow(self._job().run(self._ranges[0][0], 0)).schema
        with pq.ParquetWriter(temporary, schema, **WRITE_OPTIONS) as writer:
            pending: list[Any] = []
            rows = 0
            for _, count, entry in self._ranges:
                with reading(entry):
                    pending.append(pq.read_table(entry, **_READ_OPTIONS).cast(schema))
                rows += count
                while rows >= ROW_GROUP_GAMES:
                    table = pa.concat_tables(pending)
                    group = table.slice(0, ROW_GROUP_GAMES).combine_chunks()
                    writer.write_table(group, ROW_GROUP_GAMES)
                    rest = table.slice(ROW_GROUP_GAMES)
                    pending, rows = [rest], len(rest)
                if progress is not None:
                    progress(count)
            if rows:
                writer.write_table(pa.concat_tables(pending).combine_chunks(), ROW_GROUP_GAMES)

    def _empty_table(self) -> Any:
        return to_arrow(self._job().run(0, 0))

    def _job(self) -> PlayoutJob:
        """The job of the run, from its manifest (one thread: it plays nothing)."""
        fields = dict(self.run["job"])  # type: ignore[call-overload]
        fields["rules"] = _rules_of(fields)
        return self._job_type(**fields, threads=1)

    def _merge_records(self, temporary: Path, progress: Callable[[int], object] | None) -> None:
        with open(temporary, "w", encoding="utf-8") as out:
            for index, (_, count, entry) in enumerate(self._ranges):
                if index:
                    out.write("\n")
                with open(entry, encoding="utf-8") as part:
                    shutil.copyfileobj(part, out, 1 << 20)
                if progress is not None:
                    progress(count)


def _check_same_run(earlier: dict[str, Any], now: dict[str, Any], where: Path) -> None:
    for key in ("format", "output", "games"):
        if earlier.get(key) != now[key]:
            raise DatasetError(
                f"{where} holds a run with {key} {earlier.get(key)!r}, not {now[key]!r}: "
                "run the same command to resume it, or add --force to start again"
            )
    before, after = earlier.get("job"), now["job"]
    if not isinstance(before, dict):
        before = {}
    for key in after:
        if before.get(key) != after[key]:
            raise DatasetError(
                f"{where} holds a run with {key} {before.get(key)!r}, not {after[key]!r}: "
                "run the same command to resume it, or add --force to start again"
            )


def _job_dict(job: PlayoutJob) -> dict[str, Any]:
    return {
        "game": job.game,
        "start": job.start,
        "rules": rules_dict(job.rules),
        "swapped": job.swapped,
        "policy": job.policy,
        "seed": job.seed,
        "record": job.record,
        "backend": job.backend,
    }


def _rules_of(meta: Mapping[str, Any]) -> Any:
    return registry.get(meta.get("game", registry.DEFAULT)).playouts.Rules(**meta["rules"])


def _is_parquet(path: str | os.PathLike[str]) -> bool:
    return os.fspath(path).lower().endswith((".parquet", ".pq"))


def _write_atomic(path: Path, text: str) -> None:
    with atomic(path) as temporary:
        temporary.write_text(text)
