//! Perft: counting move sequences to check move generation (MERIDIANS.md
//! section 7), by the one generic perft of [`crate::game`], which the room
//! re-exports; here, what a Meridians position gives it.
//!
//! ```
//! use _veletas::meridians::{Position, Size, perft, perft_divide};
//!
//! let start = Position::new(Size::S6_7);
//! assert_eq!(perft(&start, 1), 114);
//! assert_eq!(perft(&start, 2), 12882);
//! let divide = perft_divide(&Position::new(Size::S5_6).with_pie(true), 2);
//! assert_eq!((divide.len(), divide[0].0.to_string(), divide[0].1), (80, "a1".into(), 79));
//! ```

use super::moves::Move;
use super::position::Position;
use crate::game::MovePosition;

impl MovePosition for Position {
    type Move = Move;

    fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        Position::legal_moves_into(self, moves);
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        u64::from(Position::count_legal_moves(self))
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m);
    }
}

#[cfg(test)]
mod tests {
    use super::super::size::Size;
    use super::*;
    use crate::game::{perft, perft_divide};

    #[test]
    fn start_of_every_size() {
        let start = Position::new(Size::S6_7);
        assert_eq!(perft(&start, 0), 1);
        assert!(perft_divide(&start, 0).is_empty());
        assert_eq!(perft(&start, 3), 253_160);
        for size in Size::ALL {
            let start = Position::new(size);
            let points = u64::from(size.points());
            assert_eq!(perft(&start, 1), points);
            assert_eq!(perft(&start, 2), points * (points - 1));
            // Under the pie rule the third move is the decision.
            let pie = start.with_pie(true);
            assert_eq!(perft(&pie, 3), 2 * points * (points - 1));
        }
    }

    #[test]
    fn a_finished_game_has_no_moves() {
        let over = Position::from_fen("6/7/8/9/10/10/9/8/7/5o d play", false).unwrap();
        assert_eq!(perft(&over, 0), 1);
        assert_eq!(perft(&over, u32::MAX), 0);
        assert!(perft_divide(&over, u32::MAX).is_empty());
    }
}
