"""Word grids (Boggle): find every word on a board, score many random boards, search for the best.

Rules: a word is a path through neighbouring cells (8 directions), each cell used at most once,
of at least `min_length` letters; each distinct word scores once by its length (3-4 letters 1,
5: 2, 6: 3, 7: 5, 8+: 11). The `q` cell is the "Qu" die: it spells "qu" and counts as two
letters, so dictionary words with a q not followed by u can never be made and are dropped.
The letters are whatever the word list uses, not only a-z; a board letter the list lacks is a
cell no word passes through.

The word list is compiled once into a flat trie (see boggle_kernels.py) that is cached on disk,
keyed by the sha256 of the file, in the same folder and with the same checksum as the pattern
matrices; a cache file that does not check out is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson

from .. import words as words_module
from ..errors import NotSquareError, UserError
from ..files import LINE_MAX_BYTES, atomic_file, cache_dir, checksum, open_regular, read_bounded
from ..words import resolve_path

DEFAULT_WORDS = "enable2k.txt"
MAGIC = "wordtree-boggle-trie/1"
QU = "q"  # the cell letter that spells "qu"
MAX_POINTS_LENGTH = 8
MAX_CELLS = 64  # a board's cell sets are single uint64 bitmasks, and so are a node's letters
MAX_LETTERS = 64
POINTS_BY_LENGTH = (0, 1, 1, 1, 1, 2, 3, 5, 11)  # index: letters, capped at 8
ROLL_BLOCKS = 64  # random boards are rolled in this many independently seeded blocks

# The standard dice: "New Boggle" (4x4) and "Big Boggle" (5x5); q is the Qu face.
DICE = {
    (4, 4): ("aaeegn abbjoo achops affkps aoottw cimotu deilrx delrvy "
             "distty eeghnw eeinsu ehrtvw eiosst elrtty himnuq hlnnrz").split(),
    (5, 5): ("aaafrs aaeeee aafirs adennn aeeeem aeegmu aegmnn afirsy bjkqxz ccenst ceiilt ceilpt "
             "ceipst ddhnot dhhlor dhlnor dhlnor eiiitt emottt ensssu fiprsy gorrvw iprrry nootuw "
             "ooottu").split(),
}

_ROW_SEPARATORS = re.compile(r"[\s/,]+")
_LONE_Q = re.compile(r"q(?!u)")


def points(length: int, min_length: int = 3) -> int:
    """The points of a word of `length` letters (Qu counts two)."""
    return 0 if length < min_length else POINTS_BY_LENGTH[min(length, MAX_POINTS_LENGTH)]


# ----------------------------------------------------------------------------------------------
# The word list
# ----------------------------------------------------------------------------------------------
def read_words(path: Path, text: str, bad: list | None = None) -> list[str]:
    """The distinct words of a list, in file order: NFC-normalized, lowercased, blanks skipped.
    A line that is not made of letters alone (Unicode letters, and marks for the scripts that
    write vowels with them) is a bad line: a few are skipped with a notice, more refused in one
    line naming the file and the first (words.skip_or_refuse); `bad` gets them."""
    seen: dict[str, None] = {}
    bad = [] if bad is None else bad
    lines = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        word = unicodedata.normalize("NFC", line.strip()).lower()
        if not word:
            continue
        lines += 1
        wrong = next((ch for ch in word if unicodedata.category(ch)[0] not in "LM"), None)
        if wrong is not None:
            bad.append((lineno, line.strip(), f"is not a word: {wrong!r} is not a letter"))
            continue
        seen.setdefault(word, None)
    if not lines:
        raise UserError(f"{path}: the word list is empty")
    words_module.skip_or_refuse(path, bad, lines, len(seen))
    return list(seen)


@dataclass
class Trie:
    """The compiled word list. Node 0 is the root; the children of a node are consecutive
    numbers in letter order: `mask` has a bit per letter with a child, `first_child` the first
    (see boggle_kernels.py); `word_length[n]` is the letter count of the word ending at n (0:
    none); `parent`/`letter` spell a node back."""

    alphabet: tuple[str, ...]
    mask: np.ndarray  # (nodes,) uint64
    first_child: np.ndarray  # (nodes,) int32
    word_length: np.ndarray  # (nodes,) uint16
    parent: np.ndarray  # (nodes,) int32
    letter: np.ndarray  # (nodes,) int32
    source: str = "built"  # "built", "cache" or "rebuilt"
    path: Path | None = None

    ARRAYS = ("mask", "first_child", "parent", "letter", "word_length")  # widest first: all stay aligned

    @property
    def n_words(self) -> int:
        return int(np.count_nonzero(self.word_length))

    def letter_index(self) -> dict[str, int]:
        return {ch: i for i, ch in enumerate(self.alphabet)}

    def node_rows(self, min_length: int, wide: bool = False) -> np.ndarray:
        """What the kernels walk (see boggle_kernels.py): per node one uint64, letter mask |
        first child << 32 | points << 60, when the alphabet has at most 32 letters (half the
        memory, so more of the trie stays in cache); else, or with `wide`, two: the letter
        mask, and first child | points << 32."""
        table = np.array([points(n, min_length) for n in range(MAX_POINTS_LENGTH + 1)], np.uint64)
        node_points = table[np.minimum(self.word_length, MAX_POINTS_LENGTH)]
        first = self.first_child.astype(np.uint64)
        if not wide and len(self.alphabet) <= 32 and len(self.mask) < 1 << 28:
            return (self.mask | (first << np.uint64(32)) | (node_points << np.uint64(60))).reshape(-1, 1)
        return np.ascontiguousarray(np.column_stack([self.mask, first | (node_points << np.uint64(32))]))

    def spell(self, node: int) -> str:
        """The word that ends at `node`."""
        out = []
        while node > 0:
            ch = self.alphabet[self.letter[node]]
            out.append("qu" if ch == QU else ch)
            node = int(self.parent[node])
        return "".join(reversed(out))


def build_trie(words: list[str]) -> Trie:
    """Compile words into the flat trie, level by level with numpy: sort the words (as letter
    numbers, "qu" as one letter), and a word adds one node per letter past its common prefix
    with the word before it. Numbering nodes by (depth, word) keeps each node's children
    consecutive and in letter order."""
    alphabet = tuple(sorted({ch for w in words for ch in w}))
    if len(alphabet) > MAX_LETTERS:
        raise UserError(f"the word list uses {len(alphabet)} different letters; at most {MAX_LETTERS} are supported")
    kept = [w for w in words if not _LONE_Q.search(w)]
    if not kept:
        raise UserError("no word of the list can be made on a board (every word has a q without u)")
    spelled = [w.replace("qu", QU) for w in kept]
    n = len(spelled)
    lengths = np.array([len(s) for s in spelled], np.int64)
    letters_of_word = np.array([len(w) for w in kept], np.int64)
    codepoints = np.frombuffer("".join(spelled).encode("utf-32-le"), np.uint32)
    alphabet_codepoints = np.array([ord(ch) for ch in alphabet], np.uint32)
    width = int(lengths.max()) + 1
    grid = np.zeros((n, width), np.int32)  # letter number + 1; 0 pads, so a prefix sorts first
    rows = np.repeat(np.arange(n), lengths)
    cols = np.arange(codepoints.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    grid[rows, cols] = np.searchsorted(alphabet_codepoints, codepoints) + 1
    order = np.lexsort(grid.T[::-1])
    grid, lengths, letters_of_word = grid[order], lengths[order], letters_of_word[order]
    common = np.zeros(n, np.int64)
    common[1:] = np.argmin(grid[1:] == grid[:-1], axis=1)

    # every node is (depth d, first word i) with common[i] < d <= lengths[i]
    new = lengths - common
    node_word = np.repeat(np.arange(n), new)
    node_depth = np.arange(node_word.size) - np.repeat(np.cumsum(new) - new, new) + np.repeat(common, new) + 1
    by_level = np.lexsort((node_word, node_depth))
    node_word, node_depth = node_word[by_level], node_depth[by_level]
    n_nodes = node_word.size + 1
    level_start = np.searchsorted(node_depth, np.arange(width + 1)) + 1  # node ids start at 1
    parent = np.zeros(n_nodes, np.int32)
    for d in range(2, width):
        lo, hi, above_lo = level_start[d], level_start[d + 1], level_start[d - 1]
        above = node_word[above_lo - 1 : lo - 1]  # the words that made the nodes one level up
        parent[lo:hi] = above_lo + np.searchsorted(above, node_word[lo - 1 : hi - 1], side="right") - 1
    letter = np.zeros(n_nodes, np.int32)
    letter[1:] = grid[node_word, node_depth - 1] - 1
    word_length = np.zeros(n_nodes, np.uint16)
    ends = node_depth == lengths[node_word]
    word_length[1:][ends] = np.minimum(letters_of_word[node_word[ends]], np.iinfo(np.uint16).max)

    mask = np.zeros(n_nodes, np.uint64)
    np.bitwise_or.at(mask, parent[1:], np.left_shift(np.uint64(1), letter[1:].astype(np.uint64)))
    first_child = np.zeros(n_nodes, np.int32)
    parents_seen, first = np.unique(parent[1:], return_index=True)
    first_child[parents_seen] = first + 1
    return Trie(alphabet, mask, first_child, word_length, parent, letter)


# ----------------------------------------------------------------------------------------------
# Cache
# ----------------------------------------------------------------------------------------------
def _trie_blob(trie: Trie) -> np.ndarray:
    return np.concatenate([np.ascontiguousarray(getattr(trie, a)).reshape(-1).view(np.uint8) for a in Trie.ARRAYS])


def _read_cached(path: Path, source_sha256: str) -> Trie | None:
    """The cached trie, or None when the file is missing, foreign, truncated or corrupt."""
    try:
        with open_regular(path) as f:
            header = orjson.loads(f.readline(LINE_MAX_BYTES))
            if header.get("magic") != MAGIC or header.get("source_sha256") != source_sha256:
                return None
            blob = np.fromfile(f, np.uint8)
        if checksum(blob) != header["checksum"]:
            return None
        arrays, offset = {}, 0
        for name, dtype, shape in header["arrays"]:
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            if offset + size > blob.size:
                return None
            arrays[name] = blob[offset : offset + size].view(dtype).reshape(shape)
            offset += size
        if offset != blob.size or set(arrays) != set(Trie.ARRAYS):
            return None
        return Trie(tuple(header["alphabet"]), **arrays)
    except (OSError, ValueError, KeyError, TypeError, orjson.JSONDecodeError):
        return None


def _write_cached(path: Path, source_sha256: str, trie: Trie) -> None:
    """The header line, then the arrays as one blob (written atomically: see files.atomic_file)."""
    blob = _trie_blob(trie)
    header = {
        "magic": MAGIC,
        "source_sha256": source_sha256,
        "alphabet": list(trie.alphabet),
        "arrays": [[a, str(getattr(trie, a).dtype), list(getattr(trie, a).shape)] for a in Trie.ARRAYS],
        "checksum": checksum(blob),
    }
    with atomic_file(path) as f:
        f.write(orjson.dumps(header) + b"\n")
        blob.tofile(f)


def load_trie(words: str | os.PathLike | None = None, cache: str | os.PathLike | None = None,
              use_cache: bool = True) -> Trie:
    """The trie of a word list (default ENABLE2K), from the cache when it is sound, else built."""
    path = resolve_path(words or DEFAULT_WORDS)
    raw = read_bounded(path, words_module.LIST_MAX_BYTES, "word list")
    source_sha256 = hashlib.sha256(raw).hexdigest()
    cached = cache_dir(cache) / f"boggle-{source_sha256}.trie"
    existed = cached.exists()
    if use_cache and existed:  # (only a list with no bad line is cached: a hit has none to tell)
        trie = _read_cached(cached, source_sha256)
        if trie is not None:
            trie.source, trie.path = "cache", cached
            return trie
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    bad: list = []
    trie = build_trie(read_words(path, text, bad))
    trie.source = "rebuilt" if existed and use_cache else "built"
    if use_cache and not bad:
        try:
            _write_cached(cached, source_sha256, trie)
            trie.path = cached
        except OSError:
            pass  # an unwritable cache folder only costs speed
    return trie


# ----------------------------------------------------------------------------------------------
# Boards
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Board:
    cells: str  # one letter per cell, row by row; "q" is Qu
    rows: int
    cols: int


def parse_board(text: str, rows: int | None, cols: int | None, alphabet) -> Board:
    """A board from its letters row by row ("perslatgsineters"), optionally split into rows by
    spaces, '/' or ','. Without `rows`/`cols` the rows are the split ones, else the board is
    square. The Qu die is q; typed "qu", as the die shows, it is one cell when the letters as
    typed make no board. Wrong sizes and characters that are not letters are one-line errors; a
    letter the word list lacks is a cell no word passes through (see board_letters)."""
    text = unicodedata.normalize("NFC", text.strip()).lower()
    parts = [p for p in _ROW_SEPARATORS.split(text) if p]
    if not parts:
        raise UserError("board: no letters given")
    for what, value in (("rows", rows), ("cols", cols)):
        if value is not None and value < 1:
            raise UserError(f"board: {what} must be at least 1, got {value}")
    try:
        shape = _shape(parts, rows, cols)
    except UserError as exc:
        if "qu" not in text:
            raise
        # the Qu die typed as it shows, "qu": one cell, when the letters as typed make no board
        merged = [p.replace("qu", QU) for p in parts]
        try:
            shape = _shape(merged, rows, cols)
        except UserError:
            if isinstance(exc, NotSquareError):
                raise NotSquareError(exc.letters, qu=sum(map(len, merged))) from None
            raise UserError(f"{exc} (nor with each qu read as the one Qu die)") from None
        parts = merged
    cells = "".join(parts)
    rows, cols = shape
    check_size(rows, cols)
    known = set(alphabet)
    for i, ch in enumerate(cells):
        where = f"(row {i // cols + 1}, column {i % cols + 1})"
        if unicodedata.category(ch)[0] not in "LM":
            raise UserError(f"board: {ch!r} {where} is not a letter")
        if ch not in known and len(known) >= MAX_LETTERS:
            raise UserError(f"board: {ch!r} {where} is not a letter of the word list, which already has the "
                            f"{MAX_LETTERS} letters a board can tell apart")
    return Board(cells, rows, cols)


def _shape(parts: list[str], rows: int | None, cols: int | None) -> tuple[int, int]:
    """The board's rows and columns for its typed rows `parts`, or the UserError saying why they
    make no board."""
    n = sum(map(len, parts))
    if rows is None and cols is None:
        if len(parts) > 1:
            rows, cols = len(parts), len(parts[0])
            if any(len(p) != cols for p in parts):
                raise UserError(f"board: rows of different lengths: {' '.join(parts)}")
        else:
            side = int(round(n**0.5))
            if side * side != n:
                raise NotSquareError(n)
            rows = cols = side
    elif rows is None:
        rows = -(-n // cols)
    elif cols is None:
        cols = -(-n // rows)
    if rows * cols != n:
        raise UserError(f"board: {n} letters given, a {rows}x{cols} board needs {rows * cols}")
    return rows, cols


def check_size(rows: int, cols: int) -> None:
    if rows < 1 or cols < 1:
        raise UserError(f"board: {rows}x{cols} is not a board size")
    if rows * cols > MAX_CELLS:
        raise UserError(f"board: {rows}x{cols} has {rows * cols} cells; at most {MAX_CELLS} are supported")


def board_letters(board: Board, trie: Trie) -> np.ndarray:
    """The cells as letter numbers; a letter the word list lacks is numbered len(alphabet), a
    letter no trie node has a child for, so no word passes through its cell (the kernels then
    get len(alphabet) + 1 letters: see letter_count)."""
    index = trie.letter_index()
    return np.array([index.get(ch, len(trie.alphabet)) for ch in board.cells], np.int64)


def letter_count(letters: np.ndarray, trie: Trie) -> int:
    """The letter numbers the kernels size their tables for: one more when a cell holds a
    letter the word list lacks."""
    return len(trie.alphabet) + bool(letters.size and letters.max() >= len(trie.alphabet))


def adjacency(rows: int, cols: int) -> np.ndarray:
    """Per cell of a rows x cols grid, the bitmask of its (up to 8) neighbours."""
    out = np.zeros(rows * cols, np.uint64)
    for r in range(rows):
        for c in range(cols):
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    if (rr, cc) != (r, c):
                        out[r * cols + c] |= np.uint64(1) << np.uint64(rr * cols + cc)
    return out


def board_text(board: Board) -> str:
    """The board as a grid, Qu spelled out."""
    shown = ["Qu" if ch == QU else ch.upper() for ch in board.cells]
    return "\n".join(
        " ".join(f"{s:<2}" for s in shown[r * board.cols : (r + 1) * board.cols]).rstrip()
        for r in range(board.rows)
    )


# ----------------------------------------------------------------------------------------------
# Solving and scoring
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Solution:
    board: Board
    score: int
    words: tuple[str, ...]  # sorted


def solve(board: Board, trie: Trie, min_length: int = 3) -> Solution:
    """Every word on the board and the total score."""
    from .boggle_kernels import _solve_kernel

    found = np.empty(trie.n_words, np.int64)
    letters = board_letters(board, trie)
    score, count = _solve_kernel(letters, trie.node_rows(min_length), letter_count(letters, trie),
                                 adjacency(board.rows, board.cols), found)
    words = tuple(sorted(trie.spell(int(node)) for node in found[:count]))
    return Solution(board, int(score), words)


def word_path(board: Board, word: str) -> list[int] | None:
    """A path of cells (row-major indices: row * cols + col) that spells `word` on the board, a
    "q" cell spelling "qu": the first found trying the cells in row-major order at each step.
    None when the board does not have the word."""
    target = [QU if part == "qu" else part for part in re.findall(r"qu|.", word)]
    rows, cols = board.rows, board.cols
    path: list[int] = []

    def extend(cell: int) -> bool:
        if cell in path or board.cells[cell] != target[len(path)]:
            return False
        path.append(cell)
        if len(path) == len(target):
            return True
        r, c = divmod(cell, cols)
        for rr in range(max(r - 1, 0), min(r + 2, rows)):
            for cc in range(max(c - 1, 0), min(c + 2, cols)):
                if extend(rr * cols + cc):
                    return True
        path.pop()
        return False

    return list(path) if any(extend(cell) for cell in range(rows * cols)) else None


def score_boards(boards: np.ndarray, trie: Trie, rows: int, cols: int, min_length: int = 3):
    """(scores, word counts) of many boards, given as a (boards, rows*cols) array of letter
    numbers (indices into trie.alphabet), in parallel."""
    from .boggle_kernels import _score_kernel

    boards = np.ascontiguousarray(boards, np.int64)
    if boards.ndim != 2 or boards.shape[1] != rows * cols:
        raise ValueError(f"boards must be (n, {rows * cols}), got {boards.shape}")
    if boards.size and (boards.min() < 0 or boards.max() >= len(trie.alphabet)):
        raise ValueError("board letters must be indices into the trie's alphabet")
    from numba import get_num_threads

    check_size(rows, cols)
    scores = np.empty(len(boards), np.int64)
    words = np.empty(len(boards), np.int64)
    n_blocks = min(4 * get_num_threads(), max(len(boards), 1))  # a few per thread, to balance
    _score_kernel(boards, trie.node_rows(min_length), len(trie.alphabet), adjacency(rows, cols), n_blocks,
                  scores, words)
    return scores, words


def dice_for(rows: int, cols: int, trie: Trie) -> list[str] | None:
    """The standard dice for this size, when there are some and the word list has their letters."""
    dice = DICE.get((rows, cols))
    if dice and set("".join(dice)) <= set(trie.alphabet):
        return dice
    return None


def random_boards(rng: np.random.Generator, n: int, rows: int, cols: int, trie: Trie) -> np.ndarray:
    """n random boards as letter numbers: the standard dice shaken and rolled for 4x4 and 5x5
    (in numba, in parallel: numpy's argsort shuffle took a twentieth of the scoring time), else
    each cell a uniformly random letter of the alphabet. The boards depend only on `rng`."""
    n_cells = rows * cols
    dice = dice_for(rows, cols, trie)
    if dice is None:
        return rng.integers(0, len(trie.alphabet), size=(n, n_cells), dtype=np.int64)
    from .boggle_kernels import _roll_kernel

    index = trie.letter_index()
    faces = np.array([[index[ch] for ch in die] for die in dice], np.int64)
    boards = np.empty((n, n_cells), np.int64)
    _roll_kernel(rng.integers(1, 1 << 63, size=ROLL_BLOCKS, dtype=np.uint64), faces, boards)
    return boards


def cells_of(letters: np.ndarray, trie: Trie) -> str:
    return "".join(trie.alphabet[int(i)] for i in letters)


# ----------------------------------------------------------------------------------------------
# Searching for the best boards
# ----------------------------------------------------------------------------------------------
def letter_pool(trie: Trie, size: int = 4096) -> np.ndarray:
    """Letters to propose, in proportion to how often each starts or continues a word in the
    trie (every letter at least once), so the search rarely wastes steps on q or z."""
    freq = np.bincount(trie.letter[1:], minlength=len(trie.alphabet)).astype(np.float64)
    copies = np.maximum(1, np.round(freq / freq.sum() * size)).astype(np.int64)
    return np.repeat(np.arange(len(trie.alphabet)), copies)


def canonical_cells(cells: str, rows: int, cols: int) -> str:
    """The least of the board's rotations and reflections (the same board scores the same)."""
    grid = np.array(list(cells)).reshape(rows, cols)
    variants = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
    if rows == cols:
        variants += [v.T for v in variants]
    return min("".join(v.ravel()) for v in variants)


def anneal_seeds(seed: int, first: int, n: int) -> np.ndarray:
    """The seeds of restarts first..first+n-1: each depends only on (seed, restart number)."""
    return np.array(
        [int.from_bytes(hashlib.sha256(f"{seed}:{i}".encode()).digest()[:8], "little") for i in range(first, first + n)],
        np.uint64,
    )


def search_best(trie: Trie, rows: int, cols: int, *, seconds: float | None, restarts: int | None,
                seed: int = 0, min_length: int = 3, steps: int = 30_000, t_start: float = 40.0,
                t_end: float = 0.5, chunk: int = 5_000, on_progress=None) -> dict[str, int]:
    """Simulated annealing with restarts: a round of runs at a time (one per thread), each run
    `steps` steps cooling from t_start to t_end, until `seconds` have passed or `restarts` runs
    are done. Returns {canonical board cells: score} for the best board of every run. Run i
    depends only on (seed, i); with `seconds` the last runs stop at the deadline (the kernel
    goes `chunk` steps at a time, so it never overruns by much), which the first run's compiling
    of the kernels moves on by as long as it took. `on_progress(best score, runs done)` is called
    after every chunk."""
    from numba import get_num_threads

    from ..numba_cache import compile_seconds
    from .boggle_kernels import _anneal_kernel, _anneal_start

    if seconds is None and restarts is None:
        raise ValueError("give seconds or restarts")
    check_size(rows, cols)
    nodes = trie.node_rows(min_length)
    links = adjacency(rows, cols)
    pool = letter_pool(trie)
    n_letters = len(trie.alphabet)
    n_cells = rows * cols
    cooling = (t_end / t_start) ** (1.0 / steps)
    per_round = max(1, get_num_threads())
    results: dict[str, int] = {}
    done = 0
    compiled = compile_seconds()

    def searching() -> float:  # seconds since the start, less those spent compiling kernels
        return time.perf_counter() - (compile_seconds() - compiled)

    deadline = None if seconds is None else searching() + seconds
    while (restarts is None or done < restarts) and (deadline is None or searching() < deadline):
        n = per_round if restarts is None else min(per_round, restarts - done)
        rng_states = anneal_seeds(seed, done, n)
        boards, best_boards = np.empty((n, n_cells), np.int64), np.empty((n, n_cells), np.int64)
        scores, best_scores = np.empty(n, np.int64), np.empty(n, np.int64)
        temperatures = np.full(n, t_start)
        _anneal_start(rng_states, pool, nodes, n_letters, links, boards, scores, best_boards, best_scores)
        for first in range(0, steps, chunk):
            _anneal_kernel(rng_states, boards, scores, temperatures, min(chunk, steps - first), cooling, pool,
                           nodes, n_letters, links, best_boards, best_scores)
            if on_progress is not None:
                on_progress(max([*results.values(), *best_scores.tolist()]), done)
            if deadline is not None and searching() >= deadline:
                break
        for letters, score in zip(best_boards, best_scores):
            key = canonical_cells(cells_of(letters, trie), rows, cols)
            results[key] = max(results.get(key, 0), int(score))
        done += n
        if on_progress is not None:
            on_progress(max(results.values()), done)
    return results


# ----------------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------------
def solution_text(solution: Solution, min_length: int = 3, width: int = 100) -> str:
    """The board, the words grouped by length (longest first) with their points, and totals."""
    import textwrap

    by_length: dict[int, list[str]] = {}
    for word in solution.words:
        by_length.setdefault(len(word), []).append(word)
    lines = [board_text(solution.board), ""]
    for length in sorted(by_length, reverse=True):
        words = by_length[length]
        each, total = points(length, min_length), points(length, min_length) * len(words)
        lines.append(f"{length} letters, {each} point{'s' if each != 1 else ''} each: "
                     f"{len(words)} word{'s' if len(words) != 1 else ''}, {total} point{'s' if total != 1 else ''}")
        lines.append(textwrap.fill(" ".join(words), width, initial_indent="  ", subsequent_indent="  "))
    lines.append(f"{len(solution.words)} words, {solution.score} points")
    return "\n".join(lines)


def solution_json(solution: Solution) -> dict:
    """The board, score and words, and per word one path that spells it: its cells as row-major
    indices (0 is the top left cell, row r column c is r * cols + c; see word_path)."""
    board = solution.board
    return {
        "board": board.cells,
        "rows": board.rows,
        "cols": board.cols,
        "score": solution.score,
        "count": len(solution.words),
        "words": list(solution.words),
        "paths": {word: word_path(board, word) for word in solution.words},
    }
