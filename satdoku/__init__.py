"""satdoku: solve Sudoku of any size by encoding it to SAT, cross-checked by a native solver.

The library calls, one per command; each takes a puzzle in any form the command line takes
inline: classic text (one line or several), satdoku variant JSON (text or a dict), an f-puzzles
link, string or JSON, a SudokuPad link, or a :class:`~satdoku.model.grid.Grid` or
:class:`~satdoku.model.puzzle.Puzzle` already made. A classic puzzle is a puzzle with no rules;
every call serves variant puzzles too. Each call imports what it needs when called, so
``import satdoku`` stays cheap:

>>> import satdoku
>>> satdoku.solve("1.3..4.2.34.4.23").status
'solved'
>>> x = {"type": "diagonal", "direction": "-"}, {"type": "diagonal", "direction": "+"}
>>> satdoku.count({"size": 4, "givens": {"r1c1": 1}, "constraints": x}).count
2
>>> satdoku.rate("1..4.4..2..3...1").label
'easy'

Errors are :mod:`satdoku.errors` classes: a puzzle that cannot be read raises
:class:`~satdoku.errors.PuzzleError` naming the line and cell, a bad option (a time limit that
is not above 0, a limit that is no whole number, a box that is no pair)
:class:`~satdoku.errors.OptionError`, as the command line refuses them. Every call is typed
(``mypy --strict`` checks this module in the tests).
"""

from __future__ import annotations

import itertools
import os

from .model import display as _display
from .version import __version__

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Iterator, Mapping, TypeAlias, Union
    from .cnf.formula import Formula
    from .cnf.reduced import ReducedFormula
    from .model.grid import Grid
    from .model.puzzle import Puzzle
    from .model.result import Result
    from .tasks.candidates import Candidates
    from .tasks.explain import Explanation
    from .tasks.generate import Generated
    from .tasks.rate import Rating

__all__ = ["read", "puzzles", "parse", "solve", "count", "encode", "decode", "explain", "candidates",
           "generate", "rate", "PuzzleLike", "__version__"]

#: What a puzzle argument may be: text in any form the command line takes inline, the name or
#: path of a file holding one puzzle, a satdoku variant JSON document as a dict, or a grid or
#: puzzle already made. (At run time built on first use by :func:`__getattr__`: ``typing``
#: is not imported at start-up.)
if TYPE_CHECKING:
    PuzzleLike: TypeAlias = Union[str, "os.PathLike[str]", Mapping[str, Any], "Grid", "Puzzle"]


def __dir__() -> list[str]:
    """The public names (what a REPL or a notebook completes): those of ``__all__``."""
    return sorted(__all__)


def __getattr__(name: str) -> Any:
    if name == "PuzzleLike":
        from typing import Any, Mapping, Union

        from .model.grid import Grid
        from .model.puzzle import Puzzle
        made = Union[str, "os.PathLike[str]", Mapping[str, Any], Grid, Puzzle]
        globals()[name] = made
        return made
    raise AttributeError(f"module 'satdoku' has no attribute {name!r}")


def _text(grid: Grid, alphabet: Any = None) -> str:
    from .io.text import format_grid
    return format_grid(grid, "pretty", alphabet)


def _svg(grid: Grid, solution: Grid | None, constraints: Any, alphabet: Any) -> str:
    from .output.svg import render_svg
    return render_svg(grid, solution, constraints=constraints, alphabet=alphabet)


# Grids, puzzles and results print as grids and draw themselves in a notebook.
_display.register(text=_text, svg=_svg)


def _option_error(message: str) -> Exception:
    from .errors import OptionError
    return OptionError(message)


def _seconds(timeout: float | None) -> float | None:
    """``timeout`` when it is a time limit (finite, above 0), else OptionError."""
    from .deadline import check_timeout
    try:
        return check_timeout(timeout)
    except ValueError as error:
        raise _option_error(str(error)) from None


