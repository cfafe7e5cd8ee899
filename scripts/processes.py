"""Whole processes, timed: the one place the benchmarks under scripts/ start a command, wait for
it and read what it cost.

:func:`run_timed` starts a command, waits for it with ``os.wait4`` and gives its wall time and
the CPU time of the process and of every process it reaped (the workers of ``--jobs``), its exit
code, what it wrote on stderr and, when asked, on stdout. Output goes through temporary files,
never pipes, so a chatty process cannot block on a full pipe while it is waited for.
:func:`satdoku_command` is the command line of this environment's satdoku.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Run", "run_timed", "satdoku_command"]


@dataclass
class Run:
    """One finished process: wall and CPU seconds, exit code, its stderr (the last 2,000
    characters) and its stdout when it was kept."""

    wall: float
    cpu: float
    code: int
    stderr: str
    stdout: str | None = None


def satdoku_command() -> list[str]:
    """The ``satdoku`` command of this interpreter's environment, else the one on PATH, else
    ``python -m satdoku``."""
    beside = Path(sys.executable).with_name("satdoku")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("satdoku")
    return [found] if found else [sys.executable, "-m", "satdoku"]


def run_timed(argv: list[str], *, stdin: str | Path | None = None,
              stdout: str | Path | None = None, keep_stdout: bool = False,
              env: dict[str, str] | None = None, cwd: str | Path | None = None,
              core: int | None = None) -> Run:
    """Run ``argv`` to its end: stdin from the file ``stdin`` (else none), stdout to the file
    ``stdout`` (else nowhere, or kept in :attr:`Run.stdout` with ``keep_stdout``), pinned to
    ``core`` when given."""
    pin = (lambda: os.sched_setaffinity(0, {core})) if core is not None else None
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as kept, \
            open(stdin or os.devnull, "rb") as source, \
            open(stdout or os.devnull, "wb") as sink:
        out = kept if keep_stdout else sink
        begun = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=source, stdout=out, stderr=err, env=env, cwd=cwd,
                                preexec_fn=pin)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - begun
        proc.returncode = os.waitstatus_to_exitcode(status)  # waited for: Popen must not
        err.seek(0)
        text = err.read().decode(errors="replace")[-2000:]
        kept.seek(0)
        written = kept.read().decode(errors="replace") if keep_stdout else None
    return Run(wall, usage.ru_utime + usage.ru_stime, proc.returncode, text, written)
