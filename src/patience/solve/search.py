"""The search every solver shares: depth-first, with a transposition table and honest budgets.

A game plugs in through an :class:`Adapter` (docs/solving.md): it turns engine states into its
own nodes, lists a node's steps in order of promise (or just the one safe step a dominance rule
allows), and says what counts as the same state. The search itself knows no game.

Why the answers can be trusted:

* ``won`` comes with engine moves; :func:`patience.solve.solve` replays them through
  :class:`patience.Game` before it answers.
* ``unwinnable`` is given only when the depth-first search ran out of steps without a budget or
  the table's memory bound cutting it short. The transposition table holds states already
  explored or on the current path; a state is stored for good only when its failure did not
  depend on the path that led to it (the "no position repeated" rule makes legality depend on
  the path: see docs/solving.md, "History").
* Determinism: steps are explored in the order the adapter lists them (or, after a restart, the
  order :meth:`Adapter.reorder` makes of it); the table is only ever looked up, never iterated.
* Restarts (when the adapter asks for them with ``restart_nodes``): after that many nodes, then
  twice as many, and so on, the search starts again from the root with steps in another order,
  keeping in the table only the states it proved lost (docs/solving.md, Klondike,
  "Restarts"). A winning line is found sooner when the first order sent the search into a large
  lost region.

For the games where depth-first search gets lost early (Spider, Napoleon at St Helena),
:func:`staged` is a beam over the adapter's stages that can only find wins (Spider uses
:func:`staged_beam`, which searches each stage in layers too), and :func:`solver_search`
shares a budget between it and :func:`depth_first` (docs/solving.md, "The staged search").
"""

from __future__ import annotations

import enum
import heapq
import time
import zlib
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Generic, TypeVar

from ..moves import Move

__all__ = [
    "HISTORY_ONLY",
    "Adapter",
    "Budget",
    "SearchResult",
    "Verdict",
    "depth_first",
    "one_of_the_first",
    "solver_search",
    "staged",
    "staged_beam",
]

N = TypeVar("N")
T = TypeVar("T")
S = TypeVar("S")

#: How many nodes are expanded between two looks at the clock.
CLOCK_EVERY = 256

#: Why a depth-first search that failed everywhere answers ``unknown`` when some of its lines
#: were refused for recreating a position the game was in before the search: the pruning rules
#: are proved for a game whose positions may repeat (docs/solving.md, "History"), so the failure
#: proves nothing. :func:`patience.solve.solve` then searches again without the history. The
#: core says the same in the same words.
HISTORY_ONLY = (
    "no win found that avoids the positions already played, which proves nothing: "
    "the pruning rules assume that positions may repeat"
)


def one_of_the_first(steps: list[S], key: bytes, restart: int, width: int) -> list[S]:
    """``steps`` with one of the first ``width`` moved to the front, chosen by a CRC-32 of
    ``key`` (a node's bytes) and the run number ``restart``: a reorder for restarts that is the
    same on every run and machine (never string hashing) and never drops a step."""
    if len(steps) < 2:
        return steps
    pick = zlib.crc32(key + restart.to_bytes(4, "little")) % min(len(steps), width)
    return [steps[pick], *steps[:pick], *steps[pick + 1 :]]


@dataclass(frozen=True)
class Budget:
    """Limits on one search. ``seconds`` and ``nodes`` stop it with ``unknown``; so does the
    transposition table growing past ``max_states`` entries (the memory bound). A node budget
    gives the same answer on every run and machine; a time budget need not."""

    seconds: float | None = None
    nodes: int | None = None
    max_states: int = 3_000_000
    #: Count ``seconds`` in CPU time of the searching thread instead of wall-clock time: a
    #: busy machine then gives each search the same work (benchmarks and studies on shared
    #: cores); the thread's, not the process's, so that a Dask worker solving deals in
    #: several threads gives each its whole budget.
    cpu_time: bool = False


