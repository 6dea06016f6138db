//! Canfield in the core: a compact state, the engine's moves (for the differential tests) and
//! the solver's adapter, rule for rule as `patience/solve/canfield.py` (docs/solving.md,
//! "Canfield"), every option (`draw`, `passes`, `move`, `spaces`).
//!
//! A node keeps the four tableau piles in fixed arrays (a pile is built down in alternating
//! colours round the corner and never holds a base-rank card, so it has at most 12 cards) with
//! a cached fingerprint each, the foundations as heights by suit (with the foundation each suit
//! went to, for the notation), the reserve (bottom first), and the stock and waste as one
//! sequence `order` (the waste bottom first, then the stock top first) with `w` cards of it on
//! the waste, as the Klondike node does. Every child gets the forced moves (base-rank cards up,
//! spaces filled from the reserve) exactly as the game module makes them.

use std::sync::Mutex;

use crate::game::game_from_inherent;
use crate::key::{fingerprint, Key, KeyMap};
use crate::moves::{Move, Parts};
use crate::options::Options;
use crate::search::{nodes_kept_whole, Adapter, Child};

/// Pile names in the engine's order (`Canfield.pile_names`).
pub const PILES: [&str; 11] =
    ["stock", "waste", "reserve", "f1", "f2", "f3", "f4", "t1", "t2", "t3", "t4"];
const STOCK: u8 = 0;
const WASTE: u8 = 1;
const RESERVE: u8 = 2;
const F0: u8 = 3;
const T0: u8 = 7;
/// The source of a step that only turns the stock (the last turn sends a base-rank card up).
const TURNS_ONLY: u8 = u8::MAX;

/// The most cards a tableau pile can hold: twelve ranks down round the corner, no base rank.
const PILE_CAP: usize = 12;
/// The reserve as dealt.
const RESERVE_CAP: usize = 13;
/// Cards 19-52 of the deal: the stock and the waste never hold more.
const ORDER_CAP: usize = 34;
/// Room for the waste sizes a stock can reach in one step (two passes).
const POINTS_CAP: usize = 2 * ORDER_CAP + 4;

/// The thirteen ranks of one suit as bits (a suit's cards are `suit * 13` on).
const RANKS: u64 = (1 << 13) - 1;

/// How many levels deep rule 9 splits cases (docs/solving.md, Canfield).
const SPLIT_DEPTH: u32 = 4;

/// The dead-end answers kept before the cache is emptied (it only saves work).
const DEAD_CACHE_MAX: usize = 2_000_000;

#[inline]
fn red(card: u8) -> bool {
    matches!(card / 13, 1 | 2)
}
#[inline]
fn suit(card: u8) -> u8 {
    card / 13
}
#[inline]
fn bit(card: u8) -> u64 {
    1u64 << card
}

/// `card` goes on `onto` in the tableau: one rank lower round the corner, the other colour.
#[inline]
fn fits(card: u8, onto: u8) -> bool {
    (card % 13 + 1) % 13 == onto % 13 && red(card) != red(onto)
}

/// The cards each card goes on in the tableau, as bit sets.
const ONTO_BITS: [u64; 52] = {
    let mut table = [0u64; 52];
    let mut card = 0;
    while card < 52 {
        let mut onto = 0;
        while onto < 52 {
            let card_red = card / 13 == 1 || card / 13 == 2;
            let onto_red = onto / 13 == 1 || onto / 13 == 2;
            if (card % 13 + 1) % 13 == onto % 13 && card_red != onto_red {
                table[card] |= 1u64 << onto;
            }
            onto += 1;
        }
        card += 1;
    }
    table
};

/// For each suit, the two suits of the other colour.
const OPPOSITE: [[u8; 2]; 4] = [[1, 2], [0, 3], [0, 3], [1, 2]];

/// The 13-bit rank set `ranks` one rank lower, round the corner (an ace to a king).
#[inline]
fn down13(ranks: u64) -> u64 {
    ranks >> 1 | (ranks & 1) << 12
}

/// The 13-bit set `mask` turned `by` ranks up, round the corner.
#[inline]
fn rotate13(mask: u64, by: u8) -> u64 {
    ((mask << by) | (mask >> (13 - by))) & RANKS
}

/// `top` (a bit set of cards that can be a pile's top) with the cards of `start` and,
/// repeatedly, every card of `allowed` that goes on one of them added (the Python `_closure`).
#[inline]
fn closure(start: u64, mut top: u64, allowed: u64) -> u64 {
    let mut new = start & !top;
    top |= new;
    while new != 0 {
        // The black cards one rank below a red one, and the red ones below a black one.
        let red = down13((new >> 13 | new >> 26) & RANKS);
        let black = down13((new | new >> 39) & RANKS);
        new = (red | red << 39 | black << 13 | black << 26) & allowed & !top;
        top |= new;
    }
    top
}

/// Canfield's options (RULES.md).
#[derive(Debug)]
pub struct Canfield {
    pub draw: u8,
    /// None: unlimited passes.
    pub passes: Option<u32>,
    /// Whole piles move between tableau piles (`move=pile` or `both`).
    pub move_pile: bool,
    /// Top cards move between tableau piles (`move=top` or `both`).
    pub move_top: bool,
    /// Once the reserve is empty, the stock's top card may fill a space too.
    pub stock_spaces: bool,
    /// The dead-end test's answers by fingerprint of base rank, foundations, piles (as a set)
    /// and reserve; a mutex because the search shares the rules between threads.
    dead_cache: Mutex<KeyMap<bool>>,
}

impl Canfield {
    pub fn new(options: &Options) -> Result<Self, String> {
        let draw = options.int("draw", 3)?;
        if draw != 1 && draw != 3 {
            return Err(format!("canfield: draw is 1 or 3, not {draw}"));
        }
        let (move_pile, move_top) = match options.text("move", "pile") {
            "pile" => (true, false),
            "top" => (false, true),
            "both" => (true, true),
            other => return Err(format!("canfield: move is pile, top or both, not {other:?}")),
        };
        let stock_spaces = match options.text("spaces", "stock-or-waste") {
            "stock-or-waste" => true,
            "waste" => false,
            other => {
                return Err(format!("canfield: spaces is stock-or-waste or waste, not {other:?}"))
            }
        };
        Ok(Canfield {
            draw: draw as u8,
            passes: options.passes("passes")?,
            move_pile,
            move_top,
            stock_spaces,
            dead_cache: Mutex::new(KeyMap::default()),
        })
    }
}

