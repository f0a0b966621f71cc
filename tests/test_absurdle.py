"""Absurdle: the proof of the fewest guesses and the winning openers against the brute force of
reference_absurdle.py (both tie rules, prunes on and off), the kernels against their plain twins,
the document's verifier against damaged documents, the shipped proof, and the commands."""

import random
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import orjson
import pytest

import reference_absurdle as ref
from wordtree.absurdle import kernels
from wordtree.absurdle.build import AbsurdleSpec, build, checkpoint_for
from wordtree.absurdle.document import check, lower_bound_holds, replay, verify
from wordtree.absurdle.rule import RULES, code_rank
from wordtree.absurdle.search import Board
from wordtree.errors import Stopped, UserError
from wordtree.games import get_game
from wordtree.games.wordle import Wordle
from wordtree.words import WordList, canonical_sha256

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "trees" / "absurdle" / "absurdle-wordle.json"
SHIPPED_ABSURDLE = sorted((ROOT / "trees" / "absurdle").glob("*.json"))


def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


@lru_cache(maxsize=None)
def wordle():
    return get_game("wordle")


def instance(seed):
    """A small game: answers near a random word (near words are hard to corner), random guesses."""
    rng = random.Random(seed)
    game = wordle()
    centre = rng.choice(game.answers)
    near = sorted(game.answers, key=lambda w: (-sum(x == y for x, y in zip(w, centre)), rng.random()))
    answers = sorted(near[: rng.randint(5, 14)])
    guesses = sorted(set(rng.sample(game.guesses, rng.randint(8, 20))) | set(answers))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def proof(game, rule, prunes=True):
    board = Board.of(game, RULES[rule], game._compute_matrix())
    board.prunes = prunes
    import wordtree.absurdle.build as b

    original = b.Board.of
    b.Board.of = classmethod(lambda cls, g, r, matrix=None: board)
    try:
        return build(game, AbsurdleSpec(rule, every_opener=True), show_progress=False)
    finally:
        b.Board.of = original


SEEDS = range(10)


@pytest.mark.parametrize("rule", ["qntm", "any"])
@pytest.mark.parametrize("seed", SEEDS)
def test_fewest_and_winning_openers_match_the_brute_force(seed, rule):
    game = instance(seed)
    wins = ref.opener_wins(game.guesses, game.answers, rule == "any")
    least = min(w for w in wins.values() if w is not None)
    for prunes in (True, False):
        doc = proof(game, rule, prunes)
        assert doc["fewest"] == least
        assert set(doc["lines"]) == {g for g, w in wins.items() if w == least}
        assert verify(doc, game) == []


def test_the_kernels_reply_as_the_plain_adversary():
    rng = random.Random(5)
    game = wordle()
    from wordtree.wordle.patterns import pattern_matrix

    M = pattern_matrix(game).matrix
    rank = code_rank(5)
    cnt = np.zeros(243, np.int64)
    codes = np.empty(243, np.int64)
    for _ in range(300):
        S = np.array(sorted(rng.sample(range(len(game.answers)), rng.randint(1, 40))), dtype=np.int32)
        g = rng.randrange(len(game.guesses))
        answers = tuple(game.answers[a] for a in S)
        for ties, any_tie in ((kernels.TIES_FIXED, False), (kernels.TIES_ANY, True)):
            n, size = kernels._replies(M, S, g, rank, ties, cnt, codes)
            expected = ref.kept(game.guesses[g], answers, any_tie)
            assert sorted(game.pattern_text(int(c)) for c in codes[:n]) == sorted(p for p, _ in expected)
            assert size == len(expected[0][1])
            assert not cnt.any()


def test_the_separator_stops_only_where_no_guess_can_separate():
    rng = random.Random(9)
    game = wordle()
    from wordtree.wordle.patterns import pattern_matrix

    M = pattern_matrix(game).matrix
    board = Board.of(game, RULES["qntm"], M)
    seen = np.zeros(243, np.int64)
    for _ in range(40):
        parent = np.array(sorted(rng.sample(range(len(game.answers)), 60)), dtype=np.int32)
        bound, epoch = kernels._distinct(M, parent, seen, 0)
        order = np.argsort(-bound, kind="mergesort").astype(np.int32)
        S = np.array(sorted(rng.sample(list(parent), rng.randint(2, 12))), dtype=np.int32)
        g, epoch = kernels._separator(M, S, order, bound, seen, epoch)
        plain = board.separator(S)
        assert (g >= 0) == (plain >= 0)
        if g >= 0:
            assert len(set(M[g, S])) == S.size


def damaged(doc, how):
    doc = orjson.loads(orjson.dumps(doc))
    opener, line = next(iter(doc["lines"].items()))
    if how == "fewest":
        doc["fewest"] -= 1
    elif how == "guess":
        child = next(iter(line["next"].values()))
        child["guess"] = "zzzzz" if "guess" in child else child["guess"]
    elif how == "reply":
        key = next(iter(line["next"]))
        line["next"]["GGGGB" if key != "GGGGB" else "BBBBB"] = line["next"].pop(key)
    elif how == "winning":
        doc["openers"]["winning"] += 1
    elif how == "leaf":
        node = line
        while node.get("next"):
            node = next(iter(node["next"].values()))
        node["guess"] = "aahed"
    return doc


@pytest.mark.parametrize("how", ["fewest", "guess", "reply", "winning", "leaf"])
def test_verify_refuses_a_damaged_document(how):
    game = instance(3)
    doc = proof(game, "qntm")
    assert verify(doc, game) == []
    assert verify(damaged(doc, how), game) != []


