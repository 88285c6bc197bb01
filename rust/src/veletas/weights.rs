//! The weights of Veletas's estimate ([`super::evaluate`]), as
//! `cargo run --release --example fit_evaluation -- --game veletas --write`
//! fitted them; that command writes this file.
#![allow(
    clippy::unreadable_literal,
    reason = "the fit writes the weights as Rust prints them"
)]

/// One weight a feature of [`crate::evaluate::Evaluate::FEATURE_NAMES`].
#[rustfmt::skip]
pub const WEIGHTS: [f32; 9] = [0.010519202, 3.9196837, -3.7702405, -0.14761604, 0.33779833, 1.4120117, -1.3486422, 0.24296802, -0.16884351];
