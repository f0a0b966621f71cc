"""Dordle benchmark: the exact value of Dordle on reduced lists (every k-th original answer, and
all the allowed guesses or a reduced set of them): wall time, nodes, nodes per second, peak
memory, and the value with its first guess.

    python bench/dordle.py [--step 20] [--guesses all|answers|STEP] [--max-guesses 7] [--first WORD]

The clock starts after the pattern matrix and the numba kernels are loaded. "nodes" counts the
states the search was asked about (memo hits and shortcuts included), "evaluations" the guesses
evaluated at them.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def reduced_game(step: int, guesses: str):
    from wordtree.games import get_game
    from wordtree.games.wordle import Wordle
    from wordtree.words import WordList, canonical_sha256

    full = get_game("wordle")
    answers = list(full.answers[::step])
    if guesses == "all":
        pool = list(full.guesses)
    elif guesses == "answers":
        pool = list(answers)
    else:
        pool = sorted(set(full.guesses[:: int(guesses)]) | set(answers))

    def word_list(name, words):
        return WordList(name, name, tuple(words), canonical_sha256(words))

    return Wordle(f"wordle-every-{step}", word_list(f"answers-every-{step}", answers),
                  word_list(f"guesses-{guesses}", pool))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=20, help="keep every STEP-th original answer")
    parser.add_argument("--guesses", default="all", help="all (12972), answers, or a step over the allowed list")
    parser.add_argument("--max-guesses", type=int, default=7)
    parser.add_argument("--first", help="fix the opener")
    parser.add_argument("--rules", type=int, default=None, help="rules bitmask (default: all)")
    args = parser.parse_args()
    from wordtree.dordle.search import ALL_RULES, DINF, DordleSearch

    game = reduced_game(args.step, args.guesses)
    t0 = time.perf_counter()
    matrix = game._compute_matrix()
    search = DordleSearch(game, matrix, args.max_guesses, rules=ALL_RULES if args.rules is None else args.rules)
    search.v1(search.root()[0], 2)  # load the single-board kernels before the clock starts
    setup = time.perf_counter() - t0
    first = None if args.first is None else game.guess_index[args.first]
    t0 = time.perf_counter()
    value, guess = search.solve_game(first)
    seconds = time.perf_counter() - t0
    n = len(game.answers)
    stats = search.stats()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"answers {n}, guesses {len(game.guesses)}, cap {args.max_guesses}, pairs {n * (n - 1)}")
    if value >= DINF:
        print("no strategy within the cap")
    else:
        print(f"total {value}, mean {value / (n * (n - 1)):.4f}, first guess {game.guesses[guess]}")
    print(f"setup {setup:.1f} s, search {seconds:.1f} s, nodes {stats['nodes']}, evaluations {stats['evaluations']}, "
          f"nodes/s {stats['nodes'] / max(seconds, 1e-9):.0f}, evaluations/s {stats['evaluations'] / max(seconds, 1e-9):.0f}, "
          f"memo {stats['memo_entries']}, single-board sets {stats['single_board_sets']}, peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
