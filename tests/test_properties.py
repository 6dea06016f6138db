"""Property tests over every registered game: random legal play keeps the engine's invariants.

Each example draws a deal number, the game's options (the defaults half of the time, else each
option drawn from its allowed values) and a stream of random choices, then plays up to
``MAX_MOVES`` random legal moves (bounded: under the no-repeated-position rule random play can
last very long). After every move it checks:

* every card of the game is present exactly once;
* pushing a move and popping it gives back the exact earlier position and legal moves, and
  redo makes the move again;
* the position JSON round trip gives the same position, and the loaded game has the same legal
  moves, **except** moves that the original game refuses only because they would recreate a
  position reached earlier: a position does not carry the game's history (docs/formats.md,
  "What a position does not hold"), so the loaded game may allow them;
* the view hides every face-down card (``null`` in its place, so counts stay visible) and never
  names a hidden card anywhere (checked pile by pile, since in two-pack games the other copy
  of a hidden card may be in view);
* legal moves (a random few of them each time) can be pushed; a random candidate move that is
  not legal raises IllegalMove and changes nothing;
* in one-player games, no pile layout repeats along the game (RULES.md "End of a game").

A second property test plays random games and checks, after every move and for every seat and
the spectator, that no view, information state string or last move as seen names a card that
observer may not know (worked out from the position, independently of the games' view code),
and that a world sampled from a view holds every card once and looks the same to that observer.

Games join these tests by being registered in ``patience.GAMES``. Record round trips belong to
tests/test_record.py.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import patience
from patience import Game, IllegalMove, Move
from patience.cards import packs
from patience.deals import MAX_DEAL
from patience.engine import Rules
from patience.options import Option

MAX_MOVES = 120
SAMPLE = 3
GAME_NAMES = list(patience.GAMES)


def expected_cards(game: Game) -> list[int]:
    rules = game.rules
    deck = rules.deck() if hasattr(rules, "deck") else packs(rules.all_cards_expected() // 52)
    assert len(deck) == rules.all_cards_expected()
    return sorted(deck)


def check_cards(game: Game, expected: list[int]) -> None:
    cards = game.state.all_cards()
    assert len(cards) == len(expected), "a card was lost or added"
    assert sorted(cards) == expected, "a card is missing or present twice"


def check_round_trip(game: Game) -> None:
    position = game.position()
    loaded = Game.from_position(json.loads(json.dumps(position)))
    assert loaded.position() == position
    assert loaded.name == game.name
    assert loaded.options == game.options
    original = game.legal_moves()
    again = loaded.legal_moves()
    # The loaded game has no history, so it may allow moves that the original refuses as
    # repeating a position; everything else must be the same, in the same order.
    assert [move for move in again if move in original] == original
    extra = [move for move in again if move not in original]
    for move in extra:
        # The original refuses it: it would recreate a position of its history (the game may
        # even be lost because every move left would).
        with pytest.raises(IllegalMove, match=r"position|no legal move"):
            game.push(move)
        after, _ = game.rules.apply(game.state, move)
        assert game.rules.key(after) in game._seen  # the engine's history of positions
    if not extra:
        assert loaded.outcome() == game.outcome()


def _flatten(pile: dict[str, list[Any]]) -> list[Any]:
    return list(pile["down"]) + list(pile["up"])


def _known_face_down(game: Game, pile: str) -> bool:
    """Face-down cards the player knows: Leoni's Own's exiles with exile=choose (its ruling 8:
    he saw them all while dealing, and picks one)."""
    return game.name == "leonis-own" and pile == "exiles" and game.options["exile"] == "choose"


def check_view(game: Game) -> None:
    position = game.position()
    view = game.view(0)
    assert "deal" not in view
    assert view["seat"] == 0
    one_player = game.rules.players == 1
    hidden: set[str] = set()
    shown: set[str] = set()
    for name, seen in view["piles"].items():
        if name not in position["piles"]:
            continue  # a part only the view has
        real = position["piles"][name]
        assert len(seen["down"]) == len(real["down"]), f"{name}: face-down count changed"
        assert len(seen["up"]) == len(real["up"]), f"{name}: face-up count changed"
        if one_player and not _known_face_down(game, name):
            # A face-down card is never shown; a face-up card may be hidden too (a squared pile).
            assert seen["down"] == [None] * len(real["down"]), f"{name} shows a face-down card"
            visible = sum(card is not None for card in _flatten(seen))
            assert visible <= len(real["up"])
        for view_card, real_card in zip(_flatten(seen), _flatten(real), strict=True):
            if view_card is None:
                hidden.add(real_card)
            else:
                assert view_card == real_card, f"{name}: the view shows a card not there"
                shown.add(view_card)
    text = json.dumps(view)
    for card in hidden - shown:
        assert f'"{card}"' not in text, f"the view names the hidden card {card}"
    if game.current_player() == 0:
        assert view["legal_moves"] == [move.to_json() for move in game.legal_moves()]
    assert view["outcome"] == game.outcome().to_json()


def check_legal_moves_push(game: Game, rng: random.Random) -> None:
    """A few legal moves (all would cost too much in games with many) can be pushed."""
    before = game.position()
    legal = game.legal_moves()
    for move in rng.sample(legal, min(len(legal), SAMPLE)):
        game.push(move)
        game.pop()
    assert game.position() == before
    assert game.legal_moves() == legal


def candidate_moves(game: Game, rng: random.Random, actions: set[str]) -> Move:
    """A random move of the game's shape, legal or (mostly) not."""
    names = list(game.rules.pile_names)
    if rng.random() < 0.25 and actions:
        action = rng.choice(sorted(actions))
        return Move.act(action) if rng.random() < 0.7 else Move.act(action, pile=names[0])
    return Move.cards(rng.choice(names), rng.choice(names), rng.choice([1, 1, 1, 2, 3, 13]))


