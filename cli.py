"""The `wordtree` command: argparse subcommands that import the engine lazily.

Each subcommand is an `_add_<name>` function that declares its arguments (registered in the
order defined) and a `_run_<name>` function that does the work, importing what it needs inside:
`--help` and the tree lookups never import numba.
"""

from __future__ import annotations

import argparse
import os
import sys

from engine.errors import UsageError, UserError


# ------------------------------------------------------------------------------------------------
# shared options
# ------------------------------------------------------------------------------------------------
def _game_options(p: argparse.ArgumentParser, positional: bool = True) -> None:
    if positional:
        p.add_argument("game", nargs="?", default=None, help="game preset (default: wordle)")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")
    p.add_argument("--cache-dir", metavar="DIR", help="pattern-matrix cache folder (default: $WORDTREE_CACHE_DIR or ~/.cache/wordtree)")
    p.add_argument("--pegs", type=int, help="mastermind: code length (default 4)")
    p.add_argument("--colours", type=int, help="mastermind: number of colours (default 6)")
    p.add_argument("--digits", type=int, help="bulls-cows: code length (default 4)")
    p.add_argument("--repeats", action="store_true", help="bulls-cows: allow repeated digits")


GAME_CAP = 0  # --max-guesses not given: the game's own cap (a user's value is at least 1)


def _load_game(args):
    from engine.games import get_game

    options = {key: getattr(args, key, None) for key in ("pegs", "colours", "digits", "repeats")}
    options = {key: value for key, value in options.items() if value not in (None, False)}
    game = get_game(getattr(args, "game", None), args.answers, args.guesses, **options)
    for notice in game.notices:
        print(notice, file=sys.stderr)
    if getattr(args, "max_guesses", None) == GAME_CAP:
        args.max_guesses = game.default_cap
    return game


# ------------------------------------------------------------------------------------------------
# info
# ------------------------------------------------------------------------------------------------
def _add_info(sub) -> None:
    p = sub.add_parser("info", help="describe a game: lists, sizes, hashes, patterns")
    _game_options(p)


def _run_info(args) -> int:
    import numpy as np

    from engine.patterns import pattern_matrix

    game = _load_game(args)
    pm = pattern_matrix(game, args.cache_dir)
    ident = game.identity()
    print(f"game: {game.name} ({game.kind})")
    for key in ("answers", "guesses"):
        print(f"{key}: {ident[key]}  {ident[key + '_count']} words  sha256 {ident[key + '_sha256']}")
    for key, value in ident.items():
        if key not in {"name"} and not key.startswith(("answers", "guesses")):
            print(f"{key}: {value}")
    distinct = int(np.count_nonzero(np.bincount(pm.matrix.ravel(), minlength=game.n_codes)))
    print(f"patterns: {distinct} of {game.n_codes} possible occur")
    print(f"pattern matrix: {pm.matrix.shape[0]} x {pm.matrix.shape[1]} {pm.matrix.dtype}, "
          f"{pm.source} in {pm.seconds * 1000:.1f} ms" + (f" ({pm.path})" if pm.path else ""))
    if game.default_first:
        print(f"proven best first guess: {game.default_first}")
    return 0


# ------------------------------------------------------------------------------------------------
# feedback
# ------------------------------------------------------------------------------------------------
def _add_feedback(sub) -> None:
    p = sub.add_parser("feedback", help="the pattern a guess gets against an answer ('-' reads pairs from stdin)")
    p.add_argument("guess", help="the guess, or - to read 'GUESS ANSWER' lines from stdin")
    p.add_argument("answer", nargs="?", help="the answer")
    p.add_argument("--game", default=None, help="game preset (default: wordle)")
    _game_options(p, positional=False)


