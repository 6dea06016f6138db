"""The start page in chromium: how "winnable deals only" is described and searched for, option
labels, and the page on a phone."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from conftest import LiveServer
from patience.study.winnable import winnable_info


class SlowPicker:
    """A deal picker that describes the real shipped lists, and whose search for a winnable
    deal waits until the test lets it go (so the page can be seen searching)."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, rules: Any, winnable: bool) -> int:
        if winnable and rules.options.get("suits") == 2:
            # As the real picker answers when its search finds nothing: a long message.
            raise ValueError(
                f"no deal of {rules.title} ({rules.options_text()}) was proved winnable within "
                "8 s; the solver rarely proves a deal of Spider with 2 suits winnable in the "
                'time allowed: play without "winnable deals only", or choose other options'
            )
        if winnable:
            self.release.wait(10)
            return 4242
        return 11

    def winnable_info(self, game: str) -> dict[str, Any]:
        return winnable_info(game, seconds=8.0)


@pytest.fixture(scope="module")
def picker() -> SlowPicker:
    return SlowPicker()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, picker: SlowPicker) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("start") / "store.sqlite3", deal_picker=picker)
    live.start()
    yield live
    picker.release.set()
    live.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert errors == []


def test_winnable_deals_are_described_and_searched_for_visibly(
    page: Any, server: LiveServer, picker: SlowPicker
) -> None:
    page.goto(f"{server.url}/")
    klondike = page.locator('form[data-game="klondike"] label.winnable')
    expect(klondike).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    spider = page.locator('form[data-game="spider"]')
    note = spider.locator("label.winnable")
    expect(note).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    spider.locator('select[name="layout"]').select_option("54")
    expect(note).to_contain_text("searched for on demand for up to 8 s")
    expect(note).to_contain_text("rarely proves a deal of Spider with 4 suits winnable")
    spider.locator('select[name="layout"]').select_option("50")
    spider.locator('select[name="suits"]').select_option("2")
    expect(note).to_contain_text("may not be found")
    expect(note).not_to_contain_text("rarely")
    spider.locator('select[name="suits"]').select_option("1")
    expect(note).to_contain_text("may not be found")
    expect(note).not_to_contain_text("rarely")
    napoleon = page.locator('form[data-game="napoleon"] label.winnable')
    expect(napoleon).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))

    spider.locator('input[name="winnable"]').check()
    button = spider.locator("button[type=submit]")
    button.click()
    expect(button).to_have_text("Searching for a winnable deal…")
    expect(button).to_be_disabled()
    picker.release.set()
    page.wait_for_url(re.compile(r"/play/"))
    expect(page.locator('[data-testid="deal"]')).to_have_text("4242")


def test_statistics_rows_are_per_game_and_options_and_times_read_as_at_the_table(
    page: Any, server: LiveServer
) -> None:
    import sqlite3

    from patience.store import Store

    # A won Spider, 1 suit that took 3.6 s (the table's banner says 0:03), a lost four-suit
    # one, an unfinished Klondike, draw 1.
    with Store(server.db_path) as store:
        for table, options, result in [("w", {"suits": 1}, "won"), ("l", {}, "lost")]:
            store.create_table(table, "spider", options, 5, ["stats-ann"])
            store.append_event(table, 0, 0, "resign", None, result=result, reason="", moves=9)
        store.create_table("u", "klondike", {"draw": 1}, 5, ["stats-ann"])
        store.append_event("u", 0, 0, "move", "stock", result="ongoing", reason="", moves=1)
    db = sqlite3.connect(server.db_path)
    db.execute("UPDATE tables SET finished = created + 3.6 WHERE id = 'w'")
    db.commit()
    db.close()
    # The tables were stored under a name (before sessions): this browser still has the old name
    # cookie, so its session takes them over, and they are its own statistics.
    page.context.add_cookies([{"name": "patience_player", "value": "stats-ann", "url": server.url}])
    page.goto(f"{server.url}/stats")
    one_suit = page.locator('table.stats tr[data-title="Spider, 1 suit"]')
    expect(one_suit).to_contain_text("0:03")
    expect(page.locator('table.stats tr[data-title="Spider"]')).to_contain_text("0%")
    page.goto(f"{server.url}/")
    expect(page.locator("section.resume li")).to_have_text(["Klondike, draw 1 · deal 5 · 1 moves"])


def test_on_a_phone_labels_are_readable_and_nothing_runs_past_its_card(
    browser: Any, server: LiveServer
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{server.url}/")
        label = page.locator('label[for="klondike-from_foundation"]')
        expect(label).to_contain_text("Cards back from the foundations")
        expect(label.locator("code.option-key")).to_have_text("from_foundation")
        spider = page.locator('form[data-game="spider"]')
        spider.locator('select[name="suits"]').select_option("2")
        spider.locator('input[name="winnable"]').check()
        spider.locator("button[type=submit]").click()
        error = spider.locator(".error")
        expect(error).to_contain_text("rarely proves a deal of Spider with 2 suits")
        expect(spider.locator("button[type=submit]")).to_be_enabled()
        # Every label, note and message lies inside its card, and the page does not scroll
        # sideways.
        outside = page.evaluate(
            """() => [...document.querySelectorAll("form.game")].flatMap((form) => {
                const card = form.getBoundingClientRect();
                return [...form.querySelectorAll("label, code, small, .error, .winnable-note")]
                  .filter((node) => {
                    const box = node.getBoundingClientRect();
                    if (!box.width) return false;  // not shown (an empty message)
                    return box.left < card.left - 0.5 || box.right > card.right + 0.5
                      || node.scrollWidth > node.clientWidth + 1;
                  })
                  .map((node) => `${form.dataset.game}: ${node.textContent}`);
            })"""
        )
        assert outside == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.close()


def test_a_new_winnable_deal_at_the_table_shows_the_search(
    page: Any, server: LiveServer, picker: SlowPicker
) -> None:
    picker.release.set()
    page.goto(f"{server.url}/")
    spider = page.locator('form[data-game="spider"]')
    spider.locator('select[name="suits"]').select_option("1")
    spider.locator('input[name="winnable"]').check()
    spider.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/"))
    first = page.url
    picker.release.clear()
    new_deal = page.get_by_role("button", name="New deal")
    new_deal.click()
    expect(page.get_by_text("Searching for a winnable deal…")).to_be_visible()
    expect(new_deal).to_be_disabled()
    picker.release.set()
    expect(page).not_to_have_url(first)
    expect(new_deal).to_be_enabled()
    expect(page.get_by_text("Searching for a winnable deal…")).to_have_count(0)


def test_the_statistics_page_fits_a_phone(browser: Any, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.request.post(f"{server.url}/api/player", data={"name": "Phone"})
        for deal, options in ((3, {}), (4, {"draw": 1, "passes": 3})):
            created = page.request.post(
                f"{server.url}/api/tables",
                data={"game": "klondike", "deal": deal, "options": options},
            )
            table = created.json()["table"]
            page.request.post(f"{server.url}/api/tables/{table}", data={"command": "resign"})
        page.goto(f"{server.url}/stats")
        expect(page.locator("table.stats")).to_contain_text("Klondike, draw 1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.close()
