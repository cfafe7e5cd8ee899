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

The library never prints: :func:`run_bench` yields rows, :func:`format_rows` turns them into
a table, CSV or JSON Lines, and :func:`plot_bench` draws them (matplotlib, the optional extra
``satdoku[plot]``).
"""

from __future__ import annotations

import functools
import json
import math
import os
import platform
import random
import tempfile
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..deadline import Deadline
from ..errors import OptionError, SatdokuError
from ..io.files import publish
from ..model.puzzle import Puzzle
from ..model.result import Result
from ..tasks.solvers import SOLVERS, make_solver, solve, verify
from ..sat.catalogue import check_sat_name, is_exec
from ..cnf.policy import choose_encoding

__all__ = ["BenchRow", "BenchInterrupted", "COLUMNS", "Group", "check_groups", "run_bench",
           "summarise", "format_rows", "format_table", "check_matplotlib", "plot_bench",
           "PLOT_HINT"]

#: Called as ``progress(done, total, label)``: steps (one puzzle in one pass) done of all.
Progress = Callable[[int, int, str], None]

PLOT_HINT = "install satdoku[plot] for --plot"


@dataclass
class BenchRow:
    """The figures of one (file, solver, encoding) group.

    Counts: ``puzzles`` read (``invalid`` ones included), then what became of them. With
    ``limit=2``, ``solved`` counts unique puzzles and ``multiple`` those with two or more
    solutions. Times are of the timed pass, per valid puzzle, in milliseconds; a timeout counts
    at the time limit. ``puzzles_per_s`` is valid puzzles over their summed time.
    SAT fills ``conflicts``/``decisions`` per puzzle, native search ``guesses`` per puzzle and
    ``no_guess_pct``, the share of valid puzzles it settled by propagation alone, without a
    guess. ``partial`` marks a group cut short by Ctrl-C. ``times_ms`` holds the time of every
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
    no_guess_pct: float | None = None
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
    encodings = encodings or [None]
    groups: list[Group] = []
    for solver in solvers:
        if solver not in SOLVERS:
            raise OptionError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVERS)}")
        if solver == "sat":
            wanted = [Group("sat", s, e) for s in sat_solvers for e in encodings]
        else:
            wanted = [Group(solver)]
        groups += [g for g in wanted if g not in groups]
    return groups


def _load(path: str, first: int | None, box, alphabet) -> list[Puzzle]:
    from ..io.inputs import iter_inputs
    if not os.path.exists(path):
        raise SatdokuError("cannot read: No such file or directory", source=path)
    puzzles = []
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


