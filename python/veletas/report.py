"""A report of a playout run: one self-contained HTML file with SVG figures.

:func:`report` writes it for :class:`~veletas.Playouts`, a Parquet dataset or
a record file; ``veletas report games.parquet --out report.html`` is the same
from the command line, and ``veletas playout ... --report report.html`` plays
and reports in one step. It answers what a game designer asks of random
games: is the first player favoured, and does the pie rule fix it; how long
are games, how do they end; which first placements win most. Every
proportion comes with its Wilson 95% interval.

Every number a figure shows is written in the HTML too: in the tables, and
as JSON in the ``data-values`` attribute of the figure's ``<figure>``.
``docs/reports.md`` shows a report and defines each number.

The figures are drawn with matplotlib (the extra ``veletas[report]``) on its
Agg canvas, without a display and without pyplot: the program's own
matplotlib backend and settings are left as they are.
"""

from __future__ import annotations

import datetime
import html
import io
import json
import math
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from veletas import datasets
from veletas import games as registry
from veletas._dataset_write import veletas_version
from veletas.extras import install_hint
from veletas.playouts import Estimate, Playouts, wilson

__all__ = ["FIGURES", "SAMPLE_GAMES", "report", "require_matplotlib"]

FIGURES = ("pie", "plies")
"""The figures of every report, by id; each game's room adds its own
(``veletas.games.<game>.report.FIGURES``: its final states and, for a
recorded run from the start of the game, its openings)."""

SAMPLE_GAMES = 20_000
"""The games replayed to see how they were decided (a sample spread evenly
over the run when it has more)."""

_Z95 = 1.959963984540054


def require_matplotlib() -> Any:
    """The ``matplotlib`` module, imported now with what the report draws
    with. The figures are drawn without pyplot, on the Agg canvas, so the
    program's own backend and settings (a notebook's, say) stay as they are.

    :raises ModuleNotFoundError: if matplotlib is not installed, naming the extra.
    """
    try:
        import matplotlib
        import matplotlib.cm
        import matplotlib.colors
        import matplotlib.figure
        import matplotlib.patches
        import matplotlib.ticker
        import matplotlib.transforms
    except ImportError as error:
        raise ModuleNotFoundError(
            f"reports need matplotlib: {install_hint('report')}", name="matplotlib"
        ) from error
    return matplotlib


def _subplots(mpl: Any, size: tuple[float, float]) -> tuple[Any, Any]:
    """A figure of ``size`` inches with one axes, outside pyplot."""
    figure = mpl.figure.Figure(figsize=size)
    return figure, figure.subplots()


# ----------------------------------------------------------------------
# The numbers


class ReportCounts:
    """The numbers of a report, gathered from a run's games one range at a
    time (so a dataset of any size is read a row group at a time). What is
    the game's own (its final states, its openings) is counted by the
    ``GameCounts`` of its report room, ``veletas.games.<game>.report``."""

    def __init__(self, sample_every: int = 1) -> None:
        self.sample_every = sample_every
        """Replay every k-th game of the run to see how it was decided (0: none)."""
        self.head: Playouts | None = None
        self.games = 0
        self._winner: list[np.ndarray] = []
        self._swapped: list[np.ndarray] = []
        self._plies: list[np.ndarray] = []
        self.room: registry.ReportRoom | None = None
        """The report room of the run's game."""
        self.own: registry.OwnCounts | None = None
        """The room's counts of the game's own columns."""

    def add(self, games: Playouts) -> None:
        """Count the games of one range."""
        if self.head is None:
            self.head = games
            self.room = registry.get(games.game).report
            self.own = self.room.GameCounts(games, self.sample_every)
        self._winner.append(games.winner)
        self._swapped.append(games.swapped)
        self._plies.append(games.plies)
        assert self.own is not None
        self.own.add(games)
        self.games += len(games)

    def arrays(self) -> dict[str, np.ndarray]:
        """The per-game arrays of every game counted: winner, swapped, plies."""
        return {
            "winner": join(self._winner, np.int8),
            "swapped": join(self._swapped, np.bool_),
            "plies": join(self._plies, np.int32),
        }


def join(parts: list[np.ndarray], dtype: Any, shape: tuple[int, ...] = ()) -> np.ndarray:
    """The arrays of ``parts`` one after the other (an empty array of
    ``dtype`` and item ``shape`` for none)."""
    return np.concatenate(parts) if parts else np.zeros((0, *shape), dtype)


