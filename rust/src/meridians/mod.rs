//! The rules of Meridians on bitboards: points, positions, moves, position
//! strings, perft and the action encoding (MERIDIANS.md).
//!
//! Everything specific to Meridians lives here, behind [`Position`]: build
//! one from a [`Size`] or a position string, ask it for
//! [`Position::legal_moves`], and [`Position::play`] them;
//! [`DecisionState`] is the same game as decisions by action id, for
//! playouts and search, and [`observation`] draws it as planes for learning.
//!
//! # Examples
//!
//! ```
//! use _veletas::meridians::{Color, Position, perft};
//!
//! let mut pos = Position::from_fen("6/1x2x2/5x2/1x7/xx2x5/2o1o4o/2o1x4/8/1xo3o/2oo1o l play", false)
//!     .unwrap();
//! assert_eq!(pos.turn(), Color::Light);
//! // Light's stone on e4 has no path left: it goes with Light's next move.
//! let removed = pos.play("c3".parse().unwrap()).unwrap();
//! assert_eq!(removed.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["e4"]);
//! assert_eq!(pos.fen(), "6/1x2x2/5x2/1x7/xx2x5/2o1o4o/2o6/2x5/1xo3o/2oo1o d play");
//! assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
//! ```

pub mod bitboard;
pub mod bots;
pub mod color;
pub mod decision;
pub mod evaluate;
pub mod fen;
pub mod kernel;
pub mod moves;
pub mod observation;
pub mod perft;
pub mod playout;
pub mod point;
pub mod position;
pub mod size;
pub mod solve;
#[cfg(target_arch = "x86_64")]
pub mod sse2;
pub mod symmetry;
mod weights;
pub mod zobrist;

pub use crate::game::{perft, perft_divide};
pub use bitboard::{Bitboard, Direction};
pub use color::Color;
pub use decision::{Actions, DecisionState, IllegalAction};
pub use fen::{FenError, FenField};
pub use moves::{Move, ParseMoveError};
pub use point::{ParsePointError, Point};
pub use position::{Illegal, ParsePhaseError, Phase, PlayError, Position};
pub use size::{ParseSizeError, Size};
