"""Pictures of positions as SVG: for notebooks, documents and the command line.

>>> import veletas
>>> board = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
>>> picture = veletas.svg.board(board, size=280)
>>> picture.startswith("<svg")
True
>>> picture.count('class="shooter"')
3

Each piece is an element with a class, so a picture can be styled or
inspected: ``stone black``, ``stone white``, ``shooter`` (unclaimed),
``claimed black``, ``claimed white`` (a shooter with its claimant's stone on
it); the last move adds ``lastmove origin``, ``lastmove target``,
``lastmove path`` (the shooter's move) and ``lastmove shot``; coordinates are
``coord file`` and ``coord rank`` text. Every square is a see-through
``square`` element on top, whose ``data-square`` attribute holds its name,
for pages that take clicks:

>>> picture.count('class="square"'), 'data-square="a1"' in picture
(49, True)
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from veletas.games.veletas.types import (
    FILE_NAMES,
    Piece,
    square,
    square_file,
    square_name,
    square_rank,
)

__all__ = ["board"]

_BOARD_FILL = "#e9d5a8"
_GRID = "#7a5c32"
_STONE = {"black": ("#1d1d1d", "#000000"), "white": ("#fbfbf7", "#3a3a3a")}
_SHOOTER_FILL = "#c8362c"
_SHOOTER_EDGE = "#5e1410"
_CLAIMED_FILL = "#8d8d8d"
_PATH = "#1f64c8"
_SHOT = "#e07a10"
_HIGHLIGHT = "#f4d03f"

_DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def board(
    board: Any,
    *,
    lastmove: Any = None,
    size: int = 400,
    coordinates: bool = True,
    flipped: bool = False,
) -> str:
    """An SVG picture of ``board`` (of either backend), ``size`` pixels wide.

    :param lastmove: a move to mark: its target square, and for a shot the
        shooter's path (origin to destination) and the line of the shot. A
        shot without a shooter move is drawn from the nearest shooter that
        reaches the target.
    :param coordinates: file letters below and rank numbers left, as in the
        notation (``a1`` bottom-left).
    :param flipped: turn the board around (``a1`` top-right).
    :raises ValueError: for a size below 40 pixels.
    """
    if not isinstance(size, int) or isinstance(size, bool) or size < 40:
        raise ValueError(f"size must be an int of 40 or more pixels, got {size!r}")
    n = board.size
    margin = 0.7 if coordinates else 0.15
    unit = size / (n + margin + 0.15)
    origin_x = margin * unit
    origin_y = 0.15 * unit

    def corner(sq: int) -> tuple[float, float]:
        file, rank = square_file(sq), square_rank(sq)
        column = n - 1 - file if flipped else file
        row = rank if flipped else n - 1 - rank
        return origin_x + column * unit, origin_y + row * unit

    def centre(sq: int) -> tuple[float, float]:
        x, y = corner(sq)
        return x + unit / 2, y + unit / 2

    height = origin_y + n * unit + (margin if coordinates else 0.15) * unit
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{size}" height="{height:.0f}" viewBox="0 0 {size} {height:.2f}">',
        _defs(unit),
        f'<rect class="board" x="{origin_x:.2f}" y="{origin_y:.2f}" '
        f'width="{n * unit:.2f}" height="{n * unit:.2f}" fill="{_BOARD_FILL}" '
        f'stroke="{_GRID}" stroke-width="{unit * 0.04:.2f}"/>',
    ]
    out.append(f'<g class="grid" stroke="{_GRID}" stroke-width="{unit * 0.02:.2f}">')
    for k in range(1, n):
        x = origin_x + k * unit
        y = origin_y + k * unit
        out.append(
            f'<line x1="{x:.2f}" y1="{origin_y:.2f}" x2="{x:.2f}" y2="{origin_y + n * unit:.2f}"/>'
        )
        out.append(
            f'<line x1="{origin_x:.2f}" y1="{y:.2f}" x2="{origin_x + n * unit:.2f}" y2="{y:.2f}"/>'
        )
    out.append("</g>")

    marks = _lastmove(board, lastmove)
    for role in ("origin", "target"):
        sq = marks.get(role)
        if sq is not None:
            x, y = corner(sq)
            opacity = 0.55 if role == "target" else 0.3
            out.append(
                f'<rect class="lastmove {role}" x="{x:.2f}" y="{y:.2f}" width="{unit:.2f}" '
                f'height="{unit:.2f}" fill="{_HIGHLIGHT}" fill-opacity="{opacity}"/>'
            )

    dashes = {"path": f' stroke-dasharray="{unit * 0.12:.2f},{unit * 0.08:.2f}"', "shot": ""}
    offsets = {"path": 0.0, "shot": 0.0}
    if "path" in marks and "shot" in marks and _collinear(marks["path"], marks["shot"]):
        # A shot back along the path would hide it: draw the two side by side.
        offsets = {"path": unit * 0.13, "shot": -unit * 0.13}
    for role, colour in (("path", _PATH), ("shot", _SHOT)):
        line = marks.get(role)
        if line is None:
            continue
        (x1, y1), (x2, y2) = centre(line[0]), centre(line[1])
        if offsets[role]:
            # Offset across the line, on the same side for both directions.
            dx, dy = (x2 - x1, y2 - y1) if (x2 - x1, y2 - y1) > (0, 0) else (x1 - x2, y1 - y2)
            norm = (dx * dx + dy * dy) ** 0.5
            ox, oy = -dy / norm * offsets[role], dx / norm * offsets[role]
            x1, y1, x2, y2 = x1 + ox, y1 + oy, x2 + ox, y2 + oy
        # Stop the arrow head (which reaches 0.14 squares past the line's
        # end) at the edge of the piece it points to.
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-9)
        shorten = min(unit * 0.56, length / 2)
        x2, y2 = x2 - (x2 - x1) * shorten / length, y2 - (y2 - y1) * shorten / length
        out.append(
            f'<line class="lastmove {role}" x1="{x1:.2f}" y1="{y1:.2f}" '
            f'x2="{x2:.2f}" y2="{y2:.2f}" stroke="{colour}" stroke-width="{unit * 0.09:.2f}" '
            f'stroke-linecap="round" stroke-opacity="0.9"{dashes[role]} '
            f'marker-end="url(#veletas-arrow-{role})"/>'
        )

    # Pieces above the lines: a path passes under the shooters it passes over.
    for sq in range(100):
        if square_file(sq) >= n or square_rank(sq) >= n:
            continue
        piece = board.piece_at(sq)
        if piece is not None:
            out.append(_piece(Piece(piece), *centre(sq), unit))

    if coordinates:
        font = unit * 0.36
        for k in range(n):
            file_sq = square(k, 0)
            x, _ = centre(file_sq)
            y = origin_y + n * unit + margin * unit * 0.62
            out.append(
                f'<text class="coord file" x="{x:.2f}" y="{y:.2f}" font-size="{font:.1f}" '
                f'text-anchor="middle" font-family="sans-serif" fill="#333">{FILE_NAMES[k]}</text>'
            )
            rank_sq = square(0, k)
            _, y = centre(rank_sq)
            out.append(
                f'<text class="coord rank" x="{origin_x - margin * unit * 0.45:.2f}" '
                f'y="{y + font * 0.35:.2f}" font-size="{font:.1f}" text-anchor="middle" '
                f'font-family="sans-serif" fill="#333">{k + 1}</text>'
            )
    # Last and see-through, so that a click anywhere on a square (on a piece
    # too) lands on the element that names it.
    out.append('<g class="squares" fill="#000" fill-opacity="0">')
    for sq in range(100):
        if square_file(sq) < n and square_rank(sq) < n:
            x, y = corner(sq)
            name = square_name(sq)
            out.append(
                f'<rect class="square" data-square="{name}" x="{x:.2f}" y="{y:.2f}" '
                f'width="{unit:.2f}" height="{unit:.2f}"/>'
            )
    out.append("</g>")
    out.append(f"<title>{escape(board.fen())}</title>")
    out.append("</svg>")
    return "\n".join(out)


def _defs(unit: float) -> str:
    """Arrow heads for the two last-move lines."""
    heads = []
    for role, colour in (("path", _PATH), ("shot", _SHOT)):
        heads.append(
            f'<marker id="veletas-arrow-{role}" viewBox="0 0 10 10" refX="5" refY="5" '
            f'markerWidth="3" markerHeight="3" orient="auto-start-reverse">'
            f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>'
        )
    return "<defs>" + "".join(heads) + "</defs>"


def _stone(x: float, y: float, radius: float, colour: str, class_: str) -> str:
    fill, edge = _STONE[colour]
    return (
        f'<circle class="{class_}" cx="{x:.2f}" cy="{y:.2f}" r="{radius:.2f}" '
        f'fill="{fill}" stroke="{edge}" stroke-width="{radius * 0.08:.2f}"/>'
    )


def _diamond(x: float, y: float, half: float, fill: str) -> str:
    corners = [(x, y - half), (x + half, y), (x, y + half), (x - half, y)]
    points = " ".join(f"{cx:.2f},{cy:.2f}" for cx, cy in corners)
    return (
        f'<polygon points="{points}" fill="{fill}" stroke="{_SHOOTER_EDGE}" '
        f'stroke-width="{half * 0.08:.2f}" stroke-linejoin="round"/>'
    )


def _piece(piece: Piece, x: float, y: float, unit: float) -> str:
    """A stone is a round disc; a shooter a red diamond (a vane), with a
    smaller dot at its heart; a claimed shooter is a grey diamond carrying
    its claimant's stone."""
    if piece is Piece.BLACK_STONE:
        return _stone(x, y, unit * 0.42, "black", "stone black")
    if piece is Piece.WHITE_STONE:
        return _stone(x, y, unit * 0.42, "white", "stone white")
    if piece is Piece.SHOOTER:
        return (
            f'<g class="shooter">{_diamond(x, y, unit * 0.46, _SHOOTER_FILL)}'
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{unit * 0.08:.2f}" fill="#fff3e0"/></g>'
        )
    colour = "black" if piece is Piece.BLACK_CLAIMED else "white"
    return (
        f'<g class="claimed {colour}">{_diamond(x, y, unit * 0.46, _CLAIMED_FILL)}'
        f"{_stone(x, y, unit * 0.25, colour, 'marker')}</g>"
    )


