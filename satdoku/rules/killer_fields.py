"""The JSON fields and f-puzzles keys of the rules in :mod:`.killer` (``killer``,
``little-killer``, ``arrow``), declared here while that module is rewritten elsewhere; they
belong in the class bodies there (``fields = ...``, ``fpuzzles = ...``), where the hand-written
``from_json`` and ``_json_fields`` can then go. The tests hold both to the same JSON.
"""

from __future__ import annotations

from .exchange import FPuzzles
from .fields import Cells, Choice, Int, Place
from .killer import DIRECTIONS, Arrow, Killer, LittleKiller

__all__ = ["declare"]


def declare() -> None:
    """Set the declarations on the classes (once, at import of :mod:`satdoku.rules`)."""
    Killer.fields = (
        Cells(doc="the cage"),
        Int("sum", "total", low=1, required=False, nullable=True, always=True,
            doc="the cage's total, or null for none"))
    Killer.fpuzzles = (
        FPuzzles("killercage", "killercage", value="total",
                 how="sum = the cage's value, null without one"),
        FPuzzles("extraregion", "extraregion", how="fewer than N cells: a killer without sum"))
    LittleKiller.fields = (
        Cells(doc="the diagonal run, each cell one step further in one direction"),
        Int("sum", "total", low=1, doc="the run's total"),
        Place("clue", required=False, doc="where the clue is drawn, outside the grid"),
        Choice("direction", tuple(DIRECTIONS), required=False,
               doc="the arrow's direction as drawn"))
    LittleKiller.fpuzzles = (
        FPuzzles("littlekillersum", "littlekillersum", value="total",
                 how="the diagonal from the clue cell in its direction (DR, DL, UR, UL)"),)
    Arrow.fields = (
        Cells("circle", doc="the circle: one cell, or several read as one number"),
        Cells("cells", "shaft", doc="the shaft, in order"))
    Arrow.fpuzzles = (
        FPuzzles("arrow", "arrow", how="one per line: circle = the entry's cells in their "
                                       "stored order, shaft = the line without the circle"),)
