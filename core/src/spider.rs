//! Spider in the core: a compact state, the engine's moves (for the differential tests) and the
//! solver's adapter, rule for rule as `patience/solve/spider.py` (docs/solving.md, "Spider").
//!
//! Cards are faces (`suit * 13 + rank - 1`, 0-51): the copies of a card are equal in play and in
//! the engine's repetition key, and the Python side sends faces (one-suit Spider's 104 spades
//! number up to 415 as engine cards). A node keeps the tableau as one array of cards (pile by
//! pile, bottom first) with each pile's start and face-down count, the stock bottom first (the
//! next card dealt, onto `t1`, is the last), and the suits removed so far, in the order of the
//! foundations they went to.
//!
//! With `auto_remove=off` the adapter is the same but for one more kind of step, the removal of
//! a complete suit (tried first; never forced: keeping a complete suit on the table can be what
//! allows a deal, which needs every pile filled), and no removal happens by itself.

use crate::game::game_from_inherent;
use crate::key::{fingerprint, fingerprint_words, Key};
use crate::moves::{card_text, Arg, Move, Parts};
use crate::options::Options;
use crate::search::{nodes_kept_whole, one_of_the_first, Adapter, Child};

/// Pile names in the engine's order (`Spider.pile_names`).
pub const PILES: [&str; 19] = [
    "stock", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "t1", "t2", "t3", "t4", "t5", "t6",
    "t7", "t8", "t9", "t10",
];
/// The tableau's pile names.
pub const TABLEAU: [&str; 10] = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10"];
/// The foundations' names: the removed suits fill them in order.
pub const FOUNDATIONS: [&str; 8] = ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"];
/// Where the foundations and the tableau start in the engine's pile order.
const P_F0: usize = 1;
const P_T0: usize = 9;
/// Tableau piles.
const WIDTH: usize = 10;
/// Cards in one complete suit.
const SUIT_LENGTH: usize = 13;
/// Cards in the game.
const CARDS: usize = 104;
/// The most cards the stock holds (layout 50).
const STOCK: usize = 54;

/// The step source that means a deal from the stock.
const DEAL: u8 = 255;
/// The step target that means a complete suit to the next foundation (`auto_remove=off`).
const REMOVE: u8 = 254;
/// Where a deal comes in the order of steps (after the other steps of that rank).
const DEAL_RANK: i8 = 4;
/// Where part of a run moved in suit (from one copy of a card onto the other) comes: last.
const LATERAL_RANK: i8 = 8;
/// Where the removal of a complete suit comes (`auto_remove=off`): first.
const REMOVE_RANK: i8 = -1;

/// The weights of [`Spider::score`] (the Python `SUIT_REMOVED_WEIGHT` and the rest).
const SUIT_REMOVED_WEIGHT: i32 = 100;
const FACE_DOWN_WEIGHT: i32 = 5;
const SEGMENT_WEIGHT: i32 = 15;
const JUNK_WEIGHT: i32 = 1;
const CLOSE: i32 = 6;
const CLOSE_WEIGHT: i32 = 1;

/// The first run of the depth-first search, and the length of the runs after restarts.
const RESTART_NODES: u64 = 5_000;
const FIRST_RUN_NODES: u64 = 20_000;
const STAGED_TRIES: [(usize, u64); 4] = [(4, 1_000), (16, 2_000), (64, 4_000), (256, 8_000)];
/// The Python adapter's tries, then wider ones: the core ends the Python tries in 5-40 CPU
/// seconds, and a minute is better spent on a wider beam than on a depth-first search (which,
/// never repeating a position, dives a million moves deep and fills the table).
const BEAM_TRIES: [(usize, usize, usize); 8] = [
    (8, 50, 80),
    (16, 200, 100),
    (64, 400, 120),
    (256, 800, 150),
    (1024, 1600, 200),
    (2048, 3200, 250),
    (4096, 6400, 300),
    (8192, 12800, 400),
];
const BEAM_PATIENCE: usize = 10;
/// The share of a budget of the first depth-first run: a sixtieth (a second of a minute; the
/// Python adapter's sixth). At the core's speed the depth-first search wins at once or not at
/// all: on four-suit deals 1-5 it won none in ten CPU seconds, which the staged beam, winning
/// each in a second after it, needed no more than a second of.
const FIRST_SHARE: f64 = 1.0 / 60.0;
/// The most nodes of that first run (core solver version 7): what it wins, it wins at once (one-
/// and two-suit deals within a few thousand nodes, four suits hardly ever), and a second of
/// depth-first search was most of the time a four-suit or two-suit deal took at a minute's
/// budget. Tuning deals at a minute each, the same deals won: four suits 2001-2020 from 31 to
/// 14 CPU s, 2021-2060 from 129 to 98 (one deal unknown in both); two suits 2001-2040 from 44
/// to 11 (50,000 nodes), with `layout=54` 2001-2030 from 31 to 5.5; one suit unchanged.
const FIRST_NODES: u64 = 20_000;

