"""The rows of a benchmark: one per (file, solver, encoding) group (:class:`BenchRow`,
filled by :func:`summarise`), one per timed solve (:func:`puzzle_record`), and what every row
says of where and when it was measured.

A figure without its circumstances cannot be compared with another: every row ``bench``
writes, per group or per puzzle, carries

- :func:`provenance`, the same for a whole run: satdoku's and python-sat's versions, Python's,
  the git commit of the checkout satdoku runs from (``-dirty`` when it has uncommitted
  changes; None outside a checkout), the host name, the machine and its CPU count;
- :func:`moment`, taken as each row is finished: the UTC time and the 1-minute load average
  (other work on the machine stretches wall times, not CPU times);
- :func:`solver_build`: which build of the solver ran (python-sat's name of it, which carries
  the version, ``cadical195`` being CaDiCaL 1.9.5; an ``exec:`` program's ``--version``).

:func:`puzzle_record` is one timed solve: the puzzle, where it was read, its status, its wall
and CPU milliseconds (CPU of this process: an ``exec:`` solver's child is not in it; its
process's own CPU is ``solver_cpu_ms``), the
stages where the solver reports them, the solver's counters and the puzzle's inference level.
"""

from __future__ import annotations

import functools
import math
import os
import platform
import shlex
import socket
import subprocess
from datetime import datetime, timezone
from typing import Any, Sequence

from ..model.puzzle import Puzzle
from ..model.result import Result
from ..records import asdict, field, fields, record

__all__ = ["BenchRow", "COLUMNS", "summarise", "PUZZLE_COLUMNS", "PROVENANCE_COLUMNS",
           "provenance", "moment", "solver_build",
           "puzzle_record"]

@record
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
    the share settled by propagation and failed-literal probing. ``partial`` marks a group
    cut short by Ctrl-C. With ``repeats`` timed passes the counts are the first pass's and
    the times are of every pass; ``spread_pct`` is how far the passes' total times lie apart
    (max - min over min, in %). ``clock`` says what the times are: ``wall`` (the solver's
    time in this process) or ``solver-cpu`` (an ``exec:`` solver: the CPU time of its process
    alone, :mod:`satdoku.sat.external`). With a time limit (``time_limit_s``),
    ``within_limit`` counts the puzzles answered within it and ``par2_ms`` is the PAR-2 score
    of SAT competitions: the mean time per valid puzzle, each one not answered within the limit
    counted at twice the limit. ``solver_build``, ``timestamp`` and ``load1`` say which build
    ran, and when and under what load the group finished (:mod:`satdoku.run.records`).
    ``times_ms`` holds the time of every answered puzzle (for cactus plots) and
    ``puzzle_rows`` one record per timed solve when asked for (:func:`run_bench`'s
    ``per_puzzle``); neither is a column.
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
    repeats: int = 1
    spread_pct: float | None = None
    clock: str = "wall"
    time_limit_s: float | None = None
    within_limit: int | None = None
    par2_ms: float | None = None
    partial: bool = False
    solver_build: str | None = None
    timestamp: str | None = None
    load1: float | None = None
    times_ms: list[float] = field(default_factory=list, repr=False)
    puzzle_rows: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def label(self) -> str:
        """``'sat:minisat22/extended'`` or ``'native'``: the name of the line in a plot."""
        return f"{self.solver}/{self.encoding}" if self.encoding else self.solver

    def record(self) -> dict[str, Any]:
        """The row as a dict of its columns (the CSV row and the JSON object)."""
        rec = asdict(self)
        del rec["times_ms"], rec["puzzle_rows"]
        return rec


#: The columns of CSV and JSON output, in order.
COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(BenchRow)
                                 if f.name not in ("times_ms", "puzzle_rows"))


