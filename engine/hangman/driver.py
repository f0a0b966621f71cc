"""The long-run Hangman build: trees of one length or all, a checkpoint's status, refuting first
letters, merging checkpoints, and proving a written tree's bound again. Plain keyword arguments
throughout; the command layer (commands/hangman.py) maps the command line onto them.

The node budgets and what the proofs took are in docs/log/hangman.md.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import NoCheckpoint, UserError
from ..numba_cache import compile_note, compile_seconds
from .game import MAX_LENGTH, MIN_LENGTH, WIN_POINTS, HangmanWords, load_hangman_words
from .search import Searcher, Totals

DEFAULT_MAX_NODES = 2_000_000  # enough for lengths 2 and 9-15; 3-5 then settle for the best found
PROOF_NODES = {6: 1_000_000_000, 7: 150_000_000, 8: 30_000_000}  # lengths whose proof needs more
EXACT_BELOW = 150  # best-found trees search subsets up to this size exactly (baselines.best_found_chooser)
SUBTREE_NODES = 5_000  # and give each such subset this many search nodes
ALL_LENGTHS = tuple(range(MIN_LENGTH, MAX_LENGTH + 1))


def game_of(length: int, words: str | None = None, weights: str | None = None) -> HangmanWords:
    """The words of one length (default enable1.txt), weighted by the file `weights` if given."""
    return load_hangman_words(length, words, weights)


def threads_or_default(threads: int | None) -> int:
    from ..exact.context import default_threads

    return threads or default_threads()


def tree_game(hw, lives: int) -> dict:
    """The "game" record of a tree file: what a tree was made for (words, weights, lives)."""
    game = {k: v for k, v in hw.identity.items() if k != "list_sha256"}
    return game | {"lives": lives, "lost_at_wrong_guess": lives + 1}


def tree_path(length: int, weighted: bool) -> Path:
    """Where the shipped tree of this length is (in the package's TREE_DIR, read when asked)."""
    from . import TREE_DIR

    return TREE_DIR / f"hangman-{length}{'-weighted' if weighted else ''}.json"


def output_path(length: int, weighted: bool, output=None, several: bool = False) -> Path:
    """Where a build writes the tree of this length: the shipped tree's place, else `output`, a
    file, or a folder (for several lengths, or a folder already there) that gets the shipped
    tree's name."""
    path = tree_path(length, weighted)
    if output:
        out = Path(output)
        path = out / path.name if (several or out.is_dir()) else out
    return path


def score_text(s: Searcher, cost: int) -> str:
    """The expected score of a cost, as the build's lines print it."""
    return f"{WIN_POINTS - s.split_cost(cost)[0] / s.total_weight:.4f}"


def checkpoint_status(length: int, checkpoint, *, words: str | None = None, weights: str | None = None,
                      lives: int = 10, memory_bytes: float | None = None) -> tuple[list[str], bool]:
    """What the checkpoint of a stopped exact search proves, read without searching: (lines,
    whether it proves the optimum). The optimum if it is there, else, for each first letter, how
    many of its classes are solved and the expected score it can reach at most (its misses plus
    its classes' exact values or lower bounds), the least of which bounds the whole; a letter
    with every class solved is a tree, so its score is reached. Sound whatever the memo kept:
    compaction only drops entries, and a dropped set counts with its static bound."""
    hw = game_of(length, words, weights)
    s = Searcher(hw, lives, memo_entries=16, memory_bytes=memory_bytes)
    nodes = s.load_memo(checkpoint, resuming=False)
    if nodes is None:
        raise NoCheckpoint(checkpoint)
    everyone = np.arange(len(hw.words))
    lines = [f"{checkpoint}: hangman, {length} letters, {len(hw.words)} words, {lives} lives: "
             f"{nodes} search nodes in {s.memo.work_done()[1]:.0f} s, {s.memo_entries} memo entries"]
    root, exact = s.known(everyone, s.strikes)
    if exact:
        return lines + [f"proven optimal: expected score {score_text(s, root)}"], True
    rows = first_letter_rows(s, everyone)
    reached = min((row for row in rows if row[1]), default=None)
    lines.append(f"not proven yet: expected score at most {score_text(s, max(root, rows[0][0]))}"
                 + (f", and {score_text(s, reached[0])} reached (first letter {reached[2]}, every class solved)"
                    if reached else ""))
    for cost, ok, letter, solved, n in rows:
        beaten = reached is not None and not ok and cost >= reached[0]
        lines.append(f"  {letter}: {solved}/{n} classes solved, expected score {'exactly' if ok else 'at most'} "
                     f"{score_text(s, cost)}" + (f" (no better than {reached[2]}: refuted)" if beaten else ""))
    return lines, False


def bound_so_far(s: Searcher, everyone: np.ndarray) -> str:
    """What the memo proves of the whole game so far, as the bar of a build shows it: the expected
    score it can reach at most (as checkpoint_status works it out), or exactly once found."""
    root, exact = s.known(everyone, s.strikes)
    if exact:
        return f"expected score exactly {score_text(s, root)}"
    rows = first_letter_rows(s, everyone)
    return f"expected score at most {score_text(s, max(root, rows[0][0]) if rows else root)}"


def first_letter_rows(s: Searcher, everyone: np.ndarray) -> list[tuple[int, bool, str, int, int]]:
    """(cost at most, every class solved, letter, classes solved, classes) of each first letter
    worth trying, cheapest first, from what the memo knows; with a free letter, only it
    (kernels._solve)."""
    letters = s.useful_letters(everyone)
    free = [c for c in letters if s.weights[everyone][s.masks[everyone, c] == 0].sum() == 0]
    rows = []
    for c in free[:1] if s.free_first and free else letters:
        solved: list[bool] = []

        def class_cost(part, strikes: int) -> int:
            value, ok = s.known(part, strikes)
            solved.append(ok)
            return value

        cost = s.opening_cost(everyone, s.strikes, c, class_cost)
        rows.append((cost, all(solved), chr(ord("a") + c), sum(solved), len(solved)))
    rows.sort()
    return rows


def read_tree_of(hw, lives: int, path: Path, needs: str, words: str | None = None, weights: str | None = None) -> dict:
    """The verified tree file at `path`, which must be one of this game (these words, weights and
    lives, `words` and `weights` the files it was loaded from, None for the default); else a
    UserError of one line (`needs`: what is missing, when there is no file)."""
    import orjson

    from ..files import read_bounded
    from ..wordle.tree import TREE_MAX_BYTES
    from .tree import verify_document

    if not os.path.lexists(path):
        raise UserError(f"{path}: {needs} (No such file or directory)")
    raw = read_bounded(path, TREE_MAX_BYTES, "tree file")
    try:
        doc = orjson.loads(raw)
        verify_document(doc, words, weights)
    except OSError as exc:
        raise UserError(f"{path}: {needs} ({exc.strerror})") from None
    except orjson.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc})") from None
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    if any(doc["game"].get(k) != v for k, v in tree_game(hw, lives).items()):
        raise UserError(f"{path}: a tree of another game (not {hw.length} letters of these words with {lives} lives)")
    return doc


