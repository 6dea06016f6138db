"""Klondike: every rule of RULES.md's Klondike in one place (docs/rules/klondike.md).

Piles: ``stock``, ``waste``, foundations ``f1``-``f4``, tableau ``t1``-``t7``.
Moves: card moves between them, ``stock`` (turn cards onto the waste) and ``recycle`` (turn the
empty stock's waste over as the new stock). Forced: ``flip(pile=..,card=..)`` when a face-down
card is left on top of a tableau pile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, packs
from ..deals import Shuffler
from ..engine import JSON, IllegalMove, Outcome, PositionError, Result, State
from ..moves import Move, register_action
from ..options import UNLIMITED, Option
from .common import (
    PileMoveRules,
    alternating_run_length,
    check_alternating_run,
    check_klondike_target,
    check_recycle,
    fits_foundation_up,
    fitting_run_count,
    numbered,
    recycle_waste,
    stock_move,
    turn_stock,
    unknown_action,
)

FOUNDATIONS = numbered("f", 4)
TABLEAU = numbered("t", 7)
ACTIONS = ("stock", "recycle")
register_action(*ACTIONS, "flip")


@dataclass
class KlondikeState(State):
    """Klondike's piles and how many times the waste has been turned over (``redeals``)."""

    redeals: int = 0


def deal_layout(cards: list[Card], state_piles: dict[str, list[Card]]) -> dict[str, int]:
    """Deal a Klondike layout from ``cards`` (top card first) into the tableau piles ``t1``..
    ``t7`` of ``state_piles``, row by row, and return the face-down counts. The cards used are
    removed from the front of ``cards``. Double Solitaire deals each player's layout this way.
    """
    down: dict[str, int] = {}
    for row in range(7):
        for column in range(row, 7):
            state_piles[TABLEAU[column]].append(cards.pop(0))
    for column, name in enumerate(TABLEAU):
        down[name] = column
    return down


