"""Cells outside the grid (sigh's ``Var``): named cells numbered after the grid's, each holding
one of the grid's digits, in no row, column or box.

A geometry with such cells (:func:`with_extra`) is the grid's geometry plus their names
(:attr:`Geometry.extra`): ``ncells`` counts them, ``cell_houses`` gives each none, ``cell_name``
names them, ``ngrid`` is the grid's own cells. So the one variable map, the encodings, the
decoders and the verifier take them as they take any cell; what needs a cell's place (lines,
neighbours, native search, the f-puzzles and SudokuPad forms) refuses them by name.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import OptionError, PuzzleError
from .geometry import Geometry, named_cells

__all__ = ["EXTRA_NAME", "with_extra", "extra_cells"]

#: A name of a cell outside the grid: upper-case letters, digits and ``_``, a letter first.
EXTRA_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def with_extra(base: Geometry, names: Sequence[str]) -> Geometry:
    """The geometry of ``base`` with cells outside the grid named ``names``, numbered after
    the grid's cells in that order. No names: ``base`` itself (without any it had).

    >>> from satdoku.model.geometry import geometry
    >>> g = with_extra(geometry(2, 2), ["VA1", "VA2"])
    >>> g.ncells, g.cell_name(17), g.cell_houses[16], g.plain is geometry(2, 2), g.is_plain
    (18, 'VA2', (), True, False)
    >>> with_extra(geometry(2, 2), ["R1C5"])
    Traceback (most recent call last):
    ...
    satdoku.errors.OptionError: 'R1C5' cannot name a cell outside the grid: a name is upper-case \
letters, digits and _, a letter first, and not like R3C7
    """
    names = tuple(names)
    if not names:
        return base.plain
    return _with_extra(base.plain, names)


def _with_extra(base: Geometry, names: tuple[str, ...]) -> Geometry:
    for name in names:
        if not isinstance(name, str) or not EXTRA_NAME.fullmatch(name) or \
                re.fullmatch(r"R\d+C\d+", name):
            raise OptionError(f"{name!r} cannot name a cell outside the grid: a name is "
                              "upper-case letters, digits and _, a letter first, and not like "
                              "R3C7")
    if len(set(names)) != len(names):
        twice = next(n for i, n in enumerate(names) if n in names[:i])
        raise OptionError(f"the cell outside the grid {twice!r} is named twice")
    return named_cells(base, names)


def extra_cells(base: Geometry, names: object) -> Geometry:
    """``base`` with the cells a document's ``extra-cells`` field names (None: none);
    PuzzleError naming the field when it is not a list of such names."""
    if names is None:
        return base
    try:
        if not isinstance(names, list):
            raise ValueError("must be a list of names of cells outside the grid")
        return with_extra(base, names)
    except ValueError as exc:
        raise PuzzleError(f"'extra-cells': {exc}") from None
