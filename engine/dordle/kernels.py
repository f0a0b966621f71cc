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

from typing import NamedTuple

import numpy as np

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..jit import INF64, kernel


def _borrow(context, builder, ty, value):
    """`value` of type `ty` (an array, or a tuple of arrays and other values) with every array's
    meminfo and parent pointers null (as exact/kernels.py's, copied: jitted code stays in one
    module)."""
    if isinstance(ty, types.Array):
        array = context.make_array(ty)(context, builder, value=value)
        array.meminfo = cgutils.get_null_value(array.meminfo.type)
        array.parent = cgutils.get_null_value(array.parent.type)
        return array._getvalue()
    if isinstance(ty, types.BaseTuple):
        for i, member in enumerate(ty.types):
            value = builder.insert_value(value, _borrow(context, builder, member, builder.extract_value(value, i)), i)
    return value


@intrinsic
def _borrowed(typingctx, value):
    """`value` (an array, or a named tuple of arrays) without reference counts, so that numba's
    increfs and decrefs of its arrays and their views in the recursion are a null test, not an
    atomic add (exact/kernels.py's `_borrowed`, where the measurements are). Only for arrays
    that outlive every use of the result."""
    def codegen(context, builder, signature, args):
        return _borrow(context, builder, signature.args[0], args[0])
    return value(value), codegen


DINF = INF64  # the older name of "no strategy within the cap", for the tests and scripts that still import it


class Tables(NamedTuple):
    """A game's arrays that every kernel reads, made once per search (search.DordleSearch.tables).
    numba takes the tuple as one argument and reads its fields at no cost."""

    matrix: np.ndarray  # matrix[g, a]: the code guess g gives answer a (C order)
    n_codes: int  # the game's number of codes
    win: int  # the winning code
    guesses: np.ndarray  # every guess id, in order (int32)
    answer_of_guess: np.ndarray  # the answer id of each guess, -1 for a guess that is no answer (int32)
    guess_of_answer: np.ndarray  # the guess id of each answer (int32)
    cb: np.ndarray  # cb[d, c]: the single-board class bound of c answers with d guesses left (INF64: infeasible)


class Bounds(NamedTuple):
    """What guess_bounds writes for the i-th guess of its list (each array as long as the list)."""

    lbs: np.ndarray  # the counting bound of opening with it (int64)
    scores: np.ndarray  # the sum over its child states of their squared pair counts: the order to try (int64)
    useless: np.ndarray  # it leaves both boards in one class without solving either (bool)


class Rule(NamedTuple):
    """The heuristic strategy's parameters (heuristic.HeuristicStrategy)."""

    short: np.ndarray  # the shortlist: the guesses a state scans besides its own answers (int32)
    alpha: float  # the weight of the log-size charge in guess_estimates
    tries: int  # with four or more guesses left, the candidates of each list tried before backing off


class Walk(NamedTuple):
    """What a walk (strategy_walk) writes for its caller."""

    single_ids: np.ndarray  # the answers of the single-board remainders, one after another (int32)
    single_meta: np.ndarray  # a row per remainder: offset in single_ids, size, guesses left, multiplicity
    stats: np.ndarray  # the counters strategy_walk and _play list (int64, 8)


