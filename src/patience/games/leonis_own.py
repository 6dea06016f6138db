"""Leoni's Own: every rule of RULES.md's Leoni's Own in one place (docs/rules/leonis-own.md).

Piles: foundations ``f1``-``f4`` built up in suit from the aces (clubs, diamonds, hearts,
spades) and ``f5``-``f8`` built down in suit from the kings (same suit order); the thirteen piles
``t1``-``t13`` (pile n belongs to rank n; ``t1``-``t12`` squared, ``t13`` spread); ``exiles``
(face down); ``hand`` (the exile just turned up, while the player chooses between the two
foundations of its suit; empty at every other time).

Player moves: ``tN-fK`` (the top card of a squared pile to a foundation),
``play(card=C,at=N,to=fK)`` (card N, counted from the bottom, of the spread pile ``t13``),
``fJ-fK`` (a reversal), ``exile`` or, with ``exile=choose``, ``exile(at=N)`` (turn up the top
exile, or the N-th from the bottom, when stuck), ``hand-fK`` (the foundation chosen for the
turned exile), ``redeal``.

Forced moves: ``turn(card=C)`` (the exile turned up), ``hand-fK`` (it goes to the one foundation
that takes it), ``hand-t13`` (a king joins pile 13), ``under(card=C,pile=tN)`` and
``take(pile=tN,card=C)`` (the steps of a weave), ``standstill`` (the deal ends at a standstill),
``exiled(card=C)`` (a card exiled while dealing: the opening of a game, and after a redeal).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import RANK_OF, SUIT_OF, Card, CardError, Rank, Suit, pack
from ..deals import Shuffler
from ..engine import (
    JSON,
    SPECTATOR,
    IllegalMove,
    Observer,
    Outcome,
    PositionError,
    Result,
    Rules,
    State,
)
from ..moves import Move, register_action
from ..options import Option
from .common import check_pile_name, numbered, unknown_action

#: Foundations built up in suit from the ace, in suit order clubs, diamonds, hearts, spades.
ACE_FOUNDATIONS = numbered("f", 4)
#: Foundations built down in suit from the king, in the same suit order.
KING_FOUNDATIONS = tuple(f"f{number}" for number in range(5, 9))
FOUNDATIONS = (*ACE_FOUNDATIONS, *KING_FOUNDATIONS)
#: Pile n belongs to rank n (A=1 ... K=13).
PILES = numbered("t", 13)
SQUARED = PILES[:12]
SPREAD = "t13"
EXILES = "exiles"
HAND = "hand"

KING = int(Rank.KING)
#: The number of deals: the first and two redeals.
DEALS = 3
SUITS = tuple(Suit)

EXILE_TOP, EXILE_CHOOSE = "top", "choose"
#: The most cards pile 13 or the exiles can hold (the 96 cards dealt): a bound for actions.
MAX_PILE = 96

PLAYER_ACTIONS = ("play", "exile", "redeal")
FORCED_ACTIONS = ("turn", "under", "take", "standstill", "exiled")
register_action(*PLAYER_ACTIONS, *FORCED_ACTIONS)

_NOTE_PILE = r"(?:[A2-9TJQK][cdhs])*"
#: A standstill note: the card about to be put under a pile, then piles 1-12 bottom to top.
_NOTE = re.compile(rf"^[A2-9TJQK][cdhs]\|{_NOTE_PILE}(?:/{_NOTE_PILE}){{11}}$")


@dataclass
class LeonisOwnState(State):
    """Leoni's Own's piles, how many redeals have been made (the deal in play is ``redeals + 1``),
    whether the deal has ended at a standstill, and the standstill notes made in this deal."""

    redeals: int = 0
    standstill: bool = False
    #: The deal's standstill notes, oldest first: ``card|pile1/pile2/.../pile12`` (cards by rank
    #: and suit, each pile bottom to top), written by :func:`note`.
    notes: tuple[str, ...] = ()


def pile_of_rank(rank: int) -> str:
    """The pile a rank belongs to: ``t1`` for aces ... ``t13`` for kings."""
    return f"t{rank}"


def foundation_cards() -> list[Card]:
    """The eight foundation cards taken out of pack 0: the four aces, then the four kings, in
    suit order (they start ``f1``..``f8``)."""
    return [Card.make(Rank.ACE, suit) for suit in SUITS] + [
        Card.make(Rank.KING, suit) for suit in SUITS
    ]


def note(card: Card, piles: dict[str, list[Card]]) -> str:
    """A standstill note: ``card`` and piles 1-12, compared by rank and suit only."""
    return f"{card}|" + "/".join("".join(map(str, piles[name])) for name in SQUARED)


def targets(piles: dict[str, list[Card]], card: Card) -> list[str]:
    """The foundations ``card`` fits now: its suit's ace foundation (if its top is one rank
    lower), then its suit's king foundation (if its top is one rank higher)."""
    suit, rank = SUIT_OF[card], RANK_OF[card]
    fits: list[str] = []
    up = piles[ACE_FOUNDATIONS[suit]]
    if up and RANK_OF[up[-1]] + 1 == rank:
        fits.append(ACE_FOUNDATIONS[suit])
    down = piles[KING_FOUNDATIONS[suit]]
    if down and RANK_OF[down[-1]] - 1 == rank:
        fits.append(KING_FOUNDATIONS[suit])
    return fits


