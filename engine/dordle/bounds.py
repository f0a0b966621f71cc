"""Lower bounds on the Dordle value of a state, each with its proof. The search (search.py) prunes
with them; the tests check each against the brute force (tests/reference_dordle.py).

Notation. A state (S1, S2, d): both boards unsolved, answers S1 on board 1 and S2 on board 2, d
guesses left; its pairs P = {(a, b) in S1 x S2 : a != b}, m = |P|. W(S1, S2, d) is the least
total, over the pairs, of the guesses still to play until both boards are solved (each
unfinished pair pays one per guess), INF64 when no strategy finishes every pair within d. For a
pair and a strategy, t1 and t2 are the guesses (from now) that solve board 1 and board 2; the
pair's cost is max(t1, t2). V1(S, d) is the single-board optimum (exact.Solver.solve).

Below the root (A, A) a state's sets are identical (`ident`: S1 = S2 = S) or disjoint: one guess
gives an answer one pattern, so two classes of different patterns never meet, and the classes
of one pattern in S and S are the same set.

Two facts every bound uses:
  (F1) t1 != t2: a guess equals at most one of a != b, so it solves at most one board.
  (F2) a pair's cost is at least 2 (F1, and t1, t2 >= 1), and exactly 2 only when the next guess
       is a or b and the other is the guess after.

(d) Mirror symmetry: W(S1, S2, d) = W(S2, S1, d). A strategy for (S1, S2) played with the boards
swapped (the same guesses, each node reading the two patterns in the other order) is a strategy
for (S2, S1) in which the pair (b, a) pays what (a, b) paid; so each value is at most the other.
The search keys its memo by the two sets in sorted order (search.USE_MIRROR).
"""

from __future__ import annotations

from ..jit import INF64


def pairs(n1: int, n2: int, ident: bool) -> int:
    return n1 * (n1 - 1) if ident else n1 * n2


def child_bound(a: int, b: int, ident: bool, d: int) -> int:
    """The counting bound (c) on W of a state of sizes a, b (ident: a = b, S1 = S2).

    Claim. Disjoint: W >= 3ab - max(a, b); ident (size s): W >= 3s(s-1) - 2(s-1). Both INF64 when
    d <= 1 (m > 0), and when d = 2 unless min(a, b) = 1 (disjoint) or s <= 2 (ident).

    Proof. Let h be the next guess. Every pair pays 1 for it. A pair that h does not solve a
    board of still needs two different guesses (F1): >= 2 more. A pair (h, b) (h solved board 1)
    goes on as a single board: the pairs (h, b) with b in one class C of h on S2 cost, together,
    V1(C, d-1) >= 2|C| - 1 (one of them may be solved by the next guess, the others need two).
    So W >= m + 2(m - n_h) + sum over those classes of (2|C| - 1) = 3m - k_h, where n_h counts the
    pairs containing h and k_h the classes they fall into, k_h <= n_h. Disjoint: h lies in at
    most one of S1, S2, so n_h <= max(a, b). Ident: h in S gives the pairs (h, b) and (a, h),
    2(s - 1) of them. With d = 1 no pair can finish (F1). With d = 2 each pair must cost exactly
    2, so by (F2) every pair contains h: in a disjoint state one side is {h}; in an ident state
    s <= 2."""
    m = pairs(a, b, ident)
    if m == 0:
        return 0
    if d <= 1:
        return INF64
    if ident:
        if d == 2 and a > 2:
            return INF64
        return 3 * m - 2 * (a - 1)
    if d == 2 and min(a, b) > 1:
        return INF64
    return 3 * m - max(a, b)


def guess_bound(sizes1, sizes2, in1: bool, in2: bool, ident: bool, d: int, cb) -> int:
    """The counting bound on the cost of opening the state with a guess g (the plain twin of
    kernels.guess_bounds): sizes1, sizes2 its non-winning class sizes on S1 and S2 (ident: on
    S), in1/in2 whether g is in S1/S2, cb[d][c] the single-board class bound.

    Proof: the cost is exactly m + (in1) sum over classes C2 of V1(C2, d-1) + (in2) sum over
    classes C1 of V1(C1, d-1) + sum over child states of W(child, d-1) (every pair pays 1; a
    pair whose board g solved goes on alone in its class; the others in the child state of
    their two patterns). Each term is replaced by a lower bound: cb for V1, child_bound for W.
    In an ident state the children are (Cp, Cq) for p != q, disjoint, and (Cp, Cp), ident."""
    total = pairs(sum(sizes1) + in1, sum(sizes2) + in2, ident)
    if in1:
        total += sum(cb[d - 1][c] for c in sizes2)
    if in2:
        total += sum(cb[d - 1][c] for c in sizes1)
    if ident:
        for p, a in enumerate(sizes1):
            for q, b in enumerate(sizes1):
                total += child_bound(a, a, True, d - 1) if p == q else child_bound(a, b, False, d - 1)
    else:
        for a in sizes1:
            for b in sizes2:
                total += child_bound(a, b, False, d - 1)
    return min(total, INF64)


def projection_bound(L1: int, L2: int, m: int) -> int:
    """The projection bound (a) with the pair bound (b): W >= max(L1, L2, ceil((L1 + L2 + m) / 2)),
    where L1 = sum over b in S2 of V1(S1 minus {b}, d) (disjoint: |S2| V1(S1, d)) and L2 likewise.

    (a) Fix board 2's answer b. Then board 2's feedback is a function of the guesses, so the
    strategy, watching board 1 only, is a deterministic single-board strategy for the answers
    S1 minus {b}, within d guesses (every pair finishes within d, so t1 <= d). Its total sum over
    a of t1(a, b) is then at least V1(S1 minus {b}, d); summing over b, sum over P of t1 >= L1.
    Likewise sum of t2 >= L2. A pair costs max(t1, t2), so W >= L1 and W >= L2.
    (b) max(t1, t2) >= min(t1, t2) + 1 by (F1), so max(t1, t2) >= (t1 + t2 + 1) / 2, and summed
    W >= (L1 + L2 + m) / 2; W is an integer, hence the ceiling.
    Any L at or past INF64 means no single-board tree fits, so no Dordle strategy does."""
    if m == 0:
        return 0
    if L1 >= INF64 or L2 >= INF64:
        return INF64
    return max(L1, L2, (L1 + L2 + m + 1) // 2)


def removal_bound(v_deeper: int, d: int) -> int:
    """A lower bound on V1(S minus {b}, d) from v_deeper = V1(S, d + 1).

    Proof: take an optimal tree T for S minus {b} within d guesses and let b follow it. At the
    first node where b's pattern is new (no answer of T shares it), guess b next: b is solved at
    most one guess below a node of T, so within d + 1. If b's patterns match some answer a all
    the way to a's leaf, the leaf's guess a gives b a non-winning pattern (a != b), and b is
    guessed next: within t(a) + 1 <= d + 1. Either way T plus b is a tree for S within d + 1
    whose total is V1(S minus {b}, d) + t(b) <= V1(S minus {b}, d) + d + 1, so
    V1(S minus {b}, d) >= V1(S, d + 1) - (d + 1). V1(S, d + 1) infinite therefore makes
    V1(S minus {b}, d) infinite too."""
    if v_deeper >= INF64:
        return INF64
    return max(0, v_deeper - (d + 1))
