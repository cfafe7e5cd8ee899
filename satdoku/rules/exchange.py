"""Where a rule lives in the f-puzzles format, declared on the rule's class as data.

A rule class lists :class:`FPuzzles` entries in its ``fpuzzles`` attribute: the f-puzzles key
that holds the rule and the *shape* of that key's entries. :mod:`satdoku.io.fpuzzles.shapes`
reads and writes each shape once for every rule of that shape, so a new rule of a known shape
(a line, a dot, a clue outside the grid) needs only its declaration.

Shapes (f-puzzles JSON on the left):

- ``flag``: ``"antiknight": true``; the rule has no cells. ``when`` fixes fields
  (``diagonal+`` is ``direction: '+'``).
- ``lines``: ``[{"lines": [[cells...]], "value": ...}]``: one rule per line, its cells in
  order; ``value`` (when the rule has such a field) carries a number.
- ``cells``: ``[{"cells": [...]}]``: each entry one rule over its cells.
- ``each-cell``: ``[{"cell": "R1C1"}, ...]``: all cells in one rule (odd, even).
- ``dot``: ``[{"cells": [a, b], "value": ...}]``: a clue between two neighbours.
- ``outside``: ``[{"cell": "R0C3", "value": ...}]``: a clue beside a row or column.
- any other name: a shape of its own, read and written by the function of that name in
  :mod:`satdoku.io.fpuzzles.shapes` (arrows, cages, negative rules...).
"""

from __future__ import annotations

from typing import Any

from ..records import field, record

__all__ = ["FPuzzles"]


@record(frozen=True)
class FPuzzles:
    """One f-puzzles key of a rule.

    Args:
        key: the f-puzzles key (``"thermometer"``, ``"diagonal+"``).
        shape: how its entries look (see the module docstring).
        value: the rule's field that an entry's ``value`` carries, if any.
        when: fields this key fixes (``{"direction": "+"}``), for import and export alike.
        how: a few words for the mapping table of ``docs/variants.md``.
        source: who defines the key when f-puzzles itself does not (a user script, a solver).
        options: shape-specific data (letters of XV, the default of a value...).
    """

    key: str
    shape: str
    value: str | None = None
    when: dict = field(default_factory=dict)
    how: str = ""
    source: str = ""
    options: dict = field(default_factory=dict)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)
