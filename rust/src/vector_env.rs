//! Many games stepped at once for reinforcement learning, writing
//! observations, action masks, rewards and flags into caller-owned buffers.
//!
//! [`VectorEnv`] is written against [`Game`] plus [`Observe`], so every game
//! of the family that can draw itself as planes gets it.
//!
//! - **Rewards** are per seat: on the step that ends an episode the winning
//!   seat gets `+1` and the other `-1` (both `0` if nobody won); every other
//!   step gives `0`.
//! - **Auto-reset**: with `auto_reset`, an env whose episode ends is put back
//!   at the start in the same step; `terminated` says so, and the observation,
//!   mask and player written for it are those of the new episode's first
//!   decision. Without it, a finished env stays finished until
//!   [`VectorEnv::reset`]: its actions are ignored, it reports `terminated`
//!   again with zero rewards, an all-zero mask and player `-1`.
//! - **Randomness**: the games have none. The seed only feeds
//!   [`VectorEnv::random_actions`]: episode `e` of env `k` (counted from the
//!   last reset) draws with the stream of game `e * num_envs + k`
//!   ([`Rng::for_game`]), one draw per decision as the "micro" policy does,
//!   so stepped with its random actions it plays exactly the playout game of
//!   that index. The draw is made when the decision is reached, in the
//!   parallel step, whatever action is then taken.
//! - **Observations are updated in place**: a step rewrites only the floats
//!   of an observation that changed, so `out.observations` must still hold
//!   what the last [`VectorEnv::reset`] or [`VectorEnv::step`] of this env
//!   wrote there. A buffer other than the last one written is written in
//!   full, and `reset` always writes in full.
//!
//! Envs are independent, so they are stepped in parallel (with rayon) once
//! there are enough of them; results never depend on the thread count.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::game::{Action, ActionSet, Game};
use crate::rng::Rng;

/// A game state that can be shown to a learner.
pub trait Observe: Game {
    /// The observation's shape: (planes, height, width).
    fn observation_shape(&self) -> [usize; 3];

    /// Writes the observation of the current decision into `out`, which has
    /// `planes * height * width` floats; every float is overwritten.
    fn write_observation(&self, out: &mut [f32]);

    /// Turns `out`, which holds the observation of `shown`, into the
    /// observation of `self`; by default by writing it in full.
    fn update_observation(&self, _shown: &Self, out: &mut [f32]) {
        self.write_observation(out);
    }

    /// Writes 1 for every action of `actions` and 0 for every other id into
    /// `out`, which has `num_actions()` entries.
    fn write_mask(actions: &Self::Actions, out: &mut [i8]) {
        for (id, slot) in out.iter_mut().enumerate() {
            *slot = i8::from(actions.contains(id as Action));
        }
    }
}

/// The buffers one [`VectorEnv::reset`] or [`VectorEnv::step`] writes, env
/// after env.
pub struct Outputs<'a> {
    /// `num_envs` observations.
    pub observations: &'a mut [f32],
    /// `num_envs * num_actions` mask entries.
    pub masks: &'a mut [i8],
    /// `num_envs * 2` rewards, by seat.
    pub rewards: &'a mut [f32],
    /// `num_envs` flags: the episode ended in this step.
    pub terminated: &'a mut [bool],
    /// `num_envs` seats to act (`-1` for a finished env).
    pub current_player: &'a mut [i8],
}

/// An action that an env cannot take now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadAction {
    /// The env's index.
    pub env: usize,
    /// The refused action, as given.
    pub action: i64,
    /// The env's legal actions, ascending.
    pub legal: Vec<Action>,
}

impl core::fmt::Display for BadAction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "action {} is not legal in env {}; legal actions: {:?}",
            self.action, self.env, self.legal
        )
    }
}

impl std::error::Error for BadAction {}

/// Below this many envs a step runs on the calling thread: spreading a few
/// microseconds of work over threads costs more than it saves.
const PARALLEL_MIN_ENVS: usize = 64;

/// Envs per run that a thread of a parallel step takes at a time.
const CHUNK_ENVS: usize = 32;

/// One env: its state, the episode it is in with that episode's random
/// stream, and the state whose observation was last written.
struct Slot<G: Game> {
    state: G,
    episode: u64,
    rng: Rng,
    shown: Option<G>,
}

