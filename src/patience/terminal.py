"""Playing in a terminal: drawing a game's table with rich, and the read-a-line play loop.

Each game may register its own layout (:func:`register_layout`); a game without one is drawn by
:func:`generic_layout`, which lists every pile. Layouts draw from the piles of a position or a
view (``{"down": [...], "up": [...]}`` per pile), so the same code draws the exact position
(``patience deal``, ``patience replay``) and what a player may see (``patience play``), where a
hidden card is ``None`` and shows as ``##``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import record
from .cards import Card, CardError
from .engine import Game, IllegalMove, Outcome
from .files import write_atomically
from .moves import ACTION_NAMES, Move
from .options import UNLIMITED

__all__ = [
    "LAYOUTS",
    "Layout",
    "PlaySession",
    "card_text",
    "generic_layout",
    "klondike_layout",
    "outcome_text",
    "register_layout",
    "render_game",
    "write_atomically",
]

#: Piles as a position or view JSON holds them: pile name -> {"down": [...], "up": [...]}.
Piles = Mapping[str, Mapping[str, Sequence[str | None]]]

#: A layout draws a position or view JSON (hidden cards are ``None``) as a rich renderable.
Layout = Callable[[Game, Mapping[str, Any]], RenderableType]

#: Layouts by game name; games without an entry get :func:`generic_layout`.
LAYOUTS: dict[str, Layout] = {}

HIDDEN = "##"
EMPTY = "--"


def register_layout(name: str) -> Callable[[Layout], Layout]:
    """Decorator: draw game ``name`` with the decorated function."""

    def decorate(function: Layout) -> Layout:
        LAYOUTS[name] = function
        return function

    return decorate


# -- cards and piles ---------------------------------------------------------------------------


def card_text(card: str | None, *, face_down: bool = False, bold: bool = False) -> Text:
    """One card for display: ``T♥`` in red for hearts and diamonds, ``##`` for a hidden card.

    A face-down card whose identity is shown (the exact position of ``patience deal``) is put in
    parentheses, ``(T♥)``, so it stays distinct from face-up cards even without colour.
    """
    if card is None:
        return Text(HIDDEN, style="dim")
    try:
        parsed = Card.parse(card)
    except CardError:
        # A layout must never crash on a position it cannot read; show the text as it is.
        return Text(card)
    styles = []
    if parsed.is_red():
        styles.append("red")
    if bold:
        styles.append("bold")
    if face_down:
        styles.append("dim")
        return Text(f"({parsed.symbol()})", style=" ".join(styles))
    return Text(parsed.symbol(), style=" ".join(styles))


def pile_cards(pile: Mapping[str, Sequence[str | None]]) -> list[Text]:
    """A pile's cards bottom to top: face-down ones first (``##`` if hidden), then face-up."""
    return [card_text(card, face_down=True) for card in pile.get("down", [])] + [
        card_text(card) for card in pile.get("up", [])
    ]


def pile_top(pile: Mapping[str, Sequence[str | None]]) -> Text:
    """The top card of a pile, or ``--`` when it is empty."""
    cards = pile_cards(pile)
    return cards[-1] if cards else Text(EMPTY, style="dim")


def pile_size(pile: Mapping[str, Sequence[str | None]]) -> int:
    """How many cards lie on a pile."""
    return len(pile.get("down", [])) + len(pile.get("up", []))


def _joined(parts: Sequence[Text]) -> Text:
    return Text(" ").join(parts) if parts else Text(EMPTY, style="dim")


# -- layouts -----------------------------------------------------------------------------------


def _hand_text(hand: object, size: object) -> Text:
    if isinstance(hand, list):
        return _joined([card_text(card if isinstance(card, str) else None) for card in hand])
    if isinstance(size, int):  # a hand the viewer may not see: only its size
        return Text(f"{size} card{'' if size == 1 else 's'}", style="dim")
    return Text("hidden", style="dim")