def _run_feedback(args) -> int:
    game = _load_game(args)
    if args.guess != "-":
        if args.answer is None:
            raise UsageError("feedback needs GUESS ANSWER, or - to read pairs from stdin")
        guess, answer = _feedback_pair(game, args.guess, args.answer, "command line")
        print(game.pattern_text(game.feedback(guess, answer)))
        return 0
    cache: dict[tuple[str, str], str] = {}
    out = []
    for lineno, line in enumerate(sys.stdin, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2:
            raise UserError(f"stdin:{lineno}: expected 'GUESS ANSWER', got {line.strip()!r}")
        key = (parts[0], parts[1])
        if key not in cache:
            guess, answer = _feedback_pair(game, parts[0], parts[1], f"stdin:{lineno}")
            cache[key] = game.pattern_text(game.feedback(guess, answer))
        out.append(cache[key])
        if len(out) >= 65536:
            sys.stdout.write("\n".join(out) + "\n")
            out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    return 0


def _feedback_pair(game, guess: str, answer: str, where: str) -> tuple[str, str]:
    guess, answer = guess.strip().lower(), answer.strip().lower()
    if guess not in game.guess_index:
        raise UserError(f"{where}: {guess!r} is not an allowed guess in {game.name}")
    if answer not in game.answer_index:
        raise UserError(f"{where}: {answer!r} is not an answer in {game.name}")
    return guess, answer


# ------------------------------------------------------------------------------------------------
# build, rank  (engine/search.py, rank.py, heuristics.py)
# ------------------------------------------------------------------------------------------------
def _max_guesses(text: str) -> int | None:
    if text.lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'none', got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _search_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-guesses", type=_max_guesses, default=GAME_CAP, metavar="N|none",
                   help="guess cap per answer (default: the game's, 6 for Wordle and Mastermind, 7 for Bulls and "
                        "Cows; 'none' for no cap)")
    p.add_argument("--mode", default="normal", choices=["normal", "hard", "ultra"],
                   help="game rules: normal (default), hard (NYT: greens stay, revealed letters reused) or "
                        "ultra (every guess consistent with all the feedback so far)")
    p.add_argument("--threads", type=int, default=None, metavar="N", help="worker threads (default: the cores, at most 2)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_build(sub) -> None:
    p = sub.add_parser("build", help="build the exact optimal tree (or a labelled greedy baseline)")
    _game_options(p)
    _search_options(p)
    p.add_argument("--first", metavar="WORD|auto",
                   help="opening guess (default: the proven best recorded for the preset, else auto = found exactly)")
    p.add_argument("--from", dest="state", metavar="STATE", help="solve from a game in progress, e.g. salet:BBYBB,crony:BGYBB")
    p.add_argument("--strategy", default="exact", choices=["exact", "entropy", "minimax", "frequency"],
                   help="exact (default) or a greedy baseline, labelled not optimal")
    p.add_argument("--objective", default="total", choices=["total", "worst"],
                   help="total (default): fewest guesses in all; worst: fewest guesses in the worst case, then in all")
    p.add_argument("-o", "--output", metavar="FILE", help="write the tree as wordtree/1 JSON")
    p.add_argument("--checkpoint", metavar="FILE", help="save each finished subtree of the opener here as it comes "
                   "(with --first auto, the rank of the openers goes to FILE.rank); hangman: the exact search's "
                   "memo, saved every few minutes and when stopped")
    p.add_argument("--resume", action="store_true", help="continue a stopped build from --checkpoint")
    p.add_argument("--status", action="store_true", help="print what --checkpoint proves so far (each class of the "
                   "opener exact or bounded below, and the total's lower bound; hangman: each first letter's "
                   "classes solved and the score it can reach at most), then stop")
    _hangman_build_options(p)


def _run_build(args) -> int:
    if args.status and args.state:
        raise UsageError("--status reads the checkpoints of whole-game builds; drop --from")
    if args.game == "hangman":
        from engine import hangman

        if args.status:
            if not args.checkpoint:
                raise UsageError("--status needs --checkpoint FILE")
            print("\n".join(hangman.checkpoint_status(args)))
            return 0
        return hangman.cli_build(args)
    import time

    from engine.heuristics import greedy_tree
    from engine.patterns import pattern_matrix
    from engine.search import NO_CAP, Infeasible, candidate_ids, parse_state
    from engine.tree import histogram_lines, make_document, write_tree

    if args.state and args.output:
        raise UsageError("-o writes whole-game trees only; drop --from or -o")
    if (args.resume or args.status) and not args.checkpoint:
        raise UsageError(f"--{'status' if args.status else 'resume'} needs --checkpoint FILE")
    if args.checkpoint and (args.strategy != "exact" or args.objective != "total"):
        raise UsageError("--checkpoint is for exact builds with --objective total")
    game = _load_game(args)
    history = parse_state(game, args.state)
    start = time.perf_counter()
    matrix = pattern_matrix(game, args.cache_dir).matrix
    if args.status:
        from engine.search import checkpoint_status

        print("\n".join(checkpoint_status(game, matrix, args.checkpoint, args.max_guesses, args.mode)))
        return 0
    recorded = None if history or args.strategy != "exact" else game.default_first
    first = args.first or recorded or "auto"
    if first != "auto":
        first = game.parse_guess(first)
    cap = args.max_guesses
    if args.strategy != "exact":
        if args.mode != "normal":
            raise UsageError("the greedy baselines play normal mode only")
        S = candidate_ids(game, history)
        if len(S) == 0:
            raise UserError("no answer is consistent with that history")
        opener = None if first == "auto" else game.guess_index[first]
        root = greedy_tree(game, matrix, S, args.strategy, opener)
        proof, optimal, total = "heuristic", False, None
    elif args.objective == "worst":
        # the smallest cap any tree meets (each smaller one proven impossible), then the best total
        for d in range(1, (cap or NO_CAP) + 1):
            try:
                result = _exact_tree(game, matrix, first, d, history, args)
                break
            except Infeasible:
                print(f"no tree within {d} guesses (proven)", file=sys.stderr)
        else:
            raise Infeasible(cap or NO_CAP)
        root, proof, optimal, total = result.root, "exhaustive", True, result.total
    else:
        result = _exact_tree(game, matrix, first, cap, history, args)
        root, proof, optimal, total = result.root, "exhaustive", True, result.total
    seconds = time.perf_counter() - start
    # a resumed build's tree records the time of every run (each checkpoint keeps its own)
    earlier = result.earlier_seconds if args.strategy == "exact" else 0.0
    if history:
        n = len(candidate_ids(game, history))
        cost = f"total {total} over {n} candidates, mean {total / n:.4f} more guesses (exact)" if total else args.strategy
        print(f"from {args.state}: next guess {root['guess']}; {cost}; {seconds:.2f} s")
        return 0
    extra = {"strategy": args.strategy} if args.strategy != "exact" else {}
    if optimal and first not in ("auto", recorded):
        # the search proved the best tree opening with this guess, not that the guess is the best
        extra["first_guess"] = "given"
    try:
        doc = make_document(game, root, mode=args.mode, max_guesses=cap, optimal=optimal, proof=proof,
                            seconds=earlier + seconds, extra=extra, objective=args.objective)
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
    if args.output:
        write_tree(args.output, doc)
    label = "optimal (exhaustive search)" if optimal else f"{args.strategy} heuristic, not optimal"
    if "first_guess" in extra:
        label = "optimal given that first guess (exhaustive search)"
    print(f"{game.name}: first guess {root['guess']}, {label}")
    print(f"total {stats['total']}  mean {stats['mean']:.4f}  worst {stats['worst']}  "
          f"answers {len(game.answers)}  time {seconds:.2f} s"
          + (f" ({earlier + seconds:.0f} s with the runs before this resume)" if earlier else ""))
    print("\n".join(histogram_lines(stats["histogram"])))
    if args.output:
        print(f"wrote {args.output}")
    return 0


def _exact_tree(game, matrix, first, cap, history, args):
    """The exact optimal tree within `cap`; raises Infeasible when none exists (proven)."""
    from engine.rank import rank
    from engine.search import INF, NO_CAP, Infeasible, build, finished_openers

    if first == "auto" and not history:
        rank_checkpoint = f"{args.checkpoint}.rank" if args.checkpoint else None  # a resume does not rank again
        # openers the checkpoint's build finished are known exactly: the rank only has to beat them
        known = finished_openers(game, matrix, args.checkpoint, cap, args.mode) if args.resume else {}
        ranked = rank(game, matrix, top=1, max_guesses=cap, threads=args.threads, progress=not args.quiet,
                      mode=args.mode, checkpoint=rank_checkpoint, resume=args.resume, known=known)
        if ranked.interrupted:
            raise KeyboardInterrupt
        word, value, _ = ranked.ordered()[0]
        if value >= INF:
            raise Infeasible(cap or NO_CAP)
        first, proven, rank_seconds = word, ranked.proven, ranked.earlier_seconds
    else:
        proven, rank_seconds = None, 0.0
    try:
        result = build(game, matrix, first=None if first == "auto" else first, max_guesses=cap, history=history,
                       threads=args.threads, progress=not args.quiet, mode=args.mode, checkpoint=args.checkpoint,
                       resume=args.resume, proven=proven)
        result.earlier_seconds += rank_seconds
        return result
    except KeyboardInterrupt:
        saved = f"; the finished subtrees are in {args.checkpoint}: add --resume to go on" if args.checkpoint else ""
        print(f"wordtree: interrupted{saved}", file=sys.stderr, flush=True)
        os._exit(130)  # a search thread may still be inside a kernel: do not wait for it


def _add_rank(sub) -> None:
    p = sub.add_parser("rank", help="exact values of the best K first guesses, and a proof for all others")
    _game_options(p)
    _search_options(p)
    p.add_argument("--top", type=int, default=10, metavar="K", help="how many first guesses to value exactly (default 10)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="rank only the first N in heuristic order")
    p.add_argument("-o", "--output", metavar="FILE.tsv", help="write the ranking as TSV (default: stdout)")
    p.add_argument("--checkpoint", metavar="FILE", help="save progress here as it goes")
    p.add_argument("--resume", action="store_true", help="continue from --checkpoint")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT|local",
                   help="run the jobs on a Dask cluster (pip install -e \".[cluster]\"); local: start one here")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="with --scheduler local: worker processes (default 2)")


