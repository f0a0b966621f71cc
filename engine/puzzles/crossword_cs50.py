"""The crossword files of CS50 AI's "crossword" project, read and printed as that project does.

A structure file: every line a row; `_` is an open cell and any other character a block
(letters, `#`, `.`, blanks alike); a row shorter than the longest is padded with blocks. An
open cell in no run of two or more cells is allowed there: no word passes through it, and it
prints blank. The word file is one word per line, in any case (read by words.load_words, as
every word list is). The printed grid is one line per row: each open cell's letter in capitals
(a blank when no word fills it), each block `█`, nothing between cells.

The filler itself needs every open cell in some slot, so `fill_rows` turns the lone open
cells into blocks; the printing and the outputs keep them open.
"""

from __future__ import annotations

import os

from ..errors import UserError
from .crossword_grid import BLOCK, EMPTY, Slot, filled_rows, read_text

OPEN = "_"
BLOCK_SHOWN = "█"
NO_SOLUTION = "No solution."


def parse_structure(text: str, where: str = "structure") -> list[str]:
    """Rows of '.' (open) and '#' (block) from a CS50 structure file's text, padded to the
    longest row with blocks."""
    lines = text.splitlines()
    if OPEN not in text:
        raise UserError(f"{where}: no open cell: a CS50 structure file marks open cells with '_'")
    width = max(len(line) for line in lines)
    return ["".join(EMPTY if ch == OPEN else BLOCK for ch in line).ljust(width, BLOCK) for line in lines]


def read_structure(path: str | os.PathLike) -> list[str]:
    return parse_structure(read_text(path, "structure"), str(path))


def lone_cells(rows: list[str]) -> set[tuple[int, int]]:
    """The open cells with no open neighbour across nor down: in no slot of 2 or more cells."""
    height, width = len(rows), len(rows[0])

    def is_open(r, c):
        return 0 <= r < height and 0 <= c < width and rows[r][c] != BLOCK

    return {(r, c) for r in range(height) for c in range(width)
            if is_open(r, c) and not any(is_open(r + dr, c + dc) for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)))}


def fill_rows(rows: list[str]) -> list[str]:
    """The rows the filler works on: the lone open cells made blocks."""
    lone = lone_cells(rows)
    return ["".join(BLOCK if (r, c) in lone else ch for c, ch in enumerate(row)) for r, row in enumerate(rows)]


def render(rows: list[str], slots: list[Slot], words: dict[int, str]) -> str:
    """The grid as CS50's `print` shows it: capital letters, blanks for unfilled open cells,
    `█` for blocks, one line per row."""
    return "\n".join(
        "".join(BLOCK_SHOWN if ch == BLOCK else " " if ch == EMPTY else ch.upper() for ch in row)
        for row in filled_rows(rows, slots, words)
    )
