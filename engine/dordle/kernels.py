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

from ..jit import kernel

DINF = 1 << 40  # "no strategy within the cap": far above any total, and sums of a few stay in int64


@kernel(nogil=True)
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


@kernel(nogil=True)
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


@kernel(nogil=True)
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


@kernel(nogil=True)
def _board_labels(row, S1, S2, ident, stamp, label, epoch, out):
    """out = the codes of S1, then of S2 (not in an ident state), each board renamed by first
    appearance on its own; returns the new epoch."""
    epoch += 1
    _labels(row, S1, stamp, label, epoch, out[: S1.size])
    if not ident:
        epoch += 1
        _labels(row, S2, stamp, label, epoch, out[S1.size:])
    return epoch


@kernel(nogil=True)
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


# --- the heuristic strategy (heuristic.py) and the depth-2 bound (lower.py) ---

@kernel(nogil=True)
def _xlog(c):
    """c log2 c (0 for c <= 1)."""
    return c * np.log2(c) if c > 1 else 0.0


@kernel(nogil=True)
def guess_estimates(matrix, n_codes, guesses, S1, S2, ident, mark1, mark2, answer_of_guess, win, d, cb, alpha, lbs,
                    scores, useless, ests):
    """guess_bounds, and ests[i]: the heuristic estimate of the cost of opening with guesses[i],
    lbs[i] + alpha * (the sum over child states of pairs * (log2 |C1| + log2 |C2|) + the sum over
    single-board classes of |C| log2 |C|). The counting bound is nearly exact on small children
    and blind to the size of large ones; the log term charges a child for what is still unknown.
    Only an ordering: no claim is made about it (DINF when the bound is DINF)."""
    guess_bounds(matrix, n_codes, guesses, S1, S2, ident, mark1, mark2, answer_of_guess, win, d, cb, lbs, scores,
                 useless)
    cnt1 = np.zeros(n_codes, np.int64)
    cnt2 = np.zeros(n_codes, np.int64)
    for i in range(guesses.size):
        if lbs[i] >= DINF:
            ests[i] = np.inf
            continue
        row = matrix[guesses[i]]
        in1 = False
        in2 = False
        for a in S1:
            c = row[a]
            if c == win:
                in1 = True
            else:
                cnt1[c] += 1
        if not ident:
            for a in S2:
                c = row[a]
                if c == win:
                    in2 = True
                else:
                    cnt2[c] += 1
        sa = 0.0
        la = 0.0
        sq_log = 0.0
        dg = 0.0
        for a in S1:
            c = row[a]
            if c != win and cnt1[c] > 0:
                s = cnt1[c]
                sa += s
                la += _xlog(s)
                sq_log += s * _xlog(s)
                dg += 2.0 * (s - 1) * _xlog(s)
                cnt1[c] = 0
        if ident:
            # p != q: sum s_p s_q (log s_p + log s_q) = 2 (la sa - sum s_p^2 log s_p); p = q: s (s - 1) 2 log s
            extra = 2.0 * (la * sa - sq_log) + dg
            if in1:
                extra += 2.0 * la
        else:
            sb = 0.0
            lb2 = 0.0
            for a in S2:
                c = row[a]
                if c != win and cnt2[c] > 0:
                    s = cnt2[c]
                    sb += s
                    lb2 += _xlog(s)
                    cnt2[c] = 0
            extra = la * sb + lb2 * sa
            if in1:
                extra += lb2
            if in2:
                extra += la
        ests[i] = lbs[i] + alpha * extra


@kernel(nogil=True)
def _pick(lbs, scores, ests):
    """The index of the least estimate (ties: the least score, then the first); -1 when every
    bound is DINF."""
    best = -1
    for i in range(lbs.size):
        if lbs[i] >= DINF:
            continue
        if best < 0 or ests[i] < ests[best] or (ests[i] == ests[best] and scores[i] < scores[best]):
            best = i
    return best


@kernel(nogil=True)
def _group(row, S, win, n_codes, cnt, out, starts, codes):
    """Sort S into out by code (counting sort); starts[j], codes[j] for each non-winning class j
    (starts[k] = the end); returns (k, whether a code was the win). The winning class is left out."""
    for a in S:
        cnt[row[a]] += 1
    k = 0
    pos = 0
    hit = False
    for c in range(n_codes):
        if cnt[c] > 0:
            if c == win:
                hit = True
            else:
                starts[k] = pos
                codes[k] = c
                k += 1
                pos += cnt[c]
            cnt[c] = 0
    starts[k] = pos
    # second pass: place (cnt now counts placed answers per class, through a code -> class map)
    for j in range(k):
        cnt[codes[j]] = starts[j]
    for a in S:
        c = row[a]
        if c != win:
            out[cnt[c]] = a
            cnt[c] += 1
    for j in range(k):
        cnt[codes[j]] = 0
    return k, hit



