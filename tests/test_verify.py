"""The independent verifier: its own feedback against the reference, acceptance of sound trees,
and one clear first defect for each kind of broken tree."""

import csv
import random
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

import reference
import reference_trees as rt
from wordtree.games import get_game
from wordtree.wordle.tree import make_document, write_tree
from wordtree.wordle.verify import WORDLE_RULES, ultra_violation, verify, wordle_hard_violation, wordle_text

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("verify")
    answers, guesses = rt.write_lists(folder)
    game = get_game(None, answers=str(answers), guesses=str(guesses))
    root = rt.greedy_tree(game.answers, game.guesses)
    answer_words = answers.read_text().split()
    guess_words = guesses.read_text().split()
    return game, root, answer_words, guess_words, folder


def fresh(game, root, **kw):
    return orjson.loads(orjson.dumps(make_document(game, root, **kw)))


def test_feedback_matches_the_reference_and_the_fixture_cases():
    with open(DATA / "wordle-feedback-cases.tsv") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            assert wordle_text(row["guess"], row["answer"]) == row["feedback"]
    words = (rt.WORDLISTS / "wordle-answers-2315.txt").read_text().split()
    rng = random.Random(5)
    doubled = [w for w in words if len(set(w)) < 5]
    for _ in range(5000):
        g, a = rng.choice(doubled), rng.choice(words if rng.random() < 0.5 else doubled)
        assert wordle_text(g, a) == reference.wordle_feedback(g, a), (g, a)


def test_the_verifier_imports_nothing_of_the_engine_logic():
    logic = ("wordtree.games", "wordtree.exact", "numpy", "numba")
    code = f"import sys, wordtree.wordle.verify; print(sorted(m for m in sys.modules if m.startswith({logic!r})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=rt.ROOT)
    assert out.stdout.strip() == "[]", out


def test_a_sound_tree_passes_with_its_stats(setup):
    game, root, answers, guesses, _ = setup
    report = verify(fresh(game, root), answers, guesses)
    assert report.ok and report.defect is None
    d = rt.depths(root, answers)
    assert (report.total, report.worst, report.answers) == (sum(d.values()), max(d.values()), 60)
    assert report.histogram == {str(k): list(d.values()).count(k) for k in range(1, max(d.values()) + 1)}


@pytest.mark.parametrize("field, value, message", [
    ("total", 1, "stats.total is 1, the tree gives"),
    ("worst", 9, "stats.worst is 9"),
    ("mean", 1.5, "stats.mean is 1.5"),
    ("histogram", {"1": 60}, "stats.histogram is"),
])
def test_wrong_stats(setup, field, value, message):
    game, root, answers, guesses, _ = setup
    doc = fresh(game, root)
    doc["stats"][field] = value
    report = verify(doc, answers, guesses)
    assert not report.ok and message in report.defect


def test_missing_branch_names_the_answer_and_path(setup):
    game, root, answers, guesses, _ = setup
    doc = fresh(game, root)
    first = doc["root"]["guess"]
    key = next(k for k, v in sorted(doc["root"]["next"].items()) if "next" in v)
    child = doc["root"]["next"][key]
    sub = sorted(child["next"])[0]
    del child["next"][sub]
    report = verify(doc, answers, guesses)
    victim = next(a for a in answers if reference.wordle_feedback(first, a) == key
                  and reference.wordle_feedback(child["guess"], a) == sub)
    assert report.defect == f"answer {victim!r} at {first}:{key} > {child['guess']}:{sub}: no branch for pattern {sub} after {child['guess']!r}"


def test_word_not_allowed(setup):
    game, root, answers, guesses, _ = setup
    doc = fresh(game, root)
    doc["root"]["guess"] = "zzzzz"
    assert "'zzzzz' is not an allowed guess" in verify(doc, answers, guesses).defect


