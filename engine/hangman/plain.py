"""The exact Hangman search of a small set in plain Python: no numba, no numpy, nothing to compile.

A lookup off the tree (lookup.py) asks it first, so that a position with few words left is
answered exactly at once, even on a fresh install whose numba kernels are not compiled yet; a set
it cannot finish within its node budget goes to the kernels' search (search.Searcher).

It is the kernels' search (kernels._solve) over the same costs, with the same rules, and so the
same answer: the same least cost and the same first letter. A set is a Python int, bit i for word
i; its classes under a letter are its intersections with that letter's classes over all the words,
found once. As in kernels._solve: strikes r left (a word is lost at r = 0, costing `lost_cost` per
unit of weight, and every miss `miss_cost`); one word costs nothing, two are solved in closed form
(kernels._pair_cost); the strikes beyond the most misses any word can make are one state
(kernels._strikes_that_count); a free letter (useful, in every word) is tried alone, else the
useful letters fewest missing words first, ties alphabetical, and the first letter to reach the
least cost is the answer; a letter is cut once its misses and its classes' bounds reach the best
so far, and each class is searched below what the letter can still spend. The memo keeps exact
values and proven lower bounds by (set, strikes that count). The bounds are fewer than the
kernels' (no family bound), so it visits more nodes; its budget counts them as they do.
"""

from __future__ import annotations

INF = 1 << 62
WIN_POINTS = 20  # game.WIN_POINTS (game.py imports numpy)


def costs(lives: int, total_weight: int) -> tuple[int, int, int | None]:
    """(miss_cost, lost_cost, key) as search.Searcher sets them for `lives` and words weighing
    `total_weight` in all: a cost is C * key + M (C = 20 x lost + misses, M = misses), or C alone
    (key None) when that would overflow the kernels' int64."""
    strikes = lives + 1
    key = strikes * total_weight + 1
    if (WIN_POINTS + strikes) * total_weight * key + key < 2**62:
        return key + 1, WIN_POINTS * key, key
    return 1, WIN_POINTS, None


def spelled_masks(words) -> list[list[int]]:
    """game.mask_table in lists: [w][c] the bit set of the places of letter c in word w."""
    table = []
    for word in words:
        row = [0] * 26
        for p, ch in enumerate(word):
            row[ord(ch) - 97] |= 1 << p
        table.append(row)
    return table


