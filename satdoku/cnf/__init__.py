"""Everything about formulas, and nothing about solvers.

- ``encodings``: the named encodings (minimal, natural, extended, augmented, reduced) and the
  at-most-one encodings; ``varmap``: the one cell/digit variable map (literals, decoding,
  blocking clauses, DIMACS comments).
- ``formula``: the one builder of base + clues + rules within a clause budget; ``reduced``: the
  reduced formula of big grids; ``rules``: the variant rules' clauses.
- ``policy``: which encoding a grid gets; ``export`` and ``decode``: DIMACS out, models in.
"""
