"""Portfolios: several solver configurations race on one puzzle, each in its own process; the
first verified answer wins and the others are killed at once.

Glossary:

- configuration (:class:`Config`): a SAT solver (a python-sat name or an ``exec:`` command), an
  encoding (None: by grid size) and solver options set before any clause (CaDiCaL's ``seed``,
  ``phase``...). Written ``SOLVER[/ENCODING][/KEY=VALUE,...]``, for example
  ``cadical195/reduced/seed=1`` (:func:`parse_config`).
- race: one process per configuration on the same puzzle, all under the puzzle's deadline.

Why it pays: on a hard puzzle a CDCL solver's time depends on luck (seeds, phases) and on the
encoding far more than on the machine, so two different configurations on two cores finish
well before either alone does on average. The measurements behind :data:`DEFAULT_PORTFOLIO`
are in ``docs/hard-grids.md``.

Design: the racers are forked (Linux; spawned elsewhere), solve with a fresh solver each (clues
as unit clauses: a single hard puzzle gains nothing from assumptions) and send back their
result through a pipe. The parent waits on the pipes, verifies the first answer
(:func:`satdoku.model.result.verify`); a wrong answer or an error does not win, and the race goes
on. When one wins, or the time is up, the others are stopped and reaped: SIGKILL, except that
a racer running an external solver gets SIGTERM first, to take its solver's process group and
temporary folder with it (:func:`_stop_racers`). Racers die with
the parent however it ends (:mod:`satdoku.run.parallel`'s parent-death watch), and an external
solver dies with its racer (:mod:`satdoku.sat.external`).
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import time
from multiprocessing.connection import wait
from typing import Any, Sequence

from ..closing import Closing
from ..deadline import NO_DEADLINE, Deadline
from ..children import die_with_parent, worker_count
from ..budget import DEFAULT_MAX_CLAUSES
from ..cnf.encodings import ENCODINGS
from ..errors import OptionError
from ..model.grid import Grid
from ..model.result import Capabilities, Result, verify
from ..records import field, record

__all__ = ["Config", "DEFAULT_PORTFOLIO", "parse_config", "PortfolioSolver", "portfolio_size"]

#: After the deadline, racers get this long to send what they found (a count so far) before
#: they are killed.
GRACE_S = 0.5

#: A losing racer that runs an external solver gets SIGTERM and this long to kill its
#: solver's process group and remove its folder, before SIGKILL.
TERM_WAIT_S = 0.5


class _Stopped(BaseException):
    """SIGTERM in a racer: unwinds it so that an external solver's clean-up runs."""


def _stop(signum: int, frame: Any) -> None:
    raise _Stopped


@record(frozen=True)
class Config:
    """One configuration of a race (see the module docstring)."""

    sat_solver: str = "cadical195"
    encoding: str | None = None
    options: tuple[tuple[str, int], ...] = field(default=())

    @property
    def label(self) -> str:
        """``'cadical195/reduced/seed=1'``: the spelling :func:`parse_config` reads."""
        parts = [self.sat_solver] + ([self.encoding] if self.encoding else [])
        if self.options:
            parts.append(",".join(f"{k}={v}" for k, v in self.options))
        return "/".join(parts)

    def make(self, max_clauses: int | None = DEFAULT_MAX_CLAUSES):
        """A solver for one puzzle in this configuration."""
        from .catalogue import is_exec
        from .config import SatConfig
        if is_exec(self.sat_solver) and self.options:
            raise OptionError(f"{self.label}: options of an exec: solver go in its command")
        config = SatConfig(self.sat_solver, self.encoding,
                           max_clauses=DEFAULT_MAX_CLAUSES if max_clauses is None else max_clauses)
        return config.solver(incremental=False, configure=dict(self.options) or None)

    @property
    def keeps_time_limit(self) -> bool:
        from .catalogue import capabilities_of
        return capabilities_of(self.sat_solver).time_limit


def parse_config(text: str) -> Config:
    """The :class:`Config` written ``SOLVER[/ENCODING][/KEY=VALUE,...]``.

    Read from the right, so an ``exec:`` command may contain slashes.

    >>> parse_config("cadical195/reduced/seed=1,phase=0")
    Config(sat_solver='cadical195', encoding='reduced', options=(('seed', 1), ('phase', 0)))
    >>> parse_config("kissat").label
    'kissat404'
    """
    from .catalogue import check_sat_name
    rest = text.strip()
    options: tuple[tuple[str, int], ...] = ()
    head, slash, last = rest.rpartition("/")
    if slash and "=" in last:
        try:
            options = tuple((k.strip(), int(v)) for k, v in
                            (item.split("=", 1) for item in last.split(",")))
        except ValueError:
            raise OptionError(f"bad solver options {last!r} in {text!r}: write KEY=NUMBER,"
                              "...") from None
        rest = head
    head, slash, last = rest.rpartition("/")
    encoding = None
    if slash and last in ENCODINGS:
        rest, encoding = head, last
    if not rest:
        raise OptionError(f"no SAT solver in the configuration {text!r}")
    config = Config(check_sat_name(rest), encoding, options)
    if options:
        from .catalogue import CONFIGURABLE
        if config.sat_solver not in CONFIGURABLE:
            raise OptionError(f"{config.sat_solver} takes no solver options; only "
                              f"{', '.join(CONFIGURABLE)} do")
    return config


