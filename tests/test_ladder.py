"""The Sudoku Explainer ladder (satdoku/native/ladder.py, named.py, uniqueness.py).

The reference is serate itself (SukakuExplainer, run by scripts/serate.py with SE 1.2.1's
techniques): tests/data/serate_sample.txt holds its ER/EP/ED for puzzles of every hardness,
with their source. Every puzzle of the sample is checked, none skipped: where the ladder
finishes, ER, EP and ED equal serate's; where it stops short (nested forcing chains, which it
does not have), its ER is a lower bound no higher than serate's and its EP and ED equal
serate's. Puzzles serate rates 8.0 and up take seconds each, so their run is marked slow;
tests/data/serate_boards.txt checks each later chaining rung on a board where it is next.
"""

from __future__ import annotations

import sys

import pytest

from conftest import ROOT
from satdoku.deadline import Deadline
from satdoku.io.text import parse_puzzle
from satdoku.native.board import Board
from satdoku.native import ladder
from satdoku.native.ladder import LADDER, apply_step, next_step, se_rate, se_steps
from satdoku.native.named import describe
from satdoku.native.search import NativeSolver
from satdoku.tasks.solvers import solve

sys.path.insert(0, str(ROOT / "scripts"))
from bench_se import SAMPLE, read_reference  # noqa: E402

REFERENCE, _ = read_reference([SAMPLE])
SAMPLE_PUZZLE = ".714....5....5..8...39.76.......1....9.8.6..3......82..6..4.7.83......9.....85..."


def test_sample_is_from_serate_and_spans_the_scale():
    assert SAMPLE.read_text().startswith("# serate")
    ers = [ref[0] for _, ref, _, _ in REFERENCE]
    assert len(ers) >= 150
    for low, high in ((0, 2), (2, 4), (4, 6), (6, 8), (8, 10)):
        assert any(low <= er < high for er in ers), (low, high)


def _replay_against_solution(grid, steps) -> list[str]:
    """What is wrong with ``steps`` replayed on ``grid``'s board: a removal of the solution's
    digit or of a candidate not there, a placement of another digit."""
    solution = solve(NativeSolver(), grid, limit=2).solution.cells
    board, _ = Board.from_grid(grid)
    wrong = []
    for step in steps:
        text = describe(step, grid.geometry)
        for cell, d in step.removes:
            if solution[cell] == d or not board.cand[cell] & (1 << (d - 1)):
                wrong.append(text)
        if step.place is not None and solution[step.place[0]] != step.place[1]:
            wrong.append(text)
        apply_step(board, step)
    return wrong


#: Past this serate ER the sample's puzzles take seconds each (dynamic forcing chains): slow.
FAST_BELOW = 8.0
#: From this ER to FAST_BELOW (chains, ~0.2 s a puzzle) the fast run takes every 4th puzzle.
CHAINS_FROM = 6.0


@pytest.mark.parametrize("band, every", [
    pytest.param((0, CHAINS_FROM), 1, id="fast"),
    pytest.param((CHAINS_FROM, FAST_BELOW), 4, id="chains-sample"),
    pytest.param((CHAINS_FROM, FAST_BELOW), 1, id="chains", marks=pytest.mark.slow),
    pytest.param((FAST_BELOW, 99), 1, id="dynamic", marks=pytest.mark.slow)])
def test_ratings_agree_with_serate_and_every_step_keeps_the_solution(band, every):
    """The whole sample (the band's every ``every``-th puzzle), each puzzle rated once: ratings
    as serate's (or a bound, see the module docstring), and no step removes the solution's
    digit or places another."""
    wrong = []
    in_band = [entry for entry in REFERENCE if band[0] <= entry[1][0] < band[1]]
    for puzzle, (er, ep, ed), technique, source in in_band[::every]:
        grid = parse_puzzle(puzzle).grid
        r = se_rate(grid)
        if r.complete:
            ok = (r.er, r.ep, r.ed) == (er, ep, ed)
        else:
            ok = r.er <= er and r.ep_exact and r.ep == ep and r.ed == ed
        if not ok:
            wrong.append(f"{source}: serate {er}/{ep}/{ed} {technique}, satdoku {r.text}")
        wrong += [f"{source}: {text}" for text in _replay_against_solution(grid, r.steps)]
    assert not wrong, "\n".join(wrong)


