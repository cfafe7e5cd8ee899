"""Running tasks over puzzles.

- ``stream``: the one loop of every per-puzzle command: a task over a stream of puzzles, here,
  on a process pool or on Dask, answers in input order.
- ``parallel``: the ordered process pool; ``bench``: solvers timed over puzzle files.
"""
