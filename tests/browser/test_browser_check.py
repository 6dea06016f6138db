"""Missing chromium fails the browser tests unless PATIENCE_SKIP_BROWSER=1 asks to skip them."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_check import SKIP_VARIABLE, check_chromium


def test_missing_chromium_fails_and_says_what_to_do(tmp_path: Path) -> None:
    missing = tmp_path / "chromium"
    with pytest.raises(pytest.fail.Exception) as failed:
        check_chromium(missing, environ={})
    message = str(failed.value)
    assert f"{missing} is missing" in message
    assert "install" in message
    assert f"{SKIP_VARIABLE}=1" in message


@pytest.mark.parametrize("value", ["0", "", "yes"])
def test_only_the_value_1_skips(tmp_path: Path, value: str) -> None:
    with pytest.raises(pytest.fail.Exception):
        check_chromium(tmp_path / "chromium", environ={SKIP_VARIABLE: value})


def test_missing_chromium_skips_when_asked(tmp_path: Path) -> None:
    with pytest.raises(pytest.skip.Exception) as skipped:
        check_chromium(tmp_path / "chromium", environ={SKIP_VARIABLE: "1"})
    assert f"{SKIP_VARIABLE}=1" in str(skipped.value)


def test_present_chromium_is_used(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.touch()
    assert check_chromium(chromium, environ={}) == chromium
