# mypy: disallow-any-expr
"""A user of the library, type-checked by tests/test_typing.py: every call's result has a
precise type (no expression here may be Any), and the keywords are the documented ones."""

import satdoku
from satdoku.cnf.formula import Formula
from satdoku.cnf.reduced import ReducedFormula
from satdoku.model.grid import Grid

TEXT = "1.3..4.2.34.4.23"

status: str = satdoku.solve(TEXT, timeout=5.0).status
DOCUMENT: dict[str, object] = {"size": 4, "givens": {"r1c1": 1}}

counted: int | None = satdoku.count(DOCUMENT, limit=3).count
cells: tuple[int, ...] = satdoku.parse(TEXT).cells
rules: int = len(satdoku.read(TEXT, box=(2, 2)).constraints)
formula: Formula | ReducedFormula = satdoku.encode(TEXT, "extended", amo="pairwise")
grid: Grid = satdoku.decode("s SATISFIABLE\nv 0\n", TEXT)
why: str = satdoku.explain(TEXT, steps=True).status
digits: dict[int, list[int]] = satdoku.candidates(TEXT, timeout=1.0).digits
made: Grid = satdoku.generate((2, 2), seed=1).puzzle
label: str | None = satdoku.rate(TEXT).label
version: str = satdoku.__version__
# A batch may hold puzzles that could not be read: valid_grid is the grid of one that was.
grids: list[Grid] = [p.valid_grid for p in satdoku.puzzles("puzzles/4x4.txt") if p.ok]
