//! Accordion in the core: a compact state, the engine's moves (for the differential tests) and
//! the solver's adapter, rule for rule as `patience/solve/accordion.py` (docs/solving.md,
//! "Accordion").
//!
//! A node keeps the whole row: the piles on the table, then the cards still in the stock at its
//! right end as piles of one card each, in the order they will be dealt (`dealt` piles are
//! really on the table). Each pile's top card and size are kept beside the cards (pile by pile,
//! bottom first), so that a step reads the tops alone and the engine's state can be given back.

use crate::game::game_from_inherent;
use crate::key::{fingerprint, Key};
use crate::moves::{Move, Parts};
use crate::options::Options;
use crate::search::{nodes_kept_whole, Adapter, Child};

/// The row's pile names, left to right (`Accordion.pile_names` is `stock` and these).
pub const ROW: [&str; 52] = [
    "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", "t13", "t14", "t15",
    "t16", "t17", "t18", "t19", "t20", "t21", "t22", "t23", "t24", "t25", "t26", "t27", "t28",
    "t29", "t30", "t31", "t32", "t33", "t34", "t35", "t36", "t37", "t38", "t39", "t40", "t41",
    "t42", "t43", "t44", "t45", "t46", "t47", "t48", "t49", "t50", "t51", "t52",
];
/// How many piles the engine's state lists: the stock and the row.
const PILES: usize = 53;

/// True if two top cards match in rank or in suit, so one pile may go on the other.
#[inline]
fn matches(card: u8, onto: u8) -> bool {
    card % 13 == onto % 13 || card / 13 == onto / 13
}

/// Accordion's options (RULES.md): `dealing` is `one` or `all`. It only changes the deal (and
/// which positions the engine accepts); the moves are the same, so the search is too.
#[derive(Clone, Debug)]
pub struct Accordion {
    pub deal_all: bool,
}

impl Accordion {
    pub fn new(options: &Options) -> Result<Self, String> {
        match options.text("dealing", "one") {
            "one" => Ok(Accordion { deal_all: false }),
            "all" => Ok(Accordion { deal_all: true }),
            other => Err(format!("accordion: dealing is one or all, not {other:?}")),
        }
    }
}

/// An Accordion state as the core holds it (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The whole row's cards, pile by pile from the left, each pile bottom first.
    cards: [u8; 52],
    /// Each pile's top card.
    tops: [u8; 52],
    /// Each pile's number of cards.
    sizes: [u8; 52],
    /// Piles in the whole row (on the table and in the stock).
    len: u8,
    /// How many piles, from the left, are on the table; the rest are still in the stock.
    dealt: u8,
    /// The leftmost pile that may move next (docs/solving.md, Accordion, rule 3).
    frontier: u8,
    /// The fingerprint of the tops (the table's key), made when the node is.
    canon: Key,
}

/// A step: the moving pile's index and its target's index (0-based) in the whole row.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    source: u8,
    target: u8,
}

impl Node {
    /// The engine's repetition key with `dealt` piles on the table: the whole row's cards, the
    /// piles' sizes and how many are dealt say every pile of the engine's state.
    fn key_with(&self, dealt: u8) -> Key {
        let len = self.len as usize;
        let mut bytes = [0u8; 52 + 52 + 1];
        bytes[..52].copy_from_slice(&self.cards);
        bytes[52..52 + len].copy_from_slice(&self.sizes[..len]);
        bytes[52 + len] = dealt;
        fingerprint(&bytes[..53 + len])
    }

    /// Where pile `index` starts in `cards`.
    fn start(&self, index: usize) -> usize {
        self.sizes[..index].iter().map(|&size| size as usize).sum()
    }

    /// The cards of pile `index`, bottom first.
    fn pile(&self, index: usize) -> &[u8] {
        let start = self.start(index);
        &self.cards[start..start + self.sizes[index] as usize]
    }

    fn rehash(&mut self) {
        self.canon = fingerprint(&self.tops[..self.len as usize]);
    }

    /// Pile `source` onto pile `target` (left of it); the gap closes and the key is made
    /// again. `dealt` and `frontier` are the caller's.
    fn put(&mut self, source: usize, target: usize) {
        let len = self.len as usize;
        let end_target = self.start(target + 1);
        let start_source = end_target
            + self.sizes[target + 1..source].iter().map(|&size| size as usize).sum::<usize>();
        let size = self.sizes[source];
        // The moving pile's cards go right after the target's; the piles between shift right.
        self.cards[end_target..start_source + size as usize].rotate_right(size as usize);
        self.sizes[target] += size;
        self.tops[target] = self.tops[source];
        self.sizes.copy_within(source + 1..len, source);
        self.tops.copy_within(source + 1..len, source);
        self.len -= 1;
        self.sizes[len - 1] = 0;
        self.tops[len - 1] = 0;
        self.rehash();
    }
}

impl Adapter for Accordion {
    type Node = Node;
    type Step = Step;
    nodes_kept_whole!(Node);

