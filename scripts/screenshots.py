"""Retake the web app's screenshots in docs/ (docs/web.md and README.md show them).

Run from the project root, with chromium installed (as for tests/browser):

    .venv/bin/python scripts/screenshots.py              # writes docs/screenshot-*.png
    .venv/bin/python scripts/screenshots.py --out DIR    # somewhere else, to compare

It serves the web app on a free port with a fresh store (in a temporary folder), and takes each
page at a desktop's size (1280x800) and a phone's (390x844, ``-phone`` in the name), as the
screen shows it (not the whole page): the start page, Klondike (deal 7) and Spider (deal 7)
after a few moves, and a Leopard table of four, one person and three greedy bots (deal 3, the
bots seeded), once it is the person's turn. Deals and seeds are fixed, so the pictures change
only when the pages do.
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from patience.server import create_app
from patience.server.serving import serve_config

CHROMIUM = "/usr/bin/chromium"
SIZES = {"": (1280, 800), "-phone": (390, 844)}


def serve(db: Path) -> tuple[str, Any]:
    """The web app served in a thread; its URL and the uvicorn server."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        app = create_app(db)
    server = uvicorn.Server(serve_config(app, host="127.0.0.1", port=port))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server


def one_player(page: Page, url: str, game: str, options: dict[str, Any], moves: int) -> None:
    """A new table of ``game`` at deal 7, with its first ``moves`` card moves made."""
    made = page.request.post(
        f"{url}/api/tables", data={"game": game, "options": options, "deal": 7}
    ).json()
    table = made["table"]
    for turn in range(moves):
        state = page.request.get(f"{url}/api/tables/{table}").json()
        if not state["view"]["legal_moves"]:
            break
        legal = state["view"]["legal_moves"]
        # Card moves first, not always the first one (it may only take the last one back).
        ordered = sorted(legal, key=lambda move: "from" not in move)
        ordered = ordered[turn % len(ordered) :] + ordered[: turn % len(ordered)]
        for move in ordered:
            answer = page.request.post(
                f"{url}/api/tables/{table}", data={"command": "move", "move": move}
            )
            if answer.ok:
                break
    page.goto(f"{url}/play/{table}")
    page.wait_for_selector("svg.board .card")


def leopard(page: Page, url: str) -> None:
    made = page.request.post(
        f"{url}/api/shared",
        data={
            "game": "leopard",
            "options": {"players": 4},
            "seats": ["open", "greedy", "greedy", "greedy"],
            "deal": 3,
            "seed": 1,
        },
    ).json()
    page.goto(url + made["url"])
    page.fill("#mp-name", "You")
    page.click('button[data-join="0"]')
    page.wait_for_selector("svg.mp-hand .card")
    page.wait_for_selector('[data-testid="facts"]:has-text("Your turn.")')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        url, server = serve(Path(folder) / "store.sqlite3")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        shots = {
            "start": lambda page: page.goto(f"{url}/"),
            "klondike": lambda page: one_player(page, url, "klondike", {}, 6),
            "spider": lambda page: one_player(page, url, "spider", {"suits": 2}, 8),
            "leopard": lambda page: leopard(page, url),
        }
        for name, take in shots.items():
            for suffix, (width, height) in SIZES.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                page.request.post(f"{url}/api/player", data={"name": "Ann"})
                take(page)
                page.wait_for_timeout(400)  # the board is fitted after the fonts settle
                path = args.out / f"screenshot-{name}{suffix}.png"
                page.screenshot(path=str(path))
                print(path)
                page.close()
        browser.close()
        server.should_exit = True


if __name__ == "__main__":
    main()
