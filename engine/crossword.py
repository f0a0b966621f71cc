"""Crossword filling: parse a grid, index a word list, fill the slots, write the result.

Pipeline: `read_grid` -> `find_slots` -> `word_index` (cached on disk) -> `fill` (restarts and
the quality loop around the numba search in crossword_kernels.py) -> `render_text` /
`to_json` / `write_png`.

Quality: the "common" words are those among the score list's 10,000 best (for the default
list: the 10,000 most frequent English words); each length's list holds them first, then the
rarer words, best score first, so "common only" is a prefix of the list. After a first fill
(common words tried first) the filler wants fewer rare entries than its best k: whole-grid
searches with a budget of k - 1 rare entries (enforced by propagation; a search that runs out
proves k minimal) alternate with neighbourhood searches that keep most of the fill as
pre-filled letters and re-fill a few slots around a rare entry with fewer rare words.

Scores: the value of a `word;score` line; for `word<TAB>count` lines 10*log10(count), so that
frequency lists give a score in decibels (the most frequent English words score about 100,
the 10,000th about 65); a word missing from the score list scores 0.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import orjson

from . import ENGINE
from .errors import UserError
from .files import cache_dir, checksum
from .words import WORDLIST_DIR, canonical_sha256, load_words, resolve_path

DEFAULT_WORDS = "enable1.txt"
DEFAULT_SCORES = "word-frequency.tsv"
COMMON_TOP = 10_000
INDEX_MAGIC = "wordtree-crossword-index/1"
CREDITS = {
    "enable1.txt": "Words: ENABLE word list (public domain), by Alan Beale and Mendel Cooper",
    "enable2k.txt": "Words: ENABLE2K word list (public domain), by Alan Beale and Mendel Cooper",
    "word-frequency.tsv": "Word frequencies from orgtre/google-books-ngram-frequency (CC BY 3.0), "
    "derived from the Google Books Ngram dataset v20200217",
}
BLOCK = "#"
EMPTY = "."


# ------------------------------------------------------------------------------------------------
# grid and slots
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Slot:
    number: int
    direction: str  # "across" or "down"
    row: int
    col: int
    cells: tuple[tuple[int, int], ...]

    @property
    def length(self) -> int:
        return len(self.cells)


def parse_grid(text: str, where: str = "grid") -> list[str]:
    """Rows of '#' (block), '.' (open) and a-z (pre-filled). `_` and `.` are open, a letter is
    kept, any other character is a block. Trailing blanks and blank edge lines are ignored."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    start = 0
    while start < len(lines) and not lines[start]:
        start += 1
    lines = lines[start:]
    if not lines:
        raise UserError(f"{where}: the grid is empty")
    width = len(lines[0])
    rows = []
    for lineno, line in enumerate(lines, start + 1):
        if len(line) != width:
            raise UserError(f"{where}:{lineno}: ragged grid: this row has {len(line)} cells, the first has {width}")
        rows.append("".join(
            EMPTY if ch in "._" else ch.lower() if ch.isascii() and ch.isalpha() else BLOCK for ch in line))
    return rows


def read_grid(path: str | os.PathLike) -> list[str]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot read grid ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return parse_grid(text, str(path))


def find_slots(rows: list[str], where: str = "grid") -> list[Slot]:
    """The maximal across and down runs of 2 or more non-block cells, numbered as printed
    crosswords are (reading order, one number per cell that starts a run)."""
    height, width = len(rows), len(rows[0])

    def is_open(r, c):
        return 0 <= r < height and 0 <= c < width and rows[r][c] != BLOCK

    slots: list[Slot] = []
    number = 0
    covered = set()
    for r in range(height):
        for c in range(width):
            if not is_open(r, c):
                continue
            starts = []
            if not is_open(r, c - 1) and is_open(r, c + 1):
                starts.append(("across", 0, 1))
            if not is_open(r - 1, c) and is_open(r + 1, c):
                starts.append(("down", 1, 0))
            if starts:
                number += 1
            for direction, dr, dc in starts:
                cells = []
                rr, cc = r, c
                while is_open(rr, cc):
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                covered.update(cells)
                slots.append(Slot(number, direction, r, c, tuple(cells)))
    if not slots:
        raise UserError(f"{where}: no slots: the grid has no run of 2 or more open cells")
    for r in range(height):
        for c in range(width):
            if rows[r][c] == EMPTY and (r, c) not in covered:
                raise UserError(f"{where}: open cell at row {r + 1}, column {c + 1} is in no slot of 2 or more cells")
    return slots


