"""Game records: a whole game written down so that it can be replayed exactly (docs/records.md).

Two forms hold the same facts. The **text form** is like chess's PGN: tag pairs, a blank line,
then the numbered moves, each followed by its forced moves in braces, and a result marker::

    [Game "klondike"]
    [Options "draw=1,passes=unlimited,from_foundation=on"]
    [Deal "7"]
    [Shuffle "1"]
    [Version "1"]
    [Result "ongoing"]

    1. t7-f1 {flip(pile=t7,card=6s)} 2. stock *

The **JSON form** is one object with the same facts (``"format": "patience-record"``).

Reading a record replays it: every move must be legal, every forced move must be the one the
engine makes, and the result must be the one the moves lead to. Anything else is refused with a
:class:`RecordError` naming the line (text form) and the move number.

>>> import patience
>>> from patience import record
>>> game = patience.new("klondike", deal=7, draw=1)
>>> game.push("t7-f1")
[Move.parse('flip(pile=t7,card=6s)')]
>>> text = record.dumps(game, players=["ann"])
>>> print(text.split("\\n\\n")[1].strip())
1. t7-f1 {flip(pile=t7,card=6s)} *
>>> rec, again = record.load_record(text)
>>> rec.players, again.position() == game.position()
(['ann'], True)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import jsontext
from .deals import SHUFFLE_VERSION, DealError, check_deal
from .engine import Game, IllegalMove, Outcome, Result, check_forced
from .games import get_rules, resolve_name
from .moves import Move, MoveSyntaxError
from .options import OptionValue, parse_option_pairs

__all__ = [
    "FORMAT_NAME",
    "RECORD_VERSION",
    "Record",
    "RecordError",
    "dump",
    "dumps",
    "load",
    "load_record",
    "loads",
    "read_record",
]

#: The version of the record format this module writes and reads.
RECORD_VERSION = 1
#: The value of the JSON form's ``format`` key.
FORMAT_NAME = "patience-record"
#: Text form lines are wrapped at this width (a single longer token stays whole).
LINE_WIDTH = 80

RESULTS = tuple(Result)
#: The result marker that ends the move text, for each result.
MARKERS = {"ongoing": "*", "won": "won", "lost": "lost", "draw": "draw"}
RESIGNED = "resigned"
_ONGOING = Outcome(Result.ONGOING)

#: Tags this module writes, in the order it writes them. Others are read into ``Record.extra``.
KNOWN_TAGS = (
    "Game",
    "Options",
    "Deal",
    "Position",
    "Shuffle",
    "Version",
    "Seed",
    "Players",
    "Result",
    "Reason",
    "Winner",
    "Scores",
    "Score",
)

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^([0-9]+)\.$")
_INT = re.compile(r"^-?[0-9]+$")


class RecordError(ValueError):
    """A record that cannot be read or replayed.

    ``line`` is the line of the text form where the problem lies (None for the JSON form or when
    no single line is to blame), ``move_number`` the number of the player move concerned (1 is
    the first move), and ``reason`` what is wrong and what is allowed.
    """

    def __init__(
        self, reason: str, *, line: int | None = None, move_number: int | None = None
    ) -> None:
        self.reason = reason
        self.line = line
        self.move_number = move_number
        where = []
        if line is not None:
            where.append(f"line {line}")
        if move_number is not None:
            where.append(f"move {move_number}")
        super().__init__(", ".join(where) + ": " + reason if where else reason)


@dataclass(frozen=True)
class Record:
    """The facts of a game record, read but not yet replayed.

    ``options`` holds every option of the game with its canonical value. A game dealt from a deal
    number has ``deal`` set and ``position`` None; a game that started from a position has the
    position JSON (docs/formats.md) in ``position`` and ``deal`` None. ``forced[i]`` lists the
    forced moves written after ``moves[i]``. ``outcome`` is the result the record claims;
    ``extra`` holds tags (or JSON keys) this version does not know, which are otherwise ignored.
    ``move_lines`` and ``tag_lines`` say where things stood in a text record, for messages.
    """

    game: str
    options: dict[str, OptionValue]
    deal: int | None
    position: dict[str, Any] | None
    moves: list[Move]
    forced: list[list[Move]]
    outcome: Outcome = _ONGOING
    seed: int | None = None
    players: list[str] | None = None
    version: int = RECORD_VERSION
    shuffle: int = SHUFFLE_VERSION
    extra: dict[str, Any] = field(default_factory=dict)
    #: Forced moves that followed the deal, before move 1 (docs/records.md).
    opening: list[Move] = field(default_factory=list)
    move_lines: list[int] | None = field(default=None, compare=False, repr=False)
    opening_line: int | None = field(default=None, compare=False, repr=False)
    tag_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def result(self) -> str:
        """The result the record claims: ``won``, ``lost``, ``draw`` or ``ongoing``."""
        return self.outcome.result

    @property
    def reason(self) -> str:
        """Why the game ended, as the record says ("" while ongoing)."""
        return self.outcome.reason

    # -- from a game -----------------------------------------------------------------------

    @classmethod
    def from_game(
        cls, game: Game, *, players: Sequence[str] | None = None, seed: int | None = None
    ) -> Record:
        """The record of ``game`` so far, with optional metadata a game does not hold."""
        rules = game.rules
        start = game.start_state
        deal = game.deal
        position: dict[str, Any] | None = None
        # A game made from a position may still carry the deal number it came from; only a game
        # whose start is exactly that deal's layout can be written with a bare Deal tag.
        opening = game.opening
        if deal is None or rules.position_json(rules.start(deal)[0], None) != rules.position_json(
            start, None
        ):
            position = dict(rules.position_json(start, deal))
            deal = None
            opening = []
        return cls(
            game=rules.name,
            options=dict(rules.options),
            deal=deal,
            position=position,
            moves=game.move_stack,
            forced=game.forced_stack,
            opening=list(opening),
            outcome=game.outcome(),
            seed=_check_seed(seed),
            players=_check_players(players),
        )

    # -- writing ---------------------------------------------------------------------------

    def dumps(self, format: str = "text") -> str:
        """The record as text (``format="text"``) or JSON (``format="json"``)."""
        if format == "text":
            return self._text()
        if format == "json":
            return self._json()
        raise ValueError(f"unknown record format {format!r}: use text or json")

    def _text(self) -> str:
        rules = get_rules(self.game, self.options)
        tags: list[tuple[str, str]] = [("Game", rules.name), ("Options", rules.options_text())]
        if self.position is not None:
            tags.append(("Position", json.dumps(self.position, separators=(",", ":"))))
        else:
            tags.append(("Deal", str(self.deal)))
        tags += [("Shuffle", str(SHUFFLE_VERSION)), ("Version", str(RECORD_VERSION))]
        if self.seed is not None:
            tags.append(("Seed", str(self.seed)))
        if self.players is not None:
            tags.append(("Players", _players_text(self.players)))
        outcome = self.outcome
        tags.append(("Result", outcome.result))
        if outcome.reason:
            tags.append(("Reason", outcome.reason))
        if outcome.winner is not None:
            tags.append(("Winner", str(outcome.winner)))
        if outcome.scores is not None:
            tags.append(("Scores", ",".join(str(score) for score in outcome.scores)))
        if outcome.score is not None:
            tags.append(("Score", str(outcome.score)))
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
        # A move's number, the move and its forced moves stay on one line, so a line never ends
        # with "12." and an annotation never starts a line.
        units: list[str] = []
        if self.opening:
            units.append("{" + " ".join(item.text() for item in self.opening) + "}")
        for number, (move, forced) in enumerate(zip(self.moves, self.forced, strict=True), 1):
            unit = f"{number}. {move.text()}"
            if forced:
                unit += " {" + " ".join(item.text() for item in forced) + "}"
            units.append(unit)
        units.append(MARKERS[outcome.result])
        return "\n".join([*lines, "", *_wrap(units, LINE_WIDTH)]) + "\n"

    def _json(self) -> str:
        head: dict[str, Any] = {
            "format": FORMAT_NAME,
            "version": RECORD_VERSION,
            "shuffle": SHUFFLE_VERSION,
            "game": self.game,
            "options": self.options,
        }
        if self.position is not None:
            head["position"] = self.position
        else:
            head["deal"] = self.deal
        if self.seed is not None:
            head["seed"] = self.seed
        if self.players is not None:
            head["players"] = self.players
        # One move to a line keeps long games readable and diffs small.
        if self.opening:
            head["opening"] = [item.text() for item in self.opening]
        items = [f"  {_json_value(key)}: {_json_value(value)}" for key, value in head.items()]
        moves = [
            "    " + _json_value({"move": move.text(), "forced": [item.text() for item in forced]})
            for move, forced in zip(self.moves, self.forced, strict=True)
        ]
        items.append('  "moves": [\n' + ",\n".join(moves) + "\n  ]" if moves else '  "moves": []')
        items.append(f'  "result": {_json_value(self.outcome.to_json())}')
        return "{\n" + ",\n".join(items) + "\n}\n"

    # -- replaying -------------------------------------------------------------------------

    def replay(self) -> Game:
        """Replay the record into a new :class:`Game`, checking every move, every forced move
        and the result; raise :class:`RecordError` at the first problem."""
        try:
            rules = get_rules(self.game, self.options)
        except ValueError as error:
            raise RecordError(str(error), line=self.tag_lines.get("Game")) from None
        if self.position is not None:
            line = self.tag_lines.get("Position")
            try:
                game = Game.from_position(self.position)
            except ValueError as error:
                raise RecordError(f"bad start position: {error}", line=line) from None
            if game.name != rules.name or game.options != rules.options:
                raise RecordError(
                    f"the start position is a {game.name} position with options "
                    f"{game.rules.options_text()}, but the record is of {rules.name} with "
                    f"{rules.options_text()}",
                    line=line,
                )
        elif self.deal is not None:
            try:
                game = Game.create(rules, deal=check_deal(self.deal))
            except DealError as error:
                raise RecordError(str(error), line=self.tag_lines.get("Deal")) from None
        else:
            raise RecordError("the record has neither a deal number nor a start position")
        problem = check_forced(self.opening, game.opening)
        if problem is not None:
            raise RecordError(
                f"forced moves of the deal do not match: {problem}", line=self.opening_line
            )
        if len(self.forced) != len(self.moves):
            raise RecordError("the record needs one list of forced moves for each move")
        for index, (move, written) in enumerate(zip(self.moves, self.forced, strict=True), 1):
            line = self.move_lines[index - 1] if self.move_lines else None
            try:
                actual = game.push(move)
            except IllegalMove as error:
                raise RecordError(
                    f"illegal move {move.text()}: {error.reason}", line=line, move_number=index
                ) from None
            problem = check_forced(written, actual)
            if problem is not None:
                raise RecordError(
                    f"forced moves after {move.text()} do not match: {problem}",
                    line=line,
                    move_number=index,
                )
        if self.outcome.reason == RESIGNED:
            game.resign()
        actual_outcome = game.outcome()
        if actual_outcome != self.outcome:
            raise RecordError(
                f"the record's result is {_describe(self.outcome)}, but its moves give "
                f"{_describe(actual_outcome)}",
                line=self.tag_lines.get("Result"),
            )
        return game


# -- the public functions ------------------------------------------------------------------


def dumps(
    game: Game, format: str = "text", *, players: list[str] | None = None, seed: int | None = None
) -> str:
    """The record of ``game`` as text (``format="text"``, like PGN) or JSON (``"json"``).

    ``players`` (names without commas) and ``seed`` are kept in the record; a :class:`Game` does
    not hold them, so read them back with :func:`load_record`.
    """
    return Record.from_game(game, players=players, seed=seed).dumps(format)


def read_record(text: str) -> Record:
    """Read a record (JSON if its first non-blank character is ``{``, else the text form)
    without replaying it; raise :class:`RecordError` if it is malformed."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        return _read_json(text)
    return _read_text(text)


def load_record(text: str) -> tuple[Record, Game]:
    """Read and replay a record: the record (with players, seed, ...) and the replayed game."""
    record = read_record(text)
    return record, record.replay()


def loads(text: str) -> Game:
    """Read and replay a record into a new :class:`Game` (see :meth:`Record.replay`).

    Nothing is returned unless the whole record is read and checked; the first problem raises
    :class:`RecordError` naming the line and/or move number.
    """
    return read_record(text).replay()


def dump(
    game: Game,
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    players: list[str] | None = None,
    seed: int | None = None,
) -> None:
    """Write the record of ``game`` to ``path``: JSON if ``format`` is ``"json"`` or, with no
    format given, if the file name ends in ``.json``; the text form otherwise."""
    path = Path(path)
    if format is None:
        format = "json" if path.suffix.lower() == ".json" else "text"
    path.write_text(dumps(game, format, players=players, seed=seed), encoding="utf-8")


def load(path: str | os.PathLike[str]) -> Game:
    """Read and replay the record in file ``path`` (either form; see :func:`loads`)."""
    return loads(Path(path).read_text(encoding="utf-8"))


# -- the text form -------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str, line: int) -> str:
    out: list[str] = []
    chars = iter(value)
    for char in chars:
        if char == "\\":
            # The tag pattern guarantees a character follows every backslash.
            escaped = next(chars)
            if escaped not in '"\\':
                raise RecordError(
                    f'unknown escape "\\{escaped}" in a tag value: only \\" and \\\\ are escapes',
                    line=line,
                )
            out.append(escaped)
        else:
            out.append(char)
    return "".join(out)


def _wrap(units: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for unit in units:
        if current and len(current) + 1 + len(unit) > width:
            lines.append(current)
            current = unit
        else:
            current = f"{current} {unit}" if current else unit
    lines.append(current)
    return lines


@dataclass
class _Token:
    text: str
    line: int
    braced: bool = False


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith(";")


def _read_text(text: str) -> Record:
    lines = text.splitlines()
    tags: dict[str, tuple[str, int]] = {}
    extra: dict[str, Any] = {}
    seen: dict[str, int] = {}
    index = 0
    # Tag pairs come first; blank lines and comments may stand among them.
    while index < len(lines):
        stripped = lines[index].strip()
        number = index + 1
        if not stripped or _is_comment(stripped):
            index += 1
            continue
        if not stripped.startswith("["):
            break
        match = _TAG.match(stripped)
        if not match:
            raise RecordError(
                f'malformed tag pair {stripped!r}: write [Name "value"], with \\" and \\\\ '
                "for a quote and a backslash in the value",
                line=number,
            )
        name, value = match.group(1), _unescape(match.group(2), number)
        if name in seen:
            raise RecordError(
                f"tag {name} is given twice (first on line {seen[name]})", line=number
            )
        seen[name] = number
        if name in KNOWN_TAGS:
            tags[name] = (value, number)
        else:
            extra[name] = value
        index += 1
    if not tags and not extra:
        raise RecordError(
            "this is not a record: it starts with no tag pairs (a record begins with "
            '[Game "..."]) and is not JSON'
        )
    tokens, end_line = _tokenize(lines, index)
    tag_lines = {name: number for name, (_, number) in tags.items()}
    head = _read_tags(tags)
    opening: list[Move] = []
    opening_line: int | None = None
    if tokens and tokens[0].braced:
        # Forced moves of the deal stand before move 1.
        opening_line = tokens[0].line
        opening = _parse_forced(tokens.pop(0), None)
    moves, forced, move_lines = _read_moves(tokens, head.outcome.result, tag_lines, end_line)
    return Record(
        opening=opening,
        opening_line=opening_line,
        game=head.game,
        options=head.options,
        deal=head.deal,
        position=head.position,
        moves=moves,
        forced=forced,
        outcome=head.outcome,
        seed=head.seed,
        players=head.players,
        version=head.version,
        shuffle=head.shuffle,
        extra=extra,
        move_lines=move_lines,
        tag_lines=tag_lines,
    )


@dataclass
class _Head:
    game: str
    options: dict[str, OptionValue]
    deal: int | None
    position: dict[str, Any] | None
    outcome: Outcome
    seed: int | None
    players: list[str] | None
    version: int
    shuffle: int


def _read_tags(tags: dict[str, tuple[str, int]]) -> _Head:
    def need(name: str, what: str) -> tuple[str, int]:
        if name not in tags:
            raise RecordError(f'the record has no {name} tag: add [{name} "{what}"]')
        return tags[name]

    def integer(name: str, value: str, line: int) -> int:
        if not _INT.match(value.strip()):
            raise RecordError(f"tag {name} must be a whole number, not {value!r}", line=line)
        return int(value)

    version_text, line = need("Version", str(RECORD_VERSION))
    version = _check_version(integer("Version", version_text, line), line)

    name_text, line = need("Game", "klondike")
    try:
        name = resolve_name(name_text)
    except ValueError as error:
        raise RecordError(str(error), line=line) from None

    options_text, line = tags.get("Options", ("", 0))
    try:
        options = dict(get_rules(name, parse_option_pairs([options_text])).options)
    except ValueError as error:
        raise RecordError(str(error), line=line or tags["Game"][1]) from None

    deal: int | None = None
    position: dict[str, Any] | None = None
    if "Deal" in tags and "Position" in tags:
        raise RecordError(
            "the record has both a Deal and a Position tag: give the deal number or the start "
            "position, not both",
            line=tags["Position"][1],
        )
    if "Deal" in tags:
        deal_text, line = tags["Deal"]
        try:
            deal = check_deal(deal_text)
        except DealError as error:
            raise RecordError(str(error), line=line) from None
    elif "Position" in tags:
        position_text, line = tags["Position"]
        try:
            data = jsontext.loads(position_text)
        except jsontext.JSONTextError as error:
            raise RecordError(f"the Position tag is not JSON: {error}", line=line) from None
        if not isinstance(data, dict):
            raise RecordError("the Position tag must hold a position JSON object", line=line)
        position = data
    else:
        raise RecordError(
            'the record has no Deal tag (the deal number, [Deal "7"]) and no Position tag '
            "(a start position as JSON)"
        )

    shuffle = SHUFFLE_VERSION
    if "Shuffle" in tags:
        shuffle_text, line = tags["Shuffle"]
        shuffle = integer("Shuffle", shuffle_text, line)
    elif deal is not None:
        raise RecordError(
            f'the record has a Deal tag but no Shuffle tag: add [Shuffle "{shuffle}"]'
        )
    # The shuffle only matters when the record is dealt from a deal number.
    if deal is not None:
        _check_shuffle(shuffle, tags["Shuffle"][1])

    seed: int | None = None
    if "Seed" in tags:
        seed = integer("Seed", *tags["Seed"])

    players: list[str] | None = None
    if "Players" in tags:
        text, line = tags["Players"]
        try:
            players = _parse_players(text)
        except ValueError as error:
            raise RecordError(f"tag Players: {error}", line=line) from None

    result_text, line = need("Result", "ongoing")
    if result_text not in RESULTS:
        raise RecordError(
            f"unknown result {result_text!r}: use {', '.join(RESULTS)}",
            line=line,
        )
    winner = integer("Winner", *tags["Winner"]) if "Winner" in tags else None
    score = integer("Score", *tags["Score"]) if "Score" in tags else None
    scores: tuple[int, ...] | None = None
    if "Scores" in tags:
        scores_text, line = tags["Scores"]
        scores = tuple(integer("Scores", part, line) for part in scores_text.split(","))
    outcome = Outcome(
        Result(result_text),
        tags.get("Reason", ("", 0))[0],
        winner=winner,
        scores=scores,
        score=score,
    )
    return _Head(name, options, deal, position, outcome, seed, players, version, shuffle)


def _tokenize(lines: list[str], start: int) -> tuple[list[_Token], int]:
    """Split the move text into words and brace groups; a brace group may span lines."""
    tokens: list[_Token] = []
    open_brace: _Token | None = None
    for index in range(start, len(lines)):
        number = index + 1
        text = lines[index]
        if _is_comment(text):
            continue
        pos = 0
        while pos < len(text):
            char = text[pos]
            if open_brace is not None:
                close = text.find("}", pos)
                open_brace.text += " " + text[pos : close if close >= 0 else len(text)]
                if close < 0:
                    break
                tokens.append(open_brace)
                open_brace = None
                pos = close + 1
            elif char.isspace():
                pos += 1
            elif char == "{":
                open_brace = _Token("", number, braced=True)
                pos += 1
            elif char == "}":
                raise RecordError("a '}' without a '{' before it", line=number)
            else:
                end = pos
                while end < len(text) and not text[end].isspace() and text[end] not in "{}":
                    end += 1
                tokens.append(_Token(text[pos:end], number))
                pos = end
    if open_brace is not None:
        raise RecordError("a '{' that is never closed by a '}'", line=open_brace.line)
    return tokens, len(lines)


def _read_moves(
    tokens: list[_Token], result: str, tag_lines: dict[str, int], end_line: int
) -> tuple[list[Move], list[list[Move]], list[int]]:
    """Read ``N. MOVE [{FORCED ...}]`` repeated, then the result marker, from the tokens."""
    moves: list[Move] = []
    forced: list[list[Move]] = []
    move_lines: list[int] = []
    markers = set(MARKERS.values())
    index = 0
    while True:
        number = len(moves) + 1
        if index >= len(tokens):
            raise RecordError(
                f"the move text ends without a result marker: end it with {MARKERS[result]} "
                f"(the markers are won, lost, draw and * for a game still going on)",
                line=end_line,
            )
        token = tokens[index]
        if token.braced:
            raise RecordError(
                "a forced-move annotation {...} must follow a player move",
                line=token.line,
                move_number=number - 1 or None,
            )
        if token.text in markers:
            if token.text != MARKERS[result]:
                raise RecordError(
                    f"the result marker {token.text} does not match the Result tag {str(result)!r} "
                    f"(line {tag_lines.get('Result')}), whose marker is {MARKERS[result]}",
                    line=token.line,
                )
            if index + 1 < len(tokens):
                after = tokens[index + 1]
                raise RecordError(
                    f"{after.text!r} after the result marker: the marker ends the record",
                    line=after.line,
                )
            return moves, forced, move_lines
        match = _NUMBER.match(token.text)
        if not match:
            hint = (
                " (tag pairs come first, then a blank line, then the moves)"
                if token.text.startswith("[")
                else ""
            )
            raise RecordError(
                f"expected the move number {number}. or a result marker (won, lost, draw, *), "
                f"found {token.text!r}{hint}",
                line=token.line,
                move_number=number,
            )
        if int(match.group(1)) != number:
            raise RecordError(
                f"move number {token.text} is out of sequence: the next move is number {number}",
                line=token.line,
                move_number=number,
            )
        index += 1
        if index >= len(tokens) or tokens[index].braced:
            raise RecordError(
                f"move number {token.text} is not followed by a move",
                line=token.line,
                move_number=number,
            )
        move_token = tokens[index]
        try:
            move = Move.parse(move_token.text)
        except MoveSyntaxError as error:
            raise RecordError(str(error), line=move_token.line, move_number=number) from None
        index += 1
        written: list[Move] = []
        if index < len(tokens) and tokens[index].braced:
            written = _parse_forced(tokens[index], number)
            index += 1
        moves.append(move)
        forced.append(written)
        move_lines.append(move_token.line)


def _parse_forced(brace: _Token, number: int | None) -> list[Move]:
    written: list[Move] = []
    for item in brace.text.split():
        try:
            written.append(Move.parse(item))
        except MoveSyntaxError as error:
            raise RecordError(
                f"in the forced moves: {error}", line=brace.line, move_number=number
            ) from None
    return written


# -- the JSON form -------------------------------------------------------------------------


def _json_value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _read_json(text: str) -> Record:
    try:
        data = jsontext.loads(text)
    except jsontext.JSONTextError as error:
        raise RecordError(f"bad JSON: {error.reason}", line=error.line) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise RecordError(f'this JSON is not a game record: it needs "format": "{FORMAT_NAME}"')
    known = {"format", "version", "shuffle", "game", "options", "deal", "position"}
    known |= {"seed", "players", "moves", "result", "opening"}
    extra = {key: value for key, value in data.items() if key not in known}

    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(
            f'"version" must be a whole number (this program writes {RECORD_VERSION})'
        )
    _check_version(version, None)

    name = data.get("game")
    if not isinstance(name, str):
        raise RecordError('"game" must be the name of the game, as in "klondike"')
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError('"options" must be an object of option name -> value')
    try:
        rules = get_rules(name, options)
    except ValueError as error:
        raise RecordError(str(error)) from None

    deal: int | None = None
    position: dict[str, Any] | None = None
    if ("deal" in data) == ("position" in data):
        raise RecordError('a record has either "deal" (the deal number) or "position", not both')
    if "deal" in data:
        if not _is_int(data["deal"]):
            raise RecordError(f'"deal" must be a whole number, not {data["deal"]!r}')
        try:
            deal = check_deal(data["deal"])
        except DealError as error:
            raise RecordError(str(error)) from None
        if not _is_int(data.get("shuffle")):
            raise RecordError(f'a record with a "deal" needs "shuffle": {SHUFFLE_VERSION}')
        _check_shuffle(data["shuffle"], None)
    else:
        if not isinstance(data["position"], dict):
            raise RecordError('"position" must be a position JSON object')
        position = data["position"]
    shuffle = data.get("shuffle", SHUFFLE_VERSION)
    if not _is_int(shuffle):
        raise RecordError('"shuffle" must be a whole number')

    seed = data.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError(f'"seed" must be a whole number, not {seed!r}')
    players = data.get("players")
    if players is not None:
        if not isinstance(players, list):
            raise RecordError('"players" must be a list of names')
        try:
            _check_players(players)
        except ValueError as error:
            raise RecordError(f'"players": {error}') from None

    raw_moves = data.get("moves")
    if not isinstance(raw_moves, list):
        raise RecordError('"moves" must be a list of {"move": ..., "forced": [...]} objects')
    moves: list[Move] = []
    forced: list[list[Move]] = []
    for number, entry in enumerate(raw_moves, 1):
        if not isinstance(entry, dict) or "move" not in entry:
            raise RecordError(
                f'each move is an object {{"move": ..., "forced": [...]}}, not {entry!r}',
                move_number=number,
            )
        unknown = sorted(set(entry) - {"move", "forced"})
        if unknown:
            raise RecordError(
                f'unknown key {unknown[0]!r} in a move: a move is {{"move": ..., "forced": [...]}}',
                move_number=number,
            )
        moves.append(_json_move(entry["move"], number, ""))
        items = entry.get("forced", [])
        if not isinstance(items, list):
            raise RecordError('"forced" must be a list of moves', move_number=number)
        forced.append([_json_move(item, number, "in the forced moves: ") for item in items])

    raw_opening = data.get("opening", [])
    if not isinstance(raw_opening, list):
        raise RecordError('"opening" must be a list of the forced moves of the deal')
    opening = [_json_move(item, None, "in the forced moves of the deal: ") for item in raw_opening]
    outcome = _json_outcome(data.get("result"))
    return Record(
        opening=opening,
        game=rules.name,
        options=dict(rules.options),
        deal=deal,
        position=position,
        moves=moves,
        forced=forced,
        outcome=outcome,
        seed=seed,
        players=players,
        version=version,
        shuffle=shuffle,
        extra=extra,
    )


def _json_move(value: object, number: int | None, context: str) -> Move:
    try:
        if isinstance(value, str):
            return Move.parse(value)
        if isinstance(value, dict):
            return Move.from_json(value)
    except MoveSyntaxError as error:
        raise RecordError(f"{context}{error}", move_number=number) from None
    raise RecordError(
        f'{context}a move is text like "t3-f1" or an object like '
        f'{{"from": "t3", "to": "f1"}}, not {value!r}',
        move_number=number,
    )


def _json_outcome(data: object) -> Outcome:
    if not isinstance(data, dict) or data.get("result") not in RESULTS:
        raise RecordError(
            '"result" must be an outcome object like {"result": "won", "reason": "..."} with '
            f"result one of {', '.join(RESULTS)}"
        )
    reason = data.get("reason", "")
    winner = data.get("winner")
    scores = data.get("scores")
    score = data.get("score")
    if (
        not isinstance(reason, str)
        or (winner is not None and not _is_int(winner))
        or (score is not None and not _is_int(score))
        or (scores is not None and not (isinstance(scores, list) and all(map(_is_int, scores))))
    ):
        raise RecordError(
            '"result": "reason" must be text, "winner" and "score" whole numbers and "scores" a '
            "list of whole numbers"
        )
    return Outcome.from_json(data)


# -- shared checks -------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_version(version: int, line: int | None) -> int:
    if version != RECORD_VERSION:
        raise RecordError(
            f"record version {version} is not supported: this program reads version "
            f"{RECORD_VERSION}",
            line=line,
        )
    return version


def _check_shuffle(shuffle: int, line: int | None) -> None:
    if shuffle != SHUFFLE_VERSION:
        raise RecordError(
            f"this record needs shuffle version {shuffle}, but this program deals with shuffle "
            f"version {SHUFFLE_VERSION}: its deal numbers would give other layouts",
            line=line,
        )


def _check_seed(seed: object) -> int | None:
    if seed is None:
        return None
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"a record's seed is a whole number, not {seed!r}")
    return seed


def _check_players(players: Sequence[str] | None) -> list[str] | None:
    if players is None:
        return None
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise ValueError(
                f"player name {name!r} cannot go in a record: a name is text on one line "
                "(no line breaks or control characters) with at least one character other than "
                "a space"
            )
    return names


def _needs_quotes(name: str) -> bool:
    """Whether a name must be quoted in the Players tag: written bare it would be split at a
    comma, lose its spaces at either end, or (starting with a quote) read as quoted."""
    return "," in name or name != name.strip() or name.startswith('"')


def _players_text(players: Sequence[str]) -> str:
    """The Players tag's value: the names joined by commas, each name that has a comma, spaces
    at either end or a leading double quote written as a JSON string (docs/records.md).

    >>> _players_text(["ann", "Smith, J", " bo "])
    'ann,"Smith, J"," bo "'
    """
    return ",".join(
        json.dumps(name, ensure_ascii=False) if _needs_quotes(name) else name
        for name in _check_players(players) or ()
    )


_DECODER = json.JSONDecoder()


def _parse_players(text: str) -> list[str]:
    """The names in a Players tag's value (:func:`_players_text`'s inverse). A bare name is
    taken up to the next comma, without spaces at either end, as records have always been
    read; a name in double quotes is a JSON string. ValueError says what is wrong.

    >>> _parse_players('ann, "Smith, J",bob')
    ['ann', 'Smith, J', 'bob']
    """
    names: list[str] = []
    at = 0
    while True:
        while text.startswith(" ", at):
            at += 1
        if text.startswith('"', at):
            try:
                name, at = _DECODER.raw_decode(text, at)
            except json.JSONDecodeError as error:
                raise ValueError(
                    f"the quoted name at character {at + 1} is not a JSON string: {error.msg}"
                ) from None
            while text.startswith(" ", at):
                at += 1
            if at < len(text) and text[at] != ",":
                raise ValueError(
                    f"a comma must follow the quoted name {name!r} (character {at + 1})"
                )
        else:
            comma = text.find(",", at)
            end = len(text) if comma < 0 else comma
            name, at = text[at:end].strip(), end
        if not name:
            raise ValueError("it lists the players' names separated by commas, and a name is empty")
        names.append(name)
        if at >= len(text):
            break
        at += 1  # the comma
    _check_players(names)
    return names


def _describe(outcome: Outcome) -> str:
    text = str(outcome.result)
    if outcome.reason:
        text += f" ({outcome.reason})"
    if outcome.winner is not None:
        text += f", winner {outcome.winner}"
    if outcome.scores is not None:
        text += f", scores {','.join(map(str, outcome.scores))}"
    if outcome.score is not None:
        text += f", score {outcome.score}"
    return text