def _by_technique(name: str) -> list[str]:
    return [p for p, _, technique, _ in REFERENCE if technique == name]


@pytest.mark.parametrize("serate_name, ours", [
    ("Hidden Single", {"Hidden Single", "Full House"}), ("Direct Pointing", {"Direct Pointing"}),
    ("Direct Hidden Pair", {"Direct Hidden Pair"}),
    ("Naked Single", {"Naked Single"}), ("Direct Hidden Triplet", {"Direct Hidden Triple"}),
    ("Pointing", {"Pointing"}), ("Claiming", {"Claiming"}), ("Naked Pair", {"Naked Pair"}),
    ("X-Wing", {"X-Wing"}), ("Hidden Pair", {"Hidden Pair"}), ("Naked Triplet", {"Naked Triple"}),
    ("Swordfish", {"Swordfish"}), ("Hidden Triplet", {"Hidden Triple"}),
    ("XY-Wing", {"XY-Wing"}), ("XYZ-Wing", {"XYZ-Wing"}),
    ("Unique Rectangle type 1", {"Unique Rectangle type 1"}),
    ("Unique Rectangle type 2", {"Unique Rectangle type 2"}),
    ("Unique Rectangle type 3", {"Unique Rectangle type 3"}),
    ("Unique Rectangle type 4", {"Unique Rectangle type 4"}),
    ("Unique Loop 6 type 1", {"Unique Loop 6 type 1"}),
    ("Unique Loop 6 type 2", {"Unique Loop 6 type 2"}), ("Jellyfish", {"Jellyfish"}),
    ("BUG type 1", {"BUG type 1"}), ("BUG type 2", {"BUG type 2"}),
    ("Turbot Fish", {"Forcing X-Chain"}), ("Bidirectional Y-Cycle", {"Y-Cycle"}),
    ("Bidirectional Cycle", {"XY-Cycle"}), ("Forcing Chain", {"Forcing XY-Chain"}),
])
def test_each_technique_on_a_puzzle_serate_rates_by_it(serate_name, ours):
    # The sample has no puzzle serate rates by direct claiming, naked or hidden quad, or aligned
    # pair exclusion.
    puzzles = _by_technique(serate_name)
    assert puzzles, f"the sample has no puzzle serate rates by {serate_name}"
    for puzzle in puzzles[:2]:
        r = se_rate(parse_puzzle(puzzle).grid)
        assert r.hardest in ours or not r.complete


BOARDS = [line.split("\t") for line in (ROOT / "tests" / "data" / "serate_boards.txt")
          .read_text().splitlines() if line and not line.startswith("#")]


def _board(text: str) -> Board:
    """A 9x9 board from 81 cells of 9 characters (a cell with one candidate is placed)."""
    geo = parse_puzzle("." * 81).grid.geometry
    cand = [sum(1 << (int(ch) - 1) for ch in text[9 * c:9 * c + 9] if ch != ".")
            for c in range(81)]
    return Board(geo, cand, [m.bit_count() == 1 for m in cand])


def _proves(step: str) -> tuple[str, str, bool]:
    """What serate's step text proves, as (cell, digit, on): ``'...: r6c2 ==> r3c3.2 off'``;
    a contradiction (``'r3c7.6 on ==> r3c6.9 both on & off'``) proves its assumption false."""
    head, tail = step.split(": ", 1)[1].split(" ==> ")
    if tail.endswith("both on & off"):
        assumption, state = head.split()
        return (*assumption.split("."), state == "off")
    target, state = tail.split()
    return (*target.split("."), state == "on")


@pytest.mark.parametrize("text, rating, step, _", [
    pytest.param(*b, id=b[2].split(":")[0], marks=[pytest.mark.slow] if float(b[1]) >= 9.5 else [])
    for b in BOARDS])
