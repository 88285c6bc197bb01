"""The envs of a ``VectorEnv`` of any game, played again as plain decision
states stepped one by one: what the vector env tests compare it with."""

from __future__ import annotations

from typing import Any

import numpy as np


class Oracle:
    """``env.num_envs`` copies of the decision state ``start``, stepped and
    reset by hand as the env steps and resets its envs."""

    def __init__(self, env: Any, start: Any) -> None:
        self.start = start
        self.states = [start.copy() for _ in range(env.num_envs)]
        self.auto_reset = env.auto_reset

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Takes ``actions``; returns the rewards by seat and the flags."""
        rewards = np.zeros((len(self.states), 2), np.float32)
        terminated = np.zeros(len(self.states), bool)
        for k, (state, action) in enumerate(zip(self.states, actions, strict=True)):
            if state.is_terminal():  # only without auto-reset: the env waits
                terminated[k] = True
                continue
            state.apply(int(action))
            if state.is_terminal():
                terminated[k] = True
                assert state.winner is not None
                seat = int(state.winner) ^ int(state.swapped)
                rewards[k, seat], rewards[k, 1 - seat] = 1.0, -1.0
                if self.auto_reset:
                    self.states[k] = self.start.copy()
        return rewards, terminated

    def check(self, env: Any, obs: np.ndarray, mask: np.ndarray, player: np.ndarray) -> None:
        """Asserts that ``env`` and what it returned agree with the states."""
        for k, state in enumerate(self.states):
            assert env.state(k) == state
            np.testing.assert_array_equal(obs[k], state.observation())
            np.testing.assert_array_equal(mask[k], state.action_mask())
            assert player[k] == (-1 if state.is_terminal() else state.seat_to_act)


def uniform_masked(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of ``mask`` (0 where none is)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)
