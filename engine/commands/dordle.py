"""`dordle`: Dordle solved exactly on small or reduced lists (engine dordle/).

    wordtree dordle build --answers A --guesses G [--max-guesses 7] [--objective total|worst] [--first WORD] -o T
    wordtree dordle build [GAME] --from GUESS:P1/P2,...   the rest of a game in progress, exactly
    wordtree dordle build [GAME] --checkpoint F [--resume | --overwrite] [--status]   resumable, opener by opener
    wordtree dordle build [GAME] --scheduler tcp://HOST:PORT|local [--workers N] [--checkpoint F]   on Dask
    wordtree dordle build [GAME] --jobs F [--first WORD [--split-pairs N]] [--resume | --overwrite] [--status]
                                                  the proof split into jobs, one checked line each
    wordtree dordle verify T --answers A --guesses G
    wordtree dordle next [T] GUESS:P1/P2 ...      the best next guess (===== marks a solved board)
    wordtree dordle play [T]                      an assistant for a real game (reads P1/P2 from stdin)
    wordtree dordle grade [T] GUESS:P1/P2 ...     each move's expected guesses against the best's
    wordtree dordle bound [--first WORD ...]      proven lower bounds, full lists too
    wordtree dordle heuristic --first salet [--checkpoint F] [-o S] [--tree T]   a heuristic strategy's exact total
    wordtree dordle verify S                      walk a strategy file's rule again and check its claims
"""

from __future__ import annotations

import sys

from ..errors import UsageError, UserError
from .common import (
    cache_dir_option,
    checkpoint_flags,
    int_option,
    json_option,
    print_json,
    quiet_option,
    report_failures,
    seconds_or_none,
    summary,
)

WORDLE_PRESETS = ("wordle", "wordle-nyt", "wordle-nyt2023")
STEP = "GUESS:P1/P2"

LOOKUP_EPILOG = """\
feedback: the two patterns of a guess, board 1's first, as B/Y/G letters, 0/1/2 digits or
squares: salet:BBYBB/GBBBB. The guess that solves a board shows GGGGG there; from the next
guess on that board shows ===== (one = a letter).
"""

PLAY_EPILOG = LOOKUP_EPILOG + """\
what to type, one line per guess:
  P1/P2           what the game showed for the guess proposed, e.g. BBYBB/GBBBB
  WORD P1/P2      what the game showed for a guess of your own, e.g. crane BYBBG/=====
  q               stop
"""


def _lists(p, game: bool = True) -> None:
    """The game Dordle is played on: a Wordle preset (positional when `game`) and its lists."""
    if game:
        p.add_argument("game", nargs="?", default=None,
                       help=f"a Wordle preset: {', '.join(WORDLE_PRESETS)} (default: wordle)")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")
    cache_dir_option(p)


def _lookup_options(p, steps: bool = True) -> None:
    import argparse

    if steps:
        p.add_argument("items", nargs="*", metavar=f"[TREE] {STEP}",
                       help="a wordtree-dordle/1 or wordtree-dordle-strategy/1 file (optional; without one, next "
                            "on the original lists within 7 plays dordle-trace-strategy), then the steps played")
    else:
        p.add_argument("tree", nargs="?", help="a wordtree-dordle/1 or wordtree-dordle-strategy/1 file (default on "
                                               "the original lists within 7: dordle-trace-strategy; else no tree, "
                                               "the exact engine)")
    p.add_argument("--game", metavar="GAME", help=f"with no tree: a Wordle preset ({', '.join(WORDLE_PRESETS)}; "
                                                  f"default wordle)")
    _lists(p, game=False)
    p.add_argument("--max-guesses", type=int_option("--max-guesses", 2, 16), default=None, metavar="N",
                   help="with no tree: the guess cap (default 7; a tree plays within its own)")
    p.add_argument("--seconds", type=seconds_or_none, default=argparse.SUPPRESS, metavar="S|none",
                   help="time the exact search of a position off the tree may take (default 10; 'none': no limit)")


