"""The Hangman search: exact branch and bound with a memo (memo.py), run in slices, and the
refutation of first letters against a known tree.

Lives: `lives` wrong guesses are allowed on a word; the next wrong guess loses it and counts too
(so a lost word scores -(lives + 1)). That is the rule under which the reference figures of the
frequency rule (90.6 % of 2-letter ENABLE words won with 10 lives, 6.00 misses) come out; the
kernels count `strikes = lives + 1` wrong guesses to a loss.

Cost of a tree (minimized): every wrong guess costs `miss_cost` per unit of word weight and every
lost word `lost_cost` more. With K = strikes * total_weight + 1, miss_cost = K + 1 and
lost_cost = 20 K make the cost equal to C * K + M, where C = 20 * lost + misses = 20 * total_weight
- total score and M = misses (both weighted); M < K, so the least cost is the largest expected
score, ties broken by fewer wrong guesses, exactly. When that key would overflow int64 (large
frequency weights) the tie-break is dropped (miss 1, loss 20) and the file says so.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from . import kernels as K
from .bounds import partition_bound, word_families
from .game import WIN_POINTS, HangmanWords
from .memo import Memo

DEPTH = 56  # a path has at most 26 useful guesses, plus its leaf; a bound adds one row per free letter
INF_COST = 2**63  # above every cost
BOUND_EVERY = 10.0  # seconds at least between the workings-out of the bound a search's bar shows


@dataclass
class Totals:
    """A tree's figures: weighted wrong guesses and lost words over all words."""

    misses: int
    lost: int
    total_weight: int

    @property
    def score(self) -> int:
        return WIN_POINTS * (self.total_weight - self.lost) - self.misses

    def as_dict(self) -> dict:
        w = self.total_weight
        return {
            "expected_score": round(self.score / w, 6),
            "expected_misses": round(self.misses / w, 6),
            "win_rate": round((w - self.lost) / w, 6),
            "total_score": self.score,
            "total_misses": self.misses,
            "lost_weight": self.lost,
            "total_weight": w,
        }