def test_the_first_chaining_step_on_a_board_is_serates(text, rating, step, _):
    """Aligned triplet exclusion, nishio, multiple, dynamic and nested forcing chains (slow):
    the ladder's step on a board where it is the next is serate's first step there: its
    rating, and what it proves (the exclusion: its cells)."""
    board = _board(text)
    ours = next_step(board)
    if " ==> " not in step:  # aligned triplet exclusion: its cells
        technique, cells = step.split(": ")
        assert (ours.rating, ours.technique) == (float(rating), technique)
        assert ours.reason.startswith(f"({cells};"), describe(ours, board.geo)
        return
    name = board.geo.cell_name
    if ours.place is not None:
        proves = (name(ours.place[0]), str(ours.place[1]), True)
    else:
        (cell, d), = ours.removes
        proves = (name(cell), str(d), False)
    assert (ours.rating, proves) == (float(rating), _proves(step)), describe(ours, board.geo)


def test_steps_keep_the_solution_on_other_box_shapes():
    for puzzle in ("1..4.4..2..3...1", ".54.......6.2......3...1......3.64..",
                   "....52.18.........28.1..4.........8.....74.....6..1..3.....5..64"):
        grid = parse_puzzle(puzzle).grid
        r = se_rate(grid)
        assert r.complete and r.steps
        assert not _replay_against_solution(grid, r.steps)


def test_the_readme_sample_needs_no_guessing():
    r = se_rate(parse_puzzle(SAMPLE_PUZZLE).grid)
    assert (r.er, r.ep, r.ed, r.hardest, r.complete) == (2.3, 1.2, 1.2, "Naked Single", True)


def test_steps_read_as_a_person_writes_them():
    grid = parse_puzzle(SAMPLE_PUZZLE).grid
    texts = [describe(step, grid.geometry) for _, step in se_steps(grid)]
    assert texts[0] == "Hidden Single in box 2: r1c6=8"
    assert any(t.startswith("Direct Hidden Pair ") and "=" in t for t in texts)


def test_a_stall_is_a_lower_bound_and_says_so(monkeypatch):
    # serate: 10.8, dynamic forcing chains with forcing chains nested (forum_hardest_1106:38);
    # a ladder without its nested rungs (9.0 and up) stops at once
    monkeypatch.setattr(ladder, "LADDER", LADDER[:-4])
    hardest = ".....1..7....6..2.8..9..3...954....3..3...4..4......8......7..6.1..2....5..3..9.."
    r = se_rate(parse_puzzle(hardest).grid)
    assert not r.complete and r.status == "stalled"
    assert r.er >= 4.5 and r.text.startswith("ER >=")
    assert r.stalled.startswith("beyond the ladder after ")


def test_a_stall_is_bounded_by_se_level_4(monkeypatch):
    # forum_hardest_1106.txt:52, serate 11.7/11.7/11.6 (dynamic forcing chains nested, its
    # level 4): no rung below level 4 finds a step on its givens, so a ladder without level 4
    # stops there, and 10.5 (level 4's base) bounds ER, EP and ED
    monkeypatch.setattr(ladder, "LADDER", LADDER[:-1])
    hardest = "..9...4...7.3...2.8...6...71..8....6....1..7.....56...3....5..1.4.....9...2...7.."
    r = se_rate(parse_puzzle(hardest).grid)
    assert (r.status, r.steps, r.er, r.ep, r.ed) == ("stalled", [], 10.5, 10.5, 10.5)
    assert r.text.startswith("ER >=10.5/EP >=10.5/ED >=10.5")