/// Odd multipliers that make a sum of pile fingerprints depend on which pile is where.
const PLACE: [Key; WIDTH] = [
    0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835,
    0xc2b2_ae3d_27d4_eb4f_1656_67b1_9e37_79f9,
    0x85eb_ca77_c2b2_ae63_27d4_eb2f_1656_67c5,
    0xd6e8_feb8_6659_fd93_a076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db_8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3_1d8e_4e27_c47d_124f,
    0xa0b4_28db_e703_7ed1_9c88_c6e3_8ebc_6af1,
    0x27d4_eb2f_1656_67c5_85eb_ca77_c2b2_ae63,
    0x1656_67b1_9e37_79f9_c2b2_ae3d_27d4_eb4f,
    0x8ebc_6af0_9c88_c6e3_e703_7ed1_a0b4_28db,
];

/// True if `card` continues the run of `below` down in one suit (a king continues nothing).
#[inline]
fn continues(below: u8, card: u8) -> bool {
    card % 13 != 12 && below == card + 1
}

/// How many top cards of `pile` (at most `up`, the face-up ones) form a run descending in one
/// suit: the largest group that may move.
#[inline]
fn run_length(pile: &[u8], up: usize) -> usize {
    if up == 0 {
        return 0;
    }
    let mut length = 1;
    let mut index = pile.len() - 1;
    while length < up && continues(pile[index - 1], pile[index]) {
        length += 1;
        index -= 1;
    }
    length
}

/// True if the top 13 cards of `pile` (`up` of them face up) run K down to A in one suit.
#[inline]
fn complete(pile: &[u8], up: usize) -> bool {
    up >= SUIT_LENGTH
        && pile[pile.len() - 1].is_multiple_of(13)
        && run_length(pile, up) >= SUIT_LENGTH
}

/// One pile's part of [`Spider::score`] (docs/solving.md, Spider, "Score").
fn pile_value(pile: &[u8], down: usize) -> i32 {
    if pile.is_empty() {
        return CLOSE_WEIGHT * CLOSE * CLOSE;
    }
    let mut segments = 1i32;
    let mut junk = 0i32;
    let mut below = pile[down];
    for &card in &pile[down + 1..] {
        if !continues(below, card) {
            segments += 1;
            if below % 13 != card % 13 + 1 {
                junk += 1;
            }
        }
        below = card;
    }
    let down = down as i32;
    let mut value = -(FACE_DOWN_WEIGHT * down + SEGMENT_WEIGHT * segments + JUNK_WEIGHT * junk);
    let mut cost = down + segments;
    if down == 0 && pile[0] % 13 == 12 {
        // A pile on a king with nothing under it need not move to be as good as a space.
        cost -= 1;
    }
    if cost < CLOSE {
        value += CLOSE_WEIGHT * (CLOSE - cost) * (CLOSE - cost);
    }
    value
}

/// Spider's options (RULES.md).
#[derive(Clone, Debug)]
pub struct Spider {
    /// Cards in the starting layout: 50 or 54.
    pub layout: u8,
    /// Complete suits leave the table by themselves.
    pub auto_remove: bool,
    /// Suits in the packs: 1, 2 or 4.
    pub suits: u8,
    /// The depth-first search keeps every child on its path instead of making the children
    /// on entry (for the test that compares the two: the same search).
    keep_children: bool,
}

impl Spider {
    pub fn new(options: &Options) -> Result<Self, String> {
        let layout = options.int("layout", 50)?;
        if layout != 50 && layout != 54 {
            return Err(format!("spider: layout is 50 or 54, not {layout}"));
        }
        let suits = options.int("suits", 4)?;
        if !matches!(suits, 1 | 2 | 4) {
            return Err(format!("spider: suits is 1, 2 or 4, not {suits}"));
        }
        Ok(Spider {
            layout: layout as u8,
            auto_remove: options.flag("auto_remove", true)?,
            suits: suits as u8,
            keep_children: false,
        })
    }

    /// How many face-down cards pile `index` gets in the deal (its most ever).
    fn starting_down(&self, index: usize) -> u8 {
        if self.layout == 54 && index < 4 {
            5
        } else {
            4
        }
    }
}

/// A Spider state as the core holds it (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    cards: [u8; CARDS],
    /// Where each pile starts in `cards` (`start[10]`: the tableau's card count).
    start: [u8; WIDTH + 1],
    down: [u8; WIDTH],
    /// Each pile's fingerprint (face-down count and cards): the keys are made of these, and a
    /// step recomputes only those of the piles it changes.
    hash: [Key; WIDTH],
    /// Each pile's part of the score ([`pile_value`]), kept with its fingerprint.
    value: [i16; WIDTH],
    /// The stock, bottom first: the next card dealt is the last.
    stock: [u8; STOCK],
    stock_len: u8,
    /// The fingerprint of the stock (recomputed when a deal changes it).
    stock_hash: Key,
    /// The suits removed, in the order of the foundations.
    found: [u8; 8],
    found_len: u8,
}

