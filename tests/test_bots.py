"""Bots: legal, reproducible from their seed, blind to hidden cards; matches, arenas, the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import patience
from patience import Game, Move, record
from patience.bots import BOTS, BotError, get
from patience.bots.match import Interval, deal_scores, make_bots, play_game, run_arena
from patience.cards import Card
from patience.cli import main

SMALL = {"ismcts": {"iterations": 25}}


def bot(name: str, seed: str) -> patience.bots.Bot:
    return get(name, seed=seed, **SMALL.get(name, {}))


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_choose_legal_moves_reproducibly(name: str) -> None:
    game = patience.new("leopard", deal=4, deals=1)
    rng = random.Random(4)
    for _ in range(6):
        game.push(rng.choice(game.legal_moves()))
    view = game.view(game.current_player())
    first = bot(name, "s").choose(view)
    assert game.is_legal(first)
    assert bot(name, "s").choose(view) == first


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_do_not_see_hidden_cards(name: str) -> None:
    """Another world with the same view (other hands, other stock) gets the same move."""
    game = patience.new("leopard", deal=9, deals=1)
    seat = game.current_player()
    view = game.view(seat)
    world = game.rules.sample_state(view, random.Random(99))
    other = Game.create(game.rules, state=world)
    other_view = other.view(seat)
    assert other_view == view
    assert other.state.hands[1] != game.state.hands[1]
    assert bot(name, "x").choose(view) == bot(name, "x").choose(other_view)


def test_unknown_bot() -> None:
    with pytest.raises(BotError, match="unknown bot 'nobody'"):
        get("nobody")
    with pytest.raises(BotError, match="bad parameter"):
        get("random", depth=3)


def test_a_match_replays_from_its_record_to_the_same_scores() -> None:
    game = patience.new("leopard", deal=21, deals=2)
    scores: list[list[int]] = []
    play_game(
        game,
        make_bots(["greedy", "random"], seed=5),
        lambda g, seat, move, forced: scores.extend(deal_scores(forced)),
    )
    assert len(scores) >= 2
    outcome = game.outcome()
    assert outcome.scores == tuple(map(sum, zip(*scores, strict=True)))
    again = record.loads(record.dumps(game, players=["greedy", "random"], seed=5))
    assert again.outcome() == outcome
    # And the same seed plays the same match again.
    twin = play_game(patience.new("leopard", deal=21, deals=2), make_bots(["greedy", "random"], 5))
    assert twin.move_stack == game.move_stack


def test_four_players_and_three_players_play_to_the_end() -> None:
    for players in (3, 4):
        game = patience.new("leopard", deal=2, players=players, deals=1)
        play_game(game, make_bots(["greedy", "random", "greedy", "random"][:players], 1))
        assert game.is_over()


def test_arena_pairs_swap_seats_and_greedy_beats_random() -> None:
    result = run_arena("leopard", {"deals": 1}, ("greedy", "random"), pairs=3)
    assert [g["seats"] for g in result.games[:2]] == [["greedy", "random"], ["random", "greedy"]]
    assert result.games[0]["deal"] == result.games[1]["deal"]
    assert result.win_rate[0].mean > 0.5
    assert result.margin[0].mean == -result.margin[1].mean


def test_interval() -> None:
    interval = Interval.of([1.0, 0.0, 1.0, 0.0])
    assert interval.mean == 0.5
    assert interval.low < 0.5 < interval.high
    assert Interval.of([2.0]).low == float("-inf")


def test_cli_match_writes_a_record_that_replays(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "m.rec"
    args = ["match", "leopard", "--seats", "greedy,random", "-o", "deals=2", "--deal", "8"]
    result = runner.invoke(main, [*args, "--seed", "3", "--json", "--record", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seats"] == ["greedy", "random"]
    assert [sum(c) for c in zip(*data["deals"], strict=True)] == data["outcome"]["scores"]
    replayed = runner.invoke(main, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["outcome"] == data["outcome"]
    text = runner.invoke(main, [*args, "--seed", "3"])
    assert "deal 1:" in text.output
    assert "Won" in text.output


def test_cli_match_says_when_the_record_cannot_be_written(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "m.rec"
    args = ["match", "leopard", "--seats", "random,random", "-o", "deals=1", "--deal", "8"]
    result = CliRunner().invoke(main, [*args, "--record", str(path)])
    assert result.exit_code == 1
    assert f"cannot write {path}" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_match_refuses_bad_seats() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["match", "leopard", "--seats", "greedy,nobody"])
    assert result.exit_code == 2
    assert "unknown seat 'nobody'" in result.output
    result = runner.invoke(main, ["match", "leopard", "--seats", "greedy"])
    assert result.exit_code == 2
    assert "2 seats but 1 were given" in result.output


def test_cli_arena_json() -> None:
    runner = CliRunner()
    args = ["arena", "leopard", "--seats", "greedy,random", "--pairs", "2", "--json"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [b["name"] for b in data["bots"]] == ["greedy", "random"]
    assert len(data["games"]) == 4
    table = runner.invoke(main, ["arena", "leopard", "--seats", "greedy,random", "--pairs", "1"])
    assert "win rate" in table.output


def test_cli_arena_takes_bots_with_parameters() -> None:
    runner = CliRunner()
    seats = "ismcts:iterations=30;rollout_depth=off,greedy"
    args = ["arena", "leopard", "--seats", seats, "--pairs", "1", "--json"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [b["name"] for b in data["bots"]] == ["ismcts:iterations=30;rollout_depth=off", "greedy"]
    bad = runner.invoke(main, ["arena", "leopard", "--seats", "ismcts:depth=3,greedy"])
    assert bad.exit_code != 0
    assert "depth" in bad.output


def test_a_playout_policy_the_game_does_not_have_is_refused() -> None:
    from patience.bots.ismcts import IsmctsBot

    leopard = patience.new("leopard", deal=2, deals=1)
    view = leopard.view(leopard.current_player())
    for policy in ("greedy", "policy"):
        assert leopard.is_legal(IsmctsBot(seed=1, iterations=40, playout=policy).choose(view))
    with pytest.raises(BotError, match=r"no playout policy 'best' \(it has greedy, policy\)"):
        IsmctsBot(seed=1, iterations=40, playout="best").choose(view)
    solitaire = patience.new("double-solitaire", deal=1)
    with pytest.raises(BotError, match="none but its default"):
        IsmctsBot(seed=1, iterations=40, playout="greedy").choose(solitaire.view(0))


def test_ismcts_engines() -> None:
    """Leopard's and Double Solitaire's searches run in the core unless told otherwise; both
    engines play from the view; a wrong engine, or a kept tree in the core, is refused."""
    from patience.bots.ismcts import IsmctsBot

    game = patience.new("leopard", deal=2, deals=1)
    view = game.view(game.current_player())
    for engine in ("auto", "core", "python"):
        bot = IsmctsBot(seed=1, iterations=60, engine=engine)
        assert game.is_legal(bot.choose(view))
        assert 0 < bot.last_iterations <= 60
    with pytest.raises(BotError, match="engine"):
        IsmctsBot(engine="gpu")
    with pytest.raises(BotError, match="keep_tree"):
        IsmctsBot(engine="core", keep_tree=True)
    with pytest.raises(BotError, match="does not search"):
        IsmctsBot(engine="core", iterations=5).choose(patience.new("klondike", deal=1).view(0))
    # Double Solitaire searches in the core too (tests/test_core_double_solitaire.py).
    solitaire = patience.new("double-solitaire", deal=1)
    bot = IsmctsBot(seed=1, iterations=60, engine="core")
    assert solitaire.is_legal(bot.choose(solitaire.view(solitaire.current_player())))
    assert 0 < bot.last_iterations <= 60


def test_cli_arena_for_a_game_without_deals() -> None:
    """Double Solitaire has no deals option: the arena must not pass deals=1 to it."""
    runner = CliRunner()
    args = ["arena", "double-solitaire", "--seats", "greedy,random", "--pairs", "2", "--json"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert "deals" not in data["options"]
    assert len(data["games"]) == 4
    leopard = runner.invoke(main, ["arena", "leopard", "--seats", "greedy,random", "--pairs", "1"])
    assert leopard.exit_code == 0, leopard.output


def test_table_does_not_name_a_card_laid_face_down() -> None:
    from patience.cli.bots import _announced

    game = patience.new("leopard", deal=5, deals=1)  # seat 0 holds Jh and plays first
    game.push("play(card=Jh,square=0,position=5)")
    assert _announced(game, game.move_stack[-1], mover=0, viewer=1) == "play (face down)"
    assert (
        _announced(game, game.move_stack[-1], mover=0, viewer=0)
        == "play(card=Jh,square=0,position=5)"
    )
    assert len(game.move_stack) == 1  # the game is left as it was
    seat = game.current_player()
    discard = next(m for m in game.legal_moves() if m.action == "discard")
    game.push(discard)
    assert _announced(game, discard, mover=seat, viewer=1 - seat) == discard.text()


def test_win_rate_interval_is_wilsons_and_meaningful_at_the_extremes() -> None:
    from patience.bots.match import Interval

    every = Interval.wilson(20, 20)
    assert every.mean == 1.0
    assert abs(every.low - 0.8389) < 1e-3
    assert every.high == 1.0
    half = Interval.wilson(10, 20)
    assert abs(half.low - 0.2993) < 1e-3
    assert abs(half.high - 0.7007) < 1e-3


def test_arena_for_three_players_puts_each_bot_in_each_seat() -> None:
    result = run_arena("leopard", {"players": 3, "deals": 1}, ("greedy", "random"), pairs=1)
    assert [g["seats"] for g in result.games] == [
        ["greedy", "random", "random"],
        ["random", "greedy", "random"],
        ["random", "random", "greedy"],
    ]
    assert {g["deal"] for g in result.games} == {0}
    assert result.win_rate[0].mean + result.win_rate[1].mean == pytest.approx(1.0)
    for game in result.games:
        a_side = game["seats"].index("greedy")
        rivals = [s for side, s in enumerate(game["scores"]) if side != a_side]
        assert game["a_margin"] == game["scores"][a_side] - max(rivals)
    runner = CliRunner()
    args = ["arena", "leopard", "-o", "players=3", "--seats", "greedy,random", "--pairs", "1"]
    table = runner.invoke(main, [*args, "--json"])
    assert table.exit_code == 0, table.output
    assert len(json.loads(table.output)["games"]) == 3


def test_arena_in_two_processes_gives_what_one_gives() -> None:
    args = ("leopard", {"deals": 1}, ("greedy", "random"))
    one = run_arena(*args, pairs=2, first_deal=5)
    two = run_arena(*args, pairs=2, first_deal=5, jobs=2)

    def without_cpu(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{key: value for key, value in g.items() if key != "cpu"} for g in games]

    assert without_cpu(one.games) == without_cpu(two.games)
    assert all(g["cpu"]["greedy"][1] > 0 for g in one.games)


def _leopard_worlds() -> tuple[Any, Any, Any, int]:
    """Two worlds of one view of seat 0 in which seat 1 holds a different jack (Jh, Jd)."""
    game = patience.new("leopard", deal=4, deals=1)
    rules = game.rules
    view = game.view(0)
    first = rules.sample_state(view, random.Random(1))
    second = first.copy()
    first.hands[1][0] = Card.parse("Jh").face
    second.hands[1][0] = Card.parse("Jd").face
    return rules, first, second, view["hands"][0][0]


def test_ismcts_nodes_are_the_searching_seats_information_sets() -> None:
    """A node is what the searching seat knows: worlds that differ in what it cannot see share
    one (a rival's jack laid face down, whichever jack it was), its own different draws do not."""
    from patience.bots.ismcts import IsmctsBot

    rules, first, second, card = _leopard_worlds()
    bot = IsmctsBot(seed=1)
    assert bot.node_key(rules, first, 0) == bot.node_key(rules, second, 0)
    discard = rules.move_to_action(first, Move.parse(f"discard(card={card})"))
    worlds = []
    for world, jack in ((first, "Jh"), (second, "Jd")):
        world = rules.apply_action(world, discard)
        jack_down = Move.parse(f"play(card={jack},square=0,position=5)")
        worlds.append(rules.apply_action(world, rules.move_to_action(world, jack_down)))
    # Two different action paths (Jh or Jd laid face down), one information set of seat 0.
    assert bot.node_key(rules, worlds[0], 0) == bot.node_key(rules, worlds[1], 0)
    assert bot.node_key(rules, worlds[0], 1) != bot.node_key(rules, worlds[1], 1)
    # Another card drawn by seat 0: another node.
    other = first.copy()
    other.stock[-2], other.stock[0] = other.stock[0], other.stock[-2]
    other = rules.apply_action(other, discard)
    other = rules.apply_action(
        other, rules.move_to_action(other, Move.parse("play(card=Jh,square=0,position=5)"))
    )
    assert other.hands[0] != worlds[0].hands[0]
    assert bot.node_key(rules, other, 0) != bot.node_key(rules, worlds[0], 0)


def test_ismcts_search_splits_its_own_later_choices_by_draw() -> None:
    from patience.bots.ismcts import IsmctsBot

    game = patience.new("leopard", deal=4, deals=1)
    view = game.view(0)
    bot = IsmctsBot(seed=3, iterations=400, keep_tree=True)
    bot.choose(view)
    rules = game.rules
    root_key = bot.node_key(rules, game.state, 0)
    assert root_key in bot.last_tree
    later = [
        key
        for key in bot.last_tree
        if key[0] == 0 and key[1][8] == view["stock"] - 2  # seat 0 again, two draws later
    ]
    hands = {key[1][10] for key in later}
    assert len(hands) > 1  # one node per draw of its own, not one for every draw


def test_ismcts_tells_near_equal_moves_apart_by_the_evaluation() -> None:
    """``near_equal``: the most visited move gives way to a move the search cannot tell from it
    (mean reward within the standard errors, visited a quarter as often or more) that the
    one-ply evaluation likes clearly better; not to a clearly worse mean, a rarely visited move
    or a move the evaluation likes about as well; off by default. (The root statistics are
    those of a Leopard search that raised a rival's square: deal 2, 20,000 iterations.)"""
    from patience.bots.ismcts import IsmctsBot, _Edge, _Node

    raise_ = Move.act("play", card="7s", square=1, position=7)
    king = Move.act("play", card="Kc", square=0, position=9)
    discard = Move.act("discard", card="7s")
    rare = Move.act("play", card="2d", square=0, position=2)

    def root(*edges: tuple[Move, int, float, float]) -> _Node:
        node = _Node(0)
        for move, visits, mean, bias in edges:
            node.edges[move] = edge = _Edge(bias, 0.0)
            edge.visits, edge.total = visits, mean * visits
        return node

    moves = [raise_, king, discard, rare]
    searched = root(
        (raise_, 6078, 0.5459, -0.161),
        (king, 4955, 0.5427, -0.083),
        (discard, 2990, 0.5333, -0.130),
        (rare, 1000, 0.5459, 0.2),
    )
    assert IsmctsBot().final_choice(searched, moves, 0.0) == raise_  # off by default
    assert IsmctsBot(near_equal=2).final_choice(searched, moves, 0.0) == king
    # A clearly lower mean (many standard errors) is a reason the search shows.
    worse = root((raise_, 6078, 0.5459, -0.161), (king, 4955, 0.48, -0.083))
    assert IsmctsBot(near_equal=2).final_choice(worse, moves, 0.0) == raise_
    # An evaluation about as good (less than NEAR_BIAS better) is no reason to give way.
    alike = root((raise_, 6078, 0.5459, -0.161), (king, 4955, 0.5427, -0.13))
    assert IsmctsBot(near_equal=2).final_choice(alike, moves, 0.0) == raise_
    # A move visited less than a quarter as often has no mean to trust.
    rarely = root((raise_, 6078, 0.5459, -0.161), (rare, 1000, 0.5459, 0.2))
    assert IsmctsBot(near_equal=2).final_choice(rarely, moves, 0.0) == raise_
    with pytest.raises(BotError, match="near_equal"):
        IsmctsBot(near_equal=-1)
    # A smaller near_bias gives way to a smaller difference of evaluation.
    assert IsmctsBot(near_equal=2, near_bias=0.02).final_choice(alike, moves, 0.0) == king
    with pytest.raises(BotError, match="near_bias"):
        IsmctsBot(near_bias=0)


def test_ismcts_takes_the_games_search_defaults_unless_given() -> None:
    """``near_equal``, ``near_bias`` and ``costs`` not given are the game's
    (``Rules.search_defaults``), else 0, NEAR_BIAS and 1; given, they are the bot's."""
    from patience.bots.ismcts import NEAR_BIAS, IsmctsBot

    leopard = patience.get_rules("leopard", {})
    double = patience.get_rules("double-solitaire", {})
    assert IsmctsBot().tuning(leopard) == (0.0, NEAR_BIAS, 1.0)
    game = double.search_defaults
    assert IsmctsBot().tuning(double) == (
        float(game.get("near_equal", 0.0)),
        float(game.get("near_bias", NEAR_BIAS)),
        float(game.get("costs", 1.0)),
    )
    assert IsmctsBot(near_equal=3, near_bias=0.1, costs=0.25).tuning(double) == (3.0, 0.1, 0.25)
    with pytest.raises(BotError, match="costs"):
        IsmctsBot(costs=-1)


def test_ismcts_in_python_weighs_the_move_costs_by_costs() -> None:
    """The Python loop charges each move ``costs`` times the game's ``move_cost``."""
    from patience.bots.ismcts import IsmctsBot

    game = patience.new("double-solitaire", deal=1)  # the first player can shuffle
    rules = game.rules
    seat = game.current_player()
    bot = IsmctsBot(seed=0, iterations=200, engine="python", keep_tree=True, costs=0.5)
    bot.choose(game.view(seat))
    root = bot.last_tree[bot.node_key(rules, game.state, seat)]
    charged = [rules.move_cost(game.state, move) for move in root.edges]
    assert any(charged)
    assert [edge.cost for edge in root.edges.values()] == [0.5 * cost for cost in charged]
