"""Sessions in chromium: a name claimed on one browser's statistics page, logged in to from
another (each browser a context of its own: no cookie shared), a wrong password said in words,
statistics shown to others only when the player chooses, and logging out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher
from playwright.sync_api import expect

from conftest import LiveServer

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    live = LiveServer(tmp_path_factory.mktemp("sessions") / "store.sqlite3", password_hasher=cheap)
    live.start()
    yield live
    live.stop()


@pytest.fixture
def pages(browser: Any) -> Iterator[list[Any]]:
    """Three browsers: each page in a context of its own."""
    opened = [browser.new_page(viewport={"width": 1000, "height": 800}) for _ in range(3)]
    errors: list[str] = []
    for page in opened:
        page.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    for page in opened:
        page.close()
    assert errors == []


def account_form(page: Any, name: str, password: str, button: str) -> None:
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.get_by_role("button", name=button).click()


def test_a_name_claimed_in_one_browser_reaches_its_statistics_from_another(
    pages: list[Any], server: LiveServer
) -> None:
    home, phone, stranger = pages
    made = home.request.post(f"{server.url}/api/tables", data={"game": "klondike", "deal": 5})
    table = made.json()["table"]
    home.request.post(f"{server.url}/api/tables/{table}", data={"command": "resign"})
    home.goto(f"{server.url}/stats")
    expect(home.locator('table.stats tr[data-title="Klondike"]')).to_contain_text("0%")
    account_form(home, "Ann", PASSWORD, "Claim this name")
    expect(home.locator("section.account")).to_contain_text("You are logged in as Ann")
    # Another browser: nothing of Ann's until it logs in (the name in any case).
    phone.goto(f"{server.url}/stats")
    expect(phone.get_by_text("No games played yet.")).to_be_visible()
    account_form(phone, "ANN", PASSWORD, "Log in")
    expect(phone.locator("section.account")).to_contain_text("You are logged in as Ann")
    expect(phone.locator('table.stats tr[data-title="Klondike"]')).to_contain_text("0%")
    phone.goto(f"{server.url}/play/{table}")
    expect(phone.locator('[data-testid="moves"]')).to_have_text("0")
    # A wrong password, said in words; and Ann's statistics are private.
    stranger.goto(f"{server.url}/stats")
    account_form(stranger, "ann", "not the password", "Log in")
    expect(stranger.get_by_test_id("account-message")).to_have_text("wrong password for Ann")
    stranger.goto(f"{server.url}/stats?player=ann")
    expect(stranger.get_by_role("alert")).to_contain_text("the statistics of Ann are private")
    # Ann shows them: now anybody sees them.
    home.goto(f"{server.url}/stats")
    home.get_by_label("Show my statistics to others").check()
    expect(home.get_by_test_id("account-message")).to_contain_text("Anybody may see")
    stranger.goto(f"{server.url}/stats?player=ann")
    expect(stranger.locator('table.stats tr[data-title="Klondike"]')).to_contain_text("0%")
    expect(stranger.locator("section.account")).to_have_count(0)  # not his own page
    # The phone logs out: its browser owns nothing again.
    phone.goto(f"{server.url}/stats")
    phone.get_by_role("button", name="Log out").click()
    expect(phone.get_by_text("No games played yet.")).to_be_visible()
    expect(phone.locator("#account-name")).to_be_visible()
