"""The Hangman search's memo: its arrays, its universe, and its file (save, load, merge, compact).

An entry holds what is proven of one (set of words, strikes that count): its least cost
exactly, or a lower bound on it (kernels: memo). Every entry is a fact, whichever search proved
it, so memos can be saved, resumed elsewhere, merged and cut down without making any value wrong:
a set dropped is found again by the next search that needs it.
"""

from __future__ import annotations

import os
import uuid

import numpy as np

from ..errors import CheckpointMismatch, NoCheckpoint, UserError
from ..files import CHECKSUM_FIELD, check_checksum, header_differences, members_sha256
from . import kernels as K
from .game import HangmanWords

CHECKPOINT_FORMAT = "wordtree-hangman-checkpoint/2"
POOLED_FORMAT = "wordtree-hangman-checkpoint/1"  # each set's words kept: read, and made entries of this one
MEMO_ARRAYS = {"e_hash": np.uint64, "e_size": np.int32, "e_r": np.int8, "e_val": np.int64, "e_exact": np.bool_,
               "e_letter": np.int8, "e_fixed": np.int32, "e_model": np.int32}  # one entry each (kernels: memo)
FILE_ENTRY_BYTES = sum(np.dtype(t).itemsize for t in MEMO_ARRAYS.values())  # a memo entry in a checkpoint file
COMPRESSION_GUESS = 2  # a capped checkpoint's first try: its memo compresses about 2 to 1 (lengths 4 and 8)
WITNESSES = 32  # a capped checkpoint keeps this many of its smallest exact values, and of its bounds, to be checked
ENTRY_BYTES = FILE_ENTRY_BYTES + 32  # in memory, with its slots in the table
UNREADABLE = "not the .npz of a hangman search's memo"


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
    after the compaction needs them (kept, it finds them again far sooner: docs/log/hangman.md)."""
    key = sizes.astype(np.int64) + (0 if first is None else first * (int(sizes.max(initial=0)) + 1))
    order = np.lexsort((np.arange(len(sizes)), -key))
    count = min(len(sizes), max_entries)
    if max_bytes is not None:
        count = min(count, int(max_bytes // FILE_ENTRY_BYTES))
    keep = np.zeros(len(sizes), dtype=np.bool_)
    keep[order[:count]] = True
    return keep


def checksum_member(members: dict) -> np.ndarray:
    """The checksum member of a checkpoint of `members` (files.members_sha256, as check_checksum reads it)."""
    return np.frombuffer(("sha256:" + members_sha256(members)).encode(), dtype=np.uint8)


def kept_entries(arrays: dict, keep: np.ndarray) -> dict:
    """The memo arrays (MEMO_ARRAYS) of the entries marked in `keep` only."""
    return {name: arrays[name][keep] for name in MEMO_ARRAYS}


def runs_of(header: dict) -> dict[str, list]:
    """The searches whose work a checkpoint holds: run id -> [nodes, seconds]. Why runs and not
    one total: a memo merged into another may share runs with it, both resumed from copies of one
    checkpoint, and only ids count those once. A file from before runs were kept is one run, named
    by its totals, so copies of it still count once."""
    runs = header.get("runs")
    if runs is None:
        nodes, seconds = int(header.get("nodes", 0)), float(header.get("seconds", 0.0))
        return {f"totals:{nodes}:{seconds}": [nodes, seconds]} if nodes or seconds else {}
    return {str(run): [int(nodes), float(seconds)] for run, (nodes, seconds) in runs.items()}


def runs_total(runs: dict[str, list]) -> tuple[int, float]:
    """(nodes, seconds) of runs_of's runs, each counted once."""
    return sum(n for n, _ in runs.values()), sum(t for _, t in runs.values())


