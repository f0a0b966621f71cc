"""`build` and `rank`: the exact search (engine exact/, heuristics) and its outputs."""

from __future__ import annotations

import argparse
import sys

from ..errors import CheckpointNotSaved, OutputSavedElsewhere, Stopped, UsageError, UserError
from ..files import write_or_fallback
from .common import (
    checkpoint_flags,
    game_options,
    game_options_given,
    games_epilog,
    hangman_build_options,
    int_option,
    json_option,
    load_game,
    print_json,
    report_failures,
    search_options,
    summary,
)


def add_build(sub, argv: list[str] | None = None) -> None:
    """`build GAME ...`: the options of the game named in argv (the Wordle family's when none is),
    so that `build hangman --help` lists Hangman's and `build --help` the Wordle family's."""
    from ..families import family_of_game

    family = family_of_game(_named_game(argv))
    name = family.name if family is not None else "wordle"
    epilog = games_epilog(hangman=True, dordle=True) + (
        "\n\nbuild hangman --help and build dordle --help list those games' own options" if name == "wordle" else "")
    named = {"prog": f"{sub._prog_prefix} build {name}", "usage": None} if name != "wordle" else {}
    p = sub.add_parser("build", help=summary("build"), epilog=epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter, **named)
    if name == "hangman":
        p.add_argument("game", choices=("hangman",), metavar="hangman", help="the game: one tree per word length")
        hangman_build_options(p)
        return
    if name == "absurdle":
        from .absurdle import absurdle_build_options

        absurdle_build_options(p)
        return
    if name == "multiboard":
        from .multiboard import multiboard_build_options

        multiboard_build_options(p)
        return
    if name == "dordle":
        from .dordle import dordle_build_options

        p.add_argument("game", choices=("dordle",), metavar="dordle", help="the game: two Wordle boards at once")
        p.add_argument("preset", nargs="?", default=None,
                       help="the Wordle preset whose lists both boards use: wordle (default), wordle-nyt, wordle-nyt2023")
        dordle_build_options(p, positional=False)
        return
    game_options(p)
    search_options(p)
    p.add_argument("--first", metavar="WORD|auto",
                   help="opening guess (default: the proven best recorded for the preset, else auto = found exactly)")
    p.add_argument("--from", dest="state", metavar="STATE", help="solve from a game in progress, e.g. salet:BBYBB,courd:BYBBG")
    p.add_argument("--strategy", default="exact", choices=["exact", "entropy", "minimax", "frequency"],
                   help="exact (default) or a greedy baseline, labelled not optimal")
    p.add_argument("--objective", default="total", choices=["total", "worst"],
                   help="total (default): fewest guesses in all; worst: fewest guesses in the worst case, then in all")
    p.add_argument("-o", "--output", metavar="FILE", help="write the tree as wordtree/1 JSON")
    p.add_argument("--checkpoint", metavar="FILE", help="save each finished subtree of the opener here as it comes "
                   "(with --first auto, the rank of the openers goes to FILE.rank)")
    p.add_argument("--resume", action="store_true", help="continue a stopped build from --checkpoint")
    p.add_argument("--overwrite", action="store_true",
                   help="start --checkpoint over even if it exists (without --resume or this, an existing one is refused)")
    p.add_argument("--status", action="store_true", help="print what --checkpoint proves so far (each class of the "
                   "opener exact or bounded below, and the total's lower bound), then stop")
    p.add_argument("--weights", metavar="FILE", help="Wordle family, normal or hard mode: minimise the weighted total of "
                   "guesses, each answer weighted by this file's 'word weight' lines (e.g. "
                   "nyt-allowed-14855-frequency-weights.tsv); the tree records the weights' fingerprint")
    json_option(p, "game, first_guess, optimal, total, mean, worst, answers, histogram, seconds, output")


