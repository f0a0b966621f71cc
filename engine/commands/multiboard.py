"""The multi-board games' commands (Quordle, Octordle, Sedecordle, Duotrigordle, any K):
`build quordle` (the player measured on a seeded sample, or on every tuple; its lower bound;
the exact optimum of a tiny game), and next, candidates and play with --game quordle (or
--boards K), the steps as GUESS:P1/.../PK or the shared emoji grid (--grid) with the guesses."""

from __future__ import annotations

import sys

from ..errors import OutputSavedElsewhere, UsageError, UserError
from ..text import percent
from .common import (NOT_GIVEN, int_option, json_option, list_options, print_json, quiet_option, refuse_defects,
                     report_failures)

GRID_MAX_BYTES = 1 << 16


class NoStrategy(UserError):
    """No strategy meets the cap (proven): exit status 3."""

    exit_code = 3
EXACT_MAX_ANSWERS = 8


def multiboard_build_options(p) -> None:
    from ..multiboard.spec import GAMES

    p.add_argument("game", choices=GAMES, metavar="|".join(GAMES),
                   help="the game: quordle (4 boards, 9 guesses), octordle (8, 13), sedecordle (16, 21), "
                        "duotrigordle (32, 37), or multiboard with --boards K")
    p.add_argument("preset", nargs="?", default=None,
                   help="the Wordle preset whose lists every board uses: wordle (default), wordle-nyt, wordle-nyt2023")
    list_options(p)
    boards_options(p)
    p.add_argument("--samples", type=int_option("--samples", 1000, 10_000_000), default=None, metavar="N",
                   help="games in the sample (default 100000)")
    p.add_argument("--seed", type=int_option("--seed", 0, 2**63 - 1), default=None, metavar="S",
                   help="the sample's seed (default 1)")
    p.add_argument("--every", action="store_true",
                   help="play every tuple of different answers instead of a sample (exact figures; small lists)")
    p.add_argument("--workers", type=int_option("--workers", 1, 256), default=None, metavar="N",
                   help="play the sample's games in N processes (default 1; the same lengths as one process)")
    p.add_argument("--bound", action="store_true", help="print the proven lower bound on any strategy's mean and stop")
    p.add_argument("--optimum", action="store_true",
                   help=f"the exact optimum by plain search (lists of at most {EXACT_MAX_ANSWERS} answers)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the measurement as wordtree-multiboard-sample/1 JSON")
    quiet_option(p)
    json_option(p, "game, boards, max_guesses, games, mean, ci95 (a sample), won, win_rate, histogram, "
                   "lower_bound, opener, output (--bound: lower_bound; --optimum: total, mean, first)")


def boards_options(p, cap: bool = True) -> None:
    from ..multiboard.spec import MAX_BOARDS

    p.add_argument("--boards", type=int_option("--boards", 2, MAX_BOARDS), default=None, metavar="K",
                   help="multi-board games: the number of boards (with --game multiboard, or build multiboard)")
    if cap:
        p.add_argument("--max-guesses", type=int_option("--max-guesses", 2, 4 * MAX_BOARDS), default=None,
                       metavar="N", help="the guess cap (default: the preset's, or K + 5)")


def position_options(p) -> None:
    """next, candidates and play's own options for the multi-board games (beside --game and
    Dordle's --max-guesses, which they share)."""
    boards_options(p, cap=False)
    p.add_argument("--grid", metavar="FILE|-",
                   help="multi-board games: the game's shared emoji grid (a file, or - for standard input); "
                        "the steps are then the guesses alone")


def _spec(args):
    from ..multiboard.spec import spec_for

    name = args.game if args.game not in (None, "multiboard") or args.boards is None else "multiboard"
    try:
        return spec_for(name or "multiboard", args.boards, getattr(args, "max_guesses", None))
    except UserError as exc:
        raise UsageError(str(exc).replace("the number of boards", "--boards K")) from None


