"""Spider: every rule of RULES.md's Spider in one place (docs/rules/spider.md).

Piles: ``stock``, foundations ``f1``-``f8`` (the removed suits, filled in order), tableau
``t1``-``t10``. Moves: card moves between tableau piles (a card, or a group running down in one
suit), ``stock`` (one card face up onto each pile, left to right) and, with ``auto_remove=off``,
a complete suit from a pile to the next foundation (``t3-f1:13``). Forced:
``flip(pile=..,card=..)`` when a face-down card is left on top of a pile, and, with
``auto_remove=on``, the removal of a complete suit (``t3-f1:13``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import CARDS_PER_PACK, MAX_COPIES, RANK_OF, Card, Rank, Suit
from ..deals import Shuffler
from ..engine import IllegalMove, Outcome, PositionError, Result, State
from ..moves import Move, register_action
from ..options import Option
from .common import PileMoveRules, numbered, unknown_action

FOUNDATIONS = numbered("f", 8)
TABLEAU = numbered("t", 10)
ACTIONS = ("stock",)
register_action(*ACTIONS, "flip")

#: Cards in one complete suit, the run that is removed from play.
SUIT_LENGTH = 13
#: The suits of the packs for each value of the option ``suits``, in starting order.
SUITS_IN_PLAY: dict[int, tuple[Suit, ...]] = {
    4: (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),
    2: (Suit.HEARTS, Suit.SPADES),
    1: (Suit.SPADES,),
}

# ``_SEQUENCE[card]`` is ``suit * 14 + rank``: a card lies on another in a one-suit run exactly
# when its value is one less, since the gap of 14 keeps suits apart. One table read per card pair
# keeps run finding cheap, which matters because move generation does it for every position.
_SEQUENCE: tuple[int, ...] = tuple(
    (card % CARDS_PER_PACK // 13) * 14 + RANK_OF[card]
    for card in range(MAX_COPIES * CARDS_PER_PACK)
)
# ``_FACE[card]``: rank and suit without the copy number, for the repetition key.
_FACE: tuple[int, ...] = tuple(card % CARDS_PER_PACK for card in range(MAX_COPIES * CARDS_PER_PACK))


def suit_run_length(cards: Sequence[Card], limit: int) -> int:
    """How many cards at the top of ``cards`` (at most ``limit``, the face-up ones) form a run
    descending in one suit: the group that may move together."""
    if not limit:
        return 0
    length = 1
    index = len(cards) - 1
    while length < limit and _SEQUENCE[cards[index - 1]] == _SEQUENCE[cards[index]] + 1:
        length += 1
        index -= 1
    return length


def is_complete_suit(cards: Sequence[Card], up: int) -> bool:
    """True if the top 13 cards of a pile (``up`` of them face up) run K down to A in one suit."""
    return up >= SUIT_LENGTH and RANK_OF[cards[-1]] == 1 and suit_run_length(cards, up) >= 13


@dataclass
class SpiderState(State):
    """Spider's piles, with each pile's cards as bytes of their faces (``faces``): the
    repetition key, kept up to date pile by pile as moves change piles, so that a key costs a
    tuple of 19 ready-made parts instead of a pass over all 104 cards. States are changed only
    through :class:`Spider`, which keeps ``faces`` in step; :meth:`refresh` rebuilds it."""

    faces: dict[str, bytes] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.faces:
            self.refresh()

    def refresh(self) -> None:
        """Rebuild ``faces`` from the piles (after changing piles by hand)."""
        face = _FACE.__getitem__
        self.faces = {name: bytes(map(face, cards)) for name, cards in self.piles.items()}

    def copy(self) -> SpiderState:
        # The engine's copy, written out: move generation copies a state for every candidate.
        clone = object.__new__(SpiderState)
        piles = self.piles
        clone.piles = dict(zip(piles, map(list.copy, piles.values()), strict=True))
        clone.down = self.down.copy()
        clone.faces = self.faces.copy()
        return clone

    def move_cards(self, source: str, target: str, count: int) -> None:
        """Move the top ``count`` cards of ``source`` onto ``target``, faces included."""
        self.piles[target].extend(self.take(source, count))
        moved = self.faces[source][-count:]
        self.faces[source] = self.faces[source][:-count]
        self.faces[target] += moved


class Spider(PileMoveRules[SpiderState]):
    """Spider (RULES.md): ten piles, two packs, suits built down and removed when complete."""

    name = "spider"
    title = "Spider"
    summary = "Ten piles from two packs; build down, and clear each suit run K to A off the table."
    option_specs = (
        Option(
            "layout",
            "choice",
            50,
            "cards in the starting layout: 50, or 54 (piles 1-4 get a sixth card)",
            (50, 54),
        ),
        Option(
            "auto_remove",
            "bool",
            True,
            "a complete suit K to A is removed by itself (off: the player removes it)",
        ),
        Option("suits", "choice", 4, "suits in the packs: 1 (104 spades), 2 or 4", (1, 2, 4)),
    )
    pile_names = ("stock", *FOUNDATIONS, *TABLEAU)
    packs = 2

    @property
    def layout(self) -> int:
        """Cards in the starting layout: 50 or 54."""
        return int(self.options["layout"])

    @property
    def auto_remove(self) -> bool:
        """True if complete suits leave the table by themselves."""
        return bool(self.options["auto_remove"])

    def deck(self) -> list[Card]:
        """The 104 cards in starting order (docs/deals.md): copy 0 of each suit in play, A to K,
        suits in new-pack order, then copy 1, and so on; four suits make the plain two packs."""
        suits = SUITS_IN_PLAY[int(self.options["suits"])]
        copies = 8 // len(suits)
        return [
            Card.make(rank, suit, copy)
            for copy in range(copies)
            for suit in suits
            for rank in range(1, 14)
        ]

    def starting_down(self, pile: int) -> int:
        """How many face-down cards pile ``pile`` (0 for ``t1``) gets in the deal."""
        return 5 if self.layout == 54 and pile < 4 else 4

    def stock_sizes(self) -> tuple[int, ...]:
        """The sizes the stock can have: full, then after each deal from it."""
        # Deals of ten, and with layout 50 a last deal of four: 54, 44, ... 4, 0 or 50, 40, ... 0.
        sizes = tuple(range(104 - self.layout, -1, -10))
        return sizes if sizes[-1] == 0 else (*sizes, 0)

    # -- the deal ----------------------------------------------------------------------------

    def deal(self, deal: int) -> SpiderState:
        cards = Shuffler(deal).shuffle(self.deck())
        piles: dict[str, list[Card]] = {name: [] for name in self.pile_names}
        down = dict.fromkeys(self.pile_names, 0)
        position = 0
        # Five rows of ten, then (layout 54) a row of four onto piles 1-4: row by row.
        for _row in range(5):
            for name in TABLEAU:
                piles[name].append(cards[position])
                position += 1
        if self.layout == 54:
            for name in TABLEAU[:4]:
                piles[name].append(cards[position])
                position += 1
        for name in TABLEAU:
            down[name] = len(piles[name]) - 1
        # The next card of the pack is the stock's top card: the first one dealt, onto t1.
        piles["stock"] = cards[position:][::-1]
        down["stock"] = len(piles["stock"])
        return SpiderState(piles=piles, down=down)

    # -- legal moves -------------------------------------------------------------------------

    def candidate_moves(self, state: SpiderState) -> list[Move]:
        moves: list[Move] = []
        piles = state.piles
        down = state.down
        tops: list[int] = []
        runs: list[int] = []
        for name in TABLEAU:
            cards = piles[name]
            runs.append(suit_run_length(cards, len(cards) - down[name]))
            tops.append(RANK_OF[cards[-1]] if cards else 0)
        if not self.auto_remove:
            target = self.next_foundation(state)
            if target is not None:
                for index, name in enumerate(TABLEAU):
                    if runs[index] >= 13 and tops[index] == 1:
                        moves.append(Move.cards(name, target, SUIT_LENGTH))
        for index, source in enumerate(TABLEAU):
            run = runs[index]
            if not run:
                continue
            top = tops[index]
            for other, target in enumerate(TABLEAU):
                if other == index:
                    continue
                onto = tops[other]
                if onto:
                    # The one card of the run that fits lies (wanted rank - top rank) deep.
                    count = onto - top
                    if 1 <= count <= run:
                        moves.append(Move.cards(source, target, count))
                else:
                    for count in range(1, run + 1):
                        moves.append(Move.cards(source, target, count))
        if piles["stock"] and self._deal_allowed(state):
            moves.append(Move.act("stock"))
        return moves

    def is_candidate(self, state: SpiderState, move: Move) -> bool:
        # The one move asked about, by the tests of candidate_moves (a replay of a solver's
        # win of a thousand moves asks this at every move).
        piles = state.piles
        if move.is_action:
            return bool(piles["stock"]) and self._deal_allowed(state) and move == Move.act("stock")
        source, target = str(move.source), str(move.target)
        if source not in TABLEAU:
            return False
        cards = piles[source]
        run = suit_run_length(cards, len(cards) - state.down[source])
        if target in FOUNDATIONS:
            return (
                not self.auto_remove
                and target == self.next_foundation(state)
                and run >= SUIT_LENGTH
                and RANK_OF[cards[-1]] == 1
                and move == Move.cards(source, target, SUIT_LENGTH)
            )
        if target not in TABLEAU or target == source or not run:
            return False
        onto = piles[target]
        count = RANK_OF[onto[-1]] - RANK_OF[cards[-1]] if onto else move.count
        return 1 <= count <= run and move == Move.cards(source, target, count)

    def next_foundation(self, state: SpiderState) -> str | None:
        """The foundation the next removed suit goes to, or None when all eight are full."""
        for name in FOUNDATIONS:
            if not state.piles[name]:
                return name
        return None

    @staticmethod
    def _deal_allowed(state: SpiderState) -> bool:
        """A deal needs every pile filled, unless the tableau is too small to fill them."""
        piles = state.piles
        if all(piles[name] for name in TABLEAU):
            return True
        return sum(len(piles[name]) for name in TABLEAU) < len(TABLEAU)

    def action_moves(self) -> list[Move]:
        """The action space (docs/notation.md, "Action numbers"): a complete suit removed to
        a foundation (``auto_remove=off``), runs between tableau piles by count, then
        ``stock``."""
        moves: list[Move] = []
        if not self.auto_remove:
            moves += [
                Move.cards(source, target, SUIT_LENGTH)
                for source in TABLEAU
                for target in FOUNDATIONS
            ]
        moves += [
            Move.cards(source, target, count)
            for source in TABLEAU
            for target in TABLEAU
            if target != source
            for count in range(1, SUIT_LENGTH + 1)
        ]
        moves.append(Move.act("stock"))
        return moves

    # -- applying a move -----------------------------------------------------------------------

    def perform(self, state: SpiderState, move: Move) -> tuple[SpiderState, list[Move]]:
        if move.is_action:
            return self._apply_action(state, move)
        source, target = str(move.source), str(move.target)
        after = state.copy()
        after.move_cards(source, target, move.count)
        forced: list[Move] = []
        flip = after.turn_up_top(source)
        if flip is not None:
            forced.append(flip)
        if self.auto_remove and target in TABLEAU:
            self._remove_complete(after, (target,), forced)
        return after, forced

    def _remove_complete(
        self, state: SpiderState, names: Sequence[str], forced: list[Move]
    ) -> None:
        """Remove every complete suit on top of the piles ``names`` to the next foundations, each
        followed by the turning up of a face-down card it uncovers (forced moves)."""
        for name in names:
            cards = state.piles[name]
            if is_complete_suit(cards, len(cards) - state.down[name]):
                target = self.next_foundation(state)
                if target is None:  # pragma: no cover - 104 cards hold at most eight suits
                    return
                state.move_cards(name, target, SUIT_LENGTH)
                forced.append(Move.cards(name, target, SUIT_LENGTH))
                flip = state.turn_up_top(name)
                if flip is not None:
                    forced.append(flip)

    def _apply_action(self, state: SpiderState, move: Move) -> tuple[SpiderState, list[Move]]:
        if move.action not in ACTIONS:
            raise unknown_action(self.name, move, ACTIONS)
        if move.args:
            raise IllegalMove(move, f"{move.action} takes no arguments")
        if not state.piles["stock"]:
            raise IllegalMove(move, "the stock is empty: every deal from it has been made")
        if not self._deal_allowed(state):
            spaces = [name for name in TABLEAU if not state.piles[name]]
            raise IllegalMove(
                move,
                "a deal from the stock is allowed only when no pile is empty: fill "
                + ", ".join(spaces)
                + " first",
            )
        after = state.copy()
        stock = after.piles["stock"]
        dealt = TABLEAU[: min(len(TABLEAU), len(stock))]
        for name in dealt:
            after.move_cards("stock", name, 1)
        forced: list[Move] = []
        if self.auto_remove:
            self._remove_complete(after, dealt, forced)
        return after, forced

    def _check_card_move(self, state: SpiderState, move: Move, source: str, target: str) -> None:
        piles = state.piles
        if source == "stock":
            raise IllegalMove(move, "stock cards are dealt onto the piles with the move stock")
        if source in FOUNDATIONS:
            raise IllegalMove(move, f"the suit on {source} has been removed from play")
        if target == "stock":
            raise IllegalMove(move, "no card may be put on the stock")
        if source == target:
            raise IllegalMove(move, "a card move needs two different piles")
        if target in FOUNDATIONS and self.auto_remove:
            raise IllegalMove(
                move,
                "complete suits are removed by themselves (auto_remove=on); "
                "no card else goes to a foundation",
            )
        cards = piles[source]
        if not cards:
            raise IllegalMove(move, f"{source} is empty")
        up = state.up_count(source)
        if move.count > up:
            raise IllegalMove(move, f"{source} has only {up} face-up card(s)")
        run = suit_run_length(cards, up)
        if move.count > run:
            raise IllegalMove(
                move,
                f"only the top {run} card(s) of {source} form a run down in one suit, "
                "and only such a group moves together",
            )
        card = cards[-move.count]
        if target in FOUNDATIONS:
            self._check_removal(state, move, source, target)
            return
        if not piles[target]:
            return
        onto = piles[target][-1]
        if RANK_OF[onto] == RANK_OF[card] + 1:
            return
        if card.rank == Rank.KING:
            raise IllegalMove(move, f"{card} cannot go on {onto}: a king goes only into a space")
        if onto.rank == Rank.ACE:
            raise IllegalMove(move, f"{card} cannot go on {onto}: nothing goes onto an ace")
        wanted = Rank(card.rank + 1).letter
        raise IllegalMove(
            move,
            f"{card} cannot go on {onto}: a card or group goes onto a card one rank higher "
            f"(any {wanted}) or into a space",
        )

    def _check_removal(self, state: SpiderState, move: Move, source: str, target: str) -> None:
        cards = state.piles[source]
        if move.count != SUIT_LENGTH or not is_complete_suit(cards, state.up_count(source)):
            raise IllegalMove(
                move,
                "only a complete suit, K down to A on top of a pile, goes to a foundation, "
                "all 13 cards at once",
            )
        wanted = self.next_foundation(state)
        if target != wanted:
            raise IllegalMove(
                move, f"removed suits fill the foundations in order: the next one is {wanted}"
            )

    # -- the end -------------------------------------------------------------------------------

    def finished(self, state: SpiderState) -> Outcome | None:
        if all(state.piles[name] for name in FOUNDATIONS):
            return Outcome(Result.WON, "all eight suits are removed")
        return None

    def key(self, state: SpiderState) -> Hashable:
        # The engine's key, made fast: every pile in order, face up or down, copies equal.
        # Only tableau piles have face-down cards whose number changes; faces are cached.
        return (
            tuple(map(state.down.__getitem__, TABLEAU)),
            tuple(map(state.faces.__getitem__, self.pile_names)),
        )

    # -- positions -------------------------------------------------------------------------------

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> SpiderState:
        total = sum(len(cards) for cards in piles.values())
        if total != 104:
            raise PositionError(f"a spider position holds all 104 cards, not {total}")
        stock = piles["stock"]
        if down["stock"] != len(stock):
            raise PositionError("the stock lies face down: list its cards under 'down'")
        sizes = self.stock_sizes()
        if len(stock) not in sizes:
            raise PositionError(
                f"a stock of {len(stock)} cards cannot happen with layout={self.layout}: "
                f"it holds {', '.join(map(str, sizes))} cards"
            )
        seen_empty = False
        for name in FOUNDATIONS:
            cards = piles[name]
            if down[name]:
                raise PositionError(f"the {name} pile lies face up: list its cards under 'up'")
            if not cards:
                seen_empty = True
                continue
            if seen_empty:
                raise PositionError("removed suits fill the foundations in order, from f1")
            if len(cards) != SUIT_LENGTH or not is_complete_suit(cards, len(cards)):
                raise PositionError(f"{name} must hold one complete suit, K at the bottom to A")
        for index, name in enumerate(TABLEAU):
            cards = piles[name]
            if cards and down[name] == len(cards):
                raise PositionError(f"the top card of {name} must be face up")
            most = self.starting_down(index)
            if down[name] > most:
                raise PositionError(
                    f"{name} has {down[name]} face-down cards; with layout={self.layout} "
                    f"it starts with {most} and never gets more"
                )
            if self.auto_remove and is_complete_suit(cards, len(cards) - down[name]):
                raise PositionError(
                    f"{name} has a complete suit on top, which auto_remove=on would have removed"
                )
        return SpiderState(piles=piles, down=down)