def _run_rank(args) -> int:
    from engine.patterns import pattern_matrix
    from engine.rank import rank
    from engine.tree import write_atomic

    if args.resume and not args.checkpoint:
        raise UsageError("--resume needs --checkpoint FILE")
    if args.scheduler and args.threads is not None:
        raise UsageError("--threads is for in-process runs; with --scheduler, size the workers instead")
    if args.workers is not None and args.scheduler != "local":
        raise UsageError("--workers starts local workers: use it with --scheduler local")
    game = _load_game(args)
    matrix = pattern_matrix(game, args.cache_dir).matrix
    if args.scheduler:
        from engine.cluster import game_spec, rank_on_cluster

        result = rank_on_cluster(args.scheduler, game_spec(args, game), game, matrix, workers=args.workers,
                                 top=args.top, limit=args.limit, progress=not args.quiet,
                                 checkpoint=args.checkpoint, resume=args.resume)
    else:
        result = rank(game, matrix, top=args.top, limit=args.limit, max_guesses=args.max_guesses, threads=args.threads,
                      progress=not args.quiet, checkpoint=args.checkpoint, resume=args.resume, mode=args.mode)
    ident = game.identity()
    lines = [
        f"# wordtree rank: {game.name}, {args.mode} mode, cap {args.max_guesses or 'none'}, top {args.top}",
        f"# answers {ident['answers']} sha256 {ident['answers_sha256']}",
        f"# guesses {ident['guesses']} sha256 {ident['guesses_sha256']}",
        f"# first guesses ranked: {len(result.values)} of {result.considered}"
        + (" (interrupted: only these are proven)" if result.interrupted else "")
        + f"; {result.seconds:.1f} s"
        + (f" ({result.earlier_seconds + result.seconds:.0f} s with the runs before)" if result.earlier_seconds else "")
        + ("; one per symmetry class (codes of the same shape cost the same)" if game.symmetric and args.mode == "normal"
           else ""),
        "# word\tvalue\texact | word\tbound\tlower-bound | word\tinf\timpossible (no tree within the cap, proven)",
    ]
    lines += [_rank_line(w, v, e) for w, v, e in result.ordered()]
    text = "\n".join(lines) + "\n"
    if args.output:
        write_atomic(args.output, text.encode())
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if result.interrupted:
        sys.stdout.flush()
        os._exit(130)  # a worker may still be inside a kernel; the proven part is out and saved
    return 0


