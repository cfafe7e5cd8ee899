"""How digits are written: an :class:`Alphabet` maps symbols to digits and back.

Glossary: symbol, the character(s) a digit is written as: ``123456789ABC...`` (digit v is the
v-th symbol), hex ``0123456789ABCDEF`` for 16x16, or *numbers* (space-separated integers, for
grids too big for one character a cell); empty marker, ``.``, ``_``, ``*``, ``-`` and ``0``
(``0`` only when it is not a symbol).
"""

from __future__ import annotations

import functools

from ..errors import OptionError
from ..records import record

__all__ = ["Alphabet", "DEFAULT_SYMBOLS", "HEX", "NUMBERS", "EMPTY_MARKERS", "UNKNOWN",
           "alphabet_for", "check_alphabet", "make_alphabet"]

DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HEX = "0123456789ABCDEF"
#: Characters that mark an empty cell (each only when it is not a symbol of the alphabet).
EMPTY_MARKERS = "._*-0"

UNKNOWN = 255  # value of an unknown character in an alphabet's byte table


@record(frozen=True)
class Alphabet:
    """How digits are written: ``symbols[v-1]`` is digit v; ``None`` means numbers.

    Letters are read case-insensitively (unless the alphabet holds both cases of a letter).

    >>> a = Alphabet("123456789")
    >>> a.symbol(7), a.symbol(0), a.digit("7"), a.digit(".")
    ('7', '.', 7, 0)
    >>> NUMBERS.symbol(12), NUMBERS.digit("12")
    ('12', 12)
    """

    symbols: str | None

    def __post_init__(self) -> None:
        s = self.symbols
        if s is None:
            return
        if not s:
            raise OptionError("an alphabet needs at least one symbol")
        for ch in s:
            if ch.isspace() or ch in "#|,":
                raise OptionError(f"alphabet {s!r}: {ch!r} cannot be a symbol: it separates "
                                  f"cells or starts a comment")
            if not ch.isprintable():
                raise OptionError(f"alphabet {s!r}: {ch!r} is not a printable symbol")
        if len(set(s)) != len(s):
            dup = next(ch for i, ch in enumerate(s) if ch in s[:i])
            raise OptionError(f"alphabet {s!r} has {dup!r} twice")

    @property
    def is_numbers(self) -> bool:
        return self.symbols is None

    def symbol(self, digit: int) -> str:
        """How ``digit`` is written (``'.'`` for 0; ``'0'`` with numbers)."""
        if self.symbols is None:
            return str(digit)
        return self.symbols[digit - 1] if digit else "."

    def digit(self, symbol: str) -> int:
        """The digit ``symbol`` stands for, 0 for an empty marker; ValueError if unknown."""
        if self.symbols is None:
            if symbol in ("0", *EMPTY_MARKERS):
                return 0
            if symbol.isascii() and symbol.isdigit():
                return int(symbol)
        else:
            value = self.values.get(symbol)
            if value is not None:
                return value
        raise ValueError(f"unknown symbol {symbol!r}")

    @functools.cached_property
    def values(self) -> dict[str, int]:
        """Character -> digit (0 for empty markers), both cases of letters."""
        if self.symbols is None:
            raise ValueError("a numbers alphabet has no symbol table")
        values = {m: 0 for m in EMPTY_MARKERS if m not in self.symbols}
        for v, ch in enumerate(self.symbols, 1):
            for variant in (ch.upper(), ch.lower()):
                if variant == ch or variant not in self.symbols:
                    values[variant] = v
        return values

    @functools.cached_property
    def table(self) -> bytes:
        """A ``bytes.translate`` table: ASCII code -> digit, 255 for anything unknown."""
        table = bytearray([UNKNOWN] * 256)
        for ch, v in self.values.items():
            if ord(ch) < 128:
                table[ord(ch)] = v
        return bytes(table)


NUMBERS = Alphabet(None)
HEX_ALPHABET = Alphabet(HEX)
DEFAULT = Alphabet(DEFAULT_SYMBOLS)


#: The symbols of the values 0..35, for grids whose values are not 1..N.
VALUE_SYMBOLS = "0" + DEFAULT_SYMBOLS


@functools.lru_cache(maxsize=None)
def alphabet_for(size: int, low: int = 1) -> Alphabet:
    """The default alphabet to write a ``size`` grid: ``123456789ABC...`` up to 35, else numbers;
    for a grid whose values start at ``low`` (not 1), the symbols of those values.

    >>> alphabet_for(9).symbols, alphabet_for(36).is_numbers, alphabet_for(9, 0).symbols
    ('123456789', True, '012345678')
    """
    if low != 1:
        return Alphabet(VALUE_SYMBOLS[low:low + size])
    return Alphabet(DEFAULT_SYMBOLS[:size]) if size <= len(DEFAULT_SYMBOLS) else NUMBERS


def check_alphabet(symbols: str, size: int | None = None) -> Alphabet:
    """The :class:`Alphabet` of ``symbols``, with enough symbols for a ``size`` grid.

    >>> check_alphabet("1123")
    Traceback (most recent call last):
    ...
    satdoku.errors.OptionError: alphabet '1123' has '1' twice
    """
    alphabet = Alphabet(symbols)
    if size is not None and len(symbols) < size:
        raise OptionError(f"alphabet {symbols!r} is too short for a {size}x{size} grid")
    return alphabet


def make_alphabet(alphabet: str | Alphabet | None) -> Alphabet | None:
    if alphabet is None or isinstance(alphabet, Alphabet):
        return alphabet
    return Alphabet(alphabet)
