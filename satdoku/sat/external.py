"""External SAT solver binaries: one process per puzzle, DIMACS in, the SAT-competition answer out.

``--sat-solver exec:"kissat -q"`` names a command (:func:`parse_command`); :class:`ExecSolver`
writes each puzzle's formula (:func:`satdoku.cnf.formula.encode`, clues as unit clauses, or the
reduced formula) to a temporary file, runs the command on it, and reads the answer strictly
(:func:`satdoku.cnf.decode.parse_model`): ``s UNSATISFIABLE`` is ``unsolvable``, anything that is
not an answer is ``error`` with a one-line message. Counting runs the command again with a
clause ruling out each solution found, so ``count`` costs one process per solution (plus one
that proves there is no other). At the deadline the process (its whole process group) is killed
and the status is ``timeout``; the temporary files go in every case. A solver outlives no
satdoku process: it gets Linux's parent-death signal.

Glossary:

- command: what follows ``exec:``, split like a shell line (no shell runs it). Placeholders:
  ``{cnf}`` the formula's path; ``{model}`` a path the solver writes its answer to (read
  instead of its standard output); ``{stdin}`` (dropped from the arguments) feeds the formula
  on standard input. Without ``{cnf}`` or ``{stdin}`` the path goes last. A program called
  ``minisat...`` gets ``{cnf} {model}`` when neither is given, as MiniSat writes its model to
  a second file argument, so ``exec:minisat`` works as it is.
- name: ``exec:`` and the program's base name (``exec:kissat``), the ``solver`` of results.
"""

from __future__ import annotations

import math
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from typing import Any, Callable

from ..closing import Closing
from ..cnf.export import dimacs_header
from ..cnf.formula import Formula, encode
from ..cnf.encodings import check_choices
from ..cnf.policy import choose_encoding
from ..cnf.reduced import ReducedFormula
from ..budget import DEFAULT_MAX_CLAUSES
from ..children import parent_death_preexec
from ..deadline import NO_DEADLINE, Deadline, TimeUp
from ..errors import ModelError, SolverError, TooBigError
from ..io.dimacs import MAX_MODEL_BYTES, UnsatisfiableError, clause_text, parse_model
from ..model.grid import Grid
from ..model.result import Result, result_of, status_of
from .catalogue import EXEC_CAPABILITIES, PREFIX, is_exec
from .commands import Command, check_command, parse_command
from .oneshot import count_afresh

__all__ = ["PREFIX", "Command", "parse_command", "check_command", "is_exec", "ExecSolver"]



#: Temporary folders are named FOLDER_PREFIX + the pid of the process that made them + "-".
FOLDER_PREFIX = "satdoku-exec-"
_swept: set[str] = set()  # the temporary folders' parents already cleaned by this process


def _new_folder(tmpdir: str | None) -> str:
    """A new temporary folder for one solve. The first time in a process, folders left by
    satdoku processes that no longer run (killed with SIGKILL, or a worker stopped by
    Ctrl-C) go first: nothing else could remove them."""
    parent = tmpdir or tempfile.gettempdir()
    if parent not in _swept:
        _swept.add(parent)
        _sweep(parent)
    return tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-", dir=parent)


def _sweep(parent: str) -> None:
    """Remove this user's FOLDER_PREFIX folders in ``parent`` whose process is gone."""
    try:
        names = [n for n in os.listdir(parent) if n.startswith(FOLDER_PREFIX)]
    except OSError:
        return
    for name in names:
        pid = name[len(FOLDER_PREFIX):].split("-", 1)[0]
        path = os.path.join(parent, name)
        if not pid.isdigit():
            continue
        try:
            if os.lstat(path).st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:  # gone already, or a process of another user: not ours to touch
            continue


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's children that have ended and been
    waited for. Read before and after one solver run, the difference is that run's CPU alone
    (ExecSolver runs one child at a time)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _limited(setup: Callable[[], None] | None,
             cpu_seconds: int | None) -> Callable[[], None] | None:
    """``setup`` for the child, and then a CPU limit of ``cpu_seconds`` (RLIMIT_CPU: SIGXCPU
    at the soft limit, SIGKILL a second later)."""
    if cpu_seconds is None:
        return setup

    def run() -> None:
        if setup is not None:
            setup()
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    return run


