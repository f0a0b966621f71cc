"""The checkpoint of the exact Dordle search over the openers: what it proves so far
(`checkpoint_status`), and the run that keeps it (`build_by_openers`, what `dordle build` runs for
a whole game with every opener tried: in process, root.py, or on Dask, cluster.py). Its format,
wordtree-dordle-root/1, is root.py's, beside the ledger that writes it; above root.py and
cluster.py here, so that neither imports this module back.
"""

from __future__ import annotations

from ..errors import Stopped
from ..jit import INF64
from .root import best_exact, proven_lower, root_checkpoint, root_search
from .search import ALL_RULES, DordleSearch


def checkpoint_status(game, cap: int, rules: int, path) -> list[str]:
    """What the checkpoint at `path` proves so far, as lines: the openers exact, refuted and left,
    the best total so far, and the proven lower bound on the optimum."""
    doc = root_checkpoint(path, game, cap, rules).shown()
    results, openers, finished = doc["results"], doc["openers"], doc["finished"]
    best, guess = best_exact(results, game)
    exact = sum(e for _, e in results.values())
    refuted = openers - exact if finished else len(results) - exact
    left = 0 if finished else max(0, openers - len(results))
    lower = best if finished else proven_lower(doc["root_lower"], best, doc["left_bound"])
    n = len(game.answers)
    pairs = n * (n - 1)
    shown = "none yet" if best >= INF64 else f"{best} (mean {best / pairs:.4f}), opening with {game.guesses[guess]}"
    state = "finished: the best is optimal" if finished else "not finished"
    seconds = doc.get("seconds") if isinstance(doc.get("seconds"), (int, float)) else 0
    return [f"{path}: {state}, {seconds:.0f} s of search so far",
            f"openers: {openers} ({exact} exact, {refuted} refuted, {left} left)",
            f"best total so far: {shown}",
            f"proven lower bound: {'none (no strategy within the cap)' if lower >= INF64 else lower}"
            + ("" if lower >= INF64 else f" over {pairs} ordered pairs, mean {lower / pairs:.4f}")]


def build_by_openers(game, matrix, cap: int, checkpoint=None, *, resume: bool = False, overwrite: bool = False,
                     progress=None, cluster=None, rules: int | None = None):
    """(search, result): the root of the whole game within `cap` guesses searched opener by opener
    by a DordleSearch (`rules`: its rules, default all), in process (root.root_search), or with
    `cluster` = (scheduler, workers, the rest of cluster.dordle_spec's options) on Dask
    (cluster.search_on_cluster); `result` is a root.RootResult. With `checkpoint`, the file is
    held for the run (files.Checkpoint.held: locked, an existing one refused unless `resume` or
    `overwrite`) and, with `resume`, its header checked before the search is even set up, let
    alone its openers planned; each opener's result is saved there as it comes. Ctrl-C or TERM:
    Stopped, once every opener finished is saved, saying how far the run got.
    `progress(total, done)`: the bar over the openers."""
    rules = ALL_RULES if rules is None else rules
    held = root_checkpoint(checkpoint, game, cap, rules)
    with held.held(resume=resume, overwrite=overwrite):
        search = DordleSearch(game, matrix, cap, rules=rules)
        if cluster is not None:
            from .cluster import dordle_spec, search_on_cluster  # (Dask's client only then)

            scheduler, workers, options = cluster
            spec = dordle_spec(game, cap=search.cap, rules=search.rules, **options)
            result = search_on_cluster(scheduler, spec, search, workers=workers, checkpoint=checkpoint,
                                       resume=resume, progress=progress)
        else:
            result = root_search(search, checkpoint, resume=resume, progress=progress)
        if result.interrupted:
            raise Stopped(checkpoint, f"after {result.evaluated} openers this run ({result.left} left)",
                          result.checkpoint_error)
    return search, result


HEURISTIC_FORMAT = "wordtree-dordle-heuristic/1"


def heuristic_by_checkpoint(strategy, first: int, checkpoint=None, *, resume: bool = False, overwrite: bool = False,
                            progress=None) -> dict:
    """heuristic.evaluate_opener of `strategy` from the opener `first` (a guess index), with its
    progress kept in `checkpoint` (a wordtree-dordle-heuristic/1 file bound to the lists, the
    opener, the cap and the strategy's parameters, the exact states' among them when on; held as files.Checkpoint.held: locked, an
    existing one refused unless `resume` or `overwrite`, its header read before the walk), saved
    at most once a minute and at the end. `progress(total, done)`: the bar over the child states."""
    from ..files import Checkpoint, sealed
    from .heuristic import EXACT_NODES, evaluate_opener, root_parts

    search, game = strategy.search, strategy.search.game
    identity = game.identity()
    header = {"format": HEURISTIC_FORMAT, "answers_sha256": identity.get("answers_sha256"),
              "guesses_sha256": identity.get("guesses_sha256"), "first": game.guesses[first],
              "max_guesses": search.cap, "alpha": strategy.alpha, "exact_below": strategy.exact_below,
              "exact_nodes": strategy.exact_nodes if strategy.exact_below else EXACT_NODES}
    # (the checkpoints written before the exact states lack them: off, so the default applies)
    held = Checkpoint(checkpoint, "Dordle heuristic", header,
                      defaults={"exact_below": 0, "exact_nodes": EXACT_NODES})
    with held.held(resume=resume, overwrite=overwrite):
        state = dict(held.payload["state"]) if held.payload else None
        box: dict = {"state": state}
        saver = held.saver(lambda: sealed({**header, "state": box["state"]})) if checkpoint else None

        def save(current):
            box["state"] = current
            saver(every=60.0)

        bar = progress(len(root_parts(search, first)[1]), (state or {}).get("done", 0)) if progress else None
        result = evaluate_opener(strategy, first, progress=bar, state=state, save=save if saver else None)
        if bar is not None:
            bar.close()
        if saver and box["state"] is not None:
            saver(last=True)
    return result
