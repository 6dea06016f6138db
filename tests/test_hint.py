"""Honest hints: sampled from the view, never from the hidden cards; legal, reproducible, and
clear when there is nothing to suggest."""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import random
import warnings
from collections import Counter, OrderedDict
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import patience
from patience.cli.web import hint_json
from patience.engine import Game
from patience.moves import Move
from patience.server import create_app
from patience.solve import Hint, hint, solve, solve_state
from patience.solve.hint import (
    DEFAULT_SAMPLES,
    GAME_BUDGETS,
    STUCK_AFTER,
    _moves_without_progress,
    _progress,
    _racing,
    _remember,
    _Tally,
    _undoing,
    _world_past,
    has_hidden_cards,
    hint_budget,
    remembered_view,
)
from patience.solve.search import HISTORY_ONLY
from patience.terminal import PlaySession

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ONE_PLAYER = ["klondike", "spider", "canfield", "accordion", "napoleon", "leonis-own"]
SUITS = "cdhs"
RANKS = "A23456789TJQK"
#: A budget that makes a hint reproducible (no clock) and quick.
QUICK: dict[str, Any] = {"samples": 6, "seconds": None, "nodes": 2000}

#: The Klondike cards above the eights, in an order for which swapping the bottom face-down
#: cards of t1 and t2 turns a winnable position (Th at the bottom of t1) into an unwinnable one.
LAYOUT = [
    "Th", "Ks", "Jd", "Js", "8h", "Qs", "Jc", "Kc", "Td", "Tc", "Ts", "9h",
    "Kh", "8d", "Qc", "Jh", "Qd", "Qh", "9d", "8c", "9s", "8s", "Kd", "9c",
]  # fmt: skip


def klondike(
    tableau: list[tuple[list[str], list[str]]],
    stock: list[str],
    heights: list[int],
    **options: Any,
) -> Game:
    """A Klondike position: the foundations of clubs, diamonds, hearts and spades built up to
    ``heights``, the tableau piles as (face-down, face-up) cards, the stock face down."""
    piles: dict[str, dict[str, list[str]]] = {
        f"f{suit + 1}": {"down": [], "up": [RANKS[rank] + SUITS[suit] for rank in range(height)]}
        for suit, height in enumerate(heights)
    }
    piles["stock"] = {"down": stock, "up": []}
    piles["waste"] = {"down": [], "up": []}
    for index in range(7):
        down, up = tableau[index] if index < len(tableau) else ([], [])
        piles[f"t{index + 1}"] = {"down": down, "up": up}
    data = {"version": 1, "game": "klondike", "options": {"draw": 1, **options}, "deal": None}
    return Game.from_position({**data, "piles": piles, "redeals": 0})


def layout_game(swap: bool = False) -> Game:
    cards = list(LAYOUT)
    if swap:
        cards[0], cards[4] = cards[4], cards[0]
    tableau = [(cards[4 * i : 4 * i + 3], [cards[4 * i + 3]]) for i in range(4)]
    return klondike(tableau, cards[16:], [7] * 4)


def same(first: Hint, second: Hint) -> bool:
    """Equal in everything but the time taken."""
    return (first.move, first.chance, first.samples, first.exact, first.wins, first.unknown) == (
        second.move,
        second.chance,
        second.samples,
        second.exact,
        second.wins,
        second.unknown,
    ) and dict(first.votes) == dict(second.votes)


# -- honesty -------------------------------------------------------------------------------------


def test_two_true_states_with_the_same_view_get_the_same_hint() -> None:
    winnable, swapped = layout_game(), layout_game(swap=True)
    assert winnable.view() == swapped.view()
    # The swap decides the game: a hint that peeked could tell them apart.
    assert solve(winnable, nodes=50_000).result == "won"
    assert solve(swapped, nodes=50_000).result == "unwinnable"
    first, second = hint(winnable, seed=3, **QUICK), hint(swapped, seed=3, **QUICK)
    assert same(first, second)
    assert first.move is not None
    assert first.samples == 6
    assert not first.exact


def test_the_hidden_cards_are_never_read() -> None:
    """Any arrangement of the hidden cards behind the same view gives the very same hint."""
    game = patience.new("klondike", deal=5, draw=1)
    expected = hint(game, seed=11, **QUICK)
    position = game.position()
    hidden = [
        (name, index)
        for name, pile in position["piles"].items()
        for index in range(len(pile["down"]))
    ]
    rng = random.Random(5)
    for _ in range(2):
        cards = [position["piles"][name]["down"][index] for name, index in hidden]
        rng.shuffle(cards)
        data = {**position, "piles": {k: dict(v) for k, v in position["piles"].items()}}
        for name in data["piles"]:
            data["piles"][name]["down"] = list(data["piles"][name]["down"])
        for (name, index), card in zip(hidden, cards, strict=True):
            data["piles"][name]["down"][index] = card
        other = Game.from_position(data)
        assert other.view() == game.view()
        assert other.position() != position
        assert same(hint(other, seed=11, **QUICK), expected)


