"""Tables: games being played, kept in memory and in the store, and the commands they take.

This is the game protocol without its transport: HTTP requests and websocket messages both come
here as *commands* (``move``, ``undo``, ``redo``, ``restart``, ``resign``) from a seat, and every
seat receives its *state*: the game's view for that seat (``Game.view``) and the table's facts
(deal, move count, clock). A state never holds the position itself: face-down cards, the order of
a stock and other seats' hands stay on the server.

Every command is applied to the game in memory, then written to the store, and only then
answered; if the store refuses, the table is dropped from memory and rebuilt from the store, so
memory never runs ahead of what is stored. A table not in memory (after a restart of the server)
is rebuilt by replaying its stored events.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..deals import check_deal
from ..engine import Game, IllegalMove, Rules
from ..games import GAMES, get_rules, resolve_name
from ..moves import Move, MoveSyntaxError
from ..options import OptionValue
from ..store import Event, Store, StoreError

__all__ = [
    "COMMANDS",
    "CommandError",
    "DealPicker",
    "DescribesWinnable",
    "Table",
    "Tables",
    "autofinish_moves",
    "catalogue",
    "full_options",
    "one_player_games",
    "option_label",
    "variant_title",
    "winnable_entry",
]

#: The commands a seat may send; ``move`` carries the move (text or JSON form).
COMMANDS = ("move", "undo", "redo", "restart", "resign")

#: Piles that must be empty (when a game has them) before an automatic finish is offered.
STOCK_PILES = ("stock", "waste")

#: More foundation moves than any game's pack has cards: a bound on the automatic finish.
AUTOFINISH_LIMIT = 1000

#: How many tables stay in memory; others are rebuilt from the store when next used.
CACHE_SIZE = 256

#: Chooses a deal number for new tables: ``picker(rules, winnable)``. The hook for the solver's
#: "winnable deals only"; without one, deals are random and ``winnable`` is refused.
DealPicker = Callable[[Rules[Any], bool], int]


class CommandError(ValueError):
    """A command refused: ``status`` is the HTTP status that fits (400 malformed, 403 not your
    table, 404 no such table, 409 out of date, 422 against the rules); nothing was changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Table:
    """A table in memory: its game, its seats (player names) and the number of stored events."""

    id: str
    game: Game
    seats: list[str | None]
    created: float
    events: int
    finished: float | None = None
    #: Serialises commands at this table: one is applied and stored before the next starts.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    def seat_of(self, player: str) -> int:
        """The seat ``player`` holds (names compared without regard to case)."""
        for seat, name in enumerate(self.seats):
            if name is not None and name.casefold() == player.casefold():
                return seat
        raise CommandError(403, f"{player} has no seat at this table")

    def elapsed(self, now: float | None = None) -> float:
        """Seconds from the table's start to its end, or to now while it goes on."""
        end = self.finished if self.finished is not None else (now or time.time())
        return max(0.0, end - self.created)

    def state(self, seat: int) -> dict[str, Any]:
        """What ``seat`` is sent after every change: the view and the table's facts."""
        game = self.game
        view = game.view(seat)
        rules = game.rules
        return {
            "table": self.id,
            "game": game.name,
            "title": rules.title,
            "options": view["options"],
            "options_text": rules.options_text(),
            "options_words": ", ".join(option_phrases(rules)) or "default options",
            # One-player tables show their deal number (it can be copied and dealt again); a
            # table of several players must not send it before the end, since the deal number
            # gives every hidden card.
            "deal": game.deal if len(self.seats) == 1 else None,
            "seats": self.seats,
            "seat": seat,
            "view": view,
            "moves": len(game.move_stack),
            "can_undo": bool(game.move_stack),
            "can_redo": game.can_redo(),
            "events": self.events,
            "elapsed": round(self.elapsed(), 1),
            "outcome": view["outcome"],
            "can_autofinish": seat == game.current_player() and autofinish_moves(game) is not None,
        }


def _is_foundation(pile: str | None) -> bool:
    return pile is not None and pile.startswith("f") and pile[1:].isdigit()


def autofinish_moves(game: Game) -> list[Move] | None:
    """The foundation moves that win the game from here, when only such moves are needed; else
    None.

    Offered for any game when no card anywhere is face down, the stock and waste (if the game has
    them) are empty, and making legal moves to foundations (f1, f2, ...) only, the first
    candidate each time, ends in a win. The game itself is not touched: the moves are tried on
    copies of its state.
    """
    if game.outcome().is_over:
        return None
    rules, state = game.rules, game.state
    if any(state.down.get(name, 0) for name in state.piles):
        return None
    if any(state.piles.get(name) for name in STOCK_PILES):
        return None
    moves: list[Move] = []
    while rules.finished(state) is None and len(moves) < AUTOFINISH_LIMIT:
        move = next(
            (
                candidate
                for candidate in rules.candidate_moves(state)
                if not candidate.is_action and _is_foundation(candidate.target)
            ),
            None,
        )
        if move is None:
            return None
        state, _ = rules.perform(state, move)
        moves.append(move)
    outcome = rules.finished(state)
    return moves if outcome is not None and outcome.result == "won" else None


