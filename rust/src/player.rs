//! The Monte Carlo tree search player of any game: it searches each decision
//! of a turn, assembles the decisions into a whole move, and keeps its trees
//! from one move to the next.
//!
//! The search ([`crate::mcts`]) works on decisions; what a game adds is how
//! its decisions make a turn ([`Turns`]). With proof backups (`mcts`), the exact
//! solver ([`crate::solver`]) gets a share of each move's budget first, and
//! a win it proves is played: near the end of a game it proves what the
//! tree would take many playouts to find.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::evaluate::Evaluate;
use crate::game::{Action, ActionSet};
use crate::mcts::{Algorithm, Budget, Config, LineStats, Mcts, SearchInfo};
use crate::solver::{self, Solvable, Solver, Value};

/// How a game's decisions make its turns: what the turn-level player needs
/// beyond [`Game`](crate::game::Game). The states are plain values, copied into the trees.
pub trait Turns: Evaluate + PartialEq + Copy {
    /// A whole move of the game's notation (its `Display`).
    type Move: Copy + Send + fmt::Display;

    /// The most decisions a turn takes.
    const TURN_DECISIONS: usize;

    /// How deep [`Mcts::set_root`] looks for the position of the next
    /// search: the decisions of the player's own turn and the opponent's
    /// reply.
    const REUSE_DEPTH: usize;

    /// Whether the decision to take here starts a turn.
    fn starts_turn(&self) -> bool;

    /// Whether the decision to take here ends its turn, whichever action is
    /// taken.
    fn ends_turn(&self) -> bool;

    /// The move that `actions`, taken from here (the start of a turn),
    /// spell; `None` if they spell none.
    fn move_of_actions(&self, actions: &[Action]) -> Option<Self::Move>;

    /// Whether this state may precede `later` in a game: `false` lets a
    /// re-rooting search skip the subtree (a stone `later` lacks, say).
    #[inline]
    fn may_precede(&self, later: &Self) -> bool {
        let _ = later;
        true
    }
}

/// What one call of [`MctsPlayer::choose`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnInfo<M> {
    /// The chosen move.
    pub chosen: M,
    /// The searches, one per decision of the turn.
    pub searches: Vec<SearchInfo>,
    /// Whether the statistics of earlier searches were reused.
    pub reused: bool,
}

impl<M> TurnInfo<M> {
    /// The iterations of all the turn's searches.
    pub fn iterations(&self) -> u64 {
        self.searches.iter().map(|s| s.iterations).sum()
    }

    /// The estimated chance that the mover wins, from the first decision's
    /// search.
    pub fn value(&self) -> f64 {
        self.searches.first().map_or(0.5, |s| s.value)
    }
}

/// One move of an [`Analysis`].
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub chosen: M,
    /// The iterations that went through the whole move.
    pub visits: u64,
    /// Its mean result for the player to act (1 a win).
    pub value: f64,
    /// What the solver proved of it for the player to act: `Some(true)` a
    /// win, `Some(false)` a loss.
    pub proven: Option<bool>,
}

/// What one call of [`MctsPlayer::analyse`] found: the move the player
/// would play, then the other moves, most visited first.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// The move [`MctsPlayer::choose`] plays with the same budget and
    /// trees, then the other whole moves the search went through, most
    /// visited first; none if the search was stopped before it went
    /// through the move it would play.
    pub moves: Vec<MoveStats<M>>,
    /// The principal variation: the move played, then the whole moves of
    /// the line the search would play from there, for both players in
    /// turn, as far as its trees go (a last turn the trees do not complete
    /// is left out).
    pub principal_variation: Vec<M>,
    /// The iterations that went through the position so far (those of
    /// earlier searches that were reused included).
    pub visits: u64,
    /// The searches of this call, one per decision of the turn.
    pub searches: Vec<SearchInfo>,
}

impl<M> Analysis<M> {
    /// The iterations of all the searches of this call.
    pub fn iterations(&self) -> u64 {
        self.searches.iter().map(|s| s.iterations).sum()
    }
}

/// The most decisions of a principal variation: deeper lines are a few
/// visits thin.
const PV_DECISIONS: usize = 64;

/// The whole moves that `actions`, taken from `state` (at the start of a
/// turn), spell; a last turn they do not complete is left out.
fn moves_of_line<G: Turns>(state: G, actions: &[Action]) -> Vec<G::Move> {
    let mut moves = Vec::new();
    let mut turn_start = state;
    let mut current = state;
    let mut turn = Vec::new();
    for &action in actions {
        current.apply(action);
        turn.push(action);
        if current.starts_turn() || current.legal_actions().is_empty() {
            match turn_start.move_of_actions(&turn) {
                Some(m) => moves.push(m),
                None => break,
            }
            turn.clear();
            turn_start = current;
        }
    }
    moves
}