# ------------------------------------------------------------------------------------------------
# word index (cached)
# ------------------------------------------------------------------------------------------------
@dataclass
class WordIndex:
    """Per length L: `letters[L]` (n x L uint8, 0..25) best score first, `scores[L]`,
    `n_common[L]`, and `masks[L]` (L x 26 x ceil(n/64) uint64, bit i = word i has letter c at p)."""

    letters: dict[int, np.ndarray]
    scores: dict[int, np.ndarray]
    n_common: dict[int, int]
    masks: dict[int, np.ndarray]
    words_info: dict
    scores_info: dict
    source: str = "built"  # "built", "cache" or "rebuilt"
    seconds: float = 0.0

    _ranks: dict = field(default_factory=dict)
    _packed: tuple = ()

    def word(self, length: int, i: int) -> str:
        return bytes(self.letters[length][i] + 97).decode("ascii")

    def rank(self, word: str) -> int | None:
        """The word's position in its length's list (None when not listed)."""
        L = len(word)
        if L not in self.letters:
            return None
        if L not in self._ranks:
            self._ranks[L] = {row.tobytes(): i for i, row in enumerate(self.letters[L] + 97)}
        return self._ranks[L].get(word.encode("ascii"))

    def packed(self) -> tuple:
        """The masks, letters and scores of every length as flat kernel arrays, with each
        length's offsets into them (built once: a neighbourhood search asks again and again)."""
        if not self._packed:
            lengths = sorted(self.letters)
            offsets, m, lt, wd = {}, 0, 0, 0
            for L in lengths:
                offsets[L] = (m, lt, wd)
                m, lt, wd = m + self.masks[L].size, lt + self.letters[L].size, wd + len(self.letters[L])
            self._packed = (
                np.concatenate([self.masks[L].ravel() for L in lengths]),
                np.concatenate([self.letters[L].ravel() for L in lengths]).astype(np.int64),
                np.concatenate([self.scores[L] for L in lengths]),
                offsets,
            )
        return self._packed

    def sources(self) -> list[str]:
        return [line for line in (self.words_info.get("credit"), self.scores_info.get("credit")) if line]


def _file_info(path: Path) -> dict:
    info = {"file": path.name, "path": str(path)}
    if path.resolve().parent == WORDLIST_DIR and path.name in CREDITS:
        info["credit"] = CREDITS[path.name]
    return info


