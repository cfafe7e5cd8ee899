"""Benchmarks: solve the puzzles of files with several solvers and summarise each run as a row.

The harness follows tdoku's: every answer is verified in an untimed warm-up pass (which also
builds each geometry's base formula, so no puzzle is charged for it), then the puzzles are
timed one by one in an order permuted with a fixed seed. One solver object serves a whole
(file, solver, encoding) group, so the SAT backend takes its incremental fast path.

Glossary (adds to :mod:`satdoku.model.geometry`):

- solver label: ``'sat:NAME'`` (a python-sat solver), the command of an external solver as
  written (``'exec:cadical -q'``, :mod:`satdoku.sat.external`; compared side by side with the
  python-sat ones), or ``'native'`` (the propagation search). Encodings apply to SAT only.
- group: one (file, solver label, encoding); it gives one :class:`BenchRow`.
- answered: a puzzle the solver settled (solved, unique, multiple or unsolvable), as opposed to
  a timeout, an invalid puzzle, a refusal or an error.

The library never prints: :func:`run_bench` yields rows, and :mod:`satdoku.output.bench` turns
them into a table, CSV or JSON Lines, or draws them.
"""

from __future__ import annotations

import functools
import math
import os
import random
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..deadline import Deadline
from ..errors import OptionError, SatdokuError
from ..model.puzzle import Puzzle
from ..model.result import Result
from ..tasks.solvers import SOLVERS, make_solver, solve, verify
from ..sat.catalogue import check_sat_name, is_exec
from ..cnf.policy import choose_encoding

__all__ = ["BenchRow", "BenchInterrupted", "COLUMNS", "Group", "LEVEL_CHOICES", "check_groups",
           "measure_levels", "run_bench", "summarise"]

#: What ``levels`` of :func:`run_bench` can ask for, the default last.
LEVEL_CHOICES = ("none", "propagation", "failed-literals")

#: Called as ``progress(done, total, label)``: steps (one puzzle in one pass) done of all.
Progress = Callable[[int, int, str], None]


@dataclass
class BenchRow:
    """The figures of one (file, solver, encoding) group.

    Counts: ``puzzles`` read (``invalid`` ones included), then what became of them. With
    ``limit=2``, ``solved`` counts unique puzzles and ``multiple`` those with two or more
    solutions. Times are of the timed pass, per valid puzzle, in milliseconds; a timeout counts
    at the time limit. ``puzzles_per_s`` is valid puzzles over their summed time.
    SAT fills ``conflicts``/``decisions`` per puzzle, native search ``guesses``/``nodes`` per
    puzzle. ``no_guess_pct`` is the share of valid puzzles settled without a guess: by the
    native search's propagation, or for SAT by unit propagation of the clues over the encoding
    (:mod:`satdoku.sat.levels`, the same for every SAT solver); ``failed_literals_pct`` (SAT)
    the share settled by propagation and failed-literal probing. ``partial`` marks a group cut short by Ctrl-C. ``times_ms`` holds the time of every
    answered puzzle (for cactus plots; not a column).
    """

    source: str
    size: int | None
    solver: str
    encoding: str | None
    limit: int
    puzzles: int = 0
    solved: int = 0
    unsolvable: int = 0
    multiple: int = 0
    timeouts: int = 0
    invalid: int = 0
    refused: int = 0
    errors: int = 0
    seconds: float = 0.0
    puzzles_per_s: float | None = None
    mean_ms: float | None = None
    median_ms: float | None = None
    p90_ms: float | None = None
    p99_ms: float | None = None
    max_ms: float | None = None
    conflicts_per_puzzle: float | None = None
    decisions_per_puzzle: float | None = None
    guesses_per_puzzle: float | None = None
    nodes_per_puzzle: float | None = None
    no_guess_pct: float | None = None
    failed_literals_pct: float | None = None
    partial: bool = False
    times_ms: list[float] = field(default_factory=list, repr=False)

    @property
    def label(self) -> str:
        """``'sat:minisat22/extended'`` or ``'native'``: the name of the line in a plot."""
        return f"{self.solver}/{self.encoding}" if self.encoding else self.solver

    def record(self) -> dict[str, Any]:
        """The row as a dict of its columns (the CSV row and the JSON object)."""
        rec = asdict(self)
        del rec["times_ms"]
        return rec


#: The columns of CSV and JSON output, in order.
COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(BenchRow) if f.name != "times_ms")


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a group: ``row`` holds the figures of the puzzles finished (``partial``)."""

    def __init__(self, row: BenchRow) -> None:
        super().__init__()
        self.row = row


@dataclass(frozen=True)
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
        if solver not in SOLVERS:
            raise OptionError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}")
        if solver == "sat":
            wanted = [Group("sat", s, e) for s in sat_solvers for e in chosen]
        else:
            wanted = [Group(solver)]
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


def _percentile(ordered: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of sorted values (the value at or below which ``pct``% fall)."""
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[rank - 1]


def _mean_stat(results: Sequence[Result], key: str) -> float | None:
    values = [r.stats[key] for r in results if key in r.stats]
    return sum(values) / len(values) if values else None


