"""Honest hints: a move suggested from what the player can see (docs/solving.md, "Hints").

The hint never reads a hidden card of the game. It takes the player's view (:meth:`Game.view`,
where every hidden card is ``null``), deals the hidden cards at random consistently with it, and
judges every legal move by the share of those worlds that the solver still wins after it (the
same worlds for every move, so that the differences between moves are not noise); it recommends
the best, ties going to progress. That share, with its 95% interval, estimates the chance of
winning from here. A position with nothing hidden is solved directly: then the answer is exact
whenever the solver finishes.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..engine import Game, Rules, State
from ..moves import Move
from ..stats import Interval
from .search import HISTORY_ONLY

if TYPE_CHECKING:
    from . import Solution

__all__ = [
    "DEEPEN",
    "DEFAULT_NODES",
    "DEFAULT_SAMPLES",
    "DEFAULT_SECONDS",
    "GAME_BUDGETS",
    "Hint",
    "has_hidden_cards",
    "hint",
    "hint_budget",
    "remembered_view",
]

#: Worlds sampled per hint by default.
DEFAULT_SAMPLES = 16
#: The whole hint's time budget by default (seconds): a guard, reached only on a slow machine
#: or with a game the compiled core does not know (the node budget bounds the work otherwise,
#: so that the answer does not depend on the machine's load).
DEFAULT_SECONDS = 8.0
#: The node budget of each search (one world after one move) by default.
DEFAULT_NODES: int | None = 10_000

#: The worlds and nodes of a hint by game where the defaults are too slow for the web app (the
#: web app and the terminal ask :func:`hint_budget`): one-suit Spider's opening judges ten moves
#: at some 100,000 nodes a CPU second, 16 CPU s at the defaults, which the 8 s clock cut short;
#: its searches find nothing at 5,000 nodes, so it keeps 10,000 and takes fewer worlds.
#: Klondike takes twice the worlds at half the nodes (the same nodes a move): on the positions
#: of tuning deals 2002-2014 where one move kept the win and another lost it, more worlds of
#: fewer nodes chose a losing move less often (docs/solving.md, "How well the hints play").
#: 64 worlds avoided four of seven blunders of 32 but won 6 of deals 1001-1019 where 32 won 10:
#: a stock turn, judged by the best of its steps, gains on a play in proportion to the worlds,
#: and the margin of equally good moves only as their square root.
#: Canfield's hints are cheap (0.03 CPU s at the median with 16 worlds) and close calls between
#: a waste play and a stock turn decided its lost games: 32 worlds won 19 of tuning deals
#: 2001-2040 where 16 won 14.
#: Leoni's Own's hints know every card (``Rules.player_sees_every_card``) and solve the game
#: itself with worlds x nodes: 640,000 nodes (about 1.5 CPU s at most) resolve 93 of tuning
#: deals 2001-2100 from the start, 160,000 only 80 (the others are left to a move-by-move
#: judgement in the one world, at the nodes of one search each).
GAME_BUDGETS: dict[str, tuple[int, int | None]] = {
    "spider": (4, 10_000),
    "klondike": (32, 5_000),
    "canfield": (32, 10_000),
    "leonis-own": (16, 40_000),
}

#: How many times the nodes the close calls get again, by game, where a first search ran out of
#: budget (:func:`_deepened`); 1 elsewhere. One-suit Spider's searches of 10,000 nodes leave
#: about half of the mid-game worlds undecided, so that many moves tie and progress decides.
DEEPEN: dict[str, int] = {"spider": 4}

#: The games whose ties between equally good moves go, after the cards home and turned face
#: up, to the plays that build, then to the other plays, then to a deal of the stock
#: (:func:`_progress`): those whose deals cover the tableau's cards.
BUILDING = frozenset({"spider"})

#: In the games of :data:`BUILDING`, after this many moves without progress (no card home or
#: turned face up, no card dealt from the stock), ties among the moves that won every world
#: judged go to the shortest wins found before the building order: one-suit Spider's deal
#: 1003, won in every world after every move late in the deal, walked runs from pile to pile
#: to the 1,000-move limit, each hint choosing a building play that the next one undid by
#: another route (docs/solving.md, "How well the hints play").
STUCK_AFTER = 30

#: The worlds and nodes of a hint for a game the compiled core does not know (at most).
PYTHON_SAMPLES = 4
PYTHON_NODES = 200


#: A move and the moves that follow it in one step of the solver's adapter (a stock turn with
#: the turns and the play of the card they bring within reach).
Line = tuple[Move, ...]

#: The actions judged by the steps they start: turning the stock (Klondike, Canfield), never on
#: its own. Accordion's and Spider's deals change what is dealt, not only what is reachable.
_TURNS = frozenset({"stock", "recycle"})

#: How good a search's answer is for a move judged by several steps: the best counts.
_BETTER = {"missing": 0, "unwinnable": 1, "unknown": 2, "timeout": 2, "won": 3}


@dataclass(frozen=True)
class Hint:
    """A suggested move and how likely a win is from here.

    ``move`` is a legal move of the game (None when none is suggested: the game is over, or
    nothing is hidden and the solver proved that nothing wins or found no win).
    ``chance`` is the share of the ``samples`` worlds that the solver still won after ``move``
    (worlds whose search ran out of budget count as not won, and are counted in ``unknown``;
    those proved lost, or where every line the search keeps would recreate a position of the
    world's past, in ``lost``), and ``low``-``high`` its 95% (Wilson) interval. ``exact``
    is true when nothing was hidden and the solver gave a final answer (``chance`` is then 1 or
    0). ``votes`` counts, per legal move judged (engine notation), the worlds still won after
    it (a move dropped by the race, as unable to be the best, in the worlds it was judged in);
    ``reason`` says in words what the hint rests on.
    """

    move: Move | None
    chance: float
    samples: int
    exact: bool
    wins: int = 0
    unknown: int = 0
    votes: Mapping[str, int] = field(default_factory=dict)
    reason: str = ""
    seconds: float = 0.0
    low: float = 0.0
    high: float = 1.0
    lost: int = 0

    def to_json(self) -> dict[str, Any]:
        """``{"move", "move_json", "chance", "low", "high", "samples", "exact", "reason"}``:
        what the web page shows (``move`` in the engine's text notation, ``move_json`` its JSON
        form, both null when no move is suggested; ``low``-``high`` the chance's 95%
        interval)."""
        return {
            "move": None if self.move is None else self.move.text(),
            "move_json": None if self.move is None else self.move.to_json(),
            "chance": self.chance,
            "low": self.low if not self.exact else self.chance,
            "high": self.high if not self.exact else self.chance,
            "samples": self.samples,
            "exact": self.exact,
            "reason": self.reason,
        }

    def text(self) -> str:
        """The hint in one sentence, for people."""
        if self.move is None:
            return f"No move to suggest: {self.reason}."
        if self.exact:
            return f"Play {self.move.text()}: the solver found a win from here."
        if not self.wins:
            return f"Perhaps {self.move.text()}: {self.reason}."
        return (
            f"Play {self.move.text()}: about {round(self.chance * 100)}% to win from here "
            f"({round(self.low * 100)}-{round(self.high * 100)}%, 95%), from {self.samples} "
            f"deals of the hidden cards ({self.reason})."
        )


def hint_budget(game: str) -> dict[str, Any]:
    """The keyword arguments ``samples`` and ``nodes`` of a hint of ``game`` in the web app and
    the terminal: :data:`GAME_BUDGETS`, else the defaults."""
    samples, nodes = GAME_BUDGETS.get(game, (DEFAULT_SAMPLES, DEFAULT_NODES))
    return {"samples": samples, "nodes": nodes}


def has_hidden_cards(view: Mapping[str, Any]) -> bool:
    """True if the view hides any pile card (a ``null`` among its piles' cards)."""
    return any(
        card is None
        for pile in view["piles"].values()
        for part in ("down", "up")
        for card in pile.get(part, [])
    )


def remembered_view(game: Game) -> dict[str, Any]:
    """The player's view now, with every hidden card the player has seen before named where it
    lies now: what a player who remembers the game knows (docs/solving.md, "Hints").

    A card seen face up once stays known wherever the moves take it (a Klondike stock turned
    through once and recycled is known card by card). Worked out from the views of the
    positions of the game so far (``Rules.view_json`` of each) and the moves played, never
    from a hidden card: a world dealt from the first view is replayed move by move, and each
    time a view shows a card the world had not shown before, the world takes it by swapping
    two cards no view has shown yet (a swap of two such cards changes nothing that anything
    so far depended on). Where the world's piles stop matching the view the memory starts
    afresh from that view; games whose moves depend on the identity of hidden cards
    (``Rules.replay_tracks_cards`` false) remember nothing, except the games in which every
    card passes face up before the player (``Rules.player_sees_every_card``: Leoni's Own, whose
    cards are dealt face up one at a time): there the player who remembers knows every card
    where it lies, and so does the memory. Moves undone are forgotten: only the moves that led
    here count.
    """
    return _remember(game).view


@dataclass(frozen=True)
class _Memory:
    """What the player knows: ``view`` (:func:`remembered_view`) and ``past``, positions of the
    game so far that may come back (``Rules.lasting_marks``) in one world of the memory, with
    the current position last: a world dealt from ``view`` gets its own past by renaming the
    cards of this one (the cards never seen are the only ones that differ)."""

    view: dict[str, Any]
    past: list[State]


@dataclass
class _Replay:
    """How far :func:`_remember`'s replay of one game got: the state of its loop after the
    first ``len(moves)`` moves, and the positions of the game's past in the world's names
    (``trail``, from ``first`` renamed by ``label`` through ``moves[since:]``), so that
    the next hint of the same game goes on from there instead of replaying every move again:
    in a long game the replay was most of a hint's time. Every field is a function of the
    views and the moves alone, as the replay is."""

    moves: list[Move]
    rng: Any  # random.Random's state
    world: State
    known: set[int]
    #: The world dealt when the memory last started afresh, and how many moves came before.
    first: State
    since: int
    label: dict[Card, Card]
    origin: dict[Card, Card]
    #: Empty until :func:`_past` needs it, and again whenever ``first`` or ``label`` changes.
    trail: list[State] = field(default_factory=list)
    trail_marks: list[Any] = field(default_factory=list)
    #: The replay of ``moves[since:]`` from the renamed ``first`` failed (an illegal move).
    trail_broken: bool = False

    def copy(self) -> _Replay:
        return replace(
            self,
            moves=list(self.moves),
            known=set(self.known),
            label=dict(self.label),
            origin=dict(self.origin),
            trail=list(self.trail),
            trail_marks=list(self.trail_marks),
        )


#: The latest :class:`_Replay` of the games hinted lately, by game and first view (a hint
#: process serves a few games at a time; the oldest is dropped).
_REPLAYS: OrderedDict[str, _Replay] = OrderedDict()
_REPLAYS_KEPT = 16
_REPLAYS_LOCK = threading.Lock()


def _cached_replay(key: str, moves: list[Move]) -> _Replay | None:
    """A copy of the kept replay of ``key`` if its moves begin ``moves``."""
    with _REPLAYS_LOCK:
        replay = _REPLAYS.get(key)
        if replay is None or replay.moves != moves[: len(replay.moves)]:
            return None
        _REPLAYS.move_to_end(key)
        return replay.copy()


def _keep_replay(key: str, replay: _Replay) -> None:
    with _REPLAYS_LOCK:
        _REPLAYS[key] = replay.copy()
        _REPLAYS.move_to_end(key)
        while len(_REPLAYS) > _REPLAYS_KEPT:
            _REPLAYS.popitem(last=False)


def _remember(game: Game) -> _Memory:
    rules = game.rules
    steps = game.history
    now: dict[str, Any] = dict(game.view(0))
    if rules.player_sees_every_card:
        piles = rules.position_json(game.state, None)["piles"]
        now["piles"] = {name: {**now["piles"][name], **piles[name]} for name in now["piles"]}
        # The game's own positions are what such a player remembers of its past.
        past = [step.before for step in steps] + [game.state] if steps else []
        return _Memory(now, past)
    if not steps or not rules.replay_tracks_cards:
        return _Memory(now, [])
    first_view = rules.view_json(steps[0].before, 0)
    key = json.dumps([rules.name, rules.options, first_view], sort_keys=True, default=str)
    moves = [step.move for step in steps]
    rng = random.Random(0)  # which unseen card fills which place does not matter: see below
    replay = _cached_replay(key, moves)
    if replay is None:
        world, known = _world_from(rules, first_view, rng)
        # The world's cards by the names they had when ``first`` was dealt, and back: a swap
        # of two cards never shown renames them in every earlier position too.
        label = {card: card for card in world.all_cards()}
        replay = _Replay([], rng.getstate(), world, known, world, 0, label, dict(label))
    rng.setstate(replay.rng)
    for index in range(len(replay.moves), len(steps)):
        view = rules.view_json(steps[index + 1].before, 0) if index + 1 < len(steps) else now
        swaps: list[tuple[Card, Card]] = []
        try:
            after, _ = rules.perform(replay.world, steps[index].move)
        except Exception:  # the world cannot follow the game: start afresh from the view
            after = None
        if after is None or not _take_view(after := after.copy(), view, replay.known, swaps):
            after, replay.known = _world_from(rules, view, rng)
            replay.first, replay.since = after, index + 1
            replay.label = {card: card for card in after.all_cards()}
            replay.origin = dict(replay.label)
            replay.trail.clear()
        if swaps:
            replay.trail.clear()  # the trail's names are no longer the world's
        label, origin = replay.label, replay.origin
        for one, other in swaps:
            origin[one], origin[other] = origin[other], origin[one]
            label[origin[one]], label[origin[other]] = one, other
        replay.world = after
        replay.moves.append(steps[index].move)
    replay.rng = rng.getstate()
    world, known = replay.world, replay.known
    # Only the cards some view has shown are named; the others keep their null, and the world's
    # random choice for them is dropped, so the answer depends on the views alone.
    piles = {}
    for pile_name, pile in now["piles"].items():
        cards = world.piles[pile_name]
        down = len(pile.get("down", []))
        shown = [*pile.get("down", []), *pile.get("up", [])]
        named = [
            str(card) if seen is None and card in known else seen
            for card, seen in zip(cards, shown, strict=True)
        ]
        piles[pile_name] = {**pile, "down": named[:down], "up": named[down:]}
    now["piles"] = piles
    past = _past(rules, replay)
    _keep_replay(key, replay)
    return _Memory(now, past)


def _past(rules: Rules[Any], replay: _Replay) -> list[State]:
    """The positions from the replay's ``first`` (in the world's names) on that its moves since
    lead through, ending at its ``world``, those only whose lasting marks are the current
    position's (the others cannot come back); just ``world`` if the replay does not lead to
    it. The positions are kept in ``replay.trail`` and only the moves since the last call are
    played, unless the names or ``first`` changed since (a card seen for the first time)."""
    world = replay.world
    if not replay.trail:
        replay.trail = [_renamed(replay.first, replay.label)]
        replay.trail_marks = [rules.lasting_marks(replay.trail[0])]
        replay.trail_broken = False
    wanted = len(replay.moves) - replay.since + 1
    while not replay.trail_broken and len(replay.trail) < wanted:
        move = replay.moves[replay.since + len(replay.trail) - 1]
        try:
            state = rules.perform(replay.trail[-1], move)[0]
        except Exception:
            replay.trail_broken = True
            break
        replay.trail.append(state)
        replay.trail_marks.append(rules.lasting_marks(state))
    if replay.trail_broken or replay.trail[-1].piles != world.piles:
        return [world]
    marks = rules.lasting_marks(world)
    if marks is None:
        return list(replay.trail)
    return [
        state for state, mark in zip(replay.trail, replay.trail_marks, strict=True) if mark == marks
    ]


def _renamed(state: State, name: Mapping[Card, Card]) -> State:
    """``state`` with every card ``card`` replaced by ``name[card]``."""
    renamed = state.copy()
    renamed.piles = {pile: [name[card] for card in cards] for pile, cards in state.piles.items()}
    return renamed


def _world_from(
    rules: Rules[Any], view: Mapping[str, Any], rng: random.Random
) -> tuple[State, set[int]]:
    """A world dealt from ``view`` and the set of its cards the view shows."""
    world = rules.sample_state(view, rng)
    known: set[int] = set()
    _take_view(world, view, known)
    return world, known


def _take_view(
    world: State,
    view: Mapping[str, Any],
    known: set[int],
    swaps: list[tuple[Card, Card]] | None = None,
) -> bool:
    """Make ``world`` show what ``view`` shows by swapping cards not yet ``known`` (no earlier
    view showed them), then add the cards it shows to ``known``. False (``world`` half
    changed) when it cannot: the piles differ in size, or a known card is not where the view
    shows it."""
    places: list[tuple[str, int, str]] = []
    for name, pile in view["piles"].items():
        down = pile.get("down", [])
        shown = [*down, *pile.get("up", [])]
        if len(world.piles[name]) != len(shown) or world.down[name] != len(down):
            return False
        places.extend((name, index, card) for index, card in enumerate(shown) if card is not None)
    wrong = [
        (name, index, card) for name, index, card in places if str(world.piles[name][index]) != card
    ]
    if wrong:
        shown_here = {(name, index): card for name, index, card in places}
        # Where each unknown card that is not already where a view shows it lies, by face.
        spare: dict[str, list[tuple[str, int]]] = {}
        for name, cards in world.piles.items():
            for index, card in enumerate(cards):
                if card not in known and shown_here.get((name, index)) != str(card):
                    spare.setdefault(str(card), []).append((name, index))
        for name, index, face in wrong:
            here = world.piles[name][index]
            if str(here) == face:
                continue  # a swap before this one brought the card
            if here in known or not spare.get(face):
                return False
            other_name, other_index = spare[face].pop()
            there = world.piles[other_name][other_index]
            world.piles[name][index], world.piles[other_name][other_index] = there, here
            if swaps is not None:
                swaps.append((here, there))
            # The card moved away is unknown and now lies where ``there`` lay.
            if shown_here.get((other_name, other_index)) != str(here):
                spare.setdefault(str(here), []).append((other_name, other_index))
            spare[str(here)] = [
                place for place in spare.get(str(here), []) if place != (name, index)
            ]
    for name, index, _ in places:
        known.add(world.piles[name][index])
    return True


def hint(
    game: Game,
    *,
    samples: int = DEFAULT_SAMPLES,
    seconds: float | None = DEFAULT_SECONDS,
    nodes: int | None = DEFAULT_NODES,
    seed: int | str | None = 0,
    race: bool = True,
    deepen: int | None = None,
) -> Hint:
    """Suggest a move in a one-player ``game`` from the player's view alone.

    ``samples`` worlds are dealt from the view (seeded by ``seed``, the view and the moves
    played: the same position asked twice gets the same worlds); in each, every legal move is
    played and the world after it solved with at most ``nodes`` nodes. ``seconds`` bounds the
    whole hint (None: no clock, which makes the hint reproducible on any machine; with the
    clock, the worlds judged before it ran out count). When nothing is hidden, or the hidden
    cards can lie only one way (:meth:`Rules.hidden_cards_known`), the game itself is solved
    with the whole budget (``nodes`` times ``samples``). With ``race`` (the default)
    a move stops being judged once it can no longer be among the best: the same move and
    chance, sooner, but the ``votes`` of such a move count only the worlds it was judged in.
    ``deepen`` (None: the game's :data:`DEEPEN`, else 1) searches the close calls again with
    that many times ``nodes`` in the worlds their first search left undecided. Raises
    ``ValueError`` for a game of more than one player or a hint with no budget.
    """
    if game.rules.players != 1:
        raise ValueError(f"{game.name} is not a one-player game: hints are for patience games")
    if samples < 1:
        raise ValueError(f"a hint needs 1 sample or more, not {samples}")
    if seconds is None and nodes is None:
        raise ValueError("a hint needs a budget: seconds, nodes or both")
    if (seconds is not None and seconds <= 0) or (nodes is not None and nodes < 1):
        raise ValueError("a hint's budget must be positive: seconds > 0, nodes >= 1")
    if deepen is None:
        deepen = DEEPEN.get(game.name, 1)
    if deepen < 1:
        raise ValueError(f"deepen is a factor of the nodes, 1 or more, not {deepen}")
    started = time.perf_counter()
    view: Mapping[str, Any] = game.view(0)
    outcome = view["outcome"]
    if outcome["result"] != "ongoing":
        reason = f"the game is over ({outcome['result']}"
        reason += f": {outcome['reason']})" if outcome.get("reason") else ")"
        return Hint(None, 1.0 if outcome["result"] == "won" else 0.0, 0, True, reason=reason)
    legal = [Move.from_json(data) for data in view["legal_moves"]]
    # What the player knows: the view, and every card seen before where it has gone since.
    memory = _remember(game)
    view = memory.view
    from . import default_engine  # the package imports this module: import it when used

    if default_engine(game.name) == "python":
        # Without the compiled core a search is some 50 times slower: fewer, shorter ones.
        samples = min(samples, PYTHON_SAMPLES)
        nodes = None if nodes is None else min(nodes, PYTHON_NODES)
    played = " ".join(move.text() for move in game.move_stack)
    fingerprint = json.dumps([seed, view, played], sort_keys=True, default=str)
    rng = random.Random(hashlib.sha256(fingerprint.encode()).hexdigest())

    stuck = game.name in BUILDING and _moves_without_progress(game) >= STUCK_AFTER

    def sampled(worlds: int) -> Hint:
        undoing = _undoing(game, legal)
        return _sampled(
            game.rules,
            view,
            legal,
            worlds,
            seconds,
            nodes,
            rng,
            started,
            race,
            undoing,
            memory.past,
            deepen,
            stuck,
        )

    if not has_hidden_cards(view) or game.rules.hidden_cards_known(view):
        # Every card is known (the cards hidden can lie only one way, such as the last card
        # face down): the game's own position is the one world there is.
        exact = _exact(game, legal, seconds, None if nodes is None else nodes * samples, started)
        if exact.exact or exact.move is not None:
            return exact
        # The search was cut short: judge every move in the one world there is, the game.
        judged = sampled(1)
        return replace(judged, reason=f"{exact.reason}; {judged.reason}")
    return sampled(samples)


def _exact(
    game: Game, legal: list[Move], seconds: float | None, nodes: int | None, started: float
) -> Hint:
    """Every card is known (nothing is hidden, or the hidden cards can lie only one way): the
    game's own position is all the player knows, so solve it."""
    from . import solve  # the package imports this module: import its solver when used

    solution = solve(game, seconds=seconds, nodes=nodes)
    took = time.perf_counter() - started
    known = "every card is known"
    if game.rules.player_sees_every_card and has_hidden_cards(game.view(0)):
        known += " (each was seen face up as it was dealt or moved)"
    # solve() keeps the game's history, and replays its win through the game: the first move
    # is legal here.
    if solution.result == "won" and solution.moves and solution.moves[0] in legal:
        first = solution.moves[0]
        reason = f"{known} and the solver found a win"
        return Hint(first, 1.0, 0, True, 1, 0, {first.text(): 1}, reason, took)
    if solution.result == "unwinnable":
        reason = f"{known} and the solver proved that no move wins any more"
        return Hint(None, 0.0, 0, True, reason=reason, seconds=took)
    reason = f"{known}, but the solver found no win within the budget ({solution.why})"
    return Hint(None, 0.0, 0, False, unknown=1, reason=reason, seconds=took)


def _sampled(
    rules: Rules[Any],
    view: Mapping[str, Any],
    legal: list[Move],
    samples: int,
    seconds: float | None,
    nodes: int | None,
    rng: random.Random,
    started: float,
    race: bool = True,
    undoing: frozenset[Move] = frozenset(),
    past: Sequence[State] = (),
    deepen: int = 1,
    stuck: bool = False,
) -> Hint:
    """Deal the hidden cards ``samples`` times from the view and judge every legal move by the
    share of those worlds still won after it (the same worlds for every move); among equally
    good moves, those of ``undoing`` come after the others of the same progress. With ``race``,
    a move stops being judged once it can no longer be among the best (:func:`_racing`).
    ``past`` (:class:`_Memory`) gives each world the positions of its game that it may not
    recreate. With ``deepen`` above 1, the close calls are searched again with that many times
    the nodes where the first search ran out of budget (:func:`_deepened`). With ``stuck`` (a
    game of :data:`BUILDING` that made no progress for :data:`STUCK_AFTER` moves), the moves
    that won every world judged are told apart by their shortest wins first."""
    deadline = None if seconds is None else started + seconds
    worlds: dict[str, State] = {}
    for _ in range(samples):
        world = rules.sample_state(view, rng)
        # The same world dealt twice (few hidden cards) would only weigh it twice.
        worlds.setdefault(json.dumps(rules.position_json(world, None), sort_keys=True), world)
    steps = _steps(rules, list(worlds.values()))
    candidates, by_lines = _candidates(steps, legal)
    tallies = {move: _Tally() for move in candidates}
    alive = list(candidates)
    done = 0
    judged: list[_Judged] = []
    for index, world in enumerate(worlds.values()):
        history = _world_past(past, world)
        lines = {move: steps[index].get(move, []) for move in by_lines}
        # The positions a step may not pass through: the world's past and the world itself
        # (the adapter's steps know nothing of the game so far: turning the stock round to a
        # position already reached would be refused in the real game).
        seen = {rules.key(state) for state in [*history, world]} if lines else set()
        here = _Judged(rules, world, history, lines, seen, {})
        for move in alive:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            here.results[move] = here.judge(move, nodes, deadline)
        if len(here.results) < len(alive):
            break  # out of time: a world counts only when every move was judged in it
        for move, result in here.results.items():
            tallies[move].add(result)
        judged.append(here)
        done += 1
        if race:
            alive = _racing(alive, tallies, len(worlds) - index - 1)
    if done and deepen > 1 and nodes is not None:
        tallies = _deepened(judged, candidates, tallies, nodes * deepen, deadline)
    took = time.perf_counter() - started
    if not done:
        reason = "the time ran out before a single deal of the hidden cards was judged"
        first = _first_choice(rules, next(iter(worlds.values())), legal)
        return Hint(first, 0.0, 0, False, reason=reason, seconds=took)
    progress = _progress(rules, next(iter(worlds.values())), candidates)
    # A move's score is its worlds won less its worlds proved lost (:meth:`_Tally.score`): a
    # world proved lost after one move and won after another is a difference of the moves,
    # not noise. Moves whose score falls short of the best by a quarter of its square root at
    # most count as equally good (the solver's short searches win a world after one move and
    # miss it after an equivalent one): among them progress decides, so that noise does not
    # walk the game back and forth between two piles; for the same reason a move that only
    # takes cards back to where they just came from comes after the others that make as much
    # progress.
    most = max(tallies[move].score() for move in candidates)
    close = [move for move in candidates if tallies[move].score() >= _close_floor(most)]
    # The worlds judged are every way the hidden cards can lie, and every one is won after some
    # of them: the game is won, and what is left is to finish it. Those moves only; among those
    # of the same progress (cards home, cards turned face up) and not taking cards back, the
    # shortest wins (over all worlds) first: progress alone could not tell apart moves that
    # shift runs between piles, and the policy walked on without end (Klondike draw 3 deal
    # 1089, docs/solving.md). With more ways than worlds judged (policy 9 asked only that every
    # world judged be won) the lengths of wins found at a few thousand nodes are noise, and
    # choosing by them walked won Klondike games to the 1,000-move limit (deals 1079, 1166).
    arrangements = rules.hidden_arrangements(view)
    every_way = arrangements is not None and done >= arrangements
    finishing = {
        move: sum(world.lengths[move] for world in judged)
        for move in close
        if (every_way or stuck) and tallies[move].won == done
    }
    if finishing:
        close = list(finishing)
    # In the games of BUILDING the building order comes before the shortest wins: their worlds
    # are won after almost every move until late in a deal, and a world, knowing its stock,
    # wins sooner after a deal, so that the shortest wins dealt one-suit Spider's stock before
    # a card was turned face up (deal 1001: four rows by move 12, the deal lost at move 44).
    # Stuck (STUCK_AFTER), the building order has been walking the game in circles: the
    # shortest wins come first, so that the hints follow one line of play.
    building = rules.name in BUILDING and not (stuck and finishing)

    def preference(move: Move) -> tuple[Any, ...]:
        order = progress[move][2:]
        return (
            *progress[move][:2],
            move not in undoing,
            *(order if building else ()),
            -finishing.get(move, 0),
            *(() if building else order),
            *tallies[move].rank(),
            -candidates.index(move),
        )

    best = max(close, key=preference)
    tally = tallies[best]
    interval = Interval.wilson(tally.won, done)
    low, high = interval.low, interval.high
    votes = {move.text(): tallies[move].won for move in candidates}
    if tally.won:
        reason = f"still won after it in {tally.won} of {done} deals of the hidden cards"
        if tally.unknown:
            reason += f", {tally.unknown} undecided within the budget"
    elif tally.unknown:
        reason = (
            f"no deal of the hidden cards was won after any move ({done} tried, "
            f"{tally.unknown} ran out of budget): the chance to win from here is low"
        )
    else:
        reason = (
            f"every one of the {done} deals of the hidden cards tried is lost after every move: "
            "the chance to win from here is low"
        )
    return Hint(
        best,
        tally.won / done,
        done,
        False,
        tally.won,
        tally.unknown,
        votes,
        reason,
        took,
        low=low,
        high=high,
        lost=tally.lost,
    )


@dataclass
class _Judged:
    """One sampled world and what became of it after each move judged in it."""

    rules: Rules[Any]
    world: State
    history: list[State]
    #: The moves judged by the steps they start (a stock turn), and those steps in this world.
    lines: dict[Move, list[Line]]
    #: The positions a step may not pass through.
    seen: set[Hashable]
    results: dict[Move, str]
    #: For each move whose search won this world: the moves of that win, the move's own included.
    lengths: dict[Move, int] = field(default_factory=dict)

    def judge(self, move: Move, nodes: int | None, deadline: float | None) -> str:
        """The solver's answer in this world after ``move`` (a move that starts steps of
        several moves, a stock turn, by the best of its steps: by the cards the turns bring
        within reach; "missing" when none of them can be played)."""
        ways = self.lines.get(move, [(move,)])
        result = "missing"
        for line in ways:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            after = _play(self.rules, self.world, line, self.seen)
            if after is None:
                continue
            solution = self._search(after, nodes, deadline)
            found: str = solution.result
            if solution.why == HISTORY_ONLY:
                # Every line the search kept would recreate a position of this world's past, and
                # neither the search without the past nor the one without the pruning rules found
                # a way round: lost as far as the search can tell (no proof, docs/solving.md,
                # "History"), and counted so, as before the solver said it was no proof.
                found = "unwinnable"
            if _BETTER.get(found, 2) > _BETTER[result]:
                result = found
            if found == "won":
                self.lengths[move] = len(line) + len(solution.moves)
                break
            undecided = found in ("unknown", "timeout") and self.rules.name in BUILDING
            if undecided and self._won_after_a_deal(move, line, after, nodes, deadline):
                return "won"
        return result

    def _search(self, state: State, nodes: int | None, deadline: float | None) -> Solution:
        """The solver's search from ``state`` in this world (its past kept), within ``nodes``
        and what is left of the time to ``deadline``."""
        from . import solve_state  # the package imports this module: import its solver when used

        share = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
        return solve_state(
            self.rules, state, past=self.history, seconds=share, nodes=nodes, replay=False
        )

    def _won_after_a_deal(
        self, move: Move, line: Line, after: State, nodes: int | None, deadline: float | None
    ) -> bool:
        """True when the search from ``after`` (this world after ``line``) with the stock dealt
        first wins: then the play wins this world too, by that line. In the games of
        :data:`BUILDING` a world knows its stock, so that its search wins sooner after a deal
        than after a play that leaves the deal for later: judged alone, the deal won more worlds
        within the nodes than every play, and one-suit Spider's hints dealt the whole stock by
        move 50 (deal 1004, docs/solving.md). Searched again this way, a play that loses
        nothing is worth as much as the deal, and the building order puts the deal after it."""
        if move.is_action or (deadline is not None and time.perf_counter() >= deadline):
            return False
        deals = [m for m in self.rules.candidate_moves(after) if m.is_action]
        if len(deals) != 1:
            return False
        dealt, _ = self.rules.perform(after, deals[0])
        solution = self._search(dealt, nodes, deadline)
        if solution.result != "won":
            return False
        self.lengths[move] = len(line) + 1 + len(solution.moves)
        return True


def _deepened(
    judged: list[_Judged],
    candidates: list[Move],
    tallies: dict[Move, _Tally],
    nodes: int,
    deadline: float | None,
) -> dict[Move, _Tally]:
    """The tallies after the close calls are searched again with ``nodes`` nodes: each move
    within the margin of the best (:func:`_close_floor`), in each world where its first search
    ran out of budget. Short searches leave many worlds undecided (one-suit Spider's 10,000
    nodes, half of them in mid-game): a tie between moves that one longer search would tell
    apart was then decided by progress, and progress chose a move that lost the deal (deal 1001
    at move 41, docs/solving.md)."""
    most = max(tallies[move].score() for move in candidates)
    close = [move for move in candidates if tallies[move].score() >= _close_floor(most)]
    if len(close) < 2:
        return tallies
    for world in judged:
        for move in close:
            if world.results.get(move) not in ("unknown", "timeout"):
                continue
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world.results[move] = world.judge(move, nodes, deadline)
    again = {move: _Tally() for move in candidates}
    for world in judged:
        for move, result in world.results.items():
            again[move].add(result)
    return again


def _world_past(past: Sequence[State], world: State) -> list[State]:
    """The positions of ``past`` as they were in ``world``: ``past`` ends with the current
    position in one world of the memory, which differs from ``world`` only in the names of
    cards never seen, so renaming its cards place by place gives ``world``'s past."""
    if not past:
        return []
    name = {
        card: other
        for pile, cards in past[-1].piles.items()
        for card, other in zip(cards, world.piles[pile], strict=True)
    }
    return [_renamed(state, name) for state in past]


def _close_floor(most: int) -> float:
    """The lowest score that counts as equally good as ``most`` (within chance of it): a
    quarter of its square root below it. The whole square root, as before policy 5, let a
    waste play proved lost in 4 worlds of 16 count as good as a stock turn lost in none
    (tuning deals 2006 and 2007: both waste plays lost the deal; docs/solving.md)."""
    return most - math.sqrt(max(most, 0)) / 4


def _racing(alive: list[Move], tallies: Mapping[Move, _Tally], remaining: int) -> list[Move]:
    """The moves of ``alive`` that can still end among the best with ``remaining`` worlds to
    judge. A score changes by at most one a world, so the best score at the end is at least
    today's best less ``remaining``, and the floor of the equally good (:func:`_close_floor`)
    grows with the best score: a move that cannot reach the floor of that lowest best even
    by winning every world left would never be chosen, and dropping it changes nothing but
    the time (tests/test_hint.py compares with the full evaluation)."""
    floor = _close_floor(max(tallies[move].score() for move in alive) - remaining)
    return [move for move in alive if tallies[move].score() + remaining >= floor]


def _steps(rules: Rules[Any], worlds: list[State]) -> list[dict[Move, list[Line]]]:
    """For each world, the steps of the solver's adapter (with its dominance rules) as lists of
    moves, by their first move."""
    from . import adapter_for  # the package imports this module: import it when used

    bound = adapter_for(rules)
    found = []
    for world in worlds:
        node = bound.node(world)
        lines: dict[Move, list[Line]] = {}
        for step, _ in bound.adapter.steps(node, True):
            moves = bound.adapter.moves(node, step)
            if moves:
                lines.setdefault(moves[0], []).append(tuple(moves))
        found.append(lines)
    return found


def _candidates(
    steps: list[dict[Move, list[Line]]], legal: list[Move]
) -> tuple[list[Move], frozenset[Move]]:
    """The legal moves worth judging: those that start a step of the solver's adapter, with its
    dominance rules, in some sampled world (``steps``: :func:`_steps`; the rules leave out moves
    that only shuffle cards between piles, which noise would otherwise let win now and then;
    docs/solving.md); every legal move if none does. Second, the actions among them that start
    a step of several moves (a stock turn, with the turns that bring a card within reach and
    its play): those are judged by their steps, never alone."""
    starting: set[Move] = set()
    longer: set[Move] = set()
    for lines in steps:
        for first, ways in lines.items():
            starting.add(first)
            if first.is_action and first.text() in _TURNS and any(len(way) > 1 for way in ways):
                longer.add(first)
    chosen = [move for move in legal if move in starting]
    return chosen or legal, frozenset(move for move in chosen if move in longer)


def _play(rules: Rules[Any], world: State, line: Line, seen: set[Hashable]) -> State | None:
    """``world`` after the moves of ``line``, or None if one of them recreates a position of
    ``seen``."""
    after = world
    for move in line:
        after, _ = rules.perform(after, move)
        if len(line) > 1 and rules.key(after) in seen:
            return None
    return after


@dataclass
class _Tally:
    """What became of the sampled worlds after one move."""

    won: int = 0
    lost: int = 0
    unknown: int = 0
    #: Worlds where none of the move's steps could be played (a stock turn that brings no
    #: playable card within reach): not won, and not proved lost.
    missing: int = 0

    def add(self, result: str) -> None:
        if result == "won":
            self.won += 1
        elif result == "unwinnable":
            self.lost += 1
        elif result == "missing":
            self.missing += 1
        else:
            self.unknown += 1

    def score(self) -> int:
        """Worlds won less worlds proved lost and worlds where the move's steps could not be
        played: what moves are compared by. A stock turn that brings no playable card within
        reach in a world is worth at most the best of the other moves there (it can only
        postpone them), so it must not outrank moves that were judged: counted as nothing, it
        beat a waste play won in 1 world and lost in 15 while the turn itself lost the deal
        (Canfield deals 1004 and 1010, docs/solving.md)."""
        return self.won - self.lost - self.missing

    def rank(self) -> tuple[int, int]:
        """A higher score first, then more worlds won."""
        return (self.score(), self.won)


def _progress(rules: Rules[Any], world: State, legal: list[Move]) -> dict[Move, tuple[int, ...]]:
    """How far each move takes the game, as the player sees it (ties between equally good
    moves go to progress): cards on the foundations, then fewer face-down cards in the
    tableau, then fewer cards in the stock and waste; in the games of :data:`BUILDING`, then
    the plays that build, then the other plays, then a deal from the stock.

    A deal that covers the tableau's cards (Spider's rows) empties the stock without putting a
    card home: counted as progress, it dealt Spider's whole stock at the first ties (tuning
    deal 2002: five rows dealt by move 18, the deal lost). Put before the plays that only move
    cards around (Spider's policies 8-13), it still dealt one-suit deal 1001's six rows by
    move 33 with 35 cards face down, and the deal was lost; put after them it dealt them by move
    91 and won. After every play, the game once walked runs from pile to pile for 800 moves
    (tuning deal 2001); :data:`STUCK_AFTER` now ends such walks. The plays that build
    (:func:`_order`: more face-up cards on a card of their suit one rank higher, or more empty
    piles) come first (docs/solving.md). Counts only: they are the same in every world of the
    view."""
    building = rules.name in BUILDING
    talon_now = pile_counts(rules.view_json(world, 0)["piles"])[2] if building else 0
    order_now = _order(world) if building else 0
    progress: dict[Move, tuple[int, ...]] = {}
    for move in legal:
        after, _ = rules.perform(world, move)
        home, down, talon = pile_counts(rules.view_json(after, 0)["piles"])
        if not building:
            progress[move] = (home, -down, -talon)
        elif move.is_action:
            progress[move] = (home, -down, -max(talon, talon_now), 0)
        else:
            progress[move] = (home, -down, -talon, 2 if _order(after) > order_now else 1)
    return progress


def _moves_without_progress(game: Game) -> int:
    """How many moves have been played since the game last made progress as the player sees
    it (:func:`_progress`'s counts: cards home, cards face down, cards in the stock and
    waste)."""

    def counts(state: State) -> tuple[int, int, int]:
        home = down = talon = 0
        for name, cards in state.piles.items():
            kind = _pile_kind(name)
            if kind == "talon":
                talon += len(cards)
            elif kind == "foundation":
                home += len(cards)
            else:
                down += state.down.get(name, 0)
        return home, down, talon

    now = counts(game.state)
    played = 0
    for step in reversed(game.history):
        if counts(step.before) != now:
            break
        played += 1
    return played


def _order(state: State) -> int:
    """How built the tableau is, as the player sees it: face-up cards lying on a face-up card
    of their suit one rank higher, and empty piles (the piles other than the foundations, the
    stock and the waste)."""
    built = 0
    for name, cards in state.piles.items():
        if _pile_kind(name) != "tableau":
            continue
        if not cards:
            built += 1
            continue
        up = cards[state.down[name] :]
        built += sum(
            1
            for lower, upper in itertools.pairwise(up)
            if lower.suit == upper.suit and lower.rank == upper.rank + 1
        )
    return built


def pile_counts(piles: Mapping[str, Mapping[str, Any]]) -> tuple[int, int, int]:
    """What a view's ``piles`` show of the game's progress: cards on the foundations (piles
    named ``f1``, ``f2``...), cards face down elsewhere than the stock and waste, and cards in
    the stock and waste. Counts only, the same in every world of a view."""
    home = down = talon = 0
    for name, pile in piles.items():
        cards = len(pile.get("down", [])) + len(pile.get("up", []))
        kind = _pile_kind(name)
        if kind == "talon":
            talon += cards
        elif kind == "foundation":
            home += cards
        else:
            down += len(pile.get("down", []))
    return home, down, talon


def _pile_kind(name: str) -> str:
    """``"talon"`` (the stock and the waste), ``"foundation"`` (``f1``, ``f2``...) or
    ``"tableau"`` (every other pile), by the pile's name."""
    if name in ("stock", "waste"):
        return "talon"
    if name[:1] == "f" and name[1:].isdigit():
        return "foundation"
    return "tableau"


def _undoing(game: Game, legal: list[Move]) -> frozenset[Move]:
    """The legal card moves that take back the cards the last move touching either of their
    piles brought (``t3-t7:4`` after ``t7-t3:4``, whatever happened to other piles in between):
    judged as good as the other moves by noise, such moves walked Klondike games back and forth
    between two piles for hundreds of moves. An action (a stock turn, a dealt row) touches the
    piles whose size or face-down count it changed. Read from the moves played and the sizes
    of the piles, which the player sees."""
    pairs = {
        move: {move.source, move.target}
        for move in legal
        if not move.is_action and move.source is not None and move.target is not None
    }
    steps = game.history
    undoing: set[Move] = set()
    for move, piles in pairs.items():
        for index in range(len(steps) - 1, -1, -1):
            step = steps[index]
            after = steps[index + 1].before if index + 1 < len(steps) else game.state
            last = _touching(game.rules, step.move, step.forced, step.before, after, piles)
            if last is None:
                continue
            if not last.is_action and (last.source, last.target, last.count) == (
                move.target,
                move.source,
                move.count,
            ):
                undoing.add(move)
            break
    return frozenset(undoing)


def _touching(
    rules: Rules[Any],
    move: Move,
    forced: Sequence[Move],
    before: State,
    after: State,
    piles: set[str],
) -> Move | None:
    """The last of a step's moves (``move`` and the ``forced`` ones after it) that touches one
    of ``piles``, or None. An action touches the piles whose size or face-down count differs
    between ``before`` and ``after`` the step."""
    for each in reversed([move, *forced]):
        if each.is_action:
            if any(
                len(before.piles[name]) != len(after.piles[name])
                or before.down[name] != after.down[name]
                for name in piles
            ):
                return each
        elif piles & {each.source, each.target}:
            return each
    return None


def _first_choice(rules: Rules[Any], world: State, legal: list[Move]) -> Move | None:
    """The first move of the most promising step in ``world`` by the solver's adapter (the one
    safe step of a dominance rule, else its move ordering) that the real game allows: the world
    has no history, so its first steps may recreate a position of the real game."""
    from . import adapter_for

    bound = adapter_for(rules)
    node = bound.node(world)
    for dominance in (True, False):
        for step, _ in bound.adapter.steps(node, dominance):
            moves = bound.adapter.moves(node, step)
            if moves and moves[0] in legal:
                return moves[0]
    return None