def through_the_stock(data: dict[str, Any]) -> Game:
    """Klondike draw 3 from position ``data``: the stock turned through once, the first card
    move then legal made (so that the recycled stock is a new position), and the stock
    recycled."""
    game = Game.from_position(data)
    while game.state.piles["stock"]:
        game.push("stock")
    game.push(next(move for move in game.legal_moves() if not move.is_action))
    game.push("recycle")
    return game


def test_the_same_views_so_far_get_the_same_hint() -> None:
    """Two games whose views were the same at every move (two cards never shown swapped) get
    the same memory and the same hint, and the memory names the stock turned through."""
    position = patience.new("klondike", deal=7, draw=3).position()
    data = json.loads(json.dumps(position))
    data["piles"]["t6"]["down"][0], data["piles"]["t7"]["down"][0] = (
        position["piles"]["t7"]["down"][0],
        position["piles"]["t6"]["down"][0],
    )
    game, other = through_the_stock(json.loads(json.dumps(position))), through_the_stock(data)
    assert game.position() != other.position()
    assert [step.move for step in game._stack] == [step.move for step in other._stack]
    for mine, theirs in zip(game._stack, other._stack, strict=True):
        assert game.rules.view_json(mine.before, 0) == other.rules.view_json(theirs.before, 0)
    assert game.view() == other.view()
    memory = remembered_view(game)
    assert memory == remembered_view(other)
    # The stock lies face down, but every card of it was seen on the waste: all are named.
    stock = game.position()["piles"]["stock"]["down"]
    assert len(stock) >= 20
    assert game.view()["piles"]["stock"]["down"] == [None] * len(stock)
    assert memory["piles"]["stock"]["down"] == stock
    assert memory["piles"]["t7"]["down"] == game.view()["piles"]["t7"]["down"]  # never seen
    assert memory["piles"]["t7"]["down"][0] is None
    assert same(hint(game, seed=2, **QUICK), hint(other, seed=2, **QUICK))


@pytest.mark.parametrize(("name", "options"), [("klondike", {"draw": 3}), ("canfield", {})])
def test_every_card_remembered_is_where_the_memory_puts_it(
    name: str, options: dict[str, Any]
) -> None:
    """Random games: each card the memory names in a place the view hides is the card there."""
    named = 0
    for deal in range(1, 4):
        game = patience.new(name, deal=deal, **options)
        rng = random.Random(deal)
        for _ in range(80):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
            truth, view, memory = game.position(), game.view(), remembered_view(game)
            for pile, shown in memory["piles"].items():
                for part in ("down", "up"):
                    for real, seen, card in zip(
                        truth["piles"][pile][part],
                        view["piles"][pile][part],
                        shown[part],
                        strict=True,
                    ):
                        assert card in (seen, real)
                        named += seen is None and card is not None
    assert named > 100  # the stock passed through is remembered


