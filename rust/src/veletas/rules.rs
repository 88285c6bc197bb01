//! The rules of one game: board size, shooter count and the rule options.

use core::fmt;
use core::str::FromStr;

use super::bitboard::Bitboard;

/// Where shooters may be placed during setup (RULES.md section 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SetupRule {
    /// Not on the outermost ring of squares (the default).
    #[default]
    Perimeter,
    /// Not next to another shooter, orthogonally or diagonally; edges allowed.
    Spacing,
}

impl SetupRule {
    /// `"perimeter"` or `"spacing"`.
    pub const fn name(self) -> &'static str {
        match self {
            SetupRule::Perimeter => "perimeter",
            SetupRule::Spacing => "spacing",
        }
    }
}

impl fmt::Display for SetupRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a setup rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSetupRuleError;

impl fmt::Display for ParseSetupRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown setup rule: expected 'perimeter' or 'spacing'")
    }
}

impl std::error::Error for ParseSetupRuleError {}

impl FromStr for SetupRule {
    type Err = ParseSetupRuleError;

    fn from_str(name: &str) -> Result<SetupRule, ParseSetupRuleError> {
        match name {
            "perimeter" => Ok(SetupRule::Perimeter),
            "spacing" => Ok(SetupRule::Spacing),
            _ => Err(ParseSetupRuleError),
        }
    }
}

/// What ends a line besides stones and the board edge (RULES.md sections 2, 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lines {
    /// Lines pass over every shooter, claimed or not (the default).
    #[default]
    ShootersPass,
    /// Every shooter ends a line like a stone (the `shooters_block` option).
    ShootersBlock,
}

impl Lines {
    /// `"shooters_pass"` or `"shooters_block"`, as in the vector files.
    pub const fn name(self) -> &'static str {
        match self {
            Lines::ShootersPass => "shooters_pass",
            Lines::ShootersBlock => "shooters_block",
        }
    }

    /// The line rule of the boolean `shooters_block` option.
    pub const fn from_shooters_block(shooters_block: bool) -> Lines {
        if shooters_block {
            Lines::ShootersBlock
        } else {
            Lines::ShootersPass
        }
    }

    /// Whether shooters end lines.
    pub const fn shooters_block(self) -> bool {
        matches!(self, Lines::ShootersBlock)
    }
}

impl fmt::Display for Lines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a line rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLinesError;

impl fmt::Display for ParseLinesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown line rule: expected 'shooters_pass' or 'shooters_block'")
    }
}

impl std::error::Error for ParseLinesError {}

impl FromStr for Lines {
    type Err = ParseLinesError;

    fn from_str(name: &str) -> Result<Lines, ParseLinesError> {
        match name {
            "shooters_pass" => Ok(Lines::ShootersPass),
            "shooters_block" => Ok(Lines::ShootersBlock),
            _ => Err(ParseLinesError),
        }
    }
}

/// The named variants of RULES.md section 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 10x10, 7 shooters.
    Standard,
    /// 9x9, 5 shooters.
    Medium,
    /// 7x7, 3 shooters.
    Small,
}

impl Variant {
    /// All variants, largest first.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::Medium, Variant::Small];

    /// `"standard"`, `"medium"` or `"small"`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Medium => "medium",
            Variant::Small => "small",
        }
    }

    /// The board size N.
    pub const fn size(self) -> u32 {
        match self {
            Variant::Standard => 10,
            Variant::Medium => 9,
            Variant::Small => 7,
        }
    }

    /// The shooter count K.
    pub const fn shooters(self) -> u32 {
        match self {
            Variant::Standard => 7,
            Variant::Medium => 5,
            Variant::Small => 3,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseVariantError;

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown variant: expected one of 'standard', 'medium', 'small'")
    }
}

impl std::error::Error for ParseVariantError {}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(name: &str) -> Result<Variant, ParseVariantError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or(ParseVariantError)
    }
}

/// Why a board size or shooter count is refused (RULES.md section 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The board size is not in 5..=10.
    Size(u32),
    /// The shooter count is even or below 3.
    Shooters(u32),
    /// Too many shooters for setup to always have a legal square.
    TooManyShooters {
        /// The board size N.
        size: u32,
        /// The shooter count K.
        shooters: u32,
        /// The setup rule whose limit K breaks.
        setup_rule: SetupRule,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RulesError::Size(size) => write!(f, "board size {size} is out of range: 5 <= N <= 10"),
            RulesError::Shooters(k) => write!(f, "shooter count {k} must be odd and at least 3"),
            RulesError::TooManyShooters {
                size,
                shooters,
                setup_rule,
            } => write_too_many_shooters(f, &shooters, size, setup_rule),
        }
    }
}

