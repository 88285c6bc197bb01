//! A fast rules engine for the board game Veletas.
//!
//! - [`veletas`]: the rules on bitboards (positions, legal moves, position
//!   strings, perft, the micro-decision encoding), with no Python dependency.
//! - [`meridians`]: the rules of Meridians on wider bitboards, alike in
//!   shape, with no Python dependency.
//! - [`game`]: what playouts and search need of a game, so that they serve
//!   every game of the family.
//! - [`rng`]: the random stream of playouts and bots; [`zobrist`]: every
//!   game's Zobrist keys, made from it.
//! - [`vector_env`]: many games stepped at once for reinforcement learning.
//! - [`bits`], [`cpu`]: the shelf of the games' bit kernels: bit
//!   selection, and the CPU features that pick a kernel.
//! - [`crew`]: helper threads that stay awake between short parallel loops.
//! - [`evaluate`]: a static estimate of who wins, fitted to the engine's
//!   own games, for any game that reads its features.
//! - [`mcts`]: Monte Carlo tree search over any [`game::Game`].
//! - [`player`]: the turn-level search player of any game ([`player::Turns`]).
//! - [`solver`]: an exact solver (df-pn) of any [`game::Game`];
//!   [`solver_threads`] runs it on several threads.
//! - [`playout`]: batches of random games, reproducible on any number of threads.
//!
//! # Features
//!
//! - `python`: the `PyO3` bindings that make up the `veletas._veletas` extension module.

pub mod bits;
pub mod cpu;
pub mod crew;
pub mod evaluate;
pub mod game;
pub mod mcts;
pub mod meridians;
mod planes;
pub mod player;
pub mod playout;
pub mod proof;
mod quote;
pub mod rng;
pub mod solver;
pub mod solver_threads;
pub mod vector_env;
pub mod veletas;
pub mod zobrist;

#[cfg(feature = "python")]
#[allow(
    clippy::collapsible_if,
    reason = "the bindings' nested `if let`s predate the let chains of Rust 1.88, the \
              declared minimum now being 1.95; collapsing them is for their next edit"
)]
mod py;
