"""The strength tables of ``docs/bots.md``: the standard table (``make
strength``), the default search against the baseline, 0.1 s a move, one
search thread, 100 paired openings (200 games) a row, two games at a time;
and the skill ladder (``make ladder``), each search against itself at half
its playouts a move, in doubling steps, 50 paired openings a step. Each
game is appended to ``docs/strength/results.jsonl`` as it ends, so that the
tables are built over several runs: a run goes on where the file stops,
stops cleanly after ``--seconds``, and renders the tables into
``docs/bots.md`` between their markers from the file alone.

Each game carries the search defaults of its game that ``mcts`` played
with (its cutoff and exploration constant): once they change, a row counts
only the games of the new ones and is played anew, while the older games
stay in the file.

    python scripts/strength.py --seconds 3600     # play for an hour, then render
    python scripts/strength.py --table ladder --seconds 3600
    python scripts/strength.py --render           # render only
"""

from __future__ import annotations

import _thread
import argparse
import dataclasses
import json
import math
import sys
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import veletas
from veletas.match_results import GameResult
from veletas.playouts import wilson
from veletas.ratings import elo

ROOT = Path(__file__).resolve().parent.parent
Z95 = 1.959963984540054
RESULTS = ROOT / "docs" / "strength" / "results.jsonl"
PAGE = ROOT / "docs" / "bots.md"
BEGIN = "<!-- strength table: rendered by make strength from docs/strength/results.jsonl -->"
END = "<!-- end of the strength table -->"
LADDER_BEGIN = "<!-- skill ladder: rendered by make ladder from docs/strength/results.jsonl -->"
LADDER_END = "<!-- end of the skill ladder -->"


@dataclasses.dataclass(frozen=True)
class Row:
    """One line of the table: a match of 2 x ``openings`` games."""

    id: str
    title: str
    a: str
    b: str
    rules: Mapping[str, Any]
    openings: int = 100
    seed: int = 0
    at_once: int = 2
    """Games played at once: two on the two cores, one when a player
    searches on two threads."""
    rung: tuple[str, int] | None = None
    """On the skill ladder: the search and A's playouts a move (B has
    half as many)."""
    revision: int = 1
    """What a time budget buys in the row's games: raised when it changes
    (the search's speed, or the load beside the games), so that the row is
    played again (its earlier games stay in the file, not counted)."""

    @property
    def games(self) -> int:
        return 2 * self.openings

    @property
    def game(self) -> str:
        return str(self.rules.get("game", "veletas"))

    @property
    def played_with(self) -> dict[str, float]:
        """The defaults that the row's games depend on: those of ``mcts``
        where it plays, none for ``uct`` (its constant is the game's)."""
        played_with: dict[str, float] = {}
        if any(spec.split(":")[0] == "mcts" for spec in (self.a, self.b)):
            played_with = defaults(self.game)
        if self.revision > 1:
            played_with["revision"] = self.revision
        return played_with

    def command(self) -> str:
        flags = " ".join(
            f"--{k.replace('_', '-')}" if v is True else f"--{k.replace('_', '-')} {v}"
            for k, v in self.rules.items()
            if v is not False
        )
        return (
            f"veletas match {self.a} {self.b} --openings {self.openings} "
            f"--threads {self.at_once} --seed {self.seed} {flags}"
        ).strip()


ROWS = (
    # Revision 3 of the Veletas rows, 2 of Meridians 5-6: the solver's UCT
    # scores looked up (Veletas's 2: `mcts` plays its playouts a turn at a
    # time, and nothing runs beside the games).
    Row(
        "7x7",
        "Veletas 7x7",
        "mcts:seconds=0.1",
        "uct:seconds=0.1",
        {"variant": "small"},
        revision=3,
    ),
    Row(
        "10x10",
        "Veletas 10x10",
        "mcts:seconds=0.1",
        "uct:seconds=0.1",
        {"variant": "standard"},
        revision=3,
    ),
    Row(
        "meridians-5-6",
        "Meridians 5-6",
        "mcts:seconds=0.1",
        "uct:seconds=0.1",
        {"game": "meridians", "size": "5-6", "pie": True},
        revision=2,
    ),
    Row(
        "meridians-6-7",
        "Meridians 6-7",
        "mcts:seconds=0.1",
        "uct:seconds=0.1",
        {"game": "meridians", "size": "6-7", "pie": True},
    ),
    # Revision 7 of the threads rows: the nodes' links apart from their
    # statistics (6: the solver's UCT scores looked up; 5: each thread's
    # scratch on cache lines of its own; 4: the threads of one tree owe
    # the busy nodes their visits and give a virtual loss below, and
    # openings with a swap are played to their end; 3: one tree; 2:
    # nothing beside the games).
    Row(
        "threads-7x7",
        "Veletas 7x7, 2 threads against 1",
        "mcts:seconds=0.1,threads=2",
        "mcts:seconds=0.1",
        {"variant": "small"},
        at_once=1,
        revision=7,
    ),
    Row(
        "threads-meridians-5-6",
        "Meridians 5-6, 2 threads against 1",
        "mcts:seconds=0.1,threads=2",
        "mcts:seconds=0.1",
        {"game": "meridians", "size": "5-6", "pie": True},
        at_once=1,
        revision=7,
    ),
)

