//! Monte Carlo tree search: UCT with random playouts, over any [`Game`](crate::game::Game)
//! with a static estimate ([`Evaluate`]), which can score playouts cut short.
//!
//! The tree is built over the game's decisions (for Veletas, the
//! micro-decisions of a turn), so a node has at most `num_actions()`
//! children. Consecutive decisions may belong to the same player, so every
//! node keeps its statistics from the point of view of the seat that took
//! the action leading to it, and selection at a node maximises the value of
//! the seat to act there.
//!
//! - Budget: a number of iterations, a wall-clock time, or both (whichever
//!   runs out first), see [`Budget`].
//! - Threads: with `threads > 1` the solver's threads grow one tree at once
//!   (tree parallelism, [`shared`]), each from its own random stream; plain
//!   UCT, the baseline, keeps one tree a thread, merged at the root by
//!   adding the visit counts of each action (root parallelism).
//! - Tree reuse: [`Mcts::advance`] re-roots every tree on a played decision,
//!   and [`Mcts::set_root`] finds a later position among the descendants, so
//!   the statistics gathered for it survive from one move to the next.
//! - With one thread and an iteration budget, a search is a pure function of
//!   the seed and the calls made so far.
//! - Stopping early: [`Mcts::search_until`] also ends when another thread
//!   raises a flag, keeping what the search found so far.
//! - Analysis: [`Mcts::lines`] lists the explored lines of play from the
//!   root (for a game whose turns are several decisions, its whole moves)
//!   with their visits and values.
//!
//! # Examples
//!
//! ```
//! use _veletas::mcts::{Budget, Config, Mcts};
//! use _veletas::veletas::{DecisionState, Position, Rules, Variant};
//!
//! let start = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
//! let mut search = Mcts::new(start, Config::for_game::<DecisionState>());
//! let info = search.search(Budget::iterations(200));
//! assert_eq!(info.iterations, 200);
//! let action = info.best_action.unwrap();
//! assert!(search.root().legal_actions().contains(action));
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::evaluate::Evaluate;
use crate::game::{Action, ActionSet, play_random_decisions, winner_at_end};
use crate::rng::Rng;

mod shared;
mod ucb;

/// The default cap on the nodes of one tree: 24 bytes each, so about 200 MB.
/// A full tree stops growing and keeps refining its statistics.
pub const DEFAULT_MAX_NODES: usize = 8_000_000;

/// The nodes of a tree at which a search first lays it out again
/// ([`Tree::compact`]); then at every doubling.
const COMPACT_FROM: usize = 4096;

/// The share of a move's budget that the exact solver gets first
/// ([`Config::solve_share`]).
pub const DEFAULT_SOLVE_SHARE: f64 = 0.1;

/// Which search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Algorithm {
    /// Plain UCT: the baseline, every iteration a random playout, nothing
    /// proven.
    Uct,
    /// UCT with proof backups (MCTS-Solver): wins and losses reached in the tree are
    /// proven and backed up, a proven child is never played out again, a
    /// proven win is played and a proven loss avoided while another action
    /// is not lost. The default.
    #[default]
    Solver,
}

impl Algorithm {
    /// The algorithm's name in the bots' options (`uct`, `mcts`).
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Uct => "uct",
            Algorithm::Solver => "mcts",
        }
    }

    /// The algorithm of a name of [`Algorithm::name`].
    pub fn from_name(name: &str) -> Option<Algorithm> {
        [Algorithm::Uct, Algorithm::Solver]
            .into_iter()
            .find(|a| a.name() == name)
    }
}

/// How a search is set up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Which search runs.
    pub algorithm: Algorithm,
    /// The exploration constant `c` of UCT; `None`, the one tuned for the
    /// game, the algorithm and the cutoff ([`Config::default_exploration`]).
    pub exploration: Option<f64>,
    /// The search threads: with [`Algorithm::Solver`] they grow one tree,
    /// with [`Algorithm::Uct`] one tree each, merged at the root.
    pub threads: usize,
    /// The seed of the random streams: thread `t` draws from stream
    /// `(seed, t)`.
    pub seed: u64,
    /// The most nodes one tree may hold.
    pub max_nodes: usize,
    /// The share of a move's budget that the exact solver
    /// ([`crate::solver`]) gets first, with [`Algorithm::Solver`], in
    /// [`crate::player::MctsPlayer`]: a win it proves is played, and the
    /// tree search gets the rest otherwise. 0 turns it off.
    pub solve_share: f64,
    /// With [`Algorithm::Solver`], the random decisions a playout takes
    /// before the game's static estimate ([`Evaluate`]) scores it instead
    /// of playing on to the end; 0 plays every playout to the end, as
    /// [`Algorithm::Uct`] always does.
    pub cutoff: u32,
}

impl Config {
    /// The solver, one thread, seed 0, the node cap, and the playout
    /// cutoff and exploration constant tuned for the game `G`
    /// ([`Evaluate::CUTOFF`], [`Config::default_exploration`]: left to the
    /// search, so that a config made from this one with another algorithm
    /// or cutoff gets the constant tuned for those).
    pub const fn for_game<G: Evaluate>() -> Config {
        Config {
            algorithm: Algorithm::Solver,
            exploration: None,
            threads: 1,
            seed: 0,
            max_nodes: DEFAULT_MAX_NODES,
            solve_share: DEFAULT_SOLVE_SHARE,
            cutoff: G::CUTOFF,
        }
    }

    /// The exploration constant tuned for the game `G` under `algorithm`
    /// with `cutoff`: [`Evaluate::CUT_EXPLORATION`] where the solver cuts
    /// its playouts, [`Game::EXPLORATION`](crate::game::Game::EXPLORATION)
    /// where they run to the end (always with [`Algorithm::Uct`]).
    pub const fn default_exploration<G: Evaluate>(algorithm: Algorithm, cutoff: u32) -> f64 {
        match algorithm {
            Algorithm::Solver if cutoff > 0 => G::CUT_EXPLORATION,
            Algorithm::Solver | Algorithm::Uct => G::EXPLORATION,
        }
    }

    /// The exploration constant the search uses: the one given, else
    /// [`Config::default_exploration`].
    pub fn exploration_of<G: Evaluate>(&self) -> f64 {
        self.exploration.unwrap_or(Config::default_exploration::<G>(
            self.algorithm,
            self.cutoff,
        ))
    }
}

/// When a search stops: after `iterations` (per thread), after `time`, or
/// at whichever comes first when both are set. With neither it does
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The iterations of each thread.
    pub iterations: Option<u64>,
    /// The wall-clock time.
    pub time: Option<Duration>,
}

impl Budget {
    /// A budget of `n` iterations per thread.
    pub const fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            time: None,
        }
    }

    /// A budget of wall-clock time.
    pub const fn time(time: Duration) -> Budget {
        Budget {
            iterations: None,
            time: Some(time),
        }
    }

    /// This budget scaled by `share` (in `(0, 1]`), keeping at least one
    /// iteration.
    #[must_use]
    #[allow(
        clippy::cast_precision_loss,
        reason = "iteration counts stay far below 2^52"
    )]
    pub fn scaled(self, share: f64) -> Budget {
        Budget {
            iterations: self
                .iterations
                .map(|n| ((n as f64 * share).round() as u64).max(1)),
            time: self.time.map(|t| t.mul_f64(share)),
        }
    }
}

