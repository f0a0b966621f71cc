"""Absurdle's challenge mode: the player is given a target answer X and must make Absurdle end on
X. Under the qntm rule the adversary is deterministic, so a game is a list of guesses and the
fewest guesses for X is a shortest path over the buckets the adversary keeps: the least k such
that some k guesses leave it the bucket {X}, plus one for X itself. (A guess of X while others are
left never wins: under qntm the win is the last of equal buckets, so the adversary keeps another
one-answer bucket; it wins only on {X} alone.)

The enumeration is by layers, exhaustive, shared by every target: layer 0 is every answer; layer
j + 1 holds each bucket the adversary keeps after some guess on a layer-j bucket, kept once (a
bucket met before, at this layer or an earlier one, is not kept again: what follows it was or
will be followed from its first place, as early or earlier). A target is reached at depth d when
{X} is kept after d - 1 guesses. Per layer j, in this order:

1. scan: for every bucket of layer j + 1 as it is made, every guess that tells it apart
   whole (every answer its own feedback) leaves the one answer the adversary prefers (fewest
   greens, ...): that target is reached at depth j + 3 if it was not before. Every target of
   depth j + 2 was reached before (by the scan of layer j), so the first found is the fewest.
2. the buckets of layer j + 1 are those of more than one answer holding a target not yet reached
   (sound: the bucket kept is a subset of the one before, so from a bucket without an open target
   no open target can be reached), new ones only.

A guess tells apart at most as many answers as it has feedbacks on a superset, so the scan of a
bucket tries only the guesses with at least as many feedbacks on its parent (`bound`), in that
order, and stops at the first with fewer. A guess that leaves the bucket whole is never expanded
(the same bucket, one guess later).

Past `expand_layers` layers (the full lists: layer 2 holds millions of buckets) the targets left
are searched one at a time at the depth their lower bound says (`target_line`): every bucket of the
last layer that holds X, every guess whose kept bucket holds X, and that bucket's scan for a guess
that leaves {X}. A target found so is exact (its lower bound is the exhaustive layers'); one not
found within `target_seconds` keeps its lower bound only, labelled so, and a search that tried
every such bucket without a line raises the bound by one.

The kernels (jitted, all in this module) have plain twins in tests/test_absurdle_challenge.py,
and the whole against a brute force of every guess sequence on small lists (reference_absurdle).
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import Stopped, UserError
from ..files import Checkpoint
from ..jit import kernel
from .rule import code_rank

FORMAT = "wordtree-absurdle-challenge/1"
CHECKPOINT_FORMAT = "wordtree-absurdle-challenge-checkpoint/1"


@kernel
def _kept(M, S, g, rank, cnt):
    """(code, size): the bucket the adversary keeps after guess g on S under qntm (the largest,
    the first of them by `rank`). `cnt` is zero on entry and left so."""
    for a in S:
        cnt[M[g, a]] += 1
    size = 0
    best = -1
    for a in S:
        c = M[g, a]
        k = cnt[c]
        if k > size or (k == size and rank[c] < rank[best]):
            size = k
            best = c
    for a in S:
        cnt[M[g, a]] = 0
    return best, size


@kernel
def _kept_all(M, S, rank, x):
    """For every guess g on S under qntm: the size of the bucket the adversary keeps (_kept), or 0
    where that bucket does not hold answer x (position.target_line's step)."""
    out = np.zeros(M.shape[0], np.int64)
    cnt = np.zeros(rank.size, np.int64)
    for g in range(M.shape[0]):
        code, size = _kept(M, S, g, rank, cnt)
        out[g] = size if M[g, x] == code else 0
    return out


@kernel
def _bound(M, S, seen, epoch):
    """(bound, epoch): how many feedbacks each guess has on S. `seen` below `epoch` on entry."""
    G = M.shape[0]
    bound = np.zeros(G, np.int64)
    for g in range(G):
        epoch += 1
        k = 0
        for a in S:
            c = M[g, a]
            if seen[c] != epoch:
                seen[c] = epoch
                k += 1
        bound[g] = k
    return bound, epoch


@kernel
def _scan(M, C, order, bound, rank, open_, seen, epoch, out_target, out_guess):
    """(found, epoch): every guess in `order` that tells C apart whole, scanned while its bound is
    at least |C|; each leaves the adversary the answer of least rank, and each such answer that is
    open (open_[a] != 0) is closed and listed (out_target, out_guess). Stops when C holds no open
    answer."""
    n = C.size
    left = 0
    for a in C:
        if open_[a] != 0:
            left += 1
    found = 0
    if left == 0:
        return 0, epoch
    for i in range(order.size):
        h = order[i]
        if bound[h] < n:
            break
        epoch += 1
        ok = True
        best = -1
        winner = -1
        for a in C:
            c = M[h, a]
            if seen[c] == epoch:
                ok = False
                break
            seen[c] = epoch
            if best < 0 or rank[c] < rank[best]:
                best = c
                winner = a
        if ok and open_[winner] != 0:
            open_[winner] = 0
            out_target[found] = winner
            out_guess[found] = h
            found += 1
            left -= 1
            if left == 0:
                break
    return found, epoch


@kernel
def _member(node, a, M, parent, guess, code):
    """Whether answer a is in the bucket of `node` (node 0: every answer)."""
    while node != 0:
        if M[guess[node], a] != code[node]:
            return False
        node = parent[node]
    return True


@kernel
def _insert(table, h, j):
    """Node j of hash h into the open-addressing `table` (its size a power of two)."""
    mask = table.size - 1
    slot = np.int64(h & np.uint64(mask))
    while table[slot] >= 0:
        slot = (slot + 1) & mask
    table[slot] = j


@kernel
def _rehash(table, hashes, n):
    table[:] = -1
    for j in range(n):
        _insert(table, hashes[j], j)


@kernel
def _expand(M, P, p_node, rank, open_, Z, scan, table, parent, guess, code, size, hashes, n,
            seen, epoch, out_target, out_node, out_guess):
    """Every bucket the adversary keeps after a guess on P (the bucket of node p_node): those of
    more than one answer, smaller than P, holding an open answer and met for the first time
    become nodes n, n + 1, ... (table, parent, guess, code, size, hashes: room for every guess's
    is left by the caller); with `scan`, each new one is scanned (`_scan`, bounded by P's
    feedback counts) and every open answer it leaves alone is closed and listed with its node and
    guess. Returns (n, found, epoch)."""
    G = M.shape[0]
    cnt = np.zeros(rank.size, np.int64)
    buf = np.empty(P.size, np.int32)
    targets = np.empty(P.size, np.int64)
    guesses = np.empty(P.size, np.int64)
    found = 0
    mask = table.size - 1
    if scan:
        bound, epoch = _bound(M, P, seen, epoch)
        order = np.argsort(-bound, kind="mergesort")
    else:
        bound = np.zeros(1, np.int64)
        order = np.zeros(0, np.int64)
    for g in range(G):
        c, s = _kept(M, P, g, rank, cnt)
        if s == P.size or s == 1:
            continue
        m = 0
        h = np.uint64(0)
        has_open = False
        for a in P:
            if M[g, a] == c:
                buf[m] = a
                m += 1
                h += Z[a]
                if open_[a] != 0:
                    has_open = True
        if not has_open:
            continue
        slot = np.int64(h & np.uint64(mask))
        dup = False
        while table[slot] >= 0:
            j = table[slot]
            if hashes[j] == h and size[j] == s:
                same = True
                for i in range(m):
                    if not _member(j, buf[i], M, parent, guess, code):
                        same = False
                        break
                if same:
                    dup = True
                    break
            slot = (slot + 1) & mask
        if dup:
            continue
        parent[n] = p_node
        guess[n] = g
        code[n] = c
        size[n] = s
        hashes[n] = h
        table[slot] = n
        if scan:
            k, epoch = _scan(M, buf[:m], order, bound, rank, open_, seen, epoch, targets, guesses)
            for i in range(k):
                out_target[found] = targets[i]
                out_node[found] = n
                out_guess[found] = guesses[i]
                found += 1
        n += 1
    return n, found, epoch


@kernel
def _members(node, M, parent, guess, code, out):
    """The answers of `node`'s bucket into `out`; how many."""
    m = 0
    for a in range(M.shape[1]):
        if _member(node, a, M, parent, guess, code):
            out[m] = a
            m += 1
    return m


@kernel
def _holding(x, lo, hi, M, parent, guess, code):
    """The nodes lo .. hi - 1 whose bucket holds answer x."""
    out = np.empty(hi - lo, np.int64)
    k = 0
    for j in range(lo, hi):
        if _member(j, x, M, parent, guess, code):
            out[k] = j
            k += 1
    return out[:k]


@kernel
def _target_from(M, B, x, rank, seen, epoch):
    """(g, h, epoch): a guess g whose kept bucket on B holds x and a guess h that then leaves the
    adversary x alone; (-1, -1) if none (every guess tried)."""
    G = M.shape[0]
    cnt = np.zeros(rank.size, np.int64)
    bound, epoch = _bound(M, B, seen, epoch)
    order = np.argsort(-bound, kind="mergesort")
    buf = np.empty(B.size, np.int32)
    one = np.zeros(M.shape[1], np.int8)
    targets = np.empty(1, np.int64)
    guesses = np.empty(1, np.int64)
    for g in range(G):
        c, s = _kept(M, B, g, rank, cnt)
        if s == B.size or s == 1 or M[g, x] != c:
            continue
        m = 0
        for a in B:
            if M[g, a] == c:
                buf[m] = a
                m += 1
        one[x] = 1
        k, epoch = _scan(M, buf[:m], order, bound, rank, one, seen, epoch, targets, guesses)
        if k:
            return g, guesses[0], epoch
    return -1, -1, epoch


@dataclass
class Nodes:
    """The buckets met so far, as nodes: node j's bucket is the answers of parent[j]'s that give
    guess[j] the feedback code[j] (node 0: every answer); with a hash table over them."""

    capacity: int = 1 << 16
    n: int = 1
    parent: np.ndarray = field(default=None)
    guess: np.ndarray = field(default=None)
    code: np.ndarray = field(default=None)
    size: np.ndarray = field(default=None)
    hashes: np.ndarray = field(default=None)
    layer: np.ndarray = field(default=None)
    table: np.ndarray = field(default=None)

    def __post_init__(self):
        c = self.capacity
        self.parent = np.zeros(c, np.int32)
        self.guess = np.zeros(c, np.int32)
        self.code = np.zeros(c, np.int32)
        self.size = np.zeros(c, np.int32)
        self.hashes = np.zeros(c, np.uint64)
        self.layer = np.zeros(c, np.int8)
        self.table = np.full(2 * c, -1, np.int32)

    def room(self, more: int) -> None:
        if self.n + more <= self.capacity:
            return
        c = 2 * self.capacity
        while c < self.n + more:
            c *= 2
        for name in ("parent", "guess", "code", "size", "hashes", "layer"):
            old = getattr(self, name)
            new = np.zeros(c, old.dtype)
            new[: self.n] = old[: self.n]
            setattr(self, name, new)
        self.capacity = c
        self.table = np.full(2 * c, -1, np.int32)
        _rehash(self.table, self.hashes, self.n)

    def path(self, j: int) -> list[int]:
        out = []
        while j != 0:
            out.append(int(self.guess[j]))
            j = int(self.parent[j])
        return out[::-1]

    def nbytes(self) -> int:
        return sum(getattr(self, k).nbytes for k in ("parent", "guess", "code", "size", "hashes", "layer", "table"))


def lower_bound(matrix: np.ndarray, rank: np.ndarray) -> int:
    """The counting bound on every target's fewest guesses: 2 (one guess, then X); 3 where no guess
    tells every answer apart; 4 where every opener leaves a bucket larger than any guess has
    feedbacks on all the answers (no second guess leaves one answer either)."""
    A = np.arange(matrix.shape[1], dtype=np.int32)
    seen = np.zeros(rank.size, np.int64)
    bound, _ = _bound(matrix, A, seen, 0)
    cnt = np.zeros(rank.size, np.int64)
    most = int(bound.max())
    if A.size > most:
        smallest = min(_kept(matrix, A, g, rank, cnt)[1] for g in range(matrix.shape[0]))
        return 4 if smallest > most else 3
    return 2


def rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def checkpoint_for(path, game) -> Checkpoint:
    return Checkpoint(path, "Absurdle challenge", {"format": CHECKPOINT_FORMAT, "game": game.identity(),
                                                    "rule": "qntm"})


def build(game, *, expand_layers: int | None = None, target_seconds: float = 60.0, checkpoint=None,
          resume: bool = False, overwrite: bool = False, say=print, seed: int = 1) -> dict:
    """The challenge table as a wordtree-absurdle-challenge/1 document. `expand_layers`: how many
    layers are expanded exhaustively (None: until every target is reached or none is left to
    reach); past them, targets are searched one at a time (`target_seconds` each)."""
    if getattr(game, "kind", "") != "wordle":
        raise UserError(f"Absurdle is played on Wordle lists; {game.name} is not a Wordle game")
    if len(game.answers) < 2:
        raise UserError("Absurdle needs at least two answers")
    from ..wordle.patterns import pattern_matrix

    started = time.monotonic()
    M = pattern_matrix(game).matrix
    rank = code_rank(game.length)
    G, A = M.shape
    Z = np.random.default_rng(seed).integers(0, np.iinfo(np.int64).max, A, dtype=np.int64).astype(np.uint64)
    open_ = np.ones(A, np.int8)
    rows: dict[str, dict] = {}
    nodes = Nodes()
    nodes.hashes[0] = Z.sum(dtype=np.uint64)
    nodes.size[0] = A
    _insert(nodes.table, nodes.hashes[0], 0)
    seen = np.zeros(rank.size, np.int64)
    epoch = 0
    layers = []
    counting = lower_bound(M, rank)
    saved = {}
    with (checkpoint.held(resume=resume, overwrite=overwrite) if checkpoint else _nothing()):
        if checkpoint and checkpoint.payload:
            saved = checkpoint.payload
            for x, row in saved["rows"].items():
                rows[x] = row
                open_[game.answer_index[x]] = 0
        # layer -> the path of the last of its buckets expanded with its children's scans: the
        # buckets of a layer are made in the order of their paths, and a resumed run (more
        # targets reached, fewer buckets kept) keeps a subsequence of them, in the same order
        done_at = saved.get("done", {})

        def record(x: int, line: list[int], depth: int):
            word = game.answers[x]
            rows[word] = {"fewest": depth, "line": " ".join([game.guesses[g] for g in line] + [word])}

        # layer 0's scan: a guess that tells every answer apart leaves one at once
        A0 = np.arange(A, dtype=np.int32)
        bound, epoch = _bound(M, A0, seen, epoch)
        order = np.argsort(-bound, kind="mergesort")
        tg, gg = np.empty(A, np.int64), np.empty(A, np.int64)
        k, epoch = _scan(M, A0, order, bound, rank, open_, seen, epoch, tg, gg)
        for i in range(k):
            record(int(tg[i]), [int(gg[i])], 2)
        layers.append({"layer": 0, "buckets": 1, "expanded": 0, "seconds": 0.0, "rss_mb": rss_mb()})
        frontier = np.array([0], np.int64)
        j = 0
        save = checkpoint.saver(lambda: {**checkpoint.header, "rows": rows, "done": done_at}) if checkpoint else None
        exhaustive = True
        buf = np.empty(A, np.int32)
        while open_.any() and frontier.size and (expand_layers is None or j < expand_layers):
            t0 = time.monotonic()
            lo = nodes.n
            done_here = done_at.get(str(j))
            expanded = 0
            out_t, out_n, out_g = (np.empty(A, np.int64) for _ in range(3))
            try:
                for i, p in enumerate(frontier):
                    m = _members(int(p), M, nodes.parent, nodes.guess, nodes.code, buf)
                    P = buf[:m].copy()
                    if not open_[P].any():
                        continue
                    nodes.room(G)
                    here = nodes.path(int(p))
                    scan = done_here is None or here > done_here
                    n, found, epoch = _expand(M, P, int(p), rank, open_, Z, scan, nodes.table, nodes.parent,
                                              nodes.guess, nodes.code, nodes.size, nodes.hashes, nodes.n,
                                              seen, epoch, out_t, out_n, out_g)
                    nodes.layer[nodes.n:n] = j + 1
                    nodes.n = n
                    expanded += 1
                    for f in range(found):
                        record(int(out_t[f]), nodes.path(int(out_n[f])) + [int(out_g[f])], j + 3)
                    if scan:
                        done_at[str(j)] = here
                    if save:
                        save(every=60.0)
            except KeyboardInterrupt:
                if save:
                    save(last=True)
                raise Stopped(checkpoint.path if checkpoint else None,
                              f"in layer {j + 1}, {len(rows)} targets reached", 
                              save.error if save else None) from None
            frontier = np.arange(lo, nodes.n, dtype=np.int64)
            layers.append({"layer": j + 1, "buckets": int(frontier.size), "expanded_from": expanded,
                           "seconds": round(time.monotonic() - t0, 1), "rss_mb": rss_mb(),
                           "nodes_mb": round(nodes.nbytes() / 2**20, 1), "reached": len(rows)})
            say(f"layer {j + 1}: {frontier.size} buckets from {expanded}, {len(rows)} targets reached, "
                f"{layers[-1]['seconds']} s, {layers[-1]['rss_mb']} MB")
            j += 1
        if save:
            save(last=True)
        # the scan of layer j was exhaustive: every open target needs at least j + 3 guesses
        searched = {}
        if open_.any() and frontier.size:
            exhaustive = False
            depth = j + 3
            sizes = nodes.size
            for x in np.flatnonzero(open_):
                t0 = time.monotonic()
                holding = _holding(int(x), int(frontier[0]), int(frontier[-1]) + 1, M, nodes.parent,
                                   nodes.guess, nodes.code)
                holding = holding[np.argsort(sizes[holding], kind="stable")]
                tried = 0
                line = None
                for b in holding:
                    m = _members(int(b), M, nodes.parent, nodes.guess, nodes.code, buf)
                    g, h, epoch = _target_from(M, buf[:m].copy(), int(x), rank, seen, epoch)
                    tried += 1
                    if g >= 0:
                        line = nodes.path(int(b)) + [int(g), int(h)]
                        break
                    if time.monotonic() - t0 > target_seconds:
                        break
                word = game.answers[int(x)]
                if line is not None:
                    record(int(x), line, depth)
                    open_[x] = 0
                elif tried == holding.size:
                    rows[word] = {"at_least": depth + 1}
                else:
                    rows[word] = {"at_least": depth}
                searched[word] = {"buckets": int(holding.size), "tried": tried,
                                  "seconds": round(time.monotonic() - t0, 1)}
                say(f"{word}: {'line in ' + str(depth) if line else 'no line found'} "
                    f"({tried} of {holding.size} buckets, {searched[word]['seconds']} s)")
        elif open_.any():  # no bucket left holds an open target: none can be reached
            for x in np.flatnonzero(open_):
                rows[game.answers[int(x)]] = {"unreachable": True}
    ordered = {w: rows[w] for w in game.answers}
    proven = sum(1 for r in ordered.values() if "fewest" in r or "unreachable" in r)
    return {
        "format": FORMAT,
        "game": game.identity(),
        "rule": "qntm",
        "targets": {"count": A, "proven": proven, "complete": proven == A},
        "lower_bound": {"how": "counting", "fewest_at_least": counting},
        "exhaustive_through": max(2, j + 2) if not exhaustive else None,
        "layers": layers,
        "targeted": searched,
        "rows": ordered,
        "seconds": round(time.monotonic() - started, 1),
    }


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