def run_build_multiboard(args) -> int:
    from ..multiboard.spec import load

    spec = _spec(args)
    if sum((args.every, args.bound, args.optimum)) > 1:
        raise UsageError("--every, --bound and --optimum are different runs: give one")
    if args.output and (args.bound or args.optimum):
        raise UsageError("-o writes the player's measurement; drop --bound/--optimum or -o")
    other = next((flag for flag, on in (("--every", args.every), ("--bound", args.bound), ("--optimum", args.optimum))
                  if on), None)
    if other is not None and (args.samples is not None or args.seed is not None or args.workers is not None):
        raise UsageError(f"--samples, --seed and --workers are for a sample; {other} draws none")
    args.samples = 100_000 if args.samples is None else args.samples
    args.seed = 1 if args.seed is None else args.seed
    if args.output:
        from ..files import check_writable

        check_writable(args.output, "measurement")
    game, matrix = load(args.preset, args.answers, args.guesses)
    n = len(game.answers)
    if n < spec.boards:
        raise UserError(f"{spec.boards} boards need {spec.boards} different answers: the list has {n}")
    from ..multiboard.lower import lower_bound

    if args.bound:
        bound = lower_bound(game, matrix, spec.boards)
        if args.json:
            return print_json({"game": spec.name, "boards": spec.boards, "lower_bound": bound})
        print(f"{spec.name} on {game.identity()['answers']} ({n} answers): any strategy's mean over the tuples "
              f"of different answers is at least {bound['mean']:.6f} (proven: {bound['how']})")
        return 0
    if args.optimum:
        return _optimum(args, spec, game, matrix)
    from ..multiboard import sample
    from ..multiboard.document import build_document, write

    if args.every and sample.every_tuple_count(n, spec.boards) > sample.MAX_EVERY:
        raise UsageError(f"--every: {sample.every_tuple_count(n, spec.boards)} tuples, more than "
                         f"{sample.MAX_EVERY}: use a sample (--samples N)")
    bar = None
    if not args.quiet:
        from ..progress import progress_bar

        total = sample.every_tuple_count(n, spec.boards) if args.every else args.samples
        bar = progress_bar(total, desc=spec.name, unit="games")
    result = sample.evaluate(game, matrix, spec, None if args.every else args.seed,
                             None if args.every else args.samples,
                             progress=None if bar is None else (lambda done, total: bar.update(done - bar.n)),
                             workers=args.workers or 1)
    if bar is not None:
        bar.close()
    doc = build_document(game, spec, result, None if args.every else args.seed,
                         lower_bound(game, matrix, spec.boards))
    failures = []
    if args.output:
        from ..files import write_or_fallback

        where, reason = write_or_fallback(args.output, lambda path: write(path, doc))
        if reason is not None:
            failures.append(OutputSavedElsewhere(args.output, "measurement", reason, where))
    f = doc["results"]
    if args.json:
        print_json({"game": spec.name, "boards": spec.boards, "max_guesses": spec.cap,
                    **{key: f.get(key) for key in ("games", "mean", "exact", "ci95", "won", "win_rate", "histogram")},
                    "lower_bound": doc["lower_bound"]["mean"], "opener": doc["opener"],
                    "output": args.output if args.output and not failures else None})
    else:
        print("\n".join(summary_lines(doc)))
    return report_failures(failures)


def summary_lines(doc: dict) -> list[str]:
    g, f = doc["game"], doc["results"]
    what = f"every one of the {f['games']} tuples (exact for this player)" if f["exact"] else \
        f"a sample of {f['games']} tuples (seed {doc['sample']['seed']}; an estimate)"
    mean = f"mean {f['mean']:.4f}" + ("" if f["exact"] else f", 95 % CI {f['ci95'][0]:.4f}..{f['ci95'][1]:.4f}")
    return [f"{g['preset']} ({g['boards']} boards, {g['max_guesses']} guesses) on {g['answers']} "
            f"({g['answers_count']} answers): heuristic player (not proven optimal), opener {doc['opener']}, on {what}",
            f"{mean} guesses to solve every board; won within {g['max_guesses']}: {f['won']} of {f['games']} "
            f"({percent(f['won'], f['games'])}); worst {f['worst']}",
            f"proven lower bound on any strategy's mean: {doc['lower_bound']['mean']:.6f}"]


