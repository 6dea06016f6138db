"""``patience serve``: the web app on uvicorn, with its SQLite store (docs/web.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..engine import Game
from .common import data_dir, missing_extra

# The defaults of server/serving.py's limits, for the options and their help without importing
# the web extra (tests/test_limits.py checks that they are the same).
REQUEST_TIMEOUT = 20.0
MAX_CONNECTIONS = 1000
CONNECTIONS_PER_CLIENT = 64

__all__ = [
    "DB_NAME",
    "WEB_MODULES",
    "default_db_path",
    "hint_json",
    "host_names",
    "serve_command",
]

#: The packages that the web extra (``pip install 'patience[web]'``) brings and the web app
#: imports: the server is imported only when ``patience serve`` runs.
WEB_MODULES = ("starlette", "uvicorn", "markdown_it", "argon2")

#: The store's file name in the data directory.
DB_NAME = "patience.sqlite3"


def default_db_path() -> Path:
    """Where ``patience serve`` keeps its store: ``patience.sqlite3`` in the data directory
    (``$PATIENCE_HOME``, else the user data directory)."""
    return data_dir() / DB_NAME


def hint_json(game: Game) -> dict[str, Any]:
    """The honest hint for the web page (``GET /api/tables/ID/hint``): ``{"move", "move_json",
    "chance", "samples", "exact"}``, from the player's view alone, at the game's budget (16
    worlds, 10,000 nodes a search, 8 s at most; Klondike 32 worlds of 5,000 nodes, one-suit
    Spider 4 worlds: docs/solving.md, "Hints", measures it)."""
    from ..solve.hint import hint, hint_budget

    return hint(game, **hint_budget(game.name)).to_json()


def host_names(host: str, allowed: tuple[str, ...]) -> list[str] | None:
    """The names a request's ``Host`` may give: those ``allowed``, else 127.0.0.1 and
    localhost for a server listening on the loopback address (another name there can only be
    a name made to point at it: DNS rebinding), else any (None)."""
    if allowed:
        return list(allowed)
    if host in {"127.0.0.1", "localhost"}:
        return ["127.0.0.1", "localhost"]
    return None


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port."
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite store (default: patience.sqlite3 in the data directory).",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    metavar="URL",
    help="Another origin (https://example.org) whose pages may open the websockets; "
    "repeatable. The server's own origin is always allowed, any other refused.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="A name the Host header may give (repeatable; *.example.org for its subdomains). "
    "Default: 127.0.0.1 and localhost when listening on 127.0.0.1 or localhost, else any.",
)
@click.option(
    "--proxy-headers",
    is_flag=True,
    help="A proxy is trusted: take the client's address and scheme from X-Forwarded-For and "
    "X-Forwarded-Proto when the connection comes from --forwarded-allow-ips. Without it "
    "those headers are ignored, so that no client can escape the limits per address.",
)
@click.option(
    "--forwarded-allow-ips",
    default="127.0.0.1",
    show_default=True,
    metavar="IPS",
    help="With --proxy-headers: the proxy's addresses (comma-separated, or *).",
)
@click.option(
    "--request-timeout",
    type=click.FloatRange(min=0.1),
    default=REQUEST_TIMEOUT,
    show_default=True,
    help="Seconds a request's head and body have to arrive; then the connection is closed.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    default=MAX_CONNECTIONS,
    show_default=True,
    help="Connections served at once (HTTP and websockets); beyond it requests get a 503.",
)
@click.option(
    "--connections-per-client",
    type=click.IntRange(min=1),
    default=CONNECTIONS_PER_CLIENT,
    show_default=True,
    help="HTTP connections one client address may hold open (not with --proxy-headers).",
)
def serve_command(
    host: str,
    port: int,
    db_path: Path | None,
    allowed_origins: tuple[str, ...],
    allowed_hosts: tuple[str, ...],
    proxy_headers: bool,
    forwarded_allow_ips: str,
    request_timeout: float,
    max_connections: int,
    connections_per_client: int,
) -> None:
    """Serve the web app: play every one-player game in the browser.

    Limits of requests and connections, and their defaults: docs/web.md, "Limits"."""
    import sqlite3

    try:
        import uvicorn

        from ..server import create_app
        from ..server.limits import checked_origins
        from ..server.serving import serve_config
    except ImportError as error:
        missing_extra(error, "web", "the web app", WEB_MODULES)
        raise
    from ..store import StoreError
    from ..study.winnable import WinnableDealPicker

    try:
        checked_origins(allowed_origins)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--allowed-origin") from None
    path = db_path or default_db_path()
    try:
        app = create_app(
            path,
            hinter=hint_json,
            deal_picker=WinnableDealPicker(),
            allowed_origins=allowed_origins,
            allowed_hosts=host_names(host, allowed_hosts),
        )
    except StoreError as error:
        raise click.ClickException(str(error)) from None
    except (OSError, sqlite3.Error) as error:
        raise click.ClickException(f"cannot open the store {path}: {error}") from None
    try:
        app.state.store.check_writable()
    except sqlite3.Error as error:
        raise click.ClickException(
            f"cannot write the store {path}: {error} (the server stores every move; give it "
            "a store it can write with --db)"
        ) from None
    click.echo(f"patience: serving on http://{host}:{port}/ (store: {path})")
    config = serve_config(
        app,
        host=host,
        port=port,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
        request_timeout=request_timeout,
        max_connections=max_connections,
        connections_per_client=connections_per_client,
    )
    try:
        uvicorn.Server(config).run()
    except KeyboardInterrupt:  # uvicorn stopped cleanly, then passed the signal on
        click.echo("patience: stopped", err=True)
