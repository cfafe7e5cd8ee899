"""The native solver: constraint propagation plus depth-first search, to cross-check SAT answers.

Glossary (besides the one in :mod:`satdoku.geometry`):

- candidates: the digits a cell may still take, as an int bitmask (bit ``d - 1`` for digit
  ``d``). ``full`` has all N bits set; one bit set means the cell is assigned; 0 is a
  contradiction.
- placed: for each house, the bitmask of digits already assigned (and propagated) in it.
- naked single: a cell with one candidate left; it is assigned and its digit eliminated from
  its peers.
- hidden single: a digit with one place left in a house; that cell is assigned the digit.
- segment: the cells a line (row or column) shares with a box: c cells of a row, r of a column.
- locked candidates: a digit whose places in a box all lie in one segment can leave the rest of
  that segment's line (*pointing*); a digit whose places in a line all lie in one segment can
  leave the rest of that segment's box (*claiming*).
- packed grid: every cell's candidates in one big int, cell ``i`` at bits ``i * width ..``
  (width 16, 32 or 64 bits); shifts and masks of it look at every segment at once.
- propagation: naked and hidden singles until nothing changes (a fixed point), then one pass of
  locked candidates over the whole grid; repeated while that pass removes anything. It stops at
  a contradiction (a cell without candidates, a house with no place for a digit).
- node: one propagation in search (the root, and each digit tried at a branch point).
- guess: a digit tried at a branch point (a cell with two or more candidates, the fewest in the
  grid, lowest cell index on ties; digits in increasing order). backtrack: a guess whose
  propagation failed. These counts mean what they meant before locked candidates; a node now
  does more work and there are fewer of them. ``NativeSolver(locked_candidates=False)`` is the
  singles-only solver, for comparisons.

Like Norvig's solver, propagation and search are separate and search is a few lines on top; unlike
it, the state is a flat list of ints and the work queue is explicit, so only what changed is
revisited: a queue of assigned cells to eliminate from their peers, and a set of houses that lost
a candidate since the last hidden-single check (houses with every digit placed are skipped).

Locked candidates pay on every set measured (CPU time, same moment, this change against
singles only; 9x9 first 100-300 puzzles): magictour top1465 119 -> 34 nodes a puzzle and 2.3x
the puzzles/s although a node costs ~45 -> ~65 us; forum hardest 313 -> 240 nodes, 1.08x;
on 17-clue puzzles the extra pass is small beside propagating from 17 givens. On 16x16 (10 s
timeout) forum_blue_ultimate timed out on 11 of 15 instead of 13, forum_tarek on 6 of 20 either
way but with half the guesses; rkkautsar 25x25 went from a 20 s timeout (16,000 guesses) to
57 ms (181 guesses).

Roads not taken:

- Sets of digits per cell (Norvig uses strings). Bitsets make "remove d", "one left?"
  (``m & (m - 1) == 0``) and "which digits have exactly one place in this house" (an
  once/twice fold over the house) single integer operations, and a state copy is a list copy.
- Counting fields for hidden singles: spreading each mask to a few bits per digit (via a table)
  lets one C-level ``sum`` over a house count every digit's places. Tried; no faster on 9x9,
  because the hidden-single pass is a third of a node at most and wide masks (over 2**30, two
  CPython digits) make every other bit operation about 1.5x slower.
- An undo trail instead of copying the state at each branch. A trail costs a Python-level append
  on every change (about 60 a node on hard 9x9 puzzles: eliminations, assignments, house
  updates) plus the undo loop, while copying the two lists (cells, houses) is C-level: about
  2 us of a ~60 us node. On big grids a copy is larger, but so is the propagation it precedes.
- Locked candidates segment by segment in Python (a union per segment, then folds per line and
  box): 143 us per pass on a 9x9 grid, which tripled the cost of a node and made hardest 2.5x
  slower. On the packed grid the pass is about 30 big-int operations, ~7 us, and goes cell by
  cell only where an elimination is due. Beyond 64 x 64 a cell does not fit 64 bits and the
  packed grid would be huge, so those grids use singles only.
- Locked candidates only on bands and stacks changed since the last pass: not done, since the
  packed pass covers the whole grid in ~7 us, about what tracking changed bands and stacks on
  every elimination would add (an estimate, not measured).
- Counting fields by table lookup (``sum(map(spread.__getitem__, house))``, masks kept narrow):
  tried again for hidden singles; no faster than the once/twice fold on 9x9 (the sums of
  45-bit fields and the lookups cost what the fold saves).
- Breaking ties between fewest-candidate cells by most placed digits in the cell's houses
  (DSATUR-like): 240 -> 237 nodes a puzzle on hardest, slower per node; not kept. Fewer placed
  digits first made search much worse.
- A smarter digit order at a branch point (highest digit first, or most / least placed digit
  first): within 1-8% of the nodes of increasing order on top1465 and hardest, and not always
  fewer. Kept increasing order.
- Naked pairs (two cells of a house left with the same two digits), a house-by-house pass after
  locked candidates find nothing: forum hardest 277 -> 214 nodes a puzzle but 63 -> 56
  puzzles/s (a node 57 -> 84 us); 16x16 forum_tarek (3 s timeout) half the nodes, twice the
  cost of a node, the same 7 timeouts. Not kept.
- The full peer table for grids above 64 x 64: it holds ncells * ~3N entries (gigabytes at
  400 x 400), so larger grids eliminate along the cell's three houses instead (a few repeated
  cells, skipped at once because the digit is already gone).
"""

