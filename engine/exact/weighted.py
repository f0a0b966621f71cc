"""The weighted exact search (normal mode): answers of unequal weight, the weighted total minimised.

With an integer weight w(a) >= 1 for every answer, a tree's cost is the sum over the answers of
w(a) times the guesses a takes, and with d guesses left

    value(S, d) = min over guesses g of W(S) + sum over the non-winning classes C of g on S of value(C, d - 1)

where W(S) is the weight of S (the guess counts once for every answer still in S; an answer equal
to g is done), value({a}, d >= 1) = w(a) and value(S, 0) = infinity. With all weights 1 this is
the unweighted V of kernels.py, which stays the search of every unweighted command: this module
is used only where a weights file is given. Its jitted functions call only each other and live
here together (numba's cache does not see edits to another file). The slow twin the tests hold it
to is tests/reference_weighted.py.

`_solve` is a memoized depth-first branch and bound: asked for value(S, d) below a budget beta,
it returns the exact value when that is below beta, else a proven lower bound >= beta. Each rule
below has a switch (USE_*) so the tests can turn it off and check that no value changes.

- node bound (USE_NODE_BOUND): a set of n >= 2 answers needs d >= 2, and costs at least
  2 W(S) - max w: every answer pays the first guess, and every answer but the one that guess may
  be pays a second one; the answer spared is at best the heaviest.
- depth profile (USE_PROFILE): a guess splits S into at most b + 1 classes (b: the game's
  non-winning codes), so at most 1 answer is solved by the first guess, at most b by the second,
  b**2 by the third ..., b**(j-1) by the j-th (each is the one solved at the root of its class
  at the level above). Sorting the weights from the heaviest, giving the first 1 of them depth 1,
  the next b depth 2, and so on, is the least any tree can pay (the rearrangement inequality:
  larger weights at smaller depths); past 1 + b + ... + b**(d-1) answers no tree exists. It
  matters only for sets of more than b + 1 answers (Mastermind, Bulls and Cows, huge Wordle
  classes), where it is the node bound's tighter form.
- guess bound (USE_CLASS_BOUND): a guess g costs at least W(S) plus, over its non-winning
  classes C, the bound of C with d - 1 left (w of a singleton; infinity for 2 or more with 1
  left; else the node bound of C). Guesses are tried from the least bound, and once a guess's
  bound reaches the best cost found it cannot improve it, nor can any later one.
- budgets: each class below a guess is asked for its value below what would still let the guess
  beat the best so far (the best minus the others' bounds and the values found); a class that
  answers >= its budget makes the guess lose, and the sum reached so far is a proven bound of it.
- useless guesses (USE_FILTER): a guess outside S that leaves S in one class only wastes a turn;
  it stays useless on every subset of S, so the children inherit the kept guesses.
- identical partitions (USE_DEDUPE): two guesses that cut S into the same classes, with the same
  answer (or none) solved at once, cost the same at this node and split every subset of S alike:
  one representative (the first in list order) is kept. Partitions are matched by a hash of the
  relabelled codes and then compared answer by answer, so a collision only keeps both.
- shortcut: a guess that is the heaviest answer and splits the rest into singletons costs the
  node bound exactly: it is optimal at once.
- memo (USE_MEMO): a value or a lower bound per (S, d), keyed by the set itself (a 64-bit hash to
  find the slot, then the set compared element by element: a collision never returns another
  set's value); the guesses a node may use never change its value (the filtered ones are useless
  or equivalent), so the key needs no guess list. A full table is emptied and refilled.
"""

from __future__ import annotations

import numpy as np

from ..jit import INF64, kernel

INF = INF64

USE_NODE_BOUND = 1
USE_PROFILE = 2
USE_CLASS_BOUND = 4
USE_FILTER = 8
USE_DEDUPE = 16
USE_MEMO = 32
USE_SHORTCUT = 64
ALL_RULES = USE_NODE_BOUND | USE_PROFILE | USE_CLASS_BOUND | USE_FILTER | USE_DEDUPE | USE_MEMO | USE_SHORTCUT
HARD = 128  # not a pruning rule: the NYT hard-mode constraint on guesses (set by mode="hard")

# counters / stats slots
C_ENTRIES, C_POOL, C_NODES, C_HITS, C_CLEARS, C_EPOCH = 0, 1, 2, 3, 4, 5


