"""`dordle build --checkpoint`: the root searched opener by opener (dordle.root.root_search) finds
solve_game's value and opener and the brute force's value; a run stopped after some openers and
resumed finds the same and evaluates no opener twice; a checkpoint of another run, or one already
there, is refused in one line; --status says what the checkpoint proves; the CLI end to end."""

import re
from functools import lru_cache

import orjson
import pytest
from test_dordle import INF, instance

import reference_dordle as ref
from wordtree.dordle.root import read_root_checkpoint, root_search
from wordtree.dordle.search import ALL_RULES, DINF, RULE_NAMES, DordleSearch
from wordtree.errors import CheckpointMismatch, UserError
from wordtree.files import sealed


def searches(game, cap, rules=ALL_RULES):
    matrix = game._compute_matrix()
    return DordleSearch(game, matrix, cap, rules=rules), DordleSearch(game, matrix, cap, rules=rules)


def recording(search):
    """The openers evaluated at the root, in order (search.evaluate wrapped)."""
    calls, inner, n = [], search.evaluate, len(search.game.answers)

    def evaluate(S1, S2, ident, d, g, limit=DINF, guesses=None):
        if d == search.cap and ident and len(S1) == n:
            calls.append(g)
        return inner(S1, S2, ident, d, g, limit, guesses)

    search.evaluate = evaluate
    return calls


RULE_SETS = [ALL_RULES, 0] + [ALL_RULES & ~r for r in RULE_NAMES.values()] + [r | RULE_NAMES["memo"]
                                                                              for r in RULE_NAMES.values()]


@pytest.mark.parametrize("seed", range(6))
def test_root_search_finds_solve_games_optimum_and_the_brute_forces(seed, tmp_path):
    game, full_cap = instance(seed, max_answers=6, max_guesses=10)
    for rules in RULE_SETS:
        cap = full_cap if rules else min(full_cap, 4)  # no rules at all: slow beyond 4 guesses
        expected = ref.dordle_total(game, cap)
        plain, rooted = searches(game, cap, rules)
        value, guess = plain.solve_game()
        result = root_search(rooted, tmp_path / f"c{rules}.json")
        assert result.finished and not result.interrupted
        assert (result.value, result.guess) == (value, guess), rules
        assert (INF if result.value >= DINF else result.value) == expected, rules
        assert result.lower == result.value and result.left == 0
        assert rooted.evaluations == plain.evaluations  # the same openers tried, with the same budgets


@lru_cache(maxsize=None)
def stoppable_seeds(least=3):
    """Seeds whose root evaluates at least `least` openers (so that a stop in between is possible)."""
    found = []
    for seed in range(40):
        game, cap = instance(seed)
        search = searches(game, cap)[0]
        calls = recording(search)
        search.solve_game()
        if len(calls) >= least:
            found.append(seed)
        if len(found) == 3:
            break
    assert found
    return tuple(found)


@pytest.mark.parametrize("rules", [ALL_RULES, ALL_RULES & ~RULE_NAMES["bounds"], ALL_RULES & ~RULE_NAMES["budgets"]])
def test_stop_then_resume_finds_the_same_and_evaluates_no_opener_twice(rules, tmp_path):
    for seed in stoppable_seeds():
        game, cap = instance(seed)
        whole, first = searches(game, cap, rules)
        all_calls = recording(whole)
        expected = whole.solve_game()
        for k in range(1, len(all_calls)):
            path = tmp_path / f"{seed}-{k}.json"
            first = searches(game, cap, rules)[0]
            calls_before = recording(first)
            stopped = root_search(first, path, max_openers=k)
            assert not stopped.finished and stopped.evaluated == k and calls_before == all_calls[:k]
            assert stopped.lower <= expected[0]
            second = searches(game, cap, rules)[0]
            calls_after = recording(second)
            resumed = root_search(second, path, resume=True)
            assert resumed.finished and (resumed.value, resumed.guess) == expected, (seed, k)
            assert calls_after == all_calls[k:], (seed, k)  # none of the recorded openers again
            again = root_search(searches(game, cap, rules)[0], path, resume=True)
            assert again.finished and again.evaluated == 0 and (again.value, again.guess) == expected


class Interrupting:
    """A progress bar whose `stop_at`-th update is Ctrl-C."""

    def __init__(self, stop_at):
        self.stop_at, self.updates, self.closed, self.postfix = stop_at, 0, False, ""

    def update(self, n=1):
        self.updates += 1
        if self.updates == self.stop_at:
            raise KeyboardInterrupt

    def set_postfix_str(self, text):
        self.postfix = text

    def close(self):
        self.closed = True