#: The configurations raced, in order: with K processes the first K race (those that can
#: serve the puzzle: see :meth:`PortfolioSolver.racers`). Measured on the minimal 25x25
#: puzzles of gecode_frisch (docs/hard-grids.md): CaDiCaL on the reduced formula was the best
#: python-sat configuration alone, the full formula the closest and best with it; seeds come
#: next, and Kissat, slower alone (each count step starts it afresh), for more cores.
DEFAULT_PORTFOLIO: tuple[Config, ...] = (
    Config("cadical195", "reduced"),
    Config("cadical195", "extended"),
    Config("cadical195", "reduced", (("seed", 1),)),
    Config("kissat404", "extended"),
    Config("cadical195", "extended", (("seed", 1),)),
    Config("cadical195", "reduced", (("seed", 2),)),
    Config("kissat404", "reduced"),
    Config("cadical195", "extended", (("seed", 2),)),
)


def _context():
    """Fork where there is fork (racers start in milliseconds), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _race(config: Config, grid: Grid, limit: int, at: float | None, seconds: float | None,
          constraints: tuple, max_clauses: int | None, conn: Any) -> None:
    """One racer: solve ``grid`` in ``config`` and send the result (or what went wrong)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and kills us
    signal.signal(signal.SIGTERM, _stop)  # how the parent stops a losing exec: racer
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    die_with_parent()
    try:
        deadline = NO_DEADLINE
        if seconds is not None and at is not None and config.keeps_time_limit:
            deadline = Deadline(seconds, at - seconds)
        with config.make(max_clauses) as solver:
            if constraints:
                result = solver.solve(grid, limit=limit, deadline=deadline,
                                      constraints=constraints)
            else:
                result = solver.solve(grid, limit=limit, deadline=deadline)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # an external solver's share
        result.stats["cpu_s"] = time.process_time() + usage.ru_utime + usage.ru_stime
        conn.send(("result", result))
    except Exception as error:  # reported by the parent as this configuration's failure
        conn.send(("exception", f"{type(error).__name__}: {error}"))
    except BaseException:  # stopped (SIGTERM), or a Ctrl-C python-sat let through: quietly
        pass
    finally:
        conn.close()
        os._exit(0)  # no clean-up of inherited state: the parent owns it