def merge_checkpoint(length: int, checkpoint, other, *, words: str | None = None, weights: str | None = None,
                     lives: int = 10, memory_bytes: float | None = None, checkpoint_bytes: float | None = None) -> str:
    """Add what the search of checkpoint `other` proved to `checkpoint` (created if absent), whose
    nodes and seconds then count the runs of both, each once (see Memo.merge); its line."""
    hw = game_of(length, words, weights)
    s = Searcher(hw, lives, memo_entries=16, memory_bytes=memory_bytes)
    s.load_memo(checkpoint)
    changed, _, _ = s.memo.merge(other)
    s.save_memo(checkpoint, max_bytes=checkpoint_bytes, root=(np.arange(len(hw.words)), s.strikes))
    nodes, seconds = s.memo.work_done()
    return (f"{checkpoint}: {changed} entries added or made better from {other}, "
            f"{s.memo_entries} in all; {nodes} search nodes in {seconds:.0f} s")


@dataclass
class Refutation:
    """What refute_letters found: its first line, and for each letter asked (in order) its
    outcome: "useless" (splits nothing, never worth guessing, unsearched), "unreached" (not
    reached within the nodes), "no better" (than the tree), "better" (exactly, than the tree) or
    "open" (not refuted by its parts alone); with the expected score shown and whether it is
    exact."""

    title: str
    letters: list[tuple[str, str, str, bool]] = field(default_factory=list)  # (letter, outcome, score, exact)


