"""Hangman benchmarks: the baseline-rule kernel against the plain reference, the exact search on
the long lengths and on hard 7-letter classes, and peak memory. Median of several runs; about
four minutes in all.

    python bench/hangman.py
    python bench/hangman.py --bot 20 [known|unknown]   # the bot's mean score over 20 games of 80
                        # words: drawn from its own dictionary, and from words it does not know
    python bench/hangman.py --bounds 3 4 5 6   # the partition bound of each length (one run
                        # each: the slow ones take minutes) and the best tree shipped for it;
                        # --bounds --threads 1 6: its parts one at a time (default: 2 at once)
    python bench/hangman.py --calibrate 2 7 8 9   # the best-found tree's heuristic where the
                        # optimum is proven: its expected score against the shipped optimal tree's
    python bench/hangman.py --proof 8   # the whole exact search of a length (median of 3 runs:
                        # about 3 minutes at 8), its nodes per second and peak memory
    python bench/hangman.py --families 3:300 3:400 4:1500   # random sets of short words
                        # searched without and with the family bound (one run each: minutes)
    python bench/hangman.py --memo-room 4:1000 0.5   # random words searched with room for every
                        # memo entry, then in half of it (compactions): about 4 minutes
    python bench/hangman.py --prefix 4 3000000   # the first 3 M nodes of the whole length-4
                        # search, nodes per second (median of 3)
    python bench/hangman.py --groupings 4 j 600 40000000 3 vowels   # the partition bound of
                        # the words without j (9 lives) with the words grouped by the letter at
                        # position 3, then by vowels, in parts of 600 words of 40 M nodes
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import numpy as np  # noqa: E402

import reference_hangman as ref  # noqa: E402
from wordtree.hangman.game import WIN_POINTS, load_hangman_words, mask_text  # noqa: E402
from wordtree.hangman.baselines import best_found_chooser, rule_totals  # noqa: E402
from wordtree.hangman.bounds import partition, partition_bound  # noqa: E402
from wordtree.hangman.search import Searcher, split  # noqa: E402
from timing import median_seconds  # noqa: E402


def main() -> None:
    hw = load_hangman_words(3)
    s = Searcher(hw, 10, memo_entries=16)
    rule_totals(s, "frequency")  # compile
    sample = hw.words[:100]
    fast = median_seconds(lambda: rule_totals(s, "frequency"), runs=5)
    slow = median_seconds(lambda: [ref.play_rule(hw.words, w, 10, "frequency") for w in sample], runs=3)
    slow_all = slow * len(hw.words) / len(sample)
    print(f"frequency rule, all {len(hw.words)} 3-letter words: kernel {fast * 1000:.2f} ms, "
          f"reference {slow_all:.2f} s (from {len(sample)} words), ratio {slow_all / fast:.0f}x")
    for length in (15, 13, 12, 11):
        hw = load_hangman_words(length)
        everyone = np.arange(len(hw.words))
        t, searcher = timed_exact(hw, everyone, 11, memo_entries=500_000)
        nodes = searcher.nodes
        c, m = searcher.split_cost(searcher.solve(everyone, searcher.strikes)[0])
        print(f"exact search, {length} letters ({len(hw.words)} words): {t:.2f} s, {nodes} nodes, "
              f"{searcher.memo_entries} memo entries, expected wrong guesses {m / len(hw.words):.4f}")
    rule_switches()
    seven_below_e()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MB")


def timed_exact(hw, part, strikes: int, **options) -> tuple[float, Searcher]:
    """The median time (3 runs) of an exact search of `part` with 10 lives by a fresh Searcher
    made with `options`, and one such searcher after its search, for its counters."""
    def run():
        searcher = Searcher(hw, 10, **options)
        cost, ok, _ = searcher.solve(part, strikes)
        assert ok
        return searcher

    return median_seconds(run, runs=3), run()


def rule_switches() -> None:
    """The search's rules on and off, on one hard subproblem: the 579 eight-letter words whose
    `e`s stand at positions 5 and 7 (`----e-e-`, the class of a first guess `e`), 11 strikes."""
    hw = load_hangman_words(8)
    part = [p for m, p in split(hw, np.arange(len(hw.words)), 4) if m == 0b1010000][0]
    Searcher(hw, 10, memo_entries=1000).solve(part[:20], 11)  # compile
    for free_first, family_bound in ((False, True), (True, False), (True, True)):
        t, searcher = timed_exact(hw, part, 11, memo_entries=1_000_000, free_first=free_first,
                                  family_bound=family_bound)
        print(f"exact search, {len(part)} words of ----e-e-: free_first={free_first}, family_bound={family_bound}: "
              f"{t:.2f} s, {searcher.nodes} nodes, {searcher.memo_entries} memo entries")


def family_gain(cases: list[str], max_nodes: int = 30_000_000) -> None:
    """The exact search of random sets of short words (LENGTH:SIZE, each drawn from a fixed seed),
    10 lives, without and with the family bound (kernels._family_bound): one run each, as the
    larger ones take minutes; a search that spends max_nodes stops there, unfinished."""
    for case in cases:
        length, size = map(int, case.split(":"))
        hw, members = random_words(length, size)
        Searcher(hw, 10, memo_entries=1000).solve(members[:20], 11)  # compile
        found = {}
        for family_bound in (False, True):
            searcher = Searcher(hw, 10, memo_entries=8_000_000, family_bound=family_bound)
            t = time.perf_counter()
            cost, ok, _ = searcher.solve(members, 11, max_nodes=max_nodes)
            found[family_bound] = (time.perf_counter() - t, searcher.nodes, ok, cost)
        (t0, n0, ok0, c0), (t1, n1, ok1, c1) = found[False], found[True]
        if ok0 and ok1:
            assert c0 == c1
        state = {True: "", False: f" (stopped at {max_nodes} nodes)"}
        print(f"exact search, {size} random {length}-letter words: without the family bound {t0:.1f} s, "
              f"{n0} nodes{state[ok0]}; with it {t1:.1f} s, {n1} nodes{state[ok1]}: "
              f"nodes {n1 / n0:.2f}x, time {t1 / t0:.2f}x")


def seven_below_e() -> None:
    """Four large hit classes of `e` among the 7-letter words (-e-----, -e---e-, ------e,
    ----e--), solved exactly with 11 strikes: subproblems of the length-7 proof (`build hangman
    --length 7`, about 10 minutes, is the whole of it)."""
    hw = load_hangman_words(7)
    classes = dict(split(hw, np.arange(len(hw.words)), 4))
    for mask in (0b0000010, 0b0100010, 0b1000000, 0b0010000):
        part = classes[mask]
        t, searcher = timed_exact(hw, part, 11, memo_entries=4_000_000)
        print(f"exact search, the {len(part)} seven-letter words {mask_text(mask, 'e', 7)}: {t:.2f} s, "
              f"{searcher.nodes} nodes ({searcher.nodes / t / 1000:.0f}k nodes/s)")


def bot_games(games: int, which: str = "both") -> None:
    """The bot against an in-process server on 127.0.0.1, in two settings."""
    import tempfile
    import threading

    from wordtree.hangman.bot import Player, run_bot
    from wordtree.hangman.server import Game, make_server
    from wordtree.words import load_words

    known = load_words("enable1.txt").words
    unknown = sorted(set(load_words("enable2k.txt").words) - set(known))
    settings = {"known": ("its own dictionary (ENABLE)", known),
                "unknown": (f"{len(unknown)} ENABLE2K words not in ENABLE", unknown)}
    for key, (label, words) in settings.items():
        if which not in ("both", key):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            server = make_server(Game(f"{tmp}/h.sqlite3", words, 80, 10, seed=2026), "127.0.0.1", 0)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            url = f"http://127.0.0.1:{server.server_address[1]}/game/on"
            t = time.perf_counter()
            player = Player()
            scores = [run_bot(url, f"bench{i}", say=lambda _: None, player=player) for i in range(games)]
            server.shutdown()
            server.server_close()
        mean = statistics.mean(r["score"] for r in scores)
        correct = statistics.mean(r["correctWordCount"] for r in scores)
        wrong = statistics.mean(r["totalWrongGuessCount"] for r in scores)
        print(f"bot, words from {label}: mean score {mean:.1f} of 1600 over {games} games "
              f"(min {min(r['score'] for r in scores)}, max {max(r['score'] for r in scores)}; "
              f"{correct:.1f}/80 words, {wrong:.1f} wrong guesses), {time.perf_counter() - t:.0f} s")


def partition_bounds(lengths: list[int], threads: int) -> None:
    """Searcher.partition_bound over every word of each length, with the parts the build uses and
    `threads` of them solved at once, against the shipped tree's score."""
    import orjson

    from wordtree.hangman.bounds import bound_parts

    for length in lengths:
        hw = load_hangman_words(length)
        s = Searcher(hw, 10, memo_entries=16)
        t = time.perf_counter()
        c, _ = s.split_cost(partition_bound(s, np.arange(len(hw.words)), s.strikes, **bound_parts(length),
                                              threads=threads))
        seconds = time.perf_counter() - t
        shipped = orjson.loads((ROOT / "trees" / "hangman" / f"hangman-{length}.json").read_bytes())["result"]
        print(f"partition bound, {length} letters ({len(hw.words)} words): expected score <= "
              f"{WIN_POINTS - c / s.total_weight:.4f} in {seconds:.0f} s on {threads} thread(s); "
              f"shipped tree {shipped['expected_score']:.4f} "
              f"({'optimal' if shipped['optimal'] else 'best found'})")


