//! Double Solitaire for the ISMCTS bot (docs/bots.md): compact states, legal moves, moves made,
//! the playout policy, the evaluation and rewards, world sampling and the whole information-set
//! tree search, so that a search spends its time on iterations, not on the Python engine.
//!
//! It mirrors `src/patience/games/double_solitaire.py` and `src/patience/bots/ismcts.py` rule
//! for rule (tests/test_core_double_solitaire.py proves the rules equal along random walks).
//! Piles are numbered as the engine's `PILE_NAMES`: `f1..f8`, then for each seat its stock,
//! hand, waste and seven tableau piles. Cards are the engine's numbers (`seat * 52 + face`).
//! Actions are the engine's fixed action numbers (`move_to_action`).

use crate::clock::Playouts;
use std::collections::HashMap;

/// Piles in the engine's order.
pub const PILES: usize = 28;
/// No pile holds more: a player's piles hold only his own 52 cards (in a dealt game no more
/// than 24, but positions read from JSON may pile them up anywhere).
const CAP: usize = 52;
/// The five actions before the card moves.
pub const STOCK: u32 = 0;
pub const RECYCLE: u32 = 1;
pub const PASS: u32 = 2;
pub const STOP: u32 = 3;
pub const LET_PASS: u32 = 4;
const ACTIONS: u32 = 5;
const MAX_COUNT: u32 = 13;
const ACE: u8 = 1;
const FOUNDATIONS: std::ops::Range<usize> = 0..8;

/// A seat's stock, hand, waste and first tableau pile.
const fn stock(seat: usize) -> usize {
    8 + 10 * seat
}
const fn hand(seat: usize) -> usize {
    9 + 10 * seat
}
const fn waste(seat: usize) -> usize {
    10 + 10 * seat
}
const fn tableau(seat: usize) -> std::ops::Range<usize> {
    11 + 10 * seat..18 + 10 * seat
}

#[inline]
fn rank(card: u8) -> u8 {
    card % 52 % 13 + 1
}
#[inline]
fn suit(card: u8) -> u8 {
    card % 52 / 13
}
#[inline]
fn is_red(card: u8) -> bool {
    matches!(suit(card), 1 | 2)
}

/// The action number of the card move `source`-`target` of `count` cards.
pub fn card_action(source: usize, target: usize, count: usize) -> u32 {
    ACTIONS + ((source * PILES + target) as u32) * MAX_COUNT + count as u32 - 1
}

/// A card move's (source, target, count), or None for the five actions.
pub fn card_move(action: u32) -> Option<(usize, usize, usize)> {
    if action < ACTIONS {
        return None;
    }
    let number = action - ACTIONS;
    let (pair, count) = (number / MAX_COUNT, number % MAX_COUNT);
    Some(((pair as usize) / PILES, (pair as usize) % PILES, count as usize + 1))
}

/// The options that change play: passes through the stock and who calls stop.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub passes: u8,
    pub auto_stop: bool,
}

/// A position: the piles (cards bottom first, face-down counts) and the turns' bookkeeping.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct State {
    cards: [[u8; CAP]; PILES],
    len: [u8; PILES],
    down: [u8; PILES],
    pub turn: u8,
    pub stop_offered: bool,
    pub redeals: [u8; 2],
    pub consecutive_passes: u8,
}