def read_scores(path: Path) -> dict[str, float]:
    """`word;score` or `word<TAB>count` lines (a count becomes 10*log10(count)). Entries that
    are not a-z words (phrases, names with digits) cannot be crossword entries and are skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot read score list ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    scores: dict[str, float] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        sep = ";" if ";" in line else "\t" if "\t" in line else None
        if sep is None:
            raise UserError(f"{path}:{lineno}: expected 'word;score' or 'word<TAB>count', got {line!r}")
        word, _, value = line.partition(sep)
        word = word.strip().lower()
        try:
            number = float(value)
        except ValueError:
            raise UserError(f"{path}:{lineno}: {value.strip()!r} is not a number") from None
        if not math.isfinite(number) or (sep == "\t" and number <= 0):
            raise UserError(f"{path}:{lineno}: bad {'count' if sep == chr(9) else 'score'} {value.strip()!r}")
        if word.isascii() and word.isalpha():
            scores.setdefault(word, 10 * math.log10(number) if sep == "\t" else number)
    if not scores:
        raise UserError(f"{path}: the score list has no a-z words")
    return scores


def _build_index(words_path: Path, scores_path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    wordlist = load_words(words_path)
    scores = read_scores(scores_path)
    common = set(sorted(scores, key=lambda w: (-scores[w], w))[:COMMON_TOP])
    by_length: dict[int, list[str]] = {}
    for w in wordlist.words:
        if len(w) >= 2:
            by_length.setdefault(len(w), []).append(w)
    header = {
        "words": {**_file_info(words_path), "sha256": wordlist.sha256, "count": len(wordlist)},
        "scores": {**_file_info(scores_path), "sha256": canonical_sha256(scores), "count": len(scores)},
        "lengths": {},
    }
    arrays = {}
    for length, ws in sorted(by_length.items()):
        ws.sort(key=lambda w: (w not in common, -scores.get(w, 0.0), w))
        letters = np.frombuffer("".join(ws).encode("ascii"), dtype=np.uint8).reshape(len(ws), length) - 97
        arrays[f"letters{length}"] = np.ascontiguousarray(letters)
        arrays[f"scores{length}"] = np.array([scores.get(w, 0.0) for w in ws], dtype=np.float64)
        arrays[f"masks{length}"] = _masks(letters)
        header["lengths"][str(length)] = {"n": len(ws), "common": sum(w in common for w in ws)}
    return header, arrays


def _masks(letters: np.ndarray) -> np.ndarray:
    n, length = letters.shape
    nw = -(-n // 64)
    onehot = np.zeros((length, 26, nw * 64), dtype=bool)
    for p in range(length):
        onehot[p, letters[:, p], np.arange(n)] = True
    return np.packbits(onehot, axis=2, bitorder="little").view(np.uint64).reshape(length, 26, nw)


def _index_path(words_path: Path, scores_path: Path, cache) -> Path:
    digest = hashlib.sha256()
    for p in (words_path, scores_path):
        digest.update(p.read_bytes())
        digest.update(b"\0")
    return cache_dir(cache) / f"crossword-{digest.hexdigest()[:24]}.index"


def _read_index(path: Path) -> tuple[dict, dict[str, np.ndarray]] | None:
    """The cached index, or None when missing, foreign, truncated or corrupt."""
    try:
        with open(path, "rb") as f:
            header = orjson.loads(f.readline())
            if header.get("magic") != INDEX_MAGIC:
                return None
            arrays = {}
            for name, dtype, shape in header["arrays"]:
                count = int(np.prod(shape))
                data = np.fromfile(f, dtype=np.dtype(dtype), count=count)
                if data.size != count:
                    return None
                arrays[name] = data.reshape(shape)
            if f.read(1):
                return None
    except (OSError, ValueError, KeyError, TypeError, orjson.JSONDecodeError):
        return None
    if _checksum(arrays) != header.get("checksum"):
        return None
    return header, arrays


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    return hashlib.sha256("".join(checksum(a) for a in arrays.values()).encode()).hexdigest()


def _write_index(path: Path, header: dict, arrays: dict[str, np.ndarray]) -> None:
    header = {"magic": INDEX_MAGIC, **header, "checksum": _checksum(arrays),
              "arrays": [[k, str(a.dtype), list(a.shape)] for k, a in arrays.items()]}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(orjson.dumps(header) + b"\n")
            for a in arrays.values():
                np.ascontiguousarray(a).tofile(f)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def word_index(words: str | os.PathLike | None = None, scores: str | os.PathLike | None = None,
               cache=None, use_cache: bool = True) -> WordIndex:
    """The index of a word list ranked by a score list, from the disk cache when it is sound."""
    start = time.perf_counter()
    words_path = resolve_path(words or DEFAULT_WORDS)
    scores_path = resolve_path(scores or DEFAULT_SCORES)
    try:
        path = _index_path(words_path, scores_path, cache)
    except OSError as exc:
        raise UserError(f"cannot read word or score list ({exc.strerror})") from None
    existed = use_cache and path.exists()
    loaded = _read_index(path) if existed else None
    source = "cache"
    if loaded is None:
        source = "rebuilt" if existed else "built"
        loaded = _build_index(words_path, scores_path)
        if use_cache:
            try:
                _write_index(path, *loaded)
            except OSError:
                pass  # an unwritable cache folder only costs speed
    header, arrays = loaded
    lengths = [int(k) for k in header["lengths"]]
    return WordIndex(
        letters={L: arrays[f"letters{L}"] for L in lengths},
        scores={L: arrays[f"scores{L}"] for L in lengths},
        n_common={L: header["lengths"][str(L)]["common"] for L in lengths},
        masks={L: arrays[f"masks{L}"] for L in lengths},
        words_info=header["words"],
        scores_info=header["scores"],
        source=source,
        seconds=time.perf_counter() - start,
    )


# ------------------------------------------------------------------------------------------------
# the problem as arrays, and the search driver
# ------------------------------------------------------------------------------------------------
@dataclass
class Problem:
    """The open slots as kernel arrays. Slots whose every cell is pre-filled are not variables:
    their words are kept as given and taken out of the other slots' domains."""

    rows: list[str]
    slots: list[Slot]
    index: WordIndex
    variables: list[int]  # positions in `slots` of the slots to fill
    fixed: dict[int, str]  # slot position -> pre-filled word
    impossible: str | None = None
    arrays: tuple = ()
    scores: np.ndarray | None = None
    initial: tuple = ()
    fixed_letters: np.ndarray | None = None
    n_cells: int = 0


