"""The CNF and benchmark tools: ``encode``, ``decode``, ``solvers`` and ``bench``."""

from __future__ import annotations

import os
import sys

from ..errors import SatdokuError, abridge
from ..io.dimacs import UnsatisfiableError
from ..model.result import EXIT_FAILED, EXIT_OK, EXIT_WRONG, exit_code
from ..output.report import printable
from ..tasks.base import Outcome
from ..tasks.commands import SOLVER_NAMES
from ..tasks.other_commands import DecodeOptions, EncodeOptions
from .options import (encoding_option, jobs_option, limit_option, make_options,
                      output_options, puzzle_options, require_extra, sat_solver_option,
                      task_options, timeout_option)
from .parsing import (BadParameter, UsageError, argument, choice, command, echo, int_range,
                      option, whole)
from .session import Progress, Session, fail, one_puzzle, puzzles_of, results_share_a_pipe

__all__ = ["COMMANDS"]


#: What ``encode --format`` writes, and the extension of each file in ``-o DIR/``.
ENCODE_FORMATS = {"dimacs": ".cnf", "icnf": ".icnf"}


@command()
@argument("puzzle", metavar="PUZZLE|FILE", complete="file")
@puzzle_options
@task_options(EncodeOptions)
@option("--format", "fmt", type=choice(list(ENCODE_FORMATS)), default="dimacs",
        show_default=True,
        help="dimacs: the givens as unit clauses (or none, --clues); icnf: incremental "
             "CNF, the givens as assumptions ('a' lines), every puzzle of FILE.")
@option("-o", "--output", metavar="FILE|DIR/", complete="file",
        help="Write the CNF to FILE ('-': stdout, the default); DIR/ (or an existing "
             "folder): one file for each puzzle of FILE, named by its input and line.")
@option("--force", is_flag=True, help="Overwrite the output file(s).")
def encode(puzzle, reading, fmt, output, force, **values):
    """Write a puzzle as DIMACS CNF, with comments that explain every variable.

    The encoding is the one 'solve' would use: extended below 25x25, reduced from it.
    """
    from .session import picture_folder
    options = make_options(EncodeOptions, values)
    folder = picture_folder(output)
    if folder is None and fmt == "dimacs":
        p = one_puzzle(puzzle, reading, options.index)
        if options.index == 1 and reading.inputs([puzzle]).ahead() == 2:
            echo(f"{puzzle}: holds more than one puzzle; this is the first (--index N "
                 f"for another, -o DIR/ for all)", err=True)
        Session(output, force, (puzzle,)).run(lambda session: _write_cnf(session.out, [p],
                                                                         options, fmt))
        return
    if options.index != 1:
        raise UsageError("--index picks one puzzle; -o DIR/ and --format icnf take "
                         "every puzzle of the input")
    puzzles, code = _readable(puzzle, reading)
    if folder is None:  # one ICNF: the base formula, an 'a' line a puzzle
        def body(session: Session) -> None:
            _write_cnf(session.out, puzzles, options, fmt)
            session.code = code
        Session(output, force, (puzzle,)).run(body)
    else:
        _encode_into(folder, puzzles, options, fmt, force, puzzle)
        sys.exit(code)


def _readable(text: str, reading) -> tuple[list, int]:
    """The puzzles of ``text`` that could be read (the others reported on stderr), and the
    exit code they call for (1 when some could not be read)."""
    puzzles, code = [], EXIT_OK
    for p in puzzles_of([text], reading):
        if p.error is not None:
            echo(printable(str(p.error)), err=True)
            code = EXIT_FAILED
        else:
            puzzles.append(p)
    if not puzzles:
        fail(f"{abridge(text)}: holds no puzzle that could be read")
    return puzzles, code


