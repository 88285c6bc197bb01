"""What a game record of Meridians holds beyond the generic format
(:mod:`veletas.records`): ``[Game "Meridians"]``, its rule tags ``[Size]``
and ``[Pie]``, and its players ``[Light]`` and ``[Dark]``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from veletas.errors import InvalidRecordError
from veletas.games.meridians.engine import ENGINES
from veletas.games.meridians.types import SIZES, Color, Rules

GAME = "Meridians"
"""The value of the ``[Game]`` tag."""
PLAYERS = ("Light", "Dark")
"""The tags naming who held each colour, colour 0 first."""
RULE_TAGS = ("Size", "Pie")
"""The rule tags every written record has, in this order."""

Fail = Callable[[int, str], InvalidRecordError]


def rule_tags(rules: Rules) -> dict[str, str]:
    """The tags of ``rules``."""
    return {"Size": rules.size, "Pie": "true" if rules.pie else "false"}


def rules_of(tags: dict[str, str]) -> Rules:
    """The rules of checked tags."""
    return Rules(tags.get("Size", "6-7"), tags.get("Pie", "false") == "true")


def new_board(rules: Rules, start: str | None) -> Any:
    """A board of ``rules`` at ``start`` (default: the start of the game)."""
    return ENGINES.selected().Board(start, size=None if start else rules.size, pie=rules.pie)


def board_rules(board: Any) -> Rules:
    """The rules a record of ``board`` writes."""
    return Rules(board.size, board.pie)


def required_tags(tags: dict[str, tuple[int, str]]) -> list[str]:
    """The rule tags a record must have."""
    return [] if "Size" in tags else ["Size"]


def tag_rules(tags: dict[str, tuple[int, str]], fail: Fail) -> Rules:
    """The rules the tags give, each bad value named with its line."""
    size_line, size = tags["Size"]
    if size not in SIZES:
        raise fail(size_line, f'bad tag [Size "{size}"]: expected one of {", ".join(SIZES)}')
    pie_line, pie = tags.get("Pie", (size_line, "false"))
    if pie not in ("true", "false"):
        raise fail(pie_line, f'bad tag [Pie "{pie}"]: expected true or false')
    return Rules(size, pie == "true")


def color(index: int) -> Color:
    """The colour of index 0 or 1."""
    return Color(index)
