"""``satdoku solve`` and ``satdoku count``: one verified result per puzzle, in input order."""

from __future__ import annotations

import click

from ..model.result import EXIT_WRONG, exit_code
from ..tasks.base import Outcome
from .options import (PICTURE_FORMATS, clause_limit, color, inputs_argument, jobs_option,
                      limit_option, output_options, puzzle_options, require_extra, sat_options,
                      solver_option, timeout_option)
from .session import puzzles_of, show, usage

__all__ = ["COMMANDS", "check_time_limit"]


def check_time_limit(sat_solver: str | None, timeout: float | None,
                     portfolio: bool = False) -> None:
    """A time limit with a SAT solver that cannot keep one is a usage error (in a portfolio
    its process is killed at the limit)."""
    if timeout is not None and not portfolio:
        from ..sat.catalogue import capabilities_of
        if not capabilities_of(sat_solver).time_limit:
            raise click.UsageError(f"{sat_solver} cannot stop at a time limit; drop --timeout "
                                   f"or choose another --sat-solver")


def _solving(inputs, *, box, alphabet, solver, sat_solver, encoding, amo, max_clauses_given,
             timeout, jobs, scheduler, portfolio, fmt, output, force, stats, multiple_ok,
             **more) -> None:
    from ..io.inputs import holds_one_puzzle
    from ..output.report import OutcomeReport
    from ..run.stream import stream
    from ..tasks.solvers import SolveOptions, racing
    check_time_limit(sat_solver, timeout, portfolio)
    options = SolveOptions(solver=solver, sat_solver=sat_solver, encoding=encoding, amo=amo,
                           timeout=timeout, max_clauses=clause_limit(max_clauses_given),
                           stats=stats, **more)
    ignore = click.get_current_context().meta.get("ignore_unknown", False)
    with usage():
        options, jobs = racing(options, jobs, requested=portfolio, scheduler=scheduler,
                               single=lambda: holds_one_puzzle(list(inputs), box=box,
                                                               alphabet=alphabet,
                                                               ignore_unknown=ignore))
    if scheduler is not None:
        require_extra("--scheduler")
    task = options.task_class()

    def code_of(outcome: Outcome) -> int:
        if outcome.disagreements:
            return EXIT_WRONG
        return exit_code(outcome.result.status, multiple_ok=multiple_ok)

    outcomes = stream(puzzles_of(inputs, box, alphabet), options, jobs=jobs, scheduler=scheduler)
    show(inputs, outcomes, OutcomeReport(fmt, stats=stats, color=color(output)), output, force,
         "counting" if options.limit > 1 else task.label, code_of)


def batch_options(f):
    """What solve and count share: inputs, how to read and solve them, where, and output."""
    for option in reversed((inputs_argument, puzzle_options, solver_option, sat_options(),
                            timeout_option, jobs_option,
                            click.option("--scheduler", metavar="ADDRESS|local",
                                         help="Run on a Dask cluster (satdoku[dask]); "
                                              "'local' starts one here."),
                            click.option("--portfolio", is_flag=True,
                                         help="Race SAT configurations on each puzzle, one a "
                                              "core (--jobs of them); on by itself for a "
                                              "single puzzle with --jobs other than 1."),
                            output_options(PICTURE_FORMATS),
                            click.option("--stats", is_flag=True,
                                         help="Add each stage's time and solver figures."))):
        f = option(f)
    return f


@click.command()
@batch_options
@click.option("--unique", is_flag=True, help="Also prove each solution unique (or show two).")
@click.option("--check", is_flag=True, help="Run SAT and native search; exit 3 if they disagree.")
@click.option("--fresh", is_flag=True,
              help="A new SAT solver for every puzzle (slow: shows what incremental solving "
                   "buys).")
def solve(inputs, box, alphabet, solver, sat_solver, encoding, amo, max_clauses, timeout, jobs,
          scheduler, portfolio, fmt, output, force, stats, unique, check, fresh):
    """Solve puzzles given inline, in files, or on stdin (no arguments or '-').

    One result per puzzle, in input order, each checked by an independent verifier. Bad
    puzzles are reported on stderr with file, line and cell, and the batch goes on.
    """
    _solving(inputs, box=box, alphabet=alphabet, solver=solver, sat_solver=sat_solver,
             encoding=encoding, amo=amo, max_clauses_given=max_clauses, timeout=timeout,
             jobs=jobs, scheduler=scheduler, portfolio=portfolio, fmt=fmt, output=output,
             force=force, stats=stats, multiple_ok=False, limit=2 if unique else 1,
             check=check, incremental=not fresh)


@click.command()
@batch_options
@limit_option(2, 2)
@click.option("--all", "all_", is_flag=True,
              help="Write every solution (JSON Lines; --format line: grids) as it is found, "
                   "up to --limit when given; each puzzle's tally on stderr.")
@click.option("--estimate", is_flag=True,
              help="An approximate count with error bounds, for spaces too big to count "
                   "(ApproxMC: satdoku[approx]).")
def count(inputs, box, alphabet, solver, sat_solver, encoding, amo, max_clauses, timeout, limit,
          jobs, scheduler, portfolio, fmt, output, force, stats, all_, estimate):
    """Count solutions up to --limit: unique, multiple (how many, and two of them) or
    unsolvable; or write them all (--all), or estimate how many (--estimate)."""
    if all_ or estimate:
        from .counting import count_past_limit
        return count_past_limit(**{k: v for k, v in locals().items() if k != "count_past_limit"})
    _solving(inputs, box=box, alphabet=alphabet, solver=solver, sat_solver=sat_solver,
             encoding=encoding, amo=amo, max_clauses_given=max_clauses, timeout=timeout,
             jobs=jobs, scheduler=scheduler, portfolio=portfolio, fmt=fmt, output=output,
             force=force, stats=stats, multiple_ok=True, limit=limit)


COMMANDS = (solve, count)
