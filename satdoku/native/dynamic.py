"""Sudoku Explainer's later chaining rungs: nishio (7.5), multiple (8.0) and dynamic (8.5)
forcing chains, and the propagation and search of the nested ones
(:mod:`satdoku.native.nesting`), found as SE 1.2.1 finds them and rated as it rates them.

Glossary (besides :mod:`satdoku.native.chains`): an *assumption* is a potential taken as true
or false; its *propagation* follows SE's links breadth-first, every "on" potential first, until
nothing new follows or a potential is implied both on and off (a *contradiction*). Each implied
potential keeps its *parents* (the potentials it follows from), so a deduction's *complexity*
is how many distinct potentials its chains hold (SE's ancestor count, summed over the chains a
hint is made of).

- *static* propagation reads the board as it is: an off potential turns on the cell's other
  digit when the cell has two (Y) and the digit's other place in a house that has two (X);
- *dynamic* propagation takes each off potential out of its own copy of the board as it goes,
  so a cell or house left with one candidate by earlier offs turns it on (those offs are the
  implication's parents too).

The rungs, each from every candidate of every open cell in cell order (multiple: cells of three
candidates or more), digit by digit:

- nishio (7.5): dynamic, X-links only; an assumption leading to a contradiction is false;
- multiple forcing chains (8.0): static, X and Y; a potential every digit of a cell leads to
  (*cell* forcing chains), or every place of a digit in a house (*region*), holds;
- dynamic forcing chains (8.5): dynamic, X and Y; contradictions from a candidate on or off,
  potentials implied by both (*double* forcing chains, cells of three or more), cell and region
  forcing chains.

- nested dynamic forcing chains (9.0 to 10.5, SE's levels 1 to 4, the rungs are in
  :mod:`satdoku.native.nesting`): the same, but when a propagation runs dry the techniques of
  its level (a :class:`Finder`'s ``rules``) are applied to the board its offs leave, and their
  removals carry on the propagation; their parents are the offs the step needs gone
  (``NamedStep.absent``: SE's rule parents), and a nested chain adds its own complexity, once,
  to every deduction that rests on it (:meth:`Finder.every` gives a rung's deductions for
  that).

Each adds SE's length bonus (:func:`~satdoku.native.chains.length_bonus`) to its base rating;
the easiest deduction (rating, then complexity, then double before cell before region before
contradiction, then the order found) is the step.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from ..deadline import Deadline
from ..model.digits import bits
from .board import Board
from .chains import every_chain, length_bonus
from .named import NamedStep
from .tables import tables

__all__ = ["nishio_forcing_chain", "multiple_forcing_chain", "dynamic_forcing_chain",
           "Finder", "complexity", "ancestors"]

#: A potential is the int ``cell << 6 | digit << 1 | on``: digits up to 31.
SHIFT = 6
MAX_SIZE = 31

#: SE's sort keys: double forcing chains first, then cell, region, contradiction.
DOUBLE, CELL, REGION, ABSURD = 1, 5, 6, 7


def _key(cell: int, d: int, on: bool) -> int:
    return cell << SHIFT | d << 1 | on


def _cell(key: int) -> int:
    return key >> SHIFT


def _digit(key: int) -> int:
    return (key >> 1) & 31


class Outcome(NamedTuple):
    """A propagation: every potential reached with its parents (in the order reached), the
    contradiction it ran into, if any, as (potential, its parents, the stored conjugate), and
    the offs a technique applied inside made, with (the step's text, its complexity)."""

    parents: dict[int, tuple[int, ...]]
    absurd: tuple[int, tuple[int, ...], int] | None
    nested: dict[int, tuple[str, int]]
    #: where each on came from, the house it is its digit's last place in, or -1 for its cell's
    #: last digit (what a chain applied inside a dynamic one rests on); kept when asked for
    causes: dict[int, int] | None = None


def ancestors(parents: dict[int, tuple[int, ...]], key: int,
              first: tuple[int, ...] | None = None) -> set[int]:
    """The distinct potentials ``key``'s chains hold, itself included (their count is SE's
    complexity of one chain); ``first`` replaces its stored parents (a contradiction's last
    potential)."""
    seen = {key}
    todo = list(parents[key] if first is None else first)
    while todo:
        k = todo.pop()
        if k not in seen:
            seen.add(k)
            todo.extend(parents[k])
    return seen


def complexity(chains: list[tuple[Outcome, int, tuple[int, ...] | None]]) -> int:
    """SE's complexity of a deduction made of ``chains`` (outcome, target, its parents if not
    stored): the potentials of each chain, plus each technique step applied inside once."""
    total, inner = 0, {}
    for out, key, first in chains:
        seen = ancestors(out.parents, key, first)
        total += len(seen)
        if out.nested:
            for k in seen:
                if k in out.nested:
                    text, size = out.nested[k]
                    inner[text] = size
    return total + sum(inner.values())


class Chaining:
    """One board's propagations in one mode (Y-links or not, dynamic or not), memoised by
    assumption. A digit's places in a house are a bitmask of positions in the house
    (``pos[house * stride + digit]``, the layout of :mod:`satdoku.native.tables`), so "the
    last other place" is a test on an int."""

    def __init__(self, board: Board, y: bool, dynamic: bool, rules: tuple = (),
                 deadline: Deadline | None = None, causes: bool = False) -> None:
        geo = board.geo
        self.geo, self.y, self.dynamic, self.rules, self.deadline = geo, y, dynamic, rules, deadline
        self.causes = causes
        self.placed = board.placed
        self.given = [m if placed else 0 for m, placed in zip(board.cand, board.placed)]
        self.cand0 = [0 if placed else m for m, placed in zip(board.cand, board.placed)]
        self.stride = tables(geo).stride
        self.hcells = geo.houses
        self.where = [tuple((h, geo.houses[h].index(cell)) for h in (box, row, col))
                      for cell, (row, col, box) in enumerate(geo.cell_houses)]
        self.pos0 = board.positions()  # read only: a dynamic propagation works on a copy
        # per cell, its box, row and column as (where its digits' positions start, the places
        # to look at: not the cell, and in a line not the box's cells, the house's cells)
        self.spread = []
        for cell, houses in enumerate(self.where):
            box = set(geo.houses[houses[0][0]])
            self.spread.append(tuple(
                (h * self.stride, ~sum(1 << j for j, c in enumerate(geo.houses[h])
                                       if c == cell or (n and c in box)), geo.houses[h])
                for n, (h, _) in enumerate(houses)))
        self.memo: dict[int, Outcome] = {}

    def outcome(self, start: int) -> Outcome:
        """The propagation of assumption ``start`` (memoised)."""
        out = self.memo.get(start)
        if out is None:
            out = self.memo[start] = self._propagate(start)
        return out

    def _propagate(self, start: int) -> Outcome:
        """Follow ``start``'s links breadth first, every on before the next off (see the
        module docstring); the links are worked out inline, on the positions: an on turns off
        the cell's other digits (Y), then its digit's other places in its box, row and column
        (X: ``spread`` leaves out of a line the cells of the box); an off turns on the cell's
        last other digit (Y) and its digit's last other place in a house (X)."""
        dynamic, y, stride, where, spread = self.dynamic, self.y, self.stride, self.where, \
            self.spread
        hcells = self.hcells
        cand = list(self.cand0) if dynamic else self.cand0
        pos = list(self.pos0) if dynamic else self.pos0
        parents: dict[int, tuple[int, ...]] = {start: ()}
        nested: dict[int, tuple[str, int]] = {}
        causes: dict[int, int] | None = {} if self.causes else None
        pend_on: deque[int] = deque()
        pend_off: deque[int] = deque()
        (pend_on if start & 1 else pend_off).append(start)
        while pend_on or pend_off or (self.rules and self._inside(cand, pos, parents, nested,
                                                                  pend_off)):
            if pend_on:
                p = pend_on.popleft()
                cell, d = p >> SHIFT, (p >> 1) & 31
                by = (p,)
                if y:
                    m = cand[cell] & ~(1 << (d - 1))
                    while m:
                        low = m & -m
                        m ^= low
                        q = cell << SHIFT | low.bit_length() << 1
                        if q | 1 in parents:
                            return Outcome(parents, (q, by, q | 1), nested, causes)
                        if q not in parents:
                            parents[q] = by
                            pend_off.append(q)
                base = d << 1
                for at, keep, cells in spread[cell]:
                    m = pos[at + d] & keep
                    while m:
                        low = m & -m
                        m ^= low
                        q = cells[low.bit_length() - 1] << SHIFT | base
                        if q | 1 in parents:
                            return Outcome(parents, (q, by, q | 1), nested, causes)
                        if q not in parents:
                            parents[q] = by
                            pend_off.append(q)
                continue
            p = pend_off.popleft()
            cell, d = p >> SHIFT, (p >> 1) & 31
            bit = 1 << (d - 1)
            made = []  # (the on, where from: -1 the cell, else the house)
            if y:
                m = cand[cell]
                if m.bit_count() == 2:
                    made.append((cell << SHIFT | (m & ~bit).bit_length() << 1 | 1, -1))
            for h, i in where[cell]:
                m = pos[h * stride + d] & ~(1 << i)
                if m and not m & (m - 1):
                    made.append((hcells[h][m.bit_length() - 1] << SHIFT | d << 1 | 1, h))
            if dynamic:
                cand[cell] &= ~bit
                for h, i in where[cell]:
                    pos[h * stride + d] &= ~(1 << i)
            for q, h in made:
                if q ^ 1 in parents or q not in parents:
                    qp = self._parents(cand, pos, p, h) if dynamic else (p,)
                    if causes is not None:
                        causes[q] = h
                    if q ^ 1 in parents:
                        return Outcome(parents, (q, qp, q ^ 1), nested, causes)
                    parents[q] = qp
                    pend_on.append(q)
        return Outcome(parents, None, nested, causes)

    def _inside(self, cand: list[int], pos: list[int], parents: dict[int, tuple[int, ...]],
                nested: dict[int, tuple[str, int]], pend_off: deque[int]) -> bool:
        """Apply the first of the rules that removes something on the board the offs so far
        leave (SE's "advanced" potentials): each removal is an off whose parents are the offs
        the step needs gone. Whether any was new.

        Chains inside are looked for only when the offs made a strong link (a cell or a
        digit's places in a house down to two): a chain of the board's own links would have
        been the ladder's step at the first chaining rung."""
        if self.deadline is not None:
            self.deadline.check()
        board = Board(self.geo, [g or m for g, m in zip(self.given, cand)], self.placed, pos)
        cand0 = self.cand0
        for rules in self.rules:
            if rules[0] is every_chain and not self._new_strong_link(cand, pos):
                continue
            found: list[tuple[int, tuple[int, ...], NamedStep, int]] = []
            for rule in rules:
                if found:
                    break
                for step, size in rule(board, self.deadline, cand0):
                    gone = tuple(_key(c, d, False) for cells, mask in step.absent for c in cells
                                 for d in bits(cand0[c] & ~cand[c] & mask))
                    if gone:
                        found += [(_key(c, d, False), gone, step, size) for c, d in step.removes]
            if found:
                break
        else:
            return False
        if not found:
            return False
        new = False
        for key, gone, step, size in found:
            if key not in parents:
                parents[key] = gone
                pend_off.append(key)
                new = True
                if size:
                    nested[key] = (f"{step.technique} {step.reason}", size)
        return new

    def _new_strong_link(self, cand: list[int], pos: list[int]) -> bool:
        cand0, pos0 = self.cand0, self.pos0
        return any(m.bit_count() == 2 and cand0[c].bit_count() > 2 for c, m in enumerate(cand)) \
            or any(m.bit_count() == 2 and pos0[k].bit_count() > 2 for k, m in enumerate(pos))

    def _parents(self, cand: list[int], pos: list[int], p: int, h: int) -> tuple[int, ...]:
        """In dynamic mode, an on's parents: the off ``p`` and the offs that took out the rest
        of its cell (``h`` -1) or of its digit's places in house ``h``."""
        cell, d = p >> SHIFT, (p >> 1) & 31
        if h < 0:
            return (p, *(cell << SHIFT | e << 1
                         for e in bits(self.cand0[cell] & ~cand[cell] & ~(1 << (d - 1)))))
        k = h * self.stride + d
        gone = self.pos0[k] & ~pos[k]
        out = [p]
        while gone:
            low = gone & -gone
            gone ^= low
            out.append(self.hcells[h][low.bit_length() - 1] << SHIFT | d << 1)
        return tuple(out)


class Hint(NamedTuple):
    """A deduction before it becomes a step: SE's sort key first."""

    rating: float
    complexity: int
    sort_key: int
    seq: int
    name: str
    reason: str
    target: int  # the potential it proves: on places the digit, off removes it


class Finder:
    """A chaining rung: which cells, which deductions, which name (see the module docstring)."""

    def __init__(self, base: float, y: bool, dynamic: bool, nishio: bool, level: int = 0,
                 rules: tuple = ()) -> None:
        self.base, self.y, self.dynamic, self.nishio = base, y, dynamic, nishio
        self.level = level  # SE's nesting level: 0, or what ``rules`` apply inside
        self.rules = rules

    def __call__(self, board: Board, deadline: Deadline | None = None) -> NamedStep | None:
        if board.geo.size > MAX_SIZE:
            return None
        search = self.search(board, deadline)
        if not search.hints:
            return None
        return search.step(min(search.hints))

    def every(self, board: Board, deadline: Deadline | None = None,
              since: list[int] | None = None):
        """Every deduction of this rung on ``board``, easiest first, as (step, complexity),
        each step with what it rests on (``NamedStep.absent``): the rung applied inside a
        dynamic chain (SE's levels 3 and 4, :mod:`satdoku.native.nesting`). ``since`` is not
        used: every start is searched."""
        search = self.search(board, deadline, absent=True)
        assert search.absent is not None
        for i in sorted(range(len(search.hints)), key=search.hints.__getitem__):
            hint = search.hints[i]
            step = search.step(hint)
            yield NamedStep(step.technique, step.rating, step.reason, step.removes, step.place,
                            search.absent[i]), hint.complexity

    def search(self, board: Board, deadline: Deadline | None, absent: bool = False
               ) -> "_Search":
        """The rung's deductions on ``board``, from every cell in turn (SE's order)."""
        search = _Search(self, board, deadline, absent)
        least = 2 if self.dynamic else 3
        for cell in range(board.geo.ncells):
            if search.chaining.cand0[cell].bit_count() >= least:
                if deadline is not None:
                    deadline.check()
                search.cell(cell)
        return search


class _Search:
    """One rung's deductions on one board, in SE's order; with ``absent`` (a static search
    applied inside a dynamic chain), what each rests on (:attr:`NamedStep.absent`) too."""

    def __init__(self, finder: Finder, board: Board, deadline: Deadline | None,
                 absent: bool = False) -> None:
        self.finder, self.board, self.geo = finder, board, board.geo
        self.chaining = Chaining(board, finder.y, finder.dynamic, finder.rules, deadline,
                                 causes=absent)
        self.hints: list[Hint] = []
        self.absent: list[tuple[tuple[tuple[int, ...], int], ...]] | None = \
            [] if absent else None

    def add(self, complexity: int, sort_key: int, kind: str, reason: str, target: int) -> None:
        f = self.finder
        rating = round(f.base + length_bonus(complexity), 1)
        prefix = "Nishio " if f.nishio else "Dynamic " if f.dynamic else ""
        name = f"{prefix}{'Forcing' if f.nishio else kind} Chains{NESTED[f.level]}"
        self.hints.append(Hint(rating, complexity, sort_key, len(self.hints), name, reason,
                               target))

    def cell(self, cell: int) -> None:
        """Every deduction from ``cell``'s candidates, in SE's order."""
        f, chaining = self.finder, self.chaining
        m = chaining.cand0[cell]
        outs = []
        for d in bits(m):
            on = chaining.outcome(_key(cell, d, True))
            outs.append(on)
            if f.dynamic:
                off = chaining.outcome(_key(cell, d, False))
                self.binary(cell, d, on, off, m.bit_count() >= 3 and not f.nishio)
            if not f.nishio:
                self.regions(cell, d, on)
        if not f.nishio:
            self.common(f"every digit of {self.geo.cell_name(cell)}", outs, CELL, "Cell",
                        ((cell,), -1))

    def binary(self, cell: int, d: int, on: Outcome, off: Outcome, double: bool) -> None:
        """Contradictions from ``d`` in ``cell`` on or off; with ``double``, what both imply."""
        name = self.geo.cell_name(cell)
        for out, start, said in ((on, _key(cell, d, True), f"{name}={d}"),
                                 (off, _key(cell, d, False), f"{name}<>{d}")):
            if out.absurd is not None:
                key, first, stored = out.absurd
                chains: list[tuple[Outcome, int, tuple[int, ...] | None]] = \
                    [(out, stored, None), (out, key, first)]
                size = complexity(chains)
                reason = f"({said} leads to {self.name(key)} and {self.name(stored)})"
                self.add(size, ABSURD, "Contradiction Forcing", reason, start ^ 1)
                if self.absent is not None:
                    self.absent.append(_rests_on(chains, None, self.geo.houses))
        if not double:
            return
        shared = on.parents.keys() & off.parents.keys()  # one C-level pass, then in order
        for want in (1, 0):
            for k in on.parents:
                if k & 1 == want and k in shared:
                    pair: list[tuple[Outcome, int, tuple[int, ...] | None]] = \
                        [(on, k, None), (off, k, None)]
                    size = complexity(pair)
                    reason = f"({name}={d} and {name}<>{d} both lead to {self.name(k)})"
                    self.add(size, DOUBLE, "Double Forcing", reason, k)
                    if self.absent is not None:
                        self.absent.append(_rests_on(pair, None, self.geo.houses))

    def regions(self, cell: int, d: int, on: Outcome) -> None:
        """Region forcing chains on ``d`` in the houses where ``cell`` is its first place."""
        bit = 1 << (d - 1)
        cand0, geo = self.chaining.cand0, self.geo
        row, col, box = geo.cell_houses[cell]
        for h in (box, row, col):
            places = [c for c in geo.houses[h] if cand0[c] & bit]
            if len(places) < 2 or places[0] != cell:
                continue
            outs = [on] + [self.chaining.outcome(_key(c, d, True)) for c in places[1:]]
            self.common(f"every place of {d} in {geo.house_name(h)}", outs, REGION, "Region",
                        (geo.houses[h], bit))

    def common(self, what: str, outs: list[Outcome], sort_key: int, kind: str,
               start: tuple[tuple[int, ...], int]) -> None:
        """Potentials every outcome of ``outs`` reaches (on ones first): each holds. ``start``:
        what the starts rest on, the cell's other digits gone (mask -1) or the digit's other
        places in the house."""
        shared = outs[0].parents.keys() & set.intersection(*(set(o.parents) for o in outs[1:]))
        if not shared:
            return
        for want in (1, 0):
            for k in outs[0].parents:
                if k & 1 == want and k in shared:
                    chains: list[tuple[Outcome, int, tuple[int, ...] | None]] = \
                        [(o, k, None) for o in outs]
                    size = complexity(chains)
                    self.add(size, sort_key, f"{kind} Forcing",
                             f"({what} leads to {self.name(k)})", k)
                    if self.absent is not None:
                        self.absent.append(_rests_on(chains, start, self.geo.houses))

    def name(self, key: int) -> str:
        return f"{self.geo.cell_name(_cell(key))}{'=' if key & 1 else '<>'}{_digit(key)}"

    def step(self, hint: Hint) -> NamedStep:
        cell, d = _cell(hint.target), _digit(hint.target)
        if hint.target & 1:
            others = tuple((cell, e) for e in bits(self.board.cand[cell]) if e != d)
            return NamedStep(hint.name, hint.rating, hint.reason, others, (cell, d))
        return NamedStep(hint.name, hint.rating, hint.reason, ((cell, d),))


def _rests_on(chains: list[tuple[Outcome, int, tuple[int, ...] | None]],
              start: tuple[tuple[int, ...], int] | None, houses: tuple[tuple[int, ...], ...]
              ) -> tuple[tuple[tuple[int, ...], int], ...]:
    """What a deduction's ``chains`` (as :func:`complexity` takes them) rest on, as SE's rule
    parents: the starts' ``start`` (a cell or region forcing chain's), and for each on of the
    chains, its cell's other digits gone (mask -1) or its digit's other places in the house it
    came from (``Outcome.causes``)."""
    out = set() if start is None else {start}
    for o, key, first in chains:
        causes = o.causes or {}
        for q in ancestors(o.parents, key, first):
            if q & 1 and q in causes:
                h = causes[q]
                out.add(((_cell(q),), -1) if h < 0 else (houses[h], 1 << (_digit(q) - 1)))
    return tuple(out)


#: SE's name for each nesting level.
NESTED = ("", " (+)", " (+ Forcing Chains)", " (+ Multiple Forcing Chains)",
          " (+ Dynamic Forcing Chains)")

#: The rungs without techniques inside, in SE's order (see the module docstring); the nested
#: ones are in :mod:`satdoku.native.nesting`.
nishio_forcing_chain = Finder(7.5, y=False, dynamic=True, nishio=True)
multiple_forcing_chain = Finder(8.0, y=True, dynamic=False, nishio=False)
dynamic_forcing_chain = Finder(8.5, y=True, dynamic=True, nishio=False)
