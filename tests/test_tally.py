"""The summary of a run in bounded memory (:class:`veletas.playouts.Tally`): the
same figures as the games themselves give, and memory that does not grow
with the games."""

from __future__ import annotations

import itertools
import json
import math
import random
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from veletas.cli import build_parser, main
from veletas.cli import playout as playout_cli
from veletas.playouts import PlayoutJob, Playouts, Tally

RUNS = [
    {"game": "veletas", "variant": "small", "policy": "micro"},
    {"game": "veletas", "variant": "small", "policy": "uniform"},
    {"game": "veletas", "policy": "micro"},
    {"game": "meridians", "size": "5-6"},
    {"game": "meridians", "pie": True},
]


def ranges(total: int, rng: random.Random) -> list[tuple[int, int]]:
    """Consecutive ranges of random sizes covering ``0 .. total - 1``."""
    cuts = sorted(rng.sample(range(1, total), min(5, total - 1))) if total > 1 else []
    bounds = [0, *cuts, total]
    return [(a, b - a) for a, b in itertools.pairwise(bounds)]


def same(a: object, b: object) -> bool:
    """Equal, with nan equal to nan (no games)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("options", RUNS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("n_games", [0, 1, 2, 7, 1000, 6000])
def test_the_summary_of_ranges_is_that_of_the_games(options: dict, n_games: int) -> None:
    job = PlayoutJob.make(seed=n_games + 1, **options)
    whole = job.run(0, n_games)
    tally = Tally.of(job.run(0, 0))
    for first, count in ranges(n_games, random.Random(n_games)):
        tally.add(job.run(first, count))
    assert len(tally) == n_games
    # Every figure as the games' own arrays give it, to the last bit.
    for color in (0, 1):
        assert same(tally.win_rate(color), whole.win_rate(color))
    assert same(tally.first_player_win_rate(), whole.first_player_win_rate())
    assert same(tally.swap_rate(), whole.swap_rate())
    assert tally.stuck() == whole.stuck()
    assert same(tally.mean_plies(), whole.mean_plies())
    assert same(tally.plies_quantiles(), whole.plies_quantiles())
    summary = tally.summary()
    if options["game"] == "veletas":
        counts = Counter(map(tuple, whole.claims.tolist()))
        assert [(c["black"], c["white"], c["games"]) for c in summary["claims"]] == sorted(
            (black, white, count) for (black, white), count in counts.items()
        )
    else:
        for index, color in enumerate(("light", "dark")):
            mean = float(whole.stones[:, index].mean()) if n_games else math.nan
            assert same(summary["stones"][f"{color}_stones_mean"], mean)
    assert same(summary, whole.summary())
    # The table of the command, from the tally of the ranges or of the whole.
    assert playout_cli.table(tally, 1.0, "here") == playout_cli.table(Tally.of(whole), 1.0, "here")


def test_quantiles_are_numpys_for_any_counts() -> None:
    rng = np.random.default_rng(5)
    job = PlayoutJob.make(variant="small")
    empty = job.run(0, 0)
    for trial in range(300):
        n = int(rng.integers(1, 3000)) if trial else 1
        plies = rng.integers(0, int(rng.integers(1, 60)), n).astype(np.int32)
        arrays = {
            "winner": np.zeros(n, np.int8),
            "swapped": np.zeros(n, np.bool_),
            "plies": plies,
            "claims": np.zeros((n, 2), np.int8),
        }
        games = Playouts(
            arrays,
            start=empty.start,
            rules=empty.rules,
            policy=empty.policy,
            seed=0,
            first_game=0,
            backend=empty.backend,
        )
        q = [0.0, 1.0, *rng.random(8).tolist(), 0.05, 0.25, 0.5, 0.75, 0.95]
        expected = {float(p): float(v) for p, v in zip(q, np.quantile(plies, q), strict=True)}
        assert Tally.of(games).plies_quantiles(q) == expected, n


def test_another_runs_games_are_refused() -> None:
    tally = Tally.of(PlayoutJob.make(variant="small", seed=1).run(0, 10))
    with pytest.raises(ValueError, match="another run"):
        tally.add(PlayoutJob.make(variant="small", seed=2).run(10, 10))


class Repeating(playout_cli.LocalRunner):
    """The same range of games again and again, as the games of a long run
    (as cheap as a run of any length can be)."""

    def __init__(self, part: Playouts) -> None:
        self.part = part

    def play(
        self,
        job: PlayoutJob,
        n_games: int,
        progress: Callable[[int], object],
        first_game: int = 0,
    ) -> Iterator[Playouts]:
        size = len(self.part)
        for first in range(first_game, n_games, size):
            arrays = dict(self.part.dataset_columns())
            yield Playouts(
                arrays,
                start=job.start,
                rules=job.rules,
                policy=job.policy,
                seed=job.seed,
                first_game=first,
                backend=job.backend,
                game=job.game,
            )
            progress(size)


def peak_memory(n_games: int, part: Playouts, capsys: pytest.CaptureFixture[str]) -> int:
    """The most memory Python held while ``veletas playout --games n_games``
    played and summarised its games."""
    args = build_parser().parse_args(
        ["playout", "--games", str(n_games), "--variant", "small", "--seed", "3"]
    )
    tracemalloc.start()
    try:
        assert playout_cli.run(args, runner=Repeating(part)) == 0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"{n_games:,}" in capsys.readouterr().out
    return peak


def test_a_streaming_runs_memory_does_not_grow_with_its_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    part = PlayoutJob.make(variant="small", seed=3).run(0, 20_000)
    short = peak_memory(100_000, part, capsys)
    long = peak_memory(4_000_000, part, capsys)  # 40 times the games
    # Keeping 8 bytes a game would add 30 MB; the counts add nothing.
    assert long < short + 2_000_000, (short, long)


def test_the_tally_of_a_run_holds_its_distinct_rows_only() -> None:
    job = PlayoutJob.make(variant="small", seed=8)
    tally = Tally.of(job.run(0, 0))
    part = job.run(0, 50_000)
    tally.add(part)
    size = tally.nbytes
    for first in range(50_000, 1_000_000, 50_000):
        tally.add(job.run(first, 50_000))
    # 20 times the games in at most twice the memory (a few rare rows more).
    assert tally.nbytes < 2 * size
    assert len(tally) == 1_000_000


def text_of(out: str) -> str:
    """The summary without its timing."""
    return "\n".join(line for line in out.splitlines() if not line.startswith(("games ", "saved ")))


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_a_resumed_save_summarises_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    options = ["--game", game, "--games", "150000", "--seed", "2"]
    if game == "veletas":
        options += ["--variant", "small"]
    assert main(["playout", *options]) == 0
    whole = capsys.readouterr().out
    assert main(["playout", *options, "--json"]) == 0
    whole_json = json.loads(capsys.readouterr().out)
    path = tmp_path / "games.parquet"

    class StopAfterTwo(playout_cli.LocalRunner):
        def play(
            self,
            job: PlayoutJob,
            n_games: int,
            progress: Callable[[int], object],
            first_game: int = 0,
        ) -> Iterator[Playouts]:
            for index, part in enumerate(super().play(job, n_games, progress, first_game)):
                if index == 2:
                    raise KeyboardInterrupt
                yield part

    args = build_parser().parse_args(["playout", *options, "--save", str(path)])
    assert playout_cli.run(args, runner=StopAfterTwo()) == 130
    capsys.readouterr()
    assert main(["playout", *options, "--save", str(path), "--resume"]) == 0
    assert text_of(capsys.readouterr().out) == text_of(whole)
    # A finished file, resumed again: its summary read back a row group at a time.
    assert main(["playout", *options, "--save", str(path), "--resume", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    for key in ("seconds", "games_per_second", "saved"):
        again.pop(key, None)
        whole_json.pop(key, None)
    assert again == whole_json
