"""The Veletas part of a playout report (:mod:`veletas.report`): the final
claims as a heatmap, the first player's win rate by the square of the first
shooter and of the first stone drawn on the board, and the share of games
decided by a single move's claims."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from veletas.playouts import KIND_SHOOTER, KIND_STONE, Estimate, Playouts, wilson
from veletas.report import (
    _estimate,
    _interval,
    join,
    openings,
    percent,
    short,
)
from veletas.report import _subplots as subplots

__all__ = ["COLORS", "FIGURES", "GameCounts", "figures", "metric_rows", "sections"]

COLORS = ("black", "white")
"""The colours by index, as the report names them."""
FIGURES = ("claims", "first-shooter", "first-stone")
"""The figures of this game (the openings need a recorded run from the start)."""
_LISTED = 5  # squares listed at each end of the openings table
CSS = "#figure-claims svg { width: 60%; }\n"
"""The page's style for this game's figures."""


class GameCounts:
    """The claims and first placements of a run's games, one range at a time,
    and a sample of games replayed to see how they were decided."""

    def __init__(self, head: Playouts, sample_every: int) -> None:
        self.sample_every = sample_every
        self._size = int(head.rules.size)
        self.recorded = True
        self.openings = _from_setup_start(head)
        self._claims: list[np.ndarray] = []
        self._first_shooter: list[np.ndarray] = []
        self._first_stone: list[np.ndarray] = []
        self.decided_by_one = 0
        self.decided_sampled = 0

    def add(self, games: Playouts) -> None:
        """Count the games of one range."""
        self._claims.append(games.claims)
        if games.moves is None or games.offsets is None:
            self.recorded = False
        elif self.recorded:
            self._first_shooter.append(first_square(games, KIND_SHOOTER))
            self._first_stone.append(first_square(games, KIND_STONE))
            if self.sample_every:
                self._sample_decisions(games)

    def _sample_decisions(self, games: Playouts) -> None:
        """Replay every ``sample_every``-th game of the run (by its index) and
        see whether its last move took the winner from two or more claims
        short of the win to the win."""
        first = games.first_game
        offset = (-first) % self.sample_every
        need = games.rules.shooters // 2 + 1
        for i in range(offset, len(games), self.sample_every):
            winner = int(games.winner[i])
            if winner < 0 or games.plies[i] == 0:
                continue
            board = games.board(i)
            board.pop()
            before = board.claims
            held = before.black if winner == 0 else before.white
            self.decided_sampled += 1
            if held <= need - 2:
                self.decided_by_one += 1

    def numbers(
        self, winner: np.ndarray, first_won: np.ndarray, advantage: Estimate
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The game's own numbers, and its own metrics."""
        del winner  # the claims say how games ended
        out: dict[str, Any] = {"claims": _claim_matrix(join(self._claims, np.int8, (2,)))}
        metrics: dict[str, Any] = {}
        if self.decided_sampled:
            metrics["decided_by_one_move"] = _estimate(
                wilson(self.decided_by_one, self.decided_sampled)
            ) | {"games": self.decided_sampled, "every": self.sample_every}
        if self.recorded and self._first_shooter and self.openings:
            size = self._size
            shooter = join(self._first_shooter, np.int16)
            stone = join(self._first_stone, np.int16)
            out["first-shooter"] = _openings(shooter, first_won, advantage, size)
            out["first-shooter"]["kind"] = "first shooter"
            out["first-stone"] = _openings(stone, first_won, advantage, size)
            out["first-stone"]["kind"] = "first stone"
        return out, metrics


def first_square(games: Playouts, kind: int) -> np.ndarray:
    """For each game, the target square of its first move of ``kind``
    (:data:`~veletas.playouts.KIND_SHOOTER`: the first shooter placed;
    :data:`~veletas.playouts.KIND_STONE`: the first stone), or -1 if it has
    none (int16)."""
    assert games.moves is not None
    assert games.offsets is not None
    starts, ends = games.offsets[:-1], games.offsets[1:]
    where = np.flatnonzero(games.moves["kind"] == kind)
    at = np.searchsorted(where, starts)
    found = np.full(len(games), -1, np.int16)
    ok = at < len(where)
    ok[ok] = where[at[ok]] < ends[ok]
    found[ok] = games.moves["target"][where[at[ok]]]
    return found


def _claim_matrix(claims: np.ndarray) -> dict[str, Any]:
    top = int(claims.max()) + 1 if len(claims) else 1
    matrix = np.zeros((top, top), np.int64)
    np.add.at(matrix, (claims[:, 0].astype(np.int64), claims[:, 1].astype(np.int64)), 1)
    return {"games": matrix.tolist()}  # [black][white]