def groupings(length: int, letter: str, part_size: int, group_nodes: int, keys: list[str]) -> None:
    """Searcher.partition_bound of the words of a length without `letter` (the miss class of that
    first letter: 9 lives), parts of at most `part_size` words in `group_nodes` nodes, the groups
    under 96 words pooled, for each grouping in `keys` (a position, or "vowels"): which grouping
    makes the larger bound, the cost a word (misses, and 20 for a word lost)."""
    hw = load_hangman_words(length)
    s = Searcher(hw, 10, memo_entries=16)
    everyone = np.arange(len(hw.words))
    missed = np.array([i for i, w in enumerate(hw.words) if letter not in w])
    for key in keys:
        group_by = None if key == "vowels" else int(key)
        t = time.perf_counter()
        bound = partition_bound(s, missed, s.strikes - 1, group_nodes=group_nodes, pooled_below=96,
                                  part_size=part_size, group_by=group_by, within=everyone)
        parts = [len(part) for part in partition(s.hw, everyone, 96, part_size, group_by)]
        print(f"partition bound, the {len(missed)} {length}-letter words without {letter}, grouped by "
              f"{key}, parts of {parts} words: {s.split_cost(bound)[0] / len(missed):.4f} a word in "
              f"{time.perf_counter() - t:.0f} s")


