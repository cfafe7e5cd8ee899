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

#: A --sat-solver name with this prefix is an external command. Here, not in ``commands``
#: (which reads it): ``catalogue`` needs it on every start and ``commands`` only for such a name.
PREFIX = "exec:"