BOARDS = (
    ("Veletas 7x7", "7x7", {"variant": "small"}),
    ("Meridians 5-6", "meridians-5-6", {"game": "meridians", "size": "5-6", "pie": True}),
)
"""The boards of the skill ladder: its title, its id and its rules."""
LADDER_PLAYOUTS = (1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000)
"""A's playouts a move at each step of the ladder; the first step's B (half
as many) is its zero."""

LADDER = tuple(
    Row(
        f"ladder-{board}-{search}-{playouts}",
        f"{title}, {search}",
        f"{search}:iterations={playouts}",
        f"{search}:iterations={playouts // 2}",
        rules,
        openings=50,
        seed=playouts,
        rung=(search, playouts),
    )
    # The cheap steps of every board and search first, so that a run that
    # stops early leaves each ladder started.
    for playouts in LADDER_PLAYOUTS
    for title, board, rules in BOARDS
    for search in ("mcts", "uct")
)
TABLES = {"standard": ROWS, "ladder": LADDER}


def defaults(game: str) -> dict[str, float]:
    """The search defaults of ``game`` that ``mcts`` plays with."""
    player = veletas.games.get(game).bots.mcts_player
    return {"cutoff": player.DEFAULT_CUTOFF, "exploration": player.DEFAULT_EXPLORATION}


def read(path: Path, rows: Iterable[Row]) -> dict[str, dict[int, float]]:
    """A's points of each game of ``rows`` played with today's defaults, by
    row and game index; a line cut short (a run killed while writing) is
    left out, and so are the games of other defaults and indices beyond the
    row's games."""
    rows = tuple(rows)
    today = {row.id: row.played_with for row in rows}
    games = {row.id: row.games for row in rows}
    kept: dict[str, dict[int, float]] = {}
    if not path.exists():
        return kept
    # Bytes, a line at a time: a line that is not UTF-8 is one more line
    # that is not a game (json.loads raises a ValueError for it).
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        try:
            entry = json.loads(line)
            row, index, points = entry["row"], int(entry["index"]), float(entry["a_points"])
            played_with = entry.get("defaults")
        except (ValueError, KeyError, TypeError):
            print(f"{path}:{number}: a line that is not a game, left out", file=sys.stderr)
            continue
        if points not in (0.0, 0.5, 1.0):
            print(f"{path}:{number}: A's points {points!r} are not 0, 0.5 or 1", file=sys.stderr)
            continue
        if row in today and played_with == today[row] and 0 <= index < games[row]:
            kept.setdefault(row, {})[index] = points
    return kept


def line_of(row: Row, result: GameResult) -> str:
    return json.dumps(
        {
            "row": row.id,
            "index": result.index,
            "a_points": result.a_points,
            "a_first": result.a_first,
            "plies": len(result.moves),
            "swapped": result.swapped,
            "defaults": row.played_with,
        }
    )


