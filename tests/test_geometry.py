"""geometry: the one shared model of rows, columns and boxes, for every box shape."""

import pickle

import pytest

from satdoku.model.geometry import box_shapes, default_box, geometry, geometry_for_size

SHAPES = [(1, 1), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (2, 5), (4, 4), (5, 5), (8, 8)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_houses_partition_the_grid_three_ways(shape):
    geo = geometry(*shape)
    n = geo.size
    assert n == shape[0] * shape[1] and geo.ncells == n * n
    assert len(geo.houses) == 3 * n
    for kind in range(3):  # rows, columns, boxes: each a partition of all cells into N houses
        houses = geo.houses[kind * n:(kind + 1) * n]
        assert sorted(c for h in houses for c in h) == list(range(n * n))
        assert all(len(h) == n for h in houses)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_cell_houses_and_boxes_agree_with_coordinates(shape):
    r, c = shape
    geo = geometry(r, c)
    n = geo.size
    for cell in range(geo.ncells):
        row, col = geo.row_col(cell)
        row_h, col_h, box_h = geo.cell_houses[cell]
        assert (row_h, col_h) == (row, n + col)
        assert cell in geo.houses[row_h] and cell in geo.houses[col_h] and cell in geo.houses[box_h]
        box_cells = geo.houses[box_h]
        assert {geo.row_col(x)[0] // r for x in box_cells} == {row // r}
        assert {geo.row_col(x)[1] // c for x in box_cells} == {col // c}


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_peers(shape):
    r, c = shape
    geo = geometry(r, c)
    n = geo.size
    expected = 3 * (n - 1) - (r - 1) - (c - 1)  # row + column + box, less the overlaps
    for cell, peers in enumerate(geo.peers):
        assert len(peers) == expected and cell not in peers and list(peers) == sorted(peers)
        for other in peers:
            assert cell in geo.peers[other]
            assert set(geo.cell_houses[cell]) & set(geo.cell_houses[other])


def test_geometry_is_cached_and_pickles_to_the_cached_object():
    assert geometry(3, 3) is geometry(3, 3)
    assert geometry(2, 3) is not geometry(3, 2)
    assert pickle.loads(pickle.dumps(geometry(3, 4))) is geometry(3, 4)


def test_names_are_one_based():
    geo = geometry(3, 3)
    assert geo.cell_name(geo.cell(2, 6)) == "r3c7"
    assert [geo.house_name(h) for h in (0, 9 + 6, 18 + 4)] == ["row 1", "column 7", "box 5"]
    assert geo.shape == "3x3"


def test_box_shapes_and_defaults():
    assert box_shapes(6) == [(2, 3), (3, 2), (1, 6), (6, 1)]
    assert default_box(6) == (2, 3) and default_box(12) == (3, 4) and default_box(16) == (4, 4)
    assert default_box(10) == (2, 5) and default_box(400) == (20, 20)
    assert default_box(7) is None  # a prime size has no boxes
    assert geometry_for_size(6, (3, 2)) is geometry(3, 2)
    with pytest.raises(ValueError, match="does not fit"):
        geometry_for_size(6, (2, 2))
    with pytest.raises(ValueError, match="no box shape"):
        geometry_for_size(7)


def test_large_geometry_builds_without_peers():
    geo = geometry(20, 20)  # 400 x 400: 160,000 cells; peers would be ~190 million entries
    assert geo.ncells == 160_000 and len(geo.houses) == 1200
    assert "peers" not in vars(geo)  # built lazily, only if a solver asks


def test_segments_cover_each_line_once_per_box():
    from satdoku.model.geometry import geometry
    for r, c in [(2, 2), (2, 3), (3, 2), (3, 3), (1, 4)]:
        geo = geometry(r, c)
        n = geo.size
        for line in range(2 * n):
            segs = [s for s in geo.segments if s.line == line]
            assert sorted(x for s in segs for x in s.cells) == sorted(geo.houses[line])
            assert len(segs) == (r if line < n else c)
            for s in segs:
                assert set(s.cells) <= set(geo.houses[s.box])
                in_line, in_box = set(geo.houses[s.line]), set(geo.houses[s.box])
                assert s.line_rest == tuple(sorted(in_line - in_box))
                assert s.box_rest == tuple(sorted(in_box - in_line))


def test_jigsaw_regions_replace_boxes():
    import pickle
    from satdoku.model.geometry import jigsaw
    regions = ((0, 1, 2, 4), (3, 7, 6, 5), (8, 12, 13, 9), (10, 11, 14, 15))
    geo = jigsaw(regions)
    assert geo is jigsaw(regions) and not geo.is_boxed
    assert geo.houses[8] == (0, 1, 2, 4) and geo.houses[9] == (3, 5, 6, 7)
    assert geo.cell_houses[5] == (1, 5, 9)
    assert pickle.loads(pickle.dumps(geo)) is geo
    # row 1 meets region 1 in three cells and region 2 in one
    assert [(s.box, s.cells) for s in geo.segments if s.line == 0] == [(8, (0, 1, 2)), (9, (3,))]
    assert [(s.line_rest, s.box_rest) for s in geo.segments if s.line == 0] == [
        ((3,), (4,)), ((0, 1, 2), (5, 6, 7))]
    with pytest.raises(ValueError):
        jigsaw(((0, 1), (1, 2)))
