"""Every numba kernel of Hangman, in one module (numba's disk cache does not see edits across files).

A candidate set lives in `buf[depth][start:start+size]` as ascending word numbers; splitting it by
a letter writes the classes, still ascending, into the same range of `buf[depth+1]`, so children
never overlap their parent and need no allocation. Costs are integers: every wrong guess costs
`miss_cost` per unit of weight and every lost word `lost_cost` more (see search.py for the values
that make the order "largest expected score, then fewest wrong guesses" exact).
The slow, obviously-correct twins of these kernels are in tests/reference_hangman.py.

Why the memo keys on (set, strikes left) and not on the letters guessed: a guessed letter that
missed is in no candidate, and one that hit stands at the same positions in every candidate, so
neither can split the set again; guessing it costs nothing or a miss and teaches nothing, and no
optimal tree does that. The letters still worth guessing are exactly the useful ones of the set.
The value is NOT monotone in the strikes left, so no entry stands in for another strike count: a
lost word costs its misses too, so more lives can cost more (a 100-word family `?at` with one
strike: 1 word won, 99 lost at 1 miss; with two: 2 won, 98 lost at 2 misses, a lower score).
Except where no word can be lost: every count of strikes above the most misses a word of the set
can make is one state, keyed by the least of them (_strikes_that_count). Sets of two words are
solved in closed form (_pair_cost) and never stored.

The search's kernels take their arrays in named bundles, by role (numba reads a NamedTuple's field
at no cost): Words (the game, read only), Families (the family bound's), Terms (the costs and the
search's switch), Scratch (the sets and their splits), Search (the exact search's own rows and
counters) and MemoEntries (the memo's entries; its hash table beside them). The Python side
(search.py, memo.py) builds each where it allocates the arrays, and a new array is a field in one
place, not an argument in every call. What changes from call to call (depth, start, size, strikes
left, limit) stays a plain argument. Why several bundles and not one, and why _child_bound is
inlined: at each call numba counts a reference to every array of every bundle the called function
holds across a call of its own, so a step run once a class takes only the bundles it reads, and the
search's step for each class of each letter is no call at all (docs/log/2026-12-02.md).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import INF64, kernel


INF = np.int64(INF64)  # (jit.py: the kernels' one convention)
RULE_FREQUENCY = 0
RULE_ENTROPY = 1
# ctr slots
NODES, MAX_NODES, ABORTED, ENTRIES = 0, 1, 2, 3
# the index of a 32-bit number's only set bit b, at (b * 0x077CB531 mod 2**32) >> 27 (a de Bruijn sequence)
_BIT_INDEX = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                       31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


class Words(NamedTuple):
    """The words of one game as the kernels read them; never written. masks[w, c]: the bit set of
    the places of letter c in word w; weights[w]; letters[w]: w's letters as a bit set, and their
    count shifted left by 26 (_strikes_that_count); spelled[w, p]: w's letter at p (0 for a)."""

    masks: np.ndarray
    weights: np.ndarray
    letters: np.ndarray
    spelled: np.ndarray


class Families(NamedTuple):
    """What _family_bound reads (families, rank_weight, rank_word: no columns in families when that
    bound is off) and its scratch (fam_keys, fam_sums); see there."""

    families: np.ndarray
    rank_weight: np.ndarray
    rank_word: np.ndarray
    fam_keys: np.ndarray
    fam_sums: np.ndarray


class Terms(NamedTuple):
    """What a tree costs, and how the search may cut: every wrong guess costs miss_cost per unit of
    weight and every lost word lost_cost more; free_first: a free letter alone is tried (_solve)."""

    miss_cost: int
    lost_cost: int
    free_first: bool


class Scratch(NamedTuple):
    """The sets and their splits, row d of each for the set at depth d: buf[d] holds the sets (see
    above); slot: one entry per mask, all -1 between calls (_partition); cls_mask, cls_start,
    cls_fill: a split's classes; stat_miss, stat_useful: a set's _letter_stats."""

    buf: np.ndarray
    slot: np.ndarray
    cls_mask: np.ndarray
    cls_start: np.ndarray
    cls_fill: np.ndarray
    stat_miss: np.ndarray
    stat_useful: np.ndarray


class Search(NamedTuple):
    """The exact search's own rows and counters: order[d]: the letters to try at depth d;
    child_lb[d]: their classes' bounds; chosen[d]: the first letter of the set at depth d once
    solved; ctr: NODES, MAX_NODES, ABORTED (and the memo's ENTRIES)."""

    order: np.ndarray
    child_lb: np.ndarray
    chosen: np.ndarray
    ctr: np.ndarray


class MemoEntries(NamedTuple):
    """The memo's entries, entry e at index e of each (memo.MEMO_ARRAYS: the same names, with their
    dtypes): hash, set size, strikes that count, value or lower bound, exact?, first letter, the
    bit set of the letters of one mask, and one word of the set (see the memo's section below)."""

    e_hash: np.ndarray
    e_size: np.ndarray
    e_r: np.ndarray
    e_val: np.ndarray
    e_exact: np.ndarray
    e_letter: np.ndarray
    e_fixed: np.ndarray
    e_model: np.ndarray


