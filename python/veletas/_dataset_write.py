"""A run of games written as a dataset: its Arrow table, the metadata that
says what the rows are, and the Parquet file, written beside its name and
then renamed into place.

The writing half of :mod:`veletas.datasets`, which re-exports it. It reads a
run only as :class:`veletas.games.Games` describes one, so that
:class:`veletas.playouts.Playouts` can write itself (``to_arrow``,
``to_parquet``) while the datasets module builds ``Playouts`` from files:
the layers import each other one way.
"""

from __future__ import annotations

import dataclasses
import json
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from veletas import games as registry
from veletas._paths import why_not_writable
from veletas.errors import DatasetError

__all__ = [
    "FORMAT",
    "GAME_COLUMN",
    "METADATA_KEY",
    "MOVES_COLUMN",
    "ROW_GROUP_GAMES",
    "WRITE_OPTIONS",
    "atomic",
    "codes_of",
    "refuse_unwritable",
    "require_pyarrow",
    "rules_dict",
    "run_metadata",
    "to_arrow",
    "veletas_version",
    "write_parquet",
]

FORMAT = 1
"""The version of the dataset layout, in the metadata as ``format``."""

METADATA_KEY = b"veletas"
"""The key of the schema metadata that holds the run, as JSON."""

ROW_GROUP_GAMES = 65_536
"""The games of one Parquet row group (the last may hold fewer): about 5 MB
of moves in the standard game, so a reader can go through a file of any
size a row group at a time. Every file of one run has the same row groups,
however the run was cut or stopped."""

GAME_COLUMN = "game"
MOVES_COLUMN = "moves"

WRITE_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "compression_level": 1,
    "write_page_checksum": True,
}
"""The final file: zstd, dictionary pages (the smallest file, about 160 bytes a
standard game, in encodings every Parquet reader knows)."""


def require_pyarrow() -> Any:
    """The ``pyarrow`` module, imported now.

    :raises ModuleNotFoundError: if pyarrow is not installed, naming the extra.
    """
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as error:
        from veletas.extras import missing_extra

        raise missing_extra("Parquet datasets", "data", error) from error
    return pyarrow


# Each game writes its moves as integer codes of its own
# (``veletas.games.<game>.playouts.encode_moves``, documented in
# docs/datasets.md): Veletas as int32, Meridians as int16 point numbers.


def codes_of(games: registry.Games) -> np.ndarray:
    """The dataset codes of a recorded run's moves."""
    assert games.moves is not None
    codes: np.ndarray = registry.get(games.game).playouts.encode_moves(games.moves)
    return codes


def run_metadata(games: registry.Games) -> dict[str, Any]:
    """What the schema's metadata says of a run (without its games' count)."""
    return {
        "format": FORMAT,
        "game": games.game,
        "rules": rules_dict(games.rules),
        "start": games.start,
        "seed": games.seed,
        "policy": games.policy,
        "backend": games.backend,
        "version": veletas_version(),
        "columns": list(games.dataset_columns()),
        "moves": {"encoding": registry.get(games.game).playouts.MOVE_CODES}
        if games.moves is not None
        else None,
    }


def to_arrow(games: registry.Games) -> Any:
    """``games`` as a ``pyarrow.Table``, one row per game (see
    :meth:`veletas.playouts.Playouts.to_arrow`)."""
    pa = require_pyarrow()
    n = len(games)
    columns: dict[str, Any] = {
        GAME_COLUMN: pa.array(np.arange(n, dtype=np.uint64) + np.uint64(games.first_game)),
    }
    for name, values in games.dataset_columns().items():
        columns[name] = _arrow_column(pa, values)
    if games.moves is not None and games.offsets is not None:
        codes = pa.array(codes_of(games))
        offsets = pa.array(games.offsets, type=pa.int64())
        columns[MOVES_COLUMN] = pa.LargeListArray.from_arrays(offsets, codes)
    table = pa.table(columns)
    metadata = json.dumps(run_metadata(games), sort_keys=True)
    return table.replace_schema_metadata({METADATA_KEY: metadata.encode()})


def _arrow_column(pa: Any, values: np.ndarray) -> Any:
    """A numpy column: 1-D as it is, (n, k) as a fixed-size list of k."""
    if values.ndim == 1:
        return pa.array(values)
    width = values.shape[1]
    flat = pa.array(np.ascontiguousarray(values).reshape(-1))
    return pa.FixedSizeListArray.from_arrays(flat, width)


def write_parquet(games: registry.Games, path: str | os.PathLike[str]) -> None:
    """Write ``games`` to the Parquet file ``path`` (see
    :meth:`veletas.playouts.Playouts.to_parquet`): written beside it, then
    renamed into place, so that a reader never sees a file half-written."""
    pq = require_pyarrow().parquet
    table = to_arrow(games)
    target = Path(path)
    refuse_unwritable(target)
    with (
        atomic(target) as temporary,
        pq.ParquetWriter(temporary, table.schema, **WRITE_OPTIONS) as writer,
    ):
        for start in range(0, max(len(games), 1), ROW_GROUP_GAMES):
            writer.write_table(table.slice(start, ROW_GROUP_GAMES))


def rules_dict(rules: Any) -> dict[str, Any]:
    """A game's ``Rules`` as the metadata writes them."""
    return dataclasses.asdict(rules)


def veletas_version() -> str:
    """The installed version of veletas, as the metadata writes it."""
    try:
        return version("veletas")
    except PackageNotFoundError:
        return "unknown"


def refuse_unwritable(path: Path) -> None:
    """:raises DatasetError: for a path that is not a regular file or a new
    name (a device, a FIFO, a directory, a link, ``-``), naming it."""
    reason = why_not_writable(path)
    if reason is not None:
        raise DatasetError(f"cannot write {path}: {reason}")


class atomic:
    """A temporary path (beside ``target``, or ``temporary`` on the same
    file system); on a clean exit, flushed to disk and renamed onto
    ``target``, else removed."""

    def __init__(self, target: Path, temporary: Path | None = None) -> None:
        self.target = target
        self.temporary = temporary or target.with_name(f".{target.name}.{os.getpid()}.tmp")

    def __enter__(self) -> Path:
        return self.temporary

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is not None:
            self.temporary.unlink(missing_ok=True)
            return
        try:
            with open(self.temporary, "rb") as file:
                os.fsync(file.fileno())  # a full disk may show only here
            os.replace(self.temporary, self.target)
        except OSError:
            self.temporary.unlink(missing_ok=True)
            raise
