"""A game of ``veletas play`` typed through a pseudo-terminal, for the play
tests of every game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pexpect


def play_to_the_end(
    child: pexpect.spawn,
    fen: str,
    choose: Callable[[str], Any],
    prompt: str,
    last_position: Callable[[str], str],
) -> str:
    """From our turn at position ``fen``, types ``choose(fen)`` at every turn
    of ours until the game ends, with one ``undo`` after two turns (which
    must go back to our last turn); returns the final position."""
    undone = False
    turns = 0
    while True:
        child.sendline(str(choose(fen)))
        turns += 1
        if child.expect([prompt, r"Result (1-0|0-1)"]) == 1:
            assert undone
            return last_position(child.before)
        if not undone and turns == 2:
            child.sendline("undo")
            child.expect("took back: ")
            child.expect(prompt)
            assert last_position(child.before) == fen, "undo goes back to our last turn"
            undone = True
        fen = last_position(child.before)
