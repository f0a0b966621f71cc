"""`dordle build --scheduler` (engine/dordle/cluster.py) against the in-process search on small
games: solve_game's value and opener; a checkpoint started in one process and resumed on the
cluster, and the reverse, with no opener evaluated twice; Ctrl-C; a worker killed in turn is one
line; the CLI with a LocalCluster gives the in-process tree; and its usage errors."""

import os
import subprocess
import sys

import numpy as np
import orjson
import pytest

distributed = pytest.importorskip("distributed")

from test_dordle import instance  # noqa: E402
from test_dordle_checkpoint import Interrupting, recording  # noqa: E402

from reference_trees import ROOT  # noqa: E402
from wordtree.dordle import cluster  # noqa: E402
from wordtree.dordle.root import RootLedger, read_root_checkpoint, root_plan, root_search  # noqa: E402
from wordtree.dordle.search import ALL_RULES, DINF, RULE_NAMES, DordleSearch  # noqa: E402
from wordtree.errors import UserError  # noqa: E402
from wordtree.games import get_game  # noqa: E402

SEEDS = (0, 1, 2, 3, 4, 5, 7, 9)


def on_files(seed, folder):
    """instance(seed) loaded from list files, as a worker rebuilds it: (game, cap, answers, guesses)."""
    game, cap = instance(seed)
    answers, guesses = folder / f"a{seed}.txt", folder / f"g{seed}.txt"
    answers.write_text("\n".join(game.answers) + "\n")
    guesses.write_text("\n".join(game.guesses) + "\n")
    return get_game(None, str(answers), str(guesses)), cap, str(answers), str(guesses)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """seed -> (game, cap, spec args, solve_game's (value, opener), the openers it evaluates at the
    root). Solved before any worker starts, so the workers load the kernels from numba's cache."""
    folder = tmp_path_factory.mktemp("lists")
    out = {}
    for seed in SEEDS:
        game, cap, answers, guesses = on_files(seed, folder)
        search = DordleSearch(game, game._compute_matrix(), cap)
        calls = recording(search)
        out[seed] = game, cap, (answers, guesses), search.solve_game(), calls
    return out


@pytest.fixture(scope="module")
def scheduler(games):
    """A LocalCluster of 2 worker processes, reached by its tcp:// address like a remote one."""
    assert os.environ["NUMBA_CACHE_DIR"]  # conftest's: the spawned workers inherit the environment
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        yield lc.scheduler_address


def setup(games, seed, rules=ALL_RULES):
    game, cap, (answers, guesses), _, _ = games[seed]
    search = DordleSearch(game, game._compute_matrix(), cap, rules=rules)
    return search, cluster.dordle_spec(game, answers=answers, guesses=guesses, cap=cap, rules=rules)


@pytest.mark.parametrize("seed", SEEDS)
def test_cluster_finds_solve_games_value_and_opener(games, scheduler, seed, tmp_path):
    search, spec = setup(games, seed)
    result = cluster.search_on_cluster(scheduler, spec, search, checkpoint=tmp_path / "c.json")
    assert result.finished and not result.interrupted
    assert (result.value, result.guess) == games[seed][3]
    assert result.lower == result.value and result.left == 0
    saved = read_root_checkpoint(tmp_path / "c.json", search.game, search.cap, ALL_RULES)
    assert saved["finished"] and saved["left_bound"] is None and len(saved["results"]) == result.evaluated


@pytest.mark.parametrize("rules", [ALL_RULES & ~RULE_NAMES["bounds"], ALL_RULES & ~RULE_NAMES["budgets"],
                                   ALL_RULES & ~RULE_NAMES["memo"]])
def test_cluster_with_rules_off(games, scheduler, rules):
    for seed in SEEDS[:4]:
        search, spec = setup(games, seed, rules)
        expected = DordleSearch(search.game, search.matrix, search.cap, rules=rules).solve_game()
        result = cluster.search_on_cluster(scheduler, spec, search)
        assert result.finished and (result.value, result.guess) == expected, (seed, rules)


