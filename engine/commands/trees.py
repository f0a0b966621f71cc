"""Trees as files: `verify`, `next`, `candidates`, `play`, `stats`, `export`, `import`."""

from __future__ import annotations

import argparse
import sys

from ..errors import UsageError, UserError
from .common import (
    cache_dir_option,
    check_tree_shape,
    fold_options,
    folding_given,
    int_option,
    intermixed,
    json_option,
    list_options,
    load_game,
    output_errors,
    positive_int,
    print_json,
    quiet_option,
    seconds_or_none,
    summary,
)


def add_verify(sub) -> None:
    p = sub.add_parser("verify", help=summary("verify"))
    p.add_argument("tree", help="a tree file of any family (wordtree/1, wordtree-hangman/1, wordtree-dordle/1 or a "
                                "Dordle strategy), or a shipped tree's name (wordtree trees lists them)")
    list_options(p)
    p.add_argument("--weights", metavar="FILE", help="a Hangman tree's weights file, if not a shipped one; a "
                   "Wordle-family tree: replay its weighted total with these weights (a weighted tree's must match)")
    cache_dir_option(p, family="Dordle")
    p.add_argument("--prove", action="store_true",
                   help="re-prove the tree's optimality claim with the exact search (slow: the search the build ran)")
    quiet_option(p)
    json_option(p, "tree, family, valid, the figures replayed (total, mean, worst ...) and optimal "
                   "(not claimed, claimed, re-proved, or for a Dordle tree unproven: no search recorded proves it)")


def run_verify(args) -> int:
    """Replay a tree of any family with that family's independent verifier."""
    family = tree_family(args.tree)
    if family not in ("hangman", "wordle") and args.weights is not None:
        raise UsageError("--weights is for a Hangman or Wordle-family tree")
    if family != "dordle" and args.cache_dir is not None:
        raise UsageError("--cache-dir is for a Dordle tree")
    if family == "hangman":
        return _verify_hangman(args)
    if family == "absurdle":
        from .absurdle import verify_absurdle

        return verify_absurdle(args)
    if family == "multiboard":
        from .multiboard import verify_multiboard

        return verify_multiboard(args)
    if family == "dordle":
        if args.prove:
            raise UsageError("--prove re-proves Wordle-family and Hangman trees; a Dordle tree's claim is "
                             "re-proved by building it again (wordtree build dordle)")
        from .dordle import verify_tree

        return verify_tree(args.tree, args)
    return _verify_wordle(args)


def _verify_wordle(args) -> int:
    from ..families import tree_path
    from ..wordle.tree import histogram_lines, read_tree
    from ..wordle.verify import load_lists, optimality_claim, verify

    from ..wordle.weights import read_weights, recorded, tree_weights

    doc = read_tree(tree_path(args.tree))
    answers, guesses = load_lists(doc, args.answers, args.guesses)
    weights = None
    if recorded(doc) is not None:
        weights = tree_weights(doc, args.weights, answers, guesses)
    elif args.weights is not None:
        weights = read_weights(args.weights, answers, guesses)
    report = verify(doc, answers, guesses, None if weights is None else weights.values)
    if not report.ok:
        raise UserError(f"{args.tree}: {report.defect}")
    game = doc["game"]
    claim = optimality_claim(doc)
    out = {"tree": args.tree, "family": "wordle", "valid": True, "game": game["name"], "mode": game["mode"],
           "answers": report.answers, "nodes": report.nodes, "total": report.total, "mean": report.mean,
           "worst": report.worst, "histogram": report.histogram,
           "optimal": "not claimed" if claim is None else "claimed"}
    if weights is not None:
        out.update(weights=weights.record(), weighted_total=report.weighted_total, weighted_mean=report.weighted_mean,
                   weighted_tree=recorded(doc) is not None)
    if not args.json:
        print(f"{args.tree}: valid ({game['name']}, {game['mode']} mode, {report.answers} answers, "
              f"{report.nodes} nodes)")
        print(f"total {report.total}  mean {report.mean}  worst {report.worst}")
        if weights is not None:
            whose = "the tree's weights" if recorded(doc) is not None else "not the weights the tree was built for"
            print(f"weighted total {report.weighted_total}  weighted mean {report.weighted_mean}  "
                  f"(weights {weights.file}, total weight {weights.total}; {whose})")
        print("\n".join(histogram_lines(report.histogram)), flush=True)
    if claim is not None and recorded(doc) is not None and not args.json and not args.prove:
        print("optimal: claimed for its weights, not re-proved (build it again with build --weights to re-prove)")
        return 0
    if claim is None or not args.prove:
        return print_json(out) if args.json else _say_claim(claim is not None)
    if recorded(doc) is not None:
        raise UsageError("--prove re-proves unweighted trees; a weighted tree's claim is re-proved by building it "
                         "again (wordtree build --weights)")
    from ..wordle.tree import game_for
    from ..wordle.verify import prove_opener

    opener = doc["root"]["guess"]
    print(f"proving: the exact value of {opener} with the tree's cap and mode ...", file=sys.stderr, flush=True)
    ok, how = prove_opener(doc, game_for(doc, args.answers, args.guesses))
    if not ok:
        raise UserError(f"{args.tree}: the optimality claim fails: {how}")
    lines = [f"optimal: re-proved for the opener {opener}: {how}"]
    if claim == "best opener":
        lines.append(f"opener: only {opener}'s value was re-proved; that no other opener does better was not "
                     f"(run rank)")
    if args.json:
        return print_json({**out, "optimal": "re-proved", "proof": how, "opener_proved": claim != "best opener"})
    print("\n".join(lines))
    return 0