@pytest.mark.parametrize(("name", "options"), [("klondike", {"draw": 3}), ("canfield", {})])
def test_the_memory_goes_on_from_the_last_hint_as_if_it_replayed_the_game(
    name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memory keeps its replay of a game between hints and plays only the moves since; a
    move undone sends it back to the start. Along random games with undos, what it remembers
    equals the replay of the whole game from a memory that kept nothing."""
    hint_module = importlib.import_module("patience.solve.hint")
    resumed = 0
    for deal in range(1, 4):
        game = patience.new(name, deal=deal, **options)
        rng = random.Random(deal)
        for _ in range(120):
            moves = game.legal_moves()
            if not moves or game.outcome().result != "ongoing":
                break
            if game.move_stack and rng.random() < 0.1:
                game.pop()
            else:
                game.push(rng.choice(moves))
            # The replay kept last is this game's (after its first hint).
            kept = next(reversed(hint_module._REPLAYS.values()), None)
            resumed += kept is not None and 0 < len(kept.moves) < len(game.move_stack)
            going_on = _remember(game)
            with monkeypatch.context() as fresh:
                fresh.setattr(hint_module, "_REPLAYS", OrderedDict())
                from_scratch = _remember(game)
            assert going_on.view == from_scratch.view
            keys = [game.rules.key(state) for state in going_on.past]
            assert keys == [game.rules.key(state) for state in from_scratch.past]
    assert resumed > 50


def test_each_world_gets_the_past_of_its_game() -> None:
    """The memory's past shows the views the game went through, ends with the position now,
    and renamed into a sampled world ends with that world; a search given a past does not
    recreate it."""
    game = patience.new("klondike", deal=9, draw=3)
    rng = random.Random(9)
    for _ in range(40):
        game.push(rng.choice(game.legal_moves()))
    memory = _remember(game)
    rules = game.rules
    seen = [rules.view_json(step.before, 0) for step in game._stack] + [
        rules.view_json(game.state, 0)
    ]
    assert len(memory.past) > 1
    assert all(rules.view_json(state, 0) in seen for state in memory.past)
    assert rules.view_json(memory.past[-1], 0) == seen[-1]
    marks = rules.lasting_marks(game.state)
    assert all(rules.lasting_marks(state) == marks for state in memory.past)
    world = rules.sample_state(memory.view, random.Random(1))
    past = _world_past(memory.past, world)
    assert past[-1].piles == world.piles
    assert [rules.view_json(state, 0) for state in past] == [
        rules.view_json(state, 0) for state in memory.past
    ]
    # A won position whose every position one move on is in the past is no longer won.
    won = undo_game()
    after = [won.rules.perform(won.state, move)[0] for move in won.legal_moves()]
    assert solve_state(won.rules, won.state, nodes=5000).result == "won"
    assert solve_state(won.rules, won.state, past=after, nodes=5000).result != "won"


def test_games_whose_moves_depend_on_hidden_cards_remember_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = patience.new("leonis-own", deal=1)
    rng = random.Random(1)
    for _ in range(30):
        game.push(rng.choice(game.legal_moves()))
    # Leoni's Own's exiles weave by the ranks of squared cards: a replay cannot follow them.
    monkeypatch.setattr(type(game.rules), "player_sees_every_card", False)
    assert remembered_view(game) == game.view()


@pytest.mark.parametrize("exile", ["top", "choose"])
def test_a_player_who_saw_every_card_dealt_knows_the_position(exile: str) -> None:
    """Leoni's Own deals every card face up, one at a time: the memory names every card the
    view squares or lays face down, where it lies, and the hint solves the game itself."""
    game = patience.new("leonis-own", deal=2, exile=exile)
    rng = random.Random(2)
    for _ in range(20):
        game.push(rng.choice(game.legal_moves()))
    view, memory, truth = game.view(), remembered_view(game), game.position()
    assert has_hidden_cards(view)
    assert not has_hidden_cards(memory)
    for name, pile in memory["piles"].items():
        assert (pile["down"], pile["up"]) == (
            truth["piles"][name]["down"],
            truth["piles"][name]["up"],
        )
    assert {key: value for key, value in memory.items() if key != "piles"} == {
        key: value for key, value in view.items() if key != "piles"
    }
    # The past each search is told not to recreate: the game's own positions.
    past = _remember(game).past
    assert len(past) == len(game.move_stack) + 1
    assert past[-1].piles == game.state.piles
    answer = hint(game, **QUICK)
    assert "every card is known (each was seen face up" in answer.reason
    assert answer.move is None or answer.move in game.legal_moves()


@pytest.mark.parametrize("name", ONE_PLAYER)
def test_sampled_worlds_show_exactly_the_view(name: str) -> None:
    game = patience.new(name, deal=4)
    for _ in range(3):  # a few moves in, so that some hidden cards have been seen
        moves = game.legal_moves()
        if moves:
            game.push(moves[-1])
    view = game.view()
    assert has_hidden_cards(view)
    rules = game.rules
    worlds = [rules.sample_state(view, random.Random(seed)) for seed in range(3)]
    for world in worlds:
        assert rules.view_json(world, 0) == rules.view_json(game.state, 0)
        assert Counter(world.all_cards()) == Counter(game.state.all_cards())
    # The hidden cards really are dealt afresh: the worlds differ from each other.
    assert len({str(rules.position_json(world, None)) for world in worlds}) > 1


def test_the_same_seed_gives_the_same_hint_and_a_legal_move() -> None:
    game = patience.new("klondike", deal=3, draw=3)
    first = hint(game, seed="x", **QUICK)
    assert same(first, hint(game, seed="x", **QUICK))
    assert first.move in game.legal_moves()
    # The moves judged (in the same worlds) are legal; the best keeps about the most won.
    assert set(first.votes) <= {move.text() for move in game.legal_moves()}
    assert first.wins == first.votes[first.move.text()]
    assert first.wins >= max(first.votes.values()) - max(first.votes.values()) ** 0.5
    assert first.chance == first.wins / first.samples
    assert first.low <= first.chance <= first.high
    game.push(first.move)  # the real game takes it


def test_asked_twice_the_same_position_gets_the_same_hint() -> None:
    """The worlds are seeded from the view and the moves played, not from the clock."""
    game = patience.new("klondike", deal=8, draw=3)
    game.push(game.legal_moves()[0])
    again = patience.new("klondike", deal=8, draw=3)
    again.push(again.legal_moves()[0])
    assert same(hint(game, **QUICK), hint(again, **QUICK))


def test_ties_go_to_progress_not_to_the_stock() -> None:
    """Every world is won whatever is played first: the hint takes a card to its foundation,
    not a turn of the stock (which keeps options open but gets nowhere)."""
    runs = ["Kc Qh Jc Th", "Kh Qc Jh Tc", "Kd Qs Jd Ts", "Ks Qd Js"]
    game = klondike(
        [
            (["9c"], run.split()) if index == 0 else ([], run.split())
            for index, run in enumerate(runs)
        ],
        ["Td"],
        [8, 9, 9, 9],
    )
    assert has_hidden_cards(game.view())
    assert any(move.text() == "stock" for move in game.legal_moves())
    answer = hint(game, **QUICK)
    assert answer.chance == 1.0
    assert answer.move is not None
    assert answer.move.text() != "stock"
    # Were they judged alike, progress would still rank the stock turn last.
    legal = game.legal_moves()
    progress = _progress(game.rules, game.state, legal)
    stock = next(move for move in legal if move.text() == "stock")
    to_foundation = [move for move in legal if move.text().partition("-")[2].startswith("f")]
    assert to_foundation
    assert all(progress[stock] < progress[move] for move in to_foundation)


def test_with_no_world_won_the_solver_s_first_legal_choice_is_suggested() -> None:
    game = patience.new("spider", deal=1)
    answer = hint(game, samples=2, seconds=None, nodes=200)
    assert answer.wins == 0
    assert answer.unknown == 2
    assert answer.chance == 0.0
    assert answer.move in game.legal_moves()
    assert answer.text().startswith("Perhaps")
    # Positions already reached are known to the real game only: the suggestion skips moves
    # that would recreate one (here every move but one would).
    game = patience.new("napoleon", deal=2)
    rng = random.Random(2)
    for _ in range(10):
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    answer = hint(game, samples=2, seconds=None, nodes=200)
    assert answer.move is not None
    assert answer.move in game.legal_moves()


# -- nothing hidden, nothing to do ---------------------------------------------------------------


def open_endgame() -> Game:
    """Every card face up: four kings heading alternating runs down to the tens."""
    runs = ["Kc Qh Jc Th", "Kh Qc Jh Tc", "Kd Qs Jd Ts", "Ks Qd Js Td"]
    return klondike([([], run.split()) for run in runs], [], [9] * 4)


def test_nothing_hidden_is_solved_exactly() -> None:
    game = open_endgame()
    assert not has_hidden_cards(game.view())
    answer = hint(game)
    assert answer.exact
    assert answer.chance == 1.0
    assert answer.samples == 0
    assert answer.move in game.legal_moves()
    assert answer.to_json()["exact"] is True


def test_the_last_hidden_card_is_known_and_the_game_solved_exactly() -> None:
    # One card face down: it can only be the one card the view names nowhere, so the hint
    # solves the game itself as when nothing is hidden. Two face down cards can lie two ways.
    runs = ["Kc Qh Jc Th", "Kh Qc Jh Tc", "Kd Qs Jd Ts", "Ks Qd Js"]
    game = klondike(
        [([], run.split()) for run in runs[:3]] + [(["Td"], runs[3].split())], [], [9] * 4
    )
    view = remembered_view(game)
    assert has_hidden_cards(view)
    assert game.rules.hidden_cards_known(view)
    answer = hint(game, **QUICK)
    assert answer.exact
    assert answer.chance == 1.0
    assert answer.samples == 0
    assert answer.move in game.legal_moves()
    two = ["Kc Qh Jc", "Kh Qc Jh Tc", "Kd Qs Jd Ts", "Ks Qd Js"]
    hidden = klondike(
        [([], two[0].split())]
        + [([], r.split()) for r in two[1:3]]
        + [(["Td", "Th"], two[3].split())],
        [],
        [9] * 4,
    )
    assert not hidden.rules.hidden_cards_known(remembered_view(hidden))
    assert not hint(hidden, **QUICK).exact


def test_a_game_over_gets_a_clear_answer() -> None:
    won = open_endgame()
    while not won.is_over():
        won.push(hint(won, seconds=None, nodes=1000).move or "stock")
    assert won.outcome().result == "won"
    answer = hint(won)
    assert answer.move is None
    assert answer.chance == 1.0
    assert "over (won" in answer.reason
    # Stuck: Qc waits on a face-down ten, Jc on a face-down king; no king for a space.
    stuck = klondike(
        [(["Tc"], ["Qc"]), (["Kc"], ["Jc"])], [], [9, 13, 13, 13], from_foundation=False
    )
    assert stuck.outcome().result == "lost"
    answer = hint(stuck)
    assert answer.move is None
    assert answer.chance == 0.0
    assert "over (lost" in answer.reason
    assert "No move to suggest" in answer.text()


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="one-player"):
        hint(patience.new("leopard", deal=1))
    game = patience.new("klondike", deal=1)
    with pytest.raises(ValueError, match="budget"):
        hint(game, seconds=None, nodes=None)
    with pytest.raises(ValueError, match="sample"):
        hint(game, samples=0)


def test_the_clock_bounds_a_hint() -> None:
    game = patience.new("spider", deal=1)
    answer = hint(game, samples=4, seconds=0.5)
    assert answer.seconds < 1.5
    assert answer.samples <= 4
    assert answer.move is None or answer.move in game.legal_moves()


# -- the interfaces ------------------------------------------------------------------------------


def test_the_web_json_has_exactly_the_promised_keys(tmp_path: Path) -> None:
    keys = {"move", "move_json", "chance", "low", "high", "samples", "exact", "reason"}
    assert set(hint_json(open_endgame())) == keys
    move = hint_json(open_endgame())
    assert Move.from_json(move["move_json"]).text() == move["move"]
    with TestClient(create_app(tmp_path / "db.sqlite3", hinter=hint_json)) as client:
        response = client.post("/api/tables", json={"game": "klondike", "deal": 3, "options": {}})
        assert response.status_code == 201, response.text
        table = response.json()["table"]
        response = client.get(f"/api/tables/{table}/hint")
    assert response.status_code == 200, response.text
    data = response.json()
    assert set(data) == keys
    assert data["low"] <= data["chance"] <= data["high"]
    assert 0.0 <= data["chance"] <= 1.0
    assert isinstance(data["exact"], bool)
    assert data["move"] is None or patience.new("klondike", deal=3).is_legal(data["move"])


def test_hint_in_the_terminal() -> None:
    output = io.StringIO()
    lines = iter(["hint", "quit"])
    session = PlaySession(
        open_endgame(), Console(file=output, width=100), read_line=lambda: next(lines)
    )
    session.run()
    assert "the solver found a win from here" in output.getvalue()


class _Verdict:
    """A stand-in for a solver's answer: its result, why and moves (none unless a test sets
    them) are read."""

    def __init__(self, result: str, why: str = "") -> None:
        self.result = result
        self.why = why
        self.moves: list[Move] = []


def fake_solver(bias: int) -> Any:
    """A stand-in for ``solve_state``: a world after a stock turn (a card in the waste, or one
    fewer in the stock and talon: a stock turn is judged with the play of the card it brings)
    is won when a hash of it falls below ``bias`` in 100, any other world when it falls below
    100 - ``bias``; some are undecided. Deterministic, so that the race and the full evaluation
    see the same verdicts."""
    stock = len(LAYOUT) - 16  # layout_game()'s stock

    def solve_state(rules: Any, state: Any, **budget: Any) -> _Verdict:
        text = json.dumps(rules.position_json(state, None), sort_keys=True)
        roll = int(hashlib.sha256(text.encode()).hexdigest(), 16) % 100
        turned = state.piles["waste"] or len(state.piles["stock"]) < stock
        threshold = bias if turned else 100 - bias
        if roll < threshold:
            return _Verdict("won")
        return _Verdict("unwinnable" if roll % 3 else "timeout")

    return solve_state


@pytest.mark.parametrize("bias", [0, 20, 45, 50])
def test_the_race_never_changes_the_hint(monkeypatch: pytest.MonkeyPatch, bias: int) -> None:
    """Dropping a move once it cannot be among the best gives the same move, chance and counts
    as judging every move in every world, with fewer searches when one move is far behind."""
    calls = Counter[str]()
    solver = fake_solver(bias)

    def counted(*args: Any, **budget: Any) -> _Verdict:
        calls["searches"] += 1
        return solver(*args, **budget)  # type: ignore[no-any-return]

    monkeypatch.setattr(patience.solve, "solve_state", counted)
    game = layout_game()
    assert {move.text() for move in game.legal_moves()} >= {"stock", "t2-t5"}
    answers = {}
    searches = {}
    for race in (True, False):
        calls.clear()
        answers[race] = hint(game, samples=16, seconds=None, nodes=100, seed=bias, race=race)
        searches[race] = calls["searches"]
    raced, full = answers[True], answers[False]
    assert (raced.move, raced.chance, raced.wins, raced.lost, raced.unknown, raced.samples) == (
        full.move,
        full.chance,
        full.wins,
        full.lost,
        full.unknown,
        full.samples,
    )
    assert raced.votes[str(raced.move)] == full.votes[str(full.move)]
    if bias == 0:  # the stock turn loses every world: the race stops judging it
        assert full.move is not None
        assert full.move.text() != "stock"
        assert searches[True] < searches[False]
    else:
        assert searches[True] <= searches[False]


@pytest.mark.parametrize("deepen", [1, 4])
def test_close_calls_are_searched_again_deeper(
    monkeypatch: pytest.MonkeyPatch, deepen: int
) -> None:
    """A stand-in solver that decides nothing in 100 nodes and, with more, wins every world
    after a stock turn and loses every other: without deepening every move ties and progress
    picks a play; deepened, the close calls' undecided worlds are searched again at ``deepen``
    times the nodes, and the turn wins them. A move never close is not searched again."""
    stock = len(LAYOUT) - 16
    budgets = Counter[int]()

    def solver(rules: Any, state: Any, **budget: Any) -> _Verdict:
        budgets[budget["nodes"]] += 1
        if budget["nodes"] <= 100:
            return _Verdict("timeout")
        turned = state.piles["waste"] or len(state.piles["stock"]) < stock
        return _Verdict("won" if turned else "unwinnable")

    monkeypatch.setattr(patience.solve, "solve_state", solver)
    game = layout_game()
    answer = hint(game, samples=8, seconds=None, nodes=100, deepen=deepen)
    assert answer.move is not None
    if deepen == 1:
        assert set(budgets) == {100}
        assert answer.move.text() != "stock"
        assert (answer.wins, answer.unknown) == (0, answer.samples)
    else:
        assert set(budgets) == {100, 400}
        assert answer.move.text() == "stock"
        assert (answer.wins, answer.unknown) == (answer.samples, 0)
        assert all(votes == 0 for move, votes in answer.votes.items() if move != "stock")


def test_only_the_close_calls_are_deepened(monkeypatch: pytest.MonkeyPatch) -> None:
    """One move wins every world at the first budget; the others, undecided, are not within
    the margin of it and are not searched again."""
    stock = len(LAYOUT) - 16
    budgets = Counter[int]()

    def solver(rules: Any, state: Any, **budget: Any) -> _Verdict:
        budgets[budget["nodes"]] += 1
        turned = state.piles["waste"] or len(state.piles["stock"]) < stock
        return _Verdict("won" if turned else "timeout")

    monkeypatch.setattr(patience.solve, "solve_state", solver)
    answer = hint(layout_game(), samples=8, seconds=None, nodes=100, deepen=4)
    assert answer.move is not None
    assert answer.move.text() == "stock"
    assert set(budgets) == {100}
    with pytest.raises(ValueError, match="deepen"):
        hint(layout_game(), samples=8, seconds=None, nodes=100, deepen=0)


def test_a_world_whose_lines_all_recreate_its_past_counts_as_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search whose every line kept would recreate a position of the world's past answers
    unknown (no proof: docs/solving.md, "History"); the hint counts the world as lost after the
    move, not as undecided."""
    game = patience.new("klondike", deal=1, draw=3)
    game.push("stock")

    def solver(rules: Any, state: Any, **budget: Any) -> _Verdict:
        return _Verdict("unknown", HISTORY_ONLY)

    monkeypatch.setattr(patience.solve, "solve_state", solver)
    answer = hint(game, samples=4, seconds=None, nodes=100, race=False)
    assert answer.samples == 4
    assert (answer.wins, answer.lost, answer.unknown) == (0, 4, 0)


