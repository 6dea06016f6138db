"""Solvers for the one-player games: is this deal winnable, and how (docs/solving.md).

>>> import patience
>>> from patience.solve import solve
>>> solution = solve(patience.new("klondike", deal=7, draw=1), nodes=200_000)
>>> solution.result
<Verdict.WON: 'won'>
>>> game = patience.new("klondike", deal=7, draw=1)
>>> game.replay_moves(solution.moves)
>>> game.outcome().result
<Result.WON: 'won'>

The answer is always one of ``won`` (with the moves), ``unwinnable`` (the whole space was
searched under sound pruning only) or ``unknown`` (a budget ran out). The solver knows every
card, face-down ones too ("thoughtful" solving).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ..engine import Game, Rules, State
from ..games.accordion import Accordion
from ..games.canfield import Canfield
from ..games.klondike import Klondike
from ..games.leonis_own import LeonisOwn
from ..games.napoleon import Napoleon
from ..games.spider import Spider
from ..moves import Move
from . import core
from .accordion import AccordionAdapter
from .canfield import CanfieldAdapter
from .generic import GenericAdapter
from .hint import Hint, hint
from .klondike import KlondikeAdapter
from .leonis_own import LeonisOwnAdapter
from .napoleon import NapoleonAdapter
from .search import HISTORY_ONLY, Adapter, Budget, SearchResult, Verdict, solver_search
from .spider import SpiderAdapter

__all__ = [
    "ADAPTERS",
    "CORE_SOLVER_VERSIONS",
    "ENGINES",
    "SAFE_MOVE_GAMES",
    "SOLVER_VERSIONS",
    "Budget",
    "Hint",
    "Solution",
    "SolverError",
    "Verdict",
    "adapter_for",
    "default_engine",
    "hint",
    "safe_moves",
    "solve",
    "solve_state",
    "solver_version",
]

#: Names each game's solver behaviour: a game's number is bumped whenever a change can alter
#: one of its results or their cost, so that studies (patience.study) keep results of
#: different solvers apart, and a change to one game's solver leaves the others' studies whole.
SOLVER_VERSIONS: dict[str, int] = {
    # 5, not 3: the core's Klondike rows took 3 and 4.
    "klondike": 5,
    "double-solitaire": 2,
    # 6: the first depth-first part stops at 20,000 nodes, as the core's 7.
    "spider": 6,
    "canfield": 4,
    "accordion": 2,
    "napoleon": 3,
    # 5, not 3: the core's rows took 3 and 4 (rows record their engine since, but one number
    # should name one solver); 6: the top two exiles' game first.
    "leonis-own": 6,
    "leopard": 2,
}


#: The versions of the compiled core's solvers (docs/solving.md, "The compiled core"): numbers
#: above the Python adapter's, so that a study never mixes rows of the two.
CORE_SOLVER_VERSIONS: dict[str, int] = {
    # 9: twin switches (rule 13); 10: rule 12's test with glued cards; 11: rule 12 tested
    # below every step that may lock a card, not at the root only.
    "klondike": 11,
    "canfield": 5,
    # With exile=choose, 4: the game of the top exile is searched first; 5: the game of the
    # top two exiles, and the top exile's within it (docs/solving.md).
    "leonis-own": 5,
    "accordion": 3,
    "napoleon": 7,
    # 7: the first depth-first run stops at 20,000 nodes (docs/solving.md, "Spider").
    "spider": 7,
}

#: The solvers' engines: ``core`` (compiled, the default where it knows the game) and
#: ``python`` (the adapters of this package, the reference).
ENGINES = core.ENGINES


def default_engine(game: str) -> str:
    """The engine that solves ``game`` by default: the core when it is built and knows the
    game, else the Python adapters."""
    return "core" if game in CORE_SOLVER_VERSIONS and core.available(game) else "python"


def solver_version(game: str, engine: str | None = None) -> int:
    """The version of ``game``'s solver on ``engine`` (default: :func:`default_engine`)."""
    if (engine or default_engine(game)) == "core":
        return CORE_SOLVER_VERSIONS[game]
    return SOLVER_VERSIONS[game]


class SolverError(RuntimeError):
    """The solver found a "win" that the engine does not accept: a bug, never an answer."""


