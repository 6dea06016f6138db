"""Double Solitaire: every rule of RULES.md's Double Solitaire in one place
(docs/rules/double-solitaire.md).

Two players, each with his own pack and his own Klondike layout (built with Klondike's helpers),
play onto eight shared foundations. Seat 0 is player 1 (pack 0, piles prefixed ``a``), seat 1
is player 2 (pack 1, piles prefixed ``b``):

* ``astock``/``bstock``: the stocks, face down; ``ahand``/``bhand``: the card just turned from
  the stock, held until it is played or put on the waste; ``awaste``/``bwaste``: the wastes;
* ``a1``..``a7``/``b1``..``b7``: the tableaux; ``f1``..``f8``: the shared foundations.

Moves: card moves, ``stock`` (turn one card into one's hand), ``recycle``, ``pass``, and the
opponent's ``stop`` / ``let-pass`` when ``auto_stop`` is off. Forced: ``flip(pile=..,card=..)``,
``stop`` (called by the program for the opponent) and ``ahand-awaste`` (the turned card goes to
the waste because it cannot be played or because its player was stopped).

A physical card's pack says whose it is (``card // 52``): cards never leave a foundation or reach
the other player's piles, so only the foundations mix owners, and positions list them there.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import RANK_OF, SUIT_OF, Card, CardError, packs
from ..deals import Shuffler
from ..engine import JSON, IllegalMove, Outcome, PositionError, Result, Rules, State
from ..moves import Move, register_action
from ..options import Option
from .common import (
    alternating_run_length,
    check_alternating_run,
    check_klondike_target,
    check_pile_name,
    fits_foundation_up,
    fitting_run_count,
    numbered,
    recycle_waste,
    unknown_action,
)
from .klondike import TABLEAU as KLONDIKE_TABLEAU
from .klondike import deal_layout

_core: Any
try:
    from .. import _core
except ImportError:  # pragma: no cover - a source tree whose extension was never built
    _core = None

SEATS = 2
#: Pile prefixes by seat: player 1 (seat 0) plays the ``a`` piles, player 2 the ``b`` piles.
PREFIXES = ("a", "b")
FOUNDATIONS = numbered("f", 8)
TABLEAUX = tuple(numbered(prefix, 7) for prefix in PREFIXES)
STOCKS = tuple(f"{prefix}stock" for prefix in PREFIXES)
HANDS = tuple(f"{prefix}hand" for prefix in PREFIXES)
WASTES = tuple(f"{prefix}waste" for prefix in PREFIXES)


class Answer(enum.StrEnum):
    """The opponent's answer when a move left an ace unplayed and ``auto_stop`` is off: call
    ``stop`` (the turn ends) or ``let-pass``. A ``str``: the action's name in moves."""

    STOP = "stop"
    LET_PASS = "let-pass"


#: Moves hold plain strings (``Answer.STOP.value``), so that they print and compare as text.
ACTIONS = ("stock", "recycle", "pass", *(answer.value for answer in Answer))
PILE_NAMES = (
    *FOUNDATIONS,
    *(
        name
        for seat in range(SEATS)
        for name in (STOCKS[seat], HANDS[seat], WASTES[seat], *TABLEAUX[seat])
    ),
)
#: A pile's place in :data:`PILE_NAMES`, for numbering card moves as actions.
PILE_INDEX = {name: index for index, name in enumerate(PILE_NAMES)}
register_action(*ACTIONS, "flip")

STOP = Move.act(Answer.STOP.value)
LET_PASS = Move.act(Answer.LET_PASS.value)
PASS = Move.act("pass")
STOCK = Move.act("stock")
RECYCLE = Move.act("recycle")

ACE = 1
#: Integer actions (for search code): the five actions first, then card moves numbered by
#: source pile, target pile and count, so an action means the same move in every state.
ACTION_NUMBERS = {name: number for number, name in enumerate(ACTIONS)}
MAX_COUNT = 13
#: The size of the action space.
NUM_ACTIONS = len(ACTIONS) + len(PILE_NAMES) ** 2 * MAX_COUNT
#: Moves already built from their action numbers (playouts turn actions into moves often).
_ACTION_MOVES: dict[int, Move] = {}


def card_action(source: str, target: str, count: int = 1) -> int:
    """The action number of the card move ``source``-``target`` of ``count`` cards."""
    pair = PILE_INDEX[source] * len(PILE_NAMES) + PILE_INDEX[target]
    return len(ACTIONS) + pair * MAX_COUNT + count - 1


@functools.lru_cache(maxsize=256)
def _face(text: str) -> int:
    """The face (0-51) of a card as a view writes it (cached: ISMCTS reads one view thousands
    of times a move)."""
    return Card.parse(text).face


def player_name(seat: int) -> str:
    """How people call a seat: ``player 1`` for seat 0."""
    return f"player {seat + 1}"


@dataclass
class DoubleSolitaireState(State):
    """The piles, whose turn it is, and the bookkeeping of turns.

    ``turn``: the seat whose turn it is. ``stop_offered``: with ``auto_stop`` off, the opponent
    is deciding whether to call stop (he is then the seat to move). ``redeals``: how often each
    player has turned his waste over. ``consecutive_passes``: passes in succession (two block
    the game).
    """

    turn: int = 0
    stop_offered: bool = False
    redeals: tuple[int, int] = (0, 0)
    consecutive_passes: int = 0