def numbers(counts: ReportCounts) -> dict[str, Any]:
    """Every number of the report, as plain data (what the HTML shows)."""
    assert counts.head is not None
    assert counts.room is not None
    assert counts.own is not None
    arrays = counts.arrays()
    winner, swapped, plies = arrays["winner"], arrays["swapped"], arrays["plies"]
    n = len(winner)
    first = swapped.astype(np.int8)
    first_won = winner == first

    def rate(mask: np.ndarray, within: np.ndarray | None = None) -> dict[str, float | int]:
        if within is None:
            within = np.ones(n, np.bool_)
        return _estimate(
            wilson(int(np.count_nonzero(mask & within)), int(np.count_nonzero(within)))
        ) | {"games": int(np.count_nonzero(within))}

    advantage = wilson(int(np.count_nonzero(first_won)), n)
    balance = _balance(advantage)
    mean = float(plies.mean()) if n else math.nan
    sd = float(plies.std(ddof=1)) if n > 1 else math.nan
    half = _Z95 * sd / math.sqrt(n) if n > 1 else math.nan
    quantile_points = (0.05, 0.25, 0.5, 0.75, 0.95)
    values = np.quantile(plies, quantile_points) if n else []
    quantiles = {str(q): float(v) for q, v in zip(quantile_points, values, strict=False)}
    first_colour, second_colour = counts.room.COLORS
    out: dict[str, Any] = {
        "games": n,
        "pie": {
            "first_player": rate(first_won),
            "first_player_no_swap": rate(first_won, ~swapped),
            "first_player_swap": rate(first_won, swapped),
            first_colour: rate(winner == 0),
            second_colour: rate(winner == 1),
            "swap": rate(swapped),
        },
        "plies": {
            "mean": mean,
            "sd": sd,
            "mean_low": mean - half,
            "mean_high": mean + half,
            "min": int(plies.min()) if n else None,
            "max": int(plies.max()) if n else None,
            "quantiles": quantiles,
            "histogram": _histogram(plies),
        },
        "metrics": {
            "advantage": _estimate(advantage),
            "balance": balance,
            "duration": {"mean": mean, "sd": sd, "low": mean - half, "high": mean + half},
        },
    }
    own, metrics = counts.own.numbers(winner, first_won, advantage)
    out.update(own)
    out["metrics"].update(metrics)
    return out


def openings(
    cells: np.ndarray, first_won: np.ndarray, overall: Estimate, names: list[str | None]
) -> list[dict[str, Any]]:
    """The first player's win rate by opening cell: ``cells`` holds each
    game's cell (an index of ``names``, -1 for none), ``names`` each cell's
    name (None for a cell off the board). A cell ``differs`` when its 95%
    interval leaves out the overall rate."""
    valid = cells >= 0
    games = np.bincount(cells[valid], minlength=len(names))
    wins = np.bincount(cells[valid], weights=first_won[valid], minlength=len(names))
    out = []
    for index, name in enumerate(names):
        if name is None or not games[index]:
            continue
        estimate = wilson(int(wins[index]), int(games[index]))
        out.append(
            {
                "square": name,
                "games": int(games[index]),
                "wins": int(wins[index]),
                **_estimate(estimate),
                "differs": bool(estimate.high < overall.rate or estimate.low > overall.rate),
            }
        )
    return out


def _estimate(estimate: Estimate) -> dict[str, float]:
    return {"rate": estimate.rate, "low": estimate.low, "high": estimate.high}


def _balance(advantage: Estimate) -> dict[str, float]:
    """Ludii's balance, 1 - |first's rate - second's rate| = 1 - |2p - 1| for
    games that always have a winner, with the interval it maps from p's."""

    def value(p: float) -> float:
        return 1 - abs(2 * p - 1)

    ends = [value(advantage.low), value(advantage.high)]
    high = 1.0 if advantage.low <= 0.5 <= advantage.high else max(ends)
    return {"rate": value(advantage.rate), "low": min(ends), "high": high}


def _histogram(plies: np.ndarray) -> dict[str, list[int]]:
    if not len(plies):
        return {"plies": [], "games": []}
    counts = np.bincount(plies.astype(np.int64))
    present = np.flatnonzero(counts)
    low, high = int(present[0]), int(present[-1])
    return {"plies": list(range(low, high + 1)), "games": counts[low : high + 1].tolist()}


# ----------------------------------------------------------------------
# The figures


def _figures(data: dict[str, Any], game_room: registry.ReportRoom, mpl: Any) -> dict[str, Any]:
    figures = {
        "pie": _pie_figure(data, game_room, mpl),
        "plies": _plies_figure(data, mpl),
    }
    figures.update(game_room.figures(data, mpl))
    return figures