def test_racing_keeps_every_move_that_could_still_be_chosen() -> None:
    a, b, c = Move.parse("t1-t2"), Move.parse("t3-t4"), Move.parse("stock")
    tallies = {a: _Tally(won=9), b: _Tally(won=5), c: _Tally(won=4, lost=2)}
    # With two worlds left a's score ends at 7 or more, whose floor is 7 - 0.66: b (5) reaches
    # it by winning both, c (score 2) cannot.
    assert _racing([a, b, c], tallies, 2) == [a, b]
    assert _racing([a, b, c], tallies, 4) == [a, b, c]
    assert _racing([a, b, c], tallies, 0) == [a]
    # Proved losses count against a move: b at 5 won and 2 lost falls behind.
    tallies[b] = _Tally(won=5, lost=2)
    assert _racing([a, b, c], tallies, 2) == [a]


def test_a_turn_that_brings_nothing_playable_counts_against_the_turn() -> None:
    # Canfield deal 1010 (policy 6): the stock turn had no playable card within reach in 4 of
    # 16 worlds and was lost in the other 12; the waste play, won in 1 and lost in 15, was the
    # only move that kept the deal. Counted as nothing, the 4 worlds made the turn the better.
    turn = _Tally(lost=12, missing=4)
    waste_play = _Tally(won=1, lost=15)
    assert turn.score() < waste_play.score()
    assert _Tally(won=3, missing=2).score() == _Tally(won=3, lost=2).score() == 1