/// One env's current decision: its legal actions and the random action
/// drawn for it.
///
/// The decisions are kept apart from the slots, in an array of their own:
/// checking the actions of a step and handing out the random actions are
/// serial passes over every env, and read only this small array.
struct Decision<A> {
    legal: A,
    random_action: i64,
}

impl<A: ActionSet> Decision<A> {
    /// The decision with the actions `legal`, and its random action drawn
    /// from `rng`: the `below(len)`-th legal action in ascending id order, as
    /// the "micro" policy does, or `-1` (drawing nothing) when the game is
    /// over.
    #[inline(always)]
    fn draw(legal: A, rng: &mut Rng) -> Decision<A> {
        let n = legal.len();
        let random_action = if n == 0 {
            -1
        } else {
            let k = rng.below(u64::from(n)) as u32;
            i64::from(legal.nth(k).expect("k is below the action count"))
        };
        Decision {
            legal,
            random_action,
        }
    }
}

/// `num_envs` games from the same start, stepped together.
///
/// # Examples
///
/// ```
/// use _veletas::vector_env::{Outputs, VectorEnv};
/// use _veletas::veletas::{DecisionState, Position, Rules, Variant};
///
/// let start = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
/// let mut env = VectorEnv::new(start, 4, 0, true);
/// let mut buffers = env.buffers();
/// env.reset(None, &mut buffers.outputs());
/// let mut actions = vec![0; 4];
/// env.random_actions(&mut actions);
/// env.step(&actions, &mut buffers.outputs()).unwrap();
/// assert!(buffers.current_player.iter().all(|&p| p == 0));
/// ```
pub struct VectorEnv<G: Game> {
    start: G,
    slots: Vec<Slot<G>>,
    /// The current decision of each env, beside its slot.
    decisions: Vec<Decision<G::Actions>>,
    seed: u64,
    auto_reset: bool,
    /// The address of the observation buffer last written.
    written: Option<usize>,
}

/// Owned buffers of the right sizes for a [`VectorEnv`] (the Python binding
/// uses numpy arrays instead).
#[derive(Clone, Debug, Default)]
pub struct Buffers {
    /// See [`Outputs::observations`].
    pub observations: Vec<f32>,
    /// See [`Outputs::masks`].
    pub masks: Vec<i8>,
    /// See [`Outputs::rewards`].
    pub rewards: Vec<f32>,
    /// See [`Outputs::terminated`].
    pub terminated: Vec<bool>,
    /// See [`Outputs::current_player`].
    pub current_player: Vec<i8>,
}

impl Buffers {
    /// The buffers, borrowed for one call.
    pub fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            observations: &mut self.observations,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            current_player: &mut self.current_player,
        }
    }
}

