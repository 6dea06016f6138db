"""Winnability studies: the runner and its backends, resuming, the report, winnable deals."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import pickle
import random
import sqlite3
import subprocess
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.games import GAMES, get_rules
from patience.solve import solver_version
from patience.study import Budget, DealResult, StudyDB, options_key, run_study, runner
from patience.study.db import ResultRow
from patience.study.report import plot_resolved, summarise
from patience.study.runner import (
    BackendError,
    ChunkTask,
    DaskBackend,
    LocalBackend,
    RayBackend,
    RunSummary,
    chunk_size_for,
    solve_chunk,
)
from patience.study.winnable import (
    REMEMBERED,
    NoGrades,
    NoWinnableDeal,
    WinnableDealPicker,
    list_path,
    load_lists,
    packaged_dir,
    shipped_deals,
    winnable_info,
)
from study_helpers import SerialBackend, pool_workers, spider_study_command

# Node budgets keep every result the same on every machine, and small ones keep this fast.
KLONDIKE = get_rules("klondike")
NODES = Budget("nodes", 300)


def stored(db: StudyDB) -> dict[int, tuple[str, int, int]]:
    """deal -> (result, nodes, length) of the rows stored (seconds vary from run to run)."""
    return {row.deal: (row.result, row.nodes, row.length) for row in db.rows()}


@pytest.fixture(scope="module")
def reference() -> dict[int, tuple[str, int, int]]:
    """Klondike deals 1-8 at the node budget, solved in this process (deals 2 and 3: unwinnable
    and won within the budget; 1: unknown)."""
    results = solve_chunk(
        ChunkTask("klondike", dict(KLONDIKE.options), tuple(range(1, 9)), None, 300)
    )
    return {r.deal: (r.result, r.nodes, r.length) for r in results}


def test_reference_has_every_kind_of_answer_worth_testing(
    reference: dict[int, tuple[str, int, int]],
) -> None:
    results = {result for result, _, _ in reference.values()}
    assert results == {"won", "unwinnable", "unknown"}


def test_a_local_run_stores_every_deal_and_the_same_command_skips_them(
    tmp_path: Path, reference: dict[int, tuple[str, int, int]]
) -> None:
    with StudyDB(tmp_path / "s.sqlite3") as db:
        first = run_study(db, KLONDIKE, range(1, 9), NODES, LocalBackend(2), chunk=3)
        assert (first.skipped, first.todo, first.done, first.chunks) == (0, 8, 8, 3)
        assert stored(db) == reference
        again = run_study(db, KLONDIKE, range(1, 9), NODES, LocalBackend(2), chunk=3)
        assert (again.skipped, again.todo, again.done) == (8, 0, 0)
        # A wider range solves only the new deals.
        wider = run_study(db, KLONDIKE, range(1, 11), NODES, SerialBackend())
        assert (wider.skipped, wider.todo) == (8, 2)
    rows = StudyDB(tmp_path / "s.sqlite3").rows()
    assert {row.solver for row in rows} == {solver_version("klondike")}
    assert {(row.budget.kind, row.budget.amount) for row in rows} == {("nodes", 300)}


def test_a_larger_budget_retries_only_the_unknown_deals(
    tmp_path: Path, reference: dict[int, tuple[str, int, int]]
) -> None:
    unknown = sorted(deal for deal, (result, _, _) in reference.items() if result == "unknown")
    with StudyDB(tmp_path / "s.sqlite3") as db:
        run_study(db, KLONDIKE, range(1, 9), NODES, SerialBackend())
        retried: list[int] = []
        bigger = run_study(
            db,
            KLONDIKE,
            range(1, 9),
            Budget("nodes", 600),
            SerialBackend(),
            on_chunk=lambda summary, results: retried.extend(r.deal for r in results),
        )
        assert sorted(retried) == unknown
        assert (bigger.skipped, bigger.todo) == (8 - len(unknown), len(unknown))
        # A smaller budget than one already tried has nothing left to do.
        smaller = run_study(db, KLONDIKE, range(1, 9), Budget("nodes", 100), SerialBackend())
        assert smaller.todo == 0
        # Another game's or other options' results are another study.
        draw1 = get_rules("klondike", {"draw": 1})
        assert run_study(db, draw1, range(1, 3), NODES, SerialBackend()).todo == 2


def test_an_interrupt_loses_at_most_the_chunks_in_flight_and_the_rerun_completes(
    tmp_path: Path, reference: dict[int, tuple[str, int, int]]
) -> None:
    def interrupt_after_two(summary: RunSummary, results: object) -> None:
        if summary.chunks == 2:
            raise KeyboardInterrupt

    with StudyDB(tmp_path / "s.sqlite3") as db:
        with pytest.raises(KeyboardInterrupt):
            run_study(
                db,
                KLONDIKE,
                range(1, 9),
                NODES,
                LocalBackend(1),
                chunk=2,
                on_chunk=interrupt_after_two,
            )
        # Two whole chunks are stored, nothing of the chunks that were still out.
        done = stored(db)
        assert len(done) == 4
        assert done == {deal: reference[deal] for deal in done}
        rerun = run_study(db, KLONDIKE, range(1, 9), NODES, SerialBackend(), chunk=2)
        assert (rerun.skipped, rerun.todo) == (4, 4)
        assert stored(db) == reference


def solve_or_die(task: ChunkTask) -> list[DealResult]:
    """A worker that dies (as if killed) on the chunk holding deal 5."""
    if 5 in task.deals:
        os._exit(1)
    return solve_chunk(task)


def test_a_killed_worker_loses_only_its_chunks_and_the_rerun_completes(
    tmp_path: Path, reference: dict[int, tuple[str, int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "solve_chunk", solve_or_die)
    with StudyDB(tmp_path / "s.sqlite3") as db:
        with pytest.raises(BackendError, match="worker process died"):
            run_study(db, KLONDIKE, range(1, 9), NODES, LocalBackend(1), chunk=2)
        done = stored(db)
        # The first chunk is stored, the dying one is not; the one beside it may be either.
        assert {1, 2} <= set(done) <= {1, 2, 3, 4}
        assert len(done) % 2 == 0
        monkeypatch.undo()
        run_study(db, KLONDIKE, range(1, 9), NODES, SerialBackend(), chunk=2)
        assert stored(db) == reference


def test_a_chunk_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    with StudyDB(tmp_path / "s.sqlite3") as db:
        good = DealResult(1, "won", 0.1, 10, 5)
        bad = DealResult(2, "maybe", 0.1, 10, 0)  # refused by the table's CHECK
        with pytest.raises(Exception, match="CHECK"):
            db.write_chunk("klondike", "{}", NODES, 1, [good, bad], engine="python")
        assert db.rows() == []


def test_a_local_dask_cluster_gives_exactly_the_local_results(
    tmp_path: Path, reference: dict[int, tuple[str, int, int]]
) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        StudyDB(tmp_path / "s.sqlite3") as db,
    ):
        backend = DaskBackend(client=client)
        assert backend.workers == 2
        summary = run_study(db, KLONDIKE, range(1, 9), NODES, backend, chunk=3)
        backend.close()
        assert summary.chunks == 3
        assert stored(db) == reference


def test_ray_gives_exactly_the_local_results(
    tmp_path: Path, reference: dict[int, tuple[str, int, int]]
) -> None:
    pytest.importorskip("ray")
    backend = RayBackend(jobs=1)
    try:
        with StudyDB(tmp_path / "s.sqlite3") as db:
            run_study(db, KLONDIKE, range(1, 9), NODES, backend, chunk=4)
            assert stored(db) == reference
    finally:
        backend.close()


# -- the command line ---------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_study_run_command_runs_and_resumes(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    args = ["study", "run", "klondike", "-o", "draw=1", "--range", "1-4", "--nodes", "500"]
    first = invoke(*args, "--jobs", "1", "--db", db)
    assert first.exit_code == 0, first.output
    assert "0 already stored, 4 solved now" in first.output
    again = invoke(*args, "--jobs", "1", "--db", db)
    assert "4 already stored, 0 solved now" in again.output
    rows = StudyDB(db).rows()
    assert {row.options for row in rows} == {
        options_key(get_rules("klondike", {"draw": 1}).options)
    }


def test_a_cpu_seconds_study_is_a_study_of_its_own(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    args = ["study", "run", "klondike", "--range", "2-3", "--budget", "5", "--jobs", "1"]
    first = invoke(*args, "--cpu", "--db", db)
    assert first.exit_code == 0, first.output
    assert "5 CPU s a deal" in first.output
    assert {row.budget for row in StudyDB(db).rows()} == {Budget("cpu-seconds", 5)}
    assert "2 already stored" in invoke(*args, "--cpu", "--db", db).output
    report = json.loads(invoke("study", "report", "--db", db, "--json").output)
    assert report[0]["budgets"] == ["5 CPU s"]


def test_a_file_from_before_cpu_budgets_takes_them_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE results (game TEXT NOT NULL, options TEXT NOT NULL, deal INTEGER NOT NULL,"
        " budget_kind TEXT NOT NULL CHECK (budget_kind IN ('seconds', 'nodes')),"
        " budget REAL NOT NULL, solver INTEGER NOT NULL, result TEXT NOT NULL, seconds REAL NOT"
        " NULL, nodes INTEGER NOT NULL, length INTEGER NOT NULL, solved_at REAL NOT NULL,"
        " PRIMARY KEY (game, options, deal, budget_kind, budget, solver));"
        "INSERT INTO results VALUES ('klondike', '{}', 7, 'seconds', 10, 2, 'won', 0.5, 40, 120,"
        " 0);"
    )
    old.commit()
    old.close()
    with StudyDB(path) as db:
        assert [(row.deal, row.budget) for row in db.rows()] == [(7, Budget("seconds", 10))]
        db.write_chunk(
            "klondike",
            "{}",
            Budget("cpu-seconds", 10),
            2,
            [DealResult(8, "won", 1, 9, 99)],
            engine="python",
        )
        assert len(db.rows()) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["leopard", "--range", "1-2"], "not a one-player game"),
        (["klondike", "--range", "5-1"], "is empty"),
        (["klondike", "--range", "x"], "not an integer"),
        (["klondike", "--range", "1-2", "--nodes", "5", "--budget", "1"], "at most one of"),
        (["klondike", "--range", "1-2", "--address", "tcp://x:1"], "--address is for"),
        (["klondike", "--range", "1-2", "-o", "draw=2"], "draw"),
        (["klondike", "--range", "1-2", "--backend", "slurm"], "slurm"),
        (["klondike", "--range", "1-2", "--nodes", "5", "--cpu"], "does not go with --nodes"),
    ],
)
def test_study_run_refuses_bad_input_clearly(tmp_path: Path, args: list[str], message: str) -> None:
    result = invoke("study", "run", *args, "--db", str(tmp_path / "s.sqlite3"))
    assert result.exit_code == 2
    assert message in result.output


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval, written out independently of the code under test."""
    z = 1.959963984540054
    p = successes / trials
    middle = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return (middle - spread) / denominator, (middle + spread) / denominator


