"""Answers to text and pictures.

- ``report``: the formats every per-puzzle command writes (pretty, line, JSON, CSV);
  ``asking``, ``counting``, ``fixes``, ``paths``: the reports of explain, candidates, rate,
  generate and count's ways past its limit.
- ``svg*``: pictures of puzzles, answers and steps; ``bench``: benchmark tables and plots.
"""
