"""The ``satdoku`` command line: parse options, make one library call, print the result.

Exit codes (all commands):

- 0: every puzzle solved (``count``: every puzzle counted, unique or multiple).
- 1: a puzzle was unsolvable, invalid or timed out (``solve --unique``: or had several
  solutions); ``decode``: the model or puzzle was bad.
- 2: usage error (bad option, unknown solver, output file exists).
- 3: satdoku caught itself out: ``--check`` found the two solvers disagreeing, or an answer
  failed independent verification.
"""

from __future__ import annotations

import contextlib
import sys
import time
from typing import IO, Iterator

import click

from . import __version__
from .batch import Outcome, SolveOptions
from .errors import SatdokuError
from .files import atomic_output, check_writable
from .formats import Puzzle, format_grid, parse_box
from .grid import Grid
from .inputs import count_lines, is_file_input, iter_inputs
from .parallel import solve_batch
from .report import FORMATS, Reporter, csv_row, diagnostics, place

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_WRONG = 0, 1, 2, 3


def _box_option(ctx, param, value):
    if value is None:
        return None
    try:
        return parse_box(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _sat_solver_option(ctx, param, value):
    if value is None:
        return None
    from .sat import check_sat_solver
    try:
        return check_sat_solver(value).name
    except SatdokuError as error:
        raise click.BadParameter(error.message) from None


def _encoding_names():
    from .encode import AMO_ENCODINGS, ENCODINGS
    return list(ENCODINGS) + ["reduced"], list(AMO_ENCODINGS)


def puzzle_options(f):
    """--box and --alphabet: how to read puzzles whose shape or symbols are ambiguous."""
    f = click.option("--alphabet", metavar="SYMBOLS",
                     help="Symbols for digits 1..N in order, e.g. 0123456789ABCDEF.")(f)
    f = click.option("--box", metavar="RxC", callback=_box_option,
                     help="Box shape, e.g. 2x3 (default: inferred from the cell count).")(f)
    return f


def encoding_options(f):
    """--encoding and --amo: which CNF to build."""
    encodings, amos = _encoding_names()
    f = click.option("--amo", type=click.Choice(amos), default=None,
                     help="At-most-one encoding (default: pairwise).")(f)
    f = click.option("--encoding", type=click.Choice(encodings), default=None,
                     help="Clause set (default: extended; reduced from 36x36 up).")(f)
    return f


def solver_options(f):
    """--solver, --sat-solver, --timeout: who solves and for how long."""
    f = click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                     metavar="SECONDS", help="Give up on a puzzle after this long (status timeout).")(f)
    f = click.option("--sat-solver", callback=_sat_solver_option, metavar="NAME",
                     help="python-sat solver (default: see 'satdoku solvers').")(f)
    f = click.option("--solver", "method", type=click.Choice(["sat", "native"]), default="sat",
                     show_default=True, help="SAT through python-sat, or native search.")(f)
    f = encoding_options(f)
    return f


def batch_options(f):
    """--jobs and --scheduler: where a batch runs."""
    f = click.option("--scheduler", metavar="ADDRESS|local",
                     help="Run the batch on a Dask cluster (satdoku[dask]); 'local' starts one "
                          "on this machine.")(f)
    f = click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
                     help="Worker processes, each with its own solver; 0 uses every core.")(f)
    return f


def output_options(f):
    """--format, --stats, -o/--output, --force."""
    f = click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")(f)
    f = click.option("-o", "--output", metavar="FILE",
                     help="Write results to FILE (atomically; refuses to overwrite).")(f)
    f = click.option("--stats", is_flag=True, help="Add solver figures to every result.")(f)
    f = click.option("--format", "fmt", type=click.Choice(FORMATS), default="pretty",
                     show_default=True, help="Output format.")(f)
    return f


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="satdoku")
def main() -> None:
    """Solve Sudoku of any size by encoding it to SAT."""


