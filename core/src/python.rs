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
use crate::leopard;
use crate::moves::Parts;
use crate::napoleon::Napoleon;
use crate::options::Options;
use crate::search::{solver_search, Adapter, Budget, INTERRUPTED};
use crate::spider::Spider;

/// A state as the core hands it to Python: piles (card numbers, bottom first), face-down
/// counts, extras.
type PyParts = (Vec<Vec<u8>>, Vec<u32>, Vec<i64>);

/// A state as Python passes it in: the same, in numbers wide enough that one out of range is
/// refused by [`parts`] with a message, not by the conversion.
pub(crate) type PyPartsIn = (Vec<Vec<i64>>, Vec<i64>, Vec<i64>);

/// The games the core knows, by the engine's names.
const GAMES: &[&str] = &[
    Klondike::NAME,
    Canfield::NAME,
    LeonisOwn::NAME,
    Accordion::NAME,
    Napoleon::NAME,
    Spider::NAME,
];

pub(crate) fn parts(state: PyPartsIn) -> Result<Parts, String> {
    let card =
        |number: i64| u8::try_from(number).map_err(|_| format!("{number} is no card number"));
    let piles = state
        .0
        .into_iter()
        .map(|pile| pile.into_iter().map(card).collect::<Result<Vec<u8>, String>>())
        .collect::<Result<Vec<_>, _>>()?;
    let count = |number: i64| {
        u32::try_from(number).map_err(|_| format!("{number} is no count of face-down cards"))
    };
    let down = state.1.into_iter().map(count).collect::<Result<Vec<u32>, String>>()?;
    Ok(Parts { piles, down, extra: state.2 })
}

/// The game's node of a state from Python; a `ValueError` saying what is wrong with it.
fn node_of<G: Game>(rules: &G, state: PyPartsIn) -> PyResult<G::Node> {
    parts(state).and_then(|state| rules.node(&state)).map_err(PyValueError::new_err)
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
    root: PyPartsIn,
    history: Vec<PyPartsIn>,
    budget: Budget,
    dominance: bool,
    table: bool,
) -> PyResult<Answer>
where
    // (Moved into the search's thread, not shared: an adapter may keep memos in cells.)
    G: Game + Send,
    G::Node: Send,
{
    let mut rules = rules;
    rules.set_search(dominance, !history.is_empty());
    let root = node_of(&rules, root)?;
    let history =
        history.into_iter().map(|state| node_of(&rules, state)).collect::<PyResult<Vec<_>>>()?;
    let (found, pending) = py.allow_threads(move || {
        let mut pending: Option<PyErr> = None;
        let mut interrupt = || {
            Python::with_gil(|py| match py.check_signals() {
                Ok(()) => false,
                Err(error) => {
                    pending = Some(error);
                    true
                }
            })
        };
        let found = catch_unwind(AssertUnwindSafe(|| {
            solver_search(&rules, &root, budget, &history, dominance, table, &mut interrupt)
        }));
        (found, pending)
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
    root: PyPartsIn,
    history: Vec<PyPartsIn>,
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
    state: PyPartsIn,
) -> PyResult<Vec<String>> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = node_of(&rules, state)?;
            Ok(rules.candidates(&node).iter().map(ToString::to_string).collect())
        })
    })
}

/// The state after candidate move number `index` and the forced moves (text) that followed.
#[pyfunction]
fn apply(
    game: &str,
    options: Vec<(String, String)>,
    state: PyPartsIn,
    index: usize,
) -> PyResult<(PyParts, Vec<String>)> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = node_of(&rules, state)?;
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
    state: PyPartsIn,
    dominance: bool,
) -> PyResult<Vec<(Vec<String>, PyParts)>> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = node_of(&rules, state)?;
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
    state: PyPartsIn,
) -> PyResult<(u128, u128, bool)> {
    guarded(|| {
        with_game!(game, options, |rules| {
            let node = node_of(&rules, state)?;
            Ok((rules.canonical(&node), rules.path_key(&node), rules.won(&node)))
        })
    })
}