impl State {
    /// A state from the engine's parts, or what is wrong with them (a count out of range, a
    /// number that is no card, a pile longer than the core holds).
    pub fn new(piles: &[Vec<u8>], down: &[u32], extra: &[i64]) -> Result<State, String> {
        if piles.len() != PILES || down.len() != PILES {
            return Err(format!(
                "a Double Solitaire state has {PILES} piles and {PILES} face-down counts, not {} \
                 and {}",
                piles.len(),
                down.len()
            ));
        }
        let [turn, stop_offered, first_redeals, second_redeals, passes] = extra else {
            return Err(format!(
                "a Double Solitaire state has 5 extras (turn, stop offered, the two redeals, \
                 passes in succession), not {}",
                extra.len()
            ));
        };
        let within = |value: i64, most: i64, what: &str| {
            if (0..=most).contains(&value) {
                Ok(value as u8)
            } else {
                let range = if most == 1 { "0 or 1".to_string() } else { format!("0 to {most}") };
                Err(format!("{what} must be {range}, not {value}"))
            }
        };
        let mut state = State {
            cards: [[0; CAP]; PILES],
            len: [0; PILES],
            down: [0; PILES],
            turn: within(*turn, 1, "the seat to move")?,
            stop_offered: within(*stop_offered, 1, "stop offered")? != 0,
            redeals: [
                within(*first_redeals, 2, "seat 0's redeals")?,
                within(*second_redeals, 2, "seat 1's redeals")?,
            ],
            consecutive_passes: within(*passes, 2, "the passes in succession")?,
        };
        for (index, pile) in piles.iter().enumerate() {
            if let Some(card) = pile.iter().find(|&&card| card >= 104) {
                return Err(format!("{card} is no card number (0-103)"));
            }
            if pile.len() > CAP {
                return Err(format!(
                    "pile number {index} holds {} cards; a pile holds at most {CAP}",
                    pile.len()
                ));
            }
            if down[index] as usize > pile.len() {
                return Err(format!(
                    "pile number {index} holds {} cards, fewer than {} face down",
                    pile.len(),
                    down[index]
                ));
            }
            state.cards[index][..pile.len()].copy_from_slice(pile);
            state.len[index] = pile.len() as u8;
            state.down[index] = down[index] as u8;
        }
        Ok(state)
    }

    /// The engine's parts: piles, face-down counts, extras (turn, stop offered, the two
    /// redeals, passes in succession).
    pub fn parts(&self) -> (Vec<Vec<u8>>, Vec<u32>, Vec<i64>) {
        let piles = (0..PILES).map(|index| self.pile(index).to_vec()).collect();
        let down = self.down.iter().map(|&count| count as u32).collect();
        let extra = vec![
            self.turn as i64,
            self.stop_offered as i64,
            self.redeals[0] as i64,
            self.redeals[1] as i64,
            self.consecutive_passes as i64,
        ];
        (piles, down, extra)
    }

    #[inline]
    fn pile(&self, index: usize) -> &[u8] {
        &self.cards[index][..self.len[index] as usize]
    }
    #[inline]
    fn top(&self, index: usize) -> Option<u8> {
        self.pile(index).last().copied()
    }
    #[inline]
    fn up_count(&self, index: usize) -> usize {
        (self.len[index] - self.down[index]) as usize
    }
    fn push(&mut self, index: usize, card: u8) {
        let at = self.len[index] as usize;
        self.cards[index][at] = card;
        self.len[index] += 1;
    }
    fn pop(&mut self, index: usize) -> u8 {
        self.len[index] -= 1;
        self.cards[index][self.len[index] as usize]
    }

    /// The seat to move: the opponent while he decides on a stop.
    pub fn current_player(&self) -> usize {
        if self.stop_offered {
            1 - self.turn as usize
        } else {
            self.turn as usize
        }
    }

    /// Each seat's own cards on the foundations.
    pub fn counts(&self) -> [u32; 2] {
        let mut counts = [0, 0];
        for index in FOUNDATIONS {
            for &card in self.pile(index) {
                counts[(card >= 52) as usize] += 1;
            }
        }
        counts
    }

    /// The information key: what both players see (face-down counts, face-up cards, whose move
    /// it is and the turns' bookkeeping), as bytes.
    fn information_key(&self, key: &mut Vec<u8>) {
        key.clear();
        key.extend_from_slice(&[
            self.current_player() as u8,
            self.turn,
            self.stop_offered as u8,
            self.consecutive_passes,
            self.redeals[0],
            self.redeals[1],
        ]);
        for index in 0..PILES {
            key.push(self.down[index]);
            key.push(self.up_count(index) as u8);
            key.extend_from_slice(&self.pile(index)[self.down[index] as usize..]);
        }
    }
}

/// True if `card` goes on a foundation whose top is `top`.
#[inline]
fn fits_foundation(card: u8, top: Option<u8>) -> bool {
    match top {
        None => rank(card) == ACE,
        Some(top) => suit(card) == suit(top) && rank(card) == rank(top) + 1,
    }
}

