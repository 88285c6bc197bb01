"""The games of veletas as PettingZoo AEC environments.

>>> from veletas.pettingzoo import env
>>> game = env(variant="small", render_mode="ansi")
>>> game.reset(seed=0)
>>> game.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = game.last()
>>> observation["observation"].shape, observation["action_mask"].dtype
((12, 7, 7), dtype('int8'))
>>> game.step(16)  # Black places a shooter on c3
>>> print(game.render())  # doctest: +ELLIPSIS
 7 . . . . . . .
...
 3 . . s . . . .
...
black to act (seat 0)

``env(game=name, ...)`` plays any game of :mod:`veletas.games` (Veletas by
default), with the keywords of that game's ``Board`` for its rules. Agents
``player_0`` and ``player_1`` are seats: ``player_0`` is the first player,
whichever colour the pie swap gives it. Actions are the action ids of the
game's encoding module (``veletas.games.<name>.encoding``); in Veletas one
agent acts for several steps in a row during a turn (``agent_selection``
stays on it). The observation is a dict: ``"observation"``, the float32
planes of the game seen by that agent (own and opponent planes trade places
for the agent not to act), and ``"action_mask"``, int8, all zeros for an
agent that is not to act. Rewards are +1 and -1 on the step that ends the
game; there is no truncation, since every game ends.

The environment has no randomness: ``reset(seed=...)`` accepts a seed and
changes nothing. An illegal action raises
:class:`~veletas.errors.IllegalMoveError` and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from veletas.extras import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:
    raise missing_extra("veletas.pettingzoo", "pettingzoo", error) from error

from veletas import games as registry

__all__ = ["GameEnv", "VeletasEnv", "env", "raw_env"]

AGENTS = ("player_0", "player_1")


def env(**kwargs: Any) -> AECEnv:
    """The environment, wrapped so that misuse (stepping before ``reset``)
    raises; keywords as for :class:`GameEnv`."""
    return wrappers.OrderEnforcingWrapper(GameEnv(**kwargs))


def raw_env(**kwargs: Any) -> GameEnv:
    """The environment without wrappers; keywords as for :class:`GameEnv`."""
    return GameEnv(**kwargs)


class GameEnv(AECEnv):
    """A game of :mod:`veletas.games` for two agents, one decision per step.

    :param game: the game's name, ``"veletas"`` by default.
    :param render_mode: ``None``, ``"ansi"`` (``render()`` returns the text)
        or ``"human"`` (``render()`` prints it).
    :param rules: the rules, as the game's ``Board`` takes them: for Veletas
        ``variant``, ``setup_rule``, ``shooters_block``,
        ``claimed_shooters_block``, ``size`` and ``shooters``; for Meridians ``size`` and ``pie``.
    :raises InvalidRulesError: for bad rules.
    :raises ValueError: for an unknown game or render mode.
    :raises TypeError: for a keyword the game does not take.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it as a class attribute)
        "render_modes": ["ansi", "human"],
        "name": "veletas_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, *, game: str = "veletas", render_mode: str | None = None, **rules: Any
    ) -> None:
        super().__init__()
        self.encoding = registry.get(game).encoding()
        """The game's encoding module (``veletas.games.<name>.encoding``)."""
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self._start = self.encoding.new_state(**rules)
        self.rules = self.encoding.rules_of(self._start)
        """The rules of the game."""
        self.state = self._start.copy()
        """The current decision (for Veletas: the position and partial turn)."""
        shape = self._start.observation().shape
        num_actions = self._start.num_actions
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in AGENTS}
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[self.state.seat_to_act]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game (the seed is accepted; the game has no randomness)."""
        self.state = self._start.copy()
        self._reset_bookkeeping()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        acting = (
            agent == self.agent_selection
            and not self.terminations[agent]
            and not self.state.is_terminal()
        )
        mask = (
            self.state.action_mask() if acting else np.zeros(self.state.num_actions, dtype=np.int8)
        )
        observation = self.encoding.observation_for(self.state, seat)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.state.is_terminal():
            winner = self.state.winner
            if winner is not None:
                seat = int(winner) ^ int(self.state.swapped)
                self.rewards[AGENTS[seat]] = 1.0
                self.rewards[AGENTS[1 - seat]] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            # Each agent now sees the end once, the one that did not act first.
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[self.state.seat_to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board, whose turn it is and the partial turn: returned in
        ``"ansi"`` mode, printed in ``"human"`` mode."""
        if self.render_mode is None:
            return None
        text = str(self.encoding.describe(self.state))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


# The name of the class when Veletas was the only game.
VeletasEnv = GameEnv