@kernel(nogil=True)
def _candidate(k, C, guess_of_answer, short, guesses):
    """The k-th guess of the scan order C's own answers, then `short`, then every guess."""
    if k < C.size:
        return guess_of_answer[C[k]]
    k -= C.size
    if k < short.size:
        return short[k]
    return guesses[k - short.size]


@kernel(nogil=True)
def single_feasible(matrix, n_codes, C, d, win, guess_of_answer, short, guesses, cb):
    """Whether V1(C, d) is finite: some single-board strategy finds every answer of C within d
    guesses. Exact: a yes names a tree (each class of the guess found feasible below it), and a no
    comes only after every guess was tried (the scan order, C's answers then `short` then all the
    guesses, only finds a yes sooner). c <= d: guessing the answers in turn fits; cb[d, c] = DINF
    (the class bound) and d <= 1 with c >= 2 are infeasible."""
    c = C.size
    if c <= d:
        return True
    if d <= 1 or cb[d, c] >= DINF:
        return False
    total = c + short.size + guesses.size
    stamp = np.zeros(n_codes, np.int64)
    if d == 2:
        # within two guesses: the first must leave every answer alone in its class
        for k in range(total):
            row = matrix[_candidate(k, C, guess_of_answer, short, guesses)]
            epoch = k + 1
            ok = True
            for a in C:
                x = row[a]
                if stamp[x] == epoch:
                    ok = False
                    break
                stamp[x] = epoch
            if ok:
                return True
        return False
    dl = d - 1
    cnt = np.zeros(n_codes, np.int64)
    out = np.empty(c, np.int32)
    starts = np.empty(n_codes + 1, np.int64)
    codes = np.empty(n_codes, np.int64)
    for k in range(total):
        row = matrix[_candidate(k, C, guess_of_answer, short, guesses)]
        kk, _ = _group(row, C, win, n_codes, cnt, out, starts, codes)
        ok = True
        for j in range(kk):
            if starts[j + 1] - starts[j] > dl:
                sub = out[starts[j]:starts[j + 1]].copy()
                if not single_feasible(matrix, n_codes, sub, dl, win, guess_of_answer, short, guesses, cb):
                    ok = False
                    break
        if ok:
            return True
    return False


@kernel(nogil=True)
def _small_state(matrix, A, B, idt, d, guess_of_answer, chosen):
    """The value of a state of one or two pairs, as search.DordleSearch.shortcut proves it (DINF:
    none within d); its guess in chosen[d]."""
    if idt:
        chosen[d] = guess_of_answer[A[0]]
        return 4
    if A.size == 1 and B.size == 1:
        chosen[d] = guess_of_answer[A[0]]
        return 2
    x = A[0] if A.size == 1 else B[0]
    Y = B if A.size == 1 else A
    g = guess_of_answer[x]
    if matrix[g, Y[0]] != matrix[g, Y[1]]:
        chosen[d] = g
        return 4
    if d >= 3:
        chosen[d] = g
        return 5
    return DINF