def test_ctrl_c_saves_the_openers_done(tmp_path):
    seed = stoppable_seeds()[0]
    game, cap = instance(seed)
    whole, stopped_search = searches(game, cap)
    expected = whole.solve_game()
    path = tmp_path / "c.json"
    bar = Interrupting(2)
    stopped = root_search(stopped_search, path, progress=lambda total, done: bar)
    assert stopped.interrupted and not stopped.finished and bar.closed and "best" in bar.postfix
    saved = read_root_checkpoint(path, game, cap, ALL_RULES)
    assert len(saved["results"]) == 2 and not saved["finished"]
    resumed = root_search(searches(game, cap)[0], path, resume=True)
    assert (resumed.value, resumed.guess) == expected


def test_another_cap_or_other_lists_are_refused_in_one_line(tmp_path):
    game, cap = instance(stoppable_seeds()[0])
    path = tmp_path / "c.json"
    root_search(searches(game, cap)[0], path, max_openers=1)
    other_cap = 7 if cap != 7 else 6
    with pytest.raises(CheckpointMismatch) as info:
        root_search(searches(game, other_cap)[0], path, resume=True)
    assert "max_guesses" in str(info.value) and "\n" not in str(info.value)
    other, other_cap = instance(1000)
    with pytest.raises(CheckpointMismatch, match="answers_sha256"):
        root_search(searches(other, cap)[0], path, resume=True)
    with pytest.raises(CheckpointMismatch, match="rules"):
        root_search(searches(game, cap, ALL_RULES & ~RULE_NAMES["memo"])[0], path, resume=True)
    doc = orjson.loads(path.read_bytes())
    doc["results"] = {"not a word": [1, True]}
    path.write_bytes(sealed(doc))  # checksummed again: the payload's own checks still hold
    with pytest.raises(UserError, match="malformed Dordle build checkpoint"):
        root_search(searches(game, cap)[0], path, resume=True)


# --- the command line ---
def test_cli_build_with_a_checkpoint_then_status_and_verify(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    plain, out, path = tmp_path / "p.json", tmp_path / "t.json", tmp_path / "c.json"
    assert main(["dordle", "build", *dordle_lists, "-o", str(plain)]) == 0
    first_line = capsys.readouterr().out
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out.split(",")[:3] == first_line.split(",")[:3]  # total, mean, first guess
    assert "openers:" in captured.err and "best 720" in captured.err
    a, b = orjson.loads(plain.read_bytes()), orjson.loads(out.read_bytes())
    assert a["tree"] == b["tree"] and a["result"].keys() == b["result"].keys()
    assert {k: v for k, v in a["result"].items() if k != "seconds"} == \
        {k: v for k, v in b["result"].items() if k != "seconds"}
    assert main(["dordle", "verify", str(out), *dordle_lists[:4]]) == 0
    capsys.readouterr()
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--status"]) == 0
    status = capsys.readouterr().out
    assert "finished" in status and "0 left" in status and "proven lower bound: 720 " in status
    # an existing checkpoint is neither replaced nor continued unless asked
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already holds a checkpoint" in err[0] and "--resume" in err[0]
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--overwrite"]) == 0
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--resume", "-o", str(out)]) == 0
    assert orjson.loads(out.read_bytes())["tree"] == a["tree"]


def test_cli_status_of_an_unfinished_checkpoint(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main
    from wordtree.games import get_game

    game = get_game(None, dordle_lists[1], dordle_lists[3])
    path = tmp_path / "c.json"
    stopped = root_search(DordleSearch(game, game._compute_matrix(), 6), path, max_openers=2)
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--status"]) == 0
    out = capsys.readouterr().out
    assert "not finished" in out
    exact = stopped.exact
    assert f"({exact} exact, {2 - exact} refuted, {stopped.openers - 2} left)" in out
    assert f"proven lower bound: {stopped.lower} " in out and stopped.lower <= 720
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(tmp_path / "none.json"), "--status"]) == 1
    assert "no such checkpoint" in capsys.readouterr().err


def test_cli_ctrl_c_then_resume(dordle_lists, tmp_path, capsys, monkeypatch):
    import wordtree.progress
    from wordtree.commands import main

    path, out = tmp_path / "c.json", tmp_path / "t.json"
    monkeypatch.setattr(wordtree.progress, "progress_bar", lambda total, **_: Interrupting(2))
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "-o", str(out)]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "--resume" in err and not out.exists()
    assert len(orjson.loads(path.read_bytes())["results"]) == 2
    monkeypatch.undo()
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--resume", "-o", str(out)]) == 0
    assert orjson.loads(out.read_bytes())["result"]["total"] == 720