def _say_claim(claimed: bool) -> int:
    print("optimal: claimed, not re-proved (run verify --prove)" if claimed else "optimal: not claimed")
    return 0


def _verify_hangman(args) -> int:
    from ..families import tree_path
    from ..hangman.tree import prove_optimal, verify_report

    if args.guesses is not None:
        raise UserError("a Hangman tree has one word list: give it with --answers FILE")
    path = tree_path(args.tree)
    report = verify_report(path, args.answers, args.weights)
    out = {"tree": args.tree, "family": "hangman", "valid": True, **report["figures"],
           "optimal": "claimed" if report["optimal"] else "not claimed"}
    if not args.json:
        print(report["summary"], flush=True)
    if not report["optimal"] or not args.prove:
        return print_json(out) if args.json else _say_claim(report["optimal"])
    ok, how = prove_optimal(path, args.answers, lambda text: print(text, file=sys.stderr, flush=True),
                            args.weights)
    if ok is False:
        raise UserError(f"{args.tree}: the optimality claim fails: {how}")
    if args.json:
        return print_json({**out, "optimal": "re-proved" if ok else "claimed", "proof": how})
    print(f"optimal: re-proved {how}" if ok else f"optimal: claimed, cannot be re-proved here: {how}")
    return 0


def tree_family(name) -> str:
    """The family ('wordle', 'hangman', 'dordle') of the tree a user named (a file or a shipped
    tree's name), by its format; 'wordle' where it cannot be read (its reader then says why)."""
    from ..families import family_of_tree, tree_path

    family = family_of_tree(tree_path(name))
    return family.name if family is not None else "wordle"


ORIGINAL_DEFAULT = ("wordle-salet-normal, the original lists (2315 answers); today's game, the NYT lists of 2023: "
                    "wordle-nyt2023-tarse-normal or --game wordle-nyt2023")


def position_options(p, steps: bool = True, hangman: str = "") -> None:
    """A position's arguments: the tree (or --game for none), the steps, the tree's lists.
    `hangman`: what --game hangman takes, where the command plays Hangman too (its help)."""
    if steps:
        p.add_argument("items", nargs="*", metavar="[TREE] GUESS:PATTERN",
                       help=f"a tree file or a shipped tree's name (default: {ORIGINAL_DEFAULT}), then the steps "
                            "played; patterns as B/Y/G, 0/1/2 or squares" + (
                                "; for a Hangman tree the word as revealed, e.g. _e___ (a hidden letter as _ "
                                "or ., not -)" if hangman else ""))
    p.add_argument("--game", metavar="GAME",
                   help="a preset, played from its shipped tree where one is (wordle: SALET's; wordle-nyt2023, "
                        "today's NYT game: TARSE's), else with no tree (off a tree from the start)"
                        + (f"; hangman: the shipped Hangman tree {hangman}" if hangman else ""))
    list_options(p)
    fold_options(p)