def refute_letters(length: int, checkpoint, letters: str, tree, *, words: str | None = None,
                   weights: str | None = None, lives: int = 10, memory_bytes: float | None = None,
                   threads: int | None = None, max_nodes: int | None = None, resume: bool = False,
                   progress: bool = True, checkpoint_bytes: float | None = None, by_parts: bool = False) -> Refutation:
    """Each opening with one of `letters` shown no better than the tree at `tree` or found better
    (search.refute_openings), into `checkpoint`; `resume` goes on from it. A letter that splits
    nothing is never worth guessing (kernels._letter_stats) and is said so, unsearched.
    `by_parts`: the classes of more than half of the words bounded by the parts of the proven
    bound instead of searched, each within `memory_bytes`."""
    from .bounds import parts_within
    from .memo import memo_capacity
    from .search import refute_openings

    hw = game_of(length, words, weights)
    threads = threads_or_default(threads)
    asked = sorted({ord(c) - ord("a") for c in letters.lower()})
    path = Path(tree)
    doc = read_tree_of(hw, lives, path, "a refutation needs a tree to beat there", words, weights)
    max_nodes = max_nodes or 10**15
    # the parts' memos, apart from the search's (which holds only small classes when a refutation
    # goes by parts): each within memory_bytes
    parts = parts_within(length, memory_bytes, threads) if by_parts else None
    s = Searcher(hw, lives, memo_entries=memo_capacity(min(max_nodes, 10**11), memory_bytes),
                 memory_bytes=memory_bytes)
    if resume and checkpoint:
        s.memo.read_header(checkpoint)  # a checkpoint of another search refused before any work
    target = tree_cost(s, doc["result"])
    everyone = np.arange(len(hw.words))
    useful = set(s.useful_letters(everyone))
    found, nodes = refute_openings(s, everyone, s.strikes, [c for c in asked if c in useful], target, max_nodes,
                                   checkpoint, resume, progress, checkpoint_bytes, parts, threads=threads)
    outcome = Refutation(f"{checkpoint}: first letters of {length} letters against {path.name} (expected score "
                         f"{score_text(s, target)}): {nodes} search nodes")
    for c in asked:
        name = chr(ord("a") + c)
        if c not in useful or c not in found:
            outcome.letters.append((name, "useless" if c not in useful else "unreached", "", False))
            continue
        cost, exact = found[c]
        verdict = "no better" if cost >= target else "better" if exact else "open"
        outcome.letters.append((name, verdict, score_text(s, cost), exact))
    return outcome


def rebound_file(length: int, path: Path, *, words: str | None = None, weights: str | None = None, lives: int = 10,
                 memory_bytes: float | None = None, threads: int | None = None, progress: bool = True) -> str:
    """Prove the bound of the best-found tree already at `path` again, with this version's
    bound_parts, and write it in the file; the tree, its figures and the other records stay. Why:
    a tree that came from a long search can get a better bound without that search being run
    again. Its line."""
    from .bounds import proven_bound
    from .tree import verify_file, write_document

    hw = game_of(length, words, weights)
    doc = read_tree_of(hw, lives, path, "a new bound needs the tree to bound there", words, weights)
    if doc["result"].get("optimal"):
        raise UserError(f"{path}: proven optimal already; there is no bound to improve")
    s = Searcher(hw, lives, memo_entries=16)
    doc["result"]["bound"] = proven_bound(s, np.arange(len(hw.words)), length, memory_bytes, progress,
                                          threads_or_default(threads))
    written = write_document(path, doc)
    return f"{path}: {verify_file(path, words, weights, written)} [bound: {doc['result']['bound']['seconds']:.1f} s]"