impl<G> VectorEnv<G>
where
    G: Observe,
    G::Actions: Send,
{
    /// `num_envs` copies of `start`, with the random streams of `seed`.
    pub fn new(start: G, num_envs: usize, seed: u64, auto_reset: bool) -> VectorEnv<G> {
        let (slots, decisions) = (0..num_envs)
            .map(|k| fresh_slot(&start, seed, num_envs, k, 0))
            .unzip();
        VectorEnv {
            start,
            slots,
            decisions,
            seed,
            auto_reset,
            written: None,
        }
    }

    /// The number of envs.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The number of action ids.
    pub fn num_actions(&self) -> usize {
        self.start.num_actions()
    }

    /// The shape of one observation.
    pub fn observation_shape(&self) -> [usize; 3] {
        self.start.observation_shape()
    }

    /// The seed of the random streams.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether finished envs restart in the step that ends them.
    pub fn auto_reset(&self) -> bool {
        self.auto_reset
    }

    /// The current state of env `k`.
    ///
    /// # Panics
    ///
    /// Panics if `k` is not below [`VectorEnv::num_envs`].
    pub fn state(&self, k: usize) -> &G {
        &self.slots[k].state
    }

    /// The episode env `k` is in, counted from 0 at the last reset.
    ///
    /// # Panics
    ///
    /// Panics if `k` is not below [`VectorEnv::num_envs`].
    pub fn episode(&self, k: usize) -> u64 {
        self.slots[k].episode
    }

    /// Buffers of the sizes [`VectorEnv::reset`] and [`VectorEnv::step`] write.
    pub fn buffers(&self) -> Buffers {
        let n = self.num_envs();
        let [planes, height, width] = self.observation_shape();
        Buffers {
            observations: vec![0.0; n * planes * height * width],
            masks: vec![0; n * self.num_actions()],
            rewards: vec![0.0; n * 2],
            terminated: vec![false; n],
            current_player: vec![0; n],
        }
    }

    /// Puts every env at the start of episode 0 (with a new seed if given)
    /// and writes their first decisions.
    ///
    /// # Panics
    ///
    /// Panics if a buffer has the wrong length.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        let n = self.num_envs();
        let envs = self.slots.iter_mut().zip(&mut self.decisions);
        for (k, (slot, decision)) in envs.enumerate() {
            (*slot, *decision) = fresh_slot(&self.start, self.seed, n, k, 0);
        }
        self.run(out, None);
    }

    /// Refuses `actions` unless each is legal in its env (any action will do
    /// for a finished env that waits for a reset).
    ///
    /// # Panics
    ///
    /// Panics if `actions` does not have one entry per env.
    pub fn check(&self, actions: &[i64]) -> Result<(), BadAction> {
        assert_eq!(actions.len(), self.num_envs(), "one action per env");
        let num_actions = self.num_actions() as i64;
        for (env, (decision, &action)) in self.decisions.iter().zip(actions).enumerate() {
            let legal = &decision.legal;
            if legal.is_empty() {
                continue;
            }
            if !(0..num_actions).contains(&action) || !legal.contains(action as Action) {
                return Err(BadAction {
                    env,
                    action,
                    legal: (0..legal.len()).filter_map(|i| legal.nth(i)).collect(),
                });
            }
        }
        Ok(())
    }

    /// Takes `actions[k]` in env `k`, for every env, and writes the results;
    /// refuses every action (and changes nothing) if one is not legal.
    ///
    /// # Panics
    ///
    /// Panics if `actions` or a buffer has the wrong length.
    pub fn step(&mut self, actions: &[i64], out: &mut Outputs<'_>) -> Result<(), BadAction> {
        self.check(actions)?;
        self.run(out, Some(actions));
        Ok(())
    }

    /// Writes each env's random action for its current decision, drawn from
    /// its episode's stream as the "micro" policy draws (see the module
    /// docs); `-1` for a finished env. Until the next step or reset, every
    /// call gives the same actions.
    ///
    /// # Panics
    ///
    /// Panics if `out` does not have one entry per env.
    pub fn random_actions(&self, out: &mut [i64]) {
        assert_eq!(out.len(), self.num_envs(), "one action per env");
        for (decision, action) in self.decisions.iter().zip(out) {
            *action = decision.random_action;
        }
    }

    /// Steps every env with its action (or none, for a reset) and writes the
    /// outputs, in parallel when there are many envs.
    fn run(&mut self, out: &mut Outputs<'_>, actions: Option<&[i64]>) {
        let n = self.num_envs();
        let obs_len = self.observation_shape().iter().product::<usize>();
        let num_actions = self.num_actions();
        assert_eq!(out.observations.len(), n * obs_len, "observation buffer");
        assert_eq!(out.masks.len(), n * num_actions, "mask buffer");
        assert_eq!(out.rewards.len(), n * 2, "reward buffer");
        assert_eq!(out.terminated.len(), n, "terminated buffer");
        assert_eq!(out.current_player.len(), n, "current player buffer");
        let address = out.observations.as_ptr() as usize;
        let ctx = Context {
            start: &self.start,
            seed: self.seed,
            num_envs: n,
            auto_reset: self.auto_reset,
            update: actions.is_some() && self.written == Some(address),
        };
        self.written = Some(address);
        if n < PARALLEL_MIN_ENVS {
            ctx.step_envs(0, &mut self.slots, &mut self.decisions, out, actions);
            return;
        }
        // Runs of envs with their parts of the outputs, taken one at a time
        // by the calling thread and by helpers from the pool. The calling
        // thread works too, rather than hand the step to the pool and sleep
        // until it is done: the wake-ups that takes each way are a good part
        // of a step of a thousand envs.
        let runs: Vec<Mutex<Option<Run<'_, G>>>> = (self.slots.chunks_mut(CHUNK_ENVS))
            .zip(self.decisions.chunks_mut(CHUNK_ENVS))
            .zip(out.observations.chunks_mut(CHUNK_ENVS * obs_len))
            .zip(out.masks.chunks_mut(CHUNK_ENVS * num_actions))
            .zip(out.rewards.chunks_mut(CHUNK_ENVS * 2))
            .zip(out.terminated.chunks_mut(CHUNK_ENVS))
            .zip(out.current_player.chunks_mut(CHUNK_ENVS))
            .enumerate()
            .map(
                |(
                    i,
                    (
                        (((((slots, decisions), observations), masks), rewards), terminated),
                        current_player,
                    ),
                )| {
                    Mutex::new(Some(Run {
                        first: i * CHUNK_ENVS,
                        slots,
                        decisions,
                        out: Outputs {
                            observations,
                            masks,
                            rewards,
                            terminated,
                            current_player,
                        },
                    }))
                },
            )
            .collect();
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(run) = runs.get(next.fetch_add(1, Ordering::Relaxed)) {
                let mut run = run
                    .lock()
                    .expect("a run is taken once")
                    .take()
                    .expect("a run is taken once");
                ctx.step_envs(run.first, run.slots, run.decisions, &mut run.out, actions);
            }
        };
        let helpers = rayon::current_num_threads().min(runs.len()) - 1;
        rayon::in_place_scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|_| work());
            }
            work();
        });
    }
}

