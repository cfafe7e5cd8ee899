"""Each option of a task, declared once: its name, default, check and help.

A task's options are a frozen record (:class:`~satdoku.tasks.base.TaskOptions`) whose
fields are made by :func:`option`; the field's metadata (a :class:`Spec`) says what kind of
value it takes and what ``--help`` says of it. The library's call builds the options from its
keywords (:func:`make_options`: an unknown keyword or a bad value is an
:class:`~satdoku.errors.OptionError`, with a suggestion for a misspelt name) and the command
line builds the very same object from its options, which :mod:`satdoku.cli.options` makes
from these specs; so ``satdoku.explain(puzzle, max_rules=2)`` and ``satdoku explain
--max-rules 2`` cannot drift (``tests/test_options.py`` compares every command with its
library call).

The kinds: ``flag`` (a switch), ``seconds`` (a time limit above 0), ``whole`` (an int from
``minimum`` to ``maximum``), ``choice`` (one of ``choices()``), ``sat_solver`` (a SAT solver's
name, checked against what the task needs), ``box`` (rows x columns), ``rules`` (the rules of
a variant puzzle in a file or text), ``folder`` (a folder files are written into, made when
missing and refused when it holds files the option's writer would write:
:func:`check_folder`), ``text``.

The commands' options classes are in :mod:`satdoku.tasks.commands`. Adding an option to a
command is two edits: its :func:`option` in the command's options class, and its use in the
task.
"""

from __future__ import annotations

from ..budget import DEFAULT_MAX_CLAUSES
from ..errors import OptionError
from ..records import field, fields, record

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Callable, ClassVar, Sequence, TypeVar
    from .base import Task

__all__ = ["TaskOptions", "SLOW_CHUNK_LINES", "Spec", "option", "specs", "make_options",
           "check_value", "SolverField", "ClausesField", "EncodingFields", "SatFields",
           "TimeoutField", "encoding_names", "amo_names", "rules_of", "puzzle_of", "check_folder"]

if TYPE_CHECKING:
    T = TypeVar("T")


@record(frozen=True)
class Spec:
    """What an option takes and says (see the module docstring for the kinds). ``flag`` is
    the command line's name when it is not the field's (``--fresh`` for ``fresh``);
    ``hidden`` options are internal (set by satdoku, never by a user)."""

    help: str
    kind: str = "text"
    metavar: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    choices: Callable[[], Sequence[str]] | None = None
    flag: str | None = None
    hidden: bool = False


def option(default: Any, help: str, kind: str = "text", **spec: Any) -> Any:
    """A record field holding an option (``default``, ``help``, the :class:`Spec`)."""
    return field(default=default,
                             metadata={"spec": Spec(help=help, kind=kind, **spec)})


def specs(cls: type) -> list[tuple[str, Any, Spec]]:
    """The options of an options class, in declaration order: (name, default, spec)."""
    return [(f.name, f.default, f.metadata["spec"]) for f in fields(cls)
            if "spec" in f.metadata and not f.metadata["spec"].hidden]


def encoding_names() -> list[str]:
    from ..cnf.encodings import ENCODINGS
    return list(ENCODINGS)


def amo_names() -> list[str]:
    from ..cnf.encodings import AMO_ENCODINGS
    return list(AMO_ENCODINGS)


def rules_of(value: Any) -> tuple:
    """The rules of ``value``: a tuple of rules as it is, or a file or text holding a variant
    puzzle (its rules; OptionError when it holds none)."""
    if isinstance(value, tuple):
        return value
    puzzle = puzzle_of(value)  # one puzzle: a file of several is refused, never cut short
    if not puzzle.constraints:
        raise OptionError(f"{value}: holds no rules")
    return tuple(puzzle.constraints)


def puzzle_of(value: Any) -> Any:
    """The one puzzle in ``value`` (a :class:`~satdoku.model.puzzle.Puzzle` as it is, or a
    file or text holding exactly one); PuzzleError or OptionError when it holds none or
    several."""
    from ..model.puzzle import Puzzle
    if isinstance(value, Puzzle):
        return value
    from ..io.inputs import iter_inputs
    found = []
    for puzzle in iter_inputs([str(value)]):
        if puzzle.error is not None:
            raise puzzle.error
        found.append(puzzle)
        if len(found) > 1:
            raise OptionError(f"{value}: holds more than one puzzle; give a file of one")
    if not found:
        raise OptionError(f"{value}: holds no puzzle")
    return found[0]


