"""Benchmarks: solve the puzzles of files with several solvers and summarise each run as a row.

The harness follows tdoku's: every answer is verified in an untimed warm-up pass, then the
puzzles are timed one by one in an order permuted with a fixed seed. One solver object serves
a whole (file, solver, encoding) group, so the SAT backend takes its incremental fast path.
The warm-up runs on a solver of its own, never on the measured one: an incremental SAT solver
keeps the clauses it learnt, and one that had solved the measured puzzles once would decide
less on them the second time (measured in docs/sat-vs-search.md). The measured solver is made
ready instead by solving one complete grid per geometry (a warm-up solution: the base formula
is built and loaded, propagation settles it, nothing is learnt), so no puzzle is charged for
building the formula. Later passes of ``repeats`` do run on what the earlier ones taught.

Glossary (adds to :mod:`satdoku.model.geometry`):

- solver label: ``'sat:NAME'`` (a python-sat solver), the command of an external solver as
  written (``'exec:cadical -q'``, :mod:`satdoku.sat.external`; compared side by side with the
  python-sat ones), ``'native'`` (the propagation search), a compiled search baseline
  (``'exact-cover'``, ``'cp-sat'``: :mod:`satdoku.native.baselines`) or a search binary's
  command (``--solver 'exec:qqwing --solve --one-line'``: :mod:`satdoku.sat.searchbin`).
  Encodings apply to SAT only. ``exec:`` solvers, SAT or search, are charged the CPU time of
  their own process (the row's ``clock``).
- group: one (file, solver label, encoding); it gives one :class:`BenchRow`.
- answered: a puzzle the solver settled (solved, unique, multiple or unsolvable), as opposed to
  a timeout, an invalid puzzle, a refusal or an error.

The library never prints: :func:`run_bench` yields rows, and :mod:`satdoku.output.bench` turns
them into a table, CSV or JSON Lines, or draws them.
"""

from __future__ import annotations

import functools
import os
import random
import time
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..deadline import Deadline
from ..errors import OptionError, SatdokuError
from ..model.puzzle import Puzzle
from ..model.result import Result
from ..records import record
from ..tasks.solvers import SOLVERS, make_solver, solve, verify
from .records import COLUMNS, BenchRow, summarise
from ..sat.catalogue import check_sat_name, is_exec
from ..cnf.policy import choose_encoding

__all__ = ["BenchRow", "BenchInterrupted", "COLUMNS", "Group", "LEVEL_CHOICES", "check_groups",
           "measure_levels", "run_bench", "summarise"]

#: What ``levels`` of :func:`run_bench` can ask for, the default last.
LEVEL_CHOICES = ("none", "propagation", "failed-literals")

