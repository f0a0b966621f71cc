"""The independent verifier: replays every answer through a tree with its own feedback rules.

It shares no logic with the search or with engine.games: a bug there cannot hide a bug here.
Only list reading and fingerprinting (engine.words) are reused. Games plug in through `RULES`
(rules.py): a name maps to a feedback function returning the game's pattern text and,
optionally, the game's hard-mode rule and, for games whose codes are generated rather than read
from files (Mastermind, Bulls and Cows), the generator of its code list; "ultra" mode (every
guess consistent with all feedback so far) needs only the feedback function, so it works for
any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import GeneratedCodesError, ListPairError, UserError
from ..words import LETTERS, canonical_sha256, load_words
from .rules import (  # noqa: F401 - the rules, re-exported: the verifier's own
    RULES,
    WORDLE_RULES,
    Rules,
    bulls_cows_codes,
    bulls_cows_text,
    exact_and_misplaced,
    mastermind_codes,
    mastermind_text,
    wordle_hard_violation,
    wordle_text,
)
from .tree import list_path, named_list_error, tree_folding


# ------------------------------------------------------------------------------------------------
# the rules' one addition of the verifier's own
# ------------------------------------------------------------------------------------------------
def ultra_violation(rules: Rules, guess: str, history: list[tuple[str, str]]) -> str | None:
    """Ultra mode: every guess could still be the answer given all feedback so far."""
    for earlier, pattern in history:
        if rules.feedback(earlier, guess) != pattern:
            return f"ultra mode: {guess!r} contradicts {earlier}:{pattern}"
    return None


# ------------------------------------------------------------------------------------------------
# the check
# ------------------------------------------------------------------------------------------------
@dataclass
class Report:
    ok: bool
    defect: str | None = None
    answers: int = 0
    nodes: int = 0
    total: int = 0
    mean: float = 0.0
    worst: int = 0
    histogram: dict[str, int] = field(default_factory=dict)
    weighted_total: int | None = None  # with weights: the sum over the answers of weight times guesses
    weighted_mean: float | None = None  # that over the total weight (4 places)


class Defect(Exception):
    """The first thing wrong with a tree; verify() turns it into a failed Report."""


def _path(steps) -> str:
    return " > ".join(f"{g}:{p}" for g, p in steps) or "the root"


def verify(doc: dict, answers_words, guesses_words, weights=None) -> Report:
    """Check a wordtree/1 document against the answer and guess lists; the report names the
    first defect found, or carries the recomputed stats when the tree is sound. With `weights`
    (their values in answer order: wordle/weights.py) the report carries the tree's weighted
    total too, from the depths replayed here; a weighted tree (stats.weights) needs them, and its
    stored weighted total and mean must be theirs."""
    report = Report(ok=False)
    try:
        _check(doc, list(dict.fromkeys(answers_words)), list(dict.fromkeys(guesses_words)), report, weights)
    except Defect as exc:
        report.defect = str(exc)
        return report
    report.ok = True
    return report


def _check(doc, answers, guesses, report, weights=None) -> None:
    game = doc.get("game") or {}
    rules = RULES.get(game.get("name"))
    if rules is None:
        raise Defect(f"no verifier rules for game {game.get('name')!r}; known: {', '.join(RULES)}")
    _check_lists(game, answers, guesses)
    mode, cap = game.get("mode"), game.get("max_guesses")
    if mode not in ("normal", "hard", "ultra") or (mode == "hard" and rules.hard_violation is None):
        raise Defect(f"mode {mode!r} is not one the verifier knows for {game['name']}")
    if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
        raise Defect(f"max_guesses must be a positive integer or null, not {cap!r}")

    allowed = set(guesses) | set(answers)
    used: set[tuple[int, str]] = set()  # (node id, branch key) pairs some answer went through
    depths = []
    for answer in answers:
        depths.append(_replay(doc["root"], answer, rules, mode, cap, allowed, used))
    report.nodes = _check_reached(doc["root"], used)
    report.answers = len(answers)
    report.total = sum(depths)
    report.worst = max(depths)
    report.mean = round(report.total / len(depths), 4)
    report.histogram = {str(d): depths.count(d) for d in range(1, report.worst + 1)}
    _check_stats(doc.get("stats") or {}, report)
    stats = doc.get("stats") or {}
    if weights is None:
        if "weights" in stats:
            raise Defect("the tree is weighted: its weights are needed to check it")
        return
    if len(weights) != len(answers):
        raise Defect(f"{len(weights)} weights for {len(answers)} answers")
    report.weighted_total = sum(int(w) * d for w, d in zip(weights, depths))
    report.weighted_mean = round(report.weighted_total / sum(weights), 4)
    if "weights" in stats:
        if stats["weights"].get("total_weight") != sum(weights):
            raise Defect(f"stats.weights.total_weight is {stats['weights'].get('total_weight')!r}, the weights "
                         f"give {sum(weights)}")
        if stats.get("weighted_total") != report.weighted_total:
            raise Defect(f"stats.weighted_total is {stats.get('weighted_total')!r}, the tree gives "
                         f"{report.weighted_total}")
        mean = stats.get("weighted_mean")
        if not isinstance(mean, (int, float)) or abs(mean - report.weighted_mean) > 5e-5:
            raise Defect(f"stats.weighted_mean is {mean!r}, the tree gives {report.weighted_mean}")


def _check_lists(game, answers, guesses) -> None:
    for key, words in (("answers", answers), ("guesses", guesses)):
        if canonical_sha256(words) != game.get(f"{key}_sha256"):
            raise Defect(f"the {key} list is not the one the tree was made for (sha256 differs from {game.get(key)!r})")
    counts = {"answers": len(answers), "guesses": len(set(guesses) | set(answers))}
    for key, n in counts.items():
        if game.get(f"{key}_count") != n:
            raise Defect(f"{key}_count is {game.get(f'{key}_count')!r}, the lists give {n}")
    lengths = {len(w) for w in answers}
    if lengths != {game.get("word_length")}:
        raise Defect(f"word_length is {game.get('word_length')!r}, the answers have {sorted(lengths)}")


def _replay(root, answer, rules, mode, cap, allowed, used) -> int:
    """Walk one answer down the tree; return the number of guesses it takes."""
    win = rules.feedback(answer, answer)
    history: list[tuple[str, str]] = []
    node = root
    while True:
        where = f"answer {answer!r} at {_path(history)}"
        if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
            raise Defect(f"{where}: malformed node (needs a 'guess' word)")
        guess = node["guess"]
        if guess not in allowed:
            raise Defect(f"{where}: {guess!r} is not an allowed guess")
        if mode == "hard":
            problem = rules.hard_violation(guess, history)
        elif mode == "ultra":
            problem = ultra_violation(rules, guess, history)
        else:
            problem = None
        if problem:
            raise Defect(f"{where}: {problem}")
        branches = node.get("next", {})
        if not isinstance(branches, dict):
            raise Defect(f"{where}: 'next' of {guess!r} is not an object")
        if win in branches:
            raise Defect(f"{where}: {guess!r} has a branch keyed by the win pattern {win}")
        pattern = rules.feedback(guess, answer)
        history.append((guess, pattern))
        if pattern == win:
            return len(history)
        if cap is not None and len(history) >= cap:
            raise Defect(f"answer {answer!r} at {_path(history)}: not solved within the cap of {cap} guesses")
        if pattern not in branches:
            raise Defect(f"answer {answer!r} at {_path(history)}: no branch for pattern {pattern} after {guess!r}")
        used.add((id(node), pattern))
        node = branches[pattern]


def _check_reached(root, used) -> int:
    """Every branch must be taken by some answer (a dead branch means wrong keys or a wrong
    list). Returns the number of nodes."""
    nodes = 0
    stack = [(root, [])]
    while stack:
        node, steps = stack.pop()
        nodes += 1
        for key in sorted(node.get("next", {})):
            if (id(node), key) not in used:
                raise Defect(f"branch {key!r} after {node['guess']!r} at {_path(steps)} is never reached by any answer")
            stack.append((node["next"][key], steps + [(node["guess"], key)]))
    return nodes


def _check_stats(stored, report) -> None:
    for key in ("total", "worst"):
        if stored.get(key) != getattr(report, key):
            raise Defect(f"stats.{key} is {stored.get(key)!r}, the tree gives {getattr(report, key)}")
    mean = stored.get("mean")
    if not isinstance(mean, (int, float)) or abs(mean - report.mean) > 5e-5:
        raise Defect(f"stats.mean is {mean!r}, the tree gives {report.mean}")
    histogram = stored.get("histogram")
    nonzero = {k: v for k, v in histogram.items() if v} if isinstance(histogram, dict) else histogram
    if nonzero != {k: v for k, v in report.histogram.items() if v}:
        raise Defect(f"stats.histogram is {histogram!r}, the tree gives {report.histogram}")


# ------------------------------------------------------------------------------------------------
# loading the lists a tree names
# ------------------------------------------------------------------------------------------------
def load_lists(doc: dict, answers=None, guesses=None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The answer and guess words for verifying `doc`: the user's files, else the ones it names."""
    if (answers is None) != (guesses is None):
        raise ListPairError()
    rules = RULES.get(doc["game"].get("name"))
    if rules is not None and rules.codes is not None:
        if answers is not None:
            raise GeneratedCodesError(doc['game']['name'])
        try:
            codes = tuple(rules.codes(doc["game"]))
        except ValueError as exc:
            raise UserError(f"{doc.get('_path', 'tree')}: {exc}") from None
        return codes, codes
    length = doc["game"].get("word_length")
    if answers is not None:
        with tree_folding(doc):
            return tuple(load_words(path, length=length, alphabet=LETTERS).words for path in (answers, guesses))
    try:  # the shipped lists the tree names (by file name only)
        with tree_folding(doc):
            named = [load_words(list_path(doc, key), length=length, alphabet=LETTERS) for key in ("answers", "guesses")]
    except UserError as exc:
        raise named_list_error(doc, exc) from None
    return named[0].words, named[1].words