/// A Canfield state as the core holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    tab: [[u8; PILE_CAP]; 4],
    len: [u8; 4],
    /// Each pile's fingerprint (length and cards): the keys are made of these, and a step
    /// recomputes only those of the piles it changes.
    hash: [Key; 4],
    /// Foundation heights by suit.
    found: [u8; 4],
    /// The foundation (0-3) each suit went to, or -1.
    fmap: [i8; 4],
    reserve: [u8; RESERVE_CAP],
    rlen: u8,
    order: [u8; ORDER_CAP],
    olen: u8,
    /// The fingerprint of `order` (recomputed when a card leaves it).
    order_hash: Key,
    w: u8,
    /// The base rank (1-13): the rank of f1's bottom card.
    base: u8,
    redeals: u32,
}

/// Odd multipliers that make a sum of pile fingerprints depend on which pile is where.
const PLACE: [Key; 4] = [
    0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835,
    0xc2b2_ae3d_27d4_eb4f_1656_67b1_9e37_79f9,
    0x85eb_ca77_c2b2_ae63_27d4_eb2f_1656_67c5,
    0xd6e8_feb8_6659_fd93_a076_1d64_78bd_642f,
];

/// Room for a key's bytes: two fingerprints, foundations, suit map, base, the reserve (with its
/// length) and the waste size.
const KEY_BYTES: usize = 16 + 16 + 4 + 4 + 1 + 1 + RESERVE_CAP + 1;

/// Which parts of a node changed and need their fingerprints again.
const DIRTY_ORDER: u8 = 1 << 4;

impl Node {
    #[inline]
    fn pile(&self, index: usize) -> &[u8] {
        &self.tab[index][..self.len[index] as usize]
    }
    #[inline]
    fn top(&self, index: usize) -> Option<u8> {
        self.pile(index).last().copied()
    }
    #[inline]
    fn reserve_top(&self) -> Option<u8> {
        self.reserve[..self.rlen as usize].last().copied()
    }
    /// Each card's place in its foundation (0: the base rank).
    #[inline]
    fn rel(&self, card: u8) -> u8 {
        (card % 13 + 14 - self.base) % 13
    }
    /// The card at `place` of `suit`'s foundation.
    #[inline]
    fn card_at(&self, s: u8, place: u8) -> u8 {
        s * 13 + (place + self.base - 1) % 13
    }
    /// The cards of `s` a foundation of height `height` holds, as a bit set.
    #[inline]
    fn up_to(&self, s: u8, height: u8) -> u64 {
        rotate13((1u64 << height) - 1, self.base - 1) << (13 * s)
    }
    /// The cards of `s` above a foundation of height `height` but the base-rank card (which
    /// never stays in play), as a bit set.
    #[inline]
    fn in_play(&self, s: u8, height: u8) -> u64 {
        let low = (1u64 << height.max(1)) - 1;
        rotate13(RANKS & !low, self.base - 1) << (13 * s)
    }
    fn push_card(&mut self, index: usize, card: u8) {
        let at = self.len[index] as usize;
        self.tab[index][at] = card;
        self.len[index] += 1;
    }
    fn pop_card(&mut self, index: usize) -> u8 {
        self.len[index] -= 1;
        self.tab[index][self.len[index] as usize]
    }
    fn remove_order(&mut self, at: usize) -> u8 {
        let card = self.order[at];
        let olen = self.olen as usize;
        self.order.copy_within(at + 1..olen, at);
        self.olen -= 1;
        card
    }
    fn pile_hash(&self, index: usize) -> Key {
        let mut bytes = [0u8; PILE_CAP + 1];
        let length = self.len[index] as usize;
        bytes[0] = self.len[index];
        bytes[1..1 + length].copy_from_slice(self.pile(index));
        fingerprint(&bytes[..1 + length])
    }
    fn rehash_order(&mut self) {
        let mut bytes = [0u8; ORDER_CAP + 1];
        let olen = self.olen as usize;
        bytes[0] = self.olen;
        bytes[1..1 + olen].copy_from_slice(&self.order[..olen]);
        self.order_hash = fingerprint(&bytes[..1 + olen]);
    }
    /// Recompute the fingerprints the `dirty` bits name (piles 0-3, the order).
    fn rehash(&mut self, dirty: u8) {
        for index in 0..4 {
            if dirty & (1 << index) != 0 {
                self.hash[index] = self.pile_hash(index);
            }
        }
        if dirty & DIRTY_ORDER != 0 {
            self.rehash_order();
        }
    }
    /// The sum of the pile fingerprints: the piles as a multiset (they are interchangeable).
    #[inline]
    fn piles_sum(&self) -> Key {
        self.hash.iter().fold(0, |sum: Key, hash| sum.wrapping_add(*hash))
    }
    /// The layout's bytes (everything of the engine's key but the waste size): the piles in
    /// their places, the stock and waste, the foundations and which suit is where, the base
    /// rank and the reserve; their length.
    fn layout(&self, out: &mut [u8; KEY_BYTES]) -> usize {
        let mut placed: Key = 0;
        for (hash, place) in self.hash.iter().zip(PLACE) {
            placed = placed.wrapping_add(hash.wrapping_mul(place));
        }
        out[..16].copy_from_slice(&placed.to_le_bytes());
        out[16..32].copy_from_slice(&self.order_hash.to_le_bytes());
        out[32..36].copy_from_slice(&self.found);
        for (offset, &f) in self.fmap.iter().enumerate() {
            out[36 + offset] = (f + 1) as u8;
        }
        out[40] = self.base;
        out[41] = self.rlen;
        let rlen = self.rlen as usize;
        out[42..42 + rlen].copy_from_slice(&self.reserve[..rlen]);
        42 + rlen
    }
    /// The suit of foundation `index` (0-3), if it has been started.
    fn foundation_suit(&self, index: usize) -> Option<u8> {
        (0..4u8).find(|&s| self.fmap[s as usize] == index as i8)
    }
    /// The first free foundation (0-3).
    fn free_foundation(&self) -> Option<i8> {
        (0..4i8).find(|i| !self.fmap.contains(i))
    }
    /// Whether `card` goes up next on its foundation (the suit must have been started: the
    /// base-rank card starts it, and that goes up by itself).
    #[inline]
    fn goes_up(&self, card: u8) -> bool {
        self.found[suit(card) as usize] == self.rel(card) && self.fmap[suit(card) as usize] >= 0
    }
}

/// One step: `pre` stock turns, a recycle and `post` more turns, then a card move (`from` is
/// `TURNS_ONLY` when the last turn sent a base-rank card up and no card moves).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    from: u8,
    to: u8,
    count: u8,
    pre: u8,
    recycle: bool,
    post: u8,
}

