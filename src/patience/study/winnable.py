"""Proved-winnable deals: the lists shipped with the package, and the web app's deal picker.

``src/patience/data/winnable/<game>.json`` holds, per set of options, deals that a study proved
winnable (``patience study export-winnable`` writes it):

    {"game": "klondike",
     "lists": [{"options": {...every option...}, "solver": 1, "studied": 100,
                "deals": [1, 3, ...]}]}

:class:`WinnableDealPicker` deals from those lists, and for options without a list solves
random deals on demand within a budget until one is proved won.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ..deals import random_deal
from ..engine import Game, Rules
from ..options import OptionValue
from ..solve import solve, solver_version
from .db import options_key

__all__ = [
    "NoWinnableDeal",
    "WinnableDealPicker",
    "load_lists",
    "packaged_dir",
    "shipped_deals",
    "write_list",
]


class NoWinnableDeal(ValueError):
    """No deal could be proved winnable within the picker's budget."""


def packaged_dir() -> Traversable:
    """The package's folder of winnable-deal lists (``patience/data/winnable``)."""
    return resources.files("patience") / "data" / "winnable"


def load_lists(game: str, folder: Traversable | Path | None = None) -> dict[str, list[int]]:
    """The lists for ``game``: canonical options JSON -> deals; empty when none is shipped."""
    path = (folder if folder is not None else packaged_dir()) / f"{game}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {
        options_key(entry["options"]): [int(deal) for deal in entry["deals"]]
        for entry in data.get("lists", [])
    }


def shipped_deals(rules: Rules[Any], folder: Traversable | Path | None = None) -> list[int]:
    """The shipped proved-winnable deals of ``rules``' game and options (maybe none)."""
    return load_lists(rules.name, folder).get(options_key(rules.options), [])


def write_list(
    path: Path,
    game: str,
    options: dict[str, OptionValue],
    deals: Sequence[int],
    studied: int,
) -> None:
    """Put the list of ``deals`` for ``options`` into the file at ``path`` (replacing the list
    for the same options, keeping the others)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {"game": game, "lists": []}
    if data.get("game") != game:
        raise ValueError(f"{path} holds the lists of {data.get('game')!r}, not {game!r}")
    key = options_key(options)
    lists = [entry for entry in data["lists"] if options_key(entry["options"]) != key]
    lists.append(
        {
            "options": dict(options),
            "solver": solver_version(game),
            "studied": studied,
            "deals": sorted(set(deals)),
        }
    )
    lists.sort(key=lambda entry: options_key(entry["options"]))
    # One line per list: short files that still diff by options.
    entries = ",\n  ".join(json.dumps(entry) for entry in lists)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'{{"game": {json.dumps(game)}, "lists": [\n  {entries}\n]}}\n', encoding="utf-8"
    )


class WinnableDealPicker:
    """The web app's ``deal_picker``: a random deal, or for "winnable deals only" a random
    shipped proved-winnable deal of the game and options; when none is shipped for those
    options, random deals are solved (``seconds_per_deal`` each, ``total_seconds`` in all)
    until one is won. Wins found that way are remembered as a fallback for when a later search
    finds none in time.
    """

    def __init__(
        self,
        *,
        seconds_per_deal: float = 1.0,
        total_seconds: float = 8.0,
        rng: random.Random | None = None,
        folder: Traversable | Path | None = None,
        new_deal: Callable[[], int] = random_deal,
    ) -> None:
        self.seconds_per_deal = seconds_per_deal
        self.total_seconds = total_seconds
        self.rng = rng or random.Random()
        self.folder = folder
        self.new_deal = new_deal
        self.found: dict[tuple[str, str], list[int]] = {}

    def __call__(self, rules: Rules[Any], winnable: bool) -> int:
        """A deal number for a new table of ``rules``; :class:`NoWinnableDeal` if winnable
        deals are asked for and none is found within the budget."""
        if not winnable:
            return self.new_deal()
        shipped = shipped_deals(rules, self.folder)
        if shipped:
            return self.rng.choice(shipped)
        return self.solve_on_demand(rules)

    def solve_on_demand(self, rules: Rules[Any]) -> int:
        """Solve random deals until one is proved won or the time is up."""
        found = self.found.setdefault((rules.name, options_key(rules.options)), [])
        start = time.monotonic()
        while (left := self.total_seconds - (time.monotonic() - start)) > 0:
            deal = self.new_deal()
            budget = min(self.seconds_per_deal, left)
            if solve(Game.create(rules, deal=deal), seconds=budget).result == "won":
                found.append(deal)
                return deal
        if found:
            return self.rng.choice(found)
        raise NoWinnableDeal(
            f"no deal of {rules.title} ({rules.options_text()}) was proved winnable within "
            f"{self.total_seconds:g} s: try again, or choose a deal"
        )