@contextlib.contextmanager
def _output(path: str | None, force: bool) -> Iterator[IO[str]]:
    if path is None:
        yield sys.stdout
        return
    try:
        with atomic_output(path, force=force) as fp:
            yield fp
    except SatdokuError as error:
        raise click.UsageError(error.message) from None


class _Progress:
    """A progress bar on stderr for file input, shown only when stderr is a terminal."""

    def __init__(self, inputs: tuple[str, ...]) -> None:
        self.bar = None
        files = [a for a in inputs if is_file_input(a) and a != "-"]
        if files and sys.stderr.isatty():
            self.bar = click.progressbar(length=max(count_lines(files), 1), file=sys.stderr,
                                         label="solving")
            self.bar.__enter__()
        self.source, self.done, self.offset = None, 0, 0

    def update(self, puzzle: Puzzle) -> None:
        if self.bar is None:
            return
        if puzzle.source != self.source:
            self.source, self.offset = puzzle.source, self.done
        position = self.offset + puzzle.line
        if position > self.done:
            self.bar.update(position - self.done)
            self.done = position

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _exit_code(outcome: Outcome, *, multiple_ok: bool) -> int:
    """The exit code one outcome calls for; a batch exits with the largest."""
    if outcome.disagreements or outcome.result.status == "error":
        return EXIT_WRONG
    if not outcome.result.ok or (outcome.result.status == "multiple" and not multiple_ok):
        return EXIT_FAILED
    return EXIT_OK


def _run_batch(inputs, options: SolveOptions, *, fmt, stats, output, force, box, alphabet,
               multiple_ok, jobs=1, scheduler=None) -> None:
    reporter = Reporter(fmt, stats=stats)
    if output is not None:
        try:
            check_writable(output, force=force)
        except SatdokuError as error:
            raise click.UsageError(error.message) from None
    progress = _Progress(inputs)
    code = EXIT_OK
    try:
        with _output(output, force) as out:
            out.write(reporter.header())
            # Results stream: on a terminal each at once, into a pipe or file at least every
            # 0.1 s (a flush per puzzle is a system call per puzzle, a tenth of a 9x9 solve).
            interactive, flushed = out.isatty(), time.monotonic()
            puzzles = iter_inputs(inputs, box=box, alphabet=alphabet)
            for outcome in solve_batch(puzzles, options, jobs=jobs, scheduler=scheduler):
                progress.update(outcome.puzzle)
                out.write(reporter.format(outcome))
                if interactive or time.monotonic() - flushed > 0.1:
                    out.flush()
                    flushed = time.monotonic()
                for line in diagnostics(outcome, stats=stats, fmt=fmt):
                    click.echo(line, err=True)
                code = max(code, _exit_code(outcome, multiple_ok=multiple_ok))
    except SatdokuError as error:
        raise click.UsageError(error.message) from None
    finally:
        progress.close()
    sys.exit(code)


@main.command()
@click.argument("inputs", nargs=-1, metavar="[PUZZLE|FILE|-]...")
@puzzle_options
@solver_options
@batch_options
@output_options
@click.option("--unique", is_flag=True, help="Also prove each solution unique (or show two).")
@click.option("--check", is_flag=True, help="Run SAT and native search; exit 3 if they disagree.")
@click.option("--fresh", is_flag=True,
              help="Build a new SAT solver for every puzzle (slow: shows what the incremental "
                   "path buys).")
def solve(inputs, box, alphabet, method, sat_solver, timeout, encoding, amo, jobs, scheduler, fmt,
          stats, output, force, unique, check, fresh):
    """Solve puzzles given inline, in files, or on stdin (no arguments or '-').

    One result per puzzle, in input order. Bad puzzles are reported on stderr with file, line
    and cell, and the batch goes on.
    """
    options = SolveOptions(method=method, sat_solver=sat_solver, encoding=encoding, amo=amo,
                           limit=2 if unique else 1, timeout=timeout, check=check,
                           incremental=not fresh, stats=stats)
    _run_batch(inputs, options, fmt=fmt, stats=stats, output=output, force=force, box=box,
               alphabet=alphabet, multiple_ok=False, jobs=jobs, scheduler=scheduler)


