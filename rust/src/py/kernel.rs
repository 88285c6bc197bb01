//! The kernel, shared by every game: which one runs,
//! and choosing one for measurement and tests (`veletas.kernels`).

use pyo3::prelude::*;

use super::errors::KernelError;
use crate::cpu::{self, Kernel};

/// The name of the kernel that runs: ``"portable"`` or
/// ``"x86-64-v3"``.
#[pyfunction]
pub fn current_kernel() -> &'static str {
    cpu::kernel().name()
}

/// The names of the kernels this CPU can run, the portable one first.
#[pyfunction]
pub fn supported_kernels() -> Vec<&'static str> {
    Kernel::supported().into_iter().map(Kernel::name).collect()
}

/// Chooses the kernel of every game by name; ``None`` goes back to the
/// default of this CPU. Raises ``KernelError`` for a name that is unknown or
/// that this CPU cannot run, leaving the choice as it was.
#[pyfunction]
#[pyo3(signature = (name))]
pub fn set_kernel(name: Option<&str>) -> PyResult<()> {
    let kernel = name
        .map(Kernel::parse)
        .transpose()
        .map_err(|error| KernelError::new_err(error.to_string()))?;
    cpu::set_kernel(kernel).map_err(|error| KernelError::new_err(error.to_string()))
}

/// Adds the functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(current_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(supported_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(set_kernel, m)?)
}