class Work(NamedTuple):
    """_play's scratch, made once per walk: a row per guesses-left count for the scan of a state
    at that depth and for the classes of the guess it tries, the marks of a state's answers, a
    count per code, and each depth's guess. A state at depth d writes only rows d, and its child
    states' answers are views of its class rows, read by the children (rows below d) in place."""

    lbs: np.ndarray
    scores: np.ndarray
    useless: np.ndarray
    ests: np.ndarray
    mark1: np.ndarray
    mark2: np.ndarray
    cnt: np.ndarray
    chosen: np.ndarray
    out1: np.ndarray  # out1[d]: board 1's answers sorted by class (_group), int32
    st1: np.ndarray  # st1[d]: where each class of board 1 starts, int64
    cd1: np.ndarray  # cd1[d]: each class's code, int64
    out2: np.ndarray  # the same for board 2
    st2: np.ndarray
    cd2: np.ndarray


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
def guess_bounds(t, guesses, S1, S2, ident, mark1, mark2, d, out):
    """For each guess g of `guesses` at the state (S1, S2, d), into `out` (Bounds): lbs[i], the
    counting bound on the cost of opening with g (bounds.guess_bound), scores[i], the sum over
    its child states of their squared pair counts (the order to try guesses in), and useless[i],
    whether g leaves both boards in one class without solving either (it stays useless below).

    t: the game's Tables; mark1[a] / mark2[a]: answer a is in S1 / S2."""
    matrix, n_codes, win, answer_of_guess, cb = t.matrix, t.n_codes, t.win, t.answer_of_guess, t.cb
    lbs, scores, useless = out.lbs, out.scores, out.useless
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
            child = INF64
        lb = m + single + child
        lbs[i] = lb if lb < INF64 else INF64
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
def prune_guesses(t, guesses, S1, S2, ident, in_union, drop_useless, drop_same):
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
    keeps a guess that could go. t: the game's Tables."""
    matrix, n_codes, answer_of_guess = t.matrix, t.n_codes, t.answer_of_guess
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


@kernel(nogil=True)
def node_bounds(t, guesses, S1, S2, ident, mark1, mark2, d, drop_useless, drop_same):
    """What search.DordleSearch.candidates asks at a node, in one call from Python: the guesses of
    `guesses` that prune_guesses keeps (with drop_useless or drop_same, when there are two or
    more; else all of them) and their guess_bounds. Returns (the kept guesses, their Bounds)."""
    G = guesses
    if (drop_useless or drop_same) and guesses.size > 1:
        in_union = mark1 if ident else mark1 | mark2
        G = guesses[prune_guesses(t, guesses, S1, S2, ident, in_union, drop_useless, drop_same)]
    n = G.size
    out = Bounds(np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.bool_))
    guess_bounds(t, G, S1, S2, ident, mark1, mark2, d, out)
    return G, out


# --- the heuristic strategy (heuristic.py) and the depth-2 bound (lower.py) ---

@kernel(nogil=True)
def _xlog(c):
    """c log2 c (0 for c <= 1)."""
    return c * np.log2(c) if c > 1 else 0.0


@kernel(nogil=True)
def guess_estimates(t, guesses, S1, S2, ident, mark1, mark2, d, alpha, out, ests):
    """guess_bounds into `out`, and ests[i]: the heuristic estimate of the cost of opening with
    guesses[i], lbs[i] + alpha * (the sum over child states of pairs * (log2 |C1| + log2 |C2|) +
    the sum over single-board classes of |C| log2 |C|). The counting bound is nearly exact on
    small children and blind to the size of large ones; the log term charges a child for what is
    still unknown. Only an ordering: no claim is made about it (INF64 when the bound is INF64)."""
    guess_bounds(t, guesses, S1, S2, ident, mark1, mark2, d, out)
    matrix, n_codes, win, lbs = t.matrix, t.n_codes, t.win, out.lbs
    cnt1 = np.zeros(n_codes, np.int64)
    cnt2 = np.zeros(n_codes, np.int64)
    for i in range(guesses.size):
        if lbs[i] >= INF64:
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
    bound is INF64."""
    best = -1
    for i in range(lbs.size):
        if lbs[i] >= INF64:
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
def _candidate(t, short, C, k):
    """The k-th guess of the scan order C's own answers, then `short`, then every guess."""
    if k < C.size:
        return t.guess_of_answer[C[k]]
    k -= C.size
    if k < short.size:
        return short[k]
    return t.guesses[k - short.size]


