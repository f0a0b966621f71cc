"""Every numba kernel of the word-grid (Boggle) solver: one board, many random boards, annealing.

They share one module because numba's on-disk cache does not notice edits to a jitted function
in another file. The validating wrappers are in boggle.py; the plain recursive twin used as the
test oracle is tests/reference_boggle.py.

The trie is flat and compact: the children of a node are consecutive node numbers in letter
order, and a node is one row of two uint64: the bitmask of the letters it has a child for, and
its first child's number | its points << 32. The child for letter L is `first + popcount(mask &
bits below L)`; the whole ENABLE2K trie is 6 MB.

The walk is bit-parallel: a board has at most 64 cells and 64 letters, so "the cells holding
letter L", "the neighbours of a cell", "the cells on the path" and "the letters next to a cell"
are each one uint64. From a path ending at a cell, the next steps are: every letter that both
continues the word and sits next to the cell, and for each, the unused neighbours holding it.
Only steps that continue a word are ever looked at, and the trie rows the next steps will read
are prefetched while the current one is worked on.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

_LOW32 = np.uint64(0xFFFFFFFF)
_POINTS_SHIFT = np.uint64(32)
_ONE = np.uint64(1)


@intrinsic
def _popcount(typingctx, x):
    """The CPU's population count (LLVM ctpop) of a uint64, as an int64."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@intrinsic
def _lowest_bit(typingctx, x):
    """The index of the lowest set bit of a non-zero uint64 (LLVM cttz), as an int64."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return types.int64(types.uint64), codegen


@intrinsic
def _prefetch_row(typingctx, rows, row):
    """Ask the CPU to start loading rows[row] now (LLVM prefetch): the walk can tell which trie
    rows it will read next, and overlapping those memory fetches is worth a fifth of the time."""

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        stride = cgutils.unpack_tuple(builder, array.strides, signature.args[0].ndim)[0]
        address = builder.add(builder.ptrtoint(array.data, ir.IntType(64)), builder.mul(args[1], stride))
        i32 = ir.IntType(32)
        pointer = builder.inttoptr(address, ir.IntType(8).as_pointer())
        prefetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]), "llvm.prefetch.p0"
        )
        builder.call(prefetch, [pointer, i32(0), i32(3), i32(1)])  # read, keep in all cache levels, data
        return context.get_dummy_value()

    return types.void(rows, types.int64), codegen


@njit(cache=True, inline="always")
def _bit(i):
    return _ONE << np.uint64(i)


@njit(cache=True)
def _board_words(letters, nodes, adjacency, scratch, seen, epoch, found, record):
    """(score, count) of one board: a depth-first walk of the paths that spell a prefix of a
    word. A word counts once: `seen[node] == epoch` marks it found on this board. With
    `record`, the word nodes found are written to `found[:count]`."""
    node_of, path_of, reach_of, letters_left, cells_left, child_of, letter_cells, near_letters = scratch
    n_cells = letters.shape[0]
    on_board = np.uint64(0)
    for cell in range(n_cells):
        letter_cells[letters[cell]] = 0
    for cell in range(n_cells):
        letter_cells[letters[cell]] |= _bit(cell)
        on_board |= _bit(letters[cell])
    for cell in range(n_cells):
        near = np.uint64(0)
        around = adjacency[cell]
        while around:
            near |= _bit(letters[_lowest_bit(around)])
            around &= around - _ONE
        near_letters[cell] = near
    score = 0
    count = 0
    depth = 0  # level 0 is the root: every cell is in reach
    node_of[0] = 0
    path_of[0] = 0
    reach_of[0] = ~np.uint64(0) >> np.uint64(64 - n_cells)
    letters_left[0] = nodes[0, 0] & on_board
    cells_left[0] = 0
    while depth >= 0:
        if cells_left[depth] == 0:  # the next letter that continues the word, or back up
            todo = letters_left[depth]
            if todo == 0:
                depth -= 1
                continue
            letter = _lowest_bit(todo)
            rest = todo & (todo - _ONE)
            letters_left[depth] = rest
            cells_left[depth] = letter_cells[letter] & reach_of[depth]
            node = node_of[depth]
            first, mask = np.int64(nodes[node, 1] & _LOW32), nodes[node, 0]
            child_of[depth] = first + _popcount(mask & (_bit(letter) - _ONE))
            if rest:  # the child for the letter after this one
                _prefetch_row(nodes, first + _popcount(mask & (_bit(_lowest_bit(rest)) - _ONE)))
            continue
        todo = cells_left[depth]  # the next cell holding that letter
        cell = _lowest_bit(todo)
        cells_left[depth] = todo & (todo - _ONE)
        nxt = child_of[depth]
        p = np.int64(nodes[nxt, 1] >> _POINTS_SHIFT)
        if p > 0 and seen[nxt] != epoch:
            seen[nxt] = epoch
            score += p
            if record:
                found[count] = nxt
            count += 1
        mask = nodes[nxt, 0]
        onward = mask & near_letters[cell]
        if onward:  # fetch ahead: the first child it may step to, and the end of its children
            first = np.int64(nodes[nxt, 1] & _LOW32)
            _prefetch_row(nodes, first + _popcount(mask & (_bit(_lowest_bit(onward)) - _ONE)))
            _prefetch_row(nodes, first + _popcount(mask) - 1)
            path = path_of[depth] | _bit(cell)
            depth += 1
            node_of[depth] = nxt
            path_of[depth] = path
            reach_of[depth] = adjacency[cell] & ~path
            letters_left[depth] = onward
            cells_left[depth] = 0
    return score, count


@njit(cache=True)
def _new_scratch(n_cells, n_letters, n_nodes):
    """One thread's scratch: the path stack (node, cells used, cells in reach, letters and cells
    still to try, the child being tried), the board's letter sets, and the found-word epochs."""
    depth = n_cells + 1
    scratch = (
        np.empty(depth, np.int64),
        np.empty(depth, np.uint64),
        np.empty(depth, np.uint64),
        np.empty(depth, np.uint64),
        np.empty(depth, np.uint64),
        np.empty(depth, np.int64),
        np.zeros(n_letters, np.uint64),
        np.empty(n_cells, np.uint64),
    )
    return scratch, np.zeros(n_nodes, np.int32)


