//! The weights of Meridians's estimate ([`super::evaluate`]), as
//! `cargo run --release --example fit_evaluation -- --game meridians --write`
//! fitted them; that command writes this file.
#![allow(
    clippy::unreadable_literal,
    reason = "the fit writes the weights as Rust prints them"
)]

/// One weight a feature of [`crate::evaluate::Evaluate::FEATURE_NAMES`].
#[rustfmt::skip]
pub const WEIGHTS: [f32; 9] = [0.4094567, 5.8345723, -6.8534408, -6.8227634, 0.4874559, -4.3562436, 4.326526, 3.7821302, -4.267502];
