"""Reports of the setter's questions: explanations, ratings, true candidates, generated puzzles.

The same formats and rules as every report (:mod:`satdoku.output.report`).
"""

from __future__ import annotations

from typing import Any

from ..model.alphabet import Alphabet, alphabet_for
from ..io.text import format_grid
from .fixes import fixes_lines, fixes_record
from .paths import path_lines, path_record, path_summary, step_picture
from .report import (Report, cell_list, constraint_lines, grid_text, marked_grid, painter,
                     place, plural, printable, puzzle_fields, warning_lines)

__all__ = ["ExplanationReport", "RatingReport", "GeneratedReport", "CandidatesReport"]


def titled(puzzle, text: str) -> str:
    """``text`` (a report's first line) with the puzzle's name after it, as ``solve`` shows it:
    ``'p.json:1: unique solution  # Miracle Sudoku'``."""
    return text + (f"  # {printable(puzzle.name)}" if puzzle.name else "")


class ExplanationReport(Report):
    """``explain``: (puzzle, :class:`~satdoku.tasks.explain.Explanation` or None) per puzzle;
    ``step``: the step of a path that ``--format svg`` draws (None: the solution), or that
    ``--format html``'s page opens at."""

    def __init__(self, fmt: str = "pretty", *, color: bool = False,
                 step: int | None = None) -> None:
        super().__init__(fmt, color=color)
        self.step = step

    fields = ("source", "line", "name", "puzzle", "status", "core", "differing", "removable",
              "kept", "solution", "second", "label", "er", "ep", "ed", "hardest", "bound",
              "ep_bound", "ed_bound", "sat_calls", "time_ms", "message")

    def record(self, item) -> dict[str, Any]:
        p, e = item.puzzle, item.result
        rec = puzzle_fields(p, e is None)
        if e is None:
            return rec
        geo = e.grid.geometry
        alphabet = p.alphabet or alphabet_for(geo.size, geo.low)
        rec.update(status=e.status, message=e.message)
        if e.status == "unsolvable":
            rec["core"] = [f"{geo.cell_name(c)}={alphabet.symbol(d)}" for c, d in e.core]
            rec["core"] += [e.describe(("rule", i)) for i in e.core_rules]
            rec["sat_calls"] = e.sat_calls
        if e.path is not None:
            rec.update(path_record(e.path))
        if e.fixes is not None:
            rec["fixes"] = fixes_record(e, alphabet)
        if e.removable is not None:
            rec["removable"] = [e.describe(m, alphabet) for m in e.removable]
            rec["kept"] = [e.describe(m, alphabet) for m in e.kept]
            rec["sat_calls"] = e.sat_calls
        rec["solution"] = grid_text(e.solution, alphabet)
        rec["second"] = grid_text(e.second, alphabet)
        if e.status == "multiple":
            rec["differing"] = [geo.cell_name(c) for c in e.differing]
        if e.rating is not None:
            rec.update(rating_fields(e.rating))
        rec["time_ms"] = round(e.time_ms, 3)
        return rec

    def line(self, item) -> str:
        rec = self.record(item)
        status = rec["status"]
        if status == "unsolvable":
            return f"unsolvable: {', '.join(rec['core'])}"
        if status == "multiple":
            return f"multiple: {' '.join(rec['differing'])}"
        if status == "unique" and item.result.path is not None:
            return f"unique: {path_summary(item.result.path)}"
        if status == "unique" and item.result.rating is not None:
            return f"unique: {item.result.rating.label} {item.result.rating.text}"
        if status == "unique":  # a variant without --steps: no rating
            return "unique: by SAT"
        return status

    def pretty(self, item) -> str:
        p, e = item.puzzle, item.result
        head = f"{place(p)}: "
        if e is None:
            return f"{head}invalid\n\n"
        geo = e.grid.geometry
        alphabet = p.alphabet or alphabet_for(geo.size, geo.low)
        out = []
        if e.status == "unsolvable":
            what = plural(len(e.core), "given")
            if e.core_rules:
                what += f" and {plural(len(e.core_rules), 'rule')}"
            out.append(f"{head}unsolvable: these {what} cannot all hold, and each of them is "
                       f"needed for that:")
            if e.core:
                out.append("  " + ", ".join(f"{geo.cell_name(c)}={alphabet.symbol(d)}"
                                            for c, d in e.core))
            out += [f"  {printable(e.describe(('rule', i)))}" for i in e.core_rules]
            out.append(marked_grid(e.grid, {c for c, _ in e.core}, alphabet, self.color))
        elif e.status == "multiple":
            out.append(f"{head}multiple solutions; two of them differ at "
                       f"{plural(len(e.differing), 'cell')} ({cell_list(geo, e.differing, 20)}), "
                       "marked:")
            out.append(marked_grid(e.solution, set(e.differing), alphabet, self.color))
            out.append("")
            out.append(marked_grid(e.second, set(e.differing), alphabet, self.color))
        elif e.status == "unique":
            how = f"; {rating_text(e.rating, e.path is not None)}" if e.rating else ""
            out.append(f"{head}unique solution{how}")
            out.append(format_grid(e.solution, "pretty", alphabet,
                                   painter(e.grid, color=self.color)))
        else:
            out.append(f"{head}{e.status}" + (f": {e.message}" if e.message else ""))
        if e.path is not None:
            out.append(f"  the steps: {path_summary(e.path)}")
            out += path_lines(e.path)
        if e.fixes is not None:
            out += fixes_lines(e, alphabet)
        if e.removable is not None:
            total = len(e.grid.cells) - e.grid.cells.count(0) + len(e.constraints)
            out.append(f"  each of these {len(e.removable)} could go alone, the puzzle staying "
                       f"unique:" if e.removable else "  no given or rule can go: each is needed")
            if e.removable:
                out.append("    " + ", ".join(printable(e.describe(m, alphabet))
                                              for m in e.removable))
                out.append(f"  a minimal set that still gives one solution ({len(e.kept)} of "
                           f"{total}):")
                out.append("    " + ", ".join(printable(e.describe(m, alphabet))
                                              for m in e.kept))
        out += constraint_lines(p)
        out[0] = titled(p, out[0])
        return "\n".join(out) + "\n\n"

    def picture(self, item) -> str:
        from .svg import render_svg
        p, e = item.puzzle, item.result
        if e is None:
            raise ValueError("no picture of a puzzle that could not be read")
        alphabet = p.alphabet or alphabet_for(e.grid.size, e.grid.geometry.low)
        title = p.name or place(p)
        if self.step is not None and e.path is not None:
            return step_picture(e.grid, e.path, self.step, title=title,
                                constraints=p.constraints, alphabet=alphabet)
        rules = [e.constraints[i] for i in e.core_rules]
        if e.status == "unsolvable":
            names = [e.describe(("given", c), alphabet) for c, _ in e.core]
            names += [e.describe(("rule", i)) for i in e.core_rules]
            return render_svg(e.grid, highlight=[c for c, _ in e.core], alphabet=alphabet,
                              title=title, constraints=rules or p.constraints,
                              caption="unsolvable: these cannot all hold, and each is "
                                      "needed: " + ", ".join(names))
        if e.status == "multiple":
            return render_svg(e.grid, e.solution, second=e.second, highlight=e.differing,
                              alphabet=alphabet, title=title, constraints=p.constraints,
                              caption=f"multiple solutions; two differ at "
                                      f"{len(e.differing)} cells (marked)")
        caption = e.status if e.rating is None else f"{e.status}; {rating_text(e.rating)}"
        return render_svg(e.grid, e.solution, alphabet=alphabet, title=title,
                          constraints=p.constraints,
                          caption=caption + (f": {e.message}" if e.message else ""))

    def page(self, item) -> str:
        from .html import step_page
        from .report import NoPicture
        p, e = item.puzzle, item.result
        if e is None or e.path is None:
            why = {"unsolvable": "the puzzle is unsolvable", "multiple": "the puzzle has "
                   "several solutions"}.get(e.status, e.status) if e else "the puzzle is unread"
            raise NoPicture(f"no steps to show: {why}")
        return step_page(e.grid, e.path, e.solution, title=p.name or place(p),
                         constraints=p.constraints, start=self.step or 1,
                         alphabet=p.alphabet or alphabet_for(e.grid.size, e.grid.geometry.low))

    def diagnostics(self, item) -> list[str]:
        p, e = item.puzzle, item.result
        if e is None:
            return [printable(str(p.error))] if p.error else []
        if e.status == "unique" and e.path is not None and e.path.status == "timeout":
            return [f"{place(p)}: the steps stop at the time limit"]
        if e.status in ("unsolvable", "multiple", "unique"):
            return []
        return [f"{place(p)}: {e.status}" + (f": {e.message}" if e.message else "")]