/// What the search knows of one action at the root, merged over the trees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionStats {
    /// The action.
    pub action: Action,
    /// How many iterations went through it.
    pub visits: u64,
    /// The mean result for the seat to act at the root: 1 a win, 0 a loss.
    pub value: f64,
    /// What the search proved of it for the seat to act at the root:
    /// `Some(true)` a win, `Some(false)` a loss, `None` nothing.
    pub proven: Option<bool>,
}

/// What the search knows of one line of play from the root (a sequence of
/// decisions), merged over the trees.
#[derive(Clone, Debug, PartialEq)]
pub struct LineStats {
    /// The decisions, from the root.
    pub actions: Vec<Action>,
    /// How many iterations went through the whole line.
    pub visits: u64,
    /// The mean result for the seat that took the line's last decision.
    pub value: f64,
    /// What the search proved of the line for that seat: `Some(true)` a
    /// win, `Some(false)` a loss, `None` nothing.
    pub proven: Option<bool>,
}

/// The outcome of one call to [`Mcts::search`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// The most visited action at the root, or `None` at the end of a game.
    pub best_action: Option<Action>,
    /// Its mean result for the seat to act (0.5 when nothing is known).
    pub value: f64,
    /// The iterations this call ran, over all trees.
    pub iterations: u64,
    /// The wall-clock time this call took.
    pub elapsed: Duration,
    /// The nodes held by all trees after the call.
    pub nodes: usize,
    /// Whether the solver proved the result at the root (then the search
    /// stops before its budget runs out).
    pub solved: bool,
}

const NO_NODE: u32 = u32::MAX;

/// One node: 24 bytes. Children form a linked list through `next_sibling`.
#[derive(Clone, Copy, Debug)]
struct Node {
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Twice the wins of `mover` (every ended game has a winner:
    /// [`winner_at_end`]).
    half_wins: u32,
    action: Action,
    children: u16,
    /// The seat that took `action`.
    mover: u8,
    /// What the solver proved of the node for `mover` ([`UNPROVEN`],
    /// [`PROVEN_WIN`], [`PROVEN_LOSS`]); fits in the padding.
    proven: u8,
}

/// Nothing is proven of the node.
const UNPROVEN: u8 = 0;
/// The node's mover wins whatever the opponent does.
const PROVEN_WIN: u8 = 1;
/// The node's mover loses whatever it does.
const PROVEN_LOSS: u8 = 2;

impl Node {
    const fn new(action: Action, mover: u8) -> Node {
        Node {
            first_child: NO_NODE,
            next_sibling: NO_NODE,
            visits: 0,
            half_wins: 0,
            action,
            children: 0,
            mover,
            proven: UNPROVEN,
        }
    }

    /// What is proven of the node for its mover, as [`ActionStats::proven`].
    const fn proven(&self) -> Option<bool> {
        match self.proven {
            PROVEN_WIN => Some(true),
            PROVEN_LOSS => Some(false),
            _ => None,
        }
    }

    /// The winner of every game through a proven node (`None` unproven).
    fn proven_winner(&self) -> Option<usize> {
        match self.proven {
            PROVEN_WIN => Some(usize::from(self.mover)),
            PROVEN_LOSS => Some(1 - usize::from(self.mover)),
            _ => None,
        }
    }
}

/// The estimate's chance to win of a playout cut short, in half wins
/// rounded at random (up with the chance of the fraction): the expected
/// score is the estimate's, in the counts' integers.
#[inline]
fn half_wins_of_playout(estimate: f32, rng: &mut Rng) -> u32 {
    let twice = 2.0 * estimate;
    let whole = twice.floor();
    #[allow(clippy::cast_precision_loss)] // 2**24 is exact in f32
    let draw = rng.below(1 << 24) as f32 / (1 << 24) as f32;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 0, 1 or 2
    let half_wins = whole as u32 + u32::from(draw < twice - whole);
    half_wins.min(2)
}

/// The child with the best UCT score among those `children` lists (each
/// with its visits, half wins and proof), below a node of `visits`; the
/// first one on ties. With `PROVE` (the solver), a proven winning child
/// first, and children proven lost for the seat to act passed over while
/// any other is left, scored by [`ucb::Tabled`]; without, by
/// [`ucb::Divided`], as plain UCT always has. `NO_NODE` without children.
#[inline(always)]
fn best_child<const PROVE: bool, I: Iterator<Item = (u32, u32, u32, u8)>>(
    children: impl Fn() -> I,
    visits: u32,
    exploration: f64,
) -> u32 {
    use ucb::Ucb;
    if PROVE {
        let ucb = ucb::Tabled::below(visits, exploration);
        let best = best_scored::<true, _, _>(&children, ucb);
        if best == NO_NODE {
            // Every child is lost (a full tree may leave actions
            // unexpanded): explore among them as UCT would.
            return best_scored::<false, _, _>(&children, ucb);
        }
        best
    } else {
        best_scored::<false, _, _>(&children, ucb::Divided::below(visits, exploration))
    }
}

/// [`best_child`] with the scoring `ucb`.
#[inline(always)]
fn best_scored<const PROVE: bool, I: Iterator<Item = (u32, u32, u32, u8)>, U: ucb::Ucb>(
    children: &impl Fn() -> I,
    ucb: U,
) -> u32 {
    let mut best = NO_NODE;
    let mut best_score = f64::NEG_INFINITY;
    for (child, visits, half_wins, proven) in children() {
        if PROVE {
            match proven {
                PROVEN_WIN => return child,
                PROVEN_LOSS => continue,
                _ => {}
            }
        }
        let score = ucb.score(visits, half_wins);
        if score > best_score {
            best_score = score;
            best = child;
        }
    }
    best
}

/// What the proof backups read and write of a tree's nodes.
trait Proofs {
    /// The proof of `node` ([`UNPROVEN`], [`PROVEN_WIN`], [`PROVEN_LOSS`]).
    fn proven(&self, node: u32) -> u8;
    /// The seat that took the action of `node`.
    fn mover(&self, node: u32) -> u8;
    /// Whether `node` has a child for each of its `legal` actions, all
    /// proven lost.
    fn all_lost(&self, node: u32, legal: u32) -> bool;
    /// Records the proof of `node`.
    fn prove(&mut self, node: u32, proof: u8);
}

impl Proofs for [Node] {
    fn proven(&self, node: u32) -> u8 {
        self[node as usize].proven
    }

    fn mover(&self, node: u32) -> u8 {
        self[node as usize].mover
    }

    fn all_lost(&self, node: u32, legal: u32) -> bool {
        if u32::from(self[node as usize].children) != legal {
            return false;
        }
        let mut child = self[node as usize].first_child;
        while child != NO_NODE {
            if self[child as usize].proven != PROVEN_LOSS {
                return false;
            }
            child = self[child as usize].next_sibling;
        }
        true
    }

