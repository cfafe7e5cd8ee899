"""One loop for every command: a stream of puzzles in, one outcome per puzzle out, in input order.

:func:`stream` runs any task (:mod:`satdoku.tasks.base`: solve, count, explain, candidates,
rate) over puzzles: here, on a pool of worker processes, or on a Dask cluster. A bad puzzle
becomes the task's ``invalid`` outcome and the stream goes on. One task object serves the whole
stream (one per worker process), so the SAT backend builds its base formula once per geometry
and answers every puzzle with its clues as assumptions. Each puzzle's time limit starts when
reading it began.

With several processes and command-line inputs (:class:`satdoku.io.inputs.Inputs`), the parent
only reads the files and cuts them into chunks of raw lines where a cut cannot change what they
say (:class:`satdoku.io.lines.LineSplitter`); the workers parse and run the task, and the parent
puts the puzzles back together with their source, line and index, in input order. Workers get
each parsed puzzle's geometry, digits, parse time and rules, and send back what the task packs:
pickling whole puzzles and results cost the parent about as much as parsing. Given a
``render`` (the command's formatter: outcome to text, stderr lines and exit code), the workers
also write their puzzles' outcomes out, and the parent gets one :class:`~satdoku.tasks.base.Block`
a chunk: one write, and no puzzle or result to rebuild (the parent was the bottleneck of
``--jobs 2``: formatting, unpacking results and the pipe; docs/performance.md).
"""

from __future__ import annotations

import itertools

from ..errors import PuzzleError
from ..io.inputs import Inputs, no_puzzles, timed
from ..io.lines import LineChunk, ParsedChunk, parse_chunk, puzzle_work
from ..model.alphabet import Alphabet
from ..model.geometry import Geometry
from ..model.grid import Grid, Rule, pack_cells
from ..model.puzzle import Puzzle
from ..tasks.base import Block, Outcome, Task, TaskOptions

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator, TypeAlias, overload

if not TYPE_CHECKING:  # at run time the overloads' stubs are replaced by the function
    def overload(function):
        return function

__all__ = ["stream", "run_here"]


def run_here(puzzles: Iterable[Puzzle], options: TaskOptions) -> Iterator[Outcome]:
    """The task on each puzzle in turn, here, yielding each outcome as soon as it is known
    (a task whose :attr:`~satdoku.tasks.base.Task.batch` is above 1 gets that many puzzles at
    a time, and still yields each outcome as soon as it has it)."""
    task = options.make()
    if task.checks_clashes and isinstance(puzzles, Inputs) and not puzzles.started:
        puzzles.defer_clashes = True  # the task checks the givens, in bulk where it can
    try:
        puzzles = iter(puzzles)
        while True:
            if task.batch <= 1:
                puzzle = next(puzzles, None)
                if puzzle is None:
                    return
                yield task.run(puzzle)
                continue
            chunk = list(itertools.islice(puzzles, task.batch))
            if not chunk:
                return
            yield from task.run_many(chunk)
    finally:
        task.close()


Render: TypeAlias = "Callable[[Outcome], tuple[str, list[str], int]]"


@overload
def stream(puzzles: Iterable[Puzzle], options: TaskOptions, *, jobs: int = 1,
           scheduler: str | None = None, chunk_size: int | None = None,
           render: None = None) -> Iterator[Outcome]: ...


@overload
def stream(puzzles: Iterable[Puzzle], options: TaskOptions, *, jobs: int = 1,
           scheduler: str | None = None, chunk_size: int | None = None,
           render: Render) -> Iterator[Outcome | Block]: ...