def generic_layout(game: Game, data: Mapping[str, Any]) -> RenderableType:
    """Every pile on one row, bottom to top, then each seat's hand when the view has ``hands``
    (a list of cards, or None for a hand the viewer may not see; its size from ``hand_sizes``):
    the fallback for games without their own layout. In a game of several seats the seat to move
    is marked ``>``."""
    piles: Piles = data["piles"]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("pile", style="bold")
    table.add_column("cards", overflow="fold")
    for name, pile in piles.items():
        table.add_row(name, _joined(pile_cards(pile)))
    hands = data.get("hands")
    if isinstance(hands, list):
        sizes = data.get("hand_sizes")
        turn = None if game.is_over() or game.rules.players == 1 else game.current_player()
        for seat, hand in enumerate(hands):
            size = sizes[seat] if isinstance(sizes, list) and seat < len(sizes) else None
            mark = "> " if seat == turn else ""
            table.add_row(f"{mark}hand {seat}", _hand_text(hand, size))
    return table


@register_layout("accordion")
def accordion_layout(game: Game, data: Mapping[str, Any]) -> RenderableType:
    """Accordion: the stock's size, then the row of piles (top card and size), wrapping."""
    piles: Piles = data["piles"]
    row = [(name, pile) for name, pile in piles.items() if name != "stock" and pile_size(pile)]
    line = Text(f"stock {pile_size(piles['stock'])}   piles {len(row)}\n\n")
    for index, (name, pile) in enumerate(row):
        if index and index % 8 == 0:
            line.append("\n")
        line.append(f"{name}:")
        line.append_text(pile_top(pile))
        line.append(f"/{pile_size(pile)}  ")
    return line


@register_layout("klondike")
def klondike_layout(game: Game, data: Mapping[str, Any]) -> RenderableType:
    """Klondike: stock, waste and foundations on top, the seven tableau piles as columns."""
    piles: Piles = data["piles"]
    options = game.options
    draw = int(options.get("draw", 1))
    stock = pile_size(piles["stock"])
    waste = pile_cards(piles["waste"])
    shown = waste[-draw:] if waste else []
    if shown:
        # The playable card is the last one; make it stand out from the two under it.
        shown[-1] = shown[-1].copy()
        shown[-1].stylize("bold")
    passes = options.get("passes", UNLIMITED)
    pass_number = int(data.get("redeals", 0)) + 1
    pass_text = f"{pass_number}" + ("" if passes == UNLIMITED else f" of {passes}")

    top = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    top.add_column("stock", justify="right")
    top.add_column("pass", justify="right")
    top.add_column(f"waste ({len(waste)})", min_width=10)
    foundations = [name for name in piles if name.startswith("f") and name[1:].isdigit()]
    for name in foundations:
        top.add_column(name, justify="center")
    top.add_row(
        Text(f"{stock}", style="bold"),
        Text(pass_text, style="dim"),
        _joined(shown),
        *(pile_top(piles[name]) for name in foundations),
    )

    tableau_names = [name for name in piles if name.startswith("t") and name[1:].isdigit()]
    tableau = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    columns = [pile_cards(piles[name]) for name in tableau_names]
    for name in tableau_names:
        tableau.add_column(name, justify="center", min_width=4)
    height = max((len(column) for column in columns), default=0)
    for row in range(max(height, 1)):
        tableau.add_row(
            *(
                column[row] if row < len(column) else Text(EMPTY if row == 0 else "", style="dim")
                for column in columns
            )
        )
    return Group(top, Text(""), tableau)


def header_text(game: Game) -> Text:
    """The line above a table: the game, its deal number, options and move count."""
    rules = game.rules
    deal = "no deal number" if game.deal is None else f"deal {game.deal}"
    moves = len(game.move_stack)
    return Text.assemble(
        (rules.title, "bold"),
        f"  {deal}  ",
        (rules.options_text(), "cyan"),
        f"  {moves} move{'' if moves == 1 else 's'}",
    )


def outcome_text(outcome: Outcome) -> Text:
    """An outcome in words: ``Won: all 52 cards are on the foundations`` in green, losses red."""
    if not outcome.is_over:
        return Text("The game is on.")
    style = {"won": "bold green", "lost": "bold red"}.get(outcome.result, "bold yellow")
    words = outcome.result.capitalize()
    if outcome.reason:
        words += f": {outcome.reason}"
    if outcome.score is not None:
        words += f" (score {outcome.score})"
    return Text(words, style=style)