_STYLE = {
    "svg.fonttype": "none",  # text stays text: smaller, and searchable in the page
    "svg.hashsalt": "veletas",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 10,
}


def _pie_figure(data: dict[str, Any], game_room: registry.ReportRoom, mpl: Any) -> Any:
    pie = data["pie"]
    first_colour, second_colour = game_room.COLORS
    rows = [
        ("first player, all games", pie["first_player"], "#4c72b0"),
        ("first player, no swap", pie["first_player_no_swap"], "#55a868"),
        ("first player, after a swap", pie["first_player_swap"], "#c44e52"),
        (first_colour.capitalize(), pie[first_colour], "#333333"),
        (second_colour.capitalize(), pie[second_colour], "#888888"),
    ]
    shown = [row for row in rows if row[1]["games"] and not math.isnan(row[1]["rate"])]
    # The axis spans the intervals and 50%, so that small differences show.
    ends = [0.5] + [row[1]["low"] for row in shown] + [row[1]["high"] for row in shown]
    pad = max(0.005, 0.15 * (max(ends) - min(ends)))
    figure, axes = _subplots(mpl, (6.8, 2.7))
    blended = mpl.transforms.blended_transform_factory(axes.transAxes, axes.transData)
    for y, (_label, estimate, colour) in enumerate(rows):
        if estimate["games"] == 0 or math.isnan(estimate["rate"]):
            axes.text(1.02, y, "no games", va="center", transform=blended, color="#777777")
            continue
        axes.errorbar(
            estimate["rate"],
            y,
            xerr=[[estimate["rate"] - estimate["low"]], [estimate["high"] - estimate["rate"]]],
            fmt="o",
            color=colour,
            capsize=4,
            markersize=6,
            linewidth=1.6,
        )
        axes.text(
            1.02,
            y,
            f"{estimate['rate']:.2%}  ({estimate['games']:,} games)",
            va="center",
            fontsize=8,
            transform=blended,
        )
    axes.axvline(0.5, color="#777777", linestyle="--", linewidth=1)
    axes.set_yticks(range(len(rows)), [row[0] for row in rows])
    axes.set_ylim(len(rows) - 0.5, -0.5)
    axes.set_xlim(min(ends) - pad, max(ends) + pad)
    axes.xaxis.set_major_formatter(mpl.ticker.PercentFormatter(1.0))
    axes.grid(axis="x", color="#eeeeee")
    axes.set_xlabel("games won, with the Wilson 95% interval (dashed: 50%)")
    axes.set_title("Win rates: the first player, with and without the pie swap")
    figure.tight_layout()
    return figure


def _plies_figure(data: dict[str, Any], mpl: Any) -> Any:
    plies = data["plies"]
    figure, axes = _subplots(mpl, (6.4, 2.8))
    histogram = plies["histogram"]
    total = max(1, data["games"])
    axes.bar(
        histogram["plies"],
        [count / total for count in histogram["games"]],
        width=1.0,
        color="#4c72b0",
        linewidth=0,
    )
    if histogram["plies"]:
        axes.axvline(plies["mean"], color="black", linewidth=1.2, label=f"mean {plies['mean']:.1f}")
        # Labels of quantiles close together step up, so that none covers another.
        step, last = 0, -math.inf
        span = max(1.0, plies["max"] - plies["min"]) if plies["max"] is not None else 1.0
        for q, value in plies["quantiles"].items():
            step = step + 1 if value - last < 0.04 * span else 0
            last = value
            axes.axvline(value, color="#c44e52", linestyle=":", linewidth=1)
            axes.text(
                value,
                axes.get_ylim()[1] * (1 + 0.07 * step),
                f"{float(q):.0%}",
                color="#c44e52",
                fontsize=7,
                ha="center",
                va="bottom",
            )
        axes.legend(frameon=False, loc="upper left")
    axes.yaxis.set_major_formatter(mpl.ticker.PercentFormatter(1.0, decimals=1))
    axes.set_xlabel("moves in the game (plies)")
    axes.set_ylabel("share of games")
    axes.set_title("Game length, with its quantiles", pad=24)
    figure.tight_layout()
    return figure


def short(count: int) -> str:
    """A count in a few characters: 950, 1.2k, 35k, 1.4M."""
    if count >= 1_000_000:
        return f"{count / 1e6:.1f}M"
    if count >= 10_000:
        return f"{count / 1e3:.0f}k"
    if count >= 1_000:
        return f"{count / 1e3:.1f}k"
    return str(count)


