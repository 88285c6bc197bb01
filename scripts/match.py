"""Play a match between bots from a checkout: ``veletas match`` (see its
``--help`` and ``docs/bots.md``), for where the console script is not on the
path.

    python scripts/match.py mcts:iterations=2000 random --games 100 --variant small
    python scripts/match.py --round-robin random greedy mcts:iterations=1000 --games 40
"""

from __future__ import annotations

import sys

from veletas.cli import main

if __name__ == "__main__":
    sys.exit(main(["match", *sys.argv[1:]]))
