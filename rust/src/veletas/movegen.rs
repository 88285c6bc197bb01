//! Legal moves: generation in canonical order, counting, and single-move checks.

use super::bitboard::Bitboard;
use super::color::Color;
use super::lines;
use super::moves::Move;
use super::position::{Illegal, Phase, Position};
use super::rules::{Lines, SetupRule};
use super::square::Square;

/// What a setup turn places next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    Shooter,
    Stone,
}

impl Position {
    /// The legal moves in canonical order (see [`Position::legal_moves_into`]).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Replaces the contents of `moves` with the legal moves, in canonical order:
    ///
    /// - setup: placements by ascending square;
    /// - pie: `swap`, then shooter placements by ascending square;
    /// - play: shots without a move by ascending target, then shots with a
    ///   move by ascending (origin, destination, target).
    ///
    /// A finished game (a colour holds K // 2 + 1 claims) has none.
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        match self.phase() {
            Phase::Setup => match self.placement() {
                Placement::Shooter => moves.extend(self.shooter_zone().iter().map(Move::Shooter)),
                Placement::Stone => moves.extend(self.empty().iter().map(Move::Stone)),
            },
            Phase::Pie => {
                moves.push(Move::Swap);
                moves.extend(self.shooter_zone().iter().map(Move::Shooter));
            }
            Phase::Play => self.play_moves(moves),
        }
    }

    fn play_moves(&self, moves: &mut Vec<Move>) {
        let blockers = self.blockers();
        let empty = self.empty();
        let mut targets = Bitboard::EMPTY;
        for shooter in self.shooters() {
            targets |= lines::reach(shooter, blockers, empty);
        }
        moves.extend(targets.iter().map(Move::Stone));
        for origin in self.shooters() {
            let (after_blockers, after_empty) = after_leaving(origin, blockers, empty);
            for destination in lines::reach(origin, blockers, empty) {
                let shots = lines::reach(destination, after_blockers, after_empty);
                moves.extend(shots.iter().map(|target| Move::Shot {
                    origin,
                    destination,
                    target,
                }));
            }
        }
    }

    /// The number of legal moves, counted without generating them.
    ///
    /// Where unclaimed shooters are passed over (the default line rule, with
    /// or without `claimed_shooters_block`, whose claimed shooters never
    /// move), lines are symmetric and untouched by where an unclaimed shooter
    /// stands, so for each empty square `d` one walk of its lines
    /// `L(d)` gives both how many shooters can move there (`|L(d) & shooters|`)
    /// and how many shots each then has (`|L(d) & empty| + 1`, the `+ 1` being
    /// the square it left).
    pub fn count_legal_moves(&self) -> usize {
        if self.winner().is_some() {
            return 0;
        }
        let count = match self.phase() {
            Phase::Setup => match self.placement() {
                Placement::Shooter => self.shooter_zone().count(),
                Placement::Stone => self.empty().count(),
            },
            Phase::Pie => 1 + self.shooter_zone().count(),
            Phase::Play => match self.rules().lines() {
                Lines::ShootersPass => self.count_play_moves_pass(),
                Lines::ShootersBlock => self.count_play_moves_block(),
            },
        };
        count as usize
    }

    fn count_play_moves_pass(&self) -> u32 {
        let blockers = self.blockers();
        let empty = self.empty();
        let shooters = self.shooters();
        let mut targets = Bitboard::EMPTY;
        for shooter in shooters {
            targets |= lines::reach(shooter, blockers, empty);
        }
        let mut count = targets.count();
        for destination in targets {
            let seen = lines::lines(destination, blockers);
            count += (seen & shooters).count() * ((seen & empty).count() + 1);
        }
        count
    }

    fn count_play_moves_block(&self) -> u32 {
        let blockers = self.blockers();
        let empty = self.empty();
        let mut targets = Bitboard::EMPTY;
        let mut count = 0;
        for origin in self.shooters() {
            let reach = lines::reach(origin, blockers, empty);
            targets |= reach;
            let (after_blockers, after_empty) = after_leaving(origin, blockers, empty);
            for destination in reach {
                count += lines::reach(destination, after_blockers, after_empty).count();
            }
        }
        count + targets.count()
    }

    /// Whether `m` is legal, checked without generating the other moves.
    pub fn is_legal(&self, m: Move) -> bool {
        if self.winner().is_some() {
            return false;
        }
        match (self.phase(), m) {
            (Phase::Pie, Move::Swap) => true,
            (Phase::Pie, Move::Shooter(target)) => self.shooter_zone().contains(target),
            (Phase::Setup, Move::Shooter(target)) => {
                self.placement() == Placement::Shooter && self.shooter_zone().contains(target)
            }
            (Phase::Setup, Move::Stone(target)) => {
                self.placement() == Placement::Stone && self.empty().contains(target)
            }
            (Phase::Play, Move::Stone(target)) => {
                // Lines are symmetric: a shooter reaches the target exactly when
                // it is the first shooter (or, with shooters passed over, any
                // shooter before the first stone) on a line from the target.
                self.empty().contains(target)
                    && (lines::lines(target, self.blockers()) & self.shooters()).any()
            }
            (
                Phase::Play,
                Move::Shot {
                    origin,
                    destination,
                    target,
                },
            ) => {
                let blockers = self.blockers();
                let empty = self.empty();
                if !self.shooters().contains(origin)
                    || !lines::reach(origin, blockers, empty).contains(destination)
                {
                    return false;
                }
                let (after_blockers, after_empty) = after_leaving(origin, blockers, empty);
                lines::reach(destination, after_blockers, after_empty).contains(target)
            }
            _ => false,
        }
    }

    /// Why `m` is not legal here, or `None` when it is: the check of
    /// [`Position::play`], agreeing with [`Position::is_legal`] and with the
    /// generated moves.
    pub fn illegality(&self, m: Move) -> Option<Illegal> {
        if self.winner().is_some() {
            return Some(Illegal::GameOver);
        }
        let size = self.rules().size();
        for square in [m.target(), m.origin(), m.destination()]
            .into_iter()
            .flatten()
        {
            if !square.is_on(size) {
                return Some(Illegal::OffBoard { square, size });
            }
        }
        if self.phase() == Phase::Play {
            return self.shot_illegality(m);
        }
        let target = match m {
            Move::Swap => {
                return (self.phase() != Phase::Pie).then_some(Illegal::SwapOutsidePie);
            }
            Move::Shot { .. } => return Some(Illegal::ShooterMoveInSetup),
            Move::Shooter(target) | Move::Stone(target) => target,
        };
        let pie = self.phase() == Phase::Pie;
        if pie || self.placement() == Placement::Shooter {
            if !m.is_shooter() {
                return Some(Illegal::ShooterDue {
                    turn: self.turn(),
                    pie,
                });
            }
            if !self.shooter_zone().contains(target) {
                let setup_rule = self.rules().setup_rule();
                return Some(Illegal::ClosedToShooter {
                    square: target,
                    setup_rule,
                });
            }
            return None;
        }
        if m.is_shooter() {
            return Some(Illegal::StoneDue { turn: self.turn() });
        }
        (!self.empty().contains(target)).then_some(Illegal::Occupied(target))
    }

    fn shot_illegality(&self, m: Move) -> Option<Illegal> {
        match m {
            Move::Swap | Move::Shooter(_) => Some(Illegal::NotAShot),
            Move::Stone(target) => (!self.is_legal(m)).then_some(Illegal::Unreached(target)),
            Move::Shot {
                origin,
                destination,
                target,
            } => {
                let blockers = self.blockers();
                let empty = self.empty();
                if !self.shooters().contains(origin) {
                    Some(Illegal::NoShooter(origin))
                } else if !lines::reach(origin, blockers, empty).contains(destination) {
                    Some(Illegal::MoveUnreached {
                        origin,
                        destination,
                    })
                } else {
                    (!self.is_legal(m)).then_some(Illegal::ShotUnreached {
                        destination,
                        target,
                    })
                }
            }
        }
    }

    /// The squares open to the next setup placement (in setup and pie), the
    /// kind of which [`Position::next_placement`] gives; empty in play.
    #[inline]
    pub fn placements(&self) -> Bitboard {
        match (self.phase(), self.placement()) {
            (Phase::Play, _) => Bitboard::EMPTY,
            (Phase::Pie, _) | (Phase::Setup, Placement::Shooter) => self.shooter_zone(),
            (Phase::Setup, Placement::Stone) => self.empty(),
        }
    }

    /// The setup move that places the next piece (a shooter or the stone) on
    /// `square`.
    #[inline]
    pub fn next_placement(&self, square: Square) -> Move {
        match (self.phase(), self.placement()) {
            (Phase::Pie, _) | (_, Placement::Shooter) => Move::Shooter(square),
            (_, Placement::Stone) => Move::Stone(square),
        }
    }

    /// Whether the next setup placement is a shooter or the stone.
    #[inline]
    fn placement(&self) -> Placement {
        let placed = self.all_shooters().count();
        let quota = match self.turn() {
            Color::Black => self.rules().first_shooters(),
            Color::White => self.rules().shooters(),
        };
        if placed < quota {
            Placement::Shooter
        } else {
            Placement::Stone
        }
    }

    /// The empty squares where a shooter may be placed (RULES.md section 3).
    #[inline]
    fn shooter_zone(&self) -> Bitboard {
        let empty = self.empty();
        match self.rules().setup_rule() {
            SetupRule::Perimeter => empty - Bitboard::ring(self.rules().size()),
            SetupRule::Spacing => empty - self.all_shooters().king_fill(),
        }
    }
}

