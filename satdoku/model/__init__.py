"""The vocabulary every layer above speaks, with no knowledge of solving.

- ``geometry``: a grid's shape (box or jigsaw regions): cells, houses, peers and line-box
  segments, computed once per shape.
- ``grid``: the immutable :class:`~satdoku.model.grid.Grid` of digits and the independent
  checker of a solution (``solution_problems``), which belongs to no solver.
- ``digits``: candidate sets as bitmasks; ``alphabet``: how digits are written.
- ``puzzle``: the one :class:`~satdoku.model.puzzle.Puzzle` record (grid, rules, where it was
  read, or the error that kept it from being one) that every reader, task and writer takes.
- ``result``: the :class:`~satdoku.model.result.Result` of a solve or count, the status table
  and exit codes, ``verify``, the :class:`~satdoku.model.result.Answer` every task's answer is,
  ``status_of`` (the one place an ending error becomes a status) and ``Capabilities``.
- ``difficulty``: the labels of the rating scale.
"""
