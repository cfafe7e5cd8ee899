"""Solving as a person would: the easiest technique that makes progress, step by step.

The native solver (:mod:`satdoku.native.search`) mixes its techniques for speed. This module applies
them one at a time, easiest first, to say what a puzzle takes:

1. naked single: a cell with one candidate left gets it;
2. hidden single: a digit with one place left in a house goes there (tried only when no naked
   single is left);
3. locked candidates: a digit confined to one segment (the cells a line shares with a box) of
   a box leaves the rest of the line (pointing), or confined to one segment of a line leaves
   the rest of the box (claiming); one elimination step at a time, tried only when no single
   is left.

When none of them makes progress the puzzle *stalls*: the rest takes guessing. One engine
serves both answers: the board and its finders (:mod:`satdoku.native.board`), run by two
drivers that differ only in order and grain.

:func:`solve_by_techniques` counts: every naked single on the board at once, then one hidden
single (houses rows first, the first cell that is a digit's only place), then one
locked-candidates step (every digit of the first segment that has some). The counts are of
placements (singles) and of steps (locked candidates); the givens are not counted. Any box
shape works. This is a grader, not a fast solver: a 9x9 puzzle takes a few milliseconds.

:func:`solving_steps` gives the path a person could follow instead: one :class:`SolvingStep`
per placement or elimination, each with the reason that makes it true at that moment (naked
singles one at a time, hidden singles boxes first and lowest digit first, locked candidates one
digit at a time). Where the techniques stall it tries digits in the open cells, fewest
candidates first: a digit that leads by the techniques to a contradiction is eliminated (a
*trial*, and the techniques resume). When no trial finds one, it *guesses* a digit of the cell
with fewest candidates and follows it (records one level deeper), backing out with a *wrong
guess* record if it fails. Guesses nest at most ``max_depth`` deep; past that the path ends
with a ``search`` record. Trials are screened with search's passes (:meth:`Board.after`: the
same techniques reach the same fixed point) and only the successful one is replayed step by
step for its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.alphabet import Alphabet, alphabet_for
from ..model.digits import bit, bits as _digits
from ..model.geometry import Geometry
from ..model.grid import Grid
from .board import BOXES_FIRST, ROWS_FIRST, Board, Contradiction

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


def _count(board: Board, steps: Steps) -> None:
    """Apply the techniques to ``board`` until it is full or they stall, counting in ``steps``;
    raises :class:`Contradiction`."""
    cand = board.cand
    while not board.solved():
        naked = board.naked_singles()
        if naked:
            if not all(cand[c] for c in naked):
                raise Contradiction
            for c in naked:
                if not board.place(c, cand[c]):
                    raise Contradiction
            steps.naked += len(naked)
            continue
        hidden = board.hidden_single(ROWS_FIRST, by_digit=False)
        if hidden is not None:
            _, cell, digit = hidden
            if not board.place(cell, digit):
                raise Contradiction
            steps.hidden += 1
            continue
        locked = board.locked_candidates()
        if locked is not None:
            _, _, digits, losers = locked
            if not board.strike(losers, digits):
                raise Contradiction
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
    board, ok = Board.from_grid(grid)
    try:
        if not ok:
            raise Contradiction
        _count(board, steps)
    except Contradiction:
        steps.contradiction = True
        return steps
    steps.open_cells = board.open_cells()
    if not steps.open_cells:
        steps.solution = Grid(grid.geometry, tuple(m.bit_length() for m in board.cand))
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
        geo = self.geometry
        assert geo is not None and self.alphabet is not None  # solving_steps gives both
        name, symbol = geo.cell_name, self.alphabet.symbol
        return {"step": self.step, "technique": self.technique,
                "cells": [name(c) for c in self.cells],
                "digits": [symbol(d) for d in self.digits],
                "placed": {name(c): symbol(d) for c, d in self.placed},
                "eliminated": {name(c): [symbol(d) for d in ds] for c, ds in self.eliminated},
                "houses": [geo.house_name(h) for h in self.houses],
                "depth": self.depth, "reason": self.reason}


def _next_step(board: Board) -> tuple[str, dict] | None:
    """The next step of the solving path as (technique, fields of :class:`SolvingStep`), or
    None when the techniques stall; ``reason`` is filled in by the caller, which knows the
    alphabet."""
    cand = board.cand
    naked = board.naked_singles()
    if naked:
        cell = naked[0]
        d = cand[cell].bit_length()
        return "naked single", dict(cells=(cell,), digits=(d,), placed=((cell, d),))
    hidden = board.hidden_single(BOXES_FIRST, by_digit=True)
    if hidden is not None:
        h, cell, digit = hidden
        d = digit.bit_length()
        return "hidden single", dict(cells=(cell,), digits=(d,), placed=((cell, d),),
                                     houses=(h,))
    locked = board.locked_candidates()
    if locked is None:
        return None
    kind, seg, digits, losers = locked
    low = digits & -digits
    d = low.bit_length()
    where, rest = (seg.box, seg.line) if kind == "pointing" else (seg.line, seg.box)
    return kind, dict(cells=tuple(x for x in seg.cells if cand[x] & low), digits=(d,),
                      eliminated=tuple((x, (d,)) for x in losers if cand[x] & low),
                      houses=(where, rest))


def _apply(board: Board, fields: dict) -> None:
    """Make the placements and eliminations of a step on ``board``."""
    for cell, d in fields.get("placed", ()):
        board.place(cell, bit(d))
    for cell, ds in fields.get("eliminated", ()):
        for d in ds:
            board.cand[cell] &= ~bit(d)


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

    def techniques(self, board: Board, depth: int | None) -> tuple[str | None, int]:
        """Apply the techniques until they stall; record each step unless ``depth`` is None
        (a trial). Returns (why the board has no solution or None, how many steps)."""
        count = 0
        while True:
            why = board.contradiction(self.sym)
            if why or board.solved():
                return why, count
            found = _next_step(board)
            if found is None:
                return None, count
            technique, fields = found
            _apply(board, fields)
            count += 1
            if depth is not None:
                self.emit(technique, self.reason(technique, fields), depth, **fields)

    def trial(self, board: Board, depth: int) -> bool:
        """Try the digits of the open cells, fewest candidates first (at most
        :data:`TRIAL_CELLS` * N cells), until one leads by the techniques to a contradiction;
        eliminate it and say so. False when none does."""
        geo, sym, cand = self.geo, self.sym, board.cand
        order = sorted((c for c in range(geo.ncells) if not board.placed[c]),
                       key=lambda c: cand[c].bit_count())
        for cell in order[:TRIAL_CELLS * geo.size]:
            name = geo.cell_name(cell)
            for d in _digits(cand[cell]):
                if not board.leads_to_contradiction(cell, d):
                    continue
                trial = board.copy()
                trial.place(cell, bit(d))
                why, count = self.techniques(trial, None)
                if why:  # always, as the closure is the same; the slow run says why
                    after = "at once" if not count else f"after {count} step" + "s" * (count > 1)
                    self.emit("trial", f"{name} = {sym(d)} leads {after} to a contradiction "
                              f"({why}), so {name} != {sym(d)}", depth, cells=(cell,),
                              digits=(d,), eliminated=((cell, (d,)),))
                    cand[cell] &= ~bit(d)
                    return True
        return False

    def follow(self, board: Board, depth: int) -> tuple[str, str | None]:
        """Solve ``board`` as a person would; ("solved" | "contradiction" | "search", why)."""
        geo, sym = self.geo, self.sym
        stalled = False
        while True:
            why, count = self.techniques(board, depth)
            if why:
                return "contradiction", why
            if board.solved():
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
            d = next((d for d in digits if board.finishes(cell, d)), digits[0])
            listed = ", ".join(map(sym, digits))
            self.emit("guess", f"no digit of {name} ({listed}) leads to a contradiction by the "
                      f"techniques, so guess {name} = {sym(d)}", depth,
                      cells=(cell,), digits=(d,), placed=((cell, d),))
            branch = board.copy()
            branch.place(cell, bit(d))
            outcome, why = self.follow(branch, depth + 1)
            if outcome != "contradiction":
                return outcome, why
            self.emit("wrong guess", f"the guess {name} = {sym(d)} leads to a contradiction "
                      f"({why}), so {name} != {sym(d)}", depth, cells=(cell,), digits=(d,),
                      eliminated=((cell, (d,)),))
            board.cand[cell] &= ~bit(d)


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
    outcome, why = path.follow(Board.from_grid(grid)[0], 0)
    if outcome == "contradiction":
        path.emit("contradiction", f"{why}, so the puzzle has no solution", 0)
    return path.steps
