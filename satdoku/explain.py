"""Why a puzzle is what it is: a minimal clash for an unsolvable one, two solutions for an
ambiguous one, the techniques a unique one takes.

Glossary:

- core: givens that cannot all hold together. The SAT solver's final conflict over the clue
  assumptions (``get_core``) gives one; it is then shrunk by deletion until it is *minimal*:
  drop one given, and if what is left still has no solution, keep the (smaller) core the
  solver returns for it; otherwise that given is needed. A given found needed stays needed,
  because every set the search looks at afterwards is a subset of the one it was needed in
  (fewer givens only allow more solutions). Each given of the result is needed, so removing any
  one of them leaves a set that has a solution. A puzzle may have several minimal cores; this
  is one of them, not necessarily the smallest.
- differing cells: for a puzzle with several solutions, where two of them disagree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .errors import InternalError, SolverError
from .formats import Alphabet, alphabet_for, format_grid
from .grid import Grid, is_solution
from .sat import DEFAULT_SAT_SOLVER, SatSolver
from .search import NativeSolver
from .solvers import verify
from .techniques import Steps, solve_by_techniques

__all__ = ["Explanation", "explain", "minimal_core", "format_explanation"]


@dataclass
class Explanation:
    """What :func:`explain` found. ``status`` is unsolvable, multiple, unique or timeout.

    - unsolvable: ``core`` lists (cell, digit) of a minimal set of clashing givens.
    - multiple: ``solution`` and ``second`` with the ``differing`` cells.
    - unique: ``solution``, ``steps`` (techniques) and ``search`` (the native solver's nodes,
      guesses and backtracks to find the solution).
    """

    grid: Grid
    status: str
    core: list[tuple[int, int]] = field(default_factory=list)
    solution: Grid | None = None
    second: Grid | None = None
    differing: list[int] = field(default_factory=list)
    steps: Steps | None = None
    search: dict[str, Any] = field(default_factory=dict)
    sat_calls: int = 0
    time_ms: float = 0.0
    message: str | None = None

    def as_dict(self, alphabet: Alphabet | None = None) -> dict[str, Any]:
        """A JSON-ready dict; cells as ``r3c7`` names, digits as symbols of ``alphabet``."""
        geo = self.grid.geometry
        alphabet = alphabet or alphabet_for(geo.size)
        out: dict[str, Any] = {"puzzle": format_grid(self.grid, "line", alphabet),
                               "status": self.status}
        if self.status == "unsolvable":
            out["core"] = [{"cell": geo.cell_name(c), "digit": alphabet.symbol(d)}
                           for c, d in self.core]
            out["sat_calls"] = self.sat_calls
        for key, grid in (("solution", self.solution), ("second", self.second)):
            if grid is not None:
                out[key] = format_grid(grid, "line", alphabet)
        if self.status == "multiple":
            out["differing"] = [geo.cell_name(c) for c in self.differing]
        if self.steps is not None:
            out["techniques"] = self.steps.as_dict()
            out["search"] = self.search
        if self.message:
            out["message"] = self.message
        out["time_ms"] = round(self.time_ms, 3)
        return out


def minimal_core(solver: SatSolver, grid: Grid, *, deadline: float | None = None
                 ) -> tuple[list[tuple[int, int]] | None, int]:
    """A minimal set of clashing givens of ``grid`` as (cell, digit), or None if it has a
    solution; and how many SAT calls it took. See the module docstring for the method.

    Raises :class:`SolverError` when ``deadline`` (a ``perf_counter`` time) passes.
    """
    def core_of(cells: list[int]) -> list[int] | None:
        digits = [0] * grid.geometry.ncells
        for c in cells:
            digits[c] = grid.cells[c]
        subset = Grid(grid.geometry, tuple(digits))
        timeout = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
        core, witness = solver.core(subset, timeout=timeout)
        if witness is not None and not is_solution(witness, subset):
            # The witness that a given is needed is checked like every other answer.
            raise InternalError(f"{solver.name} gave a wrong solution while shrinking a core")
        return core

    calls = 1
    core = core_of([c for c, _ in grid.givens()])
    if core is None:
        return None, calls
    needed: set[int] = set()
    while True:
        untested = [c for c in core if c not in needed]
        if not untested:
            break
        cell = untested[0]
        smaller = core_of([c for c in core if c != cell])
        calls += 1  # each call is one SAT solve
        if smaller is None:
            needed.add(cell)
        else:
            core = smaller
    return [(c, grid.cells[c]) for c in core], calls


def explain(grid: Grid, *, sat_solver: str | None = None, timeout: float | None = None,
            solver: SatSolver | None = None) -> Explanation:
    """Explain ``grid`` (its givens must not clash directly: the parser reports those).

    Args:
        grid: the puzzle.
        sat_solver: the python-sat solver to use (default :data:`DEFAULT_SAT_SOLVER`).
        timeout: seconds for the whole explanation; status ``timeout`` when they run out.
        solver: a :class:`SatSolver` to reuse across puzzles (``sat_solver`` is then ignored).

    >>> from satdoku.geometry import geometry
    >>> e = explain(Grid(geometry(2, 2), (1, 2, 3) + (0,) * 12 + (4,)))
    >>> e.status, e.core  # r1c4 must be 4 (its row holds 1, 2, 3), but r4c4 is 4
    ('unsolvable', [(0, 1), (1, 2), (2, 3), (15, 4)])
    """
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    own = solver is None
    if solver is None:
        solver = SatSolver(sat_solver or DEFAULT_SAT_SOLVER)
    try:
        result = verify(solver.solve(grid, limit=2, timeout=timeout), grid)
        expl = Explanation(grid, result.status, solution=result.solution, second=result.second,
                           message=result.message)
        if result.status == "unsolvable":
            try:
                core, expl.sat_calls = minimal_core(solver, grid, deadline=deadline)
            except SolverError as error:
                expl.status, expl.message = "timeout", error.message
            else:
                if core is None:  # the solver contradicted itself
                    expl.status = "error"
                    expl.message = (f"internal error: {solver.name} found a solution where it "
                                    f"had found none")
                else:
                    expl.core = core
        elif result.status == "multiple":
            expl.differing = result.solution.differences(result.second)
        elif result.status == "unique":
            expl.steps = solve_by_techniques(grid)
            left = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
            native = NativeSolver().solve(grid, timeout=left)
            expl.search = {k: native.stats[k] for k in ("nodes", "guesses", "backtracks")}
            if native.status == "timeout":
                expl.search["timeout"] = True
    finally:
        if own:
            solver.close()
    expl.time_ms = (time.perf_counter() - start) * 1000
    return expl


def _marked_grid(grid: Grid, marked: set[int], alphabet: Alphabet) -> str:
    """The pretty grid with the ``marked`` cells' symbols in brackets, others padded."""
    n = grid.size
    symbols = [alphabet.symbol(d) if d else "." for d in grid.cells]
    width = max(map(len, symbols))
    texts = [(f"[{s.rjust(width)}]" if cell in marked else f" {s.rjust(width)} ")
             for cell, s in enumerate(symbols)]
    r, c = grid.geometry.band_shape
    rule = "+".join(["-" * (c * (width + 2))] * (n // c))
    lines = []
    for row in range(n):
        if row and row % r == 0:
            lines.append(rule)
        cells = texts[row * n:(row + 1) * n]
        lines.append("|".join("".join(cells[j:j + c]) for j in range(0, n, c)).rstrip())
    return "\n".join(lines)


def _cells_text(expl: Explanation, cells: list[int], alphabet: Alphabet, limit: int = 20) -> str:
    geo = expl.grid.geometry
    names = ", ".join(geo.cell_name(c) for c in cells[:limit])
    return names + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def format_explanation(expl: Explanation, alphabet: Alphabet | None = None,
                       where: str = "") -> str:
    """The explanation as text for people, ending in a newline."""
    geo = expl.grid.geometry
    alphabet = alphabet or alphabet_for(geo.size)
    head = f"{where}: " if where else ""
    out = []
    if expl.status == "unsolvable":
        out.append(f"{head}unsolvable: these {len(expl.core)} givens cannot all hold, and each "
                   f"of them is needed for that:")
        out.append("  " + ", ".join(f"{geo.cell_name(c)}={alphabet.symbol(d)}"
                                    for c, d in expl.core))
        out.append(_marked_grid(expl.grid, {c for c, _ in expl.core}, alphabet))
    elif expl.status == "multiple":
        out.append(f"{head}multiple solutions; two of them differ at {len(expl.differing)} "
                   f"cells ({_cells_text(expl, expl.differing, alphabet)}), marked:")
        for grid in (expl.solution, expl.second):
            out.append(_marked_grid(grid, set(expl.differing), alphabet))
            out.append("")
        out.pop()
    elif expl.status == "unique":
        s = expl.steps
        out.append(f"{head}unique solution; it takes {s.hardest}")
        out.append(f"  naked singles: {s.naked}, hidden singles: {s.hidden}, "
                   f"locked-candidate steps: {s.locked}")
        if s.hardest == "guessing":
            g = expl.search
            out.append(f"  techniques stall with {s.open_cells} cells open; native search: "
                       f"{g['guesses']} guesses, {g['backtracks']} backtracks"
                       + (" (timed out)" if g.get("timeout") else ""))
        out.append(format_grid(expl.solution, "pretty", alphabet))
    else:
        out.append(f"{head}{expl.status}" + (f": {expl.message}" if expl.message else ""))
    return "\n".join(out) + "\n"
