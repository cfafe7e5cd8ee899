"""The options of explain, candidates, rate, generate, encode and decode (see
:mod:`satdoku.tasks.commands`, where these names are also found): kept apart so that a solve
or a count does not build their records when it starts (docs/performance.md, start-up).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import OptionError
from ..records import record, replace
from .options import (SLOW_CHUNK_LINES, ClausesField, EncodingFields, SatFields, SolverField,
                      TaskOptions, TimeoutField, option)

__all__ = ["ExplainOptions", "CandidatesOptions", "RateOptions", "GenerateOptions",
           "EncodeOptions", "DecodeOptions"]


@record(frozen=True)
class ExplainOptions(TimeoutField, SatFields, TaskOptions):
    """How to explain every puzzle of a stream (:mod:`satdoku.tasks.explain`)."""

    command: ClassVar[str] = "explain"
    CHUNK_LINES: ClassVar[int | None] = SLOW_CHUNK_LINES
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


@record(frozen=True)
class CandidatesOptions(TimeoutField, ClausesField, SolverField, TaskOptions):
    """How to find the true candidates of every puzzle of a stream
    (:mod:`satdoku.tasks.candidates`; the extended encoding at every size)."""

    command: ClassVar[str] = "candidates"
    CHUNK_LINES: ClassVar[int | None] = SLOW_CHUNK_LINES

    counts: int | None = option(None, "For each empty cell and digit, how many solutions put "
                                      "the digit there, up to N.", "whole", minimum=1,
                                metavar="N")

    @property
    def sat(self) -> Any:
        from ..sat.config import SatConfig
        return SatConfig(self.sat_solver, "extended", max_clauses=self.clause_limit)

    task: ClassVar[str] = "candidates:CandidatesTask"


@record(frozen=True)
class RateOptions(TimeoutField, SatFields, TaskOptions):
    """How to rate every puzzle of a stream (:mod:`satdoku.tasks.rate`)."""

    command: ClassVar[str] = "rate"
    CHUNK_LINES: ClassVar[int | None] = SLOW_CHUNK_LINES
    ASKING: ClassVar[bool] = True

    task: ClassVar[str] = "rate:Rater"

    checks: bool = option(False, "For a unique puzzle, also the publishing checks a setter "
                                 "looks at: the break-in, a difficulty spike, steps by label, "
                                 "rules no step uses, givens and rules that could go.", "flag")


def _symmetries() -> tuple[str, ...]:
    return ("none", "rotate180", "rotate90", "mirror")


def _labels() -> list[str]:
    from ..model.difficulty import LABELS
    return [name for _, name in LABELS]


@record(frozen=True)
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


@record(frozen=True)
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
        from ..cnf.reduced import ReducedFormula
        from ..io.text import format_grid
        first = puzzles[0]
        if len(puzzles) > 1 and any(p.constraints or p.grid.geometry != first.grid.geometry
                                    for p in puzzles):
            raise OptionError("one ICNF holds one formula: its puzzles must share a grid "
                              "shape and have no rules (-o DIR/ writes one file a puzzle)")
        formula = replace(self, clues="none").formula(first)
        if isinstance(formula, ReducedFormula):
            raise OptionError("ICNF gives the givens as assumptions, which the reduced "
                              "encoding folds away: name a full one (--encoding extended)")
        lines = [f"assumptions: the givens, one 'a' line per puzzle ({len(puzzles)}), in "
                 f"order:"]
        lines += [f"a-line {i}: {p.source}:{p.line}: {format_grid(p.grid, 'line', p.alphabet)}"
                  for i, p in enumerate(puzzles, 1)]
        return formula, [formula.varmap.clue_literals(p.grid) for p in puzzles], lines


@record(frozen=True)
class DecodeOptions(EncodingFields, TaskOptions):
    """How ``decode`` reads a SAT solver's model back for the puzzle it was made from."""

    command: ClassVar[str] = "decode"

    index: int = option(1, "Which puzzle of the --puzzle file.", "whole", minimum=1)
    proof: str | None = option(None, "An UNSAT answer's DRAT proof, from the solver: checked "
                                     "against the puzzle's formula by satdoku (and "
                                     "drat-trim when on PATH); status unsolvable, or error.",
                               "text", metavar="FILE")