# ----------------------------------------------------------------------------------------------
# splitting a set by a letter
# ----------------------------------------------------------------------------------------------
@kernel(nogil=True)
def _partition(masks, src, dst, start, size, letter, slot, cls_mask, cls_start, cls_fill):
    """Stable split of src[start:start+size] by the mask of `letter` into dst[start:start+size].
    Class k (masks ascending, so a miss class is class 0) is dst[cls_start[k]:cls_start[k+1]].
    `slot` (one entry per possible mask, all -1) is restored before returning."""
    n = 0
    for i in range(start, start + size):
        m = masks[src[i], letter]
        if slot[m] < 0:
            slot[m] = n
            cls_mask[n] = m
            cls_fill[n] = 0
            n += 1
        cls_fill[slot[m]] += 1
    # sort the n distinct masks ascending (n is small), carrying their counts
    for i in range(1, n):
        m = cls_mask[i]
        f = cls_fill[i]
        j = i - 1
        while j >= 0 and cls_mask[j] > m:
            cls_mask[j + 1] = cls_mask[j]
            cls_fill[j + 1] = cls_fill[j]
            j -= 1
        cls_mask[j + 1] = m
        cls_fill[j + 1] = f
    pos = start
    for k in range(n):
        slot[cls_mask[k]] = k
        cls_start[k] = pos
        pos += cls_fill[k]
        cls_fill[k] = cls_start[k]
    cls_start[n] = pos
    for i in range(start, start + size):
        w = src[i]
        k = slot[masks[w, letter]]
        dst[cls_fill[k]] = w
        cls_fill[k] += 1
    for k in range(n):
        slot[cls_mask[k]] = -1
    return n


@kernel(nogil=True)
def _letter_stats(masks, weights, members, start, size, miss_w, useful):
    """miss_w[c]: weight of the words without letter c; useful[c]: c splits the set (two masks
    differ). A letter that is not useful is never worth guessing: it either costs a miss and
    teaches nothing, or is free and teaches nothing, so the set and lives stay as they were."""
    first = masks[members[start]]
    for c in range(26):
        miss_w[c] = 0
        useful[c] = 0
    for i in range(start, start + size):
        w = members[i]
        row = masks[w]
        wt = weights[w]
        for c in range(26):
            m = row[c]
            miss_w[c] += wt * (m == 0)
            useful[c] |= m != first[c]


@kernel(nogil=True)
def _set_weight(weights, members, start, size):
    t = np.int64(0)
    for i in range(start, start + size):
        t += weights[members[i]]
    return t


@kernel(nogil=True)
def _strikes_that_count(letters, members, start, size, r):
    """The strikes left that can matter to the set: r, or one more than the most misses any of its
    words can make, if that is fewer. A word's misses are distinct letters of other candidates
    that it lacks (a letter no candidate holds is never worth guessing, see _letter_stats), so with
    more strikes than that no word of the set can be lost by any tree, every tree costs the same
    with any such r, and the memo keys all of them as one state. letters[w]: the bit set of w's
    letters, and its count of distinct letters shifted left by 26."""
    union = np.int64(0)
    fewest = np.int64(26)
    for i in range(start, start + size):
        x = letters[members[i]]
        union |= x
        if (x >> 26) < fewest:
            fewest = x >> 26
    union &= (np.int64(1) << 26) - 1
    held = np.int64(0)
    while union:
        union &= union - 1
        held += 1
    most_misses = held - fewest
    return min(r, most_misses + 1)


@kernel(nogil=True)
def _pair_cost(masks, weights, members, start, r, miss_cost, lost_cost):
    """(least cost, first letter) of a set of two words with r >= 1 strikes left, without a search:
    0 if a letter of both stands at different places in them (it tells them apart with no miss),
    else the lighter word's miss (and loss, with one strike left). Why: two words of one length
    differ at some place, and its letter in the first word either is also in the second elsewhere
    (the free case) or is not at all, so a letter of one word only always exists; guessing one
    makes the other word miss once, and then it is the only candidate left. The letter is the one
    _solve would pick: the first, alphabetically, of those with the least missing weight."""
    a = members[start]
    b = members[start + 1]
    wa = weights[a]
    wb = weights[b]
    letter = -1
    for c in range(26):
        ma = masks[a, c]
        mb = masks[b, c]
        if ma != mb and ma != 0 and mb != 0:
            return np.int64(0), c
        if letter < 0 and ma != mb and (wb < wa and ma != 0 or wa < wb and mb != 0 or wa == wb):
            letter = c  # a letter of one word only, whose miss weighs least
    lighter = min(wa, wb)
    return lighter * miss_cost + (lighter * lost_cost if r == 1 else np.int64(0)), letter


@kernel(nogil=True)
def _insert_descending(ranked, k, v):
    """Put v into ranked[:k] (largest first), which then has k + 1 entries."""
    j = k
    while j > 0 and ranked[j - 1] < v:
        ranked[j] = ranked[j - 1]
        j -= 1
    ranked[j] = v


@kernel(nogil=True)
def _static_bound(masks, weights, members, start, size, r, miss_cost, lost_cost, miss_w, useful):
    """A lower bound on the cost of a set of two or more words with r >= 1 strikes left: the cost of
    its "miss spine", the path a tree follows while every guess misses.

    Why it is sound: some optimal tree guesses only letters useful here (a useless guess can be
    dropped at no cost, and a letter useful in a subset is useful in the set). Along the spine the
    guesses c1, c2, ... are distinct useful letters, so there are at most k of them (k = the number
    of useful letters), and the words left after j misses avoid c1..cj, so they weigh at least
    W - (the j largest letter covers), a cover being the weight of the words containing the
    letter. Each of them pays a miss at step j (and at step r is lost). Step j happens whenever two
    or more words are left before it, which is certain when the bound on what is left exceeds the
    heaviest single word."""
    _letter_stats(masks, weights, members, start, size, miss_w, useful)
    total = np.int64(0)
    heaviest = np.int64(0)
    for i in range(start, start + size):
        w = weights[members[i]]
        total += w
        if w > heaviest:
            heaviest = w
    covers = np.empty(26, dtype=np.int64)
    k = 0
    for c in range(26):
        if useful[c]:
            _insert_descending(covers, k, total - miss_w[c])
            k += 1
    bound = np.int64(0)
    covered = np.int64(0)
    left = total
    for step in range(1, min(r, k) + 1):
        if left <= heaviest:  # perhaps a single word is left: the spine may stop here
            break
        covered += covers[step - 1]
        left = total - covered
        if left <= 0:
            break
        bound += left * miss_cost
        if step == r:
            bound += left * lost_cost
    return bound


