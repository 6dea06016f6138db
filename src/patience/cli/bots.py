"""``patience match`` and ``patience arena``: bots (and people) playing the multi-player games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import record
from ..bots import BOTS, BotError
from ..bots.match import deal_scores, make_bot, make_bots, play_game, run_arena
from ..engine import Game
from ..games import get_rules
from ..moves import Move
from ..terminal import outcome_text
from ..terminal_table import HumanSeat
from .common import (
    deal_option,
    echo_json,
    jobs_option,
    json_option,
    make_console,
    new_game,
    option_option,
    resolve_game,
)

__all__ = ["arena_command", "match_command", "play_at_table", "run_table"]

seats_option = click.option(
    "--seats",
    "seats",
    required=True,
    metavar="A,B,...",
    help=f"Who sits where, seat 0 first: {', '.join(BOTS)} or human.",
)
seed_option = click.option(
    "--seed", "seed", type=int, default=0, show_default=True, help="The bots' random seed."
)


def _announced(game: Game, move: Move, mover: int, viewer: int) -> str:
    """A move as ``viewer`` may learn it (:meth:`Rules.move_view`): a card that stays hidden
    from him (Leopard's jacks and queens laid face down) is not named."""
    seen = game.rules.move_view(game.state, move, mover, viewer)
    if "card" in seen and seen["card"] is None:
        return f"{move.action} (face down)"
    return move.text()


def _seat_names(text: str, players: int) -> list[str]:
    names = [name.strip().lower() for name in text.split(",")]
    allowed = [*BOTS, "human"]
    for name in names:
        if name not in allowed:
            raise click.BadParameter(
                f"unknown seat {name!r}: use {', '.join(allowed)}", param_hint="'--seats'"
            )
    if len(names) != players:
        raise click.BadParameter(
            f"the game has {players} seats but {len(names)} were given", param_hint="'--seats'"
        )
    return names


def run_table(
    game: Game,
    names: list[str],
    seed: int,
    console: Console,
    *,
    show_deals: bool = True,
    announce_moves: bool = False,
) -> list[list[int]]:
    """Play ``game`` to its end with a bot (or a :class:`HumanSeat`: name ``human``) in each
    seat; return each deal's points. A human who quits raises :class:`EOFError`; a failing bot
    is a :class:`click.ClickException`.

    ``show_deals`` prints each deal's points and the totals as they come; ``announce_moves``
    prints each bot's move as the humans at the table may learn it.
    """
    players: list[Any] = make_bots(["random" if n == "human" else n for n in names], seed)
    humans = [seat for seat, name in enumerate(names) if name == "human"]
    for seat in humans:
        players[seat] = HumanSeat(game, console)
    deals: list[list[int]] = deal_scores(game.opening)

    def on_move(game: Game, seat: int, move: Move, forced: list[Move]) -> None:
        if announce_moves and names[seat] != "human":
            # Several humans share one screen anyway; name only what the first of them may see.
            shown = _announced(game, move, seat, humans[0] if humans else seat)
            console.print(Text(f"seat {seat} ({names[seat]}) plays {shown}", style="cyan"))
        for points in deal_scores(forced):
            deals.append(points)
            if show_deals:
                totals = [sum(column) for column in zip(*deals, strict=True)]
                console.print(
                    f"deal {len(deals)}: {'-'.join(map(str, points))}"
                    f"   totals {'-'.join(map(str, totals))}"
                )

    try:
        play_game(game, players, on_move)
    except BotError as error:
        raise click.ClickException(str(error)) from None
    return deals


def play_at_table(game: Game, seats: str | None, seed: int, console: Console) -> None:
    """``patience play`` for a multi-player game: the humans at their seats, bots elsewhere
    (human in seat 0 and greedy bots if ``seats`` is None). Quitting leaves the game unsaved."""
    players = game.rules.players
    if seats is None:
        names = ["human", *["greedy"] * (players - 1)]
        example = ",".join(["human", *["random"] * (players - 1)])
        console.print(
            f"{game.rules.title} has {players} seats: you sit in seat 0, greedy bots in the "
            f"others. Choose with --seats, e.g. --seats {example}.",
            soft_wrap=True,
        )
    else:
        names = _seat_names(seats, players)
    deal = "no deal number" if game.deal is None else f"deal {game.deal}"
    console.print(
        Text.assemble(
            "Playing ",
            (game.rules.title, "bold"),
            f", {deal}, seats: {', '.join(f'{i} {n}' for i, n in enumerate(names))}. "
            "Type help for the moves, quit to leave.",
        ),
        soft_wrap=True,
    )
    try:
        run_table(game, names, seed, console, announce_moves=True)
    except EOFError:
        console.print("Game left unfinished (multi-player games are not saved).")
        return
    console.print(outcome_text(game.outcome()))


@click.command("match")
@click.argument("game_name", metavar="GAME")
@seats_option
@option_option
@deal_option
@seed_option
@json_option
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the match's record to FILE (JSON if it ends in .json).",
)
def match_command(
    game_name: str,
    seats: str,
    options: tuple[str, ...],
    deal: int | None,
    seed: int,
    as_json: bool,
    record_path: Path | None,
) -> None:
    """Play a match of GAME between bots (or people: seat name human) and print the scores
    deal by deal; the record replays to the same scores with patience replay."""
    game = new_game(game_name, deal, options)
    names = _seat_names(seats, game.rules.players)
    console = make_console()
    try:
        deals = run_table(game, names, seed, console, show_deals=not as_json)
    except EOFError:
        raise click.ClickException("the match was left unfinished") from None
    if record_path is not None:
        try:
            record.dump(game, record_path, players=names, seed=seed)
        except OSError as error:
            raise click.ClickException(f"cannot write {record_path}: {error}") from None
    outcome = game.outcome()
    if as_json:
        echo_json(
            {
                "game": game.name,
                "options": game.options,
                "deal": game.deal,
                "seed": seed,
                "seats": names,
                "deals": deals,
                "outcome": outcome.to_json(),
            }
        )
        return
    console.print(outcome_text(outcome))


