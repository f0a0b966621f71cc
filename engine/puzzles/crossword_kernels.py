"""Every numba kernel of the crossword filler, in one module (numba's disk cache does not see
edits across files): bitset domains, arc consistency (AC-3 on the crossing cells), and a
resumable MRV backtracking search with least-constraining-value ordering.

Domains: slot s may take word i of its length's list (sorted best score first) iff bit i of its
domain is set; a domain is `s_nw[s]` uint64 words at `dom[level, s_dom[s]:]`. Precomputed masks
`masks[s_mask[s] + (p * 26 + c) * s_nw[s]:][:nw]` have bit i set iff word i has letter c at p,
so a crossing check is a few AND operations. The common words of a length (those among the
score list's top 10,000) are a prefix of its list, so "common words only" is a prefix cut.

The search keeps one copy of the state per depth (domains, counts, cell letter sets, assigned
words) and stops after a node budget so that the Python driver can watch the clock and restart;
all its state lives in arrays, so a call resumes where the previous one stopped.
"""

from __future__ import annotations

import numpy as np


from llvmlite import ir
from ..jit import kernel
from numba import types
from numba.extending import intrinsic


FOUND, EXHAUSTED, PAUSED = 0, 1, 2
OP_INITIALIZE, OP_SEARCH = 0, 1
ALL_LETTERS = (1 << 26) - 1

# ctl slots: the scalar state of a search, kept in an int64 array so a call can resume it
C_DEPTH, C_NODES, C_STATUS, C_RNG, C_BEST_DEPTH, C_SOLUTIONS, C_BUDGET, C_PREFER_COMMON, C_NOISE_MILLI, C_STARTED = range(10)
CTL_SIZE = 10

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@intrinsic
def _popcount_u64(typingctx, x):
    """The CPU's population count (LLVM ctpop) of a uint64."""
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, args)
    return types.uint64(types.uint64), codegen


@intrinsic
def _trailing_zeros_u64(typingctx, x):
    """The index of the lowest set bit (LLVM cttz) of a non-zero uint64."""
    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])
    return types.uint64(types.uint64), codegen


@kernel
def _popcount(x):
    return np.int64(_popcount_u64(x))


@kernel
def _low_bit_index(x):
    return np.int64(_trailing_zeros_u64(x))