def _kill(process: subprocess.Popen) -> None:
    """Kill ``process`` and its process group, and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.kill()
    process.wait()


def _one_line(text: str, limit: int = 160) -> str:
    """The last non-empty line of ``text``, shortened: for one-line error messages."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return last if len(last) <= limit else last[:limit - 3] + "..."


class _Cnf:
    """The formula of one puzzle in a temporary folder: its clauses written once, and for each
    run a file with the comments, the ``p cnf`` line, those clauses and the clauses added since
    (each run's solutions ruled out)."""

    def __init__(self, folder: str, formula: Formula | ReducedFormula, grid: Grid) -> None:
        self.header = "\n".join(dimacs_header(formula, grid=grid)) + "\n"
        self.nvars = formula.nvars
        self.nclauses = len(formula.clauses)
        self.body = os.path.join(folder, "clauses")
        self.path = os.path.join(folder, "formula.cnf")
        self.model = os.path.join(folder, "model.txt")
        with open(self.body, "w", encoding="ascii") as fp:
            for i in range(0, self.nclauses, 65536):
                fp.write(clause_text(formula.clauses[i:i + 65536]))

    def prepare(self, extra: list[list[int]]) -> str:
        """Write the file for the next run (the ``extra`` clauses last); its path."""
        with open(self.path, "w", encoding="ascii") as out:
            out.write(self.header)
            out.write(f"p cnf {self.nvars} {self.nclauses + len(extra)}\n")
            out.flush()
            with open(self.body, "rb") as body:
                shutil.copyfileobj(body, out.buffer, 1 << 20)
            out.write(clause_text(extra))
        if os.path.exists(self.model):
            os.unlink(self.model)
        return self.path


