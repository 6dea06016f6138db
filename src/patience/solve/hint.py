"""Honest hints: a move suggested from what the player can see (docs/solving.md, "Hints").

The hint never reads a hidden card of the game. It takes the player's view (:meth:`Game.view`,
where every hidden card is ``null``), deals the hidden cards at random consistently with it,
solves each such world within a small budget, and recommends the legal move that starts a win in
the most worlds; the share of worlds won estimates the chance of winning from here. A position
with nothing hidden is solved directly: then the answer is exact whenever the solver finishes.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine import Game, PositionError, Rules, State
from ..moves import Move

if TYPE_CHECKING:
    from . import Solution

__all__ = [
    "DEFAULT_NODES",
    "DEFAULT_SAMPLES",
    "DEFAULT_SECONDS",
    "Hint",
    "has_hidden_cards",
    "hint",
    "sample_world",
]

#: Worlds sampled per hint by default.
DEFAULT_SAMPLES = 12
#: The whole hint's time budget by default (seconds), shared out between the samples: a hint
#: in the terminal or the browser should answer within a couple of seconds.
DEFAULT_SECONDS = 2.0
#: The node budget of each sample's search by default (None: the time budget alone bounds it).
DEFAULT_NODES: int | None = None

#: The parts of :meth:`Game.view` that are about the seat, not the position.
_VIEW_ONLY = ("seat", "legal_moves", "outcome")


@dataclass(frozen=True)
class Hint:
    """A suggested move and how likely a win is from here.

    ``move`` is a legal move of the game (None when none is suggested: the game is over, or no
    sampled world was won within the budget, or the solver proved that nothing wins).
    ``chance`` is the share of the ``samples`` worlds in which the solver found a win (worlds
    whose search ran out of budget count as not won). ``exact`` is true when nothing was hidden
    and the solver gave a final answer (``chance`` is then 1 or 0). ``votes`` counts, per first
    move (engine notation), the worlds it won; ``unknown`` the worlds whose budget ran out;
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

    def to_json(self) -> dict[str, Any]:
        """``{"move", "move_json", "chance", "samples", "exact"}``: what the web page shows
        (``move`` in the engine's text notation, ``move_json`` its JSON form; both null when no
        move is suggested)."""
        return {
            "move": None if self.move is None else self.move.text(),
            "move_json": None if self.move is None else self.move.to_json(),
            "chance": self.chance,
            "samples": self.samples,
            "exact": self.exact,
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
            f"Play {self.move.text()}: it starts a win in {self.votes.get(self.move.text(), 0)} "
            f"of {self.samples} deals of the hidden cards (about {round(self.chance * 100)}% "
            f"to win from here)."
        )


def has_hidden_cards(view: Mapping[str, Any]) -> bool:
    """True if the view hides any pile card (a ``null`` among its piles' cards)."""
    return any(
        card is None
        for pile in view["piles"].values()
        for part in ("down", "up")
        for card in pile.get(part, [])
    )