def stoppable(games, least=3):
    return [seed for seed in SEEDS if len(games[seed][4]) >= least][:3]


def test_in_process_start_resumed_on_the_cluster(games, scheduler, tmp_path):
    seeds = stoppable(games)
    assert seeds
    for seed in seeds:
        for k in (1, 2):
            path = tmp_path / f"{seed}-{k}.json"
            first = setup(games, seed)[0]
            stopped = root_search(first, path, max_openers=k)
            assert not stopped.finished and stopped.evaluated == k
            before = read_root_checkpoint(path, first.game, first.cap, ALL_RULES)["results"]
            search, spec = setup(games, seed)
            resumed = cluster.search_on_cluster(scheduler, spec, search, checkpoint=path, resume=True)
            assert resumed.finished and (resumed.value, resumed.guess) == games[seed][3], (seed, k)
            after = read_root_checkpoint(path, first.game, first.cap, ALL_RULES)["results"]
            assert {w: after[w] for w in before} == before
            assert resumed.evaluated == len(after) - len(before)  # none of the recorded openers again
            again = cluster.search_on_cluster(scheduler, spec, setup(games, seed)[0], checkpoint=path, resume=True)
            assert again.finished and again.evaluated == 0 and (again.value, again.guess) == games[seed][3]


def test_cluster_start_resumed_in_process(games, scheduler, tmp_path):
    for seed in stoppable(games):
        for k in (1, 2):
            path = tmp_path / f"{seed}-{k}.json"
            search, spec = setup(games, seed)
            stopped = cluster.search_on_cluster(scheduler, spec, search, checkpoint=path, max_openers=k)
            assert not stopped.finished and stopped.evaluated == k and stopped.lower <= games[seed][3][0]
            recorded = read_root_checkpoint(path, search.game, search.cap, ALL_RULES)["results"]
            assert len(recorded) == k
            second = setup(games, seed)[0]
            calls = recording(second)
            resumed = root_search(second, path, resume=True)
            assert resumed.finished and (resumed.value, resumed.guess) == games[seed][3], (seed, k)
            assert not {second.game.guesses[g] for g in calls} & set(recorded)  # none of them again
            assert resumed.evaluated == len(calls)


def test_ctrl_c_on_the_cluster_saves_the_openers_done(games, scheduler, tmp_path):
    seed = stoppable(games)[0]
    search, spec = setup(games, seed)
    path, bar = tmp_path / "c.json", Interrupting(2)
    stopped = cluster.search_on_cluster(scheduler, spec, search, checkpoint=path, progress=lambda total, done: bar)
    assert stopped.interrupted and not stopped.finished and bar.closed and "best" in bar.postfix
    saved = read_root_checkpoint(path, search.game, search.cap, ALL_RULES)
    assert len(saved["results"]) == 2 and not saved["finished"]
    resumed = root_search(setup(games, seed)[0], path, resume=True)
    assert (resumed.value, resumed.guess) == games[seed][3]


def test_budgets_of_results_recorded_out_of_order(games):
    """An exact total recorded after an opener's position budgets it one more (a tie goes to the
    earlier opener); one recorded before budgets it as is; the best is the earliest least total."""
    seed = stoppable(games)[0]
    search = setup(games, seed)[0]
    plan = root_plan(search)
    words = [search.game.guesses[plan.guess(p)] for p in range(3)]
    ledger = RootLedger(search, plan, {words[2]: (50, True)})
    assert ledger.budget(0) == ledger.budget(1) == 51 and ledger.budget(2) == DINF
    ledger.record(plan.guess(0), 60, True)
    assert ledger.budget(1) == 51 and ledger.budget(2) == 60
    ledger.record(plan.guess(1), 50, True)
    assert ledger.best() == (50, plan.guess(1)) and ledger.budget(2) == 50
    assert ledger.left_bound(False) == (int(plan.lbs[plan.order][3:].min()) if len(plan.order) > 3 else None)


