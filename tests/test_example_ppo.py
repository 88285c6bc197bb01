"""A short run of ``examples/ppo_veletas.py``, the PPO agent of docs/rl.md:
the losses stay finite and every action the policy takes, sampled or greedy,
is legal under the env's action mask.

JAX and optax come with the ``examples`` extra (which the ``test`` extra
includes); without them the test skips, except under
``VELETAS_REQUIRE_EXAMPLES=1`` (set by ``.ci/run``), where it fails.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import os
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ppo_veletas.py"


def _requirement(name: str) -> None:
    if importlib.util.find_spec(name) is None:
        reason = f"{name} is not installed (pip install 'veletas[examples]')"
        if os.environ.get("VELETAS_REQUIRE_EXAMPLES") == "1":
            pytest.fail(f"{reason}; VELETAS_REQUIRE_EXAMPLES=1 requires the example's test to run")
        pytest.skip(reason, allow_module_level=True)


for _name in ("jax", "optax", "gymnasium", "matplotlib"):
    _requirement(_name)


@pytest.fixture(scope="module")
def ppo() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ppo_veletas", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ppo_veletas"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def small(ppo: ModuleType) -> object:
    """A tiny configuration: 8 envs x 32 steps per rollout."""
    return dataclasses.replace(
        ppo.Config(), num_envs=8, rollout_steps=32, hidden=32, epochs=2, minibatches=2, seed=3
    )


def test_training_steps_are_legal_and_losses_finite(ppo: ModuleType) -> None:
    trainer = ppo.Trainer(small(ppo))
    for iteration in range(2):
        rollout, last_value = trainer.collect()
        # The sampled actions: each one legal under the mask it was drawn with.
        chosen = np.take_along_axis(rollout.mask, rollout.actions[..., None], axis=2)
        assert chosen.all()
        assert rollout.mask.any(axis=2).all()  # every recorded decision had a legal action
        assert np.isfinite(last_value).all()
        # The greedy policy on the same decisions.
        flat_obs = rollout.obs.reshape(-1, rollout.obs.shape[-1])
        flat_mask = rollout.mask.reshape(-1, rollout.mask.shape[-1])
        best = np.asarray(ppo.greedy(trainer.params, flat_obs, flat_mask))
        assert flat_mask[np.arange(len(best)), best].all()
        stats = trainer.train_iteration(progress=iteration / 2)
        assert set(stats) == {"loss", "policy_loss", "value_loss", "entropy"}
        assert all(math.isfinite(value) for value in stats.values()), stats
    # Two collects and two iterations: 4 rollouts of 8 x 32 steps.
    assert trainer.steps == 4 * 8 * 32
    assert trainer.episodes > 0  # a 7x7 game is about 45 of the learner's decisions


def test_gae_stops_at_episode_ends(ppo: ModuleType) -> None:
    # Two steps of one env; the episode ends at step 0 with +1, so step 0's
    # advantage ignores step 1's value, and step 1 bootstraps from last_value.
    rollout = ppo.Rollout(
        obs=np.zeros((2, 1, 1), np.float32),
        mask=np.ones((2, 1, 1), bool),
        actions=np.zeros((2, 1), np.int32),
        logp=np.zeros((2, 1), np.float32),
        values=np.array([[0.5], [0.25]], np.float32),
        rewards=np.array([[1.0], [0.0]], np.float32),
        dones=np.array([[1.0], [0.0]], np.float32),
    )
    adv = ppo.gae(rollout, np.array([1.0], np.float32), gamma=0.5, lam=0.5)
    np.testing.assert_allclose(adv[:, 0], [1.0 - 0.5, 0.5 * 1.0 - 0.25])


def test_command_writes_the_curve_and_the_plot(ppo: ModuleType, tmp_path: Path) -> None:
    ppo.main(
        ["--minutes", "0.02", "--eval-games", "8", "--num-envs", "8", "--rollout-steps", "16",
         "--hidden", "32", "--out", str(tmp_path)]
    )  # fmt: skip
    summary = json.loads((tmp_path / "ppo_veletas.json").read_text())
    assert summary["config"]["num_envs"] == 8
    assert 0.0 <= summary["final_win_rate"] <= 1.0
    assert len(summary["curve"]) >= 2  # before training and at the end of the budget
    assert summary["curve"][0]["steps"] == 0
    header = (tmp_path / "ppo_veletas.csv").read_text().splitlines()[0]
    assert header.startswith("minutes,steps,win_rate")
    assert (tmp_path / "ppo_veletas.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_evaluation_counts_each_seat_once_per_env(ppo: ModuleType) -> None:
    import jax

    params = ppo.init_params(jax.random.PRNGKey(0), (12, 7, 7), small(ppo), 51)
    wins = ppo.evaluate_by_seat(params, games=8, seed=4)
    assert wins.shape == (2,)
    assert ((wins >= 0) & (wins <= 4)).all()  # 4 games from each seat
    assert ppo.evaluate(params, games=8, seed=4) == wins.sum() / 8  # the same games
    with pytest.raises(ValueError, match="even number"):
        ppo.evaluate(params, games=7)
