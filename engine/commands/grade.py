"""`grade`: each move of a game played against the best guess there, in exact expected guesses."""

from __future__ import annotations

import sys

from ..errors import UsageError
from .common import (
    NOT_GIVEN,
    GAME_CAP,
    folding_given,
    game_options,
    game_options_given,
    intermixed,
    max_guesses,
    quiet_option,
    seconds_or_none,
    summary,
)


def add_grade(sub) -> None:
    p = intermixed(sub.add_parser("grade", help=summary("grade")))
    p.add_argument("items", nargs="*", metavar="[TREE] GUESS:PATTERN",
                   help="a tree file or a shipped tree's name (default: wordle-salet-normal, the original lists; "
                        "today's game, the NYT lists of 2023: wordle-nyt2023-tarse-normal or --game wordle-nyt2023; "
                        "with --game, a shipped tree of that game if one fits), then the moves played; patterns as "
                        "B/Y/G, 0/1/2 or squares, or 2B1W")
    p.add_argument("--game", metavar="G", help="grade a game of this preset without a tree file (wordle, mastermind, "
                   "bulls-cows, ..., dordle)")
    game_options(p, positional=False)
    p.add_argument("--mode", choices=["normal", "hard", "ultra"], default=None,
                   help="game rules (default: the tree's, else normal)")
    p.add_argument("--max-guesses", type=max_guesses, default=GAME_CAP, metavar="N|none",
                   help="guess cap per answer (default: the tree's, else the game's; 'none' for no cap)")
    p.add_argument("--seconds", type=seconds_or_none, default=_DEFAULT, metavar="S|none",
                   help="time the exact engine may take on each move off the tree before its values are left as "
                        "proven bounds (default 60; 'none': always exact, however long); a move on the tree is "
                        "valued from the tree, exactly, whatever this is")
    p.add_argument("--json", action="store_true", help="print the moves and totals as JSON")
    p.add_argument("--weights", metavar="FILE", help="Wordle family, normal or hard mode: grade by the weighted total "
                   "(each answer weighted by this file's 'word weight' lines), every move searched exactly with no "
                   "time limit; past 1000 candidates before a move its best is left as a proven lower bound")
    from .multiboard import grade_options

    grade_options(p)
    quiet_option(p)


_DEFAULT = NOT_GIVEN  # --seconds not given


def _steps(items: list[str]) -> list[tuple[str, str]]:
    steps = []
    for text in items:
        guess, sep, pattern = text.partition(":")
        if not sep or not guess.strip() or not pattern.strip():
            raise UsageError(f"bad move {text!r}: expected GUESS:PATTERN, e.g. salet:BBYBB")
        steps.append((guess, pattern))
    return steps


def _family(args, tree) -> str:
    """The family of the game graded: --game dordle or hangman, or the family of the tree named."""
    if args.game in ("dordle", "hangman"):
        return args.game
    if tree is None:
        return "wordle"
    from .trees import tree_family

    return tree_family(tree)


