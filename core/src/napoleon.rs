//! Napoleon at St Helena in the core: a compact state, the engine's moves (for the differential
//! tests) and the solver's adapter, rule for rule as `patience/solve/napoleon.py` (docs/solving.md,
//! "Napoleon at St Helena").
//!
//! A node keeps every card off the foundations in one buffer, part by part: the ten columns
//! (bottom first), then the stock and waste as one sequence (`order`: the waste bottom first, then
//! the stock top first) with `w` cards of it on the waste. Cards are the engine's numbers (0-103:
//! which pack a card is from), keys compare faces (`card % 52`), as the engine's key does. Each
//! foundation is its top face + 1 (0 when empty) and a bit a rank saying which pack that card is
//! from. Each column's fingerprint and share of the score are kept beside the cards and made
//! again only for the columns a step changes.

use crate::game::game_from_inherent;
use crate::key::{fingerprint, fingerprint_words, Key};
use crate::moves::{Move, Parts};
use crate::options::Options;
use crate::search::{nodes_kept_whole, one_of_the_first, Adapter, Child};

/// The engine's piles in order (`Napoleon.pile_names`).
pub const PILES: [&str; 20] = [
    "stock", "waste", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "t1", "t2", "t3", "t4", "t5",
    "t6", "t7", "t8", "t9", "t10",
];
const COLUMNS: usize = 10;
/// The part of the buffer holding the stock and waste.
const ORDER: usize = 10;
const CARDS: usize = 104;
/// Where the foundations and the columns start in `PILES`.
const F_PILE: usize = 2;
const T_PILE: usize = 10;

/// Step sources beside the columns (0-9), as in the Python adapter.
const WASTE: i8 = -1;
const CHAIN: i8 = -2;
const TURN_ONLY: i8 = -3;
/// A step's target: a column (0-9), or `FOUNDATION + f`.
const FOUNDATION: u8 = 10;

/// How a state's promise is weighed (docs/solving.md, Napoleon at St Helena, "Order").
const SPACE_WEIGHT: i32 = 10;
const BREAK_WEIGHT: i32 = 2;
const WASTE_WEIGHT: i32 = 3;
const FOUND_WEIGHT: i32 = 4;
const BURIED_WEIGHT: i32 = 1;
const WASTE_BURIED_WEIGHT: i32 = 2;
/// Cards of the stock that make one stage of the staged search.
const STAGE_CARDS: i64 = 4;

#[inline]
fn face(card: u8) -> u8 {
    card % 52
}

#[inline]
fn is_ace(face: u8) -> bool {
    face.is_multiple_of(13)
}

/// Odd multipliers that make a sum of column fingerprints depend on which column is where.
const PLACE: [Key; COLUMNS] = [
    0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835,
    0xc2b2_ae3d_27d4_eb4f_1656_67b1_9e37_79f9,
    0x85eb_ca77_c2b2_ae63_27d4_eb2f_1656_67c5,
    0xd6e8_feb8_6659_fd93_a076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db_8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3_1d8e_4e27_c47d_124f,
    0xa0b4_28db_e703_7ed1_9c88_c6e3_8ebc_6af1,
    0x2545_f491_4f6c_dd1d_94d0_49bb_1331_11eb,
    0xbf58_476d_1ce4_e5b9_ff51_afd7_ed55_8ccd,
    0xc4ce_b9fe_1a85_ec53_9e37_79b9_7f4a_7c17,
];

/// How many cards of a pile (faces, bottom first) lie on a card they do not build on, and how
/// many lie above a lower card of their own suit (buried), scanned one card at a time.
#[derive(Clone, Copy)]
struct PileScan {
    breaks: i32,
    buried: i32,
    low: [u8; 4],
    below: i16,
}

impl PileScan {
    fn new() -> Self {
        PileScan { breaks: 0, buried: 0, low: [13; 4], below: -1 }
    }
    #[inline]
    fn push(&mut self, face: u8) {
        let suit = (face / 13) as usize;
        let rank = face % 13;
        if self.below >= 0 && (face as i16 + 1 != self.below || rank == 12) {
            self.breaks += 1;
        }
        if self.low[suit] < rank {
            self.buried += 1;
        } else {
            self.low[suit] = rank;
        }
        self.below = face as i16;
    }
    fn column_score(&self) -> i32 {
        -(BREAK_WEIGHT * self.breaks + BURIED_WEIGHT * self.buried)
    }
    fn waste_score(&self) -> i32 {
        -(WASTE_WEIGHT * self.breaks + WASTE_BURIED_WEIGHT * self.buried)
    }
}

/// Napoleon at St Helena (no options).
#[derive(Clone, Debug, Default)]
pub struct Napoleon;

/// A Napoleon state as the core holds it (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Node {
    cards: [u8; CARDS],
    /// Where each part starts in `cards`: columns 0-9, then the order; `start[11]` is the end.
    start: [u8; 12],
    /// Cards of the order on the waste.
    w: u8,
    /// Each foundation's top face + 1 (0: empty).
    found: [u8; 8],
    /// Bit `r` of foundation `f`: its card of rank `r + 1` is from the second pack.
    packs: [u16; 8],
    /// Each column's fingerprint (its faces).
    hash: [Key; COLUMNS],
    /// The order's fingerprint (its faces).
    order_hash: Key,
    /// Each column's share of the promise (a space, breaks and buried cards).
    col_score: [i16; COLUMNS],
    /// The waste's share of the promise.
    waste_score: i16,
}

/// A step (the Python adapter's `Step`): a card from `source` (a column or WASTE) to `target`
/// (a column or FOUNDATION + f) after `turns` turns of the stock; TURN_ONLY turns the stock up
/// to an ace; CHAIN plays `plays`, safe moves to the foundations.
#[derive(Clone, Debug)]
pub struct Step {
    source: i8,
    target: u8,
    turns: u8,
    plays: Vec<(i8, u8)>,
}

