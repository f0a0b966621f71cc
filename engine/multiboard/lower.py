"""Proven lower bounds on the mean number of guesses of any multi-board strategy, over the
uniform K-tuples of different answers (every tuple equally likely), whatever the cap.

Facts used, for any strategy and any tuple (a_1, ..., a_K) of different answers, t_i being the
guess that solves board i and L = max_i t_i the game's length:

(F1) a guess solves at most one board (it equals at most one answer: the answers differ), so
     the t_i are K different numbers, and L >= K.
(F2) fix the other boards' answers O (K - 1 words). Then the guesses played are a function of
     board i's own feedback alone (the other boards' feedback is fixed by O), so a_i -> t_i is
     a single-board strategy on the n - K + 1 answers left: at most one a_i has t_i = 1 (the
     opener is one word), and at most c_2 have t_i = 2, c_2 being the most classes other than
     the win that a guess cuts the whole answer list into (the second guess is one word per
     class of the opener's feedback). Hence P(t_i = 1) <= 1 / (n - K + 1) and
     P(t_i = 2) <= c_2 / (n - K + 1), over a uniform tuple.

Bound A (waste): L = K + W, W the guesses among 1..L that solve no board (F1: exactly K
guesses solve one). Since L >= K, W >= the guesses among 1..K that solve none, so
E[L] >= K + sum_{j=1..K} P(guess j solves none) >= K + sum_j (1 - min(1, K p_j)), with p_1 and
p_2 from F2 and p_j = 1 (no claim) beyond: guess j solves some board only if some t_i = j, and
P(some t_i = j) <= sum_i P(t_i = j).

Bound B (projection): the t_i are K different positive numbers (F1), so for the sorted values
t_(1) < ... < t_(K), L = t_(K) >= t_(m) + K - m for each m; averaging over m,
L >= (sum_i t_i) / K + (K - 1) / 2. By F2, E[t_i] is at least the least mean of a single-board
strategy on n - K + 1 answers, which the counting bound bounds below: at most 1 answer solved
at guess 1, at most (codes - 1)**(j - 1) at guess j (one per feedback history), filled in order.

The bound is the larger of A and B (each holds for every strategy). Both are tested against
the exact optimum of small games (tests/test_multiboard.py).
"""

from __future__ import annotations

import numpy as np


def most_classes(matrix: np.ndarray, win: int) -> int:
    """c_2: the most classes other than the win's that one guess cuts the answer list into."""
    n_codes = int(matrix.max()) + 1
    best = 0
    for start in range(0, matrix.shape[0], 512):
        block = matrix[start:start + 512].astype(np.int64)
        flat = block + n_codes * np.arange(block.shape[0])[:, None]
        counts = np.bincount(flat.ravel(), minlength=block.shape[0] * n_codes).reshape(block.shape[0], n_codes)
        nonwin = (counts > 0).sum(axis=1) - (counts[:, win] > 0) if win < n_codes else (counts > 0).sum(axis=1)
        best = max(best, int(nonwin.max()))
    return best


def counting_mean(m: int, codes: int) -> float:
    """The least mean guesses of a single-board strategy on m answers, by counting (at most
    (codes - 1)**(j - 1) answers solved at guess j)."""
    total, left, j = 0, m, 1
    while left > 0:
        room = min(left, (codes - 1) ** (j - 1))
        total += j * room
        left -= room
        j += 1
    return total / m


def waste_bound(n: int, k: int, c2: int) -> float:
    rest = n - k + 1
    p = [1 / rest, c2 / rest]
    return k + sum(1 - min(1.0, k * (p[j] if j < 2 else 1.0)) for j in range(k))


def projection_bound(n: int, k: int, codes: int) -> float:
    return counting_mean(n - k + 1, codes) + (k - 1) / 2


def lower_bound(game, matrix: np.ndarray, k: int) -> dict:
    """The proven lower bound on any strategy's mean over uniform K-tuples (the module's A and
    B), rounded down to 6 decimals."""
    n = matrix.shape[1]
    c2 = most_classes(matrix, game.win_code)
    a = waste_bound(n, k, c2)
    b = projection_bound(n, k, game.n_codes)
    mean = max(a, b, float(k))
    how = (f"waste bound {a:.6f} (at most one board solved a guess; the opener solves a board with chance at most "
           f"{k}/{n - k + 1}, the second guess at most {k}*{c2}/{n - k + 1}); projection bound {b:.6f} "
           f"(each board a single-board strategy, counting bound)")
    return {"mean": float(np.floor(mean * 1e6) / 1e6), "waste": round(a, 6), "projection": round(b, 6),
            "most_classes": c2, "how": how}
