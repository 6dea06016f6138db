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
    return game.view(patience.SPECTATOR if seat is None else seat)


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


#: The end-of-game text of a board module for a finished state, with the test's names.
END = """async (args) => {
  const module = await import(args.module);
  const page = { seat: args.seat, seatName: (index) => args.names[index] ?? `seat ${index}` };
  return module[args.end](args.state, page);
}"""


def finished(rules: str, options: dict[str, Any], deal: int, bot: str = "greedy") -> patience.Game:
    """A game of ``rules`` played to its end by a bot."""
    game = patience.Game.create(get_rules(rules, options), deal=deal)
    player = patience.bots.get(bot, seed=deal)
    while not game.is_over():
        game.push(player.choose(game.view(game.current_player())))
    return game


def end_text(page: Any, module: str, game: patience.Game, seat: int | None = 0) -> str:
    view = view_of(game, seat)
    args = {
        "module": f"/static/{module}.js",
        "end": "leopardEnd" if module == "leopard" else "doubleSolitaireEnd",
        "state": {"view": view, "outcome": view["outcome"], "game": game.name},
        "seat": seat,
        "names": NAMES[: game.rules.players],
    }
    text: str = page.evaluate(END, args)
    assert "seat" not in text, text
    assert "player" not in text, text
    return text


def test_leopard_end_names_the_winners(page: Any) -> None:
    # Two players: the winner's total first, as the players' names, not "seat 1 won 0-6".
    game = finished("leopard", {"deals": 1}, deal=3)
    outcome = game.outcome()
    assert outcome.scores is not None
    # One deal, or more when the totals are equal after it (RULES.md: one more deal is played).
    played = len(game.view(0)["history"])
    after = "after 1 deal" if played == 1 else f"after {played} deals"
    if outcome.result == "won":
        assert outcome.winner is not None
        won, lost = outcome.scores[outcome.winner], outcome.scores[1 - outcome.winner]
        expected = f"{NAMES[outcome.winner]} won the match {won}-{lost} {after}."
    else:
        expected = f"The match is drawn {outcome.scores[0]}-{outcome.scores[1]} {after}."
    assert end_text(page, "leopard", game) == expected
    # Four players: a side is its two players; three: every total is named.
    four = (finished("leopard", {"players": 4, "deals": 1}, deal=d) for d in range(1, 20))
    side_won = next(g for g in four if g.outcome().result == "won")
    winner = side_won.outcome().winner
    assert winner is not None
    text = end_text(page, "leopard", side_won, seat=None)
    assert text.startswith(f"{NAMES[winner]} and {NAMES[winner + 2]} won the match ")
    assert text.endswith(" after 1 deal.")
    three = finished("leopard", {"players": 3, "deals": 2}, deal=5)
    totals = three.outcome().scores
    assert totals is not None
    text = end_text(page, "leopard", three, seat=2)
    assert text.endswith(f"after 2 deals: Ann {totals[0]}, Bob {totals[1]}, Cy {totals[2]}.")


def test_double_solitaire_end_names_the_winner(page: Any) -> None:
    game = finished("double-solitaire", {}, deal=1, bot="random")
    outcome = game.outcome()
    assert outcome.result == "won"
    assert outcome.scores is not None
    assert "player 1" in outcome.reason  # the engine's words, which the page must not show
    winner = outcome.winner
    assert winner is not None
    scores = outcome.scores
    assert end_text(page, "double_solitaire", game) == (
        f"{NAMES[winner]} won, {scores[winner]} of {NAMES[winner]}'s cards on the foundations "
        f"to {scores[1 - winner]} of {NAMES[1 - winner]}'s. "
        "Play stopped after two passes in succession."
    )


def test_seats_are_numbered_only_to_tell_two_apart(page: Any) -> None:
    def names(seats: list[tuple[str, str | None]]) -> list[str]:
        rows = [{"seat": i, "kind": kind, "name": name} for i, (kind, name) in enumerate(seats)]
        result: list[str] = page.evaluate(
            """async (seats) => {
          const module = await import("/static/table_mp.js");
          return seats.map((_, index) => module.seatName(seats, index));
        }""",
            rows,
        )
        return result

    assert names([("person", "Ann"), ("bot", "greedy"), ("bot", "random"), ("open", None)]) == [
        "Ann",
        "greedy bot",
        "random bot",
        "seat 4 (open)",  # people count seats from 1
    ]
    assert names(
        [("bot", "greedy"), ("person", "guest"), ("bot", "greedy"), ("person", "guest")]
    ) == [
        "greedy bot #1",
        "guest #2",
        "greedy bot #3",
        "guest #4",
    ]


def test_the_banner_names_the_players(page: Any, server_url: str) -> None:
    # A table of two bots, watched: its page's banner is the board module's end text.
    made = page.request.post(
        f"{server_url}/api/shared",
        data={"game": "leopard", "options": {"deals": 1}, "seats": ["greedy", "random"], "deal": 3},
    ).json()
    page.goto(server_url + made["url"])
    banner = page.locator('[data-testid="banner"]')
    banner.wait_for(state="visible", timeout=30_000)
    outcome = page.request.get(f"{server_url}/api/shared/{made['table']}").json()["outcome"]
    bots = ["greedy bot", "random bot"]
    won, lost = (
        outcome["scores"][outcome.get("winner", 0)],
        outcome["scores"][1 - outcome.get("winner", 0)],
    )
    if outcome["result"] == "won":
        expected = f"{bots[outcome['winner']]} won the match {won}-{lost} after 1 deal."
    else:
        expected = f"The match is drawn {won}-{lost} after 1 deal."
    assert banner.text_content() == f"Game over: {expected}"


def test_discards_are_small_cards_with_spoken_names(page: Any) -> None:
    game = patience.Game.create(get_rules("leopard", {"deals": 1}), deal=7)
    bot = patience.bots.get("greedy", seed=3)
    while len(game.view(0)["piles"]["discards"]["up"]) < 3:
        game.push(bot.choose(game.view(game.current_player())))
    discards = game.view(0)["piles"]["discards"]["up"]
    shown = render(page, "leopard", game, None)
    ranks = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
    suits = {
        "c": ("clubs", "♣"),
        "d": ("diamonds", "♦"),
        "h": ("hearts", "♥"),
        "s": ("spades", "♠"),
    }
    for card in discards:
        assert f"{ranks.get(card[0], card[0])} of {suits[card[1]][0]}" in shown["labels"]
    # Drawn as rank and suit ("10♠"), never as notation ("Ts").
    text = shown["text"].replace("\ufe0e", "")
    written = " ".join(
        f"{'10' if card[0] == 'T' else card[0]}{suits[card[1]][1]}" for card in discards
    )
    assert f"Discards: {written}" in text
    assert " ".join(discards) not in shown["text"]