def stream(puzzles: Iterable[Puzzle], options: TaskOptions, *, jobs: int = 1,
           scheduler: str | None = None, chunk_size: int | None = None,
           render: Render | None = None) -> Iterator[Outcome | Block]:
    """Outcomes of ``puzzles`` in input order: on a Dask cluster when ``scheduler`` is given,
    on a pool of ``jobs`` processes (0: one per core) when ``jobs != 1``, else here.

    Command-line inputs (:func:`satdoku.io.inputs.iter_inputs`) not yet started are parsed in
    the workers, ``chunk_size`` raw lines a task; other iterables are parsed here, and sent
    ``chunk_size`` puzzles a task. Either way a task holds fewer big grids
    (:func:`satdoku.io.lines.puzzle_work`: one 25x25 puzzle a task).

    ``render`` (picklable; the same function the caller formats outcomes with) makes the
    workers that parse a chunk of lines also write its outcomes out: such a chunk comes back
    as one :class:`~satdoku.tasks.base.Block` in place of its outcomes (the others stay
    outcomes).

    >>> from satdoku.io.text import parse_puzzles
    >>> from satdoku.tasks.solvers import SolveOptions
    >>> [o.result.status for o in stream(parse_puzzles(["1.3..4.2.34.4.23"]), SolveOptions(),
    ...                                  jobs=2)]
    ['solved']
    """
    if scheduler is not None:
        from .parallel import DEFAULT_CHUNK_SIZE, ordered_dask
        return ordered_dask(puzzles, scheduler=scheduler, work=_dask_chunk, args=(options,),
                            pack=_pack, join=_Joiner(options), weight=_work,
                            chunk_size=chunk_size or DEFAULT_CHUNK_SIZE)
    if jobs != 1:
        from ..io.inputs import Inputs
        from .parallel import DEFAULT_CHUNK_SIZE, ordered_pool, worker_count
        if chunk_size is None and options.chunk_lines and isinstance(puzzles, Inputs):
            chunk_size = _chunk_lines(puzzles, options.chunk_lines, worker_count(jobs))
        chunk_size = chunk_size or DEFAULT_CHUNK_SIZE
        if isinstance(puzzles, Inputs) and not puzzles.started:
            return ordered_pool(puzzles.chunks(chunk_size), jobs=jobs, init=_init_worker,
                                initargs=(options, render), work=_pieces,
                                pack=_PiecePacker(puzzles.box, puzzles.alphabet),
                                join=_PieceJoiner(options), chunk_size=1)
        return ordered_pool(puzzles, jobs=jobs, init=_init_worker, initargs=(options,),
                            work=_chunk, pack=_pack, join=_Joiner(options),
                            chunk_size=chunk_size, weight=_work)
    return run_here(puzzles, options)


#: The fewest lines :func:`_chunk_lines` cuts a small input into: 375 hard puzzles went in two
#: chunks of the default 256 lines and 119, one worker idle half the run.
_FEWEST_LINES = 32


