"""Reading JSON text that comes from outside: a record, a move, a request body, a message.

``json.loads`` fails in three ways on such text: :class:`json.JSONDecodeError` for text that is
not JSON, :class:`RecursionError` for arrays or objects nested about a thousand deep (two
kilobytes of ``[`` do it), and a plain :class:`ValueError` for a whole number of more than
4,300 digits (Python's guard against slow conversions). Every reader of outside text goes
through :func:`loads`, so all three become one :class:`JSONTextError` that says what was wrong.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JSONTextError", "loads"]


class JSONTextError(ValueError):
    """The text is not JSON this program can read; ``line`` is where, when known."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def loads(text: str | bytes) -> Any:
    """The value of a JSON text, or :class:`JSONTextError` saying why there is none."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise JSONTextError(f"{error.msg} ({where})", line=error.lineno) from None
    except RecursionError:
        raise JSONTextError(
            "arrays and objects are nested too deeply (keep it under a few hundred levels)"
        ) from None
    except ValueError:  # after JSONDecodeError, its subclass: only the digits limit is left
        raise JSONTextError("a number has too many digits (at most 4,300)") from None
