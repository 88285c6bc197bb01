//! The engines behind `veletas.bots` for Meridians ([`crate::py::bots`]):
//! positions arrive as a position string with the pie option.

use pyo3::prelude::*;

use super::board::position_from_fen;
use crate::meridians::DecisionState;
use crate::meridians::bots::{greedy_move, random_move};
use crate::py::bots::{move_choices, search_bindings};

search_bindings!(
    "MeridiansMctsPlayer",
    meridians_solve,
    DecisionState,
    (fen: &Bound<'_, PyAny>, pie: bool, swapped: bool) =>
        DecisionState::with_swapped(position_from_fen(fen, pie)?, swapped)
);

move_choices!(
    meridians_random_move, meridians_greedy_move,
    (fen: &Bound<'_, PyAny>, pie: bool) => position_from_fen(fen, pie)?,
    random_move, greedy_move
);
