"""The ``patience`` command line (``patience.cli:main``).

``common`` holds what the commands share, one module per command group defines its commands
(``play``, ``solve``, ``bots``, ``study``, ``web``), and ``group`` assembles them into ``main``.
"""

from __future__ import annotations

from .common import AUTOSAVE_NAME, HOME_VARIABLE, autosave_path, data_dir
from .group import main

__all__ = ["AUTOSAVE_NAME", "HOME_VARIABLE", "autosave_path", "data_dir", "main"]
