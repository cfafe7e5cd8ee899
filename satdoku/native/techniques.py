"""Solving as a person would: the easiest technique that makes progress, counted step by step.

The native solver (:mod:`satdoku.native.search`) mixes its techniques for speed. This module applies
them one at a time, easiest first, to say what a puzzle takes:

1. naked single: a cell with one candidate left gets it;
2. hidden single: a digit with one place left in a house goes there (tried only when no naked
   single is left);
3. locked candidates: a digit confined to one segment (the cells a line shares with a box) of
   a box leaves the rest of the line (pointing), or confined to one segment of a line leaves
   the rest of the box (claiming); one elimination step at a time, tried only when no single
   is left.

When none of them makes progress the puzzle *stalls*: the rest takes guessing. The counts are
of placements (singles) and of steps (locked candidates); the givens are not counted. The same
geometry tables serve as in every other module, so any box shape works. This is a grader, not a
fast solver: a 9x9 puzzle takes a few milliseconds.

:func:`solving_steps` gives the path a person could follow instead of counts: one
:class:`SolvingStep` per placement or elimination, each with the reason that makes it true at
that moment (naked singles one at a time, hidden singles boxes first, locked candidates one
digit at a time). Where the techniques stall it tries digits in the open cells, fewest
candidates first: a digit that leads by the techniques to a contradiction is eliminated (a
*trial*, and the techniques resume). When no trial finds one, it *guesses* a digit of the cell
with fewest candidates and follows it (records one level deeper), backing out with a *wrong
guess* record if it fails. Guesses nest at most ``max_depth`` deep; past that the path ends
with a ``search`` record. Trials are screened with the batched grader above (the same
techniques reach the same verdict) and only the successful one is replayed step by step for
its reason.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from ..model.alphabet import Alphabet, alphabet_for
from ..model.geometry import Geometry, Segment
from ..model.grid import Grid
from ..model.digits import bits as _digits

__all__ = ["TECHNIQUES", "STEP_KINDS", "Steps", "SolvingStep", "solve_by_techniques",
           "solving_steps"]

#: Technique names, easiest first; ``guessing`` is what a stalled puzzle needs.
TECHNIQUES = ("naked singles", "hidden singles", "locked candidates", "guessing")


@dataclass
class Steps:
    """What solving ``grid`` with :data:`TECHNIQUES` took.

    ``naked`` and ``hidden`` count placements, ``locked`` elimination steps. ``open_cells`` is
    how many cells were still empty when the techniques stalled (0 when they solved it);
    ``contradiction`` is True when they ran into one (the givens allow no solution).
    """

    naked: int = 0
    hidden: int = 0
    locked: int = 0
    open_cells: int = 0
    contradiction: bool = False
    solution: Grid | None = None  # the grid when the techniques completed it

    @property
    def hardest(self) -> str:
        """The hardest technique needed: one of :data:`TECHNIQUES`."""
        if self.open_cells or self.contradiction:
            return "guessing"
        if self.locked:
            return "locked candidates"
        if self.hidden:
            return "hidden singles"
        return "naked singles"

    @property
    def level(self) -> int:
        """0 naked singles only, 1 hidden singles, 2 locked candidates, 3 guessing."""
        return TECHNIQUES.index(self.hardest)

    def as_dict(self) -> dict:
        return {"hardest": self.hardest, "naked_singles": self.naked,
                "hidden_singles": self.hidden, "locked_candidates": self.locked,
                "open_cells": self.open_cells, "contradiction": self.contradiction}


@functools.lru_cache(maxsize=16)
def _segment_rests(geo: Geometry) -> tuple[tuple[Segment, tuple[int, ...], tuple[int, ...]], ...]:
    """(segment, rest of its line, rest of its box) for each segment of ``geo`` whose
    line is not its box (boxes of one row or column), in :attr:`Geometry.segments` order."""
    out = []
    for seg in geo.segments:
        inside = set(seg.cells)
        line_rest = tuple(x for x in geo.houses[seg.line] if x not in inside)
        box_rest = tuple(x for x in geo.houses[seg.box] if x not in inside)
        if line_rest and box_rest:
            out.append((seg, line_rest, box_rest))
    return tuple(out)


class _Contradiction(Exception):
    pass


class _State:
    """Candidates (bitmask per cell) and which cells are placed."""

    def __init__(self, grid: Grid) -> None:
        geo = grid.geometry
        self.geo = geo
        self.full = (1 << geo.size) - 1
        self.cand = [self.full] * geo.ncells
        self.placed = [False] * geo.ncells
        for cell, d in grid.givens():
            self.place(cell, 1 << (d - 1))

    def place(self, cell: int, bit: int) -> None:
        if not self.cand[cell] & bit:
            raise _Contradiction
        self.cand[cell] = bit
        self.placed[cell] = True
        for p in self.geo.peers[cell]:
            m = self.cand[p]
            if m & bit:
                if self.placed[p] or m == bit:
                    raise _Contradiction
                self.cand[p] = m ^ bit

    @classmethod
    def of(cls, geo, cand: list[int], placed: list[bool]) -> "_State":
        """A state over given candidates (which it changes) and placements."""
        state = cls.__new__(cls)
        state.geo, state.full, state.cand, state.placed = geo, (1 << geo.size) - 1, cand, placed
        return state

    def naked_singles(self) -> int:
        """Place every cell down to one candidate; how many there were."""
        cand, placed = self.cand, self.placed
        found = [c for c, m in enumerate(cand) if not placed[c] and not m & (m - 1)]
        for c in found:
            if not cand[c]:
                raise _Contradiction
        for c in found:
            self.place(c, cand[c])
        return len(found)

    def hidden_single(self) -> bool:
        """Place the first hidden single found (house order, then cell); True when there was one."""
        cand, placed = self.cand, self.placed
        for house in self.geo.houses:
            once = twice = 0
            for c in house:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != self.full:
                raise _Contradiction  # a digit has no place left in this house
            single = once & ~twice
            for c in house:
                s = cand[c] & single
                if s and not placed[c]:
                    self.place(c, s & -s)
                    return True
        return False

    def locked_candidates(self) -> bool:
        """One pointing or claiming elimination; True when there was one."""
        cand = self.cand
        for seg, line_rest, box_rest in _segment_rests(self.geo):  # rows, then columns
            segment = seg.cells
            seg_digits = line_other = box_other = 0
            for cell in segment:
                seg_digits |= cand[cell]
            for x in line_rest:
                line_other |= cand[x]
            for x in box_rest:
                box_other |= cand[x]
            # pointing: in the box only here, so not elsewhere in the line
            # claiming: in the line only here, so not elsewhere in the box
            for digits, targets in ((seg_digits & ~box_other & line_other, line_rest),
                                    (seg_digits & ~line_other & box_other, box_rest)):
                if digits:
                    for x in targets:
                        if cand[x] & digits:
                            cand[x] &= ~digits
                            if not cand[x]:
                                raise _Contradiction
                    return True
        return False


def _run(state: _State, steps: Steps) -> None:
    """Apply the techniques to ``state`` until it is full or they stall, counting in ``steps``;
    raises :class:`_Contradiction`."""
    while not all(state.placed):
        placed = state.naked_singles()
        if placed:
            steps.naked += placed
            continue
        if state.hidden_single():
            steps.hidden += 1
            continue
        if state.locked_candidates():
            steps.locked += 1
            continue
        break


def solve_by_techniques(grid: Grid) -> Steps:
    """Apply the easiest technique that makes progress until the grid is full or nothing helps.

    >>> from satdoku.model.geometry import geometry
    >>> steps = solve_by_techniques(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12))
    >>> steps.hardest, steps.naked, steps.open_cells
    ('guessing', 1, 12)
    """
    steps = Steps()
    try:
        state = _State(grid)
        _run(state, steps)
    except _Contradiction:
        steps.contradiction = True
        return steps
    steps.open_cells = state.placed.count(False)
    if not steps.open_cells:
        steps.solution = Grid(grid.geometry, tuple(m.bit_length() for m in state.cand))
    return steps


#: What a :class:`SolvingStep` can be: the four techniques, then what happens when they stall.
STEP_KINDS = ("naked single", "hidden single", "pointing", "claiming", "stall", "trial", "guess",
              "wrong guess", "contradiction", "search")

#: How many guesses may nest before the path gives up with a ``search`` record.
DEFAULT_MAX_DEPTH = 2
#: At a stall, trials go through the TRIAL_CELLS * N open cells with fewest candidates (all of
#: them: 16x16 paths took up to 15 s; N cells: 40 of 100 top1465 puzzles ended in search; see
#: docs/pictures.md).
TRIAL_CELLS = 3


@dataclass(frozen=True)
class SolvingStep:
    """One step of a solving path (:func:`solving_steps`).

    - ``technique``: one of :data:`STEP_KINDS`.
    - ``cells``: the cells the step is about (the placed cell; for pointing and claiming the
      cells of the box or line that hold the digit; the cell tried or guessed).
    - ``digits``: the digits it is about.
    - ``placed``: (cell, digit) placed by this step; ``eliminated``: (cell, digits) removed.
    - ``houses``: the houses the reason names (house numbers of :mod:`satdoku.model.geometry`).
    - ``depth``: how many guesses deep the step is (0: certain).
    - ``reason``: why, in words, e.g. ``r3c7 = 5, the only place for 5 in box 3``.
    """

    step: int
    technique: str
    reason: str
    cells: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    placed: tuple[tuple[int, int], ...] = ()
    eliminated: tuple[tuple[int, tuple[int, ...]], ...] = ()
    houses: tuple[int, ...] = ()
    depth: int = 0
    geometry: Geometry | None = field(default=None, repr=False, compare=False)
    alphabet: Alphabet | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """``'hidden single: r3c7 = 5, the only place for 5 in box 3'``."""
        return f"{self.technique}: {self.reason}"

    def as_dict(self) -> dict:
        """A JSON-ready dict: cells by name (``r3c7``), digits as symbols."""
        name, symbol = self.geometry.cell_name, self.alphabet.symbol
        return {"step": self.step, "technique": self.technique,
                "cells": [name(c) for c in self.cells],
                "digits": [symbol(d) for d in self.digits],
                "placed": {name(c): symbol(d) for c, d in self.placed},
                "eliminated": {name(c): [symbol(d) for d in ds] for c, ds in self.eliminated},
                "houses": [self.geometry.house_name(h) for h in self.houses],
                "depth": self.depth, "reason": self.reason}


class _Board:
    """Candidates and placements along a solving path; every change is a person's step."""

    def __init__(self, geo: Geometry, cand: list[int], placed: list[bool]) -> None:
        self.geo = geo
        self.full = (1 << geo.size) - 1
        self.cand = cand
        self.placed = placed

    @classmethod
    def from_grid(cls, grid: Grid) -> "_Board":
        geo = grid.geometry
        full = (1 << geo.size) - 1
        board = cls(geo, [full] * geo.ncells, [False] * geo.ncells)
        for cell, d in grid.givens():
            board.cand[cell] = 1 << (d - 1)
            board.placed[cell] = True
        for cell, d in grid.givens():
            board.place(cell, d)
        return board

    def copy(self) -> "_Board":
        return _Board(self.geo, list(self.cand), list(self.placed))

    def place(self, cell: int, d: int) -> None:
        bit = 1 << (d - 1)
        self.cand[cell] = bit
        self.placed[cell] = True
        cand, placed = self.cand, self.placed
        for p in self.geo.peers[cell]:
            if not placed[p]:
                cand[p] &= ~bit

    def open_cells(self) -> int:
        return self.placed.count(False)

    def contradiction(self, name) -> str | None:
        """Why the board has no solution, if it visibly has none: a cell without candidates,
        two placed cells with one digit in a house, or a digit without a place in a house."""
        cand, placed, geo = self.cand, self.placed, self.geo
        for cell, m in enumerate(cand):
            if not m:
                return f"{geo.cell_name(cell)} has no digit left"
        for h, house in enumerate(geo.houses):
            seen = 0
            anywhere = 0
            for c in house:
                m = cand[c]
                if placed[c]:
                    if seen & m:
                        return f"{name(m.bit_length())} is twice in {geo.house_name(h)}"
                    seen |= m
                anywhere |= m
            if anywhere != self.full:
                missing = (self.full & ~anywhere).bit_length()
                return f"{name(missing)} has no place left in {geo.house_name(h)}"
        return None

    # Each finder returns the next step of its kind as (technique, fields) or None. Fields are
    # those of SolvingStep; ``reason`` is filled in by the caller, which knows the alphabet.

    def naked_single(self):
        cand, placed = self.cand, self.placed
        for cell, m in enumerate(cand):
            if not placed[cell] and m and not m & (m - 1):
                return "naked single", dict(cells=(cell,), digits=(m.bit_length(),),
                                            placed=((cell, m.bit_length()),))
        return None

    def _house_order(self):
        n = self.geo.size
        return list(range(2 * n, 3 * n)) + list(range(2 * n))  # boxes, then rows, columns

    def hidden_single(self):
        cand, placed, houses = self.cand, self.placed, self.geo.houses
        for h in self._house_order():
            once = twice = done = 0
            for c in houses[h]:
                m = cand[c]
                if placed[c]:
                    done |= m
                else:
                    twice |= once & m
                    once |= m
            single = once & ~twice & ~done
            if single:
                bit = single & -single
                cell = next(c for c in houses[h] if not placed[c] and cand[c] & bit)
                d = bit.bit_length()
                return "hidden single", dict(cells=(cell,), digits=(d,), placed=((cell, d),),
                                             houses=(h,))
        return None

    def locked_candidates(self):
        cand = self.cand
        for seg, line_rest, box_rest in _segment_rests(self.geo):
            seg_digits = line_other = box_other = 0
            for x in seg.cells:
                seg_digits |= cand[x]
            for x in line_rest:
                line_other |= cand[x]
            for x in box_rest:
                box_other |= cand[x]
            for kind, digits, targets, where, rest in (
                    ("pointing", seg_digits & ~box_other & line_other, line_rest, seg.box,
                     seg.line),
                    ("claiming", seg_digits & ~line_other & box_other, box_rest, seg.line,
                     seg.box)):
                if digits:
                    bit = digits & -digits
                    d = bit.bit_length()
                    holders = tuple(x for x in seg.cells if cand[x] & bit)
                    losers = tuple(x for x in targets if cand[x] & bit)
                    return kind, dict(cells=holders, digits=(d,),
                                      eliminated=tuple((x, (d,)) for x in losers),
                                      houses=(where, rest))
        return None

    def apply(self, fields: dict) -> None:
        for cell, d in fields.get("placed", ()):
            self.place(cell, d)
        for cell, ds in fields.get("eliminated", ()):
            for d in ds:
                self.cand[cell] &= ~(1 << (d - 1))

    def fewest_candidates(self) -> int:
        """The open cell with fewest candidates (the first such in cell order)."""
        cand, placed = self.cand, self.placed
        return min((c for c in range(self.geo.ncells) if not placed[c]),
                   key=lambda c: bin(cand[c]).count("1"))


