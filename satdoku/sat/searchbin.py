"""Search binaries: ``bench --solver exec:"qqwing --solve --one-line"``, one process a puzzle.

A compiled Sudoku solver that reads puzzle lines (qqwing, tdoku's harness, your own) is timed
beside SAT as SAT solver binaries are (:mod:`satdoku.sat.external`): the puzzle goes on its
standard input as one line (``.`` for an empty cell), the first line of its output that is a
full grid of the puzzle's size is its solution (verified like every other), and its process is
charged its own CPU time alone (``stats['solver_cpu_ms']``: start-up included, satdoku's work
around it not), under a CPU limit of the time left. Output with no grid is ``unsolvable`` when
it says so (:data:`_NONE`, any case: qqwing's "Puzzle is not possible."), else ``error``. Lines ``Name: number`` of its output are
its statistics (qqwing's ``--stats``: ``Number of Guesses: 3`` becomes ``stats['guesses']``).

It finds one solution: counting (``limit`` 2 or more) is ``refused``, as are variant and jigsaw
puzzles.
"""

from __future__ import annotations

import re
import subprocess
import time
from typing import Any, Sequence

from ..closing import Closing
from ..children import parent_death_preexec
from ..deadline import NO_DEADLINE, Deadline
from ..errors import SatdokuError
from ..model.grid import Grid
from ..model.result import Capabilities, Result
from .commands import check_command, parse_command
from .external import _children_cpu, _kill, _limited, _one_line

__all__ = ["SearchBinary"]

_STAT = re.compile(r"^\s*(?:number of\s+)?([A-Za-z][A-Za-z ]*?)\s*:\s*(\d+)\s*$", re.I)

#: What a binary says when a puzzle has no solution (qqwing: "Puzzle is not possible.").
_NONE = ("no solution", "not possible", "impossible", "unsolvable")


class SearchBinary(Closing):
    """A search binary behind the :class:`~satdoku.model.result.Solver` interface (see the
    module docstring); ``spec`` is ``'exec:COMMAND'``, its name as written."""

    encoding: str | None = None
    capabilities = Capabilities(rules=False, assumptions=False, conflicts=False)

    def __init__(self, spec: str) -> None:
        self.command = check_command(parse_command(spec + " {stdin}"))
        self.name = spec
        self._setup = parent_death_preexec()

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: Sequence[Any] = ()) -> Result:
        """One solution of ``grid`` (``limit`` 1), from one run of the command."""
        from ..io.text import format_grid
        start = time.perf_counter()
        deadline = deadline or NO_DEADLINE
        stats: dict[str, Any] = {"solver_cpu_ms": 0.0}

        def ended(status: str, solution: Grid | None = None, message: str | None = None):
            return Result(status, solution, solver=self.name, encoding=None,
                          time_ms=(time.perf_counter() - start) * 1000.0, stats=stats,
                          message=message, limit=limit)

        if limit > 1:
            return ended("refused", message=f"{self.name} finds one solution; it cannot count")
        if not grid.geometry.is_boxed:
            return ended("refused", message=f"{self.name} reads puzzle lines: no jigsaw regions")
        if deadline.expired():
            return ended("timeout", message=deadline.message())
        cpu_limit = None if deadline.unlimited else max(1, int(deadline.remaining() + 0.999))
        before = _children_cpu()
        try:
            process = subprocess.Popen(self.command.arguments("", ""), stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       start_new_session=True,
                                       preexec_fn=_limited(self._setup, cpu_limit))
        except OSError as error:
            return ended("error", message=f"cannot run {self.command.argv[0]}: "
                                          f"{error.strerror or error}")
        line = format_grid(grid, "line").encode() + b"\n"
        try:
            remaining = None if deadline.unlimited else max(deadline.remaining(), 0.0)
            out, err = process.communicate(line, timeout=remaining)
        except subprocess.TimeoutExpired:
            _kill(process)
            return ended("timeout", message=deadline.message())
        except BaseException:
            _kill(process)
            raise
        finally:
            stats["solver_cpu_ms"] = (_children_cpu() - before) * 1000.0
        if process.returncode < 0 and cpu_limit is not None \
                and stats["solver_cpu_ms"] >= cpu_limit * 1000.0 - 50:
            return ended("timeout", message=deadline.message())
        text = out.decode("utf-8", errors="replace")
        stats.update(_statistics(text))
        solution = _solution(text, grid)
        if solution is not None:
            return ended("solved", solution)
        if any(words in text.lower() for words in _NONE):
            return ended("unsolvable")
        why = _one_line(text) or _one_line(err.decode(errors="replace")) or "no output"
        return ended("error", message=f"{self.name} gave no solution (exit code "
                                      f"{process.returncode}): {why}")


def _solution(text: str, grid: Grid) -> Grid | None:
    """The first line of ``text`` that reads as a full grid of ``grid``'s shape."""
    from ..io.text import parse_puzzle
    for line in text.splitlines():
        if len(line.strip()) < grid.geometry.ncells:
            continue
        try:
            found = parse_puzzle(line.strip(), box=(grid.geometry.box_rows,
                                                    grid.geometry.box_cols)).grid
        except (SatdokuError, ValueError):
            continue
        if found is not None and found.geometry == grid.geometry and all(found.cells):
            return found
    return None


def _statistics(text: str) -> dict[str, int]:
    """``Name: number`` lines as ``{'name': number}`` (lower case, spaces as underscores, a
    leading "Number of" dropped).

    >>> _statistics("Number of Guesses: 3\\nDifficulty: Easy\\nnodes: 12")
    {'guesses': 3, 'nodes': 12}
    """
    stats = {}
    for line in text.splitlines():
        match = _STAT.match(line)
        if match:
            stats[match.group(1).strip().lower().replace(" ", "_")] = int(match.group(2))
    return stats