def build_problem(rows: list[str], slots: list[Slot], index: WordIndex) -> Problem:
    from .crossword_kernels import ALL_LETTERS

    fixed = {k: "".join(rows[r][c] for r, c in s.cells) for k, s in enumerate(slots)
             if all(rows[r][c] != EMPTY for r, c in s.cells)}
    variables = [k for k in range(len(slots)) if k not in fixed]
    problem = Problem(rows, slots, index, variables, fixed)
    missing = sorted({slots[k].length for k in variables if slots[k].length not in index.letters})
    if missing:
        problem.impossible = f"the word list has no words of length {', '.join(map(str, missing))}"
        return problem
    if not variables:
        return problem
    masks, letters, scores, offsets = index.packed()
    n = len(variables)
    cell_ids: dict[tuple[int, int], int] = {}
    for k in variables:
        for cell in slots[k].cells:
            cell_ids.setdefault(cell, len(cell_ids))
    max_len = max(slots[k].length for k in variables)
    s_len = np.array([slots[k].length for k in variables], dtype=np.int64)
    s_n = np.array([len(index.letters[L]) for L in s_len], dtype=np.int64)
    s_nw = (s_n + 63) // 64
    s_dom = np.concatenate([[0], np.cumsum(s_nw)[:-1]]).astype(np.int64)
    s_mask = np.array([offsets[L][0] for L in s_len], dtype=np.int64)
    s_let = np.array([offsets[L][1] for L in s_len], dtype=np.int64)
    s_word0 = np.array([offsets[L][2] for L in s_len], dtype=np.int64)
    s_common = np.array([index.n_common[L] for L in s_len], dtype=np.int64)
    s_cells = np.full((n, max_len), -1, dtype=np.int64)
    c_slot = np.full((len(cell_ids), 2), -1, dtype=np.int64)
    c_pos = np.full((len(cell_ids), 2), -1, dtype=np.int64)
    for v, k in enumerate(variables):
        way = 0 if slots[k].direction == "across" else 1
        for p, cell in enumerate(slots[k].cells):
            s_cells[v, p] = cell_ids[cell]
            c_slot[cell_ids[cell], way] = v
            c_pos[cell_ids[cell], way] = p
    crossing_way = [1 if slots[k].direction == "across" else 0 for k in variables]
    s_degree = np.array([int((c_slot[s_cells[v, : s_len[v]], crossing_way[v]] >= 0).sum()) for v in range(n)],
                        dtype=np.int64)
    fixed_letters = np.full(len(cell_ids), ALL_LETTERS, dtype=np.int64)
    for (r, c), cell in cell_ids.items():
        if rows[r][c] != EMPTY:
            fixed_letters[cell] = 1 << (ord(rows[r][c]) - 97)
    taken: dict[int, list[int]] = {}
    for word in fixed.values():
        if index.rank(word) is not None:
            taken.setdefault(len(word), []).append(index.rank(word))
    dom = np.zeros(int(s_nw.sum()), dtype=np.uint64)
    cnt = s_n.copy()
    for v in range(n):
        bits = np.zeros(s_nw[v] * 64, dtype=bool)
        bits[: s_n[v]] = True
        bits[taken.get(int(s_len[v]), [])] = False  # a pre-filled entry is not used again
        cnt[v] = int(bits.sum())
        dom[s_dom[v]: s_dom[v] + s_nw[v]] = np.packbits(bits, bitorder="little").view(np.uint64)
    problem.arrays = (masks, letters, s_len, s_n, s_nw, s_dom, s_mask, s_let, s_common, s_cells,
                      s_degree, c_slot, c_pos, s_word0)
    problem.scores = scores
    problem.initial = (dom, cnt, s_nw.copy())
    problem.fixed_letters = fixed_letters
    problem.n_cells = len(cell_ids)
    return problem


def _skip_numba_blas_check() -> None:
    """Numba's first compile or cache load imports numba.np.arraymath, which imports
    scipy.linalg (when scipy is installed) only to learn whether np.dot can use BLAS: about
    half a second of a fresh `cli.py crossword` run. No kernel of this project uses BLAS, so
    that one import is made to fail; numba then just reports np.dot as unsupported in this
    process. Nothing happens when arraymath or scipy.linalg is already loaded."""
    import sys

    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # makes `import scipy.linalg...` raise ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


