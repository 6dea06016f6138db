"""What every ``patience`` command shares: the data directory, the console, JSON output, and the
options ``--deal``, ``-o KEY=VALUE``, ``--json`` and ``--range`` with their checks.

Conventions shared by every command: ``--deal N`` is a deal number, ``-o KEY=VALUE`` (repeatable,
or comma-separated) sets an option of RULES.md, ``--json`` prints machine-readable output. Bad
games, options and deal numbers are usage errors (exit code 2) with a message that lists what is
allowed.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click
import platformdirs
from rich.console import Console

from .. import record
from ..deals import MAX_DEAL, DealError, check_deal
from ..engine import Game
from ..games import UnknownGame, get_rules, resolve_name
from ..options import OptionError, parse_option_pairs

__all__ = [
    "AUTOSAVE_NAME",
    "HOME_VARIABLE",
    "MAX_RANGE",
    "MissingExtra",
    "autosave_path",
    "data_dir",
    "deal_option",
    "echo_json",
    "json_option",
    "load_record",
    "make_console",
    "missing_extra",
    "new_game",
    "option_option",
    "parse_range",
    "range_option",
    "resolve_game",
]

#: The environment variable that overrides where patience keeps its files (the autosave).
HOME_VARIABLE = "PATIENCE_HOME"
AUTOSAVE_NAME = "autosave.rec"
#: Deals a command may cover in one go (a range is listed in memory).
MAX_RANGE = 10_000_000


def data_dir() -> Path:
    """Where patience keeps its files: ``$PATIENCE_HOME`` if set, else the user data dir."""
    override = os.environ.get(HOME_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("patience"))


def autosave_path() -> Path:
    """The file that ``patience play`` saves to after every move, and ``--resume`` reads."""
    return data_dir() / AUTOSAVE_NAME


def make_console() -> Console:
    """A rich console for one command's output."""
    # Made per command, not at import, so that it writes to whatever stdout is current (the
    # CliRunner swaps it in tests); highlight=False keeps rich from colouring numbers at random.
    return Console(highlight=False)


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    # Plain click.echo, not rich: JSON must not be wrapped or styled.
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


class MissingExtra(click.ClickException):
    """A command that needs an optional part of patience (an extra) that is not installed."""


def missing_extra(error: ImportError, extra: str, what: str, modules: Sequence[str]) -> None:
    """Raise :class:`MissingExtra` (exit 1, one line saying which extra to install) if ``error``
    is the import of one of ``modules`` (top-level names) that ``extra`` brings; otherwise
    return, and the caller re-raises ``error`` (a broken import of our own is a bug to see)."""
    missing = (error.name or "").partition(".")[0]
    if missing in modules:
        raise MissingExtra(
            f"{what} needs the {extra} extra: pip install 'patience[{extra}]' "
            f"({missing} is not installed)"
        ) from None


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


def resolve_game(name: str, param_hint: str = "'GAME'") -> str:
    """The RULES.md name of game ``name`` (or an alias), or a usage error listing the games."""
    try:
        return resolve_name(name)
    except UnknownGame as error:
        raise click.BadParameter(str(error), param_hint=param_hint) from None


def new_game(name: str, deal: int | None, option_pairs: Sequence[str]) -> Game:
    """A new game from the command line's GAME, --deal and -o, or a usage error (exit 2)."""
    name = resolve_game(name)
    try:
        options = parse_option_pairs(option_pairs)
        rules = get_rules(name, options)
    except OptionError as error:
        raise click.BadParameter(str(error), param_hint="'-o' / '--option'") from None
    try:
        return Game.create(rules, deal=deal)
    except DealError as error:
        raise click.BadParameter(str(error), param_hint="'--deal'") from None


#: The largest record file the commands read, in bytes (a record of thousands of moves is a
#: few hundred KiB).
MAX_RECORD_FILE = 8 * 1024 * 1024


def load_record(path: Path) -> Game:
    """A game replayed from a record file; a bad record is an error (exit 1) saying why.

    Before anything is read, a path that is not a regular file (a directory, a pipe, a device
    such as /dev/zero) or a file over :data:`MAX_RECORD_FILE` is refused."""
    try:
        facts = path.stat()
    except FileNotFoundError:
        raise click.ClickException(f"there is no file {path}") from None
    except OSError as error:
        raise click.ClickException(f"cannot read {path}: {error}") from None
    if not stat.S_ISREG(facts.st_mode):
        raise click.ClickException(f"{path} is not a regular file: give a record file")
    if facts.st_size > MAX_RECORD_FILE:
        raise click.ClickException(
            f"{path} has {facts.st_size} bytes: a record file has at most {MAX_RECORD_FILE}"
        )
    try:
        return record.load(path)
    except FileNotFoundError:
        raise click.ClickException(f"there is no file {path}") from None
    except record.RecordError as error:
        raise click.ClickException(f"{path}: {error}") from None
    except (OSError, ValueError) as error:
        # A record naming an unknown game or a bad option fails with that error's own words.
        raise click.ClickException(f"cannot read {path}: {error}") from None


def parse_range(text: str) -> range:
    """``A-B`` (both included) or ``N``, as deal numbers; ValueError saying what is wrong and
    what is allowed."""
    allowed = (
        f"a range is A-B with 0 <= A <= B <= {MAX_DEAL} (2**53 - 1), as in 1-1000, or one deal N"
    )
    first, sep, last = (part.strip() for part in text.strip().partition("-"))
    if not first:
        what = "has no first deal (deal numbers are never negative)" if sep else "is empty"
        raise ValueError(f"the range {text!r} {what}: {allowed}")
    if sep and not last:
        raise ValueError(f"the range {text!r} has no last deal: {allowed}")
    if "-" in last:
        raise ValueError(
            f"the range {text!r} has more than one '-' (deal numbers are never negative): {allowed}"
        )
    try:
        start = check_deal(first)
        stop = check_deal(last) if sep else start
    except DealError as error:
        raise ValueError(f"{error}; {allowed}") from None
    if stop < start:
        raise ValueError(f"the range {text} is empty: {allowed}")
    if stop - start + 1 > MAX_RANGE:
        raise ValueError(f"the range {text} is too long: at most {MAX_RANGE} deals per command")
    return range(start, stop + 1)


def _range_option(ctx: click.Context, param: click.Parameter, value: str) -> range:
    try:
        return parse_range(value)
    except ValueError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


FC = TypeVar("FC", bound=Callable[..., Any])


def range_option(what: str) -> Callable[[FC], FC]:
    """``--range A-B`` (required), the deal numbers a command ``what``s (solve, play...)."""
    return click.option(
        "--range",
        "deals",
        metavar="A-B",
        required=True,
        callback=_range_option,
        help=f"Deal numbers to {what}, both ends included.",
    )


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


def jobs_option(what: str) -> Callable[[FC], FC]:
    """``--jobs N`` (at least 1, default 1): the processes that ``what``."""
    return click.option(
        "--jobs", type=click.IntRange(1), default=1, show_default=True, help=f"Processes {what}."
    )
