"""The Wordle pattern matrix, in parallel: guesses x answers codes sum(colour_i * 3**i) (grey 0,
yellow 1, green 2). Self-contained: it calls no jitted function of another module (numba's cache
would not see edits there), and the game (wordle.py) imports it without the exact search's
kernels. The slow twin it is tested against is in tests/reference.py.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel, prange


@kernel(parallel=True)
def _wordle_matrix(guess_letters, answer_columns, answer_letter_counts, out):
    """out[g, a] = sum(colour_i * 3**i). Works a guess at a time over all answers in position
    passes, so the inner loops are plain array arithmetic that vectorizes.

    For guess position i holding letter c (not green), yellow iff the copies of c the answer has
    outside its green positions outnumber the non-green copies of c earlier in the guess: those
    earlier copies consume the unmatched ones left to right. Greens of c can only be at guess
    positions holding c, so both counts only look at the guess's own copies of c."""
    n_guesses, length = guess_letters.shape
    n_answers = answer_columns.shape[1]
    for g in prange(n_guesses):
        letters = guess_letters[g]
        green = np.empty((length, n_answers), dtype=np.uint8)
        for i in range(length):
            c = letters[i]
            col = answer_columns[i]
            for a in range(n_answers):
                green[i, a] = col[a] == c
        code = np.zeros(n_answers, dtype=np.int32)
        unmatched = np.empty(n_answers, dtype=np.int32)
        weight = 1
        for i in range(length):
            c = letters[i]
            counts = answer_letter_counts[c]
            for a in range(n_answers):
                unmatched[a] = counts[a]
            for j in range(length):
                if letters[j] == c:
                    gj = green[j]
                    if j < i:
                        for a in range(n_answers):
                            unmatched[a] -= 1  # an earlier copy: green or not, it used one up
                    else:
                        for a in range(n_answers):
                            unmatched[a] -= gj[a]  # a later green copy is reserved
            gi = green[i]
            for a in range(n_answers):
                yellow = (unmatched[a] > 0) & (gi[a] == 0)
                code[a] += weight * (2 * gi[a] + yellow)
            weight *= 3
        row = out[g]
        for a in range(n_answers):
            row[a] = code[a]


def wordle_pattern_matrix(guess_letters: np.ndarray, answer_letters: np.ndarray, dtype) -> np.ndarray:
    """The guesses x answers Wordle pattern matrix from (n, L) arrays of letter numbers (0..25 for
    a-z; any alphabet numbers its letters from 0, up to 255)."""
    n_answers, length = answer_letters.shape
    top = max(int(guess_letters.max(initial=0)), int(answer_letters.max(initial=0))) + 1
    counts = np.zeros((max(26, top), n_answers), dtype=np.int32)
    for i in range(length):
        np.add.at(counts, (answer_letters[:, i], np.arange(n_answers)), 1)
    out = np.empty((guess_letters.shape[0], n_answers), dtype=dtype)
    _wordle_matrix(
        np.ascontiguousarray(guess_letters), np.ascontiguousarray(answer_letters.T), counts, out
    )
    return out