class Searcher:
    """The kernel state for one problem: set a budget (at most that many rarer entries),
    restart with a seed, run for a number of nodes, read solutions."""

    def __init__(self, problem: Problem, max_solutions: int = 1):
        _skip_numba_blas_check()
        from . import crossword_kernels as K

        self.K = K
        self.problem = problem
        P = problem.arrays
        n, levels = len(P[2]), len(P[2]) + 1
        total_nw = len(problem.initial[0])
        self.n_slots = n
        self.W = (np.zeros((levels, total_nw), np.uint64), np.zeros((levels, n), np.int64),
                  np.zeros((levels, n), np.int64), np.zeros((levels, problem.n_cells), np.int64),
                  np.full((levels, n), -1, np.int64))
        max_n, max_len = int(P[3].max()), int(P[2].max())
        self.S = (np.zeros((levels, max_n), np.int64), np.zeros(levels, np.int64), np.zeros(levels, np.int64),
                  np.zeros(levels, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_),
                  np.zeros(max_len, np.int64), np.zeros(max_n, np.float64), np.zeros((2, 26), np.int64),
                  np.zeros((max_len, 26), np.float64))
        self.ctl = np.zeros(K.CTL_SIZE, np.int64)
        self.solutions = np.full((max_solutions, n), -1, np.int64)
        self.best_partial = np.full(n, -1, np.int64)
        self.root: tuple = ()

    def set_budget(self, budget: int) -> bool:
        """Level 0 for this budget; False when propagation alone proves it cannot be met."""
        dom, cnt, hi = self.problem.initial
        W = self.W
        W[0][0], W[1][0], W[2][0], W[4][0] = dom, cnt, hi, -1
        self.ctl[self.K.C_BUDGET] = budget
        status = self._call(self.K.OP_INITIALIZE, 0)
        self.root = tuple(a[0].copy() for a in W)
        return status == self.K.FOUND

    def _call(self, op: int, nodes: int) -> int:
        return self.K.run_kernel(op, self.problem.arrays, self.W, self.S, self.ctl, self.problem.scores,
                                 self.problem.fixed_letters, nodes, self.solutions, self.best_partial)

    def restart(self, seed: int, noise: float, prefer_common: bool) -> None:
        for a, saved in zip(self.W, self.root):
            a[0] = saved
        K, ctl = self.K, self.ctl
        best = ctl[K.C_BEST_DEPTH]
        budget = ctl[K.C_BUDGET]
        ctl[:] = 0
        ctl[K.C_BEST_DEPTH], ctl[K.C_BUDGET] = best, budget
        ctl[K.C_RNG] = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 63) or 1
        ctl[K.C_NOISE_MILLI] = int(noise * 1000)
        ctl[K.C_PREFER_COMMON] = int(prefer_common)

    def run(self, nodes: int) -> int:
        return self._call(self.K.OP_SEARCH, nodes)

    @property
    def nodes(self) -> int:
        return int(self.ctl[self.K.C_NODES])


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby restart sequence 1 1 2 1 1 2 4 ...: restarts that are
    within a log factor of the best fixed schedule without knowing it."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


@dataclass
class FillResult:
    status: str  # "filled", "impossible" or "timeout"
    words: dict[int, str]  # slot position -> word (a partial fill on timeout)
    reason: str = ""
    seconds: float = 0.0
    first_fill_seconds: float | None = None
    nodes: int = 0
    restarts: int = 0
    optimal: bool = False  # the count of rarer entries is proven minimal
    history: list = field(default_factory=list)  # (seconds, common entries, by what) at each improvement


RESTART_UNIT = 32  # nodes per Luby unit, on top of two per slot
CHUNK = 256  # nodes between clock checks
NOISE = 1.5  # random spread added to the log-scale value ordering on restarts


def _restarts(searcher: Searcher, budget: int, seed: int, prefer_common: bool, deadline: float, counter: list,
              max_nodes: int | None = None) -> int:
    """Restarted searches under a budget until one finds a fill (FOUND), one runs out its tree
    (EXHAUSTED: a proof), or the deadline or node allowance passes (PAUSED)."""
    K = searcher.K
    if not searcher.set_budget(budget):
        return K.EXHAUSTED
    total = 0
    i = 0
    while True:
        i += 1
        counter[0] += 1
        searcher.restart(seed * 1_000_003 + counter[0], NOISE, prefer_common)
        limit = luby(i) * (RESTART_UNIT + 2 * searcher.n_slots)  # a fill takes at least one node per slot
        spent = 0
        while spent < limit:
            step = min(CHUNK, limit - spent)
            before = searcher.nodes
            status = searcher.run(step)
            spent += step
            counter[1] += searcher.nodes - before
            total += searcher.nodes - before
            if status != K.PAUSED:
                return status
            if time.perf_counter() >= deadline or (max_nodes is not None and total >= max_nodes):
                return K.PAUSED