/// How many of the top `run` cards of `source` move onto a tableau pile whose top is `onto`
/// (0: none): the engine's `fitting_run_count`.
#[inline]
fn fitting_run_count(source: &[u8], run: usize, onto: Option<u8>) -> usize {
    if run == 0 {
        return 0;
    }
    let wanted = onto.map_or(13, |card| rank(card) as i32 - 1);
    let count = wanted - rank(source[source.len() - 1]) as i32 + 1;
    if count < 1 || count as usize > run {
        return 0;
    }
    let count = count as usize;
    if let Some(onto) = onto {
        if is_red(source[source.len() - count]) == is_red(onto) {
            return 0;
        }
    }
    count
}

/// How many cards at the top of `cards` form a run down in alternating colours.
fn alternating_run_length(cards: &[u8]) -> usize {
    if cards.is_empty() {
        return 0;
    }
    let mut length = 1;
    while length < cards.len() {
        let (card, onto) = (cards[cards.len() - length], cards[cards.len() - length - 1]);
        if !(rank(card) + 1 == rank(onto) && is_red(card) != is_red(onto)) {
            break;
        }
        length += 1;
    }
    length
}

fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// The engine's `value_scale`: ten units of evaluate are a card on the foundations.
const VALUE_SCALE: f64 = 30.0;
/// The engine's `SHUFFLE_COST`.
const SHUFFLE_COST: f64 = 0.06;
/// The engine's `HAND_WASTE_COST`.
const HAND_WASTE_COST: f64 = 0.03;
/// The engine's `STEP_COST`.
const STEP_COST: f64 = 0.005;

impl Rules {
    fn passes_left(&self, state: &State, seat: usize) -> bool {
        state.redeals[seat] + 1 < self.passes
    }

    /// The legal moves as action numbers, sorted (the engine's `legal_actions`).
    pub fn legal_actions(&self, state: &State, moves: &mut Vec<u32>) {
        moves.clear();
        if state.stop_offered {
            moves.extend_from_slice(&[STOP, LET_PASS]);
            return;
        }
        let seat = state.turn as usize;
        let (hand, waste) = (hand(seat), waste(seat));
        if let Some(card) = state.top(hand) {
            for target in FOUNDATIONS {
                if fits_foundation(card, state.top(target)) {
                    moves.push(card_action(hand, target, 1));
                }
            }
            for target in tableau(seat) {
                if fitting_run_count(&[card], 1, state.top(target)) > 0 {
                    moves.push(card_action(hand, target, 1));
                }
            }
            moves.push(card_action(hand, waste, 1));
            moves.sort_unstable();
            return;
        }
        for source in std::iter::once(waste).chain(tableau(seat)) {
            if state.up_count(source) > 0 {
                let card = state.top(source).unwrap();
                for target in FOUNDATIONS {
                    if fits_foundation(card, state.top(target)) {
                        moves.push(card_action(source, target, 1));
                    }
                }
            }
        }
        for source in tableau(seat) {
            let pile = state.pile(source);
            let run = alternating_run_length(&pile[state.down[source] as usize..]);
            for target in tableau(seat) {
                if target != source {
                    let count = fitting_run_count(pile, run, state.top(target));
                    if count > 0 {
                        moves.push(card_action(source, target, count));
                    }
                }
            }
        }
        if state.len[waste] > 0 {
            let pile = state.pile(waste);
            for target in tableau(seat) {
                if fitting_run_count(pile, 1, state.top(target)) > 0 {
                    moves.push(card_action(waste, target, 1));
                }
            }
        }
        if state.len[stock(seat)] > 0 {
            moves.push(STOCK);
        } else if state.len[waste] > 0 && self.passes_left(state, seat) {
            moves.push(RECYCLE);
        } else {
            moves.push(PASS);
        }
        moves.sort_unstable();
    }

    fn playable(&self, state: &State, card: u8, seat: usize) -> bool {
        FOUNDATIONS.into_iter().any(|f| fits_foundation(card, state.top(f)))
            || tableau(seat).any(|t| fitting_run_count(&[card], 1, state.top(t)) > 0)
    }

    fn ace_available(&self, state: &State, seat: usize) -> bool {
        std::iter::once(waste(seat))
            .chain(tableau(seat))
            .any(|index| state.up_count(index) > 0 && rank(state.top(index).unwrap()) == ACE)
    }

    /// The outcome once the game is over: Some(margin of seat 0), else None.
    pub fn finished(&self, state: &State) -> Option<i32> {
        let counts = state.counts();
        if counts[0] == 52 || counts[1] == 52 || state.consecutive_passes >= 2 {
            return Some(counts[0] as i32 - counts[1] as i32);
        }
        None
    }

