"""Clues about the regions of a chaos construction: a digit that counts region cells.

Glossary (adds to :mod:`satdoku.rules.chaos`):

- arrow clue (sigh's ChaosArrow): a cell and one or more *arms*, lines of cells that start on
  the same cell. Along each arm, the *run* is the cells from the start on, up to the first
  that lies in another region than the start; the clue cell's value is the cells of all the
  runs together (the start once), less ``offset`` (1: the start is not counted).
- count clue (sigh's ChaosCount): a cell and a list of cells; its value is how many of them
  lie in the region of the first, that one included, less ``offset``.

Both are fields of the ``chaos`` rule, since they speak of its region variables: the
encoding makes a literal "b is in a's region" for each pair a clue asks about
(:func:`same_region`), a run literal per arm cell (the previous one and same region), and
the clue cell's value against the count of true literals (:func:`.sums.encode_sum`). The
check reads the regions of the answer.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..model.geometry import Geometry
from ..records import record
from .context import Clause
from .fields import Field, Fields, parse_cell
from .sums import encode_sum

__all__ = ["ChaosClue", "Clues", "clue_clauses", "clue_problem"]


@record(frozen=True)
class ChaosClue:
    """One clue: its ``cell``, ``arms`` (an arrow: each a line of cells from one start; a
    count: one list, its first cell the reference) and ``offset`` (0 or 1)."""

    cell: int
    arms: tuple[tuple[int, ...], ...]
    offset: int = 0

    def counted(self, region_of: Sequence[int]) -> int:
        """The value the clue asks of its cell, given each cell's region."""
        start = self.arms[0][0]
        if not self.is_arrow:
            return sum(region_of[c] == region_of[start] for c in self.arms[0]) - self.offset
        total = 1
        for arm in self.arms:
            for c in arm[1:]:
                if region_of[c] != region_of[start]:
                    break
                total += 1
        return total - self.offset

    is_arrow: bool = True


class Clues(Field):
    """A list of chaos clues, each ``{"cell": "r1c2", "arms": [[cells], ...], "offset": 0}``
    (an arrow) or ``{"cell": "r1c2", "cells": [cells], "offset": 0}`` (a count)."""

    kind = "chaos clues"

    def __init__(self, name: str, arrow: bool, **options: Any) -> None:
        super().__init__(name, **options)
        self.arrow = arrow

    def read(self, f: Fields) -> tuple[ChaosClue, ...]:
        if not f.has(self.name):
            return self.default
        key = "arms" if self.arrow else "cells"
        value = f.data[self.name]
        message = (f"'{self.name}' must be a list of objects with 'cell', '{key}' and an "
                   f"optional 'offset' (0 or 1)")
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise ValueError(message)
        out = []
        for clue in value:
            lines = clue.get(key)
            lines = lines if self.arrow else [lines]
            if set(clue) - {"cell", key, "offset"} or clue.get("offset", 0) not in (0, 1) \
                    or not isinstance(lines, list) or not lines or not all(
                        isinstance(line, list) and line for line in lines):
                raise ValueError(message)
            arms = tuple(tuple(parse_cell(name, f.geometry) for name in line) for line in lines)
            if len({arm[0] for arm in arms}) > 1:
                raise ValueError(f"'{self.name}': the arms of a clue start on one cell")
            out.append(ChaosClue(parse_cell(clue.get("cell"), f.geometry), arms,
                                 clue.get("offset", 0), self.arrow))
        return tuple(out)

    def write(self, value, geometry: Geometry) -> list[dict]:
        name = geometry.cell_name
        key = "arms" if self.arrow else "cells"
        out = []
        for clue in value:
            lines = [[name(c) for c in arm] for arm in clue.arms]
            item: dict = {"cell": name(clue.cell), key: lines if self.arrow else lines[0]}
            if clue.offset:
                item["offset"] = clue.offset
            out.append(item)
        return out

    def schema(self) -> dict:
        cells = {"type": "array", "items": {"$ref": "#/$defs/cell"}, "minItems": 1}
        key, lines = ("arms", {"type": "array", "items": cells, "minItems": 1}) \
            if self.arrow else ("cells", cells)
        return {"type": "array", "items": {
            "type": "object", "required": ["cell", key], "additionalProperties": False,
            "properties": {"cell": {"$ref": "#/$defs/cell"}, key: lines,
                           "offset": {"enum": [0, 1]}}}}

    def text(self) -> str:
        return f"list of chaos {'arrows' if self.arrow else 'counts'}"


def same_region(ctx, x: list[list[int]], a: int, b: int, clauses: list[Clause],
                made: dict[tuple[int, int], int]) -> int:
    """A literal "cells a and b lie in one region" over the region variables ``x``."""
    key = (min(a, b), max(a, b))
    if key not in made:
        s = made[key] = ctx.fresh()
        for r in range(len(x[a])):
            clauses += [[-x[a][r], -x[b][r], s], [-s, -x[a][r], x[b][r]]]
    return made[key]


def clue_clauses(ctx, x: list[list[int]], clues: Sequence[ChaosClue]) -> list[Clause]:
    """Each clue's cell holds the count its clue asks for (see the module docstring)."""
    clauses: list[Clause] = []
    made: dict[tuple[int, int], int] = {}
    for clue in clues:
        start, lits = clue.arms[0][0], []
        if clue.is_arrow:
            for arm in clue.arms:
                run = None  # the previous cell of the arm is in the run
                for c in arm[1:]:
                    s = same_region(ctx, x, start, c, clauses, made)
                    if run is None:
                        run = s
                    else:
                        p = ctx.fresh()
                        clauses += [[-p, run], [-p, s], [-run, -s, p]]
                        run = p
                    lits.append(run)
        else:
            lits = [same_region(ctx, x, start, c, clauses, made)
                    for c in clue.arms[0] if c != start]
        fixed = 1 - clue.offset  # the start, counted unless the offset leaves it out
        wanted = {d: ctx.geometry.value(d) - fixed for d in range(1, ctx.size + 1)}
        clauses += [[-ctx.var(clue.cell, d)] for d, k in wanted.items()
                    if not 0 <= k <= len(lits)]
        target = tuple((k, ctx.var(clue.cell, d)) for d, k in wanted.items()
                       if 0 <= k <= len(lits))
        if not target:
            continue  # the unit clauses above leave the cell no digit
        if lits:  # (none: the unit clauses above leave the cell the one value it may hold)
            clauses += encode_sum(ctx, [((0, -lit), (1, lit)) for lit in lits], target)
    return clauses


def clue_problem(clue: ChaosClue, geometry: Geometry, values: Sequence[int],
                 region_of: Sequence[int]) -> str | None:
    """What is wrong with a clue in an answer (its cells' values and regions), or None."""
    want = clue.counted(region_of)
    if values[clue.cell] == want:
        return None
    kind = "arrow" if clue.is_arrow else "count"
    return (f"chaos {kind} {geometry.cell_name(clue.cell)}: {values[clue.cell]}, but the "
            f"region cells it counts make {want}")
