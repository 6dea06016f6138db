"""``patience solve``: is a deal (or a position) of a one-player game winnable, and how;
``patience autoplay``: how often the hints win when they play every move.

The answer is ``won`` with the moves, ``unwinnable`` (proved), or ``unknown`` (the budget ran
out); ``--record FILE`` writes the winning game as a record that ``patience replay`` replays.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import record
from ..engine import Game, PositionError
from ..games import UnknownGame, resolve_name
from ..solve import ENGINES, Budget, Solution, solve
from ..solve.autoplay import AutoplayDB, PlayedGame, Policy, play_with_hints, win_rate
from ..solve.core import CORE_MAX_STATES, CoreUnavailable
from ..solve.hint import DEFAULT_NODES, DEFAULT_SAMPLES, GAME_BUDGETS, hint_budget
from ..study import options_key
from .common import (
    data_dir,
    deal_option,
    echo_json,
    json_option,
    new_game,
    option_option,
    range_option,
)

__all__ = ["autoplay_command", "solve_command"]

DEFAULT_SECONDS = 10.0


def _game_from_position(game_name: str, path: Path) -> Game:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise click.ClickException(f"there is no file {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise click.ClickException(f"cannot read {path} as position JSON: {error}") from None
    try:
        game = Game.from_position(data)
    except PositionError as error:
        raise click.ClickException(f"{path}: {error}") from None
    try:
        wanted = resolve_name(game_name)
    except UnknownGame as error:
        raise click.BadParameter(str(error), param_hint="'GAME'") from None
    if game.name != wanted:
        raise click.UsageError(f"{path} holds a {game.name} position, not {wanted}")
    return game


@click.command("solve")
@click.argument("game_name", metavar="GAME")
@deal_option
@click.option(
    "--position",
    "position",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Solve the position in this JSON file (docs/formats.md) instead of a deal.",
)
@option_option
@click.option(
    "--budget",
    "seconds",
    type=click.FloatRange(min=0, min_open=True),
    help=f"Seconds to search (default {DEFAULT_SECONDS:g} unless --nodes is given).",
)
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    help="Nodes to search: the same answer and moves on every run and machine.",
)
@click.option(
    "--cpu",
    is_flag=True,
    help="Count --budget in CPU seconds of this process (a busy machine does not shorten it).",
)
@click.option(
    "--max-states",
    type=click.IntRange(min=1),
    default=None,
    help="Memory bound: most states the table of seen states may hold "
    f"[default: {CORE_MAX_STATES:,} in the core, {Budget.max_states:,} in Python].",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default=None,
    help="Search in the compiled core or in the Python adapters [default: the core where it "
    "knows the game].",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the winning game as a record to this file (.json: the JSON form).",
)
@json_option
def solve_command(
    game_name: str,
    deal: int | None,
    position: Path | None,
    options: tuple[str, ...],
    seconds: float | None,
    nodes: int | None,
    cpu: bool,
    max_states: int | None,
    engine: str | None,
    record_path: Path | None,
    as_json: bool,
) -> None:
    """Solve GAME from --deal N or --position FILE, knowing every card.

    Prints won (with the moves), unwinnable (the whole space was searched) or unknown (the
    budget ran out).
    """
    if (deal is None) == (position is None):
        raise click.UsageError("give exactly one of --deal N and --position FILE")
    if position is not None:
        if options:
            raise click.UsageError("a position carries its own options: leave out -o")
        game = _game_from_position(game_name, position)
    else:
        game = new_game(game_name, deal, options)
    if game.rules.players != 1:
        raise click.BadParameter(
            f"{game.name} is not a one-player game: the solver plays patience only",
            param_hint="'GAME'",
        )
    if seconds is not None and nodes is not None:
        raise click.UsageError("give at most one of --budget and --nodes")
    if cpu and nodes is not None:
        raise click.UsageError("--cpu counts --budget in CPU seconds; it does not go with --nodes")
    if seconds is None and nodes is None:
        seconds = DEFAULT_SECONDS
    try:
        solution = solve(
            game,
            seconds=seconds,
            nodes=nodes,
            max_states=max_states,
            cpu_time=cpu,
            engine=engine,
        )
    except CoreUnavailable as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        echo_json(solution.to_json())
    else:
        click.echo(_describe(solution))
    if record_path is not None:
        if solution.result != "won":
            raise click.ClickException(
                f"no record written: the result is {solution.result}, not won"
            )
        game.replay_moves(solution.moves)
        try:
            record.dump(game, record_path)
        except OSError as error:
            raise click.ClickException(f"cannot write {record_path}: {error}") from None


def _describe(solution: Solution) -> str:
    lines = [
        f"{solution.result}  ({solution.nodes} nodes, {solution.seconds:.2f} s)"
        + (f": {solution.why}" if solution.why else "")
    ]
    if solution.moves:
        lines.append(" ".join(move.text() for move in solution.moves))
    return "\n".join(lines)


AUTOPLAY_DB = "autoplay.sqlite3"


def _budget_help(part: int, default: int | None) -> str:
    """The web app's hint budgets (worlds for ``part`` 0, nodes for 1) in words, for --help."""
    games = ", ".join(
        f"{budget[part]:,} for {game}"
        for game, budget in GAME_BUDGETS.items()
        if budget[part] != default
    )
    return f"{games}, else {default:,}" if default is not None else games