def undo_game() -> Game:
    """Every card face up but the stock: the nine of hearts on the ten of clubs in t1, the ten
    of spades alone in t2, clubs and spades built to nine, hearts to eight."""
    stock = ["Jc", "Qc", "Kc", "Th", "Jh", "Qh", "Kh", "Js", "Qs", "Ks"]
    return klondike([([], ["Tc", "9h"]), ([], ["Ts"])], stock, [9, 13, 8, 9])


def test_a_move_taking_cards_back_is_known_as_an_undo() -> None:
    game = undo_game()
    back = Move.parse("t2-t1")
    assert _undoing(game, game.legal_moves()) == frozenset()
    game.push("t1-t2")
    assert back not in game.legal_moves()  # it would repeat the first position
    assert _undoing(game, [back]) == {back}
    game.push("stock")  # the tableau is untouched: the move back is legal, and an undo
    assert back in game.legal_moves()
    assert _undoing(game, game.legal_moves()) == {back}
    assert _undoing(game, [Move.parse("t2-t1:2")]) == frozenset()  # not the same cards
    game.push("t1-f1")  # the ten of clubs goes home: t1 changed since, not an undo
    assert _undoing(game, [back]) == frozenset()


def test_equally_good_moves_do_not_take_cards_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The nine of hearts has moved from the ten of clubs onto the ten of spades, and the stock
    turned; every world is won whatever is played (a stand-in solver says so) and moving the
    nine back makes as much progress as a stock turn and comes first in the game's order: the
    hint still does not take it back."""
    monkeypatch.setattr(patience.solve, "solve_state", lambda *args, **budget: _Verdict("won"))
    stock = ["9c", "Jc", "Qc", "Kc", "8h", "Th", "Qh", "Kh", "Js", "Qs", "Ks", "Jh"]
    game = klondike([([], ["Tc", "9h"]), ([], ["Ts"])], stock, [8, 13, 7, 9])
    game.push("t1-t2")
    game.push("stock")
    back = Move.parse("t2-t1")
    assert game.legal_moves()[0] == back
    progress = _progress(game.rules, game.state, game.legal_moves())
    assert progress[back] == max(progress.values())
    answer = hint(game, **QUICK)
    assert answer.chance == 1.0
    assert answer.votes[back.text()] == answer.samples  # judged as good as any
    assert answer.move is not None
    assert answer.move != back


def test_with_every_world_won_the_shortest_wins_come_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every world is won after every move (a stand-in solver whose wins are longer the more
    cards lie in t2, and longer still for t3), and the nine of hearts and the nine of diamonds
    can each go onto the ten of spades, making the same progress: the move with the shorter
    wins is chosen, not the first of the two, once the worlds judged are every way the hidden
    cards can lie (two cards left in the stock); with the eighteen cards of the stock hidden,
    the lengths of wins are not looked at."""

    def solve_state(rules: Any, state: Any, **budget: Any) -> _Verdict:
        verdict = _Verdict("won")
        verdict.moves = [Move.parse("stock")] * (
            len(state.piles["t2"]) + 5 * len(state.piles["t3"])
        )
        return verdict

    monkeypatch.setattr(patience.solve, "solve_state", solve_state)
    stock = [
        *["Tc", "Jc", "Qc", "Kc", "8d", "Td", "Jd", "Qd", "Kd"],
        *["8h", "Th", "Jh", "Qh", "Kh", "9s", "Js", "Qs", "Ks"],
    ]
    game = klondike([([], ["Ts"]), ([], ["9h"]), ([], ["9d"])], stock, [9, 7, 7, 8])
    hearts, diamonds = Move.parse("t2-t1"), Move.parse("t3-t1")
    legal = game.legal_moves()
    assert legal.index(hearts) < legal.index(diamonds)
    assert game.rules.hidden_arrangements(game.view()) > QUICK["samples"]
    answer = hint(game, **QUICK)
    assert answer.chance == 1.0
    assert answer.votes[hearts.text()] == answer.votes[diamonds.text()] == answer.samples
    assert answer.move == hearts
    # The stock turned over onto the waste but for its last two cards: two ways to lie.
    position = game.position()
    position["piles"]["waste"]["up"] = stock[:-2]
    position["piles"]["stock"]["down"] = stock[-2:]
    game = Game.from_position(position)
    assert game.rules.hidden_arrangements(game.view()) == 2
    answer = hint(game, **QUICK)
    assert answer.chance == 1.0
    assert answer.votes[hearts.text()] == answer.votes[diamonds.text()] == answer.samples
    assert answer.move == diamonds


