"""The games of veletas as OpenSpiel games: ``import veletas.openspiel``
registers every game of :mod:`veletas.games` with pyspiel, under its name.

>>> import pyspiel
>>> import veletas.openspiel
>>> game = pyspiel.load_game("veletas(variant=small)")
>>> state = game.new_initial_state()
>>> state.legal_actions()[:3]
[8, 9, 10]
>>> state.apply_action(16)
>>> state.current_player(), str(state).splitlines()[4]
(0, ' 3 . . s . . . .')

Each game takes the parameters of its encoding module
(``veletas.games.<name>.encoding.OPENSPIEL_PARAMETERS``; ``docs/rl.md``
lists them), and plays by the action ids of that module: for Veletas a turn
in play is up to three consecutive actions by the same player.

Players are seats: player 0 is the first player, whichever colour the pie
swap gives it. Returns are +1 and -1 at the end.

The observation tensor has the game's observation planes (tables in
``docs/rl.md``), seen by the observing player: for the player to act they
are the state's own planes; for the other player the own/opponent planes
trade places. The information state string is the action history, as for
OpenSpiel's other perfect-information games written in Python.

Cloning is cheap: OpenSpiel's clone of a Python state makes a fresh initial
state and deep-copies each attribute, and this state has a single one, the
game's decision state (for Veletas a :class:`~veletas.DecisionState`, a
small value copied in Rust).

OpenSpiel's C++ bots (``pyspiel.MCTSBot`` and others) play Python-defined
games only through ``bot.step_with_policy(state)``; ``bot.step(state)``
crashes there (see ``docs/rl.md``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from veletas.extras import missing_extra

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as error:
    raise missing_extra("veletas.openspiel", "openspiel", error) from error

from veletas import games as registry

__all__ = [
    "GAME_CLASSES",
    "GAME_TYPE",
    "GAME_TYPES",
    "OpenSpielGame",
    "OpenSpielObserver",
    "OpenSpielState",
    "VeletasGame",
    "VeletasObserver",
    "VeletasState",
]


def _game_type(name: str) -> pyspiel.GameType:
    """The game type of game ``name``: deterministic, perfect information,
    zero-sum, with the parameters of its encoding module."""
    return pyspiel.GameType(
        short_name=name,
        long_name=name.title(),
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
        parameter_specification=dict(registry.get(name).encoding().OPENSPIEL_PARAMETERS),
    )


GAME_TYPES: dict[str, pyspiel.GameType] = {name: _game_type(name) for name in registry.names()}
"""The registered game types, by game name."""

GAME_TYPE = GAME_TYPES[registry.DEFAULT]
"""The game type of Veletas, the default game."""


class OpenSpielGame(pyspiel.Game):
    """The game ``game`` of :mod:`veletas.games` (by default the class's
    :attr:`game_name`) under the rules its parameters name.

    :raises InvalidRulesError: for bad rules.
    :raises ValueError: for an unknown game.
    """

    game_name: ClassVar[str] = registry.DEFAULT
    """The game of the class (each registered game has a subclass)."""

    def __init__(self, params: dict[str, Any] | None = None, *, game: str | None = None) -> None:
        game = game or self.game_name
        self.encoding = registry.get(game).encoding()
        """The game's encoding module (``veletas.games.<name>.encoding``)."""
        params = {**self.encoding.OPENSPIEL_PARAMETERS, **(params or {})}
        self._start = self.encoding.openspiel_start(params)
        self.rules = self.encoding.rules_of(self._start)
        """The rules of this game."""
        self.observation_shape: tuple[int, ...] = self._start.observation().shape
        """The shape of the observation planes."""
        super().__init__(
            GAME_TYPES[game],
            pyspiel.GameInfo(
                num_distinct_actions=self._start.num_actions,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=self.encoding.max_game_length(self._start),
            ),
            params,
        )

    def new_initial_state(self, state: Any = None) -> OpenSpielState:
        """The start of a game: an empty board, the first player to act."""
        if state is not None:
            name = self.get_type().short_name
            raise ValueError(f"{name} states are not built from {type(state).__name__}")
        return OpenSpielState(self, self._start.copy())

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Any:
        """The planes observer, or the history observer for perfect recall."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return OpenSpielObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class OpenSpielState(pyspiel.State):
    """A decision of a game: the game's decision state, which holds the
    position (and, for Veletas, the partial turn)."""

    def __init__(self, game: OpenSpielGame, state: Any) -> None:
        super().__init__(game)
        # The only attribute: OpenSpiel clones a Python state by deep-copying
        # its attributes onto a fresh initial state.
        self.decision = state

    def _encoding(self) -> Any:
        return self.get_game().encoding

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.decision.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(self.decision.seat_to_act)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.decision.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.decision.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._encoding().action_to_string(self.decision, action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self.decision.is_terminal())

    def returns(self) -> list[float]:
        """+1 for the winning seat and -1 for the other; zeros until the end."""
        winner = self.decision.winner
        if winner is None:
            return [0.0, 0.0]
        seat = int(winner) ^ int(self.decision.swapped)
        return [1.0 if seat == 0 else -1.0, 1.0 if seat == 1 else -1.0]

    def __str__(self) -> str:
        return str(self._encoding().describe(self.decision))

    def __copy__(self) -> OpenSpielState:
        return self.clone()

    def __deepcopy__(self, memo: Any) -> OpenSpielState:
        return self.clone()


class OpenSpielObserver:
    """The observation planes of a game for OpenSpiel, seen by the observing
    player."""

    def __init__(self, game: OpenSpielGame, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        self._encoding = game.encoding
        shape = game.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Writes the planes of ``state`` as ``player`` sees them."""
        self.dict["observation"][...] = self._encoding.observation_for(state.decision, player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """The board and who acts (the same for both players)."""
        return str(self._encoding.describe(state.decision))


# A class per game, which pyspiel calls with the parameters. A class rather
# than a closure: pyspiel's registry outlives the interpreter, and releasing
# the last reference to a function there, after Python has finalized, aborts
# the process.
GAME_CLASSES: dict[str, type[OpenSpielGame]] = {
    name: type(f"{name.title()}Game", (OpenSpielGame,), {"game_name": name, "__module__": __name__})
    for name in registry.names()
}
"""The game class of each game, by name: ``VeletasGame``, ..."""

# The names of the classes when Veletas was the only game.
VeletasGame = GAME_CLASSES[registry.DEFAULT]
VeletasState = OpenSpielState
VeletasObserver = OpenSpielObserver


def _register() -> None:
    # Importing twice (or reloading) must not register twice.
    registered = {t.short_name for t in pyspiel.registered_games()}
    for name, game_type in GAME_TYPES.items():
        if name not in registered:
            pyspiel.register_game(game_type, GAME_CLASSES[name])


_register()