def summarise(row: BenchRow, results: Sequence[Result], times_ms: Sequence[float]) -> BenchRow:
    """Fill ``row``'s counts and figures from the timed results of its valid puzzles.

    ``times_ms[i]`` is the time charged to ``results[i]`` (a timeout at the time limit).
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
        # No SAT "no guess" share: MiniSat-family solvers count a decision even when
        # propagation alone has assigned every variable, CaDiCaL does not; it would not compare.
        row.conflicts_per_puzzle = _mean_stat(results, "conflicts")
        row.decisions_per_puzzle = _mean_stat(results, "decisions")
    else:
        row.guesses_per_puzzle = _mean_stat(results, "guesses")
        settled = sum(1 for r in results if r.stats.get("no_guess"))
        row.no_guess_pct = 100.0 * settled / len(results)
    return row


def _row(path: str, puzzles: list[Puzzle], group: Group, limit: int,
         seed: int) -> tuple[BenchRow, list[Puzzle]]:
    """The empty row of a group and its valid puzzles in the seeded order."""
    valid = [p for p in puzzles if p.error is None and p.grid is not None]
    size = valid[0].grid.size if valid else None
    encoding = group.encoding
    if group.solver == "sat" and encoding is None and size is not None:
        encoding = choose_encoding(size)
    row = BenchRow(source=path, size=size, solver=group.label, encoding=encoding, limit=limit,
                   invalid=len(puzzles) - len(valid))
    random.Random(seed).shuffle(valid)
    return row, valid


def _run_group_parallel(path: str, puzzles: list[Puzzle], group: Group, *, limit: int,
                        timeout: float | None, seed: int, warmup: bool,
                        step: Callable[[], None], jobs: int) -> BenchRow:
    """One group on a process pool: warm-up pass (verified in the workers), then timed pass."""
    from .batch import SolveOptions, solve_batch
    row, valid = _row(path, puzzles, group, limit, seed)
    options = SolveOptions(solver=group.solver, sat_solver=group.sat_solver,
                           encoding=group.encoding, limit=limit, timeout=timeout)
    results: list[Result] = []
    try:
        if warmup:
            for _ in solve_batch(valid, options, jobs=jobs):
                step()
        start = time.perf_counter()
        for outcome in solve_batch(valid, options, jobs=jobs):
            results.append(outcome.result)
            step()
        wall = time.perf_counter() - start
    except KeyboardInterrupt:
        row.partial = True
        raise BenchInterrupted(summarise(row, results, _charged(results, timeout))) from None
    row = summarise(row, results, _charged(results, timeout))
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
               step: Callable[[], None]) -> BenchRow:
    """One group: warm-up (verify) pass, then the timed pass in seeded random order."""
    row, valid = _row(path, puzzles, group, limit, seed)
    solver = make_solver(group.solver, sat_solver=group.sat_solver, encoding=group.encoding)
    warm: dict[int, Result] = {}
    results: list[Result] = []
    times: list[float] = []
    try:
        if warmup:
            for i, puzzle in enumerate(valid):
                warm[i] = solve(solver, puzzle.grid, limit=limit, timeout=timeout,
                                constraints=puzzle.constraints)
                step()
        for i, puzzle in enumerate(valid):
            before = warm.get(i)
            if before is not None and before.status in ("timeout", "refused"):
                # Not run again: it would only burn the time limit a second time.
                result, elapsed = before, (timeout or 0) * 1000.0
            else:
                start = time.perf_counter()
                deadline = Deadline(timeout)
                result = (solver.solve(puzzle.grid, limit=limit, deadline=deadline,
                                       constraints=puzzle.constraints)
                          if puzzle.constraints else
                          solver.solve(puzzle.grid, limit=limit, deadline=deadline))
                elapsed = (time.perf_counter() - start) * 1000.0
                # Checked after the clock stops: the warm-up answer was verified, this one too.
                result = verify(result, puzzle.grid, puzzle.constraints)
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
        raise BenchInterrupted(summarise(row, results, times)) from None
    finally:
        solver.close()
    return summarise(row, results, times)


def run_bench(files: Sequence[str], groups: Sequence[Group] | None = None, *,
              first: int | None = None, limit: int = 1, timeout: float | None = None,
              seed: int = 0, warmup: bool = True, box: tuple[int, int] | None = None,
              alphabet: str | None = None, progress: Progress | None = None,
              jobs: int = 1) -> Iterator[BenchRow]:
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

    Every file is read before anything is solved, so a bad file fails fast
    (:class:`SatdokuError`). Ctrl-C raises :class:`BenchInterrupted` carrying the partial row
    of the interrupted group (the rows before it have been yielded).

    >>> rows = list(run_bench(["puzzles/4x4.txt"], check_groups(["native"]), first=1))
    >>> rows[0].solved, rows[0].solver
    (1, 'native')
    """
    if limit not in (1, 2):
        raise OptionError("limit must be 1 or 2")
    groups = list(groups) if groups is not None else check_groups()
    loaded = [(path, _load(path, first, box, alphabet)) for path in files]
    passes = 2 if warmup else 1
    total = sum(passes * sum(1 for p in puzzles if p.error is None) * len(groups)
                for _, puzzles in loaded)
    done = 0
    for path, puzzles in loaded:
        for group in groups:
            name = f"{os.path.basename(path)} {group.label}"
            name += f"/{group.encoding}" if group.encoding else ""

            def step(name: str = name) -> None:
                nonlocal done
                done += 1
                if progress is not None:
                    progress(done, total, name)

            run = _run_group if jobs == 1 else functools.partial(_run_group_parallel, jobs=jobs)
            yield run(path, puzzles, group, limit=limit, timeout=timeout, seed=seed,
                      warmup=warmup, step=step)


