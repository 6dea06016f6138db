"""``patience serve`` stopped by Ctrl-C at the terminal (SIGINT to its whole process group,
hint workers included): it stops cleanly, says so, and no worker prints a traceback."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from server_helpers import free_port


def _wait_until_serving(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server stopped before serving"
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not start within a minute")


def test_ctrl_c_stops_the_server_and_its_hint_workers_quietly(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    command = [sys.executable, "-c", "from patience.cli import main; main()", "serve"]
    command += ["--port", str(port)]
    command += ["--db", str(tmp_path / "store.sqlite3")]
    with log.open("wb") as output:
        server = subprocess.Popen(
            command,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            # As from a terminal: a shell that starts the tests in the background ignores
            # SIGINT for them, which the server would inherit and never see.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    try:
        _wait_until_serving(url + "/", server)
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        request = urllib.request.Request(
            url + "/api/tables",
            data=json.dumps({"game": "klondike", "deal": 5}).encode(),
            headers={"content-type": "application/json"},
        )
        with opener.open(request, timeout=60) as response:
            table = json.load(response)["table"]
        with opener.open(f"{url}/api/tables/{table}/hint", timeout=120) as response:
            assert "move" in json.load(response)  # a hint worker process is running now
        os.killpg(server.pid, signal.SIGINT)
        assert server.wait(timeout=60) == 0
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    text = log.read_text()
    assert "patience: stopped" in text
    assert "Traceback" not in text
    assert "KeyboardInterrupt" not in text
    assert "Aborted" not in text