def wants(piles: dict[str, list[Card]], foundation: str) -> str:
    """What a foundation takes next, in words."""
    cards = piles[foundation]
    top = cards[-1]
    if foundation in ACE_FOUNDATIONS:
        if RANK_OF[top] == KING:
            return "nothing (it is complete)"
        return f"the {Rank(RANK_OF[top] + 1).letter}{top.suit.letter}"
    if RANK_OF[top] == 1:
        return "nothing (it is complete)"
    return f"the {Rank(RANK_OF[top] - 1).letter}{top.suit.letter}"


def partner(foundation: str) -> str:
    """The other foundation of the same suit (``f1`` <-> ``f5`` ...)."""
    index = FOUNDATIONS.index(foundation)
    return FOUNDATIONS[(index + 4) % 8]


def deal_with_exiles(
    stock: Sequence[Card], piles: dict[str, list[Card]], exiles: list[Card]
) -> None:
    """Deal ``stock`` (top card first) one card at a time to piles 1, 2, ..., 13, 1, ...; a card
    whose rank is the number of the pile it is about to go to is put on ``exiles`` instead and
    the next card is tried on the same pile."""
    number = 1
    for card in stock:
        if RANK_OF[card] == number:
            exiles.append(card)
            continue
        piles[pile_of_rank(number)].append(card)
        number = number % 13 + 1


def exiled_moves(exiles: Sequence[Card]) -> list[Move]:
    """The forced moves reporting a deal's exiles, in the order they were exiled: the player
    sees each card as it is exiled, before it lies face down."""
    return [Move.act("exiled", card=str(card)) for card in exiles]


def redeal_stock(piles: dict[str, list[Card]], exiles: Sequence[Card]) -> list[Card]:
    """The new stock of a redeal, top card first.

    Pile 1 is stacked on pile 2, those on pile 3, ... all on pile 13, and the face-up packet is
    turned over: pile 13's bottom card comes to the top, then the rest of pile 13 bottom to top,
    then pile 12 bottom to top, ... pile 1 last. The exile pile goes under it as it lies, face
    down: its top card (the last exiled) follows pile 1's top card.
    """
    stock = [card for name in reversed(PILES) for card in piles[name]]
    return stock + list(reversed(exiles))