def _number(value: Any) -> str:
    """A figure for the table: three significant digits or so, '-' for none."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, int):
        return str(value)
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


_TABLE = (("source", "file"), ("solver", "solver"), ("encoding", "encoding"),
          ("puzzles", "puzzles"), ("solved", "solved"), ("unsolvable", "unsolv"),
          ("multiple", "multi"), ("timeouts", "t/o"), ("invalid", "invalid"),
          ("puzzles_per_s", "puzzles/s"), ("mean_ms", "mean ms"), ("median_ms", "median ms"),
          ("p90_ms", "p90 ms"), ("p99_ms", "p99 ms"), ("max_ms", "max ms"),
          ("conflicts_per_puzzle", "conflicts"), ("decisions_per_puzzle", "decisions"),
          ("guesses_per_puzzle", "guesses"), ("no_guess_pct", "no guess %"))


def format_table(rows: Iterable[BenchRow]) -> str:
    """Rows as a Markdown table (aligned, so it reads in a terminal too); numbers rounded.

    Files are shown by base name; refusals, errors or a partial group add a column.
    """
    rows = list(rows)
    columns = list(_TABLE)
    for key in ("refused", "errors", "partial"):
        if any(getattr(r, key) for r in rows):
            columns.append((key, key))
    cells = [[h for _, h in columns]]
    for row in rows:
        rec = row.record()
        rec["source"] = os.path.basename(row.source)
        rec["encoding"] = row.encoding or "-"
        if row.no_guess_pct is not None:
            rec["no_guess_pct"] = f"{row.no_guess_pct:.1f}"
        cells.append([v if isinstance(v := rec[k], str) else _number(v) for k, _ in columns])
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    numeric = [i >= 3 for i in range(len(columns))]

    def line(values: list[str]) -> str:
        return "| " + " | ".join(v.rjust(w) if num else v.ljust(w)
                                 for v, w, num in zip(values, widths, numeric)) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if num else ("-" * (w + 2))
                          for w, num in zip(widths, numeric)) + "|"
    return "\n".join([line(cells[0]), rule] + [line(c) for c in cells[1:]]) + "\n"


def format_rows(rows: Iterable[BenchRow], fmt: str = "table",
                settings: dict[str, Any] | None = None) -> str:
    """Rows as a ``table``, ``csv`` (a header of :data:`COLUMNS`, plain values) or ``json``
    (JSON Lines: one object a row, each with the run's settings and the machine)."""
    from ..output.report import csv_row
    rows = list(rows)
    if fmt == "table":
        return format_table(rows)
    if fmt == "csv":
        return csv_row(COLUMNS) + "".join(csv_row(r.record()[k] for k in COLUMNS)
                                          for r in rows)
    if fmt != "json":
        raise OptionError(f"unknown format {fmt!r}; choose table, csv or json")
    meta = {"python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), **(settings or {})}
    return "".join(json.dumps({**r.record(), **meta}) + "\n" for r in rows)


def check_matplotlib() -> None:
    """Raise :class:`SatdokuError` with :data:`PLOT_HINT` when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise SatdokuError(PLOT_HINT) from None


def plot_bench(rows: Sequence[BenchRow], path: str, *, title: str | None = None) -> None:
    """One PNG with two panels: a cactus plot and puzzles/s per file and solver.

    Left, the cactus plot of SAT papers: for each solver (and encoding) the answered puzzles
    of all files, sorted by time, x = puzzles answered, y = time per puzzle on a log axis; the
    line that stays lower and reaches further right is better. Right, puzzles/s per file as
    grouped bars (log axis when the rates span more than a factor of 50).
    Written atomically (temporary file, then rename).
    """
    check_matplotlib()
    from matplotlib.figure import Figure  # no pyplot: no global state, no GUI backend

    labels = list(dict.fromkeys(r.label for r in rows))
    files = list(dict.fromkeys(r.source for r in rows))
    fig = Figure(figsize=(12, 5), layout="constrained")
    cactus, bars = fig.subplots(1, 2, width_ratios=(1.1, 1))
    # One colour per solver, one line style (and bar hatch) per encoding: ten lines stay legible.
    solvers = list(dict.fromkeys(r.solver for r in rows))
    encodings = list(dict.fromkeys(r.encoding for r in rows if r.encoding))
    styles = {label: _style(r.solver, r.encoding, solvers, encodings)
              for label, r in ((r.label, r) for r in rows)}
    for label in labels:
        times = sorted(t for r in rows if r.label == label for t in r.times_ms)
        if not times:
            continue
        colour, linestyle, marker, _ = styles[label]
        cactus.plot(range(1, len(times) + 1), [max(t, 1e-3) for t in times], color=colour,
                    linestyle=linestyle, marker=marker, markevery=max(1, len(times) // 8),
                    markersize=4, linewidth=1.5, label=label)
    cactus.set_yscale("log")
    cactus.set_xlabel("puzzles answered")
    cactus.set_ylabel("time per puzzle (ms, log scale)")
    cactus.set_title("Cactus plot: puzzles answered within a time (all files)")
    cactus.grid(True, which="both", alpha=0.3)
    if cactus.lines:
        cactus.legend(fontsize="small")

    width = 0.8 / max(1, len(labels))
    rates = []
    for i, label in enumerate(labels):
        xs, ys = [], []
        for j, source in enumerate(files):
            row = next((r for r in rows if r.label == label and r.source == source), None)
            if row is not None and row.puzzles_per_s:
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(row.puzzles_per_s)
        rates += ys
        colour, _, _, hatch = styles[label]
        bars.bar(xs, ys, width=width, color=colour, hatch=hatch, edgecolor="white",
                 linewidth=0, label=label)
    if rates and max(rates) / min(rates) > 50:
        bars.set_yscale("log")
    bars.set_xticks(range(len(files)))
    bars.set_xticklabels([_file_label(source, rows) for source in files], fontsize="small",
                         rotation=15 if len(files) > 3 else 0)
    bars.set_ylabel("puzzles per second" + (" (log scale)" if bars.get_yscale() == "log"
                                            else ""))
    bars.set_title("Throughput per file")
    bars.grid(True, axis="y", which="both", alpha=0.3)
    if rates:
        # Headroom above the tallest bar, so the legend never hides one.
        if bars.get_yscale() == "log":
            bars.set_ylim(top=max(rates) * 15)
        else:
            bars.set_ylim(top=max(rates) * 1.7)
        bars.legend(fontsize="small", ncols=2, loc="upper right")
    if title:
        fig.suptitle(title)
    _save_atomically(fig, path)


def _style(solver: str, encoding: str | None, solvers: list[str],
           encodings: list[str]) -> tuple[str, str, str, str]:
    """(colour, line style, marker, hatch) of a solver and encoding in a plot."""
    i = solvers.index(solver)
    j = encodings.index(encoding) if encoding in encodings else len(encodings) - 1
    # The last encoding (usually 'extended', the default) is drawn solid and unhatched.
    k = len(encodings) - 1 - max(j, 0)
    return (f"C{i % 10}", ("-", "--", ":", "-.")[k % 4], "os^vD<>ph*"[i % 10],
            ("", "//", "..", "xx")[k % 4])


def _file_label(path: str, rows: Sequence[BenchRow]) -> str:
    row = next(r for r in rows if r.source == path)
    size = f"\n{row.size}x{row.size}, {row.puzzles} puzzles" if row.size else ""
    return os.path.basename(path) + size


def _save_atomically(fig: Any, path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".png", dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110, format="png")
        publish(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