def sample_world(rules: Rules[Any], view: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``view``, its hidden cards dealt at random by ``rng``.

    A game's own :meth:`Rules.sample_state` is used when it has one (the games the bots play);
    otherwise the cards seen nowhere in the view are shuffled into its ``null`` places, which
    is all that a one-player game hides (face-down cards, squared piles).
    """
    if type(rules).sample_state is not Rules.sample_state:
        sampled: State = rules.sample_state(view, rng)
        return sampled
    unseen = Counter(str(card) for card in rules.deck())
    places = 0
    for pile in view["piles"].values():
        for part in ("down", "up"):
            for card in pile.get(part, []):
                if card is None:
                    places += 1
                else:
                    unseen[card] -= 1
    cards = sorted(unseen.elements())
    if len(cards) != places or any(count < 0 for count in unseen.values()):
        raise PositionError(
            f"the view of {rules.name} hides {places} cards but {len(cards)} are unseen: "
            "it hides cards outside its piles, which this sampler cannot deal"
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
    position = {key: value for key, value in view.items() if key not in _VIEW_ONLY}
    position["piles"] = piles
    world: State = rules.state_from_json(position)
    return world


def hint(
    game: Game,
    *,
    samples: int = DEFAULT_SAMPLES,
    seconds: float | None = DEFAULT_SECONDS,
    nodes: int | None = DEFAULT_NODES,
    seed: int | str | None = 0,
) -> Hint:
    """Suggest a move in a one-player ``game`` from the player's view alone.

    ``samples`` worlds are dealt from the view (``seed`` fixes them: the same view and seed give
    the same worlds); each is solved with at most ``nodes`` nodes and its share of ``seconds``
    (the budget of the whole hint; None for no clock, which with ``nodes`` makes the hint
    reproducible). When nothing is hidden the game itself is solved with the whole budget.
    Raises ``ValueError`` for a game of more than one player or a hint with no budget.
    """
    if game.rules.players != 1:
        raise ValueError(f"{game.name} is not a one-player game: hints are for patience games")
    if samples < 1:
        raise ValueError(f"a hint needs 1 sample or more, not {samples}")
    if seconds is None and nodes is None:
        raise ValueError("a hint needs a budget: seconds, nodes or both")
    if (seconds is not None and seconds <= 0) or (nodes is not None and nodes < 1):
        raise ValueError("a hint's budget must be positive: seconds > 0, nodes >= 1")
    started = time.perf_counter()
    view = game.view(0)
    outcome = view["outcome"]
    if outcome["result"] != "ongoing":
        reason = f"the game is over ({outcome['result']}"
        reason += f": {outcome['reason']})" if outcome.get("reason") else ")"
        return Hint(None, 1.0 if outcome["result"] == "won" else 0.0, 0, True, reason=reason)
    legal = [Move.from_json(data) for data in view["legal_moves"]]
    if not has_hidden_cards(view):
        return _exact(game, legal, seconds, None if nodes is None else nodes * samples, started)
    return _sampled(game.rules, view, legal, samples, seconds, nodes, seed, started)


def _exact(
    game: Game, legal: list[Move], seconds: float | None, nodes: int | None, started: float
) -> Hint:
    """Nothing is hidden: the game's own position is all the player knows, so solve it."""
    from . import solve  # the package imports this module: import its solver when used

    solution = solve(game, seconds=seconds, nodes=nodes)
    took = time.perf_counter() - started
    # solve() keeps the game's history, and replays its win through the game: the first move
    # is legal here.
    if solution.result == "won" and solution.moves and solution.moves[0] in legal:
        first = solution.moves[0]
        reason = "nothing is hidden and the solver found a win"
        return Hint(first, 1.0, 0, True, 1, 0, {first.text(): 1}, reason, took)
    if solution.result == "unwinnable":
        reason = "nothing is hidden and the solver proved that no move wins any more"
        return Hint(None, 0.0, 0, True, reason=reason, seconds=took)
    reason = f"nothing is hidden, but the solver found no win within the budget ({solution.why})"
    return Hint(None, 0.0, 0, False, unknown=1, reason=reason, seconds=took)


def _sampled(
    rules: Rules[Any],
    view: Mapping[str, Any],
    legal: list[Move],
    samples: int,
    seconds: float | None,
    nodes: int | None,
    seed: int | str | None,
    started: float,
) -> Hint:
    """Deal the hidden cards ``samples`` times from the view and tally the winning first moves."""
    from . import solve_state  # the package imports this module: import its solver when used

    rng = random.Random(seed)
    deadline = None if seconds is None else started + seconds
    votes: Counter[Move] = Counter()
    # Where no world is won, the move the solver would try first in most undecided worlds.
    choices: Counter[Move] = Counter()
    solved: dict[str, Solution] = {}
    done = unknown = 0
    for index in range(samples):
        share = None
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            share = left / (samples - index)
        world = sample_world(rules, view, rng)
        # The same world dealt twice (few hidden cards) is solved once.
        key = json.dumps(rules.position_json(world, None), sort_keys=True)
        solution = solved.get(key)
        if solution is None:
            solution = solved[key] = solve_state(rules, world, seconds=share, nodes=nodes)
        done += 1
        # The world has no history, so a first move that the real game refuses (it would
        # recreate a position) counts as no win.
        if solution.result == "won" and solution.moves and solution.moves[0] in legal:
            votes[solution.moves[0]] += 1
        elif solution.result == "unknown":
            unknown += 1
            first = _first_choice(rules, world, legal)
            if first is not None:
                choices[first] += 1
    took = time.perf_counter() - started
    wins = sum(votes.values())
    chance = wins / done if done else 0.0
    tally = {move.text(): count for move, count in votes.items()}
    if not wins:
        reason = f"no win found in {done} deals of the hidden cards"
        if unknown:
            reason += f" ({unknown} ran out of budget)"
        if not choices:
            return Hint(None, 0.0, done, False, 0, unknown, tally, reason, took)
        reason += "; the move is the one the solver tries first in most of them"
        return Hint(_most(choices, legal), 0.0, done, False, 0, unknown, tally, reason, took)
    reason = f"won in {wins} of {done} deals of the hidden cards"
    return Hint(_most(votes, legal), chance, done, False, wins, unknown, tally, reason, took)


def _most(counts: Counter[Move], legal: list[Move]) -> Move:
    """The most counted move; ties go to the move the game lists first."""
    return max(counts, key=lambda move: (counts[move], -legal.index(move)))


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
