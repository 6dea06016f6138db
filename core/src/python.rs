//! The Python bindings. States cross as `(piles, down, extra)` in the game's pile order, moves
//! as text in the engine's notation. Every entry point catches panics: an internal error becomes
//! a `RuntimeError`, a position the core cannot hold a `ValueError`, never a crash.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::accordion::Accordion;
use crate::canfield::Canfield;
use crate::game::Game;
use crate::klondike::Klondike;
use crate::leonis::LeonisOwn;
use crate::moves::Parts;
use crate::napoleon::Napoleon;
use crate::options::Options;
use crate::search::{solver_search, Adapter, Budget, INTERRUPTED};
use crate::spider::Spider;

/// A state as Python passes it: piles (card numbers, bottom first), face-down counts, extras.
type PyParts = (Vec<Vec<u8>>, Vec<u32>, Vec<i64>);

/// The games the core knows, by the engine's names.
const GAMES: &[&str] = &[
    Klondike::NAME,
    Canfield::NAME,
    LeonisOwn::NAME,
    Accordion::NAME,
    Napoleon::NAME,
    Spider::NAME,
];

fn parts(state: PyParts) -> Parts {
    Parts { piles: state.0, down: state.1, extra: state.2 }
}

fn py_parts(state: Parts) -> PyParts {
    (state.piles, state.down, state.extra)
}

/// Run `work` and turn a panic into a RuntimeError.
pub(crate) fn guarded<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(panic) => {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(PyRuntimeError::new_err(format!("internal error in the search core: {text}")))
        }
    }
}

fn game_error(game: &str) -> PyErr {
    PyValueError::new_err(format!(
        "the search core has no game {game:?}; it has {}",
        GAMES.join(", ")
    ))
}

/// Call `$body` with `$rules` bound to the game named `$game`, its options applied.
macro_rules! with_game {
    ($game:expr, $options:expr, |$rules:ident| $body:expr) => {{
        let options = Options::from_pairs($options);
        match $game {
            "klondike" => {
                let $rules = Klondike::with_options(&options).map_err(PyValueError::new_err)?;
                $body
            }
            "canfield" => {
                let $rules = Canfield::with_options(&options).map_err(PyValueError::new_err)?;
                $body
            }
            "leonis-own" => {
                let $rules = LeonisOwn::with_options(&options).map_err(PyValueError::new_err)?;
                $body
            }
            "accordion" => {
                let $rules = Accordion::with_options(&options).map_err(PyValueError::new_err)?;
                $body
            }
            "napoleon" => {
                let $rules = Napoleon::with_options(&options).map_err(PyValueError::new_err)?;
                $body
            }
            "spider" => {
                let $rules = Spider::with_options(&options).map_err(PyValueError::new_err)?;
                $body
            }
            other => Err(game_error(other)),
        }
    }};
}

/// What `solve` answers: result, moves (text), nodes, seconds, why, largest table size.
type Answer = (String, Vec<String>, u64, f64, String, usize);

