"""What the shared tables' boards say, in chromium: leopard.js and double_solitaire.js render
true views (from the engine) for every seat and a spectator, in each phase of a turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest

import patience
import patience.bots
from patience.games import get_rules
from patience.games.leopard import LeopardState, square_value

NAMES = ["Ann", "Bob", "Cy", "Dee"]

#: Renders a board with a stand-in for the table page (table_mp.js): the seat, the seats'
#: names, and no socket. Returns the help line, the board's text and its aria-labels.
RENDER = """async (args) => {
  const module = await import(args.module);
  const box = document.createElement("div");
  document.body.append(box);
  const page = {
    seat: args.seat, selection: null, state: args.state,
    seatName: (index) => args.names[index] ?? `seat ${index}`,
    send() {}, show() {}, say() {},
  };
  module[args.render](box, args.state, page);
  const help = box.querySelector('[data-testid="turn-help"]');
  const result = {
    help: help ? help.textContent : null,
    text: box.textContent,
    svgText: [...box.querySelectorAll("svg text")].map((node) => node.textContent),
    labels: [...box.querySelectorAll("[aria-label]")].map((node) =>
      node.getAttribute("aria-label")),
  };
  box.remove();
  return result;
}"""


@pytest.fixture
def page(browser: Any, server_url: str) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + "/tables")
    page.wait_for_selector("form.mp-create")
    yield page
    assert not errors
    page.close()


def view_of(game: patience.Game, seat: int | None) -> dict[str, Any]:
    """What the server sends ``seat`` (None: a spectator) as ``view``."""
    view = game.view(-1 if seat is None else seat)
    if seat is None:
        view["seat"] = None
    return view


def render(page: Any, module: str, game: patience.Game, seat: int | None) -> dict[str, Any]:
    state = {"view": view_of(game, seat), "options": game.options, "game": game.name}
    args = {
        "module": f"/static/{module}.js",
        "render": "renderLeopard" if module == "leopard" else "renderDoubleSolitaire",
        "state": state,
        "seat": seat,
        "names": NAMES[: game.rules.players],
    }
    result: dict[str, Any] = page.evaluate(RENDER, args)
    return result


def replay(game: patience.Game, *extra: Any) -> patience.Game:
    """A new game of the same deal with ``game``'s moves and then ``extra``."""
    copy = patience.Game.create(game.rules, deal=game.deal)
    for move in (*game.move_stack, *extra):
        copy.push(move)
    return copy


def leopard_until_asked() -> tuple[patience.Game, patience.Game]:
    """A four-player Leopard game just before a seat asks his partner, and just after."""
    game = patience.Game.create(get_rules("leopard", {"players": 4}), deal=4)
    bot = patience.bots.get("greedy", seed=1)
    while not game.is_over():
        if {"action": "ask"} in [move.to_json() for move in game.legal_moves()]:
            return game, replay(game, {"action": "ask"})
        game.push(bot.choose(game.view(game.current_player())))
    raise AssertionError("nobody could ask")


def test_leopard_says_who_is_to_act_in_each_phase(page: Any) -> None:
    before, asked = leopard_until_asked()
    asker = before.current_player()
    partner = (asker + 2) % 4
    assert asked.view(partner)["phase"] == "answer"
    # Before asking: the one to act may declare, draw or ask; the others are told so.
    help = render(page, "leopard", before, asker)["help"]
    assert help.startswith("Your side's square is worth ")
    assert f"first ask your partner {NAMES[partner]}" in help
    other = render(page, "leopard", before, (asker + 1) % 4)["help"]
    assert other.startswith(f"{NAMES[asker]}'s square is worth ")
    # Asked: the partner answers; the asker waits; everybody else knows who is to answer.
    help = render(page, "leopard", asked, partner)["help"]
    assert help.startswith(f"Your partner {NAMES[asker]} asks you: may he end the deal?")
    help = render(page, "leopard", asked, asker)["help"]
    assert help == f"You asked {NAMES[partner]}: may I end the deal? Waiting for the answer."
    for seat in ((asker + 1) % 4, None):
        help = render(page, "leopard", asked, seat)["help"]
        assert f"Waiting for {NAMES[partner]}'s answer." in help
    for seat in (*range(4), None):
        assert "declare, or draw" not in (render(page, "leopard", asked, seat)["help"] or "")


