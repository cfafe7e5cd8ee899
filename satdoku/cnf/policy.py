"""Which encoding a grid gets when none is named: a formula decision, the same for every puzzle.

Variant rules encode over the variable map of any encoding (:mod:`satdoku.cnf.formula`), so a
variant puzzle gets the same choice as a classic one of its size.
"""

from __future__ import annotations

from .encodings import DEFAULT_ENCODING

__all__ = ["REDUCED_MIN_SIZE", "LARGE_MIN_SIZE", "choose_encoding"]

#: Grids at least this big get the reduced encoding when none is named (solve, count, encode,
#: decode, bench). From 36 x 36 the full formula (N**3 variables, ~2 N**4 clauses, 3.3 million
#: at 36) costs seconds to build and hundreds of MB, while the givens of real puzzles leave a
#: few thousand open pairs. At 25 x 25 the full formula fits, but its clues as assumptions
#: cost hard puzzles 5 to 10 times the CPU (CaDiCaL cannot simplify them away), and the
#: reduced formula counts easy ones 3 times faster (docs/hard-grids.md). 16 x 16 batches stay
#: much faster with the incremental full formula (0.58 vs 5.32 ms a puzzle).
REDUCED_MIN_SIZE = 25

#: From this size the full formula does not fit: every command defaults to the reduced
#: encoding, and every racer of a portfolio gets it. Below it, the commands that ask one
#: incremental solver many questions about a puzzle under assumptions (explain's cores,
#: generate's digging) or keep a scale (rate's conflicts) keep the full formula.
LARGE_MIN_SIZE = 36


def choose_encoding(size: int, reduced_from: int = REDUCED_MIN_SIZE) -> str:
    """The encoding an N x N grid gets when none is named: reduced from ``reduced_from``.

    >>> choose_encoding(9), choose_encoding(25), choose_encoding(25, LARGE_MIN_SIZE)
    ('extended', 'reduced', 'extended')
    """
    return "reduced" if size >= reduced_from else DEFAULT_ENCODING
