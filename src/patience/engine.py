"""What every game shares: states made of piles, the rules interface, outcomes, and :class:`Game`.

A game module defines a :class:`Rules` subclass: how to deal, which moves are legal, how a move
changes the state (with the forced moves it causes), and when the game is over. :class:`Game`
wraps rules and a state with what every game needs the same way: a move stack with undo and redo,
the "no position repeated" rule of RULES.md, outcomes, positions and views as JSON.

The engine knows nothing of the command line, the web or storage.
"""

from __future__ import annotations

import abc
import copy
import enum
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import (
    Any,
    ClassVar,
    Final,
    Generic,
    NamedTuple,
    NotRequired,
    Self,
    TypeAlias,
    TypedDict,
    TypeVar,
    cast,
)

from . import jsontext
from .cards import Card, CardError, packs
from .deals import check_deal, random_deal
from .moves import Move, MoveSyntaxError
from .options import Option, OptionValue, format_options, validate

__all__ = [
    "POSITION_VERSION",
    "SPECTATOR",
    "Game",
    "IllegalMove",
    "Observer",
    "ObserverError",
    "Outcome",
    "OutcomeJSON",
    "PileJSON",
    "PlayedMove",
    "PositionError",
    "PositionJSON",
    "Result",
    "Rules",
    "Spectator",
    "State",
    "ViewJSON",
    "logistic",
]

POSITION_VERSION = 1

#: A JSON object whose keys depend on the game (a game's parts beside the piles, a view
#: before :meth:`Game.view` completes it).
JSON = dict[str, Any]


class Result(enum.StrEnum):
    """How a game stands (an :class:`Outcome`'s ``result``). A ``str``: it compares equal to,
    and is written in JSON as, its value (``"won"``)."""

    ONGOING = "ongoing"
    WON = "won"
    LOST = "lost"
    DRAW = "draw"


class PileJSON(TypedDict):
    """A pile in a position or view: its face-down then face-up cards, bottom to top (``null``
    for a card the observer may not know, in a view)."""

    down: list[str | None]
    up: list[str | None]


class PositionJSON(TypedDict):
    """The keys every position JSON has (docs/formats.md, "Position JSON"). Each game adds its
    own parts beside ``piles`` (docs/rules/): a TypedDict of Python 3.11 cannot say "and other
    keys", so those are read as from any mapping."""

    version: int
    game: str
    options: dict[str, OptionValue]
    deal: int | None
    piles: dict[str, PileJSON]


class OutcomeJSON(TypedDict):
    """An outcome as JSON (docs/formats.md, "Outcome JSON"): absent parts are left out."""

    result: Result
    reason: NotRequired[str]
    winner: NotRequired[int]
    scores: NotRequired[list[int]]
    score: NotRequired[int]
    reason_template: NotRequired[str]
    reason_seats: NotRequired[list[int]]


