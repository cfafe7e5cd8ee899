"""Child processes: how many workers, and that none outlives satdoku.

Pool workers and portfolio racers call :func:`die_with_parent` when they start; solver binaries
started with ``subprocess`` get :func:`parent_death_preexec` as their ``preexec_fn``. Linux's
parent-death signal does it where there is one; a watching thread covers the rest.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Callable

from .errors import OptionError

__all__ = ["worker_count", "die_with_parent", "parent_death_preexec"]


def worker_count(jobs: int) -> int:
    """The number of worker processes for ``jobs`` (0: one per core), at most the cores there
    are (more would only queue on them).

    >>> worker_count(1)
    1
    """
    cores = os.cpu_count() or 1
    if jobs < 0:
        raise OptionError("jobs must be 0 (every core) or more")
    return min(jobs or cores, cores)


def die_with_parent(parent: int | None = None) -> None:
    """End this worker when the parent process ends, however it ends (SIGKILL included):
    Linux's parent-death signal where there is one, and a thread that notices a new parent.

    ``parent`` is the parent's pid as the parent saw it before starting this worker: a parent
    killed before the worker got here is then noticed too (``os.getppid()`` would already
    name the new parent, init or a subreaper, and the worker would live on)."""
    parent = os.getppid() if parent is None else parent
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent went before the signal was set
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="satdoku-parent-watch", daemon=True).start()


def parent_death_preexec() -> Callable[[], None] | None:
    """A function for ``preexec_fn`` that has the child killed when satdoku ends (Linux)."""
    try:
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def setup() -> None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent went before the signal was set
            os._exit(1)
    return setup
