"""Ratings: the score formula, labels, determinism, and the ranking of the shared sets."""

import pytest

from conftest import NAKED_4X4, SAMPLE, SEVENTEEN, SHARED, UNSOLVABLE_4X4, needs_shared
from satdoku.io.text import parse_puzzle, read_puzzles
from satdoku.run.stream import stream
from satdoku.tasks.rate import LABELS, Rater, RateOptions, Rating, label_for, summarize


def test_a_classic_puzzle_gets_sudoku_explainers_ratings():
    # serate (SukakuExplainer with SE 1.2.1's techniques, scripts/serate.py) rates the sample
    # 2.3/1.2/1.2, its hardest step a naked single: no guessing, whatever search needs.
    rating = Rater().rate(parse_puzzle(SAMPLE).grid)
    assert (rating.status, rating.score, rating.ep, rating.ed) == ("unique", 2.3, 1.2, 1.2)
    assert (rating.hardest, rating.label, rating.bound) == ("Naked Single", "hard", False)
    assert rating.text == "ER 2.3/EP 1.2/ED 1.2" and rating.conflicts >= 0


def test_easy_and_medium():
    naked = Rater().rate(parse_puzzle(NAKED_4X4).grid)
    assert (naked.score, naked.label) == (1.2, "easy")
    hidden = Rater().rate(parse_puzzle(SEVENTEEN).grid)
    assert (hidden.score, hidden.hardest, hidden.label) == (1.5, "Hidden Single", "medium")


def test_same_puzzle_same_score_whatever_came_before():
    rater = Rater()
    first = rater.rate(parse_puzzle(SAMPLE).grid).score
    rater.rate(parse_puzzle(SEVENTEEN).grid)
    assert Rater().rate(parse_puzzle(SAMPLE).grid).score == first == \
        rater.rate(parse_puzzle(SAMPLE).grid).score


def test_only_unique_puzzles_are_rated():
    assert Rater().rate(parse_puzzle("." * 81).grid).status == "multiple"
    unsolvable = Rater().rate(parse_puzzle(UNSOLVABLE_4X4).grid)
    assert unsolvable.status == "unsolvable" and unsolvable.score is None


def test_labels_cover_the_scale_in_order():
    lows = [low for low, _ in LABELS]
    assert lows == sorted(lows) and lows[0] == 0
    assert [label_for(low) for low, _ in LABELS] == [name for _, name in LABELS]


@pytest.mark.slow
@needs_shared
def test_shared_sets_rank_as_their_reputations():
    # Slow: the hardest puzzles take up to a minute each to rate exactly, as serate does (a
    # time limit would leave bounds that say little); tests/test_ladder.py checks the ratings
    # against serate's in the fast suite.
    def mean_score(name):
        scores = []
        for _, puzzle in zip(range(6), read_puzzles(str(SHARED / "9x9" / name))):
            scores.append(Rater().rate(puzzle.grid).score)
        return sum(scores) / len(scores)
    easy, top, hardest = (mean_score(n) for n in ("17_clue.txt", "magictour_top1465.txt",
                                                   "forum_hardest_1106.txt"))
    assert easy < top < hardest


def test_pool_gives_the_same_ratings_in_order():
    from satdoku.io.text import parse_puzzles
    lines = [SAMPLE, "bad", SEVENTEEN, NAKED_4X4, "." * 81]
    puzzles = list(parse_puzzles(lines, "<test>"))
    alone = [(p.line, r and (r.status, r.score)) for p, r in ((o.puzzle, o.result) for o in stream(puzzles, RateOptions()))]
    pooled = [(p.line, r and (r.status, r.score)) for p, r in ((o.puzzle, o.result) for o in stream(puzzles, RateOptions(), jobs=2))]
    assert pooled == alone
    assert [x[1] and x[1][0] for x in alone] == ["unique", None, "unique", "unique", "multiple"]


def test_summary():
    ratings = [Rating("unique", 1.5, "medium"), None, Rating("multiple"),
               Rating("unique", 3.6, "fiendish"), Rating("unique", 3.0, "fiendish")]
    summary = summarize(ratings)
    assert (summary.rated, round(summary.mean, 6), summary.median) == (3, 2.7, 3.0)
    assert summary.text == "rated 3: ER mean 2.70, median 3.00; medium 1, fiendish 2"
    assert summarize([None]).rated == 0


def test_too_big_and_late_are_statuses():
    from satdoku.deadline import Deadline  # noqa: F401 (the rater takes seconds)
    assert Rater(max_clauses=100).rate(parse_puzzle(SAMPLE).grid).status == "refused"
    assert Rater(timeout=1e-9).rate(parse_puzzle(SAMPLE).grid).status == "timeout"


def test_variant_puzzles_are_scored_by_their_steps():
    from satdoku.io.inputs import iter_inputs
    from satdoku.tasks.path import path_rating
    from conftest import PUZZLES
    puzzle = next(iter(iter_inputs([str(PUZZLES / "variants" / "peak.json")])))
    rating = Rater().rate(puzzle.grid, constraints=puzzle.constraints)
    assert rating.status == "unique" and rating.message is None
    r = path_rating(rating.path)
    assert (rating.score, rating.ep, rating.ed) == (r.er, r.ep, r.ed)
    assert rating.label == label_for(rating.score) and rating.se is None
    assert rating.path.status == "solved"
    late = Rater(timeout=0.3).rate(puzzle.grid, constraints=puzzle.constraints)
    assert late.status in ("unique", "timeout")  # the time may run out before the path


def test_the_path_rates_a_classic_puzzle_as_rate_does():
    from satdoku.tasks.path import path_rating
    from satdoku.tasks.steps import step_path
    for text in (NAKED_4X4, SEVENTEEN, SAMPLE):
        rating = Rater().rate(parse_puzzle(text).grid)
        r = path_rating(step_path(parse_puzzle(text).grid, rating.solution))
        assert (r.er, r.ep, r.ed, r.hardest.technique) == (rating.score, rating.ep, rating.ed,
                                                           rating.hardest)


def test_a_step_path_over_the_clause_limit_is_refused_not_scored(monkeypatch):
    # The rating of a variant puzzle whose step path passes the clause limit says so in its
    # status and message; the message once went into the score (mypy found it).
    import satdoku.tasks.steps as steps
    from satdoku.errors import TooBigError
    from satdoku.io.inputs import iter_inputs
    from conftest import PUZZLES

    def too_big(*args, **kwargs):
        raise TooBigError("1,000 clauses, over the limit of 10")
    monkeypatch.setattr(steps, "step_path", too_big)
    puzzle = next(iter(iter_inputs([str(PUZZLES / "variants" / "peak.json")])))
    rating = Rater().rate(puzzle.grid, constraints=puzzle.constraints)
    assert (rating.status, rating.score) == ("refused", None)
    assert rating.message == "1,000 clauses, over the limit of 10"


def test_a_rating_shows_its_scale_and_the_solution_in_a_repl():
    import satdoku
    rows = repr(satdoku.rate(SAMPLE)).splitlines()
    assert rows[0] == "<Rating unique: hard, ER 2.3/EP 1.2/ED 1.2 (Naked Single)>"
    assert len(rows) == 12
    assert repr(satdoku.rate("." * 16)) == "<Rating multiple>"
