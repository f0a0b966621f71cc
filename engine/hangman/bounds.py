"""Lower bounds on the Hangman least cost, proven outside the exact search: the partition bound
(parts of the words solved apart), the bound a best-found tree's file records, and the word
families that kernels._family_bound reads.

Measurements behind the parameters (BOUND_PARTS, GROUP_NODES, POOLED_BELOW) are in
docs/log/hangman.md.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from .game import WIN_POINTS, HangmanWords
from .memo import ENTRY_BYTES, half_of_memory

GROUP_NODES = 4_000_000  # partition_bound: node budget (and memo entries) of one part
POOLED_BELOW = 96  # partition_bound: the groups under this many words make one part
# partition_bound's parameters where the search does not finish: at lengths 3-6 the groups (by
# vowel pattern; at length 3 by middle letter, none pooled; at length 4 by last letter) packed into
# parts of at most `part_size` words, each part's search given `group_nodes` nodes: the parts as
# large as still solve in their nodes. Elsewhere every large group alone in GROUP_NODES nodes, the
# parts then made to agree on the first letter (levels=1, which over large parts would search each
# again for every first letter: hours).
BOUND_PARTS = {3: {"group_by": 1, "pooled_below": 1, "part_size": 330, "group_nodes": 40_000_000, "levels": 0},
               4: {"group_by": 3, "pooled_below": 96, "part_size": 600, "group_nodes": 40_000_000, "levels": 0},
               5: {"group_by": None, "pooled_below": 96, "part_size": 1800, "group_nodes": 40_000_000, "levels": 0},
               6: {"group_by": None, "pooled_below": 96, "part_size": 1800, "group_nodes": 40_000_000, "levels": 0}}

HOW_BOUND = ("the larger of: two guesses deep, the least cost over every first letter of its misses plus its "
             "children's bounds (below: the memo's or the miss-spine bound, summed over the classes of a letter every "
             "candidate contains); and the sum of the exact costs of parts of the words, each solved alone, a part "
             "being groups of words with the same vowels in the same places (group_by null) or the same letter at "
             "position group_by (from 0): the groups under pooled_below words together, the others packed into parts "
             "of at most part_size words (0: each alone), a part not solved in group_nodes nodes split in two; with "
             "levels 1, the least over the first letters of the sum of the parts' exact costs when opened with that "
             "letter")


def bound_parts(length: int) -> dict:
    """The keyword arguments of partition_bound at this length, as the build uses them."""
    return BOUND_PARTS.get(length, {"group_by": None, "pooled_below": POOLED_BELOW, "part_size": 0,
                                    "group_nodes": GROUP_NODES, "levels": 1})


def parts_within(length: int, memory_bytes: float | None, threads: int) -> dict:
    """bound_parts(length), each part's node budget cut to what `threads` memos of parts at once
    can have within `memory_bytes` (default half of the memory): a smaller machine gets a
    smaller bound, never a wrong one."""
    parts = bound_parts(length)
    cap = half_of_memory() if memory_bytes is None else memory_bytes
    if cap is not None:
        parts["group_nodes"] = min(parts["group_nodes"], int(cap / threads / ENTRY_BYTES))
    return parts


def proven_bound(s, members, length: int, memory_bytes: float | None, progress: bool, threads: int = 1,
                 max_nodes: int | None = None) -> dict:
    """The file's record of a proven upper bound on the expected score of the set (every tree's):
    the larger of Searcher.lower_bound two guesses deep and partition_bound with
    bound_parts(length), its parts solved `threads` at a time, their memos together within
    `memory_bytes` (default half of the memory), in `max_nodes` search nodes in all (None: no
    limit; the record's parts say it); `progress`: its bar (the parts can take most of an hour)."""
    started = time.perf_counter()
    parts = parts_within(length, memory_bytes, threads)
    bound = max(s.lower_bound(members, s.strikes, levels=2),
                partition_bound(s, members, s.strikes, **parts, progress=progress, threads=threads,
                                max_nodes=max_nodes))
    c_low, m_low = s.split_cost(bound)
    record = {"max_expected_score": round(WIN_POINTS - c_low / s.total_weight, 6),
              "max_total_score": WIN_POINTS * s.total_weight - c_low}
    if m_low is not None:  # the tie-break's part of the bound: the fewest misses a tree of that score can make
        record["least_total_misses_at_max"] = m_low
    if max_nodes is not None:  # the parts' searches had this many nodes in all (a part not solved: its lower bound)
        record["max_nodes"] = max_nodes
    return record | {"how": HOW_BOUND, "parts": parts, "seconds": round(time.perf_counter() - started, 3)}


def word_families(hw: HangmanWords, weights) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(families, rank_weight, rank_word, spelled) for kernels._family_bound: families[w, p] is the
    family of w at p (the first word, in order, spelled as w everywhere but at p, with its letter
    at p nowhere else) shifted left past the bits of a word number, or'ed with w's rank by weight
    (heaviest first, ties in word order), or -1 where w's letter at p is elsewhere in w too or no
    other word is in its family; rank_weight[k] and rank_word[k] are the weight and the number of
    the word of rank k; spelled[w, p] is w's letter at p (0 for a)."""
    n = len(hw.words)
    shift = max(0, n - 1).bit_length()
    rank = np.empty(n, dtype=np.int64)
    by_weight = np.argsort(-np.asarray(weights), kind="stable")
    rank[by_weight] = np.arange(n)
    families = np.full((n, hw.length), -1, dtype=np.int64)
    for p in range(hw.length):
        members: dict[str, list[int]] = {}
        for w, word in enumerate(hw.words):
            rest = word[:p] + word[p + 1:]
            if word[p] not in rest:
                members.setdefault(rest, []).append(w)
        for family in members.values():
            if len(family) > 1:  # a word alone in its family wherever it is counts as any word does
                families[family, p] = family[0] << shift | rank[family]
    spelled = np.array([[ord(ch) - ord("a") for ch in word] for word in hw.words], dtype=np.int64)
    return (families, np.ascontiguousarray(np.asarray(weights, dtype=np.int64)[by_weight]),
            np.ascontiguousarray(by_weight.astype(np.int64)), spelled.reshape(n, hw.length))


def partition(hw: HangmanWords, members, pooled_below: int = POOLED_BELOW, part_size: int = 0,
              group_by: int | None = None) -> list[list[int]]:
    """The parts of the set that partition_bound solves apart (see there): the groups of words
    with the same vowels in the same places (or the same letter at position `group_by`), those
    under `pooled_below` words pooled into the first part, the others packed, largest first, into
    parts of at most `part_size` words."""
    if group_by is not None and not 0 <= group_by < hw.length:
        raise ValueError(f"group_by {group_by}: the words have positions 0 to {hw.length - 1}")
    words = hw.words
    groups: dict[str, list[int]] = {}
    for m in np.unique(np.asarray(members)):
        key = "".join(c if c in "aeiouy" else "?" for c in words[m]) if group_by is None else words[m][group_by]
        groups.setdefault(key, []).append(int(m))
    parts = [[m for g in groups.values() if len(g) < pooled_below for m in g]]
    for group in sorted((g for g in groups.values() if len(g) >= pooled_below), key=len, reverse=True):
        fits = [p for p in parts[1:] if len(p) + len(group) <= part_size]
        if fits:
            fits[0] += group
        else:
            parts.append(list(group))
    return parts


def partition_bound(s, members, strikes: int, group_nodes: int = GROUP_NODES, pooled_below: int = POOLED_BELOW,
                    part_size: int = 0, group_by: int | None = None, levels: int = 0, progress: bool = False,
                    threads: int = 1, within=None, solved: dict | None = None, max_nodes: int | None = None) -> int:
    """A lower bound on the least cost of the set (Searcher `s`'s game) from splitting it into
    parts and solving each one exactly.

    Sound because the least cost is superadditive over any partition: a tree for the whole set,
    followed only as far as a part still has two or more candidates, is a tree for the part whose
    every word pays at most what it paid in the whole tree (its path is a prefix). So the sum of
    the parts' least costs is at most the set's least cost.

    The parts are made of groups of words with the same vowels in the same places (`?a?`: bat,
    cat, ham, ...): they differ only in consonants, whose search costs most of the misses, alone
    as among all the words. `group_by` = p groups by the letter at position p instead (at length
    3, where the vowel is mostly the middle letter). A part solved whole also pays for telling its
    groups apart (short words: the price of finding the vowel, which every tree pays), so larger
    parts make a larger bound while they can be solved:
    - the groups under `pooled_below` words are pooled into one part;
    - the other groups are packed, largest first, into parts of at most `part_size` words (a
      larger group is a part alone; 0: every group alone).
    A part whose search needs more than `group_nodes` nodes is split in two halves (its groups in
    order, so at most one group is cut), each solved in a memo of its own (room for `group_nodes`
    entries). The parts are independent searches: `threads` of them run at once, each thread with
    its own searcher and memo (the kernels release the GIL); the bound is the same sum whatever
    the order.

    levels=1 makes the parts agree on the first letter: the bound is the least, over the set's
    useful letters L, of the sum over the parts of their least cost when opened with L. Sound: an
    optimal tree opens with some useful letter L, and each class of L is then played by a tree
    whose cost is, by superadditivity again, at least the sum of the parts' least costs in that
    class; summed over the classes, with L's misses, that is the parts' least costs when opened
    with L. Each part's solved memo serves its 26 openings. Apart, parts pay nothing for guessing
    a letter that splits only another part.

    `within`: a set that holds `members` (every word, say) whose parts are made, then cut down to
    `members`, so that subsets of one set share every part that loses no word to them; `solved`:
    a dict, kept across calls with one `group_nodes`, of each part's outcome, found there again
    instead of searched (refute_openings with `parts`: the miss classes of two letters share the
    parts that hold neither letter, and each miss class costs a whole partition bound).

    `max_nodes`: the search nodes of every part's searches together (None: no limit). Once they
    are spent, a part not solved is bounded instead (Searcher.lower_bound: the sum stays a lower
    bound, only a weaker one), so that the build's node limit holds in this phase too. A Ctrl-C
    or TERM stops every part's search at its next node (Searcher.stop) and goes on up."""
    members = np.unique(np.asarray(members))
    held = np.zeros(len(s.hw.words), dtype=np.bool_)
    held[members] = True
    parts = [[m for m in part if held[m]]
             for part in partition(s.hw, members if within is None else within, pooled_below, part_size, group_by)]
    if held.sum() != sum(map(len, parts)):
        raise ValueError("within must hold every member")
    openings = s.useful_letters(members) if levels else []
    searchers: queue.SimpleQueue = queue.SimpleQueue()
    made = [type(s)(s.hw, s.lives, memo_entries=16, free_first=s.free_first) for _ in range(max(1, threads))]
    for alone in made:
        searchers.put(alone)
    budget = _Budget(max_nodes)

    def solve_part(part: list[int]) -> tuple[int | None, list[int]]:
        key = (np.asarray(part, dtype=np.int64).tobytes(), strikes, tuple(openings))
        if solved is not None and key in solved:
            return solved[key]
        alone = searchers.get()
        try:
            found = _solved_part(alone, part, strikes, group_nodes, openings, budget)
            if solved is not None and max_nodes is None:
                solved[key] = found
            return found
        finally:
            alone.memo.allocate(16)  # its memory back at once
            searchers.put(alone)

    weight = int(s.weights[members].sum()) or 1

    def score(cost: int) -> str:  # the bar's bound so far: the parts solved so far bound the set already
        return f"expected score at most {WIN_POINTS - s.split_cost(cost)[0] / weight:.4f}"

    def stop() -> None:
        for alone in made:
            alone.stop()

    total, extra = _sum_parts(solve_part, parts, len(openings), threads, progress, score, stop)
    return total + (min(extra) if openings else 0)


class _Budget:
    """The search nodes partition_bound's parts may still spend together (None: no limit),
    handed out to its threads: `take` what a search may spend, `give_back` what it did not."""

    def __init__(self, nodes: int | None):
        self.left, self.lock = nodes, threading.Lock()

    def take(self, nodes: int) -> int:
        with self.lock:
            if self.left is None:
                return nodes
            granted = max(0, min(nodes, self.left))
            self.left -= granted
            return granted

    def give_back(self, nodes: int) -> None:
        with self.lock:
            if self.left is not None:
                self.left += max(0, nodes)

    def spent(self) -> bool:
        return self.left is not None and self.left <= 0


def _searched(alone, members, strikes: int, nodes: int, budget: _Budget) -> tuple[int, bool]:
    """Searcher.solve of the set in at most `nodes` nodes taken from `budget`: (value, exact)."""
    granted = budget.take(nodes)
    if not granted or alone.stopped:
        return 0, False
    try:
        cost, ok, _ = alone.solve(members, strikes, max_nodes=granted)
    finally:
        budget.give_back(granted - min(alone.nodes, granted))  # (it counts the node it stops at, unsearched)
    return cost, ok


def _solved_part(alone, part: list[int], strikes: int, group_nodes: int, openings: list[int],
                 budget: _Budget | None = None) -> tuple[int | None, list[int]]:
    """(the part's least cost, or None if not found in `group_nodes` nodes; each opening's cost
    above it), searched by `alone` in a memo of `group_nodes` entries, its nodes taken from
    `budget`; once that is spent (or the search stopped), a part not solved has its lower bound
    for a cost, and nothing above it for each opening (both sound)."""
    budget = budget or _Budget(None)
    alone.memo.allocate(max(16, group_nodes if budget.left is None else min(group_nodes, max(0, budget.left))))
    cost, ok = _searched(alone, part, strikes, group_nodes, budget)
    if not ok:
        if budget.spent() or alone.stopped:
            return alone.lower_bound(np.asarray(part), strikes), [0] * len(openings)
        return None, []

    def class_bound(cls, r: int) -> int:
        value, exact = _searched(alone, cls, r, group_nodes, budget)
        return value if exact else alone.lower_bound(cls, r)

    return cost, [max(0, alone.opening_cost(np.array(part), strikes, letter, class_bound) - cost)
                  for letter in openings]  # each at least the part's least cost, which is exact


def _sum_parts(solve_part, parts: list[list[int]], openings: int, threads: int, progress: bool, score=str,
               stop=None) -> tuple[int, list[int]]:
    """(the sum of the parts' least costs, each opening's sum of costs above them): the parts
    solved `threads` at a time, a part not solved in its nodes replaced by its halves, with a bar
    of the words of the parts solved and `score(the sum so far)` beside it; `openings`: how many
    openings each part's outcome costs. A Ctrl-C or TERM calls `stop()` (the searches under way
    end at their next node), waits for the threads, and goes on up."""
    from ..progress import progress_bar

    total, extra = 0, [0] * openings  # extra: each opening's cost above the parts' least costs
    bar = progress_bar(sum(map(len, parts)), desc="bound: words of the parts solved", unit="words", show=progress)
    bar.update(sum(len(part) for part in parts if len(part) < 2))
    parts = [part for part in parts if len(part) >= 2]
    pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="parts")
    try:
        running = {pool.submit(solve_part, part): part for part in parts}
        while running:
            done, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in done:
                part = running.pop(future)
                cost, above = future.result()
                if cost is None:  # not solved in its nodes: its halves are
                    for half in (part[: len(part) // 2], part[len(part) // 2 :]):
                        if len(half) >= 2:
                            running[pool.submit(solve_part, half)] = half
                        else:
                            bar.update(len(half))
                    continue
                total += cost
                extra = [a + b for a, b in zip(extra, above)]
                bar.set_postfix_str(score(total), refresh=False)
                bar.update(len(part))
    except BaseException:  # Ctrl-C or TERM (or an error): the searches under way stopped, not waited for
        if stop is not None:
            stop()
        raise
    finally:  # after Ctrl-C, the parts under way end at their next node
        pool.shutdown(wait=True, cancel_futures=True)
        bar.close()
    return total, extra
