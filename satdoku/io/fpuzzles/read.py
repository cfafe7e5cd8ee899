"""Reading f-puzzles JSON into a satdoku variant document: the grid, then each rule key by the
shape its rule classes declare (:mod:`satdoku.rules.exchange`, :mod:`.shapes`), then
what is left.

Glossary:

- note: something satdoku leaves out that carries no rule (drawings, colours, a solver's
  progress, a clue without its number, which f-puzzles' own solver skips too). All notes of a
  puzzle become one warning line naming them; the puzzle is solved as published.
- problem: something that may carry a rule satdoku cannot state (an unknown key, a rule drawn
  only as a line): the puzzle is refused, naming each, unless ``ignore_unknown`` (then they
  are warnings too, and the puzzle solved may be looser than the one published).
- copy: a drawn line, cage, circle or text that the f-puzzles "new constraints" user script
  adds beside a rule it stores under its own key (``fromConstraint``, or the older
  ``isNewConstraint``). A copy of a rule that is present is skipped without a word.
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import PuzzleError, Where
from ...model.geometry import default_box
from ...rules import CONSTRAINTS, Constraint
from ...rules.exchange import FPuzzles

__all__ = ["Reader", "METADATA", "COSMETIC", "UNSUPPORTED", "COPY_KEYS", "rule_keys",
           "fpuzzles_box"]

#: f-puzzles keys that describe the puzzle, not its rules; none of them becomes a constraint.
METADATA = {
    "size": "the grid size N",
    "grid": "givens (value with given: true), regions (region), given pencil marks and parity",
    "title": "the puzzle's name (the document's name)",
    "author": "the setter (the document's author)",
    "ruleset": "the rules as prose (not carried: satdoku reads the rules from the constraints)",
    "solution": "the setter's solution (kept beside the document, see Conversion.solution)",
    "successMessage": "what f-puzzles says when the puzzle is solved",
    "highlightConflicts": "an editor setting",
    "disabledlogic": "SudokuSolver's logic switches",
    "truecandidatesoptions": "SudokuSolver's display options",
}

#: f-puzzles keys that only draw: ignored, and named in a note.
COSMETIC = {
    "text": "text",
    "line": "drawn lines",
    "rectangle": "rectangles",
    "circle": "circles",
    "cage": "drawn cages",
    "arrowhead": "arrowheads",
}

#: Known f-puzzles keys with no satdoku rule type (refused, named).
UNSUPPORTED: dict[str, str] = {}

#: What the user script's ``fromConstraint`` names, as f-puzzles keys (its name with spaces
#: removed, lower case, is the key for the others).
COPY_KEYS = {"german whispers": "whispers", "whispers": "whispers",
             "dutch whispers": "whispers", "column indexer": "columnindexer",
             "region sum line": "regionsumline", "entropic line": "entropicline",
             "modular line": "modularline", "double arrow": "doublearrow",
             "zipper line": "zipperline", "x sum": "xsum", "entropic": "entropicline"}

#: The colours of the old ``isNewConstraint`` copies (user script 1.x: its renban and whispers
#: colours then and later), as the script upgrades them; any other colour is an entropic line.
_OLD_COPY_COLOURS = {"#C060C0": "renban", "#60C060": "whispers", "#67F067": "whispers",
                     "#6495ED": "slowthermometer"}

_CELL = re.compile(r"R(\d+)C(\d+)", re.IGNORECASE)
_CELL_KEYS = {"value", "given", "region", "c", "cArray", "highlight", "centerPencilMarks",
              "cornerPencilMarks", "givenPencilMarks", "parity"}
_DIGITS_MAX = 9  # digits of a clue's number: more is an error, not a number to compute with


def rule_keys() -> dict[str, list[tuple[type[Constraint], FPuzzles]]]:
    """Every f-puzzles key the rule classes declare: key -> [(class, FPuzzles)]."""
    out: dict[str, list[tuple[type[Constraint], FPuzzles]]] = {}
    for cls in CONSTRAINTS.values():
        for decl in cls.fpuzzles:
            out.setdefault(decl.key, []).append((cls, decl))
    return out


def fpuzzles_box(n: int) -> tuple[int, int]:
    """f-puzzles' default region shape (rows, columns): satdoku's box, or whole rows."""
    return default_box(n) or (1, n)


class Reader:
    """One conversion: the f-puzzles data, its size, and the document being built."""

    def __init__(self, data: dict, where: Where) -> None:
        self.data = data
        self.where = where
        self.problems: list[str] = []   # what may carry a rule satdoku cannot state
        self.notes: list[str] = []      # what satdoku leaves out that carries no rule
        self.constraints: list[dict] = []
        self.parity: dict[str, list[str]] = {"odd": [], "even": []}
        self.candidates: dict[tuple[int, ...], list[str]] = {}
        self.done: set[str] = set()   # shapes read once for several keys
        self.size = self._size()

    # Errors, notes and small readers.

    def error(self, message: str, cell: str | None = None) -> PuzzleError:
        return PuzzleError(message, cell=cell, **self.where)

    def problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)

    def note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)

    def entries(self, key: str) -> list:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.error(f"f-puzzles '{key}' should be a list, not {type(value).__name__}")
        for i, entry in enumerate(value, 1):
            if not isinstance(entry, dict):
                raise self.error(f"f-puzzles '{key}' #{i} should be an object, not "
                                 f"{type(entry).__name__}")
        return value

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.error(f"f-puzzles '{key}' should be true or false, not {value!r}")
        return value

    def rc(self, name: Any, what: str, *, outside: bool = False) -> tuple[int, int]:
        """(row, column), 1-based, of an f-puzzles cell name; ``outside`` allows 0 and N+1."""
        n = self.size
        match = _CELL.fullmatch(name) if isinstance(name, str) and len(name) < 20 else None
        if match is None:
            shown = name if not isinstance(name, str) or len(name) < 20 else name[:20] + "..."
            raise self.error(f"{what}: {shown!r} is not an f-puzzles cell name like 'R3C7'")
        r, c = int(match.group(1)), int(match.group(2))
        low, high = (0, n + 1) if outside else (1, n)
        if not (low <= r <= high and low <= c <= high):
            place = "around" if outside else "inside"
            raise self.error(f"{what}: {name} is not {place} the {n}x{n} grid")
        return r, c

    def cell(self, name: Any, what: str) -> str:
        r, c = self.rc(name, what)
        return f"r{r}c{c}"

    def cells(self, names: Any, what: str, *, minimum: int = 1,
              distinct: bool = True) -> list[str]:
        if not isinstance(names, list):
            raise self.error(f"{what}: the cells should be a list, not {type(names).__name__}")
        out = [self.cell(name, what) for name in names]
        if len(out) < minimum:
            raise self.error(f"{what}: {len(out)} cell(s); it needs at least {minimum}")
        if distinct:
            seen = set()
            for name in out:
                if name in seen:
                    raise self.error(f"{what}: {name} appears twice", cell=name)
                seen.add(name)
        return out

    def number(self, value: Any, what: str) -> int | None:
        """A clue's number: an int, a numeric string, or None when blank."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, bool):
            raise self.error(f"{what}: {value!r} is not a number")
        if isinstance(value, int) and value >= 0:
            text = str(value) if value < 10 ** _DIGITS_MAX else ""
        elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
            text = value.strip().lstrip("0") or "0"
        else:
            shown = value if not isinstance(value, str) or len(value) < 20 else value[:20] + "..."
            raise self.error(f"{what}: {shown!r} is not a whole number")
        if not text or len(text) > _DIGITS_MAX:
            raise self.error(f"{what}: a number of more than {_DIGITS_MAX} digits")
        return int(text)

    def add(self, constraint: dict) -> None:
        self.constraints.append(constraint)

    # Size, grid, regions.

    def _size(self) -> int:
        size = self.data.get("size")
        grid = self.data.get("grid")
        if size is None:
            if not isinstance(grid, list) or not grid:
                raise self.error("f-puzzles data without 'size' or 'grid'")
            size = len(grid)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 99:
            raise self.error(f"f-puzzles 'size' {size!r} is not a grid size (1 to 99)")
        return size

    def grid(self) -> tuple[dict, list[list[int]]]:
        """Givens (cell name -> digit) and the region index of every cell, row by row; the
        cells' parity and given pencil marks are kept for their rules."""
        n = self.size
        grid = self.data.get("grid")
        if grid is None:
            grid = [[{} for _ in range(n)] for _ in range(n)]
        if not isinstance(grid, list) or len(grid) != n or any(
                not isinstance(row, list) or len(row) != n for row in grid):
            raise self.error(f"f-puzzles 'grid' should be {n} rows of {n} cells")
        box = fpuzzles_box(n)
        givens: dict[str, int] = {}
        regions = [[(r // box[0]) * box[0] + c // box[1] for c in range(n)] for r in range(n)]
        tally = {"progress": 0, "colours": 0, "pencil": 0}
        for r, row in enumerate(grid):
            for c, entry in enumerate(row):
                name = f"r{r + 1}c{c + 1}"
                if not isinstance(entry, dict):
                    raise self.error("f-puzzles 'grid': a cell should be an object", cell=name)
                self._cell(name, entry, givens, tally)
                region = entry.get("region")
                if region is not None and region != -1:
                    if isinstance(region, bool) or not isinstance(region, int) \
                            or not 0 <= region < n:
                        raise self.error(f"f-puzzles 'grid': region {region!r} is not "
                                         f"0-{n - 1}", cell=name)
                    regions[r][c] = region
        self._grid_notes(tally)
        counts = [0] * n
        for row in regions:
            for region in row:
                counts[region] += 1
        for region, count in enumerate(counts):
            if count != n:
                raise self.error(f"f-puzzles 'grid': region {region} has {count} cells, "
                                 f"a {n}x{n} grid needs {n} in each")
        return givens, regions

    def _cell(self, name: str, entry: dict, givens: dict, tally: dict) -> None:
        """One grid cell: its given, parity and given pencil marks; what it only shows is
        counted for the notes."""
        n = self.size
        value = entry.get("value")
        if value not in (None, 0, ""):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
                shown = value if not isinstance(value, str) else value[:20]
                raise self.error(f"f-puzzles 'grid': value {shown!r} is not a digit 1-{n}",
                                 cell=name)
            if entry.get("given"):
                givens[name] = value
            else:
                tally["progress"] += 1
        parity = entry.get("parity")
        if parity is not None:
            kind = str(parity).lower()
            if kind not in self.parity:
                raise self.error(f"f-puzzles 'grid': parity {parity!r} is neither 'Odd' nor "
                                 f"'Even'", cell=name)
            self.parity[kind].append(name)
        marks = entry.get("givenPencilMarks")
        if marks:
            if not isinstance(marks, list) or not all(
                    isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= n
                    for d in marks):
                raise self.error(f"f-puzzles 'grid': given pencil marks {marks!r} are not "
                                 f"digits 1-{n}", cell=name)
            digits = tuple(sorted(set(marks)))
            if len(digits) < n:
                self.candidates.setdefault(digits, []).append(name)
        if entry.get("c") or entry.get("cArray") or entry.get("highlight"):
            tally["colours"] += 1
        if entry.get("centerPencilMarks") or entry.get("cornerPencilMarks"):
            tally["pencil"] += 1
        for key in entry:
            if key not in _CELL_KEYS:
                self.problem(f"f-puzzles 'grid' {name}: unknown cell key {key!r}")

    def _grid_notes(self, tally: dict) -> None:
        if tally["progress"]:
            self.note(f"{tally['progress']} digit(s) without 'given' (a solver's progress)")
        if tally["colours"]:
            self.note(f"{tally['colours']} coloured cell(s)")
        if tally["pencil"]:
            self.note(f"pencil marks in {tally['pencil']} cell(s)")

    # What is left once the rules are read.

    def leftovers(self, handled: set[str]) -> None:
        """Cosmetic, unsupported and unknown keys: notes for drawings, problems for the rest
        (copies of present rules skipped)."""
        for key, value in self.data.items():
            if key in METADATA or key in handled or value in (None, False, [], {}, ""):
                continue
            if key in COSMETIC:
                value = self.data[key]
                self.drawings(key, value if isinstance(value, list) else [value])
            elif key in UNSUPPORTED:
                self.problem(f"f-puzzles '{key}' ({UNSUPPORTED[key]}): no satdoku rule for it")
            else:
                self.problem(f"f-puzzles '{key}': unknown to satdoku")

    def cosmetic_entries(self, key: str, entries: list | None = None) -> tuple[int, list[str]]:
        """How many entries of a cosmetic key are the setter's own drawing, and the rule names
        of copies whose rule is absent."""
        if entries is None:
            entries = self.data[key] if isinstance(self.data[key], list) else [self.data[key]]
        own, orphans = 0, []
        for entry in entries:
            origin = _copy_of(entry)
            if origin is None:
                own += 1
            elif not self.data.get(_copy_key(origin)):
                if origin not in orphans:
                    orphans.append(origin)
        return own, orphans

    def drawings(self, key: str, entries: list) -> None:
        """Notes (and problems, for copies of absent rules) for drawn ``entries`` of ``key``."""
        own, orphans = self.cosmetic_entries(key, entries)
        if own:
            self.note(f"{COSMETIC[key]} ({own})")
        for name in orphans:
            self.problem(f"f-puzzles '{key}' drawn for the rule {name!r}, which the puzzle "
                         f"does not hold: satdoku cannot tell what it says")


def _copy_of(entry: Any) -> str | None:
    """The rule name a cosmetic entry copies (``fromConstraint`` or ``isNewConstraint``)."""
    if not isinstance(entry, dict):
        return None
    origin = entry.get("fromConstraint")
    if isinstance(origin, str) and origin.strip():
        return origin
    if entry.get("isNewConstraint"):
        colour = str(entry.get("outlineC", "")).upper()
        return _OLD_COPY_COLOURS.get(colour, "entropicline")
    return None


def _copy_key(origin: str) -> str:
    name = origin.strip().lower()
    return COPY_KEYS.get(name, name.replace(" ", ""))
