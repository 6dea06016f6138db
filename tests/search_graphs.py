"""The graph adapter of the searches' tests: named nodes whose hooks a test or a case sets
(tests/test_search.py, tests/test_search_cases.py; the core's `CaseGraph` in
core/src/search_cases.rs is the same)."""

from __future__ import annotations

import copy
from collections.abc import Hashable

from patience.moves import Move
from patience.solve.search import Adapter

WIN = "W"


class CaseGraph(Adapter[str, str]):
    """A graph of named nodes whose hooks a case sets (the core's `CaseGraph` reads the same
    lines). The first step after a restart is picked from the first three by a sum of the
    children's letters and the run number, as the core's `first_step` does here."""

    def __init__(self) -> None:
        self.edges: dict[str, list[str]] = {}
        self.inner: dict[tuple[str, str], list[str]] = {}
        self.layouts: dict[str, str] = {}
        self.scores: dict[str, float] = {}
        self.stages: dict[str, int] = {}
        self.canons: dict[str, str] = {}
        self.counters: dict[str, int] = {}
        self.safe: set[str] = set()
        self.narrow = 0
        self.staged_tries = ()
        self.beam_tries = ()

    def canonical(self, node: str) -> Hashable:
        return self.canons.get(node, node)

    def worse(self, node: str) -> int:
        return self.counters.get(node, 0)

    def path_key(self, node: str) -> Hashable:
        return node

    def layout_key(self, node: str) -> Hashable:
        return self.layouts.get(node, node)

    def inner_keys(self, node: str, step: str) -> list[str]:
        return self.inner.get((node, step), [])

    def won(self, node: str) -> bool:
        return node == WIN

    def score(self, node: str) -> float:
        return self.scores.get(node, 0.0)

    def stage(self, node: str) -> int:
        return self.stages.get(node, 0)

    def steps(self, node: str, dominance: bool) -> list[tuple[str, str]]:
        children = self.edges.get(node, [])
        if dominance and node in self.safe and children:
            # A "safe" step: the only one with dominance, as a game's safe move is.
            return [(children[0], children[0])]
        return [(child, child) for child in children]

    def moves(self, node: str, step: str) -> list[Move]:
        return [Move.act(step)]

    def narrowed(self) -> CaseGraph | None:
        if self.narrow == 0:
            return None
        narrower = copy.copy(self)
        narrower.edges = {node: children[: self.narrow] for node, children in self.edges.items()}
        narrower.narrow = self.narrow - 1
        return narrower

    def reorder(
        self, node: str, canon: Hashable, steps: list[tuple[str, str]], restart: int
    ) -> list[tuple[str, str]]:
        if len(steps) < 2:
            return steps
        letters = sum(sum(child.encode()) for _, child in steps)
        pick = (letters + 7 * restart) % min(len(steps), 3)
        return [steps[pick], *steps[:pick], *steps[pick + 1 :]]
