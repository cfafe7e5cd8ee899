"""The command line's options, each defined once and shared by the commands that take it.

Option values are checked here (a bad one is a usage error, exit 2); a ``--sat-solver`` is
checked against what the command's task declares it needs (its ``NEEDS``).
"""

from __future__ import annotations

import functools
import os
import sys

from ..errors import SatdokuError
from ..output.report import FORMATS, PICTURE_FORMATS, STEP_FORMATS
from ..records import record
from .parsing import BadParameter, UsageError, argument, choice, echo, int_range, option

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from ..io.inputs import Inputs

__all__ = ["FORMATS", "PICTURE_FORMATS", "STEP_FORMATS", "inputs_argument", "puzzle_options",
           "sat_solver_option", "encoding_option", "timeout_option", "jobs_option",
           "output_options", "limit_option", "paint", "Reading", "box_callback",
           "alphabet_callback", "EXTRAS", "require_extra", "task_options", "make_options",
           "RUN_OPTIONS", "seconds", "jobs"]


def _converting(convert, empty=None):
    """A callback that gives what ``convert`` makes of an option's text (``empty`` when the
    option is not given); a usage error, naming the option, when it cannot."""
    def callback(value, command):
        if value is None:
            return empty
        try:
            return convert(value)
        except (ValueError, SatdokuError) as error:
            raise BadParameter(str(error)) from None
    return callback


def _parse_box(text: str) -> tuple[int, int]:
    from ..io.text import parse_box
    return parse_box(text)


def _symbols(text: str) -> str | None:
    from ..model.alphabet import Alphabet
    return Alphabet(text).symbols


#: --box: the shape (rows, columns); --alphabet: the symbols.
box_callback, alphabet_callback = _converting(_parse_box), _converting(_symbols)


def _sat_solver_for(task: str | None):
    """A --sat-solver callback: the canonical name(s), refused with the reason when the solver
    lacks what ``task`` needs (the ``NEEDS`` its module in :mod:`satdoku.tasks` declares,
    read only when the option is given: importing a task costs start-up time)."""
    def callback(value, command):
        if value is None or value == ():
            return value
        import importlib
        from ..model.result import Capabilities
        from ..sat.catalogue import check_for
        needs = (importlib.import_module(f"satdoku.tasks.{task}").NEEDS if task
                 else Capabilities.needs())

        def check(name: str) -> str | None:
            return check_for(name, needs, command)

        try:
            return tuple(map(check, value)) if isinstance(value, tuple) else check(value)
        except SatdokuError as error:
            raise BadParameter(error.message) from None
    return callback


def seconds(text: str) -> float | None:
    """A time limit: a finite number of seconds above 0."""
    from ..deadline import check_timeout
    try:
        return check_timeout(float(text))
    except (TypeError, ValueError):
        raise BadParameter(f"{text!r} is not a time limit (a number of seconds above 0)"
                           ) from None


def jobs(text: str) -> int:
    """Worker processes: 0 (every core) or more, at most the cores there are."""
    try:
        number = int(text)
    except (TypeError, ValueError):
        raise BadParameter(f"{text!r} is not a whole number") from None
    if number < 0:
        raise BadParameter("must be 0 (every core) or more")
    cores = os.cpu_count() or 1
    if number > cores:
        echo(f"--jobs {number if number < 10 ** 6 else 'N'}: this machine has {cores} "
             f"cores; using {cores}", err=True)
        number = cores
    return number


seconds.metavar, jobs.metavar = "SECONDS", "N"  # type: ignore[attr-defined]


#: The optional dependencies, by the option that needs them: (module, its name, the extra).
EXTRAS = {"--plot": ("matplotlib", "matplotlib", "plot"),
          "--scheduler": ("dask.distributed", "Dask", "dask"),
          "--estimate": ("pyapproxmc", "pyapproxmc", "approx")}


