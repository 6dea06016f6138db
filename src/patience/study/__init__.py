"""Winnability studies: the solver over ranges of deals, on one machine or a cluster.

``patience study run`` solves a range of deals in chunks (:mod:`.runner`) and stores every
result in SQLite (:mod:`.db`); ``patience study report`` sums them up with Wilson intervals
(:mod:`.report`); ``patience study export-winnable`` writes the proved-winnable deals that the
web app deals from (:mod:`.winnable`). docs/studies.md says how to run them.
"""

from __future__ import annotations

from .db import Budget, DealResult, StudyDB, StudyDBError, options_key
from .runner import BACKENDS, RunSummary, make_backend, run_study

__all__ = [
    "BACKENDS",
    "Budget",
    "DealResult",
    "RunSummary",
    "StudyDB",
    "StudyDBError",
    "make_backend",
    "options_key",
    "run_study",
]
