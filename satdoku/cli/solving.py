"""``satdoku solve`` and ``satdoku count``: one verified result per puzzle, in input order."""

from __future__ import annotations

from ..tasks.commands import CountOptions, SolveOptions
from .parsing import UsageError, command, option
from .options import (PICTURE_FORMATS, inputs_argument, jobs_option, make_options,
                      output_options, puzzle_options, require_extra, task_options)
from .session import puzzles_of, show, usage

__all__ = ["COMMANDS", "check_time_limit"]


def check_time_limit(sat_solver: str | None, timeout: float | None,
                     portfolio: bool = False) -> None:
    """A time limit with a SAT solver that cannot keep one is a usage error (in a portfolio
    its process is killed at the limit)."""
    if timeout is not None and not portfolio:
        from ..sat.catalogue import capabilities_of
        if not capabilities_of(sat_solver).time_limit:
            raise UsageError(f"{sat_solver} cannot stop at a time limit; drop --timeout "
                             f"or choose another --sat-solver")


def _solving(inputs, *, reading, jobs, scheduler, fmt, output, force, paint, options,
             multiple_ok) -> None:
    from ..output.report import DOCUMENT_FORMATS, OutcomeReport
    from ..run.stream import stream
    from ..tasks.solvers import racing
    puzzles = puzzles_of(inputs, reading)
    with usage():
        options, jobs = racing(options, jobs, scheduler=scheduler,
                               single=lambda: puzzles.ahead() == 1)
    if scheduler is not None:
        if options.proof is not None and scheduler != "local":
            raise UsageError("--proof writes its files where each puzzle is solved: on a "
                             "remote cluster's workers; use --jobs or --scheduler local")
        require_extra("--scheduler")
    task = options.task_class()
    report = OutcomeReport(fmt, stats=options.stats, color=paint,
                           proof=options.proof is not None, multiple_ok=multiple_ok)
    # The workers write their outcomes out (not pictures: one file each, named here).
    render = None if fmt in DOCUMENT_FORMATS else report.render
    outcomes = stream(puzzles, options, jobs=jobs, scheduler=scheduler, render=render)
    show(puzzles, outcomes, report, output, force,
         "counting" if options.most > 1 else task.label, report.code)


def batch_options(options_class):
    """What solve and count share: inputs, how to read them, the command's options, where to
    run, and output."""
    def decorate(f):
        for decorator in reversed((inputs_argument, puzzle_options,
                                   task_options(options_class), jobs_option,
                                   option("--scheduler", metavar="ADDRESS|local",
                                          help="Run on a Dask cluster (satdoku[dask]); "
                                               "'local' starts one here."),
                                   output_options(PICTURE_FORMATS))):
            f = decorator(f)
        return f
    return decorate


@command()
@batch_options(SolveOptions)
def solve(inputs, reading, jobs, scheduler, fmt, output, force, paint, **values):
    """Solve puzzles given inline, in files, or on stdin (no arguments or '-').

    One result per puzzle, in input order, each checked by an independent verifier. Bad
    puzzles are reported on stderr with file, line and cell, and the batch goes on.
    """
    _solving(inputs, reading=reading, jobs=jobs, scheduler=scheduler, fmt=fmt, output=output,
             force=force, paint=paint, options=make_options(SolveOptions, values),
             multiple_ok=False)


@command()
@batch_options(CountOptions)
def count(inputs, reading, jobs, scheduler, fmt, output, force, paint, **values):
    """Count solutions up to --limit: unique, multiple (how many, and two of them) or
    unsolvable; or write them all (--all), or estimate how many (--estimate)."""
    options = make_options(CountOptions, values)
    if options.all or options.estimate:
        from .counting import count_past_limit
        return count_past_limit(options, puzzles=puzzles_of(inputs, reading), jobs=jobs,
                                scheduler=scheduler, fmt=fmt, output=output, force=force)
    _solving(inputs, reading=reading, jobs=jobs, scheduler=scheduler, fmt=fmt, output=output,
             force=force, paint=paint, options=options, multiple_ok=True)


COMMANDS = (solve, count)
