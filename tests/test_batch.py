"""The stream: outcomes in input order, bad puzzles in their place, the same on one or more cores."""

from satdoku.records import replace


import pytest
from hypothesis import given, settings, strategies as st

from conftest import PUZZLES, SAMPLE, SAMPLE_HARD, SEVENTEEN, SMALL
from satdoku.run.stream import run_here, stream
from satdoku.tasks.solvers import SolveOptions, SolveTask, search_options
from satdoku.io.lines import LineSplitter, parse_chunk
from satdoku.io.text import parse_puzzles
from satdoku.io.inputs import iter_inputs

LINES = [
    SAMPLE,
    SEVENTEEN,
    "11" + "." * 79,  # clash
    SAMPLE_HARD,
    SMALL,  # 4x4
    "123",  # not a puzzle
    "12.4..........................................................................56.",
]


UNIQUE_LINES = {1, 2, 5}


def puzzles(repeat=1):
    return list(parse_puzzles(LINES * repeat, "<test>"))[:len(LINES) * repeat]


def summary(outcomes):
    """What must not depend on the process: a puzzle with several solutions may get any one
    (an incremental solver's answer depends on what it solved before), so solutions are
    compared only when unique; solve() has verified every one anyway."""
    return [(o.puzzle.line, o.result.status, o.result.count, o.result.message,
             o.result.solution if o.puzzle.line in UNIQUE_LINES else None) for o in outcomes]


def test_bad_puzzles_come_out_in_place():
    got = summary(run_here(puzzles(), search_options(limit=2)))
    assert [s[1] for s in got] == ["unique", "unique", "invalid", "multiple", "unique",
                                   "invalid", "multiple"]
    assert got[2][3] == "r1c2: 1 repeats the given at r1c1"
    assert got[5][3].startswith("3 cells: a Sudoku has 16, 36")


@pytest.mark.parametrize("limit", [1, 2])
def test_two_jobs_match_one(limit):
    options = search_options(limit=limit)
    expected = summary(run_here(puzzles(3), options))
    assert summary(stream(puzzles(3), options, jobs=2, chunk_size=2)) == expected
    assert summary(stream(puzzles(3), options, jobs=0, chunk_size=3)) == expected


def test_check_mode_in_workers():
    options = SolveOptions(check=True)
    expected = [(o.result.status, o.disagreements) for o in run_here(puzzles(), options)]
    got = [(o.result.status, o.disagreements)
           for o in stream(puzzles(), options, jobs=2, chunk_size=3)]
    assert got == expected and not any(d for _, d in got)


def test_stats_carry_every_stage():
    for solver in ("sat", "native"):
        outcome = next(run_here(puzzles(), SolveOptions(solver=solver)))
        stages = {"parse_ms", "solve_ms", "verify_ms"}
        if solver == "sat":
            stages |= {"encode_ms", "load_ms"}
        assert stages <= set(outcome.result.stats), solver


def test_the_time_limit_counts_from_reading():
    # A puzzle that took longer to read than the limit is out of time before it is solved.
    batch = SolveTask(SolveOptions(timeout=2.0))
    try:
        slow = replace(puzzles()[0], parse_ms=2500)
        result = batch.run(slow).result
        assert result.status == "timeout"
        assert result.message == "time limit of 2 s reached"
        result = batch.run(replace(slow, parse_ms=0)).result
        assert result.status == "solved"
    finally:
        batch.close()


def test_dask_local_cluster():
    pytest.importorskip("dask.distributed")
    options = search_options(limit=2)
    expected = summary(run_here(puzzles(2), options))
    assert summary(stream(puzzles(2), options, scheduler="local", chunk_size=3)) == expected


# Parsing in the workers: pieces cut where LineSplitter allows parse as the whole stream does.

ROW_LINES = ["5 3 . | . 7 . | . . .", "6 . . | 1 9 5 | . . .", ". 9 8 | . . . | . 6 .",
             "530070000", "------+-------+------", "1 . 3 .", ". 4 . 2", "1 2 0 4", "12.4"]
SPLIT_LINES = ROW_LINES + [
    SAMPLE, SEVENTEEN, SAMPLE + "  # named", SAMPLE[:-1] + "x", "55" + SAMPLE[2:], "." * 81,
    "-" * 81, "-" * 16, "-" * 256, SMALL, "." * 16, "Grid 01", "Puzzle 2  # h", "# a comment",
    "#", "", "   ", "123", "17 " + "0 " * 255, ". " * 80 + "1",
]


def _key(puzzle):
    grid = puzzle.grid
    return (puzzle.source, puzzle.line, puzzle.index, puzzle.name,
            grid and (grid.geometry.shape, grid.cells), puzzle.alphabet,
            puzzle.error and str(puzzle.error))