impl Step {
    fn plain(from: u8, to: u8, count: u8) -> Self {
        Step { from, to, count, pre: 0, recycle: false, post: 0 }
    }
}

/// A waste size the stock can reach: the size, how (turns, recycle, turns), the passes then
/// used, and whether the last turn uncovered a base-rank card (which goes up at once).
#[derive(Clone, Copy, Debug, Default)]
struct Point {
    size: u8,
    pre: u8,
    recycle: bool,
    post: u8,
    redeals: u32,
    base_up: bool,
}

impl Canfield {
    fn passes_left(&self, redeals: u32) -> bool {
        self.passes.is_none_or(|passes| redeals + 1 < passes)
    }

    /// True if every card that could go on `card` in the tableau is on a foundation.
    fn safe(&self, node: &Node, card: u8) -> bool {
        let place = node.rel(card);
        if place == 1 {
            // Only base-rank cards would go on it, and they are never in the tableau.
            return true;
        }
        let [first, second] = OPPOSITE[suit(card) as usize];
        node.found[first as usize] >= place && node.found[second as usize] >= place
    }

    /// Every waste size the stock can reach without repeating a position (the Python
    /// `_points`), into `out`; how many. A turn that uncovers a base-rank card ends the list.
    fn points(&self, node: &Node, out: &mut [Point; POINTS_CAP]) -> usize {
        let mut count = 0;
        let mut add = |point: Point| {
            out[count] = point;
            count += 1;
        };
        let total = node.olen;
        let start = node.w;
        let redeals = node.redeals;
        add(Point { size: start, pre: 0, recycle: false, post: 0, redeals, base_up: false });
        let mut size = start;
        let mut pre = 0u8;
        while size < total {
            size = (size + self.draw).min(total);
            pre += 1;
            let base_up = node.rel(node.order[size as usize - 1]) == 0;
            add(Point { size, pre, recycle: false, post: 0, redeals, base_up });
            if base_up {
                return count;
            }
        }
        // With start 0 the whole stock was turned in this pass: turning the waste over would
        // bring back the node's own position.
        if total == 0 || start == 0 || !self.passes_left(redeals) {
            return count;
        }
        let redeals = redeals + 1;
        add(Point { size: 0, pre, recycle: true, post: 0, redeals, base_up: false });
        size = 0;
        let mut post = 0u8;
        loop {
            size = (size + self.draw).min(total);
            if size == start || size == total {
                break;
            }
            post += 1;
            let base_up = node.rel(node.order[size as usize - 1]) == 0;
            add(Point { size, pre, recycle: true, post, redeals, base_up });
            if base_up {
                break;
            }
        }
        count
    }

    /// The waste sizes after each action of `step` from `node`: the states inside the step
    /// (a turn that sends a base-rank card up ends in the child, so it is not one of them).
    fn trail(&self, node: &Node, step: &Step, out: &mut [u8; POINTS_CAP]) -> usize {
        let mut count = 0;
        let mut size = node.w;
        for _ in 0..step.pre {
            size = (size + self.draw).min(node.olen);
            out[count] = size;
            count += 1;
        }
        if step.recycle {
            size = 0;
            out[count] = size;
            count += 1;
            for _ in 0..step.post {
                size = (size + self.draw).min(node.olen);
                out[count] = size;
                count += 1;
            }
        }
        if step.from == TURNS_ONLY {
            count -= 1;
        }
        count
    }

    // -- the forced moves ---------------------------------------------------------------------

    /// Make the forced moves on `node` as the game module makes them: an available base-rank
    /// card goes up (reserve, t1..t4, then the waste; to the first empty foundation); else the
    /// leftmost space takes the reserve's top card; until neither applies. `dirty` collects
    /// the parts whose fingerprints change; `forced` (the engine's rules) gets the moves.
    fn settle(node: &mut Node, dirty: &mut u8, mut forced: Option<&mut Vec<Move>>) {
        loop {
            if let Some(free) = node.free_foundation() {
                let mut source = None;
                if let Some(card) = node.reserve_top() {
                    if node.rel(card) == 0 {
                        node.rlen -= 1;
                        source = Some((RESERVE, card));
                    }
                }
                if source.is_none() {
                    for index in 0..4 {
                        if let Some(card) = node.top(index) {
                            if node.rel(card) == 0 {
                                node.pop_card(index);
                                *dirty |= 1 << index;
                                source = Some((T0 + index as u8, card));
                                break;
                            }
                        }
                    }
                }
                if source.is_none() && node.w > 0 {
                    let card = node.order[node.w as usize - 1];
                    if node.rel(card) == 0 {
                        node.remove_order(node.w as usize - 1);
                        node.w -= 1;
                        *dirty |= DIRTY_ORDER;
                        source = Some((WASTE, card));
                    }
                }
                if let Some((from, card)) = source {
                    node.fmap[suit(card) as usize] = free;
                    node.found[suit(card) as usize] = 1;
                    if let Some(forced) = forced.as_deref_mut() {
                        forced.push(Move::cards(
                            PILES[from as usize],
                            PILES[(F0 as i8 + free) as usize],
                            1,
                        ));
                    }
                    continue;
                }
            }
            if node.rlen > 0 {
                if let Some(space) = (0..4).find(|&index| node.len[index] == 0) {
                    node.rlen -= 1;
                    let card = node.reserve[node.rlen as usize];
                    node.push_card(space, card);
                    *dirty |= 1 << space;
                    if let Some(forced) = forced.as_deref_mut() {
                        forced.push(Move::cards("reserve", PILES[T0 as usize + space], 1));
                    }
                    continue;
                }
            }
            break;
        }
    }

    /// Settle the forced moves of a child (when any can be due) and refresh its fingerprints.
    #[inline]
    fn finish(child: &mut Node, mut dirty: u8) {
        if child.fmap.contains(&-1) || (child.rlen > 0 && child.len.contains(&0)) {
            Self::settle(child, &mut dirty, None);
        }
        child.rehash(dirty);
    }

    // -- children -----------------------------------------------------------------------------

    fn tableau_to_foundation(&self, node: &Node, index: usize) -> Child<Self> {
        let mut child = node.clone();
        let card = child.pop_card(index);
        let s = suit(card) as usize;
        child.found[s] += 1;
        Self::finish(&mut child, 1 << index);
        (Step::plain(T0 + index as u8, F0 + node.fmap[s] as u8, 1), child)
    }

