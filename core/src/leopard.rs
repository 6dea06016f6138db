//! Leopard for search (docs/bots.md, "The compiled core"): the rules of one deal as
//! `patience.games.leopard` plays them (moves, forced draws, the end of the deal and its
//! points), the playout policy, the search rewards, the searching seat's information key, worlds
//! dealt from a seat's knowledge, and the bots' ISMCTS loop over them. The Python rules are the
//! reference; tests/test_core_leopard.py proves this module plays the same game.
//!
//! A search state ends with its deal (the engine's `single_deal`): the next deal's cards are
//! unknown to everyone. Cards are faces (0..51): Leopard's two packs are equal in play. Actions
//! are the engine's integer actions (docs/notation.md, "Action numbers").

use crate::clock::Playouts;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A face-down layer: the face with this bit set and the seat who laid it shifted in.
pub const DOWN: u16 = 128;
pub const SEAT_SHIFT: u16 = 8;
pub const DISCARD: u16 = 52 * 27;
pub const DECLARE: u16 = DISCARD + 52;
pub const ASK: u16 = DECLARE + 1;
pub const YES: u16 = ASK + 1;
pub const NO: u16 = YES + 1;
pub const DRAW: u16 = NO + 1;
pub const NUM_ACTIONS: u16 = DRAW + 1;

/// The phases, numbered as they cross to Python.
pub const START: u8 = 0;
pub const ANSWER: u8 = 1;
pub const PLAY: u8 = 2;
pub const OVER: u8 = 3;

const JACK: u8 = 11;
const QUEEN: u8 = 12;
const TEN: u8 = 10;
const NINE: u8 = 9;
const KING: u8 = 13;
const CARDS: usize = 104;
/// A hand holds at most eight cards and the one drawn.
const HAND_MAX: usize = 9;
const NO_LAYER: u16 = u16::MAX;

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const RED: [bool; 4] = [false, true, true, false];

/// The lines through each position index, as indexes into LINES (corners 3, edges 2, the
/// centre 4), in the order of LINES.
const LINES_AT: [&[usize]; 9] = [
    &[0, 3, 6],
    &[0, 4],
    &[0, 5, 7],
    &[1, 3],
    &[1, 4, 6, 7],
    &[1, 5],
    &[2, 3, 7],
    &[2, 4],
    &[2, 5, 6],
];

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random 64-bit number per face, for the hand's hash as a multiset.
const fn face_keys() -> [u64; 52] {
    let mut keys = [0; 52];
    let mut i = 0;
    while i < 52 {
        keys[i] = splitmix(0x5EED_0000 + i as u64);
        i += 1;
    }
    keys
}
const FACE_KEYS: [u64; 52] = face_keys();

/// Whether a card of `face` may lie face down: a jack anywhere, a queen in its own side's
/// square (`own_square`).
fn may_lie_face_down(face: u8, own_square: bool) -> bool {
    let r = rank(face);
    r == JACK || (own_square && r == QUEEN)
}

fn rank(face: u8) -> u8 {
    face % 13 + 1
}

fn line_score(x: i8, y: i8, z: i8) -> i32 {
    if x < 0 || y < 0 || z < 0 {
        return 0;
    }
    if x == y && y == z {
        return 2;
    }
    let (a, b, c) = (RED[x as usize], RED[y as usize], RED[z as usize]);
    i32::from(a == b && b == c)
}

/// A small random number generator (xoshiro256**), seeded from the bot's own generator.
#[derive(Clone)]
pub struct Rng([u64; 4]);

