"""The Hangman search: exact branch and bound with a memo, sound lower bounds, baseline rules.

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

import os
import queue
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from . import kernels as K
from .game import WIN_POINTS, HangmanWords

CHECKPOINT_FORMAT = "wordtree-hangman-checkpoint/2"
POOLED_FORMAT = "wordtree-hangman-checkpoint/1"  # each set's words kept: read, and made entries of this one
MEMO_ARRAYS = {"e_hash": np.uint64, "e_size": np.int32, "e_r": np.int8, "e_val": np.int64, "e_exact": np.bool_,
               "e_letter": np.int8, "e_fixed": np.int32, "e_model": np.int32}  # one entry each (kernels: memo)
FILE_ENTRY_BYTES = sum(np.dtype(t).itemsize for t in MEMO_ARRAYS.values())  # a memo entry in a checkpoint file
COMPRESSION_GUESS = 2  # a capped checkpoint's first try: its memo compresses about 2 to 1 (lengths 4 and 8)
WITNESSES = 32  # a capped checkpoint keeps this many of its smallest exact values, and of its bounds, to be checked
ENTRY_BYTES = FILE_ENTRY_BYTES + 32  # in memory, with its slots in the table
DEPTH = 56  # a path has at most 26 useful guesses, plus its leaf; a bound adds one row per free letter
GROUP_NODES = 4_000_000  # partition_bound: node budget (and memo entries) of one part
POOLED_BELOW = 96  # partition_bound: the groups under this many words make one part
RULES = {"frequency": K.RULE_FREQUENCY, "entropy": K.RULE_ENTROPY}
INF_COST = 2**63  # above every cost


def half_of_memory() -> float | None:
    """Half of this machine's memory in bytes, the default cap of a search's memo; None where the
    system does not say (Windows)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2
    except (AttributeError, ValueError, OSError):
        return None