/// The message of [`RulesError::TooManyShooters`], for a count given in any
/// form (a position string's K may be too large for an integer type).
pub(crate) fn write_too_many_shooters(
    f: &mut fmt::Formatter<'_>,
    shooters: &dyn fmt::Display,
    size: u32,
    setup_rule: SetupRule,
) -> fmt::Result {
    write!(
        f,
        "{shooters} shooters do not fit a {size}x{size} board under '{setup_rule}': "
    )?;
    match setup_rule {
        SetupRule::Perimeter => {
            write!(
                f,
                "K + 1 <= (N - 2)^2 = {} is required",
                (size - 2) * (size - 2)
            )
        }
        SetupRule::Spacing => write!(f, "9 * (K - 1) + 2 <= N^2 = {} is required", size * size),
    }
}

impl std::error::Error for RulesError {}

/// The rules of a game: board size N, shooter count K, and the rule options.
///
/// Only valid combinations can be built ([`Rules::new`] checks RULES.md
/// section 1), so every `Rules` value has a setup that cannot run out of
/// squares.
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Lines, Rules, SetupRule, Variant};
///
/// let small = Rules::variant(Variant::Small);
/// assert_eq!((small.size(), small.shooters(), small.claims_to_win()), (7, 3, 2));
/// assert!(Rules::new(5, 9, SetupRule::Perimeter, Lines::ShootersPass).is_err());
/// assert!(Rules::new(10, 63, SetupRule::Perimeter, Lines::ShootersPass).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    size: u8,
    shooters: u8,
    setup_rule: SetupRule,
    lines: Lines,
    /// The `claimed_shooters_block` option: claimed shooters end lines.
    claimed_shooters_block: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::variant(Variant::Standard)
    }
}

impl Rules {
    /// Validates (size, shooters) under `setup_rule`.
    pub fn new(
        size: u32,
        shooters: u32,
        setup_rule: SetupRule,
        lines: Lines,
    ) -> Result<Rules, RulesError> {
        check_shooter_count(size, u64::from(shooters), setup_rule)?;
        Ok(Rules {
            size: size as u8,
            shooters: shooters as u8,
            setup_rule,
            lines,
            claimed_shooters_block: false,
        })
    }

    /// A named variant with the default options.
    pub const fn variant(variant: Variant) -> Rules {
        Rules {
            size: variant.size() as u8,
            shooters: variant.shooters() as u8,
            setup_rule: SetupRule::Perimeter,
            lines: Lines::ShootersPass,
            claimed_shooters_block: false,
        }
    }

    /// The same board and shooters with other options, validated again (a
    /// shooter count can fit `perimeter` and not `spacing`).
    /// (`claimed_shooters_block` is kept.)
    pub fn with_options(self, setup_rule: SetupRule, lines: Lines) -> Result<Rules, RulesError> {
        Rules::new(self.size(), self.shooters(), setup_rule, lines)
            .map(|rules| rules.with_claimed_shooters_block(self.claimed_shooters_block))
    }

    /// The same rules with the `claimed_shooters_block` option set to `on`
    /// (RULES.md section 4): claimed shooters end lines, and claims are
    /// checked again until none changes. It fits every board and shooter
    /// count, so nothing needs checking again.
    ///
    /// ```
    /// use _veletas::veletas::{Rules, Variant};
    ///
    /// let boardspace = Rules::variant(Variant::Standard).with_claimed_shooters_block(true);
    /// assert!(boardspace.claimed_shooters_block() && boardspace.claims_cascade());
    /// assert_ne!(boardspace, Rules::default());
    /// ```
    #[must_use]
    pub const fn with_claimed_shooters_block(mut self, on: bool) -> Rules {
        self.claimed_shooters_block = on;
        self
    }

    /// Whether the `claimed_shooters_block` option is on.
    #[inline]
    pub const fn claimed_shooters_block(self) -> bool {
        self.claimed_shooters_block
    }

    /// Whether claimed shooters end lines while unclaimed ones are passed
    /// over, so that a claim can trap another shooter: `claimed_shooters_block`
    /// without `shooters_block` (under which every shooter ends lines, and a
    /// claim changes no line).
    #[inline]
    pub const fn claims_cascade(self) -> bool {
        self.claimed_shooters_block && matches!(self.lines, Lines::ShootersPass)
    }

    /// The board size N.
    #[inline]
    pub const fn size(self) -> u32 {
        self.size as u32
    }

    /// The shooter count K.
    #[inline]
    pub const fn shooters(self) -> u32 {
        self.shooters as u32
    }

    /// The setup restriction for shooters.
    #[inline]
    pub const fn setup_rule(self) -> SetupRule {
        self.setup_rule
    }