@click.command("autoplay")
@click.argument("game_name", metavar="GAME")
@option_option
@range_option("play")
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    default=None,
    help="Nodes of each search of a hint (one sampled world after one move) [default: the "
    f"web app's hint budget for GAME: {_budget_help(1, DEFAULT_NODES)}].",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=None,
    help="Worlds (deals of the hidden cards) each hint samples [default: the web app's hint "
    f"budget for GAME: {_budget_help(0, DEFAULT_SAMPLES)}].",
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=f"The results file (default: {AUTOPLAY_DB} in the data directory).",
)
@json_option
def autoplay_command(
    game_name: str,
    options: tuple[str, ...],
    deals: range,
    nodes: int | None,
    samples: int | None,
    db_path: Path | None,
    as_json: bool,
) -> None:
    """Let the hints play GAME's deals --range A-B from the player's view alone.

    Each move is the hint's (patience hint, node budgets: the same games on every machine).
    Deals already played with the same options and budgets are not played again: a run
    stopped part way goes on where it stopped. Prints each deal, then the win rate with its
    95% interval.
    """
    first = new_game(game_name, deals.start, options)
    if first.rules.players != 1:
        raise click.BadParameter(
            f"{first.name} is not a one-player game: hints are for patience games",
            param_hint="'GAME'",
        )
    # The web app's budget unless told otherwise: the games played are the hints a player gets.
    budget = hint_budget(first.name)
    samples = budget["samples"] if samples is None else samples
    nodes = budget["nodes"] if nodes is None else nodes
    policy = Policy(samples=samples, nodes=nodes)
    options_text = options_key(first.rules.options)
    store = AutoplayDB(db_path or data_dir() / AUTOPLAY_DB)
    try:
        earlier = store.played(first.name, options_text, policy)
        games: list[PlayedGame] = []
        for deal in deals:
            played = earlier.get(deal)
            if played is not None:
                line = f"deal {deal}: {played.result} (played in an earlier run)"
            else:
                played = play_with_hints(Game.create(first.rules, deal=deal), policy)
                store.add(first.name, options_text, policy, played)
                line = (
                    f"deal {deal}: {played.result} after {played.moves} moves "
                    f"({played.seconds:.1f} s): {played.reason}"
                )
            games.append(played)
            if not as_json:
                click.echo(line)
    finally:
        store.close()
    rate = win_rate(games)
    if as_json:
        echo_json(
            {
                "game": first.name,
                "options": dict(first.rules.options),
                "samples": samples,
                "nodes": nodes,
                "deals": len(games),
                "won": sum(game.result == "won" for game in games),
                "win_rate": rate.to_json(),
                "games": [game.to_json() for game in games],
            }
        )
        return
    won = sum(game.result == "won" for game in games)
    click.echo(
        f"{first.name}: won {won} of {len(games)} deals, {rate.mean:.1%} "
        f"(95%: {rate.low:.1%}-{rate.high:.1%})"
    )
