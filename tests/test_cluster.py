"""rank on Dask distributed (engine/cluster.py) against the in-process rank on a reduced game: the
same exact values, valid bounds under pruning, a worker killed mid-run losing nothing, the CLI with
a LocalCluster and --resume, and one-line errors."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from reference_trees import ROOT, write_lists  # noqa: E402

from wordtree.exact import cluster  # noqa: E402
from wordtree.games import get_game  # noqa: E402
from wordtree.wordle.patterns import pattern_matrix  # noqa: E402
from wordtree.exact.checkpoint import load_checkpoint  # noqa: E402
from wordtree.exact.rank import rank  # noqa: E402

LIMIT = 40


@pytest.fixture(scope="module")
def setting(tmp_path_factory):
    answers, guesses = write_lists(tmp_path_factory.mktemp("lists"), n_answers=60, n_guesses=200, seed=5)
    args = argparse.Namespace(game=None, answers=str(answers), guesses=str(guesses), cache_dir=None, max_guesses=6,
                              mode="normal")
    game = get_game(None, args.answers, args.guesses)
    matrix = pattern_matrix(game).matrix
    return args, game, matrix


@pytest.fixture(scope="module")
def exact_values(setting):
    """Every one of the LIMIT first guesses valued exactly in-process (top = all: no budget ever
    prunes). Runs before any worker starts, so the workers load the kernels from numba's cache."""
    _, game, matrix = setting
    result = rank(game, matrix, top=LIMIT, limit=LIMIT, progress=False)
    assert all(exact for _, exact in result.values.values()) and len(result.values) == LIMIT
    return {w: v for w, (v, _) in result.values.items()}


@pytest.fixture(scope="module")
def scheduler(exact_values):
    """A LocalCluster of 2 worker processes, reached by its tcp:// address like a remote one."""
    assert os.environ["NUMBA_CACHE_DIR"]  # conftest's: the spawned workers inherit the environment
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        yield lc.scheduler_address


def spec_of(args, game):
    """The workers' spec of the game `args` (as the rank command parses them) describe."""
    options = {key: getattr(args, key, None) for key in cluster.GAME_OPTIONS}
    return cluster.game_spec(game, name=args.game, answers=args.answers, guesses=args.guesses, options=options,
                             cache_dir=args.cache_dir, max_guesses=args.max_guesses, mode=args.mode)


def check_ranking(values, exact_values, top):
    """values: word -> (value, exact?). Exact values are the true ones, the top `top` are the best
    true values, and every bound is a true lower bound no better than the top-th value."""
    assert set(values) == set(exact_values)
    truth = sorted(exact_values.values())
    exact = sorted(v for v, e in values.values() if e)
    assert exact[:top] == truth[:top]
    for word, (value, is_exact) in values.items():
        if is_exact:
            assert value == exact_values[word], word
        else:
            assert truth[top - 1] <= value <= exact_values[word], word


def test_one_job_tightens_its_own_budget(setting, exact_values):
    """All LIMIT guesses in one job from an empty budget: the job's own exact values must prune it."""
    args, game, matrix = setting
    words = list(exact_values)
    results = cluster.solve_first_guesses(spec_of(args, game), [game.guess_index[w] for w in words], [], 3)
    values = {game.guesses[g]: (v, e) for g, v, e in results}
    check_ranking(values, exact_values, top=3)
    assert sum(e for _, e in values.values()) < LIMIT  # the budget did prune


def test_worker_jobs_value_code_breaking_openers_like_the_in_process_rank():
    """A worker values code-breaking openers as the in-process rank does (the same values)."""
    args = argparse.Namespace(game="mastermind", answers=None, guesses=None, cache_dir=None, max_guesses=6,
                              mode="normal", pegs=3, colours=4)
    game = get_game("mastermind", pegs=3, colours=4)
    openers = rank(game, game._compute_matrix(), top=5, progress=False).values
    results = cluster.solve_first_guesses(spec_of(args, game), [game.guess_index[w] for w in openers], [], 5)
    assert {game.guesses[g]: (v, e) for g, v, e in results} == openers


def test_cluster_values_equal_in_process(setting, exact_values, scheduler):
    args, game, matrix = setting
    result = cluster.rank_on_cluster(scheduler, spec_of(args, game), game, matrix, top=LIMIT,
                                     limit=LIMIT, progress=False)
    assert not result.interrupted and result.considered == LIMIT
    assert result.values == {w: (v, True) for w, v in exact_values.items()}


class KillFirstExecutingWorker(distributed.WorkerPlugin):
    """Ends the worker process the first time any worker starts a job (once in all, by a marker file)."""

    name = "kill-first-executing-worker"

    def __init__(self, marker: str):
        self.marker = marker

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing":
            try:
                fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return
            os.close(fd)
            os._exit(1)