@main.command()
@click.argument("inputs", nargs=-1, metavar="[PUZZLE|FILE|-]...")
@puzzle_options
@solver_options
@batch_options
@output_options
@click.option("--limit", type=click.IntRange(min=2), default=2, show_default=True,
              help="Count solutions up to this many.")
def count(inputs, box, alphabet, method, sat_solver, timeout, encoding, amo, jobs, scheduler, fmt,
          stats, output, force, limit):
    """Count solutions up to --limit: unique, multiple (with two solutions) or unsolvable."""
    options = SolveOptions(method=method, sat_solver=sat_solver, encoding=encoding, amo=amo,
                           limit=limit, timeout=timeout, stats=stats)
    _run_batch(inputs, options, fmt=fmt, stats=stats, output=output, force=force, box=box,
               alphabet=alphabet, multiple_ok=True, jobs=jobs, scheduler=scheduler)


def _one_puzzle(text: str, box, alphabet, index: int = 1) -> Puzzle:
    """The puzzle a command works on: inline, or the ``index``-th of a file; errors -> exit 1."""
    for i, puzzle in enumerate(iter_inputs([text], box=box, alphabet=alphabet), start=1):
        if i == index:
            if puzzle.error is not None:
                raise click.ClickException(str(puzzle.error))
            return puzzle
    raise click.ClickException(f"{text}: has no puzzle number {index}")


@main.command()
@click.argument("puzzle", metavar="PUZZLE|FILE")
@puzzle_options
@encoding_options
@click.option("--clues", type=click.Choice(["units", "none", "reduced"]), default="units",
              show_default=True,
              help="Givens as unit clauses, left out, or folded away (reduced encoding).")
