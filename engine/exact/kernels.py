"""Every numba kernel of the exact search that calls another: feedback and the search.

They live in one module because numba's on-disk cache does not notice edits to a jitted
function in another file (the pattern matrix's kernels, which call none of these, are the
games': engine/games/wordle_kernels.py). The public, validating wrapper is solver.py;
the slow, obviously-correct twins used as test oracles are in tests/reference.py.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import INF32, kernel, prange
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


# ----------------------------------------------------------------------------------------------
# Exact search
#
# V(S, d) = min over guesses g of |S| + sum over non-winning classes C of g on S of V(C, d - 1),
# V({a}, d >= 1) = 1, V(S, 0) = infinity. `_solve` computes V exactly when it is below the budget
# `beta`, and otherwise returns a proven lower bound that is >= beta.
#
# Soundness of each rule (its USE_* flag below turns it off, one by one, for the tests):
# - class bound: a class of c answers costs at least 2c - 1 (one of them may be solved by the next
#   guess, every other needs at least two), so a guess with k classes (the win counted) costs at
#   least 3|S| - k - [g in S]; a guess whose bound reaches the best total so far cannot improve it.
#   In games with few patterns (b non-winning ones) a class of c > b + 1 answers costs more: at
#   most b**(j-1) of its answers can be solved by its j-th guess (see class_bounds), and with d
#   guesses left it is infeasible past 1 + b + ... + b**(d-1) answers.
# - greens (hard mode, USE_GREENS): every answer of a class whose code showed k greens has those
#   letters there, and every later guess must keep them, so those positions are green in every
#   later feedback. Only the other j = length - k positions vary: at most 3**j codes, of which
#   the j that show a single non-green position, yellow, cannot occur (the letter would need an
#   unmatched copy in a non-green position, and there is no other), and one is the win. So every
#   node below has at most 3**j - j - 1 non-winning children, and the class bound with that
#   branching holds for the class (green_class_bounds): with four greens a class of c answers
#   costs at least 1 + 2 + ... + c, and needs c guesses.
# - budgets: a child is only asked for its value below what would still let this guess win; a
#   child that answers ">= its budget" makes the running sum reach the best, so the guess loses.
# - shortcuts: a guess in S splitting S into singletons costs 2|S| - 1, the lower bound of every
#   set, so it is optimal; failing that, any splitter into singletons costs 2|S|, and every other
#   guess costs at least 2|S| (a guess in S with k < |S| classes has bound >= 2|S|).
# - useless guesses: a guess outside S that leaves S in one class only wastes a turn; it stays
#   useless on every subset of S, so children inherit the filtered guess list.
# - identical partitions: guesses giving the same code to every answer of S are interchangeable
#   at this node and below it; one representative (the first in list order) is kept.
# - infeasible cores (normal mode): with 2 guesses left a set needs a guess giving each answer
#   its own code; a set with none stays without one in every superset (a splitter of the
#   superset would split it). The last sets found so are kept, and a new set holding one of
#   them is infeasible at once, skipping the scan of every guess (the _ills family recurs in
#   many slightly different classes that the memo, keyed by the exact set, cannot match).
# - pair counts (normal mode, sets of at most PAIR_LIMIT answers): a guess's class count, in-S
#   flag and sum of squared class sizes follow from how many answer pairs share a code, which
#   answer-major loops count for every guess at once. They give the same bounds and order as
#   the scan, so the node is settled without the scan only when the scan would settle it too:
#   the bound prunes it, a guess splits S into singletons, or the guess tried first costs its
#   bound (its classes hold at most 2 answers, which happens when pairs = |S| - classes) and
#   that bound is the least of all, so every other guess is skipped by its bound. A node they
#   do not settle skips the scan as well: the guess loop takes the same bounds and order from
#   the counts and skips a guess whose partition equals one already tried (same value), and the
#   children read the inherited matrix, a superset of the rows the scan would have kept.
# - splitters pair by pair (USE_PAIR_SCAN; no pruning, the same answer faster): with 2 guesses
#   left, the first guess giving each answer its own code is the first one that no pair of
#   answers shares a code under, and without one the core marked is each guess's first colliding
#   pair, found pair by pair over guesses stored by answers as the scan finds it guess by guess
#   (`_first_splitter`).
# - one guess more: a tree within d guesses is one within d + 1, so V(S, d) >= V(S, d + 1), and
#   an entry for (S, d + 1), exact or a bound, bounds (S, d) from below. The tie-break's searches
#   with one guess fewer (solver.py, `shallowest`) meet the main search's entries this way.
# - memo: values are keyed by the candidate set itself (a 64-bit hash to find the slot, then the
#   set compared element by element), so a hash collision can never return another set's value.
# ----------------------------------------------------------------------------------------------

INF = INF32  # (jit.py: the kernels' one convention)

# Switches (a bit each) so the tests can check that no rule changes a value.
USE_BOUNDS = 1
USE_SHORTCUTS = 2
USE_FILTER = 4
USE_MEMO = 8
USE_CORES = 64  # remembered sets with no perfect splitter (below)
USE_PAIRS = 128  # small sets settled from pair counts, without copying the matrix (below)
USE_DEEPER = 256  # a set's memo entry with one more guess left bounds it (below)
# Not a pruning rule (the same guess and core, found faster): with 2 guesses left, a set of at
# most SPLIT_PAIRS answers looks for a perfect splitter pair by pair over the guesses stored by
# answers (`_first_splitter`), SPLIT_BLOCK guesses at a time, instead of guess by guess.
USE_PAIR_SCAN = 1024
SPLIT_PAIRS = 64
SPLIT_BLOCK = 1024
# Not a pruning rule either: a tree's tie-break searches a class again from its first search's
# scan (KEEP_TOP and GIVEN_TOP below; solver.py, `Solver.tree`) instead of scanning every guess.
USE_KEPT_TOP = 8192
# Hard mode: a class's bound from the greens its code shows (see green_class_bounds). The Solver
# reads this switch: the kernel only sees the tables it is given (Scratch.green_bounds).
USE_GREENS = 16384
ALL_RULES = (USE_BOUNDS | USE_SHORTCUTS | USE_FILTER | USE_MEMO | USE_CORES | USE_PAIRS | USE_DEEPER
             | USE_PAIR_SCAN | USE_KEPT_TOP | USE_GREENS)
PAIR_LIMIT = 110  # the largest set the pair counts handle (past it the scan was cheaper: bench/search.py)
PAIR_BYTES = 22  # up to here the counts fit a byte (231 pairs), twice as many per instruction
HARD_MODE = 16  # not a pruning rule: the NYT hard-mode constraint on guesses
ULTRA_MODE = 32  # not a pruning rule: every guess consistent with all the feedback so far
NO_STEP = np.int32(2**31 - 1)  # pads an ultra-mode history (kept sorted, so it sorts last)
# Not a pruning rule: ultra mode where the guesses are the answers (the code-breaking games). A
# guess consistent with all the feedback is then exactly a candidate left, so a node may guess
# only its own answers S (at the start S is every code: all of them are consistent). The value
# of a node then depends on S alone, whatever history led to it: no constraint in the memo key.
CANDIDATE_GUESSES = 512
# Not pruning rules: a search's top level hands out what its scan found, and another search of
# the same set takes it instead of scanning (solver.py: the tie-break's search with one guess
# fewer). KEEP_TOP: the top node copies its matrix (the kept guesses' codes over its answers,
# relabelled in normal mode), their ids and rows of the answers into the scratch's `top_*`
# arrays, and their count into top_info[0]; their bounds and scores stay in lbs[0] and scores[0].
# GIVEN_TOP: the top node's matrix L is such a kept matrix, with the bounds and scores in lbs[0]
# and scores[0]: it searches from them as from its own scan. Sound where the bounds are the same
# with the search's guesses left as with the first's (both caps leave the class bound at 2n - 1:
# the caller checks) and the constraint is the same (hard mode: the same legal guesses); the
# kept guesses do not depend on the guesses left. Not in ultra mode.
KEEP_TOP = 2048
GIVEN_TOP = 4096

# stats slots
ST_NODES, ST_MEMO_HITS, ST_MEMO_STORES, ST_MEMO_CLEARS, ST_GUESSES_EVALUATED = 0, 1, 2, 3, 4


class Scratch(NamedTuple):
    """One search thread's working arrays, as `_solve` and its helpers read them (by field; numba
    types a named tuple of arrays field by field, so a read costs nothing). context.Context fills
    them; `levels` rows are one per depth of the search."""

    lbs: np.ndarray  # (levels, guesses) int32: each kept guess's class bound
    scores: np.ndarray  # (levels, guesses) int64: its ordering score
    cls: np.ndarray  # (levels, answers) int32: the classes of the guess tried at each level
    cls_pos: np.ndarray  # (levels, answers) int32: their columns in the level's matrix
    class_start: np.ndarray  # (levels, codes + 1) int64
    class_size: np.ndarray  # (levels, codes + 1) int64
    class_code: np.ndarray  # (levels, codes + 1) int64
    stamp: np.ndarray  # (codes,) int64: a code's epoch of last use
    cnt: np.ndarray  # (codes,) int64: a code's count (or label, or image) at that epoch
    epoch: np.ndarray  # (1,) int64: the latest epoch
    dedupe_key: np.ndarray  # a power of two >= 2 guesses, uint64: identical partitions (the scan)
    dedupe_val: np.ndarray  # int32: the row holding that partition
    dedupe_stamp: np.ndarray  # int64: the epoch of the slot
    position_keys: np.ndarray  # (answers,) uint64, odd: a random key per position in a node
    identity: np.ndarray  # (answers,) int32: 0, 1, 2, ...: a node's own columns
    best_out: np.ndarray  # (levels + 1,) int32: the best guess found at each level (-1: none)
    stats: np.ndarray  # (8,) int64: the counters (ST_*)
    req: np.ndarray  # (levels + 1, state size) int32: hard/ultra-mode constraint at each level
    # (greens, d, c) int64, shared, read only: the least cost of c answers with d guesses left
    # (class_bounds) as one row, or in hard mode a row for each count of greens the set showed
    # (green_class_bounds)
    green_bounds: np.ndarray
    code_greens: np.ndarray  # (codes,) int64: the greens of each code that green_bounds counts (zeros: none)
    level_greens: np.ndarray  # (levels + 1,) int64: the greens of the set at each level (green_bounds' row)
    last_step: np.ndarray  # (levels + 1, 2) int64: ultra mode's latest (guess, code) at each level
    cores: np.ndarray  # (cores, core size) int32: recent sets no guess splits into singletons
    core_len: np.ndarray  # (cores,) int64: their sizes
    core_count: np.ndarray  # (1,) int64: how many were recorded (a ring: the latest are kept)
    mark: np.ndarray  # (answers,) int64: a node's answers, by epoch
    pair_bytes: np.ndarray  # (4, guesses) uint8: pair counts: pairs, repeats, has_win, one answer's flags
    pair_words: np.ndarray  # (4, guesses) uint16: the same for sets past PAIR_BYTES answers
    top_codes: np.ndarray  # the top node's matrix, kept (KEEP_TOP; context.Context.keeping_top)
    top_ids: np.ndarray  # (guesses,) int32: its guesses
    top_win: np.ndarray  # (answers,) int32: the row of each answer's own guess
    top_info: np.ndarray  # (1,) int64: how many guesses it kept (-1: none kept)


class Memo(NamedTuple):
    """A memo table, as the kernels read it (by field; context.memo_table makes one): slots
    found by a set's hash, the sets themselves in `pool` (so that a hash collision never
    matches), and the random keys the hash is made of. `_memo_store` says how it is written."""

    keys: np.ndarray  # (slots,) uint64: a slot's hash (EMPTY: none; TAKEN: being written)
    depth: np.ndarray  # (slots,) int16: guesses left
    offset: np.ndarray  # (slots,) int64: where the set starts in the pool
    size: np.ndarray  # (slots,) int32: set size
    payload: np.ndarray  # (slots,) uint64: value or lower bound, exact?, best guess (_pay)
    pool: np.ndarray  # int32: the stored sets, each followed by its state
    counters: np.ndarray  # (4,) int64: entries used, pool used, shared?, full? (MEMO_*)
    set_keys: np.ndarray  # (answers,) uint64: a random key per answer
    depth_keys: np.ndarray  # (depths,) uint64: a random key per depth
    state_keys: np.ndarray  # (state size,) uint64, odd: a random key per constraint entry


@kernel
def _set_hash(S, state, d, set_keys, state_keys, depth_keys):
    h = depth_keys[d]
    for a in S:
        h ^= set_keys[a]
    for j in range(state.size):
        h ^= state_keys[j] * np.uint64(state[j] + 2)  # odd keys: distinct values, distinct terms
    return h | np.uint64(1)  # 0 marks an empty slot


# The memo's entries, one table per thread or one shared by all (context.py). A slot's identity
# (key, depth, set size, the set's place in the pool, and the set and state in the pool) is
# written before its key, and never changed while a search may read the table; its payload
# (value, exact flag, best guess) is one 64-bit word, replaced whole, so a reader sees one
# record or another, never a mix. In a shared table (counters[MEMO_SHARED] = 1) a slot is taken
# by a compare-and-swap of its key from EMPTY to TAKEN, its pool space by an atomic add, the key
# is published with a release store and read with an acquire load (`_atomic_*`: numba has no
# atomics of its own, so they are LLVM's, through intrinsics), and a full table is not cleared
# inside a search: it stops taking entries and says so (counters[MEMO_FULL]), and its owner
# clears it once no search reads it (context.SharedMemo).
EMPTY = np.uint64(0)
TAKEN = np.uint64(2)  # being written, or given up (pool full): real keys are odd, so it never matches
MEMO_ENTRIES, MEMO_POOL, MEMO_SHARED, MEMO_FULL = 0, 1, 2, 3  # counters
PAY_EXACT = np.uint64(1 << 31)
PAY_GUESS = np.uint64((1 << 31) - 1)


def _item_pointer(context, builder, aryty, ary, idx):
    array = context.make_array(aryty)(context, builder, ary)
    return cgutils.get_item_pointer(context, builder, aryty, array, [idx], wraparound=False)


@intrinsic
def _atomic_load(typingctx, ary, idx):
    """ary[idx], read with acquire ordering."""
    def codegen(context, builder, signature, args):
        ptr = _item_pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.load_atomic(ptr, "acquire", ary.dtype.bitwidth // 8)
    return ary.dtype(ary, types.intp), codegen


@intrinsic
def _atomic_store(typingctx, ary, idx, value):
    """ary[idx] = value, with release ordering (everything written before is seen with it)."""
    def codegen(context, builder, signature, args):
        ptr = _item_pointer(context, builder, signature.args[0], args[0], args[1])
        builder.store_atomic(args[2], ptr, "release", ary.dtype.bitwidth // 8)
        return context.get_dummy_value()
    return types.void(ary, types.intp, ary.dtype), codegen


@intrinsic
def _atomic_cas(typingctx, ary, idx, expected, value):
    """ary[idx] = value if it holds `expected`, atomically; returns what it held."""
    def codegen(context, builder, signature, args):
        ptr = _item_pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.extract_value(builder.cmpxchg(ptr, args[2], args[3], "acq_rel", "acquire"), 0)
    return ary.dtype(ary, types.intp, ary.dtype, ary.dtype), codegen


def _borrow(context, builder, ty, value):
    """`value` of type `ty` (an array, or a tuple of arrays and other values) with every array's
    meminfo and parent pointers null: the same data, shape and strides, no reference count."""
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
    """`value` (an array, or a named tuple of arrays) as arrays without a reference count:
    numba's increfs and decrefs of them and of every view taken from them (one of each for every
    view a node takes and every array it passes to a call) are then a test of a null pointer,
    not an atomic add (docs/log/2026-12-04.md). Only for arrays that outlive every use of the
    result: the arrays a kernel is called with from Python, which the caller holds until it
    returns."""
    def codegen(context, builder, signature, args):
        return _borrow(context, builder, signature.args[0], args[0])
    return value(value), codegen


@intrinsic
def _atomic_add(typingctx, ary, idx, value):
    """ary[idx] += value, atomically; returns what it held."""
    def codegen(context, builder, signature, args):
        ptr = _item_pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.atomic_rmw("add", ptr, args[2], "acq_rel")
    return ary.dtype(ary, types.intp, ary.dtype), codegen


@kernel
def _pay(value, exact, guess):
    """A payload word: the value in the high 32 bits, then the exact flag, then guess + 1."""
    word = (np.uint64(value) << np.uint64(32)) | np.uint64(guess + 1)
    return word | PAY_EXACT if exact else word


@kernel
def _pay_value(word):
    return np.int64(word >> np.uint64(32))


@kernel
def _pay_exact(word):
    return (word & PAY_EXACT) != 0


@kernel
def _pay_guess(word):
    return np.int64(word & PAY_GUESS) - 1


@kernel
def _memo_holds(S, state, d, i, mdepth, moff, mlen, pool):
    """Whether slot i (whose key matched) holds (S, state, d): the depth, the size, then the set
    and the state element by element, so that a hash collision never matches."""
    n = S.size
    if mdepth[i] != d or mlen[i] != n:
        return False
    off = moff[i]
    for j in range(n):
        if pool[off + j] != S[j]:
            return False
    for j in range(state.size):
        if pool[off + n + j] != state[j]:
            return False
    return True


@kernel
def _memo_slot(S, state, d, h, mkeys, mdepth, moff, mlen, pool):
    """The slot holding (S, state, d), or -(empty slot) - 1 when it is absent. The state (the
    hard-mode constraint; empty otherwise) is stored after the set and compared with it."""
    mask = mkeys.size - 1
    i = np.int64(h & np.uint64(mask))
    while True:
        k = _atomic_load(mkeys, i)
        if k == EMPTY:
            return -i - 1
        if k == h and _memo_holds(S, state, d, i, mdepth, moff, mlen, pool):
            return i
        i = (i + 1) & mask


@kernel
def _memo_update(slot, value, exact, guess, payload):
    """Keep the better of the slot's payload and (value, exact, guess): an exact value stays;
    else an exact value or a higher bound replaces it."""
    word = _pay(value, exact, guess)
    old = _atomic_load(payload, slot)
    while not _pay_exact(old) and (exact or value > _pay_value(old)):
        seen = _atomic_cas(payload, slot, old, word)
        if seen == old:
            return
        old = seen


@kernel
def _memo_store(S, state, d, h, value, exact, guess, mkeys, mdepth, moff, mlen, mpay, pool, counters, stats):
    """Record an exact value or a lower bound for (S, state, d). When a thread's own table or
    its pool is full it is cleared (values are recomputed on demand: a cleared entry costs time,
    never exactness); a full shared table takes no more entries until its owner clears it."""
    n = S.size
    size = n + state.size
    shared = counters[MEMO_SHARED] != 0
    while True:
        slot = _memo_slot(S, state, d, h, mkeys, mdepth, moff, mlen, pool)
        if slot >= 0:
            _memo_update(slot, value, exact, guess, mpay)
            return
        if counters[MEMO_ENTRIES] + 1 > (mkeys.size * 7) // 10 or counters[MEMO_POOL] + size > pool.size:
            if shared:
                counters[MEMO_FULL] = 1
                return
            mkeys[:] = 0
            counters[MEMO_ENTRIES] = 0
            counters[MEMO_POOL] = 0
            stats[ST_MEMO_CLEARS] += 1
            continue
        i = -slot - 1
        if not shared:
            off = counters[MEMO_POOL]
            counters[MEMO_ENTRIES] += 1
            counters[MEMO_POOL] += size
            break
        if _atomic_cas(mkeys, i, EMPTY, TAKEN) != EMPTY:
            continue  # another thread took the slot first: look again (it may hold this very set)
        off = _atomic_add(counters, MEMO_POOL, np.int64(size))
        if off + size > pool.size:
            counters[MEMO_FULL] = 1  # the slot stays TAKEN: never matched, never empty
            return
        _atomic_add(counters, MEMO_ENTRIES, np.int64(1))
        break
    for j in range(n):
        pool[off + j] = S[j]
    for j in range(state.size):
        pool[off + n + j] = state[j]
    mdepth[i] = d
    moff[i] = off
    mlen[i] = n
    mpay[i] = _pay(value, exact, guess)
    _atomic_store(mkeys, i, h)  # last: the entry is whole before any reader can find it
    stats[ST_MEMO_STORES] += 1


@kernel
def _constrain(req_from, req_to, letters, code, length):
    """Hard mode: the constraint after a guess (letters, its letter counts) got `code`. req[i]
    for i < length is the green letter at position i (-1: none); req[length + x] is the number
    of copies of letter x every later guess must contain (its green and yellow copies in one
    feedback; greys add nothing)."""
    for j in range(req_from.size):
        req_to[j] = req_from[j]
    n_letters = req_to.size - length  # 26 for a-z; any alphabet's own count
    shown = np.zeros(n_letters, dtype=np.int32)
    c = code
    for i in range(length):
        colour = c % 3
        c //= 3
        if colour == 2:
            req_to[i] = letters[i]
        if colour != 0:
            shown[letters[i]] += 1
    for x in range(n_letters):
        if shown[x] > req_to[length + x]:
            req_to[length + x] = shown[x]


@kernel
def _active_constraints(req, length, active):
    """The constraint's non-trivial entries (index into req), so legality checks skip the rest."""
    t = 0
    for j in range(req.size):
        if (j < length and req[j] >= 0) or (j >= length and req[j] > 0):
            active[t] = j
            t += 1
    return t


