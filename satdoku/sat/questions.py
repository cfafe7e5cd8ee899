"""Questions beyond solving, asked of a loaded formula under assumptions: a core of givens and
rules that cannot all hold (explain), a solution with some cells assumed (candidates), a
solution other than a known one (generate), and every solution, one at a time (``count --all``,
``candidates --counts``).

They need a SAT solver that takes assumptions (:data:`ASSUMPTIONS`). Each is a function of
the :class:`~satdoku.sat.backend.Backend` whose engines it asks (a
:class:`~satdoku.sat.solver.SatSolver`'s is its ``backend``): ``core(solver.backend, grid)``.

Every solution in flat memory: each solution found is ruled out by a blocking clause guarded
by the activation literal of its *cube* (the solutions that agree on some cells); after
:data:`CUBE_SOLUTIONS` of them, the cube is split on its next open cell, one sub-cube per
digit (the blocking clauses so far stay in force), and each sub-cube's clauses are retired when
it is done. So at most :data:`CUBE_SOLUTIONS` clauses per level of splitting are ever held,
however many solutions there are, and each solution costs one solve call.
"""

from __future__ import annotations

from typing import Iterator

from ..budget import Budget
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..errors import SolverError
from ..model.grid import Grid
from ..model.result import Capabilities
from .backend import Backend
from .catalogue import check_for
from .engines import Engine, FullEngine, Settled

__all__ = ["core", "first_solution", "other_solution", "solutions", "ASSUMPTIONS",
           "CUBE_SOLUTIONS"]

#: What cores, solutions with a cell assumed and other solutions need of a SAT solver.
ASSUMPTIONS = Capabilities.needs("assumptions")

#: Blocking clauses one cube holds before it is split (see the module docstring).
CUBE_SOLUTIONS = 4096


def _require(backend: Backend, task: str) -> None:
    """OptionError unless the backend's solver takes assumptions, which ``task`` needs."""
    check_for(backend.info.name, ASSUMPTIONS, task)