def test_pruned_cluster_rank_survives_a_dying_worker(setting, exact_values, scheduler, tmp_path):
    args, game, matrix = setting
    marker, checkpoint = tmp_path / "killed", tmp_path / "rank.ck"
    with distributed.Client(scheduler) as client:
        client.register_plugin(KillFirstExecutingWorker(str(marker)))
        try:
            result = cluster.rank_on_cluster(scheduler, spec_of(args, game), game, matrix, top=3,
                                             limit=LIMIT, progress=False, checkpoint=str(checkpoint))
        finally:
            client.unregister_worker_plugin(KillFirstExecutingWorker.name)
            client.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker for the next tests
    assert marker.exists()
    check_ranking(result.values, exact_values, top=3)
    assert load_checkpoint(checkpoint, game, 6, "normal") == result.values


def run(*args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_cli_local_cluster_resumes_an_in_process_checkpoint(setting, exact_values, tmp_path):
    args, game, matrix = setting
    checkpoint = tmp_path / "rank.ck"
    rank(game, matrix, top=3, limit=LIMIT // 2, progress=False, checkpoint=str(checkpoint))
    started = load_checkpoint(checkpoint, game, 6, "normal")
    proc = run("rank", "--answers", args.answers, "--guesses", args.guesses, "--top", 3, "--limit", LIMIT,
               "--scheduler", "local", "--workers", 2, "--checkpoint", checkpoint, "--resume", "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows = [line.split("\t") for line in proc.stdout.splitlines() if not line.startswith("#")]
    values = {w: (int(v), kind == "exact") for w, v, kind in rows}
    assert len(rows) == LIMIT and [int(r[1]) for r in rows] == sorted(int(r[1]) for r in rows)
    check_ranking(values, exact_values, top=3)
    assert all(values[w] == started[w] for w in started)  # resumed: the checkpointed results are kept as they were
    assert load_checkpoint(checkpoint, game, 6, "normal") == values


@pytest.mark.parametrize("address, message", [
    ("nonsense", "want tcp://HOST:PORT"),
    ("tcp://127.0.0.1:1", "cannot reach the Dask scheduler"),
])
def test_bad_scheduler_is_one_line(setting, monkeypatch, capsys, address, message):
    from wordtree import commands as cli

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    args, _, _ = setting
    code = cli.main(["rank", "--answers", args.answers, "--guesses", args.guesses, "--limit", "3", "--quiet",
                     "--scheduler", address])
    err = capsys.readouterr().err
    assert code == 1 and message in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("wordtree: error")]) == 1


def test_missing_distributed_says_what_to_install(setting, monkeypatch, capsys):
    from wordtree import commands as cli

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    args, _, _ = setting
    code = cli.main(["rank", "--answers", args.answers, "--guesses", args.guesses, "--limit", "3", "--quiet",
                     "--scheduler", "local"])
    err = capsys.readouterr().err
    assert code == 1 and 'pip install -e ".[cluster]"' in err


@pytest.mark.parametrize("options, message", [
    (["--workers", "2"], "--scheduler local"),
    (["--scheduler", "local", "--threads", "2"], "--threads"),
    (["--scheduler", "local", "--workers", "0"], "at least 1"),
])
def test_option_misuse_is_a_usage_error(setting, capsys, options, message):
    from wordtree import commands as cli

    args, _, _ = setting
    code = cli.main(["rank", "--answers", args.answers, "--guesses", args.guesses, "--limit", "3", "--quiet",
                     *options])
    err = capsys.readouterr().err
    assert code == 2 and message in err, err


def test_worker_refuses_other_word_lists(setting):
    args, game, _ = setting
    spec = spec_of(args, game)
    forged = cluster.GameSpec(**{**spec.__dict__, "cache_key": "0" * 24})
    with pytest.raises(cluster.UserError, match="differs from the client's"):
        cluster.solve_first_guesses(forged, [0], [], 1)
    assert Path(spec.answers).is_absolute()


def test_anagram_jobs_keep_order_and_group_anagrams(setting):
    _, game, _ = setting
    import random

    guesses = list(range(len(game.guesses)))
    random.Random(4).shuffle(guesses)
    jobs = cluster.anagram_jobs(game, guesses)
    assert sorted(g for job in jobs for g in job) == sorted(guesses)
    letters = [{"".join(sorted(game.guesses[g])) for g in job} for job in jobs]
    assert all(len(key) == 1 for key in letters) and len(set.union(*letters)) == len(jobs)
    firsts = [job[0] for job in jobs]
    assert firsts == sorted(firsts, key=guesses.index)  # each job sits where its first guess was
    assert all(job == sorted(job, key=guesses.index) for job in jobs)
    assert any(len(job) > 1 for job in jobs)