    fn canonical(&self, node: &Node) -> Key {
        // Winnability depends on the top cards alone: how many of them are dealt does not
        // matter, since a game may deal whenever it likes (rules 1 and 2).
        node.canon
    }

    fn worse(&self, node: &Node) -> u32 {
        node.frontier as u32
    }

    fn path_key(&self, node: &Node) -> Key {
        // The Python adapter's key is a count of engine moves (no position of Accordion comes
        // back); the core's is the engine's key itself, so that it can be tested against it.
        node.key_with(node.dealt)
    }

    fn layout_key(&self, node: &Node) -> Key {
        // The states inside a step (after its deals) have the node's tops: a state on the path
        // equal to one of them has the node's canonical key too.
        node.canon
    }

    fn inner_keys(&self, node: &Node, step: &Step, out: &mut Vec<Key>) {
        // The positions after each deal the step makes before its move.
        for dealt in node.dealt + 1..=step.source + 1 {
            out.push(node.key_with(dealt));
        }
    }

    fn won(&self, node: &Node) -> bool {
        node.len == 1
    }

    fn moves(&self, node: &Node, step: &Step) -> Vec<Move> {
        let deals = (step.source + 1).saturating_sub(node.dealt) as usize;
        let mut moves = Vec::with_capacity(deals + 1);
        moves.extend((0..deals).map(|_| Move::act("deal")));
        moves.push(Move::cards(
            ROW[step.source as usize],
            ROW[step.target as usize],
            node.sizes[step.source as usize] as u32,
        ));
        moves
    }

    fn steps(&self, node: &Node, dominance: bool, out: &mut Vec<Child<Self>>) {
        // Left to right, for each pile the neighbour before the third to its left (the order
        // of promise); with dominance only piles from the frontier on (rule 3).
        let start = if dominance { node.frontier.max(1) } else { 1 } as usize;
        for source in start..node.len as usize {
            let card = node.tops[source];
            for reach in [1, 3] {
                if source >= reach && matches(card, node.tops[source - reach]) {
                    let target = source - reach;
                    let step = Step { source: source as u8, target: target as u8 };
                    // Made in its place in `out`: a node is not small, copies cost.
                    out.push((step, node.clone()));
                    let child = &mut out.last_mut().expect("a child").1;
                    child.put(source, target);
                    // Dealing up to the moving pile, then one pile fewer on the table.
                    child.dealt = node.dealt.max(source as u8 + 1) - 1;
                    child.frontier = target as u8;
                }
            }
        }
    }
}

// -- the engine's rules, for the differential tests ----------------------------------------------

impl Accordion {
    /// The engine's state parts of a node: `stock` (bottom first: the next card to deal last)
    /// and the row.
    pub fn to_parts(&self, node: &Node) -> Parts {
        let dealt = node.dealt as usize;
        let mut piles = vec![Vec::new(); PILES];
        for (index, pile) in piles[1..=dealt].iter_mut().enumerate() {
            *pile = node.pile(index).to_vec();
        }
        piles[0] = node.tops[dealt..node.len as usize].iter().rev().copied().collect();
        let mut down = vec![0u32; PILES];
        down[0] = piles[0].len() as u32;
        Parts { piles, down, extra: Vec::new() }
    }

    /// A node from the engine's state parts; an error for a position the core cannot hold.
    pub fn from_parts(&self, parts: &Parts) -> Result<Node, String> {
        if parts.piles.len() != PILES || parts.down.len() != PILES {
            return Err(format!("an accordion position has the {PILES} piles stock, t1-t52"));
        }
        if !parts.holds_each_card_once(52) {
            return Err("an accordion position holds each of the 52 cards once".into());
        }
        let row = &parts.piles[1..];
        let length = row.iter().take_while(|pile| !pile.is_empty()).count();
        if let Some(later) = row[length..].iter().position(|pile| !pile.is_empty()) {
            return Err(format!(
                "gaps in the row close at once: {} is empty but {} is not",
                ROW[length],
                ROW[length + later]
            ));
        }
        let stock = &parts.piles[0];
        if parts.down[0] as usize != stock.len() || parts.down[1..].iter().any(|&down| down != 0) {
            return Err("the stock lies face down and the row's cards face up".into());
        }
        if self.deal_all && !stock.is_empty() {
            return Err(
                "with dealing=all every card is dealt at the start: the stock is empty".into()
            );
        }
        let mut node = Node {
            cards: [0; 52],
            tops: [0; 52],
            sizes: [0; 52],
            len: (length + stock.len()) as u8,
            dealt: length as u8,
            frontier: 0,
            canon: 0,
        };
        let mut at = 0;
        for (index, pile) in row[..length].iter().enumerate() {
            node.cards[at..at + pile.len()].copy_from_slice(pile);
            at += pile.len();
            node.tops[index] = *pile.last().expect("a card");
            node.sizes[index] = pile.len() as u8;
        }
        // The stock lists its cards bottom first: the next card to deal is the last one.
        for (offset, &card) in stock.iter().rev().enumerate() {
            node.cards[at + offset] = card;
            node.tops[length + offset] = card;
            node.sizes[length + offset] = 1;
        }
        node.rehash();
        Ok(node)
    }