def test_report_json_counts_each_deal_once_and_counts_unknowns_both_ways(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    key = options_key(KLONDIKE.options)
    with StudyDB(path) as db:
        small, large = Budget("nodes", 100), Budget("nodes", 1000)
        first = [DealResult(deal, "won", 1.0, 100, 90) for deal in range(1, 7)]
        first += [
            DealResult(7, "unwinnable", 2.0, 100, 0),
            DealResult(8, "unwinnable", 3.0, 100, 0),
        ]
        first += [DealResult(9, "unknown", 4.0, 100, 0), DealResult(10, "unknown", 5.0, 100, 0)]
        db.write_chunk("klondike", key, small, 1, first, engine="python")
        # The retry wins deal 9 and leaves deal 10 unknown.
        db.write_chunk(
            "klondike",
            key,
            large,
            1,
            [DealResult(9, "won", 6.0, 900, 95), DealResult(10, "unknown", 7.0, 1000, 0)],
            engine="python",
        )
    result = invoke("study", "report", "--db", str(path), "--json")
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.output)
    assert (report["deals"], report["won"], report["unwinnable"], report["unknown"]) == (
        10,
        7,
        2,
        1,
    )
    # Low: 7 wins of 10 (the unknown deal lost); high: 8 of 10 (the unknown deal won).
    assert report["win_rate"]["low"] == pytest.approx(wilson(7, 10)[0], abs=1e-4)
    assert report["win_rate"]["high"] == pytest.approx(wilson(8, 10)[1], abs=1e-4)
    assert report["win_rate"]["low"] == pytest.approx(0.3968, abs=1e-4)
    assert report["win_rate"]["high"] == pytest.approx(0.9433, abs=1e-4)
    # CPU time counts every run: 6 + 2 + 3 + 4 + 5 + 6 + 7 = 33 s.
    assert report["cpu_hours"] == pytest.approx(33 / 3600)
    # Per deal, its best row: 1 1 1 1 1 1 2 3 6 7 s.
    assert report["seconds"]["median"] == 1.0
    assert report["seconds"]["p90"] == 6.0
    assert report["seconds"]["max"] == 7.0
    assert report["seconds"]["mean"] == pytest.approx(2.4)
    # Resolved in at most 1 s: the six quick wins; in 10 s: the nine resolved deals.
    assert report["resolved_within"] == {"0.1": 0.0, "1": 0.6, "10": 0.9, "60": 0.9}
    assert report["budgets"] == ["100 nodes", "1000 nodes"]
    text = invoke("study", "report", "--db", str(path))
    assert "won 7, unwinnable 2, unknown 1" in text.output
    assert "39.68% to 94.33%" in text.output