def render_game(game: Game, *, reveal: bool = False, seat: int = 0) -> RenderableType:
    """The header and the table of a game.

    With ``reveal`` every card is shown (the exact position; face-down cards in parentheses);
    otherwise what ``seat`` may see, with hidden cards as ``##``.
    """
    data = game.position() if reveal else game.view(seat)
    layout = LAYOUTS.get(game.name, generic_layout)
    parts: list[RenderableType] = [header_text(game), layout(game, data)]
    if reveal:
        parts.append(Text("(cards in parentheses lie face down)", style="dim"))
    return Group(*parts)


def move_text(game: Game, move: Move) -> str:
    """A legal move in notation with the cards it moves, as ``t2-t4 6♦`` (for the move list)."""
    if move.is_action or move.source is None:
        return move.text()
    cards = game.state.piles.get(move.source, [])
    if len(cards) < move.count:
        return move.text()
    return f"{move.text()} {cards[-move.count].symbol()}"


def forced_text(move: Move) -> str:
    """A forced move in words where we know it (a card turned up), else in notation."""
    pile, card = move.arg("pile"), move.arg("card")
    if move.action == "flip" and isinstance(pile, str) and isinstance(card, str):
        try:
            return f"{pile} turns up {Card.parse(card).symbol()}"
        except CardError:
            pass
    return move.text()


# -- the play loop -----------------------------------------------------------------------------

HELP = """\
Type a move in notation, or a command.
  Moves:    t3-f (to whichever foundation takes it), t3-f1, t3-t5 (the run that fits),
            t3-t5:2 (two cards), waste-t2, waste-f, f1-t4, stock, recycle
  s         turn the stock (or turn the waste over when the stock is empty)
  moves     list the legal moves                 show     draw the table again
  undo, u   take back a move (undo N: N moves)   redo     make an undone move again
  save FILE write the game's record to FILE      load FILE continue the game in a record
  resign    give up                              help, ?  this text
  hint      suggest a move, judged from the cards you can see
  quit, q   save and leave (resume with: patience play --resume)"""


def prompt_line() -> str:
    """Read one line from the player; raise :class:`EOFError` at the end of input or Ctrl-C."""
    try:
        return str(click.prompt("", prompt_suffix="> ", default="", show_default=False))
    except click.Abort:
        raise EOFError from None


#: Actions the ``s`` shortcut stands for, in order of preference: what clicking the stock does.
STOCK_ACTIONS = ("stock", "recycle", "deal", "redeal")