impl Rng {
    pub fn new(seed: u64) -> Self {
        let mut s = seed;
        let mut state = [0; 4];
        for word in &mut state {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            *word = splitmix(s);
        }
        Rng(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A number in 0..n (n > 0), without modulo bias worth speaking of (n is small).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// A float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The options that matter to one deal's search: players, and how the match ends.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub players: usize,
    pub sides: usize,
    /// Deals in the match (None: off).
    pub deals: Option<u32>,
    /// The target (None: off).
    pub target: Option<i32>,
}

impl Rules {
    pub fn new(players: usize, deals: Option<u32>, target: Option<i32>) -> Result<Self, String> {
        if !(2..=4).contains(&players) {
            return Err(format!("leopard has 2, 3 or 4 players, not {players}"));
        }
        if deals.is_none() && target.is_none() {
            return Err("leopard: a match needs deals=N or target=N (both are off)".into());
        }
        let sides = if players == 4 { 2 } else { players };
        Ok(Rules { players, sides, deals, target })
    }
}

/// One deal of Leopard in play. The squares are kept as the list of layers laid, in order
/// (`log`: layer and cell `side * 9 + index`), with the top layer of each cell at hand.
#[derive(Clone)]
pub struct State {
    pub stock: [u8; CARDS],
    pub stock_len: u8,
    pub hands: [[u8; HAND_MAX]; 4],
    pub hand_len: [u8; 4],
    pub log: [(u8, u16); CARDS],
    pub log_len: u8,
    pub top: [u16; 27],
    pub discards: [u8; CARDS],
    pub discards_len: u8,
    pub dealer: u8,
    pub turn: u8,
    pub phase: u8,
    /// The seat who asked (-1: nobody).
    pub asker: i8,
    pub deal_index: u32,
    /// Deals scored in the match so far (the engine's `len(history)`).
    pub history_len: u32,
    pub totals: [i32; 3],
}

impl State {
    pub fn hand(&self, seat: usize) -> &[u8] {
        &self.hands[seat][..self.hand_len[seat] as usize]
    }

    pub fn stock(&self) -> &[u8] {
        &self.stock[..self.stock_len as usize]
    }

    pub fn discards(&self) -> &[u8] {
        &self.discards[..self.discards_len as usize]
    }

    /// The layers of cell `side * 9 + index`, bottom to top.
    pub fn cell(&self, cell: usize) -> Vec<u16> {
        self.log[..self.log_len as usize]
            .iter()
            .filter(|(c, _)| *c as usize == cell)
            .map(|(_, layer)| *layer)
            .collect()
    }

    fn lay(&mut self, cell: usize, layer: u16) {
        self.log[self.log_len as usize] = (cell as u8, layer);
        self.log_len += 1;
        self.top[cell] = layer;
    }

    /// The suit of each position's top card in a square (-1: empty or face down).
    fn suits(&self, side: usize) -> [i8; 9] {
        let mut suits = [-1; 9];
        for (index, suit) in suits.iter_mut().enumerate() {
            let layer = self.top[side * 9 + index];
            if layer < DOWN {
                *suit = (layer / 13) as i8;
            }
        }
        suits
    }

    fn vacant(&self, cell: usize) -> bool {
        let layer = self.top[cell];
        layer == NO_LAYER || layer >= DOWN
    }
}

/// The value of a square: 2 for each full line of one suit, else 1 if of one colour.
fn suits_value(suits: &[i8; 9]) -> i32 {
    LINES.iter().map(|&[a, b, c]| line_score(suits[a], suits[b], suits[c])).sum()
}

/// What a square's unfinished lines promise (the engine's `Leopard.promise`).
fn promise(suits: &[i8; 9]) -> f64 {
    let mut total = 0.0;
    for &[a, b, c] in &LINES {
        let mut known = [0i8; 2];
        let mut count = 0;
        for suit in [suits[a], suits[b], suits[c]] {
            if suit >= 0 {
                if count < 2 {
                    known[count] = suit;
                }
                count += 1;
            }
        }
        if count != 2 {
            continue;
        }
        if known[0] == known[1] {
            total += 0.6;
        } else if RED[known[0] as usize] == RED[known[1] as usize] {
            total += 0.25;
        }
    }
    total
}

/// A line's part of a square's worth for the greedy playout policy, in 600ths of a point:
/// its value, or for a line with two face-up cards and its third position vacant the promise
/// (`promise`: 0.6 for one suit, 0.25 for one colour) weighted by `weight`/30 (the stock's
/// size up to 30), so that 600 * (value + min(1, stock / 30) * promise) comes out exact.
fn line_worth(suits: &[i8; 9], [a, b, c]: [usize; 3], weight: i64) -> i64 {
    let (x, y, z) = (suits[a], suits[b], suits[c]);
    let (p, q) = match (x < 0, y < 0, z < 0) {
        (false, false, false) => return 600 * i64::from(line_score(x, y, z)),
        (true, false, false) => (y, z),
        (false, true, false) => (x, z),
        (false, false, true) => (x, y),
        _ => return 0,
    };
    if p == q {
        12 * weight
    } else if RED[p as usize] == RED[q as usize] {
        5 * weight
    } else {
        0
    }
}

fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

impl Rules {
    /// A state from the engine's parts (faces; layers `face | DOWN | seat << SEAT_SHIFT`).
    #[allow(clippy::too_many_arguments)]
    pub fn state(
        &self,
        stock: &[u8],
        hands: &[Vec<u8>],
        squares: &[Vec<Vec<u16>>],
        discards: &[u8],
        numbers: &[i64],
    ) -> Result<State, String> {
        let (players, sides) = (self.players, self.sides);
        if hands.len() != players || squares.len() != sides {
            return Err(format!("leopard: {players} hands and {sides} squares"));
        }
        if numbers.len() != 6 + sides {
            return Err(
                "leopard: dealer, turn, phase, asker, deal index, deals scored, totals".into()
            );
        }
        let mut state = State {
            stock: [0; CARDS],
            stock_len: 0,
            hands: [[0; HAND_MAX]; 4],
            hand_len: [0; 4],
            log: [(0, 0); CARDS],
            log_len: 0,
            top: [NO_LAYER; 27],
            discards: [0; CARDS],
            discards_len: 0,
            dealer: 0,
            turn: 0,
            phase: PLAY,
            asker: -1,
            deal_index: 0,
            history_len: 0,
            totals: [0; 3],
        };
        let mut count = [0u8; 52];
        let mut take = |face: u8| -> Result<u8, String> {
            if face >= 52 {
                return Err(format!("leopard: card {face} is not a face 0..51"));
            }
            count[face as usize] += 1;
            if count[face as usize] > 2 {
                return Err(format!("leopard: face {face} more than twice"));
            }
            Ok(face)
        };
        for &face in stock {
            state.stock[state.stock_len as usize] = take(face)?;
            state.stock_len += 1;
        }
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() > HAND_MAX {
                return Err(format!("leopard: hand {seat} holds more than {HAND_MAX} cards"));
            }
            for &face in hand {
                state.hands[seat][state.hand_len[seat] as usize] = take(face)?;
                state.hand_len[seat] += 1;
            }
        }
        for (side, square) in squares.iter().enumerate() {
            if square.len() != 9 {
                return Err(format!("leopard: square {side} has 9 positions"));
            }
            for (index, cell) in square.iter().enumerate() {
                for &layer in cell {
                    if layer >= DOWN && layer & DOWN == 0 {
                        return Err(format!("leopard: layer {layer} is no layer"));
                    }
                    let face = (layer & (DOWN - 1)) as u8;
                    take(face)?;
                    if layer >= DOWN && (layer >> SEAT_SHIFT) as usize >= players {
                        return Err(format!("leopard: layer {layer} laid by no seat"));
                    }
                    // Face down lie only jacks, and queens in their own side's square (worlds
                    // are dealt by that rule: another card there has no card to be dealt as).
                    let own_square = (layer >> SEAT_SHIFT) as usize % sides == side;
                    if layer >= DOWN && !may_lie_face_down(face, own_square) {
                        return Err(format!(
                            "leopard: layer {layer}: only jacks, and queens in their own \
                             square, lie face down"
                        ));
                    }
                    state.lay(side * 9 + index, layer);
                }
            }
        }
        for &face in discards {
            state.discards[state.discards_len as usize] = take(face)?;
            state.discards_len += 1;
        }
        if count.iter().map(|&c| c as usize).sum::<usize>() != CARDS {
            return Err("leopard: a position holds all 104 cards once".into());
        }
        let small = |value: i64, limit: usize, what: &str| -> Result<u8, String> {
            if value < 0 || value as usize >= limit {
                return Err(format!("leopard: {what} {value} out of range"));
            }
            Ok(value as u8)
        };
        state.dealer = small(numbers[0], players, "dealer")?;
        state.turn = small(numbers[1], players, "turn")?;
        state.phase = small(numbers[2], 4, "phase")?;
        // A hand holds eight cards between turns and nine while its seat plays after drawing:
        // a seat about to draw with a full hand has no room for the card.
        for (seat, &held) in state.hand_len[..players].iter().enumerate() {
            let most = if seat == state.turn as usize && state.phase == PLAY { 9 } else { 8 };
            if held as usize > most {
                return Err(format!(
                    "leopard: hand {seat} holds {held} cards, more than the {most} it may hold now"
                ));
            }
        }
        if state.phase == PLAY && state.hand_len[state.turn as usize] == 0 {
            return Err("leopard: the seat to move plays from an empty hand".into());
        }
        state.asker = if numbers[3] < 0 { -1 } else { small(numbers[3], players, "asker")? as i8 };
        // The asker's partner answers, in phase answer only (as the engine's positions).
        if (state.phase == ANSWER) != (state.asker >= 0)
            || (state.asker >= 0 && state.turn as usize != (state.asker as usize + 2) % 4)
        {
            return Err("leopard: the asker is the seat whose partner must answer, in phase \
                        answer"
                .into());
        }
        // (Counts and totals far beyond any match: what is added to them cannot overflow.)
        let count = |value: i64, what: &str| {
            u32::try_from(value)
                .ok()
                .filter(|&value| value <= 1_000_000)
                .ok_or_else(|| format!("leopard: {what} {value} out of range"))
        };
        state.deal_index = count(numbers[4], "deal index")?;
        state.history_len = count(numbers[5], "deals scored")?;
        for side in 0..sides {
            let total = numbers[6 + side];
            state.totals[side] = i32::try_from(total)
                .ok()
                .filter(|total| total.abs() <= 1_000_000)
                .ok_or_else(|| format!("leopard: total {total} out of range"))?;
        }
        Ok(state)
    }

    /// The numbers of a state as they cross to Python (the inverse of `state`'s).
    pub fn numbers(&self, state: &State) -> Vec<i64> {
        let mut numbers = vec![
            state.dealer as i64,
            state.turn as i64,
            state.phase as i64,
            state.asker as i64,
            state.deal_index as i64,
            state.history_len as i64,
        ];
        numbers.extend(state.totals[..self.sides].iter().map(|&t| t as i64));
        numbers
    }

    pub fn square_value(&self, state: &State, side: usize) -> i32 {
        suits_value(&state.suits(side))
    }

    /// Each side's points if the deal ended now (`declarer` -1: nobody declared).
    pub fn deal_points(&self, state: &State, declarer: i32) -> [i32; 3] {
        let mut points = [0; 3];
        for (side, p) in points.iter_mut().enumerate().take(self.sides) {
            *p = self.square_value(state, side);
        }
        if declarer >= 0 {
            let side = declarer as usize % self.sides;
            points[side] = 4 + 2 * (points[side] - 5);
        }
        points
    }

    pub fn is_terminal(&self, state: &State) -> bool {
        state.phase == OVER
    }

    /// The legal actions in the engine's order of its legal moves (by the hand).
    pub fn actions(&self, state: &State, out: &mut Vec<u16>) {
        out.clear();
        match state.phase {
            PLAY => self.play_actions(state, out),
            START => {
                out.push(DECLARE);
                if self.players == 4 {
                    out.push(ASK);
                }
                out.push(DRAW);
            }
            ANSWER => out.extend([YES, NO]),
            _ => {}
        }
    }

    fn play_actions(&self, state: &State, out: &mut Vec<u16>) {
        let seat = state.turn as usize;
        let own = seat % self.sides;
        let mut seen = 0u64;
        for &face in state.hand(seat) {
            if seen >> face & 1 == 1 {
                continue;
            }
            seen |= 1 << face;
            let r = rank(face);
            let base = face as u16 * 27;
            if r <= NINE {
                let index = (r - 1) as usize;
                for square in 0..self.sides {
                    if state.vacant(square * 9 + index) {
                        out.push(base + (square * 9 + index) as u16);
                    }
                }
            } else if r == TEN {
                for index in 0..9 {
                    if state.vacant(own * 9 + index) {
                        out.push(base + (own * 9 + index) as u16);
                    }
                }
            } else if r == JACK {
                out.extend(base..base + (self.sides * 9) as u16);
            } else {
                let start = base + (own * 9) as u16;
                out.extend(start..start + 9);
            }
            out.push(DISCARD + face as u16);
        }
    }

    fn begin_turn(&self, state: &mut State) {
        if self.square_value(state, state.turn as usize % self.sides) >= 5 {
            state.phase = START;
        } else {
            self.draw(state);
        }
    }

    fn draw(&self, state: &mut State) {
        if state.stock_len == 0 {
            self.end_deal(state, -1);
            return;
        }
        state.stock_len -= 1;
        let card = state.stock[state.stock_len as usize];
        let seat = state.turn as usize;
        state.hands[seat][state.hand_len[seat] as usize] = card;
        state.hand_len[seat] += 1;
        state.phase = PLAY;
    }

    fn end_deal(&self, state: &mut State, declarer: i32) {
        let points = self.deal_points(state, declarer);
        for (total, gain) in state.totals.iter_mut().zip(points).take(self.sides) {
            *total += gain;
        }
        state.history_len += 1;
        state.phase = OVER;
        state.asker = -1;
    }

    /// Make `action` (legal) in place.
    pub fn apply(&self, state: &mut State, action: u16) {
        let seat = state.turn as usize;
        if action < DECLARE {
            let face = if action < DISCARD { action / 27 } else { action - DISCARD } as u8;
            let len = state.hand_len[seat] as usize;
            let hand = &mut state.hands[seat];
            let at = hand[..len].iter().position(|&c| c == face).expect("the card is in the hand");
            hand.copy_within(at + 1..len, at);
            state.hand_len[seat] -= 1;
            if action < DISCARD {
                let cell = (action % 27) as usize;
                let r = rank(face);
                let layer = if r == JACK || r == QUEEN {
                    face as u16 | DOWN | (seat as u16) << SEAT_SHIFT
                } else {
                    face as u16
                };
                state.lay(cell, layer);
            } else {
                state.discards[state.discards_len as usize] = face;
                state.discards_len += 1;
            }
            state.turn = ((seat + 1) % self.players) as u8;
            self.begin_turn(state);
        } else if action == DRAW {
            self.draw(state);
        } else if action == DECLARE {
            self.end_deal(state, seat as i32);
        } else if action == ASK {
            state.asker = seat as i8;
            state.turn = ((seat + 2) % 4) as u8;
            state.phase = ANSWER;
        } else {
            let asker = state.asker;
            state.turn = asker as u8;
            state.asker = -1;
            if action == YES {
                self.end_deal(state, asker as i32);
            } else {
                self.draw(state);
            }
        }
    }

    /// The playout policy's choices (the engine's `Leopard.rollout_choices`): one action out
    /// of the play phase, else the best plays by gain in one's own square or loss in a rival's
    /// (one entry per card of the hand that makes it), else a discard per card of the hand.
    pub fn rollout_choices(&self, state: &State, out: &mut Vec<u16>) {
        out.clear();
        let seat = state.turn as usize;
        if state.phase != PLAY {
            let declarer = if state.phase == ANSWER { state.asker as i32 } else { seat as i32 };
            let side = declarer as usize % self.sides;
            let points = self.deal_points(state, declarer);
            let best_other = (0..self.sides).filter(|&i| i != side).map(|i| points[i]).max();
            let won = points[side] > best_other.unwrap_or(i32::MIN);
            let value = self.square_value(state, side);
            let late = state.stock_len < 8;
            out.push(if state.phase == ANSWER {
                if won && (value >= 6 || late) {
                    YES
                } else {
                    NO
                }
            } else if won && (value >= 7 || late) {
                DECLARE
            } else {
                DRAW
            });
            return;
        }
        let own = seat % self.sides;
        let mut own_suits = state.suits(own);
        let mut best = 0;
        let hand = state.hand(seat);
        let mut rival_suits = [[-1i8; 9]; 3];
        for (side, suits) in rival_suits.iter_mut().enumerate().take(self.sides) {
            *suits = state.suits(side);
        }
        for &face in hand {
            let r = rank(face);
            let suit = (face / 13) as i8;
            if r <= TEN || r == KING {
                let (from, to) = if r <= NINE { ((r - 1) as usize, r as usize) } else { (0, 9) };
                for index in from..to {
                    let layer = state.top[own * 9 + index];
                    let empty = layer == NO_LAYER;
                    if r <= TEN && !empty && layer < DOWN {
                        continue;
                    }
                    let mut gain = 0;
                    for &line in LINES_AT[index] {
                        let [a, b, c] = LINES[line];
                        let old = line_score(own_suits[a], own_suits[b], own_suits[c]);
                        let saved = own_suits[index];
                        own_suits[index] = suit;
                        gain += line_score(own_suits[a], own_suits[b], own_suits[c]) - old;
                        own_suits[index] = saved;
                    }
                    let gain = 2 * gain + i32::from(empty && r <= NINE);
                    let action = face as u16 * 27 + (own * 9 + index) as u16;
                    if gain > best {
                        best = gain;
                        out.clear();
                        out.push(action);
                    } else if gain == best && gain > 0 {
                        out.push(action);
                    }
                }
            } else if r == JACK {
                for (other, suits) in rival_suits.iter().enumerate().take(self.sides) {
                    if other == own {
                        continue;
                    }
                    for index in 0..9 {
                        if suits[index] < 0 {
                            continue;
                        }
                        let lines = LINES_AT[index];
                        let loss: i32 = lines
                            .iter()
                            .map(|&line| {
                                let [a, b, c] = LINES[line];
                                line_score(suits[a], suits[b], suits[c])
                            })
                            .sum();
                        if 2 * loss > best {
                            best = 2 * loss;
                            out.clear();
                            out.push(face as u16 * 27 + (other * 9 + index) as u16);
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            out.extend(hand.iter().map(|&face| DISCARD + face as u16));
        }
    }

    /// The greedy playout policy's choices (the engine's `Leopard.playout_choices`): out of
    /// the play phase the playout policy's one action; else the plays (and discards) that
    /// leave the mover's side the best worth margin one ply ahead, as the `greedy` bot judges
    /// (its square's value and the promise of its unfinished lines, weighted by the stock,
    /// against the best rival's), in exact integers (600 a point, the promise in twentieths
    /// times the stock's size up to 30); of those, the ones the playout policy names too, if
    /// any, else all of them, in the order of the legal actions.
    pub fn playout_choices(&self, state: &State, out: &mut Vec<u16>, legal: &mut Vec<u16>) {
        if state.phase != PLAY {
            self.rollout_choices(state, out);
            return;
        }
        let weight = i64::from(state.stock_len.min(30));
        let mut suits = [[-1i8; 9]; 3];
        let mut lines = [[0i64; 8]; 3];
        let mut worth = [0i64; 3];
        for side in 0..self.sides {
            suits[side] = state.suits(side);
            for (at, &line) in LINES.iter().enumerate() {
                lines[side][at] = line_worth(&suits[side], line, weight);
            }
            worth[side] = lines[side].iter().sum();
        }
        let own = state.turn as usize % self.sides;
        let margin = |worth: &[i64; 3]| -> i64 {
            let mut best = i64::MIN;
            for (side, &w) in worth.iter().enumerate().take(self.sides) {
                if side != own && w > best {
                    best = w;
                }
            }
            worth[own] - best
        };
        let unchanged = margin(&worth);
        // The margin after putting suit s (0..3, 4: face down) on each cell, worked out once.
        let mut memo = [[i64::MIN; 5]; 27];
        self.actions(state, legal);
        legal.sort_unstable();
        let mut best = i64::MIN;
        let mut scores = [0i64; 256];
        for (at, &action) in legal.iter().enumerate() {
            let score = if action >= DISCARD {
                unchanged
            } else {
                let face = (action / 27) as u8;
                let cell = (action % 27) as usize;
                let r = rank(face);
                let code = if r == JACK || r == QUEEN { 4 } else { (face / 13) as usize };
                if memo[cell][code] == i64::MIN {
                    let (side, index) = (cell / 9, cell % 9);
                    let suit = if code == 4 { -1 } else { code as i8 };
                    memo[cell][code] = if suits[side][index] == suit {
                        unchanged
                    } else {
                        let square = &mut suits[side];
                        let saved = square[index];
                        square[index] = suit;
                        let mut delta = 0;
                        for &line in LINES_AT[index] {
                            delta += line_worth(square, LINES[line], weight) - lines[side][line];
                        }
                        square[index] = saved;
                        let mut after = worth;
                        after[side] += delta;
                        margin(&after)
                    };
                }
                memo[cell][code]
            };
            scores[at] = score;
            best = best.max(score);
        }
        out.clear();
        out.extend((0..legal.len()).filter(|&at| scores[at] == best).map(|at| legal[at]));
        if out.len() > 1 {
            // Of equal moves, those the cheap policy names, if any.
            let mut cheap = Vec::new();
            self.rollout_choices(state, &mut cheap);
            if out.iter().any(|action| cheap.contains(action)) {
                out.retain(|action| cheap.contains(action));
            }
        }
    }

    /// The greedy playout policy's action: one of `playout_choices` at random.
    pub fn playout_action(
        &self,
        state: &State,
        rng: &mut Rng,
        scratch: &mut Vec<u16>,
        legal: &mut Vec<u16>,
    ) -> u16 {
        self.playout_choices(state, scratch, legal);
        if scratch.len() == 1 {
            scratch[0]
        } else {
            scratch[rng.below(scratch.len())]
        }
    }

    /// The playout policy's action (the engine's `rollout_action`).
    pub fn rollout_action(&self, state: &State, rng: &mut Rng, scratch: &mut Vec<u16>) -> u16 {
        self.rollout_choices(state, scratch);
        if scratch.len() == 1 {
            scratch[0]
        } else {
            scratch[rng.below(scratch.len())]
        }
    }

    fn match_over(&self, state: &State) -> bool {
        let totals = &state.totals[..self.sides];
        let top = *totals.iter().max().expect("sides");
        if totals.iter().filter(|&&t| t == top).count() != 1 {
            return false;
        }
        if let Some(target) = self.target {
            if top >= target {
                return true;
            }
        }
        matches!(self.deals, Some(deals) if state.history_len >= deals)
    }

    /// About how many deals the match has left after this one (the engine's `deals_left`).
    fn deals_left(&self, state: &State) -> i64 {
        let over = state.phase == OVER;
        if over && self.match_over(state) {
            return 0;
        }
        let played = state.history_len as i64 + i64::from(!over);
        let least = i64::from(over);
        if let Some(deals) = self.deals {
            return (deals as i64 - played).max(least);
        }
        let top = *state.totals[..self.sides].iter().max().expect("sides") as i64;
        let target = self.target.expect("a target when deals are off") as i64;
        // ceil((target - top) / 6) as Python's math.ceil of the true quotient.
        let gap = target - top;
        let ceil = gap.div_euclid(6) + i64::from(gap.rem_euclid(6) != 0);
        ceil.max(least)
    }

    /// Each seat's search reward (the engine's `Leopard.search_rewards`), in `out`.
    pub fn rewards(&self, state: &State, out: &mut [f64; 4]) {
        let sides = self.sides;
        let left = self.deals_left(state);
        let mut worth = [0.0f64; 3];
        let terminal = state.phase == OVER && left == 0;
        if state.phase == OVER {
            for (w, &total) in worth.iter_mut().zip(&state.totals).take(sides) {
                *w = total as f64;
            }
        } else {
            let weight = (state.stock_len as f64 / 30.0).min(1.0);
            for (side, w) in worth.iter_mut().enumerate().take(sides) {
                let suits = state.suits(side);
                *w = (state.totals[side] as f64 + suits_value(&suits) as f64)
                    + weight * promise(&suits);
            }
        }
        let scale = 3.0 * ((1 + left) as f64).sqrt();
        for (seat, reward) in out.iter_mut().enumerate().take(self.players) {
            let side = seat % sides;
            let other = (0..sides)
                .filter(|&i| i != side)
                .map(|i| worth[i])
                .fold(f64::NEG_INFINITY, f64::max);
            let margin = worth[side] - other;
            *reward = if terminal {
                let result = if margin > 0.0 {
                    1.0
                } else if margin < 0.0 {
                    0.0
                } else {
                    0.5
                };
                0.95 * result + 0.05 * (0.5 + 0.5 * (margin / 3.0).tanh())
            } else {
                logistic(margin / scale)
            };
        }
    }

    /// What `observer` knows of the deal, hashed (the engine's `information_key` within one
    /// deal: the totals, history and dealer are the same in every state of a search): who is to
    /// move, the phase and asker, the stock's and hands' sizes, the observer's hand as a set of
    /// faces, the discards, and every cell's layers with a face-down card's face only if the
    /// observer laid it.
    pub fn information_key(&self, state: &State, observer: usize) -> u64 {
        let mut h = Fx(0);
        h.add(state.turn as u64);
        h.add(state.phase as u64);
        h.add(state.asker as i64 as u64);
        h.add(state.stock_len as u64);
        for seat in 0..self.players {
            h.add(state.hand_len[seat] as u64);
        }
        let hand: u64 = state
            .hand(observer)
            .iter()
            .fold(0u64, |acc, &f| acc.wrapping_add(FACE_KEYS[f as usize]));
        h.add(hand);
        for &face in state.discards() {
            h.add(face as u64);
        }
        h.add(0xD15C);
        let mut cells = [0u64; 27];
        for &(cell, layer) in &state.log[..state.log_len as usize] {
            let seen = if layer < DOWN || (layer >> SEAT_SHIFT) as usize == observer {
                layer
            } else {
                layer & !(DOWN - 1)
            };
            let c = &mut cells[cell as usize];
            *c = splitmix(*c ^ (seen as u64 + 1));
        }
        for c in &cells[..self.sides * 9] {
            h.add(*c);
        }
        h.0
    }
}

/// A small multiply-rotate hash (FxHash's step) for the information key.
struct Fx(u64);

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
}

/// Where the cards a seat does not see lie in a world, and which of them must be jacks:
/// worlds are dealt again by shuffling these cards among these places.
pub struct Unseen {
    /// Cards not seen by the seat (faces), in any order.
    pool: Vec<u8>,
    /// Face-down layers laid by another seat: (log index, laid by, must be a jack).
    down: Vec<(usize, u16, bool)>,
    seat: usize,
}

impl Unseen {
    /// The unseen cards of `state` for `seat`: the other hands, the stock, the face-down cards
    /// others laid (a jack when laid in another side's square, a jack or a queen in its own).
    pub fn new(rules: &Rules, state: &State, seat: usize) -> Self {
        let mut pool = Vec::new();
        for other in 0..rules.players {
            if other != seat {
                pool.extend_from_slice(state.hand(other));
            }
        }
        pool.extend_from_slice(state.stock());
        let mut down = Vec::new();
        for (at, &(cell, layer)) in state.log[..state.log_len as usize].iter().enumerate() {
            if layer >= DOWN {
                let by = layer >> SEAT_SHIFT;
                if by as usize != seat {
                    let side = cell as usize / 9;
                    down.push((at, by, side != by as usize % rules.sides));
                    pool.push((layer & (DOWN - 1)) as u8);
                }
            }
        }
        // Slots that must hold a jack are filled first, so that the jacks and queens left always
        // suffice for the others.
        down.sort_by_key(|slot| !slot.2);
        Unseen { pool, down, seat }
    }

    /// A world consistent with what the seat knows: the unseen cards dealt at random (every
    /// consistent deal equally likely, as the engine's `sample_state`).
    pub fn deal(&self, rules: &Rules, state: &State, rng: &mut Rng, pool: &mut Vec<u8>) -> State {
        let mut world = state.clone();
        pool.clear();
        pool.extend_from_slice(&self.pool);
        for i in (1..pool.len()).rev() {
            let j = rng.below(i + 1);
            pool.swap(i, j);
        }
        let mut next = 0;
        for &(at, by, must_jack) in &self.down {
            let found = pool[next..]
                .iter()
                .position(|&face| may_lie_face_down(face, !must_jack))
                .expect("the face-down cards were jacks and queens of the pool")
                + next;
            pool.swap(next, found);
            let face = pool[next];
            next += 1;
            let (cell, _) = world.log[at];
            world.log[at] = (cell, face as u16 | DOWN | by << SEAT_SHIFT);
        }
        for other in 0..rules.players {
            if other == self.seat {
                continue;
            }
            let len = world.hand_len[other] as usize;
            world.hands[other][..len].copy_from_slice(&pool[next..next + len]);
            next += len;
        }
        let len = world.stock_len as usize;
        world.stock[..len].copy_from_slice(&pool[next..next + len]);
        // The tops of the cells whose face-down layers changed.
        for &(at, _, _) in &self.down {
            let (cell, _) = world.log[at];
            let last = world.log[..world.log_len as usize].iter().rposition(|&(c, _)| c == cell);
            if last == Some(at) {
                world.top[cell as usize] = world.log[at].1;
            }
        }
        world
    }
}

/// The search's parameters (docs/bots.md, `ismcts`).
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub iterations: u64,
    /// A wall-clock budget instead of iterations.
    pub seconds: Option<f64>,
    pub exploration: f64,
    pub bias: f64,
    /// Playout moves before the state is scored (None: to the end of the deal).
    pub rollout_depth: Option<u32>,
    /// Playouts (and a node's first move tried) by the greedy policy (`playout_choices`)
    /// instead of the cheap one (`rollout_choices`).
    pub greedy_playouts: bool,
}

const WIDENING: f64 = 2.0;
const MAX_TREE_DEPTH: usize = 60;

struct Edge {
    action: u16,
    visits: u32,
    available: u32,
    total: f64,
    bias: f64,
}

struct Node {
    visits: u32,
    edges: Vec<Edge>,
    /// The progressive bias of each move seen legal here (from the second visit on).
    biases: Vec<(u16, f64)>,
}

/// The keys are hashes already: the table uses them as they are.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("keys are u64")
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// What a search answers: the root's edges (action, visits, summed reward, bias), the
/// iterations run and the nodes made.
pub struct Searched {
    pub edges: Vec<(u16, u32, f64, f64)>,
    pub iterations: u64,
    pub nodes: usize,
}

/// ISMCTS from `state`, a world dealt from `seat`'s view (the same search as the engine's
/// `IsmctsBot.decide`: nodes keyed by the seat's information set and who is to move, UCB1 with
/// availability counts and a fading progressive bias, progressive widening, playouts by the
/// policy cut after `rollout_depth` moves, an early stop once the runner-up cannot catch up).
pub fn ismcts(
    rules: &Rules,
    state: &State,
    seat: usize,
    params: &Params,
    rng: &mut Rng,
) -> Searched {
    let unseen = Unseen::new(rules, state, seat);
    let mut tree: HashMap<u64, usize, BuildHasherDefault<Identity>> = HashMap::default();
    let mut nodes: Vec<Node> = Vec::new();
    let mut playouts = Playouts::new(params.seconds, params.iterations);
    let c = params.exploration;
    let mut root: Option<usize> = None;
    let mut legal: Vec<u16> = Vec::with_capacity(128);
    let mut untried: Vec<u16> = Vec::with_capacity(128);
    let mut scratch: Vec<u16> = Vec::with_capacity(16);
    let mut scratch_legal: Vec<u16> = Vec::with_capacity(128);
    let mut policy_action = |world: &State, rng: &mut Rng, scratch: &mut Vec<u16>| {
        if params.greedy_playouts {
            rules.playout_action(world, rng, scratch, &mut scratch_legal)
        } else {
            rules.rollout_action(world, rng, scratch)
        }
    };
    let mut pool: Vec<u8> = Vec::with_capacity(CARDS);
    let mut path: Vec<(usize, usize, u8)> = Vec::with_capacity(MAX_TREE_DEPTH);
    let mut rewards = [0.0; 4];
    let mut slot: Vec<u32> = vec![0; NUM_ACTIONS as usize];
    let mut biased: Vec<bool> = vec![false; NUM_ACTIONS as usize];
    while playouts.another() {
        let mut world = unseen.deal(rules, state, rng, &mut pool);
        path.clear();
        let mut depth = 0;
        while !rules.is_terminal(&world) && depth < MAX_TREE_DEPTH {
            depth += 1;
            let player = world.turn;
            let key = rules.information_key(&world, seat)
                ^ (player as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let id = *tree.entry(key).or_insert_with(|| {
                nodes.push(Node { visits: 0, edges: Vec::new(), biases: Vec::new() });
                nodes.len() - 1
            });
            if root.is_none() {
                root = Some(id);
            }
            let node = &mut nodes[id];
            node.visits += 1;
            rules.actions(&world, &mut legal);
            legal.sort_unstable();
            // Where each move's edge is (index + 1; 0: none), so that a visit costs a pass
            // over the legal moves instead of a search of the edges for each of them.
            for (at, edge) in node.edges.iter().enumerate() {
                slot[edge.action as usize] = at as u32 + 1;
            }
            if node.visits > 1 && player as usize == seat {
                for &(action, _) in &node.biases {
                    biased[action as usize] = true;
                }
                for &action in &legal {
                    if !biased[action as usize] {
                        let mut after = world.clone();
                        rules.apply(&mut after, action);
                        rules.rewards(&after, &mut rewards);
                        let bias = params.bias * (rewards[player as usize] - 0.5);
                        node.biases.push((action, bias));
                        biased[action as usize] = true;
                        let at = slot[action as usize];
                        if at != 0 {
                            node.edges[at as usize - 1].bias = bias;
                        }
                    }
                }
                for &(action, _) in &node.biases {
                    biased[action as usize] = false;
                }
            }
            untried.clear();
            untried.extend(legal.iter().filter(|&&a| slot[a as usize] == 0));
            if !untried.is_empty()
                && ((node.edges.len() as f64) < WIDENING * (node.visits as f64).sqrt()
                    || untried.len() == legal.len())
            {
                let policy = policy_action(&world, rng, &mut scratch);
                let action = if untried.contains(&policy) {
                    policy
                } else if node.visits == 1 || node.biases.is_empty() {
                    untried[rng.below(untried.len())]
                } else {
                    // The move the evaluation likes best is tried first (ties at random).
                    let mut best = (f64::NEG_INFINITY, 0.0, untried[0]);
                    for &action in &untried {
                        let bias = node.biases.iter().find(|b| b.0 == action).map_or(0.0, |b| b.1);
                        let r = rng.unit();
                        if bias > best.0 || (bias == best.0 && r > best.1) {
                            best = (bias, r, action);
                        }
                    }
                    best.2
                };
                let bias = node.biases.iter().find(|b| b.0 == action).map_or(0.0, |b| b.1);
                for &legal_action in &legal {
                    let at = slot[legal_action as usize];
                    if at != 0 {
                        node.edges[at as usize - 1].available += 1;
                    }
                }
                for edge in &node.edges {
                    slot[edge.action as usize] = 0;
                }
                // The new edge is legal here: available once.
                node.edges.push(Edge { action, visits: 0, available: 1, total: 0.0, bias });
                path.push((id, node.edges.len() - 1, player));
                rules.apply(&mut world, action);
                break;
            }
            let mut best_score = f64::NEG_INFINITY;
            let mut chosen = usize::MAX;
            for &action in &legal {
                let at = slot[action as usize];
                if at != 0 {
                    let at = at as usize - 1;
                    let edge = &mut node.edges[at];
                    edge.available += 1;
                    let visits = edge.visits as f64;
                    let score = edge.total / visits
                        + c * ((edge.available as f64).ln() / visits).sqrt()
                        + edge.bias / (visits + 1.0);
                    if score > best_score {
                        best_score = score;
                        chosen = at;
                    }
                }
            }
            for edge in &node.edges {
                slot[edge.action as usize] = 0;
            }
            let action = node.edges[chosen].action;
            path.push((id, chosen, player));
            rules.apply(&mut world, action);
        }
        let mut steps = params.rollout_depth;
        while !rules.is_terminal(&world) && steps != Some(0) {
            let action = policy_action(&world, rng, &mut scratch);
            rules.apply(&mut world, action);
            steps = steps.map(|s| s - 1);
        }
        rules.rewards(&world, &mut rewards);
        for &(id, at, player) in &path {
            let edge = &mut nodes[id].edges[at];
            edge.visits += 1;
            edge.total += rewards[player as usize];
        }
        if root.is_some_and(|root| playouts.settled(nodes[root].edges.iter().map(|e| e.visits))) {
            break;
        }
    }
    let edges = root
        .map(|root| {
            nodes[root].edges.iter().map(|e| (e.action, e.visits, e.total, e.bias)).collect()
        })
        .unwrap_or_default();
    Searched { edges, iterations: playouts.done(), nodes: nodes.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dealt(rules: &Rules, seed: u64) -> State {
        let mut rng = Rng::new(seed);
        let mut cards: Vec<u8> = (0..104).map(|c| (c % 52) as u8).collect();
        for i in (1..cards.len()).rev() {
            cards.swap(i, rng.below(i + 1));
        }
        let mut hands = vec![Vec::new(); rules.players];
        for (i, &card) in cards[..8 * rules.players].iter().enumerate() {
            hands[i % rules.players].push(card);
        }
        let mut stock = cards[8 * rules.players..].to_vec();
        let drawn = stock.pop().unwrap();
        hands[0].push(drawn);
        let squares = vec![vec![Vec::new(); 9]; rules.sides];
        let mut numbers = vec![rules.players as i64 - 1, 0, PLAY as i64, -1, 0, 0];
        numbers.extend(std::iter::repeat_n(0, rules.sides));
        rules.state(&stock, &hands, &squares, &[], &numbers).unwrap()
    }

    #[test]
    fn random_deals_end_and_keep_every_card() {
        for players in 2..=4 {
            let rules = Rules::new(players, Some(1), None).unwrap();
            let mut rng = Rng::new(players as u64);
            let mut legal = Vec::new();
            for seed in 0..50 {
                let mut state = dealt(&rules, seed);
                let mut moves = 0;
                while !rules.is_terminal(&state) {
                    rules.actions(&state, &mut legal);
                    assert!(!legal.is_empty());
                    let action = legal[rng.below(legal.len())];
                    rules.apply(&mut state, action);
                    moves += 1;
                    let held: usize = (0..players).map(|s| state.hand_len[s] as usize).sum();
                    let total = held
                        + state.stock_len as usize
                        + state.log_len as usize
                        + state.discards_len as usize;
                    assert_eq!(total, 104);
                }
                assert!(moves < 400);
            }
        }
    }

    #[test]
    fn worlds_keep_what_the_seat_knows() {
        let rules = Rules::new(3, Some(6), None).unwrap();
        let mut rng = Rng::new(9);
        let mut state = dealt(&rules, 3);
        let mut legal = Vec::new();
        for _ in 0..40 {
            if rules.is_terminal(&state) {
                break;
            }
            rules.actions(&state, &mut legal);
            let action = legal[rng.below(legal.len())];
            rules.apply(&mut state, action);
        }
        let seat = state.turn as usize;
        let unseen = Unseen::new(&rules, &state, seat);
        let mut pool = Vec::new();
        for _ in 0..100 {
            let world = unseen.deal(&rules, &state, &mut rng, &mut pool);
            assert_eq!(rules.information_key(&world, seat), rules.information_key(&state, seat));
            for (at, &(cell, layer)) in world.log[..world.log_len as usize].iter().enumerate() {
                if layer >= DOWN {
                    let r = rank((layer & (DOWN - 1)) as u8);
                    assert!(
                        r == JACK
                            || (r == QUEEN
                                && cell as usize / 9 == (layer >> SEAT_SHIFT) as usize % 3)
                    );
                    assert_eq!(layer >> SEAT_SHIFT, state.log[at].1 >> SEAT_SHIFT);
                }
            }
        }
    }

    #[test]
    fn a_search_returns_a_legal_root_move() {
        let rules = Rules::new(2, Some(1), None).unwrap();
        let state = dealt(&rules, 5);
        let params = Params {
            iterations: 300,
            seconds: None,
            exploration: 0.7,
            bias: 1.0,
            rollout_depth: Some(12),
            greedy_playouts: true,
        };
        let found = ismcts(&rules, &state, 0, &params, &mut Rng::new(1));
        let mut legal = Vec::new();
        rules.actions(&state, &mut legal);
        assert!(!found.edges.is_empty());
        assert!(found.edges.iter().all(|e| legal.contains(&e.0)));
        assert!(found.iterations <= 300);
    }
}
