"""Cross-checking: do the SAT and native answers for one puzzle agree?

Both solvers count to 2, so they can be compared on solvability, on uniqueness, and for a unique
puzzle on the solution itself. Validity is checked before this, by ``solvers.solve``.
"""

from __future__ import annotations

from ..model.result import Result

__all__ = ["disagreements"]


def disagreements(first: Result, second: Result) -> list[str]:
    """What ``first`` and ``second`` (both counted with a limit of 2) disagree on; empty if nothing.

    A timeout (or a refused formula) on either side is not a disagreement: there is nothing to
    compare.
    """
    a, b = first.solver, second.solver
    problems = [f"{r.solver}: {r.message}" for r in (first, second) if r.status == "error"]
    counted = ("unique", "multiple", "unsolvable")
    if problems or first.status not in counted or second.status not in counted:
        return problems  # a timeout or refusal leaves nothing to compare
    if first.count is None or second.count is None:
        raise ValueError("cross-checking needs results counted with limit >= 2")
    count_a, count_b = min(first.count, 2), min(second.count, 2)
    if count_a != count_b:
        return [f"{a} finds {first.status}, {b} finds {second.status}"]
    one, two = first.solution, second.solution  # a verified unique count has its solution
    if count_a == 1 and one is not None and two is not None and one != two:
        cells = one.differences(two)
        names = ", ".join(one.geometry.cell_name(c) for c in cells[:5])
        return [f"{a} and {b} give different solutions of a unique puzzle (at {names})"]
    return []
