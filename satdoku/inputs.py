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
from typing import Iterable, Iterator

from .errors import PuzzleError
from .formats import Puzzle, alphabet_for, parse_puzzle, parse_puzzles, read_lines

__all__ = ["iter_inputs", "is_file_input", "count_lines"]

_LOOKS_LIKE_PATH = re.compile(r"[/\\]|\.[A-Za-z]{2,5}$|^[A-Za-z][A-Za-z_-]*$")


def is_file_input(arg: str) -> bool:
    """True when ``arg`` names stdin or an existing path that is not a folder."""
    return arg == "-" or (os.path.exists(arg) and not os.path.isdir(arg))


def _failed(source: str, error: PuzzleError) -> Puzzle:
    return Puzzle(grid=None, source=source, line=error.line or 0, index=0, name=None,
                  alphabet=None, error=error)


def iter_inputs(args: Iterable[str], *, box: tuple[int, int] | None = None,
                alphabet: str | None = None, ignore_unknown: bool = False) -> Iterator[Puzzle]:
    """Every puzzle of every argument, in order; no arguments means stdin.

    Classic puzzles in any format :mod:`satdoku.formats` reads; variant puzzles as satdoku
    variant JSON (Lines) or f-puzzles links, strings and JSON (:mod:`satdoku.variant`), told
    apart by the file name (``.json``, ``.jsonl``) or by the first line that is not a comment.
    ``ignore_unknown`` lets an f-puzzles import through what satdoku cannot use (the puzzle's
    ``warnings`` say what). Each puzzle's ``parse_ms`` is the time spent reading and parsing it.
    """
    puzzles = _iter_inputs(list(args) or ["-"], box, alphabet, ignore_unknown)
    clock = time.perf_counter
    while True:
        start = clock()
        puzzle = next(puzzles, None)
        if puzzle is None:
            return
        puzzle.parse_ms = (clock() - start) * 1000
        yield puzzle


def _from_variant(entry) -> Puzzle:
    """The :class:`Puzzle` of a :class:`~satdoku.variant.VariantEntry`."""
    p = entry.puzzle
    if p is None:
        return Puzzle(None, entry.source, entry.line, entry.index, error=entry.error)
    return Puzzle(p.givens, entry.source, entry.line, entry.index, name=p.name,
                  alphabet=alphabet_for(p.geometry.size), constraints=p.constraints,
                  warnings=tuple(entry.warnings))


def _is_variant_line(text: str) -> bool:
    from .fpuzzles import looks_like_fpuzzles
    return text.startswith("{") or looks_like_fpuzzles(text)


def _read_path(arg: str, box, alphabet, ignore_unknown: bool) -> Iterator[Puzzle]:
    """The puzzles of a file (``'-'``: stdin), classic or variant, streamed."""
    source = "<stdin>" if arg == "-" else arg
    if arg == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)
    else:
        try:
            stream = open(arg, "rb")
        except OSError as exc:
            raise PuzzleError(f"cannot read: {exc.strerror or exc}", source=source) from None
    try:
        lines = read_lines(stream, source)
        head: list[str] = []
        first = ""
        for line in lines:
            head.append(line)
            first = line.strip()
            if first and not first.startswith("#"):
                break
        chained = itertools.chain(head, lines)
        if arg.endswith((".json", ".jsonl")) or (first and _is_variant_line(first)):
            from .variant import parse_variants
            for entry in parse_variants(chained, source, ignore_unknown=ignore_unknown):
                yield _from_variant(entry)
        else:
            yield from parse_puzzles(chained, source, box=box, alphabet=alphabet)
    finally:
        if arg != "-":
            stream.close()


def _iter_inputs(args: list[str], box: tuple[int, int] | None, alphabet: str | None,
                 ignore_unknown: bool) -> Iterator[Puzzle]:
    for arg in args:
        if is_file_input(arg):
            source = "<stdin>" if arg == "-" else arg
            try:
                found = False
                for puzzle in _read_path(arg, box, alphabet, ignore_unknown):
                    found = True
                    yield puzzle
                if not found:
                    yield _failed(source, PuzzleError("no puzzles found", source=source))
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
        elif _is_variant_line(arg.strip()):
            from .variant import parse_variants
            for entry in parse_variants([arg], "<arg>", ignore_unknown=ignore_unknown):
                yield _from_variant(entry)
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
