"""lz-string, the compression f-puzzles links use, written from its algorithm.

lz-string (pieroxy, WTFPL) is an LZW variant over UTF-16 code units whose output bits are packed
into printable characters. f-puzzles puts the compressed JSON of a puzzle in its links
(``?load=``), six bits a character, in the standard base64 alphabet (``+``, ``/``, ``=`` padding);
the URI-safe variant uses ``+``, ``-``, ``$`` and no padding.

Glossary:

- code unit: one UTF-16 unit, what a JavaScript string is made of. Text outside the Basic
  Multilingual Plane is two units (a surrogate pair), and lz-string compresses them one by one,
  so this module does the same: the output equals the JavaScript library's, character for
  character.
- token: a dictionary index written in ``width`` bits, least significant bit first. Tokens 0 and
  1 introduce a new code unit (8 or 16 bits follow), token 2 ends the stream, and the dictionary
  of phrases starts at 3.
- width: the bits of a token; it grows by one each time the dictionary outgrows it.

Design: one bit writer and one bit reader per call, parametrised by the bits per output
character, as the original is, so base64 and the URI-safe form share the coder. Bad input raises
:class:`LZStringError` (a ValueError) saying what and at which character; callers that know the
source (:mod:`satdoku.io.fpuzzles`) turn it into a located :class:`~satdoku.errors.PuzzleError`.

>>> compress_to_base64("Hello, world")
'BIUwNmD2A0AEDukBOYAmQ==='
>>> decompress_from_base64("BIUwNmD2A0AEDukBOYAmQ===")
'Hello, world'
>>> decompress_from_uri("BIUwNmD2A0AEDukBOYAmQ")
'Hello, world'
"""

from __future__ import annotations

from typing import Callable

__all__ = [
    "LZStringError", "BASE64", "URI_SAFE",
    "compress_to_base64", "decompress_from_base64", "compress_to_uri", "decompress_from_uri",
]

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
URI_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"

_NEW_8BIT, _NEW_16BIT, _END = 0, 1, 2


class LZStringError(ValueError):
    """Text that is not lz-string data: a bad character, a bad token or a cut-off stream."""


def _to_units(text: str) -> str:
    """``text`` as UTF-16 code units, one Python character each (astral characters split)."""
    if all(ord(ch) < 0x10000 for ch in text):
        return text
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(data[i] | data[i + 1] << 8) for i in range(0, len(data), 2))