def test_cli_refuses_a_checkpoint_of_other_lists_in_one_line(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    path = tmp_path / "c.json"
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path)]) == 0
    (tmp_path / "a.txt").write_text("\n".join((tmp_path / "a.txt").read_text().split()[:-1]) + "\n")
    capsys.readouterr()
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--resume"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "answers_sha256 differs" in err[0]
    assert main(["dordle", "build", *dordle_lists[:4], "--max-guesses", "5", "--checkpoint", str(path), "--status"]) == 1
    assert "max_guesses 6 there, 5 here" in capsys.readouterr().err


@pytest.mark.parametrize("extra, words", [
    (["--from", "salet:BBBBB/BBBBB"], "drop --from"),
    (["--objective", "worst"], "--objective total"),
    (["--first", "salet"], "with --first there is one"),
    (["--resume", "--overwrite"], "give one of them"),
])
def test_cli_checkpoint_usage_errors(dordle_lists, tmp_path, capsys, extra, words):
    from wordtree.commands import main

    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(tmp_path / "c.json"), *extra]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize("flag", ["--resume", "--overwrite", "--status"])
def test_cli_checkpoint_companions_need_it(dordle_lists, capsys, flag):
    from wordtree.commands import main

    assert main(["dordle", "build", *dordle_lists, flag]) == 2
    assert f"{flag} needs --checkpoint FILE" in capsys.readouterr().err


def test_cli_checks_the_output_before_searching(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(tmp_path / "c.json"), "-o", str(tmp_path)]) == 1
    assert "cannot write the tree" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def test_a_checkpoint_of_other_lists_is_refused_before_the_openers_are_planned(dordle_lists, tmp_path, capsys,
                                                                               monkeypatch):
    """The header is read before any work: with the planner (root.root_plan) and the search's
    own setup made to fail, a resume of a checkpoint made for other lists is still the one-line
    refusal, whether the command or root_search itself is asked."""
    import wordtree.dordle.root as root
    import wordtree.dordle.search as dordle_search
    from wordtree.commands import main
    from wordtree.games import get_game

    path = tmp_path / "c.json"
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path)]) == 0
    game = get_game(None, dordle_lists[1], dordle_lists[3])
    search = DordleSearch(game, game._compute_matrix(), 6)
    (tmp_path / "a.txt").write_text("\n".join((tmp_path / "a.txt").read_text().split()[:-1]) + "\n")
    capsys.readouterr()

    def planned(*args, **kwargs):
        raise AssertionError("the openers were planned before the checkpoint's header was checked")

    monkeypatch.setattr(root, "root_plan", planned)
    monkeypatch.setattr(dordle_search.DordleSearch, "__init__", planned)
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--resume"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "answers_sha256 differs" in err[0] and "Traceback" not in err[0]
    other = get_game(None, dordle_lists[1], dordle_lists[3])  # the shorter answer list now
    search.game = other
    with pytest.raises(CheckpointMismatch, match="answers_sha256"):
        root_search(search, path, resume=True)


def test_cli_ctrl_c_says_how_to_resume_in_one_line(dordle_lists, tmp_path, capsys, monkeypatch):
    """Ctrl-C (or TERM, which a command's process turns into it) in an opener's search: the
    openers done are saved, one line says so and gives the command that resumes, exit 130; a
    run without a checkpoint says how to keep the work next time."""
    import wordtree.dordle.search as dordle_search
    from wordtree.commands import main

    path = tmp_path / "c.json"
    evaluate, calls = dordle_search.DordleSearch.evaluate, []

    def stopped_on_the_third(self, S1, S2, ident, d, *args, **kwargs):
        if d == self.cap and ident and len(S1) == len(self.game.answers):  # an opener at the root
            calls.append(1)
            if len(calls) == 3:
                raise KeyboardInterrupt
        return evaluate(self, S1, S2, ident, d, *args, **kwargs)

    monkeypatch.setattr(dordle_search.DordleSearch, "evaluate", stopped_on_the_third)
    argv = ["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--overwrite"]
    assert main(argv) == 130
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("wordtree:")]
    assert len(lines) == 1 and re.fullmatch(
        re.escape("wordtree: interrupted after 2 openers this run (") + r"\d+ left" + re.escape(
            f"): stopped; the work so far is in {path}; resume with: wordtree dordle build {' '.join(dordle_lists)} "
            f"--checkpoint {path} --resume"), lines[0]), lines
    assert len(orjson.loads(path.read_bytes())["results"]) == 2
    calls.clear()
    assert main(["dordle", "build", *dordle_lists]) == 130
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("wordtree:")]
    assert len(lines) == 1 and "stopped with nothing kept" in lines[0] and "--checkpoint FILE" in lines[0]
    monkeypatch.undo()
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--resume"]) == 0
    assert "total 720" in capsys.readouterr().out
