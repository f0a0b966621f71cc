"""What every benchmark here shares: the median time of a few runs (the machine is shared and
noisy, so one run proves little). Run as a script, it times the start of a build command:

    python bench/timing.py [--runs 7] [--breakdowns 5] [-- build options, e.g. --mode hard]
    python bench/timing.py --against ../older-checkout [--runs 9] [-- build options]

It prints the median wall and CPU seconds of --runs whole processes of
`python cli.py build --quiet -o FILE` (SALET, Wordle normal mode, unless options follow `--`),
then the median of --breakdowns runs of where one such process spends its time: Python's own
start, the imports, the arguments (argparse and the command's checks, up to its call of the
engine), the game (its word lists) and its pattern matrix, loading the compiled kernels from
numba's cache (the first load of a process also sets up numba's runtime, NRT), the rest of the
solver's setup, the search, the document's stats, writing the file, the rest (the report) and the
interpreter's exit.
"Before the search" adds up everything before the search: the first six parts. A first run, not
counted, warms the caches; the load average is printed, since other work on the machine slows
every figure.
With --against, the same whole processes of another checkout (its .venv's Python if it has one)
run alternately with this one's, and both medians are printed: how to compare two versions on a
shared machine.

The Python that runs this script runs the builds, and `cli.py` takes the installed `wordtree`
where there is one: run by the Python of a virtual environment where the wheel is installed,
this times the installed package (its modules' bytecode compiled at install, which an editable
checkout under PYTHONDONTWRITEBYTECODE=1 compiles on every run instead).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("python start", "imports", "arguments", "game+matrix", "kernel load", "solver setup", "search", "document",
         "write", "other", "exit")
BEFORE_SEARCH = PARTS[:6]


def median_seconds(fn, runs: int, clock=time.perf_counter) -> float:
    """The median over `runs` calls of fn() of the time `clock` measures (wall by default)."""
    import statistics

    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def whole_process(options: list[str], output: str, root: Path = ROOT, python: str = sys.executable
                  ) -> tuple[float, float]:
    """(wall, CPU) seconds of one `python cli.py build --quiet -o output [options]` process (of the
    checkout at `root`, run by `python`)."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([python, str(root / "cli.py"), "build", "--quiet", "-o", output, *options],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def breakdown(options: list[str], output: str) -> dict:
    """The parts of one build process, each in seconds (a child process runs `child`)."""
    import resource
    import subprocess

    env = dict(os.environ, WORDTREE_SPAWNED=repr(time.time()))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = subprocess.run([sys.executable, __file__, "--child", output, "--", *options], check=True,
                          capture_output=True, text=True, env=env).stdout
    ended, after = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    parts = json.loads(text.strip().splitlines()[-1])
    finished, used = parts.pop("finished")  # the time and the CPU when the command was done
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    parts["exit"] = [ended - finished, cpu - used]  # the interpreter's exit
    return parts


def child(output: str, options: list[str]) -> None:
    """One build, as the command runs it, with its parts timed: one JSON line of
    {part: [wall, CPU]} (CPU: every thread of the process)."""
    begun, python_cpu = time.time(), time.process_time()
    spawned = float(os.environ.get("WORDTREE_SPAWNED", begun))
    clock = time.perf_counter
    t0 = clock()
    import wordtree.commands

    # what commands.main does first, before the imports here (an older version without it: its
    # main does the same later, and BLAS's threads are kept from spinning as main keeps them)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    getattr(wordtree.commands, "command_process", lambda: None)()
    import wordtree.commands.build  # noqa: F401
    import wordtree.exact.build
    import wordtree.exact.solver
    import wordtree.wordle.patterns
    import wordtree.wordle.tree
    from numba.core import caching  # its loader, as guard_cache left it (imported by the kernels)

    wall, cpu = dict.fromkeys(PARTS, 0.0), dict.fromkeys(PARTS, 0.0)
    wall["python start"], cpu["python start"] = begun - spawned, python_cpu
    wall["imports"], cpu["imports"] = clock() - t0, time.process_time() - python_cpu

    def timed(owner, name: str, part: str, inside=()):
        """Time each call of owner.name as `part`, less the parts `inside` it (counted apart,
        whichever thread ran them: the kernels load in the search's threads)."""
        inner = getattr(owner, name, None)
        if inner is None:  # an older version without it (to time a version before, run its own copy)
            return

        def wrapper(*args, **kwargs):
            start, used = clock(), time.process_time()
            before = [(wall[p], cpu[p]) for p in inside]
            try:
                return inner(*args, **kwargs)
            finally:
                wall[part] += clock() - start - sum(wall[p] - w for p, (w, _) in zip(inside, before))
                cpu[part] += time.process_time() - used - sum(cpu[p] - c for p, (_, c) in zip(inside, before))

        setattr(owner, name, wrapper)

    timed(caching.Cache, "load_overload", "kernel load")
    timed(wordtree.commands.build, "load_game", "game+matrix")
    timed(wordtree.wordle.patterns, "pattern_matrix", "game+matrix")
    timed(wordtree.exact.solver.Solver, "__init__", "solver setup", ("kernel load",))
    timed(wordtree.exact.build, "answer_depths", "document")
    timed(wordtree.exact.build, "exact_tree", "search", ("kernel load", "solver setup", "document"))
    search = wordtree.exact.build.exact_tree
    entered = []

    def enter(*args, **kwargs):  # when the build reaches the engine: what came before is "arguments"
        entered.append((clock(), time.process_time()))
        return search(*args, **kwargs)

    wordtree.exact.build.exact_tree = enter
    timed(wordtree.wordle.tree, "make_document", "document")
    timed(wordtree.wordle.tree, "write_tree", "write")
    t1, used = clock(), time.process_time()
    stdout, sys.stdout = sys.stdout, open(os.devnull, "w")
    try:
        sys.argv = ["wordtree", "build", "--quiet", "-o", output, *options]
        end, wordtree.commands._end_process = wordtree.commands._end_process, lambda code: None
        code = wordtree.commands.main()  # as the command's own process runs it, up to its end
    finally:
        sys.stdout = stdout
    if code:
        raise SystemExit(f"the build failed (exit {code})")
    (entered_wall, entered_cpu), *_ = entered
    wall["arguments"] = entered_wall - t1 - wall["game+matrix"]
    cpu["arguments"] = entered_cpu - used - cpu["game+matrix"]
    wall["other"] = clock() - t1 - sum(wall[p] for p in PARTS[2:9])
    cpu["other"] = time.process_time() - used - sum(cpu[p] for p in PARTS[2:9])
    parts = {part: [wall[part], cpu[part]] for part in PARTS[:-1]}
    print(json.dumps(parts), flush=True)
    print(json.dumps({**parts, "finished": [time.time(), time.process_time()]}), flush=True)
    end(code)  # the process ends as a command's does (commands._end_process)