def dordle_build_options(p, positional: bool = True) -> None:
    """The options of a Dordle build: `build dordle` (positional False: build names the preset)
    and `dordle build`."""
    _lists(p, game=positional)
    p.add_argument("--max-guesses", type=int, default=7, metavar="N", help="guess cap for both boards (default 7)")
    p.add_argument("--objective", choices=("total", "worst"), default="total",
                   help="total (default): fewest guesses over all the pairs; worst: fewest guesses for the worst "
                        "pair, then fewest in all (the tree's cap is then that worst case)")
    p.add_argument("--first", metavar="WORD", help="the opening guess (default: found exactly)")
    p.add_argument("--from", dest="steps", metavar="STEPS",
                   help="solve the rest of a game in progress exactly (no time limit): the steps played, "
                        "comma-separated, as in dordle next, e.g. salet:BBBGB/YBBYB,crony:GYYBB/BYBBB")
    p.add_argument("-o", "--output", metavar="FILE", help="write the tree as wordtree-dordle/1 JSON (whole games only)")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="save each opener's result here as the search goes (every few seconds, and when stopped "
                        "with Ctrl-C), with a progress line over the openers; --objective total, whole games only")
    p.add_argument("--resume", action="store_true", help="go on from --checkpoint: the openers it holds are skipped")
    p.add_argument("--overwrite", action="store_true",
                   help="start --checkpoint over even if it exists (without --resume or this, an existing one is "
                        "refused)")
    p.add_argument("--status", action="store_true",
                   help="print what --checkpoint proves so far (openers exact, refuted and left, the best total and "
                        "the proven lower bound), then stop")
    p.add_argument("--jobs", metavar="FILE",
                   help="the proof split into jobs, each finished one appended to FILE as a checked text line (a "
                        "kill loses only the jobs running): with --first, the opener's exact total, one job per "
                        "child state; without, every opener exact or refuted, one job per opener; --resume, "
                        "--overwrite, --status and --scheduler as with --checkpoint; --objective total only")
    p.add_argument("--split-pairs", type=int_option("--split-pairs", 3), default=None, metavar="N",
                   help="with --jobs and --first: a child state of at least N pairs is split further, one job per "
                        "guess tried there (its exact cost, or a bound proving it no better than the best)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT|local",
                   help="evaluate the openers on a Dask cluster (pip install -e \".[cluster]\"); local: start one "
                        "here. --objective total, whole games only; --checkpoint as without it")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="with --scheduler local: worker processes (default 2)")
    quiet_option(p)
    json_option(p, "total, pairs, mean, first, optimal, seconds, nodes (and output)")