def _openings(
    squares: np.ndarray, first_won: np.ndarray, overall: Estimate, size: int
) -> dict[str, Any]:
    """The first player's win rate by square, and whether each square's
    interval leaves out the overall rate."""
    names: list[str | None] = [
        _square_name(square) if square // 10 < size and square % 10 < size else None
        for square in range(100)
    ]
    cells = openings(squares.astype(np.int64), first_won, overall, names)
    return {"overall": overall.rate, "size": size, "squares": cells}


def _square_name(square: int) -> str:
    return f"{'abcdefghij'[square % 10]}{square // 10 + 1}"


def _from_setup_start(games: Playouts) -> bool:
    """Whether the games start on the empty board (so that their first
    shooter and first stone are the openings' first placements)."""
    fields = games.start.split()
    return len(fields) > 2 and fields[2] == "setup" and set(fields[0]) <= set("/0123456789")


def _claims_figure(data: dict[str, Any], mpl: Any) -> Any:
    matrix = np.array(data["claims"]["games"], dtype=np.float64)
    total = max(1.0, matrix.sum())
    share = matrix / total
    figure, axes = subplots(mpl, (4.2, 3.6))
    shown = np.where(matrix > 0, share, np.nan)
    image = axes.imshow(shown, origin="lower", cmap="Blues", vmin=0, vmax=max(share.max(), 1e-9))
    for black in range(matrix.shape[0]):
        for white in range(matrix.shape[1]):
            if matrix[black, white]:
                dark = share[black, white] > 0.6 * share.max()
                axes.text(
                    white,
                    black,
                    f"{share[black, white]:.1%}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if dark else "black",
                )
    axes.set_xticks(range(matrix.shape[1]))
    axes.set_yticks(range(matrix.shape[0]))
    axes.set_xlabel("White's claims")
    axes.set_ylabel("Black's claims")
    axes.spines[["top", "right"]].set_visible(True)
    axes.set_title("Final claims: share of games")
    figure.colorbar(image, ax=axes, format=mpl.ticker.PercentFormatter(1.0), shrink=0.8)
    figure.tight_layout()
    return figure


def _board_figure(data: dict[str, Any], title: str, mpl: Any) -> Any:
    size = data["size"]
    overall = data["overall"]
    cells = {cell["square"]: cell for cell in data["squares"]}
    spread = max([abs(cell["rate"] - overall) for cell in cells.values()] + [0.01])
    colours = mpl.colormaps["RdBu_r"]
    square = mpl.patches.Rectangle
    norm = mpl.colors.Normalize(overall - spread, overall + spread)
    figure, axes = subplots(mpl, (4.6, 4.9))
    for rank in range(size):
        for file in range(size):
            name = _square_name(rank * 10 + file)
            cell = cells.get(name)
            if cell is None:
                axes.add_patch(square((file, rank), 1, 1, facecolor="#eeeeee", edgecolor="white"))
                continue
            colour = colours(norm(cell["rate"]))
            axes.add_patch(square((file, rank), 1, 1, facecolor=colour, edgecolor="white"))
            dark = abs(cell["rate"] - overall) > 0.6 * spread
            ink = "white" if dark else "black"
            axes.text(
                file + 0.5,
                rank + 0.62,
                f"{cell['rate']:.1%}",
                ha="center",
                va="center",
                fontsize=6.5,
                color=ink,
            )
            axes.text(
                file + 0.5,
                rank + 0.3,
                short(cell["games"]),
                ha="center",
                va="center",
                fontsize=5.5,
                color=ink,
            )
            if cell["differs"]:
                axes.add_patch(
                    square(
                        (file + 0.05, rank + 0.05),
                        0.9,
                        0.9,
                        fill=False,
                        edgecolor="black",
                        linewidth=1.6,
                    )
                )
    axes.set_xlim(0, size)
    axes.set_ylim(0, size)
    axes.set_aspect("equal")
    axes.set_xticks([f + 0.5 for f in range(size)], list("abcdefghij"[:size]))
    axes.set_yticks([r + 0.5 for r in range(size)], [str(r + 1) for r in range(size)])
    axes.tick_params(length=0)
    for side in ("top", "right", "bottom", "left"):
        axes.spines[side].set_visible(False)
    axes.set_title(f"First player's win rate by {title}", fontsize=9)
    bar = figure.colorbar(
        mpl.cm.ScalarMappable(norm=norm, cmap=colours),
        ax=axes,
        orientation="horizontal",
        fraction=0.05,
        pad=0.06,
        format=mpl.ticker.PercentFormatter(1.0, decimals=1),
    )
    bar.set_label(
        f"overall {overall:.1%}; outlined: the square's 95% interval leaves it out",
        fontsize=7,
    )
    figure.tight_layout()
    return figure


