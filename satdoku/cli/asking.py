"""The setter's questions: ``explain``, ``candidates``, ``rate`` and ``generate``.

Each of the first three runs its task (:mod:`satdoku.tasks`) over the puzzles through the one
stream (:func:`satdoku.run.stream.stream`, on ``--jobs`` processes where asked), classic and
variant puzzles alike.
"""

from __future__ import annotations

import click

from ..errors import SatdokuError
from ..model.result import EXIT_FAILED, EXIT_OK, exit_code
from ..tasks.base import Outcome
from ..tasks.options import CandidatesOptions, ExplainOptions, RateOptions
from .options import (ASKING_DEFAULT, PICTURE_FORMATS, alphabet_callback, box_callback, color,
                      encoding_option, inputs_argument, jobs_option, labels,
                      max_clauses_option, output_options, puzzle_options, sat_solver_option, task_options, make_options, timeout_option)
from .session import Progress, Session, puzzles_of, show
from .solving import check_time_limit

__all__ = ["COMMANDS"]


def _answered(outcome: Outcome) -> int:
    """explain and candidates: every answer is a success, the other statuses are not."""
    if outcome.result is None:
        return EXIT_FAILED
    status = outcome.result.status
    return EXIT_OK if status in ("unsolvable", "multiple", "unique") else exit_code(status)


