"""The SAT solvers on offer, what each can do, and the settings satdoku runs them with.

A ``--sat-solver`` name is one of python-sat's solvers (:data:`SAT_SOLVERS`, python-sat's
aliases allowed) or an external command ``exec:...`` (:mod:`satdoku.sat.external`). Each
declares its :class:`~satdoku.model.result.Capabilities` (:func:`capabilities_of`); a task
names what it needs and :func:`check_for` refuses a solver that lacks it, with the reason.
The story of the tuning constants is in ``docs/floor.md`` and ``docs/hard-grids.md``.
"""

from __future__ import annotations

from ..errors import OptionError
from ..model.result import Capabilities
from ..records import record
from . import PREFIX

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import TypeGuard

__all__ = ["SatSolverInfo", "SAT_SOLVERS", "DEFAULT_SAT_SOLVER", "PREFIX", "is_exec",
           "check_sat_solver", "check_sat_name", "capabilities_of", "check_for"]


@record(frozen=True)
class SatSolverInfo:
    """What satdoku knows about one python-sat solver."""

    name: str
    interrupt: bool  # interrupt() works; else the time limit is kept with conflict budgets
    budget: bool  # conf_budget() works; without it or interrupt, no time limit can be kept
    note: str = ""
    # Takes assumptions and clauses after a solve (incremental). Without: one fresh solver per
    # solve call, clues as unit clauses; no cores (explain) and no generate.
    assumptions: bool = True
    stats: bool = True  # reports conflicts and decisions
    proof: bool = True  # writes a DRAT proof of unsatisfiability (python-sat's with_proof)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(assumptions=self.assumptions, time_limit=self.interrupt or self.budget,
                            conflicts=self.stats, steer=self.assumptions)


def _info(name: str, interrupt: bool = True, budget: bool = True, note: str = "",
          assumptions: bool = True, stats: bool = True, proof: bool = True) -> SatSolverInfo:
    return SatSolverInfo(name, interrupt, budget, note, assumptions, stats, proof)


#: The python-sat solvers offered, each checked on 9x9 puzzles with assumptions in this build.
SAT_SOLVERS: dict[str, SatSolverInfo] = {
    info.name: info for info in [
        _info("minisat22", proof=False),
        _info("minisatep", proof=False),
        _info("glucose3"),
        _info("glucose4"),
        _info("glucose42"),
        _info("maplesat"),
        _info("maplechrono"),
        _info("maplecm"),
        _info("mergesat3", proof=False),
        _info("minicard", proof=False),
        _info("gluecard3"),
        _info("gluecard4"),
        _info("cadical103", interrupt=False),
        _info("cadical153", interrupt=False),
        _info("cadical195", interrupt=False),
        _info("lingeling", interrupt=False, budget=False,
              note="licensed for research and evaluation only; cannot keep a time limit"),
        # python-sat's Kissat: no interrupt(), a conflict budget for one call only (it cannot
        # resume), no statistics, and no clause after solve(): see _solve_fresh.
        _info("kissat404", interrupt=False, budget=False, assumptions=False, stats=False,
              proof=False,
              note="a fresh solver for every solve (solve, count); no assumptions, so no "
                   "explain, candidates or generate; cannot keep a time limit"),
    ]
}

#: Fastest on every 9x9 benchmark with the incremental path (docs/tuning.md).
DEFAULT_SAT_SOLVER = "cadical195"

#: Options set on a new solver of a grid up to :data:`OPTIONS_MAX_SIZE` before its clauses
#: (python-sat's ``configure``; CaDiCaL only; measured in docs/tuning.md). Larger grids keep
#: CaDiCaL's defaults: their long searches want inprocessing.
SOLVER_OPTIONS: dict[str, dict[str, int]] = {
    "cadical195": {"chrono": 0, "eagersubsume": 0, "bumpreason": 0, "inprocessing": 0},
}
OPTIONS_MAX_SIZE = 9

#: Conflict-budget slices keep CaDiCaL's time limits: from SLICE_MIN_S, each half the time the
#: call has taken so far, capped by half the time left (why: docs/tuning.md).
SLICE_MIN_S = 0.05

#: Inprocessing that no conflict budget bounds, with CaDiCaL's defaults: bounded variable
#: elimination took 7 s inside one slice of 443 conflicts on 225-1's reduced formula (2.47
#: million clauses), probing 2-4 s more. A sliced call (:mod:`satdoku.sat.clock`) turns them off
#: once the time left is under :data:`INPROCESS_S_PER_CLAUSE` a clause of the formula, and sets
#: them back (or the engine's own settings) after it (docs/large-grids.md).
UNBOUNDED_INPROCESSING: dict[str, dict[str, int]] = {
    "cadical153": {"elim": 1, "probe": 1},
    "cadical195": {"elim": 1, "probe": 1},
}
INPROCESS_S_PER_CLAUSE = 6e-6  # elimination took 2.9 us a clause on 225-1 (2026-11-29)

