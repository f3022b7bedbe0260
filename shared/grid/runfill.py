"""Flood fill of a bit-set grid by whole runs: a few big-int operations per turn of the region.

The layout is the one of ``BitLayout`` (bit ``row * stride + col``, ``stride > width``) with
the guard bits clear in ``passable``. One round fills every horizontal run the region touches
(towards higher bits with one addition, whose carry runs along a run of set bits; towards lower
bits by doubling shifts) and then takes one step up and down. The number of rounds is the number
of vertical turns a path needs rather than its length, which makes this several times faster than
a cell-by-cell ``BitLayout.flood`` on the mazes of text puzzles.
"""

from __future__ import annotations

__all__ = ["RunFill"]


class RunFill:
    """Flood fills within one fixed ``passable`` mask (precomputed once, reused for many seeds)."""

    __slots__ = ("passable", "stride", "_left")

    def __init__(self, passable: int, stride: int, width: int) -> None:
        if stride <= width or width <= 0:
            raise ValueError(f"a run fill needs 0 < width < stride, got width {width}, stride {stride}")
        self.passable = passable
        self.stride = stride
        # Doubling masks for the fill towards lower bits: (shift, cells whose next `shift` cells
        # towards lower bits... are all passable) as in a Kogge-Stone occluded fill.
        left: list[tuple[int, int]] = []
        pro, shift = passable, 1
        while shift < width:
            left.append((shift, pro))
            pro &= pro >> shift
            shift <<= 1
        self._left = tuple(left)

    def fill(self, seed: int) -> int:
        """The cells of ``passable`` connected to ``seed`` (seed cells outside ``passable`` are dropped)."""
        passable, stride, left = self.passable, self.stride, self._left
        region = seed & passable
        while True:
            # Towards higher bits: the carry of passable + region runs from each seed to its run's end.
            grown = (((passable + region) ^ passable) & passable) | region
            for shift, pro in left:
                grown |= pro & (grown >> shift)
            grown |= ((grown << stride) | (grown >> stride)) & passable
            if grown == region:
                return region
            region = grown
