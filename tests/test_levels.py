"""Levels: what unit propagation and failed-literal probing settle, per encoding."""

import pytest

from conftest import grid_of
from satdoku.sat.levels import LEVELS, Levels

# 17-clue puzzles (the first, second and twelfth of the shared collection).
PROBED = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
SINGLES = ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7....."
LOCKED = ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91...."


@pytest.mark.parametrize("text, expected", [
    (SINGLES, {"minimal": "failed literals", "natural": "failed literals",
               "extended": "propagation", "augmented": "propagation"}),
    (LOCKED, {"extended": "failed literals", "augmented": "propagation",
              "reduced": "failed literals"}),
    (PROBED, {"extended": "failed literals", "augmented": "failed literals"}),
])
def test_levels_follow_the_encoding(text, expected):
    """Singles need house >= 1 clauses (extended); locked candidates need triads (augmented);
    the reduced encoding is measured as extended."""
    grid = grid_of(text)
    for encoding, level in expected.items():
        levels = Levels(encoding)
        try:
            assert levels.level(grid) == level, encoding
        finally:
            levels.close()


def test_an_empty_grid_needs_search_and_a_clash_is_settled():
    levels = Levels("extended")
    assert levels.level(grid_of("." * 16)) == "search"
    # r1c3 and r1c4 both need the 3: propagation meets the conflict.
    assert levels.level(grid_of("12....3....3....")) == "propagation"
    levels.close()
    assert LEVELS == ("propagation", "failed literals", "search")


def test_without_probing_what_propagation_leaves_is_unprobed():
    levels = Levels("extended", probe=False)
    assert [levels.level(grid_of(t)) for t in (SINGLES, PROBED)] == ["propagation", "unprobed"]


def test_variant_rules_take_part():
    """A thermometer along the first row of an empty 4x4 fixes that row (1 2 3 4) but leaves
    several grids: search. With a 4 in its bulb, propagation meets a conflict at once (the
    next cell has no digit left), which settles the puzzle: the rule is in the formula."""
    from satdoku.rules import Thermometer
    levels = Levels("extended")
    thermo = (Thermometer((0, 1, 2, 3)),)
    assert levels.level(grid_of("." * 16), thermo) == "search"
    assert levels.level(grid_of("4" + "." * 15), thermo) == "propagation"
    assert levels.level(grid_of("4" + "." * 15)) == "search"


def test_too_big_is_not_measured():
    levels = Levels("extended", max_clauses=100)
    assert levels.level(grid_of("." * 16)) is None


def test_native_search_guesses_where_augmented_propagation_stops():
    """The native search's propagation (singles, locked candidates) is the augmented
    encoding's unit propagation on 9x9: it settles without a guess the same puzzles."""
    from satdoku.tasks.solvers import make_solver, solve
    levels = Levels("augmented", probe=False)
    with make_solver("native") as native:
        for text in (SINGLES, LOCKED, PROBED):
            grid = grid_of(text)
            assert solve(native, grid).stats["no_guess"] == (levels.level(grid) == "propagation")
    levels.close()
