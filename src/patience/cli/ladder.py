"""``patience ladder``: a rated round robin of bots (:mod:`patience.ladder`)."""

from __future__ import annotations

import click
from rich.table import Table

from ..bots.base import BotError
from .common import (
    deal_option,
    echo_json,
    jobs_option,
    json_option,
    make_console,
    missing_extra,
    new_game,
    option_option,
)

__all__ = ["ladder_command"]


@click.command("ladder")
@click.argument("game_name", metavar="GAME")
@click.option(
    "--bots",
    "bot_names",
    required=True,
    help="The bots, comma-separated: random, greedy, ismcts, openspiel-ismcts (the openspiel "
    "extra); parameters after a colon, separated by ';': ismcts:iterations=500.",
)
@click.option(
    "--pairs",
    type=click.IntRange(1),
    default=4,
    show_default=True,
    help="Deals per set of bots (each deal played once per rotation of the seats).",
)
@option_option
@deal_option
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds every bot.")
@jobs_option("playing the games (the ratings are the same for any number)")
@json_option
def ladder_command(
    game_name: str,
    bot_names: str,
    pairs: int,
    options: tuple[str, ...],
    deal: int | None,
    seed: int,
    jobs: int,
    as_json: bool,
) -> None:
    """Rate bots at GAME: a round robin on paired deals (every bot in every seat of the same
    deal), rated with openskill (Plackett-Luce). Prints each bot's rating mu with its
    uncertainty sigma, the conservative mu - 3 sigma, its wins and its CPU seconds per move.
    With -o players=4 (Leopard) both partners of a side are the same bot."""
    from ..ladder import parse_bot, run_ladder

    try:
        import openskill  # noqa: F401
    except ImportError as error:
        missing_extra(error, "ladder", "patience ladder", ["openskill"])
        raise
    game = new_game(game_name, 0, list(options))
    labels = []
    for text in bot_names.replace(" ", "").split(","):
        if text:
            labels.append(text)
    if any(name.partition(":")[0].lower() == "openspiel-ismcts" for name in labels):
        try:
            import patience.envs.openspiel  # noqa: F401  (registers the bot)
        except ImportError as error:
            missing_extra(error, "openspiel", "the openspiel-ismcts bot", ["pyspiel", "numpy"])
            raise
    try:
        specs = [parse_bot(text) for text in labels]
        result = run_ladder(game.name, game.options, specs, pairs, deal or 0, seed, jobs)
    except BotError as error:
        raise click.BadParameter(str(error), param_hint="'--bots'") from None
    if as_json:
        echo_json(result.to_json())
        return
    table = Table(title=f"{game.rules.title}: {len(result.games)} games, {pairs} deal(s) per set")
    table.add_column("bot", no_wrap=True)
    for column in ("mu", "sigma", "mu - 3 sigma", "games", "wins", "CPU s/move"):
        table.add_column(column)
    for entry in result.entries:
        table.add_row(
            entry.label,
            f"{entry.mu:.2f}",
            f"{entry.sigma:.2f}",
            f"{entry.ordinal:.2f}",
            str(entry.games),
            f"{entry.wins:g}",
            f"{entry.cpu_per_move:.4f}",
        )
    make_console().print(table)
