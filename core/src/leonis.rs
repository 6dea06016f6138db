//! Leoni's Own in the core: a compact state, the engine's moves (for the differential tests) and
//! the solver's adapter, rule for rule as `patience/solve/leonis_own.py` (docs/solving.md,
//! "Leoni's Own"), for both `exile` options.
//!
//! A node keeps the cards outside the foundations as one array (piles 1-13, then the exiles,
//! each bottom first) with where each part starts and a cached fingerprint of each part's faces;
//! the foundations as the rank on top of each (four ace foundations, then four king foundations,
//! suits in order) with a bit per rank telling which pack that card is from; the card in hand;
//! the redeals made; the standstill flag; and the deal's standstill notes, shared between nodes
//! (each note a fingerprint of the card and piles 1-12 by face, the number of cards in those
//! piles, and the note itself for [`crate::game::Game::parts`]).
//!
//! Cards are the engine's numbers (0..103, `pack * 52 + suit * 13 + rank - 1`) so that the
//! engine's state comes back card for card; everything the rules and the keys look at is the
//! face (`card % 52`): the two copies of a card are equal in play and in the engine's key.

use std::sync::Arc;

use crate::game::game_from_inherent;
use crate::key::{fingerprint, Key};
use crate::moves::{card_text, Arg, Move, Parts};
use crate::options::Options;
use crate::search::{nodes_kept_whole, one_of_the_first, Adapter, Child};

/// Pile names in the engine's order (`LeonisOwn.pile_names`).
pub const PILES: [&str; 23] = [
    "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8",
    "t9", "t10", "t11", "t12", "t13", "exiles", "hand",
];
/// Where the thirteen piles, the exiles and the hand are in [`PILES`].
const P_T0: usize = 8;
const P_EXILES: usize = 21;
const P_HAND: usize = 22;

/// The node's parts of the card array: piles 1-13 are parts 0-12, the exiles part 13.
const T13: usize = 12;
const SQUARED: usize = 12;
const EXILES: usize = 13;
const PARTS: usize = 14;
/// Cards outside the foundations: the eight base cards never leave them.
const OUTSIDE: usize = 96;

const KING: u8 = 13;
/// The redeals allowed: the third deal is the last.
const LAST: u8 = 2;
/// No card in hand.
const NO_CARD: u8 = 255;
/// A suit whose meeting point a step leaves where it is.
const KEEP: u8 = 255;
/// `exile` with `exile=top`: the top exile.
const TOP: u8 = 255;
/// Bits 1-12: every rank a weave can carry.
const ALL_RANKS: u16 = 0x1ffe;
/// The restart parameters of the Python adapter (docs/solving.md, Leoni's Own, "Restarts").
const RESTART_NODES: u64 = 10_000;
const FIRST_RUN_NODES: u64 = 50_000;
/// With `exile=choose`, the exiles the first narrowed game offers (the top ones).
const NARROWED_EXILES: usize = 2;

#[inline]
fn face(card: u8) -> u8 {
    card % 52
}
#[inline]
fn rank(card: u8) -> u8 {
    card % 52 % 13 + 1
}
#[inline]
fn suit(card: u8) -> usize {
    (card % 52 / 13) as usize
}
/// A rank as a bit (none for kings: a weave never carries a king).
#[inline]
fn rank_bit(card: u8) -> u16 {
    let r = rank(card);
    if r == KING {
        0
    } else {
        1 << r
    }
}

/// Which foundations take a card now: bit 1 its suit's ace foundation, bit 2 its king
/// foundation (the Python `_wanted`).
#[inline]
fn want(found: &[u8; 8], card: u8) -> u8 {
    let (s, r) = (suit(card), rank(card));
    let mut bits = 0;
    if found[s] < KING && r == found[s] + 1 {
        bits |= 1;
    }
    if found[4 + s] > 1 && r + 1 == found[4 + s] {
        bits |= 2;
    }
    bits
}

/// True when a suit's foundations are in sequence (king top = ace top + 1).
#[inline]
fn in_sequence(found: &[u8; 8], s: usize) -> bool {
    found[4 + s] == found[s] + 1
}

/// The fingerprint of a part's cards by face, with its length.
fn part_hash(cards: &[u8]) -> Key {
    let mut bytes = [0u8; OUTSIDE + 1];
    bytes[0] = cards.len() as u8;
    for (slot, &card) in bytes[1..].iter_mut().zip(cards) {
        *slot = face(card);
    }
    fingerprint(&bytes[..cards.len() + 1])
}

/// A note's fingerprint: the card's face and the fingerprints of piles 1-12.
fn note_key(card: u8, piles: &[Key]) -> Key {
    let mut bytes = [0u8; 1 + 16 * SQUARED];
    bytes[0] = face(card);
    for (index, hash) in piles.iter().enumerate() {
        bytes[1 + 16 * index..17 + 16 * index].copy_from_slice(&hash.to_le_bytes());
    }
    fingerprint(&bytes)
}

/// One standstill note: (the card about to go under a pile, piles 1-12), by face.
#[derive(Clone, Debug)]
struct Note {
    /// The cards in piles 1-12 when it was written (rule 6, "dead notes").
    count: u8,
    key: Key,
    /// The card's face, then for each of piles 1-12 its length and its faces bottom first:
    /// the ints of the note in [`Game::parts`].
    data: Arc<[u8]>,
}

/// A deal's standstill notes, oldest first (a set: no note twice).
#[derive(Debug, Default)]
pub struct Notes {
    list: Vec<Note>,
}

impl Notes {
    fn contains(&self, count: u8, key: Key) -> bool {
        self.list.iter().any(|note| note.count == count && note.key == key)
    }
}

