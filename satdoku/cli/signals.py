"""The signals that end a run: Ctrl-C (SIGINT), SIGTERM and SIGHUP, all taken as Ctrl-C, and
held off the few steps that must not be cut in two (a write of results and its count).
"""

from __future__ import annotations

import contextlib
import signal
import threading

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

__all__ = ["Interrupted", "install_signals", "signals_held"]


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C."""


def _on_signal(signum, frame):
    raise Interrupted(signum)


def install_signals() -> None:
    """SIGTERM and SIGHUP end a run like Ctrl-C; an ignored SIGINT (a background job) stays
    ignored, python-sat's own handler included (:func:`satdoku.sat.binding.new_solver`)."""
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _on_signal)


_HELD = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None))
              if s is not None)


@contextlib.contextmanager
def signals_held(answer: bool = True) -> Iterator[None]:
    """Signals that end a run wait until the block is done, then take effect (with
    ``answer``; without, they are dropped: the run is ending on one already).

    Two holds: this thread blocks them where the system can (POSIX), so a write is never
    broken off by one; and their Python handlers only note them meanwhile, because another
    thread (a process pool's) may take the signal, and the main thread would then raise
    KeyboardInterrupt between any two steps of the block (a write done and not yet
    counted, say). The first one noted is handled as it would have been, after the block.
    The handlers are put back whatever happens, one that was due meanwhile answered first.
    """
    noted: list[int] = []
    handlers: dict[int, Callable[[int, Any], Any]] = {}
    blocking = hasattr(signal, "pthread_sigmask")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if blocking else set()
    try:
        if threading.current_thread() is threading.main_thread():  # only it sets handlers
            for sig in _HELD:
                handler = signal.getsignal(sig)
                if callable(handler):
                    handlers[sig] = handler
                    _set(sig, lambda signum, frame: noted.append(signum))
        yield
    finally:
        if blocking:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)  # one held is noted now
        for sig, handler in handlers.items():
            _set(sig, handler)
    if noted and answer:
        handlers[noted[0]](noted[0], None)


def _set(sig: int, handler: Callable[[int, Any], Any]) -> None:
    """``signal.signal(sig, handler)``, surely: it answers a signal that is due before it sets
    the handler, so a KeyboardInterrupt from that one is raised after it is set."""
    raised: BaseException | None = None
    while True:
        try:
            signal.signal(sig, handler)
            break
        except BaseException as error:  # the due one's handler raised: set it again
            raised = raised or error
    if raised is not None:
        raise raised
