"""The solver registry, the one door every answer goes through, and the solve task.

``make_solver('sat', sat_solver='minisat22')`` or ``make_solver('native')`` gives an object with
the :class:`~satdoku.model.result.Solver` interface; :data:`SOLVERS` lists the methods.
:func:`solve` checks
the givens (a clash is ``invalid``), runs the solver under one deadline, and checks every
solution it returns with :func:`~satdoku.model.grid.solution_problems` (and each variant constraint's
own check), which belong to no solver; a solution that fails becomes status ``error``, never an
answer. :class:`SolveTask` solves or counts a stream of puzzles with solvers kept for all.
"""

from __future__ import annotations

import time

from ..budget import DEFAULT_MAX_CLAUSES
from ..deadline import NO_DEADLINE, Deadline
from ..errors import OptionError, PuzzleError, SatdokuError
from ..model.grid import Grid, check_givens, clash_free, solutions_right
from ..model.puzzle import Puzzle
from ..model.result import (ENDINGS, Capabilities, Result, Solver, can_settle, can_steer,
                            result_of, status_of, verify)
from ..records import replace
from ..sat.catalogue import check_sat_name
from .base import Outcome, Task, puzzle_deadline
from .commands import SETTLE_BATCH, CountOptions, SearchOptions, SolveOptions, search_options

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

__all__ = ["SOLVERS", "DEFAULT_SOLVER", "make_solver", "solve", "checked", "checked_at_once",
           "certified", "verify",
           "describe",
           "python_sat_version", "SolveOptions", "CountOptions", "search_options", "SolveTask",
           "racing"]


def _make_sat(sat_solver: str | None = None, encoding: str | None = None,
              amo: str | None = None, incremental: bool = True, stats: bool = True,
              max_clauses: int | None = DEFAULT_MAX_CLAUSES) -> Solver:
    from ..sat.config import SatConfig
    config = SatConfig(sat_solver, encoding, amo,
                       DEFAULT_MAX_CLAUSES if max_clauses is None else max_clauses)
    return config.solver(needs=Capabilities.needs(), incremental=incremental, stats=stats)


def _make_native(**_: Any) -> Solver:
    from ..native.search import NativeSolver
    return NativeSolver()


def _baseline(name: str) -> Callable[..., Solver]:
    def make(**_: Any) -> Solver:
        from ..native.baselines import BASELINES
        return BASELINES[name]()  # type: ignore[return-value]
    return make


#: Solving methods by name: SAT through python-sat, the native propagation search, and the
#: compiled search baselines (:mod:`satdoku.native.baselines`, optional packages).
SOLVERS: dict[str, Callable[..., Solver]] = {
    "sat": _make_sat, "native": _make_native,
    "exact-cover": _baseline("exact-cover"), "cp-sat": _baseline("cp-sat")}
DEFAULT_SOLVER = "sat"


def make_solver(method: str = DEFAULT_SOLVER, *, sat_solver: str | None = None,
                encoding: str | None = None, amo: str | None = None,
                incremental: bool = True, stats: bool = True,
                max_clauses: int | None = DEFAULT_MAX_CLAUSES, portfolio: int = 0,
                cube: int = 0, cube_on: str = "lookahead") -> Solver:
    """A solver for ``method`` (a name in :data:`SOLVERS`, or ``'exec:COMMAND'``, a search
    binary: :mod:`satdoku.sat.searchbin`); SAT options are ignored by the others.

    ``stats=False`` lets the SAT backend skip its per-puzzle solver figures (faster).
    ``sat_solver`` may be an external command (``'exec:kissat -q'``, :mod:`satdoku.sat.external`).
    ``portfolio`` K >= 1 (SAT only) races K configurations on each puzzle
    (:class:`satdoku.sat.portfolio.PortfolioSolver`): ``sat_solver`` and ``encoding``, when
    given, make the first configuration, then :data:`~satdoku.sat.portfolio.DEFAULT_PORTFOLIO`.
    ``cube`` D >= 1 (SAT only) cubes each puzzle to depth D (split ``cube_on`` lookahead
    literals or cells) and conquers the cubes on ``portfolio`` workers
    (:class:`satdoku.sat.cubes.CubeSolver`; 0 or 1: in this process).

    >>> with make_solver("sat", sat_solver="minisat22") as s:
    ...     s.name
    'sat:minisat22'
    """
    if method.startswith("exec:"):  # a search binary (a SAT binary is a sat_solver)
        from ..sat.searchbin import SearchBinary
        return SearchBinary(method)
    try:
        factory = SOLVERS[method]
    except KeyError:
        raise OptionError(f"unknown solver {method!r}; choose one of "
                          f"{', '.join(SOLVERS)}") from None
    if cube and method == "sat":
        from ..sat.cubes import CubeSolver
        return CubeSolver(cube, jobs=portfolio or 1, on=cube_on, sat_solver=sat_solver,
                          encoding=encoding, amo=amo, max_clauses=max_clauses)
    if portfolio and method == "sat":
        from ..sat.portfolio import DEFAULT_PORTFOLIO, Config, PortfolioSolver
        configs = list(DEFAULT_PORTFOLIO)
        if sat_solver is not None or encoding is not None:
            first = Config(check_sat_name(sat_solver) if sat_solver else DEFAULT_PORTFOLIO[0]
                           .sat_solver, encoding)
            configs = [first] + [c for c in configs if c != first]
        return PortfolioSolver(configs, jobs=portfolio, max_clauses=max_clauses)
    return factory(sat_solver=sat_solver, encoding=encoding, amo=amo, incremental=incremental,
                   stats=stats, max_clauses=max_clauses)


