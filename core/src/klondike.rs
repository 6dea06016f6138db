//! Klondike in the core: a compact state, the engine's moves (for the differential tests) and
//! the solver's adapter, rule for rule as `patience/solve/klondike.py` (docs/solving.md,
//! "Klondike").
//!
//! A node keeps the tableau as one array of cards (pile by pile, bottom first) with each pile's
//! length and face-down count, the foundations as heights by suit (with the foundation each suit
//! went to, for the notation), and the stock and waste as one sequence `order` (the waste bottom
//! first, then the stock top first) with `w` cards of it on the waste.

use crate::game::game_from_inherent;
use crate::key::{fingerprint, fingerprint_words, Key};
use crate::moves::{card_text, Arg, Move, Parts};
use crate::options::Options;
use crate::search::{one_of_the_first, Adapter, Child};
use crate::table::{Memo, Table};

/// Pile names in the engine's order (`Klondike.pile_names`).
pub const PILES: [&str; 13] =
    ["stock", "waste", "f1", "f2", "f3", "f4", "t1", "t2", "t3", "t4", "t5", "t6", "t7"];
const WASTE: u8 = 1;
const F0: u8 = 2;
const T0: u8 = 6;
/// [`Node::cover`] of a search's root, and of a node made by a step that covered no card.
const ROOT: u8 = 53;
const NO_COVER: u8 = 52;
const KING: u8 = 13;

#[inline]
fn rank(card: u8) -> u8 {
    card % 13 + 1
}
#[inline]
fn suit(card: u8) -> u8 {
    card / 13
}
#[inline]
fn red(card: u8) -> bool {
    matches!(card / 13, 1 | 2)
}
/// The other card of the same rank and colour.
#[inline]
fn twin(card: u8) -> u8 {
    TWIN[card as usize]
}

/// Each card's twin (a table: rule 13 asks for twins at every child).
const TWIN: [u8; 52] = {
    let mut table = [0u8; 52];
    let mut card = 0;
    while card < 52 {
        table[card] = PARTNER[card / 13] * 13 + (card % 13) as u8;
        card += 1;
    }
    table
};

#[inline]
fn bit(card: u8) -> u64 {
    1u64 << card
}

/// For each suit: the two suits of the other colour, and the other suit of the same colour.
const OPPOSITE: [[u8; 2]; 4] = [[1, 2], [0, 3], [0, 3], [1, 2]];

/// The four kings, as a mask of cards.
const KINGS: u64 = 1 << 12 | 1 << 25 | 1 << 38 | 1 << 51;

/// Each card's two possible hosts (the cards of the next rank in the other colour, in the
/// order of [`OPPOSITE`]); a king's are none (0, unused).
const HOSTS: [[u8; 2]; 52] = {
    let mut hosts = [[0u8; 2]; 52];
    let mut card = 0;
    while card < 52 {
        let (s, r) = (card / 13, card % 13 + 1);
        if r < 13 {
            hosts[card] = [OPPOSITE[s][0] * 13 + r as u8, OPPOSITE[s][1] * 13 + r as u8];
        }
        card += 1;
    }
    hosts
};
const PARTNER: [u8; 4] = [3, 2, 1, 0];

/// Klondike's options (RULES.md).
#[derive(Clone, Debug)]
pub struct Klondike {
    pub draw: u8,
    /// None: unlimited passes.
    pub passes: Option<u32>,
    pub from_foundation: bool,
    /// Twin switches (docs/solving.md, "Klondike", rule 13): positions that differ only by
    /// which of two twins carries the cards on them are one state. Set by the search: on with
    /// the dominance rules, from a position without past positions (the plain search of the
    /// tests, and the searches of games in progress, keep every position apart).
    pub classes: bool,
    /// Rule 12's answers by layout (see [`LockCache`]).
    locks: LockCache,
}

/// Rule 12's answers of the search by layout (docs/solving.md, rule 12, "Answers kept by
/// layout"): the test reads only the piles (not their places), the stock and waste cards and
/// the foundations, never the waste's size, and the search meets one layout at many waste
/// sizes and by many paths. A kept "lock" is a whole fixed point's; a kept "no lock" is the
/// whole test's answer wherever the search asks, and could otherwise only leave a position
/// unpruned. Empty in a clone: an adapter with other options must not read another's answers.
/// (A cell: each search has its own adapter, moved into the search's thread.)
struct LockCache(std::cell::RefCell<Memo>);

impl LockCache {
    fn new() -> Self {
        LockCache(std::cell::RefCell::new(Memo::new()))
    }

    fn get(&self, key: Key) -> Option<bool> {
        self.0.borrow_mut().get(key).map(|locked| locked == 1)
    }

    fn put(&self, key: Key, locked: bool) {
        self.0.borrow_mut().put(key, locked as u32);
    }

    fn prefetch(&self, key: Key) {
        self.0.borrow().prefetch(key);
    }
}

impl Clone for LockCache {
    fn clone(&self) -> Self {
        LockCache::new()
    }
}

impl std::fmt::Debug for LockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LockCache")
    }
}

impl Klondike {
    pub fn new(options: &Options) -> Result<Self, String> {
        let draw = options.int("draw", 3)?;
        if draw != 1 && draw != 3 {
            return Err(format!("klondike: draw is 1 or 3, not {draw}"));
        }
        Ok(Klondike {
            draw: draw as u8,
            passes: options.passes("passes")?,
            from_foundation: options.flag("from_foundation", true)?,
            classes: true,
            locks: LockCache::new(),
        })
    }
}

/// A Klondike state as the core holds it (plain bytes and numbers: a copy is one block copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    cards: [u8; 52],
    len: [u8; 7],
    /// Where each pile starts in `cards` (`start[7]`: the tableau's card count).
    start: [u8; 8],
    down: [u8; 7],
    /// Each pile's fingerprint (face-down count, length, cards): the keys are made of these,
    /// and a step recomputes only those of the piles it changes.
    hash: [Key; 7],
    /// The sum of the piles' fingerprints (the canonical key's multiset of piles), and their
    /// sum weighted by each place's constant (the engine's key), kept as the fingerprints
    /// change so that no key adds up the seven piles again.
    sum: Key,
    placed: Key,
    /// The face-up tableau cards with a card on them (rule 13 looks for its hosts here).
    covered: u64,
    /// The pile tops (rule 13 reads their twins).
    tops: u64,
    found: [u8; 4],
    /// The foundation (0-3) each suit went to, or -1.
    fmap: [i8; 4],
    order: [u8; 52],
    olen: u8,
    /// The fingerprint of `order` (recomputed when a card leaves it).
    order_hash: Key,
    w: u8,
    redeals: u32,
    /// Moves made since the search's root (stock turns included): the best-first search's cost
    /// so far. Not part of any key.
    made: u16,
    /// The card the step that made this node put onto a tableau card or into a space
    /// ([`ROOT`]: made from an engine state, a search's root; [`NO_COVER`]: a step that
    /// covered no card). Rule 12 is tested where it can find a lock the parent had not
    /// ([`Klondike::new_lock`]).
    cover: u8,
    /// Settled by rule 13 (its class's representative): its table key needs no flips.
    settled: bool,
}

/// A node as the staged search keeps it: what [`Node`] holds less what is made again from
/// it (where each pile starts, the fingerprints and their sums, the tops and the covered
/// cards), 136 bytes instead of 336.
#[derive(Clone, Copy, Debug)]
pub struct Packed {
    cards: [u8; 52],
    len: [u8; 7],
    down: [u8; 7],
    found: [u8; 4],
    fmap: [i8; 4],
    order: [u8; 52],
    olen: u8,
    w: u8,
    made: u16,
    redeals: u32,
    cover: u8,
    settled: bool,
}

impl Packed {
    fn of(node: &Node) -> Self {
        Packed {
            cards: node.cards,
            len: node.len,
            down: node.down,
            found: node.found,
            fmap: node.fmap,
            order: node.order,
            olen: node.olen,
            w: node.w,
            made: node.made,
            redeals: node.redeals,
            cover: node.cover,
            settled: node.settled,
        }
    }

    /// The node, its fingerprints and masks made again, into `out`.
    fn unpack_into(&self, out: &mut Node) {
        *out = Node {
            cards: self.cards,
            len: self.len,
            start: [0; 8],
            down: self.down,
            hash: [0; 7],
            sum: 0,
            placed: 0,
            covered: 0,
            tops: 0,
            found: self.found,
            fmap: self.fmap,
            order: self.order,
            olen: self.olen,
            order_hash: 0,
            w: self.w,
            redeals: self.redeals,
            made: self.made,
            cover: self.cover,
            settled: self.settled,
        };
        out.derive();
    }
}

/// Odd multipliers that make a sum of pile fingerprints depend on which pile is where.
const PLACE: [Key; 7] = [
    0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835,
    0xc2b2_ae3d_27d4_eb4f_1656_67b1_9e37_79f9,
    0x85eb_ca77_c2b2_ae63_27d4_eb2f_1656_67c5,
    0xd6e8_feb8_6659_fd93_a076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db_8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3_1d8e_4e27_c47d_124f,
    0xa0b4_28db_e703_7ed1_9c88_c6e3_8ebc_6af1,
];