def _rules_of(game_name: str) -> Any:
    """The rules of GAME with its default options (for its option names), or a usage error."""
    return get_rules(resolve_game(game_name), {})


@click.command("arena")
@click.argument("game_name", metavar="GAME")
@seats_option
@click.option(
    "--pairs",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Pairs of games (each deal twice, seats swapped; thrice with 3 players).",
)
@option_option
@deal_option
@seed_option
@jobs_option("to play the pairs in")
@json_option
def arena_command(
    game_name: str,
    seats: str,
    pairs: int,
    options: tuple[str, ...],
    deal: int | None,
    seed: int,
    jobs: int,
    as_json: bool,
) -> None:
    """Play PAIRS pairs of single deals between two bots A,B: each deal twice with the seats
    swapped. Prints each bot's win rate and mean score margin with 95% confidence intervals.

    A single deal is a match of deals=1 (equal scores: one more deal, as RULES.md says); with
    -o players=4, A and B are the two sides; with -o players=3 each deal is played three times,
    A in each seat and B in the other two (A's fair share is 1/3). --deal is the first pair's
    deal (0 if left out).
    """
    pairs_of_options = list(options)
    given = {part.split("=")[0].strip() for o in options for part in o.split(",")}
    # A single deal only where a match has several (Leopard); other games are one deal already.
    has_deals = any(spec.name == "deals" for spec in _rules_of(game_name).option_specs)
    if has_deals and not given & {"deals", "target"}:
        pairs_of_options.append("deals=1")
    game = new_game(game_name, 0, pairs_of_options)
    names = [name.strip() for name in seats.split(",")]
    if len(names) != 2:
        raise click.BadParameter(
            f"give two bots, A,B, from {', '.join(BOTS)}", param_hint="'--seats'"
        )
    try:
        for name in names:
            make_bot(name, None)
    except BotError as error:
        raise click.BadParameter(
            f"{error} (give two bots, A,B, from {', '.join(BOTS)}, with parameters as "
            "ismcts:iterations=500)",
            param_hint="'--seats'",
        ) from None
    result = run_arena(game.name, game.options, (names[0], names[1]), pairs, deal or 0, seed, jobs)
    if as_json:
        data = result.to_json()
        data.update(game=game.name, options=game.options, first_deal=deal or 0, seed=seed)
        echo_json(data)
        return
    games = len(result.games)
    table = Table(title=f"{game.rules.title}: {pairs} pairs ({games} games)")
    columns = ("bot", "seat name", "win rate", "95% CI", "mean margin", "95% CI", "CPU s/move")
    for column in columns:
        table.add_column(column)
    for index, name in enumerate(result.names):
        rate, margin = result.win_rate[index], result.margin[index]
        seconds = sum(g["cpu"].get(name, [0, 0])[0] for g in result.games)
        moves = sum(g["cpu"].get(name, [0, 0])[1] for g in result.games)
        table.add_row(
            "AB"[index],
            name,
            f"{rate.mean:.3f}",
            f"[{rate.low:.3f}, {rate.high:.3f}]",
            f"{margin.mean:+.2f}",
            f"[{margin.low:+.2f}, {margin.high:+.2f}]",
            f"{seconds / moves:.3f}" if moves else "-",
        )
    make_console().print(table)