def _write_cnf(out, puzzles: list, options: EncodeOptions, fmt: str) -> None:
    """A puzzle as DIMACS (``puzzles`` holds one), or puzzles as ICNF
    (:meth:`EncodeOptions.incremental`)."""
    from ..cnf.export import write_dimacs
    from ..io.text import format_grid
    if fmt == "dimacs":
        p, = puzzles
        # a puzzle the 'c puzzle:' line and the box cannot give again (rules, regions, another
        # shape, other digits, extra cells) as its document too, on one comment line of ASCII
        # JSON: decode --cnf rebuilds it from there
        document = None
        geo = p.grid.geometry
        if p.constraints or geo.regions is not None or geo.grid_rows or geo.extra or geo.low != 1:
            from ..io.variant import format_variant
            document = format_variant(p, ascii=True)
        write_dimacs(options.formula(p), out, grid=p.grid,
                     puzzle_text=format_grid(p.grid, "line", p.alphabet), document=document)
        return
    formula, cubes, lines = options.incremental(puzzles)
    write_dimacs(formula, out, extra=lines, cubes=cubes)


def _encode_into(folder: str, puzzles: list, options: EncodeOptions, fmt: str, force: bool,
                 source: str) -> None:
    """Every puzzle into a file of its own in ``folder`` (made when missing), named by its
    input and line (a second of the same name numbered); every name is checked before
    anything is written, so a run refused for an existing file writes none."""
    from ..io.files import Output
    names, paths = set(), []
    for p in puzzles:
        stem, n = p.file_stem(), 1
        while (name := stem if n == 1 else f"{stem}-{n}") in names:
            n += 1
        names.add(name)
        paths.append(os.path.join(folder, name + ENCODE_FORMATS[fmt]))
    taken = [path for path in paths if os.path.lexists(path)]
    if taken and not force:
        more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
        raise UsageError(f"{taken[0]} exists{more}; use --force to overwrite")
    try:
        os.makedirs(folder, exist_ok=True)
        for p, path in zip(puzzles, paths):
            out = Output(path, force=force, inputs=(source,))
            try:
                _write_cnf(out, [p], options, fmt)
            except BaseException:
                out.discard()
                raise
            out.commit()
    except OSError as error:
        fail(f"{folder}: cannot write: {error.strerror or error}")
    except SatdokuError as error:
        fail(str(error))
    echo(f"{folder}: {len(paths)} file{'s' * (len(paths) != 1)} written", err=True)


@command()
@argument("model", metavar="MODEL|-|DIR/", complete="file")
@option("--puzzle", "puzzle_text", metavar="PUZZLE|FILE", complete="file",
        help="The puzzle the model was made from (default: the one --cnf names).")
@option("--cnf", metavar="FILE|DIR/", complete="file",
        help="The CNF 'satdoku encode' wrote: its comments give the puzzle, box, "
             "encoding and at-most-one. With MODEL a folder, a folder of them: each "
             "NAME.cnf is decoded with the model MODEL/NAME.* (batch).")
@puzzle_options
@task_options(DecodeOptions)
@output_options()
def decode(model, puzzle_text, cnf, reading, fmt, output, force, paint, **values):
    """Read a model that an external SAT solver wrote and print the verified grid.

    Accepts SAT-competition output ('s SATISFIABLE', 'v ... 0') and MiniSat's result file
    ('SAT' then literals ending in 0).
    """
    from ..output.report import OutcomeReport
    if model == "-" and puzzle_text == "-":
        raise UsageError("the model and --puzzle cannot both be read from stdin")
    if puzzle_text is None and cnf is None:
        raise UsageError("give --puzzle (the puzzle the model was made from) or --cnf "
                         "(the CNF 'satdoku encode' wrote)")
    options = make_options(DecodeOptions, values)
    if os.path.isdir(model):
        if cnf is None or not os.path.isdir(cnf) or puzzle_text is not None:
            raise UsageError("a folder of models takes --cnf DIR/ (the folder 'encode -o "
                             "DIR/' wrote), not --puzzle")
        jobs = _model_pairs(model, cnf)
    else:
        jobs = [(model, cnf)]

    def body(session: Session) -> None:
        report = OutcomeReport(fmt, color=paint, proof=options.proof is not None)
        session.write(report.header())
        for model_path, cnf_path in jobs:
            outcome = _decoded(model_path, cnf_path, puzzle_text, reading, options)
            session.result(report.format(outcome), report.diagnostics(outcome),
                           exit_code(outcome.result.status))

    Session(output, force, (model, puzzle_text or cnf)).run(body)


