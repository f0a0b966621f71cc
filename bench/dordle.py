"""Dordle benchmark: the exact value of Dordle on reduced lists (every k-th original answer, and
all the allowed guesses or a reduced set of them): wall time, nodes, nodes per second, peak
memory, and the value with its first guess.

    python bench/dordle.py [--step 20] [--guesses all|answers|STEP] [--max-guesses 7] [--first WORD]
    python bench/dordle.py --rate SECONDS [--first salet]     the full lists' progress rates
    python bench/dordle.py --walk [--step 40] [--first salet]  the heuristic strategy's whole walk

--walk: the heuristic strategy (heuristic.py, kernels.strategy_walk) walked from the opener
(default salet) over every ordered pair of the reduced lists (--step, --guesses, --max-guesses
6 unless given): its total, states (back-offs included), states per second and peak memory.

--rate: on the full lists (2315 answers, 12972 guesses), the heuristic strategy's walk
(heuristic.py) from the opener for SECONDS (states per second, the root's child states per minute
and the share of the pairs covered), the exact search (search.py) at the root for SECONDS (states
per second), and from them a projection, labelled as one, of the exact full search's CPU-hours:
the walk's states projected to all the pairs, times the exact search's states per walk state on
every 40th answer (measured here, exactly solved), over the full root's states per second. The
ratio grows with the lists, so the projection is a floor of the order of magnitude, not a forecast.

--children K (with --first, default trace; full lists): each bound at a fixed sample of the
opener's child states, the K largest and K chosen at random (--seed): the counting bound of the
state's sizes, the least counting bound over every guess, the projection bound (exact one-board
values), and the exact search with each rule set of --rule-sets for at most --seconds a state (its
value when it finishes, else the nodes it reached).

--exact-below N (with --first; full lists): the heuristic strategy with exact states
(heuristic.HeuristicStrategy's exact_below N, exact_nodes --exact-nodes) at the opener's child
states of at most N pairs, the only ones the parameter touches: the walk's total there, the new
total and what it saves, which the full-list total of the plain strategy loses exactly; with
--full, the whole strategy from the opener walked with them (heuristic.evaluate_opener).

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
    parser.add_argument("--max-guesses", type=int, default=None, help="the cap (default 7; --walk 6)")
    parser.add_argument("--first", help="fix the opener")
    parser.add_argument("--rules", type=int, default=None, help="rules bitmask (default: all)")
    parser.add_argument("--rate", type=float, metavar="SECONDS", help="the full lists' progress rates (see above)")
    parser.add_argument("--children", type=int, metavar="K", help="bounds at a sample of the opener's child states")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0, help="--children: the exact search's time a state")
    parser.add_argument("--rule-sets", default="255,253,511", help="--children: rule bitmasks, comma-separated")
    parser.add_argument("--exact-below", type=int, metavar="N", help="the heuristic's exact states (see above)")
    parser.add_argument("--exact-nodes", type=int, default=None)
    parser.add_argument("--full", action="store_true", help="--exact-below: walk the whole strategy")
    parser.add_argument("--walk", action="store_true", help="the heuristic strategy's whole walk (see above)")
    args = parser.parse_args()
    if args.walk:
        return whole_walk(args.step, args.guesses, args.first or "salet", args.max_guesses or 6)
    if args.max_guesses is None:
        args.max_guesses = 7
    if args.rate:
        return full_rates(args.rate, args.first or "salet", args.max_guesses)
    if args.children:
        return child_bounds(args.first or "trace", args.children, args.seed, args.seconds,
                            [int(r) for r in args.rule_sets.split(",")], args.max_guesses)
    if args.exact_below:
        return exact_states(args.first or "trace", args.exact_below, args.exact_nodes, args.max_guesses, args.full)
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


def whole_walk(step: int, guesses: str, first: str, cap: int) -> None:
    """The heuristic strategy's total over every ordered pair of the reduced lists, from `first`."""
    from wordtree.dordle.heuristic import HeuristicStrategy, evaluate_opener
    from wordtree.dordle.search import DordleSearch

    game = reduced_game(step, guesses)
    t0 = time.perf_counter()
    search = DordleSearch(game, game._compute_matrix(), cap)
    strategy = HeuristicStrategy(search)
    g = game.guess_index[first]
    C = search.root()[0][:3]
    strategy.walk(C, C, True, 3)  # load the kernels before the clock starts
    setup = time.perf_counter() - t0
    t0 = time.perf_counter()
    c0 = time.process_time()
    r = evaluate_opener(strategy, g)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = len(game.answers)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"answers {n}, guesses {len(game.guesses)}, cap {cap}, pairs {n * (n - 1)}, first {first}")
    print(f"total {r['total']}, failed {r['failed']}, states {r['states']}")
    print(f"setup {setup:.1f} s, walk {seconds:.2f} s wall, {cpu:.2f} s CPU, states/s {r['states'] / max(seconds, 1e-9):.0f}, "
          f"peak memory {peak:.0f} MB")


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