def require_extra(option: str) -> None:
    """The one rule for a missing optional dependency: a usage error (exit 2) before any
    puzzle is read, naming the extra to install."""
    import importlib
    module, name, extra = EXTRAS[option]
    try:
        importlib.import_module(module)
    except ImportError:
        raise UsageError(f"{option} needs {name}: pip install 'satdoku[{extra}]'") from None


# Shared options, each defined once.

def inputs_argument(f):
    return argument("inputs", nargs=-1, metavar="[PUZZLE|FILE|-]...", complete="file")(f)


def puzzle_options(f):
    """--box, --alphabet and --ignore-unknown: how to read puzzles (shape, symbols, imports).
    The command gets them as one ``reading`` (:class:`Reading`)."""
    @functools.wraps(f)
    def command(*args, box=None, alphabet=None, ignore_unknown=False, **kwargs):
        return f(*args, reading=Reading(box, alphabet, ignore_unknown), **kwargs)

    command = option("--ignore-unknown", is_flag=True,
                     help="Solve f-puzzles imports anyway when they hold what satdoku cannot "
                          "use (listed as warnings).")(command)
    command = option("--alphabet", metavar="SYMBOLS", callback=alphabet_callback,
                     help="Symbols for digits 1..N in order, e.g. 0123456789ABCDEF.")(command)
    command = option("--box", metavar="RxC", callback=box_callback,
                     help="Box shape, e.g. 2x3 (default: inferred from the cell count)."
                     )(command)
    return command


@record(frozen=True)
class Reading:
    """How a command reads its puzzles (:func:`puzzle_options`)."""

    box: tuple[int, int] | None = None
    alphabet: str | None = None
    ignore_unknown: bool = False

    def inputs(self, inputs) -> "Inputs":
        """The puzzles of the command line's inputs (:func:`satdoku.io.inputs.iter_inputs`)."""
        from ..io.inputs import iter_inputs
        return iter_inputs(inputs, box=self.box, alphabet=self.alphabet,
                           ignore_unknown=self.ignore_unknown)


def sat_solver_option(task: str | None = None, *, multiple: bool = False):
    """--sat-solver: a python-sat solver, or (where the task allows) exec:"COMMAND"; refused
    with the reason when it lacks what ``task`` (a module of :mod:`satdoku.tasks`) needs."""
    return option("--sat-solver", "sat_solvers" if multiple else "sat_solver",
                  multiple=multiple, callback=_sat_solver_for(task), metavar="NAME",
                  help="python-sat solver (default: see 'satdoku solvers'); solve, count and "
                       "bench also take exec:\"COMMAND\", a solver binary."
                       + (" Repeat to compare." if multiple else ""))


def encoding_option(f):
    """bench's --encoding: named CNF encodings to compare, comma-separated or repeated."""
    from ..tasks.options import encoding_names
    return option("--encoding", "encodings", multiple=True, metavar="NAME[,NAME...]",
                  help=f"CNF encodings ({', '.join(encoding_names())}); comma-separated or "
                       f"repeated (default: by grid size).")(f)


def timeout_option(f):
    """--timeout, as the tasks declare it (:class:`satdoku.tasks.options.TimeoutField`)."""
    from ..tasks.options import TimeoutField, specs
    (name, default, spec), = specs(TimeoutField)
    return _option(name, default, spec, None)(f)


def jobs_option(f):
    return option("--jobs", "-j", type=jobs, default=1, show_default=True,
                  help="Worker processes; 0 uses every core.")(f)


