"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012, "Information Set Monte Carlo Tree Search").

Each iteration deals the cards the bot cannot see at random, consistently with its view
(``Rules.sample_state``: a *determinization*), and walks a tree whose nodes are the searching
seat's information sets: a node is keyed by what that seat knows at that point
(``Rules.information_key``) and by who is to move, so after two different draws of its own the
seat's later choices are different nodes, while worlds that differ only in what it cannot see
(a rival's hand, which jack a rival laid face down) share one. Edges are moves
(:class:`~patience.moves.Move`, never integer actions), with UCB1 over availability counts (a
move's exploration term counts only the iterations in which it was legal) and a progressive
bias from the game's one-ply evaluation, which fades as a move is visited and sets apart moves
the playouts cannot. One node is added per iteration; the world is played on with the game's
playout policy for search (``Rules.playout_action``: its ``rollout_action`` unless the game
gives search a stronger one, as Leopard's greedy one) and each seat's reward
(``Rules.search_reward``: the result, won 1 / drawn 0.5 / lost 0, the margin only to break ties)
is backed up. The move played is the root's most visited one (the "robust child"); the search
stops early once no other move can catch up.

A game whose search runs in the compiled core says so with ``Rules.native_ismcts`` (Leopard:
:mod:`patience.bots.leopard_core`, proved the same game by tests/test_core_leopard.py; Double
Solitaire: core/src/double_solitaire.rs), the same loop with the game's own default budget
(``Rules.native_iterations``); ``engine="python"`` runs this module's loop instead.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping
from typing import Any

from ..engine import Rules
from ..moves import Move
from .base import Bot, BotError, register

_core: Any
try:
    from .. import _core
except ImportError:  # pragma: no cover - a source tree whose extension was never built
    _core = None

__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_ROLLOUT_DEPTH", "ENGINES", "IsmctsBot"]

#: Iterations per move by default: under one second a move for Leopard on the development
#: machine (docs/bots.md has the measurements).
DEFAULT_ITERATIONS = 1300
#: Where the search runs: ``auto`` (the compiled core for the games it searches, else Python),
#: ``core`` (the compiled core, or an error) or ``python``.
ENGINES = ("auto", "core", "python")
#: Playouts are cut after this many moves and scored by the game's ``evaluate``: shorter, less
#: noisy playouts bought more strength than full ones in Leopard (docs/bots.md).
DEFAULT_ROLLOUT_DEPTH = 12
#: A node tries a new move while it has fewer than ``WIDENING * sqrt(visits)`` of them.
WIDENING = 2.0
#: How much better (in bias: the one-ply evaluation as a chance of winning, less 0.5) a
#: near-equal move must look to be played instead of the most visited one (``near_equal``).
NEAR_BIAS = 0.05
#: The tree walk of one iteration stops after this many moves (games in which positions repeat,
#: such as Double Solitaire, could otherwise walk round a cycle of known nodes).
MAX_TREE_DEPTH = 60


class _Edge:
    """A move from a node: its visits, summed reward (for the seat that makes it), the
    iterations in which it was legal, and the progressive bias of the game's evaluation."""

    __slots__ = ("available", "bias", "cost", "total", "visits")

    def __init__(self, bias: float, cost: float) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.bias = bias
        #: The game's charge for the move (Rules.move_cost), taken off every reward.
        self.cost = cost


class _Node:
    """An information set of the searching seat with the seat to move there."""

    __slots__ = ("biases", "edges", "player", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.edges: dict[Move, _Edge] = {}
        #: The progressive bias of each move seen legal here (worked out from the second
        #: visit on: most nodes are visited once, and their move is the playout policy's).
        self.biases: dict[Move, float] = {}


@register
class IsmctsBot(Bot):
    """ISMCTS with a budget of ``iterations`` per move (or ``seconds``, if given, instead).

    ``exploration`` is UCB1's constant (rewards lie in [0, 1]); ``bias`` weighs the progressive
    bias (the one-ply evaluation of a move, worth ``bias / (visits + 1)``); ``rollout_depth``
    cuts playouts (None: play to the end); ``keep_tree`` keeps the last search's nodes in
    :attr:`last_tree` (the Python loop only); ``engine`` says where the search runs
    (:data:`ENGINES`). ``iterations`` None is the default of the engine that searches:
    the game's ``native_iterations`` in the core, :data:`DEFAULT_ITERATIONS` in Python.
    ``near_equal`` (standard errors; 0: off) tells near-equal moves apart by the one-ply
    evaluation, one at least ``near_bias`` better in bias: :meth:`final_choice`. ``costs``
    weighs the game's move costs (``Rules.move_cost``) in the rewards: 1 as the game charges
    them, 0 none. These three, when not given, are the game's (``Rules.search_defaults``), else
    0, :data:`NEAR_BIAS` and 1.
    ``playout`` names the game's playout policy (``Rules.playout_policies``, used by
    ``Rules.playout_action``; None: the game's default).
    """

    name = "ismcts"
    summary = "information-set Monte Carlo tree search over sampled deals of the unseen cards"

    def __init__(
        self,
        seed: int | str | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        bias: float = 1.0,
        rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH,
        keep_tree: bool = False,
        engine: str = "auto",
        near_equal: float | None = None,
        near_bias: float | None = None,
        costs: float | None = None,
        playout: str | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations is not None and int(iterations) < 1:
            raise BotError("ismcts needs iterations of 1 or more")
        if engine not in ENGINES:
            raise BotError(f"ismcts's engine is one of {', '.join(ENGINES)}, not {engine!r}")
        if engine == "core" and _core is None:
            raise BotError("ismcts: the compiled core (patience._core) is not built here")
        if engine == "core" and keep_tree:
            raise BotError("ismcts: keep_tree needs engine=python (the core keeps no tree)")
        if seconds is not None and float(seconds) <= 0:
            raise BotError("ismcts needs seconds above 0 (or none, to count iterations)")
        #: The iterations a move (None: the default of the engine that searches).
        self.iterations = None if iterations is None else int(iterations)
        self.engine = engine
        if near_equal is not None and float(near_equal) < 0:
            raise BotError("ismcts needs a near_equal of 0 or more (standard errors; 0: off)")
        #: Moves whose mean reward lies within this many standard errors of the most visited
        #: move's are near-equal to it (0: the most visited move is played; None: the game's).
        self.near_equal = None if near_equal is None else float(near_equal)
        if near_bias is not None and float(near_bias) <= 0:
            raise BotError("ismcts needs a near_bias above 0 (a bias that is clearly better)")
        #: How much better in bias a near-equal move must look to be played instead (None: the
        #: game's, else NEAR_BIAS).
        self.near_bias = None if near_bias is None else float(near_bias)
        if costs is not None and float(costs) < 0:
            raise BotError("ismcts needs costs of 0 or more (1: as the game charges, 0: none)")
        #: The weight of the game's move costs in the rewards (1: as charged, 0: none; None:
        #: the game's, else 1).
        self.costs = None if costs is None else float(costs)
        self.seconds = None if seconds is None else float(seconds)
        #: The game's playout policy by name (``Rules.playout_action``; None: the game's
        #: default), e.g. Leopard's ``greedy`` or ``policy``.
        self.playout = None if playout in (None, "", "default") else str(playout)
        self.exploration = float(exploration)
        self.bias = float(bias)
        #: Playouts stop after this many moves and the state is scored by the game's
        #: ``search_reward`` (None: play out to the end; ``off`` or 0 also say so, as text
        #: parameters of the arena and the ladder do).
        if isinstance(rollout_depth, str) and rollout_depth.strip().lower() in ("off", "none"):
            rollout_depth = None
        if rollout_depth is not None and int(rollout_depth) < 0:
            raise BotError("ismcts needs a rollout_depth of 0 or more (0 or off: to the end)")
        self.rollout_depth = None if not rollout_depth else int(rollout_depth)
        #: Iterations run for the last move (for benchmarks).
        self.last_iterations = 0
        #: The last search's nodes by key, kept only with ``keep_tree`` (for tests and
        #: analysis: a server sends the bot between processes with every move).
        self.keep_tree = keep_tree
        self.last_tree: dict[Hashable, _Node] = {}

    def tuning(self, rules: Rules[Any]) -> tuple[float, float, float]:
        """``near_equal``, ``near_bias`` and ``costs`` for a search in ``rules``: the bot's
        where given, else the game's (``Rules.search_defaults``), else 0, :data:`NEAR_BIAS`, 1."""
        game = rules.search_defaults
        near_equal = self.near_equal if self.near_equal is not None else game.get("near_equal", 0)
        near_bias = self.near_bias if self.near_bias is not None else game.get("near_bias")
        costs = self.costs if self.costs is not None else game.get("costs", 1.0)
        return (
            float(near_equal),
            NEAR_BIAS if near_bias is None else float(near_bias),
            float(costs),
        )

    def node_key(self, rules: Rules[Any], world: Any, seat: int) -> Hashable:
        """The node of ``world`` in a search by ``seat``: what ``seat`` knows there and who is
        to move."""
        return (rules.current_player(world), rules.information_key(world, seat))

    def _bias(self, rules: Rules[Any], world: Any, player: int, action: int) -> float:
        """The progressive bias of ``action`` for ``player``: its one-ply evaluation as a chance
        of winning, centred on 0 (the evaluation sees only public parts and the mover's own
        cards, so one world serves)."""
        after = rules.apply_action(world, action)
        return self.bias * (rules.search_reward(after, player) - 0.5)

    def decide(self, view: Mapping[str, Any]) -> Move:
        moves = self.legal(view)
        if len(moves) == 1:
            return moves[0]
        rules = self.rules_for(view)
        near_equal, near_bias, costs = self.tuning(rules)
        if self.playout is not None and self.playout not in rules.playout_policies:
            offered = ", ".join(rules.playout_policies) or "none but its default"
            raise BotError(
                f"ismcts: {rules.title} has no playout policy {self.playout!r} (it has {offered})"
            )
        # Leopard and Double Solitaire search in the compiled core through their rules
        # (Rules.native_ismcts: the same algorithm; None when the core is not built).
        if self.engine != "python" and not self.keep_tree:
            found = rules.native_ismcts(
                view,
                self.rng,
                iterations=self.iterations,
                seconds=self.seconds,
                exploration=self.exploration,
                bias=self.bias,
                rollout_depth=self.rollout_depth,
                costs=costs,
                playout=self.playout,
            )
            if found is not None:
                self.last_iterations, stats = found
                summary = _Node(int(view["seat"]))
                for move, visits, total, bias in stats:
                    summary.edges[move] = edge = _Edge(bias, 0.0)
                    edge.visits, edge.total = visits, total
                self.last_tree = {}
                return self.final_choice(
                    summary, moves, self.rng.random(), near_equal=near_equal, near_bias=near_bias
                )
            if self.engine == "core":
                raise BotError(f"ismcts: the compiled core does not search {rules.name}")
        seat = int(view["seat"])
        rng = self.rng
        tree: dict[Hashable, _Node] = {}
        c = self.exploration
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = DEFAULT_ITERATIONS if self.iterations is None else self.iterations
        done = 0
        root: _Node | None = None
        while done < budget if deadline is None else time.perf_counter() < deadline:
            done += 1
            world = rules.sample_state(view, rng)
            path: list[tuple[_Edge, int]] = []
            depth = 0
            # Selection and expansion: down known nodes until a move never tried there.
            while not rules.is_terminal(world) and depth < MAX_TREE_DEPTH:
                depth += 1
                player = rules.current_player(world)
                key = self.node_key(rules, world, seat)
                node = tree.get(key)
                if node is None:
                    node = tree[key] = _Node(player)
                if root is None:
                    root = node
                node.visits += 1
                edges = node.edges
                actions = rules.legal_actions(world)
                legal = [(rules.action_to_move(world, action), action) for action in actions]
                if node.visits > 1 and player == seat:
                    biases = node.biases
                    for move, action in legal:
                        if move not in biases:
                            biases[move] = self._bias(rules, world, player, action)
                            if move in edges:
                                edges[move].bias = biases[move]
                untried = [(move, action) for move, action in legal if move not in edges]
                # Progressive widening: a node adds moves as its visits grow, so that a rival's
                # node, where every sampled hand brings new moves, is searched below too
                # instead of trying a new move at every visit.
                if untried and (
                    len(edges) < WIDENING * math.sqrt(node.visits) or len(untried) == len(legal)
                ):
                    policy = rules.playout_action(world, rng, self.playout)
                    first = [pair for pair in untried if pair[1] == policy]
                    if first or node.visits == 1 or not node.biases:
                        # The playout policy's move (what a playout would try), else any.
                        move, action = first[0] if first else untried[rng.randrange(len(untried))]
                    else:
                        # The move the evaluation likes best is tried first (ties at random).
                        _, _, move, action = max(
                            (node.biases.get(move, 0.0), rng.random(), move, action)
                            for move, action in untried
                        )
                    edge = edges[move] = _Edge(
                        node.biases.get(move, 0.0),
                        costs * rules.move_cost(world, move) if costs else 0.0,
                    )
                    for other, _ in legal:
                        if other in edges:
                            edges[other].available += 1
                    world = rules.apply_action(world, action, in_place=True)
                    path.append((edge, player))
                    break
                best_score = -math.inf
                chosen = legal[0]
                for move, action in legal:
                    known = edges.get(move)
                    if known is None:
                        continue
                    known.available += 1
                    visits = known.visits
                    score = (
                        known.total / visits
                        + c * math.sqrt(math.log(known.available) / visits)
                        + known.bias / (visits + 1)
                    )
                    if score > best_score:
                        best_score, chosen = score, (move, action)
                path.append((edges[chosen[0]], player))
                world = rules.apply_action(world, chosen[1], in_place=True)
            # Playout: cut after rollout_depth moves, or at the end of a turn in games whose
            # turns are several moves (Rules.playout_turns).
            turns = rules.playout_turns
            steps = self.rollout_depth if turns is None else turns
            while not rules.is_terminal(world) and (steps is None or steps > 0):
                mover = rules.current_player(world)
                world = rules.apply_action(
                    world, rules.playout_action(world, rng, self.playout), in_place=True
                )
                if steps is not None and (turns is None or rules.current_player(world) != mover):
                    steps -= 1
            rewards = rules.search_rewards(world)
            for edge, player in path:
                edge.visits += 1
                edge.total += rewards[player] - edge.cost
            if deadline is None and root is not None and done % 100 == 0:
                counts = sorted((e.visits for e in root.edges.values()), reverse=True)
                # Stop once the runner-up could not catch up in the iterations left.
                if len(counts) > 1 and counts[0] - counts[1] > budget - done:
                    break
        self.last_iterations = done
        self.last_tree = tree if self.keep_tree else {}
        assert root is not None  # the view's seat is to move: the root was expanded
        return self.final_choice(
            root, moves, rng.random(), near_equal=near_equal, near_bias=near_bias
        )

    def final_choice(
        self,
        root: _Node,
        moves: list[Move],
        noise: float,
        near_equal: float | None = None,
        near_bias: float | None = None,
    ) -> Move:
        """The move played: the root's most visited legal move (:meth:`_robust`), unless
        ``near_equal`` is on and the search cannot tell it from a move the one-ply evaluation
        likes clearly better (by ``near_bias``, :data:`NEAR_BIAS` by default, of bias or
        more): a move visited at least a quarter as often whose mean reward is no more than
        ``near_equal`` standard errors below (each mean's variance taken as m(1 - m) / visits,
        rewards lying in [0, 1]). Then the
        most visited such move is played: the search shows no reason for, say, handing a rival
        a point in Leopard, where the evaluation counts the rivals' squares against the mover.
        ``near_equal`` and ``near_bias`` None: the bot's (:meth:`tuning` gives the game's)."""
        if near_equal is None:
            near_equal = self.near_equal or 0.0
        if near_bias is None:
            near_bias = NEAR_BIAS if self.near_bias is None else self.near_bias
        chosen = self._robust(root, moves, noise)
        best = root.edges.get(chosen)
        if near_equal <= 0 or best is None or best.visits == 0:
            return chosen
        mean = best.total / best.visits
        spread = max(mean * (1 - mean), 0.01) / best.visits
        others = []
        for move in moves:
            edge = root.edges.get(move)
            if edge is None or move == chosen or 4 * edge.visits < best.visits:
                continue
            other = edge.total / edge.visits
            error = math.sqrt(spread + max(other * (1 - other), 0.01) / edge.visits)
            if other >= mean - near_equal * error and edge.bias >= best.bias + near_bias:
                others.append((edge.visits, other, move))
        if not others:
            return chosen
        return max(others, key=lambda item: item[:2])[2]

    @staticmethod
    def _robust(root: _Node, moves: list[Move], noise: float) -> Move:
        """The root's most visited legal move; equal visits: the higher mean reward, then the
        higher bias (``noise`` only keeps the order of fully equal moves reproducible)."""

        def rank(move: Move) -> tuple[int, float, float]:
            edge = root.edges.get(move)
            if edge is None or edge.visits == 0:
                return (-1, 0.0, 0.0 if edge is None else edge.bias)
            return (edge.visits, edge.total / edge.visits, edge.bias)

        ranked = sorted(moves, key=rank, reverse=True)
        best = [move for move in ranked if rank(move) == rank(ranked[0])]
        return best[int(noise * len(best))]
