"""The step page (``explain --format html``) without a browser: one self-contained page a puzzle,
its embedded path one entry a step, each step's candidates those of an independent replay
(tests/stepcheck.py), every cell's digit and pencil marks in its SVG for the script to show; and
``--format svg --step N`` drawing the same candidates. The browser's view is
tests/test_screenshot.py."""

import json
import re
import xml.etree.ElementTree as ET

import pytest

import satdoku
from conftest import PUZZLES, SAMPLE, SEVENTEEN, SMALL, UNSOLVABLE_4X4
from stepcheck import replay

from satdoku.model.digits import bits

PEAK = PUZZLES / "variants" / "peak.json"
NS = "{http://www.w3.org/2000/svg}"


def embedded(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="path-data">(.*?)</script>', page,
                      re.S)
    return json.loads(found.group(1))


def svg_of(page: str) -> ET.Element:
    return ET.fromstring(page[page.index("<svg"):page.index("</svg>") + len("</svg>")])


def as_cells(board) -> list:
    """stepcheck's board (masks, placed flags) as the page writes it."""
    cand, placed = board
    return [m.bit_length() if done else bits(m) for m, done in zip(cand, placed)]


@pytest.mark.parametrize("puzzle", [SMALL, SEVENTEEN, PEAK])
def test_each_entry_is_a_step_and_its_candidates_a_replay(run, puzzle):
    page = run("explain", "--format", "html", str(puzzle)).stdout
    data = embedded(page)
    e = satdoku.explain(str(puzzle), steps=True)
    path = e.path
    assert len(data["steps"]) == len(path.steps) > 0 and data["size"] == e.grid.size
    boards = replay(e.grid, path)  # before each step, then after the last
    for k, (entry, step) in enumerate(zip(data["steps"], path.steps)):
        assert entry["step"] == k + 1 and entry["text"] == step.text
        assert entry["placed"] == [list(p) for p in step.placed]
        assert entry["struck"] == [[c, d] for c, ds in step.eliminated for d in ds]
        assert entry["cells"] == as_cells(boards[k]), f"step {k + 1}"
    assert data["end"] == list(e.solution.cells) == as_cells(boards[-1])


def test_a_hidden_pair_rests_on_its_pair_and_its_house_by_name(run):
    data = embedded(run("explain", "--format", "html", SAMPLE).stdout)
    pair = next(s for s in data["steps"] if "Hidden Pair" in s["technique"])
    assert "(r3c1,r3c2)" in pair["text"] and pair["cited"] == [18, 19]
    single = next(s for s in data["steps"] if s["text"].startswith("Hidden Single in box 2"))
    assert single["cited"] == [3, 4, 5, 12, 13, 14, 21, 22, 23]


def test_the_page_is_self_contained_and_keys_every_cell(run):
    page = run("explain", "--format", "html", "--step", "3", str(PEAK)).stdout
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 1
    for banned in ("src=", "href=", "<link", "@import", "url(", "<iframe", "fetch("):
        assert banned not in page
    assert page.count("http") == 1  # the SVG namespace
    data = embedded(page)
    assert data["start"] == 3
    root = svg_of(page)
    ids = {e.get("id"): e for e in root.iter() if e.get("id")}
    n = data["size"]
    for c in range(n * n):
        assert ids[f"f{c}"].get("class") == "cell" and f"d{c}" in ids
        open_cell = ids[f"d{c}"].get("class") == "solved"
        assert all((f"m{c}-{d}" in ids) == open_cell for d in range(1, n + 1))
    assert {"14", "6", "9"} <= {t.text for t in root.iter(NS + "text")}  # little killer clues


def test_one_page_per_puzzle_into_a_folder_or_a_clear_refusal(run, tmp_path):
    several = run("explain", "--format", "html", SMALL, SAMPLE)
    assert several.exit_code == 2 and "--format html makes one page per puzzle" in several.stderr
    folder = tmp_path / "pages"
    made = run("explain", "--format", "html", SMALL, SAMPLE, "-o", f"{folder}/")
    assert made.exit_code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["arg-1.html", "arg-2.html"]
    unsolvable = run("explain", "--format", "html", UNSOLVABLE_4X4, "-o", f"{folder}/")
    assert unsolvable.exit_code == 1
    assert "no steps to show: the puzzle is unsolvable" in unsolvable.stderr
    past = run("explain", "--format", "html", "--step", "99", SMALL)
    assert past.exit_code == 1 and "step 99: the path has 7 steps" in past.stderr
    assert run("explain", "--step", "2", "--format", "json", SMALL).exit_code == 2


def test_the_step_picture_draws_the_replays_candidates_and_the_steps_colours(run):
    e = satdoku.explain(SAMPLE, steps=True)
    k = next(i for i, s in enumerate(e.path.steps) if s.eliminated or "Pair" in s.technique)
    svg = run("explain", "--format", "svg", "--step", str(k + 1), SAMPLE).stdout
    root = ET.fromstring(svg)
    marks = [t for t in root.iter(NS + "text") if t.get("class") == "candidate"]
    cand, placed = replay(e.grid, e.path)[k]
    assert len(marks) == sum(len(bits(m)) for m, done in zip(cand, placed) if not done)
    fills = {r.get("class") for r in root.iter(NS + "rect")}
    assert {"placing", "cited"} <= fills
    step = e.path.steps[k]
    coloured = [t for t in marks if t.get("font-weight") == "bold"]
    assert len(coloured) == len(step.placed) + sum(len(ds) for _, ds in step.eliminated)


def test_text_from_a_puzzle_file_cannot_open_an_element():
    from satdoku.output.html import step_page
    e = satdoku.explain(SMALL, steps=True)
    evil = "</script><script>alert(1)</script><b>"
    page = step_page(e.grid, e.path, e.solution, title=evil)
    assert "<script>alert" not in page and "<b>" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page
    body = page.split('id="path-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in body and embedded(page)["steps"]