def _whole(name: str, value: object, minimum: int) -> int:
    """``value`` when it is a whole number of at least ``minimum``, else OptionError."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise _option_error(f"{name} must be a whole number of at least {minimum}, "
                            f"not {value!r}")
    return value


def _clause_limit(max_clauses: int | None) -> int:
    from .budget import DEFAULT_MAX_CLAUSES
    if max_clauses is None:
        return DEFAULT_MAX_CLAUSES
    return _whole("max_clauses", max_clauses, 1)


def _box(box: object) -> tuple[int, int] | None:
    """``box`` when it is None or a pair of whole numbers (rows, columns), else OptionError."""
    if box is None:
        return None
    if not (isinstance(box, tuple) and len(box) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in box)):
        raise _option_error(f"box must be a pair of whole numbers like (2, 3), not {box!r}")
    return box[0], box[1]


def _document(puzzle: Mapping[str, Any]) -> str:
    """The JSON text of a document given as a dict (PuzzleError when it cannot be one)."""
    import json
    from .errors import PuzzleError
    try:
        return json.dumps(puzzle)
    except RecursionError:
        raise PuzzleError("the document is nested too deeply to be a puzzle") from None
    except (TypeError, ValueError) as error:
        raise PuzzleError(f"the document is no JSON: {error}") from None


def read(puzzle: PuzzleLike, *, box: tuple[int, int] | None = None,
         alphabet: str | None = None, ignore_unknown: bool = False) -> Puzzle:
    """The :class:`~satdoku.model.puzzle.Puzzle` (grid and rules) of ``puzzle``, in any form
    the module docstring lists. ``ignore_unknown`` lets an f-puzzles or SudokuPad import
    through what satdoku cannot use (its ``warnings`` say what).

    >>> read("1.3..4.2.34.4.23").grid.nclues
    9
    """
    from .errors import PuzzleError
    from .io.inputs import read_puzzle
    from .model.grid import Grid
    from .model.puzzle import Puzzle
    if isinstance(puzzle, Puzzle):
        if puzzle.error is not None:
            raise puzzle.error
        return puzzle
    if isinstance(puzzle, Grid):
        from .model.alphabet import alphabet_for
        return Puzzle(puzzle, "<grid>", 1, 1, alphabet=alphabet_for(puzzle.size))
    from collections.abc import Mapping
    if isinstance(puzzle, Mapping):
        puzzle = _document(puzzle)
    if _is_path(puzzle):
        return _read_file(os.fspath(puzzle), box=_box(box), alphabet=alphabet,  # type: ignore[arg-type]
                          ignore_unknown=ignore_unknown)
    if not isinstance(puzzle, str):
        raise PuzzleError(f"a puzzle is text, a dict, a Grid or a Puzzle, not "
                          f"{type(puzzle).__name__}")
    return read_puzzle(puzzle, box=_box(box), alphabet=alphabet, ignore_unknown=ignore_unknown)


def _is_path(puzzle: object) -> bool:
    """Whether ``puzzle`` names a file: a path, or one line of text that is a file's name."""
    if isinstance(puzzle, os.PathLike):
        return True
    return isinstance(puzzle, str) and "\n" not in puzzle and os.path.isfile(puzzle)


def _read_file(path: str, **reading: Any) -> Puzzle:
    """The one puzzle of the file ``path`` (PuzzleError when it holds none or several)."""
    from .errors import PuzzleError
    found = list(itertools.islice(puzzles(path, **reading), 2))
    if not found:
        raise PuzzleError(f"{path}: holds no puzzle")
    if len(found) > 1:
        raise PuzzleError(f"{path}: holds more than one puzzle; satdoku.puzzles({path!r}) "
                          f"reads them all")
    if found[0].error is not None:
        raise found[0].error
    return found[0]


def puzzles(*sources: str | os.PathLike[str], box: tuple[int, int] | None = None,
            alphabet: str | None = None, ignore_unknown: bool = False) -> Iterator[Puzzle]:
    """Every puzzle of ``sources`` (files, ``-`` for stdin, or puzzles written inline), in
    order, as the command line reads them: a puzzle that cannot be read comes with its
    ``error`` (file, line and cell) and the rest go on.

    >>> [p.line for p in puzzles("puzzles/4x4.txt")]
    [2]
    """
    from .io.inputs import iter_inputs
    return iter_inputs([os.fspath(s) for s in sources], box=_box(box), alphabet=alphabet,
                       ignore_unknown=ignore_unknown)


def _grid(puzzle: Puzzle) -> Grid:
    """The grid of a puzzle :func:`read` gave (it always has one)."""
    assert puzzle.grid is not None
    return puzzle.grid