    /// Make the legal move `action` (the engine's `_play`, in place).
    pub fn apply(&self, state: &mut State, action: u32) {
        let seat = state.turn as usize;
        if state.stop_offered {
            state.stop_offered = false;
            if action == STOP {
                self.end_turn_stopped(state);
            }
            return;
        }
        let puts_ace_up = match card_move(action) {
            Some((source, target, _)) => {
                target < 8 && state.top(source).is_some_and(|card| rank(card) == ACE)
            }
            None => false,
        };
        let stoppable = self.ace_available(state, seat) && !puts_ace_up;
        if action == PASS {
            state.consecutive_passes += 1;
            state.turn = 1 - state.turn;
            return;
        }
        state.consecutive_passes = 0;
        let mut turn_ends = false;
        if action == STOCK {
            let card = state.pop(stock(seat));
            state.down[stock(seat)] = state.len[stock(seat)];
            state.push(hand(seat), card);
            if !self.playable(state, card, seat) {
                let card = state.pop(hand(seat));
                state.push(waste(seat), card);
                turn_ends = true;
            }
        } else if action == RECYCLE {
            let (stock, waste) = (stock(seat), waste(seat));
            let count = state.len[waste] as usize;
            for index in 0..count {
                state.cards[stock][index] = state.cards[waste][count - 1 - index];
            }
            state.len[stock] = count as u8;
            state.down[stock] = count as u8;
            state.len[waste] = 0;
            state.down[waste] = 0;
            state.redeals[seat] += 1;
        } else {
            let (source, target, count) = card_move(action).expect("a card move");
            let from = state.len[source] as usize - count;
            for index in from..from + count {
                let card = state.cards[source][index];
                state.push(target, card);
            }
            state.len[source] = from as u8;
            state.down[source] = state.down[source].min(from as u8);
            if tableau(seat).contains(&source)
                && state.len[source] > 0
                && state.down[source] == state.len[source]
            {
                state.down[source] -= 1;
            }
            if target == waste(seat) {
                turn_ends = true;
            }
        }
        if turn_ends {
            state.turn = 1 - state.turn;
        } else if stoppable && self.finished(state).is_none() {
            if self.auto_stop {
                self.end_turn_stopped(state);
            } else {
                state.stop_offered = true;
            }
        }
    }

    fn end_turn_stopped(&self, state: &mut State) {
        let seat = state.turn as usize;
        if state.len[hand(seat)] > 0 {
            let card = state.pop(hand(seat));
            state.push(waste(seat), card);
        }
        state.turn = 1 - state.turn;
    }

    /// True if a shuffle by `seat` from tableau pile `source`, made in `after`, opens
    /// something: the card it leaves on top goes to a foundation, takes the waste's top card or
    /// a whole face-up run lying on face-down cards (so that moving it turns one up); or the
    /// pile it empties takes a king from the waste or such a run from a king down.
    pub fn opens(&self, after: &State, seat: usize, source: usize) -> bool {
        let exposed = after.top(source);
        if let Some(card) = exposed {
            if FOUNDATIONS.into_iter().any(|f| fits_foundation(card, after.top(f))) {
                return true;
            }
        }
        if after.len[waste(seat)] > 0 && fitting_run_count(after.pile(waste(seat)), 1, exposed) > 0
        {
            return true;
        }
        self.takes_run(after, seat, source)
    }

    /// True if the waste's top card put by `seat` on his tableau pile `target`, made in
    /// `after`, opens something: the waste card it uncovers goes to a foundation or onto the
    /// tableau, or the card put down takes a whole face-up run lying on face-down cards (so
    /// that moving it turns one up).
    pub fn opens_from_waste(&self, after: &State, seat: usize, target: usize) -> bool {
        if let Some(card) = after.top(waste(seat)) {
            if FOUNDATIONS.into_iter().any(|f| fits_foundation(card, after.top(f)))
                || tableau(seat).any(|t| fitting_run_count(&[card], 1, after.top(t)) > 0)
            {
                return true;
            }
        }
        self.takes_run(after, seat, target)
    }