def _optimum(args, spec, game, matrix) -> int:
    from ..multiboard.exact import INF, optimum
    from ..multiboard.sample import every_tuple_count

    n = len(game.answers)
    if n > EXACT_MAX_ANSWERS or len(game.guesses) > 4 * EXACT_MAX_ANSWERS:
        raise UsageError(f"--optimum searches lists of at most {EXACT_MAX_ANSWERS} answers and "
                         f"{4 * EXACT_MAX_ANSWERS} guesses; these have {n} and {len(game.guesses)}")
    total, first = optimum(matrix, game.win_code, spec.boards, spec.cap)
    tuples = every_tuple_count(n, spec.boards)
    if total == INF:
        raise NoStrategy(f"no strategy finishes every tuple within {spec.cap} guesses (proven)")
    if args.json:
        return print_json({"game": spec.name, "boards": spec.boards, "max_guesses": spec.cap, "tuples": tuples,
                           "total": int(total), "mean": round(total / tuples, 6), "first": game.guesses[first],
                           "optimal": True})
    print(f"{spec.name}: exact optimum {int(total)} guesses over the {tuples} tuples of different answers, "
          f"mean {total / tuples:.6f}, first guess {game.guesses[first]} (proven by exhaustive search)")
    return 0


def verify_multiboard(args) -> int:
    from ..families import tree_path
    from ..multiboard.document import game_of, read, verify
    from ..wordle.patterns import pattern_matrix

    doc = read(tree_path(args.tree))
    game = game_of(doc, args.answers, args.guesses)
    matrix = pattern_matrix(game).matrix
    replay = None if args.prove else 200
    problems = verify(doc, game, matrix, replay)
    refuse_defects(args.tree, problems)
    count = doc["sample"]["games"]
    replayed = count if replay is None else min(replay, count)
    if args.json:
        return print_json({"tree": args.tree, "family": "multiboard", "valid": True, "games": count,
                           "replayed": replayed, "mean": doc["results"].get("mean"), "optimal": "not claimed"})
    print(f"ok: the figures re-derived from the {count} games' lengths; {replayed} game"
          f"{'s' * (replayed != 1)} replayed with the plain feedback rule, each as long as the file says"
          + ("" if replay is None else " (--prove replays every game)"))
    print("optimal: not claimed (a heuristic player's measurement); the lower bound re-derived")
    return 0


# --- positions -------------------------------------------------------------------------------

def _steps(args, spec, game) -> list[tuple[str, str]]:
    from ..multiboard.position import grid_feedback, parse_step

    items = list(args.items)
    if getattr(args, "grid", None) is None:
        return [parse_step(text) for text in items]
    if any(":" in item for item in items):
        raise UsageError("with --grid the steps are the guesses alone (the grid gives the colours)")
    text = _read_grid(args.grid)
    if not items:
        raise UsageError("--grid needs the guesses played, in order")
    feedback = grid_feedback(text, spec.boards, game.length, len(items))
    return list(zip(items, feedback))


def _read_grid(name: str) -> str:
    if name == "-":
        data = sys.stdin.buffer.read(GRID_MAX_BYTES + 1) if hasattr(sys.stdin, "buffer") else \
            sys.stdin.read(GRID_MAX_BYTES + 1).encode()
        if len(data) > GRID_MAX_BYTES:
            raise UserError(f"the grid on standard input is longer than {GRID_MAX_BYTES} bytes")
    else:
        from ..files import read_bounded

        data = read_bounded(name, GRID_MAX_BYTES, "grid")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("the grid is not UTF-8 text") from None


def _position(args):
    from ..multiboard.position import MultiPosition
    from ..multiboard.spec import load

    spec = _spec(args)
    game, matrix = load(None, args.answers, args.guesses)
    return MultiPosition(game, matrix, spec)


def _played(args):
    position = _position(args)
    for guess, feedback in _steps(args, position.spec, position.game):
        position.play(guess, feedback)
    return position


