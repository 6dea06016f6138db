"""Canfield: every rule of RULES.md's Canfield in one place (docs/rules/canfield.md).

Piles: ``stock``, ``waste``, the squared ``reserve``, foundations ``f1``-``f4`` (``f1`` holds the
dealt base card) and tableau ``t1``-``t4``. Moves: card moves between them, ``stock`` (turn cards
onto the waste) and ``recycle`` (turn the empty stock's waste over as the new stock).

Forced moves, made after every player move (and by :meth:`Canfield.deal` after the deal): a
base-rank card that becomes available goes up to the first empty foundation (``t2-f3``,
``reserve-f2``, ``waste-f4``); a space is filled from the reserve while it has cards
(``reserve-t1``). Base-rank cards go first, then one space is filled, leftmost first, and so on
until nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import IS_RED, RANK_OF, SUIT_OF, Card, Rank, packs
from ..deals import Shuffler
from ..engine import JSON, IllegalMove, Observer, Outcome, PositionError, Result, State
from ..moves import Move, register_action
from ..options import UNLIMITED, Option
from .common import (
    PileMoveRules,
    check_recycle,
    numbered,
    recycle_waste,
    stock_move,
    turn_stock,
    unknown_action,
)

FOUNDATIONS = numbered("f", 4)
TABLEAU = numbered("t", 4)
ACTIONS = ("stock", "recycle")
register_action(*ACTIONS)

RESERVE_SIZE = 13
#: Cards 19-52 of the deal: the stock and the waste never hold more.
STOCK_SIZE = 52 - RESERVE_SIZE - 1 - len(TABLEAU)

#: Where a card may be available to go up as a base card, in the order the forced moves look.
AVAILABLE_SOURCES = ("reserve", *TABLEAU, "waste")
#: The piles whose top card may go to a foundation.
FOUNDATION_SOURCES = ("reserve", "waste", *TABLEAU)

MOVE_PILE, MOVE_TOP, MOVE_BOTH = "pile", "top", "both"
SPACES_STOCK_OR_WASTE, SPACES_WASTE = "stock-or-waste", "waste"


@dataclass
class CanfieldState(State):
    """Canfield's piles and how many times the waste has been turned over (``redeals``)."""

    redeals: int = 0


def next_rank(rank: int) -> int:
    """The rank one above ``rank``, round the corner (the king is followed by the ace)."""
    return rank % 13 + 1


def builds_down_round(card: Card, onto: Card) -> bool:
    """True if ``card`` goes on ``onto`` in Canfield's tableau: one rank lower, the other colour,
    round the corner (a king on an ace)."""
    return RANK_OF[onto] == next_rank(RANK_OF[card]) and IS_RED[card] != IS_RED[onto]


def built_down_round(cards: Sequence[Card]) -> bool:
    """True if ``cards`` (bottom to top) are built down in alternating colours, round the
    corner."""
    return all(builds_down_round(cards[i + 1], cards[i]) for i in range(len(cards) - 1))


def fits_foundation_round(card: Card, pile: Sequence[Card], base: int) -> bool:
    """True if ``card`` goes on a foundation that starts at rank ``base`` and builds up in suit
    round the corner (base Q: Q K A 2 ... J)."""
    if not pile:
        return RANK_OF[card] == base
    top = pile[-1]
    return (
        len(pile) < 13
        and SUIT_OF[card] == SUIT_OF[top]
        and RANK_OF[card] == next_rank(RANK_OF[top])
    )


def rank_letter(rank: int) -> str:
    """A rank as notation writes it: ``A 2 ... T J Q K``."""
    return Rank(rank).letter