def _rank_line(word: str, value: int, exact: bool) -> str:
    """One TSV line; a bound at or past the kernels' infinity proves that no tree exists."""
    from engine.search import INF

    if value >= INF:
        return f"{word}\tinf\timpossible"
    return f"{word}\t{value}\t{'exact' if exact else 'lower-bound'}"


# ------------------------------------------------------------------------------------------------
# trees as files: verify, next, play, stats, export, import  (engine/tree.py, verify.py, player.py, formats.py)
# ------------------------------------------------------------------------------------------------
def _list_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--answers", metavar="FILE", help="the answer list, if not where the tree says")
    p.add_argument("--guesses", metavar="FILE", help="the guess list, if not where the tree says")


def _add_verify(sub) -> None:
    p = sub.add_parser("verify", help="check a tree independently: every answer, the rules, the cap, the stats")
    p.add_argument("tree", help="a wordtree/1 JSON file")
    _list_options(p)


def _run_verify(args) -> int:
    from engine.tree import histogram_lines, read_tree
    from engine.verify import load_lists, verify

    if _tree_format(args.tree) == "wordtree-hangman/1":
        from engine.hangman.tree import verify_file

        print(verify_file(args.tree))
        return 0
    doc = read_tree(args.tree)
    report = verify(doc, *load_lists(doc, args.answers, args.guesses))
    if not report.ok:
        raise UserError(f"{args.tree}: {report.defect}")
    game = doc["game"]
    print(f"{args.tree}: valid ({game['name']}, {game['mode']} mode, {report.answers} answers, {report.nodes} nodes)")
    print(f"total {report.total}  mean {report.mean}  worst {report.worst}")
    print("\n".join(histogram_lines(report.histogram)))
    return 0


def _tree_format(path) -> str | None:
    """The "format" field of a JSON tree file, or None if it cannot be read (read_tree then
    reports the problem)."""
    import orjson

    try:
        with open(path, "rb") as f:
            doc = orjson.loads(f.read())
    except (OSError, orjson.JSONDecodeError):
        return None
    return doc.get("format") if isinstance(doc, dict) else None


