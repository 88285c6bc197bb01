"""Match speed, each figure a ratio of two rates measured in the same run:
games a second on two threads against one (target: 1.8x).

Every game of a match runs on its own thread with its own bots, and the
search runs without the GIL; what holds it is the Python between two
searches (reading the position, checking and pushing the move), some tens of
microseconds a move. So matches of searching bots scale with the threads,
while games of random and greedy players alone, which are that Python and
little else, do not: the second figure shows how little they gain.
"""

from __future__ import annotations

from collections.abc import Callable

import veletas
from conftest import games_per_second

SEARCH = ("mcts:iterations=200", "mcts:iterations=200")
ONE_PLY = ("greedy", "random")


def play(players: tuple[str, str], threads: int) -> Callable[[int], object]:
    return lambda games: veletas.match(
        *players, games, variant="small", threads=threads, seed=1, progress=False
    )


def test_two_threads_against_one(benchmark, report) -> None:
    benchmark.group = "match threads"
    benchmark.pedantic(play(SEARCH, 2), args=(100,), rounds=1)
    report(
        "match, MCTS 200 playouts a move against itself, 7x7: 2 threads vs 1",
        "2 threads",
        games_per_second(play(SEARCH, 2), 100),
        "1 thread",
        games_per_second(play(SEARCH, 1), 100),
        target=1.8,
    )


def test_one_ply_players_hold_the_gil(benchmark, report) -> None:
    benchmark.group = "match threads, no search"
    benchmark.pedantic(play(ONE_PLY, 2), args=(1000,), rounds=1)
    report(
        "match, greedy against random, 7x7: 2 threads vs 1",
        "2 threads",
        games_per_second(play(ONE_PLY, 2), 1000),
        "1 thread",
        games_per_second(play(ONE_PLY, 1), 1000),
    )