#: A one-suit Spider position: six suits home, every pile face up and built on by nothing yet,
#: fourteen cards in the stock (hidden). Its legal plays: t1-t2 moves the five of spades
#: from one six to the other (it builds nothing); t3-t4 (the nine onto the ten), t4-t7 and
#: t4-t8 (the ten onto a jack, emptying t4), t7-t9 and t8-t9 (a jack onto the queen) and
#: t9-t5 and t9-t6 (the queen onto a king) build; the stock deals a row onto every pile.
SPIDER_TABLEAU = ["6s 5s", "6s", "2s 9s", "Ts", "Ks", "Ks", "Js", "Js", "Qs", "3s"]
SPIDER_STOCK = "As As 2s 3s 4s 4s 5s 7s 7s 8s 8s 9s Ts Qs"


def spider_game() -> Game:
    run = ["Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s", "As"]
    piles: dict[str, dict[str, list[str]]] = {"stock": {"down": SPIDER_STOCK.split(), "up": []}}
    for index in range(8):
        piles[f"f{index + 1}"] = {"down": [], "up": list(run) if index < 6 else []}
    for index, text in enumerate(SPIDER_TABLEAU):
        piles[f"t{index + 1}"] = {"down": [], "up": text.split()}
    data = {"version": 1, "game": "spider", "options": {"suits": 1}, "deal": None}
    return Game.from_position({**data, "piles": piles})


