//! The exact solver behind `veletas.solve`, written once for every game: a
//! df-pn solve ([`crate::solver`]) without the GIL, its winning move and
//! its proof in whole moves ([`crate::proof`]). A game's bindings make the
//! decision state of a position string and call [`solve`].

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::player::Turns;
use crate::proof::{MoveNode, in_moves};
use crate::py::stop::PyStopFlag;
use crate::solver::{Budget, Progress, Solvable, Solver, Value};
use crate::solver_threads;

/// The table of the exact solver that a `veletas.Solver` keeps from one
/// solve to the next, emptied before each, of the game and the rules of
/// the positions it is given (the Python side keeps one `SolverTable` for
/// each), made at the first solve that needs it.
#[pyclass(name = "SolverTable", module = "veletas._veletas", frozen)]
#[derive(Default)]
pub struct PySolverTable {
    kept: Mutex<Option<Box<dyn Any + Send>>>,
}

#[pymethods]
impl PySolverTable {
    #[new]
    fn new() -> PySolverTable {
        PySolverTable::default()
    }
}

/// The solver of one game's positions, its table of `memory` bytes.
struct Kept<G: Solvable> {
    memory: usize,
    solver: Solver<G>,
}

/// One position of a proof as Python reads it: `("won", [])`, `("move",
/// [(move, child)])` or `("replies", [(move, child), ...])`, children by
/// index, node 0 the root.
pub type ProofEntry = (&'static str, Vec<(String, u32)>);

/// What a solve reports: the value for the player to act (`"win"`,
/// `"loss"`, `"unknown"`), a winning move, the nodes searched, the seconds,
/// the proof's positions (`None` past `max_proof` or without a win) and,
/// when asked for, the proof.
pub type Solved = (
    &'static str,
    Option<String>,
    u64,
    f64,
    Option<usize>,
    Option<Vec<ProofEntry>>,
);

/// Solves `state` (at the start of a turn) on `threads` threads within
/// `seconds` and `max_nodes` with tables of `memory` bytes in all, without
/// the GIL, until
/// `stop` is raised, filing a position and its images under the board's
/// symmetries as one (`symmetries`, where the game folds them);
/// `progress(nodes, seconds, entries)` hears about a long
/// solve every second or so (an exception it raises ends the solve and is
/// raised here). The proof is built up to `max_proof` positions and
/// returned with `proof`.
#[allow(clippy::too_many_arguments)]
pub fn solve<G: Solvable + Turns + Send + Sync + 'static>(
    py: Python<'_>,
    state: G,
    seconds: Option<f64>,
    max_nodes: Option<u64>,
    memory: usize,
    threads: usize,
    symmetries: bool,
    max_proof: usize,
    proof: bool,
    stop: Option<PyRef<'_, PyStopFlag>>,
    progress: Option<&Py<PyAny>>,
    table: Option<&PySolverTable>,
) -> PyResult<Solved>
where
    G::Move: Copy,
    G::Key: Send,
{
    if table.is_some() && threads != 1 {
        return Err(PyValueError::new_err(format!(
            "a solver that keeps its table solves on one thread, not {threads}"
        )));
    }
    let kept = table.map(|table| &table.kept);
    let time = seconds
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| PyValueError::new_err(format!("seconds must be positive, not {s}")))
        })
        .transpose()?;
    let budget = Budget {
        max_nodes,
        time,
        table_bytes: memory,
        symmetries,
    };
    let stop = stop.map_or_else(|| Arc::new(AtomicBool::new(false)), |s| s.shared());
    let failure: Mutex<Option<PyErr>> = Mutex::new(None);
    let solved = py.detach(|| {
        let mut report = |p: &Progress| {
            let Some(callback) = progress else {
                return;
            };
            let called = Python::attach(|py| {
                callback
                    .call1(py, (p.nodes, p.elapsed.as_secs_f64(), p.entries))
                    .map(drop)
            });
            if let Err(error) = called {
                failure
                    .lock()
                    .expect("no panic holds it")
                    .get_or_insert(error);
                stop.store(true, Ordering::Relaxed);
            }
        };
        let max_proof = max_proof.saturating_mul(G::TURN_DECISIONS.max(1) * 4);
        let Some(kept) = kept else {
            return Ok(solver_threads::solve(
                &state,
                &budget,
                threads,
                &stop,
                max_proof,
                G::starts_turn,
                &mut report,
            ));
        };
        solve_kept(kept, &state, &budget, memory, &stop, max_proof, &mut report)
    });
    let solved = solved.map_err(PyValueError::new_err)?;
    let moves = solved
        .proof
        .as_ref()
        .and_then(|graph| in_moves(graph, &state, max_proof));
    if let Some(error) = failure.into_inner().expect("no panic holds it") {
        return Err(error);
    }
    let value = match solved.value {
        Value::Win => "win",
        Value::Loss => "loss",
        Value::Unknown => "unknown",
    };
    let chosen = state.move_of_actions(&solved.line).map(|m| m.to_string());
    let size = moves.as_ref().map(crate::proof::MoveProof::len);
    let entries = moves.filter(|_| proof).map(|moves| {
        moves
            .nodes
            .iter()
            .map(|node| match node {
                MoveNode::Won => ("won", Vec::new()),
                MoveNode::Move(m, next) => ("move", vec![(m.to_string(), *next)]),
                MoveNode::Replies(replies) => (
                    "replies",
                    replies
                        .iter()
                        .map(|(m, next)| (m.to_string(), *next))
                        .collect(),
                ),
            })
            .collect()
    });
    Ok((
        value,
        chosen,
        solved.nodes,
        solved.elapsed.as_secs_f64(),
        size,
        entries,
    ))
}

