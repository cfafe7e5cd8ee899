"""Streams of text lines: reading them from any file in bounded memory, and cutting them into
pieces that worker processes parse on their own (:class:`LineSplitter`, :func:`parse_chunk`;
the pieces are :class:`LineChunk`, and :class:`ParsedChunk` for what the parent parsed).
"""

from __future__ import annotations

from ..errors import PuzzleError
from ..model.alphabet import UNKNOWN, Alphabet, make_alphabet
from ..model.geometry import geometry_for_size
from ..model.puzzle import Puzzle
from .reader import HEADER, HEADER_WORDS, RULE, Reader, stream_puzzles

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, Iterator

__all__ = ["read_lines", "is_binary", "MAX_LINE_CHARS", "LineSplitter", "parse_chunk", "Tally",
           "LineChunk", "ParsedChunk", "CHUNK_CHARS", "MAX_UNCUT", "PLAIN_LINES", "read_ahead",
           "puzzle_work"]


def _size_text(chars: int) -> str:
    return f"{chars >> 20} MiB" if chars >= 1 << 20 else f"{chars} characters"


#: A line longer than this is no puzzle (a 400x400 grid on one line of integers takes ~640 KB,
#: a 1024x1024 one ~5 MB): reading stops there with a located error, so an endless stream
#: without line ends (``< /dev/zero``) costs bounded memory.
MAX_LINE_CHARS = 8 << 20


