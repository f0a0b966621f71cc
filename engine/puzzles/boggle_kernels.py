"""Every numba kernel of the word-grid (Boggle) solver: one board, many random boards, annealing.

They share one module because numba's on-disk cache does not notice edits to a jitted function
in another file. The validating wrappers are in boggle.py; the plain recursive twin used as the
test oracle is tests/reference_boggle.py.

The trie is flat and compact: the children of a node are consecutive node numbers in letter
order, and the child for letter L is `first + popcount(mask & bits below L)`, where `mask` has
a bit per letter the node has a child for. A node is one row: for alphabets of up to 32 letters
one uint64 (mask in bits 0-31, first child in bits 32-59, points in bits 60-63: the whole
ENABLE2K trie is 3 MB, so more of it stays in the CPU's caches), else two (the mask, then first
child | points << 32). `_row` reads either.

The walk is bit-parallel: a board has at most 64 cells and 64 letters, so "the cells holding
letter L", "the neighbours of a cell", "the cells on the path" and "the letters next to a cell"
are each one uint64. A level of the walk is a node and the set of cells the path may step to
next: the unused neighbours whose letter the node has a child for. Only steps that continue a
word are ever looked at, and the trie row of the next step is prefetched while the current one
is worked on (memory latency and branch mispredictions are most of the time).
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel, prange
from numba import types
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic


_LOW32 = np.uint64(0xFFFFFFFF)
_POINTS_SHIFT = np.uint64(32)  # wide rows
_FIRST_SHIFT = np.uint64(32)  # narrow rows: first child in bits 32-59, points in 60-63
_FIRST_MASK = np.uint64((1 << 28) - 1)
_NARROW_POINTS_SHIFT = np.uint64(60)
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


@kernel(inline="always")
def _bit(i):
    return _ONE << np.uint64(i)


@kernel(inline="always")
def _row(nodes, node):
    """(letter mask, first child, points) of a node, from a narrow or a wide row."""
    if nodes.shape[1] == 1:
        row = nodes[node, 0]
        return row & _LOW32, np.int64((row >> _FIRST_SHIFT) & _FIRST_MASK), np.int64(row >> _NARROW_POINTS_SHIFT)
    about = nodes[node, 1]
    return nodes[node, 0], np.int64(about & _LOW32), np.int64(about >> _POINTS_SHIFT)


@kernel(inline="always")
def _child(mask, first, letter):
    return first + _popcount(mask & (_bit(letter) - _ONE))


@kernel
def _board_words(letters, nodes, adjacency, scratch, seen, epoch, found, record):
    """(score, count) of one board: a depth-first walk of the paths that spell a prefix of a
    word. A word counts once: `seen[node] == epoch` marks it found on this board. With
    `record`, the word nodes found are written to `found[:count]`."""
    path_of, mask_of, first_of, cells_left, letter_cells, near_letters = scratch
    n_cells = letters.shape[0]
    for cell in range(n_cells):
        letter_cells[letters[cell]] = 0
    for cell in range(n_cells):
        letter_cells[letters[cell]] |= _bit(cell)
    for cell in range(n_cells):
        near = np.uint64(0)
        around = adjacency[cell]
        while around:
            near |= _bit(letters[_lowest_bit(around)])
            around &= around - _ONE
        near_letters[cell] = near
    root_mask, root_first, _ = _row(nodes, 0)
    starts = np.uint64(0)
    for cell in range(n_cells):
        if (root_mask >> np.uint64(letters[cell])) & _ONE:
            starts |= _bit(cell)
    score = 0
    count = 0
    depth = 0  # level 0 is the root: every cell whose letter starts a word is in reach
    path_of[0] = 0
    mask_of[0] = root_mask
    first_of[0] = root_first
    cells_left[0] = starts
    while depth >= 0:
        todo = cells_left[depth]
        if todo == 0:
            depth -= 1
            continue
        cell = _lowest_bit(todo)
        rest = todo & (todo - _ONE)
        cells_left[depth] = rest
        mask, first = mask_of[depth], first_of[depth]
        nxt = _child(mask, first, letters[cell])
        if rest:  # the row the next step at this level reads
            _prefetch_row(nodes, _child(mask, first, letters[_lowest_bit(rest)]))
        child_mask, child_first, p = _row(nodes, nxt)
        if p > 0 and seen[nxt] != epoch:
            seen[nxt] = epoch
            score += p
            if record:
                found[count] = nxt
            count += 1
        onward = child_mask & near_letters[cell]
        if onward:
            path = path_of[depth] | _bit(cell)
            steps = np.uint64(0)
            while onward:
                steps |= letter_cells[_lowest_bit(onward)]
                onward &= onward - _ONE
            steps &= adjacency[cell] & ~path
            if steps:
                depth += 1
                path_of[depth] = path
                mask_of[depth] = child_mask
                first_of[depth] = child_first
                cells_left[depth] = steps
                _prefetch_row(nodes, _child(child_mask, child_first, letters[_lowest_bit(steps)]))
    return score, count


@kernel
def _new_scratch(n_cells, n_letters, n_nodes):
    """One thread's scratch: the path stack (cells used, node's letter mask and first child,
    cells still to try), the board's letter sets, and the found-word epochs."""
    depth = n_cells + 1
    scratch = (
        np.empty(depth, np.uint64),
        np.empty(depth, np.uint64),
        np.empty(depth, np.int64),
        np.empty(depth, np.uint64),
        np.zeros(n_letters, np.uint64),
        np.empty(n_cells, np.uint64),
    )
    return scratch, np.zeros(n_nodes, np.int32)


@kernel
def _next_epoch(seen, epoch):
    """The next board's mark; on overflow the marks are cleared and counting starts again."""
    if epoch == 2147483647:
        seen[:] = 0
        return 1
    return epoch + 1


@kernel
def _solve_kernel(letters, nodes, n_letters, adjacency, found):
    """One board, recording the word nodes found."""
    scratch, seen = _new_scratch(letters.shape[0], n_letters, nodes.shape[0])
    return _board_words(letters, nodes, adjacency, scratch, seen, 1, found, True)


@kernel(parallel=True)
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


@kernel
def _random_u64(state):
    """splitmix64: a small, good generator whose whole state is one uint64 (state[0])."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def _random_below(state, n):
    return np.int64(_random_u64(state) >> np.uint64(33)) % n


@kernel(inline="always")
def _random_small(state, n):
    """A number below n < 2**32 by a multiply and a shift (no division: rolling the dice draws
    32 of them per board)."""
    return np.int64(((_random_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel
def _random_unit(state):
    return np.float64(_random_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel(parallel=True)
def _roll_kernel(seeds, faces, out):
    """Shake and roll the dice for each board: the dice in a random order (Fisher-Yates), each
    showing a random face. The boards are split into len(seeds) blocks, each drawn from its own
    generator, so the boards depend on the seeds only, not on the number of threads."""
    n_boards, n_dice = out.shape
    n_blocks = seeds.shape[0]
    for block in prange(n_blocks):
        state = seeds[block : block + 1].copy()
        order = np.empty(n_dice, np.int64)
        for b in range(block * n_boards // n_blocks, (block + 1) * n_boards // n_blocks):
            for i in range(n_dice):
                order[i] = i
            for i in range(n_dice - 1, 0, -1):
                j = _random_small(state, i + 1)
                order[i], order[j] = order[j], order[i]
            for i in range(n_dice):
                out[b, i] = faces[order[i], _random_small(state, faces.shape[1])]


@kernel
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


@kernel(parallel=True)
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