def test_cap_exceeded(setup):
    game, root, answers, guesses, _ = setup
    doc = fresh(game, root)
    worst = doc["stats"]["worst"]
    doc["game"]["max_guesses"] = worst - 1
    assert f"not solved within the cap of {worst - 1} guesses" in verify(doc, answers, guesses).defect
    doc["game"]["max_guesses"] = None
    assert verify(doc, answers, guesses).ok


def cheat_tree(root, answers, guesses):
    """The tree with one second guess that drops every letter the first one revealed."""
    first = root["guess"]
    key = next(k for k in sorted(root["next"]) if "G" in k or "Y" in k)
    cands = [a for a in answers if reference.wordle_feedback(first, a) == key]
    probe = next(w for w in guesses if not set(w) & set(first))
    buckets = {}
    for a in cands:
        buckets.setdefault(reference.wordle_feedback(probe, a), []).append(a)
    branch = {"guess": probe, "next": {p: rt.greedy_tree(v, guesses) for p, v in buckets.items()}}
    return {**root, "next": {**root["next"], key: branch}}, f"at {first}:{key}", probe


def test_hard_mode(setup):
    game, root, answers, guesses, _ = setup
    cheat, where, probe = cheat_tree(root, answers, guesses)
    report = verify(fresh(game, cheat, mode="hard"), answers, guesses)
    assert not report.ok and f"{where}: hard mode: {probe!r} must" in report.defect
    assert verify(fresh(game, cheat), answers, guesses).ok
    hard_root = rt.greedy_tree(answers, guesses, hard=True)
    for mode in ("hard", "ultra"):
        assert verify(fresh(game, hard_root, mode=mode), answers, guesses).ok


def test_hard_mode_rule_by_hand():
    history = [("crane", "GBYBB")]  # C in place, A somewhere
    assert wordle_hard_violation("cabin", history) is None
    assert "keep C in position 1" in wordle_hard_violation("scalp", history)
    assert "contain A at least 1" in wordle_hard_violation("clout", history)
    history = [("sassy", "YBBGB")]  # two S revealed, one of them in position 4
    assert wordle_hard_violation("bless", history) is None
    assert wordle_hard_violation("spasm", history) is None
    assert "keep S in position 4" in wordle_hard_violation("haste", history)
    assert "contain S at least 2" in wordle_hard_violation("moist", history)


def test_ultra_mode_needs_consistent_guesses(setup):
    game, root, answers, guesses, _ = setup
    cheat, where, probe = cheat_tree(root, answers, guesses)
    assert f"{where}: ultra mode: {probe!r} contradicts" in verify(fresh(game, cheat, mode="ultra"), answers, guesses).defect
    history = [("crane", "GBYBB")]
    assert wordle_hard_violation("cabin", history) is None  # hard mode allows it, ultra does not:
    assert "contradicts crane:GBYBB" in ultra_violation(WORDLE_RULES, "cabin", history)
    assert ultra_violation(WORDLE_RULES, "cobia", history) is None


def test_wrong_list_hash_and_counts(setup):
    game, root, answers, guesses, folder = setup
    doc = fresh(game, root)
    assert "the answers list is not the one" in verify(doc, answers[1:], guesses).defect
    assert "the guesses list is not the one" in verify(doc, answers, guesses + ["zzzzz"]).defect
    doc["game"]["answers_count"] = 61
    assert "answers_count is 61, the lists give 60" in verify(doc, answers, guesses).defect


def test_win_key_and_unreached_branch(setup):
    game, root, answers, guesses, _ = setup
    doc = fresh(game, root)
    doc["root"]["next"]["GGGGG"] = {"guess": doc["root"]["guess"]}
    assert "has a branch keyed by the win pattern GGGGG" in verify(doc, answers, guesses).defect
    doc = fresh(game, root)
    doc["root"]["next"]["XXXXX"] = {"guess": answers[0]}
    assert "branch 'XXXXX' after" in verify(doc, answers, guesses).defect