class Memo:
    """The memo of one searcher: the entry arrays (MEMO_ARRAYS, e_hash ...), their hash table, the
    universe whose closed subsets the entries are (kernels._closed_size), and the searches whose
    work it holds (runs_of). The entry arrays are also `held`, the kernels' bundle of them
    (kernels.MemoEntries), made with them. `words`: the searcher's (kernels.Words); `ctr` is the
    searcher's counter array, whose ENTRIES it keeps. `memory_bytes`: what a loaded or merged
    checkpoint may grow the memo to (default half of the machine's memory)."""

    def __init__(self, hw: HangmanWords, lives: int, free_first: bool, *, words: K.Words, ctr: np.ndarray,
                 entries: int, memory_bytes: float | None = None):
        self.hw, self.lives, self.free_first = hw, lives, free_first
        self.words = words
        self.masks, self.spelled, self.weights, self.ctr = words.masks, words.spelled, words.weights, ctr
        self.memory_bytes = memory_bytes
        self.compactions = 0
        self.runs: dict[str, list] = {}  # the searches whose work the memo holds (runs_of)
        self.stat_miss = np.zeros(26, dtype=np.int64)  # scratch of kernels._fixed_letters
        self.stat_useful = np.zeros(26, dtype=np.uint8)
        self.set_universe(np.arange(len(hw.words), dtype=np.int32))
        self.allocate(entries)

    @property
    def entries(self) -> int:
        return int(self.ctr[K.ENTRIES])

    @property
    def capacity(self) -> int:
        return int(self.e_hash.size)

    def arrays(self, n: int | None = None) -> dict:
        """The entry arrays by name (their first `n` entries; default all of them)."""
        return {name: getattr(self, name) if n is None else getattr(self, name)[:n] for name in MEMO_ARRAYS}

    def allocate(self, entries: int) -> None:
        """An empty memo of this capacity (numpy's zeros are paged in only as they are used); a
        table slot holds an entry number in 32 bits (kernels._slot_tag)."""
        entries = min(entries, 2**32 - 2)
        table = 1 << max(4, int(2 * entries - 1).bit_length())
        self.table = np.zeros(table, dtype=np.int64)
        self.held = K.MemoEntries(**{name: np.zeros(entries, dtype=dtype) for name, dtype in MEMO_ARRAYS.items()})
        for name in MEMO_ARRAYS:
            setattr(self, name, getattr(self.held, name))
        self.ctr[K.ENTRIES] = 0

    def clear(self) -> None:
        """No entries, and the work of no search."""
        if self.entries:
            self.ctr[K.ENTRIES] = 0
            self.table[:] = 0
        self.runs = {}

    # --- the universe ---
    def set_universe(self, universe: np.ndarray) -> None:
        """Make `universe` (ascending word numbers) the set whose closed subsets the memo holds
        (kernels: memo), with its words indexed by letter and place (kernels._closed_size)."""
        self.universe = np.ascontiguousarray(universe, dtype=np.int32)
        self.in_universe = np.zeros(len(self.hw.words), dtype=np.bool_)
        self.in_universe[self.universe] = True
        self.by_place, self.place_start = self.by_place_of(self.universe)

    def by_place_of(self, universe: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(words, starts): the words of `universe` with letter c at place p are
        words[starts[p * 26 + c]:starts[p * 26 + c + 1]]."""
        place = (np.arange(self.hw.length) * 26 + self.spelled[universe]).T.ravel()
        order = np.argsort(place, kind="stable")
        words = np.ascontiguousarray(np.tile(universe, self.hw.length)[order])
        return words, np.searchsorted(place[order], np.arange(self.hw.length * 26 + 1)).astype(np.int64)

    def closed(self, members: np.ndarray) -> bool:
        """Whether the set (ascending, not empty) is closed in the universe: its words, and only
        they, of the universe's, have its letters of one mask (kernels._closed_size)."""
        if not self.in_universe[members].all():
            return False
        fixed = K._fixed_letters(self.masks, self.weights, members, 0, members.size, self.stat_miss, self.stat_useful)
        return K._closed_size(self.spelled, self.by_place, self.place_start, self.universe, fixed,
                              members[0]) == members.size

    def serve(self, members: np.ndarray) -> None:
        """Make the memo fit to serve the set (ascending): its sets are all closed in one universe
        (at first every word), and a set searched must be too (kernels._same_set). A set that is
        not (a search of some other words) starts a new memo, whose universe is every word if the
        set is closed in that, else the set."""
        if members.size == 0 or self.closed(members):
            return
        self.clear()  # the work of none of the searches before
        self.set_universe(np.arange(len(self.hw.words), dtype=np.int32))
        if not self.closed(members):
            self.set_universe(members.copy())

    def entry_set(self, e: int) -> np.ndarray:
        """The words of entry e's set: those of the universe with its letters of one mask as its
        model word has them (kernels._fits, in numpy)."""
        fixed = (int(self.e_fixed[e]) >> np.arange(26)) & 1
        model = self.spelled[self.e_model[e]]
        spelled = self.spelled[self.universe]
        pinned = fixed[model] == 1
        fits = np.where(pinned, spelled == model, fixed[spelled] == 0).all(axis=1)
        return self.universe[fits]

    # --- room ---
    def nearly_full(self) -> bool:
        """Whether the memo is over nine tenths full."""
        return self.entries > 0.9 * self.capacity

    def compact(self) -> None:
        """Make room in a full memo: keep what is known of the largest sets (most_valuable), at
        most half of the entries, and drop the rest, which a search recomputes when it needs it.
        A value never changes: the memo only saves work."""
        keep = most_valuable(self.e_size[:self.entries], self.capacity // 2)
        K._memo_compact(keep, self.table, self.held, self.ctr)
        self.compactions += 1

    def make_room(self, entries: int) -> None:
        """Grow the memo, keeping what it holds, toward room for `entries` (half as many again, to
        go on searching), within `memory_bytes`."""
        if entries <= self.capacity:
            return
        want = fit_in_memory(max(entries * 3 // 2, self.capacity), self.memory_bytes)
        n = self.entries
        held = {name: a.copy() for name, a in self.arrays(n).items()}
        self.allocate(max(want, self.capacity))
        self._fill(held, n)

    def _fill(self, arrays: dict, n: int) -> None:
        """The first n entries set to `arrays`' and made the whole memo, the table rebuilt."""
        for name in MEMO_ARRAYS:
            getattr(self, name)[:n] = arrays[name]
        self.ctr[K.ENTRIES] = n
        K._memo_rebuild(self.table, self.e_hash, n)

    # --- the file ---
    def header(self) -> dict:
        """What a saved memo must match to serve this search: the words, weights, lives, rules."""
        return {"format": CHECKPOINT_FORMAT, "game": self.hw.identity, "lives": self.lives,
                "free_first": self.free_first}

    def work_done(self) -> tuple[int, float]:
        """(nodes, seconds) of the searches whose work the memo holds, each counted once (a resumed
        build's `seconds` counts them)."""
        return runs_total(self.runs)

    def save(self, path, nodes: int = 0, seconds: float = 0.0, max_bytes: float | None = None,
             first_entries=(), run: str | None = None) -> None:
        """Write the memo (its used part) atomically, with the searches whose work it holds: those
        loaded or merged into it (self.runs) and this one, `run` (an id; a new one by default),
        which spent `nodes` and `seconds` (runs_of).

        With `max_bytes`, the file takes at most that many bytes (beyond its header): it keeps
        what is proven of the largest sets (most_valuable), compressed, so that the work of a
        build longer than one machine's life can be kept in git (runs/) and carried on elsewhere;
        a resume recomputes the sets dropped, and a few percent of the entries already save most
        of the work. The entries `first_entries` (the searcher's first letters' classes) go first,
        small or not, so that the file proves what the whole memo proved of the first letters,
        which a resume then need not find again; and so do the WITNESSES smallest sets with an
        exact value and with a bound (a few bytes), which a fresh search checks in seconds
        (tests/test_hangman_trees.py), where the largest sets would take hours."""
        import orjson

        from ..files import atomic_file

        n = self.entries
        arrays = self.arrays(n)
        runs = self.runs | ({run or uuid.uuid4().hex: [int(nodes), float(seconds)]} if nodes or seconds else {})
        all_nodes, all_seconds = runs_total(runs)
        header = {**self.header(), "nodes": all_nodes, "seconds": all_seconds, "runs": runs}
        if max_bytes is None:
            members = {"header": np.frombuffer(orjson.dumps(header), dtype=np.uint8), "universe": self.universe,
                       **arrays}
            with atomic_file(path) as f:
                np.savez(f, **members, checksum=checksum_member(members))
            return
        header = np.frombuffer(orjson.dumps(header | {"kept_of": n}), dtype=np.uint8)
        first = np.zeros(n, dtype=np.bool_)
        first[list(first_entries)] = True
        for exact in (True, False):
            entries = np.flatnonzero(arrays["e_exact"] == exact)
            first[entries[np.argsort(arrays["e_size"][entries], kind="stable")[:WITNESSES]]] = True
        data = self._capped_file(header, arrays, first, max_bytes)
        with atomic_file(path) as f:
            f.write(data.getbuffer())

    def _capped_file(self, header: np.ndarray, arrays: dict, first: np.ndarray, max_bytes: float):
        """The compressed file (bytes in a BytesIO) of the most valuable entries that fits in
        `max_bytes`, nearly filling it: its uncompressed bytes (at most the whole memo's) are
        scaled until it does."""
        import io

        n = len(arrays["e_hash"])
        budget = min(COMPRESSION_GUESS * max_bytes, FILE_ENTRY_BYTES * n)
        fitting = None  # the fullest file that fits so far
        for attempt in range(40):  # 8 tries for a full file, more while none fits
            if attempt >= 8 and fitting is not None:
                break
            kept = kept_entries(arrays, most_valuable(arrays["e_size"], n, budget, first))
            data = io.BytesIO()
            members = {"header": header, "universe": self.universe, **kept}
            np.savez_compressed(data, **members, checksum=checksum_member(members))
            if data.tell() <= max_bytes or not len(kept["e_hash"]):
                fitting = data if fitting is None or data.tell() > fitting.tell() else fitting
                if data.tell() > 0.8 * max_bytes or len(kept["e_hash"]) in (0, n):
                    break
            budget *= 0.9 * max_bytes / data.tell()
        return fitting or data

    def load(self, path, resuming: bool = True) -> int | None:
        """Replace the memo by a saved one; the nodes it had cost, or None when there is no such
        file. The memo grows to hold it (the search goes on from all it had proven), within
        `memory_bytes`; a checkpoint larger than that keeps what compact would (a resume on a
        smaller machine is slower, never wrong). The file itself is read whole first. A file that
        is not one is a UserError, one of another search a CheckpointMismatch."""
        saved = self.read_checkpoint(path, resuming=resuming)
        if saved is None:
            return None
        header, arrays, universe = saved
        self.ctr[K.ENTRIES] = 0
        self.set_universe(universe)
        self.make_room(len(arrays["e_hash"]))
        if len(arrays["e_hash"]) > self.capacity:  # more than the memory allows: keep what fits
            arrays = kept_entries(arrays, most_valuable(arrays["e_size"], self.capacity // 2))
            self.compactions += 1
        self._fill(arrays, len(arrays["e_hash"]))
        self.runs = header["runs"]
        return self.work_done()[0]

    def merge(self, path) -> tuple[int, int, float]:
        """Add what another search of the same game proved (its checkpoint at `path`) to this memo:
        (entries added or improved, and the nodes and seconds of the runs it adds: the runs both
        memos hold, two copies of one checkpoint resumed apart, say, count once). Every entry is a
        fact, the least cost of a set or a lower bound on it, whichever search proved it, so two
        searches of one game, each on its own machine or core (say the whole search and
        refute_openings on the first letters it will reach last), pool their work; an exact value
        replaces a bound, a bound only raises a bound. The memo grows within `memory_bytes`;
        entries beyond that are left out (a search finds them again)."""
        saved = self.read_checkpoint(path, "only a search of the same game can be merged")
        if saved is None:
            raise NoCheckpoint(path, "to merge")
        header, arrays, universe = saved
        if not self.entries:
            self.set_universe(universe)
        elif not np.array_equal(universe, self.universe):
            raise UserError(f"{path}: a search of other words than this one's ({len(universe)} against "
                            f"{len(self.universe)}); only a search of the same set can be merged")
        n = len(arrays["e_hash"])
        self.make_room(self.entries + n)
        changed = K._memo_merge(K.MemoEntries(**arrays), n, self.table, self.held, self.spelled, self.ctr)
        before = self.work_done()
        for run, (nodes, seconds) in header["runs"].items():  # a run saved twice: its later save
            held = self.runs.get(run, [0, 0.0])
            self.runs[run] = [max(nodes, held[0]), max(seconds, held[1])]
        after = self.work_done()
        return int(changed), after[0] - before[0], after[1] - before[1]

    def read_header(self, path, resuming: bool = True) -> dict | None:
        """The header of the checkpoint at `path`, checked as read_checkpoint checks it (its
        checksum too, over every member), so that a resume refuses a file of another search, or a
        damaged one, before any work; None when there is no such file."""
        return self._read(path, None, resuming, whole=False)

    def read_checkpoint(self, path, hint: str | None = None,
                        resuming: bool = True) -> tuple[dict, dict, np.ndarray] | None:
        """(header, memo arrays, universe) of a checkpoint of this search, read whole (one of the
        older format, which kept each set's words, made one of this: pooled_memo); None when there
        is no such file; a UserError for a file that is not one; for one of another search, a
        UserError saying `hint`, without one a CheckpointMismatch."""
        return self._read(path, hint, resuming, whole=True)

    def _read(self, path, hint: str | None, resuming: bool, whole: bool):
        """read_checkpoint, or (not `whole`) read_header: the header checked first."""
        import zipfile

        import orjson

        from ..files import open_regular  # a FIFO or a device is refused, never waited on

        try:
            with open_regular(path) as f, np.load(f) as data:
                header = self._checked_header(path, orjson.loads(data["header"].tobytes()), hint, resuming)
                pooled = header.get("format") == POOLED_FORMAT
                names = ("e_hash", "e_off", "e_size", "e_r", "e_val", "e_exact", "e_letter", "pool") if pooled else \
                    (*MEMO_ARRAYS, "universe")
                members = {name: data[name] for name in data.files}
                arrays = {name: members[name] for name in names}
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, orjson.JSONDecodeError) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else UNREADABLE
            raise UserError(f"{path}: not a readable hangman checkpoint ({detail})") from None
        claimed = members.pop(CHECKSUM_FIELD, None)
        claimed = claimed.tobytes().decode(errors="replace") if claimed is not None else None
        check_checksum(path, "hangman search", claimed, members_sha256(members))
        if not whole:
            return header
        return self._memo_of(path, header, arrays, pooled)

    def _checked_header(self, path, header, hint: str | None, resuming: bool) -> dict:
        """A file's header if it is this search's (either format); for one of another search, a
        UserError saying `hint`, without one a CheckpointMismatch naming each field that differs."""
        pooled = isinstance(header, dict) and header.get("format") == POOLED_FORMAT
        ours = self.header() | ({"format": POOLED_FORMAT} if pooled else {})
        if not isinstance(header, dict) or any(header.get(k) != v for k, v in ours.items()):
            differences = header_differences(header if isinstance(header, dict) else {}, ours)
            if hint:
                raise UserError(f"{path}: checkpoint of another hangman search ({'; '.join(differences)}); {hint}")
            raise CheckpointMismatch(path, "hangman search", differences, resuming=resuming)
        return header

    def _memo_of(self, path, header: dict, arrays: dict, pooled: bool) -> tuple[dict, dict, np.ndarray]:
        """read_checkpoint's (header, memo arrays, universe) from a file's checked header and arrays."""
        try:
            header["runs"] = runs_of(header)  # read once, here, for the callers
        except (AttributeError, TypeError, ValueError):
            raise UserError(f"{path}: not a readable hangman checkpoint "
                            "(its runs are not run id: [nodes, seconds])") from None
        if pooled:
            universe = np.arange(len(self.hw.words), dtype=np.int32)  # what build hangman searched
            arrays = self.pooled_memo(arrays, universe)
        else:
            universe = arrays.pop("universe")
        if not self._well_formed(arrays, universe):
            raise UserError(f"{path}: not a readable hangman checkpoint ({UNREADABLE})")
        arrays = {name: np.ascontiguousarray(a, dtype=MEMO_ARRAYS[name]) for name, a in arrays.items()}
        return header, arrays, np.ascontiguousarray(universe, dtype=np.int32)

    def _well_formed(self, arrays: dict, universe: np.ndarray) -> bool:
        """Whether a file's arrays are one memo of this game's words: one length, a universe of
        ascending word numbers, model words that are words."""
        n, n_words = len(arrays["e_hash"]), len(self.hw.words)
        return not (any(len(a) != n for a in arrays.values()) or universe.ndim != 1
                    or (universe.size and (universe.min() < 0 or universe.max() >= n_words))
                    or np.any(np.diff(universe) <= 0) or (n and (arrays["e_model"].min() < 0
                                                                or arrays["e_model"].max() >= n_words)))

    def pooled_memo(self, old: dict, universe: np.ndarray) -> dict:
        """The memo arrays of a checkpoint of the older format (each set's words in a pool), as this
        memo keeps them, for its sets closed in `universe` (kernels._pooled_entries)."""
        n = len(old["e_hash"])
        new = {name: np.ascontiguousarray(old[name], dtype=dtype) if name in old else np.zeros(n, dtype=dtype)
               for name, dtype in MEMO_ARRAYS.items()}
        closed = K._pooled_entries(self.words, *self.by_place_of(universe), universe, np.ascontiguousarray(old["pool"]),
                                   np.ascontiguousarray(old["e_off"], dtype=np.int64), K.MemoEntries(**new), n)
        return kept_entries(new, closed)
