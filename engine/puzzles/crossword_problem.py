"""A crossword problem as kernel arrays (bitset domains over each slot's word list, the
crossing cells), and `Searcher`, the handle on the kernel state of one problem."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .crossword_grid import EMPTY, Slot
from .crossword_index import WordIndex


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

