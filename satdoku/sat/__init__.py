"""Solving with python-sat and with external programs.

- ``config``: :class:`~satdoku.sat.config.SatConfig` (solver, encoding, at-most-one, clause
  limit) and the one place a SAT solver is made.
- ``catalogue``: the solvers on offer and the capabilities each declares; ``commands``,
  ``external``: ``exec:`` solver binaries.
- ``solver``: :class:`~satdoku.sat.solver.SatSolver`, made of parts that take a ``backend``
  (a configuration and its ``engines``: one python-sat solver and its formula each):
  ``counting``, ``questions`` (cores, assumed and other solutions), ``fast`` (the fast path);
  ``clock``: time limits; ``oneshot``: solving afresh.
- ``facts``: guarded facts for explanations; ``levels``: what propagation and probing settle;
  ``sliced``: the bit-sliced batch pass; ``portfolio``: configurations racing in processes;
  ``cubes``: cube-and-conquer.
"""
