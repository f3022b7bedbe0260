"""Small dense linear algebra and the logistic curve, in pure Python, for the Bradley-Terry fit.

Matrices are lists of rows; the fit's information matrix is symmetric positive definite, so a Cholesky
factor solves and inverts it. Pure: no I/O, no clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import mul

__all__ = ["cholesky", "dot", "inverse", "softplus", "solve", "win_probability"]


def cholesky(matrix: list[list[float]]) -> list[list[float]] | None:
    """The lower factor ``L`` (rows of growing length) of a positive definite ``matrix``; None when it is not."""
    factor: list[list[float]] = []
    for i, row in enumerate(matrix):
        current: list[float] = []
        for j in range(i):
            other = factor[j]
            current.append((row[j] - sum(map(mul, current, other))) / other[j])
        square = row[i] - sum(map(mul, current, current))
        if not square > 0.0:
            return None
        current.append(math.sqrt(square))
        factor.append(current)
    return factor


def solve(factor: list[list[float]], vector: Sequence[float]) -> list[float]:
    """``x`` with ``L L^T x = vector``."""
    y: list[float] = []
    for row, value in zip(factor, vector):
        y.append((value - sum(map(mul, row, y))) / row[-1])
    for i in range(len(y) - 1, -1, -1):
        row = factor[i]
        y[i] /= row[i]
        xi = y[i]
        if xi:
            y[:i] = [a - b * xi for a, b in zip(y[:i], row)]
    return y


def inverse(factor: list[list[float]]) -> list[list[float]]:
    """``(L L^T)^-1`` from its factor: the columns of ``L^-1`` by forward substitution, then their dot products."""
    size = len(factor)
    columns = []                 # column a of L^-1, from row a down
    for a in range(size):
        column: list[float] = []
        for i in range(a, size):
            row = factor[i]
            column.append(((1.0 if i == a else 0.0) - sum(map(mul, row[a:i], column))) / row[i])
        columns.append(column)
    inverse = [[0.0] * size for _ in range(size)]
    for a in range(size):
        ca = columns[a]
        for b in range(a, size):
            value = sum(map(mul, ca[b - a:], columns[b]))
            inverse[a][b] = inverse[b][a] = value
    return inverse


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """The dot product of two vectors of the same length."""
    return sum(map(mul, a, b))


def softplus(x: float) -> float:
    """``log(1 + e^x)`` without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def win_probability(difference: float) -> float:
    """The logistic ``1 / (1 + e^-difference)``, without overflow."""
    if difference >= 0:
        return 1.0 / (1.0 + math.exp(-difference))
    e = math.exp(difference)
    return e / (1.0 + e)
