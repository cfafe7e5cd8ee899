"""Constraint propagation as small named passes and a short driver over them.

Glossary (besides those in :mod:`satdoku.model.geometry` and :mod:`satdoku.native.tables`):

- placed: for each house, the bitmask of digits already assigned (and propagated) in it.
- queue: cells just reduced to one candidate, whose digit their peers have not yet lost.
- touched: houses that lost a candidate since their last look for hidden singles.
- dirty: houses changed since their last look for subsets.
- fail: the houses a contradiction was found in (search weighs them, see
  :mod:`satdoku.native.search`).

The passes, each a function of a :class:`Propagation` that returns True when it removed
candidates, False when it found nothing, None on a contradiction:

- :func:`naked_singles`: each queued cell's digit leaves its peers; a peer left with one
  candidate joins the queue.
- :func:`hidden_singles`: in each touched house, a digit with one place left goes there; a digit
  with no place, or a cell that is the only place for two digits, is a contradiction.
- :func:`locked_candidates`: a digit whose places in a box all lie in one segment leaves the
  rest of that segment's line (*pointing*); a digit whose places in a line all lie in one
  segment leaves the rest of that segment's box (*claiming*). On the packed grid
  (:func:`locked_packed`) or segment by segment (:func:`locked_by_segment`).
- :func:`~satdoku.native.subsets.naked_and_hidden_subsets`: k cells of a house whose
  candidates together are k digits (*naked*) or k digits whose places together are k cells
  (*hidden*), in the dirty houses.
- :func:`rule_prunes`: each variant rule's ``prune(cand)``.

:func:`propagate` runs naked and hidden singles to a fixed point, then the other passes in that
order until one removes something, which sends it back to singles. It stops at the fixed point
or at a contradiction. Only what changed is revisited: the queue, the touched houses, the dirty
houses. What was tried and measured is in `docs/native-search.md <../docs/native-search.md>`_.

These passes are the rules of every board that settles candidates: the same rules, on other
boards for speed, fold the reduced encoding's big grids (:mod:`satdoku.native.reduce`: lists of
a house's open cells a digit, for 400 x 400) and settle batches of puzzles at once
(:mod:`satdoku.sat.sliced`: one int a candidate across the batch); the ladder
(:mod:`satdoku.native.named`) finds them one step at a time, in Sudoku Explainer's order, to
name and rate each. ``tests/test_passes_agree.py`` checks that all four leave every cell the
same candidates.
"""

from __future__ import annotations

import functools
import operator
import time
from array import array
from typing import Callable, Protocol, Sequence

from .subsets import naked_and_hidden_subsets
from .tables import Tables, Timeout

__all__ = ["Constraint", "Propagation", "propagate", "naked_singles", "hidden_singles",
           "locked_candidates", "locked_packed", "locked_by_segment", "locked_digits",
           "rule_prunes"]

_INF = float("inf")


class Constraint(Protocol):
    """What a variant constraint offers the native solver.

    ``prune(cand)`` gets the candidate bitmasks of every cell (bit ``d - 1`` for digit ``d``),
    removes candidates the constraint rules out, in place, and returns the cells it changed
    (empty when nothing), or None when the candidates allow no solution. On a full assignment
    (one candidate a cell) it must return None when the constraint is violated.
    """

    def prune(self, cand: list[int]) -> list[int] | None: ...