def add_dordle(sub) -> None:
    import argparse

    from .common import intermixed

    p = sub.add_parser("dordle", help=summary("dordle"))
    actions = p.add_subparsers(dest="dordle_action", metavar="ACTION")
    dordle_build_options(actions.add_parser(
        "build", help="the optimal Dordle tree and its total over every ordered pair of answers"))
    v = actions.add_parser("verify", help="replay every ordered pair through a Dordle tree (or walk a heuristic "
                                          "strategy's rule) and check every figure it states")
    v.add_argument("tree", help="a wordtree-dordle/1 or wordtree-dordle-strategy/1 file")
    _lists(v, game=False)
    v.add_argument("game", nargs="?", default=None,
                   help="game preset (default: the lists the file names, found among the shipped ones)")
    raw = argparse.RawDescriptionHelpFormatter
    n = intermixed(actions.add_parser("next", help="the best next guess after the steps played, e.g. next salet:BBYBB/GBBBB",
                           epilog=LOOKUP_EPILOG, formatter_class=raw,
                           description="The next guess from a Dordle tree while the game is on it, else from the "
                                       "exact engine\n(within --seconds and size caps; a heuristic guess and a "
                                       "lower bound beyond them, said so)."))
    _lookup_options(n)
    n.add_argument("--json", action="store_true", help="print the suggestion as JSON")
    n.add_argument("--all", action="store_true", help="list every candidate left (by default at most 10 a board)")
    pl = actions.add_parser("play", help="an assistant for a real Dordle game (reads P1/P2 from stdin)",
                            epilog=PLAY_EPILOG, formatter_class=raw)
    _lookup_options(pl, steps=False)
    g = intermixed(actions.add_parser("grade", epilog=LOOKUP_EPILOG, formatter_class=raw,
                                      help="each move's exact expected guesses left against a best guess's, "
                                           "and the loss"))
    _lookup_options(g)
    g.add_argument("--json", action="store_true", help="print the moves as JSON")
    quiet_option(g)
    lb = actions.add_parser("bound", help="proven lower bounds on the optimum: over every opener (depth 1), and "
                                          "for given openers (depth 2)")
    _lists(lb)
    lb.add_argument("--max-guesses", type=int, default=7, metavar="N", help="guess cap for both boards (default 7)")
    lb.add_argument("--first", nargs="*", default=[], metavar="WORD", help="openers to bound at depth 2")
    lb.add_argument("--top", type=int_option("--top", 1, None), default=0, metavar="N",
                    help="rank the openers by their proven depth-1 bound and print the N least (with --depth 2, "
                         "each one's depth-2 bound too: minutes an opener on the full lists)")
    lb.add_argument("--depth", type=int, choices=(1, 2), default=1, help="the depth of --top's bounds (default 1)")
    lb.add_argument("--single-floor", type=int_option("--single-floor", 1, None), metavar="V",
                    help="a proven lower bound V on the one-board optimum of the answers with one guess more than "
                         "the cap (e.g. from wordtree rank --max-guesses 8): adds the projection bound from it")
    h = actions.add_parser("heuristic", help="a heuristic strategy (not optimal) from an opener, its exact total "
                                             "over every ordered pair, and the opener's depth-2 bound")
    _lists(h)
    h.add_argument("--max-guesses", type=int, default=7, metavar="N", help="guess cap for both boards (default 7)")
    h.add_argument("--first", default="salet", metavar="WORD", help="the opener (default salet)")
    h.add_argument("--exact-below", type=int_option("--exact-below", 0, None), default=0, metavar="PAIRS",
                   help="also search each child state of the opener of at most PAIRS pairs exactly and play the "
                        "optimum there where the search proves it better (default 0: off)")
    h.add_argument("--exact-nodes", type=int_option("--exact-nodes", 1, None), default=None, metavar="N",
                   help="the states each such exact search may visit (default 2000; a count, so the strategy does "
                        "not depend on the machine)")
    h.add_argument("--checkpoint", metavar="FILE", help="save the progress here every minute")
    h.add_argument("--resume", action="store_true", help="go on from --checkpoint")
    h.add_argument("--overwrite", action="store_true",
                   help="start --checkpoint over even if it exists (without --resume or this, an existing one is "
                        "refused)")
    h.add_argument("-o", "--output", metavar="FILE", help="write the strategy as a wordtree-dordle-strategy/1 file "
                                                          "(the opener and the rule, any game size; dordle verify "
                                                          "walks it again)")
    h.add_argument("--tree", metavar="FILE", help="write the strategy's full tree as a wordtree-dordle/1 file "
                                                  "(small games only)")


def _game(name, answers, guesses, cache_dir):
    from ..games import get_game
    from ..wordle.patterns import pattern_matrix

    if name is not None and name not in WORDLE_PRESETS:
        raise UsageError(f"Dordle is played on Wordle's words: {', '.join(WORDLE_PRESETS)}, not {name!r}")
    game = get_game(name, answers, guesses)
    for notice in game.notices:
        print(notice, file=sys.stderr)
    return game, pattern_matrix(game, cache_dir).matrix


def run_dordle(args) -> int:
    action = args.dordle_action
    if action is None:
        raise UsageError("dordle needs an action: build, verify, next, play, grade, bound or heuristic")
    if action in ("next", "play", "grade"):
        return _run_lookup(args)
    if action == "verify":
        return _verify(args)
    if action == "build":
        _check_scheduler(args)
        _check_checkpoint(args)
    if action == "build" and args.steps is not None:
        _check_from(args)
    game, matrix = _game(args.game, args.answers, args.guesses, args.cache_dir)
    if action == "build":
        return _build(args, game, matrix)
    if action == "bound":
        return run_bound(args, game, matrix)
    return run_heuristic(args, game, matrix)


def _verify(args) -> int:
    return verify_tree(args.tree, args)


