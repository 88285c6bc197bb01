"""The pictures and the page of a game review: the win-chance curve (an
inline SVG, which the page of ``veletas serve`` shows too) and a
self-contained HTML page with the curve and the table of moves.

>>> svg = curve([0.5, 0.6, 0.2, 0.9], marks=[2])
>>> svg.startswith("<svg") and svg.count("<circle") == 4
True
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from veletas import games as registry
from veletas.errors import OutputFileError
from veletas.review import Review, signed

__all__ = ["GENERATOR", "check_target", "curve", "page", "write_page"]

GENERATOR = "veletas review"
"""The page's ``<meta name="generator">``: a file holding it was written by
the review, and may be written again without asking."""

_WIDTH = 720
_HEIGHT = 220
_PAD = 32
_BOARD_PIXELS = 260
"""The width of a mistake's board picture."""
_LEFT = 44
"""The left margin, wide enough for the label ``100%``."""


def curve(
    chances: Sequence[float | None],
    *,
    marks: Iterable[int] = (),
    current: int | None = None,
    labels: tuple[str, str] = ("first player", "second player"),
    width: int = _WIDTH,
    height: int = _HEIGHT,
) -> str:
    """The first player's chance to win by ply as an SVG line chart.

    :param chances: one chance (0 to 1) a position from the start; None
        where a position was not evaluated (the line skips it).
    :param marks: the plies (the position after the move) of mistakes,
        drawn red.
    :param current: the ply shown on a page, marked by a vertical line.
    :param labels: the names of the first and the second player.
    """
    marked = set(marks)
    plies = max(len(chances) - 1, 1)
    inner_w, inner_h = width - _LEFT - _PAD, height - 2 * _PAD

    def x(ply: int) -> float:
        return _LEFT + inner_w * ply / plies

    def y(chance: float) -> float:
        return _PAD + inner_h * (1.0 - chance)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="veletas-curve" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="the chance to win of {html.escape(labels[0])}, move by move">',
        f'<rect x="{_LEFT}" y="{_PAD}" width="{inner_w}" height="{inner_h}" '
        'fill="#f6f4ee" stroke="#999"/>',
        f'<line x1="{_LEFT}" y1="{y(0.5):.1f}" x2="{width - _PAD}" y2="{y(0.5):.1f}" '
        'stroke="#bbb" stroke-dasharray="4 4"/>',
    ]
    for level, text in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        parts.append(
            f'<text x="{_LEFT - 4}" y="{y(level) + 4:.1f}" font-size="11" '
            f'text-anchor="end" fill="#555">{text}</text>'
        )
    parts.append(
        f'<text x="{_LEFT}" y="{_PAD - 10}" font-size="12" fill="#333">'
        f"Chance to win of {html.escape(labels[0])} (above 50%: ahead of "
        f"{html.escape(labels[1])})</text>"
    )
    parts.append(
        f'<text x="{width - _PAD}" y="{height - 8}" font-size="11" text-anchor="end" '
        f'fill="#555">ply {plies}</text>'
    )
    if current is not None and 0 <= current < len(chances):
        parts.append(
            f'<line class="current" x1="{x(current):.1f}" y1="{_PAD}" x2="{x(current):.1f}" '
            f'y2="{height - _PAD}" stroke="#36c" stroke-width="2"/>'
        )
    runs: list[list[str]] = [[]]
    for ply, chance in enumerate(chances):
        if chance is None:
            runs.append([])
        else:
            runs[-1].append(f"{x(ply):.1f},{y(chance):.1f}")
    for run in runs:
        if len(run) > 1:
            parts.append(
                f'<polyline points="{" ".join(run)}" fill="none" stroke="#222" stroke-width="2"/>'
            )
    for ply, chance in enumerate(chances):
        if chance is None:
            continue
        bad = ply in marked
        parts.append(
            f'<circle cx="{x(ply):.1f}" cy="{y(chance):.1f}" r="{4 if bad else 2.5}" '
            f'fill="{"#c62828" if bad else "#222"}" data-ply="{ply}">'
            f"<title>ply {ply}: {chance:.0%}{' (after a mistake)' if bad else ''}</title>"
            "</circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin-top: 1em; }
th, td { padding: 0.2em 0.7em; text-align: right; border-bottom: 1px solid #ddd; }
td.move, td.best, th.move { text-align: left; font-family: monospace; }
td.player, th.player { text-align: left; }
tr.mistake { background: #fde7e7; }
tr.mistake td.note { color: #c62828; font-weight: bold; }
.summary { color: #555; }
.mistakes { display: flex; flex-wrap: wrap; gap: 1.2em; }
.mistakes figure { margin: 0; width: 260px; }
.mistakes figcaption { font-size: 0.85em; color: #444; margin-top: 0.3em; }
"""


def page(review: Review, *, title: str | None = None) -> str:
    """The review as a self-contained HTML page (no script, no link out)."""
    first, second = review.players
    heading = title or f"Review: {first} vs {second} ({review.game}, {review.result})"
    lines = any(row.line for row in review.moves)
    rows = []
    for row in review.moves:
        note = "mistake" if row.mistake else ""
        if row.best is None:  # the search ended before it tried a move
            note = "no move tried in time"
        if row.proven:
            note = f"{note} proven {row.proven}".strip()
        line = " ".join(str(move) for move in row.line)
        rows.append(
            f'<tr class="{"mistake" if row.mistake else ""}" data-ply="{row.ply}">'
            f'<td>{row.ply}</td><td class="player">{html.escape(review.players[row.seat])} '
            f"({html.escape(row.colour)})</td>"
            f'<td class="move">{html.escape(str(row.move))}</td>'
            f"<td>{row.before:.0%}</td><td>{row.after:.0%}</td><td>{signed(row.drop)}</td>"
            f'<td class="best">{html.escape("" if row.best is None else str(row.best))}</td>'
            + (f'<td class="best">{html.escape(line)}</td>' if lines else "")
            + f'<td class="note">{note}</td></tr>'
        )
    budget = " or ".join(
        part
        for part in (
            f"{review.seconds:g} s" if review.seconds is not None else "",
            f"{review.iterations:,} playouts" if review.iterations is not None else "",
        )
        if part
    )
    picture = curve(
        review.chances, marks=[row.ply for row in review.mistakes], labels=review.players
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta name="generator" content="{GENERATOR}">',
            f"<title>{html.escape(heading)}</title>",
            f"<style>{_CSS}</style></head><body>",
            f"<h1>{html.escape(heading)}</h1>",
            f'<p class="summary">The search\'s chance to win for each player, {budget} a '
            f"position; a mistake is a move other than the preferred one that drops "
            f"the mover's chance by more than {review.threshold:.0%} "
            f"({len(review.mistakes)} found).</p>",
            picture,
            '<table><thead><tr><th>ply</th><th class="player">player</th>'
            '<th class="move">move</th><th>before</th><th>after</th><th>drop</th>'
            '<th class="move">preferred</th>'
            + ('<th class="move">line</th>' if lines else "")
            + "<th>note</th></tr></thead><tbody>",
            *rows,
            "</tbody></table>",
            *_mistake_pictures(review),
            "</body></html>",
            "",
        ]
    )


def _mistake_pictures(review: Review) -> list[str]:
    """Each mistake's position after it, the move marked, with what the
    search preferred: a heading and one figure a mistake (none without
    the boards)."""
    if not review.mistakes or len(review.boards) != len(review.moves) + 1:
        return []
    parts = ["<h2>The mistakes</h2>", '<div class="mistakes">']
    for row in review.mistakes:
        board = review.boards[row.ply]
        picture = registry.game_of(board).draw(board, lastmove=row.move, size=_BOARD_PIXELS)
        caption = (
            f"{row.ply}. {row.move} ({review.players[row.seat]}, {row.colour}): "
            f"{row.before:.0%} to {row.after:.0%}; preferred {row.best}"
        )
        parts.append(
            f'<figure data-ply="{row.ply}">{picture}'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
    parts.append("</div>")
    return parts


def write_page(review: Review, path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write :func:`page` to ``path``, atomically.

    :raises OutputFileError: if ``path`` exists and ``force`` is not given,
        or names a Parquet file (nothing is changed).
    """
    target = check_target(path, force=force)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_text(page(review), encoding="utf-8")
    os.replace(temporary, target)
    return target


def check_target(path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """``path`` as a :class:`~pathlib.Path`, if :func:`write_page` may write
    it: the rule of every command's ``--save``, an existing file kept
    unless ``force``, a Parquet name refused.

    :raises OutputFileError: as :func:`write_page`.
    """
    target = Path(path)
    if target.suffix.lower() in (".parquet", ".pq"):
        raise OutputFileError(
            f"cannot write {target}: a review is an HTML page, and a Parquet name says "
            "dataset; name the file .html"
        )
    if (target.exists() or target.is_symlink()) and not force:
        raise OutputFileError(f"{target} exists: add --force to replace it (it was left as it is)")
    return target