def parse(text: PuzzleLike, *, box: tuple[int, int] | None = None,
          alphabet: str | None = None) -> Grid:
    """The grid of exactly one puzzle written in ``text`` (its givens; :func:`read` keeps the
    rules of a variant puzzle too).

    >>> parse("1.3..4.2.34.4.23").nclues
    9
    """
    return _grid(read(text, box=box, alphabet=alphabet))


def _answer(command: str, puzzle: PuzzleLike, options: dict[str, Any]) -> Any:
    """What the task of ``command`` makes of ``puzzle`` under ``options``: the library's
    keywords are the command line's options (:mod:`satdoku.tasks.options` declares each once;
    ``box``, ``alphabet`` and ``ignore_unknown`` say how to read ``puzzle``)."""
    from .model.grid import check_givens
    from .errors import PuzzleError
    from .tasks import commands
    from .tasks.options import make_options
    reading = _reading(options)
    cls = getattr(commands, f"{command.capitalize()}Options")
    made = make_options(cls, command, options)
    p = read(puzzle, **reading)
    if p.source == "<grid>":  # a Grid made in code: its givens were never checked
        try:
            check_givens(_grid(p))
        except PuzzleError as error:
            from .records import replace
            p = replace(p, error=error)
    if getattr(made, "portfolio", False) or getattr(made, "cube", 0):
        from .tasks.solvers import racing
        made, _ = racing(made, 1 if getattr(made, "cube", 0) else 0, scheduler=None,
                         single=lambda: True)
    with made.make() as task:
        return task.run(p).result


def solve(puzzle: PuzzleLike, **options: Any) -> Result:
    """A verified :class:`~satdoku.model.result.Result` for ``puzzle`` under its rules. The
    options are ``satdoku solve``'s (:class:`~satdoku.tasks.commands.SolveOptions`):
    ``solver``, ``sat_solver``, ``encoding``, ``amo``, ``max_clauses``, ``timeout`` (seconds
    for every stage), ``unique``, ``check``, ``fresh``, ``stats``, ``portfolio``, ``cube`` (cube-and-conquer
    to that depth, in this process), ``proof`` (a
    folder: an ``unsolvable`` or ``unique`` answer gets a checked DRAT proof there, described
    by ``result.proof``), and ``box``, ``alphabet``, ``ignore_unknown`` to read it.

    >>> solve("1.3..4.2.34.4.23").solution.cells[:4]
    (1, 2, 3, 4)
    """
    result: Result = _answer("solve", puzzle, options)
    return result


def count(puzzle: PuzzleLike, **options: Any) -> Result:
    """:func:`solve` counting up to ``limit`` (2 by default): status ``unique``, ``multiple``
    (``count``) or ``unsolvable``. The options are ``satdoku count``'s
    (:class:`~satdoku.tasks.commands.CountOptions`).

    >>> count("1...............", limit=10).status
    'multiple'
    """
    result: Result = _answer("count", puzzle, options)
    return result


def _reading(options: dict[str, Any]) -> dict[str, Any]:
    """The keywords of ``options`` that say how to read the puzzle (taken out of it)."""
    return {k: options.pop(k) for k in ("box", "alphabet", "ignore_unknown") if k in options}


def _nth(puzzle: PuzzleLike, index: int, reading: dict[str, Any]) -> Puzzle:
    """The ``index``-th puzzle of a file (the one puzzle of anything else, ``index`` 1)."""
    if index == 1 or not _is_path(puzzle):
        return read(puzzle, **reading)
    from .errors import PuzzleError
    found = next(itertools.islice(puzzles(puzzle, **reading), index - 1, None), None)  # type: ignore[arg-type]
    if found is None:
        raise PuzzleError(f"{os.fspath(puzzle)}: has no puzzle number {index}")  # type: ignore[arg-type]
    if found.error is not None:
        raise found.error
    return found


def encode(puzzle: PuzzleLike, encoding: str | None = None, **options: Any
           ) -> Formula | ReducedFormula:
    """The CNF formula of ``puzzle`` and its rules (:func:`satdoku.cnf.formula.encode`; the
    encoding by grid size when none is named); write it with
    :func:`satdoku.cnf.export.write_dimacs`. The options are ``satdoku encode``'s
    (:class:`~satdoku.tasks.commands.EncodeOptions`: ``amo``, ``max_clauses``, ``clues``
    ``"units"`` or ``"none"``, ``index`` of a puzzle in a file).

    >>> encode("1.3..4.2.34.4.23").nvars
    64
    """
    from .tasks.other_commands import EncodeOptions
    from .tasks.options import make_options
    reading = _reading(options)
    if encoding is not None:
        options["encoding"] = encoding
    made = make_options(EncodeOptions, "encode", options)
    formula: Formula | ReducedFormula = made.formula(_nth(puzzle, made.index, reading))
    return formula