#: Called as ``progress(done, total, label)``: steps (one puzzle in one pass) done of all.
Progress = Callable[[int, int, str], None]


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a group: ``row`` holds the figures of the puzzles finished (``partial``)."""

    def __init__(self, row: BenchRow) -> None:
        super().__init__()
        self.row = row


@record(frozen=True)
class Group:
    """What one row measures: a solver (``'sat'`` or ``'native'``), for SAT a python-sat
    solver and an encoding (None: by grid size)."""

    solver: str
    sat_solver: str | None = None
    encoding: str | None = None

    @property
    def label(self) -> str:
        if self.solver != "sat":
            return self.solver
        # An external command is shown as written: two commands may run the same program.
        return self.sat_solver if is_exec(self.sat_solver) else f"sat:{self.sat_solver}"


def check_groups(solvers: Iterable[str] = (), sat_solvers: Iterable[str] = (),
                 encodings: Iterable[str] = ()) -> list[Group]:
    """The groups to run for each file, duplicates dropped: every SAT solver with every
    encoding, and native search once. No solvers named: SAT (when SAT solvers are named) or
    SAT and native. Raises :class:`OptionError` for an unknown name.

    >>> [g.label for g in check_groups(["native", "native"], [], ["minimal", "extended"])]
    ['native']
    >>> check_groups([], ["g4"], [])
    [Group(solver='sat', sat_solver='glucose4', encoding=None)]
    >>> [g.label for g in check_groups([], ["exec:sh -c true", "cadical195"], [])]
    ['exec:sh -c true', 'sat:cadical195']
    """
    from ..cnf.encodings import check_encoding
    from ..sat.catalogue import DEFAULT_SAT_SOLVER
    named = [check_sat_name(name) for name in sat_solvers]
    encodings = list(encodings)
    for name in encodings:
        check_encoding(name)
    solvers = list(solvers) or (["sat"] if named or encodings else ["sat", "native"])
    sat_solvers = named or [DEFAULT_SAT_SOLVER]
    chosen: list[str | None] = [*encodings] or [None]
    groups: list[Group] = []
    for solver in solvers:
        if solver not in SOLVERS and not is_exec(solver):
            raise OptionError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}")
        if solver not in ("sat", "native"):
            # A baseline's package or a search binary's program: missing says so here, before
            # any puzzle is read.
            make_solver(solver).close()
        wanted = ([Group("sat", s, e) for s in sat_solvers for e in chosen] if solver == "sat"
                  else [Group(solver)])
        groups += [g for g in wanted if g not in groups]
    return groups


def _load(path: str, first: int | None, box: tuple[int, int] | None,
          alphabet: str | None) -> list[Puzzle]:
    from ..io.inputs import iter_inputs
    if not os.path.exists(path):
        raise SatdokuError("cannot read: No such file or directory", source=path)
    puzzles: list[Puzzle] = []
    for puzzle in iter_inputs([path], box=box, alphabet=alphabet):
        if first is not None and len(puzzles) >= first:
            break
        puzzles.append(puzzle)
    return puzzles


def measure_levels(puzzles: Sequence[Puzzle], encoding: str | None, *, probe: bool = True,
                   step: Callable[[], None] | None = None) -> list[str | None]:
    """The level of each puzzle in ``encoding`` (:mod:`satdoku.sat.levels`; None: by grid
    size), in order."""
    from ..sat.levels import Levels
    by_encoding: dict[str, Levels] = {}
    out: list[str | None] = []
    try:
        for puzzle in puzzles:
            grid = puzzle.valid_grid
            name = encoding or choose_encoding(grid.size)
            levels = by_encoding.get(name)
            if levels is None:
                levels = by_encoding[name] = Levels(name, probe=probe)
            out.append(levels.level(grid, puzzle.constraints))
            if step is not None:
                step()
    finally:
        for levels in by_encoding.values():
            levels.close()
    return out


def _row(path: str, puzzles: list[Puzzle], group: Group, limit: int,
         seed: int) -> tuple[BenchRow, list[Puzzle]]:
    """The empty row of a group and its valid puzzles in the seeded order."""
    valid = [p for p in puzzles if p.error is None and p.grid is not None]
    size = valid[0].geometry.size if valid else None
    encoding = group.encoding
    if group.solver == "sat" and encoding is None and size is not None:
        encoding = choose_encoding(size)
    row = BenchRow(source=path, size=size, solver=group.label, encoding=encoding, limit=limit,
                   invalid=len(puzzles) - len(valid),
                   clock="solver-cpu" if is_exec(group.sat_solver) or is_exec(group.solver)
                   else "wall")
    random.Random(seed).shuffle(valid)
    return row, valid


class _Timed:
    """What the timed passes of one group measured: per pass the results and the times
    charged, and (``per_puzzle``) a record per solve for the row's ``puzzle_rows``."""

    def __init__(self, row: BenchRow, seed: int, levels: dict[int, str | None],
                 per_puzzle: bool, timeout: float | None) -> None:
        self.row, self.seed, self.levels, self.per_puzzle = row, seed, levels, per_puzzle
        self.timeout = timeout
        self.passes: list[tuple[list[Result], list[float]]] = []

    def order(self, valid: list[Puzzle], repeat: int) -> list[Puzzle]:
        """The puzzles of pass ``repeat`` (1, 2, ...): the first in the row's seeded order,
        each later one shuffled again with the seed plus its number."""
        self.passes.append(([], []))
        if repeat == 1:
            return valid
        again = list(valid)
        random.Random(self.seed + repeat - 1).shuffle(again)
        return again

    def add(self, puzzle: Puzzle, result: Result, wall_ms: float,
            cpu_ms: float | None) -> None:
        results, times = self.passes[-1]
        results.append(result)
        # An exec: solver is charged its own process's CPU (row.clock), a timeout the limit.
        cpu = result.stats.get("solver_cpu_ms")
        charged = cpu if cpu is not None and self.row.clock == "solver-cpu" \
            and result.status != "timeout" else wall_ms
        times.append(charged)
        if self.per_puzzle:
            from .records import puzzle_record
            row = self.row
            self.row.puzzle_rows.append(puzzle_record(
                puzzle, result, solver=row.solver, encoding=row.encoding, limit=row.limit,
                repeat=len(self.passes), seed=self.seed + len(self.passes) - 1,
                wall_ms=wall_ms, cpu_ms=cpu_ms, level=self.levels.get(id(puzzle)),
                time_ms=charged, time_limit_s=self.timeout))

    def summary(self, partial: bool = False) -> BenchRow:
        """The row, summarised over the passes done (the last one cut short: ``partial``)."""
        self.row.partial = partial
        done = [p for p in self.passes if p[0]]
        if partial and len(done) > 1:
            done = done[:-1]  # a pass cut short would skew the times of the whole ones
        results, times = done[0] if done else ([], [])
        return summarise(self.row, results, times, list(self.levels.values()),
                         [t for _, t in done], self.timeout)


