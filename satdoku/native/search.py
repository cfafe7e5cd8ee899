"""The native solver: constraint propagation plus depth-first search, to cross-check SAT answers.

Glossary (besides the one in :mod:`satdoku.model.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (bit ``d - 1`` for digit
  ``d``). ``full`` has all N bits set; one bit set means the cell is assigned; 0 is a
  contradiction.
- placed: for each house, the bitmask of digits already assigned (and propagated) in it.
- naked single: a cell with one candidate left; it is assigned and its digit eliminated from
  its peers. hidden single: a digit with one place left in a house; that cell is assigned it.
- locked candidates: a digit whose places in a box all lie in one segment can leave the rest of
  that segment's line (*pointing*); a digit whose places in a line all lie in one segment can
  leave the rest of that segment's box (*claiming*).
- subset: k cells of a house whose candidates together are k digits (*naked*; the digits
  leave the house's other cells), or k digits whose places together are k cells (*hidden*;
  those cells keep only them). k = 2 is a pair, 3 a triple.
- packed grid: every cell's candidates in one big int, cell ``i`` at bits ``i * width ..``
  (width 16, 32 or 64 bits); shifts and masks of it look at every segment at once.
- propagation: naked and hidden singles to a fixed point, then locked candidates, then subsets
  in the houses changed since the last look (pairs from 16 x 16, triples too from 25 x 25),
  then the variant constraints; any of them that removes something sends propagation back to
  singles. It stops at a contradiction (a cell without candidates, a house with no place for
  a digit).
- node: one propagation in search (the root, and each digit tried at a branch point).
- guess: a digit tried at a branch point. backtrack: a guess whose propagation failed.
- weight: how many contradictions a house has been found in so far in this search. The branch
  point is a cell with the fewest candidates (two or more) and, among those, the one whose
  houses weigh most (lowest cell index on ties); digits in increasing order. Contradictions
  come back where they came from, so search goes there first (dom/wdeg in CP terms).

Like Norvig's solver, propagation and search are separate and search is a few lines on top; unlike
it, the state is a flat list of ints and the work queue is explicit, so only what changed is
revisited: a queue of assigned cells to eliminate from their peers, a set of houses that lost a
candidate since the last hidden-single check, a set of houses changed since the last look for
subsets. Locked candidates run on the packed grid for boxes of at least two rows and columns up
to 64 x 64, and segment by segment (from :attr:`Geometry.segments`) for jigsaw regions. What was
tried and measured, kept or not, is in `docs/native-search.md
<../docs/native-search.md>`_.

Variant constraints plug in through ``solve(..., constraints=...)``: each has ``prune(cand)``,
which removes candidates in place and returns the cells it changed, or None on a contradiction.
"""

from __future__ import annotations

import functools
import operator
import sys
import time
from array import array
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter
from typing import Any, Callable, Iterable, Protocol, Sequence

from ..deadline import NO_DEADLINE, Deadline
from ..errors import SolverError
from ..model.geometry import Geometry
from ..model.grid import Grid
from ..model.result import Capabilities, Result, counted_status

__all__ = ["NativeSolver", "Constraint"]

#: Grids up to this size use the shared ``Geometry.peers`` table; bigger ones walk their houses.
PEER_TABLE_MAX_SIZE = 64

#: The largest naked and hidden subsets looked for, by grid size: (from size, largest); 0 for
#: none. Measured in docs/native-search.md.
SUBSETS_BY_SIZE = ((25, 3), (16, 2), (0, 0))

#: About how many cell visits pass between two looks at the clock (a few milliseconds' work).
_CLOCK_WORK = 20_000

_INF = float("inf")


class Constraint(Protocol):
    """What a variant constraint offers the native solver.

    ``prune(cand)`` gets the candidate bitmasks of every cell (bit ``d - 1`` for digit ``d``),
    removes candidates the constraint rules out, in place, and returns the cells it changed
    (empty when nothing), or None when the candidates allow no solution. On a full assignment
    (one candidate a cell) it must return None when the constraint is violated.
    """

    def prune(self, cand: list[int]) -> list[int] | None: ...


class _Timeout(Exception):
    """The deadline passed during propagation or search."""