class Searcher:
    """Scratch, costs and the memo (a Memo) for one word length; the public, validating face of
    the kernels' search and bound. What the kernels take is built here once, in their bundles:
    `words` (kernels.Words), `families` (kernels.Families), `terms` (kernels.Terms), `scratch`
    (kernels.Scratch) and `search` (kernels.Search); the memo holds its own (Memo.held, beside
    Memo.table)."""

    def __init__(self, hw: HangmanWords, lives: int, memo_entries: int = 4_000_000, free_first: bool = True,
                 memory_bytes: float | None = None, family_bound: bool = True):
        """free_first: try only a free letter where there is one, and bound through it (see
        kernels._solve and kernels._node_bound); switchable so the tests can show that it changes
        no value (and bench/hangman.py what it saves). family_bound: bound each set by its families
        too (kernels._family_bound), switchable for the same reasons. memory_bytes: what a loaded
        checkpoint may grow the memo to (default half of this machine's memory, see Memo.load)."""
        if lives < 0:
            raise UserError(f"lives {lives}: must be 0 or more")
        self.hw = hw
        self.lives = lives
        self.strikes = lives + 1
        self.stopped = False  # stop(): every search from now on ends at its first node
        n_words = len(hw.words)
        masks = np.ascontiguousarray(hw.masks)
        weights = np.ascontiguousarray(hw.weights, dtype=np.int64)
        held = masks != 0  # kernels._strikes_that_count: each word's letters, and how many
        letters = (held.astype(np.int64) << np.arange(26)).sum(axis=1) | (held.sum(axis=1).astype(np.int64) << 26)
        families, rank_weight, rank_word, spelled = word_families(hw, weights)
        if not family_bound:
            families = np.ascontiguousarray(families[:, :0])
        self.words = K.Words(masks=masks, weights=weights, letters=letters, spelled=spelled)
        self.families = K.Families(families=families, rank_weight=rank_weight, rank_word=rank_word,
                                   fam_keys=np.zeros(2 * hw.length * n_words + 1, dtype=np.int64),
                                   fam_sums=np.zeros((hw.length + 1, 28), dtype=np.int64))
        self.total_weight = int(weights.sum())
        key = self.strikes * self.total_weight + 1
        if (WIN_POINTS + self.strikes) * self.total_weight * key + key < 2**62:
            self.key = key
            miss_cost, lost_cost = key + 1, WIN_POINTS * key
        else:
            self.key = None
            miss_cost, lost_cost = 1, WIN_POINTS
        self.terms = K.Terms(miss_cost=miss_cost, lost_cost=lost_cost, free_first=bool(free_first))
        n_cls = min(n_words, 1 << hw.length) + 1
        self.scratch = K.Scratch(
            buf=np.zeros((DEPTH + 1, n_words), dtype=np.int32),
            slot=np.full(1 << hw.length, -1, dtype=np.int32),
            cls_mask=np.zeros((DEPTH, n_cls), dtype=np.int32),
            cls_start=np.zeros((DEPTH, n_cls), dtype=np.int64),
            cls_fill=np.zeros((DEPTH, n_cls), dtype=np.int64),
            stat_miss=np.zeros((DEPTH + 1, 26), dtype=np.int64),
            stat_useful=np.zeros((DEPTH + 1, 26), dtype=np.uint8),
        )
        self.search = K.Search(order=np.zeros((DEPTH, 26), dtype=np.int64),
                               child_lb=np.zeros((DEPTH, n_cls), dtype=np.int64),
                               chosen=np.full(DEPTH, -1, dtype=np.int64), ctr=np.zeros(4, dtype=np.int64))
        self.memo = Memo(hw, lives, self.free_first, words=self.words, ctr=self.ctr, entries=memo_entries,
                         memory_bytes=memory_bytes)

    # --- what the rest of the package reads of the bundles ---
    @property
    def masks(self) -> np.ndarray:
        return self.words.masks

    @property
    def weights(self) -> np.ndarray:
        return self.words.weights

    @property
    def miss_cost(self) -> int:
        return self.terms.miss_cost

    @property
    def lost_cost(self) -> int:
        return self.terms.lost_cost

    @property
    def free_first(self) -> bool:
        return self.terms.free_first

    @property
    def ctr(self) -> np.ndarray:
        """The kernels' counters (NODES, MAX_NODES, ABORTED, ENTRIES), shared with the memo."""
        return self.search.ctr

    # --- helpers ---
    def load(self, members) -> int:
        """Put the set (its distinct words, ascending) in buf[0]; its size."""
        members = np.unique(np.asarray(members, dtype=np.int32))
        self.scratch.buf[0, : members.size] = members
        return int(members.size)

    def load_for_memo(self, members) -> int:
        """load, the memo made fit to serve the set (Memo.serve)."""
        size = self.load(members)
        self.memo.serve(self.scratch.buf[0, :size])
        return size

    def split_cost(self, cost: int) -> tuple[int, int | None]:
        """(C, M) of a cost: C = 20 * lost + misses, M = misses (None without the tie-break)."""
        if self.key is None:
            return cost, None
        return divmod(cost, self.key)

    def totals_cost(self, t: Totals) -> int:
        return t.misses * self.miss_cost + t.lost * self.lost_cost

    @property
    def nodes(self) -> int:
        return int(self.ctr[K.NODES])

    @property
    def memo_entries(self) -> int:
        return self.memo.entries

    # --- checkpoints: the memo on disk (Memo), with what this searcher knows of its root ---
    def save_memo(self, path, nodes: int = 0, seconds: float = 0.0, max_bytes: float | None = None,
                  root: tuple | None = None, run: str | None = None) -> None:
        """Memo.save; with `max_bytes`, the entries of the classes of `root` = (members, strikes)
        of the search and its first letters go first, small or not, so that the file proves what
        the whole memo proved of the first letters (build's status: the letters solved and
        refuted)."""
        first = self.class_entries(*root) if root is not None and max_bytes is not None else ()
        self.memo.save(path, nodes, seconds, max_bytes, first, run)

    def load_memo(self, path, resuming: bool = True) -> int | None:
        """Memo.load: the memo replaced by the checkpoint at `path`; the nodes it had cost, or
        None when there is no such file. `resuming`: read to go on with it (not only to show it)."""
        return self.memo.load(path, resuming)


    # --- the searches ---
    def solve(self, members, strikes: int, max_nodes: int = 2**62, limit: int | None = None) -> tuple[int, bool, int]:
        """(least cost, finished, best first letter or -1) for the set, `strikes` wrong guesses
        from a loss. `limit`: a cost known to be beaten or met by some tree, plus one (e.g. a
        baseline's), which lets the first descent prune; a wrong limit only makes it unfinished.
        Not finished: the node budget ran out (the memo keeps only complete results)."""
        value, exact, size = self._search(members, strikes, max_nodes, K.INF if limit is None else limit)
        if not exact:
            return 0, False, -1
        return value, True, int(self.search.chosen[0]) if size > 1 and strikes > 0 else -1

    def solve_below(self, members, strikes: int, limit: int, max_nodes: int = 2**62) -> tuple[int, bool] | None:
        """The set's least cost if it is below `limit`: (cost, True); else (a proven lower bound of
        at least `limit`, False); None when the node budget ran out first. What a refutation asks:
        is this class cheap enough to leave its letter a chance?"""
        value, exact, _ = self._search(members, strikes, max_nodes, limit)
        return None if self.ctr[K.ABORTED] else (value, exact)

    def stop(self) -> None:
        """Make the search under way (in another thread: the kernels release the GIL) end at its
        next node, as if its budget were spent (nothing half-searched is recorded), and every later
        one at its first: a Ctrl-C or TERM stops a phase whose searches run in threads."""
        self.stopped = True
        self.ctr[K.MAX_NODES] = 0

    def _search(self, members, strikes: int, max_nodes: int, limit: int) -> tuple[int, bool, int]:
        """The kernel's search of the set below `limit`: (value, exact, set size); not exact when
        the budget ran out (ctr[ABORTED]) or the value is a bound of at least `limit`."""
        size = self.load_for_memo(members)
        self.ctr[K.NODES] = 0
        self.ctr[K.MAX_NODES] = max_nodes
        if self.stopped:  # read after the budget is set: a stop() from another thread is never lost
            self.ctr[K.MAX_NODES] = 0
        self.ctr[K.ABORTED] = 0
        self.search.chosen[0] = -1
        value, exact = K._solve(self.words, self.families, self.terms, self.scratch, self.search, self.memo.table,
                                self.memo.held, 0, 0, size, strikes, limit)
        return int(value), bool(exact) and not self.ctr[K.ABORTED], size

    def lower_bound(self, members, strikes: int, levels: int = 1) -> int:
        """A proven lower bound on the least cost (see kernels._bound for why it is sound)."""
        size = self.load_for_memo(members)
        return int(K._bound(self.words, self.families, self.terms, self.scratch, self.memo.table, self.memo.held, 0, 0,
                            size, strikes, levels))

    def known(self, members, strikes: int) -> tuple[int, bool]:
        """What is proven of the set without searching: (its least cost, True) when the memo has
        it exactly (or the set is trivial), else (a lower bound, False): the memo's bound or the
        static one, the larger."""
        size = self.load_for_memo(members)
        if strikes == 0 or size <= 2:  # lost, found, or a pair (kernels._pair_cost): the bound is the cost
            return self.lower_bound(members, strikes, levels=0), True
        e = self._memo_entry(size, strikes)
        if e >= 0 and self.memo.e_exact[e]:
            return int(self.memo.e_val[e]), True
        return self.lower_bound(members, strikes, levels=0), False

    def record_bound(self, members, strikes: int, bound: int) -> None:
        """Keep a lower bound on the set's least cost proven outside the search (partition_bound's)
        in the memo, where it raises what is there: a search that meets the set then prunes
        with it, and a checkpoint keeps it (so a merge hands it on)."""
        size = self.load_for_memo(members)
        if strikes == 0 or size <= 2:  # lost, found or a pair: never stored (their cost is known)
            return
        self.memo.make_room(self.memo_entries + 1)
        r, h = self._memo_key(size, strikes)
        sc = self.scratch
        fixed = K._fixed_letters(self.masks, self.weights, sc.buf[0], 0, size, sc.stat_miss[0], sc.stat_useful[0])
        K._memo_put(sc.buf[0], 0, size, r, h, -1, 0, bound, False, -1, fixed, self.memo.table, self.memo.held,
                    self.words.spelled, self.ctr)

    def class_entries(self, members, strikes: int) -> list[int]:
        """The memo entries of the set and of the classes of its useful letters (what
        checkpoint_status reads), where the memo has them."""
        members = np.unique(np.asarray(members))
        sets = [(members, strikes)] + [(part, strikes - (mask == 0)) for letter in self.useful_letters(members)
                                       for mask, part in split(self.hw, members, letter)]
        found = []
        for part, r in sets:
            e = self._memo_entry(self.load_for_memo(part), r) if r > 0 and len(part) > 1 else -1
            if e >= 0:
                found.append(int(e))
        return found

    def _memo_key(self, size: int, strikes: int) -> tuple[int, np.uint64]:
        """(strikes that count, hash): the memo's key of the set in buf[0][:size] (two or more
        words, strikes >= 1), as the kernels key it."""
        members = self.scratch.buf[0]
        r = K._strikes_that_count(self.words.letters, members, 0, size, strikes)
        return r, np.uint64(K._hash(members, 0, size, r))

    def _memo_entry(self, size: int, strikes: int) -> int:
        """The memo entry of the set in buf[0][:size] (two or more words, strikes >= 1), or -1."""
        r, h = self._memo_key(size, strikes)
        e, _ = K._memo_find(self.scratch.buf[0], 0, size, r, h, self.memo.table, self.memo.held, self.words.spelled)
        return int(e)

    def useful_letters(self, members) -> list[int]:
        """The letters that split the set (their masks differ among its words): the only ones an
        optimal tree needs (kernels._letter_stats)."""
        masks = self.masks[np.asarray(members)]
        return [int(c) for c in np.flatnonzero((masks != masks[:1]).any(axis=0))]

    def opening_cost(self, members: np.ndarray, strikes: int, letter: int, class_cost, stop: int = INF_COST) -> int:
        """The cost of the set when `letter` is guessed first and each class then costs
        `class_cost(class, strikes left)`, summed until it reaches `stop`."""
        cost = 0
        for mask, part in split(self.hw, members, letter):
            if mask == 0:  # the miss class: a wrong guess each, one strike fewer
                cost += int(self.weights[part].sum()) * self.miss_cost
            cost += class_cost(part, strikes - (mask == 0))
            if cost >= stop:
                break
        return cost


