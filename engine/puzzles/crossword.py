"""Crossword filling: parse a grid, index a word list, fill the slots, write the result.

Pipeline: `read_grid` -> `find_slots` (crossword_grid.py) -> `word_index` (cached on disk,
crossword_index.py) -> `build_problem` (the kernel arrays, crossword_problem.py) -> `fill`
(restarts and the quality loop around the numba search in crossword_kernels.py,
crossword_fill.py) -> `render_text` / `to_json` / `write_png` (crossword_output.py). CS50 AI's
structure files and printed grid are crossword_cs50.py (`read_structure`, `render_cs50`).

The filler prefers common words: the 10,000 best of the score list (see crossword_index.py for
what a score is), and after a first fill it searches for fewer rare entries (crossword_fill.py).
This module gathers the pipeline's public names, so a caller imports one module.
"""

from __future__ import annotations

from .crossword_cs50 import NO_SOLUTION, fill_rows, lone_cells, parse_structure, read_structure
from .crossword_cs50 import render as render_cs50
from .crossword_fill import FillResult, all_fills, fill
from .crossword_grid import BLOCK, EMPTY, Slot, filled_rows, find_slots, parse_grid, read_grid
from .crossword_index import COMMON_TOP, DEFAULT_SCORES, DEFAULT_WORDS, WordIndex, read_scores, word_index
from .crossword_output import entries, quality, render_text, to_json, write_json, write_png
from .crossword_problem import Problem, build_problem

__all__ = [
    "BLOCK", "COMMON_TOP", "DEFAULT_SCORES", "DEFAULT_WORDS", "EMPTY", "NO_SOLUTION", "FillResult", "Problem",
    "Slot", "WordIndex", "all_fills", "build_problem", "entries", "fill", "fill_rows", "filled_rows", "find_slots",
    "lone_cells", "parse_grid", "parse_structure", "quality", "read_grid", "read_scores", "read_structure",
    "render_cs50", "render_text", "to_json", "word_index", "write_json", "write_png",
]