@kernel(nogil=True)
def _profile_bound(S, weights, d, b):
    """The least weighted total of S within d guesses when a guess makes at most b non-winning
    classes: the weights from the heaviest, 1 at depth 1, b at depth 2, b**2 at depth 3 ...;
    INF past what d guesses can solve."""
    n = S.size
    ws = np.empty(n, np.int64)
    for i in range(n):
        ws[i] = weights[S[i]]
    ws = np.sort(ws)[::-1]
    total = np.int64(0)
    i = 0
    width = np.int64(1)
    depth = 1
    while i < n:
        if depth > d:
            return INF
        j = 0
        while j < width and i < n:
            total += ws[i] * depth
            i += 1
            j += 1
        depth += 1
        width = width * b
        if width > n:
            width = n
    return total


@kernel(nogil=True)
def _set_bound(S, weights, d, b, rules):
    """A proven lower bound of value(S, d) (the node bound, its profile form where it applies)."""
    n = S.size
    if d <= 0:
        return INF
    W = np.int64(0)
    top = np.int64(0)
    for i in range(n):
        w = weights[S[i]]
        W += w
        if w > top:
            top = w
    if n == 1:
        return W
    if d == 1:
        return INF
    if rules & USE_PROFILE and n > b + 1:
        return _profile_bound(S, weights, d, b)
    if rules & USE_NODE_BOUND:
        return 2 * W - top
    return W


@kernel(nogil=True)
def _class_bound(n, W, top, d, b, rules):
    """The bound of a class of n answers, weight W, heaviest top, with d guesses left, from its
    figures alone (the profile form needs the weights: _scan falls back to the node bound, which
    it implies, for the few classes past b + 1 answers)."""
    if d <= 0:
        return INF
    if n == 1:
        return W
    if d == 1:
        return INF
    if rules & USE_CLASS_BOUND:
        if rules & USE_PROFILE and d == 2 and n > 1 + b:
            return INF  # 2 guesses solve at most 1 + b answers
        return 2 * W - top
    return W


@kernel(nogil=True)
def _set_hash(S, d, req, set_keys, depth_keys):
    h = depth_keys[d]
    for a in S:
        h ^= set_keys[a]
    for j in range(req.size):  # hard mode: the constraint is part of the position
        h ^= np.uint64(req[j] + 2) * set_keys[j % set_keys.size] * np.uint64(2 * j + 1)
    return h | np.uint64(1)


@kernel(nogil=True)
def _memo_find(S, d, req, h, mkeys, mdepth, moff, msize, pool):
    mask = mkeys.size - 1
    slot = np.int64(h & np.uint64(mask))
    n = S.size
    while mkeys[slot] != 0:
        if mkeys[slot] == h and mdepth[slot] == d and msize[slot] == n:
            off = moff[slot]
            same = True
            for i in range(n):
                if pool[off + i] != S[i]:
                    same = False
                    break
            for j in range(req.size):
                if not same:
                    break
                if pool[off + n + j] != req[j]:
                    same = False
            if same:
                return slot
        slot = (slot + 1) & mask
    return -1 - slot  # the empty slot where it would go


@kernel(nogil=True)
def _memo_store(S, d, req, value, exact, guess, set_keys, depth_keys, mkeys, mdepth, moff, msize, mval, mexact,
                mguess, pool, counters):
    """Record value(S, d) (exact) or a lower bound of it; a full table is emptied first."""
    h = _set_hash(S, d, req, set_keys, depth_keys)
    found = _memo_find(S, d, req, h, mkeys, mdepth, moff, msize, pool)
    if found >= 0:
        if mexact[found] == 1:
            return
        if exact or value > mval[found]:
            mval[found] = value
            mexact[found] = 1 if exact else 0
            mguess[found] = guess
        return
    n = S.size
    r = req.size
    if counters[C_ENTRIES] * 10 >= mkeys.size * 7 or counters[C_POOL] + n + r > pool.size:
        if n + r > pool.size:
            return
        mkeys[:] = 0
        counters[C_ENTRIES] = 0
        counters[C_POOL] = 0
        counters[C_CLEARS] += 1
        found = _memo_find(S, d, req, h, mkeys, mdepth, moff, msize, pool)
    slot = -1 - found
    off = counters[C_POOL]
    for i in range(n):
        pool[off + i] = S[i]
    for j in range(r):
        pool[off + n + j] = req[j]
    counters[C_POOL] += n + r
    counters[C_ENTRIES] += 1
    mdepth[slot] = d
    moff[slot] = off
    msize[slot] = n
    mval[slot] = value
    mexact[slot] = 1 if exact else 0
    mguess[slot] = guess
    mkeys[slot] = h