def hangman_options(p, length: bool = False) -> None:
    """The Hangman options of next and play (hangman.py runs them)."""
    if length:
        p.add_argument("--length", type=int_option("--length", 2, 64), metavar="N",  # hangman.lookup.LONGEST
                       help="Hangman: the word's letters, with --game hangman")
    else:
        p.add_argument("--missed", metavar="LETTERS", help="Hangman: the letters guessed wrong so far, e.g. sa")
    p.add_argument("--weights", metavar="FILE", help="a Hangman tree's weights file, if not a shipped one")


def dordle_options(p) -> None:
    """The Dordle options of the position commands (a Dordle tree, or --game dordle), and the
    multi-board games' (--boards, --grid; --max-guesses shared)."""
    from .multiboard import position_options as multiboard_options

    multiboard_options(p)
    p.add_argument("--max-guesses", type=int_option("--max-guesses", 2, 16), default=None, metavar="N",
                   help="Dordle with no tree: the guess cap (default 7; a tree plays within its own); "
                        "multi-board games: the cap, up to 16 here (default: the preset's, or K + 5)")
    p.add_argument("--seconds", type=seconds_or_none, default=argparse.SUPPRESS, metavar="S|none",
                   help="Dordle: time the exact search of a position off the tree may take (default 10; 'none': "
                        "no limit)")
    cache_dir_option(p, family="Dordle")


FAMILY_FLAGS = {"hangman": ("missed", "length", "weights"), "dordle": ("max_guesses", "seconds", "cache_dir"),
                "multiboard": ("boards", "grid", "max_guesses"), "absurdle": ("target",)}
MULTIBOARD_GAMES = ("quordle", "octordle", "sedecordle", "duotrigordle", "multiboard")


def position_family(args, first, wordle_weights: bool = False) -> str:
    """The family a position command plays ('wordle', 'hangman', 'dordle'): --game hangman or
    dordle, the family of the tree named first (a file or a shipped tree's name), or Hangman where
    a Hangman option is given; the Wordle family otherwise. An option of one family given where
    another plays is refused, naming the family it is for. `wordle_weights`: the command takes
    --weights for a Wordle-family position too (next), where a Wordle game or tree is named."""
    family = args.game if args.game in ("hangman", "dordle", "absurdle") else None
    if args.game in MULTIBOARD_GAMES or _given(args, "boards"):
        family = "multiboard"
    if family is None and first is not None:
        from ..families import family_of_tree, find_tree

        path = find_tree(first)
        found = family_of_tree(path) if path is not None else None
        family = found.name if found is not None and found.name != "wordle" else None
        wordle_named = found is not None and found.name == "wordle"
    else:
        wordle_named = False
    wordle_named = wordle_weights and (wordle_named or (family is None and args.game is not None))
    if family is None:  # (a Hangman option alone says Hangman: next _e___ --missed sa)
        family = "hangman" if any(_given(args, flag) for flag in FAMILY_FLAGS["hangman"]
                                  if not (flag == "weights" and wordle_named)) else "wordle"
    if family != "wordle" and folding_given(args):
        raise UsageError(f"--fold-accents and --keep-letters are for a Wordle game with --game, not a "
                         f"{family.capitalize()} position")
    for other, flags in FAMILY_FLAGS.items():
        for flag in flags:
            if other != family and _given(args, flag) and flag not in FAMILY_FLAGS.get(family, ()) \
                    and not (flag == "weights" and family == "wordle" and wordle_named):
                raise UsageError(f"--{flag.replace('_', '-')} is for a {other.capitalize()} position, "
                                 f"not {'a ' + family.capitalize() if family != 'wordle' else 'this'} one")
    return family


def position_weighted(position) -> bool:
    """Whether the position is on a weighted tree (its fingerprint then checked by next)."""
    from ..wordle.weights import recorded

    return position.doc is not None and recorded(position.doc) is not None


def _given(args, flag: str) -> bool:
    return getattr(args, flag, None) is not None


def _tree_and_steps(items) -> tuple[str | None, list[str]]:
    """The tree file that may come first, and the steps. A first item that is no file and looks
    like a word is a step missing its colours (parse_step says so), not a missing tree."""
    from pathlib import Path

    items = list(items)
    first = items[0] if items else None
    if first is not None and (Path(first).is_file() or (":" not in first and not first.isalnum())):
        return items.pop(0), items
    return None, items


