"""Leopard at the terminal: its table layout and a human seat that reads moves from the prompt.

Registered with :mod:`patience.terminal` as Leopard's layout, so ``patience replay`` draws a
Leopard record's squares and hands; :class:`HumanSeat` lets a person take a seat in
``patience match`` beside bots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from .engine import Game, IllegalMove
from .games.double_solitaire import Answer
from .moves import Move, MoveSyntaxError
from .terminal import EMPTY, card_text, register_layout

__all__ = ["HumanSeat", "leopard_layout"]

_POSITION_NAMES = "A23456789"


def _layer_text(layer: object) -> Text:
    if isinstance(layer, str):
        return card_text(layer)
    if isinstance(layer, Mapping):
        inner = card_text(layer.get("down"), face_down=layer.get("down") is not None)
        return Text.assemble("[", inner, f"/{layer.get('by')}]")
    return Text(str(layer))


def _square_table(title: str, square: list[list[object]]) -> Table:
    table = Table(title=title, show_header=False, box=None, padding=(0, 1))
    for _ in range(3):
        table.add_column(justify="left", min_width=6)
    for row in range(3):
        cells = []
        for column in range(3):
            index = row * 3 + column
            layers = square[index]
            if not layers:
                cells.append(Text(f"{_POSITION_NAMES[index]}:{EMPTY}", style="dim"))
                continue
            # The top layer first; what lies under it after, dimmed.
            top = _layer_text(layers[-1])
            under = [_layer_text(layer) for layer in layers[:-1]]
            cell = Text.assemble(f"{_POSITION_NAMES[index]}:", top)
            if under:
                cell.append(" (", style="dim")
                cell.append(Text(" ").join(under))
                cell.append(")", style="dim")
            cells.append(cell)
        table.add_row(*cells)
    return table


@register_layout("leopard")
def leopard_layout(game: Game, data: Mapping[str, Any]) -> RenderableType:
    """The squares (face-down cards as ``[##/S]``: laid by seat S), the discards, the hands
    (own hand shown; others as counts), the stock's size and the scores so far."""
    rules: Any = game.rules
    squares = data["squares"]
    grid = Table.grid(padding=(0, 4))
    for _ in squares:
        grid.add_column()
    names = [
        rules.side_name(side).replace("seat", "square of seat").replace("side", "square of side")
        for side in range(len(squares))
    ]
    grid.add_row(
        *(
            _square_table(f"{side}: {name}", square)
            for side, (name, square) in enumerate(zip(names, squares, strict=True))
        )
    )
    hands = data["hands"]
    stock = data["stock"]
    lines: list[RenderableType] = [grid]
    discards = data["piles"]["discards"]["up"]
    lines.append(
        Text.assemble(
            "discards: ",
            Text(" ").join([card_text(card) for card in discards[-12:]]) if discards else EMPTY,
            f"  ({len(discards)})" if discards else "",
        )
    )
    for seat, hand in enumerate(hands):
        mark = "> " if seat == data["turn"] and not game.is_over() else "  "
        if isinstance(hand, list):
            shown = Text(" ").join([card_text(card) for card in hand]) if hand else Text(EMPTY)
            lines.append(Text.assemble(f"{mark}hand {seat}: ", shown))
        else:
            lines.append(Text(f"{mark}hand {seat}: {data['hand_sizes'][seat]} cards", style="dim"))
    size = stock if isinstance(stock, int) else len(stock)
    lines.append(
        Text(
            f"stock: {size} cards   deal {data['deal_index'] + 1}   dealer: seat {data['dealer']}"
            f"   totals: {'-'.join(map(str, data['totals']))}   phase: {data['phase']}"
        )
    )
    return Group(*lines)


LEOPARD_HELP = """\
Moves: 7h 1 (a seven onto square 1, at position 7), Th 0 5 (a ten onto square 0, position 5),
Jc 1 9 (a jack face down onto square 1, position 9), d Qs (discard), declare, draw, ask, yes, no;
or the full notation: play(card=Th,square=0,position=5). Commands: moves, help, quit."""

GENERIC_HELP = """\
Type a move in notation (moves lists the legal ones). Commands: moves, help, quit."""

#: Help at the prompt by game; other games get :data:`GENERIC_HELP`.
HUMAN_HELP = {
    "leopard": LEOPARD_HELP,
    "double-solitaire": """\
Moves: a3-f (to whichever foundation takes it), a3-f1, a3-a5, ahand-f2, ahand-awaste,
awaste-a4, stock, recycle, pass; when asked: stop or let-pass. Commands: moves, help, quit.""",
}

#: Answers to a question the engine puts to a seat between turns (Double Solitaire's stop).
ANSWER_ACTIONS = frozenset(Answer)


class HumanSeat:
    """A person at the terminal: sees his seat's view, types moves in the short notation."""

    name = "human"

    def __init__(self, game: Game, console: Console) -> None:
        self.game = game
        self.console = console

    def help_text(self) -> str:
        """The moves and commands at the prompt, for this seat's game."""
        return HUMAN_HELP.get(self.game.name, GENERIC_HELP)

    def question(self) -> str | None:
        """What the engine asks this seat, when its legal moves are only answers (a stop to
        call or let pass), so that the prompt says so instead of leaving the seat to guess."""
        legal = self.game.legal_moves()
        if not legal or not all(m.is_action and m.action in ANSWER_ACTIONS for m in legal):
            return None
        mover = self.game.rules.current_player(self.game.state)
        other = getattr(self.game.state, "turn", None)
        whose = f"seat {other}'s last move" if isinstance(other, int) and other != mover else ""
        choices = " or ".join(m.text() for m in legal)
        return (
            f"You may call stop on {whose or 'the last move'}: it did not put up an ace while "
            f"one was playable. Type {choices}."
        )

    def choose(self, view: Mapping[str, Any]) -> Move:
        """Draw the table from the seat's view and read moves until a legal one."""
        from .terminal import render_game

        seat = int(view["seat"])
        self.console.print(render_game(self.game, seat=seat))
        question = self.question()
        if question is not None:
            self.console.print(Text(question, style="bold yellow"), soft_wrap=True)
        while True:
            try:
                text = str(
                    click.prompt(f"seat {seat}", prompt_suffix="> ", default="", show_default=False)
                ).strip()
            except click.Abort:
                raise EOFError from None
            if text in ("quit", "q"):
                raise EOFError
            if text in ("help", "?", ""):
                self.console.print(self.help_text())
                if question is not None:
                    self.console.print(Text(question, style="bold yellow"), soft_wrap=True)
                continue
            if text in ("moves", "m"):
                legal = self.game.legal_moves()
                self.console.print(
                    f"{len(legal)} legal: " + ", ".join(m.text() for m in legal), soft_wrap=True
                )
                continue
            try:
                move = self.game.parse_move(text)
                if not self.game.is_legal(move):
                    self.game.push(move)  # raises, saying why
                return move
            except (IllegalMove, MoveSyntaxError, ValueError) as error:
                # Every bad line is a ValueError that says why; the seat is asked again.
                self.console.print(
                    Text(f"{error}. Type moves for the legal moves, help for help.", style="red"),
                    soft_wrap=True,
                )