@dataclass(frozen=True)
class Solution:
    """A solver's answer: ``result`` is a :class:`Verdict` (``won``, ``unwinnable`` or
    ``unknown``); ``moves`` are the player moves of a win (engine notation); ``why`` says which
    budget ran out."""

    result: Verdict
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"result", "moves", "nodes", "seconds"}`` (plus ``why`` for ``unknown``)."""
        data: dict[str, Any] = {
            "result": self.result,
            "moves": [move.text() for move in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }
        if self.why:
            data["why"] = self.why
        return data


class _Bound:
    """An adapter together with how to turn engine states into its nodes."""

    def __init__(self, adapter: Adapter[Any, Any], node: Callable[[State], Any]) -> None:
        self.adapter = adapter
        self.node = node


def _generic(rules: Rules[Any]) -> _Bound:
    return _Bound(GenericAdapter(rules), lambda state: state)


def _fast(rules_class: type[Rules[Any]], adapter_class: Any) -> Callable[[Rules[Any]], _Bound]:
    """A factory binding ``adapter_class`` (whose ``node`` converts engine states) to the
    rules of its game."""

    def bind(rules: Rules[Any]) -> _Bound:
        if not isinstance(rules, rules_class):
            raise TypeError(f"{adapter_class.__name__} solves {rules_class.__name__}, not {rules}")
        adapter = adapter_class(rules)
        return _Bound(adapter, adapter.node)

    return bind


def _spider(rules: Rules[Any]) -> _Bound:
    if isinstance(rules, Spider) and not rules.auto_remove:
        # The fast adapter removes a completed suit as the forced move it is with the option on.
        return _generic(rules)
    return _fast(Spider, SpiderAdapter)(rules)


#: Game name -> the fast adapter for it; every other game is solved by the generic adapter.
ADAPTERS: dict[str, Callable[[Rules[Any]], _Bound]] = {
    "klondike": _fast(Klondike, KlondikeAdapter),
    "spider": _spider,
    "canfield": _fast(Canfield, CanfieldAdapter),
    "accordion": _fast(Accordion, AccordionAdapter),
    "napoleon": _fast(Napoleon, NapoleonAdapter),
    "leonis-own": _fast(LeonisOwn, LeonisOwnAdapter),
}


def adapter_for(rules: Rules[Any], generic: bool = False) -> _Bound:
    """The adapter that solves ``rules``' game: the game's own if there is one (and ``generic``
    is false), else the generic one."""
    if not generic and rules.name in ADAPTERS:
        return ADAPTERS[rules.name](rules)
    return _generic(rules)


#: The games whose solver has a proved rule of safe moves to the foundations that reads only
#: what the player sees (docs/solving.md: Klondike's rule 4, Canfield's rule 5, Napoleon's rule
#: 3): such a move never costs a win. Leoni's Own's safe plays are left out, since they look at
#: the squared piles' covered cards, and Spider's suits go up by themselves already.
SAFE_MOVE_GAMES = ("klondike", "canfield", "napoleon")


def safe_moves(game: Game) -> list[Move]:
    """The safe moves to the foundations that the solver would make from here, first to last
    (empty when there is none, the game is over, or its solver has no such rule): a web page's
    automatic moves. The game is not touched; each move is legal in turn unless the repetition
    rule forbids it, which :meth:`Game.push` then says."""
    if game.name not in SAFE_MOVE_GAMES or game.outcome().is_over:
        return []
    bound = ADAPTERS[game.name](game.rules)
    node = bound.node(game.state)
    found = bound.adapter.safe_step(node)
    if found is None:
        return []
    moves: list[Move] = bound.adapter.moves(node, found[0])
    return moves


def _history(game: Game) -> list[State]:
    """The states the game has been in (they may not be recreated), oldest first."""
    states = [game.start_state]
    state = states[0]
    for move in game.move_stack:
        state, _ = game.rules.perform(state, move)
        states.append(state)
    return states


def solve(
    game: Game,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    max_states: int | None = None,
    cpu_time: bool = False,
    generic: bool = False,
    dominance: bool = True,
    table: bool = True,
    engine: str | None = None,
    replay: bool = True,
    past: Sequence[State] | None = None,
) -> Solution:
    """Solve ``game`` from where it stands (the positions it has been in may not be repeated).

    ``seconds`` and ``nodes`` bound the search (a node budget is reproducible); ``max_states``
    bounds the table of seen states (default: :data:`Budget.max_states` for the Python engine,
    :data:`core.CORE_MAX_STATES` for the core); with ``cpu_time`` the seconds are the CPU time
    of the thread that searches, not the wall clock's (the answer's ``seconds`` too).
    ``engine`` is ``core`` or ``python`` (default: :func:`default_engine`); ``generic`` forces
    the generic Python adapter; ``dominance`` and ``table`` switch pruning off (for tests).
    Every ``won`` has been replayed through a copy of the game before it is returned (unless
    ``replay`` is false: the hints, which judge many sampled worlds by their verdict alone and
    never show those moves, skip the replay, the most costly part of a short search).
    ``past``, if given, lists the positions that may not be recreated instead of the game's
    own history (the hints' worlds, each with the past of the game it stands for).
    """
    if game.rules.players != 1:
        raise ValueError(f"{game.name} is not a one-player game: the solver plays patience only")
    if engine is not None and engine not in ENGINES:
        raise ValueError(f"no solver engine {engine!r}: the engines are {', '.join(ENGINES)}")
    if generic:
        engine = "python"
    chosen = engine or default_engine(game.name)
    history = _history(game)[:-1] if past is None else list(past)
    search = partial(
        _search,
        game.rules,
        game.state,
        engine=chosen,
        generic=generic,
        max_states=max_states,
        cpu_time=cpu_time,
        dominance=dominance,
        table=table,
    )
    solution = search(history, seconds=seconds, nodes=nodes)
    if solution.why == HISTORY_ONLY:
        solution = _without_history(
            game.rules, game.state, history, solution, search, seconds, nodes, dominance
        )
    if solution.result == Verdict.WON and replay:
        _check_win(game, solution.moves)
    return solution


def _search(
    rules: Rules[Any],
    state: State,
    history: list[State],
    *,
    engine: str,
    generic: bool,
    seconds: float | None,
    nodes: int | None,
    max_states: int | None,
    cpu_time: bool,
    dominance: bool,
    table: bool,
) -> Solution:
    """One search of ``engine`` from ``state``, ``history`` not to be recreated."""
    if engine == "core":
        result, moves, expanded, spent, why, _ = core.solve(
            rules,
            state,
            history,
            seconds=seconds,
            nodes=nodes,
            max_states=core.CORE_MAX_STATES if max_states is None else max_states,
            cpu_time=cpu_time,
            dominance=dominance,
            table=table,
        )
        return Solution(Verdict(result), moves, expanded, spent, why)
    bound = adapter_for(rules, generic)
    found: SearchResult = solver_search(
        bound.adapter,
        bound.node(state),
        Budget(
            seconds=seconds,
            nodes=nodes,
            max_states=Budget.max_states if max_states is None else max_states,
            cpu_time=cpu_time,
        ),
        [bound.node(past) for past in history],
        dominance=dominance,
        table=table,
    )
    return Solution(found.result, found.moves, found.nodes, found.seconds, found.why)


def _without_history(
    rules: Rules[Any],
    state: State,
    history: list[State],
    failed: Solution,
    search: Callable[..., Solution],
    seconds: float | None,
    nodes: int | None,
    dominance: bool,
) -> Solution:
    """What the search with ``history`` could not settle (``failed``: every line it tried was
    refused for recreating a position of ``history``, or cut by a pruning rule proved only for
    a game whose positions may repeat), settled with the rest of the budget if it can be: by a
    search that ignores the history (a position lost even where positions may repeat is lost
    under the rule, which only takes moves away; a win of it that recreates no position of
    ``history`` is a win), then, with ``dominance``, by a search with the history and without
    the dominance rules (a win it finds keeps the rule). Anything else stays ``unknown``
    (docs/solving.md, "History")."""
    tries = [([], dominance), *([(history, False)] if dominance else [])]
    for past, pruned in tries:
        left_seconds = None if seconds is None else seconds - failed.seconds
        left_nodes = None if nodes is None else nodes - failed.nodes
        if (left_seconds is not None and left_seconds <= 0) or (
            left_nodes is not None and left_nodes < 1
        ):
            break
        again = search(past, seconds=left_seconds, nodes=left_nodes, dominance=pruned)
        nodes_spent, seconds_spent = failed.nodes + again.nodes, failed.seconds + again.seconds
        lost = again.result == Verdict.UNWINNABLE and not past
        won = again.result == Verdict.WON and (past or _avoids(rules, state, again.moves, history))
        if lost or won:
            return replace(again, nodes=nodes_spent, seconds=seconds_spent)
        failed = replace(failed, nodes=nodes_spent, seconds=seconds_spent)
    return failed


def _avoids(rules: Rules[Any], state: State, moves: list[Move], history: list[State]) -> bool:
    """True if playing ``moves`` from ``state`` recreates no position of ``history``."""
    seen = {rules.key(past) for past in history}
    for move in moves:
        state, _ = rules.perform(state, move)
        if rules.key(state) in seen:
            return False
    return True


def solve_state(
    rules: Rules[Any], state: State, past: Sequence[State] = (), **budget: Any
) -> Solution:
    """Solve a bare state with the keyword arguments of :func:`solve`: no history, or the
    positions ``past`` that may not be recreated."""
    return solve(Game.create(rules, state=state), past=past, **budget)


def _check_win(game: Game, moves: list[Move]) -> None:
    copy = Game.create(game.rules, deal=game.deal, state=game.start_state)
    copy.opening = list(game.opening)
    try:
        copy.replay_moves([*game.move_stack, *moves])
    except ValueError as error:
        raise SolverError(f"the solver's win does not replay: {error}") from None
    if copy.outcome().result != "won":
        raise SolverError("the solver's moves do not win the game")
