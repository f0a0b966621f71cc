"""Pattern-matrix benchmark: first build (with numba compile), warm build, load from the disk
cache, and the ratio against a straightforward numpy-vectorized implementation.

    python bench/patterns.py [--runs 5]

Each figure is the median of --runs runs (this machine is shared and noisy); the first build
runs in a fresh process with an empty numba cache.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAIRS = [("wordle", "12972 x 2315"), ("wordle-nyt2023", "14855 x 3158")]


def numpy_matrix(game, chunk: int = 1000):
    """Wordle feedback for every pair with whole-array numpy operations, the obvious way (in
    chunks of guesses, so memory stays bounded)."""
    import numpy as np

    from wordtree.games.wordle import letters_array

    guesses = letters_array(game.guesses, game.length)
    A = letters_array(game.answers, game.length)[None, :, :]  # (1, a, L)
    return np.concatenate([_numpy_block(guesses[i:i + chunk, None, :], A, game.length)
                           for i in range(0, len(guesses), chunk)])


def _numpy_block(G, A, length):
    import numpy as np

    green = G == A
    colours = np.where(green, 2, 0).astype(np.uint8)
    unmatched = np.zeros((G.shape[0], A.shape[1], 26), dtype=np.int8)
    letters = np.arange(26)
    # copies of each letter in the answer that are not green
    for i in range(length):
        unmatched += ((A[..., i, None] == letters) & ~green[..., i, None]).astype(np.int8)
    for i in range(length):
        letter = G[..., i]
        avail = np.take_along_axis(unmatched, np.broadcast_to(letter, green.shape[:2])[..., None], axis=2)[..., 0]
        yellow = ~green[..., i] & (avail > 0)
        colours[..., i] = np.where(yellow, 1, colours[..., i])
        np.put_along_axis(unmatched, np.broadcast_to(letter, green.shape[:2])[..., None],
                          (avail - yellow)[..., None], axis=2)
    weights = 3 ** np.arange(length)
    return (colours.astype(np.int32) * weights).sum(axis=2).astype(np.uint8)


def first_build(name: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        code = ("import time;t=time.perf_counter();from wordtree.games import get_game;"
                f"g=get_game('{name}');g._compute_matrix();print(time.perf_counter()-t)")
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
        return float(out.stdout.strip())


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-numpy", action="store_true", help="skip the (slow, memory-hungry) numpy reference")
    args = parser.parse_args()

    import numpy as np

    from wordtree.games import get_game
    from wordtree.wordle.patterns import pattern_matrix

    print(f"{'lists':16} {'size':>14} {'first build':>12} {'warm build':>11} {'cache load':>11} {'numpy ref':>10} {'ratio':>7}")
    for name, size in PAIRS:
        game = get_game(name)
        cold = first_build(name)
        game._compute_matrix()
        warm = median_time(game._compute_matrix, args.runs)
        with tempfile.TemporaryDirectory() as cache:
            pattern_matrix(game, cache)
            load = median_time(lambda: pattern_matrix(game, cache), args.runs)
            assert pattern_matrix(game, cache).source == "cache"
        if args.skip_numpy:
            ref, ratio = float("nan"), float("nan")
        else:
            ref = median_time(lambda: numpy_matrix(game), 1)
            assert np.array_equal(numpy_matrix(game), game._compute_matrix())
            ratio = ref / warm
        print(f"{name:16} {size:>14} {cold * 1000:10.0f}ms {warm * 1000:9.1f}ms {load * 1000:9.1f}ms "
              f"{ref * 1000:8.0f}ms {ratio:6.1f}x")


if __name__ == "__main__":
    main()
