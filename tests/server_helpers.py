"""Stand-ins for the server's hooks that run in its worker processes: they are pickled to the
worker, which imports this module by name (``tests/`` is on the path pytest gives the fork
server; a test module's own functions would drag the test module and its imports along)."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now, for a server a test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The deal a stand-in picker's search "finds", and the deal it gives when none is asked for.
FOUND_DEAL = 4242
RANDOM_DEAL = 11


class HoldingPicker:
    """A deal picker whose search for a winnable deal holds the interpreter lock the whole time
    it runs: one C call (``sum`` over a long range) that never lets it go, as the worst search
    would. It writes ``searching`` in ``marks`` once it is about to start and ``searched`` once
    done, so a test can tell whether something was answered meanwhile. With ``die`` set, the
    search ends its process instead (as if it were killed, or ran out of memory)."""

    def __init__(self, marks: Path, size: int = 10**8) -> None:
        self.marks = marks
        self.size = size
        self.die = False

    def __call__(self, rules: Any, winnable: bool) -> int:
        if not winnable:
            return RANDOM_DEAL
        if self.die:
            os._exit(1)
        self._mark("searching", str(os.getpid()))
        total = sum(range(self.size))
        self._mark("searched", str(total))
        return FOUND_DEAL

    def _mark(self, name: str, text: str) -> None:
        # Written whole, then named: a test that sees the mark reads all of it (written in
        # place, the file could be seen empty, before its text).
        draft = self.marks / f"{name}.draft"
        draft.write_text(text)
        os.replace(draft, self.marks / name)
