"""Playout datasets: ``veletas.datasets.read_playouts`` over any file, with atheris.

Whatever the bytes of a ``.parquet`` file, ``read_playouts`` returns games
whose every column is in its domain (a winner of -1, 0 or 1, plies that
match the moves, ...) or raises ``DatasetError`` (never another exception,
never a hang); ``iter_playouts`` agrees with it. The seeds are small datasets
of both games, whole, truncated and with bytes changed.

Run from the repository root (``make fuzz`` does)::

    python fuzz/python/playouts_file.py fuzz/corpus/playouts_file -max_total_time=60

Arguments after the script are libFuzzer's.
"""

from __future__ import annotations

import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    import numpy as np
    from veletas import datasets
    from veletas.errors import DatasetError

FILE = os.path.join(tempfile.mkdtemp(prefix="veletas-fuzz-"), "games.parquet")


def check(data: bytes) -> None:
    with open(FILE, "wb") as file:
        file.write(data)
    try:
        games = datasets.read_playouts(FILE)
    except DatasetError:
        return
    n = len(games)
    assert np.isin(games.winner, (-1, 0, 1)).all(), games.winner
    assert (games.plies >= 0).all(), games.plies
    if games.offsets is not None:
        assert len(games.offsets) == n + 1
        assert (np.diff(games.offsets) == games.plies).all()
    try:
        groups = list(datasets.iter_playouts(FILE))
    except DatasetError:
        raise AssertionError("read_playouts read a file that iter_playouts refuses") from None
    assert sum(len(group) for group in groups) == n


def main() -> None:
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
