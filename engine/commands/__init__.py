"""The `wordtree` command: a registry of subcommands, each imported only when it is run.

This package is the only code that sees argparse or names a flag. Each command lives in a module of
its family (`games`, `build`, `trees`, `web`, `puzzles`, `hangman`) as a pair of functions:
`add_<name>(subparsers)` declares its arguments and `run_<name>(args)` does the work, importing the
engine inside, so `--help` and the tree lookups never import numba. The engine takes plain keyword
arguments and raises `UserError`; `main` words it as one line and its exit code.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys

from .. import __version__
from ..errors import UserError
from .hints import flag_hints, interrupted_line

# name -> (module, one-line help), in the order `--help` lists them
COMMANDS: dict[str, tuple[str, str]] = {
    "info": ("games", "describe a game: lists, sizes, hashes, patterns"),
    "feedback": ("games", "the pattern a guess gets against an answer ('-' reads pairs from stdin)"),
    "build": ("build", "build the exact optimal tree (or a labelled greedy baseline)"),
    "rank": ("build", "exact values of the best K first guesses, and a proof for all others"),
    "compile": ("compile", "compile every family's kernels once into numba's cache, with a bar (later first uses start at once)"),
    "trees": ("shelf", "the shipped trees: name, game, lists, total, where they are installed"),
    "verify": ("trees", "check a tree independently: every answer, the rules, the cap, the stats"),
    "next": ("trees", "the next guess from a tree after the steps played, e.g. next salet:BBYBB (Hangman: next --game hangman _e___ --missed sa)"),
    "candidates": ("trees", "every answer still possible after the steps played, e.g. candidates salet:BBYBB"),
    "play": ("trees", "an assistant for a real game (reads colours, or Hangman patterns, from stdin), or --answer WORD"),
    "grade": ("grade", "grade each move of a game: its exact expected guesses against the best guess's, and the loss"),
    "stats": ("trees", "a tree's summary and histogram (as stored; `verify` recomputes)"),
    "export": ("trees", "write a tree in another program's format: selby, olson, leaderboard"),
    "import": ("trees", "read a tree in another program's format, verify it, write a wordtree/1 file"),
    "web": ("web", "write the web player for some trees: a static site that also works offline"),
    "serve": ("web", "serve the web player on 127.0.0.1 (Ctrl-C stops)"),
    "crossword": ("puzzles", "fill a crossword grid with words, common ones first"),
    "boggle": ("puzzles", "word grids: every word on a board, random boards, the best boards"),
    "hangman-server": ("hangman", "serve Hangman games: POST JSON to /game/on, sessions in SQLite"),
    "hangman-bot": ("hangman", "play a whole Hangman game against a server with the trees"),
    "dordle": ("dordle", "Dordle's own actions (build, verify, next, play, grade as the commands of those names; bound, heuristic)"),
}
GAME_PARSERS = {"build"}  # commands whose options are the named game's own (add_build(sub, argv))


def _function(name: str, kind: str):
    module = importlib.import_module(f"{__name__}.{COMMANDS[name][0]}")
    return getattr(module, f"{kind}_{name.replace('-', '_')}")


def _chosen(argv: list[str]) -> str | None:
    """The command named in argv (its first word that is not an option), if it is one we know
    and no help is asked for before it (`wordtree -h build` lists every command)."""
    for word in argv:
        if word in ("-h", "--help"):
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser: the arguments of the command named in argv; with none named (or an unknown
    one), every command listed, for the help and the error that lists them; all in full when
    argv is None. (A subparser that the command's run never reads would only lengthen its start.)"""
    parser = argparse.ArgumentParser(
        prog="wordtree",
        description="Provably optimal decision trees for word-guessing games: build, verify, look up, play.",
    )
    parser.add_argument("--version", action="version", version=f"wordtree {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = None if argv is None else _chosen(argv)
    for name, (_module, summary) in COMMANDS.items():
        if argv is None or name == chosen:
            _function(name, "add")(sub, *([argv] if name in GAME_PARSERS else []))
        elif chosen is None:
            sub.add_parser(name, help=summary)
    from .word_lists import strict_words_option

    strict_words_option(parser)  # every parser naming a word list takes --strict-words
    return parser


MESSAGE_CAP = 600  # characters of an error message: one that quotes a file's content stays one readable line
OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}  # writing the output failed


def one_line(message: str, cap: int = MESSAGE_CAP) -> str:
    """An error message cut to `cap` characters ("…" marks the cut)."""
    return message if len(message) <= cap else message[: cap - 1] + "…"