impl Node {
    #[inline]
    fn pile(&self, index: usize) -> &[u8] {
        &self.cards[self.start[index] as usize..self.start[index + 1] as usize]
    }
    #[inline]
    fn top(&self, index: usize) -> Option<u8> {
        self.pile(index).last().copied()
    }
    /// Recompute the starts, and the fingerprint of pile `index`.
    fn refresh(&mut self, index: usize) {
        self.restart();
        self.rehash(index);
    }
    /// Recompute where each pile starts from the lengths.
    #[inline]
    fn restart(&mut self) {
        for pile in 0..7 {
            self.start[pile + 1] = self.start[pile] + self.len[pile];
        }
    }
    /// Recompute the fingerprint of pile `index` (the starts must be right), and the sums.
    #[inline]
    fn rehash(&mut self, index: usize) {
        let mut bytes = [0u8; 54];
        let length = self.len[index] as usize;
        bytes[0] = self.down[index];
        bytes[1] = self.len[index];
        bytes[2..2 + length].copy_from_slice(self.pile(index));
        let new = fingerprint(&bytes[..2 + length]);
        let change = new.wrapping_sub(self.hash[index]);
        self.hash[index] = new;
        self.sum = self.sum.wrapping_add(change);
        self.placed = self.placed.wrapping_add(change.wrapping_mul(PLACE[index]));
    }
    /// Turn up the top card of pile `index` if the cards left are all face down.
    #[inline]
    fn turn_up(&mut self, index: usize) {
        let rest = self.len[index];
        if rest > 0 && self.down[index] >= rest {
            self.down[index] = rest - 1;
        }
    }
    /// Take the top `count` cards of pile `index` (turning up a face-down card left on top).
    fn take(&mut self, index: usize, count: usize, run: &mut [u8; 52]) {
        let end = self.start[index + 1] as usize;
        let total = self.start[7] as usize;
        run[..count].copy_from_slice(&self.cards[end - count..end]);
        self.tops &= !bit(self.cards[end - 1]);
        self.cards.copy_within(end..total, end - count);
        self.len[index] -= count as u8;
        if let Some(top) = self.cards[..end - count].last().filter(|_| self.len[index] > 0) {
            self.covered &= !bit(*top);
            self.tops |= bit(*top);
        }
        self.turn_up(index);
        self.refresh(index);
    }
    /// Put `run` on top of pile `index`.
    fn put(&mut self, index: usize, run: &[u8]) {
        if let Some(top) = self.top(index) {
            self.covered |= bit(top);
            self.tops &= !bit(top);
        }
        if let Some(&top) = run.last() {
            self.tops |= bit(top);
        }
        let end = self.start[index + 1] as usize;
        let total = self.start[7] as usize;
        self.cards.copy_within(end..total, end + run.len());
        self.cards[end..end + run.len()].copy_from_slice(run);
        self.len[index] += run.len() as u8;
        self.refresh(index);
    }
    /// Move the top `count` cards of pile `source` onto pile `target` (turning up a face-down
    /// card left on top): `take` and `put` in one pass over the cards between the two piles.
    fn shift(&mut self, source: usize, target: usize, count: usize) {
        let from = self.start[source + 1] as usize;
        let to = self.start[target + 1] as usize;
        // (The run's top stays a pile top.)
        if let Some(top) = self.top(target) {
            self.covered |= bit(top);
            self.tops &= !bit(top);
        }
        if self.len[source] as usize > count {
            self.covered &= !bit(self.cards[from - count - 1]);
            self.tops |= bit(self.cards[from - count - 1]);
        }
        if source < target {
            // The run and the piles between: the run goes to the end, the piles down.
            self.cards[from - count..to].rotate_left(count);
        } else {
            self.cards[to..from].rotate_right(count);
        }
        self.len[source] -= count as u8;
        self.len[target] += count as u8;
        self.turn_up(source);
        self.restart();
        self.rehash(source);
        self.rehash(target);
    }
    fn remove_order(&mut self, at: usize) {
        let olen = self.olen as usize;
        self.order.copy_within(at + 1..olen, at);
        self.olen -= 1;
        self.rehash_order();
    }
    /// Make what the node keeps besides its cards from them: where each pile starts, the
    /// fingerprints and their sums, the pile tops and covered cards (all zero before).
    fn derive(&mut self) {
        self.restart();
        for index in 0..7 {
            // From zero fingerprints and sums, each rehash adds its pile's share.
            self.rehash(index);
            let pile = self.pile(index);
            if let Some((&top, under)) = pile.split_last() {
                let face_up = under.iter().skip(self.down[index] as usize);
                let covered = face_up.fold(0, |mask, &card| mask | bit(card));
                self.tops |= bit(top);
                self.covered |= covered;
            }
        }
        self.rehash_order();
    }
    fn rehash_order(&mut self) {
        let mut bytes = [0u8; 53];
        let olen = self.olen as usize;
        bytes[0] = self.olen;
        bytes[1..1 + olen].copy_from_slice(&self.order[..olen]);
        self.order_hash = fingerprint(&bytes[..1 + olen]);
    }
    /// The layout as words (everything of the engine's key but the waste size, which goes in
    /// the last word): the piles in their places, the stock and waste, the foundations and
    /// which suit is where. Hashed from words, not bytes written to memory and read back
    /// (see [`fingerprint_words`]).
    #[inline]
    fn layout_words(&self, waste: u8) -> [u64; 6] {
        let fmap = u32::from_le_bytes(self.fmap.map(|f| (f + 1) as u8));
        [
            self.placed as u64,
            (self.placed >> 64) as u64,
            self.order_hash as u64,
            (self.order_hash >> 64) as u64,
            u64::from(u32::from_le_bytes(self.found)) | u64::from(fmap) << 32,
            u64::from(waste),
        ]
    }
    /// The cards of foundation `index` (0-3), bottom first.
    fn foundation_suit(&self, index: usize) -> Option<u8> {
        (0..4u8).find(|&s| self.fmap[s as usize] == index as i8 && self.found[s as usize] > 0)
    }
}

/// One step: an engine card move, after `pre` stock turns, a recycle, and `post` more turns.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    from: u8,
    to: u8,
    count: u8,
    pre: u8,
    recycle: bool,
    post: u8,
    /// A flip before the step (rule 13): `flip` cards from pile `flip_from` onto pile
    /// `flip_to` (0: none).
    flip: u8,
    flip_from: u8,
    flip_to: u8,
    /// Flips after the step that bring its child to its class's representative (rule 13).
    settle: u8,
}

impl Step {
    fn plain(from: u8, to: u8, count: u8) -> Self {
        Step {
            from,
            to,
            count,
            pre: 0,
            recycle: false,
            post: 0,
            flip: 0,
            flip_from: 0,
            flip_to: 0,
            settle: 0,
        }
    }
}

/// A waste size the stock can reach: the size, how (turns, recycle, turns), passes then used.
#[derive(Clone, Copy)]
struct Reach {
    size: u8,
    pre: u8,
    recycle: bool,
    post: u8,
    redeals: u32,
}

/// Which piles take each card: up to two pile tops, or the first space for a king.
struct Targets {
    piles: [[u8; 2]; 52],
    count: [u8; 52],
}

impl Targets {
    fn of(&self, card: u8) -> &[u8] {
        &self.piles[card as usize][..self.count[card as usize] as usize]
    }
}

/// A twin switch (rule 13): `card` lies face up on `host` in pile `pile`, with `count` cards
/// from it up, and the twin of `host` is the top of pile `free`.
#[derive(Clone, Copy, Default)]
struct Switch {
    pile: u8,
    count: u8,
    free: u8,
    host: u8,
    card: u8,
}

impl Switch {
    /// The node with the switch flipped: the cards from `card` up onto the twin.
    fn flipped(&self, node: &Node) -> Node {
        let mut copy = *node;
        copy.shift(self.pile as usize, self.free as usize, self.count as usize);
        copy
    }

    /// Mark the step just pushed (made from the flipped node) as made after this flip.
    fn mark(&self, out: &mut [Child<Klondike>]) {
        let (step, child) = out.last_mut().expect("a step was just pushed");
        step.flip = self.count;
        step.flip_from = self.pile;
        step.flip_to = self.free;
        child.made = child.made.saturating_add(1);
    }
}

impl Klondike {
    /// A lower bound of sorts on the moves still needed: every card off the foundations moves
    /// at least once, every face-down card is turned, the stock is turned, and a card over a
    /// lower card of its suit (in a pile's face-down part or in the waste) moves once more.
    fn moves_left(&self, node: &Node) -> u32 {
        let stock = (node.olen - node.w) as u32;
        let mut moves = node.olen as u32 + stock.div_ceil(self.draw as u32);
        // One pass each, keeping the lowest card of each suit below (waste) or the highest
        // above (piles) so far.
        let mut lowest_below = [u8::MAX; 4];
        for &card in &node.order[..node.w as usize] {
            let s = suit(card) as usize;
            if lowest_below[s] < card {
                moves += 1;
            }
            lowest_below[s] = lowest_below[s].min(card);
        }
        for index in 0..7 {
            let pile = node.pile(index);
            let hidden = node.down[index] as usize;
            moves += (pile.len() + hidden) as u32;
            // The highest card of each suit above, plus one (0: none yet).
            let mut highest_above = [0u8; 4];
            for (at, &card) in pile.iter().enumerate().rev() {
                let s = suit(card) as usize;
                if at < hidden && highest_above[s] > card + 1 {
                    moves += 1;
                }
                highest_above[s] = highest_above[s].max(card + 1);
            }
        }
        moves
    }

    /// The twin switches of a node (rule 13), into `out`; how many. At most one for each rank
    /// and colour of the host, so 26 at most. With `to_flip`, only those whose cards lie on
    /// the higher-numbered twin (the ones the class's representative flips).
    fn switches(node: &Node, out: &mut [Switch; 26], to_flip: bool) -> usize {
        // The hosts wanted: covered twins of the pile tops (of the lower-numbered tops only).
        // Twins by suits: spades and clubs (0, 3), hearts and diamonds (1, 2); a card's twin
        // is the higher-numbered one for suits 0 and 1.
        const SUIT: u64 = (1 << 13) - 1;
        let tops = node.tops;
        let mut hosts = ((tops & SUIT) << 39) | ((tops & (SUIT << 13)) << 13);
        if !to_flip {
            hosts |= ((tops >> 39) & SUIT) | ((tops & (SUIT << 26)) >> 13);
        }
        hosts &= node.covered;
        if hosts == 0 {
            return 0;
        }
        // Each host where it lies (a covered card is face up under another), in the order of
        // the places: pile by pile, bottom up.
        let cards = &node.cards[..node.start[7] as usize];
        let mut places = [0u8; 26];
        let mut found = 0;
        let mut rest = hosts;
        while rest != 0 {
            let host = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            if let Some(at) = place_of(&node.cards, cards.len(), host) {
                places[found] = at as u8;
                found += 1;
            }
        }
        let places = &mut places[..found];
        places.sort_unstable();
        let mut count = 0;
        let mut index = 0;
        for &at in places.iter() {
            let at = at as usize;
            while node.start[index + 1] as usize <= at {
                index += 1;
            }
            let (first, end) = (node.start[index] as usize, node.start[index + 1] as usize);
            if at < first + node.down[index] as usize || at + 1 >= end {
                continue;
            }
            let host = cards[at];
            // The cards from the one on the host up must be a built run that fits the host
            // (always so in play; a position file need not hold to it).
            if alternating_run_length(&cards[at..end]) < end - at {
                continue;
            }
            let free = (0..7).find(|&j| node.top(j) == Some(twin(host))).expect("a top");
            out[count] = Switch {
                pile: index as u8,
                count: (end - at - 1) as u8,
                free: free as u8,
                host,
                card: cards[at + 1],
            };
            count += 1;
            if to_flip {
                return count;
            }
        }
        count
    }

    /// The representative of the node's class (rule 13): every switch with its cards on the
    /// lower-numbered twin; None when the node is the representative.
    fn representative(node: &Node) -> Option<Node> {
        let mut copy = *node;
        (Self::settle(&mut copy, None) > 0).then_some(copy)
    }

    /// The pile whose lowest face-up card is `card`, if any.
    fn base_pile(node: &Node, card: u8) -> Option<usize> {
        (0..7).find(|&index| {
            let hidden = node.down[index] as usize;
            node.pile(index).get(hidden) == Some(&card)
        })
    }

    /// The table key of one position (before rule 13 merges its class).
    fn key_of(&self, node: &Node) -> Key {
        // The piles as a multiset (they are interchangeable): the sum of their fingerprints.
        let mut w = node.w;
        // (`draw` is 1 or 3: a division by the constant 3 is a multiplication.)
        if self.passes.is_none() && (self.draw == 1 || w.is_multiple_of(3) || w == node.olen) {
            w = 255;
        }
        // The bytes: the sum, the stock and waste's fingerprint, the foundations, `w`.
        fingerprint_words::<37, 5>(&[
            node.sum as u64,
            (node.sum >> 64) as u64,
            node.order_hash as u64,
            (node.order_hash >> 64) as u64,
            u64::from(u32::from_le_bytes(node.found)) | u64::from(w) << 32,
        ])
    }

    fn passes_left(&self, redeals: u32) -> bool {
        self.passes.is_none_or(|passes| redeals + 1 < passes)
    }

    fn safe(&self, card: u8, found: &[u8; 4]) -> bool {
        let r = rank(card);
        if r <= 2 {
            return true;
        }
        let s = suit(card) as usize;
        let [first, second] = OPPOSITE[s];
        if found[first as usize] < r - 1 || found[second as usize] < r - 1 {
            return false;
        }
        !self.from_foundation || found[PARTNER[s] as usize] >= r - 2
    }

