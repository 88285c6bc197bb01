"""Veletas as an OpenSpiel game: ``import veletas.openspiel`` registers
``"veletas"`` with pyspiel.

>>> import pyspiel
>>> import veletas.openspiel
>>> game = pyspiel.load_game("veletas(variant=small)")
>>> state = game.new_initial_state()
>>> state.legal_actions()[:3]
[8, 9, 10]
>>> state.apply_action(16)
>>> state.current_player(), str(state).splitlines()[4]
(0, ' 3 . . s . . . .')

Parameters: ``variant`` (``"standard"``, ``"medium"`` or ``"small"``),
``setup_rule`` (``"perimeter"`` or ``"spacing"``), ``shooters_block``
(bool), and ``size`` and ``shooters`` (0, the default, keeps the variant's).

Players are seats: player 0 is the first player, who is Black until the pie
swap and White after it. Actions are the micro-decisions of
:mod:`veletas.games.veletas.encoding`, so a turn in play is up to three consecutive
actions by the same player. Returns are +1 and -1 at the end.

The observation tensor has the planes of ``DecisionState.observation()``
(table in ``docs/rl.md``), seen by the observing player: for the player to
act it is exactly those planes; for the other player the own/opponent
planes trade places. The information state string is the action history,
as for OpenSpiel's other perfect-information games written in Python.

Cloning is cheap: OpenSpiel's clone of a Python state makes a fresh initial
state and deep-copies each attribute, and this state has a single one, a
:class:`~veletas.DecisionState` (a small value copied in Rust).

OpenSpiel's C++ bots (``pyspiel.MCTSBot`` and others) play Python-defined
games only through ``bot.step_with_policy(state)``; ``bot.step(state)``
crashes there (see ``docs/rl.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import veletas
from veletas.games.veletas.encoding import (
    OBSERVATION_PLANES,
    DecisionState,
    action_to_square,
    describe,
    observation_for,
)
from veletas.games.veletas.types import Rules

__all__ = ["GAME_TYPE", "VeletasGame", "VeletasObserver", "VeletasState"]

_DEFAULT_PARAMS: dict[str, Any] = {
    "variant": "standard",
    "setup_rule": "perimeter",
    "shooters_block": False,
    "size": 0,
    "shooters": 0,
}

GAME_TYPE = pyspiel.GameType(
    short_name="veletas",
    long_name="Veletas",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)
"""The registered game type: deterministic, perfect information, zero-sum."""


def _rules(params: dict[str, Any]) -> Rules:
    """The rules the game parameters describe (validated)."""
    return Rules.make(
        params["variant"],
        size=params["size"] or None,
        shooters=params["shooters"] or None,
        setup_rule=params["setup_rule"],
        shooters_block=bool(params["shooters_block"]),
    )


def _max_game_length(rules: Rules) -> int:
    """The most decisions a game can take: every placement and the swap,
    then three decisions per stone shot onto the squares left."""
    n, k = rules.size, rules.shooters
    return k + 2 + 1 + 3 * (n * n - k - 2)


class VeletasGame(pyspiel.Game):
    """The game of Veletas under the rules its parameters name.

    :raises InvalidRulesError: for a bad variant, size, shooter count or option.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        self.rules = _rules(params)
        """The rules of this game."""
        n = self.rules.size
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=n * n + 2,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=_max_game_length(self.rules),
            ),
            params,
        )
        self._start = DecisionState(
            veletas.Board(
                size=n,
                shooters=self.rules.shooters,
                setup_rule=self.rules.setup_rule,
                shooters_block=self.rules.shooters_block,
            )
        )

    def new_initial_state(self, state: Any = None) -> VeletasState:
        """The start of a game: an empty board, the first player to place."""
        if state is not None:
            raise ValueError(f"veletas states are not built from {type(state).__name__}")
        return VeletasState(self, self._start.copy())

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Any:
        """The planes observer, or the history observer for perfect recall."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return VeletasObserver(self.rules.size, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class VeletasState(pyspiel.State):
    """A decision of a game of Veletas (a position and a partial turn)."""

    def __init__(self, game: VeletasGame, state: DecisionState) -> None:
        super().__init__(game)
        # The only attribute: OpenSpiel clones a Python state by deep-copying
        # its attributes onto a fresh initial state.
        self.decision = state

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.decision.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.decision.seat_to_act

    def _legal_actions(self, player: int) -> list[int]:
        return self.decision.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.decision.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        size = self.decision.size
        if action == size * size:
            return "PASS"
        if action == size * size + 1:
            return "SWAP"
        return veletas.square_name(action_to_square(action, size))

    def is_terminal(self) -> bool:
        """Whether a colour has won."""
        return self.decision.is_terminal()

    def returns(self) -> list[float]:
        """+1 for the winning seat and -1 for the other; zeros until the end."""
        winner = self.decision.winner
        if winner is None:
            return [0.0, 0.0]
        seat = int(winner) ^ int(self.decision.swapped)
        return [1.0 if seat == 0 else -1.0, 1.0 if seat == 1 else -1.0]

    def __str__(self) -> str:
        return describe(self.decision)

    def __copy__(self) -> VeletasState:
        return self.clone()

    def __deepcopy__(self, memo: Any) -> VeletasState:
        return self.clone()


class VeletasObserver:
    """The observation planes of ``DecisionState.observation()`` for OpenSpiel,
    seen by the observing player."""

    def __init__(self, size: int, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        shape = (len(OBSERVATION_PLANES), size, size)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: VeletasState, player: int) -> None:
        """Writes the planes of ``state`` as ``player`` sees them."""
        self.dict["observation"][...] = observation_for(state.decision, player)

    def string_from(self, state: VeletasState, player: int) -> str:
        """The board and the partial turn (the same for both players)."""
        return describe(state.decision)


def _register() -> None:
    # Importing twice (or reloading) must not register twice.
    if "veletas" not in {t.short_name for t in pyspiel.registered_games()}:
        pyspiel.register_game(GAME_TYPE, VeletasGame)


_register()
