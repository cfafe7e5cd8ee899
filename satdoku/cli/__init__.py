"""The ``satdoku`` command line: parse options, make one library call per puzzle stream, print.

Every option is defined once here and shared by the commands that take it. Results go to
stdout (or ``-o FILE``), diagnostics and the progress bar to stderr. Exit codes are the table
in :mod:`satdoku.model.result`: 0 done, 1 some puzzle unsolved / invalid / timed out / refused,
2 usage, 3 a verification failure or a disagreement, 130 interrupted. No command shows a
traceback: library errors become one line, Ctrl-C (and SIGTERM, SIGHUP) keeps the results
finished so far and exits 130, and a closed pipe (``| head``) ends quietly.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any, Callable, Iterable, Iterator

import click

from .. import __version__
from ..errors import SatdokuError
from ..model.result import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_WRONG, exit_code

FORMATS = ("pretty", "line", "json", "csv")
PICTURE_FORMATS = FORMATS + ("svg",)  # the commands that draw a puzzle


# Option types and callbacks.

def _box(ctx, param, value):
    if value is None:
        return None
    from ..io.text import parse_box
    try:
        return parse_box(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _alphabet(ctx, param, value):
    if value is None:
        return None
    from ..model.alphabet import Alphabet
    try:
        return Alphabet(value).symbols
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _sat_solver_for(needs_of):
    """A --sat-solver callback: the canonical name(s), refused (with the reason) when the
    solver lacks what the command's task needs (``needs_of()``: its Capabilities)."""
    def callback(ctx, param, value):
        if value is None or value == ():
            return value
        from ..sat.catalogue import check_for
        needs = needs_of()

        def check(name: str) -> str:
            return check_for(name, needs, ctx.command.name)

        try:
            return tuple(map(check, value)) if isinstance(value, tuple) else check(value)
        except SatdokuError as error:
            raise click.BadParameter(error.message) from None
    return callback


def _needs_nothing():
    from ..model.result import Capabilities
    return Capabilities.needs()


def _needs_of(module: str):
    def needs():
        import importlib
        return importlib.import_module(f"satdoku.tasks.{module}").NEEDS
    return needs


_sat_solver = _sat_solver_for(_needs_nothing)


class _Seconds(click.ParamType):
    """A time limit: a finite number of seconds above 0."""

    name = "seconds"

    def convert(self, value, param, ctx):
        from ..deadline import check_timeout
        try:
            return check_timeout(float(value))
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a time limit (a number of seconds above 0)", param,
                      ctx)


class _Jobs(click.ParamType):
    """Worker processes: 0 (every core) or more, at most the cores there are."""

    name = "n"

    def convert(self, value, param, ctx):
        try:
            jobs = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if jobs < 0:
            self.fail("must be 0 (every core) or more", param, ctx)
        cores = os.cpu_count() or 1
        if jobs > cores:
            click.echo(f"--jobs {jobs if jobs < 10 ** 6 else 'N'}: this machine has {cores} "
                       f"cores; using {cores}", err=True)
            jobs = cores
        return jobs


def _labels():
    from ..tasks.rate import LABELS
    return LABELS


def _encoding_names() -> list[str]:
    from ..cnf.encodings import ENCODINGS
    return list(ENCODINGS)


def _amo_names() -> list[str]:
    from ..cnf.encodings import AMO_ENCODINGS
    return list(AMO_ENCODINGS)


def _complete_path(ctx, param, incomplete):
    return [click.shell_completion.CompletionItem(incomplete, type="file")]


# Shared options, each defined once.

def inputs_argument(f):
    return click.argument("inputs", nargs=-1, metavar="[PUZZLE|FILE|-]...",
                          shell_complete=_complete_path)(f)


def _remember(ctx, param, value):
    ctx.meta[param.name] = value
    return value


def puzzle_options(f):
    """--box, --alphabet and --ignore-unknown: how to read puzzles (shape, symbols, imports)."""
    f = click.option("--ignore-unknown", is_flag=True, expose_value=False, callback=_remember,
                     help="Solve f-puzzles imports anyway when they hold what satdoku cannot "
                          "use (listed as warnings).")(f)
    f = click.option("--alphabet", metavar="SYMBOLS", callback=_alphabet,
                     help="Symbols for digits 1..N in order, e.g. 0123456789ABCDEF.")(f)
    f = click.option("--box", metavar="RxC", callback=_box,
                     help="Box shape, e.g. 2x3 (default: inferred from the cell count).")(f)
    return f