class Verdict(enum.StrEnum):
    """A solver's answer for a position: ``won`` (a win was found), ``unwinnable`` (the whole
    space was searched under sound pruning only) or ``unknown`` (a budget ran out). A ``str``,
    written in JSON and stores as its value."""

    WON = "won"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


@dataclass
class SearchResult:
    """What the search found: ``result`` is a :class:`Verdict`; ``moves`` the engine's player
    moves of a win; ``why`` says which budget ran out for ``unknown``."""

    result: Verdict
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    why: str = ""


class Adapter(Generic[N, T]):
    """How the search sees one game. ``N`` is the adapter's node type, ``T`` its step type.

    A *step* leads from a node to a child and stands for one or more engine player moves (a
    Klondike step may turn the stock several times and then play the waste card).
    """

    #: Nodes before the first restart (None: never restart); each later run gets twice as many.
    restart_nodes: int | None = None
    #: Nodes of the first run, in the adapter's own order, when it should differ from
    #: ``restart_nodes`` (a good order deserves a longer first try); None: ``restart_nodes``.
    first_run_nodes: int | None = None
    #: The tries of :func:`staged` before the depth-first search, each ``(width, nodes)``;
    #: empty: the adapter has no :meth:`score` and only the depth-first search runs.
    staged_tries: tuple[tuple[int, int], ...] = ()
    #: The tries of :func:`staged_beam`, each ``(width, beam, depth)``; when not empty,
    #: :func:`solver_search` runs it instead of :func:`staged` (an adapter may keep
    #: ``staged_tries`` for :func:`staged` called directly).
    beam_tries: tuple[tuple[int, int, int], ...] = ()
    #: :func:`staged_beam` ends a stage after this many layers without a better score.
    beam_patience: int = 10
    #: The most nodes of :func:`solver_search`'s first depth-first run, whatever its share of
    #: the budget (None: its share only).
    first_nodes: int | None = None

    def safe_step(self, node: N) -> tuple[T, N] | None:
        """The step of the adapter's proved safe moves to the foundations when one exists
        here (docs/solving.md), else None; adapters without such a rule have none."""
        return None

    def reorder(
        self, node: N, canon: Hashable, steps: list[tuple[T, N]], restart: int
    ) -> list[tuple[T, N]]:
        """The steps in the order run number ``restart`` (1, 2, ...) explores them; ``canon``
        is the node's :meth:`canonical` key. It must depend only on the node, the steps and
        ``restart`` (never on hashing of strings, which changes from run to run)."""
        return steps

    def score(self, node: N) -> float:
        """How promising ``node`` looks, higher better: the order of :func:`staged` (needed
        only with :attr:`staged_tries`)."""
        raise NotImplementedError

    def stage(self, node: N) -> int:
        """A number that few steps change (see :func:`staged`): 0 for a game without stages."""
        return 0

    def canonical(self, node: N) -> Hashable:
        """The transposition-table key: equal for states that are equally winnable (for
        example with interchangeable piles sorted). It must not depend on anything that the
        search's answer could depend on except through :meth:`worse`."""
        raise NotImplementedError

    def worse(self, node: N) -> int:
        """A number that only grows along a path and makes a state no better when it grows
        (passes used through the stock). The table skips a node whose canonical key was seen
        with a value no greater. Adapters without such a counter return 0."""
        return 0

    def path_key(self, node: N) -> Hashable:
        """The engine's repetition key of the node's state, or anything equal exactly when the
        engine keys are equal (the search refuses steps that recreate a position of the game)."""
        raise NotImplementedError

    def layout_key(self, node: N) -> Hashable:
        """A coarser key shared by the node and the states inside its steps (a Klondike stock
        being turned); only when another state on the path has the same layout key does the
        search ask :meth:`inner_keys`. Defaults to :meth:`path_key`."""
        return self.path_key(node)

    def inner_keys(self, node: N, step: T) -> Iterable[Hashable]:
        """The path keys of the states a step passes through between ``node`` and its child
        (not the child itself). Most steps are one engine move and pass through none."""
        return ()

    def won(self, node: N) -> bool:
        """True if the game is won in this node."""
        raise NotImplementedError

    def steps(self, node: N, dominance: bool) -> list[tuple[T, N]]:
        """The steps from ``node`` with their children, most promising first. With
        ``dominance``, an adapter may return just one step that a proved rule says is never
        worse than any other (docs/solving.md); the search asks again without it if that one
        step is refused by the repetition rule."""
        raise NotImplementedError

    def moves(self, node: N, step: T) -> list[Move]:
        """The engine's player moves that make up ``step`` (forced moves are the engine's)."""
        raise NotImplementedError

    def narrowed(self) -> Adapter[N, T] | None:
        """The same game with fewer choices, every step of which is a step of this one (None:
        there is none): its wins are wins here, its proofs of loss prove nothing.
        :func:`solver_search` searches it first, with :data:`NARROWED_SHARE` of the budget."""
        return None


