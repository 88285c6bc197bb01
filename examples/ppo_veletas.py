"""A PPO agent with masked actions that learns Veletas 7x7 against a random
opponent, written against the Gymnasium vector interface
(:func:`veletas.gymnasium.make_vec`). docs/rl.md shows its learning curve.

    pip install "veletas[examples]"
    python examples/ppo_veletas.py --minutes 10 --out runs/

The learner plays 64 envs of ``variant="small"`` against ``opponent="random"``
with ``learner_seat="alternate"``, and sees only its own decisions. The
policy is an MLP over the observation planes whose logits for illegal
actions (``infos["action_mask"]`` is 0) are set to -1e9 before the softmax,
so it never samples or chooses an illegal action and the entropy bonus
counts only legal ones.

Every minute of training (``--eval-every``) the greedy policy (its most
probable legal action) plays 400 games against ``random`` (``--eval-games``),
half from each seat; the win rates go to ``ppo_veletas.csv`` and
``ppo_veletas.json`` in ``--out``, with a plot, ``ppo_veletas.png``. The
budget (``--minutes``) counts training time, compilation included; the
evaluations are off the clock. The learning rate falls linearly to 0 at the
end of the budget.

Why JAX: a CPU-only machine that installs from PyPI alone. PyPI's default
torch wheel for Linux brings the CUDA libraries, several GB; ``jax`` from
PyPI is the CPU build (``jaxlib``, about 350 MB installed), and ``jax.jit``
compiles each update step (forward, loss, gradient and Adam) into one fused
function, which keeps a small network fast on a CPU. ``optax`` supplies Adam
and gradient clipping.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
import veletas.gymnasium

Params = dict[str, jax.Array]


@dataclasses.dataclass(frozen=True)
class Config:
    """The hyperparameters (the defaults are the ones of docs/rl.md)."""

    variant: str = "small"
    num_envs: int = 64
    rollout_steps: int = 64
    hidden: int = 256
    learning_rate: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    entropy_coef: float = 0.003
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    anneal: bool = True
    seed: int = 0


class Rollout(NamedTuple):
    obs: np.ndarray  # (T, N, D) float32
    mask: np.ndarray  # (T, N, A) bool
    actions: np.ndarray  # (T, N) int32
    logp: np.ndarray  # (T, N) float32
    values: np.ndarray  # (T, N) float32
    rewards: np.ndarray  # (T, N) float32
    dones: np.ndarray  # (T, N) float32


def init_params(
    key: jax.Array, obs_shape: tuple[int, ...], config: Config, num_actions: int
) -> Params:
    """The weights of an MLP: two hidden layers of ``config.hidden`` units
    shared by the policy head (one logit per action) and the value head."""

    def dense(k: jax.Array, n_in: int, n_out: int, scale: float) -> jax.Array:
        return jax.nn.initializers.orthogonal(scale)(k, (n_in, n_out), jnp.float32)

    obs_dim, hidden = int(np.prod(obs_shape)), config.hidden
    k1, k2, k3, k4 = jax.random.split(key, 4)
    return {
        "w1": dense(k1, obs_dim, hidden, np.sqrt(2)),
        "b1": jnp.zeros(hidden),
        "w2": dense(k2, hidden, hidden, np.sqrt(2)),
        "b2": jnp.zeros(hidden),
        "wp": dense(k3, hidden, num_actions, 0.01),
        "bp": jnp.zeros(num_actions),
        "wv": dense(k4, hidden, 1, 1.0),
        "bv": jnp.zeros(1),
    }


def forward(params: Params, obs: jax.Array, mask: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Log-probabilities over the actions (illegal ones at -inf in effect) and values."""
    h = jax.nn.relu(obs @ params["w1"] + params["b1"])
    h = jax.nn.relu(h @ params["w2"] + params["b2"])
    logits = h @ params["wp"] + params["bp"]
    # Illegal actions get a very negative logit, so their probability is 0.
    logits = jnp.where(mask, logits, -1e9)
    value = (h @ params["wv"] + params["bv"])[:, 0]
    return jax.nn.log_softmax(logits), value