def _position(args, tree, steps):
    """The position after `steps` on `tree` (a file or a shipped tree's name, None for the default)
    or, with --game, on that preset's shipped tree, else on the preset with no tree."""
    from ..wordle.player import game_tree, open_tree, position_after

    if args.game is not None:
        if tree is not None:
            raise UsageError("give a tree file or --game, not both")
        game = load_game(args)
        shipped = game_tree(args.game) if not (args.answers or args.guesses) else None
        if shipped is not None:
            return position_after(shipped, steps)
        return position_after(None, steps, game=game)
    if folding_given(args):
        raise UsageError("--fold-accents and --keep-letters go with --game: a tree says itself how its lists are read")
    return position_after(check_tree_shape(open_tree(tree)), steps, args.answers, args.guesses)


def add_next(sub) -> None:
    p = intermixed(sub.add_parser("next", help=summary("next")))
    position_options(p, hangman="of the pattern's length")
    hangman_options(p)
    dordle_options(p)
    json_option(p, "guess, source, candidates (and candidate_words), expected_guesses, note "
                   "(Hangman: letter, source, status, wrong_guesses_left, candidates, expected_score, ...; "
                   "Dordle: guess, source, both boards' candidates, ...)")
    p.add_argument("--all", action="store_true", help="list every candidate left (text; by default at most 10)")
    for action in p._actions:  # (hangman_options' --weights: next takes a Wordle family's too)
        if "--weights" in action.option_strings:
            action.help = ("a Hangman tree's weights file, if not a shipped one; a Wordle-family position: the "
                           "exact weighted search's guess off the tree (or on a tree made without them), a "
                           "weighted tree's own guess once these weights match its fingerprint")
    p.add_argument("--target", metavar="WORD", help="Absurdle's challenge mode (qntm rule): the next guess toward "
                   "making the adversary end on this answer, on a line of the fewest guesses from here")


def run_next(args) -> int:
    from ..wordle.player import suggestion_lines

    family = position_family(args, args.items[0] if args.items else None, wordle_weights=True)
    if family == "hangman":
        from .hangman import run_next_hangman

        return run_next_hangman(args)
    if family == "absurdle":
        from .absurdle import run_next_absurdle

        return run_next_absurdle(args)
    if family == "multiboard":
        from .multiboard import run_next_multiboard

        return run_next_multiboard(args)
    if family == "dordle":
        from .dordle import run_lookup

        return run_lookup(args, "next")
    position = _position(args, *_tree_and_steps(args.items))
    if getattr(args, "weights", None) is not None or position_weighted(position):
        from ..wordle.weights import weighted_suggestion

        suggestion = weighted_suggestion(position, args.weights)
    else:
        suggestion = position.suggest()
    if args.json:
        import orjson

        sys.stdout.write(orjson.dumps(suggestion.as_json()).decode() + "\n")
    else:
        print("\n".join(suggestion_lines(suggestion, args.all)))
    return 0


def add_candidates(sub) -> None:
    p = intermixed(sub.add_parser("candidates", help=summary("candidates"),
                                  description="Every answer still possible after the steps played, with their "
                                              "count: a word filter. Once no answer of the list fits, the allowed "
                                              "guesses that fit are listed, and a line says so. On a "
                                              "Hangman tree, the words that fit the word as revealed and the "
                                              "letters missed."))
    position_options(p, hangman="of the pattern's length")
    hangman_options(p)
    dordle_options(p)
    json_option(p, "candidates (the count) and words (Dordle: one such object a board)")


def run_candidates(args) -> int:
    from ..wordle.player import candidate_lines

    family = position_family(args, args.items[0] if args.items else None)
    if family == "hangman":
        from .hangman import run_candidates_hangman

        return run_candidates_hangman(args)
    if family == "absurdle":
        from .absurdle import run_candidates_absurdle

        return run_candidates_absurdle(args)
    if family == "multiboard":
        from .multiboard import run_candidates_multiboard

        return run_candidates_multiboard(args)
    if family == "dordle":
        from .dordle import run_lookup

        return run_lookup(args, "candidates")
    position = _position(args, *_tree_and_steps(args.items))
    if args.json:
        return print_json({"candidates": len(position.candidates), "words": position.candidates,
                           "widened": position.widened})
    print("\n".join(candidate_lines(position)))
    return 0