def proofs(lengths: list[int]) -> None:
    """The exact search over every word of each length, 10 lives, in a memo sized as the build
    sizes it for the length's proof budget."""
    from wordtree.hangman.driver import DEFAULT_MAX_NODES, PROOF_NODES
    from wordtree.hangman.memo import memo_capacity

    for length in lengths:
        hw = load_hangman_words(length)
        entries = memo_capacity(PROOF_NODES.get(length, DEFAULT_MAX_NODES))
        Searcher(hw, 10, memo_entries=1000).solve(np.arange(20), 11)  # compile
        t, searcher = timed_exact(hw, np.arange(len(hw.words)), 11, memo_entries=entries)
        nodes = searcher.nodes
        c, m = searcher.split_cost(searcher.solve(np.arange(len(hw.words)), 11)[0])
        print(f"exact search, all {len(hw.words)} words of {length} letters: {t:.1f} s (median of 3), "
              f"{nodes} nodes ({nodes / t / 1000:.0f}k nodes/s), expected score "
              f"{WIN_POINTS - c / len(hw.words):.4f}, peak memory "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def random_words(length: int, size: int):
    """(the words of `length`, `size` of them drawn from a seed fixed by both, in order)."""
    hw = load_hangman_words(length)
    return hw, np.sort(np.random.default_rng(length * 1000 + size).choice(len(hw.words), size, replace=False))


def memo_room(case: str, fractions: list[float]) -> None:
    """The exact search of random words (LENGTH:SIZE, as --families draws them), 10 lives, run in
    slices as a build runs it: with room for every memo entry, then in that fraction of the
    room, where the memo fills and is compacted (one run each: minutes)."""
    from wordtree.hangman.search import solve_in_slices

    hw, members = random_words(*map(int, case.split(":")))
    Searcher(hw, 10, memo_entries=1000).solve(members[:20], 11)  # compile
    room = None
    for fraction in [1.0, *fractions]:
        s = Searcher(hw, 10, memo_entries=20_000_000 if room is None else max(1000, int(room * fraction)))
        t = time.perf_counter()
        _, finished, spent = solve_in_slices(s, members, 11, 10**10, progress=False)
        assert finished
        room = room or s.memo_entries
        print(f"exact search, {len(members)} random {hw.length}-letter words, memo of {s.memo.e_hash.size} entries "
              f"({fraction:g} of the {room} it needs): {time.perf_counter() - t:.1f} s, {spent} nodes, "
              f"{s.memo.compactions} compactions")


def whole_prefix(length: int, nodes: int) -> None:
    """The first `nodes` nodes of the exact search of every word of the length, 10 lives (the
    search of a long proof, without its checkpoint): median of 3 runs, nodes per second and peak
    memory."""
    hw = load_hangman_words(length)
    everyone = np.arange(len(hw.words))
    Searcher(hw, 10, memo_entries=1000).solve(everyone[:20], 11)  # compile

    def run():
        Searcher(hw, 10, memo_entries=8_000_000).solve(everyone, 11, max_nodes=nodes)

    t = median_seconds(run, runs=3)
    print(f"the first {nodes} nodes of the exact search of all {len(hw.words)} {length}-letter words: "
          f"{t:.1f} s (median of 3), {nodes / t / 1000:.0f}k nodes/s, peak memory "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def calibrate(lengths: list[int]) -> None:
    """The tree build_length writes when its search does not finish (best_found_chooser, from a
    fresh memo), at lengths whose shipped tree is proven optimal: how far the heuristic falls short."""
    import orjson

    from wordtree.hangman.driver import EXACT_BELOW, SUBTREE_NODES
    from wordtree.hangman.search import Totals
    from wordtree.hangman.tree import build_tree

    for length in lengths:
        shipped = orjson.loads((ROOT / "trees" / "hangman" / f"hangman-{length}.json").read_bytes())
        if not shipped["result"]["optimal"]:
            print(f"{length} letters: the shipped tree is not proven optimal; nothing to compare with")
            continue
        hw = load_hangman_words(length)
        s = Searcher(hw, 10)
        t = time.perf_counter()
        counts = {"misses": 0, "lost": 0}
        build_tree(hw, np.arange(len(hw.words)), s.strikes, best_found_chooser(s, EXACT_BELOW, SUBTREE_NODES), counts)
        found = Totals(counts["misses"], counts["lost"], s.total_weight).as_dict()
        best, rule = shipped["result"]["expected_score"], shipped["baselines"]["frequency"]["expected_score"]
        print(f"{length} letters: best-found heuristic {found['expected_score']:.5f} in {time.perf_counter() - t:.0f} s, "
              f"proven optimum {best:.5f} (short by {best - found['expected_score']:.5f}), frequency rule {rule:.5f}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--bounds":
        threads = int(sys.argv[3]) if sys.argv[2] == "--threads" else 2
        partition_bounds([int(a) for a in sys.argv[2 if sys.argv[2] != "--threads" else 4 :]], threads)
    elif len(sys.argv) >= 3 and sys.argv[1] == "--proof":
        proofs([int(a) for a in sys.argv[2:]])
    elif len(sys.argv) >= 3 and sys.argv[1] == "--families":
        family_gain(sys.argv[2:])
    elif len(sys.argv) >= 7 and sys.argv[1] == "--groupings":
        groupings(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "--memo-room":
        memo_room(sys.argv[2], [float(a) for a in sys.argv[3:]])
    elif len(sys.argv) == 4 and sys.argv[1] == "--prefix":
        whole_prefix(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "--calibrate":
        calibrate([int(a) for a in sys.argv[2:]])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "--bot":
        bot_games(int(sys.argv[2]), sys.argv[3] if len(sys.argv) == 4 else "both")
    else:
        main()
