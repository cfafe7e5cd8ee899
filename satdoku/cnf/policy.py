"""Which encoding a grid gets when none is named: a formula decision, the same for every puzzle.

Variant rules encode over the variable map of any encoding (:mod:`satdoku.cnf.formula`), so a
variant puzzle gets the same choice as a classic one of its size.
"""

from __future__ import annotations

from .encodings import DEFAULT_ENCODING

__all__ = ["REDUCED_MIN_SIZE", "LARGE_MIN_SIZE", "choose_encoding"]

#: Grids at least this big get the reduced encoding when none is named (solve, count, encode,
#: decode, bench): why 25 and not 36 or 16, measured: docs/tuning.md, docs/large-grids.md.
REDUCED_MIN_SIZE = 25

#: From this size the full formula does not fit: every command defaults to the reduced
#: encoding. Below it, explain, generate and rate (many questions under assumptions, or a
#: scale of conflicts) keep the full formula.
LARGE_MIN_SIZE = 36


def choose_encoding(size: int, reduced_from: int = REDUCED_MIN_SIZE) -> str:
    """The encoding an N x N grid gets when none is named: reduced from ``reduced_from``.

    >>> choose_encoding(9), choose_encoding(25), choose_encoding(25, LARGE_MIN_SIZE)
    ('extended', 'reduced', 'extended')
    """
    return "reduced" if size >= reduced_from else DEFAULT_ENCODING