def test_bug_type_1_keeps_a_cell_of_four_candidates_to_its_two_bug_values():
    # magictour_top1465.txt:228, serate 6.8/1.2/1.2 (Bidirectional Y-Cycle): after the cycle
    # SE's BUG rule finds one BUG cell, r3c2 (4679), with BUG values 6 and 7; a BUG type 1 that
    # took cells of three candidates only found nothing there, and the ladder's next step, a
    # forcing chain, rated 7.1
    puzzle = "..14.7...5.....6.....8.....4.86...7.....2.3...........63..5...........41.2......."
    r = se_rate(parse_puzzle(puzzle).grid)
    assert (r.er, r.ep, r.ed, r.hardest) == (6.8, 1.2, 1.2, "Y-Cycle")
    bug1 = [s for s in r.steps if s.technique == "BUG type 1"]
    assert [(s.reason, s.removes) for s in bug1] == [("on 6,7 (r3c2)", ((19, 4), (19, 9)))]


#: Boards made from the BUG states of puzzles of the serate sample and top1465, a few cells
#: given one more candidate each (81 cells of 9 characters); serate, given these pencil marks,
#: takes the step each test names first.
BUG4_BOARD = (
    "...4...8..2..........4...8.......7....3......1.............6...........9....5...."
    "1....6.......56...1...5.....2..........4.............9..3.............8.......7.."
    "........9......7....3..........5.........6.8......6.8....4......2.......1........"
    "..34........45............91.........2.........3.5...........8.......7.......6..."
    "..3...7..1............5.7.......6.......5..8...3....8..2..........4.............9"
    ".2..............8......6......4.............9......7..1............5......3......"
    "1.....78.........91.....78...3......1.....7.....4.........5.........6....2......."
    ".....67....3.......2..............8.....5.7......56...........91...........4....."
    "....5.......4.6...1..4.............91....6....2.............7....3.............8.")
BUG2_BOARD = (
    "......7..1.........2...........56..9....5...9..3.........4............8......6..9"
    "....56..9.......8.....5...9.....6..9...4.....1..........3............7...2......."
    ".....6..9..3.........4............8..2.............7.......6..9....5....1........"
    "...4......2...........5...91..........3..........5...9.......8......6.........7.."
    "1............5...9..3............7.........8......6....2..........4.........5...9"
    ".......8.......7.......6....2...........5...9...4.........5...91..........3......"
    "....5...9....5...9......7.....4..........6....2.......1..........3.............8."
    "..3...........6..........8.....5...91............5...9......7...2..........4....."
    ".2..........4.....1..........3............7.........8.....56...........9....56...")


def test_bug_type_4_as_serate_takes_it():
    # serate: "BUG type 4: r7c1,r7c3 on 8": the two BUG cells share box 7 (and row 7) and, past
    # their BUG values, only 8; each keeps its BUG value and 8
    step = next_step(_board(BUG4_BOARD))
    assert (step.technique, step.rating, step.removes) == ("BUG type 4", 5.7, ((54, 1), (56, 7)))


def test_bug_type_2_as_serate_takes_it():
    # serate: "BUG type 2: r2c1,r1c4 on 9": one BUG value, out of the cells that see both
    step = next_step(_board(BUG2_BOARD))
    assert (step.technique, step.rating, step.removes) == ("BUG type 2", 5.7, ((12, 9),))


def test_rates_above_stops_at_the_first_step_above_the_ceiling():
    grid = parse_puzzle(SAMPLE_PUZZLE).grid  # ER 2.3
    assert ladder.rates_above(grid, 2.2) and not ladder.rates_above(grid, 2.3)
    # forum_hardest_1106.txt:52 (serate 11.7): the rungs above 8.9 are not asked, so the ladder
    # stalls at once, and that is above the ceiling too
    hardest = "..9...4...7.3...2.8...6...71..8....6....1..7.....56...3....5..1.4.....9...2...7.."
    assert ladder.rates_above(parse_puzzle(hardest).grid, 8.9, Deadline(20))


def test_the_deadline_bounds_the_ladder():
    r = se_rate(parse_puzzle(SAMPLE_PUZZLE).grid, Deadline(0.0))
    assert (r.status, r.complete) == ("timeout", False)
    # stopped in the first rung: nothing is known but that a step rates 1.0 at least
    assert (r.er, r.stalled) == (1.0, "at the time limit after the givens: ER >= 1.0")


