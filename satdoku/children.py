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
from typing import Any, Callable

from .deadline import Deadline, TimeUp
from .errors import OptionError

__all__ = ["worker_count", "die_with_parent", "parent_death_preexec", "in_child", "ChildFailed"]


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


class ChildFailed(Exception):
    """What :func:`in_child` raises when the child gave no answer: ``error`` is the text of the
    exception it raised, or None when it died without a word."""

    def __init__(self, error: str | None) -> None:
        super().__init__(error or "the child process ended without an answer")
        self.error = error


def in_child(work: Callable[[], Any], deadline: Deadline) -> Any:
    """``work()`` in a forked child process that dies with this one, its answer sent back
    through a pipe: the one way to bound a C call that cannot be interrupted. The child is
    killed at ``deadline`` (then TimeUp); no answer raises :class:`ChildFailed`."""
    import multiprocessing
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def run() -> None:
        die_with_parent()
        try:
            send.send((True, work()))
        except Exception as error:  # reported by the parent
            send.send((False, f"{type(error).__name__}: {error}"))
        finally:
            send.close()

    child = context.Process(target=run, daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(None if deadline.unlimited else max(deadline.remaining(), 0.0)):
            raise TimeUp
        done, answer = receive.recv()
    except EOFError:
        raise ChildFailed(None) from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if not done:
        raise ChildFailed(answer)
    return answer