def solve(solver: Solver, grid: Grid, *, limit: int = 1, timeout: float | None = None,
          deadline: Deadline | None = None, constraints: tuple = (),
          givens_checked: bool = False) -> Result:
    """Solve ``grid`` with ``solver`` and verify the answer independently.

    Args:
        solver: from :func:`make_solver`.
        grid: the puzzle; givens that clash give status ``invalid`` (naming the cells).
        limit: 1 finds one solution; ``limit >= 2`` counts up to it (``unique``/``multiple``).
        timeout: seconds for the whole puzzle, every stage (or pass ``deadline``, made when
            reading the puzzle began, to count the reading too).
        constraints: variant rules (:mod:`satdoku.rules`) the solution must keep.
        givens_checked: the caller has checked the givens (the parser does), so they are not
            checked again.

    The time verification took is added to the stats as ``verify_ms`` (and the solver's
    time as ``solve_ms`` when it has no stages of its own), and the CPU time of this process
    the solver took as ``cpu_ms`` (an ``exec:`` solver's or a portfolio's children are not
    in it).

    >>> from satdoku.model.geometry import geometry
    >>> with make_solver() as s:
    ...     solve(s, Grid(geometry(2, 2), (1, 1) + (0,) * 14)).message
    'r1c2: 1 repeats the given at r1c1'
    """
    if limit < 1:
        raise OptionError(f"limit must be at least 1, not {limit}")
    cells = grid.cells
    if not givens_checked and not (0 <= min(cells) and max(cells) <= grid.size
                                   and clash_free(grid)):
        try:
            check_givens(grid)
        except PuzzleError as error:
            return Result("invalid", solver=solver.name, encoding=solver.encoding, limit=limit,
                          message=error.detail)
    if deadline is None:
        deadline = Deadline(timeout)
    cpu = time.process_time()
    if constraints:
        if not solver.capabilities.rules:
            return Result("refused", solver=solver.name, encoding=solver.encoding, limit=limit,
                          message=f"{solver.name} cannot solve variant puzzles")
        try:
            result = solver.solve(grid, limit=limit, deadline=deadline, constraints=constraints)
        except OptionError as error:  # this puzzle's rules and the encoding: the batch goes on
            return Result("refused", solver=solver.name, encoding=solver.encoding, limit=limit,
                          message=error.message)
    else:
        result = solver.solve(grid, limit=limit, deadline=deadline)
    result.stats["cpu_ms"] = (time.process_time() - cpu) * 1000
    return checked(result, grid, constraints)


def checked(result: Result, grid: Grid, constraints: tuple = ()) -> Result:
    """``result`` through :func:`~satdoku.model.result.verify`, with the time verification
    took as ``verify_ms`` (and the solver's time as ``solve_ms`` when it has no stages of
    its own). An answer to a puzzle whose rules draw regions gets them first (chaos
    construction: :func:`satdoku.sat.regions.with_regions`), so that they are verified too."""
    start = time.perf_counter()
    if constraints and not grid.geometry.has_boxes:
        from ..sat.regions import with_regions
        if result.solution is not None:
            result.solution = with_regions(result.solution, constraints)
        if result.second is not None:
            result.second = with_regions(result.second, constraints)
    result = verify(result, grid, constraints)
    stats = result.stats
    stats["verify_ms"] = (time.perf_counter() - start) * 1000
    if "solve_ms" not in stats:  # a solver with one stage: all its time is solving
        stats["solve_ms"] = result.time_ms
    return result