/// A Leoni's Own state as the core holds it (see the module's comment).
#[derive(Clone, Debug)]
pub struct Node {
    cards: [u8; OUTSIDE],
    /// Where each part starts in `cards` (`start[14]`: the cards outside the foundations and
    /// the hand).
    start: [u8; PARTS + 1],
    /// Each part's fingerprint (length and faces): the keys are made of these, and a change
    /// recomputes only those of the parts it touches.
    hash: [Key; PARTS],
    /// The rank on top of each foundation.
    found: [u8; 8],
    /// Bit `r - 1` of foundation `f`: its card of rank `r` is from the second pack.
    packs: [u16; 8],
    hand: u8,
    redeals: u8,
    still: bool,
    /// The Python adapter's `ok_mask`: in the last deal with no exile left, the overlapping
    /// suits when the dead-end test last passed here or on an ancestor reached by plays only
    /// (-1: none).
    ok_mask: i8,
    notes: Option<Arc<Notes>>,
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
    fn top(&self, index: usize) -> Option<u8> {
        self.pile(index).last().copied()
    }
    fn rehash(&mut self, index: usize) {
        self.hash[index] = part_hash(self.pile(index));
    }
    /// Take card `at` (from the bottom) out of part `index`.
    fn remove(&mut self, index: usize, at: usize) -> u8 {
        let spot = self.start[index] as usize + at;
        let total = self.start[PARTS] as usize;
        let card = self.cards[spot];
        self.cards.copy_within(spot + 1..total, spot);
        for start in &mut self.start[index + 1..] {
            *start -= 1;
        }
        self.rehash(index);
        card
    }
    /// Put `card` into part `index` at place `at` (from the bottom).
    fn insert(&mut self, index: usize, at: usize, card: u8) {
        let spot = self.start[index] as usize + at;
        let total = self.start[PARTS] as usize;
        self.cards.copy_within(spot..total, spot + 1);
        self.cards[spot] = card;
        for start in &mut self.start[index + 1..] {
            *start += 1;
        }
        self.rehash(index);
    }
    fn push(&mut self, index: usize, card: u8) {
        self.insert(index, self.len(index), card);
    }
    fn pop(&mut self, index: usize) -> u8 {
        self.remove(index, self.len(index) - 1)
    }
    /// The card of rank `r` on foundation `f`.
    fn found_card(&self, f: usize, r: u8) -> u8 {
        let pack = ((self.packs[f] >> (r - 1)) & 1) as u8;
        pack * 52 + (f % 4) as u8 * 13 + r - 1
    }
    /// Put `card` on foundation `f` (it fits).
    fn put_found(&mut self, f: usize, card: u8) {
        let r = rank(card);
        self.found[f] = r;
        if card >= 52 {
            self.packs[f] |= 1 << (r - 1);
        } else {
            self.packs[f] &= !(1 << (r - 1));
        }
    }
    /// Take the top card off foundation `f`.
    fn take_found(&mut self, f: usize) -> u8 {
        let r = self.found[f];
        let card = self.found_card(f, r);
        self.packs[f] &= !(1 << (r - 1));
        self.found[f] = if f < 4 { r - 1 } else { r + 1 };
        card
    }
    /// A reversal: the top card of foundation `f` to the other foundation of its suit.
    fn reverse(&mut self, f: usize) {
        let card = self.take_found(f);
        self.put_found((f + 4) % 8, card);
    }
    /// Move an in-sequence suit's meeting point (the ace foundation's top) to `m` by reversals.
    fn meet_at(&mut self, s: usize, m: u8) {
        while self.found[s] > m {
            self.reverse(s);
        }
        while self.found[s] < m {
            self.reverse(4 + s);
        }
    }
    /// Apply the meeting points of a step.
    fn meet_all(&mut self, points: &[u8; 4]) {
        for (s, &m) in points.iter().enumerate() {
            if m != KEEP {
                self.meet_at(s, m);
            }
        }
    }
    /// Cards in piles 1-12.
    fn squared_count(&self) -> usize {
        self.start[SQUARED] as usize
    }
    /// The cards that may come into piles 1-12 again in this deal, with those there: piles
    /// 1-12, the exiles and the hand (the Python `_live`'s total).
    fn live_total(&self) -> usize {
        self.squared_count() + self.len(EXILES) + usize::from(self.hand != NO_CARD)
    }
    fn exiles_hold(&self, card: u8) -> bool {
        self.pile(EXILES).iter().any(|&c| face(c) == face(card))
    }
    fn won(&self) -> bool {
        self.found == [13, 13, 13, 13, 1, 1, 1, 1]
    }
    /// The bytes of the engine's key: foundation tops, the parts' fingerprints, the hand; with
    /// `erase`, the meeting points of suits in sequence left out and the standstill flag added.
    fn key_bytes(&self, erase: bool, out: &mut [u8; KEY_BYTES]) -> usize {
        let mut found = self.found;
        if erase {
            for s in 0..4 {
                if in_sequence(&self.found, s) {
                    found[s] = 0;
                    found[4 + s] = 0;
                }
            }
        }
        self.body_bytes(&found, out);
        if erase {
            out[BODY_BYTES] = u8::from(self.still);
            BODY_BYTES + 1
        } else {
            BODY_BYTES
        }
    }
    fn body_bytes(&self, found: &[u8; 8], out: &mut [u8; KEY_BYTES]) {
        out[..8].copy_from_slice(found);
        for (index, hash) in self.hash.iter().enumerate() {
            out[8 + 16 * index..24 + 16 * index].copy_from_slice(&hash.to_le_bytes());
        }
        out[8 + 16 * PARTS] = if self.hand == NO_CARD { 0 } else { face(self.hand) + 1 };
    }
    fn path(&self) -> Key {
        let mut bytes = [0u8; KEY_BYTES];
        let length = self.key_bytes(false, &mut bytes);
        fingerprint(&bytes[..length])
    }
}

/// Foundation tops, the parts' fingerprints and the hand.
const BODY_BYTES: usize = 8 + 16 * PARTS + 1;
/// Room for the erased key with the standstill flag and the live notes.
const KEY_BYTES: usize = BODY_BYTES + 1 + 16;

/// What a step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A card to a foundation: `pile`, `place` (from the bottom), `target` (0-7).
    Play,
    /// Turn exile `place` (from the bottom; `TOP`: the top one).
    Exile,
    /// The card in hand to foundation `target`.
    Hand,
    Redeal,
    /// `place` safe plays, one after the other (recomputed from the node when needed).
    Chain,
}

/// One step: the reversals that set the meeting points `points` (the ace foundation's top per
/// suit, or `KEEP`), then the move.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    kind: Kind,
    pile: u8,
    place: u8,
    target: u8,
    points: [u8; 4],
}

impl Step {
    fn new(kind: Kind, pile: u8, place: u8, target: u8) -> Self {
        Step { kind, pile, place, target, points: [KEEP; 4] }
    }
}

/// The cards that may go to a foundation: (part, place, card) of the top of each of piles 1-12
/// and every card of pile 13.
struct Available {
    cards: [(u8, u8, u8); OUTSIDE + SQUARED],
    count: usize,
}

impl Available {
    fn of(node: &Node) -> Self {
        let mut found = Available { cards: [(0, 0, 0); OUTSIDE + SQUARED], count: 0 };
        for index in 0..SQUARED {
            if let Some(top) = node.top(index) {
                found.cards[found.count] = (index as u8, (node.len(index) - 1) as u8, top);
                found.count += 1;
            }
        }
        for (place, &card) in node.pile(T13).iter().enumerate() {
            found.cards[found.count] = (T13 as u8, place as u8, card);
            found.count += 1;
        }
        found
    }
    fn iter(&self) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        self.cards[..self.count]
            .iter()
            .map(|&(pile, place, card)| (pile as usize, place as usize, card))
    }
}

/// The meeting points that leave the player stuck, per suit in sequence (the Python
/// `_settings`): every combination of them is a setting, the first suit's choice varying
/// slowest, each suit's values nearest the current meeting point first.
struct Settings {
    values: [[u8; 12]; 4],
    count: [u8; 4],
}

impl Settings {
    /// None if reversals cannot make the player stuck.
    fn of(found: &[u8; 8], available: &Available) -> Option<Self> {
        let mut taken = [0u16; 4];
        for (_, _, card) in available.iter() {
            let s = suit(card);
            if in_sequence(found, s) {
                taken[s] |= 1 << rank(card);
            } else if want(found, card) != 0 {
                return None;
            }
        }
        let mut settings = Settings { values: [[0; 12]; 4], count: [0; 4] };
        for s in 0..4 {
            if !in_sequence(found, s) {
                continue;
            }
            let meeting = found[s];
            let mut values = [0u8; 12];
            let mut count = 0;
            for m in 1..=12u8 {
                if taken[s] & (1 << m) == 0 && taken[s] & (1 << (m + 1)) == 0 {
                    values[count] = m;
                    count += 1;
                }
            }
            if count == 0 {
                return None;
            }
            values[..count].sort_by_key(|&m| (m.abs_diff(meeting), m));
            settings.values[s] = values;
            settings.count[s] = count as u8;
        }
        Some(settings)
    }
    /// The setting numbered by `digits` (one index per suit).
    fn points(&self, digits: &[u8; 4]) -> [u8; 4] {
        let mut points = [KEEP; 4];
        for s in 0..4 {
            if self.count[s] > 0 {
                points[s] = self.values[s][digits[s] as usize];
            }
        }
        points
    }
    /// The next setting's digits after `digits` (the last suit fastest), or false at the end.
    fn next(&self, digits: &mut [u8; 4]) -> bool {
        for s in (0..4).rev() {
            if self.count[s] == 0 {
                continue;
            }
            digits[s] += 1;
            if digits[s] < self.count[s] {
                return true;
            }
            digits[s] = 0;
        }
        false
    }
}