class PlainSearch:
    """The search of subsets of `masks`' words: masks[w][c] the bit set of letter c's places in
    word w (0: not in it), weights[w] its weight; costs as in search.Searcher (miss_cost,
    lost_cost)."""

    def __init__(self, masks, weights, miss_cost: int, lost_cost: int):
        self.n = len(masks)
        self.masks = [tuple(int(m) for m in row) for row in masks]
        self.weights = [int(w) for w in weights]
        self.unit = all(w == 1 for w in self.weights)
        self.miss_cost, self.lost_cost = int(miss_cost), int(lost_cost)
        # classes[c]: (mask, the words with that mask of c), masks ascending, 0 (the miss) first if any
        self.classes = []
        for c in range(26):
            by: dict[int, int] = {}
            for w, row in enumerate(self.masks):
                by[row[c]] = by.get(row[c], 0) | (1 << w)
            self.classes.append(sorted(by.items()))
        self.missing = [b if m == 0 else 0 for c in range(26) for m, b in self.classes[c][:1]]  # words without c
        self.present = [sum(b for m, b in self.classes[c] if m) for c in range(26)]  # words holding c
        # by_count[k]: the words of k distinct letters
        self.by_count = [0] * 27
        for w, row in enumerate(self.masks):
            self.by_count[sum(1 for m in row if m)] |= 1 << w
        # families[p]: the sets of two or more words spelled alike but at p, whose letter at p is
        # nowhere else in them (see _family_bound)
        self.families = []
        length = max((m.bit_length() for row in self.masks for m in row), default=0)
        spelled = [[next(c for c in range(26) if row[c] >> p & 1) for p in range(length)] for row in self.masks]
        for p in range(length):
            by: dict[tuple, int] = {}
            for w, word in enumerate(spelled):
                key = tuple(word[:p] + word[p + 1:]) if word[p] not in word[:p] + word[p + 1:] else (w,)
                by[key] = by.get(key, 0) | (1 << w)
            self.families.append([f for f in by.values() if f & (f - 1)])
        self.exact: dict[tuple[int, int], tuple[int, int]] = {}  # (set, r) -> (cost, letter)
        self.bounds: dict[tuple[int, int], int] = {}  # (set, r) -> a proven lower bound
        self.stats: dict[int, tuple] = {}  # set -> _stats
        self.pairs: dict[tuple[int, bool], tuple[int, int]] = {}  # (pair, one strike left) -> _pair_cost
        self.family_costs: dict[tuple[int, int], int] = {}  # (words, r) -> a family's cost, unit weights
        self.caps: dict[int, int] = {}  # set -> the strikes that count at most
        self.max_stats = 200_000
        self.nodes = 0
        self.max_nodes = INF
        self.aborted = False

    # --- the sets ---
    def weight(self, s: int) -> int:
        if self.unit:
            return s.bit_count()
        total, weights = 0, self.weights
        while s:
            low = s & -s
            total += weights[low.bit_length() - 1]
            s ^= low
        return total

    def _first_two(self, s: int) -> tuple[int, int]:
        a = (s & -s).bit_length() - 1
        rest = s & (s - 1)
        return a, (rest & -rest).bit_length() - 1

    def _pair(self, s: int, r: int) -> tuple[int, int]:
        """kernels._pair_cost of the two words of `s`."""
        key = (s, r == 1)
        found = self.pairs.get(key)
        if found is None:
            found = self.pairs[key] = self._pair_cost(s, r)
        return found

    def _pair_cost(self, s: int, r: int) -> tuple[int, int]:
        a, b = self._first_two(s)
        wa, wb = self.weights[a], self.weights[b]
        ra, rb = self.masks[a], self.masks[b]
        letter = -1
        for c in range(26):
            ma, mb = ra[c], rb[c]
            if ma != mb and ma != 0 and mb != 0:
                return 0, c
            if letter < 0 and ma != mb and (wb < wa and ma != 0 or wa < wb and mb != 0 or wa == wb):
                letter = c
        lighter = min(wa, wb)
        return lighter * self.miss_cost + (lighter * self.lost_cost if r == 1 else 0), letter

    def _stats(self, s: int, within=None) -> list:
        """The useful letters of a set of two or more words, as [missing weight, letter, classes],
        missing weight ascending, then alphabetical. `within`: the useful letters of a set that
        holds this one (only those can split it); a letter's classes are those of a set that holds
        this one (cut down to it when the letter is tried: _classes)."""
        found = self.stats.get(s)
        if found is not None:
            return found
        letters = []
        unit, weight, missing_of = self.unit, self.weight, self.missing
        if within is None:
            within = [(0, c, self.classes[c]) for c in range(26)]
        for _, c, classes in within:
            missing = s & missing_of[c]
            if missing == s:
                continue  # in no word
            if missing:
                letters.append([missing.bit_count() if unit else weight(missing), c, classes])
            else:  # in every word: useful (free) unless at the same places in all
                parts = [(m, s & b) for m, b in classes if s & b]
                if len(parts) > 1:
                    letters.append([0, c, parts])
        letters.sort()
        if len(self.stats) < self.max_stats:
            self.stats[s] = letters
        return letters

    def _strikes_that_count(self, s: int, r: int) -> int:
        """kernels._strikes_that_count: r, or one more than the most misses a word can make."""
        cap = self.caps.get(s)
        if cap is None:
            held = sum(1 for p in self.present if s & p)
            fewest = next(k for k in range(27) if s & self.by_count[k])
            cap = held - fewest + 1
            if len(self.caps) < self.max_stats:
                self.caps[s] = cap
        return r if r < cap else cap

    def _node_bound(self, s: int, r: int, within=None) -> int:
        """kernels._node_bound: the cost of the miss spine (kernels._static_bound), or with a free
        letter the sum of its classes' bounds. `within`: the useful letters of a set holding `s`."""
        if within is None:
            within = self._stats(s)
        unit, weight, total = self.unit, self.weight, self.weight(s)
        covers = []
        for _, c, parts in within:
            missing = s & self.missing[c]
            if missing:
                if missing != s:
                    covers.append(total - (missing.bit_count() if unit else weight(missing)))
            elif not any(s & b == s for _, b in parts):  # in every word, not always at the same places: free
                free = [s & b for _, b in parts if s & b]
                return sum(self._node_bound(part, r, within) for part in free if part & (part - 1))
        covers.sort(reverse=True)
        heaviest = 1 if self.unit else max(self.weights[w] for w in range(self.n) if s >> w & 1)
        bound, covered, left = 0, 0, total
        for step in range(1, min(r, len(covers)) + 1):
            if left <= heaviest:
                break
            covered += covers[step - 1]
            left = total - covered
            if left <= 0:
                break
            bound += left * self.miss_cost
            if step == r:
                bound += left * self.lost_cost
        return bound

    def _family_bound(self, s: int, r: int) -> int:
        """A lower bound from the families at one place (the best place): only their letters at p
        tell a family's words apart, each such letter is in one of them and misses the rest, so the
        word told k-th (from 0) has missed k times, lost once k reaches r; heaviest words first
        costs least. The least cost is superadditive over a partition of the set, so the families'
        costs add up (kernels._family_bound adds the other misses too)."""
        miss_cost, lost_cost, best = self.miss_cost, self.lost_cost, 0
        for families in self.families:
            total = 0
            for f in families:
                f &= s
                if f & (f - 1):
                    if self.unit:
                        key = (f.bit_count(), r)
                        cost = self.family_costs.get(key)
                        if cost is None:
                            cost = self.family_costs[key] = sum(
                                (j if j < r else r) * miss_cost + (lost_cost if j >= r else 0) for j in range(key[0]))
                        total += cost
                        continue
                    weights = sorted((self.weights[w] for w in range(self.n) if f >> w & 1), reverse=True)
                    for j, wt in enumerate(weights):
                        total += wt * ((j if j < r else r) * miss_cost + (lost_cost if j >= r else 0))
            if total > best:
                best = total
        return best

    def _child_bound(self, s: int, r: int, within) -> int:
        """kernels._child_bound: exact if trivial, the memo's if recorded, else _node_bound."""
        if r == 0:
            return self.weight(s) * self.lost_cost
        rest = s & (s - 1)
        if rest == 0:
            return 0
        if rest & (rest - 1) == 0:
            return self._pair(s, r)[0]
        cap = self.caps.get(s)
        if cap is None:
            cap = self._strikes_that_count(s, 99)
        if r > cap:
            r = cap
        found = self.exact.get((s, r))
        if found is not None:
            return found[0]
        known = self.bounds.get((s, r))
        if known is None:
            known = self.bounds[(s, r)] = self._node_bound(s, r, within)
        return known

    # --- the search ---
    def solve(self, s: int, r: int, max_nodes: int = INF) -> tuple[int, int] | None:
        """(least cost, first letter; -1 for one word or none left to lose) of the set `s` with
        `r` strikes left, or None when it takes more than `max_nodes` nodes."""
        self.nodes, self.max_nodes, self.aborted = 0, max_nodes, False
        letter = [-1]
        value, exact = self._solve(s, r, INF, letter)
        if self.aborted or not exact:
            return None
        return value, letter[0]

    def _solve(self, s: int, r: int, limit: int, chosen: list, within=None) -> tuple[int, bool]:
        if r == 0:
            return self.weight(s) * self.lost_cost, True
        rest_bits = s & (s - 1)
        if rest_bits == 0:
            return 0, True
        if rest_bits & (rest_bits - 1) == 0:
            value, chosen[0] = self._pair(s, r)
            return value, True
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.aborted = True
            return 0, False
        r = self._strikes_that_count(s, r)
        key = (s, r)
        found = self.exact.get(key)
        if found is not None:
            chosen[0] = found[1]
            return found[0], True
        lb = self.bounds.get(key, 0)
        if lb >= limit:
            return lb, False
        lb = max(lb, self._node_bound(s, r, within))
        if lb < limit:
            lb = max(lb, self._family_bound(s, r))
        if lb >= limit:
            self.bounds[key] = lb
            return lb, False
        every = self._stats(s, within)
        letters = every[:1] if every[0][0] == 0 else every  # a free letter alone
        best, best_letter, bound = limit, -1, INF
        child = [-1]
        for entry in letters:
            miss, c, parts = entry
            first_cost = miss * self.miss_cost
            if first_cost >= best:  # and so does every later letter
                bound = min(bound, first_cost)
                break
            parts = entry[2] = [(m, s & b) for m, b in parts if s & b]  # its classes here, for the sets below
            classes = [(part, r - 1 if m == 0 else r) for m, part in parts]
            bounds, total_lb = [], first_cost
            for part, rr in classes:
                b = self._child_bound(part, rr, every)
                bounds.append(b)
                total_lb += b
                if total_lb >= best:  # refuted already
                    break
            if total_lb >= best:
                bound = min(bound, total_lb)
                continue
            total, rest, ok = first_cost, total_lb - first_cost, True
            for i in sorted(range(len(classes)), key=lambda i: classes[i][0].bit_count()):  # smallest first
                part, rr = classes[i]
                rest -= bounds[i]
                v, ex = self._solve(part, rr, best - total - rest, child, every)
                if self.aborted:
                    return 0, False
                total += v
                if not ex or total + rest >= best:
                    ok = False
                    bound = min(bound, total + rest)
                    break
            if ok:
                best, best_letter = total, c
        if best_letter >= 0:
            self.exact[key] = (best, best_letter)
            chosen[0] = best_letter
            return best, True
        bound = max(bound, lb)
        self.bounds[key] = bound
        return bound, False
