"""``count --all`` (every solution, streamed to the output) and ``count --estimate`` (an
approximate count with error bounds): the two ways ``count`` goes past its --limit.

``count --all`` runs here, on one core: its solutions stream to the output as they are found
(JSON Lines, or grids with ``--format line``), bounded by ``--limit`` when it is given and by
``--timeout``; each puzzle's tally goes to stderr. ``count --estimate`` runs over the stream
like every per-puzzle command.
"""

from __future__ import annotations

import click

from ..model.result import EXIT_FAILED, exit_code
from .options import clause_limit
from .session import Session, puzzles_of, show

__all__ = ["count_past_limit"]


def count_past_limit(*, all_: bool, estimate: bool, inputs, box, alphabet, solver, sat_solver,
                     encoding, amo, max_clauses, timeout, limit, jobs, scheduler, portfolio,
                     fmt, output, force, stats) -> None:
    """Run ``count --all`` or ``count --estimate`` (usage errors for what they cannot take)."""
    ctx = click.get_current_context()
    given = {name for name in ("limit", "fmt", "jobs", "scheduler", "portfolio", "stats",
                               "solver", "encoding", "amo")
             if ctx.get_parameter_source(name).name != "DEFAULT"}
    if all_ and estimate:
        raise click.UsageError("--all and --estimate do not go together")
    what = "--all" if all_ else "--estimate"
    refused = given & {"scheduler", "portfolio", "stats", "solver"}
    if all_:
        refused |= given & {"jobs"}
    if estimate:
        refused |= given & {"limit", "encoding", "amo"}
    if refused:
        names = ", ".join(f"--{'format' if n == 'fmt' else n}" for n in sorted(refused))
        raise click.UsageError(f"{what} does not take {names}")
    if all_:
        from ..output.counting import ALL_FORMATS
        if "fmt" in given and fmt not in ALL_FORMATS:
            raise click.UsageError(f"--all writes {' or '.join(ALL_FORMATS)}, not {fmt}")
        _all(inputs, box, alphabet, sat_solver, encoding, amo, clause_limit(max_clauses),
             timeout, limit if "limit" in given else None,
             fmt if "fmt" in given else "json", output, force)
        return
    from .options import require_extra
    require_extra("--estimate")
    from ..output.counting import EstimateReport
    from ..run.stream import stream
    from ..tasks.enumerate import EstimateOptions
    if fmt == "svg":
        raise click.UsageError("--estimate draws no picture")
    options = EstimateOptions(timeout=timeout, max_clauses=clause_limit(max_clauses))

    def code_of(outcome) -> int:
        return EXIT_FAILED if outcome.result is None else exit_code(outcome.result.status)

    show(inputs, stream(puzzles_of(inputs, box, alphabet), options, jobs=jobs),
         EstimateReport(fmt), output, force, "estimating", code_of)


def _all(inputs, box, alphabet, sat_solver, encoding, amo, max_clauses, timeout, limit, fmt,
         output, force) -> None:
    from ..deadline import TimeUp
    from ..errors import InternalError, TooBigError
    from ..output.counting import solution_line
    from ..output.report import place, plural, printable
    from ..sat.solver import SatSolver
    from ..tasks.base import puzzle_deadline
    from ..tasks.enumerate import all_solutions
    from ..model.result import counted_status

    def body(session: Session) -> None:
        with SatSolver(sat_solver, encoding, amo, max_clauses=max_clauses) as solver:
            for puzzle in puzzles_of(inputs, box, alphabet):
                if puzzle.error is not None or puzzle.grid is None:
                    session.result("", [printable(str(puzzle.error))], EXIT_FAILED)
                    continue
                deadline = puzzle_deadline(timeout, puzzle)
                found = 0
                try:
                    for solution in all_solutions(puzzle.grid, constraints=puzzle.constraints,
                                                  solver=solver, limit=limit,
                                                  deadline=deadline):
                        found += 1
                        session.write(solution_line(puzzle, found, solution, fmt))
                    status = counted_status(found)
                    note = plural(found, "solution") + (
                        ": the limit, there may be more" if limit and found >= limit else
                        ", all of them")
                except TimeUp:
                    status, note = "timeout", f"{deadline.message(found)}, each written"
                except TooBigError as error:
                    status, note = "refused", error.message
                except InternalError as error:
                    status, note = "error", f"internal error: {error.message}"
                session.result("", [f"{place(puzzle)}: {note}"], exit_code(status))

    Session(output, force, list(inputs) or ["-"]).run(body)