def memo_capacity(max_nodes: int, memory_bytes: float | None = None) -> int:
    """Memo entries for a search of `max_nodes` nodes within `memory_bytes` (by default half of
    this machine's memory). The memo grows with the budget (length 8: one entry per 2 nodes); a
    budget that needs more than the memory gets a smaller memo, which solve_in_slices compacts
    when it fills: slower, never wrong, and never killed for want of memory."""
    return max(16, fit_in_memory(max(4_000_000, max_nodes // 4), memory_bytes))


def fit_in_memory(entries: int, memory_bytes: float | None = None) -> int:
    """Memo entries, cut down to fit `memory_bytes` (by default half of this machine's memory; as
    many as asked where the system does not say)."""
    memory_bytes = half_of_memory() if memory_bytes is None else memory_bytes
    return entries if memory_bytes is None else min(entries, int(memory_bytes / ENTRY_BYTES))


def most_valuable(sizes: np.ndarray, max_entries: int, max_bytes: float | None = None,
                  first: np.ndarray | None = None) -> np.ndarray:
    """Which memo entries to keep when they do not all fit: those of the largest sets (the dearest
    to find again), exact values and lower bounds alike, at most `max_entries` of them (and, with
    `max_bytes`, taking at most that many bytes in a checkpoint file, FILE_ENTRY_BYTES each);
    among sets of one size, the first ones; the entries marked in `first` before all others.
    The bounds are what a refutation has proven, and a search that refutes the same letters again
    after the compaction needs them: at length 8 in a memo of 0.4 GB (a third of what the search needs), keeping only
    exact values took 161 M nodes, 7 compactions and 633 s, keeping bounds too 10.7 M, 2 and 45 s."""
    key = sizes.astype(np.int64) + (0 if first is None else first * (int(sizes.max(initial=0)) + 1))
    order = np.lexsort((np.arange(len(sizes)), -key))
    count = min(len(sizes), max_entries)
    if max_bytes is not None:
        count = min(count, int(max_bytes // FILE_ENTRY_BYTES))
    keep = np.zeros(len(sizes), dtype=np.bool_)
    keep[order[:count]] = True
    return keep


def kept_entries(arrays: dict, keep: np.ndarray) -> dict:
    """The memo arrays (MEMO_ARRAYS) of the entries marked in `keep` only."""
    return {name: arrays[name][keep] for name in MEMO_ARRAYS}


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


def runs_of(header: dict) -> dict[str, list]:
    """The searches whose work a checkpoint holds: run id -> [nodes, seconds]. Why runs and not
    one total: a memo merged into another (build hangman --merge) may share runs with it, both
    resumed from copies of one checkpoint, and only ids count those once. A file from before
    runs were kept is one run, named by its totals, so copies of it still count once."""
    runs = header.get("runs")
    if runs is None:
        nodes, seconds = int(header.get("nodes", 0)), float(header.get("seconds", 0.0))
        return {f"totals:{nodes}:{seconds}": [nodes, seconds]} if nodes or seconds else {}
    return {str(run): [int(nodes), float(seconds)] for run, (nodes, seconds) in runs.items()}


def runs_total(runs: dict[str, list]) -> tuple[int, float]:
    """(nodes, seconds) of runs_of's runs, each counted once."""
    return sum(n for n, _ in runs.values()), sum(t for _, t in runs.values())


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


class Searcher:
    """Scratch, memo and costs for one word length; the public, validating face of kernels.py."""

    def __init__(self, hw: HangmanWords, lives: int, memo_entries: int = 4_000_000, free_first: bool = True,
                 memory_bytes: float | None = None, family_bound: bool = True):
        """free_first: try only a free letter where there is one, and bound through it (see
        kernels._solve and kernels._node_bound); switchable so the tests can show that it changes
        no value (and bench/hangman.py what it saves). family_bound: bound each set by its families
        too (kernels._family_bound), switchable for the same reasons. memory_bytes: what a loaded
        checkpoint may grow the memo to (default half of this machine's memory, see load_memo)."""
        if lives < 0:
            from ..errors import UserError

            raise UserError(f"--lives {lives}: must be 0 or more")
        self.hw = hw
        self.lives = lives
        self.strikes = lives + 1
        self.free_first = bool(free_first)
        n_words = len(hw.words)
        self.masks = np.ascontiguousarray(hw.masks)
        self.weights = np.ascontiguousarray(hw.weights, dtype=np.int64)
        held = self.masks != 0  # kernels._strikes_that_count: each word's letters, and how many
        self.letters = (held.astype(np.int64) << np.arange(26)).sum(axis=1) | (held.sum(axis=1).astype(np.int64) << 26)
        self.total_weight = int(self.weights.sum())
        key = self.strikes * self.total_weight + 1
        if (WIN_POINTS + self.strikes) * self.total_weight * key + key < 2**62:
            self.key = key
            self.miss_cost, self.lost_cost = key + 1, WIN_POINTS * key
        else:
            self.key = None
            self.miss_cost, self.lost_cost = 1, WIN_POINTS
        n_cls = min(n_words, 1 << hw.length) + 1
        self.buf = np.zeros((DEPTH + 1, n_words), dtype=np.int32)
        self.slot = np.full(1 << hw.length, -1, dtype=np.int32)
        self.cls_mask = np.zeros((DEPTH, n_cls), dtype=np.int32)
        self.cls_start = np.zeros((DEPTH, n_cls), dtype=np.int64)
        self.cls_fill = np.zeros((DEPTH, n_cls), dtype=np.int64)
        self.stat_miss = np.zeros((DEPTH + 1, 26), dtype=np.int64)
        self.stat_useful = np.zeros((DEPTH + 1, 26), dtype=np.uint8)
        self.order = np.zeros((DEPTH, 26), dtype=np.int64)
        self.child_lb = np.zeros((DEPTH, n_cls), dtype=np.int64)
        self.ctr = np.zeros(4, dtype=np.int64)
        self.chosen = np.full(DEPTH, -1, dtype=np.int64)
        self.families, self.rank_weight, self.rank_word, self.spelled = word_families(hw, self.weights)
        if not family_bound:
            self.families = np.ascontiguousarray(self.families[:, :0])
        self.fam_keys = np.zeros(2 * hw.length * n_words + 1, dtype=np.int64)
        self.fam_sums = np.zeros((hw.length + 1, 28), dtype=np.int64)
        self.memory_bytes = memory_bytes
        self.compactions = 0
        self.runs: dict[str, list] = {}  # the searches whose work the memo holds (runs_of)
        self._set_universe(np.arange(n_words, dtype=np.int32))
        self._allocate_memo(memo_entries)

    def _allocate_memo(self, memo_entries: int) -> None:
        """An empty memo of this capacity (numpy's zeros are paged in only as they are used); a
        table slot holds an entry number in 32 bits (kernels._slot_tag)."""
        memo_entries = min(memo_entries, 2**32 - 2)
        table = 1 << max(4, int(2 * memo_entries - 1).bit_length())
        self.table = np.zeros(table, dtype=np.int64)
        for name, dtype in MEMO_ARRAYS.items():
            setattr(self, name, np.zeros(memo_entries, dtype=dtype))
        self.ctr[K.ENTRIES] = 0

    def _set_universe(self, universe: np.ndarray) -> None:
        """Make `universe` (ascending word numbers) the set whose closed subsets the memo holds
        (kernels: memo), with its words indexed by letter and place (kernels._closed_size)."""
        self.universe = np.ascontiguousarray(universe, dtype=np.int32)
        self.in_universe = np.zeros(len(self.hw.words), dtype=np.bool_)
        self.in_universe[self.universe] = True
        self.by_place, self.place_start = self._by_place(self.universe)

    def _by_place(self, universe: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(words, starts): the words of `universe` with letter c at place p are
        words[starts[p * 26 + c]:starts[p * 26 + c + 1]]."""
        place = (np.arange(self.hw.length) * 26 + self.spelled[universe]).T.ravel()
        order = np.argsort(place, kind="stable")
        words = np.ascontiguousarray(np.tile(universe, self.hw.length)[order])
        return words, np.searchsorted(place[order], np.arange(self.hw.length * 26 + 1)).astype(np.int64)

    def _within_universe(self, size: int) -> None:
        """Make the memo fit to serve the set in buf[0][:size]: its sets are all closed in one
        universe (at first every word), and a set searched must be too (kernels._same_set). A set
        that is not (a search of some other words) starts a new memo, whose universe is every
        word if the set is closed in that, else the set."""
        members = self.buf[0, :size]
        if size == 0 or self._closed(members):
            return
        if self.memo_entries:
            self.ctr[K.ENTRIES] = 0
            self.table[:] = 0
        self.runs = {}  # the work of none of the searches before
        self._set_universe(np.arange(len(self.hw.words), dtype=np.int32))
        if not self._closed(members):
            self._set_universe(members.copy())

    def _closed(self, members: np.ndarray) -> bool:
        """Whether the set (ascending, not empty) is closed in the universe: its words, and only
        they, of the universe's, have its letters of one mask (kernels._closed_size)."""
        if not self.in_universe[members].all():
            return False
        fixed = K._fixed_letters(self.masks, self.weights, members, 0, members.size, self.stat_miss[0],
                                 self.stat_useful[0])
        return K._closed_size(self.spelled, self.by_place, self.place_start, self.universe, fixed,
                              members[0]) == members.size

    def entry_set(self, e: int) -> np.ndarray:
        """The words of memo entry e's set: those of the universe with its letters of one mask as
        its model word has them (kernels._fits, in numpy)."""
        fixed = (int(self.e_fixed[e]) >> np.arange(26)) & 1
        model = self.spelled[self.e_model[e]]
        spelled = self.spelled[self.universe]
        pinned = fixed[model] == 1
        fits = np.where(pinned, spelled == model, fixed[spelled] == 0).all(axis=1)
        return self.universe[fits]

    # --- helpers ---
    def _load(self, members) -> int:
        members = np.unique(np.asarray(members, dtype=np.int32))
        self.buf[0, : members.size] = members
        return int(members.size)

    def _load_for_memo(self, members) -> int:
        """_load, the memo made fit to serve the set (_within_universe)."""
        size = self._load(members)
        self._within_universe(size)
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
        return int(self.ctr[K.ENTRIES])

    # --- checkpoints: the memo on disk ---
    def checkpoint_header(self) -> dict:
        """What a saved memo must match to serve this search: the words, weights, lives, rules."""
        return {"format": CHECKPOINT_FORMAT, "game": self.hw.identity, "lives": self.lives,
                "free_first": self.free_first}

    def save_memo(self, path, nodes: int = 0, seconds: float = 0.0, max_bytes: float | None = None,
                  root: tuple | None = None, run: str | None = None) -> None:
        """Write the memo (its used part) atomically, with the searches whose work it holds: those
        loaded or merged into it (self.runs) and this one, `run` (an id; a new one by default),
        which spent `nodes` and `seconds` (runs_of). With `max_bytes`, the file takes at most that
        many bytes (beyond its header): it keeps what is proven of the largest sets (most_valuable),
        compressed, so that the work of a build longer than one machine's life can be kept in git
        (runs/) and carried on elsewhere; a resume recomputes the sets dropped. What it saves: at
        length 8, stopped at 4 M nodes (1.78 M entries), the search ends after 3.8 M more nodes
        from the whole memo, 4.0 M from 61 % of the entries, 5.3 M from 14 %, 6.2 M from 3 % and
        7.2 M from about 1 % (a fresh search takes 7.1 M); an entry takes about 15 bytes
        compressed. `root` = (members, strikes) of the search: the entries of its first letters'
        classes go first, small or not, so that the file proves what the whole memo proved of the
        first letters (--status: the letters solved and refuted), which a resume then need not
        find again; and the WITNESSES
        smallest sets with an exact value and with a bound (a few bytes), which a fresh search
        checks in seconds (tests/test_hangman_trees.py), where the largest sets would take hours."""
        import io

        import orjson

        from ..files import atomic_file

        n = self.memo_entries
        arrays = {name: getattr(self, name)[:n] for name in MEMO_ARRAYS}
        runs = self.runs | ({run or uuid.uuid4().hex: [int(nodes), float(seconds)]} if nodes or seconds else {})
        all_nodes, all_seconds = runs_total(runs)
        header = {**self.checkpoint_header(), "nodes": all_nodes, "seconds": all_seconds, "runs": runs}
        if max_bytes is None:
            with atomic_file(path) as f:
                np.savez(f, header=np.frombuffer(orjson.dumps(header), dtype=np.uint8), universe=self.universe,
                         **arrays)
            return
        header = np.frombuffer(orjson.dumps(header | {"kept_of": n}), dtype=np.uint8)
        first = np.zeros(n, dtype=np.bool_)
        if root is not None:
            first[self.class_entries(*root)] = True
        for exact in (True, False):
            entries = np.flatnonzero(arrays["e_exact"] == exact)
            first[entries[np.argsort(arrays["e_size"][entries], kind="stable")[:WITNESSES]]] = True
        # of uncompressed bytes (at most the whole memo's), scaled until the file nearly fills
        budget = min(COMPRESSION_GUESS * max_bytes, FILE_ENTRY_BYTES * n)
        fitting = None  # the fullest file that fits so far
        for attempt in range(40):  # 8 tries for a full file, more while none fits
            if attempt >= 8 and fitting is not None:
                break
            kept = kept_entries(arrays, most_valuable(arrays["e_size"], n, budget, first))
            data = io.BytesIO()
            np.savez_compressed(data, header=header, universe=self.universe, **kept)
            if data.tell() <= max_bytes or not len(kept["e_hash"]):
                fitting = data if fitting is None or data.tell() > fitting.tell() else fitting
                if data.tell() > 0.8 * max_bytes or len(kept["e_hash"]) in (0, n):
                    break
            budget *= 0.9 * max_bytes / data.tell()
        with atomic_file(path) as f:
            f.write((fitting or data).getbuffer())

    def load_memo(self, path) -> int | None:
        """Replace the memo by a saved one; the nodes it had cost, or None when there is no such
        file. The memo grows to hold it (the search goes on from all it had proven), within
        `memory_bytes`; a checkpoint larger than that keeps what compact_memo would (a resume on
        a smaller machine, or with a smaller --memory, is slower, never wrong). The file itself is
        read whole first. A file that is not one, or is another search's, is a UserError."""
        saved = self._read_checkpoint(path)
        if saved is None:
            return None
        header, arrays, universe = saved
        self.ctr[K.ENTRIES] = 0
        self._set_universe(universe)
        self._make_room(len(arrays["e_hash"]))
        n = len(arrays["e_hash"])
        if n > self.e_hash.size:  # more than the memory allows: keep what fits
            arrays = kept_entries(arrays, most_valuable(arrays["e_size"], self.e_hash.size // 2))
            n = len(arrays["e_hash"])
            self.compactions += 1
        for name in MEMO_ARRAYS:
            getattr(self, name)[:n] = arrays[name]
        self.ctr[K.ENTRIES] = n
        K._memo_rebuild(self.table, self.e_hash, n)
        self.runs = header["runs"]
        return self.work_done()[0]

    def work_done(self) -> tuple[int, float]:
        """(nodes, seconds) of the searches whose work the memo holds, each counted once (a resumed
        build's `seconds` counts them)."""
        return runs_total(self.runs)

    def merge_memo(self, path) -> tuple[int, int, float]:
        """Add what another search of the same game proved (its checkpoint at `path`) to this memo:
        (entries added or improved, and the nodes and seconds of the runs it adds: the runs both
        memos hold, two copies of one checkpoint resumed apart, say, count once). Every entry is a
        fact, the least cost of a set or a lower bound on it, whichever search proved it, so two
        searches of one game, each on its own machine or core (say the whole search and refute_openings on
        the first letters it will reach last), pool their work; an exact value replaces a bound,
        a bound only raises a bound. The memo grows within `memory_bytes`; entries beyond that
        are left out (a search finds them again)."""
        from ..errors import UserError

        saved = self._read_checkpoint(path, "only a search of the same game can be merged")
        if saved is None:
            raise UserError(f"{path}: no such checkpoint to merge")
        header, arrays, universe = saved
        if not self.memo_entries:
            self._set_universe(universe)
        elif not np.array_equal(universe, self.universe):
            raise UserError(f"{path}: a search of other words than this one's ({len(universe)} against "
                            f"{len(self.universe)}); only a search of the same set can be merged")
        n = len(arrays["e_hash"])
        self._make_room(self.memo_entries + n)
        changed = K._memo_merge(*(arrays[name] for name in MEMO_ARRAYS), n, self.table,
                                *(getattr(self, name) for name in MEMO_ARRAYS), self.spelled, self.ctr)
        before = self.work_done()
        for run, (nodes, seconds) in header["runs"].items():  # a run saved twice: its later save
            held = self.runs.get(run, [0, 0.0])
            self.runs[run] = [max(nodes, held[0]), max(seconds, held[1])]
        after = self.work_done()
        return int(changed), after[0] - before[0], after[1] - before[1]

    def _make_room(self, entries: int) -> None:
        """Grow the memo, keeping what it holds, toward room for `entries` (half as many again, to
        go on searching), within `memory_bytes`."""
        if entries <= self.e_hash.size:
            return
        want = fit_in_memory(max(entries * 3 // 2, self.e_hash.size), self.memory_bytes)
        n = self.memo_entries
        held = {name: getattr(self, name)[:n].copy() for name in MEMO_ARRAYS}
        self._allocate_memo(max(want, self.e_hash.size))
        for name in MEMO_ARRAYS:
            getattr(self, name)[:n] = held[name]
        self.ctr[K.ENTRIES] = n
        K._memo_rebuild(self.table, self.e_hash, n)

    def _read_checkpoint(self, path, hint: str = "remove it or drop --resume"
                         ) -> tuple[dict, dict, np.ndarray] | None:
        """(header, memo arrays, universe) of a checkpoint of this search, read whole (one of the
        older format, which kept each set's words, made one of this: _pooled_memo); None when there
        is no such file; a UserError for a file that is not one, or is another search's (with `hint`)."""
        import zipfile

        import orjson

        from ..errors import UserError

        unreadable = "not the .npz that build hangman --checkpoint writes"
        try:
            with np.load(path) as data:
                header = orjson.loads(data["header"].tobytes())
                pooled = isinstance(header, dict) and header.get("format") == POOLED_FORMAT
                names = ("e_hash", "e_off", "e_size", "e_r", "e_val", "e_exact", "e_letter", "pool") if pooled else \
                    (*MEMO_ARRAYS, "universe")
                arrays = {name: data[name] for name in names}
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, orjson.JSONDecodeError) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else unreadable
            raise UserError(f"{path}: not a readable hangman checkpoint ({detail})") from None
        ours = self.checkpoint_header() | ({"format": POOLED_FORMAT} if pooled else {})
        if not isinstance(header, dict) or any(header.get(k) != v for k, v in ours.items()):
            raise UserError(f"{path}: checkpoint of another hangman search (not the same words, weights, lives); "
                            f"{hint}")
        try:
            header["runs"] = runs_of(header)  # read once, here, for the callers
        except (AttributeError, TypeError, ValueError):
            raise UserError(f"{path}: not a readable hangman checkpoint "
                            "(its runs are not run id: [nodes, seconds])") from None
        n_words = len(self.hw.words)
        if pooled:
            universe = np.arange(n_words, dtype=np.int32)  # what build hangman searched
            arrays = self._pooled_memo(arrays, universe)
        else:
            universe = arrays.pop("universe")
        n = len(arrays["e_hash"])
        if (any(len(a) != n for a in arrays.values()) or universe.ndim != 1
                or (universe.size and (universe.min() < 0 or universe.max() >= n_words))
                or np.any(np.diff(universe) <= 0) or (n and (arrays["e_model"].min() < 0
                                                            or arrays["e_model"].max() >= n_words))):
            raise UserError(f"{path}: not a readable hangman checkpoint ({unreadable})")
        arrays = {name: np.ascontiguousarray(a, dtype=MEMO_ARRAYS[name]) for name, a in arrays.items()}
        return header, arrays, np.ascontiguousarray(universe, dtype=np.int32)

    def _pooled_memo(self, old: dict, universe: np.ndarray) -> dict:
        """The memo arrays of a checkpoint of the older format (each set's words in a pool), as this
        memo keeps them, for its sets closed in `universe` (kernels._pooled_entries)."""
        n = len(old["e_hash"])
        new = {name: np.ascontiguousarray(old[name], dtype=dtype) if name in old else np.zeros(n, dtype=dtype)
               for name, dtype in MEMO_ARRAYS.items()}
        closed = K._pooled_entries(self.masks, self.weights, self.spelled, self.letters, *self._by_place(universe),
                                   universe, np.ascontiguousarray(old["pool"]),
                                   np.ascontiguousarray(old["e_off"], dtype=np.int64), new["e_size"], new["e_r"],
                                   new["e_hash"], new["e_fixed"], new["e_model"], n)
        return kept_entries(new, closed)

    def nearly_full(self) -> bool:
        """Whether the memo is over nine tenths full."""
        return self.memo_entries > 0.9 * self.e_hash.size

    def compact_memo(self) -> None:
        """Make room in a full memo: keep what is known of the largest sets (most_valuable), at
        most half of the entries, and drop the rest, which a search recomputes when it needs it.
        A value never changes: the memo only saves work."""
        n = self.memo_entries
        keep = most_valuable(self.e_size[:n], self.e_hash.size // 2)
        K._memo_compact(keep, *(getattr(self, name) for name in MEMO_ARRAYS), self.table, self.ctr)
        self.compactions += 1

    # --- the searches ---
    def solve(self, members, strikes: int, max_nodes: int = 2**62, limit: int | None = None) -> tuple[int, bool, int]:
        """(least cost, finished, best first letter or -1) for the set, `strikes` wrong guesses
        from a loss. `limit`: a cost known to be beaten or met by some tree, plus one (e.g. a
        baseline's), which lets the first descent prune; a wrong limit only makes it unfinished.
        Not finished: the node budget ran out (the memo keeps only complete results)."""
        value, exact, size = self._search(members, strikes, max_nodes, K.INF if limit is None else limit)
        if not exact:
            return 0, False, -1
        return value, True, int(self.chosen[0]) if size > 1 and strikes > 0 else -1

    def solve_below(self, members, strikes: int, limit: int, max_nodes: int = 2**62) -> tuple[int, bool] | None:
        """The set's least cost if it is below `limit`: (cost, True); else (a proven lower bound of
        at least `limit`, False); None when the node budget ran out first. What a refutation asks:
        is this class cheap enough to leave its letter a chance?"""
        value, exact, _ = self._search(members, strikes, max_nodes, limit)
        return None if self.ctr[K.ABORTED] else (value, exact)

    def _search(self, members, strikes: int, max_nodes: int, limit: int) -> tuple[int, bool, int]:
        """The kernel's search of the set below `limit`: (value, exact, set size); not exact when
        the budget ran out (ctr[ABORTED]) or the value is a bound of at least `limit`."""
        size = self._load_for_memo(members)
        self.ctr[K.NODES] = 0
        self.ctr[K.MAX_NODES] = max_nodes
        self.ctr[K.ABORTED] = 0
        self.chosen[0] = -1
        value, exact = K._solve(
            self.masks, self.weights, self.letters, self.buf, 0, 0, size, strikes, limit, self.miss_cost, self.lost_cost,
            self.free_first, self.slot, self.cls_mask, self.cls_start, self.cls_fill,
            self.stat_miss, self.stat_useful, self.families, self.rank_weight, self.rank_word, self.spelled,
            self.fam_keys, self.fam_sums, self.order, self.child_lb, self.table, self.e_hash, self.e_size, self.e_r,
            self.e_val, self.e_exact, self.e_letter, self.e_fixed, self.e_model, self.ctr, self.chosen,
        )
        return int(value), bool(exact) and not self.ctr[K.ABORTED], size

    def lower_bound(self, members, strikes: int, levels: int = 1) -> int:
        """A proven lower bound on the least cost (see kernels._bound for why it is sound)."""
        size = self._load_for_memo(members)
        return int(K._bound(
            self.masks, self.weights, self.letters, self.buf, 0, 0, size, strikes, levels, self.miss_cost, self.lost_cost,
            self.free_first, self.slot, self.cls_mask, self.cls_start, self.cls_fill, self.stat_miss,
            self.stat_useful, self.families, self.rank_weight, self.rank_word, self.spelled, self.fam_keys,
            self.fam_sums, self.table, self.e_hash, self.e_size, self.e_r, self.e_val, self.e_exact, self.e_fixed,
            self.e_model,
        ))

    def partition(self, members, pooled_below: int = POOLED_BELOW, part_size: int = 0,
                  group_by: int | None = None) -> list[list[int]]:
        """The parts of the set that partition_bound solves apart (see there): the groups of
        words with the same vowels in the same places (or the same letter at position
        `group_by`), those under `pooled_below` words pooled into the first part, the others
        packed, largest first, into parts of at most `part_size` words."""
        if group_by is not None and not 0 <= group_by < self.hw.length:
            raise ValueError(f"group_by {group_by}: the words have positions 0 to {self.hw.length - 1}")
        words = self.hw.words
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

    def partition_bound(self, members, strikes: int, group_nodes: int = GROUP_NODES, pooled_below: int = POOLED_BELOW,
                        part_size: int = 0, group_by: int | None = None, levels: int = 0, progress: bool = False,
                        threads: int = 1, within=None, solved: dict | None = None) -> int:
        """A lower bound from splitting the set into parts and solving each one exactly.

        Sound because the least cost is superadditive over any partition: a tree for the whole set,
        followed only as far as a part still has two or more candidates, is a tree for the part
        whose every word pays at most what it paid in the whole tree (its path is a prefix). So
        the sum of the parts' least costs is at most the set's least cost.

        The parts are made of groups of words with the same vowels in the same places (`?a?`:
        bat, cat, ham, ...): they differ only in consonants, whose search costs most of the
        misses, alone as among all the words. `group_by` = p groups by the letter at position p
        instead: at length 3, where the vowel is mostly the middle letter, five groups hold 748 of
        the 972 words (the vowel groups leave 481 words in groups under 96), and packing them
        all into parts of 330 gives 11.70 against 12.24 by vowels. A part solved whole also pays for
        telling its groups apart, so larger parts make a larger bound while they can be solved:
        - the groups under `pooled_below` words are pooled into one part (at length 6, pooling
          below 24, 48, 96, 200 and 400 words gave 17.55, 17.43, 17.25, 17.30 and 17.33: the
          last two pools had to be split; at length 4 packing every group, none pooled, gave
          15.21 against 15.08 (parts of 20 M nodes), at length 3 by middle letter pooling below 96 gave 12.09 against
          11.70);
        - the other groups are packed, largest first, into parts of at most `part_size` words (a
          larger group is a part alone; 0: every group alone). Short words need it: at length 3
          `?a?` and `?o?` solved together cost 2814, alone 1555 + 967, the price of finding the
          vowel, which every tree pays.
        A part whose search needs more than `group_nodes` nodes is split in two halves (its
        groups in order, so at most one group is cut), each solved in a memo of its own (room for
        `group_nodes` entries). The parts are independent searches: `threads` of them run at once,
        each thread with its own searcher and memo (the kernels release the GIL); the bound is the
        same sum whatever the order.

        levels=1 makes the parts agree on the first letter: the bound is the least, over the
        set's useful letters L, of the sum over the parts of their least cost when opened with L.
        Sound: an optimal tree opens with some useful letter L, and each class of L is then
        played by a tree whose cost is, by superadditivity again, at least the sum of the parts'
        least costs in that class; summed over the classes, with L's misses, that is the parts'
        least costs when opened with L. Each part's solved memo serves its 26 openings. Apart,
        parts pay nothing for guessing a letter that splits only another part; with every large
        vowel group alone, at lengths 5 and 6 this gives 16.49 and 17.18 against 16.55 and 17.25
        (at 6: 457 s against 112 s, one run on a busy machine), but packing into parts of 900 words
        searched in 40 M nodes does better still (16.05 and 16.79, in 444 s and 229 s), and into
        parts of 1800 better again (15.96 and 16.73, in 2185 s and 554 s: each pair of large groups
        still solves, the 10760 words of the small ones at length 6 in 25 M nodes).

        `within`: a set that holds `members` (every word, say) whose parts are made, then cut down
        to `members`, so that subsets of one set share every part that loses no word to them;
        `solved`: a dict, kept across calls with one `group_nodes`, of each part's outcome, found
        there again instead of searched (refute_openings with `parts`: the miss classes of two
        letters share the parts that hold neither letter, as three of the four vowel parts at
        length 4 held no q; by last letter, each of j, x and z is in all seven parts, as each rare
        letter is in all three at length 5, and each miss class costs a whole partition bound)."""
        from tqdm import tqdm

        members = np.unique(np.asarray(members))
        held = np.zeros(len(self.hw.words), dtype=np.bool_)
        held[members] = True
        parts = [[m for m in part if held[m]]
                 for part in self.partition(members if within is None else within, pooled_below, part_size, group_by)]
        if held.sum() != sum(map(len, parts)):
            raise ValueError("within must hold every member")
        openings = self.useful_letters(members) if levels else []
        searchers: queue.SimpleQueue = queue.SimpleQueue()
        for _ in range(max(1, threads)):
            searchers.put(Searcher(self.hw, self.lives, memo_entries=16, free_first=self.free_first))

        def solve_part(part: list[int]) -> tuple[int | None, list[int]]:
            """(the part's least cost, or None if not found in group_nodes; each opening's cost above it)."""
            key = (np.asarray(part, dtype=np.int64).tobytes(), strikes, tuple(openings))
            if solved is not None and key in solved:
                return solved[key]
            alone = searchers.get()
            try:
                alone._allocate_memo(max(16, group_nodes))
                cost, ok, _ = alone.solve(part, strikes, max_nodes=group_nodes)
                found: tuple[int | None, list[int]] = (None, [])
                if ok:

                    def class_bound(cls, r: int) -> int:
                        value, exact, _ = alone.solve(cls, r, max_nodes=group_nodes)
                        return value if exact else alone.lower_bound(cls, r)

                    found = cost, [max(0, alone._opening_cost(np.array(part), strikes, letter, class_bound) - cost)
                                   for letter in openings]  # each at least the part's least cost, which is exact
                if solved is not None:
                    solved[key] = found
                return found
            finally:
                alone._allocate_memo(16)  # its memory back at once
                searchers.put(alone)

        total, extra = 0, [0] * len(openings)  # extra: each opening's cost above the parts' least costs
        bar = tqdm(total=sum(map(len, parts)), desc="bound: words of the parts solved", unit="word",
                   disable=not progress or None, leave=False)
        bar.update(sum(len(part) for part in parts if len(part) < 2))
        parts = [part for part in parts if len(part) >= 2]
        pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="parts")
        try:
            running = {pool.submit(solve_part, part): part for part in parts}
            while running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
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
                    bar.update(len(part))
        finally:  # after Ctrl-C, only the parts under way are finished
            pool.shutdown(wait=True, cancel_futures=True)
            bar.close()
        return total + (min(extra) if openings else 0)

    def known(self, members, strikes: int) -> tuple[int, bool]:
        """What is proven of the set without searching: (its least cost, True) when the memo has
        it exactly (or the set is trivial), else (a lower bound, False): the memo's bound or the
        static one, the larger."""
        size = self._load_for_memo(members)
        if strikes == 0 or size <= 2:  # lost, found, or a pair (kernels._pair_cost): the bound is the cost
            return self.lower_bound(members, strikes, levels=0), True
        e = self._memo_entry(size, strikes)
        if e >= 0 and self.e_exact[e]:
            return int(self.e_val[e]), True
        return self.lower_bound(members, strikes, levels=0), False

    def record_bound(self, members, strikes: int, bound: int) -> None:
        """Keep a lower bound on the set's least cost proven outside the search (partition_bound's)
        in the memo, where it raises what is there: a search that meets the set then prunes
        with it, and a checkpoint keeps it (so --merge hands it on)."""
        size = self._load_for_memo(members)
        if strikes == 0 or size <= 2:  # lost, found or a pair: never stored (their cost is known)
            return
        self._make_room(self.memo_entries + 1)
        r, h = self._memo_key(size, strikes)
        fixed = K._fixed_letters(self.masks, self.weights, self.buf[0], 0, size, self.stat_miss[0],
                                 self.stat_useful[0])
        K._memo_put(self.buf[0], 0, size, r, h, -1, 0, bound, False, -1, fixed,
                    self.table, self.e_hash, self.e_size, self.e_r, self.e_val, self.e_exact, self.e_letter,
                    self.e_fixed, self.e_model, self.spelled, self.ctr)

    def class_entries(self, members, strikes: int) -> list[int]:
        """The memo entries of the set and of the classes of its useful letters (what
        checkpoint_status reads), where the memo has them."""
        members = np.unique(np.asarray(members))
        sets = [(members, strikes)] + [(part, strikes - (mask == 0)) for letter in self.useful_letters(members)
                                       for mask, part in split(self.hw, members, letter)]
        found = []
        for part, r in sets:
            e = self._memo_entry(self._load_for_memo(part), r) if r > 0 and len(part) > 1 else -1
            if e >= 0:
                found.append(int(e))
        return found

    def _memo_key(self, size: int, strikes: int) -> tuple[int, np.uint64]:
        """(strikes that count, hash): the memo's key of the set in buf[0][:size] (two or more
        words, strikes >= 1), as the kernels key it."""
        r = K._strikes_that_count(self.letters, self.buf[0], 0, size, strikes)
        return r, np.uint64(K._hash(self.buf[0], 0, size, r))

    def _memo_entry(self, size: int, strikes: int) -> int:
        """The memo entry of the set in buf[0][:size] (two or more words, strikes >= 1), or -1."""
        r, h = self._memo_key(size, strikes)
        e, _ = K._memo_find(self.buf[0], 0, size, r, h, self.table, self.e_hash, self.e_size, self.e_r,
                            self.e_fixed, self.e_model, self.spelled)
        return int(e)

    def useful_letters(self, members) -> list[int]:
        """The letters that split the set (their masks differ among its words): the only ones an
        optimal tree needs (kernels._letter_stats)."""
        masks = self.masks[np.asarray(members)]
        return [int(c) for c in np.flatnonzero((masks != masks[:1]).any(axis=0))]

    def _opening_cost(self, members: np.ndarray, strikes: int, letter: int, class_cost, stop: int = INF_COST) -> int:
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

    def _small_search(self, members, strikes: int, exact_below: int, subtree_nodes: int) -> tuple[int, int] | None:
        """(least cost, first letter) of a set of at most `exact_below` words whose search finishes
        within `subtree_nodes` nodes, else None: how a best-found tree plays a set, and so how
        rollout_letter costs one."""
        if len(members) > exact_below:
            return None
        cost, ok, letter = self.solve(members, strikes, max_nodes=subtree_nodes)
        return (cost, letter) if ok else None

    def best_found_chooser(self, exact_below: int, subtree_nodes: int):
        """`choose(members, strikes) -> letter` of a best-found tree (the whole search did not
        finish). A set is played by its optimum where that is proven: the memo holds its exact
        value (what the unfinished search did prove, from a checkpoint too), or a search of
        `subtree_nodes` nodes finishes on it (at most `exact_below` words); so are, all the way
        down, the classes of the letter it is played with, solved again without a budget where the
        memo dropped them (each was solved once, so its search ends): the tree then scores what
        the memo proved of it. Elsewhere rollout_letter's letter."""
        optimal: set[tuple[bytes, int]] = set()  # the classes of sets played by their optimum

        def choose(members, strikes: int) -> int:
            members = np.asarray(members)
            budget = 2**62 if (members.tobytes(), strikes) in optimal else 1  # 1 node: the memo's answer
            _, proven, letter = self.solve(members, strikes, max_nodes=budget)
            if not proven:
                searched = self._small_search(members, strikes, exact_below, subtree_nodes)
                if searched is None:
                    return self.rollout_letter(members, strikes, exact_below, subtree_nodes)
                letter = searched[1]
            optimal.update((part.tobytes(), strikes - (mask == 0)) for mask, part in split(self.hw, members, letter))
            return letter

        return choose

    def rollout_letter(self, members, strikes: int, exact_below: int, subtree_nodes: int) -> int:
        """A letter for a set too large to search: the useful letter whose classes cost least,
        each class costed as it would then be played: by its exact value where the memo holds one
        (a class the search solved, however large), by the tree a search of `subtree_nodes` nodes
        proves best for it (classes of at most `exact_below` words), else by the frequency rule.
        One guess of lookahead over a base strategy (the "rollout" of dynamic programming): a
        heuristic, with no claim of optimality. It gave better trees than the frequency rule
        alone at every length from 3 to 6, and where the optimum is proven (lengths 2, 7-9) its
        trees come within 0.006 of the optimal expected score (`bench/hangman.py --calibrate`).
        Ties: alphabetical."""
        members = np.unique(np.asarray(members))
        best_cost, best_letter = INF_COST, -1
        for letter in self.useful_letters(members):
            cost = self._opening_cost(members, strikes, letter,
                                      lambda part, r: self._played_cost(part, r, exact_below, subtree_nodes), best_cost)
            if cost < best_cost:
                best_cost, best_letter = cost, letter
        return best_letter

    def _played_cost(self, members, strikes: int, exact_below: int, subtree_nodes: int) -> int:
        """The cost of a set under rollout_letter's base strategy (see there)."""
        if strikes == 0:
            return int(self.weights[members].sum()) * self.lost_cost
        if members.size == 1:
            return 0
        value, proven = self.known(members, strikes)  # a class the search solved, however large
        if proven:
            return value
        searched = self._small_search(members, strikes, exact_below, subtree_nodes)
        return searched[0] if searched else self.totals_cost(self.rule_totals("frequency", members, strikes))

    def rule_letter(self, members, rule: str) -> int:
        size = self._load(members)
        if size < 2:
            return -1
        return int(K._rule_letter(
            self.masks, self.weights, self.buf, 0, 0, size, RULES[rule], self.slot, self.cls_mask,
            self.cls_start, self.cls_fill, self.stat_miss, self.stat_useful,
        ))

    def rule_totals(self, rule: str, members=None, strikes: int | None = None) -> Totals:
        """The figures of a baseline rule over the set (default: every word, all lives)."""
        members = np.arange(len(self.hw.words)) if members is None else members
        size = self._load(members)
        strikes = self.strikes if strikes is None else strikes
        misses, lost = K._rule_totals(
            self.masks, self.weights, self.buf, 0, 0, size, strikes, RULES[rule], self.slot, self.cls_mask,
            self.cls_start, self.cls_fill, self.stat_miss, self.stat_useful,
        )
        weight = int(self.weights[np.unique(np.asarray(members))].sum())
        return Totals(int(misses), int(lost), weight)


class Slices:
    """Searches of one Searcher within `max_nodes` nodes in all, each run in slices, with one
    progress bar and, with `checkpoint`, the memo saved (in at most `checkpoint_bytes`, see
    Searcher.save_memo) every `save_every` seconds, or 20 times as long as the last save took (so
    that saving a memo of gigabytes costs at most a twentieth of the time), on Ctrl-C, and by
    close(). With `resume` the memo is loaded from the checkpoint first.

    Why slices: an aborted search records nothing half-done, while every finished sub-result
    stays in the memo, so the next slice descends again through the memo to where the last one
    stopped. Between slices the progress bar moves, a memo nearly full is compacted (see
    Searcher.compact_memo: without it a full memo stops growing and the search repeats work it
    cannot record), and the memo may be saved, so a stopped or killed build goes on with
    `resume`, or with a larger budget, instead of starting over."""

    def __init__(self, s: Searcher, max_nodes: int, root: tuple, checkpoint=None, resume: bool = False,
                 progress: bool = True, slice_nodes: int = 1_000_000, save_every: float = 300.0,
                 checkpoint_bytes: float | None = None, desc: str = "exact search"):
        from tqdm import tqdm

        self.s, self.max_nodes, self.root, self.checkpoint = s, max_nodes, root, checkpoint
        self.slice_nodes, self.save_every, self.checkpoint_bytes = slice_nodes, save_every, checkpoint_bytes
        self.spent = self.before = (s.load_memo(checkpoint) or 0) if resume and checkpoint else 0
        s._load_for_memo(root[0])  # the memo's universe holds the root, whose classes come first (refute_openings)
        self.run_id = uuid.uuid4().hex  # this run, in the checkpoint (runs_of)
        self.began = self.last_save = time.monotonic()
        self.bar = tqdm(total=max_nodes, initial=min(self.spent, max_nodes), unit="node", unit_scale=True, desc=desc,
                        disable=not progress or None, leave=False)

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
            self.bar.set_postfix(memo=s.memo_entries)
            if found is not None:
                return found
            if s.nearly_full():
                s.compact_memo()
                self.bar.set_postfix(memo=s.memo_entries, compactions=s.compactions)
                self.slice_nodes *= 2  # what a slice can keep is bounded: let the next reach further
            elif s.memo_entries == entries:
                self.slice_nodes *= 2  # the slice ended before anything new was finished: reach further
            if self.checkpoint and time.monotonic() - self.last_save > self.save_every:
                started = time.monotonic()
                self.save()
                self.last_save = time.monotonic()
                self.save_every = max(self.save_every, 20 * (self.last_save - started))
        return None

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
        (a finished search's file proves the optimum, build --status, and rebuilds the tree at once)."""
        self.bar.close()
        if self.checkpoint:
            self.save()


def solve_in_slices(s: Searcher, members, strikes: int, max_nodes: int, checkpoint=None, resume: bool = False,
                    progress: bool = True, slice_nodes: int = 1_000_000, save_every: float = 300.0,
                    checkpoint_bytes: float | None = None, limit: int | None = None) -> tuple[int, bool, int]:
    """Searcher.solve within `max_nodes` nodes in all, run in Slices (see there for the
    checkpoints): (cost, finished, nodes spent). `limit`: the cost of a known tree plus one, which
    the search then only has to beat (Searcher.solve); a limit that is no tree's leaves it
    unfinished."""
    slices = Slices(s, max_nodes, (members, strikes), checkpoint, resume, progress, slice_nodes, save_every,
                    checkpoint_bytes)
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
    at once on another core or machine, into a checkpoint of their own that Searcher.merge_memo
    (build hangman --merge) then adds to the whole search's: a letter refuted here is refuted
    there from the memo alone.

    `parts` (Searcher.partition_bound's keywords, `threads` of its parts at a time): a class of
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
                    bounds[i] = max(bounds[i], s.partition_bound(part, r, **parts, progress=progress, threads=threads,
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