@jax.jit
def act(
    params: Params, obs: jax.Array, mask: jax.Array, key: jax.Array
) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Sample one legal action per env; return it with its log-probability and the value."""
    logp, value = forward(params, obs, mask)
    action = jax.random.categorical(key, logp)
    return action, jnp.take_along_axis(logp, action[:, None], 1)[:, 0], value


@jax.jit
def greedy(params: Params, obs: jax.Array, mask: jax.Array) -> jax.Array:
    """The most probable legal action of each env."""
    return jnp.argmax(forward(params, obs, mask)[0], axis=1)


def gae(rollout: Rollout, last_value: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """Generalised advantage estimates. ``dones[t]`` ends the episode at step t:
    the observation after it is the next episode's first, so nothing is
    bootstrapped across it."""
    steps = rollout.rewards.shape[0]
    adv = np.zeros_like(rollout.rewards)
    running = np.zeros_like(last_value)
    for t in reversed(range(steps)):
        next_value = last_value if t == steps - 1 else rollout.values[t + 1]
        live = 1.0 - rollout.dones[t]
        delta = rollout.rewards[t] + gamma * next_value * live - rollout.values[t]
        running = delta + gamma * lam * live * running
        adv[t] = running
    return adv


def make_update(
    config: Config, optimizer: optax.GradientTransformation
) -> Callable[..., tuple[Params, Any, dict[str, jax.Array]]]:
    def loss_fn(
        params: Params, batch: dict[str, jax.Array]
    ) -> tuple[jax.Array, dict[str, jax.Array]]:
        logp_all, value = forward(params, batch["obs"], batch["mask"])
        logp = jnp.take_along_axis(logp_all, batch["actions"][:, None], 1)[:, 0]
        ratio = jnp.exp(logp - batch["logp"])
        adv = batch["adv"]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        policy_loss = -jnp.minimum(
            ratio * adv, jnp.clip(ratio, 1 - config.clip, 1 + config.clip) * adv
        ).mean()
        value_loss = 0.5 * ((value - batch["returns"]) ** 2).mean()
        # Entropy over the legal actions only (illegal ones have p = 0).
        entropy = -(jnp.where(batch["mask"], jnp.exp(logp_all) * logp_all, 0.0)).sum(1).mean()
        loss = policy_loss + config.value_coef * value_loss - config.entropy_coef * entropy
        return loss, {
            "loss": loss,
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
        }

    @jax.jit
    def update(
        params: Params, opt_state: Any, batch: dict[str, jax.Array]
    ) -> tuple[Params, Any, dict[str, jax.Array]]:
        grads, stats = jax.grad(loss_fn, has_aux=True)(params, batch)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, stats

    return update


def evaluate_by_seat(
    params: Params, *, variant: str = "small", games: int = 400, seed: int = 1, sample: bool = False
) -> np.ndarray:
    """The policy's wins against ``random`` by its seat, in ``games`` games
    (an even number), each seat playing half of them: ``games // 2`` envs
    play two episodes each, and with ``learner_seat="alternate"`` episode
    ``e`` of env ``k`` is played from seat ``(e + k) % 2``. The policy plays
    its most probable legal action, or samples if ``sample``."""
    if games < 2 or games % 2:
        raise ValueError(f"games must be an even number of 2 or more, got {games!r}")
    n = games // 2
    env = veletas.gymnasium.make_vec(
        n, game="veletas", variant=variant, opponent="random", learner_seat="alternate", seed=seed
    )
    obs, infos = env.reset(seed=seed)
    key = jax.random.PRNGKey(seed)
    episode = np.zeros(n, np.int64)
    wins = np.zeros(2, np.int64)
    while (episode < 2).any():
        flat = obs.reshape(n, -1)
        mask = infos["action_mask"].astype(bool)
        if sample:
            key, sub = jax.random.split(key)
            actions = np.asarray(act(params, flat, mask, sub)[0])
        else:
            actions = np.asarray(greedy(params, flat, mask))
        obs, rewards, terms, truncs, infos = env.step(actions)
        for k in np.flatnonzero((terms | truncs) & (episode < 2)):
            wins[(episode[k] + k) % 2] += rewards[k] > 0
        episode += terms | truncs
    env.close()
    return wins


def evaluate(
    params: Params, *, variant: str = "small", games: int = 400, seed: int = 1, sample: bool = False
) -> float:
    """The policy's win rate against ``random`` (:func:`evaluate_by_seat`)."""
    wins = evaluate_by_seat(params, variant=variant, games=games, seed=seed, sample=sample)
    return float(wins.sum() / games)


