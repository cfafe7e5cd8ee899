"""Which CNF, and who solves it: :class:`SatConfig`, and the one place a SAT solver is made.

Every task that needs a SAT solver holds a :class:`SatConfig` (the ``--sat-solver``,
``--encoding``, ``--amo`` and ``--max-clauses`` of the command line, or the same keywords of
the library) and asks it for a solver with :meth:`SatConfig.solver`, saying what it needs of
one; nothing else in the package calls a solver's constructor. A config is frozen and
picklable, so each worker process of a stream makes its own solvers from it (python-sat
solvers cannot be pickled).
"""

from __future__ import annotations

from ..budget import DEFAULT_MAX_CLAUSES
from ..model.result import Capabilities
from ..records import record
from .catalogue import check_for, is_exec

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from .external import ExecSolver
    from .solver import SatSolver

__all__ = ["SatConfig"]


@record(frozen=True)
class SatConfig:
    """A SAT solver's name (None: the default; ``exec:COMMAND``: a binary), the CNF encoding
    (None: by grid size, see :func:`satdoku.cnf.policy.choose_encoding`, reduced from
    ``reduced_from`` on), the at-most-one encoding, and the clause limit.

    >>> with SatConfig("minisat22").solver() as s:
    ...     s.name
    'sat:minisat22'
    """

    sat_solver: str | None = None
    encoding: str | None = None
    amo: str | None = None
    max_clauses: int = DEFAULT_MAX_CLAUSES
    reduced_from: int | None = None

    def solver(self, *, needs: Capabilities | None = None, task: str = "this command",
               incremental: bool = True, stats: bool = True,
               configure: dict[str, int] | None = None,
               reduction: dict[str, Any] | None = None,
               fast: bool = True) -> SatSolver | ExecSolver:
        """A new solver of this configuration; :class:`~satdoku.errors.OptionError` when it
        lacks what ``task`` ``needs`` (an ``exec:`` binary serves only tasks that need no
        assumptions). ``incremental``, ``stats``, ``configure``, ``reduction`` and ``fast`` are
        :class:`~satdoku.sat.solver.SatSolver`'s."""
        check_for(self.sat_solver, needs or Capabilities.needs(), task)
        if is_exec(self.sat_solver):
            from .external import ExecSolver
            return ExecSolver(self.sat_solver, self.encoding, self.amo,
                              max_clauses=self.max_clauses)
        from .solver import SatSolver
        return SatSolver(self.sat_solver, self.encoding, self.amo, incremental=incremental,
                         stats=stats, max_clauses=self.max_clauses, configure=configure,
                         reduction=reduction, reduced_from=self.reduced_from, fast=fast)

    def python_sat(self, *, needs: Capabilities | None = None, task: str = "this command",
                   **kwargs: Any) -> SatSolver:
        """:meth:`solver`, for a task that needs a python-sat solver's questions (cores,
        assumed solutions): an ``exec:`` binary is refused."""
        needs = needs or Capabilities.needs("assumptions")
        solver = self.solver(needs=needs, task=task, **kwargs)
        from .solver import SatSolver
        assert isinstance(solver, SatSolver)
        return solver
