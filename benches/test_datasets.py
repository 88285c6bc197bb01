"""What saving games costs, each figure a ratio of two rates measured in the
same run, on the standard game from the start position:

- a streamed Parquet save (parts, then the merge) against the same recorded
  games kept in memory;
- game records written from the move codes against records built game by
  game (``Playouts.record``, which replays each game);
- reading a Parquet dataset back against reading the same games as records.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import veletas
from conftest import games_per_second
from veletas import datasets, records
from veletas.playouts import PlayoutJob

JOB = PlayoutJob.make(seed=1, record=True)


def save_streamed(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        writer = datasets.DatasetWriter(Path(folder) / "games.parquet", JOB, games)
        step = 20_000
        for first in range(0, games, step):
            writer.add(JOB.run(first, min(step, games - first)))
        writer.finish()


def test_streamed_save_against_memory(benchmark, report) -> None:
    benchmark.group = "datasets: save"
    benchmark.pedantic(save_streamed, args=(100_000,), rounds=1)
    report(
        "--save games.parquet vs recorded games in memory",
        "saved",
        games_per_second(save_streamed, 200_000, repeat=2),
        "in memory",
        games_per_second(lambda n: JOB.run(0, n), 200_000, repeat=2),
    )


def test_records_from_codes_against_game_by_game(benchmark, report) -> None:
    games = JOB.run(0, 5_000)

    def from_codes(n: int) -> None:
        datasets.write_records(games, io.StringIO())

    def game_by_game(n: int) -> None:
        records.write([games.record(i) for i in range(len(games))])

    benchmark.group = "datasets: records"
    benchmark.pedantic(from_codes, args=(5_000,), rounds=1)
    report(
        "records written from move codes vs game by game",
        "from codes",
        games_per_second(from_codes, 5_000, repeat=2),
        "game by game",
        games_per_second(game_by_game, 5_000, repeat=1),
    )


def test_reading_parquet_against_records(benchmark, report) -> None:
    games = JOB.run(0, 20_000)
    with tempfile.TemporaryDirectory() as folder:
        parquet = Path(folder) / "games.parquet"
        text = Path(folder) / "games.txt"
        games.to_parquet(parquet)
        with open(text, "w", encoding="utf-8") as file:
            datasets.write_records(games, file)
        benchmark.group = "datasets: read"
        benchmark.pedantic(veletas.read_playouts, args=(parquet,), rounds=1)
        report(
            "reading a Parquet dataset vs the same games as records",
            "parquet",
            games_per_second(lambda n: veletas.read_playouts(parquet), 20_000, repeat=2),
            "records",
            games_per_second(lambda n: veletas.read_playouts(text), 20_000, repeat=1),
        )


def test_reading_with_the_replay_against_without(benchmark, report) -> None:
    # The replay plays the run again from its metadata; without it (the parts
    # a run reads back on --resume) the columns are checked against their domains.
    games = JOB.run(0, 200_000)
    with tempfile.TemporaryDirectory() as folder:
        parquet = Path(folder) / "games.parquet"
        games.to_parquet(parquet)
        benchmark.group = "datasets: replay"
        benchmark.pedantic(veletas.read_playouts, args=(parquet,), rounds=1)
        report(
            "reading a Parquet dataset with its replay vs without",
            "replayed",
            games_per_second(lambda n: veletas.read_playouts(parquet), 200_000, repeat=2),
            "domains only",
            games_per_second(
                lambda n: datasets._read_playouts(parquet, replay=False), 200_000, repeat=2
            ),
        )