    /// The reserve's top card onto tableau pile `target` (None: to its foundation).
    fn reserve_move(&self, node: &Node, target: Option<usize>) -> Child<Self> {
        let mut child = node.clone();
        child.rlen -= 1;
        let card = node.reserve[child.rlen as usize];
        let (to, dirty) = match target {
            None => {
                child.found[suit(card) as usize] += 1;
                (F0 + node.fmap[suit(card) as usize] as u8, 0)
            }
            Some(target) => {
                child.push_card(target, card);
                (T0 + target as u8, 1 << target)
            }
        };
        Self::finish(&mut child, dirty);
        (Step::plain(RESERVE, to, 1), child)
    }

    fn tableau_move(&self, node: &Node, source: usize, target: usize, count: usize) -> Child<Self> {
        let mut child = node.clone();
        let size = node.len[source] as usize;
        let at = node.len[target] as usize;
        child.tab[target][at..at + count].copy_from_slice(&node.tab[source][size - count..size]);
        child.len[target] += count as u8;
        child.len[source] -= count as u8;
        Self::finish(&mut child, (1 << source) | (1 << target));
        (Step::plain(T0 + source as u8, T0 + target as u8, count as u8), child)
    }

    /// The waste card at `point` onto tableau pile `target` (None: to its foundation).
    fn waste_move(&self, node: &Node, point: &Point, target: Option<usize>) -> Child<Self> {
        let mut child = node.clone();
        let card = child.remove_order(point.size as usize - 1);
        child.w = point.size - 1;
        child.redeals = point.redeals;
        let (to, dirty) = match target {
            None => {
                child.found[suit(card) as usize] += 1;
                (F0 + node.fmap[suit(card) as usize] as u8, DIRTY_ORDER)
            }
            Some(target) => {
                child.push_card(target, card);
                (T0 + target as u8, DIRTY_ORDER | 1 << target)
            }
        };
        Self::finish(&mut child, dirty);
        let step = Step {
            from: WASTE,
            to,
            count: 1,
            pre: point.pre,
            recycle: point.recycle,
            post: point.post,
        };
        (step, child)
    }

    /// The stock's top card at `point` into the space `space`.
    fn stock_to_space(&self, node: &Node, point: &Point, space: usize) -> Child<Self> {
        let mut child = node.clone();
        let card = child.remove_order(point.size as usize);
        child.w = point.size;
        child.redeals = point.redeals;
        child.push_card(space, card);
        Self::finish(&mut child, DIRTY_ORDER | 1 << space);
        let step = Step {
            from: STOCK,
            to: T0 + space as u8,
            count: 1,
            pre: point.pre,
            recycle: point.recycle,
            post: point.post,
        };
        (step, child)
    }

    /// The turns to `point`, whose last sends a base-rank card up.
    fn turns_only(&self, node: &Node, point: &Point) -> Child<Self> {
        let mut child = node.clone();
        child.w = point.size;
        child.redeals = point.redeals;
        Self::finish(&mut child, 0);
        let step = Step {
            from: TURNS_ONLY,
            to: TURNS_ONLY,
            count: 0,
            pre: point.pre,
            recycle: point.recycle,
            post: point.post,
        };
        (step, child)
    }

    // -- the dead-end test (rules 7, 8 and 9) -------------------------------------------------