def decode(model: str, puzzle: PuzzleLike, encoding: str | None = None,
           **options: Any) -> Grid:
    """The verified solution in a SAT solver's output ``model`` (text) for the CNF that
    :func:`encode` wrote for ``puzzle``. The options are ``satdoku decode``'s
    (:class:`~satdoku.tasks.commands.DecodeOptions`: ``amo``, ``index``, ``proof``). An
    UNSAT answer raises :class:`~satdoku.io.dimacs.UnsatisfiableError`; with ``proof`` (the
    DRAT file the solver wrote) only once the proof is checked (its ``proof`` says by whom;
    a rejected one is a ModelError)."""
    from .cnf.decode import decode_solution, model_formula
    from .errors import ModelError
    from .io.dimacs import UnsatisfiableError
    from .tasks.other_commands import DecodeOptions
    from .tasks.options import make_options
    if not isinstance(model, str):
        raise ModelError(f"a model is the text a SAT solver wrote, not {type(model).__name__}")
    reading = _reading(options)
    if encoding is not None:
        options["encoding"] = encoding
    made = make_options(DecodeOptions, "decode", options)
    p = _nth(puzzle, made.index, reading)
    grid = _grid(p)
    formula = model_formula(grid, made.encoding, made.amo, p.constraints)
    try:
        return decode_solution(model, grid, formula, constraints=p.constraints)
    except UnsatisfiableError as error:
        if made.proof is None:
            raise
        from .sat.proofs import backed
        raise backed(error, grid, made.proof, encoding=made.encoding, amo=made.amo,
                     constraints=p.constraints) from None


def explain(puzzle: PuzzleLike, **options: Any) -> Explanation:
    """Why ``puzzle`` is unsolvable (a minimal core of givens and rules), ambiguous or how hard
    it is (its ``rating``, as :func:`rate` gives it). The options are ``satdoku explain``'s
    (:class:`~satdoku.tasks.commands.ExplainOptions`): ``steps`` (the steps a person could
    follow, at most ``max_rules`` rules a step), ``redundant`` (which givens could go),
    ``fix`` and ``fix_rules``, and the SAT options and ``timeout``.

    >>> explain("123." "...4" "...." "....").status
    'unsolvable'
    """
    result: Explanation = _answer("explain", puzzle, options)
    return result


def candidates(puzzle: PuzzleLike, **options: Any) -> Candidates:
    """The true candidates of every empty cell of ``puzzle``: the digits some solution puts
    there. The options are ``satdoku candidates``'s
    (:class:`~satdoku.tasks.commands.CandidatesOptions`).

    >>> candidates("1..." "...." "...." "...1").digits[1]
    [2, 3, 4]
    """
    result: Candidates = _answer("candidates", puzzle, options)
    return result


def generate(box: tuple[int, int] | None = None, **options: Any) -> Generated:
    """One puzzle with exactly one solution. The options are ``satdoku generate``'s
    (:class:`~satdoku.tasks.commands.GenerateOptions`): ``box`` (3x3 by default), ``seed``
    (None: a random one), ``symmetry``, ``minimal``, ``max_clues``, ``attempts``,
    ``difficulty``, ``alphabet``, ``rules`` (a variant puzzle whose grid and rules it keeps),
    the SAT options and ``timeout``.

    >>> generate((2, 2), seed=1).puzzle.size
    4
    """
    from .tasks.other_commands import GenerateOptions
    from .tasks.options import make_options
    if box is not None:
        options["box"] = box
    made = make_options(GenerateOptions, "generate", options)
    with made.make() as generator:
        result: Generated = generator.generate()
        return result


def rate(puzzle: PuzzleLike, **options: Any) -> Rating:
    """The difficulty :class:`~satdoku.tasks.rate.Rating` of ``puzzle`` under its rules. The
    options are ``satdoku rate``'s (:class:`~satdoku.tasks.commands.RateOptions`)."""
    result: Rating = _answer("rate", puzzle, options)
    return result