class _HousePeers:
    """``peers[cell]`` built on demand from the cell's three houses (itself left out).

    Used for grids too big for a peer table; a cell in both the box and the row (or column)
    appears twice, which costs one skipped test.
    """

    __slots__ = ("houses", "cell_houses")

    def __init__(self, geo: Geometry) -> None:
        self.houses = geo.houses
        self.cell_houses = geo.cell_houses

    def __getitem__(self, cell: int) -> tuple[int, ...]:
        out: tuple[int, ...] = ()
        for h in self.cell_houses[cell]:
            house = self.houses[h]
            i = house.index(cell)
            out += house[:i] + house[i + 1:]
        return out


@dataclass(frozen=True, eq=False)
class _Segments:
    """Where lines of one direction (rows or columns) meet boxes, in the packed grid.

    A *segment* is the r (or c) cells a line shares with a box. In the packed grid (cell ``i``'s
    candidates at bits ``i * width ..``), the union of a segment is the OR of the packed grid
    shifted by ``seg_shifts``, read at the segment's *slot* (its first cell) in ``seg_mask``.
    Folding slots by ``line_shifts`` (``box_shifts``) meets each line's (box's) other segments at
    its first slot (``line_first``, ``box_first``). ``line_rest[slot]`` are the line's cells
    outside the segment's box, ``box_rest[slot]`` the box's cells outside the segment's line.
    """

    seg_shifts: tuple[int, ...]
    seg_mask: int
    line_shifts: tuple[int, ...]
    line_first: int
    box_shifts: tuple[int, ...]
    box_first: int
    line_rest: tuple[tuple[int, ...] | None, ...]
    box_rest: tuple[tuple[int, ...] | None, ...]


@dataclass(frozen=True, eq=False)
class _Locked:
    """Packing and masks for locked candidates: ``typecode`` packs cells ``width`` bits apart."""

    typecode: str
    width: int
    parts: tuple[_Segments, _Segments]  # rows, then columns


#: Generic locked candidates: (segment cells, line rest, box rest) getters for each segment.
_SegmentGetters = tuple[tuple[Callable, Callable, Callable, tuple[int, ...], tuple[int, ...]], ...]


@dataclass(frozen=True, eq=False)
class _Tables:
    """Everything the hot loops read for one geometry, computed once."""

    ncells: int
    nhouses: int
    full: int
    peers: Any  # tuple of tuples, or _HousePeers
    cell_houses: tuple[tuple[int, int, int], ...]
    houses: tuple[tuple[int, ...], ...]
    house_getters: tuple[Callable[[list[int]], tuple[int, ...]], ...]
    locked: _Locked | None  # packed locked candidates, or None
    segments: _SegmentGetters | None  # segment-by-segment locked candidates, or None
    subsets: int  # the largest naked and hidden subsets that pay at this size (0: none)
    propagate_interval: int  # dequeued cells between clock checks
    search_interval: int  # nodes between clock checks