@kernel(nogil=True)
def _cover_common_letters(covers, p, word, g):
    """Add g to the covers at p of each letter of `word` (its letters, position by position) but its
    letter at p, which is nowhere else in it: the letters its family has in common. Each once."""
    seen = np.int64(0)
    for q in range(word.size):
        c = word[q]
        if q != p and not (seen >> c) & 1:
            seen |= np.int64(1) << c
            covers[p, c] += g


@kernel(nogil=True)
def _family_bound(words, families, terms, members, start, size, r, miss_w, useful):
    """A lower bound on the cost of the set from its families: for a position p, the words that
    agree everywhere but at p, each of whose letters at p is found nowhere else in the word;
    and from the other misses, those that tell the families apart.

    Why it is sound: the least cost is superadditive over any partition of the set (a tree for
    the set, followed by the words of one part only, is a tree for the part whose every word pays
    what it paid), so the families' least costs add up to at most the set's. In a family only the
    letters at p tell the words apart, and each is in one word alone, so the words' letters are
    first guessed in some order, each word missing every letter guessed before its own: the
    word whose letter comes j-th makes j misses (lost with r misses if j >= r), heaviest first is
    the cheapest order. A word whose letter at p is elsewhere in it too is a family of its own.
    The spine bound sums letter covers over the whole set, so one letter seems to find many
    words at once; here `?at` (bat, cat, fat, ...) costs what it costs in any tree.

    The other misses, at letters outside a word and its family's letters at p, are counted
    apart, for the words that can still be won (j < r; in any order, each family's min(size, r)
    lightest words weigh at least as much as those), like the miss spine (_static_bound): along
    the path where every guess misses, the guesses c1, c2, ... are distinct useful letters, and
    the words that meet cj there outside their family's letters weigh at least the winnable
    weight less the j largest covers, a word covering its letters and its family's letters at p.
    Every family's words miss alike there, so the lightest words stand for whichever can still
    be won. A word may be charged its family misses (below r) and these (at most r) together,
    while a lost word pays r misses and a loss: this part counts when (r - 1) misses cost no
    more than a loss. The bound is the best over the positions.

    families.families[w, p]: w's family at p (the number of its first word) shifted left past
    the bits of a word number, or'ed with w's rank by weight (heaviest first), or -1 if w is a
    family of its own at p wherever it is (its letter at p is elsewhere in it, or no other word is
    in its family); rank_weight[k], rank_word[k]: the weight and the number of the word of rank k;
    words.spelled[w]: w's letters, position by position; miss_w, useful: the set's _letter_stats.
    fam_keys (2 * length * n + 1 entries, kept from call to call): when every word weighs the
    same, the count of the words met in family f at p, and the bit set of their letters at p, are
    in entry p * n + f, tagged with the call's number (entry length * n) so that no entry needs
    clearing, and the entries after the tag list the families met twice or more; else scratch for
    sorting. fam_sums: scratch of length + 1 rows of 28 entries.

    The covers start as the whole set's, every word standing for itself, and only a family of
    two or more words here changes them (of more than r, its common letters too): so a word in
    no such family costs no more than before, and the other misses are counted only at the
    positions with such a family (elsewhere they are the miss spine's, less its losses)."""
    weights = words.weights
    spelled = words.spelled
    rank_weight = families.rank_weight
    rank_word = families.rank_word
    fam_keys = families.fam_keys
    fam_sums = families.fam_sums
    families = families.families
    miss_cost = terms.miss_cost
    lost_cost = terms.lost_cost
    n = rank_weight.size
    length = families.shape[1]
    shift = 0
    while (1 << shift) < n:
        shift += 1
    low = (np.int64(1) << shift) - 1
    covers = fam_sums[:length, :26]  # at each p: the covers of the weight standing for the winnable words,
    winnable = fam_sums[:length, 26]  # that weight,
    totals = fam_sums[:length, 27]  # and the family misses and losses, then the other misses
    totals[:] = 0
    shared = 0  # the bit set of the positions with a family of two or more words here
    if rank_weight[0] == rank_weight[n - 1]:  # every word weighs the same: any order is heaviest first
        wt = heaviest = rank_weight[0]
        tag = fam_keys[length * n] + 1
        if tag >= np.int64(1) << 30:  # the tags ran out: start again from clear counts
            fam_keys[: length * n] = 0
            tag = 1
        fam_keys[length * n] = tag
        grown = fam_keys[length * n + 1:]  # the entries of the families that reached two words
        m = 0
        for i in range(start, start + size):
            w = members[i]
            row = families[w]
            for p in range(length):
                v = row[p]
                if v >= 0:
                    e = p * n + (v >> shift)
                    old = fam_keys[e]
                    if old >> 32 != tag:
                        old = 0
                    j = old & 31  # the count; above it, the bit set of the family's letters at p
                    fam_keys[e] = (tag << 32) | (old & ~np.int64(31)) | (np.int64(1) << (5 + spelled[w, p])) | (j + 1)
                    if j > 0:
                        totals[p] += wt * (r * miss_cost + lost_cost) if j >= r else wt * j * miss_cost
                        if j == 1:
                            grown[m] = e
                            m += 1
        if m == 0 or (r - 1) * miss_cost > lost_cost:
            return totals.max() if length else np.int64(0)
        for i in range(m):
            e = grown[i]
            p = e // n
            if not (shared >> p) & 1:
                shared |= 1 << p
                _whole_set_covers(covers[p], winnable, p, miss_w, wt * size)
            count = fam_keys[e] & 31
            g = wt * min(count, r)  # the family's weight as it stands for its winnable words
            letters_at_p = (fam_keys[e] >> 5) & ((np.int64(1) << 26) - 1)
            while letters_at_p:  # each of its letters at p covers the whole family
                lowest = letters_at_p & -letters_at_p
                covers[p, _BIT_INDEX[((lowest * 0x077CB531) & 0xFFFFFFFF) >> 27]] += g - wt
                letters_at_p ^= lowest
            if count > r:  # its common letters, and its weight, are those of r words
                winnable[p] += g - wt * count
                _cover_common_letters(covers, p, spelled[e - p * n], g - wt * count)
    else:  # sort by family, then by rank, so each family's words come heaviest first
        total = np.int64(0)
        heaviest = np.int64(0)
        for i in range(start, start + size):
            total += weights[members[i]]
            heaviest = max(heaviest, weights[members[i]])
        others = (r - 1) * miss_cost <= lost_cost
        for p in range(length):
            k = 0
            for i in range(start, start + size):
                v = families[members[i], p]
                if v >= 0:
                    fam_keys[k] = v
                    k += 1
            keys = fam_keys[:k]
            keys.sort()
            first = 0
            for i in range(k):
                if keys[i] >> shift != keys[first] >> shift:
                    first = i
                j = i - first
                wt = rank_weight[keys[i] & low]
                totals[p] += wt * (r * miss_cost + lost_cost) if j >= r else wt * j * miss_cost
                if not others or j == 0 or (i + 1 < k and keys[i + 1] >> shift == keys[first] >> shift):
                    continue
                # the last word of a family of two or more: its weight, and its min(size, r) lightest words'
                if not (shared >> p) & 1:
                    shared |= 1 << p
                    _whole_set_covers(covers[p], winnable, p, miss_w, total)
                family_w = np.int64(0)
                g = np.int64(0)
                for t in range(first, i + 1):
                    family_w += rank_weight[keys[t] & low]
                    g += rank_weight[keys[t] & low] if t > i - r else 0
                if i + 1 - first > r:  # else every word of it can be won: it stands for itself
                    winnable[p] += g - family_w
                    _cover_common_letters(covers, p, spelled[rank_word[keys[first] & low]], g - family_w)
                for t in range(first, i + 1):
                    covers[p, spelled[rank_word[keys[t] & low], p]] += g - rank_weight[keys[t] & low]
            keys[:] = 0
    for p in range(length):
        if (shared >> p) & 1:
            totals[p] += _spine_misses(covers[p], winnable[p], heaviest, useful, r, fam_sums[length]) * miss_cost
    return totals.max() if length else np.int64(0)


