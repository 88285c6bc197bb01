"""What a game record of Veletas holds beyond the generic format
(:mod:`veletas.records`): its rule tags and its players' colours."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from veletas.errors import InvalidRecordError, VeletasError
from veletas.games.veletas.engine import ENGINES
from veletas.games.veletas.options import RULES
from veletas.games.veletas.types import SETUP_RULES, VARIANTS, Color, Rules

GAME = "Veletas"
"""The value of the ``[Game]`` tag (which Veletas records may leave out)."""
PLAYERS = ("Black", "White")
"""The tags naming who held each colour, colour 0 first."""
RULE_TAGS = tuple(option.tag for option in RULES if option.tag is not None and option.always_tagged)
"""The rule tags every written record has, in the order of the options."""
_SWITCHES = {option.tag: option for option in RULES if option.switch and option.tag}
"""The tags of the options that are on or off (``true`` or ``false``)."""

Fail = Callable[[int, str], InvalidRecordError]


def rule_tags(rules: Rules) -> dict[str, str]:
    """The tags of ``rules``."""
    return {
        "Variant": rules.variant,
        "Size": str(rules.size),
        "Shooters": str(rules.shooters),
        "SetupRule": rules.setup_rule,
        **{
            tag: "true" if getattr(rules, option.name) else "false"
            for tag, option in _SWITCHES.items()
            if option.always_tagged or getattr(rules, option.name) != option.default
        },
    }


def rules_of(tags: dict[str, str]) -> Rules:
    """The rules of checked tags (the variant's size and shooter count where
    those tags are left out)."""
    size, shooters = VARIANTS.get(tags.get("Variant", ""), (0, 0))
    return Rules(
        size=_number("Size", tags.get("Size", str(size))),
        shooters=_number("Shooters", tags.get("Shooters", str(shooters))),
        setup_rule=tags.get("SetupRule", "perimeter"),
        **{option.name: tags.get(tag, "false") == "true" for tag, option in _SWITCHES.items()},
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
    return ENGINES.selected().Board(
        start,
        size=rules.size,
        shooters=rules.shooters,
        setup_rule=rules.setup_rule,
        shooters_block=rules.shooters_block,
        claimed_shooters_block=rules.claimed_shooters_block,
    )


def board_rules(board: Any) -> Rules:
    """The rules a record of ``board`` writes."""
    rules: Rules = board.rules
    return rules


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
    switches: dict[str, Any] = {}
    for switch, option in _SWITCHES.items():
        line, text = value(switch, "false")
        if text not in ("true", "false"):
            raise fail(line, f"bad tag {tag(switch, text)}: expected true or false")
        switches[option.name] = text == "true"
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
            **switches,
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