def tree_cost(s, result: dict) -> int:
    """The search's cost of a tree file's "result" record (its wrong guesses and lost words)."""
    return s.totals_cost(Totals(result["total_misses"], result["lost_weight"], s.total_weight))


def tree_at(hw, lives: int, path: Path, words: str | None = None, weights: str | None = None) -> dict | None:
    """The tree of this game already at `path` (the shipped one by default), or None: no file
    there, or a file the build may write over (not a tree of this game)."""
    if not path.is_file():
        return None
    try:
        return read_tree_of(hw, lives, path, "", words, weights)
    except UserError:
        return None


def best_known_cost(s, doc: dict | None, baselines) -> int:
    """The least cost of a tree at hand: the baseline rules' (their Totals), and the tree of this
    game already at the output or else the shipped one (tree_at's `doc`). The whole search then
    only has to beat it, so a first letter tried before the optimal one is refuted against it
    instead of being solved exactly (at length 5, `s` covers more words than `e`, the
    best-found tree's opener)."""
    costs = [s.totals_cost(t) for t in baselines]
    return min(costs + ([tree_cost(s, doc["result"])] if doc else []))


def kept_bound(doc: dict | None) -> dict | None:
    """The proven bound of the best-found tree at hand (tree_at's `doc`), when it was proven
    the way this version proves one (HOW_BOUND): a bound is a fact of the game, not of a tree, so
    a rebuild of a tree (from a longer search's checkpoint, say) keeps it rather than spend the
    parts' search again; rebound_file proves it anew."""
    from .bounds import HOW_BOUND

    bound = doc["result"].get("bound") if doc else None  # an exhaustive proof's tree has none
    return bound if bound and bound.get("how") == HOW_BOUND else None


def build_lengths(lengths, *, output=None, words: str | None = None, weights: str | None = None, lives: int = 10,
                  strategy: str | None = None, max_nodes: int | None = None, memory_bytes: float | None = None,
                  threads: int | None = None, checkpoint=None, checkpoint_bytes: float | None = None,
                  resume: bool = False, progress: bool = True, bound_only: bool = False) -> Iterator[str]:
    """Build the tree of each length (`bound_only`: prove the bound of each written tree again,
    rebound_file), written to output_path; one line each, as it is done."""
    several = len(lengths) > 1
    for length in lengths:
        path = output_path(length, bool(weights), output, several)
        if bound_only:
            yield rebound_file(length, path, words=words, weights=weights, lives=lives, memory_bytes=memory_bytes,
                               threads=threads, progress=progress)
        else:
            yield build_length(length, path, words=words, weights=weights, lives=lives, strategy=strategy,
                               max_nodes=max_nodes, memory_bytes=memory_bytes, threads=threads,
                               checkpoint=checkpoint, checkpoint_bytes=checkpoint_bytes, resume=resume,
                               progress=progress)


