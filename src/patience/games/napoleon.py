"""Napoleon at St Helena (Forty Thieves): every rule of RULES.md's section in one place
(docs/rules/napoleon.md).

Piles: ``stock``, ``waste``, foundations ``f1``-``f8``, columns ``t1``-``t10``. Moves: the top
card of a column or of the waste to a foundation or onto a column, and ``stock`` (turn one card
onto the waste). Forced: an ace that becomes available (on top of a column or of the waste) goes
at once to the first empty foundation, written as a card move (``t3-f2``, ``waste-f1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..cards import RANK_OF, SUIT_OF, Card, Rank, packs
from ..deals import Shuffler
from ..engine import JSON, IllegalMove, Outcome, PositionError, Result, Rules, State
from ..moves import Move, register_action
from .common import (
    check_pile_name,
    fits_foundation_up,
    foundation_wants,
    numbered,
    turn_stock,
    unknown_action,
)

FOUNDATIONS = numbered("f", 8)
TABLEAU = numbered("t", 10)
#: Piles whose top card is available to the player, in the order forced aces are looked for.
AVAILABLE = ("waste", *TABLEAU)
ACTIONS = ("stock",)
ROWS = 4
register_action(*ACTIONS)


@dataclass
class NapoleonState(State):
    """Napoleon's piles. One pass through the stock and no other counters: the piles say all."""


def builds_down_in_suit(card: Card, onto: Card) -> bool:
    """True if ``card`` may go on ``onto`` in a column built down in suit (no king on an ace)."""
    return SUIT_OF[card] == SUIT_OF[onto] and RANK_OF[card] == RANK_OF[onto] - 1


def send_aces_up(state: NapoleonState) -> list[Move]:
    """Move every available ace to the first empty foundation, in place; return those moves.

    Aces go up "as soon as they are available" (RULES.md), so an ace uncovered by an ace going
    up follows at once. Piles are searched in the order of ``AVAILABLE`` each time.
    """
    forced: list[Move] = []
    piles = state.piles
    while True:
        source = next(
            (name for name in AVAILABLE if piles[name] and RANK_OF[piles[name][-1]] == 1), None
        )
        if source is None:
            return forced
        # Eight aces, eight foundations that never empty: an empty one is always there.
        target = next(name for name in FOUNDATIONS if not piles[name])
        piles[target].append(piles[source].pop())
        forced.append(Move.cards(source, target))