#[allow(clippy::too_many_arguments)]
fn solve_with<G>(
    py: Python<'_>,
    rules: G,
    root: PyParts,
    history: Vec<PyParts>,
    budget: Budget,
    dominance: bool,
    table: bool,
) -> PyResult<Answer>
where
    G: Game + Send + Sync,
    G::Node: Send + Sync,
{
    let root = rules.node(&parts(root)).map_err(PyValueError::new_err)?;
    let history = history
        .into_iter()
        .map(|state| rules.node(&parts(state)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PyValueError::new_err)?;
    let mut pending: Option<PyErr> = None;
    let found = py.allow_threads(|| {
        let mut interrupt = || {
            Python::with_gil(|py| match py.check_signals() {
                Ok(()) => false,
                Err(error) => {
                    pending = Some(error);
                    true
                }
            })
        };
        catch_unwind(AssertUnwindSafe(|| {
            solver_search(&rules, &root, budget, &history, dominance, table, &mut interrupt)
        }))
    });
    if let Some(error) = pending {
        return Err(error);
    }
    let found = found.map_err(|_| PyRuntimeError::new_err("internal error in the search core"))?;
    debug_assert!(found.why != INTERRUPTED);
    Ok((
        found.verdict.name().to_string(),
        found.moves.iter().map(ToString::to_string).collect(),
        found.nodes,
        found.seconds,
        found.why.to_string(),
        found.states,
    ))
}

/// Solve a position of `game` (docs/solving.md): the search runs without the GIL, and Ctrl-C
/// stops it with KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (game, options, root, history, seconds, nodes, max_states, cpu_time, dominance=true, table=true))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    game: &str,
    options: Vec<(String, String)>,
    root: PyParts,
    history: Vec<PyParts>,
    seconds: Option<f64>,
    nodes: Option<u64>,
    max_states: usize,
    cpu_time: bool,
    dominance: bool,
    table: bool,
) -> PyResult<Answer> {
    let budget = Budget { seconds, nodes, max_states, cpu_time };
    guarded(|| {
        with_game!(game, options, |rules| solve_with(
            py, rules, root, history, budget, dominance, table
        ))
    })
}

/// The engine moves the core lists for a position (the engine's `candidate_moves`), as text.
#[pyfunction]
fn candidate_moves(
    game: &str,
    options: Vec<(String, String)>,
    state: PyParts,
) -> PyResult<Vec<String>> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = rules.node(&parts(state)).map_err(PyValueError::new_err)?;
            Ok(rules.candidates(&node).iter().map(ToString::to_string).collect())
        })
    })
}

/// The state after candidate move number `index` and the forced moves (text) that followed.
#[pyfunction]
fn apply(
    game: &str,
    options: Vec<(String, String)>,
    state: PyParts,
    index: usize,
) -> PyResult<(PyParts, Vec<String>)> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = rules.node(&parts(state)).map_err(PyValueError::new_err)?;
            let moves = rules.candidates(&node);
            let mv = moves.get(index).ok_or_else(|| {
                PyValueError::new_err(format!("there are {} candidate moves", moves.len()))
            })?;
            let (after, forced) = rules.play(&node, mv).map_err(PyValueError::new_err)?;
            Ok((py_parts(rules.parts(&after)), forced.iter().map(ToString::to_string).collect()))
        })
    })
}

/// The solver's steps from a position: each step's engine moves (text) and the state it leads
/// to, in the adapter's order (for the tests that replay every step in the engine).
#[pyfunction]
fn steps(
    game: &str,
    options: Vec<(String, String)>,
    state: PyParts,
    dominance: bool,
) -> PyResult<Vec<(Vec<String>, PyParts)>> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = rules.node(&parts(state)).map_err(PyValueError::new_err)?;
            let mut children = Vec::new();
            rules.steps(&node, dominance, &mut children);
            Ok(children
                .iter()
                .map(|(step, child)| {
                    let moves = rules.moves(&node, step).iter().map(ToString::to_string).collect();
                    (moves, py_parts(rules.parts(child)))
                })
                .collect())
        })
    })
}

/// The fingerprints of a position's canonical key, path key and layout key, and whether the
/// position is won (for the tests of the keys).
#[pyfunction]
fn keys(
    game: &str,
    options: Vec<(String, String)>,
    state: PyParts,
) -> PyResult<(u128, u128, bool)> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = rules.node(&parts(state)).map_err(PyValueError::new_err)?;
            Ok((rules.canonical(&node), rules.path_key(&node), rules.won(&node)))
        })
    })
}

/// Names of the games the core solves.
#[pyfunction]
fn games() -> Vec<&'static str> {
    GAMES.to_vec()
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(candidate_moves, module)?)?;
    module.add_function(wrap_pyfunction!(apply, module)?)?;
    module.add_function(wrap_pyfunction!(steps, module)?)?;
    module.add_function(wrap_pyfunction!(keys, module)?)?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    crate::python_double_solitaire::register(module)?;
    module.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
