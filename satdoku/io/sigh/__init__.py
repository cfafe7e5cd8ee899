"""sigh's constraint strings in and out: the puzzles of sigh's Interactive Sudoku Solver
(sigh/Interactive-Sudoku-Solver, its URLs' ``?q=`` and its data files) as satdoku variant
documents, and a puzzle written back as one (to take it to sigh's web solver).

A constraint string is a run of items, each ``.Type~arg~arg...``: ``.Shape~6x6``,
``.Thermo~R1C1~R1C2~R1C3``, ``.~R1C1_5`` (a given: an empty type), ``.Or`` ... ``.End``
around the rules of a composite. Whitespace is ignored.

Glossary:

- sigh cell: ``R3C7``; rows and columns above 9 are written ``a``..``g`` (base 17), either case.
- item: one ``.Type~...`` of the string, numbered from 1 in messages
  (``sigh item 4 (.Thermo)``), composites' own children included.
- missing: a sigh type satdoku has no rule for (:data:`MISSING`). As for f-puzzles, a puzzle
  that uses one is refused with every such type named in one message, unless
  ``ignore_unknown`` turns them into warnings (a looser puzzle than the one published).
- note: something that carries no rule (``SearchPriority``, a solver hint): left out with a
  warning.

:func:`convert_sigh` reads a string (the form :mod:`satdoku.io.forms` routes to it);
:func:`read_sigh` does the same without refusing, for tools that tally what is missing;
:func:`format_sigh` writes a puzzle, naming what sigh's language cannot hold. Semantics follow
sigh's own parser and builder (``js/sudoku_parser.js``, ``js/sudoku_constraint.js``,
``js/solver/sudoku_builder.js``), read, not copied.
"""

from __future__ import annotations

from .read import MISSING, SIGH_TYPES, SighReading, convert_sigh, looks_like_sigh, read_sigh
from .write import SighExport, format_sigh

__all__ = ["MISSING", "SIGH_TYPES", "SighReading", "SighExport", "convert_sigh", "format_sigh",
           "looks_like_sigh", "read_sigh"]