class Propagation:
    """The propagation of one search (or one trial): its tables, the passes it uses, the clock,
    and (during :func:`propagate`) the candidates and the work left.

    ``locked`` turns locked candidates on; ``subsets`` is the largest subset looked for (0
    none, 2 pairs, 3 triples too); ``constraints`` are variant rules; ``deadline`` is a
    ``time.perf_counter`` time (:class:`~satdoku.native.tables.Timeout` once it passed).
    """

    __slots__ = ("t", "peers", "cell_houses", "houses", "getters", "full", "subsets",
                 "constraints", "deadline", "passes", "fail", "budget", "cand", "placed",
                 "queue", "touched", "dirty")

    def __init__(self, t: Tables, *, locked: bool = True, subsets: int = 0,
                 constraints: Sequence[Constraint] = (), deadline: float = _INF) -> None:
        self.t = t
        # what the singles passes read at every node, one attribute away
        self.peers, self.cell_houses, self.houses = t.peers, t.cell_houses, t.houses
        self.getters, self.full = t.house_getters, t.full
        self.subsets = subsets
        self.constraints = tuple(constraints)
        self.deadline = deadline
        passes: list[Callable[[Propagation], bool | None]] = []
        if locked:
            passes.append(locked_candidates(t))
        if subsets:
            passes.append(naked_and_hidden_subsets)
        if self.constraints:
            passes.append(rule_prunes)
        self.passes = tuple(passes)
        self.fail: list[int] = []
        self.budget = t.propagate_interval

    def start(self, cand: list[int], placed: list[int], queue: list[int],
              touched: set[int]) -> None:
        """Take ``cand`` and ``placed`` to work on, with the work the caller left: ``queue`` and
        ``touched`` (see the module docstring). The touched houses count as dirty."""
        self.cand, self.placed, self.queue, self.touched = cand, placed, queue, touched
        self.dirty = set(touched) if self.subsets else None

    def narrow(self, cell: int, m: int) -> bool:
        """Leave ``cell`` the candidates ``m`` (some of its own): queue it when one is left, and
        touch its houses. False when none is left."""
        if not m:
            return False
        self.cand[cell] = m
        if not m & (m - 1):
            self.queue.append(cell)
        self.touched.update(self.cell_houses[cell])
        return True

    def tick(self) -> int:
        """A look at the clock; the cells to visit until the next one."""
        if time.perf_counter() > self.deadline:
            raise Timeout
        return self.t.propagate_interval


def propagate(p: Propagation, cand: list[int], placed: list[int], queue: list[int],
              touched: set[int]) -> bool:
    """Propagate ``cand`` to a fixed point; False on a contradiction (its houses in ``p.fail``).

    ``queue`` and ``touched`` are the work the caller left (see the module docstring); the rest
    must be at the fixed point already (a fresh start queues every cell with one candidate and
    touches every house). ``cand`` and ``placed`` change in place.
    """
    p.start(cand, placed, queue, touched)
    passes = p.passes
    while True:
        while queue or touched:
            if naked_singles(p) is None or hidden_singles(p) is None:
                return False
        for step in passes:
            found = step(p)
            if found is None:
                return False
            if found:
                break
        else:
            return True
        p.budget -= 1
        if not p.budget:
            p.budget = p.tick()


def naked_singles(p: Propagation) -> bool | None:
    """Each queued cell's digit leaves its peers; peers left with one candidate are queued."""
    queue = p.queue
    if not queue:
        return False
    cand, placed, fail, peers, cell_houses = p.cand, p.placed, p.fail, p.peers, p.cell_houses
    pop, push, touch = queue.pop, queue.append, p.touched.update
    budget = p.budget
    while queue:
        cell = pop()
        b = cand[cell]
        h0, h1, h2 = cell_houses[cell]
        placed[h0] |= b
        placed[h1] |= b
        placed[h2] |= b
        for c in peers[cell]:
            m = cand[c]
            if m & b:
                m ^= b
                if not m:
                    fail += cell_houses[c]
                    return None
                cand[c] = m
                if not m & (m - 1):
                    push(c)
                touch(cell_houses[c])
        budget -= 1
        if not budget:
            budget = p.tick()
    p.budget = budget
    return True


def hidden_singles(p: Propagation) -> bool | None:
    """In each touched house, a digit with one place left goes there (and is queued)."""
    touched = p.touched
    if not touched:
        return False
    cand, placed, fail, getters, full = p.cand, p.placed, p.fail, p.getters, p.full
    push, touch = p.queue.append, touched.update
    todo = list(touched)
    touched.clear()
    if p.dirty is not None:
        p.dirty.update(todo)
    found = False
    for h in todo:
        if placed[h] == full:
            continue  # every digit is placed (and propagated) in house h
        once = twice = 0
        for m in getters[h](cand):
            twice |= once & m
            once |= m
        if once != full:
            fail.append(h)
            return None  # a digit has no place left in house h
        hidden = once & ~twice & ~placed[h]
        if hidden:
            for c in p.houses[h]:
                m = cand[c]
                s = m & hidden
                if s and s != m:
                    if s & (s - 1):
                        fail.append(h)
                        return None  # one cell is the only place for two digits
                    cand[c] = s
                    push(c)
                    touch(p.cell_houses[c])
                    found = True
                elif s & (s - 1):
                    fail.append(h)
                    return None
    p.budget -= 1
    if not p.budget:
        p.budget = p.tick()
    return found