class KillEveryExecutingWorker(distributed.WorkerPlugin):
    name = "kill-every-executing-worker"

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing":
            os._exit(1)


def test_a_job_killing_its_workers_is_one_line(games, tmp_path):
    import dask

    search, spec = setup(games, stoppable(games)[0])  # one whose root has openers to try
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as lc, distributed.Client(lc) as client:
        client.register_plugin(KillEveryExecutingWorker())
        with pytest.raises(UserError) as info:
            cluster.search_on_cluster(lc.scheduler_address, spec, search, checkpoint=tmp_path / "c.json")
    assert "killed 1 workers in turn" in str(info.value) and "\n" not in str(info.value)
    assert (tmp_path / "c.json").exists()


def test_worker_refuses_other_word_lists(games):
    search, spec = setup(games, SEEDS[0])
    forged = cluster.DordleSpec(cluster.GameSpec(**{**spec.game.__dict__, "cache_key": "0" * 24}), spec.rules)
    with pytest.raises(UserError, match="differs from the client's"):
        cluster.evaluate_opener(forged, 0, DINF)


def test_a_worker_job_values_an_opener_as_evaluate_does(games):
    search, spec = setup(games, stoppable(games)[0])
    plan = root_plan(search)
    g = plan.guess(0)
    value = search.evaluate(plan.S1, plan.S2, plan.ident, plan.d, g, DINF, plan.G)
    assert cluster.evaluate_opener(spec, g, DINF) == (g, value, value < DINF)
    assert isinstance(value, (int, np.integer))


# --- the command line ---
def run(*args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_cli_local_cluster_builds_the_in_process_tree(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    plain, out, path = tmp_path / "p.json", tmp_path / "t.json", tmp_path / "c.json"
    assert main(["dordle", "build", *dordle_lists, "-o", str(plain)]) == 0
    first_line = capsys.readouterr().out
    proc = run("dordle", "build", *dordle_lists, "--scheduler", "local", "--workers", 2, "--checkpoint", path, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split(",")[:3] == first_line.split(",")[:3]  # total, mean, first guess
    assert "openers:" in proc.stderr and "best 720" in proc.stderr
    a, b = orjson.loads(plain.read_bytes()), orjson.loads(out.read_bytes())
    assert a["tree"] == b["tree"] and a["result"]["total"] == b["result"]["total"] == 720
    assert a["result"]["first"] == b["result"]["first"]
    # the cluster's checkpoint, resumed in process: nothing left to evaluate, the same tree
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--resume", "-o", str(plain)]) == 0
    assert orjson.loads(plain.read_bytes())["tree"] == a["tree"]
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--status"]) == 0
    assert "finished" in capsys.readouterr().out


@pytest.mark.parametrize("extra, words", [
    (["--scheduler", "local", "--from", "salet:BBBBB/BBBBB"], "drop --from or --scheduler"),
    (["--scheduler", "local", "--objective", "worst"], "--objective total"),
    (["--scheduler", "local", "--first", "salet"], "with --first there is one"),
    (["--workers", "2"], "--scheduler local"),
    (["--scheduler", "tcp://127.0.0.1:1", "--workers", "2"], "--scheduler local"),
    (["--scheduler", "local", "--workers", "0"], "at least 1"),
])
def test_cli_scheduler_usage_errors(dordle_lists, tmp_path, capsys, extra, words):
    from wordtree.commands import main

    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(tmp_path / "c.json"), *extra]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def test_cli_unreachable_scheduler_is_one_line(dordle_lists, monkeypatch, capsys):
    from wordtree.commands import main
    from wordtree.exact import cluster as exact_cluster

    monkeypatch.setattr(exact_cluster, "CONNECT_TIMEOUT", "1s")
    assert main(["dordle", "build", *dordle_lists, "--scheduler", "tcp://127.0.0.1:1"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler" in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("wordtree: error")]) == 1
