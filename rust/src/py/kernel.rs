//! The back end of the bit kernels, shared by every game: which one runs,
//! and choosing one for measurement and tests (`veletas.kernels`).

use pyo3::prelude::*;

use super::errors::KernelError;
use crate::cpu::{self, Backend};

/// The name of the back end the kernels run: ``"portable"`` or
/// ``"x86-64-v3"``.
#[pyfunction]
pub fn kernel_backend() -> &'static str {
    cpu::backend().name()
}

/// The names of the back ends this CPU can run, the portable one first.
#[pyfunction]
pub fn kernel_backends() -> Vec<&'static str> {
    Backend::supported()
        .into_iter()
        .map(Backend::name)
        .collect()
}

/// Chooses the back end of every kernel by name; ``None`` goes back to the
/// default of this CPU. Raises ``KernelError`` for a name that is unknown or
/// that this CPU cannot run, leaving the choice as it was.
#[pyfunction]
#[pyo3(signature = (name))]
pub fn set_kernel_backend(name: Option<&str>) -> PyResult<()> {
    let backend = name
        .map(Backend::parse)
        .transpose()
        .map_err(|error| KernelError::new_err(error.to_string()))?;
    cpu::set_backend(backend).map_err(|error| KernelError::new_err(error.to_string()))
}

/// Adds the functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(kernel_backend, m)?)?;
    m.add_function(wrap_pyfunction!(kernel_backends, m)?)?;
    m.add_function(wrap_pyfunction!(set_kernel_backend, m)?)
}
