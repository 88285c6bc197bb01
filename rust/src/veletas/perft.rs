//! Perft: counting move sequences to check move generation (RULES.md
//! section 6), by the one generic perft of [`crate::game`], which the room
//! re-exports; here, what a Veletas position gives it, with the counting
//! shortcuts of the last ply.
//!
//! ```
//! use _veletas::veletas::{Position, Rules, Variant, perft};
//!
//! let start = Position::new(Rules::variant(Variant::Small));
//! assert_eq!(perft(&start, 1), 25);
//! ```

use super::bitboard::Bitboard;
use super::lines;
use super::moves::Move;
use super::position::{Phase, Position};
use super::rules::Lines;
use super::square::Square;
use crate::game::MovePosition;

impl MovePosition for Position {
    type Move = Move;

    fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        Position::legal_moves_into(self, moves);
    }

    fn count_legal_moves(&self) -> u64 {
        Position::count_legal_moves(self) as u64
    }

    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m);
    }

    fn perft_shortcut(&self, depth: u32) -> Option<u64> {
        (depth == 2
            && self.phase() == Phase::Play
            && self.rules().lines() == Lines::ShootersPass
            && self.winner().is_none())
        .then(|| perft_2_play_pass(self))
    }
}

/// `perft(pos, 2)` in play under the default line rule, without playing
/// most of the moves.
///
/// With shooters passed over, the moves of a position (see
/// [`Position::count_legal_moves`]) number `F = sum f(x)` over the empty
/// squares `x`, with `f(x) = 1 + s(x) * (e(x) + 1)` when `s(x) > 0` (else 0),
/// where `s(x)` and `e(x)` count the unclaimed shooters and the empty squares
/// on the lines from `x`. Moves that share their shooter move (or share
/// having none) lead to children that differ from one base position `B` by
/// the stone on their target `t` only. That stone changes `f` on `t` itself
/// and on the empty squares `x` that see `t`: from `x` the line through `t`
/// now ends there, losing `t` and what `t` sees beyond it. So each child's
/// count is `F(B)` corrected along the 8 lines from `t`.
///
/// A child in which a shooter is trapped (and claimed) has other shooters,
/// so it is played and counted in full: the targets that would trap one are
/// found per group, from the shooters whose reach lies on a single line.
fn perft_2_play_pass(pos: &Position) -> u64 {
    let blockers = pos.blockers();
    let empty = pos.empty();
    let shooters = pos.shooters();
    let mut shots = Bitboard::EMPTY;
    for shooter in shooters {
        shots |= lines::reach(shooter, blockers, empty);
    }
    let mut nodes = Group::new(blockers, shooters, empty).count(pos, shots, Move::Stone);
    for origin in shooters {
        for destination in lines::reach(origin, blockers, empty) {
            let moved = shooters.without(origin).with(destination);
            let after = empty.with(origin).without(destination);
            let targets = lines::reach(destination, blockers, after);
            let shot = |target| Move::Shot {
                origin,
                destination,
                target,
            };
            nodes += Group::new(blockers, moved, after).count(pos, targets, shot);
        }
    }
    nodes
}

/// The base position of a group of moves: what every square sees.
struct Group {
    blockers: Bitboard,
    /// The unclaimed shooters (claimed ones are passed over and never count).
    shooters: Bitboard,
    empty: Bitboard,
    /// `s(x)` and `e(x)` of each empty square, by bit index.
    seen: [(i32, i32); 128],
    /// `F(B)`: the moves of the base position.
    total: i64,
    /// Targets whose stone would trap a shooter, and whether every one does
    /// (a shooter of the base position is trapped already).
    trapping: Bitboard,
    all_trap: bool,
}

/// `f(x)` of a square with `s` shooters and `e` empty squares in sight.
#[inline]
fn moves_onto(s: i32, e: i32) -> i64 {
    if s > 0 {
        1 + i64::from(s) * i64::from(e + 1)
    } else {
        0
    }
}