@click.option("--index", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which puzzle of a file to encode.")
@click.option("-o", "--output", metavar="FILE", help="Write the CNF to FILE (default: stdout).")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
def encode(puzzle, box, alphabet, encoding, amo, clues, index, output, force):
    """Write a puzzle as DIMACS CNF, with comments that explain every variable."""
    from .encode import encode as encode_grid, write_dimacs
    from .reduce import reduced_formula, write_reduced_dimacs
    p = _one_puzzle(puzzle, box, alphabet, index)
    text = format_grid(p.grid, "line", p.alphabet)
    if clues == "reduced" or encoding == "reduced":
        try:
            formula = reduced_formula(p.grid, **({"amo": amo} if amo else {}))
        except ValueError as error:
            raise click.UsageError(str(error)) from None
        with _output(output, force) as out:
            write_reduced_dimacs(formula, out, puzzle_text=text)
        return
    formula = encode_grid(p.grid, encoding or "extended", amo or "pairwise", clues=clues)
    with _output(output, force) as out:
        write_dimacs(formula, out, grid=p.grid, puzzle_text=text)


@main.command()
@click.argument("model", metavar="MODEL|-")
@click.option("--puzzle", "puzzle_text", required=True, metavar="PUZZLE|FILE",
              help="The puzzle the model was made from.")
@puzzle_options
@click.option("--index", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which puzzle of the --puzzle file.")
@click.option("--clues", type=click.Choice(["units", "none", "reduced"]), default="units",
              show_default=True, help="As given to 'satdoku encode' (only 'reduced' matters).")
@click.option("--format", "fmt", type=click.Choice(["pretty", "line", "json"]), default="pretty",
              show_default=True)
def decode(model, puzzle_text, box, alphabet, index, clues, fmt):
    """Read a model that an external SAT solver wrote and print the verified grid.

    Accepts SAT-competition output ('s SATISFIABLE', 'v ... 0') and MiniSat's result file
    ('SAT' then literals ending in 0).
    """
    from .decode import decode_file
    p = _one_puzzle(puzzle_text, box, alphabet, index)
    try:
        solution = decode_file(model, p.grid, reduced=clues == "reduced")
    except SatdokuError as error:
        raise click.ClickException(str(error)) from None
    if fmt == "json":
        import json
        click.echo(json.dumps({"puzzle": format_grid(p.grid, "line", p.alphabet),
                               "solution": format_grid(solution, "line", p.alphabet),
                               "status": "solved"}))
    else:
        click.echo(format_grid(solution, fmt, p.alphabet))


def _timeout_option(help_text: str):
    return click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                        metavar="SECONDS", help=help_text)


def _sat_solver_only(f):
    return click.option("--sat-solver", callback=_sat_solver_option, metavar="NAME",
                        help="python-sat solver (default: see 'satdoku solvers').")(f)


def _file_output(f):
    f = click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")(f)
    f = click.option("-o", "--output", metavar="FILE",
                     help="Write to FILE (atomically; refuses to overwrite).")(f)
    return f


def _checked_output(output: str | None, force: bool) -> None:
    if output is not None:
        try:
            check_writable(output, force=force)
        except SatdokuError as error:
            raise click.UsageError(error.message) from None


@main.command()
@click.argument("inputs", nargs=-1, metavar="[PUZZLE|FILE|-]...")
@puzzle_options
@_sat_solver_only
@_timeout_option("Give up on a puzzle after this long (status timeout).")
@click.option("--format", "fmt", type=click.Choice(["pretty", "json"]), default="pretty",
              show_default=True, help="Output format (json: one object a line).")
@_file_output
def explain(inputs, box, alphabet, sat_solver, timeout, fmt, output, force):
    """Say why each puzzle is unsolvable, ambiguous or what it takes.

    Unsolvable: a minimal set of givens that cannot all hold (each one needed), marked on the
    grid. Several solutions: two of them and the cells where they differ. Unique: the
    techniques it takes (naked singles, hidden singles, locked candidates, guessing), counted.
    """
    import json
    from .explain import explain as explain_grid, format_explanation
    from .sat import DEFAULT_SAT_SOLVER, SatSolver
    _checked_output(output, force)
    code = EXIT_OK
    with SatSolver(sat_solver or DEFAULT_SAT_SOLVER) as solver, _output(output, force) as out:
        for p in iter_inputs(inputs, box=box, alphabet=alphabet):
            where = place(p)
            if p.error is not None:
                click.echo(str(p.error), err=True)
                if fmt == "json":
                    out.write(json.dumps({"source": p.source, "line": p.line,
                                          "status": "invalid", "message": str(p.error)}) + "\n")
                else:
                    out.write(f"{where}: invalid\n\n")
                code = max(code, EXIT_FAILED)
                continue
            try:
                expl = explain_grid(p.grid, timeout=timeout, solver=solver)
            except SatdokuError as error:  # e.g. a grid too big for the full encoding
                click.echo(f"{where}: {error}", err=True)
                out.write(json.dumps({"source": p.source, "line": p.line, "status": "error",
                                      "message": str(error)}) + "\n" if fmt == "json"
                          else f"{where}: error\n\n")
                code = max(code, EXIT_FAILED)
                continue
            if fmt == "json":
                out.write(json.dumps({"source": p.source, "line": p.line, "name": p.name,
                                      **expl.as_dict(p.alphabet)}) + "\n")
            else:
                out.write(format_explanation(expl, p.alphabet, where) + "\n")
            if expl.status == "error":
                click.echo(f"{where}: {expl.message}", err=True)
                code = EXIT_WRONG
            elif expl.status not in ("unsolvable", "multiple", "unique"):
                click.echo(f"{where}: {expl.status}"
                           + (f": {expl.message}" if expl.message else ""), err=True)
                code = max(code, EXIT_FAILED)
    sys.exit(code)


@main.command()
@click.option("--box", metavar="RxC", callback=_box_option, default="3x3", show_default=True,
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
@_sat_solver_only
@click.option("--alphabet", metavar="SYMBOLS", help="Symbols for digits 1..N in order.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="pretty",
              show_default=True, help="Output format (line: one puzzle a line, for 'solve').")
@_file_output
def generate(box, count, seed, symmetry, minimal, max_clues, attempts, sat_solver, alphabet,
             fmt, output, force):
    """Make puzzles with exactly one solution (proven by SAT), dug from random grids."""
    import random
    from .formats import Alphabet
    from .generate import Generator
    from .geometry import geometry
    from .report import GENERATED_FIELDS, format_generated
    r, c = box
    try:
        geo = geometry(r, c)
        symbols = Alphabet(alphabet) if alphabet else None
        if symbols is not None:
            format_grid(Grid(geo, (0,) * geo.ncells), "line", symbols)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    _checked_output(output, force)
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 31)
        click.echo(f"seed {seed} (--seed {seed} makes these puzzles again)", err=True)
    made, failure = 0, None
    with Generator(geo, seed=seed, symmetry=symmetry, minimal=minimal, max_clues=max_clues,
                   sat_solver=sat_solver, attempts=attempts) as gen, \
            _output(output, force) as out:
        if fmt == "csv":
            out.write(csv_row(GENERATED_FIELDS))
        for _ in range(count):
            try:
                puzzle = gen.generate()
            except SatdokuError as error:
                failure = error
                break
            out.write(format_generated(puzzle, fmt, symbols))
            out.flush()
            made += 1
    if failure is not None:
        click.echo(f"made {made} of {count} puzzles: {failure}", err=True)
        sys.exit(EXIT_FAILED)


@main.command()
@click.argument("inputs", nargs=-1, metavar="[PUZZLE|FILE|-]...")
@puzzle_options
@_sat_solver_only
@_timeout_option("Time for each solver on a puzzle; past it the score is a lower bound.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes; 0 uses every core. Scores do not change.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="pretty",
              show_default=True, help="Output format (line: 'score label' a line).")
@_file_output
def rate(inputs, box, alphabet, sat_solver, timeout, jobs, fmt, output, force):
    """Score how hard each puzzle is, from the techniques it takes, native guesses and SAT
    conflicts (the scale is in the README). With several puzzles a summary goes to stderr."""
    import statistics
    from .rate import LABELS, rate_puzzles
    from .report import RATING_FIELDS, format_rating
    _checked_output(output, force)
    code, scores, labels = EXIT_OK, [], {}
    puzzles = iter_inputs(inputs, box=box, alphabet=alphabet)
    with _output(output, force) as out:
        if fmt == "csv":
            out.write(csv_row(RATING_FIELDS))
        for p, rating in rate_puzzles(puzzles, sat_solver=sat_solver, timeout=timeout,
                                      jobs=jobs):
            out.write(format_rating(p, rating, fmt))
            where = place(p)
            if rating is None:
                click.echo(str(p.error), err=True)
            elif rating.message:
                click.echo(f"{where}: {rating.message}", err=True)
            if rating is None or rating.score is None:
                code = max(code, EXIT_WRONG if rating and rating.status == "error"
                           and rating.message.startswith("internal error") else EXIT_FAILED)
                continue
            scores.append(rating.score)
            labels[rating.label] = labels.get(rating.label, 0) + 1
    if len(scores) > 1:
        spread = ", ".join(f"{name} {labels[name]}" for _, name in LABELS if name in labels)
        click.echo(f"rated {len(scores)}: mean {statistics.mean(scores):.2f}, median "
                   f"{statistics.median(scores):.2f}; {spread}", err=True)
    sys.exit(code)


@main.command("solvers")
def list_solvers():
    """List the SAT solvers on offer and the encodings."""
    from .encode import AMO_ENCODINGS, ENCODINGS
    from .sat import DEFAULT_SAT_SOLVER, SAT_SOLVERS
    for name in SAT_SOLVERS:
        click.echo(f"{name}{'  (default)' if name == DEFAULT_SAT_SOLVER else ''}")
    click.echo(f"encodings: {', '.join(ENCODINGS)} (default extended)")
    click.echo(f"at-most-one: {', '.join(AMO_ENCODINGS)} (default pairwise)")


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...",
                type=click.Path(exists=True, dir_okay=False))