/// Leoni's Own with its `exile` option (RULES.md).
#[derive(Clone, Debug)]
pub struct LeonisOwn {
    /// `exile=choose`: the player picks the exile to turn.
    pub choose: bool,
    /// With `choose`: offer only this many exiles, the top ones (0: all), in the narrowed
    /// games of [`Adapter::narrowed`].
    offered: usize,
    /// The restart parameters (the Python adapter's; the tests restart more often).
    restart_nodes: Option<u64>,
    first_run_nodes: Option<u64>,
}

impl LeonisOwn {
    /// The rules with their options (`exile`: `top` or `choose`); an error names a wrong one.
    pub fn new(options: &Options) -> Result<Self, String> {
        let choose = match options.text("exile", "top") {
            "top" => false,
            "choose" => true,
            other => return Err(format!("leonis-own: exile is top or choose, not {other:?}")),
        };
        Ok(LeonisOwn {
            choose,
            offered: 0,
            restart_nodes: Some(RESTART_NODES),
            first_run_nodes: Some(FIRST_RUN_NODES),
        })
    }
}

/// What a turned exile does, on a node being built (the engine's `_follow_exile`, `_weave` and
/// `_put_under`), with the forced moves when `forced` is given.
struct Weave<'a> {
    node: &'a mut Node,
    /// The notes the node had before, and the ones this step writes.
    old: Option<Arc<Notes>>,
    new: Vec<Note>,
    /// The suits (bits) of the cards whose fit to a foundation was looked at.
    looked: u8,
    forced: Option<&'a mut Vec<Move>>,
}

impl Weave<'_> {
    fn record(&mut self, mv: impl FnOnce() -> Move) {
        if let Some(forced) = self.forced.as_deref_mut() {
            forced.push(mv());
        }
    }
    fn fits(&mut self, card: u8) -> u8 {
        self.looked |= 1 << suit(card);
        want(&self.node.found, card)
    }
    fn king_to_t13(&mut self, card: u8) {
        self.node.push(T13, card);
        self.record(|| Move::cards("hand", "t13", 1));
    }
    /// True when RULES.md turns the next exile if still stuck.
    fn follow(&mut self, card: u8) -> bool {
        let fits = self.fits(card);
        if fits == 3 {
            self.node.hand = card;
            return false;
        }
        if fits != 0 {
            let target = if fits & 1 != 0 { suit(card) } else { 4 + suit(card) };
            self.node.put_found(target, card);
            self.record(|| Move::cards("hand", PILES[target], 1));
            return false;
        }
        if rank(card) == KING {
            self.king_to_t13(card);
            return true;
        }
        self.weave(card)
    }
    fn weave(&mut self, mut carried: u8) -> bool {
        loop {
            let index = (rank(carried) - 1) as usize;
            if self.put_under(carried) {
                return true;
            }
            let taken = self.node.pop(index);
            self.record(|| {
                act("take", &[("pile", text(PILES[P_T0 + index])), ("card", card_arg(taken))])
            });
            let uncovered = self.node.top(index).expect("the carried card lies under the pile");
            if self.fits(uncovered) != 0 {
                if rank(taken) == KING {
                    self.king_to_t13(taken);
                } else {
                    self.put_under(taken);
                }
                return false;
            }
            if rank(taken) == KING {
                self.king_to_t13(taken);
                return true;
            }
            carried = taken;
        }
    }
    /// Note, then put `card` under the pile of its rank; true at a standstill or an empty pile.
    fn put_under(&mut self, card: u8) -> bool {
        let count = self.node.squared_count() as u8;
        let key = note_key(card, &self.node.hash[..SQUARED]);
        let repeated = self.old.as_ref().is_some_and(|notes| notes.contains(count, key))
            || self.new.iter().any(|note| note.count == count && note.key == key);
        if !repeated {
            let mut data = Vec::with_capacity(1 + SQUARED + count as usize);
            data.push(face(card));
            for index in 0..SQUARED {
                let pile = self.node.pile(index);
                data.push(pile.len() as u8);
                data.extend(pile.iter().map(|&c| face(c)));
            }
            self.new.push(Note { count, key, data: data.into() });
        }
        let index = (rank(card) - 1) as usize;
        let was_empty = self.node.len(index) == 0;
        self.node.insert(index, 0, card);
        self.record(|| {
            act("under", &[("card", card_arg(card)), ("pile", text(PILES[P_T0 + index]))])
        });
        if repeated {
            self.node.still = true;
            self.record(|| Move::act("standstill"));
            return true;
        }
        was_empty
    }
    /// Give the node its notes.
    fn finish(self) -> u8 {
        if !self.new.is_empty() {
            let mut list = self.old.as_ref().map_or_else(Vec::new, |notes| notes.list.clone());
            list.extend(self.new);
            self.node.notes = Some(Arc::new(Notes { list }));
        }
        self.looked
    }
}

fn text(value: &str) -> Arg {
    Arg::Text(value.to_string())
}
fn card_arg(card: u8) -> Arg {
    Arg::Text(card_text(card))
}
fn act(name: &'static str, args: &[(&'static str, Arg)]) -> Move {
    Move::Act { name, args: args.to_vec() }
}

impl LeonisOwn {
    /// Turn exile `place` (or the top one) on `node`, and what follows: with `exile=top`,
    /// further exiles while a chain ends stuck. The suits looked at (a bit mask).
    fn turn_exiles(&self, node: &mut Node, place: u8, forced: Option<&mut Vec<Move>>) -> u8 {
        let card =
            if place == TOP { node.pop(EXILES) } else { node.remove(EXILES, place as usize) };
        let old = node.notes.clone();
        let mut weave = Weave { node, old, new: Vec::new(), looked: 0, forced };
        weave.record(|| act("turn", &[("card", card_arg(card))]));
        let mut card = card;
        while weave.follow(card) && !self.choose {
            if weave.node.hand != NO_CARD || weave.node.still || weave.node.len(EXILES) == 0 {
                break;
            }
            let mut playable = false;
            let available = Available::of(weave.node);
            for (_, _, top) in available.iter() {
                weave.looked |= 1 << suit(top);
                playable |= want(&weave.node.found, top) != 0;
            }
            if playable {
                break;
            }
            card = weave.node.pop(EXILES);
            weave.record(|| act("turn", &[("card", card_arg(card))]));
        }
        weave.finish()
    }

    /// Gather the piles and the exiles into a new stock and deal it with exiling (the
    /// engine's `_redeal`); the exiled cards.
    fn redeal(node: &mut Node) -> Vec<u8> {
        let mut stock = [0u8; OUTSIDE];
        let mut length = 0;
        for index in (0..=T13).rev() {
            for &card in node.pile(index) {
                stock[length] = card;
                length += 1;
            }
        }
        for &card in node.pile(EXILES).iter().rev() {
            stock[length] = card;
            length += 1;
        }
        let mut piles = [[0u8; OUTSIDE]; 13];
        let mut lens = [0usize; 13];
        let mut exiles = Vec::new();
        let mut number = 1u8;
        for &card in &stock[..length] {
            if rank(card) == number {
                exiles.push(card);
                continue;
            }
            let pile = (number - 1) as usize;
            piles[pile][lens[pile]] = card;
            lens[pile] += 1;
            number = number % 13 + 1;
        }
        let mut at = 0usize;
        for pile in 0..13 {
            node.start[pile] = at as u8;
            node.cards[at..at + lens[pile]].copy_from_slice(&piles[pile][..lens[pile]]);
            at += lens[pile];
        }
        node.start[EXILES] = at as u8;
        node.cards[at..at + exiles.len()].copy_from_slice(&exiles);
        node.start[PARTS] = (at + exiles.len()) as u8;
        for index in 0..PARTS {
            node.rehash(index);
        }
        node.redeals += 1;
        node.still = false;
        node.notes = None;
        exiles
    }

    // -- the rules on nodes (the Python adapter) ---------------------------------------------

