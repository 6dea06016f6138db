"""The start page in chromium: how "winnable deals only" is described and searched for, option
labels, and the page on a phone."""

from __future__ import annotations

import json
import re
import threading
import time
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
        if winnable and rules.options.get("suits") == 4:
            # As the real picker answers when its search finds nothing: a long message.
            raise ValueError(
                f"no deal of {rules.title} ({rules.options_text()}) was proved winnable within "
                "8 s; the solver rarely proves a deal of Spider with 4 suits winnable in the "
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
    live = LiveServer(
        tmp_path_factory.mktemp("start") / "store.sqlite3",
        deal_picker=picker,
        worker_processes=False,  # the stand-in waits on the test's event: it is not pickled
    )
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


def open_settings(page: Any, *games: str) -> None:
    """Opens the settings of each game's tile (its options, deal and "winnable deals only")."""
    for game in games:
        button = page.locator(f'form[data-game="{game}"] .settings-button')
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")


def test_winnable_deals_are_described_and_searched_for_visibly(
    page: Any, server: LiveServer, picker: SlowPicker
) -> None:
    page.goto(f"{server.url}/")
    open_settings(page, "klondike", "spider", "napoleon")
    klondike = page.locator('form[data-game="klondike"] label.winnable')
    expect(klondike).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    spider = page.locator('form[data-game="spider"]')
    note = spider.locator("label.winnable")
    expect(note).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    # Every four-suit layout has its list since the studies (6 December 2026); with suits
    # removed by the player there is none, and four suits are rarely proved on demand.
    spider.locator('select[name="auto_remove"]').select_option("false")
    expect(note).to_contain_text("searched for on demand for up to 8 s")
    expect(note).to_contain_text("rarely proves a deal of Spider with 4 suits winnable")
    spider.locator('select[name="auto_remove"]').select_option("true")
    spider.locator('select[name="layout"]').select_option("54")
    expect(note).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    spider.locator('select[name="layout"]').select_option("50")
    # Two suits (the seed's layout) and one suit (both layouts) have shipped lists since
    # their 10,000-deal studies.
    spider.locator('select[name="suits"]').select_option("2")
    expect(note).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    spider.locator('select[name="suits"]').select_option("1")
    expect(note).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    spider.locator('select[name="layout"]').select_option("54")
    expect(note).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    # Two suits in the 54-card layout too, since its study (6 December 2026).
    spider.locator('select[name="suits"]').select_option("2")
    expect(note).to_contain_text(re.compile(r"dealt from \d+ deals the solver has proved"))
    spider.locator('select[name="suits"]').select_option("1")
    spider.locator('select[name="layout"]').select_option("50")
    # Klondike without cards back from the foundations has no list, and is not among the
    # rarely proved.
    klondike_form = page.locator('form[data-game="klondike"]')
    klondike_form.locator('select[name="from_foundation"]').select_option("false")
    expect(klondike).to_contain_text("may not be found")
    expect(klondike).not_to_contain_text("rarely")
    klondike_form.locator('select[name="from_foundation"]').select_option("true")
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
        open_settings(page, "klondike", "spider")
        label = page.locator('label[for="klondike-from_foundation"]')
        expect(label).to_contain_text("Cards back from the foundations")
        expect(label.locator("code.option-key")).to_have_text("from_foundation")
        spider = page.locator('form[data-game="spider"]')
        spider.locator('select[name="suits"]').select_option("4")
        spider.locator('input[name="winnable"]').check()
        spider.locator("button[type=submit]").click()
        error = spider.locator(".error")
        expect(error).to_contain_text("rarely proves a deal of Spider with 4 suits")
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
    open_settings(page, "spider")
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


def test_games_are_tiles_played_in_one_click_with_remembered_options(
    page: Any, server: LiveServer
) -> None:
    page.goto(f"{server.url}/")
    tiles = page.locator("form.tile")
    expect(tiles.first).to_be_visible()
    games = page.request.get(f"{server.url}/api/games").json()
    assert tiles.count() == len(games)
    # Each tile: a picture of its layout (drawn, no image file), its name and one Play button;
    # its settings are hidden until asked for.
    for game in games:
        tile = page.locator(f'form[data-game="{game["name"]}"]')
        assert tile.locator("svg.layout-picture rect").count() >= 8
        expect(tile.locator("h2")).to_have_text(game["title"])
        expect(tile.locator("button.play")).to_have_text(f"Play {game['title']}")
        expect(tile.locator("fieldset.settings")).to_be_hidden()
        expect(tile.locator('[data-testid="chosen"]')).to_have_text("Standard rules")
    klondike = page.locator('form[data-game="klondike"]')
    open_settings(page, "klondike")
    klondike.locator('select[name="draw"]').select_option("1")
    chosen = klondike.locator('[data-testid="chosen"]')
    expect(chosen).to_have_text("Cards turned from the stock: 1")
    # Remembered in this browser: a new visit shows them, and one click plays with them.
    page.reload()
    expect(chosen).to_have_text("Cards turned from the stock: 1")
    expect(klondike.locator("fieldset.settings")).to_be_hidden()
    klondike.locator("button.play").click()
    page.wait_for_url(re.compile(r"/play/"))
    table = page.url.rsplit("/", 1)[1]
    state = page.request.get(f"{server.url}/api/tables/{table}").json()
    assert state["options"]["draw"] == 1
    # A stored value the game no longer allows is ignored, not sent (in a new session: the
    # server keeps only values the game allows, and its choices come first).
    page.context.clear_cookies()
    page.goto(f"{server.url}/")
    page.evaluate("localStorage.setItem('patience.options.klondike', '{\"draw\": \"7\"}')")
    page.reload()
    expect(chosen).to_have_text("Standard rules")


def test_settings_open_from_the_keyboard(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/")
    button = page.locator('form[data-game="spider"] .settings-button')
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(button).to_have_attribute("aria-label", "Settings for Spider")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    settings = page.locator("#spider-settings")
    expect(settings).to_be_visible()
    # The focus goes to the first setting, which is labelled.
    focused = page.evaluate("document.activeElement.id")
    assert focused.startswith("spider-")
    expect(page.locator(f'label[for="{focused}"]')).to_have_count(1)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(settings).to_be_hidden()


def test_the_start_page_is_about_a_screen_tall_on_a_phone(browser: Any, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{server.url}/")
        expect(page.locator("form.tile").first).to_be_visible()
        # It was 3,300 px tall (a wall of option forms): now the tiles, two a row.
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= 1100, height
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        first, second = (page.locator("form.tile").nth(i).bounding_box() for i in (0, 1))
        assert first is not None
        assert second is not None
        assert first["y"] == second["y"]  # side by side
        # Opened settings take the whole row.
        open_settings(page, "spider")
        box = page.locator('form[data-game="spider"]').bounding_box()
        assert box is not None
        assert box["width"] > 350
    finally:
        page.close()


def luminance(colour: str) -> float:
    """The relative brightness (0-1) of a CSS rgb()/rgba() colour."""
    red, green, blue = (int(part) for part in re.findall(r"\d+", colour)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


def test_the_dark_theme_follows_the_system_setting(page: Any, server: LiveServer) -> None:
    def colours() -> dict[str, str]:
        result: dict[str, str] = page.evaluate(
            """() => {
              const style = (node) => getComputedStyle(node);
              const tile = document.querySelector("form.tile");
              const button = tile.querySelector(".settings-button");
              return { page: style(document.documentElement).backgroundColor,
                ink: style(document.documentElement).color,
                tile: style(tile).backgroundColor, button: style(button).backgroundColor };
            }"""
        )
        return result

    page.emulate_media(color_scheme="dark")
    page.goto(f"{server.url}/")
    expect(page.locator("form.tile").first).to_be_visible()
    dark = colours()
    assert luminance(dark["page"]) < 0.15
    assert luminance(dark["tile"]) < 0.2
    assert luminance(dark["button"]) < 0.25
    assert luminance(dark["ink"]) > 0.8
    page.emulate_media(color_scheme="light")
    light = colours()
    assert luminance(light["page"]) > 0.9
    assert luminance(light["tile"]) > 0.9
    assert luminance(light["ink"]) < 0.2


def test_every_game_has_a_how_to_play_for_players_at_its_table(
    page: Any, server: LiveServer
) -> None:
    for game in page.request.get(f"{server.url}/api/games").json():
        made = page.request.post(f"{server.url}/api/tables", data={"game": game["name"]}).json()
        page.goto(f"{server.url}/play/{made['table']}")
        page.get_by_role("button", name="How to play", exact=True).click()
        panel = page.locator("#rules-panel")
        expect(panel.locator("h1")).to_have_text(re.compile(f"^{re.escape(game['title'])}"))
        expect(panel.locator("h1")).to_contain_text("how to play")
        # How to play, then the settings in words; nothing for developers.
        expect(panel.locator("h2").last).to_have_text("Settings")
        text = panel.text_content() or ""
        for developers in ("src/", ".py", "patience new", "-o ", "`"):
            assert developers not in text, (game["name"], developers)


def test_the_score_shown_at_the_table_is_chosen_on_the_start_page(
    page: Any, server: LiveServer
) -> None:
    page.goto(f"{server.url}/")
    page.click('form[data-game="klondike"] button.play')
    page.wait_for_url(re.compile(r"/play/"))
    score = page.locator('[data-testid="score"]')
    expect(score).to_have_text(" · Score 0")  # standard scoring by default
    page.goto(f"{server.url}/")
    open_settings(page, "klondike")
    page.select_option("#klondike-scoring", "vegas")
    chosen = page.locator('form[data-game="klondike"] [data-testid="chosen"]')
    expect(chosen).to_have_text("Standard rules")  # a setting of the page, not of the rules
    page.click('form[data-game="klondike"] button.play')
    page.wait_for_url(re.compile(r"/play/"))
    expect(score).to_have_text(" · Vegas $-52")
    table = page.url.rsplit("/", 1)[1]
    assert "scoring" not in page.request.get(f"{server.url}/api/tables/{table}").json()["options"]
    # Spider: 500 to start; a game without a scoring shows time and moves only.
    page.goto(f"{server.url}/")
    page.click('form[data-game="spider"] button.play')
    page.wait_for_url(re.compile(r"/play/"))
    expect(score).to_have_text(" · Score 500")
    page.goto(f"{server.url}/")
    page.click('form[data-game="canfield"] button.play')
    page.wait_for_url(re.compile(r"/play/"))
    expect(page.locator('[data-testid="clock"]')).to_be_visible()
    expect(score).to_have_text("")


def test_a_phone_table_leaves_the_board_most_of_the_screen(
    browser: Any, server: LiveServer
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        made = page.request.post(f"{server.url}/api/tables", data={"game": "klondike", "deal": 7})
        page.goto(f"{server.url}/play/{made.json()['table']}")
        board = page.locator("svg.board")
        expect(board.locator(".card").first).to_be_visible()
        box = board.bounding_box()
        assert box is not None
        # The header, the facts and the toolbar took 41% of the screen (the board's top at
        # 347 px): now at most a quarter.
        assert box["y"] <= 844 * 0.25, box
        toolbar = page.locator(".table-page .toolbar")
        row = toolbar.bounding_box()
        assert row is not None
        assert row["height"] <= 48  # one row, scrolled sideways inside itself
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # Every button of the row is still there: scrolled into view, it can be clicked.
        rules = page.get_by_role("button", name="How to play", exact=True)
        rules.scroll_into_view_if_needed()
        rules.click()
        expect(page.locator("#rules-panel h1")).to_be_visible()
        # The player's name is in the header, beside the brand.
        who = page.locator("#who").bounding_box()
        brand = page.locator("header .brand").bounding_box()
        assert who is not None
        assert brand is not None
        assert abs(who["y"] - brand["y"]) < 12
    finally:
        page.close()


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two CSS rgb() colours."""

    def relative(colour: str) -> float:
        channels = [int(part) / 255 for part in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted([relative(first), relative(second)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_the_dark_theme_keeps_the_keyboard_skip_link_and_labels(
    browser: Any, server: LiveServer, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    page = browser.new_page(viewport={"width": width, "height": height}, color_scheme="dark")
    # Automatic moves off: the moves counted below are the keyboard's only.
    page.add_init_script("localStorage.setItem('patience.autoplay', '0')")
    try:
        made = page.request.post(f"{server.url}/api/tables", data={"game": "klondike", "deal": 7})
        page.goto(f"{server.url}/play/{made.json()['table']}")
        expect(page.locator("svg.board .card").first).to_be_visible()
        focused = (
            "document.activeElement.getAttribute('aria-label')"
            " ?? document.activeElement.textContent"
        )
        page.keyboard.press("Tab")
        assert page.evaluate(focused) == "Skip to the table"
        expect(page.locator(".skip-link")).to_be_in_viewport()
        page.keyboard.press("Enter")
        assert page.evaluate(focused) == "stock: 24 cards, face down"
        page.keyboard.press("Enter")  # the stock turns, from the keyboard
        expect(page.locator('[data-testid="moves"]')).to_have_text("1")
        # Text is readable on the dark page: the facts, a button, the skip link.
        pairs = page.evaluate(
            """() => {
              const style = (selector) => getComputedStyle(document.querySelector(selector));
              const page = getComputedStyle(document.documentElement).backgroundColor;
              return [[style(".table-page .facts").color, page],
                [style(".toolbar button").color, style(".toolbar button").backgroundColor],
                [style(".skip-link").color, style(".skip-link").backgroundColor]];
            }"""
        )
        for ink, ground in pairs:
            assert luminance(ground) < 0.3
            assert contrast(ink, ground) >= 4.5, (ink, ground)
        # Every field of the page has a label, as in the light theme.
        unlabelled = page.evaluate(
            """() => [...document.querySelectorAll("input, select")].filter((node) =>
                !node.labels?.length && !node.getAttribute("aria-label")).map((n) => n.outerHTML)"""
        )
        assert unlabelled == []
        page.goto(f"{server.url}/")
        expect(page.locator("form.tile").first).to_be_visible()
        unlabelled = page.evaluate(
            """() => [...document.querySelectorAll("input, select")].filter((node) =>
                !node.labels?.length && !node.getAttribute("aria-label")).map((n) => n.outerHTML)"""
        )
        assert unlabelled == []
    finally:
        page.close()


def test_a_new_game_that_would_abandon_an_unfinished_one_asks_first(
    page: Any, server: LiveServer
) -> None:
    made = page.request.post(f"{server.url}/api/tables", data={"game": "klondike", "deal": 7})
    table = made.json()["table"]
    moved = page.request.post(
        f"{server.url}/api/tables/{table}", data={"command": "move", "move": "t7-f1"}
    )
    assert moved.ok
    page.goto(f"{server.url}/")
    # Another game starts without a question.
    page.locator('form[data-game="spider"] button.play').click()
    page.wait_for_url(re.compile(r"/play/"))
    page.goto(f"{server.url}/")
    page.locator('form[data-game="klondike"] button.play').click()
    dialog = page.locator("dialog.confirm[open]")
    expect(dialog).to_contain_text("deal 7, 1 move")
    # Escape stays on the page; the question comes again; going back opens the unfinished table.
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert "/play/" not in page.url
    page.locator('form[data-game="klondike"] button.play').click()
    dialog.get_by_test_id("back-to-it").click()
    page.wait_for_url(f"**/play/{table}")
    # Starting anyway makes a new table.
    page.goto(f"{server.url}/")
    page.locator('form[data-game="klondike"] button.play').click()
    dialog.get_by_test_id("abandon").click()
    page.wait_for_url(re.compile(r"/play/"))
    assert not page.url.endswith(table)


def test_the_games_settings_follow_the_player_to_another_browser(
    browser: Any, server: LiveServer
) -> None:
    first = browser.new_context()
    page = first.new_page()
    try:
        page.goto(f"{server.url}/")
        open_settings(page, "klondike")
        page.locator('form[data-game="klondike"] select[name="draw"]').select_option("1")
        chosen = page.locator('form[data-game="klondike"] [data-testid="chosen"]')
        expect(chosen).to_have_text("Cards turned from the stock: 1")
        # The server keeps them for the session: a browser of the same session (its cookies,
        # none of its localStorage) shows them.
        # Asked from Python with the session's cookies, until the server has the choice (a
        # promise polled in the page could count as true before it settled: flaky under load).
        deadline = time.monotonic() + 30
        while True:
            player = first.request.get(f"{server.url}/api/player").json()
            if player["choices"].get("klondike", {}).get("options", {}).get("draw") == "1":
                break
            assert time.monotonic() < deadline, f"the choice was never stored: {player}"
            time.sleep(0.05)
        second = browser.new_context(storage_state={"cookies": first.cookies(), "origins": []})
        other = second.new_page()
        other.goto(f"{server.url}/")
        expect(other.locator('form[data-game="klondike"] [data-testid="chosen"]')).to_have_text(
            "Cards turned from the stock: 1"
        )
        second.close()
    finally:
        first.close()


# Klondike's default options graded, draw 1 listed without grades (a test folder of lists); few
# easy deals, so that a deal of any grade would rarely pass for one.
GRADED = {"easy": [1, 2], "medium": list(range(3, 11)), "hard": list(range(11, 31))}


@pytest.fixture(scope="module")
def graded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from patience.games import get_rules
    from patience.study.winnable import WinnableDealPicker

    folder = tmp_path_factory.mktemp("lists")
    lists = [
        {
            "options": dict(get_rules("klondike").options),
            "deals": list(range(1, 31)),
            "grades": GRADED,
        },
        {"options": dict(get_rules("klondike", {"draw": 1}).options), "deals": [7, 8]},
    ]
    (folder / "klondike.json").write_text(json.dumps({"game": "klondike", "lists": lists}))
    picker = WinnableDealPicker(folder=folder, seconds_per_deal=0.01, total_seconds=0.02)
    live = LiveServer(tmp_path_factory.mktemp("graded") / "store.sqlite3", deal_picker=picker)
    live.start()
    yield live
    live.stop()


def test_a_grade_is_offered_for_graded_lists_and_deals_from_it(
    page: Any, graded_server: LiveServer
) -> None:
    page.goto(f"{graded_server.url}/")
    open_settings(page, "klondike")
    klondike = page.locator('form[data-game="klondike"]')
    grade = klondike.get_by_label("Winnable deals of grade")
    expect(grade).to_be_hidden()  # not without "winnable deals only"
    klondike.locator('input[name="winnable"]').check()
    expect(grade).to_be_visible()
    expect(grade.locator("option")).to_have_text(
        ["any", "easy (2 deals)", "medium (8 deals)", "hard (20 deals)"]
    )
    klondike.locator('select[name="draw"]').select_option("1")  # a list with no grades
    expect(grade).to_be_hidden()
    klondike.locator('select[name="draw"]').select_option("3")
    expect(grade).to_be_visible()
    grade.select_option("easy")
    expect(klondike.locator('[data-testid="chosen"]')).to_contain_text("winnable deals only (easy)")
    klondike.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/"))
    deal = page.locator('[data-testid="deal"]')
    expect(deal).to_have_text(re.compile(r"^\d+$"))
    assert int(deal.inner_text()) in GRADED["easy"]
    # Back on the start page the grade is still chosen (remembered with the choices).
    page.goto(f"{graded_server.url}/")
    open_settings(page, "klondike")
    expect(klondike.get_by_label("Winnable deals of grade")).to_have_value("easy")
