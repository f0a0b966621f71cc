"""Crossword grids: the text grid, its slots (numbered as printed crosswords are), and the grid
with words written in."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import UserError

BLOCK = "#"
EMPTY = "."


@dataclass(frozen=True)
class Slot:
    number: int
    direction: str  # "across" or "down"
    row: int
    col: int
    cells: tuple[tuple[int, int], ...]

    @property
    def length(self) -> int:
        return len(self.cells)


def parse_grid(text: str, where: str = "grid") -> list[str]:
    """Rows of '#' (block), '.' (open) and a-z (pre-filled). `_` and `.` are open, a letter is
    kept, any other character is a block. Trailing blanks and blank edge lines are ignored."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    start = 0
    while start < len(lines) and not lines[start]:
        start += 1
    lines = lines[start:]
    if not lines:
        raise UserError(f"{where}: the grid is empty")
    width = len(lines[0])
    rows = []
    for lineno, line in enumerate(lines, start + 1):
        if len(line) != width:
            raise UserError(f"{where}:{lineno}: ragged grid: this row has {len(line)} cells, the first has {width}")
        rows.append("".join(
            EMPTY if ch in "._" else ch.lower() if ch.isascii() and ch.isalpha() else BLOCK for ch in line))
    return rows


def read_text(path: str | os.PathLike, what: str = "grid") -> str:
    """A grid file's text, a regular file of at most files.GRID_MAX_BYTES; an unreadable, larger
    or non-UTF-8 file (a device, a FIFO) is a UserError naming it."""
    from .. import files

    if not os.path.lexists(path):
        raise UserError(f"{path}: cannot read {what} (No such file or directory)")
    return files.read_bounded_text(path, files.GRID_MAX_BYTES, what)


def read_grid(path: str | os.PathLike) -> list[str]:
    return parse_grid(read_text(path), str(path))


def find_slots(rows: list[str], where: str = "grid") -> list[Slot]:
    """The maximal across and down runs of 2 or more non-block cells, numbered as printed
    crosswords are (reading order, one number per cell that starts a run)."""
    height, width = len(rows), len(rows[0])

    def is_open(r, c):
        return 0 <= r < height and 0 <= c < width and rows[r][c] != BLOCK

    slots: list[Slot] = []
    number = 0
    covered = set()
    for r in range(height):
        for c in range(width):
            if not is_open(r, c):
                continue
            starts = []
            if not is_open(r, c - 1) and is_open(r, c + 1):
                starts.append(("across", 0, 1))
            if not is_open(r - 1, c) and is_open(r + 1, c):
                starts.append(("down", 1, 0))
            if starts:
                number += 1
            for direction, dr, dc in starts:
                cells = []
                rr, cc = r, c
                while is_open(rr, cc):
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                covered.update(cells)
                slots.append(Slot(number, direction, r, c, tuple(cells)))
    if not slots:
        raise UserError(f"{where}: no slots: the grid has no run of 2 or more open cells")
    for r in range(height):
        for c in range(width):
            if rows[r][c] == EMPTY and (r, c) not in covered:
                raise UserError(f"{where}: open cell at row {r + 1}, column {c + 1} is in no slot of 2 or more cells")
    return slots


def filled_rows(rows: list[str], slots: list[Slot], words: dict[int, str]) -> list[str]:
    grid = [list(r) for r in rows]
    for k, word in words.items():
        for (r, c), ch in zip(slots[k].cells, word):
            grid[r][c] = ch
    return ["".join(r) for r in grid]