/// A step: `count` cards from pile `source` to pile `target`; a deal (`source` `DEAL`); or a
/// complete suit from `source` to the next foundation (`target` `REMOVE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    source: u8,
    target: u8,
    count: u8,
}

impl Node {
    #[inline]
    fn pile(&self, index: usize) -> &[u8] {
        &self.cards[self.start[index] as usize..self.start[index + 1] as usize]
    }
    #[inline]
    fn len(&self, index: usize) -> usize {
        (self.start[index + 1] - self.start[index]) as usize
    }
    #[inline]
    fn up(&self, index: usize) -> usize {
        self.len(index) - self.down[index] as usize
    }
    #[inline]
    fn top(&self, index: usize) -> Option<u8> {
        self.pile(index).last().copied()
    }
    fn rehash(&mut self, index: usize) {
        let mut bytes = [0u8; CARDS + 1];
        let length = self.len(index);
        bytes[0] = self.down[index];
        bytes[1..1 + length].copy_from_slice(self.pile(index));
        self.hash[index] = fingerprint(&bytes[..1 + length]);
        self.value[index] = pile_value(self.pile(index), self.down[index] as usize) as i16;
    }
    fn rehash_stock(&mut self) {
        let mut bytes = [0u8; STOCK + 1];
        let length = self.stock_len as usize;
        bytes[0] = self.stock_len;
        bytes[1..1 + length].copy_from_slice(&self.stock[..length]);
        self.stock_hash = fingerprint(&bytes[..1 + length]);
    }
    /// Take the top `count` cards of pile `index` into `run` (no card turned up, no rehash).
    fn take(&mut self, index: usize, count: usize, run: &mut [u8]) {
        let end = self.start[index + 1] as usize;
        let total = self.start[WIDTH] as usize;
        run[..count].copy_from_slice(&self.cards[end - count..end]);
        self.cards.copy_within(end..total, end - count);
        for start in &mut self.start[index + 1..] {
            *start -= count as u8;
        }
        let rest = self.len(index) as u8;
        self.down[index] = self.down[index].min(rest);
    }
    /// Put `run` on top of pile `index` (no rehash).
    fn put(&mut self, index: usize, run: &[u8]) {
        let end = self.start[index + 1] as usize;
        let total = self.start[WIDTH] as usize;
        self.cards.copy_within(end..total, end + run.len());
        self.cards[end..end + run.len()].copy_from_slice(run);
        for start in &mut self.start[index + 1..] {
            *start += run.len() as u8;
        }
    }
    /// Turn up the top card of pile `index` if it lies face down; the forced `flip` into
    /// `forced`.
    fn turn_up(&mut self, index: usize, forced: &mut Option<&mut Vec<Move>>) {
        let length = self.len(index) as u8;
        if length > 0 && self.down[index] == length {
            self.down[index] -= 1;
            if let Some(forced) = forced {
                let card = self.top(index).expect("a card");
                forced.push(Move::Act {
                    name: "flip",
                    args: vec![
                        ("pile", Arg::Text(TABLEAU[index].to_string())),
                        ("card", Arg::Text(card_text(card))),
                    ],
                });
            }
        }
    }
    /// Move the complete suit on top of pile `index` to the next foundation, turning up the
    /// card it uncovers (no rehash).
    fn remove_suit(&mut self, index: usize, forced: &mut Option<&mut Vec<Move>>) {
        let mut run = [0u8; SUIT_LENGTH];
        self.take(index, SUIT_LENGTH, &mut run);
        let place = self.found_len as usize;
        self.found[place] = run[SUIT_LENGTH - 1] / 13;
        self.found_len += 1;
        if let Some(forced) = forced {
            forced.push(Move::cards(TABLEAU[index], FOUNDATIONS[place], SUIT_LENGTH as u32));
        }
        self.turn_up(index, forced);
    }
    /// With `auto_remove=on`: remove the complete suit on top of pile `index`, if there is one.
    fn settle(&mut self, index: usize, forced: &mut Option<&mut Vec<Move>>) {
        if self.found_len < 8 && complete(self.pile(index), self.up(index)) {
            self.remove_suit(index, forced);
        }
    }
    fn tableau_cards(&self) -> usize {
        self.start[WIDTH] as usize
    }
    /// A deal needs every pile filled, unless the tableau is too small to fill them.
    fn deal_allowed(&self) -> bool {
        (0..WIDTH).all(|index| self.len(index) > 0) || self.tableau_cards() < WIDTH
    }
    /// The sum of the piles' fingerprints, each weighted by its place.
    fn placed(&self) -> Key {
        let mut placed: Key = 0;
        for (hash, place) in self.hash.iter().zip(PLACE) {
            placed = placed.wrapping_add(hash.wrapping_mul(place));
        }
        placed
    }
    /// The bytes of a key: a sum of pile fingerprints, the stock's fingerprint, the removed
    /// suits (in `found`'s order, padded), and a tag.
    fn key_of(&self, piles: Key, found: &[u8; 8], tag: u8) -> Key {
        fingerprint_words::<{ 16 + 16 + 8 + 1 }, 6>(&[
            piles as u64,
            (piles >> 64) as u64,
            self.stock_hash as u64,
            (self.stock_hash >> 64) as u64,
            u64::from_le_bytes(*found),
            u64::from(tag),
        ])
    }
    /// The removed suits in ascending order, the empty places 255 (the table key's multiset).
    /// Made in a register from counts: sorting the bytes in place and reading them back as
    /// one word stalled the load on the byte stores (a fifth of a search's time by `perf`).
    fn sorted_found(&self) -> [u8; 8] {
        let mut counts: u32 = 0;
        for &suit in &self.found[..self.found_len as usize] {
            debug_assert!(suit < 4, "a suit is 0-3");
            counts += 1 << (8 * u32::from(suit));
        }
        let mut word: u64 = 0;
        let mut shift = 0u32;
        for suit in 0..4u64 {
            for _ in 0..(counts >> (8 * suit)) & 0xff {
                word |= suit << shift;
                shift += 8;
            }
        }
        if shift < 64 {
            word |= u64::MAX << shift;
        }
        word.to_le_bytes()
    }
    /// The removed suits as the engine's key holds them: in order, the empty places 255.
    fn found_bytes(&self) -> [u8; 8] {
        let mut found = [255u8; 8];
        let length = self.found_len as usize;
        found[..length].copy_from_slice(&self.found[..length]);
        found
    }
}

