"""``veletas.gymnasium``: the native vector envs as a Gymnasium ``VectorEnv``.

>>> import veletas.gymnasium
>>> env = veletas.gymnasium.make_vec(8, variant="small", opponent="random", seed=1)
>>> obs, infos = env.reset(seed=1)
>>> obs.shape, infos["action_mask"].shape, int(env.single_action_space.n)
((8, 12, 7, 7), (8, 51), 51)
>>> env.metadata["autoreset_mode"]
<AutoresetMode.SAME_STEP: 'SameStep'>

Each step takes one action per env (an id of the game's action encoding)
and returns ``(obs, rewards, terminations, truncations, infos)``:

- ``infos["action_mask"]`` (int8, one row per env) marks the legal actions
  of each env's next decision;
- auto-reset follows Gymnasium's ``AutoresetMode.SAME_STEP``: the step that
  ends an episode returns the first observation of the next one, with the
  last observation of the ended one in ``infos["final_obs"]`` (an object
  array, the observation where ``infos["_final_obs"]`` is true, None
  elsewhere); its reward is that step's reward;
- rewards are from the view of the seat that acted: against an
  ``opponent``, always the learner, +1 for a won episode and -1 for a lost
  one on the step that ends it, 0 otherwise; in self-play (no opponent),
  the result for the seat that made the decision (``docs/rl.md``).

Gymnasium is an optional dependency: ``pip install "veletas[gymnasium]"``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ImportError as error:  # pragma: no cover - the extra installs it
    from veletas.extras import missing_extra

    raise missing_extra("veletas.gymnasium", "gymnasium", error) from error

from veletas import games as registry
from veletas._checks import shown

__all__ = ["OpponentFunction", "VeletasVectorEnv", "make_vec"]

OpponentFunction = Callable[[np.ndarray, np.ndarray], Any]
"""A Python opponent: called with the observations (float32, ``(m, *shape)``)
and action masks (int8, ``(m, num_actions)``) of the ``m`` envs where it is
to act, it returns their ``m`` actions."""


def make_vec(
    num_envs: int,
    game: str = "veletas",
    *,
    opponent: str | OpponentFunction | None = None,
    learner_seat: int | str = 0,
    max_steps: int | None = None,
    seed: int = 0,
    start: Any = None,
    copy: bool = False,
    **rules: Any,
) -> VeletasVectorEnv:
    """``num_envs`` games of ``game`` as a Gymnasium vector env.

    :param game: a name of :mod:`veletas.games`; ``rules`` are the game's
        keywords (Veletas: ``variant``, ``setup_rule``, ``shooters_block``,
        ``claimed_shooters_block``, ``size``, ``shooters``; Meridians: ``size``, ``pie``).
    :param opponent: None for self-play; ``"random"``, ``"greedy"`` or an
        MCTS spec (``"mcts:iterations=200"``, the grammar of
        ``veletas match``), played in Rust inside the step; or a Python
        callable (:data:`OpponentFunction`).
    :param learner_seat: 0, 1 or ``"alternate"`` (episode ``e`` of env ``k``
        from seat ``(e + k) % 2``), with an opponent.
    :param max_steps: truncate an episode after this many steps of the
        learner (of both seats in self-play); None never truncates.
    :param seed: the seed of the random streams (the random opponent, the
        greedy and search opponents' choices, ``random_actions``).
    :param start: the position episodes start from: a position string or a
        board, or one per env.
    :param copy: return new observation and action mask arrays every call,
        rather than read-only views of the env's buffers that the next call
        rewrites.
    :raises ValueError: (a :mod:`veletas.errors` type where there is one) for
        a bad game, rule, opponent spec, seat, ``max_steps`` or start.
    """
    return VeletasVectorEnv(
        num_envs,
        game,
        opponent=opponent,
        learner_seat=learner_seat,
        max_steps=max_steps,
        seed=seed,
        start=start,
        copy=copy,
        **rules,
    )


class VeletasVectorEnv(gymnasium.vector.VectorEnv):
    """A native ``VectorEnv`` of any game of :mod:`veletas.games` as a
    Gymnasium ``VectorEnv``; made by :func:`make_vec`.

    ``vector_env`` is the native env underneath; ``state(k)`` is env ``k``'s
    decision state.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # Gymnasium's own class attribute
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        game: str = "veletas",
        *,
        opponent: str | OpponentFunction | None = None,
        learner_seat: int | str = 0,
        max_steps: int | None = None,
        seed: int = 0,
        start: Any = None,
        copy: bool = False,
        **rules: Any,
    ) -> None:
        env_type = registry.get(game).encoding().vector_env_type()
        callable_opponent = callable(opponent) and not isinstance(opponent, str)
        if max_steps is not None and (
            not isinstance(max_steps, numbers.Integral)
            or isinstance(max_steps, bool)
            or max_steps < 1
        ):
            raise ValueError(
                f"max_steps must be None or an int of 1 or more, got {shown(max_steps)}"
            )
        native_opponent = None if callable_opponent else opponent
        self.vector_env = env_type(
            num_envs,
            seed=seed,
            opponent=native_opponent,
            learner_seat=learner_seat,
            start=start,
            **rules,
        )
        self.game = game
        self.num_envs = self.vector_env.num_envs
        self.max_steps = None if max_steps is None else int(max_steps)
        self.copy = bool(copy)
        self._opponent: OpponentFunction | None = opponent if callable_opponent else None  # type: ignore[assignment]
        self._alternate = learner_seat == "alternate"
        self._fixed_seat = 0 if self._alternate else int(learner_seat)
        shape = self.vector_env.observation_shape
        n_actions = self.vector_env.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, shape, np.float32)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )
        self._rows = np.arange(self.num_envs)
        self._steps = np.zeros(self.num_envs, dtype=np.int64)
        self._episodes = np.zeros(self.num_envs, dtype=np.int64)
        self._fresh = True
        self._obs, self._mask, self._player = self.vector_env.reset()
        if self._opponent is not None:
            self._obs, self._mask, self._player = self._reply(self._obs, self._mask, self._player)[
                :3
            ]

    # ------------------------------------------------------------------
    # Gymnasium's API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every env, or those of ``options["reset_mask"]`` (a bool
        array, Gymnasium's convention); ``options["start"]`` gives new start
        positions (one, or one per env). With ``seed``, the reset envs start
        episode 0 of that seed's streams; without, each starts its next
        episode (so episodes do not repeat), except on the first reset,
        which plays episode 0 of the constructor's seed."""
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        start = options.pop("start", None)
        if options:
            raise ValueError(
                f"unknown reset options {sorted(options)!r}; expected 'reset_mask' and 'start'"
            )
        if mask is not None:
            mask = np.asarray(mask)
            if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape ({self.num_envs},), "
                    f"got dtype {mask.dtype} and shape {mask.shape}"
                )
        super().reset(seed=seed)
        if mask is None and seed is None and not self._fresh:
            # Continue with fresh streams: every env starts its next episode.
            mask = np.ones(self.num_envs, dtype=np.bool_)
        self._obs, self._mask, self._player = self.vector_env.reset(
            seed=seed, mask=mask, start=start
        )
        chosen = slice(None) if mask is None else mask
        self._steps[chosen] = 0
        if mask is None or seed is not None:
            self._episodes[chosen] = 0
        else:
            self._episodes[chosen] += 1
        self._fresh = False
        if self._opponent is not None:
            self._obs, self._mask, self._player = self._reply(self._obs, self._mask, self._player)[
                :3
            ]
        return self._out(self._obs), {"action_mask": self._out(self._mask)}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Take ``actions[k]`` in env ``k`` (its opponent's replies follow);
        an illegal action raises ``IllegalMoveError`` and changes nothing."""
        self._fresh = False
        actor = self._player.copy()  # the native step rewrites the buffer
        native = self.vector_env
        obs, mask, seat_rewards, terminated, player = native.step(actions)
        # The seats' rewards sum to zero: the actor's is seat 0's, signed.
        # (Cheaper than picking each env's column by fancy indexing.)
        rewards = seat_rewards[:, 0] * (1 - 2 * actor.astype(np.float32))
        terminations = terminated.copy()
        final_obs = None
        if terminations.any():
            final_obs = native.final_observations[terminations]
            self._episodes[terminations] += 1
        if self._opponent is not None:
            obs, mask, player, more = self._reply(obs, mask, player)
            if more is not None:
                ended, their_rewards, their_final = more
                # An episode that the opponent ended: the learner lost it.
                rewards = rewards + their_rewards
                if final_obs is None:
                    final_obs = their_final
                else:
                    merged = np.empty((self.num_envs, *obs.shape[1:]), np.float32)
                    merged[terminations] = final_obs
                    merged[ended] = their_final
                    final_obs = merged[terminations | ended]
                terminations |= ended
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        if self.max_steps is not None:
            self._steps += 1
            self._steps[terminations] = 0
            truncations = self._steps >= self.max_steps
            if truncations.any():
                ended_obs = np.empty((self.num_envs, *obs.shape[1:]), np.float32)
                if final_obs is not None:
                    ended_obs[terminations] = final_obs
                ended_obs[truncations] = obs[truncations]
                final_obs = ended_obs[terminations | truncations]
                self._steps[truncations] = 0
                self._episodes[truncations] += 1
                obs, mask, player = native.reset(mask=truncations)
                if self._opponent is not None:
                    obs, mask, player = self._reply(obs, mask, player)[:3]
        self._obs, self._mask, self._player = obs, mask, player
        infos: dict[str, Any] = {"action_mask": self._out(mask)}
        if final_obs is not None:
            done = terminations | truncations
            boxed = np.full(self.num_envs, None, dtype=object)
            for row, k in enumerate(np.flatnonzero(done)):
                boxed[k] = final_obs[row]
            infos["final_obs"] = boxed
            infos["_final_obs"] = done
            infos["final_info"] = {}
            infos["_final_info"] = done.copy()
        return self._out(obs), rewards, terminations, truncations, infos

    # ------------------------------------------------------------------
    # The rest

    def state(self, index: int) -> Any:
        """Env ``index``'s current decision state."""
        return self.vector_env.state(index)

    def _out(self, obs: np.ndarray) -> np.ndarray:
        return obs.copy() if self.copy else obs

    def _seats(self) -> np.ndarray:
        """The learner's seat in each env's current episode."""
        if self._alternate:
            return (self._episodes + self._rows) % 2
        return np.full(self.num_envs, self._fixed_seat)

    def _reply(
        self, obs: np.ndarray, mask: np.ndarray, player: np.ndarray
    ) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray] | None
    ]:
        """Let the Python opponent act wherever it is to, until the learner is
        to act everywhere; returns the outputs and, if the opponent ended
        episodes, which, with their rewards for the learner and final
        observations."""
        assert self._opponent is not None
        native = self.vector_env
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        final = np.zeros((self.num_envs, *self.vector_env.observation_shape), np.float32)
        while True:
            seats = self._seats()
            theirs = (player >= 0) & (player != seats)
            if not theirs.any():
                break
            chosen = np.asarray(self._opponent(obs[theirs].copy(), mask[theirs].copy()))
            if chosen.shape != (int(theirs.sum()),):
                raise ValueError(
                    f"the opponent must return one action per env it plays "
                    f"({int(theirs.sum())}), got shape {chosen.shape}"
                )
            actions = np.zeros(self.num_envs, dtype=np.int64)
            actions[theirs] = chosen
            obs, mask, seat_rewards, terminated, player = native.step(actions, active=theirs)
            if terminated.any():
                rewards[terminated] = seat_rewards[terminated, seats[terminated]]
                final[terminated] = native.final_observations[terminated]
                ended |= terminated
                self._episodes[terminated] += 1
        if not ended.any():
            return obs, mask, player, None
        return obs, mask, player, (ended, rewards, final[ended])
