"""Turning results into text: ``pretty``, ``line``, ``json`` (JSON Lines) and ``csv``.

One :class:`Report` per command kind (solve and count outcomes here; explanations, ratings,
candidates and generated puzzles in :mod:`satdoku.output.asking`), each with the same four
formats and the same rules:

- every per-puzzle record has ``source``, ``line``, ``name``, ``puzzle`` (null when unknown) and
  ``status`` (one of :data:`satdoku.model.result.STATUSES`), and ``message`` without a ``file:line:``
  prefix (the record has those fields);
- ``json`` writes one object a line; ``csv`` a header, then one row a record with plain values
  (``true``/``false``, times rounded to 0.001 ms, lists as space-separated words, empty for
  none). A CSV cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets
  a leading ``'`` so that spreadsheets do not run it as a formula (the usual rule);
- ``line`` writes one line a puzzle, so outputs line up with inputs; ``pretty`` is for people;
- text from puzzle files (names) is written with control characters escaped (``\\x1b``) in
  every format but JSON (whose own escapes already cover them), so a file cannot drive the
  terminal.

Diagnostics (errors, disagreements, stats in the line format) are returned separately by
:meth:`Report.diagnostics`, for stderr.
"""

from __future__ import annotations

import re

from ..model.alphabet import Alphabet, alphabet_for
from ..model.puzzle import Puzzle
from ..model.result import EXIT_WRONG, exit_code
from ..io.text import format_grid, format_regions
from ..model.grid import Grid

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import AbstractSet, Any, Iterable

__all__ = ["FORMATS", "PICTURE_FORMATS", "STEP_FORMATS", "DOCUMENT_FORMATS", "STAT_KEYS", "painter", "Report", "NoPicture",
           "OutcomeReport", "place", "printable", "csv_row", "puzzle_fields", "marked_grid", "constraint_lines",
           "warning_lines", "grid_text", "plural", "cell_list"]

FORMATS = ("pretty", "line", "json", "csv")
#: Formats with a picture per puzzle (solve, count, explain, generate).
PICTURE_FORMATS = FORMATS + ("svg",)
#: explain's formats: a picture, or a page that steps through the path (``html``).
STEP_FORMATS = PICTURE_FORMATS + ("html",)
#: Formats that make one document per puzzle (a file each, named by the format, in a folder).
DOCUMENT_FORMATS = ("svg", "html")

# Terminal colours of the pretty format (as in the pictures: givens strong, solved digits blue,
# marked cells on yellow); only ever used on a terminal (see :class:`Report`).
_GIVEN, _SOLVED, _MARKED, _RESET = "\x1b[1m", "\x1b[34m", "\x1b[30;43m", "\x1b[0m"

#: Stats of ``--stats``, in order (each solver fills the ones that apply to it).
STAT_KEYS = ("parse_ms", "encode_ms", "load_ms", "solve_ms", "cpu_ms", "verify_ms",
             "variables", "clauses", "conflicts", "decisions", "propagations",
             "nodes", "guesses", "backtracks", "no_guess")

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with control characters written as escapes, safe to print on a terminal.

    >>> printable("evil\\x1b]0;title\\x07name")
    'evil\\\\x1b]0;title\\\\x07name'
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, (list, tuple)):
        value = " ".join(str(_csv_value(v)) for v in value)
    if isinstance(value, dict):
        import json
        value = json.dumps(value)
    if isinstance(value, str):
        if value[:1] in ("=", "+", "-", "@", "\t", "\r"):
            value = "'" + value
        return printable(value)
    return value


def csv_row(values: Iterable[Any]) -> str:
    """One CSV line of plain values (see the module docstring), ending in a newline.

    >>> csv_row(["a", None, True, 1.23456, ["r1c1", "r2c2"], "=1+1"])
    "a,,true,1.235,r1c1 r2c2,'=1+1\\n"
    """
    import csv  # here and json below: only the csv and json formats need them
    import io
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([_csv_value(v) for v in values])
    return buf.getvalue()


def place(puzzle: Puzzle) -> str:
    """Where a puzzle came from, for messages: ``file:line``, or the source alone."""
    return printable(f"{puzzle.source}:{puzzle.line}" if puzzle.line else puzzle.source)


def grid_text(grid: Grid | None, alphabet: Alphabet | None, style: str = "line") -> str | None:
    return None if grid is None else format_grid(grid, style, alphabet)


