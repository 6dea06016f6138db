"""``patience games``, ``deal``, ``play`` and ``replay``: the games, their deals, playing in the
terminal and replaying records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich import box
from rich.table import Table
from rich.text import Text

from ..games import GAMES, get_rules
from ..terminal import PlaySession, outcome_text, render_game
from .bots import play_at_table
from .common import (
    autosave_path,
    deal_option,
    echo_json,
    json_option,
    load_record,
    make_console,
    new_game,
    option_option,
    resolve_game,
)

__all__ = ["deal_command", "games_command", "play_command", "replay_command"]

DEFAULT_GAME = "klondike"


@click.command("games")
@json_option
def games_command(as_json: bool) -> None:
    """List the games and their options."""
    entries: list[dict[str, Any]] = []
    for name, rules in GAMES.items():
        entries.append(
            {
                "name": name,
                "title": rules.title,
                "summary": rules.summary,
                "aliases": list(rules.aliases),
                "options": [
                    {
                        "name": spec.name,
                        "allowed": spec.allowed(),
                        "default": spec.format(spec.default),
                        "help": spec.help,
                    }
                    for spec in rules.option_specs
                ],
            }
        )
    if as_json:
        echo_json(entries)
        return
    console = make_console()
    for entry in entries:
        aliases = f" (also: {', '.join(entry['aliases'])})" if entry["aliases"] else ""
        console.print(
            Text.assemble((entry["name"], "bold cyan"), f"  {entry['title']}{aliases}"),
        )
        console.print(f"  {entry['summary']}")
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for column in ("option", "allowed", "default", "meaning"):
            table.add_column(column)
        for spec in entry["options"]:
            table.add_row(spec["name"], spec["allowed"], spec["default"], spec["help"])
        if entry["options"]:
            console.print(table)
        else:
            console.print("  no options\n")


@click.command("deal")
@click.argument("game_name", metavar="GAME")
@deal_option
@option_option
@json_option
def deal_command(game_name: str, deal: int | None, options: tuple[str, ...], as_json: bool) -> None:
    """Show the starting position of GAME (every card, face-down ones too)."""
    game = new_game(game_name, deal, options)
    if as_json:
        echo_json(game.position())
        return
    make_console().print(render_game(game, reveal=True))


@click.command("play")
@click.argument("game_name", metavar="[GAME]", required=False)
@deal_option
@option_option
@click.option(
    "--seats",
    "seats",
    metavar="A,B,...",
    default=None,
    help="Multi-player games: who sits where, seat 0 first: human or a bot "
    "(default: human,greedy,...).",
)
@click.option("--seed", "seed", type=int, default=None, help="The bots' random seed (default 0).")
@click.option("--resume", is_flag=True, help="Continue the game saved when you last played.")
def play_command(
    game_name: str | None,
    deal: int | None,
    options: tuple[str, ...],
    seats: str | None,
    seed: int | None,
    resume: bool,
) -> None:
    """Play GAME (klondike if left out) in the terminal.

    A one-player game is saved after every move to the autosave file (in the user data
    directory, or $PATIENCE_HOME), and --resume continues it. A multi-player game (leopard,
    double-solitaire) seats you and bots as --seats says, and is not saved.
    """
    path = autosave_path()
    if resume:
        if deal is not None or options or seats is not None or seed is not None:
            raise click.UsageError(
                "--resume continues the saved game: leave out --deal, -o, --seats and --seed"
            )
        if not path.exists():
            raise click.ClickException(
                f"there is no saved game to resume (looked for {path}); start one with "
                "patience play"
            )
        game = load_record(path)
        if game_name is not None and resolve_game(game_name) != game.name:
            raise click.UsageError(
                f"the saved game is {game.name}, not {resolve_game(game_name)}: "
                "leave out GAME to resume it"
            )
    else:
        game = new_game(game_name or DEFAULT_GAME, deal, options)
    if game.rules.players > 1:
        play_at_table(game, seats, 0 if seed is None else seed, make_console())
        return
    if seats is not None or seed is not None:
        multi = ", ".join(name for name, rules in GAMES.items() if get_rules(name).players > 1)
        raise click.UsageError(
            f"{game.rules.title} is a one-player game: --seats and --seed are for the "
            f"multi-player games ({multi})"
        )
    PlaySession(game, make_console(), autosave=path).run()


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def replay_command(file: Path, as_json: bool) -> None:
    """Replay the record in FILE from its deal; print the final position and the outcome."""
    game = load_record(file)
    outcome = game.outcome()
    if as_json:
        echo_json({"outcome": outcome.to_json(), "position": game.position()})
        return
    console = make_console()
    console.print(render_game(game, reveal=True))
    console.print(outcome_text(outcome))
