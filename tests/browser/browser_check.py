"""Whether the browser tests can run, and what happens when they cannot.

Without chromium (or the playwright package) the browser tests fail, saying how to get it, so
that `make test` cannot pass with its browser tests silently left out; the environment variable
``PATIENCE_SKIP_BROWSER=1`` says to skip them instead (a machine without chromium, on purpose).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SKIP_VARIABLE = "PATIENCE_SKIP_BROWSER"


def unavailable(reason: str, environ: Mapping[str, str] | None = None) -> NoReturn:
    """Skip the browser test if ``PATIENCE_SKIP_BROWSER=1`` asks to, else fail it, saying
    ``reason`` and how to run or skip the browser tests."""
    environ = os.environ if environ is None else environ
    if environ.get(SKIP_VARIABLE) == "1":
        pytest.skip(f"{reason} ({SKIP_VARIABLE}=1: the browser tests are skipped)")
    pytest.fail(
        f"{reason}: install it (`make test` installs Debian's chromium when run as root) or set "
        f"{SKIP_VARIABLE}=1 to skip the browser tests",
        pytrace=False,
    )


def check_chromium(chromium: Path = CHROMIUM, environ: Mapping[str, str] | None = None) -> Path:
    """``chromium`` if it is there; otherwise :func:`unavailable`."""
    if not chromium.exists():
        unavailable(f"{chromium} is missing", environ)
    return chromium
