//! The plain Python types of Meridians (`veletas.games.meridians.types`),
//! shared with the reference, and the argument checks written there once.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::meridians::{Color, Phase, Size};

const TYPES: &str = "veletas.games.meridians.types";

static COLOR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PHASE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static STONES: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static OUTCOME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RULES: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `Color.LIGHT` or `Color.DARK`.
pub fn color(py: Python<'_>, color: Color) -> PyResult<Bound<'_, PyAny>> {
    COLOR.import(py, TYPES, "Color")?.call1((color.index(),))
}

/// The `Phase` of that name.
pub fn phase(py: Python<'_>, phase: Phase) -> PyResult<Bound<'_, PyAny>> {
    PHASE.import(py, TYPES, "Phase")?.call1((phase.name(),))
}

/// `Stones(light, dark)`.
pub fn stones(py: Python<'_>, light: u32, dark: u32) -> PyResult<Bound<'_, PyAny>> {
    STONES.import(py, TYPES, "Stones")?.call1((light, dark))
}

/// `Outcome(winner, stones)`.
pub fn outcome(py: Python<'_>, winner: Color, light: u32, dark: u32) -> PyResult<Bound<'_, PyAny>> {
    OUTCOME
        .import(py, TYPES, "Outcome")?
        .call1((color(py, winner)?, stones(py, light, dark)?))
}

/// `Rules(size, pie)`.
pub fn rules(py: Python<'_>, size: Size, pie: bool) -> PyResult<Bound<'_, PyAny>> {
    RULES.import(py, TYPES, "Rules")?.call1((size.name(), pie))
}

/// The size named by `size`, checked by `check_size` (the one check of the
/// argument, shared with the reference).
pub fn check_size(size: &Bound<'_, PyAny>) -> PyResult<Size> {
    let name: String = size
        .py()
        .import(TYPES)?
        .call_method1("check_size", (size,))?
        .extract()?;
    Ok(name.parse().expect("check_size returns a known size"))
}

/// `pie` as a bool, checked by `check_pie`.
pub fn check_pie(pie: &Bound<'_, PyAny>) -> PyResult<bool> {
    pie.py()
        .import(TYPES)?
        .call_method1("check_pie", (pie,))?
        .extract()
}

/// The point number of a point name, read by `parse_point` (the one parser
/// of names, with its errors).
pub fn parse_point(name: &Bound<'_, PyAny>) -> PyResult<u32> {
    name.py()
        .import(TYPES)?
        .call_method1("parse_point", (name,))?
        .extract()
}
