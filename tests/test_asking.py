"""The setter's commands (explain, candidates, rate, generate) on the command line: the one
exit-code table (docs/commands.md), the puzzle's name in every pretty title, and the step
picture."""

import json

import pytest

from conftest import EMPTY_4X4, PUZZLES, SMALL, UNSOLVABLE_4X4, run_cli

INVALID_4X4 = "11.." + "." * 12
PEAK = PUZZLES / "variants" / "peak.json"


@pytest.mark.parametrize("command, puzzle, more, status, code", [
    ("explain", SMALL, (), "unique", 0),
    ("explain", EMPTY_4X4, (), "multiple", 0),
    ("explain", UNSOLVABLE_4X4, (), "unsolvable", 0),  # explained: an answer
    ("explain", INVALID_4X4, (), "invalid", 1),
    ("explain", "." * 81, ("--timeout", "1e-9"), "timeout", 1),
    ("explain", SMALL, ("--max-clauses", "1"), "refused", 1),
    ("candidates", SMALL, (), "unique", 0),
    ("candidates", EMPTY_4X4, (), "multiple", 0),
    ("candidates", UNSOLVABLE_4X4, (), "unsolvable", 0),
    ("candidates", INVALID_4X4, (), "invalid", 1),
    ("candidates", "." * 81, ("--timeout", "1e-9"), "timeout", 1),
    ("rate", SMALL, (), "unique", 0),
    ("rate", EMPTY_4X4, (), "multiple", 0),  # an answer: it has no difficulty
    ("rate", UNSOLVABLE_4X4, (), "unsolvable", 1),
    ("rate", INVALID_4X4, (), "invalid", 1),
    ("rate", "." * 81, ("--timeout", "1e-9"), "timeout", 1),
    ("rate", SMALL, ("--max-clauses", "1"), "refused", 1),
])
def test_exit_codes_follow_the_one_table(run, command, puzzle, more, status, code):
    result = run(command, puzzle, *more, "--format", "json")
    assert json.loads(result.stdout)["status"] == status
    assert result.exit_code == code, result.output


@pytest.mark.parametrize("more, code, said", [
    (("--box", "2x2", "--seed", "1", "--format", "json"), 0, ""),
    (("--seed", "1", "--max-clues", "17", "--attempts", "2"), 1,
     "made 0 of 1 puzzles: no puzzle with at most 17 clues found in 2 grids"),
    (("--box", "6x6", "--seed", "1", "--timeout", "0.2"), 1,
     "made 0 of 1 puzzles: time limit of 0.2 s reached"),
    # several pictures without a folder: refused before any puzzle is made (an 81x81 one
    # would take hours)
    (("--box", "9x9", "--count", "2", "--format", "svg"), 2, "one picture per puzzle"),
    (("--box", "3x", "--seed", "1"), 2, "--box"),
])
def test_generate_exit_codes_follow_the_one_table(run, more, code, said):
    # generate reads no puzzle: a puzzle made is unique (0); conditions it could not meet within
    # --attempts or the time limit exit 1, as a timeout does; usage errors exit 2.
    result = run("generate", *more)
    assert result.exit_code == code, result.output
    assert said in result.stderr
    if code == 0:
        assert json.loads(result.stdout)["status"] == "unique"


@pytest.mark.parametrize("command", ["explain", "candidates", "rate"])
def test_the_name_is_in_the_pretty_title_as_solve_shows_it(run, command):
    # (Peak, a named 4x4: rate scores a variant by its step path, which Miracle's takes
    # seconds to find.)
    title = run(command, PEAK).stdout.splitlines()[0]
    solved = run("solve", PEAK).stdout.splitlines()[0]
    assert solved.endswith("  # Peak Sudoku") and title.endswith("  # Peak Sudoku")


def test_explain_steps_in_every_format(run, tmp_path):
    pretty = run("explain", "--steps", PEAK).stdout
    assert "the steps: 26 steps, ER 3.5/EP 3.5/ED 1.5" in pretty
    assert "     1. one rule: r1c4 != 1; r2c3 != 1; r3c2 != 1; r4c1 != 1, by little killer" \
        in pretty
    line = run("explain", "--steps", "--format", "line", PEAK).stdout
    assert line.startswith("unique: 26 steps, ER 3.5/") and line.count("\n") == 1
    rec = json.loads(run("explain", "--steps", "--format", "json", PEAK).stdout)
    assert len(rec["steps"]) == rec["path"]["steps"] == 26
    first = rec["steps"][0]
    assert first["facts"] == {"rules": ["little killer at r0c5 = 14"], "cells": {}}
    assert first["eliminated"] == {"r1c4": ["1"], "r2c3": ["1"], "r3c2": ["1"], "r4c1": ["1"]}
    picture = run("explain", "--format", "svg", "--step", "3", PEAK).stdout
    assert picture.startswith("<svg") and "step 3 of 26: one rule: r1c2 != 1" in picture
    assert run("explain", "--step", "3", PEAK).exit_code == 2  # svg only
    assert run("explain", "--max-rules", "1", PEAK).exit_code == 2  # with --steps
    guessed = run("explain", "--steps", "--max-rules", "1", "--format", "line", PEAK).stdout
    assert "it guesses (no step of at most 1 rules is left there)" in guessed


def test_generate_stops_when_the_rules_alone_fix_the_grid():
    # every puzzle would be the same empty grid: one is made, and a note says why no more
    from conftest import PUZZLES
    result = run_cli("generate", "--rules",
                     str(PUZZLES / "variants" / "6x6-extreme-killer.json"),
                     "--count", "3", "--seed", "1", "--format", "line")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert sum(line.startswith("{") for line in lines) == 1
    assert lines[-1] == ("made 1 of 3 puzzles: the rules alone have one solution, so every "
                         "puzzle would be this one, with no givens")