    /// Won, or lost because the third deal has ended.
    fn finished(node: &Node, available: &Available) -> bool {
        if node.won() {
            return true;
        }
        if node.redeals < LAST || node.hand != NO_CARD {
            return false;
        }
        let found = &node.found;
        if !node.still
            && (node.len(EXILES) > 0 || available.iter().any(|(_, _, c)| want(found, c) != 0))
        {
            return false;
        }
        !available.iter().any(|(_, _, c)| want(found, c) != 0 || in_sequence(found, suit(c)))
    }

    /// The play of card `place` of `pile` to `target` after the meeting points `points`.
    fn play(node: &Node, pile: usize, place: usize, target: usize, points: [u8; 4]) -> Child<Self> {
        let mut child = node.clone();
        child.meet_all(&points);
        let card = child.remove(pile, place);
        child.put_found(target, card);
        child.hand = NO_CARD;
        let step = Step {
            kind: Kind::Play,
            pile: pile as u8,
            place: place as u8,
            target: target as u8,
            points,
        };
        (step, child)
    }

    /// A play never worse than any other step (docs/solving.md, rule 3): (pile, place, target).
    fn safe_play(node: &Node, available: &Available) -> Option<(usize, usize, usize)> {
        let found = &node.found;
        for (pile, place, card) in available.iter() {
            let wanted = want(found, card);
            if wanted == 0 {
                continue;
            }
            let s = suit(card);
            let king = found[4 + s];
            if king == found[s] + 1 {
                continue;
            }
            if king <= found[s]
                || node.exiles_hold(card)
                || (pile < T13 && node.pile(pile)[..place].iter().any(|&c| face(c) == face(card)))
            {
                let target = if wanted & 1 != 0 { s } else { 4 + s };
                return Some((pile, place, target));
            }
        }
        None
    }

    /// Safe plays one after the other as long as there is one, as one step.
    fn safe_chain(node: &Node) -> Option<Child<Self>> {
        let mut here: Option<Node> = None;
        let mut count = 0u8;
        loop {
            let current = here.as_ref().unwrap_or(node);
            let available = Available::of(current);
            let Some((pile, place, target)) = Self::safe_play(current, &available) else {
                break;
            };
            let (_, child) = Self::play(current, pile, place, target, [KEEP; 4]);
            here = Some(child);
            count += 1;
        }
        here.map(|child| (Step::new(Kind::Chain, 0, count, 0), child))
    }

    fn hand_child(node: &Node, target: usize) -> Node {
        let mut child = node.clone();
        child.put_found(target, node.hand);
        child.hand = NO_CARD;
        child.ok_mask = -1;
        child
    }

    /// What an exile step does after the meeting points; the suits the weave looked at.
    fn exile_child(&self, node: &Node, place: u8, points: [u8; 4]) -> (Node, u8) {
        let mut child = node.clone();
        child.meet_all(&points);
        child.ok_mask = -1;
        let looked = self.turn_exiles(&mut child, place, None);
        (child, looked)
    }

    fn redeal_child(node: &Node, points: [u8; 4]) -> Node {
        let mut child = node.clone();
        child.meet_all(&points);
        child.ok_mask = -1;
        Self::redeal(&mut child);
        child
    }

    /// The reversal moves that set the meeting points `points` from `found`.
    fn reversal_moves(found: &[u8; 8], points: &[u8; 4], out: &mut Vec<Move>) {
        for (s, &m) in points.iter().enumerate() {
            if m == KEEP {
                continue;
            }
            let a = found[s];
            let (from, to, times) = if m < a { (s, 4 + s, a - m) } else { (4 + s, s, m - a) };
            for _ in 0..times {
                out.push(Move::cards(PILES[from], PILES[to], 1));
            }
        }
    }

    fn play_move(node: &Node, pile: usize, place: usize, target: usize) -> Move {
        if pile == T13 {
            let card = node.pile(T13)[place];
            act(
                "play",
                &[
                    ("card", card_arg(card)),
                    ("at", Arg::Int(place as i64 + 1)),
                    ("to", text(PILES[target])),
                ],
            )
        } else {
            Move::cards(PILES[P_T0 + pile], PILES[target], 1)
        }
    }
}

/// True if the piles can no longer be played out in the last deal once no exile is left to
/// turn (docs/solving.md, rule 5); and the node's `ok_mask` after the test.
fn blocked(node: &Node) -> (bool, i8) {
    let found = &node.found;
    let mut mask = 0u8;
    for s in 0..4 {
        if found[4 + s] <= found[s] {
            mask |= 1 << s;
        }
    }
    let fixed_exiles = node.len(EXILES) == 0;
    if fixed_exiles && node.ok_mask == mask as i8 {
        // Plays since the test passed only took cards away: no new order, no new circle.
        return (false, node.ok_mask);
    }
    if mask == 0 {
        // Without an overlapping suit the only orders are the piles', which are chains.
        return (false, if fixed_exiles { 0 } else { node.ok_mask });
    }
    // The ranks a weave may still carry: the exiles', then those of any card in the pile of a
    // rank carried (it may be taken).
    let mut carried = 0u16;
    for &card in node.pile(EXILES) {
        carried |= rank_bit(card);
    }
    if carried != 0 {
        let mut holds = [0u16; 13];
        for index in 0..SQUARED {
            for &card in node.pile(index) {
                holds[index + 1] |= rank_bit(card);
            }
        }
        loop {
            let mut grown = carried;
            for (r, &bits) in holds.iter().enumerate().skip(1) {
                if carried >> r & 1 != 0 {
                    grown |= bits;
                }
            }
            if grown == carried {
                break;
            }
            carried = grown;
        }
    }
    if carried == ALL_RANKS {
        // No pile keeps its order, and the foundations' orders alone are chains.
        return (false, node.ok_mask);
    }
    // Positions: a card's index in `cards`, the hand HAND_SPOT.
    const HAND_SPOT: usize = OUTSIDE;
    const SPOTS: usize = OUTSIDE + 1;
    const NOWHERE: u8 = 255;
    let mut place = [NOWHERE; 52];
    let mut edges: [(u8, u8); 2 * OUTSIDE] = [(0, 0); 2 * OUTSIDE];
    let mut count = 0usize;
    for index in 0..=EXILES {
        let begin = node.start[index] as usize;
        let fixed = index < SQUARED && carried & (1 << (index + 1)) == 0;
        for (offset, &card) in node.pile(index).iter().enumerate() {
            if mask >> suit(card) & 1 != 0 {
                place[face(card) as usize] = (begin + offset) as u8;
            }
            if offset > 0 && fixed {
                edges[count] = ((begin + offset) as u8, (begin + offset - 1) as u8);
                count += 1;
            }
        }
    }
    if node.hand != NO_CARD && mask >> suit(node.hand) & 1 != 0 {
        place[face(node.hand) as usize] = HAND_SPOT as u8;
    }
    for s in 0..4 {
        if mask >> s & 1 == 0 {
            // Foundations that have not met may still come to be in sequence.
            continue;
        }
        let base = s * 13;
        let (ace, king) = (found[s] as usize, found[4 + s] as usize);
        let mut link = |from: usize, to: usize| -> bool {
            let (a, b) = (place[base + from - 1], place[base + to - 1]);
            if a == NOWHERE || b == NOWHERE {
                return false;
            }
            edges[count] = (a, b);
            count += 1;
            true
        };
        for r in ace + 2..=13 {
            if !link(r - 1, r) {
                return (false, node.ok_mask);
            }
        }
        for r in (1..king.saturating_sub(1)).rev() {
            if !link(r + 1, r) {
                return (false, node.ok_mask);
            }
        }
    }
    // A circle in the order: Kahn's algorithm leaves some position with an edge into it.
    let mut incoming = [0u8; SPOTS];
    let mut first = [0u16; SPOTS + 1];
    for &(from, to) in &edges[..count] {
        incoming[to as usize] += 1;
        first[from as usize + 1] += 1;
    }
    for spot in 0..SPOTS {
        first[spot + 1] += first[spot];
    }
    let mut targets = [0u8; 2 * OUTSIDE];
    let mut fill = first;
    for &(from, to) in &edges[..count] {
        targets[fill[from as usize] as usize] = to;
        fill[from as usize] += 1;
    }
    let mut ready = [0u8; SPOTS];
    let mut waiting = 0usize;
    let mut top = 0usize;
    for (spot, &count) in incoming.iter().enumerate() {
        if count == 0 {
            ready[top] = spot as u8;
            top += 1;
        } else {
            waiting += 1;
        }
    }
    while top > 0 {
        top -= 1;
        let spot = ready[top] as usize;
        for &to in &targets[first[spot] as usize..first[spot + 1] as usize] {
            incoming[to as usize] -= 1;
            if incoming[to as usize] == 0 {
                waiting -= 1;
                ready[top] = to;
                top += 1;
            }
        }
    }
    if waiting > 0 {
        return (true, node.ok_mask);
    }
    (false, if fixed_exiles { mask as i8 } else { node.ok_mask })
}

