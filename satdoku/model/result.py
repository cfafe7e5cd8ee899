"""What every solver returns (one :class:`Result` per puzzle), the statuses, and the exit codes.

Every command reports one of :data:`STATUSES` per puzzle, and a batch exits with the largest
code its puzzles call for (:func:`exit_code`):

==========  =====  =========================================================================
status      exit   meaning
==========  =====  =========================================================================
solved      0      a solution was found and verified (the puzzle was not counted)
unique      0      counted: exactly one solution (``solve --unique``, ``count``)
multiple    0 / 1  counted: two or more (``count`` says how many); 1 for ``solve --unique``
unsolvable  1      no solution exists
timeout     1      the time limit ran out first (``count`` so far is a lower bound)
invalid     1      the puzzle could not be read, or its givens clash
refused     1      the formula would be over the size limit (``--max-clauses``)
error       3      satdoku caught itself out: an answer failed verification, or the SAT and
                   native solvers disagreed (``--check``)
==========  =====  =========================================================================

Other exit codes: 2 for a usage error (bad option, unreadable output path), 130 when
interrupted (Ctrl-C, SIGTERM, SIGHUP; the results finished so far are kept).

The contract every solver keeps (``tests/test_contract.py`` runs every solver and encoding
through it): ``count`` is None unless the puzzle was counted (``limit >= 2``), then the number
of solutions found, at most ``limit``; on a timeout while counting it is the number found so
far, ``solution``/``second`` the first two of them, and ``message`` says
``'time limit of 0.3 s reached after 2 solutions'``. ``solution`` is None for ``unsolvable``,
``invalid``, ``refused`` and ``error``.
"""

from __future__ import annotations

from ..deadline import Deadline, TimeUp
from ..errors import InternalError, SolverError, TooBigError
from ..records import field, fields, record
from .geometry import Geometry
from .grid import Grid, Rule, pack_cells, solution_problems, unpack_grid

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Protocol, TypeGuard

if not TYPE_CHECKING:  # at run time a protocol is a plain class
    Protocol = object

