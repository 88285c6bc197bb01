"""Seed the fuzz corpora from the test vectors (``tests/games/*/vectors/``).

Writes one file per seed into ``fuzz/corpus/<target>/``:

- ``fen``: every position string of the vectors (perft positions, and the
  positions before and after each claim);
- ``moves``: each claim vector's ``<fen>\\n<move>``, and a few legal moves
  of each perft position, alone and after their position string;
- ``records``: a game record of each claim vector (from its position, with
  its move) and of a short random game from each perft position, and the
  record of ``docs/records.md``;
- ``board`` (the Python API on both engines): the seeds of ``moves``;
- ``meridians_fen``: every Meridians position string of the vectors (perft
  positions, the positions before and after each removal, and the
  positions of the first moves of each Ludii game);
- ``meridians_moves``: each removal vector's ``<fen>\\n<move>``, the first
  moves of the Ludii games, and a few legal moves of each perft position,
  alone and after their position string;
- ``meridians`` (the Python API on both engines): the seeds of
  ``meridians_moves``, each perft position followed by a few moves of a
  random game, and records of Meridians games (each removal vector's, a
  short random game from each perft position, and the Ludii games'
  openings).

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
sys.path.insert(0, str(ROOT))
# The test helpers import each other as under pytest, whose pythonpath is tests/.
sys.path.insert(0, str(ROOT / "tests"))

import veletas  # noqa: E402
from veletas import meridians, records  # noqa: E402
from veletas.games.meridians.types import Rules as MeridiansRules  # noqa: E402

from tests.games.meridians import vector_files as meridians_vectors  # noqa: E402
from tests.games.veletas.vector_files import claim_vectors, perft_vectors  # noqa: E402

CORPUS = ROOT / "fuzz" / "corpus"
MOVES_PER_POSITION = 4
RANDOM_PLIES = 12
LUDII_GAMES = 20
"""Ludii games whose openings seed the Meridians targets."""


def write_seeds(target: str, seeds: Iterable[str | bytes]) -> int:
    """Write each seed to ``corpus/<target>/``; returns how many are new."""
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    new = 0
    for seed in seeds:
        data = seed if isinstance(seed, bytes) else seed.encode(errors="surrogatepass")
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
    yield from hostile_record_seeds()


HEAD = '[Variant "small"]\n[Result "*"]\n\n'


def hostile_record_seeds() -> Iterable[str | bytes]:
    """Texts that once froze or broke the reader: a line of ``{`` (quadratic
    comments), lines over the limit, a byte-order mark, bytes that are not
    UTF-8, a tag holding an escaped lone surrogate, NUL bytes."""
    yield HEAD + "{" * 19_000 + "\n"
    yield HEAD + "{ " * 9_000 + "*\n"
    yield '[Event "' + "x" * 19_000 + '"]\n'
    yield "\ufeff" + HEAD + "*\n"
    yield HEAD.encode() + b"\xff\xfe*\n"
    yield '[Variant "small"]\n[Event "\\ud800"]\n[Result "*"]\n\n*\n'
    yield b"\x00" * 4096
    yield b"PAR1\x15\x04\x15\xe0\x01\x00PAR1"


def playouts_file_seeds() -> Iterable[bytes]:
    """Small Parquet datasets of both games (recorded or not), whole, cut
    short, and with one byte changed at a few places."""
    import tempfile

    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.parquet"
        for play in (veletas.playouts, meridians.playouts):
            for record in (True, False):
                options = {"variant": "small"} if play is veletas.playouts else {}
                games = play(6, seed=1, record=record, **options)
                games.to_parquet(path)
                data = path.read_bytes()
                yield data
                yield data[: len(data) // 2]
                for _ in range(4):
                    at = rng.randrange(len(data))
                    yield data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1 :]


def ludii_openings() -> Iterable[tuple[str, bool, list[str]]]:
    """The start, pie option and first moves of the first Ludii games."""
    for game in meridians_vectors.ludii_games()[:LUDII_GAMES]:
        start = meridians.Board(size=game.size).fen()
        yield start, False, [move.move for move in game.moves[:RANDOM_PLIES]]


def random_games() -> Iterable[tuple[str, bool, list[str]]]:
    """Each Meridians perft position, with a short random game from it."""
    rng = random.Random(0)
    for vector in meridians_vectors.perft_vectors():
        board = meridians.Board(vector.fen, pie=vector.pie)
        for _ in range(RANDOM_PLIES):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        yield vector.fen, vector.pie, [str(move) for move in board.move_stack]


def meridians_fen_seeds() -> Iterable[str]:
    for vector in meridians_vectors.perft_vectors():
        yield vector.fen
    for removal in meridians_vectors.removal_vectors():
        yield removal.fen
        yield removal.after
    for start, pie, moves in ludii_openings():
        board = meridians.Board(start, pie=pie)
        for move in moves:
            board.push_str(move)
            yield board.fen()


def meridians_move_seeds() -> Iterable[str]:
    rng = random.Random(0)
    for removal in meridians_vectors.removal_vectors():
        yield f"{removal.fen}\n{removal.move}"
        yield removal.move
    for _, _, moves in ludii_openings():
        yield from moves
    for vector in meridians_vectors.perft_vectors():
        moves = list(meridians.Board(vector.fen, pie=vector.pie).legal_moves)
        for move in rng.sample(moves, min(MOVES_PER_POSITION, len(moves))):
            yield str(move)
            yield f"{vector.fen}\n{move}"


def meridians_seeds() -> Iterable[str]:
    yield from meridians_move_seeds()
    for start, pie, moves in [*random_games(), *ludii_openings()]:
        yield "\n".join([start, *moves])
        board = meridians.Board(start, pie=pie)
        for move in moves:
            board.push_str(move)
        yield str(records.GameRecord.from_board(board, start=start, date="2025.01.01"))
    for removal in meridians_vectors.removal_vectors():
        record = records.GameRecord.from_moves(
            MeridiansRules(meridians.Board(removal.fen).size, removal.pie),
            [removal.move],
            start=removal.fen,
            black="Ada",
            white="Bo",
            date="2025.01.01",
        )
        yield str(record)


def main() -> None:
    for target, seeds in (
        ("fen", fen_seeds()),
        ("moves", move_seeds()),
        ("records", record_seeds()),
        ("board", move_seeds()),
        ("meridians_fen", meridians_fen_seeds()),
        ("meridians_moves", meridians_move_seeds()),
        ("meridians", meridians_seeds()),
        ("playouts_file", playouts_file_seeds()),
    ):
        new = write_seeds(target, seeds)
        print(f"corpus/{target}: {new} new seeds")


if __name__ == "__main__":
    main()