def _add_next(sub) -> None:
    p = sub.add_parser("next", help="the next guess from a tree after the steps played, e.g. next salet:BBYBB")
    p.add_argument("items", nargs="*", metavar="[TREE] GUESS:PATTERN",
                   help="a tree file (default: the shipped Wordle tree), then the steps played; "
                        "patterns as B/Y/G, 0/1/2 or squares")
    p.add_argument("--json", action="store_true", help="print guess, source, candidates, expected_guesses as JSON")
    _list_options(p)


def _run_next(args) -> int:
    from pathlib import Path

    from engine.player import lookup, open_tree, suggestion_lines

    items = list(args.items)
    tree = items.pop(0) if items and (":" not in items[0] or Path(items[0]).is_file()) else None
    suggestion = lookup(open_tree(tree), items, args.answers, args.guesses)
    if args.json:
        import orjson

        sys.stdout.write(orjson.dumps(suggestion.as_json()).decode() + "\n")
    else:
        print("\n".join(suggestion_lines(suggestion)))
    return 0


def _add_play(sub) -> None:
    p = sub.add_parser("play", help="an assistant for a real game (reads colours from stdin), or --answer WORD")
    p.add_argument("tree", nargs="?", help="a tree file (default: the shipped Wordle tree)")
    p.add_argument("--answer", metavar="WORD", help="play the tree against this answer and show the rows")
    _list_options(p)


def _run_play(args) -> int:
    from engine.player import Position, interactive, open_tree, play_answer

    position = Position(open_tree(args.tree), args.answers, args.guesses)
    if args.answer is not None:
        print("\n".join(play_answer(position, args.answer, sys.stdout.isatty())))
        return 0
    lines = (line for line in sys.stdin)
    return interactive(position, lines, lambda text: print(text, flush=True), sys.stdin.isatty())


def _add_stats(sub) -> None:
    p = sub.add_parser("stats", help="a tree's summary and histogram (as stored; `verify` recomputes)")
    p.add_argument("tree", help="a wordtree/1 JSON file")


def _run_stats(args) -> int:
    from engine.player import summary_lines
    from engine.tree import read_tree

    print("\n".join(summary_lines(read_tree(args.tree))))
    return 0


def _add_export(sub) -> None:
    p = sub.add_parser("export", help="write a tree in another program's format: selby, olson, leaderboard")
    p.add_argument("tree", help="a wordtree/1 JSON file")
    p.add_argument("--format", required=True, choices=("selby", "olson", "leaderboard"))
    p.add_argument("-o", "--output", metavar="FILE", help="output file (default: standard output)")
    _list_options(p)


def _run_export(args) -> int:
    from engine.formats import export_tree
    from engine.tree import game_for, read_tree, write_atomic

    doc = read_tree(args.tree)
    data = export_tree(doc, game_for(doc, args.answers, args.guesses), args.format)
    if args.output:
        write_atomic(args.output, data)
    else:
        sys.stdout.buffer.write(data)
    return 0


def _add_import(sub) -> None:
    p = sub.add_parser("import", help="read a tree in another program's format, verify it, write a wordtree/1 file")
    p.add_argument("file", help="the file to import (- for standard input)")
    p.add_argument("game", nargs="?", default=None, help="game preset (default: wordle)")
    p.add_argument("--format", required=True, choices=("selby", "olson", "leaderboard"))
    p.add_argument("-o", "--output", required=True, metavar="TREE", help="the wordtree/1 file to write")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")
    p.add_argument("--max-guesses", default="6", metavar="N", help="the game's cap (default 6; 'none' for no cap)")
    p.add_argument("--mode", default="normal", choices=("normal", "hard", "ultra"), help="the rules the tree obeys")


def _run_import(args) -> int:
    from pathlib import Path

    from engine.formats import import_tree
    from engine.tree import make_document, write_tree
    from engine.verify import load_lists, verify

    cap = None if args.max_guesses.lower() == "none" else _positive_int(args.max_guesses, "--max-guesses")
    game = _load_game(args)
    source = "stdin" if args.file == "-" else args.file
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        raise UserError(f"{args.file}: cannot read ({exc.strerror})") from None
    root = import_tree(data, args.format, game, source)
    doc = make_document(game, root, mode=args.mode, max_guesses=cap, optimal=False, proof="imported")
    report = verify(doc, *load_lists(doc, args.answers, args.guesses))
    if not report.ok:
        raise UserError(f"{source}: the imported tree is not valid: {report.defect}")
    write_tree(args.output, doc)
    print(f"{args.output}: {report.answers} answers, total {report.total}, mean {report.mean}, worst {report.worst}")
    return 0


def _positive_int(text: str, option: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"{option} must be a positive integer or 'none', not {text!r}")
    return int(text)