def one_player_games() -> list[str]:
    """The games played alone: the ones this server deals (tables of several players are
    the next step)."""
    return [name for name, rules in GAMES.items() if rules().players == 1]


def _passes(value: OptionValue) -> str:
    return (
        "unlimited passes"
        if value == "unlimited"
        else f"{value} pass" + ("" if value == 1 else "es")
    )


def _count(one: str, many: str) -> Callable[[OptionValue], str]:
    return lambda value: f"{value} {one if value == 1 else many}"


def _on_off(on: str, off: str) -> Callable[[OptionValue], str]:
    return lambda value: on if value else off


#: Per game and option: a readable label for the start page's form, and how a value reads in a
#: game's title ("Spider, 1 suit", "Klondike, draw 1"). An option not here reads as its name.
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
    return [
        _phrase(rules.name, name, value)
        for name, value in rules.options.items()
        if defaults.get(name) != value
    ]


def game_entry(name: str) -> dict[str, Any]:
    """A game's catalogue entry for the pages: name, title, summary, players and its options
    (kind, readable label, allowed values, default, help)."""
    rules = GAMES[name]
    return {
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


@runtime_checkable
class DescribesWinnable(Protocol):
    """A deal picker that can say how it deals winnable deals of a game (which options have a
    shipped list of proved deals, which are searched for on demand); see
    :func:`patience.study.winnable.winnable_info` for the fields."""

    def winnable_info(self, game: str) -> dict[str, Any]:
        """How winnable deals of ``game`` are dealt."""
        ...


def winnable_entry(name: str, deal_picker: DealPicker | None) -> dict[str, Any]:
    """The catalogue's ``winnable`` field for game ``name``: ``available`` (the server can deal
    winnable deals at all), ``lists`` (options with a shipped list of proved deals, and how many
    deals), ``default_listed`` (the default options have one), ``rarely`` (options under which
    a deal is rarely proved in the time allowed, with a note) and ``seconds`` (the budget of a
    search on demand; None when unknown)."""
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


class Tables:
    """Every table of a server: created here, kept in a bounded cache, rebuilt from the store."""

    def __init__(self, store: Store, deal_picker: DealPicker | None = None) -> None:
        self.store = store
        self.deal_picker = deal_picker
        self._cache: OrderedDict[str, Table] = OrderedDict()

    # -- creating and finding ----------------------------------------------------------------

    def create(
        self,
        game_name: object,
        options: object,
        deal: object,
        player: str,
        *,
        winnable: bool = False,
    ) -> Table:
        """A new one-player table of ``game_name`` for ``player``; a bad game, option or deal
        number is a :class:`CommandError` (400) saying what is allowed."""
        if not isinstance(game_name, str):
            raise CommandError(
                400, f"'game' must be a game name: one of {', '.join(one_player_games())}"
            )
        if options is None:
            options = {}
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise CommandError(400, "'options' must be an object of option name -> value")
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int | str)):
            raise CommandError(400, "'deal' must be a whole number, or null for a random deal")
        try:
            rules = get_rules(resolve_name(game_name), dict(options))
            if rules.players != 1:
                raise CommandError(
                    400,
                    f"{rules.name} is played by {rules.players}; this server deals the one-player "
                    f"games: {', '.join(one_player_games())}",
                )
            if deal is None or deal == "":
                if winnable:
                    if self.deal_picker is None:
                        raise CommandError(
                            400, "winnable deals need the solver, which this server does not have"
                        )
                    deal = self.deal_picker(rules, True)
                elif self.deal_picker is not None:
                    deal = self.deal_picker(rules, False)
                else:
                    deal = None
            elif winnable:
                raise CommandError(400, "choose a deal number or winnable deals, not both")
            else:
                deal = check_deal(deal)
            game = Game.create(rules, deal=deal)
        except CommandError:
            raise
        except ValueError as error:  # an unknown game, option or a bad deal number
            raise CommandError(400, str(error)) from None
        table_id = secrets.token_urlsafe(12)
        seats: list[str | None] = [player]
        self.store.create_table(table_id, game.name, game.options, game.deal, seats)
        row = self.store.table(table_id)
        assert row is not None
        table = Table(table_id, game, seats, row.created, 0)
        self._remember(table)
        return table

    def get(self, table_id: str) -> Table:
        """The table ``table_id``, from memory or rebuilt from the store (404 if none)."""
        table = self._cache.get(table_id)
        if table is not None:
            self._cache.move_to_end(table_id)
            return table
        row = self.store.table(table_id)
        if row is None:
            raise CommandError(404, f"there is no table {table_id!r}")
        game = Game.create(get_rules(row.game, row.options), deal=row.deal)
        for event in self.store.events(table_id):
            _replay(game, event)
        table = Table(row.id, game, row.seats, row.created, row.events, row.finished)
        self._remember(table)
        return table

    def forget(self, table_id: str) -> None:
        """Drop a table from memory (it is rebuilt from the store when next used)."""
        self._cache.pop(table_id, None)

    def _remember(self, table: Table) -> None:
        self._cache[table.id] = table
        self._cache.move_to_end(table.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    # -- commands ----------------------------------------------------------------------------

    def command(self, table: Table, seat: int, data: object) -> None:
        """Apply a command (``{"command": ..., "move": ...}``) from ``seat``, then store it.

        Raises :class:`CommandError` and changes nothing when the command is malformed, out of
        date (``"events"`` given and not the table's count) or against the rules.
        """
        if not isinstance(data, Mapping):
            raise CommandError(400, 'a command is a JSON object like {"command": "undo"}')
        kind = data.get("command")
        if kind not in COMMANDS:
            raise CommandError(400, f"unknown command {kind!r}: use one of {', '.join(COMMANDS)}")
        _check_events(table, data.get("events"))
        game = table.game
        text: str | None = None
        try:
            if kind == "move":
                move = data.get("move")
                if not isinstance(move, str | Mapping):
                    raise CommandError(400, "'move' must be a move's text (t7-f1) or JSON form")
                if isinstance(move, str) and len(move) > 200:
                    raise CommandError(400, "a move's text has at most 200 characters")
                if game.current_player() != seat:
                    raise CommandError(422, "it is not your turn")
                game.push(move)
                text = game.move_stack[-1].text()
            elif kind == "undo":
                game.pop()
            elif kind == "redo":
                game.redo()
            elif kind == "restart":
                if not game.move_stack:
                    raise CommandError(422, "the game is at its start already")
                while game.move_stack:
                    game.pop()
            else:
                game.resign()
        except (IllegalMove, MoveSyntaxError) as error:
            raise CommandError(422, str(error)) from None
        outcome = game.outcome()
        try:
            finished = self.store.append_event(
                table.id,
                table.events,
                seat,
                kind,
                text,
                result=outcome.result,
                reason=outcome.reason,
                moves=len(game.move_stack),
                score=outcome.score,
            )
        except StoreError as error:
            # Memory has moved on but the store has not (another process stored an event
            # first): throw the table away, so that it is rebuilt as stored.
            self.forget(table.id)
            raise CommandError(409, f"the table changed elsewhere: {error}") from None
        except Exception:
            self.forget(table.id)
            raise
        table.events += 1
        # The stored finishing time, not this process's clock: the end-of-game banner and the
        # statistics' best time come from the same two timestamps.
        table.finished = finished

    def autofinish(self, table: Table, seat: int, data: object) -> int:
        """Play the moves of :func:`autofinish_moves` one by one as ``move`` commands (each
        stored, and undoable, like any move); the number of moves made.

        Refused (422, nothing changed) unless only safe foundation moves remain; ``"events"``
        out of date is a 409 as for any command.
        """
        if data is not None and not isinstance(data, Mapping):
            raise CommandError(400, 'send {} or {"events": N}')
        _check_events(table, data.get("events") if data is not None else None)
        if table.game.current_player() != seat:
            raise CommandError(422, "it is not your turn")
        moves = autofinish_moves(table.game)
        if moves is None:
            raise CommandError(
                422,
                "no automatic finish yet: it needs every card face up, the stock and waste empty, "
                "and every card able to go to the foundations by foundation moves alone",
            )
        for move in moves:
            self.command(table, seat, {"command": "move", "move": move.text()})
        return len(moves)


def _check_events(table: Table, known: object) -> None:
    """Refuse a command whose ``"events"`` is malformed (400: not a whole number; ``true`` or
    ``"0"`` must not pass for a count) or out of date (409); None means not given."""
    if known is None:
        return
    if isinstance(known, bool) or not isinstance(known, int) or known < 0:
        raise CommandError(
            400, f"'events' is a whole number (the state's events count), not {known!r}"
        )
    if known != table.events:
        raise CommandError(
            409, "the table has changed since you last saw it: here is how it stands now"
        )


def _replay(game: Game, event: Event) -> None:
    if event.kind == "move":
        assert event.move is not None
        game.push(Move.parse(event.move))
    elif event.kind == "undo":
        game.pop()
    elif event.kind == "redo":
        game.redo()
    elif event.kind == "restart":
        while game.move_stack:
            game.pop()
    elif event.kind == "resign":
        game.resign()