def test_spider_ties_go_to_building_then_to_other_plays_then_to_the_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted as progress (fewer cards in the stock), a deal dealt Spider's whole stock at the
    first ties; before the plays that only move cards around, it still dealt the stock while
    most cards lay face down (one-suit deal 1001). Among equally good moves a play that builds
    comes first, then a play that moves cards around, then the deal (the walks that order once
    made end with STUCK_AFTER)."""
    game = spider_game()
    legal = {move.text(): move for move in game.legal_moves()}
    progress = _progress(game.rules, game.state, list(legal.values()))
    builds = ["t3-t4", "t4-t7", "t4-t8", "t7-t9", "t8-t9", "t9-t5", "t9-t6"]
    assert set(legal) == {"t1-t2", "stock", *builds}
    assert all(progress[legal[move]] > progress[legal["t1-t2"]] for move in builds)
    assert progress[legal["t1-t2"]] > progress[legal["stock"]]
    # Every world won after every move: a play that builds.
    monkeypatch.setattr(patience.solve, "solve_state", lambda *args, **budget: _Verdict("won"))
    answer = hint(game, **QUICK)
    assert answer.move is not None
    assert answer.move.text() in builds

    def sooner_after_the_deal(rules: Any, state: Any, **budget: Any) -> _Verdict:
        # A world that knows its stock wins sooner once it is dealt: still, a play that builds.
        verdict = _Verdict("won")
        verdict.moves = [Move.parse("stock")] * (1 + 20 * len(state.piles["stock"]))
        return verdict

    monkeypatch.setattr(patience.solve, "solve_state", sooner_after_the_deal)
    answer = hint(game, **QUICK)
    assert answer.move is not None
    assert answer.move.text() in builds

    def no_build_wins(rules: Any, state: Any, **budget: Any) -> _Verdict:
        # Each build empties a pile or leaves t3 with one card; the deal and t1-t2 do neither.
        tableau = [state.piles[f"t{index}"] for index in range(1, 11)]
        kept = all(tableau) and len(state.piles["t3"]) != 1
        return _Verdict("won" if kept else "unwinnable")

    monkeypatch.setattr(patience.solve, "solve_state", no_build_wins)
    answer = hint(game, **QUICK)
    assert answer.move is not None
    assert answer.move.text() == "t1-t2"
    assert answer.votes["t1-t2"] == answer.votes["stock"] == answer.samples

    def only_the_deal_wins(rules: Any, state: Any, **budget: Any) -> _Verdict:
        # As above, and t1-t2, which leaves t1 with one card, loses too.
        tableau = [state.piles[f"t{index}"] for index in range(1, 11)]
        kept = all(tableau) and len(state.piles["t3"]) != 1 and len(state.piles["t1"]) != 1
        return _Verdict("won" if kept else "unwinnable")

    monkeypatch.setattr(patience.solve, "solve_state", only_the_deal_wins)
    answer = hint(game, **QUICK)
    assert answer.move is not None
    assert answer.move.text() == "stock"


def test_a_spider_play_is_searched_again_with_the_stock_dealt_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A world knows its stock, so its short search wins after the deal and runs out of nodes
    after a play: judged so, the deal won every vote and one-suit Spider's hints dealt the whole
    stock by move 50. A play whose search is undecided is searched again with the stock dealt
    first; won that way, it is won (by that line), and the building order puts it first. A
    play after which the deal is not allowed (it empties a pile) stays undecided."""
    game = spider_game()
    searched: list[int] = []

    def won_once_dealt(rules: Any, state: Any, **budget: Any) -> _Verdict:
        searched.append(len(state.piles["stock"]))
        return _Verdict("won" if len(state.piles["stock"]) < 14 else "unknown")

    monkeypatch.setattr(patience.solve, "solve_state", won_once_dealt)
    answer = hint(game, **QUICK)
    assert answer.move is not None
    assert answer.move.text() in ["t3-t4", "t7-t9", "t8-t9", "t9-t5", "t9-t6"]
    assert answer.votes[answer.move.text()] == answer.votes["stock"] == answer.samples
    # The plays that empty t4 leave no deal to search: undecided in every world.
    assert answer.votes["t4-t7"] == answer.votes["t4-t8"] == 0
    assert 4 in searched
    assert 14 in searched


