"""``veletas.VectorEnv``: many games stepped at once in Rust, for any game of
:mod:`veletas.games`.

>>> import veletas
>>> env = veletas.VectorEnv(2, variant="small")
>>> env.reset()[0].shape
(2, 12, 7, 7)
>>> isinstance(env, veletas.VectorEnv)
True

``VectorEnv(num_envs, game=name, ...)`` builds the native env of the game
(``veletas.games.<name>.encoding.vector_env_type()``) with the game's own
keywords for its rules; every game's env has the same methods (``reset``,
``step``, ``random_actions``, ``state``, ``episode``) and properties
(``docs/rl.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from veletas import games as registry
from veletas.limits import check_envs

if TYPE_CHECKING:
    from veletas import _veletas

__all__ = ["VectorEnv"]


def _env_types() -> tuple[type, ...]:
    """The native env class of every game."""
    return tuple(game.encoding().vector_env_type() for game in registry.every())


class _VectorEnvType(type):
    """Makes every game's native env an instance of :class:`VectorEnv`."""

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, _env_types())

    def __subclasscheck__(cls, subclass: type) -> bool:
        return subclass is cls or issubclass(subclass, _env_types())


class VectorEnv(metaclass=_VectorEnvType):
    """``num_envs`` games of ``game`` (Veletas by default) stepped together,
    writing into numpy buffers with the GIL released: the native env of the
    game, built with the game's keywords for its rules (for Veletas
    ``variant``, ``setup_rule``, ``shooters_block``, ``claimed_shooters_block``,
    ``size``, ``shooters``;
    for Meridians ``size`` and ``pie``) and ``seed``, ``auto_reset``,
    ``opponent`` (None, ``"random"``, ``"greedy"`` or an MCTS spec, played
    inside the step), ``learner_seat`` (0, 1 or ``"alternate"``) and
    ``start`` (the position episodes start from, or one per env).

    :raises ValueError: for an unknown game, ``num_envs`` below 1 or a seed
        outside 0 .. 2**64 - 1.
    :raises InvalidRulesError: for bad rules, or a start of other rules.
    :raises InvalidPlayerError: for an opponent spec that cannot be read.
    :raises InvalidFenError: for a start that cannot be read or is a
        finished game.
    :raises TypeError: for a keyword the game does not take.
    """

    @overload
    def __new__(  # type: ignore[misc]  # the native class of the game, not a subclass
        cls, num_envs: int, *, game: Literal["veletas"] = "veletas", **options: Any
    ) -> _veletas.VectorEnv: ...
    @overload
    def __new__(  # type: ignore[misc]
        cls, num_envs: int, *, game: Literal["meridians"], **options: Any
    ) -> _veletas.MeridiansVectorEnv: ...
    def __new__(cls, num_envs: int, *, game: str = "veletas", **options: Any) -> Any:
        env_type = registry.get(game).encoding().vector_env_type()
        return env_type(check_envs(num_envs), **options)