@click.option("--method", "methods", multiple=True, metavar="METHOD",
              help="sat (default solver), sat:NAME or native; repeat to compare "
                   "(default: sat and native).")
@click.option("--encoding", "encodings", multiple=True, metavar="NAME[,NAME...]",
              help="SAT encodings: minimal, natural, extended; comma-separated or repeated "
                   "(default: extended). Native search runs once per file.")
@click.option("--limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="Only the first N puzzles of each file.")
@click.option("--count-to", type=click.IntRange(1, 2), default=1, show_default=True,
              help="1: find a solution; 2: also prove it unique (or find a second).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS", help="Per puzzle; a timeout counts at this time.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the shuffled order of the timed pass.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="Output format.")
@click.option("--out", metavar="FILE", help="Write the results to FILE (atomically).")
@click.option("--force", is_flag=True, help="Overwrite --out and --plot files if they exist.")
@click.option("--plot", metavar="FILE.png",
              help="Draw a cactus plot and puzzles/s per file into one PNG (satdoku[plot]).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes (0: every core); puzzles/s is then over wall time.")
@puzzle_options
def bench(files, methods, encodings, limit, count_to, timeout, seed, fmt, out, force, plot, jobs,
          box, alphabet):
    """Time solving methods on puzzle files: one row per file, method and encoding.

    Every answer is verified in an untimed warm-up pass, then each puzzle is timed in an
    order shuffled with --seed (as tdoku's benchmark does). Ctrl-C prints the rows finished so
    far, the interrupted one marked partial, and exits 130.
    """
    from .bench import (BenchInterrupted, check_matplotlib, check_methods, check_not_input,
                        format_csv, format_json, format_table, method_label, plot_bench,
                        run_bench)

    def fail(message: str, code: int = EXIT_FAILED) -> click.ClickException:
        error = click.ClickException(message)
        error.exit_code = code
        return error

    methods = methods or ("sat", "native")
    encodings = [e.strip() for text in encodings or ("extended",) for e in text.split(",")
                 if e.strip()]
    try:
        check_methods(methods, encodings)
        for path in (p for p in (out, plot) if p):
            check_not_input(path, files)
            check_writable(path, force=force)
        if plot:
            check_matplotlib()
    except SatdokuError as error:
        raise fail(str(error), EXIT_USAGE) from None

    bar = None

    def progress(done: int, total: int, label: str) -> None:
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, file=sys.stderr, label=label)
            bar.__enter__()
        bar.label = label
        bar.update(done - bar.pos)

    rows, interrupted = [], False
    try:
        for row in run_bench(files, methods, encodings, limit=limit, count_to=count_to,
                             timeout=timeout, seed=seed, box=box, alphabet=alphabet,
                             progress=progress if sys.stderr.isatty() else None,
                             jobs=jobs):
            rows.append(row)
    except BenchInterrupted as stop:
        rows.append(stop.row)
        interrupted = True
    except KeyboardInterrupt:
        interrupted = True
    except SatdokuError as error:
        raise fail(str(error)) from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)

    settings = {"satdoku": __version__, "files": list(files),
                "methods": list(dict.fromkeys(method_label(m) for m in methods)),
                "encodings": encodings, "limit": limit, "count_to": count_to,
                "timeout": timeout, "seed": seed, "interrupted": interrupted}
    text = (format_json(rows, settings) if fmt == "json" else
            format_csv(rows) if fmt == "csv" else format_table(rows))
    if interrupted:
        click.echo("interrupted: the rows finished so far (the last one partial)"
                   + (f"; {out} not written" if out else ""), err=True)
        click.echo(text, nl=False)
        sys.exit(130)
    with _output(out, force) as fp:
        fp.write(text)
    if plot:
        plot_bench(rows, plot)
    sys.exit(EXIT_WRONG if any(r.errors for r in rows) else EXIT_OK)
