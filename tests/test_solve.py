"""The solvers: wins replay through the engine, answers agree with a plain exhaustive search on
small positions, budgets give ``unknown``, node budgets are reproducible, and the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import patience
import patience.solve as solve_module
from patience import record
from patience.cli import main
from patience.engine import Game
from patience.games import GAMES
from patience.moves import Move
from patience.solve import (
    SOLVER_VERSIONS,
    Solution,
    SolverError,
    search,
    solve,
    solver_version,
)
from patience.solve.klondike import KlondikeAdapter

SUITS = "cdhs"
RANKS = "A23456789TJQK"


def card(rank: int, suit: int) -> str:
    return RANKS[rank - 1] + SUITS[suit]


def endgame(seed: int, left: int, **options: Any) -> Game:
    """A random Klondike position with ``left`` cards off the foundations: some in the stock,
    some on the waste, the rest face down under one face-up card in the tableau."""
    rng = random.Random(seed)
    heights = [13, 13, 13, 13]
    # Cards of one colour never build on each other: such positions are often unwinnable.
    pool = rng.choice([(0, 1, 2, 3), (0, 3), (1, 2)])
    while sum(heights) > 52 - left:
        suit = rng.choice(pool)
        if heights[suit] > 0:
            heights[suit] -= 1
    rest = [card(rank, suit) for suit in range(4) for rank in range(heights[suit] + 1, 14)]
    rng.shuffle(rest)
    stock_size = rng.randint(0, len(rest) // 2)
    waste_size = rng.randint(0, (len(rest) - stock_size) // 2)
    stock, waste, tableau = (
        rest[:stock_size],
        rest[stock_size : stock_size + waste_size],
        rest[stock_size + waste_size :],
    )
    piles: dict[str, dict[str, list[str]]] = {
        "stock": {"down": stock, "up": []},
        "waste": {"down": [], "up": waste},
    }
    for index, height in enumerate(heights):
        piles[f"f{index + 1}"] = {"down": [], "up": [card(r, index) for r in range(1, height + 1)]}
    # Few, deep piles: cards buried under others make some positions unwinnable.
    used = rng.randint(1, 3)
    columns: list[list[str]] = [[] for _ in range(7)]
    for text in tableau:
        columns[rng.randrange(used)].append(text)
    for index, column in enumerate(columns):
        piles[f"t{index + 1}"] = {"down": column[:-1], "up": column[-1:]}
    data = {"version": 1, "game": "klondike", "options": options, "piles": piles}
    return Game.from_position(data)


def exhaustive(game: Game, limit: int = 200_000) -> bool | None:
    """Is the game winnable? A plain search through the engine's own legal moves (which keep
    the no-repetition rule), with no table and no pruning; None past ``limit`` nodes."""
    count = 0

    def search(depth: int = 0) -> bool | None:
        nonlocal count
        count += 1
        if count > limit or depth > 200:
            return None
        outcome = game.outcome()
        if outcome.is_over:
            return outcome.result == "won"
        unsure = False
        for move in game.legal_moves():
            game.push(move)
            found = search(depth + 1)
            game.pop()
            if found:
                return True
            unsure = unsure or found is None
        return None if unsure else False

    return search()


def replays_to_win(game: Game, solution: Solution) -> bool:
    copy = Game.from_position(game.position())
    copy.replay_moves(solution.moves)
    return copy.outcome().result == "won"


# -- whole deals ---------------------------------------------------------------------------


@pytest.mark.parametrize(("deal", "draw"), [(3, 3), (5, 3), (2, 1), (4, 1)])
def test_klondike_deal_is_won_and_replays_through_a_record(deal: int, draw: int) -> None:
    game = patience.new("klondike", deal=deal, draw=draw)
    solution = solve(game, nodes=50_000)
    assert solution.result == "won"
    game.replay_moves(solution.moves)
    again = record.loads(record.dumps(game))
    assert again.outcome().result == "won"


def test_node_budget_is_reproducible_and_unknown_when_it_runs_out() -> None:
    runs = [solve(patience.new("klondike", deal=4, draw=3), nodes=20_000) for _ in range(2)]
    assert runs[0] == runs[1] or (runs[0].moves == runs[1].moves and runs[0].nodes == runs[1].nodes)
    short = solve(patience.new("klondike", deal=4, draw=3), nodes=50)
    assert short.result == "unknown"
    assert short.nodes == 50
    assert "node budget" in short.why


def test_a_cpu_time_budget_reads_the_thread_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # A thread clock that runs a second a call, and a wall clock that stands still: only the
    # CPU-time budget can run out, at the first look at the clock. (The thread's clock, not the
    # process's: a Dask worker solving in several threads must give each deal its budget.)
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(search.time, "thread_time", lambda: float(next(ticks)))
    monkeypatch.setattr(search.time, "perf_counter", lambda: 0.0)
    game = patience.new("klondike", deal=1, draw=3)
    timed = solve(game, seconds=0.5, cpu_time=True, engine="python")
    assert (timed.result, timed.nodes) == ("unknown", search.CLOCK_EVERY)
    assert "time budget" in timed.why
    assert timed.seconds >= 1.0
    walled = solve(game, seconds=0.5, nodes=2 * search.CLOCK_EVERY)
    assert walled.nodes == 2 * search.CLOCK_EVERY


def test_memory_bound_gives_unknown() -> None:
    solution = solve(patience.new("klondike", deal=4, draw=3), nodes=100_000, max_states=30)
    assert solution.result == "unknown"
    assert "memory" in solution.why


def test_a_deal_with_no_playable_card_is_unwinnable_by_both_solvers() -> None:
    # Deal 2 with three cards turned: no stock card and no tableau card ever moves.
    fast = solve(patience.new("klondike", deal=2, draw=3), nodes=1_000)
    plain = solve(patience.new("klondike", deal=2, draw=3), nodes=1_000, generic=True)
    assert fast.result == plain.result == "unwinnable"


def test_solving_continues_a_game_and_keeps_its_history() -> None:
    game = patience.new("klondike", deal=3, draw=3)
    game.push(game.legal_moves()[0])
    solution = solve(game, nodes=50_000)
    assert solution.result == "won"
    game.replay_moves(solution.moves)
    assert game.outcome().result == "won"


@pytest.mark.parametrize("engine", ["core", "python"])
@pytest.mark.parametrize(
    ("cut", "error"), [(1, "do not win"), (2, "does not replay")], ids=["short", "illegal"]
)
def test_a_win_that_does_not_replay_is_never_returned(
    engine: str, cut: int, error: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every `won` is replayed through a copy of the game before solve returns it: a search
    # that claims a win with moves that stop short, or that the engine refuses, is an error.
    game = patience.new("klondike", deal=3, draw=3)
    won = solve(game, nodes=50_000, engine=engine)
    assert won.result == "won"
    moves = won.moves[:-1] if cut == 1 else [Move.cards("t1", "t1", 1), *won.moves]
    if engine == "core":
        faked = ("won", moves, won.nodes, won.seconds, "", 0)
        monkeypatch.setattr(solve_module.core, "solve", lambda *args, **kwargs: faked)
    else:
        result = search.SearchResult(search.Verdict.WON, moves, won.nodes, won.seconds, "")
        monkeypatch.setattr(solve_module, "solver_search", lambda *args, **kwargs: result)
    with pytest.raises(SolverError, match=error):
        solve(game, nodes=50_000, engine=engine)


DATA = Path(__file__).parent / "data"


def first_search(game: Game, engine: str) -> tuple[str, str]:
    """The verdict and why of the engine's search with the game's history, before
    :func:`solve` settles a failure that only the history caused."""
    history = solve_module._history(game)[:-1]
    if engine == "core":
        result, _, _, _, why, _ = solve_module.core.solve(
            game.rules,
            game.state,
            history,
            seconds=None,
            nodes=100_000,
            max_states=solve_module.core.CORE_MAX_STATES,
            cpu_time=False,
        )
        return result, why
    bound = solve_module.adapter_for(game.rules)
    found = search.solver_search(
        bound.adapter,
        bound.node(game.state),
        search.Budget(nodes=100_000),
        [bound.node(state) for state in history],
    )
    return found.result, found.why


@pytest.mark.parametrize("engine", ["core", "python"])
def test_a_failure_that_only_the_history_caused_is_no_proof(engine: str) -> None:
    # Deal 67 after 291 moves of a game that the hint policy went on to win (tuning deals of
    # the blunder check): every line the pruning rules keep recreates a position already
    # played, and the rules are proved for a game whose positions may repeat. Solvers up to
    # core 8 and Python 5 called the position unwinnable.
    game = record.load(DATA / "klondike-67-history.rec")
    assert first_search(game, engine) == ("unknown", search.HISTORY_ONLY)
    solution = solve(game, nodes=100_000, engine=engine)
    assert solution.result == "won"
    game.replay_moves(solution.moves)
    assert game.outcome().result == "won"


@pytest.mark.parametrize("engine", ["core", "python"])
def test_a_position_lost_even_where_positions_may_repeat_is_lost_with_its_history(
    engine: str,
) -> None:
    # Deal 25 (draw 3) is lost; after seven turns of the stock the search with the history
    # fails only through refused positions, and the search without it proves the loss.
    game = patience.new("klondike", deal=25, draw=3)
    for _ in range(7):
        game.push("stock")
    assert first_search(game, engine) == ("unknown", search.HISTORY_ONLY)
    assert solve(game, nodes=100_000, engine=engine).result == "unwinnable"


@pytest.mark.parametrize("draw", [1, 3])
def test_every_position_a_stock_step_passes_through_is_checked_against_the_history(
    draw: int,
) -> None:
    # A step that turns the stock and then plays the waste card passes through positions the
    # no-repetition rule forbids if the game has been in them; the search refuses a step whose
    # inner keys it has seen, so every one of those positions, the last turn included, must be
    # among them.
    rng = random.Random(draw)
    for deal in range(1, 6):
        game = patience.new("klondike", deal=deal, draw=draw)
        adapter = KlondikeAdapter(game.rules)  # type: ignore[arg-type]
        for _ in range(rng.randrange(0, 20)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        node = adapter.node(game.state)
        for step, _child in adapter.steps(node, dominance=False):
            inner = set(adapter.inner_keys(node, step))
            moves = adapter.moves(node, step)
            copy = Game.create(game.rules, deal=game.deal, state=game.state)
            for move in moves[:-1]:
                copy.push(move)
                assert adapter.path_key(adapter.node(copy.state)) in inner, (deal, step)


# -- small positions: pruning agrees with the plain search -----------------------------------

# The plain searches are only feasible without from_foundation (cards coming back multiply the
# plain search space); from_foundation is covered by the tests further down.
OPTION_SETS: list[dict[str, Any]] = [
    {"draw": 1, "from_foundation": False},
    {"draw": 3, "from_foundation": False},
    {"draw": 3, "from_foundation": False, "passes": 1},
    {"draw": 1, "from_foundation": False, "passes": 2},
]


def reachable(game: Game, limit: int = 300_000) -> bool | None:
    """Is a won state reachable, ignoring the no-repetition rule? A plain graph search
    over exact states (every pile in order, and the passes used), no symmetry, no pruning. A
    winning line can always be shortened to one that repeats no position, so this is the same
    question as winnability under the rule."""
    rules = game.rules
    start = game.state
    # With unlimited passes the count of passes used changes nothing (and never ends).
    counted = rules.options.get("passes") != "unlimited"

    def exact(state: Any) -> tuple[Any, str]:
        return rules.key(state), json.dumps(rules.extra_json(state)) if counted else ""

    seen = {exact(start)}
    stack = [start]
    while stack:
        state = stack.pop()
        outcome = rules.finished(state)
        if outcome is not None:
            if outcome.result == "won":
                return True
            continue
        for move in rules.candidate_moves(state):
            after, _ = rules.perform(state, move)
            identity = exact(after)
            if identity not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(identity)
                stack.append(after)
    return False


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_fast_and_generic_solvers_agree_with_plain_searches(options: dict[str, Any]) -> None:
    answers = []
    for seed in range(16):
        game = endgame(seed, 6, **options)
        fast = solve(game, nodes=100_000)
        generic = solve(game, nodes=3_000, generic=True)
        assert fast.result != "unknown"
        for solution in (fast, generic):
            if solution.result == "won":
                assert replays_to_win(game, solution)
        if generic.result != "unknown":
            assert fast.result == generic.result, seed
        truth = reachable(game, limit=20_000)
        if truth is None:  # too big for the plain search
            continue
        assert fast.result == ("won" if truth else "unwinnable"), seed
        # The engine itself, move by move, where the plain tree is small enough.
        engine_truth = exhaustive(game, limit=300)
        if engine_truth is not None:
            assert engine_truth == truth, seed
        answers.append(truth)
    assert True in answers
    assert False in answers


def built_runs(seed: int, left: int, **options: Any) -> Game:
    """A random Klondike position with ``left`` cards off the foundations, some of them in up
    to three tableau piles as face-down cards under a built run (so that runs get split, piles
    emptied and cards brought back from the foundations), the rest in the stock and waste."""
    rng = random.Random(seed)
    heights = [13, 13, 13, 13]
    # One suit left out of play now and then makes unwinnable positions common.
    pool = rng.choice([(0, 1, 2, 3), (0, 1, 3), (1, 2, 3)])
    while sum(heights) > 52 - left:
        suit = rng.choice(pool)
        if heights[suit] > 0:
            heights[suit] -= 1
    rest = [(rank, suit) for suit in range(4) for rank in range(heights[suit] + 1, 14)]
    rng.shuffle(rest)
    columns: list[tuple[list[tuple[int, int]], list[tuple[int, int]]]] = []
    for _ in range(rng.randint(1, 3)):
        hidden = [rest.pop() for _ in range(min(len(rest) - 1, rng.randint(1, 4)))]
        run = [rest.pop()]
        while True:
            rank, suit = run[-1]
            fits = [c for c in rest if c[0] == rank - 1 and (c[1] in (1, 2)) != (suit in (1, 2))]
            if not fits:
                break
            run.append(rng.choice(fits))
            rest.remove(run[-1])
        columns.append((hidden, run))
    waste_size = rng.randint(0, len(rest) // 2)
    piles: dict[str, dict[str, list[str]]] = {
        "stock": {"down": [card(*c) for c in rest[waste_size:]], "up": []},
        "waste": {"down": [], "up": [card(*c) for c in rest[:waste_size]]},
    }
    for index, height in enumerate(heights):
        piles[f"f{index + 1}"] = {"down": [], "up": [card(r, index) for r in range(1, height + 1)]}
    for index in range(7):
        hidden, run = columns[index] if index < len(columns) else ([], [])
        piles[f"t{index + 1}"] = {"down": [card(*c) for c in hidden], "up": [card(*c) for c in run]}
    data = {"version": 1, "game": "klondike", "options": options, "piles": piles}
    return Game.from_position(data)


@pytest.mark.parametrize(
    "options",
    [*OPTION_SETS, {"draw": 1}, {"draw": 3}, {"draw": 3, "passes": 2}],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_pruning_of_splits_spaces_and_returns_agrees_with_the_unpruned_search(
    options: dict[str, Any],
) -> None:
    # Rules 8-10 of docs/solving.md (and the safe moves) are off with dominance=False; the
    # canonical table stays, so both searches are complete on these small positions.
    answers = []
    pruned = False
    for seed in range(24):
        game = built_runs(seed, 18, **options)
        fast = solve(game, nodes=100_000)
        plain = solve(game, nodes=100_000, dominance=False)
        assert fast.result == plain.result != "unknown", seed
        if fast.result == "won":
            assert replays_to_win(game, fast)
        else:
            pruned = pruned or fast.nodes < plain.nodes
        answers.append(fast.result)
    assert "won" in answers
    assert "unwinnable" in answers
    assert pruned


@pytest.mark.parametrize(
    "options", [{"draw": 3, "from_foundation": False}, {"draw": 3, "passes": 2}]
)
def test_restarts_keep_only_proved_losses(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Restarting every few nodes (the states on the stack leave the table each time) must not
    # change any answer, and a win found after restarts still replays.
    games = [built_runs(seed, 18, **options) for seed in range(30)]
    plain = [solve(game, nodes=100_000, dominance=False).result for game in games]
    monkeypatch.setattr(KlondikeAdapter, "restart_nodes", 3)
    restarted = [solve(game, nodes=100_000) for game in games]
    assert [solution.result for solution in restarted] == plain
    assert "unwinnable" in plain
    for game, solution in zip(games, restarted, strict=True):
        if solution.result == "won":
            assert replays_to_win(game, solution)
    again = [solve(game, nodes=100_000) for game in games]
    assert again == restarted or all(
        (a.result, a.moves, a.nodes) == (b.result, b.moves, b.nodes)
        for a, b in zip(again, restarted, strict=True)
    )


def position(
    heights: list[int], tableau: list[tuple[list[str], list[str]]], **options: Any
) -> Game:
    """A hand-made Klondike position: foundations of the given heights (suits c d h s), the
    tableau piles as (face-down, face-up) cards, and every other card in the stock."""
    placed = {text for hidden, up in tableau for text in hidden + up}
    stock = [
        card(rank, suit)
        for suit in range(4)
        for rank in range(heights[suit] + 1, 14)
        if card(rank, suit) not in placed
    ]
    piles: dict[str, dict[str, list[str]]] = {
        "stock": {"down": stock, "up": []},
        "waste": {"down": [], "up": []},
    }
    for index, height in enumerate(heights):
        piles[f"f{index + 1}"] = {"down": [], "up": [card(r, index) for r in range(1, height + 1)]}
    for index in range(7):
        hidden, up = tableau[index] if index < len(tableau) else ([], [])
        piles[f"t{index + 1}"] = {"down": hidden, "up": up}
    data = {"version": 1, "game": "klondike", "options": options, "piles": piles}
    return Game.from_position(data)


def first_moves(game: Game, dominance: bool) -> list[str]:
    adapter = KlondikeAdapter(game.rules)  # type: ignore[arg-type]
    node = adapter.node(game.state)  # type: ignore[arg-type]
    return [
        " ".join(move.text() for move in adapter.moves(node, step))
        for step, _ in adapter.steps(node, dominance)
    ]


def test_rules_8_and_9_leave_out_a_useless_split_and_a_useless_return() -> None:
    # 8h on 9s could move onto 9c, but then nothing could use 9s (no red ten in sight, its twin
    # 8d face down); 7c or 7s could come down onto 8h, but no red six could follow, and no red
    # seven is there for the next card of their suit.
    game = position([7, 5, 5, 7], [(["8d", "6d", "6h"], ["9s", "8h"]), ([], ["9c"])], draw=3)
    loose, strict = first_moves(game, False), first_moves(game, True)
    pruned = {"t1-t2", "f1-t1", "f4-t1"}
    assert pruned <= set(loose)
    assert not pruned & set(strict)
    assert set(strict) == set(loose) - pruned


def test_rule_10_makes_a_space_only_for_a_king() -> None:
    # 6d could leave t1 empty by going onto 7s, but every king is face down under 7s.
    tableau = [([], ["6d"]), (["Kc", "Kd", "Kh", "Ks"], ["7s"])]
    game = position([7, 4, 5, 6], tableau, draw=3)
    assert "t1-t2" in first_moves(game, False)
    assert "t1-t2" not in first_moves(game, True)
    # With a king that could fill the space, the move is kept.
    tableau = [([], ["6d"]), (["Kc", "Kd", "Kh"], ["7s"]), (["8c"], ["Ks"])]
    game = position([7, 4, 5, 6], tableau, draw=3)
    assert "t1-t2" in first_moves(game, True)


@pytest.mark.parametrize("engine", ["core", "python"])
def test_a_three_is_no_safe_move_while_a_two_of_the_other_colour_needs_it(engine: str) -> None:
    # Rule 4 sends a card up by itself only when both foundations of the other colour are a
    # rank below it. Here 2s must go onto 3h to free As (no space, 3d is up); sent up at once,
    # 3h would leave the spades buried for good.
    tableau = [
        (["As"], ["2s"]),
        (["5h", "6h", "7h"], ["Qs"]),
        (["8h", "9h"], ["Js"]),
        (["Th", "Jh"], ["Ts"]),
        (["Qh", "Kh"], ["9s"]),
        (["Ks", "4h"], ["3h"]),
        (["8s", "7s", "6s", "5s", "4s"], ["3s"]),
    ]
    game = position([13, 13, 2, 0], tableau, draw=3)
    assert game.state.piles["stock"] == []
    assert sorted(first_moves(game, True)) == ["t1-t6", "t6-f3"]
    solution = solve(game, nodes=20_000, engine=engine)
    assert solution.result == "won"
    assert replays_to_win(game, solution)


def test_rule_8_keeps_a_split_that_lets_the_uncovered_card_go_up() -> None:
    # Every win here splits a built run at a card that can go to its foundation at once:
    # with rule 8's first clause left out, the search calls the position lost. Found by the
    # core's `the_dominance_rules_without_switches_change_no_answer` with that clause taken
    # out of the core.
    tableau = [
        (["Td", "Kd", "Qd"], ["Qh", "Js", "Th"]),
        (["Jh", "Qc"], ["Jc"]),
        (["Kh", "Ks", "Tc"], ["Qs", "Jd"]),
        ([], ["Ts"]),
        ([], ["Kc"]),
    ]
    game = position([9, 9, 9, 9], tableau, draw=3)
    solution = solve(game, nodes=50_000, engine="python")
    assert solution.result == "won"
    assert replays_to_win(game, solution)


def deadlocked(game: Game) -> bool:
    adapter = KlondikeAdapter(game.rules)  # type: ignore[arg-type]
    return adapter.deadlocked(adapter.node(game.state))  # type: ignore[arg-type]


def test_rule_12_finds_cards_that_wait_for_each_other() -> None:
    # 5h can go only onto 6c (under it) or 6s, or to its foundation after 4h; 6s and 4h lie
    # under 9d in t2. 9d can go only onto 10c or 10s (under 5h), or to its foundation after
    # 8d (under 5h too). Neither can move first: the position is lost.
    tableau = [(["8d", "Tc", "Ts", "6c"], ["5h"]), (["6s", "4h"], ["9d"])]
    for engine in ("core", "python"):
        for from_foundation in (True, False):
            game = position([5, 7, 3, 5], tableau, draw=3, from_foundation=from_foundation)
            assert deadlocked(game)
            assert first_moves(game, True) == []
            assert first_moves(game, False)  # the stock has cards to play
            found = solve(game, nodes=1_000, engine=engine)
            assert (found.result, found.nodes) == ("unwinnable", 1)
    # With 10s in the stock, 9d may go onto it, then 5h onto 6s: no dead-lock.
    tableau = [(["8d", "Tc", "6c"], ["5h"]), (["6s", "4h"], ["9d"])]
    assert not deadlocked(position([5, 7, 3, 5], tableau, draw=3))


def test_rule_12_settles_a_deal_the_unpruned_search_proves_lost() -> None:
    game = patience.new("klondike", deal=167)
    assert deadlocked(game)
    assert solve(game, nodes=10, engine="core").result == "unwinnable"
    assert solve(game, nodes=10, engine="python").result == "unwinnable"
    # The search without dominance (no rule 12) proves it too, in about a million nodes.
    plain = solve(game, nodes=3_000_000, dominance=False, engine="core")
    assert plain.result == "unwinnable"
    assert plain.nodes > 100_000


def test_the_lock_diagnostic_agrees_with_the_core_at_the_root() -> None:
    # benchmarks/klondike_locks.py writes the core's rule 12 again in Python (docs/solving.md
    # cites its counts): a deal is locked there exactly when the core proves it lost at the
    # root. Deals 1022-1024 are locked, the others of 1018-1027 are not.
    from benchmark_helpers import load_benchmark

    locks = load_benchmark("klondike_locks")
    from patience.solve.core import encode

    locked = []
    for deal in range(1018, 1028):
        game = patience.new("klondike", deal=deal, draw=3)
        piles, down, _ = encode(game.rules, game.state)
        stuck = locks.stuck_cards(piles, down, True, kings_barred=False)
        found = solve(game, nodes=1, engine="core")
        assert bool(stuck) == (found.result == "unwinnable"), deal
        locked += [deal] if stuck else []
        # Barring kings from spaces only ever adds stuck cards.
        assert stuck <= locks.stuck_cards(piles, down, True, kings_barred=True)
    assert locked == [1022, 1023, 1024]


@pytest.mark.parametrize("from_foundation", [True, False])
def test_rule_12_fires_only_on_lost_positions(from_foundation: bool) -> None:
    fired = 0
    for seed in range(40):
        for game in (
            built_runs(seed, 20, draw=3, from_foundation=from_foundation),
            endgame(seed, 10, draw=3, from_foundation=from_foundation),
        ):
            if deadlocked(game):
                fired += 1
                plain = solve(game, nodes=200_000, dominance=False)
                assert plain.result == "unwinnable", seed
    assert fired >= (1 if from_foundation else 10)


def test_with_cards_back_from_the_foundations_no_step_makes_a_dead_lock() -> None:
    # Why rule 12 is tested at the root only then: along random walks of the adapter's steps,
    # a position that is not dead-locked never has a dead-locked child.
    rng = random.Random(12)
    tested = 0
    for deal in range(1, 41):
        game = patience.new("klondike", deal=deal)
        adapter = KlondikeAdapter(game.rules)  # type: ignore[arg-type]
        node = adapter.node(game.state)  # type: ignore[arg-type]
        if adapter.deadlocked(node):
            continue
        for _ in range(60):
            children = adapter.steps(node, False)
            if not children:
                break
            for _, child in children:
                assert not adapter.deadlocked(child), deal
                tested += 1
            node = rng.choice(children)[1]
    assert tested > 5_000


@pytest.mark.parametrize("seed", range(8))
def test_stricter_options_are_never_more_winnable(seed: int) -> None:
    def won(**options: Any) -> bool:
        result = solve(endgame(seed, 10, **options), nodes=100_000).result
        assert result != "unknown"
        return result == "won"

    for draw in (1, 3):
        loose = won(draw=draw)
        assert won(draw=draw, passes=1) <= won(draw=draw, passes=2) <= loose
        assert won(draw=draw, from_foundation=False) <= loose


def test_from_foundation_can_be_needed() -> None:
    # 6h lies on 5h in t1; every other card is on a foundation except the hearts 7-K in the
    # stock. Only by bringing a king-to-seven run down from the foundations can 6h move.
    piles: dict[str, dict[str, list[str]]] = {
        "stock": {"down": [card(rank, 2) for rank in range(7, 14)], "up": []},
        "waste": {"down": [], "up": []},
    }
    for suit in range(4):
        top = 4 if suit == 2 else 13
        piles[f"f{suit + 1}"] = {"down": [], "up": [card(r, suit) for r in range(1, top + 1)]}
    for index in range(7):
        piles[f"t{index + 1}"] = {"down": [], "up": []}
    piles["t1"] = {"down": [card(5, 2)], "up": [card(6, 2)]}
    for draw in (1, 3):
        for flag, expected in ((True, "won"), (False, "unwinnable")):
            data = {
                "version": 1,
                "game": "klondike",
                "options": {"draw": draw, "from_foundation": flag},
                "piles": piles,
            }
            game = Game.from_position(data)
            solution = solve(game, nodes=200_000)
            assert solution.result == expected
            if expected == "won":
                assert replays_to_win(game, solution)


# -- the command line ------------------------------------------------------------------------


def test_cli_solve_json_and_record(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "won.rec"
    result = runner.invoke(
        main,
        ["solve", "klondike", "--deal", "3", "--nodes", "20000", "--json", "--record", str(path)],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"result", "moves", "nodes", "seconds"}
    assert data["result"] == "won"
    replayed = runner.invoke(main, ["replay", str(path), "--json"])
    assert json.loads(replayed.output)["outcome"]["result"] == "won"


def test_cli_solve_position_file(tmp_path: Path) -> None:
    game = endgame(3, 6, draw=1)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(game.position()))
    result = CliRunner().invoke(
        main, ["solve", "klondike", "--position", str(path), "--nodes", "9999"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.split()[0] in ("won", "unwinnable")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["solve", "klondike"], "exactly one of --deal N and --position FILE"),
        (["solve", "klondike", "--deal", "1", "--budget", "1", "--nodes", "5"], "at most one"),
        (["solve", "klondike", "--deal", "1", "--nodes", "5", "--cpu"], "not go with --nodes"),
        (["solve", "leopard", "--deal", "1"], "not a one-player game"),
        (["solve", "klondike", "--position", "nowhere.json"], "there is no file"),
        (["solve", "klondike", "--deal", "2", "--nodes", "9", "--record", "x.rec"], "no record"),
        (["solve", "klondike", "--deal", "1", "-o", "draw=2"], "draw"),
    ],
)
def test_cli_solve_bad_input_gets_a_clear_message(arguments: list[str], message: str) -> None:
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code != 0
    assert message in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_every_game_has_a_solver_version() -> None:
    assert set(SOLVER_VERSIONS) == set(GAMES)
    assert all(solver_version(name) >= 1 for name in GAMES)


def test_solve_command_counts_a_cpu_budget() -> None:
    result = CliRunner().invoke(
        main, ["solve", "klondike", "--deal", "1", "--budget", "0.3", "--cpu", "--json"]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["result"] in ("won", "unwinnable", "unknown")
    assert answer["seconds"] <= 5


@pytest.mark.parametrize("engine", ["core", "python"])
def test_verdicts_are_an_enum_written_as_text(engine: str) -> None:
    from patience.solve import Verdict

    won = solve(patience.new("klondike", deal=7, draw=1), nodes=200_000, engine=engine)
    assert won.result is Verdict.WON
    assert json.loads(json.dumps(won.to_json()))["result"] == "won"
    cut = solve(patience.new("klondike", deal=3, draw=3), nodes=10, engine=engine)
    assert cut.result is Verdict.UNKNOWN
    assert cut.result == "unknown"