def verify_tree(tree: str, args) -> int:
    """Replay a Dordle tree, or walk a strategy's rule, on the lists it names (shipped lists
    found by bare file name, checked by fingerprint), or on the game or lists given (`verify`
    and `dordle verify`)."""
    from ..dordle.heuristic import STRATEGY_FORMAT
    from ..dordle.document import FORMAT, read_document
    from ..dordle.tree import optimality_claim, verify_document
    from ..families import tree_path

    doc = read_document(tree_path(tree), (FORMAT, STRATEGY_FORMAT))
    preset = getattr(args, "game", None)
    if preset is None:
        from ..wordle.patterns import pattern_matrix
        from ..wordle.tree import game_for

        name = doc["game"].get("name")
        if name not in WORDLE_PRESETS:
            raise UserError(f"{tree}: 'game': Dordle is played on Wordle's words, not {name!r}")
        try:
            game = game_for(doc, args.answers, args.guesses)
        except UserError as exc:
            raise UserError(f"{tree}: {exc}") from None
        matrix = pattern_matrix(game, args.cache_dir).matrix
    else:
        game, matrix = _game(preset, args.answers, args.guesses, args.cache_dir)
    if doc["format"] == STRATEGY_FORMAT:
        return _verify_strategy(tree, doc, game, matrix, getattr(args, "json", False))
    try:
        report = verify_document(doc, game, matrix)
    except UserError as exc:
        raise UserError(f"{tree}: {exc}") from None
    claim, how = optimality_claim(doc)
    if getattr(args, "json", False):
        return print_json({"tree": tree, "family": "dordle", "valid": True, **report, "optimal": claim,
                           **({"proof": how} if how else {})})
    print(f"ok: {report['pairs']} ordered pairs, total {report['total']}, mean {report['mean']:.4f}, "
          f"worst {report['worst']}, {report['remainders']} single-board remainders solved")
    if claim == "claimed":
        print(f"optimal: claimed {how}, not re-proved (building it again re-proves it: wordtree build dordle)")
    elif claim == "unproven":
        print(f"optimal: claimed, but unproven: {how}")
    else:
        print("optimal: not claimed")
    return 0


def _verify_strategy(path, doc, game, matrix, as_json: bool = False) -> int:
    from ..dordle.heuristic import verify_strategy
    from ..progress import progress_bar

    try:
        result = verify_strategy(doc, game, matrix, lambda n: progress_bar(
            n, desc=f"verify {doc['first']}", unit="child states"))
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    if as_json:
        return print_json({"tree": path, "family": "dordle", "valid": True, "strategy": "heuristic",
                           **{k: v for k, v in result.items() if k != "top"},
                           "optimal": "not claimed"})
    print(f"ok: heuristic strategy opening with {result['first']}: {result['pairs']} ordered pairs, total "
          f"{result['total']}, mean {result['mean']:.4f}, none failed within {doc['max_guesses']} guesses; "
          f"proven lower bound for this opener (depth 2) {result['lower_bound']}")
    return 0


def _build(args, game, matrix) -> int:
    import orjson

    from ..dordle.search import DordleSearch
    from ..dordle.tree import build_document, smallest_cap_search
    from ..files import write_atomic
    from .common import output_errors

    if args.steps is not None:
        return _build_from(args, game, matrix)
    if args.jobs:
        return _build_jobs(args, game, matrix)
    if args.checkpoint or args.scheduler or (args.objective == "total" and args.first is None):
        return _build_checkpointed(args, game, matrix)  # opener by opener, with a progress line
    first = None if args.first is None else game.guess_index[game.parse_guess(args.first)]
    if args.objective == "worst":
        search = smallest_cap_search(game, matrix, args.max_guesses, first)
        doc = build_document(search, first, "worst", args.max_guesses)
    else:
        doc = build_document(DordleSearch(game, matrix, args.max_guesses), first)
    _print_result(args, doc)
    if args.output:
        with output_errors(args.output):
            write_atomic(args.output, orjson.dumps(doc))
    return 0


def _print_result(args, doc: dict) -> None:
    result = doc["result"]
    if getattr(args, "json", False):
        print_json({**{key: result.get(key) for key in ("total", "pairs", "mean", "first", "optimal", "objective",
                                                          "seconds", "nodes")},
                    "max_guesses": doc["max_guesses"], "output": args.output})
        return
    worst = f", worst {doc['max_guesses']} (least possible)" if args.objective == "worst" else ""
    print(f"total {result['total']} over {result['pairs']} ordered pairs, mean {result['mean']:.4f}{worst}, "
          f"first guess {result['first']}{'' if result['optimal'] else ' (fixed)'}, {result['seconds']} s, "
          f"{result['nodes']} nodes")


def _check_scheduler(args) -> None:
    """--scheduler and --workers: what they do not go with."""
    if args.workers is not None and args.scheduler != "local":
        raise UsageError("--workers starts local workers: use it with --scheduler local")
    if args.scheduler and not args.jobs:
        _opener_by_opener_only(args, "--scheduler", "spreads")