/// A key's bytes (the columns' fingerprint, the foundations, the stock and waste's
/// fingerprint, `w`), hashed from words ([`fingerprint_words`]).
fn key_words(columns: Key, found: u64, order_hash: Key, w: u8) -> Key {
    fingerprint_words::<41, 6>(&[
        columns as u64,
        (columns >> 64) as u64,
        found,
        order_hash as u64,
        (order_hash >> 64) as u64,
        u64::from(w),
    ])
}

/// The eight bytes in ascending order, as one little-endian word: a sorting network on values
/// in registers (sorting the bytes in memory and reading them back as a word stalls the read).
fn sorted_bytes(bytes: [u8; 8]) -> u64 {
    let mut v = bytes;
    // Batcher's odd-even merge sort for eight inputs: 19 compare-exchanges.
    const PAIRS: [(usize, usize); 19] = [
        (0, 1),
        (2, 3),
        (4, 5),
        (6, 7),
        (0, 2),
        (1, 3),
        (4, 6),
        (5, 7),
        (1, 2),
        (5, 6),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
        (2, 4),
        (3, 5),
        (1, 2),
        (3, 4),
        (5, 6),
    ];
    for (a, b) in PAIRS {
        let (low, high) = (v[a].min(v[b]), v[a].max(v[b]));
        v[a] = low;
        v[b] = high;
    }
    u64::from_le_bytes(v)
}

impl Node {
    #[inline]
    fn part(&self, index: usize) -> &[u8] {
        &self.cards[self.start[index] as usize..self.start[index + 1] as usize]
    }
    #[inline]
    fn len(&self, index: usize) -> usize {
        (self.start[index + 1] - self.start[index]) as usize
    }
    #[inline]
    fn top(&self, index: usize) -> Option<u8> {
        self.part(index).last().copied()
    }
    #[inline]
    fn order(&self) -> &[u8] {
        self.part(ORDER)
    }
    #[inline]
    fn waste_top(&self) -> Option<u8> {
        (self.w > 0).then(|| self.cards[self.start[ORDER] as usize + self.w as usize - 1])
    }

    /// Remove the card at `at` (an index into `cards`) of part `index`.
    fn remove(&mut self, index: usize, at: usize) -> u8 {
        let total = self.start[11] as usize;
        let card = self.cards[at];
        self.cards.copy_within(at + 1..total, at);
        for start in &mut self.start[index + 1..] {
            *start -= 1;
        }
        card
    }

    /// Put `card` on top of column `index`.
    fn push(&mut self, index: usize, card: u8) {
        let end = self.start[index + 1] as usize;
        let total = self.start[11] as usize;
        self.cards.copy_within(end..total, end + 1);
        self.cards[end] = card;
        for start in &mut self.start[index + 1..] {
            *start += 1;
        }
    }

    /// Make column `index`'s fingerprint and score again.
    fn refresh(&mut self, index: usize) {
        let mut faces = [0u8; CARDS];
        let mut scan = PileScan::new();
        let pile = self.part(index);
        for (slot, &card) in faces.iter_mut().zip(pile) {
            *slot = face(card);
            scan.push(*slot);
        }
        let length = pile.len();
        self.hash[index] = fingerprint(&faces[..length]);
        self.col_score[index] = if length == 0 { SPACE_WEIGHT } else { scan.column_score() } as i16;
    }

    /// Make the order's fingerprint again.
    fn rehash_order(&mut self) {
        let mut faces = [0u8; CARDS];
        let order = self.order();
        for (slot, &card) in faces.iter_mut().zip(order) {
            *slot = face(card);
        }
        self.order_hash = fingerprint(&faces[..order.len()]);
    }

    /// Make the waste's score again.
    fn rescore_waste(&mut self) {
        let mut scan = PileScan::new();
        for &card in &self.order()[..self.w as usize] {
            scan.push(face(card));
        }
        self.waste_score = scan.waste_score() as i16;
    }

    /// Make every fingerprint and score again.
    fn refresh_all(&mut self) {
        for index in 0..COLUMNS {
            self.refresh(index);
        }
        self.rehash_order();
        self.rescore_waste();
    }

    /// Put `card` (an ace or the next card of its suit) on foundation `index`.
    fn found_up(&mut self, index: usize, card: u8) {
        let f = face(card);
        self.found[index] = f + 1;
        if card >= 52 {
            self.packs[index] |= 1 << (f % 13);
        }
    }

    /// Put an ace on the first empty foundation; its index.
    fn ace_up(&mut self, card: u8) -> usize {
        // Eight aces, eight foundations that never empty: an empty one is always there.
        let index = self.found.iter().position(|&value| value == 0).expect("an empty foundation");
        self.found_up(index, card);
        index
    }

    /// Turn one stock card onto the waste; an ace goes up at once (the card under it in the
    /// waste is no ace). The waste's score is the caller's.
    fn turn(&mut self) {
        let at = self.start[ORDER] as usize + self.w as usize;
        let card = self.cards[at];
        if is_ace(face(card)) {
            self.remove(ORDER, at);
            self.ace_up(card);
            self.rehash_order();
        } else {
            self.w += 1;
        }
    }

    /// The foundation that takes `card` (not an ace): the first whose top is one rank lower in
    /// its suit.
    #[inline]
    fn target(&self, card: u8) -> Option<usize> {
        let f = face(card);
        if f.is_multiple_of(13) {
            return None;
        }
        self.found.iter().position(|&value| value == f)
    }

