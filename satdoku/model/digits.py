"""Candidate bitmasks: the digits a cell may still take, as one int.

Bit ``d - 1`` stands for digit ``d``; native search, the reduced encoding's elimination, the
human techniques and every rule's prune speak of candidates this way.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, Sequence

__all__ = ["bit", "bits", "full_mask", "house_tally"]


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


def house_tally(cells: Iterable[int], cand: Sequence[int], placed: Sequence[bool]
                ) -> tuple[int, int, int]:
    """Of a house's ``cells`` (candidate bitmasks ``cand``, ``placed`` flags): the digits open
    in at least one cell, in at least two, and placed. A digit in the first only is a hidden
    single; a digit in none is a contradiction.

    >>> house_tally([0, 1, 2], [0b001, 0b110, 0b100], [True, False, False])
    (6, 4, 1)
    """
    once = twice = done = 0
    for c in cells:
        m = cand[c]
        if placed[c]:
            done |= m
        else:
            twice |= once & m
            once |= m
    return once, twice, done
