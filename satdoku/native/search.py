"""The native solver: constraint propagation plus depth-first search, to cross-check SAT answers.

Glossary (besides those in :mod:`satdoku.model.geometry` and :mod:`satdoku.native.propagate`):

- node: one propagation in search (the root, and each digit tried at a branch point).
- guess: a digit tried at a branch point. backtrack: a guess whose propagation failed.
- weight: how many contradictions a house has been found in so far in this search. The branch
  point is a cell with the fewest candidates (two or more) and, among those, the one whose
  houses weigh most (lowest cell index on ties); digits in increasing order. Contradictions
  come back where they came from, so search goes there first (dom/wdeg in CP terms).

Like Norvig's solver, propagation (:func:`satdoku.native.propagate.propagate`, its passes named
there) and search are separate, and search is a few lines on top: the state is a flat list of
candidates, one of placed digits a house and one of positions a (house, digit), copied at each
branch point. Which passes pay at which size: :data:`~satdoku.native.tables.SUBSETS_BY_SIZE`;
locked candidates run up to :data:`~satdoku.native.tables.LOCKED_MAX_SIZE` and on jigsaw
regions. What was tried and measured, kept or not, is in
`docs/native-search.md <../docs/native-search.md>`_.

Variant constraints plug in through ``solve(..., constraints=...)``: each has ``prune(cand)``,
which removes candidates in place and returns the cells it changed, or None on a contradiction.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

from ..closing import Closing
from ..deadline import NO_DEADLINE, Deadline
from ..errors import SolverError
from ..model.grid import Grid
from ..model.result import Capabilities, Result, counted_status
from .board import fold_givens
from .propagate import Constraint, Propagation, propagate
from .tables import LOCKED_MAX_SIZE, Tables, Timeout, need_boxes, tables

__all__ = ["NativeSolver", "Constraint"]


class NativeSolver(Closing):
    """Propagation (singles, locked candidates, subsets) plus depth-first search.

    Any box shape and jigsaw regions. Switches, for comparisons: ``locked_candidates=False``
    leaves locked candidates out; ``subsets`` is the largest subset looked for (0 none, 2 pairs,
    3 triples too; None, the default: by grid size, :data:`~satdoku.native.tables.SUBSETS_BY_SIZE`);
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
    encoding: str | None = None  # the Solver protocol: no CNF encoding

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
        try:  # its tables and branching count three houses of N cells a cell
            need_boxes(grid.geometry, "native search")
            if grid.geometry.low != 1 and any(map(_reads_values, constraints)):
                raise SolverError(f"native search prunes rules that read values on values "
                                  f"1-{grid.size} only, not {grid.geometry.values_text}")
        except SolverError as error:
            return Result("refused", solver=self.name, limit=limit, message=error.message)
        start = time.perf_counter()
        deadline = deadline or NO_DEADLINE
        t = tables(grid.geometry)
        # Locked candidates up to 64 x 64 and on jigsaw regions (boxes of one line have no
        # segments to lock: hidden singles do it); grids past 64 x 64 do not pay for them.
        locked = self.locked_candidates and (grid.size <= LOCKED_MAX_SIZE
                                             or not grid.geometry.is_boxed)
        p = Propagation(t, locked=locked, subsets=t.subsets if self.subsets is None else
                        self.subsets, constraints=constraints, deadline=deadline.at)
        stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "no_guess": False}
        solutions: list[list[int]] = []
        timed_out = deadline.expired() or not _search(grid, p, limit, solutions, stats,
                                                      self.weights)
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



def _reads_values(constraint) -> bool:
    """Whether a rule, or one inside it (``or``, ``and``), reads the values of digits."""
    return constraint.reads_values or any(map(_reads_values, getattr(constraint, "rules", ())))


def _accepted(cand: list[int], constraints: tuple) -> bool:
    """True when every constraint accepts the full assignment ``cand`` (checked on a copy)."""
    for constraint in constraints:
        copy = cand[:]
        if constraint.prune(copy) is None or copy != cand:
            return False
    return True


def _branch_cell(cand: list[int], weight: list[int] | None, cell_houses) -> int | None:
    """The cell to branch on: fewest candidates (two or more), then heaviest houses, then lowest
    index; None when every cell has one candidate."""
    keys = list(map(int.bit_count, cand))
    open_counts = set(keys)
    open_counts.discard(1)
    if not open_counts:
        return None
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
    return cell


def _search(grid: Grid, p: Propagation, limit: int, solutions: list[list[int]],
            stats: dict[str, Any], weights: bool) -> bool:
    """Depth-first search appending up to ``limit`` solutions; False when the deadline passed."""
    t: Tables = p.t
    cell_houses = t.cell_houses
    cand, placed, clash_free = fold_givens(grid.geometry, grid.cells)
    if not clash_free or not all(cand):
        stats["nodes"] = 1
        return True
    nodes = guesses = backtracks = 0
    clock = time.perf_counter
    interval = t.search_interval
    budget = interval
    weight = [0] * t.nhouses if weights else None
    fail = p.fail
    # A frame is [cand, placed, positions, cell, digits still to try at cell].
    stack: list[list[Any]] = []
    try:
        nodes = 1
        pos = p.begin(cand, placed)  # the givens are placed: what they single out is queued
        if not propagate(p):
            return True
        while True:
            branch = _branch_cell(cand, weight, cell_houses)
            if branch is not None:
                stack.append([cand, placed, pos, branch, cand[branch]])
            elif not p.constraints or _accepted(cand, p.constraints):
                solutions.append(cand)
                if len(solutions) >= limit:
                    return True
            # Try the next digit of the deepest branch point that has one left.
            while stack:
                frame = stack[-1]
                parent, parent_placed, parent_pos, cell, left = frame
                b = left & -left
                left ^= b
                if left:
                    frame[4] = left
                    cand, placed, pos = parent[:], parent_placed[:], parent_pos[:]
                else:  # the last digit: the parent state is not needed again
                    stack.pop()
                    cand, placed, pos = parent, parent_placed, parent_pos
                nodes += 1
                guesses += 1
                budget -= 1
                if not budget:
                    if clock() > p.deadline:
                        raise Timeout
                    budget = interval
                p.start(cand, placed, pos)
                if p.narrow(cell, b) and propagate(p):
                    break
                backtracks += 1
                if weight is not None:
                    for h in fail:
                        weight[h] += 1
                fail.clear()
            else:
                return True
    except Timeout:
        return False
    finally:
        stats["nodes"] = nodes
        stats["guesses"] = guesses
        stats["backtracks"] = backtracks