def who_starts(piles: dict[str, list[Card]], shuffler: Shuffler) -> tuple[int, bool]:
    """The seat that starts and whether a coin toss decided it: the lower face-up card of the
    one-card piles (ace low), then of the two-card piles, ...; if all seven tie, the next output
    of the deal's generator (even: player 1)."""
    for number in range(7):
        ranks = [RANK_OF[piles[TABLEAUX[seat][number]][-1]] for seat in range(SEATS)]
        if ranks[0] != ranks[1]:
            return (0 if ranks[0] < ranks[1] else 1), False
    return shuffler.next64() % 2, True


class DoubleSolitaire(Rules[DoubleSolitaireState]):
    """Double Solitaire (RULES.md): two Klondike layouts, two packs, eight shared foundations."""

    name = "double-solitaire"
    title = "Double Solitaire"
    summary = "Two players, two Klondike layouts, eight shared foundations; most own cards up wins."
    option_specs = (
        Option("passes", "choice", 1, "passes through each stock", (1, 2, 3)),
        Option(
            "auto_stop",
            "bool",
            True,
            "the program calls stop for the opponent (off: the opponent is asked)",
        ),
    )
    pile_names = PILE_NAMES
    packs = 2

    @property
    def players(self) -> int:
        """Two seats: player 1 (seat 0) and player 2 (seat 1)."""
        return SEATS

    def current_player(self, state: DoubleSolitaireState) -> int:
        """The seat whose turn it is, or the opponent while he decides on a stop."""
        return 1 - state.turn if state.stop_offered else state.turn

    def passes_left(self, state: DoubleSolitaireState, seat: int) -> bool:
        """True if ``seat`` may still turn his waste over for another pass."""
        return state.redeals[seat] + 1 < int(self.options["passes"])

    def stock_used_up(self, state: DoubleSolitaireState, seat: int) -> bool:
        """True if ``seat`` can turn no more stock cards: his stock is empty and no pass through
        it is left (or nothing is left to go through again). Only then may he pass."""
        if state.piles[STOCKS[seat]]:
            return False
        return not (state.piles[WASTES[seat]] and self.passes_left(state, seat))

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, deal: int) -> DoubleSolitaireState:
        shuffler = Shuffler(deal)
        piles: dict[str, list[Card]] = {name: [] for name in self.pile_names}
        down = dict.fromkeys(self.pile_names, 0)
        for seat in range(SEATS):
            # Shuffles are drawn one after the other from the deal's generator: pack 0, pack 1.
            cards = shuffler.shuffle([Card(seat * 52 + card) for card in packs(1)])
            layout: dict[str, list[Card]] = {name: [] for name in KLONDIKE_TABLEAU}
            layout_down = deal_layout(cards, layout)
            for klondike_name, name in zip(KLONDIKE_TABLEAU, TABLEAUX[seat], strict=True):
                piles[name] = layout[klondike_name]
                down[name] = layout_down[klondike_name]
            # The next card of the pack is the stock's top card: the first one turned.
            piles[STOCKS[seat]] = cards[::-1]
            down[STOCKS[seat]] = len(cards)
        turn, _ = who_starts(piles, shuffler)
        return DoubleSolitaireState(piles=piles, down=down, turn=turn)

    # -- legal moves -------------------------------------------------------------------------

    def candidate_moves(self, state: DoubleSolitaireState) -> list[Move]:
        if state.stop_offered:
            return [STOP, LET_PASS]
        seat = state.turn
        piles = state.piles
        tableau, hand, waste = TABLEAUX[seat], HANDS[seat], WASTES[seat]
        moves: list[Move] = []
        if piles[hand]:
            # The card just turned: played at once, or it goes to the waste and the turn ends.
            card = piles[hand][-1]
            moves += [
                Move.cards(hand, f) for f in FOUNDATIONS if fits_foundation_up(card, piles[f])
            ]
            moves += [
                Move.cards(hand, t) for t in tableau if fitting_run_count([card], 1, piles[t])
            ]
            moves.append(Move.cards(hand, waste))
            return moves
        for source in (waste, *tableau):
            if state.up_count(source):
                card = piles[source][-1]
                for target in FOUNDATIONS:
                    if fits_foundation_up(card, piles[target]):
                        moves.append(Move.cards(source, target))
        for source in tableau:
            run = alternating_run_length(state.face_up(source))
            for target in tableau:
                if target != source:
                    count = fitting_run_count(piles[source], run, piles[target])
                    if count:
                        moves.append(Move.cards(source, target, count))
        if piles[waste]:
            for target in tableau:
                if fitting_run_count(piles[waste], 1, piles[target]):
                    moves.append(Move.cards(waste, target))
        if piles[STOCKS[seat]]:
            moves.append(STOCK)
        elif piles[waste] and self.passes_left(state, seat):
            moves.append(RECYCLE)
        else:
            moves.append(PASS)
        return moves

    def _playable(self, state: DoubleSolitaireState, card: Card, seat: int) -> bool:
        """True if ``card`` (just turned) may go on a foundation or on ``seat``'s tableau."""
        return any(fits_foundation_up(card, state.piles[f]) for f in FOUNDATIONS) or any(
            fitting_run_count([card], 1, state.piles[t]) for t in TABLEAUX[seat]
        )

    def ace_available(self, state: DoubleSolitaireState, seat: int) -> bool:
        """True if an ace lies on top of one of ``seat``'s tableau piles or of his waste: then a
        move that does not put an ace up may be stopped."""
        for name in (WASTES[seat], *TABLEAUX[seat]):
            cards = state.piles[name]
            if cards and state.down[name] < len(cards) and RANK_OF[cards[-1]] == ACE:
                return True
        return False

    # -- applying a move -----------------------------------------------------------------------

    def apply(
        self, state: DoubleSolitaireState, move: Move
    ) -> tuple[DoubleSolitaireState, list[Move]]:
        if move.is_action:
            self._check_action(state, move)
        else:
            self._check_card_move(state, move)
        return self.perform(state, move)

    def perform(
        self, state: DoubleSolitaireState, move: Move
    ) -> tuple[DoubleSolitaireState, list[Move]]:
        return self._play(state, state.copy(), move)

    def _play(
        self, state: DoubleSolitaireState, after: DoubleSolitaireState, move: Move
    ) -> tuple[DoubleSolitaireState, list[Move]]:
        """Make ``move`` on ``after``, a copy of ``state`` or ``state`` itself (playouts change
        states in place): ``state`` is read only before ``after`` changes."""
        seat = state.turn
        forced: list[Move] = []
        if state.stop_offered:
            after.stop_offered = False
            if move.action == Answer.STOP:
                forced += self._end_turn_stopped(after)
            return after, forced
        stoppable = self.ace_available(state, seat) and not self._puts_ace_up(state, move)
        turn_ends = False
        if move.action == "pass":
            after.consecutive_passes += 1
            after.turn = 1 - seat
            return after, forced
        after.consecutive_passes = 0
        if move.action == "stock":
            stock, hand = STOCKS[seat], HANDS[seat]
            card = after.piles[stock].pop()
            after.down[stock] = len(after.piles[stock])
            after.piles[hand].append(card)
            if not self._playable(after, card, seat):
                # Nothing takes it: it goes on the waste at once and the turn ends.
                forced.append(self._to_waste(after, seat))
                turn_ends = True
        elif move.action == "recycle":
            recycle_waste(after, STOCKS[seat], WASTES[seat])
            redeals = list(after.redeals)
            redeals[seat] += 1
            after.redeals = (redeals[0], redeals[1])
        else:
            source, target = str(move.source), str(move.target)
            after.piles[target].extend(after.take(source, move.count))
            if source in TABLEAUX[seat]:
                flip = after.turn_up_top(source)
                if flip is not None:
                    forced.append(flip)
            if target == WASTES[seat]:
                turn_ends = True
        if turn_ends:
            after.turn = 1 - seat
        elif stoppable and self.finished(after) is None:
            if self.options["auto_stop"]:
                forced.append(STOP)
                forced += self._end_turn_stopped(after)
            else:
                after.stop_offered = True
        return after, forced

    @staticmethod
    def _puts_ace_up(state: DoubleSolitaireState, move: Move) -> bool:
        if move.is_action or move.target not in FOUNDATIONS:
            return False
        return RANK_OF[state.piles[str(move.source)][-1]] == ACE

    def _to_waste(self, state: DoubleSolitaireState, seat: int) -> Move:
        """Put ``seat``'s turned card on his waste; return that (forced) move."""
        state.piles[WASTES[seat]].append(state.piles[HANDS[seat]].pop())
        return Move.cards(HANDS[seat], WASTES[seat])

    def _end_turn_stopped(self, state: DoubleSolitaireState) -> list[Move]:
        """The player to move was stopped: a card just turned goes to his waste; the opponent's
        turn begins."""
        seat = state.turn
        forced = [self._to_waste(state, seat)] if state.piles[HANDS[seat]] else []
        state.turn = 1 - seat
        return forced

    def _check_action(self, state: DoubleSolitaireState, move: Move) -> None:
        if move.action not in ACTIONS:
            raise unknown_action(self.name, move, ACTIONS)
        if move.args:
            raise IllegalMove(move, f"{move.action} takes no arguments")
        seat = state.turn
        mover = player_name(self.current_player(state))
        if state.stop_offered:
            if move.action not in tuple(Answer):
                raise IllegalMove(
                    move,
                    f"{mover} must first answer {player_name(seat)}'s move: stop or let-pass",
                )
            return
        if move.action in tuple(Answer):
            hint = (
                "the program calls it (auto_stop=on)"
                if self.options["auto_stop"]
                else "it is offered only after a move that leaves an available ace unplayed"
            )
            raise IllegalMove(move, f"there is no stop to call now: {hint}")
        if state.piles[HANDS[seat]]:
            raise IllegalMove(
                move,
                f"{mover} must first play the card just turned, or put it on the waste "
                f"({HANDS[seat]}-{WASTES[seat]})",
            )
        stock, waste = STOCKS[seat], WASTES[seat]
        if move.action == "stock" and not state.piles[stock]:
            hint = (
                "turn the waste over with recycle"
                if state.piles[waste] and self.passes_left(state, seat)
                else "it is used up: pass"
            )
            raise IllegalMove(
                move,
                f"{mover}'s stock is empty: {hint}",
                instead=Move.act("recycle") if "recycle" in hint else None,
                fact=f"{mover}'s stock is empty",
            )
        if move.action == "recycle":
            if state.piles[stock]:
                raise IllegalMove(move, "the waste is turned over only when the stock is empty")
            if not state.piles[waste]:
                raise IllegalMove(move, "the waste is empty: there is nothing to turn over")
            if not self.passes_left(state, seat):
                raise IllegalMove(
                    move, f"no pass through the stock is left (passes={self.options['passes']})"
                )
        if move.action == "pass" and not self.stock_used_up(state, seat):
            raise IllegalMove(
                move, f"{mover} may pass only when his stock is used up (he can still turn cards)"
            )

    def _check_card_move(self, state: DoubleSolitaireState, move: Move) -> None:
        source = check_pile_name(move.source, self.pile_names, self.name)
        target = check_pile_name(move.target, self.pile_names, self.name)
        seat = self.current_player(state)
        mover = player_name(seat)
        if state.stop_offered:
            raise IllegalMove(
                move,
                f"{mover} must first answer {player_name(state.turn)}'s move: stop or let-pass",
            )
        piles = state.piles
        hand, waste, tableau = HANDS[seat], WASTES[seat], TABLEAUX[seat]
        own_sources = (hand, waste, *tableau)
        if source not in own_sources:
            whose = (
                "the shared foundations"
                if source in FOUNDATIONS
                else f"{player_name(1 - seat)}'s piles"
            )
            raise IllegalMove(
                move,
                f"{mover} plays only from his own tableau, waste and turned card "
                f"({', '.join(own_sources)}), not from {whose}",
            )
        if target not in (*FOUNDATIONS, *tableau) and not (source == hand and target == waste):
            raise IllegalMove(
                move,
                f"{mover} plays only onto the foundations and his own tableau "
                f"({tableau[0]}-{tableau[-1]})",
            )
        if piles[hand] and source != hand:
            raise IllegalMove(
                move,
                f"{mover} must first play the card just turned, or put it on the waste "
                f"({hand}-{waste})",
            )
        if source == target:
            raise IllegalMove(move, "a card move needs two different piles")
        if not piles[source]:
            raise IllegalMove(move, f"{source} is empty")
        if source in tableau:
            check_alternating_run(state, move, source)
        elif move.count != 1:
            raise IllegalMove(move, f"only the top card of {source} can move")
        if target == waste:
            return
        card = piles[source][-move.count]
        check_klondike_target(move, card, target, piles[target], target in FOUNDATIONS)

    # -- the end -------------------------------------------------------------------------------

    def counts(self, state: DoubleSolitaireState) -> tuple[int, int]:
        """How many of each player's own cards lie on the foundations."""
        piles = state.piles
        counts = [0, 0]
        for name in FOUNDATIONS:
            for card in piles[name]:
                counts[card >= 52] += 1
        return counts[0], counts[1]

    def finished(self, state: DoubleSolitaireState) -> Outcome | None:
        scores = self.counts(state)
        for seat in range(SEATS):
            if scores[seat] == 52:
                return Outcome(
                    Result.WON,
                    f"{player_name(seat)} went out: all 52 of his cards are on the foundations",
                    winner=seat,
                    scores=scores,
                )
        if state.consecutive_passes >= 2:
            return self._count(scores, "blocked by two passes in succession")
        return None

    def stuck(self, state: DoubleSolitaireState) -> Outcome:
        """No legal move is left (every move would repeat a position): the game is blocked and
        counted."""
        seat = self.current_player(state)
        return self._count(self.counts(state), f"blocked: {player_name(seat)} has no legal move")

    @staticmethod
    def _count(scores: tuple[int, int], why: str) -> Outcome:
        if scores[0] == scores[1]:
            return Outcome(
                Result.DRAW,
                f"{why}; both count {scores[0]} of their own cards on the foundations",
                scores=scores,
            )
        winner = 0 if scores[0] > scores[1] else 1
        return Outcome(
            Result.WON,
            f"{why}; {player_name(winner)} counts more of his own cards on the foundations "
            f"({scores[winner]} to {scores[1 - winner]})",
            winner=winner,
            scores=scores,
        )

    # -- search hooks for the bots (docs/bots.md) ----------------------------------------------

    def move_to_action(self, state: DoubleSolitaireState, move: Move) -> int:
        """A fixed number for ``move``, the same in every state (worlds sampled by ISMCTS share
        their tree through it)."""
        if move.is_action:
            if move.action not in ACTION_NUMBERS or move.args:
                raise IllegalMove(move, "it is not a move of this game")
            return ACTION_NUMBERS[str(move.action)]
        if move.source not in PILE_INDEX or move.target not in PILE_INDEX or move.count > MAX_COUNT:
            raise IllegalMove(move, "it is not a move of this game")
        return card_action(str(move.source), str(move.target), move.count)

    def action_to_move(self, state: DoubleSolitaireState, action: int) -> Move:
        """The move numbered ``action`` by :meth:`move_to_action`."""
        known = _ACTION_MOVES.get(action)
        if known is not None:
            return known
        move = self._number_to_move(action)
        _ACTION_MOVES[action] = move
        return move

    @staticmethod
    def _number_to_move(action: int) -> Move:
        if 0 <= action < len(ACTIONS):
            return Move.act(ACTIONS[action])
        names = PILE_NAMES
        number = action - len(ACTIONS)
        pair, count = divmod(number, MAX_COUNT)
        source, target = divmod(pair, len(names))
        if isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
            raise IllegalMove(
                None, f"action {action!r} is not a Double Solitaire action (0..{NUM_ACTIONS - 1})"
            )
        return Move.cards(names[source], names[target], count + 1)

    def num_distinct_actions(self) -> int:
        """The size of the action space: the five actions, then every (source pile, target
        pile, count) of card moves (most never legal)."""
        return NUM_ACTIONS

    def action_moves(self) -> list[Move]:
        """Every action's move, in action order (docs/notation.md, "Action numbers")."""
        return [self._number_to_move(action) for action in range(NUM_ACTIONS)]

    def legal_actions(self, state: DoubleSolitaireState) -> list[int]:
        """The legal actions, sorted."""
        return sorted(self.move_to_action(state, move) for move in self.candidate_moves(state))

    def apply_action(
        self, state: DoubleSolitaireState, action: int, *, in_place: bool = False
    ) -> DoubleSolitaireState:
        """The state after ``action``; with ``in_place`` ``state`` itself is changed (no copy:
        playouts make many moves)."""
        move = self.action_to_move(state, action)
        return self._play(state, state if in_place else state.copy(), move)[0]

    def is_terminal(self, state: DoubleSolitaireState) -> bool:
        """True once someone went out or two passes came in succession: a player always has a
        move (the stock, recycle or pass; the turned card to the waste; stop or let-pass), so
        only the no-repetition rule, which :class:`Game` applies, can leave none."""
        return self.finished(state) is not None

    def returns(self, state: DoubleSolitaireState) -> list[float]:
        """Each seat's payoff at the end: his count minus his opponent's (a margin of cards,
        positive for the winner; going out counts all 52)."""
        outcome = self.finished(state) or self.stuck(state)
        scores = outcome.scores or self.counts(state)
        return [float(scores[0] - scores[1]), float(scores[1] - scores[0])]

    #: Ten units of evaluate are a card on the foundations: three cards are a step to a win.
    value_scale = 30.0
    #: Playouts end with the turn after the current one (a turn is several moves).
    playout_turns = 2

    def information_key(self, state: DoubleSolitaireState, observer: int) -> Hashable:
        """What either player knows (both see the same): every pile's face-down count and
        face-up cards, whose move it is and the turns' bookkeeping."""
        down = state.down
        return (
            state.turn,
            state.stop_offered,
            state.consecutive_passes,
            state.redeals,
            tuple((down[name], tuple(state.piles[name][down[name] :])) for name in self.pile_names),
        )

    #: What search charges for a shuffle (:meth:`move_cost`), in rewards of [0, 1].
    SHUFFLE_COST = 0.06
    #: What search charges for the card just turned put on the waste though it could be played.
    HAND_WASTE_COST = 0.03
    #: What search charges for a run moved between one's own tableau piles so that a card turns
    #: up: fewer moves to the same end.
    STEP_COST = 0.005

    def move_cost(self, state: DoubleSolitaireState, move: Move) -> float:
        """A shuffle, a run moved between one's own tableau piles that turns up no card, makes
        no progress of itself: it costs a little, so that search does not prefer it for keeping
        every option open (ISMCTS shuffled in 16 of 40 decisions). So does the waste's top card
        moved onto one's own tableau: it turns up nothing, and search made it seven times as
        often as ``greedy`` for the same reason (issue 23: moves a game), so it makes it only
        when what it opens is worth more than the cost. And so does the card just turned put on
        the waste when it could be played (it is then a move of its own, which ends the turn and
        keeps a tableau place free: search made it 0.7 times a game, ``greedy`` never)."""
        if move.is_action:
            return 0.0
        seat = state.turn
        if move.source == HANDS[seat] and move.target == WASTES[seat]:
            return self.HAND_WASTE_COST
        if move.target not in TABLEAUX[seat]:
            return 0.0
        if move.source == WASTES[seat]:
            return self.SHUFFLE_COST
        if move.source not in TABLEAUX[seat]:
            return 0.0  # the card just turned: one move, whether played or put on the waste
        source = str(move.source)
        up = len(state.piles[source]) - state.down[source]
        turns_up = state.down[source] > 0 and move.count == up
        return self.STEP_COST if turns_up else self.SHUFFLE_COST

    def evaluate(self, state: DoubleSolitaireState, seat: int) -> float:
        """How good ``state`` looks to ``seat``: progress only. Own cards on the foundations
        (racing the opponent for them), face-down cards turned up, stock cards turned; the same
        for the opponent the other way. Keeping the turn is worth nothing of itself (a bonus
        for it had the bots shuffle runs between their piles to keep it)."""
        outcome = self.finished(state)
        if outcome is not None:
            margin = self.returns(state)[seat]
            return margin + (1000.0 if outcome.winner == seat else -1000.0 if margin else 0.0)
        value = 0.0
        counts = self.counts(state)
        for who, sign in ((seat, 1.0), (1 - seat, -1.0)):
            value += sign * 10.0 * counts[who]
            value -= sign * 3.0 * sum(state.down[name] for name in TABLEAUX[who])
            # Cards still to be turned, counting those of passes through the stock left.
            passes_left = int(self.options["passes"]) - 1 - state.redeals[who]
            stock = len(state.piles[STOCKS[who]])
            value -= sign * (stock + passes_left * (stock + len(state.piles[WASTES[who]])))
            value -= sign * 0.2 * len(state.piles[WASTES[who]])
        return value

    def bot_duty(self, view: Mapping[str, Any]) -> Move | None:
        """RULES.md: with ``auto_stop`` off, "a bot always calls" the stop it is offered. The
        stop, when the view shows one offered to its seat and lists it among the legal moves."""
        if not view.get("stop_offered"):
            return None
        legal = [Move.from_json(data) for data in view.get("legal_moves", ())]
        return STOP if STOP in legal else None

    def rollout_action(self, state: DoubleSolitaireState, rng: random.Random) -> int:
        """A playout move that always ends: any card to a foundation, then a move that frees a
        face-down card or brings a turned or waste card into the tableau, else the turned card
        to the waste, the stock, recycle or pass; the opponent always calls stop. Built
        straight from the piles, without listing every legal move (playouts are most of
        ISMCTS's time); of several empty foundations only the first is offered."""
        if state.stop_offered:
            return ACTION_NUMBERS[Answer.STOP]
        seat = state.turn
        piles, down = state.piles, state.down
        hand, waste, tableau = HANDS[seat], WASTES[seat], TABLEAUX[seat]
        # The foundation that takes each (suit, rank) next; ``ace_home`` takes any ace.
        wanted: dict[tuple[int, int], str] = {}
        ace_home = None
        for name in FOUNDATIONS:
            pile = piles[name]
            if pile:
                wanted[SUIT_OF[pile[-1]], RANK_OF[pile[-1]] + 1] = name
            elif ace_home is None:
                ace_home = name

        def home(card: Card) -> str | None:
            rank = RANK_OF[card]
            return ace_home if rank == ACE else wanted.get((SUIT_OF[card], rank))

        if piles[hand]:
            card = piles[hand][-1]
            target = home(card)
            if target is not None:
                return card_action(hand, target)
            useful = [
                card_action(hand, name)
                for name in tableau
                if fitting_run_count((card,), 1, piles[name])
            ]
            return useful[rng.randrange(len(useful))] if useful else card_action(hand, waste)
        useful = []
        for source in (waste, *tableau):
            cards = piles[source]
            if len(cards) > down[source]:
                target = home(cards[-1])
                if target is not None:
                    useful.append(card_action(source, target))
        if not useful:
            if piles[waste]:
                useful = [
                    card_action(waste, name)
                    for name in tableau
                    if fitting_run_count(piles[waste], 1, piles[name])
                ]
            for source in tableau:
                cards = piles[source]
                hidden = down[source]
                up = len(cards) - hidden
                # A whole face-up run leaving face-down cards behind turns one up.
                if not hidden or not up or alternating_run_length(cards[hidden:]) != up:
                    continue
                for name in tableau:
                    if name != source and fitting_run_count(cards, up, piles[name]) == up:
                        useful.append(card_action(source, name, up))
        if useful:
            return useful[rng.randrange(len(useful))]
        if piles[STOCKS[seat]]:
            return ACTION_NUMBERS["stock"]
        if piles[waste] and self.passes_left(state, seat):
            return ACTION_NUMBERS["recycle"]
        return ACTION_NUMBERS["pass"]

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> DoubleSolitaireState:
        """A full state consistent with ``view``: each player's unseen cards (his stock and his
        face-down tableau cards, all from his own pack) dealt at random into those places."""
        piles: dict[str, list[Card]] = {}
        down: dict[str, int] = {}
        unseen: list[list[int]] = []
        slots: list[list[tuple[str, int]]] = [[], []]
        seen_faces: list[set[int]] = [set(), set()]
        owners = view["owners"]
        try:
            for name in FOUNDATIONS:
                cards = [_face(text) for text in view["piles"][name]["up"]]
                piles[name] = [
                    Card(int(owner) * 52 + face)
                    for owner, face in zip(owners[name], cards, strict=True)
                ]
                for owner, face in zip(owners[name], cards, strict=True):
                    seen_faces[int(owner)].add(face)
                down[name] = 0
            for seat, prefix in enumerate(PREFIXES):
                for name in self.pile_names:
                    if not name.startswith(prefix):
                        continue
                    pile = view["piles"][name]
                    ups = [_face(text) for text in pile["up"]]
                    seen_faces[seat].update(ups)
                    hidden = len(pile["down"])
                    slots[seat] += [(name, index) for index in range(hidden)]
                    piles[name] = [Card(0)] * hidden + [Card(seat * 52 + f) for f in ups]
                    down[name] = hidden
        except (CardError, KeyError, TypeError, ValueError) as error:
            raise PositionError(f"not a double-solitaire view: {error}") from None
        for seat in range(SEATS):
            cards = [seat * 52 + face for face in range(52) if face not in seen_faces[seat]]
            rng.shuffle(cards)
            unseen.append(cards)
            for (name, index), card in zip(slots[seat], cards, strict=True):
                piles[name][index] = Card(card)
        return DoubleSolitaireState(
            piles=piles,
            down=down,
            turn=int(view["turn"]),
            stop_offered=bool(view["stop_offered"]),
            redeals=(int(view["redeals"][0]), int(view["redeals"][1])),
            consecutive_passes=int(view["consecutive_passes"]),
        )

    def core_parts(
        self, state: DoubleSolitaireState
    ) -> tuple[list[list[int]], list[int], list[int]]:
        """``state`` as the compiled core takes it (core/src/double_solitaire.rs): the piles
        (card numbers) and face-down counts in :data:`PILE_NAMES` order, and the turn, the
        stop offered, the two redeals and the passes in succession."""
        return (
            [[int(card) for card in state.piles[name]] for name in PILE_NAMES],
            [state.down[name] for name in PILE_NAMES],
            [
                state.turn,
                int(state.stop_offered),
                state.redeals[0],
                state.redeals[1],
                state.consecutive_passes,
            ],
        )

    def from_core_parts(
        self, parts: tuple[Sequence[Sequence[int]], Sequence[int], Sequence[int]]
    ) -> DoubleSolitaireState:
        """The state the compiled core gives back as parts (:meth:`core_parts`)."""
        piles, down, extra = parts
        return DoubleSolitaireState(
            piles={name: [Card(card) for card in piles[i]] for i, name in enumerate(PILE_NAMES)},
            down={name: int(down[i]) for i, name in enumerate(PILE_NAMES)},
            turn=int(extra[0]),
            stop_offered=bool(extra[1]),
            redeals=(int(extra[2]), int(extra[3])),
            consecutive_passes=int(extra[4]),
        )

    def core_options(self) -> tuple[int, bool]:
        """The options as the compiled core takes them: (passes, auto_stop)."""
        return int(self.options["passes"]), bool(self.options["auto_stop"])

    #: ISMCTS iterations a move in the compiled core by default (docs/bots.md: about 0.08 CPU s
    #: a move on the development machine, a tenth of what the Python search's 1300 took).
    native_iterations = 10000
    #: ISMCTS's defaults here (docs/bots.md, "Measurements"): of the root's moves the search
    #: cannot tell apart (within 2 standard errors), the one the one-ply evaluation likes
    #: better (cards to the foundations, cards turned up, stock cards turned) is played, so
    #: that a move of no progress is played only when it is clearly best.
    search_defaults: ClassVar[Mapping[str, float]] = {"near_equal": 2.0, "near_bias": 0.002}
    #: UCB1's constant at the root alone in the compiled core's search (the bot's
    #: ``exploration`` below the root; None: the bot's everywhere). Wider than the bot's 0.7 so
    #: that near-equal moves at the root all get enough visits to be told apart: at 0.7 the
    #: move ahead early keeps nearly every visit (docs/bots.md, "Measurements").
    native_root_exploration: float | None = 2.5

    def native_ismcts(
        self,
        view: Mapping[str, Any],
        rng: random.Random,
        *,
        iterations: int | None,
        seconds: float | None,
        exploration: float,
        bias: float,
        rollout_depth: int | None = None,
        costs: float = 1.0,
        playout: str | None = None,
    ) -> tuple[int, list[tuple[Move, int, float, float]]] | None:
        """ISMCTS for the view's seat in the compiled core (the algorithm of
        :class:`~patience.bots.ismcts.IsmctsBot` on this game's rules, about 90 times
        quicker, with the game's no-repetition rule in the walk down the tree): the root's
        moves as (move, visits, summed reward, bias) and the iterations run (``iterations``
        None: :attr:`native_iterations`); None when the core is not built. The core gets one
        world sampled from the view (:meth:`sample_state`) and deals its face-down cards anew
        each iteration: they are the only cards hidden, so it sees no more than the view.
        ``rollout_depth`` is not used: playouts are cut by turns (:attr:`playout_turns`), as
        the Python loop's are. ``costs`` weighs :meth:`move_cost` in the rewards (1: as
        charged, 0: none), as the bot's parameter of that name. ``playout`` is always None:
        the game has one playout policy (:attr:`playout_policies` is empty). At the root the
        search explores by :attr:`native_root_exploration` instead of ``exploration``."""
        if _core is None:
            return None
        world = self.sample_state(view, rng)
        stats, done = _core.ds_ismcts(
            self.core_options(),
            self.core_parts(world),
            self.current_player(world),
            self.native_iterations if iterations is None else iterations,
            seconds,
            exploration,
            bias,
            self.playout_turns,
            rng.getrandbits(64),
            costs,
            self.native_root_exploration,
        )
        return done, [
            (self.action_to_move(world, action), visits, total, edge_bias)
            for action, visits, total, edge_bias in stats
        ]

    # -- positions -------------------------------------------------------------------------------

    def key(self, state: DoubleSolitaireState) -> Hashable:
        """Every pile in order (cards by identity: each pile's owners are fixed, and the
        foundations only grow), with whose move it is and the passes in succession: a pass
        changes the position, and the second of two passes, which blocks the game, does not
        repeat the position before the first."""
        return (
            state.turn,
            state.stop_offered,
            state.consecutive_passes,
            tuple((state.down[name], tuple(state.piles[name])) for name in self.pile_names),
        )

    def extra_json(self, state: DoubleSolitaireState) -> JSON:
        return {
            "turn": state.turn,
            "stop_offered": state.stop_offered,
            "redeals": list(state.redeals),
            "consecutive_passes": state.consecutive_passes,
            "owners": {name: [card // 52 for card in state.piles[name]] for name in FOUNDATIONS},
        }

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> DoubleSolitaireState:
        total = sum(len(cards) for cards in piles.values())
        if total != 104:
            raise PositionError(
                f"a double-solitaire position holds both packs, 104 cards, not {total}"
            )
        owners = data.get("owners")
        if not isinstance(owners, dict) or set(owners) != set(FOUNDATIONS):
            raise PositionError(
                "'owners' must give, for each foundation f1..f8, the seat (0 or 1) whose pack "
                "each of its cards came from, bottom to top"
            )
        # A card's pack is its owner: fixed by the pile, or listed for the foundations.
        seen: set[int] = set()
        for name in self.pile_names:
            if name in FOUNDATIONS:
                pile_owners = owners[name]
                if (
                    not isinstance(pile_owners, list)
                    or len(pile_owners) != len(piles[name])
                    or any(owner not in (0, 1) or isinstance(owner, bool) for owner in pile_owners)
                ):
                    raise PositionError(
                        f"owners of {name} must list 0 or 1 for each of its "
                        f"{len(piles[name])} card(s)"
                    )
            else:
                pile_owners = [PREFIXES.index(name[0])] * len(piles[name])
            cards = [
                Card(owner * 52 + card % 52)
                for owner, card in zip(pile_owners, piles[name], strict=True)
            ]
            for card in cards:
                if card in seen:
                    raise PositionError(
                        f"{player_name(card // 52)}'s pack has only one {card}, but the "
                        "position gives it twice (his piles hold only his own cards)"
                    )
                seen.add(card)
            piles[name] = cards
        for seat in range(SEATS):
            if down[STOCKS[seat]] != len(piles[STOCKS[seat]]):
                raise PositionError(f"{STOCKS[seat]} lies face down: list its cards under 'down'")
            for name in (HANDS[seat], WASTES[seat]):
                if down[name]:
                    raise PositionError(f"{name} lies face up: list its cards under 'up'")
            if len(piles[HANDS[seat]]) > 1:
                raise PositionError(f"{HANDS[seat]} holds at most the one card just turned")
            for name in TABLEAUX[seat]:
                up = piles[name][down[name] :]
                if alternating_run_length(up) != len(up):
                    raise PositionError(f"the face-up cards of {name} do not form a built run")
                if piles[name] and not up:
                    raise PositionError(f"the top card of {name} must be face up")
        for name in FOUNDATIONS:
            if down[name]:
                raise PositionError(f"{name} lies face up: list its cards under 'up'")
            built: list[Card] = []
            for card in piles[name]:
                if not fits_foundation_up(card, built):
                    raise PositionError(f"{name} is not built up in suit from the ace")
                built.append(card)
        turn = data.get("turn", 0)
        if turn not in (0, 1) or isinstance(turn, bool):
            raise PositionError("'turn' must be the seat whose turn it is: 0 or 1")
        if piles[HANDS[1 - turn]]:
            raise PositionError("only the player whose turn it is may hold a turned card")
        stop_offered = data.get("stop_offered", False)
        if not isinstance(stop_offered, bool):
            raise PositionError("'stop_offered' must be true or false")
        redeals = data.get("redeals", [0, 0])
        passes = int(self.options["passes"])
        if (
            not isinstance(redeals, list)
            or len(redeals) != SEATS
            or any(
                isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < passes
                for r in redeals
            )
        ):
            raise PositionError(
                f"'redeals' must list, for each seat, how often he turned his waste over "
                f"(0 to {passes - 1} with passes={passes})"
            )
        consecutive = data.get("consecutive_passes", 0)
        if consecutive not in (0, 1, 2) or isinstance(consecutive, bool):
            raise PositionError("'consecutive_passes' must be 0, 1 or 2")
        return DoubleSolitaireState(
            piles=piles,
            down=down,
            turn=turn,
            stop_offered=stop_offered,
            redeals=(redeals[0], redeals[1]),
            consecutive_passes=consecutive,
        )
