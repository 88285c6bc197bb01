"""The long solve's choices, each a ratio of two counts of the same run:
endgames of Veletas 6x6/3 and 7x7/3 settled per 100 million positions searched
when a fresh leaf counts its legal moves to refute (the kept rule) against
when it counts 1, as plain proof-number search starts; and positions of the
5x5/3 openings' search settled per billion positions searched with leaves of
16,000,000 positions (the openings' budget) against 1,000,000. The
positions searched are the same on every run, so the ratios do not depend
on the machine's load."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")


import veletas
from test_long_solve import endgames
from veletas.games.veletas.symmetry import canonical_fen
from veletas.long_solve import LongSolve, ProgressFile

LEAVES = 1_000
"""The leaves a solve of the suite may take."""


@contextmanager
def every_leaf_counts_one() -> Iterator[None]:
    """The rule left out: a fresh leaf counts 1 to prove and 1 to refute."""
    made = LongSolve._node

    def node(self: LongSolve, board: Any) -> Any:
        found = made(self, board)
        found.mobility = 1
        return found

    LongSolve._node = node  # type: ignore[method-assign]
    try:
        yield
    finally:
        LongSolve._node = made  # type: ignore[method-assign]


def settled_per_100m(folder: Path) -> float:
    settled = searched = 0
    for number, board in enumerate([*endgames(6, 10, 6, seed=106), *endgames(7, 10, 6, seed=107)]):
        search = LongSolve(
            board, ProgressFile(folder / f"{number}.jsonl"), leaf_nodes=5_000, memory=8 << 20
        )
        settled += search.run(leaves=LEAVES) is not None
        searched += search.searched
    return settled / searched * 1e8


def test_leaves_counted_by_their_moves(benchmark: Any, report: Any, tmp_path: Path) -> None:
    benchmark.group = "long solve"
    kept = benchmark.pedantic(settled_per_100m, args=(tmp_path / "kept",), rounds=1)
    with every_leaf_counts_one():
        plain = settled_per_100m(tmp_path / "plain")
    report(
        f"12 endgames of Veletas 6x6/3 and 7x7/3, 10 moves left, leaves of 5,000 positions, "
        f"at most {LEAVES:,} leaves each",
        "a fresh leaf refuted in its moves",
        kept,
        "every leaf counting 1",
        plain,
        unit="settled/100M positions",
    )


OPENINGS_LEAVES = (
    "1s1x1/1so2/sxx2/5/2o2 w play 3",
    "4s/3os/2x2/4o/x1x1s w play 3",
    "3os/3x1/2o1s/4x/x3s w play 3",
    "1s3/xso2/1sxo1/1x3/5 w play 3",
    "2sso/2xsx/2ox1/5/5 w play 3",
    "1o3/3x1/1x3/1so2/1s1sx w play 3",
    "1ss2/1sxx1/1oo2/5/4x w play 3",
    "1x2s/2oxs/3sx/2o2/5 w play 3",
    "1o3/3x1/5/1so2/s1sx1 b play 3",
)
"""Leaves of the 5x5/3 openings' search that 1,000,000 positions left
unknown, drawn at random from its progress file: eight with three pieces
placed past White's setup (two turns of play), one with two."""


def settled_per_billion(folder: Path, leaf_nodes: int) -> float:
    searched = 0
    for number, fen in enumerate(OPENINGS_LEAVES):
        search = LongSolve(
            veletas.Board(fen, size=5, shooters=3),
            ProgressFile(folder / f"{leaf_nodes}-{number}.jsonl"),
            leaf_nodes=leaf_nodes,
            key=lambda board: canonical_fen(board.fen()),
        )
        assert search.run() is not None
        searched += search.searched
    return len(OPENINGS_LEAVES) / searched * 1e9


@pytest.mark.parametrize(("big", "small"), [(16_000_000, 1_000_000), (64_000_000, 16_000_000)])
def test_bigger_leaves(benchmark: Any, report: Any, tmp_path: Path, big: int, small: int) -> None:
    benchmark.group = "long solve"
    settled_big = benchmark.pedantic(settled_per_billion, args=(tmp_path, big), rounds=1)
    settled_small = settled_per_billion(tmp_path, small)
    report(
        f"{len(OPENINGS_LEAVES)} leaves of the 5x5/3 openings left unknown by 1,000,000 "
        "positions, each searched to its value",
        f"leaves of {big:,} positions",
        settled_big,
        f"of {small:,}",
        settled_small,
        unit="settled/1G positions",
    )