@kernel(nogil=True)
def _scan(S, guesses, d, weights, matrix, win, b, rules, stamp, cnt, wsum, wmax, label, pkeys, counters,
          dedupe_keys, dedupe_rows, own):
    """Every guess of `guesses` that is worth trying on S with d guesses left, and its guess
    bound, sorted by bound (stable: list order among equal bounds). Returns (kept, bounds,
    shortcut): shortcut >= 0 is a guess whose cost is the node bound itself (optimal at once)."""
    n = S.size
    G = guesses.size
    W = np.int64(0)
    top = np.int64(0)
    heavy = -1
    for i in range(n):
        w = weights[S[i]]
        W += w
        if w > top:
            top = w
            heavy = S[i]
    kept = np.empty(G, np.int32)
    lbs = np.empty(G, np.int64)
    k = 0
    slots = dedupe_keys.size
    mask = slots - 1
    counters[C_EPOCH] += 1
    dedupe_epoch = counters[C_EPOCH]
    for gi in range(G):
        g = guesses[gi]
        counters[C_EPOCH] += 1
        epoch = counters[C_EPOCH]
        classes = 0
        h = np.uint64(0)
        for i in range(n):
            c = matrix[g, S[i]]
            if stamp[c] != epoch:
                stamp[c] = epoch
                cnt[c] = 0
                wsum[c] = 0
                wmax[c] = 0
                label[c] = classes + 1
                classes += 1
            cnt[c] += 1
            w = weights[S[i]]
            wsum[c] += w
            if w > wmax[c]:
                wmax[c] = w
            lab = np.uint64(label[c])
            if c == win:
                lab = np.uint64(1 << 20)
            h += pkeys[i] * lab
        if classes == 1 and matrix[g, S[0]] != win and rules & USE_FILTER:
            continue
        # the guess bound
        bound = W
        singletons = True
        # walk the classes once: each code's first answer
        counters[C_EPOCH] += 1
        seen = counters[C_EPOCH]
        for i in range(n):
            c = matrix[g, S[i]]
            if stamp[c] == seen:
                continue
            stamp[c] = seen
            if c == win:
                continue
            if cnt[c] > 1:
                singletons = False
            bound += _class_bound(cnt[c], wsum[c], wmax[c], d - 1, b, rules)
            if bound > INF:
                bound = INF
        if rules & USE_SHORTCUT and singletons and own[heavy] == g:
            kept[0] = g
            lbs[0] = bound
            return kept[:1], lbs[:1], g
        if rules & USE_DEDUPE:
            slot = np.int64(h & np.uint64(mask))
            duplicate = False
            while dedupe_keys[slot] == dedupe_epoch:
                other = dedupe_rows[slot]
                if _same_partition(S, g, other, matrix, win, stamp.size):
                    duplicate = True
                    break
                slot = (slot + 1) & mask
            if duplicate:
                continue
            dedupe_keys[slot] = dedupe_epoch
            dedupe_rows[slot] = g
        kept[k] = g
        lbs[k] = bound
        k += 1
    order = np.argsort(lbs[:k], kind="mergesort")
    return kept[:k][order], lbs[:k][order], -1


@kernel(nogil=True)
def _same_partition(S, g, h, matrix, win, codes):
    """Whether guesses g and h cut S into the same classes with the same answer solved at once:
    their codes on S are the same up to a relabelling that maps the win code to itself."""
    n = S.size
    fwd = np.full(codes, -1, np.int32)
    back = np.full(codes, -1, np.int32)
    for i in range(n):
        a = np.int32(matrix[g, S[i]])
        c = np.int32(matrix[h, S[i]])
        if (a == win) != (c == win):
            return False
        if fwd[a] == -1 and back[c] == -1:
            fwd[a] = c
            back[c] = a
        elif fwd[a] != c or back[c] != a:
            return False
    return True