    fn prove(&mut self, node: u32, proof: u8) {
        self[node as usize].proven = proof;
    }
}

/// Backs a proof of the leaf of `path` up the path (`legal`: the number
/// of legal actions at each node of the path but the last): a node whose
/// seat to act has a winning child is won for that seat; one all of whose
/// legal actions have children lost for it is lost for it. Seats are
/// compared, not alternated, since a seat may take several decisions in a
/// row. Returns whether the node at depth `top` of the path (the root of
/// the search) is solved.
fn back_up_proof(
    nodes: &mut (impl Proofs + ?Sized),
    path: &[u32],
    legal: &[u32],
    top: usize,
) -> bool {
    let mut solved = false;
    for depth in (0..path.len() - 1).rev() {
        let (parent, child) = (path[depth], path[depth + 1]);
        let seat = nodes.mover(child);
        let won_by_seat = match nodes.proven(child) {
            PROVEN_WIN => true,
            PROVEN_LOSS if nodes.all_lost(parent, legal[depth]) => false,
            _ => return solved,
        };
        solved |= depth == top;
        if depth == 0 {
            // The root keeps no proof of its own: its children say.
            return solved;
        }
        let proof = if won_by_seat == (nodes.mover(parent) == seat) {
            PROVEN_WIN
        } else {
            PROVEN_LOSS
        };
        nodes.prove(parent, proof);
    }
    solved
}

/// A uniformly random action of `actions` that none of `taken` (the actions
/// of a node's children) is, or `None` when every action is taken; `marks`
/// is scratch space, one bit an action.
fn untried_action<A: ActionSet>(
    actions: &A,
    taken: impl Iterator<Item = Action>,
    num_actions: usize,
    marks: &mut Vec<u64>,
    rng: &mut Rng,
) -> Option<Action> {
    marks.clear();
    marks.resize(num_actions.div_ceil(64), 0);
    let mut count = 0;
    for action in taken {
        let index = usize::from(action);
        marks[index / 64] |= 1 << (index % 64);
        count += 1;
    }
    let untried = actions.len().checked_sub(count).filter(|&n| n > 0)?;
    let mut pick = rng.below(u64::from(untried)) as u32;
    actions.iter().find(|&action| {
        let index = usize::from(action);
        if marks[index / 64] & (1 << (index % 64)) != 0 {
            return false;
        }
        let found = pick == 0;
        pick = pick.wrapping_sub(1);
        found
    })
}

/// One tree, its root state and its random stream.
#[derive(Clone, Debug)]
struct Tree<G> {
    root: G,
    /// `nodes[0]` is the root.
    nodes: Vec<Node>,
    rng: Rng,
    /// Scratch: the nodes of the current iteration, root first.
    path: Vec<u32>,
    /// Scratch: which actions a node has children for.
    tried: Vec<u64>,
    /// Scratch (solver): the number of legal actions at each node of
    /// `path` but the last.
    legal: Vec<u32>,
    /// Scratch: the features of a playout's last state, for its estimate.
    features: Vec<f32>,
    /// Scratch: the nodes' links while several threads grow the tree.
    links: Vec<shared::Link>,
}

impl<G: Evaluate> Tree<G> {
    fn new(root: G, rng: Rng) -> Tree<G> {
        Tree {
            root,
            nodes: vec![Node::new(0, 0)],
            rng,
            path: Vec::new(),
            tried: Vec::new(),
            legal: Vec::new(),
            features: Vec::new(),
            links: Vec::new(),
        }
    }