@kernel
def _wordle_code(guess, answer):
    """The Wordle code of one pair of letter arrays, as the matrix kernel's rule: position i
    (not green) is yellow iff the answer's copies of its letter outside greens outnumber the
    guess's non-green copies before i. No allocation: it runs inside the search's loops."""
    length = guess.size
    code = 0
    weight = 1
    for i in range(length):
        c = guess[i]
        if answer[i] == c:
            code += 2 * weight
        else:
            unmatched = 0
            for j in range(length):
                if answer[j] == c and guess[j] != c:
                    unmatched += 1
            earlier = 0
            for j in range(i):
                if guess[j] == c and answer[j] != c:
                    earlier += 1
            if earlier < unmatched:
                code += weight
        weight *= 3
    return code


@kernel
def _record_step(history_from, history_to, step):
    """Ultra mode: the history (guess id * codes + code, sorted, padded with NO_STEP) with one
    more step. Sorted, so histories that differ only in order share memo entries."""
    j = 0
    placed = False
    for i in range(history_from.size):
        if not placed and step <= history_from[i]:
            history_to[j] = step
            j += 1
            placed = True
        if j < history_to.size:
            history_to[j] = history_from[i]
            j += 1


@kernel
def _consistent(gid, history, letters, n_codes):
    """Ultra mode: would guess `gid` have got every code of the history, were it the answer?"""
    for step in history:
        if step == NO_STEP:
            break
        if _wordle_code(letters[step // n_codes], letters[gid]) != step % n_codes:
            return False
    return True


@kernel
def _legal(gid, req, active, n_active, letters, counts, length):
    for q in range(n_active):
        j = active[q]
        if j < length:
            if letters[gid, j] != req[j]:
                return False
        elif counts[gid, j - length] < req[j]:
            return False
    return True


@kernel
def _first_collision(row, pos, stamp, first_at, epoch):
    """(-1, -1) when the row gives each of the node's answers its own code, else (i, j): the
    first answer i sharing its code with an earlier answer j (positions in the node)."""
    e = epoch[0] + 1
    epoch[0] = e
    for i in range(pos.size):
        c = row[pos[i]]
        if stamp[c] == e:
            return i, first_at[c]
        stamp[c] = e
        first_at[c] = i
    return -1, -1


@kernel
def _first_splitter(LT, pos, rows, S, mark, core_epoch, collided):
    """The first of the `rows` guesses of a column-major local matrix LT (one row per column of
    the node's parent) that gives each of the node's answers (rows pos of LT) its own code, or
    -1; what the row by row scan with `_first_collision` finds, and the same core marked when none
    does. Answer pair by answer pair over blocks of contiguous guesses, so the inner loops
    vectorize: for small sets many times cheaper than reading each guess's codes in turn (a
    scan without a splitter reads every guess). Pairs go by their later answer i, then the
    earlier j, the order in which the scan meets them, and a pair is marked only where it is a
    guess's first colliding pair; a block stops once every guess in it has a collision."""
    n = pos.size
    for start in range(0, rows, SPLIT_BLOCK):
        width = min(SPLIT_BLOCK, rows - start)
        seen = collided[:width]
        seen[:] = 0
        full = np.uint8(0)
        for i in range(1, n):
            ci = LT[pos[i], start:start + width]
            for j in range(i):
                cj = LT[pos[j], start:start + width]
                first = np.uint8(0)
                for g in range(width):
                    same = np.uint8(ci[g] == cj[g])
                    first |= same & ~seen[g]
                    seen[g] |= same
                if first:
                    mark[S[i]] = core_epoch
                    mark[S[j]] = core_epoch
            full = np.uint8(1)
            for g in range(width):
                full &= seen[g]
            if full:
                break
        if not full:
            for g in range(width):
                if seen[g] == 0:
                    return start + g
    return -1


@kernel
def _by_answers(C, rows):
    """The first `rows` rows of a local matrix stored by answers: (answers, rows), contiguous
    over the guesses, as the pair counts and `_first_splitter` read it."""
    n = C.shape[1]
    CT = np.empty((n, rows), dtype=C.dtype)
    for start in range(0, rows, 64):
        end = min(start + 64, rows)
        for i in range(n):
            for r in range(start, end):
                CT[i, r] = C[r, i]
    return CT


@kernel
def _remember_core(S, mark, core_epoch, cores, core_len, core_count):
    """Keep the answers of S marked with core_epoch (sorted, as S is) as the newest core, if it
    fits; the oldest is overwritten. None marked (a scan of no guesses) is no core: the empty set
    would be in every set."""
    size = 0
    for a in S:
        if mark[a] == core_epoch:
            size += 1
    if size == 0 or size > cores.shape[1]:
        return
    slot = core_count[0] % cores.shape[0]
    k = 0
    for a in S:
        if mark[a] == core_epoch:
            cores[slot, k] = a
            k += 1
    core_len[slot] = size
    core_count[0] += 1


@kernel
def _holds_a_core(S, cores, core_len, core_count, mark, epoch):
    """Whether S contains one of the remembered sets that no guess splits into singletons."""
    e = epoch[0] + 1
    epoch[0] = e
    for a in S:
        mark[a] = e
    n = S.size
    for j in range(min(core_count[0], cores.shape[0])):
        length = core_len[j]
        if length > n:
            continue
        inside = True
        for q in range(length):
            if mark[cores[j, q]] != e:
                inside = False
                break
        if inside:
            return True
    return False


@kernel
def _pair_counts(LT, pos, rows, win, pairs, repeats, has_win, shared):
    """For each of the first `rows` guesses of a column-major local matrix LT (one row per
    column of the node's parent), over the node's answers (rows pos of LT): pairs[g] = answer
    pairs sharing a code, repeats[g] = answers sharing their code with an earlier answer (so
    the class count is |S| - repeats[g]), has_win[g] = 1 when an answer gets the winning code.
    Answer pair by answer pair, so every inner loop runs over contiguous guesses and
    vectorizes: for small sets this is many times cheaper than partitioning guess by guess."""
    pairs[:rows] = 0
    repeats[:rows] = 0
    has_win[:rows] = 0
    for i in range(pos.size):
        ci = LT[pos[i]]
        shared[:rows] = 0
        for g in range(rows):
            has_win[g] |= ci[g] == win
        for j in range(i):
            cj = LT[pos[j]]
            for g in range(rows):
                same = ci[g] == cj[g]
                pairs[g] += same
                shared[g] |= same
        for g in range(rows):
            repeats[g] += shared[g]


@kernel
def _pair_scores(counts, rows, n, lbs, scores):
    """Every guess's class bound and ordering score from the pair counts (the scan's figures),
    INF for a useless guess (S in one class, the guess not in S)."""
    pairs, repeats, has_win = counts[0], counts[1], counts[2]
    for r in range(rows):
        k = n - np.int64(repeats[r])
        in_s = np.int64(has_win[r])
        if k == 1 and in_s == 0:
            lbs[r] = INF
            continue
        lb = 3 * n - k - in_s
        lbs[r] = lb
        scores[r] = 2 * (n + 2 * np.int64(pairs[r])) + n * lb


@kernel
def _pair_bounds(LT, pos, rows, win, beta, counts, lbs, scores):
    """Pair counts (counts: 4 scratch rows, bytes or 16-bit words as |S| needs), every guess's
    bound and score from them (in lbs and scores), and from those: the first guess splitting S
    into singletons (or -1); the least bound; the guess with the least score among those whose
    bound is below beta (-1 if none), its bound, and whether that bound is its exact cost (no
    class of 3 or more: then pairs = |S| - classes)."""
    _pair_counts(LT, pos, rows, win, counts[0], counts[1], counts[2], counts[3])
    n = pos.size
    _pair_scores(counts, rows, n, lbs, scores)
    pairs, repeats = counts[0], counts[1]
    min_lb = INF
    top = -1
    top_score = INF
    for r in range(rows):
        if repeats[r] == 0 and lbs[r] < INF:  # a useful guess giving each answer its own code
            return r, 2 * n, -1, 2 * n, True
        lb = np.int64(lbs[r])
        if lb < min_lb:
            min_lb = lb
        if lb < beta and scores[r] < top_score:
            top_score = scores[r]
            top = r
    if top < 0:
        return -1, min_lb, -1, INF, False
    top_k = n - np.int64(repeats[top])
    return -1, min_lb, top, np.int64(lbs[top]), np.int64(pairs[top]) == n - top_k


@kernel
def _partition_key(row, pos, win, position_keys, stamp, label, epoch):
    """A hash of the partition a guess makes of the node's answers (codes relabelled by first
    appearance, the winning code kept apart): equal partitions get equal keys."""
    e = epoch[0] + 1
    epoch[0] = e
    key = np.uint64(0)
    classes = 0
    for i in range(pos.size):
        c = row[pos[i]]
        if stamp[c] != e:
            stamp[c] = e
            label[c] = pos.size + 1 if c == win else classes
            classes += 1
        key += position_keys[i] * np.uint64(label[c] + 1)
    return key


@kernel
def _same_partition(row_a, row_b, pos, win, stamp, image, epoch):
    """Whether two guesses split the node's answers alike, the winning class included: the codes
    of one map onto the codes of the other one to one."""
    for _ in range(2):
        e = epoch[0] + 1
        epoch[0] = e
        for i in range(pos.size):
            a = row_a[pos[i]]
            b = row_b[pos[i]]
            if (a == win) != (b == win):
                return False
            if stamp[a] != e:
                stamp[a] = e
                image[a] = b
            elif image[a] != b:
                return False
        row_a, row_b = row_b, row_a
    return True


@kernel
def _shared_codes(row, S, stamp, epoch, limit):
    """How many answers share their code with an earlier one (|S| minus the class count),
    counting only until it exceeds `limit`."""
    e = epoch[0] + 1
    epoch[0] = e
    shared = 0
    for a in S:
        c = row[a]
        if stamp[c] == e:
            shared += 1
            if shared > limit:
                return shared
        stamp[c] = e
    return shared


@kernel
def _partition(S, pos, codes_row, colpos, out_S, out_pos, class_start, class_size, class_code, stamp, cnt, epoch):
    """Counting sort of the node's answers by code, codes_row[colpos[i]] for answer i (stable, so
    every class stays sorted), classes in order of (size, code). Writes each class's answer ids
    to out_S and their columns (pos[i] or i, as colpos says) to out_pos; returns the class count."""
    n_codes = stamp.size
    e = epoch[0] + 1
    epoch[0] = e
    k = 0
    n = S.size
    for i in range(n):
        c = codes_row[colpos[i]]
        if stamp[c] != e:
            stamp[c] = e
            cnt[c] = 0
            class_code[k] = c
            k += 1
        cnt[c] += 1
    keys = np.empty(k, dtype=np.int64)
    for j in range(k):
        c = class_code[j]
        keys[j] = np.int64(cnt[c]) * n_codes + c
    keys.sort()
    start = 0
    for j in range(k):
        c = keys[j] % n_codes
        class_code[j] = c
        class_size[j] = cnt[c]
        class_start[j] = start
        cnt[c] = start  # becomes the write cursor
        start += class_size[j]
    for i in range(n):
        c = codes_row[colpos[i]]
        out_S[cnt[c]] = S[i]
        out_pos[cnt[c]] = colpos[i]
        cnt[c] += 1
    return k


@kernel
def _codes_present(matrix, n_codes):
    """Which pattern codes occur anywhere in the matrix. One thread: a pass over the matrix takes
    a few ms, less than a parallel kernel costs to load and start."""
    out = np.zeros(n_codes, dtype=np.bool_)
    for g in range(matrix.shape[0]):
        row = matrix[g]
        for a in range(row.size):
            out[row[a]] = True
    return out


@kernel(nogil=True)
def _transpose(matrix, out, start, stop, present):
    """out[:, start:stop] = matrix[start:stop].T, in 64 x 64 tiles so that both sides are read
    and written a cache line at a time (the small-set path reads the pattern matrix answer by
    answer), and present[code] = True for each code in those rows (which codes the matrix holds,
    as _codes_present, on the transposition's threads). Its own threads, not numba's pool: a build's
    start pays for neither that pool nor its load. It releases the GIL: the solver runs it in
    parts beside the rest of its setup."""
    cols = matrix.shape[1]
    tile = 64
    for r0 in range(start, stop, tile):
        r1 = min(r0 + tile, stop)
        for c0 in range(0, cols, tile):
            c1 = min(c0 + tile, cols)
            for c in range(c0, c1):
                for r in range(r0, r1):
                    out[c, r] = matrix[r, c]
    for r in range(start, stop):  # a pass of its own: in the tiles above it would stop their vectorizing
        row = matrix[r]
        for a in range(cols):
            present[row[a]] = True


def class_bounds(cap: int, n_answers: int, branching: int) -> np.ndarray:
    """bounds[d, c]: a lower bound on the cost of c answers with d guesses left, INF when no tree
    fits. Each node of a tree solves at most one answer (its own guess) and has at most
    `branching` non-winning children, so at most branching**(j-1) answers are solved by guess j;
    filling the levels greedily gives the least total. It equals 2c - 1 while c <= branching + 1,
    and is much stronger for games with few patterns (Mastermind: 13 non-winning ones)."""
    sizes = np.arange(n_answers + 1, dtype=np.int64)
    cost = np.zeros(n_answers + 1, dtype=np.int64)
    bounds = np.full((cap + 1, n_answers + 1), INF, dtype=np.int64)
    bounds[:, 0] = 0
    filled, width = 0, 1  # answers the levels above hold, answers this level can hold
    for level in range(1, cap + 1):
        cost += level * np.clip(sizes - filled, 0, width)
        filled = min(filled + width, n_answers)
        width = min(width * branching, n_answers)
        bounds[level, : filled + 1] = cost[: filled + 1]
    return bounds


def green_branching(length: int, greens: int, branching: int) -> int:
    """The most non-winning codes a node can have below a class whose code showed `greens`
    greens, in hard mode (the greens rule above), and never more than the game's `branching`."""
    free = length - greens
    return max(0, min(branching, 3**free - free - 1))


def green_class_bounds(cap: int, n_answers: int, length: int, branching: int) -> np.ndarray:
    """bounds[k, d, c]: class_bounds for a set of c answers that showed k greens in hard mode
    (k = 0 .. length), each with the branching green_branching allows (none with every
    position green: one answer at most, solved by the next guess)."""
    return np.stack([class_bounds(cap, n_answers, green_branching(length, k, branching)) for k in range(length + 1)])


def code_greens(n_codes: int, length: int) -> np.ndarray:
    """The greens each Wordle code shows (digit 2 of its base-3 positions)."""
    codes = np.arange(n_codes, dtype=np.int64)
    greens = np.zeros(n_codes, dtype=np.int64)
    for _ in range(length):
        greens += codes % 3 == 2
        codes //= 3
    return greens


# The search's phases (`_search`), in the order a node meets them: plain kernels of this module,
# so numba links them into `_search`'s LLVM module, where LLVM inlines the small ones and
# optimizes each big one (the scan) on its own. Each returns scalars (a node's verdict as a value, -1 when the phase
# did not settle the node). They take the Scratch's arrays they use, not the Scratch: a call
# that is not inlined passes every array of a tuple field by field. Measured against the search
# written whole (docs/log/2026-12-02.md): fewer instructions, and fewer than the same phases
# with numba's `inline="always"` or with `forceinline=True` (LLVM's alwaysinline).


@kernel
def _trivial(S, d, beta, forced, use_bounds, answer_gid, bounds):
    """The sets settled by their size alone: (value, best guess), value -1 when not settled."""
    n = S.size
    if forced < 0:
        if n == 1 and d >= 1:
            return 1, answer_gid[S[0]]
        if d <= 1:
            return INF, -1
        if n == 2:
            return 3, answer_gid[S[0]]
        if use_bounds and beta <= bounds[d, n]:
            return bounds[d, n], -1  # every set of n answers costs at least this (2n - 1 or more)
    elif d < 1:
        return INF, -1
    return -1, -1


@kernel
def _memo_probe(S, state, d, beta, deeper, mm, stats):
    """The memo's entry for (S, d), else for (S, d + 1) (USE_DEEPER: a bound): (hash, known
    lower bound, value, best guess), value -1 when the entry does not settle the node."""
    h = _set_hash(S, state, d, mm.set_keys, mm.state_keys, mm.depth_keys)
    slot = _memo_slot(S, state, d, h, mm.keys, mm.depth, mm.offset, mm.size, mm.pool)
    if slot >= 0:
        stats[ST_MEMO_HITS] += 1
        word = _atomic_load(mm.payload, slot)
        if _pay_exact(word):
            return h, 0, _pay_value(word), _pay_guess(word)
        if _pay_value(word) >= beta:
            return h, 0, _pay_value(word), -1
        return h, _pay_value(word), -1, -1
    if deeper and d + 1 < mm.depth_keys.size:
        h_deeper = _set_hash(S, state, d + 1, mm.set_keys, mm.state_keys, mm.depth_keys)
        slot = _memo_slot(S, state, d + 1, h_deeper, mm.keys, mm.depth, mm.offset, mm.size, mm.pool)
        if slot >= 0:
            stats[ST_MEMO_HITS] += 1
            word = _atomic_load(mm.payload, slot)
            if _pay_value(word) >= beta:
                return h, 0, _pay_value(word), -1
            return h, _pay_value(word), -1, -1
    return h, 0, -1, -1


@kernel
def _store(use_memo, S, state, d, h, value, exact, guess, mm, stats):
    """The node's value (exact) or lower bound, recorded in the memo when it is used."""
    if use_memo:
        _memo_store(S, state, d, h, value, exact, guess, mm.keys, mm.depth, mm.offset, mm.size, mm.payload, mm.pool,
                    mm.counters, stats)


@kernel
def _candidate_splitter(n, pos, L, L_ids, win_row, stamp, epoch):
    """A candidate splitting S into singletons (cost 2n - 1, the bound of every set: optimal),
    else the first candidate leaving exactly one pair (n - 1 classes): (guess, pair guess), the
    global ids, -1 for none."""
    pair_guess = -1
    for i in range(n):
        r = win_row[pos[i]]
        shared = _shared_codes(L[r], pos, stamp, epoch, 1)
        if shared == 0:
            return L_ids[r], pair_guess
        if shared == 1 and pair_guess < 0:
            pair_guess = L_ids[r]
    return -1, pair_guess


@kernel
def _two_left_splitter(S, pos, L, LT, L_ids, L_rows, use_cores, by_pairs, state, n_active, last_gid,
                       last_code, check_all, stamp, cnt, epoch, mark, collided, cores, core_len, core_count, active,
                       letters, counts, length):
    """With 2 guesses left: a guess giving each answer its own code (a global id), or -1; then
    the answers of each failing guess's first colliding pair are a subset no guess splits
    either, kept as a core (USE_CORES) when `use_cores`."""
    n_codes = stamp.size
    # Each guess that fails makes two answers collide; the answers of those pairs (marked
    # with `core_epoch`) are a subset no guess splits either: the core kept.
    core_epoch = epoch[0] + 1
    epoch[0] = core_epoch
    if by_pairs:
        r = _first_splitter(LT, pos, L_rows, S, mark, core_epoch, collided)
        if r >= 0:
            return L_ids[r]
    for r in range(0 if by_pairs else L_rows):
        if n_active and not _legal(L_ids[r], state, active, n_active, letters, counts, length):
            continue
        if last_gid >= 0 and _wordle_code(letters[last_gid], letters[L_ids[r]]) != last_code:
            continue
        if check_all and not _consistent(L_ids[r], state, letters, n_codes):
            continue
        i, j = _first_collision(L[r], pos, stamp, cnt, epoch)
        if i < 0:
            return L_ids[r]
        mark[S[i]] = core_epoch
        mark[S[j]] = core_epoch
    if use_cores:
        _remember_core(S, mark, core_epoch, cores, core_len, core_count)
    return -1


@kernel
def _scan(n, pos, L, LT, L_ids, L_rows, win_row, win, level, tight, child_bounds, relabel, by_answer, use_filter,
          use_shortcuts, keep_codes, candidates_only, state, n_active, last_gid, last_code, check_all, lbs, scores,
          stamp, cnt, epoch, dedupe_key, dedupe_val, dedupe_stamp, position_keys, C, C_ids, C_win, active, letters,
          counts, length):
    """One pass over the inherited guesses: copy each one's codes over S into this node's matrix
    C, count its classes, sum of squared class sizes and in-S flag, keep it or not (its bound and
    score in lbs[level] and scores[level]). Returns (kept, least bound, splitter): the splitter is
    a guess splitting S into singletons from outside S (global id, -1 for none; the pass stops
    at it).

    In normal mode only the partition matters below (which answers share a code, and which one
    wins), so codes are relabelled by first appearance, the winning code kept: guesses with the
    same partition then have equal rows and are kept once. Hard mode needs the real codes (they
    set the constraint) and keeps every guess."""
    n_codes = stamp.size
    label = np.empty(n_codes, dtype=np.int64)
    min_lb = INF
    m = 0
    de = epoch[0] + 1
    epoch[0] = de
    dmask = dedupe_key.size - 1
    for r in range(L_rows):
        if n_active and not _legal(L_ids[r], state, active, n_active, letters, counts, length):
            continue
        if last_gid >= 0 and _wordle_code(letters[last_gid], letters[L_ids[r]]) != last_code:
            continue
        if check_all and not _consistent(L_ids[r], state, letters, n_codes):
            continue
        row = L[r]
        out = C[m]
        e = epoch[0] + 1
        epoch[0] = e
        k = 0
        sq = 0
        bound_sum = 0
        win_at = -1
        other_classes = 0
        ph = np.uint64(0)
        for i in range(n):
            c = LT[pos[i], r] if by_answer else row[pos[i]]
            if stamp[c] != e:
                stamp[c] = e
                cnt[c] = 1
                if c == win or not relabel:
                    label[c] = c
                else:  # non-winning classes get 0, 1, 2, ... in order, skipping the win code
                    label[c] = other_classes if other_classes < win else other_classes + 1
                    other_classes += 1
                k += 1
            else:
                cnt[c] += 1
            out[i] = label[c]
            sq += 2 * cnt[c] - 1
            if tight and c != win:
                bound_sum += child_bounds[cnt[c]] - child_bounds[cnt[c] - 1]
            if c == win:
                win_at = i
            ph += position_keys[i] * np.uint64(label[c] + 1)
        in_s = 1 if win_at >= 0 else 0
        if use_filter and k == 1 and in_s == 0:
            continue
        if candidates_only and in_s == 0:
            continue  # not a candidate: not consistent with the feedback (children never see it)
        if use_filter and not keep_codes:
            # identical partition already kept? (hash to find, then compare codes to be sure)
            slot = np.int64(ph & np.uint64(dmask))
            duplicate = False
            while dedupe_stamp[slot] == de:
                if dedupe_key[slot] == ph:
                    other = C[dedupe_val[slot]]
                    same = True
                    for i in range(n):
                        if other[i] != out[i]:
                            same = False
                            break
                    if same:
                        duplicate = True
                        break
                slot = (slot + 1) & dmask
            if duplicate:
                continue
            dedupe_stamp[slot] = de
            dedupe_key[slot] = ph
            dedupe_val[slot] = m
        if use_shortcuts and k == n:
            # splits S into singletons from outside S (inside was ruled out above): optimal.
            return m, min_lb, L_ids[r]
        lb = min(n + bound_sum, INF) if tight else 3 * n - k - in_s
        C_ids[m] = L_ids[r]
        if win_at >= 0:
            C_win[win_at] = m
        lbs[level, m] = lb
        scores[level, m] = 2 * sq + n * lb
        m += 1
        if lb < min_lb:
            min_lb = lb
    return m, min_lb, -1


@kernel
def _keep_top(C, C_ids, C_win, m, n, top_codes, top_ids, top_win, top_info):
    """KEEP_TOP: the top node's matrix, guesses and winning rows, copied into the scratch."""
    if top_codes.size < m * n:
        return
    for r in range(m):
        for i in range(n):
            top_codes[r * n + i] = C[r, i]
        top_ids[r] = C_ids[r]
    for i in range(n):
        top_win[i] = C_win[i]
    top_info[0] = m


@kernel
def _order(lbs, scores, m, beta, forced, use_bounds):
    """The guesses to try, most promising first: (keys, count, fail). keys[i] = score << 16 | row
    for the rows whose bound is below the budget (a slot 0 left for the forced guess), the
    least first and the rest unsorted; fail is the least bound of those left out (INF if none)."""
    fail = INF
    keys = np.empty(max(m, 1), dtype=np.int64)
    t = 0
    if forced >= 0:
        t = 1
    for i in range(m):
        if use_bounds and lbs[i] >= beta:
            if lbs[i] < fail:
                fail = lbs[i]
            continue
        keys[t] = (scores[i] << 16) | i
        t += 1
    # The first guess is usually the best or close to it, and its total prunes most of the rest
    # by their bounds: so only it is picked before the loop, the others sorted once it is known.
    if t > 1:
        first = 0
        for j in range(1, t):
            if keys[j] < keys[first]:
                first = j
        keys[0], keys[first] = keys[first], keys[0]
    return keys, t, fail


@kernel
def _drop_beaten(keys, t, lbs, best, fail, use_bounds):
    """Once the first guess's total is known: the others whose bound reaches it dropped (fail
    lowered to the least of their bounds), the rest kept in keys[1:count]. Returns (count, fail)."""
    kept = 1
    for i in range(1, t):
        lb = lbs[keys[i] & 0xFFFF]
        if use_bounds and lb >= best:
            if lb < fail:
                fail = lb
            continue
        keys[kept] = keys[i]
        kept += 1
    return kept, fail


@kernel
def _partition_seen(C, r, colpos, win, tried, tried_keys, tried_rows, position_keys, stamp, cnt, epoch):
    """Without the scan's copy identical partitions were not merged: whether guess r splits S as
    one tried before it with the same score (those are in tried_*, `tried` of them) did; if not
    it is added. Returns (seen, tried)."""
    pk = _partition_key(C[r], colpos, win, position_keys, stamp, cnt, epoch)
    for q in range(tried):
        if tried_keys[q] == pk and _same_partition(C[r], C[tried_rows[q]], colpos, win, stamp, cnt, epoch):
            return True, tried
    tried_keys[tried] = pk
    tried_rows[tried] = r
    return False, tried + 1


@kernel
def _classes_bound(k, class_code, class_size, win, n, child_bounds, code_greens):
    """The class bound of a guess: |S| + the least cost of each non-winning class (child_bounds:
    by the greens of its code, then its size)."""
    running = np.int64(n)
    for q in range(k):
        if class_code[q] != win:
            running += child_bounds[code_greens[class_code[q]], class_size[q]]
    return running


@kernel
def _child_state(hard, ultra, level, gid, code, n_codes, req, last_step, letters, length):
    """The constraint of the child after guess gid got `code` (hard mode), or its history
    (ultra mode), in req[level + 1]."""
    if hard:
        _constrain(req[level], req[level + 1], letters[gid], code, length)
    elif ultra:
        _record_step(req[level], req[level + 1], gid * n_codes + code)
        last_step[level + 1, 0] = gid
        last_step[level + 1, 1] = code


@kernel
def _set_greens(S, req, answer_gid, letters):
    """The greens a set shows under a hard-mode constraint: the positions the constraint fixes
    where every answer of S has that letter (whatever set a caller gives, with whatever
    constraint)."""
    greens = 0
    for i in range(letters.shape[1]):
        if req[i] < 0:
            continue
        every = True
        for a in S:
            if letters[answer_gid[a], i] != req[i]:
                every = False
                break
        if every:
            greens += 1
    return greens


@kernel(nogil=True)
def _solve(S, pos, d, beta, level, L, LT, L_ids, L_rows, win_row, forced, answer_gid, win, rules, sc, mm, letters,
           counts):
    """V(S, d) if it is below beta, else a lower bound >= beta; the best guess (a global guess id)
    is left in best_out[level], -1 when none was proven below beta. With forced >= 0 (a row of L),
    the cost of opening with that guess instead, same contract. `sc` is the thread's Scratch, `mm`
    the Memo it reads and fills.

    What Python calls: `_search` on the same arguments, every array borrowed (`_borrowed`: the
    caller holds them until this returns), so that the search's views of them carry no
    reference count."""
    if sc.green_bounds.shape[0] > 1:  # hard mode, bounds by greens: the greens this set shows
        sc.level_greens[level] = _set_greens(S, sc.req[level], answer_gid, letters)
    return _search(_borrowed(S), _borrowed(pos), d, beta, level, _borrowed(L), _borrowed(LT), _borrowed(L_ids),
                   L_rows, _borrowed(win_row), forced, _borrowed(answer_gid), win, rules, _borrowed(sc),
                   _borrowed(mm), _borrowed(letters), _borrowed(counts))


@kernel(nogil=True)
def _search(S, pos, d, beta, level, L, LT, L_ids, L_rows, win_row, forced, answer_gid, win, rules, sc, mm, letters,
            counts):
    """`_solve` (its contract), on arrays that may carry no reference count.

    The node sees the guesses through a local matrix L: its first L_rows rows are the guesses
    still worth trying (global ids L_ids), its columns the parent's answers, and pos says which
    columns are this node's answers S; win_row[col] is the row of the guess equal to that
    column's answer. A node that scans the guesses copies the codes of those it keeps over its
    own answers into a new, smaller matrix for its children, so deep nodes read a few kilobytes
    that stay in cache instead of scattered bytes of the full matrix. LT is the same local
    matrix stored by answers (empty in hard and ultra modes), from which a node of at most
    PAIR_LIMIT answers counts pairs instead of scanning.

    The phases are the helpers above; what is left here is their order and the recursion. One
    self-recursive function on purpose: numba's cache mishandles mutual recursion; the recursive
    call passes variables, never literals."""
    lbs, scores, cls, cls_pos = sc.lbs, sc.scores, sc.cls, sc.cls_pos
    class_start, class_size, class_code = sc.class_start, sc.class_size, sc.class_code
    stamp, cnt, epoch, position_keys, identity = sc.stamp, sc.cnt, sc.epoch, sc.position_keys, sc.identity
    best_out, stats, req = sc.best_out, sc.stats, sc.req
    # the class bounds (the scan's and the pair counts', as in every mode), and by greens: this
    # set's own (its greens' row, in hard mode) and each class's in the guess loop
    green_bounds, code_greens = sc.green_bounds, sc.code_greens
    bounds = green_bounds[0]
    own_bounds = green_bounds[sc.level_greens[level]]
    n = S.size
    no_guess = forced - forced - 1  # -1, as a variable (see the docstring)
    use_bounds = (rules & USE_BOUNDS) != 0
    use_memo = (rules & USE_MEMO) != 0 and forced < 0
    use_shortcuts = (rules & USE_SHORTCUTS) != 0
    use_filter = (rules & USE_FILTER) != 0
    hard = (rules & HARD_MODE) != 0
    ultra = (rules & ULTRA_MODE) != 0
    keep_codes = hard or ultra
    candidates_only = (rules & CANDIDATE_GUESSES) != 0
    given_top = (rules & GIVEN_TOP) != 0 and level == 0 and not ultra and not candidates_only
    # Hard and ultra modes: only guesses meeting this node's constraint (ultra: the sorted
    # history) are legal (candidates always are); the constraint is part of the memo key, and
    # guesses with equal partitions are not interchangeable (they leave different constraints),
    # so they are all kept. A guess leaving S whole is still useless: it only narrows the legal
    # guesses and spends a turn.
    length = letters.shape[1]
    state = req[level] if keep_codes else req[level, :0]
    # Ultra mode: the guesses this node inherits met every step but the last (at the top, none
    # is known to be met, so the whole history is checked).
    n_codes = stamp.size
    last_gid = sc.last_step[level, 0] if ultra and level > 0 else -1
    last_code = sc.last_step[level, 1]
    check_all = ultra and level == 0
    active = np.empty(req.shape[1], dtype=np.int64)
    n_active = _active_constraints(state, length, active) if hard else 0
    stats[ST_NODES] += 1
    best_out[level] = -1
    value, guess = _trivial(S, d, beta, forced, use_bounds, answer_gid, own_bounds)
    if value >= 0:
        best_out[level] = guess
        return value
    h = np.uint64(0)
    known_lb = 0
    if use_memo:
        h, known_lb, value, guess = _memo_probe(S, state, d, beta, (rules & USE_DEEPER) != 0, mm, stats)
        if value >= 0:
            best_out[level] = guess
            return value

    # The matrix the children will read: by default this node's own (built below).
    C = L
    CT = LT
    paired = False  # bounds from pair counts, no scan (below)
    by_answers_later = False  # this node's matrix is to be stored by answers for its children (below)
    C_ids = L_ids
    C_rows = L_rows
    C_win = win_row
    colpos = pos
    m = 0
    if forced < 0:
        result = INF
        result_guess = -1
        if use_shortcuts or d == 2:
            # Failing a candidate splitting S into singletons every guess costs at least 2n, and
            # a candidate leaving exactly one pair (n - 1 classes) costs 2n: optimal too, with 3
            # guesses left.
            result_guess, pair_guess = _candidate_splitter(n, pos, L, L_ids, win_row, stamp, epoch)
            if result_guess >= 0:
                result = 2 * n - 1
            if result_guess < 0 and d >= 3 and use_shortcuts:
                if pair_guess >= 0:
                    result = 2 * n
                    result_guess = pair_guess
                elif use_bounds and beta <= 2 * n:
                    return 2 * n
            # (guessing only candidates, the loop above tried every legal guess: with 2 guesses
            # left a set without a candidate splitting it is infeasible, and no core is kept)
            use_cores = (rules & USE_CORES) != 0 and not keep_codes and not candidates_only
            if result_guess < 0 and d == 2 and not candidates_only:
                known_core = use_cores and _holds_a_core(S, sc.cores, sc.core_len, sc.core_count, sc.mark, epoch)
                if not known_core:
                    by_pairs = ((rules & USE_PAIR_SCAN) != 0 and not keep_codes and n <= SPLIT_PAIRS
                                and LT.shape[0] > 0)
                    result_guess = _two_left_splitter(S, pos, L, LT, L_ids, L_rows, use_cores, by_pairs, state,
                                                      n_active, last_gid, last_code, check_all, stamp, cnt, epoch,
                                                      sc.mark, sc.pair_bytes[3], sc.cores, sc.core_len, sc.core_count,
                                                      active, letters, counts, length)
                    if result_guess >= 0:
                        result = 2 * n
        # (past PAIR_BYTES answers only under a budget: without one the counts rarely settle a set)
        use_pairs = ((rules & USE_PAIRS) != 0 and use_bounds and use_shortcuts and use_filter and not keep_codes
                     and not candidates_only
                     and (n <= PAIR_BYTES or (n <= PAIR_LIMIT and beta < INF)) and LT.shape[0] > 0
                     and bounds[d - 1, n] == 2 * n - 1)
        if result_guess < 0 and d > 2 and use_pairs and not given_top:
            # Pair counts give every guess's class count, in-S flag and sum of squared class sizes
            # (|S| + 2 * pairs), hence its bound and score, without copying the matrix. That
            # settles the node when the bound prunes it, when a guess splits S into singletons
            # (the first in order, as the scan below would take), or when the guess the loop
            # below would try first has only classes of 1 or 2 (its cost is then its bound) and
            # its bound is the least: every other guess is then skipped by its bound anyway.
            if n <= PAIR_BYTES:
                splitter, min_lb, top, top_lb, top_exact = _pair_bounds(LT, pos, L_rows, win, beta, sc.pair_bytes,
                                                                        lbs[level], scores[level])
            else:
                splitter, min_lb, top, top_lb, top_exact = _pair_bounds(LT, pos, L_rows, win, beta, sc.pair_words,
                                                                        lbs[level], scores[level])
            if splitter >= 0:
                result = 2 * n
                result_guess = L_ids[splitter]
            if result_guess < 0:
                node_lb = max(min_lb, known_lb)
                if node_lb >= beta:
                    _store(use_memo, S, state, d, h, node_lb, False, -1, mm, stats)
                    return node_lb
                if top_exact and top_lb == node_lb:
                    stats[ST_GUESSES_EVALUATED] += 1
                    result = top_lb
                    result_guess = L_ids[top]
                else:
                    # Not settled: the guess loop below takes the bounds and scores just computed,
                    # reads the guesses' codes from the inherited matrix, and hands that matrix
                    # to the children; no scan, no copy (identical partitions are then skipped in
                    # the loop).
                    paired = True
                    m = L_rows
        if result_guess < 0 and d > 2 and not paired:
            # Past branching + 1 answers the class bound grows faster than 2c - 1 (few-pattern
            # games): then sum it class by class instead of using 3n - k - [g in S].
            child_bounds = bounds[d - 1]
            tight = child_bounds[n] != 2 * n - 1
            if given_top:  # the scan is given (KEEP_TOP): L is its matrix, its rows' bounds in lbs[0]
                m = L_rows
                min_lb = INF
                for i in range(m):
                    if lbs[level, i] < min_lb:
                        min_lb = lbs[level, i]
            else:
                C = np.empty((L_rows, n), dtype=L.dtype)
                C_ids = np.empty(L_rows, dtype=L_ids.dtype)
                C_win = np.full(n, -1, dtype=win_row.dtype)
                colpos = identity[:n]
                # Read the codes answer by answer from the copy by columns when the rows are much
                # longer than S (the full matrix at the top): n runs of contiguous bytes instead
                # of n scattered bytes of every row, each from its own cache line.
                by_answer = LT.shape[0] > 0 and L.shape[1] >= 16 * n
                m, min_lb, splitter = _scan(n, pos, L, LT, L_ids, L_rows, win_row, win, level, tight, child_bounds,
                                            not keep_codes, by_answer, use_filter, use_shortcuts, keep_codes,
                                            candidates_only, state, n_active, last_gid, last_code, check_all, lbs,
                                            scores, stamp, cnt, epoch, sc.dedupe_key, sc.dedupe_val, sc.dedupe_stamp,
                                            position_keys, C, C_ids, C_win, active, letters, counts, length)
                if splitter >= 0:
                    result = 2 * n
                    result_guess = splitter
            C_rows = m
            if (rules & KEEP_TOP) != 0 and level == 0 and result_guess < 0:
                _keep_top(C, C_ids, C_win, m, n, sc.top_codes, sc.top_ids, sc.top_win, sc.top_info)
            CT = np.empty((0, 0), dtype=L.dtype)  # none, unless the children can use it:
            if result_guess < 0 and d > 3 and (rules & USE_PAIRS) != 0 and not keep_codes and not candidates_only:
                CT = _by_answers(C, m)
            # with 3 guesses left, only once a child is searched (many nodes end before any is)
            by_answers_later = d == 3 and (rules & USE_PAIR_SCAN) != 0 and not keep_codes and not candidates_only
            if result_guess < 0:
                node_lb = max(min_lb, known_lb) if use_bounds else 0
                if node_lb >= beta:
                    _store(use_memo, S, state, d, h, node_lb, False, -1, mm, stats)
                    return node_lb
        if result_guess >= 0 or d == 2:
            _store(use_memo, S, state, d, h, result, True, result_guess, mm, stats)
            best_out[level] = result_guess
            return result

    # The guesses to try, most promising first: those whose bound is below the budget, or the one forced.
    keys, t, fail = _order(lbs[level], scores[level], m, beta, forced, use_bounds)
    best = np.int64(beta)
    best_g = -1
    tried_rows = np.empty(t if paired else 0, dtype=np.int64)
    tried_keys = np.empty(t if paired else 0, dtype=np.uint64)
    tried = 0
    group_score = -1
    at = -1  # the candidate being tried (a while loop: t shrinks once the first is known)
    while at + 1 < t:
        at += 1
        if at == 1:
            t, fail = _drop_beaten(keys, t, lbs[level], best, fail, use_bounds)
            keys[1:t].sort()  # (here, not in the phase: numba compiles the sort inlined or not as its first caller is)
        r = forced
        if forced < 0:
            r = keys[at] & 0xFFFF
            if use_bounds and lbs[level, r] >= best:
                if lbs[level, r] < fail:
                    fail = lbs[level, r]
                continue
            if paired:
                if keys[at] >> 16 != group_score:
                    group_score = keys[at] >> 16
                    tried = 0
                seen, tried = _partition_seen(C, r, colpos, win, tried, tried_keys, tried_rows, position_keys, stamp,
                                              cnt, epoch)
                if seen:
                    continue
        # Cost of guess r: start from the class bound |S| + sum(2c - 1), then replace each class's
        # bound by its value, smallest classes first (they refute a losing guess soonest).
        stats[ST_GUESSES_EVALUATED] += 1
        k = _partition(S, pos, C[r], colpos, cls[level], cls_pos[level], class_start[level], class_size[level],
                       class_code[level], stamp, cnt, epoch)
        child_bounds = green_bounds[:, d - 1]
        running = _classes_bound(k, class_code[level], class_size[level], win, n, child_bounds, code_greens)
        for j in range(k):
            # With 3 guesses left a class either has a perfect splitter or is infeasible: the
            # largest classes fail most often, so they go first; otherwise smallest first.
            q = k - 1 - j if d == 3 else j
            c = class_size[level, q]
            if class_code[level, q] == win or c == 1:
                continue  # a singleton costs one guess, exactly its bound
            if c == 2 and d >= 3:
                continue  # guess one of the two: 3, exactly its bound
            if use_bounds and running >= best:
                break
            greens = code_greens[class_code[level, q]]
            lbc = child_bounds[greens, c]
            a = class_start[level, q]
            child_beta = best - (running - lbc) if use_bounds else INF
            _child_state(hard, ultra, level, C_ids[r], class_code[level, q], n_codes, req, sc.last_step, letters,
                         length)
            sc.level_greens[level + 1] = greens
            if by_answers_later:
                CT = _by_answers(C, C_rows)  # for the children's search of a splitter (_first_splitter)
                by_answers_later = False
            v = _search(cls[level, a:a + c], cls_pos[level, a:a + c], d - 1, child_beta, level + 1, C, CT, C_ids,
                        C_rows, C_win, no_guess, answer_gid, win, rules, sc, mm, letters, counts)
            running += v - lbc
        if forced >= 0:
            return running
        if running < best:
            best = running
            best_g = C_ids[r]
        elif running < fail:
            fail = running
    if best < beta:
        _store(use_memo, S, state, d, h, best, True, best_g, mm, stats)
        best_out[level] = best_g
        return best
    _store(use_memo, S, state, d, h, fail, False, -1, mm, stats)
    return fail


@kernel(parallel=True)
def _partition_stats(P, S, win, n_codes, classes, squares, largest, entropy, in_s):
    """Per guess over the answers S: class count, sum of squared class sizes, largest class,
    entropy of the class distribution (bits) and whether the guess is in S. Feeds the heuristic
    orders and the greedy baselines."""
    n = S.size
    for g in prange(P.shape[0]):
        counts = np.zeros(n_codes, dtype=np.int64)
        row = P[g]
        for a in S:
            counts[row[a]] += 1
        k = 0
        sq = 0
        big = 0
        h = 0.0
        for c in range(n_codes):
            m = counts[c]
            if m > 0:
                k += 1
                sq += m * m
                big = max(big, m)
                h -= (m / n) * np.log2(m / n)
        classes[g] = k
        squares[g] = sq
        largest[g] = big
        entropy[g] = h
        in_s[g] = counts[win] > 0