def locked_candidates(t: Tables) -> Callable[[Propagation], bool | None]:
    """The locked-candidates pass for ``t``'s geometry: on the packed grid where it serves,
    else segment by segment."""
    return locked_packed if t.packed is not None else locked_by_segment


def locked_packed(p: Propagation) -> bool | None:
    """Locked candidates over the whole grid at once, on the packed grid."""
    cand = p.cand
    packed = p.t.packed
    assert packed is not None  # the pass of geometries that have a packed grid (above)
    width = packed.width
    grid = int.from_bytes(array(packed.typecode, cand).tobytes(), "little")
    found = False
    for seg in packed.parts:
        union = grid
        for sh in seg.seg_shifts:
            union |= grid >> sh
        union &= seg.seg_mask
        line_twice = _in_two_segments(union, seg.line_shifts, seg.line_first)
        box_twice = _in_two_segments(union, seg.box_shifts, seg.box_first)
        # A digit of a segment that is elsewhere in its line but not in its box (pointing) or
        # elsewhere in its box but not in its line (claiming) can go from those places.
        hits = union & (line_twice ^ box_twice)
        while hits:
            slot = (hits.bit_length() - 1) // width
            shift = slot * width
            x = hits >> shift
            hits ^= x << shift
            pointing = x & (line_twice >> shift)
            struck = strike(p, ((pointing, seg.line_rest[slot]),
                                (x ^ pointing, seg.box_rest[slot])))
            if struck is None:
                return None
            found = struck or found
    return found


def _in_two_segments(union: int, shifts: tuple[int, ...], first: int) -> int:
    """The digits in two or more segments of a line (or box), at each of its segments' slots:
    ``union`` folded by ``shifts`` meets a line's (box's) segments at its first slot (``first``),
    and is copied back to the others."""
    once, twice = union, 0
    for sh in shifts:
        x = union >> sh
        twice |= once & x
        once |= x
    out = at_first = twice & first
    for sh in shifts:
        out |= at_first << sh
    return out


def locked_by_segment(p: Propagation) -> bool | None:
    """Locked candidates segment by segment (jigsaw regions, boxes of one line, grids past
    64 x 64)."""
    cand = p.cand
    or_all = functools.partial(functools.reduce, operator.or_)
    found = False
    for seg_get, line_get, box_get, line_rest, box_rest in p.t.segments:
        inside = or_all(seg_get(cand))
        line_other = or_all(line_get(cand))
        box_other = or_all(box_get(cand))
        pointing, claiming = locked_digits(inside, line_other, box_other)
        struck = strike(p, ((pointing, line_rest), (claiming, box_rest)))
        if struck is None:
            return None
        found = struck or found
    return found


def locked_digits(inside: int, line_other: int, box_other: int) -> tuple[int, int]:
    """The rule of locked candidates on one segment, from the digits of its cells (``inside``),
    of the rest of its line and of the rest of its box: (pointing, claiming). Pointing digits
    are in the box only here, so they leave the rest of the line (where some are); claiming
    digits are in the line only here, so they leave the rest of the box. The ladder's finder
    (:mod:`satdoku.native.named`) asks it too; :func:`locked_packed` is the same rule on the
    packed grid.

    >>> locked_digits(0b011, 0b001, 0b010)
    (1, 2)
    """
    return inside & ~box_other & line_other, inside & ~line_other & box_other


def strike(p: Propagation, eliminations) -> bool | None:
    """Remove the digits of each (digits, cells) of ``eliminations`` from those cells: True when
    something went, None on a contradiction (the emptied cell's houses go to ``p.fail``)."""
    cand = p.cand
    found = False
    for digits, targets in eliminations:
        if not digits:
            continue
        keep = ~digits
        for c in targets:
            m = cand[c]
            if m & digits:
                if not p.narrow(c, m & keep):
                    p.fail += p.cell_houses[c]
                    return None
                found = True
    return found


def rule_prunes(p: Propagation) -> bool | None:
    """Each variant rule removes the candidates it rules out (:class:`Constraint`)."""
    if time.perf_counter() > p.deadline:  # a rule's prune may take long: look before each round
        raise Timeout
    cand = p.cand
    found = False
    for constraint in p.constraints:
        changed = constraint.prune(cand)
        if changed is None:
            return None
        for c in changed:
            if not p.narrow(c, cand[c]):
                return None
            found = True
    return found