@kernel(nogil=True)
def single_feasible(t, short, C, d):
    """Whether V1(C, d) is finite: some single-board strategy finds every answer of C within d
    guesses. Exact: a yes names a tree (each class of the guess found feasible below it), and a no
    comes only after every guess was tried (the scan order, C's answers then `short` then all the
    guesses, only finds a yes sooner). c <= d: guessing the answers in turn fits; t.cb[d, c] =
    INF64 (the class bound) and d <= 1 with c >= 2 are infeasible."""
    c = C.size
    if c <= d:
        return True
    if d <= 1 or t.cb[d, c] >= INF64:
        return False
    matrix, n_codes = t.matrix, t.n_codes
    total = c + short.size + t.guesses.size
    stamp = np.zeros(n_codes, np.int64)
    if d == 2:
        # within two guesses: the first must leave every answer alone in its class
        for k in range(total):
            row = matrix[_candidate(t, short, C, k)]
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
        row = matrix[_candidate(t, short, C, k)]
        kk, _ = _group(row, C, t.win, n_codes, cnt, out, starts, codes)
        ok = True
        for j in range(kk):
            if starts[j + 1] - starts[j] > dl:
                sub = out[starts[j]:starts[j + 1]].copy()
                if not single_feasible(t, short, sub, dl):
                    ok = False
                    break
        if ok:
            return True
    return False


@kernel(nogil=True)
def _small_state(t, A, B, idt, d, chosen):
    """The value of a state of one or two pairs, as search.DordleSearch.shortcut proves it (INF64:
    none within d); its guess in chosen[d]."""
    guess_of_answer = t.guess_of_answer
    if idt:
        chosen[d] = guess_of_answer[A[0]]
        return 4
    if A.size == 1 and B.size == 1:
        chosen[d] = guess_of_answer[A[0]]
        return 2
    x = A[0] if A.size == 1 else B[0]
    Y = B if A.size == 1 else A
    g = guess_of_answer[x]
    if t.matrix[g, Y[0]] != t.matrix[g, Y[1]]:
        chosen[d] = g
        return 4
    if d >= 3:
        chosen[d] = g
        return 5
    return INF64


@kernel(nogil=True)
def _two_left(t, A, B, idt, m, d, cnt, chosen):
    """The value of a state of m pairs with two guesses left (INF64: none); its guess in chosen[d].
    Every pair must cost exactly 2: each contains the first guess, which then splits the other
    board into singletons; so one board has a single answer x, and the guess is x."""
    n1 = A.size
    nb = B.size
    if idt or (n1 > 1 and nb > 1):
        return INF64
    x = A[0] if n1 == 1 else B[0]
    Y = B if n1 == 1 else A
    g = t.guess_of_answer[x]
    row = t.matrix[g]
    cnt[:] = 0
    ok = True
    for y in Y:
        if cnt[row[y]] > 0:
            ok = False
        cnt[row[y]] += 1
    cnt[:] = 0
    if not ok:
        return INF64
    chosen[d] = g
    return 2 * m


@kernel(nogil=True)
def _phase_guesses(t, rule, A, B, idt, first, scan_all, phase):
    """The candidates of list `phase` (0 or 1) at the state (A, B) (idt: B is A), empty when the
    state has no such list: `first` alone when >= 0; every guess when scan_all; else the shortlist
    and the state's own answers, then every guess."""
    if first >= 0:
        G = np.empty(1 if phase == 0 else 0, np.int32)
        if phase == 0:
            G[0] = first
        return G
    if scan_all:
        return t.guesses if phase == 0 else np.empty(0, np.int32)
    if phase == 1:
        return t.guesses
    short = rule.short
    G = np.empty(short.size + A.size + (0 if idt else B.size), np.int32)
    G[:short.size] = short
    k = short.size
    for a in A:
        G[k] = t.guess_of_answer[a]
        k += 1
    if not idt:
        for a in B:
            G[k] = t.guess_of_answer[a]
            k += 1
    return G