def core(backend: Backend, grid: Grid, *, deadline: Deadline | None = None,
         constraints: tuple = ()) -> tuple[tuple[list[int], list[int]] | None, Grid | None]:
    """Givens and rules that cannot all hold together, or a solution when there are none.

    Returns ``((cells, rules), None)`` when ``grid`` under ``constraints`` has no solution:
    with a full encoding they come from the solver's final conflict over the assumptions
    (``get_core``: a clue literal per given, an activation literal per rule; ``rules`` are
    indices into ``constraints``), an unsatisfiable subset but not necessarily a minimal one
    (:func:`satdoku.tasks.explain.minimal_core` shrinks it); the reduced encoding has no
    assumptions and gives every given. Returns ``(None, solution)`` otherwise.
    Raises TimeUp at the deadline, TooBigError for a formula over the limit.
    """
    deadline = deadline or NO_DEADLINE
    _require(backend, "explain")
    everything = ([c for c, _ in grid.givens()], list(range(len(constraints))))
    try:
        engine = backend.engine(grid, deadline, keep=True)
    except Settled as settled:
        if settled.formula.contradiction is None:
            return None, Grid(grid.geometry, tuple(settled.formula.settled))
        return everything, None
    acts: list[int] = []
    try:
        clues = engine.assumptions(grid)
        acts = (engine.rule_acts(constraints, Budget(backend.max_clauses, deadline))
                if constraints else [])
        answer = backend.run(engine, clues + acts, deadline)
        if answer is None:
            raise TimeUp
        if answer:
            return None, engine.decode(engine.solver.get_model())
        if not isinstance(engine, FullEngine):
            return everything, None
        core = set(engine.solver.get_core() or ())
        n = grid.size
        cells = sorted({(lit - 1) // n for lit in core if lit <= engine.n3})
        return (cells, [i for i, act in enumerate(acts) if act in core]), None
    finally:
        backend.release(engine)


def first_solution(backend: Backend, grid: Grid, *, assume: tuple[tuple[int, int], ...] = (),
                   constraints: tuple = (), deadline: Deadline | None = None
                   ) -> Grid | None:
    """A solution of ``grid`` under ``constraints`` in which each (cell, digit) of
    ``assume`` holds, or None when there is none (not verified: the caller checks).
    Raises TimeUp at the deadline."""
    deadline = deadline or NO_DEADLINE
    _require(backend, "candidates")
    try:
        engine = backend.engine(grid, deadline)
    except Settled as settled:
        if settled.formula.contradiction is not None:
            return None
        solved = Grid(grid.geometry, tuple(settled.formula.settled))
        return solved if all(solved.cells[c] == d for c, d in assume) else None
    acts: list[int] = []
    try:
        extra = []
        for cell, d in assume:
            lit = engine.varmap.lit(cell, d)
            if lit is False:
                return None
            if lit is not True:
                extra.append(lit)
        acts = (engine.rule_acts(constraints, Budget(backend.max_clauses, deadline))
                if constraints else [])
        answer = backend.run(engine, engine.assumptions(grid) + extra + acts, deadline)
        if answer is None:
            raise TimeUp
        return engine.decode(engine.solver.get_model()) if answer else None
    finally:
        backend.release(engine)


def other_solution(backend: Backend, grid: Grid, solution: Grid, *,
                   cells: list[int] | None = None, conflicts: int | None = None,
                   constraints: tuple = ()) -> tuple[str, Grid | None]:
    """A solution of ``grid`` other than ``solution`` (a complete grid), if there is one.

    Args:
        cells: look only for solutions that differ from ``solution`` in one of these cells
            (one solve call per cell, each assuming that cell's digit is not the
            solution's: faster than ruling out the whole solution, see
            :mod:`satdoku.tasks.generate`). None: anywhere, in one call with a clause ruling out
            ``solution`` (kept while the same solution is asked about again).
        conflicts: a budget per solve call; unlike a time limit it gives the same answer
            on every machine.
        constraints: a variant puzzle's rules.

    Returns:
        ``('unique', None)`` when there is none, ``('multiple', other)``, or
        ``('unknown', None)`` when the budget ran out.
    """
    _require(backend, "generate")
    if conflicts is not None and not backend.info.budget:
        raise SolverError(f"{backend.info.name} cannot keep a conflict budget")
    if conflicts is not None and conflicts < 1:
        # (python-sat solvers read a budget of 0 as no budget at all)
        raise SolverError(f"a conflict budget must be at least 1, not {conflicts}")
    try:
        engine = backend.engine(grid, NO_DEADLINE, keep=True)
    except Settled:
        return "unique", None  # the reduction leaves one solution (or none) to the givens
    try:
        clues = engine.assumptions(grid)
        if constraints:
            clues = clues + engine.rule_acts(constraints, Budget(backend.max_clauses))
        if cells is None:
            if isinstance(engine, FullEngine):
                tries = [clues + [engine.exclusion(solution)]]
            else:
                lits = [engine.varmap.lit(c, d) for c, d in enumerate(solution.cells)]
                engine.solver.add_clause([-v for v in lits if v is not True and v])
                tries = [clues]
        else:
            tries = []
            for c in cells:
                v = engine.varmap.lit(c, solution.cells[c])
                if v is not True and v is not False:
                    tries.append(clues + [-v])
        unknown = False
        for assumptions in tries:
            answer = backend.run(engine, assumptions, NO_DEADLINE, conflicts)
            if answer:
                return "multiple", engine.decode(engine.solver.get_model())
            unknown |= answer is None
        return ("unknown", None) if unknown else ("unique", None)
    finally:
        backend.release(engine)


def solutions(backend: Backend, grid: Grid, *, constraints: tuple = (),
              assume: tuple[tuple[int, int], ...] = (),
              deadline: Deadline | None = None) -> Iterator[Grid]:
    """Every solution of ``grid`` under ``constraints`` in which each (cell, digit) of
    ``assume`` holds, each once, as they are found (not verified: the caller checks), in
    flat memory (see the module docstring). Raises TimeUp at the deadline; closing the
    iterator early retires what it added to the solver.
    """
    deadline = deadline or NO_DEADLINE
    _require(backend, "count --all")
    try:
        engine = backend.engine(grid, deadline, keep=True)
    except Settled as settled:
        solved = settled.solution(grid, constraints)
        if solved is not None and all(solved.cells[c] == d for c, d in assume):
            yield solved
        return
    try:
        assumptions = engine.assumptions(grid)
        for cell, d in assume:
            lit = engine.varmap.lit(cell, d)
            if lit is False:
                return
            if lit is not True:
                assumptions.append(lit)
        if constraints:
            assumptions += engine.rule_acts(constraints, Budget(backend.max_clauses, deadline))
        fixed = {c for c, _ in assume}
        open_cells = [c for c, d in enumerate(grid.cells) if not d and c not in fixed]
        yield from _cube(backend, engine, grid, assumptions, open_cells, deadline)
    finally:
        backend.release(engine)


def _cube(backend: Backend, engine: Engine, grid: Grid, assumptions: list[int],
          open_cells: list[int], deadline: Deadline) -> Iterator[Grid]:
    """The solutions under ``assumptions`` not yet ruled out, splitting on the first of
    ``open_cells`` when :data:`CUBE_SOLUTIONS` are blocked."""
    act = engine.fresh_var()
    blocked = 0
    try:
        while True:
            answer = backend.run(engine, assumptions + [act], deadline)
            if answer is None:
                raise TimeUp
            if not answer:
                return
            solution = engine.decode(engine.solver.get_model())
            yield solution
            block = engine.varmap.blocking(solution, grid)
            if not block:
                return  # nothing open: that was the only one
            engine.solver.add_clause([-act] + block)
            blocked += 1
            if blocked >= CUBE_SOLUTIONS and open_cells:
                lits = [engine.varmap.lit(open_cells[0], d) for d in range(1, grid.size + 1)]
                settled = any(lit is True for lit in lits)  # (not "True in": 1 == True)
                for lit in lits:
                    if not settled and lit is not False:
                        yield from _cube(backend, engine, grid, assumptions + [act, lit],
                                              open_cells[1:], deadline)
                if not settled:
                    return
                # the cell is settled: split on the next one instead
                open_cells, blocked = open_cells[1:], 0
    finally:
        if not engine.broken:
            engine.solver.add_clause([-act])
