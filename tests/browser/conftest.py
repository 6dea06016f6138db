"""Browser tests: Playwright driving Debian's chromium (/usr/bin/chromium) against a live server.

Playwright never downloads a browser here: it launches the system's chromium by path. Without
chromium or the playwright package the tests fail, saying so, unless ``PATIENCE_SKIP_BROWSER=1``
asks to skip them (browser_check.py); ``make test`` installs chromium first when run as root.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_check import check_chromium, unavailable

from server_helpers import free_port

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


#: How long a page's waits and actions may take (Playwright's default is 30 s): make test runs
#: a test process a core beside the servers and browsers, and a loaded machine slows all three.
PAGE_TIMEOUT_MS = 60_000


class _Browser:
    """The launched browser, whose pages and contexts wait up to :data:`PAGE_TIMEOUT_MS`."""

    def __init__(self, launched: Any) -> None:
        self._launched = launched

    def new_page(self, **options: Any) -> Any:
        page = self._launched.new_page(**options)
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        return page

    def new_context(self, **options: Any) -> Any:
        context = self._launched.new_context(**options)
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._launched, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = check_chromium()
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        unavailable("the playwright package is missing (pip install -e '.[test]')")
    expect.set_options(timeout=PAGE_TIMEOUT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        yield _Browser(launched)
        launched.close()


class LiveServer:
    """The web app served by uvicorn in a thread, on a port of its own; it can be stopped and
    started again on the same port (a server restart, for the websocket's reconnection)."""

    def __init__(self, db_path: Path, serving: dict[str, Any] | None = None, **hooks: Any) -> None:
        self.db_path = db_path
        self.serving = serving or {}  # serve_config's options (short limits for tests)
        self.hooks = hooks
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> LiveServer:
        import uvicorn

        from patience.server import create_app
        from patience.server.serving import serve_config

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            app = create_app(self.db_path, **self.hooks)
        # As `patience serve` runs it (cli/web.py), so that limits are tested as served.
        config = serve_config(app, host="127.0.0.1", port=self.port, **self.serving)
        self._server = server = uvicorn.Server(config)
        self._thread = thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                pytest.fail("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = self._thread = None


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    """A live server (uvicorn in a thread) with a fresh store; its base URL."""
    server = LiveServer(tmp_path / "browser.sqlite3").start()
    yield server.url
    server.stop()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "serving(**options): serve_config options of `live`")
    config.addinivalue_line("markers", "hooks(**options): create_app options of `live`")