class Slices:
    """Searches of one Searcher within `max_nodes` nodes in all, each run in slices, with one
    progress bar and, with `checkpoint`, the memo saved (in at most `checkpoint_bytes`, see
    Searcher.save_memo) every `save_every` seconds, or 20 times as long as the last save took (so
    that saving a memo of gigabytes costs at most a twentieth of the time), on Ctrl-C, and by
    close(). With `resume` the memo is loaded from the checkpoint first.

    Why slices: an aborted search records nothing half-done, while every finished sub-result
    stays in the memo, so the next slice descends again through the memo to where the last one
    stopped. Between slices the progress bar moves, a memo nearly full is compacted (see
    Memo.compact: without it a full memo stops growing and the search repeats work it
    cannot record), and the memo may be saved, so a stopped or killed build goes on with
    `resume`, or with a larger budget, instead of starting over."""

    def __init__(self, s: Searcher, max_nodes: int, root: tuple, checkpoint=None, resume: bool = False,
                 progress: bool = True, slice_nodes: int = 1_000_000, save_every: float = 300.0,
                 checkpoint_bytes: float | None = None, desc: str = "exact search", bound=None):
        from ..progress import progress_bar

        self.s, self.max_nodes, self.root, self.checkpoint = s, max_nodes, root, checkpoint
        self.slice_nodes, self.save_every, self.checkpoint_bytes = slice_nodes, save_every, checkpoint_bytes
        self.spent = self.before = (s.load_memo(checkpoint) or 0) if resume and checkpoint else 0
        s.load_for_memo(root[0])  # the memo's universe holds the root, whose classes come first (refute_openings)
        self.run_id = uuid.uuid4().hex  # this run, in the checkpoint (runs_of)
        self.began = self.last_save = time.monotonic()
        self.bar = progress_bar(max_nodes, initial=min(self.spent, max_nodes), unit="nodes", unit_scale=True, desc=desc,
                                show=progress)
        self.bound = bound or self.root_bound  # what the bar shows as proven so far (see show_bound)
        self.bound_text, self.bound_due = "", 0.0

    def save(self) -> None:
        self.s.save_memo(self.checkpoint, self.spent - self.before, time.monotonic() - self.began,
                         self.checkpoint_bytes, self.root, self.run_id)

    def run(self, members, strikes: int, limit: int = K.INF) -> tuple[int, bool] | None:
        """Searcher.solve_below in slices: (cost, True) below `limit`, (bound >= limit, False), or
        None when the nodes ran out first (a Ctrl-C goes on up: close() then saves the memo)."""
        s = self.s
        while self.spent < self.max_nodes:
            step = min(self.slice_nodes, self.max_nodes - self.spent)
            entries = s.memo_entries
            try:
                found = self._slice(members, strikes, limit, step)
            finally:  # also the nodes of a slice cut short by Ctrl-C, which the memo saved then holds
                self.spent += min(s.nodes, step)
                self.bar.update(min(s.nodes, step))
            self.show_bound()
            if found is not None:
                return found
            if s.memo.nearly_full():
                s.memo.compact()
                self.show_bound()
                self.slice_nodes *= 2  # what a slice can keep is bounded: let the next reach further
            elif s.memo_entries == entries:
                self.slice_nodes *= 2  # the slice ended before anything new was finished: reach further
            if self.checkpoint and time.monotonic() - self.last_save > self.save_every:
                started = time.monotonic()
                self.save()
                self.last_save = time.monotonic()
                self.save_every = max(self.save_every, 20 * (self.last_save - started))
        return None

    def root_bound(self) -> str:
        """The expected score the root's set can reach at most, from what the memo proves of it."""
        members, strikes = self.root
        cost, exact = self.s.known(members, strikes)
        weight = int(self.s.weights[np.asarray(members)].sum()) or 1
        score = WIN_POINTS - self.s.split_cost(cost)[0] / weight
        return f"expected score {'exactly' if exact else 'at most'} {score:.4f}"

    def show_bound(self) -> None:
        """The bar's postfix: the bound so far (`bound()`, worked out at most every BOUND_EVERY
        seconds, or 20 times as long as it last took, and only for a bar that is shown) and the
        memo's entries (and compactions)."""
        if not self.bar.disable and time.monotonic() >= self.bound_due:
            started = time.monotonic()
            self.bound_text = self.bound()
            self.bound_due = time.monotonic() + max(BOUND_EVERY, 20 * (time.monotonic() - started))
        memo = f"memo={self.s.memo_entries}" + (f", compactions={self.s.memo.compactions}"
                                                  if self.s.memo.compactions else "")
        self.bar.set_postfix_str(", ".join(text for text in (self.bound_text, memo) if text))

    def _slice(self, members, strikes: int, limit: int, step: int) -> tuple[int, bool] | None:
        """One slice, Searcher.solve_below, run by a thread while this one waits for it. Why: the
        kernel holds the main thread until it returns, so a Ctrl-C (or TERM) would wait for the end
        of the slice, and slices grow (see run) to minutes and hours. Here it is raised at once,
        and the kernel is made to stop at its next node (its node budget set to 0, as if spent:
        nothing half-searched is recorded), before the interrupt goes on up to be saved."""
        import threading

        outcome: list = []
        done = threading.Event()  # not Thread.join: a join that Ctrl-C interrupts can leave a live thread seen as stopped

        def search() -> None:
            try:
                outcome.append(self.s.solve_below(members, strikes, limit, max_nodes=step))
            except BaseException as error:  # handed to the waiting thread
                outcome.append(error)
            finally:
                done.set()

        threading.Thread(target=search, name="slice", daemon=True).start()
        try:
            while not done.wait(0.2):
                pass
        except KeyboardInterrupt:
            while not done.is_set():
                try:
                    self.s.ctr[K.MAX_NODES] = 0  # again until it stops: the slice may not have set its own yet
                    done.wait(0.05)
                except KeyboardInterrupt:  # a second one changes nothing: the memo is not saved under the kernel
                    pass
            raise
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return outcome[0]

    def close(self) -> None:
        """The bar closed and the memo saved: finished or not, the file then holds all there is
        (a finished search's file proves the optimum, in the build's status, and rebuilds the tree at once)."""
        self.bar.close()
        if self.checkpoint:
            self.save()