def _svg(figure: Any, mpl: Any, salt: str) -> str:
    mpl.rcParams["svg.hashsalt"] = salt
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.DOTALL)
    return text[text.index("<svg") :]


# ----------------------------------------------------------------------
# The page


def report(
    games: Playouts | str | os.PathLike[str],
    path: str | os.PathLike[str],
    *,
    formats: Iterable[str] = (),
    title: str | None = None,
    sample: int = SAMPLE_GAMES,
) -> Path:
    """Write the report of ``games`` (a :class:`~veletas.Playouts`, or the
    path of a Parquet dataset or a record file) to the HTML file ``path``,
    and return that path.

    ``formats`` (``"png"``, ``"pdf"``, ``"svg"``) also writes each figure as
    a file of that format, in the folder ``<path without .html>-figures``.
    ``sample`` is about the most games replayed to see how games were
    decided (0: none).
    The opening heatmaps need a recorded run (``record=True``, or a file
    with moves) from the start of the game.

    >>> import veletas, tempfile, os
    >>> games = veletas.playouts(1000, variant="small", seed=1, record=True)
    >>> folder = tempfile.mkdtemp()
    >>> veletas.report(games, os.path.join(folder, "report.html")).name
    'report.html'

    :raises ModuleNotFoundError: without matplotlib (``pip install "veletas[report]"``),
        or without pyarrow for a Parquet file.
    :raises ValueError: for an unknown format.
    """
    formats = list(formats)
    for name in formats:
        if name not in ("png", "pdf", "svg"):
            raise ValueError(f"unknown figure format {name!r}; expected png, pdf or svg")
    mpl = require_matplotlib()
    batches, total = _batches(games)
    # Every game when there are few, else every k-th: ``sample`` games or so.
    every = max(1, math.ceil(total / sample)) if sample > 0 else 0
    counts = ReportCounts(sample_every=every)
    for batch in batches:
        counts.add(batch)
    if counts.head is None or counts.room is None or counts.games == 0:
        raise ValueError("a report needs a run of one game or more")
    data = numbers(counts)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    svgs = {}
    folder = target.with_name(target.stem + "-figures")
    # The report's style, without changing the program's own matplotlib settings.
    with mpl.rc_context(_STYLE):
        for key, figure in _figures(data, counts.room, mpl).items():
            svgs[key] = _svg(figure, mpl, f"veletas-{key}")
            for name in formats:
                folder.mkdir(exist_ok=True)
                figure.savefig(folder / f"{key}.{name}", dpi=150, metadata=_metadata(name))
    page = _page(counts.head, counts.room, data, svgs, title)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_text(page, encoding="utf-8")
    os.replace(temporary, target)
    return target


def _metadata(format_name: str) -> dict[str, Any]:
    return {"Date": None} if format_name in ("svg", "pdf") else {}


def _batches(games: Playouts | str | os.PathLike[str]) -> tuple[Iterator[Playouts], int]:
    if isinstance(games, Playouts):
        return iter([games]), len(games)

    if datasets._is_parquet(games):
        total = datasets.read_metadata(games)["games"]
        return datasets.iter_playouts(games), int(total)
    played = datasets.read_playouts(games)
    return iter([played]), len(played)


_CSS = """
body { font-family: system-ui, "DejaVu Sans", sans-serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 2rem;
     border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .9rem; }
td, th { padding: .15rem .7rem; border-bottom: 1px solid #eee; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: .8rem 0; } figure svg { width: 100%; height: auto; }
.boards { display: flex; flex-wrap: wrap; gap: 1rem; } .boards figure { flex: 1 1 22rem; }
.note { color: #555; font-size: .88rem; }
"""