def _run_group_parallel(path: str, puzzles: list[Puzzle], group: Group, *, limit: int,
                        timeout: float | None, seed: int, warmup: bool,
                        step: Callable[[], None], jobs: int, repeats: int = 1,
                        levels: dict[int, str | None] | None = None,
                        per_puzzle: bool = False) -> BenchRow:
    """One group on a process pool: warm-up pass (verified in the workers), then the timed
    passes (per puzzle, the wall and CPU times measured in the worker)."""
    from ..tasks.solvers import search_options
    from .stream import stream
    row, valid = _row(path, puzzles, group, limit, seed)
    timed = _Timed(row, seed, levels or {}, per_puzzle, timeout)
    options = search_options(limit, solver=group.solver, sat_solver=group.sat_solver,
                             encoding=group.encoding, timeout=timeout, stats=True)
    walls = []
    try:
        if warmup:
            for _ in stream(valid, options, jobs=jobs):
                step()
        for repeat in range(1, repeats + 1):
            start = time.perf_counter()
            for outcome in stream(timed.order(valid, repeat), options, jobs=jobs):
                r = outcome.result
                timed.add(outcome.puzzle, r, _charged(r, timeout), r.stats.get("cpu_ms"))
                step()
            walls.append(time.perf_counter() - start)
    except KeyboardInterrupt:
        raise BenchInterrupted(timed.summary(partial=True)) from None
    row = timed.summary()
    if row.puzzles_per_s is not None:
        row.seconds = sum(walls)
        row.puzzles_per_s = len(valid) * len(walls) / row.seconds
    return row


def _charged(r: Result, timeout: float | None) -> float:
    """A puzzle's time as measured by the solver, a timeout counted at the time limit."""
    return timeout * 1000.0 if r.status == "timeout" and timeout is not None else r.time_ms


def _run_group(path: str, puzzles: list[Puzzle], group: Group, *, limit: int,
               timeout: float | None, seed: int, warmup: bool,
               step: Callable[[], None], repeats: int = 1,
               levels: dict[int, str | None] | None = None,
               per_puzzle: bool = False) -> BenchRow:
    """One group: warm-up (verify) pass, then the timed passes in seeded random orders."""
    row, valid = _row(path, puzzles, group, limit, seed)
    timed = _Timed(row, seed, levels or {}, per_puzzle, timeout)
    def made() -> Any:
        return make_solver(group.solver, sat_solver=group.sat_solver, encoding=group.encoding)

    solver = made()
    warm: dict[int, Result] = {}
    try:
        if warmup:
            # Verified on a solver of its own: an incremental SAT solver that had solved the
            # measured puzzles would keep what it learnt from them (docs/sat-vs-search.md).
            with made() as checker:
                for puzzle in valid:
                    warm[id(puzzle)] = solve(checker, puzzle.valid_grid, limit=limit,
                                             timeout=timeout, constraints=puzzle.constraints)
                    step()
            _prime(solver, valid, warm, limit, timeout)
        for repeat in range(1, repeats + 1):
            for puzzle in timed.order(valid, repeat):
                timed.add(puzzle, *_timed_solve(solver, puzzle, warm.get(id(puzzle)),
                                                limit, timeout))
                step()
    except KeyboardInterrupt:
        if not any(results for results, _ in timed.passes) and warm:
            # Stopped during the warm-up: its figures are all there is.
            timed.order(valid, 1)
            for puzzle in valid:
                if id(puzzle) in warm:
                    timed.add(puzzle, warm[id(puzzle)], warm[id(puzzle)].time_ms, None)
        raise BenchInterrupted(timed.summary(partial=True)) from None
    finally:
        solver.close()
    return timed.summary()


