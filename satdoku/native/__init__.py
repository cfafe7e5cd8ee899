"""Propagation over candidate bitmasks, in Python, beside SAT.

- ``propagate``, ``subsets``, ``tables``: the named passes (singles, hidden singles, locked
  candidates, subsets, rule prunes), each returning "changed" or a contradiction.
- ``board``: the candidate board the passes work on.
- ``reduce``: the singles that fold a big grid's givens away before the reduced encoding.
- ``search``: the native solver that cross-checks SAT (``--solver native``, ``--check``).
- ``ladder``, ``named``, ``uniqueness``, ``chains``: Sudoku Explainer's ladder of named
  techniques, which rates classic puzzles (``rate``, ``explain``) and gives their steps.
"""