def _pieces(lines, cuts, box=None, alphabet=None):
    """The puzzles of ``lines`` cut into pieces where the splitter allows and ``cuts`` says,
    each piece parsed on its own and numbered on from the last."""
    splitter = LineSplitter(box, alphabet)
    pieces, start, comment = [], 0, None
    for i, line in enumerate(lines):
        if splitter.feed(line) and cuts[i % len(cuts)]:
            pieces.append((start, lines[start:i + 1], comment, False))
            start, comment = i + 1, splitter.comment
    pieces.append((start, lines[start:], comment, True))
    got = []
    for start, piece, comment, finish in pieces:
        base = len(got)
        for puzzle in parse_chunk(piece, "f", first_line=start + 1, comment=comment,
                                  finish=finish, box=box, alphabet=alphabet):
            puzzle.index += base
            got.append(puzzle)
    return got, len(pieces)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(SPLIT_LINES), max_size=30), st.lists(st.booleans(), min_size=1))
def test_pieces_parse_as_the_whole_stream(lines, cuts):
    for box, alphabet in ((None, None), ((3, 3), None), (None, "123456789")):
        whole = [_key(p) for p in parse_puzzles(lines, "f", box=box, alphabet=alphabet)]
        got, _ = _pieces(lines, cuts, box, alphabet)
        assert [_key(p) for p in got] == whole


ROW = ROW_LINES[0]


@pytest.mark.parametrize("lines", [
    ["# title", SAMPLE, SEVENTEEN, ROW],  # the comment names a grid after the cut
    ["# a comment", "-" * 256, SAMPLE, ROW],  # a line of dashes can be a 16x16 one-liner
    ["# a comment", "-" * 16, SAMPLE, ROW],  # ... or a rule, which leaves the comment
    [ROW, SAMPLE, ROW, ROW_LINES[1]],  # a one-liner ends an open grid
    [ROW, "-" * 81, SAMPLE, ROW],  # inside a grid, dashes are a rule
    ["Grid 01", SAMPLE, ROW, "# x", SAMPLE, "Puzzle 2", SAMPLE],
], ids=["comment", "dash-row", "dash-rule", "open-grid", "rule-in-grid", "headers"])
def test_cuts_keep_what_the_reader_carries(lines):
    got, pieces = _pieces(lines, [True])
    assert [_key(p) for p in got] == [_key(p) for p in parse_puzzles(lines, "f")]
    assert pieces > 1


def test_one_liner_files_are_cut_everywhere():
    lines = ["# title", "# more"] + [SAMPLE, SEVENTEEN + "  # x", "", "."] * 5
    got, pieces = _pieces(lines, [True])
    assert [_key(p) for p in got] == [_key(p) for p in parse_puzzles(lines, "f")]
    assert pieces > 10


SIX = ".2...3..1...........5.4126.4........"  # a 6x6 one-liner: its work is a twelfth of a 9x9's


def _reference_cuts(lines, size, box=None):
    """Where the chunker cut before runs of one-liners were taken whole: a line at a time, a
    chunk ending at the first cut once it holds ``size`` lines or ``size`` units of work."""
    from satdoku.io.lines import puzzle_work
    splitter = LineSplitter(box)
    cuts, count, work, since_cut = [], 0, 0.0, 0
    for i, line in enumerate(lines):
        count += 1
        since_cut += len(line)
        if splitter.feed(line):
            work += puzzle_work(since_cut)
            since_cut = 0
            if count >= size or work >= size:
                cuts.append((i + 1, splitter.comment))
                count, work = 0, 0.0
    return cuts


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SPLIT_LINES + [SAMPLE, SEVENTEEN, SIX, SMALL]),
                          st.integers(min_value=1, max_value=40)), max_size=12),
       st.integers(min_value=1, max_value=60), st.sampled_from([None, (2, 3)]))
def test_the_chunker_cuts_where_a_line_at_a_time_would(tmp_path_factory, runs, size, box):
    # runs of bare one-liners are taken whole (LineSplitter.feed_plain): the cuts, the
    # comments carried over them and the puzzles parsed from the pieces stay what feeding the
    # lines one by one gives
    from satdoku.io.lines import LineChunk
    lines = [line for line, times in runs for _ in range(times)]
    path = tmp_path_factory.mktemp("chunks") / "f.txt"
    path.write_text("".join(line + "\n" for line in lines))
    chunks = list(iter_inputs([str(path)], box=box).chunks(size))
    raw = [c for c in chunks if isinstance(c, LineChunk) and c.lines]
    taken = [line for c in raw for line in c.lines]
    assert taken == lines[:len(taken)]  # the rest, if any, the parent parsed (no cut in sight)
    ends = [c.first_line - 1 + len(c.lines) for c in raw if not c.finish]
    reference = [(end, comment) for end, comment in _reference_cuts(lines, size, box)
                 if end <= len(taken) and not (end == len(lines) and raw and raw[-1].finish)]
    assert ends == [end for end, _ in reference]
    assert [c.comment for c in raw[1:]] == [comment for _, comment in reference][:len(raw) - 1]
    got = []
    for c in chunks:
        if isinstance(c, LineChunk):
            got += parse_chunk(c.lines, str(path), first_line=c.first_line, comment=c.comment,
                               finish=c.finish, box=box)
        else:
            got += c.puzzles

    def where(p):  # index is numbered per piece; the caller numbers on
        return _key(p)[1:2] + _key(p)[3:]
    assert [where(p) for p in got] == [where(p) for p in parse_puzzles(lines, str(path), box=box)]