def _check_checkpoint(args) -> None:
    """--checkpoint or --jobs and their companions: what they need, and what they do not go with."""
    if args.jobs is None:
        if args.split_pairs is not None:
            raise UsageError("--split-pairs splits the jobs of --jobs FILE: give --jobs FILE")
        checkpoint_flags(args, needing=("resume", "overwrite", "status"))
    else:
        if args.checkpoint:
            raise UsageError("--checkpoint saves the search opener by opener and --jobs the proof split into jobs: "
                             "give one of them")
        if args.overwrite and args.resume:
            raise UsageError("--resume continues the checkpoint and --overwrite starts it over: give one of them")
        if args.steps is not None:
            raise UsageError("--jobs splits the proof of a whole game; drop --from or --jobs")
        if args.objective != "total":
            raise UsageError("--jobs is for builds with --objective total")
        if args.status and args.first is not None:
            raise UsageError("--status reads the opener from the --jobs file: drop --first")
        if args.split_pairs is not None and args.first is None:
            raise UsageError("--split-pairs splits the child states of one opener: give --first WORD")
        if args.output and args.first is not None:
            raise UsageError("-o writes the tree of the proof over every opener; with --first, --jobs proves one "
                             "opener's total: drop -o or --first")
    if args.checkpoint:
        _opener_by_opener_only(args, "--checkpoint", "saves")


def _opener_by_opener_only(args, flag: str, verb: str) -> None:
    """`flag` works on the root's search opener by opener (a whole game, objective total, every
    opener tried): refuse what that is not."""
    if args.steps is not None:
        raise UsageError(f"{flag} {verb} the search of a whole game; drop --from or {flag}")
    if args.objective != "total":
        raise UsageError(f"{flag} is for builds with --objective total")
    if args.first is not None:
        raise UsageError(f"{flag} {verb} the search over the openers; with --first there is one: drop one")


def _build_checkpointed(args, game, matrix) -> int:
    """`dordle build` of a whole game with every opener tried (and `--checkpoint FILE` and/or
    `--scheduler S`): the root searched opener by opener (dordle.checkpoint.build_by_openers) with
    a progress line, each opener's result saved in FILE if given, then the tree; or, with
    --status, what FILE proves so far. Ctrl-C stops it with every finished opener saved (exit 130)."""
    import time

    from ..dordle.checkpoint import build_by_openers, checkpoint_status
    from ..dordle.search import ALL_RULES
    from ..dordle.tree import build_document
    from ..errors import CheckpointNotSaved
    from ..files import check_writable
    from ..progress import progress_bar

    if args.status:
        print("\n".join(checkpoint_status(game, args.max_guesses, ALL_RULES, args.checkpoint)))
        return 0
    if args.output:
        check_writable(args.output, "tree")
    started = time.perf_counter()

    def bar(total, done):
        return progress_bar(total, initial=done, desc="openers", unit="openers")

    cluster = (args.scheduler, args.workers, {"name": args.game, "answers": args.answers, "guesses": args.guesses,
                                              "cache_dir": args.cache_dir}) if args.scheduler else None
    search, result = build_by_openers(game, matrix, args.max_guesses, args.checkpoint, resume=args.resume,
                                      overwrite=args.overwrite, progress=bar, cluster=cluster)
    failures = [CheckpointNotSaved(args.checkpoint, result.checkpoint_error)] if result.checkpoint_error else []
    return _write_tree(args, build_document(search, solved=(result.value, result.guess), started=started), failures)


def _write_tree(args, doc: dict, failures: list) -> int:
    """The end of a checkpointed build: the result printed, the tree written to -o (or, where it
    cannot be, next to it or to standard output, as OutputSavedElsewhere says), the failures
    reported with their exit code."""
    import orjson

    from ..errors import OutputSavedElsewhere
    from ..files import write_atomic, write_or_fallback

    _print_result(args, doc)
    if args.output:
        where, reason = write_or_fallback(args.output, lambda path: write_atomic(path, orjson.dumps(doc)))
        if reason is not None:
            failures.append(OutputSavedElsewhere(args.output, "tree", reason, where))
            if where is None:
                sys.stdout.write(orjson.dumps(doc).decode() + "\n")
    return report_failures(failures)