_COUNTERS = {"solved": "solved", "unique": "solved", "multiple": "multiple",
             "unsolvable": "unsolvable", "timeout": "timeouts", "refused": "refused"}


def summarise(row: BenchRow, results: Sequence[Result], times_ms: Sequence[float],
              levels: Sequence[str | None] = ()) -> BenchRow:
    """Fill ``row``'s counts and figures from the timed results of its valid puzzles.

    ``times_ms[i]`` is the time charged to ``results[i]`` (a timeout at the time limit);
    ``levels`` (SAT) the :data:`~satdoku.sat.levels.LEVELS` of the puzzles, None where not
    measured.
    """
    for r in results:
        counter = _COUNTERS.get(r.status, "errors")
        setattr(row, counter, getattr(row, counter) + 1)
    row.puzzles = len(results) + row.invalid
    row.times_ms = sorted(t for r, t in zip(results, times_ms)
                          if r.status in ("solved", "unique", "multiple", "unsolvable"))
    if not results:
        return row
    ordered = sorted(times_ms)
    total_ms = sum(ordered)
    row.seconds = total_ms / 1000.0
    row.puzzles_per_s = len(ordered) / row.seconds if total_ms > 0 else None
    row.mean_ms = total_ms / len(ordered)
    row.median_ms = _percentile(ordered, 50)
    row.p90_ms = _percentile(ordered, 90)
    row.p99_ms = _percentile(ordered, 99)
    row.max_ms = ordered[-1]
    if row.solver != "native":
        # The SAT "no guess" share is a level, not the solver's decision count: MiniSat-family
        # solvers count a decision even when propagation alone has assigned every variable,
        # CaDiCaL does not, and its count depends on what it learnt from earlier puzzles.
        row.conflicts_per_puzzle = _mean_stat(results, "conflicts")
        row.decisions_per_puzzle = _mean_stat(results, "decisions")
        measured = [level for level in levels if level is not None]
        if measured:
            row.no_guess_pct = 100.0 * measured.count("propagation") / len(measured)
            if "unprobed" not in measured:
                row.failed_literals_pct = 100.0 * sum(
                    1 for level in measured if level != "search") / len(measured)
    else:
        row.guesses_per_puzzle = _mean_stat(results, "guesses")
        row.nodes_per_puzzle = _mean_stat(results, "nodes")
        settled = sum(1 for r in results if r.stats.get("no_guess"))
        row.no_guess_pct = 100.0 * settled / len(results)
    return row


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
                   invalid=len(puzzles) - len(valid))
    random.Random(seed).shuffle(valid)
    return row, valid


def _run_group_parallel(path: str, puzzles: list[Puzzle], group: Group, *, limit: int,
                        timeout: float | None, seed: int, warmup: bool,
                        step: Callable[[], None], jobs: int,
                        levels: Sequence[str | None] = ()) -> BenchRow:
    """One group on a process pool: warm-up pass (verified in the workers), then timed pass."""
    from ..tasks.solvers import search_options
    from .stream import stream
    row, valid = _row(path, puzzles, group, limit, seed)
    options = search_options(limit, solver=group.solver, sat_solver=group.sat_solver,
                             encoding=group.encoding, timeout=timeout, stats=True)
    results: list[Result] = []
    try:
        if warmup:
            for _ in stream(valid, options, jobs=jobs):
                step()
        start = time.perf_counter()
        for outcome in stream(valid, options, jobs=jobs):
            results.append(outcome.result)
            step()
        wall = time.perf_counter() - start
    except KeyboardInterrupt:
        row.partial = True
        raise BenchInterrupted(summarise(row, results, _charged(results, timeout),
                                         levels)) from None
    row = summarise(row, results, _charged(results, timeout), levels)
    if results:
        row.seconds = wall
        row.puzzles_per_s = len(results) / wall
    return row


def _charged(results: Sequence[Result], timeout: float | None) -> list[float]:
    """Per-puzzle times as measured by the solver, a timeout counted at the time limit."""
    return [timeout * 1000.0 if r.status == "timeout" and timeout is not None else r.time_ms
            for r in results]


def _run_group(path: str, puzzles: list[Puzzle], group: Group, *, limit: int,
               timeout: float | None, seed: int, warmup: bool,
               step: Callable[[], None], levels: Sequence[str | None] = ()) -> BenchRow:
    """One group: warm-up (verify) pass, then the timed pass in seeded random order."""
    row, valid = _row(path, puzzles, group, limit, seed)
    solver = make_solver(group.solver, sat_solver=group.sat_solver, encoding=group.encoding)
    warm: dict[int, Result] = {}
    results: list[Result] = []
    times: list[float] = []
    try:
        if warmup:
            for i, puzzle in enumerate(valid):
                warm[i] = solve(solver, puzzle.valid_grid, limit=limit, timeout=timeout,
                                constraints=puzzle.constraints)
                step()
        for i, puzzle in enumerate(valid):
            before = warm.get(i)
            if before is not None and before.status in ("timeout", "refused"):
                # Not run again: it would only burn the time limit a second time.
                result, elapsed = before, (timeout or 0) * 1000.0
            else:
                grid = puzzle.valid_grid
                start = time.perf_counter()
                deadline = Deadline(timeout)
                result = (solver.solve(grid, limit=limit, deadline=deadline,
                                       constraints=puzzle.constraints)
                          if puzzle.constraints else
                          solver.solve(grid, limit=limit, deadline=deadline))
                elapsed = (time.perf_counter() - start) * 1000.0
                # Checked after the clock stops: the warm-up answer was verified, this one too.
                result = verify(result, grid, puzzle.constraints)
                if result.status == "timeout" and timeout is not None:
                    elapsed = timeout * 1000.0
            results.append(result)
            times.append(elapsed)
            step()
    except KeyboardInterrupt:
        row.partial = True
        if not results and warm:  # stopped during the warm-up: its figures are all there is
            done = list(warm.values())
            results, times = done, [r.time_ms for r in done]
        raise BenchInterrupted(summarise(row, results, times, levels)) from None
    finally:
        solver.close()
    return summarise(row, results, times, levels)


