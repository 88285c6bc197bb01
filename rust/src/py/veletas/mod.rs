//! The bindings of Veletas: one file per exposed type, plus the playouts,
//! bots and `VectorEnv` instantiated for the game.

pub mod base;
pub mod board;
pub mod bots;
pub mod decision;
pub mod error;
pub mod legal_moves;
pub mod moves;
pub mod playouts;
pub mod vector_env;