def run_grade(args) -> int:
    from pathlib import Path

    import orjson

    from ..wordle.grade import DEFAULT_SECONDS, Table, header_line, prepare, shipped_tree, total_lines
    from ..wordle.player import open_tree
    from ..wordle.tree import game_for
    from .grading import Progress, search_note

    if args.game in ("quordle", "octordle", "sedecordle", "duotrigordle", "multiboard") or args.boards is not None:
        if args.weights is not None:
            raise UsageError("--weights is for a Wordle-family game's grade, not a multi-board one")
        from .multiboard import run_grade_multiboard

        return run_grade_multiboard(args)
    items = list(args.items)
    tree_path = items.pop(0) if items and (":" not in items[0] or Path(items[0]).is_file()) else None
    family = _family(args, tree_path)
    if args.weights is not None and family != "wordle":
        raise UsageError(f"--weights is for a Wordle-family game's grade, not {family.capitalize()}")
    for flag in ("grid", "samples", "seed"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} is for a multi-board game's grade (--game quordle, ..., --boards K)")
    if family == "dordle":
        from .dordle import run_lookup

        return run_lookup(args, "grade")
    if family == "hangman":
        raise UsageError("grade grades the moves of Wordle-family and Dordle games; for Hangman, next gives the "
                         "best letter of a position and its expected score")
    if tree_path and args.game:
        raise UsageError("give a tree file or --game, not both")
    steps = _steps(items)
    cap_given = args.max_guesses != GAME_CAP
    if args.game or game_options_given(args):
        from .common import load_game

        game = load_game(args)  # a cap not given becomes the game's
        mode, cap = args.mode or "normal", args.max_guesses
        doc = shipped_tree(game, mode, cap)
    else:
        if folding_given(args):
            raise UsageError("--fold-accents and --keep-letters go with --game: a tree says itself how its lists are read")
        doc = open_tree(tree_path)
        game = game_for(doc, args.answers, args.guesses)
        mode = args.mode or doc["game"]["mode"]
        cap = args.max_guesses if cap_given else doc["game"]["max_guesses"]
    if args.weights is not None:
        return _grade_weighted(args, game, steps, mode, cap, doc)
    seconds = DEFAULT_SECONDS if args.seconds is _DEFAULT else args.seconds
    grading = prepare(game, steps, mode=mode, max_guesses=cap, tree=doc, seconds=seconds, cache=args.cache_dir)
    with Progress(len(steps), bool(grading.searched)) as progress:
        if args.json:
            result = grading.run(progress.advance, progress.watch)
            sys.stdout.write(orjson.dumps(result.as_json()).decode() + "\n")
            return 0
        say = progress.say
        say(header_line(game.name, mode, cap, grading.tree_path))
        if grading.searched:
            say(search_note(grading.searched, seconds, grading.tree_path is not None))
        table = Table([s.guess for s in grading.positions], [s.text for s in grading.positions],
                      len(grading.positions[0].S), cap)
        say(table.head())

        def on_move(move) -> None:
            say(table.row(move))
            progress.advance(move)

        result = grading.run(on_move, progress.watch)
        for line in total_lines(result):
            say(line)
    return 0


def _grade_weighted(args, game, steps, mode, cap, doc) -> int:
    """grade --weights: every move valued by the exact weighted search (wordle/grade.py)."""
    import orjson

    from ..wordle.grade import Table, WeightedGrading, header_line, total_lines
    from ..wordle.weights import read_weights, recorded, tree_weights

    if args.seconds is not _DEFAULT:
        raise UsageError("--seconds is not for a weighted grade (--weights): its moves are searched exactly")
    if mode not in ("normal", "hard"):
        raise UsageError("--weights grades normal- and hard-mode games, not ultra mode")
    if getattr(game, "kind", "") != "wordle":
        raise UsageError(f"--weights is for the Wordle family, not {game.name}")
    if doc is not None and recorded(doc) is not None:
        weights = tree_weights(doc, args.weights, game.answers, game.guesses)  # its fingerprint must match
    else:
        weights = read_weights(args.weights, game.answers, game.guesses)
    grading = WeightedGrading(game, steps, weights, mode=mode, max_guesses=cap, cache=args.cache_dir)
    if args.json:
        result = grading.run()
        out = result.as_json()
        out["weights"] = weights.record()
        sys.stdout.write(orjson.dumps(out).decode() + "\n")
        return 0
    print(header_line(game.name, mode, cap, None) + f", weighted by {weights.file} (total weight {weights.total})")
    table = Table([guess for guess, _ in steps] + list(game.guesses[:1]), [p for _, p in steps],
                  len(game.answers), cap)
    print(table.head())
    result = grading.run(lambda move: print(table.row(move), flush=True))
    for line in total_lines(result):
        print(line)
    return 0