class Napoleon(Rules[NapoleonState]):
    """Napoleon at St Helena (RULES.md): ten columns of four, built down in suit; one pass."""

    name = "napoleon"
    title = "Napoleon at St Helena"
    summary = (
        "Forty Thieves: ten columns of four face up, built down in suit one card at a time; "
        "a single pass through the stock."
    )
    aliases = ("forty-thieves",)
    option_specs = ()
    pile_names = ("stock", "waste", *FOUNDATIONS, *TABLEAU)
    packs = 2

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, deal: int) -> NapoleonState:
        """Deal as docs/deals.md says; :meth:`opening` then sends the aces up."""
        cards = Shuffler(deal).shuffle(packs(2))
        piles: dict[str, list[Card]] = {name: [] for name in self.pile_names}
        layout = len(TABLEAU) * ROWS
        # Row by row, left to right: card k (0-based) lies in row k // 10 of column k % 10.
        for index, card in enumerate(cards[:layout]):
            piles[TABLEAU[index % len(TABLEAU)]].append(card)
        # Card 41 is the stock's top card (the end of the list): the first one turned.
        piles["stock"] = cards[layout:][::-1]
        down = dict.fromkeys(self.pile_names, 0)
        down["stock"] = len(piles["stock"])
        return NapoleonState(piles=piles, down=down)

    def opening(self, state: NapoleonState) -> tuple[NapoleonState, list[Move]]:
        """Aces on top of the columns go up as soon as the deal is made (ruling 1)."""
        after = state.copy()
        return after, send_aces_up(after)

    # -- legal moves -------------------------------------------------------------------------

    def candidate_moves(self, state: NapoleonState) -> list[Move]:
        moves: list[Move] = []
        piles = state.piles
        # To the foundations first; a card fitting two foundations (two packs) may go to either.
        for source in AVAILABLE:
            if piles[source]:
                card = piles[source][-1]
                for target in FOUNDATIONS:
                    if fits_foundation_up(card, piles[target]):
                        moves.append(Move.cards(source, target))
        # Onto the columns: the top card of a column, then of the waste.
        for source in (*TABLEAU, "waste"):
            if not piles[source]:
                continue
            card = piles[source][-1]
            for target in TABLEAU:
                if target == source:
                    continue
                onto = piles[target]
                if not onto or builds_down_in_suit(card, onto[-1]):
                    moves.append(Move.cards(source, target))
        if piles["stock"]:
            moves.append(Move.act("stock"))
        return moves

    def action_moves(self) -> list[Move]:
        """The action space (docs/notation.md, "Action numbers"): to the foundations, onto the
        columns (one card at a time), then ``stock``."""
        moves = [Move.cards(source, target) for source in AVAILABLE for target in FOUNDATIONS]
        moves += [
            Move.cards(source, target)
            for source in (*TABLEAU, "waste")
            for target in TABLEAU
            if target != source
        ]
        moves.append(Move.act("stock"))
        return moves

    # -- applying a move -----------------------------------------------------------------------

    def apply(self, state: NapoleonState, move: Move) -> tuple[NapoleonState, list[Move]]:
        if move.is_action:
            self._check_action(state, move)
        else:
            source = check_pile_name(move.source, self.pile_names, self.name)
            target = check_pile_name(move.target, self.pile_names, self.name)
            self._check_card_move(state, move, source, target)
        return self.perform(state, move)

    def perform(self, state: NapoleonState, move: Move) -> tuple[NapoleonState, list[Move]]:
        after = state.copy()
        if move.is_action:
            turn_stock(after, 1)
        else:
            after.piles[str(move.target)].append(after.piles[str(move.source)].pop())
        return after, send_aces_up(after)

    def _check_action(self, state: NapoleonState, move: Move) -> None:
        if move.action == "recycle":
            raise IllegalMove(
                move, "one pass through the stock only: the waste is never turned over (no redeal)"
            )
        if move.action not in ACTIONS:
            raise unknown_action(self.name, move, ACTIONS)
        if move.args:
            raise IllegalMove(move, f"{move.action} takes no arguments")
        if not state.piles["stock"]:
            raise IllegalMove(
                move, "the stock is empty, and there is one pass only: the waste is not turned over"
            )

    def _check_card_move(self, state: NapoleonState, move: Move, source: str, target: str) -> None:
        piles = state.piles
        if source == "stock":
            raise IllegalMove(move, "stock cards are turned onto the waste with the move stock")
        if source in FOUNDATIONS:
            raise IllegalMove(move, "cards do not come back from the foundations")
        if target in ("stock", "waste"):
            raise IllegalMove(move, f"no card may be put on the {target}")
        if source == target:
            raise IllegalMove(move, "a card move needs two different piles")
        if move.count != 1:
            raise IllegalMove(
                move, f"only the top card of the {source} moves, one card at a time (no groups)"
            )
        if not piles[source]:
            raise IllegalMove(move, f"{source} is empty")
        card = piles[source][-1]
        if target in FOUNDATIONS:
            if not fits_foundation_up(card, piles[target]):
                raise IllegalMove(
                    move,
                    f"{card} cannot go on {target}: it takes {foundation_wants(piles[target])} "
                    "(foundations build up in suit from the ace)",
                )
            return
        if not piles[target]:
            return  # any single card may fill a space
        onto = piles[target][-1]
        if builds_down_in_suit(card, onto):
            return
        if card.rank == Rank.KING and onto.rank == Rank.ACE:
            reason = "a king may not go on an ace (no building round the corner)"
        elif card.rank == Rank.KING:
            reason = "a king goes only to a space or a foundation"
        else:
            wanted = f"{Rank(card.rank + 1).letter}{card.suit.letter}"
            reason = f"it goes only on a {wanted} (columns build down in suit) or in a space"
        raise IllegalMove(move, f"{card} cannot go on {onto}: {reason}")

    # -- the end -------------------------------------------------------------------------------

    def finished(self, state: NapoleonState) -> Outcome | None:
        if all(len(state.piles[name]) == 13 for name in FOUNDATIONS):
            return Outcome(Result.WON, "all 104 cards are on the foundations")
        return None

    # -- positions -------------------------------------------------------------------------------

    def extra_json(self, state: NapoleonState) -> JSON:
        # The piles say everything: one pass, so the stock's size tells how far it has gone.
        return {}

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> NapoleonState:
        total = sum(len(cards) for cards in piles.values())
        if total != 104:
            raise PositionError(f"a napoleon position holds all 104 cards (two packs), not {total}")
        if down["stock"] != len(piles["stock"]):
            raise PositionError("the stock lies face down: list its cards under 'down'")
        for name in ("waste", *FOUNDATIONS, *TABLEAU):
            if down[name]:
                raise PositionError(f"every card of {name} lies face up: list them under 'up'")
        for name in FOUNDATIONS:
            built: list[Card] = []
            for card in piles[name]:
                if not fits_foundation_up(card, built):
                    raise PositionError(f"{name} is not built up in suit from the ace")
                built.append(card)
        for earlier, later in pairwise(FOUNDATIONS):
            if not piles[earlier] and piles[later]:
                raise PositionError(
                    f"{earlier} is empty but {later} is not: each ace goes to the first empty "
                    "foundation"
                )
        if any(card.rank == Rank.ACE for card in piles["waste"]):
            raise PositionError("an ace in the waste would have gone to a foundation when turned")
        for name in TABLEAU:
            for depth, card in enumerate(piles[name]):
                if card.rank != Rank.ACE:
                    continue
                if depth >= ROWS:
                    raise PositionError(
                        f"an ace lies on {name} above its four dealt cards: aces never go onto "
                        "a column"
                    )
                if depth == len(piles[name]) - 1:
                    raise PositionError(
                        f"the ace on top of {name} would already have gone to a foundation"
                    )
        return NapoleonState(piles=piles, down=down)