@kernel(nogil=True)
def _split(S, g, matrix, win, stamp, cnt, counters):
    """The non-winning classes of g on S: (members in S's order, starts, sizes), classes in
    order of first appearance."""
    n = S.size
    counters[C_EPOCH] += 1
    epoch = counters[C_EPOCH]
    codes = np.empty(n, np.int64)
    k = 0
    first = np.empty(n, np.int64)
    for i in range(n):
        c = matrix[g, S[i]]
        codes[i] = c
        if stamp[c] != epoch:
            stamp[c] = epoch
            cnt[c] = 0
            if c != win:
                first[k] = c
                k += 1
        cnt[c] += 1
    starts = np.empty(k + 1, np.int64)
    starts[0] = 0
    for j in range(k):
        starts[j + 1] = starts[j] + cnt[first[j]]
    # cnt becomes each code's next write position
    for j in range(k):
        cnt[first[j]] = starts[j]
    members = np.empty(starts[k], np.int32)
    for i in range(n):
        c = codes[i]
        if c == win:
            continue
        members[cnt[c]] = S[i]
        cnt[c] += 1
    return members, starts, first[:k]


@kernel(nogil=True)
def _constrain(req, word, code, length):
    """Hard mode: the constraint after a guess (its letter numbers `word`) got `code`: req[i] for
    i < length the green letter at position i (-1: none), req[length + x] the copies of letter x
    every later guess must hold (its green and yellow copies in one feedback; greys add nothing).
    Position i's colour is the code's i-th base-3 digit (2 green, 1 yellow), as the matrix's."""
    out = req.copy()
    shown = np.zeros(req.size - length, np.int32)
    c = code
    for i in range(length):
        colour = c % 3
        c //= 3
        if colour == 2:
            out[i] = word[i]
        if colour != 0:
            shown[word[i]] += 1
    for x in range(shown.size):
        if shown[x] > out[length + x]:
            out[length + x] = shown[x]
    return out


@kernel(nogil=True)
def _legal_subset(guesses, req, letters, counts, length):
    """The guesses of `guesses` that hard mode allows under req (in their order)."""
    out = np.empty(guesses.size, np.int32)
    k = 0
    for gi in range(guesses.size):
        g = guesses[gi]
        ok = True
        for i in range(length):
            if req[i] >= 0 and letters[g, i] != req[i]:
                ok = False
                break
        if ok:
            for x in range(req.size - length):
                if counts[g, x] < req[length + x]:
                    ok = False
                    break
        if ok:
            out[k] = g
            k += 1
    return out[:k]