@kernel(nogil=True)
def _scan(t, rule, w, G, A, B, idt, d, first, scan_all, phase, stats):
    """Scores the candidates G at the state (A, B, d) into w's rows d (guess_estimates) and
    returns the order to try them in: by counting bound at d = 3, by estimate above. A scan_all
    state (without `first`) records its least bound in stats[3]; in list 1 the guesses list 0
    tried (the shortlist and the state's answers) get the bound INF64, so they are not tried again."""
    kg = G.size
    out = Bounds(w.lbs[d][:kg], w.scores[d][:kg], w.useless[d][:kg])
    ests = w.ests[d][:kg]
    mark1, mark2 = w.mark1, w.mark2
    for a in A:
        mark1[a] = True
    for a in B:
        mark2[a] = True
    guess_estimates(t, G, A, B, idt, mark1, mark2, d, rule.alpha, out, ests)
    for a in A:
        mark1[a] = False
    for a in B:
        mark2[a] = False
    lbs = out.lbs
    if scan_all and first < 0:
        least = INF64
        for j in range(kg):
            if lbs[j] < least:
                least = lbs[j]
        stats[3] = least
    if phase == 1 and not scan_all:
        seen = np.zeros(t.guesses.size, np.bool_)
        for g in rule.short:
            seen[g] = True
        for a in A:
            seen[t.guess_of_answer[a]] = True
        for a in B:
            seen[t.guess_of_answer[a]] = True
        for j in range(kg):
            if seen[G[j]]:
                lbs[j] = INF64
    if d == 3:
        return np.argsort(lbs, kind="mergesort")
    return np.argsort(ests, kind="mergesort")


@kernel(nogil=True)
def _split(t, cnt, row, A, B, idt, out1, st1, cd1, out2, st2, cd2):
    """The non-winning classes of a guess (its codes `row`) on each board, sorted by _group into
    (out1, st1, cd1) and (out2, st2, cd2) (idt: board 2's are board 1's); (k1, hit1, k2, hit2),
    each board's class count and whether the guess solved it."""
    k1, hit1 = _group(row, A, t.win, t.n_codes, cnt, out1, st1, cd1)
    if idt:
        k2, hit2 = k1, hit1
        out2[:A.size] = out1[:A.size]
        st2[:k1 + 1] = st1[:k1 + 1]
    else:
        k2, hit2 = _group(row, B, t.win, t.n_codes, cnt, out2, st2, cd2)
    return k1, hit1, k2, hit2


@kernel(nogil=True)
def _remainders(t, rule, walk, idt, dl, k1, hit1, out1, st1, k2, hit2, out2, st2):
    """The single-board remainders of a guess (its classes from _split) with dl guesses left: board
    1 solved (hit1) leaves board 2's classes, and the other way round (at an ident state once,
    counted twice). Returns what they add to the total (a remainder of one answer 1, of two 3,
    times its multiplicity; larger ones are written to `walk` for the caller's exact values), or
    -1 when one is infeasible (single_feasible) or the buffers overflow (then stats[6] = 1)."""
    stats = walk.stats
    single_ids, single_meta = walk.single_ids, walk.single_meta
    short = rule.short
    mult = 2 if idt else 1
    added = 0
    for side in range(2):
        if (side == 0 and not hit1) or (side == 1 and (not hit2 or idt)):
            continue
        ko = k2 if side == 0 else k1
        so = st2 if side == 0 else st1
        oo = out2 if side == 0 else out1
        for q in range(ko):
            c = so[q + 1] - so[q]
            C = oo[so[q]:so[q + 1]]
            if not single_feasible(t, short, C, dl):
                return -1
            if c == 1:
                added += mult
            elif c == 2:
                added += 3 * mult
            else:
                r = stats[4]
                u = stats[5]
                if r >= single_meta.shape[0] or u + c > single_ids.size:
                    stats[6] = 1
                    return -1
                single_ids[u:u + c] = C
                single_meta[r, 0] = u
                single_meta[r, 1] = c
                single_meta[r, 2] = dl
                single_meta[r, 3] = mult
                stats[4] = r + 1
                stats[5] = u + c
    return added