@kernel(nogil=True)
def _whole_set_covers(covers, winnable, p, miss_w, total):
    """Start the covers (of position p) and the winnable weight at p as the whole set's, every
    word standing for itself: the families of two or more words then change their own."""
    winnable[p] = total
    for c in range(26):
        covers[c] = total - miss_w[c]


@kernel(nogil=True)
def _spine_misses(covers, weight, heaviest, useful, r, ranked):
    """The least weight of misses along the path where every guess misses, over at most r steps,
    of words weighing `weight` whose letters cover `covers` (see _static_bound); `ranked`: scratch
    of 26 entries."""
    k = 0
    for c in range(26):
        if useful[c]:
            _insert_descending(ranked, k, covers[c])
            k += 1
    misses = np.int64(0)
    left = weight
    for step in range(min(r, k)):
        if left <= heaviest:  # perhaps a single word is left: the path may stop here
            break
        left -= ranked[step]
        if left <= 0:
            break
        misses += left
    return misses


@kernel(nogil=True)
def _free_letter(miss_w, useful):
    """A useful letter every candidate contains (no miss), or -1."""
    for c in range(26):
        if useful[c] and miss_w[c] == 0:
            return c
    return -1


@kernel(nogil=True)
def _node_bound(words, terms, scratch, depth, start, size, r):
    """A lower bound on the cost of the set buf[depth][start:start+size] (two or more words, r >= 1)
    that also leaves the set's letter statistics in stat_miss[depth], stat_useful[depth].

    With free_first, a free letter (useful, in every candidate) is applied first and the bound is
    the sum of its classes' bounds: sound because some optimal tree guesses a free letter first
    (see _solve), so the least cost is the sum of the classes' least costs. That is what makes
    the miss-spine bound bite on families: in {batch, catch, hatch, latch}, `c` and `h` cover
    every word, so the spine of the whole set is 0, while {batch, latch} alone costs a miss.
    Rows depth+1.. of the scratch are used (at most 26 more, one per free letter)."""
    miss_w = scratch.stat_miss[depth]
    useful = scratch.stat_useful[depth]
    spine = _static_bound(words.masks, words.weights, scratch.buf[depth], start, size, r, terms.miss_cost,
                          terms.lost_cost, miss_w, useful)
    if not terms.free_first:
        return spine
    c = _free_letter(miss_w, useful)
    if c < 0:
        return spine
    cls_start = scratch.cls_start[depth]
    n = _partition(words.masks, scratch.buf[depth], scratch.buf[depth + 1], start, size, c, scratch.slot,
                   scratch.cls_mask[depth], cls_start, scratch.cls_fill[depth])
    total = np.int64(0)
    for q in range(n):
        s = cls_start[q]
        z = cls_start[q + 1] - s
        if z > 1:
            total += _node_bound(words, terms, scratch, depth + 1, s, z, r)
    return max(total, spine)