def test_report_plot_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "s.sqlite3"
    with StudyDB(path) as db:
        results = [DealResult(deal, "won", deal / 10, 10, 90) for deal in range(1, 5)]
        db.write_chunk(
            "klondike", options_key(KLONDIKE.options), NODES, 1, results, engine="python"
        )
        db.write_chunk(
            "accordion", "{}", NODES, 1, [DealResult(1, "unknown", 1.0, 300, 0)], engine="python"
        )
    # A PNG whatever the name says (matplotlib would take the suffix for the format).
    for name in ("resolved.png", "resolved.txt", "resolved"):
        plot = tmp_path / name
        result = invoke("study", "report", "--db", str(path), "--plot", str(plot))
        assert result.exit_code == 0, result.output
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"plot written to {plot}" in result.output


def test_the_plot_names_every_group_with_its_solver_and_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    figure_class = pytest.importorskip("matplotlib.figure").Figure
    legends: list[list[str]] = []
    savefig = figure_class.savefig

    def record(figure: Any, *args: Any, **kwargs: Any) -> None:
        legends.append([text.get_text() for text in figure.axes[0].get_legend().get_texts()])
        savefig(figure, *args, **kwargs)

    monkeypatch.setattr(figure_class, "savefig", record)
    path = tmp_path / "s.sqlite3"
    with StudyDB(path) as db:
        won = [DealResult(deal, "won", deal / 10, 10, 90) for deal in range(1, 5)]
        db.write_chunk("spider", "{}", Budget("cpu-seconds", 60), 5, won, engine="python")
        db.write_chunk(
            "spider",
            "{}",
            Budget("cpu-seconds", 60),
            4,
            [DealResult(1, "unknown", 60, 9, 0)],
            engine="python",
        )
        reports = summarise(db.rows())
    plot_resolved(reports, tmp_path / "plot.png")
    (legend,) = legends
    spider = reports[0].title()
    assert legend == [
        f"{spider}, python solver 5, 60 CPU s (n=4)",
        f"{spider}, python solver 4, 60 CPU s (n=1): nothing resolved, no curve",
    ]


