"""Symmetries of the code-breaking games (Mastermind, Bulls and Cows): permuting the positions
and renaming the symbols.

Why they are sound: such a map, applied to guess and answer alike, leaves the score unchanged,
and it maps the code set onto itself (every code is a guess and an answer). So a map that fixes
every guess played so far maps each candidate set reached by them onto itself, and turns a tree
for it opening with g into an equally good one opening with the image of g: below a history, one
guess per orbit of the maps fixing that history is all a search needs to try.

Orbits are found with a canonical form: the tuple (history..., guess) under every position
permutation, with the symbols renamed by first appearance, the least of these encodings. Two
guesses get the same form exactly when one map sends (history, guess) to (history, guess'),
which then fixes the history.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np


def code_array(codes, symbols: str) -> np.ndarray:
    """Codes as an (n, positions) array of symbol indexes."""
    index = {s: i for i, s in enumerate(symbols)}
    return np.array([[index[s] for s in code] for code in codes], dtype=np.int64).reshape(len(codes), -1)


def _first_appearance_keys(X: np.ndarray, n_symbols: int) -> np.ndarray:
    """Each row with its symbols renamed 0, 1, 2, ... in order of first appearance, packed 4 bits
    a position, 15 positions to an integer: an (n, chunks) array whose rows compare like the
    renamed rows (rows equal up to renaming get equal keys). Labels stay below 16 while a row
    holds at most 16 symbols, which `orbit_keys` checks."""
    n, width = X.shape
    rows = np.arange(n)
    label = np.full((n, n_symbols), -1, dtype=np.int64)
    fresh = np.zeros(n, dtype=np.int64)
    keys = np.zeros((n, -(-width // 15)), dtype=np.int64)
    for j in range(width):
        s = X[:, j]
        lab = label[rows, s]
        new = lab < 0
        lab = np.where(new, fresh, lab)
        label[rows, s] = lab
        fresh += new
        keys[:, j // 15] = (keys[:, j // 15] << 4) | np.minimum(lab, 15)
    return keys


def orbit_keys(codes: np.ndarray, history: np.ndarray, n_symbols: int) -> np.ndarray:
    """The canonical form of (history, code) for every code (rows of `codes`): the least, row by
    row and in lexicographic order, of the first-appearance keys under every position
    permutation."""
    n, positions = codes.shape
    if min(n_symbols, (len(history) + 1) * positions) > 16:
        raise ValueError("orbit keys need labels below 16: at most 16 distinct symbols in a history and guess")
    best = None
    for perm in permutations(range(positions)):
        perm = list(perm)
        past = np.broadcast_to(history[:, perm].ravel(), (n, len(history) * positions))
        keys = _first_appearance_keys(np.concatenate([past, codes[:, perm]], axis=1), n_symbols)
        if best is None:
            best = keys
            continue
        smaller = np.zeros(n, dtype=bool)
        equal = np.ones(n, dtype=bool)
        for c in range(keys.shape[1]):
            smaller |= equal & (keys[:, c] < best[:, c])
            equal &= keys[:, c] == best[:, c]
        best = np.where(smaller[:, None], keys, best)
    return best


def orbit_representatives(game, history: list[int]) -> np.ndarray:
    """One guess id per orbit of the maps fixing every guess in `history` (guess ids): the first
    of each orbit in list order."""
    codes = code_array(game.guesses, game.symbols)
    keys = orbit_keys(codes, codes[list(history)].reshape(len(history), codes.shape[1]), len(game.symbols))
    _, first = np.unique(keys, axis=0, return_index=True)
    return np.sort(first).astype(np.int32)


def opener_representative(game, guess: int) -> int:
    """The guess that orbit_representatives(game, []) keeps for the orbit of `guess`: every opener
    of an orbit has the same value, so a value known for one stands for the representative."""
    codes = code_array(game.guesses, game.symbols)
    keys = orbit_keys(codes, codes[:0], len(game.symbols))
    return int(np.flatnonzero((keys == keys[guess]).all(axis=1))[0])