def alternate(other: Path, options: list[str], runs: int) -> None:
    """`runs` whole processes of this checkout and of `other`, one after the other (so that the
    machine's changing load falls on both), with each one's median wall and CPU seconds."""
    import statistics

    if not (other / "cli.py").is_file():
        raise SystemExit(f"{other}: not a checkout (no cli.py)")
    venv = other / ".venv" / "bin" / "python"
    sides = {"this": (ROOT, sys.executable), str(other): (other, str(venv) if venv.is_file() else sys.executable)}
    with tempfile.TemporaryDirectory() as folder:
        output = str(Path(folder) / "tree.json")
        for root, python in sides.values():  # a first run each: the caches warm (a cold one compiles)
            whole_process(options, output, root, python)
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        times = {name: [] for name in sides}
        for _ in range(runs):
            for name, (root, python) in sides.items():
                times[name].append(whole_process(options, output, root, python))
    for name, rows in times.items():
        walls, cpus = [w for w, _ in rows], [c for _, c in rows]
        print(f"{name}: build {' '.join(options) or '(SALET, normal)'}, {runs} runs: median "
              f"{statistics.median(walls):.3f} s wall (min {min(walls):.3f}, max {max(walls):.3f}), "
              f"{statistics.median(cpus):.3f} s CPU")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="whole-process runs (default 7)")
    parser.add_argument("--breakdowns", type=int, default=5, help="runs timed part by part (default 5)")
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="another checkout (say a worktree of an older commit, with its own .venv), run "
                             "alternately with this one: both medians, and no breakdown")
    parser.add_argument("--child", metavar="OUTPUT", help=argparse.SUPPRESS)
    parser.add_argument("options", nargs="*", help="build options after --, e.g. -- --mode hard")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.options)
        return
    # (imported here, not at the top: a breakdown's child times a build's start, which does not
    # import it; nor resource and subprocess, imported where they are used)
    import statistics

    if args.against:
        alternate(Path(args.against).resolve(), args.options, args.runs)
        return
    with tempfile.TemporaryDirectory() as folder:
        output = str(Path(folder) / "tree.json")
        whole_process(args.options, output)  # a first run: the caches warm (a cold one compiles)
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        runs = [whole_process(args.options, output) for _ in range(args.runs)]
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"build {' '.join(args.options) or '(SALET, normal)'}, whole process, {args.runs} runs: median "
              f"{statistics.median(walls):.2f} s wall (min {min(walls):.2f}, max {max(walls):.2f}), "
              f"{statistics.median(cpus):.2f} s CPU")
        rows = [breakdown(args.options, output) for _ in range(args.breakdowns)]
    print(f"where the time goes, median of {args.breakdowns} runs (s):        wall    CPU")
    medians = {part: [statistics.median(row[part][i] for row in rows) for i in (0, 1)] for part in PARTS}
    for part in PARTS:
        print(f"  {part:<18} {medians[part][0]:6.3f} {medians[part][1]:6.3f}")
    for label, chosen in (("before the search", BEFORE_SEARCH), ("sum", PARTS)):
        print(f"  {label:<18} {sum(medians[p][0] for p in chosen):6.3f} {sum(medians[p][1] for p in chosen):6.3f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
