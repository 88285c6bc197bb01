//! Many games stepped at once for reinforcement learning, writing
//! observations, action masks, rewards and flags into caller-owned buffers.
//!
//! [`VectorEnv`] is written against [`Game`] plus [`Observe`] and
//! [`Opponents`], so every game of the family that can draw itself as planes
//! and has bots gets it.
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
//! - **Final observations**: the step that ends an episode also writes the
//!   observation of its final state into `out.final_observations` (only for
//!   the envs that ended), so that nothing is lost to the auto-reset.
//! - **Resets** may reset some envs only, and each env's episodes may start
//!   from a state of its own ([`VectorEnv::reset`]).
//! - **Opponents**: with an [`Opponent`], the env plays every decision of the
//!   seat that is not the learner's ([`LearnerSeat`]) inside the step, so that
//!   the outputs show only the learner's decisions. The random opponent plays
//!   each decision's random action, so that with the learner also stepping
//!   with [`VectorEnv::random_actions`] the games are still the "micro"
//!   playout games.
//!
//! Envs are independent, so they are stepped in parallel, by the calling
//! thread and the helpers of a [`Crew`], once there are enough of them;
//! results never depend on the thread count.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::crew::Crew;
use crate::game::{Action, ActionSet, Game};
use crate::mcts::{Budget, Config};
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

/// The game's own bots, as opponents inside an env: each plays a whole turn
/// from a state at the start of a turn.
pub trait Opponents: Game {
    /// The search player, which keeps its trees from one turn to the next.
    type Searcher: Send;

    /// A search player with this configuration.
    fn searcher(config: Config) -> Self::Searcher;

    /// The actions of the greedy player's turn, ties broken with `rng`;
    /// empty once the game is over.
    fn greedy_turn(&self, rng: &mut Rng) -> Vec<Action>;

    /// The actions of the search player's turn within `budget`; empty once
    /// the game is over.
    fn search_turn(&self, searcher: &mut Self::Searcher, budget: Budget) -> Vec<Action>;
}

/// A built-in opponent: it plays every decision of the seat that is not the
/// learner's, inside the step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    /// The "micro" policy: the env's own random action of each decision
    /// (see [`VectorEnv::random_actions`]).
    Random,
    /// The game's one-ply greedy player.
    Greedy,
    /// The game's Monte Carlo tree search player, with this configuration
    /// (its seed is replaced by one drawn per env and episode) and budget
    /// per turn.
    Search {
        /// The search configuration.
        config: Config,
        /// The budget of each turn.
        budget: Budget,
    },
}

/// The learner's seat against an opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnerSeat {
    /// Always this seat (0 moves first).
    Fixed(u8),
    /// Episode `e` of env `k` is played from seat `(e + k) % 2`: each env
    /// alternates, and half the envs start as each seat.
    Alternate,
}