def run_next_multiboard(args) -> int:
    position = _played(args)
    s = position.suggest()
    if args.json:
        return print_json(s.as_json())
    print("\n".join(suggestion_lines(s, getattr(args, "all", False))))
    return 0


def run_candidates_multiboard(args) -> int:
    position = _played(args)
    boards = [{"board": b + 1, "candidates": len(position.words(b)), "words": position.words(b),
               "solved_at": position.solved_at[b] or None} for b in range(position.spec.boards)]
    if args.json:
        return print_json(boards)
    for board in boards:
        if board["solved_at"]:
            print(f"board {board['board']}: solved at guess {board['solved_at']}")
        else:
            n = board["candidates"]
            print(f"board {board['board']}: {n} candidate{'s' * (n != 1)}: {' '.join(board['words'])}")
    return 0


def guess_line(s) -> str:
    if s.source == "solved":
        return f"solved in {s.step}"
    open_boards = [len(c) for c in s.candidates if c]
    why = {"heuristic": "heuristic", "forced": "a board with one answer left",
           "safe": "heuristic, proven to keep every board finishable",
           "witness": "proven to keep every board finishable",
           "exact": f"exact, {s.expected:g} guesses expected" if s.expected is not None else "exact"}[s.source]
    return (f"{s.guess}  ({why}: {len(open_boards)} board{'s' * (len(open_boards) != 1)} open, "
            f"{s.guesses_left} guesses left)")


def candidate_lines(s, every: bool = False, limit: int = 10) -> list[str]:
    lines = []
    for board, words in enumerate(s.candidates, 1):
        if not words:
            lines.append(f"board {board}: solved at guess {s.solved_at[board - 1]}")
        elif every or len(words) <= limit:
            lines.append(f"board {board}: {' '.join(words)}")
        else:
            lines.append(f"board {board}: {len(words)} candidates ({' '.join(words[:limit])} ...)")
    return lines


def suggestion_lines(s, every: bool = False) -> list[str]:
    lines = [s.note] if s.note else []
    lines.append(guess_line(s))
    return lines if s.source == "solved" else lines + candidate_lines(s, every)


class MultiPlay:
    """A MultiPosition as play.py's loop plays it: the assistant proposes a guess and reads the
    K patterns the game showed (P1/.../PK, or WORD P1/.../PK for one's own guess)."""

    fatal = ()

    def __init__(self, position):
        self.position, self.suggestion = position, position.suggest()
        k = position.spec.boards
        self.prompt = (f"colours as P1/.../P{k} ({position.mark} for a solved board), or WORD P1/.../P{k} for your "
                       "own guess; q to quit:")

    def proposal(self) -> list[str]:
        s = self.suggestion
        return [f"guess {s.step + 1}: {guess_line(s)}"] + ([s.note] if s.note else [])

    def parse_reply(self, line: str) -> tuple[str, str]:
        parts = line.split()
        if len(parts) in (1, 2):
            return (self.suggestion.guess, parts[0]) if len(parts) == 1 else (parts[0], parts[1])
        raise UserError(f"expected P1/.../PK or WORD P1/.../PK, got {line.strip()[:80]!r}")

    def after(self, step):
        self.position.play(*step)
        self.suggestion = self.position.suggest() if self.position.won or \
            len(self.position.steps) < self.position.spec.cap else self.suggestion
        return self

    def tiles(self):
        from ..wordle.player import feedback_cells

        guess, feedback = self.position.steps[-1]
        cells = []
        for i, text in enumerate(feedback.split("/")):
            if i:
                cells.append((" ", None))
            cells += [(ch, None) for ch in text] if text == self.position.mark else feedback_cells(guess, text)
        return cells

    def finished(self) -> bool:
        return self.position.won or len(self.position.steps) >= self.position.spec.cap

    def outcome_lines(self) -> list[str]:
        if self.position.won:
            return [f"solved every board in {len(self.position.steps)}"]
        if len(self.position.steps) >= self.position.spec.cap:
            left = len(self.position.open_boards)
            return [f"lost: {left} board{'s' * (left != 1)} open after {self.position.spec.cap} guesses"]
        return candidate_lines(self.suggestion)

    def stopped(self) -> str:
        return f"stopped after {len(self.position.steps)} guess(es)"