    /// The top card of `source` (a column or WASTE) to `target` (a column or FOUNDATION + f),
    /// then aces up as the engine sends them. The waste's score is the caller's when the card
    /// comes from the waste (`waste_score`, None: computed here).
    fn play(&mut self, source: i8, target: u8, waste_score: Option<i16>) {
        let card = if source == WASTE {
            let at = self.start[ORDER] as usize + self.w as usize - 1;
            self.w -= 1;
            let card = self.remove(ORDER, at);
            self.rehash_order();
            match waste_score {
                Some(score) => self.waste_score = score,
                None => self.rescore_waste(),
            }
            card
        } else {
            let index = source as usize;
            let at = self.start[index + 1] as usize - 1;
            self.remove(index, at)
        };
        if target >= FOUNDATION {
            self.found_up((target - FOUNDATION) as usize, card);
        } else {
            self.push(target as usize, card);
            self.refresh(target as usize);
        }
        if source >= 0 {
            let index = source as usize;
            // An ace can only turn up where a card left (the waste holds no ace).
            while let Some(top) = self.top(index) {
                if !is_ace(face(top)) {
                    break;
                }
                let at = self.start[index + 1] as usize - 1;
                let ace = self.remove(index, at);
                self.ace_up(ace);
            }
            self.refresh(index);
        }
    }

    fn score(&self) -> i32 {
        let mut score = 0i32;
        for &value in &self.found {
            if value > 0 {
                score += FOUND_WEIGHT * ((value as i32 - 1) % 13 + 1);
            }
        }
        score += self.col_score.iter().map(|&s| s as i32).sum::<i32>();
        score + self.waste_score as i32
    }

    /// The bytes of the columns in their places and the foundations in theirs.
    fn placed(&self) -> Key {
        let mut placed: Key = 0;
        for (hash, place) in self.hash.iter().zip(PLACE) {
            placed = placed.wrapping_add(hash.wrapping_mul(place));
        }
        placed
    }

    fn path(&self) -> Key {
        key_words(self.placed(), u64::from_le_bytes(self.found), self.order_hash, self.w)
    }

    /// A move to a foundation that no other step beats (docs/solving.md, Napoleon, rule 3):
    /// both cards one rank lower of its suit are on the foundations.
    fn safe(&self) -> Option<(i8, u8)> {
        let tops = (0..COLUMNS)
            .filter_map(|index| self.top(index).map(|card| (index as i8, card)))
            .chain(self.waste_top().map(|card| (WASTE, card)));
        for (source, card) in tops {
            let Some(index) = self.target(card) else {
                continue;
            };
            let f = face(card);
            let suit = f / 13;
            let rank = f % 13 + 1;
            let mut count = 0;
            let mut lowest = 13;
            for &value in &self.found {
                if value > 0 && (value - 1) / 13 == suit {
                    count += 1;
                    lowest = lowest.min((value - 1) % 13 + 1);
                }
            }
            if count == 2 && lowest >= rank - 1 {
                return Some((source, FOUNDATION + index as u8));
            }
        }
        None
    }
}

impl Node {
    /// True when some card off the foundations can never go up, so the node is lost
    /// (docs/solving.md, Napoleon at St Helena, rule 5). Over-estimates, as the least fixed point
    /// of monotone rules, which cards can ever leave their place (`leave`), be uncovered (`free`),
    /// take a card as a column's top (`host`) or go up (`up`), and whether a column can ever be
    /// empty (`space`); places are the columns and the stock with the waste as one sequence
    /// (turning the stock does not move a card out of it).
    fn dead(&self) -> bool {
        let mut up = [false; CARDS];
        let mut here = [false; CARDS];
        let mut in_column = [false; CARDS];
        for index in 0..COLUMNS {
            if self.len(index) == 0 {
                // A space: see below, not dead.
                return false;
            }
            for &card in self.part(index) {
                here[card as usize] = true;
                in_column[card as usize] = true;
            }
        }
        for (&value, &packs) in self.found.iter().zip(&self.packs) {
            if value == 0 {
                continue;
            }
            let suit = (value - 1) / 13;
            for rank in 0..(value - 1) % 13 + 1 {
                let pack = if packs & (1 << rank) != 0 { 52 } else { 0 };
                up[(suit * 13 + rank + pack) as usize] = true;
            }
        }
        let order = self.order();
        let w = self.w as usize;
        for &card in order {
            here[card as usize] = true;
        }
        let mut free = [false; CARDS];
        let mut leave = [false; CARDS];
        loop {
            let mut changed = false;
            // Each place from its top down (the stock's cards come to the waste's top by
            // turning, with nothing above them): a card is uncovered when every card above it
            // in its place can leave; it can go up when it is uncovered and is an ace or a copy
            // of the card below it in suit can go up; it can leave when it can go up or a copy
            // of the card above it in suit can be a column's top (uncovered in a column, or
            // moved to one). Until some column can be emptied, no card goes into a space.
            let places = (0..=COLUMNS).map(|index| match index {
                COLUMNS => &order[..w],
                _ => self.part(index),
            });
            for (index, place) in places.enumerate() {
                let mut above = true;
                for &card in place.iter().rev() {
                    let c = card as usize;
                    if !above {
                        break;
                    }
                    if !free[c] {
                        free[c] = true;
                        changed = true;
                    }
                    changed |=
                        self.try_up_and_leave(c, &here, &in_column, &free, &mut up, &mut leave);
                    above = leave[c];
                }
                if index < COLUMNS && above {
                    // Every card of this column can leave, so a space can come. Then every
                    // uncovered card can leave (into it), so every card is uncovered, and every
                    // card can go up after a copy of each lower card of its suit: not dead.
                    return false;
                }
            }
            for &card in &order[w..] {
                let c = card as usize;
                free[c] = true;
                changed |= self.try_up_and_leave(c, &here, &in_column, &free, &mut up, &mut leave);
            }
            if !changed {
                break;
            }
        }
        (0..CARDS).any(|c| here[c] && !up[c])
    }