__all__ = ["Result", "Solver", "SteeringSolver", "SettlingSolver", "can_steer", "can_settle",
           "Capabilities", "STATUSES", "OK_STATUSES", "counted_status",
           "result_of", "verify", "exit_code", "EXIT_OK", "EXIT_FAILED", "EXIT_USAGE", "EXIT_WRONG", "EXIT_INTERRUPTED"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_WRONG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

#: Status -> (exit code, meaning), the table in the module docstring.
STATUSES: dict[str, tuple[int, str]] = {
    "solved": (EXIT_OK, "a solution was found and verified (not counted)"),
    "unique": (EXIT_OK, "counted: exactly one solution"),
    "multiple": (EXIT_OK, "counted: two or more solutions"),
    "unsolvable": (EXIT_FAILED, "no solution exists"),
    "timeout": (EXIT_FAILED, "the time limit ran out first"),
    "invalid": (EXIT_FAILED, "the puzzle could not be read, or its givens clash"),
    "refused": (EXIT_FAILED, "the formula would be over the size limit"),
    "error": (EXIT_WRONG, "an answer failed verification, or two solvers disagreed"),
}

#: Statuses that mean the puzzle was answered.
OK_STATUSES = ("solved", "unique", "multiple")


def exit_code(status: str, *, multiple_ok: bool = True) -> int:
    """The exit code one puzzle's ``status`` calls for (``multiple`` fails ``solve --unique``).

    >>> exit_code("unique"), exit_code("multiple", multiple_ok=False), exit_code("error")
    (0, 1, 3)
    """
    if status == "multiple" and not multiple_ok:
        return EXIT_FAILED
    return STATUSES[status][0]


@record
class Result:
    """The outcome of solving one puzzle (see the contract in the module docstring).

    ``limit`` is the count asked for (1: find one solution). ``stats`` holds the stage times
    (``encode_ms``, ``load_ms``, ``solve_ms``; ``parse_ms`` and ``verify_ms`` are added by the
    caller) and solver figures: SAT gives variables, clauses, conflicts, decisions,
    propagations; native gives nodes, guesses, backtracks, no_guess. ``proof`` says what
    backs an ``unsolvable`` or ``unique`` answer when one was asked for (``--proof``: the
    files, the checkers that accepted it; :meth:`satdoku.sat.proofs.Certificate.record`).
    """

    status: str
    solution: Grid | None = None
    count: int | None = None
    second: Grid | None = None
    solver: str = ""
    encoding: str | None = None
    time_ms: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    message: str | None = None
    limit: int = 1
    proof: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        """True for the statuses that mean the puzzle was answered."""
        return self.status in OK_STATUSES

    @property
    def at_limit(self) -> bool:
        """True when counting stopped at the limit (there may be more solutions)."""
        return self.count is not None and self.limit >= 2 and self.count >= self.limit

    def __repr__(self) -> str:
        """The status (and count, solver and message), then the solution as rows."""
        from .display import text_of
        count = f" ({self.count} found)" if self.count is not None and self.limit >= 2 else ""
        by = f" by {self.solver}" if self.solver else ""
        said = f": {self.message}" if self.message else ""
        rows = text_of(self.solution) if self.solution is not None else ""
        return f"<Result {self.status}{count}{by}{said}>" + (f"\n{rows}" if rows else "")

    def _repr_svg_(self) -> str | None:
        """The solution as a picture, for Jupyter."""
        from .display import svg_of
        return svg_of(self.solution) if self.solution is not None else None

    # A result travels between processes as a plain tuple of its fields, its grids as bytes:
    # pickling whole Result objects cost the parent about as much as parsing the puzzles.

    def pack(self, size: int) -> tuple[Any, ...]:
        """This result as a plain tuple (the grids of a ``size`` x ``size`` puzzle packed; a
        jigsaw's grid whole, since its regions may be ones the solver found)."""
        return tuple((v if v.geometry.regions else pack_cells(v.cells, size))
                     if isinstance(v, Grid) else v
                     for v in (getattr(self, name) for name in _FIELDS))

    @classmethod
    def unpack(cls, geometry: Geometry, packed: tuple[Any, ...]) -> "Result":
        """The result :meth:`pack` packed, for a puzzle of ``geometry``.

        >>> from satdoku.model.geometry import geometry
        >>> r = Result("solved", Grid(geometry(2, 2), (1,) * 16), time_ms=2.5)
        >>> Result.unpack(r.solution.geometry, r.pack(4)) == r
        True
        """
        values = dict(zip(_FIELDS, packed))
        for name in _GRIDS:
            if not isinstance(values[name], Grid):
                values[name] = unpack_grid(geometry, values[name])
        return cls(**values)


_FIELDS = tuple(f.name for f in fields(Result))
_GRIDS = ("solution", "second")


def counted_status(count: int) -> str:
    """The status for a puzzle counted up to a limit of at least 2."""
    return "unsolvable" if count == 0 else "unique" if count == 1 else "multiple"


#: The errors that end a task's work on one puzzle with a status instead of an answer: the time
#: limit, the clause limit, and a fault of satdoku's or a solver's (a wrong solution, a solver
#: that gave no usable answer). :func:`status_of` is the one place they become statuses.
ENDINGS = (TimeUp, TooBigError, InternalError, SolverError)


def status_of(error: Exception, deadline: Deadline | None = None,
              found: int | None = None) -> tuple[str, str]:
    """The status and message of an answer whose work ``error`` (one of :data:`ENDINGS`)
    ended: ``timeout`` (``deadline`` says what was found by then: ``found`` solutions),
    ``refused`` (too big a formula), or ``error``.

    >>> status_of(TooBigError("the formula has 12 clauses, over the limit of 10"))
    ('refused', 'the formula has 12 clauses, over the limit of 10')
    """
    if isinstance(error, TimeUp):
        return "timeout", (deadline.message(found) if deadline is not None
                           else "the time limit was reached")
    if isinstance(error, TooBigError):
        return "refused", error.message
    if isinstance(error, InternalError):
        return "error", f"internal error: {error.message}"
    if isinstance(error, SolverError):
        return "error", error.message
    raise error


class Answer:
    """What every task's answer has (its record declares them): ``status`` (a name of
    :data:`STATUSES`), ``message`` (what more a status says) and ``time_ms``. :meth:`end`
    records the error that ended the work (:func:`status_of`)."""

    status: str
    message: str | None
    time_ms: float

    def end(self, error: Exception, deadline: Deadline | None = None,
            found: int | None = None) -> None:
        self.status, self.message = status_of(error, deadline, found)

    def summary(self) -> tuple[str, Any]:
        """What the answer says after its status, and the grid it shows (None: none): each
        answer's :meth:`__repr__` (a record of its own writes it with these)."""
        return "", None

    def shown(self) -> str:
        """``<Rating unique: hard, ER 2.3/EP 1.2/ED 1.2 (Naked Single)>`` and the grid's rows:
        how an answer shows itself in a REPL, as a :class:`Result` does (its fields, paths
        and ladders included, are attributes; the record's own repr would print them all)."""
        from .display import text_of
        said, grid = self.summary()
        message = f": {self.message}" if self.message else ""
        rows = text_of(grid) if grid is not None else ""
        head = f"<{type(self).__qualname__} {self.status}{said}{message}>"
        return head + (f"\n{rows}" if rows else "")


def result_of(status: str, solutions: list[Grid], *, limit: int, solver: str,
              encoding: str | None, time_ms: float, stats: dict[str, Any] | None = None,
              message: str | None = None) -> Result:
    """The :class:`Result` of a solve or count that found ``solutions`` (in order) and ended
    in ``status``, keeping the contract of the module docstring: a count only when counted
    (and not refused or wrong), no solution for a search that timed out or went wrong.

    >>> result_of("timeout", [], limit=2, solver="sat", encoding=None, time_ms=1.0).count
    0
    """
    if status == "error" or (status == "timeout" and limit < 2):
        solutions = []
    counted = limit >= 2 and status not in ("refused", "error", "invalid")
    return Result(status, solutions[0] if solutions else None,
                  len(solutions) if counted else None,
                  solutions[1] if len(solutions) > 1 else None, solver, encoding, time_ms,
                  stats if stats is not None else {}, message, limit)


@record(frozen=True)
class Capabilities:
    """What a solver can do, declared by it (callers ask; nobody probes).

    - ``rules``: takes a variant puzzle's rules.
    - ``assumptions``: answers questions under assumptions on one loaded formula: minimal cores
      (explain), solutions with a cell assumed (candidates), other solutions (generate).
    - ``time_limit``: keeps a ``--timeout``.
    - ``conflicts``: counts conflicts and keeps conflict budgets (rate's score, generate).
    - ``steer``: counts in a batch may steer each new solve away from the solutions found
      (faster, but another second solution than a count alone finds).
    - ``settle``: answers a batch of classic puzzles at once where propagation settles them
      (``settle(grids, limit)``, the bit-sliced pass of :mod:`satdoku.sat.sliced`).
    """

    rules: bool = True
    assumptions: bool = True
    time_limit: bool = True
    conflicts: bool = True
    steer: bool = False
    settle: bool = False

    @classmethod
    def needs(cls, *names: str) -> "Capabilities":
        """What a task needs: the capabilities ``names``, nothing else.

        >>> Capabilities.needs("assumptions").conflicts
        False
        """
        return cls(**{f.name: f.name in names for f in fields(cls)})

    def missing(self, needs: "Capabilities") -> list[str]:
        """The capabilities ``needs`` asks for that these lack, by name.

        >>> Capabilities(assumptions=False).missing(Capabilities.needs("assumptions"))
        ['assumptions']
        """
        return [f.name for f in fields(self)
                if getattr(needs, f.name) and not getattr(self, f.name)]


def verify(result: Result, grid: Grid, constraints: tuple[Rule, ...] = ()) -> Result:
    """``result`` unchanged when its solutions are right for ``grid`` (and keep every variant
    constraint), else an ``error`` result saying what is wrong: the independent check every
    answer goes through (:func:`~satdoku.model.grid.solution_problems` belongs to no solver)."""
    def wrong(what: str) -> Result:
        return Result(status="error", solver=result.solver, encoding=result.encoding,
                      time_ms=result.time_ms, stats=result.stats, limit=result.limit,
                      message=f"internal error: {result.solver} {what}")

    for label, answer in (("solution", result.solution), ("second solution", result.second)):
        if answer is None:
            continue
        problems = solution_problems(answer, grid, constraints)
        if problems:
            return wrong(f"gave a wrong {label}: " + "; ".join(problems[:3]))
    if result.second is not None and result.second == result.solution:
        return wrong("counted one solution twice")
    if result.ok and result.solution is None:
        return wrong(f"said {result.status} without a solution")
    return result


class Solver(Protocol):
    """What every solver offers. One object may serve many puzzles of any geometry.

    ``solve(grid, limit=1)`` looks for one solution; ``limit >= 2`` counts solutions up to the
    limit. ``deadline`` bounds every stage (None: no limit). The grid's givens are already
    checked (no clash); the returned solution is not yet verified (see ``solvers.solve``).
    ``constraints`` are variant rules (:mod:`satdoku.rules`) the solution must also keep.
    """

    name: str
    encoding: str | None
    capabilities: Capabilities

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: tuple[Rule, ...] = ()) -> Result: ...

    def close(self) -> None: ...

    def __enter__(self) -> "Solver": ...

    def __exit__(self, *exc: object) -> None: ...


class SteeringSolver(Solver, Protocol):
    """A solver whose :class:`Capabilities` say ``steer``: setting :attr:`steer` lets counts
    in a batch steer each new solve away from the solutions found."""

    steer: bool


class SettlingSolver(Solver, Protocol):
    """A solver whose :class:`Capabilities` say ``settle``: :meth:`settle` answers the grids
    (classic, givens checked) that propagation settles, None for the others; :meth:`warm`
    says whether it has already built what a solver call on them needs."""

    def settle(self, grids: list[Grid], limit: int = 1) -> list[Result | None]: ...

    def warm(self, grids: list[Grid]) -> bool: ...


def can_steer(solver: Solver) -> TypeGuard[SteeringSolver]:
    """Whether ``solver`` can steer counts (its capabilities say so: nobody probes)."""
    return solver.capabilities.steer


def can_settle(solver: Solver) -> TypeGuard[SettlingSolver]:
    """Whether ``solver`` can settle a batch (its capabilities say so: nobody probes)."""
    return solver.capabilities.settle