def test_a_game_without_options_has_no_double_space_in_its_headings() -> None:
    (report,) = summarise(
        [
            ResultRow(
                "napoleon",
                "{}",
                1,
                Budget("cpu-seconds", 60),
                3,
                "won",
                2.0,
                9,
                90,
                2.0,
                engine="python",
            )
        ]
    )
    assert report.heading() == "napoleon (python solver 3; budgets: 60 CPU s)"
    assert report.label() == "napoleon, python solver 3, 60 CPU s"


def test_report_without_a_database_says_so(tmp_path: Path) -> None:
    result = invoke("study", "report", "--db", str(tmp_path / "none.sqlite3"))
    assert result.exit_code == 1
    assert "there is no study database" in result.output


# -- winnable deals -----------------------------------------------------------------------


def test_export_winnable_writes_the_won_deals_for_the_options(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    draw1 = get_rules("klondike", {"draw": 1})
    with StudyDB(path) as db:
        db.write_chunk(
            "klondike",
            options_key(draw1.options),
            NODES,
            solver_version("klondike"),
            [
                DealResult(5, "won", 0.1, 9, 80),
                DealResult(3, "won", 0.1, 9, 80),
                DealResult(4, "unknown", 0.1, 9, 0),
            ],
            engine="python",
        )
        db.write_chunk(
            "klondike",
            options_key(KLONDIKE.options),
            NODES,
            solver_version("klondike"),
            [DealResult(8, "won", 0.1, 9, 80)],
            engine="python",
        )
    out = tmp_path / "winnable" / "klondike.json"
    for options in ("draw=1", "draw=3"):
        result = invoke(
            "study",
            "export-winnable",
            "klondike",
            "-o",
            options,
            "--db",
            str(path),
            "--out",
            str(out),
        )
        assert result.exit_code == 0, result.output
    assert "1 winnable deals of 1 studied" in result.output
    lists = load_lists("klondike", out.parent)
    assert lists == {options_key(draw1.options): [3, 5], options_key(KLONDIKE.options): [8]}
    assert shipped_deals(draw1, out.parent) == [3, 5]
    assert shipped_deals(get_rules("klondike", {"passes": 1}), out.parent) == []
    none = invoke("study", "export-winnable", "spider", "--db", str(path), "--out", str(out))
    assert none.exit_code == 1
    assert "no won deal" in none.output


def test_export_winnable_writes_into_the_packages_lists_by_default() -> None:
    # The folder the web app reads (it was src/patience/cli/data/... once cli became a package).
    assert list_path("klondike") == Path(str(packaged_dir())) / "klondike.json"
    assert list_path("klondike").exists()


def test_the_shipped_lists_are_for_one_player_games_with_valid_options() -> None:
    shipped = [entry.name for entry in packaged_dir().iterdir() if entry.name.endswith(".json")]
    assert shipped, "no winnable-deal list is shipped"
    for name in shipped:
        game = name.removesuffix(".json")
        assert game in GAMES
        for key, deals in load_lists(game).items():
            rules = get_rules(game, json.loads(key))
            assert rules.players == 1
            assert options_key(rules.options) == key
            assert deals == sorted(set(deals))
            assert deals


def test_picker_deals_from_the_shipped_list(tmp_path: Path) -> None:
    folder = tmp_path / "winnable"
    folder.mkdir()
    (folder / "klondike.json").write_text(
        json.dumps(
            {"game": "klondike", "lists": [{"options": KLONDIKE.options, "deals": [11, 12]}]}
        )
    )
    picker = WinnableDealPicker(folder=folder, rng=random.Random(1), new_deal=lambda: 99)
    assert {picker(KLONDIKE, True) for _ in range(20)} == {11, 12}
    assert picker(KLONDIKE, False) == 99


def test_picker_solves_on_demand_when_no_list_is_shipped(tmp_path: Path) -> None:
    # Deal 3 is won within a hundred nodes (the reference above); the folder has no lists.
    picker = WinnableDealPicker(folder=tmp_path, seconds_per_deal=5, new_deal=lambda: 3)
    assert picker(KLONDIKE, True) == 3
    assert picker.found[("klondike", options_key(KLONDIKE.options))] == [3]


def test_picker_says_so_when_no_winnable_deal_is_found_in_time(tmp_path: Path) -> None:
    # Klondike deal 1003 is proved unwinnable (draw 3): however fast the solver, no deal is won.
    picker = WinnableDealPicker(
        folder=tmp_path, seconds_per_deal=0.02, total_seconds=0.1, new_deal=lambda: 1003
    )
    with pytest.raises(NoWinnableDeal, match="no deal of Klondike"):
        picker(KLONDIKE, True)


def test_a_pick_changes_nothing_and_repeats_with_its_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "winnable"
    folder.mkdir()
    deals = list(range(1, 51))
    (folder / "klondike.json").write_text(
        json.dumps({"game": "klondike", "lists": [{"options": KLONDIKE.options, "deals": deals}]})
    )
    picker = WinnableDealPicker(folder=folder, rng=random.Random(5))
    state = picker.rng.getstate()
    picks = [picker.pick(KLONDIKE, True, seed) for seed in range(20)]
    assert all(found == [] for _, found in picks)  # a shipped deal is no new win
    assert {deal for deal, _ in picks} <= set(deals)
    assert len({deal for deal, _ in picks}) > 1  # seeds vary the pick
    assert picker.pick(KLONDIKE, True, 7) == picks[7]  # and the same seed repeats it
    assert picker.rng.getstate() == state
    # Called, the picker draws a seed per pick: two pickers seeded alike deal alike.
    twin = WinnableDealPicker(folder=folder, rng=random.Random(5))
    assert [picker(KLONDIKE, True) for _ in range(10)] == [twin(KLONDIKE, True) for _ in range(10)]
    # On demand, the deals tried come from the seed (here the first one tried is "won").
    tried: list[int] = []

    def solve(game: Any, seconds: float) -> Any:
        tried.append(game.deal)
        return type("Solution", (), {"result": "won"})()

    monkeypatch.setattr("patience.study.winnable.solve", solve)
    searcher = WinnableDealPicker(folder=tmp_path)
    first, again, other = (searcher.pick(KLONDIKE, True, seed) for seed in (3, 3, 4))
    assert first == again == (tried[0], [tried[0]])
    assert other[0] != first[0]
    assert searcher.found == {}  # wins come back to be remembered, the picker keeps nothing


def graded_folder(tmp_path: Path) -> Path:
    """A folder of lists: Klondike's default options graded (easy 1-3, medium 4-6, hard 7-9),
    draw 1 with a list but no grades, and a list for passes=1 graded with no easy deal."""
    folder = tmp_path / "graded"
    folder.mkdir()
    grades = {"easy": [1, 2, 3], "medium": [4, 5, 6], "hard": [7, 8, 9]}
    lists = [
        {
            "options": KLONDIKE.options,
            "deals": list(range(1, 10)),
            "grades": grades,
            "graded_by": {"engine": "core", "solver": 1},
        },
        {"options": get_rules("klondike", {"draw": 1}).options, "deals": [20, 21]},
        {
            "options": get_rules("klondike", {"passes": 1}).options,
            "deals": [30, 31],
            "grades": {"easy": [], "medium": [30], "hard": [31]},
        },
    ]
    (folder / "klondike.json").write_text(json.dumps({"game": "klondike", "lists": lists}))
    return folder


def test_the_picker_deals_a_grade_from_the_graded_list(tmp_path: Path) -> None:
    folder = graded_folder(tmp_path)
    picker = WinnableDealPicker(folder=folder, rng=random.Random(2), new_deal=partial(int, 99))
    for grade, deals in (("easy", {1, 2, 3}), ("medium", {4, 5, 6}), ("hard", {7, 8, 9})):
        assert {picker(KLONDIKE, True, grade) for _ in range(30)} == deals
        picks = [picker.pick(KLONDIKE, True, seed, grade) for seed in range(10)]
        assert all(found == [] for _, found in picks)
        assert picker.pick(KLONDIKE, True, 4, grade) == picks[4]  # the seed repeats it
    # No grade: any deal of the list; not winnable: at random, as before.
    assert {picker(KLONDIKE, True) for _ in range(60)} == set(range(1, 10))
    assert picker(KLONDIKE, False) == 99
    assert picker.remembered(KLONDIKE) == []  # a shipped deal is no new win
    pickle.loads(pickle.dumps(picker))  # still picklable, for the server's worker processes


def test_a_grade_the_picker_cannot_deal_is_refused_saying_why(tmp_path: Path) -> None:
    folder = graded_folder(tmp_path)
    picker = WinnableDealPicker(folder=folder, seconds_per_deal=0.01, total_seconds=0.02)
    with pytest.raises(NoGrades, match=r"of Klondike \(draw=1,.*\) has no grades"):
        picker(get_rules("klondike", {"draw": 1}), True, "easy")
    with pytest.raises(NoGrades, match="has no easy deal; its grades with deals: medium, hard"):
        picker(get_rules("klondike", {"passes": 1}), True, "easy")
    # No list ships for these options: a search on demand, which has no grades (and none is
    # run: the refusal is at once).
    unlisted = get_rules("klondike", {"draw": 1, "passes": 1})
    with pytest.raises(NoGrades, match="searched for on demand, which has no grades"):
        picker(unlisted, True, "hard")
    with pytest.raises(ValueError, match="one of easy, medium, hard"):
        picker(KLONDIKE, True, "trivial")
    with pytest.raises(ValueError, match="with winnable deals only"):
        picker(KLONDIKE, False, "easy")
    assert picker.found == {}


def test_winnable_info_counts_the_deals_of_each_grade(tmp_path: Path) -> None:
    info = winnable_info("klondike", seconds=8.0, folder=graded_folder(tmp_path))
    by_options = {json.dumps(entry["options"], sort_keys=True): entry for entry in info["lists"]}
    default = by_options[json.dumps(dict(KLONDIKE.options), sort_keys=True)]
    assert default == {
        "options": dict(KLONDIKE.options),
        "deals": 9,
        "grades": {"easy": 3, "medium": 3, "hard": 3},
    }
    draw1 = by_options[json.dumps(dict(get_rules("klondike", {"draw": 1}).options), sort_keys=True)]
    assert "grades" not in draw1
    assert info["default_listed"] is True


def test_the_picker_remembers_each_win_once_and_the_newest_only(tmp_path: Path) -> None:
    picker = WinnableDealPicker(folder=tmp_path)
    picker.remember(KLONDIKE, [3, 5])
    picker.remember(KLONDIKE, [3])
    assert picker.remembered(KLONDIKE) == [5, 3]
    picker.remember(KLONDIKE, range(1000, 1000 + REMEMBERED))
    assert picker.remembered(KLONDIKE) == list(range(1000, 1000 + REMEMBERED))
    assert picker.remembered(get_rules("klondike", {"draw": 1})) == []
    picker.remembered(KLONDIKE).clear()  # a copy
    assert len(picker.remembered(KLONDIKE)) == REMEMBERED


def test_the_web_app_remembers_the_wins_its_worker_found(tmp_path: Path) -> None:
    """The search runs in a worker process on a copy of the picker: the win it found comes back
    to the server's picker, and a later search that finds none in time falls back on it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from patience.server import create_app

    # Deal 3 is won within a hundred nodes (the reference above); the folder has no lists.
    picker = WinnableDealPicker(folder=tmp_path, seconds_per_deal=5, new_deal=partial(int, 3))
    body = {"game": "klondike", "winnable": True}
    with TestClient(create_app(tmp_path / "web.sqlite3", deal_picker=picker)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.pools["search"].limits.processes
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        assert made.json()["deal"] == 3
        assert picker.remembered(KLONDIKE) == [3]
        # Now only deal 1003 (proved unwinnable) is tried: the worker's copy falls back on 3.
        picker.new_deal = partial(int, 1003)
        picker.seconds_per_deal, picker.total_seconds = 0.02, 0.1
        again = client.post("/api/tables", json=body)
        assert again.status_code == 201, again.text
        assert again.json()["deal"] == 3
        assert picker.remembered(KLONDIKE) == [3]


def test_the_web_app_deals_winnable_deals_from_the_picker(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette 1.x would rather have httpx2 than httpx
        from starlette.testclient import TestClient

    from patience.server import create_app

    folder = tmp_path / "winnable"
    folder.mkdir()
    (folder / "klondike.json").write_text(
        json.dumps({"game": "klondike", "lists": [{"options": KLONDIKE.options, "deals": [31]}]})
    )
    picker = WinnableDealPicker(folder=folder)
    with TestClient(create_app(tmp_path / "web.sqlite3", deal_picker=picker)) as client:
        response = client.post("/api/tables", json={"game": "klondike", "winnable": True})
        assert response.status_code == 201, response.text
        assert response.json()["deal"] == 31


def test_the_web_app_says_so_when_no_winnable_deal_is_found(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from patience.server import create_app

    # Four-suit Spider: no deal is won in a minute (docs/solving.md), let alone in 0.02 s.
    # (Napoleon at St Helena served here until its solver began to win some deals at once.)
    picker = WinnableDealPicker(folder=tmp_path, seconds_per_deal=0.02, total_seconds=0.05)
    with TestClient(create_app(tmp_path / "web.sqlite3", deal_picker=picker)) as client:
        response = client.post("/api/tables", json={"game": "spider", "winnable": True})
        assert response.status_code == 400
        assert "no deal of Spider" in response.text
        # Without "winnable deals only" the picker deals at random.
        assert client.post("/api/tables", json={"game": "spider"}).status_code == 201


def test_a_pool_broken_between_submissions_is_reported_as_a_dead_worker() -> None:
    executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
    try:
        dying = executor.submit(os._exit, 1)
        with pytest.raises(BrokenProcessPool):
            dying.result()
        task = runner.ChunkTask("klondike", {}, (1,), None, NODES)
        with pytest.raises(BackendError, match="worker process died"):
            runner._submit(executor, task)
    finally:
        executor.shutdown(wait=True)


def test_chunks_hold_several_per_worker_and_at_most_five_minutes_of_budget() -> None:
    assert chunk_size_for(1000, 2) == 25
    assert chunk_size_for(40, 2) == 5
    assert chunk_size_for(1000, 2, seconds=10) == 25
    assert chunk_size_for(1000, 2, seconds=60) == 5
    assert chunk_size_for(1000, 2, seconds=600) == 1


def test_a_terminated_driver_stops_its_workers(tmp_path: Path) -> None:
    """SIGTERM to `patience study run` (kill, a job scheduler) stops it as Ctrl-C does: its
    pool's workers end with it instead of solving on for nobody."""
    psutil = pytest.importorskip("psutil")
    command = spider_study_command(tmp_path / "study.sqlite3")
    # Files, not pipes: a worker left behind would hold a pipe open and hang the test.
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as stderr:
        driver = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    workers: list[Any] = []
    try:
        _, workers = pool_workers(psutil, driver)
        assert workers, "the study started no worker process"
        time.sleep(2)  # let the worker take its chunk
        driver.terminate()
        driver.wait(timeout=60)
        _, alive = psutil.wait_procs(workers, timeout=20)
    finally:
        if driver.poll() is None:
            driver.kill()
        for process in workers:
            if process.is_running():
                process.kill()
    assert not alive, [process.pid for process in alive]
    assert driver.returncode != 0
    assert "interrupted" in errors.read_text()
