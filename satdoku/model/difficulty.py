"""The difficulty scale: Sudoku Explainer's (SE) ratings and the labels that cut them.

A puzzle's difficulty is its ER, the SE rating of the hardest step on the way to its solution
(with EP, the hardest before the first placement, and ED, the first step's), the scale the
forums, the Patterns Game and public puzzle banks publish. Classic puzzles are rated by SE's
own ladder (:mod:`satdoku.native.ladder`); variant puzzles by their step path, whose steps
are valued on the same scale (:func:`satdoku.tasks.path.step_rating`).

The labels are those of Sudoku Explainer's generator, which cuts ER so:

========== ========== ===================================================================
label      ER         takes
========== ========== ===================================================================
easy       1.0 - 1.2  hidden singles in boxes
medium     1.3 - 1.5  hidden singles in rows and columns
hard       1.6 - 2.5  no pencil marks: direct pointing and claiming, direct hidden pairs,
                      naked singles
fiendish   2.6 - 6.0  pencil marks, but no forcing chains: subsets, fish, wings, uniqueness
diabolical 6.1 - 8.9  forcing chains and cycles, nishio, multiple forcing chains
extreme    9.0 and up dynamic and nested forcing chains
========== ========== ===================================================================

SE's generator stops at diabolical (6.1 and up); ``extreme`` (ER 9.0 and up, where the forum's
lists of the hardest puzzles live) is satdoku's, so that those are told apart.
"""

from __future__ import annotations

__all__ = ["LABELS", "label_for", "ceiling_of", "ratings_text"]

#: (lowest ER, label), easiest first.
LABELS = ((0.0, "easy"), (1.3, "medium"), (1.6, "hard"), (2.6, "fiendish"), (6.1, "diabolical"),
          (9.0, "extreme"))


def ratings_text(er: float, ep: float, ed: float, bound: bool = False, ep_bound: bool = False,
                 ed_bound: bool = False) -> str:
    """``'ER 3.0/EP 1.2/ED 1.2'``: the three ratings, ``>=`` before each that is a lower bound
    (``bound`` for ER; EP is one too when no digit was placed before the rating stopped, ED
    when no step was taken).

    >>> ratings_text(10.0, 10.0, 2.6, True, True)
    'ER >=10.0/EP >=10.0/ED 2.6'
    """
    def mark(low: bool) -> str:
        return ">=" if low else ""
    return f"ER {mark(bound)}{er:.1f}/EP {mark(ep_bound)}{ep:.1f}/ED {mark(ed_bound)}{ed:.1f}"


def label_for(er: float) -> str:
    """The label of an ER (ratings are in tenths; a hair below a cut still counts as it).

    >>> label_for(1.2), label_for(2.3), label_for(3.0), label_for(7.1), label_for(10.5)
    ('easy', 'hard', 'fiendish', 'diabolical', 'extreme')
    """
    return [name for low, name in LABELS if er >= low - 1e-9][-1]


def ceiling_of(label: str) -> float | None:
    """The highest ER ``label`` takes (ratings are in tenths), or None for the last.

    >>> ceiling_of("easy"), ceiling_of("fiendish"), ceiling_of("extreme")
    (1.2, 6.0, None)
    """
    names = [name for _, name in LABELS]
    i = names.index(label)
    return round(LABELS[i + 1][0] - 0.1, 1) if i + 1 < len(LABELS) else None