@click.command()
@inputs_argument
@puzzle_options
@task_options(ExplainOptions, "explain")
@jobs_option
@output_options(PICTURE_FORMATS)
@click.option("--step", "step_number", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --format svg: draw step N of the path (implies --steps).")
def explain(inputs, box, alphabet, jobs, fmt, output, force, step_number, **values):
    """Say why each puzzle is unsolvable, ambiguous or what it takes.

    Unsolvable: a minimal set of givens and rules that cannot all hold (each one needed),
    marked on the grid. Several solutions: two of them and the cells where they differ.
    Unique: the techniques it takes (classic puzzles), and with --steps a path of steps, each
    forced by the fewest facts found (givens, earlier steps, rules by name and place).
    """
    from ..output.asking import ExplanationReport
    from ..run.stream import stream
    if step_number is not None:
        if fmt != "svg":
            raise click.UsageError("--step N picks the step that --format svg draws")
        values["steps"] = True
    options = make_options(ExplainOptions, values)
    show(inputs, stream(puzzles_of(inputs, box, alphabet), options, jobs=jobs),
         ExplanationReport(fmt, color=color(output), step=step_number), output, force,
         "explaining", _answered)


@click.command()
@inputs_argument
@puzzle_options
@task_options(CandidatesOptions, "candidates")
@jobs_option
@output_options()
def candidates(inputs, box, alphabet, jobs, fmt, output, force, **values):
    """The true candidates of each empty cell: the digits some solution puts there.

    Found with SAT (each open digit assumed in turn), for classic and variant puzzles; the
    solutions met also say whether the puzzle is unique. With --counts N, how many solutions
    put each digit in each cell, up to N (a setter's colouring of the grid).
    """
    from ..output.asking import CandidatesReport
    from ..run.stream import stream
    options = make_options(CandidatesOptions, values)
    show(inputs, stream(puzzles_of(inputs, box, alphabet), options, jobs=jobs),
         CandidatesReport(fmt), output, force, "candidates", _answered)


@click.command()
@inputs_argument
@puzzle_options
@task_options(RateOptions, "rate")
@jobs_option
@output_options()
def rate(inputs, box, alphabet, jobs, fmt, output, force, **values):
    """Score how hard each puzzle is: a classic one from the techniques it takes, native
    guesses and SAT conflicts; a variant one, on the same scale, from its steps (the rules its
    hardest step combines; see 'explain --steps'). With several puzzles a summary goes to
    stderr. Only a puzzle with one solution has a difficulty; several is an answer (exit 0)."""
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

    show(inputs, stream(puzzles_of(inputs, box, alphabet), options, jobs=jobs),
         RatingReport(fmt), output, force, "rating", code_of, summary)


@click.command()
@click.option("--box", metavar="RxC", callback=box_callback, default="3x3", show_default=True,
              help="Box shape: 2x2, 2x3, 3x3, 4x4, 5x5, ...")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many puzzles.")
@click.option("--seed", type=int, default=None,
              help="The same seed gives the same puzzles (default: a random seed, shown on "
                   "stderr).")
@click.option("--symmetry", type=click.Choice(["none", "rotate180", "rotate90", "mirror"]),
              default="none", show_default=True, help="Symmetry of the pattern of givens.")
@click.option("--minimal", is_flag=True,
              help="Only puzzles proven minimal: no given can go without losing uniqueness.")
@click.option("--max-clues", type=click.IntRange(min=0), default=None, metavar="M",
              help="Only puzzles with at most M givens.")
@click.option("--attempts", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Complete grids to try per puzzle before giving up.")
@sat_solver_option("generate")
@encoding_option(default_text=ASKING_DEFAULT)
@click.option("--difficulty", type=click.Choice([name for _, name in labels()]),
              default=None, help="Only puzzles that 'satdoku rate' labels so.")
@click.option("--alphabet", metavar="SYMBOLS", callback=alphabet_callback,
              help="Symbols for digits 1..N in order.")
@click.option("--rules", "rules_file", metavar="FILE", default=None,
              help="A variant puzzle (satdoku JSON, an f-puzzles file...) whose grid and rules "
                   "every puzzle keeps; its givens stay too. With --format line each puzzle is "
                   "a satdoku JSON line.")
@timeout_option
@max_clauses_option
@output_options(PICTURE_FORMATS)
def generate(box, count, seed, symmetry, minimal, max_clues, attempts, sat_solver, encoding,
             difficulty, alphabet, rules_file, timeout, max_clauses, fmt, output, force):
    """Make puzzles with exactly one solution (proven by SAT), dug from random grids, or
    from random solutions of a rule set (--rules)."""
    import random
    from ..model.alphabet import Alphabet, check_alphabet
    from ..model.geometry import geometry
    from ..output.asking import GeneratedReport
    from ..tasks.generate import Generator
    from .session import PICTURES_NEED_A_FOLDER, picture_folder
    check_time_limit(sat_solver, timeout)
    if fmt == "svg" and count > 1 and picture_folder(output) is None:
        raise click.UsageError(PICTURES_NEED_A_FOLDER)  # before any puzzle is made
    ctx = click.get_current_context()
    rules, givens = (), None
    try:
        if rules_file is not None:
            if ctx.get_parameter_source("box").name != "DEFAULT":
                raise click.UsageError("--rules gives the grid; drop --box")
            from .session import one_puzzle
            model = one_puzzle(rules_file, None, alphabet)
            geo, rules, givens = model.grid.geometry, model.constraints, model.grid
        else:
            geo = geometry(*box)
        symbols = check_alphabet(alphabet, geo.size) if alphabet else None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 31)
        click.echo(f"seed {seed} (--seed {seed} makes these puzzles again)", err=True)
    report = GeneratedReport(fmt, alphabet=symbols if isinstance(symbols, Alphabet) else None,
                             color=color(output))
    progress = Progress(count if count > 1 else None, "generating")

    def body(session: Session) -> None:
        session.write(report.header())
        tried = 0
        with Generator(geo, seed=seed, symmetry=symmetry, minimal=minimal, max_clues=max_clues,
                       sat_solver=sat_solver, encoding=encoding, attempts=attempts,
                       difficulty=difficulty, constraints=rules, givens=givens,
                       timeout=timeout, max_clauses=max_clauses) as gen:
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
                session.out.flush()
                progress.update(made + 1)
        if difficulty:
            session.note(f"{count} {difficulty} puzzle{'s' if count > 1 else ''} from "
                         f"{tried} grids")

    Session(output, force, progress=progress, pictures=fmt == "svg").run(body)


COMMANDS = (explain, candidates, rate, generate)