    /// The foundation (0-3) that takes `suit` next, and the suit map after it does.
    fn foundation_for(node: &Node, s: u8) -> (u8, [i8; 4]) {
        let index = node.fmap[s as usize];
        if index >= 0 {
            return (index as u8, node.fmap);
        }
        let free = (0..4i8).find(|i| !node.fmap.contains(i)).expect("a free foundation");
        let mut fmap = node.fmap;
        fmap[s as usize] = free;
        (free as u8, fmap)
    }

    /// Every waste size the stock can reach without repeating a position, into `out`; how many.
    fn reachable(&self, node: &Node, out: &mut [Reach; 112]) -> usize {
        let mut count = 0;
        let mut add = |reach: Reach| {
            out[count] = reach;
            count += 1;
        };
        let total = node.olen;
        let start = node.w;
        if start > 0 {
            add(Reach { size: start, pre: 0, recycle: false, post: 0, redeals: node.redeals });
        }
        let mut size = start;
        let mut pre = 0u8;
        while size < total {
            size = (size + self.draw).min(total);
            pre += 1;
            add(Reach { size, pre, recycle: false, post: 0, redeals: node.redeals });
        }
        if total > 0 && self.passes_left(node.redeals) {
            size = 0;
            let mut post = 0u8;
            while size != start {
                size = (size + self.draw).min(total);
                post += 1;
                if size == start || size == total {
                    break;
                }
                add(Reach { size, pre, recycle: true, post, redeals: node.redeals + 1 });
            }
        }
        count
    }

    /// The waste sizes after each action of `step`, from `w`.
    fn trail(&self, node: &Node, step: &Step, out: &mut Vec<u8>) {
        let mut size = node.w;
        for _ in 0..step.pre {
            size = (size + self.draw).min(node.olen);
            out.push(size);
        }
        if step.recycle {
            size = 0;
            out.push(size);
            for _ in 0..step.post {
                size = (size + self.draw).min(node.olen);
                out.push(size);
            }
        }
    }

    fn available(card: u8, found: &[u8; 4], faceup: u64, reachable: u64) -> bool {
        (faceup | reachable) & bit(card) != 0 || found[suit(card) as usize] > card % 13
    }

    fn split_useful(
        &self,
        node: &Node,
        source: usize,
        count: usize,
        tops: u64,
        faceup: u64,
        reachable: u64,
    ) -> bool {
        let found = &node.found;
        let pile = node.pile(source);
        let exposed = pile[pile.len() - count - 1];
        let (r, s) = (rank(exposed), suit(exposed));
        if found[s as usize] == r - 1 || r == KING {
            return true;
        }
        for other in OPPOSITE[s as usize] {
            let onto = other * 13 + r;
            if tops & bit(onto) != 0 || found[other as usize] > r {
                return true;
            }
        }
        let twin = PARTNER[suit(pile[pile.len() - count]) as usize] * 13 + r - 2;
        Self::available(twin, found, faceup, reachable)
    }

    /// Rule 12 where the search tests it (docs/solving.md, "Klondike", rule 12, "Where it is
    /// tested"): the whole test at a search's root, and at every node when cards stay on the
    /// foundations for good (a card going home shuts the ways onto it). Otherwise `node`'s
    /// parent had no lock, and a lock can appear only below a step that covered a card: it
    /// keeps the card `c` that the step put down in U or G (every way the step shut passes
    /// under `c`). So there is none when `c` can plainly move again (a card of the next rank
    /// in the other colour is a pile top or on its foundation, every lower card of its suit is
    /// on the foundation, or a king has another space), and the test stops as soon as `c`
    /// leaves U and G. Below the root, answers are kept by layout ([`LockCache`]).
    fn new_lock(&self, node: &Node) -> bool {
        if node.cover == ROOT {
            return self.deadlocked(node);
        }
        // (With `from_foundation` off, the whole test: no card is watched.)
        let (key, watched) = if self.from_foundation {
            match Self::lock_key(node) {
                Some(key) => (key, bit(node.cover)),
                None => return false,
            }
        } else {
            (Self::layout_of_lock(node), 0)
        };
        if let Some(locked) = self.locks.get(key) {
            return locked;
        }
        let locked = self.locked_with(node, true, watched);
        self.locks.put(key, locked);
        locked
    }

    /// The key of `node`'s layout in the kept answers of rule 12, when the search tests it
    /// there ([`Self::new_lock`] with `from_foundation`, below the root): none when the step
    /// that made it covered no card, or put down a card that can plainly move again.
    #[inline]
    fn lock_key(node: &Node) -> Option<Key> {
        let card = node.cover;
        if card >= NO_COVER {
            return None;
        }
        let (r, s) = (rank(card), suit(card));
        let plainly_free = if r == KING {
            node.len.contains(&0)
        } else {
            let found = &node.found;
            found[s as usize] == r - 1
                || HOSTS[card as usize]
                    .iter()
                    .any(|&host| found[suit(host) as usize] > r || node.tops & bit(host) != 0)
        };
        (!plainly_free).then(|| Self::layout_of_lock(node))
    }

    /// The layout as rule 12's test reads it: the piles as a multiset (the sum of their
    /// fingerprints), the stock and waste (its cards in the deal's order), the foundations.
    #[inline]
    fn layout_of_lock(node: &Node) -> Key {
        fingerprint_words::<36, 5>(&[
            node.sum as u64,
            (node.sum >> 64) as u64,
            node.order_hash as u64,
            (node.order_hash >> 64) as u64,
            u32::from_le_bytes(node.found) as u64,
        ])
    }

    fn king_waiting(&self, node: &Node, reachable: u64) -> bool {
        for index in 0..7 {
            let hidden = node.down[index] as usize;
            let pile = node.pile(index);
            if 0 < hidden && hidden < pile.len() && rank(pile[hidden]) == KING {
                return true;
            }
        }
        if (0..4).any(|s| reachable & bit(s * 13 + KING - 1) != 0) {
            return true;
        }
        self.from_foundation && node.found.contains(&KING)
    }

    fn descent_useful(&self, node: &Node, s: u8, tops: u64, faceup: u64, reachable: u64) -> bool {
        let found = &node.found;
        let r = found[s as usize];
        for other in OPPOSITE[s as usize] {
            if Self::available(other * 13 + r - 2, found, faceup, reachable) {
                return true;
            }
            // (The card of rank r on its foundation needs no test: the card under it, of rank
            // r - 1, is up too, which the first test counts.)
            let onto = other * 13 + r - 1;
            if tops & bit(onto) != 0 {
                return true;
            }
        }
        false
    }

    /// Whether some tableau cards can never move (docs/solving.md, "Klondike", rule 12 as
    /// the core has it from solver version 8): a set U of tableau cards none of which can be
    /// the first to move, beside a set V of stock and waste cards none of which can come into
    /// the tableau before a card of U moves. A tableau card is kept in U when it is face down
    /// under a card of U (it is turned up only once that card has moved), or when every
    /// face-up card under it is in U (so it can only move first as the bottom of the cards
    /// moved) and every way it could move (onto either card of the next rank in the other
    /// colour, a king into a space, or to its foundation) needs U or V: the card it goes
    /// onto lies under a card of U or is in V (it must come into the tableau first), or no
    /// space can be made (no pile is empty and every pile holds a card of U), or a lower card
    /// of its suit is in U or under a card of U. A stock or waste card is kept in V when
    /// every way into the tableau (the same, from the waste or a foundation) needs U or V.
    /// With a third set G (solver version 10): face-up cards on a face-up host none of which
    /// leaves its host first; a card leaves its host only as the lowest card moved, onto the
    /// host's twin or to its foundation, so it is kept in G while both ways need U, V or G. A
    /// card right under a card of G ("capped") is never a pile top, which shuts the ways
    /// through it as a card under a card of U does.
    /// The conditions only get easier as U, V and G grow, so the largest such sets are found
    /// by starting from every card they may hold and dropping cards until none fails; if U is
    /// not empty, the game is lost.
    fn deadlocked(&self, node: &Node) -> bool {
        self.locked_with(node, true, 0)
    }

    /// [`Self::deadlocked`], with the set G of glued cards or (`glued_cards` false, solver
    /// version 8's test) without it; with a card in `watched`, "no lock" as soon as that card
    /// leaves U and G (see [`Self::new_lock`]).
    fn locked_with(&self, node: &Node, glued_cards: bool, watched: u64) -> bool {
        // A way is shut while a card of U or V is in its low 64 bits or a card of G in its
        // high ones: the sets are kept in one number the same way, U and V low, G high.
        const SHUT: u128 = u128::MAX; // (never open)
        let glue = |mask: u64| (mask as u128) << 64;
        // The way onto each card: onto a tableau card it needs the cards over it out of U and
        // the card on it as on its host (if any, a candidate for G: it "caps" it) out of G;
        // onto a stock or waste card, that card out of V (it must come in first); a card on
        // its foundation may come down again (with `from_foundation` off, never).
        let mut onto = [if self.from_foundation { 0 } else { SHUT }; 52];
        // Each tableau card's way to its foundation: every lower card of its suit in the
        // tableau out of U, with the ways onto it open (a stock card's does not count: it
        // brings no card into the tableau).
        let mut home_way = [SHUT; 52];
        // The cards of its pile strictly over each tableau card; for each card on a host,
        // which of its two ways goes onto its host's twin.
        let mut over = [0u64; 52];
        let mut twin_way = [0u8; 52];
        let mut piles = [0u64; 7];
        let mut order = [0u8; 52];
        let mut count = 0;
        // (`hosted`: face-up cards on a face-up host, the candidates for G.)
        let (mut in_tableau, mut face_down, mut hosted) = (0u64, 0u64, 0u64);
        let mut space = false;
        // Each pile from the top down, the order the cards are tried in: the ways onto a
        // card open once every card over it is out of U, and a face-down card needs those
        // out too.
        for (index, pile_cards) in piles.iter_mut().enumerate() {
            let pile = node.pile(index);
            let hidden = node.down[index] as usize;
            let mut above = 0u64;
            let mut capping = 0u64;
            // (The card right over this one when it caps it.)
            for at in (0..pile.len()).rev() {
                let card = pile[at];
                let c = card as usize;
                over[c] = above;
                onto[c] = above as u128 | glue(capping);
                order[count] = card;
                count += 1;
                capping = 0;
                // (A position file need not hold built runs: a card on another that is no
                // host of it is never in G.)
                if at > hidden {
                    let below = pile[at - 1];
                    if rank(below) == rank(card) + 1 && red(below) != red(card) {
                        hosted |= bit(card);
                        capping = bit(card);
                        twin_way[c] = (HOSTS[c][0] == below) as u8;
                    }
                } else if at < hidden {
                    face_down |= bit(card);
                }
                above |= bit(card);
            }
            space |= pile.is_empty();
            *pile_cards = above;
            in_tableau |= above;
        }
        let mut in_stock = 0u64;
        for &card in &node.order[..node.olen as usize] {
            in_stock |= bit(card);
            onto[card as usize] = 1u128 << card;
            order[count] = card;
            count += 1;
        }
        for s in 0..4u8 {
            let mut lower = 0u128;
            for card in s * 13 + node.found[s as usize]..s * 13 + 13 {
                if in_tableau & bit(card) != 0 {
                    let card = card as usize;
                    home_way[card] = lower;
                    lower |= onto[card] | 1u128 << card;
                }
            }
        }
        // A king goes into a space, not onto a card: open while a pile is empty, and when
        // every card of some pile is out of U (below).
        let kings = KINGS & (in_tableau | in_stock);
        let king_way = if space { 0 } else { SHUT };
        // From every card the sets may hold, drop the cards that fail, round after round,
        // until none does (a card dropped is dropped at once: the cards tried after it see
        // the smaller sets, which only makes their conditions harder, so the same largest
        // sets are reached in fewer rounds).
        let mut stuck = in_tableau | in_stock;
        let mut glued = if glued_cards { hosted } else { 0 };
        loop {
            // Every pile holds a card of U: no space can be made before one of them moves.
            let spaces_shut = !space && piles.iter().all(|&pile| pile & stuck != 0);
            let before = (stuck, glued);
            let mut kept = 0;
            for at in 0..count {
                let card = order[at] as usize;
                let mask = 1u64 << card;
                let king = kings & mask != 0;
                let [first, second] = HOSTS[card];
                let ways = if king {
                    [king_way, king_way, home_way[card]]
                } else {
                    [onto[first as usize], onto[second as usize], home_way[card]]
                };
                let sets = stuck as u128 | glue(glued);
                // Out of U (or V): face down, once every card over it is, by an open way.
                // A face-up card out of U takes the cards over it along (each can move as
                // the top of the cards moved with it), so a face-up card is never tried
                // while one under it is out.
                if stuck & mask != 0
                    && !(face_down & mask != 0 && over[card] & stuck != 0)
                    && (ways.iter().any(|&way| way & sets == 0) || (king && !spaces_shut))
                {
                    stuck &= !(mask | over[card]);
                    if stuck & in_tableau == 0 {
                        return false;
                    }
                }
                // Out of G: it leaves its host onto the host's twin or to its foundation.
                if glued & mask != 0 {
                    let sets = stuck as u128 | glue(glued);
                    if ways[twin_way[card] as usize] & sets == 0 || ways[2] & sets == 0 {
                        glued &= !mask;
                    }
                }
                // A card out of U, V and G stays out: the later rounds need not try it.
                let still = (stuck | glued) & mask != 0;
                if !still && mask == watched {
                    return false;
                }
                order[kept] = card as u8;
                kept += still as usize;
            }
            count = kept;
            if (stuck, glued) == before {
                return stuck & in_tableau != 0;
            }
        }
    }

