"""The create-table form (/tables) in chromium: the options it sends follow the rule book's
defaults for the number of players chosen, and what it says about each field."""

from __future__ import annotations

import re
from typing import Any


def create_and_read(page: Any, server_url: str) -> dict[str, Any]:
    """Submit the form, wait for the table's page; the table's state from the API."""
    page.click("form.mp-create button[type=submit]")
    page.wait_for_url(re.compile(r"/table/"))
    table = page.url.rsplit("/", 1)[1]
    state: dict[str, Any] = page.request.get(f"{server_url}/api/shared/{table}").json()
    return state


def test_the_deals_follow_the_number_of_players(browser: Any, server_url: str) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + "/tables")
    page.select_option("#mp-game", "leopard")
    deals = "#mp-leopard-deals"
    assert page.input_value(deals) == "8"
    # Three players: six deals a match (RULES.md), shown and created so.
    page.select_option("#mp-leopard-players", "3")
    assert page.input_value(deals) == "6"
    page.select_option("#mp-leopard-players", "4")
    assert page.input_value(deals) == "8"
    page.select_option("#mp-leopard-players", "3")
    assert page.locator(".mp-seats select").count() == 3
    state = create_and_read(page, server_url)
    assert state["options"] == {"players": 3, "deals": 6, "target": "off"}

    # A value the user typed is his: it stays when the number of players changes.
    page.goto(server_url + "/tables")
    page.select_option("#mp-game", "leopard")
    page.fill(deals, "5")
    page.select_option("#mp-leopard-players", "3")
    assert page.input_value(deals) == "5"
    state = create_and_read(page, server_url)
    assert state["options"] == {"players": 3, "deals": 5, "target": "off"}
    assert not errors
    page.close()


def test_the_absence_is_checked_and_the_stand_in_chosen(browser: Any, server_url: str) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(server_url + "/tables")
    page.select_option("#mp-game", "double-solitaire")
    help = page.text_content("#mp-absence-help") or ""
    assert "more than 0 and at most 86400 seconds" in help
    for wrong in ("abc", "0", "-5", "90000", ""):
        page.fill("#mp-absence", wrong)
        page.click("form.mp-create button[type=submit]")
        error = page.locator("form.mp-create .error")
        assert "more than 0 and at most 86400" in (error.text_content() or ""), wrong
        assert page.get_attribute("#mp-absence", "aria-invalid") == "true"
        assert page.url.endswith("/tables")  # nothing was created
    page.fill("#mp-absence", "90")
    page.select_option("#mp-stand-in", "random")
    state = create_and_read(page, server_url)
    assert state["absence"] == 90
    assert state["stand_in"] == "random"
    page.close()


def test_a_listed_table_is_in_the_lobby_and_joined_from_it(browser: Any, server_url: str) -> None:
    from playwright.sync_api import expect

    creator = browser.new_page(viewport={"width": 1000, "height": 900})
    creator.request.post(f"{server_url}/api/player", data={"name": "Lobbyist"})
    creator.goto(server_url + "/tables")
    # The header names the player on this page too.
    expect(creator.locator("#who")).to_have_text("Player: Lobbyist")
    creator.select_option("#mp-game", "leopard")
    expect(creator.locator("label.mp-seats, .mp-seats label").first).to_have_text("seat 1")
    assert not creator.locator("#mp-listed").is_checked()  # listed only when chosen
    creator.check("#mp-listed")
    creator.select_option("#mp-seat-1", "random")
    made = create_and_read(creator, server_url)
    assert made["seats"][1]["kind"] == "bot"
    listed_id = made["table"]
    # Another table, not listed.
    creator.goto(server_url + "/tables")
    unlisted_id = create_and_read(creator, server_url)["table"]

    visitor = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        visitor.goto(server_url + "/tables")
        entry = visitor.locator(f'.mp-lobby-list li[data-table="{listed_id}"]')
        expect(entry).to_contain_text("Leopard")
        expect(entry).to_contain_text("1 seat free of 2 · 1 bot")
        expect(visitor.locator(f'.mp-lobby-list li[data-table="{unlisted_id}"]')).to_have_count(0)
        assert visitor.evaluate("document.documentElement.scrollWidth") <= 390
        entry.get_by_role("link", name=re.compile("Join")).click()
        visitor.wait_for_url(re.compile(f"/table/{listed_id}"))
        visitor.fill("#mp-name", "Visitor")
        visitor.get_by_role("button", name="Sit in seat 1").click()
        expect(visitor.locator('[data-testid="message"]')).to_contain_text("You joined as Visitor")
        # Full now: the lobby lists only tables with a free seat.
        visitor.goto(server_url + "/tables")
        expect(visitor.locator('[data-testid="lobby-empty"]')).to_be_visible()
        # A table listed meanwhile shows on Refresh (and by itself within 15 s).
        later = creator.request.post(
            f"{server_url}/api/shared",
            data={"game": "double-solitaire", "seats": ["open", "greedy"], "listed": True},
        ).json()["table"]
        visitor.get_by_role("button", name="Refresh").click()
        expect(visitor.locator(f'.mp-lobby-list li[data-table="{later}"]')).to_contain_text(
            "Double Solitaire"
        )
    finally:
        visitor.close()
        creator.close()


def test_how_to_play_is_reachable_from_a_shared_table(browser: Any, server_url: str) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1000, "height": 900})
    for game in ("leopard", "double-solitaire"):
        made = page.request.post(
            f"{server_url}/api/shared", data={"game": game, "seats": ["open", "greedy"]}
        ).json()
        page.goto(server_url + made["url"])
        button = page.get_by_role("button", name="How to play")
        button.click()
        panel = page.locator("#rules-panel")
        expect(panel.locator("h1")).to_contain_text("how to play")
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(panel.locator("h2").last).to_have_text("Settings")
        text = panel.text_content() or ""
        for developers in ("src/", ".py", "patience ", "-o "):
            assert developers not in text
        panel.get_by_role("button", name="Close").click()
        expect(panel).to_be_hidden()
        expect(button).to_have_attribute("aria-expanded", "false")
    page.close()


def test_how_to_play_opened_before_the_state_fills_in(browser: Any, server_url: str) -> None:
    """The button is there before the websocket's first state: the panel fills when it comes."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1000, "height": 900})
    held: list[Any] = []
    routes: list[Any] = []

    def hold_the_server(route: Any) -> None:
        server = route.connect_to_server()
        routes.append(route)
        server.on_message(lambda message: held.append(message))

    page.route_web_socket(re.compile(r"/ws/shared/"), hold_the_server)
    made = page.request.post(
        f"{server_url}/api/shared", data={"game": "leopard", "seats": ["open", "greedy"]}
    ).json()
    page.goto(server_url + made["url"])
    page.get_by_role("button", name="How to play").click()
    panel = page.locator("#rules-panel")
    expect(panel).to_contain_text("Loading")
    for _ in range(200):  # the held state reaches the route within moments
        if held:
            break
        page.wait_for_timeout(50)
    assert routes
    assert held, "the table's state should have been held back"
    expect(panel.locator("h1")).to_have_count(0)
    for message in held:
        routes[0].send(message)
    expect(panel.locator("h1")).to_contain_text("how to play")
    page.close()
