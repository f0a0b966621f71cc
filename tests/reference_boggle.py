"""The slow, obviously-correct Boggle solver the fast kernels are tested against: plain
recursion over the grid with a set of words and a set of their prefixes (no trie, no numpy)."""

from __future__ import annotations

POINTS = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}


def read_words(path) -> list[str]:
    """One word per line, lowercased, blanks skipped."""
    with open(path, encoding="utf-8") as f:
        return [w for w in (line.strip().lower() for line in f) if w]


class Dictionary:
    def __init__(self, words):
        self.words = set(words)
        self.prefixes = {w[:i] for w in self.words for i in range(1, len(w) + 1)}


def word_points(word: str, min_length: int = 3) -> int:
    if len(word) < min_length:
        return 0
    return POINTS.get(len(word), 1 if len(word) < 3 else 11)


def solve(cells: str, rows: int, cols: int, dictionary: Dictionary, min_length: int = 3) -> set[str]:
    """Every word spelled by a path of distinct neighbouring cells; a q cell spells "qu"."""
    found = set()

    def walk(r, c, used, spelled):
        spelled += "qu" if cells[r * cols + c] == "q" else cells[r * cols + c]
        if spelled not in dictionary.prefixes:
            return
        if spelled in dictionary.words and len(spelled) >= min_length:
            found.add(spelled)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in used:
                    walk(rr, cc, used | {(rr, cc)}, spelled)

    for r in range(rows):
        for c in range(cols):
            walk(r, c, {(r, c)}, "")
    return found


def score(words, min_length: int = 3) -> int:
    return sum(word_points(w, min_length) for w in words)
