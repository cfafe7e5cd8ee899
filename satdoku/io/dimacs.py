"""DIMACS text: clauses out, and a SAT solver's answer in (no knowledge of Sudoku here).

:func:`write_clauses` writes the ``p cnf`` line and the clauses in large blocks.
:func:`parse_model` reads the SAT-competition form (``s SATISFIABLE``, ``v ... 0`` lines, ``c``
comments; CaDiCaL, Kissat, ...) and MiniSat's result file (``SAT`` then literals ending in 0,
or ``UNSAT``), strictly: a literal set both ways, a literal beyond the formula's variables,
``-0`` or anything that is not an integer is an error naming its line. What the literals mean
is the formula's variable map's business (:mod:`satdoku.cnf.varmap`).
"""

from __future__ import annotations

import re
import sys
from typing import Protocol, Sequence

from ..errors import ModelError
from .lines import is_binary

__all__ = ["write_clauses", "clause_text", "parse_model", "read_model_text",
           "UnsatisfiableError", "MAX_MODEL_BYTES", "TextSink"]


class TextSink(Protocol):
    """Where DIMACS text goes: a text file, or a command's output (:mod:`satdoku.io.files`)."""

    def write(self, text: str) -> object: ...

#: Solver output longer than this is refused (a 400x400 reduced model takes a few MB).
MAX_MODEL_BYTES = 128 << 20

_INT = re.compile(r"-?[0-9]{1,19}")
_STATUS_WORDS = ("s", "SAT", "UNSAT", "UNSATISFIABLE", "SATISFIABLE", "INDET", "UNKNOWN")


class UnsatisfiableError(ModelError):
    """The external solver proved the formula unsatisfiable: the puzzle has no solution.
    ``proof``: what backs the answer once a proof of it was checked
    (:func:`satdoku.sat.proofs.backed`), else None."""

    proof: dict | None = None


def parse_model(text: str, nvars: int | None = None) -> list[int]:
    """The literals of a SAT solver's answer, without the closing 0.

    Args:
        text: the solver's output.
        nvars: the formula's variables; a literal beyond them is an error (None: no check).

    Raises:
        UnsatisfiableError: the solver found no solution (a :class:`ModelError`).
        ModelError: the text is not a model; the line number says where.

    >>> parse_model("s SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
    [1, -2, 3]
    >>> parse_model("SAT\\n-1 2 0\\n")
    [-1, 2]
    >>> parse_model("v 1 -1 0\\n")
    Traceback (most recent call last):
    ...
    satdoku.errors.ModelError: 1: variable 1 is set both true and false
    """
    lits: list[int] = []
    seen: dict[int, int] = {}
    status: str | None = None
    closed = False
    last = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        last = number
        head, _, rest = line.partition(" ")
        if head == "c":
            continue
        if status is None and head in _STATUS_WORDS:
            status = (rest.strip() if head == "s" else line).upper()
            if status in ("UNSATISFIABLE", "UNSAT"):
                raise UnsatisfiableError("the solver found no solution: the puzzle is "
                                         "unsolvable", line=number)
            if status not in ("SATISFIABLE", "SAT"):
                raise ModelError(f"the solver gave no answer ({line[:40]!r})", line=number)
            continue
        if head in ("s", "SAT", "UNSAT") or line.upper() in ("SATISFIABLE", "UNSATISFIABLE"):
            raise ModelError(f"a second status line: {line[:40]!r}", line=number)
        if closed:
            raise ModelError(f"text after the closing 0 of the model: {line[:40]!r}",
                             line=number)
        if head != "v" and status != "SAT":
            what = "a 'v' line" if status else "'s SATISFIABLE' or 'SAT'"
            raise ModelError(f"expected {what}, found {ascii(line[:40])}", line=number)
        for word in rest.split() if head == "v" else line.split():
            if closed:
                raise ModelError(f"literal {word[:40]!r} after the closing 0", line=number)
            if not _INT.fullmatch(word) or word == "-0":
                raise ModelError(f"{word[:40]!r} is not a literal", line=number)
            lit = int(word)
            if lit == 0:
                closed = True
                continue
            v = abs(lit)
            if nvars is not None and v > nvars:
                raise ModelError(f"literal {lit} is beyond the formula's {nvars:,} variables "
                                 f"(a model of another puzzle or encoding?)", line=number)
            if seen.setdefault(v, lit) != lit:
                raise ModelError(f"variable {v} is set both true and false", line=number)
            lits.append(lit)
    if status is None and not lits:
        raise ModelError("no solver answer found (empty output?)", line=last or None)
    if not closed:
        raise ModelError("the model does not end with 0 (was the output cut short?)",
                         line=last or None)
    return lits


def read_model_text(path: str) -> tuple[str, str]:
    """(source name, text) of a model file (``'-'``: stdin), read up to
    :data:`MAX_MODEL_BYTES`; ModelError when it cannot be read or is longer."""
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read(MAX_MODEL_BYTES + 1)
        else:
            with open(path, encoding="utf-8", errors="replace") as fp:
                text = fp.read(MAX_MODEL_BYTES + 1)
    except OSError as error:
        raise ModelError(f"cannot read: {error.strerror or error}", source=source) from None
    if is_binary(text):
        raise ModelError("binary data, not text: not a model", source=source)
    if len(text) > MAX_MODEL_BYTES:
        raise ModelError(f"more than {MAX_MODEL_BYTES >> 20} MB: not a model of this puzzle",
                         source=source)
    return source, text


def clause_text(clauses: Sequence[Sequence[int]]) -> str:
    """The clauses as DIMACS lines, each ending in 0."""
    return "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)


def write_clauses(fp: TextSink, nvars: int, clauses: Sequence[Sequence[int]],
                  cubes: Sequence[Sequence[int]] | None = None) -> None:
    """The ``p cnf`` line and the clauses, each ending in 0, written in large blocks; with
    ``cubes``, incremental CNF (ICNF, as incremental SAT solvers and the competition's
    incremental track read it): ``p inccnf``, the clauses, then an ``a ... 0`` line of
    assumptions per cube, each solved under the clauses in turn."""
    fp.write("p inccnf\n" if cubes is not None else f"p cnf {nvars} {len(clauses)}\n")
    chunk = 65536
    for start in range(0, len(clauses), chunk):
        fp.write(clause_text(clauses[start:start + chunk]))
    cubes = cubes or ()
    for start in range(0, len(cubes), chunk):
        fp.write("".join(" ".join(["a", *map(str, cube), "0"]) + "\n"
                         for cube in cubes[start:start + chunk]))