impl LearnerSeat {
    /// The learner's seat in episode `episode` of env `env`.
    pub fn seat(self, env: usize, episode: u64) -> u8 {
        match self {
            LearnerSeat::Fixed(seat) => seat,
            LearnerSeat::Alternate => ((episode.wrapping_add(env as u64)) % 2) as u8,
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
    /// `num_envs` observations, written only for the envs whose episode
    /// ended in this step: the observation of the final state.
    pub final_observations: &'a mut [f32],
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

/// How many episodes in a row an env may skip because the opponent ended
/// them before the learner's first decision; then it stays finished.
const MAX_SKIPPED_EPISODES: u64 = 64;

/// Mixed into the seed for the opponents' own streams, so that they are
/// not the streams of the envs' random actions.
const OPPONENT_STREAMS: u64 = 0x6f70_706f_6e65_6e74;

/// One env: its state, the episode it is in with that episode's random
/// stream, the state whose observation was last written, the learner's
/// seat and the opponent's own stream and search.
struct Slot<G: Opponents> {
    state: G,
    episode: u64,
    rng: Rng,
    shown: Option<G>,
    seat: u8,
    opponent: Option<Box<OpponentState<G>>>,
}

/// What a greedy or search opponent keeps in one env for one episode.
struct OpponentState<G: Opponents> {
    rng: Rng,
    searcher: Option<G::Searcher>,
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

/// Everything about one env that its future depends on, but for the trees
/// of a search opponent: its state, the episode it is in, its random stream
/// after the draw for the current decision, that draw, the learner's seat
/// and the opponent's stream. [`VectorEnv::env_state`] gives it and
/// [`VectorEnv::restore`] takes it, to save and restore envs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvState<G> {
    /// The game state.
    pub state: G,
    /// The episode, counted from 0 at the last reset.
    pub episode: u64,
    /// The episode's random stream, after the current decision's draw.
    pub rng: Rng,
    /// The random action of the current decision (`-1` once the game is over).
    pub random_action: i64,
    /// The learner's seat in this episode.
    pub seat: u8,
    /// The opponent's stream, for a greedy or search opponent.
    pub opponent_rng: Option<Rng>,
}

/// What a step or reset does to one env.
#[derive(Clone, Copy, Debug)]
enum Act {
    /// Take this action.
    Take(i64),
    /// Start this episode.
    Restart(u64),
    /// Leave the env as it is (and write its outputs).
    Keep,
}

/// `num_envs` games, stepped together, each from its own start.
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
/// env.reset(None, None, None, &mut buffers.outputs());
/// let mut actions = vec![0; 4];
/// env.random_actions(&mut actions);
/// env.step(&actions, &mut buffers.outputs()).unwrap();
/// assert!(buffers.current_player.iter().all(|&p| p == 0));
/// ```
pub struct VectorEnv<G: Opponents> {
    /// The start of every env's episodes.
    starts: Vec<G>,
    slots: Vec<Slot<G>>,
    /// The current decision of each env, beside its slot.
    decisions: Vec<Decision<G::Actions>>,
    seed: u64,
    auto_reset: bool,
    opponent: Option<Opponent>,
    learner_seat: LearnerSeat,
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
    /// See [`Outputs::final_observations`].
    pub final_observations: Vec<f32>,
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
            final_observations: &mut self.final_observations,
        }
    }
}

impl<G> VectorEnv<G>
where
    G: Observe + Opponents,
    G::Actions: Send,
{
    /// `num_envs` copies of `start`, with the random streams of `seed`, in
    /// self-play (no opponent). Nothing is written until the first
    /// [`VectorEnv::reset`].
    pub fn new(start: G, num_envs: usize, seed: u64, auto_reset: bool) -> VectorEnv<G> {
        VectorEnv::with_opponent(
            start,
            num_envs,
            seed,
            auto_reset,
            None,
            LearnerSeat::Fixed(0),
        )
    }

    /// [`VectorEnv::new`] with an opponent that plays every seat but the
    /// learner's.
    ///
    /// # Panics
    ///
    /// Panics if a fixed learner seat is not 0 or 1.
    pub fn with_opponent(
        start: G,
        num_envs: usize,
        seed: u64,
        auto_reset: bool,
        opponent: Option<Opponent>,
        learner_seat: LearnerSeat,
    ) -> VectorEnv<G> {
        assert!(
            !matches!(learner_seat, LearnerSeat::Fixed(seat) if seat > 1),
            "a seat is 0 or 1"
        );
        let starts = vec![start; num_envs];
        let ctx = Context {
            starts: &starts,
            seed,
            num_envs,
            auto_reset,
            opponent,
            learner_seat,
            update: false,
            finals: FinalRows {
                base: core::ptr::null_mut(),
                row_len: 0,
            },
        };
        // The opponents play only at a reset (nothing is written here).
        let (slots, decisions) = (0..num_envs).map(|k| ctx.fresh(k, 0)).unzip();
        VectorEnv {
            starts,
            slots,
            decisions,
            seed,
            auto_reset,
            opponent,
            learner_seat,
            written: None,
        }
    }

    /// The number of envs.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The number of action ids.
    pub fn num_actions(&self) -> usize {
        self.starts[0].num_actions()
    }

    /// The shape of one observation.
    pub fn observation_shape(&self) -> [usize; 3] {
        self.starts[0].observation_shape()
    }

    /// The seed of the random streams.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether finished envs restart in the step that ends them.
    pub fn auto_reset(&self) -> bool {
        self.auto_reset
    }

    /// The opponent, if any.
    pub fn opponent(&self) -> Option<Opponent> {
        self.opponent
    }

    /// The learner's seat against the opponent.
    pub fn learner_seat(&self) -> LearnerSeat {
        self.learner_seat
    }

    /// The start of env `k`'s episodes.
    ///
    /// # Panics
    ///
    /// Panics if `k` is not below [`VectorEnv::num_envs`].
    pub fn start(&self, k: usize) -> &G {
        &self.starts[k]
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

    /// The learner's seat in env `k`'s current episode (with an opponent).
    ///
    /// # Panics
    ///
    /// Panics if `k` is not below [`VectorEnv::num_envs`].
    pub fn seat(&self, k: usize) -> u8 {
        self.slots[k].seat
    }

    /// Everything about env `k` that its future depends on (but for a
    /// search opponent's trees).
    ///
    /// # Panics
    ///
    /// Panics if `k` is not below [`VectorEnv::num_envs`].
    pub fn env_state(&self, k: usize) -> EnvState<G> {
        let (slot, decision) = (&self.slots[k], &self.decisions[k]);
        EnvState {
            state: slot.state.clone(),
            episode: slot.episode,
            rng: slot.rng.clone(),
            random_action: decision.random_action,
            seat: slot.seat,
            opponent_rng: slot.opponent.as_ref().map(|o| o.rng.clone()),
        }
    }

    /// Puts env `k` back as [`VectorEnv::env_state`] gave it, with `start`
    /// as the start of its episodes; `false` (and nothing changes) if the
    /// random action is not one of the state's legal actions (`-1` for a
    /// finished game) or the seat is not 0 or 1. A search opponent starts
    /// from empty trees. The outputs are written in full by the next call.
    ///
    /// # Panics
    ///
    /// Panics if `k` is not below [`VectorEnv::num_envs`].
    pub fn restore(&mut self, k: usize, start: G, saved: EnvState<G>) -> bool {
        let legal = saved.state.legal_actions();
        let drawn = match Action::try_from(saved.random_action) {
            Ok(action) => legal.contains(action),
            Err(_) => saved.random_action == -1 && legal.is_empty(),
        };
        let plays_own = matches!(
            self.opponent,
            Some(Opponent::Greedy | Opponent::Search { .. })
        );
        if !drawn || saved.seat > 1 || saved.opponent_rng.is_some() != plays_own {
            return false;
        }
        let searcher = match self.opponent {
            Some(Opponent::Search { config, .. }) => saved.opponent_rng.clone().map(|mut rng| {
                G::searcher(Config {
                    seed: rng.next_u64(),
                    ..config
                })
            }),
            _ => None,
        };
        self.starts[k] = start;
        self.decisions[k] = Decision {
            legal,
            random_action: saved.random_action,
        };
        self.slots[k] = Slot {
            state: saved.state,
            episode: saved.episode,
            rng: saved.rng,
            shown: None,
            seat: saved.seat,
            opponent: saved
                .opponent_rng
                .map(|rng| Box::new(OpponentState { rng, searcher })),
        };
        self.written = None;
        true
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
            final_observations: vec![0.0; n * planes * height * width],
        }
    }

    /// Resets envs and writes their first decisions (rewards zero, nothing
    /// terminated).
    ///
    /// - `seed`: the new seed of the random streams;
    /// - `mask`: the envs to reset (all by default). Without a mask or with
    ///   a seed, the reset envs start episode 0; otherwise each starts its
    ///   next episode, as an auto-reset would. The other envs are left as
    ///   they are (their outputs are written again);
    /// - `starts`: the new start of each env's episodes (of the reset envs
    ///   only); each must be a state where the game is not over.
    ///
    /// With an opponent, its decisions before the learner's first are
    /// played.
    ///
    /// # Panics
    ///
    /// Panics if a buffer, `mask` or `starts` has the wrong length.
    pub fn reset(
        &mut self,
        seed: Option<u64>,
        mask: Option<&[bool]>,
        starts: Option<Vec<G>>,
        out: &mut Outputs<'_>,
    ) {
        let n = self.num_envs();
        if let Some(mask) = mask {
            assert_eq!(mask.len(), n, "one mask entry per env");
        }
        if let Some(seed) = seed {
            self.seed = seed;
        }
        let chosen = |k: usize| mask.is_none_or(|m| m[k]);
        if let Some(starts) = starts {
            assert_eq!(starts.len(), n, "one start per env");
            for (k, start) in starts.into_iter().enumerate() {
                if chosen(k) {
                    self.starts[k] = start;
                }
            }
        }
        let restart_at_zero = mask.is_none() || seed.is_some();
        let acts: Vec<Act> = (0..n)
            .map(|k| match chosen(k) {
                true if restart_at_zero => Act::Restart(0),
                true => Act::Restart(self.slots[k].episode + 1),
                false => Act::Keep,
            })
            .collect();
        // A masked reset updates the untouched envs' observations, as a step
        // does; a full reset writes them all.
        let update = mask.is_some();
        self.run(out, update, |k| acts[k]);
    }

    /// Refuses `actions` unless each is legal in its env (any action will do
    /// for a finished env that waits for a reset, or one that `active` leaves
    /// out).
    ///
    /// # Panics
    ///
    /// Panics if `actions` or `active` does not have one entry per env.
    pub fn check(&self, actions: &[i64], active: Option<&[bool]>) -> Result<(), BadAction> {
        assert_eq!(actions.len(), self.num_envs(), "one action per env");
        if let Some(active) = active {
            assert_eq!(active.len(), self.num_envs(), "one flag per env");
        }
        let num_actions = self.num_actions() as i64;
        for (env, (decision, &action)) in self.decisions.iter().zip(actions).enumerate() {
            let legal = &decision.legal;
            if legal.is_empty() || active.is_some_and(|a| !a[env]) {
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
    /// refuses every action (and changes nothing) if one is not legal. With
    /// an opponent, the opponent's decisions that follow are played too, up
    /// to the learner's next decision.
    ///
    /// # Panics
    ///
    /// Panics if `actions` or a buffer has the wrong length.
    pub fn step(&mut self, actions: &[i64], out: &mut Outputs<'_>) -> Result<(), BadAction> {
        self.check(actions, None)?;
        self.run(out, true, |k| Act::Take(actions[k]));
        Ok(())
    }

    /// [`VectorEnv::step`] in the envs where `active` is true only; the
    /// others are left as they are (their outputs are written again, with
    /// zero rewards and nothing terminated).
    ///
    /// # Panics
    ///
    /// Panics if `actions`, `active` or a buffer has the wrong length.
    pub fn step_some(
        &mut self,
        actions: &[i64],
        active: &[bool],
        out: &mut Outputs<'_>,
    ) -> Result<(), BadAction> {
        self.check(actions, Some(active))?;
        self.run(out, true, |k| {
            if active[k] {
                Act::Take(actions[k])
            } else {
                Act::Keep
            }
        });
        Ok(())
    }

    /// Writes every env's current decision in full, changing no env: the
    /// outputs of a reset, without the reset.
    ///
    /// # Panics
    ///
    /// Panics if a buffer has the wrong length.
    pub fn rewrite(&mut self, out: &mut Outputs<'_>) {
        self.run(out, false, |_| Act::Keep);
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

    /// Does `act(k)` to every env `k` and writes the outputs, in parallel
    /// when there are many envs. With `update`, observations are updated
    /// in place where the buffer is the one last written.
    fn run(&mut self, out: &mut Outputs<'_>, update: bool, act: impl Fn(usize) -> Act + Sync) {
        let n = self.num_envs();
        let obs_len = self.observation_shape().iter().product::<usize>();
        let num_actions = self.num_actions();
        assert_eq!(out.observations.len(), n * obs_len, "observation buffer");
        assert_eq!(out.masks.len(), n * num_actions, "mask buffer");
        assert_eq!(out.rewards.len(), n * 2, "reward buffer");
        assert_eq!(out.terminated.len(), n, "terminated buffer");
        assert_eq!(out.current_player.len(), n, "current player buffer");
        assert_eq!(out.final_observations.len(), n * obs_len, "final buffer");
        let address = out.observations.as_ptr() as usize;
        let ctx = Context {
            starts: &self.starts,
            seed: self.seed,
            num_envs: n,
            auto_reset: self.auto_reset,
            opponent: self.opponent,
            learner_seat: self.learner_seat,
            update: update && self.written == Some(address),
            finals: FinalRows {
                base: out.final_observations.as_mut_ptr(),
                row_len: obs_len,
            },
        };
        self.written = Some(address);
        let mut rows = Rows {
            observations: &mut *out.observations,
            masks: &mut *out.masks,
            rewards: &mut *out.rewards,
            terminated: &mut *out.terminated,
            current_player: &mut *out.current_player,
        };
        if n < PARALLEL_MIN_ENVS {
            ctx.step_envs(0, &mut self.slots, &mut self.decisions, &mut rows, &act);
            return;
        }
        // Runs of envs with their rows, taken one at a time by the calling
        // thread and by the helpers of the crew. The calling thread works
        // too, rather than hand the step over and sleep until it is done:
        // the wake-ups that takes each way are a good part of a step of a
        // thousand envs.
        let runs: Vec<Mutex<Option<Run<'_, G>>>> = (self.slots.chunks_mut(CHUNK_ENVS))
            .zip(self.decisions.chunks_mut(CHUNK_ENVS))
            .zip(rows.observations.chunks_mut(CHUNK_ENVS * obs_len))
            .zip(rows.masks.chunks_mut(CHUNK_ENVS * num_actions))
            .zip(rows.rewards.chunks_mut(CHUNK_ENVS * 2))
            .zip(rows.terminated.chunks_mut(CHUNK_ENVS))
            .zip(rows.current_player.chunks_mut(CHUNK_ENVS))
            .enumerate()
            .map(
                |(i, (((((envs, observations), masks), rewards), terminated), current_player))| {
                    let (slots, decisions) = envs;
                    Mutex::new(Some(Run {
                        first: i * CHUNK_ENVS,
                        slots,
                        decisions,
                        rows: Rows {
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
        // The helpers come from the crew, which stays awake between steps;
        // rayon's thread count (its pool, or `RAYON_NUM_THREADS`) says how many.
        let workers = rayon::current_num_threads().min(runs.len());
        // Worker `w` takes the runs of its own share first, in order, then
        // those left in the others' shares. A worker thus steps the same envs
        // from one step to the next, and finds their memory in its own cache;
        // a late worker's share is taken by the others.
        let share = |w: usize| runs.len() * w / workers..runs.len() * (w + 1) / workers;
        let next: Vec<AtomicUsize> = (0..workers)
            .map(|w| AtomicUsize::new(share(w).start))
            .collect();
        let work = |worker: usize| {
            for w in (worker..workers).chain(0..worker) {
                let end = share(w).end;
                loop {
                    let i = next[w].fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    let mut run = runs[i]
                        .lock()
                        .expect("a run is taken once")
                        .take()
                        .expect("a run is taken once");
                    ctx.step_envs(run.first, run.slots, run.decisions, &mut run.rows, &act);
                }
            }
        };
        let helpers = workers - 1;
        Crew::global().run(helpers, &work);
    }
}

/// Consecutive envs' rows of the outputs (but the final observations, which
/// are reached by env index).
struct Rows<'a> {
    observations: &'a mut [f32],
    masks: &'a mut [i8],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    current_player: &'a mut [i8],
}

/// A run of envs from env `first` on, with their rows.
struct Run<'a, G: Opponents> {
    first: usize,
    slots: &'a mut [Slot<G>],
    decisions: &'a mut [Decision<G::Actions>],
    rows: Rows<'a>,
}

/// The random stream of episode `episode` of env `env`: that of game
/// `episode * num_envs + env`.
fn episode_rng(seed: u64, num_envs: usize, env: usize, episode: u64) -> Rng {
    Rng::for_game(seed, game_index(num_envs, env, episode))
}

/// The index of episode `episode` of env `env` among all games.
fn game_index(num_envs: usize, env: usize, episode: u64) -> u64 {
    episode
        .wrapping_mul(num_envs as u64)
        .wrapping_add(env as u64)
}

/// What stepping one env needs besides the env.
struct Context<'a, G> {
    starts: &'a [G],
    seed: u64,
    num_envs: usize,
    auto_reset: bool,
    opponent: Option<Opponent>,
    learner_seat: LearnerSeat,
    /// Whether the observations hold those of the slots' `shown` states.
    update: bool,
    /// Where the final observations go.
    finals: FinalRows,
}

/// One env's part of the outputs.
struct Row<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    current_player: &'a mut i8,
}

/// The rows of the final observations, which a step writes for the few envs
/// whose episode ended: reached by env index rather than zipped with the
/// other rows, so that the steps that end nothing (nearly all) pay nothing
/// for them.
#[derive(Clone, Copy)]
struct FinalRows {
    base: *mut f32,
    row_len: usize,
}

// SAFETY: the rows are disjoint, each env writes only its own (see
// `FinalRows::write`), and `VectorEnv::run` holds the buffer mutably
// borrowed for as long as the step that writes through it.
unsafe impl Send for FinalRows {}
// SAFETY: as for `Send`.
unsafe impl Sync for FinalRows {}

impl FinalRows {
    /// Hands row `env` to `f`.
    ///
    /// # Safety
    ///
    /// `env` must be below the number of rows, and no other access to row
    /// `env` may happen meanwhile: a step writes each env's row from the
    /// task that steps that env, and only there.
    unsafe fn write(self, env: usize, f: impl FnOnce(&mut [f32])) {
        // SAFETY: the caller's promise: the row is in the buffer, and
        // nothing else touches it now.
        let row = unsafe {
            core::slice::from_raw_parts_mut(self.base.add(env * self.row_len), self.row_len)
        };
        f(row);
    }
}

/// Whether the game of `slot` is over.
#[inline(always)]
fn ended<G: Opponents>(slot: &Slot<G>, decision: &Decision<G::Actions>) -> bool {
    decision.legal.is_empty() || slot.state.winner().is_some()
}

impl<G> Context<'_, G>
where
    G: Observe + Opponents,
{
    /// Env `env` at the start of episode `episode`, with its first decision
    /// (before any opponent plays).
    fn fresh(&self, env: usize, episode: u64) -> (Slot<G>, Decision<G::Actions>) {
        let start = &self.starts[env];
        let mut rng = episode_rng(self.seed, self.num_envs, env, episode);
        let decision = Decision::draw(start.legal_actions(), &mut rng);
        let opponent = match self.opponent {
            Some(Opponent::Greedy | Opponent::Search { .. }) => {
                let index = game_index(self.num_envs, env, episode);
                let mut rng = Rng::for_game(self.seed ^ OPPONENT_STREAMS, index);
                let searcher = match self.opponent {
                    Some(Opponent::Search { config, .. }) => Some(G::searcher(Config {
                        seed: rng.next_u64(),
                        ..config
                    })),
                    _ => None,
                };
                Some(Box::new(OpponentState { rng, searcher }))
            }
            _ => None,
        };
        let slot = Slot {
            state: start.clone(),
            episode,
            rng,
            shown: None,
            seat: if self.opponent.is_some() {
                self.learner_seat.seat(env, episode)
            } else {
                0
            },
            opponent,
        };
        (slot, decision)
    }

    /// Puts env `env` at the start of episode `episode` and plays the
    /// opponent's decisions up to the learner's first; an episode that the
    /// opponent ends before that is skipped for the next one.
    #[inline(never)]
    fn restart(
        &self,
        env: usize,
        slot: &mut Slot<G>,
        decision: &mut Decision<G::Actions>,
        episode: u64,
    ) {
        let shown = slot.shown.take();
        for skipped in 0..MAX_SKIPPED_EPISODES {
            (*slot, *decision) = self.fresh(env, episode + skipped);
            self.opponent_plays(slot, decision);
            if !ended(slot, decision) {
                break;
            }
        }
        slot.shown = shown;
    }

    /// Plays the opponent's decisions until the learner is to act or the
    /// game is over.
    #[inline(always)]
    fn opponent_plays(&self, slot: &mut Slot<G>, decision: &mut Decision<G::Actions>) {
        // Self-play steps only pay for this test.
        if let Some(opponent) = self.opponent {
            Self::opponent_turns(opponent, slot, decision);
        }
    }

    /// [`Context::opponent_plays`], with an opponent.
    #[inline(never)]
    fn opponent_turns(opponent: Opponent, slot: &mut Slot<G>, decision: &mut Decision<G::Actions>) {
        while !ended(slot, decision) && slot.state.seat_to_act() != usize::from(slot.seat) {
            let turn = match (opponent, slot.opponent.as_deref_mut()) {
                (Opponent::Greedy, Some(state)) => slot.state.greedy_turn(&mut state.rng),
                (
                    Opponent::Search { budget, .. },
                    Some(OpponentState {
                        searcher: Some(searcher),
                        ..
                    }),
                ) => slot.state.search_turn(searcher, budget),
                _ => Vec::new(),
            };
            if turn.is_empty() {
                // The random opponent, which plays the decision's own draw.
                let action = decision.random_action as Action;
                slot.state.apply(action);
                *decision = Decision::draw(slot.state.legal_actions(), &mut slot.rng);
                continue;
            }
            for action in turn {
                slot.state.apply(action);
                *decision = Decision::draw(slot.state.legal_actions(), &mut slot.rng);
            }
        }
    }

    /// Ends env `env`'s episode: the flag, the rewards, the final
    /// observation and, with auto-reset, the next episode.
    #[cold]
    #[inline(never)]
    fn finish(
        &self,
        env: usize,
        slot: &mut Slot<G>,
        decision: &mut Decision<G::Actions>,
        row: &mut Row<'_>,
    ) {
        *row.terminated = true;
        if let Some(winner) = slot.state.winner() {
            row.rewards[winner] = 1.0;
            row.rewards[1 - winner] = -1.0;
        }
        // SAFETY: `env` is the index of the env being stepped, and only its
        // task writes its row.
        unsafe {
            self.finals
                .write(env, |out| slot.state.write_observation(out));
        }
        if self.auto_reset {
            // The row still shows the game before the step.
            self.restart(env, slot, decision, slot.episode + 1);
        }
    }

    /// Steps the envs from env `first` on, doing `act(k)` to env `k`, and
    /// writes their rows.
    fn step_envs(
        &self,
        first: usize,
        slots: &mut [Slot<G>],
        decisions: &mut [Decision<G::Actions>],
        rows: &mut Rows<'_>,
        act: &impl Fn(usize) -> Act,
    ) {
        let obs_len = rows.observations.len() / slots.len();
        let num_actions = rows.masks.len() / slots.len();
        let rows = (rows.observations.chunks_exact_mut(obs_len))
            .zip(rows.masks.chunks_exact_mut(num_actions))
            .zip(rows.rewards.chunks_exact_mut(2))
            .zip(rows.terminated.iter_mut())
            .zip(rows.current_player.iter_mut());
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
            self.step_slot(env, slot, decision, act(env), &mut row);
        }
    }

    #[inline(always)]
    fn step_slot(
        &self,
        env: usize,
        slot: &mut Slot<G>,
        decision: &mut Decision<G::Actions>,
        act: Act,
        row: &mut Row<'_>,
    ) {
        row.rewards.fill(0.0);
        *row.terminated = false;
        match act {
            Act::Take(_) if decision.legal.is_empty() => {
                // Finished, without auto-reset: it waits for a reset.
                *row.terminated = true;
            }
            Act::Take(action) => {
                slot.state.apply(action as Action);
                *decision = Decision::draw(slot.state.legal_actions(), &mut slot.rng);
                self.opponent_plays(slot, decision);
                if ended(slot, decision) {
                    self.finish(env, slot, decision, row);
                }
            }
            Act::Restart(episode) => self.restart(env, slot, decision, episode),
            Act::Keep => {}
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
    use crate::mcts::{Budget, Config};
    use crate::veletas::{DecisionState, Position, Rules, Variant};

    fn start(variant: Variant) -> DecisionState {
        DecisionState::new(Position::new(Rules::variant(variant)))
    }

    #[test]
    fn random_actions_play_the_micro_games_of_their_index() {
        let (n, seed) = (5, 11);
        let mut env = VectorEnv::new(start(Variant::Small), n, seed, true);
        let mut buffers = env.buffers();
        env.reset(None, None, None, &mut buffers.outputs());
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
        many.reset(None, None, None, &mut many_out.outputs());
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
        env.reset(None, None, None, &mut buffers[0].outputs());
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
        env.reset(None, None, None, &mut out.outputs());
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

    /// The actions of micro playout game `index`, played alone.
    fn micro_game(start: DecisionState, seed: u64, index: u64) -> Vec<Action> {
        let mut state = start;
        let mut rng = Rng::for_game(seed, index);
        let mut actions = Vec::new();
        while let Some(action) = random_action(&state, &mut rng) {
            actions.push(action);
            state.apply(action).unwrap();
        }
        actions
    }

    #[test]
    fn the_random_opponent_plays_the_micro_games_with_the_learner() {
        let (n, seed) = (4, 5);
        for seat in [
            LearnerSeat::Fixed(0),
            LearnerSeat::Fixed(1),
            LearnerSeat::Alternate,
        ] {
            let mut env = VectorEnv::with_opponent(
                start(Variant::Small),
                n,
                seed,
                true,
                Some(Opponent::Random),
                seat,
            );
            let mut out = env.buffers();
            env.reset(None, None, None, &mut out.outputs());
            let mut actions = vec![0; n];
            let mut played: Vec<Vec<Action>> = vec![Vec::new(); n];
            let mut ended = vec![0u64; n];
            // What the learner saw: replaying each game's actions must pass
            // through every state it saw, with the learner to act.
            while ended.iter().any(|&e| e < 3) {
                for k in 0..n {
                    assert_eq!(
                        out.current_player[k] as u8,
                        env.seat(k),
                        "the learner is to act"
                    );
                    assert_eq!(env.seat(k), seat.seat(k, env.episode(k)));
                }
                env.random_actions(&mut actions);
                env.step(&actions, &mut out.outputs()).unwrap();
                for k in 0..n {
                    played[k].push(actions[k] as Action);
                    if out.terminated[k] {
                        let index = ended[k] * n as u64 + k as u64;
                        let game = micro_game(start(Variant::Small), seed, index);
                        // The learner's decisions are a subsequence of the
                        // game, at the learner's seat.
                        let mut replay = start(Variant::Small);
                        let mut mine = played[k].iter().peekable();
                        let learner = seat.seat(k, ended[k]) as usize;
                        for &action in &game {
                            if replay.seat_to_act() == learner {
                                assert_eq!(mine.next(), Some(&action), "env {k}");
                            }
                            replay.apply(action).unwrap();
                        }
                        assert_eq!(mine.next(), None);
                        let winner = replay.winner().unwrap();
                        assert_eq!(out.rewards[2 * k + winner], 1.0);
                        let obs_len = out.observations.len() / n;
                        assert_eq!(
                            out.final_observations[k * obs_len..(k + 1) * obs_len],
                            replay.observation()
                        );
                        played[k].clear();
                        ended[k] += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn greedy_and_search_opponents_play_whole_legal_turns() {
        let search = Opponent::Search {
            config: Config::for_game::<DecisionState>(),
            budget: Budget::iterations(20),
        };
        for opponent in [Opponent::Greedy, search] {
            let mut env = VectorEnv::with_opponent(
                start(Variant::Small),
                3,
                1,
                true,
                Some(opponent),
                LearnerSeat::Fixed(1),
            );
            let mut out = env.buffers();
            env.reset(None, None, None, &mut out.outputs());
            let mut actions = vec![0; 3];
            let mut finished = 0;
            for _ in 0..400 {
                assert!(out.current_player.iter().all(|&p| p == 1));
                env.random_actions(&mut actions);
                env.step(&actions, &mut out.outputs()).unwrap();
                finished += out.terminated.iter().filter(|&&t| t).count();
            }
            assert!(finished > 0);
        }
    }

    #[test]
    fn masked_resets_and_starts_leave_the_other_envs_alone() {
        let n = 4;
        let mut env = VectorEnv::new(start(Variant::Small), n, 3, true);
        let mut out = env.buffers();
        env.reset(None, None, None, &mut out.outputs());
        let mut actions = vec![0; n];
        for _ in 0..5 {
            env.random_actions(&mut actions);
            env.step(&actions, &mut out.outputs()).unwrap();
        }
        let before: Vec<DecisionState> = (0..n).map(|k| *env.state(k)).collect();
        let position = Position::from_fen(
            "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
            crate::veletas::SetupRule::Perimeter,
            crate::veletas::Lines::ShootersPass,
        )
        .unwrap();
        let other = DecisionState::new(position);
        let mask = [false, true, false, true];
        env.reset(None, Some(&mask), Some(vec![other; n]), &mut out.outputs());
        for k in 0..n {
            let expected = if mask[k] { other } else { before[k] };
            assert_eq!(env.state(k), &expected);
            assert_eq!(env.episode(k), u64::from(mask[k]));
            let obs_len = out.observations.len() / n;
            assert_eq!(
                out.observations[k * obs_len..(k + 1) * obs_len],
                expected.observation()
            );
        }
        assert_eq!(env.start(1), &other);
        assert_eq!(env.start(0), &start(Variant::Small));
        // Auto-resets start from the env's own start too.
        while env.episode(1) < 2 {
            env.random_actions(&mut actions);
            env.step(&actions, &mut out.outputs()).unwrap();
        }
        assert!(env.state(1).position().phase() == crate::veletas::Phase::Play);
    }

    #[test]
    fn restored_envs_step_on_as_the_saved_ones() {
        let (n, variant) = (3, Variant::Small);
        let mut env = VectorEnv::with_opponent(
            start(variant),
            n,
            6,
            true,
            Some(Opponent::Greedy),
            LearnerSeat::Alternate,
        );
        let mut out = env.buffers();
        env.reset(None, None, None, &mut out.outputs());
        let mut actions = vec![0; n];
        for _ in 0..37 {
            env.random_actions(&mut actions);
            env.step(&actions, &mut out.outputs()).unwrap();
        }
        let mut restored = VectorEnv::with_opponent(
            start(variant),
            n,
            6,
            true,
            Some(Opponent::Greedy),
            LearnerSeat::Alternate,
        );
        for k in 0..n {
            assert!(restored.restore(k, *env.start(k), env.env_state(k)));
        }
        let mut restored_out = restored.buffers();
        restored.rewrite(&mut restored_out.outputs());
        assert_eq!(restored_out.observations, out.observations);
        let mut restored_actions = vec![0; n];
        for _ in 0..200 {
            env.random_actions(&mut actions);
            restored.random_actions(&mut restored_actions);
            assert_eq!(restored_actions, actions);
            env.step(&actions, &mut out.outputs()).unwrap();
            restored
                .step(&actions, &mut restored_out.outputs())
                .unwrap();
            assert_eq!(restored_out.observations, out.observations);
            assert_eq!(restored_out.rewards, out.rewards);
            assert_eq!(restored_out.terminated, out.terminated);
        }
        let mut wrong = env.env_state(0);
        wrong.random_action = -1;
        assert!(!restored.restore(0, start(variant), wrong));
    }

    #[test]
    fn without_auto_reset_a_finished_env_waits() {
        let mut env = VectorEnv::new(start(Variant::Small), 2, 4, false);
        let mut out = env.buffers();
        env.reset(None, None, None, &mut out.outputs());
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
        env.reset(Some(9), None, None, &mut out.outputs());
        assert_eq!(env.seed(), 9);
        assert!(out.current_player.iter().all(|&p| p == 0));
        assert!(!out.terminated.iter().any(|&t| t));
    }
}