def rating_fields(rating) -> dict[str, Any]:
    """The JSON fields of a :class:`~satdoku.tasks.rate.Rating` that ``rate`` and ``explain``
    share: label, ER/EP/ED, the hardest step's technique, whether they are bounds."""
    return {"label": rating.label, "er": rating.score, "ep": rating.ep, "ed": rating.ed,
            "hardest": rating.hardest, "bound": rating.bound, "ep_bound": rating.ep_bound,
            "ed_bound": rating.ed_bound}


def rating_text(rating, listed: bool = False) -> str:
    """``'hard, ER 2.3/EP 1.2/ED 1.2 (Naked Single)'``: what ``rate`` and ``explain``'s header
    say of a unique puzzle (``listed``: its steps follow, so a variant's are not summed up)."""
    if rating.se is not None and rating.se.stalled:
        how = rating.se.stalled.split(":")[0].replace("beyond the ladder",
                                                       "a step beyond satdoku's ladder")
    elif rating.path is not None and rating.se is None and not listed:
        how = f"by its steps: {path_summary(rating.path, score=False)}"
    else:
        how = rating.hardest or "no step"
    return f"{rating.label}, {rating.text} ({how})"


def _member(puzzle, member) -> str:
    """``'r1c6=5'`` for a given, the rule's description for a rule."""
    from ..tasks.members import describe_member
    return printable(describe_member(puzzle.grid, puzzle.constraints, member, puzzle.alphabet))