    /// One update of the dead-end test's `up` and `leave` for the uncovered card `c`; true when
    /// either changed.
    #[inline]
    fn try_up_and_leave(
        &self,
        c: usize,
        here: &[bool; CARDS],
        in_column: &[bool; CARDS],
        free: &[bool; CARDS],
        up: &mut [bool; CARDS],
        leave: &mut [bool; CARDS],
    ) -> bool {
        let mut changed = false;
        let f = face(c as u8);
        let rank = f % 13;
        if !up[c] && (rank == 0 || up[(f - 1) as usize] || up[(f - 1 + 52) as usize]) {
            up[c] = true;
            changed = true;
        }
        if !leave[c] {
            let host = |h: usize| here[h] && free[h] && (in_column[h] || leave[h]);
            let onto = rank != 12 && (host((f + 1) as usize) || host((f + 1 + 52) as usize));
            if up[c] || onto {
                leave[c] = true;
                changed = true;
            }
        }
        changed
    }
}

/// The sort key of a step (the Python adapter's order): best child first, then not lateral,
/// then by kind, then (for column moves) the cards left in the source column, then as made.
type Rank = (i32, bool, u8, u8, u16);

const KIND_FOUNDATION: u8 = 0;
const KIND_FREEING: u8 = 1;
const KIND_BUILDING: u8 = 2;
const KIND_ACE: u8 = 3;
const KIND_STOCK: u8 = 4;
const KIND_SPACE: u8 = 5;

/// The children being made, with their sort keys.
struct Made {
    children: Vec<(Rank, Option<Child<Napoleon>>)>,
}

impl Made {
    fn add(&mut self, node: &Node, kind: u8, left: u8, step: Step, child: Node) {
        let lateral = lateral(node, &step);
        let order = self.children.len() as u16;
        self.children.push(((-child.score(), lateral, kind, left, order), Some((step, child))));
    }
}

/// True for a card moved from one copy of a card onto the other copy: the tops stay the same,
/// only which copy lies free changes (rarely what is needed).
fn lateral(node: &Node, step: &Step) -> bool {
    if step.source < 0 || step.target >= FOUNDATION {
        return false;
    }
    let col = node.part(step.source as usize);
    let onto = node.part(step.target as usize);
    col.len() > 1
        && !onto.is_empty()
        && face(col[col.len() - 2]) == face(*onto.last().expect("a card"))
}

/// Where the cards that could follow a lateral step at once lie (docs/solving.md, Napoleon at
/// St Helena, rule 6): the faces of the columns' tops, of the waste's top and of the stock.
struct Reach {
    tops: [u8; 52],
    waste: Option<u8>,
    stock: u64,
}

impl Reach {
    fn new(node: &Node) -> Self {
        let mut tops = [0u8; 52];
        for index in 0..COLUMNS {
            if let Some(top) = node.top(index) {
                tops[face(top) as usize] += 1;
            }
        }
        let stock = node.order()[node.w as usize..]
            .iter()
            .fold(0u64, |faces, &card| faces | 1 << face(card));
        Reach { tops, waste: node.waste_top().map(face), stock }
    }

    /// A card of face `f` could come onto a column's top: it is the top of a column (besides
    /// `own` columns whose top it is), the waste's top, or in the stock.
    fn within_reach(&self, f: u8, own: u8) -> bool {
        self.tops[f as usize] > own || self.waste == Some(f) || self.stock & (1 << f) != 0
    }

    /// Whether a lateral step, the card of face `x` moved off a card of face `h` onto the other
    /// copy of it, may be followed at once by a move that needs it (rule 6): the uncovered copy
    /// goes up, onto a card one rank higher in its suit or into a space, or the other copy of
    /// the moved card comes onto it, or a card one rank lower than the moved card comes onto
    /// the moved card in its new place.
    fn lateral_useful(&self, node: &Node, x: u8, h: u8, space: bool) -> bool {
        space
            || node.target(h).is_some()
            || (h % 13 != 12 && self.tops[h as usize + 1] > 0)
            || self.within_reach(x, 1)
            || (x % 13 >= 2 && self.within_reach(x - 1, 0))
    }
}

impl Napoleon {
    /// Add the steps that play `card` from `source` of `base` (the node after `turns` turns);
    /// with `reach` (dominance), a lateral step only when rule 6 keeps it.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &self,
        made: &mut Made,
        node: &Node,
        base: &Node,
        source: i8,
        turns: u8,
        card: u8,
        onto: &[u16; 52],
        empty: Option<usize>,
        waste_after: Option<i16>,
        reach: Option<&Reach>,
    ) {
        let step = |target: u8| Step { source, target, turns, plays: Vec::new() };
        if let Some(index) = base.target(card) {
            let target = FOUNDATION + index as u8;
            let mut child = base.clone();
            child.play(source, target, waste_after);
            made.add(node, KIND_FOUNDATION, 0, step(target), child);
        }
        let mut targets = onto[face(card) as usize];
        while targets != 0 {
            let target = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            if target as i8 == source {
                continue;
            }
            if let Some(reach) = reach.filter(|_| lateral(node, &step(target))) {
                let host = face(node.top(target as usize).expect("a host"));
                if !reach.lateral_useful(node, face(card), host, empty.is_some()) {
                    continue;
                }
            }
            let mut child = base.clone();
            child.play(source, target, waste_after);
            let (kind, left) = if source >= 0 {
                (KIND_FREEING, (node.len(source as usize) - 1) as u8)
            } else if turns > 0 {
                (KIND_STOCK, 0)
            } else {
                (KIND_BUILDING, 0)
            };
            made.add(node, kind, left, step(target), child);
        }
        if let Some(space) = empty {
            if source < 0 || node.len(source as usize) > 1 {
                let mut child = base.clone();
                child.play(source, space as u8, waste_after);
                made.add(node, KIND_SPACE, 0, step(space as u8), child);
            }
        }
    }
}

impl Adapter for Napoleon {
    type Node = Node;
    type Step = Step;
    nodes_kept_whole!(Node);