def _openings_table(data: dict[str, Any]) -> str:
    lines = [
        '<table id="openings"><tr><th>first</th><th>square</th><th>first player wins</th>'
        "<th>95% interval</th><th>games</th></tr>"
    ]
    for key, label in (("first-shooter", "shooter"), ("first-stone", "stone")):
        cells = [cell for cell in data[key]["squares"] if cell["differs"]]
        cells.sort(key=lambda cell: -cell["rate"])
        if len(cells) > 2 * _LISTED:
            cells = cells[:_LISTED] + cells[-_LISTED:]
        for cell in cells:
            lines.append(
                f"<tr><td>{label}</td><td>{cell['square']}</td>"
                f'<td class="n">{percent(cell["rate"])}</td>'
                f'<td class="n">{percent(cell["low"])} .. {percent(cell["high"])}</td>'
                f'<td class="n">{cell["games"]:,}</td></tr>'
            )
    lines.append("</table>")
    caption = (
        '<p class="note">The squares whose interval leaves out the overall rate, '
        f"strongest first (the {_LISTED} strongest and the {_LISTED} weakest of each where "
        "there are more; every square is in the figure's data):</p>"
    )
    return caption + "".join(lines)


def rules_text(rules: Any) -> str:
    """The rules in words, for the page."""
    variant = getattr(rules, "variant", "custom")
    size, shooters = getattr(rules, "size", "?"), getattr(rules, "shooters", "?")
    extra = ", shooters block" if getattr(rules, "shooters_block", False) else ""
    extra += ", claimed shooters block" if getattr(rules, "claimed_shooters_block", False) else ""
    setup = getattr(rules, "setup_rule", "perimeter")
    return f"{variant} ({size}x{size}, {shooters} shooters, {setup} setup{extra})"


def figures(data: dict[str, Any], mpl: Any) -> dict[str, Any]:
    """The game's own figures of the report's numbers."""
    out = {"claims": _claims_figure(data, mpl)}
    for key, title in (
        ("first-shooter", "the square of the first shooter placed"),
        ("first-stone", "the square of the first stone"),
    ):
        if key in data:
            out[key] = _board_figure(data[key], title, mpl)
    return out


def pie_note(rules: Any) -> str:
    """How the pie rule works, for the page."""
    del rules
    return (
        "The first player places Black's first shooter and stone; the second may then swap colours."
    )


def sections(data: dict[str, Any], figure: Callable[[str, Any], str]) -> list[str]:
    """The game's own sections of the page: how games end, which openings win."""
    parts = ["<h2>How do games end?</h2>", figure("claims", data["claims"])]
    if "first-shooter" in data:
        parts += [
            "<h2>Which openings win?</h2>",
            "<p>Each square is coloured by the first player's win rate among the games whose "
            "first shooter (left) or first stone (right) went there, with the games behind "
            "it; red is above the overall rate, blue below. An outlined square's interval "
            "leaves the overall rate out. "
            f"{chance(data['first-shooter'])}, and {chance(data['first-stone'])}.</p>",
            '<div class="boards">',
            figure("first-shooter", data["first-shooter"]),
            figure("first-stone", data["first-stone"]),
            "</div>",
            _openings_table(data),
        ]
    else:
        parts.append(
            '<p class="note">No opening heatmaps: they need the moves of games played from '
            "the start of the game (record=True, or a file saved with its moves).</p>"
        )
    return parts


def metric_rows(metrics: dict[str, Any]) -> list[tuple[str, str, str, Any]]:
    """The game's own rows of the metrics table: key, what it is, value, numbers."""
    if "decided_by_one_move" not in metrics:
        return []
    decided = metrics["decided_by_one_move"]
    what = (
        "share of games whose winner was two or more claims short of the win before the last move"
    )
    if decided["every"] > 1:
        what += f" (replayed: {decided['games']:,} games, every {decided['every']:,}th)"
    return [("decided_by_one_move", what, _interval(decided, percent=True), decided)]


def chance(values: dict[str, Any]) -> str:
    """How many cells are outlined, against how many chance alone would
    outline (each interval leaves out a true rate 5% of the time)."""
    squares = values["squares"]
    outlined = sum(cell["differs"] for cell in squares)
    return (
        f"{outlined} of {len(squares)} squares are outlined by the {values['kind']} "
        f"(chance alone would outline about {0.05 * len(squares):.0f})"
    )