    /// True if the top card of `seat`'s tableau pile `holder` (a space: a king) takes the whole
    /// face-up run of another of his piles that lies on face-down cards.
    fn takes_run(&self, after: &State, seat: usize, holder: usize) -> bool {
        let exposed = after.top(holder);
        tableau(seat).any(|other| {
            let pile = after.pile(other);
            let hidden = after.down[other] as usize;
            let up = pile.len() - hidden;
            other != holder
                && hidden > 0
                && up > 0
                && alternating_run_length(&pile[hidden..]) == up
                && fitting_run_count(pile, up, exposed) == up
        })
    }

    /// The engine's `move_cost`: a shuffle (a run between one's own tableau piles turning up
    /// no card) costs a little, and so does the waste's top card moved onto one's own tableau;
    /// the card just turned put on the waste though it could be played costs too, and a run
    /// moved so that a card turns up a step's cost (fewer moves to the same end).
    pub fn move_cost(&self, state: &State, action: u32) -> f64 {
        let seat = state.turn as usize;
        let Some((source, target, count)) = card_move(action) else {
            return 0.0;
        };
        if source == hand(seat) && target == waste(seat) {
            return HAND_WASTE_COST;
        }
        if !tableau(seat).contains(&target) {
            return 0.0;
        }
        if source == waste(seat) {
            return SHUFFLE_COST;
        }
        if !tableau(seat).contains(&source) {
            return 0.0;
        }
        let turns_up = state.down[source] > 0 && count == state.up_count(source);
        if turns_up {
            STEP_COST
        } else {
            SHUFFLE_COST
        }
    }

    /// The engine's `evaluate`: progress only.
    pub fn evaluate(&self, state: &State, seat: usize) -> f64 {
        if let Some(margin0) = self.finished(state) {
            let margin = if seat == 0 { margin0 } else { -margin0 } as f64;
            let counts = state.counts();
            // The winner: whoever went out, else the higher count.
            let won =
                if counts[0] == 52 || counts[1] == 52 { counts[seat] == 52 } else { margin > 0.0 };
            return margin
                + if won {
                    1000.0
                } else if margin != 0.0 {
                    -1000.0
                } else {
                    0.0
                };
        }
        let counts = state.counts();
        let mut value = 0.0;
        for (who, sign) in [(seat, 1.0), (1 - seat, -1.0)] {
            value += sign * 10.0 * counts[who] as f64;
            let down: u32 = tableau(who).map(|index| state.down[index] as u32).sum();
            value -= sign * 3.0 * down as f64;
            let passes_left = self.passes as f64 - 1.0 - state.redeals[who] as f64;
            let stock = state.len[stock(who)] as f64;
            let waste = state.len[waste(who)] as f64;
            value -= sign * (stock + passes_left * (stock + waste));
            value -= sign * 0.2 * waste;
        }
        value
    }

    /// The engine's `search_reward`.
    pub fn search_reward(&self, state: &State, seat: usize) -> f64 {
        if let Some(margin0) = self.finished(state) {
            let margin = if seat == 0 { margin0 } else { -margin0 } as f64;
            let result = if margin > 0.0 {
                1.0
            } else if margin < 0.0 {
                0.0
            } else {
                0.5
            };
            return 0.95 * result + 0.05 * (0.5 + 0.5 * (margin / VALUE_SCALE).tanh());
        }
        logistic(self.evaluate(state, seat) / VALUE_SCALE)
    }

