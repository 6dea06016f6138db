//! Engine moves as the core names them: the notation of docs/notation.md, pile names and all.

use std::fmt;

/// The value of an action's argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    Int(i64),
    Text(String),
    Bool(bool),
}

/// A move of the engine: `count` cards from one pile to another, or an action.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Cards { from: &'static str, to: &'static str, count: u32 },
    Act { name: &'static str, args: Vec<(&'static str, Arg)> },
}

impl Move {
    pub fn cards(from: &'static str, to: &'static str, count: u32) -> Self {
        Move::Cards { from, to, count }
    }
    pub fn act(name: &'static str) -> Self {
        Move::Act { name, args: Vec::new() }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Cards { from, to, count } if *count == 1 => write!(f, "{from}-{to}"),
            Move::Cards { from, to, count } => write!(f, "{from}-{to}:{count}"),
            Move::Act { name, args } if args.is_empty() => write!(f, "{name}"),
            Move::Act { name, args } => {
                let inner: Vec<String> = args
                    .iter()
                    .map(|(key, value)| match value {
                        Arg::Int(number) => format!("{key}={number}"),
                        Arg::Text(text) => format!("{key}={text}"),
                        Arg::Bool(flag) => format!("{key}={flag}"),
                    })
                    .collect();
                write!(f, "{name}({})", inner.join(","))
            }
        }
    }
}

/// A position as piles in the game's pile order (bottom to top), face-down counts, and the
/// game's other numbers (passes used, ...): how states cross between Python and the core.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Parts {
    pub piles: Vec<Vec<u8>>,
    pub down: Vec<u32>,
    pub extra: Vec<i64>,
}

impl Parts {
    /// Whether the piles hold each card numbered 0 to `cards` - 1 exactly once (every game's
    /// position must, before anything else is read from it).
    pub fn holds_each_card_once(&self, cards: usize) -> bool {
        let mut seen = vec![false; cards];
        for &card in self.piles.iter().flatten() {
            match seen.get_mut(card as usize) {
                Some(here) if !*here => *here = true,
                _ => return false,
            }
        }
        seen.iter().all(|&here| here)
    }
}

/// The text of a card (`Qs`), as the engine's forced `flip` moves name it.
pub fn card_text(card: u8) -> String {
    let face = card % 52;
    let rank = b"A23456789TJQK"[(face % 13) as usize] as char;
    let suit = b"cdhs"[(face / 13) as usize] as char;
    format!("{rank}{suit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_holds_each_card_once() {
        let parts = |piles: Vec<Vec<u8>>| Parts { piles, down: vec![0; 2], extra: Vec::new() };
        assert!(parts(vec![vec![2, 0], vec![1, 3]]).holds_each_card_once(4));
        // A card twice, a card missing, a card beyond the pack.
        assert!(!parts(vec![vec![2, 0], vec![1, 2]]).holds_each_card_once(4));
        assert!(!parts(vec![vec![2, 0], vec![1]]).holds_each_card_once(4));
        assert!(!parts(vec![vec![2, 0], vec![1, 4]]).holds_each_card_once(4));
        assert!(!parts(vec![vec![2, 0, 3], vec![1, 4]]).holds_each_card_once(4));
    }
}
