"""How the text of a row becomes digits: its tokens told apart as symbols or integers, symbols
read through an :class:`~satdoku.model.alphabet.Alphabet`, integers read as numbers; a bad
cell is named with what is wrong (the reader, :mod:`satdoku.io.reader`, says where).

Row kinds: ``SYMBOLS`` (one character a cell, ``.714..``), ``NUMBERS_ROW`` (space-separated
integers, ``0 12 7``) and ``EITHER`` (single digits with spaces: both readings agree so far).
"""

from __future__ import annotations

from ..errors import abridge
from ..model.alphabet import EMPTY_MARKERS, UNKNOWN, Alphabet
from ..model.geometry import MAX_SIZE

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Sequence

__all__ = ["SYMBOLS", "NUMBERS_ROW", "EITHER", "classify", "number", "read_symbols",
           "read_numbers"]

SYMBOLS, NUMBERS_ROW, EITHER = "symbols", "numbers", "either"

# Integers as written in numbers rows ('7', '12'; '.' etc. empty). Anything else is looked at
# twice (leading zeros, junk), so these lookups are the fast path for 400 x 400 grids.
_INT = {str(i): i for i in range(MAX_SIZE + 1)}
_INT.update({m: 0 for m in EMPTY_MARKERS})

#: A bad cell: its index in the grid and what is wrong with it.
BadCell = tuple[int, str]


def classify(tokens: list[str]) -> tuple[str, list[int | None] | None]:
    """Whether whitespace-separated ``tokens`` read as symbols, integers or both alike.

    Integers need at least four tokens, at most one that is not an integer, and values up to
    twice the token count: ``'123 456 789'`` (a full 9x9 row with box gaps) stays symbols.

    >>> classify("123 456 789".split())[0], classify("0 12 7 . 3 9".split())
    ('symbols', ('numbers', [0, 12, 7, 0, 3, 9]))
    """
    if len(tokens) < 2:
        return SYMBOLS, None
    values = [_INT.get(t) for t in tokens]
    if max(map(len, tokens)) == 1:
        return (SYMBOLS, None) if None in values else (EITHER, values)
    if len(tokens) >= 4:
        known = [v for v in values if v is not None]
        if known and len(values) - len(known) <= 1 and max(known) <= 2 * len(tokens):
            return NUMBERS_ROW, values
    return SYMBOLS, None


def number(token: str) -> int | None:
    """The integer ``token`` writes (an empty marker: 0), or None."""
    value = _INT.get(token)
    if value is None and token.isascii() and token.isdigit() and len(token) <= 10:
        value = int(token)
    return value


def read_symbols(text: str, alphabet: Alphabet,
                 n: int) -> tuple[bytes | list[int], BadCell | None]:
    """Digits of ``text`` in ``alphabet``, or the first bad cell and what is wrong with it."""
    try:
        digits = text.encode("ascii").translate(alphabet.table)
    except UnicodeEncodeError:
        digits = bytes(alphabet.values.get(ch, UNKNOWN) for ch in text)
    if digits.find(UNKNOWN) < 0 and max(digits) <= n:
        return digits, None
    for cell, d in enumerate(digits):
        if d == UNKNOWN:
            return digits, (cell, f"unknown symbol {abridge(text[cell])!r}")
        if d > n:
            return digits, (cell, f"{text[cell]!r} stands for {d}, above {n}")
    raise AssertionError("unreachable")


def read_numbers(rows: Sequence[tuple[list[str], list[int | None] | None]],
                 n: int) -> tuple[list[int], BadCell | None]:
    """Integers of number rows (each its tokens and, when :func:`classify` read them, their
    values), or the first bad cell and what is wrong with it."""
    digits: list[int | None] = []
    for tokens, values in rows:
        digits.extend(values if values is not None else [number(t) for t in tokens])
    known = [d for d in digits if d is not None]
    if len(known) < len(digits) or max(known, default=0) > n:
        tokens = [t for row, _ in rows for t in row]
        for cell, d in enumerate(digits):
            if d is None:
                return known, (cell, f"unknown symbol {abridge(tokens[cell])!r}")
            if d > n:
                return known, (cell, f"{d} is above {n}")
    return known, None
