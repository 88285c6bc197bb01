"""The Meridians part of a playout report (:mod:`veletas.report`): how games
end (the winner's stones left, the stones removed, and whether the loser ran
out of stones or of legal placements), and the first player's win rate by
the point of the first stone, drawn on the hexagon.

The hexagon is that of :mod:`veletas.games.meridians.svg`: point ``(c, r)``
(file ``c``, rank ``r``) sits at ``x = c - r/2``, ``y = r * sqrt(3)/2``,
and each point is drawn as the hexagonal cell around it (the cells of a
triangular lattice tile the plane).

>>> points = board_points("5-6")
>>> len(points), points[0], points[-1]
(80, (0, 0), (9, 9))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from veletas.games.meridians.playouts import start_of_game
from veletas.games.meridians.types import point_name
from veletas.playouts import Estimate, Playouts, wilson
from veletas.report import (
    _estimate,
    _interval,
    attr,
    join,
    openings,
    percent,
    short,
)
from veletas.report import _subplots as subplots

__all__ = [
    "COLORS",
    "FIGURES",
    "GameCounts",
    "board_points",
    "figures",
    "first_points",
    "metric_rows",
    "sections",
]

COLORS = ("light", "dark")
"""The colours by index, as the report names them."""
FIGURES = ("stones", "first-stone")
"""The figures of this game (the opening needs a recorded run from the start)."""
_SIZES = {"5-6": (5, 6), "6-7": (6, 7), "7-8": (7, 8)}
_ROOT3 = math.sqrt(3)
_LISTED = 6  # points listed at each end of the openings table
CSS = "#figure-first-stone svg { width: 85%; display: block; margin: 0 auto; }\n"
"""The page's style for this game's figures: the hexagon a little narrower than the page."""


def board_points(size: str) -> list[tuple[int, int]]:
    """The points ``(c, r)`` of a board of ``size``, rank by rank."""
    a, b = _SIZES[size]
    n = a + b - 1
    return [(c, r) for r in range(n) for c in range(max(0, r - b + 1), min(n - 1, r + b - 1) + 1)]


def first_points(games: Playouts) -> np.ndarray:
    """For each recorded game, the point number (``rank * 14 + file``) of its
    first stone, or -1 if it placed none (int16)."""
    assert games.moves is not None
    assert games.offsets is not None
    starts, ends = games.offsets[:-1], games.offsets[1:]
    where = np.flatnonzero(games.moves >= 0)
    at = np.searchsorted(where, starts)
    found = np.full(len(games), -1, np.int16)
    ok = at < len(where)
    ok[ok] = where[at[ok]] < ends[ok]
    found[ok] = games.moves[where[at[ok]]]
    return found


def placements(games: Playouts) -> np.ndarray:
    """For each recorded game, the stones placed in it (int32)."""
    assert games.moves is not None
    assert games.offsets is not None
    placed = np.concatenate([[0], np.cumsum(games.moves >= 0)])
    counts: np.ndarray = placed[games.offsets[1:]] - placed[games.offsets[:-1]]
    return counts.astype(np.int32)


class GameCounts:
    """The final stones and first stones of a run's games, one range at a time."""

    def __init__(self, head: Playouts, sample_every: int) -> None:
        del sample_every  # the arrays say how every game ended: nothing is replayed
        self.size = str(head.rules.size)
        self.recorded = True
        self.openings = head.start == start_of_game(head.rules, head.backend)
        self._stones: list[np.ndarray] = []
        self._placed: list[np.ndarray] = []
        self._first: list[np.ndarray] = []

    def add(self, games: Playouts) -> None:
        """Count the games of one range."""
        self._stones.append(games.stones)
        if games.moves is None or games.offsets is None:
            self.recorded = False
        elif self.recorded:
            self._placed.append(placements(games))
            self._first.append(first_points(games))

    def numbers(
        self, winner: np.ndarray, first_won: np.ndarray, advantage: Estimate
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The game's own numbers, and its own metrics."""
        stones = join(self._stones, np.int8, (2,)).astype(np.int64)
        n = len(winner)
        decided = winner >= 0
        won = np.where(decided, winner, 0).astype(np.int64)
        winner_left = stones[np.arange(n), won][decided]
        loser_left = stones[np.arange(n), 1 - won][decided]
        emptied = loser_left == 0
        top = int(winner_left.max()) + 1 if len(winner_left) else 1
        out: dict[str, Any] = {
            "stones": {
                "games": int(np.count_nonzero(decided)),
                "light_mean": float(stones[:, 0].mean()) if n else math.nan,
                "dark_mean": float(stones[:, 1].mean()) if n else math.nan,
                "winner_mean": float(winner_left.mean()) if len(winner_left) else math.nan,
                "winner_left": {
                    "stones": list(range(top)),
                    "no_stones_left": np.bincount(winner_left[emptied], minlength=top).tolist(),
                    "no_placement": np.bincount(winner_left[~emptied], minlength=top).tolist(),
                },
                "endings": {
                    "no_stones_left": _estimate(
                        wilson(int(np.count_nonzero(emptied)), len(emptied))
                    )
                    | {"games": int(np.count_nonzero(emptied))},
                    "no_placement": _estimate(wilson(int(np.count_nonzero(~emptied)), len(emptied)))
                    | {"games": int(np.count_nonzero(~emptied))},
                },
            }
        }
        metrics: dict[str, Any] = {
            "ended_without_stones": out["stones"]["endings"]["no_stones_left"],
        }
        if self.recorded and self._placed:
            removed = join(self._placed, np.int32) - stones.sum(axis=1)
            counts = np.bincount(removed) if n else np.zeros(0, np.int64)
            out["stones"]["removed"] = {
                "mean": float(removed.mean()) if n else math.nan,
                "stones": list(range(len(counts))),
                "games": counts.tolist(),
            }
        if self.recorded and self._first and self.openings:
            first = join(self._first, np.int16).astype(np.int64)
            names: list[str | None] = [None] * 196
            for c, r in board_points(self.size):
                names[r * 14 + c] = point_name(r * 14 + c)
            out["first-stone"] = {
                "overall": advantage.rate,
                "size": self.size,
                "kind": "first stone",
                "points": openings(first, first_won, advantage, names),
            }
        return out, metrics


# ----------------------------------------------------------------------
# The figures


def figures(data: dict[str, Any], mpl: Any) -> dict[str, Any]:
    """The game's own figures of the report's numbers."""
    out = {"stones": _stones_figure(data["stones"], mpl)}
    if "first-stone" in data:
        out["first-stone"] = hexagon_figure(data["first-stone"], mpl)
    return out


def _stones_figure(data: dict[str, Any], mpl: Any) -> Any:
    removed = data.get("removed")
    figure = mpl.figure.Figure(figsize=(6.8 if removed else 4.2, 2.9))
    panels = figure.subplots(1, 2 if removed else 1, squeeze=False)[0]
    total = max(1, data["games"])
    left = data["winner_left"]
    axes = panels[0]
    emptied = np.array(left["no_stones_left"], dtype=np.float64) / total
    blocked = np.array(left["no_placement"], dtype=np.float64) / total
    axes.bar(left["stones"], emptied, width=1.0, color="#4c72b0", linewidth=0)
    axes.bar(left["stones"], blocked, bottom=emptied, width=1.0, color="#dd8452", linewidth=0)
    ending = data["endings"]
    axes.legend(
        [
            f"loser's removal left no stone ({ending['no_stones_left']['rate']:.1%})",
            f"loser had no legal placement ({ending['no_placement']['rate']:.1%})",
        ],
        frameon=False,
        loc="upper left",
        fontsize=7,
    )
    axes.axvline(data["winner_mean"], color="black", linewidth=1)
    axes.yaxis.set_major_formatter(mpl.ticker.PercentFormatter(1.0, decimals=1))
    axes.set_xlabel(f"the winner's stones at the end (mean {data['winner_mean']:.1f})")
    axes.set_ylabel("share of games")
    axes.set_title("How games end", fontsize=9)
    axes.set_ylim(0, max(float((emptied + blocked).max(initial=0)) * 1.35, 1e-3))
    if removed:
        axes = panels[1]
        axes.bar(
            removed["stones"],
            np.array(removed["games"], dtype=np.float64) / max(1, sum(removed["games"])),
            width=1.0,
            color="#55a868",
            linewidth=0,
        )
        axes.axvline(removed["mean"], color="black", linewidth=1)
        axes.yaxis.set_major_formatter(mpl.ticker.PercentFormatter(1.0, decimals=1))
        axes.set_xlabel(f"stones removed, both colours (mean {removed['mean']:.1f})")
        axes.set_title("Removals", fontsize=9)
    figure.tight_layout()
    return figure


def hexagon_figure(data: dict[str, Any], mpl: Any) -> Any:
    """The first player's win rate by the point of the first stone, each
    point a hexagonal cell of the board coloured by its rate against the
    overall rate, with its count of games; an outlined cell's interval
    leaves the overall rate out. Points no game opened on are grey."""
    size = data["size"]
    overall = data["overall"]
    cells = {cell["square"]: cell for cell in data["points"]}
    spread = max([abs(cell["rate"] - overall) for cell in cells.values()] + [0.01])
    colours = mpl.colormaps["RdBu_r"]
    norm = mpl.colors.Normalize(overall - spread, overall + spread)
    points = board_points(size)
    n = max(r for _, r in points) + 1
    figure, axes = subplots(mpl, (6.4, 6.4))
    radius = 1 / _ROOT3  # the cells of neighbours at distance 1 touch
    text_size = {"5-6": 6.5, "6-7": 5.6, "7-8": 4.8}[size]
    for c, r in points:
        x, y = c - r / 2, r * _ROOT3 / 2
        name = point_name(r * 14 + c)
        cell = cells.get(name)
        face = "#eeeeee" if cell is None else colours(norm(cell["rate"]))
        hexagon = mpl.patches.RegularPolygon(
            (x, y), 6, radius=radius, orientation=0, facecolor=face, edgecolor="white"
        )
        hexagon.set_gid(f"point-{name}")  # the cell's <g> in the SVG names its point
        axes.add_patch(hexagon)
        if cell is None:
            continue
        if cell["differs"]:
            outline = mpl.patches.RegularPolygon(
                (x, y),
                6,
                radius=radius * 0.86,
                orientation=0,
                fill=False,
                edgecolor="black",
                linewidth=1.4,
            )
            outline.set_gid(f"outlined-{name}")
            axes.add_patch(outline)
        ink = "white" if abs(cell["rate"] - overall) > 0.6 * spread else "black"
        axes.text(x, y + 0.14, name, ha="center", va="center", fontsize=text_size * 0.8, color=ink)
        axes.text(
            x,
            y - 0.02,
            f"{cell['rate']:.1%}",
            ha="center",
            va="center",
            fontsize=text_size,
            color=ink,
        )
        axes.text(
            x,
            y - 0.19,
            short(cell["games"]),
            ha="center",
            va="center",
            fontsize=text_size * 0.8,
            color=ink,
        )
    xs = [c - r / 2 for c, r in points]
    axes.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
    axes.set_ylim(-0.8, (n - 1) * _ROOT3 / 2 + 0.8)
    axes.set_aspect("equal")
    axes.set_axis_off()
    axes.set_title("First player's win rate by the point of the first stone", fontsize=9)
    bar = figure.colorbar(
        mpl.cm.ScalarMappable(norm=norm, cmap=colours),
        ax=axes,
        orientation="horizontal",
        fraction=0.04,
        pad=0.02,
        format=mpl.ticker.PercentFormatter(1.0, decimals=1),
    )
    bar.set_label(
        f"overall {overall:.1%}; outlined: the point's 95% interval leaves it out",
        fontsize=7,
    )
    figure.tight_layout()
    return figure


# ----------------------------------------------------------------------
# The page


def rules_text(rules: Any) -> str:
    """The rules in words, for the page."""
    return f"Meridians {rules.size}{', pie rule' if rules.pie else ''}"


def pie_note(rules: Any) -> str:
    """How the pie rule works, for the page."""
    if rules.pie:
        return (
            "The first player places a Light stone, then a Dark stone; the second "
            "player, holding Dark, then swaps colours or keeps them."
        )
    return "These games are played without the pie rule: no swap is possible."


def sections(data: dict[str, Any], figure: Callable[[str, Any], str]) -> list[str]:
    """The game's own sections of the page: how games end, which openings win."""
    stones = data["stones"]
    ending = stones["endings"]
    parts = [
        "<h2>How do games end?</h2>",
        "<p>A player loses when their own removal leaves them no stone, or when they "
        "have no legal placement. Left, the winner's stones on the board at the end, "
        "by how the loser lost; right, the stones removed in the game.</p>",
        figure("stones", stones),
        '<table id="endings"><tr><th>the loser</th><th>share</th><th>95% interval</th>'
        "<th>games</th></tr>",
    ]
    for key, label in (
        ("no_stones_left", "was left no stone by their removal"),
        ("no_placement", "had no legal placement"),
    ):
        estimate = ending[key]
        parts.append(
            f'<tr data-key="{key}" data-values="{attr(estimate)}"><th>{label}</th>'
            f'<td class="n">{percent(estimate["rate"])}</td>'
            f'<td class="n">{percent(estimate["low"])} .. {percent(estimate["high"])}</td>'
            f'<td class="n">{estimate["games"]:,}</td></tr>'
        )
    parts.append("</table>")
    rows = [
        ("Light's stones at the end, mean", f"{stones['light_mean']:.2f}"),
        ("Dark's stones at the end, mean", f"{stones['dark_mean']:.2f}"),
        ("the winner's stones at the end, mean", f"{stones['winner_mean']:.2f}"),
    ]
    if "removed" in stones:
        rows.append(("stones removed in a game, mean", f"{stones['removed']['mean']:.2f}"))
    parts.append(
        '<table id="stones">'
        + "".join(f'<tr><th>{a}</th><td class="n">{b}</td></tr>' for a, b in rows)
        + "</table>"
    )
    if "first-stone" in data:
        opening = data["first-stone"]
        parts += [
            "<h2>Which openings win?</h2>",
            "<p>Each point of the board is coloured by the first player's win rate among "
            "the games whose first stone went there, with its name, the rate and the games "
            "behind it; red is above the overall rate, blue below. An outlined point's "
            f"interval leaves the overall rate out. {chance(opening)}.</p>",
            figure("first-stone", opening),
            _openings_table(opening),
        ]
    else:
        parts.append(
            '<p class="note">No opening heatmap: it needs the moves of games played from '
            "the start of the game (record=True, or a file saved with its moves).</p>"
        )
    return parts


def _openings_table(data: dict[str, Any]) -> str:
    cells = sorted(data["points"], key=lambda cell: -cell["rate"])
    if len(cells) > 2 * _LISTED:
        cells = cells[:_LISTED] + cells[-_LISTED:]
    lines = [
        '<p class="note">The strongest and the weakest first points (outlined: the '
        "interval leaves out the overall rate; every point is in the figure's data):</p>",
        '<table id="openings"><tr><th>first stone</th><th>first player wins</th>'
        "<th>95% interval</th><th>games</th><th>outlined</th></tr>",
    ]
    for cell in cells:
        lines.append(
            f'<tr><td>{cell["square"]}</td><td class="n">{percent(cell["rate"])}</td>'
            f'<td class="n">{percent(cell["low"])} .. {percent(cell["high"])}</td>'
            f'<td class="n">{cell["games"]:,}</td><td>{"yes" if cell["differs"] else ""}</td></tr>'
        )
    lines.append("</table>")
    return "".join(lines)


def chance(values: dict[str, Any]) -> str:
    """How many points are outlined, against how many chance alone would
    outline (each interval leaves out a true rate 5% of the time)."""
    points = values["points"]
    outlined = sum(cell["differs"] for cell in points)
    return (
        f"{outlined} of {len(points)} points are outlined "
        f"(chance alone would outline about {0.05 * len(points):.0f})"
    )


def metric_rows(metrics: dict[str, Any]) -> list[tuple[str, str, str, Any]]:
    """The game's own rows of the metrics table: key, what it is, value, numbers."""
    ended = metrics["ended_without_stones"]
    return [
        (
            "ended_without_stones",
            "share of games the loser lost by removing their last stones (the rest: "
            "no legal placement)",
            _interval(ended, percent=True),
            ended,
        )
    ]
