"""satdoku: solve Sudoku of any size by encoding it to SAT, cross-checked by a native solver."""

__version__ = "0.1.0"