    fn reset(&mut self, root: G) {
        self.root = root;
        self.nodes.clear();
        self.nodes.push(Node::new(0, 0));
    }

    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            let current = next;
            (current != NO_NODE).then(|| {
                next = self.nodes[current as usize].next_sibling;
                current
            })
        })
    }

    fn child_with(&self, node: u32, action: Action) -> Option<u32> {
        self.children(node)
            .find(|&child| self.nodes[child as usize].action == action)
    }

    /// The node `prefix` leads to from the root, added where the tree has
    /// none yet, and its state; the path is left at the nodes on the way
    /// and (with `count_legal`, for the solver) `legal` at their numbers of
    /// legal actions.
    fn descend(&mut self, prefix: &[Action], count_legal: bool) -> (u32, G) {
        let mut state = self.root.clone();
        let mut node = 0u32;
        self.path.clear();
        self.path.push(0);
        self.legal.clear();
        for &action in prefix {
            if count_legal {
                self.legal.push(state.legal_actions().len());
            }
            node = match self.child_with(node, action) {
                Some(child) => child,
                None => self.add_child(node, action, state.seat_to_act()),
            };
            state.apply(action);
            self.path.push(node);
        }
        (node, state)
    }

    /// The node `prefix` leads to from the root, if the tree has it.
    fn node_at(&self, prefix: &[Action]) -> Option<u32> {
        prefix
            .iter()
            .try_fold(0u32, |node, &action| self.child_with(node, action))
    }

    /// One iteration below the node `prefix` leads to (the root when it is
    /// empty): select, expand one node, play out, back up the whole path.
    ///
    /// With `PROVE` (proof backups), a proven node is not played out (its
    /// result is known), a leaf at the end of the game is proven, proofs are
    /// backed up, and selection passes over children proven lost; it returns
    /// whether the root of the search is now solved (always false without).
    fn iterate<const PROVE: bool>(
        &mut self,
        prefix: &[Action],
        exploration: f64,
        max_nodes: usize,
        cutoff: u32,
    ) -> bool {
        let (mut node, mut state) = self.descend(prefix, PROVE);
        let top = node;
        let mut known = None;
        loop {
            let current = self.nodes[node as usize];
            if PROVE && node != top && current.proven != UNPROVEN {
                known = current.proven_winner();
                break;
            }
            let actions = state.legal_actions();
            let legal = actions.len();
            if legal == 0 {
                break;
            }
            if PROVE {
                self.legal.push(legal);
            }
            if u32::from(current.children) < legal && self.nodes.len() < max_nodes {
                self.expand(node, &actions, &mut state);
                break;
            }
            if current.first_child == NO_NODE {
                if PROVE {
                    self.legal.pop();
                }
                break;
            }
            node = self.select::<PROVE>(node, exploration);
            state.apply(self.nodes[node as usize].action);
            self.path.push(node);
        }
        // The playout's result: a seat and its half wins (2 for a win).
        let (seat, half_wins) = if let Some(winner) = known {
            (winner, 2)
        } else {
            let limit = if PROVE && cutoff > 0 {
                cutoff
            } else {
                u32::MAX
            };
            // The baseline keeps the playout of one decision at a time, so
            // that it stays the reference it was (its games and its speed).
            let steps = if PROVE {
                state.play_random(&mut self.rng, limit)
            } else {
                play_random_decisions(&mut state, &mut self.rng, limit)
            };
            if steps < limit {
                let winner = winner_at_end(&state);
                let leaf = *self.path.last().expect("the root is on the path");
                if PROVE && steps == 0 && leaf != top {
                    // The leaf is the end of the game: proven either way.
                    let node = &mut self.nodes[leaf as usize];
                    node.proven = if winner == usize::from(node.mover) {
                        PROVEN_WIN
                    } else {
                        PROVEN_LOSS
                    };
                }
                (winner, 2)
            } else {
                let estimate = state.estimate_with(&mut self.features);
                (
                    state.seat_to_act(),
                    half_wins_of_playout(estimate, &mut self.rng),
                )
            }
        };
        for &index in &self.path {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            node.half_wins += if seat == usize::from(node.mover) {
                half_wins
            } else {
                2 - half_wins
            };
        }
        PROVE && back_up_proof(&mut self.nodes[..], &self.path, &self.legal, prefix.len())
    }

    /// Whether the seat to act at the node `prefix` leads to has a proven
    /// winning action there, or all of its legal actions are proven lost.
    fn solved_at(&self, prefix: &[Action]) -> bool {
        let Some(node) = self.node_at(prefix) else {
            return false;
        };
        let mut state = self.root.clone();
        for &action in prefix {
            state.apply(action);
        }
        let legal = state.legal_actions().len();
        let mut lost = 0;
        for child in self.children(node) {
            match self.nodes[child as usize].proven {
                PROVEN_WIN => return true,
                PROVEN_LOSS => lost += 1,
                _ => {}
            }
        }
        legal > 0 && lost == legal
    }

    /// Adds a child of `node` for an action not tried there yet, takes that
    /// action in `state` and puts the child at the end of the path.
    #[inline]
    fn expand(&mut self, node: u32, actions: &G::Actions, state: &mut G) {
        let action = self.untried(node, actions, state.num_actions());
        let child = self.add_child(node, action, state.seat_to_act());
        state.apply(action);
        self.path.push(child);
    }

    /// Adds a child of `node` for `action`, taken by `mover`; returns it.
    #[inline]
    fn add_child(&mut self, node: u32, action: Action, mover: usize) -> u32 {
        let child = self.nodes.len() as u32;
        let mut fresh = Node::new(action, mover as u8);
        fresh.next_sibling = self.nodes[node as usize].first_child;
        self.nodes.push(fresh);
        let parent = &mut self.nodes[node as usize];
        parent.first_child = child;
        parent.children += 1;
        child
    }

    /// A uniformly random legal action that `node` has no child for yet.
    fn untried(&mut self, node: u32, actions: &G::Actions, num_actions: usize) -> Action {
        let nodes = &self.nodes;
        let mut next = nodes[node as usize].first_child;
        let taken = std::iter::from_fn(|| {
            (next != NO_NODE).then(|| {
                let child = &nodes[next as usize];
                next = child.next_sibling;
                child.action
            })
        });
        untried_action(actions, taken, num_actions, &mut self.tried, &mut self.rng)
            .expect("a node with fewer children than actions has an untried action")
    }

    /// The child of `node` with the best UCT score; the first one on ties.
    /// With `PROVE`, a proven winning child first, and children proven lost
    /// for the seat to act passed over while any other is left.
    fn select<const PROVE: bool>(&self, node: u32, exploration: f64) -> u32 {
        let children = || {
            self.children(node).map(|child| {
                let stats = &self.nodes[child as usize];
                (child, stats.visits, stats.half_wins, stats.proven)
            })
        };
        best_child::<PROVE, _>(children, self.nodes[node as usize].visits, exploration)
    }

    /// Searches below the node `prefix` leads to within `budget`; returns
    /// the iterations run.
    fn run(
        &mut self,
        prefix: &[Action],
        budget: Budget,
        config: &Config,
        start: Instant,
        stop: &AtomicBool,
    ) -> u64 {
        // Checking the clock costs a system call: every 16 iterations is
        // often enough (an iteration takes microseconds). The stop flag is
        // read at the same time.
        const CLOCK_EVERY: u64 = 16;
        let mut top = self.root.clone();
        for &action in prefix {
            top.apply(action);
        }
        if top.legal_actions().is_empty() {
            return 0;
        }
        let limit = budget.iterations.unwrap_or(u64::MAX);
        let deadline = budget.time.map(|t| start + t);
        let solver = config.algorithm == Algorithm::Solver;
        if solver && self.solved_at(prefix) {
            return 0;
        }
        let exploration = config.exploration_of::<G>();
        let mut compact_at = (2 * self.nodes.len()).max(COMPACT_FROM);
        let mut done = 0;
        while done < limit {
            if done % CLOCK_EVERY == 0
                && (stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d))
            {
                break;
            }
            if self.nodes.len() >= compact_at {
                self.compact();
                compact_at = 2 * self.nodes.len();
            }
            done += 1;
            // A solved root has nothing left to learn: stop early.
            let solved = if solver {
                self.iterate::<true>(prefix, exploration, config.max_nodes, config.cutoff)
            } else {
                self.iterate::<false>(prefix, exploration, config.max_nodes, 0)
            };
            if solved {
                break;
            }
        }
        done
    }

    /// Makes the child of the root reached by `action` the new root, keeping
    /// its subtree; a root without that child starts afresh.
    fn advance(&mut self, action: Action) {
        let mut state = self.root.clone();
        state.apply(action);
        match self.child_with(0, action) {
            Some(child) => self.keep_subtree(child, state),
            None => self.reset(state),
        }
    }

    /// Lays the tree out again breadth first, each node's children side
    /// by side, as [`Tree::keep_subtree`] does: the nodes added one at a
    /// time lie where their turn came, and selection, which reads every
    /// child of a node, then follows a chain of cache misses.
    fn compact(&mut self) {
        let root = self.root.clone();
        self.keep_subtree(0, root);
    }

    /// Copies the subtree of `top` into a fresh arena with `top` as root.
    fn keep_subtree(&mut self, top: u32, state: G) {
        let mut kept = Vec::with_capacity(self.nodes.capacity());
        let mut root = self.nodes[top as usize];
        root.next_sibling = NO_NODE;
        kept.push(root);
        // Breadth first: each kept node's children are copied in order and
        // its `first_child` rewritten to the copies' indices.
        let mut index = 0;
        while index < kept.len() {
            let old_first = kept[index].first_child;
            if old_first != NO_NODE {
                let first_new = kept.len() as u32;
                let mut old = old_first;
                while old != NO_NODE {
                    let mut copy = self.nodes[old as usize];
                    old = copy.next_sibling;
                    copy.next_sibling = if old == NO_NODE {
                        NO_NODE
                    } else {
                        kept.len() as u32 + 1
                    };
                    kept.push(copy);
                }
                kept[index].first_child = first_new;
            }
            index += 1;
        }
        self.nodes = kept;
        self.root = state;
    }
}

impl<G: Evaluate + PartialEq> Tree<G> {
    /// The node below the root (at most `max_depth` decisions down) whose
    /// state is `target`. Subtrees whose state `may_lead` rules out are
    /// skipped.
    fn find(&self, target: &G, max_depth: usize, may_lead: &impl Fn(&G) -> bool) -> Option<u32> {
        let mut frontier = vec![(0u32, self.root.clone())];
        for _ in 0..max_depth {
            let mut next = Vec::new();
            for (node, state) in frontier {
                for child in self.children(node) {
                    let mut after = state.clone();
                    after.apply(self.nodes[child as usize].action);
                    if &after == target {
                        return Some(child);
                    }
                    if may_lead(&after) {
                        next.push((child, after));
                    }
                }
            }
            frontier = next;
        }
        None
    }
}

/// A search that lives across moves: one tree per thread, of which the
/// solver's threads all grow the first.
#[derive(Clone, Debug)]
pub struct Mcts<G> {
    config: Config,
    trees: Vec<Tree<G>>,
}