def _named_game(argv: list[str] | None) -> str | None:
    """The game `build` is asked for in argv: the first word after `build` that a family plays."""
    from ..families import family_of_game

    if not argv or "build" not in argv:
        return None
    return next((word for word in argv[argv.index("build") + 1:] if family_of_game(word) is not None), None)


def run_build(args) -> int:
    if getattr(args, "state", None) and args.status:
        raise UsageError("--status reads the checkpoints of whole-game builds; drop --from")
    if args.game == "absurdle":
        from .absurdle import run_build_absurdle

        return run_build_absurdle(args)
    if args.game in ("quordle", "octordle", "sedecordle", "duotrigordle", "multiboard"):
        from .multiboard import run_build_multiboard

        return run_build_multiboard(args)
    if args.game != "dordle":  # Dordle checks its own: --checkpoint or --jobs
        checkpoint_flags(args)
    if args.game == "hangman":  # its own --weights: the words' weights in its search
        from .hangman import run_build_hangman

        return run_build_hangman(args)
    if getattr(args, "weights", None) is not None:
        return _build_weighted(args)
    if args.game == "dordle":
        from .dordle import run_dordle

        args.dordle_action, args.game = "build", args.preset
        return run_dordle(args)
    import time

    from ..files import check_writable, open_checkpoint
    from ..numba_cache import compile_seconds
    from ..wordle.patterns import pattern_matrix

    if args.state and args.output:
        raise UsageError("-o writes whole-game trees only; drop --from or -o")
    if (args.resume or args.status) and not args.checkpoint:
        raise UsageError(f"--{'status' if args.status else 'resume'} needs --checkpoint FILE")
    if args.checkpoint and (args.strategy != "exact" or args.objective != "total"):
        raise UsageError("--checkpoint is for exact builds with --objective total")
    if args.output and not args.status:
        check_writable(args.output, "tree")
    game = load_game(args)
    history = parse_state(game, args.state)
    start, compiled = time.perf_counter(), compile_seconds()
    if args.status:
        from ..exact.checkpoint import checkpoint_status

        matrix = pattern_matrix(game, args.cache_dir).matrix
        print("\n".join(checkpoint_status(game, matrix, args.checkpoint, args.max_guesses, args.mode)))
        return 0
    plain = not history and args.strategy == "exact"
    recorded = game.proven_first(args.mode) if plain else None  # an opener proven the best
    first = args.first or (game.default_opener(args.mode) if plain else None) or "auto"
    if first != "auto":
        first = game.parse_guess(first)
    # with the opener found exactly, the openers' rank is kept beside the checkpoint
    beside = (f"{args.checkpoint}.rank",) if args.checkpoint and first == "auto" and not history else ()
    with open_checkpoint(args.checkpoint, resume=args.resume, overwrite=args.overwrite, companions=beside):
        matrix = pattern_matrix(game, args.cache_dir).matrix
        return _build(args, game, matrix, history, first, recorded, start, compiled)