    /// Every move the engine's `candidate_moves` lists, in its order.
    pub fn candidate_moves(&self, node: &Node) -> Vec<Move> {
        let mut moves = Vec::new();
        for source in 1..node.dealt as usize {
            for reach in [1, 3] {
                if source >= reach && matches(node.tops[source], node.tops[source - reach]) {
                    let count = node.sizes[source] as u32;
                    moves.push(Move::cards(ROW[source], ROW[source - reach], count));
                }
            }
        }
        if node.dealt < node.len {
            moves.push(Move::act("deal"));
        }
        moves
    }

    /// The node after one of [`Accordion::candidate_moves`] (Accordion has no forced moves).
    pub fn apply(&self, node: &Node, mv: &Move) -> Result<(Node, Vec<Move>), String> {
        if !self.candidate_moves(node).contains(mv) {
            return Err(format!("{mv} is not a legal move here"));
        }
        let mut after = node.clone();
        match mv {
            Move::Act { .. } => after.dealt += 1,
            Move::Cards { from, to, .. } => {
                let source = ROW.iter().position(|name| name == from).expect("a pile");
                let target = ROW.iter().position(|name| name == to).expect("a pile");
                after.put(source, target);
                after.dealt -= 1;
                after.frontier = 0;
            }
        }
        Ok((after, Vec::new()))
    }
}

game_from_inherent!(Accordion, "accordion");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{depth_first, Budget, Verdict};

    use crate::options::options;

    /// Every card on t1 but the last two of spades, one on t2 and one in the stock.
    fn almost_won() -> Parts {
        let mut piles = vec![Vec::new(); PILES];
        piles[1] = (0..50).collect();
        piles[2] = vec![50];
        piles[0] = vec![51];
        let mut down = vec![0; PILES];
        down[0] = 1;
        Parts { piles, down, extra: Vec::new() }
    }

    #[test]
    fn parts_round_trip() {
        let game = Accordion::new(&options(&[])).unwrap();
        let parts = almost_won();
        let node = game.from_parts(&parts).unwrap();
        assert_eq!(game.to_parts(&node), parts);
    }

    #[test]
    fn a_step_deals_then_moves() {
        let game = Accordion::new(&options(&[])).unwrap();
        let node = game.from_parts(&almost_won()).unwrap();
        // t2 (the queen of spades) onto t1 (the jack), or the stock's king dealt onto t2.
        assert_eq!(
            game.candidate_moves(&node),
            vec![Move::cards("t2", "t1", 1), Move::act("deal")]
        );
        let mut steps = Vec::new();
        game.steps(&node, true, &mut steps);
        assert_eq!(steps.len(), 2);
        assert_eq!(
            game.moves(&node, &steps[1].0),
            vec![Move::act("deal"), Move::cards("t3", "t2", 1)]
        );
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1000, cpu_time: false };
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
        assert_eq!(
            found.moves,
            vec![Move::cards("t2", "t1", 1), Move::act("deal"), Move::cards("t2", "t1", 1)]
        );
    }

    #[test]
    fn a_pile_moves_whole_onto_the_third_to_its_left() {
        let game = Accordion::new(&options(&[("dealing", "all")])).unwrap();
        let mut piles = vec![Vec::new(); PILES];
        // t1: the clubs and the diamonds up to the jack; t2, t3: the hearts, the spades; t4: the
        // queen and king of diamonds, which goes onto the jack (the third pile to its left).
        piles[1] = (0..24).collect();
        piles[2] = (26..39).collect();
        piles[3] = (39..52).collect();
        piles[4] = vec![24, 25];
        let parts = Parts { piles, down: vec![0; PILES], extra: Vec::new() };
        let node = game.from_parts(&parts).unwrap();
        let moves = game.candidate_moves(&node);
        assert!(moves.contains(&Move::cards("t4", "t1", 2)));
        let (after, forced) = game.apply(&node, &Move::cards("t4", "t1", 2)).unwrap();
        assert!(forced.is_empty());
        let back = game.to_parts(&after);
        assert_eq!(back.piles[1], (0..26).collect::<Vec<u8>>());
        assert_eq!(back.piles[2], (26..39).collect::<Vec<u8>>());
        assert!(back.piles[4].is_empty());
    }

    #[test]
    fn bad_positions_are_refused() {
        let game = Accordion::new(&options(&[])).unwrap();
        let mut parts = almost_won();
        parts.piles[3] = vec![51];
        parts.piles[0].clear();
        parts.down[0] = 0;
        parts.piles[2].clear();
        parts.piles[1].push(50);
        assert!(game.from_parts(&parts).unwrap_err().contains("gaps"));
        let all = Accordion::new(&options(&[("dealing", "all")])).unwrap();
        assert!(all.from_parts(&almost_won()).is_err());
        assert!(Accordion::new(&options(&[("dealing", "two")])).is_err());
    }
}