def check_value(name: str, value: Any, spec: Spec, task: str = "this command") -> Any:
    """``value`` of option ``name`` as the option takes it, else OptionError."""
    if value is None and spec.kind not in ("flag",):
        return None
    kind = spec.kind
    if kind == "flag":
        if not isinstance(value, bool):
            raise OptionError(f"{name} is True or False, not {value!r}")
    elif kind == "seconds":
        from ..deadline import check_timeout
        try:
            value = check_timeout(value)
        except ValueError as error:
            raise OptionError(f"{name}: {error}") from None
    elif kind == "whole":
        low = spec.minimum if spec.minimum is not None else 0
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (
                spec.maximum is not None and value > spec.maximum):
            top = f" and at most {spec.maximum}" if spec.maximum is not None else ""
            raise OptionError(f"{name} must be a whole number of at least {low}{top}, "
                              f"not {value!r}")
    elif kind == "choice":
        choices = list(spec.choices() if spec.choices else ())
        if value not in choices:
            raise OptionError(f"{name} must be one of {', '.join(choices)}, not {value!r}"
                              + _did_you_mean(str(value), choices))
    elif kind == "box":
        value = _box(name, value)
    elif kind == "alphabet":
        from ..model.alphabet import Alphabet
        try:
            value = Alphabet(value).symbols
        except ValueError as error:
            raise OptionError(str(error)) from None
    elif kind == "rules":
        value = rules_of(value)
    elif kind == "puzzle":
        value = puzzle_of(value)
    elif kind == "folder":
        value = check_folder(name, value)
    elif kind in ("text", "sat_solver") and not isinstance(value, str):
        raise OptionError(f"{name} is text, not {type(value).__name__}")
    return value


def check_folder(name: str, value: Any) -> str:
    """The folder ``value`` names for the files of option ``name`` (so far only ``proof``:
    DRAT proofs and their CNF), made when missing; OptionError when it cannot be made or
    already holds such files (none is ever overwritten, and which names a stream will
    write is known only as it goes)."""
    import os
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise OptionError(f"{name} is a folder, not {value!r}")
    folder = os.fspath(value)
    from ..sat.proofs import proof_files_in
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise OptionError(f"{folder}: cannot make the folder: "
                          f"{error.strerror or error}") from None
    taken = proof_files_in(folder)
    if taken:
        raise OptionError(f"{folder} holds proof files already ({', '.join(taken)}); "
                          f"give an empty folder: satdoku does not overwrite them")
    return str(folder)


def _box(name: str, value: Any) -> tuple[int, int]:
    if not (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in value)):
        raise OptionError(f"{name} must be a pair of whole numbers like (2, 3), not {value!r}")
    return value[0], value[1]


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    from ..errors import closest
    close = closest(word, choices)
    return f"; did you mean {close!r}?" if close else ""


def make_options(cls: type[T], command: str, given: dict[str, Any]) -> T:
    """The options object of ``command`` from the keywords ``given`` (the library's calls);
    OptionError for a name the command does not take or a value the option does not."""
    names = {name: spec for name, _, spec in specs(cls)}
    for key in given:
        if key not in names:
            raise OptionError(f"{command} takes no option {key!r}"
                              + (_did_you_mean(key, list(names)) or
                                 f"; it takes {', '.join(names)}"))
    return cls(**given)


#: The lines a worker gets at a time for a task that takes milliseconds a puzzle (explain,
#: candidates, rate): the first results show in a fraction of a second and the workers'
#: loads even out. ``rate`` of the first 2,000 17-clue puzzles with ``--jobs 2``, against
#: the default 256 lines: first line 0.41 s against 3.1 s, wall 12.1-12.6 s against
#: 12.8-13.4, CPU 24.0-25.0 s against 25.1-25.9 (2026-11-29, two rounds).
SLOW_CHUNK_LINES = 32