/// A run of envs from env `first` on, with their part of the outputs.
struct Run<'a, G: Game> {
    first: usize,
    slots: &'a mut [Slot<G>],
    decisions: &'a mut [Decision<G::Actions>],
    out: Outputs<'a>,
}

/// The random stream of episode `episode` of env `env`: that of game
/// `episode * num_envs + env`.
fn episode_rng(seed: u64, num_envs: usize, env: usize, episode: u64) -> Rng {
    let game = episode
        .wrapping_mul(num_envs as u64)
        .wrapping_add(env as u64);
    Rng::for_game(seed, game)
}

/// Env `env` at the start of episode `episode`, with its first decision.
fn fresh_slot<G: Game>(
    start: &G,
    seed: u64,
    num_envs: usize,
    env: usize,
    episode: u64,
) -> (Slot<G>, Decision<G::Actions>) {
    let mut rng = episode_rng(seed, num_envs, env, episode);
    let decision = Decision::draw(start.legal_actions(), &mut rng);
    let slot = Slot {
        state: start.clone(),
        episode,
        rng,
        shown: None,
    };
    (slot, decision)
}

/// What stepping one env needs besides the env.
struct Context<'a, G> {
    start: &'a G,
    seed: u64,
    num_envs: usize,
    auto_reset: bool,
    /// Whether the observations hold those of the slots' `shown` states.
    update: bool,
}

/// One env's part of the outputs.
struct Row<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    current_player: &'a mut i8,
}