/// A Leopard state as Python passes it: the stock (faces, bottom first), the hands, the squares
/// (per side nine cells of layers `face | DOWN | seat << SEAT_SHIFT`, bottom first), the
/// discards, and the numbers dealer, turn, phase, asker (-1: none), deal index, deals scored,
/// then the totals by side; every number wide, so that one out of range is refused by
/// [`leopard_state`] with a message.
type LeopardPartsIn = (Vec<i64>, Vec<Vec<i64>>, Vec<Vec<Vec<i64>>>, Vec<i64>, Vec<i64>);
/// The same parts as the core gives them back (cards as numbers, not bytes, in Python).
type LeopardOut = (Vec<u16>, Vec<Vec<u16>>, Vec<Vec<Vec<u16>>>, Vec<u16>, Vec<i64>);
/// What a Leopard search answers: the root's edges (action, visits, summed reward, bias), the
/// iterations run and the nodes made.
type LeopardSearched = (Vec<(u16, u32, f64, f64)>, u64, usize);
/// Leopard's options: players, deals (None: off), target (None: off), in numbers wide enough
/// that one out of range is refused with a message, not by the conversion.
type LeopardOptions = (i64, Option<i64>, Option<i64>);

fn leopard_rules(options: LeopardOptions) -> PyResult<leopard::Rules> {
    let (players, deals, target) = options;
    let players = usize::try_from(players)
        .map_err(|_| format!("leopard has 2, 3 or 4 players, not {players}"));
    let deals = deals
        .map(|deals| {
            u32::try_from(deals).map_err(|_| format!("leopard: deals={deals} is no count"))
        })
        .transpose();
    let target = target
        .map(|target| {
            i32::try_from(target).map_err(|_| format!("leopard: target={target} is out of range"))
        })
        .transpose();
    (|| leopard::Rules::new(players?, deals?, target?))().map_err(PyValueError::new_err)
}

/// A Leopard state from Python; a `ValueError` saying what is wrong with it (a number out of
/// range is refused by name, as the other games' [`parts`] refuse theirs).
fn leopard_state(rules: &leopard::Rules, state: LeopardPartsIn) -> PyResult<leopard::State> {
    let (stock, hands, squares, discards, numbers) = state;
    let faces = |cards: Vec<i64>| {
        cards
            .into_iter()
            .map(|n| u8::try_from(n).map_err(|_| format!("leopard: card {n} is not a face 0..51")))
            .collect::<Result<Vec<u8>, String>>()
    };
    let layers = |cell: Vec<i64>| {
        cell.into_iter()
            .map(|n| u16::try_from(n).map_err(|_| format!("leopard: layer {n} is no layer")))
            .collect::<Result<Vec<u16>, String>>()
    };
    let all_layers = |squares: Vec<Vec<Vec<i64>>>| {
        squares
            .into_iter()
            .map(|square| square.into_iter().map(layers).collect::<Result<Vec<_>, _>>())
            .collect::<Result<Vec<_>, _>>()
    };
    (|| {
        let hands = hands.into_iter().map(faces).collect::<Result<Vec<_>, _>>()?;
        rules.state(&faces(stock)?, &hands, &all_layers(squares)?, &faces(discards)?, &numbers)
    })()
    .map_err(PyValueError::new_err)
}

/// `seat` as an index, if the game has that seat.
fn leopard_seat(rules: &leopard::Rules, seat: i64) -> PyResult<usize> {
    usize::try_from(seat)
        .ok()
        .filter(|&index| index < rules.players)
        .ok_or_else(|| PyValueError::new_err(format!("seat {seat} does not exist")))
}

fn leopard_parts(rules: &leopard::Rules, state: &leopard::State) -> LeopardOut {
    let cards = |faces: &[u8]| faces.iter().map(|&f| u16::from(f)).collect::<Vec<_>>();
    let squares = (0..rules.sides)
        .map(|side| (0..9).map(|index| state.cell(side * 9 + index)).collect())
        .collect();
    (
        cards(state.stock()),
        (0..rules.players).map(|seat| cards(state.hand(seat))).collect(),
        squares,
        cards(state.discards()),
        rules.numbers(state),
    )
}

/// Leopard's legal actions in a state (in the order of the engine's legal moves).
#[pyfunction]
fn leopard_actions(options: LeopardOptions, state: LeopardPartsIn) -> PyResult<Vec<u16>> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let state = leopard_state(&rules, state)?;
        let mut out = Vec::new();
        rules.actions(&state, &mut out);
        Ok(out)
    })
}

/// The Leopard state after a legal `action`.
#[pyfunction]
fn leopard_apply(
    options: LeopardOptions,
    state: LeopardPartsIn,
    action: u16,
) -> PyResult<LeopardOut> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let mut state = leopard_state(&rules, state)?;
        let mut legal = Vec::new();
        rules.actions(&state, &mut legal);
        if !legal.contains(&action) {
            return Err(PyValueError::new_err(format!("action {action} is not legal here")));
        }
        rules.apply(&mut state, action);
        Ok(leopard_parts(&rules, &state))
    })
}