def fill(problem: Problem, seed: int = 0, timeout: float = 10.0, optimize: bool = True) -> FillResult:
    """A fill of the problem: the first one found, or (optimize) the one with the fewest
    entries outside the common words found within the timeout. Improvement alternates a
    whole-grid search under a budget of rare entries (which can prove the count minimal) with
    neighbourhood searches that re-fill a few slots around a rare entry with fewer rare ones."""
    if problem.impossible:
        return FillResult("impossible", dict(problem.fixed), problem.impossible)
    if not problem.variables:
        return FillResult("filled", dict(problem.fixed), optimal=True)
    searcher = Searcher(problem)
    K = searcher.K
    searcher.set_budget(len(problem.variables))  # loads (or compiles) the kernel before the clock starts
    start = time.perf_counter()
    deadline = start + timeout
    counter = [0, 0]
    status = _restarts(searcher, len(problem.variables), seed, optimize, deadline, counter)
    if status == K.EXHAUSTED:
        return FillResult("impossible", dict(problem.fixed), "the search was exhaustive: no fill exists",
                          time.perf_counter() - start, nodes=counter[1], restarts=counter[0])
    if status == K.PAUSED:
        return FillResult("timeout", _words(problem, searcher.best_partial), "no complete fill within the timeout",
                          time.perf_counter() - start, nodes=counter[1], restarts=counter[0])
    best = words = _words(problem, searcher.solutions[0])
    result = FillResult("filled", words, first_fill_seconds=time.perf_counter() - start)
    result.history.append((result.first_fill_seconds, _common_entries(problem, words), "first fill"))
    neighbours = _crossing_graph(problem.slots)
    rng = random.Random(seed)
    whole_grid_slice = WHOLE_GRID_SLICE[0]
    progress = time.perf_counter()  # when the current fill (`words`) last improved
    while optimize and time.perf_counter() < deadline:
        rare = _rare(problem, best)
        if rare == 0:
            result.optimal = True
            break
        until = min(deadline, time.perf_counter() + whole_grid_slice)
        status = _restarts(searcher, rare - 1, seed, True, until, counter)
        if status == K.FOUND:
            best = words = _words(problem, searcher.solutions[0])
            progress = time.perf_counter()
            result.history.append((progress - start, _common_entries(problem, best), "whole grid"))
        elif status == K.EXHAUSTED:
            result.optimal = True
            break
        else:
            whole_grid_slice = min(whole_grid_slice * 1.3, WHOLE_GRID_SLICE[1])
        until = min(deadline, time.perf_counter() + NEIGHBOURHOOD_SLICE)
        while time.perf_counter() < until and _rare(problem, words):
            better = _refill_neighbourhood(problem, words, neighbours, rng, until, counter)
            if better is None:
                continue
            if _rare(problem, better) < _rare(problem, words):
                progress = time.perf_counter()
            words = better
            if _rare(problem, words) < _rare(problem, best):
                best = words
                result.history.append((time.perf_counter() - start, _common_entries(problem, best), "neighbourhood"))
        if time.perf_counter() - progress > STALL and time.perf_counter() < deadline:
            # stuck in a local optimum: carry on from the best fill with a large region of it
            # re-filled as rare as before (a kick), else from a fresh fill; the best stays the best
            kicked = None
            until = min(deadline, time.perf_counter() + KICK_SECONDS)
            while KICK_SLOTS and kicked is None and time.perf_counter() < until:
                kicked = _refill_neighbourhood(problem, best, neighbours, rng, until, counter, kick=True)
            if kicked is not None:
                words = kicked
            elif _restarts(searcher, len(problem.variables), seed, True, deadline, counter) == K.FOUND:
                words = _words(problem, searcher.solutions[0])
            progress = time.perf_counter()
    words = best
    result.words = words
    result.seconds = time.perf_counter() - start
    result.nodes, result.restarts = counter[1], counter[0]
    return result


WHOLE_GRID_SLICE = (0.1, 0.25)  # seconds of the first whole-grid search per round, and its cap: the
# neighbourhood searches make most of the progress, so they get most of the time
NEIGHBOURHOOD_SLOTS = (6, 20)  # how many slots one neighbourhood frees
NEIGHBOURHOOD_NODES = 1000  # search allowance per neighbourhood (most improvements take a few hundred)
NEIGHBOURHOOD_SLICE = 1.0  # seconds of neighbourhood searches between whole-grid attempts
STALL = 2.5  # seconds without progress after which the neighbourhood search starts from a fresh fill
KICK_SLOTS = (20, 35)  # ... or rather from the best fill with this many slots re-filled (() : never)
KICK_SECONDS = 0.5  # time allowed for finding such a kick
SIDEWAYS = 0.3  # share of neighbourhoods that may keep the rare count if the total score rises


def _crossing_graph(slots: list[Slot]) -> list[list[int]]:
    by_cell: dict[tuple[int, int], list[int]] = {}
    for k, slot in enumerate(slots):
        for cell in slot.cells:
            by_cell.setdefault(cell, []).append(k)
    neighbours: list[set[int]] = [set() for _ in slots]
    for ks in by_cell.values():
        for a in ks:
            neighbours[a].update(b for b in ks if b != a)
    return [sorted(n) for n in neighbours]


