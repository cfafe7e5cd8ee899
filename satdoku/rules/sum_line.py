"""``sum-line``: the line divides into consecutive segments that each sum to ``total`` (as
sigh's Interactive Sudoku Solver reads it: SumLine in js/solver/handlers.js of
sigh/Interactive-Sudoku-Solver). A line whose last cell is its first is a loop: its cells
are read round, so a segment may run over the place where it was drawn closed.

Glossary: a *boundary* is the place before each cell of the line (and after the last); its
*state* is the sum of the segment begun so far, 0..total-1.

Encoding: one state variable per boundary and value, exactly one true at each boundary; the
state before the line is 0 (a loop: the state after the last cell is the state before the
first); a cell of digit d moves state t to t + d, or to 0 when that makes the total, and
forbids t + d > total. Pruning runs the states forward and back over the candidates (exact
on a line of distinct cells, a sound relaxation elsewhere); a loop runs them once for each
state it may start in.
"""

from __future__ import annotations

from ..model.geometry import Geometry
from ..records import record
from .base import (Clause, Constraint, at_most_one, bit, cell_span, digits_of, line_ends,
                   restrict)
from .fields import Cells, Int

__all__ = ["SumLine"]


@record(frozen=True)
class SumLine(Constraint):
    """``sum-line``: the line divides into consecutive segments each summing to ``total``; a
    line drawn back to its first cell is a loop.

    >>> SumLine((0, 1, 2, 3), 5).holds((2, 3, 4, 1)), SumLine((0, 1, 2, 0), 5).holds((3, 5, 2, 3))
    (True, True)
    """

    type = "sum-line"
    line: tuple[int, ...]
    total: int
    fields = (Cells("cells", "line", repeats=True, connected=True,
                    doc="the line's cells in order; back to the first cell: a loop"),
              Int("sum", "total", low=1, doc="each segment's sum"))

    @property
    def loop(self) -> bool:
        return len(self.line) > 1 and self.line[0] == self.line[-1]

    @property
    def path(self) -> tuple[int, ...]:
        """The cells read in order (a loop without its closing repeat)."""
        return self.line[:-1] if self.loop else self.line

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def describe(self, geometry: Geometry) -> str:
        where = (f"sum loop {cell_span(geometry, self.line[:-1])}" if self.loop  # no ends
                 else f"sum line {line_ends(geometry, self.line)}")
        return f"{where} (segments of {self.total})"

    def draw(self, canvas) -> None:
        """A dashed green line, the segment sum in a small disc on its first step."""
        canvas.line(self.line, "sum_line", dash=(0.25, 0.12))
        canvas.badge(self.line[0], self.line[min(1, len(self.line) - 1)], self.total,
                     "sum_line")

    def _step(self, t: int, d: int) -> int | None:
        s = t + d
        return None if s > self.total else s % self.total

    def encode(self, ctx) -> list[Clause]:
        path, total = self.path, self.total
        k = len(path)
        states = [[ctx.fresh() for _ in range(total)] for _ in range(k + (not self.loop))]
        if self.loop:
            states.append(states[0])
        clauses: list[Clause] = []
        for layer in states[:k + (not self.loop)]:
            clauses.append(list(layer))
            clauses += at_most_one(layer)
        if not self.loop:
            clauses += [[states[0][0]], [states[k][0]]]
        for i, cell in enumerate(path):
            for t in range(total):
                for d in range(1, ctx.size + 1):
                    nxt = self._step(t, d)
                    head = [-states[i][t], -ctx.var(cell, d)]
                    clauses.append(head if nxt is None else head + [states[i + 1][nxt]])
        return clauses

    def holds(self, digits: tuple[int, ...]) -> bool:
        value = dict(zip(self.line, digits))
        run = [value[c] for c in self.path]
        starts = range(len(run)) if self.loop else (0,)
        return any(self._divides(run[s:] + run[:s]) for s in starts)

    def _divides(self, run: list[int]) -> bool:
        t = 0
        for d in run:
            nxt = self._step(t, d)
            if nxt is None:
                return False
            t = nxt
        return t == 0

    def prune(self, cand: list[int]) -> list[int] | None:
        path = self.path
        starts = [1 << t for t in range(self.total)] if self.loop else [1]
        keep = [0] * len(path)
        for start in starts:  # a loop: each state it may start (and so end) in, in turn
            found = self._chain(cand, start)
            if found is not None:
                keep = [k | f for k, f in zip(keep, found)]
        if not any(keep):
            return None
        changed: set[int] = set()
        for cell, mask in zip(path, keep):
            if not restrict(cand, cell, mask, changed):
                return None
        return sorted(changed)

    def _chain(self, cand: list[int], start: int) -> list[int] | None:
        """The digits each place of the path may hold going from state ``start`` back to
        it (a line: from 0 to 0), or None when none get there."""
        path = self.path
        forward = [start]
        for cell in path:
            forward.append(self._advance(forward[-1], cand[cell]))
        after = forward[-1] & start
        if not after:
            return None
        keep = [0] * len(path)
        for i in range(len(path) - 1, -1, -1):
            before = 0
            for t in _members(forward[i]):
                for d in digits_of(cand[path[i]]):
                    nxt = self._step(t, d)
                    if nxt is not None and after >> nxt & 1:
                        before |= 1 << t
                        keep[i] |= bit(d)
            after = before
        return keep

    def _advance(self, states: int, mask: int) -> int:
        out = 0
        for t in _members(states):
            for d in digits_of(mask):
                nxt = self._step(t, d)
                if nxt is not None:
                    out |= 1 << nxt
        return out


def _members(states: int) -> list[int]:
    return [t for t in range(states.bit_length()) if states >> t & 1]