@njit(cache=True)
def _next_epoch(seen, epoch):
    """The next board's mark; on overflow the marks are cleared and counting starts again."""
    if epoch == 2147483647:
        seen[:] = 0
        return 1
    return epoch + 1


@njit(cache=True)
def _solve_kernel(letters, nodes, n_letters, adjacency, found):
    """One board, recording the word nodes found."""
    scratch, seen = _new_scratch(letters.shape[0], n_letters, nodes.shape[0])
    return _board_words(letters, nodes, adjacency, scratch, seen, 1, found, True)


@njit(cache=True, parallel=True)
def _score_kernel(boards, nodes, n_letters, adjacency, n_blocks, scores, counts):
    """Score many boards: a prange over blocks of boards, each block with its own scratch."""
    n_boards, n_cells = boards.shape
    no_found = np.empty(0, np.int64)
    for block in prange(n_blocks):
        lo = block * n_boards // n_blocks
        hi = (block + 1) * n_boards // n_blocks
        scratch, seen = _new_scratch(n_cells, n_letters, nodes.shape[0])
        epoch = 0
        for b in range(lo, hi):
            epoch = _next_epoch(seen, epoch)
            s, c = _board_words(boards[b], nodes, adjacency, scratch, seen, epoch, no_found, False)
            scores[b] = s
            counts[b] = c


# ----------------------------------------------------------------------------------------------
# Search for high-scoring boards
# ----------------------------------------------------------------------------------------------


@njit(cache=True)
def _random_u64(state):
    """splitmix64: a small, good generator whose whole state is one uint64 (state[0])."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _random_below(state, n):
    return np.int64(_random_u64(state) >> np.uint64(33)) % n


@njit(cache=True)
def _random_unit(state):
    return np.float64(_random_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _anneal_start(rng_states, letter_pool, nodes, n_letters, adjacency, boards, scores, best_boards, best_scores):
    """Random first boards for annealing runs, drawn from each run's own generator."""
    n_cells = adjacency.shape[0]
    scratch, seen = _new_scratch(n_cells, n_letters, nodes.shape[0])
    no_found = np.empty(0, np.int64)
    for r in range(boards.shape[0]):
        for i in range(n_cells):
            boards[r, i] = letter_pool[_random_below(rng_states[r:r + 1], letter_pool.shape[0])]
        scores[r], _ = _board_words(boards[r], nodes, adjacency, scratch, seen, r + 1, no_found, False)
        best_scores[r] = scores[r]
        best_boards[r, :] = boards[r]


@njit(cache=True, parallel=True)
def _anneal_kernel(rng_states, boards, scores, temperatures, steps, cooling, letter_pool, nodes, n_letters,
                   adjacency, best_boards, best_scores):
    """`steps` more steps of simulated annealing for each run (the runs in parallel): propose a
    new letter for a cell (drawn from `letter_pool`) or a swap of two cells, accept a loss of d
    points with probability exp(-d / T), and multiply T by `cooling` every step. A run's whole
    state is its row of the arrays, so it goes on where the last call stopped, and its result
    depends only on its generator's seed."""
    n_cells = adjacency.shape[0]
    no_found = np.empty(0, np.int64)
    for r in prange(boards.shape[0]):
        state = rng_states[r : r + 1]
        board = boards[r]
        scratch, seen = _new_scratch(n_cells, n_letters, nodes.shape[0])
        epoch = 0
        score = scores[r]
        temperature = temperatures[r]
        for _ in range(steps):
            temperature *= cooling
            i = _random_below(state, n_cells)
            j = i
            old = board[i]
            if n_cells > 1 and _random_unit(state) < 0.5:
                j = _random_below(state, n_cells)
                if board[j] == old:
                    continue
                board[i] = board[j]
                board[j] = old
            else:
                new = letter_pool[_random_below(state, letter_pool.shape[0])]
                if new == old:
                    continue
                board[i] = new
            epoch = _next_epoch(seen, epoch)
            s, _ = _board_words(board, nodes, adjacency, scratch, seen, epoch, no_found, False)
            if s >= score or _random_unit(state) < np.exp((s - score) / temperature):
                score = s
                if s > best_scores[r]:
                    best_scores[r] = s
                    best_boards[r, :] = board
            else:  # undo
                board[j] = board[i]
                board[i] = old
        scores[r] = score
        temperatures[r] = temperature
