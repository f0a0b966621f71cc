"""Dordle benchmark: the exact value of Dordle on reduced lists (every k-th original answer, and
all the allowed guesses or a reduced set of them): wall time, nodes, nodes per second, peak
memory, and the value with its first guess.

    python bench/dordle.py [--step 20] [--guesses all|answers|STEP] [--max-guesses 7] [--first WORD]
    python bench/dordle.py --rate SECONDS [--first salet]     the full lists' progress rates

--rate: on the full lists (2315 answers, 12972 guesses), the heuristic strategy's walk
(heuristic.py) from the opener for SECONDS (states per second, the root's child states per minute
and the share of the pairs covered), the exact search (search.py) at the root for SECONDS (states
per second), and from them a projection, labelled as one, of the exact full search's CPU-hours:
the walk's states projected to all the pairs, times the exact search's states per walk state on
every 40th answer (measured here, exactly solved), over the full root's states per second. The
ratio grows with the lists, so the projection is a floor of the order of magnitude, not a forecast.

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
    parser.add_argument("--rate", type=float, metavar="SECONDS", help="the full lists' progress rates (see above)")
    args = parser.parse_args()
    if args.rate:
        return full_rates(args.rate, args.first or "salet", args.max_guesses)
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


def walk_rate(search, first: int, seconds: float) -> dict:
    """The heuristic walk from `first` over the root's child states for about `seconds`."""
    from wordtree.dordle.bounds import pairs
    from wordtree.dordle.heuristic import HeuristicStrategy, root_parts

    strategy = HeuristicStrategy(search)
    _, children, _ = root_parts(search, first)
    strategy.walk(children[-1][0], children[-1][1], children[-1][2], search.cap - 1)  # compile before the clock
    t0 = time.perf_counter()
    states = done = covered = 0
    for C1, C2, ident in children:
        states += strategy.walk(C1, C2, ident, search.cap - 1)["states"]
        done += 1
        covered += pairs(len(C1), len(C2), ident)
        if time.perf_counter() - t0 > seconds:
            break
    elapsed = time.perf_counter() - t0
    below = sum(pairs(len(C1), len(C2), ident) for C1, C2, ident in children)
    return {"seconds": elapsed, "states": states, "children": done, "of": len(children), "covered": covered,
            "pairs": below}


def exact_rate(game, matrix, cap: int, seconds: float, first: int | None = None) -> dict:
    """The exact search's states (nodes) in `seconds` at the root (or opening with `first`),
    without the projection rule: with it the root first solves the one-board game of all the
    answers within cap + 1 guesses, one long solve before any state is counted."""
    from wordtree.dordle.player import OutOfTime, TimedSearch
    from wordtree.dordle.search import ALL_RULES, USE_PROJECTION

    search = TimedSearch(game, matrix, cap, rules=ALL_RULES & ~USE_PROJECTION)
    t0 = time.perf_counter()
    search.deadline = t0 + seconds
    finished = True
    try:
        search.solve_game(first)
    except OutOfTime:
        finished = False
    return {"seconds": time.perf_counter() - t0, "nodes": search.nodes, "finished": finished}


def full_rates(seconds: float, opener: str, cap: int) -> None:
    from wordtree.dordle.search import DordleSearch
    from wordtree.games import get_game

    game = get_game("wordle")
    matrix = game._compute_matrix()
    search = DordleSearch(game, matrix, cap)
    first = game.guess_index[opener]
    w = walk_rate(search, first, seconds)
    print(f"heuristic walk from {opener.upper()} (full lists, cap {cap}): {w['states']} states in {w['seconds']:.1f} s "
          f"= {w['states'] / w['seconds']:.0f} states/s; {w['children']} of {w['of']} child states "
          f"= {60 * w['children'] / w['seconds']:.0f} child states/min; {w['covered']} of {w['pairs']} pairs below "
          f"the opener ({100 * w['covered'] / w['pairs']:.1f} %)")
    e = exact_rate(game, matrix, cap, seconds)
    rate = e["nodes"] / e["seconds"]
    print(f"exact search at the full root (no projection rule): {e['nodes']} states in {e['seconds']:.1f} s "
          f"= {rate:.1f} states/s", flush=True)
    small = reduced_game(40, "all")
    ms = small._compute_matrix()
    ex = DordleSearch(small, ms, cap)
    value, g = ex.solve_game()
    hs = DordleSearch(small, ms, cap)
    walked = walk_rate(hs, g, float("inf"))
    ratio = ex.nodes / max(walked["states"], 1)
    walk_states = w["states"] * w["pairs"] / max(w["covered"], 1)
    hours = walk_states * ratio / max(rate, 1e-9) / 3600
    print(f"every 40th answer: exact search {ex.nodes} states, the walk from {small.guesses[g].upper()} "
          f"{walked['states']}: {ratio:.1f} exact states per walk state")
    print(f"PROJECTION (not a measurement): the full walk ~{walk_states:.3g} states x {ratio:.1f} / {rate:.1f} "
          f"states/s = ~{hours:.3g} CPU-hours for the exact full search (a floor: the ratio grows with the lists)",
          flush=True)


if __name__ == "__main__":
    main()
