"""A toy two-seat game built on the engine's public API only, for the tests that a game added
from outside the package (``patience.games.register``) is playable everywhere: over the
websocket, at the terminal and in the browser, with nothing of it in the package.

*Toy Duel*: twelve cards, the ace to six of clubs and of hearts, are shuffled by the deal number.
Each seat holds a hand of ``hand`` cards that the other seat does not see; the rest lie face down
on the ``stock``. The seats play in turn, seat 0 first: a move ``play(card=C)`` lays a card of the
mover's hand face up on his row (``row0`` or ``row1``), and he then draws the top card of the
stock into his hand, a forced ``draw`` that names no card. When both hands are empty the seat
whose row adds up to more pips (ace 1 to six 6) wins; equal rows are a draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from patience import Card, IllegalMove, Move, Outcome, PositionError, Rules, State
from patience.cards import Rank, Suit
from patience.deals import shuffled
from patience.options import Option

__all__ = ["DuelState", "ToyDuel", "ToyRelay", "ToySolo"]

SEATS = 2
ROWS = ("row0", "row1")


@dataclass
class DuelState(State):
    """The piles (stock, the two rows), the two hands and the seat to move."""

    hands: tuple[tuple[Card, ...], ...] = ((), ())
    turn: int = 0


def _pips(cards: list[Card]) -> int:
    return sum(int(card.rank) for card in cards)


class ToyDuel(Rules[DuelState]):
    """Toy Duel: lay your cards one by one; the bigger row wins."""

    name = "toy-duel"
    title = "Toy Duel"
    summary = "Two seats lay their hidden hands face up one by one; the bigger row wins."
    aliases = ("duel",)
    option_specs = (
        Option("hand", "choice", 3, "Cards in each hand at the start.", choices=(2, 3)),
    )
    pile_names = ("stock", *ROWS)

    @property
    def players(self) -> int:
        return SEATS

    def deck(self) -> list[Card]:
        return [
            Card.make(rank, suit)
            for suit in (Suit.CLUBS, Suit.HEARTS)
            for rank in range(Rank.ACE, Rank.SIX + 1)
        ]

    def deal(self, deal: int) -> DuelState:
        cards = shuffled(self.deck(), deal)
        size = int(self.options["hand"])
        hands = (tuple(cards[:size]), tuple(cards[size : 2 * size]))
        stock = cards[2 * size :]
        return DuelState(
            piles={"stock": stock, "row0": [], "row1": []},
            down={"stock": len(stock), "row0": 0, "row1": 0},
            hands=hands,
            turn=0,
        )

    def candidate_moves(self, state: DuelState) -> list[Move]:
        if self.finished(state) is not None:
            return []
        return [Move.act("play", card=str(card)) for card in state.hands[state.turn]]

    def action_moves(self) -> list[Move]:
        # The fixed action space: a play of each card of the deck.
        return [Move.act("play", card=str(card)) for card in self.deck()]

    def apply(self, state: DuelState, move: Move) -> tuple[DuelState, list[Move]]:
        if move.action != "play":
            raise IllegalMove(move, "the only move is play(card=C), a card of your hand")
        if self.finished(state) is not None:
            raise IllegalMove(move, "the game is over")
        hand = state.hands[state.turn]
        card = next((c for c in hand if str(c) == move.arg("card")), None)
        if card is None:
            raise IllegalMove(move, f"{move.arg('card')} is not in seat {state.turn}'s hand")
        after = state.copy()
        kept = [c for c in hand if c != card]
        after.piles[ROWS[state.turn]].append(card)
        forced: list[Move] = []
        if after.piles["stock"]:
            kept.append(after.take("stock")[0])
            after.down["stock"] = len(after.piles["stock"])
            forced.append(Move.act("draw", seat=state.turn))
        hands = list(after.hands)
        hands[state.turn] = tuple(kept)
        after.hands = tuple(hands)
        after.turn = 1 - state.turn
        return after, forced

    def finished(self, state: DuelState) -> Outcome | None:
        if any(state.hands) or state.piles["stock"]:
            return None
        scores = (_pips(state.piles["row0"]), _pips(state.piles["row1"]))
        if scores[0] == scores[1]:
            return Outcome("draw", "both rows are worth the same", scores=scores)
        winner = 0 if scores[0] > scores[1] else 1
        return Outcome.naming(
            "won", "{0}'s row is worth more", [winner], winner=winner, scores=scores
        )

    def returns(self, state: DuelState) -> list[float]:
        outcome = self.finished(state)
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0 if seat == outcome.winner else -1.0 for seat in range(SEATS)]

    def current_player(self, state: DuelState) -> int:
        return state.turn

    def key(self, state: DuelState) -> Any:
        return (super().key(state), state.hands, state.turn)

    def extra_json(self, state: DuelState) -> dict[str, Any]:
        return {"hands": [[str(c) for c in hand] for hand in state.hands], "turn": state.turn}

    def view_json(self, state: DuelState, seat: int) -> dict[str, Any]:
        data = super().view_json(state, seat)
        # Compared with each seat, never indexed by it: a spectator (seat -1) sees no hand.
        data["hands"] = [
            [str(c) for c in hand] if index == seat else None
            for index, hand in enumerate(state.hands)
        ]
        data["hand_sizes"] = [len(hand) for hand in state.hands]
        return data

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> DuelState:
        hands_data = data.get("hands")
        if not isinstance(hands_data, list) or len(hands_data) != SEATS:
            raise PositionError("a toy-duel position needs 'hands': two lists of cards")
        try:
            hands = tuple(tuple(Card.parse(text) for text in hand) for hand in hands_data)
        except (TypeError, ValueError) as error:
            raise PositionError(f"'hands': {error}") from None
        turn = data.get("turn")
        if turn not in (0, 1):
            raise PositionError("'turn' is the seat to move: 0 or 1")
        cards = [*hands[0], *hands[1], *(c for pile in piles.values() for c in pile)]
        if sorted(cards) != sorted(self.deck()) or down["row0"] or down["row1"]:
            raise PositionError("a toy-duel position holds its twelve cards once, rows face up")
        return DuelState(piles=piles, down=down, hands=hands, turn=int(turn))

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> DuelState:
        seat = int(view["seat"])
        mine = tuple(Card.parse(text) for text in view["hands"][seat])
        rows = {name: [Card.parse(text) for text in view["piles"][name]["up"]] for name in ROWS}
        known = {*mine, *rows["row0"], *rows["row1"]}
        unknown = [card for card in self.deck() if card not in known]
        rng.shuffle(unknown)
        other_size = int(view["hand_sizes"][1 - seat])
        other, stock = tuple(unknown[:other_size]), unknown[other_size:]
        hands = (mine, other) if seat == 0 else (other, mine)
        return DuelState(
            piles={"stock": stock, **rows},
            down={"stock": len(stock), "row0": 0, "row1": 0},
            hands=hands,
            turn=int(view["turn"]),
        )


class ToySolo(Rules[State]):
    """Toy Solo, a one-player toy: the ace to six of clubs dealt two to each of three piles (the
    lower card face down) go up one by one onto the foundation ``f1``, ace first. A pile's top
    card goes up when it is the next one (``t2-f1``); the card under it is then turned up (a
    forced ``flip``). Won when all six are up, lost when no card can go."""

    name = "toy-solo"
    title = "Toy Solo"
    summary = "Six clubs in three piles go up onto one foundation, ace to six."
    pile_names = ("t1", "t2", "t3", "f1")

    def deck(self) -> list[Card]:
        return [Card.make(rank, Suit.CLUBS) for rank in range(Rank.ACE, Rank.SIX + 1)]

    def deal(self, deal: int) -> State:
        cards = shuffled(self.deck(), deal)
        piles = {"t1": cards[0:2], "t2": cards[2:4], "t3": cards[4:6], "f1": []}
        return State(piles=piles, down={"t1": 1, "t2": 1, "t3": 1, "f1": 0})

    def candidate_moves(self, state: State) -> list[Move]:
        wanted = len(state.piles["f1"]) + 1
        return [
            Move.cards(name, "f1")
            for name in ("t1", "t2", "t3")
            if (top := state.top(name)) is not None
            and state.up_count(name)
            and int(top.rank) == wanted
        ]

    def action_moves(self) -> list[Move]:
        # The fixed action space: each pile's top card up onto the foundation.
        return [Move.cards(name, "f1") for name in ("t1", "t2", "t3")]

    def apply(self, state: State, move: Move) -> tuple[State, list[Move]]:
        if move not in self.candidate_moves(state):
            raise IllegalMove(move, "only the next club up (ace first) goes onto f1")
        after = state.copy()
        assert move.source is not None
        after.piles["f1"].extend(after.take(move.source))
        flipped = after.turn_up_top(move.source)
        return after, [flipped] if flipped is not None else []

    def finished(self, state: State) -> Outcome | None:
        if len(state.piles["f1"]) == len(self.deck()):
            return Outcome("won", "all six clubs are up")
        return None

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> State:
        if sorted(card for pile in piles.values() for card in pile) != sorted(self.deck()):
            raise PositionError("a toy-solo position holds the ace to six of clubs once each")
        return State(piles=piles, down=down)


class ToyRelay(ToySolo):
    """Toy Relay: Toy Solo for two seats taking turns (seat 0 first), everything face up but
    the cards under the piles' tops. Whoever puts the six up wins; a seat that cannot move at
    its turn loses."""

    name = "toy-relay"
    title = "Toy Relay"
    summary = "Toy Solo played in turns by two seats: whoever puts the six up wins."

    @property
    def players(self) -> int:
        return SEATS

    def current_player(self, state: State) -> int:
        return len(state.piles["f1"]) % SEATS

    def finished(self, state: State) -> Outcome | None:
        if len(state.piles["f1"]) == len(self.deck()):
            winner = (len(state.piles["f1"]) - 1) % SEATS
            return Outcome.naming("won", "{0} put the six up", [winner], winner=winner)
        return None

    def stuck(self, state: State) -> Outcome:
        seat = self.current_player(state)
        return Outcome.naming("won", "{0} cannot move", [seat], winner=1 - seat)

    def returns(self, state: State) -> list[float]:
        outcome = self.finished(state) or self.stuck(state)
        return [1.0 if seat == outcome.winner else -1.0 for seat in range(SEATS)]