    /// The moves the engine's `rollout_action` chooses among uniformly (one when it has no
    /// choice), in the engine's order.
    pub fn rollout_choices(&self, state: &State, useful: &mut Vec<u32>) {
        useful.clear();
        if state.stop_offered {
            useful.push(STOP);
            return;
        }
        let seat = state.turn as usize;
        let (hand, waste) = (hand(seat), waste(seat));
        // The foundation that takes each card next (the last of equal ones, as the engine's
        // dict keeps); `ace_home`, the first empty one, takes any ace.
        let mut wanted = [u8::MAX; 4 * 15];
        let mut ace_home = u8::MAX;
        for index in FOUNDATIONS {
            match state.top(index) {
                Some(top) => wanted[(suit(top) * 15 + rank(top) + 1) as usize] = index as u8,
                None if ace_home == u8::MAX => ace_home = index as u8,
                None => {}
            }
        }
        let home = |card: u8| -> Option<usize> {
            let target = if rank(card) == ACE {
                ace_home
            } else {
                wanted[(suit(card) * 15 + rank(card)) as usize]
            };
            (target != u8::MAX).then_some(target as usize)
        };
        if let Some(card) = state.top(hand) {
            if let Some(target) = home(card) {
                useful.push(card_action(hand, target, 1));
                return;
            }
            for target in tableau(seat) {
                if fitting_run_count(&[card], 1, state.top(target)) > 0 {
                    useful.push(card_action(hand, target, 1));
                }
            }
            if useful.is_empty() {
                useful.push(card_action(hand, waste, 1));
            }
            return;
        }
        for source in std::iter::once(waste).chain(tableau(seat)) {
            if state.up_count(source) > 0 {
                if let Some(target) = home(state.top(source).unwrap()) {
                    useful.push(card_action(source, target, 1));
                }
            }
        }
        if useful.is_empty() {
            if state.len[waste] > 0 {
                let pile = state.pile(waste);
                for target in tableau(seat) {
                    if fitting_run_count(pile, 1, state.top(target)) > 0 {
                        useful.push(card_action(waste, target, 1));
                    }
                }
            }
            for source in tableau(seat) {
                let pile = state.pile(source);
                let hidden = state.down[source] as usize;
                let up = pile.len() - hidden;
                if hidden == 0 || up == 0 || alternating_run_length(&pile[hidden..]) != up {
                    continue;
                }
                for target in tableau(seat) {
                    if target != source && fitting_run_count(pile, up, state.top(target)) == up {
                        useful.push(card_action(source, target, up));
                    }
                }
            }
        }
        if !useful.is_empty() {
            return;
        }
        useful.push(if state.len[stock(seat)] > 0 {
            STOCK
        } else if state.len[waste] > 0 && self.passes_left(state, seat) {
            RECYCLE
        } else {
            PASS
        });
    }
}

/// A small, fast generator (SplitMix64): search needs many draws and no cryptography.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Deals the cards hidden from both players at random: `template` is one world consistent with
/// the view; each seat's face-down cards (his stock and face-down tableau cards, all from his
/// own pack and the only cards hidden) are shuffled among their places.
pub struct Sampler {
    slots: [Vec<(usize, usize)>; 2],
}

impl Sampler {
    pub fn new(template: &State) -> Sampler {
        let mut slots = [Vec::new(), Vec::new()];
        for (seat, seat_slots) in slots.iter_mut().enumerate() {
            for index in std::iter::once(stock(seat)).chain(tableau(seat)) {
                for place in 0..template.down[index] as usize {
                    seat_slots.push((index, place));
                }
            }
        }
        Sampler { slots }
    }

    pub fn sample(&self, template: &State, rng: &mut Rng) -> State {
        let mut world = *template;
        for slots in &self.slots {
            // Fisher-Yates over the places.
            for i in (1..slots.len()).rev() {
                let j = rng.below(i + 1);
                let (a, b) = (slots[i], slots[j]);
                let card = world.cards[a.0][a.1];
                world.cards[a.0][a.1] = world.cards[b.0][b.1];
                world.cards[b.0][b.1] = card;
            }
        }
        world
    }
}

/// The search's parameters (the Python bot's).
pub struct Params {
    pub iterations: usize,
    pub seconds: Option<f64>,
    pub exploration: f64,
    /// UCB1's constant at the root alone (`exploration` below it): wider, so that near-equal
    /// moves at the root all get enough visits to be told apart, where at `exploration` the
    /// move ahead early keeps nearly every visit.
    pub root_exploration: f64,
    pub bias: f64,
    /// Playouts end after this many changes of the seat to move (the engine's
    /// `playout_turns`).
    pub playout_turns: u32,
    /// What the game's move costs (`Rules::move_cost`) weigh in the rewards: 1 as the game
    /// charges them, 0 none (the Python bot's `costs`).
    pub costs: f64,
}

const WIDENING: f64 = 2.0;
const MAX_TREE_DEPTH: usize = 60;

struct Edge {
    action: u32,
    visits: u32,
    available: u32,
    total: f64,
    bias: f64,
    cost: f64,
}

struct Node {
    visits: u32,
    edges: Vec<Edge>,
    biases: Vec<(u32, f64)>,
}

impl Node {
    fn edge(&self, action: u32) -> Option<usize> {
        self.edges.iter().position(|edge| edge.action == action)
    }
    fn bias(&self, action: u32) -> Option<f64> {
        self.biases.iter().find(|(a, _)| *a == action).map(|(_, b)| *b)
    }
}