class Klondike(PileMoveRules[KlondikeState]):
    """Klondike (RULES.md): seven piles, four foundations, a stock turned one or three at a time."""

    replay_tracks_cards = True

    def lasting_marks(self, state: KlondikeState) -> tuple[int, ...]:
        """Cards of the stock and waste (they leave it, never come back) and the face-down
        cards of each tableau pile (only ever turned up)."""
        talon = len(state.piles["stock"]) + len(state.piles["waste"])
        return (talon, *(state.down[name] for name in TABLEAU))

    name = "klondike"
    title = "Klondike"
    summary = "Seven piles built down in alternating colours; free the aces and build up by suit."
    option_specs = (
        Option("draw", "choice", 3, "cards turned from the stock at a time", (1, 3)),
        Option("passes", "passes", UNLIMITED, "passes through the stock"),
        Option(
            "from_foundation", "bool", True, "cards may come back from a foundation to the tableau"
        ),
    )
    pile_names = ("stock", "waste", *FOUNDATIONS, *TABLEAU)

    @property
    def draw(self) -> int:
        """Cards turned from the stock at a time."""
        return int(self.options["draw"])

    def passes_left(self, state: KlondikeState) -> bool:
        """True if the waste may still be turned over for another pass."""
        passes = self.options["passes"]
        return passes == UNLIMITED or state.redeals + 1 < int(passes)

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, deal: int) -> KlondikeState:
        cards = Shuffler(deal).shuffle(packs(1))
        piles: dict[str, list[Card]] = {name: [] for name in self.pile_names}
        down = dict.fromkeys(self.pile_names, 0)
        down.update(deal_layout(cards, piles))
        # The next card of the pack is the stock's top card: the first one turned.
        piles["stock"] = cards[::-1]
        down["stock"] = len(cards)
        return KlondikeState(piles=piles, down=down)

    # -- legal moves -------------------------------------------------------------------------

    def candidate_moves(self, state: KlondikeState) -> list[Move]:
        moves: list[Move] = []
        piles = state.piles
        sources = ["waste", *TABLEAU]
        # To the foundations first: one card at a time.
        for source in sources:
            if state.up_count(source):
                card = piles[source][-1]
                for target in FOUNDATIONS:
                    if fits_foundation_up(card, piles[target]):
                        moves.append(Move.cards(source, target))
        # Between tableau piles: the part of a run whose bottom card fits the target.
        for source in TABLEAU:
            run = alternating_run_length(state.face_up(source))
            for target in TABLEAU:
                if target == source:
                    continue
                count = self._fitting_count(piles[source], run, piles[target])
                if count:
                    moves.append(Move.cards(source, target, count))
        # The waste's top card, and foundation cards coming back, onto the tableau.
        extra_sources = ["waste"]
        if self.options["from_foundation"]:
            extra_sources += FOUNDATIONS
        for source in extra_sources:
            if piles[source]:
                for target in TABLEAU:
                    if self._fitting_count(piles[source], 1, piles[target]):
                        moves.append(Move.cards(source, target))
        stock = stock_move(state, self.passes_left(state))
        if stock is not None:
            moves.append(stock)
        return moves

    def is_candidate(self, state: KlondikeState, move: Move) -> bool:
        # The one move asked about, by the tests of candidate_moves (a replay of a solver's
        # win of a few hundred moves asks this at every move).
        if move.is_action:
            return move == stock_move(state, self.passes_left(state))
        piles = state.piles
        source, target = str(move.source), str(move.target)
        if target in FOUNDATIONS:
            return (
                (source == "waste" or source in TABLEAU)
                and state.up_count(source) > 0
                and fits_foundation_up(piles[source][-1], piles[target])
                and move == Move.cards(source, target)
            )
        if target not in TABLEAU or source == target:
            return False
        if source in TABLEAU:
            run = alternating_run_length(state.face_up(source))
            count = self._fitting_count(piles[source], run, piles[target])
            return count > 0 and move == Move.cards(source, target, count)
        from_foundation = bool(self.options["from_foundation"]) and source in FOUNDATIONS
        return (
            (source == "waste" or from_foundation)
            and bool(piles[source])
            and self._fitting_count(piles[source], 1, piles[target]) > 0
            and move == Move.cards(source, target)
        )

    @staticmethod
    def _fitting_count(source: list[Card], run: int, target: list[Card]) -> int:
        """How many of the top ``run`` cards of ``source`` move onto ``target`` (0: none)."""
        return fitting_run_count(source, run, target)

    def action_moves(self) -> list[Move]:
        """The action space (docs/notation.md, "Action numbers"): to the foundations, between
        tableau piles by count, onto the tableau from the waste (and the foundations), then
        ``stock`` and ``recycle``."""
        moves = [
            Move.cards(source, target) for source in ("waste", *TABLEAU) for target in FOUNDATIONS
        ]
        moves += [
            Move.cards(source, target, count)
            for source in TABLEAU
            for target in TABLEAU
            if target != source
            for count in range(1, 14)
        ]
        extra_sources = ["waste"]
        if self.options["from_foundation"]:
            extra_sources += FOUNDATIONS
        moves += [Move.cards(source, target) for source in extra_sources for target in TABLEAU]
        moves.append(Move.act("stock"))
        if self.options["passes"] != 1:
            moves.append(Move.act("recycle"))
        return moves

    # -- applying a move -----------------------------------------------------------------------

    def perform(self, state: KlondikeState, move: Move) -> tuple[KlondikeState, list[Move]]:
        if move.is_action:
            return self._apply_action(state, move)
        source, target = str(move.source), str(move.target)
        after = state.copy()
        after.piles[target].extend(after.take(source, move.count))
        forced = []
        if source in TABLEAU:
            flip = after.turn_up_top(source)
            if flip is not None:
                forced.append(flip)
        return after, forced

    def _apply_action(self, state: KlondikeState, move: Move) -> tuple[KlondikeState, list[Move]]:
        if move.action not in ACTIONS:
            raise unknown_action(self.name, move, ACTIONS)
        if move.args:
            raise IllegalMove(move, f"{move.action} takes no arguments")
        after = state.copy()
        if move.action == "stock":
            if not state.piles["stock"]:
                hint = (
                    "turn the waste over with recycle"
                    if state.piles["waste"] and self.passes_left(state)
                    else "no pass through it is left"
                )
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
        return after, []

    def _check_card_move(self, state: KlondikeState, move: Move, source: str, target: str) -> None:
        piles = state.piles
        if source == "stock":
            raise IllegalMove(move, "stock cards are turned onto the waste with the move stock")
        if target in ("stock", "waste"):
            raise IllegalMove(move, f"no card may be put on the {target}")
        if source == target:
            raise IllegalMove(move, "a card move needs two different piles")
        if not piles[source]:
            raise IllegalMove(move, f"{source} is empty")
        if source in FOUNDATIONS:
            if not self.options["from_foundation"]:
                raise IllegalMove(
                    move, "cards may not come back from a foundation (from_foundation=off)"
                )
            if target in FOUNDATIONS:
                raise IllegalMove(move, "a card moves from a foundation only to the tableau")
        if source in TABLEAU:
            check_alternating_run(state, move, source)
        elif move.count != 1:
            raise IllegalMove(move, f"only the top card of the {source} can move")
        card = piles[source][-move.count]
        check_klondike_target(move, card, target, piles[target], target in FOUNDATIONS)

    # -- the end -------------------------------------------------------------------------------

    def finished(self, state: KlondikeState) -> Outcome | None:
        if all(len(state.piles[name]) == 13 for name in FOUNDATIONS):
            return Outcome(Result.WON, "all 52 cards are on the foundations")
        return None

    # -- positions -------------------------------------------------------------------------------

    def extra_json(self, state: KlondikeState) -> JSON:
        return {"redeals": state.redeals}

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> KlondikeState:
        total = sum(len(cards) for cards in piles.values())
        if total != 52:
            raise PositionError(f"a klondike position holds all 52 cards once, not {total}")
        if down["stock"] != len(piles["stock"]):
            raise PositionError("the stock lies face down: list its cards under 'down'")
        for name in ("waste", *FOUNDATIONS):
            if down[name]:
                raise PositionError(f"the {name} pile lies face up: list its cards under 'up'")
        for name in FOUNDATIONS:
            built: list[Card] = []
            for card in piles[name]:
                if not fits_foundation_up(card, built):
                    raise PositionError(f"{name} is not built up in suit from the ace")
                built.append(card)
        for name in TABLEAU:
            up = piles[name][down[name] :]
            if alternating_run_length(up) != len(up):
                raise PositionError(f"the face-up cards of {name} do not form a built run")
            if piles[name] and not up:
                raise PositionError(f"the top card of {name} must be face up")
        redeals = data.get("redeals", 0)
        if isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0:
            raise PositionError("'redeals' must be a whole number of 0 or more")
        passes = self.options["passes"]
        if passes != UNLIMITED and redeals >= int(passes):
            raise PositionError(f"redeals={redeals} is more than passes={passes} allow")
        return KlondikeState(piles=piles, down=down, redeals=redeals)