def _build_jobs(args, game, matrix) -> int:
    """`dordle build --jobs FILE`: the proof split into jobs (dordle.jobs.build_by_jobs), each
    finished job appended to FILE; with --first, that opener's exact total; without, the optimum
    over every opener, then the tree (-o); with --status, what FILE proves so far."""
    import time

    from ..dordle.jobs import build_by_jobs, jobs_status
    from ..dordle.search import ALL_RULES
    from ..dordle.tree import NoStrategy, build_document
    from ..errors import CheckpointNotSaved
    from ..files import check_writable
    from ..progress import progress_bar

    if args.status:
        print("\n".join(jobs_status(game, matrix, args.max_guesses, ALL_RULES, args.jobs)))
        return 0
    first = None if args.first is None else game.guess_index[game.parse_guess(args.first)]
    if args.output:
        check_writable(args.output, "tree")
    started = time.perf_counter()

    def bar(total, done):
        return progress_bar(total, initial=done, desc="openers" if first is None else "child states",
                            unit="jobs")

    cluster = (args.scheduler, args.workers, {"name": args.game, "answers": args.answers, "guesses": args.guesses,
                                              "cache_dir": args.cache_dir}) if args.scheduler else None
    search, result = build_by_jobs(game, matrix, args.max_guesses, args.jobs, first=first, resume=args.resume,
                                   overwrite=args.overwrite, progress=bar, cluster=cluster,
                                   split=args.split_pairs)
    failures = [CheckpointNotSaved(args.jobs, result.checkpoint_error)] if result.checkpoint_error else []
    if first is not None:
        from ..jit import INF64

        if result.value >= INF64:
            raise NoStrategy(search.cap, game.guesses[first])
        n = len(game.answers)
        pairs = n * (n - 1)
        if getattr(args, "json", False):
            print_json({"total": result.value, "pairs": pairs, "mean": round(result.value / pairs, 6),
                        "first": game.guesses[first], "optimal": False, "exact": True, "jobs": result.jobs,
                        "seconds": round(result.job_seconds, 3), "nodes": result.nodes, "output": None})
        else:
            print(f"total {result.value} over {pairs} ordered pairs, mean {result.value / pairs:.4f}, first guess "
                  f"{game.guesses[first]} (fixed; exact: each of its {result.jobs} child states solved), "
                  f"{result.job_seconds:.1f} s of search in all, {result.nodes} nodes")
        return report_failures(failures)
    return _write_tree(args, build_document(search, solved=(result.value, result.guess), started=started), failures)


def _check_from(args) -> None:
    if args.output:
        raise UsageError("-o writes whole-game trees only; drop --from or -o")
    if args.first is not None:
        raise UsageError("--first is a whole game's opening guess; with --from the steps come first: drop one")
    if not args.steps.replace(",", " ").split():
        raise UsageError(f"--from needs the steps played, as {STEP},...")


def _build_from(args, game, matrix) -> int:
    """`dordle build --from STEPS`: the steps replayed as `dordle next` does, then the rest solved
    exactly (player.exact_rest)."""
    from ..dordle.player import exact_rest, position_after

    steps = args.steps.replace(",", " ").split()
    try:
        position = position_after(game, matrix, args.max_guesses, None, steps, seconds=None)
    except UserError as exc:
        raise UserError(f"--from: {exc}") from None
    rest = exact_rest(position, args.objective)
    where = f"from {','.join(f'{g}:{p}' for g, p in position.steps)}"
    if getattr(args, "json", False):
        return print_json({"from": where[5:], "open_boards": rest.open_boards, "pairs": rest.pairs,
                           "total": rest.total, "mean": rest.mean, "next_guess": rest.guess,
                           "guesses_left": rest.guesses_left, "optimal": True, "seconds": round(rest.seconds, 3),
                           "nodes": rest.nodes})
    if rest.open_boards == 0:
        print(f"{where}: both boards solved in {rest.step} guesses, nothing left to solve")
        return 0
    left = "" if rest.open_boards == 2 else f" (board {1 if position.solved_at[0] else 2} solved)"
    worst = ""
    if args.objective == "worst":
        worst = (f", worst {rest.guesses_left} more guess{'es' * (rest.guesses_left != 1)} "
                 f"({rest.step + rest.guesses_left} in all, least possible)")
    print(f"{where}: total {rest.total} more guesses over {rest.pairs} ordered pair{'s' * (rest.pairs != 1)} "
          f"left{left}, mean {rest.mean:.4f}{worst}, next guess {rest.guess} (exact), {rest.seconds:.3f} s, "
          f"{rest.nodes} nodes")
    return 0