def _build(args, game, matrix, history, first, recorded, start, compiled=0.0) -> int:
    """The build itself and its report, with its checkpoint held (run_build); its time leaves
    out the compiling of kernels since `compiled` (numba_cache.compile_seconds), said apart."""
    import time

    from ..exact.build import greedy_build
    from ..numba_cache import compile_note, compile_seconds
    from ..wordle.tree import histogram_lines, make_document, write_tree

    opener = None if first == "auto" else first
    cap = args.max_guesses
    total, earlier, checkpoint_error, depths = None, 0.0, None, None
    if args.strategy != "exact":
        if args.mode != "normal":
            raise UsageError("the greedy baselines play normal mode only")
        root = greedy_build(game, matrix, args.strategy, history, opener)
    else:
        result = _exact_tree(args, game, matrix, opener, history)
        root, total, earlier, depths = result.root, result.total, result.earlier_seconds, result.depths
        checkpoint_error = result.checkpoint_error
    optimal, proof = total is not None, "exhaustive" if total is not None else "heuristic"
    compiling = compile_seconds() - compiled
    seconds, note = time.perf_counter() - start - compiling, compile_note(compiling)
    # a resumed build's tree records the time of every run (each checkpoint keeps its own)
    if history:
        from ..exact.build import candidate_ids

        n = len(candidate_ids(game, history))
        cost = f"total {total} over {n} candidates, mean {total / n:.4f} more guesses (exact)" if total else args.strategy
        if args.json:
            print_json({"from": args.state, "next_guess": root["guess"], "candidates": n, "total": total,
                        "optimal": total is not None, "strategy": args.strategy, "seconds": round(seconds, 3)})
        else:
            print(f"from {args.state}: next guess {root['guess']}; {cost}; {seconds:.2f} s{note}")
        return report_failures([CheckpointNotSaved(args.checkpoint, checkpoint_error)] if checkpoint_error else [])
    extra = {"strategy": args.strategy} if args.strategy != "exact" else {}
    if optimal and first not in ("auto", recorded):
        # the search proved the best tree opening with this guess, not that the guess is the best
        extra["first_guess"] = "given"
    try:
        doc = make_document(game, root, mode=args.mode, max_guesses=cap, optimal=optimal, proof=proof,
                            seconds=earlier + seconds, extra=extra, objective=args.objective, depths=depths)
    except UserError as exc:
        if optimal:
            raise
        # a greedy rule knows no cap: record the tree as uncapped and say so
        print(f"notice: the {args.strategy} tree breaks the cap of {cap} ({exc}); recorded with no cap",
              file=sys.stderr)
        doc = make_document(game, root, mode=args.mode, max_guesses=None, optimal=False, proof=proof,
                            seconds=seconds, extra=extra)
    stats = doc["stats"]
    if total is not None and stats["total"] != total:
        raise RuntimeError(f"internal error: search total {total} but the tree replays to {stats['total']}")
    failures = []
    if args.output:
        where, reason = write_or_fallback(args.output, lambda path: write_tree(path, doc))
        if reason is not None:
            failures.append(OutputSavedElsewhere(args.output, "tree", reason, where))
    label = "optimal (exhaustive search)" if optimal else f"{args.strategy} heuristic, not optimal"
    if "first_guess" in extra:
        label = "optimal given that first guess (exhaustive search)"
    if args.json:
        print_json({"game": game.name, "mode": args.mode, "max_guesses": doc["game"]["max_guesses"],
                    "first_guess": root["guess"], "optimal": optimal, "opener_given": "first_guess" in extra,
                    "strategy": args.strategy, "objective": args.objective, "total": stats["total"],
                    "mean": stats["mean"], "worst": stats["worst"], "answers": len(game.answers),
                    "histogram": stats["histogram"], "seconds": round(seconds, 3),
                    "output": args.output if args.output and not failures else None})
        if checkpoint_error:
            failures.append(CheckpointNotSaved(args.checkpoint, checkpoint_error))
        return report_failures(failures)
    print(f"{game.name}: first guess {root['guess']}, {label}")
    print(f"total {stats['total']}  mean {stats['mean']:.4f}  worst {stats['worst']}  "
          f"answers {len(game.answers)}  time {seconds:.2f} s"
          + (f" ({earlier + seconds:.0f} s with the runs before this resume)" if earlier else "")
          + note)
    print("\n".join(histogram_lines(stats["histogram"])))
    if args.output and not failures:
        print(f"wrote {args.output}")
    elif not args.output:
        print("not saved: add -o FILE to keep the tree")
    elif failures and failures[0].where is None:  # nowhere took it: the tree goes to stdout, after the report
        import orjson

        sys.stdout.write(orjson.dumps({k: v for k, v in doc.items() if not k.startswith("_")},
                                      option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode() + "\n")
    if checkpoint_error:
        failures.append(CheckpointNotSaved(args.checkpoint, checkpoint_error))
    return report_failures(failures)


def _build_weighted(args) -> int:
    """build --weights: the exact tree of least weighted total (exact/weighted.py), normal or hard mode."""
    import time

    import numpy as np

    from ..exact.build import answer_depths
    from ..exact.weighted import weighted_build
    from ..files import check_writable
    from ..wordle.patterns import pattern_matrix
    from ..wordle.tree import histogram_lines, make_document, write_tree
    from ..wordle.weights import read_weights

    for flag, given in (("--from", args.state), ("--checkpoint", args.checkpoint), ("--resume", args.resume),
                        ("--status", args.status)):
        if given:
            raise UsageError(f"{flag} is not for a weighted build (--weights)")
    if args.mode not in ("normal", "hard"):
        raise UsageError("--weights builds normal- and hard-mode trees, not ultra mode")
    if args.strategy != "exact" or args.objective != "total":
        raise UsageError("--weights is for the exact build with --objective total")
    if args.output:
        check_writable(args.output, "tree")
    game = load_game(args)
    if getattr(game, "kind", "") != "wordle":
        raise UsageError(f"--weights is for the Wordle family, not {game.name}")
    weights = read_weights(args.weights, game.answers, game.guesses)
    matrix = pattern_matrix(game, args.cache_dir).matrix
    first = args.first if args.first and args.first != "auto" else None
    opener = game.guess_index[game.parse_guess(first)] if first else None
    start = time.perf_counter()
    root, total = weighted_build(game, matrix, np.array(weights.values, dtype=np.int64), opener, args.max_guesses,
                                 threads=args.threads or 1, mode=args.mode)
    seconds = time.perf_counter() - start
    depths = answer_depths(game, matrix, root, range(len(game.answers)))
    extra = {"first_guess": "given"} if first else {}
    doc = make_document(game, root, mode=args.mode, max_guesses=args.max_guesses, optimal=True, proof="exhaustive",
                        seconds=seconds, extra=extra, objective="weighted", depths=depths, weights=weights)
    stats = doc["stats"]
    if stats["weighted_total"] != total:
        raise RuntimeError(f"internal error: search total {total} but the tree replays to {stats['weighted_total']}")
    failures = []
    if args.output:
        where, reason = write_or_fallback(args.output, lambda path: write_tree(path, doc))
        if reason is not None:
            failures.append(OutputSavedElsewhere(args.output, "tree", reason, where))
    label = "optimal given that first guess" if first else "optimal"
    if args.json:
        print_json({"game": game.name, "mode": args.mode, "max_guesses": doc["game"]["max_guesses"],
                    "first_guess": root["guess"], "optimal": True, "opener_given": bool(first),
                    "weights": weights.record(), "weighted_total": total, "weighted_mean": stats["weighted_mean"],
                    "total": stats["total"], "mean": stats["mean"], "worst": stats["worst"],
                    "answers": len(game.answers), "histogram": stats["histogram"], "seconds": round(seconds, 3),
                    "output": args.output if args.output and not failures else None})
        return report_failures(failures)
    rules = "" if args.mode == "normal" else f", {args.mode} mode"
    print(f"{game.name}: first guess {root['guess']}, {label} for the weights {weights.file}{rules} (exhaustive search)")
    print(f"weighted total {total}  weighted mean {stats['weighted_mean']:.4f}  (total weight {weights.total})")
    print(f"total {stats['total']}  mean {stats['mean']:.4f}  worst {stats['worst']}  answers {len(game.answers)}  "
          f"time {seconds:.2f} s")
    print("\n".join(histogram_lines(stats["histogram"])))
    print(f"wrote {args.output}" if args.output and not failures else "not saved: add -o FILE to keep the tree")
    return report_failures(failures)


def _exact_tree(args, game, matrix, first, history):
    """The exact tree the options ask for (objective total, or worst: the smallest feasible cap,
    then the best total); raises Infeasible when none exists (proven)."""
    from ..exact.build import exact_tree, smallest_cap_tree

    options = dict(threads=args.threads, progress=not args.quiet, mode=args.mode, checkpoint=args.checkpoint,
                   resume=args.resume)
    # Ctrl-C or TERM: exact.build.BuildInterrupted, worded by main (a search thread may still be
    # inside a kernel: the process then ends without waiting for it, commands._end_process)
    if args.objective == "worst":
        return smallest_cap_tree(game, matrix, first, args.max_guesses, history, on_infeasible=lambda d: print(
            f"no tree within {d} guesses (proven)", file=sys.stderr), **options)
    return exact_tree(game, matrix, first, args.max_guesses, history, **options)


def parse_state(game, text: str | None) -> list[tuple[str, int]]:
    """--from 'salet:BBYBB,courd:BYBBG' -> [(guess, code), ...]."""
    history = []
    if not text:
        return history
    for step, item in enumerate(text.replace(" ", ",").split(","), 1):
        if not item:
            continue
        if ":" not in item:
            raise UserError(f"--from step {step}: expected GUESS:PATTERN, got {item!r}")
        word, pattern = item.split(":", 1)
        history.append((game.parse_guess(word), game.parse_pattern(pattern)))
    return history



def add_rank(sub) -> None:
    p = sub.add_parser("rank", help=summary("rank"))
    game_options(p)
    search_options(p)
    p.add_argument("--top", type=int, default=10, metavar="K", help="how many first guesses to value exactly (default 10)")
    p.add_argument("--limit", type=int_option("--limit", 1), default=None, metavar="N", help="rank only the first N in heuristic order")
    p.add_argument("-o", "--output", metavar="FILE.tsv", help="write the ranking as TSV (default: stdout)")
    p.add_argument("--checkpoint", metavar="FILE", help="save progress here as it goes")
    p.add_argument("--resume", action="store_true", help="continue from --checkpoint")
    p.add_argument("--overwrite", action="store_true",
                   help="start --checkpoint over even if it exists (without --resume or this, an existing one is refused)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT|local",
                   help="run the jobs on a Dask cluster (pip install -e \".[cluster]\"); local: start one here")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="with --scheduler local: worker processes (default 2)")
    p.add_argument("--weights", metavar="FILE", help="Wordle family, normal or hard mode: rank by the weighted total "
                   "(each answer weighted by this file's 'word weight' lines), in process, without a checkpoint")
    json_option(p, "game, mode, max_guesses, top, lists, ranked, considered, interrupted, seconds and openers "
                   "(word, value, kind: exact, lower-bound or impossible); -o still writes the TSV")


