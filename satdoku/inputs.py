"""Command-line inputs: each argument is a file, ``-`` for stdin, or a puzzle written inline.

Any path that exists is read as a stream, puzzle by puzzle: regular files, FIFOs, devices,
``/dev/stdin``, a shell's process substitution (``<(cat f)``). An argument that is no path is
read as a puzzle; when it cannot be one either and looks like a name (path separators, a file
extension, a word of letters), it is reported as "no such file". A file that cannot be read
becomes one ``invalid`` puzzle entry carrying the error, so a batch reports it and goes on.
"""

from __future__ import annotations

import os
import re
import time
from typing import Iterable, Iterator

from .errors import PuzzleError
from .formats import Puzzle, parse_puzzle, read_puzzles

__all__ = ["iter_inputs", "Inputs", "LineChunk", "ParsedChunk", "is_file_input", "count_lines"]

_LOOKS_LIKE_PATH = re.compile(r"[/\\]|\.[A-Za-z]{2,5}$|^[A-Za-z][A-Za-z_-]*$")


def is_file_input(arg: str) -> bool:
    """True when ``arg`` names stdin or an existing path that is not a folder."""
    return arg == "-" or (os.path.exists(arg) and not os.path.isdir(arg))


def _failed(source: str, error: PuzzleError) -> Puzzle:
    return Puzzle(grid=None, source=source, line=error.line or 0, index=0, name=None,
                  alphabet=None, error=error)


def no_puzzles(source: str) -> Puzzle:
    """The entry of an input that holds no puzzle at all."""
    return _failed(source, PuzzleError("no puzzles found", source=source))


def iter_inputs(args: Iterable[str], *, box: tuple[int, int] | None = None,
                alphabet: str | None = None) -> "Inputs":
    """Every puzzle of every argument, in order; no arguments means stdin.

    Each puzzle's ``parse_ms`` is the time spent reading and parsing it. The iterator is an
    :class:`Inputs`, which can also hand out the raw lines in chunks for worker processes.
    """
    return Inputs(list(args) or ["-"], box, alphabet)


def _timed(puzzles: Iterator[Puzzle]) -> Iterator[Puzzle]:
    clock = time.perf_counter
    while True:
        start = clock()
        puzzle = next(puzzles, None)
        if puzzle is None:
            return
        puzzle.parse_ms = (clock() - start) * 1000
        yield puzzle


class Tally:
    """Puzzles found so far in one input (the parent's count, for ``index`` and "no puzzles
    found")."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found = 0


# LineChunk and ParsedChunk are plain classes: a dataclass costs about 0.3 ms to create at
# import, which every command pays.

class LineChunk:
    """Raw lines of one input for a worker to parse with :func:`satdoku.formats.parse_chunk`.

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
_CHUNK_CHARS = 1 << 20
#: An input that allows no cut for this many chunks' worth of lines or characters (multi-line
#: grids, or no puzzles at all) is parsed in the parent from there on: memory stays bounded.
_MAX_UNCUT = 8