    // -- children ---------------------------------------------------------------------------

    /// Push `step` with a copy of `node` onto `out` (the child is made in place, one copy),
    /// and the copy to change.
    fn child<'o>(node: &Node, step: Step, out: &'o mut Vec<Child<Self>>) -> &'o mut Node {
        // Copied straight into its place in `out`, then changed there: `push` would build
        // the pair on the stack first and copy it again (a tenth of the search's time went to
        // copying nodes).
        out.reserve(1);
        let slot = out.spare_capacity_mut()[0].as_mut_ptr();
        // SAFETY: `slot` is the reserved, unused place past the end of `out`; both parts of
        // the pair are written (the node copied once, straight from `node`) before the length
        // takes it in.
        unsafe {
            std::ptr::addr_of_mut!((*slot).0).write(step);
            std::ptr::copy_nonoverlapping(node, std::ptr::addr_of_mut!((*slot).1), 1);
            out.set_len(out.len() + 1);
        }
        let copy = &mut out.last_mut().expect("just pushed").1;
        // (Saturating: a plain search's paths can be longer than the best-first search's
        // cost needs to count.)
        let moves = 1 + step.pre as u16 + step.recycle as u16 + step.post as u16;
        copy.made = copy.made.saturating_add(moves);
        copy.cover = NO_COVER;
        copy.settled = false;
        copy
    }

    fn tableau_to_foundation(&self, node: &Node, index: usize, out: &mut Vec<Child<Self>>) {
        let s = suit(node.top(index).expect("a card"));
        let (target, fmap) = Self::foundation_for(node, s);
        let child = Self::child(node, Step::plain(T0 + index as u8, F0 + target, 1), out);
        let mut run = [0u8; 52];
        child.take(index, 1, &mut run);
        child.fmap = fmap;
        child.found[s as usize] += 1;
    }

    fn waste_to_foundation(&self, node: &Node, reach: &Reach, out: &mut Vec<Child<Self>>) {
        let card = node.order[reach.size as usize - 1];
        let s = suit(card);
        let (target, fmap) = Self::foundation_for(node, s);
        let step = Step {
            pre: reach.pre,
            recycle: reach.recycle,
            post: reach.post,
            ..Step::plain(WASTE, F0 + target, 1)
        };
        let child = Self::child(node, step, out);
        child.fmap = fmap;
        child.found[s as usize] += 1;
        child.remove_order(reach.size as usize - 1);
        child.w = reach.size - 1;
        child.redeals = reach.redeals;
    }

    fn waste_to_tableau(
        &self,
        node: &Node,
        reach: &Reach,
        target: usize,
        out: &mut Vec<Child<Self>>,
    ) {
        let card = node.order[reach.size as usize - 1];
        let step = Step {
            pre: reach.pre,
            recycle: reach.recycle,
            post: reach.post,
            ..Step::plain(WASTE, T0 + target as u8, 1)
        };
        let child = Self::child(node, step, out);
        child.cover = card;
        child.put(target, &[card]);
        child.remove_order(reach.size as usize - 1);
        child.w = reach.size - 1;
        child.redeals = reach.redeals;
    }

    fn tableau_to_tableau(
        &self,
        node: &Node,
        source: usize,
        target: usize,
        count: usize,
        out: &mut Vec<Child<Self>>,
    ) {
        let step = Step::plain(T0 + source as u8, T0 + target as u8, count as u8);
        let pile = node.pile(source);
        let lowest_moved = pile[pile.len() - count];
        let child = Self::child(node, step, out);
        child.cover = lowest_moved;
        child.shift(source, target, count);
    }

    fn foundation_to_tableau(&self, node: &Node, s: u8, target: usize, out: &mut Vec<Child<Self>>) {
        let card = s * 13 + node.found[s as usize] - 1;
        let from = F0 + node.fmap[s as usize] as u8;
        let child = Self::child(node, Step::plain(from, T0 + target as u8, 1), out);
        child.found[s as usize] -= 1;
        child.cover = card;
        child.put(target, &[card]);
    }
}

/// The best-first search between the two depth-first parts (`search::solver_search`): one
/// stage, so a plain best-first search by [`Adapter::score`] over this many expanded nodes
/// (about 330 MiB of nodes at most; tuned on deals 1-250).
const BEST_FIRST: [(usize, u64); 1] = [(1, 400_000)];

impl Adapter for Klondike {
    type Node = Node;
    type Step = Step;
    type Packed = Packed;

    fn pack(&self, node: &Node) -> Packed {
        Packed::of(node)
    }

    fn unpacked<'a>(&self, packed: &'a Packed, out: &'a mut Node) -> &'a Node {
        packed.unpack_into(out);
        out
    }

    fn restart_nodes(&self) -> Option<u64> {
        Some(20_000)
    }

    fn staged_tries(&self) -> &[(usize, u64)] {
        &BEST_FIRST
    }

    fn carry_table(&self) -> bool {
        true
    }

    fn score(&self, node: &Node) -> f64 {
        let on_foundations: u32 = node.found.iter().map(|&n| n as u32).sum();
        // Klondike-Solver's estimate (moves made, moves left, cards off the foundations,
        // passes), with its sign turned: higher is better here.
        -((node.made as u32 + self.moves_left(node) + 52 - on_foundations + node.redeals) as f64)
    }

    fn first_step(&self, canon: Key, steps: &[Child<Self>], restart: u32) -> usize {
        one_of_the_first(steps.len(), canon, restart, 3)
    }

    fn canonical(&self, node: &Node) -> Key {
        if node.settled || !self.classes {
            return self.key_of(node);
        }
        match Self::representative(node) {
            Some(representative) => self.key_of(&representative),
            None => self.key_of(node),
        }
    }

    fn tidy(&self, root: &Node, moves: Vec<Move>) -> Vec<Move> {
        if !self.classes {
            return moves;
        }
        // The line as positions: cut from a position's first visit to its next.
        let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
        let mut visited: Vec<Key> = vec![self.path_key(root)];
        let mut here = *root;
        for mv in moves {
            here = self.perform(&here, &mv).0;
            let key = self.path_key(&here);
            match visited.iter().position(|&k| k == key) {
                Some(at) => {
                    kept.truncate(at);
                    visited.truncate(at + 1);
                }
                None => {
                    kept.push(mv);
                    visited.push(key);
                }
            }
        }
        kept
    }

    fn set_search(&mut self, dominance: bool, history: bool) {
        self.classes = dominance && !history;
    }

    fn worse(&self, node: &Node) -> u32 {
        if self.passes.is_none() {
            0
        } else {
            node.redeals
        }
    }

    fn path_key(&self, node: &Node) -> Key {
        fingerprint_words::<41, 6>(&node.layout_words(node.w))
    }

    fn layout_key(&self, node: &Node) -> Key {
        fingerprint_words::<40, 6>(&node.layout_words(0))
    }

    fn inner_keys(&self, node: &Node, step: &Step, out: &mut Vec<Key>) {
        if step.flip > 0 || step.settle > 0 {
            // Positions inside a step of rule 13 may come again: the win's line is tidied
            // instead (`tidy`). Rule 13 is off when the game has past positions.
            return;
        }
        if step.pre == 0 && !step.recycle {
            return;
        }
        let mut sizes = Vec::new();
        self.trail(node, step, &mut sizes);
        let mut words = node.layout_words(0);
        for size in sizes {
            words[5] = u64::from(size);
            out.push(fingerprint_words::<41, 6>(&words));
        }
    }

    fn won(&self, node: &Node) -> bool {
        node.found.iter().map(|&n| n as u32).sum::<u32>() == 52
    }

    fn moves(&self, node: &Node, step: &Step) -> Vec<Move> {
        let mut moves = self.step_moves(step);
        if step.settle > 0 {
            let mut here = *node;
            for mv in &moves {
                here = self.perform(&here, mv).0;
            }
            let mut flips = Vec::new();
            Self::settle(&mut here, Some(&mut flips));
            moves.extend(flips);
        }
        moves
    }

    fn steps(&self, node: &Node, dominance: bool, out: &mut Vec<Child<Self>>) {
        self.settled_steps(node, dominance, out, None);
    }

    fn keyed_steps(
        &self,
        node: &Node,
        dominance: bool,
        out: &mut Vec<Child<Self>>,
        canons: &mut Vec<Key>,
        seen: &Table,
    ) {
        self.settled_steps(node, dominance, out, Some((canons, seen)));
    }
}