impl Spider {
    /// Move `count` cards from pile `source` to pile `target` as the engine does: the source's
    /// face-down card turned up, then (auto_remove=on) a suit completed on the target removed.
    fn move_cards(
        &self,
        node: &mut Node,
        source: usize,
        target: usize,
        count: usize,
        mut forced: Option<&mut Vec<Move>>,
    ) {
        let mut run = [0u8; CARDS];
        node.take(source, count, &mut run);
        node.put(target, &run[..count]);
        node.turn_up(source, &mut forced);
        if self.auto_remove {
            node.settle(target, &mut forced);
        }
        node.rehash(source);
        node.rehash(target);
    }

    /// Deal a card onto each pile from `t1` on (fewer when the stock is short), then
    /// (auto_remove=on) remove the suits completed, pile by pile.
    fn deal(&self, node: &mut Node, mut forced: Option<&mut Vec<Move>>) {
        let dealt = WIDTH.min(node.stock_len as usize);
        for index in 0..dealt {
            node.stock_len -= 1;
            let card = node.stock[node.stock_len as usize];
            node.put(index, &[card]);
        }
        if self.auto_remove {
            for index in 0..dealt {
                node.settle(index, &mut forced);
            }
        }
        for index in 0..dealt {
            node.rehash(index);
        }
        node.rehash_stock();
    }

    /// A complete suit from pile `source` to the next foundation (auto_remove=off).
    fn remove(&self, node: &mut Node, source: usize, mut forced: Option<&mut Vec<Move>>) {
        node.remove_suit(source, &mut forced);
        node.rehash(source);
    }

    /// Make `step` on `child` (a copy of the node it is a step of).
    fn play_step(&self, child: &mut Node, step: Step) {
        match step {
            Step { source: DEAL, .. } => self.deal(child, None),
            Step { source, target: REMOVE, .. } => self.remove(child, source as usize, None),
            Step { source, target, count } => {
                self.move_cards(child, source as usize, target as usize, count as usize, None)
            }
        }
    }
}

impl Adapter for Spider {
    type Node = Node;
    type Step = Step;
    nodes_kept_whole!(Node);

    fn restart_nodes(&self) -> Option<u64> {
        Some(RESTART_NODES)
    }
    fn first_run_nodes(&self) -> Option<u64> {
        Some(FIRST_RUN_NODES)
    }
    fn staged_tries(&self) -> &[(usize, u64)] {
        &STAGED_TRIES
    }
    fn beam_tries(&self) -> &[(usize, usize, usize)] {
        &BEAM_TRIES
    }
    fn beam_patience(&self) -> usize {
        BEAM_PATIENCE
    }
    fn first_share(&self) -> f64 {
        FIRST_SHARE
    }
    fn first_nodes(&self) -> Option<u64> {
        Some(FIRST_NODES)
    }

    fn children_on_entry(&self) -> bool {
        // A node is about 400 bytes and has about thirty children; the first run's path
        // goes thousands of levels deep (docs/solving.md, Spider, "In the core").
        !self.keep_children
    }

    fn child_into(&self, node: &Node, step: &Step, out: &mut Node) {
        out.clone_from(node);
        self.play_step(out, *step);
    }

