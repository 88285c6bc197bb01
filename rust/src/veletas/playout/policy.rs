//! The names of the playout policies.

use core::fmt;
use core::str::FromStr;

/// How a playout picks its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Uniform at every decision of the micro-decision encoding
    /// ([`crate::game::random_action`] on a [`crate::veletas::DecisionState`]).
    #[default]
    Micro,
    /// Uniform over the legal moves of the position ([`super::uniform::uniform_move`]).
    Uniform,
}

impl Policy {
    /// `"micro"` or `"uniform"`.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Micro => "micro",
            Policy::Uniform => "uniform",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePolicyError;

impl fmt::Display for ParsePolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown policy: expected 'micro' or 'uniform'")
    }
}

impl std::error::Error for ParsePolicyError {}

impl FromStr for Policy {
    type Err = ParsePolicyError;

    fn from_str(name: &str) -> Result<Policy, ParsePolicyError> {
        match name {
            "micro" => Ok(Policy::Micro),
            "uniform" => Ok(Policy::Uniform),
            _ => Err(ParsePolicyError),
        }
    }
}