def _is_utf16(head: bytes) -> bool:
    """Whether a file starting with ``head`` is UTF-16 (what PowerShell's ``>`` writes): a
    UTF-16 byte order mark, or text whose every other byte is NUL."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    pairs = head[:256]
    pairs = pairs[:len(pairs) & ~1]
    return len(pairs) >= 4 and any(not any(pairs[zeros::2]) and all(pairs[1 - zeros::2])
                                   for zeros in (0, 1))


def is_binary(head: str) -> bool:
    """Whether text that starts with ``head`` (decoded, bad bytes replaced) is binary data: a
    NUL in its first line, or more than one character in twenty NUL or not UTF-8. A stray NUL
    further on is a bad line of a text file, reported at its line (the puzzles around it are
    read).

    >>> is_binary("1.3.\\n" * 200 + "\\0\\n"), is_binary("\\0" * 50), is_binary("PK\\0...")
    (False, True, True)
    """
    head = head[:4096]
    if "\0" in head.split("\n", 1)[0]:
        return True
    return (head.count("\0") + head.count("\ufffd")) * 20 > max(len(head), 40)


def read_lines(stream, source: str, limit: int | None = None) -> Iterator[str]:
    """The lines of a binary ``stream`` as text (UTF-8, a leading BOM dropped, bad bytes
    replaced; a text stream is read as it is), without their line ends, read in blocks; any
    stream works, FIFOs and devices included. A line longer than ``limit`` (default
    :data:`MAX_LINE_CHARS`) raises :class:`PuzzleError` naming it, and reading stops; so does
    UTF-16 text, saying to save it as UTF-8, and binary data (:func:`is_binary`).

    >>> import io
    >>> list(read_lines(io.BytesIO(b"\\xef\\xbb\\xbfa\\r\\nb"), "t"))
    ['a', 'b']
    >>> list(read_lines(io.BytesIO(b"1234567890"), "t", limit=4))
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: t:1: line 1 is longer than 4 characters: not a puzzle; reading stops
    >>> list(read_lines(io.BytesIO("1.3.\\n".encode("utf-16")), "t"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: t:1: UTF-16 text: save it as UTF-8 (PowerShell: ...)
    >>> list(read_lines(io.BytesIO(bytes(range(256))), "t"))
    Traceback (most recent call last):
    ...
    satdoku.errors.PuzzleError: t:1: binary data, not text: not a puzzle file; reading stops
    """
    import codecs
    limit = MAX_LINE_CHARS if limit is None else limit
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    read = getattr(stream, "read1", stream.read)
    pending: list[str] = []
    size, number, first = 0, 0, True
    while True:
        block = read(1 << 16)
        if first and isinstance(block, bytes) and _is_utf16(block):
            raise PuzzleError("UTF-16 text: save it as UTF-8 (PowerShell: "
                              "Out-File -Encoding utf8)", source=source, line=1)
        text = block if isinstance(block, str) else decoder.decode(block, final=not block)
        if first and is_binary(text):
            raise PuzzleError("binary data, not text: not a puzzle file; reading stops",
                              source=source, line=1)
        if first and text:
            text, first = text.removeprefix("\ufeff"), False
        parts = text.split("\n")
        if len(parts) > 1:
            number += 1
            yield "".join(pending + [parts[0]]).removesuffix("\r")
            for part in parts[1:-1]:
                number += 1
                yield part.removesuffix("\r")
            pending, size = [], 0
        pending.append(parts[-1])
        size += len(parts[-1])
        if size > limit:
            number += 1
            raise PuzzleError(f"line {number} is longer than {_size_text(limit)}: not a "
                              f"puzzle; reading stops", source=source, line=number)
        if not block:
            if size:
                yield "".join(pending).removesuffix("\r")
            return


# Splitting a stream of lines into chunks that other processes parse on their own.

class LineSplitter:
    """Says, line by line, where a stream may be cut so that each piece parses alone exactly
    as it would in the whole stream (see :func:`parse_chunk`).

    The reader of :func:`parse_puzzles` carries state from line to line: an open multi-line
    grid, a pending ``Grid 01`` header, a whole-line comment that would name the next grid.
    Right after a one-liner the first two are gone, and the comment is known here: so a cut
    is allowed after a line that is a one-liner for the reader in any state, and the comment
    goes with the next piece. Multi-line grids are never cut (:meth:`feed` says no until a
    one-liner comes; the caller decides how long to wait).

    >>> splitter = LineSplitter()
    >>> [splitter.feed(line) for line in ["# title", "." * 81, "1 . | 3 .", "." * 81]]
    [False, True, False, True]
    >>> splitter.comment is None
    True
    """

    def __init__(self, box: tuple[int, int] | None = None,
                 alphabet: str | Alphabet | None = None) -> None:
        if box is not None:
            geometry_for_size(box[0] * box[1], box)  # as parse_puzzles: OptionError at once
        self._reader = reader = Reader("", box, make_alphabet(alphabet))  # never fed
        self.comment: str | None = None  # the whole-line comment the reader holds
        self._maybe_block = False  # a multi-line grid may be open in the reader
        # The reader's fast path, one table per one-liner length: symbols above N unknown.
        self._tables = {length: bytes(d if d <= n else UNKNOWN for d in reader.fast_table)
                        for length, n in reader.fast_sizes.items()}

    def feed(self, raw: str) -> bool:
        """Take the next line; True when the stream may be cut after it."""
        s = raw.strip()
        if not s:
            self.comment = None
            return False
        if s[0] == "#":  # ends any grid; names the next one
            self.comment = s.lstrip("#").strip() or None
            self._maybe_block = False
            return False
        hash_at = s.find("#")
        if hash_at >= 0:
            s = s[:hash_at].rstrip()
        table = self._tables.get(len(s))
        if table is not None and self._fast(s, table):
            if not self._maybe_block:
                return True  # the reader's fast path: the comment stays as it is
            if not (HEADER.match(s) or RULE.fullmatch(s)):
                # An open grid ends and the line is a one-liner of its own. (A grid can only
                # be open after a content line, which cleared the comment.)
                self._maybe_block = False
                return True
        if HEADER.match(s):
            self.comment, self._maybe_block = None, False
        elif RULE.fullmatch(s):
            if not self._maybe_block and self._reader._is_dash_row(s):
                self.comment, self._maybe_block = None, True
        else:
            self.comment, self._maybe_block = None, True
        return False

    def feed_plain(self, lines: list[str]) -> int:
        """Take ``lines`` at once when each is a bare one-liner of one length that the
        reader's fast path takes (no comment, no blank, no space, nothing a header or a
        ruled line could be): the length, after each of which the stream may be cut, the
        comment left as it is. 0 when they are not all such (nothing taken: :meth:`feed`
        them one by one). A file of one-liners is split at a fraction of the cost of a line
        at a time, in the parent of ``--jobs`` (docs/performance.md).

        >>> splitter = LineSplitter()
        >>> splitter.feed_plain(["." * 81, "1" + "." * 80]), splitter.feed_plain(["." * 81, ""])
        (81, 0)
        """
        length = len(lines[0]) if lines else 0
        table = self._tables.get(length)
        if table is None:
            return 0
        text = "".join(lines)
        if len(text) != length * len(lines) or set(map(len, lines)) != {length}:
            return 0
        if any(c in text for c in "#-= \t"):
            return 0
        if text.lower() != text.upper():  # letters: the start of a header line may be there
            low = text.lower()
            if any(word in low for word in HEADER_WORDS):
                return 0
        try:
            if text.encode("ascii").translate(table).find(UNKNOWN) >= 0:
                return 0
        except UnicodeEncodeError:
            return 0
        self._maybe_block = False  # a grid left open ends at the first of them
        return length

    @staticmethod
    def _fast(s: str, table: bytes) -> bool:
        """Whether the reader's fast path takes ``s`` as a one-liner (when no grid is open)."""
        try:
            return s.encode("ascii").translate(table).find(UNKNOWN) < 0
        except UnicodeEncodeError:
            return False


def parse_chunk(lines: Iterable[str], source: str, *, first_line: int = 1,
                comment: str | None = None, finish: bool = True,
                box: tuple[int, int] | None = None,
                alphabet: str | Alphabet | None = None) -> Iterator[Puzzle]:
    """Puzzles from a piece of a stream cut where :class:`LineSplitter` allowed it.

    ``first_line`` numbers its first line; ``comment`` is the splitter's comment at the cut;
    ``finish=False`` for a piece that more lines follow (or that ended in a read error: then,
    as in the whole stream, a grid left open is dropped). Puzzles are numbered (``index``)
    from 1 within the piece.

    >>> [p.line for p in parse_chunk(["# x", "." * 81], "f.txt", first_line=7)]
    [8]
    """
    if box is not None:
        geometry_for_size(box[0] * box[1], box)
    reader = Reader(source, box, make_alphabet(alphabet))
    reader.comment = comment
    return stream_puzzles(reader, lines, first_line, finish)


class Tally:
    """Puzzles found so far in one input (the parent's count, for ``index`` and "no puzzles
    found")."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found = 0


# LineChunk and ParsedChunk are plain classes with __slots__, made in the workers' hot path (a
# record's generic __init__ takes three times a written one: satdoku.records).

class LineChunk:
    """Raw lines of one input for a worker to parse with :func:`satdoku.io.lines.parse_chunk`.

    ``first_line`` numbers the first line; ``comment`` is the reader's comment at the cut;
    ``finish`` when the input ends normally here (the reader finishes: a grid left open is
    reported); ``last`` when this is the last piece of an input that ended normally (none found
    in the whole input: "no puzzles found"). ``tally`` counts the input's puzzles (parent only).
    """

    __slots__ = ("source", "first_line", "lines", "comment", "finish", "last", "tally")

    def __init__(self, source: str, first_line: int, lines: list[str],
                 comment: str | None = None, *, finish: bool = False, last: bool = False,
                 tally: Tally | None = None) -> None:
        self.source, self.first_line, self.lines, self.comment = source, first_line, lines, comment
        self.finish, self.last = finish, last
        self.tally = Tally() if tally is None else tally


class ParsedChunk:
    """Puzzles the parent parsed itself (inline arguments, read errors, inputs it could not
    cut); ``tally`` when they belong to an input that workers parse in part."""

    __slots__ = ("puzzles", "tally")

    def __init__(self, puzzles: list[Puzzle], tally: Tally | None = None) -> None:
        self.puzzles, self.tally = puzzles, tally


#: A chunk ends at the first cut after this many characters, even if it has fewer lines (big
#: grids one a line).
CHUNK_CHARS = 1 << 20

#: An input that allows no cut for this many chunks' worth of lines or characters (multi-line
#: grids, or no puzzles at all) is parsed in the parent from there on: memory stays bounded.
MAX_UNCUT = 8

#: Lines read ahead at a time to be taken whole when they are all one-liners
#: (:meth:`satdoku.io.lines.LineSplitter.feed_plain`).
PLAIN_LINES = 256


def read_ahead(lines: Iterator[str], n: int) -> tuple[list[str], Exception | None]:
    """Up to ``n`` lines, and the error that stopped reading before them (a line too long, a
    read error), which the caller raises after it has taken the lines read."""
    block: list[str] = []
    try:
        for line in lines:
            block.append(line)
            if len(block) >= n:
                break
    except (PuzzleError, OSError) as error:
        return block, error
    return block, None


def puzzle_work(cells: int) -> float:
    """What solving a puzzle of ``cells`` cells is guessed to cost, in 9x9 puzzles: a chunk
    for the workers holds about ``chunk_size`` of these, so that big grids are spread over
    the workers (a 16x16 puzzle counts 32, a 25x25 one 460: one a chunk) instead of all going
    to the first (18 hard 25x25 puzzles in one chunk kept one worker of two busy). The cube
    of the size is a guess on the low side: the formula grows with N**4, and the search more.

    >>> puzzle_work(81), round(puzzle_work(625))
    (1.0, 459)
    """
    return (cells / 81) ** 3
