"""Time limits for python-sat solvers: one watchdog thread, conflict-budget slices, Ctrl-C.

MiniSat-like solvers have ``interrupt()``, called from one watchdog thread at the deadline;
CaDiCaL has none, so it solves in slices of a conflict budget, each sized from the conflict
rate just seen to last half the time the call has taken so far (at least
:data:`~satdoku.sat.catalogue.SLICE_MIN_S`, at most 4 times the last, and at most half the time
left before the deadline), with the clock read between slices (docs/tuning.md). Some of
CaDiCaL's inprocessing runs for seconds inside one slice on a big formula, whatever its budget:
it is turned off once the time left is shorter than it may take
(:data:`~satdoku.sat.catalogue.UNBOUNDED_INPROCESSING`).
"""

from __future__ import annotations

import threading
import time

from ..deadline import Deadline
from .binding import configure
from .catalogue import (INPROCESS_S_PER_CLAUSE, SLICE_MIN_S, UNBOUNDED_INPROCESSING,
                        SatSolverInfo)

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Clock", "pysat_call"]


class _Watchdog:
    """One thread that calls a function at a deadline: cheaper than a Timer thread per puzzle."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._deadline = 0.0
        self._action: Any = None
        self._thread: threading.Thread | None = None

    def arm(self, deadline: float, action: Any) -> None:
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="satdoku-watchdog",
                                                daemon=True)
                self._thread.start()
            self._deadline, self._action = deadline, action
            self._cond.notify()

    def disarm(self) -> None:
        # Under the lock: once this returns, the action can no longer fire.
        with self._cond:
            self._action = None

    def _run(self) -> None:
        with self._cond:
            while True:
                if self._action is None:
                    self._cond.wait()
                    continue
                remaining = self._deadline - time.perf_counter()
                if remaining > 0:
                    self._cond.wait(remaining)
                    continue
                action, self._action = self._action, None
                action()


def pysat_call(method, *args: Any, **kwargs: Any) -> Any:
    """A python-sat call; its "Caught keyboard interrupt" error becomes KeyboardInterrupt."""
    try:
        return method(*args, **kwargs)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # pysolvers.error, the only thing these calls raise
        if "keyboard interrupt" in str(error).lower():
            raise KeyboardInterrupt from None
        raise


class Clock:
    """Solve calls of one :class:`SatSolverInfo`'s solvers within deadlines."""

    def __init__(self, info: SatSolverInfo) -> None:
        self.info = info
        self._watchdog: _Watchdog | None = None

    def solve(self, solver: Any, assumptions: list[int], deadline: Deadline,
              conflicts: int | None = None, small: bool = True,
              cap: int | None = None, settings: dict[str, int] | None = None) -> bool | None:
        """One solve call of a python-sat ``solver``: True, False, or None when the deadline
        (or ``conflicts``, a budget that gives the same answer on every machine) ran out first.
        ``small``: a grid up to OPTIONS_MAX_SIZE, solved in one call when there is no limit.
        ``cap``: at most this many conflicts as well as the deadline (None when either runs
        out; ``conflicts`` alone does not look at the deadline). ``settings``: the options
        ``solver`` was made with, set back after the deadline turned some off."""
        if conflicts is not None:
            solver.conf_budget(conflicts)
            return pysat_call(solver.solve_limited, assumptions=assumptions)
        if deadline.unlimited and (small or not self.info.budget):
            if cap is None:
                return pysat_call(solver.solve, assumptions=assumptions)
            solver.conf_budget(max(1, cap))
            return pysat_call(solver.solve_limited, assumptions=assumptions)
        # Bigger grids solve in slices even without a limit, so that Python gets control back
        # often enough to act on SIGTERM and SIGHUP (only Ctrl-C reaches into a solve call).
        if deadline.expired():
            return None
        if self.info.interrupt and not deadline.unlimited:
            if self._watchdog is None:
                self._watchdog = _Watchdog()
            self._watchdog.arm(deadline.at, solver.interrupt)
            # 0: no budget (one an earlier call set would stop this one too)
            solver.conf_budget(max(1, cap) if cap is not None else 0)
            try:
                return pysat_call(solver.solve_limited, assumptions=assumptions,
                                  expect_interrupt=True)
            finally:
                self._watchdog.disarm()
                solver.clear_interrupt()
        quiet = _Quiet(self.info, solver, deadline, settings)
        answer = self._slices(solver, assumptions, deadline, cap, quiet)
        quiet.restore()  # not after Ctrl-C: the solver takes no call then (backend.Backend.run)
        return answer

    @staticmethod
    def _slices(solver: Any, assumptions: list[int], deadline: Deadline, cap: int | None,
                quiet: "_Quiet") -> bool | None:
        """:meth:`solve` in conflict-budget slices, with the clock read between them."""
        # Start small: on a 25x25 puzzle CaDiCaL may manage only 1,000 conflicts a second.
        budget = 10
        first = time.perf_counter()
        left = cap if cap is not None else -1  # conflicts left under the cap (-1: no cap)
        while True:
            begun = time.perf_counter()
            quiet.check(begun)
            conflicts_before = solver.accum_stats().get("conflicts", 0)
            solver.conf_budget(budget if left < 0 else max(1, min(budget, left)))
            answer = pysat_call(solver.solve_limited, assumptions=assumptions)
            if answer is not None:
                return answer
            now = time.perf_counter()
            done = max(1, solver.accum_stats().get("conflicts", 0) - conflicts_before)
            if now >= deadline.at or 0 <= left <= done:
                return None
            left = left - done if left >= 0 else left
            # Size the next slice at the rate just seen: half the time this call has taken so
            # far, at least SLICE_MIN_S, and at most half of what is left, so that a slower
            # rate than the one just seen still ends it before the deadline.
            rate = done / max(now - begun, 1e-6)
            target = min(max(SLICE_MIN_S, (now - first) / 2), (deadline.at - now) / 2)
            budget = max(10, min(4 * budget, int(rate * target)))


class _Quiet:
    """The inprocessing of :data:`~satdoku.sat.catalogue.UNBOUNDED_INPROCESSING` in one sliced
    call: turned off (:meth:`check`) once the time left is under what it may take on this
    formula, and set back (:meth:`restore`) when the call ends, to the options the solver was
    made with or else the solver's defaults."""

    def __init__(self, info: SatSolverInfo, solver: Any, deadline: Deadline,
                 settings: dict[str, int] | None) -> None:
        defaults = UNBOUNDED_INPROCESSING.get(info.name)
        self.solver = solver
        self.back = {k: (settings or {}).get(k, v) for k, v in defaults.items()} \
            if defaults and not deadline.unlimited else {}
        self.start = deadline.at - INPROCESS_S_PER_CLAUSE * solver.nof_clauses() \
            if self.back else float("inf")
        self.off = False

    def check(self, now: float) -> None:
        if not self.off and now >= self.start:
            configure(self.solver, dict.fromkeys(self.back, 0))
            self.off = True

    def restore(self) -> None:
        if self.off:
            configure(self.solver, self.back)
            self.off = False