def sat_options(needs_of=_needs_nothing):
    """--sat-solver, --encoding, --amo, --max-clauses: which CNF, and who solves it (a solver
    that lacks what the task ``needs_of()`` is refused)."""
    def decorate(f):
        f = encoding_options(f)
        return click.option("--sat-solver", callback=_sat_solver_for(needs_of), metavar="NAME",
                            help="python-sat solver (default: see 'satdoku solvers'); solve "
                                 "and count also take exec:\"COMMAND\", a solver binary.")(f)
    return decorate


def encoding_options(f):
    """--encoding, --amo, --max-clauses: which CNF, and how big it may be."""
    f = click.option("--max-clauses", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Refuse formulas with more clauses (default 10,000,000).")(f)
    f = click.option("--amo", type=click.Choice(_amo_names()), default=None,
                     help="At-most-one encoding (default: pairwise; reduced: seqcounter for "
                          "long lists).")(f)
    f = click.option("--encoding", type=click.Choice(_encoding_names()), default=None,
                     help="CNF encoding (default: extended below 25x25, reduced from it; "
                          "explain, generate and rate: from 36x36).")(f)
    return f


def timeout_option(f):
    return click.option("--timeout", type=_Seconds(), default=None, metavar="SECONDS",
                        help="Limit for each puzzle, every stage (status timeout).")(f)


def solver_option(f):
    return click.option("--solver", type=click.Choice(["sat", "native"]), default="sat",
                        show_default=True, help="SAT through python-sat, or native search.")(f)


def jobs_option(f):
    return click.option("--jobs", "-j", type=_Jobs(), default=1, show_default=True,
                        help="Worker processes; 0 uses every core.")(f)


def output_options(formats: tuple[str, ...] = FORMATS, default: str = "pretty"):
    """--format, -o/--output and --force."""
    def decorate(f):
        f = click.option("--force", is_flag=True, help="Overwrite the output file.")(f)
        f = click.option("-o", "--output", metavar="FILE", shell_complete=_complete_path,
                         help="Write to FILE ('-': stdout), all at once when done; refuses to "
                              "overwrite without --force.")(f)
        f = click.option("--format", "fmt", type=click.Choice(formats), default=default,
                         show_default=True, help="Output format.")(f)
        if "pretty" in formats:
            f = click.option("--color/--no-color", default=None, expose_value=False,
                             callback=_remember,
                             help="Givens bold, solved digits blue, marked cells on yellow in "
                                  "the pretty format on a terminal (default: unless NO_COLOR "
                                  "is set).")(f)
        return f
    return decorate


def _color(output: str | None) -> bool:
    """Whether the pretty format is painted: only on a terminal (escape codes never go into a
    file or a pipe); there by default unless NO_COLOR is set (no-color.org); --color and
    --no-color decide over NO_COLOR."""
    if output not in (None, "-") or not sys.stdout.isatty():
        return False
    chosen = click.get_current_context().meta.get("color")
    return chosen if chosen is not None else not os.environ.get("NO_COLOR")


def limit_option(default: int, minimum: int, maximum: int | None = None):
    return click.option("--limit", type=click.IntRange(minimum, maximum), default=default,
                        show_default=True, metavar="N",
                        help="Count solutions up to N (1: find one).")


def _max_clauses(value: int | None):
    from ..budget import DEFAULT_MAX_CLAUSES
    return DEFAULT_MAX_CLAUSES if value is None else value


# Running a command: output, progress, signals, errors.

class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C."""


def _on_signal(signum, frame):
    raise Interrupted(signum)


def _install_signals() -> None:
    """SIGTERM and SIGHUP end a run like Ctrl-C; an ignored SIGINT (a background job) stays
    ignored, python-sat's own handler included."""
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _on_signal)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        from pysat import solvers as pysat_solvers
        pysat_solvers.MainThread.check = staticmethod(lambda: False)