class LeonisOwn(Rules[LeonisOwnState]):
    """Leoni's Own (RULES.md): two packs, eight foundations (four up from the aces, four down
    from the kings), thirteen piles dealt with exiles, weaving, and two redeals."""

    name = "leonis-own"
    title = "Leoni's Own"
    summary = (
        "Two packs dealt to thirteen piles by rank, exiling cards that meet their own pile; "
        "build four foundations up from the aces and four down from the kings, weaving the "
        "exiles through the piles when stuck."
    )
    option_specs = (
        Option(
            "exile",
            "choice",
            EXILE_TOP,
            "which exile is turned up when stuck: the top one, or one the player picks",
            (EXILE_TOP, EXILE_CHOOSE),
        ),
    )
    pile_names = (*FOUNDATIONS, *PILES, EXILES, HAND)
    packs = 2
    # Every card is dealt face up, one at a time, and each exile is seen as it is tried
    # ("he saw them all while dealing"); weaves carry cards face up; a redeal restacks the
    # piles in a known order. The view squares the piles, the player's memory does not.
    player_sees_every_card = True

    @property
    def choose(self) -> bool:
        """True when the player picks which exile to turn up (``exile=choose``)."""
        return self.options["exile"] == EXILE_CHOOSE

    def deck(self) -> list[Card]:
        """The 104 cards in starting order: the eight foundation cards (pack 0's aces, then its
        kings, in suit order), then the 96 that are shuffled: pack 0 without them, then pack 1,
        each in new-pack order (docs/deals.md)."""
        bases = foundation_cards()
        return bases + [card for card in pack(0) if card not in bases] + pack(1)

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, deal: int) -> LeonisOwnState:
        deck = self.deck()
        stock = Shuffler(deal).shuffle(deck[len(FOUNDATIONS) :])
        piles: dict[str, list[Card]] = {name: [] for name in self.pile_names}
        for foundation, card in zip(FOUNDATIONS, deck, strict=False):
            piles[foundation].append(card)
        deal_with_exiles(stock, piles, piles[EXILES])
        down = dict.fromkeys(self.pile_names, 0)
        down[EXILES] = len(piles[EXILES])
        return LeonisOwnState(piles=piles, down=down)

    def opening(self, state: LeonisOwnState) -> tuple[LeonisOwnState, list[Move]]:
        """Exiling is part of dealing, so the dealt position already shows it; the opening reports
        the exiled cards (``exiled(card=C)``, in order), as a redeal's forced moves do."""
        return state, exiled_moves(state.piles[EXILES])

    # -- what the position allows --------------------------------------------------------------

    @staticmethod
    def available(state: LeonisOwnState) -> list[tuple[str, int, Card]]:
        """The cards that may go to a foundation in normal play: the top card of each of piles
        1-12 and every card of pile 13, as (pile, index from the bottom, card)."""
        found = [
            (name, len(state.piles[name]) - 1, state.piles[name][-1])
            for name in SQUARED
            if state.piles[name]
        ]
        found += [(SPREAD, index, card) for index, card in enumerate(state.piles[SPREAD])]
        return found

    def is_stuck(self, state: LeonisOwnState) -> bool:
        """Stuck (RULES.md): no top card of piles 1-12 and no card of pile 13 fits a foundation
        as the foundations now stand (reversals do not count)."""
        piles = state.piles
        return not any(targets(piles, card) for _, _, card in self.available(state))

    def choosing(self, state: LeonisOwnState) -> bool:
        """True while a turned exile that fits both foundations of its suit waits in the hand."""
        return bool(state.piles[HAND])

    def deal_ended(self, state: LeonisOwnState) -> bool:
        """The end of a deal: a standstill, or stuck with no exiles left."""
        if self.choosing(state):
            return False
        return state.standstill or (not state.piles[EXILES] and self.is_stuck(state))

    def may_turn_exile(self, state: LeonisOwnState) -> bool:
        """An exile may be turned up: stuck, exiles left, and the deal not ended at a
        standstill."""
        return (
            not self.choosing(state)
            and not state.standstill
            and bool(state.piles[EXILES])
            and self.is_stuck(state)
        )

    def may_redeal(self, state: LeonisOwnState) -> bool:
        """A redeal is allowed: the deal has ended and a redeal is left."""
        return state.redeals < DEALS - 1 and self.deal_ended(state)

    @staticmethod
    def in_sequence(piles: dict[str, list[Card]], suit: int) -> bool:
        """The tops of a suit's two foundations are in sequence, so reversals are possible: the
        king foundation's top is one rank above the ace foundation's."""
        up, down = piles[ACE_FOUNDATIONS[suit]], piles[KING_FOUNDATIONS[suit]]
        return RANK_OF[down[-1]] == RANK_OF[up[-1]] + 1

    @staticmethod
    def reversal_allowed(piles: dict[str, list[Card]], source: str, target: str) -> bool:
        """True if the top card of foundation ``source`` may move to ``target``, the other
        foundation of its suit: it fits there and it is not the base ace or king."""
        cards = piles[source]
        return len(cards) > 1 and target in targets(piles, cards[-1])

    def playable_after_reversals(self, state: LeonisOwnState) -> bool:
        """True if some available card fits a foundation now or after reversals.

        Reversals only change a suit whose foundations are in sequence; such a suit's
        foundations then hold one card of each rank, and reversals can move the meeting point
        to any rank, so every available card of that suit can be made to fit.
        """
        piles = state.piles
        return any(
            targets(piles, card) or self.in_sequence(piles, SUIT_OF[card])
            for _, _, card in self.available(state)
        )

    # -- legal moves -------------------------------------------------------------------------

    def candidate_moves(self, state: LeonisOwnState) -> list[Move]:
        piles = state.piles
        if self.choosing(state):
            return [Move.cards(HAND, target) for target in targets(piles, piles[HAND][-1])]
        moves: list[Move] = []
        for name in SQUARED:
            if piles[name]:
                moves.extend(Move.cards(name, target) for target in targets(piles, piles[name][-1]))
        for index, card in enumerate(piles[SPREAD]):
            for target in targets(piles, card):
                moves.append(Move.act("play", card=str(card), at=index + 1, to=target))
        for source in FOUNDATIONS:
            target = partner(source)
            if self.reversal_allowed(piles, source, target):
                moves.append(Move.cards(source, target))
        if self.may_turn_exile(state):
            if self.choose:
                moves.extend(Move.act("exile", at=index + 1) for index in range(len(piles[EXILES])))
            else:
                moves.append(Move.act("exile"))
        if self.may_redeal(state):
            moves.append(Move.act("redeal"))
        return moves

    def action_moves(self) -> list[Move]:
        """The action space (docs/notation.md, "Action numbers"): the top card of piles 1-12 to
        each foundation, the exile in the hand to each foundation, card N of pile 13 to each
        foundation (N = 1..96: the card is the state's, since two packs may put two copies of
        a card in pile 13, and is left out of the numbering), the reversals, then ``exile``
        (or ``exile(at=N)``, N = 1..96, with ``exile=choose``) and ``redeal``."""
        moves = [Move.cards(source, target) for source in SQUARED for target in FOUNDATIONS]
        moves += [Move.cards(HAND, target) for target in FOUNDATIONS]
        moves += [
            Move.act("play", at=at, to=target)
            for at in range(1, MAX_PILE + 1)
            for target in FOUNDATIONS
        ]
        moves += [Move.cards(source, partner(source)) for source in FOUNDATIONS]
        if self.choose:
            moves += [Move.act("exile", at=at) for at in range(1, MAX_PILE + 1)]
        else:
            moves.append(Move.act("exile"))
        moves.append(Move.act("redeal"))
        return moves

    def action_template(self, state: LeonisOwnState, move: Move) -> Move:
        """``play`` without its card (card ``at`` of pile 13 is the state's); the card named
        must be that one."""
        if move.action != "play" or tuple(key for key, _ in move.args) != ("card", "at", "to"):
            return move
        at, spread = move.arg("at"), state.piles[SPREAD]
        if isinstance(at, bool) or not isinstance(at, int) or not 1 <= at <= len(spread):
            raise IllegalMove(move, f"t13 has no card {at} (it holds {len(spread)})")
        if str(spread[at - 1]) != move.arg("card"):
            raise IllegalMove(move, f"card {at} of t13 is {spread[at - 1]}")
        return Move.act("play", at=at, to=str(move.arg("to")))

    def move_from_template(self, state: LeonisOwnState, template: Move) -> Move:
        """``play`` with the card that lies at ``at`` in pile 13."""
        if template.action != "play":
            return template
        at, spread = int(str(template.arg("at"))), state.piles[SPREAD]
        if at > len(spread):
            raise IllegalMove(
                None, f"{template} names card {at} of t13, which holds {len(spread)} now"
            )
        return Move.act("play", card=str(spread[at - 1]), at=at, to=str(template.arg("to")))

    # -- applying a move -----------------------------------------------------------------------

    def apply(self, state: LeonisOwnState, move: Move) -> tuple[LeonisOwnState, list[Move]]:
        if self.choosing(state):
            self._check_choice(state, move)
        elif move.is_action:
            self._check_action(state, move)
        else:
            self._check_card_move(state, move)
        return self.perform(state, move)

    def perform(self, state: LeonisOwnState, move: Move) -> tuple[LeonisOwnState, list[Move]]:
        after = state.copy()
        forced: list[Move] = []
        piles = after.piles
        if move.action == "play":
            card = piles[SPREAD].pop(int(str(move.arg("at"))) - 1)
            piles[str(move.arg("to"))].append(card)
        elif move.action == "exile":
            at = move.arg("at")
            index = len(piles[EXILES]) - 1 if at is None else int(at) - 1
            card = piles[EXILES].pop(index)
            after.down[EXILES] = len(piles[EXILES])
            forced.append(Move.act("turn", card=str(card)))
            # RULES.md: after a king joins pile 13 or a chain stops at an empty pile, "if still
            # stuck, the next exile is turned" as part of what follows (with exile=top; with
            # exile=choose the player must pick it, so it is his move).
            while self._follow_exile(after, card, forced) and not self.choose:
                if not self.may_turn_exile(after):
                    break
                card = piles[EXILES].pop()
                after.down[EXILES] = len(piles[EXILES])
                forced.append(Move.act("turn", card=str(card)))
        elif move.action == "redeal":
            forced.extend(self._redeal(after))
        else:
            source, target = str(move.source), str(move.target)
            piles[target].append(piles[source].pop())
        return after, forced

    def _check_choice(self, state: LeonisOwnState, move: Move) -> None:
        piles = state.piles
        card = piles[HAND][-1]
        fits = targets(piles, card)
        choices = " or ".join(f"{HAND}-{target}" for target in fits)
        if move.is_action or move.source != HAND or move.target not in fits or move.count != 1:
            raise IllegalMove(
                move,
                f"the exile {card} in the hand fits both foundations of its suit: first choose "
                f"where it goes, {choices}",
            )

    def _check_card_move(self, state: LeonisOwnState, move: Move) -> None:
        piles = state.piles
        source = check_pile_name(move.source, self.pile_names, self.name)
        target = check_pile_name(move.target, self.pile_names, self.name)
        if move.count != 1:
            raise IllegalMove(move, "cards move one at a time")
        if source == SPREAD:
            hint = self._spread_hint(state)
            raise IllegalMove(
                move,
                "every card of the spread pile t13 is available: play one with "
                f"play(card=C,at=N,to=fK), N counting from its bottom card{hint}",
            )
        if source == EXILES:
            raise IllegalMove(move, "exiles are turned up with the move exile, and only when stuck")
        if source == HAND:
            raise IllegalMove(
                move, "the hand is empty: it holds an exile only while its foundation is chosen"
            )
        if target not in FOUNDATIONS:
            raise IllegalMove(
                move, "cards go only to the foundations: there is no building on the piles"
            )
        if source in FOUNDATIONS:
            self._check_reversal(state, move, source, target)
            return
        if not piles[source]:
            raise IllegalMove(move, f"{source} is empty")
        card = piles[source][-1]
        self._check_fits(move, piles, card, target)

    @staticmethod
    def _check_fits(move: Move, piles: dict[str, list[Card]], card: Card, target: str) -> None:
        if target not in targets(piles, card):
            kind = (
                "builds up in suit from the ace"
                if target in ACE_FOUNDATIONS
                else "builds down in suit from the king"
            )
            raise IllegalMove(
                move, f"{card} cannot go on {target}: it takes {wants(piles, target)} ({kind})"
            )

    def _check_reversal(self, state: LeonisOwnState, move: Move, source: str, target: str) -> None:
        piles = state.piles
        if target != partner(source):
            raise IllegalMove(
                move,
                f"a card moves from a foundation only to the other foundation of its suit "
                f"({source}-{partner(source)}: a reversal)",
            )
        if len(piles[source]) == 1:
            base = "ace" if source in ACE_FOUNDATIONS else "king"
            raise IllegalMove(move, f"the base {base} of {source} never moves")
        if not self.reversal_allowed(piles, source, target):
            raise IllegalMove(
                move,
                f"a reversal needs the tops of the suit's two foundations in sequence: "
                f"{piles[source][-1]} cannot go on {target}, which takes {wants(piles, target)}",
            )

    def _spread_hint(self, state: LeonisOwnState) -> str:
        piles = state.piles
        plays = [
            Move.act("play", card=str(card), at=index + 1, to=target).text()
            for index, card in enumerate(piles[SPREAD])
            for target in targets(piles, card)
        ]
        return f"; now: {', '.join(plays)}" if plays else ""

    def _check_action(self, state: LeonisOwnState, move: Move) -> None:
        if move.action in FORCED_ACTIONS:
            raise IllegalMove(move, f"{move.action} is a forced move: the game makes it by itself")
        if move.action not in PLAYER_ACTIONS:
            raise unknown_action(self.name, move, PLAYER_ACTIONS)
        if move.action == "play":
            self._check_play(state, move)
        elif move.action == "exile":
            self._check_exile(state, move)
        else:
            if move.args:
                raise IllegalMove(move, "redeal takes no arguments")
            if state.redeals >= DEALS - 1:
                raise IllegalMove(move, "both redeals have been made: the third deal is the last")
            if not self.deal_ended(state):
                raise IllegalMove(
                    move,
                    "a redeal is allowed only at the end of a deal: when stuck with no exiles "
                    "left, or after a standstill",
                )

    def _check_play(self, state: LeonisOwnState, move: Move) -> None:
        piles = state.piles
        names = tuple(key for key, _ in move.args)
        card_text, at, target = move.arg("card"), move.arg("at"), move.arg("to")
        if not isinstance(card_text, str) or isinstance(at, bool) or not isinstance(at, int):
            raise IllegalMove(
                move, "write play(card=C,at=N,to=fK): card N of t13, counted from the bottom"
            )
        try:
            card = Card.parse(card_text)
        except CardError as error:
            raise IllegalMove(move, str(error)) from None
        spread = piles[SPREAD]
        if not 1 <= at <= len(spread) or not spread[at - 1].same_face(card):
            places = [str(index + 1) for index, other in enumerate(spread) if other.same_face(card)]
            where = (
                f"{card} is card {' and '.join(places)} of t13"
                if places
                else f"{card} is not in t13"
            )
            raise IllegalMove(move, f"{where} (counting from its bottom card)")
        if not isinstance(target, str) or target not in FOUNDATIONS:
            raise IllegalMove(move, "to= names a foundation, f1 to f8")
        self._check_fits(move, piles, spread[at - 1], target)
        canonical = Move.act("play", card=str(card), at=at, to=target)
        if names != ("card", "at", "to") or move != canonical:
            raise IllegalMove(move, f"write it as {canonical}")

    def _check_exile(self, state: LeonisOwnState, move: Move) -> None:
        piles = state.piles
        if state.standstill:
            raise IllegalMove(
                move, "the deal has ended at a standstill: no more exiles are turned in it"
            )
        if not piles[EXILES]:
            raise IllegalMove(move, "there are no exiles left")
        if not self.is_stuck(state):
            playable = next(
                (name, card) for name, _, card in self.available(state) if targets(piles, card)
            )
            raise IllegalMove(
                move,
                f"an exile is turned up only when stuck, and {playable[1]} on {playable[0]} "
                f"can go to {targets(piles, playable[1])[0]}",
            )
        if not self.choose:
            if move.args:
                raise IllegalMove(
                    move, "with exile=top the top exile is turned up: write exile, no arguments"
                )
            return
        at = move.arg("at")
        count = len(piles[EXILES])
        if (
            tuple(key for key, _ in move.args) != ("at",)
            or isinstance(at, bool)
            or not isinstance(at, int)
        ):
            raise IllegalMove(
                move,
                "with exile=choose, pick an exile by its place: exile(at=N), N from 1 (the bottom "
                f"of the exile pile, the first exiled) to {count} (its top)",
            )
        if not 1 <= at <= count:
            raise IllegalMove(move, f"the exile pile holds {count} card(s): at= is 1 to {count}")

    # -- what follows a turned exile: all forced -------------------------------------------

    def _follow_exile(self, state: LeonisOwnState, card: Card, forced: list[Move]) -> bool:
        """The turned exile ``card`` goes to the foundation that takes it (or waits in the hand
        for the player's choice when both do), or joins pile 13 if a king, or is woven.

        True when RULES.md turns the next exile if still stuck: a king joined pile 13 or the
        chain stopped at an empty pile (or at a standstill, which ends the deal)."""
        piles = state.piles
        fits = targets(piles, card)
        if len(fits) == 2:
            piles[HAND].append(card)
            return False
        if fits:
            piles[fits[0]].append(card)
            forced.append(Move.cards(HAND, fits[0]))
            return False
        if RANK_OF[card] == KING:
            piles[SPREAD].append(card)
            forced.append(Move.cards(HAND, SPREAD))
            return True
        return self._weave(state, card, forced)

    def _weave(self, state: LeonisOwnState, carried: Card, forced: list[Move]) -> bool:
        """Weave the carried card through the piles (RULES.md, steps 1-4), noting each card
        about to be put under a pile so that a standstill ends the deal. True if the chain
        ended without resuming normal play (a king joined pile 13, an empty pile, a
        standstill)."""
        piles = state.piles
        notes = list(state.notes)
        seen = set(notes)
        stopped = True
        while True:
            # Step 1: the carried card goes under the pile of its rank.
            name = pile_of_rank(RANK_OF[carried])
            if self._put_under(state, carried, notes, seen, forced):
                break
            # Step 2: take the top card; the card beneath it is uncovered.
            taken = piles[name].pop()
            forced.append(Move.act("take", pile=name, card=str(taken)))
            # The player was stuck and only the uncovered card is new, so "a card can now go to
            # a foundation" means the uncovered card fits one (the taken card was a top card
            # that did not fit).
            if targets(piles, piles[name][-1]):
                # Step 3: the taken card goes under the pile of its rank; normal play resumes.
                if RANK_OF[taken] == KING:
                    piles[SPREAD].append(taken)
                    forced.append(Move.cards(HAND, SPREAD))
                else:
                    self._put_under(state, taken, notes, seen, forced)
                stopped = False
                break
            # Step 4: the taken card is carried on; a king joins pile 13 and ends the chain.
            if RANK_OF[taken] == KING:
                piles[SPREAD].append(taken)
                forced.append(Move.cards(HAND, SPREAD))
                break
            carried = taken
        state.notes = tuple(notes)
        return stopped

    @staticmethod
    def _put_under(
        state: LeonisOwnState,
        card: Card,
        notes: list[str],
        seen: set[str],
        forced: list[Move],
    ) -> bool:
        """Put ``card`` under the pile of its rank, noting it first; True if the chain stops
        there: at a standstill (the note repeats: the deal ends) or because the pile was empty
        (the card becomes its only card)."""
        piles = state.piles
        name = pile_of_rank(RANK_OF[card])
        written = note(card, piles)
        repeated = written in seen
        if not repeated:
            notes.append(written)
            seen.add(written)
        was_empty = not piles[name]
        piles[name].insert(0, card)
        forced.append(Move.act("under", card=str(card), pile=name))
        if repeated:
            state.standstill = True
            forced.append(Move.act("standstill"))
            return True
        return was_empty

    def _redeal(self, state: LeonisOwnState) -> list[Move]:
        """Gather the piles and the exiles into a new stock and deal it with exiling."""
        piles = state.piles
        stock = redeal_stock(piles, piles[EXILES])
        for name in (*PILES, EXILES):
            piles[name] = []
        deal_with_exiles(stock, piles, piles[EXILES])
        state.down[EXILES] = len(piles[EXILES])
        state.redeals += 1
        state.standstill = False
        state.notes = ()
        return exiled_moves(piles[EXILES])

    # -- the end -------------------------------------------------------------------------------

    def finished(self, state: LeonisOwnState) -> Outcome | None:
        piles = state.piles
        if all(len(piles[name]) == 13 for name in FOUNDATIONS):
            return Outcome(Result.WON, "all 104 cards are on the foundations")
        if (
            state.redeals == DEALS - 1
            and self.deal_ended(state)
            and not self.playable_after_reversals(state)
        ):
            return Outcome(Result.LOST, "the third deal has ended")
        return None

    # -- the view and positions --------------------------------------------------------------

    def view_piles(self, state: LeonisOwnState, observer: Observer) -> dict[str, JSON]:
        """The default view, but piles 1-12 are squared: only their top card is seen, the cards
        under it are ``null`` (they lie face up, so they stay in ``up``), keeping the count.

        With ``exile=choose`` the face-down exiles are named (ruling 8): RULES.md gives the
        player the choice because "he saw them all while dealing", so he picks knowing them;
        a spectator did not deal, and sees them face down.
        """
        piles = super().view_piles(state, observer)
        for name in SQUARED:
            cards = state.piles[name]
            piles[name] = {
                "down": [],
                "up": [None] * (len(cards) - 1) + [str(cards[-1])] if cards else [],
            }
        if self.choose and observer is not SPECTATOR:
            piles[EXILES] = {"down": [str(card) for card in state.piles[EXILES]], "up": []}
        return piles

    def view_parts(self, state: LeonisOwnState, observer: Observer) -> JSON:
        """The default view without the standstill notes, which name the cards under the
        squared piles (ruling 2): only how many notes this deal has made is shown."""
        data = super().view_parts(state, observer)
        data.pop("notes", None)
        data["notes_made"] = len(state.notes)
        return data

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> LeonisOwnState:
        """A world of the view (:meth:`Rules.sample_state`) that keeps what the deal with
        exiles implies: until a card is put under a pile in this deal (the view's
        ``notes_made`` is 0: every put-under writes a note), no squared pile holds a card of
        its own rank, so a hidden card dealt there is swapped with a hidden card from elsewhere
        that fits both places. (Once a weave has put cards under, the pile of their rank holds
        them at its bottom, and the cards stay dealt uniformly.) A uniform deal put some five
        cards of a fresh deal's 84 hidden ones on their own piles: worlds the rules rule out."""
        state = super().sample_state(view, rng)
        if view.get("notes_made", 0):
            return state
        piles = state.piles
        # The hidden places as (pile, index in the state's pile, bottom first).
        hidden = [
            (name, index)
            for name, pile in view["piles"].items()
            for index, card in enumerate([*pile.get("down", []), *pile.get("up", [])])
            if card is None
        ]

        def fits(card: Card, name: str) -> bool:
            return name not in SQUARED or pile_of_rank(RANK_OF[card]) != name

        for name, index in hidden:
            card = piles[name][index]
            if fits(card, name):
                continue
            swaps = [
                (other, at)
                for other, at in hidden
                if fits(piles[other][at], name) and fits(card, other)
            ]
            if swaps:
                other, at = rng.choice(swaps)
                piles[name][index], piles[other][at] = piles[other][at], card
        return state

    def extra_json(self, state: LeonisOwnState) -> JSON:
        return {
            "redeals": state.redeals,
            "standstill": state.standstill,
            "notes": list(state.notes),
        }

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> LeonisOwnState:
        total = sum(len(cards) for cards in piles.values())
        if total != 104:
            raise PositionError(f"a leonis-own position holds all 104 cards once, not {total}")
        if down[EXILES] != len(piles[EXILES]):
            raise PositionError("the exiles lie face down: list them under 'down'")
        for name in self.pile_names:
            if name != EXILES and down[name]:
                raise PositionError(f"the {name} pile lies face up: list its cards under 'up'")
        for suit in SUITS:
            for name, base, step in (
                (ACE_FOUNDATIONS[suit], 1, 1),
                (KING_FOUNDATIONS[suit], KING, -1),
            ):
                expected = [Card.make(base + step * index, suit) for index in range(13)]
                cards = piles[name]
                if (
                    not cards
                    or len(cards) > 13
                    or any(
                        not card.same_face(want)
                        for card, want in zip(cards, expected, strict=False)
                    )
                ):
                    direction = "up from the ace" if step == 1 else "down from the king"
                    raise PositionError(
                        f"{name} must be built {direction} of {Suit(suit).name.lower()}, "
                        f"starting with its base {expected[0]}"
                    )
        spread = piles[SPREAD]
        kings = [index for index, card in enumerate(spread) if RANK_OF[card] == KING]
        if kings and any(RANK_OF[card] != KING for card in spread[kings[0] :]):
            raise PositionError(
                "t13: kings join pile 13 on top of its dealt cards, so no other card lies above "
                "a king there"
            )
        redeals = data.get("redeals", 0)
        if isinstance(redeals, bool) or not isinstance(redeals, int) or not 0 <= redeals < DEALS:
            raise PositionError("'redeals' must be 0, 1 or 2 (the deal in play is redeals + 1)")
        standstill = data.get("standstill", False)
        if not isinstance(standstill, bool):
            raise PositionError("'standstill' must be true or false")
        notes = data.get("notes", [])
        if not isinstance(notes, list) or not all(
            isinstance(item, str) and _NOTE.match(item) for item in notes
        ):
            raise PositionError(
                "'notes' must be a list of standstill notes like 'Th|pile1/.../pile12', each pile "
                "its cards bottom to top written together ('7h2c')"
            )
        if len(set(notes)) != len(notes):
            raise PositionError("'notes' lists a note twice: a repeated note ends the deal")
        hand = piles[HAND]
        if len(hand) > 1:
            raise PositionError("the hand holds at most one card: the exile being placed")
        if hand:
            if len(targets(piles, hand[0])) != 2:
                raise PositionError(
                    f"the hand holds an exile only while it fits both foundations of its suit, "
                    f"and {hand[0]} does not"
                )
            if standstill:
                raise PositionError("no exile is in the hand after a standstill")
        return LeonisOwnState(
            piles=piles, down=down, redeals=redeals, standstill=standstill, notes=tuple(notes)
        )
