"""A plain brute-force crossword filler for tiny grids: the test oracle of engine/puzzles/crossword*.py.

It shares no code with the engine: its own slot finder, and a depth-first enumeration that
tries every word of the right length in every slot, in grid order, checking letters as it goes.
Rules it encodes: a slot is a maximal across or down run of 2+ non-block cells; a slot whose
cells are all pre-filled keeps its letters (listed or not); no word appears twice among the
slots it fills, nor equals a pre-filled entry.
"""

from __future__ import annotations


def reference_slots(rows: list[str]) -> list[tuple[str, int, int, int]]:
    """(direction, row, col, length) of every slot, rows of '#', '.' and letters."""
    slots = []
    height, width = len(rows), len(rows[0])
    for r in range(height):
        c = 0
        while c < width:
            if rows[r][c] == "#":
                c += 1
                continue
            start = c
            while c < width and rows[r][c] != "#":
                c += 1
            if c - start >= 2:
                slots.append(("across", r, start, c - start))
    for c in range(width):
        r = 0
        while r < height:
            if rows[r][c] == "#":
                r += 1
                continue
            start = r
            while r < height and rows[r][c] != "#":
                r += 1
            if r - start >= 2:
                slots.append(("down", start, c, r - start))
    return slots


def _cells(slot):
    direction, r, c, n = slot
    return [(r, c + i) if direction == "across" else (r + i, c) for i in range(n)]


def reference_fills(rows: list[str], words: list[str]) -> set[frozenset]:
    """Every fill, each a frozenset of (direction, row, col, word)."""
    slots = reference_slots(rows)
    grid = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}
    fixed = [s for s in slots if all(grid[cell] != "." for cell in _cells(s))]
    free = [s for s in slots if s not in fixed]
    taken = {"".join(grid[cell] for cell in _cells(s)) for s in fixed}
    fills: set[frozenset] = set()
    chosen: list[str] = []

    def place(k: int) -> None:
        if k == len(free):
            entries = [(s[0], s[1], s[2], "".join(grid[cell] for cell in _cells(s))) for s in slots]
            fills.add(frozenset(entries))
            return
        cells = _cells(free[k])
        for word in words:
            if len(word) != len(cells) or word in taken or word in chosen:
                continue
            if any(grid[cell] not in (".", ch) for cell, ch in zip(cells, word)):
                continue
            saved = [grid[cell] for cell in cells]
            for cell, ch in zip(cells, word):
                grid[cell] = ch
            chosen.append(word)
            place(k + 1)
            chosen.pop()
            for cell, ch in zip(cells, saved):
                grid[cell] = ch

    place(0)
    return fills