@kernel
def _next_random(ctl):
    """xorshift64*, its state in ctl so that a resumed search draws the same numbers."""
    x = np.uint64(ctl[C_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    ctl[C_RNG] = np.int64(x)
    return np.float64((x * np.uint64(2685821657736338717)) >> np.uint64(11)) / 9007199254740992.0


@kernel
def _count(dom, lv, off, hi):
    n = 0
    for w in range(hi):
        n += _popcount(dom[lv, off + w])
    return n


@kernel
def _supports(P, W, lv, s, sup):
    """sup[p] = the letters that some word still in slot s's domain has at position p: by
    walking the words when the domain is small, else by one mask test per candidate letter."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    dom, cnt, hi, cellset = W[0], W[1], W[2], W[3]
    L = s_len[s]
    off = s_dom[s]
    h = hi[lv, s]
    for p in range(L):
        sup[p] = 0
    if cnt[lv, s] <= 10 * h:  # walking the words is cheaper than 26 mask scans per position
        for w in range(h):
            x = dom[lv, off + w]
            while x != _ZERO:
                i = w * 64 + _low_bit_index(x)
                x &= x - _ONE
                base = s_let[s] + i * L
                for p in range(L):
                    sup[p] |= 1 << letters[base + p]
    else:
        nw = s_nw[s]
        for p in range(L):
            cur = cellset[lv, s_cells[s, p]]
            for c in range(26):
                if (cur >> c) & 1:
                    mb = s_mask[s] + (p * 26 + c) * nw
                    for w in range(h):
                        if dom[lv, off + w] & masks[mb + w]:
                            sup[p] |= 1 << c
                            break


@kernel
def _remove_letters(P, W, lv, t, pt, removed):
    """Drop from slot t's domain every word with a letter of `removed` at position pt; returns
    True when the domain changed."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    dom, cnt, hi, cellset = W[0], W[1], W[2], W[3]
    off = s_dom[t]
    h = hi[lv, t]
    L = s_len[t]
    before = cnt[lv, t]
    n = 0
    last = 0
    if before <= 8 * h:
        for w in range(h):
            x = dom[lv, off + w]
            y = x
            while x != _ZERO:
                b = _low_bit_index(x)
                x &= x - _ONE
                i = w * 64 + b
                if (removed >> letters[s_let[t] + i * L + pt]) & 1:
                    y &= ~(_ONE << np.uint64(b))
            dom[lv, off + w] = y
            if y != _ZERO:
                n += _popcount(y)
                last = w + 1
    else:
        nw = s_nw[t]
        kept = cellset[lv, s_cells[t, pt]] & ~removed  # OR whichever letter set is smaller
        n_kept = 0
        n_removed = 0
        for c in range(26):
            n_kept += (kept >> c) & 1
            n_removed += (removed >> c) & 1
        use = kept if n_kept < n_removed else removed
        for w in range(h):
            acc = _ZERO
            for c in range(26):
                if (use >> c) & 1:
                    acc |= masks[s_mask[t] + (pt * 26 + c) * nw + w]
            y = dom[lv, off + w] & (acc if n_kept < n_removed else ~acc)
            dom[lv, off + w] = y
            if y != _ZERO:
                n += _popcount(y)
                last = w + 1
    cnt[lv, t] = n
    hi[lv, t] = last  # the words past the last non-empty one need no more scans
    return n != before


@kernel
def _propagate(P, W, lv, queue, qhead, qtail, inq, sup):
    """AC-3 over the crossing cells: pop a slot, recompute which letters its domain still allows
    at each cell, and filter the crossing slot of every cell that lost letters. Returns False
    on a wipe-out (the queue is then cleared)."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    cnt, cellset = W[1], W[3]
    n_slots = s_len.shape[0]
    ok = True
    while qhead != qtail:
        s = queue[qhead % n_slots]
        qhead += 1
        inq[s] = False
        if not ok:
            continue
        _supports(P, W, lv, s, sup)
        for p in range(s_len[s]):
            cell = s_cells[s, p]
            cur = cellset[lv, cell]
            new = cur & sup[p]
            if new == cur:
                continue
            if new == 0:
                ok = False
                break
            cellset[lv, cell] = new
            for k in range(2):
                t = c_slot[cell, k]
                if t < 0 or t == s:
                    continue
                if _remove_letters(P, W, lv, t, c_pos[cell, k], cur & ~new):
                    if cnt[lv, t] == 0:
                        ok = False
                        break
                    if not inq[t]:
                        queue[qtail % n_slots] = t
                        qtail += 1
                        inq[t] = True
            if not ok:
                break
    return ok


@kernel
def _push(queue, qtail, inq, s, n_slots):
    if not inq[s]:
        queue[qtail % n_slots] = s
        inq[s] = True
        return qtail + 1
    return qtail


@kernel
def _common_count(P, W, lv, s):
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    dom = W[0]
    off = s_dom[s]
    full = s_common[s] // 64
    n = 0
    for w in range(min(full, W[2][lv, s])):
        n += _popcount(dom[lv, off + w])
    rest = s_common[s] - full * 64
    if rest > 0 and full < W[2][lv, s]:
        n += _popcount(dom[lv, off + full] & ((_ONE << np.uint64(rest)) - _ONE))
    return n


@kernel
def _enforce_budget(P, W, lv, budget, queue, inq, sup):
    """At most `budget` slots may hold a word outside the common prefix. Counts the slots that
    already do or must (no common word left); at the limit, cuts every other open slot down to
    its common words and propagates again. False when the budget cannot be met."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    dom, cnt, hi, word_at = W[0], W[1], W[2], W[4]
    n_slots = s_len.shape[0]
    while True:
        used = 0
        for s in range(n_slots):
            if word_at[lv, s] >= 0:
                if word_at[lv, s] >= s_common[s]:
                    used += 1
            elif _common_count(P, W, lv, s) == 0:
                used += 1
        if used > budget:
            return False
        if used < budget:
            return True
        qtail = 0
        for s in range(n_slots):
            if word_at[lv, s] >= 0 or cnt[lv, s] == 0:
                continue
            kept = _common_count(P, W, lv, s)
            if kept == 0 or kept == cnt[lv, s]:
                continue
            off = s_dom[s]
            full = s_common[s] // 64
            rest = s_common[s] - full * 64
            h = hi[lv, s]
            if rest > 0:
                dom[lv, off + full] &= (_ONE << np.uint64(rest)) - _ONE
                full += 1
            for w in range(full, h):
                dom[lv, off + w] = _ZERO
            hi[lv, s] = min(full, h)
            cnt[lv, s] = kept
            qtail = _push(queue, qtail, inq, s, n_slots)
        if qtail == 0:
            return True
        if not _propagate(P, W, lv, queue, 0, qtail, inq, sup):
            return False


@kernel
def _copy_level(W, src, dst):
    W[0][dst, :] = W[0][src, :]
    W[1][dst, :] = W[1][src, :]
    W[2][dst, :] = W[2][src, :]
    W[3][dst, :] = W[3][src, :]
    W[4][dst, :] = W[4][src, :]


@kernel
def _initialize(P, W, fixed_letters, budget, queue, inq, sup):
    """Level 0 from the full domains: keep the pre-filled letters (node consistency), then AC-3
    and the budget. False when that alone proves the grid impossible."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    cnt, cellset = W[1], W[3]
    n_slots = s_len.shape[0]
    qtail = 0
    for cell in range(cellset.shape[1]):
        cellset[0, cell] = fixed_letters[cell]
    for s in range(n_slots):
        for p in range(s_len[s]):
            cur = cellset[0, s_cells[s, p]]
            if cur != ALL_LETTERS:
                _remove_letters(P, W, 0, s, p, ALL_LETTERS & ~cur)
        if cnt[0, s] == 0:
            return False
        qtail = _push(queue, qtail, inq, s, n_slots)
    if not _propagate(P, W, 0, queue, 0, qtail, inq, sup):
        return False
    return _enforce_budget(P, W, 0, budget, queue, inq, sup)


@kernel
def _select_slot(P, W, lv, prefer_common):
    """Fewest remaining words first (when preferring common words: fewest common words, then
    fewest words); ties go to the slot with most crossings."""
    s_len, s_degree = P[2], P[10]
    cnt, word_at = W[1], W[4]
    best = -1
    best_common = 0
    for s in range(s_len.shape[0]):
        if word_at[lv, s] >= 0:
            continue
        common = _common_count(P, W, lv, s) if prefer_common else 0
        if best < 0:
            better = True
        elif common != best_common:
            better = common < best_common
        elif cnt[lv, s] != cnt[lv, best]:
            better = cnt[lv, s] < cnt[lv, best]
        else:
            better = s_degree[s] > s_degree[best]
        if better:
            best = s
            best_common = common
    return best


@kernel
def _letter_counts(P, W, lv, t, pt, limit, out):
    """out[c] = how many words i < limit of slot t's domain have letter c at position pt."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    dom, cnt, hi, cellset = W[0], W[1], W[2], W[3]
    for c in range(26):
        out[c] = 0
    off = s_dom[t]
    full = limit // 64
    rest = limit - full * 64
    h = min(hi[lv, t], full + (1 if rest > 0 else 0))
    L = s_len[t]
    if cnt[lv, t] <= 16 * h:
        for w in range(h):
            x = dom[lv, off + w]
            if w == full:
                x &= (_ONE << np.uint64(rest)) - _ONE
            while x != _ZERO:
                i = w * 64 + _low_bit_index(x)
                x &= x - _ONE
                out[letters[s_let[t] + i * L + pt]] += 1
    else:
        nw = s_nw[t]
        cur = cellset[lv, s_cells[t, pt]]
        for c in range(26):
            if (cur >> c) & 1:
                mb = s_mask[t] + (pt * 26 + c) * nw
                n = 0
                for w in range(h):
                    x = dom[lv, off + w] & masks[mb + w]
                    if w == full:
                        x &= (_ONE << np.uint64(rest)) - _ONE
                    n += _popcount(x)
                out[c] = n


@kernel
def _order_candidates(P, W, lv, s, depth, ctl, scores, cand, ncand, keys, counts, logs):
    """The words of slot s, the least constraining first: a word's key sums over its crossings
    log(1 + words left in the crossing slot with its letter there), plus seeded noise. When
    preferring common words, every common word comes first and the crossing counts that matter
    most are of common words."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    dom, hi, word_at = W[0], W[2], W[4]
    L = s_len[s]
    prefer_common = ctl[C_PREFER_COMMON] != 0
    for p in range(L):
        for c in range(26):
            logs[p, c] = 0.0
        cell = s_cells[s, p]
        for k in range(2):
            t = c_slot[cell, k]
            if t >= 0 and t != s and word_at[lv, t] < 0:
                _letter_counts(P, W, lv, t, c_pos[cell, k], s_n[t], counts[0])
                if prefer_common:
                    _letter_counts(P, W, lv, t, c_pos[cell, k], s_common[t], counts[1])
                for c in range(26):
                    logs[p, c] = np.log(counts[0, c] + 1.0)
                    if prefer_common:
                        logs[p, c] = 0.25 * logs[p, c] + np.log(counts[1, c] + 1.0)
    noise = ctl[C_NOISE_MILLI] / 1000.0
    n = 0
    off = s_dom[s]
    for w in range(hi[lv, s]):
        x = dom[lv, off + w]
        while x != _ZERO:
            i = w * 64 + _low_bit_index(x)
            x &= x - _ONE
            key = 0.0
            base = s_let[s] + i * L
            for p in range(L):
                key += logs[p, letters[base + p]]
            if noise > 0.0:
                key += noise * _next_random(ctl)
            if prefer_common:
                if i < s_common[s]:
                    key += 1000.0
                key += 0.01 * scores[s_word0[s] + i]
            cand[depth, n] = i
            keys[n] = -key
            n += 1
    order = np.argsort(keys[:n], kind="mergesort")
    tmp = cand[depth, :n].copy()
    for j in range(n):
        cand[depth, j] = tmp[order[j]]
    ncand[depth] = n


@kernel
def _search(P, W, S, ctl, scores, node_limit, solutions, best_partial):
    """Run the backtracking for at most `node_limit` more nodes from the state in W/S/ctl
    (level 0 set up by `_initialize`). Each solution found is written to `solutions`; the search
    stops FOUND when that array is full, EXHAUSTED when the whole tree has been seen, or PAUSED
    at the node limit (call again to resume). `best_partial` keeps the deepest assignment."""
    masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells, s_degree, c_slot, c_pos, s_word0 = P
    dom, cnt, hi, word_at = W[0], W[1], W[2], W[4]
    cand, ncand, next_idx, slot_at, queue, inq, sup, keys, counts, logs = S
    n_slots = s_len.shape[0]
    budget = ctl[C_BUDGET]
    stop_nodes = ctl[C_NODES] + node_limit
    if ctl[C_STARTED] == 0:
        ctl[C_STARTED] = 1
        ctl[C_DEPTH] = 0
        s = _select_slot(P, W, 0, ctl[C_PREFER_COMMON] != 0)
        if s < 0:
            solutions[0, :] = word_at[0, :]
            ctl[C_SOLUTIONS] = 1
            ctl[C_STATUS] = FOUND
            return FOUND
        slot_at[0] = s
        _order_candidates(P, W, 0, s, 0, ctl, scores, cand, ncand, keys, counts, logs)
        next_idx[0] = 0
    depth = ctl[C_DEPTH]
    status = EXHAUSTED
    while depth >= 0:
        if ctl[C_NODES] >= stop_nodes:
            status = PAUSED
            break
        if next_idx[depth] >= ncand[depth]:
            depth -= 1
            continue
        s = slot_at[depth]
        w = cand[depth, next_idx[depth]]
        next_idx[depth] += 1
        ctl[C_NODES] += 1
        lv = depth + 1
        _copy_level(W, depth, lv)
        off = s_dom[s]
        for k in range(hi[lv, s]):
            dom[lv, off + k] = _ZERO
        dom[lv, off + w // 64] = _ONE << np.uint64(w % 64)
        cnt[lv, s] = 1
        word_at[lv, s] = w
        qtail = _push(queue, 0, inq, s, n_slots)
        ok = True
        for u in range(n_slots):  # no word twice: drop w from the other slots of this length
            if u == s or s_len[u] != s_len[s] or word_at[lv, u] >= 0 or w // 64 >= hi[lv, u]:
                continue
            bit = _ONE << np.uint64(w % 64)
            if dom[lv, s_dom[u] + w // 64] & bit:
                dom[lv, s_dom[u] + w // 64] &= ~bit
                cnt[lv, u] -= 1
                if cnt[lv, u] == 0:
                    ok = False
                    break
                qtail = _push(queue, qtail, inq, u, n_slots)
        if not ok:
            for u in range(n_slots):
                inq[u] = False
            continue
        if not _propagate(P, W, lv, queue, 0, qtail, inq, sup):
            continue
        if budget < n_slots and not _enforce_budget(P, W, lv, budget, queue, inq, sup):
            continue
        if lv > ctl[C_BEST_DEPTH]:
            ctl[C_BEST_DEPTH] = lv
            best_partial[:] = word_at[lv, :]
        nxt = _select_slot(P, W, lv, ctl[C_PREFER_COMMON] != 0)
        if nxt < 0:
            solutions[ctl[C_SOLUTIONS], :] = word_at[lv, :]
            ctl[C_SOLUTIONS] += 1
            if ctl[C_SOLUTIONS] >= solutions.shape[0]:
                status = FOUND
                break
            continue
        depth = lv
        slot_at[depth] = nxt
        _order_candidates(P, W, depth, nxt, depth, ctl, scores, cand, ncand, keys, counts, logs)
        next_idx[depth] = 0
    ctl[C_DEPTH] = depth
    ctl[C_STATUS] = status
    return status


@kernel
def run_kernel(op, P, W, S, ctl, scores, fixed_letters, node_limit, solutions, best_partial):
    """The one entry point (a fresh process loads one cached function, not two):
    OP_INITIALIZE sets up level 0 under ctl's budget and returns FOUND when it holds, EXHAUSTED
    when propagation alone proves it cannot; OP_SEARCH runs `_search`."""
    if op == OP_INITIALIZE:
        queue, inq, sup = S[4], S[5], S[6]
        if _initialize(P, W, fixed_letters, ctl[C_BUDGET], queue, inq, sup):
            return FOUND
        return EXHAUSTED
    return _search(P, W, S, ctl, scores, node_limit, solutions, best_partial)
