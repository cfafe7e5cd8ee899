"""Constraint propagation as small named passes and a short driver over them.

Glossary (besides those in :mod:`satdoku.model.geometry` and :mod:`satdoku.native.tables`):

- placed: for each house, the bitmask of digits already assigned (and propagated) in it.
- positions: for each key (house, digit) whose digit is not placed in the house, the bitmask
  of the house's positions where it may still go (:mod:`satdoku.native.tables`): the same
  facts as the candidates, seen from the houses. A placed digit's positions are not kept.
- queue: cells just reduced to one candidate, whose digit their houses have not yet taken.
- keys: (house, digit) keys whose positions fell to one or none since they were last looked at.
- moved: keys whose positions changed since the last look for locked candidates (a key whose
  positions stayed the same can lock nothing new: what it locked is gone already).
- dirty: houses changed since their last look for subsets.
- fail: the houses a contradiction was found in (search weighs them, see
  :mod:`satdoku.native.search`).

Every removal of a candidate goes through :meth:`Propagation.narrow` (or the singles pass's own
inner loop, the same steps), which keeps the positions and queues what became single: so no
pass walks a cell's 3 N peers or folds a whole house, and a digit placed in a 400 x 400 grid
costs the few open cells that held it.

The passes, each a function of a :class:`Propagation` that returns True when it removed
candidates, False when it found nothing, None on a contradiction:

- :func:`naked_singles`: each queued cell's digit leaves the positions its houses still had
  for it; a cell left with one candidate joins the queue.
- :func:`hidden_singles`: a key with one position left puts its digit there; with none, a
  contradiction.
- :func:`locked_candidates`: a digit whose positions in a box all lie in one segment leaves the
  rest of that segment's line (*pointing*); a digit whose positions in a line all lie in one
  segment leaves the rest of that segment's box (*claiming*).
- :func:`~satdoku.native.subsets.naked_and_hidden_subsets`: k cells of a house whose
  candidates together are k digits (*naked*) or k digits whose places together are k cells
  (*hidden*), in the dirty houses.
- :func:`rule_prunes`: each variant rule's ``prune(cand)``.

:func:`propagate` runs naked and hidden singles to a fixed point, then the other passes in that
order until one removes something, which sends it back to singles. It stops at the fixed point
or at a contradiction. Only what changed is revisited: the queue, the keys, the moved keys, the
dirty houses.
What was tried and measured is in `docs/native-search.md <../docs/native-search.md>`_.

One implementation serves every board that settles candidates to a fixed point: native search
(:mod:`satdoku.native.search`) and the reduced encoding's folding of big grids
(:mod:`satdoku.native.reduce`). The bit-sliced batch pass (:mod:`satdoku.sat.sliced`: one int
a candidate across a batch of puzzles) runs the same rules across puzzles at once, and the
ladder (:mod:`satdoku.native.named`) finds them one step at a time, in Sudoku Explainer's order,
to name and rate each; ``tests/test_passes_agree.py`` checks that all leave every cell the same
candidates.
"""

from __future__ import annotations

import time

from .subsets import naked_and_hidden_subsets
from .tables import Tables, Timeout

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Callable, Protocol, Sequence

if not TYPE_CHECKING:  # at run time a protocol is a plain class
    Protocol = object

