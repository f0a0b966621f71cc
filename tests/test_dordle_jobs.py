"""`dordle build --jobs` (engine/dordle/jobs.py): the proof split into jobs. The opener proof (one
job per child state) gives DordleSearch.evaluate's total and the brute force's; the root proof
(one job per opener) gives solve_game's value and opener and the brute force's; both interrupted
(a job budget, Ctrl-C, a kill -9 of the process) and resumed give the same, no job done twice;
an edited line, a torn last line, a checkpoint of another run; the CLI; and Dask."""

import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from test_dordle import INF, instance
from test_dordle_checkpoint import Interrupting

import reference_dordle as ref
from wordtree.dordle import jobs
from wordtree.dordle.search import ALL_RULES, DINF, RULE_NAMES, DordleSearch
from wordtree.errors import CheckpointMismatch, UserError

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def matrix_of(seed):
    game, cap = instance(seed)
    return game, cap, game._compute_matrix()


def search_of(seed, rules=ALL_RULES):
    game, cap, matrix = matrix_of(seed)
    return DordleSearch(game, matrix, cap, rules=rules)


def held(path, search, opener=None):
    """The journal a run resuming `path` would hold (read_journal with the run's header)."""
    return jobs.read_journal(path, jobs.jobs_header(search.game, search.cap, search.rules, opener))


def opener_total_by_brute_force(game, cap, first):
    """m + the brute force's value of every group of pairs the opener leaves (reference_dordle)."""
    pairs = ref.state_pairs(game.answers, game.answers)
    groups = {}
    for a, b in pairs:
        after = (None if a == first else a, None if b == first else b)
        key = (ref.SOLVED if a == first else game.feedback(first, a), ref.SOLVED if b == first else game.feedback(first, b))
        groups.setdefault(key, []).append(after)
    return len(pairs) + sum(ref.position_value(game, game.guesses, group, cap - 1) for group in groups.values())


def finite(value):
    return INF if value >= DINF else value


@lru_cache(maxsize=None)
def seeds_with_jobs(least=3):
    """Seeds whose best opener leaves at least `least` child states with pairs, and whose root
    evaluates at least `least` openers: a stop in between is possible in both proofs."""
    found = []
    for seed in range(40):
        search = search_of(seed)
        value, guess = search.solve_game()
        if value >= DINF:
            continue
        plan = jobs.opener_plan(search_of(seed), guess)
        if len(plan.children) >= least and search.evaluations >= least:
            found.append(seed)
        if len(found) == 3:
            break
    assert found
    return tuple(found)