def test_moves_without_progress_are_counted_back_to_the_last_progress() -> None:
    game = spider_game()
    assert _moves_without_progress(game) == 0
    game.push(Move.parse("t1-t2"))  # the five from one six to the other: nothing gained
    game.push(Move.parse("t3-t4"))  # a build, but no card home, turned up or dealt
    assert _moves_without_progress(game) == 2
    game.push(Move.parse("stock"))  # a row dealt: fewer cards in the stock
    assert _moves_without_progress(game) == 0


def test_stuck_spider_ties_go_to_the_shortest_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every world won after every move, and a world wins sooner after the deal: the building
    order chooses a build; after STUCK_AFTER moves without progress (the policy walked one-suit
    Spider's deal 1003 to the move limit that way) the shortest wins decide: the deal."""

    def sooner_after_the_deal(rules: Any, state: Any, **budget: Any) -> _Verdict:
        verdict = _Verdict("won")
        verdict.moves = [Move.parse("stock")] * (1 + 20 * len(state.piles["stock"]))
        return verdict

    monkeypatch.setattr(patience.solve, "solve_state", sooner_after_the_deal)
    game = spider_game()
    answer = hint(game, **QUICK)
    assert answer.move is not None
    assert answer.move.text() != "stock"
    hint_module = importlib.import_module("patience.solve.hint")
    monkeypatch.setattr(hint_module, "_moves_without_progress", lambda game: STUCK_AFTER)
    answer = hint(game, **QUICK)
    assert answer.move is not None
    assert answer.move.text() == "stock"
    assert answer.chance == 1.0


def test_the_web_app_asks_each_game_for_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """One-suit Spider's hints take fewer worlds (its opening judges ten moves), Klondike's
    more worlds of fewer nodes, Canfield's more worlds; the others the defaults."""
    monkeypatch.setattr(patience.solve, "solve_state", lambda *args, **budget: _Verdict("won"))
    spider = patience.new("spider", deal=1, suits=1)
    assert GAME_BUDGETS["spider"] == (4, 10_000)
    assert hint_budget("spider") == {"samples": 4, "nodes": 10_000}
    assert hint_json(spider)["samples"] == 4
    assert hint_budget("klondike") == {"samples": 32, "nodes": 5_000}
    assert hint_json(patience.new("klondike", deal=1))["samples"] == 32
    assert hint_budget("canfield") == {"samples": 32, "nodes": 10_000}
    assert hint_json(patience.new("canfield", deal=1))["samples"] == 32
    assert hint_budget("napoleon")["samples"] == DEFAULT_SAMPLES
    assert hint_json(patience.new("napoleon", deal=1))["samples"] == DEFAULT_SAMPLES