def check_lines(checks, describe) -> list[str]:
    """The publishing checks (``rate --checks``), a line each, indented."""
    def step(s) -> str:
        return f"step {s[0]}, {s[1]} ({s[2]:.1f})"
    out = [f"  break-in: {step(checks.break_in) if checks.break_in else 'none: singles solve it'}"]
    out.append(f"  spike: {step(checks.spike)}, {checks.spike[2] - checks.next_hardest:.1f} above "
               f"every other step" if checks.spike else
               f"  spike: none (the next hardest step is {checks.next_hardest:.1f})")
    out.append("  steps by label: " + ", ".join(f"{name} {n}"
                                                for name, n in checks.by_label.items()))
    if checks.unused_rules is not None and checks.unused_rules:
        out.append("  rules no step uses: " + "; ".join(describe(("rule", i))
                                                          for i in checks.unused_rules))
    elif checks.unused_rules is None:
        out.append("  rules no step uses: not known (the path stopped short)")
    if checks.removable is not None:
        out.append("  could go alone, the puzzle staying unique: " +
                   (", ".join(describe(m) for m in checks.removable) or "nothing"))
    return out


class RatingReport(Report):
    """``rate``: (puzzle, :class:`~satdoku.tasks.rate.Rating` or None) per puzzle."""

    fields = ("source", "line", "name", "puzzle", "status", "score", "label", "er", "ep", "ed",
              "hardest", "bound", "ep_bound", "ed_bound", "conflicts", "time_ms", "message")

    def record(self, item) -> dict[str, Any]:
        p, rating = item.puzzle, item.result
        rec = puzzle_fields(p, rating is None)
        if rating is None:
            return rec
        rec.update(status=rating.status, score=rating.score, label=rating.label)
        if rating.score is not None:
            rec.update(rating_fields(rating), conflicts=rating.conflicts)
        if rating.path is not None:
            rec["path"] = path_record(rating.path)["path"]
        if rating.checks is not None:
            rec["checks"] = rating.checks.as_dict(lambda m: _member(p, m))
        rec.update(time_ms=round(rating.time_ms, 3), message=rating.message)
        return rec

    def line(self, item) -> str:
        """``'2.3 hard ER 2.3/EP 1.2/ED 1.2'``."""
        _, rating = item.puzzle, item.result
        if rating is None:
            return "invalid"
        if rating.score is None:
            return rating.status
        return f"{rating.score:.1f} {rating.label} {rating.text}"

    def pretty(self, item) -> str:
        """``'file:3: hard, ER 2.3/EP 1.2/ED 1.2 (Naked Single)'``."""
        p, rating = item.puzzle, item.result
        if rating is None or rating.score is None:
            return titled(p, f"{place(p)}: {'invalid' if rating is None else rating.status}") \
                + "\n"
        out = [titled(p, f"{place(p)}: {rating_text(rating)}")]
        if rating.checks is not None:
            out += check_lines(rating.checks, lambda m: _member(p, m))
        return "\n".join(out) + "\n"

    def diagnostics(self, item) -> list[str]:
        p, rating = item.puzzle, item.result
        if rating is None:
            return [printable(str(p.error))] if p.error else []
        return [f"{place(p)}: {rating.message}"] if rating.message else []