class Inputs:
    """The puzzles of command-line arguments: an iterator of :class:`Puzzle` (parsed here), or,
    before the first one is taken, :meth:`chunks` for parsing in worker processes."""

    def __init__(self, args: list[str], box: tuple[int, int] | None,
                 alphabet: str | None) -> None:
        self.args, self.box, self.alphabet = args, box, alphabet
        self._puzzles: Iterator[Puzzle] | None = None

    @property
    def started(self) -> bool:
        return self._puzzles is not None

    def __iter__(self) -> "Inputs":
        return self

    def __next__(self) -> Puzzle:
        if self._puzzles is None:
            self._puzzles = _timed(_iter_inputs(self.args, self.box, self.alphabet))
        return next(self._puzzles)

    def close(self) -> None:
        if self._puzzles is not None:
            self._puzzles.close()  # type: ignore[attr-defined]

    def chunks(self, lines: int) -> Iterator[LineChunk | ParsedChunk]:
        """The inputs in order as pieces: :class:`LineChunk` of about ``lines`` raw lines cut
        where :class:`~satdoku.formats.LineSplitter` allows (the parent only reads and
        splits), and :class:`ParsedChunk` of what the parent parsed itself. Parsing every
        piece in order gives exactly the puzzles of iterating this object (numbered per input
        by the caller, from the tallies)."""
        if self._puzzles is not None:
            raise RuntimeError("puzzles were taken already")
        self._puzzles = iter(())
        for arg in self.args:
            if is_file_input(arg):
                yield from self._file_chunks(arg, lines)
            else:
                yield ParsedChunk(list(_timed(_iter_inputs([arg], self.box, self.alphabet))))

    def _file_chunks(self, arg: str, size: int) -> Iterator[LineChunk | ParsedChunk]:
        from .formats import LineSplitter, open_lines
        source = "<stdin>" if arg == "-" else arg
        try:
            source, stream = open_lines(arg)
        except PuzzleError as error:
            yield ParsedChunk([_failed(source, error.located(source=source))])
            return
        splitter = LineSplitter(self.box, self.alphabet)
        feed = splitter.feed
        tally = Tally()
        chunk = LineChunk(source, 1, [], tally=tally)
        chars = 0  # in the chunk's lines
        try:
            for line in stream:
                chunk.lines.append(line)
                chars += len(line)
                if feed(line):
                    if len(chunk.lines) >= size or chars >= _CHUNK_CHARS:
                        yield chunk
                        chunk = LineChunk(source, chunk.first_line + len(chunk.lines), [],
                                          splitter.comment, tally=tally)
                        chars = 0
                elif len(chunk.lines) >= _MAX_UNCUT * size or chars >= _MAX_UNCUT * _CHUNK_CHARS:
                    # No cut in sight (multi-line grids): the rest is parsed here.
                    yield from self._parse_rest(chunk, stream, size)
                    return
        except PuzzleError as error:  # a line too long, or a read error: reading stops
            yield chunk  # unfinished, as the whole stream leaves it
            yield ParsedChunk([_failed(source, error.located(source=source))])
            return
        chunk.finish = chunk.last = True
        yield chunk

    def _parse_rest(self, chunk: LineChunk, stream: Iterator[str],
                    size: int) -> Iterator[LineChunk | ParsedChunk]:
        """The puzzles of ``chunk`` and of the rest of its input, parsed here, in pieces of
        ``size``; then an empty last piece (for "no puzzles found")."""
        from .formats import parse_chunk
        source, tally = chunk.source, chunk.tally
        puzzles = _timed(parse_chunk(_chain(chunk.lines, stream), source,
                                     first_line=chunk.first_line, comment=chunk.comment,
                                     box=self.box, alphabet=self.alphabet))
        parsed: list[Puzzle] = []
        try:
            for puzzle in puzzles:
                parsed.append(puzzle)
                if len(parsed) >= size:
                    yield ParsedChunk(parsed, tally)
                    parsed = []
        except PuzzleError as error:
            yield ParsedChunk(parsed, tally)
            yield ParsedChunk([_failed(source, error.located(source=source))])
            return
        if parsed:
            yield ParsedChunk(parsed, tally)
        yield LineChunk(source, 0, [], last=True, tally=tally)


def _chain(first: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from first
    yield from rest


def _iter_inputs(args: list[str], box: tuple[int, int] | None,
                 alphabet: str | None) -> Iterator[Puzzle]:
    for arg in args:
        if is_file_input(arg):
            source = "<stdin>" if arg == "-" else arg
            try:
                found = False
                for puzzle in read_puzzles(arg, box=box, alphabet=alphabet):
                    found = True
                    yield puzzle
                if not found:
                    yield no_puzzles(source)
            except PuzzleError as error:
                yield _failed(source, error.located(source=source))
            except OSError as error:
                yield _failed(source, PuzzleError(f"cannot read: {error.strerror}",
                                                  source=source))
        elif os.path.isdir(arg):
            yield _failed(arg, PuzzleError("is a directory, not a puzzle file", source=arg))
        elif os.path.lexists(arg):  # a broken link, or a loop of them
            try:
                os.stat(arg)
                reason = "cannot be read"
            except OSError as error:
                reason = error.strerror or str(error)
            yield _failed(arg, PuzzleError(f"cannot read: {reason}", source=arg))
        else:
            try:
                yield parse_puzzle(arg, "<arg>", box=box, alphabet=alphabet)
            except PuzzleError as error:
                if _LOOKS_LIKE_PATH.search(arg):
                    error = PuzzleError("no such file (and not a puzzle either)", source=arg)
                yield _failed(error.source or "<arg>", error)


def count_lines(paths: Iterable[str]) -> int:
    """Total lines of the readable files among ``paths`` (for a progress bar); cheap."""
    total = 0
    for path in paths:
        if path == "-" or not os.path.isfile(path):  # a FIFO would be read up by counting
            continue
        with open(path, "rb") as fp:
            for block in iter(lambda: fp.read(1 << 20), b""):
                total += block.count(b"\n")
    return total
