#!/usr/bin/env python3
"""The coefficients of `Angle.seriesQ30` (Sources/FixedPoint/Arctangent.swift), reproduced.

    python3 tools/golden/fit_arctangent_series.py

atan(u) ≈ u × P(u²) on |u| ≤ tan(π/8), P of degree 4, fitted minimax (smallest worst absolute
error) by Lawson's iteration: weighted least squares whose weights grow where the error is
largest, on Chebyshev-spaced and evenly spaced points. Prints the coefficients rounded to Q30
(constant term first, as the Swift code adds them last), then the worst error of the Swift
code's own integer evaluation (each Horner step rounded half up) against mpmath over 300 000
arguments: the bound its doc comment states.
"""
import random

import mpmath
import numpy as np

mpmath.mp.dps = 30
TERMS = 5
LIMIT = float(mpmath.tan(mpmath.pi / 8))
TAN_EIGHTH_PI_Q30 = 444_758_426  # as in Arctangent.swift


def fit():
    u = np.concatenate([LIMIT * np.sin(np.linspace(0, np.pi / 2, 40001)), np.linspace(0, LIMIT, 40001)])
    basis = np.stack([u ** (2 * k + 1) for k in range(TERMS)], 1)
    target = np.arctan(u)
    weights = np.ones(len(u))
    for _ in range(500):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(basis * root[:, None], target * root, rcond=None)
        error = np.abs(basis @ coefficients - target)
        weights = weights * (error + 1e-300)
        weights /= weights.sum()
    return coefficients, error.max()


def series_q30(u, q30):
    """The Swift code's evaluation, in integers."""
    def rounded(product):
        return (product + (1 << 29)) >> 30
    u2 = rounded(u * u)
    total = q30[-1]
    for coefficient in reversed(q30[:-1]):
        total = rounded(total * u2) + coefficient
    return rounded(total * u)


def main():
    coefficients, worst_real = fit()
    q30 = [int(round(c * 2**30)) for c in coefficients]
    print("Q30 coefficients, u¹ … u⁹:", ", ".join(f"{c:_}" for c in q30))
    print(f"worst error of the real polynomial: {worst_real:.2e} rad")
    generator = random.Random(1)
    arguments = list(range(0, TAN_EIGHTH_PI_Q30 + 1, TAN_EIGHTH_PI_Q30 // 200_000)) + [TAN_EIGHTH_PI_Q30]
    arguments += [generator.randint(0, TAN_EIGHTH_PI_Q30) for _ in range(100_000)]
    worst = 0.0
    for u in arguments:
        for signed in (u, -u):
            exact = mpmath.atan(mpmath.mpf(signed) / 2**30) * 2**30
            worst = max(worst, abs(series_q30(signed, q30) - float(exact)))
    print(f"worst error of the integer evaluation over {2 * len(arguments)} arguments: {worst / 2**30:.2e} rad")


if __name__ == "__main__":
    main()
