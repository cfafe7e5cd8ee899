"""One self-contained HTML page that steps through a puzzle's path (``explain --steps --format
html``): the grid with each open cell's candidates as pencil marks, what the step places,
strikes and rests on in colours, the step's text and SE rating beside the grid, previous/next
buttons, the arrow keys and a step counter.

Design: Python computes everything and the page's script only shows it. The grid is one SVG
drawn by :func:`~satdoku.output.svg.render_svg` (the rules as every picture draws them), keyed
(each cell's fill, digit and pencil marks have ids) and holding every digit a cell can show:
the solution's digit and a pencil mark of each digit. The candidates at each step come from a
replay of the path (:func:`satdoku.tasks.path.replay`) and are embedded as JSON, one entry a
step: per cell, its digit once placed, else the list of its candidates. The script hides and
colours the elements those entries name; it knows nothing of sudoku.

The page honours ``#step=K`` (K from 1 to the number of steps; one more shows the end), so a
browser, a link or a headless screenshot (``scripts/screenshot_steps.py``) opens any step.
It loads nothing: no network, no fonts, inline CSS and script.
"""

from __future__ import annotations

import html
import json
from typing import Any

from ..model.alphabet import Alphabet, alphabet_for
from ..model.grid import Grid
from .paths import board_grid, path_summary, step_marks
from .report import NoPicture, plural
from .svg import COLOURS, render_svg

__all__ = ["step_page", "page_data"]


def _cells(grid: Grid, board) -> list[Any]:
    """A board's cells for the page: a placed cell's digit, an open cell's candidates."""
    placed, candidates = board_grid(grid, board)
    return [candidates[c] if c in candidates else d for c, d in enumerate(placed.cells)]


def page_data(grid: Grid, path, start: int = 1) -> dict[str, Any]:
    """What the page shows, as JSON-ready data: ``steps``, one entry a step (``step``,
    ``technique``, ``text``, ``rating``, the ``placed`` and ``struck`` (cell, digit) pairs,
    the ``cited`` cells, and ``cells``: the board the step is taken on, each cell its digit
    or its list of candidates); ``end``: the board after the last step; ``size``, ``start``
    (the step the page opens at) and ``summary``. Cells are 0-based ints.

    >>> from satdoku.io.text import parse_puzzle
    >>> from satdoku.tasks.steps import step_path
    >>> grid = parse_puzzle("1.3..4.2.34.4.23").grid
    >>> data = page_data(grid, step_path(grid, parse_puzzle("1234341223414123").grid))
    >>> len(data["steps"]), data["steps"][0]["cells"][:3], data["end"][:4]
    (7, [1, [2], 3], [1, 2, 3, 4])
    """
    from ..tasks.path import replay, step_rating
    boards = replay(grid, path)
    steps = []
    for step, board in zip(path.steps, boards):
        marks = step_marks(path, step)
        steps.append({"step": step.step, "technique": step.technique, "text": step.text,
                      "rating": step_rating(step), "placed": [list(p) for p in marks.placed],
                      "struck": [list(s) for s in marks.struck], "cited": list(marks.cited),
                      "cells": _cells(grid, board)})
    return {"size": grid.size, "start": start, "summary": path_summary(path),
            "steps": steps, "end": _cells(grid, boards[-1])}


def step_page(grid: Grid, path, solution: Grid, *, title: str, constraints=(),
              alphabet: Alphabet | None = None, start: int = 1) -> str:
    """The page of ``path`` (the steps from ``grid`` to ``solution``), opening at step
    ``start`` (one past the last: the end); NoPicture when the path has no such step."""
    if not 1 <= start <= len(path.steps) + 1:
        raise NoPicture(f"step {start}: the path has {plural(len(path.steps), 'step')}")
    alphabet = alphabet or alphabet_for(grid.size, grid.geometry.low)
    everything = list(range(1, grid.size + 1))
    svg = render_svg(grid, solution, alphabet=alphabet, constraints=constraints, keyed=True,
                     candidates={c: everything for c, d in enumerate(grid.cells) if not d})
    data = json.dumps(page_data(grid, path, start), separators=(",", ":"))
    return _PAGE.format(title=html.escape(title), css=_CSS % COLOURS, svg=svg,
                        summary=html.escape(path_summary(path)),
                        data=data.replace("<", "\\u003c"), script=_SCRIPT)


_CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .2em; }
.summary { margin: 0 0 1em; color: #555; }
main { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.board svg { max-width: 92vw; height: auto; }
aside { flex: 1; min-width: 18em; max-width: 34em; }
.nav { display: flex; align-items: center; gap: .8em; }
.nav button { font-size: 1em; padding: .3em .9em; }
#counter { font-weight: bold; min-width: 9em; text-align: center; }
#technique { font-size: 1.2em; font-weight: bold; margin: .9em 0 .2em; }
#rating { color: #555; margin: 0 0 .6em; }
#text { font-size: 1.05em; line-height: 1.4; }
.key span { display: inline-block; padding: .1em .5em; margin: 0 .4em .3em 0; border-radius: 3px; }
#steps { max-height: 40vh; overflow-y: auto; padding-left: 3.2em; font-size: .9em; }
#steps li { cursor: pointer; padding: .1em .2em; }
#steps li.here { background: #eee; font-weight: bold; }
svg rect.cell { fill: none; }
svg rect.cell.placing, .key .placing { fill: %(placing)s; background: %(placing)s; }
svg rect.cell.striking, .key .striking { fill: %(striking)s; background: %(striking)s; }
svg rect.cell.cited, .key .cited { fill: %(cited)s; background: %(cited)s; }
svg text.candidate.placed { fill: %(placed_mark)s; font-weight: bold; }
svg text.candidate.struck { fill: %(struck_mark)s; font-weight: bold;
                            text-decoration: line-through; }
body:not(.ready) svg .candidate, body:not(.ready) svg .solved { display: none; }
"""

_SCRIPT = """
(function () {
  const data = JSON.parse(document.getElementById("path-data").textContent);
  const count = data.steps.length, size = data.size;
  const byId = (id) => document.getElementById(id);
  const cells = data.end.map((_, c) => {
    const marks = [];
    for (let d = 1; d <= size; d++) marks.push(byId("m" + c + "-" + d));
    const digit = byId("d" + c);
    return {fill: byId("f" + c), marks: marks,
            digit: digit && digit.getAttribute("class") === "solved" ? digit : null};
  });
  const list = byId("steps");
  data.steps.forEach((step, i) => {
    const li = document.createElement("li");
    li.textContent = step.text;
    li.addEventListener("click", () => show(i + 1));
    list.appendChild(li);
  });
  let at = 0;
  function show(k) {
    k = Math.max(1, Math.min(count + 1, k | 0));
    at = k;
    const step = k <= count ? data.steps[k - 1] : null;
    const board = step ? step.cells : data.end;
    const fill = {}, mark = {};
    if (step) {
      step.cited.forEach((c) => { fill[c] = "cited"; });
      step.struck.forEach(([c, d]) => { fill[c] = "striking"; mark[c + "-" + d] = "struck"; });
      step.placed.forEach(([c, d]) => { fill[c] = "placing"; mark[c + "-" + d] = "placed"; });
    }
    board.forEach((value, c) => {
      const cell = cells[c], open = Array.isArray(value);
      if (cell.fill) cell.fill.setAttribute("class", "cell " + (fill[c] || ""));
      if (cell.digit) cell.digit.style.display = open ? "none" : "";
      cell.marks.forEach((m, i) => {
        if (!m) return;
        m.style.display = open && value.includes(i + 1) ? "" : "none";
        m.setAttribute("class", "candidate " + (mark[c + "-" + (i + 1)] || ""));
      });
    });
    byId("counter").textContent = step ? "step " + k + " of " + count : "the end";
    byId("technique").textContent = step ? step.technique : data.summary;
    byId("rating").textContent = step ? "SE rating " + step.rating.toFixed(1) : "";
    byId("text").textContent = step ? step.text : "";
    byId("prev").disabled = k <= 1;
    byId("next").disabled = k > count;
    Array.from(list.children).forEach((li, i) => { li.className = i + 1 === k ? "here" : ""; });
    if (step) list.children[k - 1].scrollIntoView({block: "nearest"});
    try { history.replaceState(null, "", "#step=" + k); } catch (e) { /* file: URLs */ }
  }
  function fromHash() {
    const m = /step=(\\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  byId("prev").addEventListener("click", () => show(at - 1));
  byId("next").addEventListener("click", () => show(at + 1));
  document.addEventListener("keydown", (e) => {
    const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 1, End: count + 1}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  window.addEventListener("hashchange", () => { const k = fromHash(); if (k && k !== at) show(k); });
  document.body.classList.add("ready");
  show(fromHash() || data.start);
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<h1>{title}</h1>
<p class="summary">{summary}</p>
<main>
<div class="board">
{svg}</div>
<aside>
<div class="nav"><button id="prev" title="previous step (left arrow)">&#9664; previous</button>
<span id="counter"></span>
<button id="next" title="next step (right arrow)">next &#9654;</button></div>
<p id="technique"></p>
<p id="rating"></p>
<p id="text"></p>
<p class="key"><span class="placing">placed</span><span class="striking">struck</span><span
class="cited">rests on</span></p>
<ol id="steps"></ol>
<noscript>This page steps through the path with a script; without one it shows the
givens only.</noscript>
</aside>
</main>
<script type="application/json" id="path-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
