"""Proven lower bounds on the Dordle optimum of a whole game, by opener and overall (notation in
bounds.py: W(S1, S2, d), V1(S, d), the root (A, A) with cap D).

Opening with g costs exactly (search.py's recurrence)

    cost(g) = m + [g in A] 2 sum over classes C of g of V1(C, D-1) + sum over child states s of W(s, D-1),

m = |A| (|A| - 1), the child states being (Cp, Cq) for every two non-winning classes of g (p = q:
an identical pair of sets). The optimum is min over g of cost(g).

Depth 1 (`root_bounds`): each V1 replaced by the class bound cb and each W by the counting
bound (bounds.child_bound): bounds.guess_bound at the root, for every guess in one kernel pass
(kernels.guess_bounds). Their least, over all the allowed guesses, is a lower bound on the optimum.

Depth 2 (`opener_bound`): each W(s, D-1) replaced by the larger of child_bound and the least,
over every allowed guess h, of the counting bound of opening s with h (bounds.guess_bound).
Proof: W(s, D-1) = min over h of cost(s, h) (the recurrence at s), and each cost(s, h) is at least
its counting bound, so the least bound over all h is at most W(s, D-1). No guess is skipped (a
pruned guess list would only be valid with its own proof). States of one or two pairs take
their exact value (search.DordleSearch.shortcut). The V1 terms keep the class bound cb.

Projection at the root (`projection_root_bound`): W(A, A, D) >= ceil((2L + m) / 2), L = sum over b
in A of V1(A minus {b}, D) (bounds.projection_bound: a strategy watching one board, the other's
answer fixed, is a single-board strategy; each pair costs max(t1, t2) >= (t1 + t2 + 1) / 2), and
V1(A minus {b}, D) >= V1(A, D + 1) - (D + 1) (bounds.removal_bound: b added to a tree of the others
costs at most D + 1). So any proven lower bound V on V1(A, D + 1) gives
W >= |A| (V - D - 1) + ceil(m / 2). Unlike the counting bound it sees the single-board optimum.

An opener whose bound exceeds the total of a strategy someone has evaluated (heuristic.py) is
not optimal. The depth-2 bound of an opener comes for free with the heuristic strategy's walk
from it (heuristic.evaluate_opener); this module computes it alone.
"""

from __future__ import annotations

import numpy as np

from ..jit import INF64
from . import bounds
from .heuristic import root_parts
from .kernels import Bounds, guess_bounds


def root_bounds(search) -> np.ndarray:
    """The depth-1 bound of opening with each allowed guess (indexed by guess id)."""
    S, _, ident, d = search.root()
    return search.bounds_of(S, S, ident, d).lbs


def least_guess_bound(search, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, work: dict | None = None) -> int:
    """min over every allowed guess h of the counting bound of opening the state with h (a
    lower bound on W(S1, S2, d)), at least child_bound; exact for one or two pairs."""
    m = bounds.pairs(len(S1), len(S2), ident)
    if m == 0:
        return 0
    if d <= 1:
        return INF64
    if m <= 2:
        return search.shortcut(S1, S2, ident, d)[0]
    G = search.all_guesses
    w = work if work is not None else {}
    if not w:
        w.update(out=Bounds(np.empty(len(G), np.int64), np.empty(len(G), np.int64), np.empty(len(G), np.bool_)),
                 mark1=np.zeros(search.n_answers, np.bool_), mark2=np.zeros(search.n_answers, np.bool_))
    mark1, mark2 = w["mark1"], w["mark2"]
    mark1[S1] = True
    mark2[S2] = True
    guess_bounds(search.tables, G, S1, S2, ident, mark1, mark2, d, w["out"])
    mark1[S1] = False
    mark2[S2] = False
    return max(int(w["out"].lbs.min()), bounds.child_bound(len(S1), len(S2), ident, d))


def projection_root_bound(search, v1_floor: int | None = None) -> int:
    """The projection bound on the optimum of the whole game from v1_floor, a proven lower bound
    on the single-board optimum V1(A, D + 1) (None: computed here exactly, for small games)."""
    A, _, _, d = search.root()
    n = len(A)
    v = search.v1(A, d + 1) if v1_floor is None else int(v1_floor)
    if v >= INF64:
        return INF64
    L = n * bounds.removal_bound(v, d)
    return bounds.projection_bound(L, L, n * (n - 1))


def opener_bound(search, first: int, progress=None) -> int:
    """The depth-2 lower bound on the total of any strategy opening with `first`."""
    d = search.cap
    m, children, singles = root_parts(search, first)
    total = m + sum(2 * int(search.cb[d - 1, len(C)]) for C in singles)
    work: dict = {}
    for C1, C2, ident in children:
        total = min(INF64, total + least_guess_bound(search, C1, C2, ident, d - 1, work))
        if progress is not None:
            progress.update(1)
    return total
