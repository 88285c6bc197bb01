//! Perft: counting move sequences to check move generation (RULES.md section 6).

use super::moves::Move;
use super::position::Position;

/// The number of move sequences of exactly `depth` moves from `pos`.
///
/// `perft(pos, 0) == 1` and `perft(pos, 1)` is the number of legal moves,
/// counted without generating them (as is the last ply of any depth).
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Position, Rules, Variant, perft};
///
/// let start = Position::new(Rules::variant(Variant::Small));
/// assert_eq!(perft(&start, 1), 25);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with(pos, depth, &mut Vec::new(), 0)
}

/// The perft count below each legal move at `depth` (so for `depth - 1`
/// after it), in canonical move order. Empty for `depth == 0`.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut buffers = Vec::new();
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft_with(&child, depth - 1, &mut buffers, 0))
        })
        .collect()
}

/// Perft with one reusable move buffer per level, created when first
/// reached: a game ends within about N * N plies, so even an absurd depth
/// allocates only as many buffers as the game has plies left.
fn perft_with(pos: &Position, depth: u32, buffers: &mut Vec<Vec<Move>>, level: usize) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            if buffers.len() <= level {
                buffers.push(Vec::new());
            }
            let mut moves = std::mem::take(&mut buffers[level]);
            pos.legal_moves_into(&mut moves);
            let mut nodes = 0;
            for &m in &moves {
                let mut child = *pos;
                child.play_unchecked(m);
                nodes += perft_with(&child, depth - 1, buffers, level + 1);
            }
            buffers[level] = moves;
            nodes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::veletas::{Lines, Rules, SetupRule, Variant};

    /// Perft by generating every level, as a check on the counting shortcuts.
    fn slow_perft(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = *pos;
                child.play_unchecked(m);
                slow_perft(&child, depth - 1)
            })
            .sum()
    }

    #[test]
    fn shortcuts_agree_with_full_generation() {
        for lines in [Lines::ShootersPass, Lines::ShootersBlock] {
            let pos = Position::from_fen(
                "x1x1soo/2x2os/2oox2/1xx3s/4x2/o4x1/1xox1oo w play 3",
                SetupRule::Perimeter,
                lines,
            )
            .unwrap();
            assert_eq!(perft(&pos, 2), slow_perft(&pos, 2));
            let divide = perft_divide(&pos, 2);
            assert_eq!(divide.iter().map(|&(_, n)| n).sum::<u64>(), perft(&pos, 2));
            assert_eq!(
                divide.iter().map(|&(m, _)| m).collect::<Vec<_>>(),
                pos.legal_moves()
            );
        }
    }

    #[test]
    fn depth_zero_and_small_start() {
        let start = Position::new(Rules::variant(Variant::Small));
        assert_eq!(perft(&start, 0), 1);
        assert!(perft_divide(&start, 0).is_empty());
        // 25 inner squares for the shooter, then the stone on any of 48.
        assert_eq!(perft(&start, 2), 25 * 48);
        // A finished game: no moves at any depth, and no memory per level.
        let over = Position::from_fen(
            "x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        assert_eq!(perft(&over, u32::MAX), 0);
        assert!(perft_divide(&over, u32::MAX).is_empty());
        assert_eq!(perft(&start, 3), slow_perft(&start, 3));
    }
}
