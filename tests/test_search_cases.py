"""The Python searches and the core's play the same search: random small graphs, each with its
hooks (restarts, a first run, a first part's nodes, staged and beam tries, canonical keys shared
with "worse" counters, layouts, positions inside steps, a single safe step, narrowed searches,
history, budgets and table bounds), solved by `depth_first`, `solver_search`, `staged` or
`staged_beam`. tests/data/search_cases.txt holds the graphs and search_cases.expected each
one's answer, nodes, reason and moves; this test checks the Python searches against them and
the core's `cargo test` (`search_cases` in core/src/search_cases.rs) checks its own, so the two
agree node for node. After a deliberate change of the searches, rewrite the answers with
`python tests/test_search_cases.py` (and the graphs with `--graphs`), then both tests must pass.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

from patience.solve import search
from patience.solve.search import Budget, SearchResult
from search_graphs import WIN, CaseGraph

DATA = Path(__file__).parent / "data"
CASES = DATA / "search_cases.txt"
EXPECTED = DATA / "search_cases.expected"
COUNT = 800


def number(text: str) -> int | None:
    return None if text == "-" else int(text)


def run_cases(text: str) -> list[str]:
    """Each case's line: its name, answer, nodes, reason and moves, tab-separated."""
    lines: list[str] = []
    graph = CaseGraph()
    name = kind = ""
    budget = Budget()
    history: Sequence[str] = ()
    dominance = table = True
    for line in text.splitlines():
        word = line.split()
        if not word:
            continue
        match word[0]:
            case "case":
                graph, name, history, dominance, table = CaseGraph(), word[1], (), True, True
            case "fn":
                kind = word[1]
            case "flags":
                dominance, table = word[1] == "1", word[2] == "1"
            case "budget":
                budget = Budget(nodes=number(word[1]), max_states=int(word[2]))
            case "restart":
                graph.restart_nodes = number(word[1])
                graph.first_run_nodes = number(word[2])
                graph.first_nodes = number(word[3])
            case "try":
                graph.staged_tries += ((int(word[1]), int(word[2])),)
            case "beam":
                graph.beam_tries += ((int(word[1]), int(word[2]), int(word[3])),)
            case "history":
                history = word[1:]
            case "edge":
                graph.edges[word[1]] = word[2:]
            case "inner":
                graph.inner[(word[1], word[2])] = word[3:]
            case "layout":
                graph.layouts[word[1]] = word[2]
            case "canon":
                graph.canons[word[1]] = word[2]
            case "worse":
                graph.counters[word[1]] = int(word[2])
            case "score":
                graph.scores[word[1]] = float(word[2])
            case "stage":
                graph.stages[word[1]] = int(word[2])
            case "safe":
                graph.safe.add(word[1])
            case "narrow":
                graph.narrow = int(word[1])
            case "end":
                found = solve_case(graph, kind, budget, history, dominance, table)
                moves = ",".join(move.text() for move in found.moves)
                lines.append(f"{name}\t{found.result.value}\t{found.nodes}\t{found.why}\t{moves}")
            case _:
                raise ValueError(f"unknown line {line!r}")
    return lines


def solve_case(
    graph: CaseGraph,
    kind: str,
    budget: Budget,
    history: Sequence[str],
    dominance: bool,
    table: bool,
) -> SearchResult:
    if kind == "df":
        return search.depth_first(graph, "R", budget, history, dominance=dominance, table=table)
    if kind == "solver":
        return search.solver_search(graph, "R", budget, history, dominance=dominance, table=table)
    if kind == "staged":
        return search.staged(graph, "R", budget, history)
    return search.staged_beam(graph, "R", budget, history)