def checked_at_once(results: list[Result], grids: list[Grid]) -> bool:
    """Whether every one of ``results`` (answers to ``grids``, no variant rules) is right,
    verified all at once (:func:`~satdoku.model.grid.solutions_right`, about a third of the
    time a 9x9 takes alone); then each gets its share of that time as ``verify_ms``, as
    :func:`checked` would give it. False: check each (:func:`checked` says what is wrong)."""
    if not results:
        return True
    start = time.perf_counter()
    if not all(r.solution is not None and r.second is None for r in results) or \
            not solutions_right([r.solution for r in results if r.solution is not None], grids):
        return False
    share = (time.perf_counter() - start) * 1000 / len(results)
    for result in results:
        result.stats["verify_ms"] = share
        result.stats.setdefault("solve_ms", result.time_ms)
    return True


def certified(result: Result, puzzle: Puzzle, options: SearchOptions,
              deadline: Deadline = NO_DEADLINE) -> Result:
    """``result`` backed by a proof when ``options.proof`` names a folder and the answer is a
    claim a proof backs (``unsolvable``; ``unique``: no solution but this one): the puzzle's
    CNF and DRAT proof written there and checked (:func:`satdoku.sat.proofs.certify`), what
    backs it in ``result.proof``. A proof that fails to check, or a proof run that finds the
    claim wrong, makes the answer status ``error``; the time and clause limits bound the
    proof run as they bound the solve (status ``timeout``, ``refused``)."""
    if options.proof is None:  # before the import: sat.proofs costs 90 ms to import
        return result
    from ..sat.proofs import CLAIMS, certify
    claim = result.status
    if claim not in CLAIMS:
        return result
    import os
    from ..io.text import format_grid
    grid = puzzle.valid_grid
    try:
        cert = certify(grid, claim, os.path.join(options.proof, puzzle.file_stem()),
                       solution=result.solution if claim == "unique" else None,
                       encoding=options.encoding, amo=options.amo,
                       constraints=puzzle.constraints, sat_solver=options.sat_solver,
                       max_clauses=options.clause_limit, deadline=deadline,
                       puzzle_text=format_grid(grid, "line", puzzle.alphabet))
    except ENDINGS as error:
        status, message = status_of(error, deadline, 1 if claim == "unique" else None)
        return _ended(result, status, f"{message} while proving the answer '{claim}'")
    except SatdokuError as error:
        return _ended(result, "error", f"no proof of '{claim}': {error}")
    if not cert.ok:
        result = _ended(result, "error", cert.summary())
    result.proof = cert.record()
    return result


def _ended(result: Result, status: str, message: str) -> Result:
    """``result`` turned into ``status`` (keeping what the contract lets it keep)."""
    solutions = [g for g in (result.solution, result.second) if g is not None]
    return result_of(status, solutions, limit=result.limit, solver=result.solver,
                     encoding=result.encoding, time_ms=result.time_ms, stats=result.stats,
                     message=message)


def racing(options: SearchOptions, jobs: int, *, scheduler: str | None,
           single: Callable[[], bool]) -> tuple[SearchOptions, int]:
    """The options and worker count to solve with: a portfolio of configurations racing on
    each puzzle when ``requested`` (``--portfolio``) or when ``jobs`` would leave cores idle
    on a ``single`` puzzle (read ahead only when it matters); the cores then race on each
    puzzle in turn. With ``cube`` the ``jobs`` workers conquer each puzzle's cubes in turn.
    OptionError when a portfolio or cubes cannot be (native search, Dask).

    >>> racing(SolveOptions(), 1, scheduler=None, single=lambda: True)[1]
    1
    """
    requested = options.portfolio
    if options.cube:
        if options.solver != "sat" or scheduler is not None or requested:
            raise OptionError("--cube conquers with SAT on --jobs workers: it takes neither "
                              "--solver native, --scheduler nor --portfolio")
        from ..children import worker_count
        return replace(options, racers=worker_count(jobs)), 1
    if options.solver == "sat" and scheduler is None and (requested or jobs != 1):
        from ..sat.portfolio import portfolio_size
        size = portfolio_size(jobs, requested=requested, single=not requested and single())
        if size:
            return replace(options, racers=size), 1
    elif requested:
        raise OptionError("--portfolio races SAT configurations: it takes neither "
                          "--solver native nor --scheduler")
    return options, jobs


