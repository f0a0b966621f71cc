"""Absurdle's commands: `build absurdle`, and Absurdle documents in verify, next and play."""

from __future__ import annotations

import sys

from ..errors import OutputSavedElsewhere, UsageError, UserError
from ..files import check_writable, write_or_fallback
from .common import json_option, print_json, quiet_option, refuse_defects, report_failures, threads_option

SHIPPED = {"wordle": "absurdle-wordle", "wordle-nyt2023": "absurdle-wordle-nyt2023"}


def absurdle_build_options(p) -> None:
    p.add_argument("game", choices=("absurdle",), metavar="absurdle",
                   help="the game: Wordle against an adversary that keeps the largest bucket of answers")
    p.add_argument("preset", nargs="?", default="wordle",
                   help="the Wordle preset whose lists it plays: wordle (default), wordle-nyt, wordle-nyt2023")
    p.add_argument("--answers", metavar="FILE", help="an answer list of your own (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="a guess list of your own (with --answers)")
    p.add_argument("--rule", choices=("qntm", "any"), default="qntm",
                   help="the adversary's tie-break: qntm (default: fewest greens, then fewest yellows, then the "
                        "colours left to right) or any (every largest bucket: a result for every tie-break)")
    p.add_argument("--every-opener", action="store_true",
                   help="decide every opener (or every one of --openers) and write each winner's line "
                        "(minutes to hours; by default the search stops at the first opener that wins)")
    p.add_argument("--challenge", action="store_true",
                   help="the challenge mode instead: for every answer, the fewest guesses that make the adversary "
                        "end on it (qntm rule), with a line each, as a wordtree-absurdle-challenge/1 table")
    p.add_argument("--expand-layers", type=int, metavar="N",
                   help="with --challenge: expand N layers of buckets exhaustively, then search the targets left "
                        "one at a time (default: every layer, as small lists need; the original lists take 2)")
    p.add_argument("--target-seconds", type=float, default=120.0, metavar="S",
                   help="with --challenge and --expand-layers: the search of each target left, at most S seconds")
    p.add_argument("--openers", metavar="W,W,...", help="try only these openers (the least proven is then "
                   "the least among them)")
    threads_option(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write the proof as wordtree-absurdle/1 JSON")
    p.add_argument("--checkpoint", metavar="FILE", help="with --every-opener: keep each opener's verdict here")
    p.add_argument("--resume", action="store_true", help="continue a stopped --every-opener run from --checkpoint")
    p.add_argument("--overwrite", action="store_true", help="start --checkpoint over even if it exists")
    quiet_option(p)
    json_option(p, "game, rule, fewest, lower_bound, openers (searched, of, complete, winning), opener, seconds, output")


def run_build_absurdle(args) -> int:
    from ..absurdle.build import AbsurdleSpec, build, checkpoint_for
    from ..absurdle.document import write
    from ..games import get_game

    if (args.resume or args.overwrite) and not args.checkpoint:
        raise UsageError(f"--{'resume' if args.resume else 'overwrite'} needs --checkpoint FILE")
    if args.challenge:
        return run_build_challenge(args)
    if args.expand_layers is not None:
        raise UsageError("--expand-layers is a --challenge option")
    if args.checkpoint and not args.every_opener:
        raise UsageError("--checkpoint keeps the verdicts of --every-opener; add --every-opener")
    if args.output:
        check_writable(args.output, "Absurdle proof")
    openers = tuple(w.strip().lower() for w in args.openers.split(",") if w.strip()) if args.openers else ()
    if args.openers is not None and not openers:
        raise UsageError("--openers needs at least one word")
    game = get_game(args.preset, args.answers, args.guesses)
    spec = AbsurdleSpec(args.rule, args.every_opener, openers, args.threads or 1)
    checkpoint = checkpoint_for(args.checkpoint, game, spec) if args.checkpoint else None
    doc = build(game, spec, checkpoint=checkpoint, resume=args.resume, overwrite=args.overwrite,
                show_progress=not args.quiet)
    failures = []
    if args.output:
        where, reason = write_or_fallback(args.output, lambda path: write(path, doc))
        if reason is not None:
            failures.append(OutputSavedElsewhere(args.output, "Absurdle proof", reason, where))
    opener = next(iter(doc["lines"]), None)
    if args.json:
        print_json({"game": game.name, "rule": doc["rule"], "fewest": doc["fewest"], "lower_bound": doc["lower_bound"],
                    "openers": doc["openers"], "opener": opener, "seconds": doc["seconds"],
                    "output": args.output if args.output and not failures else None})
    else:
        for line in summary_lines(doc):
            print(line)
        if args.output and not failures:
            print(f"wrote {args.output}", file=sys.stderr)
    return report_failures(failures)


def run_build_challenge(args) -> int:
    from ..absurdle import challenge
    from ..absurdle.document import write_challenge
    from ..games import get_game

    if args.rule != "qntm":
        raise UsageError("--challenge is played under the qntm rule only (under `any` the adversary's choice is open)")
    if args.every_opener or args.openers:
        raise UsageError(f"--{'every-opener' if args.every_opener else 'openers'} is not a --challenge option")
    if args.expand_layers is not None and not 0 <= args.expand_layers <= 16:
        raise UsageError("--expand-layers must lie in 0..16")
    if not args.target_seconds > 0:
        raise UsageError("--target-seconds must be positive")
    if args.output:
        check_writable(args.output, "Absurdle challenge table")
    game = get_game(args.preset, args.answers, args.guesses)
    checkpoint = challenge.checkpoint_for(args.checkpoint, game) if args.checkpoint else None
    doc = challenge.build(game, expand_layers=args.expand_layers, target_seconds=args.target_seconds,
                          checkpoint=checkpoint, resume=args.resume, overwrite=args.overwrite,
                          say=(lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr)))
    failures = []
    if args.output:
        where, reason = write_or_fallback(args.output, lambda path: write_challenge(path, doc))
        if reason is not None:
            failures.append(OutputSavedElsewhere(args.output, "Absurdle challenge table", reason, where))
    values = [row["fewest"] for row in doc["rows"].values() if "fewest" in row]
    counts = {d: values.count(d) for d in sorted(set(values))}
    if args.json:
        print_json({"game": game.name, "rule": "qntm", "targets": doc["targets"], "fewest_counts": counts,
                    "seconds": doc["seconds"], "output": args.output if args.output and not failures else None})
    else:
        print(f"Absurdle challenge on {game.name} (qntm rule): {doc['targets']['proven']} of "
              f"{doc['targets']['count']} targets proven; fewest guesses: "
              + ", ".join(f"{d}: {n}" for d, n in counts.items()))
        if args.output and not failures:
            print(f"wrote {args.output}", file=sys.stderr)
    return report_failures(failures)


def verify_challenge_table(args, doc, game) -> int:
    from ..absurdle.document import challenge_lower_bound, verify_challenge
    from ..wordle.patterns import pattern_matrix

    lower = challenge_lower_bound(game, pattern_matrix(game).matrix)
    problems = verify_challenge(doc, game, lower)
    refuse_defects(args.tree, problems)
    rows = doc["rows"]
    at_bound = sum(1 for r in rows.values() if r.get("fewest") == lower)
    lined = sum(1 for r in rows.values() if "fewest" in r)
    if args.json:
        return print_json({"tree": args.tree, "family": "absurdle", "valid": True, "rows": len(rows), "lines": lined,
                           "at_lower_bound": at_bound, "lower_bound": lower,
                           "optimal": "re-proved at the bound, claimed above it"})
    print(f"ok: {lined} of {len(rows)} rows' lines replayed against the adversary (qntm rule), each ending on "
          f"its target in the row's guesses")
    print(f"optimal: {at_bound} rows at the counting bound ({lower}, re-proved from the pattern matrix); the other "
          f"{lined - at_bound} rows' optimality is the exhaustive enumeration's claim (build absurdle --challenge "
          f"reruns it), not re-proved here")
    if lined < len(rows):
        print(f"not settled: {len(rows) - lined} rows hold a lower bound or 'unreachable' only")
    return 0


def summary_lines(doc: dict) -> list[str]:
    game, openers = doc["game"], doc["openers"]
    how = {"counting": "no opener leaves a bucket that one more guess can tell apart (counting)",
           "search": "every opener was searched with one guess fewer, without a win",
           "openers given only": "among the openers given only"}.get(doc["lower_bound"]["how"], "")
    out = [f"Absurdle on {game['name']} ({game['answers_count']} answers, {game['guesses_count']} guesses), "
           f"{doc['rule']} rule: fewest guesses that always win {doc['fewest']} (proven: {how})"]
    scope = "every opener" if openers["complete"] else f"{openers['searched']} of {openers['of']} openers"
    out.append(f"openers that win in {doc['fewest']}: {openers['winning']} ({scope} decided)")
    for opener, node in list(doc["lines"].items())[:3]:
        out.append(f"  {line_text(node)}")
    return out


def line_text(node: dict) -> str:
    """A line as guess:REPLY steps, the first reply at each node (one under the qntm rule)."""
    steps = []
    while node.get("next"):
        reply, child = next(iter(node["next"].items()))
        more = f" (+{len(node['next']) - 1} more replies)" if len(node["next"]) > 1 else ""
        steps.append(f"{node['guess']}:{reply}{more}")
        node = child
    steps.append(f"{node['guess']}:{'G' * len(node['guess'])}")
    return " ".join(steps)


def verify_absurdle(args) -> int:
    from ..absurdle.document import game_of, lower_bound_holds, read, verify
    from ..families import tree_path

    path = tree_path(args.tree)
    doc = read(path)
    game = game_of(doc, args.answers, args.guesses)
    if doc["format"] != "wordtree-absurdle/1":
        return verify_challenge_table(args, doc, game)
    problems = verify(doc, game)
    proved = None
    if args.prove and not problems:
        from ..wordle.patterns import pattern_matrix

        proved = lower_bound_holds(doc, game, pattern_matrix(game).matrix)
        if not proved:
            problems.append(f"the lower bound ({doc['lower_bound']['how']}) could not be re-proved by counting")
    refuse_defects(args.tree, problems)
    if args.json:
        return print_json({"tree": args.tree, "family": "absurdle", "valid": True, "fewest": doc["fewest"],
                           "lines": len(doc["lines"]), "optimal": "re-proved" if proved else "claimed"})
    print(f"ok: {len(doc['lines'])} line{'s' if len(doc['lines']) != 1 else ''} replayed against the adversary "
          f"({doc['rule']} rule), each winning in {doc['fewest']} guesses at most")
    print("fewest: " + (f"{doc['fewest']}, its lower bound re-proved by counting" if proved else
                        f"{doc['fewest']} claimed by the search ({doc['lower_bound']['how']}); "
                        "--prove re-proves a counting bound"))
    openers = doc["openers"]
    scope = "every opener" if openers["complete"] else f"{openers['searched']} of {openers['of']} openers"
    print(f"openers: {openers['winning']} win in {doc['fewest']} ({scope} decided by the search; that the "
          "others do not is its claim, not replayed)")
    return 0


def _document(args, tree):
    from ..absurdle.document import game_of, read
    from ..families import find_tree, tree_path

    if tree is None:
        name = SHIPPED.get("wordle")
        found = find_tree(name)
        if found is None:
            raise UserError(f"the shipped Absurdle proof {name} is missing from this install")
        tree = str(found)
    doc = read(tree_path(tree))
    if doc["format"] != "wordtree-absurdle/1":
        raise UserError(f"{tree} is a challenge table: replay its rows with verify; next and play take an Absurdle proof")
    return doc, game_of(doc, args.answers, args.guesses)


def _steps(items) -> tuple[str | None, list[tuple[str, str | None]]]:
    from ..families import family_of_tree, find_tree

    items = list(items)
    tree = None
    if items:
        found = find_tree(items[0])
        if found is not None and family_of_tree(found) is not None and family_of_tree(found).name == "absurdle":
            tree = items.pop(0)
    steps = []
    for item in items:
        guess, _, reply = item.partition(":")
        steps.append((guess, reply or None))
    return tree, steps


def run_next_absurdle(args) -> int:
    from ..absurdle.position import AbsurdleGame, advice_line, target_advice, target_text

    tree, steps = _steps(args.items)
    doc, game = _document(args, tree)
    target = getattr(args, "target", None)
    if target is not None and doc["rule"] != "qntm":
        raise UsageError("--target plays the challenge mode, under the qntm rule only (this proof's rule is "
                         f"{doc['rule']})")
    position = AbsurdleGame(game, doc["rule"], doc)
    replies = [f"{guess}:{position.play(guess, reply)}" for guess, reply in steps]
    advice = position.advice() if target is None else target_advice(position, target)
    if args.json:
        return print_json({"steps": replies, **advice.as_json(), **({"target": target} if target else {})})
    if replies:
        print("the adversary answered " + " ".join(replies))
    print(advice_line(advice) if target is None else target_text(advice, game.parse_guess(target)))
    return 0


class AbsurdlePlay:
    """The play loop's position (play.Playable): the player types guesses, the adversary answers."""

    prompt = "your guess (Enter: the advice; q: stop):"
    fatal = ()

    def __init__(self, position, target: str | None = None):
        self.position = position
        self.target = target  # the challenge mode's answer to end on (play --target), None: win
        self.last = None

    def _advice(self):
        from ..absurdle.position import target_advice

        return self.position.advice() if self.target is None else target_advice(self.position, self.target)

    def proposal(self) -> list[str]:
        from ..absurdle.position import advice_line, target_text

        advice = self._advice()
        text = advice_line(advice) if self.target is None else target_text(advice, self.target)
        return [f"guess {len(self.position.history) + 1}: " + text[len('next: '):]]

    def parse_reply(self, line: str):
        text = line.strip().lower()
        guess, _, reply = text.partition(":")
        return (guess or self._advice().guess), (reply or None)

    def after(self, step):
        guess, reply = step
        self.last = (guess, self.position.play(guess, reply))
        return self

    def tiles(self):
        if self.last is None:
            return []
        guess, reply = self.last
        colours = {"G": "green", "Y": "yellow", "B": "grey"}
        return [(ch, colours[c]) for ch, c in zip(guess, reply)]

    def finished(self) -> bool:
        return self.position.won

    def outcome_lines(self) -> list[str]:
        guess, reply = self.last
        if self.position.won:
            fewest = self.position.doc["fewest"] if self.position.doc else None
            return [f"{guess}:{reply}  won in {len(self.position.history)} guesses"
                    + (f" (the fewest that always win: {fewest})" if fewest else "")]
        left = len(self.position.left)
        return [f"{guess}:{reply}  ({left} answer{'s' if left != 1 else ''} left)"]

    def stopped(self) -> str:
        return f"stopped after {len(self.position.history)} guesses ({len(self.position.left)} answers left)"


def run_play_absurdle(args) -> int:
    from ..absurdle.position import AbsurdleGame
    from ..play import play
    from ..progress import is_terminal

    tree = args.tree if getattr(args, "tree", None) else None
    doc, game = _document(args, tree)
    print(f"Absurdle on the {doc['game']['name']} lists ({doc['rule']} rule): it keeps the largest group of answers "
          f"after each guess; the fewest guesses that always win are {doc['fewest']}")
    target = getattr(args, "target", None)
    if target is not None:
        if doc["rule"] != "qntm":
            raise UsageError("--target plays the challenge mode, under the qntm rule only (this proof's rule is "
                             f"{doc['rule']})")
        target = game.parse_guess(target)
        if target not in game.answer_index:
            raise UserError(f"{target!r} is not an answer of {game.name}")
    return play(AbsurdlePlay(AbsurdleGame(game, doc["rule"], doc), target), sys.stdin, print,
                interactive=sys.stdin.isatty(), colour=is_terminal(sys.stdout))


def run_candidates_absurdle(args) -> int:
    from ..absurdle.position import AbsurdleGame

    tree, steps = _steps(args.items)
    doc, game = _document(args, tree)
    position = AbsurdleGame(game, doc["rule"], doc)
    for guess, reply in steps:
        position.play(guess, reply)
    left = position.left
    if args.json:
        return print_json({"candidates": len(left), "candidate_words": left})
    shown = left if getattr(args, "all", False) else left[:10]
    print(f"{len(left)} answer{'s' if len(left) != 1 else ''} left: {' '.join(shown)}"
          + (" ..." if len(shown) < len(left) else ""))
    return 0
