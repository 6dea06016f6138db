"""``patience serve``: the web app on uvicorn, with its SQLite store (docs/web.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..engine import Game
from .common import data_dir, missing_extra

__all__ = ["DB_NAME", "WEB_MODULES", "default_db_path", "hint_json", "serve_command"]

#: The packages that the web extra (``pip install 'patience[web]'``) brings and the web app
#: imports: the server is imported only when ``patience serve`` runs.
WEB_MODULES = ("starlette", "uvicorn", "markdown_it")

#: The store's file name in the data directory.
DB_NAME = "patience.sqlite3"


def default_db_path() -> Path:
    """Where ``patience serve`` keeps its store: ``patience.sqlite3`` in the data directory
    (``$PATIENCE_HOME``, else the user data directory)."""
    return data_dir() / DB_NAME


def hint_json(game: Game) -> dict[str, Any]:
    """The honest hint for the web page (``GET /api/tables/ID/hint``): ``{"move", "move_json",
    "chance", "samples", "exact"}``, from the player's view alone, at the default budget."""
    from ..solve import hint

    return hint(game).to_json()


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
def serve_command(host: str, port: int, db_path: Path | None) -> None:
    """Serve the web app: play every one-player game in the browser."""
    import sqlite3

    try:
        import uvicorn

        from ..server import MAX_FRAME, create_app
    except ImportError as error:
        missing_extra(error, "web", "the web app", WEB_MODULES)
        raise
    from ..store import StoreError
    from ..study.winnable import WinnableDealPicker

    path = db_path or default_db_path()
    try:
        app = create_app(path, hinter=hint_json, deal_picker=WinnableDealPicker())
    except StoreError as error:
        raise click.ClickException(str(error)) from None
    except (OSError, sqlite3.Error) as error:
        raise click.ClickException(f"cannot open the store {path}: {error}") from None
    click.echo(f"patience: serving on http://{host}:{port}/ (store: {path})")
    uvicorn.run(app, host=host, port=port, ws_max_size=MAX_FRAME, log_level="warning")