_GO_ON = -2  # _settle: the state needs the candidate loop
_TRY, _PASS, _STOP = 0, 1, 2  # _next_step: try the candidate, pass over it, end its list


@kernel(nogil=True)
def _pairs(A, B, idt):
    """The number of ordered pairs of different answers of the state (A, B)."""
    return A.size * (A.size - 1) if idt else A.size * B.size


@kernel(nogil=True)
def _settle(t, w, stats, A, B, idt, m, d):
    """The value of a state that needs no candidate loop (no pair: 0; one guess or fewer left:
    INF64; one or two pairs: _small_state; two guesses left: _two_left), its guess in w.chosen[d];
    _GO_ON for any other state. Counts the state in stats[2] when it has a pair and two guesses."""
    w.chosen[d] = -1
    if m == 0:
        return 0
    if d <= 1:
        return INF64
    stats[2] += 1
    if m <= 2:
        return _small_state(t, A, B, idt, d, w.chosen)
    if d == 2:
        return _two_left(t, A, B, idt, m, d, w.cnt, w.chosen)
    return _GO_ON


@kernel(nogil=True)
def _next_step(lb, d, tried, tries):
    """What to do with the next candidate in order, of counting bound lb, after `tried` were
    tried: pass over a proven infeasible one (INF64), or end the list there when the order is by
    bound (d = 3, so the rest are infeasible too); with four or more guesses left, end the list
    after `tries`."""
    if lb >= INF64:
        return _STOP if d == 3 else _PASS
    if d >= 4 and tried >= tries:
        return _STOP
    return _TRY


@kernel(nogil=True)
def _back_off(stats, r0, u0):
    """Take back a rejected guess: the remainders it wrote (stats[4], stats[5] back to r0, u0),
    and count it in stats[7]."""
    stats[4] = r0
    stats[5] = u0
    stats[7] += 1


@kernel(nogil=True)
def _play(t, rule, w, walk, A, B, idt, d, first, scan_all):
    """The heuristic strategy's two-board total below the state (A, B, d) (B is A when idt), or INF64
    when it finds no way to finish every pair within d; its guess at the state in w.chosen[d].

    The guess: `first` if >= 0; otherwise the candidates in order (d >= 4: least estimate, see
    guess_estimates; d = 3: least counting bound, which at three guesses left is the exact cost
    of a feasible guess up to the single boards' own-answer term), each accepted only if every
    single-board remainder it leaves is feasible (single_feasible) and every child state's own
    play finishes; a rejected guess is backed off (its remainders are taken back). The candidates
    (_phase_guesses): every guess when scan_all, else the shortlist and the state's own answers,
    then (when they all fail) every other guess. Guesses whose counting bound is INF64 are proven
    infeasible and skipped. At d <= 3 every candidate is tried, so INF64 there means no strategy
    exists (d = 2: _two_left); at d >= 4 at most rule.tries of each list, so INF64 means only that
    this strategy gave up (the parent backs off).

    t: the game's Tables; rule: the strategy's Rule; w: the walk's Work; walk: its Walk, whose
    single_ids / single_meta (offset, size, guesses left, multiplicity) get the single-board
    remainders of three or more answers for the caller's exact values, and whose stats count: [2]
    states played (back-offs included), [3] the least counting bound at a scan_all state, [4]
    remainders written, [5] single_ids used, [6] 1 if a buffer overflowed, [7] guesses backed off.
    One self-recursive function (numba's cache mishandles mutual recursion); the recursive call
    passes variables, never literals."""
    m = _pairs(A, B, idt)
    stats = walk.stats
    settled = _settle(t, w, stats, A, B, idt, m, d)
    if settled != _GO_ON:
        return settled
    chosen = w.chosen
    dl = d - 1
    no_first = first - first - 1  # -1, as a variable
    below = scan_all and not scan_all  # False, as a variable
    out1, st1, cd1 = w.out1[d], w.st1[d], w.cd1[d]
    out2, st2, cd2 = w.out2[d], w.st2[d], w.cd2[d]
    lbs = w.lbs[d]
    for phase in range(2):
        G = _phase_guesses(t, rule, A, B, idt, first, scan_all, phase)
        kg = G.size
        if kg == 0:
            break
        order = _scan(t, rule, w, G, A, B, idt, d, first, scan_all, phase, stats)
        tried = 0
        for j in range(kg):
            i = order[j]
            step = _next_step(lbs[i], d, tried, rule.tries)
            if step == _STOP:
                break
            if step == _PASS:
                continue
            tried += 1
            h = G[i]
            r0 = stats[4]
            u0 = stats[5]
            k1, hit1, k2, hit2 = _split(t, w.cnt, t.matrix[h], A, B, idt, out1, st1, cd1, out2, st2, cd2)
            added = _remainders(t, rule, walk, idt, dl, k1, hit1, out1, st1, k2, hit2, out2, st2)
            if stats[6]:
                return INF64
            ok = added >= 0
            total = m + added
            # the child states
            for p in range(k1):
                if not ok:
                    break
                for q in range(k2):
                    cid = idt and p == q
                    C1 = out1[st1[p]:st1[p + 1]]
                    C2 = C1 if cid else out2[st2[q]:st2[q + 1]]
                    if _pairs(C1, C2, cid) == 0:
                        continue
                    v = _play(t, rule, w, walk, C1, C2, cid, dl, no_first, below)
                    if stats[6]:
                        return INF64
                    if v >= INF64:
                        ok = False
                        break
                    total += v
            if ok:
                chosen[d] = h
                return total
            _back_off(stats, r0, u0)
    chosen[d] = -1
    return INF64


