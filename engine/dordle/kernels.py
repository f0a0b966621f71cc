"""The numba kernels of the Dordle search: every guess's counting bound at a state, in one pass.

One module, because numba's on-disk cache does not notice edits to a jitted function in another
file. The bounds they compute are proven in bounds.py (the plain-Python twins the tests compare
with); this module only counts.

A state is (S1, S2, d): the answers still possible on board 1 and on board 2, both unsolved, and
d guesses left; its pairs are S1 x S2 minus the diagonal. Below the root (A, A) the two sets are
either identical (`ident`) or disjoint (a guess gives one answer one pattern, so the classes of
two different patterns never meet), which is all these kernels handle.
"""

from __future__ import annotations

import numpy as np
from numba import njit

DINF = 1 << 40  # "no strategy within the cap": far above any total, and sums of a few stay in int64


@njit(cache=True, nogil=True)
def _sum_max(a, ka, b, kb):
    """sum over p < ka, q < kb of max(a[p], b[q]); a[:ka] and b[:kb] are sorted in place."""
    a[:ka].sort()
    b[:kb].sort()
    total_b = 0
    for q in range(kb):
        total_b += b[q]
    out = 0
    j = 0
    below = 0  # sum of b[:j]
    for p in range(ka):
        while j < kb and b[j] < a[p]:
            below += b[j]
            j += 1
        out += a[p] * j + (total_b - below)
    return out


@njit(cache=True, nogil=True)
def guess_bounds(matrix, n_codes, guesses, S1, S2, ident, mark1, mark2, answer_of_guess, win, d, cb, lbs, scores,
                 useless):
    """For each guess g of `guesses` at the state (S1, S2, d): lbs[i], the counting bound on the
    cost of opening with g (bounds.guess_bound), scores[i], the sum over its child states of
    their squared pair counts (the order to try guesses in), and useless[i], whether g leaves
    both boards in one class without solving either (it stays useless below).

    mark1[a] / mark2[a]: answer a is in S1 / S2; answer_of_guess[g]: the answer id of guess g or
    -1; cb[d, c]: the single-board class bound of c answers with d guesses left (DINF when
    infeasible); n_codes: the game's number of codes."""
    n1, n2 = S1.size, S2.size
    m = n1 * (n1 - 1) if ident else n1 * n2
    dl = d - 1
    cnt1 = np.zeros(n_codes, np.int64)
    cnt2 = np.zeros(n_codes, np.int64)
    size1 = np.empty(n1 + 1, np.int64)
    size2 = np.empty(n2 + 1, np.int64)
    for i in range(guesses.size):
        g = guesses[i]
        row = matrix[g]
        ag = answer_of_guess[g]
        in1 = ag >= 0 and mark1[ag]
        in2 = ag >= 0 and mark2[ag]
        # board 1's non-winning classes
        k1 = 0
        for a in S1:
            c = row[a]
            if c != win:
                if cnt1[c] == 0:
                    k1 += 1
                cnt1[c] += 1
        j = 0
        for a in S1:
            c = row[a]
            if c != win and cnt1[c] > 0:
                size1[j] = cnt1[c]
                cnt1[c] = 0
                j += 1
        if ident:
            k2 = k1
            for j in range(k1):
                size2[j] = size1[j]
        else:
            k2 = 0
            for a in S2:
                c = row[a]
                if c != win:
                    if cnt2[c] == 0:
                        k2 += 1
                    cnt2[c] += 1
            j = 0
            for a in S2:
                c = row[a]
                if c != win and cnt2[c] > 0:
                    size2[j] = cnt2[c]
                    cnt2[c] = 0
                    j += 1
        useless[i] = (not in1) and (not in2) and k1 <= 1 and k2 <= 1
        # the pairs where g solves one board go on as single-board games
        single = 0
        if in1:
            for q in range(k2):
                single += cb[dl, size2[q]]
        if in2:
            for p in range(k1):
                single += cb[dl, size1[p]]
        # the child states: every pair of non-winning classes (ident: the diagonal is a smaller ident)
        sa = 0
        sb = 0
        sa2 = 0
        sb2 = 0
        big1 = 0
        big2 = 0
        over2 = 0
        for p in range(k1):
            sa += size1[p]
            sa2 += size1[p] * size1[p]
            if size1[p] > 1:
                big1 += 1
            if size1[p] > 2:
                over2 += 1
        for q in range(k2):
            sb += size2[q]
            sb2 += size2[q] * size2[q]
            if size2[q] > 1:
                big2 += 1
        smax = _sum_max(size1, k1, size2, k2)
        if ident:
            # pairs p != q: disjoint children (counted both ways); p == q: ident children
            sum_max = smax - sa
            products = sa * sa - sa2
            child = 3 * products - sum_max
            for p in range(k1):
                s = size1[p]
                if s > 1:
                    child += 3 * s * (s - 1) - 2 * (s - 1)
            has_child = k1 >= 2 or big1 >= 1
            infeasible2 = big1 >= 2 or over2 >= 1
            sq = sa2 * sa2
            for p in range(k1):
                s = size1[p]
                sq += s * s * (s - 1) * (s - 1) - s * s * s * s
        else:
            child = 3 * sa * sb - smax
            has_child = k1 >= 1 and k2 >= 1
            infeasible2 = big1 >= 1 and big2 >= 1
            sq = sa2 * sb2
        if has_child and (dl <= 1 or (dl == 2 and infeasible2)):
            child = DINF
        lb = m + single + child
        lbs[i] = lb if lb < DINF else DINF
        scores[i] = sq