/// Searches the decisions of the turn of `state` (the root of `search`)
/// one after the other, within `budget` in all, or until `stop` is raised:
/// each decision that may be followed by another gets half of what is
/// left, the last one all of it, and the search of each goes through the
/// decisions taken before it. Returns the decisions taken (the most
/// visited, the first legal one where nothing was visited) and the
/// searches. The trees stay rooted at `state`.
fn search_turn<G: Turns>(
    search: &mut Mcts<G>,
    state: G,
    budget: Budget,
    stop: &AtomicBool,
) -> TurnSearch {
    let mut left = 1.0;
    let mut actions = Vec::new();
    let mut searches = Vec::new();
    let mut current = state;
    loop {
        let share = if current.ends_turn() {
            left
        } else {
            left / 2.0
        };
        left -= share;
        let info = search.search_from(&actions, budget.scaled(share), stop);
        let action = info.best_action.unwrap_or_else(|| {
            // A budget too small to visit any child: the first action.
            current.legal_actions().nth(0).expect("a legal action")
        });
        searches.push(info);
        actions.push(action);
        current.apply(action);
        if current.starts_turn() {
            return (actions, searches);
        }
    }
}

/// The decisions taken in a turn and the searches that chose them.
type TurnSearch = (Vec<Action>, Vec<SearchInfo>);

/// The table of the exact solver that a move's search asks first: it
/// starts small and grows only as far as the solve needs.
const SOLVE_TABLE_BYTES: usize = 64 << 20;

/// A win that the exact solver proves for the seat to act at `state` (the
/// start of a turn, with at most [`Solvable::SOLVE_AT_EMPTY`] empty cells)
/// within `share` of `budget` (iterations count as solver nodes, which cost
/// about as much): the decisions of the winning move, each with what it
/// reports as its search, and the budget left for the tree search.
fn proven_win<G: Turns + Solvable>(
    state: &G,
    budget: Budget,
    share: f64,
    stop: &AtomicBool,
) -> (Option<TurnSearch>, Budget) {
    if share <= 0.0
        || (budget.iterations.is_none() && budget.time.is_none())
        || state.empty_cells() > G::SOLVE_AT_EMPTY
    {
        return (None, budget);
    }
    let started = Instant::now();
    let part = budget.scaled(share);
    let solve_budget = solver::Budget {
        max_nodes: part.iterations,
        time: part.time,
        table_bytes: SOLVE_TABLE_BYTES,
        ..solver::Budget::default()
    };
    let mut solver = Solver::new(solve_budget.table_bytes);
    let outcome = solver.solve(state, &solve_budget, stop, &mut |_| {});
    let left = Budget {
        iterations: budget.scaled(1.0 - share).iterations,
        time: budget.time.map(|t| t.saturating_sub(started.elapsed())),
    };
    if outcome.value != Value::Win {
        return (None, left);
    }
    let line = solver.winning_line(state, G::starts_turn);
    let elapsed = started.elapsed();
    let searches = line
        .iter()
        .map(|&action| SearchInfo {
            best_action: Some(action),
            value: 1.0,
            iterations: 0,
            elapsed: elapsed / line.len() as u32,
            nodes: 0,
            solved: true,
        })
        .collect();
    (Some((line, searches)), left)
}

/// The Monte Carlo tree search player: searches each decision of a turn and
/// keeps its trees from one move to the next.
#[derive(Clone, Debug)]
pub struct MctsPlayer<G> {
    config: Config,
    search: Option<Mcts<G>>,
}

impl<G: Turns + Solvable> MctsPlayer<G> {
    /// A player with this search configuration.
    pub const fn new(config: Config) -> MctsPlayer<G> {
        MctsPlayer {
            config,
            search: None,
        }
    }

    /// The search configuration.
    pub const fn config(&self) -> &Config {
        &self.config
    }

    /// Chooses a move for the turn of `state` (which must be at the start of
    /// a turn) within `budget`, or `None` at the end of the game.
    ///
    /// The budget is shared by the decisions of the turn: each decision that
    /// may be followed by another gets half of what is left, the last one
    /// all of it.
    pub fn choose(&mut self, state: G, budget: Budget) -> Option<TurnInfo<G::Move>> {
        self.choose_until(state, budget, &AtomicBool::new(false))
    }