/// Blockers and empty squares once the shooter on `origin` has left: it is
/// empty, and under `shooters_block` no longer ends lines. (The shooter's
/// new square is the origin of the lines that matter, so it needs no mark.)
#[inline]
fn after_leaving(origin: Square, blockers: Bitboard, empty: Bitboard) -> (Bitboard, Bitboard) {
    (blockers.without(origin), empty.with(origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str, setup_rule: SetupRule, lines: Lines) -> Position {
        Position::from_fen(fen, setup_rule, lines).unwrap()
    }

    fn check_consistency(pos: &Position) {
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), pos.count_legal_moves(), "{}", pos.fen());
        assert!(
            moves.windows(2).all(|w| w[0] < w[1]),
            "canonical order in {}",
            pos.fen()
        );
        for &m in &moves {
            assert!(pos.is_legal(m), "{m} in {}", pos.fen());
        }
    }

    #[test]
    fn generation_counting_and_checks_agree() {
        for lines in [Lines::ShootersPass, Lines::ShootersBlock] {
            for fen in [
                "7/7/7/7/7/7/7 b setup 3",
                "7/2x4/7/1s5/7/2s2s1/7 w setup 3",
                "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
                "x1x1soo/2x2os/2oox2/1xx3s/4x2/o4x1/1xox1oo w play 3",
                "8x1/10/1o5xx1/o3x1o3/2ssx2s2/os1o4x1/1sx6s/2o7/6ox2/s9 w play 7",
            ] {
                let pos = pos(fen, SetupRule::Perimeter, lines);
                check_consistency(&pos);
                for m in pos.legal_moves().into_iter().step_by(37) {
                    let mut child = pos;
                    child.play_unchecked(m);
                    check_consistency(&child);
                }
            }
        }
    }

    #[test]
    fn illegal_moves_are_refused() {
        for lines in [Lines::ShootersPass, Lines::ShootersBlock] {
            let play = pos(
                "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
                SetupRule::Perimeter,
                lines,
            );
            let moves: std::collections::HashSet<Move> = play.legal_moves().into_iter().collect();
            let origins = play.shooters() | play.stones(Color::Black) | Bitboard::from(Square::A1);
            let mut illegal = 0;
            for origin in origins {
                for destination in Bitboard::FULL {
                    for target in Bitboard::FULL {
                        let shot = Move::Shot {
                            origin,
                            destination,
                            target,
                        };
                        for m in [shot, Move::Stone(target), Move::Shooter(target)] {
                            let legal = play.is_legal(m);
                            assert_eq!(legal, moves.contains(&m), "{m}");
                            assert_eq!(play.illegality(m).is_none(), legal, "{m}");
                            illegal += usize::from(!legal);
                        }
                    }
                }
            }
            assert!(illegal > 0);
            assert_eq!(play.illegality(Move::Swap), Some(Illegal::NotAShot));
            let off_board: Move = "j10".parse().unwrap();
            assert!(matches!(
                play.illegality(off_board),
                Some(Illegal::OffBoard { size: 7, .. })
            ));
        }
    }

    #[test]
    fn spacing_keeps_shooters_apart() {
        let setup = pos(
            "7/7/7/3s3/7/7/7 b setup 3",
            SetupRule::Spacing,
            Lines::ShootersPass,
        );
        assert_eq!(
            setup.count_legal_moves(),
            48,
            "K // 2 = 1 shooter placed: the stone goes anywhere"
        );
        assert!(setup.is_legal("d5".parse().unwrap()) && !setup.is_legal("*a1".parse().unwrap()));
        let pos = pos(
            "7/7/7/3s3/7/7/x6 w pie 3",
            SetupRule::Spacing,
            Lines::ShootersPass,
        );
        assert!(!pos.is_legal("*e5".parse().unwrap()) && pos.is_legal("*a2".parse().unwrap()));
        // swap, and the 47 empty squares less the 8 around d4.
        assert_eq!(pos.count_legal_moves(), 1 + 47 - 8);
        assert_eq!(pos.legal_moves()[..2], [Move::Swap, "*b1".parse().unwrap()]);
    }
}