class Canfield(PileMoveRules[CanfieldState]):
    """Canfield (RULES.md): a squared reserve of 13, four tableau piles, foundations from the
    rank of the 14th card, round the corner."""

    replay_tracks_cards = True

    def lasting_marks(self, state: CanfieldState) -> tuple[int, int]:
        """Cards of the stock and waste, and of the reserve: they leave, never come back."""
        talon = len(state.piles["stock"]) + len(state.piles["waste"])
        return (talon, len(state.piles["reserve"]))

    name = "canfield"
    title = "Canfield"
    summary = (
        "A reserve of 13 feeds four piles built down in alternating colours; foundations build "
        "up in suit from the first foundation's rank, round the corner."
    )
    option_specs = (
        Option("draw", "choice", 3, "cards turned from the stock at a time", (1, 3)),
        Option("passes", "passes", UNLIMITED, "passes through the stock"),
        Option(
            "move",
            "choice",
            MOVE_PILE,
            "what moves between tableau piles: the whole pile, the top card, or either",
            (MOVE_PILE, MOVE_TOP, MOVE_BOTH),
        ),
        Option(
            "spaces",
            "choice",
            SPACES_STOCK_OR_WASTE,
            "once the reserve is empty, spaces are filled from the stock or the waste, or the "
            "waste only",
            (SPACES_STOCK_OR_WASTE, SPACES_WASTE),
        ),
    )
    pile_names = ("stock", "waste", "reserve", *FOUNDATIONS, *TABLEAU)

    @property
    def draw(self) -> int:
        """Cards turned from the stock at a time."""
        return int(self.options["draw"])

    def passes_left(self, state: CanfieldState) -> bool:
        """True if the waste may still be turned over for another pass."""
        passes = self.options["passes"]
        return passes == UNLIMITED or state.redeals + 1 < int(passes)

    @staticmethod
    def base_rank(state: CanfieldState) -> int:
        """The base rank: the rank of the first foundation's bottom card (the 14th card)."""
        return RANK_OF[state.piles["f1"][0]]

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, deal: int) -> CanfieldState:
        """Deal as docs/deals.md says; :meth:`opening` then makes the forced moves."""
        cards = Shuffler(deal).shuffle(packs(1))
        piles: dict[str, list[Card]] = {name: [] for name in self.pile_names}
        # Piles list cards bottom to top: card 1 is the reserve's top card, card 19 the stock's.
        piles["reserve"] = cards[:RESERVE_SIZE][::-1]
        piles["f1"] = [cards[RESERVE_SIZE]]
        for offset, name in enumerate(TABLEAU):
            piles[name] = [cards[RESERVE_SIZE + 1 + offset]]
        piles["stock"] = cards[RESERVE_SIZE + 1 + len(TABLEAU) :][::-1]
        down = dict.fromkeys(self.pile_names, 0)
        down["stock"] = len(piles["stock"])
        return CanfieldState(piles=piles, down=down)

    def opening(self, state: CanfieldState) -> tuple[CanfieldState, list[Move]]:
        """The forced moves the layout calls for at once (base-rank cards going up, spaces
        filled from the reserve), in the order they are made; records write them before move 1."""
        after = state.copy()
        return after, self._settle(after)

    # -- forced moves --------------------------------------------------------------------------

    def _settle(self, state: CanfieldState) -> list[Move]:
        """Make the forced moves on ``state`` in place and return them.

        One step at a time: an available base-rank card goes up if there is one (looking at the
        reserve, t1..t4, then the waste); otherwise the leftmost space takes the reserve's top
        card; repeat until neither applies. A base card uncovered on the reserve thus goes up
        before it could fill a space.
        """
        piles = state.piles
        base = self.base_rank(state)
        forced: list[Move] = []
        while True:
            move = self._base_card_up(state, base)
            if move is None and piles["reserve"]:
                for name in TABLEAU:
                    if not piles[name]:
                        piles[name].append(piles["reserve"].pop())
                        move = Move.cards("reserve", name)
                        break
            if move is None:
                return forced
            forced.append(move)

    @staticmethod
    def _base_card_up(state: CanfieldState, base: int) -> Move | None:
        """Put the first available base-rank card on the first empty foundation."""
        piles = state.piles
        for source in AVAILABLE_SOURCES:
            if piles[source] and RANK_OF[piles[source][-1]] == base:
                for target in FOUNDATIONS:
                    if not piles[target]:
                        piles[target].append(piles[source].pop())
                        return Move.cards(source, target)
        return None

    # -- legal moves -------------------------------------------------------------------------

    def candidate_moves(self, state: CanfieldState) -> list[Move]:
        moves: list[Move] = []
        piles = state.piles
        base = self.base_rank(state)
        # To the foundations first: the top card of the reserve, the waste or a tableau pile.
        for source in FOUNDATION_SOURCES:
            if piles[source]:
                card = piles[source][-1]
                for target in FOUNDATIONS:
                    if piles[target] and fits_foundation_round(card, piles[target], base):
                        moves.append(Move.cards(source, target))
        # Between tableau piles, as the option move allows.
        mode = self.options["move"]
        for source in TABLEAU:
            size = len(piles[source])
            if not size:
                continue
            if mode == MOVE_PILE:
                counts = [size]
            elif mode == MOVE_TOP:
                counts = [1]
            else:
                counts = [size, 1] if size > 1 else [1]
            for target in TABLEAU:
                if target == source or not piles[target]:
                    continue
                onto = piles[target][-1]
                for count in counts:
                    if builds_down_round(piles[source][-count], onto):
                        moves.append(Move.cards(source, target, count))
        # The reserve's and the waste's top cards onto the tableau.
        for source in ("reserve", "waste"):
            if piles[source]:
                card = piles[source][-1]
                for target in TABLEAU:
                    if piles[target] and builds_down_round(card, piles[target][-1]):
                        moves.append(Move.cards(source, target))
        # Spaces, once the reserve is empty: from the waste, or the stock's top card.
        if not piles["reserve"]:
            space_sources = ["waste"]
            if self.options["spaces"] == SPACES_STOCK_OR_WASTE:
                space_sources.append("stock")
            for source in space_sources:
                if piles[source]:
                    for target in TABLEAU:
                        if not piles[target]:
                            moves.append(Move.cards(source, target))
        stock = stock_move(state, self.passes_left(state))
        if stock is not None:
            moves.append(stock)
        return moves

    def is_candidate(self, state: CanfieldState, move: Move) -> bool:
        # The one move asked about, by the tests of candidate_moves (a replay of a solver's
        # win asks this at every move).
        piles = state.piles
        if move.is_action:
            return move == stock_move(state, self.passes_left(state))
        source, target = str(move.source), str(move.target)
        if source not in piles or target not in piles or not piles[source]:
            return False
        card = piles[source][-1]
        if target in FOUNDATIONS:
            return (
                source in FOUNDATION_SOURCES
                and bool(piles[target])
                and fits_foundation_round(card, piles[target], self.base_rank(state))
                and move == Move.cards(source, target)
            )
        if target not in TABLEAU or target == source:
            return False
        if not piles[target]:
            # A space, once the reserve is empty: from the waste, or the stock's top card.
            space_sources = ["waste"]
            if self.options["spaces"] == SPACES_STOCK_OR_WASTE:
                space_sources.append("stock")
            return (
                not piles["reserve"]
                and source in space_sources
                and move == Move.cards(source, target)
            )
        onto = piles[target][-1]
        if source in TABLEAU:
            size = len(piles[source])
            mode = self.options["move"]
            counts = [size] if mode == MOVE_PILE else [1] if mode == MOVE_TOP else [size, 1]
            return (
                move.count in counts
                and builds_down_round(piles[source][-move.count], onto)
                and move == Move.cards(source, target, move.count)
            )
        return (
            source in ("reserve", "waste")
            and builds_down_round(card, onto)
            and move == Move.cards(source, target)
        )

    def action_moves(self) -> list[Move]:
        """The action space (docs/notation.md, "Action numbers"): to the foundations, between
        tableau piles by count (as the option ``move`` allows; a pile may grow past 13 cards
        round the corner, so counts go to 52), from the reserve and the waste (and the stock,
        as the option ``spaces`` allows) onto the tableau, then ``stock`` and ``recycle``."""
        moves = [
            Move.cards(source, target)
            for source in ("reserve", "waste", *TABLEAU)
            for target in FOUNDATIONS
        ]
        counts = range(1, 2) if self.options["move"] == MOVE_TOP else range(1, 53)
        moves += [
            Move.cards(source, target, count)
            for source in TABLEAU
            for target in TABLEAU
            if target != source
            for count in counts
        ]
        sources = ["reserve", "waste"]
        if self.options["spaces"] == SPACES_STOCK_OR_WASTE:
            sources.append("stock")
        moves += [Move.cards(source, target) for source in sources for target in TABLEAU]
        moves.append(Move.act("stock"))
        if self.options["passes"] != 1:
            moves.append(Move.act("recycle"))
        return moves

    # -- applying a move -----------------------------------------------------------------------

    def perform(self, state: CanfieldState, move: Move) -> tuple[CanfieldState, list[Move]]:
        if move.is_action:
            return self._apply_action(state, move)
        source, target = str(move.source), str(move.target)
        after = state.copy()
        # State.take keeps the stock's face-down count right when its top card fills a space.
        after.piles[target].extend(after.take(source, move.count))
        return after, self._settle(after)

    def _apply_action(self, state: CanfieldState, move: Move) -> tuple[CanfieldState, list[Move]]:
        if move.action not in ACTIONS:
            raise unknown_action(self.name, move, ACTIONS)
        if move.args:
            raise IllegalMove(move, f"{move.action} takes no arguments")
        after = state.copy()
        if move.action == "stock":
            if not state.piles["stock"]:
                if not state.piles["waste"]:
                    hint = "and so is the waste"
                elif self.passes_left(state):
                    hint = "turn the waste over with recycle"
                else:
                    hint = f"no pass through it is left (passes={self.options['passes']})"
                raise IllegalMove(
                    move,
                    f"the stock is empty: {hint}",
                    instead=Move.act("recycle") if "recycle" in hint else None,
                    fact="the stock is empty",
                )
            turn_stock(after, self.draw)
        else:
            check_recycle(state, move, self.passes_left(state), self.options["passes"])
            recycle_waste(after)
            after.redeals += 1
        return after, self._settle(after)

    def _check_card_move(self, state: CanfieldState, move: Move, source: str, target: str) -> None:
        piles = state.piles
        if source in FOUNDATIONS:
            raise IllegalMove(move, "cards do not come back from a foundation")
        if target in ("stock", "waste", "reserve"):
            raise IllegalMove(move, f"no card may be put on the {target}")
        if source == target:
            raise IllegalMove(move, "a card move needs two different piles")
        if not piles[source]:
            raise IllegalMove(move, f"{source} is empty")
        if target in FOUNDATIONS:
            self._check_to_foundation(state, move, source, target)
        elif not piles[target]:
            self._check_to_space(state, move, source, target)
        else:
            self._check_to_tableau(state, move, source, target)

    def _check_to_foundation(
        self, state: CanfieldState, move: Move, source: str, target: str
    ) -> None:
        piles = state.piles
        base = self.base_rank(state)
        if source == "stock":
            raise IllegalMove(move, "stock cards are turned onto the waste with the move stock")
        if move.count != 1:
            raise IllegalMove(move, "cards go to a foundation one at a time, the top card only")
        card = piles[source][-1]
        pile = piles[target]
        if not pile:
            raise IllegalMove(
                move,
                f"{target} is empty: it takes only a base-rank card ({rank_letter(base)}), "
                "and those go up by themselves",
            )
        if not fits_foundation_round(card, pile, base):
            if len(pile) == 13:
                wants = "nothing (it is complete)"
            else:
                wants = f"the {rank_letter(next_rank(RANK_OF[pile[-1]]))}{pile[-1].suit.letter}"
            raise IllegalMove(
                move,
                f"{card} cannot go on {target}: it takes {wants} (foundations build up in suit "
                f"from the base rank {rank_letter(base)}, round the corner)",
            )

    def _check_to_space(self, state: CanfieldState, move: Move, source: str, target: str) -> None:
        piles = state.piles
        if piles["reserve"]:
            raise IllegalMove(
                move, f"{target} is a space: spaces are filled from the reserve by themselves"
            )
        if source in TABLEAU:
            raise IllegalMove(
                move,
                "tableau cards do not move into spaces: a space is filled from the "
                + ("waste or the stock" if self._stock_fills_spaces() else "waste"),
            )
        if source == "stock" and not self._stock_fills_spaces():
            raise IllegalMove(move, "only the waste's top card may fill a space (spaces=waste)")
        if move.count != 1:
            raise IllegalMove(move, f"a space takes one card: the top card of the {source}")

    def _check_to_tableau(self, state: CanfieldState, move: Move, source: str, target: str) -> None:
        piles = state.piles
        if source == "stock":
            hint = " (once the reserve is empty)" if piles["reserve"] else ""
            raise IllegalMove(
                move,
                "the stock's top card may only fill a space"
                + (hint if self._stock_fills_spaces() else " with spaces=stock-or-waste")
                + "; turn stock cards onto the waste with the move stock",
            )
        if source in TABLEAU:
            size = len(piles[source])
            mode = self.options["move"]
            allowed = {
                MOVE_PILE: {size},
                MOVE_TOP: {1},
                MOVE_BOTH: {1, size},
            }[str(mode)]
            if move.count not in allowed:
                what = {
                    MOVE_PILE: f"only a whole pile moves onto another pile (move=pile): "
                    f"{source} has {size} card(s), write {source}-{target}"
                    + (f":{size}" if size != 1 else ""),
                    MOVE_TOP: "only the top card moves onto another pile (move=top)",
                    MOVE_BOTH: f"a whole pile ({size} card(s)) or the top card moves onto "
                    "another pile (move=both)",
                }[str(mode)]
                raise IllegalMove(move, what)
        elif move.count != 1:
            raise IllegalMove(move, f"only the top card of the {source} can move")
        card = piles[source][-move.count]
        onto = piles[target][-1]
        if not builds_down_round(card, onto):
            raise IllegalMove(
                move,
                f"{card} cannot go on {onto}: the tableau builds down in alternating colours "
                "(a king goes on an ace)",
            )

    def _stock_fills_spaces(self) -> bool:
        return self.options["spaces"] == SPACES_STOCK_OR_WASTE

    # -- the end -------------------------------------------------------------------------------

    def finished(self, state: CanfieldState) -> Outcome | None:
        if all(len(state.piles[name]) == 13 for name in FOUNDATIONS):
            return Outcome(Result.WON, "all 52 cards are on the foundations")
        return None

    # -- views and positions ---------------------------------------------------------------------

    def view_piles(self, state: CanfieldState, observer: Observer) -> dict[str, JSON]:
        """The default view, but the squared reserve shows only its top card: the cards under it
        are ``null`` (they lie face up, so they stay in ``up``), which keeps its count visible."""
        piles = super().view_piles(state, observer)
        reserve = state.piles["reserve"]
        piles["reserve"] = {
            "down": [],
            "up": [None] * (len(reserve) - 1) + [str(reserve[-1])] if reserve else [],
        }
        return piles

    def extra_json(self, state: CanfieldState) -> JSON:
        return {"redeals": state.redeals}

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> CanfieldState:
        total = sum(len(cards) for cards in piles.values())
        if total != 52:
            raise PositionError(f"a canfield position holds all 52 cards once, not {total}")
        if down["stock"] != len(piles["stock"]):
            raise PositionError("the stock lies face down: list its cards under 'down'")
        for name in self.pile_names:
            if name != "stock" and down[name]:
                raise PositionError(f"the {name} pile lies face up: list its cards under 'up'")
        if len(piles["reserve"]) > RESERVE_SIZE:
            raise PositionError(f"the reserve holds at most {RESERVE_SIZE} cards")
        if len(piles["stock"]) + len(piles["waste"]) > STOCK_SIZE:
            raise PositionError(f"the stock and the waste hold at most {STOCK_SIZE} cards together")
        if not piles["f1"]:
            raise PositionError("f1 holds the dealt base card, so it is never empty")
        base = RANK_OF[piles["f1"][0]]
        seen_empty = False
        for name in FOUNDATIONS:
            if not piles[name]:
                seen_empty = True
                continue
            if seen_empty:
                raise PositionError(
                    f"{name} is used while a foundation left of it is empty: base cards go up "
                    "to the first empty foundation"
                )
            built: list[Card] = []
            for card in piles[name]:
                if not fits_foundation_round(card, built, base):
                    raise PositionError(
                        f"{name} is not built up in suit round the corner from the base rank "
                        f"{rank_letter(base)}"
                    )
                built.append(card)
        for name in TABLEAU:
            if not built_down_round(piles[name]):
                raise PositionError(
                    f"{name} is not built down in alternating colours (round the corner)"
                )
            for card in piles[name]:
                if RANK_OF[card] == base:
                    raise PositionError(
                        f"{card} is in {name}, but base-rank cards go up to the foundations at once"
                    )
            if not piles[name] and piles["reserve"]:
                raise PositionError(
                    f"{name} is empty while the reserve has cards: the reserve fills it at once"
                )
        for name in ("reserve", "waste"):
            if piles[name] and RANK_OF[piles[name][-1]] == base:
                raise PositionError(
                    f"{piles[name][-1]} is on top of the {name}, but base-rank cards go up to "
                    "the foundations at once"
                )
        redeals = data.get("redeals", 0)
        if isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0:
            raise PositionError("'redeals' must be a whole number of 0 or more")
        passes = self.options["passes"]
        if passes != UNLIMITED and redeals >= int(passes):
            raise PositionError(f"redeals={redeals} is more than passes={passes} allow")
        return CanfieldState(piles=piles, down=down, redeals=redeals)
