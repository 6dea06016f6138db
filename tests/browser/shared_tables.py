"""Helpers of the shared-table browser tests: the true game a table holds, and the card names in
a message."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import patience
from patience.games import get_rules
from patience.moves import Move
from patience.store import Store

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def true_game(db: Path, table: str, seq: int | None = None) -> patience.Game:
    """The table's game as the server holds it (after ``seq`` moves), replayed from the store."""
    with Store(db) as store:
        row = store.table(table)
        assert row is not None
        game = patience.Game.create(get_rules(row.game, row.options), deal=row.deal)
        for event in store.events(table)[:seq]:
            assert event.move is not None
            game.push(Move.parse(event.move))
    return game


def card_strings(data: object) -> list[str]:
    """Every card name (``Th``) among the strings of a JSON value."""
    if isinstance(data, str):
        return [data] if CARD.match(data) else []
    if isinstance(data, dict):
        return [card for value in data.values() for card in card_strings(value)]
    if isinstance(data, list):
        return [card for value in data for card in card_strings(value)]
    return []


def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll ``condition`` from Python. (Playwright's ``wait_for_function`` polls by evaluating
    a string inside the page, which the pages' security policy forbids.)"""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not so after {timeout:g} s")
        time.sleep(0.05)


def received_states(
    frames: list[str], db: Path, table: str
) -> Iterator[tuple[dict[str, Any], patience.Game]]:
    """Each table state among the websocket ``frames`` a page received, with the true game at
    that state's ``seq``."""
    for frame in frames:
        message = json.loads(frame)
        state = message.get("state", message)
        if state.get("type") == "state":
            yield state, true_game(db, table, state["seq"])
