"""``satdoku convert`` (between satdoku JSON, sigh's strings, f-puzzles and SudokuPad links, and
to a picture)
and ``satdoku rules`` (every rule type with its fields): one library call each, printed.

Registered with the other command modules in :mod:`satdoku.cli`.
"""

from __future__ import annotations

import json

from ..model.result import EXIT_FAILED, EXIT_OK
from .parsing import choice, command, echo, option
from .options import inputs_argument, output_options, puzzle_options
from .session import puzzles_of, show

__all__ = ["COMMANDS"]

_TARGETS = ("json", "sigh", "fpuzzles", "fpuzzles-link", "fpuzzles-json", "sudokupad", "svg")


class _ConvertReport:
    """One line per converted puzzle (a picture each for svg); what was lost on stderr."""

    def __init__(self, fmt: str) -> None:
        from ..output.report import Report
        self.fmt = fmt
        self.picture_name = Report.picture_name

    def header(self) -> str:
        return ""

    def format(self, item) -> str:
        if item.text is None:
            return ""
        return item.text if self.fmt == "svg" else item.text + "\n"

    def diagnostics(self, item) -> list[str]:
        from ..output.report import place, printable, warning_lines
        p = item.puzzle
        if item.error is not None:
            return [printable(str(item.error))]
        lines = warning_lines(p)
        lines += [f"{place(p)}: {printable(x)}" for x in item.warnings if x not in p.warnings]
        verb = "leaves out" if item.text is not None else "cannot hold"
        lines += [f"{place(p)}: {self.fmt} {verb}: {printable(x)}" for x in item.lost]
        if item.refused:
            lines.append(f"{place(p)}: not converted" + ("" if item.whole else
                                                         " (--lossy writes the rest)"))
        return lines


def _pictures(items):
    """Each converted item drawn unsolved (the ``svg`` target)."""
    from ..output.svg import render_svg
    for item in items:
        if item.error is None:
            p = item.puzzle
            item.text = render_svg(p.grid, constraints=p.constraints, title=p.name)
            item.lost = []
        yield item


@command()
@inputs_argument
@puzzle_options
@output_options(_TARGETS, default="json")
@option("--lossy", is_flag=True,
        help="Write what the target can hold and name the rest on stderr (default: "
             "such a puzzle is not converted).")
def convert(inputs, reading, fmt, output, force, lossy):
    """Convert puzzles: satdoku JSON, sigh, f-puzzles (string, link, JSON), SudokuPad, svg.

    Reads what every command reads; --format says what to write: json (satdoku variant
    JSON, one line), sigh (a constraint string for sigh's Interactive Sudoku Solver),
    fpuzzles (the compressed string), fpuzzles-link, fpuzzles-json,
    sudokupad (a sudokupad.app link), svg (a picture of the unsolved puzzle, one per puzzle:
    -o FOLDER/ for several). A rule the target cannot hold is named; the puzzle is then not
    converted unless --lossy.
    """
    from ..tasks.convert import convert_all
    target = "json" if fmt == "svg" else fmt
    puzzles = puzzles_of(inputs, reading)
    items = convert_all(puzzles, target, lossy=lossy or fmt == "svg")
    if fmt == "svg":
        items = _pictures(items)

    def code_of(item) -> int:
        return EXIT_FAILED if item.text is None else EXIT_OK

    show(puzzles, items, _ConvertReport(fmt), output, force, "converting", code_of)


@command()
@option("--format", "fmt", type=choice(["pretty", "json"]), default="pretty",
        show_default=True, help="Output format.")
def rules(fmt):
    """List every rule type: what it means, its JSON fields, its f-puzzles keys."""
    from ..rules import rule_types
    kinds = rule_types()
    if fmt == "json":
        echo(json.dumps([k.as_dict() for k in kinds], indent=1))
        return
    for kind in kinds:
        echo(f"{kind.name}: {kind.summary}")
        for f in kind.fields:
            extra = "" if f["required"] else ", optional" + (
                f", default {f['default']}" if "default" in f else "")
            doc = f": {f['doc']}" if f.get("doc") else ""
            echo(f"    {f['name']} ({f['holds']}{extra}){doc}")
        keys = ", ".join(kind.fpuzzles) if kind.fpuzzles else "none"
        echo(f"    f-puzzles: {keys}")


COMMANDS = [convert, rules]