/// The playout policy's choices in a Leopard state (one of them is taken at random).
#[pyfunction]
fn leopard_rollout_choices(options: LeopardOptions, state: LeopardPartsIn) -> PyResult<Vec<u16>> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let state = leopard_state(&rules, state)?;
        let mut out = Vec::new();
        if !rules.is_terminal(&state) {
            rules.rollout_choices(&state, &mut out);
        }
        Ok(out)
    })
}

/// The greedy playout policy's choices in a Leopard state (one of them is taken at random).
#[pyfunction]
fn leopard_playout_choices(options: LeopardOptions, state: LeopardPartsIn) -> PyResult<Vec<u16>> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let state = leopard_state(&rules, state)?;
        let (mut out, mut legal) = (Vec::new(), Vec::new());
        if !rules.is_terminal(&state) {
            rules.playout_choices(&state, &mut out, &mut legal);
        }
        Ok(out)
    })
}

/// Each seat's search reward in a Leopard state.
#[pyfunction]
fn leopard_rewards(options: LeopardOptions, state: LeopardPartsIn) -> PyResult<Vec<f64>> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let state = leopard_state(&rules, state)?;
        let mut out = [0.0; 4];
        rules.rewards(&state, &mut out);
        Ok(out[..rules.players].to_vec())
    })
}

/// The hash of what `observer` knows of a Leopard deal (the search's node key).
#[pyfunction]
fn leopard_key(options: LeopardOptions, state: LeopardPartsIn, observer: i64) -> PyResult<u64> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let state = leopard_state(&rules, state)?;
        let observer = leopard_seat(&rules, observer)?;
        Ok(rules.information_key(&state, observer))
    })
}

/// A world dealt again from what `seat` knows of a Leopard state: the cards it does not see
/// shuffled among the places it does not see.
#[pyfunction]
fn leopard_deal(
    options: LeopardOptions,
    state: LeopardPartsIn,
    seat: i64,
    seed: u64,
) -> PyResult<LeopardOut> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let state = leopard_state(&rules, state)?;
        let seat = leopard_seat(&rules, seat)?;
        let unseen = leopard::Unseen::new(&rules, &state, seat);
        let mut pool = Vec::new();
        let world = unseen.deal(&rules, &state, &mut leopard::Rng::new(seed), &mut pool);
        Ok(leopard_parts(&rules, &world))
    })
}

/// The root's edges after an ISMCTS search by `seat` from a Leopard world dealt from its view:
/// (action, visits, summed reward, bias) per move tried, the iterations run, the nodes made.
/// The search runs without the GIL.
#[pyfunction]
#[pyo3(signature = (options, state, seat, iterations, seconds, exploration, bias, rollout_depth, seed, greedy_playouts=false))]
#[allow(clippy::too_many_arguments)]
fn leopard_ismcts(
    py: Python<'_>,
    options: LeopardOptions,
    state: LeopardPartsIn,
    seat: i64,
    iterations: u64,
    seconds: Option<f64>,
    exploration: f64,
    bias: f64,
    rollout_depth: Option<u32>,
    seed: u64,
    greedy_playouts: bool,
) -> PyResult<LeopardSearched> {
    guarded(|| {
        let rules = leopard_rules(options)?;
        let state = leopard_state(&rules, state)?;
        let seat = leopard_seat(&rules, seat)?;
        if state.turn as usize != seat || rules.is_terminal(&state) {
            return Err(PyValueError::new_err(format!("it is not seat {seat}'s turn")));
        }
        let params = leopard::Params {
            iterations: iterations.max(1),
            seconds,
            exploration,
            bias,
            rollout_depth,
            greedy_playouts,
        };
        let found = py.allow_threads(|| {
            catch_unwind(AssertUnwindSafe(|| {
                leopard::ismcts(&rules, &state, seat, &params, &mut leopard::Rng::new(seed))
            }))
        });
        let found =
            found.map_err(|_| PyRuntimeError::new_err("internal error in the search core"))?;
        Ok((found.edges, found.iterations, found.nodes))
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
    module.add_function(wrap_pyfunction!(leopard_actions, module)?)?;
    module.add_function(wrap_pyfunction!(leopard_apply, module)?)?;
    module.add_function(wrap_pyfunction!(leopard_rollout_choices, module)?)?;
    module.add_function(wrap_pyfunction!(leopard_playout_choices, module)?)?;
    module.add_function(wrap_pyfunction!(leopard_rewards, module)?)?;
    module.add_function(wrap_pyfunction!(leopard_key, module)?)?;
    module.add_function(wrap_pyfunction!(leopard_deal, module)?)?;
    module.add_function(wrap_pyfunction!(leopard_ismcts, module)?)?;
    crate::python_double_solitaire::register(module)?;
    module.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
