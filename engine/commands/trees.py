"""Trees as files: `verify`, `next`, `candidates`, `play`, `stats`, `export`, `import`."""

from __future__ import annotations

import argparse
import sys

from ..errors import UsageError, UserError
from .common import (
    check_tree_shape,
    int_option,
    list_options,
    load_game,
    output_errors,
    positive_int,
    summary,
)


def add_verify(sub) -> None:
    p = sub.add_parser("verify", help=summary("verify"))
    p.add_argument("tree", help="a wordtree/1 JSON file (or a Hangman tree)")
    list_options(p)
    p.add_argument("--weights", metavar="FILE", help="a Hangman tree's weights file, if not a shipped one")
    p.add_argument("--prove", action="store_true",
                   help="re-prove the tree's optimality claim with the exact search (slow: the search the build ran)")



def run_verify(args) -> int:
    from ..wordle.tree import histogram_lines, read_tree
    from ..wordle.verify import load_lists, optimality_claim, verify

    if _tree_format(args.tree) == "wordtree-hangman/1":
        return _verify_hangman(args)
    if args.weights is not None:
        raise UserError("--weights is for a Hangman tree")
    doc = read_tree(args.tree)
    report = verify(doc, *load_lists(doc, args.answers, args.guesses))
    if not report.ok:
        raise UserError(f"{args.tree}: {report.defect}")
    game = doc["game"]
    print(f"{args.tree}: valid ({game['name']}, {game['mode']} mode, {report.answers} answers, {report.nodes} nodes)")
    print(f"total {report.total}  mean {report.mean}  worst {report.worst}")
    print("\n".join(histogram_lines(report.histogram)), flush=True)
    claim = optimality_claim(doc)
    if claim is None:
        print("optimal: not claimed")
    elif not args.prove:
        print("optimal: claimed, not re-proved (run verify --prove)")
    else:
        from ..wordle.tree import game_for
        from ..wordle.verify import prove_opener

        opener = doc["root"]["guess"]
        print(f"proving: the exact value of {opener} with the tree's cap and mode ...", file=sys.stderr, flush=True)
        ok, how = prove_opener(doc, game_for(doc, args.answers, args.guesses))
        if not ok:
            raise UserError(f"{args.tree}: the optimality claim fails: {how}")
        print(f"optimal: re-proved for the opener {opener}: {how}")
        if claim == "best opener":
            print(f"opener: only {opener}'s value was re-proved; that no other opener does better was not "
                  f"(run rank)")
    return 0


def _verify_hangman(args) -> int:
    from ..hangman.tree import prove_optimal, read_document, verify_file

    if args.guesses is not None:
        raise UserError("a Hangman tree has one word list: give it with --answers FILE")
    print(verify_file(args.tree, args.answers, args.weights), flush=True)
    if not read_document(args.tree)["result"].get("optimal"):
        print("optimal: not claimed")
    elif not args.prove:
        print("optimal: claimed, not re-proved (run verify --prove)")
    else:
        ok, how = prove_optimal(args.tree, args.answers, lambda text: print(text, file=sys.stderr, flush=True),
                                args.weights)
        if ok is False:
            raise UserError(f"{args.tree}: the optimality claim fails: {how}")
        print(f"optimal: re-proved {how}" if ok else f"optimal: claimed, cannot be re-proved here: {how}")
    return 0


def _tree_format(path) -> str | None:
    """The "format" field of a JSON tree file, or None if it cannot be read (read_tree then
    reports the problem)."""
    import orjson

    from ..wordle.tree import TREE_MAX_BYTES
    from ..words import read_bounded

    try:
        doc = orjson.loads(read_bounded(path, TREE_MAX_BYTES, "tree file"))
    except (UserError, orjson.JSONDecodeError):
        return None
    return doc.get("format") if isinstance(doc, dict) else None


class IntermixedParser(argparse.ArgumentParser):
    """A command's parser whose options may come anywhere among its positionals (`next TREE
    --json salet:BBBBB`): argparse's intermixed parsing, for the parser the command line reaches."""

    _inner = False

    def parse_known_args(self, args=None, namespace=None):
        """What follows `--` goes to the list of positionals as it is, even a word that starts
        with `-` (a Hangman pattern such as -e---): the intermixed parse of Python 3.11 refuses
        it when no positional comes before the `--`."""
        if self._inner:  # the intermixed parse's own passes
            return super().parse_known_args(args, namespace)
        args = list(sys.argv[1:] if args is None else args)
        tail = args[args.index("--") + 1:] if "--" in args else []
        self._inner = True
        try:
            namespace, extras = self.parse_known_intermixed_args(args[: len(args) - len(tail)], namespace)
        finally:
            self._inner = False
        many = [a for a in self._actions if not a.option_strings and a.nargs in ("*", "+")]
        if tail and many:
            setattr(namespace, many[0].dest, list(getattr(namespace, many[0].dest) or []) + tail)
        else:
            extras += tail
        return namespace, extras


