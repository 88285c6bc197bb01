//! The stop flag of a search, shared by the bots of every game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;

/// A flag that ends a search early when it is raised, from any thread: the
/// search then plays (or reports) the best it found so far. Like
/// `threading.Event`, it starts lowered.
#[pyclass(name = "StopFlag", module = "veletas._veletas", frozen)]
#[derive(Default)]
pub struct PyStopFlag {
    flag: Arc<AtomicBool>,
}

impl PyStopFlag {
    /// The shared flag, for a search that runs without the GIL.
    pub fn shared(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }
}

#[pymethods]
impl PyStopFlag {
    #[new]
    fn new() -> PyStopFlag {
        PyStopFlag::default()
    }

    /// Raises the flag: a search that reads it stops soon after.
    fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Lowers the flag again.
    fn clear(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        format!(
            "StopFlag(set={})",
            if self.is_set() { "True" } else { "False" }
        )
    }
}
