"""Crossword filling: parse a grid, index a word list, fill the slots, write the result.

Pipeline: `read_grid` -> `find_slots` (crossword_grid.py) -> `word_index` (cached on disk,
crossword_index.py) -> `build_problem` (the kernel arrays, crossword_problem.py) -> `fill`
(restarts and the quality loop around the numba search in crossword_kernels.py,
crossword_fill.py) -> `render_text` / `to_json` / `write_png` (crossword_output.py).

The filler prefers common words: the 10,000 best of the score list (see crossword_index.py for
what a score is), and after a first fill it searches for fewer rare entries (crossword_fill.py).
This module gathers the pipeline's public names, so a caller imports one module.
"""

from __future__ import annotations

from .crossword_fill import FillResult, all_fills, fill
from .crossword_grid import BLOCK, EMPTY, Slot, filled_rows, find_slots, parse_grid, read_grid
from .crossword_index import COMMON_TOP, DEFAULT_SCORES, DEFAULT_WORDS, WordIndex, read_scores, word_index
from .crossword_output import entries, quality, render_text, to_json, write_json, write_png
from .crossword_problem import Problem, build_problem

__all__ = [
    "BLOCK", "COMMON_TOP", "DEFAULT_SCORES", "DEFAULT_WORDS", "EMPTY", "FillResult", "Problem", "Slot",
    "WordIndex", "all_fills", "build_problem", "entries", "fill", "filled_rows", "find_slots", "parse_grid",
    "quality", "read_grid", "read_scores", "render_text", "to_json", "word_index", "write_json", "write_png",
]