    fn restart_nodes(&self) -> Option<u64> {
        Some(5_000)
    }
    fn first_run_nodes(&self) -> Option<u64> {
        Some(20_000)
    }
    fn staged_tries(&self) -> &[(usize, u64)] {
        &[(4, 200), (16, 400), (64, 800), (256, 1600), (1024, 3200)]
    }

    fn refill_full_table(&self) -> bool {
        true
    }

    fn staged_bytes(&self) -> usize {
        // 1.5 GiB (docs/solving.md, Napoleon at St Helena, "Bounds"): the wider tries that win
        // need it, and a deal's peak stays under 2 GiB.
        3 << 29
    }

    fn first_step(&self, canon: Key, steps: &[Child<Self>], restart: u32) -> usize {
        // One of the restart + 1 most promising steps goes first (docs/solving.md, Napoleon at
        // St Helena, "Restarts").
        one_of_the_first(steps.len(), canon, restart, restart as usize + 1)
    }

    fn score(&self, node: &Node) -> f64 {
        node.score() as f64
    }

    fn stage(&self, node: &Node) -> i64 {
        (node.len(ORDER) as i64 - node.w as i64) / STAGE_CARDS
    }

    fn canonical(&self, node: &Node) -> Key {
        // The columns as a multiset and the foundations as a sorted list (rule 1).
        let columns = node.hash.iter().fold(0, |sum: Key, hash| sum.wrapping_add(*hash));
        key_words(columns, sorted_bytes(node.found), node.order_hash, node.w)
    }

    fn path_key(&self, node: &Node) -> Key {
        node.path()
    }

    fn layout_key(&self, node: &Node) -> Key {
        // The columns and how many cards other than aces the stock and waste hold: shared by
        // the node and the positions its steps pass through while the stock is turned.
        let aces = node.order().iter().filter(|&&card| is_ace(face(card))).count();
        let mut bytes = [0u8; 17];
        bytes[..16].copy_from_slice(&node.placed().to_le_bytes());
        bytes[16] = (node.len(ORDER) - aces) as u8;
        fingerprint(&bytes)
    }

    fn inner_keys(&self, node: &Node, step: &Step, out: &mut Vec<Key>) {
        if step.source == CHAIN {
            let mut here = node.clone();
            for &(source, target) in &step.plays[..step.plays.len() - 1] {
                here.play(source, target, None);
                out.push(here.path());
            }
            return;
        }
        let passed = step.turns - u8::from(step.source == TURN_ONLY);
        let mut here = node.clone();
        for _ in 0..passed {
            here.turn();
            out.push(here.path());
        }
    }

    fn won(&self, node: &Node) -> bool {
        node.start[11] == 0
    }

    fn moves(&self, _node: &Node, step: &Step) -> Vec<Move> {
        if step.source == CHAIN {
            return step
                .plays
                .iter()
                .map(|&(a, b)| Move::cards(name(a), name(b as i8), 1))
                .collect();
        }
        let mut moves: Vec<Move> = (0..step.turns).map(|_| Move::act("stock")).collect();
        if step.source != TURN_ONLY {
            moves.push(Move::cards(name(step.source), name(step.target as i8), 1));
        }
        moves
    }

    fn steps(&self, node: &Node, dominance: bool, out: &mut Vec<Child<Self>>) {
        if dominance && node.dead() {
            // Lost: no steps (rule 5).
            return;
        }
        if dominance {
            let mut plays = Vec::new();
            let mut child = node.clone();
            while let Some((source, target)) = child.safe() {
                plays.push((source, target));
                child.play(source, target, None);
            }
            if !plays.is_empty() {
                out.push((Step { source: CHAIN, target: 0, turns: 0, plays }, child));
                return;
            }
        }
        let empty = (0..COLUMNS).find(|&index| node.len(index) == 0);
        // Where each card may go onto a column: the columns whose top is one rank higher in suit.
        let mut onto = [0u16; 52];
        for index in 0..COLUMNS {
            if let Some(top) = node.top(index) {
                let f = face(top);
                if !f.is_multiple_of(13) {
                    onto[f as usize - 1] |= 1 << index;
                }
            }
        }
        let mut made = Made { children: Vec::with_capacity(32) };
        let reach = dominance.then(|| Reach::new(node));
        for index in 0..COLUMNS {
            if let Some(card) = node.top(index) {
                let reach = reach.as_ref();
                self.add(&mut made, node, node, index as i8, 0, card, &onto, empty, None, reach);
            }
        }
        // The waste's scores as it grows: `prefix[n]` for its first n cards (the order's cards,
        // aces left out: they go up when turned).
        let order = node.order();
        let mut scan = PileScan::new();
        let mut prefix = [0i16; CARDS + 1];
        let w = node.w as usize;
        for (n, &card) in order[..w].iter().enumerate() {
            prefix[n] = scan.waste_score() as i16;
            scan.push(face(card));
        }
        prefix[w] = scan.waste_score() as i16;
        if let Some(card) = node.waste_top() {
            let after = prefix[w - 1];
            self.add(&mut made, node, node, WASTE, 0, card, &onto, empty, Some(after), None);
        }
        // Cards the stock can bring to the top of the waste (one pass: turning only goes on).
        let mut turned = node.clone();
        let mut size = w;
        for (offset, &card) in order[w..].iter().enumerate() {
            let turns = offset as u8 + 1;
            turned.turn();
            if is_ace(face(card)) {
                let step = Step { source: TURN_ONLY, target: 0, turns, plays: Vec::new() };
                let child = turned.clone();
                made.add(node, KIND_ACE, 0, step, child);
                continue;
            }
            scan.push(face(card));
            size += 1;
            prefix[size] = scan.waste_score() as i16;
            turned.waste_score = prefix[size];
            if turned.target(card).is_some() || onto[face(card) as usize] != 0 || empty.is_some() {
                let after = Some(prefix[size - 1]);
                self.add(&mut made, node, &turned, WASTE, turns, card, &onto, empty, after, None);
            }
        }
        made.children.sort_unstable_by_key(|entry| entry.0);
        out.extend(made.children.into_iter().map(|entry| entry.1.expect("a child")));
    }
}