impl Klondike {
    /// The steps, their children settled by rule 13; with `keyed`, each child's canonical key
    /// is pushed and its table slot fetched as soon as the child is settled, so that the first
    /// child's slot is on its way while the others are settled.
    fn settled_steps(
        &self,
        node: &Node,
        dominance: bool,
        out: &mut Vec<Child<Self>>,
        mut keyed: Option<(&mut Vec<Key>, &Table)>,
    ) {
        let first = out.len();
        self.raw_steps(node, dominance, out);
        for (step, child) in &mut out[first..] {
            if self.classes {
                step.settle = Self::settle(child, None);
                child.made = child.made.saturating_add(step.settle as u16);
                child.settled = true;
            }
            if let Some((canons, seen)) = keyed.as_mut() {
                // Settled (or without classes): the canonical key is the child's own.
                let canon = self.key_of(child);
                seen.prefetch(canon);
                canons.push(canon);
            }
        }
        if dominance && self.from_foundation {
            // The kept answer of each child's test is read when the child is entered, after
            // its elder siblings' subtrees: ask for its slot now, while the search goes on.
            for (_, child) in &out[first..] {
                if let Some(key) = Self::lock_key(child) {
                    self.locks.prefetch(key);
                }
            }
        }
    }
}

impl Klondike {
    /// Flip every switch of `node` whose cards lie on the higher-numbered twin (rule 13), so
    /// that it becomes its class's representative; how many flips, each as a move in `flips`.
    fn settle(node: &mut Node, mut flips: Option<&mut Vec<Move>>) -> u8 {
        let mut count = 0;
        let mut switches = [Switch::default(); 26];
        while Self::switches(node, &mut switches, true) > 0 {
            let switch = switches[0];
            node.shift(switch.pile as usize, switch.free as usize, switch.count as usize);
            if let Some(flips) = flips.as_deref_mut() {
                flips.push(Move::cards(
                    PILES[(T0 + switch.pile) as usize],
                    PILES[(T0 + switch.free) as usize],
                    switch.count as u32,
                ));
            }
            count += 1;
        }
        count
    }

    /// The engine moves of a step up to its card move (not the flips that settle its child).
    fn step_moves(&self, step: &Step) -> Vec<Move> {
        let mut moves = Vec::with_capacity(step.pre as usize + step.post as usize + 3);
        if step.flip > 0 {
            moves.push(Move::cards(
                PILES[(T0 + step.flip_from) as usize],
                PILES[(T0 + step.flip_to) as usize],
                step.flip as u32,
            ));
        }
        moves.extend((0..step.pre).map(|_| Move::act("stock")));
        if step.recycle {
            moves.push(Move::act("recycle"));
            moves.extend((0..step.post).map(|_| Move::act("stock")));
        }
        moves.push(Move::cards(
            PILES[step.from as usize],
            PILES[step.to as usize],
            step.count as u32,
        ));
        moves
    }

    /// The steps before rule 13 settles their children.
    fn raw_steps(&self, node: &Node, dominance: bool, out: &mut Vec<Child<Self>>) {
        let found = &node.found;
        if dominance {
            if self.new_lock(node) {
                return;
            }
            for index in 0..7 {
                if node.len[index] > node.down[index] {
                    let card = node.top(index).expect("a card");
                    if found[suit(card) as usize] == rank(card) - 1 && self.safe(card, found) {
                        self.tableau_to_foundation(node, index, out);
                        return;
                    }
                }
            }
            if self.draw == 1 && node.w > 0 {
                let card = node.order[node.w as usize - 1];
                if found[suit(card) as usize] == rank(card) - 1 && self.safe(card, found) {
                    let reach = Reach {
                        size: node.w,
                        pre: 0,
                        recycle: false,
                        post: 0,
                        redeals: node.redeals,
                    };
                    self.waste_to_foundation(node, &reach, out);
                    return;
                }
            }
        }

        // The order of promise: moves to a foundation (tableau, then stock); tableau moves
        // that turn up a card (most face-down cards first) or empty a pile; plays from the
        // stock; splits of built runs; cards back from a foundation.
        let mut targets = Targets { piles: [[0; 2]; 52], count: [0; 52] };
        let mut empty: Option<usize> = None;
        let mut tops = 0u64;
        let mut faceup = 0u64;
        for index in 0..7 {
            let pile = node.pile(index);
            if let Some(&top) = pile.last() {
                tops |= bit(top);
                let r = rank(top);
                if r > 1 {
                    for other in OPPOSITE[suit(top) as usize] {
                        let card = (other * 13 + r - 2) as usize;
                        targets.piles[card][targets.count[card] as usize] = index as u8;
                        targets.count[card] += 1;
                    }
                }
                if found[suit(top) as usize] == r - 1 {
                    self.tableau_to_foundation(node, index, out);
                }
                for &card in &pile[node.down[index] as usize..] {
                    faceup |= bit(card);
                }
            } else if empty.is_none() {
                empty = Some(index);
            }
        }
        if let Some(space) = empty {
            for s in 0..4 {
                let king = (s * 13 + KING - 1) as usize;
                targets.piles[king] = [space as u8, 0];
                targets.count[king] = 1;
            }
        }

        let mut reach = [Reach { size: 0, pre: 0, recycle: false, post: 0, redeals: 0 }; 112];
        let reached = self.reachable(node, &mut reach);
        let reach = &reach[..reached];
        let mut reachable = 0u64;
        for entry in reach {
            let card = node.order[entry.size as usize - 1];
            reachable |= bit(card);
            if found[suit(card) as usize] == rank(card) - 1 {
                self.waste_to_foundation(node, entry, out);
            }
        }

        // Rule 13: the flips themselves are no steps (they stay in the class); what a flip
        // opens is: the freed host to its foundation, and the twin of the card flipped onto
        // it (from the bottom of a pile's face-up cards, the stock, or a foundation).
        let mut switches = [Switch::default(); 26];
        let switched = if self.classes { Self::switches(node, &mut switches, false) } else { 0 };
        let switches = &switches[..switched];
        for switch in switches {
            if found[suit(switch.host) as usize] == rank(switch.host) - 1 {
                self.tableau_to_foundation(&switch.flipped(node), switch.pile as usize, out);
                switch.mark(out);
            }
        }

        // Moves that turn up a card, the pile with most face-down cards first (a stable
        // order: piles with as many in pile order), then moves that empty a pile.
        let mut by_hidden: [usize; 7] = [0, 1, 2, 3, 4, 5, 6];
        by_hidden.sort_by_key(|&index| std::cmp::Reverse(node.down[index]));
        for source in by_hidden {
            let hidden = node.down[source] as usize;
            let pile = node.pile(source);
            if hidden == 0 || hidden >= pile.len() {
                continue;
            }
            for &target in targets.of(pile[hidden]) {
                let count = pile.len() - hidden;
                self.tableau_to_tableau(node, source, target as usize, count, out);
            }
        }
        let mut king_waiting: Option<bool> = None;
        for switch in switches {
            let Some(source) = Self::base_pile(node, twin(switch.card)) else {
                continue;
            };
            let hidden = node.down[source] as usize;
            let count = node.len[source] as usize - hidden;
            if hidden == 0
                && dominance
                && !*king_waiting.get_or_insert_with(|| self.king_waiting(node, reachable))
            {
                continue;
            }
            let flipped = switch.flipped(node);
            self.tableau_to_tableau(&flipped, source, switch.pile as usize, count, out);
            switch.mark(out);
        }
        for source in 0..7 {
            let pile = node.pile(source);
            if node.down[source] > 0 || pile.is_empty() {
                continue;
            }
            for &target in targets.of(pile[0]) {
                let target = target as usize;
                if node.len[target] == 0 {
                    // A king's whole pile moving to a space changes nothing.
                    continue;
                }
                let waiting = !dominance
                    || *king_waiting.get_or_insert_with(|| self.king_waiting(node, reachable));
                if waiting {
                    self.tableau_to_tableau(node, source, target, pile.len(), out);
                }
            }
        }

        for entry in reach {
            let card = node.order[entry.size as usize - 1];
            for &target in targets.of(card) {
                self.waste_to_tableau(node, entry, target as usize, out);
            }
        }
        for switch in switches {
            let wanted = twin(switch.card);
            for entry in reach.iter().filter(|e| node.order[e.size as usize - 1] == wanted) {
                self.waste_to_tableau(&switch.flipped(node), entry, switch.pile as usize, out);
                switch.mark(out);
            }
        }

        // With rule 13 every split is a flip (the card it uncovers is a switch's host).
        for source in (0..7).filter(|_| !(self.classes && dominance)) {
            let pile = node.pile(source);
            let size = pile.len();
            let hidden = node.down[source] as usize;
            for (position, &card) in pile.iter().enumerate().skip(hidden + 1) {
                for &target in targets.of(card) {
                    let count = size - position;
                    if !dominance || self.split_useful(node, source, count, tops, faceup, reachable)
                    {
                        self.tableau_to_tableau(node, source, target as usize, count, out);
                    }
                }
            }
        }

        if self.from_foundation {
            // Rule 13 needs the same answer in every position of a class: any face-up card
            // counts where rule 9 asks for a pile top.
            let hosts = if self.classes { faceup } else { tops };
            for s in 0..4u8 {
                let height = found[s as usize];
                // Aces and twos never need to come back: nothing useful goes on them.
                if height < 3 {
                    continue;
                }
                if dominance && !self.descent_useful(node, s, hosts, faceup, reachable) {
                    continue;
                }
                for &target in targets.of(s * 13 + height - 1) {
                    self.foundation_to_tableau(node, s, target as usize, out);
                }
                for switch in switches.iter().filter(|w| twin(w.card) == s * 13 + height - 1) {
                    self.foundation_to_tableau(&switch.flipped(node), s, switch.pile as usize, out);
                    switch.mark(out);
                }
            }
        }
    }
}

// -- the engine's rules, for the differential tests ----------------------------------------------

fn fits_foundation(card: u8, pile_top: Option<u8>) -> bool {
    match pile_top {
        None => rank(card) == 1,
        Some(top) => suit(card) == suit(top) && rank(card) == rank(top) + 1,
    }
}

/// Where `card` is among the first `len` of `cards`, eight at a time (the byte-by-byte search
/// was a fifth of rule 13's time).
fn place_of(cards: &[u8; 52], len: usize, card: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(card);
    for base in (0..52).step_by(8) {
        // (Past the 52 cards: 0xff, no card.)
        let mut bytes = [0xffu8; 8];
        let end = (base + 8).min(52);
        bytes[..end - base].copy_from_slice(&cards[base..end]);
        let word = u64::from_le_bytes(bytes) ^ pattern;
        // The lowest byte flagged here is the first zero byte of `word` (higher flags may be
        // false, never the lowest).
        let zeros = word.wrapping_sub(ONES) & !word & HIGHS;
        if zeros != 0 {
            let at = base + (zeros.trailing_zeros() / 8) as usize;
            return (at < len).then_some(at);
        }
    }
    None
}

fn alternating_run_length(cards: &[u8]) -> usize {
    if cards.is_empty() {
        return 0;
    }
    let mut length = 1;
    while length < cards.len() {
        let (upper, lower) = (cards[cards.len() - length], cards[cards.len() - length - 1]);
        if rank(upper) + 1 == rank(lower) && red(upper) != red(lower) {
            length += 1;
        } else {
            break;
        }
    }
    length
}

/// How many of the top `run` cards of `source` move onto `target` (0: none).
fn fitting_run_count(source: &[u8], run: usize, target: &[u8]) -> usize {
    if run == 0 {
        return 0;
    }
    let wanted = target.last().map_or(13, |&top| rank(top) as i32 - 1);
    let count = wanted - rank(*source.last().expect("a card")) as i32 + 1;
    if count < 1 || count as usize > run {
        return 0;
    }
    let count = count as usize;
    if let Some(&top) = target.last() {
        if red(source[source.len() - count]) == red(top) {
            return 0;
        }
    }
    count
}

