"""Puzzles in and text out, with no knowledge of solving.

- ``reader``, ``text``, ``cells``: every classic line format, read line by line.
- ``inputs``: command-line arguments (files, ``-``, puzzles inline) to a stream of puzzles, read
  in bounded memory (``lines``) and cut into chunks for worker processes.
- ``variant``, ``schema``, ``jsontext``, ``forms``: satdoku's variant JSON, its schema, and the
  one JSON decoder that turns hostile input into located errors.
- ``fpuzzles*``, ``sudokupad``, ``scl*``, ``lzstring``, ``sukaku``: other tools' formats.
- ``dimacs``: CNF text out and solver answers in; ``files``: output files written atomically,
  never over an input.
"""