class Trainer:
    """PPO on ``config.num_envs`` envs against ``random`` with alternating seats."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.env = veletas.gymnasium.make_vec(
            config.num_envs,
            game="veletas",
            variant=config.variant,
            opponent="random",
            learner_seat="alternate",
            seed=config.seed,
        )
        obs_shape = self.env.single_observation_space.shape
        self.obs_dim = int(np.prod(obs_shape))
        self.num_actions = int(self.env.single_action_space.n)
        self.key = jax.random.PRNGKey(config.seed)
        self.key, sub = jax.random.split(self.key)
        self.params = init_params(sub, tuple(obs_shape), config, self.num_actions)
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(config.max_grad_norm),
            optax.inject_hyperparams(optax.adam)(learning_rate=config.learning_rate, eps=1e-5),
        )
        self.opt_state = self.optimizer.init(self.params)
        self._update = make_update(config, self.optimizer)
        obs, infos = self.env.reset(seed=config.seed)
        self.obs = obs.reshape(config.num_envs, -1).astype(np.float32)
        self.mask = infos["action_mask"].astype(bool)
        self.steps = 0  # the learner's decisions so far, over all envs
        self.episodes = 0

    def collect(self) -> tuple[Rollout, np.ndarray]:
        """``rollout_steps`` steps of every env with the current policy."""
        c = self.config
        t_, n = c.rollout_steps, c.num_envs
        obs = np.zeros((t_, n, self.obs_dim), np.float32)
        mask = np.zeros((t_, n, self.num_actions), bool)
        actions = np.zeros((t_, n), np.int32)
        logp = np.zeros((t_, n), np.float32)
        values = np.zeros((t_, n), np.float32)
        rewards = np.zeros((t_, n), np.float32)
        dones = np.zeros((t_, n), np.float32)
        for t in range(t_):
            self.key, sub = jax.random.split(self.key)
            a, lp, v = act(self.params, self.obs, self.mask, sub)
            obs[t], mask[t] = self.obs, self.mask
            actions[t], logp[t], values[t] = np.asarray(a), np.asarray(lp), np.asarray(v)
            next_obs, rew, term, trunc, infos = self.env.step(actions[t])
            ended = term | trunc
            rewards[t], dones[t] = rew, ended
            self.episodes += int(ended.sum())
            self.obs = next_obs.reshape(n, -1).astype(np.float32)
            self.mask = infos["action_mask"].astype(bool)
        self.steps += t_ * n
        _, _, last_value = act(self.params, self.obs, self.mask, self.key)
        return Rollout(obs, mask, actions, logp, values, rewards, dones), np.asarray(last_value)

    def train_iteration(self, progress: float = 0.0) -> dict[str, float]:
        """Collect one rollout and run the PPO epochs on it; the mean losses.
        ``progress`` (0 to 1, the fraction of the budget spent) lowers the
        learning rate linearly to 0 at the end of the budget, if ``anneal``."""
        c = self.config
        if c.anneal:
            self.opt_state[1].hyperparams["learning_rate"] = jnp.asarray(
                c.learning_rate * max(1.0 - progress, 0.0), jnp.float32
            )
        rollout, last_value = self.collect()
        adv = gae(rollout, last_value, c.gamma, c.gae_lambda)
        size = c.rollout_steps * c.num_envs
        data = {
            "obs": rollout.obs.reshape(size, -1),
            "mask": rollout.mask.reshape(size, -1),
            "actions": rollout.actions.reshape(size),
            "logp": rollout.logp.reshape(size),
            "adv": adv.reshape(size),
            "returns": (adv + rollout.values).reshape(size),
        }
        rng = np.random.default_rng(self.steps)
        stats: list[dict[str, jax.Array]] = []
        batch = size // c.minibatches
        for _ in range(c.epochs):
            order = rng.permutation(size)
            for i in range(c.minibatches):
                idx = order[i * batch : (i + 1) * batch]
                self.params, self.opt_state, s = self._update(
                    self.params, self.opt_state, {k: v[idx] for k, v in data.items()}
                )
                stats.append(s)
        return {k: float(np.mean([float(s[k]) for s in stats])) for k in stats[0]}


def plot(curve: list[dict[str, float]], games: int, path: Path) -> None:
    """The win rate against ``random`` by training time, overall and by seat."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    minutes = [row["minutes"] for row in curve]
    ax.plot(minutes, [100 * row["win_rate"] for row in curve], marker="o", label="both seats")
    for seat, style in ((0, "^"), (1, "v")):
        ax.plot(
            minutes,
            [100 * row[f"win_rate_seat{seat}"] for row in curve],
            marker=style,
            linewidth=0.8,
            alpha=0.6,
            label=f"as seat {seat}",
        )
    ax.axhline(80, color="grey", linestyle="--", linewidth=1, label="80%")
    ax.axhline(50, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("training time (minutes, compilation included)")
    ax.set_ylabel("win rate vs random (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"PPO on Veletas 7x7 against random: {games} greedy games a point", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--minutes", type=float, default=10.0, help="training time, compilation included"
    )
    parser.add_argument("--eval-every", type=float, default=1.0, help="minutes between evaluations")
    parser.add_argument(
        "--eval-games", type=int, default=400, help="games per evaluation (even: half per seat)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and the network")
    parser.add_argument("--out", type=Path, default=Path("."), help="folder for the curve and plot")
    defaults = Config()
    parser.add_argument(
        "--num-envs", type=int, default=defaults.num_envs, help="envs stepped together"
    )
    parser.add_argument(
        "--rollout-steps", type=int, default=defaults.rollout_steps, help="steps per env per update"
    )
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="hidden layer width")
    parser.add_argument(
        "--learning-rate", type=float, default=defaults.learning_rate, help="Adam's, at the start"
    )
    parser.add_argument(
        "--entropy-coef", type=float, default=defaults.entropy_coef, help="entropy bonus weight"
    )
    args = parser.parse_args(argv)
    if args.eval_games < 2 or args.eval_games % 2:
        parser.error(f"--eval-games must be an even number of 2 or more, got {args.eval_games}")
    if args.minutes <= 0 or args.eval_every <= 0:
        parser.error("--minutes and --eval-every must be positive")
    config = dataclasses.replace(
        defaults,
        seed=args.seed,
        num_envs=args.num_envs,
        rollout_steps=args.rollout_steps,
        hidden=args.hidden,
        learning_rate=args.learning_rate,
        entropy_coef=args.entropy_coef,
    )
    args.out.mkdir(parents=True, exist_ok=True)

    budget = args.minutes * 60
    trained = 0.0  # training seconds so far, compilation included
    curve: list[dict[str, float]] = []

    def record(trainer: Trainer, stats: dict[str, float]) -> None:
        wins = evaluate_by_seat(
            trainer.params, variant=config.variant, games=args.eval_games, seed=10_000 + len(curve)
        )
        rate = float(wins.sum() / args.eval_games)
        half = args.eval_games // 2
        row = {
            "minutes": round(trained / 60, 3),
            "steps": trainer.steps,
            "win_rate": rate,
            "win_rate_seat0": float(wins[0] / half),
            "win_rate_seat1": float(wins[1] / half),
            **stats,
        }
        curve.append(row)
        print(
            f"{row['minutes']:6.2f} min  {row['steps']:>9} steps  win rate {100 * rate:5.1f}%  "
            + "  ".join(f"{k} {v:.3f}" for k, v in stats.items()),
            flush=True,
        )

    start = time.perf_counter()
    trainer = Trainer(config)
    trained += time.perf_counter() - start
    record(trainer, {})
    next_eval = args.eval_every * 60
    stats: dict[str, float] = {}
    # At least one iteration, and a point at the end of the budget, however
    # long building the trainer took.
    while True:
        start = time.perf_counter()
        stats = trainer.train_iteration(min(trained / budget, 1.0))
        trained += time.perf_counter() - start
        done = trained >= budget
        if trained >= next_eval or done:
            record(trainer, stats)
            next_eval += args.eval_every * 60
        if done:
            break

    # A last evaluation on games of its own seed: the figure the docs quote.
    final = evaluate(trainer.params, variant=config.variant, games=args.eval_games, seed=99)
    summary = {
        "config": dataclasses.asdict(config),
        "curve": curve,
        "final_win_rate": final,
        "eval_games": args.eval_games,
    }
    (args.out / "ppo_veletas.json").write_text(json.dumps(summary, indent=2) + "\n")
    with (args.out / "ppo_veletas.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(curve[-1]))
        writer.writeheader()
        writer.writerows(curve)
    plot(curve, args.eval_games, args.out / "ppo_veletas.png")
    print(f"final: {100 * final:.1f}% of {args.eval_games} games won against random")


if __name__ == "__main__":
    main()
