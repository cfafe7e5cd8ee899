"""The options of each command, each a frozen record of :mod:`satdoku.tasks.options`
fields: what ``satdoku COMMAND --help`` lists and what ``satdoku.COMMAND(puzzle, **options)``
takes (``tests/test_options.py`` holds the two to each other).
"""

from __future__ import annotations

from ..errors import OptionError
from ..records import record
from .options import SatFields, TaskOptions, TimeoutField, option

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, ClassVar
    from .base import Task

__all__ = ["SETTLE_BATCH", "ExplainOptions", "CandidatesOptions", "RateOptions",
           "SearchOptions", "SolveOptions", "CountOptions", "GenerateOptions", "EncodeOptions",
           "DecodeOptions", "search_options", "SOLVER_NAMES", "CUBE_ON"]

#: Puzzles a batch pre-solves by propagation at a time (:meth:`SolveTask.run_many`): a pass
#: costs less a puzzle the more puzzles it holds (docs/tuning.md).
SETTLE_BATCH = 4096


#: The names of :data:`satdoku.tasks.solvers.SOLVERS`, here so the command line's choices need
#: not import the solvers; the compiled search baselines (:mod:`satdoku.native.baselines`)
#: last.
BASELINE_NAMES = ("exact-cover", "cp-sat")
SOLVER_NAMES = ("sat", "native") + BASELINE_NAMES

#: What cube-and-conquer splits on, the default first (:data:`satdoku.sat.splits.CUBE_ON`),
#: here for the same reason.
CUBE_ON = ("lookahead", "cells")


# only its two subclasses are made, and write their own methods (see tasks.options)
@record(frozen=True, init=False, repr=False, eq=False)
class SearchOptions(TimeoutField, SatFields, TaskOptions):
    """What solve and count share (:class:`satdoku.tasks.solvers.SolveTask` runs both):
    ``racers`` K >= 1 races K SAT configurations on each puzzle, or with ``cube`` conquers
    its cubes on K workers (set by :func:`satdoku.tasks.solvers.racing` from ``portfolio``,
    ``cube`` and the cores)."""

    solver: str = option("sat", "SAT through python-sat, native search, or a compiled search "
                                "baseline (exact-cover, cp-sat: satdoku[baselines]).", "choice",
                         choices=lambda: SOLVER_NAMES)
    portfolio: bool = option(False, "Race SAT configurations on each puzzle, one a core "
                                    "(--jobs of them); on by itself for a single puzzle with "
                                    "--jobs other than 1.", "flag")
    cube: int = option(0, "Cube-and-conquer each puzzle: split it into cubes (on D literals "
                          "or D cells: --cube-on), conquered on --jobs workers (0: off); "
                          "--stats adds the cubes' figures.", "whole", maximum=16, metavar="D")
    cube_on: str = option(CUBE_ON[0], "What --cube splits on: lookahead (the literals whose "
                                      "two sides propagate most, D of them at most) or cells "
                                      "(every digit of D cells, those of the puzzle's smallest "
                                      "rules first, then those with fewest candidates).",
                          "choice", choices=lambda: CUBE_ON)
    stats: bool = option(False, "Add each stage's time and solver figures.", "flag")
    proof: str | None = option(None, "Back each 'unsolvable' and 'unique' answer with a DRAT "
                                     "proof checked by satdoku and drat-trim/lrat-check when "
                                     "on PATH: DIR/NAME.cnf, .drat (.lrat), NAME the input "
                                     "and line; a proof that fails makes status error.",
                               "folder", metavar="DIR")
    racers: int = option(0, "Processes on each puzzle: configurations raced, or with cube "
                            "workers conquering its cubes.", "whole", hidden=True)

    check: ClassVar[bool] = False
    fresh: ClassVar[bool] = False

    def __post_init__(self) -> None:
        super().__post_init__()
        self.refuse()
        if self.solver in BASELINE_NAMES:  # a missing extra is the options' error (exit 2)
            from ..native.baselines import missing
            problem = missing(self.solver)
            if problem:
                raise OptionError(problem)
        if self.cube_on != CUBE_ON[0] and not self.cube:
            raise OptionError(f"--cube-on {self.cube_on} says what --cube splits on: give "
                              f"--cube D too")

    def refuse(self) -> None:
        """OptionError for options this command does not take together (before the others'
        checks, so that the first error names what to drop)."""

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


@record(frozen=True)
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


@record(frozen=True)
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

    def refuse(self) -> None:
        if self.all and self.estimate:
            raise OptionError("--all and --estimate do not go together")
        given = {"portfolio": self.portfolio, "stats": self.stats, "cube": bool(self.cube),
                 "cube-on": self.cube_on != CUBE_ON[0],
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


#: The other commands' options, from :mod:`satdoku.tasks.other_commands` when first asked for.
_ELSEWHERE = ("ExplainOptions", "CandidatesOptions", "RateOptions", "GenerateOptions",
              "EncodeOptions", "DecodeOptions")


def __getattr__(name: str) -> Any:
    if name in _ELSEWHERE:
        from . import other_commands
        return getattr(other_commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def search_options(limit: int = 1, **given: Any) -> SearchOptions:
    """The options of solve (``limit`` 1) or count (``limit`` 2 or more, up to it)."""
    if limit > 1:
        return CountOptions(limit=limit, **given)
    return SolveOptions(**given)
