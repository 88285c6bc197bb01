//! The rules of Veletas on bitboards: squares, positions, moves, position
//! strings and perft.
//!
//! Everything game-specific lives here, behind [`Position`]: build one from
//! [`Rules`] or a position string, ask it for [`Position::legal_moves`], and
//! [`Position::play`] them.
//!
//! # Examples
//!
//! ```
//! use _veletas::veletas::{Lines, Position, SetupRule, perft};
//!
//! let pos = Position::from_fen("7/2x4/7/1s5/7/o1s2s1/7 b play 3", SetupRule::Perimeter, Lines::ShootersPass)
//!     .unwrap();
//! assert_eq!(pos.count_legal_moves(), 976);
//! assert_eq!(perft(&pos, 1), 976);
//! ```

pub mod bitboard;
pub mod bots;
pub mod claims;
pub mod color;
pub mod decision;
pub mod evaluate;
pub mod fen;
pub mod kernel;
pub mod lines;
mod movegen;
pub mod moves;
pub mod observation;
pub mod perft;
pub mod playout;
pub mod position;
pub mod rules;
pub mod solve;
pub mod square;
pub mod symmetry;
mod weights;
pub mod zobrist;

pub use crate::game::{perft, perft_divide};
pub use bitboard::Bitboard;
pub use color::Color;
pub use decision::{Actions, DecisionState, Stage};
pub use fen::{CountsError, FenError, FenField};
pub use moves::{Move, ParseMoveError};
pub use position::{Illegal, Phase, Piece, PlayError, Position};
pub use rules::{Lines, Rules, RulesError, SetupRule, Variant};
pub use square::{ParseSquareError, Square};