def _model_pairs(models: str, cnfs: str) -> list[tuple[str | None, str]]:
    """(model, CNF) for each NAME.cnf of ``cnfs``, numbers in names by value (``9x9-10``
    after ``9x9-9``: the input's order for the CNFs of one file): the model is the file of
    ``models`` named NAME or NAME.* (None when there is none: that puzzle is an error)."""
    import re

    def by_number(name: str) -> list:
        return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", name)]
    names = sorted(os.listdir(models))
    pairs: list[tuple[str | None, str]] = []
    for name in sorted((n for n in os.listdir(cnfs) if n.endswith(".cnf")), key=by_number):
        stem, cnf_path = name[:-len(".cnf")], os.path.join(cnfs, name)
        found = [n for n in names if (n == stem or n.startswith(stem + "."))
                 and os.path.join(models, n) != cnf_path and not n.endswith(".cnf")]
        pairs.append((os.path.join(models, found[0]) if found else None, cnf_path))
    if not pairs:
        fail(f"{cnfs}: holds no .cnf file")
    return pairs


def _decoded(model: str | None, cnf: str | None, puzzle_text: str | None, reading,
             options: DecodeOptions) -> Outcome:
    """The outcome of one model: its puzzle (from --puzzle or the CNF's comments), decoded
    with the encoding the options or the CNF's comments give, verified."""
    from ..cnf.decode import decode_file, model_formula
    from ..errors import ModelError
    from ..model.puzzle import Puzzle
    from ..model.result import Result
    try:
        p, encoding, amo = _decode_inputs(cnf, puzzle_text, reading, options)
        if model is None:
            raise ModelError("no model file for it (MODELS/NAME or NAME.*)", source=cnf)
        grid = p.valid_grid
        formula = model_formula(grid, encoding, amo, p.constraints)
    except SatdokuError as error:  # the outcome names its file: the message need not again
        source = cnf or model or ""
        where = error.line if error.source == source and error.line else 1
        return Outcome(Puzzle(None, source, where), Result(
            "error", message=error.detail if error.source == source else str(error)))
    try:
        result = Result("solved", decode_file(model, grid, formula, p.constraints),
                        encoding=formula.encoding)
    except UnsatisfiableError as error:
        if options.proof is None:
            if cnf is None:
                raise
            return Outcome(p, Result("error", encoding=formula.encoding,
                                     message=f"{model}: the solver says UNSATISFIABLE; "
                                             f"give --proof to check it"))
        result = _backed(error, p, options.proof, options, formula.encoding)
    except ModelError as error:
        if cnf is None:
            raise
        result = Result("error", encoding=formula.encoding, message=str(error))
    return Outcome(p, result)


def _decode_inputs(cnf: str | None, puzzle_text: str | None, reading, options: DecodeOptions):
    """(puzzle, encoding, amo) of one decode: the puzzle from --puzzle, else from the CNF's
    comments, and the encoding and at-most-one the CNF's comments say (an option that
    disagrees is a ModelError), else the options'."""
    from ..cnf.decode import read_header
    from ..errors import ModelError
    from ..io.text import parse_puzzle
    encoding, amo = options.encoding, options.amo
    header = read_header(cnf) if cnf is not None else None
    if header is not None:
        for name, given, said in (("--encoding", encoding, header.encoding),
                                  ("--amo", amo, header.amo)):
            if given is not None and given != said:
                raise ModelError(f"{name} {given}, but its comments say {said}", source=cnf)
        encoding, amo = header.encoding, header.amo
    if puzzle_text is not None:
        return one_puzzle(puzzle_text, reading, options.index), encoding, amo
    if header is not None and header.document is not None:  # a variant puzzle's rules
        from ..io.variant import read_variant
        from ..records import replace
        from ..io.text import format_grid
        line = header.document_line
        p = replace(read_variant(header.document, cnf or "", line), source=cnf or "", line=line)
        givens = format_grid(p.valid_grid, "line", p.alphabet)
        if header.puzzle is not None and givens != header.puzzle:
            raise ModelError("its document's givens are not its 'c puzzle:' line (edited by "
                             "hand?); give the puzzle with --puzzle", source=cnf, line=line)
        if header.rules != len(p.constraints):
            raise ModelError(f"its document has {len(p.constraints)} rules but its 'c variant "
                             f"rules:' line says {header.rules} (edited by hand?); give the "
                             "puzzle with --puzzle", source=cnf, line=line)
        return p, encoding, amo
    if header is None or header.rules or header.puzzle is None or header.box is None:
        raise ModelError("encodes variant rules or a grid of other shape without their "
                         "document, or no puzzle line; give the puzzle with --puzzle",
                         source=cnf)
    return parse_puzzle(header.puzzle, cnf or "", box=header.box), encoding, amo