def solve_in_slices(s: Searcher, members, strikes: int, max_nodes: int, checkpoint=None, resume: bool = False,
                    progress: bool = True, slice_nodes: int = 1_000_000, save_every: float = 300.0,
                    checkpoint_bytes: float | None = None, limit: int | None = None, bound=None
                    ) -> tuple[int, bool, int]:
    """Searcher.solve within `max_nodes` nodes in all, run in Slices (see there for the
    checkpoints): (cost, finished, nodes spent). `limit`: the cost of a known tree plus one, which
    the search then only has to beat (Searcher.solve); a limit that is no tree's leaves it
    unfinished. `bound`: the text of the bound so far that the bar shows (Slices)."""
    slices = Slices(s, max_nodes, (members, strikes), checkpoint, resume, progress, slice_nodes, save_every,
                    checkpoint_bytes, bound=bound)
    try:
        found = slices.run(members, strikes, K.INF if limit is None else limit)
    finally:  # on Ctrl-C too: the memo saved once
        slices.close()
    return (found[0], True, slices.spent) if found and found[1] else (0, False, slices.spent)


def refute_openings(s: Searcher, members, strikes: int, letters, target: int, max_nodes: int, checkpoint=None,
                    resume: bool = False, progress: bool = True, checkpoint_bytes: float | None = None,
                    parts: dict | None = None, threads: int = 1
                    ) -> tuple[dict[int, tuple[int, bool]], int]:
    """For each first letter in `letters`, in turn: is the set's cost when it opens with that
    letter below `target`? ({letter: (that cost, True), (a lower bound >= target, False), or
    (a lower bound below target, False) when `parts` leaves it open}, nodes spent); letters not
    reached within `max_nodes` are left out.

    A letter's classes are searched smallest first, each only below what the letter can still
    spend (target, less its misses, the classes solved and the bounds of the rest), as the whole
    search tries a letter against the best found so far; a class that reaches its limit refutes
    the letter. Why apart from the whole search: with `target` the cost of a known tree (the
    shipped best-found one), the letters that the whole search would refute last can be refuted
    at once on another core or machine, into a checkpoint of their own that Memo.merge
    (a build's merge) then adds to the whole search's: a letter refuted here is refuted
    there from the memo alone.

    `parts` (bounds.partition_bound's keywords, `threads` of its parts at a time): a class of
    more than half of the words is not searched but bounded by parts instead, the parts
    those of the whole set cut down to the class, each solved once for all the letters (see
    partition_bound's `within` and `solved`), and the bound kept in the memo (record_bound). For
    the rarest letters, whose miss class is nearly the whole game one life short: a search of it
    is nearly the whole search, while the parts' bound of it costs what the proven bound of the
    whole game does, and can refute a letter in few words, whose hit classes search fast."""
    members = np.unique(np.asarray(members))
    slices = Slices(s, max_nodes, (members, strikes), checkpoint, resume, progress,
                    checkpoint_bytes=checkpoint_bytes, desc="refuting first letters")
    results: dict[int, tuple[int, bool]] = {}
    solved_parts: dict = {}
    try:
        for letter in letters:
            classes = [(part, strikes - (mask == 0)) for mask, part in split(s.hw, members, letter)]
            by_parts = [parts is not None and 2 * len(part) > len(members) and r > 0 for part, r in classes]
            bounds = [s.known(part, r)[0] for part, r in classes]
            total = sum(int(s.weights[part].sum()) * s.miss_cost for part, r in classes if r < strikes)
            for i, (part, r) in enumerate(classes):
                if by_parts[i] and total + sum(bounds) < target:  # not refuted by the memo already (a resume)
                    bounds[i] = max(bounds[i], partition_bound(s, part, r, **parts, progress=progress, threads=threads,
                                                               within=members, solved=solved_parts))
                    s.record_bound(part, r, bounds[i])
            rest = sum(bounds)
            exact = True
            for left, i in enumerate(sorted(range(len(classes)), key=lambda i: len(classes[i][0])), 1):
                part, r = classes[i]
                rest -= bounds[i]
                if part.size < 2 or r == 0 or by_parts[i]:  # found, lost, or as far as its parts go
                    found = (bounds[i], part.size < 2 or r == 0)
                else:
                    found = slices.run(part, r, target - total - rest)
                    if found is None:
                        return results, slices.spent
                total += found[0]
                exact = exact and found[1]
                if total + rest >= target:  # refuted, unless every class is solved exactly
                    exact = exact and left == len(classes)
                    break
            results[letter] = (total + rest, exact)
    finally:
        slices.close()
    return results, slices.spent


def split(hw: HangmanWords, members: np.ndarray, letter: int) -> list[tuple[int, np.ndarray]]:
    """The classes of `members` by the mask of `letter`, masks ascending."""
    masks = hw.masks[members, letter]
    order = np.argsort(masks, kind="stable")
    masks, members = masks[order], members[order]
    cuts = np.flatnonzero(np.diff(masks)) + 1
    return [(int(m[0]), part) for m, part in zip(np.split(masks, cuts), np.split(members, cuts))]