def puzzle_fields(puzzle: Puzzle | None, invalid: bool = False) -> dict[str, Any]:
    """The fields every per-puzzle record starts with (and, ``invalid``, the whole record of
    a puzzle that could not be read)."""
    if puzzle is None:
        return {"source": None, "line": None, "name": None, "puzzle": None}
    rec: dict[str, Any] = {"source": puzzle.source, "line": puzzle.line or None,
                           "name": puzzle.name, "puzzle": grid_text(puzzle.grid, puzzle.alphabet)}
    if puzzle.constraints:
        geo = puzzle.geometry
        rec["constraints"] = [c.describe(geo) for c in puzzle.constraints]
    if invalid:
        rec.update(status="invalid", message=puzzle.error.detail if puzzle.error else None)
    return rec


def constraint_lines(puzzle: Puzzle, limit: int = 40) -> list[str]:
    """A variant puzzle's rules, one an indented line, for the pretty format."""
    if not puzzle.constraints:
        return []
    geo = puzzle.geometry
    names = [c.describe(geo) for c in puzzle.constraints]
    more = [f"  ... and {len(names) - limit} more"] if len(names) > limit else []
    return [f"rules ({len(names)}):"] + [f"  {printable(n)}" for n in names[:limit]] + more


def warning_lines(puzzle: Puzzle) -> list[str]:
    """What an import left out of a puzzle, for stderr."""
    return [f"{place(puzzle)}: warning: {printable(w)}" for w in puzzle.warnings]


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else many or one + 's'}"


def cell_list(geo, cells: list[int], limit: int = 12) -> str:
    names = ", ".join(geo.cell_name(c) for c in cells[:limit])
    return names + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def painter(givens: Grid | None, marked: AbstractSet[int] = frozenset(), color: bool = False):
    """A ``paint(cell, text)`` for :func:`satdoku.io.text.format_grid`: givens bold, solved
    digits blue, ``marked`` cells on yellow; None without ``color``."""
    if not color:
        return None
    given = givens.cells if givens is not None else ()

    def paint(cell: int, text: str) -> str:
        if cell in marked:
            return f"{_MARKED}{text}{_RESET}"
        if not text.strip(".") or not text.strip():
            return text
        return f"{_GIVEN if given and given[cell] else _SOLVED}{text}{_RESET}"
    return paint


