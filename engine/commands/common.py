"""Options and helpers shared by several commands."""

from __future__ import annotations

import argparse
import os
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


def cores() -> int:
    """The cores this process may use (its CPU affinity, else the machine's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def threads_count(text: str) -> int:
    """--threads N: a whole number of at least 1 (else a usage error), at most the cores this
    process may use: more threads than cores cannot run at once and each allocates its own
    memo, so a larger N is lowered to the cores, with a one-line notice on stderr."""
    value = int_option("--threads", 1)(text)
    most = cores()
    if value > most:
        print(f"notice: --threads {value} lowered to {most}, the cores this process may use",
              file=sys.stderr)
        return most
    return value


def threads_option(p: argparse.ArgumentParser) -> None:
    """--threads N, as every command that searches on threads takes it (threads_count)."""
    p.add_argument("--threads", type=threads_count, default=None, metavar="N",
                   help="worker threads, at most the cores this process may use (default: all of them)")


def game_options(p: argparse.ArgumentParser, positional: bool = True, hangman: bool = False) -> None:
    """The game (positional) and its lists, and every game's own options as the games registry
    declares them (games.PRESETS: Mastermind's --pegs, Bulls and Cows' --digits ...), each
    refused by the games that do not take it."""
    from ..games import OPTIONS, PRESETS

    if positional:
        names = ", ".join([*PRESETS, *(["hangman"] if hangman else [])])
        p.add_argument("game", nargs="?", default=None, help=f"the game: {names} (default: wordle)")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (with --guesses)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")
    cache_dir_option(p)
    fold_options(p)
    for option in OPTIONS.values():
        games = ", ".join(name for name, preset in PRESETS.items() if option.name in {o.name for o in preset.options})
        flag = f"--{option.name}"
        if option.kind is bool:
            p.add_argument(flag, action="store_true", help=f"{games}: {option.summary}")
        else:
            p.add_argument(flag, type=int_option(flag, option.least, option.most), metavar=option.name.upper(),
                           help=f"{games}: {option.summary}")


def fold_options(p: argparse.ArgumentParser) -> None:
    """--fold-accents and --keep-letters: how the Wordle family reads lists of other alphabets."""
    p.add_argument("--fold-accents", action="store_true",
                   help="Wordle family: read the lists with accents folded, as Portuguese Termo plays: á, â, ã -> a, "
                        "ç -> c, ü -> u, Greek ά -> α, ς -> σ (the tree records it)")
    p.add_argument("--keep-letters", metavar="LETTERS",
                   help="with --fold-accents: letters left as they are, e.g. ñ for Spanish (á -> a, but ñ stays)")


def folding_given(args) -> bool:
    return bool(getattr(args, "fold_accents", False) or getattr(args, "keep_letters", None) is not None)


def games_epilog(hangman: bool = False, dordle: bool = False) -> str:
    """The games a command takes, one a line with what it is, for the end of its --help (the
    parser keeps the lines with argparse.RawDescriptionHelpFormatter)."""
    from ..games import PRESETS

    lines = ["games:", *(f"  {name:<16}{preset.summary}" for name, preset in PRESETS.items())]
    if hangman:
        lines.append(f"  {'hangman':<16}Hangman, one tree per word length (build hangman --help)")
    if dordle:
        lines.append(f"  {'dordle':<16}Dordle, two Wordle boards at once (build dordle --help)")
        lines.append(f"  {'absurdle':<16}Absurdle, Wordle against an adversary (build absurdle --help)")
        lines.append(f"  {'quordle':<16}Quordle, 4 boards, to duotrigordle, 32; multiboard --boards K "
                     "(build quordle --help)")
    return "\n".join(lines)


GAME_CAP = 0  # --max-guesses not given: the game's own cap (a user's value is at least 1)


def game_options_given(args) -> dict:
    """The game options of `game_options` given on the command line (pegs, colours, digits, repeats)."""
    from ..games import OPTIONS

    options = {key: getattr(args, key, None) for key in OPTIONS}
    return {key: value for key, value in options.items() if value is not None and value is not False}


def load_game(args):
    from ..games import get_game
    from ..words import folding, letter_folding

    fold, keep = getattr(args, "fold_accents", False), getattr(args, "keep_letters", None)
    if keep is not None and not fold:
        raise UsageError("--keep-letters needs --fold-accents")
    if fold and getattr(args, "scheduler", None):
        raise UsageError("--fold-accents does not reach the workers of --scheduler: give them the lists folded "
                         "by hand (the same game, the same tree)")
    if keep is not None and not keep.strip():
        raise UsageError("--keep-letters needs the letters to keep, e.g. --keep-letters ñ")
    try:
        folding(fold, keep or "")
    except UserError as exc:
        raise UsageError(f"--keep-letters: {exc}") from None
    try:
        with letter_folding(fold, keep or ""):
            game = get_game(getattr(args, "game", None), args.answers, args.guesses, **game_options_given(args))
    except UnknownGame as exc:  # named on the command line: a usage error
        raise UsageError(str(exc)) from None
    if fold and game.kind != "wordle":
        raise UsageError(f"--fold-accents is an option of the Wordle games' word lists, not of {game.name}")
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
    threads_option(p)
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


def refuse_defects(tree: str, problems: list[str]) -> None:
    """A file whose check found `problems`: one error line naming the first (and how many more), as
    every family's `verify` says a defect (exit 1, nothing on stdout)."""
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UserError(f"{tree}: {problems[0]}{more}")


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
    p.add_argument("-o", "--output", metavar="FILE|DIR",
                   help="the tree file (default hangman-N.json in the current folder; a folder gets that name)")
    p.add_argument("--strategy", default="exact", metavar="exact|RULE",
                   help="exact (default) or a greedy rule's tree (frequency, entropy), labelled not optimal")
    threads_option(p)
    quiet_option(p)
    p.add_argument("--checkpoint", metavar="FILE",
                   help="the exact search's memo, saved every few minutes and when stopped")
    p.add_argument("--resume", action="store_true", help="continue a stopped build from --checkpoint")
    p.add_argument("--overwrite", action="store_true",
                   help="start --checkpoint over even if it exists (without --resume or this, an existing one is refused)")
    p.add_argument("--status", action="store_true",
                   help="print what --checkpoint proves so far (each first letter's classes solved and the score it "
                        "can reach at most), then stop")
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


def json_option(p: argparse.ArgumentParser, what: str) -> None:
    """--json, as every command that prints a result takes it: the result as one JSON value on
    stdout (`what` it holds), the notices still on stderr."""
    p.add_argument("--json", action="store_true", help=f"print the result as JSON: {what}")


def quiet_option(p: argparse.ArgumentParser) -> None:
    """--quiet, as every command that shows progress takes it: no progress bar or progress lines
    (the result, the notices and the errors are still printed)."""
    p.add_argument("--quiet", action="store_true", help="no progress bar or progress lines")


def print_json(value) -> int:
    """Print `value` as one line of JSON on stdout (what --json gives); exit status 0."""
    import orjson

    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode() + "\n")
    return 0


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


def cache_dir_option(p: argparse.ArgumentParser, what: str = "pattern-matrix", family: str = "") -> None:
    """--cache-dir, the folder of a command's cache (`what` it holds; `family`: the family whose
    positions use it, where the command plays others too)."""
    p.add_argument("--cache-dir", metavar="DIR", help=f"{family + ': ' if family else ''}{what} cache folder "
                                                      "(default: $WORDTREE_CACHE_DIR or ~/.cache/wordtree)")


NOT_GIVEN = object()  # the default of an option whose absence its command tells apart from any value (grade's --seconds)