    /// [`MctsPlayer::choose`], which also ends soon after `stop` is raised
    /// (by another thread) and then plays the best move found so far: the
    /// decisions still to take are those most visited.
    pub fn choose_until(
        &mut self,
        state: G,
        budget: Budget,
        stop: &AtomicBool,
    ) -> Option<TurnInfo<G::Move>> {
        if state.legal_actions().is_empty() {
            return None;
        }
        let reused = self.set_root(&state);
        let (proven, budget) = self.ask_solver(&state, budget, stop);
        let search = self.search.as_mut().expect("set_root made one");
        let (actions, searches) =
            proven.unwrap_or_else(|| search_turn(search, state, budget, stop));
        for &action in &actions {
            search.advance(action);
        }
        Some(TurnInfo {
            chosen: state
                .move_of_actions(&actions)
                .expect("a turn's legal actions spell a move"),
            searches,
            reused,
        })
    }

    /// Searches the turn of `state` (at the start of a turn) within
    /// `budget`, or until `stop` is raised, as [`MctsPlayer::choose`] does,
    /// without playing: the move `choose` would play, then the most
    /// visited other whole moves, `top` in all. The trees stay rooted at
    /// `state`, so a [`MctsPlayer::choose`] of the same position reuses the
    /// statistics. `None` at the end of the game.
    pub fn analyse(
        &mut self,
        state: G,
        budget: Budget,
        stop: &AtomicBool,
        top: usize,
    ) -> Option<Analysis<G::Move>> {
        if state.legal_actions().is_empty() {
            return None;
        }
        self.set_root(&state);
        let (proven, budget) = self.ask_solver(&state, budget, stop);
        let search = self.search.as_mut().expect("set_root made one");
        // The tree is searched all the same, for the other moves.
        let (searched, searches) = search_turn(search, state, budget, stop);
        let played = proven.as_ref().map_or(searched, |(line, _)| line.clone());
        let mut lines = search.lines(G::TURN_DECISIONS, G::starts_turn);
        let index = lines.iter().position(|line| line.actions == played);
        // A search stopped before it went through the move it would play
        // (by the clock or the stop flag) knows no move to recommend; a
        // move the exact solver proved is known all the same.
        let first = match (index, proven.is_some()) {
            (Some(index), proven) => {
                let mut first = lines.remove(index);
                if proven {
                    (first.value, first.proven) = (1.0, Some(true));
                }
                Some(first)
            }
            (None, true) => Some(LineStats {
                actions: played.clone(),
                visits: 0,
                value: 1.0,
                proven: Some(true),
            }),
            (None, false) => {
                lines.clear();
                None
            }
        };
        let line = if first.is_some() {
            let mut line = played;
            let rest = PV_DECISIONS.saturating_sub(line.len());
            line.extend(search.principal_variation_from(&line, rest));
            line
        } else {
            Vec::new()
        };
        Some(Analysis {
            moves: first
                .into_iter()
                .chain(lines)
                .take(top)
                .filter_map(|line| {
                    Some(MoveStats {
                        chosen: state.move_of_actions(&line.actions)?,
                        visits: line.visits,
                        value: line.value,
                        proven: line.proven,
                    })
                })
                .collect(),
            principal_variation: moves_of_line(state, &line),
            visits: search.root_visits(),
            searches,
        })
    }

    /// The exact solver's proven win at `state` within its share of
    /// `budget` (with proof backups), and the budget left.
    fn ask_solver(
        &self,
        state: &G,
        budget: Budget,
        stop: &AtomicBool,
    ) -> (Option<TurnSearch>, Budget) {
        if self.config.algorithm == Algorithm::Solver {
            proven_win(state, budget, self.config.solve_share, stop)
        } else {
            (None, budget)
        }
    }

    /// Roots the search at `state`, keeping the statistics of the trees
    /// where they explored it; returns whether they did.
    fn set_root(&mut self, state: &G) -> bool {
        if let Some(search) = &mut self.search {
            search.set_root_pruned(state, G::REUSE_DEPTH, |node| node.may_precede(state))
        } else {
            self.search = Some(Mcts::new(*state, self.config));
            false
        }
    }

    /// Forgets the trees.
    pub fn clear(&mut self) {
        self.search = None;
    }

    /// The nodes the player's trees hold.
    pub fn node_count(&self) -> usize {
        self.search.as_ref().map_or(0, Mcts::node_count)
    }
}