# ------------------------------------------------------------------------------------------------
# web, serve
# ------------------------------------------------------------------------------------------------
def _add_web(sub) -> None:
    p = sub.add_parser("web", help="write the web player for some trees: a static site that also works offline")
    p.add_argument("trees", nargs="*", metavar="TREE", help="tree files (default: every trees/*.json)")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="folder to write: new, empty, or a site written here before")


def _run_web(args) -> int:
    from pathlib import Path

    from engine.web import build_site

    site = build_site(args.trees, args.output)
    for notice in site.notices:
        print(notice, file=sys.stderr)
    index = (Path(args.output) / "index.html").resolve()
    print(f"wrote {len(site.files)} files to {args.output}; open {index.as_uri()}")
    return 0


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="serve the web player on 127.0.0.1 (Ctrl-C stops)")
    p.add_argument("trees", nargs="*", metavar="TREE", help="tree files (default: every trees/*.json)")
    p.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default 8000; 0 picks a free one)")
    p.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds (default: run until Ctrl-C)")


def _run_serve(args) -> int:
    import tempfile

    from engine.web import SiteServer, build_site

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: not a port number (0 to 65535)")
    if args.seconds is not None and not args.seconds > 0:
        raise UsageError(f"--seconds {args.seconds}: must be more than 0")
    with tempfile.TemporaryDirectory(prefix="wordtree-web-") as site:
        built = build_site(args.trees, site)
        for notice in built.notices:
            print(notice, file=sys.stderr)
        count = sum(p.suffix == ".json" for p in built.files)
        server = SiteServer(site, args.port)
        print(f"serving {count} tree(s) at {server.url} (Ctrl-C stops)", flush=True)
        try:
            server.serve(args.seconds)
        except KeyboardInterrupt:
            print("stopped", file=sys.stderr)
        finally:
            server.httpd.server_close()
    return 0


