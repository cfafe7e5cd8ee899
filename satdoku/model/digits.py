"""Candidate bitmasks: the digits a cell may still take, as one int.

Bit ``d - 1`` stands for digit ``d``; native search, the reduced encoding's elimination, the
human techniques and every rule's prune speak of candidates this way.
"""

from __future__ import annotations

__all__ = ["bit", "bits", "full_mask"]


def bit(d: int) -> int:
    """The candidate bit of digit ``d``.

    >>> bit(1), bit(4)
    (1, 8)
    """
    return 1 << (d - 1)


def full_mask(size: int) -> int:
    """Every digit ``1 .. size`` as candidates.

    >>> bin(full_mask(4))
    '0b1111'
    """
    return (1 << size) - 1


def bits(mask: int) -> list[int]:
    """The digits (1-based) of a candidate bitmask, increasing.

    >>> bits(0b1011)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out
