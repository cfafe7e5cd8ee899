"""propagate: each pass on a picture of candidates, and the driver to a fixed point."""

import pytest

from conftest import SAMPLE_HARD, grid_of
from satdoku.model.geometry import geometry, jigsaw
from satdoku.native.board import fold_givens
from satdoku.native.propagate import (Propagation, hidden_singles, locked_candidates,
                                      naked_singles, positions, propagate, rule_prunes)
from satdoku.native.subsets import naked_and_hidden_subsets
from satdoku.native.tables import tables

# Region A is r1c1, r1c2, r2c1, r3c1.
JIGSAW4 = jigsaw(((0, 1, 4, 8), (2, 3, 6, 7), (5, 9, 10, 11), (12, 13, 14, 15)))


def candidates(geo, rows):
    """Candidate bitmasks from a picture: one string of digits per cell ('.' for all)."""
    full = (1 << geo.size) - 1
    return [full if text == "." else sum(1 << (int(d) - 1) for d in text) for text in rows]


def run(step, geo, cand, subsets=2, constraints=()):
    """One pass on ``cand``, nothing placed, as :meth:`Propagation.begin` leaves it (cells with
    one candidate queued, keys of one position or none to look at, every house dirty):
    (result, queue, fail)."""
    t = tables(geo)
    p = Propagation(t, subsets=subsets, constraints=constraints)
    p.begin(cand, [0] * t.nhouses)
    return step(p), p.queue, p.fail


def test_naked_single_leaves_its_peers():
    geo = geometry(2, 2)
    cand = candidates(geo, ["1"] + ["."] * 15)
    found, queue, _ = run(naked_singles, geo, cand)
    assert found is True and queue == []
    peers = set(geo.peers[0])
    assert all(cand[c] == 0b1110 for c in peers)
    assert all(cand[c] == 0b1111 for c in range(1, 16) if c not in peers)


def test_naked_single_chain_and_contradiction():
    # r1c1 = 1 and r1c3 = 2 with r1c2 {1, 2} between them: one of the three is emptied
    # (which one depends on the order the queue is taken in), and its houses failed.
    geo = geometry(2, 2)
    cand = candidates(geo, ["1", "12", "2", "."] + ["."] * 12)
    found, _, fail = run(naked_singles, geo, cand)
    assert found is None and tuple(fail) in {geo.cell_houses[c] for c in range(3)}


def test_hidden_single_goes_to_its_only_place():
    # Row 1: 4 can only go in r1c3.
    geo = geometry(2, 2)
    cand = candidates(geo, ["123", "123", "1234", "123"] + ["."] * 12)
    found, queue, _ = run(hidden_singles, geo, cand)
    assert found is True and cand[2] == 0b1000 and 2 in queue


def test_digit_without_a_place_is_a_contradiction():
    geo = geometry(2, 2)
    cand = candidates(geo, ["12", "12", "123", "123"] + ["."] * 12)
    found, _, fail = run(hidden_singles, geo, cand)
    assert found is None and fail == [0]


def test_pointing_and_claiming():
    step = locked_candidates
    # Box 1 of a 9x9 grid: 1 only in r1c1..r1c3 (pointing: it leaves r1c4..r1c9).
    geo = geometry(3, 3)
    rows = ["."] * 81
    for cell in (9, 10, 11, 18, 19, 20):
        rows[cell] = "23456789"
    cand = candidates(geo, rows)
    found, _, _ = run(step, geo, cand)
    assert found is True
    assert all(not cand[c] & 1 for c in range(3, 9)) and all(cand[c] & 1 for c in range(3))
    # Row 1: 1 only in r1c1..r1c3 (claiming: it leaves the rest of box 1).
    rows = ["."] * 81
    for cell in range(3, 9):
        rows[cell] = "23456789"
    cand = candidates(geo, rows)
    assert run(step, geo, cand)[0] is True
    assert all(not cand[c] & 1 for c in (9, 10, 11, 18, 19, 20))


def test_locked_candidates_in_jigsaw_regions():
    # Region A's 4 can only be in r1c1 or r1c2 (one segment of row 1), so 4 leaves the rest of
    # row 1 (pointing).
    geo = JIGSAW4
    cand = candidates(geo, ["14", "24", "1234", "1234",
                            "123", ".", ".", ".",
                            "123", ".", ".", "."] + ["."] * 4)
    assert run(locked_candidates, geo, cand)[0] is True
    assert cand[2] == cand[3] == 0b0111


@pytest.mark.parametrize("geo", [geometry(*box) for box in ((2, 2), (2, 3), (3, 2), (3, 3),
                                                          (1, 4), (2, 4), (4, 4), (3, 5))]
                         + [JIGSAW4], ids=str)
def test_locked_tables_follow_the_geometry_segments(geo):
    """Each house's segments by position are the geometry's segments of two cells or more
    with cells outside them in both houses, as positions of each house."""
    n, houses = geo.size, geo.houses
    locks, stride = tables(geo).locks, tables(geo).stride

    def where(h, cells):
        return sum(1 << houses[h].index(c) for c in cells)

    want = {(h, i): set() for h in range(len(houses)) for i in range(n)}
    for seg in geo.segments:
        if seg.line_rest and seg.box_rest and len(seg.cells) > 1:
            for c in seg.cells:
                for h, other in ((seg.line, seg.box), (seg.box, seg.line)):
                    want[h, houses[h].index(c)].add(
                        (where(h, seg.cells), other * stride, where(other, seg.cells)))
    assert {key: set(locks[key[0]][key[1]]) for key in want} == want
    if geo.box_rows == 1:
        assert not any(map(any, locks))