@dataclass
class PlaySession:
    """One game played at the terminal: reads commands and moves, draws the table, saves.

    ``autosave`` (if given) receives the game's record after every change and on quitting, so
    that a crash loses nothing.
    """

    game: Game
    console: Console
    autosave: Path | None = None
    read_line: Callable[[], str] = prompt_line
    _announced_end: bool = field(default=False, repr=False)
    _autosave_failed: bool = field(default=False, repr=False)

    def run(self) -> Game:
        """Play until the player quits (or input ends); return the game as it stands."""
        deal = "no deal number" if self.game.deal is None else f"deal {self.game.deal}"
        self.console.print(
            Text.assemble(
                ("Playing ", ""),
                (self.game.rules.title, "bold"),
                f", {deal}. Type help for the commands, quit to leave.",
            )
        )
        self.show()
        self.save_auto()
        while True:
            try:
                line = self.read_line()
            except EOFError:
                self.console.print()
                self.quit()
                return self.game
            if not self.handle(line):
                return self.game

    # -- one line ------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one line of input; return False when the player quits."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("quit", "q", "exit"):
            self.quit()
            return False
        commands: dict[str, Callable[[str], None]] = {
            "help": self.cmd_help,
            "h": self.cmd_help,
            "?": self.cmd_help,
            "show": self.cmd_show,
            "moves": self.cmd_moves,
            "m": self.cmd_moves,
            "undo": self.cmd_undo,
            "u": self.cmd_undo,
            "redo": self.cmd_redo,
            "save": self.cmd_save,
            "load": self.cmd_load,
            "resign": self.cmd_resign,
            "hint": self.cmd_hint,
            "s": self.cmd_stock,
        }
        command = commands.get(word)
        if command is None and re.fullmatch(r"[a-z]+", word) and word not in ACTION_NAMES:
            # A bare word that is no command and no game's action: say so rather than let the
            # engine call it an illegal action.
            self.error(f"unknown command {word!r}: type help for the commands, moves for moves")
        elif command is None:
            self.make_move(text)
        else:
            command(rest)
        return True

    def error(self, message: str) -> None:
        """Say what went wrong, in red; the loop goes on."""
        # soft_wrap: leave long messages to the terminal to wrap, so they stay one line of text.
        self.console.print(Text(message, style="red"), soft_wrap=True)

    def show(self) -> None:
        """Draw the table as the player sees it, and the outcome once the game is over."""
        self.console.print(render_game(self.game, seat=self.game.current_player()))
        outcome = self.game.outcome()
        if outcome.is_over:
            self.console.print(outcome_text(outcome))
            if not self._announced_end:
                self.console.print(Text("You may still undo, save or quit.", style="dim"))
            self._announced_end = True
        else:
            self._announced_end = False

    # -- moves -------------------------------------------------------------------------------

    def make_move(self, text: str) -> None:
        """Push a move given in (lenient) notation; report an illegal one without changing
        anything."""
        try:
            move = self.game.parse_move(text)
            forced = self.game.push(move)
        except (IllegalMove, ValueError) as error:
            # MoveSyntaxError and IllegalMove are both ValueErrors with a message that says why.
            reason = self.no_foundation(text) or str(error)
            self.error(f"{reason}. Type moves for the legal moves, help for the commands.")
            return
        self.after_change(move, forced)

    def no_foundation(self, text: str) -> str | None:
        """The reason a lenient ``t3-f`` failed, when no foundation takes the card.

        The engine leaves such a move as it is, and then complains that there is no pile
        ``f``, which is true but not the player's problem.
        """
        try:
            move = Move.parse(text)
        except ValueError:
            return None
        if move.target != "f" or move.source is None or self.game.outcome().is_over:
            return None
        cards = self.game.state.piles.get(move.source)
        if cards is None:
            return None
        if not cards:
            return f"illegal move {move.text()}: {move.source} is empty"
        if len(cards) <= self.game.state.down.get(move.source, 0):
            return f"illegal move {move.text()}: {move.source} has no face-up card"
        card = cards[-1].symbol()
        return f"illegal move {move.text()}: no foundation takes {card} now"

    def after_change(self, move: Move | None, forced: Sequence[Move] = ()) -> None:
        """Report a move just made, draw the table again and save."""
        if move is not None:
            words = [move.text(), *(forced_text(item) for item in forced)]
            self.console.print(Text("Played " + "; ".join(words), style="green"), soft_wrap=True)
        self.show()
        self.save_auto()

    def cmd_stock(self, rest: str) -> None:
        """``s``: the stock's move: turn the stock, turn the waste over, or deal (Accordion),
        whichever is legal."""
        legal = {move.action for move in self.game.legal_moves() if move.is_action}
        for action in STOCK_ACTIONS:
            if action in legal:
                self.make_move(action)
                return
        # Neither is legal: let the engine say why for the one the player must have meant.
        stock_empty = not self.game.state.piles.get("stock")
        self.make_move("recycle" if stock_empty else "stock")

    def cmd_moves(self, rest: str) -> None:
        """List the legal moves in notation, with the card each card move takes."""
        moves = self.game.legal_moves()
        if not moves:
            self.console.print(Text("There is no legal move.", style="yellow"))
            return
        listing = ", ".join(move_text(self.game, move) for move in moves)
        self.console.print(
            Text.assemble((f"{len(moves)} legal: ", "bold"), listing), soft_wrap=True
        )

    def cmd_undo(self, rest: str) -> None:
        """Take back the last move (or the last N), or a resignation."""
        try:
            count = int(rest) if rest else 1
        except ValueError:
            self.error(f"undo takes a number of moves, not {rest!r}")
            return
        if count < 1:
            self.error("undo takes a number of moves of 1 or more")
            return
        changed = False
        if self.game.resigned:
            # Taking back a resignation should not also take back the move before it.
            self.game.take_back_resignation()
            self.console.print(Text("Resignation taken back.", style="green"))
            count -= 1
            changed = True
        undone = [self.game.pop().text() for _ in range(min(count, len(self.game.move_stack)))]
        if undone:
            self.console.print(Text("Undid " + ", ".join(undone), style="green"))
        elif count:
            self.error("there is no move to undo")
        if undone or changed:
            self.after_change(None)

    def cmd_redo(self, rest: str) -> None:
        """Make the last undone move again."""
        try:
            move = self.game.redo()
        except IllegalMove as error:
            self.error(str(error))
            return
        self.after_change(move, self.game.forced_stack[-1])

    def cmd_resign(self, rest: str) -> None:
        """Give up the game (undo takes the resignation back)."""
        if self.game.is_over():
            self.error("the game is already over")
            return
        self.game.resign()
        self.after_change(None)

    # -- files -------------------------------------------------------------------------------

    def cmd_save(self, rest: str) -> None:
        """Write the game's record to a file."""
        if not rest:
            self.error("save needs a file name: save FILE")
            return
        path = Path(rest).expanduser()
        try:
            record.dump(self.game, path)
        except (OSError, ValueError) as error:
            self.error(f"cannot save to {path}: {error}")
            return
        self.console.print(Text(f"Saved to {path}", style="green"), soft_wrap=True)

    def cmd_load(self, rest: str) -> None:
        """Continue the game held in a record file (it replaces the current game)."""
        if not rest:
            self.error("load needs a file name: load FILE")
            return
        path = Path(rest).expanduser()
        try:
            game = record.load(path)
        except FileNotFoundError:
            self.error(f"cannot load {path}: there is no such file")
            return
        except (OSError, ValueError) as error:
            # RecordError, PositionError, OptionError, UnknownGame: all ValueErrors that say why.
            self.error(f"cannot load {path}: {error}")
            return
        self.game = game
        self.console.print(Text(f"Loaded {path}", style="green"), soft_wrap=True)
        self.after_change(None)

    def cmd_hint(self, rest: str) -> None:
        """Suggest a move from the player's view alone (patience.solve.hint)."""
        from .solve.hint import hint, hint_budget

        if self.game.rules.players != 1:
            self.error("hints are for the one-player games")
            return
        self.console.print(Text("Thinking...", style="dim"))
        try:
            answer = hint(self.game, **hint_budget(self.game.name))
        except ValueError as error:  # a view the sampler cannot deal: say so, play on
            self.error(f"no hint: {error}")
            return
        self.console.print(Text(answer.text(), style="cyan"), soft_wrap=True)

    def cmd_help(self, rest: str) -> None:
        """Print the commands."""
        self.console.print(Text(HELP))

    def cmd_show(self, rest: str) -> None:
        """Draw the table again."""
        self.show()

    def save_auto(self) -> None:
        """Save the game to the autosave file, warning (once) if that fails."""
        if self.autosave is None:
            return
        try:
            write_atomically(self.autosave, record.dumps(self.game))
        except (OSError, ValueError) as error:
            if not self._autosave_failed:
                self.console.print(
                    Text(f"Warning: cannot save to {self.autosave}: {error}", style="yellow"),
                    soft_wrap=True,
                )
            self._autosave_failed = True
        else:
            self._autosave_failed = False

    def quit(self) -> None:
        """Save and say where the game went."""
        self.save_auto()
        if self.autosave is not None and not self._autosave_failed:
            self.console.print(
                f"Game saved to {self.autosave}; continue it with: patience play --resume",
                soft_wrap=True,
            )