class TaskOptions:
    """A task's options (a frozen record: picklable, so that each worker makes its own task
    from them). Its fields are made by :func:`option`, which declares each option once for the
    library and the command line; every value is checked when the object is made
    (OptionError). :attr:`task` names the task's class (``module:Class`` in
    :mod:`satdoku.tasks`, imported only when a task is made: the command line need not pay
    for it); :meth:`make` builds it in the process that runs it."""

    #: The command these are the options of (for messages).
    command: ClassVar[str] = "this command"
    #: The task's class, ``module:Class`` in :mod:`satdoku.tasks`.
    task: ClassVar[str] = ""
    #: :attr:`chunk_lines` of a task (None: the stream's default).
    CHUNK_LINES: ClassVar[int | None] = None

    def __post_init__(self) -> None:
        for name, _, spec in specs(type(self)):
            value = getattr(self, name)
            checked = check_value(name, value, spec, self.command)
            if checked is not value:
                object.__setattr__(self, name, checked)
        sat_solver = getattr(self, "sat_solver", None)
        if getattr(self, "timeout", None) is not None and sat_solver is not None \
                and not getattr(self, "portfolio", False):
            from ..sat.catalogue import capabilities_of
            if not capabilities_of(sat_solver).time_limit:  # a portfolio kills at the limit
                raise OptionError(f"{sat_solver} cannot stop at a time limit; drop --timeout "
                                  f"or choose another --sat-solver")

    @property
    def chunk_lines(self) -> int | None:
        """The most input lines a worker process should get at a time (None: the stream's
        default): a task that works on big batches asks for more, one that takes
        milliseconds a puzzle for fewer (:data:`SLOW_CHUNK_LINES`)."""
        return self.CHUNK_LINES

    def task_class(self) -> type[Task]:
        import importlib
        module, name = self.task.split(":")
        task: type[Task] = getattr(importlib.import_module(f"satdoku.tasks.{module}"), name)
        return task

    def make(self) -> Task:
        # Task declares no __init__ (Convert is made from its own arguments); every task an
        # options class names is made from those options.
        return self.task_class()(self)  # type: ignore[call-arg]


# The field mixins below are frozen like the options records they are mixed into, which get
# their own __init__, __repr__, __eq__ and __hash__ over every field: the mixins' own would
# never be called. The decorator is written out on each, as mypy reads it.


@record(frozen=True, init=False, repr=False, eq=False)
class SolverField:
    """Who solves the CNF (mixed into an options record)."""

    sat_solver: str | None = option(
        None, "A python-sat solver (default: see 'satdoku solvers'); solve, count and bench "
              "also take exec:\"COMMAND\", a solver binary.", "sat_solver", metavar="NAME")


@record(frozen=True, init=False, repr=False, eq=False)
class ClausesField:
    """The clause limit (mixed into an options record)."""

    max_clauses: int | None = option(DEFAULT_MAX_CLAUSES, "Refuse formulas with more clauses, "
                                     "the rules' included (default 10,000,000).", "whole",
                                     minimum=1, metavar="N")

    @property
    def clause_limit(self) -> int:
        """The clause limit (the default where None was given)."""
        return DEFAULT_MAX_CLAUSES if self.max_clauses is None else self.max_clauses


@record(frozen=True, init=False, repr=False, eq=False)
class EncodingFields:
    """Which CNF (mixed into an options record)."""

    encoding: str | None = option(None, "CNF encoding (default: by grid size, see 'satdoku "
                                        "solvers').", "choice", choices=encoding_names)
    amo: str | None = option(None, "At-most-one encoding (default: pairwise; reduced: "
                                   "seqcounter for long lists).", "choice", choices=amo_names)


@record(frozen=True, init=False, repr=False, eq=False)
class SatFields(ClausesField, EncodingFields, SolverField):
    """The SAT options most tasks share (mixed into their options record): which CNF, and
    who solves it. :attr:`sat` is the :class:`~satdoku.sat.config.SatConfig` they make."""

    #: Whether ``encoding=None`` means reduced from the larger size explain, rate and generate
    #: use (:data:`satdoku.cnf.policy.LARGE_MIN_SIZE`) rather than the solving one.
    ASKING: ClassVar[bool] = False

    @property
    def sat(self) -> Any:
        from ..sat.config import SatConfig
        reduced_from = None
        if self.ASKING:
            from ..cnf.policy import LARGE_MIN_SIZE
            reduced_from = LARGE_MIN_SIZE
        return SatConfig(self.sat_solver, self.encoding, self.amo, self.clause_limit,
                         reduced_from)


@record(frozen=True, init=False, repr=False, eq=False)
class TimeoutField:
    """The time limit every per-puzzle task takes (mixed into its options record)."""

    timeout: float | None = option(None, "Limit for each puzzle, every stage (status "
                                         "timeout).", "seconds", metavar="SECONDS")