impl Adapter for LeonisOwn {
    type Node = Node;
    type Step = Step;
    nodes_kept_whole!(Node);

    fn restart_nodes(&self) -> Option<u64> {
        self.restart_nodes
    }

    fn first_run_nodes(&self) -> Option<u64> {
        self.first_run_nodes
    }

    fn narrowed(&self) -> Option<Self> {
        // With `exile=choose`, turning one of the top two exiles each time is a game inside
        // the game, and inside that one, turning the top exile (the game of `exile=top`, its
        // turns one at a time): their much smaller trees are searched first (docs/solving.md,
        // Leoni's Own, "Choosing the exile").
        let offered = match (self.choose, self.offered) {
            (true, 0) => NARROWED_EXILES,
            (true, 2..) => 1,
            _ => return None,
        };
        Some(LeonisOwn { offered, ..self.clone() })
    }

    fn first_step(&self, canon: Key, steps: &[Child<Self>], restart: u32) -> usize {
        // One of the restart + 1 most promising steps goes first (docs/solving.md, Leoni's
        // Own, "Restarts").
        one_of_the_first(steps.len(), canon, restart, restart as usize + 1)
    }

    fn canonical(&self, node: &Node) -> Key {
        // The erased key and the live notes (rule 6) as a set: the sum of their fingerprints.
        let mut bytes = [0u8; KEY_BYTES];
        let length = node.key_bytes(true, &mut bytes);
        let mut live: Key = 0;
        if let Some(notes) = &node.notes {
            let total = node.live_total();
            for note in &notes.list {
                if note.count as usize <= total {
                    live = live.wrapping_add(note.key);
                }
            }
        }
        bytes[length..length + 16].copy_from_slice(&live.to_le_bytes());
        fingerprint(&bytes[..length + 16])
    }

    fn worse(&self, node: &Node) -> u32 {
        // More redeals used never helps: the count only limits the redeal move.
        node.redeals as u32
    }

    fn path_key(&self, node: &Node) -> Key {
        node.path()
    }

    fn layout_key(&self, node: &Node) -> Key {
        let mut bytes = [0u8; KEY_BYTES];
        let length = node.key_bytes(true, &mut bytes);
        fingerprint(&bytes[..length])
    }

    fn inner_keys(&self, node: &Node, step: &Step, out: &mut Vec<Key>) {
        if step.kind == Kind::Chain {
            let mut here = node.clone();
            for _ in 1..step.place {
                let available = Available::of(&here);
                let (pile, place, target) =
                    Self::safe_play(&here, &available).expect("the chain's play");
                here = Self::play(&here, pile, place, target, [KEEP; 4]).1;
                out.push(here.path());
            }
            return;
        }
        let mut bytes = [0u8; KEY_BYTES];
        let mut here = node.clone();
        for (s, &m) in step.points.iter().enumerate() {
            if m == KEEP {
                continue;
            }
            while here.found[s] != m {
                here.reverse(if m < here.found[s] { s } else { 4 + s });
                here.body_bytes(&here.found, &mut bytes);
                out.push(fingerprint(&bytes[..BODY_BYTES]));
            }
        }
    }

    fn won(&self, node: &Node) -> bool {
        node.won()
    }

    fn moves(&self, node: &Node, step: &Step) -> Vec<Move> {
        let mut moves = Vec::new();
        match step.kind {
            Kind::Chain => {
                let mut here = node.clone();
                for _ in 0..step.place {
                    let available = Available::of(&here);
                    let (pile, place, target) =
                        Self::safe_play(&here, &available).expect("the chain's play");
                    moves.push(Self::play_move(&here, pile, place, target));
                    here = Self::play(&here, pile, place, target, [KEEP; 4]).1;
                }
            }
            Kind::Play => {
                Self::reversal_moves(&node.found, &step.points, &mut moves);
                let mut here = node.clone();
                here.meet_all(&step.points);
                moves.push(Self::play_move(
                    &here,
                    step.pile as usize,
                    step.place as usize,
                    step.target as usize,
                ));
            }
            Kind::Exile => {
                Self::reversal_moves(&node.found, &step.points, &mut moves);
                moves.push(if step.place == TOP {
                    Move::act("exile")
                } else {
                    act("exile", &[("at", Arg::Int(step.place as i64 + 1))])
                });
            }
            Kind::Hand => moves.push(Move::cards("hand", PILES[step.target as usize], 1)),
            Kind::Redeal => {
                Self::reversal_moves(&node.found, &step.points, &mut moves);
                moves.push(Move::act("redeal"));
            }
        }
        moves
    }

