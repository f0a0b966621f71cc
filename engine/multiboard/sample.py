"""The player measured: its games on a seeded, uniform sample of K-tuples of different answers
(or on every such tuple, for a small list), the mean number of guesses to solve every board with
its 95 % confidence interval, and the games won within the cap.

A sample's games are drawn by numpy's default_rng(seed): game i's answers are the i-th call of
`rng.choice(n, K, replace=False)` (K different answer indices, board 1 first), so anyone with the
seed and the lists draws the same games. Every game is played to the end, past the cap if need
be (a game that ends after the cap is lost; its length still counts in the mean). The mean of a
sample is an estimate, labelled as such: its interval is mean +- 1.96 s / sqrt(N) (the normal
approximation, N >= 1000 here). Over every tuple the figures are exact, for this player.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np

from .boards import narrow
from .player import Player
from .spec import ALPHABET, MultiSpec

GENERATOR = "numpy.random.default_rng(seed); game i: rng.choice(n, K, replace=False), board 1 first"
MAX_EVERY = 2_000_000  # tuples played when every tuple is asked for


class PlayerLost(Exception):
    """The player did not finish a game within 2 * cap guesses (a fault of the player)."""


def draw(n: int, k: int, seed: int, games: int) -> np.ndarray:
    """The sample's answer tuples, one row a game (see GENERATOR)."""
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(n, k, replace=False) for _ in range(games)], dtype=np.int64).reshape(games, k)


def every_tuple_count(n: int, k: int) -> int:
    return math.perm(n, k)


def every_tuple(n: int, k: int):
    """Every ordered K-tuple of different answer indices, in itertools.permutations order."""
    return itertools.permutations(range(n), k)


def play_game(player: Player, answers, cap: int, feedback=None) -> tuple[int, list[int]]:
    """The player's game against `answers` (one index a board): its length and its guesses.
    `feedback(g, a)` gives a pattern code (default: the matrix's)."""
    matrix, win = player.matrix, player.win
    if hasattr(player, "new_game"):
        player.new_game()
    k = len(answers)
    n = matrix.shape[1]
    sets = [np.arange(n, dtype=np.int64) for _ in range(k)]
    solved = [False] * k
    played = []
    while not all(solved):
        if len(played) >= 2 * cap + k:
            raise PlayerLost(f"no finish after {len(played)} guesses")
        open_boards = [b for b in range(k) if not solved[b]]
        g = player.choose(sets, open_boards, cap - len(played))
        played.append(g)
        row = matrix[g]
        for b in open_boards:
            code = int(row[answers[b]]) if feedback is None else feedback(g, int(answers[b]))
            S = sets[b]
            sets[b] = S[row[S] == code]
            if code == win:
                solved[b] = True
        sets = narrow(sets)
    return len(played), played


def figures(lengths: np.ndarray, cap: int, exact: bool) -> dict:
    """The mean (an estimate with its 95 % interval for a sample; exact over every tuple), the
    games won within the cap, the histogram of lengths."""
    n = len(lengths)
    mean = float(lengths.mean())
    std = float(lengths.std(ddof=1)) if n > 1 else 0.0
    half = 1.96 * std / math.sqrt(n) if n > 1 else 0.0
    won = int((lengths <= cap).sum())
    values, counts = np.unique(lengths, return_counts=True)
    out = {"games": n, "total": int(lengths.sum()), "mean": round(mean, 6), "won": won,
           "win_rate": round(won / n, 6), "worst": int(lengths.max()),
           "histogram": {str(int(v)): int(c) for v, c in zip(values, counts)}}
    if exact:
        out["exact"] = True
    else:
        out.update({"exact": False, "std": round(std, 6), "ci95": [round(mean - half, 6), round(mean + half, 6)]})
    return out


def encode(lengths) -> str:
    if max(lengths, default=0) >= len(ALPHABET):
        raise ValueError("a game longer than the alphabet")
    return "".join(ALPHABET[int(x)] for x in lengths)


def decode(text: str) -> np.ndarray:
    index = {ch: i for i, ch in enumerate(ALPHABET)}
    return np.array([index[ch] for ch in text], dtype=np.int64)


def evaluate(game, matrix, spec: MultiSpec, seed: int | None, games: int | None, progress=None,
             workers: int = 1) -> dict:
    """The player's games: the sample (seed, games) or, with seed None, every tuple. `workers` > 1
    plays a sample's games in that many processes (forked), CHUNK games a task: a game's length
    depends on its tuple alone (the player forgets its proofs at each new game; what it keeps,
    exact values and score vectors, are the same whoever computed them), so the lengths are
    those of one process, in the order drawn."""
    started = time.perf_counter()
    player = Player(game, matrix)
    n, k = len(game.answers), spec.boards
    if seed is None:
        tuples = every_tuple(n, k)
        count = every_tuple_count(n, k)
    else:
        tuples = draw(n, k, seed, games)
        count = games
    if workers > 1 and seed is not None and count > CHUNK:
        lengths = _in_processes(player, tuples, spec.cap, workers, progress)
    else:
        lengths = np.empty(count, dtype=np.int64)
        for i, answers in enumerate(tuples):
            lengths[i], _ = play_game(player, answers, spec.cap)
            if progress is not None:
                progress(i + 1, count)
    player.new_game()
    opener = player.choose([np.arange(n, dtype=np.int64)] * k, list(range(k)), spec.cap)
    return {"lengths": lengths, "figures": figures(lengths, spec.cap, seed is None),
            "opener": game.guesses[opener], "seconds": round(time.perf_counter() - started, 3),
            "shortlist": len(player.G) - n, "workers": workers}


CHUNK = 250  # games a worker plays a task
_SHARED: dict = {}  # what the forked workers inherit: the player and the tuples


def _chunk(bounds: tuple[int, int]) -> tuple[int, np.ndarray]:
    player, tuples, cap = _SHARED["player"], _SHARED["tuples"], _SHARED["cap"]
    start, stop = bounds
    out = np.empty(stop - start, dtype=np.int64)
    for i in range(start, stop):
        out[i - start], _ = play_game(player, tuples[i], cap)
    return start, out


def _in_processes(player: Player, tuples: np.ndarray, cap: int, workers: int, progress) -> np.ndarray:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    count = len(tuples)
    lengths = np.empty(count, dtype=np.int64)
    _SHARED.update(player=player, tuples=tuples, cap=cap)
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=_quiet_worker)
    try:
        futures = [pool.submit(_chunk, (start, min(start + CHUNK, count))) for start in range(0, count, CHUNK)]
        done = 0
        for future in as_completed(futures):
            start, out = future.result()
            lengths[start:start + len(out)] = out
            done += len(out)
            if progress is not None:
                progress(done, count)
    except BaseException:  # Ctrl-C, SIGTERM, a worker's fault: no game left running
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        _SHARED.clear()
    pool.shutdown(wait=True)
    return lengths


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C and SIGTERM to the parent, which stops it (the parent's handler
    would turn them into KeyboardInterrupt here too)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
