"""Pictures of Meridians positions as SVG: the hexagon of triangles, with
the lines between the points and the stones on the points, as on the
designer's and Ludii's boards.

>>> from veletas import meridians
>>> import veletas
>>> board = meridians.Board(size="5-6")
>>> for text in ["e5", "f6", "e8"]:
...     _ = board.push_str(text)
>>> picture = veletas.svg.board(board, lastmove=board.peek(), size=300)
>>> picture.count('class="point"'), picture.count('class="stone light"')
(80, 2)

Every point is an element with the class ``point`` and a ``data-square``
attribute holding its name (``data-square="e5"``), see-through and drawn
over the stones and marks, so that a page can make it clickable. Stones
are ``stone light`` and ``stone dark``; the last placement adds ``lastmove
target``, and each point its removals emptied a ``lastmove removed``
cross; coordinates are ``coord file`` and ``coord rank`` text.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

from veletas.games.meridians.types import point_name

__all__ = ["board"]

_BOARD_FILL = "#ecd9b0"
_LINE = "#6b5432"
_STONE = {"light": ("#fbfbf5", "#3a3a3a"), "dark": ("#222222", "#000000")}
_HIGHLIGHT = "#d23c2a"
_SIZES = {"5-6": (5, 6), "6-7": (6, 7), "7-8": (7, 8)}
_ROOT3 = math.sqrt(3)


def board(
    board: Any,
    *,
    lastmove: Any = None,
    size: int = 400,
    coordinates: bool = True,
    flipped: bool = False,
) -> str:
    """An SVG picture of a Meridians ``board`` (of either engine), ``size``
    pixels wide.

    :param lastmove: a placement to mark; when it is the board's last move,
        the points its removals emptied are marked too.
    :param coordinates: rank numbers at the left end of each rank, file
        letters below the first point of each file.
    :param flipped: turn the board around (``a1`` at the top).
    :raises ValueError: for a size below 40 pixels.
    """
    if not isinstance(size, int) or isinstance(size, bool) or size < 40:
        raise ValueError(f"size must be an int of 40 or more pixels, got {size!r}")
    a, b = _SIZES[board.size]
    n = a + b - 1
    points = [(c, r) for r in range(n) for c in range(max(0, r - b + 1), min(n - 1, r + b - 1) + 1)]
    # (c, r) sits at x = c - r/2, y = r * sqrt(3)/2; the drawing spans
    # x from -(b - 1)/2 to n - 1 - (b - 1)/2 ... and y from 0 to (n - 1) * sqrt(3)/2.
    xs = [c - r / 2 for c, r in points]
    x_low, x_high = min(xs), max(xs)
    y_high = (n - 1) * _ROOT3 / 2
    margin = 1.3 if coordinates else 0.6
    unit = size / (x_high - x_low + 2 * margin)
    height = (y_high + 2 * margin) * unit

    def at(c: int, r: int) -> tuple[float, float]:
        x, y = c - r / 2 - x_low, y_high - r * _ROOT3 / 2
        if flipped:
            x, y = x_high - x_low - x, y_high - y
        return (x + margin) * unit, (y + margin) * unit

    on_board = set(points)
    corners = [
        at(0, 0),
        at(b - 1, 0),
        at(n - 1, a - 1),
        at(n - 1, n - 1),
        at(a - 1, n - 1),
        at(0, b - 1),
    ]
    pad = unit * 0.45
    cx = sum(x for x, _ in corners) / 6
    cy = sum(y for _, y in corners) / 6
    outline = []
    for x, y in corners:  # the hexagon of the points, grown by `pad`
        d = math.hypot(x - cx, y - cy)
        outline.append(f"{x + (x - cx) / d * pad:.2f},{y + (y - cy) / d * pad:.2f}")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{size}" height="{height:.0f}" viewBox="0 0 {size} {height:.2f}">',
        f'<polygon class="board" points="{" ".join(outline)}" fill="{_BOARD_FILL}" '
        f'stroke="{_LINE}" stroke-width="{unit * 0.05:.2f}" stroke-linejoin="round"/>',
        f'<g class="lines" stroke="{_LINE}" stroke-width="{unit * 0.035:.2f}">',
    ]
    for c, r in points:
        for dc, dr in ((1, 0), (0, 1), (1, 1)):
            if (c + dc, r + dr) in on_board:
                (x1, y1), (x2, y2) = at(c, r), at(c + dc, r + dr)
                out.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}"/>')
    out.append("</g>")

    for c, r in points:
        x, y = at(c, r)
        out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{unit * 0.07:.2f}" fill="{_LINE}"/>')

    removed: tuple[str, ...] = ()
    target = getattr(lastmove, "point", None)
    if lastmove is not None and board.move_stack and board.peek() == lastmove:
        removed = tuple(board.last_removed)
    for name in removed:
        number = _number(name)
        x, y = at(number % 14, number // 14)
        arm = unit * 0.22
        out.append(
            f'<path class="lastmove removed" d="M{x - arm:.2f},{y - arm:.2f} '
            f"L{x + arm:.2f},{y + arm:.2f} M{x - arm:.2f},{y + arm:.2f} "
            f'L{x + arm:.2f},{y - arm:.2f}" stroke="{_HIGHLIGHT}" '
            f'stroke-width="{unit * 0.09:.2f}" stroke-linecap="round"/>'
        )

    for number, color in sorted(board.piece_map().items()):
        x, y = at(number % 14, number // 14)
        name = str(color)
        fill, stroke = _STONE[name]
        out.append(
            f'<circle class="stone {name}" data-square="{point_name(number)}" cx="{x:.2f}" '
            f'cy="{y:.2f}" r="{unit * 0.4:.2f}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{unit * 0.04:.2f}"/>'
        )
    if target is not None:
        x, y = at(target % 14, target // 14)
        out.append(
            f'<circle class="lastmove target" cx="{x:.2f}" cy="{y:.2f}" r="{unit * 0.16:.2f}" '
            f'fill="{_HIGHLIGHT}"/>'
        )

    # Last and see-through, so that a click anywhere on a point (on a stone
    # or a mark too) lands on the point.
    for c, r in points:
        x, y = at(c, r)
        out.append(
            f'<circle class="point" data-square="{point_name(r * 14 + c)}" cx="{x:.2f}" '
            f'cy="{y:.2f}" r="{unit * 0.42:.2f}" fill="{_LINE}" fill-opacity="0"/>'
        )

    if coordinates:
        font = unit * 0.42
        text = f'font-size="{font:.1f}" font-family="sans-serif" fill="#333" text-anchor="middle"'
        for r in range(n):
            c = max(0, r - b + 1)
            x, y = at(c, r)
            side = unit * 0.85 * (1 if flipped else -1)
            out.append(
                f'<text class="coord rank" x="{x + side:.2f}" y="{y + font * 0.35:.2f}" '
                f"{text}>{r + 1}</text>"
            )
        for c in range(n):
            r = max(0, c - b + 1)
            x, y = at(c, r)
            # Below the first point of the file, along the file's direction.
            dx, dy = (0.42, 0.73) if not flipped else (-0.42, -0.73)
            out.append(
                f'<text class="coord file" x="{x + dx * unit:.2f}" '
                f'y="{y + dy * unit + font * 0.35:.2f}" {text}>{chr(ord("a") + c)}</text>'
            )
    out.append(f"<title>{escape(board.fen())}</title>")
    out.append("</svg>")
    return "\n".join(out)


def _number(name: str) -> int:
    return (int(name[1:]) - 1) * 14 + ord(name[0]) - ord("a")