def _from_units(units: str) -> str:
    """The string whose UTF-16 code units are ``units`` (surrogate pairs joined again)."""
    if not any(0xD800 <= ord(ch) < 0xE000 for ch in units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _compress(text: str, bits_per_char: int, alphabet: str) -> str:
    """The lz-string bit stream of ``text``, ``bits_per_char`` bits in each output character."""
    out: list[str] = []
    value = 0      # bits of the output character being filled, most significant first
    filled = 0     # how many bits it holds

    def write(number: int, nbits: int) -> None:
        nonlocal value, filled
        for _ in range(nbits):
            value = value << 1 | (number & 1)
            number >>= 1
            filled += 1
            if filled == bits_per_char:
                out.append(alphabet[value])
                value = filled = 0

    dictionary: dict[str, int] = {}
    pending: set[str] = set()   # single units in the dictionary not yet written out
    size, width, enlarge_in = 3, 2, 2
    phrase = ""

    def emit(phrase: str) -> None:
        nonlocal width, enlarge_in
        if phrase in pending:
            unit = ord(phrase)
            if unit < 256:
                write(_NEW_8BIT, width)
                write(unit, 8)
            else:
                write(_NEW_16BIT, width)
                write(unit, 16)
            pending.discard(phrase)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in = 1 << width
                width += 1
        else:
            write(dictionary[phrase], width)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in = 1 << width
            width += 1

    for unit in _to_units(text):
        if unit not in dictionary:
            dictionary[unit] = size
            size += 1
            pending.add(unit)
        longer = phrase + unit
        if longer in dictionary:
            phrase = longer
            continue
        emit(phrase)
        dictionary[longer] = size
        size += 1
        phrase = unit
    if phrase:
        emit(phrase)
    write(_END, width)
    # Pad with zero bits up to a character boundary; like the original, a stream that ends on
    # a boundary still gets one more (all-zero) character.
    write(0, 1)
    while filled:
        write(0, 1)
    return "".join(out)


def _decompress(text: str, bits_per_char: int, values: Callable[[str], int | None],
                what: str) -> str:
    """The string an lz-string bit stream in ``text`` encodes (``values`` maps a character)."""
    length = len(text)
    index = 0          # next character of ``text`` to read
    current = 0        # the character being read, and the bit of it read next
    mask = 0

    def read(nbits: int) -> int:
        nonlocal index, current, mask
        number = 0
        for bit in range(nbits):
            if mask == 0:
                if index >= length:
                    raise LZStringError(f"not {what} data: it ends in the middle of a token "
                                        f"(after {length} characters)")
                current, mask = codes[index], 1 << (bits_per_char - 1)
                index += 1
            if current & mask:
                number |= 1 << bit
            mask >>= 1
        return number

    if not text:
        raise LZStringError(f"not {what} data: it is empty")
    codes: list[int] = []  # each character's value
    for position, ch in enumerate(text, 1):
        value = values(ch)
        if value is None:
            raise LZStringError(f"not {what} data: character {ch!r} at position {position} "
                                "is not in its alphabet")
        codes.append(value)
    dictionary: list[str] = ["", "", ""]
    width, enlarge_in = 3, 4
    first = read(2)
    if first == _END:
        return ""
    if first not in (_NEW_8BIT, _NEW_16BIT):
        raise LZStringError(f"not {what} data: it starts with token {first}")
    phrase = chr(read(8 if first == _NEW_8BIT else 16))
    dictionary.append(phrase)
    out = [phrase]
    while True:
        token = read(width)
        if token == _END:
            return _from_units("".join(out))
        if token in (_NEW_8BIT, _NEW_16BIT):
            dictionary.append(chr(read(8 if token == _NEW_8BIT else 16)))
            token = len(dictionary) - 1
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in = 1 << width
                width += 1
        if token < len(dictionary):
            entry = dictionary[token]
        elif token == len(dictionary):
            entry = phrase + phrase[0]
        else:
            raise LZStringError(f"not {what} data: token {token} is beyond the dictionary "
                                f"({len(dictionary)} entries) near character {index}")
        out.append(entry)
        dictionary.append(phrase + entry[0])
        enlarge_in -= 1
        phrase = entry
        if enlarge_in == 0:
            enlarge_in = 1 << width
            width += 1


def _lookup(alphabet: str) -> Callable[[str], int | None]:
    table = {ch: i for i, ch in enumerate(alphabet)}
    return table.get


_BASE64_VALUE = _lookup(BASE64)
_URI_VALUE = _lookup(URI_SAFE)


def compress_to_base64(text: str) -> str:
    """``text`` compressed, in base64 with ``=`` padding (lz-string's ``compressToBase64``).

    >>> compress_to_base64("")
    'Q==='
    """
    packed = _compress(text, 6, BASE64)
    return packed + "=" * (-len(packed) % 4)


def decompress_from_base64(text: str) -> str:
    """The string that :func:`compress_to_base64` (or lz-string's JavaScript) made ``text`` from.

    Padding ``=`` at the end is optional; any other character outside the alphabet raises
    :class:`LZStringError`, as does a stream that is cut short or refers past its dictionary.

    >>> decompress_from_base64("BIUwNmD2A0AEDukBOYAmQ")
    'Hello, world'
    >>> decompress_from_base64("BIUw!mD2")
    Traceback (most recent call last):
    ...
    satdoku.io.lzstring.LZStringError: not lz-string base64 data: character '!' at position 5 ...
    """
    return _decompress(text.rstrip("="), 6, _BASE64_VALUE, "lz-string base64")


def compress_to_uri(text: str) -> str:
    """``text`` compressed in the URI-safe alphabet (``compressToEncodedURIComponent``).

    >>> compress_to_uri("Hello, world")
    'BIUwNmD2A0AEDukBOYAmQ'
    """
    return _compress(text, 6, URI_SAFE)


def decompress_from_uri(text: str) -> str:
    """The inverse of :func:`compress_to_uri` (``decompressFromEncodedURIComponent``).

    A space is read as ``+``, as the JavaScript library does (forms turn ``+`` into spaces).
    """
    return _decompress(text.replace(" ", "+"), 6, _URI_VALUE, "lz-string URI-safe")