class ViewJSON(TypedDict):
    """The keys every view JSON has (docs/formats.md, "View JSON"); games' own parts ride
    along as in :class:`PositionJSON`."""

    version: int
    game: str
    options: dict[str, OptionValue]
    piles: dict[str, PileJSON]
    seat: int | None
    legal_moves: list[dict[str, Any]]
    outcome: OutcomeJSON


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why. The state is unchanged.

    A reason may point to another move (``instead``: "the stock is empty: turn the waste over
    with recycle"), with ``fact`` the reason without that pointer ("the stock is empty"): the
    rules cannot tell whether that move is allowed in the game (the repetition rule is the
    game's), so :meth:`Game.push` says why it is not when it is not.
    """

    def __init__(
        self,
        move: Move | str | None,
        reason: str,
        *,
        instead: Move | None = None,
        fact: str | None = None,
    ) -> None:
        self.move = move
        self.reason = reason
        self.instead = instead
        self.fact = fact
        prefix = f"illegal move {move}: " if move is not None else ""
        super().__init__(prefix + reason)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (raised in a worker process) with its parts, not only its message.
        return (
            _illegal_move,
            (self.__class__, self.move, self.reason, self.instead, self.fact),
        )


def _illegal_move(
    cls: type[IllegalMove],
    move: Move | str | None,
    reason: str,
    instead: Move | None,
    fact: str | None,
) -> IllegalMove:
    return cls(move, reason, instead=instead, fact=fact)


class PositionError(ValueError):
    """A position JSON that is malformed or impossible for its game."""


class ObserverError(ValueError):
    """An observer that is neither a seat of the game nor :data:`SPECTATOR`."""


class Spectator(enum.Enum):
    """The one observer who holds no seat: he sees what every seat sees and nothing more (no
    hand, no face-down card, no legal moves). Use :data:`SPECTATOR`, never a seat number."""

    SPECTATOR = "spectator"

    def __repr__(self) -> str:
        return "SPECTATOR"


#: The spectator observer (:class:`Spectator`): what anybody watching the table may see.
SPECTATOR: Final = Spectator.SPECTATOR

#: Who looks at a state: a seat number (0 first) or :data:`SPECTATOR`.
Observer: TypeAlias = int | Spectator

#: The parts of a view (:meth:`Game.view`) that are about the observer, not the position.
VIEW_ONLY: Final = ("seat", "legal_moves", "outcome")


@dataclass
class State:
    """The cards of a game as named piles.

    ``piles[name]`` lists a pile's cards bottom to top; its lowest ``down[name]`` cards lie face
    down. Games add their own fields (whose turn, passes used, ...) in subclasses.
    """

    piles: dict[str, list[Card]]
    down: dict[str, int]

    def copy(self) -> Self:
        """An independent copy: piles are copied, other fields are immutable values."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.piles = {name: cards[:] for name, cards in self.piles.items()}
        clone.down = dict(self.down)
        return clone

    def top(self, pile: str) -> Card | None:
        """The top card of a pile, or None if it is empty."""
        cards = self.piles[pile]
        return cards[-1] if cards else None

    def face_up(self, pile: str) -> list[Card]:
        """The face-up cards of a pile, bottom to top."""
        return self.piles[pile][self.down[pile] :]

    def up_count(self, pile: str) -> int:
        """How many face-up cards lie on a pile."""
        return len(self.piles[pile]) - self.down[pile]

    def take(self, pile: str, count: int = 1) -> list[Card]:
        """Remove and return the top ``count`` cards (face up) of a pile."""
        cards = self.piles[pile]
        taken = cards[-count:]
        del cards[-count:]
        self.down[pile] = min(self.down[pile], len(cards))
        return taken

    def turn_up_top(self, pile: str) -> Move | None:
        """Turn up the top card of a pile if it is face down; return the forced ``flip`` move."""
        cards = self.piles[pile]
        if cards and self.down[pile] == len(cards):
            self.down[pile] -= 1
            return Move.act("flip", pile=pile, card=str(cards[-1]))
        return None

    def all_cards(self) -> list[Card]:
        """Every card in the state, pile by pile (games with hands add those)."""
        return [card for cards in self.piles.values() for card in cards]


@dataclass(frozen=True)
class Outcome:
    """How a game stands: ``result`` is a :class:`Result` (``ongoing``, ``won``, ``lost`` or
    ``draw``; its text is accepted too and made a :class:`Result`).

    ``reason`` says why the game ended; ``winner`` is the winning seat of a multi-player game;
    ``scores`` holds each seat's (or side's) score where the game keeps one, and ``score`` a
    one-player game's score (Accordion's piles left). A reason that names seats is best made
    with :meth:`naming`: it keeps ``template`` and ``seats`` besides the text, so that a page
    can name the seats its own way (by their players, or counting from 1) without reading the
    text.
    """

    result: Result
    reason: str = ""
    winner: int | None = None
    scores: tuple[int, ...] | None = None
    score: int | None = None
    #: ``reason`` with ``{0}``, ``{1}``, ... where it names ``seats[0]``, ``seats[1]``, ...
    #: (empty: the reason names no seat, or was given as text only). Another way of writing
    #: the same reason: outcomes compare without it (a record keeps the text alone).
    template: str = field(default="", compare=False, repr=False)
    seats: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def naming(
        cls,
        result: Result | str,
        template: str,
        seats: Sequence[int],
        *,
        winner: int | None = None,
        scores: tuple[int, ...] | None = None,
    ) -> Outcome:
        """An outcome whose reason names seats: ``template`` with ``{0}`` for ``seats[0]``
        and so on (``"{0}'s row is worth more"``). ``reason`` reads each as the engine numbers
        seats (``seat 0``); the JSON form keeps the template and the seats as well."""
        seats = tuple(seats)
        reason = template.format(*(f"seat {seat}" for seat in seats))
        return cls(
            Result(result),
            reason,
            winner=winner,
            scores=scores,
            template=template,
            seats=seats,
        )

    def __post_init__(self) -> None:
        try:
            result = Result(self.result)
        except ValueError:
            allowed = ", ".join(Result)
            raise ValueError(
                f"an outcome's result is one of {allowed}, not {self.result!r}"
            ) from None
        object.__setattr__(self, "result", result)  # frozen: set once, here

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.result != Result.ONGOING

    def to_json(self) -> OutcomeJSON:
        """The outcome as JSON; absent parts are left out."""
        data: OutcomeJSON = {"result": self.result}
        if self.reason:
            data["reason"] = self.reason
        if self.winner is not None:
            data["winner"] = self.winner
        if self.scores is not None:
            data["scores"] = list(self.scores)
        if self.score is not None:
            data["score"] = self.score
        if self.template:
            data["reason_template"] = self.template
            data["reason_seats"] = list(self.seats)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """Read an outcome written by :meth:`to_json`."""
        scores = data.get("scores")
        return cls(
            result=Result(str(data["result"])),
            reason=str(data.get("reason", "")),
            winner=data.get("winner"),
            scores=tuple(scores) if scores is not None else None,
            score=data.get("score"),
            template=str(data.get("reason_template", "")),
            seats=tuple(data.get("reason_seats", ())),
        )


ONGOING = Outcome(Result.ONGOING)

S = TypeVar("S", bound=State)


class Rules(abc.ABC, Generic[S]):
    """The rules of one game with its options bound. Subclasses are registered by name.

    A rules object is stateless apart from its options: states are passed in and returned, so
    search code can use rules directly without a :class:`Game`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    option_specs: ClassVar[tuple[Option, ...]] = ()
    #: The pile names of this game, in the order positions list them.
    pile_names: ClassVar[tuple[str, ...]] = ()
    #: How many packs of 52 cards the game uses.
    packs: ClassVar[int] = 1
    #: How many units of :meth:`evaluate` make about one step toward winning: search turns
    #: an evaluation into a chance of winning with ``logistic(evaluate / value_scale)``.
    value_scale: ClassVar[float] = 1.0
    #: None: ISMCTS cuts playouts after a number of moves. A number: playouts end at a turn's
    #: end, after that many changes of the seat to move, for games whose turns are several
    #: moves: a cut in the middle of a turn rewards moves that only put the opponent's moves
    #: off beyond the cut (Double Solitaire's shuffles of a run between one's own piles).
    playout_turns: ClassVar[int | None] = None
    #: The ISMCTS bot's parameters this game's search plays best with (``near_equal``,
    #: ``near_bias``, ``costs``), used where the bot is not given them (docs/bots.md).
    search_defaults: ClassVar[Mapping[str, float]] = {}
    #: The names of the playout policies :meth:`playout_action` knows (the ISMCTS bot's
    #: ``playout`` parameter), the default first; none: the game has only ``rollout_action``.
    playout_policies: ClassVar[tuple[str, ...]] = ()
    #: False for games in which no position can come back (every turn draws from a stock):
    #: :class:`Game` then skips the no-repetition check and makes only the moves pushed.
    positions_can_repeat: ClassVar[bool] = True
    #: True when where a move takes every card depends only on cards shown before it, or else
    #: shows in the sizes of the piles after it (a card turned up and then played at once):
    #: a world replaying the moves then keeps track of every card once seen, which is how the
    #: hints remember a stock turned through (:func:`patience.solve.hint.remembered_view`).
    #: False (the default, and Leoni's Own, whose exiles weave through squared piles by
    #: their ranks) keeps the hints to the view of the moment.
    replay_tracks_cards: ClassVar[bool] = False
    #: True when every card passes face up before the player as it is dealt and moved, so that
    #: a player who remembers knows where each card lies whatever the view hides (Leoni's Own:
    #: dealt one card at a time face up, each exile seen as it is tried, the squared piles
    #: restacked in a known order at a redeal): the hints then know the whole position, as such
    #: a player does (:func:`patience.solve.hint.remembered_view`), and solve it.
    player_sees_every_card: ClassVar[bool] = False

    def lasting_marks(self, state: S) -> Hashable | None:
        """Counts that the moves of this game only ever change one way (cards leaving a stock
        that none go back to, cards turned face up), so that two states whose marks differ
        can never be the same position again: a search told which past positions it may not
        recreate need only those with the marks of its own. None (the default): no such
        counts are known, every past position counts."""
        return None

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        self.options: dict[str, OptionValue] = validate(
            self.option_specs, dict(options or {}), self.name
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"

    def __getstate__(self) -> dict[str, Any]:
        # The action table (:meth:`_action_table`) is rebuilt on demand: a pickled game (the
        # server's snapshots) does not carry it.
        return {key: value for key, value in self.__dict__.items() if key != "_actions"}

    @property
    def players(self) -> int:
        """The number of seats at the table (1 for the patience games)."""
        return 1

    def options_text(self) -> str:
        """The options as ``KEY=VALUE`` pairs joined by commas, in the game's order."""
        return format_options(self.option_specs, self.options)

    # -- what every game defines -----------------------------------------------------------

    @abc.abstractmethod
    def deal(self, deal: int) -> S:
        """The starting state for a deal number, dealt as RULES.md and docs/deals.md say."""

    @abc.abstractmethod
    def candidate_moves(self, state: S) -> list[Move]:
        """Every move the rules allow in ``state``, before the no-repetition rule, in a fixed
        order."""

    def is_candidate(self, state: S, move: Move) -> bool:
        """True when ``move`` is among :meth:`candidate_moves` of ``state``. A game may answer
        without listing every move (a replay asks this once a move); tests hold the two to
        the same answer."""
        return move in self.candidate_moves(state)

    @abc.abstractmethod
    def apply(self, state: S, move: Move) -> tuple[S, list[Move]]:
        """The state after ``move`` and its forced moves; ``state`` itself is not changed.

        Raises :class:`IllegalMove` with the reason when the rules do not allow ``move``.
        """

    def opening(self, state: S) -> tuple[S, list[Move]]:
        """The forced moves that follow the deal itself (Canfield's base cards going up,
        Napoleon's aces, Leoni's Own's exiles), applied to the freshly dealt ``state``. Records
        write them before the first move. Most games have none."""
        return state, []

    def start(self, deal: int) -> tuple[S, list[Move]]:
        """The state a game starts from (the deal and its forced moves) and those forced moves."""
        return self.opening(self.deal(deal))

    def perform(self, state: S, move: Move) -> tuple[S, list[Move]]:
        """Like :meth:`apply` for a move known to be one of :meth:`candidate_moves`; games may
        skip the checks here, since move generation calls it for every candidate."""
        return self.apply(state, move)

    @abc.abstractmethod
    def finished(self, state: S) -> Outcome | None:
        """The outcome if the rules end the game in ``state`` (a win, a block), else None."""

    def stuck(self, state: S) -> Outcome:
        """The outcome when no legal move is left (a one-player game is then lost)."""
        return Outcome(Result.LOST, "no legal move left")

    # -- shared behaviour that games may refine --------------------------------------------

    def current_player(self, state: S) -> int:
        """The seat to move (always 0 in a one-player game)."""
        return 0

    def key(self, state: S) -> Hashable:
        """What makes two positions the same for the no-repetition rule: every pile in order,
        face up or down. Two copies of a card count as the same card."""
        if self.packs == 1:
            return tuple((state.down[name], tuple(state.piles[name])) for name in self.pile_names)
        return tuple(
            (state.down[name], tuple(card % 52 for card in state.piles[name]))
            for name in self.pile_names
        )

    def extra_json(self, state: S) -> JSON:
        """The game's parts of the position beside ``piles`` (passes used, whose turn, ...)."""
        return {}

    @abc.abstractmethod
    def from_json_parts(self, piles: dict[str, list[Card]], down: dict[str, int], data: JSON) -> S:
        """Build a state from the piles of a position JSON and its other parts; check that the
        position is possible for this game and raise :class:`PositionError` if not."""

    # -- observation: what a seat or a spectator may know (docs/formats.md, "View JSON") ---

    def check_observer(self, observer: object) -> Observer:
        """``observer`` if it is a seat of this game (0 to ``players - 1``) or
        :data:`SPECTATOR`; else :class:`ObserverError` saying what is allowed."""
        if observer is SPECTATOR:
            return SPECTATOR
        seats = self.players
        if isinstance(observer, bool) or not isinstance(observer, int):
            raise ObserverError(
                f"an observer is a seat number (0 to {seats - 1}) or SPECTATOR, not {observer!r}"
            )
        if not 0 <= observer < seats:
            raise ObserverError(
                f"{self.name} has no seat {observer}: its seats are 0 to {seats - 1} "
                "(someone watching without a seat is SPECTATOR, not a seat number)"
            )
        return observer

    def view_piles(self, state: S, observer: Observer) -> dict[str, JSON]:
        """Piles as ``observer`` sees them: face-down cards are ``null``."""
        return {
            name: {
                "down": [None] * state.down[name],
                "up": [str(card) for card in state.face_up(name)],
            }
            for name in self.pile_names
        }

    def view_parts(self, state: S, observer: Observer) -> JSON:
        """The view of ``state`` for ``observer`` (already checked), without the parts
        :meth:`Game.view` adds. The default is the position without its deal number, the piles
        as :meth:`view_piles` gives them. Games with hidden parts beside the piles (hands, a
        stock kept apart, notes) override this and must never put into it a card that
        ``observer`` may not know; :data:`SPECTATOR` knows only what every seat knows."""
        data: JSON = dict(self.position_json(state, None))
        data.pop("deal", None)
        data["piles"] = self.view_piles(state, observer)
        return data

    def view_json(self, state: S, observer: Observer) -> JSON:
        """The position as ``observer`` (a seat or :data:`SPECTATOR`) may see it, without the
        legal moves and the outcome (:meth:`Game.view` adds those). Every card the observer may
        not know is ``null``. Raises :class:`ObserverError` for a seat the game does not have."""
        return self.view_parts(state, self.check_observer(observer))

    def move_view(self, state: S, move: Move, mover: int, observer: Observer) -> JSON:
        """``move``, just made by seat ``mover`` and leading to ``state``, as ``observer`` may
        know it: its JSON form (docs/notation.md) with every card the observer may not know
        ``null``. By default a card the move names is ``null`` to everybody but the mover unless
        the observer's view of ``state`` shows it, so that a game added later cannot leak a card
        through its moves; games whose moves lay cards face down (Leopard's jacks and queens)
        override this with their own rule."""
        self.check_observer(observer)
        data: JSON = dict(move.to_json())
        if observer == mover:
            return data
        named = {
            key: card
            for key, value in data.items()
            if key != "action" and isinstance(value, str)
            if (card := _card_text(value)) is not None
        }
        if named:  # the view is built only for a move that names a card
            shown = _strings_in(self.view_json(state, observer))
            data.update({key: None for key, card in named.items() if card not in shown})
        return data

    def deal_end(self, before: S, move: Move, after: S) -> S | None:
        """The deal's last position, when ``move`` (made from ``before``, leading to
        ``after``) ends one deal of a match of several and the match goes on: the state as
        the deal ended and was scored, before the next deal was dealt (``after`` holds the next
        deal already), for the players to look at before they go on. Its view
        (:meth:`view_json`) must hide from each observer what the deal's own views hid. None
        when the move ends no deal, or ends the game: the default, for games of one deal. A
        rules object knows nothing of who looks at it or for how long (a server's business)."""
        return None

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> S:
        """A full state consistent with ``view`` (from :meth:`Game.view` or :meth:`view_json`,
        for a seat or the spectator): the cards it does not name dealt at random by ``rng``.
        Search code (hints, ISMCTS bots) plans in such worlds, so it never sees a hidden card.

        The default shuffles the cards of the deck that the view names nowhere into its
        ``null`` pile places, which is all that most patience games hide (face-down cards,
        squared piles); games with hidden parts beside the piles (hands, a stock kept apart)
        override it. Raises :class:`PositionError` when the view hides more than its piles."""
        unseen, places = self._unseen(view)
        cards = sorted(unseen.elements())
        if len(cards) != places or any(count < 0 for count in unseen.values()):
            raise PositionError(
                f"the view of {self.name} hides {places} cards but {len(cards)} are unseen: "
                "it hides cards outside its piles, which the default sampler cannot deal"
            )
        rng.shuffle(cards)
        dealt = iter(cards)
        piles = {
            name: {
                part: [next(dealt) if card is None else card for card in pile.get(part, [])]
                for part in ("down", "up")
            }
            for name, pile in view["piles"].items()
        }
        position = {key: value for key, value in view.items() if key not in VIEW_ONLY}
        position["piles"] = piles
        return self.state_from_json(position)

    def hidden_cards_known(self, view: Mapping[str, Any]) -> bool:
        """True when the cards ``view`` hides can lie only one way, so that the view tells the
        whole position: nothing is hidden, or every card it names nowhere has the same face
        (the last card face down, or copies of one card in a game of several packs). False when
        the view hides cards outside its piles (the default sampler's count does not add up)."""
        return self.hidden_arrangements(view) == 1

    def hidden_arrangements(self, view: Mapping[str, Any]) -> int | None:
        """How many ways the cards ``view`` hides can lie (cards of the same face are one
        card): 1 when nothing is hidden or every hidden card has the same face. None when the
        view hides cards outside its piles (the default sampler's count does not add up)."""
        unseen, places = self._unseen(view)
        if sum(unseen.values()) != places or any(count < 0 for count in unseen.values()):
            return None
        ways = math.factorial(places)
        for count in unseen.values():
            ways //= math.factorial(count)
        return ways

    def _unseen(self, view: Mapping[str, Any]) -> tuple[Counter[str], int]:
        """The deck's cards that ``view`` names nowhere (by name), and its ``null`` places."""
        unseen = Counter(str(card) for card in self.deck())
        places = 0
        for pile in view["piles"].values():
            for part in ("down", "up"):
                for card in pile.get(part, []):
                    if card is None:
                        places += 1
                    else:
                        unseen[card] -= 1
        return unseen, places

    def parse_text(self, state: S, text: str) -> Move | None:
        """A move written in the game's own short notation (``Th 0 5`` in Leopard), or None to
        let the common notation of docs/notation.md read it. Most games have none."""
        return None

    # -- the vocabulary of search and learning code (OpenSpiel's names) --------------------
    #
    # Actions are small integers from a fixed action space per game and option set: action n
    # names the same move in every state (docs/notation.md, "Action numbers", has each game's
    # table), so a network's output layer, a search tree shared by sampled worlds and an
    # OpenSpiel or Gymnasium adapter can all rely on it. Search code uses these methods on bare
    # states; they ignore the no-repetition rule, which :class:`Game` applies.

    def action_moves(self) -> Sequence[Move]:
        """Every move the game can ever have with these options, in action order: action ``n``
        is the ``n``-th (some are never legal in a reachable state, as in OpenSpiel's games).
        A move whose text holds a part fixed by the state (Accordion's count, the ``at`` of
        Leoni's Own's ``play``) is listed in its template form (:meth:`action_template`).

        Games define it; a game added from outside without it can be played but has no
        integer actions (:class:`NotImplementedError` says so)."""
        raise NotImplementedError(
            f"{self.name} has no fixed action space: its Rules define no action_moves() "
            "(docs/notation.md, 'Action numbers')"
        )

    def action_template(self, state: S, move: Move) -> Move:
        """``move`` as :meth:`action_moves` lists it: the move itself, unless the game leaves
        out of its action numbers a part that the state fixes (then it raises
        :class:`IllegalMove` when that part does not match the state)."""
        return move

    def move_from_template(self, state: S, template: Move) -> Move:
        """The move of ``state`` that ``template`` (an entry of :meth:`action_moves`) stands
        for: the inverse of :meth:`action_template`."""
        return template

    def _action_table(self) -> tuple[Sequence[Move], dict[Move, int]]:
        """The action space and each move's number, built once per rules object."""
        table: tuple[Sequence[Move], dict[Move, int]] | None = self.__dict__.get("_actions")
        if table is None:
            moves = tuple(self.action_moves())
            index = {move: number for number, move in enumerate(moves)}
            if len(index) != len(moves):  # a game's table lists a move twice: a bug in it
                raise ValueError(f"{self.name}'s action_moves() lists a move twice")
            table = (moves, index)
            self.__dict__["_actions"] = table
        return table

    def num_distinct_actions(self) -> int:
        """The size of the action space: actions are ``0 .. num_distinct_actions() - 1``."""
        return len(self._action_table()[0])

    def action_to_move(self, state: S, action: int) -> Move:
        """The move that ``action`` stands for (in ``state``, which fills in the parts of a
        template that the state fixes). Raises :class:`IllegalMove` for a number outside the
        action space."""
        moves = self._action_table()[0]
        if isinstance(action, bool) or not 0 <= action < len(moves):
            raise IllegalMove(
                None,
                f"action {action!r} is not an action of {self.name}: actions are 0 to "
                f"{len(moves) - 1}",
            )
        return self.move_from_template(state, moves[action])

    def move_to_action(self, state: S, move: Move) -> int:
        """The integer action of ``move`` (the same in every state). Raises
        :class:`IllegalMove` for a move that is no move of the game."""
        number = self._action_table()[1].get(self.action_template(state, move))
        if number is None:
            raise IllegalMove(move, f"it is not a move of {self.name} (it has no action number)")
        return number

    def legal_actions(self, state: S) -> list[int]:
        """The candidate moves of ``state`` as integer actions, sorted."""
        return sorted(self.move_to_action(state, move) for move in self.candidate_moves(state))

    def legal_action_mask(self, state: S) -> list[bool]:
        """One flag per action of the action space: True where the action is legal."""
        mask = [False] * self.num_distinct_actions()
        for action in self.legal_actions(state):
            mask[action] = True
        return mask

    def apply_action(self, state: S, action: int, *, in_place: bool = False) -> S:
        """The state after ``action`` (and its forced moves). With ``in_place`` the caller
        gives up ``state`` and the rules may change and return it (fast playouts)."""
        return self.perform(state, self.action_to_move(state, action))[0]

    def is_terminal(self, state: S) -> bool:
        """True when the game is over in ``state`` by its rules."""
        return self.finished(state) is not None or not self.candidate_moves(state)

    def returns(self, state: S) -> list[float]:
        """Each seat's payoff in a terminal state (one-player games: 1 won, 0 otherwise)."""
        outcome = self.finished(state)
        return [1.0 if outcome is not None and outcome.result == Result.WON else 0.0]

    def information_state_string(self, state: S, observer: Observer) -> str:
        """All that ``observer`` (a seat or :data:`SPECTATOR`) knows of ``state``, as text
        (its view, canonical JSON)."""
        return json.dumps(self.view_json(state, observer), sort_keys=True, separators=(",", ":"))

    def information_key(self, state: S, observer: int) -> Hashable:
        """A hashable key equal for two states when ``observer``'s information states
        (:meth:`information_state_string`) are equal, and different when they differ in
        anything a choice may depend on (a game may leave out, say, the order of a hand).
        ISMCTS keys its nodes by it thousands of times a move, so games with a quicker key
        than their view's JSON give one."""
        return self.information_state_string(state, observer)

    def search_reward(self, state: S, seat: int) -> float:
        """What ``state`` is worth to ``seat`` for search, in [0, 1]: a game over counts as
        won 1, drawn 0.5, lost 0 (the sign of :meth:`returns`), with its margin as a small
        tie-break (what wins is the result, not the margin); otherwise :meth:`evaluate`
        squashed into a chance of winning by :attr:`value_scale`."""
        if self.is_terminal(state):
            margin = self.returns(state)[seat]
            result = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
            return 0.95 * result + 0.05 * (0.5 + 0.5 * math.tanh(margin / self.value_scale))
        return logistic(self.evaluate(state, seat) / self.value_scale)

    def move_cost(self, state: S, move: Move) -> float:
        """What search charges for making ``move`` in ``state`` (taken off the reward of the
        seat who makes it): 0 by default. Games give a small cost to moves that make no
        progress of themselves and only keep every option open, which tree search otherwise
        comes to prefer (the best of several noisy estimates looks better than one)."""
        return 0.0

    def search_rewards(self, state: S) -> list[float]:
        """:meth:`search_reward` of every seat (games may work out the parts they share once)."""
        return [self.search_reward(state, seat) for seat in range(self.players)]

    def evaluate(self, state: S, seat: int) -> float:
        """A quick estimate of how good ``state`` is for ``seat`` (higher is better): greedy
        bots choose the move whose result scores best."""
        if self.is_terminal(state):
            return self.returns(state)[seat]
        return 0.0

    def bot_duty(self, view: Mapping[str, Any]) -> Move | None:
        """The move a bot must make in the seat's ``view`` because the rules say bots always
        make it (Double Solitaire: "a bot always calls" an offered stop), or None to let the
        bot decide. Every bot asks this first (:meth:`patience.bots.Bot.choose`); people at a
        table are not bound by it. None by default."""
        return None

    def rollout_action(self, state: S, rng: random.Random) -> int:
        """The action a playout takes in ``state``: uniformly random by default; games may
        give a cheap policy that plays more like a person."""
        actions = self.legal_actions(state)
        return int(actions[rng.randrange(len(actions))])

    def playout_action(self, state: S, rng: random.Random, policy: str | None = None) -> int:
        """The action a search's playout (and a node's first move tried) takes in ``state``:
        the game's ``rollout_action`` by default; a game may give search a stronger policy
        (``policy`` names one of the game's, None: its default)."""
        return self.rollout_action(state, rng)

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
        """The ISMCTS bot's search for the view's seat run in the compiled core: the iterations
        run and the root's moves as (move, visits, summed reward, bias); None (this default)
        when the game has no such search or the core is not built, and the bot runs its Python
        loop (:class:`patience.bots.ismcts.IsmctsBot`, whose parameters these are)."""
        return None

    def deck(self) -> list[Card]:
        """Every physical card the game uses, in starting order (docs/deals.md)."""
        return packs(self.packs)

    def all_cards_expected(self) -> int:
        """How many cards the game uses."""
        return len(self.deck())

    # -- positions -----------------------------------------------------------------------

    def position_json(self, state: S, deal: int | None) -> PositionJSON:
        """The exact position, hidden cards included (docs/formats.md), with the game's parts
        beside the piles (:meth:`extra_json`)."""
        data: JSON = {
            "version": POSITION_VERSION,
            "game": self.name,
            "options": dict(self.options),
            "deal": deal,
            "piles": {
                name: {
                    "down": [str(card) for card in state.piles[name][: state.down[name]]],
                    "up": [str(card) for card in state.face_up(name)],
                }
                for name in self.pile_names
            },
            **self.extra_json(state),
        }
        return cast(PositionJSON, data)  # the game's own parts ride along (see PositionJSON)

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Read the piles of a position JSON (cards as strings) and hand over to the game."""
        piles_data = data.get("piles")
        if not isinstance(piles_data, Mapping):
            raise PositionError("a position needs 'piles': an object of pile name -> down/up")
        missing = [name for name in self.pile_names if name not in piles_data]
        unknown = [name for name in piles_data if name not in self.pile_names]
        if missing or unknown:
            raise PositionError(
                f"{self.name} positions have exactly the piles {', '.join(self.pile_names)}"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; unknown: {', '.join(map(str, unknown))}" if unknown else "")
            )
        seen: dict[int, int] = {}
        copies: dict[int, int] = {}
        for card in self.deck():
            copies[card.face] = copies.get(card.face, 0) + 1
        piles: dict[str, list[Card]] = {}
        down: dict[str, int] = {}
        for name in self.pile_names:
            pile = piles_data[name]
            if not isinstance(pile, Mapping) or set(pile) - {"down", "up"}:
                raise PositionError(f"pile {name} must be an object with 'down' and 'up' lists")
            cards: list[Card] = []
            for part in ("down", "up"):
                texts = pile.get(part, [])
                if not isinstance(texts, list):
                    raise PositionError(f"pile {name}: '{part}' must be a list of cards")
                for text in texts:
                    if not isinstance(text, str):
                        raise PositionError(f'pile {name}: {text!r} is not a card like "Th"')
                    try:
                        face = Card.parse(text).face
                    except CardError as error:
                        raise PositionError(f"pile {name}: {error}") from None
                    # Copies of a card get their pack in the order the position lists them.
                    copy = seen.get(face, 0)
                    seen[face] = copy + 1
                    if copy >= copies.get(face, 0):
                        raise PositionError(
                            f"card {text} appears more often than {self.name} has it "
                            f"({copies.get(face, 0)} time(s))"
                        )
                    cards.append(Card(copy * 52 + face))
            piles[name] = cards
            down[name] = len(pile.get("down", []))
        return self.from_json_parts(piles, down, dict(data))


@dataclass
class _Step:
    move: Move
    forced: list[Move]
    before: State
    key: Hashable


class PlayedMove(NamedTuple):
    """One player move of a game's history (:attr:`Game.history`)."""

    #: The move the player made.
    move: Move
    #: The moves the rules made after it by themselves (aces going up, say).
    forced: tuple[Move, ...]
    #: The state it was played from: the game's own object, not to be changed.
    before: State


@dataclass
class _Successor:
    move: Move
    state: State
    forced: list[Move]
    #: None until the successor is made (games whose positions cannot repeat).
    key: Hashable | None


#: Finds the rules of a game by name (or alias) and options: what :meth:`Game.from_position`
#: needs to read a position naming its game.
RulesFinder: TypeAlias = Callable[[str, Mapping[str, object]], "Rules[Any]"]

_rules_finder: RulesFinder | None = None


def install_rules_finder(finder: RulesFinder) -> None:
    """Let :meth:`Game.from_position` find games with ``finder``. The engine knows no game
    itself (the games are built on it): :mod:`patience.games`, the registry, installs its
    ``get_rules`` here when it is imported, as ``import patience`` does."""
    global _rules_finder
    _rules_finder = finder


def _find_rules(name: str, options: Mapping[str, object]) -> Rules[Any]:
    if _rules_finder is None:
        raise PositionError("no games are known yet: import patience (or patience.games) first")
    return _rules_finder(name, options)


@dataclass(eq=False)
class Game:
    """A game in progress: rules, the current state, and the moves that led there.

    Create one with :func:`patience.new` or :meth:`Game.from_position`. Moves are pushed and
    popped as in python-chess; an illegal move raises :class:`IllegalMove` and changes nothing.

    Two games are equal (``==``) when they are the same game by value: the same rules name and
    options, the same deal number, the same start position, the same player moves made from
    it, the same position now and the same resignation. What may be redone after an undo is
    not part of a game's value. A game changes as it is played, so it is not hashable.
    """

    rules: Rules[Any]
    state: State
    deal: int | None
    _start: State = field(repr=False)
    _stack: list[_Step] = field(default_factory=list, repr=False)
    _redo: list[Move] = field(default_factory=list, repr=False)
    _seen: set[Hashable] = field(default_factory=set, repr=False)
    _successors: list[_Successor] | None = field(default=None, repr=False)
    _resigned: bool = field(default=False, repr=False)
    #: The forced moves that followed the deal, before the first player move.
    opening: list[Move] = field(default_factory=list, repr=False)

    @classmethod
    def create(cls, rules: Rules[Any], deal: int | None = None, state: State | None = None) -> Game:
        """A new game from a deal number (a random one if None) or from a given state."""
        opening: list[Move] = []
        if state is None:
            deal = random_deal() if deal is None else check_deal(deal)
            state, opening = rules.start(deal)
        game = cls(rules=rules, state=state, deal=deal, _start=state, opening=opening)
        game._seen.add(rules.key(state))
        return game

    @classmethod
    def from_position(cls, data: Mapping[str, Any]) -> Game:
        """Continue a game from a position JSON (docs/formats.md)."""
        if not isinstance(data, Mapping):
            raise PositionError("a position is a JSON object")
        version = data.get("version", POSITION_VERSION)
        if isinstance(version, bool) or version != POSITION_VERSION:
            raise PositionError(
                f"position version {data.get('version')!r} is not supported "
                f"(this program reads version {POSITION_VERSION})"
            )
        name = data.get("game")
        if not isinstance(name, str):
            raise PositionError("a position needs 'game': the game's name")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise PositionError("'options' must be an object of option name -> value")
        try:
            rules = _find_rules(name, options)
            deal = data.get("deal")
            if deal is not None:
                if isinstance(deal, bool) or not isinstance(deal, int):
                    raise PositionError(f"'deal' must be a whole number or null, not {deal!r}")
                deal = check_deal(deal)
        except PositionError:
            raise
        except ValueError as error:  # an unknown game, a bad option or deal number
            raise PositionError(str(error)) from None
        return cls.create(rules, deal=deal, state=rules.state_from_json(data))

    def __repr__(self) -> str:
        return f"Game({self.rules.name!r}, deal={self.deal}, options={self.rules.options!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        rules, theirs = self.rules, other.rules
        return (
            rules.name == theirs.name
            and rules.options == theirs.options
            and self.deal == other.deal
            and self._resigned == other._resigned
            and self.move_stack == other.move_stack
            # Positions as JSON: every part of a state by value, whatever its class keeps.
            and rules.position_json(self._start, None) == theirs.position_json(other._start, None)
            and rules.position_json(self.state, None) == theirs.position_json(other.state, None)
        )

    #: Games change as they are played: equal by value, they are not hashable.
    __hash__ = None  # type: ignore[assignment]

    # -- properties ------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The game's name as in RULES.md (``klondike``)."""
        return self.rules.name

    @property
    def options(self) -> dict[str, OptionValue]:
        """The game's options, defaults filled in."""
        return dict(self.rules.options)

    @property
    def move_stack(self) -> list[Move]:
        """The player moves made so far, oldest first."""
        return [step.move for step in self._stack]

    @property
    def forced_stack(self) -> list[list[Move]]:
        """For each player move, the forced moves that followed it."""
        return [list(step.forced) for step in self._stack]

    @property
    def history(self) -> list[PlayedMove]:
        """The player moves made so far, oldest first, each with the forced moves that followed
        it and the state it was played from (what a player who remembers the game has seen)."""
        return [PlayedMove(step.move, tuple(step.forced), step.before) for step in self._stack]

    @property
    def start_state(self) -> State:
        """The state the game started from (a copy)."""
        return self._start.copy()

    def current_player(self) -> int:
        """The seat to move."""
        return self.rules.current_player(self.state)

    # -- moves -----------------------------------------------------------------------------

    def _compute_successors(self) -> list[_Successor]:
        if self._successors is None:
            result = []
            if not self._resigned and self.rules.finished(self.state) is None:
                if not self.rules.positions_can_repeat:
                    # Nothing to filter: a successor's state is made only when it is pushed.
                    self._successors = [
                        _Successor(move, self.state, [], None)
                        for move in self.rules.candidate_moves(self.state)
                    ]
                    return self._successors
                for move in self.rules.candidate_moves(self.state):
                    successor = self._successor(move)
                    if successor is not None:
                        result.append(successor)
            self._successors = result
        return self._successors

    def _successor(self, move: Move) -> _Successor | None:
        """The state after candidate ``move``, or None if it recreates a position."""
        after, forced = self.rules.perform(self.state, move)
        key = self.rules.key(after)
        return None if key in self._seen else _Successor(move, after, forced, key)

    def legal_moves(self) -> list[Move]:
        """The legal moves, in a fixed order (moves that would repeat a position are left out)."""
        return [successor.move for successor in self._compute_successors()]

    def is_legal(self, move: Move | str | Mapping[str, Any]) -> bool:
        """True if ``move`` (a Move, text or JSON form) may be pushed now."""
        try:
            self._find(move if isinstance(move, Move) else self.parse_move(move))
        except (IllegalMove, MoveSyntaxError):
            return False
        return True

    def parse_move(self, text: str | Mapping[str, Any]) -> Move:
        """Read a move as a person or a program writes it (text notation or JSON form).

        Leniency for people: ``t3-f`` sends a card to whichever foundation takes it, and a card
        move without a count takes the one count that is legal if one card would not be.
        """
        if isinstance(text, str) and text.strip().startswith("{"):
            try:
                text = jsontext.loads(text)
            except jsontext.JSONTextError as error:
                raise MoveSyntaxError(f"cannot read move {text!r}: bad JSON ({error})") from None
        own = None if isinstance(text, Mapping) else self.rules.parse_text(self.state, text)
        if own is not None:
            return own
        move = Move.from_json(text) if isinstance(text, Mapping) else Move.parse(text)
        if move.is_action:
            return move
        legal = self.legal_moves()
        if move in legal:
            return move
        count_given = ("count" in text) if isinstance(text, Mapping) else (":" in text)
        if move.target == "f":
            for other in legal:
                if (
                    other.source == move.source
                    and _is_foundation(other.target)
                    and other.count == move.count
                ):
                    return other
            raise IllegalMove(move, f"no foundation takes the top card of {move.source} now")
        if not count_given:
            same_piles = [
                other
                for other in legal
                if other.source == move.source and other.target == move.target
            ]
            if len(same_piles) == 1:
                return same_piles[0]
        return move

    def _find(self, move: Move) -> _Successor:
        if self._successors is None and self.rules.positions_can_repeat:
            # One move asked for (a push, a replay): make only its state, not every legal
            # move's (a solver's win of thousands of Spider moves replayed three times faster).
            # Legal exactly when listed below: a candidate that recreates no position.
            found = self._lone_successor(move)
            if found is not None:
                return found
        for successor in self._compute_successors():
            if successor.move == move:
                if successor.key is None:  # made lazily (positions_can_repeat is False)
                    after, forced = self.rules.perform(self.state, move)
                    return _Successor(move, after, forced, self.rules.key(after))
                return successor
        outcome = self.outcome()
        if outcome.is_over and (self._resigned or self.rules.finished(self.state) is not None):
            raise IllegalMove(move, f"the game is over ({outcome.result}: {outcome.reason})")
        # Not legal: let the rules say why, or it repeats a position (a game lost for want of
        # a legal move gets the precise reason too).
        try:
            after, _ = self.rules.apply(self.state, move)
        except IllegalMove as error:
            if error.move is None:
                raise IllegalMove(move, error.reason) from None
            self._check_instead(move, error)
            raise
        if self.rules.key(after) in self._seen:
            raise IllegalMove(move, "it would recreate a position already reached in this game")
        raise IllegalMove(move, "the rules do not allow it here")  # pragma: no cover

    def _lone_successor(self, move: Move) -> _Successor | None:
        """``move``'s successor if it is legal, made alone; None if it is not (the caller then
        lists every move to say why)."""
        if self._resigned or self.rules.finished(self.state) is not None:
            return None
        if not self.rules.is_candidate(self.state, move):
            return None
        return self._successor(move)

    def _check_instead(self, move: Move, error: IllegalMove) -> None:
        """Raise a truer reason than ``error``'s when the move it points to instead is not
        allowed here either (the repetition rule, say)."""
        instead = error.instead
        if instead is None or error.fact is None or instead == move:
            return
        if any(successor.move == instead for successor in self._compute_successors()):
            return
        try:
            self._find(instead)
        except IllegalMove as other:
            raise IllegalMove(
                move, f"{error.fact}, and {instead.text()} is not allowed either: {other.reason}"
            ) from None

    def push(self, move: Move | str | Mapping[str, Any]) -> list[Move]:
        """Make a move (a :class:`Move`, text or JSON form); return the forced moves it caused.

        Raises :class:`IllegalMove` (a ``ValueError``) saying why, and changes nothing, when the
        move is not legal.
        """
        if not isinstance(move, Move):
            try:
                move = self.parse_move(move)
            except MoveSyntaxError as error:
                raise IllegalMove(None, str(error)) from None
        successor = self._find(move)
        self._stack.append(_Step(move, successor.forced, self.state, successor.key))
        self._seen.add(successor.key)
        self.state = successor.state
        self._successors = None
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()
        return list(successor.forced)

    def pop(self) -> Move:
        """Undo the last player move together with its forced moves; return it."""
        if not self._stack:
            raise IllegalMove(None, "there is no move to undo")
        step = self._stack.pop()
        self._seen.discard(step.key)
        self.state = step.before
        self._successors = None
        self._resigned = False
        self._redo.append(step.move)
        return step.move

    def redo(self) -> Move:
        """Make again the last undone move; return it."""
        if not self._redo:
            raise IllegalMove(None, "there is no undone move to redo")
        move = self._redo[-1]
        self.push(move)
        return move

    def can_redo(self) -> bool:
        """True if there is an undone move to make again."""
        return bool(self._redo)

    @property
    def resigned(self) -> bool:
        """True if the player has resigned (and not taken it back)."""
        return self._resigned

    def resign(self) -> None:
        """Give up: a one-player game is then lost. :meth:`pop` undoes the last move and the
        resignation with it; :meth:`take_back_resignation` undoes the resignation alone."""
        outcome = self.outcome()
        if outcome.is_over:
            raise IllegalMove(
                None, f"the game is already over ({outcome.result}: {outcome.reason})"
            )
        self._resigned = True
        self._successors = None

    def take_back_resignation(self) -> None:
        """Go on playing after :meth:`resign`, with every move kept."""
        self._resigned = False
        self._successors = None

    # -- outcome ---------------------------------------------------------------------------

    def outcome(self) -> Outcome:
        """How the game stands: ongoing, or won/lost/draw with the reason."""
        finished = self.rules.finished(self.state)
        if finished is not None:
            return finished
        if self._resigned:
            return Outcome(Result.LOST, "resigned")
        if not self._compute_successors():
            return self.rules.stuck(self.state)
        return ONGOING

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.outcome().is_over

    # -- JSON ------------------------------------------------------------------------------

    def position(self) -> PositionJSON:
        """The exact position as JSON, hidden cards included (docs/formats.md)."""
        return self.rules.position_json(self.state, self.deal)

    def view(self, observer: Observer = 0) -> ViewJSON:
        """What ``observer`` (a seat, or :data:`SPECTATOR`) may see: the position with every
        card it may not know ``null``, plus ``seat`` (``null`` for the spectator), its legal
        moves (JSON form) when it is that seat's turn, and the outcome. Raises
        :class:`ObserverError` for a seat the game does not have."""
        data = self.rules.view_json(self.state, observer)
        seat = None if observer is SPECTATOR else observer
        data["seat"] = seat
        your_turn = seat is not None and self.current_player() == seat
        data["legal_moves"] = [move.to_json() for move in self.legal_moves()] if your_turn else []
        data["outcome"] = self.outcome().to_json()
        return cast(ViewJSON, data)  # the game's own parts ride along (see ViewJSON)

    def last_move_view(self, observer: Observer) -> JSON | None:
        """The last player move as ``observer`` may know it (:meth:`Rules.move_view`):
        ``{"seat": MOVER, "move": MOVE_JSON}``, or None before the first move."""
        if not self._stack:
            return None
        step = self._stack[-1]
        mover = self.rules.current_player(step.before)
        move = self.rules.move_view(self.state, step.move, mover, observer)
        return {"seat": mover, "move": move}

    # -- the vocabulary of search and learning code (OpenSpiel's names) --------------------

    def legal_actions(self) -> list[int]:
        """The legal moves as the rules' integer actions (:meth:`Rules.action_moves`), sorted."""
        return sorted(self.rules.move_to_action(self.state, move) for move in self.legal_moves())

    def legal_action_mask(self) -> list[bool]:
        """One flag per action of the rules' action space: True where the action is legal."""
        mask = [False] * self.rules.num_distinct_actions()
        for action in self.legal_actions():
            mask[action] = True
        return mask

    def apply_action(self, action: int) -> list[Move]:
        """Push the move that integer ``action`` stands for; return its forced moves."""
        return self.push(self.rules.action_to_move(self.state, action))

    def is_terminal(self) -> bool:
        """True once the game has ended (OpenSpiel's name for :meth:`is_over`)."""
        return self.is_over()

    def returns(self) -> list[float]:
        """Each seat's payoff once the game is over (see :meth:`Rules.returns`)."""
        return self.rules.returns(self.state)

    def information_state_string(self, observer: Observer) -> str:
        """All that ``observer`` (a seat or :data:`SPECTATOR`) knows now, as text (its view as
        canonical JSON)."""
        return self.rules.information_state_string(self.state, observer)

    def replay_moves(self, moves: Iterable[Move | str]) -> None:
        """Push several moves in order (stops at the first illegal one, raising)."""
        for move in moves:
            self.push(move)

    def copy(self) -> Game:
        """An independent copy: a move pushed, popped or redone on either leaves the other as
        it was (a server tries a command on a copy and keeps it once the command is stored).
        States are never changed in place once reached, so the two share them."""
        twin = copy.copy(self)
        twin._stack = list(self._stack)
        twin._redo = list(self._redo)
        twin._seen = set(self._seen)
        return twin


def logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflow for large negative ``x``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _is_foundation(pile: str | None) -> bool:
    return pile is not None and pile.startswith("f") and pile[1:].isdigit()


def check_forced(expected: Sequence[Move], actual: Sequence[Move]) -> str | None:
    """Compare forced moves written in a record with those the engine made; say what differs."""
    if list(expected) == list(actual):
        return None
    shown = " ".join(move.text() for move in actual) or "none"
    written = " ".join(move.text() for move in expected) or "none"
    return f"the record says the forced moves were {written}, but they were {shown}"


def _strings_in(data: object) -> set[str]:
    """Every string among the values of a view (the cards it shows, and other words)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, Mapping):
        return {text for value in data.values() for text in _strings_in(value)}
    if isinstance(data, list):
        return {text for value in data for text in _strings_in(value)}
    return set()


def _card_text(text: str) -> str | None:
    """``text`` as a card's canonical text (``Th``), or None if it names no card."""
    try:
        return str(Card.parse(text))
    except CardError:
        return None