def _chunk_lines(puzzles: Any, most: int, workers: int) -> int | None:
    """Lines a worker gets at a time when the task asks for up to ``most``: as many as keep
    every worker busy on the input's lines (four chunks each at least), never fewer than
    :data:`_FEWEST_LINES` (None: the stream's default, for inputs not counted)."""
    from ..io.inputs import count_lines
    total = count_lines(puzzles.args)
    if not total:  # stdin: a task that asks for few lines (a slow one) gets them still
        return most if most <= _FEWEST_LINES else None
    return max(_FEWEST_LINES, min(most, total // (4 * workers)))


# In a worker process: the task, made once.

_worker: Task | None = None  # this pool worker's task
_render: Render | None = None  # and how it writes outcomes out (None: it sends them back)
_dask_workers: dict[Any, Task] = {}  # per options (a Dask worker lives long)


def _init_worker(options: TaskOptions, render: Render | None = None) -> None:
    global _worker, _render
    _worker = options.make()
    _render = render


def _pack(puzzle: Puzzle) -> tuple | None:
    """A parsed puzzle as a worker needs it (None: unreadable, answered by the parent; givens
    read unchecked are checked here first: a worker's task may not check them)."""
    grid = puzzle.check_clashes().grid
    if puzzle.error is not None or grid is None:
        return None
    return (grid.geometry, pack_cells(grid.cells, grid.size), puzzle.parse_ms,
            puzzle.constraints, puzzle.alphabet)


def _unpacked(item: tuple) -> Puzzle:
    geo, data, parse_ms, constraints, alphabet = item
    return Puzzle(Grid(geo, tuple(data)), "", 0, 0, alphabet=alphabet, parse_ms=parse_ms,
                  constraints=constraints)


def _run_packed(task: Task, packed: list[tuple | None]) -> list[Any]:
    puzzles = [_unpacked(item) for item in packed if item is not None]
    outcomes = iter(task.run_many(puzzles))
    return [None if item is None else task.pack(next(outcomes)) for item in packed]


def _chunk(packed: list[tuple | None]) -> list[Any]:
    assert _worker is not None, "worker not initialised"
    return _run_packed(_worker, packed)


def _dask_chunk(options: TaskOptions, packed: list[tuple | None]) -> list[Any]:
    task = _dask_workers.get(options)
    if task is None:
        task = _dask_workers[options] = options.make()
    return _run_packed(task, packed)


class _Joiner:
    """Puts a chunk's puzzles and their packed outcomes back together (in the parent, where
    the task's class answers: no task, so no solver, is made here)."""

    def __init__(self, options: TaskOptions) -> None:
        self.task = options.task_class()

    def __call__(self, chunk: list[Puzzle], results: list[Any]) -> Iterator[Outcome | Block]:
        task = self.task
        for puzzle, item in zip(chunk, results):
            yield task.invalid(puzzle) if item is None else task.unpack(puzzle, item)


# Parsing in the workers: the pieces of Inputs.chunks, one per task. A piece of raw lines comes
# back as one tuple per puzzle (line, index, name, alphabet, error, geometry, digits,
# parse_ms, rules, the packed outcome or None).
_PieceRow: TypeAlias = ("tuple[int, int, str | None, Alphabet | None, PuzzleError | None, "
                         "Geometry | None, bytes | list[int] | None, float, tuple[Rule, ...], Any]")

class _PiecePacker:
    """Packs pieces for the workers, with the box and alphabet the puzzles are read with."""

    def __init__(self, box: tuple[int, int] | None, alphabet: str | None) -> None:
        self.reading = (box, alphabet)

    def __call__(self, piece: LineChunk | ParsedChunk) -> tuple:
        if isinstance(piece, LineChunk):
            return ("lines", piece.source, piece.first_line, piece.lines, piece.comment,
                    piece.finish, self.reading)
        return ("parsed", [_pack(p) for p in piece.puzzles])


def _pieces(packed: list[tuple]) -> list[list[_PieceRow] | list[Any] | Block]:
    assert _worker is not None, "worker not initialised"
    return [_parse_and_run(_worker, item, _render) if item[0] == "lines" else
            _run_packed(_worker, item[1]) for item in packed]


def _parse_and_run(task: Task, item: tuple,
                   render: Render | None = None) -> list[_PieceRow] | Block:
    _, source, first_line, lines, comment, finish, (box, alphabet) = item
    puzzles = parse_chunk(lines, source, first_line=first_line, comment=comment,
                          finish=finish, box=box, alphabet=alphabet)
    parsed = list(timed(puzzles))
    outcomes = iter(task.run_many([p for p in parsed
                                   if p.error is None and p.grid is not None]))
    if render is not None:
        return _block(task, parsed, outcomes, render, source, first_line)
    out: list[_PieceRow] = []
    for puzzle in parsed:
        grid = puzzle.grid
        if puzzle.error is not None or grid is None:
            out.append((puzzle.line, puzzle.index, puzzle.name, puzzle.alphabet, puzzle.error,
                        None, None, puzzle.parse_ms, (), None))
            continue
        out.append((puzzle.line, puzzle.index, puzzle.name, puzzle.alphabet, None,
                    grid.geometry, pack_cells(grid.cells, grid.size), puzzle.parse_ms,
                    puzzle.constraints, task.pack(next(outcomes))))
    return out


def _block(task: Task, parsed: list[Puzzle], outcomes: Iterator[Outcome], render: Render,
           source: str, first_line: int) -> Block:
    """The outcomes of a chunk's ``parsed`` puzzles (``outcomes``: of the readable ones, in
    order) written out by ``render``."""
    texts: list[str] = []
    notes: list[str] = []
    code = 0
    for puzzle in parsed:
        readable = puzzle.error is None and puzzle.grid is not None
        text, lines, status = render(next(outcomes) if readable else task.invalid(puzzle))
        texts.append(text)
        if lines:
            notes.extend(lines)
        code = max(code, status)
    return Block("".join(texts), notes, code, len(parsed), source,
                 parsed[-1].line if parsed else first_line)


class _PieceJoiner(_Joiner):
    """Puts the pieces back together, numbering each input's puzzles from its tally."""

    def __call__(self, chunk: list, results: list[Any]) -> Iterator[Outcome | Block]:
        task = self.task
        for piece, items in zip(chunk, results):
            tally = piece.tally
            if not isinstance(piece, LineChunk):
                first = tally.found + 1 if tally is not None else 0
                for i, (puzzle, item) in enumerate(zip(piece.puzzles, items), first):
                    if tally is not None:  # parsed here after the workers parsed the start
                        puzzle.index = i
                    yield task.invalid(puzzle) if item is None else task.unpack(puzzle, item)
                if tally is not None:
                    tally.found += len(piece.puzzles)
                continue
            if isinstance(items, Block):  # written out by the worker
                yield items
                tally.found += items.count
            else:
                yield from self._rows(piece.source, tally.found, items)
                tally.found += len(items)
            if piece.last and not tally.found:
                yield task.invalid(no_puzzles(piece.source))

    def _rows(self, source: str, base: int, items: list[_PieceRow]) -> Iterator[Outcome]:
        task = self.task
        for (line, index, name, alphabet, error, geo, cells, parse_ms, constraints,
             packed) in items:
            grid = None if geo is None or cells is None else Grid(geo, tuple(cells))
            puzzle = Puzzle(grid, source, line, base + index, name, alphabet, error,
                            parse_ms, constraints)
            yield task.invalid(puzzle) if packed is None else task.unpack(puzzle, packed)


def _work(puzzle: Puzzle) -> float:
    """A parsed puzzle's weight in a chunk (see :func:`satdoku.io.lines.puzzle_work`)."""
    return puzzle_work(puzzle.grid.geometry.ncells) if puzzle.grid is not None else 1.0