def check_candidate(game: Game, move: Move) -> None:
    before = game.position()
    legal = game.legal_moves()
    if move in legal:
        game.push(move)
        game.pop()
        assert game.position() == before
        return
    with pytest.raises(IllegalMove) as info:
        game.push(move)
    assert str(info.value)
    assert game.position() == before
    assert game.legal_moves() == legal


def check_lone_push(game: Game, move: Move) -> None:
    """A move pushed before the legal moves are listed (the engine then makes its state alone)
    is legal, and leads where it leads, exactly as when they are listed first."""
    legal = game.legal_moves()
    twin = game.copy()
    twin._successors = None  # as after a push: nothing listed yet
    if move not in legal:
        with pytest.raises(IllegalMove):
            twin.push(move)
        assert twin.position() == game.position()
        return
    forced = twin.push(move)
    listed = game.copy()
    assert listed.legal_moves() == legal
    assert listed.push(move) == forced
    assert twin.position() == listed.position()
    assert twin.legal_moves() == listed.legal_moves()


def option_values(spec: Option) -> st.SearchStrategy[Any]:
    """The values an option may take (see patience.options.Option)."""
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "passes":
        return st.sampled_from([1, 2, 3, "unlimited"])
    return st.sampled_from(list(spec.choices))


def game_options(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """The default options half of the time, else every option drawn from its values."""
    specs = patience.GAMES[name].option_specs
    drawn = st.fixed_dictionaries({spec.name: option_values(spec) for spec in specs})
    return st.one_of(st.just({}), drawn)


def _layout(game: Game) -> str:
    return json.dumps(game.position()["piles"], sort_keys=True)


@pytest.mark.parametrize("name", GAME_NAMES)
@given(
    deal=st.integers(0, MAX_DEAL),
    rng=st.randoms(use_true_random=False),
    moves=st.integers(0, MAX_MOVES),
    data=st.data(),
)
def test_random_play_keeps_the_invariants(
    name: str, deal: int, rng: random.Random, moves: int, data: st.DataObject
) -> None:
    options = data.draw(game_options(name), label="options")
    game = patience.new(name, deal=deal, **options)
    expected = expected_cards(game)
    actions = {"stock", "recycle", "flip", "nonsense"}
    layouts = {_layout(game)}
    check_cards(game, expected)
    check_round_trip(game)
    check_view(game)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            assert game.is_over()
            break
        actions.update(move.action for move in legal if move.action)
        check_legal_moves_push(game, rng)
        candidate = candidate_moves(game, rng, actions)
        check_candidate(game, candidate)
        check_lone_push(game, candidate)
        check_lone_push(game, rng.choice(legal))
        # Push, pop, redo: the exact earlier position comes back, then the later one.
        before, stack = game.position(), game.move_stack
        move = rng.choice(legal)
        forced = game.push(move)
        assert game.move_stack == [*stack, move]
        assert game.forced_stack[-1] == forced
        after = game.position()
        assert game.pop() == move
        assert game.position() == before
        assert game.legal_moves() == legal
        assert game.redo() == move
        assert game.position() == after
        # Checks of the new position.
        check_cards(game, expected)
        check_round_trip(game)
        check_view(game)
        if game.rules.players == 1:
            layout = _layout(game)
            assert layout not in layouts, f"{move} recreated a position"
            layouts.add(layout)
    outcome = game.outcome()
    assert outcome.result in ("ongoing", "won", "lost", "draw")
    assert outcome.is_over == (game.legal_moves() == [] or outcome.result != "ongoing")


@pytest.mark.parametrize("name", GAME_NAMES)
@given(deal=st.integers(0, MAX_DEAL), data=st.data())
def test_deal_is_reproducible(name: str, deal: int, data: st.DataObject) -> None:
    options = data.draw(game_options(name), label="options")
    first = patience.new(name, deal=deal, **options)
    assert first.position() == patience.new(name, deal=deal, **options).position()
    assert first.position()["deal"] == deal


# -- what each observer may know (issue 17: observation in the rules) -------------------------
#
# Independently of the games' view code, this says which cards of a position an observer may
# not know, from the rules of RULES.md: face-down pile cards (Leoni's Own's exiles with
# exile=choose excepted for a seat: its ruling 8), the cards under the top of a squared pile
# (Canfield's reserve, Leoni's Own's piles 1-12), and in Leopard the stock, the other seats'
# hands and the face-down layers laid by others. A view may then name each card at most as many
# times as the observer may know a copy of it (two-pack games have two copies of a card).

OBSERVE_MOVES = 60
#: How often (in moves) worlds are sampled from the views (sampling costs more than viewing).
SAMPLE_EVERY = 15


def _squared(game: Game) -> tuple[str, ...]:
    from patience.games.leonis_own import SQUARED

    return {"canfield": ("reserve",), "leonis-own": SQUARED}.get(game.name, ())


def secret_cards(
    game: Game, observer: patience.Observer, match_over: bool | None = None
) -> Counter[str]:
    """The cards of ``game``'s position that ``observer`` may not know, with multiplicity
    (``match_over``: whether Leopard's match is over, by default once the game is)."""
    if match_over is None:
        match_over = game.is_over()
    position = game.position()
    secret: Counter[str] = Counter()
    known_exiles = (
        game.name == "leonis-own"
        and game.options["exile"] == "choose"
        and observer is not patience.SPECTATOR
    )
    for name, pile in position["piles"].items():
        if not (known_exiles and name == "exiles"):
            secret.update(pile["down"])
        if name in _squared(game):
            secret.update(pile["up"][:-1])
    if game.name == "leopard":
        secret.update(position["stock"])
        for seat, hand in enumerate(position["hands"]):
            if seat != observer:
                secret.update(hand)
        # Face-down cards are secret while the match goes on; at its end every one is shown
        # (docs/rules/leopard.md, ruling 7).
        for square in position["squares"] if not match_over else []:
            for cell in square:
                for layer in cell:
                    if isinstance(layer, dict) and layer["by"] != observer:
                        secret[layer["down"]] += 1
    return secret


def known_cards(
    game: Game, observer: patience.Observer, match_over: bool | None = None
) -> Counter[str]:
    """How many copies of each card ``observer`` may know."""
    known = Counter(str(card) for card in game.rules.deck())
    known.subtract(secret_cards(game, observer, match_over))
    return known


def named_cards(data: object, cards: set[str]) -> Counter[str]:
    """Every string of ``data`` (JSON) that is one of ``cards``, with multiplicity."""
    found: Counter[str] = Counter()
    if isinstance(data, str):
        if data in cards:
            found[data] += 1
    elif isinstance(data, dict):
        for value in data.values():
            found.update(named_cards(value, cards))
    elif isinstance(data, list):
        for value in data:
            found.update(named_cards(value, cards))
    return found


#: Every card as text (two-pack games write both copies alike).
CARD_TEXTS = {str(patience.Card(face)) for face in range(52)}


def check_names_only_known(what: str, data: object, known: Counter[str]) -> None:
    for card, count in named_cards(data, CARD_TEXTS).items():
        assert count <= known[card], f"{what} names {card} {count} time(s), known {known[card]}"


def no_face_down_card(data: object) -> bool:
    """True if no ``down`` part of ``data`` (a pile's list or a Leopard layer) names a card."""
    if isinstance(data, dict):
        down = data.get("down")
        if isinstance(down, str) or (isinstance(down, list) and any(c is not None for c in down)):
            return False
        return all(no_face_down_card(value) for value in data.values())
    if isinstance(data, list):
        return all(no_face_down_card(value) for value in data)
    return True


def observers(game: Game) -> list[patience.Observer]:
    return [*range(game.rules.players), patience.SPECTATOR]


def check_observers(game: Game) -> None:
    """Every observer's view and information state name only cards it may know."""
    for observer in observers(game):
        known = known_cards(game, observer)
        view = game.view(observer)
        seat_only = {key: view.pop(key) for key in ("seat", "legal_moves", "outcome")}
        check_names_only_known(f"the view of {observer!r}", view, known)
        for move in seat_only["legal_moves"]:
            check_names_only_known(f"a legal move of {observer!r}", move, known)
        state_text = json.loads(game.information_state_string(observer))
        check_names_only_known(f"the information state of {observer!r}", state_text, known)
        if observer is patience.SPECTATOR:
            assert seat_only["seat"] is None
            assert seat_only["legal_moves"] == []
            if game.name != "leopard" or not game.is_over():  # Leopard shows them at the end
                assert no_face_down_card(view), "the spectator sees a face-down card"
            assert all(hand is None for hand in view.get("hands", [])), "the spectator sees a hand"
        else:
            assert seat_only["seat"] == observer


def check_last_move_seen(game: Game, before: dict[patience.Observer, Counter[str]]) -> None:
    """The last move as each observer may know it names only cards it knew before the move or
    knows after it (a card played from one's hand; a card turned up by the move)."""
    mover = game.rules.current_player(game._stack[-1].before)
    move = game.move_stack[-1]
    for observer in observers(game):
        seen = game.last_move_view(observer)
        assert seen is not None
        assert seen["seat"] == mover
        assert seen["move"] == game.rules.move_view(game.state, move, mover, observer)
        known = known_cards(game, observer) | before[observer]
        check_names_only_known(f"the last move as {observer!r} sees it", seen["move"], known)


def check_deal_end(game: Game, before: patience.State) -> None:
    """A deal's last position (``Rules.deal_end``, which a shared table shows until its people
    go on) names only cards each observer knew as the deal ended: the match goes on, so the
    face-down cards others laid stay unknown."""
    move = game.move_stack[-1]
    ended = game.rules.deal_end(before, move, game.state)
    if ended is None:
        return
    assert not game.is_over()
    stopped = Game.create(game.rules, state=ended)
    for observer in observers(game):
        known = known_cards(stopped, observer, match_over=False)
        view = game.rules.view_json(ended, observer)
        check_names_only_known(f"the deal's end as {observer!r} sees it", view, known)
        if observer is patience.SPECTATOR:
            assert no_face_down_card(view), "the spectator sees a face-down card"


def check_sampled_worlds(game: Game, rng: random.Random, expected: list[int]) -> None:
    """A world sampled from any observer's view holds every card once and looks the same."""
    rules = game.rules
    for observer in observers(game):
        view = game.view(observer)
        world = rules.sample_state(view, rng)
        assert sorted(world.all_cards()) == expected, "a sampled world lost or doubled a card"
        seen_there = rules.view_json(world, observer)
        seen_here = rules.view_json(game.state, observer)
        if game.name == "leonis-own":
            # Its standstill notes name cards under the squared piles: a world has none (the
            # view says only how many there are); the solvers search such worlds.
            seen_there.pop("notes_made")
            seen_here.pop("notes_made")
        assert seen_there == seen_here, f"a world sampled for {observer!r} looks different"


@pytest.mark.parametrize("name", GAME_NAMES)
@given(
    deal=st.integers(0, MAX_DEAL),
    rng=st.randoms(use_true_random=False),
    moves=st.integers(0, OBSERVE_MOVES),
    data=st.data(),
)
def test_no_observer_is_shown_a_card_it_may_not_know(
    name: str, deal: int, rng: random.Random, moves: int, data: st.DataObject
) -> None:
    options = data.draw(game_options(name), label="options")
    game = patience.new(name, deal=deal, **options)
    expected = expected_cards(game)
    check_observers(game)
    check_sampled_worlds(game, rng, expected)
    for number in range(1, moves + 1):
        legal = game.legal_moves()
        if not legal:
            break
        before = {observer: known_cards(game, observer) for observer in observers(game)}
        state = game.state
        game.push(rng.choice(legal))
        check_observers(game)
        check_deal_end(game, state)
        check_last_move_seen(game, before)
        if number % SAMPLE_EVERY == 0:
            check_sampled_worlds(game, rng, expected)
    check_sampled_worlds(game, rng, expected)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_seat_number_that_is_no_seat_is_refused(name: str) -> None:
    game = patience.new(name, deal=1)
    before = game.position()
    for seat in (-1, game.rules.players, True, "0", None):
        with pytest.raises(patience.ObserverError, match=r"seat|SPECTATOR"):
            game.view(seat)
        with pytest.raises(patience.ObserverError):
            game.information_state_string(seat)
        with pytest.raises(patience.ObserverError):
            game.rules.view_json(game.state, seat)
    assert game.position() == before


def check_actions(game: Game, rng: random.Random) -> None:
    """The fixed action space: legal actions are the legal moves' numbers, sorted, in range;
    every legal action round-trips through its move; the mask agrees."""
    rules, state = game.rules, game.state
    size = rules.num_distinct_actions()
    legal = game.legal_actions()
    assert legal == sorted(set(legal)), "legal actions are sorted and distinct"
    assert all(0 <= action < size for action in legal)
    assert sorted(rules.move_to_action(state, move) for move in game.legal_moves()) == legal
    candidates = rules.candidate_moves(state)
    assert rules.legal_actions(state) == sorted(
        rules.move_to_action(state, move) for move in candidates
    )
    for action in rules.legal_actions(state):
        move = rules.action_to_move(state, action)
        assert move in candidates
        assert rules.move_to_action(state, move) == action
    mask = game.legal_action_mask()
    assert len(mask) == size
    assert [action for action, legal_here in enumerate(mask) if legal_here] == legal
    here = set(rules.legal_actions(state))
    assert rules.legal_action_mask(state) == [action in here for action in range(size)]
    # An action outside the space is refused, saying which are allowed.
    with pytest.raises(IllegalMove, match=r"actions are 0 to|\(0\.\."):
        rules.action_to_move(state, size + rng.randrange(5))


@pytest.mark.parametrize("name", GAME_NAMES)
@given(
    deal=st.integers(0, MAX_DEAL),
    rng=st.randoms(use_true_random=False),
    moves=st.integers(0, MAX_MOVES),
    data=st.data(),
)
def test_actions_are_a_fixed_space_over_random_play(
    name: str, deal: int, rng: random.Random, moves: int, data: st.DataObject
) -> None:
    options = data.draw(game_options(name), label="options")
    game = patience.new(name, deal=deal, **options)
    rules = game.rules
    # The space depends on the options only: a fresh rules object numbers the same moves.
    twin = type(rules)(dict(rules.options))
    assert list(twin.action_moves()) == list(rules.action_moves())
    assert rules.num_distinct_actions() == len(rules.action_moves())
    for _ in range(moves):
        check_actions(game, rng)
        legal = game.legal_actions()
        if not legal:
            break
        action = rng.choice(legal)
        move = rules.action_to_move(game.state, action)
        before = game.position()
        game.apply_action(action)
        assert game.move_stack[-1] == move
        game.pop()
        assert game.position() == before
        game.redo()


# The games that answer is_candidate their own way (the others list their candidates).
OWN_CANDIDATE_TEST = [
    name for name in GAME_NAMES if patience.GAMES[name].is_candidate is not Rules.is_candidate
]


@pytest.mark.parametrize("name", OWN_CANDIDATE_TEST)
@given(
    deal=st.integers(0, MAX_DEAL),
    rng=st.randoms(use_true_random=False),
    moves=st.integers(0, MAX_MOVES),
    data=st.data(),
)
def test_is_candidate_agrees_with_the_candidate_list(
    name: str, deal: int, rng: random.Random, moves: int, data: st.DataObject
) -> None:
    """``Rules.is_candidate`` (a replay's test of one move) answers as ``candidate_moves``
    does, for the candidates, moves of the action space, and near misses of both."""
    options = data.draw(game_options(name), label="options")
    game = patience.new(name, deal=deal, **options)
    rules = game.rules
    space = list(rules.action_moves())
    actions = {"stock", "recycle", "flip", "nonsense"}
    for _ in range(moves):
        listed = rules.candidate_moves(game.state)
        actions.update(move.action for move in listed if move.action)
        near = [
            Move.cards(str(move.source), str(move.target), move.count + change)
            for move in listed
            if not move.is_action
            for change in (-1, 1)
            if move.count + change >= 1
        ]
        near += [candidate_moves(game, rng, actions) for _ in range(5)]
        asked = listed + near + rng.sample(space, min(len(space), 40))
        for move in asked:
            assert rules.is_candidate(game.state, move) == (move in listed), move
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
