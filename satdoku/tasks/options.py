"""Each option of a task, declared once: its name, default, check and help.

A task's options are a frozen dataclass (:class:`~satdoku.tasks.base.TaskOptions`) whose
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
a variant puzzle in a file or text), ``text``.

Adding an option to a command is two edits: its :func:`option` in the command's options
class, and its use in the task.
"""

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence, TypeVar

from ..budget import DEFAULT_MAX_CLAUSES
from ..errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from .base import Task

__all__ = ["TaskOptions", "Spec", "option", "specs", "make_options", "check_value",
           "SolverField", "ClausesField", "EncodingFields", "SatFields", "TimeoutField",
           "encoding_names", "amo_names", "rules_of", "puzzle_of", "ExplainOptions",
           "CandidatesOptions", "RateOptions", "SearchOptions", "SolveOptions", "CountOptions",
           "GenerateOptions", "EncodeOptions", "DecodeOptions", "search_options"]

T = TypeVar("T")


@dataclass(frozen=True)
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
    """A dataclass field holding an option (``default``, ``help``, the :class:`Spec`)."""
    return dataclasses.field(default=default,
                             metadata={"spec": Spec(help=help, kind=kind, **spec)})


def specs(cls: type) -> list[tuple[str, Any, Spec]]:
    """The options of an options class, in declaration order: (name, default, spec)."""
    return [(f.name, f.default, f.metadata["spec"]) for f in dataclasses.fields(cls)
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
    from ..io.inputs import iter_inputs
    for puzzle in iter_inputs([str(value)]):
        if puzzle.error is not None:
            raise puzzle.error
        if not puzzle.constraints:
            break
        return tuple(puzzle.constraints)
    raise OptionError(f"{value}: holds no rules")


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
    elif kind in ("text", "sat_solver") and not isinstance(value, str):
        raise OptionError(f"{name} is text, not {type(value).__name__}")
    return value


def _box(name: str, value: Any) -> tuple[int, int]:
    if not (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in value)):
        raise OptionError(f"{name} must be a pair of whole numbers like (2, 3), not {value!r}")
    return value[0], value[1]


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


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


class TaskOptions:
    """A task's options (a frozen dataclass: picklable, so that each worker makes its own task
    from them). Its fields are made by :func:`option`, which declares each option once for the
    library and the command line; every value is checked when the object is made
    (OptionError). :attr:`task` names the task's class (``module:Class`` in
    :mod:`satdoku.tasks`, imported only when a task is made: the command line need not pay
    for it); :meth:`make` builds it in the process that runs it."""

    #: The command these are the options of (for messages).
    command: ClassVar[str] = "this command"
    #: The task's class, ``module:Class`` in :mod:`satdoku.tasks`.
    task: ClassVar[str] = ""

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

    def task_class(self) -> type[Task]:
        import importlib
        module, name = self.task.split(":")
        task: type[Task] = getattr(importlib.import_module(f"satdoku.tasks.{module}"), name)
        return task

    def make(self) -> Task:
        return self.task_class()(self)  # type: ignore[call-arg]


@dataclass(frozen=True)
class SolverField:
    """Who solves the CNF (mixed into an options dataclass)."""

    sat_solver: str | None = option(
        None, "A python-sat solver (default: see 'satdoku solvers'); solve, count and bench "
              "also take exec:\"COMMAND\", a solver binary.", "sat_solver", metavar="NAME")


@dataclass(frozen=True)
class ClausesField:
    """The clause limit (mixed into an options dataclass)."""

    max_clauses: int = option(DEFAULT_MAX_CLAUSES, "Refuse formulas with more clauses, the "
                              "rules' included (default 10,000,000).", "whole", minimum=1,
                              metavar="N")

    @property
    def clause_limit(self) -> int:
        """The clause limit (the default where None was given)."""
        return DEFAULT_MAX_CLAUSES if self.max_clauses is None else self.max_clauses


@dataclass(frozen=True)
class EncodingFields:
    """Which CNF (mixed into an options dataclass)."""

    encoding: str | None = option(None, "CNF encoding (default: by grid size, see 'satdoku "
                                        "solvers').", "choice", choices=encoding_names)
    amo: str | None = option(None, "At-most-one encoding (default: pairwise; reduced: "
                                   "seqcounter for long lists).", "choice", choices=amo_names)


