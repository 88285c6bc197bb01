"""The eight symmetries of the square board (turns and mirrors: every rule
of Veletas keeps them) on position strings, and the openings up to them.

>>> from veletas.games.veletas.symmetry import canonical_fen, openings
>>> canonical_fen("5/5/2s2/2x2/5 w pie 3") == canonical_fen("5/5/1xs2/5/5 w pie 3")
True
>>> len(openings(size=5, shooters=3))
33
"""

from __future__ import annotations

from typing import Any

__all__ = ["canonical_fen", "images", "openings"]


def _squares(board: str) -> list[list[str]]:
    ranks = []
    for rank in board.split("/"):
        squares: list[str] = []
        run = ""
        for char in rank:
            if char.isdigit():
                run += char
                continue
            if run:
                squares.extend("." * int(run))
                run = ""
            squares.append(char)
        if run:
            squares.extend("." * int(run))
        ranks.append(squares)
    return ranks


def _board_field(ranks: list[list[str]]) -> str:
    out = []
    for rank in ranks:
        text, run = "", 0
        for square in rank:
            if square == ".":
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += square
        if run:
            text += str(run)
        out.append(text)
    return "/".join(out)


def images(fen: str) -> list[str]:
    """The position string ``fen`` under each of the eight symmetries, the
    identity first: the board field turned and mirrored, the rest kept."""
    board, _, rest = fen.partition(" ")
    ranks = _squares(board)
    found = []
    for mirror in (False, True):
        grid = [row[::-1] for row in ranks] if mirror else ranks
        for _ in range(4):
            found.append(f"{_board_field(grid)} {rest}")
            grid = [list(row) for row in zip(*grid[::-1], strict=True)]
    return found


def canonical_fen(fen: str) -> str:
    """The least of the images of ``fen``: one key for a position and its
    images, which have one value."""
    return min(images(fen))


def openings(**rules: Any) -> list[str]:
    """The positions right after Black's opening (its shooters and its
    stone), one of each class of images, as ``Board.fen()`` writes them, in
    the order of the legal moves: White to decide the pie. ``rules`` are the
    keywords of :class:`veletas.Board` (``size=5, shooters=3``)."""
    from veletas.games.veletas.engine import ENGINES

    start = ENGINES.selected().Board(**rules)
    seen: set[str] = set()
    found: list[str] = []

    def place(board: Any) -> None:
        if board.phase.value != "setup":
            fen = board.fen()
            key = canonical_fen(fen)
            if key not in seen:
                seen.add(key)
                found.append(fen)
            return
        for move in board.legal_moves:
            after = board.copy()
            after.push(move)
            place(after)

    place(start)
    return found