# ----------------------------------------------------------------------------------------------
# memo: (candidate set, lives) -> exact value or lower bound. A hash collision can never return
# another state's value: each entry keeps what the words of its set have in common, the bit set
# of its letters of one mask (fixed) and one of its words (which shows where they stand), and a
# set found must fit those and have the entry's size (_same_set). Why not the words themselves:
# these take 8 bytes where the words took 2 each (95 of them on average at length 4), and a memo
# that holds more finishes much sooner (docs/log/hangman.md).
# ----------------------------------------------------------------------------------------------
@kernel(nogil=True)
def _hash(members, start, size, r):
    h = np.uint64(0x9E3779B97F4A7C15) * np.uint64(r + 1) + np.uint64(size)
    for i in range(start, start + size):
        h = (h ^ np.uint64(members[i])) * np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    return h


@kernel(nogil=True)
def _slot_tag(h):
    """The high half of a hash, kept in the table slot beside the entry number (entry + 1 in the
    low half; 0 is an empty slot): a probe passes over another set's slot without reading its
    entry, which is a cache miss in arrays of hundreds of megabytes."""
    return np.int64(h >> np.uint64(32)) << np.int64(32)


@kernel(nogil=True)
def _fixed_of(useful):
    """The bit set of the letters that do not split a set (_letter_stats): of one mask in all its words."""
    fixed = np.int64(0)
    for c in range(26):
        if not useful[c]:
            fixed |= np.int64(1) << c
    return fixed


@kernel(nogil=True)
def _fixed_letters(masks, weights, members, start, size, miss_w, useful):
    """_fixed_of the set, its _letter_stats found afresh (into the scratch miss_w and useful)."""
    _letter_stats(masks, weights, members, start, size, miss_w, useful)
    return _fixed_of(useful)


@kernel(nogil=True)
def _fits(spelled, w, fixed, model):
    """Whether word w has the masks of the `fixed` letters that word `model` has: at each place,
    model's letter if it is fixed, else no fixed letter."""
    for p in range(spelled.shape[1]):
        c = spelled[w, p]
        d = spelled[model, p]
        if (fixed >> d) & 1:
            if c != d:
                return False
        elif (fixed >> c) & 1:
            return False
    return True


@kernel(nogil=True)
def _same_set(members, start, size, fixed, model, spelled):
    """Whether the set is that of an entry of the same size whose letters of one mask are `fixed`,
    `model` one of its words. Why that suffices: every set in the memo is closed in one universe
    U (it is U's words with its fixed letters' masks, as every set a search of U reaches is:
    U's words with the masks seen so far), and a set looked up is within U (see Searcher's
    `universe`). A set within U whose every word fits is within the entry's set, and a subset
    of the same size is that set."""
    for i in range(start, start + size):
        if not _fits(spelled, members[i], fixed, model):
            return False
    return True


@kernel(nogil=True)
def _memo_find(members, start, size, r, h, table, memo, spelled):
    """(entry, table slot): entry -1 when absent, slot then being where it would go. memo: the
    MemoEntries that `table` indexes."""
    e_hash = memo.e_hash
    e_size = memo.e_size
    e_r = memo.e_r
    mask = np.uint64(table.size - 1)
    pos = np.int64(h & mask)
    tag = _slot_tag(h)
    low = (np.int64(1) << np.int64(32)) - 1
    while True:
        slot = table[pos]
        if slot == 0:
            return -1, pos
        if slot & ~low == tag:
            e = (slot & low) - 1
            if (e_hash[e] == h and e_size[e] == size and e_r[e] == r
                    and _same_set(members, start, size, memo.e_fixed[e], memo.e_model[e], spelled)):
                return e, pos
        pos = (pos + 1) & np.int64(mask)


@kernel(nogil=True)
def _memo_put(members, start, size, r, h, e, pos, value, exact, letter, fixed, table, memo, spelled, ctr):
    """Record a value (exact) or a lower bound of the set, whose letters of one mask are `fixed`
    (_fixed_letters); a full memo simply stops growing. The slot is looked up again: entries
    made since `pos` was found may have taken it."""
    if e < 0:
        e, pos = _memo_find(members, start, size, r, h, table, memo, spelled)
    _memo_record(e, pos, h, size, r, value, exact, letter, fixed, members[start], table, memo, ctr)


@kernel(nogil=True)
def _memo_record(e, pos, h, size, r, value, exact, letter, fixed, model, table, memo, ctr):
    """Entry e made better by the value (exact) or bound, or, e < 0, a new entry at table slot pos."""
    if e >= 0:
        if exact or (not memo.e_exact[e] and value > memo.e_val[e]):
            memo.e_val[e] = value
            memo.e_exact[e] = exact
            memo.e_letter[e] = letter
        return
    n = ctr[ENTRIES]
    if n >= memo.e_hash.size or 2 * (n + 1) > table.size:
        return
    memo.e_hash[n] = h
    memo.e_size[n] = size
    memo.e_r[n] = r
    memo.e_val[n] = value
    memo.e_exact[n] = exact
    memo.e_letter[n] = letter
    memo.e_fixed[n] = fixed
    memo.e_model[n] = model
    table[pos] = _slot_tag(h) | (n + 1)
    ctr[ENTRIES] = n + 1


@kernel(nogil=True)
def _memo_rebuild(table, e_hash, n):
    """Index entries 0..n-1 again (after a checkpoint is loaded, or into a table of another size):
    each goes to the first free slot from its hash, as _memo_put would have put it."""
    table[:] = 0
    mask = np.uint64(table.size - 1)
    for e in range(n):
        pos = np.int64(e_hash[e] & mask)
        while table[pos] != 0:
            pos = (pos + 1) & np.int64(mask)
        table[pos] = _slot_tag(e_hash[e]) | (e + 1)


