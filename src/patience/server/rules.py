"""The rules of each game as HTML, for the table pages' "Rules" panel.

The panel is written for players: ``docs/rules/GAME.howto.md`` ("How to play", from RULES.md,
with no source paths or command lines), then the game's settings in words, made from the
catalogue (each option's label, its values, its default and what it does), so that they never
disagree with the program. A game without a how-to file gets ``docs/rules/GAME.md``, the rules
as implemented (for developers: options, rulings, the code's files).

The rules as implemented are ``docs/rules/GAME.md`` in the repository. They are looked for in a
``rules`` folder inside the installed package first, then in the repository's ``docs/rules`` next
to the source tree; a game whose file is in neither place is a clear 404, never a crash. In the
source tree ``src/patience/rules`` is a symbolic link to ``docs/rules``, and pyproject.toml's
package data (``rules/*.md``) copies the files into a wheel, so an installed package has them.

Markdown is rendered on the server with markdown-it's CommonMark preset plus GFM tables (every
rules file has a table of its options), raw HTML disabled, so a ``<script>`` in a rules file
reaches the page as text. A column's alignment becomes a class (``align-left``, ...), not the
inline ``style`` markdown-it writes, which the pages' Content-Security-Policy would block.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from ..games import GAMES, UnknownGame, resolve_name
from .catalogue import game_entry
from .errors import CommandError

__all__ = ["RulesBook", "default_rules_dirs", "render_markdown"]

#: The repository's rules folder, found from this file: src/patience/server/rules.py.
REPOSITORY_RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"


def default_rules_dirs() -> list[Traversable]:
    """Where rules files are looked for, in order: the package's ``rules`` folder, then the
    repository's ``docs/rules``."""
    return [files("patience") / "rules", REPOSITORY_RULES]


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def align_as_class(state: StateCore) -> None:
        for token in state.tokens:
            style = token.attrs.pop("style", None) if token.type in _CELLS else None
            if isinstance(style, str) and style.startswith("text-align:"):
                token.attrSet("class", f"align-{style.removeprefix('text-align:')}")

    md.core.ruler.push("align_as_class", align_as_class)
    return md


_CELLS = ("th_open", "td_open")
_MARKDOWN = _markdown()


def render_markdown(text: str) -> str:
    """``text`` (CommonMark with GFM tables) as HTML, raw HTML in it escaped."""
    html: str = _MARKDOWN.render(text)
    return html


def _words(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def settings_markdown(game: str) -> str:
    """The settings of ``game`` as a Markdown section for players: a table of each option's
    label, the values it takes, its default and what it does (the catalogue's words)."""
    options = game_entry(game)["options"]
    title = GAMES[game].title
    if not options:
        return f"## Settings\n\n{title} has no settings: it is always played this way.\n"
    rows = [
        f"| {option['label']} | {option['allowed']} | {_words(option['default'])} | "
        f"{option['help']} |"
        for option in options
    ]
    return "\n".join(
        [
            "## Settings",
            "",
            "Chosen before a game (the tile's Settings on the start page, or when creating a "
            "table); the standard rules are the defaults.",
            "",
            "| option | values | default | what it does |",
            "|---|---|---|---|",
            *rows,
            "",
        ]
    )


class RulesBook:
    """Each game's rules rendered once and kept; ``dirs`` are searched in order."""

    def __init__(self, dirs: Sequence[Traversable] | None = None) -> None:
        self.dirs = list(default_rules_dirs() if dirs is None else dirs)
        self._html: dict[str, str] = {}

    def html(self, game: str) -> str:
        """The rules of ``game`` (a name or alias) as HTML for players: its "How to play" and
        its settings, or the rules as implemented when it has no how-to file; an unknown game
        or a missing file is a :class:`CommandError` (404) saying which."""
        try:
            name = resolve_name(game)
        except UnknownGame as error:
            raise CommandError(404, str(error)) from None
        if name not in self._html:
            howto = self._find(f"{name}.howto")
            if howto is not None:
                text = howto.read_text(encoding="utf-8")
                self._html[name] = render_markdown(f"{text}\n{settings_markdown(name)}")
                return self._html[name]
            source = self._find(name)
            if source is None:
                places = ", ".join(str(folder) for folder in self.dirs)
                raise CommandError(
                    404, f"the rules of {name} are not installed: no {name}.md in {places}"
                )
            self._html[name] = render_markdown(source.read_text(encoding="utf-8"))
        return self._html[name]

    def _find(self, name: str) -> Traversable | None:
        for folder in self.dirs:
            candidate = folder / f"{name}.md"
            if candidate.is_file():
                return candidate
        return None
