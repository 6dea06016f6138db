"""``patience admin``: looking after a server's store from the server's own machine (docs/web.md,
"Sessions and names").

Before sessions the server kept one-player tables under player names (a cookie held the name);
such a name's tables wait for their player, who takes them over by coming back with the old
cookie. ``admin names`` lists the names whose tables still wait, and ``admin claim-name`` gives
a name (and its waiting tables) a password, for a player whose browser lost the old cookie.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..store import Store, StoreError, valid_player_name
from ..store import name_key as key_of
from .common import echo_json, json_option, missing_extra
from .web import WEB_MODULES, default_db_path

__all__ = ["admin_group"]

db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The server's SQLite store (default: patience.sqlite3 in the data directory).",
)


def _store(db_path: Path | None) -> tuple[Store, Path]:
    path = db_path or default_db_path()
    if not path.is_file():
        raise click.ClickException(f"there is no store {path}: give the server's with --db")
    try:
        return Store(path), path
    except StoreError as error:
        raise click.ClickException(str(error)) from None


@click.group("admin")
def admin_group() -> None:
    """Look after a server's store: the names of the days before sessions."""


@admin_group.command("names")
@db_option
@json_option
def names_command(db_path: Path | None, as_json: bool) -> None:
    """List the names whose tables (stored before sessions) nobody has taken over yet."""
    store, _ = _store(db_path)
    with store:
        names = store.unclaimed_names()
    if as_json:
        echo_json([{"name": name, "tables": count} for name, count in names])
        return
    if not names:
        click.echo("no tables wait for a name")
    for name, count in names:
        click.echo(f"{name}: {count} table{'s' if count != 1 else ''}")


@admin_group.command("claim-name")
@click.argument("name")
@click.option(
    "--password-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="A file whose first line is the password (8 to 1024 characters): a password given on "
    "the command line would stay in the shell's history and show in the process list.",
)
@db_option
@json_option
def claim_name_command(name: str, password_file: Path, db_path: Path | None, as_json: bool) -> None:
    """Claim NAME with a password, and give it the tables stored under NAME before sessions
    (names compared as everywhere: NFKC and case folded). The player then logs in as NAME
    with that password from any browser. A name claimed already keeps its password: the
    file must hold that password, and the waiting tables join the name."""
    try:
        from argon2 import PasswordHasher
        from argon2.exceptions import InvalidHashError, VerificationError
    except ImportError as error:
        missing_extra(error, "web", "patience admin", WEB_MODULES)
        raise
    try:
        name = valid_player_name(name)
    except StoreError as error:
        raise click.BadParameter(str(error), param_hint="'NAME'") from None
    if key_of(name) == key_of("guest"):
        raise click.BadParameter(
            "guest was every player without a name: its tables were everybody's",
            param_hint="'NAME'",
        )
    try:
        lines = password_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise click.BadParameter(f"cannot read it: {error}", param_hint="--password-file") from None
    password = lines[0] if lines else ""
    if not 8 <= len(password) <= 1024:
        raise click.BadParameter(
            "its first line is the password, of 8 to 1024 characters", param_hint="--password-file"
        )
    hasher = PasswordHasher()
    store, path = _store(db_path)
    with store:
        account = store.claimed_account(name)
        if account is not None:
            try:
                hasher.verify(account.password or "", password)
            except (VerificationError, InvalidHashError):
                raise click.ClickException(
                    f"{account.display} is claimed already, with another password: give that "
                    "password to add the waiting tables to it"
                ) from None
            claimed = False
        else:
            try:
                account = store.new_claimed_account(name, hasher.hash(password))
            except StoreError as error:
                raise click.ClickException(str(error)) from None
            claimed = True
        tables = len(store.take_over(name, account.id))
    shown = account.display or name
    if as_json:
        echo_json({"name": shown, "claimed": claimed, "tables": tables, "store": str(path)})
        return
    done = "claimed" if claimed else "was claimed already"
    click.echo(
        f"{shown}: {done}; {tables} table{'s' if tables != 1 else ''} taken over. "
        f"Log in as {shown} with the password to reach them."
    )