impl Klondike {
    /// The cards of pile `name` (an index of [`PILES`]), bottom first.
    fn pile_cards(node: &Node, index: usize) -> Vec<u8> {
        match index {
            0 => node.order[node.w as usize..node.olen as usize].iter().rev().copied().collect(),
            1 => node.order[..node.w as usize].to_vec(),
            2..=5 => match node.foundation_suit(index - 2) {
                Some(s) => (0..node.found[s as usize]).map(|r| s * 13 + r).collect(),
                None => Vec::new(),
            },
            _ => node.pile(index - T0 as usize).to_vec(),
        }
    }

    /// The engine's state parts of a node (piles in [`PILES`] order).
    pub fn to_parts(&self, node: &Node) -> Parts {
        let piles: Vec<Vec<u8>> = (0..PILES.len()).map(|i| Self::pile_cards(node, i)).collect();
        let mut down = vec![0u32; PILES.len()];
        down[0] = piles[0].len() as u32;
        for index in 0..7 {
            down[T0 as usize + index] = node.down[index] as u32;
        }
        Parts { piles, down, extra: vec![node.redeals as i64] }
    }

    /// A node from the engine's state parts; an error for a position the core cannot hold.
    pub fn from_parts(&self, parts: &Parts) -> Result<Node, String> {
        if parts.piles.len() != PILES.len() || parts.down.len() != PILES.len() {
            return Err(format!("a klondike position has the {} piles {PILES:?}", PILES.len()));
        }
        if !parts.holds_each_card_once(52) {
            return Err("a klondike position holds each of the 52 cards once".into());
        }
        let mut node = Node {
            cards: [0; 52],
            len: [0; 7],
            start: [0; 8],
            down: [0; 7],
            hash: [0; 7],
            sum: 0,
            placed: 0,
            covered: 0,
            tops: 0,
            found: [0; 4],
            fmap: [-1; 4],
            order: [0; 52],
            olen: 0,
            order_hash: 0,
            w: 0,
            redeals: 0,
            made: 0,
            cover: ROOT,
            settled: false,
        };
        let mut at = 0usize;
        for index in 0..7 {
            let pile = &parts.piles[T0 as usize + index];
            let down = parts.down[T0 as usize + index] as usize;
            if down > pile.len() {
                let (name, size) = (PILES[index + 6], pile.len());
                return Err(format!("{name} holds {size} cards, fewer than {down} face down"));
            }
            if !pile.is_empty() && down == pile.len() {
                return Err(format!("the top card of {} must be face up", PILES[index + 6]));
            }
            // The steps move and switch face-up runs by their length (as the engine, which
            // refuses such a position too).
            let built =
                |pair: &[u8]| rank(pair[1]) + 1 == rank(pair[0]) && red(pair[1]) != red(pair[0]);
            if !pile[down..].windows(2).all(built) {
                return Err(format!(
                    "the face-up cards of {} do not form a built run",
                    PILES[index + 6]
                ));
            }
            node.cards[at..at + pile.len()].copy_from_slice(pile);
            at += pile.len();
            node.len[index] = pile.len() as u8;
            node.down[index] = down as u8;
        }
        for index in 0..4 {
            let pile = &parts.piles[F0 as usize + index];
            let mut previous: Option<u8> = None;
            for &card in pile {
                if !fits_foundation(card, previous) {
                    return Err(format!("f{} is not built up in suit from the ace", index + 1));
                }
                previous = Some(card);
            }
            if let Some(&first) = pile.first() {
                node.found[suit(first) as usize] = pile.len() as u8;
                node.fmap[suit(first) as usize] = index as i8;
            }
        }
        let waste = &parts.piles[WASTE as usize];
        let stock = &parts.piles[0];
        node.order[..waste.len()].copy_from_slice(waste);
        for (offset, &card) in stock.iter().rev().enumerate() {
            node.order[waste.len() + offset] = card;
        }
        node.w = waste.len() as u8;
        node.olen = (waste.len() + stock.len()) as u8;
        node.derive();
        let redeals = parts.extra.first().copied().unwrap_or(0);
        if redeals < 0 || redeals > u32::MAX as i64 / 2 {
            return Err(format!("redeals must be a whole number of 0 or more, not {redeals}"));
        }
        node.redeals = redeals as u32;
        Ok(node)
    }

    fn face_up(node: &Node, index: usize) -> usize {
        match index {
            0 => 0,
            1..=5 => Self::pile_cards(node, index).len(),
            _ => (node.len[index - 6] - node.down[index - 6]) as usize,
        }
    }

    /// Every move the engine's `candidate_moves` lists, in its order.
    pub fn candidate_moves(&self, node: &Node) -> Vec<Move> {
        let mut moves = Vec::new();
        let piles: Vec<Vec<u8>> = (0..PILES.len()).map(|i| Self::pile_cards(node, i)).collect();
        for source in std::iter::once(1).chain(6..13) {
            if Self::face_up(node, source) > 0 {
                let card = *piles[source].last().expect("a card");
                for target in 2..6 {
                    if fits_foundation(card, piles[target].last().copied()) {
                        moves.push(Move::cards(PILES[source], PILES[target], 1));
                    }
                }
            }
        }
        for source in 6..13 {
            let up = &piles[source][node.down[source - 6] as usize..];
            let run = alternating_run_length(up);
            for target in 6..13 {
                if target == source {
                    continue;
                }
                let count = fitting_run_count(&piles[source], run, &piles[target]);
                if count > 0 {
                    moves.push(Move::cards(PILES[source], PILES[target], count as u32));
                }
            }
        }
        let extra: &[usize] = if self.from_foundation { &[1, 2, 3, 4, 5] } else { &[1] };
        for &source in extra {
            if !piles[source].is_empty() {
                for target in 6..13 {
                    if fitting_run_count(&piles[source], 1, &piles[target]) > 0 {
                        moves.push(Move::cards(PILES[source], PILES[target], 1));
                    }
                }
            }
        }
        if !piles[0].is_empty() {
            moves.push(Move::act("stock"));
        } else if !piles[1].is_empty() && self.passes_left(node.redeals) {
            moves.push(Move::act("recycle"));
        }
        moves
    }

    /// The node after one of [`Klondike::candidate_moves`], and the forced moves it caused.
    pub fn apply(&self, node: &Node, mv: &Move) -> Result<(Node, Vec<Move>), String> {
        if !self.candidate_moves(node).contains(mv) {
            return Err(format!("{mv} is not a legal move here"));
        }
        Ok(self.perform(node, mv))
    }

    /// A legal move's position and forced moves (unchecked: `apply` checks).
    fn perform(&self, node: &Node, mv: &Move) -> (Node, Vec<Move>) {
        let mut after = *node;
        let mut forced = Vec::new();
        match mv {
            Move::Act { name, .. } if *name == "stock" => {
                after.w = (node.w + self.draw).min(node.olen);
            }
            Move::Act { .. } => {
                after.w = 0;
                after.redeals += 1;
            }
            Move::Cards { from, to, count } => {
                let source = PILES.iter().position(|p| p == from).expect("a pile");
                let target = PILES.iter().position(|p| p == to).expect("a pile");
                let count = *count as usize;
                let mut run = [0u8; 52];
                match source {
                    1 => {
                        run[0] = node.order[node.w as usize - 1];
                        after.remove_order(node.w as usize - 1);
                        after.w -= 1;
                    }
                    2..=5 => {
                        let s = node.foundation_suit(source - 2).expect("a foundation card");
                        run[0] = s * 13 + node.found[s as usize] - 1;
                        after.found[s as usize] -= 1;
                        if after.found[s as usize] == 0 {
                            after.fmap[s as usize] = -1;
                        }
                    }
                    _ => {
                        let index = source - 6;
                        let was_down = node.down[index];
                        after.take(index, count, &mut run);
                        let rest = after.len[index];
                        if rest > 0 && was_down >= rest {
                            let card = after.top(index).expect("a card");
                            forced.push(Move::Act {
                                name: "flip",
                                args: vec![
                                    ("pile", Arg::Text(PILES[source].to_string())),
                                    ("card", Arg::Text(card_text(card))),
                                ],
                            });
                        }
                    }
                }
                match target {
                    2..=5 => {
                        let s = suit(run[0]);
                        after.found[s as usize] += 1;
                        after.fmap[s as usize] = (target - 2) as i8;
                    }
                    _ => after.put(target - 6, &run[..count]),
                }
            }
        }
        (after, forced)
    }
}