impl Group {
    fn new(blockers: Bitboard, shooters: Bitboard, empty: Bitboard) -> Group {
        let mut group = Group {
            blockers,
            shooters,
            empty,
            seen: [(0, 0); 128],
            total: 0,
            trapping: Bitboard::EMPTY,
            all_trap: false,
        };
        for square in empty {
            let seen = lines::lines(square, blockers);
            let (s, e) = (
                (seen & shooters).count() as i32,
                (seen & empty).count() as i32,
            );
            group.seen[square.index()] = (s, e);
            group.total += moves_onto(s, e);
        }
        for shooter in shooters {
            // A stone traps this shooter only if its reach lies on one line
            // and the stone lands on the nearest square of it.
            let [up, down] = lines::lines_by_direction(shooter, blockers);
            let mut nearest = None;
            let mut lines_in_reach = 0;
            for dir in 0..4 {
                let reach = up[dir] & empty;
                if reach.any() {
                    lines_in_reach += 1;
                    nearest = reach.first();
                }
                let reach = down[dir] & empty;
                if reach.any() {
                    lines_in_reach += 1;
                    nearest = reach.iter().last();
                }
            }
            match (lines_in_reach, nearest) {
                (0, _) => group.all_trap = true,
                (1, Some(square)) => group.trapping.add(square),
                _ => {}
            }
        }
        group
    }

    /// The moves of every child: `pos` after `make(target)` for each target.
    fn count(&self, pos: &Position, targets: Bitboard, make: impl Fn(Square) -> Move) -> u64 {
        let mut nodes = 0;
        for target in targets {
            if self.all_trap || self.trapping.contains(target) {
                let mut child = *pos;
                child.play_unchecked(make(target));
                nodes += child.count_legal_moves() as u64;
                continue;
            }
            let [up, down] = lines::lines_by_direction(target, self.blockers);
            let (s, e) = self.seen[target.index()];
            let mut count = self.total - moves_onto(s, e);
            for dir in 0..4 {
                for (near, far) in [(up[dir], down[dir]), (down[dir], up[dir])] {
                    // Squares on one side lose the target and all it sees on
                    // the other side.
                    let lost_shooters = (far & self.shooters).count() as i32;
                    let lost_empty = (far & self.empty).count() as i32 + 1;
                    for square in near & self.empty {
                        let (s, e) = self.seen[square.index()];
                        count += moves_onto(s - lost_shooters, e - lost_empty) - moves_onto(s, e);
                    }
                }
            }
            nodes += count as u64;
        }
        nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{perft, perft_divide};
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

    /// Perft(2) the plain way: play every move and count the child's moves.
    fn perft_2_by_playing(pos: &Position) -> u64 {
        pos.legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = *pos;
                child.play_unchecked(m);
                child.count_legal_moves() as u64
            })
            .sum()
    }

    #[test]
    fn counting_children_in_groups_agrees_with_playing_them() {
        // Positions along random games of every size, with K from 3 to the
        // largest allowed (dense games trap shooters often), and from
        // hand-made positions with claimed shooters and trapped ones.
        let mut rng = crate::rng::Rng::for_game(2024, 0);
        let mut checked = 0;
        for size in 5..=10 {
            // The largest K only where the children stay few.
            let largest = if size <= 7 {
                (size - 2) * (size - 2) - 1
            } else {
                3
            };
            for shooters in [3, 5, 7, largest - (1 - largest % 2)] {
                let Ok(rules) =
                    Rules::new(size, shooters, SetupRule::Perimeter, Lines::ShootersPass)
                else {
                    continue;
                };
                for _ in 0..3 {
                    let mut pos = Position::new(rules);
                    loop {
                        let moves = pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        if pos.phase() == Phase::Play {
                            assert_eq!(perft(&pos, 2), perft_2_by_playing(&pos), "{}", pos.fen());
                            checked += 1;
                        }
                        pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                    }
                }
            }
        }
        for fen in [
            "x1x1soo/2x2os/2oox2/1xx3s/4x2/o4x1/1xox1oo w play 3",
            "7/7/3X3/1O1ssx1/2xo3/7/s6 b play 5",
            "xoxo1/oxoxO/xoxox/osoxo/xoxoX b play 3",
            "s3s/5/1xsoo/5/5 w play 3",
            // c2 walled in by stones: trapped before the shot, so every
            // child claims it.
            "s4/o4/1xxx1/1xsx1/1xxxs b play 3",
        ] {
            let pos = Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
            assert_eq!(perft(&pos, 2), perft_2_by_playing(&pos), "{fen}");
        }
        assert!(checked > 500, "{checked} positions");
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
