"""Play a match between two bots and report the score with a 95% interval.

Seats alternate: in game k, bot A is the first player when k is even. Each
game gets fresh bots seeded from ``--seed`` and k, so a match is reproducible
up to the timing of ``seconds`` budgets.

    python scripts/match.py --variant small --a mcts:0.5 --b random --games 40
    python scripts/match.py --variant standard --a mcts:1 --b mcts:0.1 --games 20

A bot is ``random``, ``greedy``, ``mcts:SECONDS`` or ``mcts:SECONDS:EXPLORATION``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import veletas


def make_bot(spec: str, seed: int) -> veletas.bots.Bot:
    name, *params = spec.split(":")
    if name == "random":
        return veletas.RandomBot(seed)
    if name == "greedy":
        return veletas.GreedyBot(seed)
    if name == "mcts":
        seconds = float(params[0]) if params else veletas.bots.DEFAULT_SECONDS
        exploration = float(params[1]) if len(params) > 1 else None
        return veletas.MctsBot(seconds=seconds, seed=seed, exploration=exploration)
    raise SystemExit(f"unknown bot {spec!r}: expected random, greedy or mcts:SECONDS")


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play_game(board: veletas.Board, first: veletas.bots.Bot, second: veletas.bots.Bot) -> int:
    """Plays to the end; returns the winning seat (0 = first player)."""
    seats = [first, second]
    swapped = False
    while not board.is_game_over():
        # The first player is Black until a swap.
        seat = int(board.turn) ^ swapped
        move = seats[seat].choose(board)
        board.push(move)
        swapped = swapped or move.is_swap
    return int(board.winner) ^ swapped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="small", choices=list(veletas.VARIANTS))
    parser.add_argument("--a", required=True, help="bot A")
    parser.add_argument("--b", required=True, help="bot B")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    wins = 0
    start = time.perf_counter()
    for game in range(args.games):
        a = make_bot(args.a, args.seed * 1000 + 2 * game)
        b = make_bot(args.b, args.seed * 1000 + 2 * game + 1)
        a_first = game % 2 == 0
        board = veletas.Board(variant=args.variant)
        winner = play_game(board, a, b) if a_first else play_game(board, b, a)
        a_won = (winner == 0) == a_first
        wins += a_won
        print(
            f"game {game + 1:3d}: A {'first ' if a_first else 'second'} "
            f"{'won ' if a_won else 'lost'} in {len(board.move_stack)} moves, "
            f"claims {tuple(board.claims)}  [{wins}/{game + 1}]",
            flush=True,
        )
    low, high = wilson(wins, args.games)
    print(
        f"{args.variant}: A={args.a} vs B={args.b}: A won {wins}/{args.games} "
        f"= {wins / args.games:.0%} (95% CI {low:.0%}..{high:.0%}), "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
