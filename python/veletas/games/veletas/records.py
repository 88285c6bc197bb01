"""What a game record of Veletas holds beyond the generic format
(:mod:`veletas.records`): its rule tags and its players' colours."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from veletas.errors import InvalidRecordError, VeletasError
from veletas.games.veletas.types import SETUP_RULES, VARIANTS, Color, Rules

GAME = "Veletas"
"""The value of the ``[Game]`` tag (which Veletas records may leave out)."""
PLAYERS = ("Black", "White")
"""The tags naming who held each colour, colour 0 first."""
RULE_TAGS = ("Variant", "Size", "Shooters", "SetupRule", "ShootersBlock")
"""The rule tags every written record has, in this order."""
CLAIMED_TAG = "ClaimedShootersBlock"
"""The rule tag of ``claimed_shooters_block``, written after the others
when the option is on (a record without it is of the default rules)."""

Fail = Callable[[int, str], InvalidRecordError]


def rule_tags(rules: Rules) -> dict[str, str]:
    """The tags of ``rules``."""
    return {
        "Variant": rules.variant,
        "Size": str(rules.size),
        "Shooters": str(rules.shooters),
        "SetupRule": rules.setup_rule,
        "ShootersBlock": "true" if rules.shooters_block else "false",
        **({CLAIMED_TAG: "true"} if rules.claimed_shooters_block else {}),
    }


def rules_of(tags: dict[str, str]) -> Rules:
    """The rules of checked tags (the variant's size and shooter count where
    those tags are left out)."""
    size, shooters = VARIANTS.get(tags.get("Variant", ""), (0, 0))
    return Rules(
        size=_number("Size", tags.get("Size", str(size))),
        shooters=_number("Shooters", tags.get("Shooters", str(shooters))),
        setup_rule=tags.get("SetupRule", "perimeter"),
        shooters_block=tags.get("ShootersBlock", "false") == "true",
        claimed_shooters_block=tags.get(CLAIMED_TAG, "false") == "true",
    )


_DIGITS = re.compile(r"[0-9]{1,3}")
"""A number of a rule tag: ASCII digits only (``int()`` would take any
script's digits, and ``\\d`` match them)."""


def _number(name: str, text: str) -> int:
    """The number of tag ``name``.

    :raises InvalidRecordError: naming the tag and its value, for anything
        but one to three ASCII digits.
    """
    if not _DIGITS.fullmatch(text):
        raise InvalidRecordError(f'bad tag [{name} "{text}"]: expected a number of digits 0-9')
    return int(text)


def new_board(rules: Rules, start: str | None) -> Any:
    """A board of ``rules`` at ``start`` (default: the start of the game)."""
    import veletas

    return veletas.Board(
        start,
        size=rules.size,
        shooters=rules.shooters,
        setup_rule=rules.setup_rule,
        shooters_block=rules.shooters_block,
        claimed_shooters_block=rules.claimed_shooters_block,
    )


def required_tags(tags: dict[str, tuple[int, str]]) -> list[str]:
    """The rule tags a record must have: a size and a shooter count, unless a
    variant gives them."""
    return [] if "Variant" in tags else [name for name in ("Size", "Shooters") if name not in tags]


def tag_rules(tags: dict[str, tuple[int, str]], fail: Fail) -> Rules:
    """The rules the tags give, each bad value named with its line."""

    def tag(name: str, value: object) -> str:
        return f'[{name} "{value}"]'

    def value(name: str, default: str) -> tuple[int, str]:
        return tags.get(name, (tags.get("Variant", (0, ""))[0], default))

    variant_line, variant = tags.get("Variant", (0, "custom"))
    if variant != "custom" and variant not in VARIANTS:
        raise fail(
            variant_line,
            f"bad tag {tag('Variant', variant)}: expected one of {', '.join(VARIANTS)}, custom",
        )
    default_size, default_shooters = VARIANTS.get(variant, (0, 0))
    numbers = {}
    for name, default in (("Size", default_size), ("Shooters", default_shooters)):
        line, text = value(name, str(default))
        if not _DIGITS.fullmatch(text):
            raise fail(line, f"bad tag {tag(name, text)}: expected a number of digits 0-9")
        numbers[name] = int(text)
    block_line, block = value("ShootersBlock", "false")
    if block not in ("true", "false"):
        raise fail(block_line, f"bad tag {tag('ShootersBlock', block)}: expected true or false")
    claimed_line, claimed = value(CLAIMED_TAG, "false")
    if claimed not in ("true", "false"):
        raise fail(claimed_line, f"bad tag {tag(CLAIMED_TAG, claimed)}: expected true or false")
    setup_line, setup_rule = value("SetupRule", "perimeter")
    if setup_rule not in SETUP_RULES:
        raise fail(
            setup_line,
            f"bad tag {tag('SetupRule', setup_rule)}: expected {' or '.join(SETUP_RULES)}",
        )
    if not 5 <= numbers["Size"] <= 10:
        raise fail(
            value("Size", "")[0], f"bad tag {tag('Size', numbers['Size'])}: expected 5 to 10"
        )
    try:
        rules = Rules.make(
            size=numbers["Size"],
            shooters=numbers["Shooters"],
            setup_rule=setup_rule,
            shooters_block=block == "true",
            claimed_shooters_block=claimed == "true",
        )
    except VeletasError as error:
        raise fail(value("Shooters", "")[0], f"bad tag [Shooters]: {error}") from None
    if variant != "custom" and VARIANTS[variant] != (rules.size, rules.shooters):
        raise fail(
            variant_line,
            f"bad tag {tag('Variant', variant)}: it has N = {VARIANTS[variant][0]} and "
            f"K = {VARIANTS[variant][1]}, the tags say {rules.size} and {rules.shooters}",
        )
    return rules


def color(index: int) -> Color:
    """The colour of index 0 or 1."""
    return Color(index)