    fn first_step(&self, canon: Key, steps: &[Child<Self>], restart: u32) -> usize {
        // While the stock holds cards, one of the restart + 1 first steps (chosen by the node's
        // fingerprint and the run number) goes first; once it is empty the order stays. The
        // node has cards in its stock exactly when a step deals or a child still has some.
        let stocked = steps.iter().any(|(step, child)| step.source == DEAL || child.stock_len > 0);
        if stocked {
            one_of_the_first(steps.len(), canon, restart, restart as usize + 1)
        } else {
            0
        }
    }

    fn score(&self, node: &Node) -> f64 {
        let piles: i32 = node.value.iter().map(|&value| i32::from(value)).sum();
        f64::from(SUIT_REMOVED_WEIGHT * node.found_len as i32 + piles)
    }

    fn stage(&self, node: &Node) -> i64 {
        // Only a deal changes the stock: the staged search chooses the positions to deal from.
        i64::from(node.stock_len)
    }

    fn canonical(&self, node: &Node) -> Key {
        // The removed suits as a multiset (which foundation a suit went to changes nothing);
        // the piles in place while the stock holds cards (a deal puts a card on each pile by
        // position), as a multiset once it is empty.
        let found = node.sorted_found();
        if node.stock_len > 0 {
            node.key_of(node.placed(), &found, 1)
        } else {
            let mut piles: Key = 0;
            for hash in &node.hash {
                piles = piles.wrapping_add(*hash);
            }
            node.key_of(piles, &found, 2)
        }
    }

    fn path_key(&self, node: &Node) -> Key {
        node.key_of(node.placed(), &node.found_bytes(), 0)
    }

    fn won(&self, node: &Node) -> bool {
        node.found_len == 8
    }

    fn moves(&self, node: &Node, step: &Step) -> Vec<Move> {
        match *step {
            Step { source: DEAL, .. } => vec![Move::act("stock")],
            Step { source, target: REMOVE, .. } => vec![Move::cards(
                TABLEAU[source as usize],
                FOUNDATIONS[node.found_len as usize],
                SUIT_LENGTH as u32,
            )],
            Step { source, target, count } => {
                vec![Move::cards(TABLEAU[source as usize], TABLEAU[target as usize], count as u32)]
            }
        }
    }

    fn steps(&self, node: &Node, _dominance: bool, out: &mut Vec<Child<Self>>) {
        // Spider has no dominance: every group move is listed (docs/solving.md, Spider, rule 3),
        // in the order of promise of the Python adapter.
        let interchangeable = node.stock_len == 0;
        let mut spaces = [0u8; WIDTH];
        let mut space_count = 0;
        for index in 0..WIDTH {
            if node.len(index) == 0 {
                spaces[space_count] = index as u8;
                space_count += 1;
            }
        }
        let any_space = space_count > 0;
        if interchangeable {
            // With the stock empty the piles are interchangeable: one space stands for all.
            space_count = space_count.min(1);
        }
        // (rank, tie, step), sorted stably: the order of listing breaks the last ties.
        let mut ranked: Vec<(i8, i8, Step)> = Vec::with_capacity(64);
        if !self.auto_remove && node.found_len < 8 {
            for source in 0..WIDTH {
                if complete(node.pile(source), node.up(source)) {
                    let step = Step { source: source as u8, target: REMOVE, count: 13 };
                    ranked.push((REMOVE_RANK, 0, step));
                }
            }
        }
        let tops: [u8; WIDTH] = std::array::from_fn(|index| node.top(index).unwrap_or(255));
        for source in 0..WIDTH {
            let pile = node.pile(source);
            let up = node.up(source);
            let run = run_length(pile, up);
            if run == 0 {
                continue;
            }
            let top = tops[source];
            let down = node.down[source];
            let hidden = -(down as i8);
            for (target, &onto) in tops.iter().enumerate() {
                if target == source || onto == 255 {
                    continue;
                }
                let count = (onto % 13) as i32 - (top % 13) as i32;
                if count < 1 || count as usize > run {
                    continue;
                }
                let count = count as usize;
                let base = pile[pile.len() - count];
                let uncovers = count == up && down > 0;
                let empties = count == pile.len();
                let rank = if onto == base + 1 {
                    // Building in suit a part of a run moves it from one copy of a card onto
                    // the other (the card under the group continues it): the tops stay.
                    if uncovers || empties {
                        0
                    } else if count == run {
                        1
                    } else {
                        LATERAL_RANK
                    }
                } else if uncovers || empties {
                    2
                } else if count == run {
                    4
                } else {
                    5
                };
                let step = Step { source: source as u8, target: target as u8, count: count as u8 };
                ranked.push((rank, hidden, step));
            }
            for &target in &spaces[..space_count] {
                for count in 1..=run {
                    if interchangeable && count == pile.len() {
                        // A whole pile into a space: the same piles, sorted.
                        continue;
                    }
                    let uncovers = count == up && down > 0;
                    let rank = if uncovers { 6 } else { 7 };
                    let step = Step { source: source as u8, target, count: count as u8 };
                    ranked.push((rank, -(count as i8), step));
                }
            }
        }
        if node.stock_len > 0 && (!any_space || node.tableau_cards() < WIDTH) {
            // Dealing comes after building off suit a whole run (its ties sort before it).
            ranked.push((DEAL_RANK, 0, Step { source: DEAL, target: 0, count: 0 }));
        }
        ranked.sort_by_key(|&(rank, tie, _)| (rank, tie));
        out.reserve(ranked.len());
        for &(_, _, step) in &ranked {
            // Made in its place in `out`: a node is not small, moves cost.
            out.push((step, node.clone()));
            let child = &mut out.last_mut().expect("a child").1;
            self.play_step(child, step);
        }
    }
}