def make_case(seed: int) -> str:
    """A random graph with random hooks (the same for a seed on every machine)."""
    rng = random.Random(seed)
    names = ["R"] + [chr(ord("A") + index) for index in range(rng.randint(6, 16))]
    lines = [f"case c{seed}"]
    kind = rng.choice(["df", "df", "df", "solver", "solver", "staged", "beam"])
    lines.append(f"fn {kind}")
    if kind in ("df", "solver") and rng.random() < 0.2:
        lines.append(f"flags {rng.randint(0, 1)} {rng.randint(0, 1)}")
    nodes = rng.choice(["-", "-", str(rng.randint(0, 400))])
    if kind != "df" and nodes == "-":
        nodes = str(rng.choice([200, 2_000]))
    lines.append(f"budget {nodes} {rng.choice([1_000, 1_000, rng.randint(0, 8)])}")
    if rng.random() < 0.6:
        restart = rng.choice(["-", str(rng.randint(1, 6))])
        first_run = rng.choice(["-", "-", str(rng.randint(0, 8))])
        first_nodes = rng.choice(["-", "-", str(rng.randint(0, 8))])
        lines.append(f"restart {restart} {first_run} {first_nodes}")
    if kind in ("solver", "staged") and rng.random() < 0.8:
        lines += [f"try {rng.randint(1, 3)} {rng.randint(1, 5)}" for _ in range(rng.randint(1, 2))]
    if kind == "beam" or (kind == "solver" and rng.random() < 0.4):
        lines += [
            f"beam {rng.randint(1, 3)} {rng.randint(1, 3)} {rng.randint(1, 5)}"
            for _ in range(rng.randint(1, 2))
        ]
    for node in names:
        children = [rng.choice([*names, WIN] if rng.random() < 0.85 else [WIN])]
        children += [rng.choice([*names, WIN]) for _ in range(rng.randint(0, 4))]
        children = list(dict.fromkeys(children))[: rng.randint(0, 5)]
        if children:
            lines.append(f"edge {node} {' '.join(children)}")
        for child in children:
            if rng.random() < 0.15:
                passed = rng.sample(names, rng.randint(1, 2))
                lines.append(f"inner {node} {child} {' '.join(passed)}")
        if rng.random() < 0.2:
            lines.append(f"layout {node} {rng.choice(names)}")
        if rng.random() < 0.2:
            lines.append(f"canon {node} {rng.choice(names)}")
        if rng.random() < 0.3:
            lines.append(f"worse {node} {rng.randint(0, 3)}")
        if rng.random() < 0.5:
            lines.append(f"score {node} {rng.choice(['-0.0', '0.0', '1', '2', '3', '-1'])}")
        if rng.random() < 0.3:
            lines.append(f"stage {node} {rng.randint(0, 2)}")
        if rng.random() < 0.15:
            lines.append(f"safe {node}")
    if kind == "solver" and rng.random() < 0.5:
        lines.append(f"narrow {rng.randint(1, 3)}")
    if rng.random() < 0.3:
        lines.append(f"history {' '.join(rng.sample(names[1:], rng.randint(1, 2)))}")
    lines.append("end")
    return "\n".join(lines)


def test_the_python_searches_give_the_recorded_answers() -> None:
    found = run_cases(CASES.read_text())
    expected = EXPECTED.read_text().splitlines()
    assert len(found) == len(expected) == COUNT
    differing = [(one, other) for one, other in zip(found, expected, strict=True) if one != other]
    assert not differing, f"{len(differing)} cases differ, the first: {differing[0]}"


def test_the_cases_reach_every_kind_of_answer() -> None:
    # The cases are worth something only if they reach the rules that decide: wins, proofs,
    # budgets, full tables, the history.
    reasons = {line.split("\t")[3] for line in EXPECTED.read_text().splitlines()}
    answers = {line.split("\t")[1] for line in EXPECTED.read_text().splitlines()}
    assert answers == {"won", "unwinnable", "unknown"}
    assert search.HISTORY_ONLY in reasons
    assert any("table" in reason for reason in reasons)


if __name__ == "__main__":
    if "--graphs" in sys.argv:
        CASES.write_text("\n".join(make_case(seed) for seed in range(COUNT)) + "\n")
    EXPECTED.write_text("\n".join(run_cases(CASES.read_text())) + "\n")
