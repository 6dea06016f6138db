"""The browser front end: static files (HTML, CSS, plain ES modules) served by
:mod:`patience.server`. Cards are drawn as SVG by ``cards.js``; ``layout.js`` places each game's
piles; the page receives views only (docs/web.md)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["WEB_DIR"]

#: The directory holding the front end's files.
WEB_DIR = Path(__file__).resolve().parent
