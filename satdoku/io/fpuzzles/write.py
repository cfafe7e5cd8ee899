"""Writing a variant puzzle as f-puzzles JSON: each rule by the shape its class declares
(:mod:`satdoku.rules.exchange`, :mod:`.shapes`); what f-puzzles cannot hold is named
in ``lost``, never dropped silently.

Rules that f-puzzles knows only through the "new constraints" user script (renban, region sum
lines, entropic lines...) also get the drawn copy that script exports beside them (a ``line``
with ``fromConstraint``), so that f-puzzles without the script and SudokuPad show them; the
reader skips such copies.
"""

from __future__ import annotations

from typing import Any

from ...records import field, record
from .read import fpuzzles_box
from .special import SHAPES

__all__ = ["FPuzzlesExport", "to_fpuzzles"]

#: The user script's name and drawing (colour, width) of each rule key it adds, for copies.
_SCRIPT_LINES = {
    "renban": ("Renban", "#F067F0", 0.25),
    "whispers": ("German Whispers", "#67F067", 0.1875),
    "entropicline": ("Entropic Line", "#FFCCAA", 0.15625),
    "modularline": ("Modular Line", "#33BBBB", 0.15625),
    "regionsumline": ("Region Sum Line", "#2ECBFF", 0.15625),
    "nabner": ("Nabner", "#C9C883", 0.25),
    "doublearrow": ("Double Arrow", "#C54B8B", 0.15),
    "zipperline": ("Zipper Line", "#CDB1EC", 0.15625),
    "slowthermometer": ("Slow Thermometer", "#6495ED", 0.3),
    "lockout": ("Lockout", "#C8C8FF", 0.15),
}


@record
class FPuzzlesExport:
    """A puzzle as f-puzzles data, and what f-puzzles could not hold (one line each)."""

    data: dict
    lost: list[str] = field(default_factory=list)


class Writer:
    """The f-puzzles data being built for one puzzle."""

    def __init__(self, puzzle) -> None:
        self.puzzle = puzzle
        self.geometry = geo = puzzle.geometry
        self.n = geo.size
        self.data: dict[str, Any] = {"size": self.n}
        if puzzle.name:
            self.data["title"] = puzzle.name
        if puzzle.author:
            self.data["author"] = puzzle.author
        self.lost: list[str] = []
        if not geo.has_boxes:
            self.lost.append("no boxes: an f-puzzles grid has regions (written as one region)")
        if geo.low != 1:  # the rules a shifted grid takes only compare digits: still the puzzle
            self.lost.append(f"digits {geo.values_text}: f-puzzles has digits 1-{geo.size} "
                             f"only (written as 1-{geo.size})")
        self.negatives: list = []   # negative rules, written together at the end
        self.negative: list[str] = []

    def name(self, cell: int) -> str:
        r, c = divmod(cell, self.n)
        return f"R{r + 1}C{c + 1}"

    def append(self, key: str, entry: dict) -> None:
        self.data.setdefault(key, []).append(entry)

    def grid(self) -> None:
        """Givens, and regions unless they are f-puzzles' default boxes."""
        geo, n = self.geometry, self.n
        rows: list[list[dict]] = [[{} for _ in range(n)] for _ in range(n)]
        for cell, digit in self.puzzle.grid.givens():
            rows[cell // n][cell % n].update(value=digit, given=True)
        br, bc = fpuzzles_box(n)
        default = [[(r // br) * br + c // bc for c in range(n)] for r in range(n)]
        regions = [[0] * n for _ in range(n)]
        for index, region in enumerate(geo.houses[2 * n:]):
            for cell in region:
                regions[cell // n][cell % n] = index
        if not _same_partition(regions, default):
            for r in range(n):
                for c in range(n):
                    rows[r][c]["region"] = regions[r][c]
        self.data["grid"] = rows

    def rule(self, constraint) -> None:
        """One rule, by the first of its class's written declarations whose fixed fields it has."""
        decls = type(constraint).fpuzzles
        if not decls:
            self.lost.append(f"{constraint.describe(self.geometry)} (f-puzzles has no "
                             f"{constraint.type} rule)")
            return
        values = {f.name: getattr(constraint, f.attr) for f in type(constraint).fields}
        # (a shape with no writer is read only: a grid cell's parity is written as odd/even)
        found = next(((d, write) for d in decls if (write := SHAPES[d.shape].write) is not None
                      and all(values.get(k) == v for k, v in d.when.items())), None)
        if found is None:
            fixed = ", ".join(f"{k} {v}" for d in decls for k, v in d.when.items())
            self.lost.append(f"{constraint.describe(self.geometry)} (f-puzzles' "
                             f"{decls[0].key} has {fixed})")
            return
        decl, write = found
        why = write(self, decl, constraint)
        if why:
            self.lost.append(f"{constraint.describe(self.geometry)}: {why}")
            return
        if decl.key in _SCRIPT_LINES and "lines" in self.data[decl.key][-1]:
            name, colour, width = _SCRIPT_LINES[decl.key]
            self.append("line", {"lines": self.data[decl.key][-1]["lines"], "outlineC": colour,
                                 "width": width, "fromConstraint": name})


def _same_partition(a: list[list[int]], b: list[list[int]]) -> bool:
    """Whether two region maps group the cells alike (whatever the regions' numbers)."""
    pairs = {(x, y) for row_a, row_b in zip(a, b) for x, y in zip(row_a, row_b)}
    return len(pairs) == len({x for x, _ in pairs}) == len({y for _, y in pairs})


def to_fpuzzles(puzzle, solution=None) -> FPuzzlesExport:
    """The f-puzzles data of a :class:`~satdoku.model.puzzle.Puzzle` and what it lost.

    ``solution`` (a filled grid, optional) is stored as f-puzzles' ``solution``.

    >>> from satdoku.io.variant import read_variant
    >>> p = read_variant({"size": 4, "givens": {"r1c1": 1}, "constraints": [
    ...     {"type": "anti-king"}, {"type": "thermometer", "cells": ["r2c1", "r2c2"]}]})
    >>> out = to_fpuzzles(p)
    >>> out.data["antiking"], out.data["thermometer"], out.lost
    (True, [{'lines': [['R2C1', 'R2C2']]}], [])
    """
    w = Writer(puzzle)
    w.grid()
    for constraint in puzzle.constraints:
        w.rule(constraint)
    for shape in SHAPES.values():
        if shape.finish is not None:
            shape.finish(w)
    if solution is not None:
        w.data["solution"] = list(solution.cells)
    return FPuzzlesExport(w.data, w.lost)

