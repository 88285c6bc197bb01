"""A game from a file the page sends (``POST /api/records``): a file of game
records, or a Parquet dataset written with ``record=True``. The page puts
the game's record in its text box, to start from it."""

from __future__ import annotations

import io
import re
from typing import Any

from veletas import datasets, records
from veletas import games as registry
from veletas.errors import VeletasError
from veletas.serve.sessions import ApiError

__all__ = ["PARQUET_MAGIC", "file_name", "game_number", "record_from_file"]

PARQUET_MAGIC = b"PAR1"
"""The first bytes of every Parquet file."""

_NUMBER = re.compile(r"\s*([0-9]{1,18})\s*")


def game_number(text: str | None) -> int:
    """The ``number`` parameter: which game of the file, from 1 (1 when absent).

    :raises ApiError: 400 for anything but a whole number of 1 or more.
    """
    if text is None or text == "":
        return 1
    match = _NUMBER.fullmatch(text)
    if match is None or int(match[1]) < 1:
        shown = repr(text) if len(text) <= 40 else f"{text[:40]!r}..."
        raise ApiError(400, f"number must be a whole number of 1 or more, not {shown}")
    return int(match[1])


def file_name(text: str | None) -> str:
    """The ``name`` parameter, the file's name for messages: printable, at
    most 100 characters; ``"the file"`` when absent."""
    if not text:
        return "the file"
    shown = "".join(c if c.isprintable() else "?" for c in text[:100])
    return shown + ("..." if len(text) > 100 else "")


def record_from_file(data: bytes, number: int, name: str) -> dict[str, Any]:
    """Game ``number`` (from 1) of the file ``data``, named ``name``:
    ``{"record": text, "game": its game's name, "number": number, "games":
    count, "kind": "dataset" or "records"}``.

    :raises ApiError: 400 naming the file, for one that is neither a file of
        game records nor a recorded dataset, or holds fewer games.
    """
    try:
        if data[:4] == PARQUET_MAGIC:
            return _from_dataset(data, number, name)
        return _from_records(data, number, name)
    except IndexError as error:
        raise ApiError(400, str(error)) from None
    except ImportError as error:
        raise ApiError(400, f"this server cannot read {name}: {error}") from None
    except VeletasError as error:
        message = str(error)
        raise ApiError(400, message if name in message else f"{name}: {message}") from None


def _from_dataset(data: bytes, number: int, name: str) -> dict[str, Any]:
    record = datasets.read_game(data, number - 1, name=name)
    pa = datasets.require_pyarrow()
    games = pa.parquet.ParquetFile(pa.BufferReader(data)).metadata.num_rows
    return _answer(record, number, games, "dataset")


def _from_records(data: bytes, number: int, name: str) -> dict[str, Any]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError(
            400,
            f"{name} is neither a file of game records (UTF-8 text) nor a Parquet dataset",
        ) from None
    # A file object, never a str: a str without a newline reads as a path.
    games = sum(1 for _ in records.iter_blocks(io.StringIO(text)))
    if number > games:
        raise ApiError(400, f"{name} holds {games} game(s), not {number}")
    record = records.read_game(io.StringIO(text), number - 1)
    return _answer(record, number, games, "records")


def _answer(record: records.GameRecord, number: int, games: int, kind: str) -> dict[str, Any]:
    name = registry.by_title(record.game).name  # a record read is of a known game
    return {"record": str(record), "game": name, "number": number, "games": games, "kind": kind}