@kernel(nogil=True)
def strategy_walk(t, rule, S1, S2, ident, d, first, scan_all, walk):
    """Play the heuristic strategy (_play, with the parameters `rule`) from the state (S1, S2, d),
    opening with `first` when >= 0 and scanning every guess there when scan_all. Returns its
    guess at the state (-1: it found none). walk.stats[0]: the two-board part of the total (every
    unfinished pair pays each guess, plus the states of one or two pairs and the remainders of one
    or two answers), or 0 when it fails; stats[1]: the pairs it fails (all of the state's, or
    none); the rest as _play says. The caller adds the exact single-board values of the
    remainders written."""
    cap = d + 1
    n_answers = t.guess_of_answer.size
    # a row holds every candidate of a state: all the guesses, or the shortlist plus both boards'
    # answers (which may repeat a shortlisted guess), whichever is longer
    width = max(t.guesses.size, rule.short.size + 2 * n_answers)
    nc = t.n_codes
    na = max(S1.size, S2.size)  # a class row holds a board's answers at the root, the most any state has
    w = Work(np.empty((cap, width), np.int64), np.empty((cap, width), np.int64), np.empty((cap, width), np.bool_),
             np.empty((cap, width), np.float64), np.zeros(n_answers, np.bool_), np.zeros(n_answers, np.bool_),
             np.zeros(nc, np.int64), np.full(cap, -1, np.int64),
             np.empty((cap, na), np.int32), np.empty((cap, nc + 1), np.int64), np.empty((cap, nc), np.int64),
             np.empty((cap, na), np.int32), np.empty((cap, nc + 1), np.int64), np.empty((cap, nc), np.int64))
    # every array borrowed: the caller holds t, rule, walk and the sets, and w lives on below
    value = _play(_borrowed(t), _borrowed(rule), _borrowed(w), _borrowed(walk), _borrowed(S1), _borrowed(S2), ident, d,
                  first, scan_all)
    stats = walk.stats
    m = S1.size * (S1.size - 1) if ident else S1.size * S2.size
    if value >= INF64:
        stats[1] += m
        stats[4] = 0
        stats[5] = 0
        return -1
    stats[0] += value
    return w.chosen[d]