#: The pre-pass goes on while at least this share of a batch's puzzles is settled by it, and
#: takes batches of at least this many puzzles once the solver is built (a stream's last few
#: go to it; a stream of a few puzzles is passed first: see SatSolver.warm).
SETTLE_MIN_SHARE, SETTLE_MIN_PUZZLES = 0.2, 64


class SolveTask(Task):
    """Solves (``limit`` 1) or counts puzzles one at a time, with solvers kept for the whole
    stream; every answer verified, and with ``check`` compared with the other method's.

    A stream of classic puzzles on one incremental SAT solver (no time limit, no check, no
    portfolio) is taken in batches (:attr:`batch`) whose puzzles unit propagation settles are
    answered without a solver call (:meth:`satdoku.sat.fast.FastPath.settle`); the pre-pass stops for the
    rest of the stream when a batch settles less than :data:`SETTLE_MIN_SHARE` of its puzzles
    (a batch of hard puzzles gives up after a few rounds: see ``busy`` of
    :func:`satdoku.sat.sliced.settle`).
    """

    label = "solving"
    checks_clashes = True  # run and run_many: see Puzzle.unchecked

    def __init__(self, options: SearchOptions) -> None:
        self.options = options
        self.label = "solving" if options.most < 2 else "counting"
        self.solver = self._solver(options.solver)
        self.other = None
        if options.check:
            self.other = self._solver("native" if options.solver == "sat" else "sat")
        for solver in (self.solver, self.other):
            if solver is not None and can_steer(solver):  # see SatSolver.steer
                solver.steer = True
        o = options
        settles = self.solver.capabilities.settle and o.incremental and not o.check and \
            not o.racers and o.timeout is None
        self.batch = SETTLE_BATCH if settles else 1

    def _solver(self, method: str) -> Solver:
        o = self.options
        return make_solver(method, sat_solver=o.sat_solver, encoding=o.encoding, amo=o.amo,
                           incremental=o.incremental, stats=o.stats, max_clauses=o.clause_limit,
                           portfolio=o.racers if method == "sat" else 0,
                           cube=o.cube if method == "sat" else 0, cube_on=o.cube_on)

    def run_many(self, puzzles: list[Puzzle]) -> Iterator[Outcome]:
        """The outcomes of ``puzzles`` in order, the ones propagation settles first of all."""
        if self.batch <= 1:
            yield from map(self.run, puzzles)
            return
        ready = [p for p in puzzles if p.error is None and p.grid is not None and
                 not p.constraints]
        # A pass over a few puzzles costs more than it saves (batch > 1: the solver settles)
        # once the solver is built; before that, settling them all saves building it.
        if not can_settle(self.solver) or not ready or len(ready) < SETTLE_MIN_PUZZLES and \
                self.solver.warm([p.valid_grid for p in ready]):
            yield from map(self.run, puzzles)
            return
        settled = self.solver.settle([p.valid_grid for p in ready], self.options.most)
        done = [(p, r) for p, r in zip(ready, settled) if r is not None]
        self.batch = SETTLE_BATCH if len(done) >= SETTLE_MIN_SHARE * len(puzzles) else 1
        answers: dict[int, Result] = {}
        if checked_at_once([r for _, r in done], [p.valid_grid for p, _ in done]):
            for puzzle, answer in done:  # right answers keep the givens: no two clash
                puzzle.unchecked = False
                answers[id(puzzle)] = answer
        else:
            for puzzle, answer in done:
                if puzzle.check_clashes().ok:  # a clash: run() answers it as invalid
                    answers[id(puzzle)] = checked(answer, puzzle.valid_grid)
        for puzzle in puzzles:
            found = answers.get(id(puzzle))
            if found is None:
                yield self.run(puzzle)
                continue
            found = certified(found, puzzle, self.options)
            found.stats["parse_ms"] = puzzle.parse_ms
            yield Outcome(puzzle, found, [])

    def run(self, puzzle: Puzzle) -> Outcome:
        """The verified outcome of one puzzle (its givens checked by the reader, or here when
        the reader left them: :attr:`~satdoku.model.puzzle.Puzzle.unchecked`); Ctrl-C on the
        way carries the puzzle it stopped (``KeyboardInterrupt.puzzle``)."""
        if puzzle.error is not None or puzzle.check_clashes().error is not None or \
                puzzle.grid is None:
            return self.invalid(puzzle)
        try:
            return self._run(puzzle)
        except KeyboardInterrupt as stop:
            stop.puzzle = puzzle  # type: ignore[attr-defined]
            raise

    def _run(self, puzzle: Puzzle) -> Outcome:
        o, grid, constraints = self.options, puzzle.valid_grid, puzzle.constraints
        deadline = puzzle_deadline(o.timeout, puzzle)
        if self.other is None:
            result = solve(self.solver, grid, limit=o.most, deadline=deadline,
                           constraints=constraints, givens_checked=True)
            problems: list[str] = []
        else:
            from .agree import disagreements
            limit = max(o.most, 2)
            result = solve(self.solver, grid, limit=limit, deadline=deadline,
                           constraints=constraints, givens_checked=True)
            other = solve(self.other, grid, limit=limit, constraints=constraints,
                          givens_checked=True, deadline=puzzle_deadline(o.timeout, puzzle))
            problems = disagreements(result, other)
        result = certified(result, puzzle, o, deadline)
        result.stats["parse_ms"] = puzzle.parse_ms
        return Outcome(puzzle, result, problems)

    @classmethod
    def invalid(cls, puzzle: Puzzle) -> Outcome:
        message = puzzle.error.detail if puzzle.error is not None else "no puzzle"
        return Outcome(puzzle, Result(status="invalid", message=message))

    def pack(self, outcome: Outcome) -> tuple:
        return outcome.result.pack(outcome.puzzle.geometry.size), outcome.disagreements

    @classmethod
    def unpack(cls, puzzle: Puzzle, packed: tuple) -> Outcome:
        result, problems = packed
        return Outcome(puzzle, Result.unpack(puzzle.geometry, result), problems)

    def close(self) -> None:
        self.solver.close()
        if self.other is not None:
            self.other.close()