@pytest.mark.parametrize("field,value", [("fewest", "4"), ("rule", "nice"), ("lines", []), ("game", 3),
                                         ("openers", {"searched": 1}), ("fewest", 10 ** 9)])
def test_a_document_of_wrong_types_is_one_line(field, value):
    doc = orjson.loads(SHIPPED.read_bytes())
    doc[field] = value
    with pytest.raises(UserError):
        check(doc)


def test_a_stopped_sweep_resumes_to_the_same_proof(tmp_path, monkeypatch):
    game = instance(4)
    whole = proof(game, "qntm")
    path = tmp_path / "ck.json"
    spec = AbsurdleSpec("qntm", every_opener=True)
    import wordtree.absurdle.build as b

    real = b.sweep_openers
    calls = []

    def stopping(*args, on_done=None, **kwargs):
        if on_done is None:  # (the search for the first winner)
            return real(*args, **kwargs)

        def done(name, line):
            on_done(name, line)
            calls.append(name)
            if len(calls) == 3:
                raise KeyboardInterrupt

        return real(*args, on_done=done, **kwargs)

    monkeypatch.setattr(b, "sweep_openers", stopping)
    with pytest.raises(Stopped):
        build(game, spec, checkpoint=checkpoint_for(path, game, spec), show_progress=False)
    kept = orjson.loads(path.read_bytes())["lines"]
    assert len(kept) >= 3
    with pytest.raises(UserError):  # an existing checkpoint is not started over silently
        build(game, spec, checkpoint=checkpoint_for(path, game, spec), show_progress=False)
    monkeypatch.setattr(b, "sweep_openers", real)
    resumed = build(game, spec, checkpoint=checkpoint_for(path, game, spec), resume=True, show_progress=False)
    assert resumed["lines"] == whole["lines"] and resumed["fewest"] == whole["fewest"]
    other = AbsurdleSpec("any", every_opener=True)
    with pytest.raises(UserError):  # a checkpoint of another rule is refused
        build(game, other, checkpoint=checkpoint_for(path, game, other), resume=True, show_progress=False)


def test_the_shipped_proof_of_the_original_lists_is_there():
    assert SHIPPED in SHIPPED_ABSURDLE


@pytest.mark.parametrize("path", SHIPPED_ABSURDLE, ids=lambda p: p.stem)
def test_a_shipped_proof_verifies_and_its_bound_is_re_proved(path):
    from wordtree.absurdle.document import game_of

    doc = orjson.loads(path.read_bytes())
    check(doc)
    game = game_of(doc)
    assert doc["fewest"] == 4
    assert verify(doc, game) == []
    from wordtree.wordle.patterns import pattern_matrix

    assert lower_bound_holds(doc, game, pattern_matrix(game).matrix)
    for opener, line in doc["lines"].items():
        assert replay(doc, game, opener, line) == 4


def test_the_carried_sweep_of_every_opener_resumes_with_this_engine():
    """runs/absurdle-wordle-openers.ck (runs/README.md) is taken by a resume of the sweep it
    records, checksum and all, and holds every opener's verdict: its winning lines are the
    shipped proof's, each replayed to a win in 4."""
    path = ROOT / "runs" / "absurdle-wordle-openers.ck"
    shipped = orjson.loads(SHIPPED.read_bytes())
    game = get_game("wordle", shipped["game"]["answers"], shipped["game"]["guesses"])
    payload = checkpoint_for(path, game, AbsurdleSpec("qntm", every_opener=True)).read(resuming=True)
    assert payload is not None and payload["cornering"] == shipped["lower_bound"]["cornering_after_opener"]
    assert set(payload["lines"]) == set(game.guesses)
    winning = {name: line for name, line in payload["lines"].items() if line}
    assert winning == shipped["lines"] and len(winning) == shipped["openers"]["winning"]


def cli(*args, stdin=None):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          input=stdin, timeout=900)


def test_the_commands(tmp_path):
    game = instance(6)
    (tmp_path / "a.txt").write_text("\n".join(game.answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(game.guesses) + "\n")
    out = tmp_path / "p.json"
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    done = cli("build", "absurdle", *lists, "--every-opener", "-o", str(out), "--quiet", "--json")
    assert done.returncode == 0, done.stderr
    report = orjson.loads(done.stdout)
    wins = ref.opener_wins(game.guesses, game.answers, False)
    assert report["fewest"] == min(w for w in wins.values() if w is not None)
    assert cli("verify", str(out), *lists).returncode == 0
    shown = cli("trees")
    assert "absurdle-wordle" in shown.stdout
    nxt = cli("next", "--game", "absurdle", "--json")
    assert nxt.returncode == 0, nxt.stderr
    first = orjson.loads(nxt.stdout)
    assert first["wins_in"] == 4 and first["source"] == "line"
    doc = orjson.loads(SHIPPED.read_bytes())
    line = doc["lines"][first["guess"]]
    guesses = []
    while True:
        guesses.append(line["guess"])
        if not line.get("next"):
            break
        line = next(iter(line["next"].values()))
    played = cli("play", "--game", "absurdle", stdin="\n".join(guesses) + "\n")
    assert played.returncode == 0, played.stderr
    assert "won in 4 guesses" in played.stdout
    bad = cli("next", "--game", "absurdle", "qqqqq")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    assert cli("build", "absurdle", "--rule", "nice").returncode == 2
    assert cli("build", "absurdle", "--checkpoint", str(tmp_path / "c")).returncode == 2
