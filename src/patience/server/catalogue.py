"""What the pages say about games: the catalogues of the start pages, each option's label, and a
game's options in words (a variant's title, a table's heading). One table of words serves every
game, played alone or by several; an option it does not name reads as its own name."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..engine import Rules
from ..games import GAMES, get_rules
from ..options import OptionValue

__all__ = [
    "OPTION_TEXT",
    "DealPicker",
    "DescribesWinnable",
    "PicksApart",
    "catalogue",
    "full_options",
    "game_entry",
    "one_player_games",
    "option_label",
    "option_phrases",
    "shared_games",
    "table_heading",
    "variant_title",
    "winnable_entry",
]

#: Chooses a deal number for new tables: ``picker(rules, winnable)``. The hook for the solver's
#: "winnable deals only"; without one, deals are random and ``winnable`` is refused. A grade of
#: winnable deals is asked only of a picker that :class:`PicksApart` (its ``pick`` takes it).
DealPicker = Callable[[Rules[Any], bool], int]


def one_player_games() -> list[str]:
    """The games played alone (the start page's)."""
    return [name for name, rules in list(GAMES.items()) if rules().players == 1]


def shared_games() -> list[str]:
    """The games of several players (the shared tables' page's)."""
    return [name for name, rules in list(GAMES.items()) if rules().players > 1]


def _plural(count: object, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _passes(value: OptionValue) -> str:
    return "unlimited passes" if value == "unlimited" else _plural(value, "pass", "passes")


def _count(one: str, many: str) -> Callable[[OptionValue], str]:
    return lambda value: _plural(value, one, many)


def _on_off(on: str, off: str) -> Callable[[OptionValue], str]:
    return lambda value: on if value else off


def _unless_off(words: Callable[[OptionValue], str]) -> Callable[[OptionValue], str]:
    # "off" says nothing worth a heading's room: the phrase is left out.
    return lambda value: "" if value == "off" else words(value)


#: Per game and option: a readable label for the pages' forms, and how a value reads in a
#: variant's title ("Spider, 1 suit") or a table's heading ("Leopard · 3 players"); an empty
#: phrase is left out. An option not here reads as its name.
OPTION_TEXT: dict[str, dict[str, tuple[str, Callable[[OptionValue], str]]]] = {
    "klondike": {
        "draw": ("Cards turned from the stock", lambda value: f"draw {value}"),
        "passes": ("Passes through the stock", _passes),
        "from_foundation": (
            "Cards back from the foundations",
            _on_off("cards back from the foundations", "no cards back from the foundations"),
        ),
    },
    "spider": {
        "layout": ("Cards in the starting layout", lambda value: f"{value}-card layout"),
        "auto_remove": (
            "Complete suits leave by themselves",
            _on_off("complete suits leave by themselves", "complete suits removed by hand"),
        ),
        "suits": ("Suits", _count("suit", "suits")),
    },
    "canfield": {
        "draw": ("Cards turned from the stock", lambda value: f"draw {value}"),
        "passes": ("Passes through the stock", _passes),
        "move": ("Moves between tableau piles", lambda value: f"moves: {value}"),
        "spaces": ("Spaces filled from", lambda value: f"spaces from the {value}"),
    },
    "accordion": {
        "dealing": (
            "Dealing",
            lambda value: "all dealt at the start" if value == "all" else "dealt one at a time",
        ),
    },
    "leonis-own": {
        "exile": ("Exile turned up when stuck", lambda value: f"exile: {value}"),
    },
    "leopard": {
        "players": ("Players", _count("player", "players")),
        "deals": (
            "Deals in a match",
            _unless_off(lambda value: f"{_plural(value, 'deal')} a match"),
        ),
        "target": ("Target score", _unless_off(lambda value: f"first to {value} points")),
    },
    "double-solitaire": {
        "passes": (
            "Passes through the stock",
            lambda value: f"{_plural(value, 'pass', 'passes')} through the stock",
        ),
        "auto_stop": (
            "Call stop automatically",
            _on_off("automatic stop", "stop called by the players"),
        ),
    },
}


def option_label(game: str, option: str) -> str:
    """A readable label of ``game``'s option ``option`` ("Cards turned from the stock")."""
    known = OPTION_TEXT.get(game, {}).get(option)
    return known[0] if known else option.replace("_", " ").capitalize()


def _phrase(game: str, option: str, value: OptionValue) -> str:
    known = OPTION_TEXT.get(game, {}).get(option)
    if known:
        return known[1](value)
    shown = ("on" if value else "off") if isinstance(value, bool) else value
    return f"{option.replace('_', ' ')} {shown}"


def full_options(game: str, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """``options`` of ``game`` with the defaults filled in (as a table of those options plays),
    or as given when they are no longer valid (an old store, a renamed game)."""
    try:
        return dict(get_rules(game, dict(options)).options)
    except ValueError:
        return dict(options)


def variant_title(game: str, options: Mapping[str, OptionValue]) -> str:
    """The game's title with its options that differ from the defaults, in readable words:
    "Spider, 1 suit", "Klondike, draw 1", "Klondike" for the defaults. A game this program
    does not know is named as stored; options no longer valid are left out."""
    try:
        rules = get_rules(game, dict(options))
    except ValueError:
        return GAMES[game].title if game in GAMES else game
    return ", ".join([rules.title, *option_phrases(rules)])


def option_phrases(rules: Rules[Any]) -> list[str]:
    """The options of ``rules`` that differ from the game's defaults, in readable words
    ("1 suit", "draw 1"); empty for the defaults."""
    defaults = get_rules(rules.name).options
    phrases = [
        _phrase(rules.name, name, value)
        for name, value in rules.options.items()
        if defaults.get(name) != value
    ]
    return [phrase for phrase in phrases if phrase]


def table_heading(rules: Rules[Any]) -> str:
    """A table's game and every option as a person reads them: "Leopard · 4 players · 8 deals
    a match", "Double Solitaire · 1 pass through the stock · automatic stop"."""
    phrases = [_phrase(rules.name, name, value) for name, value in rules.options.items()]
    return " · ".join([rules.title, *(phrase for phrase in phrases if phrase)])


def game_entry(name: str) -> dict[str, Any]:
    """A game's catalogue entry for the pages: name, title, summary, players and its options
    (kind, readable label, allowed values, default, help); for a game whose defaults depend on
    the number of players (Leopard: 6 deals with three), every option's default for each number
    of players (``defaults_by_players``)."""
    rules = GAMES[name]
    entry: dict[str, Any] = {
        "name": name,
        "title": rules.title,
        "summary": rules.summary,
        "players": rules().players,
        "options": [
            {
                "name": spec.name,
                "label": option_label(name, spec.name),
                "kind": spec.kind,
                "choices": list(spec.choices),
                "default": spec.default,
                "allowed": spec.allowed(),
                "help": spec.help,
            }
            for spec in rules.option_specs
        ],
    }
    players = next((o for o in entry["options"] if o["name"] == "players"), None)
    if players is not None:
        entry["defaults_by_players"] = {
            str(count): dict(get_rules(name, {"players": count}).options)
            for count in players["choices"]
        }
    return entry


@runtime_checkable
class DescribesWinnable(Protocol):
    """A deal picker that can say how it deals winnable deals of a game (which options have a
    shipped list of proved deals, which are searched for on demand); see
    :func:`patience.study.winnable.winnable_info` for the fields."""

    def winnable_info(self, game: str) -> dict[str, Any]:
        """How winnable deals of ``game`` are dealt."""
        ...


@runtime_checkable
class PicksApart(Protocol):
    """A deal picker whose choice can run on a copy of it (in a worker process, pickled) while
    what it learns is kept by the original: the server draws a seed from the original, has the
    copy pick with it, and gives back to the original the deals proved winnable on the way
    (:class:`patience.study.winnable.WinnableDealPicker` is one). A deal picker that is not
    one is simply called, in the worker, on its copy."""

    def next_seed(self) -> int:
        """A seed for one :meth:`pick` (from the original's own generator)."""
        ...

    def pick(
        self, rules: Rules[Any], winnable: bool, seed: int, grade: str | None = None
    ) -> tuple[int, list[int]]:
        """The deal for a new table of ``rules`` (of ``grade`` among the picker's graded
        winnable deals, when given), and the deals proved winnable on the way; the picker is
        left unchanged. A ``ValueError`` says why no deal could be chosen (a grade it cannot
        deal among them)."""
        ...

    def remember(self, rules: Rules[Any], found: Sequence[int]) -> None:
        """Keep ``found`` (:meth:`pick`'s deals proved winnable under ``rules``)."""
        ...


def winnable_entry(name: str, deal_picker: DealPicker | None) -> dict[str, Any]:
    """The catalogue's ``winnable`` field for game ``name``: ``available`` (the server can deal
    winnable deals at all), ``lists`` (options with a shipped list of proved deals, and how many
    deals), ``default_listed`` (the default options have one), ``rarely`` (options under which
    a deal is rarely proved in the time allowed, with a note) and ``seconds`` (the budget of a
    search on demand; None when unknown). A list's ``grades`` (the number of deals of each
    grade) says that a grade may be asked for with those options."""
    entry: dict[str, Any] = {
        "available": deal_picker is not None,
        "lists": [],
        "default_listed": False,
        "rarely": [],
        "seconds": None,
    }
    if isinstance(deal_picker, DescribesWinnable):
        entry.update(deal_picker.winnable_info(name))
    return entry


def catalogue(deal_picker: DealPicker | None = None) -> list[dict[str, Any]]:
    """Every one-player game with its summary, options (kind, allowed values, default) and how
    "winnable deals only" works for it with ``deal_picker`` (:func:`winnable_entry`), for the
    start page."""
    return [
        {**game_entry(name), "winnable": winnable_entry(name, deal_picker)}
        for name in one_player_games()
    ]