def double_solitaire_stop_offered() -> patience.Game:
    """A Double Solitaire game (auto_stop off) in which a player has just left an ace."""
    for deal in range(1, 50):
        game = patience.Game.create(get_rules("double-solitaire", {"auto_stop": "off"}), deal=deal)
        bot = patience.bots.get("random", seed=2)
        while not game.is_over():
            if game.view(game.current_player())["stop_offered"]:
                return game
            game.push(bot.choose(game.view(game.current_player())))
    raise AssertionError("nobody left an ace")


def test_double_solitaire_names_who_decides_on_stop(page: Any) -> None:
    game = double_solitaire_stop_offered()
    player = game.view(0)["turn"]  # who left the ace; his opponent decides
    actor = 1 - player
    assert game.current_player() == actor
    for seat in (0, 1, None):
        shown = render(page, "double_solitaire", game, seat)
        rows = [text for text in shown["svgText"] if text.startswith(tuple(NAMES[:2]))]
        assert f"{NAMES[player]}{' (you)' if seat == player else ''} — left an ace unplayed" in rows
        assert (
            f"{NAMES[actor]}{' (you)' if seat == actor else ''} — to decide: stop or let it pass"
            in rows
        )
        assert "to play" not in " ".join(rows)
        assert "player 1" not in shown["text"] + " ".join(shown["svgText"])
        help = shown["help"]
        if seat == actor:
            assert help.startswith(f'{NAMES[player]} left an ace unplayed: call "stop"')
        elif seat == player:
            assert (
                help == f'You left an ace unplayed: {NAMES[actor]} decides whether to call "stop".'
            )
        else:
            assert f'{NAMES[actor]} decides whether to call "stop"' in help
    # An ordinary turn: the row of the player whose turn it is says so, by name.
    game.push(game.legal_moves()[0])
    turn = game.current_player()
    shown = render(page, "double_solitaire", game, None)
    assert f"{NAMES[turn]} — to play" in shown["svgText"]
    assert shown["help"] == f"{NAMES[turn]} to play."


def leopard_with_face_down_cards() -> patience.Game:
    """A two-player Leopard deal in which each seat has a face-down card on top of a square."""
    game = patience.Game.create(get_rules("leopard", {"deals": 1}), deal=7)
    bot = patience.bots.get("greedy", seed=3)
    while not game.is_over():
        tops = [cell[-1] for square in game.view(0)["squares"] for cell in square if cell]
        if {top["by"] for top in tops if isinstance(top, dict)} == {0, 1}:
            return game
        game.push(bot.choose(game.view(game.current_player())))
    raise AssertionError("no deal with both seats' face-down cards")


def test_face_down_cards_name_who_laid_them(page: Any) -> None:
    game = leopard_with_face_down_cards()
    tops = [cell[-1] for square in game.view(0)["squares"] for cell in square if cell]
    mine = [top["down"] for top in tops if isinstance(top, dict) and top["by"] == 0]
    shown = render(page, "leopard", game, 0)
    ranks = {"J": "jack", "Q": "queen"}
    suits = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    for card in mine:
        assert f"your {ranks[card[0]]} of {suits[card[1]]}, face down" in shown["labels"]
        assert f"yours: {card}" in shown["svgText"]
    assert "face-down card laid by Bob" in shown["labels"]
    assert "Bob" in shown["svgText"]
    assert not any("seat" in text for text in shown["svgText"] + shown["labels"])
    # A spectator is told who laid each one, never what it is.
    shown = render(page, "leopard", game, None)
    assert "face-down card laid by Ann" in shown["labels"]
    assert not any(label.startswith("your") for label in shown["labels"])


def test_each_square_shows_its_value(page: Any) -> None:
    # Squares of a whole deal (face-down cards and all): the page's values are the engine's.
    game = patience.Game.create(get_rules("leopard", {"deals": 1}), deal=7)
    bot = patience.bots.get("greedy", seed=3)
    squares: list[Any] = []
    values: list[int] = []
    while not game.is_over():
        squares.extend(game.view(0)["squares"])
        values.extend(square_value(square) for square in cast(LeopardState, game.state).squares)
        game.push(bot.choose(game.view(game.current_player())))
    assert max(values) >= 3
    shown = page.evaluate(
        """async (squares) => {
      const module = await import("/static/leopard.js");
      return squares.map((cells) => module.squareValue(cells));
    }""",
        squares,
    )
    assert shown == values
    text = render(page, "leopard", game, 0)["text"]
    for square in cast(LeopardState, game.state).squares:
        assert f"worth {square_value(square)} point" in text