game_from_inherent!(Klondike, "klondike");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{depth_first, Budget, Verdict};

    use crate::options::options;

    /// A position one move from a win: every card on the foundations but the king of spades.
    fn almost_won() -> Parts {
        let mut piles = vec![Vec::new(); 13];
        for s in 0..4u8 {
            let height = if s == 3 { 12 } else { 13 };
            piles[2 + s as usize] = (0..height).map(|r| s * 13 + r).collect();
        }
        piles[6] = vec![51];
        Parts { piles, down: vec![0; 13], extra: vec![0] }
    }

    #[test]
    fn hosts_are_the_cards_of_the_next_rank_in_the_other_colour() {
        for card in 0..52u8 {
            let hosts: Vec<u8> =
                (0..52u8).filter(|&h| rank(h) == rank(card) + 1 && red(h) != red(card)).collect();
            if rank(card) == KING {
                assert!(hosts.is_empty() && KINGS & bit(card) != 0);
            } else {
                assert_eq!(HOSTS[card as usize].to_vec(), hosts, "card {card}");
                assert_eq!(KINGS & bit(card), 0);
            }
        }
    }

    #[test]
    fn place_of_finds_each_card_and_none_past_the_length() {
        let mut cards = [0u8; 52];
        for (at, card) in cards.iter_mut().enumerate() {
            *card = ((at * 7 + 3) % 52) as u8;
        }
        for len in [0, 1, 7, 8, 9, 33, 48, 51, 52] {
            for card in 0..52u8 {
                let expected = cards[..len].iter().position(|&c| c == card);
                assert_eq!(place_of(&cards, len, card), expected, "card {card}, length {len}");
            }
        }
    }

    #[test]
    fn parts_round_trip() {
        let game = Klondike::new(&options(&[])).unwrap();
        let parts = almost_won();
        let node = game.from_parts(&parts).unwrap();
        assert_eq!(game.to_parts(&node), parts);
    }

    #[test]
    fn one_move_wins() {
        let game = Klondike::new(&options(&[])).unwrap();
        let node = game.from_parts(&almost_won()).unwrap();
        let moves = game.candidate_moves(&node);
        // The king goes up, or to a space (t2-t7), or a king comes down from f1-f3.
        assert_eq!(moves.len(), 1 + 6 + 3 * 6);
        assert_eq!(moves[0], Move::cards("t1", "f4", 1));
        let (after, forced) = game.apply(&node, &moves[0]).unwrap();
        assert!(forced.is_empty());
        assert!(game.won(&after));
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1000, cpu_time: false };
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
        assert_eq!(found.moves, vec![Move::cards("t1", "f4", 1)]);
    }

    /// A staged search's win is a line the engine can play: every position it passes, those
    /// inside a step that turns the stock included, is new to the game. Here the only wins
    /// (draw 1, the queen and king of spades in the stock, the king on top) turn the king onto
    /// the waste first; once the game has been in that position, none is left.
    #[test]
    fn a_staged_win_passes_no_position_of_the_history() {
        use crate::search::staged;
        let game = Klondike::new(&options(&[("draw", "1")])).unwrap();
        let with_stock = |stock: Vec<u8>, waste: Vec<u8>| {
            let mut piles = vec![Vec::new(); 13];
            for s in 0..4u8 {
                let height = if s == 3 { 11 } else { 13 };
                piles[2 + s as usize] = (0..height).map(|r| s * 13 + r).collect();
            }
            let down = vec![stock.len() as u32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
            piles[0] = stock;
            piles[1] = waste;
            game.from_parts(&Parts { piles, down, extra: vec![0] }).unwrap()
        };
        let root = with_stock(vec![50, 51], vec![]);
        let king_turned = with_stock(vec![50], vec![51]);
        let budget =
            Budget { seconds: None, nodes: Some(1_000), max_states: 1000, cpu_time: false };
        let free = staged(&game, &root, budget, &[], &mut || false);
        assert_eq!(free.verdict, Verdict::Won);
        assert_eq!(free.moves.len(), 4, "{:?}", free.moves);
        let barred = staged(&game, &root, budget, &[king_turned], &mut || false);
        assert_eq!(barred.verdict, Verdict::Unknown, "{:?}", barred.moves);
    }

    /// The staged search's packed node makes the node again field for field (fingerprints,
    /// sums, tops and covered cards included), along random walks from dealt layouts and from
    /// positions rich in built runs, with and without rule 13's settling.
    #[test]
    fn a_packed_node_unpacks_to_the_same_node() {
        let mut next = crate::testing::xorshift(0x6a09_e667_f3bc_c908_u64);
        let mut checked = 0;
        for draw in ["1", "3"] {
            let mut game = Klondike::new(&options(&[("draw", draw)])).unwrap();
            for walk in 0..60u64 {
                game.set_search(walk % 2 == 0, false);
                let parts = if walk % 3 == 0 { run_rich_position(&mut next) } else { dealt(walk) };
                let mut node = game.from_parts(&parts).unwrap();
                for _ in 0..80 {
                    let mut out = node;
                    out.cards[0] ^= 0x55;
                    assert_eq!(*game.unpacked(&game.pack(&node), &mut out), node);
                    checked += 1;
                    let mut steps = Vec::new();
                    game.steps(&node, walk % 4 < 2, &mut steps);
                    if steps.is_empty() {
                        break;
                    }
                    node = steps[next(steps.len() as u64) as usize].1;
                }
            }
        }
        assert!(checked >= 5000, "{checked} nodes checked");
    }

    /// A deal of the 52 cards shuffled by a small generator from `seed` (any layout will do).
    fn dealt(seed: u64) -> Parts {
        let mut cards: Vec<u8> = (0..52).collect();
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for at in (1..52).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            cards.swap(at, (state % (at as u64 + 1)) as usize);
        }
        let mut piles = vec![Vec::new(); 13];
        let mut down = vec![0u32; 13];
        let mut next = 0;
        for index in 0..7 {
            piles[6 + index] = cards[next..next + index + 1].to_vec();
            down[6 + index] = index as u32;
            next += index + 1;
        }
        piles[0] = cards[next..].to_vec();
        down[0] = piles[0].len() as u32;
        Parts { piles, down, extra: vec![0] }
    }

    /// A search that goes on from a stopped one's proved losses (`solver_search`'s last part)
    /// gives the answer of one search run to the end, and proves a lost deal with fewer nodes
    /// than starting again.
    #[test]
    fn a_carried_table_keeps_the_answers_and_saves_nodes() {
        use crate::search::{depth_first_carried, Carry};
        let game = Klondike::new(&options(&[])).unwrap();
        let budget = |nodes| Budget { seconds: None, nodes, max_states: 1 << 24, cpu_time: false };
        let (mut saved, mut compared) = (0, 0);
        for seed in 1..400 {
            if saved >= 1 && compared >= 6 {
                break;
            }
            let root = game.from_parts(&dealt(seed)).unwrap();
            let whole =
                depth_first(&game, &root, budget(Some(100_000)), &[], true, true, &mut || false);
            let lost = whole.verdict == Verdict::Unwinnable;
            if whole.verdict == Verdict::Unknown || whole.nodes < 2_000 || (!lost && compared >= 6)
            {
                continue;
            }
            let mut carry = Carry::default();
            let (first, second) = (whole.nodes / 2, Some(100_000));
            let cut = depth_first_carried(
                &game,
                &root,
                budget(Some(first)),
                &[],
                true,
                true,
                &mut || false,
                Some(&mut carry),
            );
            assert_eq!(cut.verdict, Verdict::Unknown);
            let rest = depth_first_carried(
                &game,
                &root,
                budget(second),
                &[],
                true,
                true,
                &mut || false,
                Some(&mut carry),
            );
            // A won deal may take the later run longer (it searches in another order); a
            // resolved answer must be the same, and a lost deal is proved again.
            if rest.verdict != Verdict::Unknown || whole.verdict == Verdict::Unwinnable {
                assert_eq!(rest.verdict, whole.verdict, "seed {seed}");
                compared += 1;
            }
            if whole.verdict == Verdict::Unwinnable && rest.nodes < whole.nodes {
                saved += 1;
            }
        }
        assert!(compared >= 6, "only {compared} answers compared");
        assert!(saved > 0, "no lost deal was proved with fewer nodes");
    }

    /// Every card on the foundations but those named: suits up to the given heights, `tableau`
    /// as one pile of face-down cards under one face-up card, the rest in the stock.
    fn locked(heights: [u8; 4], tableau: &[u8]) -> Parts {
        let mut piles = vec![Vec::new(); 13];
        for s in 0..4u8 {
            piles[2 + s as usize] = (0..heights[s as usize]).map(|r| s * 13 + r).collect();
        }
        piles[6] = tableau.to_vec();
        piles[0] = (0..52u8)
            .filter(|&card| card % 13 >= heights[suit(card) as usize] && !tableau.contains(&card))
            .collect();
        let mut down = vec![0u32; 13];
        down[0] = piles[0].len() as u32;
        down[6] = tableau.len() as u32 - 1;
        Parts { piles, down, extra: vec![0] }
    }

    const fn card(rank: u8, suit: u8) -> u8 {
        suit * 13 + rank - 1
    }

    /// Rule 12 as the core has it (solver version 8): the eight of hearts waits for a black
    /// nine in the tableau, and both are in the stock waiting for a red ten, and both red tens
    /// lie face down under the eight, as does the seven of hearts it needs to go up. The old
    /// rule counted the nines as free (in the stock); the search without the rule proves the
    /// position lost too. With the ten of diamonds in the stock instead, nothing is stuck and
    /// the position is won.
    #[test]
    fn stock_cards_that_cannot_come_down_lock_the_tableau() {
        let (d, h) = (1, 2);
        let game = Klondike::new(&options(&[])).unwrap();
        let budget =
            Budget { seconds: None, nodes: Some(2_000_000), max_states: 1 << 22, cpu_time: false };
        let lost = locked([8, 9, 6, 8], &[card(7, h), card(10, h), card(10, d), card(8, h)]);
        let node = game.from_parts(&lost).unwrap();
        assert!(game.deadlocked(&node));
        let plain = depth_first(&game, &node, budget, &[], false, true, &mut || false);
        assert_eq!(plain.verdict, Verdict::Unwinnable);
        let ruled = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!((ruled.verdict, ruled.nodes), (Verdict::Unwinnable, 1));

        let open = locked([8, 9, 6, 8], &[card(7, h), card(10, h), card(8, h)]);
        let node = game.from_parts(&open).unwrap();
        assert!(!game.deadlocked(&node));
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
    }

    /// Small random positions (a few cards of each suit left, in piles of face-down cards
    /// under one face-up card and in the stock): every position the rule calls lost is lost
    /// for the search without the dominance rules, and the rule does call some lost.
    #[test]
    fn every_position_rule_12_calls_lost_is_lost() {
        let budget =
            Budget { seconds: None, nodes: Some(300_000), max_states: 1 << 22, cpu_time: false };
        let (mut locked_found, mut confirmed) = (0, 0);
        for from_foundation in ["true", "false"] {
            let game = Klondike::new(&options(&[("from_foundation", from_foundation)])).unwrap();
            let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d_u64);
            for _ in 0..600 {
                let heights: [u8; 4] = std::array::from_fn(|_| 7 + next(6) as u8);
                let (mut piles, rest) = foundations_and_shuffled_rest(heights, &mut next);
                let mut down = vec![0u32; 13];
                let mut at = 0;
                for index in 0..7 {
                    let size = (next(6) as usize).min(rest.len() - at);
                    piles[6 + index] = rest[at..at + size].to_vec();
                    down[6 + index] = size.saturating_sub(1) as u32;
                    at += size;
                }
                piles[0] = rest[at..].to_vec();
                down[0] = piles[0].len() as u32;
                let node = game.from_parts(&Parts { piles, down, extra: vec![0] }).unwrap();
                if !game.deadlocked(&node) {
                    continue;
                }
                locked_found += 1;
                // Without the dominance rules (rule 12 among them): the plain search.
                let plain = depth_first(&game, &node, budget, &[], false, true, &mut || false);
                assert_ne!(plain.verdict, Verdict::Won, "a won position called lost");
                confirmed += (plain.verdict == Verdict::Unwinnable) as u32;
            }
        }
        assert!(confirmed >= 10, "{confirmed} of {locked_found} lost positions confirmed");
    }

    /// The piles of a small random position with each suit's foundation built up to its
    /// height in `heights` (the other piles empty), and the cards above those, shuffled.
    fn foundations_and_shuffled_rest(
        heights: [u8; 4],
        next: &mut impl FnMut(u64) -> u64,
    ) -> (Vec<Vec<u8>>, Vec<u8>) {
        let mut rest: Vec<u8> =
            (0..52u8).filter(|&card| card % 13 >= heights[suit(card) as usize]).collect();
        for at in (1..rest.len()).rev() {
            rest.swap(at, next(at as u64 + 1) as usize);
        }
        let mut piles = vec![Vec::new(); 13];
        for s in 0..4u8 {
            piles[2 + s as usize] = (0..heights[s as usize]).map(|r| s * 13 + r).collect();
        }
        (piles, rest)
    }

    /// A small random position rich in built runs: a few cards of each suit left (the
    /// foundations up to 7-10), in piles of up to four face-down cards under a run built down
    /// in alternating colours as far as `next` goes on and the cards allow, the rest in the
    /// stock.
    fn run_rich_position(next: &mut impl FnMut(u64) -> u64) -> Parts {
        let heights: [u8; 4] = std::array::from_fn(|_| 7 + next(4) as u8);
        let (mut piles, mut pool) = foundations_and_shuffled_rest(heights, next);
        let mut down = vec![0u32; 13];
        for index in 0..7 {
            let hidden = (next(5) as usize).min(pool.len().saturating_sub(1));
            let mut pile: Vec<u8> = pool.drain(..hidden).collect();
            if let Some(base) = pool.pop() {
                pile.push(base);
                // Build down in alternating colours while a card fits, mostly.
                while next(4) > 0 {
                    let top = *pile.last().unwrap();
                    let fits: Vec<usize> = (0..pool.len())
                        .filter(|&at| rank(pool[at]) + 1 == rank(top) && red(pool[at]) != red(top))
                        .collect();
                    if fits.is_empty() {
                        break;
                    }
                    let at = fits[next(fits.len() as u64) as usize];
                    pile.push(pool.remove(at));
                }
            }
            down[6 + index] = hidden as u32;
            piles[6 + index] = pile;
        }
        down[0] = pool.len() as u32;
        piles[0] = pool;
        Parts { piles, down, extra: vec![0] }
    }

    /// Rule 12 with glued cards (solver version 10): small random positions rich in built
    /// runs; every position the test calls lost is lost for the plain search (no dominance
    /// rules, no classes), and some of them are locked only through a glued card (the test
    /// without G finds no lock there).
    #[test]
    fn every_position_glued_cards_lock_is_lost() {
        let budget =
            Budget { seconds: None, nodes: Some(300_000), max_states: 1 << 22, cpu_time: false };
        let mut next = crate::testing::xorshift(0x5851_f42d_4c95_7f2d_u64);
        let (mut locked, mut through_glue, mut confirmed) = (0, 0, 0);
        for from_foundation in ["true", "false"] {
            let game = Klondike::new(&options(&[("from_foundation", from_foundation)])).unwrap();
            let plain_game = Klondike { classes: false, ..game.clone() };
            for _ in 0..1500 {
                let parts = run_rich_position(&mut next);
                let node = game.from_parts(&parts).unwrap();
                if !game.deadlocked(&node) {
                    continue;
                }
                locked += 1;
                through_glue += !game.locked_with(&node, false, 0) as u32;
                let plain =
                    depth_first(&plain_game, &node, budget, &[], false, true, &mut || false);
                assert_ne!(plain.verdict, Verdict::Won, "a won position called lost: {parts:?}");
                confirmed += (plain.verdict == Verdict::Unwinnable) as u32;
            }
        }
        println!("{locked} locked, {through_glue} through glued cards, {confirmed} confirmed");
        assert!(through_glue >= 10, "{through_glue} locks through glued cards");
        assert!(confirmed * 10 >= locked * 9, "{confirmed} of {locked} lost positions confirmed");
    }

    /// The search's rule 12 (`new_lock`: tested only below a step that may lock a card, and
    /// stopped once that card can move) finds every lock of the whole test: along random walks
    /// from dealt layouts and from positions rich in built runs, at every child of a parent
    /// with no lock (many of the children locked), the two agree; and so they do with
    /// `from_foundation` off, where every node is tested (the answers kept by layout, both
    /// ways).
    #[test]
    fn the_search_rule_12_finds_every_new_lock() {
        for from_foundation in ["true", "false"] {
            the_search_rule_12_agrees(from_foundation);
        }
    }

    fn the_search_rule_12_agrees(from_foundation: &str) {
        let game = Klondike::new(&options(&[("from_foundation", from_foundation)])).unwrap();
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d_u64);
        let (mut free_children, mut locked_children) = (0, 0);
        for seed in 0..600u64 {
            let parts = if seed % 2 == 0 { dealt(seed) } else { run_rich_position(&mut next) };
            let mut node = game.from_parts(&parts).unwrap();
            for _ in 0..60 {
                let mut out = Vec::new();
                game.steps(&node, false, &mut out);
                if out.is_empty() {
                    break;
                }
                if !game.deadlocked(&node) {
                    for (step, child) in &out {
                        let locked = game.deadlocked(child);
                        assert_eq!(game.new_lock(child), locked, "{step:?} from {node:?}");
                        // Again, from the answers kept by layout.
                        assert_eq!(game.new_lock(child), locked, "{step:?} kept");
                        free_children += !locked as u32;
                        locked_children += locked as u32;
                    }
                }
                node = out[next(out.len() as u64) as usize].1;
            }
        }
        println!(
            "from_foundation={from_foundation}: {free_children} children without a lock, \
             {locked_children} locked"
        );
        assert!(free_children > 10_000 && locked_children > 100);
    }

    /// The ruled search's answers set beside the plain search's on many positions.
    #[derive(Debug, Default)]
    struct Agreement {
        compared: u32,
        /// Lost, won.
        answers: [u32; 2],
        /// Positions the ruled search settled with fewer nodes.
        fewer: u32,
    }

    impl Agreement {
        /// The ruled search (`ruled` with the dominance rules) on `node`, after checking that
        /// its answer is the plain search's (`plain` without them); None when either is
        /// unknown within `budget`.
        fn check(
            &mut self,
            ruled: &Klondike,
            plain: &Klondike,
            node: &Node,
            budget: Budget,
            context: &str,
        ) -> Option<crate::search::SearchResult> {
            let unruled = depth_first(plain, node, budget, &[], false, true, &mut || false);
            let found = depth_first(ruled, node, budget, &[], true, true, &mut || false);
            if unruled.verdict == Verdict::Unknown || found.verdict == Verdict::Unknown {
                return None;
            }
            assert_eq!(found.verdict, unruled.verdict, "{context}");
            self.compared += 1;
            self.answers[(found.verdict == Verdict::Won) as usize] += 1;
            self.fewer += (found.nodes < unruled.nodes) as u32;
            Some(found)
        }

        /// Enough positions compared, and of both answers.
        fn assert_enough(&self) {
            assert!(self.compared >= 400, "{} positions compared", self.compared);
            let [lost, won] = self.answers;
            assert!(lost >= 10 && won >= 100, "{lost} lost, {won} won");
        }
    }

    /// Small random positions rich in built runs (a few cards of each suit left: face-down
    /// cards under runs, twins everywhere, the rest in the stock): the search with rule 13
    /// (twin switches) and the other dominance rules gives the plain search's answer, and
    /// some positions have switches. Its wins replay in the core's own rules.
    #[test]
    fn twin_switches_change_no_answer() {
        let budget =
            Budget { seconds: None, nodes: Some(200_000), max_states: 1 << 22, cpu_time: false };
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15_u64);
        let mut switched = 0;
        let mut agreement = Agreement::default();
        for settings in [
            [("draw", "3"), ("from_foundation", "true"), ("passes", "unlimited")],
            [("draw", "1"), ("from_foundation", "true"), ("passes", "unlimited")],
            [("draw", "3"), ("from_foundation", "false"), ("passes", "unlimited")],
            [("draw", "3"), ("from_foundation", "true"), ("passes", "2")],
        ] {
            let game = Klondike::new(&options(&settings)).unwrap();
            let plain_game = Klondike { classes: false, ..game.clone() };
            for _ in 0..150 {
                let parts = run_rich_position(&mut next);
                let node = game.from_parts(&parts).unwrap();
                let mut switches = [Switch::default(); 26];
                switched += (Klondike::switches(&node, &mut switches, false) > 0) as u32;
                let context = format!("{parts:?} with {settings:?}");
                let Some(ruled) = agreement.check(&game, &plain_game, &node, budget, &context)
                else {
                    continue;
                };
                if ruled.verdict == Verdict::Won {
                    let mut here = node;
                    for mv in &ruled.moves {
                        here = game.apply(&here, mv).expect("the win replays").0;
                    }
                    assert!(game.won(&here));
                }
            }
        }
        println!("{switched} switched, {agreement:?}");
        assert!(switched >= 100, "{switched} positions with a switch");
        agreement.assert_enough();
        let fewer = agreement.fewer;
        assert!(fewer >= 100, "{fewer} positions searched with fewer nodes");
    }

    /// The same positions with rule 13 off, as a search with the game's history has it: the
    /// splits of built runs (rule 8) and the cards back from the foundations (rule 9) are
    /// then the search's own steps, and the dominance rules still give the plain search's
    /// answer.
    #[test]
    fn the_dominance_rules_without_switches_change_no_answer() {
        let budget =
            Budget { seconds: None, nodes: Some(200_000), max_states: 1 << 22, cpu_time: false };
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d_u64);
        let mut agreement = Agreement::default();
        for settings in [
            [("draw", "3"), ("from_foundation", "true"), ("passes", "unlimited")],
            [("draw", "1"), ("from_foundation", "true"), ("passes", "unlimited")],
            [("draw", "3"), ("from_foundation", "false"), ("passes", "2")],
        ] {
            let game = Klondike { classes: false, ..Klondike::new(&options(&settings)).unwrap() };
            for _ in 0..200 {
                let parts = run_rich_position(&mut next);
                let node = game.from_parts(&parts).unwrap();
                let context = format!("{parts:?} with {settings:?}");
                agreement.check(&game, &game, &node, budget, &context);
            }
        }
        println!("{agreement:?}");
        agreement.assert_enough();
    }

    /// Rule 13's class key: a switch flipped leaves the table key as it was (and only the
    /// table key: the position is another one), and the flip that opens the freed host is a
    /// step whose moves replay.
    #[test]
    fn a_flipped_switch_keeps_the_table_key() {
        // Draw 1: every stock card can be played.
        let game = Klondike::new(&options(&[("draw", "1")])).unwrap();
        let plain_game = Klondike { classes: false, ..game.clone() };
        let (c, d, h, s) = (0, 1, 2, 3);
        let with = |first: &[u8], second: &[u8]| {
            let mut piles = vec![Vec::new(); 13];
            for suit in 0..4u8 {
                piles[2 + suit as usize] = (0..5).map(|r| suit * 13 + r).collect();
            }
            piles[6] = [&[card(7, c)][..], first].concat();
            piles[7] = [&[card(7, s)][..], second].concat();
            let placed: Vec<u8> = piles[6].iter().chain(&piles[7]).copied().collect();
            piles[0] = (0..52u8).filter(|&x| x % 13 >= 5 && !placed.contains(&x)).collect();
            let mut down = vec![0u32; 13];
            down[0] = piles[0].len() as u32;
            down[6] = 1;
            down[7] = 1;
            game.from_parts(&Parts { piles, down, extra: vec![0] }).unwrap()
        };
        // The eight of spades on the nine of hearts, the nine of diamonds free; and flipped.
        let on_hearts = with(&[card(9, h), card(8, s)], &[card(9, d)]);
        let on_diamonds = with(&[card(9, h)], &[card(9, d), card(8, s)]);
        assert_eq!(game.canonical(&on_hearts), game.canonical(&on_diamonds));
        assert_ne!(plain_game.canonical(&on_hearts), plain_game.canonical(&on_diamonds));
        assert_ne!(game.path_key(&on_hearts), game.path_key(&on_diamonds));
        // From either, the eight of clubs (in the stock) onto the freed nine is a step: after
        // the flip, with its moves.
        for (node, flip) in [(&on_hearts, ("t1", "t2")), (&on_diamonds, ("t2", "t1"))] {
            let mut steps = Vec::new();
            game.steps(node, true, &mut steps);
            let flipped: Vec<_> = steps.iter().filter(|(step, _)| step.flip > 0).collect();
            assert!(!flipped.is_empty());
            for (step, child) in flipped {
                let moves = game.moves(node, step);
                assert_eq!(moves[0], Move::cards(flip.0, flip.1, 1));
                let mut here = *node;
                for mv in &moves {
                    here = game.apply(&here, mv).expect("the step's moves are legal").0;
                }
                assert_eq!(game.to_parts(&here), game.to_parts(child));
            }
        }
    }

    #[test]
    fn bad_positions_are_refused() {
        let game = Klondike::new(&options(&[])).unwrap();
        let mut parts = almost_won();
        parts.piles[6].push(51);
        assert!(game.from_parts(&parts).is_err());
        assert!(Klondike::new(&options(&[("draw", "2")])).is_err());
    }
}
