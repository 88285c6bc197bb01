//! Arguments that the bindings of every game read alike.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;

/// An optional keyword argument whose every given value, `None` included,
/// is checked (unlike `Option`, which would take `None` for "not given").
pub enum Given<'py> {
    /// Not passed: the default applies.
    Default,
    /// Passed, with this value.
    Value(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Given<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Given<'py>> {
        Ok(Given::Value(obj.to_owned()))
    }
}

impl<'py> Given<'py> {
    pub fn or(
        self,
        py: Python<'py>,
        default: impl IntoPyObject<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Given::Value(value) => Ok(value),
            Given::Default => Ok(default.into_bound_py_any(py)?),
        }
    }
}