class Progress:
    """A progress bar on stderr when it is a terminal; it never shares a line with results."""

    def __init__(self, total: int | None, label: str) -> None:
        self.enabled = bool(total) and sys.stderr.isatty()
        self.total, self.label = total or 0, label
        self.done, self.shown, self.drawn_at = 0, False, 0.0
        self.start = time.monotonic()

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.drawn_at < 0.1 and done < self.total:
            return
        self.drawn_at = now
        share = min(done / self.total, 1.0)
        width = 30
        bar = "#" * int(share * width) + "-" * (width - int(share * width))
        elapsed = int(now - self.start)
        sys.stderr.write(f"\r{self.label} [{bar}] {share:4.0%} "
                         f"{elapsed // 3600:02d}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


class Session:
    """One command's output: results to ``output`` (see :class:`satdoku.io.files.Output`),
    diagnostics to stderr, flushed at once on a terminal and at least every 0.1 s otherwise."""

    def __init__(self, output: str | None, force: bool, inputs: Iterable[str] = (),
                 progress: Progress | None = None, pictures: bool = False) -> None:
        from ..io.files import Output
        # Pictures (--format svg) into a folder: one file each; the folder is made if needed.
        self.folder = None
        if pictures and output not in (None, "-") and (os.path.isdir(output)
                                                       or output.endswith(os.sep)):
            self.folder, output = output, None
        self.force, self.inputs, self.pictures = force, list(inputs), 0
        try:
            if self.folder is not None:
                os.makedirs(self.folder, exist_ok=True)
            self.out = Output(output, force=force, inputs=inputs)
        except OSError as error:
            raise click.UsageError(f"{self.folder}: cannot make the folder: "
                                   f"{error.strerror}") from None
        except SatdokuError as error:
            raise click.UsageError(str(error)) from None
        self.progress = progress or Progress(None, "")
        self.interactive = self.out.isatty()
        self.flushed = time.monotonic()
        self.code = EXIT_OK
        self.written = 0

    def write(self, text: str) -> None:
        if not text:
            return
        if self.interactive:
            self.progress.clear()
        self.out.write(text)
        if self.interactive or time.monotonic() - self.flushed > 0.1:
            self.out.flush()
            self.flushed = time.monotonic()

    def note(self, line: str) -> None:
        self.progress.clear()
        click.echo(line, err=True)

    def picture(self, name: str, svg: str) -> None:
        """One puzzle's picture: a file ``NAME.svg`` in the output folder, or the one picture
        of the output (several need a folder: one SVG document cannot hold them)."""
        from ..io.files import Output
        if self.folder is None:
            if self.pictures:
                raise SatdokuError("--format svg makes one picture per puzzle: with several "
                                   "puzzles give -o FOLDER/ for a file each")
            self.write(svg)
        else:
            out = Output(os.path.join(self.folder, f"{name}.svg"), force=self.force,
                         inputs=self.inputs)
            out.write(svg)
            out.commit()
        self.pictures += 1

    def result(self, text: str, notes: Iterable[str], code: int) -> None:
        """One finished result: its text, its stderr lines, its exit code."""
        self.write(text)
        for line in notes:
            self.note(line)
        self.written += 1
        self.code = max(self.code, code)

    def run(self, body: Callable[["Session"], Any]) -> None:
        """Run ``body(self)``, then commit the output and exit with the code it came to.

        Ctrl-C, SIGTERM and SIGHUP keep (and commit) the results finished so far and exit 130;
        a broken pipe on stdout ends quietly; a library error is one line on stderr.
        """
        try:
            body(self)
        except KeyboardInterrupt:
            self.progress.clear()
            self._commit_quietly()
            where = f"; {self.written} in {self.out.path}" if self.out.path else ""
            click.echo(f"interrupted: the results finished so far were kept{where}", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            _silence_stdout()
            self.out.discard()
            sys.exit(self.code)
        except SatdokuError as error:
            self.progress.clear()
            self.out.discard()
            if self.out.path is None:
                _silence_stdout()  # stdout may be what failed
            click.echo(f"Error: {error}", err=True)
            sys.exit(max(self.code, EXIT_FAILED))
        except BaseException:
            self.progress.clear()
            self.out.discard()
            raise
        self.progress.clear()
        try:
            self.out.commit()
        except BrokenPipeError:
            _silence_stdout()
        except SatdokuError as error:
            if self.out.path is None:
                _silence_stdout()
            click.echo(f"Error: {error}", err=True)
            sys.exit(EXIT_FAILED)
        sys.exit(self.code)

    def _commit_quietly(self) -> None:
        try:
            self.out.commit()
        except (BrokenPipeError, SatdokuError):
            _silence_stdout()


def _silence_stdout() -> None:
    """After a broken pipe: nothing more can reach stdout, and the interpreter's last flush
    must not complain about it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _inputs_total(inputs: Iterable[str]) -> int | None:
    """Lines in the input files, for a progress bar (None when there are none to count)."""
    from ..io.inputs import count_lines, is_file_input
    files = [a for a in inputs if a != "-" and is_file_input(a)]
    return count_lines(files) if files and sys.stderr.isatty() else None


class _LineProgress:
    """Advances a :class:`Progress` by the input line a puzzle came from."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.source, self.offset, self.done = None, 0, 0

    def update(self, puzzle) -> None:
        if not self.progress.enabled:
            return
        if puzzle.source != self.source:
            self.source, self.offset = puzzle.source, self.done
        self.done = max(self.done, self.offset + (puzzle.line or 0))
        self.progress.update(self.done)


def _stream(inputs, items: Iterator[Any], report, output: str | None, force: bool,
            label: str, code_of: Callable[[Any], int], puzzle_of: Callable[[Any], Any],
            summary: Callable[[list], str | None] | None = None) -> None:
    """The loop of every per-puzzle command: format each result as it comes."""
    progress = Progress(_inputs_total(inputs), label)
    lines = _LineProgress(progress)
    kept: list = []

    def body(session: Session) -> None:
        session.write(report.header())
        for number, item in enumerate(items, 1):
            puzzle = puzzle_of(item)
            lines.update(puzzle)
            if report.fmt == "svg":
                if puzzle.grid is not None:
                    session.picture(report.picture_name(puzzle, number), report.format(item))
                session.result("", report.diagnostics(item), code_of(item))
            else:
                session.result(report.format(item), report.diagnostics(item), code_of(item))
            if summary is not None:
                kept.append(item)
        if summary is not None:
            text = summary(kept)
            if text:
                session.note(text)

    Session(output, force, inputs, progress, pictures=report.fmt == "svg").run(body)


def _puzzles(inputs, box, alphabet):
    from ..io.inputs import iter_inputs
    ignore = click.get_current_context().meta.get("ignore_unknown", False)
    return iter_inputs(inputs, box=box, alphabet=alphabet, ignore_unknown=ignore)


# The commands.

def _version() -> str:
    from ..tasks.solvers import python_sat_version
    return f"satdoku {__version__} (python-sat {python_sat_version()})"


def _version_callback(ctx, param, value):
    if value and not ctx.resilient_parsing:
        click.echo(_version())
        ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_version_callback, help="Show satdoku's and python-sat's versions.")
def main() -> None:
    """Solve Sudoku of any size by encoding it to SAT.

    Shell completion: eval "$(_SATDOKU_COMPLETE=bash_source satdoku)" (zsh_source, fish_source).
    """


def _outcomes(inputs, options, *, box, alphabet, fmt, stats, output, force, jobs, scheduler,
              portfolio, multiple_ok: bool, label: str) -> None:
    import dataclasses
    from ..run.batch import solve_batch
    from ..output.report import OutcomeReport
    if options.solver == "sat" and scheduler is None and (portfolio or jobs != 1):
        from ..sat.portfolio import portfolio_size
        single = not portfolio and _single_puzzle(inputs, box, alphabet)
        size = portfolio_size(jobs, requested=portfolio, single=single)
        if size:  # the cores race on each puzzle in turn
            options, jobs = dataclasses.replace(options, portfolio=size), 1
    elif portfolio:
        raise click.UsageError("--portfolio races SAT configurations: it takes neither "
                               "--solver native nor --scheduler")
    puzzles = _puzzles(inputs, box, alphabet)
    report = OutcomeReport(fmt, stats=stats, color=_color(output))

    def code_of(outcome) -> int:
        if outcome.disagreements:
            return EXIT_WRONG
        return exit_code(outcome.result.status, multiple_ok=multiple_ok)

    items = solve_batch(puzzles, options, jobs=jobs, scheduler=scheduler)
    _stream(inputs, items, report, output, force, label, code_of, lambda o: o.puzzle)


def _single_puzzle(inputs, box, alphabet) -> bool:
    """Whether the inputs hold exactly one puzzle (what turns a portfolio on by itself), read
    ahead without taking them from the run: only inline puzzles and regular files, which can
    be read again (stdin, a pipe: False)."""
    from ..io.inputs import is_file_input
    from ..sat.portfolio import single_puzzle
    if not inputs or not all(not is_file_input(a) or (a != "-" and os.path.isfile(a))
                             for a in inputs):
        return False
    ahead = _puzzles(inputs, box, alphabet)
    try:
        return single_puzzle(ahead)[0]
    finally:
        ahead.close()


def _check_time_limit(sat_solver, timeout, portfolio: bool = False) -> None:
    """A time limit with a SAT solver that cannot keep one is a usage error (in a portfolio
    its process is killed at the limit)."""
    if timeout is not None and not portfolio:
        from ..sat.catalogue import capabilities_of
        if not capabilities_of(sat_solver).time_limit:
            raise click.UsageError(f"{sat_solver} cannot stop at a time limit; drop --timeout "
                                   f"or choose another --sat-solver")


def _solve_options(solver, sat_solver, encoding, amo, max_clauses, timeout, portfolio=False,
                   **more):
    from ..run.batch import SolveOptions
    _check_time_limit(sat_solver, timeout, portfolio)
    return SolveOptions(solver=solver, sat_solver=sat_solver, encoding=encoding, amo=amo,
                        timeout=timeout, max_clauses=_max_clauses(max_clauses), **more)


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


@main.command()
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
    options = _solve_options(solver, sat_solver, encoding, amo, max_clauses, timeout, portfolio,
                             limit=2 if unique else 1, check=check, incremental=not fresh,
                             stats=stats)
    _outcomes(inputs, options, box=box, alphabet=alphabet, fmt=fmt, stats=stats,
              output=output, force=force, jobs=jobs, scheduler=scheduler, portfolio=portfolio,
              multiple_ok=False, label="solving")


@main.command()
@batch_options
@limit_option(2, 2)
def count(inputs, box, alphabet, solver, sat_solver, encoding, amo, max_clauses, timeout, limit,
          jobs, scheduler, portfolio, fmt, output, force, stats):
    """Count solutions up to --limit: unique, multiple (how many, and two of them) or
    unsolvable."""
    options = _solve_options(solver, sat_solver, encoding, amo, max_clauses, timeout, portfolio,
                             limit=limit, stats=stats)
    _outcomes(inputs, options, box=box, alphabet=alphabet, fmt=fmt, stats=stats,
              output=output, force=force, jobs=jobs, scheduler=scheduler, portfolio=portfolio,
              multiple_ok=True, label="counting")


@main.command()
@inputs_argument
@puzzle_options
@sat_options(_needs_of("explain"))
@timeout_option
@output_options(PICTURE_FORMATS)
@click.option("--redundant", is_flag=True,
              help="For a unique puzzle, also say which givens and rules it could do without.")
@click.option("--steps", is_flag=True,
              help="For a unique puzzle, also the solving path a person could follow, one "
                   "step a line.")
def explain(inputs, box, alphabet, sat_solver, encoding, amo, max_clauses, timeout, fmt,
            output, force, redundant, steps):
    """Say why each puzzle is unsolvable, ambiguous or what it takes.

    Unsolvable: a minimal set of givens that cannot all hold (each one needed), marked on the
    grid. Several solutions: two of them and the cells where they differ. Unique: the
    techniques it takes (naked singles, hidden singles, locked candidates, guessing), counted.
    """
    from ..tasks.explain import explain_puzzles
    from ..output.report import ExplanationReport
    _check_time_limit(sat_solver, timeout)
    items = explain_puzzles(_puzzles(inputs, box, alphabet), sat_solver=sat_solver,
                            encoding=encoding, amo=amo, timeout=timeout, redundant=redundant,
                            steps=steps,
                            max_clauses=_max_clauses(max_clauses))

    def code_of(item) -> int:
        _, e = item
        if e is None:
            return EXIT_FAILED
        return EXIT_OK if e.status in ("unsolvable", "multiple", "unique") else \
            exit_code(e.status)

    _stream(inputs, items, ExplanationReport(fmt, color=_color(output)), output, force,
            "explaining", code_of,
            lambda item: item[0])


@main.command()
@inputs_argument
@puzzle_options
@sat_options(_needs_of("rate"))
@timeout_option
@jobs_option
@output_options()
def rate(inputs, box, alphabet, sat_solver, encoding, amo, max_clauses, timeout, jobs, fmt,
         output, force):
    """Score how hard each puzzle is, from the techniques it takes, native guesses and SAT
    conflicts (the scale is in the README). With several puzzles a summary goes to stderr."""
    from ..tasks.rate import rate_puzzles, summarize
    from ..output.report import RatingReport
    _check_time_limit(sat_solver, timeout)
    items = rate_puzzles(_puzzles(inputs, box, alphabet), sat_solver=sat_solver,
                         encoding=encoding, amo=amo, timeout=timeout,
                         max_clauses=_max_clauses(max_clauses), jobs=jobs)

    def code_of(item) -> int:  # only a puzzle with one solution has a difficulty
        _, rating = item
        return EXIT_FAILED if rating is None else exit_code(rating.status, multiple_ok=False)

    def summary(items) -> str | None:
        result = summarize(rating for _, rating in items)
        return result.text if result.rated > 1 else None

    _stream(inputs, items, RatingReport(fmt), output, force, "rating", code_of,
            lambda item: item[0], summary)


@main.command()
@inputs_argument
@puzzle_options
@click.option("--sat-solver", callback=_sat_solver_for(_needs_of("candidates")), metavar="NAME",
              help="python-sat solver (default: see 'satdoku solvers').")
@click.option("--max-clauses", type=click.IntRange(min=1), default=None, metavar="N",
              help="Refuse formulas with more clauses (default 10,000,000).")
@timeout_option
@output_options()
def candidates(inputs, box, alphabet, sat_solver, max_clauses, timeout, fmt, output, force):
    """The true candidates of each empty cell: the digits some solution puts there.

    Found with SAT (each open digit assumed in turn), for classic and variant puzzles; the
    solutions met also say whether the puzzle is unique.
    """
    from ..tasks.candidates import candidate_puzzles
    from ..output.report import CandidatesReport
    _check_time_limit(sat_solver, timeout)
    items = candidate_puzzles(_puzzles(inputs, box, alphabet), sat_solver=sat_solver,
                              timeout=timeout, max_clauses=_max_clauses(max_clauses))

    def code_of(item) -> int:
        _, found = item
        return EXIT_FAILED if found is None else exit_code(found.status)

    _stream(inputs, items, CandidatesReport(fmt), output, force, "candidates", code_of,
            lambda item: item[0])


@main.command()
@click.option("--box", metavar="RxC", callback=_box, default="3x3", show_default=True,
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
@click.option("--sat-solver", callback=_sat_solver_for(_needs_of("generate")), metavar="NAME",
              help="python-sat solver (default: see 'satdoku solvers').")
@click.option("--encoding", type=click.Choice(_encoding_names()), default=None,
              help="CNF encoding (default: extended below 36x36, reduced from it).")
@click.option("--difficulty", type=click.Choice([name for _, name in _labels()]),
              default=None, help="Only puzzles that 'satdoku rate' labels so.")
@click.option("--alphabet", metavar="SYMBOLS", callback=_alphabet,
              help="Symbols for digits 1..N in order.")
@output_options(PICTURE_FORMATS)
def generate(box, count, seed, symmetry, minimal, max_clues, attempts, sat_solver, encoding,
             difficulty, alphabet, fmt, output, force):
    """Make puzzles with exactly one solution (proven by SAT), dug from random grids."""
    import random
    from ..model.alphabet import Alphabet, check_alphabet
    from ..tasks.generate import Generator
    from ..model.geometry import geometry
    from ..output.report import GeneratedReport
    try:
        geo = geometry(*box)
        symbols = check_alphabet(alphabet, geo.size) if alphabet else None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 31)
        click.echo(f"seed {seed} (--seed {seed} makes these puzzles again)", err=True)
    report = GeneratedReport(fmt, alphabet=symbols if isinstance(symbols, Alphabet) else None,
                             color=_color(output))
    progress = Progress(count if count > 1 else None, "generating")

    def body(session: Session) -> None:
        session.write(report.header())
        tried = 0
        with Generator(geo, seed=seed, symmetry=symmetry, minimal=minimal, max_clues=max_clues,
                       sat_solver=sat_solver, encoding=encoding, attempts=attempts,
                       difficulty=difficulty) as gen:
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


@main.command()
@click.argument("puzzle", metavar="PUZZLE|FILE", shell_complete=_complete_path)
@puzzle_options
@encoding_options
@click.option("--clues", type=click.Choice(["units", "none"]), default="units",
              show_default=True,
              help="Full encodings: givens as unit clauses, or left out (for assumptions).")
@click.option("--index", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which puzzle of a file to encode.")
@click.option("-o", "--output", metavar="FILE", shell_complete=_complete_path,
              help="Write the CNF to FILE ('-': stdout, the default).")
@click.option("--force", is_flag=True, help="Overwrite the output file.")
def encode(puzzle, box, alphabet, encoding, amo, max_clauses, clues, index, output, force):
    """Write a puzzle as DIMACS CNF, with comments that explain every variable.

    The encoding is the one 'solve' would use: extended below 25x25, reduced from it.
    """
    from ..cnf.export import write_dimacs
    from ..cnf.formula import encode as encode_grid
    from ..io.text import format_grid
    from ..cnf.policy import choose_encoding
    p = _one_puzzle(puzzle, box, alphabet, index)
    encoding = encoding or choose_encoding(p.grid.size)

    def body(session: Session) -> None:
        formula = encode_grid(p.grid, encoding, amo, clues, constraints=p.constraints,
                              max_clauses=_max_clauses(max_clauses))
        write_dimacs(formula, session.out, puzzle_text=format_grid(p.grid, "line", p.alphabet),
                     grid=p.grid)

    Session(output, force, (puzzle,)).run(body)


def _one_puzzle(text: str, box, alphabet, index: int = 1):
    """The puzzle a command works on: inline, or the ``index``-th of a file; exit 1 if bad."""
    for i, puzzle in enumerate(_puzzles([text], box, alphabet), start=1):
        if i == index:
            if puzzle.error is not None:
                _fail(str(puzzle.error))
            return puzzle
    _fail(f"{text}: has no puzzle number {index}")


def _fail(message: str, code: int = EXIT_FAILED):
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


@main.command()
@click.argument("model", metavar="MODEL|-", shell_complete=_complete_path)
@click.option("--puzzle", "puzzle_text", required=True, metavar="PUZZLE|FILE",
              shell_complete=_complete_path, help="The puzzle the model was made from.")
@puzzle_options
@click.option("--index", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which puzzle of the --puzzle file.")
@click.option("--encoding", type=click.Choice(_encoding_names()), default=None,
              help="As given to 'satdoku encode' (default: the same choice by size).")
@click.option("--amo", type=click.Choice(_amo_names()), default=None,
              help="As given to 'satdoku encode'.")
@output_options()
def decode(model, puzzle_text, box, alphabet, index, encoding, amo, fmt, output, force):
    """Read a model that an external SAT solver wrote and print the verified grid.

    Accepts SAT-competition output ('s SATISFIABLE', 'v ... 0') and MiniSat's result file
    ('SAT' then literals ending in 0).
    """
    from ..run.batch import Outcome
    from ..cnf.decode import decode_file, model_formula
    from ..output.report import OutcomeReport
    from ..model.result import Result
    p = _one_puzzle(puzzle_text, box, alphabet, index)

    def body(session: Session) -> None:
        formula = model_formula(p.grid, encoding, amo, p.constraints)
        solution = decode_file(model, p.grid, formula, p.constraints)
        report = OutcomeReport(fmt)
        session.write(report.header())
        outcome = Outcome(p, Result("solved", solution, encoding=formula.encoding))
        session.result(report.format(outcome), (), EXIT_OK)

    Session(output, force, (model, puzzle_text)).run(body)


@main.command("solvers")
@click.option("--format", "fmt", type=click.Choice(["pretty", "json"]), default="pretty",
              show_default=True, help="Output format.")
def list_solvers(fmt):
    """List the solvers, SAT solvers, encodings and at-most-one encodings on offer."""
    import json
    from ..tasks.solvers import describe
    info = describe()
    if fmt == "json":
        click.echo(json.dumps(info))
        return
    click.echo(f"solvers: {', '.join(info['solvers'])} (default {info['default_solver']})")
    click.echo(f"SAT solvers (python-sat {info['python_sat']}):")
    for s in info["sat_solvers"]:
        notes = [n for n in ("default" if s["default"] else "", s["note"]) if n]
        click.echo(f"  {s['name']}" + (f"  ({'; '.join(notes)})" if notes else ""))
    click.echo("encodings:")
    for e in info["encodings"]:
        default = f" (default {e['default']})" if e["default"] else ""
        click.echo(f"  {e['name']}: {e['description']}{default}")
    click.echo(f"at-most-one: {', '.join(info['amo'])} (default {info['default_amo']}; "
               f"reduced: pairwise up to {info['pairwise_max']} literals, else "
               f"{info['default_reduced_amo']})")


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...",
                type=click.Path(dir_okay=False), shell_complete=_complete_path)
@click.option("--solver", "solvers", multiple=True, type=click.Choice(["sat", "native"]),
              help="Solvers to compare; repeat (default: sat and native).")
@click.option("--sat-solver", "sat_solvers", multiple=True, callback=_sat_solver,
              metavar="NAME", help="SAT solvers to compare (python-sat names or "
                                   "exec:\"COMMAND\"); repeat.")
@click.option("--encoding", "encodings", multiple=True, metavar="NAME[,NAME...]",
              help=f"SAT encodings ({', '.join(_encoding_names())}); comma-separated or "
                   f"repeated (default: by grid size, as for solving).")
@click.option("--first", type=click.IntRange(min=1), default=None, metavar="N",
              help="Only the first N puzzles of each file.")
@limit_option(1, 1, 2)
@timeout_option
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the shuffled order of the timed pass.")
@jobs_option
@output_options(("table", "csv", "json"), "table")
@click.option("--plot", metavar="FILE.png", shell_complete=_complete_path,
              help="Draw a cactus plot and puzzles/s per file into one PNG (satdoku[plot]).")
@puzzle_options
def bench(files, solvers, sat_solvers, encodings, first, limit, timeout, seed, jobs, fmt,
          output, force, plot, box, alphabet):
    """Time solvers on puzzle files: one row per file, solver and encoding.

    Every answer is verified in an untimed warm-up pass, then each puzzle is timed in an
    order shuffled with --seed (as tdoku's benchmark does). Ctrl-C prints the rows finished so
    far, the interrupted one marked partial, and exits 130.
    """
    from ..run.bench import (BenchInterrupted, check_groups, check_matplotlib, format_rows,
                        plot_bench, run_bench)
    from ..io.files import samefile
    encodings = [e.strip() for text in encodings for e in text.split(",") if e.strip()]
    try:
        groups = check_groups(solvers, sat_solvers, encodings)
        if plot:
            if os.path.exists(plot) and not force:
                raise SatdokuError(f"{plot} exists; use --force to overwrite it")
            if any(samefile(plot, f) for f in files):
                raise SatdokuError(f"{plot} is an input of this run; choose another output")
            check_matplotlib()
    except SatdokuError as error:
        raise click.UsageError(str(error)) from None
    progress = Progress(1, "benchmarking") if sys.stderr.isatty() else None

    def step(done: int, total: int, label: str) -> None:
        progress.total, progress.label = total, label
        progress.update(done)

    settings = {"satdoku": __version__, "timeout": timeout, "seed": seed,
                "jobs": jobs}
    rows: list = []

    def body(session: Session) -> None:
        session.progress = progress or session.progress
        try:
            for row in run_bench(files, groups, first=first, limit=limit, timeout=timeout,
                                 seed=seed, box=box, alphabet=alphabet, jobs=jobs,
                                 progress=step if progress else None):
                rows.append(row)
        except BenchInterrupted as stop:
            rows.append(stop.row)
            session.write(format_rows(rows, fmt, settings))
            raise KeyboardInterrupt from None
        session.write(format_rows(rows, fmt, settings))
        if plot:
            plot_bench(rows, plot)
        session.code = EXIT_WRONG if any(r.errors for r in rows) else EXIT_OK

    Session(output, force, files).run(body)


def run() -> None:
    """The console entry point (``satdoku``): :func:`main` with no traceback on the way out,
    and SIGTERM and SIGHUP handled like Ctrl-C."""
    _install_signals()
    try:
        main(prog_name="satdoku")
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(EXIT_OK)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)


__all__ = ["main", "run"]

from . import convert as _convert  # noqa: E402,F401  (registers convert and rules)