// -- the engine's rules, for the differential tests ----------------------------------------------

impl Spider {
    /// How many copies of each face the game holds (0 for a suit not in play).
    fn copies(&self, face: u8) -> usize {
        let suit = face / 13;
        match self.suits {
            4 => 2,
            2 if suit >= 2 => 4,
            1 if suit == 3 => 8,
            _ => 0,
        }
    }

    /// The engine's state parts of a node.
    pub fn to_parts(&self, node: &Node) -> Parts {
        let mut piles = vec![Vec::new(); PILES.len()];
        let mut down = vec![0u32; PILES.len()];
        piles[0] = node.stock[..node.stock_len as usize].to_vec();
        down[0] = node.stock_len as u32;
        for place in 0..node.found_len as usize {
            let suit = node.found[place];
            piles[P_F0 + place] = (0..13).rev().map(|rank| suit * 13 + rank).collect();
        }
        for index in 0..WIDTH {
            piles[P_T0 + index] = node.pile(index).to_vec();
            down[P_T0 + index] = node.down[index] as u32;
        }
        Parts { piles, down, extra: Vec::new() }
    }

    /// A node from the engine's state parts (cards as faces); an error for a position the core
    /// cannot hold.
    pub fn from_parts(&self, parts: &Parts) -> Result<Node, String> {
        if parts.piles.len() != PILES.len() || parts.down.len() != PILES.len() {
            return Err(format!("a spider position has the {} piles {PILES:?}", PILES.len()));
        }
        let mut count = [0usize; 52];
        for pile in &parts.piles {
            for &card in pile {
                if card >= 52 {
                    return Err(format!("a spider card crosses as its face (0-51), not {card}"));
                }
                count[card as usize] += 1;
            }
        }
        if (0..52u8).any(|face| count[face as usize] != self.copies(face)) {
            return Err(format!(
                "a spider position with suits={} holds {} copies of each card in play",
                self.suits,
                8 / self.suits
            ));
        }
        let stock = &parts.piles[0];
        if parts.down[0] as usize != stock.len() {
            return Err("the stock lies face down".into());
        }
        let full = CARDS - self.layout as usize;
        // Deals of ten from the full stock, and with layout 50 a last deal of four.
        if stock.len() > full || !((full - stock.len()).is_multiple_of(10) || stock.is_empty()) {
            return Err(format!(
                "a stock of {} cards cannot happen with layout={}",
                stock.len(),
                self.layout
            ));
        }
        let mut node = Node {
            cards: [0; CARDS],
            start: [0; WIDTH + 1],
            down: [0; WIDTH],
            hash: [0; WIDTH],
            value: [0; WIDTH],
            stock: [0; STOCK],
            stock_len: stock.len() as u8,
            stock_hash: 0,
            found: [0; 8],
            found_len: 0,
        };
        node.stock[..stock.len()].copy_from_slice(stock);
        node.rehash_stock();
        let mut ended = false;
        for (place, name) in FOUNDATIONS.iter().enumerate() {
            let pile = &parts.piles[P_F0 + place];
            if parts.down[P_F0 + place] != 0 {
                return Err(format!("the {name} pile lies face up"));
            }
            if pile.is_empty() {
                ended = true;
                continue;
            }
            if ended {
                return Err("removed suits fill the foundations in order, from f1".into());
            }
            if pile.len() != SUIT_LENGTH || !complete(pile, pile.len()) {
                return Err(format!("{name} must hold one complete suit, K at the bottom to A"));
            }
            node.found[place] = pile[0] / 13;
            node.found_len += 1;
        }
        let mut at = 0usize;
        for (index, name) in TABLEAU.iter().enumerate() {
            let pile = &parts.piles[P_T0 + index];
            let down = parts.down[P_T0 + index] as usize;
            if !pile.is_empty() && down >= pile.len() {
                return Err(format!("the top card of {name} must be face up"));
            }
            if down > self.starting_down(index) as usize {
                return Err(format!(
                    "{name} has {down} face-down cards; with layout={} it never has more than {}",
                    self.layout,
                    self.starting_down(index)
                ));
            }
            if self.auto_remove && complete(pile, pile.len() - down) {
                return Err(format!(
                    "{name} has a complete suit on top, which auto_remove=on would have removed"
                ));
            }
            node.cards[at..at + pile.len()].copy_from_slice(pile);
            at += pile.len();
            node.start[index + 1] = at as u8;
            node.down[index] = down as u8;
        }
        for index in 0..WIDTH {
            node.rehash(index);
        }
        Ok(node)
    }

