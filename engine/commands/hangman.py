"""Hangman: `build hangman` (its options are in common.py, which `build` reads for every game),
`hangman-server`, `hangman-bot`."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import UsageError, UserError
from ..files import check_writable, open_checkpoint
from .common import int_option, print_json, summary


def run_build_hangman(args) -> int:
    """`wordtree build hangman ...`: the options checked and mapped onto hangman.driver's keyword
    arguments; one line per length (or the status, the refutation, the merge). Returns the exit
    status. Ctrl-C, and TERM as every command's process takes it (commands._term_as_interrupt),
    stop the build in every phase within moments (the searches under way end at their next node):
    the memo saved, then Stopped (files.open_checkpoint), worded by main (exit 130)."""
    options = hangman_build_kwargs(args)
    for line in _hangman_lines(args, options):
        print(line, flush=True)
    return 0


def hangman_build_kwargs(args) -> dict:
    """The keyword arguments of hangman.driver's functions that build hangman's options ask for,
    checked; a UsageError naming the flag to fix."""
    checkpoint = getattr(args, "checkpoint", None)
    if getattr(args, "lives", None) is not None and args.lives < 0:
        raise UsageError(f"--lives {args.lives}: must be 0 or more")
    if getattr(args, "max_nodes", None) is not None and args.max_nodes < 1:
        raise UsageError(f"--max-nodes {args.max_nodes}: must be 1 or more")
    if getattr(args, "memory", None) is not None and not args.memory > 0:
        raise UsageError(f"--memory {args.memory}: must be a positive number of gigabytes")
    if getattr(args, "checkpoint_mb", None) is not None and not (args.checkpoint_mb > 0 and checkpoint):
        raise UsageError(f"--checkpoint-mb {args.checkpoint_mb}: needs --checkpoint FILE and a positive size")
    memory, mb = getattr(args, "memory", None), getattr(args, "checkpoint_mb", None)
    return {"words": getattr(args, "words", None), "weights": getattr(args, "weights", None),
            "lives": 10 if getattr(args, "lives", None) is None else args.lives,
            "memory_bytes": None if memory is None else memory * 2**30,
            "threads": getattr(args, "threads", None), "max_nodes": getattr(args, "max_nodes", None),
            "checkpoint": checkpoint, "checkpoint_bytes": None if mb is None else mb * 2**20,
            "resume": getattr(args, "resume", False), "progress": not getattr(args, "quiet", False),
            "strategy": getattr(args, "strategy", None)}


def _hangman_lines(args, options: dict):
    """The lines of the build that args ask for (see run_build_hangman), as they come."""
    from ..hangman import driver

    checkpoint, merge, refute = options["checkpoint"], getattr(args, "merge", None), getattr(args, "refute", None)
    bound_only, length = getattr(args, "bound_only", False), getattr(args, "length", None)
    if getattr(args, "status", False):
        if not checkpoint:
            raise UsageError("--status needs --checkpoint FILE")
        if length is None or getattr(args, "all_lengths", False):
            raise UsageError("build hangman --status needs --length N (and the --checkpoint of that build)")
        lines, optimal = driver.checkpoint_status(length, checkpoint, **_only(options, "words", "weights", "lives",
                                                                               "memory_bytes"))
        if optimal:
            lines[-1] += " (--resume writes the tree)"
        yield "\n".join(lines)
        return
    _check_build_flags(args, checkpoint, merge, refute, bound_only)
    lengths = list(driver.ALL_LENGTHS) if getattr(args, "all_lengths", False) else [length]
    output = getattr(args, "output", None)
    if output and not (merge or refute or len(lengths) > 1 or Path(output).is_dir()):
        check_writable(output, "tree")  # before hours of search, not after
    # a checkpoint is locked for the run, and never replaced unless --resume (or --merge into it,
    # which adds to it) or --overwrite says so
    with open_checkpoint(checkpoint, resume=options["resume"] or bool(merge),
                         overwrite=getattr(args, "overwrite", False)):
        yield from _build_lines(args, options, lengths, output)


def _build_lines(args, options: dict, lengths: list, output):
    """The lines of a merge, a refutation or the builds (see _hangman_lines)."""
    from ..hangman import driver

    checkpoint, merge, refute = options["checkpoint"], getattr(args, "merge", None), getattr(args, "refute", None)
    length, bound_only = lengths[0], getattr(args, "bound_only", False)
    if merge:
        yield driver.merge_checkpoint(length, checkpoint, merge, **_only(options, "words", "weights", "lives",
                                                                         "memory_bytes", "checkpoint_bytes"))
    elif refute:
        tree = getattr(args, "against", None) or driver.output_path(length, bool(options["weights"]), output)
        found = driver.refute_letters(length, checkpoint, refute, tree, by_parts=getattr(args, "by_parts", False),
                                      **_only(options, "words", "weights", "lives", "memory_bytes", "threads",
                                              "max_nodes", "resume", "progress", "checkpoint_bytes"))
        yield refutation_lines(found)
    else:
        from ..hangman.baselines import RULES

        if options["strategy"] not in (None, "exact", *RULES):
            raise UsageError(f"--strategy {options['strategy']}: hangman knows exact, {', '.join(RULES)}")
        if output is None:
            if bound_only:
                raise UsageError("--bound-only needs -o FILE: the best-found tree whose bound it proves again "
                                 "and rewrites")
            output = "."  # the shipped tree's name in the current folder, never over the shipped tree itself
        yield from driver.build_lengths(lengths, output=output, bound_only=bound_only, **options)


def _only(options: dict, *names: str) -> dict:
    return {name: options[name] for name in names}


def _check_build_flags(args, checkpoint, merge, refute, bound_only) -> None:
    """The combinations of build hangman's flags that make no sense, each a UsageError."""
    all_lengths = getattr(args, "all_lengths", False)
    if not all_lengths and getattr(args, "length", None) is None:
        raise UsageError("build hangman needs --length N or --all-lengths")
    if getattr(args, "resume", False) and not checkpoint:
        raise UsageError("--resume needs --checkpoint FILE")
    if bound_only and (checkpoint or getattr(args, "strategy", None) not in (None, "exact")):
        raise UsageError("--bound-only bounds a tree already written: drop --checkpoint and --strategy")
    if checkpoint and all_lengths:
        raise UsageError("--checkpoint is for one length at a time (--length N)")
    if (merge or refute) and (not checkpoint or bound_only):
        raise UsageError("--merge and --refute work on one --checkpoint FILE of one --length N")
    if merge and refute:
        raise UsageError("--merge and --refute are two steps: run one, then the other")
    if refute and not (refute.isascii() and refute.isalpha()):
        raise UsageError(f"--refute {refute}: letters a to z, e.g. --refute aos")
    if (getattr(args, "against", None) or getattr(args, "by_parts", False)) and not refute:
        raise UsageError("--against and --by-parts go with --refute LETTERS")