impl<G: Evaluate> Mcts<G> {
    /// A search rooted at `root`. A `threads` of 0 counts as 1.
    pub fn new(root: G, config: Config) -> Mcts<G> {
        let config = Config {
            threads: config.threads.max(1),
            max_nodes: config.max_nodes.max(1),
            ..config
        };
        let mut trees: Vec<Tree<G>> = (1..config.threads)
            .map(|t| Tree::new(root.clone(), Rng::for_game(config.seed, t as u64)))
            .collect();
        trees.insert(0, Tree::new(root, Rng::for_game(config.seed, 0)));
        Mcts { config, trees }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The state at the root.
    pub fn root(&self) -> &G {
        &self.trees[0].root
    }

    /// The nodes held by all trees.
    pub fn node_count(&self) -> usize {
        self.trees.iter().map(|tree| tree.nodes.len()).sum()
    }

    /// The iterations that went through the root so far, over all trees.
    pub fn root_visits(&self) -> u64 {
        self.trees
            .iter()
            .map(|tree| u64::from(tree.nodes[0].visits))
            .sum()
    }

    /// Grows the tree or trees within `budget` and returns the best action.
    pub fn search(&mut self, budget: Budget) -> SearchInfo {
        self.search_until(budget, &AtomicBool::new(false))
    }

    /// [`Mcts::search`], which also ends soon after `stop` is raised (by
    /// another thread); the best action is then the best found so far. A
    /// flag raised before the call runs no iteration.
    pub fn search_until(&mut self, budget: Budget, stop: &AtomicBool) -> SearchInfo {
        self.search_from(&[], budget, stop)
    }

    /// [`Mcts::search_until`] of the position the decisions `prefix` lead
    /// to from the root, without re-rooting: every iteration goes through
    /// `prefix`, and the best action is that of its end. The statistics
    /// below it are those a search re-rooted there ([`Mcts::advance`])
    /// would gather, while the trees keep the root and its other lines.
    pub fn search_from(
        &mut self,
        prefix: &[Action],
        budget: Budget,
        stop: &AtomicBool,
    ) -> SearchInfo {
        let start = Instant::now();
        let config = self.config;
        let iterations = if self.trees.len() > 1 && config.algorithm == Algorithm::Solver {
            self.run_shared(prefix, budget, start, stop)
        } else if let [tree] = self.trees.as_mut_slice() {
            tree.run(prefix, budget, &config, start, stop)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .map(|tree| scope.spawn(move || tree.run(prefix, budget, &config, start, stop)))
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| handle.join().expect("a search thread panicked"))
                    .sum()
            })
        };
        let stats = self.stats_at(prefix);
        let best = best_of(&stats);
        SearchInfo {
            best_action: best.map(|s| s.action),
            value: best.map_or(0.5, |s| s.value),
            iterations,
            elapsed: start.elapsed(),
            nodes: self.node_count(),
            solved: self.trees.iter().any(|tree| tree.solved_at(prefix)),
        }
    }

    /// Grows the first tree on as many threads as there are trees (tree
    /// parallelism, [`shared`]), each thread with the random stream of its
    /// tree; returns the iterations run.
    #[inline(never)]
    fn run_shared(
        &mut self,
        prefix: &[Action],
        budget: Budget,
        start: Instant,
        stop: &AtomicBool,
    ) -> u64 {
        let config = self.config;
        let (tree, others) = self.trees.split_first_mut().expect("a tree");
        let (_, top) = tree.descend(prefix, false);
        if top.legal_actions().is_empty() || tree.solved_at(prefix) {
            return 0;
        }
        let path: Vec<(u32, Action)> = tree.path[1..]
            .iter()
            .copied()
            .zip(prefix.iter().copied())
            .collect();
        let mut workers: Vec<shared::Worker> = std::iter::once(&tree.rng)
            .chain(others.iter().map(|other| &other.rng))
            .map(|rng| shared::Worker::new(rng.clone()))
            .collect();
        // The threads add nodes where the others read them: the buffer
        // must not move. Where it cannot grow to the cap, the tree stops
        // growing where it is full.
        let room = config.max_nodes.saturating_sub(tree.nodes.len());
        let _ = tree.nodes.try_reserve_exact(room);
        let nodes = shared::SharedNodes::new(&mut tree.nodes, &mut tree.links, config.max_nodes);
        let iterations = shared::run(
            &nodes,
            &tree.root,
            &path,
            &mut workers,
            &config,
            (budget, start, stop),
        );
        // SAFETY: the view was made of these nodes, untouched since.
        unsafe { nodes.finish(&mut tree.nodes) };
        for (tree, worker) in self.trees.iter_mut().zip(workers) {
            tree.rng = worker.rng;
        }
        iterations
    }

    /// The statistics of the root's actions, merged over the trees, in
    /// ascending action order.
    pub fn root_stats(&self) -> Vec<ActionStats> {
        self.stats_at(&[])
    }

    /// The statistics of the actions at the position the decisions
    /// `prefix` lead to from the root, merged over the trees, in ascending
    /// action order.
    #[allow(
        clippy::cast_precision_loss,
        reason = "visit counts stay far below 2^52"
    )]
    pub fn stats_at(&self, prefix: &[Action]) -> Vec<ActionStats> {
        let mut merged: Vec<(Action, u64, u64, Option<bool>)> = Vec::new();
        for tree in &self.trees {
            let Some(node) = tree.node_at(prefix) else {
                continue;
            };
            for child in tree.children(node) {
                let node = &tree.nodes[child as usize];
                match merged.iter_mut().find(|(a, _, _, _)| *a == node.action) {
                    Some(entry) => {
                        entry.1 += u64::from(node.visits);
                        entry.2 += u64::from(node.half_wins);
                        // A proof holds in every tree.
                        entry.3 = entry.3.or(node.proven());
                    }
                    None => merged.push((
                        node.action,
                        u64::from(node.visits),
                        u64::from(node.half_wins),
                        node.proven(),
                    )),
                }
            }
        }
        merged.sort_unstable_by_key(|&(action, _, _, _)| action);
        merged
            .into_iter()
            .map(|(action, visits, half_wins, proven)| ActionStats {
                action,
                visits,
                value: if visits == 0 {
                    0.5
                } else {
                    half_wins as f64 / (2 * visits) as f64
                },
                proven,
            })
            .collect()
    }

    /// The explored lines of play from the root that end where `ends` says
    /// (say, at the start of the next turn), at most `max_depth` decisions
    /// long, merged over the trees: the most visited first (the better
    /// value, then the lower actions, on ties). Lines no iteration went
    /// through all the way are left out.
    #[allow(
        clippy::cast_precision_loss,
        reason = "visit counts stay far below 2^52"
    )]
    pub fn lines(&self, max_depth: usize, ends: impl Fn(&G) -> bool) -> Vec<LineStats> {
        let mut merged: HashMap<Vec<Action>, (u64, u64, Option<bool>)> = HashMap::new();
        for tree in &self.trees {
            // Depth first, with the state and the actions of the path.
            let mut stack = vec![(0u32, tree.root.clone(), Vec::new())];
            while let Some((node, state, actions)) = stack.pop() {
                for child in tree.children(node) {
                    let stats = tree.nodes[child as usize];
                    if stats.visits == 0 {
                        continue;
                    }
                    let mut after = state.clone();
                    after.apply(stats.action);
                    let mut line = actions.clone();
                    line.push(stats.action);
                    if ends(&after) {
                        let entry = merged.entry(line).or_insert((0, 0, None));
                        entry.0 += u64::from(stats.visits);
                        entry.1 += u64::from(stats.half_wins);
                        entry.2 = entry.2.or(stats.proven());
                    } else if line.len() < max_depth {
                        stack.push((child, after, line));
                    }
                }
            }
        }
        let mut lines: Vec<LineStats> = merged
            .into_iter()
            .map(|(actions, (visits, half_wins, proven))| LineStats {
                actions,
                visits,
                value: half_wins as f64 / (2 * visits) as f64,
                proven,
            })
            .collect();
        lines.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.value.total_cmp(&a.value))
                .then(a.actions.cmp(&b.actions))
        });
        lines
    }

    /// The principal variation: from the root, the action each node would
    /// play ([`Mcts::best_action`]'s rule on the statistics merged over the
    /// trees), at most `max_depth` decisions, as far as the trees go.
    pub fn principal_variation(&self, max_depth: usize) -> Vec<Action> {
        self.principal_variation_from(&[], max_depth)
    }

    /// [`Mcts::principal_variation`] from the position the decisions
    /// `prefix` lead to (which it does not include).
    pub fn principal_variation_from(&self, prefix: &[Action], max_depth: usize) -> Vec<Action> {
        let mut line = Vec::new();
        // The node of each tree that `line` reaches, while it reaches one.
        let mut at: Vec<(usize, u32)> = (0..self.trees.len())
            .filter_map(|t| Some((t, self.trees[t].node_at(prefix)?)))
            .collect();
        while line.len() < max_depth {
            let mut merged: Vec<ActionStats> = Vec::new();
            for &(t, node) in &at {
                let tree = &self.trees[t];
                for child in tree.children(node) {
                    let n = &tree.nodes[child as usize];
                    match merged.iter_mut().find(|s| s.action == n.action) {
                        Some(entry) => {
                            entry.value += f64::from(n.half_wins);
                            entry.visits += u64::from(n.visits);
                            entry.proven = entry.proven.or(n.proven());
                        }
                        None => merged.push(ActionStats {
                            action: n.action,
                            visits: u64::from(n.visits),
                            value: f64::from(n.half_wins),
                            proven: n.proven(),
                        }),
                    }
                }
            }
            for entry in &mut merged {
                #[allow(
                    clippy::cast_precision_loss,
                    reason = "visit counts stay far below 2^52"
                )]
                let visits = entry.visits.max(1) as f64;
                entry.value /= 2.0 * visits;
            }
            let Some(best) = best_of(&merged) else {
                break;
            };
            line.push(best.action);
            at = at
                .into_iter()
                .filter_map(|(t, node)| Some((t, self.trees[t].child_with(node, best.action)?)))
                .collect();
        }
        line
    }

    /// Whether the search proved the result at the root: a winning action
    /// for the seat to act, or every action lost (in any tree).
    pub fn root_solved(&self) -> bool {
        self.trees.iter().any(|tree| tree.solved_at(&[]))
    }

    /// The most visited action at the root (the better value, then the
    /// lower id, on ties), or `None` if nothing was searched. With the
    /// solver, a proven win comes first and a proven loss last.
    pub fn best_action(&self) -> Option<Action> {
        best_of(&self.root_stats()).map(|s| s.action)
    }

    /// Plays the decision `action` at the root of every tree, keeping the
    /// statistics below it. `action` must be legal at the root.
    pub fn advance(&mut self, action: Action) {
        for tree in &mut self.trees {
            tree.advance(action);
        }
    }

    /// Forgets everything and roots the search at `root`.
    pub fn reset(&mut self, root: &G) {
        for tree in &mut self.trees {
            tree.reset(root.clone());
        }
    }
}