@kernel(nogil=True)
def _memo_merge(other, n, table, memo, spelled, ctr):
    """Put another memo's entries 0..n-1 (MemoEntries, of the same universe) into this one, as the
    search would have put them; how many were added or made better. Two closed sets of one
    universe are the same when their letters of one mask are, and stand where they do."""
    o_hash = other.e_hash
    o_size = other.e_size
    o_r = other.e_r
    o_fixed = other.e_fixed
    o_model = other.e_model
    e_hash = memo.e_hash
    e_val = memo.e_val
    e_exact = memo.e_exact
    changed = 0
    mask = np.uint64(table.size - 1)
    low = (np.int64(1) << np.int64(32)) - 1
    for i in range(n):
        h = o_hash[i]
        pos = np.int64(h & mask)
        tag = _slot_tag(h)
        e = -1
        while table[pos] != 0:
            slot = table[pos]
            if slot & ~low == tag:
                f = (slot & low) - 1
                if (e_hash[f] == h and memo.e_size[f] == o_size[i] and memo.e_r[f] == o_r[i]
                        and memo.e_fixed[f] == o_fixed[i] and _fits(spelled, memo.e_model[f], o_fixed[i], o_model[i])):
                    e = f
                    break
            pos = (pos + 1) & np.int64(mask)
        before = ctr[ENTRIES]
        old_val = e_val[e] if e >= 0 else np.int64(-1)
        old_exact = e_exact[e] if e >= 0 else False
        _memo_record(e, pos, h, o_size[i], o_r[i], other.e_val[i], other.e_exact[i], other.e_letter[i], o_fixed[i],
                     o_model[i], table, memo, ctr)
        if ctr[ENTRIES] > before or (e >= 0 and (e_exact[e] != old_exact or e_val[e] != old_val)):
            changed += 1
    return changed


@kernel(nogil=True)
def _closed_size(spelled, by_place, place_start, universe, fixed, model):
    """How many words of the universe fit the letters `fixed` as `model` has them (_fits): the
    set's size when it is closed in the universe. Only the words with model's letter at one of
    its fixed places are read, the fewest such (by_place[place_start[p * 26 + c]:][:...]: the
    universe's words with c at p), or the whole universe where it has none."""
    best = -1
    fewest = universe.size
    for p in range(spelled.shape[1]):
        d = spelled[model, p]
        if (fixed >> d) & 1:
            k = p * 26 + d
            if place_start[k + 1] - place_start[k] < fewest:
                fewest = place_start[k + 1] - place_start[k]
                best = k
    n = 0
    if best < 0:
        for i in range(universe.size):
            n += _fits(spelled, universe[i], fixed, model)
        return n
    for i in range(place_start[best], place_start[best + 1]):
        n += _fits(spelled, by_place[i], fixed, model)
    return n


@kernel(nogil=True)
def _pooled_entries(words, by_place, place_start, universe, pool, e_off, memo, n):
    """Entries of an older memo that kept each set's words (pool[e_off[e]:][:e_size[e]]) made
    entries of this one (memo, MemoEntries): each keyed by the strikes that count
    (_strikes_that_count, which that memo may predate), its letters of one mask and first word
    written to e_fixed and e_model; whether each is closed in the universe (see _closed_size),
    the only ones this memo keeps."""
    e_r = memo.e_r
    e_fixed = memo.e_fixed
    e_model = memo.e_model
    closed = np.zeros(n, dtype=np.bool_)
    miss_w = np.zeros(26, dtype=np.int64)
    useful = np.zeros(26, dtype=np.uint8)
    for e in range(n):
        off = e_off[e]
        size = memo.e_size[e]
        r = _strikes_that_count(words.letters, pool, off, size, e_r[e])
        if r != e_r[e]:
            e_r[e] = r
            memo.e_hash[e] = _hash(pool, off, size, r)
        e_fixed[e] = _fixed_letters(words.masks, words.weights, pool, off, size, miss_w, useful)
        e_model[e] = pool[off]
        closed[e] = _closed_size(words.spelled, by_place, place_start, universe, e_fixed[e], e_model[e]) == size
    return closed


@kernel(nogil=True)
def _memo_compact(keep, table, memo, ctr):
    """Keep only the entries marked in `keep`, moved to the front in their order, and index them again."""
    e_hash, e_size, e_r, e_val = memo.e_hash, memo.e_size, memo.e_r, memo.e_val
    e_exact, e_letter, e_fixed, e_model = memo.e_exact, memo.e_letter, memo.e_fixed, memo.e_model
    n = ctr[ENTRIES]
    m = 0
    for e in range(n):
        if not keep[e]:
            continue
        e_hash[m] = e_hash[e]
        e_size[m] = e_size[e]
        e_r[m] = e_r[e]
        e_val[m] = e_val[e]
        e_exact[m] = e_exact[e]
        e_letter[m] = e_letter[e]
        e_fixed[m] = e_fixed[e]
        e_model[m] = e_model[e]
        m += 1
    ctr[ENTRIES] = m
    _memo_rebuild(table, e_hash, m)


