"""The build and rank commands end to end, in subprocesses: outputs, determinism, numba's
on-disk cache on a second run, checkpoints, and one-line errors for bad input."""

import subprocess
import sys
import time

import orjson
import pytest

from reference_trees import ROOT, write_lists
from wordtree.files import sealed


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return write_lists(tmp_path_factory.mktemp("lists"), n_answers=50, n_guesses=150, seed=3)


def test_build_twice_same_tree_and_cached_kernels(lists, tmp_path):
    answers, guesses = lists
    trees = []
    for i in range(2):  # the second process loads the compiled kernels from numba's cache
        out = tmp_path / f"tree{i}.json"
        proc = run("build", "--answers", answers, "--guesses", guesses, "--first", "auto", "-o", out, "--quiet")
        assert proc.returncode == 0, proc.stderr
        assert "optimal (exhaustive search)" in proc.stdout
        trees.append(orjson.loads(out.read_bytes()))
    assert trees[0]["root"] == trees[1]["root"]
    assert trees[0]["stats"]["total"] == trees[1]["stats"]["total"]
    assert trees[0]["stats"]["optimal"] is True and "first_guess" not in trees[0]["stats"]
    verified = run("verify", tmp_path / "tree0.json", "--answers", answers, "--guesses", guesses)
    assert verified.returncode == 0, verified.stderr


def test_an_opener_proven_in_normal_mode_only_is_a_given_one_in_hard_and_ultra():
    """SALET is proven the best opener in normal mode; a hard or ultra build opens with it too,
    and its tree (the shipped ones included) says it is the best given that opener."""
    from wordtree.data import trees_dir
    from wordtree.games import get_game

    game = get_game("wordle")
    assert game.proven_first("normal") == game.default_opener("normal") == "salet"
    for mode in ("hard", "ultra"):
        assert game.proven_first(mode) is None and game.default_opener(mode) == "salet"
        stats = orjson.loads((trees_dir() / f"wordle-salet-{mode}.json").read_bytes())["stats"]
        assert stats["optimal"] is True and stats["first_guess"] == "given"
    normal = orjson.loads((trees_dir() / "wordle-salet-normal.json").read_bytes())["stats"]
    assert "first_guess" not in normal


def test_rank_top_equals_build_auto_and_resumes(lists, tmp_path):
    answers, guesses = lists
    ck = tmp_path / "rank.ck"
    first = run("rank", "--answers", answers, "--guesses", guesses, "--top", "3", "--limit", "30",
                "--checkpoint", ck, "--quiet")
    assert first.returncode == 0, first.stderr
    rows = [line.split("\t") for line in first.stdout.splitlines() if not line.startswith("#")]
    assert len(rows) == 30
    assert [r[2] for r in rows[:3]] == ["exact"] * 3
    values = [int(r[1]) for r in rows]
    assert values == sorted(values)
    assert all(int(r[1]) >= values[2] for r in rows[3:])  # every other opener proven no better than the 3rd
    again = run("rank", "--answers", answers, "--guesses", guesses, "--top", "3", "--limit", "30",
                "--checkpoint", ck, "--resume", "--quiet")
    assert again.returncode == 0, again.stderr
    strip = lambda text: [line for line in text.splitlines() if not line.startswith("#")]  # noqa: E731
    assert strip(again.stdout) == strip(first.stdout)
    given = tmp_path / "given.json"
    built = run("build", "--answers", answers, "--guesses", guesses, "--first", rows[0][0], "--quiet", "-o", given)
    assert f"total {rows[0][1]} " in built.stdout
    # a tree whose first guess was given is the best one opening with it, and says only that
    assert "optimal given that first guess" in built.stdout
    assert orjson.loads(given.read_bytes())["stats"]["first_guess"] == "given"
    assert "optimal True given the first guess" in run("stats", given).stdout