def run_rank(args) -> int:
    from ..files import check_writable, open_checkpoint

    if args.resume and not args.checkpoint:
        raise UsageError("--resume needs --checkpoint FILE")
    checkpoint_flags(args)
    if args.scheduler and args.threads is not None:
        raise UsageError("--threads is for in-process runs; with --scheduler, size the workers instead")
    if args.workers is not None and args.scheduler != "local":
        raise UsageError("--workers starts local workers: use it with --scheduler local")
    if args.output and args.json:
        raise UsageError("-o writes the ranking as TSV and --json prints it as JSON: give one of them")
    if args.output:
        check_writable(args.output, "table")
    if args.weights is not None:
        return _rank_weighted(args)
    with open_checkpoint(args.checkpoint, resume=args.resume, overwrite=args.overwrite):
        return _rank(args)


def _rank_weighted(args) -> int:
    """rank --weights: the weighted values of the best K openers and a bound on every other
    (exact/weighted.py's weighted_rank), in process."""
    import numpy as np

    from ..exact.weighted import INF as WINF, weighted_rank
    from ..files import write_atomic
    from ..wordle.patterns import pattern_matrix
    from ..wordle.weights import read_weights

    for flag, given in (("--checkpoint", args.checkpoint), ("--resume", args.resume),
                        ("--scheduler", args.scheduler), ("--workers", args.workers)):
        if given:
            raise UsageError(f"{flag} is not for a weighted rank (--weights): it runs in process, without a checkpoint")
    if args.mode not in ("normal", "hard"):
        raise UsageError("--weights ranks in normal or hard mode, not ultra mode")
    if args.top < 1:
        raise UsageError("--top must be 1 or more")
    game = load_game(args)
    if getattr(game, "kind", "") != "wordle":
        raise UsageError(f"--weights is for the Wordle family, not {game.name}")
    weights = read_weights(args.weights, game.answers, game.guesses)
    matrix = pattern_matrix(game, args.cache_dir).matrix
    from ..exact.context import default_threads
    from ..progress import progress_bar

    considered = min(len(game.guesses), args.limit or len(game.guesses))
    with progress_bar(considered, desc="first guesses", unit="word", show=not args.quiet) as bar:
        result = weighted_rank(game, matrix, np.array(weights.values, dtype=np.int64), top=args.top, limit=args.limit,
                               max_guesses=args.max_guesses, mode=args.mode, threads=args.threads or default_threads(),
                               on_done=lambda done, total: bar.update(1))
    ident = game.identity()
    lines = [
        f"# wordtree rank: {game.name}, {args.mode} mode, cap {args.max_guesses or 'none'}, top {args.top}, "
        f"weighted by {weights.file} (sha256 {weights.sha256}, total weight {weights.total})",
        f"# answers {ident['answers']} sha256 {ident['answers_sha256']}",
        f"# guesses {ident['guesses']} sha256 {ident['guesses_sha256']}",
        f"# first guesses ranked: {len(result.values)} of {result.considered}; {result.seconds:.1f} s",
        "# word\tweighted value\texact | word\tbound\tlower-bound | word\tinf\timpossible (no tree within the cap, "
        "proven)",
    ]
    lines += [_rank_line(w, v, e, WINF) for w, v, e in result.ordered()]
    text = "\n".join(lines) + "\n"
    if args.json:
        import orjson

        text = orjson.dumps({
            "game": game.name, "mode": args.mode, "max_guesses": args.max_guesses, "top": args.top,
            "lists": {key: {"name": ident[key], "sha256": ident[f"{key}_sha256"]} for key in ("answers", "guesses")},
            "weights": weights.record(), "ranked": len(result.values), "considered": result.considered,
            "interrupted": False, "seconds": round(result.seconds, 3),
            "openers": [_rank_entry(w, v, e, WINF) for w, v, e in result.ordered()]}).decode() + "\n"
    failures = []
    if args.output:
        where, reason = write_or_fallback(args.output, lambda path: write_atomic(path, text.encode()))
        if reason is None:
            print(f"wrote {args.output}", file=sys.stderr)
        else:
            failures.append(OutputSavedElsewhere(args.output, "table", reason, where))
            if where is None:
                sys.stdout.write(text)
    else:
        sys.stdout.write(text)
    return report_failures(failures)


