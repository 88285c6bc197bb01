"""The checks of a playout dataset read from a file: its metadata and every
column against its domain, so that a damaged or foreign file is refused
with a :class:`~veletas.errors.DatasetError` naming it, never read as games.

Parquet's page checksums (written by :mod:`veletas.datasets`, verified on
read) catch a changed byte; these checks catch values that no run writes.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from veletas import games as registry
from veletas.errors import DatasetError, VeletasError

__all__ = ["check_columns", "check_metadata", "reading"]

SEED_BOUND = 2**64
"""Seeds are 0 .. 2**64 - 1 (the random stream's key)."""

BACKENDS = ("rust", "python")


@contextlib.contextmanager
def reading(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turns what a reader of a damaged file meets (Arrow's errors, a file
    cut short, metadata of the wrong shapes) into a :class:`DatasetError`
    naming ``path``. A missing file stays a ``FileNotFoundError``."""
    try:
        yield
    except FileNotFoundError:
        raise
    except DatasetError as error:
        if os.fspath(path) in str(error):
            raise
        raise DatasetError(f"{os.fspath(path)}: {error}") from None
    except VeletasError as error:
        raise DatasetError(f"{os.fspath(path)}: {error}") from None
    except RecursionError:
        raise DatasetError(f"{os.fspath(path)}: its metadata is nested too deep") from None
    except Exception as error:
        if not isinstance(error, _READ_FAILURES + _arrow_errors()):
            raise
        # pyarrow's ArrowInvalid and ArrowIOError are ValueError and OSError.
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise DatasetError(
            f"{os.fspath(path)} is not a readable playout dataset: {reason}"
        ) from None


_READ_FAILURES: tuple[type[Exception], ...] = (
    OSError,
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    NotImplementedError,
)


def _arrow_errors() -> tuple[type[Exception], ...]:
    pyarrow = sys.modules.get("pyarrow")
    return (pyarrow.ArrowException,) if pyarrow is not None else ()


def _field(meta: Mapping[str, Any], name: str, kinds: Any, what: str) -> Any:
    value = meta.get(name)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in (kinds,)):
        raise DatasetError(f"the dataset's metadata has {name} {value!r}: expected {what}")
    return value


def check_metadata(meta: Any) -> None:
    """Refuses metadata whose fields are not of their types and ranges: the
    game, rules, start position, seed, policy, backend, columns and moves.

    :raises DatasetError: naming the field.
    """
    if not isinstance(meta, dict):
        raise DatasetError(f"the dataset's metadata is {type(meta).__name__}, not an object")
    game = meta.get("game", registry.DEFAULT)
    if not isinstance(game, str) or game not in registry.names():
        raise DatasetError(f"the dataset's metadata names the game {game!r}, which is not known")
    seed = _field(meta, "seed", int, "a whole number")
    if not 0 <= seed < SEED_BOUND:
        raise DatasetError(f"the dataset's metadata has seed {seed}: expected 0 .. 2**64 - 1")
    _field(meta, "policy", str, "a name")
    backend = meta.get("backend", "rust")
    if backend not in BACKENDS:
        raise DatasetError(
            f"the dataset's metadata has backend {backend!r}: expected rust or python"
        )
    columns = _field(meta, "columns", list, "a list of names")
    spec = registry.get(game).playouts
    expected = ["winner", "swapped", "plies", *spec.COLUMNS]
    if columns != expected:
        raise DatasetError(
            f"the dataset's metadata lists the columns {columns!r}, not {expected!r}"
        )
    moves = meta.get("moves")
    if moves is not None and moves != {"encoding": spec.MOVE_CODES}:
        raise DatasetError(f"the dataset's metadata has moves {moves!r}: not this game's codes")
    rules_fields = _field(meta, "rules", dict, "the rules' fields")
    start = meta.get("start")
    if start is not None and not isinstance(start, str):
        raise DatasetError(f"the dataset's metadata has start {start!r}: expected a position")
    try:
        rules = spec.Rules(**rules_fields)
        registry.get(game).records.new_board(rules, start)
    except (TypeError, VeletasError) as error:
        raise DatasetError(f"the dataset's rules or start position are refused: {error}") from None


def check_columns(arrays: Mapping[str, np.ndarray], rows: int) -> None:
    """Refuses per-game columns outside their domain: a winner of -1 (none),
    0 or 1, plies of 0 or more that match the moves' offsets, the game's own
    columns of 0 or more.

    :raises DatasetError: naming the column.
    """
    for name, values in arrays.items():
        if name in ("moves", "offsets"):
            continue
        if len(values) != rows:
            raise DatasetError(f"the dataset's column {name!r} has {len(values)} rows, not {rows}")
        if values.dtype.kind not in "iub":
            raise DatasetError(f"the dataset's column {name!r} is of {values.dtype}, not integers")
    winner = arrays["winner"]
    if not np.isin(winner, (-1, 0, 1)).all():
        bad = winner[~np.isin(winner, (-1, 0, 1))][0]
        raise DatasetError(f"the dataset's column 'winner' holds {bad}: expected -1, 0 or 1")
    if arrays["swapped"].dtype.kind != "b":
        raise DatasetError("the dataset's column 'swapped' is not true or false")
    plies = arrays["plies"]
    for name, values in arrays.items():
        if name not in ("moves", "offsets", "swapped") and values.size:
            low = values.min() if name != "winner" else 0
            if low < 0:
                raise DatasetError(f"the dataset's column {name!r} holds {low}: expected 0 or more")
            if values.max() > np.iinfo(np.int32).max:
                raise DatasetError(f"the dataset's column {name!r} holds {values.max()}: too large")
    offsets = arrays.get("offsets")
    if offsets is not None and not np.array_equal(np.diff(offsets), plies):
        raise DatasetError("the dataset's column 'plies' does not match the moves of its games")