def refutation_lines(found) -> str:
    """The lines of a refutation (hangman.driver.Refutation): its title, then a line per letter."""
    said = {"useless": "splits nothing, never worth guessing",
            "unreached": "not reached within --max-nodes (--resume goes on)"}
    lines = [found.title]
    for name, outcome, score, exact in found.letters:
        if outcome in said:
            lines.append(f"  {name}: {said[outcome]}")
        elif outcome == "no better":
            lines.append(f"  {name}: no better than the tree (expected score {'exactly' if exact else 'at most'} "
                         f"{score})")
        elif outcome == "better":
            lines.append(f"  {name}: better than the tree: expected score exactly {score}")
        else:
            lines.append(f"  {name}: not refuted by its parts (expected score at most {score}): "
                         f"drop --by-parts to search its largest class")
    return "\n".join(lines)

def add_hangman_server(sub) -> None:
    p = sub.add_parser("hangman-server", help=summary("hangman-server"))
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)")
    p.add_argument("--port", type=int_option("--port", 0, 65535), default=8080, help="port (0: any free port; default 8080)")
    p.add_argument("--words", default="enable1.txt", metavar="FILE", help="the words to draw (default enable1.txt)")
    p.add_argument("--db", default="hangman.sqlite3", metavar="FILE", help="the SQLite session store (default ./hangman.sqlite3)")
    p.add_argument("--words-per-game", type=int, default=80, metavar="N",
                   help="words drawn for each game (default 80)")
    p.add_argument("--lives", type=int, default=10, metavar="N", help="wrong guesses allowed per word (default 10)")
    p.add_argument("--seed", type=int, help="seed for drawing words, for reproducible games (default: a cryptographic "
                                            "source, so the next word cannot be predicted)")
    p.add_argument("--workers", type=int, default=8, metavar="N",
                   help="threads answering requests (default 8); connections are not limited by it")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                   help="time a client has to send a whole request, else 408 (default 10)")