def _page(
    head: Playouts,
    game_room: registry.ReportRoom,
    data: dict[str, Any],
    svgs: dict[str, str],
    title: str | None,
) -> str:
    rules = head.rules
    pie = data["pie"]
    metrics = data["metrics"]
    first_colour, second_colour = game_room.COLORS

    def figure(key: str, values: Any) -> str:
        return _figure(key, svgs, values)

    title = title or f"{data['games']:,} random games of {game_room.rules_text(rules)}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_CSS}{game_room.CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="note">A veletas report. Every proportion is given with its Wilson '
        f"95% interval. Written {datetime.date.today().isoformat()}.</p>",
        "<h2>The run</h2>",
        _table(
            [
                ("game", head.game),
                ("rules", game_room.rules_text(rules)),
                ("start", head.start),
                ("policy", head.policy),
                ("seed", str(head.seed)),
                ("games", f"{data['games']:,} (from game {head.first_game:,})"),
                ("veletas version", veletas_version()),
            ],
            key="run",
        ),
        "<h2>Is the pie rule fair?</h2>",
        f"<p>{game_room.pie_note(rules)} A fair pie rule makes the first player's win "
        "rate 50%.</p>",
        _figure("pie", svgs, pie),
        _estimates_table(
            [
                ("first player, all games", "first_player"),
                ("first player, no swap", "first_player_no_swap"),
                ("first player, after a swap", "first_player_swap"),
                (first_colour.capitalize(), first_colour),
                (second_colour.capitalize(), second_colour),
                ("swap played", "swap"),
            ],
            pie,
        ),
        "<h2>How long are games?</h2>",
        _figure("plies", svgs, data["plies"]),
        _table(
            [
                ("mean", f"{data['plies']['mean']:.2f}"),
                ("standard deviation", f"{data['plies']['sd']:.2f}"),
                ("shortest, longest", f"{data['plies']['min']}, {data['plies']['max']}"),
                *(
                    (f"quantile {float(q):.0%}", f"{v:g}")
                    for q, v in data["plies"]["quantiles"].items()
                ),
            ],
            key="plies",
        ),
    ]
    parts += game_room.sections(data, figure)
    rows = [
        (
            "advantage",
            "share of games won by the first player",
            _interval(metrics["advantage"], percent=True),
            metrics["advantage"],
        ),
        (
            "balance",
            "1 - |first player's win rate - second player's|",
            _interval(metrics["balance"], percent=False),
            metrics["balance"],
        ),
        (
            "duration",
            "moves a game: mean (95% interval) and standard deviation",
            f"{metrics['duration']['mean']:.2f} ({metrics['duration']['low']:.2f} .. "
            f"{metrics['duration']['high']:.2f}), sd {metrics['duration']['sd']:.2f}",
            metrics["duration"],
        ),
    ]
    rows += game_room.metric_rows(metrics)
    parts += [
        "<h2>Game metrics</h2>",
        "<p>The outcome metrics of the Ludii general game system, here with intervals.</p>",
        '<table id="metrics"><tr><th>metric</th><th>what it is</th><th>value</th></tr>',
        *(
            f'<tr data-key="{key}" data-values="{_attr(values)}"><td>{key.replace("_", " ")}</td>'
            f'<td>{html.escape(what)}</td><td class="n">{value}</td></tr>'
            for key, what, value, values in rows
        ),
        "</table>",
        f'<script type="application/json" id="numbers">{_json(data)}</script>',
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def attr(values: Any) -> str:
    """``values`` as JSON, quoted for an HTML attribute."""
    return _attr(values)


def _figure(key: str, svgs: dict[str, str], values: Any) -> str:
    return f'<figure id="figure-{key}" data-values="{_attr(values)}">\n{svgs[key]}\n</figure>'


def _attr(values: Any) -> str:
    return html.escape(json.dumps(values, allow_nan=True), quote=True)


def _json(values: Any) -> str:
    return json.dumps(values, allow_nan=True).replace("</", "<\\/")


def _table(rows: list[tuple[str, str]], *, key: str) -> str:
    body = "".join(
        f"<tr><th>{html.escape(name)}</th><td>{html.escape(value)}</td></tr>"
        for name, value in rows
    )
    return f'<table id="{key}">{body}</table>'


def _estimates_table(rows: list[tuple[str, str]], values: dict[str, Any]) -> str:
    lines = ['<table id="pie"><tr><th></th><th>rate</th><th>95% interval</th><th>games</th></tr>']
    for label, key in rows:
        estimate = values[key]
        lines.append(
            f'<tr data-key="{key}" data-values="{_attr(estimate)}"><th>{label}</th>'
            f'<td class="n">{_percent(estimate["rate"])}</td>'
            f'<td class="n">{_percent(estimate["low"])} .. {_percent(estimate["high"])}</td>'
            f'<td class="n">{estimate["games"]:,}</td></tr>'
        )
    lines.append("</table>")
    return "".join(lines)


def percent(value: float) -> str:
    """A proportion as a percentage of two decimals (``-`` for nan)."""
    return _percent(value)


def interval(values: dict[str, float], *, percent: bool) -> str:
    """A rate with its interval, as text."""
    return _interval(values, percent=percent)


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2%}"


def _interval(values: dict[str, float], *, percent: bool) -> str:
    if percent:
        return (
            f"{_percent(values['rate'])} ({_percent(values['low'])} .. {_percent(values['high'])})"
        )
    return f"{values['rate']:.4f} ({values['low']:.4f} .. {values['high']:.4f})"
