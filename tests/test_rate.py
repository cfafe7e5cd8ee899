"""Ratings: the score formula, labels, determinism, and the ranking of the shared sets."""

import math

from conftest import NAKED_4X4, SAMPLE, SEVENTEEN, SHARED, UNSOLVABLE_4X4, needs_shared
from satdoku.io.text import parse_puzzle, read_puzzles
from satdoku.run.stream import stream
from satdoku.tasks.rate import LABELS, Rater, RateOptions, Rating, label_for, summarize


def test_score_is_the_documented_formula():
    rating = Rater().rate(parse_puzzle(SAMPLE).grid)
    assert rating.status == "unique" and rating.steps.hardest == "guessing"
    assert rating.guesses > 0
    expected = (rating.steps.level + math.log10(1 + rating.guesses)
                + math.log10(1 + rating.conflicts))
    assert rating.score == round(expected, 2)
    assert rating.label == label_for(rating.score)


def test_easy_and_medium():
    naked = Rater().rate(parse_puzzle(NAKED_4X4).grid)
    assert (naked.score, naked.label) == (0.0, "easy")
    hidden = Rater().rate(parse_puzzle(SEVENTEEN).grid)
    assert hidden.steps.hardest == "hidden singles"
    assert hidden.label in ("medium", "hard")  # 1 + log10(1 + conflicts)


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


@needs_shared
def test_shared_sets_rank_as_their_reputations():
    # 12 puzzles of each keeps the test short (their means 1.7, 6.5 and 7.5; the ranges of the
    # last two do not overlap); the README gives the figures for 1,000.
    def mean_score(name):
        scores = []
        for _, puzzle in zip(range(12), read_puzzles(str(SHARED / "9x9" / name))):
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
    ratings = [Rating("unique", 1.0, "medium"), None, Rating("multiple"),
               Rating("unique", 3.78, "fiendish"), Rating("unique", 3.0, "fiendish")]
    summary = summarize(ratings)
    assert (summary.rated, summary.mean, summary.median) == (3, 7.78 / 3, 3.0)
    assert summary.text == "rated 3: mean 2.59, median 3.00; medium 1, fiendish 2"
    assert summarize([None]).rated == 0


def test_too_big_and_late_are_statuses():
    from satdoku.deadline import Deadline  # noqa: F401 (the rater takes seconds)
    assert Rater(max_clauses=100).rate(parse_puzzle(SAMPLE).grid).status == "refused"
    assert Rater(timeout=1e-9).rate(parse_puzzle(SAMPLE).grid).status == "timeout"


def test_variant_puzzles_are_scored_by_their_steps():
    from satdoku.io.inputs import iter_inputs
    from satdoku.tasks.path import path_score
    from conftest import PUZZLES
    puzzle = next(iter(iter_inputs([str(PUZZLES / "variants" / "peak.json")])))
    rating = Rater().rate(puzzle.grid, constraints=puzzle.constraints)
    assert rating.status == "unique" and rating.message is None
    assert rating.score == path_score(rating.path)[2] and rating.label == label_for(rating.score)
    assert rating.path.status == "solved"
    late = Rater(timeout=0.3).rate(puzzle.grid, constraints=puzzle.constraints)
    assert late.status in ("unique", "timeout")  # the time may run out before the path


def test_the_path_score_agrees_with_the_classic_one_where_both_apply():
    from satdoku.tasks.path import path_score
    from satdoku.tasks.steps import step_path
    for text in (NAKED_4X4, SEVENTEEN):
        rating = Rater().rate(parse_puzzle(text).grid)
        path = step_path(parse_puzzle(text).grid, rating.solution)
        assert label_for(path_score(path)[2]) == rating.label