    /// True if some reserve card can never leave the reserve, so the node is lost
    /// (docs/solving.md, Canfield, rules 7-9). The answer depends only on the base rank, the
    /// tableau (as a set of piles), the foundations and the reserve, and is cached on those.
    fn dead(&self, node: &Node) -> bool {
        let mut bytes = [0u8; 1 + 4 + 16 + 1 + RESERVE_CAP];
        bytes[0] = node.base;
        bytes[1..5].copy_from_slice(&node.found);
        bytes[5..21].copy_from_slice(&node.piles_sum().to_le_bytes());
        bytes[21] = node.rlen;
        let rlen = node.rlen as usize;
        bytes[22..22 + rlen].copy_from_slice(&node.reserve[..rlen]);
        let key = fingerprint(&bytes[..22 + rlen]);
        if let Some(&known) = self.cache().get(&key) {
            return known;
        }
        let known = self.find_stuck(node) > 0;
        let mut cache = self.cache();
        if cache.len() >= DEAD_CACHE_MAX {
            cache.clear();
        }
        cache.insert(key, known);
        known
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, KeyMap<bool>> {
        // A poisoned lock only means another search panicked: the answers kept are still right.
        self.dead_cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The rule (7, 8 or 9) that proves some reserve card stuck, or 0 (the Python
    /// `_find_stuck`, on the same bit sets). Every tableau pile has cards (the reserve does).
    fn find_stuck(&self, node: &Node) -> u8 {
        let found = &node.found;
        let mut in_tableau = 0u64;
        let mut bottoms = 0u64;
        let mut tops_now = 0u64;
        for index in 0..4 {
            let pile = node.pile(index);
            bottoms |= bit(pile[0]);
            tops_now |= bit(pile[pile.len() - 1]);
            for &card in pile {
                in_tableau |= bit(card);
            }
        }
        // Cards not on a foundation and not of the base rank: those that can be built.
        let free = (0..4u8).fold(0, |set, s| set | node.in_play(s, found[s as usize]));
        // With whole piles moving, a tableau card is uncovered only by the cards above it
        // going up, the one just above it last: `cover[card]` is that card (-1: none).
        let mut cover = [-1i8; 52];
        if !self.move_top {
            for index in 0..4 {
                let pile = node.pile(index);
                for pair in pile.windows(2) {
                    cover[pair[0] as usize] = pair[1] as i8;
                }
            }
        }
        // The heights and tops of the card below, kept while freezing the next card cannot
        // change them.
        let mut height: Option<[u8; 4]> = None;
        let mut up = 0u64;
        let mut top: Option<u64> = None;
        let mut frozen = 0u64;
        let reserve = &node.reserve[..node.rlen as usize];
        for (index, &stuck) in reserve.iter().enumerate() {
            let stuck_bit = bit(stuck);
            frozen |= stuck_bit;
            if height.is_some() && up & stuck_bit != 0 {
                height = None;
            }
            if top.is_some_and(|top| top & stuck_bit != 0) {
                top = None;
            }
            let onto = ONTO_BITS[stuck as usize];
            if found[suit(stuck) as usize] == node.rel(stuck) || tops_now & onto != 0 {
                continue; // it can go up or onto a pile now
            }
            let heights = match height {
                Some(heights) => heights,
                None => {
                    let heights = self.heights(node, &cover, frozen);
                    up = (0..4u8).fold(0, |set, s| set | node.up_to(s, heights[s as usize]));
                    top = None;
                    height = Some(heights);
                    heights
                }
            };
            if heights[suit(stuck) as usize] >= node.rel(stuck) {
                continue; // it could go up (the heights reach it)
            }
            let allowed = free & !(in_tableau | frozen);
            let uncovered = self.uncovered(node, up, in_tableau);
            let tops = *top.get_or_insert_with(|| closure(uncovered, 0, allowed));
            if tops & onto != 0 {
                continue; // it could go onto a pile
            }
            if !(0..4).any(|i| {
                let bottom = node.tab[i][0];
                up & bit(bottom) != 0 || tops & ONTO_BITS[bottom as usize] != 0
            }) {
                return 7; // no pile can ever empty, so no space comes for it
            }
            // Rule 8: the reserve cards above it (not of the base rank) can fill spaces.
            let mut above = [0u8; RESERVE_CAP];
            let mut above_len = 0;
            let mut above_bits = 0u64;
            for &card in &reserve[index + 1..] {
                if node.rel(card) != 0 {
                    above[above_len] = card;
                    above_len += 1;
                    above_bits |= bit(card);
                }
            }
            let above = &above[..above_len];
            let wider = closure(above_bits, tops, allowed);
            if wider & onto != 0 {
                continue;
            }
            if waits_in_vain(node, above, up, wider, 0) {
                return 8;
            }
            // Rule 9: the cards that can be put on a card and never go up.
            let placeable = free & !up & !frozen & !(in_tableau & !bottoms);
            if !self.move_top
                && shared_slot(
                    node,
                    above,
                    uncovered | above_bits,
                    up,
                    wider,
                    allowed,
                    placeable,
                    0,
                    SPLIT_DEPTH,
                )
            {
                return 9;
            }
        }
        0
    }

    /// The tableau cards that can be uncovered with the cards of `up` on foundations: each
    /// pile's top, and with whole piles moving, the cards under it down to the first whose
    /// cover does not go up.
    fn uncovered(&self, node: &Node, up: u64, in_tableau: u64) -> u64 {
        if self.move_top {
            return in_tableau;
        }
        let mut cards = 0u64;
        for index in 0..4 {
            let pile = node.pile(index);
            let mut at = pile.len() - 1;
            cards |= bit(pile[at]);
            while at > 0 && up & bit(pile[at]) != 0 {
                at -= 1;
                cards |= bit(pile[at]);
            }
        }
        cards
    }

    /// The fixpoint of the heights the foundations can reach with the `frozen` cards staying
    /// put and each tableau card waiting for its `cover` to go up (the Python `_heights`).
    fn heights(&self, node: &Node, cover: &[i8; 52], frozen: u64) -> [u8; 4] {
        let mut height = node.found;
        let mut changed = true;
        while changed {
            changed = false;
            for s in 0..4u8 {
                while height[s as usize] < 13 {
                    let card = node.card_at(s, height[s as usize]);
                    if frozen & bit(card) != 0 {
                        break;
                    }
                    let over = cover[card as usize];
                    if over >= 0 && height[suit(over as u8) as usize] <= node.rel(over as u8) {
                        break;
                    }
                    height[s as usize] += 1;
                    changed = true;
                }
            }
        }
        height
    }
}

/// Rule 8's count: no more piles can empty (their bottom card can go up, in `up`, or onto a
/// card of `tops`) than cards `above` the stuck one wait for a space. The cards of `never` are
/// never put on a card.
fn waits_in_vain(node: &Node, above: &[u8], up: u64, tops: u64, never: u64) -> bool {
    let emptied = (0..4)
        .filter(|&i| {
            let bottom = node.tab[i][0];
            never & bit(bottom) == 0
                && (up & bit(bottom) != 0 || tops & ONTO_BITS[bottom as usize] != 0)
        })
        .count();
    let waiting = above
        .iter()
        .filter(|&&card| {
            never & bit(card) != 0 || !(up & bit(card) != 0 || tops & ONTO_BITS[card as usize] != 0)
        })
        .count();
    emptied <= waiting
}

/// Rule 9 (whole piles moving; the Python `_shared_slot`): for two cards of one rank and
/// colour that can never go up and compete for the one card they can go on, rule 8's count
/// (or this rule again, `depth` levels deep) holds with either never put on a card.
#[allow(clippy::too_many_arguments)]
fn shared_slot(
    node: &Node,
    above: &[u8],
    starts: u64,
    up: u64,
    wider: u64,
    allowed: u64,
    placeable: u64,
    never: u64,
    depth: u32,
) -> bool {
    let red_both = placeable >> 13 & placeable >> 26 & RANKS;
    let black_both = placeable & placeable >> 39 & RANKS;
    let red_split = red_both & down13((wider ^ wider >> 39) & RANKS);
    let black_split = black_both & down13((wider >> 13 ^ wider >> 26) & RANKS);
    if red_split | black_split == 0 {
        return false;
    }
    let mut pairs = [(0u8, 0u8); 26];
    let mut count = 0;
    for rank in 0..13u8 {
        if red_split >> rank & 1 != 0 {
            pairs[count] = (13 + rank, 26 + rank);
            count += 1;
        }
    }
    for rank in 0..13u8 {
        if black_split >> rank & 1 != 0 {
            pairs[count] = (rank, 39 + rank);
            count += 1;
        }
    }
    'pairs: for &(first, second) in &pairs[..count] {
        for card in [first, second] {
            let card_bit = bit(card);
            let narrower = allowed & !card_bit;
            // Fewer tops than `wider`, which had none the stuck card goes on.
            let tops = closure(starts, 0, narrower);
            if waits_in_vain(node, above, up, tops, never | card_bit) {
                continue;
            }
            if depth > 1
                && shared_slot(
                    node,
                    above,
                    starts,
                    up,
                    tops,
                    narrower,
                    placeable & !card_bit,
                    never | card_bit,
                    depth - 1,
                )
            {
                continue;
            }
            continue 'pairs;
        }
        return true;
    }
    false
}

impl Adapter for Canfield {
    type Node = Node;
    type Step = Step;
    nodes_kept_whole!(Node);

    fn canonical(&self, node: &Node) -> Key {
        // Within one search the reserve is always a bottom part of the root's, so its length
        // names it; the piles as a multiset; the waste size as rule 3 counts it.
        let mut bytes = [0u8; 16 + 16 + 4 + 2];
        bytes[..16].copy_from_slice(&node.piles_sum().to_le_bytes());
        bytes[16..32].copy_from_slice(&node.order_hash.to_le_bytes());
        bytes[32..36].copy_from_slice(&node.found);
        bytes[36] = node.rlen;
        let w = node.w;
        bytes[37] = if self.passes.is_none() && (w.is_multiple_of(self.draw) || w == node.olen) {
            0
        } else {
            w
        };
        fingerprint(&bytes)
    }

    fn worse(&self, node: &Node) -> u32 {
        // With unlimited passes the count of passes changes nothing.
        if self.passes.is_none() {
            0
        } else {
            node.redeals
        }
    }

    fn path_key(&self, node: &Node) -> Key {
        let mut bytes = [0u8; KEY_BYTES];
        let length = node.layout(&mut bytes);
        bytes[length] = node.w;
        fingerprint(&bytes[..length + 1])
    }

    fn layout_key(&self, node: &Node) -> Key {
        let mut bytes = [0u8; KEY_BYTES];
        let length = node.layout(&mut bytes);
        fingerprint(&bytes[..length])
    }

    fn inner_keys(&self, node: &Node, step: &Step, out: &mut Vec<Key>) {
        if step.pre == 0 && !step.recycle {
            return;
        }
        let mut sizes = [0u8; POINTS_CAP];
        let count = self.trail(node, step, &mut sizes);
        let mut bytes = [0u8; KEY_BYTES];
        let length = node.layout(&mut bytes);
        for &size in &sizes[..count] {
            bytes[length] = size;
            out.push(fingerprint(&bytes[..length + 1]));
        }
    }

    fn won(&self, node: &Node) -> bool {
        node.found.iter().map(|&n| n as u32).sum::<u32>() == 52
    }

    fn moves(&self, _node: &Node, step: &Step) -> Vec<Move> {
        let mut moves = Vec::with_capacity(step.pre as usize + step.post as usize + 2);
        moves.extend((0..step.pre).map(|_| Move::act("stock")));
        if step.recycle {
            moves.push(Move::act("recycle"));
            moves.extend((0..step.post).map(|_| Move::act("stock")));
        }
        if step.from != TURNS_ONLY {
            moves.push(Move::cards(
                PILES[step.from as usize],
                PILES[step.to as usize],
                step.count as u32,
            ));
        }
        moves
    }

    fn steps(&self, node: &Node, dominance: bool, out: &mut Vec<Child<Self>>) {
        if dominance && node.rlen > 0 && self.dead(node) {
            return;
        }
        if dominance {
            for index in 0..4 {
                if let Some(card) = node.top(index) {
                    if node.goes_up(card) && self.safe(node, card) {
                        out.push(self.tableau_to_foundation(node, index));
                        return;
                    }
                }
            }
            if let Some(card) = node.reserve_top() {
                if node.goes_up(card) && self.safe(node, card) {
                    out.push(self.reserve_move(node, None));
                    return;
                }
            }
        }

        // The order of promise: moves to a foundation (tableau, reserve, then from the stock
        // in turning order, with the turns that send a base-rank card up); the reserve's top
        // card onto a pile; tableau moves that empty a pile; plays from the stock onto a pile
        // or a space; other tableau moves.
        for index in 0..4 {
            if let Some(card) = node.top(index) {
                if node.goes_up(card) {
                    out.push(self.tableau_to_foundation(node, index));
                }
            }
        }
        let reserve_top = node.reserve_top();
        if let Some(card) = reserve_top {
            if node.goes_up(card) {
                out.push(self.reserve_move(node, None));
            }
        }
        let mut points = [Point::default(); POINTS_CAP];
        let reached = self.points(node, &mut points);
        let points = &points[..reached];
        for point in points {
            if point.base_up {
                out.push(self.turns_only(node, point));
            } else if point.size > 0 && node.goes_up(node.order[point.size as usize - 1]) {
                out.push(self.waste_move(node, point, None));
            }
        }

        if let Some(card) = reserve_top {
            for target in 0..4 {
                if node.top(target).is_some_and(|onto| fits(card, onto)) {
                    out.push(self.reserve_move(node, Some(target)));
                }
            }
        }

        self.tableau_moves(node, true, out);

        let space = if node.rlen > 0 { None } else { (0..4).find(|&i| node.len[i] == 0) };
        for point in points {
            if point.base_up {
                continue;
            }
            if point.size > 0 {
                let card = node.order[point.size as usize - 1];
                for target in 0..4 {
                    if node.top(target).is_some_and(|onto| fits(card, onto)) {
                        out.push(self.waste_move(node, point, Some(target)));
                    }
                }
                if let Some(space) = space {
                    out.push(self.waste_move(node, point, Some(space)));
                }
            }
            if let Some(space) = space {
                if self.stock_spaces && point.size < node.olen {
                    out.push(self.stock_to_space(node, point, space));
                }
            }
        }

        self.tableau_moves(node, false, out);
    }
}

impl Canfield {
    /// The tableau moves that empty their pile (`emptying`), or the others, in the Python
    /// adapter's order (source, target, whole pile before top card).
    fn tableau_moves(&self, node: &Node, emptying: bool, out: &mut Vec<Child<Self>>) {
        for source in 0..4 {
            let size = node.len[source] as usize;
            if size == 0 {
                continue;
            }
            // With move=both a one-card pile's whole-pile and top-card moves are one move.
            let mut counts = [0usize; 2];
            let mut many = 0;
            if self.move_pile {
                counts[many] = size;
                many += 1;
            }
            if self.move_top && (size > 1 || !self.move_pile) {
                counts[many] = 1;
                many += 1;
            }
            for target in 0..4 {
                if target == source {
                    continue;
                }
                let Some(onto) = node.top(target) else {
                    continue;
                };
                for &count in &counts[..many] {
                    if (count == size) == emptying && fits(node.tab[source][size - count], onto) {
                        out.push(self.tableau_move(node, source, target, count));
                    }
                }
            }
        }
    }
}

// -- the engine's rules, for the differential tests ----------------------------------------------

/// The pile index of `name` in [`PILES`].
fn pile_index(name: &str) -> Option<usize> {
    PILES.iter().position(|pile| *pile == name)
}

impl Canfield {
    /// The cards of pile `index` of [`PILES`], bottom first.
    fn pile_cards(node: &Node, index: usize) -> Vec<u8> {
        match index {
            0 => node.order[node.w as usize..node.olen as usize].iter().rev().copied().collect(),
            1 => node.order[..node.w as usize].to_vec(),
            2 => node.reserve[..node.rlen as usize].to_vec(),
            3..=6 => match node.foundation_suit(index - 3) {
                Some(s) => {
                    (0..node.found[s as usize]).map(|place| node.card_at(s, place)).collect()
                }
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
        Parts { piles, down, extra: vec![node.redeals as i64] }
    }

    /// A node from the engine's state parts; an error for a position the core cannot hold (or
    /// that the engine would refuse).
    pub fn from_parts(&self, parts: &Parts) -> Result<Node, String> {
        if parts.piles.len() != PILES.len() || parts.down.len() != PILES.len() {
            return Err(format!("a canfield position has the {} piles {PILES:?}", PILES.len()));
        }
        if !parts.holds_each_card_once(52) {
            return Err("a canfield position holds each of the 52 cards once".into());
        }
        let stock = &parts.piles[STOCK as usize];
        let waste = &parts.piles[WASTE as usize];
        let reserve = &parts.piles[RESERVE as usize];
        if parts.down[STOCK as usize] as usize != stock.len()
            || parts.down.iter().skip(1).any(|&down| down != 0)
        {
            return Err("the stock lies face down and every other canfield pile face up".into());
        }
        if reserve.len() > RESERVE_CAP {
            return Err(format!("the reserve holds at most {RESERVE_CAP} cards"));
        }
        if stock.len() + waste.len() > ORDER_CAP {
            return Err(format!("the stock and the waste hold at most {ORDER_CAP} cards together"));
        }
        let Some(&first) = parts.piles[F0 as usize].first() else {
            return Err("f1 holds the dealt base card, so it is never empty".into());
        };
        let mut node = Node {
            tab: [[0; PILE_CAP]; 4],
            len: [0; 4],
            hash: [0; 4],
            found: [0; 4],
            fmap: [-1; 4],
            reserve: [0; RESERVE_CAP],
            rlen: reserve.len() as u8,
            order: [0; ORDER_CAP],
            olen: (waste.len() + stock.len()) as u8,
            order_hash: 0,
            w: waste.len() as u8,
            base: first % 13 + 1,
            redeals: 0,
        };
        node.reserve[..reserve.len()].copy_from_slice(reserve);
        let mut seen_empty = false;
        for index in 0..4 {
            let pile = &parts.piles[F0 as usize + index];
            let Some(&bottom) = pile.first() else {
                seen_empty = true;
                continue;
            };
            if seen_empty {
                return Err(format!(
                    "f{} is used while a foundation left of it is empty",
                    index + 1
                ));
            }
            let s = suit(bottom);
            if pile.len() > 13
                || pile.iter().enumerate().any(|(p, &c)| c != node.card_at(s, p as u8))
            {
                return Err(format!(
                    "f{} is not built up in suit round the corner from the base rank",
                    index + 1
                ));
            }
            node.found[s as usize] = pile.len() as u8;
            node.fmap[s as usize] = index as i8;
        }
        for index in 0..4 {
            let pile = &parts.piles[T0 as usize + index];
            let name = PILES[T0 as usize + index];
            if pile.len() > PILE_CAP || pile.windows(2).any(|pair| !fits(pair[1], pair[0])) {
                return Err(format!("{name} is not built down in alternating colours"));
            }
            if pile.iter().any(|&card| node.rel(card) == 0) {
                return Err(format!("{name} holds a base-rank card, but those go up at once"));
            }
            if pile.is_empty() && !reserve.is_empty() {
                return Err(format!("{name} is empty while the reserve has cards"));
            }
            node.tab[index][..pile.len()].copy_from_slice(pile);
            node.len[index] = pile.len() as u8;
        }
        for (name, pile) in [("reserve", reserve), ("waste", waste)] {
            if pile.last().is_some_and(|&card| node.rel(card) == 0) {
                return Err(format!("a base-rank card on top of the {name} goes up at once"));
            }
        }
        node.order[..waste.len()].copy_from_slice(waste);
        for (offset, &card) in stock.iter().rev().enumerate() {
            node.order[waste.len() + offset] = card;
        }
        node.rehash(0x1f);
        let redeals = parts.extra.first().copied().unwrap_or(0);
        if redeals < 0 || redeals > u32::MAX as i64 / 2 {
            return Err(format!("redeals must be a whole number of 0 or more, not {redeals}"));
        }
        if self.passes.is_some_and(|passes| redeals >= passes as i64) {
            return Err(format!("redeals={redeals} is more than the passes allow"));
        }
        node.redeals = redeals as u32;
        Ok(node)
    }

    /// Every move the engine's `candidate_moves` lists, in its order.
    pub fn candidate_moves(&self, node: &Node) -> Vec<Move> {
        let mut moves = Vec::new();
        let piles: Vec<Vec<u8>> = (0..PILES.len()).map(|i| Self::pile_cards(node, i)).collect();
        let sources = [RESERVE as usize, WASTE as usize, 7, 8, 9, 10];
        for source in sources {
            if let Some(&card) = piles[source].last() {
                if node.goes_up(card) {
                    let target = F0 as usize + node.fmap[suit(card) as usize] as usize;
                    moves.push(Move::cards(PILES[source], PILES[target], 1));
                }
            }
        }
        for source in 0..4 {
            let size = node.len[source] as usize;
            if size == 0 {
                continue;
            }
            let counts: &[usize] = match (self.move_pile, self.move_top) {
                (true, false) => &[size],
                (false, _) => &[1],
                (true, true) if size > 1 => &[size, 1],
                (true, true) => &[1],
            };
            for target in 0..4 {
                let Some(onto) = node.top(target) else {
                    continue;
                };
                if target == source {
                    continue;
                }
                for &count in counts {
                    if fits(node.tab[source][size - count], onto) {
                        moves.push(Move::cards(
                            PILES[T0 as usize + source],
                            PILES[T0 as usize + target],
                            count as u32,
                        ));
                    }
                }
            }
        }
        for source in [RESERVE as usize, WASTE as usize] {
            if let Some(&card) = piles[source].last() {
                for target in 0..4 {
                    if node.top(target).is_some_and(|onto| fits(card, onto)) {
                        moves.push(Move::cards(PILES[source], PILES[T0 as usize + target], 1));
                    }
                }
            }
        }
        if node.rlen == 0 {
            let sources: &[usize] =
                if self.stock_spaces { &[WASTE as usize, STOCK as usize] } else { &[1] };
            for &source in sources {
                if !piles[source].is_empty() {
                    for target in 0..4 {
                        if node.len[target] == 0 {
                            moves.push(Move::cards(PILES[source], PILES[T0 as usize + target], 1));
                        }
                    }
                }
            }
        }
        if !piles[STOCK as usize].is_empty() {
            moves.push(Move::act("stock"));
        } else if !piles[WASTE as usize].is_empty() && self.passes_left(node.redeals) {
            moves.push(Move::act("recycle"));
        }
        moves
    }

    /// The node after one of [`Canfield::candidate_moves`], and the forced moves it caused.
    pub fn apply(&self, node: &Node, mv: &Move) -> Result<(Node, Vec<Move>), String> {
        if !self.candidate_moves(node).contains(mv) {
            return Err(format!("{mv} is not a legal move here"));
        }
        let mut after = node.clone();
        let mut forced = Vec::new();
        let mut dirty = 0u8;
        match mv {
            Move::Act { name, .. } if *name == "stock" => {
                after.w = (node.w + self.draw).min(node.olen);
            }
            Move::Act { .. } => {
                after.w = 0;
                after.redeals += 1;
            }
            Move::Cards { from, to, count } => {
                let source = pile_index(from).ok_or("no such pile")?;
                let target = pile_index(to).ok_or("no such pile")?;
                let count = *count as usize;
                let mut run = [0u8; PILE_CAP];
                match source as u8 {
                    STOCK => {
                        run[0] = after.remove_order(node.w as usize);
                        dirty |= DIRTY_ORDER;
                    }
                    WASTE => {
                        run[0] = after.remove_order(node.w as usize - 1);
                        after.w -= 1;
                        dirty |= DIRTY_ORDER;
                    }
                    RESERVE => {
                        after.rlen -= 1;
                        run[0] = node.reserve[after.rlen as usize];
                    }
                    _ => {
                        let index = source - T0 as usize;
                        let size = node.len[index] as usize;
                        run[..count].copy_from_slice(&node.tab[index][size - count..size]);
                        after.len[index] -= count as u8;
                        dirty |= 1 << index;
                    }
                }
                if target >= T0 as usize {
                    let index = target - T0 as usize;
                    for &card in &run[..count] {
                        after.push_card(index, card);
                    }
                    dirty |= 1 << index;
                } else {
                    after.found[suit(run[0]) as usize] += 1;
                }
            }
        }
        Self::settle(&mut after, &mut dirty, Some(&mut forced));
        after.rehash(dirty);
        Ok((after, forced))
    }
}

game_from_inherent!(Canfield, "canfield");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{depth_first, Budget, Verdict};

    use crate::options::options;

    /// A position one move from a win, base rank 5: every card up but the 4 of spades.
    fn almost_won() -> Parts {
        let mut piles = vec![Vec::new(); 11];
        for s in 0..4u8 {
            let height = if s == 3 { 12 } else { 13 };
            piles[3 + s as usize] = (0..height).map(|p| s * 13 + (p + 4) % 13).collect();
        }
        piles[7] = vec![3 * 13 + 3];
        Parts { piles, down: vec![0; 11], extra: vec![0] }
    }

    #[test]
    fn parts_round_trip() {
        let game = Canfield::new(&options(&[])).unwrap();
        let parts = almost_won();
        let node = game.from_parts(&parts).unwrap();
        assert_eq!(game.to_parts(&node), parts);
    }

    #[test]
    fn one_move_wins() {
        let game = Canfield::new(&options(&[])).unwrap();
        let node = game.from_parts(&almost_won()).unwrap();
        let moves = game.candidate_moves(&node);
        assert_eq!(moves, vec![Move::cards("t1", "f4", 1)]);
        let (after, forced) = game.apply(&node, &moves[0]).unwrap();
        assert!(forced.is_empty());
        assert!(game.won(&after));
        let budget = Budget { seconds: None, nodes: Some(100), max_states: 1000, cpu_time: false };
        let found = depth_first(&game, &node, budget, &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
        assert_eq!(found.moves, vec![Move::cards("t1", "f4", 1)]);
    }

    #[test]
    fn forced_moves_follow_a_move() {
        // Base rank 5, clubs all up. The reserve's top card 9s goes onto Th; the 5h under it
        // then goes up to the first free foundation by itself.
        let game = Canfield::new(&options(&[])).unwrap();
        let card = |rank: u8, s: u8| s * 13 + rank - 1;
        let mut piles = vec![Vec::new(); 11];
        piles[3] = (0..13).map(|p| card((p + 4) % 13 + 1, 0)).collect();
        piles[2] = vec![card(5, 2), card(9, 3)];
        piles[7] = vec![card(10, 2)];
        piles[8] = vec![card(7, 1)];
        piles[9] = vec![card(7, 3)];
        piles[10] = vec![card(8, 3)];
        let stock: Vec<u8> = (0..52u8).filter(|c| !piles.iter().any(|p| p.contains(c))).collect();
        let mut down = vec![0; 11];
        down[0] = stock.len() as u32;
        piles[0] = stock;
        let node = game.from_parts(&Parts { piles, down, extra: vec![0] }).unwrap();
        let (after, forced) = game.apply(&node, &Move::cards("reserve", "t1", 1)).unwrap();
        assert_eq!(forced, vec![Move::cards("reserve", "f2", 1)]);
        assert_eq!(after.found[2], 1);
        assert_eq!(after.fmap[2], 1);
        assert_eq!(after.rlen, 0);
        assert_eq!(after.pile(0), &[card(10, 2), card(9, 3)]);
    }

    #[test]
    fn bad_positions_are_refused() {
        let game = Canfield::new(&options(&[])).unwrap();
        let mut parts = almost_won();
        parts.piles[7].push(51);
        assert!(game.from_parts(&parts).is_err());
        assert!(Canfield::new(&options(&[("draw", "2")])).is_err());
        assert!(Canfield::new(&options(&[("move", "some")])).is_err());
        assert!(Canfield::new(&options(&[("spaces", "any")])).is_err());
        let mut parts = almost_won();
        parts.piles[3].clear();
        assert!(game.from_parts(&parts).is_err());
    }

    #[test]
    fn closure_builds_down_round_the_corner() {
        // From the ace of hearts, with only kings and queens allowed: the black kings go on
        // it (round the corner), then the red queens on those; nothing else.
        let kings_and_queens =
            [11u8, 12, 24, 25, 37, 38, 50, 51].iter().fold(0, |s, &c| s | bit(c));
        let tops = closure(bit(26), 0, kings_and_queens);
        assert_eq!(tops, bit(26) | bit(12) | bit(51) | bit(24) | bit(37));
    }
}