    /// Whether shooters end lines.
    #[inline]
    pub const fn lines(self) -> Lines {
        self.lines
    }

    /// The named variant of (N, K), if there is one.
    pub fn named_variant(self) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.size() == self.size() && v.shooters() == self.shooters())
    }

    /// K // 2 + 1: the claims that win at once.
    #[inline]
    pub const fn claims_to_win(self) -> u32 {
        self.shooters() / 2 + 1
    }

    /// K // 2: the shooters the first player places as Black.
    #[inline]
    pub const fn first_shooters(self) -> u32 {
        self.shooters() / 2
    }

    /// K - K // 2: the shooters White places.
    #[inline]
    pub const fn second_shooters(self) -> u32 {
        self.shooters() - self.shooters() / 2
    }

    /// The squares of the board.
    #[inline]
    pub fn board(self) -> Bitboard {
        Bitboard::board(self.size())
    }

    /// The squares of the 10x10 grid that are off this board; they end lines.
    #[inline]
    pub fn walls(self) -> Bitboard {
        !self.board()
    }
}

/// Checks (N, K) under `setup_rule` (RULES.md section 1); K is taken wide so
/// that a parsed count of any size can be checked without overflow.
pub(crate) fn check_shooter_count(
    size: u32,
    shooters: u64,
    setup_rule: SetupRule,
) -> Result<(), RulesError> {
    if !(5..=10).contains(&size) {
        return Err(RulesError::Size(size));
    }
    let narrow = u32::try_from(shooters).unwrap_or(u32::MAX);
    if shooters < 3 || shooters.is_multiple_of(2) {
        return Err(RulesError::Shooters(narrow));
    }
    let n = u64::from(size);
    let fits = match setup_rule {
        SetupRule::Perimeter => shooters < (n - 2) * (n - 2), // K + 1 <= (N - 2)^2
        SetupRule::Spacing => 9 * (shooters - 1) + 2 <= n * n,
    };
    if fits {
        Ok(())
    } else {
        Err(RulesError::TooManyShooters {
            size,
            shooters: narrow,
            setup_rule,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        let ok = |n, k, rule| Rules::new(n, k, rule, Lines::ShootersPass).is_ok();
        assert!(ok(5, 3, SetupRule::Perimeter));
        assert!(ok(5, 8 - 1, SetupRule::Perimeter), "K + 1 = 8 <= 9");
        assert!(!ok(5, 9, SetupRule::Perimeter));
        assert!(ok(5, 3, SetupRule::Spacing), "9 * 2 + 2 = 20 <= 25");
        assert!(!ok(5, 5, SetupRule::Spacing), "9 * 4 + 2 = 38 > 25");
        assert!(ok(10, 11, SetupRule::Spacing) && !ok(10, 13, SetupRule::Spacing));
        assert!(!ok(4, 3, SetupRule::Perimeter) && !ok(11, 3, SetupRule::Perimeter));
        assert!(!ok(10, 1, SetupRule::Perimeter) && !ok(10, 6, SetupRule::Perimeter));
        assert!(!ok(10, u32::MAX, SetupRule::Spacing));
        assert_eq!(
            Rules::new(10, u32::MAX, SetupRule::Perimeter, Lines::ShootersPass),
            Err(RulesError::TooManyShooters {
                size: 10,
                shooters: u32::MAX,
                setup_rule: SetupRule::Perimeter
            })
        );
        for variant in Variant::ALL {
            let rules = Rules::variant(variant);
            assert_eq!(
                Rules::new(
                    variant.size(),
                    variant.shooters(),
                    SetupRule::Spacing,
                    Lines::ShootersBlock
                )
                .map(Rules::size),
                Ok(variant.size())
            );
            assert_eq!(rules.named_variant(), Some(variant));
            assert_eq!(variant.name().parse(), Ok(variant));
        }
    }

    #[test]
    fn messages_name_the_limit() {
        let err = Rules::new(5, 9, SetupRule::Perimeter, Lines::ShootersPass).unwrap_err();
        assert_eq!(
            err.to_string(),
            "9 shooters do not fit a 5x5 board under 'perimeter': K + 1 <= (N - 2)^2 = 9 is required"
        );
        let err = Rules::new(11, 3, SetupRule::Perimeter, Lines::ShootersPass).unwrap_err();
        assert_eq!(
            err.to_string(),
            "board size 11 is out of range: 5 <= N <= 10"
        );
        assert_eq!(Rules::default().first_shooters(), 3);
        assert_eq!(Rules::default().second_shooters(), 4);
        assert_eq!("nope".parse::<SetupRule>(), Err(ParseSetupRuleError));
        assert_eq!("shooters_block".parse(), Ok(Lines::ShootersBlock));
    }
}