    fn steps(&self, node: &Node, dominance: bool, out: &mut Vec<Child<Self>>) {
        let available = Available::of(node);
        if Self::finished(node, &available) {
            return;
        }
        let found = &node.found;
        if node.hand != NO_CARD {
            let wanted = want(found, node.hand);
            let s = suit(node.hand);
            for (bit, target) in [(1, s), (2, 4 + s)] {
                if wanted & bit != 0 {
                    out.push((
                        Step::new(Kind::Hand, 0, 0, target as u8),
                        Self::hand_child(node, target),
                    ));
                }
            }
            return;
        }
        let last = node.redeals == LAST;
        // The node as the steps see it: the dead-end test may record that it passed.
        let mut checked: Option<Node> = None;
        if dominance {
            if last {
                if node.still && node.len(EXILES) > 0 {
                    // Exiles left after a standstill in the last deal never come out.
                    return;
                }
                let (dead, ok_mask) = blocked(node);
                if dead {
                    return;
                }
                if ok_mask != node.ok_mask {
                    let mut copy = node.clone();
                    copy.ok_mask = ok_mask;
                    checked = Some(copy);
                }
            }
            if !node.still || last {
                if let Some(chain) = Self::safe_chain(checked.as_ref().unwrap_or(node)) {
                    out.push(chain);
                    return;
                }
            }
        }
        let base = checked.as_ref().unwrap_or(node);

        // Plays from the squared piles first (they uncover a card), then plays from pile 13
        // and plays that move a meeting point, each in the order of the available cards.
        for pass in 0..2 {
            for (pile, place, card) in available.iter() {
                let (s, r) = (suit(card), rank(card));
                let meeting = found[s];
                if in_sequence(found, s) {
                    if pass == 0 {
                        continue;
                    }
                    // Move the meeting point so that the card fits: to the ace foundation
                    // (meeting point rank - 1) or the king foundation (meeting point rank),
                    // the nearer (the ace foundation on a tie).
                    let mut best: Option<(u8, usize, u8)> = None;
                    if r >= 2 {
                        best = Some(((r - 1).abs_diff(meeting), s, r - 1));
                    }
                    if r <= 12 {
                        let option = (r.abs_diff(meeting), 4 + s, r);
                        if best.is_none_or(|b| option < b) {
                            best = Some(option);
                        }
                    }
                    let (_, target, point) = best.expect("a rank fits one way");
                    let mut points = [KEEP; 4];
                    points[s] = point;
                    out.push(Self::play(base, pile, place, target, points));
                    continue;
                }
                if (pass == 0) != (pile < T13) {
                    continue;
                }
                let wanted = want(found, card);
                for (bit, target) in [(1, s), (2, 4 + s)] {
                    if wanted & bit != 0 {
                        out.push(Self::play(base, pile, place, target, [KEEP; 4]));
                    }
                }
            }
        }

        if !node.still && node.len(EXILES) > 0 {
            if let Some(settings) = Settings::of(found, &available) {
                let places = if self.choose { node.len(EXILES) } else { 1 };
                // The narrowed games offer the top exiles only, named by their places as
                // chosen ones are.
                let lowest = if self.offered > 0 { places.saturating_sub(self.offered) } else { 0 };
                let mut seen: Vec<Key> = Vec::new();
                let mut tried: Vec<([u8; 4], u8)> = Vec::new();
                for number in lowest..places {
                    let place = if self.choose { number as u8 } else { TOP };
                    tried.clear();
                    let mut digits = [0u8; 4];
                    loop {
                        let points = settings.points(&digits);
                        // A setting that agrees with a tried one on every suit its weave
                        // looked at weaves alike.
                        let alike = tried.iter().any(|(other, looked)| {
                            (0..4).all(|s| {
                                looked >> s & 1 == 0
                                    || effective(found, &points, s) == effective(found, other, s)
                            })
                        });
                        if !alike {
                            let (child, looked) = self.exile_child(node, place, points);
                            tried.push((points, looked));
                            let key = self.canonical(&child);
                            if !seen.contains(&key) {
                                seen.push(key);
                                let mut step = Step::new(Kind::Exile, 0, place, 0);
                                step.points = points;
                                out.push((step, child));
                            }
                        }
                        if !settings.next(&mut digits) {
                            break;
                        }
                    }
                }
            }
        }
        if !last {
            if node.still {
                out.push((Step::new(Kind::Redeal, 0, 0, 0), Self::redeal_child(node, [KEEP; 4])));
            } else if node.len(EXILES) == 0 {
                if let Some(settings) = Settings::of(found, &available) {
                    let points = settings.points(&[0; 4]);
                    let mut step = Step::new(Kind::Redeal, 0, 0, 0);
                    step.points = points;
                    out.push((step, Self::redeal_child(node, points)));
                }
            }
        }
    }
}

/// The meeting point of suit `s` after the meeting points `points` (the ace foundation's top).
#[inline]
fn effective(found: &[u8; 8], points: &[u8; 4], s: usize) -> u8 {
    if points[s] == KEEP {
        found[s]
    } else {
        points[s]
    }
}

// -- the engine's rules, for the differential tests ----------------------------------------------

impl LeonisOwn {
    fn stuck(node: &Node) -> bool {
        !Available::of(node).iter().any(|(_, _, card)| want(&node.found, card) != 0)
    }

    fn deal_ended(node: &Node) -> bool {
        node.hand == NO_CARD && (node.still || (node.len(EXILES) == 0 && Self::stuck(node)))
    }

    fn may_turn_exile(node: &Node) -> bool {
        node.hand == NO_CARD && !node.still && node.len(EXILES) > 0 && Self::stuck(node)
    }

    /// The targets of a card, ace foundation first.
    fn targets(found: &[u8; 8], card: u8) -> impl Iterator<Item = usize> {
        let wanted = want(found, card);
        let s = suit(card);
        [(1, s), (2, 4 + s)].into_iter().filter(move |&(bit, _)| wanted & bit != 0).map(|(_, t)| t)
    }

    /// Every move the engine's `candidate_moves` lists, in its order.
    pub fn candidate_moves(&self, node: &Node) -> Vec<Move> {
        let found = &node.found;
        let mut moves = Vec::new();
        if node.hand != NO_CARD {
            for target in Self::targets(found, node.hand) {
                moves.push(Move::cards("hand", PILES[target], 1));
            }
            return moves;
        }
        for index in 0..SQUARED {
            if let Some(top) = node.top(index) {
                for target in Self::targets(found, top) {
                    moves.push(Move::cards(PILES[P_T0 + index], PILES[target], 1));
                }
            }
        }
        for (place, &card) in node.pile(T13).iter().enumerate() {
            for target in Self::targets(found, card) {
                moves.push(Self::play_move(node, T13, place, target));
            }
        }
        for source in 0..8 {
            let target = (source + 4) % 8;
            let base = if source < 4 { 1 } else { KING };
            let top = found[source];
            if top != base
                && Self::targets(found, node.found_card(source, top)).any(|t| t == target)
            {
                moves.push(Move::cards(PILES[source], PILES[target], 1));
            }
        }
        if Self::may_turn_exile(node) {
            if self.choose {
                for place in 0..node.len(EXILES) {
                    moves.push(act("exile", &[("at", Arg::Int(place as i64 + 1))]));
                }
            } else {
                moves.push(Move::act("exile"));
            }
        }
        if node.redeals < LAST && Self::deal_ended(node) {
            moves.push(Move::act("redeal"));
        }
        moves
    }

    /// The node after one of [`LeonisOwn::candidate_moves`], and the forced moves it caused.
    pub fn apply(&self, node: &Node, mv: &Move) -> Result<(Node, Vec<Move>), String> {
        if !self.candidate_moves(node).contains(mv) {
            return Err(format!("{mv} is not a legal move here"));
        }
        let mut after = node.clone();
        after.ok_mask = -1;
        let mut forced = Vec::new();
        let pile_index = |name: &str| PILES.iter().position(|p| *p == name).expect("a pile");
        match mv {
            Move::Cards { from, to, .. } => {
                let (source, target) = (pile_index(from), pile_index(to));
                let card = match source {
                    0..=7 => after.take_found(source),
                    P_HAND => std::mem::replace(&mut after.hand, NO_CARD),
                    _ => after.pop(source - P_T0),
                };
                after.put_found(target, card);
            }
            Move::Act { name: "play", args } => {
                let (mut at, mut target) = (0usize, 0usize);
                for (key, value) in args {
                    match (*key, value) {
                        ("at", Arg::Int(number)) => at = *number as usize - 1,
                        ("to", Arg::Text(name)) => target = pile_index(name),
                        _ => {}
                    }
                }
                let card = after.remove(T13, at);
                after.put_found(target, card);
            }
            Move::Act { name: "exile", args } => {
                let place = match args.first() {
                    Some((_, Arg::Int(number))) => (*number - 1) as u8,
                    _ => TOP,
                };
                self.turn_exiles(&mut after, place, Some(&mut forced));
            }
            Move::Act { .. } => {
                let exiles = Self::redeal(&mut after);
                forced
                    .extend(exiles.iter().map(|&card| act("exiled", &[("card", card_arg(card))])));
            }
        }
        Ok((after, forced))
    }

