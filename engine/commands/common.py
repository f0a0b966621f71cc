"""Options and helpers shared by several commands."""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager

from ..errors import UnknownGame, UsageError, UserError


def int_option(flag: str, least: int, most: int | None = None):
    """An argparse type: a whole number from `least` to `most` (no upper limit when None); anything
    else is refused as one line naming `flag` (exit 2), never replaced by a default."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < least or (most is not None and value > most):
            wanted = f"at least {least}" if most is None else f"between {least} and {most}"
            raise UsageError(f"{flag} must be a whole number {wanted}, not {text!r}")
        return value

    return convert


# The ranges the games take (games/mastermind.py, games/bulls_cows.py: at most 10000 codes, so
# at most 4 digits), checked here so that the parser need not import the games; Mastermind still
# refuses pegs and colours that make too many codes together.
MAX_PEGS, MAX_COLOURS, MAX_DIGITS = 9, 9, 4


def game_options(p: argparse.ArgumentParser, positional: bool = True, hangman: bool = False) -> None:
    if positional:
        from ..games import PRESETS

        names = ", ".join([*PRESETS, *(["hangman"] if hangman else [])])
        p.add_argument("game", nargs="?", default=None, help=f"the game: {names} (default: wordle)")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")
    p.add_argument("--cache-dir", metavar="DIR", help="pattern-matrix cache folder (default: $WORDTREE_CACHE_DIR or ~/.cache/wordtree)")
    p.add_argument("--pegs", type=int_option("--pegs", 1, MAX_PEGS), help="mastermind: code length (default 4)")
    p.add_argument("--colours", type=int_option("--colours", 2, MAX_COLOURS),
                   help="mastermind: number of colours (default 6)")
    p.add_argument("--digits", type=int_option("--digits", 1, MAX_DIGITS), help="bulls-cows: code length (default 4)")
    p.add_argument("--repeats", action="store_true", help="bulls-cows: allow repeated digits")


def games_epilog(hangman: bool = False) -> str:
    """The games a command takes, one a line with what it is, for the end of its --help (the
    parser keeps the lines with argparse.RawDescriptionHelpFormatter)."""
    from ..games import PRESETS

    lines = ["games:", *(f"  {name:<16}{text}" for name, text in PRESETS.items())]
    if hangman:
        lines.append(f"  {'hangman':<16}Hangman, one tree per word length (the hangman options)")
    return "\n".join(lines)


GAME_CAP = 0  # --max-guesses not given: the game's own cap (a user's value is at least 1)


def game_options_given(args) -> dict:
    """The game options of `game_options` given on the command line (pegs, colours, digits, repeats)."""
    options = {key: getattr(args, key, None) for key in ("pegs", "colours", "digits", "repeats")}
    return {key: value for key, value in options.items() if value is not None and value is not False}


def load_game(args):
    from ..games import get_game

    try:
        game = get_game(getattr(args, "game", None), args.answers, args.guesses, **game_options_given(args))
    except UnknownGame as exc:  # named on the command line: a usage error
        raise UsageError(str(exc)) from None
    for notice in game.notices:
        print(notice, file=sys.stderr)
    if getattr(args, "max_guesses", None) == GAME_CAP:
        args.max_guesses = game.default_cap
    return game


def max_guesses(text: str) -> int | None:
    if text.lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'none', got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def seconds_or_none(text: str) -> float | None:
    """A time limit in seconds above 0 (finite), or 'none' for no limit."""
    if text.lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds or 'none', got {text!r}") from None
    if not 0 < value < float("inf"):  # nan fails too
        raise argparse.ArgumentTypeError("must be a number of seconds above 0")
    return value


def search_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-guesses", type=max_guesses, default=GAME_CAP, metavar="N|none",
                   help="guess cap per answer (default: the game's, 6 for Wordle and Mastermind, 7 for Bulls and "
                        "Cows; 'none' for no cap)")
    p.add_argument("--mode", default="normal", choices=["normal", "hard", "ultra"],
                   help="game rules: normal (default), hard (NYT: greens stay, revealed letters reused) or "
                        "ultra (every guess consistent with all the feedback so far)")
    p.add_argument("--threads", type=int_option("--threads", 1), default=None, metavar="N", help="worker threads (default: every core the process may use)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")



def list_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--answers", metavar="FILE", help="the answer list, when the tree's is not a shipped one")
    p.add_argument("--guesses", metavar="FILE", help="the guess list, when the tree's is not a shipped one")



def positive_int(text: str, option: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"{option} must be a positive integer or 'none', not {text!r}")
    return int(text)


@contextmanager
def output_errors(path):
    """Words a failure to write `path` (a missing or read-only folder, a full disk, a folder where
    a file should be) as one line."""
    try:
        yield
    except OSError as exc:
        raise UserError(f"{path}: cannot write ({exc.strerror or exc})") from None


def check_tree_shape(doc: dict) -> dict:
    """`doc` (a tree read by tree.read_tree) if every node is {"guess": word, "next": {pattern:
    node}}; else a UserError naming the first bad node, so that the lookups walking the tree never
    meet a list or a number where a node or a word should be."""
    stack = [(doc["root"], "the root")]
    while stack:
        node, where = stack.pop()
        if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
            raise UserError(f"{doc.get('_path', 'tree')}: malformed node at {where} (needs a 'guess' word)")
        branches = node.get("next", {})
        if branches is None:
            continue
        if not isinstance(branches, dict):
            raise UserError(f"{doc.get('_path', 'tree')}: 'next' of {node['guess']!r} at {where} is not an object")
        prefix = "" if where == "the root" else f"{where} > "
        stack.extend((child, f"{prefix}{node['guess']}:{pattern}") for pattern, child in branches.items())
    return doc


def summary(command: str) -> str:
    """The command's one-line help, as the registry lists it."""
    from . import COMMANDS

    return COMMANDS[command][1]


def report_failures(failures: list[UserError]) -> int:
    """0, or the last of the writes that failed at the end of a command raised (the others told
    first), each one line."""
    sys.stdout.flush()
    for exc in failures[:-1]:
        print(f"wordtree: error: {exc}", file=sys.stderr)
    if failures:
        raise failures[-1]
    return 0


def checkpoint_flags(args, needing: tuple[str, ...] = ("overwrite",)) -> None:
    """The flags in `needing` each with --checkpoint; --resume and --overwrite not both."""
    for flag in needing:
        if getattr(args, flag) and not args.checkpoint:
            raise UsageError(f"--{flag} needs --checkpoint FILE")
    if args.overwrite and args.resume:
        raise UsageError("--resume continues the checkpoint and --overwrite starts it over: give one of them")


def hangman_build_options(p: argparse.ArgumentParser) -> None:
    """The options of `wordtree build hangman`; build calls run_build_hangman(args)."""
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
                   help="hangman: prove again the bound of the best-found tree at -o with this version's parts, "
                        "and write it there; the tree stays")
