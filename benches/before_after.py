"""The main job and the reading of a dataset, before and after a change, in
one run: ``veletas playout --games 1000000`` and ``read_playouts`` of a
Parquet dataset of 1M recorded standard games (and its per-game columns
alone, ``iter_playouts(moves=False)``), the two trees taking turns, each in a
fresh process, the medians compared.

A tree is a folder that ``import veletas`` finds on ``PYTHONPATH`` with its
compiled core inside, such as a worktree of an older commit::

    git worktree add /tmp/before COMMIT
    (cd /tmp/before && maturin build --release -o /tmp/wheel)
    unzip -o -j /tmp/wheel/veletas-*.whl 'veletas/_veletas*.so' -d /tmp/before/python/veletas
    python benches/before_after.py /tmp/before/python python --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

READ = """
import sys, time
import veletas, veletas.datasets as datasets
path = sys.argv[1]
clock = time.perf_counter()
veletas.read_playouts(path)
whole = time.perf_counter() - clock
clock = time.perf_counter()
sum(len(part) for part in datasets.iter_playouts(path, moves=False))
print(whole, time.perf_counter() - clock)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="the tree before (a folder holding veletas/)")
    parser.add_argument("after", help="the tree after")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = {"before": str(Path(args.before).resolve()), "after": str(Path(args.after).resolve())}
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "games.parquet")
        write = (
            f"import veletas; veletas.playouts(1_000_000, record=True, seed=3).to_parquet({path!r})"
        )
        subprocess.run([sys.executable, "-c", write], check=True, env=environment(trees["before"]))
        rates: dict[str, list[float]] = {name: [] for name in trees}
        reads: dict[str, list[float]] = {name: [] for name in trees}
        columns: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, tree in trees.items():
                env = environment(tree)
                command = [sys.executable, "-m", "veletas.cli", "playout", "--games", "1000000"]
                out = subprocess.run(
                    [*command, "--json"], capture_output=True, text=True, env=env, check=True
                ).stdout
                rates[name].append(json.loads(out)["games_per_second"])
                times = subprocess.run(
                    [sys.executable, "-c", READ, path],
                    capture_output=True,
                    text=True,
                    env=env,
                    check=True,
                ).stdout.split()
                reads[name].append(float(times[0]))
                columns[name].append(float(times[1]))
    median = statistics.median
    for name in trees:
        print(
            f"{name}: veletas playout {median(rates[name]):,.0f} games/s; read_playouts of "
            f"1M games {median(reads[name]):.2f} s; the columns alone {median(columns[name]):.3f} s"
        )
    print(
        f"after / before: playout rate {median(rates['after']) / median(rates['before']):.3f}, "
        f"read time {median(reads['after']) / median(reads['before']):.2f}, "
        f"columns time {median(columns['after']) / median(columns['before']):.2f}"
    )


def environment(tree: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": tree}


if __name__ == "__main__":
    main()
