"""The game-free searches of patience.solve.search on small hand-made graphs: the staged search
keeps to its beam, refuses the positions of the history, never says unwinnable, and
solver_search hands the depth-first search what is left."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from patience.moves import Move
from patience.solve import search
from patience.solve.search import (
    Adapter,
    Budget,
    SearchResult,
    depth_first,
    solver_search,
    staged,
    staged_beam,
)
from search_graphs import WIN, CaseGraph


class Graph(CaseGraph):
    """The searches' graph adapter (tests/search_graphs.py) made from arguments: ``stages`` and
    ``scores`` default to 0; ``inner`` names the positions a step passes through, ``layouts``
    the nodes that share a layout with another (as a Klondike position does with those its
    stock turns pass), ``canons`` the nodes that share a canonical key with another, and
    ``worse`` their counters (0 by default: passes used through the stock, say)."""

    def __init__(
        self,
        edges: dict[str, list[str]],
        scores: Mapping[str, float] | None = None,
        stages: Mapping[str, int] | None = None,
        tries: tuple[tuple[int, int], ...] = ((1, 10),),
        inner: Mapping[tuple[str, str], list[str]] | None = None,
        layouts: Mapping[str, str] | None = None,
        canons: Mapping[str, str] | None = None,
        worse: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__()
        self.edges = edges
        self.scores = dict(scores or {})
        self.stages = dict(stages or {})
        self.staged_tries = tries
        self.beam_tries = ((1, 2, 10),)
        self.inner = dict(inner or {})
        self.layouts = dict(layouts or {})
        self.canons = dict(canons or {})
        self.counters = dict(worse or {})


def names(moves: list[Move]) -> list[str]:
    return [move.text() for move in moves]


def test_the_best_scored_line_wins_first() -> None:
    graph = Graph({"R": ["A", "B"], "A": ["C"], "B": [WIN], "C": [WIN]}, {"A": 1, "B": 5})
    found = staged(graph, "R", Budget())
    assert (found.result, names(found.moves)) == ("won", ["B", WIN])


def test_a_position_of_the_history_is_never_entered() -> None:
    graph = Graph({"R": ["A", "B"], "A": [WIN], "B": ["C"], "C": [WIN]}, {"A": 5})
    assert names(staged(graph, "R", Budget()).moves) == ["A", WIN]
    found = staged(graph, "R", Budget(), history=["A"])
    assert (found.result, names(found.moves)) == ("won", ["B", "C", WIN])


@pytest.mark.parametrize("search_with", [staged, staged_beam])
def test_a_win_through_a_position_of_the_history_inside_a_step_is_refused(
    search_with: Any,
) -> None:
    # The step from R to B passes through P (as a Klondike step that turns the stock passes
    # through the positions between the turns); once the game has been in P, the win through
    # B is no line the engine would play, and the search takes the other one.
    graph = Graph(
        {"R": ["A", "B"], "A": ["C"], "B": [WIN], "C": [WIN]}, {"B": 5}, inner={("R", "B"): ["P"]}
    )
    assert names(search_with(graph, "R", Budget()).moves) == ["B", WIN]
    found = search_with(graph, "R", Budget(), history=["P"])
    assert (found.result, names(found.moves)) == ("won", ["A", "C", WIN])


def test_a_failure_that_depended_on_the_path_is_not_kept() -> None:
    # A's one step passes through P, which is on the path R-P-A but not on R-B-A: A's failure
    # the first time holds on that path only and must not stay in the table.
    graph = Graph(
        {"R": ["P", "B"], "P": ["A"], "B": ["A"], "A": ["C"], "C": [WIN]},
        inner={("A", "C"): ["P"]},
        layouts={"A": "P"},
    )
    found = depth_first(graph, "R", Budget())
    assert (found.result, names(found.moves)) == ("won", ["B", "A", "C", WIN])


def test_a_failure_caused_by_the_history_below_the_root_is_no_proof() -> None:
    graph = Graph({"R": ["X", "L"], "X": ["H"], "H": [WIN]})
    assert depth_first(graph, "R", Budget()).result == "won"
    found = depth_first(graph, "R", Budget(), history=["H"])
    assert (found.result, found.why) == ("unknown", search.HISTORY_ONLY)


def test_the_beam_keeps_width_positions_and_later_tries_widen_it() -> None:
    # R is stage 1; X, Y, Z enter stage 0; only Z, the worst scored, leads on to a win.
    edges = {"R": ["X", "Y", "Z"], "X": ["X1"], "Y": ["Y1"], "Z": [WIN]}
    scores = {"X": 3, "Y": 2, "Z": 1}
    stages = {"R": 1}
    narrow = Graph(edges, scores, stages, tries=((2, 10),))
    assert staged(narrow, "R", Budget()).result == "unknown"
    wider = Graph(edges, scores, stages, tries=((2, 10), (3, 10)))
    found = staged(wider, "R", Budget())
    assert (found.result, names(found.moves)) == ("won", ["Z", WIN])


def test_a_full_stage_table_ends_the_stage() -> None:
    # R's stage holds A and B; only A's child X enters the next stage, and X wins. With room
    # for two positions (R and A) the table is full when B comes: the stage ends there, as in
    # the core, before A is expanded, so no stage follows.
    graph = Graph(
        {"R": ["A", "B"], "A": ["X"], "X": [WIN]}, {"A": 2, "B": 1}, {"R": 1, "A": 1, "B": 1}
    )
    found = staged(graph, "R", Budget())
    assert (found.result, names(found.moves)) == ("won", ["A", "X", WIN])
    full = staged(graph, "R", Budget(max_states=2))
    assert (full.result, full.why) == ("unknown", "the staged search found no win")


def test_a_state_met_again_with_a_smaller_counter_is_searched_again_after_the_first() -> None:
    # A2 and A1 are one state (canonical key A), reached with 2 and 1 passes used: A1 goes
    # into the stage's queue after A2 (ties go to the order of reaching), as in the core,
    # whose queue counts every push.
    graph = Graph(
        {"R": ["A2", "A1"], "A1": [WIN]}, canons={"A1": "A", "A2": "A"}, worse={"A2": 2, "A1": 1}
    )
    found = staged(graph, "R", Budget(nodes=100))
    assert (found.result, names(found.moves), found.nodes) == ("won", ["A1", WIN], 3)


def test_the_staged_search_never_says_unwinnable() -> None:
    graph = Graph({"R": ["A"], "A": ["B"], "B": []})
    found = staged(graph, "R", Budget())
    assert (found.result, found.why) == ("unknown", "the staged search found no win")
    assert depth_first(graph, "R", Budget()).result == "unwinnable"
    assert solver_search(graph, "R", Budget(nodes=100)).result == "unwinnable"


def test_solver_search_shares_a_node_budget() -> None:
    # A long chain: every run spends its share, and the total is the budget.
    edges = {str(index): [str(index + 1)] for index in range(1_000)}
    graph = Graph(edges, tries=((1, 10_000),))
    found = solver_search(graph, "0", Budget(nodes=120))
    assert (found.result, found.nodes) == ("unknown", 120)
    # Without a table or dominance (the plain searches of the tests) only depth-first runs.
    plain = solver_search(graph, "0", Budget(nodes=120), table=False)
    assert plain.nodes == 120
    chain = {"0": ["1"], "1": ["2"], "2": [WIN]}
    assert names(solver_search(Graph(chain), "0", Budget(nodes=100)).moves) == ["1", "2", WIN]


def test_the_first_depth_first_part_stops_at_the_adapters_first_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Spider's adapters cap the first part (docs/solving.md, Spider): whatever its share of
    # the budget, it gets at most `first_nodes`, and the later parts spend the rest.
    edges = {str(index): [str(index + 1)] for index in range(1_000)}
    graph = Graph(edges, tries=((1, 10_000),))
    budgets: list[Budget] = []
    plain_depth_first = search.depth_first

    def recording(
        adapter: Adapter[str, str], root: str, budget: Budget, *args: Any, **kwargs: Any
    ) -> SearchResult:
        budgets.append(budget)
        return plain_depth_first(adapter, root, budget, *args, **kwargs)

    monkeypatch.setattr(search, "depth_first", recording)
    assert solver_search(graph, "0", Budget(nodes=600)).nodes == 600
    assert budgets[0].nodes == 100  # a sixth
    graph.first_nodes = 7
    budgets.clear()
    assert solver_search(graph, "0", Budget(nodes=600)).nodes == 600
    assert budgets[0].nodes == 7
    budgets.clear()
    solver_search(graph, "0", Budget(seconds=60.0))
    assert (budgets[0].nodes, budgets[0].seconds) == (7, 10.0)