def main(argv: list[str] | None = None) -> int:
    """Run the command in `argv` (None: the process's own arguments, and the process ends after:
    see `_before_exit` and `_end_process`) and return its exit status."""
    if argv is None:
        command_process()
        try:
            code = _main(sys.argv[1:])
        finally:
            _before_exit()
        _end_process(code)  # returns only where ending now could lose something
        return code
    return _main(list(argv))


def command_process() -> None:
    """Set this process up as a command's, which runs nothing but this package (main calls it;
    a benchmark that imports the engine before it runs `main` calls it first)."""
    # nothing here calls BLAS: its threads, which numpy's import starts and spins, only cost
    # CPU; a user's own setting stays
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from ..numba_cache import freeze_numba_objects, without_numba_extensions

    freeze_numba_objects()  # numba's objects out of the collector's way, as they come
    without_numba_extensions()  # only this package's kernels run here
    _term_as_interrupt()


def _term_as_interrupt() -> None:
    """Ctrl-C and TERM stop a command's process as a KeyboardInterrupt, raised only where the code
    running can take it (interrupts.py: never inside numba's boxing of a kernel's result): a long
    build or rank saves its checkpoint and says how to resume."""
    from .. import interrupts

    interrupts.install()


def _before_exit() -> None:
    """The process ends next: freeze what it holds out of the garbage collector's reach. The
    interpreter's exit would otherwise walk every object once more, numba's hundred thousand
    included, to free what the OS frees anyway (docs/performance.md: a build's start)."""
    import gc

    gc.freeze()


def _end_process(code: int) -> None:
    """End the process now with `code`, once its exit functions have run and its output is out,
    without the interpreter's teardown: that frees, module by module, what the OS frees at once,
    numba's JIT engine among it. Returns instead, for the usual exit, where another thread is
    still running (the usual exit waits for it) or the output cannot be flushed (the usual exit
    reports that)."""
    import atexit
    import threading

    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    others = [t for t in threading.enumerate() if t is not threading.current_thread() and not t.daemon]
    if run_exit_functions is None or threading.current_thread() is not threading.main_thread() or others:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    run_exit_functions()  # (they run once: from here on the process ends whatever happens)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # what an exit function printed cannot go out: nor would it at the usual exit
    os._exit(code)


def _main(argv: list[str]) -> int:
    parser = build_parser(argv)
    try:
        args = _parse(parser, argv)  # an option's type may refuse its value with a UsageError
        if not args.command:
            parser.print_help()
            return 2
        from .paths import check_paths

        check_paths(args)  # an output that names an input or another output: refused before any work
        from .. import progress

        progress.silence(bool(getattr(args, "quiet", False)))  # --quiet: no bar, whichever job would show one
        try:
            from .word_lists import word_list_policy

            with flag_hints(), word_list_policy(args):
                code = _function(args.command, "run")(args) or 0
        finally:
            progress.silence(False)  # (a caller's own jobs after an in-process main show theirs)
        sys.stdout.flush()  # a full disk under stdout fails here, not at exit
        return code
    except UserError as exc:
        from ..numba_cache import said_first

        said_first()  # a compile notice's time before the error, which stays the last line
        print(f"wordtree: error: {one_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt as exc:  # a run with a checkpoint says where its work is
        print(interrupted_line(exc, argv), file=sys.stderr)
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0
    except OSError as exc:
        # a file or the output the command could not use, where the command did not say so itself
        if exc.filename is not None:
            message = f"{exc.filename}: {exc.strerror or exc}"
        elif exc.errno in OUTPUT_ERRNOS:
            _drop_stdout()
            message = f"cannot write the output ({exc.strerror or exc})"
        else:
            raise
        from ..numba_cache import said_first

        said_first()
        print(f"wordtree: error: {one_line(message)}", file=sys.stderr)
        return 1


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """argv parsed; an argument the command does not take is refused with that command's usage
    (argparse's own parse_args shows the top level's)."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        innermost = parser
        while innermost._subparsers is not None:  # the command's parser, or its action's (dordle build)
            choice = innermost._subparsers._group_actions[0]
            if getattr(args, choice.dest, None) not in choice.choices:
                break
            innermost = choice.choices[getattr(args, choice.dest)]
        innermost.error(f"unrecognized arguments: {' '.join(extras)}")
    return args


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that the exit's flush of what could not be written stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (e.g. captured by a test)
        pass
