"""patience ladder: a rated round robin of bots on paired deals (patience.ladder)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from patience.bots.base import BotError
from patience.cli import main
from patience.ladder import parse_bot, run_ladder

pytest.importorskip("openskill", reason="the ladder's ratings are the extra patience[ladder]")


def test_every_bot_plays_every_seat_of_each_deal_and_is_rated() -> None:
    specs = [parse_bot("random"), parse_bot("greedy"), parse_bot("ismcts:iterations=20")]
    result = run_ladder("leopard", {"deals": 1}, specs, pairs=1, first_deal=5, seed=1)
    # Three pairs of bots, one deal each, played once per seat rotation.
    assert len(result.games) == 3 * 2
    assert {tuple(game["sides"]) for game in result.games} == {
        ("random", "greedy"),
        ("greedy", "random"),
        ("random", "ismcts:iterations=20"),
        ("ismcts:iterations=20", "random"),
        ("greedy", "ismcts:iterations=20"),
        ("ismcts:iterations=20", "greedy"),
    }
    assert all(game["deal"] == 5 for game in result.games)
    assert [entry.games for entry in result.entries] == [4, 4, 4]
    assert sum(entry.wins for entry in result.entries) == pytest.approx(6)
    for entry in result.entries:
        assert entry.sigma < 25 / 3  # openskill's starting uncertainty went down
        assert entry.moves > 0
        assert entry.cpu_per_move >= 0
    ordinals = [entry.ordinal for entry in result.entries]
    assert ordinals == sorted(ordinals, reverse=True)


def test_jobs_play_the_same_games_and_give_the_same_ratings() -> None:
    specs = [parse_bot("random"), parse_bot("greedy"), parse_bot("ismcts:iterations=20")]
    alone = run_ladder("leopard", {"deals": 1}, specs, pairs=2, first_deal=7, seed=4)
    shared = run_ladder("leopard", {"deals": 1}, specs, pairs=2, first_deal=7, seed=4, jobs=2)
    assert shared.games == alone.games
    assert [(e.label, e.mu, e.sigma, e.games, e.wins, e.moves) for e in shared.entries] == [
        (e.label, e.mu, e.sigma, e.games, e.wins, e.moves) for e in alone.entries
    ]


def test_four_player_leopard_gives_both_partners_the_same_bot() -> None:
    specs = [parse_bot("random"), parse_bot("greedy")]
    result = run_ladder("leopard", {"players": 4, "deals": 1}, specs, pairs=1, seed=2)
    assert len(result.games) == 2
    assert all(len(game["sides"]) == 2 and len(game["scores"]) == 2 for game in result.games)


def test_bad_bots_are_refused_before_any_game() -> None:
    with pytest.raises(BotError, match="unknown bot"):
        parse_bot("nobody")
    with pytest.raises(BotError, match="KEY=VALUE"):
        parse_bot("ismcts:iterations")
    with pytest.raises(BotError, match="at least 3"):
        run_ladder("leopard", {"players": 3}, [parse_bot("random"), parse_bot("greedy")], 1)


def test_the_ladder_command_prints_ratings() -> None:
    runner = CliRunner()
    args = ["ladder", "leopard", "--bots", "random,greedy", "--pairs", "1", "-o", "deals=1"]
    result = runner.invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {entry["bot"] for entry in data["ratings"]} == {"random", "greedy"}
    assert all("cpu_seconds_per_move" in entry for entry in data["ratings"])
    table = runner.invoke(main, args)
    assert table.exit_code == 0
    assert "mu - 3 sigma" in table.output
    bad = runner.invoke(main, ["ladder", "leopard", "--bots", "random,nobody"])
    assert bad.exit_code == 2
    assert "unknown bot" in bad.output


def test_openspiel_ismcts_takes_part() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is the extra patience[openspiel]")
    import patience.envs.openspiel  # noqa: F401  (registers the bot)

    specs = [parse_bot("greedy"), parse_bot("openspiel-ismcts:simulations=5")]
    result = run_ladder("leopard", {"deals": 1}, specs, pairs=1, seed=3)
    assert {entry.label for entry in result.entries} == {"greedy", "openspiel-ismcts:simulations=5"}
    assert all(entry.moves > 0 for entry in result.entries)