# ------------------------------------------------------------------------------------------------
# the optimality claim: it cannot be replayed, only re-proved by the exact search
# ------------------------------------------------------------------------------------------------
def optimality_claim(doc: dict) -> str | None:
    """What a tree claims of its optimality: "best opener" (no tree does better), "given opener"
    (no tree opening with its first guess does better), or None (no claim)."""
    stats = doc.get("stats") or {}
    if stats.get("optimal") is not True:
        return None
    return "given opener" if stats.get("first_guess") == "given" else "best opener"


def _exact_engine():
    """The exact search, imported only when a claim is to be re-proved (numba)."""
    from .patterns import pattern_matrix
    from ..exact.build import build
    from ..exact.solver import Infeasible

    return pattern_matrix, build, Infeasible


def prove_opener(doc: dict, game, progress: bool = True) -> tuple[bool, str]:
    """Re-run the exact search for the tree's opener with its cap and mode: (True, how) when its
    exact value is the tree's total, else (False, why). With the objective "worst", the cap is
    the tree's worst, and the opener must also be proven unable to do with one guess fewer.
    That the opener itself is the best one is not re-proved here (a rank of every opener is)."""
    pattern_matrix, build, Infeasible = _exact_engine()
    spec, stats = doc["game"], doc["stats"]
    opener, mode, cap = doc["root"]["guess"], spec["mode"], spec["max_guesses"]
    matrix = pattern_matrix(game).matrix
    if stats.get("objective", "total") == "worst":
        cap = stats["worst"]
        if cap > 1:
            try:
                build(game, matrix, first=opener, max_guesses=cap - 1, mode=mode, progress=progress)
                return False, f"a tree opening with {opener} solves every answer within {cap - 1} guesses"
            except Infeasible:
                pass
    within = "no cap" if cap is None else f"at most {cap} guesses"
    try:
        total = build(game, matrix, first=opener, max_guesses=cap, mode=mode, progress=progress).total
    except Infeasible:
        return False, f"no tree opening with {opener} solves every answer within {cap} guesses"
    value = f"the exact value of {opener} ({mode} mode, {within}) is {total}"
    if total != stats["total"]:
        return False, f"{value}, the tree's total {stats['total']}"
    return True, f"{value}, the tree's total"
