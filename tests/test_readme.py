"""The README's Python tour is run as a doctest, so it cannot drift from the code."""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples_run() -> None:
    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 5
    assert result.failed == 0


def test_docs_examples_run() -> None:
    """The examples of the observation API (docs/formats.md) and of the bots (docs/bots.md)."""
    for name in ("formats.md", "bots.md"):
        result = doctest.testfile(
            str(ROOT / "docs" / name), module_relative=False, optionflags=doctest.ELLIPSIS
        )
        assert result.attempted >= 5, name
        assert result.failed == 0, name


def test_module_doctests() -> None:
    import patience.cards
    import patience.deals
    import patience.moves

    for module in (patience, patience.cards, patience.deals, patience.moves):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