@kernel(nogil=True)
def _play(matrix, n_codes, guesses, short, A, B, idt, d, first, scan_all, answer_of_guess, guess_of_answer, win, cb,
          alpha, n_answers, tries, ws_lbs, ws_scores, ws_useless, ws_ests, mark1, mark2, cnt, chosen, single_ids,
          single_meta, stats):
    """The heuristic strategy's two-board total below the state (A, B, d) (B is A when idt), or DINF
    when it finds no way to finish every pair within d; its guess at the state in chosen[d].

    The guess: `first` if >= 0; otherwise the candidates in order (d >= 4: least estimate, see
    guess_estimates; d = 3: least counting bound, which at three guesses left is the exact cost
    of a feasible guess up to the single boards' own-answer term), each accepted only if every
    single-board remainder it leaves is feasible (single_feasible) and every child state's own
    play finishes; a rejected guess is backed off (its remainders are taken back). The candidates:
    every guess when scan_all, else `short` and the state's own answers, then (when they all fail)
    every other guess. Guesses whose counting bound is DINF are proven infeasible and skipped.
    At d <= 3 every candidate is tried, so DINF there means no strategy exists (d = 2: every pair
    must contain the guess, and it must split the other board into singletons); at d >= 4 at most
    `tries` of each list, so DINF means only that this strategy gave up (the parent backs off).

    Single-board remainders of three or more answers go to single_ids / single_meta (offset, size,
    guesses left, multiplicity) for the caller's exact single-board values; stats: [2] states
    played (back-offs included), [3] the least counting bound at a scan_all state, [4] remainders
    written, [5] single_ids used, [6] 1 if a buffer overflowed, [7] guesses backed off. One
    self-recursive function (numba's cache mishandles mutual recursion); the recursive call
    passes variables, never literals."""
    n1 = A.size
    nb = B.size
    m = n1 * (n1 - 1) if idt else n1 * nb
    chosen[d] = -1
    if m == 0:
        return 0
    if d <= 1:
        return DINF
    stats[2] += 1
    if m <= 2:
        return _small_state(matrix, A, B, idt, d, guess_of_answer, chosen)
    if d == 2:
        # every pair must cost exactly 2: each contains the guess, which then splits the other board
        if idt or (n1 > 1 and nb > 1):
            return DINF
        x = A[0] if n1 == 1 else B[0]
        Y = B if n1 == 1 else A
        g = guess_of_answer[x]
        row = matrix[g]
        cnt[:] = 0
        ok = True
        for y in Y:
            if cnt[row[y]] > 0:
                ok = False
            cnt[row[y]] += 1
        cnt[:] = 0
        if not ok:
            return DINF
        chosen[d] = g
        return 2 * m
    dl = d - 1
    no_first = first - first - 1  # -1, as a variable
    below = scan_all and not scan_all  # False, as a variable
    out1 = np.empty(n1, np.int32)
    out2 = np.empty(nb, np.int32)
    st1 = np.empty(n_codes + 1, np.int64)
    st2 = np.empty(n_codes + 1, np.int64)
    cd1 = np.empty(n_codes, np.int64)
    cd2 = np.empty(n_codes, np.int64)
    ng = guesses.size
    lbs = ws_lbs[d]
    scores = ws_scores[d]
    useless = ws_useless[d]
    ests = ws_ests[d]
    for phase in range(2):
        if first >= 0:
            if phase == 1:
                break
            G = np.empty(1, np.int32)
            G[0] = first
        elif scan_all or phase == 1:
            if scan_all and phase == 1:
                break
            G = guesses
        else:
            G = np.empty(short.size + n1 + (0 if idt else nb), np.int32)
            G[:short.size] = short
            k = short.size
            for a in A:
                G[k] = guess_of_answer[a]
                k += 1
            if not idt:
                for a in B:
                    G[k] = guess_of_answer[a]
                    k += 1
        kg = G.size
        for a in A:
            mark1[a] = True
        for a in B:
            mark2[a] = True
        guess_estimates(matrix, n_codes, G, A, B, idt, mark1, mark2, answer_of_guess, win, d, cb, alpha,
                        lbs[:kg], scores[:kg], useless[:kg], ests[:kg])
        for a in A:
            mark1[a] = False
        for a in B:
            mark2[a] = False
        if scan_all and first < 0:
            least = DINF
            for j in range(kg):
                if lbs[j] < least:
                    least = lbs[j]
            stats[3] = least
        if phase == 1 and not scan_all:
            # the second list: every guess not tried in the first (which was short + own answers)
            seen = np.zeros(ng, np.bool_)
            for g in short:
                seen[g] = True
            for a in A:
                seen[guess_of_answer[a]] = True
            for a in B:
                seen[guess_of_answer[a]] = True
            for j in range(kg):
                if seen[G[j]]:
                    lbs[j] = DINF
        if d == 3:
            order = np.argsort(lbs[:kg], kind="mergesort")
        else:
            order = np.argsort(ests[:kg], kind="mergesort")
        tried = 0
        for t in range(kg):
            i = order[t]
            if lbs[i] >= DINF:
                if d == 3:
                    break  # sorted by bound: the rest are infeasible too
                continue
            if d >= 4 and tried >= tries:
                break
            tried += 1
            h = G[i]
            r0 = stats[4]
            u0 = stats[5]
            row = matrix[h]
            k1, hit1 = _group(row, A, win, n_codes, cnt, out1, st1, cd1)
            if idt:
                k2, hit2 = k1, hit1
                out2[:n1] = out1[:n1]
                st2[:k1 + 1] = st1[:k1 + 1]
            else:
                k2, hit2 = _group(row, B, win, n_codes, cnt, out2, st2, cd2)
            total = m
            ok = True
            # single-board remainders: board 1 solved (hit1) leaves board 2's classes, and vice versa
            for side in range(2):
                if not ok or (side == 0 and not hit1) or (side == 1 and (not hit2 or idt)):
                    continue
                mult = 2 if idt else 1
                ko = k2 if side == 0 else k1
                so = st2 if side == 0 else st1
                oo = out2 if side == 0 else out1
                for q in range(ko):
                    c = so[q + 1] - so[q]
                    C = oo[so[q]:so[q + 1]].copy()
                    if not single_feasible(matrix, n_codes, C, dl, win, guess_of_answer, short, guesses, cb):
                        ok = False
                        break
                    if c == 1:
                        total += mult
                    elif c == 2:
                        total += 3 * mult
                    else:
                        r = stats[4]
                        u = stats[5]
                        if r >= single_meta.shape[0] or u + c > single_ids.size:
                            stats[6] = 1
                            return DINF
                        single_ids[u:u + c] = C
                        single_meta[r, 0] = u
                        single_meta[r, 1] = c
                        single_meta[r, 2] = dl
                        single_meta[r, 3] = mult
                        stats[4] = r + 1
                        stats[5] = u + c
            # the child states
            for p in range(k1):
                if not ok:
                    break
                for q in range(k2):
                    cid = idt and p == q
                    a = st1[p + 1] - st1[p]
                    b = st2[q + 1] - st2[q]
                    if (a * (a - 1) if cid else a * b) == 0:
                        continue
                    C1 = out1[st1[p]:st1[p + 1]].copy()
                    C2 = C1 if cid else out2[st2[q]:st2[q + 1]].copy()
                    v = _play(matrix, n_codes, guesses, short, C1, C2, cid, dl, no_first, below, answer_of_guess,
                              guess_of_answer, win, cb, alpha, n_answers, tries, ws_lbs, ws_scores, ws_useless,
                              ws_ests, mark1, mark2, cnt, chosen, single_ids, single_meta, stats)
                    if stats[6]:
                        return DINF
                    if v >= DINF:
                        ok = False
                        break
                    total += v
            if ok:
                chosen[d] = h
                return total
            stats[4] = r0
            stats[5] = u0
            stats[7] += 1
    chosen[d] = -1
    return DINF