    /// Every move the engine's `candidate_moves` lists, in its order.
    pub fn candidate_moves(&self, node: &Node) -> Vec<Move> {
        let mut moves = Vec::new();
        let runs: [usize; WIDTH] =
            std::array::from_fn(|index| run_length(node.pile(index), node.up(index)));
        if !self.auto_remove && node.found_len < 8 {
            for (index, &run) in runs.iter().enumerate() {
                if run >= SUIT_LENGTH && node.top(index).is_some_and(|card| card % 13 == 0) {
                    let target = FOUNDATIONS[node.found_len as usize];
                    moves.push(Move::cards(TABLEAU[index], target, SUIT_LENGTH as u32));
                }
            }
        }
        for (source, &run) in runs.iter().enumerate() {
            if run == 0 {
                continue;
            }
            let top = node.top(source).expect("a card") % 13;
            for (target, name) in TABLEAU.iter().enumerate() {
                if target == source {
                    continue;
                }
                match node.top(target) {
                    Some(onto) => {
                        let count = (onto % 13) as i32 - top as i32;
                        if count >= 1 && count as usize <= run {
                            moves.push(Move::cards(TABLEAU[source], name, count as u32));
                        }
                    }
                    None => {
                        for count in 1..=run {
                            moves.push(Move::cards(TABLEAU[source], name, count as u32));
                        }
                    }
                }
            }
        }
        if node.stock_len > 0 && node.deal_allowed() {
            moves.push(Move::act("stock"));
        }
        moves
    }

    /// The node after one of [`Spider::candidate_moves`] and the forced moves that followed.
    pub fn apply(&self, node: &Node, mv: &Move) -> Result<(Node, Vec<Move>), String> {
        if !self.candidate_moves(node).contains(mv) {
            return Err(format!("{mv} is not a legal move here"));
        }
        let mut after = node.clone();
        let mut forced = Vec::new();
        match mv {
            Move::Act { .. } => self.deal(&mut after, Some(&mut forced)),
            Move::Cards { from, to, count } => {
                let source = TABLEAU.iter().position(|name| name == from).expect("a pile");
                match TABLEAU.iter().position(|name| name == to) {
                    Some(target) => self.move_cards(
                        &mut after,
                        source,
                        target,
                        *count as usize,
                        Some(&mut forced),
                    ),
                    None => {
                        // The player's removal: the move itself is not a forced one, the card
                        // it uncovers turns up by itself.
                        let mut run = [0u8; SUIT_LENGTH];
                        after.take(source, SUIT_LENGTH, &mut run);
                        after.found[after.found_len as usize] = run[SUIT_LENGTH - 1] / 13;
                        after.found_len += 1;
                        after.turn_up(source, &mut Some(&mut forced));
                        after.rehash(source);
                    }
                }
            }
        }
        Ok((after, forced))
    }
}