@kernel(nogil=True)
def _solve(S, guesses, d, beta, forced, req, weights, matrix, win, b, rules, stamp, cnt, wsum, wmax, label, pkeys,
           counters, dedupe_keys, dedupe_rows, own, set_keys, depth_keys, mkeys, mdepth, moff, msize, mval, mexact,
           mguess, pool, letters, counts, length):
    """(value, best guess) of S (sorted answer ids) with d guesses left: the value exact when
    below beta (the guess then one achieving it), else a proven lower bound >= beta (guess -1).
    With `forced` >= 0, the cost of that guess alone (its children searched as usual; nothing
    recorded for S). Hard mode (rules & HARD): `guesses` are those req allows, and each class's
    guesses are those its own constraint allows."""
    counters[C_NODES] += 1
    n = S.size
    none = np.int32(-1)
    unforced = d - d - 1  # forced's type (int64) and not a literal: numba issue 6061 (a cached recursion)
    if d <= 0:
        return INF, none
    if forced < 0:
        if n == 1:
            return weights[S[0]], own[S[0]]
        if d == 1:
            return INF, none
        if n == 2:
            heavy = S[0] if weights[S[0]] >= weights[S[1]] else S[1]
            light = S[1] if heavy == S[0] else S[0]
            return weights[heavy] + 2 * weights[light], own[heavy]
    lower = _set_bound(S, weights, d, b, rules)
    if lower >= beta and forced < 0:
        return lower, none
    h = np.uint64(0)
    if rules & USE_MEMO and forced < 0:
        h = _set_hash(S, d, req, set_keys, depth_keys)
        found = _memo_find(S, d, req, h, mkeys, mdepth, moff, msize, pool)
        if found >= 0:
            counters[C_HITS] += 1
            if mexact[found] == 1:
                if mval[found] < beta:
                    return mval[found], mguess[found]
                return mval[found], none
            if mval[found] >= beta:
                return mval[found], none
            if mval[found] > lower:
                lower = mval[found]
    kept, lbs, shortcut = _scan(S, guesses, d, weights, matrix, win, b, rules, stamp, cnt, wsum, wmax, label,
                                pkeys, counters, dedupe_keys, dedupe_rows, own)
    if forced >= 0:
        trying = np.full(1, forced, np.int32)
        if shortcut >= 0:  # (the scan stopped at the shortcut: the children may use every guess)
            kept = guesses
    else:
        trying = kept
    W = np.int64(0)
    for a in S:
        W += weights[a]
    best = beta
    best_g = none
    proven = INF  # the least proven bound of the guesses that lost
    for i in range(trying.size):
        if forced < 0 and lbs[i] >= best:
            if lbs[i] < proven:
                proven = lbs[i]
            break
        g = trying[i]
        # the cost of g: W plus its classes, each searched below what would still let g win
        members, starts, codes = _split(S, g, matrix, win, stamp, cnt, counters)
        k = codes.size
        cb = np.empty(k, np.int64)
        running = W
        for j in range(k):
            cb[j] = _set_bound(members[starts[j]:starts[j + 1]], weights, d - 1, b, rules)
            running += cb[j]
            if running > INF:
                running = INF
        if running < best:
            sizes = starts[1:] - starts[:-1]
            order = np.argsort(-sizes, kind="mergesort")  # the largest classes first: they decide most
            for jj in range(k):
                j = order[jj]
                child_beta = best - (running - cb[j])
                child_req = req
                child_guesses = kept
                if rules & HARD:
                    child_req = _constrain(req, letters[g], codes[j], length)
                    child_guesses = _legal_subset(kept, child_req, letters, counts, length)
                v, _ = _solve(members[starts[j]:starts[j + 1]], child_guesses, d - 1, child_beta, unforced, child_req,
                              weights, matrix, win, b, rules, stamp, cnt, wsum, wmax, label, pkeys, counters,
                              dedupe_keys, dedupe_rows, own, set_keys, depth_keys, mkeys, mdepth, moff, msize, mval,
                              mexact, mguess, pool, letters, counts, length)
                running += v - cb[j]
                if running > INF:
                    running = INF
                if running >= best:
                    break
        if running < best:
            best = running
            best_g = g
            if best <= lower:
                break  # the node's own bound: nothing does better
        elif running < proven:
            proven = running
    if forced >= 0:
        return (best, best_g) if best_g >= 0 else (proven, none)
    if best_g >= 0:
        if rules & USE_MEMO:
            _memo_store(S, d, req, best, True, best_g, set_keys, depth_keys, mkeys, mdepth, moff, msize, mval, mexact,
                        mguess, pool, counters)
        return best, best_g
    if proven < lower:
        proven = lower
    if rules & USE_MEMO:
        _memo_store(S, d, req, proven, False, none, set_keys, depth_keys, mkeys, mdepth, moff, msize, mval,
                    mexact, mguess, pool, counters)
    return proven, none


# ------------------------------------------------------------------------------------------------
# the Python side: one game, one cap, one weight per answer
# ------------------------------------------------------------------------------------------------
NO_CAP = 32  # as solver.NO_CAP: "no cap" is deeper than any optimal tree of these games goes


