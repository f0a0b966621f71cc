"""The `wordtree` command: argparse subcommands that import the engine lazily.

Each subcommand is an `_add_<name>` function that declares its arguments (registered in the
order defined) and a `_run_<name>` function that does the work, importing what it needs inside:
`--help` and the tree lookups never import numba.
"""

from __future__ import annotations

import argparse
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


def _load_game(args):
    from engine.games import get_game

    game = get_game(getattr(args, "game", None), args.answers, args.guesses)
    for notice in game.notices:
        print(notice, file=sys.stderr)
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
