"""Command-line inputs: each argument is a file, ``-`` for stdin, or a puzzle written inline.

Any path that exists is read as a stream, puzzle by puzzle: regular files, FIFOs, devices,
``/dev/stdin``, a shell's process substitution (``<(cat f)``). An argument that is no path is
read as a puzzle; when it cannot be one either and looks like a name (path separators, a file
extension, a word of letters), it is reported as "no such file". A file that cannot be read
becomes one ``invalid`` puzzle entry carrying the error, so a batch reports it and goes on.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import time

from ..errors import MissingInput, PuzzleError, abridge
from ..model.puzzle import Puzzle
from .forms import form_of_text
from .lines import (CHUNK_CHARS, MAX_UNCUT, PLAIN_LINES, LineChunk, ParsedChunk, Tally,
                    puzzle_work, read_ahead, read_lines)
from .text import parse_puzzle, parse_puzzles

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Iterable, Iterator

__all__ = ["iter_inputs", "Inputs", "is_file_input", "count_lines",
           "single_puzzle", "count_ahead", "holds_one_puzzle", "read_puzzle", "timed"]

#: What a puzzle that could not be read looks like when it was meant as a file name (compiled
#: by ``re`` when first used: only a failed puzzle needs it).
_LOOKS_LIKE_PATH = r"[/\\]|\.[A-Za-z]{2,5}$|^[A-Za-z][A-Za-z_-]*$"


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
                alphabet: str | None = None, ignore_unknown: bool = False) -> "Inputs":
    """Every puzzle of every argument, in order; no arguments means stdin.

    Classic puzzles in any format :mod:`satdoku.io.text` reads; variant puzzles as satdoku
    variant JSON (Lines) or f-puzzles links, strings and JSON (:mod:`satdoku.io.variant`), told
    apart by the file name (``.json``, ``.jsonl``) or by the first line that is not a comment.
    ``ignore_unknown`` lets an f-puzzles import through what satdoku cannot use (the puzzle's
    ``warnings`` say what). Each puzzle's ``parse_ms`` is the time spent reading and parsing it.
    The iterator is an :class:`Inputs`, which can also hand out the raw lines in chunks for
    worker processes.
    """
    return Inputs(list(args) or ["-"], box, alphabet, ignore_unknown)


def timed(puzzles: Iterator[Puzzle]) -> Iterator[Puzzle]:
    """The puzzles, each with the time its reading took (``parse_ms``)."""
    clock = time.perf_counter
    while True:
        start = clock()
        puzzle = next(puzzles, None)
        if puzzle is None:
            return
        puzzle.parse_ms = (clock() - start) * 1000
        yield puzzle


def _variant_puzzles(lines: Iterable[str], source: str, ignore_unknown: bool, box=None,
                     alphabet=None) -> Iterator[Puzzle]:
    """The puzzles of variant ``lines``; ``--box`` and ``--alphabet`` (which a variant puzzle
    does not take: it states its own shape) are named in a warning on each."""
    from .variant import read_variant_lines  # the rules' modules: only for variant puzzles
    ignored = " and ".join(name for name, given in (("--box", box), ("--alphabet", alphabet))
                           if given)
    for puzzle in read_variant_lines(lines, source, ignore_unknown):
        if ignored and puzzle.ok:
            puzzle.warnings += (f"{ignored} ignored: a variant puzzle states its own shape "
                                f"and digits",)
        yield puzzle


def _is_variant_line(text: str) -> bool:
    """Whether a line is a variant puzzle: satdoku JSON, or a form of :mod:`.forms`."""
    return text.startswith("{") or form_of_text(text) is not None


def _open(arg: str, source: str):
    """(handle to close or None, binary stream) of a file argument (``'-'``: stdin)."""
    if arg == "-":
        return None, getattr(sys.stdin, "buffer", sys.stdin)
    try:
        stream = open(arg, "rb")
    except OSError as exc:
        raise PuzzleError(f"cannot read: {exc.strerror or exc}", source=source) from None
    return stream, stream


def _sniff(arg: str, lines: Iterator[str]) -> tuple[Iterator[str], bool]:
    """The lines again (the head read ahead) and whether they hold variant puzzles."""
    head: list[str] = []
    first = ""
    for line in lines:
        head.append(line)
        first = line.strip()
        if first and not first.startswith("#"):
            break
    variant = arg.endswith((".json", ".jsonl")) or bool(first and _is_variant_line(first))
    return itertools.chain(head, lines), variant


def _read_path(arg: str, box, alphabet, ignore_unknown: bool,
               defer_clashes: bool = False) -> Iterator[Puzzle]:
    """The puzzles of a file (``'-'``: stdin), classic or variant, streamed."""
    source = "<stdin>" if arg == "-" else arg
    handle, stream = _open(arg, source)
    try:
        yield from _read_lines(arg, source, read_lines(stream, source), box, alphabet,
                               ignore_unknown, defer_clashes)
    finally:
        if handle is not None:
            handle.close()


def _read_lines(arg: str, source: str, lines: Iterator[str], box, alphabet,
                ignore_unknown: bool, defer_clashes: bool = False) -> Iterator[Puzzle]:
    """The puzzles of the lines of one input, classic or variant (its first puzzle line
    says which)."""
    lines, variant = _sniff(arg, lines)
    if variant:
        yield from _variant_puzzles(lines, source, ignore_unknown, box, alphabet)
    else:
        yield from parse_puzzles(lines, source, box=box, alphabet=alphabet,
                                 defer_clashes=defer_clashes)


def _read_inline(arg: str, box, alphabet, ignore_unknown: bool,
                 source: str = "<arg>") -> Iterator[Puzzle]:
    """The puzzles written in one argument: one line is one puzzle; text of several lines is
    read as a file's would be (comments, names, several puzzles). Nothing in it is an error
    of its own ("no puzzles found")."""
    if "\n" in arg.strip():
        found = False
        for puzzle in _read_lines(source, source, iter(arg.splitlines()), box, alphabet,
                                  ignore_unknown):
            found = True
            yield puzzle
        if not found:
            yield no_puzzles(source)
    elif _is_variant_line(arg.strip()):
        yield from _variant_puzzles([arg], source, ignore_unknown, box, alphabet)
    else:
        try:
            yield parse_puzzle(arg, source, box=box, alphabet=alphabet)
        except PuzzleError as error:
            failed = error
            if re.search(_LOOKS_LIKE_PATH, arg):
                failed = MissingInput("no such file (and not a puzzle either)",
                                      source=abridge(arg))
            yield _failed(failed.source or source, failed)


def _read_error(source: str, error: OSError) -> Puzzle:
    return _failed(source, PuzzleError(f"cannot read: {error.strerror}", source=source))


def _iter_inputs(args: list[str], box: tuple[int, int] | None, alphabet: str | None,
                 ignore_unknown: bool, defer_clashes: bool = False) -> Iterator[Puzzle]:
    for arg in args:
        if is_file_input(arg):
            source = "<stdin>" if arg == "-" else arg
            try:
                found = False
                for puzzle in _read_path(arg, box, alphabet, ignore_unknown, defer_clashes):
                    found = True
                    yield puzzle
                if not found:
                    yield no_puzzles(source)
            except PuzzleError as error:
                yield _failed(source, error.located(source=source))
            except OSError as error:
                yield _read_error(source, error)
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
            yield from _read_inline(arg, box, alphabet, ignore_unknown)


def _raising(error: Exception) -> Iterator[str]:
    """No line, then ``error``: what stopped reading ahead, where the lines read end."""
    raise error
    yield  # pragma: no cover - makes this a generator


class Inputs:
    """The puzzles of command-line arguments: an iterator of :class:`Puzzle` (parsed here), or,
    before the first one is taken, :meth:`chunks` for parsing in worker processes."""

    def __init__(self, args: list[str], box: tuple[int, int] | None, alphabet: str | None,
                 ignore_unknown: bool = False) -> None:
        self.args, self.box, self.alphabet = args, box, alphabet
        self.ignore_unknown = ignore_unknown
        #: the files' one-liners come with their givens unchecked for a clash
        #: (:attr:`~satdoku.model.puzzle.Puzzle.unchecked`): a task that checks them itself
        #: sets this before the first puzzle is taken
        self.defer_clashes = False
        self._puzzles: Iterator[Puzzle] | None = None
        self._ahead: tuple[int | None] | None = None

    def ahead(self) -> int | None:
        """How many puzzles the inputs hold, up to 2 (two or more), read ahead once without
        taking them from the run; None when an input cannot be read again (stdin, a pipe)."""
        if self._ahead is None:
            self._ahead = (count_ahead(self.args, box=self.box, alphabet=self.alphabet,
                                       ignore_unknown=self.ignore_unknown),)
        return self._ahead[0]

    @property
    def started(self) -> bool:
        return self._puzzles is not None

    def __iter__(self) -> "Inputs":
        return self

    def __next__(self) -> Puzzle:
        if self._puzzles is None:
            self._puzzles = timed(_iter_inputs(self.args, self.box, self.alphabet,
                                                self.ignore_unknown, self.defer_clashes))
        return next(self._puzzles)

    def close(self) -> None:
        if self._puzzles is not None:
            self._puzzles.close()  # type: ignore[attr-defined]

    def chunks(self, lines: int) -> Iterator[LineChunk | ParsedChunk]:
        """The inputs in order as pieces: :class:`LineChunk` of about ``lines`` raw lines of
        classic puzzles, cut where :class:`~satdoku.io.text.LineSplitter` allows (the parent
        only reads and cuts), and :class:`ParsedChunk` of what the parent parsed itself
        (inline puzzles, variant files, errors, inputs it could not cut). Parsing every piece
        in order gives exactly the puzzles of iterating this object (numbered per input by
        the caller, from the tallies)."""
        if self._puzzles is not None:
            raise RuntimeError("puzzles were taken already")
        self._puzzles = iter(())
        for arg in self.args:
            if is_file_input(arg):
                yield from self._file_chunks(arg, lines)
            else:
                yield ParsedChunk(list(timed(_iter_inputs([arg], self.box, self.alphabet,
                                                           self.ignore_unknown))))

    def _file_chunks(self, arg: str, size: int) -> Iterator[LineChunk | ParsedChunk]:
        source = "<stdin>" if arg == "-" else arg
        try:
            handle, stream = _open(arg, source)
        except PuzzleError as error:
            yield ParsedChunk([_failed(source, error.located(source=source))])
            return
        try:
            yield from self._read_chunks(arg, source, read_lines(stream, source), size)
        finally:
            if handle is not None:
                handle.close()

    def _read_chunks(self, arg: str, source: str, raw: Iterator[str],
                     size: int) -> Iterator[LineChunk | ParsedChunk]:
        from .lines import LineSplitter, parse_chunk
        try:
            lines, variant = _sniff(arg, raw)
        except PuzzleError as error:
            yield ParsedChunk([_failed(source, error.located(source=source))])
            return
        except OSError as error:
            yield ParsedChunk([_read_error(source, error)])
            return
        if variant:  # JSON and f-puzzles: parsed here
            puzzles = _variant_puzzles(lines, source, self.ignore_unknown, self.box,
                                       self.alphabet)
            yield from self._parse_here(puzzles, source, size)
            return
        splitter = LineSplitter(self.box, self.alphabet)
        feed = splitter.feed
        tally = Tally()
        chunk = LineChunk(source, 1, [], tally=tally)
        chars = 0  # in the chunk's lines
        since_cut = 0  # characters since the last cut: about one puzzle's cells
        work = 0.0  # puzzle_work() of the chunk's puzzles, guessed from their characters
        block: list[str] = []  # lines read ahead: a run of one-liners is taken whole
        at = 0  # how many of them are taken
        failure: Exception | None = None  # what stopped the reading ahead, after the block
        try:
            while True:
                if at == len(block):
                    if failure is not None:
                        raise failure
                    # the line that fills the chunk is fed alone, so cuts fall where they did
                    room = size - len(chunk.lines) - 1
                    block, failure = read_ahead(lines, max(1, min(PLAIN_LINES, room)))
                    at = 0
                    if not block:
                        if failure is not None:
                            raise failure
                        break
                    length = (splitter.feed_plain(block)
                              if len(block) > 1 and failure is None else 0)
                    if length:
                        k = len(block)
                        gained = puzzle_work(since_cut + length) + (k - 1) * puzzle_work(length)
                        if chars + k * length < CHUNK_CHARS and work + gained < size:
                            chunk.lines.extend(block)  # k cuts, none of which ends the chunk
                            chars += k * length
                            work += gained
                            since_cut, at = 0, k
                            continue
                line = block[at]
                at += 1
                chunk.lines.append(line)
                chars += len(line)
                since_cut += len(line)
                if feed(line):
                    work += puzzle_work(since_cut)
                    since_cut = 0
                    if len(chunk.lines) >= size or chars >= CHUNK_CHARS or work >= size:
                        yield chunk
                        chunk = LineChunk(source, chunk.first_line + len(chunk.lines), [],
                                          splitter.comment, tally=tally)
                        chars = 0
                        work = 0.0
                elif len(chunk.lines) >= MAX_UNCUT * size or chars >= MAX_UNCUT * CHUNK_CHARS:
                    # No cut in sight (multi-line grids): the rest is parsed here.
                    tail = lines if failure is None else _raising(failure)
                    yield from self._parse_here(
                        parse_chunk(itertools.chain(chunk.lines, block[at:], tail), source,
                                    first_line=chunk.first_line, comment=chunk.comment,
                                    box=self.box, alphabet=self.alphabet),
                        source, size, tally)
                    return
        except (PuzzleError, OSError) as error:  # a line too long, or a read error: it stops
            yield chunk  # unfinished, as the whole stream leaves it
            yield ParsedChunk([_failed(source, error.located(source=source))
                               if isinstance(error, PuzzleError) else _read_error(source, error)])
            return
        chunk.finish = chunk.last = True
        yield chunk

    @staticmethod
    def _parse_here(puzzles: Iterator[Puzzle], source: str, size: int,
                    tally: Tally | None = None) -> Iterator[LineChunk | ParsedChunk]:
        """``puzzles`` parsed here, in pieces of ``size``, then what ends the input as one job
        ends it: the error that stopped reading, or "no puzzles found" (told by the caller
        from ``tally`` when workers parsed the start of the input)."""
        parsed: list[Puzzle] = []
        found = 0
        try:
            for puzzle in timed(puzzles):
                parsed.append(puzzle)
                found += 1
                if len(parsed) >= size:
                    yield ParsedChunk(parsed, tally)
                    parsed = []
        except (PuzzleError, OSError) as error:
            yield ParsedChunk(parsed, tally)
            yield ParsedChunk([_failed(source, error.located(source=source))
                               if isinstance(error, PuzzleError) else _read_error(source, error)])
            return
        if parsed:
            yield ParsedChunk(parsed, tally)
        if tally is not None:
            yield LineChunk(source, 0, [], last=True, tally=tally)
        elif not found:
            yield ParsedChunk([no_puzzles(source)])


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


def single_puzzle(puzzles: Iterable[Puzzle]) -> tuple[bool, Iterator[Puzzle]]:
    """Whether ``puzzles`` holds exactly one puzzle, and the same puzzles to read again
    (reads at most two ahead).

    >>> one, again = single_puzzle(iter(["a"]))
    >>> one, list(again)
    (True, ['a'])
    """
    iterator = iter(puzzles)
    head = list(itertools.islice(iterator, 2))
    return len(head) == 1, itertools.chain(head, iterator)


def count_ahead(args: list[str], *, box: tuple[int, int] | None = None,
                alphabet: str | None = None, ignore_unknown: bool = False,
                most: int = 2) -> int | None:
    """How many puzzles (up to ``most``) the command-line inputs hold, read ahead without
    taking them from the run; None when an input cannot be read again (stdin, a pipe)."""
    if not args or not all(not is_file_input(a) or (a != "-" and os.path.isfile(a))
                           for a in args):
        return None
    ahead = iter_inputs(args, box=box, alphabet=alphabet, ignore_unknown=ignore_unknown)
    try:
        return len(list(itertools.islice(ahead, most)))
    finally:
        ahead.close()


def holds_one_puzzle(args: list[str], *, box: tuple[int, int] | None = None,
                     alphabet: str | None = None, ignore_unknown: bool = False) -> bool:
    """Whether the command-line inputs hold exactly one puzzle, read ahead (:func:`count_ahead`;
    stdin or a pipe: False)."""
    return count_ahead(args, box=box, alphabet=alphabet, ignore_unknown=ignore_unknown) == 1


def read_puzzle(text: str, *, box: tuple[int, int] | None = None, alphabet: str | None = None,
                ignore_unknown: bool = False, source: str = "<arg>") -> Puzzle:
    """The one puzzle written in ``text``, in any form a command takes inline: classic text
    (one line or several), satdoku variant JSON, an f-puzzles link, string or JSON, a SudokuPad
    link. Never a file name (see :func:`iter_inputs`).

    Raises:
        PuzzleError: ``text`` is no puzzle, or holds several (saying where and what).

    >>> read_puzzle('{"size": 4, "constraints": [{"type": "killer", "cells": ["r1c1", "r1c2"], '
    ...             '"sum": 3}]}').constraints[0].type
    'killer'
    """
    puzzles = list(_read_inline(text, box, alphabet, ignore_unknown, source))
    if len(puzzles) != 1:
        raise PuzzleError(f"holds {len(puzzles)} puzzles, not one", source=source)
    puzzle = puzzles[0]
    if puzzle.error is not None:
        raise puzzle.error
    return puzzle