class ExecSolver(Closing):
    """Solve and count puzzles with an external SAT solver binary (see the module docstring).

    Args:
        command: ``'exec:kissat -q'`` or a parsed :class:`Command`.
        encoding: a name from :data:`satdoku.cnf.encodings.ENCODINGS`; None picks one by grid size
            (:func:`satdoku.tasks.solvers.choose_encoding`).
        amo: an at-most-one encoding (defaults as for :class:`satdoku.sat.solver.SatSolver`).
        max_clauses: refuse (status ``refused``) a formula with more clauses.
        tmpdir: where the temporary folders go (default: the system's).

    A command that prints no answer gives status ``error``:

    >>> from satdoku.io.text import parse_puzzle
    >>> with ExecSolver('exec:sh -c "echo nonsense"') as s:
    ...     r = s.solve(parse_puzzle("1.3..4.2.34.4.23").grid)
    >>> r.status, r.message
    ('error', "exec:sh gave no usable answer: expected 's SATISFIABLE' or 'SAT', found 'nonsense'")
    """

    capabilities = EXEC_CAPABILITIES  # rules are clauses like any other; a process a solve

    def __init__(self, command: str | Command, encoding: str | None = None,
                 amo: str | None = None, *, max_clauses: int | None = DEFAULT_MAX_CLAUSES,
                 tmpdir: str | None = None, **_: Any) -> None:
        self.command = check_command(command)
        self.name = self.command.name
        check_choices(encoding, amo)
        self.encoding = encoding
        self.amo = amo
        self.max_clauses = max_clauses
        self.tmpdir = tmpdir
        self._setup = parent_death_preexec()

    def encoding_for(self, grid: Grid) -> str:
        """The encoding ``grid`` gets: the one named, else the choice by size."""
        return self.encoding or choose_encoding(grid.size)

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: tuple = ()) -> Result:
        """Find one solution of ``grid`` (``limit=1``) or count solutions up to ``limit``,
        one process per solution; every stage stops at ``deadline``."""
        start = time.perf_counter()
        deadline = deadline or NO_DEADLINE
        encoding = self.encoding_for(grid)
        stats: dict[str, Any] = {"encode_ms": 0.0, "load_ms": 0.0, "solve_ms": 0.0, "runs": 0,
                                 "solver_cpu_ms": 0.0}
        solutions: list[Grid] = []
        status = message = None
        folder = None
        try:
            deadline.check()
            formula = encode(grid, encoding, self.amo, "units", max_clauses=self.max_clauses,
                             deadline=deadline, constraints=constraints)
            if isinstance(formula, ReducedFormula):
                stats.update(formula.stats, eliminated=formula.eliminated,
                             propagated=formula.assigned)
            folder = _new_folder(self.tmpdir)
            cnf = _Cnf(folder, formula, grid)
            stats.update(variables=cnf.nvars, clauses=cnf.nclauses,
                         encode_ms=(time.perf_counter() - start) * 1000)
            status = count_afresh(formula, grid, limit, self._runner(cnf, deadline, stats),
                                  solutions)
        except (TimeUp, TooBigError, SolverError) as error:
            status, message = status_of(error, deadline, len(solutions) if limit > 1 else None)
        except ModelError as error:
            status, message = "error", f"{self.name} gave no usable answer: {error.detail}"
        finally:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
        return result_of(status, solutions, limit=limit, solver=self.name, encoding=encoding,
                         time_ms=(time.perf_counter() - start) * 1000, stats=stats,
                         message=message)

    def _runner(self, cnf: _Cnf, deadline: Deadline, stats: dict[str, Any]):
        """One run of the command per call (:func:`satdoku.sat.oneshot.count_afresh`): the
        model it found, or None when it proved there is none."""
        def run(extra: list[list[int]]) -> list[int] | None:
            t0 = time.perf_counter()
            path = cnf.prepare(extra)
            t1 = time.perf_counter()
            try:
                text = self._run(path, cnf.model, deadline, stats)
            finally:
                stats["load_ms"] += (t1 - t0) * 1000
                stats["solve_ms"] += (time.perf_counter() - t1) * 1000
                stats["runs"] += 1
            try:
                return parse_model(text, cnf.nvars)
            except UnsatisfiableError:
                return None
        return run

    def _run(self, path: str, model: str, deadline: Deadline, stats: dict[str, Any]) -> str:
        """Run the command on the formula at ``path``; its answer (the model file's text, or
        what it printed). The process's own CPU time is added to ``stats['solver_cpu_ms']``;
        it runs under a CPU limit of the time left (whole seconds, rounded up). Raises TimeUp at the deadline (the process killed), SolverError when
        it cannot start or fails without an answer."""
        command = self.command
        deadline.check()
        stdin = open(path, "rb") if command.stdin else subprocess.DEVNULL
        cpu_limit = None if deadline.unlimited else max(1, math.ceil(deadline.remaining()))
        before = _children_cpu()
        try:
            process = subprocess.Popen(command.arguments(path, model), stdin=stdin,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       start_new_session=True,
                                       preexec_fn=_limited(self._setup, cpu_limit))
        except OSError as error:
            raise SolverError(f"cannot run {command.argv[0]}: "
                              f"{error.strerror or error}") from None
        finally:
            if not isinstance(stdin, int):  # the file opened above, not DEVNULL
                stdin.close()
        try:
            remaining = None if deadline.unlimited else max(deadline.remaining(), 0.0)
            out, err = process.communicate(timeout=remaining)
        except subprocess.TimeoutExpired:
            _kill(process)
            raise TimeUp from None
        except BaseException:  # Ctrl-C: the solver goes too
            _kill(process)
            raise
        finally:
            stats["solver_cpu_ms"] += (_children_cpu() - before) * 1000.0
        code = process.returncode
        if code in (-signal.SIGXCPU, -signal.SIGKILL) and cpu_limit is not None \
                and (_children_cpu() - before) >= cpu_limit - 0.05:
            raise TimeUp  # the CPU limit (a second or more past it: SIGKILL)
        if code < 0:
            raise SolverError(f"{self.name} was stopped by signal {-code} "
                              f"({_one_line(err.decode(errors='replace')) or 'no message'})")
        if command.model_file:
            try:
                with open(model, encoding="utf-8", errors="replace") as fp:
                    text = fp.read(MAX_MODEL_BYTES + 1)
            except OSError:
                text = ""
        else:
            text = out[:MAX_MODEL_BYTES + 1].decode("utf-8", errors="replace")
        if len(text) > MAX_MODEL_BYTES:
            raise SolverError(f"{self.name} wrote more than {MAX_MODEL_BYTES >> 20} MB")
        if not text.strip() and code not in (10, 20):
            why = _one_line(err.decode(errors="replace")) or _one_line(
                out.decode(errors="replace")) or "no output"
            raise SolverError(f"{self.name} exited with code {code} without an answer: {why}")
        return text

    def close(self) -> None:
        """Nothing is kept between puzzles (each has its own process and folder)."""


    def __repr__(self) -> str:
        return f"ExecSolver({self.command.spec!r}, encoding={self.encoding!r})"