def _backed(error, p, proof_file: str, options: DecodeOptions, encoding: str | None):
    """The result of an UNSAT answer whose proof ``proof_file`` was checked: unsolvable,
    or error when a checker rejected it (:func:`satdoku.sat.proofs.backed`)."""
    from ..errors import ModelError
    from ..model.result import Result
    from ..sat.proofs import backed
    try:
        proof = backed(error, p.grid, proof_file, encoding=options.encoding,
                       amo=options.amo, constraints=p.constraints).proof
    except ModelError as rejected:
        return Result("error", encoding=encoding, message=rejected.message)
    return Result("unsolvable", encoding=encoding, proof=proof)


@command("solvers")
@option("--format", "fmt", type=choice(["pretty", "json"]), default="pretty",
        show_default=True, help="Output format.")
def list_solvers(fmt):
    """List the solvers, SAT solvers, encodings and at-most-one encodings on offer."""
    import json
    from ..tasks.solvers import describe
    info = describe()
    if fmt == "json":
        echo(json.dumps(info))
        return
    echo(f"solvers: {', '.join(info['solvers'])} (default {info['default_solver']})")
    echo(f"SAT solvers (python-sat {info['python_sat']}):")
    for s in info["sat_solvers"]:
        notes = [n for n in ("default" if s["default"] else "", s["note"]) if n]
        echo(f"  {s['name']}" + (f"  ({'; '.join(notes)})" if notes else ""))
    echo("encodings:")
    for e in info["encodings"]:
        default = f" (default {e['default']})" if e["default"] else ""
        echo(f"  {e['name']}: {e['description']}{default}")
    echo(f"at-most-one: {', '.join(info['amo'])} (default {info['default_amo']}; "
         f"reduced: pairwise up to {info['pairwise_max']} literals, else "
         f"{info['default_reduced_amo']})")


def _not_a_folder(path: str) -> str:
    """bench's FILE: a puzzle file (a folder is a usage error, as a missing file is not: that
    one is a row of its own)."""
    if os.path.isdir(path):
        raise BadParameter(f"{path!r} is a folder, not a puzzle file")
    return path


def _solver_name(value: str) -> str:
    """bench's --solver: a name of SOLVER_NAMES or exec:COMMAND."""
    if value in SOLVER_NAMES or value.startswith("exec:"):
        return value
    raise BadParameter(f"{value!r} is not one of {', '.join(SOLVER_NAMES)} or exec:COMMAND")


@command()
@argument("files", nargs=-1, required=True, metavar="FILE...", complete="file",
          type=_not_a_folder)
@option("--solver", "solvers", multiple=True, metavar="|".join(SOLVER_NAMES) + "|exec:CMD",
        callback=lambda values, command: [_solver_name(v) for v in values],
        help="Solvers to compare; repeat (default: sat and native). exact-cover and "
             "cp-sat are compiled search baselines (satdoku[baselines]); exec:\"COMMAND\" "
             "a search binary reading a puzzle line on stdin, timed by its own CPU.")
@sat_solver_option(multiple=True)
@encoding_option
@option("--first", type=int_range(1), default=None, metavar="N",
        help="Only the first N puzzles of each file.")
@limit_option(1, 1, 2)
@timeout_option
@option("--seed", type=whole, default=0, show_default=True,
        help="Seed of the shuffled order of the timed pass.")
