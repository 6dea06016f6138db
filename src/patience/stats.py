"""Confidence intervals shared by the bots' arenas and the winnability studies."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Interval"]


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% confidence interval (normal approximation)."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        """The mean of ``values`` and its 95% interval (1.96 standard errors)."""
        n = len(values)
        mean = sum(values) / n
        if n < 2:
            return cls(mean, -math.inf, math.inf)
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        half = 1.96 * math.sqrt(variance / n)
        return cls(mean, mean - half, mean + half)

    @classmethod
    def wilson(cls, successes: float, trials: int) -> Interval:
        """A proportion's 95% Wilson score interval: unlike the normal approximation it stays
        meaningful at 0 or 1 successes in every trial (a draw counts as half a success)."""
        if trials == 0:
            return cls(math.nan, 0.0, 1.0)
        z = 1.96
        p = successes / trials
        centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
        half = z / (1 + z * z / trials) * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials**2))
        return cls(p, max(0.0, centre - half), min(1.0, centre + half))

    def to_json(self) -> dict[str, float]:
        """``{"mean", "low", "high"}``."""
        return {"mean": self.mean, "low": self.low, "high": self.high}
