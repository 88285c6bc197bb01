"""The block format of the test vector files of every game: blank-line
separated blocks of lines, each line a keyword and the rest."""

from __future__ import annotations

from pathlib import Path


def read_blocks(path: Path) -> list[dict[str, list[str]]]:
    """The blank-line separated blocks of ``path``: each maps a keyword to the
    rest of its lines, in order. ``#`` lines are comments."""
    blocks: list[dict[str, list[str]]] = []
    block: dict[str, list[str]] = {}
    for line in [*path.read_text().splitlines(), ""]:
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            if block:
                blocks.append(block)
                block = {}
            continue
        keyword, _, rest = line.partition(" ")
        block.setdefault(keyword, []).append(rest)
    return blocks


def single(block: dict[str, list[str]], keyword: str) -> str:
    """The rest of the one ``keyword`` line of ``block``."""
    values = block.get(keyword, [])
    if len(values) != 1:
        raise ValueError(f"expected one {keyword!r} line in block {block!r}")
    return values[0]
