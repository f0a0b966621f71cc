"""Absurdle's kernels: the adversary's reply to a guess, and the search for guesses that corner
it (leave it one answer). Their plain twins are in tests/reference_absurdle.py.

`M` is the game's pattern matrix (guesses x answers codes), `S` a set of answers (int32 ids),
`rank` the adversary's order among buckets of equal size (lower first: absurdle.rule), `ties`
whether it keeps to that order (TIES_FIXED) or may answer with any largest bucket (TIES_ANY).
Scratch arrays of one entry per code (`cnt`, `seen`) are zero, or below `epoch`, on entry and
left so.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel

TIES_FIXED, TIES_ANY = 0, 1


@kernel
def _replies(M, S, g, rank, ties, cnt, codes):
    """The buckets the adversary may answer guess g with on S: the largest, the first of them by
    `rank` (TIES_FIXED, which puts the win last), or every one of them but the win (TIES_ANY). Their codes go to `codes`; returns
    (how many, their size)."""
    for a in S:
        cnt[M[g, a]] += 1
    size = 0
    best = -1
    for a in S:
        c = M[g, a]
        k = cnt[c]
        if k > size or (k == size and rank[c] < rank[best]):
            size = k
            best = c
    n = 0
    if ties == TIES_FIXED:
        codes[0] = best
        n = 1
    else:
        win = rank.size - 1  # all green: the adversary never answers a win while it can go on
        for a in S:
            c = M[g, a]
            if cnt[c] == size:
                codes[n] = c
                n += 1
                cnt[c] = -1  # listed once
        if n > 1:
            m = 0
            for j in range(n):
                if codes[j] != win:
                    codes[m] = codes[j]
                    m += 1
            n = m
    for a in S:
        cnt[M[g, a]] = 0
    return n, size


@kernel
def _bucket(M, S, g, c, out):
    """The answers of S that guess g gives code c, into `out`; their count."""
    n = 0
    for a in S:
        if M[g, a] == c:
            out[n] = a
            n += 1
    return n


@kernel
def _distinct(M, S, seen, epoch):
    """(bound, epoch): for every guess, how many codes it gives on S, which bounds how many
    answers it can tell apart in any subset of S."""
    G = M.shape[0]
    bound = np.zeros(G, np.int64)
    for g in range(G):
        epoch += 1
        k = 0
        for a in S:
            c = M[g, a]
            if seen[c] != epoch:
                seen[c] = epoch
                k += 1
        bound[g] = k
    return bound, epoch


@kernel
def _separator(M, S, order, bound, seen, epoch):
    """(guess, epoch): the first guess in `order` that gives every answer of S a code of its own,
    -1 if none. `bound` is `_distinct` of a superset of S and `order` the guesses by it, largest
    first: the scan stops at the first whose bound is below |S|, since no guess after it can tell
    |S| answers apart (sound: a subset shows no code its superset does not)."""
    n = S.size
    for i in range(order.size):
        g = order[i]
        if bound[g] < n:
            break
        epoch += 1
        ok = True
        for a in S:
            c = M[g, a]
            if seen[c] == epoch:
                ok = False
                break
            seen[c] = epoch
        if ok:
            return g, epoch
    return -1, epoch


@kernel(nogil=True)
def _second_guess(M, S, rank, ties, prunes, stats):
    """A guess after which the player corners S with one more guess, whatever the adversary
    answers (-1: none), scanning the guesses in order. stats: [0] guesses tried, [1] buckets
    searched for a separating guess. A bucket of one answer is cornered already. `prunes` (0 for
    none, for the tests): a guess that leaves S whole is skipped (sound: a guess that corners S
    alone returns first, as its buckets are single answers), and the counting bound stops the
    scans for a separating guess."""
    G = M.shape[0]
    n_codes = rank.size
    cnt = np.zeros(n_codes, np.int64)
    codes = np.empty(n_codes, np.int64)
    seen = np.zeros(n_codes, np.int64)
    buf = np.empty(S.size, np.int32)
    bound, epoch = _distinct(M, S, seen, 0)
    if prunes == 0:
        bound[:] = S.size
    order = np.argsort(-bound, kind="mergesort").astype(np.int32)
    for g in range(G):
        stats[0] += 1
        k, size = _replies(M, S, g, rank, ties, cnt, codes)
        if size == S.size and S.size > 1 and prunes != 0:
            continue
        if size == 1:
            return g
        if bound[order[0]] < size:
            continue  # no guess tells that many answers apart
        ok = True
        for j in range(k):
            m = _bucket(M, S, g, codes[j], buf)
            stats[1] += 1
            h, epoch = _separator(M, buf[:m], order, bound, seen, epoch)
            if h < 0:
                ok = False
                break
        if ok:
            return g
    return -1


@kernel(nogil=True)
def _first_replies(M, S, rank, ties):
    """For every guess, the size of the bucket the adversary answers it with on S (the largest)."""
    G = M.shape[0]
    cnt = np.zeros(rank.size, np.int64)
    codes = np.empty(rank.size, np.int64)
    out = np.empty(G, np.int64)
    for g in range(G):
        _, size = _replies(M, S, g, rank, ties, cnt, codes)
        out[g] = size
    return out