def run_hangman_server(args) -> int:
    import sqlite3

    from ..hangman.server import Game, make_server
    from ..words import load_words

    if args.words_per_game < 1 or args.lives < 0:
        raise UsageError("--words-per-game must be 1 or more and --lives 0 or more")
    if args.workers < 1 or not args.timeout > 0:
        raise UsageError("--workers must be 1 or more and --timeout above 0")
    words = load_words(args.words).words
    try:
        game = Game(args.db, words, args.words_per_game, args.lives, args.seed)
    except sqlite3.Error as exc:
        raise UserError(f"{args.db}: cannot open the session store ({exc})") from None
    try:
        server = make_server(game, args.host, args.port, workers=args.workers, request_timeout=args.timeout)
    except OSError as exc:
        raise UserError(f"cannot serve on {args.host}:{args.port} ({exc.strerror or exc})") from None
    host, port = server.server_address[:2]
    print(f"hangman server on http://{host}:{port}/game/on ({len(words)} words, sessions in {args.db})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def add_hangman_bot(sub) -> None:
    p = sub.add_parser("hangman-bot", help=summary("hangman-bot"))
    p.add_argument("--url", required=True, help="the server's endpoint, e.g. http://127.0.0.1:8080/game/on")
    p.add_argument("--player", required=True, metavar="NAME",
                   help="the player's name, which the server records with the game's result")
    p.add_argument("--resume", metavar="SESSION", help="continue this session after a disconnect")
    p.add_argument("--words", metavar="FILE", help="the bot's dictionary (default enable1.txt)")


def run_hangman_bot(args) -> int:
    from ..hangman.bot import run_bot

    run_bot(args.url, args.player, args.resume, args.words, say=lambda line: print(line, flush=True))
    return 0


# ------------------------------------------------------------------------------------------------
# next and play on a Hangman tree (their parsers are trees.py's: add_next, add_play)
# ------------------------------------------------------------------------------------------------
def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _open_tree(args, tree, length: int | None):
    """The HangmanTree of the file (or shipped tree's name) `tree`, or with --game hangman the
    shipped tree of `length` letters."""
    from ..families import tree_path
    from ..hangman.lookup import HangmanTree, for_length

    if args.guesses is not None:
        raise UsageError("a Hangman tree has one word list: give it with --answers FILE")
    if args.game is not None:
        if tree is not None:
            raise UsageError("give a tree file or --game, not both")
        return for_length(length, args.answers, args.weights)
    if tree is None:
        raise UsageError("give a Hangman tree file, or --game hangman")
    return HangmanTree.open(tree_path(tree), args.answers, args.weights)


def _hangman_position(args, command: str):
    """(the HangmanTree, the word as revealed) of `next` or `candidates` on a Hangman tree:
    `[TREE] PATTERN --missed LETTERS`, or `--game hangman PATTERN`; no pattern: nothing revealed."""
    items = list(args.items)
    if args.game is not None and args.game != "hangman":
        raise UsageError(f"--missed and --weights are for Hangman, not --game {args.game}")
    if args.game is not None:
        if len(items) not in (1, 2):
            raise UsageError(f"--game hangman takes the word as revealed, e.g. {command} --game hangman _e___ "
                             "--missed sa")
        tree, pattern = items[0] if len(items) == 2 else None, items[-1]  # _open_tree refuses a tree with --game
    else:
        if len(items) > 2:
            raise UsageError("a Hangman position is the word as revealed (e.g. _e___) and --missed LETTERS, "
                             "not steps")
        tree, pattern = (items + [None, None])[:2]
    hangman = _open_tree(args, tree, len(pattern or ""))
    return hangman, "_" * hangman.length if pattern is None else pattern


def run_next_hangman(args) -> int:
    """`next` on a Hangman tree: `next [TREE] PATTERN --missed LETTERS`, or `--game hangman PATTERN`."""
    import orjson

    hangman, pattern = _hangman_position(args, "next")
    advice = hangman.advise(pattern, args.missed or "", say=_note)
    if args.json:
        sys.stdout.write(orjson.dumps(advice.as_json()).decode() + "\n")
    else:
        print("\n".join(advice_lines(advice, args.all)))
    return 0


def run_candidates_hangman(args) -> int:
    """`candidates` on a Hangman tree: every word of its list that fits the word as revealed and
    the letters missed, with their count (no search)."""
    import textwrap

    hangman, pattern = _hangman_position(args, "candidates")
    pattern, missed = hangman.parse(pattern, args.missed or "")
    words = hangman.words_left(pattern, missed)
    if args.json:
        return print_json({"candidates": len(words), "words": words})
    print("\n".join([f"{len(words)} word{'s' * (len(words) != 1)} left",
                      *textwrap.wrap(" ".join(words), 79, break_on_hyphens=False)]))
    return 0


def advice_lines(advice, every: bool = False) -> list[str]:
    """What `next` prints of a Hangman position: the letter line, then the words left (at most
    10 unless `every`)."""
    from ..hangman.lookup import letter_line

    lines = [letter_line(advice)]
    n = len(advice.words)
    if advice.status == "won" or (advice.status == "playing" and n == 1) or not n:
        return lines
    shown = advice.words if every or n <= 10 else advice.words[:10]
    more = "" if len(shown) == n else f" ... ({n - len(shown)} more: --all lists them)"
    title = "words" if advice.status == "playing" else f"{n} word{'s' * (n != 1)} fitted"
    return lines + [f"{title}: {' '.join(shown)}{more}"]


def run_play_hangman(args) -> int:
    """`play` on a Hangman tree (`play TREE`, or `--game hangman --length N`): the assistant
    reading stdin, or --answer WORD."""
    from ..hangman.lookup import HangmanPlay, play_word
    from ..play import play

    if args.game is not None and args.game != "hangman":
        raise UsageError(f"--length and --weights are for Hangman, not --game {args.game}")
    if args.game is not None and args.length is None:
        raise UsageError("--game hangman needs --length N: the word's letters")
    hangman = _open_tree(args, args.tree, args.length)
    if args.length is not None and args.length != hangman.length:
        raise UsageError(f"--length {args.length}: the tree is of {hangman.length}-letter words")
    if args.answer is not None:
        print("\n".join(play_word(hangman, args.answer)))
        return 0
    return play(HangmanPlay(hangman, _note), sys.stdin, lambda text: print(text, flush=True), sys.stdin.isatty(),
                sys.stdout.isatty())
