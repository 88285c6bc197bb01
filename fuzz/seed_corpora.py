"""Seed the fuzz corpora from the test vectors (``tests/vectors/*.txt``).

Writes one file per seed into ``fuzz/corpus/<target>/``:

- ``fen``: every position string of the vectors (perft positions, and the
  positions before and after each claim);
- ``moves``: each claim vector's ``<fen>\\n<move>``, and a few legal moves
  of each perft position, alone and after their position string;
- ``records``: a game record of each claim vector (from its position, with
  its move) and of a short random game from each perft position, and the
  record of ``docs/records.md``;
- ``board`` (the Python API on both engines): the seeds of ``moves``.

Run it from the repository root, with veletas installed:
``python fuzz/seed_corpora.py``. Existing seeds are kept; a seed's file name
is the hash of its text, so running it twice changes nothing.
"""

from __future__ import annotations

import hashlib
import random
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import veletas  # noqa: E402
from vector_files import claim_vectors, perft_vectors  # noqa: E402
from veletas import records  # noqa: E402

CORPUS = ROOT / "fuzz" / "corpus"
MOVES_PER_POSITION = 4
RANDOM_PLIES = 12


def write_seeds(target: str, seeds: Iterable[str]) -> int:
    """Write each seed to ``corpus/<target>/``; returns how many are new."""
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    new = 0
    for seed in seeds:
        data = seed.encode()
        path = directory / hashlib.sha1(data).hexdigest()
        if not path.exists():
            path.write_bytes(data)
            new += 1
    return new


def fen_seeds() -> Iterable[str]:
    for vector in perft_vectors():
        yield vector.fen
    for claim in claim_vectors():
        yield claim.fen
        yield claim.after


def move_seeds() -> Iterable[str]:
    rng = random.Random(0)
    for claim in claim_vectors():
        yield f"{claim.fen}\n{claim.move}"
        yield claim.move
    for vector in perft_vectors():
        moves = list(veletas.Board(vector.fen, **vector.options).legal_moves)
        for move in rng.sample(moves, min(MOVES_PER_POSITION, len(moves))):
            yield str(move)
            yield f"{vector.fen}\n{move}"


def record_seeds() -> Iterable[str]:
    rng = random.Random(0)
    for claim in claim_vectors():
        board = veletas.Board(claim.fen, **claim.options)
        record = records.GameRecord.from_moves(
            board.rules, [claim.move], start=claim.fen, date="2025.01.01"
        )
        yield str(record)
    for vector in perft_vectors():
        board = veletas.Board(vector.fen, **vector.options)
        for _ in range(RANDOM_PLIES):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        record = records.GameRecord.from_board(
            board, start=vector.fen, black="Ada", white="Bo", date="2025.01.01"
        )
        yield str(record)
    docs = (ROOT / "docs" / "records.md").read_text()
    yield from re.findall(r"```text\n(\[.*?)```", docs, flags=re.DOTALL)


def main() -> None:
    for target, seeds in (
        ("fen", fen_seeds()),
        ("moves", move_seeds()),
        ("records", record_seeds()),
        ("board", move_seeds()),
    ):
        new = write_seeds(target, seeds)
        print(f"corpus/{target}: {new} new seeds")


if __name__ == "__main__":
    main()