class PortfolioSolver(Closing):
    """Race configurations on each puzzle (see the module docstring).

    Args:
        configs: the configurations, in order (default :data:`DEFAULT_PORTFOLIO`).
        jobs: how many race (0: one per core); the first ``jobs`` configurations.
        max_clauses: refuse (status ``refused``) a formula with more clauses.

    >>> from satdoku.io.text import parse_puzzle
    >>> with PortfolioSolver(jobs=2) as s:
    ...     r = s.solve(parse_puzzle("1.3..4.2.34.4.23").grid, limit=2)
    >>> r.status, r.solver.startswith("portfolio:"), r.stats["raced"]
    ('unique', True, 2)
    """

    name = "portfolio"
    encoding: str | None = None  # the Solver protocol: no CNF encoding
    #: Rules go to the racers that can serve them (racers()); each racer is its own process.
    capabilities = Capabilities(assumptions=False, conflicts=False)

    def __init__(self, configs: Sequence[Config] | None = None, *, jobs: int = 0,
                 max_clauses: int | None = DEFAULT_MAX_CLAUSES, **_: Any) -> None:
        configs = list(configs or DEFAULT_PORTFOLIO)
        if not configs:
            raise OptionError("a portfolio needs at least one configuration")
        self.configs = configs
        self.jobs = worker_count(jobs)
        self.max_clauses = max_clauses

    def racers(self, grid: Grid, constraints: tuple = ()) -> list[Config]:
        """The configurations that race on ``grid``: the first ``jobs`` of them. From
        :data:`~satdoku.cnf.policy.LARGE_MIN_SIZE` on, a full formula does not fit, so every
        configuration gets the reduced one (and duplicates go); variant rules are served by
        every encoding (:mod:`satdoku.cnf.rules`)."""
        from ..cnf.policy import LARGE_MIN_SIZE
        chosen: list[Config] = []
        for config in self.configs:
            if grid.size >= LARGE_MIN_SIZE and config.encoding not in (None, "reduced"):
                config = Config(config.sat_solver, "reduced", config.options)
            if config not in chosen:
                chosen.append(config)
        return (chosen or [Config()])[:self.jobs]

    def solve(self, grid: Grid, *, limit: int = 1, deadline: Deadline | None = None,
              constraints: tuple = ()) -> Result:
        """Race every configuration on ``grid``; the first verified answer (see the module
        docstring). Timeouts keep the largest count any racer reached."""
        start = time.perf_counter()
        deadline = deadline or NO_DEADLINE
        context = _context()
        configs = self.racers(grid, constraints)
        racers: dict[Any, tuple[Config, Any]] = {}  # the pipes still to be read
        processes = []
        failures: list[Result] = []
        winner: Result | None = None
        if deadline.expired():
            return Result("timeout", solver=self.name, limit=limit,
                          count=0 if limit >= 2 else None, message=deadline.message(None),
                          stats={"raced": 0})
        try:
            for config in configs:
                receive, send = context.Pipe(duplex=False)
                process = context.Process(
                    target=_race, daemon=True, name=f"satdoku-race {config.label}",
                    args=(config, grid, limit, None if deadline.unlimited else deadline.at,
                          deadline.seconds, constraints, self.max_clauses, send))
                process.start()
                processes.append(process)
                send.close()
                racers[receive] = (config, process)
            while racers and winner is None:
                # After the deadline only racers that keep it have something to send.
                grace = GRACE_S if any(c.keeps_time_limit for c, _ in racers.values()) else 0
                remaining = None if deadline.unlimited else deadline.remaining() + grace
                if remaining is not None and remaining <= 0:
                    break
                for conn in wait(list(racers), timeout=remaining):
                    config, process = racers.pop(conn)
                    result = self._receive(conn, config, process, grid, limit, constraints)
                    if deadline.expired() and result.status != "timeout":
                        # Too late (a racer that cannot keep the limit): what counts after the
                        # deadline is what the others found before it.
                        continue
                    if result.ok or result.status == "unsolvable":
                        winner = result
                        break
                    failures.append(result)
        finally:
            _stop_racers(list(zip(configs, processes)))
            for conn in racers:
                conn.close()
        if winner is None:
            winner = self._best_failure(failures, deadline, limit)
        winner.stats["raced"] = len(configs)
        winner.time_ms = (time.perf_counter() - start) * 1000
        return winner

    def _receive(self, conn, config: Config, process, grid: Grid, limit: int,
                 constraints: tuple) -> Result:
        """The verified result a racer sent, or an ``error`` result saying why there is none."""
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError):
            process.join(1)
            kind, payload = "exception", f"ended without an answer (exit code {process.exitcode})"
        finally:
            conn.close()
        label = f"portfolio:{config.label}"
        if kind != "result":
            return Result("error", solver=label, limit=limit,
                          message=f"internal error: {label} {payload}")
        result = verify(payload, grid, constraints)
        result.solver = label
        result.stats["portfolio"] = config.label
        return result

    @staticmethod
    def _best_failure(failures: list[Result], deadline: Deadline, limit: int) -> Result:
        """What to report when no racer answered: the timeout that counted furthest, else
        the first error, else a refusal; a timeout of the parent's own when nothing came."""
        for status in ("timeout", "error", "refused"):
            found = [r for r in failures if r.status == status]
            if found:
                return max(found, key=lambda r: r.count or 0)
        return Result("timeout", solver="portfolio", limit=limit,
                      count=0 if limit >= 2 else None,
                      message=deadline.message(None))

    def close(self) -> None:
        """Nothing is kept between puzzles: every race has its own processes."""


    def __repr__(self) -> str:
        return (f"PortfolioSolver([{', '.join(c.label for c in self.configs)}], "
                f"jobs={self.jobs})")


def _stop_racers(racers: list[tuple[Config, Any]]) -> None:
    """Stop every racer still running and reap them all (no zombies). Those that run an
    external solver get SIGTERM first (see :data:`TERM_WAIT_S`); python-sat racers, whose
    solver does not look at signals mid-call, are killed at once: they leave nothing behind."""
    from .catalogue import is_exec
    gentle = [p for c, p in racers if is_exec(c.sat_solver) and p.is_alive()]
    for process in gentle:
        process.terminate()
    for _, process in racers:
        if process.is_alive() and process not in gentle:
            process.kill()
    ends = time.monotonic() + TERM_WAIT_S
    for process in gentle:
        process.join(max(0.0, ends - time.monotonic()))
        if process.is_alive():
            process.kill()
    for _, process in racers:
        process.join(5)


def portfolio_size(jobs: int, *, requested: bool, single: bool) -> int:
    """How many configurations race on each puzzle (0: no portfolio).

    ``requested`` (``--portfolio``): one per worker that ``jobs`` allows, and every core when
    ``jobs`` is 1 (the default). Not requested: a portfolio all the same when the input is a
    single puzzle and ``jobs`` is not 1 (``--jobs`` would otherwise leave cores idle).

    >>> portfolio_size(1, requested=False, single=True), portfolio_size(2, requested=True, single=False)
    (0, 2)
    """
    if requested:
        return worker_count(0 if jobs == 1 else jobs)
    if single and jobs != 1:
        return worker_count(jobs)
    return 0