/// The root's moves after a search: (action, visits, summed reward, bias), and the iterations
/// run.
pub type SearchResult = (Vec<(u32, u32, f64, f64)>, usize);

/// Single-observer ISMCTS from `template` (a world consistent with `seat`'s view, its hidden
/// cards dealt anew every iteration): the algorithm of `src/patience/bots/ismcts.py`, step for
/// step (nodes keyed by the information key and the seat to move, UCB1 with availability
/// counts and a progressive bias, progressive widening, playouts by the policy to the end of
/// the next turn, the move's cost off its reward, the early stop), with two rules more: the
/// walk down the tree makes no move back to a position it passed (the game's no-repetition
/// rule, which `Game` applies and the Python search leaves out), and it tries a shuffle only
/// when the shuffle opens something (`Rules::opens`).
pub fn ismcts(
    rules: &Rules,
    template: &State,
    seat: usize,
    params: &Params,
    rng: &mut Rng,
) -> SearchResult {
    let sampler = Sampler::new(template);
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut key = Vec::with_capacity(200);
    let mut legal = Vec::with_capacity(64);
    let mut untried = Vec::with_capacity(64);
    let mut choices = Vec::with_capacity(16);
    let mut path: Vec<(usize, usize, usize)> = Vec::with_capacity(MAX_TREE_DEPTH);
    // The positions of this iteration's walk down the tree, for the no-repetition rule.
    let mut walked: Vec<Vec<u8>> = Vec::with_capacity(MAX_TREE_DEPTH);
    let mut after_key = Vec::with_capacity(200);
    let mut playouts = Playouts::new(params.seconds, params.iterations as u64);
    while playouts.another() {
        let mut world = sampler.sample(template, rng);
        path.clear();
        walked.clear();
        let mut depth = 0;
        while rules.finished(&world).is_none() && depth < MAX_TREE_DEPTH {
            depth += 1;
            let player = world.current_player();
            world.information_key(&mut key);
            let at = match index.get(&key) {
                Some(&at) => at,
                None => {
                    nodes.push(Node { visits: 0, edges: Vec::new(), biases: Vec::new() });
                    index.insert(key.clone(), nodes.len() - 1);
                    nodes.len() - 1
                }
            };
            let node = &mut nodes[at];
            node.visits += 1;
            rules.legal_actions(&world, &mut legal);
            // The game's no-repetition rule: no move back to a position of this walk. Only a
            // shuffle (a run between one's own tableau piles turning up no card: the moves
            // with a cost from a tableau pile) can repeat one; without the rule a shuffle and its reverse lead
            // back to the same node and its edges count twice in one iteration.
            // And a shuffle is searched only when it opens something (`Rules::opens`): the
            // rest only keep every option open, which tree search comes to prefer (the best
            // of several noisy estimates looks better than one).
            walked.push(key.clone());
            let mover = world.turn as usize;
            legal.retain(|&action| {
                let Some((source, target, count)) = card_move(action) else {
                    return true;
                };
                if !tableau(mover).contains(&target) {
                    return true;
                }
                if source == waste(mover) {
                    // The waste's card onto the tableau cannot repeat a position; it is
                    // searched when it opens something, as a shuffle.
                    let mut after = world;
                    rules.apply(&mut after, action);
                    return rules.opens_from_waste(&after, mover, target);
                }
                if !tableau(mover).contains(&source) {
                    // The card just turned, onto the tableau.
                    return true;
                }
                if world.down[source] > 0 && count == world.up_count(source) {
                    // It turns a card up: progress, never a repetition.
                    return true;
                }
                let mut after = world;
                rules.apply(&mut after, action);
                if !rules.opens(&after, mover, source) {
                    return false;
                }
                after.information_key(&mut after_key);
                !walked.contains(&after_key)
            });
            if node.visits > 1 && player == seat {
                for &action in &legal {
                    if node.bias(action).is_none() {
                        let mut after = world;
                        rules.apply(&mut after, action);
                        let bias = params.bias * (rules.search_reward(&after, player) - 0.5);
                        node.biases.push((action, bias));
                        if let Some(edge) = node.edge(action) {
                            node.edges[edge].bias = bias;
                        }
                    }
                }
            }
            untried.clear();
            untried.extend(legal.iter().copied().filter(|&action| node.edge(action).is_none()));
            if !untried.is_empty()
                && ((node.edges.len() as f64) < WIDENING * (node.visits as f64).sqrt()
                    || untried.len() == legal.len())
            {
                rules.rollout_choices(&world, &mut choices);
                let policy = choices[rng.below(choices.len())];
                let action = if untried.contains(&policy) {
                    policy
                } else if node.visits == 1 || node.biases.is_empty() {
                    untried[rng.below(untried.len())]
                } else {
                    let mut best = (f64::NEG_INFINITY, f64::NEG_INFINITY, untried[0]);
                    for &action in &untried {
                        let candidate = (node.bias(action).unwrap_or(0.0), rng.unit(), action);
                        if (candidate.0, candidate.1) > (best.0, best.1) {
                            best = candidate;
                        }
                    }
                    best.2
                };
                node.edges.push(Edge {
                    action,
                    visits: 0,
                    available: 0,
                    total: 0.0,
                    bias: node.bias(action).unwrap_or(0.0),
                    cost: params.costs * rules.move_cost(&world, action),
                });
                for &other in &legal {
                    if let Some(edge) = node.edge(other) {
                        node.edges[edge].available += 1;
                    }
                }
                path.push((at, node.edges.len() - 1, player));
                rules.apply(&mut world, action);
                break;
            }
            let mut best_score = f64::NEG_INFINITY;
            let mut chosen = usize::MAX;
            let exploration = if depth == 1 { params.root_exploration } else { params.exploration };
            for &action in &legal {
                let Some(at_edge) = node.edge(action) else { continue };
                let edge = &mut node.edges[at_edge];
                edge.available += 1;
                let visits = edge.visits as f64;
                let score = edge.total / visits
                    + exploration * ((edge.available as f64).ln() / visits).sqrt()
                    + edge.bias / (visits + 1.0);
                if score > best_score {
                    best_score = score;
                    chosen = at_edge;
                }
            }
            let action = node.edges[chosen].action;
            path.push((at, chosen, player));
            rules.apply(&mut world, action);
        }
        let mut steps = params.playout_turns;
        while steps > 0 && rules.finished(&world).is_none() {
            let mover = world.current_player();
            rules.rollout_choices(&world, &mut choices);
            let action = choices[rng.below(choices.len())];
            rules.apply(&mut world, action);
            if world.current_player() != mover {
                steps -= 1;
            }
        }
        let rewards = [rules.search_reward(&world, 0), rules.search_reward(&world, 1)];
        for &(at, at_edge, player) in &path {
            let edge = &mut nodes[at].edges[at_edge];
            edge.visits += 1;
            edge.total += rewards[player] - edge.cost;
        }
        if !nodes.is_empty() && playouts.settled(nodes[0].edges.iter().map(|edge| edge.visits)) {
            break;
        }
    }
    let root = nodes
        .first()
        .map(|node| node.edges.iter().map(|e| (e.action, e.visits, e.total, e.bias)).collect())
        .unwrap_or_default();
    (root, playouts.done() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip() {
        for source in 0..PILES {
            for target in 0..PILES {
                for count in 1..=13 {
                    let action = card_action(source, target, count);
                    assert_eq!(card_move(action), Some((source, target, count)));
                }
            }
        }
        assert_eq!(card_move(PASS), None);
    }

    #[test]
    fn cards_decode_as_the_engine() {
        // 0 is the ace of clubs, 13 the ace of diamonds, 103 the king of spades of pack 1.
        assert_eq!((rank(0), suit(0), is_red(0)), (1, 0, false));
        assert_eq!((rank(13), suit(13), is_red(13)), (1, 1, true));
        assert_eq!((rank(103), suit(103), is_red(103)), (13, 3, false));
    }

    #[test]
    fn runs_fit_as_in_klondike() {
        // 5h (43 - 26 = ... hearts start at 26): 5h = 30, 4s = 42, 6c = 5.
        assert_eq!(fitting_run_count(&[30, 42], 2, Some(5)), 2);
        assert_eq!(fitting_run_count(&[30, 42], 1, Some(5)), 0);
        assert_eq!(alternating_run_length(&[5, 30, 42]), 3);
        assert_eq!(fitting_run_count(&[12], 1, None), 1);
    }
}