fn name(index: i8) -> &'static str {
    if index == WASTE {
        "waste"
    } else if index as u8 >= FOUNDATION {
        PILES[F_PILE + (index as u8 - FOUNDATION) as usize]
    } else {
        PILES[T_PILE + index as usize]
    }
}

// -- the engine's rules, for the differential tests ----------------------------------------------

/// The piles whose top card is available, in the order the engine looks for aces: the waste,
/// then the columns (-1 the waste, 0-9 the columns).
const AVAILABLE: [i8; 11] = [WASTE, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

impl Napoleon {
    /// The rules: Napoleon at St Helena has no option that changes the core's search.
    pub fn new(_options: &Options) -> Result<Self, String> {
        Ok(Napoleon)
    }

    /// The engine's state parts of a node.
    pub fn to_parts(&self, node: &Node) -> Parts {
        let mut piles = vec![Vec::new(); PILES.len()];
        let order = node.order();
        let w = node.w as usize;
        // The stock lists its cards bottom first: the next card to turn last.
        piles[0] = order[w..].iter().rev().copied().collect();
        piles[1] = order[..w].to_vec();
        for (index, (&value, &packs)) in node.found.iter().zip(&node.packs).enumerate() {
            if value == 0 {
                continue;
            }
            let suit = (value - 1) / 13;
            let height = (value - 1) % 13 + 1;
            piles[F_PILE + index] = (0..height)
                .map(|rank| suit * 13 + rank + if packs & (1 << rank) != 0 { 52 } else { 0 })
                .collect();
        }
        for index in 0..COLUMNS {
            piles[T_PILE + index] = node.part(index).to_vec();
        }
        let mut down = vec![0u32; PILES.len()];
        down[0] = piles[0].len() as u32;
        Parts { piles, down, extra: Vec::new() }
    }

    /// A node from the engine's state parts; an error for a position the engine would refuse.
    pub fn from_parts(&self, parts: &Parts) -> Result<Node, String> {
        if parts.piles.len() != PILES.len() || parts.down.len() != PILES.len() {
            return Err("a napoleon position has the 20 piles stock, waste, f1-f8, t1-t10".into());
        }
        if !parts.holds_each_card_once(CARDS) {
            return Err("a napoleon position holds each of the 104 cards once".into());
        }
        if parts.down[0] as usize != parts.piles[0].len() {
            return Err("the stock lies face down: list its cards under 'down'".into());
        }
        if parts.down[1..].iter().any(|&down| down != 0) {
            return Err("every card but the stock's lies face up".into());
        }
        let mut node = Node {
            cards: [0; CARDS],
            start: [0; 12],
            w: parts.piles[1].len() as u8,
            found: [0; 8],
            packs: [0; 8],
            hash: [0; COLUMNS],
            order_hash: 0,
            col_score: [0; COLUMNS],
            waste_score: 0,
        };
        for index in 0..8 {
            let pile = &parts.piles[F_PILE + index];
            for (rank, &card) in pile.iter().enumerate() {
                let f = face(card);
                let fits = if rank == 0 { is_ace(f) } else { f == node.found[index] };
                if !fits {
                    return Err(format!(
                        "{} is not built up in suit from the ace",
                        PILES[F_PILE + index]
                    ));
                }
                node.found_up(index, card);
            }
            if index > 0 && node.found[index - 1] == 0 && node.found[index] != 0 {
                return Err(format!(
                    "{} is empty but {} is not: each ace goes to the first empty foundation",
                    PILES[F_PILE + index - 1],
                    PILES[F_PILE + index]
                ));
            }
        }
        if parts.piles[1].iter().any(|&card| is_ace(face(card))) {
            return Err("an ace in the waste would have gone to a foundation when turned".into());
        }
        let mut at = 0usize;
        for index in 0..COLUMNS {
            let pile = &parts.piles[T_PILE + index];
            for (depth, &card) in pile.iter().enumerate() {
                if is_ace(face(card)) && (depth >= 4 || depth == pile.len() - 1) {
                    return Err(format!(
                        "an ace on {} lies above its four dealt cards or on top: it would be on a \
                         foundation",
                        PILES[T_PILE + index]
                    ));
                }
            }
            node.start[index] = at as u8;
            node.cards[at..at + pile.len()].copy_from_slice(pile);
            at += pile.len();
        }
        node.start[ORDER] = at as u8;
        let waste = &parts.piles[1];
        node.cards[at..at + waste.len()].copy_from_slice(waste);
        at += waste.len();
        for &card in parts.piles[0].iter().rev() {
            node.cards[at] = card;
            at += 1;
        }
        node.start[11] = at as u8;
        node.refresh_all();
        Ok(node)
    }

    /// Every move the engine's `candidate_moves` lists, in its order.
    pub fn candidate_moves(&self, node: &Node) -> Vec<Move> {
        let mut moves = Vec::new();
        let top =
            |source: i8| if source == WASTE { node.waste_top() } else { node.top(source as usize) };
        // To the foundations first; a card fitting two foundations may go to either.
        for source in AVAILABLE {
            if let Some(card) = top(source) {
                let f = face(card);
                for (index, &value) in node.found.iter().enumerate() {
                    let fits = if value == 0 { is_ace(f) } else { !is_ace(f) && value == f };
                    if fits {
                        moves.push(Move::cards(name(source), PILES[F_PILE + index], 1));
                    }
                }
            }
        }
        // Onto the columns: the top card of a column, then of the waste.
        for source in (0..COLUMNS as i8).chain([WASTE]) {
            let Some(card) = top(source) else {
                continue;
            };
            let f = face(card);
            for target in 0..COLUMNS {
                if target as i8 == source {
                    continue;
                }
                let fits = match node.top(target) {
                    None => true,
                    Some(onto) => {
                        let g = face(onto);
                        g / 13 == f / 13 && g % 13 == f % 13 + 1
                    }
                };
                if fits {
                    moves.push(Move::cards(name(source), PILES[T_PILE + target], 1));
                }
            }
        }
        if node.len(ORDER) > node.w as usize {
            moves.push(Move::act("stock"));
        }
        moves
    }

    /// The node after one of [`Napoleon::candidate_moves`], and the aces that went up.
    pub fn apply(&self, node: &Node, mv: &Move) -> Result<(Node, Vec<Move>), String> {
        if !self.candidate_moves(node).contains(mv) {
            return Err(format!("{mv} is not a legal move here"));
        }
        let mut after = node.clone();
        match mv {
            Move::Act { .. } => after.w += 1,
            Move::Cards { from, to, .. } => {
                let source = pile_index(from);
                let card = if source == WASTE {
                    let at = after.start[ORDER] as usize + after.w as usize - 1;
                    after.w -= 1;
                    after.remove(ORDER, at)
                } else {
                    let at = after.start[source as usize + 1] as usize - 1;
                    after.remove(source as usize, at)
                };
                let target = pile_index(to);
                if target as u8 >= FOUNDATION {
                    after.found_up((target as u8 - FOUNDATION) as usize, card);
                } else {
                    after.push(target as usize, card);
                }
            }
        }
        // Aces go up as soon as they are available, looked for in the engine's order each time.
        let mut forced = Vec::new();
        'aces: loop {
            for source in AVAILABLE {
                let card =
                    if source == WASTE { after.waste_top() } else { after.top(source as usize) };
                let Some(card) = card.filter(|&card| is_ace(face(card))) else {
                    continue;
                };
                let at = if source == WASTE {
                    after.w -= 1;
                    after.start[ORDER] as usize + after.w as usize
                } else {
                    after.start[source as usize + 1] as usize - 1
                };
                let part = if source == WASTE { ORDER } else { source as usize };
                after.remove(part, at);
                let index = after.ace_up(card);
                forced.push(Move::cards(name(source), PILES[F_PILE + index], 1));
                continue 'aces;
            }
            break;
        }
        after.refresh_all();
        Ok((after, forced))
    }
}