class _Meter:
    """A search's budget as it is spent (the core's ``Meter``): expansions counted, the clock
    read every :data:`CLOCK_EVERY` of them."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.clock = time.thread_time if budget.cpu_time else time.perf_counter
        self.started = self.clock()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds
        self.nodes = 0

    def expand(self) -> str | None:
        """Count one expansion, or say why the search must stop before it."""
        if self.budget.nodes is not None and self.nodes >= self.budget.nodes:
            return "the node budget ran out"
        self.nodes += 1
        if (
            self.deadline is not None
            and self.nodes % CLOCK_EVERY == 0
            and self.clock() > self.deadline
        ):
            return "the time budget ran out"
        return None

    def result(self, kind: Verdict, why: str = "", moves: list[Move] | None = None) -> SearchResult:
        return SearchResult(kind, moves or [], self.nodes, self.clock() - self.started, why)


class _Frame(Generic[N, T]):
    __slots__ = (
        "by_history",
        "canon",
        "dependent",
        "index",
        "layout",
        "may_fall_back",
        "node",
        "old",
        "path",
        "steps",
    )

    def __init__(
        self, node: N, canon: Hashable, old: int | None, path: Hashable, layout: Hashable
    ) -> None:
        self.node = node
        self.canon = canon
        self.old = old
        self.path = path
        self.layout = layout
        self.steps: list[tuple[T, N]] = []
        self.index = 0
        self.dependent = False
        #: A step of this node or of a node below it that failed was refused because it would
        #: recreate one of the game's positions before the search.
        self.by_history = False
        self.may_fall_back = False


def depth_first(
    adapter: Adapter[N, T],
    root: N,
    budget: Budget,
    history: Sequence[N] = (),
    *,
    dominance: bool = True,
    table: bool = True,
) -> SearchResult:
    """Search from ``root`` for a win. ``history`` holds the nodes of positions the game has
    already been in (they may not be recreated). ``dominance`` and ``table`` switch the pruning
    off, for tests that compare against the plain search."""
    meter = _Meter(budget)
    result = meter.result
    seen: dict[Hashable, int] = {}
    on_path: dict[Hashable, int] = {}
    layouts: dict[Hashable, int] = {}

    def enter(path: Hashable, layout: Hashable) -> None:
        on_path[path] = on_path.get(path, 0) + 1
        layouts[layout] = layouts.get(layout, 0) + 1

    def leave(path: Hashable, layout: Hashable) -> None:
        for counts, key in ((on_path, path), (layouts, layout)):
            left = counts[key] - 1
            if left:
                counts[key] = left
            else:
                del counts[key]

    before_root = {adapter.path_key(past) for past in history}
    for past in history:
        enter(adapter.path_key(past), adapter.layout_key(past))

    if adapter.won(root):
        return result(Verdict.WON)
    stack: list[_Frame[N, T]] = []

    restart = 0
    # Restarts keep the table, so they need it.
    run_nodes = adapter.restart_nodes if table else None
    first_run = adapter.first_run_nodes
    next_restart = None if run_nodes is None else run_nodes if first_run is None else first_run

    def push(node: N, canon: Hashable, old: int | None) -> None:
        frame: _Frame[N, T] = _Frame(
            node, canon, old, adapter.path_key(node), adapter.layout_key(node)
        )
        frame.steps = adapter.steps(node, dominance)
        if restart:
            frame.steps = adapter.reorder(node, canon, frame.steps, restart)
        frame.may_fall_back = dominance
        enter(frame.path, frame.layout)
        stack.append(frame)

    root_canon = adapter.canonical(root)
    meter.nodes = 1
    root_by_history = False
    while True:
        if table:
            seen[root_canon] = adapter.worse(root)
        push(root, root_canon, None)
        while stack:
            frame = stack[-1]
            if frame.index >= len(frame.steps):
                # Every step failed: the node is lost. Keep it in the table only if that did
                # not depend on the path (else it may be searched again from another path).
                stack.pop()
                leave(frame.path, frame.layout)
                if frame.by_history:
                    if stack:
                        stack[-1].by_history = True
                    else:
                        root_by_history = True
                if frame.dependent:
                    if stack:
                        stack[-1].dependent = True
                    if table:
                        if frame.old is None:
                            seen.pop(frame.canon, None)
                        else:
                            seen[frame.canon] = frame.old
                continue
            step, child = frame.steps[frame.index]
            frame.index += 1
            canon = adapter.canonical(child) if table else None
            worse = adapter.worse(child)
            old = None
            if table:
                old = seen.get(canon)
                if old is not None and old <= worse:
                    continue
            child_path = adapter.path_key(child)
            refused = child_path in on_path
            by_history = refused and child_path in before_root
            if not refused and layouts.get(frame.layout, 0) > 1:
                inner = list(adapter.inner_keys(frame.node, step))
                refused = any(key in on_path for key in inner)
                by_history = refused and any(key in before_root for key in inner)
            if refused:
                frame.dependent = True
                frame.by_history |= by_history
                if frame.may_fall_back and len(frame.steps) == 1:
                    # The one safe step is refused: fall back to every step.
                    frame.may_fall_back = False
                    frame.steps = adapter.steps(frame.node, False)
                    frame.index = 0
                continue
            if adapter.won(child):
                moves: list[Move] = []
                for parent in stack:
                    parent_step, _ = parent.steps[parent.index - 1]
                    moves.extend(adapter.moves(parent.node, parent_step))
                return result(Verdict.WON, moves=moves)
            why = meter.expand()
            if why is not None:
                return result(Verdict.UNKNOWN, why)
            if next_restart is not None and run_nodes is not None and meter.nodes >= next_restart:
                # Start again in another order. The states still on the stack are not proved
                # lost: take them out of the table (every other entry is a proved loss).
                while stack:
                    frame = stack.pop()
                    leave(frame.path, frame.layout)
                    if frame.old is None:
                        seen.pop(frame.canon, None)
                    else:
                        seen[frame.canon] = frame.old
                restart += 1
                run_nodes *= 2
                next_restart = meter.nodes + run_nodes
                break
            if table:
                if len(seen) >= budget.max_states:
                    return result(
                        Verdict.UNKNOWN, "the table of seen states reached its memory bound"
                    )
                seen[canon] = worse
            push(child, canon, old)
        else:
            if root_by_history:
                return result(Verdict.UNKNOWN, HISTORY_ONLY)
            return result(Verdict.UNWINNABLE)


class _Record(Generic[N, T]):
    """A node reached by the staged search, with the step from its parent (for the moves)."""

    __slots__ = ("node", "parent", "step")

    def __init__(self, node: N, parent: _Record[N, T] | None, step: T | None) -> None:
        self.node = node
        self.parent = parent
        self.step = step


class _Stage(Generic[N, T]):
    """What both staged searches do with the children of a position of a stage: a child that
    is a position of the game's history is left out, a winning child ends the search when its
    line is one the engine plays (``win``), a child entering another stage is set aside as a
    candidate to start it (one per canonical key), and the others are handed back to be
    searched within the stage."""

    def __init__(self, adapter: Adapter[N, T], root: N, forbidden: set[Hashable]) -> None:
        self.adapter = adapter
        self.root = root
        self.forbidden = forbidden
        self.candidates: list[tuple[float, int, _Record[N, T]]] = []
        self.entered: set[Hashable] = set()
        self.win: list[Move] | None = None

    def children(self, record: _Record[N, T]) -> Iterator[tuple[Hashable, _Record[N, T]]]:
        """The children of ``record`` that stay in its stage, with their canonical keys (none
        after a win)."""
        adapter = self.adapter
        here = adapter.stage(record.node)
        for step, child in adapter.steps(record.node, True):
            if adapter.path_key(child) in self.forbidden:
                continue
            reached = _Record(child, record, step)
            if adapter.won(child):
                self.win = _line(adapter, self.root, reached, self.forbidden)
                if self.win is not None:
                    return
                continue
            canon = adapter.canonical(child)
            if adapter.stage(child) != here:
                if canon not in self.entered:
                    self.entered.add(canon)
                    score = -adapter.score(child)
                    self.candidates.append((score, len(self.candidates), reached))
                continue
            yield canon, reached

    def starts(self, width: int) -> list[_Record[N, T]]:
        """The ``width`` best candidates (by score, then in the order they were reached)."""
        self.candidates.sort()
        return [record for _, _, record in self.candidates[:width]]


def staged(
    adapter: Adapter[N, T], root: N, budget: Budget, history: Sequence[N] = ()
) -> SearchResult:
    """Look for a win by a beam over the adapter's stages (an incomplete search: it answers
    ``won`` or ``unknown``, never ``unwinnable``).

    A *stage* (:meth:`Adapter.stage`) is a number that steps change only now and then (in
    Spider: the cards left in the stock, which only a deal changes). Each try of
    :attr:`Adapter.staged_tries`, ``(width, nodes)``, starts from the root and, stage by
    stage, expands the positions of the stage best first by :meth:`Adapter.score` (``nodes``
    expansions for each position it starts the stage from), keeping the ``width`` best-scored
    children that enter the next stage to start it from. A depth-first search spends its
    nodes below the last decision it got wrong; this one spends them before every deal, where
    the choices that decide the game are made. Positions of ``history`` (and any line that
    would repeat a position) are never used, so every win it finds the engine replays.
    """
    meter = _Meter(budget)
    result = meter.result
    forbidden = {adapter.path_key(past) for past in history}

    if adapter.won(root):
        return result(Verdict.WON)
    for width, stage_nodes in adapter.staged_tries:
        starts: list[_Record[N, T]] = [_Record(root, None, None)]
        while starts:
            # One stage: best first from every start, children entering the next stage set
            # aside as candidates for it.
            seen: dict[Hashable, int] = {}
            queue: list[tuple[float, int, _Record[N, T]]] = []
            for start in starts:
                seen[adapter.canonical(start.node)] = adapter.worse(start.node)
                queue.append((-adapter.score(start.node), len(queue), start))
            heapq.heapify(queue)
            stage = _Stage(adapter, root, forbidden)
            limit = stage_nodes * len(starts)
            expanded = 0
            # A full table ends the stage (as in the core): the candidates so far start the
            # next one.
            full = False
            # Every push gets the next number, the ties' order (a state met again with a
            # smaller counter is pushed again: the table's size would repeat a number).
            pushed = len(queue)
            while queue and expanded < limit and not full:
                _, _, record = heapq.heappop(queue)
                why = meter.expand()
                if why is not None:
                    return result(Verdict.UNKNOWN, why)
                expanded += 1
                for canon, reached in stage.children(record):
                    worse = adapter.worse(reached.node)
                    old = seen.get(canon)
                    if old is not None and old <= worse:
                        continue
                    if len(seen) >= budget.max_states:
                        full = True
                        break
                    seen[canon] = worse
                    pushed += 1
                    heapq.heappush(queue, (-adapter.score(reached.node), pushed, reached))
                if stage.win is not None:
                    return result(Verdict.WON, moves=stage.win)
            starts = stage.starts(width)
    return result(Verdict.UNKNOWN, "the staged search found no win")


def _line(
    adapter: Adapter[N, T], root: N, record: _Record[N, T], forbidden: set[Hashable]
) -> list[Move] | None:
    """The engine moves from ``root`` to ``record``, or None when the line would pass through
    a position twice or through one of ``forbidden`` (the game's history)."""
    chain: list[_Record[N, T]] = []
    walk: _Record[N, T] | None = record
    while walk is not None:
        chain.append(walk)
        walk = walk.parent
    chain.reverse()
    keys = forbidden | {adapter.path_key(root)}
    moves: list[Move] = []
    for parent, child in pairwise(chain):
        assert child.step is not None
        passed = [*adapter.inner_keys(parent.node, child.step), adapter.path_key(child.node)]
        for key in passed:
            if key in keys:
                return None
            keys.add(key)
        moves.extend(adapter.moves(parent.node, child.step))
    return moves


def staged_beam(
    adapter: Adapter[N, T], root: N, budget: Budget, history: Sequence[N] = ()
) -> SearchResult:
    """Look for a win by a beam within each stage and a beam over the stages (an incomplete
    search like :func:`staged`: ``won`` or ``unknown``, never ``unwinnable``).

    Each try of :attr:`Adapter.beam_tries`, ``(width, beam, depth)``, starts from the root.
    A stage is searched in layers: the positions of a layer are expanded, and the ``beam``
    best-scored children not yet seen in the stage make the next layer, for at most ``depth``
    layers, and fewer when :attr:`Adapter.beam_patience` layers pass without a better score.
    Children that enter another stage are set aside; the ``width`` best-scored of them (distinct
    keys) start the next stage. Where a best-first search stays on the first plateau of its
    score (shuffling runs between equal places), every layer of the beam goes one step further,
    so it crosses the dips of score that building a space or a suit needs. Positions of
    ``history`` (and lines that would repeat a position) are never used: the engine replays
    every win. With a node budget it is deterministic (ties break by the order of reaching).
    """
    meter = _Meter(budget)
    result = meter.result
    forbidden = {adapter.path_key(past) for past in history}

    if adapter.won(root):
        return result(Verdict.WON)
    for width, beam, depth in adapter.beam_tries:
        starts: list[_Record[N, T]] = [_Record(root, None, None)]
        while starts:
            seen: dict[Hashable, int] = {}
            for start in starts:
                seen[adapter.canonical(start.node)] = adapter.worse(start.node)
            layer = starts
            best = max(adapter.score(start.node) for start in starts)
            best_level = 0
            stage = _Stage(adapter, root, forbidden)
            for level in range(depth):
                if level - best_level > adapter.beam_patience or len(seen) >= budget.max_states:
                    break
                children: list[tuple[float, int, _Record[N, T]]] = []
                for record in layer:
                    why = meter.expand()
                    if why is not None:
                        return result(Verdict.UNKNOWN, why)
                    for canon, reached in stage.children(record):
                        worse = adapter.worse(reached.node)
                        old = seen.get(canon)
                        if old is not None and old <= worse:
                            continue
                        seen[canon] = worse
                        children.append((-adapter.score(reached.node), len(children), reached))
                    if stage.win is not None:
                        return result(Verdict.WON, moves=stage.win)
                if not children:
                    break
                children.sort()
                if -children[0][0] > best:
                    best = -children[0][0]
                    best_level = level
                layer = [record for _, _, record in children[:beam]]
            starts = stage.starts(width)
    return result(Verdict.UNKNOWN, "the staged beam found no win")


#: The shares of a budget: a first depth-first run, which wins the easy deals at once and
#: proves small positions lost, takes up to ``FIRST_SHARE``; the staged search then runs until
#: ``STAGED_SHARE`` of it is spent (all of it: in Spider and Napoleon at St Helena its wins come
#: late in a minute and the depth-first search's almost never); a second depth-first run has
#: what is left when the staged search's tries end before that.
FIRST_SHARE = 1 / 6
STAGED_SHARE = 1.0
#: The share of the budget of the search of :meth:`Adapter.narrowed` (the core's too).
NARROWED_SHARE = 0.25


def _slice(budget: Budget, share: float, spent: SearchResult | None = None) -> Budget:
    """``budget`` cut to ``share`` of it, less what ``spent`` used (share 1: the rest)."""
    seconds = nodes = None
    if budget.seconds is not None:
        seconds = max(budget.seconds * share - (spent.seconds if spent else 0.0), 0.0)
    if budget.nodes is not None:
        nodes = max(int(budget.nodes * share) - (spent.nodes if spent else 0), 0)
    return Budget(seconds, nodes, budget.max_states, budget.cpu_time)


def solver_search(
    adapter: Adapter[N, T],
    root: N,
    budget: Budget,
    history: Sequence[N] = (),
    *,
    dominance: bool = True,
    table: bool = True,
) -> SearchResult:
    """The solver's search. With :attr:`Adapter.staged_tries`: a depth-first run with
    :data:`FIRST_SHARE` of the budget (at most :attr:`Adapter.first_nodes` nodes), then
    :func:`staged` (:func:`staged_beam` for an adapter with :attr:`Adapter.beam_tries`) until
    :data:`STAGED_SHARE` of it is spent, then depth-first again with the rest (only a
    depth-first run that ends can prove a deal unwinnable). Without a budget the first run is
    left out. Other adapters, and the plain searches of the tests (``dominance`` or ``table``
    off), search depth-first only.
    An adapter with a :meth:`Adapter.narrowed` game has it searched first, with
    :data:`NARROWED_SHARE` of the budget; unless that finds a win, the game itself is searched
    with the rest."""
    narrow = adapter.narrowed() if dominance and table else None
    if narrow is None:
        return _wider_search(adapter, root, budget, history, dominance=dominance, table=table)
    found = solver_search(narrow, root, _slice(budget, NARROWED_SHARE), history)
    if found.result == Verdict.WON:
        return found
    # Lost or unknown in the narrowed game says nothing of this one.
    rest = _slice(budget, 1.0, found)
    if rest.nodes == 0 or rest.seconds == 0.0:
        why = "the node budget ran out" if rest.nodes == 0 else "the time budget ran out"
        return SearchResult(Verdict.UNKNOWN, nodes=found.nodes, seconds=found.seconds, why=why)
    wider = _wider_search(adapter, root, rest, history)
    wider.nodes += found.nodes
    wider.seconds += found.seconds
    return wider


def _wider_search(
    adapter: Adapter[N, T],
    root: N,
    budget: Budget,
    history: Sequence[N] = (),
    *,
    dominance: bool = True,
    table: bool = True,
) -> SearchResult:
    """:func:`solver_search` without the narrowed game."""
    if not (adapter.staged_tries or adapter.beam_tries) or not (dominance and table):
        return depth_first(adapter, root, budget, history, dominance=dominance, table=table)
    bounded = budget.seconds is not None or budget.nodes is not None
    incomplete = staged_beam if adapter.beam_tries else staged
    # Each run with its share of the budget and the most nodes it may take.
    first = (depth_first, FIRST_SHARE, adapter.first_nodes)
    runs = [*([first] if bounded else []), (incomplete, STAGED_SHARE, None)]
    spent = SearchResult(Verdict.UNKNOWN)
    for run, share, most in runs:
        part = _slice(budget, share, spent)
        if most is not None:
            part = replace(part, nodes=most if part.nodes is None else min(part.nodes, most))
        found = run(adapter, root, part, history)
        found.nodes += spent.nodes
        found.seconds += spent.seconds
        if found.result != Verdict.UNKNOWN or found.why == HISTORY_ONLY:
            return found
        spent = found
    rest = _slice(budget, 1.0, spent)
    if rest.nodes == 0 or rest.seconds == 0.0:
        return spent
    found = depth_first(adapter, root, rest, history)
    found.nodes += spent.nodes
    found.seconds += spent.seconds
    return found
