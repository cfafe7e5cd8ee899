"""The difficulty scale: labels that cut the scores ``rate`` gives (see :mod:`satdoku.tasks.rate`).
"""

from __future__ import annotations

__all__ = ["LABELS", "label_for"]

#: (lowest score, label), easiest first.
LABELS = ((0.0, "easy"), (1.0, "medium"), (2.0, "hard"), (3.0, "fiendish"), (5.0, "diabolical"),
          (7.0, "extreme"))


def label_for(score: float) -> str:
    """The label of ``score``.

    >>> label_for(0.5), label_for(3.2), label_for(7)
    ('easy', 'fiendish', 'extreme')
    """
    return [name for low, name in LABELS if score >= low][-1]
