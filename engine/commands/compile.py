"""`wordtree compile`: every family's numba kernels compiled once into numba's cache, with a bar.

Each family is warmed up by the commands its users run, on small inputs of the same kinds (the
same word length, the same array types), each in its own process: a kernel compiles on its first
call for the types it is given, so running the real command paths is what compiles exactly the
signatures later first uses need. The processes share numba's cache folder (`NUMBA_CACHE_DIR`, or
`__pycache__` beside the installed modules), and each family's kernels are cached independently,
so up to `--jobs` of them run at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..errors import UsageError, UserError
from .common import summary

# family -> (what it compiles, about how many seconds the first time on 2 cores, its commands);
# a family in AFTER starts once those it names have finished (their kernels are its own);
# each command is an argv after `wordtree`, in which {A} {G} {W} {FIRST} {OUT} {GRID} are filled in
WARMUPS: dict[str, tuple[str, int, list[list[str]]]] = {
    "wordle": ("the exact search kernels (build, rank, next off the tree, grade, verify)", 60, [
        ["build", "--answers", "{A}", "--guesses", "{G}", "-o", "{OUT}/w.json", "--quiet"],
        ["build", "--mode", "hard", "--answers", "{A}", "--guesses", "{G}", "-o", "{OUT}/h.json", "--quiet"],
        ["rank", "--answers", "{A}", "--guesses", "{G}", "--top", "1", "-o", "{OUT}/r.tsv", "--quiet"],
        ["build", "--answers", "{A}", "--guesses", "{G}", "--weights", "{W}", "-o", "{OUT}/x.json", "--quiet"],
    ]),
    "codebreakers": ("the Mastermind and Bulls and Cows kernels", 20, [
        ["build", "mastermind", "--quiet", "-o", "{OUT}/m.json"],
    ]),
    "hangman": ("the Hangman search kernels", 25, [
        ["build", "hangman", "--length", "2", "-o", "{OUT}/h2.json", "--quiet"],
    ]),
    # the heuristic's walk is what a lookup below a strategy file's stored top runs (the shipped
    # full-list strategy's: `next --game dordle` two guesses in), on the same array types
    "dordle": ("the Dordle search and heuristic kernels (build, heuristic, a strategy's lookups)", 47, [
        ["dordle", "build", "--answers", "{A}", "--guesses", "{A}", "-o", "{OUT}/d.json", "--quiet"],
        ["dordle", "heuristic", "--answers", "{A}", "--guesses", "{G}", "--first", "{FIRST}",
         "-o", "{OUT}/ds.json"],
    ]),
    # the player's mid-game guesses use numpy alone; its endgame, the exact and Dordle searches
    "multiboard": ("the multi-board player's endgame (the Dordle and exact searches' kernels)", 30, [
        ["next", "--game", "multiboard", "--boards", "2", "roate:YBYBB/GBBYY", "music:BBBYY/BYBBB",
         "rebut:YBBBB/GGGGG"],
    ]),
    "absurdle": ("the Absurdle kernels", 15, [
        ["build", "absurdle", "--answers", "{A}", "--guesses", "{G}", "-o", "{OUT}/a.json", "--quiet"],
    ]),
    "puzzles": ("the crossword and Boggle kernels", 35, [
        ["crossword", "{GRID}"],
        ["boggle", "perslatgsineters"],
    ]),
}

AFTER = {"multiboard": ("wordle", "dordle")}


def add_compile(sub) -> None:
    p = sub.add_parser(
        "compile", help=summary("compile"),
        description="Compile every family's kernels once into numba's cache (a bar shows how far it has come), "
                    "so that later first uses start at once. A second run finds them cached.",
        epilog="example: wordtree compile --only wordle hangman")
    p.add_argument("--only", nargs="+", metavar="FAMILY", choices=sorted(WARMUPS),
                   help="compile only these families: " + ", ".join(WARMUPS))
    p.add_argument("--jobs", type=int, metavar="N",
                   help="families compiled at once, each in its own process (default: the cores this process may use)")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.add_argument("--json", action="store_true", help="print the result as JSON: each family, its seconds, its exit code")


def _small_lists(folder: Path) -> dict[str, str]:
    """Small word lists of the kinds the real ones are (five letters, the shipped answers), and
    an opener among them."""
    from ..words import load_words

    from ..data import wordlists_dir

    answers = list(load_words(str(wordlists_dir() / "wordle-answers-2315.txt")).words[::115])  # 21 answers
    guesses = answers + list(load_words(str(wordlists_dir() / "wordle-allowed-12972.txt")).words[::400])
    paths = {"A": folder / "answers.txt", "G": folder / "guesses.txt", "W": folder / "weights.tsv",
             "GRID": folder / "grid.txt"}
    paths["A"].write_text("\n".join(answers) + "\n")
    paths["G"].write_text("\n".join(dict.fromkeys(guesses)) + "\n")
    paths["W"].write_text("".join(f"{word}\t{1 + i % 3}\n" for i, word in enumerate(answers)))
    paths["GRID"].write_text("....\n.##.\n....\n")
    return {**{key: str(path) for key, path in paths.items()}, "FIRST": answers[0]}


def _commands(family: str, fill: dict[str, str]) -> list[list[str]]:
    out = []
    for argv in WARMUPS[family][2]:
        words = []
        for word in argv:
            for key, value in fill.items():
                word = word.replace("{" + key + "}", value)
            words.append(word)
        out.append(words)
    return out


def _run_family(family: str, fill: dict[str, str]) -> dict:
    start = time.perf_counter()
    compiled = False
    for argv in _commands(family, fill):
        # the small lists' pattern tables in a cache of their own, so that they are computed here
        # (their kernel compiled, whatever the user's cache holds) and the user's is left as it was
        done = subprocess.run([sys.executable, "-m", "wordtree", *argv], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env=dict(os.environ, WORDTREE_CACHE_DIR=str(Path(fill["OUT"]) / "patterns")))
        compiled = compiled or "compiling" in done.stderr
        if done.returncode != 0:
            error = (done.stderr.strip().splitlines() or [""])[-1]
            return {"family": family, "seconds": round(time.perf_counter() - start, 1), "exit": done.returncode,
                    "compiled": compiled, "error": error}
    return {"family": family, "seconds": round(time.perf_counter() - start, 1), "exit": 0, "compiled": compiled}


def run_compile(args) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    families = [f for f in WARMUPS if f in args.only] if args.only else list(WARMUPS)  # AFTER: in this order
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    jobs = min(args.jobs or cores, len(families))
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from ..progress import progress_bar

    seconds = sum(WARMUPS[f][1] for f in families)
    if not args.quiet and not args.json:
        print(f"compiling {len(families)} families' kernels into numba's cache, {jobs} at once "
              f"(about {max(1, round(seconds / jobs / 60))} min on 2 cores the first time; cached for later runs)",
              file=sys.stderr)
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="wordtree-compile-") as folder:
        fill = {**_small_lists(Path(folder)), "OUT": folder}
        bar = progress_bar(total=len(families), desc="compile", unit="family", show=not (args.quiet or args.json))
        futures: dict = {}

        def family_after_its_own(family: str) -> dict:
            for before in AFTER.get(family, ()):
                if before in futures:
                    futures[before].result()  # submitted earlier, so running or done: no deadlock
            return _run_family(family, fill)

        with bar, ThreadPoolExecutor(max_workers=jobs) as pool:
            for family in families:
                futures[family] = pool.submit(family_after_its_own, family)
            for result in (future.result() for future in as_completed(futures.values())):
                results[result["family"]] = result
                bar.set_postfix_str(f"{result['family']} {result['seconds']:.0f} s")
                bar.update(1)
    failed = [r for r in results.values() if r["exit"]]
    if args.json:
        import orjson

        sys.stdout.buffer.write(orjson.dumps({"families": [results[f] for f in families]}) + b"\n")
    elif not args.quiet:
        for f in families:
            r = results[f]
            state = "failed: " + r["error"] if r["exit"] else ("compiled" if r["compiled"] else "already cached")
            print(f"{f:<13} {r['seconds']:>6.1f} s  {state}  ({WARMUPS[f][0]})")
    if failed:
        raise UserError(f"compile: {failed[0]['family']} failed: {failed[0]['error']}")
    return 0
