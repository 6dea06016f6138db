//! What every game of the core offers beside its search adapter: the engine's states and moves,
//! so that tests can prove the core plays the same game as the Python rules.

use crate::moves::{Move, Parts};
use crate::options::Options;
use crate::search::Adapter;

pub trait Game: Adapter + Sized {
    /// The game's name as the engine registers it.
    const NAME: &'static str;
    /// The rules with their options bound; an error names a wrong option.
    fn with_options(options: &Options) -> Result<Self, String>;
    /// A node from the engine's state parts; an error for a position the core cannot hold.
    fn node(&self, parts: &Parts) -> Result<Self::Node, String>;
    /// The engine's state parts of a node.
    fn parts(&self, node: &Self::Node) -> Parts;
    /// Every move the engine's `candidate_moves` lists (before the repetition rule).
    fn candidates(&self, node: &Self::Node) -> Vec<Move>;
    /// The node after a candidate move and the forced moves that followed it.
    fn play(&self, node: &Self::Node, mv: &Move) -> Result<(Self::Node, Vec<Move>), String>;
}

/// Implements [`Game`] for a game `$ty` named `$name` whose inherent methods already have the
/// trait's shapes: `new(&Options)`, `from_parts`, `to_parts`, `candidate_moves` and `apply`.
macro_rules! game_from_inherent {
    ($ty:ty, $name:literal) => {
        impl $crate::game::Game for $ty {
            const NAME: &'static str = $name;
            fn with_options(options: &$crate::options::Options) -> Result<Self, String> {
                Self::new(options)
            }
            fn node(&self, parts: &$crate::moves::Parts) -> Result<Self::Node, String> {
                self.from_parts(parts)
            }
            fn parts(&self, node: &Self::Node) -> $crate::moves::Parts {
                self.to_parts(node)
            }
            fn candidates(&self, node: &Self::Node) -> Vec<$crate::moves::Move> {
                self.candidate_moves(node)
            }
            fn play(
                &self,
                node: &Self::Node,
                mv: &$crate::moves::Move,
            ) -> Result<(Self::Node, Vec<$crate::moves::Move>), String> {
                self.apply(node, mv)
            }
        }
    };
}
pub(crate) use game_from_inherent;