def _getter(cells: Sequence[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """``itemgetter(*cells)``, returning a tuple even for one cell."""
    if len(cells) == 1:
        only = cells[0]
        return lambda cand: (cand[only],)
    return itemgetter(*cells)


def _rests(geo: Geometry, seg) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the segment's line outside its box, the segment's box outside its line)."""
    line, box = set(geo.houses[seg.line]), set(geo.houses[seg.box])
    return tuple(sorted(line - box)), tuple(sorted(box - line))


def _locked_tables(geo: Geometry) -> _Locked | None:
    """Packed locked-candidate tables from ``geo.segments``, or None when boxes are a single
    line, irregular, or N is above 64."""
    r, c, n = geo.box_rows, geo.box_cols, geo.size
    if not geo.is_boxed or r == 1 or c == 1 or n > 64 or sys.byteorder != "little":
        return None  # (array bytes are read as a little-endian int)
    width = 16 if n <= 16 else 32 if n <= 32 else 64
    typecode = next(tc for tc in "HILQ" if array(tc).itemsize * 8 == width)
    slot_full = (1 << n) - 1

    def mask(cells: Iterable[int]) -> int:
        return sum(slot_full << (cell * width) for cell in cells)

    def offsets(cells: Sequence[int]) -> tuple[int, ...]:
        return tuple((cell - cells[0]) * width for cell in cells[1:])

    def part(column: bool) -> _Segments:
        segs = [s for s in geo.segments if (s.line >= n) == column]
        by_line: dict[int, list[int]] = {}
        by_box: dict[int, list[int]] = {}
        line_rest: list[tuple[int, ...] | None] = [None] * geo.ncells
        box_rest: list[tuple[int, ...] | None] = [None] * geo.ncells
        for s in segs:
            slot = s.cells[0]
            by_line.setdefault(s.line, []).append(slot)
            by_box.setdefault(s.box, []).append(slot)
            line_rest[slot], box_rest[slot] = _rests(geo, s)
        seg_shifts = offsets(segs[0].cells)
        line_shifts = offsets(next(iter(by_line.values())))
        box_shifts = offsets(next(iter(by_box.values())))
        # Regular boxes: every segment, line and box of a direction has the same offsets.
        assert all(offsets(s.cells) == seg_shifts for s in segs)
        assert all(offsets(v) == line_shifts for v in by_line.values())
        assert all(offsets(v) == box_shifts for v in by_box.values())
        return _Segments(
            seg_shifts=seg_shifts,
            seg_mask=mask(s.cells[0] for s in segs),
            line_shifts=line_shifts,
            line_first=mask(v[0] for v in by_line.values()),
            box_shifts=box_shifts,
            box_first=mask(v[0] for v in by_box.values()),
            line_rest=tuple(line_rest),
            box_rest=tuple(box_rest),
        )

    return _Locked(typecode, width, (part(False), part(True)))


def _segment_tables(geo: Geometry) -> _SegmentGetters | None:
    """Segment-by-segment locked-candidate tables for jigsaw regions (None for boxes)."""
    if geo.is_boxed:
        return None
    out = []
    for seg in geo.segments:
        line_rest, box_rest = _rests(geo, seg)
        if line_rest and box_rest:
            out.append((_getter(seg.cells), _getter(line_rest), _getter(box_rest),
                        line_rest, box_rest))
    return tuple(out)


@functools.lru_cache(maxsize=32)
def _tables(geo: Geometry) -> _Tables:
    n = geo.size
    peers = geo.peers if n <= PEER_TABLE_MAX_SIZE else _HousePeers(geo)
    return _Tables(
        ncells=geo.ncells,
        nhouses=len(geo.houses),
        full=(1 << n) - 1,
        peers=peers,
        cell_houses=geo.cell_houses,
        houses=geo.houses,
        house_getters=tuple(_getter(house) for house in geo.houses),
        locked=_locked_tables(geo),
        segments=_segment_tables(geo),
        subsets=next(k for size, k in SUBSETS_BY_SIZE if n >= size),
        propagate_interval=max(1, _CLOCK_WORK // (3 * n)),
        search_interval=max(1, _CLOCK_WORK // geo.ncells),
    )


@dataclass(frozen=True)
class _Options:
    """Which techniques a search uses (NativeSolver's switches, combined with the geometry's)."""

    locked: bool
    subsets: int
    weights: bool
    constraints: tuple


def _propagate(cand: list[int], placed: list[int], queue: list[int], touched: set[int],
               t: _Tables, deadline: float, o: _Options, fail: list[int]) -> bool:
    """Propagate to a fixed point (see the module docstring); False on contradiction.

    ``queue`` holds cells just reduced to one candidate, ``touched`` houses that lost candidates
    since their last hidden-single check. ``cand`` and ``placed`` are changed in place. On a
    contradiction the houses it was found in are appended to ``fail``. Raises
    :class:`_Timeout` once ``deadline`` (a ``perf_counter`` time) has passed.
    """
    peers = t.peers
    cell_houses = t.cell_houses
    houses = t.houses
    getters = t.house_getters
    full = t.full
    pop = queue.pop
    push = queue.append
    touch = touched.update
    interval = t.propagate_interval
    budget = interval
    clock = time.perf_counter
    lock = t.locked if o.locked else None
    segments = t.segments if o.locked else None
    if lock is not None:
        typecode, width, parts = lock.typecode, lock.width, lock.parts
        from_bytes = int.from_bytes
    # Houses changed since the last look for subsets: at the start, those touched by the caller
    # (the parent state was at a fixed point).
    dirty: set[int] | None = set(touched) if o.subsets else None
    constraints = o.constraints
    while True:
        while True:
            while queue:
                cell = pop()
                b = cand[cell]
                h0, h1, h2 = cell_houses[cell]
                placed[h0] |= b
                placed[h1] |= b
                placed[h2] |= b
                for p in peers[cell]:
                    m = cand[p]
                    if m & b:
                        m ^= b
                        if not m:
                            fail += cell_houses[p]
                            return False
                        cand[p] = m
                        if not m & (m - 1):
                            push(p)
                        touch(cell_houses[p])
                budget -= 1
                if not budget:
                    if clock() > deadline:
                        raise _Timeout
                    budget = interval
            if not touched:
                break
            todo = list(touched)
            touched.clear()
            if dirty is not None:
                dirty.update(todo)
            for h in todo:
                if placed[h] == full:
                    continue  # every digit is placed (and propagated) in house h
                once = twice = 0
                for m in getters[h](cand):
                    twice |= once & m
                    once |= m
                if once != full:
                    fail.append(h)
                    return False  # a digit has no place left in house h
                hidden = once & ~twice & ~placed[h]
                if hidden:
                    for c in houses[h]:
                        m = cand[c]
                        s = m & hidden
                        if s and s != m:
                            if s & (s - 1):
                                fail.append(h)
                                return False  # one cell is the only place for two digits
                            cand[c] = s
                            push(c)
                            touch(cell_houses[c])
                        elif s & (s - 1):
                            fail.append(h)
                            return False
                budget -= 1
                if not budget:
                    if clock() > deadline:
                        raise _Timeout
                    budget = interval
        # Singles are at a fixed point: locked candidates, over the whole grid at once.
        found = False
        if lock is not None:
            grid = from_bytes(array(typecode, cand).tobytes(), "little")
            for seg in parts:
                union = grid
                for sh in seg.seg_shifts:
                    union |= grid >> sh
                union &= seg.seg_mask
                # Digits in two or more segments of a line (of a box), at the line's (box's)
                # first slot, then copied to each of its segments' slots.
                once, twice = union, 0
                for sh in seg.line_shifts:
                    x = union >> sh
                    twice |= once & x
                    once |= x
                line_twice = line_first = twice & seg.line_first
                for sh in seg.line_shifts:
                    line_twice |= line_first << sh
                once, twice = union, 0
                for sh in seg.box_shifts:
                    x = union >> sh
                    twice |= once & x
                    once |= x
                box_twice = box_first = twice & seg.box_first
                for sh in seg.box_shifts:
                    box_twice |= box_first << sh
                # A digit of a segment that is elsewhere in its line but not in its box
                # (pointing) or elsewhere in its box but not in its line (claiming) can go
                # from those places.
                hits = union & (line_twice ^ box_twice)
                while hits:
                    slot = (hits.bit_length() - 1) // width
                    shift = slot * width
                    x = hits >> shift
                    hits ^= x << shift
                    pointing = x & (line_twice >> shift)
                    for digits, targets in ((pointing, seg.line_rest[slot]),
                                            (x ^ pointing, seg.box_rest[slot])):
                        if digits:
                            struck = _strike(cand, digits, targets, push, touch, cell_houses,
                                             fail)
                            if struck is None:
                                return False
                            found = struck or found
        elif segments is not None:
            found = _locked_by_segment(cand, segments, push, touch, cell_houses, fail)
            if found is None:
                return False
        if not found and dirty:
            found = _subsets(cand, placed, dirty, t, push, touch, fail, deadline, o.subsets)
            if found is None:
                return False
        if not found and constraints:
            if clock() > deadline:  # a rule's prune may take long: look before each round
                raise _Timeout
            for constraint in constraints:
                changed = constraint.prune(cand)
                if changed is None:
                    return False
                for c in changed:
                    m = cand[c]
                    if not m:
                        return False
                    if not m & (m - 1):
                        push(c)
                    touch(cell_houses[c])
                    found = True
        if not found:
            return True
        budget -= 1
        if not budget:
            if clock() > deadline:
                raise _Timeout
            budget = interval


def _locked_by_segment(cand: list[int], segments: _SegmentGetters, push, touch,
                       cell_houses, fail: list[int]) -> bool | None:
    """One pass of locked candidates, segment by segment (jigsaw regions); True when it removed
    something, None on a contradiction."""
    or_all = functools.partial(functools.reduce, operator.or_)
    found = False
    for seg_get, line_get, box_get, line_rest, box_rest in segments:
        inside = or_all(seg_get(cand))
        line_other = or_all(line_get(cand))
        box_other = or_all(box_get(cand))
        # pointing: in the box only here, so not elsewhere in the line; claiming: the reverse
        for digits, targets in ((inside & ~box_other & line_other, line_rest),
                                (inside & ~line_other & box_other, box_rest)):
            if digits:
                struck = _strike(cand, digits, targets, push, touch, cell_houses, fail)
                if struck is None:
                    return None
                found = struck or found
    return found


def _strike(cand: list[int], digits: int, targets, push, touch, cell_houses,
            fail: list[int]) -> bool | None:
    """Remove ``digits`` from the candidates of ``targets`` (a locked-candidates step): True
    when something went, None on a contradiction (the emptied cell's houses go to ``fail``)."""
    keep = ~digits
    found = False
    for c in targets:
        m = cand[c]
        if m & digits:
            m &= keep
            if not m:
                fail += cell_houses[c]
                return None
            cand[c] = m
            if not m & (m - 1):
                push(c)
            touch(cell_houses[c])
            found = True
    return found


def _groups(by_mask: dict[int, list[int]], largest: int) -> list[tuple[int, int]] | None:
    """Groups of k items (k = 2 .. ``largest``, at most 3) whose masks together have k bits.

    ``by_mask`` maps a mask of 2 to ``largest`` bits to the keys (distinct bits) of the items
    that have it. Returns (keys ORed, mask ORed) per group, or None when more items than bits
    (three cells left with the same two digits, say) show a contradiction.
    """
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


def _subsets(cand: list[int], placed: list[int], dirty: set[int], t: _Tables, push, touch,
             fail: list[int], deadline: float, largest: int) -> bool | None:
    """Naked and hidden subsets of 2 to ``largest`` (2 or 3) in the ``dirty`` houses (emptied);
    True when they removed something, None on a contradiction.

    Naked: k cells whose candidates together are k digits; the digits leave the house's other
    cells. Hidden: k digits whose places together are k cells; those cells keep only them.
    With ``nopen`` open cells in a house, naked k and hidden ``nopen - k`` are one split seen
    from two sides, so naked subsets of 2 .. top are looked for, and hidden ones only of the
    sizes that naked ones did not cover. Items are keyed by bits (a cell's index in the house,
    or a digit), so a group is one int.
    """
    full = t.full
    houses = t.houses
    getters = t.house_getters
    cell_houses = t.cell_houses
    bit_count = int.bit_count
    clock = time.perf_counter
    todo = list(dirty)
    dirty.clear()
    found = False
    for visited, h in enumerate(todo):
        if not visited & 15 and clock() > deadline:
            raise _Timeout
        ph = placed[h]
        if ph == full:
            continue
        ms = getters[h](cand)
        counts = list(map(bit_count, ms))
        nopen = len(counts) - counts.count(1)
        if nopen < 5:
            # Fewer than 4: a subset of 2 would leave one cell, a hidden single. 4: two pairs
            # that singles and locked candidates settle first (no find in 14,000 looks).
            continue
        cells = houses[h]
        top = min(largest, nopen - 2)
        # Naked subsets: cells of 2 .. top candidates.
        small = counts.count(2) + (counts.count(3) if top == 3 else 0)
        if small >= 2:
            by_mask: dict[int, list[int]] = {}
            for i, k in enumerate(counts):
                if 2 <= k <= top:
                    m = ms[i]
                    keys = by_mask.get(m)
                    if keys is None:
                        by_mask[m] = [1 << i]
                    else:
                        keys.append(1 << i)
            groups = _groups(by_mask, top)
            if groups is None:
                fail.append(h)
                return None
            for where, digits in groups:
                keep = ~digits
                for i, c in enumerate(cells):
                    x = cand[c]
                    if x & digits and not where >> i & 1:
                        x &= keep
                        if not x:
                            fail.append(h)
                            return None
                        cand[c] = x
                        if not x & (x - 1):
                            push(c)
                        touch(cell_houses[c])
                        found = True
        # Hidden subsets: digits of 2 .. hidden_top places.
        hidden_top = min(top, nopen - top - 1)
        if hidden_top < 2:
            continue
        if found:
            ms = getters[h](cand)
        once = twice = thrice = four = 0
        if hidden_top == 3:
            for m in ms:
                four |= thrice & m
                thrice |= twice & m
                twice |= once & m
                once |= m
            few = twice & ~four & ~ph
        else:
            for m in ms:
                thrice |= twice & m
                twice |= once & m
                once |= m
            few = twice & ~thrice & ~ph
        if not few & (few - 1):
            continue
        # Cells holding two or more such digits: a hidden subset needs two of them at least.
        shared = list(map(few.__and__, ms))
        many = list(map(bit_count, shared))
        if len(many) - many.count(0) - many.count(1) < 2:
            continue
        where_of: dict[int, int] = {}
        for i, x in enumerate(shared):
            while x:
                b = x & -x
                x ^= b
                where_of[b] = where_of.get(b, 0) | (1 << i)
        by_where: dict[int, list[int]] = {}
        for b, w in where_of.items():
            keys = by_where.get(w)
            if keys is None:
                by_where[w] = [b]
            else:
                keys.append(b)
        groups = _groups(by_where, hidden_top)
        if groups is None:
            fail.append(h)
            return None
        for digits, where in groups:
            for i, c in enumerate(cells):
                if where >> i & 1:
                    x = cand[c]
                    if x & ~digits:
                        x &= digits
                        if not x:
                            fail.append(h)
                            return None
                        cand[c] = x
                        if not x & (x - 1):
                            push(c)
                        touch(cell_houses[c])
                        found = True
    return found


class NativeSolver:
    """Propagation (singles, locked candidates, subsets) plus depth-first search.

    Any box shape and jigsaw regions. Switches, for comparisons: ``locked_candidates=False``
    leaves locked candidates out; ``subsets`` is the largest subset looked for (0 none, 2 pairs,
    3 triples too; None, the default: by grid size, :data:`SUBSETS_BY_SIZE`);
    ``weights=False`` breaks branching ties by cell index alone.

    One object serves any number of puzzles of any geometry; it holds no resources, so
    :meth:`close` does nothing (it is there for the :class:`~satdoku.model.result.Solver` protocol).

    >>> from satdoku.model.geometry import geometry
    >>> from satdoku.model.grid import Grid
    >>> puzzle = Grid(geometry(2, 2), (1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2))
    >>> result = NativeSolver().solve(puzzle, limit=2)
    >>> result.status, result.solution.cells[:4], result.stats["no_guess"]
    ('unique', (1, 3, 2, 4), True)
    """

    name = "native"
    encoding = None

    def __init__(self, *, locked_candidates: bool = True, subsets: int | None = None,
                 weights: bool = True) -> None:
        if subsets not in (None, 0, 2, 3):
            raise SolverError(f"subsets must be 0, 2 or 3, not {subsets}")
        self.locked_candidates = locked_candidates
        self.subsets = subsets
        self.weights = weights

    #: Rules prune candidates; no assumptions or conflicts; the deadline is read between nodes.
    capabilities = Capabilities(assumptions=False, conflicts=False)

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: Sequence[Constraint] = ()) -> Result:
        """Solve ``grid``; with ``limit >= 2`` count its solutions up to ``limit``.

        Args:
            grid: the puzzle; its givens are assumed not to clash (a clash gives 'unsolvable').
            limit: 1 to stop at the first solution (status 'solved' or 'unsolvable'); 2 or more
                to count (status 'unique', 'multiple' or 'unsolvable', ``count`` filled).
            deadline: when to stop (None: no limit).
            constraints: variant rules on top of the houses (see :class:`Constraint`); every
                solution reported satisfies each of them.

        Returns:
            a :class:`Result` with ``stats`` nodes, guesses, backtracks and no_guess (True when
            the answer came from propagation alone). On 'timeout' any solutions found so far are
            kept and ``count`` (when counting) is how many: a lower bound.
        """
        if limit < 1:
            raise SolverError(f"limit must be at least 1, not {limit}")
        start = time.perf_counter()
        deadline = deadline or NO_DEADLINE
        t = _tables(grid.geometry)
        options = _Options(locked=self.locked_candidates,
                           subsets=t.subsets if self.subsets is None else self.subsets,
                           weights=self.weights,
                           constraints=tuple(constraints))
        stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "no_guess": False}
        solutions: list[list[int]] = []
        timed_out = deadline.expired() or not _search(grid, t, limit, deadline.at, solutions,
                                                      stats, options)
        stats["no_guess"] = stats["guesses"] == 0 and not timed_out
        geo = grid.geometry
        found = [Grid(geo, tuple(map(int.bit_length, cand))) for cand in solutions]
        counting = limit >= 2
        if timed_out:
            status = "timeout"
            message = deadline.message(len(found) if counting else None)
            if not counting:
                found = []
        else:
            status = counted_status(len(found)) if counting else (
                "solved" if found else "unsolvable")
            message = None
        return Result(
            status=status,
            solution=found[0] if found else None,
            count=len(found) if counting else None,
            second=found[1] if len(found) > 1 else None,
            solver=self.name,
            encoding=None,
            time_ms=(time.perf_counter() - start) * 1000.0,
            stats=stats,
            message=message,
            limit=limit,
        )

    def close(self) -> None:
        """Nothing to release."""

    def __enter__(self) -> "NativeSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _accepted(cand: list[int], constraints: tuple) -> bool:
    """True when every constraint accepts the full assignment ``cand`` (checked on a copy)."""
    for constraint in constraints:
        copy = cand[:]
        if constraint.prune(copy) is None or copy != cand:
            return False
    return True