@jobs_option
@output_options(("table", "csv", "json"), "table")
@option("--plot", metavar="FILE.png|.pdf|.svg", complete="file",
        help="Draw per file a cactus plot, the share answered within a time, SAT "
             "against each search per puzzle, and puzzles/s (satdoku[plot]).")
@option("--levels", type=choice(["none", "propagation", "failed-literals"]),
        default="failed-literals", show_default=True,
        help="SAT: also measure the share settled by unit propagation (and by "
             "failed-literal probing), untimed.")
@option("--repeat", "repeats", type=int_range(1), default=1, show_default=True,
        metavar="N", help="Timed passes per group, each in its own order (seed + pass "
                          "- 1); the spread of their totals is a column.")
@option("--rows", metavar="FILE.csv|FILE.jsonl", complete="file",
        help="Also write one row per puzzle, solver and pass (times, CPU, counters, "
             "level, versions, load); refuses to overwrite without --force.")
@puzzle_options
def bench(files, solvers, sat_solvers, encodings, first, limit, timeout, seed, jobs, fmt,
          output, force, plot, levels, repeats, rows, reading):
    """Time solvers on puzzle files: one row per file, solver and encoding.

    Every answer is verified in an untimed warm-up pass, then each puzzle is timed in an
    order shuffled with --seed (as tdoku's benchmark does). Without --timeout, native search
    has 30 s a puzzle (a time-out past it). Ctrl-C prints the rows finished so far, the
    interrupted one marked partial, and exits 130.
    """
    from ..io.files import is_input
    from ..output.bench import PuzzleRows, format_rows
    from ..run.bench import BenchInterrupted, check_groups, run_bench
    encodings = [e.strip() for text in encodings for e in text.split(",") if e.strip()]
    try:
        groups = check_groups(solvers, sat_solvers, encodings)
        if plot:
            if os.path.exists(plot) and not force:
                raise SatdokuError(f"{plot} exists; use --force to overwrite it")
            if is_input(plot, files):
                raise SatdokuError(f"{plot} is an input of this run; choose another output")
            from ..output.plots import check_plot_path
            check_plot_path(plot)
            require_extra("--plot")
    except SatdokuError as error:
        raise UsageError(str(error)) from None
    progress = Progress(1, "benchmarking") \
        if sys.stderr.isatty() and not results_share_a_pipe(output) else None

    def step(done: int, total: int, label: str) -> None:
        progress.total, progress.label = total, label
        progress.update(done)

    settings = {"timeout": timeout, "seed": seed, "jobs": jobs, "levels": levels}
    session = Session(output, force, files)
    try:
        per_puzzle = PuzzleRows(rows, force=force, inputs=files, settings=settings) \
            if rows else None
    except SatdokuError as error:
        session.out.discard()
        raise UsageError(str(error)) from None
    done: list = []
    drawn: list = []  # the per-puzzle rows --plot draws

    def body(session: Session) -> None:
        session.progress = progress or session.progress
        try:
            for row in run_bench(files, groups, first=first, limit=limit, timeout=timeout,
                                 seed=seed, box=reading.box, alphabet=reading.alphabet, jobs=jobs,
                                 levels=levels, progress=step if progress else None,
                                 invalid=lambda p: session.note(printable(str(p.error))),
                                 repeats=repeats, per_puzzle=bool(rows or plot)):
                done.append(row)
                drawn.extend(row.puzzle_rows if plot else ())
                if per_puzzle is not None:
                    per_puzzle.write(row)
        except BenchInterrupted as stop:
            done.append(stop.row)
            session.write(format_rows(done, fmt, settings))
            if per_puzzle is not None:  # the solves finished so far are kept, as -o keeps them
                per_puzzle.write(stop.row)
                per_puzzle.commit()
            raise KeyboardInterrupt from None
        except BaseException:
            if per_puzzle is not None:
                per_puzzle.discard()
            raise
        session.write(format_rows(done, fmt, settings))
        if per_puzzle is not None:
            per_puzzle.commit()
        if plot:
            from ..output.plots import plot_rows
            plot_rows(drawn, plot)
        session.code = EXIT_WRONG if any(r.errors for r in done) else EXIT_OK

    session.run(body)


COMMANDS = (encode, decode, list_solvers, bench)