def run_bench(files: Sequence[str], groups: Sequence[Group] | None = None, *,
              first: int | None = None, limit: int = 1, timeout: float | None = None,
              seed: int = 0, warmup: bool = True, box: tuple[int, int] | None = None,
              alphabet: str | None = None, progress: Progress | None = None,
              jobs: int = 1, levels: str = "failed-literals",
              invalid: Callable[[Puzzle], None] | None = None) -> Iterator[BenchRow]:
    """Benchmark every group on every file; one row per (file, group).

    Args:
        files: puzzle files in any format satdoku reads, variant puzzles included
            (:func:`satdoku.io.inputs.iter_inputs`).
        groups: from :func:`check_groups` (default: the default SAT solver and native).
        first: only the first ``first`` puzzles of each file (None: all).
        limit: 1 finds a solution; 2 also proves it unique (or finds a second).
        timeout: seconds per puzzle; a timeout counts at this time.
        seed: the timed pass visits the puzzles in an order shuffled with this seed.
        warmup: verify every answer in an untimed pass first (else only after each timing).
        progress: called after each puzzle of each pass as ``progress(done, total, label)``.
        jobs: worker processes (0: every core). With more than one, puzzles/s is the number of
            puzzles over the wall time of the timed pass (pool start included), and the
            per-puzzle times are those measured inside the workers.
        levels: for SAT groups, the share of puzzles settled by unit propagation
            (``'propagation'``), and also by failed-literal probing (``'failed-literals'``,
            slower: up to one propagation per candidate), in an untimed pass per file and
            encoding (:mod:`satdoku.sat.levels`); ``'none'`` skips it.
        invalid: called once with each puzzle that could not be read (its ``error`` says
            where and what), before anything is solved; the rows count them as ``invalid``.

    Every file is read before anything is solved, so a bad file fails fast
    (:class:`SatdokuError`). Ctrl-C raises :class:`BenchInterrupted` carrying the partial row
    of the interrupted group (the rows before it have been yielded).

    >>> rows = list(run_bench(["puzzles/4x4.txt"], check_groups(["native"]), first=1))
    >>> rows[0].solved, rows[0].solver
    (1, 'native')
    """
    if limit not in (1, 2):
        raise OptionError("limit must be 1 or 2")
    if levels not in LEVEL_CHOICES:
        raise OptionError(f"unknown levels {levels!r}; choose one of {', '.join(LEVEL_CHOICES)}")
    groups = list(groups) if groups is not None else check_groups()
    loaded = [(path, _load(path, first, box, alphabet)) for path in files]
    if invalid is not None:
        for _, puzzles in loaded:
            for puzzle in puzzles:
                if puzzle.error is not None or puzzle.grid is None:
                    invalid(puzzle)
    passes = 2 if warmup else 1
    measured = {g.encoding for g in groups if g.solver == "sat"} if levels != "none" else set()
    total = sum((passes * len(groups) + len(measured)) * sum(1 for p in puzzles
                                                             if p.error is None)
                for _, puzzles in loaded)
    done = 0
    for path, puzzles in loaded:
        known: dict[str | None, list[str | None]] = {}  # levels by encoding: any SAT solver's
        for group in groups:
            name = f"{os.path.basename(path)} {group.label}"
            name += f"/{group.encoding}" if group.encoding else ""

            def step(name: str = name) -> None:
                nonlocal done
                done += 1
                if progress is not None:
                    progress(done, total, name)

            found: Sequence[str | None] = ()
            if group.encoding in measured:
                if group.encoding not in known:
                    try:
                        known[group.encoding] = measure_levels(
                            [p for p in puzzles if p.error is None and p.grid is not None],
                            group.encoding, probe=levels == "failed-literals", step=step)
                    except KeyboardInterrupt:
                        row = _row(path, puzzles, group, limit, seed)[0]
                        row.partial = True
                        raise BenchInterrupted(row) from None
                found = known[group.encoding]
            run = _run_group if jobs == 1 else functools.partial(_run_group_parallel, jobs=jobs)
            yield run(path, puzzles, group, limit=limit, timeout=timeout, seed=seed,
                      warmup=warmup, step=step, levels=found)