def build_length(length: int, path: Path, *, words: str | None = None, weights: str | None = None, lives: int = 10,
                 strategy: str | None = None, max_nodes: int | None = None, memory_bytes: float | None = None,
                 threads: int | None = None, checkpoint=None, checkpoint_bytes: float | None = None,
                 resume: bool = False, progress: bool = True, bound_nodes: int | None | str = "max_nodes") -> str:
    """Search one length, write its tree, verify the file; the verifier's summary line.
    `strategy`: exact (None) or a baseline rule (baselines.RULES); an exact search that does not
    finish in `max_nodes` (default PROOF_NODES or DEFAULT_MAX_NODES) writes the best-found tree,
    with a proven bound, found in `bound_nodes` search nodes (by default `max_nodes` too, so that
    the node limit holds in that phase as well; None: no limit). `checkpoint`,
    `checkpoint_bytes`, `resume`: see search.Slices."""
    from .baselines import RULES, NodeBudget, best_found_chooser, rule_letter, rule_totals
    from .memo import memo_capacity
    from .search import solve_in_slices
    from .tree import build_tree, meets_bound, verify_file, write_document

    if strategy not in (None, "exact", *RULES):
        raise ValueError(f"strategy {strategy}: hangman knows exact, {', '.join(RULES)}")
    started, compiled = time.perf_counter(), compile_seconds()
    hw = game_of(length, words, weights)
    given_nodes = max_nodes  # a limit of the user's holds in every phase, the tree's too
    max_nodes = max_nodes or PROOF_NODES.get(length, DEFAULT_MAX_NODES)
    bound_nodes = max_nodes if bound_nodes == "max_nodes" else bound_nodes
    s = Searcher(hw, lives, memo_entries=memo_capacity(max_nodes, memory_bytes), memory_bytes=memory_bytes)
    if resume and checkpoint and strategy not in RULES:
        s.memo.read_header(checkpoint)  # a checkpoint of another search refused before the baselines and the search
    everyone = np.arange(len(hw.words))
    rule_figures = {rule: rule_totals(s, rule) for rule in RULES}
    result: dict = {"optimal": False, "proof": None}
    if strategy in RULES:

        def choose(members, strikes):
            return rule_letter(s, members, strategy)

    else:
        # the tree at hand: the one at the output, else the shipped one (a resume written elsewhere
        # keeps both its target and its bound)
        at_hand = (tree_at(hw, lives, path, words, weights)
                   or tree_at(hw, lives, tree_path(length, bool(weights)), words, weights))
        cost, finished, nodes = solve_in_slices(s, everyone, s.strikes, max_nodes, checkpoint, resume, progress,
                                                checkpoint_bytes=checkpoint_bytes,
                                                limit=best_known_cost(s, at_hand, rule_figures.values()) + 1,
                                                bound=lambda: bound_so_far(s, everyone))
        result["search"] = {"nodes": nodes, "max_nodes": max_nodes, "memo_entries": s.memo_entries}
        if finished:
            strategy = "exact"
            result.update(optimal=True, proof="exhaustive")

            def choose(members, strikes):
                _, ok, letter = s.solve(members, strikes)
                return letter

        else:
            from .bounds import proven_bound

            strategy = "best-found"
            result["search"].update(exact_below=EXACT_BELOW, subtree_nodes=SUBTREE_NODES,
                                    proven_sets="played optimally: the sets whose exact value the search proved",
                                    larger_sets="one letter of lookahead over the frequency rule (heuristic)")
            result["bound"] = kept_bound(at_hand) or proven_bound(s, everyone, length, memory_bytes, progress,
                                                                  threads_or_default(threads), max_nodes=bound_nodes)
            budget = NodeBudget(s, given_nodes or 2**62)  # the tree's own searches keep to a given limit too
            choose = best_found_chooser(budget, EXACT_BELOW, SUBTREE_NODES)

    counts = {"misses": 0, "lost": 0}
    tree = build_tree(hw, everyone, s.strikes, choose, counts)
    if strategy == "best-found":
        result["search"].update(tree_nodes=budget.spent, tree_lookups=budget.lookups)
    totals = Totals(counts["misses"], counts["lost"], s.total_weight)
    if result["optimal"] and s.totals_cost(totals) != cost:
        raise AssertionError(f"length {length}: the tree costs {s.totals_cost(totals)}, the search said {cost}")
    if "bound" in result and meets_bound(result["bound"], totals.score, totals.misses):  # a best-found tree
        result.update(optimal=True, proof="bound met")
    result.update(totals.as_dict())
    compiling = compile_seconds() - compiled  # the first run's: not the search's time, said apart
    result["seconds"] = round(time.perf_counter() - started - compiling + s.memo.work_done()[1], 3)  # and the runs resumed
    written = write_document(path, tree_document(s, hw, lives, strategy, result,
                                                 {rule: t.as_dict() for rule, t in rule_figures.items()}, tree))
    return f"{path}: {verify_file(path, words, weights, written)} [{result['seconds']:.1f} s{compile_note(compiling)}]"


def tree_document(s: Searcher, hw, lives: int, strategy: str, result: dict, baselines: dict, tree) -> dict:
    """The tree file's document (tree.FORMAT)."""
    from .. import ENGINE
    from .tree import FORMAT, sources_for

    game = tree_game(hw, lives)
    return {
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
