"""A rules option of a game, as every generic flow sees it: a keyword of the
game's ``Board`` and ``playouts``, a flag of the command line, a tag of a
record.

Each game declares its options once, in one table (``RULES`` of
``veletas.games.<name>.options``); the command line, the distributed runs
and the matches read them from there, and refuse an option of another game
alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from veletas.errors import InvalidRulesError

__all__ = ["RuleOption", "refuse_foreign"]


@dataclasses.dataclass(frozen=True)
class RuleOption:
    """One option of a game's rules."""

    name: str
    """The keyword of the game's ``Board`` and ``playouts`` (``setup_rule``)."""
    help: str
    """What it means, for ``--help``."""
    default: Any = None
    """Its value when not given."""
    choices: tuple[str, ...] | None = None
    """The values it takes, where they are a list."""
    parse: Callable[[str], Any] | None = None
    """Its value from command-line text (None: the text itself); raises
    ``ValueError`` (an ``InvalidRulesError`` naming the flag is best) for bad
    text."""
    switch: bool = False
    """A flag that takes no value: given, it is True."""
    tag: str | None = None
    """The record tag that carries it, where one does."""
    always_tagged: bool = True
    """Whether every record writes its tag; False: only where its value is
    not the default (an option that came after the record format, so that
    records of the default rules stay as they were)."""

    @property
    def flag(self) -> str:
        """The command-line flag: ``--setup-rule``."""
        return "--" + self.name.replace("_", "-")


def refuse_foreign(
    game: str,
    title: str,
    given: Iterable[str],
    owners: Mapping[str, Iterable[str]],
    *,
    spell: Callable[[str], str] = str,
) -> None:
    """Refuse options of other games.

    :param game: the game played, ``title`` its name in words.
    :param given: the options given (changed from their defaults), by name.
    :param owners: for every option name, the titles of the games that have it.
    :param spell: how to write an option's name (``str``; a flag for the
        command line).
    :raises InvalidRulesError: naming the options given that ``game`` has not.
    """
    foreign = [name for name in given if title not in owners.get(name, ())]
    if not foreign:
        return
    theirs = sorted({owner for name in foreign for owner in owners.get(name, ())})
    names = ", ".join(spell(name) for name in foreign)
    raise InvalidRulesError(
        f"{names}: {' or '.join(theirs) or 'unknown'} options, not for --game {game}"
        if spell is not str
        else f"{names}: {' or '.join(theirs) or 'unknown'} options, not for {title}"
    )
