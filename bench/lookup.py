"""How fast is a lookup? `wordtree next` as users run it (a fresh process) and the walk in process.

Uses trees/wordle-salet-normal.json when shipped, else builds a greedy Wordle tree with the
pattern matrix into a temporary folder. Prints medians of 10 runs, the interpreter's own
start-up for comparison, the ratio against a straightforward lookup (stdlib json, full game with
both lists), and peak memory.

    python bench/lookup.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wordtree.games import get_game  # noqa: E402
from wordtree.wordle.player import DEFAULT_TREE, Position, lookup  # noqa: E402
from wordtree.wordle.tree import game_for, make_document, read_tree, write_tree  # noqa: E402

RUNS = 10


def greedy_wordle_tree(game) -> dict:
    """A quick stand-in tree: at each node the guess with the smallest sum of squared bucket sizes."""
    import numpy as np

    from wordtree.wordle.patterns import pattern_matrix

    matrix = pattern_matrix(game).matrix.astype(np.int64)
    n_codes = game.n_codes

    def build(cands: np.ndarray) -> dict:
        if len(cands) == 1:
            return {"guess": game.answers[cands[0]]}
        sub = matrix[:, cands]
        offsets = sub + (np.arange(len(game.guesses)) * n_codes)[:, None]
        counts = np.bincount(offsets.ravel(), minlength=len(game.guesses) * n_codes).reshape(-1, n_codes)
        in_play = np.isin(np.arange(len(game.guesses)), game.answer_guess_ids[cands])
        score = (counts.astype(np.int64) ** 2).sum(axis=1) * 2 - in_play  # a candidate wins ties
        g = int(np.argmin(score))
        node = {"guess": game.guesses[g]}
        branches = {}
        for code in np.unique(sub[g]):
            if code != game.win_code:
                branches[game.pattern_text(int(code))] = build(cands[sub[g] == code])
        if branches:
            node["next"] = branches
        return node

    return build(np.arange(len(game.answers)))


def median_ms(fn) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def naive_lookup(path, steps):
    """The straightforward way: stdlib json, the full game (both lists), filter from scratch."""
    doc = json.loads(Path(path).read_text())
    doc["_path"] = str(path)
    game = game_for(doc)
    node, cands = doc["root"], list(game.answers)
    for step in steps:
        guess, pattern = step.split(":")
        code = game.parse_pattern(pattern)
        cands = [a for a in cands if game.feedback(guess, a) == code]
        node = node["next"][game.pattern_text(code)]
    return node["guess"], len(cands)


def main() -> None:
    tmp = tempfile.TemporaryDirectory()
    if DEFAULT_TREE.is_file():
        path = DEFAULT_TREE
    else:
        print(f"{DEFAULT_TREE.name} not shipped yet: building a greedy Wordle tree for the benchmark")
        game = get_game("wordle")
        path = Path(tmp.name) / "wordle-greedy.json"
        write_tree(path, make_document(game, greedy_wordle_tree(game), objective="total", optimal=False, proof="none"))
    doc = read_tree(path)
    position = Position(doc)
    answer = position.game.answers[100]
    steps = []
    node = doc["root"]
    while True:  # the steps for one answer, all but the winning one
        pattern = position.game.pattern_text(position.game.feedback(node["guess"], answer))
        if pattern == "G" * len(answer):
            break
        steps.append(f"{node['guess']}:{pattern}")
        node = node["next"][pattern]
    print(f"tree: {path} ({path.stat().st_size / 1e6:.2f} MB), answer {answer!r}, steps {' '.join(steps) or '(none)'}")

    cli = [sys.executable, str(ROOT / "cli.py"), "next", str(path)]
    for label, argv in (("next (root)", cli), (f"next ({len(steps[:2])} steps)", cli + steps[:2])):
        out = subprocess.run(argv, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        ms = median_ms(lambda: subprocess.run(argv, capture_output=True))
        print(f"{label:<24} subprocess  median {ms:7.1f} ms   -> {out.stdout.split()[0]}")
    bare = median_ms(lambda: subprocess.run([sys.executable, "-c", "pass"], capture_output=True))
    imports = median_ms(lambda: subprocess.run([sys.executable, "-c", "import wordtree.wordle.player, argparse, orjson"],
                                               capture_output=True, cwd=ROOT))
    print(f"{'python -c pass':<24} subprocess  median {bare:7.1f} ms   (interpreter start-up alone)")
    print(f"{'imports only':<24} subprocess  median {imports:7.1f} ms")
    # VmHWM (Linux) is the peak RSS of this program alone: ru_maxrss would include the pages
    # of this benchmark, inherited through fork
    # (the command's own end, os._exit, is put off so that the peak can be read after it)
    measure = ("import runpy, sys; sys.argv = sys.argv[1:]\n"
               "sys.path.insert(0, sys.argv[0].rpartition('/')[0])\n"
               "import cli, wordtree.commands; wordtree.commands._end_process = lambda code: None\n"
               "try: runpy.run_path(sys.argv[0], run_name='__main__')\n"
               "except SystemExit: pass\n"
               "print(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')), file=sys.stderr)")
    rss = subprocess.run([sys.executable, "-c", measure, *cli[1:], *steps[:2]], capture_output=True, text=True)
    print(f"peak RSS of one `next` process: {int(rss.stderr.split()[-2]) / 1024:.1f} MB")

    two = steps[:2]
    fast = median_ms(lambda: lookup(read_tree(path), two))
    slow = median_ms(lambda: naive_lookup(path, two))
    read = median_ms(lambda: read_tree(path))
    walk_doc = read_tree(path)
    walk = median_ms(lambda: lookup(walk_doc, two))
    print(f"{'in process: read + walk':<24} median {fast:7.1f} ms   (read {read:.1f} ms, walk {walk:.1f} ms)")
    print(f"{'naive (json, full game)':<24} median {slow:7.1f} ms   ratio {slow / fast:.1f}x")
    tracemalloc.start()
    lookup(read_tree(path), two)
    print(f"in-process peak traced memory: {tracemalloc.get_traced_memory()[1] / 1e6:.1f} MB")
    tracemalloc.stop()


if __name__ == "__main__":
    main()
