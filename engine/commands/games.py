"""`info` and `feedback`: a game's lists and its feedback rule."""

from __future__ import annotations

import argparse
import sys

from ..errors import UsageError, UserError
from ..files import bounded_lines
from .common import game_options, games_epilog, json_option, load_game, print_json, summary


def add_info(sub) -> None:
    p = sub.add_parser("info", help=summary("info"), epilog=games_epilog(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    game_options(p)
    json_option(p, "game, kind, the identity a tree records (lists, fingerprints, sizes, parameters), patterns, "
                   "matrix (rows, columns, dtype, source, path), proven_first and proven_first_hard")


def run_info(args) -> int:
    import numpy as np

    from ..numba_cache import compile_note
    from ..wordle.patterns import pattern_matrix

    game = load_game(args)
    pm = pattern_matrix(game, args.cache_dir)
    ident = game.identity()
    distinct = int(np.count_nonzero(np.bincount(pm.matrix.ravel(), minlength=game.n_codes)))
    if args.json:
        return print_json({"game": game.name, "kind": game.kind, **ident, "patterns": distinct,
                           "possible_patterns": game.n_codes,
                           "matrix": {"rows": pm.matrix.shape[0], "columns": pm.matrix.shape[1],
                                      "dtype": str(pm.matrix.dtype), "source": pm.source,
                                      "path": str(pm.path) if pm.path else None},
                           "proven_first": game.default_first, "proven_first_hard": game.proven_first("hard")})
    print(f"game: {game.name} ({game.kind})")
    for key in ("answers", "guesses"):
        print(f"{key}: {ident[key]}  {ident[key + '_count']} words  sha256 {ident[key + '_sha256']}")
    for key, value in ident.items():
        if key not in {"name"} and not key.startswith(("answers", "guesses")):
            print(f"{key}: {value}")
    print(f"patterns: {distinct} of {game.n_codes} possible occur")
    print(f"pattern matrix: {pm.matrix.shape[0]} x {pm.matrix.shape[1]} {pm.matrix.dtype}, "
          f"{pm.source} in {pm.seconds * 1000:.1f} ms{compile_note(pm.compile_seconds)}"
          + (f" ({pm.path})" if pm.path else ""))
    if game.default_first:
        print(f"proven best first guess (normal mode): {game.default_first}")
    if game.proven_first("hard"):
        print(f"proven best first guess (hard mode): {game.proven_first('hard')}")
    return 0


def add_feedback(sub) -> None:
    p = sub.add_parser("feedback", help=summary("feedback"))
    p.add_argument("guess", help="the guess, or - to read 'GUESS ANSWER' lines from stdin")
    p.add_argument("answer", nargs="?", help="the answer: any allowed word (the game adds answers to its list)")
    p.add_argument("--game", default=None, help="game preset (default: wordle)")
    game_options(p, positional=False)


def run_feedback(args) -> int:
    game = load_game(args)
    if args.guess != "-":
        if args.answer is None:
            raise UsageError("feedback needs GUESS ANSWER, or - to read pairs from stdin")
        guess, answer = _feedback_pair(game, args.guess, args.answer, "command line")
        print(game.pattern_text(game.feedback(guess, answer)))
        return 0
    cache: dict[tuple[str, str], str] = {}
    out = []
    for lineno, line in enumerate(bounded_lines(sys.stdin), 1):
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
    guess, answer = game.normal_word(guess), game.normal_word(answer)
    if guess not in game.guess_index:
        raise UserError(f"{where}: {guess!r} is not an allowed guess in {game.name}")
    if answer not in game.answer_index and answer not in game.guess_index:  # the game adds answers to its list
        raise UserError(f"{where}: {answer!r} is not an allowed word in {game.name}")
    return guess, answer