def _tree_and_steps(items) -> tuple[str | None, list[str]]:
    """The tree file that may come first (a file, or a word with no ':'), and the steps."""
    from pathlib import Path

    items = list(items)
    if items and (Path(items[0]).is_file() or ":" not in items[0]):
        return items.pop(0), items
    return None, items


def _open_position(args, tree: str | None):
    from ..dordle.player import DEFAULT_SECONDS, DordlePosition

    seconds = getattr(args, "seconds", DEFAULT_SECONDS)
    if tree is None and args.dordle_action in ("next", "candidates", "play"):
        tree = _shipped_strategy(args)
    if tree is None:
        game, matrix = _game(args.game, args.answers, args.guesses, args.cache_dir)
        return DordlePosition(game, matrix, args.max_guesses or 7, None, seconds)
    from ..dordle.document import FORMAT, STRATEGY_FORMAT, read_document
    from ..wordle.tree import game_for

    if args.game is not None:
        raise UsageError("give a Dordle tree or --game, not both")
    from ..families import tree_path

    doc = read_document(tree_path(tree), (FORMAT, STRATEGY_FORMAT))
    if args.max_guesses is not None and args.max_guesses != doc["max_guesses"]:
        raise UsageError(f"--max-guesses is for a position with no tree: {tree} plays within its cap of "
                         f"{doc['max_guesses']}")
    try:
        game = game_for(doc, args.answers, args.guesses)
    except UserError as exc:
        raise UserError(f"{tree}: {exc}") from None
    return DordlePosition(game, None, doc["max_guesses"], doc, seconds, cache_dir=args.cache_dir)  # (matrix: lazy)


def _shipped_strategy(args) -> str | None:
    """The shipped full-list strategy (player.FULL_LIST_STRATEGY) where a lookup names no tree and
    plays the original lists within 7 guesses: its stored top answers at once, its rule below."""
    from ..dordle.player import FULL_LIST_STRATEGY
    from ..families import find_tree

    if args.game is not None or args.answers is not None or args.guesses is not None or \
            args.max_guesses not in (None, 7):
        return None
    return FULL_LIST_STRATEGY if find_tree(FULL_LIST_STRATEGY) is not None else None


def run_lookup(args, action: str) -> int:
    """`next`, `candidates`, `play` and `grade` of a Dordle position (a Dordle tree named first,
    or --game dordle), as `dordle next` ... run them."""
    args.dordle_action = action
    if getattr(args, "game", None) == "dordle":
        args.game = None  # Dordle with no tree, on the original Wordle lists (dordle next --game for others)
    if not getattr(args, "max_guesses", None):  # (grade's own default is the game's cap)
        args.max_guesses = None
    if not isinstance(getattr(args, "seconds", None), (float, type(None))):  # grade's "not given"
        del args.seconds
    for name in ("answers", "guesses", "cache_dir", "json", "all"):
        if not hasattr(args, name):
            setattr(args, name, None if name in ("answers", "guesses", "cache_dir") else False)
    return _run_lookup(args)


def _run_lookup(args) -> int:
    from ..dordle import player

    if args.dordle_action == "play":
        from ..play import play

        position = player.DordlePlay(_open_position(args, args.tree))
        return play(position, sys.stdin, lambda text: print(text, flush=True), sys.stdin.isatty(), sys.stdout.isatty())
    tree, steps = _tree_and_steps(args.items)
    position = _open_position(args, tree)
    if args.dordle_action == "grade":
        if not steps:
            raise UsageError(f"grade needs the moves played, as {STEP}")
        from .grading import run_dordle_grade

        return run_dordle_grade(position, steps, args.json, tree)
    for text in steps:
        position.play(*player.parse_step(text))
    if args.dordle_action == "candidates":
        boards = [{"board": board + 1, "candidates": len(position.words(board)), "words": position.words(board)}
                  for board in (0, 1)]
        if args.json:
            return print_json(boards)
        import textwrap

        for board in boards:
            n = board["candidates"]
            print(f"board {board['board']}: {n} candidate{'s' * (n != 1)} left")
            print("\n".join(textwrap.wrap(" ".join(board["words"]), 79, break_on_hyphens=False)))
        return 0
    suggestion = position.suggest()
    if args.json:
        import orjson

        sys.stdout.write(orjson.dumps(suggestion.as_json()).decode() + "\n")
    else:
        print("\n".join(player.suggestion_lines(suggestion, args.all)))
    return 0