def play(rows: Iterable[Row], path: Path, seconds: float | None) -> None:
    """Plays the games the file lacks, row by row, appending each as it
    ends; stops after ``seconds`` (the games under way are dropped)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if seconds is not None:
        timer = threading.Timer(seconds, _thread.interrupt_main)
        timer.daemon = True
        timer.start()
    with path.open("a", encoding="utf-8") as out:
        if out.tell() > 0 and path.read_bytes()[-1:] != b"\n":
            out.write("\n")  # a line cut short by a killed run ends here, unread
        for row in rows:
            done = read(path, [row]).get(row.id, {})
            missing = [i for i in range(row.games) if i not in done]
            if not missing:
                continue
            print(f"{row.title}: {len(done)} of {row.games} games kept", file=sys.stderr)

            def keep(result: GameResult, row: Row = row) -> None:
                out.write(line_of(row, result) + "\n")
                out.flush()

            rules = dict(row.rules)
            game = rules.pop("game", "veletas")
            result = veletas.match(
                row.a,
                row.b,
                row.games,
                game=game,
                seed=row.seed,
                threads=row.at_once,
                openings=row.openings,
                first_game=missing[0],
                on_game=keep,
                progress=False,
                **rules,
            )
            if result.interrupted:
                print("stopped: the time is up; the next run goes on from here", file=sys.stderr)
                return


def table(rows: Iterable[Row], kept: Mapping[str, Mapping[int, float]]) -> str:
    lines = [
        "| row | A | B | games | A's score (95% CI) | Elo A - B (95% CI) | command |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        games = kept.get(row.id, {})
        n = len(games)
        if n == 0:
            score = difference = "not played yet"
        else:
            points = sum(games.values())
            rate = wilson(points, n)
            score = f"{rate.rate:.1%} ({rate.low:.1%} .. {rate.high:.1%})"
            difference = f"{elo(rate.rate):+.0f} ({elo(rate.low):+.0f} .. {elo(rate.high):+.0f})"
        lines.append(
            f"| {row.title} | `{row.a}` | `{row.b}` | {n} of {row.games} | {score} | "
            f"{difference} | `{row.command()}` |"
        )
    played_with = "; ".join(
        f"{game}: cutoff {d['cutoff']}, exploration {d['exploration']}"
        for game, d in ((game, defaults(game)) for game in sorted({row.game for row in rows}))
    )
    lines += ["", f"The games of today's `mcts` defaults ({played_with})."]
    return "\n".join(lines)


def ladder_table(rungs: Iterable[Row], kept: Mapping[str, Mapping[int, float]]) -> str:
    """Each search's steps on each board, with each step's Elo and the sum
    of the steps from the first B up. The sum's interval adds the steps'
    variances, each step's standard error read off its Wilson interval."""
    lines = [
        "| board, search | A against B, playouts a move | games | A's score (95% CI) "
        "| Elo of the step (95% CI) | Elo above the first B (95% CI) |",
        "|---|---|---|---|---|---|",
    ]
    series: dict[str, list[Row]] = {}
    for rung in rungs:
        series.setdefault(rung.title, []).append(rung)
    for title, steps in series.items():
        total, variance = 0.0, 0.0
        for rung in sorted(steps, key=lambda rung: rung.rung[1] if rung.rung else 0):
            games = kept.get(rung.id, {})
            playouts = rung.rung[1] if rung.rung else 0
            n = len(games)
            if n == 0:
                score = step = above = "not played yet"
                total = math.nan
            else:
                rate = wilson(sum(games.values()), n)
                score = f"{rate.rate:.1%} ({rate.low:.1%} .. {rate.high:.1%})"
                step = f"{elo(rate.rate):+.0f} ({elo(rate.low):+.0f} .. {elo(rate.high):+.0f})"
                total += elo(rate.rate)
                variance += ((elo(rate.high) - elo(rate.low)) / (2 * Z95)) ** 2
                spread = Z95 * math.sqrt(variance)
                above = (
                    f"{total:+.0f} ({total - spread:+.0f} .. {total + spread:+.0f})"
                    if math.isfinite(total + spread)
                    else "a step below is not played or not finite"
                )
            lines.append(
                f"| {title} | {playouts:,} against {playouts // 2:,} | {n} of {rung.games} "
                f"| {score} | {step} | {above} |"
            )
    return "\n".join(lines)


def render_between(page: Path, begin: str, end: str, text: str) -> None:
    """Puts ``text`` between the markers ``begin`` and ``end`` of ``page``."""
    old = page.read_text(encoding="utf-8")
    if begin not in old or end not in old:
        raise SystemExit(f"{page} has no markers {begin} and {end}")
    before, rest = old.split(begin, 1)
    _, after = rest.split(end, 1)
    page.write_text(f"{before}{begin}\n{text}\n{end}{after}", encoding="utf-8")


def render(rows: Iterable[Row], results: Path, page: Path) -> None:
    rows = tuple(rows)
    render_between(page, BEGIN, END, table(rows, read(results, rows)))


def render_ladder(rungs: Iterable[Row], results: Path, page: Path) -> None:
    rungs = tuple(rungs)
    render_between(page, LADDER_BEGIN, LADDER_END, ladder_table(rungs, read(results, rungs)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, help="stop playing after this long")
    parser.add_argument("--render", action="store_true", help="render the tables only")
    parser.add_argument(
        "--table",
        choices=sorted(TABLES),
        default="standard",
        help="the table whose games to play (default: standard)",
    )
    parser.add_argument(
        "--rows",
        help="play only these rows of the table, by id, comma-separated "
        f"(standard: {', '.join(row.id for row in ROWS)}; ladder: ladder-BOARD-SEARCH-PLAYOUTS, "
        "as ladder-7x7-mcts-4000; default: all, in this order)",
    )
    args = parser.parse_args(argv)
    rows = TABLES[args.table]
    if args.rows is not None:
        by_id = {row.id: row for row in rows}
        wanted = [name.strip() for name in args.rows.split(",")]
        unknown = [name for name in wanted if name not in by_id]
        if unknown or not wanted:
            parser.error(
                f"--rows: unknown row {', '.join(map(repr, unknown or ['']))} of the "
                f"{args.table} table; its rows are {', '.join(by_id)}"
            )
        rows = tuple(by_id[name] for name in wanted)
    if not args.render:
        play(rows, RESULTS, args.seconds)
    render(ROWS, RESULTS, PAGE)
    render_ladder(LADDER, RESULTS, PAGE)
    print(f"rendered the tables into {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