def _files(tmp_path):
    grid = ["5 3 . | . 7 . | . . ."] + [". . . | . . . | . . ."] * 8
    made = {
        "multi.txt": "# a grid\n" + "\n".join(grid) + "\n\nGrid 2\n" + "\n".join(grid) + "\n",
        "mixed.txt": "\n".join([SAMPLE, "123", SEVENTEEN] * 4 + grid + [SMALL, "Grid x"]),
        "empty.txt": "",
        "comments.txt": "# nothing\n# here\n",
        "many.txt": "\n".join(["# title"] + [SAMPLE, SEVENTEEN, "55" + SAMPLE[2:]] * 7),
    }
    for name, text in made.items():
        (tmp_path / name).write_text(text)
    return [str(tmp_path / name) for name in made] + [
        str(PUZZLES / "bad.txt"), SMALL, "11" + "." * 14, str(tmp_path / "missing.txt")]


def _full_summary(outcomes):
    return [(o.puzzle.source, o.puzzle.line, o.puzzle.index, o.puzzle.name,
             o.puzzle.grid, o.result.status, o.result.count, o.result.message,
             o.result.solution if o.result.status == "unique" else None,
             sorted(o.result.stats)) for o in outcomes]


@pytest.mark.parametrize("chunk_size", [1, 3, 256])
def test_workers_parse_what_one_job_parses(tmp_path, chunk_size):
    args = _files(tmp_path)
    options = search_options(limit=2)
    expected = _full_summary(stream(iter_inputs(args), options))
    got = _full_summary(stream(iter_inputs(args), options, jobs=2, chunk_size=chunk_size))
    assert got == expected
    assert [s[5] for s in expected].count("invalid") >= 8


def test_read_errors_stop_the_input_where_one_job_stops(tmp_path, monkeypatch):
    import satdoku.io.lines as formats
    monkeypatch.setattr(formats, "MAX_LINE_CHARS", 100)  # read in the parent
    long = tmp_path / "long.txt"
    # read_lines checks the length of a line still open at the end of a block: the last one
    long.write_text("\n".join([SAMPLE, SEVENTEEN, "1 . 3 .", ". 4 . 2", "." * 101]))
    args = [str(long), SMALL]
    expected = _full_summary(stream(iter_inputs(args), SolveOptions()))
    assert [s[5] for s in expected] == ["solved", "solved", "invalid", "solved"]
    assert _full_summary(stream(iter_inputs(args), SolveOptions(), jobs=2,
                                     chunk_size=1)) == expected


def test_a_read_error_after_lines_with_no_cut_stops_the_input_as_one_job_does(tmp_path,
                                                                              monkeypatch):
    # the parent gives up cutting (a multi-line grid too long) while lines it read ahead are
    # pending, and the read of the next one had failed: the error still ends the input
    import satdoku.io.inputs as inputs
    import satdoku.io.lines as formats
    monkeypatch.setattr(formats, "MAX_LINE_CHARS", 100)
    monkeypatch.setattr(inputs, "MAX_UNCUT", 1)
    monkeypatch.setattr(inputs, "CHUNK_CHARS", 50)  # no cut within 50 characters: given up
    long = tmp_path / "long.txt"
    # (read_lines checks a line still open at the end of a block: the last one)
    long.write_text("\n".join(["# big"] + ["1 . 3 ."] * 8 + ["." * 101]))
    args = [str(long)]
    expected = _full_summary(stream(iter_inputs(args), SolveOptions()))
    assert expected[-1][7] and "longer than" in expected[-1][7]
    assert _full_summary(stream(iter_inputs(args), SolveOptions(), jobs=2,
                                chunk_size=256)) == expected


def test_a_single_puzzle_is_counted_as_always_batches_steer():
    # A batch's counts after its first puzzle steer away from the solution found (faster);
    # one puzzle alone, and the library's solver, find the same two solutions as ever.
    from satdoku.sat.solver import SatSolver
    hard = parse_puzzles([SAMPLE_HARD])
    alone = next(run_here(hard, search_options(limit=2))).result
    with SatSolver() as s:
        library = s.solve(next(parse_puzzles([SAMPLE_HARD])).grid, limit=2)
        assert not s.steer
    assert (alone.solution, alone.second) == (library.solution, library.second)
    assert len(alone.solution.differences(alone.second)) == 6  # docs/commands.md shows them
    batch = SolveTask(search_options(limit=2))
    try:
        assert batch.solver.steer
    finally:
        batch.close()


def test_variant_files_are_parsed_here_and_solved_in_workers(tmp_path):
    variants = sorted(str(p) for p in (PUZZLES / "variants").glob("*.json"))[:4]
    args = variants + [str(PUZZLES / "9x9.txt"), str(PUZZLES / "variants" / "159-arrows.txt")]
    options = search_options(limit=2)
    expected = _full_summary(stream(iter_inputs(args), options))
    got = _full_summary(stream(iter_inputs(args), options, jobs=2, chunk_size=2))
    assert got == expected and len(expected) >= 8
