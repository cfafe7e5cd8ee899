"""The setter's questions: ``explain``, ``candidates``, ``rate`` and ``generate``.

Each of the first three runs its task (:mod:`satdoku.tasks`) over the puzzles through the one
stream (:func:`satdoku.run.stream.stream`, on ``--jobs`` processes where asked), classic and
variant puzzles alike.
"""

from __future__ import annotations

from ..errors import SatdokuError
from ..model.result import EXIT_FAILED, EXIT_OK, exit_code
from ..tasks.base import Outcome
from ..tasks.other_commands import (CandidatesOptions, ExplainOptions, GenerateOptions,
                                    RateOptions)
from .parsing import UsageError, command, echo, int_range, option
from .options import (PICTURE_FORMATS, STEP_FORMATS, inputs_argument, jobs_option, make_options,
                      output_options, puzzle_options, task_options)
from .session import Progress, Session, puzzles_of, show

__all__ = ["COMMANDS"]


def _answered(outcome: Outcome) -> int:
    """explain and candidates: every answer is a success, the other statuses are not."""
    if outcome.result is None:
        return EXIT_FAILED
    status = outcome.result.status
    return EXIT_OK if status in ("unsolvable", "multiple", "unique") else exit_code(status)


@command()
@inputs_argument
@puzzle_options
@task_options(ExplainOptions, "explain")
@jobs_option
@output_options(STEP_FORMATS)
@option("--step", "step_number", type=int_range(1), default=None, metavar="N",
        help="With --format svg: draw step N of the path; with --format html: open the "
             "page at step N (implies --steps).")
def explain(inputs, reading, jobs, fmt, output, force, paint, step_number, **values):
    """Say why each puzzle is unsolvable, ambiguous or how hard it is.

    Unsolvable: a minimal set of givens and rules that cannot all hold (each one needed),
    marked on the grid. Several solutions: two of them and the cells where they differ.
    Unique: a classic puzzle's Sudoku Explainer ratings, as 'rate' gives them, and with
    --steps the path of steps they come from, the SE ladder's named techniques; a variant's
    steps (and its rating, which comes from them) with --steps only, each forced by the
    fewest facts found (givens, earlier steps, rules by name and place).
    """
    from ..output.asking import ExplanationReport
    from ..run.stream import stream
    if step_number is not None:
        if fmt not in ("svg", "html"):
            raise UsageError("--step N picks the step that --format svg draws (or that "
                             "--format html opens at)")
        values["steps"] = True
    if fmt == "html":  # a page of the steps
        values["steps"] = True
    options = make_options(ExplainOptions, values)
    puzzles = puzzles_of(inputs, reading)
    show(puzzles, stream(puzzles, options, jobs=jobs),
         ExplanationReport(fmt, color=paint, step=step_number), output, force, "explaining",
         _answered)


@command()
@inputs_argument
@puzzle_options
@task_options(CandidatesOptions, "candidates")
@jobs_option
@output_options()
def candidates(inputs, reading, jobs, fmt, output, force, paint, **values):
    """The true candidates of each empty cell: the digits some solution puts there.

    Found with SAT (each open digit assumed in turn), for classic and variant puzzles; the
    solutions met also say whether the puzzle is unique. With --counts N, how many solutions
    put each digit in each cell, up to N (a setter's colouring of the grid).
    """
    from ..output.asking import CandidatesReport
    from ..run.stream import stream
    options = make_options(CandidatesOptions, values)
    puzzles = puzzles_of(inputs, reading)
    show(puzzles, stream(puzzles, options, jobs=jobs), CandidatesReport(fmt), output, force,
         "candidates", _answered)


@command()
@inputs_argument
@puzzle_options
@task_options(RateOptions, "rate")
@jobs_option
@output_options()
def rate(inputs, reading, jobs, fmt, output, force, paint, **values):
    """Rate how hard each puzzle is on Sudoku Explainer's scale: ER (the hardest step), EP
    (the hardest before the first placement), ED (the first step) and SE's label. A classic
    puzzle is rated by satdoku's SE ladder (ER >= where a step lies beyond it); a variant one by
    its steps (see 'explain --steps'), each valued as the SE step it is most like. With several
    puzzles a summary goes to stderr. Only a puzzle with one solution has a difficulty; several
    is an answer (exit 0)."""
    from ..output.asking import RatingReport
    from ..run.stream import stream
    from ..tasks.rate import summarize
    options = make_options(RateOptions, values)

    def code_of(outcome: Outcome) -> int:  # several solutions is an answer (no difficulty)
        rating = outcome.result
        return EXIT_FAILED if rating is None else exit_code(rating.status)

    def summary(outcomes: list[Outcome]) -> str | None:
        result = summarize(o.result for o in outcomes)
        return result.text if result.rated > 1 else None

    puzzles = puzzles_of(inputs, reading)
    show(puzzles, stream(puzzles, options, jobs=jobs), RatingReport(fmt), output, force,
         "rating", code_of, summary)


@command()
@option("--count", type=int_range(1), default=1, show_default=True,
        help="How many puzzles.")
@task_options(GenerateOptions, "generate")
@output_options(PICTURE_FORMATS)
def generate(count, fmt, output, force, paint, **values):
    """Make puzzles with exactly one solution (proven by SAT), dug from random grids, or
    from random solutions of a rule set (--rules)."""
    import random
    from ..model.alphabet import Alphabet
    from ..output.asking import GeneratedReport
    from .session import need_a_folder, picture_folder
    if fmt == "svg" and count > 1 and picture_folder(output) is None:
        raise UsageError(need_a_folder(fmt))  # before any puzzle is made
    options = make_options(GenerateOptions, values)
    seed = options.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 31)
        echo(f"seed {seed} (--seed {seed} makes these puzzles again)", err=True)
    symbols = Alphabet(options.alphabet) if options.alphabet else None
    report = GeneratedReport(fmt, alphabet=symbols, color=paint)
    progress = Progress(count if count > 1 else None, "generating")

    def body(session: Session) -> None:
        session.write(report.header())
        tried = 0
        with options.make(seed) as gen:
            for made in range(count):
                try:
                    puzzle = gen.generate()
                except SatdokuError as error:
                    session.note(f"made {made} of {count} puzzles: {error}")
                    session.code = EXIT_FAILED
                    return
                tried += puzzle.attempts
                if fmt == "svg":
                    session.picture(report.picture_name(None, puzzle.index),
                                    report.format(puzzle))
                else:
                    session.result(report.format(puzzle), (), EXIT_OK)
                session.flush()
                progress.update(made + 1)
                if count > made + 1 and not any(puzzle.puzzle.cells):
                    session.note(f"made {made + 1} of {count} puzzles: the rules alone have one "
                                 f"solution, so every puzzle would be this one, with no givens")
                    return
        if options.difficulty:
            session.note(f"{count} {options.difficulty} puzzle{'s' if count > 1 else ''} "
                         f"from {tried} grids")

    Session(output, force, progress=progress, pictures="svg" if fmt == "svg" else None).run(body)


COMMANDS = (explain, candidates, rate, generate)