    /// The engine's state parts of a node (piles in [`PILES`] order; the extras: redeals,
    /// standstill (0 or 1), the number of notes, then each note oldest first: its card's face,
    /// then for each of piles 1-12 its length and its faces bottom first).
    pub fn to_parts(&self, node: &Node) -> Parts {
        let mut piles: Vec<Vec<u8>> = Vec::with_capacity(PILES.len());
        for f in 0..8 {
            let ranks: Vec<u8> = if f < 4 {
                (1..=node.found[f]).collect()
            } else {
                (node.found[f]..=KING).rev().collect()
            };
            piles.push(ranks.into_iter().map(|r| node.found_card(f, r)).collect());
        }
        for index in 0..PARTS {
            piles.push(node.pile(index).to_vec());
        }
        piles.push(if node.hand == NO_CARD { Vec::new() } else { vec![node.hand] });
        let mut down = vec![0u32; PILES.len()];
        down[P_EXILES] = node.len(EXILES) as u32;
        let mut extra = vec![node.redeals as i64, i64::from(node.still)];
        match &node.notes {
            None => extra.push(0),
            Some(notes) => {
                extra.push(notes.list.len() as i64);
                for note in &notes.list {
                    extra.extend(note.data.iter().map(|&value| value as i64));
                }
            }
        }
        Parts { piles, down, extra }
    }

    /// A node from the engine's state parts; an error for a position the core cannot hold.
    pub fn from_parts(&self, parts: &Parts) -> Result<Node, String> {
        if parts.piles.len() != PILES.len() || parts.down.len() != PILES.len() {
            return Err(format!("a leonis-own position has the {} piles {PILES:?}", PILES.len()));
        }
        if !parts.holds_each_card_once(104) {
            return Err("a leonis-own position holds each of the 104 cards once".into());
        }
        for (index, &down) in parts.down.iter().enumerate() {
            let wanted = if index == P_EXILES { parts.piles[index].len() as u32 } else { 0 };
            if down != wanted {
                return Err(if index == P_EXILES {
                    "the exiles lie face down".to_string()
                } else {
                    format!("the {} pile lies face up", PILES[index])
                });
            }
        }
        let mut node = Node {
            cards: [0; OUTSIDE],
            start: [0; PARTS + 1],
            hash: [0; PARTS],
            found: [0; 8],
            packs: [0; 8],
            hand: NO_CARD,
            redeals: 0,
            still: false,
            ok_mask: -1,
            notes: None,
        };
        for (f, pile) in parts.piles[..8].iter().enumerate() {
            let s = (f % 4) as u8;
            let ok = !pile.is_empty()
                && pile.len() <= 13
                && pile.iter().enumerate().all(|(offset, &card)| {
                    let r = if f < 4 { offset as u8 + 1 } else { KING - offset as u8 };
                    face(card) == s * 13 + r - 1
                });
            if !ok {
                let how = if f < 4 { "up from the ace" } else { "down from the king" };
                return Err(format!("{} must be built {how} of its suit", PILES[f]));
            }
            for &card in pile {
                node.put_found(f, card);
            }
        }
        let mut at = 0usize;
        for index in 0..PARTS {
            let pile = &parts.piles[P_T0 + index];
            node.start[index] = at as u8;
            if at + pile.len() > OUTSIDE {
                return Err("more cards lie outside the foundations than the game has".into());
            }
            node.cards[at..at + pile.len()].copy_from_slice(pile);
            at += pile.len();
        }
        node.start[PARTS] = at as u8;
        for index in 0..PARTS {
            node.rehash(index);
        }
        let spread = node.pile(T13);
        if let Some(first) = spread.iter().position(|&c| rank(c) == KING) {
            if spread[first..].iter().any(|&c| rank(c) != KING) {
                return Err("t13: kings join pile 13 on top of its dealt cards".into());
            }
        }
        let extra = &parts.extra;
        let redeals = extra.first().copied().unwrap_or(0);
        if !(0..=LAST as i64).contains(&redeals) {
            return Err(format!("redeals must be 0, 1 or 2, not {redeals}"));
        }
        node.redeals = redeals as u8;
        node.still = match extra.get(1).copied().unwrap_or(0) {
            0 => false,
            1 => true,
            other => return Err(format!("standstill must be 0 or 1, not {other}")),
        };
        let hand = &parts.piles[P_HAND];
        if hand.len() > 1 {
            return Err("the hand holds at most one card".into());
        }
        if let Some(&card) = hand.first() {
            if want(&node.found, card) != 3 {
                return Err("the hand holds an exile only while it fits both foundations".into());
            }
            if node.still {
                return Err("no exile is in the hand after a standstill".into());
            }
            node.hand = card;
        }
        node.notes = Self::notes_from(extra)?;
        Ok(node)
    }

    /// The standstill notes of the extras (see [`LeonisOwn::to_parts`]).
    fn notes_from(extra: &[i64]) -> Result<Option<Arc<Notes>>, String> {
        let bad = || "the standstill notes are not well formed".to_string();
        let count = extra.get(2).copied().unwrap_or(0);
        if count < 0 {
            return Err(bad());
        }
        let mut at = 3usize;
        let mut list: Vec<Note> = Vec::new();
        for _ in 0..count {
            let mut data = Vec::new();
            let mut next = || -> Result<u8, String> {
                let value = *extra.get(at).ok_or_else(bad)?;
                at += 1;
                u8::try_from(value).map_err(|_| bad())
            };
            let card = next()?;
            if card >= 52 {
                return Err(bad());
            }
            data.push(card);
            let mut hashes = [0 as Key; SQUARED];
            let mut total = 0usize;
            for hash in &mut hashes {
                let length = next()? as usize;
                total += length;
                if total > OUTSIDE {
                    return Err(bad());
                }
                data.push(length as u8);
                let begin = data.len();
                for _ in 0..length {
                    let value = next()?;
                    if value >= 52 {
                        return Err(bad());
                    }
                    data.push(value);
                }
                *hash = part_hash(&data[begin..]);
            }
            let key = note_key(card, &hashes);
            if list.iter().any(|note| note.count as usize == total && note.key == key) {
                return Err("the standstill notes list a note twice".into());
            }
            list.push(Note { count: total as u8, key, data: data.into() });
        }
        if extra.len() > at {
            return Err(bad());
        }
        Ok(if list.is_empty() { None } else { Some(Arc::new(Notes { list })) })
    }
}