@dataclass(frozen=True)
class SatFields(ClausesField, EncodingFields, SolverField):
    """The SAT options most tasks share (mixed into their options dataclass): which CNF, and
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


@dataclass(frozen=True)
class TimeoutField:
    """The time limit every per-puzzle task takes (mixed into its options dataclass)."""

    timeout: float | None = option(None, "Limit for each puzzle, every stage (status "
                                         "timeout).", "seconds", metavar="SECONDS")


# The options of each command.

@dataclass(frozen=True)
class ExplainOptions(TimeoutField, SatFields, TaskOptions):
    """How to explain every puzzle of a stream (:mod:`satdoku.tasks.explain`)."""

    command: ClassVar[str] = "explain"
    ASKING: ClassVar[bool] = True

    redundant: bool = option(False, "For a unique puzzle, also say which givens and rules it "
                                    "could do without.", "flag")
    steps: bool = option(False, "For a unique puzzle (classic or variant), also the steps a "
                                "person could follow, each with the fewest facts that force "
                                "it; one step a line.", "flag")
    max_rules: int | None = option(None, "With --steps: a step combines at most N rules; "
                                         "where none does, the path guesses, and says where "
                                         "(default: any number).", "whole", minimum=0,
                                   metavar="N")
    fix: bool = option(False, "Several solutions: the givens that would make it unique, "
                              "ranked; none: which given or rule to remove.", "flag")
    fix_rules: tuple = option((), "With --fix: candidate rules (the rules of a variant puzzle "
                                  "in FILE), each tried added to the puzzle and ranked like "
                                  "the givens.", "rules", metavar="FILE")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.max_rules is not None and not self.steps:
            raise OptionError("--max-rules bounds the steps of --steps")
        if self.fix_rules and not self.fix:
            raise OptionError("--fix-rules gives the candidate rules of --fix")

    task: ClassVar[str] = "explain:ExplainTask"


@dataclass(frozen=True)
class CandidatesOptions(TimeoutField, ClausesField, SolverField, TaskOptions):
    """How to find the true candidates of every puzzle of a stream
    (:mod:`satdoku.tasks.candidates`; the extended encoding at every size)."""

    command: ClassVar[str] = "candidates"

    counts: int | None = option(None, "For each empty cell and digit, how many solutions put "
                                      "the digit there, up to N.", "whole", minimum=1,
                                metavar="N")

    @property
    def sat(self) -> Any:
        from ..sat.config import SatConfig
        return SatConfig(self.sat_solver, "extended", max_clauses=self.clause_limit)

    task: ClassVar[str] = "candidates:CandidatesTask"


@dataclass(frozen=True)
class RateOptions(TimeoutField, SatFields, TaskOptions):
    """How to rate every puzzle of a stream (:mod:`satdoku.tasks.rate`)."""

    command: ClassVar[str] = "rate"
    ASKING: ClassVar[bool] = True

    task: ClassVar[str] = "rate:Rater"


@dataclass(frozen=True)
class SearchOptions(TimeoutField, SatFields, TaskOptions):
    """What solve and count share (:class:`satdoku.tasks.solvers.SolveTask` runs both):
    ``racers`` K >= 1 races K SAT configurations on each puzzle (set by
    :func:`satdoku.tasks.solvers.racing` from ``portfolio`` and the cores)."""

    solver: str = option("sat", "SAT through python-sat, or native search.", "choice",
                         choices=lambda: ("sat", "native"))
    portfolio: bool = option(False, "Race SAT configurations on each puzzle, one a core "
                                    "(--jobs of them); on by itself for a single puzzle with "
                                    "--jobs other than 1.", "flag")
    stats: bool = option(False, "Add each stage's time and solver figures.", "flag")
    racers: int = option(0, "Configurations raced on each puzzle.", "whole", hidden=True)

    check: ClassVar[bool] = False
    fresh: ClassVar[bool] = False

    @property
    def most(self) -> int:
        """How many solutions to look for: 1 solves, 2 or more counts up to it."""
        return 1

    @property
    def incremental(self) -> bool:
        return not self.fresh

    task: ClassVar[str] = "solvers:SolveTask"


@dataclass(frozen=True)
class SolveOptions(SearchOptions):
    """How ``solve`` solves every puzzle of a batch (picklable: workers rebuild the solvers)."""

    command: ClassVar[str] = "solve"

    unique: bool = option(False, "Also prove each solution unique (or show two).", "flag")
    check: bool = option(False, "Run SAT and native search; exit 3 if they disagree.",  # type: ignore[misc]
                         "flag")
    fresh: bool = option(False, "A new SAT solver for every puzzle (slow: shows what "  # type: ignore[misc]
                                "incremental solving buys).", "flag")

    @property
    def most(self) -> int:
        return 2 if self.unique else 1


@dataclass(frozen=True)
class CountOptions(SearchOptions):
    """How ``count`` counts the solutions of every puzzle of a batch: up to ``limit`` (2 when
    None), or writes them all (``all``, at most ``limit`` when given: :class:`AllTask`), or
    estimates how many (``estimate``: :class:`~satdoku.tasks.enumerate.EstimateTask`)."""

    command: ClassVar[str] = "count"

    limit: int | None = option(None, "Count solutions up to N (default 2); with --all, write "  # type: ignore[misc]
                                     "at most N.", "whole", minimum=2, metavar="N")
    all: bool = option(False, "Write every solution (JSON Lines; --format line: grids) as it "
                              "is found, up to --limit when given; each puzzle's tally on "
                              "stderr.", "flag")
    estimate: bool = option(False, "An approximate count with error bounds, for spaces too "
                                   "big to count (ApproxMC: satdoku[approx]).", "flag")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.all and self.estimate:
            raise OptionError("--all and --estimate do not go together")
        given = {"portfolio": self.portfolio, "stats": self.stats,
                 "solver": self.solver != "sat"}
        if self.estimate:
            given.update(limit=self.limit is not None, encoding=self.encoding is not None,
                         amo=self.amo is not None)
        refused = sorted(name for name, on in given.items() if on)
        if (self.all or self.estimate) and refused:
            names = ", ".join(f"--{name}" for name in refused)
            raise OptionError(f"{'--all' if self.all else '--estimate'} does not take {names}")

    @property
    def most(self) -> int:
        return 2 if self.limit is None else self.limit

    def task_class(self) -> type[Task]:
        import importlib
        module = importlib.import_module("satdoku.tasks.enumerate"
                                         if self.all or self.estimate else "satdoku.tasks.solvers")
        task: type[Task] = getattr(module, "AllTask" if self.all else
                                   "EstimateTask" if self.estimate else "SolveTask")
        return task


def _symmetries() -> tuple[str, ...]:
    return ("none", "rotate180", "rotate90", "mirror")


def _labels() -> list[str]:
    from ..model.difficulty import LABELS
    return [name for _, name in LABELS]


@dataclass(frozen=True)
class GenerateOptions(TimeoutField, SatFields, TaskOptions):
    """How ``generate`` makes puzzles with exactly one solution
    (:class:`satdoku.tasks.generate.Generator`)."""

    command: ClassVar[str] = "generate"
    ASKING: ClassVar[bool] = True
    task: ClassVar[str] = "generate:Generator"

    box: tuple[int, int] | None = option(None, "Box shape: 2x2, 2x3, 3x3 (the default), 4x4, "
                                               "5x5, ...", "box", metavar="RxC")
    seed: int | None = option(None, "The same seed gives the same puzzles (default: a random "
                                    "seed, shown on stderr).", "whole", minimum=0)
    symmetry: str = option("none", "Symmetry of the pattern of givens.", "choice",
                           choices=_symmetries)
    minimal: bool = option(False, "Only puzzles proven minimal: no given can go without "
                                  "losing uniqueness.", "flag")
    max_clues: int | None = option(None, "Only puzzles with at most M givens.", "whole",
                                   minimum=0, metavar="M")
    attempts: int = option(1000, "Complete grids to try per puzzle before giving up.", "whole",
                           minimum=1)
    difficulty: str | None = option(None, "Only puzzles that 'satdoku rate' labels so.",
                                    "choice", choices=_labels)
    alphabet: str | None = option(None, "Symbols for digits 1..N in order.", "alphabet",
                                  metavar="SYMBOLS")
    rules: Any = option(None, "A variant puzzle (satdoku JSON, an f-puzzles file...) whose "
                              "grid and rules every puzzle keeps; its givens stay too. With "
                              "--format line each puzzle is a satdoku JSON line.", "puzzle",
                        metavar="FILE")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.rules is not None and self.box is not None:
            raise OptionError("--rules gives the grid; drop --box")
        if self.alphabet is not None:
            from ..model.alphabet import check_alphabet
            check_alphabet(self.alphabet, self.geometry.size)

    def make(self, seed: int | None = None) -> Any:  # type: ignore[override]
        """The :class:`~satdoku.tasks.generate.Generator` of these options (``seed`` in place
        of theirs)."""
        generator: Any = self.task_class()
        return generator.of(self, self.seed if seed is None else seed)

    @property
    def geometry(self) -> Any:
        """The grid's shape: the rules puzzle's, or the box's."""
        if self.rules is not None:
            return self.rules.grid.geometry
        from ..model.geometry import geometry
        return geometry(*(self.box or (3, 3)))


