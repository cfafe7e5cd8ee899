"""The options of each command, each a frozen dataclass of :mod:`satdoku.tasks.options`
fields: what ``satdoku COMMAND --help`` lists and what ``satdoku.COMMAND(puzzle, **options)``
takes (``tests/test_options.py`` holds the two to each other).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import OptionError
from .options import (ClausesField, EncodingFields, SatFields, SolverField, TaskOptions,
                      TimeoutField, option)

if TYPE_CHECKING:  # pragma: no cover
    from .base import Task

__all__ = ["SETTLE_BATCH", "ExplainOptions", "CandidatesOptions", "RateOptions",
           "SearchOptions", "SolveOptions", "CountOptions", "GenerateOptions", "EncodeOptions",
           "DecodeOptions", "search_options", "SOLVER_NAMES"]

#: Puzzles a batch pre-solves by propagation at a time (:meth:`SolveTask.run_many`): a pass
#: costs less a puzzle the more puzzles it holds (docs/tuning.md).
SETTLE_BATCH = 4096


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

    checks: bool = option(False, "For a unique puzzle, also the publishing checks a setter "
                                 "looks at: the break-in, a difficulty spike, steps by label, "
                                 "rules no step uses, givens and rules that could go.", "flag")


#: The names of :data:`satdoku.tasks.solvers.SOLVERS`, here so the command line's choices need
#: not import the solvers.
SOLVER_NAMES = ("sat", "native", "exact-cover", "cp-sat")


@dataclass(frozen=True)
class SearchOptions(TimeoutField, SatFields, TaskOptions):
    """What solve and count share (:class:`satdoku.tasks.solvers.SolveTask` runs both):
    ``racers`` K >= 1 races K SAT configurations on each puzzle (set by
    :func:`satdoku.tasks.solvers.racing` from ``portfolio`` and the cores)."""

    solver: str = option("sat", "SAT through python-sat, native search, or a compiled search "
                                "baseline (exact-cover, cp-sat: satdoku[baselines]).", "choice",
                         choices=lambda: SOLVER_NAMES)
    portfolio: bool = option(False, "Race SAT configurations on each puzzle, one a core "
                                    "(--jobs of them); on by itself for a single puzzle with "
                                    "--jobs other than 1.", "flag")
    stats: bool = option(False, "Add each stage's time and solver figures.", "flag")
    proof: str | None = option(None, "Back each 'unsolvable' and 'unique' answer with a DRAT "
                                     "proof checked by satdoku and drat-trim/lrat-check when "
                                     "on PATH: DIR/NAME.cnf, .drat (.lrat), NAME the input "
                                     "and line; a proof that fails makes status error.",
                               "folder", metavar="DIR")
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

    @property
    def chunk_lines(self) -> int | None:
        """Whole batches of :data:`SETTLE_BATCH` lines where the batch pass can run (the SAT
        solver kept for the stream, no time limit, no check, no race): a worker's pass over a
        small chunk costs far more a puzzle (docs/tuning.md)."""
        if self.solver == "sat" and self.incremental and not (self.check or self.racers or
                                                              self.timeout):
            return SETTLE_BATCH
        return None

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
                 "solver": self.solver != "sat", "proof": self.proof is not None}
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

    def incremental(self, puzzles: list) -> tuple[Any, list[list[int]], list[str]]:
        """The ICNF of ``puzzles`` (one, or several of one shape without rules): the formula
        of the first without its givens, each one's givens as a cube of assumptions, and
        comment lines naming them in order. OptionError for what one formula cannot hold."""
        import dataclasses
        from ..cnf.reduced import ReducedFormula
        from ..io.text import format_grid
        first = puzzles[0]
        if len(puzzles) > 1 and any(p.constraints or p.grid.geometry != first.grid.geometry
                                    for p in puzzles):
            raise OptionError("one ICNF holds one formula: its puzzles must share a grid "
                              "shape and have no rules (-o DIR/ writes one file a puzzle)")
        formula = dataclasses.replace(self, clues="none").formula(first)
        if isinstance(formula, ReducedFormula):
            raise OptionError("ICNF gives the givens as assumptions, which the reduced "
                              "encoding folds away: name a full one (--encoding extended)")
        lines = [f"assumptions: the givens, one 'a' line per puzzle ({len(puzzles)}), in "
                 f"order:"]
        lines += [f"a-line {i}: {p.source}:{p.line}: {format_grid(p.grid, 'line', p.alphabet)}"
                  for i, p in enumerate(puzzles, 1)]
        return formula, [formula.varmap.clue_literals(p.grid) for p in puzzles], lines


@dataclass(frozen=True)
class DecodeOptions(EncodingFields, TaskOptions):
    """How ``decode`` reads a SAT solver's model back for the puzzle it was made from."""

    command: ClassVar[str] = "decode"

    index: int = option(1, "Which puzzle of the --puzzle file.", "whole", minimum=1)
    proof: str | None = option(None, "An UNSAT answer's DRAT proof, from the solver: checked "
                                     "against the puzzle's formula by satdoku (and "
                                     "drat-trim when on PATH); status unsolvable, or error.",
                               "text", metavar="FILE")


def search_options(limit: int = 1, **given: Any) -> SearchOptions:
    """The options of solve (``limit`` 1) or count (``limit`` 2 or more, up to it)."""
    if limit > 1:
        return CountOptions(limit=limit, **given)
    return SolveOptions(**given)