/// The plain solve by the solver in `kept`, its table emptied, made (of
/// `memory` bytes) if it has none of this game and memory; refused while
/// another solve holds it.
fn solve_kept<G: Solvable + Turns + 'static>(
    kept: &Mutex<Option<Box<dyn Any + Send>>>,
    state: &G,
    budget: &Budget,
    memory: usize,
    stop: &AtomicBool,
    max_proof: usize,
    report: &mut dyn FnMut(&Progress),
) -> Result<solver_threads::Solved, &'static str>
where
    G::Key: Send,
{
    let mut kept = match kept.try_lock() {
        Ok(kept) => kept,
        Err(TryLockError::WouldBlock) => {
            return Err("this solver is solving another position: one at a time");
        }
        // A solve that panicked left the table as it was: start afresh.
        Err(TryLockError::Poisoned(poisoned)) => {
            let mut kept = poisoned.into_inner();
            *kept = None;
            kept
        }
    };
    let fits = kept
        .as_mut()
        .and_then(|k| k.downcast_mut::<Kept<G>>())
        .is_some_and(|k| k.memory == memory);
    if !fits {
        *kept = Some(Box::new(Kept::<G> {
            memory,
            solver: Solver::new(memory),
        }));
    }
    let kept = kept
        .as_mut()
        .and_then(|k| k.downcast_mut::<Kept<G>>())
        .expect("the table was just made for this game");
    kept.solver.forget();
    Ok(solver_threads::solve_with(
        &mut kept.solver,
        state,
        budget,
        stop,
        max_proof,
        &G::starts_turn,
        report,
    ))
}

/// Defines a game's solve function under its Python name: the arguments
/// that give the position (`fen`, the game's rule options and `swapped`)
/// and the expression that makes the decision state of them.
macro_rules! solve_function {
    (
        $name:ident,
        ($($arg:ident: $arg_ty:ty),+) => $state_of:expr
    ) => {
        /// Solves the position of `fen` (`swapped`: whether the pie swap was
        /// played) without the GIL: `(value, move, nodes, seconds,
        /// proof_size, proof)` (see `veletas.solve`).
        #[pyo3::pyfunction]
        #[pyo3(signature = (
            $($arg),+, *, memory, max_proof, seconds = None, max_nodes = None,
            proof = false, stop = None, progress = None, threads = 1,
            symmetries = true, table = None,
        ))]
        #[allow(clippy::too_many_arguments)]
        pub fn $name(
            py: pyo3::Python<'_>,
            $($arg: $arg_ty,)+
            memory: usize,
            max_proof: usize,
            seconds: Option<f64>,
            max_nodes: Option<u64>,
            proof: bool,
            stop: Option<pyo3::PyRef<'_, $crate::py::stop::PyStopFlag>>,
            progress: Option<pyo3::Py<pyo3::PyAny>>,
            threads: usize,
            symmetries: bool,
            table: Option<pyo3::PyRef<'_, $crate::py::solve::PySolverTable>>,
        ) -> pyo3::PyResult<$crate::py::solve::Solved> {
            let state = $state_of;
            $crate::py::solve::solve(
                py,
                state,
                seconds,
                max_nodes,
                memory,
                threads,
                symmetries,
                max_proof,
                proof,
                stop,
                progress.as_ref(),
                table.as_deref(),
            )
        }
    };
}

pub(crate) use solve_function;