def test_a_time_limit_in_a_rung_bounds_er_by_it_and_the_rungs_after():
    names = [name for name, _ in LADDER]
    floors = [ladder.floor(name, finder) for name, finder in LADDER]
    assert floors == sorted(floors)  # what the bound and rates_above's cut rest on
    floor = {name: ladder.Stopped(names.index(name)).floor for name in names}
    assert floor["nested dynamic forcing chain"] == 10.5
    assert floor["nishio forcing chain"] == floor["aligned triplet exclusion"] == 7.5
    assert floor["aligned pair exclusion"] == 6.2 and floor["unique rectangle"] == 4.5


def test_the_deadline_bounds_the_nested_rungs():
    from satdoku.deadline import TimeUp
    from satdoku.native.nesting import nested_forcing_chain
    hardest = ".....1..7....6..2.8..9..3...954....3..3...4..4......8......7..6.1..2....5..3..9.."
    board, _ = Board.from_grid(parse_puzzle(hardest).grid)
    with pytest.raises(TimeUp):
        nested_forcing_chain(board, Deadline(0.2))


def test_a_board_that_breaks_is_reported():
    board, _ = Board.from_grid(parse_puzzle("1..4.4..2..3...1").grid)
    step = LADDER[0][1](board)
    board.cand[step.place[0]] = 0  # the placed digit is gone: applying breaks the board
    assert not apply_step(board, step)


def test_a_unique_rectangles_type_3_keeps_to_ses_degrees_on_bigger_grids(monkeypatch):
    """SE looks for the naked and hidden sets of a type 3 up to degree 7 (all a 9x9 house
    allows); past 9x9 each further degree multiplies the sets to try (a 25x25 puzzle's
    rating took minutes), so bigger grids keep to the same degrees."""
    import itertools
    from satdoku.model.geometry import geometry
    from satdoku.model.grid import Grid
    from satdoku.native import uniqueness
    tried = []

    def counted(items, r):
        tried.append(r)
        return itertools.combinations(items, r)

    monkeypatch.setattr(uniqueness, "combinations", counted)
    geo = geometry(4, 4)
    board, ok = Board.of_givens(Grid(geo, (0,) * geo.ncells))  # every house has 16 open cells
    assert ok
    list(uniqueness._type3(board, 0b11, 0, 1, 0b1100))  # r1c1, r1c2 share row 1 and box 1
    assert tried and max(tried) == uniqueness.MAX_TYPE3_DEGREE


def test_a_forcing_search_skipped_for_an_earlier_ones_reach_would_have_found_nothing():
    """A forcing chain search whose start an earlier search that found nothing reached is
    skipped: run anyway, it finds nothing. Each start of each pass, on the boards where the
    sample's puzzles of ER 6.6-7.5 take a chain, searched with what earlier searches reached
    and with nothing, finds the same chain."""
    from satdoku.native.chains import PASSES, _forcing, _Links
    boards = []
    for puzzle, (er, _, _), _, _ in REFERENCE:
        if 6.6 <= er < 7.6 and len(boards) < 6:
            for board, step in se_steps(parse_puzzle(puzzle).grid):
                if "Chain" in step.technique or "Cycle" in step.technique:
                    boards.append(Board(board.geo, list(board.cand), list(board.placed)))
                    break
    skipped = found = 0
    for board in boards:
        links = _Links(board)
        for y, x, _ in PASSES:
            if not x:
                continue
            tables = links.on_links(y), links.off_links(y, x)
            reached: set[int] = set()
            for start in sorted(links.key(c, d, on) for c in links.open
                                for d in range(1, 10) if links.cand[c] >> (d - 1) & 1
                                for on in (True, False)):
                skipped += start in reached
                shared = _forcing(links, *tables, start, 10 ** 6, reached)
                alone = _forcing(links, *tables, start, 10 ** 6, set())
                assert ([n.key for n in shared[0].path()] if shared else []) == \
                    ([n.key for n in alone[0].path()] if alone else [])
                found += bool(alone)
    assert len(boards) == 6 and skipped > 100 and found > 10, (len(boards), skipped, found)
