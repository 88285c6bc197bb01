"""The rules options of Meridians, in one table: what the command line adds,
reads and describes, what a record's tags carry (:mod:`veletas.rules_options`).
A new option of the rules is one entry here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from veletas.games.meridians.types import SIZES
from veletas.rules_options import RuleOption

__all__ = ["FEN_TELLS", "QUICK", "RULES", "board_kwargs", "engine_options", "fen_kwargs"]

RULES = (
    RuleOption("size", f"the board, {', '.join(SIZES)} (default 6-7)", default="6-7", tag="Size"),
    RuleOption(
        "pie",
        "play with the pie rule (Veletas always has it)",
        default=False,
        switch=True,
        tag="Pie",
    ),
)
"""Meridians's rules options."""

QUICK = {"size": "5-6"}
"""The rules of a quick game (the smallest board), for examples and checks."""

FEN_TELLS = frozenset({"size"})
"""A Meridians position string tells its board's size."""


def board_kwargs(values: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``Board`` for the options' values."""
    return {option.name: values[option.name] for option in RULES}


def fen_kwargs(rules: Any) -> dict[str, Any]:
    """The keyword arguments that, with a position string, make a ``Board``
    of ``rules``: the pie option (the position string carries the size)."""
    return {"pie": rules.pie}


def has_pie_rule(rules: Any) -> bool:
    """Whether games of ``rules`` offer the pie swap: with the pie option."""
    return bool(rules.pie)


def engine_options(board: Any) -> tuple[Any, ...]:
    """The rule options the native bots take after the position string."""
    return (board.pie,)