def run_subsets(geo, cand, largest=2):
    return run(naked_and_hidden_subsets, geo, cand, subsets=largest)


def test_naked_pair_clears_the_rest_of_its_house():
    # Row 1 of a 6x6 grid: r1c1 and r1c2 are {1, 2}, so r1c3 and r1c4 lose 1 and 2.
    geo = geometry(2, 3)
    cand = candidates(geo, ["12", "12", "123", "1234", "123456", "123456"] + ["."] * 30)
    found, queue, _ = run_subsets(geo, cand)
    assert found is True
    assert cand[2] == 0b100 and cand[3] == 0b1100 and queue == [2]
    assert cand[4] == cand[5] == 0b110000  # and 5, 6 are a hidden pair there


def test_hidden_pair_keeps_its_cells_to_itself():
    # Row 1 of a 6x6 grid: 5 and 6 can go only in r1c1 and r1c2, which lose 1 and 2.
    geo = geometry(2, 3)
    cand = candidates(geo, ["1256", "256", "1234", "1234", "1234", "1234"] + ["."] * 30)
    found, _, _ = run_subsets(geo, cand)
    assert found is True
    assert cand[0] == cand[1] == 0b110000


def test_three_digits_in_two_cells_is_a_contradiction():
    geo = geometry(2, 3)
    cand = candidates(geo, ["456", "456", "123", "123", "123", "123"] + ["."] * 30)
    assert run_subsets(geo, cand)[0] is None


def test_naked_triple_clears_the_rest_of_its_house():
    # Row 1 of a 9x9 grid: r1c1..r1c3 hold {1,2}, {2,3}, {1,3}: 1, 2 and 3 leave the rest.
    geo = geometry(3, 3)
    row = ["12", "23", "13", "1234", "12345", "456789", "456789", "456789", "456789"]
    cand = candidates(geo, row + ["."] * 72)
    assert run_subsets(geo, cand, 2)[0] is False  # no pair: triples are what makes progress
    cand = candidates(geo, row + ["."] * 72)
    found, queue, _ = run_subsets(geo, cand, 3)
    assert found is True and queue == [3]
    assert cand[3] == 0b1000 and cand[4] == 0b11000


def test_hidden_triple_keeps_its_cells_to_itself():
    # Row 1 of a 9x9 grid: 1, 2 and 3 can go only in r1c1..r1c3, which lose 7, 8 and 9.
    geo = geometry(3, 3)
    row = ["1278", "2389", "1379", "456789", "456789", "456789", "456789", "456789", "456789"]
    cand = candidates(geo, row + ["."] * 72)
    assert run_subsets(geo, cand, 2)[0] is False
    found, _, _ = run_subsets(geo, cand, 3)
    assert found is True
    assert cand[:3] == [0b011, 0b110, 0b101]


def test_four_cells_with_three_digits_is_a_contradiction():
    geo = geometry(3, 3)
    row = ["12", "23", "13", "123", "456789", "456789", "456789", "456789", "456789"]
    assert run_subsets(geo, candidates(geo, row + ["."] * 72), 3)[0] is None


class KeepOdd:
    """Test rule: r1c1 is odd."""

    def prune(self, cand):
        if cand[0] & 0b1010:
            cand[0] &= 0b0101
            return [0] if cand[0] else None
        return []


def test_rule_prunes_report_what_changed():
    geo = geometry(2, 2)
    cand = candidates(geo, ["12"] + ["."] * 15)
    found, queue, _ = run(rule_prunes, geo, cand, constraints=(KeepOdd(),))
    assert found is True and cand[0] == 1 and queue == [0]
    assert run(rule_prunes, geo, cand, constraints=(KeepOdd(),))[0] is False
    assert run(rule_prunes, geo, candidates(geo, ["2"] + ["."] * 15),
               constraints=(KeepOdd(),))[0] is None


def test_driver_reaches_the_fixed_point_of_every_pass():
    # Two solutions (1 and 2 swap in r1c1, r1c2, r3c1, r3c2) until the rule's prune makes
    # r1c1 = 1; singles then fill the rest.
    geo = geometry(2, 2)
    t = tables(geo)
    solution = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    givens = [c for c in range(16) if c not in (0, 1, 8, 9)]
    cand = [1 << (solution[c] - 1) if c in givens else t.full for c in range(16)]
    plain = Propagation(t)
    stalled = list(cand)
    plain.begin(stalled, [0] * t.nhouses)
    assert propagate(plain)
    assert [stalled[c] for c in (0, 1, 8, 9)] == [0b11] * 4
    p = Propagation(t, constraints=(KeepOdd(),))
    p.begin(cand, [0] * t.nhouses)
    assert propagate(p)
    assert tuple(m.bit_length() for m in cand) == solution


def test_positions_follow_every_removal():
    """After any pass the positions are those the candidates give (for the keys whose digit
    is not placed): every removal kept them."""
    geo = geometry(3, 3)
    t = tables(geo)
    cand, placed, _ = fold_givens(geo, grid_of(SAMPLE_HARD).cells)
    p = Propagation(t, subsets=3)
    p.begin(cand, placed)
    assert propagate(p)
    fresh = positions(t, cand, placed)
    stride = t.stride  # key: house * stride + digit
    live = [k for k in range(len(fresh))
            if k % stride and not placed[k // stride] >> (k % stride - 1) & 1]
    assert live and [p.pos[k] for k in live] == [fresh[k] for k in live]
