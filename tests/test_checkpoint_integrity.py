"""Checkpoints carry their own integrity: every format is written with a sha256 of its payload
(files.sealed for JSON, files.members_sha256 for Hangman's .npz), and a file that is damaged,
edited, or without a checksum is refused in one line naming it, never used: a rank's edited
exact value does not change the best opener, a Dordle checkpoint's edited best value or refuted
opener does not change the tree. The finished proofs kept in runs/ (written before the
checksums) are read because their payloads' sha256s are in files.PROVEN_PAYLOADS."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import orjson
import pytest

from reference_trees import ROOT, write_lists
from wordtree.errors import CheckpointDamaged
from wordtree.files import PROVEN_PAYLOADS, members_sha256, payload_sha256, sealed, unsealed


def run(*args, timeout=600):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout)


def refused(proc, path, why: str) -> str:
    """The one error line of a command that refused the checkpoint `path` (exit 1), notices aside."""
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("notice: ")]
    assert len(lines) == 1 and str(path) in lines[0] and why in lines[0], proc.stderr
    assert "--overwrite" in lines[0]
    return lines[0]


def table(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    answers, guesses = write_lists(tmp_path_factory.mktemp("lists"), n_answers=80, n_guesses=200, seed=3)
    return ["--answers", answers, "--guesses", guesses, "--quiet"]


# --- the checksum itself ---
def test_a_sealed_document_reads_back_and_any_change_is_caught(tmp_path):
    doc = {"format": "x/1", "results": {"salet": [134, True], "crane": [140, False]}, "seconds": 1.25,
           "nested": {"b": [1, 2.5, None], "a": "text"}}
    raw = sealed(doc)
    back = orjson.loads(raw)
    assert back["checksum"] == "sha256:" + payload_sha256(doc)
    assert unsealed("f", dict(back), "rank") == doc
    reordered = orjson.loads(orjson.dumps(dict(reversed(list(back.items())))))
    assert unsealed("f", reordered, "rank") == doc  # canonical: the order of the fields does not count
    for change in (lambda d: d["results"]["salet"].__setitem__(0, 999), lambda d: d.pop("seconds"),
                   lambda d: d["results"].__setitem__("crane", [140, True]), lambda d: d.update(extra=1),
                   lambda d: d.update(checksum="sha256:" + "0" * 64), lambda d: d.update(checksum=17)):
        edited = orjson.loads(raw)
        change(edited)
        with pytest.raises(CheckpointDamaged, match="does not match its checksum"):
            unsealed(tmp_path / "f", edited, "rank")
    with pytest.raises(CheckpointDamaged, match="has no checksum") as info:
        unsealed(tmp_path / "f", dict(doc), "rank")
    assert info.value.unchecksummed and str(tmp_path / "f") in str(info.value)


def test_every_finished_proof_in_runs_is_accepted_by_its_recorded_payload():
    """Each file PROVEN_PAYLOADS names is in runs/ (a missing one fails) and its payload hashes to
    the recorded sha256, so that `--status` and a resume from a copy read it as before."""
    assert len(PROVEN_PAYLOADS) == 6
    for digest, name in PROVEN_PAYLOADS.items():
        path = ROOT / name
        assert path.is_file(), name
        if name.endswith(".npz"):
            with np.load(path) as data:
                assert members_sha256({key: data[key] for key in data.files}) == digest, name
        else:
            doc = orjson.loads(path.read_bytes())
            assert "checksum" not in doc and payload_sha256(doc) == digest, name
            assert unsealed(path, doc, "build") == doc


# --- the exact search: rank and build ---
def test_an_edited_exact_value_in_a_rank_checkpoint_is_refused(lists, tmp_path):
    ck = tmp_path / "r.ck"
    first = run("rank", *lists, "--limit", 30, "--top", 3, "--checkpoint", ck)
    assert first.returncode == 0, first.stderr
    saved = orjson.loads(ck.read_bytes())
    assert saved["checksum"].startswith("sha256:")
    best = min((v, w) for w, (v, exact) in saved["results"].items() if exact)[1]
    worst = max((v, w) for w, (v, exact) in saved["results"].items() if exact)[1]
    edited = orjson.loads(ck.read_bytes())
    edited["results"][best][0] = 999  # the 134 -> 999
    ck.write_bytes(orjson.dumps(edited))
    refused(run("rank", *lists, "--limit", 30, "--top", 3, "--checkpoint", ck, "--resume"), ck,
            "does not match its checksum")
    edited["results"][worst][0] = 1  # a worse opener marked best: refused the same
    edited["results"][best][0] = saved["results"][best][0]
    ck.write_bytes(orjson.dumps(edited))
    refused(run("rank", *lists, "--limit", 30, "--top", 3, "--checkpoint", ck, "--resume"), ck,
            "does not match its checksum")
    del edited["checksum"]  # a rank checkpoint of an older wordtree: no checksum at all
    edited["results"][worst][0] = saved["results"][worst][0]
    ck.write_bytes(orjson.dumps(edited))
    refused(run("rank", *lists, "--limit", 30, "--top", 3, "--checkpoint", ck, "--resume"), ck, "has no checksum")
    ck.write_bytes(orjson.dumps(saved))  # the file as written: resumed, the same table
    again = run("rank", *lists, "--limit", 30, "--top", 3, "--checkpoint", ck, "--resume")
    assert again.returncode == 0, again.stderr
    assert table(again.stdout) == table(first.stdout) and table(again.stdout)[0][0] == best


def test_an_edited_build_checkpoint_is_refused_by_build_and_status(lists, tmp_path):
    ck, out = tmp_path / "b.ck", tmp_path / "t.json"
    built = run("build", *lists, "--first", "auto", "--checkpoint", ck, "-o", out)
    assert built.returncode == 0, built.stderr
    doc = orjson.loads(ck.read_bytes())
    (key,) = doc["subtrees"]
    code = next(iter(doc["subtrees"][key]))
    doc["subtrees"][key][code]["value"] -= 1  # claims a class is cheaper than proven
    ck.write_bytes(orjson.dumps(doc))
    refused(run("build", *lists, "--first", "auto", "--checkpoint", ck, "--resume", "-o", out), ck,
            "does not match its checksum")
    refused(run("build", *lists, "--checkpoint", ck, "--status"), ck, "does not match its checksum")
    rank_ck = tmp_path / "b.ck.rank"
    rank = orjson.loads(rank_ck.read_bytes())
    rank.pop("checksum")
    rank_ck.write_bytes(orjson.dumps(rank))
    ck.write_bytes(sealed({k: v for k, v in orjson.loads(ck.read_bytes()).items() if k != "checksum"}
                          | {"subtrees": {}}))
    refused(run("build", *lists, "--first", "auto", "--checkpoint", ck, "--resume", "-o", out), rank_ck,
            "has no checksum")


# --- Dordle ---
def test_an_edited_dordle_checkpoint_is_refused_never_claimed(dordle_lists, tmp_path, capsys):
    from wordtree.commands import main

    path, out = tmp_path / "c.json", tmp_path / "t.json"
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "-o", str(out)]) == 0
    capsys.readouterr()
    true_total = orjson.loads(out.read_bytes())["result"]["total"]
    saved = orjson.loads(path.read_bytes())
    best = min((v, w) for w, (v, exact) in saved["results"].items() if exact)[1]
    edits = [lambda d: d["results"][best].__setitem__(0, d["results"][best][0] - 700),  # a better best value
             lambda d: d["results"][best].__setitem__(1, False),  # the best opener marked refuted
             lambda d: d.pop("checksum")]
    for edit in edits:
        doc = orjson.loads(path.read_bytes())
        edit(doc)
        bad = tmp_path / "bad.json"
        bad.write_bytes(orjson.dumps(doc))
        out.unlink(missing_ok=True)
        assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(bad), "--resume", "-o", str(out)]) == 1
        err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("notice: ")]
        assert len(err) == 1 and str(bad) in err[0] and "checksum" in err[0] and "--overwrite" in err[0], err
        assert not out.exists()
        assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(bad), "--status"]) == 1
        capsys.readouterr()
    assert main(["dordle", "build", *dordle_lists, "--checkpoint", str(path), "--resume", "-o", str(out)]) == 0
    assert orjson.loads(out.read_bytes())["result"]["total"] == true_total


def test_an_edited_dordle_heuristic_checkpoint_is_refused(tmp_path):
    from wordtree.dordle.checkpoint import HEURISTIC_FORMAT
    from wordtree.files import Checkpoint

    header = {"format": HEURISTIC_FORMAT, "first": "salet", "max_guesses": 7, "alpha": 1.0}
    path = tmp_path / "h.json"
    path.write_bytes(sealed({**header, "state": {"done": 3, "total": 12}}))
    assert Checkpoint(path, "Dordle heuristic", header).read() == {**header, "state": {"done": 3, "total": 12}}
    path.write_bytes(orjson.dumps({**header, "state": {"done": 3, "total": 2}}))
    with pytest.raises(CheckpointDamaged, match="has no checksum"):
        Checkpoint(path, "Dordle heuristic", header).read()


# --- Hangman ---
def test_an_edited_hangman_checkpoint_is_refused(tmp_path):
    import random

    from test_hangman import make, tiny_words
    from wordtree.hangman.memo import checksum_member
    from wordtree.hangman.search import Searcher

    hw = make(tiny_words(random.Random(5), 60, 4, "abcdefghij"))
    s = Searcher(hw, 3)
    everyone = np.arange(len(hw.words))
    value = s.solve(everyone, s.strikes)[:2]
    ck = tmp_path / "h.ck"
    s.save_memo(ck, s.nodes)
    assert Searcher(hw, 3).load_memo(ck) == s.nodes  # as written: read
    with np.load(ck) as data:
        members = {name: data[name] for name in data.files if name != "checksum"}
    assert members["e_val"].size
    edited = dict(members, e_val=members["e_val"] + 1)
    for bad_members, why in ((dict(edited, checksum=checksum_member(members)), "does not match its checksum"),
                             (edited, "has no checksum")):
        with open(tmp_path / "bad.ck", "wb") as f:
            np.savez(f, **bad_members)
        fresh = Searcher(hw, 3)
        for read in (fresh.load_memo, fresh.memo.read_header):
            with pytest.raises(CheckpointDamaged, match=why):
                read(tmp_path / "bad.ck")
    resumed = Searcher(hw, 3)
    resumed.load_memo(ck)
    assert resumed.solve(everyone, resumed.strikes)[:2] == value


# --- a resume with no checkpoint yet ---
def test_a_resume_of_a_checkpoint_not_there_yet_says_it_starts_fresh(lists, tmp_path):
    ck = tmp_path / "missing.ck"
    proc = run("rank", *lists, "--limit", 20, "--top", 2, "--checkpoint", ck, "--resume")
    assert proc.returncode == 0, proc.stderr
    said = [line for line in proc.stderr.splitlines() if str(ck) in line]
    assert said == [f"notice: {ck}: no checkpoint there yet to resume; starting a fresh one"], proc.stderr
    assert ck.exists()
    again = run("rank", *lists, "--limit", 20, "--top", 2, "--checkpoint", ck, "--resume")
    assert again.returncode == 0 and str(ck) not in again.stderr and table(again.stdout) == table(proc.stdout)
