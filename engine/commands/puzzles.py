"""The sister puzzles: `crossword` and `boggle`."""

from __future__ import annotations

import sys

from ..errors import UsageError, UserError
from .common import cache_dir_option, summary

CROSSWORD_EPILOG = """\
two forms:
  wordtree crossword GRID [--words FILE] [-o OUT.json|OUT.png]
      GRID: '.' or '_' open, a letter pre-filled, '#' (any other character) a block, every
      row the same length. Prints the status, the filled grid and the numbered entries.
  wordtree crossword STRUCTURE WORDS [OUTPUT.png]
      the command and files of CS50 AI's "crossword" project: in STRUCTURE '_' is open and
      any other character (letters too) a block, short rows are padded with blocks; WORDS is
      one word per line, any case. Prints the grid as that project does (capitals, blocks
      as █) or "No solution.", and writes OUTPUT when given.
The CS50 form is taken when WORDS is given, or with --format cs50 (the words then come from
--words, default enable1.txt). Exit status: 0 filled, 3 proven impossible, 4 timeout.
"""


def add_crossword(sub) -> None:
    import argparse

    p = sub.add_parser("crossword", help=summary("crossword"), epilog=CROSSWORD_EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("grid", metavar="GRID|STRUCTURE",
                   help="text grid: '.' or '_' open, a letter pre-filled, '#' (anything else) a block; "
                        "or a CS50 structure file (see below)")
    p.add_argument("cs50_words", nargs="?", metavar="WORDS", help="CS50 form: the word list, one word per line, any case")
    p.add_argument("cs50_output", nargs="?", metavar="OUTPUT",
                   help="CS50 form: also write the filled grid to OUTPUT.png (or OUTPUT.json)")
    p.add_argument("--format", choices=["grid", "cs50"],
                   help="how to read GRID: grid, or cs50 (the default when WORDS is given, else grid)")
    p.add_argument("--words", metavar="FILE", help="word list (default: enable1.txt)")
    p.add_argument("--scores", metavar="FILE", help="word quality: 'word;score' or 'word<TAB>count' lines (default: word-frequency.tsv)")
    p.add_argument("--any", action="store_true", help="take the first fill, without optimizing word quality")
    p.add_argument("--seed", type=int, default=0, help="seed of the randomized restarts (default: 0)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="time limit (default: 10)")
    p.add_argument("-o", "--output", metavar="OUT", help="also write OUT.json or OUT.png")
    cache_dir_option(p, "word-index")


def _crossword_form(args) -> tuple[str, str | None, str | None, str]:
    """(form, word list, output, how the output was named) from either form of the command line."""
    form = args.format or ("cs50" if args.cs50_words is not None else "grid")
    if form == "grid" and args.cs50_words is not None:
        raise UsageError("WORDS [OUTPUT] after the grid is the CS50 form: drop --format grid, "
                         "or give --words FILE and -o OUT")
    if args.cs50_words is not None and args.words:
        raise UsageError("the word list is given twice: WORDS and --words")
    if args.cs50_output is not None and args.output:
        raise UsageError("the output is given twice: OUTPUT and -o")
    if args.cs50_output is not None:
        return form, args.cs50_words, args.cs50_output, "OUTPUT"
    return form, args.cs50_words or args.words, args.output, "-o"


def run_crossword(args) -> int:
    from pathlib import Path

    from ..puzzles import crossword as cw

    form, words, output, named = _crossword_form(args)
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {args.seed}")
    kind = Path(output).suffix.lower() if output else None
    if kind not in (None, ".json", ".png"):
        raise UsageError(f"{named} {output}: unknown output type, use a .json or .png file name")
    if output and not Path(output).resolve().parent.is_dir():
        raise UserError(f"{named} {output}: the folder does not exist")
    if kind == ".png":
        try:
            import PIL  # noqa: F401
        except ImportError:
            raise UserError("a .png output needs Pillow, which wordtree depends on but is missing here: "
                            "pip install pillow") from None
    if form == "cs50":
        rows = cw.read_structure(args.grid)  # its lone open cells stay open in what is shown
        solved_rows = cw.fill_rows(rows)
    else:
        rows = solved_rows = cw.read_grid(args.grid)
    slots = cw.find_slots(solved_rows, args.grid)
    index = cw.word_index(words, args.scores, args.cache_dir)
    result = cw.fill(cw.build_problem(solved_rows, slots, index), seed=args.seed, timeout=args.timeout,
                     optimize=not args.any)
    if form == "grid":
        print(cw.render_text(rows, slots, result, index))
    elif result.status == "filled":
        print(cw.render_cs50(rows, slots, result.words))
    elif result.status == "impossible":
        print(cw.NO_SOLUTION)
    else:
        print(f"No solution found within {args.timeout:g} s (--timeout SECONDS gives it longer).")
    if kind == ".json":
        cw.write_json(output, cw.to_json(rows, slots, result, index, args.seed, args.timeout))
    elif kind == ".png" and (form == "grid" or result.status == "filled"):  # CS50 saves solutions only
        cw.write_png(output, rows, slots, result.words)
    return {"filled": 0, "impossible": 3, "timeout": 4}[result.status]


def add_boggle(sub) -> None:
    p = sub.add_parser("boggle", help=summary("boggle"))
    p.add_argument("board", nargs="?", metavar="BOARD", help="the letters row by row, q (or qu) for Qu (e.g. perslatgsineters); a letter the word list lacks is a "
                        "cell no word passes through")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--random", type=int, metavar="N", help="score N random boards and report the speed")
    mode.add_argument("--best", action="store_true", help="search for the highest-scoring boards")
    p.add_argument("--rows", type=int, help="rows of the board (default: square, or 4 with --random/--best)")
    p.add_argument("--cols", type=int, help="columns of the board")
    p.add_argument("--words", metavar="FILE", help="word list, any alphabet (default: enable2k.txt)")
    p.add_argument("--min-length", type=int, default=3, metavar="N", help="shortest word that counts (default: 3)")
    p.add_argument("--json", action="store_true",
                   help="print the board's words as JSON, with \"paths\": per word the cells that spell it, "
                        "as row-major indices (row * cols + col, 0 the top left cell)")
    p.add_argument("--seed", type=int, default=0, help="random seed for --random and --best (default: 0)")
    p.add_argument("--time", type=float, default=60.0, metavar="SECONDS", help="--best: time limit (default: 60)")
    p.add_argument("--restarts", type=int, metavar="N", help="--best: stop after N annealing runs instead")
    p.add_argument("--steps", type=int, default=30_000, metavar="N", help="--best: annealing steps per run (default: 30000)")
    p.add_argument("--top", type=int, default=5, metavar="K", help="--best: boards to print (default: 5)")
    cache_dir_option(p, "trie")


def run_boggle(args) -> int:
    if (args.board is not None) + (args.random is not None) + args.best != 1:
        raise UsageError("boggle needs exactly one of BOARD, --random N or --best")
    if args.json and args.board is None:
        raise UsageError("--json goes with a BOARD")
    for name, value, least in (("--min-length", args.min_length, 1), ("--random", args.random, 1),
                               ("--restarts", args.restarts, 1), ("--steps", args.steps, 1), ("--top", args.top, 1),
                               ("--seed", args.seed, 0)):
        if value is not None and value < least:
            raise UsageError(f"{name} must be at least {least}, got {value}")
    if not args.time > 0:
        raise UsageError(f"--time must be a positive number of seconds, got {args.time}")
    from ..puzzles import boggle

    trie = boggle.load_trie(args.words, args.cache_dir)
    if args.board is not None:
        for flag, value in (("--rows", args.rows), ("--cols", args.cols)):
            if value is not None and value < 1:
                raise UserError(f"board: {flag} must be at least 1, got {value}")
        board = boggle.parse_board(args.board, args.rows, args.cols, trie.alphabet)
        solution = boggle.solve(board, trie, args.min_length)
        if args.json:
            import orjson

            sys.stdout.buffer.write(orjson.dumps(boggle.solution_json(solution)) + b"\n")
        else:
            print(boggle.solution_text(solution, args.min_length))
        return 0
    rows = next(v for v in (args.rows, args.cols, 4) if v is not None)
    cols = rows if args.cols is None else args.cols
    boggle.check_size(rows, cols)
    if args.random is not None:
        return _boggle_random(boggle, trie, args, rows, cols)
    return _boggle_best(boggle, trie, args, rows, cols)


def _boggle_random(boggle, trie, args, rows: int, cols: int) -> int:
    import time

    import numpy as np
    from numba import get_num_threads

    from ..numba_cache import compile_note, compile_seconds

    rng = np.random.default_rng(args.seed)
    best_score, best_cells, total, scoring, compiling = -1, "", 0, 0.0, 0.0
    start = time.perf_counter()
    for lo in range(0, args.random, 100_000):
        compiled = compile_seconds()
        boards = boggle.random_boards(rng, min(100_000, args.random - lo), rows, cols, trie)
        t, rolled = time.perf_counter(), compile_seconds()
        scores, _ = boggle.score_boards(boards, trie, rows, cols, args.min_length)
        scoring += time.perf_counter() - t - (compile_seconds() - rolled)
        compiling += compile_seconds() - compiled
        total += int(scores.sum())
        if scores.max() > best_score:
            best_score, best_cells = int(scores.max()), boggle.cells_of(boards[scores.argmax()], trie)
    elapsed, note = time.perf_counter() - start - compiling, compile_note(compiling)
    dice = "standard dice" if boggle.dice_for(rows, cols, trie) else "uniform letters"
    print(f"{args.random} random {rows}x{cols} boards ({dice}), seed {args.seed}, {get_num_threads()} threads")
    print(f"scored in {scoring:.3f} s: {args.random / scoring:,.0f} boards/second "
          f"({args.random / elapsed:,.0f} counting the making of the boards){note}")
    print(f"mean score {total / args.random:.2f}; best board {best_cells} with {best_score} points:")
    print(boggle.board_text(boggle.Board(best_cells, rows, cols)))
    return 0


def _boggle_best(boggle, trie, args, rows: int, cols: int) -> int:
    import time

    from ..numba_cache import compile_note, compile_seconds
    from ..progress import progress_bar

    by_time = args.restarts is None
    bar = progress_bar(round(args.time) if by_time else args.restarts, unit="s" if by_time else "run",
                       desc=f"best {rows}x{cols}", dynamic_ncols=True, leave=True)
    start, compiled = time.perf_counter(), compile_seconds()
    reached = [0, 0.0]  # best score so far, seconds when first reached

    def searching() -> float:  # seconds since the start, less those spent compiling kernels
        return time.perf_counter() - start - (compile_seconds() - compiled)

    def on_progress(best: int, done: int) -> None:
        if best > reached[0]:
            reached[:] = [best, searching()]
        bar.n = min(round(searching()), bar.total) if by_time else done
        bar.set_postfix_str(f"best {best}, {done} runs done")

    with bar:
        found = boggle.search_best(trie, rows, cols, seconds=args.time if by_time else None,
                                   restarts=args.restarts, seed=args.seed, min_length=args.min_length,
                                   steps=args.steps, on_progress=on_progress)
    ranked = sorted(found.items(), key=lambda item: (-item[1], item[0]))[: args.top]
    print(f"{len(found)} distinct boards from the annealing runs in {searching():.0f} s"
          f"{compile_note(compile_seconds() - compiled)} (seed {args.seed}); "
          f"the best, first reached after {reached[1]:.0f} s:")
    for cells, score in ranked:
        print(f"{score:6d}  {cells}")
    print()
    print(boggle.board_text(boggle.Board(ranked[0][0], rows, cols)))
    return 0