class WeightedSolver:
    """value(S, d) and its trees for one game, one cap, and integer weights >= 1 (one per answer,
    in answer order), in normal mode or (the Wordle family) hard mode: there a position is the set
    and its constraint (req: the greens and each letter's least count), and two guesses of the same
    partition are no longer alike (they leave different constraints), so USE_DEDUPE is off. Not
    thread-safe: one solver per thread."""

    def __init__(self, game, matrix: np.ndarray, weights, max_guesses: int | None = 6, rules: int = ALL_RULES,
                 memo_mb: int = 64, seed: int = 0x5EED, mode: str = "normal"):
        from ..errors import CapOutOfRange, UserError

        if mode not in ("normal", "hard"):
            raise UserError(f"the weighted search plays normal or hard mode, not {mode}")
        if mode == "hard" and getattr(game, "kind", "") != "wordle":
            raise UserError("hard mode is a Wordle rule")
        self.mode = mode

        self.game = game
        self.matrix = np.ascontiguousarray(matrix)
        self.weights = np.ascontiguousarray(weights, dtype=np.int64)
        if self.weights.shape != (len(game.answers),) or (self.weights < 1).any():
            raise UserError("every answer needs an integer weight of 1 or more")
        if int(self.weights.sum()) * NO_CAP >= INF:
            raise UserError("the weights are too large: their total times the cap must stay below 2**56")
        self.cap = NO_CAP if max_guesses is None else int(max_guesses)
        if not 1 <= self.cap <= NO_CAP:
            raise CapOutOfRange(self.cap, NO_CAP)
        self.rules = int(rules) & ~HARD
        if mode == "hard":
            from ..games.wordle import letters_array

            self.rules = (self.rules & ~USE_DEDUPE) | HARD
            self.length = int(game.length)
            self.letters = np.ascontiguousarray(letters_array(game.guesses, game.length, game.alphabet))
            self.counts = np.zeros((len(game.guesses), len(game.alphabet)), np.uint8)
            for i in range(self.length):
                np.add.at(self.counts, (np.arange(len(game.guesses)), self.letters[:, i]), 1)
        else:
            self.length = 0
            self.letters = np.zeros((1, 1), np.uint8)
            self.counts = np.zeros((1, 1), np.uint8)
        codes = int(np.iinfo(self.matrix.dtype).max) + 1
        self.win = int(game.win_code)
        present = np.unique(self.matrix[:, : min(self.matrix.shape[1], 4096)])
        # b: the most non-winning classes a guess makes (the codes the matrix can hold, the win aside)
        self.b = max(1, int(game.n_codes) - 1)
        del present
        rng = np.random.default_rng(seed)
        A, G = self.matrix.shape[1], self.matrix.shape[0]
        self.own = np.ascontiguousarray(game.answer_guess_ids, dtype=np.int32)
        self.guesses = np.arange(G, dtype=np.int32)
        slots = 1 << max(10, (memo_mb << 20) // 48 // 2).bit_length() - 1
        pool = max(1 << 16, (memo_mb << 20) // 8)
        self.state = dict(
            stamp=np.zeros(codes, np.int64), cnt=np.zeros(codes, np.int64), wsum=np.zeros(codes, np.int64),
            wmax=np.zeros(codes, np.int64), label=np.zeros(codes, np.int64),
            pkeys=rng.integers(1, 2**63, size=A, dtype=np.uint64) | np.uint64(1),
            counters=np.zeros(8, np.int64),
            dedupe_keys=np.zeros(1 << (2 * G - 1).bit_length(), np.int64),
            dedupe_rows=np.zeros(1 << (2 * G - 1).bit_length(), np.int32),
        )
        self.memo = dict(
            set_keys=rng.integers(1, 2**63, size=A, dtype=np.uint64),
            depth_keys=rng.integers(1, 2**63, size=NO_CAP + 2, dtype=np.uint64),
            mkeys=np.zeros(slots, np.uint64), mdepth=np.zeros(slots, np.int64), moff=np.zeros(slots, np.int64),
            msize=np.zeros(slots, np.int64), mval=np.zeros(slots, np.int64), mexact=np.zeros(slots, np.int8),
            mguess=np.zeros(slots, np.int32), pool=np.zeros(pool, np.int32),
        )

    @property
    def nodes(self) -> int:
        return int(self.state["counters"][C_NODES])

    # --- hard-mode constraints (empty in normal mode) ---
    def empty_constraint(self) -> np.ndarray:
        if self.mode != "hard":
            return np.zeros(0, np.int32)
        req = np.zeros(self.length + self.counts.shape[1], np.int32)
        req[: self.length] = -1
        return req

    def constrain(self, req: np.ndarray, guess: int, code: int) -> np.ndarray:
        """The constraint after `guess` got `code` (unchanged in normal mode)."""
        if self.mode != "hard":
            return req
        return _constrain(np.ascontiguousarray(req, dtype=np.int32), self.letters[guess], np.int64(code),
                          np.int64(self.length))

    def allowed(self, req: np.ndarray | None) -> np.ndarray:
        """The guess ids the constraint allows (every guess in normal mode)."""
        if self.mode != "hard" or req is None:
            return self.guesses
        return _legal_subset(self.guesses, np.ascontiguousarray(req, dtype=np.int32), self.letters, self.counts,
                             np.int64(self.length))

    def _run(self, S, d: int, beta: int, forced: int, req=None) -> tuple[int, int]:
        S = np.ascontiguousarray(np.sort(np.asarray(S, dtype=np.int32)))
        req = self.empty_constraint() if req is None else np.ascontiguousarray(req, dtype=np.int32)
        guesses = self.allowed(req)
        if forced >= 0 and self.mode == "hard" and forced not in set(guesses.tolist()):
            return INF, -1  # hard mode does not allow that guess here
        st, m = self.state, self.memo
        value, g = _solve(S, guesses, np.int64(d), np.int64(beta), np.int64(forced), req, self.weights,
                          self.matrix, np.int64(self.win), np.int64(self.b), np.int64(self.rules),
                          st["stamp"], st["cnt"], st["wsum"], st["wmax"], st["label"], st["pkeys"], st["counters"],
                          st["dedupe_keys"], st["dedupe_rows"], self.own, m["set_keys"], m["depth_keys"],
                          m["mkeys"], m["mdepth"], m["moff"], m["msize"], m["mval"], m["mexact"], m["mguess"],
                          m["pool"], self.letters, self.counts, np.int64(self.length))
        return int(value), int(g)

    def solve(self, S, d: int | None = None, beta: int = INF, req=None) -> tuple[int, int]:
        """(value, best guess) of the answers S with d guesses left (default: the cap) under the
        hard-mode constraint req (None: none); the value exact when below beta, else a lower
        bound >= beta (guess -1). INF: no tree within d."""
        return self._run(S, self.cap if d is None else d, beta, -1, req)

    def cost(self, S, guess: int, d: int | None = None, beta: int = INF, req=None) -> int:
        """The least weighted total of S opening with `guess` (exact below beta, else a bound >= beta)."""
        return self._run(S, self.cap if d is None else d, beta, guess, req)[0]

    def weight(self, S) -> int:
        return int(self.weights[np.asarray(S, dtype=np.int64)].sum())

    def classes(self, S, guess: int) -> list[tuple[int, np.ndarray]]:
        """(code, answers) of each non-winning class of `guess` on S, by code."""
        S = np.sort(np.asarray(S, dtype=np.int32))
        codes = self.matrix[guess, S]
        return [(int(c), S[codes == c]) for c in np.unique(codes) if int(c) != self.win]

    def tree(self, S, d: int | None = None, guess: int | None = None, req=None) -> dict:
        """An optimal tree for S with d guesses left (opening with `guess` if given) under the
        constraint req: each node's guess is one the search proved best there (ties: the first in
        the search's order)."""
        from ..errors import UserError

        d = self.cap if d is None else d
        if guess is None:
            value, guess = self.solve(S, d, req=req)
            if value >= INF:
                raise UserError("no tree exists within the guess cap")
        req = self.empty_constraint() if req is None else req
        node = {"guess": self.game.guesses[guess]}
        branches = {self.game.pattern_text(code): self.tree(part, d - 1, req=self.constrain(req, guess, code))
                    for code, part in self.classes(S, guess)}
        if branches:
            node["next"] = branches
        return node


def weighted_depth_total(game, matrix: np.ndarray, root: dict, weights, answers=None) -> tuple[int, list[int]]:
    """The weighted total of a tree and each answer's depth, read off it with the pattern matrix
    (exact.build.answer_depths' walk)."""
    from .build import answer_depths

    ids = range(len(game.answers)) if answers is None else answers
    depths = answer_depths(game, matrix, root, ids)
    w = np.asarray(weights, dtype=np.int64)
    return int(sum(int(w[a]) * dep for a, dep in zip(ids, depths))), depths


def weighted_build(game, matrix: np.ndarray, weights, first: int | None = None, max_guesses: int | None = 6,
                   threads: int = 1, memo_mb: int = 64, on_class=None, rules: int = ALL_RULES, mode: str = "normal"):
    """(tree, weighted total) of the best tree of the whole game (opening with guess id `first`
    if given, else with a best opener, found by the search over every guess). With an opener the
    classes below it are independent searches, run on `threads` threads (a solver and memo each;
    the kernels release the GIL); `on_class(code, size, value, seconds)` is told each as it ends.
    Raises solver.Infeasible when no tree exists within the cap."""
    import threading
    import time

    from .solver import Infeasible

    S = np.arange(len(game.answers), dtype=np.int32)
    top = WeightedSolver(game, matrix, weights, max_guesses, rules=rules, memo_mb=memo_mb, mode=mode)
    d = top.cap
    if first is None:
        value, first = top.solve(S, d)
        if value >= INF:
            raise Infeasible(d)
        return top.tree(S, d, first), value
    jobs = sorted(top.classes(S, first), key=lambda item: -len(item[1]))
    root_req = top.empty_constraint()
    results: dict[int, tuple[int, dict | None]] = {}
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work(solver):
        while True:
            with lock:
                if not jobs or errors:
                    return
                code, part = jobs.pop(0)
            start = time.perf_counter()
            try:
                req = solver.constrain(root_req, first, code)
                value, g = solver.solve(part, d - 1, req=req)
                tree = solver.tree(part, d - 1, g, req=req) if value < INF else None
            except BaseException as exc:  # noqa: BLE001 (raised by the caller)
                with lock:
                    errors.append(exc)
                return
            with lock:
                results[code] = (value, tree)
                if on_class is not None:
                    on_class(code, len(part), value, time.perf_counter() - start)

    solvers = [top] + [WeightedSolver(game, matrix, weights, max_guesses, rules=rules, memo_mb=memo_mb, mode=mode)
                       for _ in range(max(1, threads) - 1)]
    pool = [threading.Thread(target=work, args=(s,), daemon=True) for s in solvers]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if errors:
        raise errors[0]
    total = top.weight(S)
    node = {"guess": game.guesses[first]}
    branches = {}
    for code in sorted(results):
        value, tree = results[code]
        if tree is None:
            raise Infeasible(d, game.guesses[first])
        total += value
        branches[game.pattern_text(code)] = tree
    if branches:
        node["next"] = branches
    return node, total


def weighted_rank(game, matrix: np.ndarray, weights, top: int = 10, limit: int | None = None,
                  max_guesses: int | None = 6, mode: str = "normal", threads: int = 1, memo_mb: int = 64,
                  on_done=None, rules: int = ALL_RULES):
    """The weighted rank of the first guesses: the exact weighted value of the best `top` and,
    for every other one, a proven lower bound at least the top-th value (exact/rank.py's proof
    with the weighted search): each opener, in the unweighted heuristic order (the first `limit`),
    is valued below the top-th exact value known when it starts (INF until `top` are known);
    those values only fall, so a bound proven against an earlier one still bounds it. Openers are
    shared among `threads` threads (a solver and memo each). Returns a rank.RankResult (values
    word -> (value or bound, exact?)); `on_done(done, considered)` is told each opener's end."""
    import bisect
    import threading
    import time

    from .heuristics import heuristic_order
    from .rank import RankResult

    S = np.arange(len(game.answers), dtype=np.int32)
    order = heuristic_order(game, matrix, S)
    if limit is not None:
        order = order[:limit]
    start = time.perf_counter()
    todo = [int(g) for g in order]
    values: dict[str, tuple[int, bool]] = {}
    exact_sorted: list[int] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def budget() -> int:
        return exact_sorted[top - 1] if len(exact_sorted) >= top else INF

    def work(solver):
        while True:
            with lock:
                if not todo or errors:
                    return
                g = todo.pop(0)
                beta = budget()
            try:
                value = solver.cost(S, g, solver.cap, beta)
            except BaseException as exc:  # noqa: BLE001 (raised by the caller)
                with lock:
                    errors.append(exc)
                return
            with lock:
                exact = value < beta
                values[game.guesses[g]] = (value, exact)
                if exact:
                    bisect.insort(exact_sorted, value)
                if on_done is not None:
                    on_done(len(values), len(order))

    solvers = [WeightedSolver(game, matrix, weights, max_guesses, rules=rules, memo_mb=memo_mb, mode=mode)
               for _ in range(max(1, threads))]
    pool = [threading.Thread(target=work, args=(s,), daemon=True) for s in solvers]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if errors:
        raise errors[0]
    return RankResult(values=values, top=top, considered=len(order), seconds=time.perf_counter() - start)
