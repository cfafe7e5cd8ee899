"""Naked and hidden subsets: the costliest pass of propagation, from 16 x 16 on.

A subset is k cells of a house whose candidates together are k digits (*naked*: the digits
leave the house's other cells), or k digits whose places together are k cells (*hidden*: those
cells keep only them); k = 2 is a pair, 3 a triple. Which sizes pay at which grid size:
:data:`satdoku.native.tables.SUBSETS_BY_SIZE` and `docs/native-search.md
<../docs/native-search.md>`_.
"""

from __future__ import annotations

import time
from itertools import combinations

from .tables import Timeout

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from .propagate import Propagation

__all__ = ["naked_and_hidden_subsets"]


def _groups(items, largest: int) -> list[tuple[int, int]] | None:
    """Groups of k items (k = 2 .. ``largest``, at most 3) whose masks together have k bits.

    ``items`` are (mask of 2 to ``largest`` bits, key) pairs, the keys distinct bits. Returns
    (keys ORed, mask ORed) per group, or None when more items than bits (three cells left with
    the same two digits, say) show a contradiction.
    """
    by_mask: dict[int, list[int]] = {}
    for mask, key in items:
        keys = by_mask.get(mask)
        if keys is None:
            by_mask[mask] = [key]
        else:
            keys.append(key)
    bit_count = int.bit_count
    out = []
    twos = []
    for mask, keys in by_mask.items():
        if bit_count(mask) == 2:
            twos.append(mask)
            if len(keys) == 2:
                out.append((keys[0] | keys[1], mask))
            elif len(keys) > 2:
                return None
    if largest < 3:
        return out
    # Three items share three bits: a mask of three bits, or the union of two of two bits.
    unions = {mask for mask in by_mask if bit_count(mask) == 3}
    for a, b in combinations(twos, 2):
        if bit_count(a | b) == 3:
            unions.add(a | b)
    empty: list[int] = []
    get = by_mask.get
    for union in unions:
        b1 = union & -union
        b3 = union ^ b1
        b2 = b3 & -b3
        b3 ^= b2
        keys = (get(union, empty) + get(b1 | b2, empty) + get(b1 | b3, empty)
                + get(b2 | b3, empty))
        if len(keys) == 3:
            out.append((keys[0] | keys[1] | keys[2], union))
        elif len(keys) > 3:
            return None
    return out


def naked_and_hidden_subsets(p: Propagation) -> bool | None:
    """Naked and hidden subsets of 2 to ``p.subsets`` (2 or 3) in the dirty houses (emptied);
    True when they removed something, None on a contradiction.

    With ``nopen`` open cells in a house, naked k and hidden ``nopen - k`` are one split seen
    from two sides, so naked subsets of 2 .. top are looked for, and hidden ones only of the
    sizes that naked ones did not cover. Items are keyed by bits (a cell's index in the house,
    or a digit), so a group is one int.
    """
    dirty = p.dirty
    if not dirty:
        return False
    t = p.t
    cand, placed, deadline, largest = p.cand, p.placed, p.deadline, p.subsets
    full, getters = t.full, t.house_getters
    bit_count = int.bit_count
    clock = time.perf_counter
    todo = list(dirty)
    dirty.clear()
    found = False
    for visited, h in enumerate(todo):
        if not visited & 15 and clock() > deadline:
            raise Timeout
        if placed[h] == full:
            continue
        ms = getters[h](cand)
        counts = list(map(bit_count, ms))
        nopen = len(counts) - counts.count(1)
        if nopen < 5:
            # Fewer than 4: a subset of 2 would leave one cell, a hidden single. 4: two pairs
            # that singles and locked candidates settle first (no find in 14,000 looks).
            continue
        top = min(largest, nopen - 2)
        naked = _naked(p, h, ms, counts, top)
        if naked is None:
            return None
        found = found or naked
        hidden_top = min(top, nopen - top - 1)
        if hidden_top < 2:
            continue
        if naked:
            ms = getters[h](cand)
        hidden = _hidden(p, h, ms, hidden_top)
        if hidden is None:
            return None
        found = found or hidden
    return found


def _naked(p: Propagation, h: int, ms: tuple[int, ...], counts: list[int],
           top: int) -> bool | None:
    """Naked subsets of 2 .. ``top`` cells in house ``h`` (candidates ``ms``, their sizes
    ``counts``): their digits leave the house's other cells."""
    small = counts.count(2) + (counts.count(3) if top == 3 else 0)
    if small < 2:
        return False
    groups = _groups(((ms[i], 1 << i) for i, k in enumerate(counts) if 2 <= k <= top), top)
    if groups is None:
        p.fail.append(h)
        return None
    cand, cells = p.cand, p.t.houses[h]
    return _narrow_all(p, h, ((c, cand[c] & ~digits) for where, digits in groups
                              for i, c in enumerate(cells)
                              if cand[c] & digits and not where >> i & 1))


def _hidden(p: Propagation, h: int, ms: tuple[int, ...], top: int) -> bool | None:
    """Hidden subsets of 2 .. ``top`` digits in house ``h`` (candidates ``ms``): the cells
    that are their only places keep only them."""
    bit_count = int.bit_count
    once = twice = thrice = four = 0
    if top == 3:
        for m in ms:
            four |= thrice & m
            thrice |= twice & m
            twice |= once & m
            once |= m
        few = twice & ~four & ~p.placed[h]
    else:
        for m in ms:
            thrice |= twice & m
            twice |= once & m
            once |= m
        few = twice & ~thrice & ~p.placed[h]
    if not few & (few - 1):
        return False
    # Cells holding two or more such digits: a hidden subset needs two of them at least.
    shared = list(map(few.__and__, ms))
    many = list(map(bit_count, shared))
    if len(many) - many.count(0) - many.count(1) < 2:
        return False
    where_of: dict[int, int] = {}
    for i, x in enumerate(shared):
        while x:
            b = x & -x
            x ^= b
            where_of[b] = where_of.get(b, 0) | (1 << i)
    groups = _groups(((w, b) for b, w in where_of.items()), top)
    if groups is None:
        p.fail.append(h)
        return None
    cand, cells = p.cand, p.t.houses[h]
    return _narrow_all(p, h, ((c, cand[c] & digits) for digits, where in groups
                              for i, c in enumerate(cells)
                              if where >> i & 1 and cand[c] & ~digits))


def _narrow_all(p: Propagation, h: int, narrowed) -> bool | None:
    """Narrow each cell of ``narrowed``, pairs (cell, candidates kept), read one at a time
    (each after the last is made): whether one was, or None (and house ``h`` failed) when a
    cell is left with none."""
    found = False
    for c, keep in narrowed:
        if not p.narrow(c, keep):
            p.fail.append(h)
            return None
        found = True
    return found
