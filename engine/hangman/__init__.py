"""Hangman: optimal letter-guessing trees, baselines, a game server and a bot.

`cli_build(args)` is what `wordtree build hangman ...` runs; `tree.verify_file(path)` is what
`wordtree verify` runs for a hangman tree. Numba is imported only by the modules that need it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..data import trees_dir

TREE_DIR = trees_dir() / "hangman"
DEFAULT_MAX_NODES = 2_000_000  # enough for lengths 2 and 9-15; 3-5 then settle for the best found
# lengths whose proof needs more (6: 469 M nodes, 2 h 7 min over three runs, a memo of half of 23 GB;
# 7: 70.6 M nodes, 10 min, 5.9 GB; 8: 7.8 M nodes, about a minute, 1.3 GB)
PROOF_NODES = {6: 1_000_000_000, 7: 150_000_000, 8: 30_000_000}
EXACT_BELOW = 150  # best-found trees search subsets up to this size exactly (Searcher.best_found_chooser)
SUBTREE_NODES = 5_000  # and give each such subset this many search nodes
# Searcher.partition_bound's parameters where the search does not finish: at lengths 3-6 the groups
# (by vowel pattern; at length 3 by middle letter, none pooled; at length 4 by last letter, which gave
# 14.31 against 14.96 by vowels, as a part then pays for finding its vowels) packed into parts of at most
# `part_size` words, each part's search given `group_nodes` nodes. Elsewhere every large group alone
# in 4 M nodes, the parts then made to agree on the first letter (levels=1, which over large parts
# would search each again for every first letter: hours). The parts are as large as still solve in
# their nodes: at lengths 5 and 6, 1800 words (pairs of large groups) gave 15.96 and 16.73 against
# 16.05 and 16.79 with 900, while a part of 2685 words (three groups) at length 6 did not solve in 40 M
BOUND_PARTS = {3: {"group_by": 1, "pooled_below": 1, "part_size": 330, "group_nodes": 40_000_000, "levels": 0},
               4: {"group_by": 3, "pooled_below": 96, "part_size": 600, "group_nodes": 40_000_000, "levels": 0},
               5: {"group_by": None, "pooled_below": 96, "part_size": 1800, "group_nodes": 40_000_000, "levels": 0},
               6: {"group_by": None, "pooled_below": 96, "part_size": 1800, "group_nodes": 40_000_000, "levels": 0}}

HOW_BOUND = ("the larger of: two guesses deep, the least cost over every first letter of its misses plus its "
             "children's bounds (below: the memo's or the miss-spine bound, summed over the classes of a letter every "
             "candidate contains); and the sum of the exact costs of parts of the words, each solved alone, a part "
             "being groups of words with the same vowels in the same places (group_by null) or the same letter at "
             "position group_by (from 0): the groups under pooled_below words together, the others packed into parts "
             "of at most part_size words (0: each alone), a part not solved in group_nodes nodes split in two; with "
             "levels 1, the least over the first letters of the sum of the parts' exact costs when opened with that "
             "letter")


def bound_parts(length: int) -> dict:
    """The keyword arguments of Searcher.partition_bound at this length, as the build uses them."""
    from .search import GROUP_NODES, POOLED_BELOW

    return BOUND_PARTS.get(length, {"group_by": None, "pooled_below": POOLED_BELOW, "part_size": 0,
                                    "group_nodes": GROUP_NODES, "levels": 1})


def parts_within(length: int, memory_bytes: float | None, threads: int) -> dict:
    """bound_parts(length), each part's node budget cut to what `threads` memos of parts at once
    can have within `memory_bytes` (default half of the memory): a smaller machine gets a
    smaller bound, never a wrong one."""
    from .search import ENTRY_BYTES, half_of_memory

    parts = bound_parts(length)
    cap = half_of_memory() if memory_bytes is None else memory_bytes
    if cap is not None:
        parts["group_nodes"] = min(parts["group_nodes"], int(cap / threads / ENTRY_BYTES))
    return parts


def proven_bound(s, members, length: int, memory_bytes: float | None, progress: bool, threads: int = 1) -> dict:
    """The file's record of a proven upper bound on the expected score of the set (every tree's):
    the larger of Searcher.lower_bound two guesses deep and Searcher.partition_bound with
    bound_parts(length), its parts solved `threads` at a time, their memos together within
    `memory_bytes` (default half of the memory); `progress`: its bar (at length 5 the parts take
    36 minutes on one thread)."""
    import time

    from .game import WIN_POINTS

    started = time.perf_counter()
    parts = parts_within(length, memory_bytes, threads)
    bound = max(s.lower_bound(members, s.strikes, levels=2),
                s.partition_bound(members, s.strikes, **parts, progress=progress, threads=threads))
    c_low, m_low = s.split_cost(bound)
    record = {"max_expected_score": round(WIN_POINTS - c_low / s.total_weight, 6),
              "max_total_score": WIN_POINTS * s.total_weight - c_low}
    if m_low is not None:  # the tie-break's part of the bound: the fewest misses a tree of that score can make
        record["least_total_misses_at_max"] = m_low
    return record | {"how": HOW_BOUND, "parts": parts, "seconds": round(time.perf_counter() - started, 3)}


def build_options(args, length: int):
    """(words, lives, memory cap in bytes or None, threads) that build hangman's options ask for
    at this length: what --status, --bound-only and a build each start from."""
    from ..exact.context import default_threads
    from .game import load_hangman_words

    hw = load_hangman_words(length, getattr(args, "words", None), getattr(args, "weights", None))
    lives = 10 if getattr(args, "lives", None) is None else args.lives
    memory = getattr(args, "memory", None)
    threads = getattr(args, "threads", None) or default_threads()
    return hw, lives, None if memory is None else memory * 2**30, threads


def tree_game(hw, lives: int) -> dict:
    """The "game" record of a tree file: what a tree was made for (words, weights, lives)."""
    game = {k: v for k, v in hw.identity.items() if k != "list_sha256"}
    return game | {"lives": lives, "lost_at_wrong_guess": lives + 1}


def tree_path(length: int, weighted: bool) -> Path:
    return TREE_DIR / f"hangman-{length}{'-weighted' if weighted else ''}.json"


def cli_build(args) -> int:
    """Build the trees asked for; print one line per length. Returns the exit status."""
    from ..errors import UsageError
    from .game import MAX_LENGTH, MIN_LENGTH

    if getattr(args, "all_lengths", False):
        lengths = list(range(MIN_LENGTH, MAX_LENGTH + 1))
    elif getattr(args, "length", None) is not None:
        lengths = [args.length]
    else:
        raise UsageError("build hangman needs --length N or --all-lengths")
    if getattr(args, "max_nodes", None) is not None and args.max_nodes < 1:
        raise UsageError(f"--max-nodes {args.max_nodes}: must be 1 or more")
    if getattr(args, "memory", None) is not None and not args.memory > 0:
        raise UsageError(f"--memory {args.memory}: must be a positive number of gigabytes")
    checkpoint = getattr(args, "checkpoint", None)
    if getattr(args, "checkpoint_mb", None) is not None and not (args.checkpoint_mb > 0 and checkpoint):
        raise UsageError(f"--checkpoint-mb {args.checkpoint_mb}: needs --checkpoint FILE and a positive size")
    if getattr(args, "resume", False) and not checkpoint:
        raise UsageError("--resume needs --checkpoint FILE")
    if getattr(args, "bound_only", False) and (checkpoint or getattr(args, "strategy", None) not in (None, "exact")):
        raise UsageError("--bound-only bounds a tree already written: drop --checkpoint and --strategy")
    if checkpoint and len(lengths) > 1:
        raise UsageError("--checkpoint is for one length at a time (--length N)")
    merge, refute = getattr(args, "merge", None), getattr(args, "refute", None)
    if (merge or refute) and (not checkpoint or getattr(args, "bound_only", False)):
        raise UsageError("--merge and --refute work on one --checkpoint FILE of one --length N")
    if merge and refute:
        raise UsageError("--merge and --refute are two steps: run one, then the other")
    if refute and not (refute.isascii() and refute.isalpha()):
        raise UsageError(f"--refute {refute}: letters a to z, e.g. --refute aos")
    if (getattr(args, "against", None) or getattr(args, "by_parts", False)) and not refute:
        raise UsageError("--against and --by-parts go with --refute LETTERS")
    output = getattr(args, "output", None)
    import signal
    import threading

    # a TERM stops the build as Ctrl-C does: the memo is saved at the end of the current slice
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler) if main_thread else None
    try:
        for length in lengths:
            path = tree_path(length, bool(args.weights))
            if output:
                out = Path(output)
                path = out / path.name if (len(lengths) > 1 or out.is_dir()) else out
            rebuild = (merge_checkpoint if merge else refute_letters if refute
                       else rebound_file if getattr(args, "bound_only", False) else build_length)
            print(rebuild(length, args, path), flush=True)
    except KeyboardInterrupt:
        saved = f"; the search so far is in {checkpoint}: add --resume to go on" if checkpoint else ""
        print(f"wordtree: interrupted{saved}", file=sys.stderr, flush=True)
        return 130
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    return 0


def checkpoint_status(args) -> list[str]:
    """What the checkpoint of a stopped exact search (`build hangman --length N --checkpoint F`)
    proves, read without searching: the optimum if it is there, else, for each first letter, how
    many of its classes are solved and the expected score it can reach at most (its misses plus
    its classes' exact values or lower bounds), the least of which bounds the whole; a letter
    with every class solved is a tree, so its score is reached. Sound whatever the memo kept:
    compaction only drops entries, and a dropped set counts with its static bound."""
    import numpy as np

    from ..errors import UsageError, UserError
    from .game import WIN_POINTS
    from .search import Searcher

    if getattr(args, "length", None) is None or getattr(args, "all_lengths", False):
        raise UsageError("build hangman --status needs --length N (and the --checkpoint of that build)")
    hw, lives, memory_bytes, _ = build_options(args, args.length)
    s = Searcher(hw, lives, memo_entries=16, memory_bytes=memory_bytes)
    nodes = s.load_memo(args.checkpoint)
    if nodes is None:
        raise UserError(f"{args.checkpoint}: no such checkpoint")

    def score(cost: int) -> str:
        return f"{WIN_POINTS - s.split_cost(cost)[0] / s.total_weight:.4f}"

    everyone = np.arange(len(hw.words))
    lines = [f"{args.checkpoint}: hangman, {args.length} letters, {len(hw.words)} words, {lives} lives: "
             f"{nodes} search nodes in {s.work_done()[1]:.0f} s, {s.memo_entries} memo entries"]
    root, exact = s.known(everyone, s.strikes)
    if exact:
        return lines + [f"proven optimal: expected score {score(root)} (--resume writes the tree)"]
    letters = s.useful_letters(everyone)
    free = [c for c in letters if s.weights[everyone][s.masks[everyone, c] == 0].sum() == 0]
    rows = []
    for c in free[:1] if s.free_first and free else letters:  # with a free letter, only it (kernels._solve)
        solved: list[bool] = []

        def class_cost(part, strikes: int) -> int:
            value, ok = s.known(part, strikes)
            solved.append(ok)
            return value

        cost = s._opening_cost(everyone, s.strikes, c, class_cost)
        rows.append((cost, all(solved), chr(ord("a") + c), sum(solved), len(solved)))
    rows.sort()
    reached = min((row for row in rows if row[1]), default=None)
    lines.append(f"not proven yet: expected score at most {score(max(root, rows[0][0]))}"
                 + (f", and {score(reached[0])} reached (first letter {reached[2]}, every class solved)" if reached else ""))
    for cost, ok, letter, solved, n in rows:
        beaten = reached is not None and not ok and cost >= reached[0]
        lines.append(f"  {letter}: {solved}/{n} classes solved, expected score {'exactly' if ok else 'at most'} "
                     f"{score(cost)}" + (f" (no better than {reached[2]}: refuted)" if beaten else ""))
    return lines


def read_tree_of(hw, lives: int, path: Path, needs: str) -> dict:
    """The verified tree file at `path`, which must be one of this game (these words, weights and
    lives); else a UserError of one line (`needs`: what is missing, when there is no file)."""
    import orjson

    from ..errors import UserError
    from .tree import verify_document

    try:
        doc = orjson.loads(path.read_bytes())
        verify_document(doc, path.resolve().parent)
    except OSError as exc:
        raise UserError(f"{path}: {needs} ({exc.strerror})") from None
    except orjson.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc})") from None
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    if any(doc["game"].get(k) != v for k, v in tree_game(hw, lives).items()):
        raise UserError(f"{path}: a tree of another game (not {hw.length} letters of these words with {lives} lives)")
    return doc


def merge_checkpoint(length: int, args, path: Path) -> str:
    """`build hangman --checkpoint F --merge OTHER`: add what OTHER's search proved to F (created if
    absent), whose nodes and seconds then count the runs of both, each once (see Searcher.merge_memo)."""
    import numpy as np

    from .search import Searcher

    hw, lives, memory_bytes, _ = build_options(args, length)
    s = Searcher(hw, lives, memo_entries=16, memory_bytes=memory_bytes)
    s.load_memo(args.checkpoint)
    changed, _, _ = s.merge_memo(args.merge)
    mb = getattr(args, "checkpoint_mb", None)
    s.save_memo(args.checkpoint, max_bytes=None if mb is None else mb * 2**20,
                root=(np.arange(len(hw.words)), s.strikes))
    nodes, seconds = s.work_done()
    return (f"{args.checkpoint}: {changed} entries added or made better from {args.merge}, "
            f"{s.memo_entries} in all; {nodes} search nodes in {seconds:.0f} s")


def refute_letters(length: int, args, path: Path) -> str:
    """`build hangman --length N --checkpoint F --refute LETTERS [--against TREE]`: each opening
    shown no better than the tree (default the shipped one, or -o) or found better
    (refute_openings), a line each; --resume goes on from F. A letter that splits nothing is never
    worth guessing (kernels._letter_stats) and is said so, unsearched."""
    import numpy as np

    from .game import WIN_POINTS
    from .search import Searcher, memo_capacity, refute_openings

    hw, lives, memory_bytes, threads = build_options(args, length)
    letters = sorted({ord(c) - ord("a") for c in args.refute.lower()})
    path = Path(args.against) if getattr(args, "against", None) else path
    doc = read_tree_of(hw, lives, path, "--refute needs a tree to beat there")
    max_nodes = getattr(args, "max_nodes", None) or 10**15
    # the parts' memos, apart from the search's (which holds only small classes when a refutation
    # goes by parts): each within --memory
    parts = parts_within(length, memory_bytes, threads) if getattr(args, "by_parts", False) else None
    entries = memo_capacity(min(max_nodes, 10**11), memory_bytes)
    s = Searcher(hw, lives, memo_entries=entries, memory_bytes=memory_bytes)
    target = tree_cost(s, doc["result"])
    everyone = np.arange(len(hw.words))
    useful = set(s.useful_letters(everyone))
    mb = getattr(args, "checkpoint_mb", None)
    found, nodes = refute_openings(s, everyone, s.strikes, [c for c in letters if c in useful], target, max_nodes,
                                   args.checkpoint,
                                   getattr(args, "resume", False), not getattr(args, "quiet", False),
                                   None if mb is None else mb * 2**20, parts, threads=threads)

    def score(cost: int) -> str:
        return f"{WIN_POINTS - s.split_cost(cost)[0] / s.total_weight:.4f}"

    lines = [f"{args.checkpoint}: first letters of {length} letters against {path.name} (expected score "
             f"{score(target)}): {nodes} search nodes"]
    for c in letters:
        name = chr(ord("a") + c)
        if c not in useful:
            lines.append(f"  {name}: splits nothing, never worth guessing")
            continue
        if c not in found:
            lines.append(f"  {name}: not reached within --max-nodes (--resume goes on)")
            continue
        cost, exact = found[c]
        if cost >= target:
            lines.append(f"  {name}: no better than the tree (expected score {'exactly' if exact else 'at most'} "
                         f"{score(cost)})")
        elif exact:
            lines.append(f"  {name}: better than the tree: expected score exactly {score(cost)}")
        else:
            lines.append(f"  {name}: not refuted by its parts (expected score at most {score(cost)}): "
                         f"drop --by-parts to search its largest class")
    return "\n".join(lines)


def rebound_file(length: int, args, path: Path) -> str:
    """`build hangman --bound-only`: prove the bound of the best-found tree already at `path` again,
    with this version's bound_parts, and write it in the file; the tree, its figures and the other
    records stay. Why: a tree that came from a long search (hangman-6.json, from a checkpoint of
    6666 s) can get a better bound without that search being run again."""
    import numpy as np

    from ..errors import UserError
    from .search import Searcher
    from .tree import verify_file, write_document

    hw, lives, memory_bytes, threads = build_options(args, length)
    doc = read_tree_of(hw, lives, path, "--bound-only needs the tree to bound there")
    if doc["result"].get("optimal"):
        raise UserError(f"{path}: proven optimal already; there is no bound to improve")
    s = Searcher(hw, lives, memo_entries=16)
    progress = not getattr(args, "quiet", False)
    doc["result"]["bound"] = proven_bound(s, np.arange(len(hw.words)), length, memory_bytes, progress, threads)
    write_document(path, doc)
    return f"{path}: {verify_file(path)} [bound: {doc['result']['bound']['seconds']:.1f} s]"


def tree_cost(s, result: dict) -> int:
    """The search's cost of a tree file's "result" record (its wrong guesses and lost words)."""
    from .search import Totals

    return s.totals_cost(Totals(result["total_misses"], result["lost_weight"], s.total_weight))


def tree_at(hw, lives: int, path: Path) -> dict | None:
    """The tree of this game already at `path` (the shipped one by default), or None: no file
    there, or a file the build may write over (not a tree of this game)."""
    from ..errors import UserError

    if not path.is_file():
        return None
    try:
        return read_tree_of(hw, lives, path, "")
    except UserError:
        return None


def best_known_cost(s, doc: dict | None, baselines) -> int:
    """The least cost of a tree at hand: the baseline rules' (their Totals), and the tree of this
    game already at -o or else the shipped one (tree_at's `doc`). The whole search then
    only has to beat it, so a first letter tried before the optimal one is refuted against it
    instead of being solved exactly (at length 5, `s` covers more words than `e`, the
    best-found tree's opener)."""
    costs = [s.totals_cost(t) for t in baselines]
    return min(costs + ([tree_cost(s, doc["result"])] if doc else []))


def kept_bound(doc: dict | None) -> dict | None:
    """The proven bound of the best-found tree at hand (tree_at's `doc`), when it was proven
    the way this version proves one (HOW_BOUND): a bound is a fact of the game, not of a tree, so
    a rebuild of a tree (from a longer search's checkpoint, say) keeps it rather than spend the
    36 minutes of the length-5 parts again; --bound-only proves it anew."""
    bound = doc["result"].get("bound") if doc else None  # an exhaustive proof's tree has none
    return bound if bound and bound.get("how") == HOW_BOUND else None


def build_length(length: int, args, path: Path) -> str:
    """Search one length, write its tree, verify the file; the verifier's summary line."""
    import time

    import numpy as np

    from .. import ENGINE
    from .search import RULES, Searcher, Totals, memo_capacity, solve_in_slices
    from .tree import (
        FORMAT,
        build_tree,
        meets_bound,
        sources_for,
        verify_file,
        write_document,
    )

    started = time.perf_counter()
    hw, lives, memory_bytes, threads = build_options(args, length)
    max_nodes = getattr(args, "max_nodes", None) or PROOF_NODES.get(length, DEFAULT_MAX_NODES)
    entries = memo_capacity(max_nodes, memory_bytes)
    s = Searcher(hw, lives, memo_entries=entries, memory_bytes=memory_bytes)
    everyone = np.arange(len(hw.words))
    rule_totals = {rule: s.rule_totals(rule) for rule in RULES}
    baselines = {rule: t.as_dict() for rule, t in rule_totals.items()}
    strategy = getattr(args, "strategy", None)
    if strategy not in (None, "exact", *RULES):
        from ..errors import UsageError

        raise UsageError(f"--strategy {strategy}: hangman knows exact, {', '.join(RULES)}")
    result: dict = {"optimal": False, "proof": None}
    if strategy in RULES:

        def choose(members, strikes):
            return s.rule_letter(members, strategy)

    else:
        # the tree at hand: the one at -o, else the shipped one (a resume written elsewhere keeps both
        # its target and its bound)
        at_hand = tree_at(hw, lives, path) or tree_at(hw, lives, tree_path(length, bool(args.weights)))
        mb = getattr(args, "checkpoint_mb", None)
        cost, finished, nodes = solve_in_slices(s, everyone, s.strikes, max_nodes, getattr(args, "checkpoint", None),
                                                getattr(args, "resume", False), not getattr(args, "quiet", False),
                                                checkpoint_bytes=None if mb is None else mb * 2**20,
                                                limit=best_known_cost(s, at_hand, rule_totals.values()) + 1)
        result["search"] = {"nodes": nodes, "max_nodes": max_nodes, "memo_entries": s.memo_entries}
        if finished:
            strategy = "exact"
            result.update(optimal=True, proof="exhaustive")

            def choose(members, strikes):
                _, ok, letter = s.solve(members, strikes)
                return letter

        else:
            strategy = "best-found"
            result["search"].update(exact_below=EXACT_BELOW, subtree_nodes=SUBTREE_NODES,
                                    proven_sets="played optimally: the sets whose exact value the search proved",
                                    larger_sets="one letter of lookahead over the frequency rule (heuristic)")
            result["bound"] = kept_bound(at_hand) or proven_bound(s, everyone, length, memory_bytes,
                                                                  not getattr(args, "quiet", False), threads)

            choose = s.best_found_chooser(EXACT_BELOW, SUBTREE_NODES)

    counts = {"misses": 0, "lost": 0}
    tree = build_tree(hw, everyone, s.strikes, choose, counts)
    totals = Totals(counts["misses"], counts["lost"], s.total_weight)
    if result["optimal"] and s.totals_cost(totals) != cost:
        raise AssertionError(f"length {length}: the tree costs {s.totals_cost(totals)}, the search said {cost}")
    if "bound" in result and meets_bound(result["bound"], totals.score, totals.misses):  # a best-found tree
        result.update(optimal=True, proof="bound met")
    result.update(totals.as_dict())
    result["seconds"] = round(time.perf_counter() - started + s.work_done()[1], 3)  # and the runs resumed
    game = tree_game(hw, lives)
    doc = {
        "format": FORMAT,
        "engine": ENGINE,
        "game": game,
        "sources": sources_for(game),
        "objective": "largest expected score (20 per solved word, minus 1 per wrong guess), then fewest "
                     "wrong guesses" + ("" if s.key else " (tie-break dropped: weights too large)"),
        "strategy": strategy,
        "result": result,
        "baselines": baselines,
        "tree": tree,
    }
    write_document(path, doc)
    return f"{path}: {verify_file(path)} [{result['seconds']:.1f} s]"