def run_bound(args, game, matrix) -> int:
    from ..dordle.heuristic import root_parts
    from ..dordle.lower import opener_bound, root_bounds
    from ..dordle.search import DordleSearch
    from ..progress import progress_bar

    search = DordleSearch(game, matrix, args.max_guesses)
    n = len(game.answers)
    pairs = n * (n - 1)
    lbs = root_bounds(search)
    g = int(lbs.argmin())
    print(f"proven lower bound (depth 1, every opener): {int(lbs.min())} over {pairs} ordered pairs, "
          f"mean {int(lbs.min()) / pairs:.4f} (least at {game.guesses[g]})")
    if args.top:
        _ranked_openers(search, lbs, args.top, args.depth)
    if args.single_floor is not None:
        from ..dordle.lower import projection_root_bound

        value = projection_root_bound(search, args.single_floor)
        print(f"proven lower bound (projection, given a one-board optimum of at least {args.single_floor} within "
              f"{search.cap + 1} guesses): {value}, mean {value / pairs:.4f}")
    for word in args.first:
        first = game.guess_index[game.parse_guess(word)]
        bar = progress_bar(len(root_parts(search, first)[1]), desc=f"bound {word}", unit="child states")
        value = opener_bound(search, first, bar)
        bar.close()
        print(f"{word}: proven lower bound (depth 2) {value}, mean {value / pairs:.4f}")
    return 0


def _ranked_openers(search, lbs, top: int, depth: int) -> None:
    """The `top` openers of least depth-1 bound (ties by word), one tab-separated line each, with
    their depth-2 bounds when `depth` is 2: no strategy opening with the word totals less."""
    from ..dordle.heuristic import root_parts
    from ..dordle.lower import opener_bound
    from ..progress import progress_bar

    game = search.game
    ranked = sorted(range(len(lbs)), key=lambda g: (int(lbs[g]), game.guesses[g]))[:top]
    print("# rank\topener\tdepth-1 bound" + ("\tdepth-2 bound" if depth == 2 else ""), flush=True)
    for i, g in enumerate(ranked, 1):
        row = f"{i}\t{game.guesses[g]}\t{int(lbs[g])}"
        if depth == 2:
            bar = progress_bar(len(root_parts(search, g)[1]), desc=f"bound {game.guesses[g]}", unit="child states")
            row += f"\t{opener_bound(search, g, bar)}"
            bar.close()
        print(row, flush=True)


def run_heuristic(args, game, matrix) -> int:
    import orjson

    from ..dordle.checkpoint import heuristic_by_checkpoint
    from ..dordle.heuristic import EXACT_NODES, HeuristicStrategy, strategy_document, strategy_file
    from ..dordle.search import DordleSearch
    from ..files import write_atomic
    from ..progress import progress_bar

    if args.resume and not args.checkpoint:
        raise UsageError("--resume needs --checkpoint FILE")
    checkpoint_flags(args)
    if args.exact_nodes is not None and not args.exact_below:
        raise UsageError("--exact-nodes needs --exact-below PAIRS")
    strategy = HeuristicStrategy(DordleSearch(game, matrix, args.max_guesses), exact_below=args.exact_below,
                                 exact_nodes=EXACT_NODES if args.exact_nodes is None else args.exact_nodes)
    first = game.guess_index[game.parse_guess(args.first)]
    result = heuristic_by_checkpoint(strategy, first, args.checkpoint, resume=args.resume, overwrite=args.overwrite,
                                     progress=lambda total, done: progress_bar(
                                         total, desc=f"heuristic {args.first}", unit="child states", initial=done))
    status = "" if not result["failed"] else f", FAILS {result['failed']} pairs within the cap (no valid total)"
    print(f"heuristic strategy (not proven optimal) opening with {result['first']}: total {result['total']} over "
          f"{result['pairs']} ordered pairs, mean {result['mean']:.4f}{status}; proven lower bound for this opener "
          f"(depth 2) {result['lower_bound']}; {result['states']} states ({result['backoffs']} guesses backed off), "
          f"{result['seconds']} s")
    from .common import output_errors

    if args.output:
        with output_errors(args.output):
            write_atomic(args.output, orjson.dumps(strategy_file(strategy, first, result)))
    if args.tree:
        with output_errors(args.tree):
            write_atomic(args.tree, orjson.dumps(strategy_document(strategy, first)))
    return 0