def marked_grid(grid: Grid, marked: set[int], alphabet: Alphabet | None = None,
                color: bool = False) -> str:
    """The pretty grid with the ``marked`` cells' symbols in brackets, others padded (and, with
    ``color``, the marked ones on yellow); cells outside the grid on a last line.

    >>> from satdoku.model.geometry import geometry
    >>> print(marked_grid(Grid(geometry(1, 2), (1, 2, 2, 1)), {0}))
    [1] 2
    ------
     2  1
    """
    alphabet = alphabet or alphabet_for(grid.size, grid.geometry.low)
    symbols = [alphabet.symbol(d) if d else "." for d in grid.cells]
    width = max(map(len, symbols))
    texts = [(f"[{s.rjust(width)}]" if cell in marked else f" {s.rjust(width)} ")
             for cell, s in enumerate(symbols)]
    if color:
        texts = [f"{_MARKED}{t}{_RESET}" if cell in marked else t
                 for cell, t in enumerate(texts)]
    r, c = grid.geometry.band_shape
    h, w = grid.geometry.height, grid.geometry.width
    rule = "+".join(["-" * (c * (width + 2))] * (w // c))
    lines = []
    for row in range(h):
        if row and row % r == 0:
            lines.append(rule)
        cells = texts[row * w:(row + 1) * w]
        lines.append("|".join("".join(cells[j:j + c]) for j in range(0, w, c)).rstrip())
    extra = grid.geometry.extra  # as format_grid writes them, marked ones in brackets too
    if extra:
        lines.append("outside the grid: " + " ".join(
            f"{name}={t.strip() if cell not in marked else t}"
            for name, cell, t in zip(extra, range(h * w, h * w + len(extra)), texts[h * w:])))
    return "\n".join(lines)


class NoPicture(ValueError):
    """A puzzle has no picture of what was asked (``explain --step N`` past its path): that
    puzzle's error, and the batch goes on."""


class Report:
    """Formats the results of one command, one at a time (:meth:`header` first, for CSV).

    Subclasses give ``fields`` (the CSV columns), :meth:`record` (one dict per item, the JSON
    object and the CSV row), :meth:`line` and :meth:`pretty`.
    """

    fields: tuple[str, ...] = ()

    def __init__(self, fmt: str = "pretty", *, stats: bool = False, color: bool = False) -> None:
        if fmt not in STEP_FORMATS:
            raise ValueError(f"unknown format {fmt!r}; choose one of "
                             f"{', '.join(STEP_FORMATS)}")
        self.fmt = fmt
        self.stats = stats
        self.color = color and fmt == "pretty"  # escape codes only ever in pretty text

    def columns(self) -> tuple[str, ...]:
        return self.fields + (STAT_KEYS if self.stats else ())

    def header(self) -> str:
        return csv_row(self.columns()) if self.fmt == "csv" else ""

    def format(self, item: Any) -> str:
        """The text for one result, ending in a newline."""
        if self.fmt == "json":
            import json
            return json.dumps(self.record(item)) + "\n"
        if self.fmt == "csv":
            rec = self.record(item)
            flat = {**rec, **rec.get("stats", {}),
                    **{f"proof_{k}": v for k, v in (rec.get("proof") or {}).items()}}
            return csv_row(flat.get(k) for k in self.columns())
        if self.fmt == "line":
            return printable(self.line(item)) + "\n"
        if self.fmt == "svg":
            return self.picture(item)
        if self.fmt == "html":
            return self.page(item)
        return self.pretty(item)

    def picture(self, item: Any) -> str:
        """One self-contained SVG picture of the result (formats that have one); NoPicture
        when this puzzle has none (the step asked for is past its path)."""
        raise ValueError("--format svg is not offered here")

    def page(self, item: Any) -> str:
        """One self-contained HTML page of the result (``explain``'s steps); NoPicture when
        this puzzle has none."""
        raise ValueError("--format html is not offered here")

    @staticmethod
    def picture_name(puzzle: Puzzle | None, index: int) -> str:
        """The file name (without ``.svg`` or ``.html``) of a puzzle's picture or page in
        an output folder (:meth:`~satdoku.model.puzzle.Puzzle.file_stem`; ``index``: its place
        in the run, or ``puzzle-3`` for no puzzle); the session numbers a second one of the
        same name (``puzzles-12-2``)."""
        return f"puzzle-{index}" if puzzle is None else puzzle.file_stem(index)

    def record(self, item: Any) -> dict[str, Any]:
        raise NotImplementedError

    def line(self, item: Any) -> str:
        raise NotImplementedError

    def pretty(self, item: Any) -> str:
        raise NotImplementedError

    def diagnostics(self, item: Any) -> list[str]:
        """Lines for stderr about one result (none by default)."""
        return []

    def code(self, item: Any) -> int:
        """One result's exit code (0 by default)."""
        return 0

    def render(self, item: Any) -> tuple[str, list[str], int]:
        """One result written out: :meth:`format`, :meth:`diagnostics` and :meth:`code` (what
        a worker of ``--jobs`` sends back for it: :func:`satdoku.run.stream.stream`)."""
        return self.format(item), self.diagnostics(item), self.code(item)


def _stats(result) -> dict[str, Any]:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in result.stats.items()}


class OutcomeReport(Report):
    """``solve`` and ``count``: one :class:`~satdoku.tasks.base.Outcome` per puzzle."""

    fields = ("source", "line", "name", "puzzle", "status", "count", "at_limit", "solution",
              "second", "differing", "solver", "encoding", "time_ms", "message")
    #: The CSV columns of ``--proof`` (the ``proof`` record's fields).
    PROOF_FIELDS = ("proof_claim", "proof_ok", "proof_cnf", "proof_drat", "proof_lrat",
                    "proof_checked_by")

    def __init__(self, fmt: str = "pretty", *, stats: bool = False, color: bool = False,
                 proof: bool = False, multiple_ok: bool = False) -> None:
        super().__init__(fmt, stats=stats, color=color)
        self.proof = proof
        self.multiple_ok = multiple_ok  # count: several solutions is an answer, not a failure

    def code(self, outcome) -> int:
        if outcome.disagreements:
            return EXIT_WRONG
        return exit_code(outcome.result.status, multiple_ok=self.multiple_ok)

    def columns(self) -> tuple[str, ...]:
        return self.fields + (self.PROOF_FIELDS if self.proof else ()) + \
            (STAT_KEYS if self.stats else ())

    def record(self, outcome) -> dict[str, Any]:
        p, r = outcome.puzzle, outcome.result
        alphabet = p.alphabet
        rec = puzzle_fields(p)
        rec.update(status=r.status, count=r.count,
                   at_limit=r.at_limit if r.count is not None else None,
                   solution=grid_text(r.solution, alphabet),
                   second=grid_text(r.second, alphabet),
                   differing=([r.solution.geometry.cell_name(c)
                               for c in r.solution.differences(r.second)]
                              if r.second is not None else None),
                   solver=r.solver or None, encoding=r.encoding,
                   time_ms=round(r.time_ms, 3), message=r.message)
        if r.solution is not None and r.solution.geometry is not p.geometry:
            rec["regions"] = format_regions(r.solution.geometry)  # the ones the solver drew
        if outcome.disagreements:
            rec["disagreements"] = outcome.disagreements
        if r.proof is not None:
            rec["proof"] = r.proof
        if self.stats:
            rec["stats"] = _stats(r)
        return rec

    @staticmethod
    def _count_text(r, unit: str = "") -> str:
        """``'multiple (288)'`` or ``'multiple (at least 1,000)'`` (``unit`` after the count)."""
        if r.count is None or r.status != "multiple":
            return r.status
        return f"{r.status} ({'at least ' if r.at_limit else ''}{r.count:,}{unit})"

    def line(self, outcome) -> str:
        r = outcome.result
        if r.solution is not None and r.status in ("solved", "unique"):
            return format_grid(r.solution, "line", outcome.puzzle.alphabet)
        return self._count_text(r)

    def pretty(self, outcome) -> str:
        p, r = outcome.puzzle, outcome.result
        if r.status == "invalid":  # the error itself goes to stderr, with file, line and cell
            return f"{place(p)}: invalid\n\n"
        title = f"{place(p)}: {self._count_text(r, ' solutions')}"
        if r.solver:
            title += f" by {r.solver}"
        if p.name:
            title += f"  # {printable(p.name)}"
        out = [title]
        cells = r.solution.differences(r.second) if r.second is not None else []
        paint = painter(p.grid, set(cells), self.color)
        for i, grid in enumerate((r.solution, r.second)):
            if grid is None:
                continue
            if i:
                out.append(f"another solution, differing at {len(cells)} cells "
                           f"({cell_list(grid.geometry, cells)}):")
            out.append(format_grid(grid, "pretty", p.alphabet, paint))
            if grid.geometry is not p.geometry:  # regions the solver drew (chaos)
                out.append("regions:\n" + format_regions(grid.geometry, "pretty"))
        out += constraint_lines(p)
        if r.proof is not None and r.proof["ok"]:  # a rejected one is the message
            out.append(f"{printable(r.proof['summary'])}")
        if self.stats:
            stats = " ".join(f"{k}={v}" for k, v in _stats(r).items())
            out.append(f"stats: time_ms={round(r.time_ms, 3)} {stats}")
        return "\n".join(out) + "\n\n"

    def picture(self, outcome) -> str:
        from .svg import render_svg
        p, r = outcome.puzzle, outcome.result
        if p.grid is None:
            raise ValueError("no picture of a puzzle that could not be read")
        cells = r.solution.differences(r.second) if r.second is not None else []
        caption = self._count_text(r, " solutions") + (f": {r.message}" if r.message else "")
        if cells:
            caption += f"; the two solutions differ at {len(cells)} cells (marked)"
        return render_svg(p.grid, r.solution, second=r.second, highlight=cells,
                          alphabet=p.alphabet, title=p.name or place(p), caption=caption,
                          constraints=p.constraints)

    def diagnostics(self, outcome) -> list[str]:
        p, r = outcome.puzzle, outcome.result
        lines = warning_lines(p)
        if r.status == "invalid" and p.error is not None:
            lines.append(printable(str(p.error)))
        elif r.message:
            lines.append(f"{place(p)}: {r.message}")
        elif r.status in ("unsolvable", "timeout"):
            lines.append(f"{place(p)}: {r.status}")
        lines.extend(f"{place(p)}: disagreement: {d}" for d in outcome.disagreements)
        if r.proof is not None and r.proof["ok"] and self.fmt == "line":
            lines.append(f"{place(p)}: {printable(r.proof['summary'])}")
        if self.stats and self.fmt == "line" and r.status != "invalid":
            stats = " ".join(f"{k}={v}" for k, v in _stats(r).items())
            lines.append(f"{place(p)}: stats: {stats}")
        return lines