def output_options(formats: tuple[str, ...] = FORMATS, default: str = "pretty"):
    """--format, -o/--output and --force; with the pretty format, --color/--no-color, which
    the command gets as ``paint`` (:func:`paint`)."""
    def decorate(f):
        if "pretty" in formats:
            body = f

            @functools.wraps(body)
            def command(*args, color=None, **kwargs):
                return body(*args, paint=paint(kwargs.get("output"), color), **kwargs)

            f = option("--color/--no-color", default=None,
                       help="Givens bold, solved digits blue, marked cells on yellow in the "
                            "pretty format on a terminal (default: unless NO_COLOR is set)."
                       )(command)
        f = option("--force", is_flag=True, help="Overwrite the output file.")(f)
        f = option("-o", "--output", metavar="FILE", complete="file",
                   help="Write to FILE ('-': stdout), all at once when done; refuses to "
                        "overwrite without --force.")(f)
        f = option("--format", "fmt", type=choice(formats), default=default,
                   show_default=True, help="Output format.")(f)
        return f
    return decorate


def paint(output: str | None, chosen: bool | None) -> bool:
    """Whether the pretty format is painted: only on a terminal (escape codes never go into a
    file or a pipe); there by default unless NO_COLOR is set (no-color.org); --color and
    --no-color (``chosen``) decide over NO_COLOR."""
    if output not in (None, "-") or not sys.stdout.isatty():
        return False
    return chosen if chosen is not None else not os.environ.get("NO_COLOR")


def limit_option(default: int, minimum: int, maximum: int | None = None):
    """``--limit N``: solutions to look for, from ``minimum`` (its help says what 1 means
    only where 1 is allowed)."""
    one = " (1: find one)" if minimum <= 1 else ""
    return option("--limit", type=int_range(minimum, maximum), default=default,
                  show_default=True, metavar="N", help=f"Count solutions up to N{one}.")


def _option(name: str, default, spec, task: str | None):
    """The command line's option of one task option (see :mod:`satdoku.tasks.options`)."""
    flag = spec.flag or "--" + name.replace("_", "-")
    kwargs = {"help": spec.help, "metavar": spec.metavar}
    kind = spec.kind
    if kind == "flag":
        return option(flag, name, is_flag=True, default=default, help=spec.help)
    if kind == "seconds":
        kwargs["type"] = seconds
    elif kind == "whole":
        kwargs["type"] = int_range(spec.minimum, spec.maximum)
    elif kind == "choice":
        kwargs["type"] = choice(list(spec.choices()))
        kwargs.pop("metavar")
    elif kind == "sat_solver":
        kwargs["callback"] = _sat_solver_for(task)
    elif kind == "box":
        kwargs["callback"] = box_callback
    elif kind == "alphabet":
        kwargs["callback"] = alphabet_callback
    elif kind == "folder":
        kwargs["complete"] = "file"
    elif kind in ("rules", "puzzle"):
        from ..tasks.options import puzzle_of, rules_of
        kwargs["callback"] = _converting(rules_of, ()) if kind == "rules" else \
            _converting(puzzle_of)
        default = None
    return option(flag, name, default=default, **kwargs)


def task_options(options_class, task: str | None = None):
    """The command line's options of every option of ``options_class`` (its fields made by
    :func:`satdoku.tasks.options.option`), in declaration order; ``task`` names the module of
    :mod:`satdoku.tasks` whose ``NEEDS`` a --sat-solver is checked against."""
    from ..tasks.options import specs

    def decorate(f):
        for name, default, spec in reversed(specs(options_class)):
            f = _option(name, default, spec, task)(f)
        return f
    return decorate


def make_options(options_class, values: dict):
    """The options object from the command's values of its options (a usage error, exit 2,
    for a combination the options refuse)."""
    from ..tasks.options import specs
    names = {name for name, _, _ in specs(options_class)}
    try:
        return options_class(**{k: v for k, v in values.items() if k in names})
    except SatdokuError as error:
        raise UsageError(str(error)) from None


#: The command line's own options: where a batch is read from and runs, and how its answers
#: are written (the library returns one answer a call instead). Every other option of a
#: command is its library call's keyword too (tests/test_options.py).
RUN_OPTIONS = frozenset({"inputs", "jobs", "scheduler", "fmt", "output", "force", "color",
                         "step_number", "count"})