class GeneratedReport(Report):
    """``generate``: one :class:`~satdoku.tasks.generate.Generated` per puzzle made."""

    fields = ("source", "line", "name", "puzzle", "status", "index", "seed", "box",
              "symmetry", "clues", "minimal", "solution", "attempts", "sat_calls", "score",
              "label", "time_ms")

    def __init__(self, fmt: str = "pretty", *, alphabet: Alphabet | None = None,
                 color: bool = False) -> None:
        super().__init__(fmt, color=color)
        self.alphabet = alphabet

    def record(self, made) -> dict[str, Any]:
        geo = made.puzzle.geometry
        rules = {}
        if made.constraints:  # the whole puzzle as a document satdoku reads back
            from ..io.variant import variant_document
            from ..model.puzzle import Puzzle
            rules = {"constraints": [c.describe(geo) for c in made.constraints],
                     "document": variant_document(Puzzle(made.puzzle,
                                                         constraints=made.constraints))}
        return {**puzzle_fields(None), **rules,
                "puzzle": format_grid(made.puzzle, "line", self.alphabet),
                "status": "unique", "index": made.index, "seed": made.seed, "box": geo.shape,
                "symmetry": made.symmetry, "clues": made.puzzle.nclues,
                "minimal": made.minimal,
                "solution": format_grid(made.solution, "line", self.alphabet),
                "attempts": made.attempts, "sat_calls": made.sat_calls,
                "score": made.rating.score if made.rating else None,
                "label": made.rating.label if made.rating else None,
                "time_ms": round(made.time_ms, 3)}

    def line(self, made) -> str:
        """The grid, or for a puzzle with rules its document on one line (JSON Lines that
        satdoku reads back)."""
        if made.constraints:
            import json
            return json.dumps(self.record(made)["document"])
        return format_grid(made.puzzle, "line", self.alphabet)

    _MINIMAL = {True: "minimal", False: "not minimal", None: "minimality not proven"}

    def _title(self, made) -> str:
        rated = f", {made.rating.score:.2f} {made.rating.label}" if made.rating else ""
        return (f"#{made.index} (seed {made.seed}): {made.puzzle.nclues} clues, unique, "
                f"{self._MINIMAL[made.minimal]}{rated}")

    def pretty(self, made) -> str:
        grid = format_grid(made.puzzle, "pretty", self.alphabet,
                           painter(made.puzzle, color=self.color))
        geo = made.puzzle.geometry
        rules = [f"  {printable(c.describe(geo))}" for c in made.constraints]
        rules = [f"rules ({len(rules)}):"] + rules if rules else []
        return "\n".join([self._title(made), grid] + rules) + "\n\n"

    def picture(self, made) -> str:
        from .svg import render_svg
        return render_svg(made.puzzle, alphabet=self.alphabet, title=self._title(made),
                          constraints=made.constraints)