def _prime(solver: Any, valid: list[Puzzle], warm: dict[int, Result], limit: int,
           timeout: float | None) -> None:
    """Make ``solver`` ready for each geometry of ``valid`` without showing it a measured
    puzzle: it solves one complete grid a geometry (a warm-up solution, all of it given), which
    loads the base formula and settles by propagation alone, so nothing is learnt."""
    seen = set()
    for puzzle in valid:
        answer = warm.get(id(puzzle))
        geo = puzzle.valid_grid.geometry
        if geo in seen or answer is None or answer.solution is None:
            continue
        seen.add(geo)
        solve(solver, answer.solution, limit=limit, timeout=timeout,
              constraints=puzzle.constraints)


def _timed_solve(solver: Any, puzzle: Puzzle, before: Result | None, limit: int,
                 timeout: float | None) -> tuple[Result, float, float | None]:
    """One timed solve: (verified result, wall ms charged, CPU ms of this process)."""
    if before is not None and before.status in ("timeout", "refused"):
        # Not run again: it would only burn the time limit a second time.
        return before, (timeout or 0) * 1000.0, None
    start, cpu = time.perf_counter(), time.process_time()
    deadline = Deadline(timeout)
    grid = puzzle.valid_grid
    result = (solver.solve(grid, limit=limit, deadline=deadline,
                           constraints=puzzle.constraints)
              if puzzle.constraints else
              solver.solve(grid, limit=limit, deadline=deadline))
    elapsed = (time.perf_counter() - start) * 1000.0
    cpu_ms = (time.process_time() - cpu) * 1000.0
    # Checked after the clock stops: the warm-up answer was verified, this one too.
    result = verify(result, grid, puzzle.constraints)
    if result.status == "timeout" and timeout is not None:
        elapsed = timeout * 1000.0
    return result, elapsed, cpu_ms


#: Seconds a puzzle native search has when no time limit is given: on some shipped variant
#: puzzles it does not finish in 30 s (docs/variants.md), and a benchmark should end, the
#: puzzle a time-out in its row.
#: (SAT keeps no limit unless asked: a limit turns off its bit-sliced pass for easy classic
#: puzzles, and some SAT solvers cannot keep one.)
NATIVE_TIMEOUT = 30.0