# ----------------------------------------------------------------------------------------------
# exact search: branch and bound over useful letters, memo on (set, lives)
# ----------------------------------------------------------------------------------------------
@kernel(nogil=True, inline="always")
def _child_bound(words, terms, scratch, table, memo, depth, start, size, r):
    """The best known lower bound of the child buf[depth][start:start+size]: exact if trivial,
    the memo's if recorded, else _node_bound."""
    members = scratch.buf[depth]
    if r == 0:
        return _set_weight(words.weights, members, start, size) * terms.lost_cost
    if size == 1:
        return np.int64(0)
    if size == 2:
        return _pair_cost(words.masks, words.weights, members, start, r, terms.miss_cost, terms.lost_cost)[0]
    r = _strikes_that_count(words.letters, members, start, size, r)
    h = _hash(members, start, size, r)
    e, pos = _memo_find(members, start, size, r, h, table, memo, words.spelled)
    if e >= 0:
        return memo.e_val[e]
    return _node_bound(words, terms, scratch, depth, start, size, r)


@kernel(nogil=True)
def _letter_order(miss_w, useful, free, order):
    """The letters to try, written to `order`; how many: the free letter alone if there is one
    (free >= 0), else the useful letters, fewest missing words first (the frequency rule's
    order; ties alphabetical)."""
    if free >= 0:
        order[0] = free
        return 1
    k = 0
    for c in range(26):
        if useful[c]:
            j = k
            while j > 0 and miss_w[order[j - 1]] > miss_w[c]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = c
            k += 1
    return k


@kernel(nogil=True)
def _smallest_first(cs, n):
    """The n classes of a split (class q: cs[q]:cs[q + 1]), smallest first, ties by class, each as
    (size << 16) | q (a class number fits 16 bits: a letter has at most 2**15 masks)."""
    by_size = np.empty(n, dtype=np.int64)
    for q in range(n):
        by_size[q] = ((cs[q + 1] - cs[q]) << 16) | q
    by_size.sort()
    return by_size


@kernel(nogil=True)
def _solve(words, families, terms, scratch, search, table, memo, depth, start, size, r, limit):
    """(value, exact) for the set buf[depth][start:start+size] with r lives.

    exact: value is the least cost of any tree (and chosen[depth] its first letter).
    not exact: every tree costs at least value, and value >= limit (a proven cut-off).
    An abort (node budget spent) returns at once and records nothing, so nothing half-searched
    is ever stored.

    free_first: when some useful letter is in every candidate (a free letter: it cannot miss),
    only that letter is tried. Sound: take any tree and put the free letter c first; in each
    class of c play the old tree, skipping its c node (c splits nothing there and was a hit for
    every word). Every word meets the same misses in the same order, and is identified no
    later, so no word costs more (a lost word is lost at the same miss)."""
    members = scratch.buf[depth]
    ctr = search.ctr
    if r == 0:
        return _set_weight(words.weights, members, start, size) * terms.lost_cost, True
    if size == 1:
        return np.int64(0), True
    if size == 2:
        value, letter = _pair_cost(words.masks, words.weights, members, start, r, terms.miss_cost, terms.lost_cost)
        search.chosen[depth] = letter
        return value, True
    ctr[NODES] += 1
    if ctr[NODES] > ctr[MAX_NODES]:
        ctr[ABORTED] = 1
        return np.int64(0), False
    r = _strikes_that_count(words.letters, members, start, size, r)
    h = _hash(members, start, size, r)
    e, pos = _memo_find(members, start, size, r, h, table, memo, words.spelled)
    lb = np.int64(0)
    if e >= 0:
        if memo.e_exact[e]:
            search.chosen[depth] = memo.e_letter[e]
            return memo.e_val[e], True
        lb = memo.e_val[e]
        if lb >= limit:
            return lb, False
    miss_w = scratch.stat_miss[depth]
    useful = scratch.stat_useful[depth]
    sb = _node_bound(words, terms, scratch, depth, start, size, r)
    if sb > lb:
        lb = sb
    if lb < limit:  # the family bound costs what the spine does: here, once a set, not once a class of each letter
        fb = _family_bound(words, families, terms, members, start, size, r, miss_w, useful)
        if fb > lb:
            lb = fb
    if lb >= limit:
        _memo_put(members, start, size, r, h, e, pos, lb, False, -1, _fixed_of(useful), table, memo, words.spelled,
                  ctr)
        return lb, False
    order = search.order[depth]
    k = _letter_order(miss_w, useful, _free_letter(miss_w, useful) if terms.free_first else -1, order)
    masks = words.masks
    nxt = scratch.buf[depth + 1]
    slot = scratch.slot
    cm = scratch.cls_mask[depth]
    cs = scratch.cls_start[depth]
    cf = scratch.cls_fill[depth]
    clb = search.child_lb[depth]
    best = limit
    best_letter = -1
    bound = INF
    for j in range(k):
        c = order[j]
        first_cost = miss_w[c] * terms.miss_cost
        if first_cost >= best:  # and so does every later letter
            if first_cost < bound:
                bound = first_cost
            break
        n = _partition(masks, members, nxt, start, size, c, slot, cm, cs, cf)
        total_lb = first_cost
        for q in range(n):
            rr = r - 1 if cm[q] == 0 else r
            clb[q] = _child_bound(words, terms, scratch, table, memo, depth + 1, cs[q], cs[q + 1] - cs[q], rr)
            total_lb += clb[q]
            if total_lb >= best:  # refuted already: the rest of the bounds would only add to it
                break
        if total_lb >= best:
            if total_lb < bound:
                bound = total_lb
            continue
        total = first_cost
        rest = total_lb - first_cost
        ok = True
        # smallest classes first: their exact values tighten the budget of the large ones
        by_size = _smallest_first(cs, n)
        for i in range(n):
            q = by_size[i] & 0xFFFF
            rr = r - 1 if cm[q] == 0 else r
            rest -= clb[q]
            child_limit = best - total - rest
            v, ex = _solve(words, families, terms, scratch, search, table, memo, depth + 1, cs[q], cs[q + 1] - cs[q],
                           rr, child_limit)
            if ctr[ABORTED]:
                return np.int64(0), False
            total += v
            if (not ex) or total + rest >= best:
                ok = False
                if total + rest < bound:
                    bound = total + rest
                break
        if ok:
            best = total
            best_letter = c
    if best_letter >= 0:
        _memo_put(members, start, size, r, h, e, pos, best, True, best_letter, _fixed_of(useful), table, memo,
                  words.spelled, ctr)
        search.chosen[depth] = best_letter
        return best, True
    if bound < lb:
        bound = lb
    _memo_put(members, start, size, r, h, e, pos, bound, False, -1, _fixed_of(useful), table, memo, words.spelled, ctr)
    return bound, False