impl<G: Evaluate + PartialEq> Mcts<G> {
    /// Re-roots the search at `state`: keeps the subtree of the node that
    /// reaches it within `max_depth` decisions of the root (the opponent's
    /// reply since the last move, say); otherwise starts afresh. Returns
    /// whether statistics were kept.
    pub fn set_root(&mut self, state: &G, max_depth: usize) -> bool {
        self.set_root_pruned(state, max_depth, |_| true)
    }

    /// [`Mcts::set_root`], skipping the subtrees of states for which
    /// `may_lead` is false (a game-specific test that a state cannot
    /// precede `state`, which saves walking the whole tree).
    pub fn set_root_pruned(
        &mut self,
        state: &G,
        max_depth: usize,
        may_lead: impl Fn(&G) -> bool,
    ) -> bool {
        if self.root() == state {
            return true;
        }
        let mut kept = false;
        for tree in &mut self.trees {
            match tree.find(state, max_depth, &may_lead) {
                Some(node) => {
                    tree.keep_subtree(node, state.clone());
                    kept = true;
                }
                None => tree.reset(state.clone()),
            }
        }
        kept
    }
}

/// The action to play: the most visited (the better value, then the lower
/// id, on ties) among the proven wins if there is one, else among the
/// actions not proven lost if there is one, else among all. Plain UCT
/// proves nothing, so it plays the most visited.
fn best_of(stats: &[ActionStats]) -> Option<ActionStats> {
    let rank = |s: &ActionStats| match s.proven {
        Some(true) => 2,
        None => 1,
        Some(false) => 0,
    };
    stats
        .iter()
        .copied()
        .filter(|s| s.visits > 0)
        .max_by(|a, b| {
            rank(a)
                .cmp(&rank(b))
                .then(a.visits.cmp(&b.visits))
                .then(a.value.total_cmp(&b.value))
                .then(b.action.cmp(&a.action))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::veletas::decision::square_id;
    use crate::veletas::{DecisionState, Lines, Position, Rules, SetupRule, Variant};

    /// A game of four states without a winner ever declared: from state 0,
    /// seat 0 goes to state 1 (seat 1 to act, without a legal action) or to
    /// state 2, where seat 1's one action leads to state 3 (seat 0 to act,
    /// without a legal action).
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Stuck(u8);

    /// The first `0` actions.
    struct First(u32);

    impl ActionSet for First {
        fn len(&self) -> u32 {
            self.0
        }
        fn nth(&self, k: u32) -> Option<Action> {
            (k < self.0).then_some(k as Action)
        }
        fn contains(&self, action: Action) -> bool {
            u32::from(action) < self.0
        }
    }

    impl Game for Stuck {
        type Actions = First;
        const EXPLORATION: f64 = 1.0;
        fn num_actions(&self) -> usize {
            2
        }
        fn legal_actions(&self) -> First {
            First(match self.0 {
                0 => 2,
                2 => 1,
                _ => 0,
            })
        }
        fn apply(&mut self, action: Action) {
            self.0 = match (self.0, action) {
                (0, 0) => 1,
                (0, _) => 2,
                _ => 3,
            };
        }
        fn seat_to_act(&self) -> usize {
            usize::from(matches!(self.0, 1 | 2))
        }
        fn winner(&self) -> Option<usize> {
            None
        }
    }

    impl Evaluate for Stuck {
        const FEATURE_NAMES: &'static [&'static str] = &["bias"];
        const WEIGHTS: &'static [f32] = &[0.0];
        const CUTOFF: u32 = 0;
        const CUT_EXPLORATION: f64 = 1.0;
        fn features(&self, out: &mut Vec<f32>) {
            out.clear();
            out.push(1.0);
        }
    }

    #[test]
    fn a_seat_left_without_a_legal_action_loses_in_both_searches() {
        for algorithm in [Algorithm::Uct, Algorithm::Solver] {
            let mut search = Mcts::new(
                Stuck(0),
                Config {
                    algorithm,
                    ..Config::for_game::<Stuck>()
                },
            );
            let info = search.search(Budget::iterations(200));
            assert_eq!(info.best_action, Some(0), "{algorithm:?}");
            for stats in search.root_stats() {
                let won = stats.action == 0;
                let expected = if won { 1.0 } else { 0.0 };
                assert!((stats.value - expected).abs() < 1e-12, "{algorithm:?}");
                if algorithm == Algorithm::Solver {
                    assert_eq!(stats.proven, Some(won));
                }
            }
            // The solver proves the win and stops at once.
            assert_eq!(info.solved, algorithm == Algorithm::Solver);
        }
    }

    /// One seat's walk of 100 decisions (two actions each), won at the
    /// end; its estimate says 3 to 1 at every step.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Walk(u16);

    impl Game for Walk {
        type Actions = First;
        const EXPLORATION: f64 = 1.0;
        fn num_actions(&self) -> usize {
            2
        }
        fn legal_actions(&self) -> First {
            First(if self.0 < 100 { 2 } else { 0 })
        }
        fn apply(&mut self, _: Action) {
            self.0 += 1;
        }
        fn seat_to_act(&self) -> usize {
            0
        }
        fn winner(&self) -> Option<usize> {
            (self.0 == 100).then_some(0)
        }
    }

    impl Evaluate for Walk {
        const FEATURE_NAMES: &'static [&'static str] = &["bias"];
        const WEIGHTS: &'static [f32] = &[1.098_612_3]; // ln 3
        const CUTOFF: u32 = 4;
        const CUT_EXPLORATION: f64 = 1.0;
        fn features(&self, out: &mut Vec<f32>) {
            out.clear();
            out.push(1.0);
        }
    }

    #[test]
    fn a_config_made_from_the_games_takes_the_constant_of_its_own_playouts() {
        use crate::veletas::DecisionState;
        let default = Config::for_game::<DecisionState>();
        let of = |config: Config| config.exploration_of::<DecisionState>();
        assert_eq!(
            of(default).to_bits(),
            DecisionState::CUT_EXPLORATION.to_bits()
        );
        let to_the_end = <DecisionState as Game>::EXPLORATION.to_bits();
        let uct = Config {
            algorithm: Algorithm::Uct,
            ..default
        };
        assert_eq!(of(uct).to_bits(), to_the_end);
        let uncut = Config {
            cutoff: 0,
            ..default
        };
        assert_eq!(of(uncut).to_bits(), to_the_end);
        let given = Config {
            exploration: Some(0.25),
            ..uct
        };
        assert_eq!(of(given).to_bits(), 0.25_f64.to_bits());
        assert_ne!(DecisionState::CUT_EXPLORATION.to_bits(), to_the_end);
    }

    #[test]
    #[allow(clippy::cast_precision_loss)] // a few thousand visits
    fn a_playout_cut_short_scores_the_estimate() {
        let value = |algorithm, cutoff| {
            let config = Config {
                algorithm,
                cutoff,
                ..Config::for_game::<Walk>()
            };
            let mut search = Mcts::new(Walk(0), config);
            search.search(Budget::iterations(4000));
            let stats = search.root_stats();
            stats.iter().map(|s| s.value * s.visits as f64).sum::<f64>()
                / stats.iter().map(|s| s.visits as f64).sum::<f64>()
        };
        // Cut short, the walk is worth the estimate's 3 to 1 (half wins
        // rounded at random average out); played out, a sure win.
        assert!((value(Algorithm::Solver, 4) - 0.75).abs() < 0.03);
        assert!((value(Algorithm::Solver, 0) - 1.0).abs() < 1e-9);
        // The baseline plays out whatever the cutoff.
        assert!((value(Algorithm::Uct, 4) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn uct_plays_the_same_whatever_the_cutoff() {
        let run = |cutoff| {
            let config = Config {
                algorithm: Algorithm::Uct,
                cutoff,
                ..config(5)
            };
            let mut search = Mcts::new(state(MIDGAME), config);
            search.search(Budget::iterations(2000));
            search.root_stats()
        };
        assert_eq!(run(0), run(3));
    }

    #[test]
    fn a_cut_search_is_deterministic_and_differs_from_one_played_out() {
        let run = |cutoff| {
            let config = Config {
                cutoff,
                ..config(5)
            };
            let mut search = Mcts::new(state(MIDGAME), config);
            search.search(Budget::iterations(2000));
            search.root_stats()
        };
        assert_eq!(run(6), run(6));
        assert_ne!(run(6), run(0));
    }

    fn state(fen: &str) -> DecisionState {
        DecisionState::new(
            Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap(),
        )
    }

    fn config(seed: u64) -> Config {
        Config {
            seed,
            ..Config::for_game::<DecisionState>()
        }
    }

    const MIDGAME: &str = "7/2x4/7/1s5/7/o1s2s1/7 b play 3";

    #[test]
    fn one_thread_with_a_seed_is_deterministic() {
        let run = |seed| {
            let mut search = Mcts::new(state(MIDGAME), config(seed));
            let info = search.search(Budget::iterations(3000));
            (info.best_action, search.root_stats(), search.node_count())
        };
        assert_eq!(run(11), run(11));
        let (_, stats_a, _) = run(11);
        let (_, stats_b, _) = run(12);
        assert_ne!(stats_a, stats_b, "another seed explores differently");
    }

    /// Every node of `tree` below `node`, depth first in the order of the
    /// children lists: action, visits, half wins, proof.
    fn walk<G: Evaluate>(tree: &Tree<G>, node: u32, out: &mut Vec<(Action, u32, u32, u8)>) {
        for child in tree.children(node) {
            let n = tree.nodes[child as usize];
            out.push((n.action, n.visits, n.half_wins, n.proven));
            walk(tree, child, out);
        }
    }

    #[test]
    fn laying_the_tree_out_again_changes_nothing_the_search_sees() {
        let run = |compact: bool| {
            let mut search = Mcts::new(state(MIDGAME), config(5));
            search.search(Budget::iterations(2000));
            if compact {
                let before = search.trees[0].nodes.clone();
                search.trees[0].compact();
                let after = &search.trees[0].nodes;
                assert_eq!(before.len(), after.len());
                assert!(before.iter().zip(after).any(|(a, b)| a.action != b.action));
            }
            // Below the size at which the second search would lay it out.
            let info = search.search(Budget::iterations(2000));
            assert!(search.node_count() < COMPACT_FROM);
            let mut nodes = Vec::new();
            walk(&search.trees[0], 0, &mut nodes);
            (info.best_action, search.root_stats(), nodes)
        };
        assert_eq!(run(true), run(false));
    }

    #[test]
    fn the_budget_counts_iterations_and_root_visits() {
        let mut search = Mcts::new(state(MIDGAME), config(1));
        let info = search.search(Budget::iterations(500));
        assert_eq!(info.iterations, 500);
        assert_eq!(search.root_visits(), 500);
        let visits: u64 = search.root_stats().iter().map(|s| s.visits).sum();
        assert_eq!(visits, 500);
        let timed = search.search(Budget::time(Duration::from_millis(30)));
        assert!(timed.iterations > 0);
        assert_eq!(search.root_visits(), 500 + timed.iterations);
    }

    #[test]
    fn finds_an_immediate_win() {
        // 7x7, Black to move with one claim: the shooter on a6 is boxed in
        // but for a7; a black stone there traps it next to a black group
        // of three, Black's second claim.
        let fen = "1o5/sx5/xx5/7/3s3/7/1o3oX b play 3";
        let pos = Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
        let winning: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut after = pos;
                after.play_unchecked(m);
                after.winner() == Some(crate::veletas::Color::Black)
            })
            .collect();
        assert!(!winning.is_empty(), "the test position has a winning move");
        let mut search = Mcts::new(DecisionState::new(pos), config(3));
        let mut actions = Vec::new();
        // Search decision by decision, as the bots do.
        while search.root().stage() != crate::veletas::Stage::Start || actions.is_empty() {
            let action = search.search(Budget::iterations(4000)).best_action.unwrap();
            actions.push(action);
            search.advance(action);
        }
        assert_eq!(
            search.root().winner(),
            Some(0),
            "actions {actions:?} do not win"
        );
    }

    #[test]
    fn advancing_keeps_the_statistics_of_the_subtree() {
        let mut search = Mcts::new(state(MIDGAME), config(5));
        search.search(Budget::iterations(5000));
        let best = search.best_action().unwrap();
        let before = search
            .root_stats()
            .into_iter()
            .find(|s| s.action == best)
            .unwrap();
        search.advance(best);
        assert_eq!(search.root_visits(), before.visits);
        // The visits below the new root are those of its children (the
        // iterations that stopped at it expanded one child each).
        let below: u64 = search.root_stats().iter().map(|s| s.visits).sum();
        assert!(below + 1 >= before.visits && below <= before.visits);
        assert!(search.node_count() < 5001);

        // An unexplored action starts a fresh tree.
        let mut other = Mcts::new(state(MIDGAME), config(5));
        let d = square_id("f2".parse().unwrap(), 7);
        other.advance(d);
        assert_eq!(other.root_visits(), 0);
        assert_eq!(other.node_count(), 1);
    }

    #[test]
    fn set_root_finds_the_position_a_turn_later() {
        let start = state(MIDGAME);
        let mut search = Mcts::new(start, config(9));
        search.search(Budget::iterations(20_000));
        // Follow the most visited path for one whole turn.
        let mut expected = start;
        let mut depth = 0;
        let mut probe = search.clone();
        loop {
            let action = probe.best_action().unwrap();
            probe.advance(action);
            expected.apply(action).unwrap();
            depth += 1;
            if expected.stage() == crate::veletas::Stage::Start {
                break;
            }
        }
        let visits = probe.root_visits();
        assert!(visits > 0);
        assert!(search.set_root(&expected, depth));
        assert_eq!(search.root(), &expected);
        assert_eq!(search.root_visits(), visits);
        // A position that is not below the root resets the tree.
        let elsewhere = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
        assert!(!search.set_root(&elsewhere, 6));
        assert_eq!(search.root_visits(), 0);
    }

    #[test]
    fn threads_count_every_iteration_in_both_searches() {
        for algorithm in [Algorithm::Solver, Algorithm::Uct] {
            let mut search = Mcts::new(
                state(MIDGAME),
                Config {
                    threads: 2,
                    algorithm,
                    ..config(4)
                },
            );
            let info = search.search(Budget::iterations(1000));
            assert_eq!(info.iterations, 2000);
            assert_eq!(search.root_visits(), 2000);
            let merged: u64 = search.root_stats().iter().map(|s| s.visits).sum();
            assert_eq!(merged, 2000);
        }
    }

    /// Checks the tree below `node` (in `state`): no action has two
    /// children, each child's action is legal, the number of children is
    /// the list's, and a node has the visits of its children and at most
    /// one more of its own per thread that stopped there; returns its
    /// nodes.
    fn check_subtree<G: Evaluate>(tree: &Tree<G>, node: u32, state: &G) -> usize {
        let mut seen = Vec::new();
        let mut visits = 0;
        let mut nodes = 1;
        for child in tree.children(node) {
            let n = tree.nodes[child as usize];
            assert!(!seen.contains(&n.action), "two children for {}", n.action);
            seen.push(n.action);
            assert!(state.legal_actions().contains(n.action));
            visits += u64::from(n.visits);
            let mut next = state.clone();
            next.apply(n.action);
            nodes += check_subtree(tree, child, &next);
        }
        assert_eq!(usize::from(tree.nodes[node as usize].children), seen.len());
        assert!(u64::from(tree.nodes[node as usize].visits) >= visits);
        nodes
    }

    #[test]
    fn two_threads_grow_one_tree_without_twin_children() {
        let starts: Vec<Box<dyn Fn() -> (usize, usize)>> = vec![
            Box::new(|| grow_one_tree(&state(MIDGAME))),
            Box::new(|| {
                let start = crate::meridians::Position::new(crate::meridians::Size::ALL[0]);
                grow_one_tree(&crate::meridians::DecisionState::new(start))
            }),
        ];
        for grow in starts {
            // Unreached: the slots left in each thread's block.
            let (held, reached) = grow();
            assert!(reached > 1000 && held >= reached, "{held} {reached}");
            assert!(held - reached <= 2 * shared::BLOCK, "{held} {reached}");
        }
    }

    /// Grows one tree from `start` on two threads, at the node cap and
    /// below it; returns the nodes held and those reached from the root.
    fn grow_one_tree<G: Evaluate>(start: &G) -> (usize, usize) {
        let mut capped = Mcts::new(
            start.clone(),
            Config {
                threads: 2,
                max_nodes: 300,
                ..Config::for_game::<G>()
            },
        );
        let info = capped.search(Budget::iterations(2000));
        assert_eq!(info.iterations, 4000);
        let tree = &capped.trees[0];
        assert!(tree.nodes.len() <= 300);
        check_subtree(tree, 0, start);
        let mut search = Mcts::new(
            start.clone(),
            Config {
                threads: 2,
                ..Config::for_game::<G>()
            },
        );
        search.search(Budget::iterations(3000));
        let tree = &search.trees[0];
        // The other trees hold their roots only.
        assert!(search.trees[1..].iter().all(|other| other.nodes.len() == 1));
        (tree.nodes.len(), check_subtree(tree, 0, start))
    }

    #[test]
    fn a_raised_flag_stops_the_search() {
        let mut search = Mcts::new(state(MIDGAME), config(2));
        let raised = AtomicBool::new(true);
        let info = search.search_until(Budget::iterations(1000), &raised);
        assert_eq!(info.iterations, 0);
        assert_eq!(search.root_visits(), 0);
        // Raised from another thread, it ends an unlimited search.
        let stop = AtomicBool::new(false);
        let unlimited = Budget::time(Duration::from_hours(1));
        let info = std::thread::scope(|scope| {
            let searching = scope.spawn(|| search.search_until(unlimited, &stop));
            // Long enough for the search to start on a loaded machine.
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
            searching.join().unwrap()
        });
        assert!(info.iterations > 0);
        assert!(info.best_action.is_some());
        assert!(info.elapsed < Duration::from_mins(1));
    }

    #[test]
    fn lines_merge_the_trees_and_end_where_asked() {
        let mut search = Mcts::new(
            state(MIDGAME),
            Config {
                threads: 2,
                ..config(6)
            },
        );
        search.search(Budget::iterations(3000));
        let turn_ends = |s: &DecisionState| s.stage() == crate::veletas::Stage::Start;
        let lines = search.lines(3, turn_ends);
        assert!(!lines.is_empty());
        for pair in lines.windows(2) {
            assert!(pair[0].visits >= pair[1].visits);
        }
        let start = state(MIDGAME);
        let mut total = 0;
        for line in &lines {
            // Each line is a whole legal turn: two or three decisions.
            let mut s = start;
            for (k, &action) in line.actions.iter().enumerate() {
                assert!(s.legal_actions().contains(action));
                s.apply(action).unwrap();
                assert_eq!(
                    s.stage() == crate::veletas::Stage::Start,
                    k + 1 == line.actions.len()
                );
            }
            assert!((0.0..=1.0).contains(&line.value));
            total += line.visits;
        }
        // No iteration goes through two whole turns' lines.
        assert!(total <= search.root_visits());
        // One decision deep, the lines are the root's statistics.
        let firsts = search.lines(1, |_| true);
        let mut by_action: Vec<_> = firsts.iter().map(|l| (l.actions[0], l.visits)).collect();
        by_action.sort_unstable();
        let root: Vec<_> = search
            .root_stats()
            .iter()
            .filter(|s| s.visits > 0)
            .map(|s| (s.action, s.visits))
            .collect();
        assert_eq!(by_action, root);
    }

    #[test]
    fn a_finished_game_has_nothing_to_search() {
        let mut search = Mcts::new(state("1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3"), config(0));
        let info = search.search(Budget::iterations(100));
        assert_eq!(info.best_action, None);
        assert_eq!(info.iterations, 0);
    }
}
