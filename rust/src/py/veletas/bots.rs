//! The engines behind `veletas.bots` for Veletas ([`crate::py::bots`]):
//! positions arrive as a position string with the setup rule and the
//! options of which shooters block.

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::board::{parse_setup_rule, position_from_fen};
use crate::py::bots::{move_choices, search_bindings};
use crate::veletas::bots::{greedy_move as core_greedy, random_move as core_random};
use crate::veletas::{DecisionState, Lines, Position};

/// The position of `fen` under the given options.
fn position(
    fen: &Bound<'_, PyString>,
    setup_rule: &str,
    shooters_block: bool,
    claimed_shooters_block: bool,
) -> PyResult<Position> {
    let setup_rule = parse_setup_rule(setup_rule)?;
    let position = position_from_fen(fen, setup_rule, Lines::from_shooters_block(shooters_block))?;
    Ok(position.with_claimed_shooters_block(claimed_shooters_block))
}

search_bindings!(
    "MctsPlayer",
    solve,
    DecisionState,
    (
        fen: &Bound<'_, PyString>,
        setup_rule: &str,
        shooters_block: bool,
        claimed_shooters_block: bool,
        swapped: bool
    ) => DecisionState::with_swapped(
        position(fen, setup_rule, shooters_block, claimed_shooters_block)?,
        swapped
    )
);

move_choices!(
    random_move, greedy_move,
    (
        fen: &Bound<'_, PyString>,
        setup_rule: &str,
        shooters_block: bool,
        claimed_shooters_block: bool
    ) => position(fen, setup_rule, shooters_block, claimed_shooters_block)?,
    core_random, core_greedy
);