# ------------------------------------------------------------------------------------------------
# crossword  (engine/crossword.py, crossword_kernels.py)
# ------------------------------------------------------------------------------------------------
def _add_crossword(sub) -> None:
    p = sub.add_parser("crossword", help="fill a crossword grid with words, common ones first")
    p.add_argument("grid", metavar="GRID", help="text grid: '.' or '_' open, a letter pre-filled, '#' (anything else) a block")
    p.add_argument("--words", metavar="FILE", help="word list (default: enable1.txt)")
    p.add_argument("--scores", metavar="FILE", help="word quality: 'word;score' or 'word<TAB>count' lines (default: word-frequency.tsv)")
    p.add_argument("--any", action="store_true", help="take the first fill, without optimizing word quality")
    p.add_argument("--seed", type=int, default=0, help="seed of the randomized restarts (default: 0)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="time limit (default: 10)")
    p.add_argument("-o", "--output", metavar="OUT", help="also write OUT.json or OUT.png")
    p.add_argument("--cache-dir", metavar="DIR", help="word-index cache folder (default: $WORDTREE_CACHE_DIR or ~/.cache/wordtree)")


def _run_crossword(args) -> int:
    from pathlib import Path

    from engine import crossword as cw

    if not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {args.seed}")
    kind = Path(args.output).suffix.lower() if args.output else None
    if kind not in (None, ".json", ".png"):
        raise UsageError(f"-o {args.output}: unknown output type, use a .json or .png file name")
    if args.output and not Path(args.output).resolve().parent.is_dir():
        raise UserError(f"-o {args.output}: the folder does not exist")
    if kind == ".png":
        try:
            import PIL  # noqa: F401
        except ImportError:
            raise UserError('-o .png needs Pillow: pip install -e ".[images]"') from None
    rows = cw.read_grid(args.grid)
    slots = cw.find_slots(rows, args.grid)
    index = cw.word_index(args.words, args.scores, args.cache_dir)
    problem = cw.build_problem(rows, slots, index)
    result = cw.fill(problem, seed=args.seed, timeout=args.timeout, optimize=not args.any)
    print(cw.render_text(rows, slots, result, index))
    if kind == ".json":
        cw.write_json(args.output, cw.to_json(rows, slots, result, index, args.seed, args.timeout))
    elif kind == ".png":
        cw.write_png(args.output, rows, slots, result.words)
    return {"filled": 0, "impossible": 3, "timeout": 4}[result.status]


# ------------------------------------------------------------------------------------------------
# boggle  (engine/boggle.py, boggle_kernels.py)
# ------------------------------------------------------------------------------------------------
def _add_boggle(sub) -> None:
    p = sub.add_parser("boggle", help="word grids: every word on a board, random boards, the best boards")
    p.add_argument("board", nargs="?", metavar="BOARD", help="the letters row by row, q for Qu (e.g. perslatgsineters)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--random", type=int, metavar="N", help="score N random boards and report the speed")
    mode.add_argument("--best", action="store_true", help="search for the highest-scoring boards")
    p.add_argument("--rows", type=int, help="rows of the board (default: square, or 4 with --random/--best)")
    p.add_argument("--cols", type=int, help="columns of the board")
    p.add_argument("--words", metavar="FILE", help="word list, any alphabet (default: enable2k.txt)")
    p.add_argument("--min-length", type=int, default=3, metavar="N", help="shortest word that counts (default: 3)")
    p.add_argument("--json", action="store_true", help="print the board's words as JSON")
    p.add_argument("--seed", type=int, default=0, help="random seed for --random and --best (default: 0)")
    p.add_argument("--time", type=float, default=60.0, metavar="SECONDS", help="--best: time limit (default: 60)")
    p.add_argument("--restarts", type=int, metavar="N", help="--best: stop after N annealing runs instead")
    p.add_argument("--steps", type=int, default=30_000, metavar="N", help="--best: annealing steps per run (default: 30000)")
    p.add_argument("--top", type=int, default=5, metavar="K", help="--best: boards to print (default: 5)")
    p.add_argument("--cache-dir", metavar="DIR", help="trie cache folder (default: $WORDTREE_CACHE_DIR or ~/.cache/wordtree)")


def _run_boggle(args) -> int:
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
    from engine import boggle

    trie = boggle.load_trie(args.words, args.cache_dir)
    if args.board is not None:
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

    rng = np.random.default_rng(args.seed)
    best_score, best_cells, total, scoring = -1, "", 0, 0.0
    start = time.perf_counter()
    for lo in range(0, args.random, 100_000):
        boards = boggle.random_boards(rng, min(100_000, args.random - lo), rows, cols, trie)
        t = time.perf_counter()
        scores, _ = boggle.score_boards(boards, trie, rows, cols, args.min_length)
        scoring += time.perf_counter() - t
        total += int(scores.sum())
        if scores.max() > best_score:
            best_score, best_cells = int(scores.max()), boggle.cells_of(boards[scores.argmax()], trie)
    elapsed = time.perf_counter() - start
    dice = "standard dice" if boggle.dice_for(rows, cols, trie) else "uniform letters"
    print(f"{args.random} random {rows}x{cols} boards ({dice}), seed {args.seed}, {get_num_threads()} threads")
    print(f"scored in {scoring:.3f} s: {args.random / scoring:,.0f} boards/second "
          f"({args.random / elapsed:,.0f} counting the making of the boards and any first-call compile)")
    print(f"mean score {total / args.random:.2f}; best board {best_cells} with {best_score} points:")
    print(boggle.board_text(boggle.Board(best_cells, rows, cols)))
    return 0


def _boggle_best(boggle, trie, args, rows: int, cols: int) -> int:
    import time

    from tqdm import tqdm

    by_time = args.restarts is None
    bar = tqdm(total=round(args.time) if by_time else args.restarts, unit="s" if by_time else "run",
               desc=f"best {rows}x{cols}", disable=not sys.stderr.isatty(), dynamic_ncols=True)
    start = time.perf_counter()
    reached = [0, 0.0]  # best score so far, seconds when first reached

    def on_progress(best: int, done: int) -> None:
        if best > reached[0]:
            reached[:] = [best, time.perf_counter() - start]
        bar.n = min(round(time.perf_counter() - start), bar.total) if by_time else done
        bar.set_postfix_str(f"best {best}, {done} runs done")

    with bar:
        found = boggle.search_best(trie, rows, cols, seconds=args.time if by_time else None,
                                   restarts=args.restarts, seed=args.seed, min_length=args.min_length,
                                   steps=args.steps, on_progress=on_progress)
    ranked = sorted(found.items(), key=lambda item: (-item[1], item[0]))[: args.top]
    print(f"{len(found)} distinct boards from the annealing runs in {time.perf_counter() - start:.0f} s "
          f"(seed {args.seed}); the best, first reached after {reached[1]:.0f} s:")
    for cells, score in ranked:
        print(f"{score:6d}  {cells}")
    print()
    print(boggle.board_text(boggle.Board(ranked[0][0], rows, cols)))
    return 0


# ------------------------------------------------------------------------------------------------
# hangman: build options (called by `build`), hangman-server, hangman-bot
# ------------------------------------------------------------------------------------------------
def _hangman_build_options(p: argparse.ArgumentParser) -> None:
    """The options of `wordtree build hangman`; build calls engine.hangman.cli_build(args)."""
    g = p.add_argument_group("hangman")
    g.add_argument("--length", type=int, metavar="N", help="hangman: word length (2 to 15)")
    g.add_argument("--all-lengths", action="store_true", help="hangman: every length from 2 to 15 (-o is a folder)")
    g.add_argument("--words", metavar="FILE", help="hangman: word list (default enable1.txt)")
    g.add_argument("--weights", metavar="FILE", help="hangman: word<TAB>count weights (e.g. word-frequency.tsv)")
    g.add_argument("--lives", type=int, default=10, metavar="N", help="hangman: wrong guesses allowed per word (default 10)")
    g.add_argument("--max-nodes", type=int, metavar="N", help="hangman: exact-search node budget before settling for the best tree found")
    g.add_argument("--memory", type=float, metavar="GB",
                   help="hangman: most memory the exact search's memo may take (default half of this machine's); "
                        "a smaller memo is compacted when full: slower, same result")
    g.add_argument("--checkpoint-mb", type=float, metavar="MB",
                   help="hangman: write --checkpoint in at most MB megabytes, keeping what is proven of the first "
                        "letters' classes and of the largest sets (small enough to keep in git and resume on another "
                        "machine; a resume redoes the rest)")
    g.add_argument("--refute", metavar="LETTERS",
                   help="hangman: search only openings with these first letters (e.g. aos), each until it is shown "
                        "no better than the tree of --against or found better, into --checkpoint (for another core or "
                        "machine while the whole search runs; then --merge)")
    g.add_argument("--against", metavar="TREE",
                   help="hangman: with --refute, the tree of this game to beat (default the shipped one)")
    g.add_argument("--by-parts", action="store_true",
                   help="hangman: with --refute, bound each class of more than half of the words by the parts of "
                        "the proven bound (solved once for all the letters, --threads at a time, within --memory) "
                        "instead of searching it: for the rarest letters, whose miss class is nearly the whole game")
    g.add_argument("--merge", metavar="FILE",
                   help="hangman: add what the search of checkpoint FILE proved (e.g. a --refute run's) to --checkpoint")
    g.add_argument("--bound-only", action="store_true",
                   help="hangman: prove again the bound of the best-found tree already at -o (default the shipped "
                        "one) with this version's parts, and write it there; the tree stays")


def _add_hangman_server(sub) -> None:
    p = sub.add_parser("hangman-server", help="serve Hangman games: POST JSON to /game/on, sessions in SQLite")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080, help="port (0: any free port; default 8080)")
    p.add_argument("--words", default="enable1.txt", metavar="FILE", help="the words to draw (default enable1.txt)")
    p.add_argument("--db", default="hangman.sqlite3", metavar="FILE", help="the SQLite session store (default ./hangman.sqlite3)")
    p.add_argument("--words-per-game", type=int, default=80, metavar="N")
    p.add_argument("--lives", type=int, default=10, metavar="N", help="wrong guesses allowed per word (default 10)")
    p.add_argument("--seed", type=int, help="seed for drawing words (default: random)")


