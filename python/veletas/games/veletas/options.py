"""The rules options of Veletas, in one table: what the command line adds,
reads and describes, what a record's tags carry (:mod:`veletas.rules_options`).
A new option of the rules is one entry here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from veletas._checks import ascii_int
from veletas.errors import InvalidRulesError
from veletas.games.veletas.types import SETUP_RULES, VARIANTS
from veletas.rules_options import RuleOption

__all__ = ["FEN_TELLS", "QUICK", "RULES", "board_kwargs", "engine_options", "fen_kwargs"]


def _size(text: str) -> int:
    try:
        return ascii_int(text)
    except ValueError:
        raise InvalidRulesError(f"--size {text!r} is not a whole number") from None


RULES = (
    RuleOption(
        "variant",
        "standard (10x10, 7 shooters), medium (9x9, 5) or small (7x7, 3); default standard",
        default="standard",
        choices=tuple(VARIANTS),
        tag="Variant",
    ),
    RuleOption("size", "a custom board size N, 5 to 10", parse=_size, tag="Size"),
    RuleOption(
        "shooters", "a custom shooter count K, odd and at least 3", parse=ascii_int, tag="Shooters"
    ),
    RuleOption(
        "setup_rule",
        "where setup may place shooters (default perimeter)",
        default="perimeter",
        choices=tuple(SETUP_RULES),
        tag="SetupRule",
    ),
    RuleOption(
        "shooters_block",
        "shooters end lines like stones do (an older published rule)",
        default=False,
        switch=True,
        tag="ShootersBlock",
    ),
    RuleOption(
        "claimed_shooters_block",
        "claimed shooters end lines and claims repeat until none changes (Boardspace's rules)",
        default=False,
        switch=True,
        tag="ClaimedShootersBlock",
        always_tagged=False,
    ),
)
"""Veletas's rules options."""

QUICK = {"variant": "small"}
"""The rules of a quick game (the smallest board), for examples and checks."""

FEN_TELLS: frozenset[str] = frozenset()
"""A Veletas position string reads under the options given: it tells none."""


def board_kwargs(values: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``Board`` for the options' values."""
    return {option.name: values[option.name] for option in RULES}


def fen_kwargs(rules: Any) -> dict[str, Any]:
    """The keyword arguments that, with a position string, make a ``Board``
    of ``rules``: the options a position string does not carry."""
    return {
        "setup_rule": rules.setup_rule,
        "shooters_block": rules.shooters_block,
        "claimed_shooters_block": rules.claimed_shooters_block,
    }


def has_pie_rule(rules: Any) -> bool:
    """Whether games of ``rules`` offer the pie swap: Veletas always does."""
    return True


def engine_options(board: Any) -> tuple[Any, ...]:
    """The rule options the native bots take after the position string."""
    rules = board.rules
    return (rules.setup_rule, rules.shooters_block, rules.claimed_shooters_block)