@kernel(nogil=True)
def strategy_walk(matrix, n_codes, guesses, S1, S2, ident, d, first, scan_all, answer_of_guess, guess_of_answer, win,
                  cb, alpha, n_answers, short, tries, single_ids, single_meta, stats):
    """Play the heuristic strategy (_play) from the state (S1, S2, d), opening with `first` when
    >= 0 and scanning every guess there when scan_all. Returns its guess at the state (-1: it
    found none). stats[0]: the two-board part of the total (every unfinished pair pays each
    guess, plus the states of one or two pairs and the remainders of one or two answers), or 0
    when it fails; stats[1]: the pairs it fails (all of the state's, or none); the rest as _play
    says. The caller adds the exact single-board values of the remainders written."""
    cap = d + 1
    # a row holds every candidate of a state: all the guesses, or the shortlist plus both boards'
    # answers (which may repeat a shortlisted guess), whichever is longer
    width = max(guesses.size, short.size + 2 * n_answers)
    ws_lbs = np.empty((cap, width), np.int64)
    ws_scores = np.empty((cap, width), np.int64)
    ws_useless = np.empty((cap, width), np.bool_)
    ws_ests = np.empty((cap, width), np.float64)
    mark1 = np.zeros(n_answers, np.bool_)
    mark2 = np.zeros(n_answers, np.bool_)
    cnt = np.zeros(n_codes, np.int64)
    chosen = np.full(cap, -1, np.int64)
    value = _play(matrix, n_codes, guesses, short, S1, S2, ident, d, first, scan_all, answer_of_guess,
                  guess_of_answer, win, cb, alpha, n_answers, tries, ws_lbs, ws_scores, ws_useless, ws_ests, mark1,
                  mark2, cnt, chosen, single_ids, single_meta, stats)
    m = S1.size * (S1.size - 1) if ident else S1.size * S2.size
    if value >= DINF:
        stats[1] += m
        stats[4] = 0
        stats[5] = 0
        return -1
    stats[0] += value
    return chosen[d]