impl<G> Context<'_, G>
where
    G: Observe,
{
    /// Steps the envs from env `first` on, each with its action (or none,
    /// for a reset), and writes their outputs.
    fn step_envs(
        &self,
        first: usize,
        slots: &mut [Slot<G>],
        decisions: &mut [Decision<G::Actions>],
        out: &mut Outputs<'_>,
        actions: Option<&[i64]>,
    ) {
        let obs_len = out.observations.len() / slots.len();
        let num_actions = out.masks.len() / slots.len();
        let rows = (out.observations.chunks_exact_mut(obs_len))
            .zip(out.masks.chunks_exact_mut(num_actions))
            .zip(out.rewards.chunks_exact_mut(2))
            .zip(out.terminated.iter_mut())
            .zip(out.current_player.iter_mut());
        let envs = slots.iter_mut().zip(decisions.iter_mut()).zip(rows);
        for (i, ((slot, decision), row)) in envs.enumerate() {
            let ((((observation, mask), rewards), terminated), current_player) = row;
            let mut row = Row {
                observation,
                mask,
                rewards,
                terminated,
                current_player,
            };
            let env = first + i;
            self.step_slot(env, slot, decision, actions.map(|a| a[env]), &mut row);
        }
    }

    fn step_slot(
        &self,
        env: usize,
        slot: &mut Slot<G>,
        decision: &mut Decision<G::Actions>,
        action: Option<i64>,
        row: &mut Row<'_>,
    ) {
        row.rewards.fill(0.0);
        *row.terminated = false;
        match action {
            Some(_) if decision.legal.is_empty() => {
                // Finished, without auto-reset: it waits for a reset.
                *row.terminated = true;
            }
            Some(action) => {
                slot.state.apply(action as Action);
                *decision = Decision::draw(slot.state.legal_actions(), &mut slot.rng);
                if slot.state.winner().is_some() || decision.legal.is_empty() {
                    *row.terminated = true;
                    if let Some(winner) = slot.state.winner() {
                        row.rewards[winner] = 1.0;
                        row.rewards[1 - winner] = -1.0;
                    }
                    if self.auto_reset {
                        // The row still shows the finished game: keep that.
                        let shown = slot.shown.take();
                        (*slot, *decision) =
                            fresh_slot(self.start, self.seed, self.num_envs, env, slot.episode + 1);
                        slot.shown = shown;
                    }
                }
            }
            None => {}
        }
        match &slot.shown {
            Some(shown) if self.update => slot.state.update_observation(shown, row.observation),
            _ => slot.state.write_observation(row.observation),
        }
        slot.shown = Some(slot.state.clone());
        G::write_mask(&decision.legal, row.mask);
        *row.current_player = if decision.legal.is_empty() {
            -1
        } else {
            slot.state.seat_to_act() as i8
        };
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // rewards are exactly -1, 0 or 1
mod tests {
    use super::*;
    use crate::game::random_action;
    use crate::veletas::{DecisionState, Position, Rules, Variant};

    fn start(variant: Variant) -> DecisionState {
        DecisionState::new(Position::new(Rules::variant(variant)))
    }

    #[test]
    fn random_actions_play_the_micro_games_of_their_index() {
        let (n, seed) = (5, 11);
        let mut env = VectorEnv::new(start(Variant::Small), n, seed, true);
        let mut buffers = env.buffers();
        env.reset(None, &mut buffers.outputs());
        // The oracle: each game played alone with its own stream.
        let mut games: Vec<(DecisionState, Rng)> = (0..n)
            .map(|k| (start(Variant::Small), Rng::for_game(seed, k as u64)))
            .collect();
        let mut finished = vec![0u64; n];
        let mut actions = vec![0; n];
        while finished.iter().any(|&e| e < 2) {
            env.random_actions(&mut actions);
            for (k, (state, rng)) in games.iter_mut().enumerate() {
                let expected = random_action(state, rng).unwrap();
                assert_eq!(actions[k], i64::from(expected), "env {k}");
                state.apply(expected).unwrap();
            }
            env.step(&actions, &mut buffers.outputs()).unwrap();
            for (k, (state, rng)) in games.iter_mut().enumerate() {
                if buffers.terminated[k] {
                    let winner = state.winner().unwrap();
                    assert_eq!(buffers.rewards[2 * k + winner], 1.0);
                    assert_eq!(buffers.rewards[2 * k + 1 - winner], -1.0);
                    finished[k] += 1;
                    assert_eq!(env.episode(k), finished[k]);
                    *state = start(Variant::Small);
                    *rng = Rng::for_game(seed, finished[k] * n as u64 + k as u64);
                } else {
                    assert_eq!(&buffers.rewards[2 * k..2 * k + 2], [0.0, 0.0]);
                }
                assert_eq!(env.state(k), state);
                let obs_len = buffers.observations.len() / n;
                assert_eq!(
                    buffers.observations[k * obs_len..(k + 1) * obs_len],
                    state.observation()
                );
                assert_eq!(
                    i64::from(buffers.current_player[k]),
                    state.seat_to_act() as i64
                );
            }
        }
    }

    #[test]
    fn many_envs_step_the_same_in_parallel_and_alone() {
        // From a thread outside the pool, as Python calls; then inside pools
        // of one thread (which steps every run) and of more threads than
        // the machine may have cores (helpers take runs too).
        step_many_envs_in_parallel_and_alone();
        for threads in [1, 4] {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool")
                .install(step_many_envs_in_parallel_and_alone);
        }
    }

    fn step_many_envs_in_parallel_and_alone() {
        let n = 3 * PARALLEL_MIN_ENVS + 5;
        let mut many = VectorEnv::new(start(Variant::Medium), n, 2, true);
        let mut many_out = many.buffers();
        many.reset(None, &mut many_out.outputs());
        let mut alone: Vec<_> = (0..n)
            .map(|k| {
                let mut env = VectorEnv::new(start(Variant::Medium), 1, 2, true);
                // Env k of `many` draws with the streams of games e * n + k.
                env.slots[0].rng = episode_rng(2, n, k, 0);
                let out = env.buffers();
                (env, out)
            })
            .collect();
        let mut actions = vec![0; n];
        for _ in 0..120 {
            many.random_actions(&mut actions);
            many.step(&actions, &mut many_out.outputs()).unwrap();
            for (k, (env, out)) in alone.iter_mut().enumerate() {
                env.step(&actions[k..=k], &mut out.outputs()).unwrap();
                let obs_len = out.observations.len();
                assert_eq!(
                    out.observations,
                    many_out.observations[k * obs_len..(k + 1) * obs_len]
                );
                assert_eq!(out.terminated[0], many_out.terminated[k]);
                assert_eq!(out.rewards, many_out.rewards[2 * k..2 * k + 2]);
            }
        }
    }

    #[test]
    fn another_buffer_is_written_in_full() {
        let (n, variant) = (3, Variant::Small);
        let mut env = VectorEnv::new(start(variant), n, 8, true);
        let mut buffers = [env.buffers(), env.buffers()];
        env.reset(None, &mut buffers[0].outputs());
        let mut actions = vec![0; n];
        for step in 0..200 {
            // Alternate buffers: each still holds the observations of two
            // decisions ago, which must not be taken for the last ones.
            let out = &mut buffers[step % 2];
            env.random_actions(&mut actions);
            env.step(&actions, &mut out.outputs()).unwrap();
            let full: Vec<f32> = (0..n).flat_map(|k| env.state(k).observation()).collect();
            assert_eq!(out.observations, full, "step {step}");
        }
    }

    #[test]
    fn a_bad_action_changes_no_env() {
        let mut env = VectorEnv::new(start(Variant::Small), 3, 0, true);
        let mut out = env.buffers();
        env.reset(None, &mut out.outputs());
        let mut actions = vec![0; 3];
        env.random_actions(&mut actions);
        let before: Vec<DecisionState> = (0..3).map(|k| *env.state(k)).collect();
        let snapshot = out.clone();
        for bad in [0, -1, 51, 1000] {
            let mut wrong = actions.clone();
            wrong[2] = bad;
            let err = env.step(&wrong, &mut out.outputs()).unwrap_err();
            assert_eq!((err.env, err.action), (2, bad));
            assert!(
                err.to_string()
                    .contains(&format!("action {bad} is not legal in env 2"))
            );
            assert_eq!((0..3).map(|k| *env.state(k)).collect::<Vec<_>>(), before);
            assert_eq!(out.observations, snapshot.observations);
        }
        env.step(&actions, &mut out.outputs()).unwrap();
    }

    #[test]
    fn without_auto_reset_a_finished_env_waits() {
        let mut env = VectorEnv::new(start(Variant::Small), 2, 4, false);
        let mut out = env.buffers();
        env.reset(None, &mut out.outputs());
        let mut actions = vec![0; 2];
        let mut ended = [false; 2];
        while !ended.iter().all(|&e| e) {
            env.random_actions(&mut actions);
            for (action, ended) in actions.iter().zip(ended) {
                assert_eq!(*action == -1, ended);
            }
            env.step(&actions, &mut out.outputs()).unwrap();
            for (k, ended) in ended.iter_mut().enumerate() {
                if *ended {
                    assert!(out.terminated[k]);
                    assert_eq!(out.current_player[k], -1);
                    assert_eq!(&out.rewards[2 * k..2 * k + 2], [0.0, 0.0]);
                }
                *ended |= out.terminated[k];
            }
        }
        assert!(out.masks.iter().all(|&m| m == 0));
        assert!((0..2).all(|k| env.state(k).is_terminal() && env.episode(k) == 0));
        env.reset(Some(9), &mut out.outputs());
        assert_eq!(env.seed(), 9);
        assert!(out.current_player.iter().all(|&p| p == 0));
        assert!(!out.terminated.iter().any(|&t| t));
    }
}