@pytest.mark.parametrize("seed", range(8))
def test_opener_proof_is_evaluates_total_and_the_brute_forces(seed, tmp_path):
    game, cap, _ = matrix_of(seed)
    for first in range(0, len(game.guesses), max(1, len(game.guesses) // 3)):
        expected = search_of(seed).evaluate(*search_of(seed).root(), first)
        result = jobs.prove_opener(search_of(seed), first, tmp_path / f"{first}.jobs")
        assert result.finished and result.done == result.jobs and result.value == min(expected, DINF)
        assert finite(result.value) == opener_total_by_brute_force(game, cap, game.guesses[first]), (seed, first)
        assert len(held(tmp_path / f"{first}.jobs", search_of(seed), game.guesses[first]).lines) == result.jobs


@pytest.mark.parametrize("seed", range(8))
def test_root_proof_is_solve_games_and_the_brute_forces(seed, tmp_path):
    game, cap, _ = matrix_of(seed)
    plain = search_of(seed)
    expected = plain.solve_game()
    result = jobs.prove_root(search_of(seed), tmp_path / "r.jobs")
    assert result.finished and (result.value, result.guess) == expected
    assert finite(result.value) == ref.dordle_total(game, cap)
    assert result.lower == result.value and result.left == 0
    assert len(held(tmp_path / "r.jobs", plain).lines) == result.evaluated


@pytest.mark.parametrize("rules", [ALL_RULES, ALL_RULES & ~RULE_NAMES["bounds"], ALL_RULES & ~RULE_NAMES["budgets"]])
def test_a_stopped_proof_resumed_finds_the_same_and_does_no_job_twice(rules, tmp_path):
    for seed in seeds_with_jobs():
        expected = search_of(seed, rules).solve_game()
        whole = jobs.prove_opener(search_of(seed, rules), expected[1])
        for k in range(1, whole.jobs):
            path = tmp_path / f"o{seed}-{rules}-{k}.jobs"
            stopped = jobs.prove_opener(search_of(seed, rules), expected[1], path, max_jobs=k)
            assert not stopped.finished and stopped.evaluated == k and stopped.value <= whole.value
            search = search_of(seed, rules)
            resumed = jobs.prove_opener(search, expected[1], path, held(path, search, search.game.guesses[expected[1]]))
            assert resumed.finished and resumed.value == whole.value == expected[0]
            assert resumed.evaluated == whole.jobs - k
        uninterrupted = jobs.prove_root(search_of(seed, rules))
        for k in range(1, uninterrupted.evaluated):
            path = tmp_path / f"r{seed}-{rules}-{k}.jobs"
            stopped = jobs.prove_root(search_of(seed, rules), path, max_jobs=k)
            assert not stopped.finished and stopped.evaluated == k and stopped.lower <= expected[0]
            search = search_of(seed, rules)
            resumed = jobs.prove_root(search, path, held(path, search))
            assert resumed.finished and (resumed.value, resumed.guess) == expected, (seed, k)
            assert resumed.evaluated == uninterrupted.evaluated - k
            search = search_of(seed, rules)
            again = jobs.prove_root(search, path, held(path, search))
            assert again.finished and again.evaluated == 0 and (again.value, again.guess) == expected


def test_ctrl_c_keeps_every_finished_job(tmp_path):
    seed = seeds_with_jobs()[0]
    expected = search_of(seed).solve_game()
    path = tmp_path / "o.jobs"
    bar = Interrupting(2)
    stopped = jobs.prove_opener(search_of(seed), expected[1], path, progress=lambda total, done: bar)
    assert stopped.interrupted and not stopped.finished and bar.closed
    search = search_of(seed)
    word = search.game.guesses[expected[1]]
    assert len(held(path, search, word).lines) == 2  # the job whose bar update was the Ctrl-C is in too
    resumed = jobs.prove_opener(search, expected[1], path, held(path, search, word))
    assert resumed.finished and resumed.value == expected[0] and resumed.evaluated == resumed.jobs - 2


KILLER = """
import os, signal, sys
sys.path.insert(0, {tests!r})
from test_dordle_jobs import search_of
from wordtree.dordle import jobs
from wordtree.dordle.search import DordleSearch
search = search_of({seed})
inner, calls = DordleSearch.evaluate, [0]
def evaluate(self, S1, S2, ident, d, g, *args):
    if d == self.cap and ident and len(S1) == len(self.game.answers):
        calls[0] += 1
        if calls[0] == {kill_at}:
            os.kill(os.getpid(), signal.SIGKILL)
    return inner(self, S1, S2, ident, d, g, *args)
DordleSearch.evaluate = evaluate
jobs.build_by_jobs(search.game, search.matrix, search.cap, {path!r})
"""


def test_kill_9_loses_only_the_job_in_flight(tmp_path):
    """A process killed (SIGKILL) while it evaluates its third opener: the two before are in the
    file, whole and checked; the resumed proof finds solve_game's value and evaluates the rest."""
    seed = next(s for s in range(40) if len(recorded_openers(s)) >= 3)
    expected = search_of(seed).solve_game()
    path = tmp_path / "r.jobs"
    code = KILLER.format(tests=str(ROOT / "tests"), seed=seed, kill_at=3, path=str(path))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=os.environ, capture_output=True)
    assert done.returncode == -9, done.stderr.decode()[-2000:]
    search = search_of(seed)
    journal = held(path, search)
    assert [line.key for line in journal.lines] == [search.game.guesses[g] for g in recorded_openers(seed)[:2]]
    resumed = jobs.build_by_jobs(search.game, search.matrix, search.cap, path, resume=True)[1]
    assert resumed.finished and (resumed.value, resumed.guess) == expected
    assert resumed.evaluated == jobs.prove_root(search_of(seed)).evaluated - 2


def recorded_openers(seed):
    """The openers the root proof evaluates, in order."""
    search = search_of(seed)
    calls, inner = [], search.evaluate

    def evaluate(S1, S2, ident, d, g, limit=DINF, guesses=None):
        if d == search.cap and ident and len(S1) == len(search.game.answers):
            calls.append(g)
        return inner(S1, S2, ident, d, g, limit, guesses)

    search.evaluate = evaluate
    jobs.prove_root(search)
    return calls


def test_a_torn_last_line_is_dropped_and_the_file_cut_back(tmp_path):
    seed = seeds_with_jobs()[0]
    expected = search_of(seed).solve_game()
    path = tmp_path / "r.jobs"
    jobs.prove_root(search_of(seed), path, max_jobs=1)
    whole = path.read_bytes()
    path.write_bytes(whole + b"abcde\t=12")  # a write cut short by a crash: no newline
    search = search_of(seed)
    journal = held(path, search)
    assert len(journal.lines) == 1 and journal.keep == len(whole)
    resumed = jobs.prove_root(search, path, journal)
    assert (resumed.value, resumed.guess) == expected
    text = path.read_bytes()
    assert text.startswith(whole) and b"abcde" not in text and text.endswith(b"\n")
    assert len(held(path, search_of(seed)).lines) == 1 + resumed.evaluated


@pytest.mark.parametrize("edit, words", [
    (lambda line: line.replace(b"\t=", b"\t=1", 1) if b"\t=" in line else line.replace(b"\t>=", b"\t>=1", 1),
     "check digits"),
    (lambda line: line.rsplit(b"\t", 1)[0], "check digits"),
    (lambda line: b"x" * 300, "longer than"),
])
def test_an_edited_line_is_refused_naming_it(tmp_path, edit, words):
    seed = seeds_with_jobs()[0]
    path = tmp_path / "r.jobs"
    jobs.prove_root(search_of(seed), path, max_jobs=2)
    rows = path.read_bytes().split(b"\n")
    rows[2] = edit(rows[2])
    path.write_bytes(b"\n".join(rows))
    with pytest.raises(UserError) as info:
        held(path, search_of(seed))
    assert f"{path}: line 3: " in str(info.value) and words in str(info.value) and "\n" not in str(info.value)


def test_a_line_of_another_checkpoint_is_refused(tmp_path):
    """Lines carry the header in their check digits: one moved into the checkpoint of another
    cap does not check, even with that header."""
    seed = seeds_with_jobs()[0]
    search = search_of(seed)
    a, b = tmp_path / "a.jobs", tmp_path / "b.jobs"
    jobs.prove_root(search, a, max_jobs=1)
    other = jobs.jobs_header(search.game, search.cap + 1, search.rules, None)
    b.write_bytes(jobs.header_bytes(other) + b"\n" + a.read_bytes().split(b"\n", 1)[1])
    with pytest.raises(UserError, match="line 2: its check digits"):
        jobs.read_journal(b, other)


def test_a_checkpoint_of_another_run_is_refused_in_one_line(tmp_path):
    seed = seeds_with_jobs()[0]
    search = search_of(seed)
    path = tmp_path / "o.jobs"
    jobs.prove_opener(search, 0, path, max_jobs=1)
    with pytest.raises(CheckpointMismatch, match="opener"):
        held(path, search, search.game.guesses[1])
    with pytest.raises(CheckpointMismatch, match="max_guesses"):
        jobs.read_journal(path, jobs.jobs_header(search.game, search.cap + 1, search.rules, search.game.guesses[0]))
    with pytest.raises(CheckpointMismatch, match="rules"):
        jobs.read_journal(path, jobs.jobs_header(search.game, search.cap, 0, search.game.guesses[0]))
    path.write_bytes(b"{}\n")
    with pytest.raises(UserError, match="not a Dordle jobs checkpoint"):
        held(path, search, search.game.guesses[0])


def test_a_job_of_another_opener_is_refused(tmp_path):
    """A line that checks but names no child state of the opener (made with the module's own line
    writer, as a hostile file could be): refused, not summed."""
    seed = seeds_with_jobs()[0]
    search = search_of(seed)
    word = search.game.guesses[0]
    header = jobs.jobs_header(search.game, search.cap, search.rules, word)
    head = jobs.header_bytes(header)
    path = tmp_path / "o.jobs"
    path.write_bytes(head + b"\n" + jobs.line_bytes(head, jobs.JobLine("XXXXX/YYYYY", 3, True, 1, 0.0)))
    with pytest.raises(UserError, match="not a child state of this opener"):
        jobs.prove_opener(search, 0, path, held(path, search, word))


# --- the command line ---
def test_cli_jobs_root_proof_then_status_and_tree(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    path, out = tmp_path / "r.jobs", tmp_path / "t.json"
    assert main(["dordle", "build", *dordle_lists, "--jobs", str(path), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "total 720 " in printed and out.exists()
    assert main(["dordle", "verify", str(out), *dordle_lists[:4]]) == 0
    capsys.readouterr()
    assert main(["dordle", "build", *dordle_lists, "--jobs", str(path), "--status"]) == 0
    status = capsys.readouterr().out
    assert "root proof over the openers, finished" in status and "best total so far: 720" in status
    assert main(["build", "dordle", *dordle_lists, "--jobs", str(path)]) == 1  # exists: refused
    assert "--resume" in capsys.readouterr().err
    assert main(["build", "dordle", *dordle_lists, "--jobs", str(path), "--overwrite"]) == 0
    assert main(["build", "dordle", *dordle_lists, "--jobs", str(path), "--resume"]) == 0
    assert "total 720 " in capsys.readouterr().out


def test_cli_jobs_opener_proof(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    path = tmp_path / "o.jobs"
    assert main(["dordle", "build", *dordle_lists, "--first", "salet", "--json", "-o", str(tmp_path / "t.json")]) == 0
    import orjson

    capsys.readouterr()
    assert main(["dordle", "build", *dordle_lists, "--first", "salet", "--output", str(tmp_path / "t.json")]) == 0
    expected = orjson.loads((tmp_path / "t.json").read_bytes())["result"]["total"]
    capsys.readouterr()
    assert main(["dordle", "build", *dordle_lists, "--first", "salet", "--jobs", str(path), "--json"]) == 0
    result = orjson.loads(capsys.readouterr().out)
    assert result["total"] == expected and result["exact"] and result["first"] == "salet"
    assert main(["dordle", "build", *dordle_lists, "--jobs", str(path), "--status"]) == 0
    status = capsys.readouterr().out
    assert "opener proof of salet, finished" in status and f"total: {expected} " in status


@pytest.mark.parametrize("extra, words", [
    (["--from", "salet:BBBBB/BBBBB"], "drop --from or --jobs"),
    (["--objective", "worst"], "--objective total"),
    (["--resume", "--overwrite"], "give one of them"),
    (["--checkpoint", "c.json"], "give one of them"),
    (["--first", "salet", "-o", "t.json"], "drop -o or --first"),
    (["--first", "salet", "--status"], "drop --first"),
])
def test_cli_jobs_usage_errors(dordle_lists, tmp_path, capsys, extra, words):
    from wordtree.commands import main

    assert main(["dordle", "build", *dordle_lists, "--jobs", str(tmp_path / "r.jobs"), *extra]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "r.jobs").exists()


def test_cli_jobs_of_other_lists_refused_in_one_line(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    path = tmp_path / "r.jobs"
    assert main(["dordle", "build", *dordle_lists, "--jobs", str(path)]) == 0
    capsys.readouterr()
    assert main(["dordle", "build", *dordle_lists[:4], "--max-guesses", "5", "--jobs", str(path), "--resume"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "max_guesses 6 there, 5 here" in err[0]


# --- on Dask ---
def test_jobs_on_dask_give_the_in_process_proofs(tmp_path):
    """Both proofs on a LocalCluster of 2 workers, half done in process first: the same values, the
    rest of the jobs done there."""
    pytest.importorskip("distributed")
    from wordtree.dordle.cluster import dordle_spec
    from wordtree.games import get_game

    seed = seeds_with_jobs()[0]
    game0, cap, _ = matrix_of(seed)
    answers, guesses = tmp_path / "a.txt", tmp_path / "g.txt"
    answers.write_text("\n".join(game0.answers) + "\n")
    guesses.write_text("\n".join(game0.guesses) + "\n")
    game = get_game(None, str(answers), str(guesses))
    matrix = game._compute_matrix()
    expected = DordleSearch(game, matrix, cap).solve_game()
    whole_opener = jobs.prove_opener(DordleSearch(game, matrix, cap), expected[1])
    spec = dordle_spec(game, answers=str(answers), guesses=str(guesses), cap=cap)
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        cluster = (lc.scheduler_address, None, spec)
        root_path, opener_path = tmp_path / "r.jobs", tmp_path / "o.jobs"
        jobs.prove_root(DordleSearch(game, matrix, cap), root_path, max_jobs=1)
        search = DordleSearch(game, matrix, cap)
        root = jobs.prove_root(search, root_path, held(root_path, search), cluster=cluster)
        assert root.finished and (root.value, root.guess) == expected and root.evaluated >= 1
        jobs.prove_opener(DordleSearch(game, matrix, cap), expected[1], opener_path, max_jobs=1)
        search = DordleSearch(game, matrix, cap)
        word = game.guesses[expected[1]]
        opener = jobs.prove_opener(search, expected[1], opener_path, held(opener_path, search, word), cluster=cluster)
        assert opener.finished and opener.value == whole_opener.value == expected[0]
        assert opener.evaluated == whole_opener.jobs - 1
        split_path = tmp_path / "s.jobs"
        jobs.prove_opener(DordleSearch(game, matrix, cap), expected[1], split_path, max_jobs=1, split=3)
        search = DordleSearch(game, matrix, cap)
        journal = jobs.read_journal(split_path, jobs.jobs_header(game, cap, search.rules, word, 3))
        split = jobs.prove_opener(search, expected[1], split_path, journal, cluster=cluster, split=3)
        assert split.finished and split.value == expected[0] and split.evaluated >= 1


# --- the counting bound of the best second guess (search.USE_SECOND) ---
@pytest.mark.parametrize("seed", range(8))
def test_second_bound_is_below_every_child_states_value_and_keeps_the_optimum(seed):
    """second_bound of each child state of every opener is at most the state's exact value (the
    brute force's, through the engine's own tested search); with the rule on, the optimum and the
    opener are the brute force's and the search's without it."""
    from wordtree.dordle.search import USE_SECOND

    game, cap, matrix = matrix_of(seed)
    for first in range(len(game.guesses) if cap >= 3 else 0):  # (cap 2: no second guess to bound)
        plan = jobs.opener_plan(search_of(seed), first)
        for child in plan.children.values():
            if child.pairs < 3:
                continue
            bound = DordleSearch(game, matrix, cap).second_bound(child.S1, child.S2, child.ident, cap - 1)
            value = DordleSearch(game, matrix, cap).solve(child.S1, child.S2, child.ident, cap - 1)[0]
            assert bound <= value, (seed, first, child.key(game))
    with_rule = DordleSearch(game, matrix, cap, rules=ALL_RULES | USE_SECOND).solve_game()
    assert with_rule == search_of(seed).solve_game()
    assert finite(with_rule[0]) == ref.dordle_total(game, cap)


def test_second_bound_saves_nodes_on_a_reduced_list(dordle_lists):
    """On every 150th original answer (16 words, cap 6): the same optimum with the rule on or off,
    in fewer nodes with it."""
    from wordtree.dordle.search import USE_SECOND
    from wordtree.games import get_game

    game = get_game(None, dordle_lists[1], dordle_lists[3])
    matrix = game._compute_matrix()
    off, on = DordleSearch(game, matrix, 6), DordleSearch(game, matrix, 6, rules=ALL_RULES | USE_SECOND)
    assert on.solve_game() == off.solve_game()
    assert on.nodes < off.nodes, (on.nodes, off.nodes)


# --- child states split by their second guess (--split-pairs) ---
@pytest.mark.parametrize("seed", range(8))
def test_a_split_opener_proof_is_evaluates_total_and_resumes(seed, tmp_path):
    """Child states of 3 pairs or more split into one job per second guess: the opener's total is
    still DordleSearch.evaluate's and the brute force's; stopped after k jobs for every k and
    resumed, the same, no job done twice."""
    game, cap, _ = matrix_of(seed)
    for first in range(0, len(game.guesses), max(1, len(game.guesses) // 3)):
        expected = min(search_of(seed).evaluate(*search_of(seed).root(), first), DINF)
        whole = jobs.prove_opener(search_of(seed), first, split=3)
        assert whole.finished and whole.value == expected
        assert finite(whole.value) == opener_total_by_brute_force(game, cap, game.guesses[first])
        word = game.guesses[first]
        for k in range(1, whole.evaluated):
            path = tmp_path / f"{first}-{k}.jobs"
            stopped = jobs.prove_opener(search_of(seed), first, path, max_jobs=k, split=3)
            assert stopped.evaluated == k and stopped.value <= expected
            search = search_of(seed)
            journal = jobs.read_journal(path, jobs.jobs_header(game, cap, search.rules, word, 3))
            resumed = jobs.prove_opener(search, first, path, journal, split=3)
            assert resumed.finished and resumed.value == expected, (seed, first, k)
            assert resumed.evaluated == whole.evaluated - k


def test_a_split_checkpoint_resumed_with_another_threshold_is_refused(tmp_path):
    seed = seeds_with_jobs()[0]
    search = search_of(seed)
    word = search.game.guesses[0]
    path = tmp_path / "o.jobs"
    jobs.prove_opener(search, 0, path, max_jobs=1, split=3)
    for split in (4, None):
        with pytest.raises(CheckpointMismatch, match="split"):
            jobs.read_journal(path, jobs.jobs_header(search.game, search.cap, search.rules, word, split))


def test_cli_split_pairs(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    path = tmp_path / "o.jobs"
    assert main(["dordle", "build", *dordle_lists, "--first", "salet", "--jobs", str(tmp_path / "w.jobs")]) == 0
    whole = capsys.readouterr().out.split()[1]
    assert main(["dordle", "build", *dordle_lists, "--first", "salet", "--jobs", str(path), "--split-pairs", "5"]) == 0
    assert capsys.readouterr().out.split()[1] == whole
    assert b" " in path.read_bytes().split(b"\n", 1)[1]  # second-guess jobs: KEY WORD
    assert main(["dordle", "build", *dordle_lists, "--jobs", str(path), "--status"]) == 0
    status = capsys.readouterr().out
    assert "split by their second guess (at least 5 pairs" in status and f"total: {whole} " in status
    assert main(["dordle", "build", *dordle_lists, "--first", "salet", "--jobs", str(path), "--resume"]) == 1
    assert "split 5 there, none here" in capsys.readouterr().err
    assert main(["dordle", "build", *dordle_lists, "--jobs", str(path), "--split-pairs", "5"]) == 2
    assert "give --first WORD" in capsys.readouterr().err
    assert main(["dordle", "build", *dordle_lists, "--split-pairs", "5"]) == 2
    assert "give --jobs FILE" in capsys.readouterr().err
    assert main(["dordle", "build", *dordle_lists, "--first", "salet", "--jobs", str(path), "--split-pairs", "2"]) == 2