def _run_hangman_server(args) -> int:
    from engine.hangman.server import Game, make_server
    from engine.words import load_words

    if args.words_per_game < 1 or args.lives < 0:
        raise UsageError("--words-per-game must be 1 or more and --lives 0 or more")
    words = load_words(args.words).words
    try:
        server = make_server(Game(args.db, words, args.words_per_game, args.lives, args.seed), args.host, args.port)
    except OSError as exc:
        raise UserError(f"cannot serve on {args.host}:{args.port} ({exc.strerror or exc})") from None
    host, port = server.server_address[:2]
    print(f"hangman server on http://{host}:{port}/game/on ({len(words)} words, sessions in {args.db})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _add_hangman_bot(sub) -> None:
    p = sub.add_parser("hangman-bot", help="play a whole Hangman game against a server with the trees")
    p.add_argument("--url", required=True, help="the server's endpoint, e.g. http://127.0.0.1:8080/game/on")
    p.add_argument("--player", required=True, metavar="NAME")
    p.add_argument("--resume", metavar="SESSION", help="continue this session after a disconnect")
    p.add_argument("--words", metavar="FILE", help="the bot's dictionary (default enable1.txt)")


def _run_hangman_bot(args) -> int:
    from engine.hangman.bot import run_bot

    run_bot(args.url, args.player, args.resume, args.words, say=lambda line: print(line, flush=True))
    return 0


# ------------------------------------------------------------------------------------------------
# entry point
# ------------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wordtree",
        description="Provably optimal decision trees for word-guessing games: build, verify, look up, play.",
    )
    from engine import __version__

    parser.add_argument("--version", action="version", version=f"wordtree {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, add in list(globals().items()):  # every _add_<command>, in the order defined above
        if name.startswith("_add_") and callable(add):
            add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return globals()[f"_run_{args.command.replace('-', '_')}"](args) or 0
    except UserError as exc:
        print(f"wordtree: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("wordtree: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