@dataclass(frozen=True)
class EncodeOptions(ClausesField, EncodingFields, TaskOptions):
    """How ``encode`` writes a puzzle as CNF (:meth:`formula`)."""

    command: ClassVar[str] = "encode"

    clues: str = option("units", "Full encodings: givens as unit clauses, or left out (for "
                                 "assumptions).", "choice", choices=lambda: ("units", "none"))
    index: int = option(1, "Which puzzle of a file to encode.", "whole", minimum=1)

    def formula(self, puzzle: Any) -> Any:
        """The formula of ``puzzle`` (a :class:`~satdoku.model.puzzle.Puzzle`) and its rules:
        the encoding named, else the one solving would choose for its size."""
        from ..cnf.formula import encode
        from ..cnf.policy import choose_encoding
        grid = puzzle.grid
        return encode(grid, self.encoding or choose_encoding(grid.size), self.amo, self.clues,
                      constraints=puzzle.constraints, max_clauses=self.clause_limit)


@dataclass(frozen=True)
class DecodeOptions(EncodingFields, TaskOptions):
    """How ``decode`` reads a SAT solver's model back for the puzzle it was made from."""

    command: ClassVar[str] = "decode"

    index: int = option(1, "Which puzzle of the --puzzle file.", "whole", minimum=1)


def search_options(limit: int = 1, **given: Any) -> SearchOptions:
    """The options of solve (``limit`` 1) or count (``limit`` 2 or more, up to it)."""
    if limit > 1:
        return CountOptions(limit=limit, **given)
    return SolveOptions(**given)