game_from_inherent!(Spider, "spider");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{depth_first, Budget, Verdict};

    use crate::options::options;

    /// One-suit Spider one move from a win: seven suits removed, K-2 of spades on t1 and the
    /// ace on t2, all face up.
    fn almost_won() -> Parts {
        let mut piles = vec![Vec::new(); PILES.len()];
        for place in 0..7 {
            piles[P_F0 + place] = (39..52).rev().collect();
        }
        piles[P_T0] = (40..52).rev().collect();
        piles[P_T0 + 1] = vec![39];
        Parts { piles, down: vec![0; PILES.len()], extra: Vec::new() }
    }

    fn one_suit(auto_remove: &str) -> Spider {
        Spider::new(&options(&[("suits", "1"), ("auto_remove", auto_remove)])).unwrap()
    }

    /// A deal of `game` by a small generator: the packs shuffled, fifty cards in ten piles
    /// of five (four face down), the rest in the stock.
    fn random_deal(game: &Spider, seed: u64) -> Node {
        let mut cards: Vec<u8> = (0..52u8).flat_map(|face| vec![face; game.copies(face)]).collect();
        let mut next = crate::testing::xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        for index in (1..cards.len()).rev() {
            cards.swap(index, next(index as u64 + 1) as usize);
        }
        let mut piles = vec![Vec::new(); PILES.len()];
        let mut down = vec![0u32; PILES.len()];
        piles[0] = cards.split_off(50);
        down[0] = piles[0].len() as u32;
        for (index, chunk) in cards.chunks(5).enumerate() {
            piles[P_T0 + index] = chunk.to_vec();
            down[P_T0 + index] = 4;
        }
        game.from_parts(&Parts { piles, down, extra: Vec::new() }).unwrap()
    }

    /// Children made on entry, or kept on the path: the same search, node for node, with the
    /// same answer and the same moves (restarts, with their first steps, included).
    #[test]
    fn children_made_on_entry_search_as_children_kept() {
        for suits in ["1", "2", "4"] {
            let game = Spider::new(&options(&[("suits", suits)])).unwrap();
            let kept = Spider { keep_children: true, ..game.clone() };
            assert!(game.children_on_entry() && !kept.children_on_entry());
            let budget =
                Budget { seconds: None, nodes: Some(40_000), max_states: 1 << 20, cpu_time: true };
            let mut answers = Vec::new();
            for seed in 1..=8 {
                let node = random_deal(&game, seed);
                let made = depth_first(&game, &node, budget, &[], true, true, &mut || false);
                let held = depth_first(&kept, &node, budget, &[], true, true, &mut || false);
                assert_eq!(made.verdict, held.verdict, "suits {suits}, deal {seed}");
                assert_eq!(made.nodes, held.nodes, "suits {suits}, deal {seed}");
                assert_eq!(made.moves, held.moves, "suits {suits}, deal {seed}");
                answers.push(made.verdict);
            }
            if suits != "4" {
                assert!(answers.contains(&Verdict::Won), "suits {suits}: some deal is won");
            }
        }
    }

    #[test]
    fn parts_round_trip() {
        let game = one_suit("1");
        let parts = almost_won();
        let node = game.from_parts(&parts).unwrap();
        assert_eq!(game.to_parts(&node), parts);
    }

    #[test]
    fn a_completed_suit_is_removed_by_itself_and_wins() {
        let game = one_suit("1");
        let node = game.from_parts(&almost_won()).unwrap();
        let (after, forced) = game.apply(&node, &Move::cards("t2", "t1", 1)).unwrap();
        assert_eq!(forced, vec![Move::cards("t1", "f8", 13)]);
        assert!(game.won(&after));
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1000, cpu_time: false };
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
        assert_eq!(found.moves, vec![Move::cards("t2", "t1", 1)]);
    }

    #[test]
    fn with_auto_remove_off_the_player_removes_the_suit() {
        let game = one_suit("0");
        let node = game.from_parts(&almost_won()).unwrap();
        let (after, forced) = game.apply(&node, &Move::cards("t2", "t1", 1)).unwrap();
        assert!(forced.is_empty());
        assert!(!game.won(&after));
        assert_eq!(game.candidate_moves(&after)[0], Move::cards("t1", "f8", 13));
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1000, cpu_time: false };
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
        assert_eq!(found.moves, vec![Move::cards("t2", "t1", 1), Move::cards("t1", "f8", 13)]);
    }

    #[test]
    fn the_stock_deals_one_card_a_pile_and_turns_nothing() {
        let game = Spider::new(&options(&[("suits", "1"), ("layout", "54")])).unwrap();
        let mut parts = almost_won();
        // Ten spades of the last suit in the stock: three cards on the tableau, too few to
        // fill the piles, so the deal is allowed with spaces.
        parts.piles[P_T0] = vec![51, 50];
        parts.piles[P_T0 + 1] = vec![39];
        parts.piles[0] = (40..50).collect();
        parts.down[0] = 10;
        let node = game.from_parts(&parts).unwrap();
        assert_eq!(game.candidate_moves(&node).last(), Some(&Move::act("stock")));
        let (after, _) = game.apply(&node, &Move::act("stock")).unwrap();
        let back = game.to_parts(&after);
        assert!(back.piles[0].is_empty());
        assert_eq!(back.piles[P_T0], vec![51, 50, 49]);
        assert_eq!(back.piles[P_T0 + 9], vec![40]);
    }

    #[test]
    fn the_removed_suits_sort_as_bytes_do() {
        // Every sequence of up to eight suits: the counted form equals a byte sort, padded.
        let mut node = one_suit("1").from_parts(&almost_won()).unwrap();
        for length in 0..=8u32 {
            for code in 0..4u32.pow(length) {
                let mut found = [255u8; 8];
                for (place, slot) in found.iter_mut().take(length as usize).enumerate() {
                    *slot = (code / 4u32.pow(place as u32) % 4) as u8;
                }
                node.found = found;
                node.found_len = length as u8;
                found[..length as usize].sort_unstable();
                assert_eq!(node.sorted_found(), found);
            }
        }
    }

    #[test]
    fn bad_positions_are_refused() {
        let game = one_suit("1");
        let mut parts = almost_won();
        parts.piles[P_T0 + 1].push(39);
        assert!(game.from_parts(&parts).unwrap_err().contains("copies"));
        let mut parts = almost_won();
        parts.piles[P_T0].push(39);
        parts.piles[P_T0 + 1].clear();
        assert!(game.from_parts(&parts).unwrap_err().contains("complete suit on top"));
        assert!(one_suit("0").from_parts(&parts).is_ok());
        assert!(Spider::new(&options(&[("suits", "3")])).is_err());
        assert!(Spider::new(&options(&[("layout", "52")])).is_err());
    }
}
