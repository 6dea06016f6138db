"""The ``patience`` command: list games, show deals, play in the terminal, replay records.

Conventions shared by every command: ``--deal N`` is a deal number, ``-o KEY=VALUE`` (repeatable,
or comma-separated) sets an option of RULES.md, ``--json`` prints machine-readable output. Bad
games, options and deal numbers are usage errors (exit code 2) with a message that lists what is
allowed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import platformdirs
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import __version__, record
from .deals import MAX_DEAL, DealError, check_deal
from .engine import Game
from .games import GAMES, UnknownGame, get_rules, resolve_name
from .options import OptionError, parse_option_pairs
from .terminal import PlaySession, outcome_text, render_game

__all__ = ["AUTOSAVE_NAME", "HOME_VARIABLE", "autosave_path", "data_dir", "main"]

#: The environment variable that overrides where patience keeps its files (the autosave).
HOME_VARIABLE = "PATIENCE_HOME"
AUTOSAVE_NAME = "autosave.rec"
DEFAULT_GAME = "klondike"


def data_dir() -> Path:
    """Where patience keeps its files: ``$PATIENCE_HOME`` if set, else the user data dir."""
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("patience"))


def autosave_path() -> Path:
    """The file that ``patience play`` saves to after every move, and ``--resume`` reads."""
    return data_dir() / AUTOSAVE_NAME


def _console() -> Console:
    # Made per command, not at import, so that it writes to whatever stdout is current (the
    # CliRunner swaps it in tests); highlight=False keeps rich from colouring numbers at random.
    return Console(highlight=False)


def _echo_json(data: Any) -> None:
    # Plain click.echo, not rich: JSON must not be wrapped or styled.
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _check_deal_option(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """``--deal``: a deal number, checked as the engine checks it (0 to 2**53 - 1)."""
    # A callback rather than a click.ParamType subclass: ParamType became generic in click 8.4,
    # and the project supports click 8.1 too.
    if value is None:
        return None
    try:
        return check_deal(value)
    except DealError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


def _game_name(name: str, param_hint: str = "'GAME'") -> str:
    try:
        return resolve_name(name)
    except UnknownGame as error:
        raise click.BadParameter(str(error), param_hint=param_hint) from None


def _new_game(name: str, deal: int | None, option_pairs: Sequence[str]) -> Game:
    """A new game from the command line's GAME, --deal and -o, or a usage error (exit 2)."""
    name = _game_name(name)
    try:
        options = parse_option_pairs(option_pairs)
        rules = get_rules(name, options)
    except OptionError as error:
        raise click.BadParameter(str(error), param_hint="'-o' / '--option'") from None
    try:
        return Game.create(rules, deal=deal)
    except DealError as error:
        raise click.BadParameter(str(error), param_hint="'--deal'") from None


def _load_record(path: Path) -> Game:
    """A game replayed from a record file; a bad record is an error (exit 1) saying why."""
    try:
        return record.load(path)
    except FileNotFoundError:
        raise click.ClickException(f"there is no file {path}") from None
    except record.RecordError as error:
        raise click.ClickException(f"{path}: {error}") from None
    except (OSError, ValueError) as error:
        # A record naming an unknown game or a bad option fails with that error's own words.
        raise click.ClickException(f"cannot read {path}: {error}") from None


deal_option = click.option(
    "--deal",
    "deal",
    metavar="N",
    default=None,
    callback=_check_deal_option,
    help=f"Deal number (0 to {MAX_DEAL}); a random one if left out.",
)
option_option = click.option(
    "-o",
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A game option as in RULES.md (repeatable; or KEY=VALUE,KEY=VALUE).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="patience")
def main() -> None:
    """Card games of patience: list them, deal them, play them, replay records."""


@main.command("games")
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
        _echo_json(entries)
        return
    console = _console()
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


@main.command("deal")
@click.argument("game_name", metavar="GAME")
@deal_option
@option_option
@json_option
def deal_command(game_name: str, deal: int | None, options: tuple[str, ...], as_json: bool) -> None:
    """Show the starting position of GAME (every card, face-down ones too)."""
    game = _new_game(game_name, deal, options)
    if as_json:
        _echo_json(game.position())
        return
    _console().print(render_game(game, reveal=True))


@main.command("play")
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
        game = _load_record(path)
        if game_name is not None and _game_name(game_name) != game.name:
            raise click.UsageError(
                f"the saved game is {game.name}, not {_game_name(game_name)}: "
                "leave out GAME to resume it"
            )
    else:
        game = _new_game(game_name or DEFAULT_GAME, deal, options)
    if game.rules.players > 1:
        from .cli_bots import play_at_table  # cli_bots imports this module

        play_at_table(game, seats, 0 if seed is None else seed, _console())
        return
    if seats is not None or seed is not None:
        multi = ", ".join(name for name, rules in GAMES.items() if get_rules(name).players > 1)
        raise click.UsageError(
            f"{game.rules.title} is a one-player game: --seats and --seed are for the "
            f"multi-player games ({multi})"
        )
    PlaySession(game, _console(), autosave=path).run()


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def replay_command(file: Path, as_json: bool) -> None:
    """Replay the record in FILE from its deal; print the final position and the outcome."""
    game = _load_record(file)
    outcome = game.outcome()
    if as_json:
        _echo_json({"outcome": outcome.to_json(), "position": game.position()})
        return
    console = _console()
    console.print(render_game(game, reveal=True))
    console.print(outcome_text(outcome))


from . import cli_solve  # noqa: E402,F401  (registers commands)

# isort: split
from . import cli_web  # noqa: E402,F401  (registers commands)

# isort: split
from . import cli_bots  # noqa: E402,F401  (registers commands)

# isort: split
from . import cli_study  # noqa: E402,F401  (registers commands)
