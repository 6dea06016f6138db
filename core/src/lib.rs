//! The compiled search core of patience (`patience._core`): compact states, move generation and
//! the solvers' search for the one-player games (docs/solving.md, "The compiled core"). The rules
//! stay in Python; this crate plays the same game, as the differential tests prove.

pub mod accordion;
pub mod canfield;
pub mod clock;
pub mod double_solitaire;
pub mod game;
pub mod key;
pub mod klondike;
pub mod leonis;
pub mod leopard;
pub mod moves;
pub mod napoleon;
pub mod options;
pub mod search;
#[cfg(test)]
mod search_cases;
pub mod spider;
pub mod table;
#[cfg(test)]
mod testing;

#[cfg(feature = "python")]
mod python;
#[cfg(feature = "python")]
mod python_double_solitaire;
