"""Accordion: every rule of RULES.md's Accordion in one place (docs/rules/accordion.md).

Piles: ``stock`` (the undealt cards, face down) and the row ``t1``..``t52``, left to right. Gaps
close at once, so the row is always ``t1``..``tN`` with no empty pile among them.
Moves: ``tK-tJ:COUNT``, a whole pile onto the pile immediately to its left (``J = K - 1``) or the
third pile to its left (``J = K - 3``) when the two top cards match in rank or in suit, and the
action ``deal`` (option ``dealing=one``), which deals the next card to the right end of the row.
There are no forced moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import RANK_OF, SUIT_OF, Card, packs
from ..deals import Shuffler
from ..engine import JSON, IllegalMove, Outcome, PositionError, Result, Rules, State
from ..moves import Move, register_action
from ..options import Option
from .common import check_pile_name, numbered, unknown_action

ROW = numbered("t", 52)
ACTIONS = ("deal",)
register_action(*ACTIONS)

#: How far to the left a pile may move: onto its neighbour or onto the third pile to its left.
REACHES = (1, 3)
#: Each pile's place in the row, from 1.
PLACE_IN_ROW = {name: place for place, name in enumerate(ROW, start=1)}
#: A game ending with this many piles or fewer is the traditional "moral" win (RULES.md).
MORAL_WIN_PILES = 5


def matches(card: Card, onto: Card) -> bool:
    """True if two top cards match in rank or in suit, so one pile may go on the other."""
    return RANK_OF[card] == RANK_OF[onto] or SUIT_OF[card] == SUIT_OF[onto]


def row_length(state: State) -> int:
    """How many piles the row holds: ``t1``..``tN`` are filled and every later one is empty."""
    piles = state.piles
    count = 0
    for name in ROW:
        if not piles[name]:
            break
        count += 1
    return count


def can_be_built(cards: Sequence[Card]) -> bool:
    """True if a pile could have been built by putting piles on piles with matching top cards.

    A pile of more than one card is some pile put on top of another whose top card matched its
    own: so it splits into a lower and an upper part, each buildable, with the lower part's top
    matching the whole pile's top. Checked for every stretch of the pile, shortest first.
    """
    size = len(cards)
    # built[i][j]: cards i..j (inclusive) can form a pile by themselves.
    built = [[i == j for j in range(size)] for i in range(size)]
    for length in range(2, size + 1):
        for low in range(size - length + 1):
            high = low + length - 1
            top = cards[high]
            built[low][high] = any(
                built[low][split] and built[split + 1][high] and matches(top, cards[split])
                for split in range(low, high)
            )
    return size == 0 or built[0][size - 1]


def pile_index(name: str) -> int:
    """The place of row pile ``tK`` in the row, counting from 1 (``K``)."""
    return int(name[1:])


class Accordion(Rules[State]):
    """Accordion (RULES.md): one pack dealt into a row; piles move onto the pile next to them or
    the third one to their left when the top cards match in rank or suit."""

    name = "accordion"
    title = "Accordion"
    summary = (
        "Deal a row; move a pile onto its neighbour or the third pile to its left when the top "
        "cards match in rank or suit, until one pile is left."
    )
    option_specs = (
        Option(
            "dealing",
            "choice",
            "one",
            "one: the player deals the cards one at a time; all: all 52 are dealt at the start",
            ("one", "all"),
        ),
    )
    pile_names = ("stock", *ROW)

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, deal: int) -> State:
        cards = Shuffler(deal).shuffle(packs(1))
        piles: dict[str, list[Card]] = {name: [] for name in self.pile_names}
        # Card 1 of the shuffled pack is dealt first, at the left end of the row. With
        # dealing=one it is dealt at once: before it there is nothing to choose.
        dealt = 52 if self.options["dealing"] == "all" else 1
        for name, card in zip(ROW, cards[:dealt], strict=False):
            piles[name].append(card)
        # The stock lists its cards bottom to top, so the next card to deal is the last one.
        piles["stock"] = cards[dealt:][::-1]
        down = dict.fromkeys(self.pile_names, 0)
        down["stock"] = len(piles["stock"])
        return State(piles=piles, down=down)

    # -- legal moves -------------------------------------------------------------------------

    def candidate_moves(self, state: State) -> list[Move]:
        moves: list[Move] = []
        piles = state.piles
        length = row_length(state)
        # Left to right by the moving pile; for each, the neighbour before the third pile.
        for index in range(2, length + 1):
            source = piles[ROW[index - 1]]
            top = source[-1]
            for reach in REACHES:
                if index - reach >= 1 and matches(top, piles[ROW[index - reach - 1]][-1]):
                    moves.append(Move.cards(ROW[index - 1], ROW[index - reach - 1], len(source)))
        if piles["stock"]:
            moves.append(Move.act("deal"))
        return moves

    def is_candidate(self, state: State, move: Move) -> bool:
        # The one move asked about, by the tests of candidate_moves (a replay of a solver's
        # win asks this at every move).
        piles = state.piles
        if move.is_action:
            return bool(piles["stock"]) and move == Move.act("deal")
        source = PLACE_IN_ROW.get(str(move.source), 0)
        target = PLACE_IN_ROW.get(str(move.target), 0)
        if source - target not in REACHES or target < 1 or source > row_length(state):
            return False
        cards = piles[ROW[source - 1]]
        return matches(cards[-1], piles[ROW[target - 1]][-1]) and move == Move.cards(
            ROW[source - 1], ROW[target - 1], len(cards)
        )

    def action_moves(self) -> list[Move]:
        """The action space (docs/notation.md, "Action numbers"): pile ``tN`` onto its
        neighbour, then onto the third pile to its left, for N = 2..52, then ``deal``. A pile
        moves whole, so the count is left out of the numbering (listed as 1): the state
        gives it (:meth:`move_from_template`)."""
        moves = [
            Move.cards(ROW[index - 1], ROW[index - reach - 1])
            for index in range(2, len(ROW) + 1)
            for reach in REACHES
            if index - reach >= 1
        ]
        moves.append(Move.act("deal"))
        return moves

    def action_template(self, state: State, move: Move) -> Move:
        """A pile move with its count left out; the count must be the whole pile."""
        if move.is_action or move.source not in state.piles:
            return move
        size = len(state.piles[str(move.source)])
        if move.count != max(size, 1):
            raise IllegalMove(move, f"a pile moves whole: {move.source} holds {size} card(s)")
        return Move.cards(str(move.source), str(move.target))

    def move_from_template(self, state: State, template: Move) -> Move:
        """The pile move with the count of the whole pile."""
        if template.is_action:
            return template
        size = len(state.piles[str(template.source)])
        return Move.cards(str(template.source), str(template.target), max(size, 1))

    # -- applying a move -----------------------------------------------------------------------

    def apply(self, state: State, move: Move) -> tuple[State, list[Move]]:
        if move.is_action:
            self._check_action(state, move)
        else:
            self._check_pile_move(state, move)
        return self.perform(state, move)

    def perform(self, state: State, move: Move) -> tuple[State, list[Move]]:
        after = state.copy()
        piles = after.piles
        length = row_length(state)
        if move.is_action:
            piles[ROW[length]] = [piles["stock"].pop()]
            after.down["stock"] = len(piles["stock"])
            return after, []
        source = pile_index(str(move.source))
        piles[str(move.target)].extend(piles[ROW[source - 1]])
        # The gap closes at once: every pile to the right of it moves one place left.
        for index in range(source, length):
            piles[ROW[index - 1]] = piles[ROW[index]]
        piles[ROW[length - 1]] = []
        return after, []

    def _check_action(self, state: State, move: Move) -> None:
        if move.action not in ACTIONS:
            raise unknown_action(self.name, move, ACTIONS)
        if move.args:
            raise IllegalMove(move, f"{move.action} takes no arguments")
        if not state.piles["stock"]:
            if self.options["dealing"] == "all":
                raise IllegalMove(move, "all 52 cards were dealt at the start (dealing=all)")
            raise IllegalMove(move, "the stock is empty: every card has been dealt")

    def _check_pile_move(self, state: State, move: Move) -> None:
        source = check_pile_name(move.source, self.pile_names, self.name)
        target = check_pile_name(move.target, self.pile_names, self.name)
        if source == "stock":
            raise IllegalMove(
                move, "cards leave the stock only one at a time, with the action deal"
            )
        if target == "stock":
            raise IllegalMove(move, "no card may be put back on the stock")
        piles = state.piles
        length = row_length(state)
        if not piles[source]:
            raise IllegalMove(move, f"{source} is empty: the row holds {_piles(length)}")
        index = pile_index(source)
        allowed = [ROW[index - reach - 1] for reach in REACHES if index - reach >= 1]
        if target not in allowed:
            where = " or ".join(allowed) if allowed else "nowhere, being the first pile"
            raise IllegalMove(
                move,
                "a pile moves only onto the pile immediately to its left or the third pile to "
                f"its left: {source} may go onto {where}",
            )
        card, onto = piles[source][-1], piles[target][-1]
        if not matches(card, onto):
            raise IllegalMove(
                move, f"{card} cannot go on {onto}: the top cards must match in rank or in suit"
            )
        size = len(piles[source])
        if move.count != size:
            raise IllegalMove(
                move,
                f"the whole pile moves: {source} holds {size} card(s), so write "
                f"{Move.cards(source, target, size)}",
            )

    # -- the end -------------------------------------------------------------------------------

    def finished(self, state: State) -> Outcome | None:
        if state.piles["stock"]:
            return None
        length = row_length(state)
        if length == 1:
            return Outcome(Result.WON, "all 52 cards form one pile", score=1)
        if self.candidate_moves(state):
            return None
        return self._stuck_outcome(length)

    def stuck(self, state: State) -> Outcome:
        return self._stuck_outcome(row_length(state))

    @staticmethod
    def _stuck_outcome(length: int) -> Outcome:
        reason = f"no move left with {_piles(length)}"
        if length <= MORAL_WIN_PILES:
            reason += f" ({MORAL_WIN_PILES} or fewer: a moral win)"
        return Outcome(Result.LOST, reason, score=length)

    # -- positions -------------------------------------------------------------------------------

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> State:
        total = sum(len(cards) for cards in piles.values())
        if total != 52:
            raise PositionError(f"an accordion position holds all 52 cards once, not {total}")
        if down["stock"] != len(piles["stock"]):
            raise PositionError("the stock lies face down: list its cards under 'down'")
        for name in ROW:
            if down[name]:
                raise PositionError(f"the row's cards lie face up: list {name}'s under 'up'")
        if not piles[ROW[0]]:
            raise PositionError("the row is never empty: t1 holds the first card dealt")
        length = row_length(State(piles=piles, down=down))
        later = [name for name in ROW[length:] if piles[name]]
        if later:
            raise PositionError(
                f"gaps in the row close at once: {ROW[length]} is empty but {later[0]} is not"
            )
        for name in ROW[:length]:
            if not can_be_built(piles[name]):
                raise PositionError(
                    f"{name} ({' '.join(map(str, piles[name]))}) cannot have been built: a pile "
                    "grows only by a pile put on it whose top card matches its top card in rank "
                    "or suit"
                )
        if self.options["dealing"] == "all" and piles["stock"]:
            raise PositionError(
                "with dealing=all every card is dealt at the start: the stock is empty"
            )
        return State(piles=piles, down=down)

    def extra_json(self, state: State) -> JSON:
        return {}


def _piles(count: int) -> str:
    return f"{count} pile" if count == 1 else f"{count} piles"