def _after(board: _Board, cell: int, d: int) -> "_State | None":
    """What the techniques make of ``board`` with ``d`` placed in ``cell`` (the batched grader:
    the same techniques, so the same verdict), or None when that leads to a contradiction."""
    state = _State.of(board.geo, list(board.cand), list(board.placed))
    try:
        state.place(cell, 1 << (d - 1))
        _run(state, Steps())
    except _Contradiction:
        return None
    return state


def _leads_to_contradiction(board: _Board, cell: int, d: int) -> bool:
    """Whether placing ``d`` in ``cell`` leads by the techniques to a contradiction."""
    return _after(board, cell, d) is None


def _finishes(board: _Board, cell: int, d: int) -> bool:
    """Whether placing ``d`` in ``cell`` lets the techniques fill the grid without a
    contradiction."""
    state = _after(board, cell, d)
    return state is not None and all(state.placed)


class _Path:
    """Builds the records of :func:`solving_steps`."""

    def __init__(self, geo: Geometry, alphabet: Alphabet, max_depth: int) -> None:
        self.geo = geo
        self.alphabet = alphabet
        self.max_depth = max_depth
        self.steps: list[SolvingStep] = []

    def sym(self, d: int) -> str:
        return self.alphabet.symbol(d)

    def names(self, cells) -> str:
        return ", ".join(self.geo.cell_name(c) for c in cells)

    def reason(self, technique: str, f: dict) -> str:
        geo, sym = self.geo, self.sym
        d = f["digits"][0]
        if technique == "naked single":
            cell = f["cells"][0]
            return f"{geo.cell_name(cell)} = {sym(d)}, the only digit left in {geo.cell_name(cell)}"
        if technique == "hidden single":
            return (f"{geo.cell_name(f['cells'][0])} = {sym(d)}, the only place for {sym(d)} "
                    f"in {geo.house_name(f['houses'][0])}")
        where, rest = f["houses"]
        losers = self.names(c for c, _ in f["eliminated"])
        return (f"{sym(d)} in {geo.house_name(where)} lies only in {geo.house_name(rest)}, "
                f"so {losers} {'lose' if len(f['eliminated']) > 1 else 'loses'} {sym(d)}")

    def emit(self, technique: str, reason: str, depth: int, **fields) -> None:
        self.steps.append(SolvingStep(len(self.steps) + 1, technique, reason, depth=depth,
                                      geometry=self.geo, alphabet=self.alphabet, **fields))

    def techniques(self, board: _Board, depth: int | None) -> tuple[str | None, int]:
        """Apply the techniques until they stall; record each step unless ``depth`` is None
        (a trial). Returns (why the board has no solution or None, how many steps)."""
        count = 0
        while True:
            why = board.contradiction(self.sym)
            if why or all(board.placed):
                return why, count
            found = board.naked_single() or board.hidden_single() or board.locked_candidates()
            if found is None:
                return None, count
            technique, fields = found
            board.apply(fields)
            count += 1
            if depth is not None:
                self.emit(technique, self.reason(technique, fields), depth, **fields)

    def trial(self, board: _Board, depth: int) -> bool:
        """Try the digits of the open cells, fewest candidates first (at most
        :data:`TRIAL_CELLS` * N cells), until one leads by the techniques to a contradiction;
        eliminate it and say so. False when none does."""
        geo, sym, cand = self.geo, self.sym, board.cand
        order = sorted((c for c in range(geo.ncells) if not board.placed[c]),
                       key=lambda c: bin(cand[c]).count("1"))
        for cell in order[:TRIAL_CELLS * geo.size]:
            name = geo.cell_name(cell)
            for d in _digits(cand[cell]):
                if not _leads_to_contradiction(board, cell, d):
                    continue
                trial = board.copy()
                trial.place(cell, d)
                why, count = self.techniques(trial, None)
                if why:  # always, as the closure is the same; the slow run says why
                    after = "at once" if not count else f"after {count} step" + "s" * (count > 1)
                    self.emit("trial", f"{name} = {sym(d)} leads {after} to a contradiction "
                              f"({why}), so {name} != {sym(d)}", depth, cells=(cell,),
                              digits=(d,), eliminated=((cell, (d,)),))
                    cand[cell] &= ~(1 << (d - 1))
                    return True
        return False

    def follow(self, board: _Board, depth: int) -> tuple[str, str | None]:
        """Solve ``board`` as a person would; ("solved" | "contradiction" | "search", why)."""
        geo, sym = self.geo, self.sym
        stalled = False
        while True:
            why, count = self.techniques(board, depth)
            if why:
                return "contradiction", why
            if all(board.placed):
                return "solved", None
            open_cells = board.open_cells()
            cells = f"{open_cells} cell" + "s" * (open_cells > 1)
            if count or not stalled:  # not again after a trial that changed nothing else
                self.emit("stall", f"the techniques stall with {cells} open", depth)
            stalled = True
            if depth >= self.max_depth:
                self.emit("search", f"guesses nest {depth} deep here; the rest takes search "
                          f"({cells} open)", depth)
                return "search", None
            if self.trial(board, depth):
                continue
            cell = board.fewest_candidates()
            name = geo.cell_name(cell)
            digits = _digits(board.cand[cell])
            # a digit from which the techniques finish the grid, if the trials saw one
            d = next((d for d in digits if _finishes(board, cell, d)), digits[0])
            listed = ", ".join(map(sym, digits))
            self.emit("guess", f"no digit of {name} ({listed}) leads to a contradiction by the "
                      f"techniques, so guess {name} = {sym(d)}", depth,
                      cells=(cell,), digits=(d,), placed=((cell, d),))
            branch = board.copy()
            branch.place(cell, d)
            outcome, why = self.follow(branch, depth + 1)
            if outcome != "contradiction":
                return outcome, why
            self.emit("wrong guess", f"the guess {name} = {sym(d)} leads to a contradiction "
                      f"({why}), so {name} != {sym(d)}", depth, cells=(cell,), digits=(d,),
                      eliminated=((cell, (d,)),))
            board.cand[cell] &= ~(1 << (d - 1))


def solving_steps(grid: Grid, *, alphabet: Alphabet | None = None,
                  max_depth: int = DEFAULT_MAX_DEPTH) -> list[SolvingStep]:
    """The steps a person could follow to solve ``grid``, one record per step.

    Args:
        grid: the puzzle.
        alphabet: how digits are written in the reasons (default
            :func:`satdoku.model.alphabet.alphabet_for`).
        max_depth: how many guesses may nest before the path ends with a ``search`` record.

    The path ends when the grid is full, with a ``contradiction`` record (the givens have no
    solution), or with a ``search`` record.

    >>> from satdoku.model.geometry import geometry
    >>> steps = solving_steps(Grid(geometry(2, 2), (1, 2, 3, 0) + (0,) * 12))
    >>> steps[0].text
    'naked single: r1c4 = 4, the only digit left in r1c4'
    >>> steps[0].as_dict()["placed"]
    {'r1c4': '4'}
    """
    alphabet = alphabet or alphabet_for(grid.size)
    path = _Path(grid.geometry, alphabet, max_depth)
    outcome, why = path.follow(_Board.from_grid(grid), 0)
    if outcome == "contradiction":
        path.emit("contradiction", f"{why}, so the puzzle has no solution", 0)
    return path.steps