PLAY_EPILOG = """\
what to type, one line per guess (from a terminal or a pipe):
  COLOURS         what the game showed for the guess proposed: B/Y/G letters (BBYGB),
                  0/1/2 digits (00120) or the coloured squares; for Mastermind and Bulls
                  and Cows the score, e.g. 2B1W or 1A2B (or 21)
  WORD COLOURS    what the game showed for a guess of your own, e.g. crane BYBBG
                  (or 1122 1B0W): the assistant goes on from there
  q               stop
Hangman (a Hangman tree, or --game hangman --length N), one line per letter:
  PATTERN         the word as the game shows it after the letter proposed, e.g. _e___
                  (or the letter's places alone, -e---); - or an empty line for a miss
  LETTER PATTERN  a letter of your own and what the game showed, e.g. s ____s, or s -
examples:
  wordtree play                        today's game (the NYT lists of 2023, TARSE's tree)
  wordtree play --answer crane         the tree's guesses against one answer
  wordtree play wordle-salet-normal    the original lists (2315 answers, SALET's tree)
  printf 'BYYBB\\ncrane GYYBB\\n' | wordtree play   tarse's colours, then a guess of your own
  wordtree play --game hangman --length 5   Hangman with the shipped tree of 5-letter words
"""


def add_play(sub) -> None:
    import argparse

    p = sub.add_parser("play", help=summary("play"), epilog=PLAY_EPILOG,
                       description="An assistant for a real game: it proposes a guess, you type the colours\n"
                                   "the game showed (for it, or WORD COLOURS for a guess of your own), and so on.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tree", nargs="?", help="a tree file or a shipped tree's name (default: today's game, the NYT "
                                           "lists of 2023, from wordle-nyt2023-tarse-normal; the original lists: "
                                           "wordle-salet-normal)")
    p.add_argument("--answer", metavar="WORD", help="play the tree against this answer and show the rows")
    p.add_argument("--target", metavar="WORD", help="Absurdle's challenge mode (qntm rule): propose the guesses "
                   "toward making the adversary end on this answer")
    position_options(p, steps=False, hangman="of --length N letters")
    hangman_options(p, length=True)
    dordle_options(p)


def run_play(args) -> int:
    from ..play import colour_wanted, play
    from ..wordle.player import WordlePlay, play_answer

    family = position_family(args, args.tree)
    if family == "absurdle":
        from .absurdle import run_play_absurdle

        return run_play_absurdle(args)
    if family == "multiboard":
        from .multiboard import run_play_multiboard

        return run_play_multiboard(args)
    if family == "dordle":
        from .dordle import run_lookup

        return run_lookup(args, "play")
    if family == "hangman":
        from .hangman import run_play_hangman

        return run_play_hangman(args)
    tree = args.tree
    if tree is None and args.game is None:  # today's game
        from ..wordle.player import TODAY_TREE

        if not TODAY_TREE.is_file():
            raise UserError(f"the tree of today's game {TODAY_TREE} is missing; give a tree file")
        tree = str(TODAY_TREE)
    position = _position(args, tree, [])
    if tree is not args.tree:
        lists = position.doc["game"]
        print(f"today's Wordle: the NYT lists of 2023 ({lists['answers_count']} answers, {lists['guesses_count']} "
              f"guesses), from {TODAY_TREE.stem}; the original lists: wordtree play wordle-salet-normal", flush=True)
    if args.answer is not None:
        print("\n".join(play_answer(position, args.answer, colour_wanted(sys.stdout.isatty()))))
        return 0
    return play(WordlePlay(position), sys.stdin, lambda text: print(text, flush=True), sys.stdin.isatty(),
                sys.stdout.isatty())


def add_stats(sub) -> None:
    p = sub.add_parser("stats", help=summary("stats"))
    p.add_argument("tree", help="a tree file of any family, or a shipped tree's name")
    json_option(p, "name, family, format, game, lists, answers, total, measure, mean, optimal (and the histogram "
                   "of a Wordle-family tree)")