def run_play_multiboard(args) -> int:
    from ..play import play

    if getattr(args, "grid", None) is not None:
        raise UsageError("--grid reads a finished game's grid for next and candidates; play reads the colours "
                         "a guess at a time")
    position = _position(args)
    spec = position.spec
    lists = position.game.identity()["answers"]
    print(f"{spec.name}: {spec.boards} boards, {spec.cap} guesses, on {lists}; the guesses are a heuristic's "
          "(not proven optimal)", flush=True)
    return play(MultiPlay(position), sys.stdin, lambda text: print(text, flush=True), sys.stdin.isatty(),
                sys.stdout.isatty())


# --- grade -----------------------------------------------------------------------------------

def grade_options(p) -> None:
    """grade's own options for the multi-board games (beside --game, --max-guesses, --json)."""
    boards_options(p, cap=False)
    p.add_argument("--grid", metavar="FILE|-",
                   help="multi-board games: the game's shared emoji grid (a file, or - for standard input); "
                        "the moves are then the guesses alone")
    p.add_argument("--samples", type=int_option("--samples", 2, 100_000), default=None, metavar="N",
                   help="multi-board games: the sampled tuples a move is estimated on, where more than two "
                        "boards are open (default 200)")
    p.add_argument("--seed", type=int_option("--seed", 0, 2**63 - 1), default=None, metavar="S",
                   help="multi-board games: the seed of those samples (default 1)")


def run_grade_multiboard(args) -> int:
    """`grade --game quordle` (or --boards K): each move exact with one or two boards left, else
    estimated against the player over seeded sampled tuples (engine/multiboard/grade.py)."""
    from ..multiboard import grade as mg
    from ..multiboard.position import parse_step
    from ..multiboard.spec import load
    from .common import GAME_CAP, game_options_given

    for flag, given in (("--mode", args.mode is not None), ("--seconds", args.seconds is not NOT_GIVEN),
                        ("--fold-accents", getattr(args, "fold_accents", False)),
                        ("--keep-letters", getattr(args, "keep_letters", None) is not None)):
        if given:
            raise UsageError(f"{flag} is not an option of the multi-board games' grade")
    if game_options_given(args):
        raise UsageError(f"--{next(iter(game_options_given(args))).replace('_', '-')} is not an option of the "
                         "multi-board games")
    if args.max_guesses is None:
        raise UsageError("--max-guesses none: a multi-board game has a cap (default: the preset's, or K + 5)")
    args.max_guesses = None if args.max_guesses == GAME_CAP else args.max_guesses
    spec = _spec(args)
    if not args.items:
        raise UsageError(f"give the moves played, as GUESS:P1/.../P{spec.boards}"
                         + (" (with --grid, the guesses alone)" if args.grid is not None else ""))
    steps = []
    for text in args.items if args.grid is None else ():
        try:
            steps.append(parse_step(text))
        except UserError as exc:
            raise UsageError(str(exc)) from None
    game, matrix = load(None, args.answers, args.guesses, args.cache_dir)
    if len(game.answers) < spec.boards:
        raise UserError(f"{spec.boards} boards need {spec.boards} different answers: the list has {len(game.answers)}")
    if args.grid is not None:
        steps = _steps(args, spec, game)
    samples = mg.DEFAULT_SAMPLES if args.samples is None else args.samples
    seed = mg.DEFAULT_SEED if args.seed is None else args.seed
    grader = mg.Grader(game, matrix, spec, samples, seed)
    if args.json:
        moves = grader.grade(steps)
        return print_json({"game": spec.name, "boards": spec.boards, "max_guesses": spec.cap, "samples": samples,
                           "seed": seed, "moves": [mv.as_json() for mv in moves], "total": mg.totals(moves)})
    grader.check(steps)
    for line in mg.header_lines(spec, game.identity()["answers"], samples, seed):
        print(line, flush=True)
    moves = grader.grade(steps, lambda mv: print(mg.move_line(mv), flush=True))
    print(mg.total_line(moves))
    return 0
