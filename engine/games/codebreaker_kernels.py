"""The pattern matrix of the code-breaking games (Mastermind, Bulls and Cows), in parallel.

Both games score a guess the same way: exact matches (black pegs, bulls) and symbols in common
but misplaced (white pegs, cows). The code is black * (pegs + 1) + white. Self-contained: it
calls no jitted function of another module (numba's cache would not see edits there).
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel, prange



@kernel(parallel=True)
def _codebreaker_matrix(guess_symbols, answer_symbols, answer_counts, out):
    """out[g, a] = black * (pegs + 1) + white. Symbols in common = sum over the guess's distinct
    symbols of min(copies in guess, copies in answer); white = common - black."""
    n_guesses, pegs = guess_symbols.shape
    n_answers = answer_symbols.shape[0]
    n_symbols = answer_counts.shape[1]
    for g in prange(n_guesses):
        symbols = guess_symbols[g]
        guess_counts = np.zeros(n_symbols, dtype=np.int32)
        distinct = np.empty(pegs, dtype=np.int32)
        k = 0
        for i in range(pegs):
            s = symbols[i]
            if guess_counts[s] == 0:
                distinct[k] = s
                k += 1
            guess_counts[s] += 1
        for a in range(n_answers):
            answer = answer_symbols[a]
            black = 0
            for i in range(pegs):
                if symbols[i] == answer[i]:
                    black += 1
            common = 0
            for j in range(k):
                s = distinct[j]
                common += min(guess_counts[s], answer_counts[a, s])
            out[g, a] = black * (pegs + 1) + common - black


def codebreaker_matrix(guesses, answers, n_symbols: int, symbol_offset: int, dtype=np.uint8) -> np.ndarray:
    """The guesses x answers code matrix for codes written as digit strings; a code's symbols are
    its digits minus `symbol_offset` (1 for Mastermind's 1..C, 0 for Bulls and Cows)."""
    pegs = len(answers[0])
    guess_symbols = _symbols(guesses, pegs, n_symbols, symbol_offset)
    answer_symbols = _symbols(answers, pegs, n_symbols, symbol_offset)
    answer_counts = np.zeros((len(answers), n_symbols), dtype=np.int32)
    for i in range(pegs):
        np.add.at(answer_counts, (np.arange(len(answers)), answer_symbols[:, i]), 1)
    out = np.empty((len(guesses), len(answers)), dtype=dtype)
    _codebreaker_matrix(guess_symbols, answer_symbols, answer_counts, out)
    return out


def _symbols(codes, pegs: int, n_symbols: int, offset: int) -> np.ndarray:
    flat = np.frombuffer("".join(codes).encode("ascii"), dtype=np.uint8).astype(np.int32) - ord("0") - offset
    if flat.size != pegs * len(codes) or flat.size and (flat.min() < 0 or flat.max() >= n_symbols):
        raise ValueError("codes must all have the same length and use the game's digits")
    return flat.reshape(len(codes), pegs)