@kernel(nogil=True)
def _bound(words, families, terms, scratch, table, memo, depth, start, size, r, levels):
    """A lower bound on the cost of the set, `levels` guesses deep: the least, over every useful
    first letter, of its misses plus the children's bounds (a level below, or the memo's, or the
    static bound). Sound: every tree starts with some useful letter (a free one, with free_first)
    and then plays each child with some tree, each costing at least its bound; the result is also
    raised to the memo's."""
    members = scratch.buf[depth]
    if r == 0:
        return _set_weight(words.weights, members, start, size) * terms.lost_cost
    if size == 1:
        return np.int64(0)
    if size == 2:
        return _pair_cost(words.masks, words.weights, members, start, r, terms.miss_cost, terms.lost_cost)[0]
    r = _strikes_that_count(words.letters, members, start, size, r)
    h = _hash(members, start, size, r)
    e, pos = _memo_find(members, start, size, r, h, table, memo, words.spelled)
    known = np.int64(0)
    if e >= 0:
        if memo.e_exact[e]:
            return memo.e_val[e]
        known = memo.e_val[e]
    miss_w = scratch.stat_miss[depth]
    useful = scratch.stat_useful[depth]
    sb = max(_node_bound(words, terms, scratch, depth, start, size, r),
             _family_bound(words, families, terms, members, start, size, r, miss_w, useful))
    if levels == 0:
        return max(sb, known)
    best = INF
    free = _free_letter(miss_w, useful) if terms.free_first else -1
    nxt = scratch.buf[depth + 1]
    cm = scratch.cls_mask[depth]
    cs = scratch.cls_start[depth]
    cf = scratch.cls_fill[depth]
    for c in range(26):
        if not useful[c] or (free >= 0 and c != free):
            continue
        total = miss_w[c] * terms.miss_cost
        n = _partition(words.masks, members, nxt, start, size, c, scratch.slot, cm, cs, cf)
        for q in range(n):
            rr = r - 1 if cm[q] == 0 else r
            total += _bound(words, families, terms, scratch, table, memo, depth + 1, cs[q], cs[q + 1] - cs[q], rr,
                            levels - 1)
        if total < best:
            best = total
    return max(best, known)


# ----------------------------------------------------------------------------------------------
# the baseline rules
# ----------------------------------------------------------------------------------------------
@kernel(nogil=True)
def _rule_letter(words, scratch, depth, start, size, rule):
    """The rule's letter for a set of two or more words. frequency: the letter in the most
    (weight of) candidates, each counted once per word; entropy: the letter whose feedback has
    the largest entropy. Only useful letters compete: the others change nothing (see
    _letter_stats), so a rule that plays them first ends in the same place. Ties: alphabetical."""
    members = scratch.buf[depth]
    miss_w = scratch.stat_miss[depth]
    useful = scratch.stat_useful[depth]
    _letter_stats(words.masks, words.weights, members, start, size, miss_w, useful)
    best = -1
    if rule == RULE_FREQUENCY:
        for c in range(26):
            if useful[c] and (best < 0 or miss_w[c] < miss_w[best]):
                best = c
        return best
    total = float(_set_weight(words.weights, members, start, size))
    nxt = scratch.buf[depth + 1]
    cs = scratch.cls_start[depth]
    best_h = -1.0
    for c in range(26):
        if not useful[c]:
            continue
        n = _partition(words.masks, members, nxt, start, size, c, scratch.slot, scratch.cls_mask[depth], cs,
                       scratch.cls_fill[depth])
        hsum = 0.0
        for q in range(n):
            wq = float(_set_weight(words.weights, nxt, cs[q], cs[q + 1] - cs[q]))
            hsum -= (wq / total) * np.log(wq / total)
        if hsum > best_h + 1e-12:
            best_h = hsum
            best = c
    return best


@kernel(nogil=True)
def _rule_totals(words, scratch, depth, start, size, r, rule):
    """(weight of wrong guesses, weight of lost words) when the rule plays every word of the set
    with r lives left; a lost word's wrong guesses are the lives it used."""
    members = scratch.buf[depth]
    if r == 0:
        return np.int64(0), _set_weight(words.weights, members, start, size)
    if size == 1:
        return np.int64(0), np.int64(0)
    c = _rule_letter(words, scratch, depth, start, size, rule)
    nxt = scratch.buf[depth + 1]
    cm = scratch.cls_mask[depth]
    cs = scratch.cls_start[depth]
    n = _partition(words.masks, members, nxt, start, size, c, scratch.slot, cm, cs, scratch.cls_fill[depth])
    misses = np.int64(0)
    lost = np.int64(0)
    for q in range(n):
        s = cs[q]
        z = cs[q + 1] - s
        rr = r
        if cm[q] == 0:
            misses += _set_weight(words.weights, nxt, s, z)
            rr = r - 1
        m, l = _rule_totals(words, scratch, depth + 1, s, z, rr, rule)
        misses += m
        lost += l
    return misses, lost
