"""Counting on a loaded engine: solve, rule the solution out, solve again.

Each solution found is ruled out by a clause over the true variables of the cells not given,
guarded by one activation literal for the whole count (python-sat's ``enum_models`` leaves its
blocking clauses behind; python-sat issue 81), and the literal is retired when the count ends.

With the decision test (:attr:`~satdoku.sat.engines.FullEngine.decision_test`, docs/floor.md),
a first solve under assumptions that made no decision found the only solution: every variable
was set by unit propagation from the assumptions over clauses the formula implies, so any
solution agrees with it (assumed literals are not counted as decisions; learnt clauses that
used an earlier puzzle's guarded clause hold that puzzle's retired activation literal).
Without assumptions CaDiCaL does not backtrack before solving: a solve right after a
satisfiable one keeps the old trail and makes no decision (an empty grid counted twice), so
the test needs assumptions.

*Steering* (a batch's puzzles after its first, see :attr:`satdoku.sat.solver.SatSolver.steer`)
also steers the next solve away from the solutions found on engines with the decision test:
those variables' phases are forced false (``set_phases``), and true after the count. That took
6 to 12% off counting (17-clue, top1465, hardest; docs/floor.md), but the second solution it
finds differs from the first in more cells (27 instead of 6 for 'sampleHard'), so a single
puzzle is counted as before. Forcing every cell variable's phase true once per solver as well
("pos") gained at most 1% more on 17-clue and top1465 and 5% on hardest, and would change the
first solution too: not done. Only the second solve is steered: counting to thousands with
every solution's literals forced false took four times as long (39,168 6x6 grids,
tests/test_counts.py).
"""

from __future__ import annotations

from ..deadline import Deadline, TimeUp
from ..model.grid import Grid
from ..model.result import counted_status
from .binding import configure
from .catalogue import COUNT_OPTIONS

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from .backend import Backend
    from .engines import Engine

__all__ = ["count"]


def count(backend: Backend, engine: Engine, grid: Grid, assumptions: list[int], limit: int,
          deadline: Deadline, solutions: list[Grid], steer: bool = False) -> str:
    """Solve ``grid`` on ``engine`` under ``assumptions``, then block each solution and solve
    again, until ``limit`` solutions or none is left; the status. ``solutions`` fills as they
    come (kept on a timeout, which raises TimeUp). ``steer``: see the module docstring.

    Ctrl-C: the KeyboardInterrupt carries ``found``, the solutions counted so far (None when
    only one was looked for), for the command line to say how far it got.
    """
    try:
        return _counted(backend, engine, grid, assumptions, limit, deadline, solutions, steer)
    except KeyboardInterrupt as stop:
        stop.found = len(solutions) if limit > 1 else None  # type: ignore[attr-defined]
        raise


def _counted(backend: Backend, engine: Engine, grid: Grid, assumptions: list[int], limit: int,
             deadline: Deadline, solutions: list[Grid], steer: bool) -> str:
    solver = engine.solver
    decided = limit >= 2 and bool(assumptions) and engine.decision_test
    steer = steer and decided
    before = 0
    if decided:
        if not engine.counting:
            configure(solver, COUNT_OPTIONS[backend.info.name])
            engine.counting = True
        before = solver.accum_stats()["decisions"]
    answer = backend.run(engine, assumptions, deadline)
    act = 0
    avoided: list[int] = []
    try:
        while answer:
            solutions.append(engine.decode(solver.get_model()))
            if len(solutions) >= limit:
                break
            if decided and solver.accum_stats()["decisions"] == before:
                break  # forced: the only solution
            if not act:
                act = engine.fresh_var()
            block = engine.varmap.blocking(solutions[-1], grid)
            solver.add_clause([-act] + block)
            if steer and len(solutions) == 1:  # the second solve only (see above)
                solver.set_phases(block)
                avoided += block
            decided = False
            answer = backend.run(engine, assumptions + [act], deadline)
    finally:
        if act and not engine.broken:
            if avoided:
                solver.set_phases([-lit for lit in avoided])
            solver.add_clause([-act])
    if answer is None:
        raise TimeUp
    if limit < 2:
        return "solved" if solutions else "unsolvable"
    return counted_status(len(solutions))