game_from_inherent!(LeonisOwn, "leonis-own");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{depth_first, solver_search, Budget, Verdict};

    use crate::options::options;

    /// xorshift64*: a small reproducible generator for the test positions.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// A random position with `left` cards off the foundations, from one, two or all four
    /// suits, spread over a few squared piles, pile 13 and the exiles, in the second or the
    /// last deal (the Python tests' `endgame`).
    fn endgame(seed: u64, left: usize) -> Parts {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let (mut ace, mut king) = ([13u8; 4], [1u8; 4]);
        let suits: &[usize] = [&[0][..], &[1, 2][..], &[0, 1, 2, 3][..]][rng.below(3)];
        let mut out: Vec<u8> = Vec::new();
        while out.len() < left {
            let s = suits[rng.below(suits.len())];
            if rng.below(2) == 0 && ace[s] > 1 {
                out.push(s as u8 * 13 + ace[s] - 1);
                ace[s] -= 1;
            } else if king[s] < 13 {
                out.push(s as u8 * 13 + king[s] - 1);
                king[s] += 1;
            }
        }
        for index in (1..out.len()).rev() {
            out.swap(index, rng.below(index + 1));
        }
        let mut copies = [0u8; 52];
        let mut card = |face: u8| {
            let id = copies[face as usize] * 52 + face;
            copies[face as usize] += 1;
            id
        };
        let mut piles: Vec<Vec<u8>> = vec![Vec::new(); PILES.len()];
        for s in 0..4 {
            piles[s] = (1..=ace[s]).map(|r| card(s as u8 * 13 + r - 1)).collect();
            piles[4 + s] = (king[s]..=13).rev().map(|r| card(s as u8 * 13 + r - 1)).collect();
        }
        let exiles = rng.below(out.len().min(4) + 1);
        piles[P_EXILES] = out[..exiles].iter().map(|&f| card(f)).collect();
        let used: Vec<usize> = (0..2 + rng.below(4)).map(|_| rng.below(12)).collect();
        let mut spread = Vec::new();
        for &f in &out[exiles..] {
            if rank(f) != KING && rng.below(100) >= 15 {
                piles[P_T0 + used[rng.below(used.len())]].push(card(f));
            } else {
                spread.push(card(f));
            }
        }
        spread.sort_by_key(|&c| rank(c) == KING);
        piles[P_T0 + T13] = spread;
        let mut down = vec![0u32; PILES.len()];
        down[P_EXILES] = exiles as u32;
        let redeals = [1, 2, 2][rng.below(3)];
        Parts { piles, down, extra: vec![redeals, 0, 0] }
    }

    fn budget(nodes: u64) -> Budget {
        Budget { seconds: None, nodes: Some(nodes), max_states: 1 << 22, cpu_time: false }
    }

    /// Replay `moves` through the engine's rules from `node`: true if they are legal and win.
    fn replays(game: &LeonisOwn, node: &Node, moves: &[Move]) -> bool {
        let mut here = node.clone();
        for mv in moves {
            match game.apply(&here, mv) {
                Ok((after, _)) => here = after,
                Err(_) => return false,
            }
        }
        here.won()
    }

    #[test]
    fn parts_round_trip() {
        let game = LeonisOwn::new(&options(&[])).unwrap();
        for seed in 0..50 {
            let parts = endgame(seed, 4 + seed as usize % 16);
            let node = game.from_parts(&parts).unwrap();
            assert_eq!(game.to_parts(&node), parts);
        }
    }

    #[test]
    fn notes_round_trip_and_a_repeated_note_is_refused() {
        let game = LeonisOwn::new(&options(&[])).unwrap();
        let mut parts = endgame(7, 12);
        // Two notes: 5c with pile 2 holding 7h 2c and piles 1, 3-12 empty; 9d with piles 1-12
        // empty.
        let mut first = vec![4i64, 0, 2, 32, 1];
        first.extend_from_slice(&[0; 10]);
        let mut second = vec![22i64];
        second.extend_from_slice(&[0; 12]);
        parts.extra = vec![1, 0, 2];
        parts.extra.extend(&first);
        parts.extra.extend(&second);
        let node = game.from_parts(&parts).unwrap();
        assert_eq!(game.to_parts(&node), parts);
        parts.extra = vec![1, 0, 2];
        parts.extra.extend(&second);
        parts.extra.extend(&second);
        assert!(game.from_parts(&parts).unwrap_err().contains("twice"));
        parts.extra = vec![1, 0, 1, 52];
        assert!(game.from_parts(&parts).is_err());
    }

    #[test]
    fn one_move_wins() {
        let game = LeonisOwn::new(&options(&[])).unwrap();
        let mut parts = endgame(1, 1);
        // Whatever card is out, put it on pile 13 so that it is available.
        let card: Vec<u8> = parts.piles.iter_mut().skip(P_T0).flat_map(std::mem::take).collect();
        parts.piles[P_T0 + T13] = card;
        parts.down[P_EXILES] = 0;
        let node = game.from_parts(&parts).unwrap();
        let found = depth_first(&game, &node, budget(100), &[], true, true, &mut || false);
        assert_eq!(found.verdict, Verdict::Won);
        assert_eq!(found.moves.len(), 1);
        assert!(replays(&game, &node, &found.moves));
    }

    #[test]
    fn pruning_and_restarts_change_no_answer() {
        // The dominance rules, the table and restarts every 3 nodes (which keep only proved
        // losses in the table) give the same answers, and every win replays.
        for choose in [false, true] {
            let pairs: &[(&str, &str)] = if choose { &[("exile", "choose")] } else { &[] };
            let game = LeonisOwn::new(&options(pairs)).unwrap();
            let mut restarting = game.clone();
            restarting.restart_nodes = Some(3);
            restarting.first_run_nodes = None;
            let (mut won, mut lost, mut longest) = (0, 0, 0);
            for seed in 0..40 {
                let node = game.from_parts(&endgame(seed, 12 + seed as usize % 6)).unwrap();
                let mut verdicts = Vec::new();
                for (adapter, dominance, table) in [
                    (&game, true, true),
                    (&game, false, true),
                    (&game, true, false),
                    (&restarting, true, true),
                ] {
                    let found = depth_first(
                        adapter,
                        &node,
                        budget(200_000),
                        &[],
                        dominance,
                        table,
                        &mut || false,
                    );
                    if found.verdict == Verdict::Won {
                        assert!(replays(&game, &node, &found.moves), "seed {seed}");
                    }
                    longest = longest.max(found.nodes);
                    verdicts.push(found.verdict);
                }
                assert!(verdicts.iter().all(|&v| v == verdicts[0]), "seed {seed}: {verdicts:?}");
                won += usize::from(verdicts[0] == Verdict::Won);
                lost += usize::from(verdicts[0] == Verdict::Unwinnable);
            }
            assert!(won >= 5 && lost >= 5, "won {won}, lost {lost}");
            // The restarts did happen: some search ran past the first one.
            assert!(longest > 3);
        }
    }

    #[test]
    fn the_narrowed_search_of_choose_wins_only_real_wins() {
        // With `exile=choose` the solver first searches the games turning one of the top two
        // exiles and only the top one: their wins replay in the game with the choice, their
        // losses prove nothing, and the solver's answer is the plain search's wherever both
        // resolve.
        let game = LeonisOwn::new(&options(&[("exile", "choose")])).unwrap();
        let narrow = game.narrowed().expect("choose has a narrowed game");
        let top = narrow.narrowed().expect("the top two exiles' game has the top exile's");
        assert!(top.narrowed().is_none());
        assert!(LeonisOwn::new(&options(&[])).unwrap().narrowed().is_none());
        let (mut narrowed_wins, mut only_wider) = (0, 0);
        for seed in 0..200 {
            let node = game.from_parts(&endgame(seed, 12 + seed as usize % 12)).unwrap();
            let plain = depth_first(&game, &node, budget(400_000), &[], true, true, &mut || false);
            let mut top_won = false;
            for inner in [&narrow, &top] {
                let found =
                    depth_first(inner, &node, budget(400_000), &[], true, true, &mut || false);
                if found.verdict == Verdict::Won {
                    assert!(replays(&game, &node, &found.moves), "seed {seed}");
                    assert_eq!(plain.verdict, Verdict::Won, "seed {seed}");
                    narrowed_wins += 1;
                    top_won = std::ptr::eq(inner, &top);
                }
            }
            let solved =
                solver_search(&game, &node, budget(1_000_000), &[], true, true, &mut || false);
            if solved.verdict == Verdict::Won {
                assert!(replays(&game, &node, &solved.moves), "seed {seed}");
            }
            if plain.verdict != Verdict::Unknown && solved.verdict != Verdict::Unknown {
                assert_eq!(plain.verdict, solved.verdict, "seed {seed}");
            }
            only_wider += usize::from(plain.verdict == Verdict::Won && !top_won);
        }
        assert!(narrowed_wins >= 5, "{narrowed_wins} wins of the narrowed game");
        // Some endgames are won only by choosing an exile other than the top one.
        assert!(only_wider >= 1, "no endgame needed the choice ({narrowed_wins} narrowed wins)");
    }

    #[test]
    fn bad_positions_are_refused() {
        let game = LeonisOwn::new(&options(&[])).unwrap();
        let mut parts = endgame(3, 10);
        let card = parts.piles[0][0];
        parts.piles[P_T0].push(card);
        assert!(game.from_parts(&parts).unwrap_err().contains("104 cards once"));
        let mut parts = endgame(3, 10);
        parts.extra = vec![3, 0, 0];
        assert!(game.from_parts(&parts).is_err());
        let mut parts = endgame(3, 10);
        parts.down[P_EXILES] += 1;
        assert!(game.from_parts(&parts).is_err());
        assert!(LeonisOwn::new(&options(&[("exile", "bottom")])).is_err());
    }
}
