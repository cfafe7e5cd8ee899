"""Models in: the formula a model belongs to, and the verified grid it describes.

:func:`model_formula` rebuilds what ``satdoku encode`` wrote (as far as decoding needs it:
the variable count and map), from options or from the file's own comments
(:func:`read_header`: the puzzle, box, encoding and at-most-one ``encode`` writes); :func:`decode_solution` reads a solver's answer
(:func:`satdoku.io.dimacs.parse_model`), turns it into a grid through the formula's variable
map, strictly, and verifies it against the puzzle and its rules.
"""

from __future__ import annotations

import re

from ..errors import ModelError
from ..io.dimacs import parse_model, read_model_text
from ..model.grid import Grid, solution_problems
from ..records import record
from .encodings import DEFAULT_AMO, check_encoding, formula_size
from .formula import Formula, encode
from .policy import choose_encoding
from .reduced import ReducedFormula

__all__ = ["model_formula", "decode_solution", "decode_file", "CnfHeader", "read_header"]


def model_formula(puzzle: Grid, encoding: str | None = None, amo: str | None = None,
                  constraints: tuple = ()) -> Formula | ReducedFormula:
    """The formula ``satdoku encode`` wrote for ``puzzle`` with these options, as far as
    decoding needs it: its variable count (and, reduced, its variable map, rebuilt the same
    way: the reduction is deterministic). The encoding defaults to the choice by size."""
    encoding = encoding or choose_encoding(puzzle.size)
    if constraints or check_encoding(encoding).reduced or (amo or DEFAULT_AMO) != DEFAULT_AMO:
        # Rules' and cardinality encodings' auxiliary variables: built the same way again.
        return encode(puzzle, encoding, amo, max_clauses=None, constraints=constraints)
    return Formula(puzzle.geometry, encoding, DEFAULT_AMO,
                   formula_size(puzzle.geometry, encoding)[0], [])  # augmented: triads too


def decode_solution(text: str, puzzle: Grid, formula: Formula | ReducedFormula, *,
                    source: str | None = None, constraints: tuple = ()) -> Grid:
    """The verified solution of ``puzzle`` in a solver's output ``text`` for ``formula`` (the
    formula that was exported: full or reduced, rebuilt the same way as ``encode`` built it).

    Raises:
        ModelError: UNSAT, a malformed model, or a model that does not solve ``puzzle``.
    """
    try:
        if formula.contradiction:
            raise ModelError(f"the puzzle is unsolvable ({formula.contradiction}); "
                             "no model can solve it")
        grid = formula.varmap.read(parse_model(text, formula.nvars))
    except ModelError as error:
        raise error.located(source=source) from None
    problems = solution_problems(grid, puzzle, constraints)
    if problems:
        raise ModelError("the model does not solve this puzzle: " + "; ".join(problems[:3]),
                         source=source)
    return grid


def decode_file(path: str, puzzle: Grid, formula: Formula | ReducedFormula,
                constraints: tuple = ()) -> Grid:
    """:func:`decode_solution` on the model file at ``path`` ('-' for stdin)."""
    source, text = read_model_text(path)
    return decode_solution(text, puzzle, formula, source=source, constraints=constraints)


@record(frozen=True)
class CnfHeader:
    """What the comments of a CNF ``satdoku encode`` wrote say (:func:`read_header`)."""

    puzzle: str | None  # the puzzle in one line
    box: tuple[int, int] | None  # None: regions, no boxes or another shape (see document)
    encoding: str
    amo: str
    rules: int  # variant rules: the header names them; only the document rebuilds them
    document: str | None = None  # the variant puzzle as satdoku JSON (``c document:``)
    document_line: int = 0  # the line it is on


_SIZE = re.compile(r"^c size: (\d+), box: (.+?)(?:, encoding: ([a-z]+) \(.*\), "
                   r"at-most-one: ([a-z]+)|, settled cells: .*)$")
_BOX = re.compile(r"(\d+)x(\d+)")
_REDUCED = re.compile(r"^c encoding: reduced \(.*\), at-most-one: pairwise up to \d+ literals, "
                      r"else ([a-z]+)")


def read_header(path: str) -> CnfHeader:
    """The puzzle, box, encoding and at-most-one encoding in the comments of the CNF at
    ``path``, as ``satdoku encode`` writes them (the comments before ``p cnf``).

    Raises:
        ModelError: the file cannot be read, or its comments do not say these (naming it).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as fp:
    ...     _ = fp.write("c puzzle: 1.3..4.2.34.4.23\\nc size: 4, box: 2x2, encoding: extended "
    ...                  "(...), at-most-one: pairwise\\np cnf 64 0\\n")
    >>> h = read_header(fp.name)
    >>> h.puzzle, h.box, h.encoding, h.amo, h.rules, h.document
    ('1.3..4.2.34.4.23', (2, 2), 'extended', 'pairwise', 0, None)
    >>> os.unlink(fp.name)
    """
    puzzle, box, encoding, amo, rules, boxed = None, None, None, None, 0, False
    document, document_line = None, 0
    try:
        with open(path, encoding="utf-8", errors="replace") as fp:
            for number, line in enumerate(fp, 1):
                if not line.startswith("c"):
                    break
                if line.startswith("c document: ") and document is None:
                    document, document_line = line[len("c document: "):].strip(), number
                if line.startswith("c puzzle: ") and puzzle is None:
                    puzzle = line[len("c puzzle: "):].strip()
                elif (size := _SIZE.match(line.rstrip("\n"))) is not None:
                    shape = _BOX.fullmatch(size.group(2))
                    box = (int(shape.group(1)), int(shape.group(2))) if shape else None
                    boxed = True
                    if size.group(3):
                        encoding, amo = size.group(3), size.group(4)
                elif (reduced := _REDUCED.match(line)) is not None:
                    encoding, amo = "reduced", reduced.group(1)
                elif line.startswith("c variant rules: "):
                    rules = int(line.split()[3].rstrip(","))
    except OSError as error:
        raise ModelError(f"cannot read: {error.strerror or error}", source=path) from None
    if not boxed or encoding is None or amo is None:
        raise ModelError("has no 'c size: N, box: RxC' and encoding comments of satdoku "
                         "encode (give --puzzle and --encoding instead)", source=path)
    return CnfHeader(puzzle, box, encoding, amo, rules, document, document_line)