from __future__ import annotations

import functools
import sys
import time
from array import array
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable

from .deadline import NO_DEADLINE, Deadline
from .errors import SolverError
from .geometry import Geometry
from .grid import Grid
from .result import Result, counted_status

__all__ = ["NativeSolver"]

#: Grids up to this size use the shared ``Geometry.peers`` table; bigger ones walk their houses.
PEER_TABLE_MAX_SIZE = 64

#: About how many cell visits pass between two looks at the clock (a few milliseconds' work).
_CLOCK_WORK = 20_000

_INF = float("inf")


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
class _Tables:
    """Everything the hot loops read for one geometry, computed once."""

    ncells: int
    nhouses: int
    full: int
    peers: Any  # tuple of tuples, or _HousePeers
    cell_houses: tuple[tuple[int, int, int], ...]
    houses: tuple[tuple[int, ...], ...]
    house_getters: tuple[Callable[[list[int]], tuple[int, ...]], ...]
    locked: _Locked | None  # None: no locked candidates for this geometry
    propagate_interval: int  # dequeued cells between clock checks
    search_interval: int  # nodes between clock checks


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


def _locked_tables(geo: Geometry) -> _Locked | None:
    """Locked-candidate tables, or None when boxes are a single line or N is above 64."""
    r, c, n = geo.box_rows, geo.box_cols, geo.size
    if not geo.is_boxed or r == 1 or c == 1 or n > 64 or sys.byteorder != "little":
        return None  # (array bytes are read as a little-endian int)
    width = 16 if n <= 16 else 32 if n <= 32 else 64
    typecode = next(tc for tc in "HILQ" if array(tc).itemsize * 8 == width)
    slot_full = (1 << n) - 1

    def mask(cells) -> int:
        return sum(slot_full << (cell * width) for cell in cells)

    def part(column: bool) -> _Segments:
        # Rows: a segment is c cells across, r segments a row, r rows a box.
        # Columns: a segment is r cells down, c segments a column, c columns a box.
        seg_len, nsegs, step, line_step, box_step = (
            (r, c, n, r * n, 1) if column else (c, r, 1, c, n))
        slots, line_firsts, box_firsts = [], [], []
        line_rest: list[tuple[int, ...] | None] = [None] * geo.ncells
        box_rest: list[tuple[int, ...] | None] = [None] * geo.ncells
        for cell in range(geo.ncells):
            row, col = divmod(cell, n)
            if (row % r if column else col % c):
                continue
            slots.append(cell)
            hrow, hcol, hbox = geo.cell_houses[cell]
            line, box = set(geo.houses[hcol if column else hrow]), set(geo.houses[hbox])
            line_rest[cell] = tuple(sorted(line - box))
            box_rest[cell] = tuple(sorted(box - line))
            if (row if column else col) == 0:
                line_firsts.append(cell)
            if row % r == 0 and col % c == 0:
                box_firsts.append(cell)
        return _Segments(
            seg_shifts=tuple(k * step * width for k in range(1, seg_len)),
            seg_mask=mask(slots),
            line_shifts=tuple(k * line_step * width for k in range(1, nsegs)),
            line_first=mask(line_firsts),
            box_shifts=tuple(k * box_step * width for k in range(1, nsegs if column else r)),
            box_first=mask(box_firsts),
            line_rest=tuple(line_rest),
            box_rest=tuple(box_rest),
        )

    rows, cols = part(False), part(True)
    return _Locked(typecode, width, (rows, cols))
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
        house_getters=tuple(itemgetter(*house) if len(house) > 1 else (lambda c, h=house: (c[h[0]],))
                            for house in geo.houses),
        locked=_locked_tables(geo),
        propagate_interval=max(1, _CLOCK_WORK // (3 * n)),
        search_interval=max(1, _CLOCK_WORK // geo.ncells),
    )


def _propagate(cand: list[int], placed: list[int], queue: list[int], touched: set[int],
               t: _Tables, deadline: float, locked: bool = True) -> bool:
    """Propagate singles, then locked candidates, to a fixed point; False on contradiction.

    ``queue`` holds cells just reduced to one candidate, ``touched`` houses that lost candidates
    since their last hidden-single check. ``cand`` and ``placed`` are changed in place.
    Locked candidates are looked for only once singles are at a fixed point, and only when
    ``locked``. Raises :class:`_Timeout` once ``deadline`` (a ``perf_counter`` time) has passed.
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
    lock = t.locked if locked else None
    if lock is not None:
        typecode, width, parts = lock.typecode, lock.width, lock.parts
        from_bytes = int.from_bytes
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
            for h in todo:
                if placed[h] == full:
                    continue  # every digit is placed (and propagated) in house h
                once = twice = 0
                for m in getters[h](cand):
                    twice |= once & m
                    once |= m
                if once != full:
                    return False  # a digit has no place left in house h
                hidden = once & ~twice & ~placed[h]
                if hidden:
                    for c in houses[h]:
                        m = cand[c]
                        s = m & hidden
                        if s and s != m:
                            if s & (s - 1):
                                return False  # one cell is the only place for two digits
                            cand[c] = s
                            push(c)
                            touch(cell_houses[c])
                        elif s & (s - 1):
                            return False
                budget -= 1
                if not budget:
                    if clock() > deadline:
                        raise _Timeout
                    budget = interval
        # Singles are at a fixed point: locked candidates, over the whole grid at once.
        if lock is None:
            return True
        grid = from_bytes(array(typecode, cand).tobytes(), "little")
        found = False
        for seg in parts:
            union = grid
            for sh in seg.seg_shifts:
                union |= grid >> sh
            union &= seg.seg_mask
            # Digits in two or more segments of a line (of a box), at the line's (box's) first
            # slot, then copied to each of its segments' slots.
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
            # A digit of a segment that is elsewhere in its line but not in its box (pointing)
            # or elsewhere in its box but not in its line (claiming) can go from those places.
            hits = union & (line_twice ^ box_twice)
            while hits:
                slot = (hits.bit_length() - 1) // width
                shift = slot * width
                x = hits >> shift
                hits ^= x << shift
                pointing = x & (line_twice >> shift)
                for digits, targets in ((pointing, seg.line_rest[slot]),
                                        (x ^ pointing, seg.box_rest[slot])):
                    if not digits:
                        continue
                    keep = ~digits
                    for c in targets:
                        m = cand[c]
                        if m & digits:
                            m &= keep
                            if not m:
                                return False
                            cand[c] = m
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


class NativeSolver:
    """Propagation (naked and hidden singles, locked candidates) plus depth-first search.

    Any box shape; ``locked_candidates=False`` keeps to singles.

    One object serves any number of puzzles of any geometry; it holds no resources, so
    :meth:`close` does nothing (it is there for the :class:`~satdoku.result.Solver` protocol).

    >>> from satdoku.geometry import geometry
    >>> from satdoku.grid import Grid
    >>> puzzle = Grid(geometry(2, 2), (1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2))
    >>> result = NativeSolver().solve(puzzle, limit=2)
    >>> result.status, result.solution.cells[:4], result.stats["no_guess"]
    ('unique', (1, 3, 2, 4), True)
    """

    name = "native"
    encoding = None

    def __init__(self, *, locked_candidates: bool = True) -> None:
        #: False: singles only (the solver as it was before locked candidates, for comparisons).
        self.locked_candidates = locked_candidates

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None) -> Result:
        """Solve ``grid``; with ``limit >= 2`` count its solutions up to ``limit``.

        Args:
            grid: the puzzle; its givens are assumed not to clash (a clash gives 'unsolvable').
            limit: 1 to stop at the first solution (status 'solved' or 'unsolvable'); 2 or more
                to count (status 'unique', 'multiple' or 'unsolvable', ``count`` filled).
            deadline: when to stop (None: no limit).

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
        stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "no_guess": False}
        solutions: list[list[int]] = []
        timed_out = deadline.expired() or not _search(grid, t, limit, deadline.at, solutions,
                                                      stats, self.locked_candidates)
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


def _search(grid: Grid, t: _Tables, limit: int, deadline: float,
            solutions: list[list[int]], stats: dict[str, Any], locked: bool = True) -> bool:
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
    # A frame is [cand, placed, cell, digits still to try at cell].
    stack: list[list[Any]] = []
    try:
        nodes = 1
        if not _propagate(cand, placed, queue, touched, t, deadline, locked):
            return True
        while True:
            keys = list(map(bit_count, cand))
            open_counts = set(keys)
            open_counts.discard(1)
            if open_counts:
                cell = keys.index(min(open_counts))
                stack.append([cand, placed, cell, cand[cell]])
            else:
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
                if _propagate(cand, placed, [cell], set(cell_houses[cell]), t, deadline,
                              locked):
                    break
                backtracks += 1
            else:
                return True
    except _Timeout:
        return False
    finally:
        stats["nodes"] = nodes
        stats["guesses"] = guesses
        stats["backtracks"] = backtracks
