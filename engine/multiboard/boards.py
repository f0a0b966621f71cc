"""The boards' answer sets narrowed by the rule that the boards' answers all differ (`narrow`),
shared by the player (player.py), its exact endgame (endgame.py) and the lookups."""

from __future__ import annotations

import numpy as np


class Inconsistent(Exception):
    """No K-tuple of different answers fits the boards."""


def _matching(lists: list[list[int]]) -> dict[int, int] | None:
    """A matching of every board to a different answer of its list (word -> board), None if none
    exists (Kuhn's augmenting paths; boards with few answers first)."""
    owner: dict[int, int] = {}
    for b in sorted(range(len(lists)), key=lambda b: len(lists[b])):
        free = next((w for w in lists[b] if w not in owner), None)
        if free is not None:
            owner[free] = b
            continue
        seen: set[int] = set()

        def augment(board: int) -> bool:
            for w in lists[board]:
                if w in seen:
                    continue
                seen.add(w)
                if w not in owner or augment(owner[w]):
                    owner[w] = board
                    return True
            return False

        if not augment(b):
            return None
    return owner


def narrow(sets: list[np.ndarray]) -> list[np.ndarray]:
    """Each board's answers that some K-tuple of different answers, one from each board's set,
    uses (sorted arrays); Inconsistent if no such tuple exists.

    Where every set has at least K answers, every answer stays (any board can take any of its
    answers and the others each keep K - 1 to choose from: Hall's condition holds). Otherwise
    the boards with one answer settle theirs and take it from the others (_take_singles); what
    they leave is either settled by the sizes of the sets left or decided by a matching
    (_narrow_by_matching) of the boards left with more than one answer alone."""
    k = len(sets)
    if min(len(s) for s in sets) >= k:
        return sets
    out, settled = _take_singles(sets)
    if not settled:
        many = [b for b, s in enumerate(out) if len(s) > 1]
        for b, s in zip(many, _narrow_by_matching([out[b] for b in many])):
            out[b] = s
    return out


def _take_singles(sets: list[np.ndarray]) -> tuple[list[np.ndarray], bool]:
    """The sets once the boards with one answer have taken theirs, and whether that settles them.

    A board with one answer w takes w, so no other board can: w leaves the others' sets, which
    may leave another board with one answer (repeated until none does; two boards left with the
    same one answer, or a board with none, are Inconsistent). None of the R boards left with
    more than one answer can then use a single board's word, and which of their answers stay
    depends on those R sets alone. With their sizes sorted, s_1 <= ... <= s_R, if s_m >= m + 1
    for every m < R, every one of them stays (settled): let board i take its answer w; the other
    R - 1 boards' sets without w, sorted, have sizes u_1 <= ... <= u_{R-1} with
    u_m >= s_m - 1 >= m (leaving board i out makes no m-th smallest size smaller, taking w out
    lowers each by at most one), so taken in that order each has an answer the boards before it
    did not take (Hall's condition, greedily)."""
    out = list(sets)
    if any(len(s) == 0 for s in out):
        raise Inconsistent
    taken = np.zeros(max(int(s[-1]) for s in out) + 1, dtype=bool)
    alone = [b for b, s in enumerate(out) if len(s) == 1]
    done = 0
    while done < len(alone):
        for b in alone[done:]:
            w = int(out[b][0])
            if taken[w]:
                raise Inconsistent
            taken[w] = True
        done = len(alone)
        for b, s in enumerate(out):
            if len(s) > 1:
                kept = s[~taken[s]]
                if len(kept) < len(s):
                    if len(kept) == 0:
                        raise Inconsistent
                    out[b] = kept
                    if len(kept) == 1:
                        alone.append(b)
    many = sorted(len(s) for s in out if len(s) > 1)
    return out, all(size >= m + 2 for m, size in enumerate(many[:-1]))


def _narrow_by_matching(sets: list[np.ndarray]) -> list[np.ndarray]:
    """narrow's answer in every case, by a matching and its alternating paths.

    With a matching M of the boards to different words, board i can take word w of its set iff
    w is free in M, or w = M(i), or w = M(j) and board j can move on along an alternating path,
    ending at a free word or at M(i) (which i gives up)."""
    k = len(sets)
    lists = [s.tolist() for s in sets]
    owner = _matching(lists)
    if owner is None:
        raise Inconsistent
    word_of = {b: w for w, b in owner.items()}
    matched = np.array(sorted(owner), dtype=sets[0].dtype)
    has_free = [len(s) > int(np.isin(s, matched, assume_unique=True).sum()) for s in sets]
    members = [set(lst) if len(lst) < 4 * k else None for lst in lists]

    def holds(b: int, w: int) -> bool:
        if members[b] is not None:
            return w in members[b]
        i = int(np.searchsorted(sets[b], w))
        return i < len(sets[b]) and int(sets[b][i]) == w

    # moves[j]: boards j' whose word board j can take (j -> j' in the alternating graph)
    moves = [[j2 for j2 in range(k) if j2 != j and holds(j, word_of[j2])] for j in range(k)]
    # good: boards that can reach, moving along, a board with a free word
    good = set(b for b in range(k) if has_free[b])
    changed = True
    while changed:
        changed = False
        for j in range(k):
            if j not in good and any(j2 in good for j2 in moves[j]):
                good.add(j)
                changed = True

    def reaches(start: int, target: int) -> bool:
        seen, todo = {start}, [start]
        while todo:
            j = todo.pop()
            for j2 in moves[j]:
                if j2 == target:
                    return True
                if j2 not in seen:
                    seen.add(j2)
                    todo.append(j2)
        return False

    out = []
    for i, s in enumerate(sets):
        drop = [word_of[j] for j in range(k) if j != i and holds(i, word_of[j])
                and j not in good and not reaches(j, i)]
        out.append(s if not drop else s[~np.isin(s, np.array(drop, dtype=s.dtype))])
    return out