__all__ = ["Constraint", "Propagation", "propagate", "naked_singles", "hidden_singles",
           "locked_candidates", "locked_digits", "rule_prunes", "positions"]

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
    """The propagation of one search (or one folding): its tables, the passes it uses, the
    clock, and (between :meth:`start` and the end of :func:`propagate`) the board and the work
    left.

    ``locked`` turns locked candidates on; ``subsets`` is the largest subset looked for (0
    none, 2 pairs, 3 triples too); ``constraints`` are variant rules; ``deadline`` is a
    ``time.perf_counter`` time (:class:`~satdoku.native.tables.Timeout` once it passed).
    """

    __slots__ = ("t", "stride", "slots", "cell_houses", "houses", "subsets", "constraints",
                 "deadline", "passes", "fail", "clash", "budget", "cand", "placed", "pos",
                 "queue", "keys", "moved", "dirty", "locked")

    def __init__(self, t: Tables, *, locked: bool = True, subsets: int = 0,
                 constraints: Sequence[Constraint] = (), deadline: float = _INF) -> None:
        self.t = t
        # what the singles passes read at every node, one attribute away
        self.stride, self.slots, self.cell_houses, self.houses = (
            t.stride, t.slots, t.cell_houses, t.houses)
        self.subsets = subsets
        self.constraints = tuple(constraints)
        self.deadline = deadline
        passes: list[Callable[[Propagation], bool | None]] = []
        self.locked = locked
        if locked:
            passes.append(locked_candidates)
        if subsets:
            passes.append(naked_and_hidden_subsets)
        if self.constraints:
            passes.append(rule_prunes)
        self.passes = tuple(passes)
        self.fail: list[int] = []
        self.clash: tuple[int, ...] = ()
        self.budget = t.propagate_interval

    def start(self, cand: list[int], placed: list[int], pos: list[int]) -> None:
        """Take a board at its fixed point to work on: ``cand``, ``placed`` and ``pos`` (see the
        module docstring), changed in place from now on. No work is left yet: what
        :meth:`narrow` removes makes it."""
        self.cand, self.placed, self.pos = cand, placed, pos
        self.queue: list[int] = []
        self.keys: list[int] = []
        self.moved: list[int] | None = [] if self.locked else None
        self.dirty: set[int] | None = set() if self.subsets else None
        self.clash = ()

    def begin(self, cand: list[int], placed: list[int]) -> list[int]:
        """Take a board that is not at a fixed point yet (e.g. the givens folded,
        :func:`~satdoku.native.board.fold_givens`): its positions are built, every open cell
        with one candidate is queued and every key with one position or none is looked at.
        A cell is settled when its one digit is placed in its row. Returns the positions."""
        stride = self.stride
        pos = positions(self.t, cand, placed)
        self.start(cand, placed, pos)
        self.queue = [c for c, (m, hs) in enumerate(zip(cand, self.cell_houses))
                      if not m & (m - 1) and not placed[hs[0]] & m]
        self.keys = [k for k, q in enumerate(pos)  # (index 0 of a house is no digit)
                     if not q & (q - 1) and k % stride
                     and not placed[k // stride] >> (k % stride - 1) & 1]
        if self.moved is not None:
            self.moved += (k for k in range(len(pos)) if k % stride)
        if self.dirty is not None:
            self.dirty.update(range(self.t.nhouses))
        return pos

    def narrow(self, cell: int, m: int) -> bool:
        """Leave ``cell`` the candidates ``m`` (those of its own that are in ``m``): queue it
        when one is left, and take the digits it lost from its houses' positions. False (its
        houses failed) when none is left."""
        old = self.cand[cell]
        gone = old & ~m
        if not gone:
            return True
        m &= old
        if not m:
            self.fail += self.cell_houses[cell]
            self.clash = (cell,)
            return False
        self.cand[cell] = m
        if not m & (m - 1):
            self.queue.append(cell)
        pos, keys, moved = self.pos, self.keys, self.moved
        slots = self.slots[cell]
        while gone:
            low = gone & -gone
            gone ^= low
            e = low.bit_length()
            for base, b, _ in slots:
                k = base + e
                q = pos[k] ^ b
                pos[k] = q
                if not q & (q - 1):
                    keys.append(k)
                if moved is not None:
                    moved.append(k)
        if self.dirty is not None:
            self.dirty.update(self.cell_houses[cell])
        return True

    def tick(self) -> int:
        """A look at the clock; the cells to visit until the next one."""
        if time.perf_counter() > self.deadline:
            raise Timeout
        return self.t.propagate_interval

    def why(self) -> str:
        """The last contradiction, in words: the cell left with no candidate, or the house
        left with no place for a digit."""
        geo = self.t.geometry
        if not self.clash:
            return "no solution"
        if len(self.clash) == 1:
            return f"{geo.cell_name(self.clash[0])} has no candidate left"
        h, d = self.clash
        return f"{geo.house_name(h)} has no place left for {d}"


def positions(t: Tables, cand: list[int], placed: list[int]) -> list[int]:
    """The positions of every key (module docstring) from the candidates: a cell counts where
    its digits are not placed in its houses (a settled cell's digit is)."""
    pos = [0] * (t.nhouses * t.stride)
    slots, cell_houses = t.slots, t.cell_houses
    for c, x in enumerate(cand):
        if not x & (x - 1) and placed[cell_houses[c][0]] & x:
            continue
        (s0, b0, _), (s1, b1, _), (s2, b2, _) = slots[c]  # three houses a cell: need_boxes
        while x:
            low = x & -x
            x ^= low
            e = low.bit_length()
            pos[s0 + e] |= b0
            pos[s1 + e] |= b1
            pos[s2 + e] |= b2
    return pos


def propagate(p: Propagation) -> bool:
    """Propagate the board :meth:`Propagation.start` (or :meth:`~Propagation.begin`) took, and
    the work :meth:`~Propagation.narrow` left, to a fixed point; False on a contradiction (its
    houses in ``p.fail``). The board changes in place."""
    queue, keys, passes = p.queue, p.keys, p.passes
    while True:
        while queue or keys:
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
    """Each queued cell's digit goes into its houses and leaves the other positions they had
    for it; cells left with one candidate are queued."""
    queue = p.queue
    if not queue:
        return False
    cand, placed, pos, fail = p.cand, p.placed, p.pos, p.fail
    slots, cell_houses = p.slots, p.cell_houses
    pop, push, look = queue.pop, queue.append, p.keys.append
    moved, dirty = p.moved, p.dirty
    budget = p.budget
    while queue:
        cell = pop()
        m = cand[cell]
        h0, h1, h2 = cell_houses[cell]
        if placed[h0] & m:
            continue  # queued twice: its digit is placed already
        placed[h0] |= m
        placed[h1] |= m
        placed[h2] |= m
        e = m.bit_length()
        for base, b, house in slots[cell]:
            k = base + e
            rest = pos[k] ^ b
            pos[k] = b
            while rest:
                low = rest & -rest
                rest ^= low
                c = house[low.bit_length() - 1]
                x = cand[c] ^ m
                if not x:
                    fail += cell_houses[c]
                    p.clash = (c,)
                    return None
                cand[c] = x
                if not x & (x - 1):
                    push(c)
                for base2, b2, _ in slots[c]:
                    if base2 == base:
                        continue  # this house: e is placed in it
                    k2 = base2 + e
                    q = pos[k2] ^ b2
                    pos[k2] = q
                    if not q & (q - 1):
                        look(k2)
                    if moved is not None:
                        moved.append(k2)
                if dirty is not None:
                    dirty.update(cell_houses[c])
        budget -= 1
        if not budget:
            budget = p.tick()
    p.budget = budget
    return True


def hidden_singles(p: Propagation) -> bool | None:
    """Each looked-at key whose digit is not placed: one position left, the digit goes there
    (and is queued); none, a contradiction. Stops at the first one found, so that naked
    singles run before the next."""
    keys = p.keys
    if not keys:
        return False
    cand, placed, pos, houses, stride = p.cand, p.placed, p.pos, p.houses, p.stride
    while keys:
        k = keys.pop()
        h, e = divmod(k, stride)
        bit = 1 << (e - 1)
        if placed[h] & bit:
            continue
        q = pos[k]
        if q & (q - 1):
            continue  # (positions only fall within a board: a guard)
        if not q:
            p.fail.append(h)
            p.clash = (h, e)
            return None
        c = houses[h][q.bit_length() - 1]
        if cand[c] != bit:
            if not p.narrow(c, bit):
                return None
            return True
    return False


def locked_candidates(p: Propagation) -> bool | None:
    """Locked candidates on every moved key: where a digit's positions in a house all lie in
    one of its segments (:attr:`~satdoku.native.tables.Tables.locks`), the digit leaves the
    rest of the other house of that segment."""
    moved = p.moved
    if not moved:
        return False
    stride, pos, placed, cand = p.stride, p.pos, p.placed, p.cand
    houses, locks = p.houses, p.t.locks
    todo = set(moved)
    moved.clear()
    found = False
    for k in todo:
        h, e = divmod(k, stride)
        low = 1 << (e - 1)
        if placed[h] & low:
            continue
        q = pos[k]
        if not q & (q - 1):
            continue  # a hidden single (or a contradiction) the singles passes see
        for inside, other, there in locks[h][(q & -q).bit_length() - 1]:
            if q & ~inside:
                continue
            rest = pos[other + e] & ~there
            if rest:
                cells = houses[other // stride]
                while rest:
                    b = rest & -rest
                    rest ^= b
                    c = cells[b.bit_length() - 1]
                    if not p.narrow(c, cand[c] & ~low):
                        return None
                found = True
            break
    return found


def locked_digits(inside: int, line_other: int, box_other: int) -> tuple[int, int]:
    """The rule of locked candidates on one segment, from the digits of its cells (``inside``),
    of the rest of its line and of the rest of its box: (pointing, claiming). Pointing digits
    are in the box only here, so they leave the rest of the line (where some are); claiming
    digits are in the line only here, so they leave the rest of the box. The ladder's finder
    (:mod:`satdoku.native.named`) asks it; :func:`locked_candidates` is the same rule on the
    positions.

    >>> locked_digits(0b011, 0b001, 0b010)
    (1, 2)
    """
    return inside & ~box_other & line_other, inside & ~line_other & box_other


def rule_prunes(p: Propagation) -> bool | None:
    """Each variant rule removes the candidates it rules out (:class:`Constraint`)."""
    if time.perf_counter() > p.deadline:  # a rule's prune may take long: look before each round
        raise Timeout
    cand = p.cand
    before = cand[:]  # what the cells held, so that narrow sees what each rule took
    found = False
    for constraint in p.constraints:
        changed = constraint.prune(cand)
        if changed is None:
            return None
        for c in changed:
            m, cand[c] = cand[c], before[c]
            if not p.narrow(c, m):
                return None
            before[c] = cand[c]
            found = True
    return found
