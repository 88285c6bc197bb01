"""The long solve's choice of leaf, a ratio of two counts of the same run:
endgames of Veletas 6x6/3 and 7x7/3 settled per 100 million positions searched
when a fresh leaf counts its legal moves to refute (the kept rule) against
when it counts 1, as plain proof-number search starts. The positions
searched are the same on every run, so the ratio does not depend on the
machine's load."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")


from test_long_solve import endgames
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
