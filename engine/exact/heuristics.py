"""Greedy baseline strategies (not optimal, labelled so in their files): what people usually use,
built so a user can see what exactness buys.

- entropy: the guess whose feedback carries the most expected information about the answer;
- minimax: the guess whose largest class is smallest;
- frequency: the candidate containing the most frequent letters among the candidates (each
  letter counted once per word), a common human rule.
Ties go to a guess that may be the answer, then to the first in list order.

The exact searches use the same partition figures only to order the guesses they try first
(`heuristic_order`); the order changes their speed, never their values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

STRATEGIES = ("entropy", "minimax", "frequency")


def heuristic_order(game, matrix: np.ndarray, S: np.ndarray) -> np.ndarray:
    """Guesses for S by class bound 3|S| - k - [g in S], then by sum of squared class sizes."""
    stats = partition_stats(game, matrix, S)
    bound = 3 * len(S) - stats.classes - stats.in_s
    return np.lexsort((np.arange(matrix.shape[0]), stats.squares, bound))


@dataclass
class PartitionStats:
    """Per guess, over a candidate set: what the cheap scores are made of."""

    classes: np.ndarray
    squares: np.ndarray
    largest: np.ndarray
    entropy: np.ndarray
    in_s: np.ndarray


def partition_stats(game, matrix: np.ndarray, S: np.ndarray) -> PartitionStats:
    from .kernels import _partition_stats

    G = matrix.shape[0]
    out = PartitionStats(np.empty(G, np.int64), np.empty(G, np.int64), np.empty(G, np.int64),
                         np.empty(G, np.float64), np.empty(G, np.bool_))
    _partition_stats(matrix, np.ascontiguousarray(S, dtype=np.int32), game.win_code, game.n_codes,
                     out.classes, out.squares, out.largest, out.entropy, out.in_s)
    return out


def _pick(game, matrix: np.ndarray, S: np.ndarray, strategy: str) -> int:
    if len(S) <= 2:
        return int(game.answer_guess_ids[S[0]])
    if strategy == "frequency":
        words = [game.answers[a] for a in S]
        weight = {}
        for w in words:
            for ch in set(w):
                weight[ch] = weight.get(ch, 0) + 1
        scores = [sum(weight[ch] for ch in set(w)) for w in words]
        return int(game.answer_guess_ids[S[int(np.argmax(scores))]])
    stats = partition_stats(game, matrix, S)
    in_s = stats.in_s
    if strategy == "entropy":
        score = np.round(stats.entropy, 9)  # equal partitions must tie exactly
    elif strategy == "minimax":
        score = -stats.largest.astype(float)
    else:
        raise ValueError(strategy)
    # lexicographic: score, then in-S, then list order (argmax takes the first)
    best = score.max()
    ties = np.flatnonzero(score == best)
    preferred = ties[in_s[ties]]
    return int(preferred[0] if len(preferred) else ties[0])


def greedy_tree(game, matrix: np.ndarray, S: np.ndarray, strategy: str, first: int | None = None) -> dict:
    """The tree the greedy rule plays from candidate set S (answer ids)."""
    g = first if first is not None else _pick(game, matrix, S, strategy)
    node = {"guess": game.guesses[g]}
    codes = matrix[g, S]
    branches = {}
    for code in np.unique(codes):
        if code != game.win_code:
            branches[game.pattern_text(int(code))] = greedy_tree(game, matrix, S[codes == code], strategy)
    if branches:
        node["next"] = branches
    return node