def run_stats(args) -> int:
    from ..families import FAMILIES, family_of_tree, tree_path

    path = tree_path(args.tree)
    family = family_of_tree(path) or FAMILIES["wordle"]  # (an unreadable file: the Wordle reader says why)
    if family.name == "wordle":
        from ..wordle.player import summary_lines
        from ..wordle.tree import describe, read_tree

        doc = read_tree(path)
        if args.json:
            facts = {"tree": args.tree, "family": family.name, **describe(doc)}
            return print_json({**facts, "worst": doc["stats"]["worst"], "histogram": doc["stats"]["histogram"]})
        print("\n".join(summary_lines(doc)))
        return 0
    facts = {"tree": args.tree, "family": family.name, **family.part("document").describe_file(path)}
    if args.json:
        return print_json(facts)
    if family.name == "hangman":
        game = f"{facts['word_length']} letters, {facts['lives']} lives"
    elif "max_guesses" in facts:
        game = f"at most {facts['max_guesses']} guesses on each board, first guess {facts['opener']}"
    else:  # Absurdle: no cap, the adversary's game lasts what the total says
        game = f"first guess {facts['opener']}"
    lists = "  ".join(f"{key}: {name}" for key, name in facts["lists"].items())
    print(f"game: {facts['game']}, {game}")
    print(f"{lists} ({facts['answers']} {'words' if family.name == 'hangman' else 'answers'})")
    mean = "" if facts["mean"] is None else f"  mean {facts['mean']}"
    print(f"total {facts['total']} ({facts['measure']}){mean}")
    print(f"optimal {facts['optimal']}")
    return 0


def add_export(sub) -> None:
    p = sub.add_parser("export", help=summary("export"))
    p.add_argument("tree", help="a wordtree/1 file, or a shipped tree's name")
    p.add_argument("--format", required=True, choices=("selby", "olson", "leaderboard"))
    p.add_argument("-o", "--output", metavar="FILE", help="output file (default: standard output)")
    list_options(p)


def run_export(args) -> int:
    from ..families import tree_path
    from ..files import write_atomic
    from ..wordle.formats import export_tree
    from ..wordle.tree import game_for, read_tree

    family = tree_family(args.tree)
    if family != "wordle":
        raise UserError(f"{args.tree}: export writes Wordle-family trees in other solvers' formats; this is a "
                        f"{family.capitalize()} tree")
    doc = check_tree_shape(read_tree(tree_path(args.tree)))
    data = export_tree(doc, game_for(doc, args.answers, args.guesses), args.format)
    if args.output:
        with output_errors(args.output):
            write_atomic(args.output, data)
    else:
        sys.stdout.buffer.write(data)
    return 0


def add_import(sub) -> None:
    p = sub.add_parser("import", help=summary("import"))
    p.add_argument("file", help="the file to import (- for standard input)")
    p.add_argument("game", nargs="?", default=None, help="game preset (default: wordle)")
    p.add_argument("--format", required=True, choices=("selby", "olson", "leaderboard"))
    p.add_argument("-o", "--output", required=True, metavar="TREE", help="the wordtree/1 file to write")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")
    fold_options(p)
    p.add_argument("--max-guesses", default="6", metavar="N", help="the game's cap (default 6; 'none' for no cap)")
    p.add_argument("--mode", default="normal", choices=("normal", "hard", "ultra"), help="the rules the tree obeys")


def run_import(args) -> int:
    from ..wordle.formats import import_tree
    from ..wordle.tree import TREE_MAX_BYTES, make_document, write_tree
    from ..wordle.verify import load_lists, verify
    from ..words import read_bounded, read_stream

    cap = None if args.max_guesses.lower() == "none" else positive_int(args.max_guesses, "--max-guesses")
    game = load_game(args)
    source = "stdin" if args.file == "-" else args.file
    try:
        data = read_stream(sys.stdin.buffer, TREE_MAX_BYTES) if args.file == "-" else \
            read_bounded(args.file, TREE_MAX_BYTES, "file to import")
    except OSError as exc:
        raise UserError(f"{args.file}: cannot read ({exc.strerror})") from None
    if len(data) > TREE_MAX_BYTES:
        raise UserError(f"{source}: larger than {TREE_MAX_BYTES >> 20} MB")
    root = import_tree(data, args.format, game, source)
    doc = make_document(game, root, mode=args.mode, max_guesses=cap, optimal=False, proof="imported")
    report = verify(doc, *load_lists(doc, args.answers, args.guesses))
    if not report.ok:
        raise UserError(f"{source}: the imported tree is not valid: {report.defect}")
    with output_errors(args.output):
        write_tree(args.output, doc)
    print(f"{args.output}: {report.answers} answers, total {report.total}, mean {report.mean}, worst {report.worst}")
    return 0