def _refill_neighbourhood(problem: Problem, words: dict[int, str], neighbours, rng: random.Random,
                          deadline: float, counter: list, kick: bool = False) -> dict[int, str] | None:
    """Free a rare entry and a random connected group of slots around it, keep every other
    word as pre-filled letters, and search that small grid for fewer rare entries. A `kick`
    frees a larger group (KICK_SLOTS) and takes any re-fill with no more rare entries."""
    rare = [k for k in problem.variables if not _is_common(problem.index, words[k])]
    region = {rng.choice(rare)}
    frontier = list(region)
    size = rng.randint(*(KICK_SLOTS if kick else NEIGHBOURHOOD_SLOTS))
    while frontier and len(region) < size:
        k = frontier.pop(rng.randrange(len(frontier)))
        for j in neighbours[k]:
            if j not in region and j not in problem.fixed and len(region) < size:
                region.add(j)
                frontier.append(j)
    kept = {k: w for k, w in words.items() if k not in region}
    sub = build_problem(filled_rows(problem.rows, problem.slots, kept), problem.slots, problem.index)
    rare_here = sum(not _is_common(problem.index, words[k]) for k in sub.variables)
    if sub.impossible or rare_here == 0:
        return None
    sideways = kick or rng.random() < SIDEWAYS
    searcher = Searcher(sub)
    status = _restarts(searcher, rare_here if sideways else rare_here - 1, rng.randrange(1 << 30), True,
                       deadline, counter, max_nodes=NEIGHBOURHOOD_NODES * (3 if kick else 1))
    if status != searcher.K.FOUND:
        return None
    refilled = {**words, **_words(sub, searcher.solutions[0])}
    if sideways and not kick and _total_score(problem.index, refilled) <= _total_score(problem.index, words):
        return None
    return refilled


def _total_score(index: WordIndex, words: dict[int, str]) -> float:
    ranks = {w: index.rank(w) for w in words.values()}
    return sum(float(index.scores[len(w)][i]) for w, i in ranks.items() if i is not None)


def _is_common(index: WordIndex, word: str) -> bool:
    i = index.rank(word)
    return i is not None and i < index.n_common[len(word)]


def _rare(problem: Problem, words: dict[int, str]) -> int:
    """Slots to fill whose word is not common."""
    return sum(not _is_common(problem.index, words[k]) for k in problem.variables)


def _common_entries(problem: Problem, words: dict[int, str]) -> int:
    return sum(_is_common(problem.index, w) for w in words.values())


def _words(problem: Problem, assignment: np.ndarray) -> dict[int, str]:
    words = dict(problem.fixed)
    for v, k in enumerate(problem.variables):
        if assignment[v] >= 0:
            words[k] = problem.index.word(problem.slots[k].length, int(assignment[v]))
    return words


def all_fills(problem: Problem, limit: int = 100_000) -> tuple[str, list[dict[int, str]]]:
    """Every fill (up to `limit`), by one exhaustive search without noise: for tests."""
    if problem.impossible:
        return "impossible", []
    if not problem.variables:
        return "exhaustive", [dict(problem.fixed)]
    searcher = Searcher(problem, max_solutions=limit)
    K = searcher.K
    if not searcher.set_budget(len(problem.variables)):
        return "exhaustive", []
    searcher.restart(0, 0.0, False)
    status = searcher.run(1 << 62)
    count = int(searcher.ctl[K.C_SOLUTIONS])
    fills = [_words(problem, searcher.solutions[j]) for j in range(count)]
    return ("exhaustive" if status == K.EXHAUSTED else "limit"), fills


# ------------------------------------------------------------------------------------------------
# quality and output formats
# ------------------------------------------------------------------------------------------------
def quality(slots: list[Slot], words: dict[int, str], index: WordIndex) -> dict:
    """Share of the filled entries among the common words, and their mean score."""
    rank = _word_ranks(index, {w for w in words.values()})
    filled = [w for k, w in words.items() if k < len(slots)]
    common = sum(1 for w in filled if w in rank and rank[w][0] < index.n_common[len(w)])
    total = sum(rank[w][1] if w in rank else 0.0 for w in filled)
    return {
        "entries": len(slots),
        "filled_entries": len(filled),
        "common_entries": common,
        "common_share": round(common / len(filled), 4) if filled else 0.0,
        "mean_score": round(total / len(filled), 2) if filled else 0.0,
        "common_means": f"among the {COMMON_TOP:,} best-scored words of {index.scores_info['file']}",
    }


def _word_ranks(index: WordIndex, words: set[str]) -> dict[str, tuple[int, float]]:
    """word -> (position in its length's list, score), for the given words that are listed."""
    ranks = {w: index.rank(w) for w in words}
    return {w: (i, float(index.scores[len(w)][i])) for w, i in ranks.items() if i is not None}


def filled_rows(rows: list[str], slots: list[Slot], words: dict[int, str]) -> list[str]:
    grid = [list(r) for r in rows]
    for k, word in words.items():
        for (r, c), ch in zip(slots[k].cells, word):
            grid[r][c] = ch
    return ["".join(r) for r in grid]


