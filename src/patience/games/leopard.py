"""Leopard (Robert Abbott): every rule of RULES.md's Leopard in one place (docs/rules/leopard.md).

Two to four players, two packs. One :class:`LeopardState` holds a whole match: the deal in
progress (hands, stock, squares, discards) and the totals of the deals before it. Moves:

* ``play(card=Th,square=0,position=5)``: a card from the hand onto a square (positions 1..9 are
  ``A 2 3 / 4 5 6 / 7 8 9``; squares are numbered by seat, by side with four players);
* ``discard(card=Qs)``; ``declare``; ``ask`` and ``answer(yes=true)`` (four players);
* ``draw``: go on without declaring, when the square is worth 5 or more (otherwise the engine
  draws at once).

Forced moves: ``deal(number=N,dealer=S)``, ``draw(seat=S)``, ``declare(seat=S)`` (after a yes),
``score(deal=N,points=14/4)``.

The hot path (legal actions, applying an action) works on small ints: cards are ``0..103``
(``pack * 52 + suit * 13 + rank - 1``), a square is nine lists of layers, and a face-down layer
is ``card | DOWN | seat << SEAT_SHIFT`` so that one int says what lies there and who laid it.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from ..cards import Card, CardError, Rank
from ..deals import Shuffler
from ..engine import (
    JSON,
    IllegalMove,
    Observer,
    Outcome,
    PositionError,
    Result,
    Rules,
    State,
    logistic,
)
from ..moves import Move, register_action
from ..options import Option, OptionError, OptionValue

__all__ = [
    "ASK",
    "DECLARE",
    "DISCARD",
    "DRAW",
    "LINES",
    "NO",
    "YES",
    "Leopard",
    "LeopardState",
    "Phase",
    "square_value",
]

PLAYER_ACTIONS = ("play", "discard", "declare", "ask", "answer", "draw")
FORCED_ACTIONS = ("deal", "score")
register_action(*PLAYER_ACTIONS, *FORCED_ACTIONS)

#: A face-down layer: the card's value with this bit set, and the seat who laid it shifted in.
DOWN = 128
SEAT_SHIFT = 8
CARDS = 104
HAND = 8

# Integer actions: a play is face * 27 + square * 9 + position index (squares 0..2), then the
# discards by face, then the actions without a card.
DISCARD = 52 * 27
DECLARE = DISCARD + 52
ASK = DECLARE + 1
YES = ASK + 1
NO = YES + 1
DRAW = NO + 1
NUM_ACTIONS = DRAW + 1

#: The eight scoring lines of a square (position indexes 0..8 = positions A, 2, ..., 9).
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
#: The lines through each position index.
LINES_AT = tuple(tuple(line for line in LINES if index in line) for index in range(9))


#: Moves already built from their actions (:meth:`Leopard.action_to_move`).
_ACTION_MOVES: dict[int, Move] = {}


class Phase(enum.StrEnum):
    """The phase of a turn: ``start`` (a square worth 5 or more: declare, draw or ask first),
    ``answer`` (a partner answers the question asked), ``play`` (the card is drawn: play or
    discard) and ``over`` (the match has ended). A ``str``, written in JSON as its value."""

    START = "start"
    ANSWER = "answer"
    PLAY = "play"
    OVER = "over"


START, ANSWER, PLAY, OVER = Phase.START, Phase.ANSWER, Phase.PLAY, Phase.OVER
PHASES = tuple(Phase)

# Ranks are 1-based throughout, as cards.Rank (ace 1 ... king 13); a pip card (ace to nine) goes
# on the position of its rank, whose index in a square (0..8) is position_index(rank).
NINE, TEN, JACK, QUEEN, KING = (
    int(Rank.NINE),
    int(Rank.TEN),
    int(Rank.JACK),
    int(Rank.QUEEN),
    int(Rank.KING),
)
#: The ranks laid face down: jacks (anywhere) and queens (in one's own square).
FACE_DOWN_RANKS = (JACK, QUEEN)


def rank_of(card: int) -> int:
    """The rank (1 = ace ... 13 = king, as :class:`Rank`) of a card value (0..103, or a face
    0..51): both packs run ace to king in each suit."""
    return card % 13 + 1


def position_index(rank: int) -> int:
    """The index (0..8) in a square of the position where a pip card of ``rank`` (ace to nine)
    goes: positions A, 2, ..., 9 are indexes 0..8."""
    return rank - 1


# Suit (0..3) of a layer if it is a face-up card, else -1: one table read on the hot path.
_TOP_SUIT = tuple(v % 52 // 13 if v < CARDS else -1 for v in range(4 << SEAT_SHIFT))
_RED_SUIT = (False, True, True, False)
_FACE_TEXT = tuple(str(Card(face)) for face in range(52))
_TEXT = tuple(_FACE_TEXT[value % 52] for value in range(CARDS))
_FACE_OF = {text: face for face, text in enumerate(_FACE_TEXT)}


def _face(text: str) -> int:
    """The face (0..51) of a card written as text; canonical text is a dictionary read."""
    face = _FACE_OF.get(text)
    return Card.parse(text).face if face is None else face


def square_value(cells: list[list[int]]) -> int:
    """The value of a square: 2 for each full line of one suit, else 1 if of one colour."""
    suits = [_TOP_SUIT[cell[-1]] if cell else -1 for cell in cells]
    value = 0
    for a, b, c in LINES:
        x, y, z = suits[a], suits[b], suits[c]
        if x < 0 or y < 0 or z < 0:
            continue
        if x == y == z:
            value += 2
        elif _RED_SUIT[x] == _RED_SUIT[y] == _RED_SUIT[z]:
            value += 1
    return value


def _line_score(x: int, y: int, z: int) -> int:
    if x < 0 or y < 0 or z < 0:
        return 0
    if x == y == z:
        return 2
    return 1 if _RED_SUIT[x] == _RED_SUIT[y] == _RED_SUIT[z] else 0


def _vacant(cell: list[int]) -> bool:
    return not cell or cell[-1] >= DOWN


@dataclass(frozen=True)
class CountOption(Option):
    """An option that is a whole number from 1 to 999, or ``off``."""

    def allowed(self) -> str:
        return "a whole number from 1 to 999, or off"

    def parse(self, value: object) -> OptionValue:
        text = "" if isinstance(value, bool) else str(value).strip().lower()
        if text == "off":
            return "off"
        if text.isdigit() and 1 <= int(text) <= 999:
            return int(text)
        raise OptionError(f"option {self.name}={value!r} is not allowed: use {self.allowed()}")


@dataclass
class LeopardState(State):
    """A Leopard match in progress. ``piles`` holds the ``discards`` of the deal; the rest:

    ``stock`` (bottom to top), ``hands`` (by seat), ``squares`` (by side; nine positions, each a
    list of layers bottom to top), whose ``turn`` it is and the ``phase`` of the turn, the deal's
    ``dealer`` and ``deal_index`` (0 first), ``totals`` and ``history`` (points by side) and the
    ``declarers`` of the deals played (-1: nobody).
    """

    stock: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    squares: list[list[list[int]]] = field(default_factory=list)
    dealer: int = 0
    turn: int = 0
    phase: Phase = PLAY
    asker: int = -1
    deal_index: int = 0
    totals: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    declarers: tuple[int, ...] = ()
    deal_number: int | None = None
    #: Search states stop at the end of the deal instead of dealing the next one.
    single_deal: bool = False

    def copy(self) -> Self:
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.piles = {"discards": self.piles["discards"][:]}
        clone.down = dict(self.down)
        clone.stock = self.stock[:]
        clone.hands = [hand[:] for hand in self.hands]
        # Positions are copied on write (a play replaces the one list it changes).
        clone.squares = [square[:] for square in self.squares]
        return clone

    def all_cards(self) -> list[Card]:
        cards = [*self.piles["discards"], *map(Card, self.stock)]
        for hand in self.hands:
            cards.extend(map(Card, hand))
        for square in self.squares:
            for cell in square:
                cards.extend(Card(layer & (DOWN - 1)) for layer in cell)
        return cards


class Leopard(Rules[LeopardState]):
    """Leopard (RULES.md): squares of nine positions scored on eight lines; 2, 3 or 4 players."""

    name = "leopard"
    title = "Leopard"
    summary = "Build a 3x3 square of A-9 scoring lines of one suit or colour; spoil your rivals'."
    option_specs = (
        Option("players", "choice", 2, "players: 2, 3, or 4 in two sides", (2, 3, 4)),
        CountOption("deals", "count", 8, "deals in a match (default 8; 6 with 3 players)", (1, 8)),
        CountOption("target", "count", "off", "a match ends when a side reaches it", ("off", 33)),
    )
    pile_names = ("discards",)
    packs = 2
    positions_can_repeat = False

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        given = dict(options or {})
        self.nplayers = int(self.options["players"])
        #: Squares and scores belong to sides: a seat's side is ``seat % sides``.
        self.sides = 2 if self.nplayers == 4 else self.nplayers
        if "deals" not in given:
            if self.options["target"] != "off":
                self.options["deals"] = "off"
            elif self.nplayers == 3:
                self.options["deals"] = 6
        if self.options["deals"] == "off" and self.options["target"] == "off":
            raise OptionError("leopard: a match needs deals=N or target=N (both are off)")

    @property
    def players(self) -> int:
        return self.nplayers

    def current_player(self, state: LeopardState) -> int:
        return state.turn

    def side_name(self, side: int) -> str:
        """``seat 1``, or ``side 0 (seats 0 and 2)`` with four players."""
        if self.nplayers == 4:
            return f"side {side} (seats {side} and {side + 2})"
        return f"seat {side}"

    # -- the deal ----------------------------------------------------------------------------

    def deal_cards(self, deal_number: int | None, index: int) -> list[int]:
        """The card order (top first) of deal ``index`` (0 first) of a match: the ``index``-th
        shuffle of the two packs drawn from deal number ``deal_number`` (0 if unknown)."""
        shuffler = Shuffler(deal_number if deal_number is not None else 0)
        order = list(range(CARDS))
        for _ in range(index + 1):
            cards = shuffler.shuffle(order)
        return cards

    def start(self, deal: int) -> tuple[LeopardState, list[Move]]:
        state = LeopardState(
            piles={"discards": []},
            down={"discards": 0},
            dealer=self.nplayers - 1,
            totals=(0,) * self.sides,
            deal_number=deal,
        )
        forced: list[Move] = []
        self._start_deal(state, forced)
        return state, forced

    def deal(self, deal: int) -> LeopardState:
        return self.start(deal)[0]

    def _start_deal(self, state: LeopardState, forced: list[Move] | None) -> None:
        players = self.nplayers
        first = (state.dealer + 1) % players
        cards = self.deal_cards(state.deal_number, state.deal_index)
        hands: list[list[int]] = [[] for _ in range(players)]
        # One card at a time, from the dealer's left round the table.
        for i in range(HAND * players):
            hands[(first + i) % players].append(cards[i])
        state.hands = hands
        state.stock = cards[HAND * players :][::-1]
        state.squares = [[[] for _ in range(9)] for _ in range(self.sides)]
        state.piles["discards"] = []
        state.turn = first
        state.asker = -1
        if forced is not None:
            forced.append(Move.act("deal", number=state.deal_index + 1, dealer=state.dealer))
        self._begin_turn(state, forced)

    def _begin_turn(self, state: LeopardState, forced: list[Move] | None) -> None:
        if square_value(state.squares[state.turn % self.sides]) >= 5:
            state.phase = START  # he may declare before drawing
        else:
            self._draw(state, forced, announce=True)

    def _draw(self, state: LeopardState, forced: list[Move] | None, announce: bool) -> None:
        if not state.stock:
            self._end_deal(state, -1, forced)
            return
        state.hands[state.turn].append(state.stock.pop())
        state.phase = PLAY
        if announce and forced is not None:
            forced.append(Move.act("draw", seat=state.turn))

    def deal_points(self, state: LeopardState, declarer: int) -> list[int]:
        """Each side's points if the deal ended now (``declarer`` -1: nobody declared)."""
        points = [square_value(square) for square in state.squares]
        if declarer >= 0:
            side = declarer % self.sides
            points[side] = 4 + 2 * (points[side] - 5)
        return points

    def _end_deal(self, state: LeopardState, declarer: int, forced: list[Move] | None) -> None:
        points = self.deal_points(state, declarer)
        state.totals = tuple(total + gain for total, gain in zip(state.totals, points, strict=True))
        state.history = (*state.history, tuple(points))
        state.declarers = (*state.declarers, declarer)
        if forced is not None:
            forced.append(
                Move.act("score", deal=state.deal_index + 1, points="/".join(map(str, points)))
            )
        if state.single_deal or self.match_over(state):
            state.phase = OVER
            state.asker = -1
            return
        state.deal_index += 1
        state.dealer = (state.dealer + 1) % self.nplayers
        self._start_deal(state, forced)

    def match_over(self, state: LeopardState) -> bool:
        """True when the deals played end the match: the deals are played or the target is
        reached, and one side's total is the highest (equal top totals: one more deal)."""
        top = max(state.totals)
        if state.totals.count(top) != 1:
            return False
        target, deals = self.options["target"], self.options["deals"]
        if target != "off" and top >= int(target):
            return True
        return deals != "off" and len(state.history) >= int(deals)

    # -- actions (the hot path) --------------------------------------------------------------

    def num_distinct_actions(self) -> int:
        """The size of Leopard's action space (the same for 2, 3 and 4 players: with two
        sides the plays onto square 2 are never legal)."""
        return NUM_ACTIONS

    def action_moves(self) -> list[Move]:
        """Every action's move, in action order (docs/notation.md, "Action numbers")."""
        return [_action_move(action) for action in range(NUM_ACTIONS)]

    def legal_actions(self, state: LeopardState) -> list[int]:
        """The legal actions, sorted."""
        return sorted(self._actions(state))

    def _actions(self, state: LeopardState) -> list[int]:
        """The legal actions in the order of the hand (the order of the legal moves)."""
        phase = state.phase
        if phase == PLAY:
            return self._play_actions(state)
        if phase == START:
            return [DECLARE, ASK, DRAW] if self.nplayers == 4 else [DECLARE, DRAW]
        if phase == ANSWER:
            return [YES, NO]
        return []

    def _play_actions(self, state: LeopardState) -> list[int]:
        own = state.turn % self.sides
        squares = state.squares
        sides = self.sides
        actions: list[int] = []
        seen: set[int] = set()
        for card in state.hands[state.turn]:
            face = card % 52
            if face in seen:
                continue
            seen.add(face)
            rank = rank_of(face)
            base = face * 27
            if rank <= NINE:
                index = position_index(rank)
                for square in range(sides):
                    cell = squares[square][index]
                    if not cell or cell[-1] >= DOWN:
                        actions.append(base + square * 9 + index)
            elif rank == TEN:
                own_cells = squares[own]
                for index in range(9):
                    cell = own_cells[index]
                    if not cell or cell[-1] >= DOWN:
                        actions.append(base + own * 9 + index)
            elif rank == JACK:
                actions.extend(range(base, base + sides * 9))
            else:
                start = base + own * 9
                actions.extend(range(start, start + 9))
            actions.append(DISCARD + face)
        return actions

    def apply_action(
        self, state: LeopardState, action: int, *, in_place: bool = False
    ) -> LeopardState:
        after = state if in_place else state.copy()
        self._act(after, action, None)
        return after

    def _act(self, state: LeopardState, action: int, forced: list[Move] | None) -> None:
        """Make ``action`` (known to be legal) in place, adding its forced moves to ``forced``."""
        seat = state.turn
        if action < DECLARE:
            face = action // 27 if action < DISCARD else action - DISCARD
            hand = state.hands[seat]
            for i, card in enumerate(hand):
                if card % 52 == face:
                    del hand[i]
                    break
            if action < DISCARD:
                rest = action % 27
                square = state.squares[rest // 9]
                if rank_of(face) in FACE_DOWN_RANKS:
                    square[rest % 9] = [*square[rest % 9], card | DOWN | seat << SEAT_SHIFT]
                else:
                    square[rest % 9] = [*square[rest % 9], card]
            else:
                state.piles["discards"].append(Card(card))
            state.turn = (seat + 1) % self.nplayers
            self._begin_turn(state, forced)
        elif action == DRAW:
            self._draw(state, forced, announce=False)
        elif action == DECLARE:
            self._end_deal(state, seat, forced)
        elif action == ASK:
            state.asker = seat
            state.turn = (seat + 2) % 4
            state.phase = ANSWER
        else:
            asker = state.asker
            state.turn = asker
            state.asker = -1
            if action == YES:
                if forced is not None:
                    forced.append(Move.act("declare", seat=asker))
                self._end_deal(state, asker, forced)
            else:
                self._draw(state, forced, announce=True)

    # -- moves: the friendly side of actions ------------------------------------------------

    def action_to_move(self, state: LeopardState, action: int) -> Move:
        # Actions mean the same move in every state: each is built once (search turns
        # thousands of actions into moves a second).
        known = _ACTION_MOVES.get(action) if type(action) is int else None
        if known is None:
            known = _action_move(action)
            _ACTION_MOVES[action] = known
        return known

    def move_to_action(self, state: LeopardState, move: Move) -> int:
        """The integer action of ``move``; raises :class:`IllegalMove` if it is malformed."""
        if not move.is_action:
            raise IllegalMove(
                move,
                "Leopard has no pile-to-pile moves: play(card=..,square=..,position=..), "
                "discard(card=..), declare, draw, ask or answer(yes=true|false)",
            )
        args = dict(move.args)
        expected = {
            "play": {"card", "square", "position"},
            "discard": {"card"},
            "answer": {"yes"},
        }.get(str(move.action), set())
        if move.action not in PLAYER_ACTIONS:
            raise IllegalMove(
                move,
                f"leopard has no move {move.action!r}: its moves are " + ", ".join(PLAYER_ACTIONS),
            )
        if set(args) != expected:
            wanted = ", ".join(sorted(expected)) or "no arguments"
            raise IllegalMove(move, f"{move.action} takes {wanted}")
        if move.action == "declare":
            return DECLARE
        if move.action == "ask":
            return ASK
        if move.action == "draw":
            return DRAW
        if move.action == "answer":
            if not isinstance(args["yes"], bool):
                raise IllegalMove(move, "answer takes yes=true or yes=false")
            return YES if args["yes"] else NO
        try:
            face = _face(str(args["card"]))
        except CardError as error:
            raise IllegalMove(move, str(error)) from None
        if move.action == "discard":
            return DISCARD + face
        square, position = args["square"], args["position"]
        if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < self.sides:
            raise IllegalMove(
                move, f"square {square} does not exist: squares are 0..{self.sides - 1}"
            )
        if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= 9:
            raise IllegalMove(move, f"position {position} does not exist: positions are 1..9")
        return face * 27 + square * 9 + position - 1

    def candidate_moves(self, state: LeopardState) -> list[Move]:
        return [_action_move(action) for action in self._actions(state)]

    def perform(self, state: LeopardState, move: Move) -> tuple[LeopardState, list[Move]]:
        after = state.copy()
        forced: list[Move] = []
        self._act(after, self.move_to_action(state, move), forced)
        return after, forced

    def apply(self, state: LeopardState, move: Move) -> tuple[LeopardState, list[Move]]:
        action = self.move_to_action(state, move)
        self._check(state, move, action)
        return self.perform(state, move)

    def _check(self, state: LeopardState, move: Move, action: int) -> None:
        """Raise :class:`IllegalMove` saying why, unless ``action`` is legal in ``state``."""
        seat, phase = state.turn, state.phase
        value = square_value(state.squares[seat % self.sides])
        if phase == OVER:
            raise IllegalMove(move, "the match is over")
        if phase == ANSWER:
            if action not in (YES, NO):
                raise IllegalMove(
                    move,
                    f"seat {seat} must first answer seat {state.asker}'s question: "
                    "answer(yes=true) or answer(yes=false)",
                )
            return
        if action in (YES, NO):
            raise IllegalMove(move, "nobody has asked a question")
        if action == ASK and self.nplayers != 4:
            raise IllegalMove(move, "only a player of the four-player game asks his partner")
        if phase == START:
            if action < DECLARE:
                raise IllegalMove(
                    move,
                    f"seat {seat}'s square is worth {value}, so he first says whether he "
                    "declares: declare, or draw to go on"
                    + (" (or ask his partner)" if self.nplayers == 4 else ""),
                )
            return
        # The play phase: the card has been drawn.
        if action in (DECLARE, ASK):
            raise IllegalMove(
                move,
                f"{move.action} only at the start of a turn, before drawing, with a square "
                "worth 5 or more",
            )
        if action == DRAW:
            raise IllegalMove(move, "the card of this turn has been drawn: play or discard one")
        face = action // 27 if action < DISCARD else action - DISCARD
        text = _FACE_TEXT[face]
        if not any(card % 52 == face for card in state.hands[seat]):
            raise IllegalMove(move, f"{text} is not in seat {seat}'s hand")
        if action >= DISCARD:
            return
        rank = rank_of(face)
        square, index = action % 27 // 9, action % 9
        own = seat % self.sides
        cell = state.squares[square][index]
        if rank <= NINE and index != position_index(rank):
            raise IllegalMove(
                move, f"{text} goes only on the position of its rank, {Rank(rank).letter}"
            )
        if rank >= TEN and rank != JACK and square != own:
            kind = {TEN: "a ten", QUEEN: "a queen", KING: "a king"}[rank]
            raise IllegalMove(move, f"{kind} goes only into one's own square ({own})")
        if rank <= TEN and not _vacant(cell):
            raise IllegalMove(
                move,
                f"position {index + 1} of square {square} is taken by {Card(cell[-1])}: "
                "only a vacant position takes it (empty, or under a face-down jack or queen)",
            )

    def parse_text(self, state: LeopardState, text: str) -> Move | None:
        """The short notation: ``7h 1`` (a seven onto square 1), ``Th 0 5``, ``d Qs``,
        ``declare``, ``draw``, ``ask``, ``yes``, ``no`` (docs/notation.md)."""
        words = text.replace(",", " ").split()
        if not words or "(" in text or text.strip().startswith("{"):
            return None
        head = words[0].lower()
        if len(words) == 1 and head in ("declare", "ask", "draw"):
            return Move.act(head)
        if len(words) == 1 and head in ("yes", "no"):
            return Move.act("answer", yes=head == "yes")
        if head in ("d", "discard") and len(words) == 2:
            return Move.act("discard", card=str(Card.parse(words[1])))
        try:
            card = Card.parse(words[0])
        except CardError:
            return None
        if not 2 <= len(words) <= 3 or not words[1].isdigit():
            return None
        if len(words) == 3:
            spot = words[2].upper()
            position = 1 if spot == "A" else int(spot) if spot.isdigit() else 0
        elif card.rank <= NINE:
            position = int(card.rank)  # a pip card goes on the position of its rank
        else:
            return None
        return Move.act("play", card=str(card), square=int(words[1]), position=position)

    # -- the end -----------------------------------------------------------------------------

    def finished(self, state: LeopardState) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals = state.totals
        top = max(totals)
        deals = len(state.history)
        shown = "-".join(map(str, totals))
        if totals.count(top) > 1:
            return Outcome(
                Result.DRAW, f"equal totals {shown} after {deals} deal(s)", scores=totals
            )
        winner = totals.index(top)
        if self.nplayers == 4:  # a side of two seats
            return Outcome(
                Result.WON,
                f"{self.side_name(winner)} won {shown} after {deals} deal(s)",
                winner=winner,
                scores=totals,
            )
        # The winning seat as data too, for a page to name it (Outcome.naming).
        return Outcome.naming(
            Result.WON,
            f"{{0}} won {shown} after {deals} deal(s)",
            [winner],
            winner=winner,
            scores=totals,
        )

    def key(self, state: LeopardState) -> tuple[int, int, str]:
        # Every turn draws from the stock or ends the deal, so no position can come back: the
        # deal, the stock's size and the phase tell the positions of one game apart.
        return (state.deal_index, len(state.stock), state.phase)

    def is_terminal(self, state: LeopardState) -> bool:
        return state.phase == OVER

    def returns(self, state: LeopardState) -> list[float]:
        """Each seat's margin: its side's total minus the best other side's total."""
        totals = state.totals
        margins = []
        for side, total in enumerate(totals):
            others = [other for i, other in enumerate(totals) if i != side]
            margins.append(float(total - max(others)))
        return [margins[seat % self.sides] for seat in range(self.nplayers)]

    # -- heuristics for bots -----------------------------------------------------------------

    #: A point of margin (evaluate) is about a third of a step toward winning the deal.
    value_scale = 3.0

    def information_key(self, state: LeopardState, observer: int) -> Hashable:
        """What ``observer`` knows, as a tuple (quicker than the view's JSON): the common parts,
        the discards, every square with the card of a face-down layer only if ``observer`` laid
        it, the stock's and hands' sizes and his own hand as a set (cards by face: the view does
        not tell the two packs apart)."""
        hidden = ~(DOWN - 1)
        squares = tuple(
            tuple(
                tuple(
                    layer % 52
                    if layer < DOWN
                    else layer & hidden | layer % 52
                    if layer >> SEAT_SHIFT == observer
                    else layer & hidden
                    for layer in cell
                )
                for cell in square
            )
            for square in state.squares
        )
        return (
            state.turn,
            state.phase,
            state.asker,
            state.dealer,
            state.deal_index,
            state.totals,
            state.history,
            state.declarers,
            len(state.stock),
            tuple(len(hand) for hand in state.hands),
            tuple(sorted(card % 52 for card in state.hands[observer])),
            tuple(card % 52 for card in state.piles["discards"]),
            squares,
        )

    def deals_left(self, state: LeopardState) -> int:
        """About how many deals the match has left after the current one (after the deal just
        ended, once the deal is over): 0 when the match ends with it."""
        over = state.phase == OVER
        if over and self.match_over(state):
            return 0
        played = len(state.history) + (0 if over else 1)
        deals = self.options["deals"]
        if deals != "off":
            return max(int(deals) - played, 1 if over else 0)
        # First to a target: a deal scores about six points.
        top = max(state.totals)
        return max(1 if over else 0, math.ceil((int(self.options["target"]) - top) / 6))

    def search_reward(self, state: LeopardState, seat: int) -> float:
        """The match's result once it is decided (won 1, drawn 0.5, lost 0, the margin only
        to break ties); else the margin as a chance of winning, less sure the more deals are
        left to play (search states end with the deal)."""
        left = self.deals_left(state)
        if state.phase == OVER and left == 0:
            return super().search_reward(state, seat)
        return logistic(self.evaluate(state, seat) / (self.value_scale * math.sqrt(1 + left)))

    def promise(self, cells: list[list[int]]) -> float:
        """What a square's unfinished lines promise: lines with two face-up cards of one suit
        (or colour) and a third position still vacant."""
        suits = [_TOP_SUIT[cell[-1]] if cell else -1 for cell in cells]
        total = 0.0
        for a, b, c in LINES:
            x, y, z = suits[a], suits[b], suits[c]
            known = [s for s in (x, y, z) if s >= 0]
            if len(known) != 2:
                continue
            if known[0] == known[1]:
                total += 0.6
            elif _RED_SUIT[known[0]] == _RED_SUIT[known[1]]:
                total += 0.25
        return total

    def search_rewards(self, state: LeopardState) -> list[float]:
        left = self.deals_left(state)
        if state.phase == OVER and left == 0:
            return super().search_rewards(state)
        worth = self._worth(state)
        scale = self.value_scale * math.sqrt(1 + left)
        return [
            logistic(self._margin(worth, seat % self.sides) / scale)
            for seat in range(self.nplayers)
        ]

    def _worth(self, state: LeopardState) -> list[float]:
        """Each side's total plus its square's value and promise (worth less as the stock runs
        out)."""
        if state.phase == OVER:
            return [float(total) for total in state.totals]
        weight = min(1.0, len(state.stock) / 30)
        return [
            total + square_value(square) + weight * self.promise(square)
            for total, square in zip(state.totals, state.squares, strict=True)
        ]

    @staticmethod
    def _margin(worth: list[float], side: int) -> float:
        return worth[side] - max(w for i, w in enumerate(worth) if i != side)

    def evaluate(self, state: LeopardState, seat: int) -> float:
        """Totals plus each square's value and promise (worth less as the stock runs out);
        the seat's side minus the best other side."""
        if state.phase == OVER:
            return self.returns(state)[seat]
        return self._margin(self._worth(state), seat % self.sides)

    def rollout_action(self, state: LeopardState, rng: random.Random) -> int:
        """A cheap playout policy: declare a square worth 7 or more (or 5 near the end), answer
        yes to 6; else the play that gains most in one's own square or takes most from a rival's
        (a random one among equals), or a random discard (:meth:`rollout_choices`)."""
        choices = self.rollout_choices(state)
        if state.phase != PLAY:
            return choices[0]
        return choices[rng.randrange(len(choices))]

    def rollout_choices(self, state: LeopardState) -> list[int]:
        """The playout policy's choices, one taken at random (:meth:`rollout_action`): out of
        the play phase the one action; else the plays that gain most in one's own square or
        take most from a rival's (an entry per card of the hand that makes it), else a discard
        per card of the hand. The compiled core's policy must list the same (tests)."""
        phase = state.phase
        seat = state.turn
        if phase != PLAY:
            # Declare only into a deal won: the declarer's points above every rival's square.
            declarer = state.asker if phase == ANSWER else seat
            side = declarer % self.sides
            points = self.deal_points(state, declarer)
            won = points[side] > max(p for i, p in enumerate(points) if i != side)
            value = square_value(state.squares[side])
            if phase == ANSWER:
                return [YES if won and (value >= 6 or len(state.stock) < 8) else NO]
            return [DECLARE if won and (value >= 7 or len(state.stock) < 8) else DRAW]
        own = seat % self.sides
        squares = state.squares
        hand = state.hands[seat]
        best = 0
        choices: list[int] = []
        own_suits = [_TOP_SUIT[cell[-1]] if cell else -1 for cell in squares[own]]
        for card in hand:
            face = card % 52
            rank = rank_of(face)
            suit = face // 13
            if rank <= TEN or rank == KING:
                indexes = (position_index(rank),) if rank <= NINE else range(9)
                for index in indexes:
                    cell = squares[own][index]
                    if rank <= TEN and cell and cell[-1] < DOWN:
                        continue
                    gain = 0
                    for a, b, c in LINES_AT[index]:
                        old = _line_score(own_suits[a], own_suits[b], own_suits[c])
                        saved = own_suits[index]
                        own_suits[index] = suit
                        gain += _line_score(own_suits[a], own_suits[b], own_suits[c]) - old
                        own_suits[index] = saved
                    # Building on an empty position is worth a little even without a line.
                    gain = 2 * gain + (1 if not cell and rank <= NINE else 0)
                    if gain > best:
                        best, choices = gain, [face * 27 + own * 9 + index]
                    elif gain == best and gain > 0:
                        choices.append(face * 27 + own * 9 + index)
            elif rank == JACK:
                for other in range(self.sides):
                    if other == own:
                        continue
                    suits = [_TOP_SUIT[cell[-1]] if cell else -1 for cell in squares[other]]
                    for index in range(9):
                        if suits[index] < 0:
                            continue
                        loss = sum(
                            _line_score(suits[a], suits[b], suits[c]) for a, b, c in LINES_AT[index]
                        )
                        if 2 * loss > best:
                            best, choices = 2 * loss, [face * 27 + other * 9 + index]
        if choices:
            return choices
        return [DISCARD + card % 52 for card in hand]

    #: Search's playout policies (:meth:`playout_action`), the default first: ``greedy``
    #: (:meth:`playout_choices`) or ``policy`` (:meth:`rollout_choices`); docs/bots.md,
    #: "Measurements".
    playout_policies: ClassVar[tuple[str, ...]] = ("greedy", "policy")

    def playout_action(
        self, state: LeopardState, rng: random.Random, policy: str | None = None
    ) -> int:
        """Search's playout move: one of :meth:`playout_choices` at random (``policy``
        ``greedy``, the default) or the cheap :meth:`rollout_action` (``policy``)."""
        if (policy or self.playout_policies[0]) == "policy":
            return self.rollout_action(state, rng)
        choices = self.playout_choices(state)
        return choices[0] if len(choices) == 1 else choices[rng.randrange(len(choices))]

    def playout_choices(self, state: LeopardState) -> list[int]:
        """The greedy playout policy's choices: out of the play phase the playout policy's one
        action (:meth:`rollout_choices`); else the legal plays and discards that leave the
        mover's side the best worth margin one ply ahead, as the ``greedy`` bot judges: each
        side's square value plus its promise weighted by ``min(1, stock / 30)``, against the
        best rival's (counted in exact integers, 600 a point). Of those, the ones the playout
        policy names too, if any, else all of them, in the order of the legal actions. The
        compiled core's policy must list the same (tests)."""
        cheap = self.rollout_choices(state)
        if state.phase != PLAY:
            return cheap
        weight = min(len(state.stock), 30)

        def worth(suits: list[int]) -> int:
            total = 0
            for a, b, c in LINES:
                known = [s for s in (suits[a], suits[b], suits[c]) if s >= 0]
                if len(known) == 3:
                    total += 600 * _line_score(suits[a], suits[b], suits[c])
                elif len(known) == 2:
                    if known[0] == known[1]:
                        total += 12 * weight
                    elif _RED_SUIT[known[0]] == _RED_SUIT[known[1]]:
                        total += 5 * weight
            return total

        suits = [
            [_TOP_SUIT[cell[-1]] if cell else -1 for cell in square] for square in state.squares
        ]
        own = state.turn % self.sides
        scores: dict[int, int] = {}
        for action in self.legal_actions(state):
            after = [list(square) for square in suits]
            if action < DISCARD:
                face, cell = divmod(action, 27)
                side, index = divmod(cell, 9)
                rank = rank_of(face)
                after[side][index] = -1 if rank in (JACK, QUEEN) else face // 13
            values = [worth(square) for square in after]
            scores[action] = values[own] - max(v for i, v in enumerate(values) if i != own)
        best = max(scores.values())
        ties = [action for action, score in scores.items() if score == best]
        preferred = [action for action in ties if action in cheap]
        return preferred or ties

    # -- positions and views -----------------------------------------------------------------

    def _layer_json(self, layer: int, observer: Observer | None) -> object:
        """A layer of a square as ``observer`` sees it (None: the exact position)."""
        if layer < DOWN:
            return _TEXT[layer]
        by = layer >> SEAT_SHIFT
        card = str(Card(layer & (DOWN - 1))) if observer is None or observer == by else None
        return {"down": card, "by": by}

    def _common_json(self, state: LeopardState) -> JSON:
        return {
            "players": self.nplayers,
            "dealer": state.dealer,
            "turn": state.turn,
            "phase": state.phase,
            "asker": state.asker if state.asker >= 0 else None,
            "deal_index": state.deal_index,
            "totals": list(state.totals),
            "history": [list(points) for points in state.history],
            "declarers": [d if d >= 0 else None for d in state.declarers],
        }

    def _squares_json(
        self, state: LeopardState, observer: Observer | None
    ) -> list[list[list[object]]]:
        return [
            [[self._layer_json(layer, observer) for layer in cell] for cell in square]
            for square in state.squares
        ]

    def extra_json(self, state: LeopardState) -> JSON:
        data = self._common_json(state)
        data["stock"] = [_TEXT[card] for card in state.stock]
        data["hands"] = [[_TEXT[card] for card in hand] for hand in state.hands]
        data["squares"] = self._squares_json(state, None)
        if state.single_deal:
            data["single_deal"] = True
        return data

    def view_parts(self, state: LeopardState, observer: Observer) -> JSON:
        """What ``observer`` sees: a seat its own hand (a spectator none), the sizes of every
        hand and of the stock, every square with what lies under each card, face-down cards
        as ``{"down": null, "by": S}`` unless ``observer`` is seat S or the match is over
        (then every one is ``{"down": CARD, "by": S}``), and the discards."""
        data: JSON = {
            "version": 1,
            "game": self.name,
            "options": dict(self.options),
            "piles": self.view_piles(state, observer),
            **self._common_json(state),
        }
        data["stock"] = len(state.stock)
        data["hands"] = [
            [_TEXT[card] for card in hand] if index == observer else None
            for index, hand in enumerate(state.hands)
        ]
        data["hand_sizes"] = [len(hand) for hand in state.hands]
        # Once the match is over every face-down card of the last deal is shown to all, with
        # who laid it (ruling 7 of docs/rules/leopard.md): nothing is left to hide. A state
        # stopped at the end of a deal the match goes on after (single_deal, deal_end) still
        # hides them: they stay unknown to the others, as they were during the deal.
        revealed = state.phase == OVER and self.match_over(state)
        data["squares"] = self._squares_json(state, None if revealed else observer)
        return data

    def deal_end(
        self, before: LeopardState, move: Move, after: LeopardState
    ) -> LeopardState | None:
        """The squares as scored, when ``move`` ends a deal and the match goes on: ``before``
        with the move made and the play stopped at the deal's end (``single_deal``), so that
        the next deal is not dealt; its views hide the face-down cards as during the deal."""
        if len(after.history) == len(before.history) or after.phase == OVER:
            return None
        ended = before.copy()
        ended.single_deal = True
        ended, _ = self.apply(ended, move)
        return ended

    def move_view(self, state: LeopardState, move: Move, mover: int, observer: Observer) -> JSON:
        """A jack or a queen played lies face down: only the seat who laid it knows which card
        it is (its ``card`` is ``null`` for everybody else, as in the squares of the view).
        Every other card a move names is public, even once the view no longer shows it (a
        discard covered, squares cleared at the end of a deal): the engine's default, which
        hides such cards, is not asked."""
        self.check_observer(observer)
        data: JSON = dict(move.to_json())
        card = move.arg("card")
        hidden = move.action == "play" and isinstance(card, str) and _face(card) % 13 in (10, 11)
        if hidden and observer != mover:
            data["card"] = None
        return data

    def from_json_parts(
        self, piles: dict[str, list[Card]], down: dict[str, int], data: dict[str, Any]
    ) -> LeopardState:
        used: set[int] = set(piles["discards"])
        if down["discards"]:
            raise PositionError("the discards lie face up: list them under 'up'")

        def card(text: object, where: str) -> int:
            if not isinstance(text, str):
                raise PositionError(f'{where}: {text!r} is not a card like "Th"')
            try:
                face = _face(text)
            except CardError as error:
                raise PositionError(f"{where}: {error}") from None
            for value in (face, face + 52):
                if value not in used:
                    used.add(value)
                    return value
            raise PositionError(f"card {text} appears more than twice (leopard has two packs)")

        def number(name: str, low: int, high: int, default: int | None = None) -> int:
            value = data.get(name, default)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise PositionError(f"'{name}' must be a whole number from {low} to {high}")
            return value

        players, sides = self.nplayers, self.sides
        if data.get("players", players) != players:
            raise PositionError(
                f"'players' says {data.get('players')!r} but the option is {players}"
            )
        stock = data.get("stock", [])
        hands = data.get("hands")
        squares = data.get("squares")
        if not isinstance(stock, list):
            raise PositionError("'stock' is the list of the stock's cards, bottom to top")
        if not isinstance(hands, list) or len(hands) != players:
            raise PositionError(f"'hands' is a list of {players} hands (lists of cards)")
        if not isinstance(squares, list) or len(squares) != sides:
            raise PositionError(f"'squares' is a list of {sides} squares of 9 positions")
        state = LeopardState(piles=piles, down=down)
        state.stock = [card(text, "stock") for text in stock]
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) > HAND + 1:
                raise PositionError(f"hand {seat} must be a list of at most 9 cards")
            state.hands.append([card(text, f"hand {seat}") for text in hand])
        for side, square in enumerate(squares):
            if not isinstance(square, list) or len(square) != 9:
                raise PositionError(f"square {side} must be a list of 9 positions")
            cells: list[list[int]] = []
            for index, cell in enumerate(square):
                where = f"square {side} position {index + 1}"
                if not isinstance(cell, list):
                    raise PositionError(f"{where}: a list of layers, bottom to top")
                layers = []
                for layer in cell:
                    if isinstance(layer, Mapping):
                        by = layer.get("by")
                        if (
                            set(layer) != {"down", "by"}
                            or isinstance(by, bool)
                            or not (isinstance(by, int) and 0 <= by < players)
                        ):
                            raise PositionError(
                                f'{where}: a face-down card is {{"down": CARD, "by": SEAT}}'
                            )
                        value = card(layer["down"], where)
                        rank = rank_of(value)
                        if rank not in FACE_DOWN_RANKS or (rank == QUEEN and by % sides != side):
                            raise PositionError(
                                f"{where}: only jacks (anywhere) and queens (in one's own "
                                "square) lie face down"
                            )
                        layers.append(value | DOWN | by << SEAT_SHIFT)
                    else:
                        value = card(layer, where)
                        if rank_of(value) in FACE_DOWN_RANKS:
                            raise PositionError(f"{where}: jacks and queens lie face down")
                        layers.append(value)
                cells.append(layers)
            state.squares.append(cells)
        if len(used) != CARDS:
            raise PositionError(f"a leopard position holds all 104 cards once, not {len(used)}")
        state.dealer = number("dealer", 0, players - 1)
        state.turn = number("turn", 0, players - 1)
        state.deal_index = number("deal_index", 0, 10**6, 0)
        phase = data.get("phase", PLAY)
        if phase not in PHASES:
            raise PositionError(f"'phase' is one of {', '.join(PHASES)}, not {phase!r}")
        state.phase = Phase(phase)
        asker = data.get("asker")
        state.asker = -1 if asker is None else number("asker", 0, players - 1)
        if (state.phase == ANSWER) != (state.asker >= 0) or (
            state.asker >= 0 and state.turn != (state.asker + 2) % 4
        ):
            raise PositionError("'asker' is the seat whose partner must answer, in phase answer")
        if state.phase == START and square_value(state.squares[state.turn % sides]) < 5:
            raise PositionError("phase start needs a square worth 5 or more (else he draws)")
        for seat, hand in enumerate(state.hands):
            # Eight cards between turns, nine while the seat to move plays after drawing.
            most = HAND + 1 if (seat, state.phase) == (state.turn, PLAY) else HAND
            if len(hand) > most:
                raise PositionError(
                    f"hand {seat} holds {len(hand)} cards, more than the {most} it may hold now"
                )
        if state.phase == PLAY and not state.hands[state.turn]:
            raise PositionError("the seat to move plays from an empty hand")
        try:
            state.history = tuple(
                tuple(int(p) for p in points) for points in data.get("history", [])
            )
            state.totals = tuple(int(t) for t in data.get("totals", [0] * sides))
            state.declarers = tuple(-1 if d is None else int(d) for d in data.get("declarers", []))
        except (TypeError, ValueError):
            raise PositionError("'totals', 'history' and 'declarers' hold whole numbers") from None
        if len(state.totals) != sides or any(len(p) != sides for p in state.history):
            raise PositionError(f"'totals' and each deal of 'history' hold {sides} numbers")
        if len(state.declarers) != len(state.history):
            raise PositionError("'declarers' has one entry per deal of 'history'")
        deal = data.get("deal")
        state.deal_number = deal if isinstance(deal, int) and not isinstance(deal, bool) else None
        state.single_deal = data.get("single_deal", False) is True
        return state

    # -- search in the compiled core ------------------------------------------------------------

    #: ISMCTS iterations a move in the compiled core by default (docs/bots.md, "Measurements":
    #: with the greedy playouts, about 0.4 CPU s a move with two players on the development
    #: machine; 40,000 with the cheap playouts cost 0.34 s).
    native_iterations = 16000

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
        """ISMCTS for the view's seat in the compiled core (:mod:`patience.bots.leopard_core`:
        the loop of :class:`~patience.bots.ismcts.IsmctsBot` on this game's rules): the root's
        moves as (move, visits, summed reward, bias) and the iterations run (``iterations``
        None: :attr:`native_iterations`); None when the core is not built. The core gets one
        world dealt from the view (:meth:`sample_state`) and deals the cards the seat cannot
        see anew every iteration, so it knows no more than the view. ``costs`` (the bot's
        weight of :meth:`move_cost`) has nothing to weigh: Leopard charges no move.
        ``playout`` names the playout policy (:meth:`playout_action`; None:
        the first of :attr:`playout_policies`)."""
        # Imported here: the glue module imports this one for the state's parts.
        from ..bots import leopard_core

        if not leopard_core.available():
            return None
        world = self.sample_state(view, rng)
        edges, done, _ = leopard_core.search(
            self,
            world,
            int(view["seat"]),
            iterations=self.native_iterations if iterations is None else iterations,
            seconds=seconds,
            exploration=exploration,
            bias=bias,
            rollout_depth=rollout_depth,
            seed=rng.getrandbits(64),
            greedy_playouts=(playout or self.playout_policies[0]) == "greedy",
        )
        return done, [
            (self.action_to_move(world, action), visits, total, edge_bias)
            for action, visits, total, edge_bias in edges
        ]

    # -- worlds for search: a full state from one seat's view ---------------------------------

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> LeopardState:
        """A state consistent with ``view``: the unseen cards (other hands, the stock, the
        face-down cards others laid) dealt at random; a face-down card laid in another side's
        square is a jack, one in the layer's own square a jack or a queen. The state ends with
        the deal (``single_deal``): the next deal's cards are unknown to everyone. A spectator's
        view (``seat`` null) names no hand: every hand is dealt."""
        seat = None if view.get("seat") is None else int(view["seat"])
        used: set[int] = set()

        def take(text: str) -> int:
            face = _face(text)
            value = face if face not in used else face + 52
            used.add(value)
            return value

        discards = [Card(take(text)) for text in view["piles"]["discards"]["up"]]
        own_hand = [] if seat is None else [take(text) for text in view["hands"][seat]]
        squares: list[list[list[int]]] = []
        unknown: list[tuple[list[int], int, int]] = []  # (cell, layer index, laid by)
        for square in view["squares"]:
            cells = []
            for cell in square:
                layers: list[int] = []
                for layer in cell:
                    if isinstance(layer, str):
                        layers.append(take(layer))
                    elif layer["down"] is not None:
                        layers.append(take(layer["down"]) | DOWN | int(layer["by"]) << SEAT_SHIFT)
                    else:
                        unknown.append((layers, len(layers), int(layer["by"])))
                        layers.append(-1)
                cells.append(layers)
            squares.append(cells)
        unseen = [value for value in range(CARDS) if value not in used]
        rng.shuffle(unseen)
        # Slots that must hold a jack (laid in another side's square) are filled first, so the
        # jacks and queens left always suffice for the rest.
        unknown.sort(key=lambda slot: self._must_be_jack(squares, slot))
        for cells_slot in reversed(unknown):
            layers, index, by = cells_slot
            allowed = (JACK,) if self._must_be_jack(squares, cells_slot) else FACE_DOWN_RANKS
            for i, value in enumerate(unseen):
                if rank_of(value) in allowed:
                    layers[index] = unseen.pop(i) | DOWN | by << SEAT_SHIFT
                    break
            else:
                raise PositionError("the view is impossible: too few jacks and queens unseen")
        hands: list[list[int]] = []
        for index, size in enumerate(view["hand_sizes"]):
            if index == seat:
                hands.append(own_hand)
            else:
                hands.append(unseen[:size])
                del unseen[:size]
        if len(unseen) != view["stock"]:
            raise PositionError("the view's card counts do not add up to 104")
        state = LeopardState(piles={"discards": discards}, down={"discards": 0})
        state.stock = unseen
        state.hands = hands
        state.squares = squares
        state.dealer = int(view["dealer"])
        state.turn = int(view["turn"])
        state.phase = Phase(view["phase"])
        state.asker = -1 if view["asker"] is None else int(view["asker"])
        state.deal_index = int(view["deal_index"])
        state.totals = tuple(view["totals"])
        state.history = tuple(tuple(points) for points in view["history"])
        state.declarers = tuple(-1 if d is None else d for d in view["declarers"])
        state.single_deal = True
        return state

    def _must_be_jack(
        self, squares: list[list[list[int]]], slot: tuple[list[int], int, int]
    ) -> bool:
        layers, _, by = slot
        for side, square in enumerate(squares):
            if any(cell is layers for cell in square):
                return side != by % self.sides
        return True  # pragma: no cover


def _action_move(action: int) -> Move:
    """The move that Leopard's integer ``action`` stands for (the same in every state)."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise IllegalMove(None, f"action {action!r} is not a Leopard action (0..{NUM_ACTIONS - 1})")
    if 0 <= action < DISCARD:
        rest = action % 27
        return Move.act(
            "play", card=_FACE_TEXT[action // 27], square=rest // 9, position=rest % 9 + 1
        )
    if DISCARD <= action < DECLARE:
        return Move.act("discard", card=_FACE_TEXT[action - DISCARD])
    if action in (YES, NO):
        return Move.act("answer", yes=action == YES)
    names = {DECLARE: "declare", ASK: "ask", DRAW: "draw"}
    if action in names:
        return Move.act(names[action])
    raise IllegalMove(None, f"action {action} is not a Leopard action (0..{NUM_ACTIONS - 1})")