def test_unknown_game_is_a_defect(setup):
    game, root, answers, guesses, _ = setup
    doc = fresh(game, root)
    doc["game"]["name"] = "chess"
    assert "no verifier rules for game 'chess'" in verify(doc, answers, guesses).defect


def test_cli_verify(setup, tmp_path):
    game, root, answers, guesses, folder = setup
    path = tmp_path / "t.json"
    write_tree(path, fresh(game, root))
    lists = ["--answers", folder / "answers.txt", "--guesses", folder / "guesses.txt"]
    ok = rt.run_cli("verify", path, *lists)
    assert ok.returncode == 0, ok.stderr
    d = rt.depths(root, answers)
    assert f"total {sum(d.values())}" in ok.stdout and "#" in ok.stdout
    doc = fresh(game, root)
    doc["stats"]["total"] += 1
    write_tree(path, doc)
    rt.assert_one_line_error(rt.run_cli("verify", path, *lists), "stats.total is")
    path.write_bytes(path.read_bytes()[:100])
    rt.assert_one_line_error(rt.run_cli("verify", path, *lists), "truncated")
    path.write_bytes(b'{"hello": "world"}')
    rt.assert_one_line_error(rt.run_cli("verify", path), "not a wordtree/1 tree file")


SHIPPED_TREES = sorted((rt.ROOT / "trees").glob("*.json"))  # the Wordle family's (tests/test_layout.py checks)


@pytest.mark.parametrize("path", SHIPPED_TREES, ids=lambda p: p.name)
def test_every_shipped_tree_verifies(path):
    from wordtree.wordle.tree import read_tree
    from wordtree.wordle.verify import load_lists

    from wordtree.wordle.weights import recorded, tree_weights

    doc = read_tree(path)
    answers, guesses = load_lists(doc)
    weights = tree_weights(doc, None, answers, guesses) if recorded(doc) is not None else None  # the shipped file it names
    report = verify(doc, answers, guesses, None if weights is None else weights.values)
    assert report.ok, f"{path.name}: {report.defect}"
    if weights is not None:  # the weighted total replayed by this test's own sum over the depths
        assert report.weighted_total == doc["stats"]["weighted_total"]