def _percentile(ordered: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of sorted values (the value at or below which ``pct``% fall)."""
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[rank - 1]


def _mean_stat(results: Sequence[Result], key: str) -> float | None:
    values = [r.stats[key] for r in results if key in r.stats]
    return sum(values) / len(values) if values else None


_ANSWERED = ("solved", "unique", "multiple", "unsolvable")

_COUNTERS = {"solved": "solved", "unique": "solved", "multiple": "multiple",
             "unsolvable": "unsolvable", "timeout": "timeouts", "refused": "refused"}


def summarise(row: BenchRow, results: Sequence[Result], times_ms: Sequence[float],
              levels: Sequence[str | None] = (),
              passes: Sequence[Sequence[float]] = (),
              timeout: float | None = None) -> BenchRow:
    """Fill ``row``'s counts and figures from the timed results of its valid puzzles.

    ``times_ms[i]`` is the time charged to ``results[i]`` (a timeout at the time limit);
    ``levels`` (SAT) the :data:`~satdoku.sat.levels.LEVELS` of the puzzles, None where not
    measured; ``passes``, the times of every timed pass when there were several (the counts
    are ``results``'s, the first pass's); ``timeout``, the time limit in seconds (for
    ``within_limit`` and ``par2_ms``).

    >>> ok, late = Result("solved"), Result("timeout")
    >>> row = summarise(BenchRow("f", 9, "native", None, 1), [ok, ok, late], [10.0, 30.0, 20.0],
    ...                 timeout=0.02)
    >>> row.within_limit, row.par2_ms  # 10 ms, then 40 and 40 ms (past the 20 ms limit)
    (1, 30.0)
    """
    for r in results:
        counter = _COUNTERS.get(r.status, "errors")
        setattr(row, counter, getattr(row, counter) + 1)
    row.puzzles = len(results) + row.invalid
    row.times_ms = sorted(t for r, t in zip(results, times_ms) if r.status in _ANSWERED)
    if not results:
        return row
    passes = [list(p) for p in passes if p] or [list(times_ms)]
    ordered = sorted(t for p in passes for t in p)
    total_ms = sum(ordered)
    row.repeats = len(passes)
    if len(passes) > 1:
        totals = [sum(p) for p in passes]
        row.spread_pct = 100.0 * (max(totals) - min(totals)) / min(totals) \
            if min(totals) > 0 else None
    row.seconds = total_ms / 1000.0
    row.puzzles_per_s = len(ordered) / row.seconds if total_ms > 0 else None
    row.mean_ms = total_ms / len(ordered)
    row.median_ms = _percentile(ordered, 50)
    row.p90_ms = _percentile(ordered, 90)
    row.p99_ms = _percentile(ordered, 99)
    row.max_ms = ordered[-1]
    if timeout is not None:
        limit_ms = timeout * 1000.0
        row.time_limit_s = timeout
        within = [t for r, t in zip(results, times_ms) if r.status in _ANSWERED and t <= limit_ms]
        row.within_limit = len(within)
        row.par2_ms = (sum(within) + 2 * limit_ms * (len(results) - len(within))) / len(results)
    # Each solver's own counters, where it keeps them (CP-SAT's branches are its decisions,
    # a search binary's "Guesses:" line its guesses).
    row.conflicts_per_puzzle = _mean_stat(results, "conflicts")
    row.decisions_per_puzzle = _mean_stat(results, "decisions")
    row.guesses_per_puzzle = _mean_stat(results, "guesses")
    row.nodes_per_puzzle = _mean_stat(results, "nodes")
    if row.solver != "native":
        # The SAT "no guess" share is a level, not the solver's decision count: MiniSat-family
        # solvers count a decision even when propagation alone has assigned every variable,
        # CaDiCaL does not, and its count depends on what it learnt from earlier puzzles.
        measured = [level for level in levels if level is not None]
        if measured:
            row.no_guess_pct = 100.0 * measured.count("propagation") / len(measured)
            if "unprobed" not in measured:
                row.failed_literals_pct = 100.0 * sum(
                    1 for level in measured if level != "search") / len(measured)
    else:
        settled = sum(1 for r in results if r.stats.get("no_guess"))
        row.no_guess_pct = 100.0 * settled / len(results)
    return row


#: The columns of a per-puzzle row of its own, in order (then :data:`PROVENANCE_COLUMNS`).
PUZZLE_COLUMNS = ("source", "line", "puzzle", "solver", "encoding", "limit", "repeat", "seed",
                  "time_limit_s", "status", "time_ms", "wall_ms", "cpu_ms", "solver_cpu_ms",
                  "encode_ms", "load_ms", "solve_ms",
                  "decisions", "conflicts", "propagations", "guesses", "nodes", "level",
                  "solver_build", "timestamp", "load1")

#: What every row, per group or per puzzle, ends with: :func:`provenance`.
PROVENANCE_COLUMNS = ("satdoku", "python", "python_sat", "commit", "hostname", "machine",
                      "cpus")


@functools.lru_cache(maxsize=1)
def provenance() -> dict[str, Any]:
    """The circumstances of a whole run (see the module docstring)."""
    from ..tasks.solvers import python_sat_version
    from ..version import __version__
    return {"satdoku": __version__, "python": platform.python_version(),
            "python_sat": python_sat_version(), "commit": _commit(),
            "hostname": socket.gethostname(), "machine": platform.machine(),
            "cpus": os.cpu_count()}


def moment() -> dict[str, Any]:
    """Now: the UTC time to the millisecond and the 1-minute load average."""
    try:
        load: float | None = round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover (no load average on this system)
        load = None
    return {"timestamp": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            "load1": load}


def _commit() -> str | None:
    """The commit of the git checkout this satdoku runs from (``-dirty`` with uncommitted
    changes), or None."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not os.path.exists(os.path.join(here, ".git")):
        return None
    try:
        head = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return None
        status = subprocess.run(["git", "-C", here, "status", "--porcelain",
                                 "--untracked-files=no"], capture_output=True, text=True,
                                timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return head.stdout.strip() + ("-dirty" if status.stdout.strip() else "")


@functools.lru_cache(maxsize=None)
def solver_build(label: str) -> str | None:
    """Which build of the solver a group's ``label`` names ran: ``'python-sat 1.8.dev16
    cadical195'``, satdoku's for native search, an ``exec:`` program's first ``--version``
    line (None when it has none)."""
    from ..sat.catalogue import PREFIX
    if label.startswith(PREFIX):
        try:
            program = shlex.split(label[len(PREFIX):])[0]
            done = subprocess.run([program, "--version"], capture_output=True, text=True,
                                  timeout=10, stdin=subprocess.DEVNULL)
        except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
            return None
        lines = (done.stdout or done.stderr).strip().splitlines()
        return f"{program} {lines[0].strip()}"[:120] if done.returncode == 0 and lines else None
    if label.startswith("sat:"):
        return f"python-sat {provenance()['python_sat']} {label[4:]}"
    return f"satdoku {provenance()['satdoku']}"


def puzzle_record(puzzle: Puzzle, result: Result, *, solver: str, encoding: str | None,
                  limit: int, repeat: int, seed: int, wall_ms: float, cpu_ms: float | None,
                  level: str | None, time_ms: float | None = None,
                  time_limit_s: float | None = None) -> dict[str, Any]:
    """One timed solve as a row of :data:`PUZZLE_COLUMNS` (with :func:`moment`; the
    provenance is added where the rows are written). ``time_ms`` is the time the summary
    charges (the group's clock; default ``wall_ms``): what plots draw; ``time_limit_s`` the
    limit the solve had (native search's default one too, which ``--timeout`` does not
    show)."""
    from ..io.text import format_grid
    stats = result.stats
    rec: dict[str, Any] = {
        "source": puzzle.source, "line": puzzle.line,
        "puzzle": format_grid(puzzle.grid, "line", puzzle.alphabet) if puzzle.grid else None,
        "solver": solver, "encoding": encoding, "limit": limit, "repeat": repeat,
        "seed": seed, "time_limit_s": time_limit_s, "status": result.status,
        "time_ms": round(wall_ms if time_ms is None else time_ms, 4),
        "wall_ms": round(wall_ms, 4),
        "cpu_ms": None if cpu_ms is None else round(cpu_ms, 4)}
    for key in ("solver_cpu_ms", "encode_ms", "load_ms", "solve_ms"):
        rec[key] = round(stats[key], 4) if key in stats else None
    for key in ("decisions", "conflicts", "propagations", "guesses", "nodes"):
        rec[key] = stats.get(key)
    rec["level"] = level
    rec["solver_build"] = solver_build(solver)
    rec.update(moment())
    return rec