def test_build_resumes_from_its_checkpoint(lists, tmp_path):
    """A stopped build keeps the subtrees it finished; --resume solves only the others and
    gives the same tree; with --first auto the openers' rank is kept too. A checkpoint of
    another build is refused in one line."""
    answers, guesses = lists
    ck, whole, resumed = tmp_path / "build.ck", tmp_path / "whole.json", tmp_path / "resumed.json"
    common = ["--answers", answers, "--guesses", guesses, "--first", "auto", "--quiet"]
    start = time.monotonic()
    assert run("build", *common, "--checkpoint", ck, "-o", whole).returncode == 0
    wall = time.monotonic() - start  # what the run may have counted, however busy the machine
    doc = orjson.loads(ck.read_bytes())
    (run_key,) = doc["subtrees"]
    subtrees = doc["subtrees"][run_key]
    n_classes = len(subtrees)
    assert n_classes > 3
    for code in list(subtrees)[: n_classes // 2]:  # as if stopped halfway
        del subtrees[code]
    assert 0 < doc["seconds"] <= wall
    doc["seconds"] = 1000.0  # as if the runs before had taken that long, and the rank 500 s
    ck.write_bytes(sealed(doc))  # checksummed again, as a run writes it
    rank_ck = ck.with_name(ck.name + ".rank")
    rank_doc = orjson.loads(rank_ck.read_bytes())
    assert 0 < rank_doc["seconds"] <= wall
    rank_ck.write_bytes(sealed({**rank_doc, "seconds": 500.0}))
    start = time.monotonic()
    again = run("build", *common, "--checkpoint", ck, "--resume", "-o", resumed)
    wall = time.monotonic() - start
    assert again.returncode == 0, again.stderr
    assert orjson.loads(resumed.read_bytes())["root"] == orjson.loads(whole.read_bytes())["root"]
    assert len(orjson.loads(ck.read_bytes())["subtrees"][run_key]) == n_classes
    # the tree and the checkpoints count the time of every run
    assert 1500 < orjson.loads(resumed.read_bytes())["stats"]["seconds"] <= 1500 + wall
    assert "s with the runs before this resume" in again.stdout
    assert 1000 < orjson.loads(ck.read_bytes())["seconds"] <= 1000 + wall
    assert 500 <= orjson.loads(rank_ck.read_bytes())["seconds"] <= 500 + wall
    # --first auto kept its rank of the openers beside the checkpoint, and a resume reads it
    # instead of ranking again: an opener marked best there (falsely) is the one built
    rank_doc = orjson.loads(rank_ck.read_bytes())
    opener = run_key.split("/")[0]
    assert rank_doc["results"][opener] == [orjson.loads(whole.read_bytes())["stats"]["total"], True]
    other_opener = next(w for w in rank_doc["results"] if w != opener)
    rank_doc["results"][other_opener] = [rank_doc["results"][opener][0] - 1, True]
    rank_ck.write_bytes(sealed(rank_doc))  # checksummed: trusted as written
    tampered = run("build", *common, "--checkpoint", ck, "--resume", "-o", resumed)
    assert tampered.returncode == 0, tampered.stderr
    assert orjson.loads(resumed.read_bytes())["root"]["guess"] == other_opener
    other = run("build", *common, "--checkpoint", ck, "--resume", "--max-guesses", "5")
    # read first: the build checkpoint (for the openers it finished), then its rank
    assert other.returncode == 1 and "checkpoint of another build" in other.stderr
    (tmp_path / "elsewhere").mkdir()
    lone_rank = tmp_path / "elsewhere" / "b.ck.rank"
    lone_rank.write_bytes(rank_ck.read_bytes())
    other = run("build", *common, "--checkpoint", lone_rank.with_suffix(""), "--resume", "--max-guesses", "5")
    assert other.returncode == 1 and "checkpoint of another rank" in other.stderr
    fixed = ["--answers", answers, "--guesses", guesses, "--first", opener, "--quiet"]
    other = run("build", *fixed, "--checkpoint", ck, "--resume", "--max-guesses", "5")
    assert other.returncode == 1 and "checkpoint of another build" in other.stderr
    assert len([line for line in other.stderr.splitlines() if line.startswith("wordtree: error")]) == 1


def test_auto_build_takes_finished_openers_from_the_checkpoint(lists, tmp_path):
    """build --first WORD --checkpoint F, then --first auto --checkpoint F --resume: the rank of
    the openers starts from WORD's exact total (the answers plus its saved classes), searches only
    the others, and ends with the tree a fresh --first auto build makes. With one saved class made
    1000 guesses dearer, another opener wins: the rank took WORD's total from the checkpoint."""
    answers, guesses = lists
    base = ["--answers", answers, "--guesses", guesses, "--quiet"]
    ck, fresh, resumed = tmp_path / "b.ck", tmp_path / "fresh.json", tmp_path / "resumed.json"
    assert run("build", *base, "--first", "auto", "-o", fresh).returncode == 0
    best = orjson.loads(fresh.read_bytes())
    opener, total = best["root"]["guess"], best["stats"]["total"]
    assert run("build", *base, "--first", opener, "--checkpoint", ck).returncode == 0
    again = run("build", *base, "--first", "auto", "--checkpoint", ck, "--resume", "-o", resumed)
    assert again.returncode == 0, again.stderr
    assert orjson.loads(resumed.read_bytes())["root"] == best["root"]
    rank_ck = ck.with_name(ck.name + ".rank")
    assert orjson.loads(rank_ck.read_bytes())["results"][opener] == [total, True]
    rank_ck.unlink()
    doc = orjson.loads(ck.read_bytes())
    saved = doc["subtrees"][f"{opener}/6"]
    saved[next(iter(saved))]["value"] += 1000
    ck.write_bytes(sealed(doc))  # checksummed again, as a run writes it
    dearer = run("build", *base, "--first", "auto", "--checkpoint", ck, "--resume", "-o", resumed)
    assert dearer.returncode == 0, dearer.stderr
    assert orjson.loads(resumed.read_bytes())["root"]["guess"] != opener


def test_rank_says_impossible_openers_plainly(lists):
    answers, guesses = lists
    proc = run("rank", "--answers", answers, "--guesses", guesses, "--max-guesses", "2", "--top", "1", "--limit", "8",
               "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows = [line.split("\t") for line in proc.stdout.splitlines() if not line.startswith("#")]
    assert len(rows) == 8 and ["inf", "impossible"] in [r[1:] for r in rows]
    for word, value, kind in rows:  # never the engine's internal infinity as a number
        assert kind in ("exact", "lower-bound", "impossible") and (value == "inf") == (kind == "impossible")
        assert value == "inf" or int(value) < 2 * 50 * 2


def test_greedy_baselines_are_labelled(lists, tmp_path):
    answers, guesses = lists
    for strategy in ("entropy", "minimax", "frequency"):
        out = tmp_path / f"{strategy}.json"
        proc = run("build", "--answers", answers, "--guesses", guesses, "--strategy", strategy, "-o", out, "--quiet")
        assert proc.returncode == 0, proc.stderr
        doc = orjson.loads(out.read_bytes())
        assert doc["stats"]["optimal"] is False and doc["stats"]["strategy"] == strategy


@pytest.mark.parametrize(
    "args, message, code",
    [
        (["build", "--first", "zzzzz"], "not an allowed guess", 1),
        (["build", "nosuchgame"], "unknown game", 2),  # a game named on the command line: a usage error
        (["build", "--max-guesses", "1", "--first", "auto"], "impossible", 3),
        (["build", "--from", "WORD:BBYBX"], "bad pattern", 1),
        (["build", "--from", "WORD"], "GUESS:PATTERN", 1),
        (["rank", "--resume"], "--checkpoint", 2),
        (["build", "--resume"], "--checkpoint", 2),
        (["build", "hangman", "--length", "3", "--resume"], "--checkpoint", 2),
        (["build", "hangman", "--all-lengths", "--checkpoint", "x.ck"], "one length at a time", 2),
        (["build", "hangman", "--length", "3", "--memory", "0"], "positive number of gigabytes", 2),
        (["build", "hangman", "--length", "3", "--max-nodes", "0"], "must be 1 or more", 2),
        (["build", "--checkpoint", "x.ck", "--objective", "worst"], "--objective total", 2),
        (["build", "--max-guesses", "zero"], "max-guesses", 2),
    ],
)
def test_user_errors_are_one_line(lists, args, message, code):
    answers, guesses = lists
    word = answers.read_text().split()[0]
    # Hangman takes its word list as --words, and refuses --answers/--guesses as any game refuses a flag it does not use
    lists = [] if args[:2] == ["build", "hangman"] else ["--answers", answers, "--guesses", guesses]
    proc = run(*[a.replace("WORD", word) for a in args], *lists, "--quiet")
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_bad_word_list_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("crane\nsl4te\n")
    proc = run("info", "--answers", bad, "--guesses", bad)
    assert proc.returncode == 1
    assert f"{bad}:2" in proc.stderr and "Traceback" not in proc.stderr


def test_objective_worst_is_the_smallest_feasible_cap_then_the_best_total(tmp_path):
    import reference
    from wordtree.games import get_game

    answers, guesses = write_lists(tmp_path / "lists", n_answers=14, n_guesses=25, seed=8)
    game = get_game(None, str(answers), str(guesses))
    caps = {d: reference.optimal_total(game, game.answers, d) for d in range(1, 7)}
    smallest = min(d for d, v in caps.items() if v != float("inf"))
    out = tmp_path / "worst.json"
    proc = run("build", "--answers", answers, "--guesses", guesses, "--objective", "worst", "--first", "auto",
               "-o", out, "--quiet")
    assert proc.returncode == 0, proc.stderr
    doc = orjson.loads(out.read_bytes())
    assert doc["stats"]["worst"] == smallest
    assert doc["stats"]["total"] == caps[smallest]
    assert doc["stats"]["objective"] == "worst"


def test_build_without_output_says_the_tree_is_not_kept_and_help_lists_the_games():
    out = run("build", "mastermind", "--pegs", "2", "--colours", "3", "--quiet")
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "not saved: add -o FILE to keep the tree", out
    for command, games in (("build", ("wordle", "wordle-nyt2023", "mastermind", "bulls-cows", "hangman")),
                           ("info", ("wordle", "wordle-nyt2023", "mastermind", "bulls-cows"))):
        shown = run(command, "--help").stdout
        assert all(f"\n  {game} " in shown for game in games), shown


def test_a_commands_process_freezes_numbas_objects_and_an_in_process_call_does_not(capsys):
    """commands.main() (the process's own command) freezes numba's objects out of the garbage
    collector's reach once numba is imported, and everything before the interpreter's exit; a
    caller's main([...]) keeps Python's usual collector."""
    import gc

    from wordtree import numba_cache
    from wordtree.commands import main

    frozen = gc.get_freeze_count()
    assert main(["feedback", "salet", "crane"]) == 0 and capsys.readouterr().out.strip() == "BYBYB"
    assert gc.get_freeze_count() == frozen and not numba_cache._freezing
    script = ("import gc, sys\n"
              "from wordtree import numba_cache\n"
              "numba_cache.freeze_numba_objects()\n"
              "before = gc.get_freeze_count()\n"
              "import wordtree.exact.kernels\n"
              "after_import = gc.get_freeze_count()\n"
              "sys.argv = ['wordtree', 'feedback', 'salet', 'crane']\n"
              "import wordtree.commands\n"
              "wordtree.commands._end_process = lambda code: None  # (it would end the process here)\n"
              "wordtree.commands.main()\n"
              "print(before, after_import, gc.get_freeze_count())\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    before, after_import, at_exit = map(int, out.split()[-3:])
    assert before == 0 and after_import > 50_000 and at_exit >= after_import


_ENDS = """
import atexit, sys, threading
import wordtree.commands
atexit.register(lambda: print("exit function ran"))
sys.stdout.write("buffered, ")
if sys.argv[1] == "thread":  # a thread still running: the usual exit, which waits for it
    threading.Thread(target=threading.Event().wait, args=(1.0,)).start()
sys.argv = ["wordtree", "feedback", "salet", sys.argv[2]]
code = wordtree.commands.main()
print("main returned", code)
sys.exit(code)
"""


@pytest.mark.parametrize("answer,code", [("crane", 0), ("cran", 1)])
@pytest.mark.parametrize("thread", [False, True])
def test_a_commands_process_ends_after_its_exit_functions_and_output(answer, code, thread):
    """commands._end_process: a command's process ends once its command is done, with its exit
    status, its exit functions run and its output flushed, without the interpreter's teardown;
    where another thread still runs, main() returns instead, for the usual exit."""
    proc = subprocess.run([sys.executable, "-c", _ENDS, "thread" if thread else "-", answer], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == code, proc.stderr
    assert proc.stdout.startswith("buffered, ") and proc.stdout.endswith("exit function ran\n")
    assert ("main returned" in proc.stdout) == thread
    assert proc.stdout.startswith("buffered, BYBYB\n") == (code == 0)


def test_a_command_parses_with_its_own_arguments_only_and_the_top_help_lists_them_all():
    """build_parser: a named command gets its own subparser alone, with the same errors; with
    none named, an unknown one, or a help asked before it, every command is listed."""
    from wordtree.commands import COMMANDS, build_parser

    listed = lambda parser: set(parser._subparsers._group_actions[0].choices)  # noqa: E731
    assert listed(build_parser(["build", "-o", "x"])) == {"build"}
    assert listed(build_parser(["--version", "next", "salet:BBYBB"])) == {"next"}
    for argv in ([], ["nonsense"], ["-h", "build"], ["--help"]):
        assert listed(build_parser(argv)) == set(COMMANDS), argv
    shown = run("-h", "build").stdout
    assert all(f"\n    {name} " in shown or f"\n    {name}\n" in shown for name in COMMANDS), shown
    wrong = run("build", "--threads", "0")
    assert wrong.returncode == 2 and "--threads" in wrong.stderr
    unknown = run("nonsense")
    assert unknown.returncode == 2 and "invalid choice: 'nonsense'" in unknown.stderr and "'dordle'" in unknown.stderr
