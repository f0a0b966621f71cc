"""Multi-board benchmark (Quordle, Octordle, Sedecordle, Duotrigordle): the time of `next` at each
position of sampled games and of a whole sampled game, games per second, peak memory.

    python bench/multiboard.py [--games 20] [--seed 2] [--presets quordle,octordle,...] [--cli]

For each preset, --games games of the seeded sample (sample.draw) are played by the player
(version 2, what `build` measures): the time per game (median and mean) and games per second.
Then at every position of those games (before each guess), `next` as the command computes it: a
fresh MultiPosition, the steps played, suggest() (which decides each earlier state of the game
once, as the sampled player does, then the current one), with the player's caches emptied
before each call as in a fresh process: the median, 90th percentile and largest time per call, and the guess checked against the sampled game's. The clock starts after the
pattern matrix, the numba kernels and the player's shortlist are loaded and one game (of seed
+ 1) is played (the player's set-up is printed apart); --cli times one `wordtree next` process at the last position of the first game
(start-up included). Peak memory: the process's largest resident set (getrusage).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PRESETS = ("quordle", "octordle", "sedecordle", "duotrigordle")


def feedback(game, matrix, g, answers, solved) -> str:
    return "/".join("=" * game.length if solved[b] else game.pattern_text(int(matrix[g, a]))
                    for b, a in enumerate(answers))


def cold(player) -> None:
    """Empty what the player keeps between games (score vectors, the Dordle search's exact values),
    as a fresh `next` process has it."""
    player._cache.clear()
    search = getattr(player._endgame, "_search", None)
    if search is not None:
        search.memo.clear()
        search.v1_cache.clear()
        search.pending.clear()


def bench_preset(name: str, games: int, seed: int, cli: bool) -> dict:
    from wordtree.multiboard import sample
    from wordtree.multiboard.player import Player
    from wordtree.multiboard.position import MultiPosition
    from wordtree.multiboard.spec import load, spec_for

    game, matrix = load(None)
    spec = spec_for(name, None, None)
    t0 = time.perf_counter()
    player = Player(game, matrix)
    setup = time.perf_counter() - t0
    tuples = sample.draw(len(game.answers), spec.boards, seed, games)
    sample.play_game(player, sample.draw(len(game.answers), spec.boards, seed + 1, 1)[0], spec.cap)  # warm-up
    per_game, played = [], []
    for answers in tuples:
        t = time.perf_counter()
        length, guesses = sample.play_game(player, answers, spec.cap)
        per_game.append(time.perf_counter() - t)
        played.append(guesses)
    per_next, mismatches, last_steps = [], 0, None
    for answers, guesses in zip(tuples, played):
        steps, solved = [], [False] * spec.boards
        for g in guesses:
            cold(player)
            t = time.perf_counter()
            p = MultiPosition(game, matrix, spec, player)
            for step in steps:
                p.play(*step)
            s = p.suggest()
            per_next.append(time.perf_counter() - t)
            mismatches += s.guess != game.guesses[g]
            steps.append((s.guess, feedback(game, matrix, g, answers, solved)))
            solved = [solved[b] or int(matrix[g, a]) == game.win_code for b, a in enumerate(answers)]
        if last_steps is None:
            last_steps = steps[:-1]
    out = {"preset": name, "games": games, "setup_s": setup, "game_median_s": statistics.median(per_game),
           "game_mean_s": statistics.fmean(per_game), "games_per_s": games / sum(per_game),
           "next_calls": len(per_next), "next_median_s": statistics.median(per_next),
           "next_p90_s": sorted(per_next)[int(0.9 * (len(per_next) - 1))], "next_max_s": max(per_next),
           "mismatches": mismatches}
    if cli:
        t = time.perf_counter()
        run = subprocess.run([sys.executable, str(ROOT / "cli.py"), "next", "--game", name,
                              *[f"{w}:{f}" for w, f in last_steps]], capture_output=True, text=True)
        out["cli_s"] = time.perf_counter() - t
        out["cli_rc"] = run.returncode
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="sampled games a preset (default 20)")
    parser.add_argument("--seed", type=int, default=2, help="the sample's seed (default 2)")
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated (default all four)")
    parser.add_argument("--cli", action="store_true", help="also time one `wordtree next` process a preset")
    args = parser.parse_args()
    names = [x.strip() for x in args.presets.split(",") if x.strip()]
    bad = [x for x in names if x not in PRESETS]
    if bad or args.games < 1:
        print(f"bench/multiboard.py: unknown preset {bad[0]!r}" if bad else "--games must be at least 1",
              file=sys.stderr)
        raise SystemExit(2)
    from wordtree.multiboard.spec import load

    load(None)  # the pattern matrix, before any clock
    print(f"{'preset':<13} {'games':>5} {'s/game med':>10} {'s/game mean':>11} {'games/s':>8} {'next calls':>10} "
          f"{'next med':>9} {'next p90':>9} {'next max':>9} {'same':>5}" + ("  cli s" if args.cli else ""))
    for name in names:
        r = bench_preset(name, args.games, args.seed, args.cli)
        print(f"{r['preset']:<13} {r['games']:>5} {r['game_median_s']:>10.4f} {r['game_mean_s']:>11.4f} "
              f"{r['games_per_s']:>8.1f} {r['next_calls']:>10} {r['next_median_s']:>9.4f} {r['next_p90_s']:>9.4f} "
              f"{r['next_max_s']:>9.4f} {'yes' if r['mismatches'] == 0 else r['mismatches']:>5}"
              + (f"  {r['cli_s']:.2f}" + ("" if r["cli_rc"] == 0 else f" (exit {r['cli_rc']})") if args.cli else "")
              + f"   (player set-up {r['setup_s']:.2f} s)", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (largest resident set): {peak:.0f} MiB")


if __name__ == "__main__":
    main()
