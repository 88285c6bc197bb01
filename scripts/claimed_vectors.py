"""Write the perft and claims vectors of the ``claimed_shooters_block`` option
(tests/games/veletas/vectors/perft_claimed_shooters_block.txt and
claims_claimed_shooters_block.txt), in the format of perft.txt and
claims.txt, with every count and position from the pure-Python reference.

Positions come from uniformly random games under the option, on every
variant and both setup rules, kept where the option changes the result:

- perft: positions whose legal moves differ with the option off (a line
  meets a claimed shooter), and a few of every phase besides;
- claims: moves that claim a shooter, kept where the option off claims
  otherwise (or does not allow the move): a line through a shooter claimed
  before.

A claim never traps another shooter in the same turn (the lines beyond a
trapped shooter hold no empty square), so the claims of one turn never
cascade, and no vector can show one.

    python scripts/claimed_vectors.py [--seed N]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

import veletas
from veletas.reference import Board, Move

VECTORS = Path(__file__).resolve().parent.parent / "tests" / "games" / "veletas" / "vectors"
RULES = [
    # (size, shooters, setup rule): the variants, and crowded custom games in
    # which claims come often enough to trap one another.
    (7, 3, "perimeter"),
    (7, 3, "spacing"),
    (9, 5, "perimeter"),
    (9, 5, "spacing"),
    (10, 7, "perimeter"),
    (10, 7, "spacing"),
    (7, 13, "perimeter"),
    (8, 21, "perimeter"),
    (10, 31, "perimeter"),
]
PERFT_PER_RULES = 5
CLAIMS_PER_RULES = 3
GAMES_PER_RULES = 60
MOST_MOVES_AT_DEPTH_2 = 1500
"""Perft 2 is written for positions of at most this many moves (the
reference plays each of them)."""


def board(fen: str, setup_rule: str, on: bool = True) -> Board:
    return Board(fen, setup_rule=setup_rule, claimed_shooters_block=on)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=104)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    perft_blocks: list[str] = []
    claim_blocks: list[str] = []
    for size, shooters, setup_rule in RULES:
        perft_left, claims_left = PERFT_PER_RULES, CLAIMS_PER_RULES
        phases: set[str] = set()
        for _game in range(GAMES_PER_RULES):
            if perft_left <= 0 and claims_left <= 0:
                break
            # The native engine finds the positions; the reference counts.
            game = veletas.Board(
                size=size, shooters=shooters, setup_rule=setup_rule, claimed_shooters_block=True
            )
            while not game.is_game_over():
                fen = game.fen()
                phase = fen.split(" ")[2]
                on_moves = list(game.legal_moves)
                off = veletas.Board(fen, setup_rule=setup_rule)
                differs = [str(m) for m in on_moves] != [str(m) for m in off.legal_moves]
                if (differs and perft_left > 0 and rng.random() < 0.2) or (
                    phase not in phases and rng.random() < 0.1
                ):
                    phases.add(phase)
                    perft_left -= differs
                    perft_blocks.append(perft_block(fen, setup_rule, len(perft_blocks)))
                if phase == "play" and claims_left > 0:
                    for move in on_moves:
                        if claims_otherwise(game, off, move):
                            claims_left -= 1
                            name = str(len(claim_blocks))
                            claim_blocks.append(claim_block(fen, setup_rule, str(move), name))
                            break
                game.push(rng.choice(on_moves))
        print(size, shooters, setup_rule, "perft", len(perft_blocks), "claims", len(claim_blocks))
    header = (
        "# Veletas perft vectors under claimed_shooters_block: fen, rules (setup rule,\n"
        "# shooter lines, the option), perft depth nodes. From the reference engine\n"
        "# (scripts/claimed_vectors.py).\n\n"
    )
    (VECTORS / "perft_claimed_shooters_block.txt").write_text(header + "\n".join(perft_blocks))
    header = (
        "# Moves that claim shooters under claimed_shooters_block, where the option\n"
        "# changes the claims: fen, rules, move, fen after the move. From the\n"
        "# reference engine (scripts/claimed_vectors.py).\n\n"
    )
    (VECTORS / "claims_claimed_shooters_block.txt").write_text(header + "\n".join(claim_blocks))


def rules_line(setup_rule: str) -> str:
    return f"rules {setup_rule} shooters_pass claimed_shooters_block"


def perft_block(fen: str, setup_rule: str, index: int) -> str:
    lines = [f"id claimed-perft-{index}", f"fen {fen}", rules_line(setup_rule)]
    probe = board(fen, setup_rule)
    moves = probe.perft(1)
    lines.append(f"perft 1 {moves}")
    if moves <= MOST_MOVES_AT_DEPTH_2:
        lines.append(f"perft 2 {probe.perft(2)}")
    return "\n".join(lines) + "\n"


def claims_otherwise(game: Any, off: Any, move: Any) -> bool:
    """Whether ``move`` claims a shooter and the option off claims otherwise
    (or does not allow the move)."""
    after = game.copy(stack=False)
    after.push(move)
    if sum(after.claims) == sum(game.claims):
        return False
    if move not in off.legal_moves:
        return True
    off_after = off.copy(stack=False)
    off_after.push(move)
    return bool(off_after.fen() != after.fen())


def claim_block(fen: str, setup_rule: str, text: str, name: str) -> str:
    """The block of ``text`` played in ``fen``, the position after it from
    the reference."""
    after = board(fen, setup_rule)
    after.push(Move.parse(text))
    return (
        "\n".join(
            [
                f"id claimed-claim-{name}",
                f"fen {fen}",
                rules_line(setup_rule),
                f"move {text}",
                f"after {after.fen()}",
            ]
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