def full_search(cap: int, rules: int | None = None):
    from wordtree.dordle.search import ALL_RULES, DordleSearch
    from wordtree.games import get_game

    game = get_game("wordle")
    return DordleSearch(game, game._compute_matrix(), cap, rules=ALL_RULES if rules is None else rules)


def child_bounds(opener: str, k: int, seed: int, seconds: float, rule_sets: list[int], cap: int) -> None:
    import numpy as np

    from wordtree.dordle.bounds import child_bound, pairs
    from wordtree.dordle.heuristic import root_parts
    from wordtree.dordle.lower import least_guess_bound
    from wordtree.dordle.player import OutOfTime, TimedSearch

    search = full_search(cap)
    game, d = search.game, cap - 1
    _, children, _ = root_parts(search, game.guess_index[opener])
    sizes = np.array([pairs(len(a), len(b), i) for a, b, i in children])
    largest = list(np.argsort(-sizes, kind="stable")[:k])
    rest = [i for i in range(len(children)) if i not in set(largest) and sizes[i] > 2]
    sample = largest + sorted(np.random.default_rng(seed).choice(rest, k, replace=False).tolist())
    searches = {r: TimedSearch(game, search.matrix, cap, rules=r) for r in rule_sets}
    print("state\tsizes\tpairs\tsize bound\tleast guess bound (s)\tprojection (s)\t"
          + "\t".join(f"rules {r}: value or nodes, s" for r in rule_sets), flush=True)
    for i in sample:
        S1, S2, ident = children[i]
        t0 = time.perf_counter()
        least = least_guess_bound(search, S1, S2, ident, d)
        t1 = time.perf_counter()
        proj = search.projection(S1, S2, ident, d)
        t2 = time.perf_counter()
        row = [f"{i}", f"{len(S1)}x{len(S2)}{' ident' if ident else ''}", f"{sizes[i]}",
               f"{child_bound(len(S1), len(S2), ident, d)}", f"{least} ({t1 - t0:.2f})", f"{proj} ({t2 - t1:.2f})"]
        for r, ts in searches.items():
            ts.memo.clear()
            ts.pending.clear()
            n0, t0 = ts.nodes, time.perf_counter()
            ts.deadline = t0 + seconds
            try:
                value = f"={ts.solve(S1, S2, ident, d)[0]}"
            except OutOfTime:
                value = "open"
            row.append(f"{value} {ts.nodes - n0} nodes {time.perf_counter() - t0:.1f}")
        print("\t".join(row), flush=True)


def exact_states(opener: str, below: int, nodes: int | None, cap: int, full: bool = False) -> None:
    from wordtree.dordle.bounds import pairs
    from wordtree.dordle.heuristic import EXACT_NODES, HeuristicStrategy, evaluate_opener, root_parts

    search = full_search(cap)
    game, d = search.game, cap - 1
    strategy = HeuristicStrategy(search, exact_below=below, exact_nodes=EXACT_NODES if nodes is None else nodes)
    if full:
        r = evaluate_opener(strategy, game.guess_index[opener])
        print(f"{opener.upper()} with exact states of at most {below} pairs ({strategy.exact_nodes} nodes): total "
              f"{r['total']} over {r['pairs']} pairs, mean {r['mean']:.4f}, failed {r['failed']}, exact at "
              f"{strategy.exact_states} states saving {strategy.exact_saved}; {r['states']} states, {r['seconds']} s",
              flush=True)
        return
    plain = HeuristicStrategy(search)
    _, children, _ = root_parts(search, game.guess_index[opener])
    small = [c for c in children if pairs(len(c[0]), len(c[1]), c[2]) <= below]
    t0 = time.perf_counter()
    walked = exact = failed = 0
    for S1, S2, ident in small:
        w = plain.walk(S1, S2, ident, d)
        e = strategy.walk(S1, S2, ident, d)
        walked, exact, failed = walked + w["total"], exact + e["total"], failed + e["failed"] + w["failed"]
    print(f"{opener.upper()}'s {len(small)} child states of at most {below} pairs "
          f"({sum(pairs(len(a), len(b), i) for a, b, i in small)} pairs), exact_nodes {strategy.exact_nodes}: "
          f"the walk totals {walked}, with exact states {exact} (exact at {strategy.exact_states} states), "
          f"saving {walked - exact}; failed pairs {failed}; {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