def run_bench(files: Sequence[str], groups: Sequence[Group] | None = None, *,
              first: int | None = None, limit: int = 1, timeout: float | None = None,
              seed: int = 0, warmup: bool = True, box: tuple[int, int] | None = None,
              alphabet: str | None = None, progress: Progress | None = None,
              jobs: int = 1, levels: str = "failed-literals",
              invalid: Callable[[Puzzle], None] | None = None, repeats: int = 1,
              per_puzzle: bool = False) -> Iterator[BenchRow]:
    """Benchmark every group on every file; one row per (file, group).

    Args:
        files: puzzle files in any format satdoku reads, variant puzzles included
            (:func:`satdoku.io.inputs.iter_inputs`).
        groups: from :func:`check_groups` (default: the default SAT solver and native).
        first: only the first ``first`` puzzles of each file (None: all).
        limit: 1 finds a solution; 2 also proves it unique (or finds a second).
        timeout: seconds per puzzle, a timeout counted at it (None: :func:`_time_limit`).
        seed: the timed pass visits the puzzles in an order shuffled with this seed.
        warmup: verify every answer in an untimed pass first (else only after each timing).
        progress: called after each puzzle of each pass as ``progress(done, total, label)``.
        jobs: worker processes (0: every core). With more than one, puzzles/s is the number of
            puzzles over the wall time of the timed pass (pool start included), and the
            per-puzzle times are those measured inside the workers (:func:`_runner`).
        levels: for SAT groups, the share of puzzles settled by unit propagation
            (``'propagation'``), and also by failed-literal probing (``'failed-literals'``,
            slower: up to one propagation per candidate), in an untimed pass per file and
            encoding (:mod:`satdoku.sat.levels`); ``'none'`` skips it.
        invalid: called once with each puzzle that could not be read (its ``error`` says
            where and what), before anything is solved; the rows count them as ``invalid``.
        repeats: timed passes per group, each in its own order (seed + pass - 1): the rows'
            times are of every pass, ``spread_pct`` how far the passes' totals lie apart.
        per_puzzle: fill each row's ``puzzle_rows`` (a record per timed solve).

    Every file is read before anything is solved, so a bad file fails fast
    (:class:`SatdokuError`). Ctrl-C raises :class:`BenchInterrupted` carrying the partial row
    of the interrupted group (the rows before it have been yielded).

    >>> rows = list(run_bench(["puzzles/4x4.txt"], check_groups(["native"]), first=1))
    >>> rows[0].solved, rows[0].solver
    (1, 'native')
    """
    _check(limit, repeats, levels)
    groups = list(groups) if groups is not None else check_groups()
    loaded = [(path, _load(path, first, box, alphabet)) for path in files]
    if invalid is not None:
        for puzzle in (p for _, puzzles in loaded for p in puzzles
                       if p.error is not None or p.grid is None):
            invalid(puzzle)
    passes = repeats + 1 if warmup else repeats
    measured = {g.encoding for g in groups if g.solver == "sat"} if levels != "none" else set()
    total = sum((passes * len(groups) + len(measured)) * sum(1 for p in puzzles
                                                             if p.error is None)
                for _, puzzles in loaded)
    done = 0
    for path, puzzles in loaded:
        known: dict[str | None, list[str | None]] = {}  # levels by encoding: any SAT solver's
        for group in groups:
            name = f"{os.path.basename(path)} {group.label}" + (
                f"/{group.encoding}" if group.encoding else "")

            def step(name: str = name) -> None:
                nonlocal done
                done += 1
                if progress is not None:
                    progress(done, total, name)

            found: dict[int, str | None] = {}
            if group.solver == "sat" and group.encoding in measured:
                try:
                    found = _levels(puzzles, group.encoding, known, levels, step)
                except KeyboardInterrupt:
                    row = _row(path, puzzles, group, limit, seed)[0]
                    row.partial = True
                    raise BenchInterrupted(row) from None
            run, bound = _runner(group, jobs), _time_limit(group, timeout)
            try:
                yield _stamp(run(path, puzzles, group, limit=limit, timeout=bound, seed=seed,
                                 warmup=warmup, step=step, levels=found, repeats=repeats,
                                 per_puzzle=per_puzzle))
            except BenchInterrupted as stop:
                raise BenchInterrupted(_stamp(stop.row)) from None


def _time_limit(group: Group, timeout: float | None) -> float | None:
    """A group's seconds a puzzle: ``timeout``; when None, no limit but native search's
    :data:`NATIVE_TIMEOUT`."""
    return NATIVE_TIMEOUT if timeout is None and group.solver == "native" else timeout


def _runner(group: Group, jobs: int) -> Callable[..., BenchRow]:
    """How a group runs: here, or on ``jobs`` workers. A search binary runs here all the
    same: it is a process a puzzle already, timed by its own CPU."""
    if jobs == 1 or is_exec(group.solver):
        return _run_group
    return functools.partial(_run_group_parallel, jobs=jobs)


def _check(limit: int, repeats: int, levels: str) -> None:
    """OptionError for a value :func:`run_bench` does not take."""
    if limit not in (1, 2):
        raise OptionError("limit must be 1 or 2")
    if repeats < 1:
        raise OptionError(f"repeats must be at least 1, not {repeats}")
    if levels not in LEVEL_CHOICES:
        raise OptionError(f"unknown levels {levels!r}; choose one of {', '.join(LEVEL_CHOICES)}")


def _levels(puzzles: list[Puzzle], encoding: str | None,
            known: dict[str | None, list[str | None]], levels: str,
            step: Callable[[], None]) -> dict[int, str | None]:
    """The level of each valid puzzle by ``id``, measured once per encoding (``known``:
    any SAT solver's)."""
    valid = [p for p in puzzles if p.error is None and p.grid is not None]
    if encoding not in known:
        known[encoding] = measure_levels(valid, encoding, probe=levels == "failed-literals",
                                         step=step)
    return dict(zip(map(id, valid), known[encoding]))


def _stamp(row: BenchRow) -> BenchRow:
    """``row`` with the build of its solver, the time and the load (:mod:`.records`)."""
    from .records import moment, solver_build
    row.solver_build = solver_build(row.solver)
    now = moment()
    row.timestamp, row.load1 = now["timestamp"], now["load1"]
    return row