@njit(cache=True, nogil=True)
def _labels(row, U, stamp, label, epoch, out):
    """out[j] = the code of U[j] under `row`, renamed by first appearance (0, 1, ...)."""
    k = 0
    for j in range(U.size):
        c = row[U[j]]
        if stamp[c] != epoch:
            stamp[c] = epoch
            label[c] = k
            k += 1
        out[j] = label[c]


@njit(cache=True, nogil=True)
def _board_labels(row, S1, S2, ident, stamp, label, epoch, out):
    """out = the codes of S1, then of S2 (not in an ident state), each board renamed by first
    appearance on its own; returns the new epoch."""
    epoch += 1
    _labels(row, S1, stamp, label, epoch, out[: S1.size])
    if not ident:
        epoch += 1
        _labels(row, S2, stamp, label, epoch, out[S1.size:])
    return epoch


@njit(cache=True, nogil=True)
def prune_guesses(matrix, n_codes, guesses, S1, S2, ident, in_union, answer_of_guess, drop_useless, drop_same):
    """keep[i]: whether guesses[i] is worth trying at the state (S1, S2) (ident: S2 is S1), and
    below it (every test here holds on subsets too, so children inherit the kept list).

    drop_useless: a guess outside S1 and S2 that leaves each board in one class learns nothing
    and solves nothing: it leads to the same state with a guess fewer, never better.
    drop_same: of the guesses outside S1 and S2 that split S1 into the same classes and S2 into
    the same classes, only the first in list order is kept. They send every pair to the same
    child states, here and on every subset of S1 and of S2, so they are interchangeable at this
    node and below it. Guesses whose answer is in S1 or S2 are always kept (one may be the
    answer). Equal partitions are found by a 64-bit hash of the codes renamed by first
    appearance (on each board separately), then compared code by code, so a hash collision only
    keeps a guess that could go."""
    n = guesses.size
    n1 = S1.size
    U = S1 if ident else np.concatenate((S1, S2))
    keep = np.ones(n, np.bool_)
    size = 1
    while size < 2 * n:
        size *= 2
    table = np.full(size, -1, np.int64)
    table_hash = np.zeros(size, np.uint64)
    stamp = np.zeros(n_codes, np.int64)
    label = np.zeros(n_codes, np.int64)
    lab = np.empty(U.size, np.int64)
    other = np.empty(U.size, np.int64)
    epoch = 0
    for i in range(n):
        g = guesses[i]
        ag = answer_of_guess[g]
        if ag >= 0 and in_union[ag]:
            continue
        row = matrix[g]
        epoch = _board_labels(row, S1, S2, ident, stamp, label, epoch, lab)
        if drop_useless:
            one1 = True
            for j in range(n1):
                if lab[j] != 0:
                    one1 = False
                    break
            one2 = True
            if not ident:
                for j in range(n1, U.size):
                    if lab[j] != 0:
                        one2 = False
                        break
            if one1 and one2:
                keep[i] = False
                continue
        if not drop_same:
            continue
        h = np.uint64(1469598103934665603)
        for j in range(U.size):
            h = (h ^ np.uint64(lab[j] + 1)) * np.uint64(1099511628211)
        slot = np.int64(h & np.uint64(size - 1))
        while True:
            first = table[slot]
            if first < 0:
                table[slot] = i
                table_hash[slot] = h
                break
            if table_hash[slot] == h:
                epoch = _board_labels(matrix[guesses[first]], S1, S2, ident, stamp, label, epoch, other)
                same = True
                for j in range(U.size):
                    if lab[j] != other[j]:
                        same = False
                        break
                if same:
                    keep[i] = False
                    break
            slot = (slot + 1) & (size - 1)
    return keep