def _search(grid: Grid, t: _Tables, limit: int, deadline: float,
            solutions: list[list[int]], stats: dict[str, Any], o: _Options) -> bool:
    """Depth-first search appending up to ``limit`` solutions; False when the deadline passed."""
    full = t.full
    cell_houses = t.cell_houses
    cand = [full] * t.ncells
    placed = [0] * t.nhouses
    queue = []
    touched: set[int] = set()
    for cell, d in grid.givens():
        cand[cell] = 1 << (d - 1)
        queue.append(cell)
        touched.update(cell_houses[cell])
    nodes = guesses = backtracks = 0
    bit_count = int.bit_count
    clock = time.perf_counter
    interval = t.search_interval
    budget = interval
    weight = [0] * t.nhouses if o.weights else None
    fail: list[int] = []
    # A frame is [cand, placed, cell, digits still to try at cell].
    stack: list[list[Any]] = []
    try:
        nodes = 1
        if not _propagate(cand, placed, queue, touched, t, deadline, o, fail):
            return True
        while True:
            keys = list(map(bit_count, cand))
            open_counts = set(keys)
            open_counts.discard(1)
            if open_counts:
                fewest = min(open_counts)
                cell = keys.index(fewest)
                if weight is not None:
                    h0, h1, h2 = cell_houses[cell]
                    heaviest = weight[h0] + weight[h1] + weight[h2]
                    i = cell
                    for _ in range(keys.count(fewest) - 1):
                        i = keys.index(fewest, i + 1)
                        h0, h1, h2 = cell_houses[i]
                        w = weight[h0] + weight[h1] + weight[h2]
                        if w > heaviest:
                            heaviest, cell = w, i
                stack.append([cand, placed, cell, cand[cell]])
            elif not o.constraints or _accepted(cand, o.constraints):
                solutions.append(cand)
                if len(solutions) >= limit:
                    return True
            # Try the next digit of the deepest branch point that has one left.
            while stack:
                frame = stack[-1]
                parent, parent_placed, cell, left = frame
                b = left & -left
                left ^= b
                if left:
                    frame[3] = left
                    cand = parent[:]
                    placed = parent_placed[:]
                else:  # the last digit: the parent state is not needed again
                    stack.pop()
                    cand = parent
                    placed = parent_placed
                cand[cell] = b
                nodes += 1
                guesses += 1
                budget -= 1
                if not budget:
                    if clock() > deadline:
                        raise _Timeout
                    budget = interval
                if _propagate(cand, placed, [cell], set(cell_houses[cell]), t, deadline, o,
                              fail):
                    break
                backtracks += 1
                if weight is not None:
                    for h in fail:
                        weight[h] += 1
                fail.clear()
            else:
                return True
    except _Timeout:
        return False
    finally:
        stats["nodes"] = nodes
        stats["guesses"] = guesses
        stats["backtracks"] = backtracks
