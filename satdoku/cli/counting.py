"""``count --all`` (every solution, streamed to the output) and ``count --estimate`` (an
approximate count with error bounds): the two ways ``count`` goes past its --limit.

``count --all`` runs here, on one core: its solutions stream to the output as they are found
(JSON Lines, or grids with ``--format line``), bounded by ``--limit`` when it is given and by
``--timeout``; each puzzle's tally goes to stderr (:class:`satdoku.tasks.enumerate.AllTask`).
``count --estimate`` runs over the stream like every per-puzzle command
(:class:`satdoku.tasks.enumerate.EstimateTask`).
"""

from __future__ import annotations

from ..model.result import EXIT_FAILED, exit_code
from .parsing import UsageError
from .session import Session, show

__all__ = ["count_past_limit"]


def count_past_limit(options, *, puzzles, jobs, scheduler, fmt, output, force) -> None:
    """Run ``count --all`` or ``count --estimate`` (usage errors for what they cannot take:
    the options object refused the rest)."""
    what = "--all" if options.all else "--estimate"
    if scheduler is not None or (options.all and jobs != 1):
        raise UsageError(f"{what} does not take "
                         f"{'--scheduler' if scheduler is not None else '--jobs'}")
    if options.all:
        from ..output.counting import ALL_FORMATS
        if fmt == "pretty":  # the default: JSON Lines
            fmt = "json"
        if fmt not in ALL_FORMATS:
            raise UsageError(f"--all writes {' or '.join(ALL_FORMATS)}, not {fmt}")
        _all(puzzles, options, fmt, output, force)
        return
    from .options import require_extra
    require_extra("--estimate")
    from ..output.counting import EstimateReport
    from ..run.stream import stream
    if fmt == "svg":
        raise UsageError("--estimate draws no picture")

    def code_of(outcome) -> int:
        return EXIT_FAILED if outcome.result is None else exit_code(outcome.result.status)

    show(puzzles, stream(puzzles, options, jobs=jobs), EstimateReport(fmt), output, force,
         "estimating", code_of)


def _all(puzzles, options, fmt, output, force) -> None:
    from ..output.counting import solution_line
    from ..output.report import place, plural, printable
    from ..tasks.enumerate import Enumerated

    def body(session: Session) -> None:
        with options.make() as task:
            for puzzle in puzzles:
                if puzzle.error is not None or puzzle.grid is None:
                    session.result("", [printable(str(puzzle.error))], EXIT_FAILED)
                    continue
                answer = Enumerated("unsolvable")
                try:
                    for number, solution in enumerate(task.each(puzzle, answer), 1):
                        session.write(solution_line(puzzle, number, solution, fmt))
                except KeyboardInterrupt:  # the tally so far, then the session's word
                    session.note(f"{place(puzzle)}: interrupted after "
                                 f"{plural(answer.count, 'solution')}, each written")
                    raise
                if answer.status == "timeout":
                    note = f"{answer.message}, each written"
                elif answer.message is not None:
                    note = answer.message
                else:
                    limit = options.limit
                    note = plural(answer.count, "solution") + (
                        ": the limit, there may be more"
                        if limit and answer.count >= limit else ", all of them")
                session.result("", [f"{place(puzzle)}: {note}"], exit_code(answer.status))

    Session(output, force, puzzles.args).run(body)