def intermixed(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.__class__ = IntermixedParser  # made by add_parser, which takes no parser class of its own
    return p


def position_options(p, steps: bool = True, hangman: str = "") -> None:
    """A position's arguments: the tree (or --game for none), the steps, the tree's lists.
    `hangman`: what --game hangman takes, where the command plays Hangman too (its help)."""
    if steps:
        p.add_argument("items", nargs="*", metavar="[TREE] GUESS:PATTERN",
                       help="a tree file (default: the shipped Wordle tree), then the steps played; "
                            "patterns as B/Y/G, 0/1/2 or squares" + (
                                "; for a Hangman tree the word as revealed, e.g. _e___ (a hidden letter as _ "
                                "or ., not -)" if hangman else ""))
    p.add_argument("--game", metavar="GAME",
                   help="a preset played with no tree (off a tree from the start), e.g. wordle-nyt2023, "
                        "today's NYT game" + (f"; hangman: the shipped Hangman tree {hangman}" if hangman else ""))
    list_options(p)


def hangman_options(p, length: bool = False) -> None:
    """The Hangman options of next and play (hangman.py runs them)."""
    if length:
        p.add_argument("--length", type=int_option("--length", 2, 15), metavar="N",
                       help="Hangman: the word's letters, with --game hangman")
    else:
        p.add_argument("--missed", metavar="LETTERS", help="Hangman: the letters guessed wrong so far, e.g. sa")
    p.add_argument("--weights", metavar="FILE", help="a Hangman tree's weights file, if not a shipped one")


def _is_hangman(args, first, *flags: str) -> bool:
    """Whether the command plays Hangman: --game hangman, a Hangman option given, or a Hangman
    tree (a file, or a shipped one's name) first."""
    if args.game == "hangman" or any(getattr(args, flag) is not None for flag in flags):
        return True
    if first is None:
        return False
    from ..hangman.lookup import tree_file

    path = tree_file(first)
    return path is not None and _tree_format(path) == "wordtree-hangman/1"


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
    return position_after(check_tree_shape(open_tree(tree)), steps, args.answers, args.guesses)


def add_next(sub) -> None:
    p = intermixed(sub.add_parser("next", help=summary("next")))
    position_options(p, hangman="of the pattern's length")
    hangman_options(p)
    p.add_argument("--json", action="store_true",
                   help="print guess, source, candidates (and candidate_words), expected_guesses, note as JSON "
                        "(Hangman: letter, source, status, wrong_guesses_left, candidates, expected_score, ...)")
    p.add_argument("--all", action="store_true", help="list every candidate left (text; by default at most 10)")


def run_next(args) -> int:
    from ..wordle.player import suggestion_lines

    if _is_hangman(args, args.items[0] if args.items else None, "missed", "weights"):
        from .hangman import run_next_hangman

        return run_next_hangman(args)
    suggestion = _position(args, *_tree_and_steps(args.items)).suggest()
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


def run_candidates(args) -> int:
    from ..wordle.player import candidate_lines

    if _is_hangman(args, args.items[0] if args.items else None, "missed", "weights"):
        from .hangman import run_candidates_hangman

        return run_candidates_hangman(args)
    print("\n".join(candidate_lines(_position(args, *_tree_and_steps(args.items)))))
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
  wordtree play                        the shipped Wordle tree, interactively
  wordtree play --answer crane         the tree's guesses against one answer
  wordtree play --game wordle-nyt2023  today's NYT game (no tree of it is shipped yet)
  printf 'BYBBB\\ncrane GYYBB\\n' | wordtree play   salet's colours, then a guess of your own
  wordtree play --game hangman --length 5   Hangman with the shipped tree of 5-letter words
"""


def add_play(sub) -> None:
    import argparse

    p = sub.add_parser("play", help=summary("play"), epilog=PLAY_EPILOG,
                       description="An assistant for a real game: it proposes a guess, you type the colours\n"
                                   "the game showed (for it, or WORD COLOURS for a guess of your own), and so on.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tree", nargs="?", help="a tree file (default: the shipped Wordle tree)")
    p.add_argument("--answer", metavar="WORD", help="play the tree against this answer and show the rows")
    position_options(p, steps=False, hangman="of --length N letters")
    hangman_options(p, length=True)


def run_play(args) -> int:
    from ..play import colour_wanted, play
    from ..wordle.player import WordlePlay, play_answer

    if _is_hangman(args, args.tree, "length", "weights"):
        from .hangman import run_play_hangman

        return run_play_hangman(args)
    position = _position(args, args.tree, [])
    if args.answer is not None:
        print("\n".join(play_answer(position, args.answer, colour_wanted(sys.stdout.isatty()))))
        return 0
    return play(WordlePlay(position), sys.stdin, lambda text: print(text, flush=True), sys.stdin.isatty(),
                sys.stdout.isatty())


def add_stats(sub) -> None:
    p = sub.add_parser("stats", help=summary("stats"))
    p.add_argument("tree", help="a wordtree/1 JSON file")


def run_stats(args) -> int:
    from ..wordle.player import summary_lines
    from ..wordle.tree import read_tree

    print("\n".join(summary_lines(read_tree(args.tree))))
    return 0


def add_export(sub) -> None:
    p = sub.add_parser("export", help=summary("export"))
    p.add_argument("tree", help="a wordtree/1 JSON file")
    p.add_argument("--format", required=True, choices=("selby", "olson", "leaderboard"))
    p.add_argument("-o", "--output", metavar="FILE", help="output file (default: standard output)")
    list_options(p)


def run_export(args) -> int:
    from ..files import write_atomic
    from ..wordle.formats import export_tree
    from ..wordle.tree import game_for, read_tree

    doc = check_tree_shape(read_tree(args.tree))
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