class CandidatesReport(Report):
    """``candidates``: (puzzle, :class:`~satdoku.tasks.candidates.Candidates` or None) per puzzle."""

    fields = ("source", "line", "name", "puzzle", "status", "count", "candidates", "counts",
              "limit", "sat_calls", "time_ms", "message")

    @staticmethod
    def _text(c, alphabet: Alphabet) -> dict[str, str]:
        glue = "" if alphabet.symbols else ","
        geo = c.grid.geometry
        return {geo.cell_name(cell): glue.join(alphabet.symbol(d) for d in digits)
                for cell, digits in c.digits.items()}

    def record(self, item) -> dict[str, Any]:
        p, c = item.puzzle, item.result
        rec = puzzle_fields(p, c is None)
        if c is None:
            return rec
        alphabet = p.alphabet or alphabet_for(c.grid.size, c.grid.geometry.low)
        rec.update(status=c.status, count=c.count,
                   candidates=[f"{cell}={digits}" for cell, digits in
                               self._text(c, alphabet).items()],
                   sat_calls=c.sat_calls, time_ms=round(c.time_ms, 3), message=c.message)
        if c.counts is not None:
            name = c.grid.geometry.cell_name
            rec.update(counts={name(cell): {alphabet.symbol(d): n for d, n in ds.items()}
                               for cell, ds in c.counts.items()}, limit=c.limit)
        return rec

    def line(self, item) -> str:
        rec = self.record(item)
        if rec["status"] in ("unique", "multiple", "unsolvable") and "counts" in rec:
            plus = rec["limit"]
            return " ".join(f"{cell}=" + ",".join(f"{d}:{n}{'+' * (n >= plus)}"
                                                  for d, n in ds.items())
                            for cell, ds in rec["counts"].items()) or rec["status"]
        if rec["status"] in ("unique", "multiple", "unsolvable"):
            return " ".join(rec["candidates"]) or rec["status"]
        return rec["status"]

    def pretty(self, item) -> str:
        p, c = item.puzzle, item.result
        if c is None or c.status not in ("unique", "multiple", "unsolvable"):
            status = "invalid" if c is None else c.status
            return titled(p, f"{place(p)}: {status}" + (f": {c.message}" if c and c.message
                                                        else "")) + "\n\n"
        if c.counts is not None:
            return self._counts(p, c)
        alphabet = p.alphabet or alphabet_for(c.grid.size, c.grid.geometry.low)
        texts = self._text(c, alphabet)
        geo = c.grid.geometry
        cells = [alphabet.symbol(d) if d else texts[geo.cell_name(i)] or "-"
                 for i, d in enumerate(c.grid.cells)]
        width = max(map(len, cells))
        n = geo.size
        r, bc = geo.band_shape
        rule = "-+-".join(["-" * (bc * (width + 1) - 1)] * (n // bc))
        lines = [titled(p, f"{place(p)}: {c.status}"
                        + (f" ({c.count} solutions met)" if c.status == "multiple" else "")
                        + f"; true candidates of the empty cells ({c.sat_calls} SAT calls):")]
        for row in range(n):
            if row and row % r == 0:
                lines.append(rule)
            part = [c2.ljust(width) for c2 in cells[row * n:(row + 1) * n]]
            lines.append(" | ".join(" ".join(part[j:j + bc]) for j in range(0, n, bc)).rstrip())
        if geo.extra:  # as format_grid writes them, each cell's candidates for its value
            lines.append("outside the grid: " + " ".join(
                f"{name}={text}" for name, text in zip(geo.extra, cells[geo.ngrid:])))
        lines += constraint_lines(p)
        return "\n".join(lines) + "\n\n"

    def _counts(self, p, c) -> str:
        """A table: a line per empty cell, a column per digit, the solutions that put the
        digit in the cell (``N+``: the limit or more; blank: none)."""
        alphabet = p.alphabet or alphabet_for(c.grid.size, c.grid.geometry.low)
        geo, limit = c.grid.geometry, c.limit
        many = f"at least {limit:,}" if c.count >= limit else f"{c.count:,}"
        head = titled(p, f"{place(p)}: {c.status} ({many} solution{'s' * (c.count != 1)}); "
                         f"solutions with each digit in each empty cell, up to {limit:,}:")
        digits = range(1, geo.size + 1)
        text = {(cell, d): f"{n:,}" + ("+" if n >= limit else "")
                for cell, ds in c.counts.items() for d, n in ds.items()}
        width = max([len(t) for t in text.values()] + [len(alphabet.symbol(d)) for d in digits])
        names = {cell: geo.cell_name(cell) for cell in c.counts}
        first = max(map(len, names.values()), default=4)
        lines = [head, "cell".ljust(first) + "".join(f" {alphabet.symbol(d):>{width}}"
                                                      for d in digits)]
        for cell in c.counts:
            lines.append(names[cell].ljust(first) + "".join(
                f" {text.get((cell, d), ''):>{width}}" for d in digits).rstrip())
        lines += constraint_lines(p)
        return "\n".join(lines) + "\n\n"

    def diagnostics(self, item) -> list[str]:
        p, c = item.puzzle, item.result
        if c is None:
            return [printable(str(p.error))] if p.error else []
        lines = warning_lines(p)
        if c.message:
            lines.append(f"{place(p)}: {c.status}: {c.message}")
        return lines