#: Set on an incremental engine when it starts counting with the decision test: "no decision"
#: must mean "forced" (docs/tuning.md); not set on fresh solvers, whose conflicts rate scores.
COUNT_OPTIONS: dict[str, dict[str, int]] = {"cadical195": {"lucky": 0}}

#: A full engine of a grid up to :data:`OPTIONS_MAX_SIZE` gets a new solver after this many
#: puzzles (learnt clauses and activation literals pile up; docs/tuning.md).
REBUILD_EVERY = 2000

#: Solvers whose decision count leaves out assumptions, so that a solve under the clues that
#: made no decision proves the grid forced (docs/tuning.md). Others count with a second solve.
DECISION_TEST_SOLVERS = frozenset({"cadical195"})

#: The solvers whose options can be set (python-sat's ``configure``).
CONFIGURABLE = ("cadical153", "cadical195")


def check_sat_solver(name: str) -> SatSolverInfo:
    """The :class:`SatSolverInfo` of ``name`` (python-sat's aliases such as ``m22`` allowed).

    Raises:
        OptionError: the name is unknown.

    >>> check_sat_solver('g4').name
    'glucose4'
    """
    if name in SAT_SOLVERS:  # a canonical name: no need to import python-sat's table
        return SAT_SOLVERS[name]
    from pysat.solvers import SolverNames
    canonical = name
    for full, aliases in vars(SolverNames).items():
        if not full.startswith("_") and isinstance(aliases, tuple) and name.lower() in aliases:
            canonical = full
            break
    choices = ", ".join(SAT_SOLVERS)
    if canonical not in SAT_SOLVERS:
        from ..errors import closest  # a family's newest first: cadical -> cadical195
        family = [n for n in SAT_SOLVERS if n.startswith(name.lower())]
        close = family[-1] if family else closest(name.lower(), SAT_SOLVERS)
        hint = f"did you mean {close!r}? " if close else ""
        raise OptionError(f"unknown SAT solver {name!r}; {hint}choose one of {choices}")
    return SAT_SOLVERS[canonical]


def is_exec(name: str | None) -> TypeGuard[str]:
    """True when ``name`` names an external command (``exec:...``)."""
    return name is not None and name.startswith(PREFIX)


def check_sat_name(name: str) -> str:
    """The canonical name of a SAT solver: a python-sat solver (aliases allowed) or an
    external command ``exec:...`` whose program is on PATH. Raises :class:`OptionError`.

    >>> check_sat_name("m22")
    'minisat22'
    """
    if is_exec(name):
        from .commands import check_command
        return check_command(name).spec
    return check_sat_solver(name).name


#: What an external command can do: rules are clauses like any other, and the process is
#: killed at a time limit; but every solve is a new process (no assumptions, no conflicts).
EXEC_CAPABILITIES = Capabilities(assumptions=False, conflicts=False)


def capabilities_of(sat_solver: str | None) -> Capabilities:
    """The capabilities of the SAT solver named (None: the default).

    >>> capabilities_of("lingeling").time_limit, capabilities_of("exec:cadical").assumptions
    (False, False)
    """
    if is_exec(sat_solver):
        return EXEC_CAPABILITIES
    return check_sat_solver(sat_solver or DEFAULT_SAT_SOLVER).capabilities


_WHY = {"assumptions": "ignores assumptions, which {task} needs",
        "conflicts": "reports no conflict counts, which {task} needs",
        "time_limit": "cannot stop at a time limit; drop --timeout or choose another "
                      "--sat-solver",
        "rules": "cannot take variant rules"}


def check_for(sat_solver: str | None, needs: Capabilities, task: str) -> str | None:
    """The canonical name of ``sat_solver`` when it has what ``task`` ``needs``, else
    :class:`OptionError` saying what it lacks.

    >>> check_for("kissat", Capabilities.needs("assumptions"), "explain")
    Traceback (most recent call last):
    ...
    satdoku.errors.OptionError: kissat404 ignores assumptions, which explain needs; choose another SAT solver
    """
    name = check_sat_name(sat_solver) if sat_solver is not None else None
    lacking = capabilities_of(name).missing(needs)
    if lacking:
        shown = name or DEFAULT_SAT_SOLVER
        if is_exec(shown) and lacking[0] != "time_limit":
            raise OptionError(f"exec: solvers run one solve per process; {task} needs a "
                              "python-sat solver (see 'satdoku solvers')")
        why = _WHY[lacking[0]].format(task=task)
        tail = "" if lacking[0] == "time_limit" else "; choose another SAT solver"
        raise OptionError(f"{shown} {why}{tail}")
    return name
