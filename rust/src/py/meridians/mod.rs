//! The bindings of Meridians: `veletas.meridians.Board`, `Move` and
//! `LegalMoves` on the core of [`crate::meridians`], returning the plain
//! types of `veletas.games.meridians.types`.

pub mod board;
pub mod bots;
pub mod legal_moves;
pub mod moves;
pub mod playouts;
pub mod types;
pub mod vector_env;