def entries(slots: list[Slot], words: dict[int, str], direction: str) -> list[dict]:
    return [{"number": s.number, "row": s.row + 1, "col": s.col + 1, "length": s.length, "word": words.get(k)}
            for k, s in enumerate(slots) if s.direction == direction]


SUMMARY = {
    "filled": "filled",
    "impossible": "proven impossible",
    "timeout": "gave up at the timeout (best partial fill shown)",
}


def to_json(rows, slots, result: FillResult, index: WordIndex, seed: int, timeout: float) -> dict:
    ranks = _word_ranks(index, set(result.words.values()))
    listed = {}
    for direction in ("across", "down"):
        listed[direction] = entries(slots, result.words, direction)
        for e in listed[direction]:
            if e["word"]:
                rank = ranks.get(e["word"])
                e["common"] = rank is not None and rank[0] < index.n_common[len(e["word"])]
                e["score"] = round(rank[1], 2) if rank else 0.0
    return {
        "status": result.status,
        "reason": result.reason or None,
        "grid": filled_rows(rows, slots, result.words),
        "across": listed["across"],
        "down": listed["down"],
        "quality": {**quality(slots, result.words, index), "fewest_rare_proven": result.optimal},
        "seconds": round(result.seconds, 4),
        "first_fill_seconds": None if result.first_fill_seconds is None else round(result.first_fill_seconds, 4),
        "improvements": [{"seconds": round(t, 3), "common_entries": n, "by": how} for t, n, how in result.history],
        "seed": seed,
        "timeout": timeout,
        "nodes": result.nodes,
        "restarts": result.restarts,
        "words": {k: v for k, v in index.words_info.items() if k != "path"},
        "scores": {k: v for k, v in index.scores_info.items() if k != "path"},
        "sources": index.sources(),
        "engine": ENGINE,
    }


def render_text(rows, slots, result: FillResult, index: WordIndex) -> str:
    q = quality(slots, result.words, index)
    lines = [f"{SUMMARY[result.status]} in {result.seconds:.2f} s" + (f": {result.reason}" if result.reason else "")]
    if q["filled_entries"]:
        lines.append(f"{q['common_entries']} of {q['filled_entries']} entries common ({100 * q['common_share']:.1f} %, "
                     f"{q['common_means']}), mean score {q['mean_score']:.1f}"
                     + (", fewest rare entries proven" if result.optimal and result.status == "filled" else ""))
    lines.append("")
    for row in filled_rows(rows, slots, result.words):
        lines.append(" ".join("█" if ch == BLOCK else "·" if ch == EMPTY else ch.upper() for ch in row))
    for direction in ("across", "down"):
        lines.append("")
        lines.append(direction.capitalize())
        for e in entries(slots, result.words, direction):
            lines.append(f"{e['number']:>4} {(e['word'] or '·' * e['length']).upper()}")
    if index.sources():
        lines.append("")
        lines.extend(index.sources())
    return "\n".join(lines)


def write_png(path: str | os.PathLike, rows, slots, words: dict[int, str], cell: int = 40) -> None:
    """A printed-crossword picture: black blocks, small numbers, capital letters."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UserError('writing a PNG needs Pillow: pip install -e ".[images]"') from None
    grid = filled_rows(rows, slots, words)
    margin = cell // 2
    height, width = len(grid), len(grid[0])
    image = Image.new("RGB", (width * cell + 2 * margin, height * cell + 2 * margin), "white")
    draw = ImageDraw.Draw(image)
    number_font = _font(ImageFont, cell // 4)
    letter_font = _font(ImageFont, cell * 3 // 5)
    numbers = {(s.row, s.col): s.number for s in slots}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            x, y = margin + c * cell, margin + r * cell
            box = (x, y, x + cell, y + cell)
            draw.rectangle(box, fill="black" if ch == BLOCK else "white", outline="black", width=1)
            if (r, c) in numbers:
                draw.text((x + 2, y + 1), str(numbers[(r, c)]), fill="black", font=number_font)
            if ch not in (BLOCK, EMPTY):
                draw.text((x + cell / 2, y + cell * 0.58), ch.upper(), fill="black", font=letter_font, anchor="mm")
    draw.rectangle((margin, margin, margin + width * cell, margin + height * cell), outline="black", width=2)
    _atomic_write(Path(path), lambda f: image.save(f, format="PNG"))


def _font(ImageFont, size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1 has one bitmap size
        return ImageFont.load_default()


def write_json(path: str | os.PathLike, document: dict) -> None:
    _atomic_write(Path(path), lambda f: f.write(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"))


def _atomic_write(path: Path, write) -> None:
    """A temporary file in the same folder, then a rename; an unwritable place is a UserError."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError as exc:
        raise UserError(f"{path}: cannot write ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