# ------------------------------------------------------------------------------------------------
# trees from elsewhere are untrusted: no path out of a file is opened, reads are bounded, claims checked
# ------------------------------------------------------------------------------------------------
HOSTILE = ["/etc/passwd", "../../../../etc/passwd", "/dev/zero", "sub/answers.txt", "..", "C:\\x.txt"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_list_name_is_refused_without_reading_it(setup, tmp_path, monkeypatch, name):
    import wordtree.words
    from wordtree.errors import UserError
    from wordtree.wordle.tree import game_for, read_tree
    from wordtree.wordle.verify import load_lists

    game, root, _, _, folder = setup
    doc = fresh(game, root)
    doc["game"]["answers"] = name
    path = tmp_path / "t.json"
    write_tree(path, doc)
    opened = []
    monkeypatch.setattr(wordtree.words, "load_words", lambda *a, **k: opened.append(a) or 1 / 0)
    monkeypatch.setattr(wordtree.words, "read_bounded", lambda *a, **k: opened.append(a) or 1 / 0)
    doc = read_tree(path)
    for load in (load_lists, game_for):
        with pytest.raises(UserError, match="word list not found") as info:
            load(doc)
        assert "root:" not in str(info.value) and "\n" not in str(info.value)
    assert opened == []
    monkeypatch.undo()
    for command in ("verify", "next"):
        out = rt.run_cli(command, path)
        rt.assert_one_line_error(out, "--answers FILE and --guesses FILE", "word list not found")
        assert "root:" not in out.stderr
    lists = ["--answers", folder / "answers.txt", "--guesses", folder / "guesses.txt"]
    assert rt.run_cli("verify", path, *lists).returncode == 0  # lists given by the user are used


def test_oversized_and_non_regular_files_are_refused(setup, tmp_path, monkeypatch):
    import os

    import wordtree.wordle.tree
    import wordtree.words
    from wordtree.errors import UserError
    from wordtree.wordle.tree import read_tree
    from wordtree.words import load_words, read_bounded

    game, root, _, _, folder = setup
    if Path("/dev/zero").exists():
        for read in (read_tree, load_words):
            with pytest.raises(UserError, match="not a regular file"):
                read("/dev/zero")
        rt.assert_one_line_error(rt.run_cli("verify", "/dev/zero"), "not a regular file")
        rt.assert_one_line_error(rt.run_cli("next", tmp_path, "salet:BBBBB", "--answers", "/dev/zero",
                                            "--guesses", "/dev/zero"), "not a regular file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer
    with pytest.raises(UserError, match="not a regular file"):
        read_bounded(fifo, 100, "tree file")
    with pytest.raises(UserError, match="not a regular file"):
        read_tree(tmp_path)
    path = tmp_path / "t.json"
    write_tree(path, fresh(game, root))
    monkeypatch.setattr(wordtree.wordle.tree, "TREE_MAX_BYTES", 1000)
    with pytest.raises(UserError, match="tree file larger than"):
        read_tree(path)
    monkeypatch.setattr(wordtree.words, "LIST_MAX_BYTES", 100)
    with pytest.raises(UserError, match="word list larger than"):
        load_words(folder / "answers.txt")


_UNDER_A_MEMORY_LIMIT = """
import resource, sys
from wordtree.wordle.tree import read_tree
from wordtree.words import load_words
with open("/proc/self/status") as f:
    used = next(int(line.split()[1]) for line in f if line.startswith("VmSize")) * 1024
resource.setrlimit(resource.RLIMIT_AS, (used + (96 << 20), resource.RLIM_INFINITY))  # 96 MB more: less than a limit's buffer
from wordtree.words import read_stream
print(read_tree(sys.argv[1])["stats"]["total"], len(load_words("wordle-allowed-12972.txt").words),
      len(read_stream(sys.stdin.buffer, 256 << 20)))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the address space's size from /proc")
def test_a_small_file_is_read_under_a_memory_limit_and_a_grown_one_up_to_the_limit(tmp_path, monkeypatch):
    """read_bounded reads what the file holds, not a buffer of its limit (256 MB for a tree, which
    an address-space limit refuses), and read_stream (stdin) a megabyte at a time; a file that
    grew after its size was read is read on, and refused past the limit."""
    import io
    import os

    import wordtree.files
    from wordtree.errors import UserError
    from wordtree.words import read_bounded, read_stream

    proc = subprocess.run([sys.executable, "-c", _UNDER_A_MEMORY_LIMIT, str(rt.ROOT / "trees" / "wordle-salet-normal.json")],
                          input="x" * 3000, capture_output=True, text=True, cwd=rt.ROOT, timeout=120)
    assert proc.returncode == 0 and proc.stdout.split() == ["7920", "12972", "3000"], proc.stderr[-2000:]
    for size in (0, 1, 999, 1000, 1001, 5000):  # stdin's reader: all of it, or the limit and one byte more
        assert read_stream(io.BytesIO(b"y" * size), 1000) == b"y" * min(size, 1001)
    path = tmp_path / "grown.txt"
    path.write_bytes(b"x" * 500)
    own_stat = os.stat

    def stat_before_it_grew(p, *args, **kwargs):  # the size the file had when it was looked at
        info = own_stat(p, *args, **kwargs)
        return os.stat_result((info.st_mode, *info[1:6], 100, *info[7:])) if Path(p) == path else info

    monkeypatch.setattr(wordtree.files.os, "stat", stat_before_it_grew)
    assert read_bounded(path, 1000, "word list") == b"x" * 500
    with pytest.raises(UserError, match="word list larger than"):
        read_bounded(path, 300, "word list")


def worse_tree(answers, first: str) -> dict:
    """A valid tree that opens with `first`, then guesses the candidates in order: not optimal."""

    def linear(cands):
        node = {"guess": cands[0]}
        buckets = {}
        for a in cands[1:]:
            buckets.setdefault(wordle_text(cands[0], a), []).append(a)
        if buckets:
            node["next"] = {p: linear(v) for p, v in sorted(buckets.items())}
        return node

    buckets = {}
    for a in answers:
        buckets.setdefault(wordle_text(first, a), []).append(a)
    return {"guess": first, "next": {p: linear(v) for p, v in sorted(buckets.items()) if p != "GGGGG"}}


def test_verify_says_whether_optimality_was_reproved_and_prove_catches_a_false_claim(setup, tmp_path):
    """A heuristic tree relabelled optimal verifies (its replay is sound) but says the claim was
    not re-proved; `verify --prove` re-runs the exact search of its opener and fails it. An
    optimal tree passes --prove, and a tree that claims the best opener says only the opener's
    value was re-proved."""
    game, root, answers, _, folder = setup
    lists = ["--answers", folder / "answers.txt", "--guesses", folder / "guesses.txt"]
    path = tmp_path / "t.json"
    bad = worse_tree(sorted(answers), root["guess"])
    write_tree(path, fresh(game, bad, max_guesses=None))  # labelled optimal, proof exhaustive
    out = rt.run_cli("verify", path, *lists)
    assert out.returncode == 0 and "optimal: claimed, not re-proved (run verify --prove)" in out.stdout, out
    out = rt.run_cli("verify", path, *lists, "--prove")
    last = out.stderr.strip().splitlines()[-1]
    assert out.returncode == 1 and "Traceback" not in out.stderr and "proving: the exact value of" in out.stderr
    assert last.startswith("wordtree: error: ") and "the optimality claim fails" in last, out.stderr
    assert f"the exact value of {root['guess']}" in last
    assert f"the tree's total {sum(rt.depths(bad, answers).values())}" in last
    write_tree(path, fresh(game, bad, max_guesses=None, optimal=False, proof="heuristic"))
    out = rt.run_cli("verify", path, *lists, "--prove")
    assert out.returncode == 0 and "optimal: not claimed" in out.stdout, out
    write_tree(path, fresh(game, root))  # the greedy tree happens to be optimal for its opener here
    out = rt.run_cli("verify", path, *lists, "--prove")
    assert out.returncode == 0, out.stderr
    assert f"optimal: re-proved for the opener {root['guess']}" in out.stdout
    assert f"only {root['guess']}'s value was re-proved" in out.stdout


def _raise_fewest(doc):
    doc["fewest"] = 3


def _a_total_off_by_one(doc):
    doc["results"]["total"] += 1


@pytest.mark.parametrize("shipped, edit", [
    ("absurdle/absurdle-wordle.json", _raise_fewest),
    ("multiboard/quordle-sample.json", _a_total_off_by_one),
])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_defect_in_any_family_is_one_error_line_and_exit_1(tmp_path, shipped, edit, json_flag):
    """verify says a defect the same way in every family, Absurdle's proofs and the multi-board
    samples included (the challenge table: tests/test_absurdle_challenge.py): one `wordtree: error: FILE: ...` line on stderr, nothing on stdout, exit 1."""
    path = rt.ROOT / "trees" / shipped
    assert path.is_file(), f"the shipped {shipped} is missing"
    doc = orjson.loads(path.read_bytes())
    edit(doc)
    bad = tmp_path / path.name
    bad.write_bytes(orjson.dumps(doc))
    done = subprocess.run([sys.executable, str(rt.ROOT / "cli.py"), "verify", str(bad), *json_flag],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith(f"wordtree: error: {bad}: ") and "Traceback" not in done.stderr, done.stderr