def _rank(args) -> int:
    """The rank itself and its table, with its checkpoint held (run_rank)."""
    from ..exact.rank import rank
    from ..exact.symmetric import uses_symmetry
    from ..files import write_atomic
    from ..numba_cache import compile_note, compile_seconds
    from ..wordle.patterns import pattern_matrix

    game = load_game(args)
    matrix = pattern_matrix(game, args.cache_dir).matrix
    compiled = compile_seconds()
    if args.scheduler:
        from ..exact.cluster import game_spec, rank_on_cluster

        spec = game_spec(game, name=args.game, answers=args.answers, guesses=args.guesses,
                         options=game_options_given(args), cache_dir=args.cache_dir,
                         max_guesses=args.max_guesses, mode=args.mode)
        result = rank_on_cluster(args.scheduler, spec, game, matrix, workers=args.workers, top=args.top,
                                 limit=args.limit, progress=not args.quiet, checkpoint=args.checkpoint,
                                 resume=args.resume)
    else:
        result = rank(game, matrix, top=args.top, limit=args.limit, max_guesses=args.max_guesses,
                      threads=args.threads, progress=not args.quiet, checkpoint=args.checkpoint,
                      resume=args.resume, mode=args.mode)
    compiling = compile_seconds() - compiled
    seconds = max(0.0, result.seconds - compiling)  # the rank's, without compiling the kernels (said apart)
    for note in result.notes:
        print(f"notice: {note}", file=sys.stderr)
    ident = game.identity()
    lines = [
        f"# wordtree rank: {game.name}, {args.mode} mode, cap {args.max_guesses or 'none'}, top {args.top}",
        f"# answers {ident['answers']} sha256 {ident['answers_sha256']}",
        f"# guesses {ident['guesses']} sha256 {ident['guesses_sha256']}",
        f"# first guesses ranked: {len(result.values)} of {result.considered}"
        + (" (interrupted: only these are proven)" if result.interrupted else "")
        + f"; {seconds:.1f} s{compile_note(compiling)}"
        + (f" ({result.earlier_seconds + seconds:.0f} s with the runs before)" if result.earlier_seconds else "")
        + ("; one per symmetry class (codes of the same shape cost the same)" if uses_symmetry(game, args.mode)
           else ""),
        "# word\tvalue\texact | word\tbound\tlower-bound | word\tinf\timpossible (no tree within the cap, proven)",
    ]
    lines += [_rank_line(w, v, e) for w, v, e in result.ordered()]
    text = "\n".join(lines) + "\n"
    if args.json:
        import orjson

        text = orjson.dumps({
            "game": game.name, "mode": args.mode, "max_guesses": args.max_guesses, "top": args.top,
            "lists": {key: {"name": ident[key], "sha256": ident[f"{key}_sha256"]} for key in ("answers", "guesses")},
            "ranked": len(result.values), "considered": result.considered, "interrupted": result.interrupted,
            "seconds": round(seconds, 3),
            "openers": [_rank_entry(w, v, e) for w, v, e in result.ordered()]}).decode() + "\n"
    failures = []
    if args.output:
        where, reason = write_or_fallback(args.output, lambda path: write_atomic(path, text.encode()))
        if reason is None:
            print(f"wrote {args.output}", file=sys.stderr)
        else:
            failures.append(OutputSavedElsewhere(args.output, "table", reason, where))
            if where is None:  # nowhere took it: stdout does
                sys.stdout.write(text)
    else:
        sys.stdout.write(text)
    if result.checkpoint_error:
        failures.append(CheckpointNotSaved(args.checkpoint, result.checkpoint_error))
    if result.interrupted:
        sys.stdout.flush()
        for exc in failures:
            print(f"wordtree: error: {exc}", file=sys.stderr, flush=True)
        raise Stopped(args.checkpoint)  # the proven part is out and saved; main words it (exit 130)
    return report_failures(failures)


def _rank_entry(word: str, value: int, exact: bool, inf: int | None = None) -> dict:
    """One opener of rank --json: its exact value, its lower bound, or impossible (value None);
    `inf`: the search's infinity (default: the unweighted kernels')."""
    from ..exact.solver import INF

    if value >= (INF if inf is None else inf):
        return {"word": word, "value": None, "kind": "impossible"}
    return {"word": word, "value": value, "kind": "exact" if exact else "lower-bound"}


def _rank_line(word: str, value: int, exact: bool, inf: int | None = None) -> str:
    """One TSV line; a bound at or past the kernels' infinity (`inf` if given) proves that no tree exists."""
    from ..exact.solver import INF

    if value >= (INF if inf is None else inf):
        return f"{word}\tinf\timpossible"
    return f"{word}\t{value}\t{'exact' if exact else 'lower-bound'}"