def _collinear(path: tuple[int, int], shot: tuple[int, int]) -> bool:
    """Whether the shot runs along the line of the path."""
    (a, b), (c, d) = path, shot
    pf, pr = square_file(b) - square_file(a), square_rank(b) - square_rank(a)
    sf, sr = square_file(d) - square_file(c), square_rank(d) - square_rank(c)
    return pf * sr == pr * sf


def _lastmove(board: Any, move: Any) -> dict[str, Any]:
    """The squares and lines that mark ``move``: ``target`` and ``origin``
    squares, ``path`` and ``shot`` as (from, to) pairs."""
    if move is None or move.is_swap:
        return {}
    marks: dict[str, Any] = {"target": move.target}
    if move.is_shooter:
        return marks
    if move.origin is not None:
        marks["origin"] = move.origin
        marks["path"] = (move.origin, move.destination)
        marks["shot"] = (move.destination, move.target)
        return marks
    shooter = _shooter_of(board, move.target)
    if shooter is not None:
        marks["shot"] = (shooter, move.target)
    return marks


def _shooter_of(board: Any, target: int) -> int | None:
    """The nearest shooter (claimed or not: the shot may have trapped it) on
    an open line to ``target``: the one that made a shot without a move."""
    stones = len(board.pieces(Piece.BLACK_STONE)) + len(board.pieces(Piece.WHITE_STONE))
    if board.phase != "play" or stones <= 2:
        # In setup, or just after White's setup stone (every shot of play
        # adds a third stone): a stone placed, not shot.
        return None
    n = board.size
    blocking = "xo" + ("sXO" if board.rules.shooters_block else "")
    best = None
    for df, dr in _DIRECTIONS:
        file, rank = square_file(target) + df, square_rank(target) + dr
        steps = 1
        while 0 <= file < n and 0 <= rank < n:
            piece = board.piece_at(square(file, rank))
            letter = None if piece is None else Piece(piece).value
            if letter in ("s", "X", "O"):
                if best is None or steps < best[0]:
                    best = (steps, square(file, rank))
                break
            if letter is not None and letter in blocking:
                break
            file, rank, steps = file + df, rank + dr, steps + 1
    return None if best is None else best[1]
