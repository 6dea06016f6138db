//! The Python bindings of Double Solitaire's search (`patience._core.ds_*`): states cross as
//! `(piles, down, extra)` in the engine's pile order (extra: turn, stop offered, the two
//! redeals, passes in succession), moves as the engine's action numbers, options as
//! `(passes, auto_stop)`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::double_solitaire::{ismcts, Params, Rng, Rules, Sampler, State};
use crate::python::{guarded, parts, PyPartsIn};

type PyParts = (Vec<Vec<u8>>, Vec<u32>, Vec<i64>);
/// The options as Python passes them in, wide enough that a number out of range is refused with
/// a message (as [`PyPartsIn`] for states).
type PyOptions = (i64, bool);

fn rules(options: PyOptions) -> PyResult<Rules> {
    match u8::try_from(options.0) {
        Ok(passes @ 1..=3) => Ok(Rules { passes, auto_stop: options.1 }),
        _ => Err(PyValueError::new_err(format!("passes must be 1, 2 or 3, not {}", options.0))),
    }
}

/// The core's state of parts from Python; a `ValueError` saying what is wrong with them.
fn state(state: PyPartsIn) -> PyResult<State> {
    parts(state)
        .and_then(|parts| State::new(&parts.piles, &parts.down, &parts.extra))
        .map_err(PyValueError::new_err)
}

/// The legal actions, sorted.
#[pyfunction]
fn ds_legal_actions(options: PyOptions, parts: PyPartsIn) -> PyResult<Vec<u32>> {
    guarded(|| {
        let mut moves = Vec::new();
        rules(options)?.legal_actions(&state(parts)?, &mut moves);
        Ok(moves)
    })
}

/// The state after the legal `action`.
#[pyfunction]
fn ds_apply(options: PyOptions, parts: PyPartsIn, action: u32) -> PyResult<PyParts> {
    guarded(|| {
        let rules = rules(options)?;
        let mut world = state(parts)?;
        let mut moves = Vec::new();
        rules.legal_actions(&world, &mut moves);
        if !moves.contains(&action) {
            return Err(PyValueError::new_err(format!("action {action} is not legal")));
        }
        rules.apply(&mut world, action);
        Ok(world.parts())
    })
}

/// The playout policy's choices, the margin of seat 0 if the game is over, each seat's
/// evaluation and search reward, and the search's cost of each legal action.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn ds_inspect(
    options: PyOptions,
    parts: PyPartsIn,
) -> PyResult<(Vec<u32>, Option<i32>, [f64; 2], [f64; 2], Vec<f64>)> {
    guarded(|| {
        let rules = rules(options)?;
        let world = state(parts)?;
        let mut choices = Vec::new();
        rules.rollout_choices(&world, &mut choices);
        let mut moves = Vec::new();
        rules.legal_actions(&world, &mut moves);
        let costs = moves.iter().map(|&action| rules.move_cost(&world, action)).collect();
        Ok((
            choices,
            rules.finished(&world),
            [rules.evaluate(&world, 0), rules.evaluate(&world, 1)],
            [rules.search_reward(&world, 0), rules.search_reward(&world, 1)],
            costs,
        ))
    })
}

/// A world like `parts` with both seats' face-down cards dealt anew (seeded).
#[pyfunction]
fn ds_sample(parts: PyPartsIn, seed: u64) -> PyResult<PyParts> {
    guarded(|| {
        let template = state(parts)?;
        Ok(Sampler::new(&template).sample(&template, &mut Rng::new(seed)).parts())
    })
}

/// ISMCTS for `seat` from `parts` (a world consistent with its view): the root's moves as
/// (action, visits, summed reward, bias) and the iterations run. `costs` weighs the game's move
/// costs (1: as charged, 0: none); `root_exploration` is UCB1's constant at the root alone (None:
/// `exploration`).
#[pyfunction]
#[pyo3(signature = (options, parts, seat, iterations, seconds, exploration, bias, playout_turns, seed, costs = 1.0, root_exploration = None))]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::type_complexity)]
fn ds_ismcts(
    py: Python<'_>,
    options: PyOptions,
    parts: PyPartsIn,
    seat: i64,
    iterations: usize,
    seconds: Option<f64>,
    exploration: f64,
    bias: f64,
    playout_turns: u32,
    seed: u64,
    costs: f64,
    root_exploration: Option<f64>,
) -> PyResult<(Vec<(u32, u32, f64, f64)>, usize)> {
    let rules = rules(options)?;
    let template = state(parts)?;
    let to_move = template.current_player();
    if seat != to_move as i64 {
        return Err(PyValueError::new_err(format!(
            "the searching seat must be the one to move ({to_move}), not {seat}"
        )));
    }
    if costs.is_nan() || costs < 0.0 {
        return Err(PyValueError::new_err("costs must be 0 or more"));
    }
    let root_exploration = root_exploration.unwrap_or(exploration);
    if root_exploration.is_nan() || root_exploration < 0.0 {
        return Err(PyValueError::new_err("root_exploration must be 0 or more"));
    }
    let params = Params {
        iterations: iterations.max(1),
        seconds,
        exploration,
        root_exploration,
        bias,
        playout_turns,
        costs,
    };
    // The search holds no Python object: other threads run meanwhile.
    py.allow_threads(|| {
        guarded(|| Ok(ismcts(&rules, &template, to_move, &params, &mut Rng::new(seed))))
    })
}

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(ds_legal_actions, module)?)?;
    module.add_function(wrap_pyfunction!(ds_apply, module)?)?;
    module.add_function(wrap_pyfunction!(ds_inspect, module)?)?;
    module.add_function(wrap_pyfunction!(ds_sample, module)?)?;
    module.add_function(wrap_pyfunction!(ds_ismcts, module)?)?;
    Ok(())
}