/// The step index of an engine pile name: WASTE, a column, or FOUNDATION + f.
fn pile_index(pile: &str) -> i8 {
    let at = PILES.iter().position(|&name| name == pile).expect("a pile");
    match at {
        1 => WASTE,
        F_PILE..T_PILE => (FOUNDATION as usize + at - F_PILE) as i8,
        _ => (at - T_PILE) as i8,
    }
}

game_from_inherent!(Napoleon, "napoleon");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{depth_first, Budget, Verdict};

    /// Every card up but the two kings of spades: one on t1, one at the bottom of the stock.
    fn almost_won() -> Parts {
        let mut piles = vec![Vec::new(); PILES.len()];
        for index in 0..8u8 {
            let suit = index % 4;
            let pack = if index < 4 { 0 } else { 52 };
            let height = if suit == 3 { 12 } else { 13 };
            piles[F_PILE + index as usize] =
                (0..height).map(|rank| suit * 13 + rank + pack).collect();
        }
        piles[T_PILE] = vec![51];
        piles[0] = vec![103];
        let mut down = vec![0; PILES.len()];
        down[0] = 1;
        Parts { piles, down, extra: Vec::new() }
    }

    #[test]
    fn foundation_bytes_sort_as_a_byte_sort_does() {
        // Every input of zeros and ones (the 0-1 principle proves a network), and mixed ones.
        for mask in 0..256u32 {
            let bytes: [u8; 8] = std::array::from_fn(|index| (mask >> index & 1) as u8);
            let mut sorted = bytes;
            sorted.sort_unstable();
            assert_eq!(sorted_bytes(bytes), u64::from_le_bytes(sorted));
        }
        let mut state = 7u64;
        for _ in 0..1000 {
            let bytes: [u8; 8] = std::array::from_fn(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 59) as u8
            });
            let mut sorted = bytes;
            sorted.sort_unstable();
            assert_eq!(sorted_bytes(bytes), u64::from_le_bytes(sorted));
        }
    }

    #[test]
    fn parts_round_trip() {
        let game = Napoleon;
        let parts = almost_won();
        let node = game.from_parts(&parts).unwrap();
        assert_eq!(game.to_parts(&node), parts);
    }

    #[test]
    fn a_safe_chain_plays_both_kings() {
        let game = Napoleon;
        let node = game.from_parts(&almost_won()).unwrap();
        // Either foundation of spades, any space, or the stock.
        let moves = game.candidate_moves(&node);
        assert_eq!(moves[..2], [Move::cards("t1", "f4", 1), Move::cards("t1", "f8", 1)]);
        assert_eq!(moves.len(), 2 + 9 + 1);
        assert_eq!(moves[11], Move::act("stock"));
        let mut steps = Vec::new();
        game.steps(&node, true, &mut steps);
        assert_eq!(steps.len(), 1);
        assert_eq!(game.moves(&node, &steps[0].0), vec![Move::cards("t1", "f4", 1)]);
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1000, cpu_time: false };
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
        assert_eq!(
            found.moves,
            vec![Move::cards("t1", "f4", 1), Move::act("stock"), Move::cards("waste", "f8", 1)]
        );
    }

    /// Every suit up to the four on both foundations; each king lies on the five of its suit
    /// and pack (columns 1-8), both sevens of spades and of hearts lie under a six of their suit
    /// (columns 9 and 10, `spades` and `hearts` bottom first), every other card in the stock.
    fn kings_on_fives(spades: [u8; 3], hearts: [u8; 3]) -> Parts {
        let mut piles = vec![Vec::new(); PILES.len()];
        for index in 0..8u8 {
            let (suit, pack) = (index % 4, (index / 4) * 52);
            piles[F_PILE + index as usize] = (0..4).map(|rank| suit * 13 + rank + pack).collect();
            piles[T_PILE + index as usize] = vec![suit * 13 + 4 + pack, suit * 13 + 12 + pack];
        }
        piles[T_PILE + 8] = spades.to_vec();
        piles[T_PILE + 9] = hearts.to_vec();
        let placed: Vec<u8> = piles.iter().flatten().copied().collect();
        piles[0] = (0..CARDS as u8).filter(|card| !placed.contains(card)).collect();
        let mut down = vec![0; PILES.len()];
        down[0] = piles[0].len() as u32;
        Parts { piles, down, extra: Vec::new() }
    }

    #[test]
    fn a_card_that_can_never_go_up_is_a_dead_end() {
        // No column can ever be emptied: a king has nowhere to go but up, which needs a five of
        // its suit from under a king; the sixes of columns 9 and 10 need a seven of their suit,
        // both under them, or a five. So the fives never go up (rule 5).
        let game = Napoleon;
        let node = game.from_parts(&kings_on_fives([6, 58, 5], [19, 71, 18])).unwrap();
        assert!(node.dead());
        let mut steps = Vec::new();
        game.steps(&node, true, &mut steps);
        assert!(steps.is_empty());
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1000, cpu_time: false };
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!((found.verdict, found.nodes), (Verdict::Unwinnable, 1));
        // Without dominance the test is off.
        game.steps(&node, false, &mut steps);
        assert!(!steps.is_empty());
        // A seven of spades on top of the six: it goes onto the eight of spades once that is
        // played onto the nine, ... onto a king; the six follows onto it, column 9 empties, and
        // a space frees everything: not dead.
        let node = game.from_parts(&kings_on_fives([6, 5, 58], [19, 71, 18])).unwrap();
        assert!(!node.dead());
        assert!(!game.from_parts(&almost_won()).unwrap().dead());
    }

    /// Small random positions (each foundation up to a random height, the other cards in
    /// short columns and the stock, both copies of a card often near each other): the search
    /// with the dominance rules (3, 5 and 6) gives the answer of the search without them, and
    /// rule 6 does leave out lateral steps.
    #[test]
    fn lateral_steps_left_out_by_rule_6_change_no_answer() {
        let game = Napoleon;
        let budget =
            Budget { seconds: None, nodes: Some(300_000), max_states: 1 << 22, cpu_time: false };
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15_u64);
        const SPREAD: u64 = 12;
        let (mut compared, mut cut, mut answers) = (0, 0, [0; 2]);
        for _ in 0..1000 {
            let mut piles = vec![Vec::new(); PILES.len()];
            let mut rest = Vec::new();
            for index in 0..8u8 {
                let (suit, pack) = (index % 4, (index / 4) * 52);
                let height = 4 + next(5) as u8;
                piles[F_PILE + index as usize] =
                    (0..height).map(|rank| suit * 13 + rank + pack).collect();
                rest.extend((height..13).map(|rank| suit * 13 + rank + pack));
            }
            // Sorted by face, so that the two copies of a card lie side by side, then lightly
            // shuffled: neighbours swap places.
            rest.sort_by_key(|&card| (face(card), card));
            for at in (1..rest.len()).rev() {
                let other = at.saturating_sub(next(SPREAD) as usize);
                rest.swap(at, other);
            }
            let mut at = 0;
            for index in 0..COLUMNS {
                let size = (3 + next(4) as usize).min(rest.len() - at);
                piles[T_PILE + index] = rest[at..at + size].to_vec();
                at += size;
            }
            piles[0] = rest[at..].to_vec();
            let mut down = vec![0; PILES.len()];
            down[0] = piles[0].len() as u32;
            let Ok(node) = game.from_parts(&Parts { piles, down, extra: Vec::new() }) else {
                continue;
            };
            let reach = Reach::new(&node);
            let space = (0..COLUMNS).any(|index| node.len(index) == 0);
            for source in 0..COLUMNS {
                let col = node.part(source);
                if col.len() < 2 {
                    continue;
                }
                let (x, h) = (face(col[col.len() - 1]), face(col[col.len() - 2]));
                let lateral = (0..COLUMNS).any(|target| {
                    target != source && node.top(target).map(face) == Some(h) && h == x + 1
                });
                if lateral && !reach.lateral_useful(&node, x, h, space) {
                    cut += 1;
                }
            }
            let ruled = depth_first(&game, &node, budget, &[], true, true, &mut || false);
            let plain = depth_first(&game, &node, budget, &[], false, true, &mut || false);
            if ruled.verdict != Verdict::Unknown && plain.verdict != Verdict::Unknown {
                assert_eq!(ruled.verdict, plain.verdict, "{:?}", game.to_parts(&node));
                compared += 1;
                answers[(ruled.verdict == Verdict::Won) as usize] += 1;
            }
        }
        assert!(compared >= 500 && answers[0] >= 50 && answers[1] >= 50, "{compared} {answers:?}");
        assert!(cut >= 30, "{cut} lateral steps left out at the roots");
    }

    #[test]
    fn bad_positions_are_refused() {
        let game = Napoleon;
        let mut parts = almost_won();
        parts.piles[T_PILE + 1].push(0);
        assert!(game.from_parts(&parts).unwrap_err().contains("104 cards once"));
        let mut parts = almost_won();
        let king = parts.piles[T_PILE].pop().unwrap();
        parts.piles[1].push(king);
        let ace = parts.piles[F_PILE + 1].remove(0);
        parts.piles[1].push(ace);
        assert!(game.from_parts(&parts).is_err());
    }
}
