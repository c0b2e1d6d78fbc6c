"""The statistics of a balance report: summaries of a sample, the Wilson interval of a
rate, and the tests that say whether two rates (Fisher's exact test) or two means (Welch's
t-test) differ, in plain Python (no extra needed).

>>> wilson(0, 10)[0], round(wilson(5, 10)[1], 4)
(0.0, 0.7634)
>>> summary([1, 2, 3, 4])
{'mean': 2.5, 'sd': 1.290994, 'min': 1, 'median': 2.5, 'max': 4}
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Digits kept for the floats of a report (so that its JSON reads well).
DIGITS = 6


def rounded(value: float) -> float:
    return round(value, DIGITS)


def rate(k: int, n: int) -> float:
    """``k / n`` (0.0 when ``n`` is 0), rounded for the report."""
    return rounded(k / n) if n else 0.0


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% by default);
    (0.0, 1.0) when ``n`` is 0. It stays inside [0, 1] and is good at small ``n`` and at
    rates near 0 or 1, where the normal interval fails."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (rounded(max(0.0, centre - half)), rounded(min(1.0, centre + half)))


def summary(values: Sequence[float]) -> dict[str, Any] | None:
    """Mean, sample standard deviation, minimum, median and maximum; None for no values."""
    if not values:
        return None
    return {
        "mean": rounded(statistics.fmean(values)),
        "sd": rounded(statistics.stdev(values)) if len(values) > 1 else 0.0,
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


def rates_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test that ``k1 / n1`` and ``k2 / n2`` are the
    same rate: the probability, given the margins of the 2x2 table, of every table no more
    likely than the one seen (exact at any sample size).

    >>> round(rates_p(3, 4, 1, 4), 6)  # Fisher's tea-tasting table: 17/35
    0.485714
    """
    if n1 == 0 or n2 == 0:
        return 1.0
    total, hits = n1 + n2, k1 + k2

    def log_p(x: int) -> float:
        return _log_comb(n1, x) + _log_comb(n2, hits - x) - _log_comb(total, hits)

    seen = log_p(k1) + 1e-7  # tables as likely as the one seen, up to rounding, count too
    tail = sum(math.exp(lp) for x in range(max(0, hits - n2), min(hits, n1) + 1) if (lp := log_p(x)) <= seen)
    return min(1.0, tail)


def means_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value of Welch's t-test that samples ``a`` and ``b`` have the same mean
    (unequal variances allowed).

    >>> round(means_p([1, 2, 3, 4], [3, 4, 5, 6, 7]), 6)
    0.034939
    """
    return means_from_sums_p(sum(a), sum(x * x for x in a), len(a), sum(b), sum(x * x for x in b), len(b))


def means_from_sums_p(sum1: float, squares1: float, n1: int, sum2: float, squares2: float, n2: int) -> float:
    """:func:`means_p` of two samples known by their size, sum and sum of squares (as the
    counts per game of a tally are). Two constant samples: 1.0 when equal, else 0.0."""
    if n1 < 2 or n2 < 2:
        return 1.0
    mean1, mean2 = sum1 / n1, sum2 / n2
    err1 = max(0.0, (squares1 - sum1 * mean1) / (n1 - 1)) / n1  # squared standard errors
    err2 = max(0.0, (squares2 - sum2 * mean2) / (n2 - 1)) / n2
    if err1 + err2 == 0:
        return 1.0 if mean1 == mean2 else 0.0
    t = (mean1 - mean2) / math.sqrt(err1 + err2)
    df = (err1 + err2) ** 2 / (err1 * err1 / (n1 - 1) + err2 * err2 / (n2 - 1))  # Welch-Satterthwaite
    return t_two_sided_p(t, df)


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom (any real ``df`` > 0).

    >>> round(t_two_sided_p(2.228139, 10), 6)  # the 5% point of the table at 10 degrees
    0.05
    """
    return min(1.0, _beta_regularized(df / 2, 0.5, df / (df + t * t)))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _beta_regularized(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (modified Lentz), on the side where it converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300

    def guard(v: float) -> float:
        return v if abs(v) > tiny else tiny

    c, d = 1.0, 1.0 / guard(1.0 - (a + b) * x / (a + 1))
    h = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 / guard(1.0 + numerator * d)
            c = guard(1.0 + numerator / c)
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def binomial_p(k: int, n: int, p0: float) -> float:
    """Two-sided p-value of the exact binomial test that ``k`` successes in ``n`` trials
    come from rate ``p0``: the probability of every count no more likely than ``k``.

    >>> round(binomial_p(9, 10, 0.5), 6)  # 1, 9 or 10 (or 0) heads of ten fair tosses
    0.021484
    >>> round(binomial_p(5, 10, 0.5), 6)
    1.0
    """
    if n == 0:
        return 1.0
    if p0 <= 0 or p0 >= 1:
        return 1.0 if k == round(p0 * n) else 0.0

    def log_p(x: int) -> float:
        return _log_comb(n, x) + x * math.log(p0) + (n - x) * math.log1p(-p0)

    seen = log_p(k) + 1e-7  # counts as likely as the one seen, up to rounding, count too
    return min(1.0, sum(math.exp(lp) for x in range(n + 1) if (lp := log_p(x)) <= seen))
