"""What the commands do: each a task from a puzzle to an answer, classic and variant alike.

- ``options`` and ``commands``: every option of every command, declared once (the command
  line and the library build the same options object); ``base``: :class:`~satdoku.tasks.base.Task`,
  :class:`~satdoku.tasks.base.SolverTask` and :class:`~satdoku.tasks.base.Outcome`.
- ``solvers``: the solver registry and the solve/count task, every answer verified; ``agree``:
  the cross-check of two solvers.
- ``explain`` (with ``disambiguate`` and ``members``), ``steps``, ``deduce`` and ``path``: why
  a puzzle is unsolvable, ambiguous, or what steps solve it.
- ``candidates``, ``rate``, ``generate``, ``enumerate`` (``count --all``, ``--estimate``),
  ``convert``.
"""