def describe() -> dict[str, Any]:
    """What ``satdoku solvers`` shows: methods, SAT solvers, encodings, at-most-one encodings,
    the defaults, and python-sat's version."""
    from ..cnf.encodings import (AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING,
                                 DEFAULT_REDUCED_AMO, ENCODINGS, PAIRWISE_MAX)
    from ..cnf.policy import REDUCED_MIN_SIZE
    from ..sat.catalogue import DEFAULT_SAT_SOLVER, SAT_SOLVERS
    return {
        "solvers": list(SOLVERS), "default_solver": DEFAULT_SOLVER,
        "sat_solvers": [{"name": name, "default": name == DEFAULT_SAT_SOLVER,
                         "time_limit": info.interrupt or info.budget, "note": info.note}
                        for name, info in SAT_SOLVERS.items()],
        "encodings": [{"name": e.name, "description": e.description,
                       "default": (f"below {REDUCED_MIN_SIZE}x{REDUCED_MIN_SIZE}"
                                   if e.name == DEFAULT_ENCODING else
                                   f"from {REDUCED_MIN_SIZE}x{REDUCED_MIN_SIZE}"
                                   if e.reduced else None)}
                      for e in ENCODINGS.values()],
        "amo": list(AMO_ENCODINGS), "default_amo": DEFAULT_AMO,
        "default_reduced_amo": DEFAULT_REDUCED_AMO, "pairwise_max": PAIRWISE_MAX,
        "python_sat": python_sat_version(),
    }


def python_sat_version() -> str:
    """The installed python-sat's version (its package says it: importlib.metadata took 15
    ms of ``satdoku --version``)."""
    import pysat
    found = getattr(pysat, "__version__", None)
    if isinstance(found, str):
        return found
    from importlib.metadata import PackageNotFoundError, version  # pragma: no cover
    try:  # pragma: no cover (a python-sat without __version__)
        return version("python-sat")
    except PackageNotFoundError:  # pragma: no cover (an unusual install)
        return "unknown"
